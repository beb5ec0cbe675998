"""The stance timeline and the stance matrix in a real browser: filtering in place, back, the side panel."""

import datetime
import re

import pytest
from django.core.management import get_commands
from playwright.sync_api import expect

from negotiations.models import Jurisdiction, Meeting, Offer, Stance
from tests.factories import (
    PT_CODES,
    JurisdictionFactory,
    MeetingFactory,
    NegotiationFactory,
    OfferFactory,
    PersonFactory,
    PositionFactory,
    SourceFactory,
    StatementFactory,
)

D = datetime.date


def build_factory_data():
    """A small Canada Job Grant record, for when the `load_cjg` data set is not there."""
    canada = JurisdictionFactory(code="CA", kind=Jurisdiction.Kind.FEDERAL, order=0, name_en="Government of Canada",
                                 name_fr="Gouvernement du Canada")
    pts = [JurisdictionFactory(code=code, order=order, name_en=f"Province {code}", name_fr=f"Province {code}")
           for order, code in enumerate(PT_CODES, start=1)]
    ontario = Jurisdiction.objects.get(code="ON")
    ontario.name_en, ontario.name_fr = "Ontario", "Ontario"
    ontario.save()
    cjg = NegotiationFactory(slug="canada-job-grant", title="Canada Job Grant", started_on=D(2013, 3, 21),
                             summary="A $15,000 training grant paid in thirds by Ottawa, the provinces and employers.")
    budget = OfferFactory(negotiation=cjg, slug="budget-2013", title="Budget 2013", tabled_on=D(2013, 3, 21),
                          tabled_by=[canada], status=Offer.Status.SUPERSEDED)
    christmas = OfferFactory(negotiation=cjg, slug="federal-dec-2013", title="The federal “Christmas Eve” offer",
                             tabled_on=D(2013, 12, 24), tabled_by=[canada], responds_to=budget,
                             status=Offer.Status.REJECTED)
    OfferFactory(negotiation=cjg, slug="pt-counter-jan-2014", title="The provinces' counter-proposal",
                 tabled_on=D(2014, 1, 29), tabled_by=pts, responds_to=christmas)
    duguid = PersonFactory(name="Brad Duguid", slug="brad-duguid")
    kenney = PersonFactory(name="Jason Kenney", slug="jason-kenney")
    meeting = MeetingFactory(negotiation=cjg, slug="fpt-ministers-nov-2013", title="FPT labour market ministers",
                             date=D(2013, 11, 8), location="Toronto", kind=Meeting.Kind.FPT_MINISTERS,
                             jurisdictions=[canada, *pts], outcome="No agreement; Ottawa offers flexibility.")
    meeting.participants.add(duguid, kenney)
    source = SourceFactory(outlet="The Canadian Press", title="Provinces push back on Canada Job Grant",
                           published_on=D(2014, 1, 29))
    quotes = [
        (D(2013, 7, 25), "We cannot support a program that takes money away from training that works."),
        (D(2013, 11, 8), "The provinces remain united: this grant, as designed, does not work for us."),
        (D(2013, 12, 27), "We are studying the federal offer, but it still takes money from the LMA."),
        (D(2014, 1, 29), "I think it speaks volumes that every province and territory remain united on this issue."),
    ]
    statements = [StatementFactory(negotiation=cjg, jurisdiction=ontario, speaker=duguid, date=day, quote=quote,
                                   source=source) for day, quote in quotes]
    for n in range(18):  # enough for a second page
        StatementFactory(negotiation=cjg, jurisdiction=ontario, speaker=duguid, date=D(2013, 8, 1 + n),
                         quote=f"Training point number {n + 1} from the summer tour.", source=source)
    stances = [
        (D(2013, 7, 25), Stance.OPPOSES, None, statements[0]),
        (D(2013, 11, 8), Stance.OPPOSES, meeting, statements[1]),
        (D(2014, 1, 29), Stance.CONDITIONAL, christmas, statements[3]),
    ]
    for day, stance, trigger, evidence in stances:
        position = PositionFactory(
            negotiation=cjg, jurisdiction=ontario, as_of=day, stance=stance,
            summary=f"Ontario {stance.label} the grant as designed.",
            conditions="No money taken from the Labour Market Agreements." if stance == Stance.CONDITIONAL else "",
            triggered_by_offer=trigger if isinstance(trigger, Offer) else None,
            triggered_by_meeting=trigger if isinstance(trigger, Meeting) else None,
        )
        position.evidence.add(evidence)
    for jurisdiction in pts:
        if jurisdiction.code != "ON":
            PositionFactory(negotiation=cjg, jurisdiction=jurisdiction, as_of=D(2013, 7, 25), stance=Stance.OPPOSES)
    PositionFactory(negotiation=cjg, jurisdiction=Jurisdiction.objects.get(code="QC"), as_of=D(2013, 10, 1),
                    stance=Stance.OPTS_OUT, summary="Quebec wants out, with full compensation.")
    PositionFactory(negotiation=cjg, jurisdiction=canada, as_of=D(2013, 3, 21), stance=Stance.SUPPORTS)


@pytest.fixture
def timeline_data(request, transactional_db):
    if "load_cjg" in get_commands():
        request.getfixturevalue("cjg_data")
    else:
        build_factory_data()


def events(page):
    return page.locator("#timeline ol.timeline > li:not(.load-more)")


def kinds_shown(page):
    classes = events(page).evaluate_all("items => items.map(item => item.className)")
    return {re.search(r"kind-(\w+)", name)[1] for name in classes}


def test_filter_the_timeline_in_place_and_go_back(page, live_server, timeline_data, screenshot, no_favicon):
    no_favicon(page)
    page.goto(f"{live_server.url}/jurisdictions/ON/")
    expect(page.locator("h1")).to_have_text("Ontario")
    expect(page.locator("#current-stance .stance")).to_be_visible()
    assert len(kinds_shown(page)) > 1

    page.select_option("#id_kind", "statement")
    page.wait_for_url(re.compile(r"kind=statement"))
    expect(page.locator("#timeline .kind-position")).to_have_count(0)
    assert kinds_shown(page) == {"statement"}
    assert page.evaluate("document.querySelectorAll('main').length") == 1  # a fragment, not a nested page

    load_more = page.locator("#load-more a")
    if load_more.count():
        before = events(page).count()
        url = page.url
        load_more.click()
        expect(events(page)).not_to_have_count(before)
        assert events(page).count() > before and page.url == url
        assert kinds_shown(page) == {"statement"}

    page.go_back()
    page.wait_for_url(re.compile(r"/jurisdictions/ON/$"))
    expect(page.locator("#timeline .kind-position").first).to_be_visible()
    assert len(kinds_shown(page)) > 1
    expect(page.locator("#id_kind")).to_have_value("")
    # Last: Playwright's screenshot leaves style="" on inputs, which htmx would copy on a later swap.
    screenshot(page, "timeline-1280")


def test_matrix_cell_opens_its_evidence_in_the_side_panel(page, live_server, timeline_data, screenshot, no_favicon):
    no_favicon(page)
    page.goto(f"{live_server.url}/negotiations/canada-job-grant/stances")
    rows = page.locator("table.matrix tbody tr")
    expect(rows).to_have_count(14)
    expect(rows.first.locator("th")).to_contain_text("Canada")
    expect(page.locator("#evidence")).to_contain_text("Select a cell")

    ontario = rows.filter(has=page.locator('th a[href="/jurisdictions/ON/"]'))
    cell = ontario.locator("td a.recorded").last  # the latest position, which has quotes in evidence
    href = cell.get_attribute("href")
    cell.click()
    page.wait_for_url(f"**{href}")
    panel = page.locator("#evidence")
    expect(panel).to_contain_text("recorded this month")
    expect(panel.locator("blockquote").first).to_be_visible()
    expect(page.locator("table.matrix")).to_have_count(1)

    page.goto(f"{live_server.url}{href}")  # the same address without htmx
    expect(page.locator("#evidence")).to_contain_text("recorded this month")
    expect(page.locator("table.matrix")).to_be_visible()
    screenshot(page, "stances-1280")


def test_pages_fit_a_phone(phone_page, live_server, timeline_data, screenshot, no_favicon):
    no_favicon(phone_page)
    phone_page.goto(f"{live_server.url}/jurisdictions/ON/")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390, "the timeline scrolls sideways"
    screenshot(phone_page, "timeline-390")

    phone_page.goto(f"{live_server.url}/negotiations/canada-job-grant/stances")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390, "the matrix page scrolls sideways"
    phone_page.locator('tr:has(th a[href="/jurisdictions/ON/"]) td a.recorded').last.click()
    heading = phone_page.locator("#evidence h2")
    expect(heading).to_contain_text("Ontario")
    expect(heading).to_be_in_viewport()  # the panel sits below the matrix; focusing it brings it into view
    screenshot(phone_page, "stances-390")


def test_load_more_moves_the_focus_to_the_first_event_it_brought(page, live_server, timeline_data, no_favicon):
    # The link replaced itself with the next events and the focus fell back to the top of the page: a keyboard or
    # screen reader user had to find their place again among twenty-odd events.
    no_favicon(page)
    page.goto(f"{live_server.url}/jurisdictions/ON/")
    before = events(page).count()
    page.locator("#load-more a").focus()
    page.keyboard.press("Enter")
    expect(events(page)).not_to_have_count(before)
    first_new = events(page).nth(before)
    expect(first_new).to_be_focused()
    assert first_new.get_attribute("tabindex") == "-1"
    assert page.evaluate("document.activeElement.getBoundingClientRect().top") < page.viewport_size["height"]
    # Its focus frame is drawn inside the event, under the dot on the timeline's line, not an outline across the dot.
    style = page.evaluate("(() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.boxShadow]; })()")
    assert style[0] == "none" and "inset" in style[1] and "rgb(29, 78, 216)" in style[1]
