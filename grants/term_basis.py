"""The basis of an offer's terms as the fiscal pages, the preview and the CSV show it.

``grants.basis`` (pure) says which figures rest on which terms; this module reads the bases
(``negotiations.term_basis``) and names those terms for people, with the P/Ts' treatments
folded into one entry when several share a status.
"""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext_lazy

from grants import basis
from negotiations.term_basis import OfferBasis, in_sentence, offer_basis, offers_basis, term_label

__all__ = ["FigureNote", "figure_notes", "offer_basis", "offers_basis"]


# perf: made once here, not per note: each ngettext_lazy with a named number builds a new class,
# which cost the fiscal page a fifth of its render (bench/run "record cache off: fiscal page").
_ASSUMED = ngettext_lazy("rests on %(count)d assumed term: %(terms)s", "rests on %(count)d assumed terms: %(terms)s",
                         "count")
_INFERRED = ngettext_lazy("%(count)d inferred: %(terms)s", "%(count)d inferred: %(terms)s", "count")
_MISSING = ngettext_lazy("%(count)d without a basis: %(terms)s", "%(count)d without a basis: %(terms)s", "count")
# The explanation of one figure says its note as a sentence, the figure its subject, whichever kind of term comes first.
_THIS_FIGURE = {
    "assumed": ngettext_lazy("This figure rests on %(count)d assumed term: %(terms)s",
                             "This figure rests on %(count)d assumed terms: %(terms)s", "count"),
    "inferred": ngettext_lazy("This figure rests on %(count)d inferred term: %(terms)s",
                              "This figure rests on %(count)d inferred terms: %(terms)s", "count"),
    "missing": ngettext_lazy("This figure rests on %(count)d term without a basis: %(terms)s",
                             "This figure rests on %(count)d terms without a basis: %(terms)s", "count"),
}


@dataclass(frozen=True)
class FigureNote:
    """What one figure rests on, in words: ``assumed``, ``inferred`` and ``missing`` are term labels."""

    line: str
    assumed: tuple[str, ...]
    inferred: tuple[str, ...]
    missing: tuple[str, ...]

    @property
    def all_reported(self) -> bool:
        return not (self.assumed or self.inferred or self.missing)

    @property
    def text(self) -> str:
        """One sentence, such as "Rests on 3 assumed terms: …; 1 inferred: …" (empty when all reported)."""
        said = self._said()
        return said[:1].upper() + said[1:]

    @property
    def sentence(self) -> str:
        """The same with the figure its subject, as one figure's explanation says it: "This figure rests on 3 assumed
        terms: …; 1 inferred: …", "This figure rests on 1 inferred term: …" (it read "This figure: rests on…")."""
        return self._said(lead=_THIS_FIGURE)

    def _said(self, *, lead: dict | None = None) -> str:
        groups = (("assumed", self.assumed, _ASSUMED), ("inferred", self.inferred, _INFERRED),
                  ("missing", self.missing, _MISSING))
        parts = []
        for kind, terms, phrase in groups:
            if terms:
                phrase = lead[kind] if lead and not parts else phrase
                parts.append(phrase % {"count": len(terms), "terms": ", ".join(map(in_sentence, terms))})
        return "; ".join(parts) + "." if parts else ""


def _labels(paths: tuple[str, ...], names: dict[str, str]) -> tuple[str, ...]:
    treatments = [path for path in paths if path.startswith("treatments.")]
    labels = [term_label(path, names) for path in paths if not path.startswith("treatments.")]
    if len(treatments) == 1:
        labels.append(term_label(treatments[0], names))
    elif treatments:
        labels.append(_("treatment of %(count)d provinces and territories") % {"count": len(treatments)})
    return tuple(labels)


def figure_notes(offer_basis: OfferBasis, *, scale_program: str) -> dict[str, FigureNote]:
    """Every figure line's note, keyed by line name (``grants.basis.FIGURE_LINES``)."""
    names = {line.term.removeprefix("treatments."): line.label for line in offer_basis.lines
             if line.term.startswith("treatments.")}
    # term_label wants P/T names; the lines carry "Treatment of X" labels, so use those directly.
    labels = {line.term: line.label for line in offer_basis.lines}
    return _notes(offer_basis.statuses(), scale_program, lambda paths: _labels_from(paths, labels, names))


def notes_from_statuses(
    statuses: dict[str, str], names: dict[str, str], *, scale_program: str
) -> dict[str, FigureNote]:
    """``figure_notes`` for statuses not yet saved (the live preview): term path -> status."""
    return _notes(statuses, scale_program, lambda paths: _labels(paths, names))


def _labels_from(paths, labels, names):
    treatments = [path for path in paths if path.startswith("treatments.")]
    result = [labels[path] for path in paths if not path.startswith("treatments.")]
    if len(treatments) == 1:
        result.append(labels[treatments[0]])
    elif treatments:
        result.append(_("treatment of %(count)d provinces and territories") % {"count": len(treatments)})
    return tuple(result)


def _notes(statuses, scale_program, label) -> dict[str, FigureNote]:
    bases = basis.figure_bases(statuses, scale_program=scale_program)
    return {
        line: FigureNote(line=line, assumed=label(b.assumed), inferred=label(b.inferred), missing=label(b.missing))
        for line, b in bases.items()
    }
