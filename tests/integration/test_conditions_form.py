"""Conditions entered with a position: checks on a term or words; bad rows are refused next to the row, nothing lost."""

import pytest
from django.urls import reverse

from negotiations.models import Condition, Position
from tests.factories import JurisdictionFactory, Record, StatementFactory, position_data


@pytest.fixture
def rec(db):
    record = Record()
    JurisdictionFactory(code="QC", name_en="Quebec")
    return record


def with_checks(rows):
    data = {"checks-TOTAL_FORMS": str(len(rows)), "checks-INITIAL_FORMS": "0",
            "checks-MIN_NUM_FORMS": "0", "checks-MAX_NUM_FORMS": "20"}
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"checks-{i}-{key}"] = value
    return data


def test_the_form_offers_term_paths_and_records_checks_and_words(client, rec, record_editor):
    said = StatementFactory(negotiation=rec.negotiation, speaker=rec.person, jurisdiction=rec.ontario,
                            source=rec.source, ref="duguid-lma")
    client.force_login(record_editor)
    page = client.get(reverse("negotiations:position_new")).content.decode()
    assert '<option value="sources.federal.LMA">' in page and '<option value="treatments.QC">' in page
    response = client.post(reverse("negotiations:position_new"), position_data(rec) | with_checks([
        {"text": "No money taken from the LMA.", "term": "sources.federal.LMA", "operator": "eq", "value": "0",
         "statement": "duguid-lma"},
        {"text": "More room for small businesses.", "term": "", "operator": "", "value": "", "statement": ""},
        {"text": "", "term": "", "operator": "", "value": "", "statement": ""},
    ]))
    assert response.status_code == 302
    position = Position.objects.get()
    rows = list(position.checks.order_by("order"))
    assert [(c.kind, c.term, c.operator, c.value, c.statement) for c in rows] == [
        ("check", "sources.federal.LMA", "eq", "0", said), ("words", "", "", "", None),
    ]
    assert rows[0].history.get().history_user == record_editor


@pytest.mark.parametrize("row, field, words", [
    ({"term": "shortfall_liability", "operator": "le", "value": "province"}, "operator", "not an amount"),
    ({"term": "sources.federal.LMA", "operator": "eq", "value": "lots"}, "value",
     "“lots” is not an amount: write a number, such as 0 or 5000."),
    # a fraction is asked for as one, and the term is not named by its path ("employer_min_share is an amount")
    ({"term": "employer_min_share", "operator": "ge", "value": "ten percent"}, "value",
     "“ten percent” is not a fraction: write a number from 0 to 1, such as 0.15."),
    ({"term": "shortfall_liability", "operator": "eq", "value": "provinces"}, "value", "not a value of"),
    ({"term": "sources.federal.LMA", "operator": "", "value": "0"}, "operator", "Choose how"),
    ({"term": "sources.federal.LMA", "operator": "eq", "value": "0", "statement": "nobody-said-it"}, "statement",
     "No statement"),
])
def test_a_bad_row_is_refused_next_to_it_and_nothing_is_lost(client, rec, record_editor, row, field, words):
    client.force_login(record_editor)
    row = {"text": "No clawback.", "statement": ""} | row
    response = client.post(reverse("negotiations:position_new"), position_data(rec) | with_checks([row]))
    assert response.status_code == 200
    html = response.content.decode()
    slot = html.split(f'id="id_checks-0-{field}_error"', 1)[1].split("</div>", 1)[0]
    assert words in slot
    assert 'value="No clawback."' in html and "Will sign if the LMA is spared." in html
    assert not Position.objects.exists() and not Condition.objects.exists()


def test_a_condition_is_written_in_both_languages_and_read_in_the_readers(client, rec, record_editor):
    from django.utils import translation

    client.force_login(record_editor)
    page = client.get(reverse("negotiations:position_new")).content.decode()
    assert 'name="checks-0-text_fr"' in page and "In words, in French" in page
    response = client.post(reverse("negotiations:position_new"), position_data(rec) | with_checks([
        {"text": "No clawback.", "text_fr": "Aucune récupération.", "term": "", "operator": "", "value": "",
         "statement": ""},
        {"text": "More room for small businesses.", "term": "", "operator": "", "value": "", "statement": ""},
    ]))
    assert response.status_code == 302
    first, second = Position.objects.get().checks.order_by("order")
    assert (first.text_en, first.text_fr, second.text_en, second.text_fr) == (
        "No clawback.", "Aucune récupération.", "More room for small businesses.", None)
    with translation.override("fr"):
        assert (first.text, second.text) == ("Aucune récupération.", "More room for small businesses.")


@pytest.mark.parametrize("typed", ["opts out with compensation", "Opts out with compensation", "opts_out_compensated"])
def test_a_choice_is_taken_as_it_reads_and_kept_as_the_record_keeps_it(client, rec, record_editor, typed):
    # "opts out with compensation", as the page writes the treatment, was refused: "use one of: participates,
    # opts_out_compensated, federal_direct".
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:position_new"), position_data(rec) | with_checks([
        {"text": "Quebec opts out, compensated.", "term": "treatments.QC", "operator": "eq", "value": typed,
         "statement": ""}]))
    assert response.status_code == 302
    assert Condition.objects.get().value == "opts_out_compensated"


def test_a_choice_that_is_none_of_them_lists_them_in_words(client, rec, record_editor):
    client.force_login(record_editor)
    response = client.post(reverse("negotiations:position_new"), position_data(rec) | with_checks([
        {"text": "Quebec leaves.", "term": "treatments.QC", "operator": "eq", "value": "leaves", "statement": ""}]))
    slot = response.content.decode().split('id="id_checks-0-value_error"', 1)[1].split("</div>", 1)[0]
    assert "use one of: participates, opts out with compensation, federal direct delivery." in slot
