"""Forms that parse the fiscal pages' query strings, and the scenario form."""

from decimal import Decimal

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from config.numbers import format_date
from grants.selectors import OfferChoice
from negotiations.forms import RefuseControlCharacters
from negotiations.models import Negotiation
from negotiations.offer_forms import FiscalYearField, FractionField, OfferTermsForm
from negotiations.terms import FISCAL_YEAR
from negotiations.validators import validate_record_date

STATUS_QUO = "status-quo"


class CompareForm(RefuseControlCharacters, forms.Form):
    """Two things to compare, each an offer's slug or the status quo; missing ones get sensible defaults.

    Defaults: b is the newest offer that answers another and a the offer it answers; failing
    that, the two newest offers (older as a); with one given, its counterpart follows the same idea.
    """

    a = forms.ChoiceField(label=_("Compare"))
    b = forms.ChoiceField(label=_("with"))

    def __init__(self, params, *, offers: list[OfferChoice]):
        self.offers = {offer.slug: offer for offer in offers}
        newest_first = list(offers)
        a, b = params.get("a") or "", params.get("b") or ""
        if not a and not b:
            a, b = _default_pair(newest_first)
        elif not a:
            answered = self.offers.get(b)
            a = answered.responds_to if answered and answered.responds_to else STATUS_QUO
        elif not b:
            b = _counterpart_of(a, newest_first)
        super().__init__({"a": a, "b": b})
        chronological = sorted(offers, key=lambda offer: (offer.tabled_on, offer.title))
        choices = [(STATUS_QUO, _("Status quo (the LMA as it is, no grant)"))]
        choices += [(offer.slug, f"{offer.title} ({format_date(offer.tabled_on)})") for offer in chronological]
        for name in ("a", "b"):
            self.fields[name].choices = choices
            self.fields[name].error_messages["invalid_choice"] = _(
                "There is no offer “%(value)s”. Pick one from the list."
            )


def _default_pair(newest_first: list[OfferChoice]) -> tuple[str, str]:
    for offer in newest_first:
        if offer.responds_to:
            return offer.responds_to, offer.slug
    if len(newest_first) >= 2:
        return newest_first[1].slug, newest_first[0].slug
    if newest_first:
        return STATUS_QUO, newest_first[0].slug
    return STATUS_QUO, STATUS_QUO


def _counterpart_of(a: str, newest_first: list[OfferChoice]) -> str:
    for offer in newest_first:
        if offer.responds_to == a:
            return offer.slug
    for offer in newest_first:
        if offer.slug != a:
            return offer.slug
    return STATUS_QUO


class ScenarioForm(OfferTermsForm):
    """A what-if: the offer form's terms (the same fields, so the offer form can post itself here with
    "Save as scenario"), a title, the negotiation and date to judge who would sign, and the scenario
    assumptions (employer participation, fiscal year)."""

    title = forms.CharField(label=_("Title"), max_length=250,
                            error_messages={"required": _("Give the scenario a title, so colleagues can find it.")})
    negotiation = forms.ModelChoiceField(Negotiation.objects.only("pk", "slug", "title"), to_field_name="slug",
                                         label=_("Negotiation"), empty_label=_("Choose a negotiation"))
    tabled_on = forms.DateField(label=_("As of"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
                                validators=[validate_record_date],
                                help_text=_("Who would sign is judged against the positions in force on this date."))
    participation = FractionField(label=_("Employer participation"), required=False, min_value=0, max_value=1,
                                       max_digits=11, decimal_places=10,
                                       help_text=_("Between 0 and 1; empty: every employer pays its share."))
    fiscal_year = FiscalYearField(label=_("Fiscal year"), required=False, max_length=7,
                                  validators=[RegexValidator(rf"^{FISCAL_YEAR.pattern}\Z", _("Write a fiscal year like 2015-16."))],
                                  help_text=_("Such as 2015-16; empty: the year at full scale."))

    OWN_FIELDS = ("title", "negotiation", "tabled_on", "participation", "fiscal_year")
    FIELDS_ABOVE_TERMS = (*OWN_FIELDS, "responds_to")

    def scenario_fields(self) -> list[forms.BoundField]:
        """The scenario's own fields, then the offer it answers: the form's first fieldset."""
        return [self[name] for name in self.FIELDS_ABOVE_TERMS]

    def scenario(self) -> dict:
        """The scenario's own fields, as ``grants.scenarios.scenario_create`` takes them."""
        data = self.cleaned_data
        participation = data.get("participation")
        return {"title": data["title"], "negotiation": data["negotiation"], "as_of": data["tabled_on"],
                "participation": Decimal(1) if participation is None else participation,
                "fiscal_year": data.get("fiscal_year") or ""}
