"""Searching the record: statements, meetings, offers and people, grouped by kind.

On PostgreSQL this is full-text search: weighted vectors, ranked, each word of the query
matched as a prefix so results follow the user's typing. Elsewhere (SQLite in development
and tests) each word must appear, case-insensitively, in one of the searched fields.

Each group is one query whatever the number of matches (a window function counts the
matches alongside the first rows), plus one prefetch for offers' tabling jurisdictions and
one for people's roles: six queries at most.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import reduce
from operator import and_, or_

from django.db import connection
from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery, Window
from django.utils.translation import gettext_lazy as _

from negotiations.models import Jurisdiction, Meeting, Offer, Person, Role, Statement

# English stemming, so "grants" finds "grant" and "training" finds "train".
CONFIG = "english"
LIMIT = 20
MAX_LENGTH = 200


@dataclass(frozen=True)
class SearchGroup:
    kind: str
    label: str
    items: list
    count: int

    @property
    def more(self) -> int:
        """How many matches are not shown."""
        return self.count - len(self.items)


@dataclass(frozen=True)
class SearchResults:
    query: str
    groups: list[SearchGroup]

    @property
    def count(self) -> int:
        return sum(group.count for group in self.groups)


@dataclass(frozen=True)
class _Kind:
    kind: str
    label: str
    rows: Callable[[], QuerySet]
    # Searched text, most telling first (weights A, B, C on PostgreSQL). "roles__title" is a
    # related model's field: a person matches through any of their roles.
    fields: tuple[str, ...]
    order: tuple[str, ...]


def _statements():
    return Statement.objects.select_related("speaker", "jurisdiction", "source", "meeting")


def _meetings():
    return Meeting.objects.select_related("negotiation")


def _offers():
    return Offer.objects.select_related("negotiation").prefetch_related(
        Prefetch("tabled_by", queryset=Jurisdiction.objects.only("code", "order"))
    )


def _people():
    return Person.objects.prefetch_related(
        Prefetch("roles", queryset=Role.objects.select_related("jurisdiction").order_by("-start", "-pk"))
    )


KINDS = (
    _Kind("statements", _("Statements"), _statements, ("quote", "context"), ("-date", "-pk")),
    _Kind("meetings", _("Meetings"), _meetings, ("title", "outcome", "location"), ("-date", "-pk")),
    _Kind("offers", _("Offers"), _offers, ("title", "summary", "assumptions"), ("-tabled_on", "-pk")),
    _Kind("people", _("People"), _people, ("name", "roles__title"), ("name", "pk")),
)


def search_record(*, query: str, limit: int = LIMIT) -> SearchResults:
    """Search every kind for `query`; an empty query (or one of punctuation only) finds nothing."""
    query = query.strip()
    words = _words(query)
    if not words:
        return SearchResults(query=query, groups=[])
    if connection.vendor == "postgresql":
        search = _full_text
    else:
        search = _contains
    groups = [_group(kind, search(kind, words), limit) for kind in KINDS]
    return SearchResults(query=query, groups=groups)


def _words(query: str) -> list[str]:
    # Letters and digits only: what reaches a tsquery can never be a syntax error.
    return re.findall(r"[^\W_]+", query[:MAX_LENGTH])


def _group(kind: _Kind, rows: QuerySet, limit: int) -> SearchGroup:
    items = list(rows.annotate(total=Window(Count("pk")))[:limit])
    return SearchGroup(kind=kind.kind, label=kind.label, items=items, count=items[0].total if items else 0)


def _related(model, path: str):
    """For "roles__title": the related model, the name of its key back to `model`, and the field."""
    relation, field = path.split("__")
    remote = model._meta.get_field(relation)
    return remote.related_model, remote.field.name, field


def _full_text(kind: _Kind, words: list[str]) -> QuerySet:
    from django.contrib.postgres.aggregates import StringAgg
    from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector

    rows = kind.rows()
    vector = None
    for path, weight in zip(kind.fields, "ABCD"):
        if "__" in path:
            related, back, field = _related(rows.model, path)
            text = Subquery(
                related.objects.filter(**{back: OuterRef("pk")}).order_by().values(back)
                .annotate(text=StringAgg(field, " ")).values("text")
            )
        else:
            text = path
        part = SearchVector(text, weight=weight, config=CONFIG)
        vector = part if vector is None else vector + part
    query = SearchQuery(" & ".join(f"{word}:*" for word in words), search_type="raw", config=CONFIG)
    return (
        rows.annotate(document=vector, rank=SearchRank(vector, query))
        .filter(document=query)
        .order_by("-rank", *kind.order)
    )


def _contains(kind: _Kind, words: list[str]) -> QuerySet:
    rows = kind.rows()

    def matches(path: str, word: str) -> Q:
        if "__" in path:
            related, back, field = _related(rows.model, path)
            return Q(pk__in=related.objects.filter(**{f"{field}__icontains": word}).values(back))
        return Q(**{f"{path}__icontains": word})

    every_word = reduce(and_, (reduce(or_, (matches(path, word) for path in kind.fields)) for word in words))
    return rows.filter(every_word).order_by(*kind.order)


def matching_pks(*, query: str, kind: str, pks) -> set[int]:
    """Which of the records `pks` of `kind` ("statements", "meetings", "offers", "people") `query` finds,
    by the same rules as `search_record` (a saved search checked against new records): one query."""
    words = _words(query.strip())
    spec = next(k for k in KINDS if k.kind == kind)
    if not words:
        return set()
    search = _full_text if connection.vendor == "postgresql" else _contains
    return set(search(spec, words).filter(pk__in=list(pks)).values_list("pk", flat=True))
