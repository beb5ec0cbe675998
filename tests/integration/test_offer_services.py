"""The offer services: an offer and its terms are written together or not at all, with the acting user."""

import datetime
from dataclasses import replace
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from negotiations.models import FundingSource, Jurisdiction, JurisdictionTreatment, Offer, PhaseInStep
from negotiations.services import offers as services
from negotiations.terms import OfferTerms, check_terms
from tests.factories import SourceFactory, UserFactory
from tests.offer_world import make_budget_2013, make_reference

pytestmark = pytest.mark.django_db

BUDGET_TERMS = OfferTerms(
    max_grant=Decimal("15000"), federal_amount=Decimal("5000"), provincial_amount=Decimal("5000"),
    employer_amount=Decimal("5000"), scale_program="LMA", scale_amount=Decimal("300000000"),
    sources=(("federal", "LMA", Decimal("5000")), ("provincial", "PT_OWN", Decimal("5000"))),
)


@pytest.fixture
def world():
    make_reference()
    return make_budget_2013()


@pytest.fixture
def actor():
    return UserFactory(username="ana")


def create(actor, budget, **overrides):
    arguments = {
        "actor": actor, "negotiation": budget.negotiation, "title": "Federal offer, December 2013",
        "tabled_by": [Jurisdiction.objects.get(code="CA")], "tabled_on": datetime.date(2013, 12, 24),
        "terms": BUDGET_TERMS, "responds_to": budget,
    }
    arguments.update(overrides)
    return services.offer_create(**arguments)


def test_create_writes_the_offer_and_every_row_of_its_terms_with_the_actor(world, actor):
    terms = replace(
        BUDGET_TERMS,
        treatments=(("QC", "opts_out_compensated"), ("ON", "participates")),
        phase_in=(("2014-15", Decimal("0.15")), ("2015-16", Decimal("1"))),
    )
    source = SourceFactory()
    offer = create(actor, world, terms=terms, sources=[source])

    assert offer.slug == "federal-offer-december-2013"
    assert sorted(offer.funding_sources.values_list("payer", "program", "amount")) == [
        ("federal", "LMA", Decimal("5000.00")), ("provincial", "PT_OWN", Decimal("5000.00"))]
    # A P/T that participates needs no row.
    assert list(offer.treatments.values_list("jurisdiction__code", "treatment")) == [("QC", "opts_out_compensated")]
    assert list(offer.phase_in.values_list("fiscal_year", "fraction")) == [
        ("2014-15", Decimal("0.1500")), ("2015-16", Decimal("1.0000"))]
    assert list(offer.tabled_by.values_list("code", flat=True)) == ["CA"]
    assert list(offer.sources.all()) == [source]
    # One history record for the creation, by the actor, holding the governments and sources as well.
    record = offer.history.get()
    assert (record.history_type, record.history_user) == ("+", actor)
    assert [row.jurisdiction.code for row in record.tabled_by.all()] == ["CA"]
    assert [row.source for row in record.sources.all()] == [source]
    for row in [*offer.funding_sources.all(), *offer.treatments.all(), *offer.phase_in.all()]:
        assert row.history.get().history_user == actor


def test_create_refuses_terms_that_do_not_add_up_and_writes_nothing(world, actor):
    terms = replace(BUDGET_TERMS, employer_amount=Decimal("4000"))
    before = (Offer.objects.count(), FundingSource.objects.count())

    with pytest.raises(services.InvalidOfferTerms) as refused:
        create(actor, world, terms=terms)

    expected = check_terms(max_grant=Decimal("15000"), federal_amount=Decimal("5000"),
                           provincial_amount=Decimal("5000"), employer_amount=Decimal("4000"), sources=None)
    assert [(p.field, p.message) for p in refused.value.problems] == [(p.field, p.message) for p in expected]
    assert (Offer.objects.count(), FundingSource.objects.count()) == before


def test_a_failing_row_undoes_the_whole_offer(world, actor):
    terms = replace(BUDGET_TERMS, phase_in=(("2014-2015", Decimal("0.5")),))
    before = Offer.objects.count()

    with pytest.raises(ValidationError) as refused:
        create(actor, world, terms=terms)

    assert "fiscal_year" in refused.value.message_dict
    assert Offer.objects.count() == before
    assert not FundingSource.objects.exclude(offer=world).exists()


def test_an_unknown_treatment_code_is_refused(world, actor):
    terms = replace(BUDGET_TERMS, treatments=(("ZZ", "opts_out_compensated"),))
    with pytest.raises(services.InvalidOfferTerms) as refused:
        create(actor, world, terms=terms)
    assert refused.value.problems[0].field == "treatments"


def test_a_taken_slug_is_refused_by_name(world, actor):
    with pytest.raises(services.OfferSlugTaken) as refused:
        create(actor, world, slug="budget-2013")
    assert "budget-2013" in str(refused.value)


def test_a_slug_made_from_the_title_gets_a_number_when_taken(world, actor):
    first = create(actor, world, title="Counter-proposal")
    second = create(actor, world, title="Counter-proposal", tabled_on=datetime.date(2014, 1, 29))  # another day
    assert (first.slug, second.slug) == ("counter-proposal", "counter-proposal-2")
    # the same title on the same day is the same offer twice (a double click), refused by its title
    with pytest.raises(ValidationError) as refused:
        create(actor, world, title="counter-proposal ")
    assert "already recorded (counter-proposal)" in str(refused.value.message_dict["title"])


def test_a_slug_taken_between_the_check_and_the_write_is_still_reported_by_name(world, actor, monkeypatch):
    """A concurrent save can take the slug after full_clean(): the IntegrityError becomes OfferSlugTaken."""
    monkeypatch.setattr(services, "_validate", lambda offer, tabled_by, previous_status: None)
    with pytest.raises(services.OfferSlugTaken):
        create(actor, world, slug="budget-2013")
    # The savepoint kept the surrounding transaction usable.
    assert Offer.objects.filter(slug="budget-2013").count() == 1


def test_an_offer_needs_a_government_that_tabled_it(world, actor):
    with pytest.raises(ValidationError) as refused:
        create(actor, world, tabled_by=[])
    assert "tabled_by" in refused.value.message_dict


def test_update_replaces_the_terms_writing_only_the_rows_that_change(world, actor):
    offer = create(actor, world)
    federal_lma = offer.funding_sources.get(payer="federal")
    december = replace(
        BUDGET_TERMS,
        federal_amount=Decimal("10000"),
        provincial_amount=Decimal("0"),
        sources=(("federal", "LMA", Decimal("5000")), ("federal", "LMDA", Decimal("5000"))),
        shortfall_liability="province",
        treatments=(("QC", "federal_direct"),),
    )
    editor = UserFactory(username="ben")

    updated = services.offer_update(
        actor=editor, offer=offer, expected_version=1, negotiation=offer.negotiation, title=offer.title,
        tabled_by=[Jurisdiction.objects.get(code="CA")], tabled_on=offer.tabled_on, terms=december,
        responds_to=world,
    )

    updated.refresh_from_db()
    assert updated.version == 2
    assert (updated.federal_amount, updated.provincial_amount) == (Decimal("10000.00"), Decimal("0.00"))
    assert sorted(updated.funding_sources.values_list("payer", "program", "amount")) == [
        ("federal", "LMA", Decimal("5000.00")), ("federal", "LMDA", Decimal("5000.00"))]
    # The unchanged federal LMA row is the same row, with no new history.
    assert updated.funding_sources.get(program="LMA").pk == federal_lma.pk
    assert federal_lma.history.count() == 1
    latest = updated.history.latest()
    assert latest.history_user == editor
    assert latest.history_change_reason == "Terms changed: funding sources, treatments"
    assert list(updated.treatments.values_list("jurisdiction__code", "treatment")) == [("QC", "federal_direct")]


def test_update_refuses_when_someone_saved_meanwhile_and_writes_nothing(world, actor):
    offer = create(actor, world)
    stale = Offer.objects.get(pk=offer.pk)
    services.offer_update(
        actor=actor, offer=offer, expected_version=1, negotiation=offer.negotiation, title="Renamed first",
        tabled_by=[Jurisdiction.objects.get(code="CA")], tabled_on=offer.tabled_on, terms=BUDGET_TERMS,
    )

    with pytest.raises(services.OfferChangedMeanwhile) as refused:
        services.offer_update(
            actor=actor, offer=stale, expected_version=1, negotiation=offer.negotiation, title="Renamed second",
            tabled_by=[Jurisdiction.objects.get(code="CA")], tabled_on=offer.tabled_on, terms=BUDGET_TERMS,
        )

    assert (refused.value.expected_version, refused.value.current_version) == (1, 2)
    offer.refresh_from_db()
    assert (offer.title, offer.version) == ("Renamed first", 2)


def test_update_with_broken_terms_keeps_the_version(world, actor):
    offer = create(actor, world)
    broken = replace(BUDGET_TERMS, sources=(("federal", "LMA", Decimal("4000")),))
    with pytest.raises(services.InvalidOfferTerms):
        services.offer_update(
            actor=actor, offer=offer, expected_version=1, negotiation=offer.negotiation, title=offer.title,
            tabled_by=[Jurisdiction.objects.get(code="CA")], tabled_on=offer.tabled_on, terms=broken,
        )
    offer.refresh_from_db()
    assert offer.version == 1
    assert offer.funding_sources.count() == 2


def test_withdraw_marks_the_offer_withdrawn_without_deleting_it(world, actor):
    offer = services.offer_withdraw(actor=actor, offer=world, reason="Replaced", withdrawn_on=world.tabled_on)

    world.refresh_from_db()
    assert world.status == Offer.Status.WITHDRAWN
    assert offer.version == world.version == 2
    assert world.history.latest().history_user == actor
    assert world.funding_sources.count() == 2
    with pytest.raises(services.OfferAlreadyWithdrawn):
        services.offer_withdraw(actor=actor, offer=world, reason="Again", withdrawn_on=world.tabled_on)


def test_withdraw_needs_why_and_when_and_writes_nothing_without_them(world, actor):
    with pytest.raises(ValidationError) as refused:
        services.offer_withdraw(actor=actor, offer=world, reason="  ", withdrawn_on=None)

    assert set(refused.value.message_dict) == {"withdrawal_reason", "withdrawn_on"}
    world.refresh_from_db()
    assert world.status != Offer.Status.WITHDRAWN and world.version == 1


def test_a_database_error_that_is_not_about_the_slug_is_not_disguised(world, actor, monkeypatch):
    def fail(self, *args, **kwargs):
        raise IntegrityError("something else")

    monkeypatch.setattr(Offer, "save", fail)
    with pytest.raises(IntegrityError):
        create(actor, world, slug="a-fresh-slug")
    assert not Offer.objects.filter(slug="a-fresh-slug").exists()


def test_rows_named_in_the_terms_are_the_rows_stored(world, actor):
    offer = create(actor, world)
    assert JurisdictionTreatment.objects.filter(offer=offer).count() == 0
    assert PhaseInStep.objects.filter(offer=offer).count() == 0
