"""Money typed as people write it (issue 16 point 4): the offer form and the live preview read it with
the one parser, and refuse anything else with a message that shows an example."""

import pytest
from django.urls import reverse

from negotiations.models import Offer
from tests.offer_world import PREVIEW_URL, national, offer_post
from tests.shared import HTMX

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cold_reference_data")]


@pytest.mark.parametrize("typed", ["$300 million", "$300M", "300,000,000", "300 000 000 $", "300 millions"])
def test_the_preview_reads_the_national_amount_as_written(offer_editor_client, budget, typed):
    figures = national(offer_editor_client.post(PREVIEW_URL, offer_post(scale_amount=typed), **HTMX))
    assert figures["trainees"] == "60,000"


@pytest.mark.parametrize("field", ["max_grant", "federal_amount", "scale_amount", "federal_LMA"])
def test_a_bad_amount_says_what_was_wrong_with_an_example(offer_editor_client, budget, field):
    html = offer_editor_client.post(PREVIEW_URL, offer_post(**{field: "3750e"}), **HTMX).content.decode()
    assert "“e” is not a known unit" in html and "$300M" in html
    assert "This field is required" not in html


def test_the_offer_form_saves_money_typed_in_words_and_french(offer_editor_client, budget):
    data = offer_post(title="Words", tabled_on="2014-01-10", scale_amount="$300 million", max_grant="15 000,00",
                      federal_amount="$5,000", employer_amount="5 k")
    response = offer_editor_client.post(reverse("negotiations:offer_new"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    offer = Offer.objects.get(title="Words")
    assert offer.scale_amount == 300_000_000 and offer.max_grant == 15_000
    assert offer.federal_amount == 5_000 and offer.employer_amount == 5_000


def test_the_offer_form_keeps_what_was_typed_with_the_message(offer_editor_client, budget):
    data = offer_post(title="Typo", tabled_on="2014-01-10", scale_amount="300 gazillion")
    html = offer_editor_client.post(reverse("negotiations:offer_new"), data).content.decode()
    assert 'value="300 gazillion"' in html and "is not a known unit" in html
    assert not Offer.objects.filter(title="Typo").exists()


def test_a_share_is_read_with_a_french_decimal_comma_in_a_text_box(offer_editor_client, budget):
    # The French hint says "0,15"; a number box turned it into "015" and the form then read 15.
    form = offer_editor_client.get("/fr/offers/new").content.decode()
    for name in ("employer_min_share", "phase_in_fraction_0"):
        tag = form[form.rindex("<input", 0, form.index(f'name="{name}"')):]
        tag = tag[:tag.index(">")]
        assert 'type="text"' in tag and 'inputmode="decimal"' in tag, name
    data = offer_post(title="Virgule", tabled_on="2014-01-10", employer_min_share="0,15",
                      small_employer_gap_payer="provincial", phase_in_year_0="2014-15", phase_in_fraction_0="0,5",
                      phase_in_year_1="2015-16", phase_in_fraction_1="1")
    assert offer_editor_client.post("/fr/offers/new", data).status_code == 302
    offer = Offer.objects.get(title_en="Virgule")
    assert str(offer.employer_min_share) == "0.150"
    assert [str(step.fraction.normalize()) for step in offer.phase_in.order_by("fiscal_year")] == ["0.5", "1"]


def test_a_bad_amount_s_example_is_in_the_reader_s_language(offer_editor_client, budget):
    html = offer_editor_client.post("/fr/offers/new", offer_post(title="Faute", max_grant="abc")).content.decode()
    assert "$15,000, 15000, $300M or 300 million" not in html
    assert "15\u00a0000\u00a0$, 15000, 300\u00a0M$ ou 300\u00a0millions" in html


def test_the_fiscal_page_reads_a_french_participation_and_says_what_is_wrong_in_french(client, budget):
    page = client.get("/fr/offers/budget-2013/fiscal/", {"participation": "0,5"})
    assert page.status_code == 200 and 'name="participation" value="0,5"' in page.content.decode()
    refused = client.get("/fr/offers/budget-2013/fiscal/", {"participation": "15"})
    html = refused.content.decode()
    assert refused.status_code == 400 and "must be between 0 and 1" not in html
    # (the field's help says it; the engine's own words, the same again, are left out)
    assert "Inscrivez un nombre de 0 à 1, par exemple 0,85." in html and "15" in html


def test_the_french_edit_form_shows_stored_amounts_and_shares_as_french_writes_them(offer_editor_client, budget):
    # "5 000,50" typed came back as "5000.50" on the French edit form, a share as "0.150".
    from decimal import Decimal

    Offer.objects.filter(pk=budget.pk).update(employer_min_share=Decimal("0.150"))
    budget.funding_sources.filter(payer="federal").update(amount=Decimal("4999.50"))
    Offer.objects.filter(pk=budget.pk).update(federal_amount=Decimal("4999.50"), provincial_amount=Decimal("5000.50"))
    french = offer_editor_client.get(f"/fr/offers/{budget.slug}/edit")
    html = french.content.decode()
    assert 'name="federal_amount" value="4\u00a0999,50"' in html and 'name="employer_min_share" value="0,15"' in html
    english = offer_editor_client.get(f"/offers/{budget.slug}/edit").content.decode()
    assert 'name="federal_amount" value="4,999.50"' in english and 'name="employer_min_share" value="0.15"' in english
