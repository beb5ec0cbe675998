"""Searching the record: grouping, each kind and field found, limits, the htmx region, PostgreSQL full text."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from negotiations.search import search_record
from tests.factories import (
    JurisdictionFactory,
    MeetingFactory,
    NegotiationFactory,
    OfferFactory,
    PersonFactory,
    RoleFactory,
    SourceFactory,
    StatementFactory,
)

pytestmark = pytest.mark.django_db

URL = "/search/"


@pytest.fixture
def record():
    """One of each kind, each findable by words that appear nowhere else."""
    negotiation = NegotiationFactory(slug="canada-job-grant")
    ontario = JurisdictionFactory(code="ON", name_en="Ontario")
    duguid = PersonFactory(name="Brad Duguid", slug="brad-duguid")
    RoleFactory(person=duguid, jurisdiction=ontario, title="Minister of Training, Colleges and Universities")
    kenney = PersonFactory(name="Jason Kenney", slug="jason-kenney")
    RoleFactory(person=kenney, jurisdiction=JurisdictionFactory(code="CA", kind="federal"),
                title="Minister of Employment and Social Development")
    meeting = MeetingFactory(negotiation=negotiation, title="FPT labour ministers' meeting", location="Toronto",
                             outcome="Provinces asked for flexibility on the employer share.")
    StatementFactory(negotiation=negotiation, speaker=duguid, jurisdiction=ontario, meeting=meeting,
                     quote="I am perplexed by the fixation to damage programs that are working.",
                     context="in an interview with The Canadian Press")
    OfferFactory(negotiation=negotiation, title="Christmas Eve offer", tabled_on=datetime.date(2013, 12, 24),
                 summary="Ottawa covers the provincial share from the LMDA.",
                 assumptions="The employer share is read as one third.", tabled_by=[ontario])
    return {"negotiation": negotiation, "duguid": duguid, "meeting": meeting}


def groups(query):
    return {group.kind: group for group in search_record(query=query).groups}


def found(query):
    """How many of each kind the query finds."""
    return {kind: group.count for kind, group in groups(query).items()}


def test_results_are_grouped_by_kind_in_a_fixed_order(record):
    results = search_record(query="Duguid")
    assert [group.kind for group in results.groups] == [
        "people", "statements", "positions", "offers", "meetings", "jurisdictions", "sources"]
    assert [str(group.label) for group in results.groups] == [
        "People", "Statements", "Positions", "Offers", "Meetings", "Jurisdictions", "Sources"]


@pytest.mark.parametrize(("query", "kind"), [
    ("perplexed", "statements"),          # statement quote
    ("Canadian Press", "statements"),     # statement context
    ("labour ministers", "meetings"),     # meeting title
    ("flexibility", "meetings"),          # meeting outcome
    ("Toronto", "meetings"),              # meeting location
    ("Christmas Eve", "offers"),          # offer title
    ("LMDA", "offers"),                   # offer summary
    ("third", "offers"),                  # offer assumptions
    ("Kenney", "people"),                 # person name
    ("Social Development", "people"),     # person's role title
])
def test_each_kind_is_found_by_each_searched_field(record, query, kind):
    counts = found(query)
    assert counts[kind] == 1, counts
    # Sources are searched too (issue 16.6): "Canadian Press" is also the outlet of the statement's source.
    assert sum(count for other, count in counts.items() if other != "sources") == 1, counts


def test_every_word_must_match(record):
    assert found("Duguid Universities")["people"] == 1
    assert found("Duguid Employment")["people"] == 0


def test_the_start_of_a_word_is_enough(record):
    assert found("perplex")["statements"] == 1
    assert found("Kenn")["people"] == 1


def test_matching_ignores_case(record):
    assert found("TORONTO")["meetings"] == 1


def test_groups_are_limited_and_counted(record):
    for i in range(25):
        StatementFactory(negotiation=record["negotiation"], quote=f"Skills gap number {i}.")
    statements = groups("skills")["statements"]
    assert (statements.count, len(statements.items), statements.more) == (25, 20, 5)


def test_punctuation_alone_finds_nothing_and_breaks_nothing(client, record):
    assert search_record(query="  !!! ... ").groups == []
    response = client.get(URL, {"q": "&&& ||| :* !("})
    assert response.status_code == 200
    assert response.context["results"].groups == []


def test_page_shows_each_kind(client, record):
    content = client.get(URL, {"q": "Zanzibar"}).content.decode()  # matches nothing
    assert "Nothing in the record matches “Zanzibar”." in content
    content = client.get(URL, {"q": "share"}).content.decode()
    assert 'id="results-meetings"' in content and 'id="results-offers"' in content
    assert 'id="results-statements"' not in content
    assert "Christmas Eve offer" in content and "FPT labour ministers&#x27; meeting" in content


def test_empty_query_shows_a_hint_and_no_results(client, record):
    for params in ({}, {"q": ""}, {"q": "   "}):
        response = client.get(URL, params)
        assert response.status_code == 200
        assert response.context["results"] is None
        assert "Type a name, a place or words from a quote" in response.content.decode()


def test_a_query_over_200_characters_is_refused_with_a_message(client, record):
    response = client.get(URL, {"q": "grant " * 40})
    assert response.status_code == 200
    assert response.context["results"] is None
    assert "A search can be at most 200 characters long." in response.content.decode()


def test_htmx_gets_the_results_region_only(client, record):
    response = client.get(URL, {"q": "Duguid"}, headers={"HX-Request": "true"})
    content = response.content.decode()
    assert content.lstrip().startswith('<div id="search-results"')
    assert "<html" not in content and "Brad Duguid" in content
    assert "HX-Request" in response.headers["Vary"]


def test_htmx_history_restore_gets_the_whole_page(client, record):
    response = client.get(URL, {"q": "Duguid"}, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert "<html" in response.content.decode()


def test_the_search_form_works_without_javascript_and_with_htmx(client, record):
    content = client.get(URL, {"q": "Duguid"}).content.decode()
    assert 'method="get" action="/search/"' in content
    assert 'hx-get="/search/"' in content and 'hx-push-url="true"' in content
    assert 'value="Duguid"' in content


def test_results_are_escaped(client, record):
    StatementFactory(negotiation=record["negotiation"], quote="<script>alert(1)</script> sabotage")
    content = client.get(URL, {"q": "sabotage"}).content.decode()
    assert "<script>alert(1)</script>" not in content
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in content
    content = client.get(URL, {"q": "<script>"}).content.decode()
    assert "<script>alert" not in content


def test_a_statement_s_quote_marks_every_match_accent_blind_and_escaped(client, record):
    # A statement found showed its whole quote with nothing marked, where a meeting's or an offer's snippet marks
    # the words found. Its quote keeps its language and its quotation marks; its HTML stays text.
    statement = StatementFactory(negotiation=record["negotiation"], speaker=record["duguid"], language="fr",
                                 quote="Le Québec dit <b>non</b>; quebec se retire.")
    english = client.get(URL, {"q": "Quebec"}).content.decode()
    assert ('<p lang="fr">“Le <mark>Québec</mark> dit &lt;b&gt;non&lt;/b&gt;; <mark>quebec</mark> se retire.”</p>'
            in english)
    # Elsewhere the statement reads as it did: nothing marked.
    person = client.get(record["duguid"].get_absolute_url()).content.decode()
    assert f'id="statement-{statement.pk}"' in person
    assert '<p lang="fr">“Le Québec dit &lt;b&gt;non&lt;/b&gt;; quebec se retire.”</p>' in person
    assert "<mark>" not in person
    french = client.get("/fr" + URL, {"q": "québec"}).content.decode()
    assert ('<p lang="fr">«\xa0Le <mark>Québec</mark> dit &lt;b&gt;non&lt;/b&gt;; <mark>quebec</mark> se retire.\xa0»</p>'
            in french)


def test_query_count_does_not_grow_with_matches(client, record):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get(URL, {"q": "grant"}).status_code == 200
        return len(captured)

    def add(n):
        for i in range(n):
            person = PersonFactory(name=f"Grant Person {i}")
            RoleFactory(person=person, title="Grant officer")
            MeetingFactory(negotiation=record["negotiation"], title=f"Grant meeting {i}")
            StatementFactory(negotiation=record["negotiation"], speaker=person, quote=f"The grant, again ({i}).")
            OfferFactory(negotiation=record["negotiation"], title=f"Grant offer {i}", tabled_by=[JurisdictionFactory()])

    add(3)
    small = queries()
    add(27)
    large = queries()
    assert small == large <= 12
    assert small == 10  # one per group (seven), the speakers named, one prefetch for offers, one for people


@pytest.mark.skipif(connection.vendor != "postgresql", reason="full-text search runs on PostgreSQL only")
def test_postgresql_uses_full_text_search_with_stemming_and_ranking(record):
    SourceFactory()  # not searched
    StatementFactory(negotiation=record["negotiation"], quote="Training training training for workers.")
    StatementFactory(negotiation=record["negotiation"], quote="A word on training.")
    with CaptureQueriesContext(connection) as captured:
        statements = groups("trained")["statements"]  # stems to "train", as do "training" and "Training"
    sql = " ".join(query["sql"] for query in captured)
    assert "to_tsvector" in sql and "to_tsquery" in sql and "ts_rank" in sql and "@@" in sql
    assert statements.count == 2
    assert statements.items[0].quote == "Training training training for workers."  # ranked first
    assert found("program")["statements"] == 1    # "program" and "programs" share a stem
    assert found("Colleges")["people"] == 1       # a role title reached through the roles subquery


@pytest.mark.skipif(connection.vendor == "postgresql", reason="the fallback runs where full-text search does not")
def test_other_databases_use_the_contains_fallback(record):
    with CaptureQueriesContext(connection) as captured:
        search_record(query="perplexed")
    sql = " ".join(query["sql"] for query in captured)
    assert "LIKE" in sql.upper() and "tsvector" not in sql


@pytest.fixture
def bilingual(record):
    """French text alongside the English, in words that appear nowhere else."""
    meeting = record["meeting"]
    meeting.title_fr = "Rencontre des ministres FPT du marché du travail"
    meeting.outcome_fr = "Les provinces demandent de la souplesse sur la part patronale."
    meeting.save()
    offer = OfferFactory(negotiation=record["negotiation"], title="Counter-proposal", tabled_on=datetime.date(2014, 1, 10),
                         title_fr="Contre-proposition des provinces", summary="The provinces propose their own grant.",
                         summary_fr="Les provinces proposent leur propre subvention.")
    RoleFactory(person=record["duguid"], jurisdiction=record["duguid"].roles.first().jurisdiction,
                title="Deputy House Leader", title_fr="Leader parlementaire adjoint")
    return {**record, "offer": offer}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("query", "kind"), [
    ("Rencontre", "meetings"),       # a meeting's French title
    ("souplesse", "meetings"),       # a meeting's French outcome
    ("Contre-proposition", "offers"),  # an offer's French title
    ("subvention", "offers"),        # an offer's French summary
    ("parlementaire", "people"),     # a role's French title
])
def test_the_french_text_is_searched_whatever_the_page_language(bilingual, language, query, kind):
    from django.utils import translation

    with translation.override(language):
        counts = found(query)
    assert counts[kind] == 1, counts


def test_a_match_only_in_the_other_language_is_marked_in_that_language(bilingual):
    from django.utils import translation

    with translation.override("en"):
        offer = groups("subvention")["offers"].items[0]
    assert [piece for piece, is_match in offer.snippet if is_match] == ["subvention"]
    assert "Les provinces proposent leur propre" in "".join(piece for piece, _ in offer.snippet)
    with translation.override("fr"):
        offer = groups("grant")["offers"].items[0]
    assert "The provinces propose their own" in "".join(piece for piece, _ in offer.snippet)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="full-text search runs on PostgreSQL only")
def test_french_text_is_stemmed_in_french(bilingual):
    # "subventions" and "proposent" reach "subvention" and "proposer" only through French stemming.
    assert found("subventions")["offers"] == 1
    assert found("rencontres")["meetings"] == 1


def test_the_search_page_in_french_finds_the_french_title(client, bilingual):
    content = client.get("/fr" + URL, {"q": "contre-proposition"}).content.decode()
    assert "Contre-proposition des provinces" in content
    content = client.get(URL, {"q": "contre-proposition"}).content.decode()  # the English page, its English title
    assert "Counter-proposal" in content


def test_a_snippet_in_the_other_language_says_so(client, bilingual):
    # On a French page, English text read "All premiers reject the grant…" with no lang="en" for a screen reader.
    french = client.get("/fr" + URL, {"q": "LMDA"}).content.decode()  # the Christmas Eve offer: English only
    assert '<span class="excerpt snippet" lang="en">Ottawa covers the provincial share from the <mark>LMDA</mark>' in french
    french = client.get("/fr" + URL, {"q": "subvention"}).content.decode()
    assert '<span class="excerpt snippet">Les provinces proposent leur propre <mark>subvention</mark>' in french
    english = client.get(URL, {"q": "subvention"}).content.decode()
    assert '<span class="excerpt snippet" lang="fr">Les provinces proposent leur propre <mark>subvention</mark>' in english
