"""Importing an article in a real browser: paste it, review each quote (htmx), commit, see the statements.

Also the bad input of each region: the import form (a plain post), the source region and a
proposal's region (htmx): a clear message where the problem is, and nothing typed is lost.
"""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from negotiations.models import ArticleImport, Statement

ARTICLE = (Path(__file__).resolve().parents[1] / "data" / "articles" / "ledger_utf8.html").read_text(encoding="utf-8")


@pytest.fixture
def record(transactional_db):
    from tests.factories import JurisdictionFactory, NegotiationFactory

    for code in ("CA", "SK", "QC"):
        JurisdictionFactory(code=code)
    return NegotiationFactory(title="Apprenticeship fund")


def proposal(page, number):
    return page.locator("article.proposal").nth(number - 1)


def test_import_review_and_commit(page, live_server, editor_login, record, screenshot):
    editor_login(page)
    page.goto(f"{live_server.url}/imports/new")
    expect(page.locator("h1")).to_have_text("Import an article")

    # Bad input on the import form: nothing pasted, nothing uploaded. The address typed stays.
    page.fill("#id_url", "https://ledger.example/a")
    page.click("text=Read the article")
    expect(page.locator(".field-error")).to_contain_text("The article is empty")
    expect(page.locator("#id_url")).to_have_value("https://ledger.example/a")
    assert ArticleImport.objects.count() == 0

    page.fill("#id_text", ARTICLE)
    page.fill("#id_url", "")
    page.click("text=Read the article")
    expect(page.locator("h1")).to_have_text("Review an import")
    expect(page.locator("article.proposal")).to_have_count(6)
    expect(proposal(page, 1).locator("mark")).to_have_text("We will not sign a cheque we cannot cash,")
    assert Statement.objects.count() == 0  # nothing in the record before the commit

    # The source region (htmx): a bad address is refused next to it, the title typed is kept.
    page.fill("#id_title", "Ministers spar over the fund")
    page.fill("#id_url", "not an address")
    page.click("text=Save the source")
    expect(page.locator("#import-source")).to_contain_text("Enter a valid URL")
    expect(page.locator("#id_title")).to_have_value("Ministers spar over the fund")
    page.fill("#id_url", "https://ledger.example/2015/03/05/apprenticeship-fund")
    page.click("text=Save the source")
    expect(page.locator("#import-source")).to_contain_text("The source is saved.")

    # A proposal's region (htmx): accepting without a date is refused there, the role edited is kept.
    first = proposal(page, 1)
    first.locator("[name=speaker_role]").fill("Minister of Advanced Education")
    first.locator("input[type=date]").fill("")
    first.locator("button[value=accept]").click()
    expect(proposal(page, 1)).to_contain_text("Give the date it was said.")
    expect(proposal(page, 1).locator("[name=speaker_role]")).to_have_value("Minister of Advanced Education")
    proposal(page, 1).locator("input[type=date]").fill("2015-03-03")
    proposal(page, 1).locator("button[value=accept]").click()
    expect(proposal(page, 1).locator(".decision")).to_have_text("accepted as edited")

    proposal(page, 2).locator("button[value=reject]").click()
    expect(proposal(page, 2).locator(".decision")).to_have_text("rejected")
    for number in (3, 4, 5, 6):
        proposal(page, number).locator("button[value=accept]").click()
        expect(proposal(page, number).locator(".decision")).to_have_text("accepted")
    expect(page.locator("#import-counts")).to_have_text("To review: 0 · accepted: 4 · edited: 1 · rejected: 1")
    screenshot(page, "import-review")

    page.click("text=Commit the accepted quotes")
    expect(page.locator(".messages")).to_contain_text("5 statements are recorded.")
    expect(page.locator("h1")).to_contain_text("Ministers spar over the fund")
    expect(page.locator("#cited-statements")).to_contain_text("We will not sign a cheque we cannot cash.")
    expect(page.locator("#cited-statements")).to_contain_text("Rowan Feild")
    assert Statement.objects.count() == 5


def test_review_works_without_javascript(browser, live_server, editor_login, record):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    editor_login(page)
    page.goto(f"{live_server.url}/imports/new")
    page.fill("#id_text", ARTICLE)
    page.click("text=Read the article")
    expect(page.locator("article.proposal")).to_have_count(6)
    first = proposal(page, 1)
    first.locator("input[type=date]").fill("")
    first.locator("button[value=accept]").click()
    expect(page.locator(".messages")).to_contain_text("not accepted yet")
    expect(proposal(page, 1)).to_contain_text("Give the date it was said.")
    proposal(page, 1).locator("input[type=date]").fill("2015-03-03")
    proposal(page, 1).locator("button[value=accept]").click()
    expect(proposal(page, 1).locator(".decision")).to_have_text("accepted")
    context.close()


def test_the_review_by_keyboard_keeps_the_focus_where_the_answer_is(page, live_server, editor_login, record):
    """A proposal's or the source's region, replaced by the server's answer, took the focus with it to the top of the
    page: a refused quote now puts it on the field marked, a decision on the same button; a rejected quote keeps its
    contrast (it was dimmed below 4.5:1)."""
    from tests.browser.a11y import axe_violations, describe_violations

    editor_login(page)
    page.goto(f"{live_server.url}/imports/new")
    page.fill("#id_text", ARTICLE)
    page.click("text=Read the article")
    expect(page.locator("article.proposal")).to_have_count(6)
    proposal(page, 1).locator("input[type=date]").fill("")
    proposal(page, 1).locator("button[value=accept]").focus()
    page.keyboard.press("Enter")
    expect(proposal(page, 1)).to_contain_text("Give the date it was said.")
    expect(proposal(page, 1).locator("input[type=date]")).to_be_focused()
    proposal(page, 2).locator("button[value=reject]").focus()
    page.keyboard.press("Enter")
    expect(proposal(page, 2).locator(".decision")).to_have_text("rejected")
    expect(proposal(page, 2).locator("button[value=reject]")).to_be_focused()
    page.fill("#id_url", "not an address")
    page.locator("#import-source button").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#import-source")).to_contain_text("Enter a valid URL")
    expect(page.locator("#id_url")).to_be_focused()
    violations = axe_violations(page)
    assert not violations, describe_violations("import review", violations)
