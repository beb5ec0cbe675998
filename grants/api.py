"""The fiscal effect of offers as read-only JSON (contract: shared design API.md, FISCAL_MODEL.md).

`GET /offers/{slug}/fiscal-effect` and `GET /offers/{a}/compare/{b}`: the twelve lines of the
engine, nationally and for each of the 13 provinces and territories, under the reader's
assumptions (employer participation, fiscal year). The engine (grants.fiscal) does the arithmetic;
this module only reads the query, calls the selectors and writes the lines.
"""

from decimal import Decimal

from django.http import Http404
from ninja import Field, Query, Router, Schema
from ninja.errors import HttpError

from grants import fiscal
from grants.selectors import MAX_PARTICIPATION_PLACES, fiscal_effect, offers_with_terms, scenario_from
from negotiations import record_cache
from negotiations.api import Error, Fraction, Money
from negotiations.models import Offer

router = Router(tags=["fiscal effect"])


class ScenarioQuery(Schema):
    participation: Decimal = Field(
        Decimal(1), ge=0, le=1,
        description=f"Share of the expected employer money that employers put in (0 to 1), with at most "
                    f"{MAX_PARTICIPATION_PLACES} decimal places; more is 422.",
    )
    fiscal_year: str | None = Field(
        None, pattern=r"^[0-9]{4}-[0-9]{2}$", examples=["2017-18"],
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


class FiscalEffectOut(Schema):
    offer: str = Field(description="The offer's slug.")
    assumptions: Assumptions
    national: Lines
    by_jurisdiction: list[JurisdictionLines] = Field(description="The 13 provinces and territories.")


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
            raise Http404(f"No offer has the slug '{slug}'.")
    return [found[slug] for slug in slugs]


def _effect(offer: Offer, query: ScenarioQuery) -> fiscal.Effect:
    """The offer's effect; 422 naming the assumption out of range, 409 when its stored terms do not add up."""
    try:
        return fiscal_effect(offer, scenario_from(participation=query.participation, fiscal_year=query.fiscal_year))
    except fiscal.InvalidScenario as error:
        raise HttpError(422, f"{error.field}: {error.message}") from error
    except fiscal.InvalidTerms as error:
        raise HttpError(  # noqa: B904 (the message carries the cause)
            409, f"The terms of the offer '{offer.slug}' do not add up, so they have no fiscal effect: {error}"
        )


def _by_jurisdiction(many: tuple[fiscal.Lines, ...]) -> list[dict]:
    return [{"code": lines.code, **lines.as_dict()} for lines in many]


def _effect_json(offer: Offer, effect: fiscal.Effect) -> dict:
    return {
        "offer": offer.slug,
        "assumptions": {"participation": effect.scenario.participation, "fiscal_year": effect.scenario.fiscal_year},
        "national": effect.national.as_dict(),
        "by_jurisdiction": _by_jurisdiction(effect.by_jurisdiction),
    }


@router.get("/offers/{slug:slug}/fiscal-effect", response={200: FiscalEffectOut, **ERRORS},
            summary="An offer's fiscal effect")
def offer_fiscal_effect(request, slug: str, scenario: Query[ScenarioQuery]):
    """Who pays how much, out of which program, nationally and in each province and territory (seven queries;
    one when the record has not changed since the same question was last answered)."""

    def build():
        [offer] = _offers(slug)
        return _effect_json(offer, _effect(offer, scenario))

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
        "a": _effect_json(offer_a, effect_a),
        "b": _effect_json(offer_b, effect_b),
        "difference": {
            "national": difference.national.as_dict(),
            "by_jurisdiction": _by_jurisdiction(difference.by_jurisdiction),
        },
    }
