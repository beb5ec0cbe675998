"""Reads for the fiscal pages and API: offers turned into engine inputs, and the reference data.

The engine (grants.fiscal) is pure; this module is the one place that feeds it from the database.
"""

import datetime
from collections.abc import Hashable
from decimal import Decimal
from typing import NamedTuple

from django.db.models import Exists, OuterRef, Prefetch
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
from negotiations.money import decimal_point
from negotiations.selectors.verdicts import offer_terms  # noqa: F401  (the one reading of an offer's terms)
from negotiations.terms import Program

# How old a record version the reference data may be kept under: a read page has read the version
# for its own request just before (so its figures are those of that version), the live preview
# within its FRESH_FOR; other readers see another process's commit within this many seconds.
REFERENCE_FRESH_FOR = 1.0


def reference_data(version: Hashable | None = None) -> fiscal.ReferenceData:
    """The 13 P/Ts' populations and the program envelopes, as the engine wants them.

    Every fiscal figure needs them and they change rarely: they are kept in this process under the
    record's version (``record_cache.kept``), so a change anywhere shows in the next figure computed
    after it, and a rolled-back change is never used. ``version`` is what the caller has read for this
    request (``record_cache.refresh``); without it the version is read at most every
    ``REFERENCE_FRESH_FOR`` seconds. Kept with the page cache off too (``RECORD_CACHE=false``).
    """
    if version is None:
        # perf: no query once kept, however many offers a page computes (bench/run "fiscal page",
        # "API fiscal-effect", both tables).
        version = record_cache.kept_version(max_age=REFERENCE_FRESH_FOR)
    return record_cache.kept(version, "reference-data", _read_reference_data)


def _read_reference_data() -> fiscal.ReferenceData:
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
    return fiscal.ReferenceData(jurisdictions=jurisdictions, envelopes=envelopes)


def forget_reference_data() -> None:
    """Drop the kept reference data: the next figure reads it afresh (tests start cold with it)."""
    record_cache.forget("reference-data")


def _term_rows(*, tabled_by: bool = True) -> tuple[Prefetch, ...]:
    """The rows an offer's terms are made of, and (``tabled_by``) who tabled it."""
    return (
        Prefetch("funding_sources", queryset=FundingSource.objects.order_by("payer", "program")),
        # perf: ordered within the offer only (the default ordering joins the offers to sort by them)
        # (bench/run "record cache off: fiscal page").
        Prefetch("treatments", queryset=JurisdictionTreatment.objects.select_related("jurisdiction")
                 .order_by("jurisdiction__order")),
        Prefetch("phase_in", queryset=PhaseInStep.objects.order_by("fiscal_year")),
        *([Prefetch("tabled_by", queryset=Jurisdiction.objects.order_by("order"))] if tabled_by else []),
    )


def offers_with_terms():
    """Offers with every row their terms need, in a fixed number of queries."""
    return Offer.objects.select_related("negotiation", "responds_to").prefetch_related(*_term_rows())


def offer_with_terms(slug: str) -> Offer:
    """One offer by slug (404 when unknown), ready for offer_terms(); who tabled it is not read
    (``jurisdictions(tabled=offer)`` names them)."""
    # perf: without the negotiation and the offer it answers, which the fiscal pages and the CSV never
    # show, nor who tabled it (bench/run "record cache off: fiscal page").
    return get_object_or_404(Offer.objects.prefetch_related(*_term_rows(tabled_by=False)), slug=slug)


class Jurisdictions(NamedTuple):
    """Every jurisdiction's name by code, the provinces and territories in display order, and the
    names of those that tabled an offer."""

    names: dict[str, str]
    pts: list[tuple[str, str]]  # (code, name), as negotiations.term_basis.provinces() gives them
    tabled_by: list[str]


def jurisdictions(*, tabled: Offer | None = None) -> Jurisdictions:
    """``jurisdiction_names()``, ``term_basis.provinces()`` and who tabled ``tabled`` in one query."""
    # perf: one query for the three (bench/run "record cache off: fiscal page").
    rows = Jurisdiction.objects.order_by("order", "code")
    fields = ("code", "name", "kind")
    if tabled is not None:
        rows = rows.annotate(
            tabled=Exists(Offer.tabled_by.through.objects.filter(offer_id=tabled.pk, jurisdiction_id=OuterRef("pk")))
        )
        fields = (*fields, "tabled")
    names, pts, tabled_by = {}, [], []
    for code, name, kind, *tabled_it in rows.values_list(*fields):
        names[code] = name
        if kind != Jurisdiction.Kind.FEDERAL:
            pts.append((code, name))
        if tabled_it and tabled_it[0]:
            tabled_by.append(name)
    return Jurisdictions(names, pts, tabled_by)


class OfferChoice(NamedTuple):
    slug: str
    title: str
    tabled_on: datetime.date
    responds_to: str | None  # the slug of the offer it answers


def offer_choices() -> list[OfferChoice]:
    """Every offer as a picker needs it, newest first: one query, no model instances."""
    return [OfferChoice(*row) for row in Offer.objects.values_list("slug", "title", "tabled_on", "responds_to__slug")]


MAX_PARTICIPATION_PLACES = 10
PARTICIPATION_STEP = Decimal(1).scaleb(-MAX_PARTICIPATION_PLACES)


def scenario_from(*, participation: Decimal | str | None = None, fiscal_year: str | None = None) -> fiscal.Scenario:
    """A Scenario from loosely typed input; the engine validates it (InvalidScenario names the field)."""
    if participation in (None, ""):
        value = Decimal(1)
    else:
        try:
            written = decimal_point(str(participation))  # "0,8" as French readers write it
            if "_" in written:  # Python reads "1_0" as 10; nobody writes a rate so
                raise ArithmeticError
            value = Decimal(written)
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
