"""The fiscal pages in a real browser: scenario changes in place, explanations, the comparison, a phone."""

import re

from playwright.sync_api import expect


def chart_drawn(page, data_id: str, timeout_ms: int = 5000) -> bool:
    """The chart fed by ``data_id`` is drawn, now or within ``timeout_ms`` (charts are drawn after a swap settles)."""
    # Polled from here: wait_for_function evaluates a string, which the page's CSP (no unsafe-eval) refuses.
    canvas = f"document.querySelector('canvas[data-chart-data={data_id}]')"
    for _ in range(timeout_ms // 50):
        if page.evaluate(f"!!(window.Chart && Chart.getChart({canvas}))"):
            return True
        page.wait_for_timeout(50)
    return False


def test_change_the_scenario_in_place_and_explain_a_number(page, live_server, fiscal_data, screenshot, no_favicon):
    no_favicon(page)
    page.goto(f"{live_server.url}/offers/budget-2013/fiscal/")
    expect(page.locator("#card-trainees .figure")).to_have_text("60,000")
    expect(page.locator("#card-provinces_need .figure")).to_have_text("$600,000,000")
    expect(page.locator("#fiscal-table tbody tr")).to_have_count(13)
    assert chart_drawn(page, "who-pays-data") and chart_drawn(page, "programs-data")
    screenshot(page, "fiscal-1280")

    page.evaluate("window.stillTheSamePage = true")
    page.fill("input[name=participation]", "0.5")
    page.locator("input[name=participation]").press("Tab")
    page.wait_for_url(re.compile(r"participation=0\.5"))
    expect(page.locator("#card-trainees .figure")).not_to_have_text("60,000")
    expect(page.locator(".scenario-line")).to_contain_text("50%")
    assert page.evaluate("window.stillTheSamePage === true"), "the page was reloaded"
    assert chart_drawn(page, "who-pays-data"), "the chart was not redrawn after the swap"

    cell = page.locator("#fiscal-table tr[data-code=ON] td[data-line=provinces_need] a")
    figure = cell.inner_text()
    cell.click()
    panel = page.locator("#explanation .trace-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("provincial new money + LMA diverted")
    expect(panel.locator(".trace-value")).to_have_text(figure)
    expect(panel.locator("h2")).to_contain_text("Ontario")
    assert page.evaluate("window.stillTheSamePage === true")
    screenshot(page, "fiscal-explain-1280")

    panel.locator("[data-close-explanation]").click()
    expect(page.locator("#explanation .trace-panel")).to_have_count(0)

    page.locator("#card-trainees .explain-link").click()
    expect(page.locator("#explanation")).to_contain_text("per-trainee draw on LMA")
    # While it is open, what takes the focus is kept clear of it; Escape closes it, the focus back on its link.
    page.wait_for_function("""() => parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom)
        >= document.getElementById('explanation').offsetHeight""", timeout=3000)
    page.keyboard.press("Escape")
    expect(page.locator("#explanation .trace-panel")).to_have_count(0)
    expect(page.locator("#card-trainees .explain-link")).to_be_focused()
    assert page.evaluate("getComputedStyle(document.documentElement).scrollPaddingBottom") in ("auto", "0px")
    assert page.locator("#card-trainees .explain-link").bounding_box()["height"] >= 24


def test_an_invalid_participation_shows_its_message_in_place(browser, live_server, fiscal_data, no_favicon):
    """The refusal is swapped in place (a 200 with X-Refused: 400), with no console error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    no_favicon(page)
    page.goto(f"{live_server.url}/offers/budget-2013/fiscal/?participation=0.8")
    page.evaluate("window.stillTheSamePage = true")
    page.fill("input[name=participation]", "2")
    page.locator("input[name=participation]").press("Tab")
    expect(page.locator("#scenario-error")).to_contain_text("Employer participation rate")
    expect(page.locator("#fiscal-table")).to_have_count(0)
    assert page.url.endswith("participation=0.8")  # a refused scenario is not pushed into the history
    assert page.evaluate("window.stillTheSamePage === true")

    page.fill("input[name=participation]", "0.9")
    page.locator("input[name=participation]").press("Tab")
    page.wait_for_url(re.compile(r"participation=0\.9"))
    expect(page.locator("#scenario-error")).to_have_count(0)
    expect(page.locator("#fiscal-table tbody tr")).to_have_count(13)
    context.close()
    # The refusal is answered 200 with X-Refused: 400 (issue 16.1): no console error at all.
    assert errors == [], errors


def test_phase_in_year_select(page, live_server, fiscal_data, screenshot, no_favicon):
    no_favicon(page)
    page.goto(f"{live_server.url}/offers/federal-nov-2013/fiscal/")
    expect(page.locator("#years-table tbody tr")).to_have_count(4)
    page.select_option("select[name=fiscal_year]", "2014-15")
    page.wait_for_url(re.compile(r"fiscal_year=2014-15"))
    expect(page.locator("#years-table tr.current-year")).to_have_attribute("data-year", "2014-15")
    expect(page.locator(".scenario-line")).to_contain_text("2014-15")
    screenshot(page, "fiscal-phase-in-1280")


def test_compare_two_offers(page, live_server, fiscal_data, screenshot, no_favicon):
    no_favicon(page)
    page.goto(f"{live_server.url}/compare/?a=budget-2013&b=federal-dec-2013")
    federal = page.locator("#compare-national tr[data-line=federal_cost] td")
    expect(federal.nth(2)).to_contain_text("+$300,000,000")
    screenshot(page, "compare-1280")

    page.evaluate("window.stillTheSamePage = true")
    page.select_option("select[name=a]", "status-quo")
    page.wait_for_url(re.compile(r"a=status-quo"))
    expect(federal.nth(0)).to_have_text("$0")
    expect(federal.nth(2)).to_contain_text("+$600,000,000")
    assert page.evaluate("window.stillTheSamePage === true")

    page.go_back()
    page.wait_for_url(re.compile(r"a=budget-2013"))
    expect(page.locator("#compare-national tr[data-line=federal_cost] td").nth(2)).to_contain_text("+$300,000,000")


def test_fiscal_pages_fit_a_phone(phone_page, live_server, fiscal_data, screenshot):
    for path, name in (
        ("/offers/budget-2013/fiscal/", "fiscal-390"),
        ("/offers/federal-nov-2013/fiscal/explain?line=provinces_need&code=PE", "fiscal-explain-390"),
        ("/compare/?a=budget-2013&b=federal-dec-2013", "compare-390"),
    ):
        phone_page.goto(f"{live_server.url}{path}")
        assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390, f"{path} scrolls sideways"
        wide = phone_page.locator(".fiscal-table-wrap").first
        assert wide.evaluate("el => el.scrollWidth > el.clientWidth"), "the wide table should scroll inside its box"
        screenshot(phone_page, name)


def test_a_swapped_comparison_keeps_its_total_row_and_says_its_marks_in_words(page, live_server, fiscal_data, no_favicon):
    # The comparison's tables are one partial (grants/_comparison_tables.html) that the scenario comparison shares;
    # the region htmx swaps in must still end with the total row, its marks read out as words, not as ✓ or ✗.
    no_favicon(page)
    page.goto(f"{live_server.url}/compare/?a=budget-2013&b=federal-dec-2013")
    page.evaluate("window.stillTheSamePage = true")
    page.select_option("select[name=a]", "status-quo")
    page.wait_for_url(re.compile(r"a=status-quo"))
    total = page.locator("#compare-by-jurisdiction tfoot tr[data-code=total]")
    expect(total.locator("td[data-line=federal_cost]")).to_contain_text("+$600,000,000")
    assert page.evaluate("window.stillTheSamePage === true")
    heard = total.aria_snapshot()
    assert "All provinces and territories" in heard
    assert "better for the provinces and territories" in heard  # Ottawa puts in $600M more
    assert "worse for the provinces and territories" in heard  # the LMA left to the provinces falls
    assert "✓" not in heard and "✗" not in heard  # the symbols are for the eye only
