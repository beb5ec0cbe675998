"""Searching the record: statements, meetings, offers and people, grouped by kind.

On PostgreSQL this is full-text search: weighted vectors, ranked, each word of the query
matched as a prefix so results follow the user's typing. Elsewhere (SQLite in development
and tests) each word must appear, case-insensitively, in one of the searched fields.

Each group is one query whatever the number of matches (a window function counts the
matches alongside the first rows), plus one prefetch for offers' tabling jurisdictions and
one for people's roles: six queries at most.
"""

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import reduce
from operator import add, and_, or_

from django.db import connection
from django.db.models import Case, Count, Func, IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery, Value, When, Window
from django.db.models.functions import Lower
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from modeltranslation.translator import NotRegistered, translator
from modeltranslation.utils import build_localized_fieldname

from negotiations import money
from negotiations.models import SEARCH_CONFIGURATIONS, Jurisdiction, Meeting, Offer, Person, Position, Role, Source, Statement

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
    # The full-text index (negotiations.models.search_index) whose expression PostgreSQL's search uses.
    index: str | None = None


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


def _positions():
    return Position.objects.select_related("jurisdiction", "negotiation")


def _jurisdictions():
    return Jurisdiction.objects.all()


def _sources():
    return Source.objects.all()


KINDS = (
    _Kind("statements", _("Statements"), _statements, ("quote", "context"), ("-date", "-pk"), "statement_search"),
    _Kind("meetings", _("Meetings"), _meetings, ("title", "outcome", "location"), ("-date", "-pk"), "meeting_search"),
    _Kind("offers", _("Offers"), _offers, ("title", "summary", "assumptions"), ("-tabled_on", "-pk"), "offer_search"),
    _Kind("people", _("People"), _people, ("name", "roles__title"), ("name", "pk")),
)
# Small tables, searched by accent-blind containment on every database.
# A field the record keeps in both languages (negotiations.translation) is searched in both, whatever the
# page's language: a French word finds the French text, an English one the English text.
CONTAINS_KINDS = (
    _Kind("positions", _("Positions"), _positions,
          ("summary", "conditions", "stance", "jurisdiction__name_en", "jurisdiction__name_fr", "jurisdiction__code"),
          ("-as_of", "-pk")),
    _Kind("jurisdictions", _("Jurisdictions"), _jurisdictions, ("name_en", "name_fr", "code"), ("order", "code")),
    _Kind("sources", _("Sources"), _sources, ("title", "outlet", "author", "summary"), ("-published_on", "-pk")),
)
ORDER = ("people", "statements", "positions", "offers", "meetings", "jurisdictions", "sources")
SNIPPET_FIELDS = {"meetings": "outcome", "offers": "summary", "positions": "summary", "sources": "summary"}
SNIPPET_CHARS = 90


class Unaccent(Func):
    """unaccent(text): PostgreSQL's extension (migration 0007_i16_search); on SQLite, fold() registered
    on each connection (negotiations.apps)."""

    function = "unaccent"


def fold(text: str) -> str:
    """Lower case without accents: "Québec" → "quebec"."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    return "".join(char for char in decomposed if not unicodedata.combining(char)).lower()


def money_forms(query: str) -> list[str] | None:
    """The ways an amount is written in the record, when the query is an amount ("$300M" → "300 million", …)."""
    if not re.search(r"\d", query):
        return None
    try:
        amount = money.parse_money(query)
    except money.MoneyError:
        return None
    if amount <= 0 or amount != amount.to_integral_value():
        return None
    whole = int(amount)
    forms = [f"{whole:,}", f"{whole:,}".replace(",", " "), str(whole)]
    for unit, size in (("billion", 10**9), ("million", 10**6)):
        if whole >= size and (whole * 100) % size == 0:
            number = f"{whole / size:g}"
            forms += [f"{number} {unit}", f"{number}-{unit}", f"{number}{unit[0].upper()}"]
            if unit == "million":
                forms += [f"{number} millions", f"{number} M$"]
            break
    return forms


def search_record(*, query: str, limit: int = LIMIT) -> SearchResults:
    """Search every kind for `query`; an empty query (or one of punctuation only) finds nothing.

    An amount ("$300M", "300 million") finds the record's ways of writing it; a person's name puts
    that person's own words first.
    """
    query = query.strip()
    words = _words(query)
    if not words:
        return SearchResults(query=query, groups=[])
    amounts = money_forms(query)
    folded = [fold(word) for word in words]
    if amounts:
        groups = [_group(kind, _any_phrase(kind, amounts), limit, amounts) for kind in (*KINDS, *CONTAINS_KINDS)]
    else:
        search = _full_text if connection.vendor == "postgresql" else _contains
        groups = [_group(kind, _speaker_first(kind, search, words, folded), limit, folded) for kind in KINDS]
        groups += [_group(kind, _contains(kind, words), limit, folded) for kind in CONTAINS_KINDS]
    groups.sort(key=lambda group: ORDER.index(group.kind))
    return SearchResults(query=query, groups=groups)


def _speaker_first(kind: _Kind, search, words: list[str], folded: list[str]) -> QuerySet:
    """Statements: also those whose speaker's name has every word, and those first."""
    if kind.kind != "statements":
        return search(kind, words)
    speaker = reduce(and_, (Q(speaker_folded__contains=word) for word in folded))
    # The speakers' ids first (one query): a list, not a subquery, keeps the full-text index usable.
    own = list(Person.objects.annotate(speaker_folded=Unaccent(Lower("name"))).filter(speaker)
               .values_list("pk", flat=True)[:50])
    if not own:
        return search(kind, words)
    rows = search(kind, words, also=Q(speaker__in=own))
    return rows.annotate(
        own_words=Case(When(speaker__in=own, then=Value(1)), default=Value(0), output_field=IntegerField())
    ).order_by("-own_words", *rows.query.order_by)


def _any_phrase(kind: _Kind, phrases: list[str]) -> QuerySet:
    rows = kind.rows()
    condition = reduce(or_, (_matches(rows.model, column, fold(phrase))
                             for column in _columns(rows.model, kind.fields) for phrase in phrases))
    return rows.filter(condition).order_by(*kind.order)


def _words(query: str) -> list[str]:
    # Letters and digits only: what reaches a tsquery can never be a syntax error.
    return re.findall(r"[^\W_]+", query[:MAX_LENGTH])


def _group(kind: _Kind, rows: QuerySet, limit: int, terms: list[str]) -> SearchGroup:
    items = list(rows.annotate(total=Window(Count("pk")))[:limit])
    field = SNIPPET_FIELDS.get(kind.kind)
    page = (get_language() or "en")[:2]
    for item in items:
        item.snippet, language = _snippet_of(item, field, terms, page) if field else ([], page)
        item.snippet_lang = language if language != page else ""
        if kind.kind == "statements":  # a quote is shown whole (negotiations/_statement.html), every match marked
            item.marked_quote = marked(item.quote, terms)
    return SearchGroup(kind=kind.kind, label=kind.label, items=items, count=items[0].total if items else 0)


def _snippet_of(item, field: str, terms: list[str], page: str) -> tuple[list[tuple[str, bool]], str]:
    """The snippet of ``field`` and the language it is in: the ``page``'s language's text, or the other language's
    where the match is only there (a French word found in an English page's record) or the page's is not written."""
    languages = sorted(SEARCH_CONFIGURATIONS, key=lambda language: language != page)
    texts = []
    for language in languages:
        column = _column(type(item), field, language)
        text = getattr(item, column, "") or ""
        said_in = language if column != field else getattr(item, "language", "") or page  # a quote: as spoken
        if text and (text, said_in) not in texts:
            texts.append((text, said_in))
    first = None
    for text, said_in in texts:
        pieces = snippet(text, terms)
        if any(is_match for _piece, is_match in pieces):
            return pieces, said_in
        first = first or (pieces, said_in)
    return first or ([], page)


def snippet(text: str, terms: list[str]) -> list[tuple[str, bool]]:
    """Up to SNIPPET_CHARS around the first match in ``text``: (piece, is_match) pairs, matches found
    accent-blind; the template marks them (<mark>) and escapes every piece."""
    if not text:
        return []
    spans = _match_spans(text, terms)
    if not spans:
        return [(text[:SNIPPET_CHARS * 2] + ("…" if len(text) > SNIPPET_CHARS * 2 else ""), False)]
    first = spans[0][0]
    start = max(0, first - SNIPPET_CHARS)
    end = min(len(text), first + SNIPPET_CHARS * 2)
    pieces = _pieces(text, spans, start, end)
    if start > 0:
        pieces.insert(0, ("…", False))
    if end < len(text):
        pieces.append(("…", False))
    return pieces


def marked(text: str, terms: list[str]) -> list[tuple[str, bool]]:
    """The whole of ``text`` as (piece, is_match) pairs, every match found as ``snippet`` finds them: a statement's
    quote on the search page, which the statement shows whole."""
    return _pieces(text, _match_spans(text, terms), 0, len(text)) if text else []


def _match_spans(text: str, terms: list[str]) -> list[tuple[int, int]]:
    """Where the ``terms`` occur in ``text``, accent-blind and in any case: (start, end) pairs in order, those that
    overlap ("fed" and "federal") made one."""
    folded = fold(text)
    if len(folded) != len(text):  # a character that folds to several: match on the text as it is
        folded = text.lower()
    spans = []
    for term in {fold(term) for term in terms if term}:
        for found in re.finditer(re.escape(term), folded):
            spans.append((found.start(), found.end()))
    merged: list[tuple[int, int]] = []
    for begin, stop in sorted(spans):
        if merged and begin < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], stop))
        else:
            merged.append((begin, stop))
    return merged


def _pieces(text: str, spans: list[tuple[int, int]], start: int, end: int) -> list[tuple[str, bool]]:
    """``text[start:end]`` cut at the ``spans`` (from ``start`` on, in order, apart) that end within it, each a match."""
    pieces, at = [], start
    for begin, stop in spans:
        if stop > end:
            continue
        if begin > at:
            pieces.append((text[at:begin], False))
        pieces.append((text[begin:stop], True))
        at = stop
    if at < end:
        pieces.append((text[at:end], False))
    return pieces


def _related(model, path: str):
    """For "roles__title": the related model, the name of its key back to `model`, and the field."""
    relation, field = path.split("__")
    remote = model._meta.get_field(relation)
    return remote.related_model, remote.field.name, field


def _full_text(kind: _Kind, words: list[str], also: Q | None = None) -> QuerySet:
    from django.contrib.postgres.search import SearchQuery, SearchRank

    rows = kind.rows()
    vector = _document(kind, rows.model)
    raw = " & ".join(f"{word}:*" for word in words)
    query = reduce(or_, (SearchQuery(raw, search_type="raw", config=config) for config in SEARCH_CONFIGURATIONS.values()))
    return (
        rows.annotate(document=vector, rank=SearchRank(vector, query))
        .filter(Q(document=query) | also if also is not None else Q(document=query))
        .order_by("-rank", *kind.order)
    )


def _document(kind: _Kind, model):
    """The kind's searched text as one vector: its index's own expression where it has one (so PostgreSQL
    reads the index), else built the same way, a related model's text aggregated by a subquery."""
    from django.contrib.postgres.aggregates import StringAgg
    from django.contrib.postgres.search import SearchVector

    if kind.index:
        return next(index for index in model._meta.indexes if index.name == kind.index).expressions[0]
    vectors = []
    for language, config in SEARCH_CONFIGURATIONS.items():
        for path, weight in zip(kind.fields, "ABC"):
            column = _column(model, path, language)
            if "__" in column:
                related, back, field = _related(model, column)
                text = Subquery(
                    related.objects.filter(**{back: OuterRef("pk")}).order_by().values(back)
                    .annotate(text=StringAgg(field, " ")).values("text")
                )
            else:
                text = column
            vectors.append(SearchVector(text, weight=weight, config=config))
    return reduce(add, vectors)


def _column(model, path: str, language: str) -> str:
    """`path`'s column in `language` when the record keeps that field in both languages ("roles__title" →
    "roles__title_fr"), else `path` itself."""
    *relations, field = path.split("__")
    target = model
    for relation in relations:
        target = target._meta.get_field(relation).related_model
    try:
        translated = translator.get_options_for_model(target).fields
    except NotRegistered:
        return path
    return path[: -len(field)] + build_localized_fieldname(field, language) if field in translated else path


def _columns(model, paths) -> list[str]:
    """Every column the fields `paths` are kept in: each language's for a translated field."""
    return list(dict.fromkeys(_column(model, path, language) for path in paths for language in SEARCH_CONFIGURATIONS))


def _matches(model, path: str, folded_word: str) -> Q:
    """Accent-blind containment of one folded word in one field (a related one through a subquery)."""
    if "__" in path:
        relation = model._meta.get_field(path.split("__")[0])
        if relation.many_to_one:  # a forward key: the related row's field
            target, field = relation.related_model, path.split("__", 1)[1]
            inner = target.objects.annotate(folded=Unaccent(Lower(field))).filter(folded__contains=folded_word)
            return Q(**{f"{relation.name}__in": inner.values("pk")})
        related, back, field = _related(model, path)
        inner = related.objects.annotate(folded=Unaccent(Lower(field))).filter(folded__contains=folded_word)
        return Q(pk__in=inner.values(back))
    inner = model.objects.annotate(folded=Unaccent(Lower(path))).filter(folded__contains=folded_word)
    return Q(pk__in=inner.values("pk"))


def _contains(kind: _Kind, words: list[str], also: Q | None = None) -> QuerySet:
    rows = kind.rows()
    columns = _columns(rows.model, kind.fields)
    every_word = reduce(and_, (reduce(or_, (_matches(rows.model, column, fold(word)) for column in columns))
                               for word in words))
    return rows.filter(every_word | also if also is not None else every_word).order_by(*kind.order)


def matching_pks(*, query: str, kind: str, pks) -> set[int]:
    """Which of the rows `pks` of `kind` ("statements", "meetings", "offers", "people") `query` finds,
    by the same rules as `search_record` (a saved search checked against new rows): one query."""
    words = _words(query.strip())
    spec = next(k for k in KINDS if k.kind == kind)
    if not words:
        return set()
    search = _full_text if connection.vendor == "postgresql" else _contains
    return set(search(spec, words).filter(pk__in=list(pks)).values_list("pk", flat=True))
