"""Search finds what people look for (issue 16.6, 15.4), on the Canada Job Grant record."""

import pytest

from negotiations.search import search_record

pytestmark = pytest.mark.django_db


def counts(query):
    return {group.kind: group.count for group in search_record(query=query).groups}


def test_a_persons_name_finds_their_own_words_first(cjg):
    statements = next(group for group in search_record(query="Kenney").groups if group.kind == "statements")
    speakers = [statement.speaker.name for statement in statements.items]
    own = speakers.count("Jason Kenney")
    assert own >= 5
    assert speakers[:own] == ["Jason Kenney"] * own


def test_positions_and_jurisdictions_are_searched(cjg):
    assert counts("Quebec opts")["positions"] >= 1
    assert counts("Ontario")["jurisdictions"] == 1


@pytest.mark.parametrize("query", ["Québec", "Quebec", "quebec", "QUÉBEC"])
def test_accents_are_ignored(cjg, query):
    assert counts(query)["jurisdictions"] == 1


def test_a_jurisdiction_is_found_by_its_french_name(cjg):
    assert counts("Colombie-Britannique")["jurisdictions"] == 1
    assert counts("Terre-Neuve")["jurisdictions"] == 1


@pytest.mark.parametrize("query", ["$300M", "300 million", "$300 million", "300,000,000"])
def test_money_in_its_common_forms(cjg, query):
    found = counts(query)
    assert found["offers"] >= 1 and found["positions"] >= 1


def test_snippets_mark_the_match_and_are_escaped(cjg, client):
    html = client.get("/search/", {"q": "$300M"}).content.decode()
    assert "<mark>300 million</mark>" in html
    html = client.get("/search/", {"q": "<b>Quebec</b>"}).content.decode()
    assert "<b>" not in html
    assert "Jurisdictions <span class=\"count\">1</span>" in html
