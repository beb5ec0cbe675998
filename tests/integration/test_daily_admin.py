"""The admin as curators use it (issue 16 point 7): reverting a position from its history, whole texts
in history diffs, and a change reason that is kept."""

import pytest
from django.urls import reverse

from negotiations.models import Position
from tests import factories as f
from tests.admin_posts import position_change

pytestmark = pytest.mark.django_db

LONG_OLD = "His department says the provinces would have to find the money themselves, and no more than that."
LONG_NEW = "His department now says Ottawa would pay the provincial share, for the first year, and no more than that."


def revert_form_data(page_form) -> dict:
    """What the revert page's form would post: its initial values (the old record's), as a browser sends them."""
    data = {}
    for name in page_form.fields:
        value = page_form[name].value()
        if value is not None:
            data[name] = value
    return data


def test_reverting_a_position_from_its_history_works_the_first_time(admin_client):
    position = f.PositionFactory(summary=LONG_OLD)
    change = reverse("admin:negotiations_position_change", args=[position.pk])
    assert admin_client.post(change, position_change(position, summary_en=LONG_NEW)).status_code == 302
    first = position.history.order_by("history_id").first()

    url = reverse("admin:negotiations_position_simple_history", args=[position.pk, first.history_id])
    page = admin_client.get(url)
    data = revert_form_data(page.context["adminform"].form)
    data["change_reason"] = "Reverted: the rewording misread the source"
    response = admin_client.post(url, data)

    assert response.status_code == 302, response.context["errors"] if response.context else response
    position.refresh_from_db()
    assert position.summary == LONG_OLD and position.version == 3
    assert position.history.first().history_change_reason == "Reverted: the rewording misread the source"


def test_history_diffs_show_the_whole_old_and_new_text(admin_client):
    position = f.PositionFactory(summary=LONG_OLD)
    change = reverse("admin:negotiations_position_change", args=[position.pk])
    admin_client.post(change, position_change(position, summary_en=LONG_NEW))
    html = admin_client.get(reverse("admin:negotiations_position_history", args=[position.pk])).content.decode()
    assert LONG_OLD in html and LONG_NEW in html
    assert "chars]" not in html


def test_an_editor_gives_a_change_reason(admin_client):
    position = f.PositionFactory()
    change = reverse("admin:negotiations_position_change", args=[position.pk])
    assert 'name="change_reason"' in admin_client.get(change).content.decode()
    admin_client.post(change, position_change(position, stance="supports", change_reason="Minister's letter of May 2"))
    record = Position.objects.get(pk=position.pk).history.first()
    assert record.history_change_reason == "Minister's letter of May 2"
    history = admin_client.get(reverse("admin:negotiations_position_history", args=[position.pk])).content.decode()
    assert "Minister&#x27;s letter of May 2" in history or "Minister's letter of May 2" in history


def test_the_offer_form_has_the_change_reason_too(admin_client):
    offer = f.OfferFactory()
    assert 'name="change_reason"' in admin_client.get(
        reverse("admin:negotiations_offer_change", args=[offer.pk])).content.decode()


def test_an_offer_is_not_reverted_from_its_history_where_its_terms_would_not_add_up(admin_client):
    # A revert restored the offer's row (a $15,000 split) beside today's sources of money ($4,000): terms that no
    # longer added up, and a fiscal page with no figures. Its history shows the version; nothing is written.
    from negotiations.models import Offer

    offer = f.OfferFactory()
    offer.max_grant = offer.max_grant + 1000
    offer.save()
    first = offer.history.order_by("history_id").first()
    url = reverse("admin:negotiations_offer_simple_history", args=[offer.pk, first.history_id])
    page = admin_client.get(url)
    assert page.status_code == 200 and page.context["revert_disabled"] is True
    data = revert_form_data(page.context["adminform"].form)
    response = admin_client.post(url, data, follow=True)
    assert "An offer cannot be reverted from its history" in response.content.decode()
    assert Offer.objects.get(pk=offer.pk).max_grant == offer.max_grant
    assert offer.history.count() == 2
