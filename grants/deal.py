"""Where the deal is, in money: what each offer would cost one government and whether it meets its
conditions; the fiscal side of scenarios and of the distance between the two sides' latest offers.

The cross-app composition lives here (``grants`` reads ``negotiations``, never the reverse): the
verdicts come from ``negotiations.verdicts``, the figures from the engine through ``grants.selectors``,
and every number is written by ``grants.presentation``.
"""

import datetime
from dataclasses import dataclass

from grants import fiscal, selectors
from grants.presentation import numbers
from negotiations.acceptance import Verdict
from negotiations.models import Jurisdiction, Negotiation, Treatment
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
