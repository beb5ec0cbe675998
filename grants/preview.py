"""The live fiscal preview of the offer form: what the terms being typed would cost, before anything is saved.

The offer form (negotiations) posts itself here whenever a field changes; this
view parses the same form (``negotiations.offer_forms.OfferTermsForm``), builds
the engine's Terms and answers with the content of the ``#fiscal-preview``
region. Terms that do not add up are shown as the form's own messages instead
of numbers, always with status 200 so htmx swaps them in.
"""

import logging
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from grants import fiscal
from grants.selectors import engine_terms, fiscal_effect, offers_with_terms, reference_data
from negotiations.offer_forms import OfferTermsForm
from negotiations.terms import FUNDING_SOURCES

logger = logging.getLogger(__name__)

MOST_AFFECTED = 5
PERMISSIONS = ("negotiations.add_offer", "negotiations.change_offer")

# The national lines the preview shows, in order, and whether each is a count or money.
LINES = (
    ("trainees", _("Trainees"), "count"),
    ("federal_cost", _("Federal cost"), "money"),
    ("provincial_cost", _("Provincial and territorial cost"), "money"),
    ("employer_cost", _("Employer cost"), "money"),
    ("lma_diverted", _("Taken from the LMA"), "money"),
    ("lmda_redirected", _("Taken from the LMDA"), "money"),
    ("provinces_need", _("Provinces and territories must find"), "money"),
)

# Engine field names (grants.fiscal.Terms) as the form calls them, so its messages name the form's fields.
_ENGINE_FIELDS = {
    "federal": "federal_amount",
    "provincial": "provincial_amount",
    "employer": "employer_amount",
    "federal_sources": FUNDING_SOURCES,
    "provincial_sources": FUNDING_SOURCES,
}
_GROUP_LABELS = {
    FUNDING_SOURCES: _("Where the money comes from"),
    "treatments": _("Provinces and territories"),
    "phase_in": _("Phase-in"),
}


@dataclass(frozen=True)
class Line:
    name: str
    label: str
    kind: str  # count or money
    value: int | Decimal
    difference: int | Decimal | None = None  # from the offer answered; None when it answers none

    @property
    def direction(self) -> str:
        if not self.difference:
            return "same"
        return "up" if self.difference > 0 else "down"

    @property
    def magnitude(self) -> int | Decimal | None:
        """The size of the difference; ``direction`` gives its sign."""
        return None if self.difference is None else abs(self.difference)


@dataclass(frozen=True)
class Affected:
    code: str
    name: str
    trainees: int
    provinces_need: Decimal
    lma_diverted: Decimal
    provincial_new_money: Decimal


@dataclass(frozen=True)
class Problem:
    label: str | None
    message: str


@require_POST
def preview(request):
    if not any(request.user.has_perm(permission) for permission in PERMISSIONS):
        if not request.user.is_authenticated and not request.htmx:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    form = OfferTermsForm(request.POST)
    # The offer answered comes with its terms rows, in the query that validates the choice.
    form.fields["responds_to"].queryset = offers_with_terms()
    return render(request, "grants/_preview.html", _preview_context(form))


def _preview_context(form: OfferTermsForm) -> dict:
    if not form.is_valid():
        return {"problems": _form_problems(form)}
    try:
        effect = fiscal.compute(engine_terms(form.terms()), reference_data())
    except fiscal.InvalidTerms as error:
        # Rules only the engine knows (a scale larger than the program's envelope, say).
        return {"problems": [
            Problem(_label(form, _ENGINE_FIELDS.get(e.field, e.field)), e.message) for e in error.errors
        ]}
    except (ValueError, ArithmeticError):
        # The preview must answer whatever is typed; a failure here is a bug to look into, not a 500.
        logger.exception("fiscal preview failed")
        return {"problems": [Problem(None, _("These terms cannot be computed. Check the amounts."))]}

    answered = form.cleaned_data.get("responds_to")
    comparison = None
    if answered is not None:
        try:
            comparison = fiscal.compare(fiscal_effect(answered), effect)
        except (ValueError, ArithmeticError):
            logger.warning("the offer answered (%s) has terms the engine refuses", answered.slug)
    names = {j.code: j.name_en for j in form.provinces}
    ranked = sorted(effect.by_jurisdiction, key=lambda lines: (-lines.provinces_need, lines.code))
    return {
        "effect": effect,
        "answered": answered if comparison is not None else None,
        "lines": [
            Line(name, label, kind, getattr(effect.national, name),
                 getattr(comparison.national, name) if comparison is not None else None)
            for name, label, kind in LINES
        ],
        "most_affected": [
            Affected(lines.code, names.get(lines.code, lines.code), lines.trainees, lines.provinces_need,
                     lines.lma_diverted, lines.provincial_new_money)
            for lines in ranked[:MOST_AFFECTED]
            if lines.provinces_need > 0
        ],
    }


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
