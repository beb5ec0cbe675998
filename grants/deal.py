"""Where the deal is, in money: what each offer would cost one government and whether it meets its
conditions; the fiscal side of scenarios and of the distance between the two sides' latest offers.

The cross-app composition lives here (``grants`` reads ``negotiations``, never the reverse): the
verdicts come from ``negotiations.selectors.verdicts``, the figures from the engine through ``grants.selectors``,
and every number is written by ``grants.presentation``.
"""

import datetime
from dataclasses import dataclass
from decimal import Decimal

from config.numbers import format_fiscal_year, format_percent, numbers
from grants import fiscal, selectors
from grants.presentation import LINE_LABELS, YearOption
from negotiations.acceptance import Verdict
from negotiations.concessions import FEDERAL, PROVINCES, Concessions, concessions
from negotiations.models import Jurisdiction, Liability, Negotiation, Offer, Treatment
from negotiations.offer_forms import program_field, treatment_field
from negotiations.selectors.verdicts import negotiation_rounds, offer_terms, position_books
from negotiations.terms import SCALAR_FIELDS


@dataclass(frozen=True)
class CostToOne:
    """One offer seen from one P/T: what it must find, of which backfill, its liability, and its verdict."""

    slug: str
    title: str
    tabled_on: datetime.date
    url: str
    treatment: str
    must_find: str | None  # None when the offer's terms cannot be computed
    backfill: str | None
    new_money: str | None
    liable: bool
    exposure: str | None  # what it would owe if no employer paid its share, when liable
    verdict: Verdict
    problem: str | None = None
    withdrawn: bool = False


def lines_of(effect: fiscal.Effect, code: str) -> fiscal.Lines | None:
    return next((lines for lines in effect.by_jurisdiction if lines.code == code), None)


def costs_to_jurisdiction(*, jurisdiction: Jurisdiction, negotiation: Negotiation | None) -> list[CostToOne]:
    """Every offer of ``negotiation`` (all negotiations when None), newest first, seen from one P/T.

    A fixed number of queries (the offers and their term rows, the reference data, the positions).
    """
    offers = selectors.offers_with_terms().order_by("-tabled_on", "title")
    if negotiation is not None:
        offers = offers.filter(negotiation=negotiation)
    offers = list(offers)
    books = position_books({offer.negotiation_id for offer in offers})
    write = numbers()
    code = jurisdiction.code
    result = []
    for offer in offers:
        terms = offer_terms(offer)
        verdict = books[offer.negotiation_id].judge(terms, offer.tabled_on)
        own = next(v for v in verdict if v.jurisdiction == code)
        treatment = dict(terms.treatments).get(code, Treatment.PARTICIPATES)
        liable = terms.shortfall_liability == Liability.PROVINCE and treatment == Treatment.PARTICIPATES
        try:
            lines = lines_of(selectors.fiscal_effect(offer), code)
            problem = None
        except fiscal.InvalidTerms as error:
            lines, problem = None, "; ".join(e.message for e in error.errors)
        result.append(CostToOne(
            slug=offer.slug, title=offer.title, tabled_on=offer.tabled_on, url=offer.get_absolute_url(),
            treatment=Treatment(treatment).label,
            must_find=write.money(lines.provinces_need) if lines else None,
            backfill=write.money(lines.lma_diverted) if lines else None,
            new_money=write.money(lines.provincial_new_money) if lines else None,
            liable=liable,
            exposure=write.money(lines.employer_cost) if lines and liable else None,
            verdict=own, problem=problem, withdrawn=offer.status == Offer.Status.WITHDRAWN,
        ))
    return result


# --- scenarios ------------------------------------------------------------------------------------

SCENARIO_LINES = ("trainees", "federal_cost", "provincial_cost", "lma_diverted", "lmda_redirected",
                  "provincial_new_money", "provinces_need", "provincial_liability")


@dataclass(frozen=True)
class FigureRow:
    key: str
    name: str
    figures: tuple[str, ...]


@dataclass(frozen=True)
class EffectTable:
    labels: tuple[str, ...]
    rows: tuple[FigureRow, ...]
    total: FigureRow
    fiscal_year: str | None
    participation: str


def effect_table(effect: fiscal.Effect, names: dict[str, str]) -> EffectTable:
    """The scenario page's table: a few lines by P/T and in total, written by the formatter."""
    write = numbers()

    def figures(lines: fiscal.Lines) -> tuple[str, ...]:
        return tuple(write.line(line, getattr(lines, line)) for line in SCENARIO_LINES)

    return EffectTable(
        labels=tuple(str(LINE_LABELS[line]) for line in SCENARIO_LINES),
        rows=tuple(FigureRow(lines.code, names.get(lines.code, lines.code), figures(lines))
                   for lines in effect.by_jurisdiction),
        total=FigureRow("total", "", figures(effect.national)),
        fiscal_year=effect.scenario.fiscal_year,
        participation=format_percent(effect.scenario.participation),
    )


def record_as_offer_query(scenario) -> dict[str, str]:
    """The offer form's fields filled from a scenario: "Record as offer" opens /offers/new with them."""
    query = {
        "negotiation": scenario.negotiation.slug, "title": scenario.title,
        "tabled_on": scenario.as_of.isoformat(),
        **{name: "" if getattr(scenario, name) is None else str(getattr(scenario, name)) for name in SCALAR_FIELDS},
    }
    for payer, program, amount in scenario.sources:
        query[program_field(payer, program)] = str(amount)
    for code, treatment in scenario.treatments.items():
        query[treatment_field(code)] = treatment
    for row, (year, fraction) in enumerate(scenario.phase_in):
        query[f"phase_in_year_{row}"] = year
        query[f"phase_in_fraction_{row}"] = str(fraction)
    return {name: value for name, value in query.items() if value != ""}


# --- concessions: the distance between the two sides in money ------------------------------------------


@dataclass(frozen=True)
class SideByJurisdiction:
    code: str
    name: str
    federal_need: Decimal  # what the P/T must find under Ottawa's latest offer
    provinces_need: Decimal  # ... under the P/Ts' own latest counter-proposal
    more_to_find: Decimal  # federal_need - provinces_need


@dataclass(frozen=True)
class MoneyDistance:
    federal_offer: Offer
    provinces_offer: Offer
    national: SideByJurisdiction
    by_jurisdiction: tuple[SideByJurisdiction, ...]
    problem: str | None = None


def money_distance(negotiation_id: int) -> tuple[Concessions, MoneyDistance | None]:
    """The concessions of a negotiation, and how much more each P/T must find under Ottawa's latest offer
    than under the P/Ts' latest counter-proposal (None until both sides have tabled one)."""
    rounds, offers = negotiation_rounds(negotiation_id)
    codes = [j.code for j in selectors.reference_data().jurisdictions]
    result = concessions(rounds, codes)
    if len(result.latest) < 2:
        return result, None
    by_slug = {offer.slug: offer for offer in offers}
    federal, provinces = by_slug[result.latest[FEDERAL].slug], by_slug[result.latest[PROVINCES].slug]
    try:
        theirs, ours = selectors.fiscal_effect(federal), selectors.fiscal_effect(provinces)
    except fiscal.InvalidTerms as error:
        return result, MoneyDistance(federal, provinces, None, (), problem=str(error))
    names = selectors.jurisdiction_names()

    def side(code, name, a: fiscal.Lines, b: fiscal.Lines) -> SideByJurisdiction:
        return SideByJurisdiction(code, name, a.provinces_need, b.provinces_need, a.provinces_need - b.provinces_need)

    return result, MoneyDistance(
        federal, provinces,
        national=side("total", "", theirs.national, ours.national),
        by_jurisdiction=tuple(side(a.code, names.get(a.code, a.code), a, b)
                              for a, b in zip(theirs.by_jurisdiction, ours.by_jurisdiction)),
    )


# --- years: the comparison per fiscal year and over a multi-year window -----------------------------------

YEAR_LINES = ("provinces_need", "lma_diverted", "federal_cost")


@dataclass(frozen=True)
class YearRow:
    fiscal_year: str  # "" for the total over the window
    figures: tuple[tuple[str, str, str, str], ...]  # (line, a, b, b - a) for each of YEAR_LINES


@dataclass(frozen=True)
class YearsTable:
    labels: tuple[str, ...]
    rows: tuple[YearRow, ...]
    total: YearRow


def phase_in_years(*offers) -> list[str]:
    """The fiscal years of the offers' phase-ins, in order (offers None for the status quo are skipped)."""
    return sorted({step.fiscal_year for offer in offers if offer is not None for step in offer.phase_in.all()})


def year_options(offers, chosen: str) -> list:
    """The one year selector's options for these offers: each year of their phase-in (with the chosen year
    even when it is not one of them), after the default, the year at full scale."""
    years = phase_in_years(*offers)
    if chosen and chosen not in years:
        years = sorted([*years, chosen])
    return [YearOption(year, format_fiscal_year(year), year == chosen) for year in years]


def compare_years(a, b, effect_of) -> YearsTable | None:
    """A against B in each year of their phase-ins and over the whole window (None without a phase-in).

    ``effect_of(offer, fiscal_year)`` gives an offer's (or, for None, the status quo's) effect that year."""
    years = phase_in_years(a, b)
    if not years:
        return None
    write = numbers()
    totals = {side: {line: Decimal(0) for line in YEAR_LINES} for side in ("a", "b")}
    rows = []
    for year in years:
        sides = {"a": effect_of(a, year).national, "b": effect_of(b, year).national}
        figures = []
        for line in YEAR_LINES:
            value_a, value_b = getattr(sides["a"], line), getattr(sides["b"], line)
            totals["a"][line] += value_a
            totals["b"][line] += value_b
            figures.append((line, write.money(value_a), write.money(value_b), write.change(line, value_b - value_a)))
        rows.append(YearRow(year, tuple(figures)))
    total = YearRow("", tuple(
        (line, write.money(totals["a"][line]), write.money(totals["b"][line]),
         write.change(line, totals["b"][line] - totals["a"][line]))
        for line in YEAR_LINES
    ))
    return YearsTable(labels=tuple(str(LINE_LABELS[line]) for line in YEAR_LINES), rows=tuple(rows), total=total)
