"""An offer's headline fiscal effect: the few figures a digest or a brief shows, in the reader's language.

For the country, or for one province or territory; computed by the engine (grants.selectors) and
written by the one formatter (grants.presentation).
"""

from dataclasses import dataclass

from grants import fiscal, selectors
from grants.presentation import Figure, format_line
from negotiations.models import Offer

HEADLINE_LINES = ("trainees", "federal_cost", "provincial_cost", "employer_cost", "provinces_need")


@dataclass(frozen=True)
class Headline:
    offer: Offer
    code: str | None  # None: the whole country
    figures: tuple[Figure, ...]
    problem: str = ""  # why no figure could be computed (terms that do not add up)


def offers_by_pk(pks) -> dict[int, Offer]:
    """Offers with every row their terms need (a fixed number of queries)."""
    return {offer.pk: offer for offer in selectors.offers_with_terms().filter(pk__in=list(pks))}


def headline(offer: Offer, *, code: str | None = None) -> Headline:
    """The headline figures of `offer` (its terms prefetched) nationally, or for P/T `code`."""
    try:
        effect = selectors.fiscal_effect(offer)
    except (fiscal.InvalidTerms, fiscal.InvalidScenario) as error:
        return Headline(offer=offer, code=code, figures=(), problem=str(error))
    lines = effect.national if code is None else effect.jurisdiction(code)
    return Headline(
        offer=offer, code=code,
        figures=tuple(Figure(line=line, text=format_line(line, getattr(lines, line))) for line in HEADLINE_LINES),
    )
