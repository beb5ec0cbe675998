"""What a briefing says, read from the record: one value a page, a PDF and a Word document all show.

A negotiation's brief covers every government; a jurisdiction's brief covers that government in one
negotiation. Each part is read with a fixed number of queries whatever the size of the record (the
positions of one negotiation, the two latest offers, a bounded number of events and quotes), the
offers' fiscal effect is computed by the engine (grants.headline), and who would sign each of them
by the verdicts of issue 17 (negotiations.selectors.verdicts, one position book for both offers).
"""

import datetime
from dataclasses import dataclass

from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from config.numbers import colon, format_date
from grants.headline import Headline, headline, offers_by_pk
from negotiations import calendar_dates, timeline
from negotiations.acceptance import FAILS, MEETS, UNKNOWN, PositionBook
from negotiations.models import Jurisdiction, KeyDate, Negotiation, Offer, Position, Stance, Statement
from negotiations.selectors.verdicts import Acceptance, offer_acceptance, offers_on_the_table, position_book

# A brief is read in two minutes: the latest changes and quotes only (the pages hold the rest). Fewer
# lines also make the PDF faster to lay out (perf: bench/brief.py, briefing.pdf; see the README).
CHANGES = 8
QUOTES = 3
DEFAULT_LOOKBACK = datetime.timedelta(days=30)


@dataclass(frozen=True)
class StanceRow:
    """One government's current stance; governments that say the same thing since the same day share a row."""

    jurisdictions: tuple[Jurisdiction, ...]
    stance: str
    stance_label: str
    since: datetime.date  # the first day of the current stance (its earliest position in the latest run)
    as_of: datetime.date  # the latest position
    summary: str
    conditions: str


@dataclass(frozen=True)
class SignRow:
    """P/Ts with the same verdict on an offer, for the same reasons: which, the verdict, and for those
    that fail, the words of the conditions the offer fails (for those unknown, of those in words only)."""

    codes: tuple[str, ...]
    verdict: str
    conditions: tuple[str, ...]

    @property
    def reasons(self) -> str:
        """The conditions on one line, sentence after sentence (each with its full stop; joined with "; "
        they read "revenus).; Plus de souplesse")."""
        return " ".join(text if text.endswith((".", "!", "?", "…")) else f"{text}."
                        for text in (condition.strip() for condition in self.conditions))


@dataclass(frozen=True)
class OfferRow:
    side: str
    offer: Offer
    tabled_by: str
    headline: Headline
    acceptance: Acceptance
    signs: list[SignRow]  # the P/Ts' verdicts, grouped (only the brief's P/T in a jurisdiction's brief)


_VERDICT_ORDER = (MEETS, FAILS, UNKNOWN)


def _signs(acceptance: Acceptance, code: str | None) -> list[SignRow]:
    """The verdicts as a few lines: P/Ts that meet, then those that fail (grouped by the conditions they
    fail), then those unknown; for a P/T's brief (``code``) only its own verdict, with its reasons."""
    grouped: dict[tuple, list[str]] = {}
    for government, verdict in acceptance.rows:
        if code is not None and government.code != code:
            continue
        if verdict.verdict == FAILS:
            conditions = tuple(failure.condition.text for failure in verdict.failing)
        elif verdict.verdict == UNKNOWN and code is not None:
            conditions = tuple(condition.text for condition in verdict.in_words)
        else:
            conditions = ()
        grouped.setdefault((verdict.verdict, conditions), []).append(government.code)
    rows = [SignRow(codes=tuple(codes), verdict=verdict, conditions=conditions)
            for (verdict, conditions), codes in grouped.items()]
    return sorted(rows, key=lambda row: _VERDICT_ORDER.index(row.verdict))


@dataclass(frozen=True)
class ChangeLine:
    """One change as the brief words it: "Statement:" and its title, or a new stance as "Ontario:" and "moves from
    opposes to conditional"; and the language of those words where it is not the reader's (a statement's words
    keep theirs; "" for the reader's)."""

    date: datetime.date
    label: str
    text: str
    language: str


def _change_line(event: timeline.TimelineEvent) -> ChangeLine:
    if event.stance_changed:
        # The government by its name, before a colon ("Ontario : passe de…"): a code is no word of a sentence,
        # and a name cannot take its French article (l'Ontario, le Québec) from a placeholder.
        return ChangeLine(date=event.date, label=colon(event.object.jurisdiction.name), language="",
                          text=_("moves from %(old)s to %(new)s") % {
                              "old": event.previous_stance.label, "new": event.object.get_stance_display()})
    return ChangeLine(date=event.date, label=colon(capfirst(str(event.kind.label))), text=event.title,
                      language=event.object.language if event.kind == timeline.EventKind.STATEMENT else "")


@dataclass(frozen=True)
class Brief:
    negotiation: Negotiation
    jurisdiction: Jurisdiction | None
    since: datetime.date
    latest_event: datetime.date | None
    stances: list[StanceRow]
    offers: list[OfferRow]
    changes: list[timeline.TimelineEvent]
    more_changes: bool
    quotes: list[Statement]
    key_dates: list[KeyDate]

    @property
    def title(self) -> str:
        """The negotiation, after the jurisdiction's name in a jurisdiction's brief ("Ontario : …" in French)."""
        if self.jurisdiction is None:
            return self.negotiation.title
        return f"{colon(self.jurisdiction.name)} {self.negotiation.title}"

    @property
    def headings(self) -> dict[str, str]:
        """The sections' headings in the reader's language: the page, the PDF and the Word document all take
        them from here, so that each says the same thing in all three."""
        return {
            "stances": _("Where it stands") if self.jurisdiction else _("Where each government stands"),
            "offers": _("The latest offer of each side"),
            "sign": _("Who would sign"),
            "changes": _("What changed since %(since)s") % {"since": format_date(self.since)},
            "quotes": _("Key quotes"),
            "dates": _("Key dates"),
        }

    @property
    def change_lines(self) -> list[ChangeLine]:
        """The changes as each output words them (a new stance: "Ontario:" and "moves from opposes to conditional")."""
        return [_change_line(event) for event in self.changes]

    @property
    def effect_caption(self) -> str:
        """What the offers' figures are for, in the same words on the page, in the PDF and in Word: a P/T by its
        name before a colon ("Ontario : incidence financière…"; no placeholder gives "pour l'Ontario", "pour le
        Québec"), or the whole country."""
        territory = figures_for(self.jurisdiction)
        if territory is None:
            return _("Fiscal effect for the country, per year at full scale")
        return _("%(name)s: fiscal effect per year at full scale") % {"name": territory.name}


def figures_for(jurisdiction: Jurisdiction | None) -> Jurisdiction | None:
    """The P/T whose own figures a brief's offers show, or None for the whole country's (in the negotiation's
    brief and in the federal government's). The headline's code and the caption over it both follow it."""
    return None if jurisdiction is None or jurisdiction.is_federal else jurisdiction


def _stances(negotiation: Negotiation, jurisdiction: Jurisdiction | None) -> list[StanceRow]:
    positions = Position.objects.filter(negotiation=negotiation).select_related("jurisdiction")
    if jurisdiction is not None:
        positions = positions.filter(jurisdiction=jurisdiction)
    rows: dict[int, StanceRow] = {}
    # Newest first per jurisdiction: the first position is the current stance; older ones with the
    # same stance push its "since" back, the first different one ends the run.
    ended: set[int] = set()
    for position in positions.order_by("jurisdiction__order", "jurisdiction_id", "-as_of", "-pk"):
        key = position.jurisdiction_id
        current = rows.get(key)
        if current is None:
            rows[key] = StanceRow(
                jurisdictions=(position.jurisdiction,), stance=position.stance,
                stance_label=str(Stance(position.stance).label), since=position.as_of, as_of=position.as_of,
                summary=position.summary, conditions=position.conditions,
            )
        elif key not in ended and position.stance == current.stance:
            rows[key] = StanceRow(**{**current.__dict__, "since": position.as_of})
        else:
            ended.add(key)
    # A bloc (twelve P/Ts with one stance and one summary since one day) reads as one line.
    grouped: dict[tuple, StanceRow] = {}
    for row in rows.values():
        key = (row.stance, row.since, row.summary, row.conditions)
        if key in grouped:
            row = StanceRow(**{**grouped[key].__dict__,
                               "jurisdictions": grouped[key].jurisdictions + row.jurisdictions})
        grouped[key] = row
    return list(grouped.values())


def _latest_offers(negotiation: Negotiation, code: str | None) -> list[OfferRow]:
    federal = Offer.tabled_by.through.objects.filter(
        offer=OuterRef("pk"), jurisdiction__kind=Jurisdiction.Kind.FEDERAL)
    provincial = Offer.tabled_by.through.objects.filter(
        offer=OuterRef("pk")).exclude(jurisdiction__kind=Jurisdiction.Kind.FEDERAL)
    offers = offers_on_the_table(negotiation.pk).order_by("-tabled_on", "-pk")  # a withdrawn offer is no side's latest
    latest = {
        "federal": offers.filter(Exists(federal)).values_list("pk", flat=True).first(),
        "provincial": offers.filter(Exists(provincial)).values_list("pk", flat=True).first(),
    }
    loaded = offers_by_pk(pk for pk in latest.values() if pk)
    book: PositionBook | None = position_book(negotiation.pk) if loaded else None  # two queries for both
    rows = []
    for side, pk in latest.items():
        if pk is None:
            continue
        offer = loaded[pk]
        acceptance = offer_acceptance(offer, book=book)
        rows.append(OfferRow(
            side=side, offer=offer, tabled_by=", ".join(j.code for j in offer.tabled_by.all()),
            headline=headline(offer, code=code), acceptance=acceptance, signs=_signs(acceptance, code),
        ))
    return rows


def _changes(negotiation: Negotiation, jurisdiction: Jurisdiction | None, since: datetime.date):
    if jurisdiction is None:
        events = [event for event in timeline.negotiation_timeline(negotiation=negotiation, limit=CHANGES + 1)
                  if event.date >= since]
    else:
        events, _total = timeline.jurisdiction_timeline(
            jurisdiction=jurisdiction, negotiation_slug=negotiation.slug, date_from=since, limit=CHANGES + 1)
    return events[:CHANGES], len(events) > CHANGES


def _quotes(negotiation: Negotiation, jurisdiction: Jurisdiction | None) -> list[Statement]:
    statements = Statement.objects.filter(negotiation=negotiation, retracted=False).select_related(
        "speaker", "jurisdiction", "source")
    if jurisdiction is not None:
        statements = statements.filter(jurisdiction=jurisdiction)
    return list(statements.order_by("-date", "-pk")[:QUOTES])


def latest_event_date(negotiation: Negotiation) -> datetime.date | None:
    """The newest date on the negotiation's record (one query per kind)."""
    dates = [
        Position.objects.filter(negotiation=negotiation).order_by("-as_of").values_list("as_of", flat=True).first(),
        Statement.objects.filter(negotiation=negotiation).order_by("-date").values_list("date", flat=True).first(),
        Offer.objects.filter(negotiation=negotiation).order_by("-tabled_on").values_list("tabled_on", flat=True).first(),
    ]
    dates = [date for date in dates if date]
    return max(dates) if dates else None


def brief(*, negotiation: Negotiation, jurisdiction: Jurisdiction | None = None,
          since: datetime.date | None = None) -> Brief:
    """The brief of `negotiation` (for `jurisdiction`, or every government), changes counted from `since`
    (by default a month before the newest event on record)."""
    latest = latest_event_date(negotiation)
    if since is None:
        since = (latest or timezone.localdate()) - DEFAULT_LOOKBACK
    territory = figures_for(jurisdiction)
    code = territory.code if territory else None
    changes, more = _changes(negotiation, jurisdiction, since)
    return Brief(
        negotiation=negotiation, jurisdiction=jurisdiction, since=since, latest_event=latest,
        stances=_stances(negotiation, jurisdiction),
        offers=_latest_offers(negotiation, code),
        changes=changes, more_changes=more,
        quotes=_quotes(negotiation, jurisdiction),
        key_dates=calendar_dates.key_dates(negotiation=negotiation),
    )
