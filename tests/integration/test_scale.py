"""The scale generator: counts per copy, the same data for the same seed, removal touches nothing else."""

import factory.random
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from negotiations.models import Negotiation, Offer, Statement
from negotiations.scale import PER_COPY
from tests.factories import JurisdictionFactory, NegotiationFactory, OfferFactory, StatementFactory
from tests.shared import PT_CODES

pytestmark = pytest.mark.django_db


@pytest.fixture
def jurisdictions():
    JurisdictionFactory(code="CA", kind="federal", order=0)
    for order, code in enumerate(PT_CODES, start=1):
        JurisdictionFactory(code=code, order=order)


def test_generates_per_copy_counts_and_removes_only_generated(jurisdictions):
    real = NegotiationFactory(slug="canada-job-grant")
    StatementFactory(negotiation=real)
    OfferFactory(negotiation=real)
    call_command("generate_scale_data", scale=2, verbosity=0)
    assert Negotiation.objects.filter(slug__startswith="scale-").count() == 2
    assert Statement.objects.filter(negotiation__slug__startswith="scale-").count() == 2 * PER_COPY["statements"]
    assert Offer.objects.filter(negotiation__slug__startswith="scale-").count() == 2 * PER_COPY["offers"]
    call_command("generate_scale_data", remove=True, verbosity=0)
    assert list(Negotiation.objects.values_list("slug", flat=True)) == ["canada-job-grant"]
    assert Statement.objects.count() == 1 and Offer.objects.count() == 1


def test_same_seed_gives_the_same_data(jurisdictions):
    before = factory.random.get_random_state()
    call_command("generate_scale_data", scale=1, verbosity=0)
    assert factory.random.get_random_state() == before  # the tests' factories draw from the same generator
    first = list(Statement.objects.order_by("pk").values_list("quote", "date"))
    call_command("generate_scale_data", remove=True, verbosity=0)
    call_command("generate_scale_data", scale=1, verbosity=0)
    assert list(Statement.objects.order_by("pk").values_list("quote", "date")) == first


@pytest.mark.parametrize("options, message", [({}, "Give --scale"), ({"scale": 0}, "from 1 to 1000")])
def test_bad_options_give_a_clear_message(jurisdictions, options, message):
    with pytest.raises(CommandError, match=message):
        call_command("generate_scale_data", **options)


def test_needs_jurisdictions_first():
    with pytest.raises(CommandError, match="load the jurisdictions first"):
        call_command("generate_scale_data", scale=1)


def test_generated_offers_have_their_terms_and_answer_the_one_before(jurisdictions):
    call_command("generate_scale_data", scale=1, verbosity=0)
    offers = list(Offer.objects.filter(negotiation__slug__startswith="scale-").order_by("tabled_on")
                  .prefetch_related("funding_sources", "tabled_by"))
    assert [offer.responds_to_id for offer in offers] == [None, *[offer.pk for offer in offers[:-1]]]
    for offer in offers:
        assert offer.tabled_by.exists()
        paid = {payer: sum(row.amount for row in offer.funding_sources.all() if row.payer == payer)
                for payer in ("federal", "provincial")}
        assert paid == {"federal": offer.federal_amount, "provincial": offer.provincial_amount}
        assert offer.max_grant == offer.federal_amount + offer.provincial_amount + offer.employer_amount
