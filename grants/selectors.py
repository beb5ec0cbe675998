"""Reads for the fiscal pages and API: offers turned into engine inputs, and the reference data.

The engine (grants.fiscal) is pure; this module is the one place that feeds it from the database.
"""

import datetime
import threading
import time
from decimal import Decimal
from typing import NamedTuple

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404

from grants import fiscal
from grants.models import ProgramEnvelope
from negotiations import record_cache
from negotiations.models import (
    FundingSource,
    Jurisdiction,
    JurisdictionTreatment,
    Offer,
    PhaseInStep,
)
from negotiations.terms import Program
from negotiations.verdicts import offer_terms  # noqa: F401  (the one reading of an offer's terms)

# Reference data changes rarely and every fiscal figure needs it: keep it per process, drop it
# when this process changes the record or a page sees a newer record version (so a page rendered
# after an edit in another process computes with the new figures), and re-read it at least every
# REFERENCE_TTL seconds (the live preview reads no record version).
REFERENCE_TTL = 30.0
_reference_lock = threading.Lock()
_reference_cache: dict[str, tuple[float, fiscal.ReferenceData]] = {}


def reference_data() -> fiscal.ReferenceData:
    """The 13 P/Ts' populations and the program envelopes, as the engine wants them."""
    now = time.monotonic()
    cached = _reference_cache.get("reference")
    if cached and now - cached[0] < REFERENCE_TTL:
        return cached[1]
    with _reference_lock:
        jurisdictions = tuple(
            fiscal.Jurisdiction(code=code, population=population)
            for code, population in Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL)
            .order_by("order", "code")
            .values_list("code", "population")
        )
        envelopes = tuple(
            (Program(program), amount)
            for program, amount in ProgramEnvelope.objects.values_list("program", "annual_amount")
        )
        data = fiscal.ReferenceData(jurisdictions=jurisdictions, envelopes=envelopes)
        _reference_cache["reference"] = (now, data)
        return data


@record_cache.on_new_version
def forget_reference_data(**kwargs) -> None:
    _reference_cache.clear()


def offers_with_terms():
    """Offers with every row their terms need, in a fixed number of queries."""
    return Offer.objects.select_related("negotiation", "responds_to").prefetch_related(
        Prefetch("funding_sources", queryset=FundingSource.objects.order_by("payer", "program")),
        Prefetch("treatments", queryset=JurisdictionTreatment.objects.select_related("jurisdiction")),
        Prefetch("phase_in", queryset=PhaseInStep.objects.order_by("fiscal_year")),
        Prefetch("tabled_by", queryset=Jurisdiction.objects.order_by("order")),
    )


class OfferChoice(NamedTuple):
    slug: str
    title: str
    tabled_on: datetime.date
    responds_to: str | None  # the slug of the offer it answers


def offer_choices() -> list[OfferChoice]:
    """Every offer as a picker needs it, newest first: one query, no model instances."""
    return [OfferChoice(*row) for row in Offer.objects.values_list("slug", "title", "tabled_on", "responds_to__slug")]


def offer_with_terms(slug: str) -> Offer:
    """One offer by slug (404 when unknown), ready for offer_terms()."""
    return get_object_or_404(offers_with_terms(), slug=slug)


MAX_PARTICIPATION_PLACES = 10
PARTICIPATION_STEP = Decimal(1).scaleb(-MAX_PARTICIPATION_PLACES)


def scenario_from(*, participation: Decimal | str | None = None, fiscal_year: str | None = None) -> fiscal.Scenario:
    """A Scenario from loosely typed input; the engine validates it (InvalidScenario names the field)."""
    if participation in (None, ""):
        value = Decimal(1)
    else:
        try:
            value = Decimal(str(participation))
        except ArithmeticError:
            raise fiscal.InvalidScenario("participation", "Participation must be a number between 0 and 1.") from None
        if not value.is_finite():
            raise fiscal.InvalidScenario("participation", "Participation must be a number between 0 and 1.") from None
        # Exact arithmetic on a value like 1e-9999999 would take the engine minutes: refuse it here.
        if 0 <= value <= 1 and value.quantize(PARTICIPATION_STEP) != value:
            raise fiscal.InvalidScenario(
                "participation", f"Participation has at most {MAX_PARTICIPATION_PLACES} decimal places."
            )
    return fiscal.Scenario(participation=value, fiscal_year=fiscal_year or None)


def fiscal_effect(offer: Offer, scenario: fiscal.Scenario | None = None) -> fiscal.Effect:
    """The fiscal effect of a saved offer under a scenario.

    Terms edited into a broken state (in the admin, say) are refused (fiscal.InvalidTerms) with the
    same rules and messages as the forms, the admin and the loader (negotiations.terms); the
    engine's own checks stay behind them for what only it knows.
    """
    return fiscal.compute(offer_terms(offer), reference_data(), scenario or fiscal.Scenario())


def status_quo_effect(scenario: fiscal.Scenario | None = None) -> fiscal.Effect:
    return fiscal.status_quo(reference_data(), scenario or fiscal.Scenario())


def jurisdiction_names() -> dict[str, str]:
    """Code -> English name, for labelling rows."""
    return dict(Jurisdiction.objects.values_list("code", "name"))
