"""Where the deal is, in money: what each offer would cost one government and whether it meets its
conditions; the fiscal side of scenarios and of the distance between the two sides' latest offers.

The cross-app composition lives here (``grants`` reads ``negotiations``, never the reverse): the
verdicts come from ``negotiations.verdicts``, the figures from the engine through ``grants.selectors``,
and every number is written by ``grants.presentation``.
"""

import datetime
from dataclasses import dataclass

from grants import fiscal, selectors
from grants.presentation import LINE_LABELS, format_percent, numbers
from negotiations.acceptance import Verdict
from negotiations.models import Jurisdiction, Negotiation, Treatment
from negotiations.offer_forms import program_field, treatment_field
from negotiations.verdicts import offer_terms, position_books


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
        liable = terms.shortfall_liability == "province" and treatment == Treatment.PARTICIPATES
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
            verdict=own, problem=problem,
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
        "max_grant": str(scenario.max_grant), "federal_amount": str(scenario.federal_amount),
        "provincial_amount": str(scenario.provincial_amount), "employer_amount": str(scenario.employer_amount),
        "scale_program": scenario.scale_program, "scale_amount": str(scenario.scale_amount),
        "employer_min_share": "" if scenario.employer_min_share is None else str(scenario.employer_min_share),
        "small_employer_gap_payer": scenario.small_employer_gap_payer,
        "shortfall_liability": scenario.shortfall_liability, "assumptions": scenario.assumptions,
    }
    for payer, program, amount in scenario.sources:
        query[program_field(payer, program)] = str(amount)
    for code, treatment in scenario.treatments.items():
        query[treatment_field(code)] = treatment
    for row, (year, fraction) in enumerate(scenario.phase_in):
        query[f"phase_in_year_{row}"] = year
        query[f"phase_in_fraction_{row}"] = str(fraction)
    return {name: value for name, value in query.items() if value != ""}
