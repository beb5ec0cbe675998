"""Where the deal is, in a real browser: the preview's verdicts follow the terms as they are typed, and a
scenario saved from the offer form never reaches the record."""

import re

from playwright.sync_api import expect

from grants import selectors

SCENARIO = "Quebec out, no clawback"


def verdicts(page):
    return page.locator("#fiscal-preview .preview-verdicts")


def test_the_preview_says_who_would_sign_as_the_analyst_types(page, live_server, cjg_data, editor_login, screenshot, no_favicon):
    selectors.forget_reference_data()
    no_favicon(page)
    editor_login(page)
    page.goto(f"{live_server.url}/offers/new?from=federal-dec-2013")
    page.fill("#id_tabled_on", "2014-01-29")
    # December's terms against the positions of 29 January 2014: the clawback fails everyone who refused it.
    expect(verdicts(page)).to_contain_text("Who would sign: 0 of 13")
    expect(verdicts(page).locator('li[data-code="ON"]')).to_contain_text("No clawback when employers fall short.")
    page.select_option("#id_shortfall_liability", "none")
    page.select_option("#id_treatment_QC", "opts_out_compensated")
    expect(verdicts(page)).to_contain_text("Who would sign: 1 of 13")
    expect(verdicts(page).locator('li[data-code="QC"]')).to_have_attribute("data-verdict", "meets")
    expect(verdicts(page).locator('li[data-code="ON"]')).to_have_count(0)  # unknown now: listed as such
    expect(verdicts(page)).to_contain_text("Unknown")
    screenshot(page, "i17-preview-verdicts")
    # Bad input: a split that does not add up shows the form's message; the last figures and verdicts stay,
    # marked out of date (issue 16.5), and nothing is lost.
    page.fill("#id_federal_amount", "11000")
    expect(page.locator("#fiscal-preview")).to_contain_text("The terms do not add up")
    expect(page.locator("#fiscal-preview")).to_contain_text("Out of date")
    page.fill("#id_federal_amount", "10000")
    expect(verdicts(page)).to_contain_text("Who would sign: 1 of 13")


def test_a_scenario_saved_never_reaches_the_record(page, live_server, cjg_data, editor_login, screenshot, no_favicon):
    selectors.forget_reference_data()
    no_favicon(page)
    editor_login(page)
    page.goto(f"{live_server.url}/offers/new?from=federal-dec-2013")
    page.fill("#id_title", SCENARIO)
    page.fill("#id_tabled_on", "2014-01-29")
    page.select_option("#id_shortfall_liability", "none")
    page.select_option("#id_treatment_QC", "opts_out_compensated")
    page.click("#save-as-scenario")
    page.wait_for_url(re.compile(r"/scenarios/\d+/$"))
    expect(page.locator("h1")).to_have_text(SCENARIO)
    expect(page.locator(".verdict-count")).to_contain_text("1 of 13 would sign")
    expect(page.locator("#scenario-effect")).to_be_visible()
    screenshot(page, "i17-scenario")
    scenario_url = page.url

    for path in ("/", "/offers/", "/jurisdictions/ON/", "/negotiations/canada-job-grant/stances"):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        expect(page.locator("main")).not_to_contain_text(SCENARIO)
    page.goto(f"{live_server.url}/api/offers")
    assert SCENARIO not in page.content()
    page.goto(f"{live_server.url}/scenarios/")
    expect(page.locator("main")).to_contain_text(SCENARIO)

    # Compare it with the offer it came from, then open the offer form filled from it.
    page.goto(scenario_url)
    page.select_option("#compare-with", "offer:federal-dec-2013")
    page.click("text=Compare >> nth=-1")
    expect(page.locator("#compare-national")).to_be_visible()
    page.goto(scenario_url)
    page.click("#record-as-offer")
    expect(page.locator("#id_title")).to_have_value(SCENARIO)
    expect(page.locator("#id_treatment_QC")).to_have_value("opts_out_compensated")


def test_the_step_charts_write_figures_in_the_page_s_language(page, live_server, cjg_data, no_favicon):
    # The French negotiation page's charts read "10,000", "460,000,000" and "0.158", from an axis that did not start
    # at zero; the fiscal page's charts were already French.
    no_favicon(page)
    page.goto(f"{live_server.url}/fr/negotiations/canada-job-grant/")
    page.wait_for_function("() => [...document.querySelectorAll('canvas[data-steps]')].every(c => Chart.getChart(c))")
    axes = page.evaluate("""() => [...document.querySelectorAll('canvas[data-steps]')].map(canvas => {
        const chart = Chart.getChart(canvas);
        const y = chart.scales.y;
        return {id: canvas.dataset.steps, min: y.min, ticks: y.ticks.map(t => t.label)};
    })""")
    assert axes and all(axis["min"] == 0 for axis in axes)
    labels = [label for axis in axes for label in axis["ticks"]]
    assert all("$" in label or "%" in label for label in labels), labels
    assert not any(re.search(r"\d,\d{3}|\d\.\d", label) for label in labels), labels  # no English grouping or point
    assert any(re.search(r"\d[\u00a0\u202f]%", label) for label in labels), labels  # the employer share: "15 %"


def test_a_step_chart_draws_no_line_where_a_side_s_offer_drops_the_term(page, live_server, cjg_data, no_favicon):
    # December's offer has no employer minimum share; Ottawa's line ran on at 15 % through it (the chart spanned
    # every gap). It now stops: no point drawn for Ottawa after November.
    no_favicon(page)
    page.goto(f"{live_server.url}/negotiations/canada-job-grant/")
    page.wait_for_function("() => [...document.querySelectorAll('canvas[data-steps]')].every(c => Chart.getChart(c))")
    drawn = page.evaluate("""() => Chart.getChart(document.querySelector('figure[data-term="employer_min_share"] canvas'))
        .data.datasets[0].data""")
    assert drawn == [None, 0.15, None, None]
    spans = page.evaluate("""() => Chart.getChart(document.querySelector('figure[data-term="employer_min_share"] canvas'))
        .data.datasets.map(dataset => dataset.spanGaps)""")
    assert spans == [False, False]


def _quebec_out_scenario() -> str:
    """A scenario with Budget 2013's terms and Quebec out, saved by an editor as the form saves one; its address."""
    from django.contrib.auth.models import Permission
    from django.test import Client

    from grants.models import Scenario
    from tests.factories import UserFactory
    from tests.offer_world import offer_post

    author = UserFactory(username="scenario-author")
    author.user_permissions.set(Permission.objects.filter(content_type__app_label="negotiations"))
    client = Client()
    client.force_login(author)
    response = client.post("/scenarios/new", offer_post(title="Quebec out", tabled_on="2014-01-29",
                                                        treatment_QC="opts_out_compensated"))
    assert response.status_code == 302, response.content.decode()[:2000]
    return Scenario.objects.get().get_absolute_url()


def test_a_scenario_comparison_totals_and_marks_its_differences_readably_on_a_phone(page_at, live_server, cjg_data):
    # It had no total row and no ✓ or ✗. With them, at 390 px a difference wrapped between its sign and its figure
    # ("−" alone on a line above "$69,590,000 ✓"): the mark may wrap, the figure may not.
    selectors.forget_reference_data()
    scenario = _quebec_out_scenario()
    for width in (1280, 390):
        page = page_at(width)
        for prefix, total_name, better in (("", "All provinces and territories", "better for the provinces and territories"),
                                           ("/fr", "Toutes les provinces et tous les territoires",
                                            "meilleur pour les provinces et territoires")):
            page.goto(f"{live_server.url}{prefix}{scenario}compare?with=offer:budget-2013")
            total = page.locator("#compare-by-jurisdiction tfoot tr[data-code=total]")
            expect(total.locator("th")).to_have_text(total_name)
            expect(total.locator("td[data-line=provinces_need]")).to_contain_text("139")
            heard = total.aria_snapshot()
            assert better in heard and "✓" not in heard, (width, prefix)
            marked = page.locator("#compare-national td[data-reading], #compare-by-jurisdiction td[data-reading]")
            assert marked.count() > 10
            lines = marked.evaluate_all("""cells => cells.map(cell => {
                const range = document.createRange();
                range.selectNodeContents(cell.firstChild);  // the figure, without its mark
                const tops = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
                return [cell.firstChild.textContent.trim(), tops.size];
            })""")
            assert [figure for figure, count in lines if count != 1] == [], (width, prefix)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (width, prefix)


def test_in_the_difference_by_province_each_mark_stays_on_its_figure_s_line(page_at, live_server, cjg_data):
    # At 1280 px the 13 columns of the difference by province and territory put each ✓ or ✗ on a line of its own,
    # under its figure. Each mark now shares its figure's line, and every column still fits the page.
    selectors.forget_reference_data()
    scenario = _quebec_out_scenario()
    for width in (1280, 390):
        page = page_at(width)
        for prefix in ("", "/fr"):
            for address in (f"{scenario}compare?with=offer:budget-2013", "/compare/?a=budget-2013&b=pt-counter-jan-2014"):
                page.goto(f"{live_server.url}{prefix}{address}")
                marked = page.locator("#compare-by-jurisdiction td[data-reading]")
                assert marked.count() >= 9, (width, prefix, address)
                apart = marked.evaluate_all("""cells => cells.map(cell => {
                    const range = document.createRange();
                    range.selectNodeContents(cell.firstChild);  // the figure, without its mark
                    const figure = range.getBoundingClientRect();
                    const mark = cell.querySelector('.diff-mark').getBoundingClientRect();
                    // (the mark is a touch smaller than its figure: its top a pixel or two lower on the same line)
                    return [cell.firstChild.textContent.trim(), Math.abs(mark.top - figure.top) < figure.height / 2];
                }).filter(([figure, together]) => !together).map(([figure]) => figure)""")
                assert apart == [], (width, prefix, address)
                assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), (width, prefix, address)
                if width == 1280:  # every column in view, "P/T liability" the last, without scrolling the frame
                    frame = page.locator("#compare-by-jurisdiction").locator("xpath=..")
                    assert frame.evaluate("frame => frame.scrollWidth <= frame.clientWidth"), (prefix, address)
