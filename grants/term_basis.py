"""The basis of an offer's terms as the fiscal pages, the preview and the CSV show it.

``grants.basis`` (pure) says which figures rest on which terms; this module reads the bases
(``negotiations.term_basis``) and names those terms for people, with the P/Ts' treatments
folded into one entry when several share a status.
"""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from grants import basis
from negotiations.term_basis import OfferBasis, offer_basis, offers_basis

__all__ = ["FigureNote", "figure_notes", "offer_basis", "offers_basis"]


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
        parts = []
        if self.assumed:
            parts.append(ngettext("rests on %(count)d assumed term: %(terms)s", "rests on %(count)d assumed terms: %(terms)s",
                                  len(self.assumed)) % {"count": len(self.assumed), "terms": ", ".join(self.assumed)})
        if self.inferred:
            parts.append(ngettext("%(count)d inferred: %(terms)s", "%(count)d inferred: %(terms)s",
                                  len(self.inferred)) % {"count": len(self.inferred), "terms": ", ".join(self.inferred)})
        if self.missing:
            parts.append(ngettext("%(count)d without a basis: %(terms)s", "%(count)d without a basis: %(terms)s",
                                  len(self.missing)) % {"count": len(self.missing), "terms": ", ".join(self.missing)})
        text = "; ".join(parts)
        return text[:1].upper() + text[1:] + "." if text else ""


def _labels(paths: tuple[str, ...], offer_basis: OfferBasis) -> tuple[str, ...]:
    treatments = [path for path in paths if path.startswith("treatments.")]
    labels = [offer_basis.by_term[path].label for path in paths if not path.startswith("treatments.")]
    if len(treatments) == 1:
        labels.append(offer_basis.by_term[treatments[0]].label)
    elif treatments:
        labels.append(_("treatment of %(count)d provinces and territories") % {"count": len(treatments)})
    return tuple(labels)


def figure_notes(offer_basis: OfferBasis, *, scale_program: str) -> dict[str, FigureNote]:
    """Every figure line's note, keyed by line name (``grants.basis.FIGURE_LINES``)."""
    bases = basis.figure_bases(offer_basis.statuses(), scale_program=scale_program)
    return {
        line: FigureNote(line=line, assumed=_labels(b.assumed, offer_basis), inferred=_labels(b.inferred, offer_basis),
                         missing=_labels(b.missing, offer_basis))
        for line, b in bases.items()
    }
