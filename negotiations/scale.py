"""Synthetic records at scale, for measuring pages as the record grows.

Scale N makes N negotiations shaped like the Canada Job Grant record (per copy: 100 statements,
20 meetings, 10 offers with terms, 28 positions, 12 people, 8 sources) across the 14
jurisdictions. Everything generated carries the slug prefix ``scale-`` so it can be removed again
without touching real data.

The rows are made by factory-boy factories (below) from factory-boy's random generator, seeded, so
a scale gives the same data each run; they are built unsaved and written in bulk, a few queries per
kind of row and copy, so that scale 100 takes seconds. Bulk writes send no signals: the rows of a
copy have no history (its negotiation, saved on its own, has), and the record's version is moved
once per copy.
"""

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

import factory
from django.db import transaction
from factory.random import get_random_state, randgen, reseed_random, set_random_state

from negotiations import record_cache
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

PREFIX = "scale-"
PER_COPY = {"statements": 100, "meetings": 20, "offers": 10, "people": 12, "sources": 8, "positions_each": 2}
START = datetime.date(2013, 3, 1)
WORDS = (
    "training grant employer province federal transfer agreement program workers skills flexibility "
    "funding labour market minister premier offer counter proposal budget share small business"
).split()


def _sentence(words: int = 14) -> str:
    return " ".join(randgen.choice(WORDS) for _ in range(words)).capitalize() + "."


def _day() -> datetime.date:
    """A day in the 400 from START."""
    return START + datetime.timedelta(days=randgen.randrange(400))


def _sentences(words: int) -> factory.LazyFunction:
    return factory.LazyFunction(lambda: _sentence(words))


# -- factories: each builds one unsaved row of a copy, given the rows it belongs to.


class NegotiationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Negotiation

    summary = _sentences(14)
    started_on = START


class PersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Person


class SourceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Source

    outlet = "Synthetic Press"
    title = _sentences(6)
    published_on = factory.LazyFunction(_day)


class MeetingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Meeting

    date = factory.LazyFunction(_day)
    kind = factory.LazyFunction(lambda: randgen.choice(Meeting.Kind.values))
    location = "Toronto"
    outcome = _sentences(14)


class StatementFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Statement

    date = factory.LazyFunction(_day)
    quote = _sentences(20)


class OfferFactory(factory.django.DjangoModelFactory):
    """An offer whose terms add up: $5,000 of federal LMA money per trainee, any more from the LMDA,
    $5,000 from the employer, and $5,000 from the province when Ottawa gives only the LMA's."""

    class Meta:
        model = Offer

    class Params:
        federal = factory.LazyFunction(lambda: Decimal(randgen.choice([5000, 7500, 10000])))

    federal_amount = factory.SelfAttribute("federal")
    provincial_amount = factory.LazyAttribute(lambda o: Decimal(5000) if o.federal == 5000 else Decimal(0))
    employer_amount = Decimal(5000)
    max_grant = factory.LazyAttribute(lambda o: o.federal_amount + o.provincial_amount + o.employer_amount)
    scale_amount = factory.LazyFunction(lambda: Decimal(randgen.choice([150, 300, 450])) * 1_000_000)


class PositionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Position

    stance = factory.LazyFunction(lambda: randgen.choice(Stance.values))
    summary = _sentences(14)


@dataclass(frozen=True)
class ScaleReport:
    negotiations: int
    statements: int
    meetings: int
    offers: int
    positions: int


def generate(*, scale: int, seed: int = 2013, progress: Callable[[int, int], None] | None = None) -> ScaleReport:
    """Create `scale` synthetic copies of the record. Each copy is written in its own transaction."""
    if scale < 1:
        raise ValueError("scale must be at least 1")
    jurisdictions = list(Jurisdiction.objects.order_by("order"))
    if len(jurisdictions) < 2:
        raise ValueError("load the jurisdictions first (python manage.py load_cjg)")
    pts = [j for j in jurisdictions if not j.is_federal]
    federal = next((j for j in jurisdictions if j.is_federal), jurisdictions[0])
    existing = Negotiation.objects.filter(slug__startswith=PREFIX).count()
    counts = dict(negotiations=0, statements=0, meetings=0, offers=0, positions=0)
    outside = get_random_state()  # factory-boy's generator is shared: leave it as it was found
    reseed_random(seed + existing)
    try:
        for index in range(existing, existing + scale):
            with transaction.atomic():
                _copy(index, federal, pts, counts)
                record_cache.record_changed()  # bulk inserts send no signals
            if progress:
                progress(index - existing + 1, scale)
    finally:
        set_random_state(outside)
    return ScaleReport(**counts)


def _copy(index, federal, pts, counts) -> None:
    tag = f"{PREFIX}{index:04d}"
    governments = [federal, *pts]
    negotiation = NegotiationFactory(slug=tag, title=f"Synthetic negotiation {index + 1}")
    counts["negotiations"] += 1
    people = Person.objects.bulk_create(
        PersonFactory.build(name=f"Person {index}-{n}", slug=f"{tag}-person-{n}") for n in range(PER_COPY["people"])
    )
    # Each person speaks for one government, as in the real record.
    speakers = [(person, randgen.choice(governments)) for person in people]
    Role.objects.bulk_create(
        Role(person=person, title="Minister", jurisdiction=home, start=START) for person, home in speakers
    )
    sources = Source.objects.bulk_create(
        SourceFactory.build(slug=f"{tag}-source-{n}") for n in range(PER_COPY["sources"])
    )
    meetings = Meeting.objects.bulk_create(
        MeetingFactory.build(negotiation=negotiation, slug=f"{tag}-meeting-{n}",
                             title=f"Meeting {n} of copy {index + 1}")
        for n in range(PER_COPY["meetings"])
    )
    Meeting.jurisdictions.through.objects.bulk_create(
        Meeting.jurisdictions.through(meeting_id=meeting.pk, jurisdiction_id=j.pk)
        for meeting in meetings for j in randgen.sample(governments, 4)
    )
    counts["meetings"] += len(meetings)
    statements = Statement.objects.bulk_create(
        StatementFactory.build(negotiation=negotiation, speaker=speaker, jurisdiction=home,
                               source=randgen.choice(sources), meeting=randgen.choice([None, *meetings[:5]]))
        for speaker, home in (randgen.choice(speakers) for _ in range(PER_COPY["statements"]))
    )
    counts["statements"] += len(statements)
    offers = Offer.objects.bulk_create(
        OfferFactory.build(negotiation=negotiation, slug=f"{tag}-offer-{n}", title=f"Offer {n + 1} of copy {index + 1}",
                           tabled_on=START + datetime.timedelta(days=40 * n))
        for n in range(PER_COPY["offers"])
    )
    # Each offer answers the one before it, set once they all have their keys.
    for previous, offer in zip(offers, offers[1:]):
        offer.responds_to = previous
    Offer.objects.bulk_update(offers[1:], ["responds_to"])
    Offer.tabled_by.through.objects.bulk_create(
        Offer.tabled_by.through(offer_id=offer.pk, jurisdiction_id=j.pk)
        for n, offer in enumerate(offers) for j in ([federal] if n % 2 == 0 else pts)
    )
    funding, treatments, steps = [], [], []
    for n, offer in enumerate(offers):
        funding.append(FundingSource(offer=offer, payer="federal", program="LMA", amount=Decimal(5000)))
        if offer.federal_amount > 5000:
            funding.append(FundingSource(offer=offer, payer="federal", program="LMDA",
                                         amount=offer.federal_amount - 5000))
        if offer.provincial_amount:
            funding.append(FundingSource(offer=offer, payer="provincial", program="PT_OWN",
                                         amount=offer.provincial_amount))
        if n % 3 == 0:
            treatments.append(JurisdictionTreatment(offer=offer, jurisdiction=pts[4 % len(pts)],
                                                    treatment="opts_out_compensated"))
        if n % 4 == 0:
            steps.extend(PhaseInStep(offer=offer, fiscal_year=f"{2014 + k}-{15 + k}", fraction=Decimal(k + 1) / 4)
                         for k in range(4))
    FundingSource.objects.bulk_create(funding)
    JurisdictionTreatment.objects.bulk_create(treatments)
    PhaseInStep.objects.bulk_create(steps)
    counts["offers"] += len(offers)
    positions = Position.objects.bulk_create(
        PositionFactory.build(negotiation=negotiation, jurisdiction=jurisdiction,
                              as_of=START + datetime.timedelta(days=day),
                              triggered_by_offer=randgen.choice([None, *offers]))
        for jurisdiction in governments
        for day in sorted(randgen.sample(range(400), PER_COPY["positions_each"]))
    )
    counts["positions"] += len(positions)


def remove() -> int:
    """Delete every generated record (and nothing else). Returns the number of negotiations removed."""
    with transaction.atomic():
        negotiations = Negotiation.objects.filter(slug__startswith=PREFIX)
        count = negotiations.count()
        Position.objects.filter(negotiation__in=negotiations).delete()
        Statement.objects.filter(negotiation__in=negotiations).delete()
        offers = Offer.objects.filter(negotiation__in=negotiations)
        offers.update(responds_to=None)
        offers.delete()
        Meeting.objects.filter(negotiation__in=negotiations).delete()
        negotiations.delete()
        Source.objects.filter(slug__startswith=PREFIX).delete()
        Person.objects.filter(slug__startswith=PREFIX).delete()
        record_cache.record_changed()
    return count
