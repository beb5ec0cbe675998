"""Withdrawing an offer asks why and when; both are shown on the offer page and its timeline entries (16.11)."""

import datetime

import pytest
from django.urls import reverse

from negotiations.models import Offer
from negotiations.services import offers as services

pytestmark = pytest.mark.django_db


def test_the_reason_and_date_are_stored_and_shown(client, budget, offer_editor):
    client.force_login(offer_editor)
    url = reverse("negotiations:offer_withdraw", args=[budget.slug])
    response = client.post(url, {"withdrawal_reason": "Replaced by the <b>December</b> offer", "withdrawn_on": "2013-12-24"})
    assert response.status_code == 302
    budget.refresh_from_db()
    assert budget.withdrawn_on == datetime.date(2013, 12, 24)
    assert budget.withdrawal_reason == "Replaced by the <b>December</b> offer"
    page = client.get(budget.get_absolute_url()).content.decode()
    assert "Withdrawn on December 24, 2013:</strong> Replaced by the &lt;b&gt;December&lt;/b&gt; offer" in page
    tabler = budget.tabled_by.first()
    timeline = client.get(reverse("negotiations:jurisdiction", args=[tabler.code])).content.decode()
    assert "Withdrawn on December 24, 2013" in timeline
    assert budget.history.latest().history_change_reason.startswith("Withdrawn: Replaced")


@pytest.mark.parametrize("data, field, says", [
    ({"withdrawn_on": "2013-12-24"}, "withdrawal_reason", "Say why the offer was withdrawn"),
    ({"withdrawal_reason": "Gone"}, "withdrawn_on", "Give the date it was withdrawn"),
    ({"withdrawal_reason": "Gone", "withdrawn_on": "24/12/2013x"}, "withdrawn_on", "year-month-day"),
    ({"withdrawal_reason": "Gone", "withdrawn_on": "2000-01-01"}, "withdrawn_on", "before it was tabled"),
])
def test_a_missing_or_impossible_answer_keeps_what_was_typed(client, budget, offer_editor, data, field, says):
    client.force_login(offer_editor)
    response = client.post(reverse("negotiations:offer_withdraw", args=[budget.slug]), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert says in html and f'id="id_{field}_error"' in html
    if "withdrawal_reason" in data:
        assert data["withdrawal_reason"] in html
    budget.refresh_from_db()
    assert budget.status != Offer.Status.WITHDRAWN


def test_the_service_takes_the_reason_and_date(budget, offer_editor):
    services.offer_withdraw(actor=offer_editor, offer=budget, reason="  Superseded  ", withdrawn_on=datetime.date(2014, 1, 2))
    budget.refresh_from_db()
    assert (budget.withdrawal_reason, budget.withdrawn_on) == ("Superseded", datetime.date(2014, 1, 2))


def test_the_withdraw_address_opened_again_shows_its_form(client, budget, offer_editor):
    # After a refused post the browser shows /offers/<slug>/withdraw; opened again (a reload, a bookmark) it was a
    # blank "405" page.
    client.force_login(offer_editor)
    url = reverse("negotiations:offer_withdraw", args=[budget.slug])
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 200 and 'name="withdrawal_reason"' in html
    assert "Nothing was saved yet" not in html  # nothing was posted
    services.offer_withdraw(actor=offer_editor, offer=budget, reason="Replaced.", withdrawn_on=datetime.date(2013, 12, 24))
    response = client.get(url)
    assert response.status_code == 302 and response.url == budget.get_absolute_url()
    client.logout()
    assert client.get(url).status_code == 302  # to the login page, as before
