"""Forms for the record pages: they parse and validate input; the services in negotiations.services.record write.

Choices are named by their readable keys (a jurisdiction's code, a slug), so a link such as
/statements/new?jurisdiction=ON&speaker=brad-duguid can fill the form in.
"""

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from config.keys import is_stored_key
from config.numbers import format_date
from negotiations import bounds
from negotiations.acceptance import OWN_TREATMENT, condition_problems, value_choices
from negotiations.bounds import has_control_characters, without_control_characters
from negotiations.models import (
    Condition,
    Jurisdiction,
    Meeting,
    Negotiation,
    Offer,
    Person,
    Position,
    Source,
    Stance,
    Statement,
    speaker_role_problem,
)
from negotiations.term_basis import choice_code, choice_label, term_label
from negotiations.terms import is_share, term_paths
from negotiations.validators import (
    CONTROL_CHARACTERS_TAKEN_OUT,
    reported_after,
    validate_not_after_today,
    validate_record_date,
)

# The key each choice is submitted as.
_KEYS = {"negotiation": "slug", "jurisdiction": "code", "speaker": "slug", "source": "slug", "meeting": "slug",
         "triggered_by_offer": "slug", "triggered_by_meeting": "slug", "sources": "slug"}


def _date_input():
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class RefuseControlCharacters:
    """A form mixin for the site's forms, so that what is typed is refused with a word, never dropped
    without one. Put it first among the bases.

    - A posted value holding NUL or another control character (line breaks and tabs aside) is refused
      next to its field, before any field reads it (a NUL in a lookup makes PostgreSQL raise). It comes
      back without them, the rest of its text kept (a page break pasted from a PDF ends a line), so
      that saving again saves it; the other fields keep what was typed.
    - No field carries the browser's ``maxlength``: the browser cuts a longer text pasted in without
      a word (600 characters of context became 300). The field's own check says how long the text may
      be and how long it is, and the form comes back with the whole text to shorten.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._set_aside_control_characters()

    def __getitem__(self, name):
        # Where each field is drawn: the fields a form adds after its own __init__ are drawn without it too.
        bound = super().__getitem__(name)
        bound.field.widget.attrs.pop("maxlength", None)
        return bound

    def _set_aside_control_characters(self):
        if not self.is_bound or hasattr(self, "_refused_keys"):
            return
        self._refused_keys = []
        getlist = getattr(self.data, "getlist", None)
        # How each value to change is read: without its control characters (and refused), or, a value of nothing but
        # zero-width characters (a quote of one was recorded, shown as “”), as empty, so a required field says so.
        rewrite = {}
        for key in list(self.data):
            values = getlist(key) if getlist else [self.data[key]]
            if any(isinstance(value, str) and has_control_characters(value) for value in values):
                self._refused_keys.append(key)
                rewrite[key] = _without_control_characters
            elif any(isinstance(value, str) and bounds.shows_nothing(value) for value in values):
                rewrite[key] = _visible
        if rewrite:
            data = self.data.copy()
            for key, read in rewrite.items():
                if getlist:
                    data.setlist(key, [read(value) for value in getlist(key)])
                else:
                    data[key] = read(data[key])
            self.data = data

    def full_clean(self):
        self._set_aside_control_characters()
        super().full_clean()
        if not self.is_bound or not self._refused_keys:
            return
        names = {self.add_prefix(name): name for name in self.fields}
        for key in self._refused_keys:
            name = names.get(key)
            if name is not None:
                self._errors.pop(name, None)  # what its value without them makes of it
                self.add_error(name, forms.ValidationError(CONTROL_CHARACTERS_TAKEN_OUT, code="control_characters"))


def _without_control_characters(value):
    return without_control_characters(value) if isinstance(value, str) else value


def _visible(value):
    return "" if isinstance(value, str) and bounds.shows_nothing(value) else value


OF_ANOTHER_NEGOTIATION = _("Not one of this negotiation's: it belongs to another negotiation, or does not exist.")


def scope_to_negotiation(form: forms.BaseForm, fields: tuple[str, ...], *, also_reload: tuple[str, ...] = ()) -> None:
    """Make the named fields (a negotiation's meetings, offers or statements) offer only those of the
    negotiation the form names: in what was posted, else in its initial values (none when it names
    none), and have the negotiation's select reload them, with htmx, when it changes.

    A record keeps years of negotiations: listing every meeting and statement of every one would
    make these forms weigh megabytes (the position form weighed 1.5 MB at scale 100), and a meeting
    of another negotiation is never the right answer. The reload asks the same page for
    ``?negotiation=<slug>`` and swaps in only these fields' widgets (and the elements whose ids are
    in ``also_reload``), leaving everything typed elsewhere as it is.
    """
    chosen = form.data.get(form.add_prefix("negotiation")) if form.is_bound else form.initial.get("negotiation")
    slug = getattr(chosen, "slug", chosen) or None  # a slug, or a Negotiation as initial value
    for name in fields:
        field = form.fields[name]
        field.queryset = field.queryset.filter(negotiation__slug=slug) if slug else field.queryset.none()
        field.error_messages["invalid_choice"] = OF_ANOTHER_NEGOTIATION
    reloaded = [f"#{form[name].auto_id}" for name in fields] + [f"#{element}" for element in also_reload]
    widget = form.fields["negotiation"].widget
    if not isinstance(widget, ReloadingSelect):  # a plain select would silently reload nothing
        raise TypeError(f"{type(form).__name__}'s negotiation field needs the ReloadingSelect widget")
    widget.reloads = ",".join(reloaded)


class ChoiceList(forms.CheckboxSelectMultiple):
    """Boxes to tick in a frame that scrolls, for a long list of records (sources, statements): each
    choice's whole text wraps onto the lines it needs, where a select cut it off at its edge."""

    template_name = "negotiations/widgets/choice_list.html"


class QuoteChoiceList(ChoiceList):
    """Statements to choose from, each marked with the language of its quote (``lang``)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex=subindex, attrs=attrs)
        option["lang"] = getattr(getattr(value, "instance", None), "language", "")
        return option


class ReloadingSelect(forms.Select):
    """A negotiation's select whose change reloads the fields that depend on it (``reloads``: their
    ids, set by :func:`scope_to_negotiation`); the htmx attributes are in its template."""

    template_name = "negotiations/widgets/reloading_select.html"
    reloads = ""

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["reloads"] = self.reloads
        return context


class StoredKeysChoiceField(forms.ModelMultipleChoiceField):
    """Rows chosen by key; a value the database cannot hold as one (99999999999999999999, which overflows SQLite's
    integers when looked up) is an invalid choice, as one it holds but that names no row is, not a 500."""

    def _check_values(self, value):
        field = self.queryset.model._meta.get_field(self.to_field_name) if self.to_field_name else self.queryset.model._meta.pk
        for key in value or ():
            if not is_stored_key(field, key):
                raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice",
                                            params={"value": key})
        return super()._check_values(value)


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


class StatementForm(RefuseControlCharacters, _KeyedChoicesMixin, forms.ModelForm):
    class Meta:
        model = Statement
        fields = ["negotiation", "speaker", "jurisdiction", "date", "date_precision", "language",
                  "original_language", "quote", "context", "context_fr", "source", "meeting"]
        widgets = {
            "negotiation": ReloadingSelect,
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
        # The model's rule (validate_not_after_today), run with the field's own checks so that a year typed wrong is
        # said as such, before clean() compares the date with the source's.
        self.fields["date"].validators.append(validate_not_after_today)
        self.fields["meeting"].empty_label = _("none")
        self.fields["source"].queryset = Source.objects.only("slug", "outlet", "title", "published_on", "date_precision")
        self.fields["meeting"].queryset = Meeting.objects.only("slug", "title", "date", "date_precision")
        self.fields["context"].label = _("Context in English")
        self.fields["context_fr"].label = _("Context in French")
        scope_to_negotiation(self, self.SCOPED)

    SCOPED = ("meeting",)  # reloaded by the page when the negotiation changes

    def clean(self):
        cleaned = super().clean()
        said, source = cleaned.get("date"), cleaned.get("source")
        if said and source and not reported_after(said, source.published_on, source.date_precision):
            self.add_error("date", _("The source was published on %(published)s: what it reports was not said "
                                     "later. Check the date, or the source.") % {"published": format_date(source.published_on)})
        # Said with the other problems of the form, not only once every required field is filled in
        # (the service checks it again: it is the rule for every way in).
        speaker = cleaned.get("speaker")
        if speaker and "jurisdiction" not in self.errors:
            if problem := speaker_role_problem(speaker, cleaned.get("jurisdiction")):
                self.add_error("jurisdiction", problem)
        return cleaned


class PositionForm(RefuseControlCharacters, _KeyedChoicesMixin, forms.ModelForm):
    class Meta:
        model = Position
        fields = ["negotiation", "jurisdiction", "as_of", "date_precision", "stance", "summary", "conditions",
                  "summary_fr", "conditions_fr", "evidence", "sources", "triggered_by_offer", "triggered_by_meeting"]
        widgets = {
            "negotiation": ReloadingSelect,
            "as_of": _date_input(),
            "summary": forms.Textarea(attrs={"rows": 3}),
            "conditions": forms.Textarea(attrs={"rows": 2}),
            "summary_fr": forms.Textarea(attrs={"rows": 3}),
            "conditions_fr": forms.Textarea(attrs={"rows": 2}),
            "evidence": QuoteChoiceList,
            "sources": ChoiceList,
        }
        field_classes = {"evidence": StoredKeysChoiceField}
        help_texts = {
            "evidence": _("The statements that show this stance."),
            "sources": _("The articles or documents that report it."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["as_of"].validators.append(validate_not_after_today)  # (the model's rule, run first: as above)
        self.fields["evidence"].queryset = (
            Statement.objects.filter(retracted=False).select_related("speaker").order_by("-date", "-pk")
        )
        self.fields["sources"].queryset = Source.objects.only("slug", "outlet", "title", "published_on", "date_precision")
        self.fields["triggered_by_offer"].queryset = Offer.objects.only("slug", "title")
        self.fields["triggered_by_meeting"].queryset = Meeting.objects.only("slug", "title", "date", "date_precision")
        self.fields["triggered_by_offer"].empty_label = _("none")
        self.fields["triggered_by_meeting"].empty_label = _("none")
        self.fields["stance"].choices = [("", _("choose a stance")), *Stance.choices]
        # Each text's language in its label: on the French page « Résumé » had French typed into the English summary.
        self.fields["summary"].label = _("Summary in English")
        self.fields["conditions"].label = _("Stated conditions in English")
        self.fields["summary_fr"].label = _("Summary in French")
        self.fields["conditions_fr"].label = _("Stated conditions in French")
        scope_to_negotiation(self, self.SCOPED)

    SCOPED = ("evidence", "triggered_by_offer", "triggered_by_meeting")  # reloaded when the negotiation changes


class StatementFilterForm(RefuseControlCharacters, forms.Form):
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


class SearchForm(RefuseControlCharacters, forms.Form):
    q = forms.CharField(
        label=_("Words to find"), max_length=200, required=False,
        error_messages={"max_length": _("A search can be at most %(limit_value)d characters long.")},
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )


class ConditionForm(RefuseControlCharacters, forms.Form):
    """One stated condition of a position: a check on a term (term, operator, value) or words only.

    Leaving the term and the operator empty keeps the condition in words: it makes the verdict
    ``unknown`` rather than a guess. The statement that states it is named by its ref.
    """

    text = forms.CharField(label=_("In words, in English"), max_length=300, required=False)
    text_fr = forms.CharField(label=_("In words, in French"), max_length=300, required=False)
    term = forms.ChoiceField(label=_("Term"), required=False)
    operator = forms.ChoiceField(label=_("Check"), required=False,
                                 choices=[("", _("in words only")), *Condition.Operator.choices])
    value = forms.CharField(label=_("Value"), max_length=200, required=False)
    statement = forms.ModelChoiceField(
        Statement.objects.filter(retracted=False), to_field_name="ref", required=False, label=_("Stated in"),
        widget=forms.TextInput(attrs={"placeholder": _("the statement's ref")}),
        error_messages={"invalid_choice": _("No statement has this ref.")},
    )

    def __init__(self, *args, term_choices=(), pt_codes=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.pt_codes = tuple(pt_codes)
        self.fields["term"].choices = [("", _("in words only")), *term_choices]

    def clean(self):
        data = super().clean()
        term, operator, value = data.get("term", ""), data.get("operator", ""), data.get("value", "")
        if not self.has_changed():
            return data
        if term and value_choices(term) is not None:
            # A choice may be typed as it reads ("opts out with compensation"), not only as the record keeps it.
            parts = value.split(",") if operator == "in" else [value]
            value = data["value"] = ", ".join(choice_code(term, part) for part in parts)
        if not data.get("text"):
            self.add_error("text", _("Say the condition in words, as the government stated it."))
        for name, message in condition_problems(term=term, operator=operator, value=value,
                                                pt_codes=self.pt_codes).items():
            if name in self.errors:
                continue
            self.add_error(name, _value_problem(term, value) if name == "value" else message)
        return data

    def condition(self) -> dict | None:
        """The condition as the service takes it, or None for a row left empty."""
        if not self.has_changed() or not self.cleaned_data.get("text"):
            return None
        data = self.cleaned_data
        return {"text": data["text"], "text_fr": data["text_fr"], "term": data["term"], "operator": data["operator"],
                "value": data["value"].strip() if data["term"] else "", "statement": data["statement"]}


def _value_problem(term: str, value: str) -> str:
    """Why a condition's value cannot be read, in the reader's language and for the term's kind (the checks'
    own sentence names the term by its path and calls a fraction an amount)."""
    choices = value_choices(term)
    if choices is not None:
        return _("“%(value)s” is not a value of this term; use one of: %(values)s.") % {
            "value": value, "values": ", ".join(choice_label(term, choice) if choice else _("(none)") for choice in choices)}
    if is_share(term):
        return _("“%(value)s” is not a fraction: write a number from 0 to 1, such as 0.15.") % {"value": value}
    return _("“%(value)s” is not an amount: write a number, such as 0 or 5000.") % {"value": value}


class BaseConditionFormSet(forms.BaseFormSet):
    def is_valid(self) -> bool:
        # A post without the rows at all (a script, an older page) states no condition: nothing to refuse.
        return not self.is_bound or super().is_valid()

    def conditions(self) -> list[dict]:
        if not self.is_bound:
            return []
        return [c for c in (form.condition() for form in self.forms) if c is not None]


ConditionFormSet = forms.formset_factory(ConditionForm, formset=BaseConditionFormSet, extra=4, max_num=20,
                                         validate_max=True)


def condition_formset(data=None, *, pt_codes: list[str]):
    """The position form's condition rows, with the term paths of these P/Ts to choose from."""
    paths = term_paths(pt_codes)
    choices = [(path, term_label(path)) for path in paths if path != "phase_in"]
    choices.append((OWN_TREATMENT, _("Treatment of the position's own jurisdiction")))
    if data is not None and "checks-TOTAL_FORMS" not in data:
        data = None
    return ConditionFormSet(data, prefix="checks", form_kwargs={"term_choices": choices, "pt_codes": pt_codes})


class RetractionForm(RefuseControlCharacters, forms.Form):
    """Why a statement is retracted, asked under it on the statement list (``services.record.statement_retract``
    writes). Each statement's form there has ids of its own, ``retract-note-<pk>``; the admin's "Retract" asks once
    for all the statements chosen, under the same rules."""

    # Labelled as the model's field: the error summary writes its label before a colon, where a question reads badly.
    note = forms.CharField(
        label=capfirst(Statement._meta.get_field("retraction_note").verbose_name),
        max_length=Statement._meta.get_field("retraction_note").max_length,
        error_messages={"required": _("Say why the statement is retracted.")},
    )

    def __init__(self, *args, statement_pk: int | None = None, **kwargs):
        if statement_pk is not None:
            kwargs["auto_id"] = f"retract-%s-{statement_pk}"
        super().__init__(*args, **kwargs)
        self.statement_pk = statement_pk

    @classmethod
    def refused(cls, *, statement_pk: int, note: str, problems: list[str]) -> "RetractionForm":
        """The form as a refused post left it: the note as typed, why the form refuses it, and ``problems``, what the
        service refused that the form could not see (the statement's other fields), above the note."""
        form = cls({"note": note}, statement_pk=statement_pk)
        form.is_valid()
        for problem in problems:
            form.add_error(None, problem)
        return form


class WithdrawOfferForm(RefuseControlCharacters, forms.Form):
    """Why and when an offer was withdrawn: asked before it is marked withdrawn."""

    withdrawal_reason = forms.CharField(
        label=_("Why was it withdrawn?"), max_length=bounds.WITHDRAWAL_REASON_LENGTH, widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Say why the offer was withdrawn, e.g. “replaced by the January counter-offer”.")},
    )
    withdrawn_on = forms.DateField(
        label=_("Withdrawn on"), widget=_date_input(), validators=[validate_record_date, validate_not_after_today],
        error_messages={"required": _("Give the date it was withdrawn, such as 2014-01-15."),
                        "invalid": _("Give the date as year-month-day, such as 2014-01-15.")},
    )
