"""The one-value terms are described once (negotiations.terms.TERM_FIELDS); these tests fail when a term
described there is missing from a place the README's "Adding a term" recipe says follows from it, or from
one of the places it names."""

from dataclasses import fields

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from grants.models import Scenario
from grants.presentation import TERMS_FIELD_LABELS
from negotiations.models import Offer
from negotiations.offer_forms import OfferTermsForm
from negotiations.term_basis import term_label
from negotiations.terms import SCALAR_FIELDS, SCALAR_PATHS, TERM_FIELDS, OfferTerms, term_paths, term_value
from tests.offer_world import offer_post

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("term", TERM_FIELDS, ids=lambda term: term.name)
def test_each_term_is_a_field_of_the_terms_of_an_offer_and_of_a_scenario_and_of_the_form(term):
    assert term.name in {f.name for f in fields(OfferTerms)}
    assert term.name in SCALAR_FIELDS
    assert Offer._meta.get_field(term.name).name == term.name
    assert Scenario._meta.get_field(term.name).name == term.name
    assert term.name in OfferTermsForm.base_fields
    assert term.path in term_paths(())
    assert term_label(term.path) != term.path  # named in words
    assert TERMS_FIELD_LABELS[term.name] == term.label


def test_term_value_reads_each_one_value_path():
    terms = OfferTerms(max_grant=15000, federal_amount=10000, provincial_amount=0, employer_amount=5000,
                       scale_amount=300000000, employer_min_share=None)
    read = {path: term_value(terms, path) for path in SCALAR_PATHS}
    assert read["max_grant"] == 15000 and read["scale"] == 300000000  # the scale reads as its amount
    for term in TERM_FIELDS:
        if term.path in SCALAR_PATHS and term.name != "scale_program":
            assert read[term.path] == getattr(terms, term.name), term.name


def test_the_offer_page_shows_every_term_by_its_label_in_both_languages(client, budget):
    labels = {}
    for language, prefix in (("en", ""), ("fr", "/fr")):
        page = client.get(f"{prefix}{budget.get_absolute_url()}").content.decode()
        with translation.override(language):
            labels[language] = [str(term.short_label or term.label) for term in TERM_FIELDS]
        for label in labels[language]:
            assert f"<th scope=\"row\">{escape(label)}</th>" in page, label
    untranslated = [english for english, french in zip(labels["en"], labels["fr"], strict=True) if english == french]
    assert untranslated == []


def test_the_offer_form_has_an_input_for_every_term(offer_editor_client, budget):
    page = offer_editor_client.get(reverse("negotiations:offer_new")).content.decode()
    for term in TERM_FIELDS:
        assert f'name="{term.name}"' in page, term.name


@pytest.mark.parametrize("prefix, expected", [
    ("", "The federal, provincial and employer amounts ($5,000 + $5,000 + $4,000) add up to $14,000 but the "
         "maximum grant is $15,000."),
    ("/fr", "Les montants fédéral, provincial et de l&#x27;employeur (5\u00a0000\u00a0$ + 5\u00a0000\u00a0$ + "
            "4\u00a0000\u00a0$) totalisent 14\u00a0000\u00a0$, mais la subvention maximale est de 15\u00a0000\u00a0$."),
])
def test_a_rule_s_message_reads_in_the_page_s_language_with_its_amounts(offer_editor_client, budget, prefix,
                                                                       expected):
    with translation.override("fr" if prefix else "en"):
        url = reverse("negotiations:offer_new")
    page = offer_editor_client.post(url, offer_post(employer_amount="4000")).content.decode()
    assert expected in page
