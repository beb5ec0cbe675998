"""One jurisdiction's dated record as a single timeline, newest first.

Positions, statements, meetings and offers live in four tables. Each kind is read
with one query (its related rows joined, its total counted in the same query by
a subquery), at most `offset + limit` rows per kind, and the four lists are merged
in Python; the related rows of the events shown are then prefetched. The number of
queries therefore depends on the kinds asked for and shown, never on the amount of data.
"""

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    Exists,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    TextChoices,
    prefetch_related_objects,
)
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from negotiations.models import (
    Jurisdiction,
    Meeting,
    Negotiation,
    Offer,
    Person,
    Position,
    Role,
    Stance,
    Statement,
)

QUOTE_TITLE_LENGTH = 80


class EventKind(TextChoices):
    POSITION = "position", _("position")
    STATEMENT = "statement", _("statement")
    MEETING = "meeting", _("meeting")
    OFFER = "offer", _("offer")


# Within one day, newest first reads best as consequence before cause:
# the position taken, what was said, the offer tabled, the meeting held.
_SAME_DAY_RANK = {EventKind.POSITION: 3, EventKind.STATEMENT: 2, EventKind.OFFER: 1, EventKind.MEETING: 0}


@dataclass(frozen=True)
class TimelineEvent:
    """One dated thing on a jurisdiction's timeline; `object` is the model instance, related rows loaded."""

    date: datetime.date
    date_precision: str
    kind: EventKind
    title: str
    url: str
    object: Any
    stance_changed: bool = False
    previous_stance: Stance | None = None

    @property
    def sort_key(self) -> tuple:
        return _sort_key(self.date, self.kind, self.object.pk)


def _sort_key(date: datetime.date, kind: EventKind, pk: int) -> tuple:
    return (date, _SAME_DAY_RANK[kind], pk)


def jurisdiction_timeline(
    *,
    jurisdiction: Jurisdiction,
    negotiation_slug: str | None = None,
    kinds: Iterable[str] | None = None,
    person_slug: str | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    offset: int = 0,
    limit: int = 20,
) -> tuple[list[TimelineEvent], int]:
    """The jurisdiction's events newest first, `limit` of them from `offset`, and how many match in all.

    - positions of the jurisdiction; a position whose stance differs from the jurisdiction's
      previous position on the same negotiation has `stance_changed` and `previous_stance`;
    - statements made on its behalf;
    - meetings it attended;
    - offers: for a province or territory, those it or the federal government tabled;
      for the federal government, every offer.

    `kinds` limits the kinds (values of `EventKind`; empty or None means all). `person_slug`
    keeps that person's statements and the meetings they attended (positions and offers have
    no person, so they drop out). Dates are inclusive. At most one query per kind asked for,
    plus one prefetch for the evidence of the positions shown and one for who tabled the offers shown.
    """
    if offset < 0 or limit < 1:
        raise ValueError("offset must be at least 0 and limit at least 1")
    wanted = set(kinds or EventKind.values)
    unknown = wanted - set(EventKind.values)
    if unknown:
        raise ValueError(f"unknown event kinds: {sorted(unknown)}")
    if person_slug:
        wanted &= {EventKind.STATEMENT, EventKind.MEETING}

    # (sort key, kind, row) of each kind's newest `offset + limit` rows.
    candidates: list[tuple[tuple, EventKind, Any]] = []
    total = 0
    for kind, spec in _KINDS.items():
        if kind not in wanted:
            continue
        queryset = _filter_common(
            spec.rows(jurisdiction, person_slug), spec.date_field, negotiation_slug, date_from, date_to
        )
        rows = list(
            queryset.annotate(matching=_CountOf(queryset.order_by().values("pk")))
            .order_by(f"-{spec.date_field}", "-pk")[: offset + limit]
        )
        # Every row carries the count of all matching rows; no row means none matched.
        total += rows[0].matching if rows else 0
        candidates.extend((_sort_key(getattr(row, spec.date_field), kind, row.pk), kind, row) for row in rows)
    candidates.sort(key=lambda candidate: candidate[0], reverse=True)
    # perf: events (their titles and links) are made, and their related rows (a position's
    # evidence, who tabled an offer) read, for the rows shown only, not for every kind's
    # `offset + limit` candidates, most of which the merge drops (bench/run "record cache off:
    # timeline ON").
    shown_rows = [(kind, row) for _key, kind, row in candidates[offset: offset + limit]]
    for kind, row in shown_rows:
        if kind == EventKind.POSITION:
            # perf: a position's jurisdiction is the one asked for: given, not joined to every candidate.
            row.jurisdiction = jurisdiction
    shown = [_KINDS[kind].event(row) for kind, row in shown_rows]
    for kind, lookups in _SHOWN_PREFETCH.items():
        prefetch_related_objects([event.object for event in shown if event.kind == kind], *lookups())
    return shown, total


class _CountOf(Subquery):
    """How many rows a queryset matches.

    It refers to no outer row, so the database counts once per query (an index-only count), and
    the rows themselves are read newest first through an index and stop at the limit. A window
    count instead makes the database join and hold every matching row before it can stop.
    """

    template = "(SELECT COUNT(*) FROM (%(subquery)s) counted)"
    output_field = IntegerField()


def _filter_common(queryset: QuerySet, date_field: str, negotiation_slug, date_from, date_to) -> QuerySet:
    if negotiation_slug:
        queryset = queryset.filter(negotiation__slug=negotiation_slug)
    if date_from:
        queryset = queryset.filter(**{f"{date_field}__gte": date_from})
    if date_to:
        queryset = queryset.filter(**{f"{date_field}__lte": date_to})
    return queryset


def _own_fields(model) -> list[str]:
    return [field.name for field in model._meta.concrete_fields]


# perf: of the rows joined to each candidate, only the columns an event shows (a title, a name and
# what its link needs), not whole offers, meetings and sources: wide rows, most of them for candidates
# the merge drops (bench/run "record cache off: timeline ON"). The events' own rows stay whole.
_POSITION_RELATED = (
    "negotiation__slug", "negotiation__title",
    "triggered_by_offer__slug", "triggered_by_offer__title", "triggered_by_meeting__slug", "triggered_by_meeting__title",
)
_STATEMENT_RELATED = (
    "speaker__slug", "speaker__name", "source__slug", "source__outlet", "source__title", "source__url",
    "meeting__slug", "meeting__title",
)


def _positions(jurisdiction: Jurisdiction, person_slug: str | None) -> QuerySet:
    previous = Position.objects.filter(
        negotiation=OuterRef("negotiation"), jurisdiction=OuterRef("jurisdiction"), as_of__lt=OuterRef("as_of")
    ).order_by("-as_of", "-pk")
    return (
        Position.objects.filter(jurisdiction=jurisdiction)
        .select_related("negotiation", "triggered_by_offer", "triggered_by_meeting")
        .only(*_own_fields(Position), *_POSITION_RELATED)
        .annotate(previous_stance=Subquery(previous.values("stance")[:1]))
    )


def _statements(jurisdiction: Jurisdiction, person_slug: str | None) -> QuerySet:
    statements = (
        Statement.objects.filter(jurisdiction=jurisdiction).select_related("speaker", "source", "meeting")
        .only(*_own_fields(Statement), *_STATEMENT_RELATED)
    )
    if person_slug:
        statements = statements.filter(speaker__slug=person_slug)
    return statements


def _meetings(jurisdiction: Jurisdiction, person_slug: str | None) -> QuerySet:
    meetings = Meeting.objects.filter(jurisdictions=jurisdiction)
    if person_slug:
        meetings = meetings.filter(participants__slug=person_slug)
    return meetings


def _offers(jurisdiction: Jurisdiction, person_slug: str | None) -> QuerySet:
    offers = Offer.objects.all()
    if jurisdiction.is_federal:
        return offers
    # Exists, not a join: an offer tabled by both would otherwise come back twice.
    # perf: two Exists, one per tabler, not one over `jurisdiction = j OR jurisdiction.kind = federal`:
    # that OR needs the jurisdiction joined to every tabler row, and counting the matching offers
    # (a thousand at scale 100) hashed the whole join: the offers query went from 2.4 to 1.0 ms
    # (EXPLAIN ANALYZE, planning included; bench/run "record cache off: timeline ON").
    tablers = Offer.tabled_by.through.objects.filter(offer=OuterRef("pk"))
    return offers.filter(
        Exists(tablers.filter(jurisdiction=jurisdiction))
        | Exists(tablers.filter(jurisdiction__kind=Jurisdiction.Kind.FEDERAL))
    )


def _position_event(position: Position) -> TimelineEvent:
    previous = Stance(position.previous_stance) if position.previous_stance else None
    return TimelineEvent(
        date=position.as_of,
        date_precision=position.date_precision,
        kind=EventKind.POSITION,
        title=gettext("%(jurisdiction)s: %(stance)s (%(negotiation)s)") % {
            "jurisdiction": position.jurisdiction.name,
            "stance": position.get_stance_display(),
            "negotiation": position.negotiation.title,
        },
        url=reverse(
            "negotiations:stance_cell",
            args=[position.negotiation.slug, position.jurisdiction.code, position.as_of.isoformat()[:7]],
        ),
        object=position,
        stance_changed=previous is not None and previous != position.stance,
        previous_stance=previous,
    )


def _statement_event(statement: Statement) -> TimelineEvent:
    quote = statement.quote
    if len(quote) > QUOTE_TITLE_LENGTH:
        quote = quote[: QUOTE_TITLE_LENGTH - 1].rstrip() + "…"
    return TimelineEvent(
        date=statement.date,
        date_precision=statement.date_precision,
        kind=EventKind.STATEMENT,
        title=gettext("%(speaker)s: “%(quote)s”") % {"speaker": statement.speaker.name, "quote": quote},
        # A statement has no page of its own; it is shown on its source's page.
        url=f"{statement.source.get_absolute_url()}#statement-{statement.pk}",
        object=statement,
    )


def _meeting_event(meeting: Meeting) -> TimelineEvent:
    return TimelineEvent(
        date=meeting.date,
        date_precision=meeting.date_precision,
        kind=EventKind.MEETING,
        title=meeting.title,
        url=meeting.get_absolute_url(),
        object=meeting,
    )


def _offer_event(offer: Offer) -> TimelineEvent:
    return TimelineEvent(
        date=offer.tabled_on,
        date_precision=offer.date_precision,
        kind=EventKind.OFFER,
        title=offer.title,
        url=offer.get_absolute_url(),
        object=offer,
    )


@dataclass(frozen=True)
class _KindSpec:
    rows: Callable[[Jurisdiction, str | None], QuerySet]
    date_field: str
    event: Callable[[Any], TimelineEvent]


# What the template reads of each kind's related rows, read for the events shown (one query each).
_SHOWN_PREFETCH = {
    EventKind.POSITION: lambda: (Prefetch("evidence", queryset=Statement.objects.select_related("speaker", "source").only(
        *_own_fields(Statement), *(name for name in _STATEMENT_RELATED if not name.startswith("meeting__"))
    )),),
    EventKind.OFFER: lambda: (Prefetch("tabled_by", queryset=Jurisdiction.objects.only("code", "name", "order")),),
}

_KINDS = {
    EventKind.POSITION: _KindSpec(_positions, "as_of", _position_event),
    EventKind.STATEMENT: _KindSpec(_statements, "date", _statement_event),
    EventKind.MEETING: _KindSpec(_meetings, "date", _meeting_event),
    EventKind.OFFER: _KindSpec(_offers, "tabled_on", _offer_event),
}


def current_position(*, jurisdiction: Jurisdiction, negotiation: Negotiation | Any | None) -> Position | None:
    """The jurisdiction's latest position on the negotiation (one query), or None.

    `negotiation` is the negotiation or a row of it with its `pk`. The position comes alone: what
    triggered it is not read (the page's current stance does not show it)."""
    if negotiation is None:
        return None
    # perf: no offer or meeting joined (wide rows the page does not show; bench/run "record cache off: timeline ON").
    return (
        Position.objects.filter(jurisdiction=jurisdiction, negotiation_id=negotiation.pk)
        .order_by("-as_of", "-pk")
        .first()
    )


def people_on_timeline(*, jurisdiction: Jurisdiction) -> QuerySet[Person]:
    """People a timeline can be filtered by: who spoke for the jurisdiction, held a role in it,
    or attended a meeting it attended (one query)."""
    # perf: three uncorrelated `IN` subqueries, each read once, not three Exists correlated with every
    # person: 1.2 -> 0.9 ms with planning (EXPLAIN ANALYZE at scale 100; bench/run "record cache off: timeline ON").
    return Person.objects.filter(
        Q(pk__in=Statement.objects.filter(jurisdiction=jurisdiction).values("speaker_id"))
        | Q(pk__in=Role.objects.filter(jurisdiction=jurisdiction).values("person_id"))
        | Q(pk__in=Meeting.participants.through.objects.filter(meeting__jurisdictions=jurisdiction).values("person_id"))
    ).order_by("name")


def negotiation_timeline(*, negotiation: Negotiation, limit: int = 50) -> list[TimelineEvent]:
    """Every government's events on one negotiation, newest first, at most `limit` of them.

    The same events as a jurisdiction's timeline (positions with their stance change, statements,
    meetings, offers), read for the negotiation instead: one query per kind plus the timeline's
    two prefetches, whatever the amount of data.
    """
    previous = Position.objects.filter(
        negotiation=OuterRef("negotiation"), jurisdiction=OuterRef("jurisdiction"), as_of__lt=OuterRef("as_of")
    ).order_by("-as_of", "-pk")
    rows = {
        EventKind.POSITION: Position.objects.filter(negotiation=negotiation)
        .select_related("negotiation", "jurisdiction", "triggered_by_offer", "triggered_by_meeting")
        .prefetch_related(Prefetch("evidence", queryset=Statement.objects.select_related("speaker", "source")))
        .annotate(previous_stance=Subquery(previous.values("stance")[:1])),
        EventKind.STATEMENT: Statement.objects.filter(negotiation=negotiation)
        .select_related("speaker", "source", "meeting", "jurisdiction"),
        EventKind.MEETING: Meeting.objects.filter(negotiation=negotiation),
        EventKind.OFFER: Offer.objects.filter(negotiation=negotiation).prefetch_related(
            Prefetch("tabled_by", queryset=Jurisdiction.objects.only("code", "name", "order"))
        ),
    }
    events = []
    for kind, spec in _KINDS.items():
        queryset = rows[kind].order_by(f"-{spec.date_field}", "-pk")[:limit]
        events.extend(spec.event(row) for row in queryset)
    events.sort(key=lambda event: event.sort_key, reverse=True)
    return events[:limit]


def event_of(kind: EventKind, row: Any) -> TimelineEvent:
    """The timeline event for one row of the kind's model (its related rows loaded as the timeline does)."""
    return _KINDS[kind].event(row)
