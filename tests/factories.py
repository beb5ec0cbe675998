"""Factories for the whole test suite (one place), and Record: a small record built from them, with what the
position form posts for it (position_data)."""

import datetime
from decimal import Decimal

import factory
from django.contrib.auth import get_user_model

from grants.models import ProgramEnvelope
from negotiations import models as m
from tests.shared import PT_CODES


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda o: f"{o.username}@example.org")
    password = factory.django.Password("correct horse battery staple")


class JurisdictionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Jurisdiction
        django_get_or_create = ("code",)

    code = factory.Iterator(PT_CODES)
    name_en = factory.LazyAttribute(lambda o: f"Jurisdiction {o.code}")
    name_fr = factory.LazyAttribute(lambda o: f"Juridiction {o.code}")
    kind = m.Jurisdiction.Kind.PROVINCE
    order = factory.Sequence(lambda n: n + 1)
    population = 1_000_000
    population_date = datetime.date(2013, 7, 1)
    population_source = "Test population"


class PersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Person

    name = factory.Faker("name")
    slug = factory.Sequence(lambda n: f"person-{n}")


class RoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Role

    person = factory.SubFactory(PersonFactory)
    title = "Minister"
    jurisdiction = factory.SubFactory(JurisdictionFactory)
    start = datetime.date(2013, 1, 1)


class NegotiationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Negotiation
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"negotiation-{n}")
    title = factory.LazyAttribute(lambda o: o.slug.replace("-", " ").title())
    started_on = datetime.date(2013, 3, 21)


class SourceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Source

    slug = factory.Sequence(lambda n: f"source-{n}")
    outlet = "The Canadian Press"
    title = factory.Sequence(lambda n: f"Article {n}")
    published_on = datetime.date(2014, 1, 29)
    url = factory.Sequence(lambda n: f"https://example.org/articles/{n}")


class MeetingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Meeting
        skip_postgeneration_save = True

    negotiation = factory.SubFactory(NegotiationFactory)
    slug = factory.Sequence(lambda n: f"meeting-{n}")
    title = factory.Sequence(lambda n: f"Meeting {n}")
    date = datetime.date(2013, 11, 8)
    kind = m.Meeting.Kind.FPT_MINISTERS
    location = "Toronto"

    @factory.post_generation
    def jurisdictions(self, create, extracted, **kwargs):
        if create and extracted:
            self.jurisdictions.set(extracted)


class StatementFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Statement

    negotiation = factory.SubFactory(NegotiationFactory)
    speaker = factory.SubFactory(PersonFactory)
    jurisdiction = factory.SubFactory(JurisdictionFactory)
    date = datetime.date(2014, 1, 29)
    quote = factory.Faker("sentence")
    source = factory.SubFactory(SourceFactory)


class PositionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Position

    negotiation = factory.SubFactory(NegotiationFactory)
    jurisdiction = factory.SubFactory(JurisdictionFactory)
    as_of = factory.Sequence(lambda n: datetime.date(2013, 7, 25) + datetime.timedelta(days=n))
    stance = m.Stance.OPPOSES
    summary = "Opposes the grant as designed."


class OfferFactory(factory.django.DjangoModelFactory):
    """An offer shaped like Budget 2013: 5,000 from each payer, $300M from the LMA."""

    class Meta:
        model = m.Offer
        skip_postgeneration_save = True

    negotiation = factory.SubFactory(NegotiationFactory)
    slug = factory.Sequence(lambda n: f"offer-{n}")
    title = factory.Sequence(lambda n: f"Offer {n}")
    tabled_on = datetime.date(2013, 3, 21)
    max_grant = Decimal("15000")
    federal_amount = Decimal("5000")
    provincial_amount = Decimal("5000")
    employer_amount = Decimal("5000")
    scale_program = m.Program.LMA
    scale_amount = Decimal("300000000")
    shortfall_liability = m.Liability.NONE

    @factory.post_generation
    def funding(self, create, extracted, **kwargs):
        """Sources that add up: federal from the LMA, provincial from own revenue (unless given)."""
        if not create:
            return
        rows = extracted if extracted is not None else [
            ("federal", "LMA", self.federal_amount),
            ("provincial", "PT_OWN", self.provincial_amount),
        ]
        for payer, program, amount in rows:
            if Decimal(amount):
                m.FundingSource.objects.create(offer=self, payer=payer, program=program, amount=amount)

    @factory.post_generation
    def tabled_by(self, create, extracted, **kwargs):
        if create and extracted:
            self.tabled_by.set(extracted)


class ProgramEnvelopeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ProgramEnvelope
        django_get_or_create = ("program",)

    program = "LMA"
    name_en = "Labour Market Agreements"
    name_fr = "Ententes sur le marché du travail"
    annual_amount = Decimal("500000000")
    source = "Test envelope"


class Record:
    """One negotiation, meeting, person and source, with `grow(n)` adding n rows around each."""

    def __init__(self):
        self.negotiation = NegotiationFactory(slug="canada-job-grant", title="Canada Job Grant")
        self.ontario = JurisdictionFactory(code="ON", name_en="Ontario")
        self.source = SourceFactory(slug="cp-2014-01-29", title="Provinces resist the job grant")
        self.meeting = MeetingFactory(slug="fpt-nov-2013", title="FPT labour ministers meet", negotiation=self.negotiation,
                                      date=datetime.date(2013, 11, 8), outcome="No agreement on the grant.")
        self.person = PersonFactory(slug="brad-duguid", name="Brad Duguid")
        RoleFactory(person=self.person, jurisdiction=self.ontario, title="Minister of Training",
                    start=datetime.date(2013, 2, 11))
        self.meeting.participants.add(self.person)
        self.meeting.sources.add(self.source)
        self.size = 0

    def grow(self, n):
        for i in range(self.size, self.size + n):
            jurisdiction = JurisdictionFactory()
            speaker = PersonFactory(name=f"Speaker {i}")
            RoleFactory(person=speaker, jurisdiction=jurisdiction, title="Minister of Advanced Education")
            self.meeting.participants.add(speaker)
            self.meeting.jurisdictions.add(jurisdiction)
            self.meeting.sources.add(SourceFactory())
            for who, on_behalf_of in ((speaker, jurisdiction), (self.person, self.ontario)):
                StatementFactory(negotiation=self.negotiation, speaker=who, jurisdiction=on_behalf_of,
                                 source=self.source, meeting=self.meeting, quote=f"On the job grant, point {i}.")
            position = PositionFactory(negotiation=self.negotiation, jurisdiction=jurisdiction,
                                       triggered_by_meeting=self.meeting)
            position.sources.add(self.source)
            offer = OfferFactory(negotiation=self.negotiation, meeting=self.meeting, tabled_by=[jurisdiction],
                                 title=f"Grant offer {i}")
            offer.sources.add(self.source)
            MeetingFactory(negotiation=self.negotiation, jurisdictions=[jurisdiction])
        self.size += n
        return self


def position_data(rec, **overrides):
    """What the position form posts for a position of Ontario's in `rec` (a Record), with `overrides`."""
    data = {
        "negotiation": rec.negotiation.slug, "jurisdiction": "ON", "as_of": "2014-01-29", "date_precision": "day",
        "stance": "conditional", "summary": "Will sign if the LMA is spared.", "conditions": "Keep the LMA whole.",
        "triggered_by_meeting": rec.meeting.slug,
    }
    return data | overrides
