"""Reads for the record pages: meetings, people, sources, statements.

Each selector owns its joins, so a page costs the same number of queries whatever the
amount of data; the counts are noted on each function and checked by the tests.
"""

import datetime

from django.db.models import Count, IntegerField, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce

from negotiations.models import (
    Jurisdiction,
    Meeting,
    Negotiation,
    Offer,
    Person,
    Position,
    Role,
    Source,
    SourcePassage,
    Statement,
)

_CODES_ONLY = Jurisdiction.objects.only("code", "name", "order")


def _roles():
    return Role.objects.select_related("jurisdiction").order_by("person_id", "-start", "-pk")


def _role_on(roles: list[Role], day: datetime.date) -> Role | None:
    """The role held on `day` (roles newest first); an open end or start counts as covering it."""
    for role in roles:
        if (role.start is None or role.start <= day) and (role.end is None or day <= role.end):
            return role
    return None


def _statements():
    return Statement.objects.select_related("speaker", "jurisdiction", "source", "meeting", "negotiation")


def _offers():
    return Offer.objects.select_related("negotiation").prefetch_related(Prefetch("tabled_by", queryset=_CODES_ONLY))


def meeting_list() -> QuerySet[Meeting]:
    """Meetings newest first with the jurisdictions present (two queries per page, plus the count)."""
    return Meeting.objects.select_related("negotiation").prefetch_related(
        Prefetch("jurisdictions", queryset=_CODES_ONLY)
    )


def meeting_detail(*, slug: str) -> Meeting | None:
    """A meeting with everything its page shows, in nine queries.

    Each participant gets `.role_then`, the role they held on the meeting's date.
    """
    meeting = (
        Meeting.objects.select_related("negotiation")
        .prefetch_related(
            Prefetch("participants", queryset=Person.objects.prefetch_related(Prefetch("roles", queryset=_roles()))),
            "jurisdictions",
            Prefetch("statements", queryset=_statements()),
            Prefetch("offers", queryset=_offers()),
            "sources",
            "passages",
            Prefetch("positions_triggered", queryset=Position.objects.select_related("jurisdiction")),
        )
        .filter(slug=slug)
        .first()
    )
    if meeting is not None:
        for person in meeting.participants.all():
            person.role_then = _role_on(list(person.roles.all()), meeting.date)
        # Each source with the passages of it that support the meeting's outcome, shown next to its link.
        for source in meeting.sources.all():
            source.supporting = [p.passage for p in meeting.passages.all() if p.source_id == source.pk]
    return meeting


def person_list() -> QuerySet[Person]:
    """People by name with their roles and how many statements they made (three queries per page)."""
    return Person.objects.annotate(statement_count=Count("statements")).order_by("name", "pk").prefetch_related(
        Prefetch("roles", queryset=_roles())
    )


def person_detail(*, slug: str) -> Person | None:
    """A person with their roles (oldest first), statements (newest first) and meetings: four queries."""
    return (
        Person.objects.prefetch_related(
            Prefetch("roles", queryset=Role.objects.select_related("jurisdiction").order_by("start", "pk")),
            Prefetch("statements", queryset=_statements()),
            Prefetch("meetings", queryset=Meeting.objects.select_related("negotiation")),
        )
        .filter(slug=slug)
        .first()
    )


def _count_of(model, field: str):
    """A subquery counting rows of `model` whose `field` is the outer source: no row multiplication."""
    rows = model.objects.filter(**{field: OuterRef("pk")}).order_by().values(field)
    return Coalesce(Subquery(rows.annotate(n=Count("pk")).values("n"), output_field=IntegerField()), 0)


def source_list() -> QuerySet[Source]:
    """Sources newest first, each with how many records cite it (one query per page, plus the count)."""
    return Source.objects.defer("text").annotate(
        meeting_count=_count_of(Meeting.sources.through, "source"),
        statement_count=_count_of(Statement, "source"),
        position_count=_count_of(Position.sources.through, "source"),
        offer_count=_count_of(Offer.sources.through, "source"),
    )


def source_detail(*, slug: str) -> Source | None:
    """A source with the meetings, statements, positions and offers citing it, and its passages: seven queries."""
    return (
        Source.objects.prefetch_related(
            Prefetch("meetings", queryset=Meeting.objects.select_related("negotiation")),
            Prefetch("statements", queryset=_statements()),
            Prefetch("positions", queryset=Position.objects.select_related("jurisdiction", "negotiation")),
            Prefetch("offers", queryset=_offers()),
            Prefetch("passages", queryset=SourcePassage.objects.select_related(
                "meeting", "position__jurisdiction").order_by("pk")),
        )
        .filter(slug=slug)
        .first()
    )


def statement_list(
    *,
    jurisdiction: Jurisdiction | None = None,
    speaker: Person | None = None,
    negotiation: Negotiation | None = None,
) -> QuerySet[Statement]:
    """Statements newest first, filtered; one query per page (plus the count)."""
    statements = _statements().order_by("-date", "-pk")
    if jurisdiction is not None:
        statements = statements.filter(jurisdiction=jurisdiction)
    if speaker is not None:
        statements = statements.filter(speaker=speaker)
    if negotiation is not None:
        statements = statements.filter(negotiation=negotiation)
    return statements

