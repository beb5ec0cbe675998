"""Retracting a statement in a real browser: a note the server refuses comes back whole, under its statement, with
why next to it; the browser cuts nothing pasted in."""

import pytest
from playwright.sync_api import expect

from negotiations.models import Statement
from tests.browser.a11y import axe_violations, describe_violations

# 400 characters, pasted: longer than a note may be (300).
LONG_NOTE = ("Misattributed: the wire service quoted the deputy minister's aide, not the minister; "
             "the ministry's correction of the next morning says so. ") * 3
LONG_NOTE = LONG_NOTE[:399] + "."


def _refuse_a_long_note(page, address: str):
    """Open the first statement's Retract form at ``address``, paste LONG_NOTE and send it: (statement, its note field)."""
    page.goto(address)
    article = page.locator("article.statement:has(details.retract)").first
    pk = int(article.get_attribute("id").removeprefix("statement-"))
    article.locator("details.retract summary").click()
    note = page.locator(f"#retract-note-{pk}")
    note.focus()
    page.keyboard.insert_text(LONG_NOTE)  # as a paste: a maxlength would cut it here, without a word
    with page.expect_navigation():
        article.locator("details.retract button[type=submit]").click()
    return Statement.objects.get(pk=pk), note


def test_a_refused_note_comes_back_whole_under_its_statement(page, live_server, cjg_data, editor_login, no_favicon):
    no_favicon(page)
    editor_login(page)
    statement, note = _refuse_a_long_note(page, f"{live_server.url}/statements/?jurisdiction=ON")
    assert not Statement.objects.get(pk=statement.pk).retracted, "nothing written"
    # The same list (its filter kept), this statement's form open, the whole note in it and why next to it.
    assert page.url.endswith("/statements/?jurisdiction=ON#error-summary"), page.url
    expect(page.locator(f"#statement-{statement.pk} details.retract")).to_have_attribute("open", "")
    expect(note).to_have_value(LONG_NOTE)
    expect(note).to_have_attribute("aria-invalid", "true")
    expect(note).to_have_attribute("aria-describedby", f"retract-note-{statement.pk}_error")
    message = page.locator(f"#retract-note-{statement.pk}_error")
    expect(message).to_be_visible()
    expect(message).to_contain_text("at most 300 characters (it has 400)")
    # The focus is on what went wrong, in view; its link leads to the note.
    summary = page.locator(f"#statement-{statement.pk} [data-error-summary]")
    expect(summary).to_be_focused()
    expect(summary).to_be_in_viewport()
    summary.get_by_role("link").click()
    expect(note).to_be_focused()
    # Shortened, it is saved.
    note.fill(LONG_NOTE[:120])
    with page.expect_navigation():
        page.locator(f"#statement-{statement.pk}").get_by_role("button", name="Mark as retracted").click()
    expect(page.locator(f"#statement-{statement.pk} .retraction")).to_contain_text(LONG_NOTE[:120].strip())
    statement.refresh_from_db()
    assert statement.retracted and statement.retraction_note == LONG_NOTE[:120].strip()


@pytest.mark.parametrize("prefix", ["", "/fr"])
def test_a_refused_note_fits_a_phone(phone_page, live_server, cjg_data, editor_login, no_favicon, screenshot, prefix):
    no_favicon(phone_page)
    editor_login(phone_page)
    statement, note = _refuse_a_long_note(phone_page, f"{live_server.url}{prefix}/statements/")
    expect(note).to_have_value(LONG_NOTE)
    expect(phone_page.locator(f"#retract-note-{statement.pk}_error")).to_be_visible()
    screenshot(phone_page, f"retract-refused-phone{prefix.replace('/', '-')}")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    violations = axe_violations(phone_page)
    assert not violations, describe_violations("the refused retraction", violations)
    button = phone_page.locator(f"#statement-{statement.pk} details.retract button[type=submit]")
    assert button.bounding_box()["x"] + button.bounding_box()["width"] <= 390


def test_without_javascript_too(browser, live_server, cjg_data, editor_login):
    """A plain post (the form has no htmx): the browser, following the redirect, focuses the error summary itself."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    try:
        page = context.new_page()
        page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
        editor_login(page)
        statement, note = _refuse_a_long_note(page, f"{live_server.url}/statements/")
        expect(note).to_have_value(LONG_NOTE)
        expect(note).to_have_attribute("aria-invalid", "true")
        expect(page.locator(f"#retract-note-{statement.pk}_error")).to_contain_text("at most 300 characters")
        expect(page.locator(f"#statement-{statement.pk} #error-summary")).to_be_focused()
        assert not Statement.objects.get(pk=statement.pk).retracted
    finally:
        context.close()
