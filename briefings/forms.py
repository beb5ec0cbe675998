from django import forms
from django.utils.translation import gettext_lazy as _

from negotiations.models import Negotiation
from negotiations.validators import validate_record_date


class BriefingForm(forms.Form):
    """A negotiation's brief: the date from which changes are listed (the negotiation is the address's)."""

    since = forms.DateField(
        label=_("What changed since"), required=False, input_formats=["%Y-%m-%d"], validators=[validate_record_date],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"invalid": _("Write the date as YYYY-MM-DD, such as 2014-01-15.")},
    )


class JurisdictionBriefingForm(BriefingForm):
    """A jurisdiction's brief is of one negotiation: the one chosen from the list, by default its first (the
    latest started, as ``selectors.default_negotiation``). A slug no negotiation has is said next to the select,
    and the brief is that of the default, as a bad date gives the default period."""

    negotiation = forms.ChoiceField(
        label=_("Negotiation"), required=False,
        error_messages={"invalid_choice": _("There is no negotiation “%(value)s”. Pick one from the list.")},
    )

    field_order = ["negotiation", "since"]

    def __init__(self, *args, negotiations: list[Negotiation], **kwargs):
        super().__init__(*args, **kwargs)
        self.negotiations = {negotiation.slug: negotiation for negotiation in negotiations}
        self.fields["negotiation"].choices = [(negotiation.slug, negotiation.title) for negotiation in negotiations]

    @property
    def chosen_negotiation(self) -> Negotiation | None:
        """The negotiation named, or the default when none is named or the one named is refused (None: no
        negotiation is recorded). Call after ``is_valid()``."""
        named = self.negotiations.get(self.cleaned_data.get("negotiation") or "")
        return named or next(iter(self.negotiations.values()), None)
