"""WCAG 2.1 AA, measured: axe-core on every page of the app, at 1280 and 320 px, with no violation.

Every page (each kind of page with a real record from the Canada Job Grant data set, the editor's
forms empty, refused and filled) is visited in one browser context per width and language; axe's
violations under the wcag2a/wcag2aa/wcag21a/wcag21aa tags (any impact), and of landmark-unique (no two
landmarks of one role and name: tests.browser.a11y.EXTRA_RULES), are collected for all pages
and reported together, with the page, the rule and the offending nodes. At 320 px every page must
also fit without scrolling sideways (WCAG 1.4.10, reflow); at either width no word is broken across
lines (a table's column or a box squeezed below its longest word is unreadable: a wide table scrolls in
its frame).
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import (
    LANGUAGE_PREFIXES,
    NARROW,
    WIDE,
    axe_violations,
    describe_violations,
    sideways_overflow,
    words_broken_across_lines,
)

NEGOTIATION = "canada-job-grant"

# What axe checks is the HTML and CSS, the same on either database: CI measures it once, on SQLite.
pytestmark = pytest.mark.skipif(os.environ.get("DATABASE_URL", "").startswith("postgres"),
                                reason="accessibility is measured on the SQLite run")

# (name, address) of every read page, with real records of the data set.
READ_PAGES = [
    ("overview", "/"),
    ("jurisdictions", "/jurisdictions/"),
    ("negotiation", f"/negotiations/{NEGOTIATION}/"),
    ("jurisdiction timeline", "/jurisdictions/QC/"),
    ("jurisdiction timeline, filtered", "/jurisdictions/ON/?kind=statement"),
    ("stance matrix", f"/negotiations/{NEGOTIATION}/stances"),
    ("stance matrix with a cell's evidence", f"/negotiations/{NEGOTIATION}/stances/QC/2014-01"),
    ("offers", "/offers/"),
    ("offer answering another (what changed)", "/offers/pt-counter-jan-2014/"),
    ("offer", "/offers/budget-2013/"),
    ("fiscal page", "/offers/federal-dec-2013/fiscal/"),
    ("fiscal page, a number explained", "/offers/federal-dec-2013/fiscal/explain?line=provinces_need&code=ON"),
    ("fiscal page, a refused scenario", "/offers/federal-dec-2013/fiscal/?participation=2"),
    ("compare", "/compare/"),
    ("compare with the status quo", "/compare/?a=status-quo&b=budget-2013"),
    ("meetings", "/meetings/"),
    ("meeting", "/meetings/fpt-labour-ministers-2013-11-08/"),
    ("people", "/people/"),
    ("person", "/people/jason-kenney/"),
    ("sources", "/sources/"),
    ("source", "/sources/cbc-2014-01-15-december-offer/"),
    ("statements", "/statements/"),
    ("search with results", "/search/?q=Kenney"),
    ("search with nothing found", "/search/?q=zzzzqqq"),
    ("scenarios", "/scenarios/"),
    ("briefing on a negotiation", f"/negotiations/{NEGOTIATION}/briefing"),
    ("briefing on a jurisdiction", "/jurisdictions/ON/briefing"),
    ("login", "/accounts/login/"),
    # The regions those pages load in place, opened as pages without JavaScript (they were bare fragments).
    ("what each offer would mean for a P/T", "/jurisdictions/QC/offers"),
    ("what each P/T must find under each side's offer", f"/negotiations/{NEGOTIATION}/distance"),
]

# Pages an editor sees; each may do something on the page after loading it (key, address, action).
EDITOR_PAGES = [
    ("statements as an editor", "/statements/", None),
    ("new offer", "/offers/new", "wait_preview"),
    ("new offer, preview filled", "/offers/new?from=budget-2013", "figures"),
    ("new offer, terms that do not add up", "/offers/new?from=budget-2013", "unbalance"),
    ("new offer, refused save", "/offers/new", "refuse"),
    ("edit an offer", "/offers/federal-dec-2013/edit", "wait_preview"),
    ("new statement", "/statements/new", None),
    ("new statement, refused save", "/statements/new", "refuse"),
    ("new position", "/positions/new", None),
    ("new position, refused save", "/positions/new", "refuse"),
    ("new scenario, refused save", "/scenarios/new", "refuse"),
    ("change password", "/accounts/password_change/", None),
]


def _act(page, action):
    if action == "wait_preview":
        expect(page.locator("#preview-status")).not_to_be_empty()
    elif action == "figures":  # (checks that hold in any language)
        expect(page.locator("#fiscal-preview .preview-table").first).to_be_visible()
        expect(page.locator("#preview-status")).not_to_be_empty()
    elif action == "unbalance":
        expect(page.locator("#fiscal-preview .preview-table").first).to_be_visible()
        page.fill("#id_federal_amount", "6000")
        expect(page.locator("#fiscal-preview .preview-problems")).to_be_visible()
        expect(page.locator("#id_federal_amount_error")).not_to_be_empty()  # where the person is
    elif action == "refuse":
        form = page.locator("main form[method=post]").last
        form.evaluate("form => { form.noValidate = true; }")  # the server's refusal, not the browser's
        form.locator("[type=submit]").first.click()  # its own save (the offer form's last saves a scenario)
        page.wait_for_load_state("networkidle")
        expect(page.locator(".error-summary")).to_be_visible()


def _check(page, name, width, problems):
    page.wait_for_load_state("networkidle")
    violations = axe_violations(page)
    if violations:
        problems.append(describe_violations(f"{name} [{page.url}] at {width}px", violations))
    if width == NARROW:
        scroll_width, culprits = sideways_overflow(page, width)
        if scroll_width > width:
            problems.append(f"{name} [{page.url}] at {width}px scrolls sideways: scrollWidth {scroll_width}; "
                            f"sticking out: {culprits}")
    broken = words_broken_across_lines(page)
    if broken:
        problems.append(f"{name} [{page.url}] at {width}px breaks words across lines: {broken}")


@pytest.mark.parametrize("prefix", LANGUAGE_PREFIXES, ids=lambda p: p or "en")
@pytest.mark.parametrize("width", [WIDE, NARROW])
def test_every_page_passes_axe_and_fits(page_at, live_server, cjg_data, editor_login, width, prefix):
    page = page_at(width)
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    problems: list[str] = []
    for name, address in READ_PAGES:
        page.goto(f"{live_server.url}{prefix}{address}")
        _check(page, name, width, problems)
    # A refused login (the error summary on the login form).
    page.goto(f"{live_server.url}{prefix}/accounts/login/")
    page.fill("input[name=username]", "editor")
    page.fill("input[name=password]", "wrong")
    page.click("main form [type=submit]")
    _check(page, "login, refused", width, problems)

    editor_login(page)
    for name, address, action in EDITOR_PAGES:
        page.goto(f"{live_server.url}{prefix}{address}")
        _act(page, action)
        _check(page, name, width, problems)
    assert errors == [], f"page errors: {errors}"
    assert not problems, "\n\n".join(problems)
