"""Synthetic records at scale, for measuring pages as the record grows.

Scale N makes N negotiations shaped like the Canada Job Grant record (per copy: 100 statements,
20 meetings, 10 offers with terms, 28 positions, 12 people, 8 sources) across the 14
jurisdictions. Everything generated carries the slug prefix ``scale-`` so it can be removed again
without touching real data. The random generator is seeded, so a scale gives the same data each run.
"""

import datetime
import random
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction

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
WORDS = (
    "training grant employer province federal transfer agreement program workers skills flexibility "
    "funding labour market minister premier offer counter proposal budget share small business"
).split()


@dataclass(frozen=True)
class ScaleReport:
    negotiations: int
    statements: int
    meetings: int
    offers: int
    positions: int


def _sentence(rng: random.Random, words: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


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
    rng = random.Random(seed + existing)
    start = datetime.date(2013, 3, 1)
    counts = dict(negotiations=0, statements=0, meetings=0, offers=0, positions=0)
    for index in range(existing, existing + scale):
        with transaction.atomic():
            _copy(index, rng, start, federal, pts, counts)
            record_cache.record_changed()  # bulk inserts send no signals
        if progress:
            progress(index - existing + 1, scale)
    return ScaleReport(**counts)


def _copy(index, rng, start, federal, pts, counts) -> None:
    tag = f"{PREFIX}{index:04d}"
    negotiation = Negotiation.objects.create(
        slug=tag, title=f"Synthetic negotiation {index + 1}", summary=_sentence(rng), started_on=start
    )
    counts["negotiations"] += 1
    people = Person.objects.bulk_create(
        Person(name=f"Person {index}-{n}", slug=f"{tag}-person-{n}") for n in range(PER_COPY["people"])
    )
    # Each person speaks for one government, as in the real record.
    speakers = [(person, rng.choice([federal, *pts])) for person in people]
    Role.objects.bulk_create(
        Role(person=person, title="Minister", jurisdiction=home, start=start) for person, home in speakers
    )
    sources = Source.objects.bulk_create(
        Source(slug=f"{tag}-source-{n}", outlet="Synthetic Press", title=_sentence(rng, 6),
               published_on=start + datetime.timedelta(days=rng.randrange(400)))
        for n in range(PER_COPY["sources"])
    )
    meetings = Meeting.objects.bulk_create(
        Meeting(negotiation=negotiation, slug=f"{tag}-meeting-{n}", title=f"Meeting {n} of copy {index + 1}",
                date=start + datetime.timedelta(days=rng.randrange(400)), kind=rng.choice(Meeting.Kind.values),
                location="Toronto", outcome=_sentence(rng))
        for n in range(PER_COPY["meetings"])
    )
    Meeting.jurisdictions.through.objects.bulk_create(
        Meeting.jurisdictions.through(meeting_id=meeting.pk, jurisdiction_id=j.pk)
        for meeting in meetings for j in rng.sample([federal, *pts], 4)
    )
    counts["meetings"] += len(meetings)
    statements = Statement.objects.bulk_create(
        Statement(negotiation=negotiation, speaker=speaker, jurisdiction=home,
                  date=start + datetime.timedelta(days=rng.randrange(400)), quote=_sentence(rng, 20),
                  source=rng.choice(sources), meeting=rng.choice([None, *meetings[:5]]))
        for speaker, home in (rng.choice(speakers) for _ in range(PER_COPY["statements"]))
    )
    counts["statements"] += len(statements)
    offers = []
    for n in range(PER_COPY["offers"]):
        federal_amount = Decimal(rng.choice([5000, 7500, 10000]))
        employer_amount = Decimal(5000)
        offers.append(Offer(
            negotiation=negotiation, slug=f"{tag}-offer-{n}", title=f"Offer {n + 1} of copy {index + 1}",
            tabled_on=start + datetime.timedelta(days=40 * n),
            max_grant=federal_amount + employer_amount + Decimal(5000) if federal_amount == 5000
            else federal_amount + employer_amount,
            federal_amount=federal_amount,
            provincial_amount=Decimal(5000) if federal_amount == 5000 else Decimal(0),
            employer_amount=employer_amount, scale_amount=Decimal(rng.choice([150, 300, 450])) * 1_000_000,
        ))
    # Written in bulk, as the rest of the copy (so, like it, without history rows): each offer answers
    # the one before it, set once they all have their keys.
    Offer.objects.bulk_create(offers)
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
    positions = []
    for jurisdiction in [federal, *pts]:
        days = sorted(rng.sample(range(400), PER_COPY["positions_each"]))
        for day in days:
            positions.append(Position(
                negotiation=negotiation, jurisdiction=jurisdiction, as_of=start + datetime.timedelta(days=day),
                stance=rng.choice(Stance.values), summary=_sentence(rng),
                triggered_by_offer=rng.choice([None, *offers]),
            ))
    Position.objects.bulk_create(positions)
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
