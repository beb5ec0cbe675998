"""The fiscal effect of offers as read-only JSON (contract: shared design API.md, FISCAL_MODEL.md).

`GET /offers/{slug}/fiscal-effect` and `GET /offers/{a}/compare/{b}`: the twelve lines of the
engine, nationally and for each of the 13 provinces and territories, under the reader's
assumptions (employer participation, fiscal year). The engine (grants.fiscal) does the arithmetic;
this module only reads the query, calls the selectors and writes the lines.
"""

import datetime
from decimal import Decimal
from typing import Any, Literal

from django.http import Http404
from django.utils.translation import gettext as _
from ninja import Field, Query, Router, Schema
from ninja.errors import HttpError

from grants import deal, fiscal, presentation, scenarios
from grants.models import Scenario
from grants.selectors import MAX_PARTICIPATION_PLACES, fiscal_effect, offers_with_terms, scenario_from
from negotiations import record_cache
from negotiations.api import AcceptanceOut, Error, Fraction, Money, acceptance_json, fraction_json, money_json, no_offer
from negotiations.concessions import FEDERAL, PROVINCES
from negotiations.models import Jurisdiction, Negotiation, Offer
from negotiations.terms import OfferTerms, is_share

router = Router(tags=["fiscal effect"])


FISCAL_YEAR_PATTERN = r"^[0-9]{4}-[0-9]{2}$"


class ScenarioQuery(Schema):
    participation: Decimal = Field(
        Decimal(1), ge=0, le=1,
        description=f"Share of the expected employer money that employers put in (0 to 1), with at most "
                    f"{MAX_PARTICIPATION_PLACES} decimal places; more is 422.",
    )
    fiscal_year: str | None = Field(
        None, pattern=FISCAL_YEAR_PATTERN, examples=["2017-18"],
        description="The fiscal year, such as 2017-18; by default the first year at full scale.",
    )


class Assumptions(Schema):
    participation: Fraction
    fiscal_year: str | None = Field(description="The fiscal year used; null when the offer has no phase-in.")


class Lines(Schema):
    """The lines of FISCAL_MODEL.md, in its order."""

    trainees: int = Field(description="Grants at the maximum.")
    federal_cost: Money
    provincial_cost: Money
    employer_cost: Money
    lma_diverted: Money = Field(description="Taken out of the LMA (programs for people not eligible for EI).")
    lmda_redirected: Money = Field(description="Taken out of the LMDA (programs for EI clients).")
    provincial_new_money: Money = Field(description="New P/T money for the grant.")
    lma_allocation: Money = Field(description="The LMA before the grant.")
    lma_remaining: Money = Field(description="What is left of the LMA for its current programs.")
    provinces_need: Money = Field(description="New P/T money plus the backfill of the LMA diverted.")
    employer_shortfall: Money = Field(description="Employer money expected but not put in.")
    provincial_liability: Money = Field(description="The shortfall when the P/T is liable for it, else 0.")


class Coded(Schema):
    code: str = Field(description="The province's or territory's code.")


class JurisdictionLines(Lines, Coded):
    pass


class SmallEmployerGapOut(Schema):
    """FISCAL_MODEL's small_employer_gap: per trainee, when an employer pays only the minimum share."""

    employer_minimum: Money = Field(description="What the employer puts in per trainee at the minimum share.",
                                    examples=["2250.00"])
    gap: Money = Field(description="Per trainee, the expected employer amount less that minimum.", examples=["2750.00"])
    covered_by: Literal["federal", "provincial"] | None = Field(
        description="The government that covers the gap; null when nobody does (the grant is smaller by the gap).")


class YearOut(Schema):
    fiscal_year: str = Field(description="The fiscal year, such as 2017-18.", examples=["2017-18"])
    fraction: Fraction = Field(description="The share of the full scale applied that year.")
    national: Lines


class FiscalEffectOut(Schema):
    offer: str = Field(description="The offer's slug.")
    assumptions: Assumptions
    national: Lines
    by_jurisdiction: list[JurisdictionLines] = Field(description="The 13 provinces and territories.")
    small_employer_gap: SmallEmployerGapOut | None = Field(
        description="Null when the offer sets no minimum employer share.")
    years: list[YearOut] = Field(
        description="With a phase-in, the national lines of each fiscal year (empty without one).")
    multi_year_total: Lines | None = Field(description="With a phase-in, the years' lines added up; else null.")


class DifferenceOut(Schema):
    national: Lines
    by_jurisdiction: list[JurisdictionLines]


class ComparisonOut(Schema):
    assumptions: Assumptions = Field(description="As asked; each side echoes the fiscal year it used.")
    a: FiscalEffectOut
    b: FiscalEffectOut
    difference: DifferenceOut = Field(description="b − a, line by line.")


ERRORS = {404: Error, 409: Error, 422: Error}


def _offers(*slugs: str) -> list[Offer]:
    """The offers named, with their terms rows (five queries for any number), or 404 naming the first unknown."""
    found = {offer.slug: offer for offer in offers_with_terms().filter(slug__in=slugs)}
    for slug in slugs:
        if slug not in found:
            raise no_offer(slug)
    return [found[slug] for slug in slugs]


def _effect(offer: Offer, query: ScenarioQuery) -> fiscal.Effect:
    """The offer's effect; 422 naming the assumption out of range, 409 when its stored terms do not add up."""
    try:
        return fiscal_effect(offer, scenario_from(participation=query.participation, fiscal_year=query.fiscal_year))
    except fiscal.InvalidScenario as error:
        raise HttpError(422, f"{error.field}: {presentation.scenario_detail(error)}") from error
    except fiscal.InvalidTerms as error:
        raise HttpError(  # noqa: B904 (the message carries the cause)
            409, _("The terms of the offer '%(slug)s' do not add up, so they have no fiscal effect: %(problems)s")
            % {"slug": offer.slug, "problems": error}
        )


def _by_jurisdiction(many: tuple[fiscal.Lines, ...]) -> list[dict]:
    return [{"code": lines.code, **lines.as_dict()} for lines in many]


def _effect_json(name: str, effect: fiscal.Effect) -> dict:
    """The effect as FiscalEffectOut; ``name``, the offer's slug (a scenario's: scenario-ID)."""
    gap = effect.small_employer_gap
    total = effect.multi_year_total
    return {
        "offer": name,
        "assumptions": {"participation": effect.scenario.participation, "fiscal_year": effect.scenario.fiscal_year},
        "national": effect.national.as_dict(),
        "by_jurisdiction": _by_jurisdiction(effect.by_jurisdiction),
        "small_employer_gap": None if gap is None else {
            "employer_minimum": gap.employer_minimum, "gap": gap.gap,
            "covered_by": None if gap.covered_by is None else str(gap.covered_by.value),
        },
        "years": [{"fiscal_year": year.fiscal_year, "fraction": year.fraction, "national": year.national.as_dict()}
                  for year in effect.years],
        "multi_year_total": None if total is None else total.as_dict(),
    }


@router.get("/offers/{slug:slug}/fiscal-effect", response={200: FiscalEffectOut, **ERRORS},
            summary="An offer's fiscal effect")
def offer_fiscal_effect(request, slug: str, scenario: Query[ScenarioQuery]):
    """Who pays how much, out of which program, nationally and in each province and territory (seven queries;
    one when the record has not changed since the same question was last answered)."""

    def build():
        [offer] = _offers(slug)
        return _effect_json(offer.slug, _effect(offer, scenario))

    return record_cache.cached(("api-fiscal-effect", slug, scenario.participation, scenario.fiscal_year), build)


@router.get("/offers/{slug:a}/compare/{slug:b}", response={200: ComparisonOut, **ERRORS},
            summary="Two offers' fiscal effects and their difference")
def offers_compare(request, a: str, b: str, scenario: Query[ScenarioQuery]):
    """Two offers' fiscal effects under the same assumptions, and their difference b − a (seven queries)."""
    offer_a, offer_b = _offers(a, b)
    effect_a, effect_b = _effect(offer_a, scenario), _effect(offer_b, scenario)
    difference = fiscal.compare(effect_a, effect_b)
    return {
        "assumptions": {"participation": effect_a.scenario.participation, "fiscal_year": scenario.fiscal_year},
        "a": _effect_json(offer_a.slug, effect_a),
        "b": _effect_json(offer_b.slug, effect_b),
        "difference": {
            "national": difference.national.as_dict(),
            "by_jurisdiction": _by_jurisdiction(difference.by_jurisdiction),
        },
    }


# --- scenarios ------------------------------------------------------------------------------------


class ScenarioOut(Schema):
    id: int
    title: str
    negotiation: str = Field(description="The negotiation's slug.")
    as_of: datetime.date = Field(description="Who would sign is judged against the positions in force on this date.")
    author: str | None = Field(description="The full name of who saved it, or null: never a login name.")
    created: datetime.datetime
    terms: dict = Field(description="The terms, in the shape of an offer's terms.")
    participation: Fraction
    fiscal_year: str | None
    fiscal_effect: FiscalEffectOut | None = Field(description="Null when the terms do not add up.")
    acceptance: AcceptanceOut


def _scenario_terms_json(terms: OfferTerms, pt_codes: list[str]) -> dict:
    sources: dict[str, dict[str, str]] = {"federal": {}, "provincial": {}}
    for payer, program, amount in terms.sources:
        sources[payer][program] = money_json(amount)
    treatments = dict.fromkeys(pt_codes, "participates") | dict(terms.treatments)
    return {
        "max_grant": money_json(terms.max_grant),
        "split": {"federal": money_json(terms.federal_amount), "provincial": money_json(terms.provincial_amount),
                  "employer": money_json(terms.employer_amount)},
        "sources": sources,
        "scale": {"program": terms.scale_program, "amount": money_json(terms.scale_amount)},
        "employer_min_share": None if terms.employer_min_share is None else fraction_json(terms.employer_min_share),
        "small_employer_gap_payer": terms.small_employer_gap_payer or None,
        "shortfall_liability": terms.shortfall_liability,
        "treatments": treatments,
        "phase_in": [{"fiscal_year": year, "fraction": fraction_json(fraction)} for year, fraction in terms.phase_in],
        "assumptions": terms.assumptions,
    }


@router.get("/scenarios/{scenario_id}", response={200: ScenarioOut, 404: Error}, summary="A saved scenario")
def scenario(request, scenario_id: int):
    """A saved scenario (terms, participation, fiscal year), its fiscal effect and who would sign it.
    Scenarios are not offers: they never appear in /api/offers."""
    found = Scenario.objects.select_related("author", "negotiation").filter(pk=scenario_id).first()
    if found is None:
        raise Http404(_("No scenario has the id %(id)s.") % {"id": scenario_id})
    terms = scenarios.scenario_terms(found)
    try:
        effect = scenarios.scenario_effect(found)
    except (fiscal.InvalidTerms, fiscal.InvalidScenario):
        effect = None
    pt_codes = list(Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL)
                    .order_by("order", "code").values_list("code", flat=True))
    return {
        "id": found.pk, "title": found.title, "negotiation": found.negotiation.slug, "as_of": found.as_of,
        "author": found.author_name or None, "created": found.created,
        "terms": _scenario_terms_json(terms, pt_codes),
        "participation": found.participation, "fiscal_year": found.fiscal_year or None,
        "fiscal_effect": None if effect is None else _effect_json(f"scenario-{found.pk}", effect),
        "acceptance": acceptance_json(scenarios.scenario_acceptance(found)),
    }


# --- concessions --------------------------------------------------------------------------------------


def _term_json(term: str, value):
    """A term's value for JSON: money as a string with two decimals, a share as the offers give it ("0.15", not
    "0.150"), null for none."""
    if term == "phase_in":
        return [{"fiscal_year": year, "fraction": fraction_json(fraction)} for year, fraction in value]
    if isinstance(value, Decimal):
        return fraction_json(value) if is_share(term) else money_json(value)
    return value if value != "" else None


class RoundOut(Schema):
    offer: str
    tabled_on: datetime.date
    party: Literal["federal", "provinces"]
    value: Any


class TermRoundsOut(Schema):
    term: str
    rounds: list[RoundOut]


class ConcessionsOut(Schema):
    terms: list[TermRoundsOut]
    distance: dict = Field(description="The two sides' latest offers, the terms on which they differ, and how much "
                                       "more each P/T must find under Ottawa's latest offer than under its own "
                                       "counter-proposal (null parts until both sides have tabled an offer).")


@router.get("/negotiations/{slug:slug}/concessions", response={200: ConcessionsOut, 404: Error},
            summary="Concessions round by round")
def negotiation_concessions(request, slug: str):
    """Each term's value offer by offer (Ottawa's offers and the P/Ts' counter-proposals), and the distance
    between the latest offer of each side, term by term and in money."""
    negotiation = Negotiation.objects.filter(slug=slug).first()
    if negotiation is None:
        raise Http404(_("No negotiation has the slug '%(slug)s'.") % {"slug": slug})
    result, money = deal.money_distance(negotiation.pk)
    terms = [{"term": t.term, "rounds": [{"offer": v.offer, "tabled_on": v.tabled_on, "party": v.party,
                                          "value": _term_json(t.term, v.value)} for v in t.rounds]}
             for t in result.terms]
    distance = {
        "federal_offer": result.latest[FEDERAL].slug if FEDERAL in result.latest else None,
        "provinces_offer": result.latest[PROVINCES].slug if PROVINCES in result.latest else None,
        "terms": [{"term": g.term, "federal": _term_json(g.term, g.federal), "provinces": _term_json(g.term, g.provinces)}
                  for g in result.gaps],
        "national": None, "by_jurisdiction": [],
    }
    if money is not None and money.problem is None:
        def side(s):
            return {"provinces_need_federal_offer": money_json(s.federal_need),
                    "provinces_need_own_offer": money_json(s.provinces_need),
                    "more_to_find": money_json(s.more_to_find)}
        distance["national"] = side(money.national)
        distance["by_jurisdiction"] = [{"code": s.code, **side(s)} for s in money.by_jurisdiction]
    return {"terms": terms, "distance": distance}
