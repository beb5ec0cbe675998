"""Two curators editing the same offer or position: the later save is refused, not silently applied."""

import pytest
from django.urls import reverse

from negotiations.models import Offer, Position
from tests import factories as f
from tests.admin_posts import empty_inlines, position_change

pytestmark = pytest.mark.django_db


def test_stale_position_edit_is_refused_and_keeps_the_input(admin_client):
    position = f.PositionFactory(summary="Opposes the grant.")
    url = reverse("admin:negotiations_position_change", args=[position.pk])
    opened = position_change(position, summary_en="My careful rewording.")

    # Someone else saves first.
    response = admin_client.post(url, position_change(position, summary_en="Their change."))
    assert response.status_code == 302
    assert Position.objects.get(pk=position.pk).version == 2

    response = admin_client.post(url, opened)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Someone else changed this record while you were editing it" in page
    assert "My careful rewording." in page  # the user's input is still there
    assert Position.objects.get(pk=position.pk).summary == "Their change."

    # Saving again, with the version the refusal handed back, applies the user's values on purpose.
    second = response.context["adminform"].form.data
    assert int(second["seen_version"]) == 2
    response = admin_client.post(url, {**opened, "seen_version": 2})
    assert response.status_code == 302
    assert Position.objects.get(pk=position.pk).summary == "My careful rewording."


def test_stale_offer_edit_is_refused(admin_client):
    offer = f.OfferFactory()
    Offer.objects.filter(pk=offer.pk).update(version=5)  # changed meanwhile
    url = reverse("admin:negotiations_offer_change", args=[offer.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="seen_version"' in page
    data = {
        "negotiation": offer.negotiation_id, "title_en": "Edited title", "slug": offer.slug,
        "tabled_by": [f.JurisdictionFactory(code="CA", kind="federal").pk],
        "tabled_on": "2013-03-21", "date_precision": "day", "status": "tabled",
        "max_grant": "15000", "federal_amount": "5000", "provincial_amount": "5000", "employer_amount": "5000",
        "scale_program": "LMA", "scale_amount": "300000000", "shortfall_liability": "none",
        "seen_version": 1,
        **empty_inlines(Offer),
    }
    for index, row in enumerate(offer.funding_sources.all()):
        data["funding_sources-TOTAL_FORMS"] = str(index + 1)
        data["funding_sources-INITIAL_FORMS"] = str(index + 1)
        data.update({f"funding_sources-{index}-id": row.pk, f"funding_sources-{index}-offer": offer.pk,
                     f"funding_sources-{index}-payer": row.payer, f"funding_sources-{index}-program": row.program,
                     f"funding_sources-{index}-amount": str(row.amount)})
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "Someone else changed this record" in response.content.decode()
    assert Offer.objects.get(pk=offer.pk).title == offer.title
    response = admin_client.post(url, {**data, "seen_version": 5})
    assert response.status_code == 302, response.context["adminform"].form.errors
    offer.refresh_from_db()
    assert (offer.title, offer.version) == ("Edited title", 6)
