"""Atom feeds: a negotiation's events, a jurisdiction's timeline, a person's statements, a search.

Each feed is parsed as XML; the tests check its entries (titles, ids, dates, links) and the links to it
from the pages.
"""

import datetime
import html
import xml.etree.ElementTree as ET

import pytest

from negotiations.models import Stance
from tests.dataset import load_cjg
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


def test_a_search_feed_names_its_own_address_with_its_query_and_keeps_the_search_page_s_limit(client, world):
    # Its "self" link was /search/feed, a 404, where readers subscribe; and any length of words was searched.
    feed = parse(client.get("/search/feed?q=united+we+stand"))
    assert feed.find(f"{ATOM}link[@rel='self']").get("href") == "http://testserver/search/feed?q=united+we+stand"
    assert client.get("/search/feed", {"q": "word " * 1000}).status_code == 404  # as the search page, no search


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
    load_cjg()
    feed = parse(client.get("/negotiations/canada-job-grant/feed"))
    items = entries(feed)
    assert len(items) == 50
    assert len({item["id"] for item in items}) == 50
    assert all(item["updated"] and item["link"].startswith("http://testserver/") for item in items)


XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def translation_link(feed):
    """The feed's link to itself in the other language: (hreflang, href)."""
    link = next(link for link in feed.findall(f"{ATOM}link") if link.get("hreflang"))
    return link.get("hreflang"), link.get("href")


@pytest.fixture
def french(world):
    """The world's record with its French text written."""
    negotiation = world["said"].negotiation
    negotiation.title_fr = "Subvention canadienne pour l'emploi"
    negotiation.save()
    world["meeting"].title_fr = "Les ministres se réunissent à Toronto"
    world["meeting"].save()
    world["offer"].title_fr = "Offre de décembre"
    world["offer"].save()
    world["changed"].summary_fr = "Accepterait avec de la souplesse."
    world["changed"].save()
    ontario = world["changed"].jurisdiction
    ontario.name_fr = "Ontario (fr)"
    ontario.save()
    return world


def test_a_feed_under_fr_is_in_french_with_the_records_french_text_and_french_links(client, french):
    feed = parse(client.get("/fr/negotiations/cjg/feed"))
    summaries = [html.unescape(item["summary"]) for item in entries(feed)]
    assert feed.get(XML_LANG) == "fr-CA"
    assert feed.findtext(f"{ATOM}title") == "Subvention canadienne pour l'emploi\xa0: derniers événements"
    assert feed.findtext(f"{ATOM}subtitle").startswith("Positions, déclarations, réunions et offres")
    alternate = next(link for link in feed.findall(f"{ATOM}link") if link.get("rel") == "alternate")
    assert alternate.get("href") == "http://testserver/fr/negotiations/cjg/stances"
    # The same feed in English, for readers who want it.
    assert translation_link(feed) == ("en-CA", "http://testserver/negotiations/cjg/feed")
    items = entries(feed)
    titles = [item["title"] for item in items]
    assert titles[0] == f"Déclaration\xa0: Brad Duguid\xa0: «\xa0{french['said'].quote}\xa0»"
    assert titles[1] == ("Position\xa0: Ontario (fr)\xa0: conditionnelle "
                         "(Subvention canadienne pour l'emploi)")
    assert titles[2] == "Offre\xa0: Offre de décembre"
    assert titles[3] == "Réunion\xa0: Les ministres se réunissent à Toronto"
    assert all(item["link"].startswith("http://testserver/fr/") for item in items)
    assert items[2]["link"] == f"http://testserver/fr/offers/{french['offer'].slug}/"
    # The words around the record's own text are French, the dates and colons too.
    assert "La position est passée de «\xa0s'oppose\xa0» à «\xa0conditionnelle\xa0»." in summaries[1]
    assert "Accepterait avec de la souplesse." in summaries[1]
    assert "Would accept" not in summaries[1]
    assert "29 janvier 2014" in summaries[0]
    assert "Source\xa0: The Canadian Press, «\xa0" in summaries[0]
    assert "Déposée par\xa0: CA" in summaries[2]
    # A quote stays in its language, and says which.
    assert '<blockquote lang="en">«\xa0The provinces remain united on this.\xa0»</blockquote>' in summaries[0]  # French marks
    # Entry ids do not change with the language: a reader switching feeds sees the same entries.
    english = entries(parse(client.get("/negotiations/cjg/feed")))
    assert [item["id"] for item in items] == [item["id"] for item in english]


def test_the_plain_address_stays_english(client, french):
    feed = parse(client.get("/negotiations/cjg/feed"))
    assert feed.get(XML_LANG) == "en-CA"
    assert feed.findtext(f"{ATOM}title") == "Canada Job Grant: latest events"
    assert translation_link(feed) == ("fr-CA", "http://testserver/fr/negotiations/cjg/feed")
    items = entries(feed)
    assert [item["title"] for item in items[1:4]] == [
        "Position: Ontario: conditional (Canada Job Grant)", "Offer: December offer", "Meeting: Ministers meet in Toronto"]
    assert "Stance changed from opposes to conditional." in items[1]["summary"]
    assert "Would accept with flexibility." in items[1]["summary"]
    assert "Jan. 29, 2014" in items[0]["summary"] or "January 29, 2014" in items[0]["summary"]
    assert not any("/fr/" in item["link"] for item in items)


def test_each_feed_answers_in_french_under_fr(client, french):
    ontario = parse(client.get("/fr/jurisdictions/ON/feed"))
    assert ontario.findtext(f"{ATOM}title") == "Ontario (fr)\xa0: chronologie"
    assert ontario.findtext(f"{ATOM}subtitle") == (
        "Ontario (fr)\xa0: positions, déclarations, réunions et offres, des plus récentes aux plus anciennes.")
    assert translation_link(ontario) == ("en-CA", "http://testserver/jurisdictions/ON/feed")
    person = parse(client.get("/fr/people/brad-duguid/feed"))
    assert person.findtext(f"{ATOM}title") == "Déclarations de Brad Duguid"
    assert entries(person)[0]["title"].startswith("Déclaration\xa0: Brad Duguid")
    search = parse(client.get("/fr/search/feed?q=december"))
    assert search.findtext(f"{ATOM}title") == "Recherche\xa0: december"
    alternate = next(link for link in search.findall(f"{ATOM}link") if link.get("rel") == "alternate")
    assert alternate.get("href") == "http://testserver/fr/search/?q=december"
    assert translation_link(search) == ("en-CA", "http://testserver/search/feed?q=december")
    assert entries(search)[0]["title"] == "Offre\xa0: Offre de décembre"


def test_french_pages_link_to_the_french_feed(client, french):
    html = client.get("/fr/jurisdictions/ON/").content.decode()
    assert 'href="/fr/jurisdictions/ON/feed"' in html
