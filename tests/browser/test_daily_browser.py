"""Daily use without surprises (issue 16), in a real browser: bad input on every htmx path lands in
its region with the form kept and a message by the field; nothing typed is lost; nothing hides off-screen."""

import re

import pytest
from playwright.sync_api import expect


@pytest.mark.parametrize("typed", ["85", "1.5", "-0.2"])
def test_a_bad_participation_rate_lands_by_the_field_and_keeps_the_page(page, live_server, fiscal_data, typed, no_favicon):
    no_favicon(page)
    page.goto(f"{live_server.url}/offers/federal-dec-2013/fiscal/")
    field = page.locator("input[name=participation]")
    field.fill(typed)
    # The message sits next to the field; the menu, the form and the region are all still there.
    expect(page.locator("#participation-error")).to_contain_text("is not valid")
    expect(page.locator("#participation-error")).to_contain_text("0.85")
    expect(page.locator("#fiscal-results #scenario-error")).to_be_visible()
    expect(page.locator("header.site-header nav")).to_be_visible()
    expect(field).to_have_value(typed)
    expect(field).to_have_attribute("aria-invalid", "true")
    # Correcting it brings the figures back and clears the message.
    field.fill("0.5")
    expect(page.locator("#card-employer_shortfall .figure")).to_be_visible()
    expect(page.locator("#participation-error")).to_have_text("")
    expect(field).not_to_have_attribute("aria-invalid", "true")


def test_explaining_an_unknown_line_keeps_the_page(page, live_server, fiscal_data, no_favicon):
    no_favicon(page)
    page.goto(f"{live_server.url}/offers/budget-2013/fiscal/")
    page.evaluate("htmx.ajax('GET', '/offers/budget-2013/fiscal/explain?line=nonsense', '#explanation')")
    expect(page.locator("#explanation [role=alert]")).to_contain_text("There is no line called")
    expect(page.locator("#fiscal-table")).to_be_visible()


def test_comparing_with_an_unknown_offer_keeps_the_page(page, live_server, fiscal_data, no_favicon):
    no_favicon(page)
    page.goto(f"{live_server.url}/compare/")
    page.evaluate("htmx.ajax('GET', '/compare/?a=budget-2013&b=nope', '#compare-results')")
    expect(page.locator("#compare-error")).to_contain_text("nope")
    expect(page.locator("form.compare-form, #compare-results")).not_to_have_count(0)
    expect(page.locator("header.site-header nav")).to_be_visible()


def test_starting_from_an_existing_offer_never_erases_what_was_typed(page, live_server, fiscal_data, editor_login, no_favicon):
    no_favicon(page)
    editor_login(page)
    page.goto(f"{live_server.url}/offers/new")
    page.locator("#id_title").press_sequentially("My new offer")
    # Moving through the list (arrow keys) loads nothing.
    select = page.locator("#start-from")
    select.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(800)
    expect(page.locator("#id_title")).to_have_value("My new offer")

    # "Fill in" asks first; saying no keeps everything.
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Fill in").click()
    page.wait_for_timeout(500)
    assert asked and "replaced" in asked[0]
    expect(page.locator("#id_title")).to_have_value("My new offer")

    # Saying yes fills in the terms, but not the other offer's assumptions.
    select.select_option("budget-2013")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Fill in").click()
    expect(page.locator("#id_responds_to")).to_have_value("budget-2013")
    expect(page.locator("#id_scale_amount")).to_have_value("300000000")
    expect(page.locator("#id_assumptions")).to_have_value("")


def test_leaving_an_offer_form_with_unsaved_changes_warns(page, live_server, fiscal_data, editor_login, no_favicon):
    no_favicon(page)
    editor_login(page)
    page.goto(f"{live_server.url}/offers/new")
    page.locator("#id_title").press_sequentially("Half typed")
    warned = []
    page.once("dialog", lambda dialog: (warned.append(dialog.type), dialog.dismiss()))
    page.locator("header.site-header").get_by_role("link", name="Offers").click()
    page.wait_for_timeout(800)
    assert warned == ["beforeunload"]
    expect(page.locator("#id_title")).to_have_value("Half typed")


@pytest.mark.parametrize("typed", ["$300 million", "300 000 000 $", "300M"])
def test_money_typed_as_people_write_it_reaches_the_preview(page, live_server, fiscal_data, editor_login, typed, no_favicon):
    no_favicon(page)
    editor_login(page)
    page.goto(f"{live_server.url}/offers/new?from=budget-2013")
    amount = page.locator("#id_scale_amount")
    amount.fill("")
    amount.press_sequentially(typed)
    expect(page.locator(".preview-panel tr[data-line=trainees] td.num").first).to_have_text("60,000")


def test_a_bad_amount_in_the_form_says_what_was_wrong(page, live_server, fiscal_data, editor_login, no_favicon):
    no_favicon(page)
    editor_login(page)
    page.goto(f"{live_server.url}/offers/new?from=budget-2013")
    amount = page.locator("#id_max_grant")
    amount.fill("")
    amount.press_sequentially("3750e")
    expect(page.locator("#offer-form")).to_contain_text("is not a known unit")
    expect(amount).to_have_value("3750e")


def frames_fit(page) -> list:
    """Each framed table: [class, scrolls sideways, role, tabindex, has a label].

    A frame holding a grid (the stance matrix) is reached through the grid's own tab stop, whose arrow keys
    scroll it: its tabindex is reported as "0" when the grid has its one tab stop."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('.table-wrap, .table-scroll')).map(frame => [
        frame.querySelector('table').className, frame.scrollWidth > frame.clientWidth + 1,
        frame.getAttribute('role'),
        frame.getAttribute('tabindex') ?? (frame.querySelector('[role=grid] [tabindex="0"]') ? '0' : null),
        !!(frame.getAttribute('aria-label') || frame.getAttribute('aria-labelledby'))])""")


@pytest.mark.parametrize("prefix", ["", "/fr"])
@pytest.mark.parametrize("url", ["/offers/federal-dec-2013/", "/offers/federal-dec-2013/fiscal/",
                                 "/compare/?a=budget-2013&b=federal-dec-2013", "/compare/?a=status-quo&b=budget-2013",
                                 "/compare/?a=federal-dec-2013&b=pt-counter-jan-2014"])
def test_key_columns_are_in_view_at_1280(page, live_server, fiscal_data, url, prefix, no_favicon):
    no_favicon(page)
    page.goto(live_server.url + prefix + url)
    page.evaluate("document.querySelectorAll('details.compare-jurisdiction').forEach(d => d.open = true)")
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    checked = [name for name, *_ in frames_fit(page) if re.search(r"fiscal-table|diff-table|compare-table", name)]
    assert checked
    for name, scrolls, *_ in frames_fit(page):
        if re.search(r"fiscal-table|diff-table|compare-table", name):
            assert not scrolls, f"{name} scrolls sideways at 1280 px"


@pytest.mark.parametrize("url", ["/offers/federal-dec-2013/", "/offers/federal-dec-2013/fiscal/",
                                 "/compare/?a=budget-2013&b=federal-dec-2013", "/", "/stances/"])
def test_at_phone_width_the_page_fits_and_wide_tables_scroll_in_a_labelled_frame(phone_page, live_server,
                                                                                 fiscal_data, url, no_favicon):
    no_favicon(phone_page)
    phone_page.goto(live_server.url + url)
    phone_page.wait_for_timeout(300)
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    for name, scrolls, role, tabindex, labelled in frames_fit(phone_page):
        if scrolls:
            assert (role, tabindex, labelled) == ("region", "0", True), name


def _scenario_from_december() -> str:
    """A scenario saved as the offer form saves one (Quebec out), by an editor; its address."""
    from django.contrib.auth.models import Permission
    from django.test import Client

    from grants.models import Scenario
    from tests.factories import UserFactory
    from tests.offer_world import offer_post

    editor = UserFactory(username="scenario-editor")
    editor.user_permissions.set(Permission.objects.filter(content_type__app_label__in=("negotiations", "grants")))
    client = Client()
    client.force_login(editor)
    response = client.post("/scenarios/new", offer_post(title="Quebec out", tabled_on="2014-01-29",
                                                        treatment_QC="opts_out_compensated"))
    assert response.status_code == 302, response.content.decode()[:3000]
    return f"/scenarios/{Scenario.objects.get().pk}/"


@pytest.mark.parametrize("prefix", ["", "/fr"])
def test_at_phone_width_a_comparison_s_national_lines_fit_and_a_wider_table_shows_it_scrolls(
        phone_page, live_server, cjg_data, prefix, no_favicon):
    # At 390 px the scenario comparison's "B − A" column ran past the frame's edge, and no table that scrolls
    # sideways showed that more of it lay to the right.
    no_favicon(phone_page)
    scenario = _scenario_from_december()
    for address in (f"{scenario}compare?with=offer:federal-dec-2013", "/compare/?a=budget-2013&b=federal-dec-2013"):
        phone_page.goto(f"{live_server.url}{prefix}{address}")
        national = phone_page.locator("#compare-national")
        frame = national.locator("xpath=..")
        assert frame.evaluate("frame => frame.scrollWidth <= frame.clientWidth"), address
        change = national.locator("tbody tr[data-line=trainees] td").last
        box = change.bounding_box()
        assert box["x"] + box["width"] <= 390 and change.inner_text().strip().startswith(("−", "+", "0")), address
        wide = phone_page.locator("#compare-by-jurisdiction").locator("xpath=..")
        assert wide.evaluate("frame => frame.scrollWidth > frame.clientWidth"), address
        # The frame draws a shadow at its scrolling edges, and the cells let it show through.
        assert "rgba(0, 0, 0, 0.2)" in wide.evaluate("frame => getComputedStyle(frame).backgroundImage")
        assert wide.locator("tbody td").first.evaluate("cell => getComputedStyle(cell).backgroundColor") == "rgba(0, 0, 0, 0)"
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("prefix", ["", "/fr"])
def test_at_phone_width_who_would_sign_reads_as_one_block_per_government(phone_page, live_server, fiscal_data, prefix,
                                                                         no_favicon):
    no_favicon(phone_page)
    phone_page.goto(f"{live_server.url}{prefix}/offers/federal-nov-2013/")
    rows = phone_page.locator(".verdict-table tbody tr")
    assert rows.count() == 13
    for index in (0, 4, 12):
        name = rows.nth(index).locator("th").bounding_box()
        badge = rows.nth(index).locator(".verdict").bounding_box()
        assert name["width"] > 250, "the government's name has the screen's width, not a squeezed column"
        assert badge["height"] < 30, "the verdict reads on one line"
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize(("prefix", "place"), [("", "Place: Toronto"), ("/fr", "Lieu\xa0: Toronto")])
def test_at_phone_width_the_lists_read_as_cards_with_their_labels(phone_page, live_server, cjg_data, prefix, place,
                                                                   no_favicon):
    no_favicon(phone_page)
    phone_page.goto(f"{live_server.url}{prefix}/meetings/")
    rows = phone_page.locator("main table tbody tr")
    first = rows.first.locator("th").bounding_box()
    assert first["width"] > 300, "the meeting's title has the screen's width, not a squeezed column"
    places = [row.locator("td").nth(2) for row in rows.all()]
    labels = [cell.evaluate("cell => getComputedStyle(cell, '::before').content") for cell in places]
    assert labels[0] == f'"{place.split(" ")[0]} "', "the column's name is shown before the value"
    shown = [cell.inner_text() for cell in places if cell.is_visible()]
    assert "Toronto" in shown and len(shown) < len(places), "a meeting with no place shows no empty label"
    assert any(cell.get_attribute("data-label") + " " + cell.inner_text() == place for cell in places)
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    wrap = phone_page.locator("main .table-wrap").first
    assert wrap.evaluate("frame => frame.scrollWidth <= frame.clientWidth"), "the list fits without scrolling its frame"


@pytest.mark.parametrize("prefix", ["", "/fr"])
def test_at_phone_width_people_and_jurisdictions_read_as_cards(phone_page, live_server, cjg_data, prefix, no_favicon):
    # Before: the jurisdictions' population and stance were off screen in the table's scrolling frame, and a
    # person's roles a column of two or three words a line.
    no_favicon(phone_page)
    phone_page.goto(f"{live_server.url}{prefix}/jurisdictions/")
    ontario = phone_page.locator("main table tbody tr").nth(6)
    expect(ontario.locator("th")).to_have_text("Ontario")
    stance = ontario.locator("td").last
    assert stance.is_visible() and stance.bounding_box()["x"] + stance.bounding_box()["width"] <= 390
    population = ontario.locator("td.num")
    assert population.get_attribute("data-label") == ("Population\xa0:" if prefix else "Population:")
    assert population.evaluate("cell => getComputedStyle(cell, '::before').content").startswith('"Population')
    wrap = phone_page.locator("main .table-wrap")
    assert wrap.evaluate("frame => frame.scrollWidth <= frame.clientWidth"), "the list fits without scrolling its frame"
    phone_page.goto(f"{live_server.url}{prefix}/people/")
    roles = phone_page.locator("main table tbody tr", has_text="Christy Clark").locator("td").first
    assert roles.bounding_box()["width"] > 300, "a person's roles have the screen's width"
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390


def test_filter_forms_have_the_forms_square_controls_not_a_pill_shaped_search_bar(page, live_server, cjg_data, no_favicon):
    no_favicon(page)
    for address in ("/jurisdictions/QC/", "/statements/"):
        page.goto(live_server.url + address)
        radii = page.eval_on_selector_all(
            "form.filters :is(select, input:not([type=hidden]), button)",
            "controls => controls.map(control => getComputedStyle(control).borderTopRightRadius)")
        assert radii and set(radii) == {"4px"}, (address, radii)


def test_the_phone_menu_is_a_button_and_the_matrix_opens_on_the_latest_months(phone_page, live_server, fiscal_data, no_favicon):
    no_favicon(phone_page)
    phone_page.goto(live_server.url + "/stances/")
    toggle = phone_page.locator(".menu-toggle")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(phone_page.locator("#site-nav")).to_be_hidden()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(phone_page.locator("#site-nav").get_by_role("link", name="Offers")).to_be_visible()
    frame = phone_page.locator(".matrix-wrap")
    at_end = frame.evaluate("f => f.scrollLeft + f.clientWidth >= f.scrollWidth - 2")
    assert at_end
    # Names are not cut off: each row name shows whole.
    cut = phone_page.evaluate("""() => Array.from(document.querySelectorAll('.matrix th[scope=row] a'))
        .filter(a => a.scrollWidth > a.clientWidth + 1).map(a => a.textContent)""")
    assert cut == []


def test_an_impossible_date_range_on_a_timeline_says_so(page, live_server, fiscal_data, no_favicon):
    no_favicon(page)
    page.goto(f"{live_server.url}/jurisdictions/ON/")
    page.fill("input[name=date_from]", "2014-01-01")
    page.fill("input[name=date_to]", "2013-01-01")
    page.locator("input[name=date_to]").dispatch_event("change")
    expect(page.locator("#timeline-filter-problems")).to_contain_text("The end date is before the start date")
    expect(page.locator("header.site-header nav")).to_be_visible()


LONG_TITLE = "Provinces and territories hold out for more flexibility and ready a counter-proposal on the job grant"


@pytest.mark.parametrize("width", [1280, 390])
def test_a_long_source_title_is_read_whole_and_kept_through_a_refused_save(page, live_server, fiscal_data,
                                                                          editor_login, width, no_favicon):
    """Sources are boxes to tick whose labels wrap: a select cut this title off at its edge (issue 16.9)."""
    no_favicon(page)
    editor_login(page)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/positions/new")
    sources = page.get_by_role("group", name="Sources")
    label = sources.locator("label", has_text=LONG_TITLE)
    expect(label).to_be_visible()
    # Nothing of the label is cut off: its text fits its box, and its box the frame.
    fits = label.evaluate("""(label) => {
        const frame = label.closest('.choice-list').getBoundingClientRect(), box = label.getBoundingClientRect();
        return label.scrollWidth <= label.clientWidth && box.right <= frame.right + 0.5 && box.left >= frame.left;
    }""")
    assert fits
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    label.click()
    expect(sources.get_by_role("checkbox", name=LONG_TITLE, exact=False)).to_be_checked()

    # A refused save (no stance, no summary) keeps the source ticked, and says what is missing.
    page.select_option("#id_jurisdiction", "ON")
    page.fill("#id_as_of", "2014-02-01")
    page.locator("main form[method=post]").evaluate("form => { form.noValidate = true; }")  # the server's refusal
    page.get_by_role("button", name="Record the position").click()
    expect(page.locator(".error-summary")).to_be_visible()
    expect(page.get_by_role("group", name="Sources").get_by_role("checkbox", name=LONG_TITLE, exact=False)).to_be_checked()

    # Completed, it saves with the source.
    page.select_option("#id_stance", index=1)
    page.fill("#id_summary", "Ontario holds out for more flexibility.")
    page.get_by_role("button", name="Record the position").click()
    expect(page.locator(".error-summary")).to_have_count(0)
    from negotiations.models import Position

    saved = Position.objects.get(summary="Ontario holds out for more flexibility.")
    assert [source.title for source in saved.sources.all()] == [LONG_TITLE]


CUT_SELECTS = """() => {
    const measure = document.createElement('canvas').getContext('2d'), cut = [];
    for (const select of document.querySelectorAll('main select:not([multiple])')) {
        if (!select.checkVisibility()) continue;
        const style = getComputedStyle(select), chosen = select.options[select.selectedIndex];
        measure.font = style.font;
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        if (chosen && measure.measureText(chosen.text).width > room + 1) cut.push(select.name + ': ' + chosen.text);
    }
    return cut;
}"""


@pytest.mark.parametrize("prefix", ["", "/fr"])
def test_no_select_cuts_its_choice_at_1280(page, live_server, fiscal_data, editor_login, prefix, no_favicon):
    """Issue 16.9: the forms' and filters' selects show their chosen text whole, in both languages."""
    no_favicon(page)
    editor_login(page)
    for url in ["/offers/new", "/positions/new", "/statements/new", "/scenarios/new", "/jurisdictions/ON/",
                "/statements/"]:
        page.goto(live_server.url + prefix + url)
        assert page.locator("main select").count() > 1, url
        assert page.evaluate(CUT_SELECTS) == [], url


@pytest.mark.parametrize("width", [1000, 1100])
def test_the_offer_form_beside_its_preview_keeps_its_fields_whole(page, live_server, fiscal_data, editor_login, width,
                                                                  no_favicon):
    """Between phone and 1280 px: the form never runs under the preview beside it, and every select of the
    form, the basis of each term's opened, shows its chosen text whole."""
    no_favicon(page)
    page.set_viewport_size({"width": width, "height": 900})
    editor_login(page)
    for prefix in ["", "/fr"]:
        page.goto(live_server.url + prefix + "/offers/new")
        page.locator("#basis-section").evaluate("details => { details.open = true; }")
        assert page.evaluate("document.documentElement.scrollWidth") == width
        assert page.evaluate(CUT_SELECTS) == [], prefix
        fields, preview = (page.locator(selector).bounding_box() for selector in (".offer-fields", ".preview-panel"))
        # Beside it (the form's right edge before the preview's left) or under it, never across it.
        assert fields["x"] + fields["width"] <= preview["x"] or preview["y"] >= fields["y"] + fields["height"], prefix
        source = page.locator("select[name='basis__max_grant__source']").bounding_box()
        assert source["width"] >= 250, (prefix, source)


def test_the_preview_being_worked_out_keeps_its_text_within_the_page(page, live_server, fiscal_data, editor_login,
                                                                    no_favicon):
    # While the preview was asked for, the region was aria-busy, and Pico's style for a busy element keeps
    # its text on one line: the French placeholder then ran 250 px past the panel, and the page scrolled
    # sideways at 1100 px until the figures came back.
    no_favicon(page)
    page.set_viewport_size({"width": 1100, "height": 900})
    editor_login(page)
    held = []
    page.route("**/grants/preview", lambda route: held.append(route))
    page.goto(live_server.url + "/fr/offers/new")
    expect(page.locator("#fiscal-preview[aria-busy='true']")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") == 1100
    region = page.locator("#fiscal-preview").bounding_box()
    placeholder = page.locator("#fiscal-preview p").first.bounding_box()
    assert placeholder["x"] + placeholder["width"] <= region["x"] + region["width"] + 1
    for route in held:
        route.continue_()


def test_the_french_header_keeps_to_one_row_at_1280(page, live_server, cjg_data, editor_login, no_favicon):
    # The French header wrapped to three rows (about 190 px: the site's name, the links, "Déconnecter editor"),
    # and named the admin "Administration" beside the jurisdictions' "Administrations".
    no_favicon(page)
    editor_login(page)
    heights = {}
    for prefix in ("", "/fr"):
        page.goto(f"{live_server.url}{prefix}/negotiations/canada-job-grant/")
        heights[prefix] = page.evaluate("() => document.querySelector('header').getBoundingClientRect().height")
    assert heights["/fr"] <= heights[""] + 1, heights
    assert page.locator("header nav").get_by_role("link", name="Gestion").count() == 1


def test_going_back_to_the_offer_form_keeps_the_amounts_typed(page, live_server, fiscal_data, editor_login, no_favicon):
    # Back on the form after leaving it, the browser brought the title back but blanked every amount
    # (autocomplete="off" on the money boxes), and the next save was refused five times over.
    no_favicon(page)
    editor_login(page)
    page.goto(f"{live_server.url}/offers/new")
    page.locator("#id_title").press_sequentially("Typed then left")
    page.locator("#id_max_grant").press_sequentially("15000")
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("header.site-header").get_by_role("link", name="Offers").click()
    page.wait_for_url("**/offers/")
    page.go_back()
    expect(page.locator("#id_title")).to_have_value("Typed then left")
    expect(page.locator("#id_max_grant")).to_have_value("15000")
