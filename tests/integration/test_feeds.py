"""Atom feeds: a negotiation's events, a jurisdiction's timeline, a person's statements, a search.

Each feed is parsed as XML; the tests check its entries (titles, ids, dates, links) and the links to it
from the pages.
"""

import datetime
import xml.etree.ElementTree as ET

import pytest
from django.core.management import call_command

from negotiations.models import Stance
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

ATOM = "{http://www.w3.org/2005/Atom}"


def parse(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    return ET.fromstring(response.content)


def entries(feed):
    return [
        {
            "title": entry.findtext(f"{ATOM}title"),
            "id": entry.findtext(f"{ATOM}id"),
            "updated": entry.findtext(f"{ATOM}updated"),
            "link": entry.find(f"{ATOM}link").get("href"),
            "summary": entry.findtext(f"{ATOM}summary") or "",
        }
        for entry in feed.findall(f"{ATOM}entry")
    ]


@pytest.fixture
def world():
    negotiation = NegotiationFactory(slug="cjg", title="Canada Job Grant")
    other = NegotiationFactory(slug="other")
    canada = JurisdictionFactory(code="CA", name_en="Canada", kind="federal", order=0)
    ontario = JurisdictionFactory(code="ON", name_en="Ontario")
    quebec = JurisdictionFactory(code="QC", name_en="Quebec")
    duguid = PersonFactory(name="Brad Duguid", slug="brad-duguid")
    said = StatementFactory(negotiation=negotiation, speaker=duguid, jurisdiction=ontario,
                            date=datetime.date(2014, 1, 29), quote="The provinces remain united on this.")
    PositionFactory(negotiation=negotiation, jurisdiction=ontario, as_of=datetime.date(2013, 7, 25),
                    stance=Stance.OPPOSES)
    changed = PositionFactory(negotiation=negotiation, jurisdiction=ontario, as_of=datetime.date(2014, 1, 28),
                              stance=Stance.CONDITIONAL, summary="Would accept with flexibility.")
    meeting = MeetingFactory(negotiation=negotiation, title="Ministers meet in Toronto",
                             date=datetime.date(2013, 11, 8), jurisdictions=[canada, ontario, quebec])
    offer = OfferFactory(negotiation=negotiation, title="December offer", tabled_on=datetime.date(2013, 12, 24),
                         tabled_by=[canada])
    StatementFactory(negotiation=other, jurisdiction=quebec, quote="Elsewhere entirely.")
    return {"said": said, "changed": changed, "meeting": meeting, "offer": offer}


def test_negotiation_feed_lists_every_kind_newest_first_with_stable_ids_and_dates(client, world):
    feed = parse(client.get("/negotiations/cjg/feed"))
    assert feed.findtext(f"{ATOM}title") == "Canada Job Grant: latest events"
    items = entries(feed)
    assert [item["title"].split(":")[0] for item in items] == [
        "Statement", "Position", "Offer", "Meeting", "Position"]
    first = items[0]
    assert first["id"] == f"tag:testserver,2013:statement-{world['said'].pk}"
    assert first["updated"] == "2014-01-29T00:00:00-05:00"
    assert first["link"] == f"http://testserver/sources/{world['said'].source.slug}/#statement-{world['said'].pk}"
    assert "The provinces remain united on this." in first["summary"]
    assert "Stance changed from opposes to conditional." in items[1]["summary"]
    assert items[2]["link"] == f"http://testserver/offers/{world['offer'].slug}/"
    assert not any("Elsewhere" in item["summary"] for item in items)  # another negotiation's statement
    # The feed's own date is its newest entry's.
    assert feed.findtext(f"{ATOM}updated") == "2014-01-29T00:00:00-05:00"


def test_jurisdiction_feed_is_its_timeline(client, world):
    items = entries(parse(client.get("/jurisdictions/on/feed")))
    kinds = [item["id"].rsplit(":", 1)[1].rsplit("-", 1)[0] for item in items]
    # Ontario's statement and positions, the meeting it attended, and Ottawa's offer.
    assert kinds == ["statement", "position", "offer", "meeting", "position"]
    assert items[-1]["updated"] == "2013-07-25T00:00:00-04:00"


def test_person_feed_has_their_statements_only(client, world):
    items = entries(parse(client.get("/people/brad-duguid/feed")))
    assert len(items) == 1
    assert items[0]["title"].startswith("Statement: Brad Duguid")


def test_search_feed_has_the_dated_matches_and_needs_a_query(client, world):
    items = entries(parse(client.get("/search/feed?q=united")))
    assert [item["id"] for item in items] == [f"tag:testserver,2013:statement-{world['said'].pk}"]
    assert entries(parse(client.get("/search/feed?q=december")))[0]["title"] == "Offer: December offer"
    missing = client.get("/search/feed")
    assert missing.status_code == 404


def test_unknown_negotiation_or_jurisdiction_is_404(client, world):
    assert client.get("/negotiations/nothing/feed").status_code == 404
    assert client.get("/jurisdictions/ZZ/feed").status_code == 404


def test_pages_link_to_their_feed_in_the_head_and_visibly(client, world):
    for page, feed in [
        ("/negotiations/cjg/stances", "/negotiations/cjg/feed"),
        ("/jurisdictions/ON/", "/jurisdictions/ON/feed"),
        ("/people/brad-duguid/", "/people/brad-duguid/feed"),
        ("/search/?q=united", "/search/feed?q=united"),
    ]:
        html = client.get(page).content.decode()
        assert '<link rel="alternate" type="application/atom+xml"' in html, page
        assert f'href="{feed}"' in html, page
        assert f'<a href="{feed}" type="application/atom+xml">Feed (Atom)</a>' in html, page


def test_a_feed_follows_the_record(client, world):
    before = entries(parse(client.get("/negotiations/cjg/feed")))
    StatementFactory(negotiation=world["said"].negotiation, date=datetime.date(2014, 2, 4), quote="A new word.")
    after = entries(parse(client.get("/negotiations/cjg/feed")))
    assert len(after) == len(before) + 1
    assert "A new word." in after[0]["summary"]


def test_the_data_set_feed_is_valid_atom(client):
    call_command("load_cjg", verbosity=0)
    feed = parse(client.get("/negotiations/canada-job-grant/feed"))
    items = entries(feed)
    assert len(items) == 50
    assert len({item["id"] for item in items}) == 50
    assert all(item["updated"] and item["link"].startswith("http://testserver/") for item in items)
