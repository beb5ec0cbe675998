"""The live fiscal preview of the offer form: what the terms being typed would cost, before anything is saved.

The offer form (negotiations) posts itself here whenever a field changes; this
view parses the same form (``negotiations.offer_forms.OfferTermsForm``, through
a parser class whose fields are built once), builds the engine's Terms and
answers with the content of the ``#fiscal-preview`` region. Terms that do not
add up are shown as the form's own messages instead of numbers, always with
status 200 so htmx swaps them in.

The preview is a read: it computes from the numbers posted and the reference
data, as the fiscal page's scenario controls do, and writes nothing. So whoever
may read the record may use it (everyone, unless READ_REQUIRES_LOGIN is set),
and it loads neither the session nor the user. It keeps, per process until the
record changes, the parser, the reference data and the effect of each offer
answered, and reads the record's version (one query) at most every FRESH_FOR
seconds: a warm preview makes no query.
"""

import datetime
import functools
import logging
from dataclasses import dataclass

from django.http import HttpResponse
from django.template import engines
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from markupsafe import Markup

from config.numbers import Numbers, numbers
from grants import fiscal, term_basis
from grants.presentation import direction
from grants.selectors import fiscal_effect, offers_with_terms, reference_data
from negotiations import record_cache
from negotiations.models import Negotiation
from negotiations.offer_forms import OfferTermsForm, basis_field, terms_parser
from negotiations.selectors.verdicts import acceptance, kept_position_book
from negotiations.terms import BASIS_STATUSES, FUNDING_SOURCES, term_paths, term_value

logger = logging.getLogger(__name__)

MOST_AFFECTED = 5
# How long the preview may compute with what this process keeps before it reads the record's
# version again: a commit made by another process shows in the preview within this many seconds
# (one made by this process, at once).
FRESH_FOR = 1.0

# The national lines the preview shows, in order (trainees are a count, the rest money).
LINES = (
    ("trainees", _("Trainees")),
    ("federal_cost", _("Federal cost")),
    ("provincial_cost", _("Provincial and territorial cost")),
    ("employer_cost", _("Employer cost")),
    ("lma_diverted", _("Taken from the LMA")),
    ("lmda_redirected", _("Taken from the LMDA")),
    ("provinces_need", _("Provinces and territories must find")),
)

_GROUP_LABELS = {
    FUNDING_SOURCES: _("Where the money comes from"),
    "treatments": _("Provinces and territories"),
    "phase_in": _("Phase-in"),
}


@dataclass(frozen=True)
class Line:
    """One national line, as shown: its value, and its change from the offer answered."""

    name: str
    label: str
    value: str
    change: str | None = None  # signed; None when the terms answer no offer
    direction: str = "same"  # up, down or same


@dataclass(frozen=True)
class Affected:
    code: str
    name: str
    provinces_need: str
    lma_diverted: str


@dataclass(frozen=True)
class Problem:
    label: str | None
    message: str


@require_POST
def preview(request):
    version = record_cache.refresh(max_age=FRESH_FOR)
    parser = record_cache.kept(version, "offer-terms-parser", terms_parser)
    template = engines["jinja2"].get_template("grants/preview.html")
    return HttpResponse(template.render(_region(parser(request.POST), version)))


def preview_basis(data, names: dict[str, str], *, scale_program: str) -> dict:
    """What the previewed figures rest on, from the basis controls of the form being edited.

    The preview has no saved basis: it reads the statuses as typed. ``given`` is False when no
    term has one yet ("basis not yet given").
    """
    # perf: a form with no basis typed yet (the usual case while terms are drafted) is told so without
    # reading the thirty-odd status controls one by one (bench/run "preview POST").
    if not any(key.startswith("basis__") and data.get(key) in BASIS_STATUSES for key in data):
        return {"given": False, "notes": [], "all_reported": False}
    statuses = {}
    for path in term_paths(names):
        status = data.get(basis_field(path, "status"), "")
        statuses[path] = status if status in BASIS_STATUSES else "missing"
    given = any(status != "missing" for status in statuses.values())
    notes = term_basis.notes_from_statuses(statuses, names, scale_program=scale_program) if given else {}
    shown = [note for note in notes.values() if not note.all_reported and note.line in _SHOWN_BASIS]
    return {"given": given, "notes": shown,
            "all_reported": given and all(status == "reported" for status in statuses.values())}


def _problems(problems) -> dict:
    return {"problems": problems}


_SHOWN_BASIS = ("trainees", "federal_cost", "provincial_cost", "employer_cost", "provinces_need")


def _region(form: OfferTermsForm, version: int | None) -> dict:
    """The region's context: the figures for the terms posted, or the problems that keep them from adding up."""
    if not form.is_valid():
        return _problems(_form_problems(form))
    try:
        effect = fiscal.compute(form.terms(), reference_data(version))
    except fiscal.InvalidTerms as error:
        # Rules only the engine knows (a scale larger than the program's envelope, say).
        return _problems([Problem(_label(form, e.field), e.message) for e in error.errors])
    except (ValueError, ArithmeticError):
        # The preview must answer whatever is typed; a failure here is a bug to look into, not a 500.
        logger.exception("fiscal preview failed")
        return _problems([Problem(None, _("These terms cannot be computed. Check the amounts."))])

    answered = form.cleaned_data.get("responds_to")
    comparison = None
    if answered is not None:
        # Every keystroke of a counter-offer compares with the same offer: its effect is kept.
        answered_effect = record_cache.kept(version, ("offer-effect", answered.slug),
                                            lambda: _saved_effect(answered.slug))
        if answered_effect is not None:
            try:
                comparison = fiscal.compare(answered_effect, effect)
            except ValueError:  # computed over other provinces and territories than these terms
                logger.warning("the offer answered (%s) cannot be compared with these terms", answered.slug)
    verdicts_context = _verdicts(form.data, form.terms(), version)
    # perf: the P/Ts' names in the language shown, kept per record version (a translated field
    # costs a lookup of the language on every read; bench/run "preview POST").
    names = record_cache.kept(version, ("pt-names", get_language()),
                              lambda: {j.code: j.name for j in form.provinces})
    basis_notes = preview_basis(form.data, names, scale_program=form.cleaned_data.get("scale_program") or "LMA")
    ranked = sorted(effect.by_jurisdiction, key=lambda lines: (-lines.provinces_need, lines.code))
    write = numbers()
    return dict(
        **verdicts_context,
        problems=None,
        basis=basis_notes,
        fiscal_year=effect.scenario.fiscal_year,
        answered_title=answered.title if comparison is not None else None,
        lines=[_line(write, name, label, effect.national, comparison) for name, label in _line_labels(get_language())],
        most_affected=[
            Affected(lines.code, names.get(lines.code, lines.code), write.money(lines.provinces_need),
                     write.money(lines.lma_diverted))
            for lines in ranked[:MOST_AFFECTED]
            if lines.provinces_need > 0
        ],
    )


@functools.lru_cache(maxsize=8)
def _line_labels(language: str | None) -> tuple[tuple[str, str], ...]:
    """LINES with their labels translated into ``language`` (the active one), once per process."""
    return tuple((name, str(label)) for name, label in LINES)


def _line(write: Numbers, name: str, label, national: fiscal.Lines, comparison: fiscal.Comparison | None) -> Line:
    value = write.line(name, getattr(national, name))
    if comparison is None:
        return Line(name, label, value)
    difference = getattr(comparison.national, name)
    return Line(name, label, value, write.change(name, difference), direction(difference) or "same")


def _saved_effect(slug: str) -> fiscal.Effect | None:
    """The effect of a saved offer, or None when its stored terms cannot be computed."""
    offer = offers_with_terms().filter(slug=slug).first()
    if offer is None:  # deleted since the form checked it
        return None
    try:
        return fiscal_effect(offer)
    except (ValueError, ArithmeticError):
        logger.warning("the offer answered (%s) has terms the engine refuses", slug)
        return None


def _form_problems(form: OfferTermsForm) -> list[Problem]:
    return [
        Problem(_label(form, name), message)
        for name, messages in form.errors.items()
        for message in messages
    ]


def _label(form: OfferTermsForm, name: str):
    if name in form.fields:
        return form.fields[name].label
    return _GROUP_LABELS.get(name)


def _negotiation_ids() -> dict[str, int]:
    return dict(Negotiation.objects.values_list("slug", "pk"))


def _verdicts(data, terms, version: int | None) -> dict:
    """Who would sign these terms, tabled on the date typed, against the positions in force then (the
    latest positions when no date is typed), as the region's ``verdicts`` (rendered HTML, or None when
    no negotiation is chosen)."""
    # perf: the negotiations and each one's positions are kept per record version, like the parser, so a
    # warm preview still makes no query; and the verdicts' HTML is kept per set of values of the terms
    # the conditions check (most keystrokes change none of them): bench/run's preview ratio stays at its
    # figure without the verdicts (measured in-process over 300 previews: +3.5 ms each rendered afresh,
    # within the noise when kept).
    negotiation_id = record_cache.kept(version, "negotiation-ids", _negotiation_ids).get(data.get("negotiation", ""))
    if negotiation_id is None:
        return {"verdicts": None}
    try:
        on = datetime.date.fromisoformat(data.get("tabled_on", ""))
    except ValueError:
        on = None
    book = kept_position_book(negotiation_id, version=version)
    key = (version, get_language(), negotiation_id, on, tuple(term_value(terms, path) for path in book.checked_terms))
    if version is None or key not in _rendered_verdicts:
        html = Markup(engines["jinja2"].get_template("grants/_preview_verdicts.html").render({
            "acceptance": acceptance(terms, book=book, on=on or datetime.date.max), "acceptance_dated": on is not None,
        }))
        if version is None:
            return {"verdicts": html}
        if len(_rendered_verdicts) >= KEPT_VERDICTS:
            _rendered_verdicts.pop(next(iter(_rendered_verdicts)))
        _rendered_verdicts[key] = html
    return {"verdicts": _rendered_verdicts[key]}


KEPT_VERDICTS = 256
_rendered_verdicts: dict[tuple, Markup] = {}


@record_cache.on_new_version
def _forget_verdicts(**kwargs) -> None:
    _rendered_verdicts.clear()
