"""Findings of the accessibility and layout audit, each as a person meets it: the stance matrix's evidence
panel read once, the phone menu closed by Escape, landmarks each with a name of its own, the Quebec page's
offer cards whole at 320 px, and the offer page's buttons left in place when "Withdraw…" opens."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import axe_violations, describe_violations

MATRIX = "/negotiations/canada-job-grant/stances"

# What a screen reader reads by itself when it changes: announced on top of whatever has the focus.
LIVE = "[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log], [role=marquee], [role=timer]"


def live_around(page, selector: str) -> str | None:
    """The opening tag of the live region holding the element (itself included), if any."""
    return page.evaluate("""([selector, live]) => {
        const region = document.querySelector(selector).closest(live);
        return region ? region.outerHTML.slice(0, region.outerHTML.indexOf('>') + 1) : null;
    }""", [selector, LIVE])


def test_the_evidence_panel_is_read_once_from_its_heading(page, live_server, cjg_data, no_favicon):
    # The panel was a live region and its heading took the focus: a screen reader read the panel twice.
    no_favicon(page)
    page.goto(f"{live_server.url}{MATRIX}")
    cell = page.locator('tr:has(th a[href="/jurisdictions/QC/"]) td a.recorded').last
    cell.click()
    heading = page.locator("#evidence h2")
    expect(heading).to_contain_text("Quebec")
    expect(heading).to_be_focused()  # the one way it is announced
    # Neither the panel, nor what holds it, nor anything in it speaks up by itself.
    assert live_around(page, "#evidence") is None
    assert page.locator("#evidence").locator(LIVE).count() == 0
    # The next cell, by keyboard: the same.
    page.locator(".matrix a[tabindex='0']").focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    expect(page.locator("#evidence h2")).to_be_focused()
    assert live_around(page, "#evidence") is None


@pytest.mark.parametrize("prefix", ["", "/fr"])
def test_escape_closes_the_phone_menu_and_returns_to_its_button(phone_page, live_server, prefix):
    page = phone_page
    page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    page.goto(f"{live_server.url}{prefix}/")
    toggle = page.locator(".menu-toggle")
    menu = page.locator("#site-nav")
    expect(toggle).to_be_visible()
    expect(menu).to_be_hidden()
    toggle.click()
    expect(menu).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    # From a link in the menu, Escape closes it and puts the focus back on the button.
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.getElementById('site-nav').contains(document.activeElement)")
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_be_focused()
    # From the button itself too; and Escape with the menu closed changes nothing.
    page.keyboard.press("Enter")
    expect(menu).to_be_visible()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(toggle).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")


# Pages where a table's scrolling frame (a region) was named like the section around it: two "By province
# and territory" regions, one inside the other, in a screen reader's list of landmarks. (The frames that
# scripts name, on the overview and a person's page, scroll at 320 px only.)
LANDMARK_PAGES = ["/", "/offers/pt-counter-jan-2014/", "/offers/federal-dec-2013/fiscal/",
                  "/offers/federal-nov-2013/fiscal/", "/compare/?a=status-quo&b=budget-2013",
                  "/people/jason-kenney/"]


@pytest.mark.parametrize("prefix", ["", "/fr"])
@pytest.mark.parametrize("width", [1280, 320])
def test_each_landmark_has_a_name_of_its_own(page_at, live_server, cjg_data, width, prefix):
    page = page_at(width)
    problems = []
    for address in LANDMARK_PAGES:
        page.goto(f"{live_server.url}{prefix}{address}")
        page.wait_for_load_state("networkidle")
        violations = axe_violations(page, ["landmark-unique"])
        if violations:
            problems.append(describe_violations(f"{prefix}{address} at {width}px", violations))
        # Every framed table that scrolls is still reached and named (as a region), as before.
        unnamed = page.evaluate("""() => [...document.querySelectorAll('.table-wrap, .table-scroll')]
            .filter(frame => frame.scrollWidth > frame.clientWidth + 1)
            .filter(frame => frame.getAttribute('role') !== 'region' || frame.tabIndex !== 0
                             || !(frame.getAttribute('aria-label') || frame.getAttribute('aria-labelledby')))
            .map(frame => frame.outerHTML.slice(0, 120))""")
        if unnamed:
            problems.append(f"{prefix}{address} at {width}px: frames that scroll, unnamed or unreachable: {unnamed}")
    # The overview's section "Where each government stands" stays a named region when its table fits.
    if width == 1280:
        page.goto(f"{live_server.url}{prefix}/")
        expect(page.locator("section:has(#stances-heading)")).to_have_attribute("aria-labelledby", "stances-heading")
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize("prefix", ["", "/fr"])
@pytest.mark.parametrize("width", [320, 390])
def test_the_quebec_offer_cards_show_every_figure_whole(page_at, live_server, cjg_data, width, prefix):
    # At 320 px, in French, "dont remplacement des EMT : 69 590 000 $" ran past the card's right edge: the
    # frame scrolled sideways, a figure cut off at the edge of the screen.
    page = page_at(width)
    page.goto(f"{live_server.url}{prefix}/jurisdictions/QC/")
    cards = page.locator("#jurisdiction-offers table.cards-on-phone")
    expect(cards.locator("tbody tr").first).to_be_visible()
    placed = page.evaluate("""() => {
        const frame = document.querySelector('#jurisdiction-offers .table-scroll');
        const edge = frame.getBoundingClientRect().right;
        const out = [...frame.querySelectorAll('tbody td, tbody th')]
            .filter(cell => cell.getBoundingClientRect().right > edge + 0.5 || cell.scrollWidth > cell.clientWidth + 1)
            .map(cell => cell.textContent.trim().slice(0, 60));
        return {scrolls: frame.scrollWidth > frame.clientWidth + 1, out};
    }""")
    assert placed == {"scrolls": False, "out": []}
    # Each figure is whole on one line (its spaces do not break), its label before it or on the line above.
    for figure in cards.locator("td.num").all():
        text = figure.evaluate("""cell => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            return [cell.textContent, new Set([...range.getClientRects()].map(box => Math.round(box.bottom))).size];
        }""")
        assert text[1] == 1, text


@pytest.mark.parametrize("prefix", ["", "/fr"])
@pytest.mark.parametrize("width", [1280, 390])
def test_opening_withdraw_leaves_the_offer_buttons_in_place(page_at, live_server, cjg_data, editor_login, width, prefix):
    # The form opened inside the row of buttons: "Fiscal effect", "Edit" and "Log an answer to it" dropped to the
    # middle of the open form's height (or "Withdraw…" jumped to another line).
    page = page_at(width)
    editor_login(page)
    page.goto(f"{live_server.url}{prefix}/offers/federal-dec-2013/")
    row = page.locator(".offer-actions")
    where = """row => [...row.querySelectorAll(':scope > [role=button], :scope > details > summary')].map(el => {
        const box = el.getBoundingClientRect();
        return [el.textContent.trim(), Math.round(box.left), Math.round(box.top)];
    })"""
    before = row.evaluate(where)
    assert len(before) == 4  # Fiscal effect, Edit, Log an answer to it, Withdraw…
    summary = row.locator("details.withdraw > summary")
    summary.click()
    form = row.locator("details.withdraw form")
    expect(form).to_be_visible()
    assert row.evaluate(where) == before
    # The form opens under "Withdraw…", over none of the buttons, and fits the page.
    boxes = page.evaluate("""() => {
        const box = (el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
        return {form: box(document.querySelector('.offer-actions details.withdraw form')),
                summary: box(document.querySelector('.offer-actions details.withdraw > summary')),
                buttons: [...document.querySelectorAll('.offer-actions > [role=button]')].map(box)};
    }""")
    assert boxes["form"][1] >= boxes["summary"][3]
    assert boxes["form"][2] <= width
    for left, top, right, bottom in boxes["buttons"]:
        form_left, form_top, form_right, form_bottom = boxes["form"]
        assert right <= form_left or left >= form_right or bottom <= form_top or top >= form_bottom
    summary.click()  # closed again: still in place
    expect(form).to_be_hidden()
    assert row.evaluate(where) == before
