"""The jurisdiction timeline: the selector (merge, filters, paging, stance changes) and its page."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from negotiations.models import Jurisdiction, Stance
from negotiations.timeline import jurisdiction_timeline
from tests.factories import (
    JurisdictionFactory,
    MeetingFactory,
    NegotiationFactory,
    OfferFactory,
    PersonFactory,
    PositionFactory,
    StatementFactory,
)

pytestmark = pytest.mark.django_db

D = datetime.date


@pytest.fixture
def canada():
    return JurisdictionFactory(code="CA", kind=Jurisdiction.Kind.FEDERAL, order=0, name_en="Government of Canada")


@pytest.fixture
def ontario():
    return JurisdictionFactory(code="ON", order=6, name_en="Ontario")


@pytest.fixture
def quebec():
    return JurisdictionFactory(code="QC", order=5, name_en="Quebec")


def titles(events):
    return [event.title for event in events]


def make_events(count, *, jurisdiction, canada, negotiation, start=D(2013, 4, 1)):
    """`count` events of each kind for the jurisdiction, one day apart."""
    for n in range(count):
        day = start + datetime.timedelta(days=n)
        PositionFactory(negotiation=negotiation, jurisdiction=jurisdiction, as_of=day,
                        stance=Stance.OPPOSES if n % 2 else Stance.CONDITIONAL,
                        triggered_by_offer=OfferFactory(negotiation=negotiation, tabled_on=day, tabled_by=[canada]))
        statement = StatementFactory(negotiation=negotiation, jurisdiction=jurisdiction, date=day)
        statement.positions.add(*jurisdiction.positions.filter(as_of=day))
        MeetingFactory(negotiation=negotiation, date=day, jurisdictions=[jurisdiction, canada])


# --- The selector ---------------------------------------------------------------------------------


def test_events_of_every_kind_are_merged_newest_first(canada, ontario, empty_cjg):
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=D(2013, 7, 25))
    StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, date=D(2014, 1, 29))
    MeetingFactory(negotiation=empty_cjg, date=D(2013, 11, 8), jurisdictions=[ontario], title="Toronto meeting")
    OfferFactory(negotiation=empty_cjg, tabled_on=D(2013, 3, 21), tabled_by=[canada], title="Budget 2013")

    events, total = jurisdiction_timeline(jurisdiction=ontario)

    assert total == 4
    assert [event.kind for event in events] == ["statement", "meeting", "position", "offer"]
    assert [event.date for event in events] == sorted((event.date for event in events), reverse=True)


def test_same_day_events_read_consequence_first(canada, ontario, empty_cjg):
    day = D(2013, 12, 24)
    MeetingFactory(negotiation=empty_cjg, date=day, jurisdictions=[ontario])
    OfferFactory(negotiation=empty_cjg, tabled_on=day, tabled_by=[canada])
    StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, date=day)
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=day)

    events, _ = jurisdiction_timeline(jurisdiction=ontario)

    assert [event.kind for event in events] == ["position", "statement", "offer", "meeting"]


def test_each_event_has_title_url_precision_and_object(canada, ontario, empty_cjg):
    position = PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=D(2013, 11, 8), stance=Stance.OPPOSES)
    statement = StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, date=D(2013, 11, 1), date_precision="month")
    meeting = MeetingFactory(negotiation=empty_cjg, date=D(2013, 10, 1), jurisdictions=[ontario], title="A meeting")
    offer = OfferFactory(negotiation=empty_cjg, tabled_on=D(2013, 3, 21), tabled_by=[canada], title="Budget 2013")

    events = {event.kind: event for event in jurisdiction_timeline(jurisdiction=ontario)[0]}

    assert events["position"].object == position
    assert events["position"].url == "/negotiations/canada-job-grant/stances/ON/2013-11"
    assert events["position"].title == "Ontario: opposes (Canada Job Grant)"
    assert events["statement"].date_precision == "month"
    assert events["statement"].url == f"{statement.source.get_absolute_url()}#statement-{statement.pk}"
    assert events["statement"].title.startswith(f"{statement.speaker.name}: “")
    assert (events["meeting"].title, events["meeting"].url) == ("A meeting", meeting.get_absolute_url())
    assert (events["offer"].title, events["offer"].url) == ("Budget 2013", offer.get_absolute_url())


def test_only_the_jurisdictions_own_statements_positions_and_meetings(canada, ontario, quebec, empty_cjg):
    StatementFactory(negotiation=empty_cjg, jurisdiction=quebec)
    PositionFactory(negotiation=empty_cjg, jurisdiction=quebec)
    MeetingFactory(negotiation=empty_cjg, jurisdictions=[quebec, canada])
    mine = MeetingFactory(negotiation=empty_cjg, jurisdictions=[ontario, quebec])

    events, total = jurisdiction_timeline(jurisdiction=ontario)

    assert total == 1
    assert [event.object for event in events] == [mine]


def test_a_province_sees_its_own_and_federal_offers_once_each(canada, ontario, quebec, empty_cjg):
    federal = OfferFactory(negotiation=empty_cjg, tabled_on=D(2013, 3, 21), tabled_by=[canada])
    joint = OfferFactory(negotiation=empty_cjg, tabled_on=D(2013, 12, 24), tabled_by=[canada, ontario])
    counter = OfferFactory(negotiation=empty_cjg, tabled_on=D(2014, 1, 29), tabled_by=[ontario, quebec])
    OfferFactory(negotiation=empty_cjg, tabled_on=D(2014, 2, 1), tabled_by=[quebec])

    events, total = jurisdiction_timeline(jurisdiction=ontario, kinds=["offer"])

    assert total == 3
    assert [event.object for event in events] == [counter, joint, federal]


def test_the_federal_government_sees_every_offer(canada, ontario, quebec, empty_cjg):
    OfferFactory(negotiation=empty_cjg, tabled_by=[canada])
    OfferFactory(negotiation=empty_cjg, tabled_by=[quebec])
    OfferFactory(negotiation=empty_cjg, tabled_by=[ontario, quebec])

    assert jurisdiction_timeline(jurisdiction=canada, kinds=["offer"])[1] == 3


def test_filter_by_negotiation(canada, ontario, empty_cjg):
    other = NegotiationFactory(slug="other")
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario)
    StatementFactory(negotiation=other, jurisdiction=ontario)
    OfferFactory(negotiation=other, tabled_by=[canada])

    events, total = jurisdiction_timeline(jurisdiction=ontario, negotiation_slug="other")

    assert total == 2
    assert {event.kind for event in events} == {"statement", "offer"}


def test_filter_by_kinds(canada, ontario, empty_cjg):
    make_events(2, jurisdiction=ontario, canada=canada, negotiation=empty_cjg)

    events, total = jurisdiction_timeline(jurisdiction=ontario, kinds=["statement", "meeting"])

    assert total == 4
    assert {event.kind for event in events} == {"statement", "meeting"}


def test_unknown_kind_is_refused(ontario):
    with pytest.raises(ValueError, match="rumour"):
        jurisdiction_timeline(jurisdiction=ontario, kinds=["rumour"])


def test_filter_by_person_keeps_their_statements_and_meetings(canada, ontario, empty_cjg):
    duguid = PersonFactory(slug="brad-duguid")
    said = StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, speaker=duguid, date=D(2014, 1, 29))
    StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, date=D(2014, 1, 28))
    attended = MeetingFactory(negotiation=empty_cjg, jurisdictions=[ontario], date=D(2013, 11, 8))
    attended.participants.add(duguid)
    MeetingFactory(negotiation=empty_cjg, jurisdictions=[ontario], date=D(2013, 11, 9))
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario)
    OfferFactory(negotiation=empty_cjg, tabled_by=[canada])

    events, total = jurisdiction_timeline(jurisdiction=ontario, person_slug="brad-duguid")

    assert total == 2
    assert [event.object for event in events] == [said, attended]


def test_filter_by_dates_is_inclusive(canada, ontario, empty_cjg):
    for day in (D(2013, 10, 31), D(2013, 11, 1), D(2013, 11, 30), D(2013, 12, 1)):
        StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, date=day)
        OfferFactory(negotiation=empty_cjg, tabled_on=day, tabled_by=[canada])

    events, total = jurisdiction_timeline(jurisdiction=ontario, date_from=D(2013, 11, 1), date_to=D(2013, 11, 30))

    assert total == 4
    assert {event.date for event in events} == {D(2013, 11, 1), D(2013, 11, 30)}


def test_offset_and_limit_page_through_the_merged_list(canada, ontario, empty_cjg):
    make_events(5, jurisdiction=ontario, canada=canada, negotiation=empty_cjg)
    everything, total = jurisdiction_timeline(jurisdiction=ontario, limit=100)

    first, first_total = jurisdiction_timeline(jurisdiction=ontario, limit=7)
    second, _ = jurisdiction_timeline(jurisdiction=ontario, offset=7, limit=7)
    last, _ = jurisdiction_timeline(jurisdiction=ontario, offset=14, limit=7)

    assert total == first_total == 20
    assert titles(first + second + last) == titles(everything)
    assert len(last) == 6


def test_bad_paging_is_refused(ontario):
    with pytest.raises(ValueError):
        jurisdiction_timeline(jurisdiction=ontario, limit=0)
    with pytest.raises(ValueError):
        jurisdiction_timeline(jurisdiction=ontario, offset=-1)


def test_a_change_of_stance_is_flagged_with_the_previous_stance(ontario, empty_cjg):
    other = NegotiationFactory(slug="other")
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=D(2013, 7, 25), stance=Stance.OPPOSES)
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=D(2013, 11, 8), stance=Stance.OPPOSES)
    PositionFactory(negotiation=other, jurisdiction=ontario, as_of=D(2013, 12, 1), stance=Stance.SUPPORTS)
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=D(2014, 1, 29), stance=Stance.CONDITIONAL)

    events, _ = jurisdiction_timeline(jurisdiction=ontario)
    flags = [(event.date, event.stance_changed, event.previous_stance) for event in events]

    assert flags == [
        (D(2014, 1, 29), True, Stance.OPPOSES),  # the other negotiation's position does not count
        (D(2013, 12, 1), False, None),
        (D(2013, 11, 8), False, Stance.OPPOSES),
        (D(2013, 7, 25), False, None),
    ]


def test_stance_change_looks_past_the_date_filter(ontario, empty_cjg):
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=D(2013, 7, 25), stance=Stance.OPPOSES)
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=D(2014, 1, 29), stance=Stance.CONDITIONAL)

    events, _ = jurisdiction_timeline(jurisdiction=ontario, date_from=D(2014, 1, 1))

    assert [(event.stance_changed, event.previous_stance) for event in events] == [(True, Stance.OPPOSES)]


def count_queries(function):
    with CaptureQueriesContext(connection) as queries:
        function()
    return len(queries)


def test_selector_query_count_does_not_grow_with_the_data(canada, ontario, empty_cjg):
    make_events(5, jurisdiction=ontario, canada=canada, negotiation=empty_cjg)

    def read():
        events, _ = jurisdiction_timeline(jurisdiction=ontario, limit=20)
        for event in events:  # touch what the template touches
            if event.kind == "position":
                list(event.object.evidence.all())
                str(event.object.triggered_by_offer)
            if event.kind == "statement":
                _ = (event.object.speaker.name, event.object.source.title)
            if event.kind == "offer":
                list(event.object.tabled_by.all())

    small = count_queries(read)
    make_events(45, jurisdiction=ontario, canada=canada, negotiation=empty_cjg, start=D(2014, 1, 1))
    large = count_queries(read)

    assert small == large == 6  # one per kind, plus evidence and who tabled the offers


# --- The page -------------------------------------------------------------------------------------


def url(code="ON"):
    return f"/jurisdictions/{code}/"


def test_page_shows_current_stance_filters_and_events(client, canada, ontario, empty_cjg):
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=D(2014, 1, 29), stance=Stance.CONDITIONAL,
                    summary="Wants flexibility.", conditions="No cut to the LMA.")
    StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, quote="We have been united since Day 1.")

    response = client.get(url())
    html = response.content.decode()

    assert response.status_code == 200
    assert 'id="current-stance"' in html and "Current stance on Canada Job Grant" in html
    assert "No cut to the LMA." in html and '<time datetime="2014-01-29">January 29, 2014</time>' in html
    assert 'hx-get="/jurisdictions/ON/"' in html and 'hx-push-url="true"' in html and 'hx-target="#timeline"' in html
    assert "We have been united since Day 1." in html
    assert 'class="stance stance-conditional"' in html


def test_code_is_case_insensitive_and_unknown_code_is_404(client, ontario):
    assert client.get(url("on")).status_code == 200
    assert client.get(url("ZZ")).status_code == 404
    assert client.get(url("ONT")).status_code == 404


def test_kind_parameter_shows_only_that_kind(client, canada, ontario, empty_cjg):
    make_events(2, jurisdiction=ontario, canada=canada, negotiation=empty_cjg)

    html = client.get(url(), {"kind": "statement"}).content.decode()

    assert html.count('class="kind-statement') == 2
    assert "kind-position" not in html and "kind-meeting" not in html and "kind-offer" not in html
    assert '<option value="statement" selected>' in html


def test_person_and_date_parameters_filter_the_page(client, canada, ontario, empty_cjg):
    duguid = PersonFactory(slug="brad-duguid", name="Brad Duguid")
    StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, speaker=duguid, quote="Mine.", date=D(2014, 1, 29))
    StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, quote="Someone else's.", date=D(2014, 1, 29))
    StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, speaker=duguid, quote="Too early.", date=D(2013, 1, 1))

    html = client.get(url(), {"person": "brad-duguid", "date_from": "2014-01-01"}).content.decode()

    assert "Mine." in html
    assert "Someone else" not in html and "Too early." not in html


def test_an_invalid_filter_is_explained_not_fatal(client, ontario):
    response = client.get(url(), {"date_from": "yesterday", "kind": "rumour"})

    assert response.status_code == 200
    assert "Enter a valid date." in response.content.decode()
    assert "Select a valid choice." in response.content.decode()
    # each problem on one line, its field's name a link to it ("To" and ": The end date…" had stood on two lines)
    html = client.get(url(), {"date_from": "2014-02-01", "date_to": "2014-01-01"}).content.decode()
    assert '<li><a href="#id_date_to">To:</a> The end date is before the start date.</li>' in html
    french = client.get("/fr" + url(), {"date_from": "2014-02-01", "date_to": "2014-01-01"}).content.decode()
    assert '<li><a href="#id_date_to">Au :</a>' in french


def test_htmx_filter_request_gets_the_timeline_fragment_only(client, canada, ontario, empty_cjg):
    make_events(2, jurisdiction=ontario, canada=canada, negotiation=empty_cjg)

    response = client.get(url(), {"kind": "meeting"}, headers={"HX-Request": "true", "HX-Target": "timeline"})
    html = response.content.decode()

    assert response.status_code == 200
    assert "<html" not in html and "<form" not in html
    assert html.lstrip().startswith('<div id="timeline"')
    assert html.count('class="kind-meeting"') == 2
    assert 'id="current-stance"' in html and 'hx-swap-oob="true"' in html
    assert "HX-Request" in response["Vary"]


def test_htmx_history_restore_gets_the_whole_page(client, ontario):
    headers = {"HX-Request": "true", "HX-History-Restore-Request": "true"}

    assert "<html" in client.get(url(), headers=headers).content.decode()


def test_load_more_link_has_a_real_href_and_appends_the_next_page(client, canada, ontario, empty_cjg):
    make_events(6, jurisdiction=ontario, canada=canada, negotiation=empty_cjg)  # 24 events, 20 a page

    first = client.get(url(), {"kind": "", "person": ""}).content.decode()
    assert 'href="?kind=&amp;person=&amp;offset=20"' in first
    assert 'hx-target="#load-more"' in first and 'hx-swap="outerHTML"' in first

    more = client.get(url(), {"offset": "20"}, headers={"HX-Request": "true", "HX-Target": "load-more"})
    html = more.content.decode()
    assert html.lstrip().startswith("<li")
    assert html.count('<li class="kind-') == 4
    assert 'id="timeline"' not in html and 'id="load-more"' not in html

    without_js = client.get(url(), {"offset": "20"}).content.decode()
    assert "showing 21–24" in without_js and "<html" in without_js


def test_a_quote_with_markup_is_escaped(client, ontario, empty_cjg):
    StatementFactory(negotiation=empty_cjg, jurisdiction=ontario, quote='<script>alert("x")</script> & more')

    html = client.get(url()).content.decode()

    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more" in html


def test_a_stance_change_stands_out_and_links_its_trigger(client, canada, ontario, empty_cjg):
    offer = OfferFactory(negotiation=empty_cjg, tabled_by=[canada], title="Christmas Eve offer", tabled_on=D(2013, 12, 24))
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=D(2013, 7, 25), stance=Stance.OPPOSES)
    PositionFactory(negotiation=empty_cjg, jurisdiction=ontario, as_of=D(2014, 1, 29), stance=Stance.CONDITIONAL,
                    triggered_by_offer=offer)

    html = client.get(url(), {"kind": "position"}).content.decode()

    assert html.count("stance-change") == 2  # the item's class and its note
    assert "Changed from opposes to conditional" in html
    assert f'href="{offer.get_absolute_url()}">Christmas Eve offer</a>' in html


def test_statement_shows_speaker_and_both_source_links(client, ontario, empty_cjg):
    statement = StatementFactory(negotiation=empty_cjg, jurisdiction=ontario)

    html = client.get(url()).content.decode()

    assert f'href="{statement.speaker.get_absolute_url()}"' in html
    assert f'href="{statement.source.get_absolute_url()}"' in html
    assert f'href="{statement.source.url}"' in html


def page_queries(client, **params):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url(), params)
    assert response.status_code == 200
    return len(queries)


def test_page_query_count_is_flat_and_small(client, canada, ontario, empty_cjg):
    make_events(5, jurisdiction=ontario, canada=canada, negotiation=empty_cjg)
    small = page_queries(client)
    small_filtered = page_queries(client, negotiation="canada-job-grant", kind="position")

    make_events(45, jurisdiction=ontario, canada=canada, negotiation=empty_cjg, start=D(2014, 1, 1))
    large = page_queries(client)
    large_filtered = page_queries(client, negotiation="canada-job-grant", kind="position")

    assert small == large <= 12
    assert small_filtered == large_filtered <= small


@pytest.mark.parametrize("address", ["/jurisdictions/ON/", "/jurisdictions/QC/", "/negotiations/canada-job-grant/stances",
                                     "/fr/jurisdictions/ON/"])
def test_no_id_is_given_twice_on_a_page(client, cjg, address):
    # A statement quoted as a position's evidence and shown as its own event gave two elements "statement-40".
    import collections
    import re

    ids = re.findall(r'\sid="([^"]+)"', client.get(address).content.decode())
    assert [name for name, count in collections.Counter(ids).items() if count > 1] == []
