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
    ({"withdrawal_reason": "Gone\x1b\x07", "withdrawn_on": "2013-12-24"}, "withdrawal_reason", "This held invisible control characters"),
])
def test_a_missing_or_impossible_answer_keeps_what_was_typed(client, budget, offer_editor, data, field, says):
    client.force_login(offer_editor)
    response = client.post(reverse("negotiations:offer_withdraw", args=[budget.slug]), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert says in html and f'id="id_{field}_error"' in html
    if "withdrawal_reason" in data and field != "withdrawal_reason":
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


def test_the_edit_form_neither_withdraws_an_offer_nor_leaves_a_reinstated_one_marked_withdrawn(client, budget,
                                                                                             offer_editor):
    # The edit form's status withdrew an offer with no date and no reason; set back to "tabled", a withdrawn offer
    # kept its date and reason of withdrawal.
    from tests.offer_world import offer_post

    client.force_login(offer_editor)
    edit = reverse("negotiations:offer_edit", args=[budget.slug])
    form = client.get(edit).content.decode()
    status = form[form.index('name="status"'):]
    status = status[:status.index("</select>")]
    assert 'value="tabled"' in status and 'value="withdrawn"' not in status
    data = offer_post(title=budget.title, tabled_on="2013-03-21", slug=budget.slug, version=str(budget.version))
    response = client.post(edit, data | {"status": "withdrawn"})
    assert response.status_code == 200 and "Select a valid choice" in response.context["form"].errors["status"][0]
    budget.refresh_from_db()
    assert budget.status == Offer.Status.TABLED and budget.withdrawn_on is None
    from grants.selectors import offer_terms

    terms = offer_terms(Offer.objects.prefetch_related("funding_sources", "treatments__jurisdiction", "phase_in")
                        .get(pk=budget.pk))
    with pytest.raises(services.ValidationError) as refused:  # the service's own rule, for any other caller
        services.offer_update(actor=offer_editor, offer=budget, expected_version=budget.version,
                              negotiation=budget.negotiation, title=budget.title, tabled_by=budget.tabled_by.all(),
                              tabled_on=budget.tabled_on, terms=terms, status="withdrawn")
    assert refused.value.message_dict["status"] == ["An offer is withdrawn with its “Withdraw” form, which asks when "
                                                    "and why."]

    services.offer_withdraw(actor=offer_editor, offer=budget, reason="Replaced", withdrawn_on=datetime.date(2013, 12, 24))
    budget.refresh_from_db()
    form = client.get(edit).content.decode()
    assert 'value="withdrawn" selected' in form  # a withdrawn offer's form shows its status
    response = client.post(edit, data | {"status": "tabled", "version": str(budget.version)})
    assert response.status_code == 302
    budget.refresh_from_db()
    assert (budget.status, budget.withdrawn_on, budget.withdrawal_reason) == (Offer.Status.TABLED, None, "")
    assert budget.history.filter(withdrawal_reason="Replaced").exists()  # its history keeps the withdrawal


def test_every_problem_is_said_at_once(client, budget, offer_editor):
    # With no reason and a date before the offer was tabled, only the reason was flagged; the date on the next try.
    client.force_login(offer_editor)
    response = client.post(reverse("negotiations:offer_withdraw", args=[budget.slug]), {"withdrawn_on": "2000-01-01"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Say why the offer was withdrawn" in html and "before it was tabled" in html
