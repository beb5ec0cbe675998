"""Reads for "who would sign": the positions of a negotiation with their conditions, and the verdicts
of the 13 P/Ts on an offer, a draft or a scenario (``negotiations.acceptance`` decides; this reads).

Two queries build a negotiation's ``PositionBook`` (the P/Ts, and every position joined to its
conditions); a page that shows verdicts for several offers of one negotiation reads it once.
"""

import datetime
from dataclasses import dataclass

from django.utils.translation import get_language, pgettext_lazy

from negotiations import record_cache
from negotiations.acceptance import (
    FAILS,
    MEETS,
    UNKNOWN,
    Government,
    PositionBook,
    Stated,
    Verdict,
    count_meets,
)
from negotiations.acceptance import (
    Condition as StatedCondition,
)
from negotiations.concessions import FEDERAL, PROVINCES, Round
from negotiations.models import Condition, Jurisdiction, Offer, Position
from negotiations.selectors.offers import _TERM_ROWS as TERM_ROWS
from negotiations.terms import SCALAR_FIELDS, OfferTerms

# A verdict in words, as every page, brief and download says it ("unknown" is a verdict's, not a stance's:
# the French differ, « inconnu » and « inconnue »).
VERDICT_LABELS = {
    MEETS: pgettext_lazy("verdict", "meets"),
    FAILS: pgettext_lazy("verdict", "fails"),
    UNKNOWN: pgettext_lazy("verdict", "unknown"),
}


@dataclass(frozen=True)
class Acceptance:
    """The 13 verdicts on one set of terms, on one date."""

    on: datetime.date
    verdicts: tuple[Verdict, ...]
    governments: tuple[Government, ...]

    @property
    def meets(self) -> int:
        return count_meets(self.verdicts)

    @property
    def total(self) -> int:
        return len(self.verdicts)

    @property
    def rows(self) -> list[tuple[Government, Verdict]]:
        return list(zip(self.governments, self.verdicts))

    @property
    def unknown(self) -> list[Government]:
        """The governments whose verdict is unknown."""
        return [government for government, verdict in self.rows if verdict.verdict == "unknown"]

    def of(self, code: str) -> Verdict | None:
        return next((v for v in self.verdicts if v.jurisdiction == code), None)


def position_book(negotiation_id: int, *, language: str | None = None) -> PositionBook:
    """The P/Ts and every position of the negotiation with its conditions (two queries), the conditions'
    words in ``language`` (the reader's by default) where they were written in it, else in English."""
    return position_books([negotiation_id], language=language)[negotiation_id]


def position_books(negotiation_ids, *, language: str | None = None) -> dict[int, PositionBook]:
    """``position_book`` for several negotiations, in the same two queries."""
    negotiation_ids = list(negotiation_ids)
    language = language or get_language()
    governments = tuple(
        Government(*row)
        for row in Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL)
        .order_by("order", "code").values_list("code", "name_en", "name_fr")
    )
    # One row per condition (and one for a position without any): a LEFT JOIN, ordered for grouping.
    rows = (
        Position.objects.filter(negotiation_id__in=negotiation_ids)
        .order_by("jurisdiction__code", "as_of", "pk", "checks__order", "checks__pk")
        .values_list("negotiation_id", "pk", "jurisdiction__code", "as_of", "stance", "conditions_en", "conditions_fr",
                     "checks__pk", "checks__kind", "checks__term", "checks__operator", "checks__value",
                     "checks__text_en", "checks__text_fr", "checks__statement__ref")
    )
    french = (language or "").startswith("fr")
    grouped: dict[int, dict] = {}
    for (negotiation_id, pk, code, as_of, stance, words_en, words_fr, check_pk, kind, term, operator, value,
         text_en, text_fr, ref) in rows:
        # The reader's language where it was written, else the English (as modeltranslation falls back).
        words, text = (words_fr or words_en, text_fr or text_en) if french else (words_en, text_en)
        entry = grouped.setdefault(pk, {"negotiation": negotiation_id, "code": code, "as_of": as_of, "stance": stance, "words": words,
                                        "conditions": []})
        if check_pk is not None:
            checkable = kind == Condition.Kind.CHECK
            entry["conditions"].append(StatedCondition(
                text=text or "", term=term if checkable else "", operator=operator if checkable else "",
                value=value if checkable else "", statement=ref,
            ))
    positions: dict[int, dict[str, list]] = {negotiation_id: {} for negotiation_id in negotiation_ids}
    for entry in grouped.values():
        conditions = tuple(entry["conditions"])
        if not conditions and (entry["words"] or "").strip():
            # Conditions stated only in the position's text: in words, never a guess.
            conditions = (StatedCondition(text=entry["words"].strip()),)
        stated = Stated(jurisdiction=entry["code"], stance=entry["stance"], conditions=conditions)
        positions[entry["negotiation"]].setdefault(entry["code"], []).append((entry["as_of"], stated))
    return {
        negotiation_id: PositionBook(governments=governments,
                                     positions={code: tuple(items) for code, items in by_code.items()})
        for negotiation_id, by_code in positions.items()
    }


def kept_position_book(negotiation_id: int, *, version: int | None = None) -> PositionBook:
    """The negotiation's position book, kept per process while the record stays at ``version`` (one per
    language: the conditions' words are the reader's)."""
    language = get_language()
    return record_cache.kept(version, ("position-book", negotiation_id, language),
                             lambda: position_book(negotiation_id, language=language))


def acceptance(terms: OfferTerms, *, book: PositionBook, on: datetime.date) -> Acceptance:
    return Acceptance(on=on, verdicts=book.judge(terms, on), governments=book.governments)


def offer_terms(offer: Offer) -> OfferTerms:
    """A saved offer's terms (its funding sources, treatments and phase-in prefetched)."""
    return OfferTerms(
        **{name: getattr(offer, name) for name in SCALAR_FIELDS},
        sources=tuple((row.payer, row.program, row.amount) for row in offer.funding_sources.all()),
        treatments=tuple((row.jurisdiction.code, row.treatment) for row in offer.treatments.all()),
        phase_in=tuple((row.fiscal_year, row.fraction) for row in offer.phase_in.all()),
    )


def offer_acceptance(offer: Offer, *, book: PositionBook | None = None) -> Acceptance:
    """The verdicts on a saved offer (its term rows prefetched) against the positions in force when it
    was tabled: two queries, none when ``book`` is given."""
    book = book or position_book(offer.negotiation_id)
    return acceptance(offer_terms(offer), book=book, on=offer.tabled_on)


def offer_with_term_rows(*, slug: str, negotiation_id: int | None = None) -> Offer | None:
    """One offer with the rows its terms are made of (four queries), or None for an unknown slug
    (or one of another negotiation than ``negotiation_id``)."""
    offers = Offer.objects.filter(slug=slug)
    if negotiation_id is not None:
        offers = offers.filter(negotiation_id=negotiation_id)
    return offers.prefetch_related(*TERM_ROWS).first()


@dataclass(frozen=True)
class OfferMark:
    slug: str
    title: str
    tabled_on: datetime.date


def offers_by_month(negotiation_id: int) -> dict[tuple[int, int], list[OfferMark]]:
    """The negotiation's offers by (year, month) tabled, oldest first (one query)."""
    marks: dict[tuple[int, int], list[OfferMark]] = {}
    for slug, title, tabled_on in (Offer.objects.filter(negotiation_id=negotiation_id)
                                   .order_by("tabled_on", "pk").values_list("slug", "title", "tabled_on")):
        marks.setdefault((tabled_on.year, tabled_on.month), []).append(OfferMark(slug, title, tabled_on))
    return marks


def offers_on_the_table(negotiation_id: int):
    """The negotiation's offers but the withdrawn: a withdrawn offer is no longer its side's, so it is not a round
    and never a side's latest offer (the concessions, the gap, the brief)."""
    return Offer.objects.filter(negotiation_id=negotiation_id).exclude(status=Offer.Status.WITHDRAWN)


def negotiation_rounds(negotiation_id: int):
    """The negotiation's offers as rounds of ``negotiations.concessions`` (oldest first), with the P/T codes:
    five queries. An offer tabled by the federal government is Ottawa's; any other, the P/Ts'. Only the offers on
    the table (``offers_on_the_table``) are rounds."""
    offers = list(offers_on_the_table(negotiation_id).order_by("tabled_on", "pk").prefetch_related(*TERM_ROWS, "tabled_by"))
    rounds = [
        Round(offer.slug, offer.title, offer.tabled_on,
              FEDERAL if any(j.kind == Jurisdiction.Kind.FEDERAL for j in offer.tabled_by.all()) else PROVINCES,
              offer_terms(offer))
        for offer in offers
    ]
    return rounds, offers
