"""The offer form: an offer's own fields and all its terms, as flat fields a browser can post.

Funding sources are one amount field per payer and program (``federal_LMA``),
treatments one select per province or territory (``treatment_QC``), and the
phase-in a few fixed rows (``phase_in_year_0``, ``phase_in_fraction_0``).
The terms are checked with ``negotiations.terms.check_terms``, the rule set
the admin uses, and each message is attached to the field it names.

``OfferTermsForm`` holds the terms alone: the live fiscal preview (a
``grants`` view) parses the same posted form with it, so both agree. It does
so through ``terms_parser()``, a class of that form whose fields are built once
and shared by every instance, since a form that is only read need not copy them.
Choices are named by readable keys (slugs and codes), so a link such as
``/offers/new?negotiation=canada-job-grant&tabled_by=CA`` can fill the form in.
"""

import functools
import re
from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.forms.utils import ErrorList
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from config.numbers import colon, format_decimal, numbers
from negotiations import bounds, money
from negotiations.forms import ChoiceList, RefuseControlCharacters, ReloadingSelect, scope_to_negotiation
from negotiations.models import (
    DatePrecision,
    GovernmentPayer,
    Jurisdiction,
    Liability,
    Meeting,
    Negotiation,
    Offer,
    Program,
    Source,
    TermBasis,
    Treatment,
)
from negotiations.selectors.offers import OfferLinks
from negotiations.term_basis import term_label
from negotiations.terms import (
    FISCAL_YEAR,
    FUNDING_SOURCES,
    INFERRED,
    REPORTED,
    SCALAR_FIELDS,
    TERMS_BY_TABLE,
    OfferTerms,
    TermBasisEntry,
    check_basis,
    term_paths,
)
from negotiations.validators import validate_not_after_today, validate_record_date

# The programs each government can draw on (Ottawa cannot spend a P/T's own revenue, nor a P/T new federal money).
PAYER_PROGRAMS = {
    GovernmentPayer.FEDERAL: (Program.LMA, Program.LMDA, Program.CJF, Program.FEDERAL_NEW),
    GovernmentPayer.PROVINCIAL: (Program.LMA, Program.LMDA, Program.CJF, Program.PT_OWN),
}
PAYER_LABELS = {GovernmentPayer.FEDERAL: _("Federal"), GovernmentPayer.PROVINCIAL: _("Provincial or territorial")}
PHASE_IN_ROWS = 5
SPLIT_FIELDS = ("max_grant", "federal_amount", "provincial_amount", "employer_amount")


def program_field(payer: str, program: str) -> str:
    """The name of the amount field for one payer's draw on one program, e.g. ``federal_LMA``."""
    return f"{payer}_{program}"


def basis_field(path: str, part: str) -> str:
    """The name of one control of a term's basis: ``part`` is status, source or note (``basis__split__federal__status``)."""
    return f"basis__{path.replace('.', '__')}__{part}"


BASIS_STATUS_CHOICES = [("", _("not given")), *TermBasis.Status.choices]


def treatment_field(code: str) -> str:
    """The name of the treatment select of one province or territory, e.g. ``treatment_QC``."""
    return f"treatment_{code}"


class MoneyInput(forms.TextInput):
    """A text box for money (a number box would drop "$300M" as empty); a whole stored amount shows
    without its ".00", one with cents as the page's language writes it ("5 000,50" in French: the French edit
    form showed "5000.50")."""

    def format_value(self, value):
        if isinstance(value, Decimal) and value == value.to_integral_value():
            return f"{value.quantize(Decimal(1)):f}"
        if isinstance(value, Decimal):
            return numbers().grouped(value, 2)
        return super().format_value(value)


class TypedDecimalField(forms.DecimalField):
    """A number typed into a text box (a number box would drop "$300M" as empty and turn the French "0,15" into
    "015"): none of DecimalField's step/min/max attributes, a decimal keyboard on phones."""

    def widget_attrs(self, widget):
        return {"inputmode": "decimal"}


class MoneyField(TypedDecimalField):
    """An amount of money as people type it ("$300M", "300 million", "15 000,50"): read by the one
    money parser (negotiations.money), whose message says what was wrong and shows an example."""

    def to_python(self, value):
        if value in self.empty_values or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, Decimal):
            return value
        try:
            return money.parse_money(str(value))
        except money.MoneyError as error:
            params = dict(error.params)
            if "example" in params:  # the example too is in the reader's language
                params["example"] = _(params["example"])
            raise forms.ValidationError(_(error.template), code="invalid", params=params) from error


class FractionInput(forms.TextInput):
    """A text box for a share; a stored one shows as the page's language writes it ("0,15" in French)."""

    def format_value(self, value):
        return format_decimal(value) if isinstance(value, Decimal) else super().format_value(value)


class FractionField(TypedDecimalField):
    """A share as people type it: "0.15", or "0,15" in French."""

    widget = FractionInput

    def to_python(self, value):
        return super().to_python(money.decimal_point(value) if isinstance(value, str) else value)


class FiscalYearField(forms.CharField):
    """A fiscal year as people type it: 2014-15 as the record keeps it, or 2014-2015 as the French pages write it
    (an en dash or a slash for the hyphen, too), kept as 2014-15. Anything else is given back as typed, for the
    form's own rule to refuse."""

    def to_python(self, value):
        return short_fiscal_year(super().to_python(value))


def short_fiscal_year(text: str) -> str:
    """``text`` as the record writes a fiscal year (2014-15) when it is one written otherwise, else as it is."""
    match = _LONG_FISCAL_YEAR.fullmatch(text.strip())
    if match is None:
        return text
    first, last = match[1], match[2]
    if len(last) == 4:
        if int(last) != int(first) + 1:
            return text
        last = last[2:]
    return f"{first}-{last}"


_LONG_FISCAL_YEAR = re.compile(r"([0-9]{4})\s*[-‐‑–—/]\s*([0-9]{2}|[0-9]{4})")  # (ASCII digits: terms.FISCAL_YEAR)


# A label that qualifies another ("Federal: Labour Market Agreements"), its colon written as the reader's language
# writes it ("Fédéral : Ententes…"): worked out when shown, as the form's labels are made once for both languages.
labelled = lazy(lambda label, what: f"{colon(label)} {what}", str)


def _money_field(label, *, max_digits=12, required=True, help_text=""):
    # No min_value: a negative amount is refused by check_terms, with the admin's wording.
    return MoneyField(
        label=label, max_digits=max_digits, decimal_places=2, required=required, help_text=help_text,
        widget=MoneyInput(),
    )


def _date_input():
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class OfferTermsForm(RefuseControlCharacters, forms.Form):
    """The terms of an offer, and the offer it answers (to show the difference)."""

    responds_to = forms.ModelChoiceField(
        Offer.objects.only("pk", "slug", "title", "tabled_on", "date_precision"), to_field_name="slug", required=False,
        label=_("Answers"), empty_label=_("nothing: it opens the negotiation"),
        help_text=_("The earlier offer this one responds to; the preview shows the difference from it."),
    )
    max_grant = _money_field(_("Maximum grant per trainee"))
    federal_amount = _money_field(_("Federal"))
    provincial_amount = _money_field(_("Provincial or territorial"))
    employer_amount = _money_field(_("Employer"))
    scale_program = forms.ChoiceField(
        label=_("Scale drawn from"), choices=Program.choices, initial=Program.LMA,
        help_text=_("The program whose national amount sets the number of grants."),
    )
    scale_amount = _money_field(
        _("National amount drawn a year"), max_digits=14,
        help_text=_("For example $300M, 300 million or 300,000,000."),
    )
    employer_min_share = FractionField(
        # Wider than the model field so that 15 (meant as 15 %) reaches check_terms and its message.
        label=_("Employer minimum share"), max_digits=12, decimal_places=3, required=False,
        help_text=_("A fraction between 0 and 1, such as 0.15; empty when there is none."),
    )
    small_employer_gap_payer = forms.ChoiceField(
        label=_("Who covers the small-employer gap"), required=False,
        choices=[("", _("nobody: the grant is smaller")), *GovernmentPayer.choices],
    )
    shortfall_liability = forms.ChoiceField(
        label=_("Liable for an employer shortfall"), choices=Liability.choices, initial=Liability.NONE,
    )
    assumptions = forms.CharField(
        label=_("Assumptions"), required=False, max_length=bounds.ASSUMPTIONS_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("How the sources were read where they leave a term open."),
    )

    def __init__(self, *args, jurisdictions: list[Jurisdiction] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self._set_jurisdictions(jurisdictions)
        for payer, programs in PAYER_PROGRAMS.items():
            for program in programs:
                self.fields[program_field(payer, program)] = _money_field(
                    labelled(PAYER_LABELS[payer], Program(program).label),
                    required=False,
                )
        for jurisdiction in self.provinces:
            # Not required: a P/T left out of the post takes part, as it does without a row.
            self.fields[treatment_field(jurisdiction.code)] = forms.ChoiceField(
                label=jurisdiction.name, choices=Treatment.choices, initial=Treatment.PARTICIPATES,
                required=False,
            )
        for row in range(PHASE_IN_ROWS):
            # Only the first row shows an example, so empty rows do not look filled in.
            example = {"year": "2014-15", "fraction": "0.15"} if row == 0 else {"year": "", "fraction": ""}
            self.fields[f"phase_in_year_{row}"] = FiscalYearField(
                label=_("Fiscal year"), required=False, max_length=7,
                widget=forms.TextInput(attrs={"placeholder": example["year"], "size": 7}),
            )
            self.fields[f"phase_in_fraction_{row}"] = FractionField(
                label=_("Fraction of the full scale"), required=False, max_digits=12, decimal_places=4,
                widget=FractionInput(attrs={"placeholder": example["fraction"], "size": 6}),
            )
        self._order_as_shown()
        self._describe_errors()

    # The fields a page shows above the terms and below them, in its order (each form names its own).
    FIELDS_ABOVE_TERMS: tuple[str, ...] = ("responds_to",)
    FIELDS_BELOW_TERMS: tuple[str, ...] = ("assumptions",)

    def _order_as_shown(self) -> None:
        """The fields in the order the page shows them, so that a refused save's error summary lists the problems
        from the top of the page down (the terms were listed before the offer's title)."""
        self.order_fields([
            *self.FIELDS_ABOVE_TERMS,
            *(term.name for term in TERMS_BY_TABLE["per_trainee"]),
            *(program_field(payer, program)
              for program in Program for payer, programs in PAYER_PROGRAMS.items() if program in programs),
            *(term.name for term in TERMS_BY_TABLE["scale_and_employers"]),
            *(treatment_field(j.code) for j in self.provinces),
            *(name for row in range(PHASE_IN_ROWS) for name in (f"phase_in_year_{row}", f"phase_in_fraction_{row}")),
            *self.FIELDS_BELOW_TERMS,
        ])

    def _set_jurisdictions(self, jurisdictions: list[Jurisdiction] | None) -> None:
        # One query for every government: the treatment fields need the P/Ts, "tabled by" all of them.
        if jurisdictions is None:
            jurisdictions = list(Jurisdiction.objects.only("pk", "code", "name", "kind", "order"))
        self.jurisdictions = jurisdictions
        self.provinces = [j for j in jurisdictions if j.kind != Jurisdiction.Kind.FEDERAL]

    def _describe_errors(self):
        # Every widget points at its error slot, which live validation fills in without re-rendering the input.
        for name, field in self.fields.items():
            slot = f"{self[name].auto_id}_error"
            described = f"{self[name].auto_id}_helptext {slot}" if field.help_text else slot
            field.widget.attrs.setdefault("aria-describedby", described)

    # -- validation

    def clean(self):
        cleaned_data = super().clean()
        self._clean_phase_in(cleaned_data)
        split = {name: cleaned_data.get(name) for name in SPLIT_FIELDS}
        if None in split.values():
            return cleaned_data  # the missing or malformed amount has its own error
        sources = self._source_rows(cleaned_data)
        if any(amount is None for _payer, _program, amount in sources):
            return cleaned_data
        self._checked_terms = terms = self._terms(cleaned_data)
        for problem in terms.problems():
            self.add_term_error(problem.field, problem.message)
        return cleaned_data

    def _clean_phase_in(self, cleaned_data):
        seen = set()
        for row in range(PHASE_IN_ROWS):
            year_field, fraction_field = f"phase_in_year_{row}", f"phase_in_fraction_{row}"
            year = (cleaned_data.get(year_field) or "").strip()
            fraction = cleaned_data.get(fraction_field)
            if not year and fraction is None:
                continue
            if not year:
                if fraction_field not in self.errors:
                    self.add_error(year_field, _("Name the fiscal year this fraction applies to, like 2014-15."))
                continue
            match = FISCAL_YEAR.fullmatch(year)
            if match is None:
                self.add_error(year_field, _("A fiscal year is written like 2014-15."))
            elif (int(match[1]) + 1) % 100 != int(match[2]):
                self.add_error(year_field, _("A fiscal year spans two consecutive years, like 2014-15."))
            elif year in seen:
                self.add_error(year_field, _("Each fiscal year appears once."))
            seen.add(year)
            if fraction is None:
                if fraction_field not in self.errors:
                    self.add_error(fraction_field, _("Give the fraction of the full scale for this year."))
            elif not Decimal(0) <= fraction <= Decimal(1):
                self.add_error(fraction_field, _("A phase-in fraction is between 0 and 1."))

    def add_term_error(self, field: str, message: str):
        """Attach a broken terms rule to the field it names."""
        self.__dict__.setdefault("_rule_messages", set()).add((field, str(message)))
        if field in self.fields:
            self.add_error(field, message)
        else:
            # "funding_sources" concerns a group of fields: it gets an error slot of its own.
            self._errors.setdefault(field, self.error_class(renderer=self.renderer)).append(message)

    # -- reading the terms

    def _source_rows(self, cleaned_data) -> list[tuple[str, str, Decimal | None]]:
        rows = []
        for payer, programs in PAYER_PROGRAMS.items():
            for program in programs:
                name = program_field(payer, program)
                if name in self.errors:
                    rows.append((str(payer), str(program), None))
                    continue
                amount = cleaned_data.get(name)
                if amount:
                    rows.append((str(payer), str(program), amount))
        return rows

    def _terms(self, cleaned_data) -> OfferTerms:
        treatments = tuple(
            (j.code, cleaned_data[treatment_field(j.code)])
            for j in self.provinces
            if cleaned_data.get(treatment_field(j.code)) not in (None, "", Treatment.PARTICIPATES)
        )
        phase_in = tuple(
            (cleaned_data[f"phase_in_year_{row}"].strip(), cleaned_data[f"phase_in_fraction_{row}"])
            for row in range(PHASE_IN_ROWS)
            if cleaned_data.get(f"phase_in_year_{row}") and cleaned_data.get(f"phase_in_fraction_{row}") is not None
        )
        # A field missing from cleaned_data has its own error; it reads as None and check_terms skips its rule.
        return OfferTerms.from_values(
            cleaned_data, sources=tuple(self._source_rows(cleaned_data)), treatments=treatments,
            phase_in=tuple(sorted(phase_in)),
        )

    def terms(self) -> OfferTerms:
        """The terms as one value; call after is_valid() returned True."""
        return self._checked_terms  # as clean() read and checked them

    # -- display helpers (the template only displays)

    def funding_rows(self) -> list[dict]:
        """One row per program: its label, and its federal and provincial fields (None where a payer cannot draw)."""
        return [
            {
                "program": program,
                "label": program.label,
                "cells": [
                    self[program_field(payer, program)] if program in programs else None
                    for payer, programs in PAYER_PROGRAMS.items()
                ],
            }
            for program in Program
        ]

    def term_fields(self) -> dict[str, list[forms.BoundField]]:
        """The one-value terms' fields by the fieldset they sit in, in the order of ``TERM_FIELDS``."""
        return {table: [self[term.name] for term in terms] for table, terms in TERMS_BY_TABLE.items()}

    def treatment_fields(self) -> list[forms.BoundField]:
        return [self[treatment_field(j.code)] for j in self.provinces]

    def phase_in_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"phase_in_year_{row}"], self[f"phase_in_fraction_{row}"]) for row in range(PHASE_IN_ROWS)]

    def slot_id(self, name: str) -> str:
        """The id of the element showing ``name``'s errors (the id Django's widgets point at)."""
        return f"{self.auto_id % name}_error"

    @property
    def funding_sources_errors(self) -> ErrorList:
        return self.errors.get(FUNDING_SOURCES, self.error_class())

    def live_errors(self, touched: set[str], changed: str = "") -> list[tuple[str, ErrorList]]:
        """Every error slot with the errors to show while the person is still typing: ``(slot id, errors)``.

        Only what they have touched shows errors; a rule about several fields (the
        split adds up to the maximum grant, the sources add up to each payer's
        amount) shows as soon as any of them is touched. Other slots come back empty,
        which clears errors the person has since fixed. When ``changed`` (the field the
        person changed last) is one of a rule's fields, the rule's errors land on it,
        where the person is, rather than on the rule's own slot.
        """
        groups = {
            "max_grant": set(SPLIT_FIELDS),
            FUNDING_SOURCES: {
                "federal_amount", "provincial_amount", "scale_program",
                *(program_field(p, program) for p, programs in PAYER_PROGRAMS.items() for program in programs),
            },
        }
        for row in range(PHASE_IN_ROWS):
            pair = {f"phase_in_year_{row}", f"phase_in_fraction_{row}"}
            groups[f"phase_in_year_{row}"] = groups[f"phase_in_fraction_{row}"] = pair
        for name in self.fields:
            if name.startswith("basis__") and name.endswith("__status"):
                stem = name.removesuffix("status")
                groups[name] = {name, stem + "source", stem + "note"}
        moved_to = {}  # a rule's slot -> the field changed, which shows its errors instead
        if changed in self.fields and not self.fields[changed].widget.is_hidden:
            for name, members in groups.items():
                if changed in members and changed != name:
                    moved_to[name] = changed
        slots = {}
        for name in [*self.fields, FUNDING_SOURCES]:
            if self.fields.get(name) is not None and self.fields[name].widget.is_hidden:
                continue
            if name.startswith("basis__") and not name.endswith("__status"):
                continue  # a term's basis has one error slot, its status's
            shown = touched & groups.get(name, {name})
            errors = self.errors.get(name, self.error_class()) if shown else self.error_class()
            slots[name] = self.error_class(errors)
        rule_messages = self.__dict__.get("_rule_messages", set())
        for rule, field in moved_to.items():
            # Only a rule's own messages move: a field's own error ("Enter a number") stays on it.
            moving = [error for error in slots[rule] if (rule, str(error)) in rule_messages]
            slots[field].extend(error for error in moving if error not in slots[field])
            slots[rule] = self.error_class([error for error in slots[rule] if error not in moving])
        return [(self.slot_id(name), errors) for name, errors in slots.items()]


class _SharedFields(dict):
    """A form class's fields that its instances share instead of copying.

    Django gives each form instance a deep copy of its class's fields, so that a view may change
    one form's fields (a queryset, a widget's choices) without touching the next; for the 50-odd
    fields of the terms that copy costs more than all the rest of a preview. Parsing and cleaning
    change no field, so a form that is only read can share them: this mapping's deep copy is a
    shallow one.
    """

    def __deepcopy__(self, memo):
        return dict(self)


# perf: bench/run "preview POST": fields built once per record version, not per request (0.13 -> 0.48 of /healthz
# with the preview's other changes of 3 December).
def terms_parser(jurisdictions: list[Jurisdiction] | None = None) -> type[OfferTermsForm]:
    """A class of ``OfferTermsForm`` for reading posted terms only, with the fields of these
    governments (by default, every one in the database: one query) built now, once.

    Its instances parse and clean exactly as ``OfferTermsForm`` does, through the same fields and
    rules, but share their fields, which nobody may change. Build one per set of governments and
    keep it (the live preview keeps it until the record changes).
    """
    template = OfferTermsForm(jurisdictions=jurisdictions)
    jurisdictions, fields = template.jurisdictions, _SharedFields(template.fields)

    class OfferTermsParser(OfferTermsForm):
        def __init__(self, data):
            # The fields are built: only what Django's own forms set up per instance is left to do.
            forms.Form.__init__(self, data)
            self._set_jurisdictions(jurisdictions)

        def _clean_fields(self):
            # Django's own, without a BoundField made for each of the 50-odd fields only to read its
            # value: no field of the terms is disabled, a file, or has a clean_<name> method.
            for name, field in self.fields.items():
                try:
                    value = field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
                    self.cleaned_data[name] = field.clean(value)
                except ValidationError as error:
                    self.add_error(name, error)

    OfferTermsParser.base_fields = fields  # after the class is made: Django's metaclass sets base_fields
    return OfferTermsParser


class OfferForm(OfferTermsForm):
    """An offer as a whole: who tabled it, when, where it is cited, and its terms."""

    title = forms.CharField(label=_("Title in English"), max_length=250)
    slug = forms.SlugField(
        label=_("Address"), max_length=150, required=False,
        help_text=_("The last part of the offer's web address; made from the title when left empty."),
    )
    negotiation = forms.ModelChoiceField(
        Negotiation.objects.only("pk", "slug", "title"), to_field_name="slug", label=_("Negotiation"),
        empty_label=_("Choose a negotiation"), widget=ReloadingSelect,
    )
    tabled_by = forms.ModelMultipleChoiceField(
        Jurisdiction.objects.all(), to_field_name="code", label=_("Tabled by"),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Name at least one government that tabled the offer.")},
    )
    tabled_on = forms.DateField(label=_("Tabled on"), widget=_date_input(),
                                validators=[validate_record_date, validate_not_after_today])
    agreed_on = forms.DateField(
        label=_("Agreed on"), widget=_date_input(), required=False, validators=[validate_record_date],
        help_text=_("When the governments that table it agreed it, if not the day it was tabled."),
    )
    date_precision = forms.ChoiceField(
        label=_("Date precision"), choices=DatePrecision.choices, initial=DatePrecision.DAY,
    )
    status = forms.ChoiceField(label=_("Status"), choices=Offer.Status.choices, initial=Offer.Status.TABLED)
    meeting = forms.ModelChoiceField(
        Meeting.objects.only("pk", "slug", "title", "date", "date_precision"), to_field_name="slug", required=False,
        label=_("Tabled at"), empty_label=_("no particular meeting"),
    )
    # Each text's language in its label: on the French page "Titre" had French typed into the English title.
    summary = forms.CharField(
        label=_("Summary in English"), required=False, max_length=bounds.SUMMARY_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    # The offer's own text in French (title, summary and assumptions above are the English).
    title_fr = forms.CharField(label=_("Title in French"), max_length=250, required=False)
    summary_fr = forms.CharField(label=_("Summary in French"), required=False, max_length=bounds.SUMMARY_LENGTH,
                                 widget=forms.Textarea(attrs={"rows": 3}))
    assumptions_fr = forms.CharField(label=_("Assumptions in French"), required=False, max_length=bounds.ASSUMPTIONS_LENGTH,
                                     widget=forms.Textarea(attrs={"rows": 3}))
    sources = forms.ModelMultipleChoiceField(
        Source.objects.only("pk", "slug", "outlet", "title", "published_on", "date_precision"), to_field_name="slug",
        required=False, label=_("Sources"), widget=ChoiceList,
        help_text=_("The articles or documents that report the offer."),
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)

    FIELDS_ABOVE_TERMS = ("version", "title", "negotiation", "responds_to", "tabled_on", "agreed_on", "date_precision",
                          "status", "meeting", "tabled_by", "summary", "title_fr", "summary_fr", "sources", "slug")
    FIELDS_BELOW_TERMS = ("assumptions", "assumptions_fr")

    OWN_FIELDS = (
        "negotiation", "title", "slug", "tabled_by", "tabled_on", "date_precision", "responds_to", "status",
        "summary", "sources", "meeting", "agreed_on", "title_fr", "summary_fr", "assumptions_fr",
    )

    def __init__(self, *args, offer: Offer | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.offer = offer
        if offer is None or offer.status != Offer.Status.WITHDRAWN:
            # Withdrawing asks when and why: the offer's Withdraw form does it (services.offer_withdraw).
            self.fields["status"].choices = [c for c in Offer.Status.choices if c[0] != Offer.Status.WITHDRAWN]
        # Setting a queryset resets the widget's choices, so this comes before they are set below.
        scope_to_negotiation(self, self.SCOPED, also_reload=() if offer is not None else ("start-from",))
        if offer is not None:
            self.fields["responds_to"].queryset = self.fields["responds_to"].queryset.exclude(pk=offer.pk)
        # Each kind of choice is read once, when the form is first shown (a validation-only post never
        # shows it): one query per kind, however many choices there are.
        fields = self.fields
        self._show_choices("responds_to", lambda: [
            ("", fields["responds_to"].empty_label),
            *((o.slug, o.dated_title()) for o in self.offer_options),
        ])
        self._show_choices("tabled_by", lambda: [(j.code, str(j)) for j in self.jurisdictions])
        self._show_choices("negotiation", lambda: [
            ("", fields["negotiation"].empty_label), *((n.slug, n.title) for n in fields["negotiation"].queryset),
        ])
        self._show_choices("meeting", lambda: [
            ("", fields["meeting"].empty_label),
            *((m.slug, str(m)) for m in fields["meeting"].queryset),
        ])
        self._show_choices("sources", lambda: [
            (s.slug, str(s)) for s in fields["sources"].queryset
        ])
        self._add_basis_fields()

    # -- the basis of each term (negotiations.terms: reported, inferred, assumed)

    def _add_basis_fields(self) -> None:
        names = {j.code: j.name for j in self.provinces}
        self.basis_paths = term_paths(j.code for j in self.provinces)
        self.basis_labels = {path: term_label(path, names) for path in self.basis_paths}
        source_choices = functools.cache(lambda: [
            ("", _("the offer's first source")), *self.fields["sources"].widget.choices,
        ])
        for path in self.basis_paths:
            label = self.basis_labels[path]
            self.fields[basis_field(path, "status")] = forms.ChoiceField(
                label=labelled(label, _("basis")), required=False,
                choices=BASIS_STATUS_CHOICES,
            )
            source = forms.ChoiceField(label=labelled(label, _("source")),
                                       required=False)
            source.choices = source_choices
            self.fields[basis_field(path, "source")] = source
            # One box for the passage (reported) or the note (inferred, assumed): _basis_entries checks
            # the bound of the one it fills.
            self.fields[basis_field(path, "note")] = forms.CharField(
                label=labelled(label, _("passage or note")), required=False,
                max_length=max(bounds.PASSAGE_LENGTH, bounds.TERM_NOTE_LENGTH),
                widget=forms.Textarea(attrs={"rows": 2, "placeholder": _("the passage, the reasoning or the assumption")}),
            )
            # The row's one error slot is its status's: the source and the note point there too.
            for part in ("source", "note"):
                self.fields[basis_field(path, part)].widget.attrs["aria-describedby"] = (
                    self.slot_id(basis_field(path, "status")))
            # The row's other text, which the one visible box does not show (a reported term's note, an
            # assumed or inferred term's passage), kept as it is so that saving the form loses nothing.
            for part, limit in (("kept_passage", bounds.PASSAGE_LENGTH), ("kept_note", bounds.TERM_NOTE_LENGTH)):
                self.fields[basis_field(path, part)] = forms.CharField(required=False, max_length=limit,
                                                                      widget=forms.HiddenInput)
        self._describe_errors()

    def basis_rows(self) -> list[dict]:
        """One row per term for the template: its label and its three controls."""
        return [
            {"path": path, "label": self.basis_labels[path], "status": self[basis_field(path, "status")],
             "source": self[basis_field(path, "source")], "note": self[basis_field(path, "note")],
             "kept": (self[basis_field(path, "kept_passage")], self[basis_field(path, "kept_note")])}
            for path in self.basis_paths
        ]

    @property
    def basis_given(self) -> int:
        """How many terms have a basis in the form (for the section's summary line)."""
        return sum(1 for path in self.basis_paths if self[basis_field(path, "status")].value())

    def _basis_entries(self, cleaned_data) -> list[TermBasisEntry]:
        """The bases the form gives; a reported or inferred term with no source takes the offer's first."""
        chosen = cleaned_data.get("sources") or []
        default = chosen[0].slug if len(chosen) else None
        entries = []
        for path in self.basis_paths:
            status = cleaned_data.get(basis_field(path, "status"))
            if not status:
                continue
            note = (cleaned_data.get(basis_field(path, "note")) or "").strip()
            source = cleaned_data.get(basis_field(path, "source")) or (default if status in (REPORTED, INFERRED) else None)
            kept_passage = cleaned_data.get(basis_field(path, "kept_passage")) or ""
            kept_note = cleaned_data.get(basis_field(path, "kept_note")) or ""
            limit = bounds.PASSAGE_LENGTH if status == REPORTED else bounds.TERM_NOTE_LENGTH
            if len(note) > limit:
                self.add_error(basis_field(path, "status"), _(
                    "At most %(limit_value)d characters, please (this has %(show_value)d).")
                    % {"limit_value": limit, "show_value": len(note)})
            entries.append(TermBasisEntry(
                term=path, status=status, source=source or None,
                passage=note if status == REPORTED else kept_passage,
                note=kept_note if status == REPORTED else note,
            ))
        return entries

    def basis(self) -> list[TermBasisEntry]:
        """The bases, as the services take them; call after is_valid() returned True."""
        return self._checked_basis

    def clean(self):
        cleaned_data = super().clean()
        answered, tabled_on = cleaned_data.get("responds_to"), cleaned_data.get("tabled_on")
        if answered is not None and tabled_on is not None:
            # The model's rule (Offer.answering_problem), said with the form's other problems and as it is typed.
            draft = Offer(pk=self.offer.pk if self.offer else None, responds_to=answered, tabled_on=tabled_on,
                          date_precision=cleaned_data.get("date_precision") or DatePrecision.DAY)
            if problem := draft.answering_problem():
                self.add_error("responds_to", problem)
        self._checked_basis = self._basis_entries(cleaned_data)
        for problem in check_basis(self._checked_basis, [j.code for j in self.provinces]):
            self.add_term_error(problem.field, problem.message)
        return cleaned_data

    def add_term_error(self, field: str, message: str):
        """A basis problem (``basis.<term>``) goes next to that term's basis; the rest as the terms form does."""
        if field.startswith("basis."):
            field = basis_field(field.removeprefix("basis."), "status")
            if field not in self.fields:
                field = None
            self.add_error(field, message)
            return
        super().add_term_error(field, message)

    def _show_choices(self, name: str, load) -> None:
        # A callable is evaluated on each iteration of the choices: cache it so a render reads them once.
        self.fields[name].widget.choices = functools.cache(load)

    # The negotiation's own offers and meetings: the page reloads them when the negotiation changes.
    SCOPED = ("responds_to", "meeting")

    @functools.cached_property
    def offer_options(self) -> list[Offer]:
        """The offers this one may answer, or start from: those of its negotiation (the offer itself excluded)."""
        return list(self.fields["responds_to"].queryset)

    def clean_title(self):
        return self.cleaned_data["title"].strip()

    @property
    def preview_params(self) -> str:
        """htmx's ``hx-params`` for the live preview: every field but the offer's own fields (and the
        CSRF token, which htmx sends as a header), which the preview does not read."""
        # The negotiation and the date are read too: the preview says who would sign on that date.
        unread = [name for name in self.declared_fields
                  if name not in OfferTermsForm.declared_fields and name not in ("negotiation", "tabled_on")]
        return "not " + ",".join([*unread, "csrfmiddlewaretoken"])

    def own_fields(self) -> dict:
        """The offer's own fields, as the services take them; call after is_valid() returned True."""
        return {**{name: self.cleaned_data[name] for name in self.OWN_FIELDS}, "basis": self.basis()}

    def add_service_error(self, error) -> None:
        """Attach a service's ValidationError to the fields it names (others to the form as a whole)."""
        for field, messages in error.message_dict.items() if hasattr(error, "error_dict") else [(None, error.messages)]:
            self.add_error(field if field in self.fields else None, messages)

    @classmethod
    def initial_from_offer(cls, offer: Offer, links: OfferLinks, *, as_new: bool = False) -> dict:
        """Initial values showing a saved offer (as ``negotiations.selectors.offers.offer_for_form`` reads it) and
        what it names (``negotiations.selectors.offers.offer_links``).

        ``as_new`` starts a new offer from it: same negotiation, governments and
        terms, answering it, with its own title, date, status, sources and assumptions to fill in.
        """
        initial = {
            "negotiation": offer.negotiation.slug,
            "tabled_by": links.tabled_by,
            **{name: getattr(offer, name) for name in SCALAR_FIELDS},
            "assumptions": offer.assumptions_en,  # the English text, whatever the reader's language
            "assumptions_fr": offer.assumptions_fr or "",
        }
        for row in offer.funding_sources.all():
            initial[program_field(row.payer, row.program)] = row.amount
        for code, treatment in links.treatments.items():
            initial[treatment_field(code)] = treatment
        for index, row in enumerate(list(offer.phase_in.all())[:PHASE_IN_ROWS]):
            initial[f"phase_in_year_{index}"] = row.fiscal_year
            initial[f"phase_in_fraction_{index}"] = row.fraction
        if as_new:
            # A new offer's terms need their own basis: the old one's sources do not report them.
            # Nor is its reading of the sources: the assumptions start empty.
            initial.pop("assumptions", None)
            initial.pop("assumptions_fr", None)
            initial["responds_to"] = offer.slug
            return initial
        for term, (status, source, passage, note) in links.basis.items():
            initial[basis_field(term, "status")] = status
            initial[basis_field(term, "source")] = source
            initial[basis_field(term, "note")] = passage if status == REPORTED else note
            initial[basis_field(term, "kept_passage")] = passage
            initial[basis_field(term, "kept_note")] = note

        initial.update({
            "title": offer.title_en,
            "title_fr": offer.title_fr or "",
            "summary_fr": offer.summary_fr or "",
            "slug": offer.slug,
            "tabled_on": offer.tabled_on,
            "date_precision": offer.date_precision,
            "responds_to": offer.responds_to.slug if offer.responds_to_id else "",
            "status": offer.status,
            "summary": offer.summary_en,
            "meeting": offer.meeting.slug if offer.meeting_id else "",
            "agreed_on": offer.agreed_on,
            "sources": links.sources,
            "version": offer.version,
        })
        return initial

    @classmethod
    def initial_from(cls, query) -> dict:
        """Initial values from a query string (``?negotiation=…&tabled_by=CA``) for the record's fields."""
        initial = {name: query[name] for name in ("negotiation", "title", "responds_to", "meeting") if query.get(name)}
        # Terms too: a scenario recorded as an offer opens this form filled from it (grants.deal).
        initial |= {name: value for name, value in query.items()
                    if name not in initial and name not in ("from", "tabled_by") and value}
        if query.getlist("tabled_by"):
            initial["tabled_by"] = query.getlist("tabled_by")
        return initial


class OfferFilterForm(RefuseControlCharacters, forms.Form):
    """The filters of the offer list; an unknown value is ignored."""

    negotiation = forms.ModelChoiceField(
        Negotiation.objects.only("pk", "slug", "title"), to_field_name="slug", required=False,
        label=_("Negotiation"), empty_label=_("All negotiations"),
    )
    status = forms.ChoiceField(
        label=_("Status"), required=False, choices=[("", _("Any status")), *Offer.Status.choices],
    )
    tabled_by = forms.ModelChoiceField(
        Jurisdiction.objects.only("pk", "code", "name", "order"), to_field_name="code", required=False,
        label=_("Tabled by"), empty_label=_("Any government"),
    )

    def filters(self) -> dict:
        """The filters that parsed, as selectors.offer_list takes them."""
        data = self.cleaned_data if self.is_bound and hasattr(self, "cleaned_data") else {}
        filters = {}
        if data.get("negotiation"):
            filters["negotiation"] = data["negotiation"]
        if data.get("status"):
            filters["status"] = data["status"]
        if data.get("tabled_by"):
            filters["tabled_by"] = data["tabled_by"].code
        return filters
