"""What a follow button posts: the kind of thing followed and its key (a slug, a code or search words)."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from alerts.models import MAX_QUERY_LENGTH, Follow
from negotiations.forms import RefuseControlCharacters
from negotiations.models import Jurisdiction, Negotiation, Person

KINDS = {
    "negotiation": (Negotiation, "slug", _("No negotiation is recorded under “%(key)s”.")),
    "jurisdiction": (Jurisdiction, "code", _("No jurisdiction has the code “%(key)s”.")),
    "person": (Person, "slug", _("No person is recorded under “%(key)s”.")),
}


class FollowTargetForm(RefuseControlCharacters, forms.Form):
    kind = forms.ChoiceField(label=_("What to follow"), choices=[
        ("negotiation", _("negotiation")), ("jurisdiction", _("jurisdiction")),
        ("person", _("person")), ("query", _("search")),
    ])
    key = forms.CharField(label=_("Which"), max_length=MAX_QUERY_LENGTH, strip=True)
    frequency = forms.ChoiceField(label=_("How often"), choices=Follow.Frequency.choices, required=False)

    def clean(self):
        cleaned = super().clean()
        kind, key = cleaned.get("kind"), cleaned.get("key")
        if not kind or not key:
            return cleaned
        if kind == "query":
            cleaned["target"] = {"query": key}
            return cleaned
        model, field, missing = KINDS[kind]
        value = key.upper() if field == "code" else key
        found = model.objects.filter(**{field: value}).first()
        if found is None:
            self.add_error("key", missing % {"key": key})
        else:
            cleaned["target"] = {kind: found}
        return cleaned


class FrequencyForm(RefuseControlCharacters, forms.Form):
    frequency = forms.ChoiceField(label=_("How often"), choices=Follow.Frequency.choices)
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
