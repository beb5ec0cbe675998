"""The basis marks in a real browser: reachable by keyboard on the offer, fiscal and comparison pages; the
offer form's basis rows refuse bad input next to the row and keep what was typed."""

import pytest
from playwright.sync_api import expect

from negotiations.offer_forms import basis_field


def _focus_by_tab(page, locator, limit=400):
    """Press Tab until ``locator`` has the focus (it must be reachable by keyboard)."""
    for _ in range(limit):
        if locator.evaluate("el => el === document.activeElement"):
            return
        page.keyboard.press("Tab")
    pytest.fail("the mark cannot be reached with the keyboard")


def test_an_assumed_term_on_the_offer_page_opens_its_note_from_the_keyboard(page, live_server, cjg_data, screenshot):
    page.goto(f"{live_server.url}/offers/pt-counter-jan-2014/")
    mark = page.locator('details.basis-mark[data-term="scale"]').first
    summary = mark.locator("summary")
    expect(summary).to_contain_text("assumed")
    _focus_by_tab(page, summary)
    page.keyboard.press("Enter")
    note = mark.locator(".basis-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("enough for December's 60,000 trainees")
    expect(page.locator(".basis-verdict").first).to_contain_text("Rests on 27 assumed terms")
    screenshot(page, "i14-offer-basis-mark")


def test_the_fiscal_page_says_which_figures_rest_on_assumed_terms(page, live_server, cjg_data):
    page.goto(f"{live_server.url}/offers/pt-counter-jan-2014/fiscal/")
    mark = page.locator('#card-trainees details.figure-basis-mark')
    summary = mark.locator("summary")
    expect(summary).to_contain_text("rests on")
    _focus_by_tab(page, summary)
    page.keyboard.press("Enter")
    expect(mark.locator(".basis-note")).to_contain_text("national amount drawn")


def test_the_comparison_marks_each_sides_figures(page, live_server, cjg_data):
    page.goto(f"{live_server.url}/compare/?a=federal-dec-2013&b=pt-counter-jan-2014")
    mark = page.locator('#compare-national tr[data-line="trainees"] details.figure-basis-mark').nth(1)
    _focus_by_tab(page, mark.locator("summary"))
    page.keyboard.press("Enter")
    expect(mark.locator(".basis-note")).to_contain_text("assumed")


def test_the_offer_form_refuses_an_assumed_term_without_a_note_next_to_its_row(page, live_server, cjg_data,
                                                                                editor_login):
    editor_login(page)
    page.goto(f"{live_server.url}/offers/new?from=federal-dec-2013")
    page.fill("#id_title", "A test offer with bases")
    page.fill("#id_tabled_on", "2014-03-01")
    page.locator("#basis-section summary").click()
    page.select_option(f"#id_{basis_field('scale', 'status')}", "assumed")
    page.click("form#offer-form button[type=submit]")
    slot = page.locator(f"#id_{basis_field('scale', 'status')}_error")
    expect(slot).to_contain_text("An assumed term needs the assumption")
    expect(page.locator("#id_title")).to_have_value("A test offer with bases")
    expect(page.locator(f"#id_{basis_field('scale', 'status')}")).to_have_value("assumed")
