"""Forms of the article import: the article itself, the proposed source, one proposed quote."""

from django import forms
from django.utils.translation import gettext_lazy as _

from config.numbers import format_count, format_date
from negotiations import bounds
from negotiations.article_text import NotText, read_article
from negotiations.forms import RefuseControlCharacters
from negotiations.models import (
    ArticleImport,
    Jurisdiction,
    Negotiation,
    Person,
    ProposedStatement,
    speaker_role_problem,
)
from negotiations.validators import (
    ALREADY_IN_LANGUAGE_SPOKEN,
    reported_after,
    validate_not_after_today,
    validate_record_date,
)

MAX_BYTES = 2_000_000


def _date_input():
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class ArticleForm(forms.Form):
    text = forms.CharField(label=_("Paste the article"), required=False, strip=False,
                           widget=forms.Textarea(attrs={"rows": 12}),
                           help_text=_("Plain text or HTML, as copied from the page."))
    file = forms.FileField(label=_("or upload it"), required=False,
                           help_text=_("A text or HTML file in any encoding, at most 2 MB."))
    negotiation = forms.ModelChoiceField(label=_("Negotiation"), queryset=Negotiation.objects.all(),
                                         to_field_name="slug")
    published = forms.DateField(label=_("Published on"), required=False, widget=_date_input(),
                                validators=[validate_record_date, validate_not_after_today],
                                error_messages={"invalid": _("Write the date as YYYY-MM-DD, such as 2014-01-29.")},
                                help_text=_("When the article does not say: “Wednesday” is dated from it."))
    url = forms.URLField(label=_("Address"), required=False, assume_scheme="https",
                         max_length=ArticleImport._meta.get_field("url").max_length)

    def clean(self):
        cleaned = super().clean()
        text, upload = cleaned.get("text") or "", cleaned.get("file")
        if upload is not None and text.strip():
            self.add_error("file", _("Paste the article or upload a file, not both."))
            return cleaned
        if upload is None and not text.strip():
            self.add_error("text", _("The article is empty: paste its text or upload a file."))
            return cleaned
        field = self.article_field
        if upload is not None:
            if upload.size > MAX_BYTES:
                self.add_error("file", _("This file is larger than 2 MB: is it an article?"))
                return cleaned
            data = upload.read()
        else:
            data = text
            if len(text) > MAX_BYTES:
                self.add_error("text", _("This text is longer than 2 million characters: is it an article?"))
                return cleaned
        try:
            article = read_article(data)
        except NotText as error:
            self.add_error(field, str(error))
            return cleaned
        if len(article.text) > bounds.ARTICLE_TEXT_LENGTH:
            # The text kept (HTML stripped) becomes the source's text, which has this bound.
            self.add_error(field, _("The article's text is longer than %(limit)s characters: is it one article?")
                           % {"limit": format_count(bounds.ARTICLE_TEXT_LENGTH)})
            return cleaned
        cleaned["data"] = data
        cleaned["filename"] = upload.name if upload is not None else ""
        return cleaned

    @property
    def article_field(self) -> str:
        """The field the article came in by, where what is wrong with it is said: "file" for an upload, else "text"."""
        return "file" if self.cleaned_data.get("file") is not None else "text"


class SourceForm(RefuseControlCharacters, forms.ModelForm):
    url = forms.URLField(label=_("Address"), required=False, max_length=500, assume_scheme="https")

    class Meta:
        model = ArticleImport
        fields = ["outlet", "title", "author", "published_on", "date_precision", "url"]
        widgets = {"published_on": _date_input()}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["published_on"].validators.append(validate_not_after_today)


class ListedChoiceField(forms.ChoiceField):
    """A choice among objects read once by the page and shared by all its forms (keyed by ``key``)."""

    def __init__(self, *, objects, key: str, empty_label: str, **kwargs):
        self.objects = {str(getattr(obj, key)): obj for obj in objects}
        choices = [("", empty_label), *((value, str(obj)) for value, obj in self.objects.items())]
        super().__init__(choices=choices, required=False, **kwargs)

    def clean(self, value):
        value = super().clean(value)
        return self.objects.get(value) if value else None


class ProposalForm(RefuseControlCharacters, forms.ModelForm):
    class Meta:
        model = ProposedStatement
        fields = ["quote", "speaker", "speaker_name", "speaker_role", "jurisdiction", "date", "date_precision",
                  "original_language"]
        widgets = {"quote": forms.Textarea(attrs={"rows": 3}), "date": _date_input()}

    def __init__(self, *args, people=None, jurisdictions=None, **kwargs):
        super().__init__(*args, **kwargs)
        # perf: the people and jurisdictions are read once per page, not once per proposal's form.
        people = list(Person.objects.only("slug", "name")) if people is None else people
        jurisdictions = list(Jurisdiction.objects.all()) if jurisdictions is None else jurisdictions
        self.fields["speaker"] = ListedChoiceField(objects=people, key="slug", label=_("Speaker"),
                                                   empty_label=_("a new person (name below)"))
        self.fields["jurisdiction"] = ListedChoiceField(objects=jurisdictions, key="code", label=_("On behalf of"),
                                                        empty_label=_("none: a stakeholder"))
        instance = self.instance
        self.initial["speaker"] = instance.speaker.slug if instance.speaker_id else ""
        self.initial["jurisdiction"] = instance.jurisdiction.code if instance.jurisdiction_id else ""
        for name in self.fields:
            self.fields[name].widget.attrs["id"] = f"id_p{instance.pk}_{name}"
        # What the commit refuses is refused here, next to the quote's own fields (a day to come, say).
        self.fields["date"].validators.append(validate_not_after_today)

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("speaker") and not (cleaned.get("speaker_name") or "").strip():
            self.add_error("speaker_name", _("Choose a speaker, or give the new speaker's name."))
        if cleaned.get("speaker") and "jurisdiction" not in self.errors:
            problem = speaker_role_problem(cleaned["speaker"], cleaned.get("jurisdiction"))
            if problem:
                self.add_error("jurisdiction", problem)
        if cleaned.get("original_language") and cleaned["original_language"] == self.instance.language:
            self.add_error("original_language", ALREADY_IN_LANGUAGE_SPOKEN)
        if not cleaned.get("date") and "date" not in self.errors:
            self.add_error("date", _("Give the date it was said."))
        published = self.instance.article_import.published_on if self.instance.article_import_id else None
        said = cleaned.get("date")
        if said and published and not reported_after(said, published, self.instance.article_import.date_precision):
            self.add_error("date", _("The article was published on %(published)s: what it reports was not said "
                                     "later.") % {"published": format_date(published)})
        return cleaned
