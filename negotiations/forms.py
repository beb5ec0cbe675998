"""Forms for the record pages: they parse and validate input; the services in negotiations.services.record write.

Choices are named by their readable keys (a jurisdiction's code, a slug), so a link such as
/statements/new?jurisdiction=ON&speaker=brad-duguid can fill the form in.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from negotiations.models import (
    Jurisdiction,
    Meeting,
    Negotiation,
    Offer,
    Person,
    Position,
    Source,
    Stance,
    Statement,
)

# The key each choice is submitted as.
_KEYS = {"negotiation": "slug", "jurisdiction": "code", "speaker": "slug", "source": "slug", "meeting": "slug",
         "triggered_by_offer": "slug", "triggered_by_meeting": "slug", "sources": "slug"}


def _date_input():
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class _KeyedChoicesMixin:
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, key in _KEYS.items():
            if name in self.fields:
                self.fields[name].to_field_name = key

    @classmethod
    def initial_from(cls, query) -> dict:
        """Initial values from a query string, for the fields this form has."""
        return {name: query[name] for name in cls.base_fields if query.get(name)}


class StatementForm(_KeyedChoicesMixin, forms.ModelForm):
    class Meta:
        model = Statement
        fields = ["negotiation", "speaker", "jurisdiction", "date", "date_precision", "language",
                  "original_language", "quote", "context", "source", "meeting"]
        widgets = {
            "date": _date_input(),
            "quote": forms.Textarea(attrs={"rows": 4}),
        }
        help_texts = {
            "context": _("Where or to whom it was said, e.g. “in an interview with The Canadian Press”."),
            "meeting": _("The meeting where it was said, if any."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["jurisdiction"].empty_label = _("none: a stakeholder")
        self.fields["meeting"].empty_label = _("none")
        self.fields["source"].queryset = Source.objects.only("slug", "outlet", "title", "published_on")
        self.fields["meeting"].queryset = Meeting.objects.only("slug", "title", "date")


class PositionForm(_KeyedChoicesMixin, forms.ModelForm):
    class Meta:
        model = Position
        fields = ["negotiation", "jurisdiction", "as_of", "date_precision", "stance", "summary", "conditions",
                  "evidence", "sources", "triggered_by_offer", "triggered_by_meeting"]
        widgets = {
            "as_of": _date_input(),
            "summary": forms.Textarea(attrs={"rows": 3}),
            "conditions": forms.Textarea(attrs={"rows": 2}),
            "evidence": forms.SelectMultiple(attrs={"size": 6}),
            "sources": forms.SelectMultiple(attrs={"size": 6}),
        }
        help_texts = {
            "evidence": _("The statements that show this stance (hold Ctrl or ⌘ to pick several)."),
            "sources": _("The articles or documents that report it."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["evidence"].queryset = (
            Statement.objects.filter(retracted=False).select_related("speaker").order_by("-date", "-pk")
        )
        self.fields["sources"].queryset = Source.objects.only("slug", "outlet", "title", "published_on")
        self.fields["triggered_by_offer"].queryset = Offer.objects.only("slug", "title")
        self.fields["triggered_by_meeting"].queryset = Meeting.objects.only("slug", "title", "date")
        self.fields["triggered_by_offer"].empty_label = _("none")
        self.fields["triggered_by_meeting"].empty_label = _("none")
        self.fields["stance"].choices = [("", _("choose a stance")), *Stance.choices]


class StatementFilterForm(forms.Form):
    """The filters of the statement list; an unknown value is reported and ignored."""

    jurisdiction = forms.ModelChoiceField(
        Jurisdiction.objects.all(), to_field_name="code", required=False, label=_("On behalf of"),
        empty_label=_("All jurisdictions"),
    )
    speaker = forms.ModelChoiceField(
        Person.objects.filter(pk__in=Statement.objects.values("speaker")), to_field_name="slug", required=False,
        label=_("Speaker"), empty_label=_("Everyone"),
    )
    negotiation = forms.ModelChoiceField(
        Negotiation.objects.all(), to_field_name="slug", required=False, label=_("Negotiation"),
        empty_label=_("All negotiations"),
    )

    def filters(self) -> dict:
        """The filters that parsed; call after is_valid()."""
        return {name: self.cleaned_data[name] for name in self.fields if self.cleaned_data.get(name)}


class SearchForm(forms.Form):
    q = forms.CharField(
        label=_("Words to find"), max_length=200, required=False,
        error_messages={"max_length": _("A search can be at most %(limit_value)d characters long.")},
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )
