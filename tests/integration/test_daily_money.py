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
