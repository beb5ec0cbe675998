"""Reads for the calendar: a negotiation's meetings and key dates, each with when it last changed.

Two queries whatever the number of dates (one per kind); how often a row changed and when it last
did come from its history rows, counted by subqueries, so a calendar program can tell an update
(a higher SEQUENCE, a later LAST-MODIFIED) from a new event.
"""

import datetime
from dataclasses import dataclass

from django.db.models import Count, DateTimeField, IntegerField, Max, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from negotiations.models import KeyDate, Meeting, Negotiation


@dataclass(frozen=True)
class CalendarDate:
    """A meeting or a key date as a calendar shows it."""

    uid_key: str  # "meeting-<slug>" or "keydate-<slug>": stable whatever else changes
    kind: str  # "meeting", "deadline" or "milestone"
    kind_label: str
    date: datetime.date
    date_precision: str
    time: datetime.time | None
    title: str
    description: str
    location: str
    url: str
    last_modified: datetime.datetime | None
    sequence: int


def _history(model):
    rows = model.history.model.objects.filter(id=OuterRef("pk")).order_by().values("id")
    return {
        "last_modified": Subquery(rows.annotate(at=Max("history_date")).values("at"), output_field=DateTimeField()),
        # Each change after the creation is one more history row: SEQUENCE 0 for a row never changed.
        "changes": Coalesce(Subquery(rows.annotate(n=Count("history_id")).values("n"), output_field=IntegerField()), 1),
    }


def _meeting(meeting: Meeting) -> CalendarDate:
    return CalendarDate(
        uid_key=f"meeting-{meeting.slug}", kind="meeting", kind_label=str(meeting.get_kind_display()),
        date=meeting.date, date_precision=meeting.date_precision, time=None, title=meeting.title,
        description=meeting.outcome, location=meeting.location, url=meeting.get_absolute_url(),
        last_modified=meeting.last_modified, sequence=max(meeting.changes - 1, 0),
    )


def _key_date(key_date: KeyDate) -> CalendarDate:
    source = key_date.source
    description = key_date.note
    citation = _("Source: %(outlet)s, “%(title)s”") % {"outlet": source.outlet, "title": source.title}
    return CalendarDate(
        uid_key=f"keydate-{key_date.slug}", kind=key_date.kind, kind_label=str(key_date.get_kind_display()),
        date=key_date.date, date_precision=key_date.date_precision, time=key_date.time, title=key_date.title,
        description=f"{description}\n\n{citation}".strip(), location="",
        url=f"{reverse('negotiations:stances', args=[key_date.negotiation.slug])}",
        last_modified=key_date.last_modified, sequence=max(key_date.changes - 1, 0),
    )


def order_key(date: datetime.date, time: datetime.time | None, uid_key: str) -> tuple:
    """How dates are ordered: by day, then time (a date without one first), then by uid_key (kind and slug)."""
    return (date, time or datetime.time.min, uid_key)


def calendar_dates(*, negotiation: Negotiation, date_from: datetime.date | None = None,
                   limit: int | None = None) -> list[CalendarDate]:
    """The negotiation's meetings and key dates by date (from `date_from` on, at most `limit`): two queries."""
    meetings = Meeting.objects.filter(negotiation=negotiation).annotate(**_history(Meeting)).order_by("date", "pk")
    key_dates = (
        KeyDate.objects.filter(negotiation=negotiation).select_related("negotiation", "source")
        .annotate(**_history(KeyDate)).order_by("date", "pk")
    )
    if date_from is not None:
        meetings = meetings.filter(date__gte=date_from)
        key_dates = key_dates.filter(date__gte=date_from)
    if limit is not None:
        meetings, key_dates = meetings[:limit], key_dates[:limit]
    dates = [_meeting(meeting) for meeting in meetings] + [_key_date(key_date) for key_date in key_dates]
    dates.sort(key=lambda item: order_key(item.date, item.time, item.uid_key))
    return dates[:limit] if limit is not None else dates


def key_dates(*, negotiation: Negotiation) -> list[KeyDate]:
    """The negotiation's key dates, oldest first, with their sources (one query)."""
    return list(KeyDate.objects.filter(negotiation=negotiation).select_related("source").order_by("date", "pk"))
