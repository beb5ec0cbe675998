"""Reads of the basis of an offer's terms (reported, inferred, assumed), for pages, the API and forms.

The rules are in ``negotiations.terms`` (pure); this module reads the rows and names the terms for people.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.numbers import format_fiscal_year, numbers
from negotiations.acceptance import Failure, parse_value
from negotiations.models import Jurisdiction, Offer, Program, Source, TermBasis, Treatment
from negotiations.terms import (
    ASSUMED,
    CHOICE,
    INFERRED,
    REPORTED,
    TERM_BY_PATH,
    TERM_FIELDS,
    TermBasisEntry,
    is_share,
    term_paths,
)

__all__ = ["OfferBasis", "TermBasisLine", "basis_of", "choice_code", "choice_label", "failure_reason", "in_sentence",
           "offer_basis", "term_label", "term_value_text"]


def in_sentence(label: str) -> str:
    """A term's label as it reads in a list inside a sentence ("rests on 2 assumed terms: employer minimum share,
    phase-in"): its first letter in lower case, unless the first word is an acronym ("EI", "LMA")."""
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def term_label(path: str, names: dict[str, str] | None = None) -> str:
    """A term path in words, such as "Federal money from Labour Market Agreements" for ``sources.federal.LMA``."""
    names = names or {}
    head, _dot, rest = path.partition(".")
    if head == "sources":
        payer, _dot, program = rest.partition(".")
        label = Program(program).label if program in Program.values else program
        if (payer, program) == ("provincial", Program.PT_OWN):
            return _("Provincial or territorial money from its own revenue")
        if (payer, program) == ("federal", Program.FEDERAL_NEW):
            return _("New federal money")
        worded = {"federal": _("Federal money from %(program)s"),
                  "provincial": _("Provincial or territorial money from %(program)s"),
                  "employer": _("Employer money from %(program)s")}
        if payer in worded:
            return worded[payer] % {"program": label}
        return _("%(payer)s money from %(program)s") % {"payer": payer, "program": label}
    if head == "treatments":
        return _("Treatment of %(name)s") % {"name": names.get(rest, rest)}
    if path == "phase_in":
        return _("Phase-in")
    return str(TERM_BY_PATH[path].label) if path in TERM_BY_PATH else path


# The values of the terms that are choices, in words (the models' labels), by the head of the term's path.
_CHOICE_LABELS = {
    **{term.name: dict(term.choices.choices) for term in TERM_FIELDS if term.kind == CHOICE},
    "treatments": dict(Treatment.choices),
}


def choice_code(path: str, typed: str) -> str:
    """A choice typed as people read it ("opts out with compensation", "se retire avec compensation"), in either
    language and any case, as the value the record keeps ("opts_out_compensated"); anything else as it was typed."""
    labels = _CHOICE_LABELS.get(path.partition(".")[0], {})
    wanted = typed.strip().casefold()
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for code, label in labels.items():
                if wanted == str(label).casefold():
                    return code
    return typed


def choice_label(path: str, code: str) -> str:
    """The words for a choice's value, in the reader's language."""
    return str(_CHOICE_LABELS.get(path.partition(".")[0], {}).get(code, code))


# What a condition asks, in words before the value it names ("asks for at most $0"; "=" and "≤" read as code).
_OPERATOR_WORDS = {"eq": "", "ne": gettext_lazy("anything but"), "le": gettext_lazy("at most"),
                   "ge": gettext_lazy("at least"), "lt": gettext_lazy("less than"), "gt": gettext_lazy("more than"),
                   "in": gettext_lazy("one of")}


def term_value_text(path: str, value) -> str:
    """A term's value as people read it: amounts and shares (as percentages) through the one formatter, choices in
    words, the phase-in as its first and last years ("15% in 2014-15 to 100% in 2017-18"), "—" for none."""
    write = numbers()
    if path == "phase_in":
        if not value:
            return "—"
        (first, start), (last, end) = value[0], value[-1]
        return _("%(start)s in %(first)s to %(end)s in %(last)s") % {
            "start": write.percent(start), "first": format_fiscal_year(first), "end": write.percent(end),
            "last": format_fiscal_year(last)}
    if value is None or value == "":
        return "—"
    if isinstance(value, Decimal):
        return write.percent(value) if is_share(path) else write.money(value)
    labels = _CHOICE_LABELS.get(path.partition(".")[0], {})
    return str(labels.get(value, value))


def failure_reason(failure: Failure, names: dict[str, str] | None = None) -> str:
    """Why the terms fail a condition, in words: "Federal money from … is $5,000; the condition asks for $0
    (off by $5,000)", in the reader's language (the page, the preview and the API's ``reason``; the API's
    ``term`` keeps the path, for programs)."""
    condition = failure.condition
    try:
        wanted = parse_value(condition.term, condition.operator, condition.value)
    except ValueError:  # a condition saved before its rule was tightened: show it as written
        wanted = condition.value
    if isinstance(wanted, tuple):
        asked = ", ".join(term_value_text(failure.term, part) for part in wanted)
    else:
        asked = term_value_text(failure.term, wanted)
    text = _("%(term)s is %(actual)s; the condition asks for %(asked)s") % {
        "term": term_label(failure.term, names), "actual": term_value_text(failure.term, failure.actual),
        "asked": f"{_OPERATOR_WORDS[condition.operator]} {asked}".strip()}
    if failure.gap is not None:
        gap = term_value_text(failure.term, failure.gap)
        text = _("%(reason)s (off by %(gap)s)") % {"reason": text, "gap": gap}
    return text


class StatusRow(NamedTuple):
    """A basis row read for its status only (``offer_basis(statuses_only=True)``)."""

    term: str
    status: str


@dataclass(frozen=True)
class TermBasisLine:
    """One term of an offer and its basis (``row`` is None when no basis was given)."""

    term: str
    label: str
    row: TermBasis | StatusRow | None

    @property
    def status(self) -> str:
        return self.row.status if self.row is not None else "missing"

    @property
    def anchor(self) -> str:
        """An id for the term's line, usable in HTML (no dots)."""
        return "basis-" + self.term.replace(".", "-")


@dataclass(frozen=True)
class OfferBasis:
    """The basis of every term of one offer, in display order, and what that adds up to."""

    lines: list[TermBasisLine]
    by_term: dict[str, TermBasisLine] = field(default_factory=dict)

    def _of(self, status: str) -> list[TermBasisLine]:
        return [line for line in self.lines if line.status == status]

    @property
    def assumed(self) -> list[TermBasisLine]:
        return self._of(ASSUMED)

    @property
    def inferred(self) -> list[TermBasisLine]:
        return self._of(INFERRED)

    @property
    def reported(self) -> list[TermBasisLine]:
        return self._of(REPORTED)

    @property
    def missing(self) -> list[TermBasisLine]:
        return self._of("missing")

    @property
    def all_reported(self) -> bool:
        return bool(self.lines) and len(self.reported) == len(self.lines)

    def folded(self, status: str) -> list[tuple[str, str]]:
        """The terms with ``status`` as ``(label, anchor)`` pairs, several P/Ts' treatments or one payer's
        programs that share it folded into one entry, so a verdict stays readable."""
        lines = self._of(status)
        groups = {"treatments": _("treatment of %(count)d provinces and territories"),
                  "sources.federal": _("federal money from %(count)d programs"),
                  "sources.provincial": _("provincial or territorial money from %(count)d programs")}
        members = {group: [line for line in lines if line.term.startswith(group + ".")] for group in groups}
        result, done = [], set()
        for line in lines:
            group = next((g for g in groups if line.term.startswith(g + ".")), None)
            if group is None or len(members[group]) < 2:
                result.append((in_sentence(line.label), line.anchor))
            elif group not in done:
                done.add(group)
                result.append((groups[group] % {"count": len(members[group])}, line.anchor))
        return result

    @property
    def assumed_folded(self) -> list[tuple[str, str]]:
        return self.folded(ASSUMED)

    @property
    def inferred_folded(self) -> list[tuple[str, str]]:
        return self.folded(INFERRED)

    def statuses(self) -> dict[str, str]:
        """Term path -> status (``missing`` for a term without basis), for ``grants.basis``."""
        return {line.term: line.status for line in self.lines}

    def entries(self) -> list[TermBasisEntry]:
        return [
            TermBasisEntry(term=line.term, status=line.row.status,
                           source=line.row.source.slug if line.row.source_id else None,
                           passage=line.row.passage, note=line.row.note)
            for line in self.lines if line.row is not None
        ]


def basis_of(rows: Iterable[TermBasis], provinces: Iterable[tuple[str, str]]) -> OfferBasis:
    """An ``OfferBasis`` from an offer's basis rows and the P/Ts as ``(code, name)`` pairs."""
    provinces = list(provinces)
    names = dict(provinces)
    rows_by_term = {row.term: row for row in rows}
    lines = [
        TermBasisLine(term=path, label=term_label(path, names), row=rows_by_term.get(path))
        for path in term_paths(code for code, _name in provinces)
    ]
    return OfferBasis(lines=lines, by_term={line.term: line for line in lines})


def provinces() -> list[tuple[str, str]]:
    """The provinces and territories as (code, name) pairs, in display order (one query)."""
    return list(
        Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL).order_by("order", "code")
        .values_list("code", "name")
    )


def offer_basis(offer: Offer, *, pts: list[tuple[str, str]] | None = None, statuses_only: bool = False) -> OfferBasis:
    """The basis of every term of ``offer`` (two queries, one when ``pts`` is given).

    ``statuses_only``: each row a ``StatusRow`` (its term and status; no source, passage or note), for
    a page that shows what the figures rest on but not the sources.
    """
    if statuses_only:
        # perf: no join to the sources, no text read, no model instance (bench/run "record cache off:
        # fiscal page"); unordered: the rows are found by term.
        rows = [StatusRow(term, status) for term, status
                in TermBasis.objects.filter(offer=offer).order_by().values_list("term", "status")]
    else:
        rows = TermBasis.objects.filter(offer=offer).select_related("source")
    return basis_of(rows, pts if pts is not None else provinces())


def offer_basis_with_sources(offer: Offer, sources: Iterable, *, pts: list[tuple[str, str]] | None = None) -> OfferBasis:
    """``offer_basis`` in two queries: the basis rows, and the P/Ts (one query when ``pts`` is given).

    ``sources`` are Source objects already loaded (the offer's own, prefetched); a basis citing
    another source costs one more query.
    """
    bases = list(TermBasis.objects.filter(offer=offer).order_by())
    known = {source.pk: source for source in sources}
    missing = {row.source_id for row in bases if row.source_id and row.source_id not in known}
    if missing:
        known.update(Source.objects.in_bulk(missing))
    for row in bases:
        if row.source_id:
            row.source = known[row.source_id]
    return basis_of(bases, pts if pts is not None else provinces())


def offers_basis(offers: list[Offer]) -> dict[int, OfferBasis]:
    """``offer_basis`` for several offers, in two queries whatever their number."""
    pts = provinces()
    grouped: dict[int, list[TermBasis]] = {offer.pk: [] for offer in offers}
    for row in TermBasis.objects.filter(offer__in=offers).select_related("source"):
        grouped[row.offer_id].append(row)
    return {pk: basis_of(rows, pts) for pk, rows in grouped.items()}
