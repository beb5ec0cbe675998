"""Key dates and the calendar: the iCalendar feed of meetings and key dates, and upcoming dates on the overview."""

import datetime

import pytest
from django.core.management import call_command
from icalendar import Calendar

from negotiations.models import DatePrecision, KeyDate
from tests.factories import MeetingFactory, NegotiationFactory, SourceFactory

pytestmark = pytest.mark.django_db


def events(response) -> dict[str, object]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(response.content)
    assert str(calendar["VERSION"]) == "2.0" and calendar["PRODID"]
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


@pytest.fixture
def negotiation():
    return NegotiationFactory(slug="cjg", title="Canada Job Grant")


def key_date(negotiation, **fields):
    values = {"negotiation": negotiation, "slug": "lma-expiry", "date": datetime.date(2014, 3, 31),
              "kind": KeyDate.Kind.DEADLINE, "title": "The LMAs expire", "source": SourceFactory(),
              "note": "End of the agreements."}
    values.update(fields)
    return KeyDate.objects.create(**values)


def test_meetings_and_key_dates_are_all_day_events_with_stable_uids(client, negotiation):
    meeting = MeetingFactory(negotiation=negotiation, slug="toronto", title="Ministers meet",
                             date=datetime.date(2013, 11, 8), location="Toronto")
    expiry = key_date(negotiation)
    found = events(client.get("/negotiations/cjg/calendar.ics"))
    assert set(found) == {"meeting-toronto@testserver", "keydate-lma-expiry@testserver"}
    event = found["meeting-toronto@testserver"]
    assert event.decoded("DTSTART") == datetime.date(2013, 11, 8)  # a date, not a datetime: all day
    assert event.decoded("DTEND") == datetime.date(2013, 11, 9)
    assert str(event["SUMMARY"]) == "Ministers meet"
    assert str(event["LOCATION"]) == "Toronto"
    assert str(event["URL"]) == f"http://testserver{meeting.get_absolute_url()}"
    deadline = found["keydate-lma-expiry@testserver"]
    assert deadline.decoded("DTSTART") == datetime.date(2014, 3, 31)
    assert "End of the agreements." in str(deadline["DESCRIPTION"])
    assert expiry.source.outlet in str(deadline["DESCRIPTION"])
    assert str(deadline["CATEGORIES"].cats[0]) == "deadline"


def test_a_known_time_makes_a_timed_event_in_ottawa_time(client, negotiation):
    key_date(negotiation, slug="offer-arrives", date=datetime.date(2013, 12, 24), time=datetime.time(15, 0),
             kind=KeyDate.Kind.MILESTONE, title="The offer arrives")
    event = events(client.get("/negotiations/cjg/calendar.ics"))["keydate-offer-arrives@testserver"]
    start = event.decoded("DTSTART")
    assert start.isoformat() == "2013-12-24T15:00:00-05:00"
    assert str(event["DTSTART"].params["TZID"]) == "America/Toronto"
    assert b"BEGIN:VTIMEZONE" in client.get("/negotiations/cjg/calendar.ics").content


def test_a_coarse_date_stays_all_day_and_says_how_rough_it_is(client, negotiation):
    key_date(negotiation, date=datetime.date(2014, 4, 1), date_precision=DatePrecision.MONTH,
             time=datetime.time(9, 0))
    event = events(client.get("/negotiations/cjg/calendar.ics"))["keydate-lma-expiry@testserver"]
    assert event.decoded("DTSTART") == datetime.date(2014, 4, 1)
    assert "known only to the month" in str(event["DESCRIPTION"])


def test_an_edit_keeps_the_uid_and_raises_sequence_and_last_modified(client, negotiation):
    expiry = key_date(negotiation)
    before = events(client.get("/negotiations/cjg/calendar.ics"))["keydate-lma-expiry@testserver"]
    assert int(before["SEQUENCE"]) == 0
    expiry.title = "The Labour Market Agreements expire"
    expiry.save()
    after = events(client.get("/negotiations/cjg/calendar.ics"))["keydate-lma-expiry@testserver"]
    assert str(after["SUMMARY"]) == "The Labour Market Agreements expire"
    assert int(after["SEQUENCE"]) == 1
    assert after.decoded("LAST-MODIFIED") >= before.decoded("LAST-MODIFIED")
    assert after.decoded("DTSTAMP") == after.decoded("LAST-MODIFIED")


def test_the_calendar_under_fr_is_in_french_and_says_so(client, negotiation):
    negotiation.title_fr = "Subvention canadienne pour l'emploi"
    negotiation.save()
    MeetingFactory(negotiation=negotiation, slug="toronto", title="Ministers meet", title_fr="Les ministres se réunissent",
                   date=datetime.date(2013, 11, 8), location="Toronto")
    key_date(negotiation, title_fr="Les EMT prennent fin", note_fr="Fin des ententes.",
             date_precision=DatePrecision.MONTH)
    response = client.get("/fr/negotiations/cjg/calendar.ics")
    found = events(response)
    calendar = Calendar.from_ical(response.content)
    assert str(calendar["X-WR-CALNAME"]) == "Subvention canadienne pour l'emploi\xa0: réunions et dates clés"
    # The same UIDs as the English calendar: one event, whichever copy a program has.
    assert set(found) == {"meeting-toronto@testserver", "keydate-lma-expiry@testserver"}
    meeting = found["meeting-toronto@testserver"]
    assert str(meeting["SUMMARY"]) == "Les ministres se réunissent"
    assert meeting["SUMMARY"].params["LANGUAGE"] == "fr-CA"
    assert str(meeting["URL"]).startswith("http://testserver/fr/meetings/toronto")
    deadline = found["keydate-lma-expiry@testserver"]
    assert str(deadline["SUMMARY"]) == "Les EMT prennent fin"
    description = str(deadline["DESCRIPTION"])
    assert "Fin des ententes." in description and "Source\xa0:" in description
    assert "La date n'est connue qu'au mois près." in description
    assert str(deadline["CATEGORIES"].cats[0]) == "échéance"
    assert str(deadline["URL"]) == "http://testserver/fr/negotiations/cjg/stances"
    english = events(client.get("/negotiations/cjg/calendar.ics"))
    assert str(english["meeting-toronto@testserver"]["SUMMARY"]) == "Ministers meet"
    assert english["meeting-toronto@testserver"]["SUMMARY"].params["LANGUAGE"] == "en-CA"


def test_unknown_negotiation_is_404(client):
    assert client.get("/negotiations/nothing/calendar.ics").status_code == 404


def test_the_data_set_has_its_two_key_dates_with_their_sources(client):
    call_command("load_cjg", verbosity=0)
    dates = {key.slug: key for key in KeyDate.objects.select_related("source")}
    assert dates["lma-expiry-2014-03-31"].date == datetime.date(2014, 3, 31)
    assert dates["lma-expiry-2014-03-31"].kind == KeyDate.Kind.DEADLINE
    assert dates["lma-expiry-2014-03-31"].source.slug == "cp-2013-11-08-toronto-ministers-meeting"
    assert dates["cjg-planned-start-2014-04-01"].date == datetime.date(2014, 4, 1)
    assert dates["cjg-planned-start-2014-04-01"].kind == KeyDate.Kind.MILESTONE
    found = events(client.get("/negotiations/canada-job-grant/calendar.ics"))
    assert "keydate-cjg-planned-start-2014-04-01@testserver" in found
    assert "meeting-fpt-labour-ministers-2013-11-08@testserver" in found
    # Loading again changes nothing.
    call_command("load_cjg", verbosity=0)
    assert KeyDate.objects.count() == 2


def test_the_overview_shows_upcoming_dates_relative_to_today(client, negotiation, monkeypatch):
    key_date(negotiation, slug="planned-start", date=datetime.date(2014, 4, 1), title="The grant starts")
    MeetingFactory(negotiation=negotiation, title="Ministers meet again", date=datetime.date(2014, 2, 4))
    MeetingFactory(negotiation=negotiation, title="Long past", date=datetime.date(2013, 1, 1))
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *args, **kwargs: datetime.date(2014, 2, 1))
    html = client.get("/").content.decode()
    section = html[html.index('id="upcoming-heading"'):]
    assert section.index("Ministers meet again") < section.index("The grant starts")
    assert "Long past" not in section.split("</section>")[0]
    assert 'href="/negotiations/cjg/calendar.ics"' in section

    monkeypatch.setattr("django.utils.timezone.localdate", lambda *args, **kwargs: datetime.date(2026, 12, 3))
    later = client.get("/").content.decode()
    later_section = later[later.index('id="upcoming-heading"'):].split("</section>")[0]
    assert "No meeting or key date after December 3, 2026." in later_section
    assert "The grant starts" in later_section  # listed among the key dates on record
