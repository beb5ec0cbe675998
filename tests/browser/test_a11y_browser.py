"""The accessibility fixes axe cannot check by itself, each as a person meets it: the stance matrix
walked by keyboard, the error summary a refused save moves the focus to, the live preview's one
status line, live errors on the field changed, the contrast of field borders, and a keyboard-only
walk of the offer form."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import border_contrast

MATRIX = "/negotiations/canada-job-grant/stances"


@pytest.fixture
def editor_page(page, live_server, cjg_data, editor_login):
    page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    editor_login(page)
    return page


def focused(page, what="el => el.getAttribute('aria-label') || el.id || el.textContent.trim()"):
    return page.evaluate(f"(() => {{ const el = document.activeElement; return ({what})(el); }})()")


def test_the_stance_matrix_is_one_tab_stop_walked_by_arrow_keys(page, live_server, cjg_data):
    page.goto(f"{live_server.url}{MATRIX}")
    grid = page.get_by_role("grid")
    expect(grid).to_be_visible()
    # Every cell's accessible name starts with the text it shows ("Supp.", "Opp.", ...). (The offers' marks,
    # a ◆ glyph named "Offer: …", are links of their own, not stance cells.)
    mismatched = page.evaluate("""() => Array.from(document.querySelectorAll('.matrix td a:not(.offer-mark)'))
        .filter(a => a.textContent.trim() !== '–' && !a.getAttribute('aria-label').startsWith(a.textContent.trim()))
        .map(a => a.outerHTML)""")
    assert mismatched == []
    assert page.locator(".matrix td a", has_text="Supp.").count() > 0
    # One tab stop: exactly one cell is in the tab order.
    assert page.locator(".matrix a[tabindex='0']").count() == 1

    page.locator(".matrix a[tabindex='0']").focus()
    start = focused(page)
    assert start.startswith(("Supp.", "Cond.", "Opp.", "Out", "?", "Government of Canada")), start
    assert "Government of Canada" in start
    page.keyboard.press("ArrowRight")
    second = focused(page)
    assert second != start and "Government of Canada" in second
    page.keyboard.press("ArrowDown")
    assert "Newfoundland and Labrador" in focused(page)
    page.keyboard.press("End")  # the row's last month
    last_cell = page.locator(".matrix tbody tr").nth(1).locator("td a").last.get_attribute("href")
    assert focused(page, "el => el.getAttribute('href')") == last_cell
    page.keyboard.press("Home")  # the row's header: the government's own page
    assert focused(page, "el => el.getAttribute('href')") == "/jurisdictions/NL/"
    page.keyboard.press("Control+End")
    assert "Nunavut" in focused(page)
    # The tab stop follows the focus: Tab leaves the grid, Shift+Tab comes back to the same cell.
    here = focused(page)
    page.keyboard.press("Tab")
    assert focused(page) != here
    page.keyboard.press("Shift+Tab")
    assert focused(page) == here
    assert page.locator(".matrix a[tabindex='0']").count() == 1
    # Enter opens the cell's evidence in the side panel.
    page.keyboard.press("Enter")
    expect(page.locator("#evidence h2")).to_contain_text("Nunavut")


def _refuse(page):
    # As a person sends it: the form itself leaves the refusal to the server (the browser's own bubble, in the
    # browser's language and gone at the next keystroke, stopped the statement, position and scenario forms).
    form = page.locator("main form[method=post]").last
    form.locator("[type=submit]").first.click()  # its own save (the offer form's last saves a scenario)
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("address", ["/offers/new", "/statements/new", "/positions/new", "/scenarios/new"])
def test_a_refused_save_moves_the_focus_to_an_error_summary(editor_page, live_server, address):
    page = editor_page
    page.goto(f"{live_server.url}{address}")
    _refuse(page)
    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    assert page.title().startswith("Error: ")
    links = summary.locator("a[href^='#']")
    assert links.count() >= 1
    # Each link leads to a field that exists; following the first puts the focus in that field.
    for href in links.evaluate_all("links => links.map(a => a.getAttribute('href'))"):
        assert page.locator(href).count() == 1, href
    first = links.first.get_attribute("href")
    links.first.click()
    expect(page.locator(first)).to_be_focused()


def test_a_refused_login_moves_the_focus_to_the_error_summary(page, live_server, cjg_data, editor_login):
    assert editor_login  # the user exists
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "editor")
    page.fill("#id_password", "not the password")
    page.click("main form [type=submit]")
    expect(page.locator("#error-summary")).to_be_focused()
    assert page.title().startswith("Error: ")
    expect(page.locator("#error-summary")).to_contain_text("correct username and password")


def test_the_preview_says_what_changed_in_one_status_line(editor_page, live_server):
    page = editor_page
    page.goto(f"{live_server.url}/offers/new?from=budget-2013")
    status = page.locator("#preview-status")
    expect(status).to_have_text("Figures updated: 60,000 trainees; provinces and territories must find $600,000,000.")
    expect(status).to_have_attribute("role", "status")
    # The figures themselves are not a live region and carry no alert; the indicator is not read.
    region = page.locator("#fiscal-preview")
    assert region.get_attribute("aria-live") is None
    expect(page.locator("#preview-heading .htmx-indicator")).to_have_attribute("aria-hidden", "true")
    expect(page.locator("#preview-heading")).to_have_accessible_name("Fiscal effect")
    # Watch the status element and the region while the terms change: the same element, text
    # replaced in place; aria-busy on the region while the figures load, then off.
    page.evaluate("""() => {
        window.__status = document.getElementById('preview-status');
        window.__busy = [];
        new MutationObserver(() => window.__busy.push(document.getElementById('fiscal-preview').getAttribute('aria-busy')))
            .observe(document.getElementById('fiscal-preview'), {attributes: true, attributeFilter: ['aria-busy']});
    }""")
    page.fill("#id_federal_amount", "6000")
    # The last figures stay on screen, out of date, and the one status line says so (issue 16.5).
    expect(status).to_have_text(re.compile(
        r"^The terms do not add up \(\d problems?\); the figures shown are from your last valid terms\.$"))
    page.fill("#id_max_grant", "16000")
    page.fill("#id_federal_LMA", "6000")
    expect(status).to_have_text(re.compile(r"^Figures updated: 50,000 trainees; provinces and territories must find \$[\d,]+\.$"))
    assert page.evaluate("() => window.__status === document.getElementById('preview-status')")
    assert page.locator("[role=alert]").count() == 0
    # (the status can match while the last keystroke's request is still out: wait for it to land first)
    expect(region).not_to_have_attribute("aria-busy", "true")
    busy = page.evaluate("() => window.__busy")
    assert "true" in busy and busy[-1] is None


def test_a_live_error_lands_on_the_field_changed_and_is_announced_once(editor_page, live_server):
    page = editor_page
    page.goto(f"{live_server.url}/offers/new?from=budget-2013")
    expect(page.locator("#preview-status")).to_contain_text("Figures updated")
    page.fill("#id_employer_amount", "4000")
    slot = page.locator("#id_employer_amount_error")
    expect(slot).to_contain_text("add up to")
    expect(page.locator("#id_max_grant_error")).to_be_empty()
    expect(page.locator("#id_employer_amount")).to_have_attribute("aria-invalid", "true")
    announced = page.locator("#validation-status")
    expect(announced).to_have_attribute("role", "status")
    expect(announced).to_contain_text(re.compile(r"^Employer[^:]*: The federal"))
    # The "⚠" before the message is drawn, not read: the message's accessible text has no glyph.
    assert "⚠" not in slot.locator("p").first.evaluate(
        "p => getComputedStyle(p, '::before').getPropertyValue('content').split('/').pop()")
    # Fixed: the slot empties and the status says nothing more.
    page.fill("#id_employer_amount", "5000")
    expect(slot).to_be_empty()
    expect(announced).to_have_text("")


def test_a_live_error_is_announced_with_the_french_colon(editor_page, live_server):
    # The status line names the field as the page's language writes a label: "Montant … : …" with a
    # no-break space in French, not the script's own English ": ".
    page = editor_page
    page.goto(f"{live_server.url}/fr/offers/new?from=budget-2013")
    expect(page.locator("#preview-status")).not_to_be_empty()
    page.fill("#id_employer_amount", "4000")
    expect(page.locator("#id_employer_amount_error")).not_to_be_empty()
    announced = page.locator("#validation-status")
    expect(announced).to_have_text(re.compile(r"^[^:]*\S\u00a0: \S"))


def test_field_borders_reach_3_to_1_against_the_page(editor_page, live_server):
    page = editor_page
    page.goto(f"{live_server.url}/offers/new?from=budget-2013")
    page.locator("h1").click()  # nothing focused
    for selector in ("#id_title", "#id_negotiation", "#id_summary", "#id_tabled_by_0", "#id_federal_LMA"):
        measured = border_contrast(page, selector)
        assert measured is not None, selector
        assert measured["ratio"] >= 3, (selector, measured)
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("h1").click()
    assert border_contrast(page, "#id_password")["ratio"] >= 3


def test_the_offer_form_by_keyboard_alone(editor_page, live_server):
    """Tab from the page's start: every field of the form, the preview, then the save button."""
    page = editor_page
    page.goto(f"{live_server.url}/offers/new?from=budget-2013")
    expect(page.locator("#preview-status")).to_contain_text("Figures updated")
    fields = page.locator("#offer-form").evaluate("""form => Array.from(form.querySelectorAll('input, select, textarea'))
        .filter(el => el.type !== 'hidden' && !el.disabled && el.offsetParent !== null
                      && !el.closest('details:not([open])')).map(el => el.id)""")
    assert len(fields) > 40
    page.locator("body").focus()
    reached = []
    for _ in range(len(fields) + 40):
        page.keyboard.press("Tab")
        here = page.evaluate("() => document.activeElement.id || document.activeElement.textContent.trim()")
        if not reached or reached[-1] != here:  # a date field takes one Tab per part
            reached.append(here)
        if here in ("Record the offer", "Save the offer"):
            break
    missing = [field for field in fields if field not in reached]
    assert missing == []
    # In the order they are shown, then the preview (a named region), then the save button.
    assert [r for r in reached if r in fields] == fields
    # The terms' basis (issue 14) is folded away under one summary, reached in its turn.
    assert reached.index(fields[-1]) < reached.index("Basis of each term (0 of 30 given)") < reached.index("fiscal-preview")
    assert reached[-1] == "Record the offer"
    expect(page.locator("#fiscal-preview")).to_have_accessible_name("Fiscal effect")


def test_a_cell_reached_with_the_arrows_on_a_phone_is_in_view_clear_of_the_names(phone_page, live_server, cjg_data):
    # Walking left, the focused cell stayed under the sticky government column, its month out of sight.
    phone_page.goto(f"{live_server.url}{MATRIX}")
    phone_page.locator(".matrix a[tabindex='0']").focus()
    phone_page.keyboard.press("ArrowDown")
    phone_page.keyboard.press("End")
    for _ in range(6):
        phone_page.keyboard.press("ArrowLeft")
        placed = phone_page.evaluate("""() => {
            const cell = document.activeElement.getBoundingClientRect();
            const names = document.querySelector('.matrix tbody th[scope=row]').getBoundingClientRect();
            const frame = document.querySelector('.matrix-wrap').getBoundingClientRect();
            return [cell.left >= names.right - 1, cell.right <= frame.right + 1];
        }""")
        assert placed == [True, True]


def test_a_link_that_is_a_button_answers_the_space_key(page, live_server, cjg_data):
    page.goto(f"{live_server.url}/jurisdictions/CA/")
    before = page.locator("ol.timeline > li:not(#load-more)").count()
    page.locator("#load-more a").focus()
    page.keyboard.press(" ")
    expect(page.locator("ol.timeline > li:not(#load-more)")).not_to_have_count(before)
    assert page.evaluate("window.scrollY") < 50000  # (and Space did not scroll the page instead)
