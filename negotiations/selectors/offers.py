"""Reads for the offer pages: one offer with its terms, lineage and history; how an offer's terms differ.

Each function owns its joins, so a page's query count does not grow with the data.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

from django.db.models import CharField, F, Prefetch, Q, TextField, Value, prefetch_related_objects
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _
from modeltranslation.utils import build_localized_fieldname, get_language

from config.auth import shown_name
from config.numbers import format_fiscal_year, numbers
from negotiations.models import (
    FundingSource,
    GovernmentPayer,
    Jurisdiction,
    JurisdictionTreatment,
    Meeting,
    Negotiation,
    Offer,
    PhaseInStep,
    Program,
    Source,
    TermBasis,
    Treatment,
)
from negotiations.term_basis import OfferBasis, offer_basis_with_sources, term_label
from negotiations.terms import MONEY, PER_TRAINEE, SCALAR_FIELDS, SHARE, TERM_FIELDS, TERMS_BY_TABLE, TermField

HISTORY_SHOWN = 20

_FUNDING_ROWS = Prefetch("funding_sources", queryset=FundingSource.objects.order_by("payer", "program"))
_PHASE_IN_ROWS = Prefetch("phase_in", queryset=PhaseInStep.objects.order_by("fiscal_year"))
_TERM_ROWS = (
    _FUNDING_ROWS,
    Prefetch("treatments", queryset=JurisdictionTreatment.objects.select_related("jurisdiction")),
    _PHASE_IN_ROWS,
)


@dataclass(frozen=True)
class TermChange:
    """One term that differs between two offers. ``kind`` says how to show the values: money, share or text."""

    label: str
    kind: str
    before: Decimal | str | None
    after: Decimal | str | None
    difference: Decimal | None = None  # after - before, for amounts
    term: str = ""  # the term path (negotiations.terms), to show the basis of its new value

    @property
    def direction(self) -> str:
        if not self.difference:
            return "same"
        return "up" if self.difference > 0 else "down"

    @property
    def magnitude(self) -> Decimal | None:
        """The size of the difference; ``direction`` gives its sign."""
        return None if self.difference is None else abs(self.difference)


@dataclass(frozen=True)
class FieldChange:
    label: str
    before: str
    after: str


@dataclass(frozen=True)
class HistoryEntry:
    """One saved change of an offer: when, by whom, what kind, and which fields changed."""

    date: object
    user: str | None
    kind: str  # created, changed or deleted
    changes: list[FieldChange] = field(default_factory=list)
    note: str = ""


@dataclass(frozen=True)
class OfferPage:
    offer: Offer
    responses: list[Offer]
    term_changes: list[TermChange] | None  # None when the offer answers nothing
    history: list[HistoryEntry]
    basis: "OfferBasis | None" = None  # the basis of each term (negotiations.term_basis)
    book: object = None  # the positions the verdicts read (negotiations.selectors.verdicts.PositionBook), when asked for

    @cached_property
    def term_rows(self) -> dict[str, list["TermRow"]]:
        """The offer's one-value terms as its page shows them, by table (negotiations.terms.TERM_FIELDS)."""
        return term_rows(self.offer)


@dataclass(frozen=True)
class TermRow:
    """One one-value term on the offer page: its name, its value in words, and its path for the basis mark,
    given once per path (the scale's program and amount share one)."""

    label: str
    text: str
    empty: bool
    path: str
    marked: bool


def term_rows(offer) -> dict[str, list[TermRow]]:
    """The one-value terms of ``offer`` (an offer or a scenario), by the table of the offer page they sit in."""
    write = numbers()
    tables = {}
    for table, terms in TERMS_BY_TABLE.items():
        rows = tables[table] = []
        for position, term in enumerate(terms):
            value = getattr(offer, term.name)
            last_of_its_path = position + 1 == len(terms) or terms[position + 1].path != term.path
            rows.append(TermRow(label=str(term.short_label or term.label), text=term.text(value, write),
                                empty=value is None or value == "", path=term.path, marked=last_of_its_path))
    return tables


def offer_page(*, slug: str, position_book=None) -> OfferPage | None:
    """Everything the offer page shows, or None for an unknown slug (eight queries).

    ``position_book`` (``negotiations.selectors.verdicts.position_book``, passed in: verdicts reads this module)
    loads the positions for who would sign (two queries); its list of P/Ts then serves the basis too.
    """
    # The offer and the offers answering it come back in one query.
    family = list(
        Offer.objects.select_related("negotiation", "responds_to", "meeting")
        .filter(Q(slug=slug) | Q(responds_to__slug=slug))
        .order_by("tabled_on", "pk")
    )
    offer = next((o for o in family if o.slug == slug), None)
    if offer is None:
        return None
    responses = [o for o in family if o is not offer]
    parent = offer.responds_to
    # The terms of the offer and of the one it answers, in one query per kind of row.
    prefetch_related_objects([o for o in (offer, parent) if o is not None], *_TERM_ROWS)
    prefetch_related_objects(
        [offer],
        Prefetch("tabled_by", queryset=Jurisdiction.objects.only("pk", "code", "name", "order", "kind")),
        Prefetch("sources", queryset=Source.objects.order_by("-published_on")),
    )
    book = position_book(offer.negotiation_id) if position_book is not None else None
    pts = None
    if book is not None:
        language = get_language()
        pts = [(g.code, g.name_for(language)) for g in book.governments]
    return OfferPage(
        offer=offer,
        responses=responses,
        term_changes=term_changes(parent, offer) if parent is not None else None,
        history=offer_history(offer),
        basis=offer_basis_with_sources(offer, offer.sources.all(), pts=pts),
        book=book,
    )


def offer_for_form(*, slug: str) -> Offer | None:
    """An offer with the terms rows the offer form shows as numbers, funding and phase-in (three
    queries); what else the form shows of it, ``offer_links`` reads (one more)."""
    return (
        Offer.objects.select_related("negotiation", "responds_to", "meeting")
        .prefetch_related(_FUNDING_ROWS, _PHASE_IN_ROWS)
        .filter(slug=slug)
        .first()
    )


@dataclass(frozen=True)
class OfferLinks:
    """What an offer names by readable keys, as the offer form shows it."""

    tabled_by: list[str]  # jurisdiction codes
    sources: list[str]  # source slugs
    treatments: dict[str, str]  # jurisdiction code -> treatment, for the P/Ts not simply participating
    # term path -> (status, source slug or "", passage, note): the basis of each term that has one
    basis: dict[str, tuple[str, str, str, str]] = field(default_factory=dict)


def offer_links(offer: Offer) -> OfferLinks:
    """The offer's governments, sources, treatments and term bases, in one query: the four are rows of
    (kind, key, value, …) strings, so one UNION reads them, where a prefetch each would take four."""
    text = CharField()
    empty = Value("", output_field=TextField())
    note_column = build_localized_fieldname("note", get_language())  # the reader's language's column
    rows = (
        Offer.tabled_by.through.objects.filter(offer_id=offer.pk).order_by()
        .values_list(Value("tabled_by", output_field=text), F("jurisdiction__code"), Value("", output_field=text),
                     empty, empty, empty, empty)
        .union(
            Offer.sources.through.objects.filter(offer_id=offer.pk).order_by()
            .values_list(Value("sources", output_field=text), F("source__slug"), Value("", output_field=text),
                         empty, empty, empty, empty),
            JurisdictionTreatment.objects.filter(offer_id=offer.pk).order_by()
            .values_list(Value("treatments", output_field=text), F("jurisdiction__code"), F("treatment"),
                         empty, empty, empty, empty),
            TermBasis.objects.rewrite(False).filter(offer_id=offer.pk).order_by()  # Django's column order
            .values_list(Value("basis", output_field=text), F("term"), F("status"),
                         Coalesce(F("source__slug"), empty, output_field=TextField()), F("passage"),
                         F(note_column), F("note_en")),
            all=True,
        )
    )
    links = OfferLinks(tabled_by=[], sources=[], treatments={})
    for kind, key, value, source, passage, note, note_en in rows:
        if kind == "treatments":
            links.treatments[key] = value
        elif kind == "basis":
            # The note in the reader's language where written, else the English (as the model reads it).
            links.basis[key] = (value, source or "", passage, note or note_en or "")
        else:
            getattr(links, kind).append(key)
    return links


# ---------------------------------------------------------------------------
# Term-by-term difference


def term_changes(before: Offer, after: Offer) -> list[TermChange]:
    """The terms of ``after`` that differ from ``before`` (both with their terms rows prefetched).

    Program amounts, treatments and phase-in steps are compared row by row:
    a program not drawn on counts as 0, a P/T without a treatment participates.
    """
    changes: list[TermChange] = []

    def money(label, old, new, term=""):
        old, new = old or Decimal(0), new or Decimal(0)
        if old != new:
            changes.append(TermChange(label, "money", old, new, new - old, term=term))

    def text(label, old, new, term=""):
        if old != new:
            changes.append(TermChange(label, "text", old, new, term=term))

    def one_value(term: TermField) -> None:
        old, new = getattr(before, term.name), getattr(after, term.name)
        if term.kind == MONEY:
            money(str(term.label), old, new, term.path)
        elif term.kind == SHARE:
            if old != new:
                changes.append(TermChange(str(term.label), "share", old, new, term=term.path))
        else:
            text(str(term.label), term.text(old, None), term.text(new, None), term.path)

    for term in TERM_FIELDS:
        if term.table == PER_TRAINEE:
            one_value(term)

    old_sources, new_sources = _sources(before), _sources(after)
    for payer in GovernmentPayer:
        for program in Program:
            key = (payer.value, program.value)
            if key in old_sources or key in new_sources:
                path = f"sources.{payer.value}.{program.value}"
                money(_("%(term)s, per trainee") % {"term": term_label(path)}, old_sources.get(key),
                      new_sources.get(key), path)

    for term in TERM_FIELDS:
        if term.table != PER_TRAINEE:
            one_value(term)

    old_treatments, new_treatments = _treatments(before), _treatments(after)
    for code in sorted({*old_treatments, *new_treatments}, key=lambda c: _order(c, old_treatments, new_treatments)):
        old = old_treatments.get(code, (None, Treatment.PARTICIPATES))
        new = new_treatments.get(code, (None, Treatment.PARTICIPATES))
        name = (old[0] or new[0]).name
        text(_("Treatment of %(name)s") % {"name": name}, Treatment(old[1]).label, Treatment(new[1]).label,
             f"treatments.{code}")

    old_steps, new_steps = _steps(before), _steps(after)
    for year in sorted({*old_steps, *new_steps}):
        if old_steps.get(year) != new_steps.get(year):
            changes.append(TermChange(
                _("Phase-in %(year)s") % {"year": format_fiscal_year(year)}, "share", old_steps.get(year), new_steps.get(year),
                term="phase_in",
            ))
    return changes


def _sources(offer: Offer) -> dict[tuple[str, str], Decimal]:
    return {(row.payer, row.program): row.amount for row in offer.funding_sources.all()}


def _treatments(offer: Offer) -> dict[str, tuple[Jurisdiction, str]]:
    return {row.jurisdiction.code: (row.jurisdiction, row.treatment) for row in offer.treatments.all()}


def _order(code, *maps):
    for mapping in maps:
        if code in mapping:
            return (mapping[code][0].order, code)
    return (0, code)


def _steps(offer: Offer) -> dict[str, Decimal]:
    return {row.fiscal_year: row.fraction for row in offer.phase_in.all()}


# ---------------------------------------------------------------------------
# History


# The offer's own fields shown in its history (the version number is bookkeeping).
_HISTORY_FIELDS = (
    "title", "slug", "negotiation", "tabled_on", "agreed_on", "date_precision", "responds_to", "meeting", "status", "summary",
    *SCALAR_FIELDS,
)
_KINDS = {"+": "created", "~": "changed", "-": "deleted"}


def offer_history(offer: Offer, *, limit: int = HISTORY_SHOWN) -> list[HistoryEntry]:
    """The latest saved changes of an offer, newest first, each with the fields it changed (two queries).

    Differences come from django-simple-history's ``diff_against``; the
    governments and sources (many-to-many) are compared from one query. A
    foreign key that no longer points where the offer does now (a changed
    "answers") costs one more query per model, only when such a change is shown.
    """
    # One record more than shown, to tell what the oldest shown record changed.
    records = list(offer.history.select_related("history_user").order_by("-history_date", "-history_id")[: limit + 1])
    if not records:
        return []
    links = _history_links([r.history_id for r in records])
    deltas = [
        record.diff_against(records[index + 1], included_fields=_HISTORY_FIELDS).changes
        if index + 1 < len(records) else []
        for index, record in enumerate(records[:limit])
    ]
    titles = _foreign_titles(offer, [change for changes in deltas for change in changes])
    entries = []
    for index, (record, delta) in enumerate(zip(records, deltas)):
        changes = []
        for change in delta:
            model_field = Offer._meta.get_field(change.field)
            changes.append(FieldChange(
                str(model_field.verbose_name).capitalize(),
                _shown(model_field, change.old, titles),
                _shown(model_field, change.new, titles),
            ))
        if index + 1 < len(records):
            previous = records[index + 1]
            for name, label in (("tabled_by", _("Tabled by")), ("sources", _("Sources"))):
                old, new = links[previous.history_id][name], links[record.history_id][name]
                if old != new:
                    changes.append(FieldChange(label, ", ".join(sorted(old)) or "—", ", ".join(sorted(new)) or "—"))
        entries.append(HistoryEntry(
            date=record.history_date,
            user=shown_name(record.history_user) or None,
            kind=_KINDS.get(record.history_type, "changed"),
            changes=changes,
            note=record.history_change_reason or "",
        ))
    return entries


def _history_links(history_ids: list[int]) -> dict[int, dict[str, set[str]]]:
    """The governments (codes) and sources (titles) each history record saw, in one query."""
    historical = Offer.history.model
    tabled = (
        historical.tabled_by.model.objects.filter(history_id__in=history_ids)
        .annotate(kind=Value("tabled_by"), label=F("jurisdiction__code"))
        .values_list("history_id", "kind", "label")
    )
    cited = (
        historical.sources.model.objects.filter(history_id__in=history_ids)
        # The title in the reader's language where written, else the English (as the model reads it).
        .annotate(kind=Value("sources"), label=Coalesce(
            F(f"source__{build_localized_fieldname('title', get_language())}"),
            F("source__title_en"), output_field=CharField()))
        .values_list("history_id", "kind", "label")
    )
    links: dict[int, dict[str, set[str]]] = defaultdict(lambda: {"tabled_by": set(), "sources": set()})
    for history_id, kind, label in tabled.union(cited, all=True):
        links[history_id][kind].add(label or "?")
    return links


_FOREIGN_MODELS = {"negotiation": Negotiation, "responds_to": Offer, "meeting": Meeting}


def _foreign_titles(offer: Offer, changes) -> dict[tuple[str, object], str]:
    """Titles for the foreign keys that changes show: those loaded with the offer, the others read in bulk."""
    titles = {
        (name, related.pk): str(related)
        for name in _FOREIGN_MODELS
        if (related := getattr(offer, name)) is not None
    }
    wanted = defaultdict(set)
    for change in changes:
        if change.field in _FOREIGN_MODELS:
            for value in (change.old, change.new):
                if value is not None and (change.field, value) not in titles:
                    wanted[change.field].add(value)
    for name, pks in wanted.items():
        for pk, obj in _FOREIGN_MODELS[name].objects.in_bulk(pks).items():
            titles[(name, pk)] = str(obj)
    return titles


def _shown(model_field, value, titles) -> str:
    """A history value as people read it: a title, a choice's label, or the value itself."""
    if value is None or value == "":
        return "—"
    if model_field.name in _FOREIGN_MODELS:
        return titles.get((model_field.name, value), f"#{value}")
    if model_field.choices:
        return str(dict(model_field.flatchoices).get(value, value))
    return str(value)
