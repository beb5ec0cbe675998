"""The curation admin: every page loads in a bounded number of queries, and offers' terms are checked.

Query counts are compared at two sizes of data: a changelist (or an inline) that
issues a query per row shows a different count once there are more rows.
"""

import datetime
import re
from decimal import Decimal

import pytest
from django.contrib import admin
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from grants.models import ProgramEnvelope
from negotiations.models import (
    FundingSource,
    Jurisdiction,
    JurisdictionTreatment,
    Meeting,
    Negotiation,
    Offer,
    Person,
    PhaseInStep,
    Position,
    Role,
    Source,
    Stance,
    Statement,
)
from tests import factories as f
from tests.admin_posts import empty_inlines

pytestmark = pytest.mark.django_db

ADMIN_MODELS = [Jurisdiction, Person, Role, Negotiation, Source, Meeting, Statement, Position, Offer, ProgramEnvelope]
PROGRAMS = ["LMA", "LMDA", "CJF", "PT_OWN", "FEDERAL_NEW"]

# Upper bounds, a little above what was measured, so a regression shows up as a failure.
CHANGELIST_MAX_QUERIES = 14
PAGE_MAX_QUERIES = 18


@pytest.fixture
def admin_user(db, django_user_model):
    """A superuser without a password: admin_client logs in with force_login, and hashing is slow."""
    return django_user_model.objects.create(username="admin", is_staff=True, is_superuser=True)


def grow(rows: int) -> None:
    """Add ``rows`` more of every admin model, each row linked the way real data is."""
    start = Jurisdiction.objects.count()
    for i in range(start, start + rows):
        jurisdiction = f.JurisdictionFactory(code=f.PT_CODES[i], order=i + 1)
        negotiation = f.NegotiationFactory(slug=f"negotiation-{i}")
        person = f.PersonFactory()
        f.RoleFactory(person=person, jurisdiction=jurisdiction)
        f.RoleFactory(person=person, jurisdiction=None, organization="Canadian Federation of Independent Business")
        source = f.SourceFactory()
        meeting = f.MeetingFactory(negotiation=negotiation, jurisdictions=[jurisdiction])
        meeting.participants.add(person)
        meeting.sources.add(source)
        statement = f.StatementFactory(
            negotiation=negotiation, speaker=person, jurisdiction=jurisdiction, source=source, meeting=meeting,
        )
        offer = f.OfferFactory(
            negotiation=negotiation, tabled_by=[jurisdiction], meeting=meeting,
            responds_to=Offer.objects.order_by("-pk").first(),
        )
        offer.sources.add(source)
        JurisdictionTreatment.objects.create(offer=offer, jurisdiction=jurisdiction, treatment="opts_out_compensated")
        PhaseInStep.objects.create(offer=offer, fiscal_year="2014-15", fraction=Decimal("0.15"))
        position = f.PositionFactory(
            negotiation=negotiation, jurisdiction=jurisdiction, triggered_by_offer=offer, triggered_by_meeting=meeting,
        )
        position.evidence.add(statement)
        position.sources.add(source)
        if i < len(PROGRAMS):
            f.ProgramEnvelopeFactory(program=PROGRAMS[i])


def admin_url(model, view, *args):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def get_counting(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return response, len(queries)


def test_every_model_is_registered_with_history():
    from simple_history.admin import SimpleHistoryAdmin

    for model in ADMIN_MODELS:
        assert isinstance(admin.site._registry.get(model), SimpleHistoryAdmin), model


@pytest.mark.parametrize("model", ADMIN_MODELS, ids=lambda model: model.__name__)
def test_changelist_query_count_does_not_grow_with_rows(admin_client, model):
    grow(3)
    small, at_three = get_counting(admin_client, admin_url(model, "changelist"))
    grow(6)
    large, at_nine = get_counting(admin_client, admin_url(model, "changelist"))

    assert small.status_code == large.status_code == 200
    assert large.context["cl"].result_count > small.context["cl"].result_count
    assert at_three == at_nine, f"{model.__name__}: {at_three} queries at 3 rows, {at_nine} at 9"
    assert at_nine <= CHANGELIST_MAX_QUERIES


@pytest.mark.parametrize("model", ADMIN_MODELS, ids=lambda model: model.__name__)
def test_add_change_and_history_pages_load_in_bounded_queries(admin_client, model):
    grow(3)
    obj = model.objects.order_by("pk").last()

    for view in ("add", "change", "history"):
        url = admin_url(model, view) if view == "add" else admin_url(model, view, obj.pk)
        response, queries = get_counting(admin_client, url)
        assert response.status_code == 200, f"{model.__name__} {view}"
        assert queries <= PAGE_MAX_QUERIES, f"{model.__name__} {view}: {queries} queries"


def add_statements(meeting, count):
    f.StatementFactory.create_batch(
        count, negotiation=meeting.negotiation, meeting=meeting, jurisdiction=meeting.jurisdictions.first(),
    )


def add_roles(person, count):
    f.RoleFactory.create_batch(count, person=person, jurisdiction=Jurisdiction.objects.first())


def add_treatments(offer, count):
    for jurisdiction in Jurisdiction.objects.exclude(pk__in=offer.treatments.values("jurisdiction"))[:count]:
        JurisdictionTreatment.objects.create(offer=offer, jurisdiction=jurisdiction, treatment="federal_direct")


@pytest.mark.parametrize(
    ("model", "add_rows"),
    [(Meeting, add_statements), (Person, add_roles), (Offer, add_treatments)],
    ids=["Meeting statements", "Person roles", "Offer treatments"],
)
def test_change_page_query_count_does_not_grow_with_inline_rows(admin_client, model, add_rows):
    grow(9)
    obj = model.objects.order_by("pk").first()
    url = admin_url(model, "change", obj.pk)
    admin_client.get(url)  # the process's first admin page reads what later ones keep (run alone, one query more)
    _, few = get_counting(admin_client, url)
    add_rows(obj, 6)
    response, many = get_counting(admin_client, url)

    assert response.status_code == 200
    assert few == many, f"{model.__name__}: {few} queries, then {many} with 6 more inline rows"


def test_statement_search_finds_quote_words(admin_client):
    grow(3)
    wanted = f.StatementFactory(quote="We will not accept a clawback of the Labour Market Agreements.")

    response = admin_client.get(admin_url(Statement, "changelist"), {"q": "clawback labour"})

    assert list(response.context["cl"].result_list) == [wanted]


def test_positions_filter_by_stance(admin_client):
    grow(3)
    supports = f.PositionFactory(stance=Stance.SUPPORTS)

    response = admin_client.get(admin_url(Position, "changelist"), {"stance__exact": "supports"})

    assert list(response.context["cl"].result_list) == [supports]
    assert Position.objects.count() == 4


# ---------------------------------------------------------------------------
# Offer terms on the add form


def offer_form_data(*, negotiation, jurisdiction, sources, **changes):
    """The December 2013 offer as the add form posts it: 10,000 federal, 0 provincial, 5,000 employer."""
    data = {
        "negotiation": negotiation.pk,
        "title_en": "Christmas Eve offer",  # the admin edits both languages (modeltranslation)
        "slug": "christmas-eve-offer",
        "tabled_by": [jurisdiction.pk],
        "tabled_on": "2013-12-24",
        "date_precision": "day",
        "status": "tabled",
        "max_grant": "15000",
        "federal_amount": "10000",
        "provincial_amount": "0",
        "employer_amount": "5000",
        "scale_program": "LMA",
        "scale_amount": "300000000",
        "shortfall_liability": "province",
        **empty_inlines(Offer),
        "funding_sources-TOTAL_FORMS": str(len(sources)),
    }
    for index, (payer, program, amount) in enumerate(sources):
        data[f"funding_sources-{index}-payer"] = payer
        data[f"funding_sources-{index}-program"] = program
        data[f"funding_sources-{index}-amount"] = amount
    data.update(changes)
    return data


@pytest.fixture
def offer_parties(db):
    return {"negotiation": f.NegotiationFactory(), "jurisdiction": f.JurisdictionFactory(code="CA", kind="federal")}


DECEMBER_SOURCES = [("federal", "LMA", "5000"), ("federal", "LMDA", "5000")]


def test_offer_split_that_does_not_add_up_is_refused_on_max_grant(admin_client, offer_parties):
    data = offer_form_data(**offer_parties, sources=DECEMBER_SOURCES, employer_amount="4000")

    response = admin_client.post(admin_url(Offer, "add"), data)

    assert response.status_code == 200
    message = ("The federal, provincial and employer amounts ($10,000 + $0 + $4,000) add up to $14,000"
               " but the maximum grant is $15,000.")
    assert response.context["adminform"].form.errors["max_grant"] == [message]
    assert Offer.objects.count() == 0
    assert FundingSource.objects.count() == 0


def offer_change_data(offer, **changes):
    """What the change form posts for ``offer`` as the add form made it (its two funding rows kept)."""
    rows = list(offer.funding_sources.order_by("pk"))
    data = offer_form_data(negotiation=offer.negotiation, jurisdiction=offer.tabled_by.get(),
                           sources=[(row.payer, row.program, str(row.amount)) for row in rows],
                           seen_version=offer.version, **changes)
    data["funding_sources-INITIAL_FORMS"] = str(len(rows))
    for index, row in enumerate(rows):
        data[f"funding_sources-{index}-id"] = row.pk
        data[f"funding_sources-{index}-offer"] = offer.pk
    return data


def test_the_admin_withdraws_an_offer_as_the_offer_page_does_why_and_when_or_nothing(admin_client, offer_parties):
    admin_client.post(admin_url(Offer, "add"), offer_form_data(**offer_parties, sources=DECEMBER_SOURCES))
    offer = Offer.objects.get()

    refused = admin_client.post(admin_url(Offer, "change", offer.pk), offer_change_data(offer, status="withdrawn"))

    assert refused.status_code == 200
    errors = refused.context["adminform"].form.errors
    assert errors["withdrawal_reason"] == ["Say why the offer was withdrawn, e.g. “replaced by the January "
                                           "counter-offer”."]
    assert errors["withdrawn_on"] == ["Give the date it was withdrawn, such as 2014-01-15."]
    offer.refresh_from_db()
    assert (offer.status, offer.version, offer.withdrawn_on) == ("tabled", 1, None)

    too_early = admin_client.post(admin_url(Offer, "change", offer.pk), offer_change_data(
        offer, status="withdrawn", withdrawal_reason="Replaced", withdrawn_on="2013-12-01"))
    assert too_early.context["adminform"].form.errors["withdrawn_on"] == [
        "An offer cannot be withdrawn before it was tabled (December 24, 2013)."]

    saved = admin_client.post(admin_url(Offer, "change", offer.pk), offer_change_data(
        offer, status="withdrawn", withdrawal_reason="Replaced by the January offer", withdrawn_on="2014-01-15",
        title_en="Christmas Eve offer (final)"))

    assert saved.status_code == 302
    offer.refresh_from_db()
    assert (offer.status, offer.withdrawn_on, offer.withdrawal_reason, offer.title) == (
        "withdrawn", datetime.date(2014, 1, 15), "Replaced by the January offer", "Christmas Eve offer (final)")
    assert offer.history.first().history_change_reason == "Withdrawn: Replaced by the January offer"
    assert offer.funding_sources.count() == 2


def test_the_admin_keeps_a_withdrawn_offer_and_its_dates_as_the_web_ui_does(admin_client, offer_parties):
    # Each saved with "changed successfully": withdrawn before it was tabled, tabled in 2031 (the stance matrix
    # then ran to 2031), and set back to tabled with its withdrawal date and reason left in place.
    admin_client.post(admin_url(Offer, "add"), offer_form_data(**offer_parties, sources=DECEMBER_SOURCES))
    offer = Offer.objects.get()
    admin_client.post(admin_url(Offer, "change", offer.pk), offer_change_data(
        offer, status="withdrawn", withdrawal_reason="Replaced", withdrawn_on="2014-01-15"))
    offer.refresh_from_db()
    assert offer.status == "withdrawn"

    def refused(**changes):
        response = admin_client.post(admin_url(Offer, "change", offer.pk), offer_change_data(offer, **changes))
        assert response.status_code == 200
        return response.context["adminform"].form.errors

    withdrawn = {"status": "withdrawn", "withdrawal_reason": "Replaced", "withdrawn_on": "2014-01-15"}
    assert refused(**{**withdrawn, "withdrawn_on": "2013-01-01"})["withdrawn_on"] == [
        "An offer cannot be withdrawn before it was tabled (December 24, 2013)."]
    assert refused(**{**withdrawn, "withdrawal_reason": ""})["withdrawal_reason"] == [
        "Say why the offer was withdrawn, e.g. “replaced by the January counter-offer”."]
    assert refused(**{**withdrawn, "tabled_on": "2031-01-01"})["tabled_on"][0].startswith("That day has not come yet")
    back = refused(**{**withdrawn, "status": "tabled"})
    assert back["withdrawn_on"] == back["withdrawal_reason"] == [
        "Only a withdrawn offer has this: clear it, or set the status to withdrawn."]
    offer.refresh_from_db()
    assert (offer.status, offer.tabled_on, offer.withdrawn_on) == ("withdrawn", datetime.date(2013, 12, 24),
                                                                   datetime.date(2014, 1, 15))

    restored = admin_client.post(admin_url(Offer, "change", offer.pk), offer_change_data(
        offer, status="tabled", withdrawal_reason="", withdrawn_on=""))
    assert restored.status_code == 302
    offer.refresh_from_db()
    assert (offer.status, offer.withdrawn_on) == ("tabled", None)


@pytest.mark.parametrize(("model", "field"), [("statement", "date"), ("position", "as_of"), ("source", "published_on")])
def test_the_admin_refuses_a_day_that_has_not_come_for_what_has_happened(admin_client, cjg, model, field):
    from django.apps import apps

    row = apps.get_model("negotiations", model).objects.first()
    page = admin_client.get(f"/admin/negotiations/{model}/{row.pk}/change/")
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and not isinstance(value, list)}
    data[field] = "2031-01-01"
    form_class = type(form)
    bound = form_class(data=data, instance=row)
    assert not bound.is_valid()
    assert bound.errors[field][0].startswith("That day has not come yet")


def test_offer_sources_that_do_not_add_up_are_refused(admin_client, offer_parties):
    data = offer_form_data(**offer_parties, sources=[("federal", "LMA", "5000"), ("federal", "LMDA", "4000")])

    response = admin_client.post(admin_url(Offer, "add"), data)

    assert response.status_code == 200
    message = "Federal sources add up to $9,000 but the federal amount is $10,000."
    formset = response.context["inline_admin_formsets"][0].formset
    assert formset.non_form_errors() == [message]
    assert message in response.content.decode()
    assert Offer.objects.count() == 0
    assert FundingSource.objects.count() == 0


def test_split_and_sources_errors_are_shown_together(admin_client, offer_parties):
    data = offer_form_data(
        **offer_parties, sources=[("federal", "LMA", "5000"), ("federal", "LMDA", "4000")], employer_amount="4000",
    )

    response = admin_client.post(admin_url(Offer, "add"), data)

    assert list(response.context["adminform"].form.errors) == ["max_grant"]
    assert response.context["inline_admin_formsets"][0].formset.non_form_errors() == [
        "Federal sources add up to $9,000 but the federal amount is $10,000.",
    ]
    assert Offer.objects.count() == 0


def test_offer_with_federal_source_from_provincial_revenue_is_refused(admin_client, offer_parties):
    data = offer_form_data(**offer_parties, sources=[("federal", "LMA", "5000"), ("federal", "PT_OWN", "5000")])

    response = admin_client.post(admin_url(Offer, "add"), data)

    assert "(PT_OWN)" in response.context["inline_admin_formsets"][0].formset.non_form_errors()[0]
    assert Offer.objects.count() == 0


def test_valid_offer_is_created_with_its_sources_and_history(admin_client, admin_user, offer_parties):
    data = offer_form_data(**offer_parties, sources=DECEMBER_SOURCES)

    response = admin_client.post(admin_url(Offer, "add"), data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    offer = Offer.objects.get(slug="christmas-eve-offer")
    assert sorted(offer.funding_sources.values_list("payer", "program", "amount")) == [
        ("federal", "LMA", Decimal("5000")), ("federal", "LMDA", Decimal("5000")),
    ]
    assert list(offer.tabled_by.all()) == [offer_parties["jurisdiction"]]
    assert {record.history_user for record in offer.history.all()} == {admin_user}


def test_mark_as_superseded_changes_status_and_records_history(admin_client, admin_user):
    grow(3)
    chosen = list(Offer.objects.order_by("pk")[:2])
    chosen[1].status = Offer.Status.SUPERSEDED
    chosen[1].save()
    before = {offer.pk: offer.history.count() for offer in chosen}

    response = admin_client.post(
        admin_url(Offer, "changelist"),
        {"action": "mark_superseded", "_selected_action": [offer.pk for offer in chosen]},
        follow=True,
    )

    assert "1 offer marked as superseded." in [str(m) for m in response.context["messages"]]
    marked = Offer.objects.get(pk=chosen[0].pk)
    assert marked.status == Offer.Status.SUPERSEDED
    assert marked.history.count() == before[marked.pk] + 1
    latest = marked.history.first()
    assert (latest.status, latest.history_user) == (Offer.Status.SUPERSEDED, admin_user)
    assert Offer.objects.get(pk=chosen[1].pk).history.count() == before[chosen[1].pk]
    assert Offer.objects.exclude(pk__in=[o.pk for o in chosen]).filter(status=Offer.Status.SUPERSEDED).count() == 0


def test_retract_asks_why_and_retracts_through_the_service(admin_client, admin_user):
    statement = f.StatementFactory()
    chosen = {"action": "retract", "_selected_action": [statement.pk]}

    asked = admin_client.post(admin_url(Statement, "changelist"), chosen)
    assert asked.status_code == 200
    assert "Why are they retracted?" in asked.content.decode()
    statement.refresh_from_db()
    assert not statement.retracted, "nothing is written before the note is given"

    refused = admin_client.post(admin_url(Statement, "changelist"), {**chosen, "apply": "1", "note": "  "})
    assert "Say why the statement is retracted." in refused.content.decode()
    statement.refresh_from_db()
    assert not statement.retracted
    # A note longer than a note may be is refused next to it and kept whole (it was a 500); nothing cuts it.
    refused = admin_client.post(admin_url(Statement, "changelist"), {**chosen, "apply": "1", "note": "x" * 400})
    assert refused.status_code == 200
    assert "at most 300 characters (it has 400)" in refused.content.decode()
    assert "x" * 400 in refused.content.decode() and "maxlength" not in refused.content.decode()
    statement.refresh_from_db()
    assert not statement.retracted

    response = admin_client.post(admin_url(Statement, "changelist"),
                                 {**chosen, "apply": "1", "note": "Misattributed: the minister's aide said it."},
                                 follow=True)
    assert "1 statement retracted." in [str(m) for m in response.context["messages"]]
    statement.refresh_from_db()
    assert statement.retracted
    assert statement.retraction_note == "Misattributed: the minister's aide said it."
    assert statement.history.first().history_user == admin_user


def test_retracting_a_statement_the_record_refuses_as_it_stands_retracts_none_and_names_it(admin_client):
    # The action retracted the statements before it, then answered 500 on a statement whose other fields its
    # rules refuse (a row saved before a rule): half the choice written, and the note lost.
    fine, old = f.StatementFactory(), f.StatementFactory()
    # Dated in the future, as a statement could be before that rule (a bulk update does not ask).
    Statement.objects.filter(pk=old.pk).update(date=datetime.date.today() + datetime.timedelta(days=30))
    old.refresh_from_db()
    chosen = {"action": "retract", "_selected_action": [fine.pk, old.pk], "apply": "1", "note": "Misattributed."}
    refused = admin_client.post(admin_url(Statement, "changelist"), chosen)
    assert refused.status_code == 200
    page = refused.content.decode()
    assert f"Nothing is retracted: {old.speaker.name}, {old.date} cannot be saved as it stands" in page
    assert "Misattributed." in page
    assert Statement.objects.filter(retracted=True).count() == 0


def change_form_post(client, model, obj, **changes) -> dict:
    """What the admin change form of ``obj`` posts when saved as it opens, with ``changes`` typed in."""
    form = client.get(admin_url(model, "change", obj.pk)).context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value in (None, False):
            continue
        data[name] = "on" if value is True else value
    return {**data, **empty_inlines(model), **changes}


def test_retracting_on_the_change_form_needs_the_note_and_goes_through_the_service(admin_client, admin_user):
    statement = f.StatementFactory()
    url = admin_url(Statement, "change", statement.pk)

    refused = admin_client.post(url, change_form_post(admin_client, Statement, statement, retracted="on"))
    assert refused.status_code == 200
    assert "Say why the statement is retracted." in refused.content.decode()
    statement.refresh_from_db()
    assert not statement.retracted, "nothing is written without a note, as on the site"

    note = "Misattributed: the minister's aide said it."
    saved = admin_client.post(url, change_form_post(admin_client, Statement, statement, retracted="on",
                                                    retraction_note_en=note))
    assert saved.status_code == 302
    statement.refresh_from_db()
    assert (statement.retracted, statement.retraction_note) == (True, note)
    latest = statement.history.first()
    assert (latest.history_change_reason, latest.history_user) == ("retracted", admin_user)


def test_statement_added_at_a_meeting_takes_the_meeting_negotiation(admin_client):
    meeting = f.MeetingFactory()
    person, source = f.PersonFactory(), f.SourceFactory()
    url = admin_url(Meeting, "change", meeting.pk)
    data = {
        "negotiation": meeting.negotiation.pk, "slug": meeting.slug, "title_en": meeting.title,
        "date": "2013-11-08", "date_precision": "day", "kind": meeting.kind, "location_en": meeting.location,
        **empty_inlines(Meeting),
        "statements-TOTAL_FORMS": "1", "statements-INITIAL_FORMS": "0",
        "statements-0-speaker": person.pk, "statements-0-date": "2013-11-08", "statements-0-date_precision": "day",
        "statements-0-quote": "The grant as designed is not acceptable.", "statements-0-source": source.pk,
    }

    response = admin_client.post(url, data)

    assert response.status_code == 302
    assert Statement.objects.get().negotiation == meeting.negotiation
    assert datetime.date(2013, 11, 8) == Statement.objects.get().date


def test_the_admin_refuses_a_speaker_for_a_government_they_have_no_role_with(admin_client):
    canada, ontario = f.JurisdictionFactory(code="CA", name_en="Canada"), f.JurisdictionFactory(code="ON", name_en="Ontario")
    kenney = f.RoleFactory(person=f.PersonFactory(name="Jason Kenney"), jurisdiction=canada).person
    data = {"negotiation": f.NegotiationFactory().pk, "speaker": kenney.pk, "jurisdiction": ontario.pk,
            "date": "2013-11-08", "date_precision": "day", "language": "en", "original_language": "",
            "quote": "The grant is coming.", "source": f.SourceFactory().pk, "context": "", "change_reason": ""}
    response = admin_client.post(admin_url(Statement, "add"), data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["jurisdiction"] == [
        "The record gives Jason Kenney no role with this government (Ontario): choose the government spoken for, "
        "or first add that role to the person in the admin."]
    assert not Statement.objects.exists()
    assert admin_client.post(admin_url(Statement, "add"), data | {"jurisdiction": canada.pk}).status_code == 302
    assert Statement.objects.get().jurisdiction == canada


# ---------------------------------------------------------------------------
# History pages


def edit_meeting_repeatedly(meeting, times):
    """Change a meeting's title and its many-to-many fields, one saved change after another."""
    jurisdictions = list(Jurisdiction.objects.all())
    for turn in range(times):
        meeting.title = f"Meeting, take {turn}"
        meeting.save()
        meeting.jurisdictions.add(jurisdictions[turn % len(jurisdictions)])
        meeting.participants.add(f.PersonFactory())
        if turn % 2:
            meeting.sources.clear()


def test_history_page_shows_the_same_changes_as_simple_history(rf, admin_user):
    from simple_history.admin import SimpleHistoryAdmin

    grow(3)
    meeting = Meeting.objects.order_by("pk").first()
    edit_meeting_repeatedly(meeting, 3)
    request = rf.get("/")
    request.user = admin_user
    ours, theirs = admin.site._registry[Meeting], SimpleHistoryAdmin(Meeting, admin.site)
    ours_records = list(ours.get_history_queryset(request, Meeting.history, "id", meeting.pk))
    theirs_records = list(theirs.get_history_queryset(request, Meeting.history, "id", meeting.pk))

    ours.set_history_delta_changes(request, ours_records)
    theirs.set_history_delta_changes(request, theirs_records)

    shown = [getattr(record, "history_delta_changes", None) for record in ours_records]
    # simple_history lists a translated field's change twice, by its own name and by its language
    # column ("Title" and "Title [en]"); ours lists it once, by the language column.
    twice = {"Title", "Location", "Outcome"}
    assert shown == [
        None if changes is None else [change for change in changes if change["field"] not in twice]
        for changes in (getattr(record, "history_delta_changes", None) for record in theirs_records)
    ]
    assert any(change["field"] == "Participants" for change in shown[0])
    assert any(change["field"] == "Title [en]" for changes in shown if changes for change in changes)


def test_history_page_shows_a_change_to_the_french_text_alone_and_a_dash_for_no_reason(admin_client):
    meeting = f.MeetingFactory(title="Ministers meet", title_fr="Les ministres se réunissent")
    meeting.title_fr = "Les ministres se rencontrent"
    meeting.save()

    page = admin_client.get(admin_url(Meeting, "history", meeting.pk))

    newest = page.context["page_obj"][0]
    assert [(change["field"], change["old"], change["new"]) for change in newest.history_delta_changes] == [
        ("Title [fr]", "Les ministres se réunissent", "Les ministres se rencontrent")]
    reasons = re.findall(r"<td>\s*(\S*)\s*</td>\s*<td>\s*<ul>", page.content.decode())  # the cell before Changes
    assert reasons == ["—"]


def test_reverting_to_an_earlier_version_in_the_admin_brings_back_both_languages(admin_client):
    meeting = f.MeetingFactory(title="Ministers meet", title_fr="Les ministres se réunissent")
    first = meeting.history.get()
    meeting.title_en, meeting.title_fr = "Ministers met", "Les ministres se sont réunis"
    meeting.save()

    restored = first.instance  # what the admin's revert page fills its form from

    assert (restored.title_en, restored.title_fr) == ("Ministers meet", "Les ministres se réunissent")


@pytest.mark.parametrize("model", [Meeting, Offer], ids=lambda model: model.__name__)
def test_history_page_query_count_does_not_grow_with_records(admin_client, model):
    grow(3)
    obj = model.objects.order_by("pk").first()
    url = admin_url(model, "history", obj.pk)
    admin_client.get(url)  # (the first request also fills per-process caches: content types, the admin's)
    _, few = get_counting(admin_client, url)
    for turn in range(5):
        obj.title = f"{obj.title} ({turn})"
        obj.save()
        obj.sources.add(f.SourceFactory())
    response, many = get_counting(admin_client, url)

    assert response.status_code == 200
    assert len(response.context["page_obj"]) > 10
    assert few == many


def test_an_article_import_is_read_in_the_admin_and_decided_on_its_review_page(admin_client):
    from negotiations.models import ArticleImport, ProposedStatement

    article = ArticleImport.objects.create(negotiation=f.NegotiationFactory(), text="An article.", text_hash="0" * 64,
                                           title="Ottawa stands firm")
    ProposedStatement.objects.create(article_import=article, order=1, quote="We will not budge.", speaker_name="Minister")

    page = admin_client.get(admin_url(ArticleImport, "change", article.pk))
    assert page.status_code == 200
    html = page.content.decode()
    assert "We will not budge." in html
    assert 'name="proposals-0-decision"' not in html and "Save" not in html  # nothing to change here

    assert admin_client.post(admin_url(ArticleImport, "change", article.pk), {"status": "committed"}).status_code == 403
    assert admin_client.get(admin_url(ArticleImport, "add")).status_code == 403
    article.refresh_from_db()
    assert article.status == ArticleImport.Status.REVIEWING
