"""The admin for daily curation of the record, with the history of every change.

Every changelist loads its rows in a fixed number of queries: foreign keys shown
in a column are select_related, many-valued columns are prefetched and counts
are subquery annotations. Inline rows render in a fixed number of queries too
(see ``RowsInlineMixin``).
"""

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Count, IntegerField, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce
from django.forms.models import BaseInlineFormSet
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.text import Truncator
from django.utils.translation import get_language, ngettext, override
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TranslationAdmin, TranslationTabularInline
from modeltranslation.utils import build_localized_fieldname
from simple_history.admin import SimpleHistoryAdmin
from simple_history.models import DeletedObject, ModelChange, ModelDelta, is_historic
from simple_history.template_utils import HistoricalRecordContextHelper, ObjDiffDisplay
from simple_history.utils import get_history_model_for_model, get_m2m_reverse_field_name

from config.admin_site import AutocompleteFieldsMixin, KeysCheckedAutocompleteSelect, SiteFormRules, titled_filter
from config.numbers import numbers
from negotiations import record_cache
from negotiations.forms import RetractionForm
from negotiations.models import (
    Condition,
    FundingSource,
    Jurisdiction,
    JurisdictionTreatment,
    KeyDate,
    Meeting,
    Negotiation,
    Offer,
    Person,
    PhaseInStep,
    Position,
    Role,
    Source,
    SourcePassage,
    Statement,
    TermBasis,
    speaker_role_problem,
)
from negotiations.services import offers as offer_services
from negotiations.services import record as services
from negotiations.terms import FUNDING_SOURCES, RULED_FIELDS, SCALAR_FIELDS, TermBasisEntry, check_basis, check_terms
from negotiations.translation import translated_names

SPLIT_FIELDS = ("max_grant", "federal_amount", "provincial_amount", "employer_amount")


def count_of(model, fk: str):
    """Count the ``model`` rows whose ``fk`` points at the outer row, as a subquery (no join fan-out)."""
    counted = (
        model.objects.filter(**{fk: OuterRef("pk")}).order_by().values(fk).annotate(n=Count("pk")).values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def codes(jurisdictions) -> str:
    """Jurisdiction codes of a prefetched relation, in display order."""
    return ", ".join(j.code for j in jurisdictions.all()) or "—"


def excerpt(text: str, words: int = 14) -> str:
    return Truncator(text).words(words)


# ---------------------------------------------------------------------------
# History pages and inline rows in a fixed number of queries


class FullTextContextHelper(HistoricalRecordContextHelper):
    def get_obj_diff_display(self):
        return _WholeText()


class _WholeText(ObjDiffDisplay):
    def common_shorten_repr(self, *args):
        return tuple(str(arg) for arg in args)


class ChangeReasonMixin(forms.Form):
    change_reason = forms.CharField(
        label=_("Reason for this change"), required=False, max_length=100,
        help_text=_("Shown in the history, e.g. “corrected the date from the Globe and Mail article”."),
    )


class CurationAdmin(TranslationAdmin, SimpleHistoryAdmin):
    """The history admin, each text of the record in English and French (title_en, title_fr), with a
    history page whose many-to-many diffs cost one query per field.

    simple_history diffs many-to-many fields with a few queries per pair of
    versions; on a page of 100 versions of a meeting that is hundreds of queries.
    Here each tracked many-to-many field's rows for the whole page are read at
    once and diffed in memory, with the same values simple_history shows.
    """

    def get_historical_record_context_helper(self, request, historical_record):
        # The whole old and new text, never "His d[53 chars]o more…": curators compare wording.
        return FullTextContextHelper(self.model, historical_record, max_displayed_delta_change_chars=10**9)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Every curation form asks for a reason, stored as the history record's change reason.
        if "change_reason" not in self.form.base_fields:
            self.form = type(self.form.__name__, (ChangeReasonMixin, self.form), {})

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if not any("change_reason" in options.get("fields", ()) for _name, options in fieldsets):
            fieldsets = [*fieldsets, (_("Why"), {"fields": ("change_reason",)})]
        return fieldsets

    def save_model(self, request, obj, form, change):
        reason = (form.cleaned_data.get("change_reason") or "").strip()
        if reason:
            obj._change_reason = reason
        super().save_model(request, obj, form, change)

    def render_history_view(self, request, template, context, **kwargs):
        # A change saved without a reason shows a dash, not the word "None".
        for record in context.get("page_obj") or ():
            if record.history_change_reason is None:
                record.history_change_reason = "—"
        return super().render_history_view(request, template, context, **kwargs)

    def set_history_delta_changes(self, request, historical_records, foreign_keys_are_objs=True):
        versions = list(historical_records)
        m2m_names = [field.name for field in get_history_model_for_model(self.model)._history_m2m_fields]
        # A translated field's change is listed by its language columns (Title [fr]), not also by its
        # own name, which holds whichever language was active when the version was saved.
        excluded = [*m2m_names, *translated_names(self.model)]
        m2m_rows = {name: self._m2m_rows_by_version(versions, name, foreign_keys_are_objs) for name in m2m_names}
        for newer, older in zip(versions, versions[1:]):
            delta = newer.diff_against(older, excluded_fields=excluded, foreign_keys_are_objs=foreign_keys_are_objs)
            changes = list(delta.changes)
            for name in m2m_names:
                old, new = m2m_rows[name].get(older.pk, []), m2m_rows[name].get(newer.pk, [])
                if old != new:
                    changes.append(ModelChange(name, old, new))
            changes.sort(key=lambda change: change.field)
            delta = ModelDelta(changes, [change.field for change in changes], older, newer)
            helper = self.get_historical_record_context_helper(request, newer)
            newer.history_delta_changes = helper.context_for_delta_changes(delta)

    def _m2m_rows_by_version(self, versions, name: str, foreign_keys_are_objs: bool) -> dict[int, list[dict]]:
        """The historical through rows of ``name`` for each version, as simple_history's diff lists them."""
        through = getattr(versions[0], name).model
        reverse_name = get_m2m_reverse_field_name(self.model._meta.get_field(name))
        row_fields = [
            field for field in through._meta.fields
            if field.editable and field.name not in ("id", "m2m_history_id", "history")
        ]
        relations = [field.name for field in row_fields if isinstance(field, models.ForeignKey)]
        queryset = through.objects.filter(history__in=versions).order_by("history_id", reverse_name)
        if foreign_keys_are_objs:
            queryset = queryset.select_related(*relations)
        rows: dict[int, list[dict]] = {}
        for row in queryset:
            rows.setdefault(row.history_id, []).append({
                field.name: self._row_value(row, field, foreign_keys_are_objs) for field in row_fields
            })
        return rows

    @staticmethod
    def _row_value(row, field, foreign_keys_are_objs: bool):
        if not isinstance(field, models.ForeignKey):
            return getattr(row, field.name)
        if not foreign_keys_are_objs:
            return getattr(row, field.attname)
        related = getattr(row, field.name, None)
        return DeletedObject(field.related_model, getattr(row, field.attname)) if related is None else related


class RowAutocompleteSelect(KeysCheckedAutocompleteSelect):
    """An inline row's autocomplete that labels the selected option from the object the row holds.

    The stock widget looks the selected object up again for every row it renders;
    the inline's queryset has already select_related() it, so ``RowForm`` hands
    the label over and no query is made. Without a label (a re-rendered POST with
    a new value) it falls back to the stock lookup.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loaded: dict[str, str] = {}

    def optgroups(self, name, value, attr=None):
        selected = [str(v) for v in value if str(v) not in self.choices.field.empty_values]
        if not selected or any(key not in self.loaded for key in selected):
            return super().optgroups(name, value, attr)
        options = [] if self.is_required else [self.create_option(name, "", "", False, 0)]
        for key in selected:
            options.append(self.create_option(name, key, self.loaded[key], set(selected), len(options)))
        return [(None, options, 0)]


class RowForm(forms.ModelForm):
    """Gives each ``RowAutocompleteSelect`` the label of the related object already loaded on the row."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is None:
            return
        for name, field in self.fields.items():
            widget = getattr(field.widget, "widget", field.widget)
            if not isinstance(widget, RowAutocompleteSelect):
                continue
            if self.instance._meta.get_field(name).is_cached(self.instance):
                related = getattr(self.instance, name)
                if related is not None:
                    widget.loaded = {str(related.pk): field.label_from_instance(related)}


class RowsInlineMixin(AutocompleteFieldsMixin, SiteFormRules):
    """For an inline whose rows cost no query each: list the relations they show in ``row_relations``."""

    form = RowForm
    row_relations: tuple[str, ...] = ()
    foreign_key_widget = RowAutocompleteSelect

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(*self.row_relations)


class RowsInline(RowsInlineMixin, admin.TabularInline):
    """A tabular inline whose rows render in a fixed number of queries."""


# ---------------------------------------------------------------------------
# Jurisdictions, people, negotiations, sources


@admin.register(Jurisdiction)
class JurisdictionAdmin(CurationAdmin):
    list_display = ("code", "name_en", "name_fr", "kind", "order", "population", "population_date",
                    "population_confidence")
    list_display_links = ("code", "name_en")
    list_filter = ("kind", "population_confidence")
    search_fields = ("code", "name_en", "name_fr")
    fieldsets = (
        (None, {"fields": ("code", "name_en", "name_fr", "kind", "order")}),
        (_("Population"), {"fields": ("population", "population_date", "population_source",
                                      "population_confidence")}),
    )


class RoleInline(RowsInlineMixin, TranslationTabularInline):
    model = Role
    fields = ("title", "jurisdiction", "organization", "start", "start_precision", "end", "end_precision")
    autocomplete_fields = ("jurisdiction",)
    row_relations = ("person", "jurisdiction")
    extra = 1


@admin.register(Person)
class PersonAdmin(CurationAdmin):
    list_display = ("name", "slug", "roles_held", "statement_count")
    search_fields = ("name", "slug", "roles__title", "roles__organization")
    list_filter = ("roles__jurisdiction",)
    prepopulated_fields = {"slug": ("name",)}
    inlines = (RoleInline,)

    def get_queryset(self, request):
        return (
            super().get_queryset(request)
            .prefetch_related(Prefetch("roles", queryset=Role.objects.select_related("jurisdiction")))
            .annotate(statement_count=count_of(Statement, "speaker"))
        )

    @admin.display(description=_("roles"))
    def roles_held(self, person):
        return "; ".join(
            f"{role.title} ({role.jurisdiction.code if role.jurisdiction_id else role.organization})"
            for role in person.roles.all()
        ) or "—"

    @admin.display(description=_("statements"), ordering="statement_count")
    def statement_count(self, person):
        return person.statement_count


@admin.register(Role)
class RoleAdmin(CurationAdmin):
    list_display = ("person", "title", "jurisdiction", "organization", "start", "end")
    list_select_related = ("person", "jurisdiction")
    list_filter = ("jurisdiction",)
    search_fields = ("person__name", "title", "organization")
    autocomplete_fields = ("person", "jurisdiction")
    date_hierarchy = "start"


@admin.register(Negotiation)
class NegotiationAdmin(CurationAdmin):
    list_display = ("title", "slug", "started_on", "offer_count", "meeting_count", "statement_count",
                    "position_count")
    search_fields = ("title", "slug", "summary")
    prepopulated_fields = {"slug": ("title",)}
    date_hierarchy = "started_on"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            offer_count=count_of(Offer, "negotiation"),
            meeting_count=count_of(Meeting, "negotiation"),
            statement_count=count_of(Statement, "negotiation"),
            position_count=count_of(Position, "negotiation"),
        )

    @admin.display(description=_("offers"), ordering="offer_count")
    def offer_count(self, negotiation):
        return negotiation.offer_count

    @admin.display(description=_("meetings"), ordering="meeting_count")
    def meeting_count(self, negotiation):
        return negotiation.meeting_count

    @admin.display(description=_("statements"), ordering="statement_count")
    def statement_count(self, negotiation):
        return negotiation.statement_count

    @admin.display(description=_("positions"), ordering="position_count")
    def position_count(self, negotiation):
        return negotiation.position_count


@admin.register(Source)
class SourceAdmin(CurationAdmin):
    list_display = ("title", "outlet", "kind", "author", "published_on", "statement_count")
    list_filter = ("kind", "date_precision", "outlet")
    search_fields = ("title", "outlet", "author", "slug", "summary", "text")
    prepopulated_fields = {"slug": ("title",)}
    date_hierarchy = "published_on"
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(statement_count=count_of(Statement, "source"))

    @admin.display(description=_("statements"), ordering="statement_count")
    def statement_count(self, source):
        return source.statement_count


# ---------------------------------------------------------------------------
# Meetings and statements


class StatementAtMeetingFormSet(BaseInlineFormSet):
    """A statement logged at a meeting belongs to the meeting's negotiation."""

    def save_new(self, form, commit=True):
        form.instance.negotiation_id = self.instance.negotiation_id
        return super().save_new(form, commit=commit)


class SpeakerSpeaksForForm(RowForm):
    """A statement's speaker holds a role with the government spoken for, as on the site
    (``speaker_role_problem``); asked when either is chosen or changed, so an old statement can still be retracted.
    A ``RowForm`` for the meeting's statement rows."""

    def clean(self):
        cleaned_data = super().clean()
        if cleaned_data.get("speaker") and {"speaker", "jurisdiction"} & set(self.changed_data):
            if problem := speaker_role_problem(cleaned_data["speaker"], cleaned_data.get("jurisdiction")):
                self.add_error("jurisdiction", problem)
        return cleaned_data


class StatementInline(RowsInlineMixin, admin.StackedInline):
    model = Statement
    form = SpeakerSpeaksForForm
    formset = StatementAtMeetingFormSet
    fields = (("speaker", "jurisdiction"), ("date", "source"), "quote", "retracted")
    autocomplete_fields = ("speaker", "jurisdiction", "source")
    row_relations = ("speaker", "jurisdiction", "source")
    formfield_overrides = {models.TextField: {"widget": forms.Textarea(attrs={"rows": 3, "cols": 80})}}
    show_change_link = True
    extra = 0


class PositionPassageInline(RowsInline):
    model = SourcePassage
    fk_name = "position"
    fields = ("source", "passage")
    autocomplete_fields = ("source",)
    row_relations = ("source",)
    formfield_overrides = {models.TextField: {"widget": forms.Textarea(attrs={"rows": 2, "cols": 60})}}
    verbose_name_plural = _("supporting passages (word for word from each source)")
    extra = 0


class MeetingPassageInline(PositionPassageInline):
    fk_name = "meeting"


@admin.register(Meeting)
class MeetingAdmin(CurationAdmin):
    list_display = ("title", "date", "kind", "location", "negotiation", "jurisdictions_present", "statement_count")
    list_select_related = ("negotiation",)
    list_filter = ("kind", "negotiation", "jurisdictions", "date_precision")
    search_fields = ("title", "slug", "location", "outcome")
    date_hierarchy = "date"
    prepopulated_fields = {"slug": ("title",)}
    autocomplete_fields = ("participants", "jurisdictions", "sources")
    inlines = (StatementInline, MeetingPassageInline)

    def get_queryset(self, request):
        return (
            super().get_queryset(request)
            .prefetch_related("jurisdictions")
            .annotate(statement_count=count_of(Statement, "meeting"))
        )

    @admin.display(description=_("jurisdictions present"))
    def jurisdictions_present(self, meeting):
        return codes(meeting.jurisdictions)

    @admin.display(description=_("statements"), ordering="statement_count")
    def statement_count(self, meeting):
        return meeting.statement_count


# The retraction note's columns, one per language (modeltranslation), the reader's language first.
def _note_fields() -> list[str]:
    first = get_language()
    return sorted((build_localized_fieldname("retraction_note", code) for code in settings.MODELTRANSLATION_LANGUAGES),
                  key=lambda name: not name.endswith(f"_{first}"))


class StatementAdminForm(SpeakerSpeaksForForm):
    """A retracted statement says why, in either language, as on the site (``services.record.statement_retract``)."""

    def clean(self):
        cleaned_data = super().clean()
        fields = _note_fields()
        if cleaned_data.get("retracted") and not any((cleaned_data.get(name) or "").strip() for name in fields):
            self.add_error(fields[0], _("Say why the statement is retracted."))
        return cleaned_data


@admin.register(Statement)
class StatementAdmin(CurationAdmin):
    form = StatementAdminForm
    list_display = ("quote_excerpt", "date", "speaker", "jurisdiction", "source", "language", "retracted")
    list_display_links = ("quote_excerpt",)
    list_filter = ("retracted", "language", titled_filter("jurisdiction", _("government spoken for")), "negotiation",
                   "date_precision")
    search_fields = ("quote", "context", "speaker__name", "ref", "source__title")
    date_hierarchy = "date"
    autocomplete_fields = ("speaker", "jurisdiction", "source", "meeting")
    actions = ("retract",)
    fieldsets = (
        (None, {"fields": ("negotiation", "speaker", "jurisdiction", "date", "date_precision", "quote",
                           "language", "original_language", "context", "source", "meeting", "ref")}),
        (_("Retraction"), {"fields": ("retracted", "retraction_note")}),
    )

    def get_queryset(self, request):
        # Here rather than in list_select_related, which the changelist ignores once the queryset has any:
        # Statement.__str__ names the speaker, in autocomplete results too.
        return super().get_queryset(request).select_related("speaker", "jurisdiction", "source")

    @admin.display(description=_("quote"), ordering="quote")
    def quote_excerpt(self, statement):
        return excerpt(statement.quote)

    def save_model(self, request, obj, form, change):
        """A statement newly marked retracted is retracted by the service, with the note in the reader's
        language (else the other), as on the site and by the action; its other changes, a note's translation
        among them, are saved first as usual."""
        if not (obj.retracted and "retracted" in form.changed_data):
            return super().save_model(request, obj, form, change)
        note_fields = _note_fields()
        typed = {name: getattr(obj, name) or "" for name in note_fields}
        note_field = next(name for name in note_fields if typed[name].strip())
        obj.retracted = False
        setattr(obj, note_field, form.initial.get(note_field) or "")
        if not change or set(form.changed_data) - {"retracted", note_field, "change_reason"}:
            super().save_model(request, obj, form, change)
        with override(note_field.rsplit("_", 1)[1]):
            retracted = services.statement_retract(actor=request.user, statement=obj, note=typed[note_field])
        obj.retracted = retracted.retracted
        setattr(obj, note_field, getattr(retracted, note_field))

    @admin.action(description=_("Retract"), permissions=["change"])
    def retract(self, request, queryset):
        """Through the same service as the web UI: a page asks why, then each statement is retracted
        with that note (its history records who did it); nothing is written without a note."""
        statements = list(queryset.filter(retracted=False).select_related("speaker"))
        form = StatementsRetractionForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            try:
                # All or none: a statement the record refuses as it stands (an old row its rules now refuse)
                # undoes the ones retracted before it, and is named above the note, which stays as typed.
                with transaction.atomic():
                    retracted = 0
                    for statement in statements:
                        refusing = statement
                        try:
                            services.statement_retract(actor=request.user, statement=statement,
                                                       note=form.cleaned_data["note"])
                        except services.StatementAlreadyRetracted:
                            continue
                        retracted += 1
            except ValidationError as error:
                form.add_error(None, _("Nothing is retracted: %(statement)s cannot be saved as it stands (%(problems)s). "
                                       "Correct it first, or leave it out.") % {
                    "statement": f"{refusing.speaker.name}, {refusing.date}",
                    "problems": " ".join(dict.fromkeys(error.messages))})
            else:
                self.message_user(
                    request,
                    ngettext("%(count)d statement retracted.", "%(count)d statements retracted.", retracted)
                    % {"count": retracted},
                    messages.SUCCESS,
                )
                return None
        return TemplateResponse(request, "admin/negotiations/statement/retract.html", {
            **self.admin_site.each_context(request),
            "title": _("Retract statements"),
            "opts": self.model._meta,
            "statements": statements,
            "form": form,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        })


class StatementsRetractionForm(RetractionForm):
    """The note of the "Retract" action, under the site's rules: a longer note (it allowed 2,000 characters where a
    note holds 300, and the service's refusal was a 500) or control characters are refused next to it, kept."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["note"].label = _("Why are they retracted?")
        self.fields["note"].widget = forms.Textarea(attrs={"rows": 3})


# ---------------------------------------------------------------------------
# Offers and positions


class VersionCheckedForm(forms.ModelForm):
    """Refuses to save over a change someone else made after this form was opened.

    The form carries the version it was opened at; if the row's version moved on, the save is
    refused with a message and the typed values stay on the page. The refused form then carries
    the new version, so saving again (after a look) deliberately applies these values.
    """

    seen_version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["seen_version"].initial = self.instance.version
            if is_historic(self.instance):
                # Reverting from the history: the instance carries the old version; the form was
                # opened at the live row's version (simple_history builds the form from the old record).
                live = type(self.instance).objects.filter(pk=self.instance.pk).values_list("version", flat=True).first()
                self.fields["seen_version"].initial = live

    def clean(self):
        cleaned_data = super().clean()
        if self.instance.pk:
            # Locks the row until the admin's transaction ends, so two saves cannot both pass.
            # The record version's lock first, as every writer takes it (negotiations.record_cache).
            record_cache.record_changed()
            current = type(self.instance).objects.select_for_update().filter(pk=self.instance.pk)
            current = current.values_list("version", flat=True).first()
            if current is not None and cleaned_data.get("seen_version") != current:
                self.data = self.data.copy()
                self.data[self.add_prefix("seen_version")] = current
                raise forms.ValidationError(
                    _("Someone else changed this record while you were editing it (it is now at version "
                      "%(version)s). Nothing was saved. Check their change in the history, then save again "
                      "to apply yours."),
                    code="changed_meanwhile", params={"version": current},
                )
        return cleaned_data


class OfferAdminForm(VersionCheckedForm):
    """Refuses a split that does not add up to the maximum grant, naming the field at fault.

    The sources' sums need the inline rows, which this form cannot see:
    ``FundingSourceFormSet`` checks those with the same rule function.
    """

    def clean(self):
        cleaned_data = super().clean()
        problems = check_terms(**{name: cleaned_data.get(name) for name in RULED_FIELDS}, sources=None)
        for problem in problems:
            self.add_error(problem.field if problem.field in self.fields else None, problem.message)
        if cleaned_data.get("status") == Offer.Status.WITHDRAWN:
            # The web UI's rule (offer_services.withdrawal_problems): why and when, not before it was tabled; also
            # when an offer already withdrawn is edited (its date moved before it was tabled, its reason cleared).
            for field, message in offer_services.withdrawal_problems(
                reason=cleaned_data.get("withdrawal_reason", ""), withdrawn_on=cleaned_data.get("withdrawn_on"),
                tabled_on=cleaned_data.get("tabled_on"),
            ).items():
                if field not in self.errors:
                    self.add_error(field, message)
        else:
            # A tabled offer with a withdrawal date or reason would read as withdrawn in one place and not another.
            for field in ("withdrawn_on", "withdrawal_reason"):
                if cleaned_data.get(field) and field not in self.errors:
                    self.add_error(field, _("Only a withdrawn offer has this: clear it, or set the status to withdrawn."))
        return cleaned_data

    @property
    def becomes_withdrawn(self) -> bool:
        """Whether this save marks the offer withdrawn (it was not, or it is new)."""
        was = self.instance.pk and Offer.objects.filter(pk=self.instance.pk, status=Offer.Status.WITHDRAWN).exists()
        return self.cleaned_data.get("status") == Offer.Status.WITHDRAWN and not was


class FundingSourceFormSet(BaseInlineFormSet):
    """Checks that each government's rows add up to its amount on the offer being saved.

    ``self.instance`` is the offer with the offer form's cleaned values already
    applied (the admin validates that form before its inline formsets), so a
    refusal here keeps the whole page, offer included, from being saved.
    """

    def clean(self):
        super().clean()
        if any(self.errors):
            return
        offer = self.instance
        # An amount the offer form refused is None here; check_terms skips the rules that need it.
        split = {name: getattr(offer, name) for name in SPLIT_FIELDS}
        rows = [
            (form.cleaned_data["payer"], form.cleaned_data["program"], form.cleaned_data["amount"])
            for form in self.forms
            if form.cleaned_data and not self._should_delete_form(form)
        ]
        problems = check_terms(**split, sources=rows, scale_program=offer.scale_program)
        # Problems with the offer's own fields are the offer form's to show.
        refusals = [problem.message for problem in problems if problem.field == FUNDING_SOURCES]
        if refusals:
            raise ValidationError(refusals)


class FundingSourceInline(RowsInline):
    model = FundingSource
    formset = FundingSourceFormSet
    fields = ("payer", "program", "amount")
    verbose_name_plural = _("funding sources (per trainee; each government's rows add up to its amount)")

    def get_extra(self, request, obj=None, **kwargs):
        return 2 if obj is None else 1


class JurisdictionTreatmentInline(RowsInline):
    model = JurisdictionTreatment
    fields = ("jurisdiction", "treatment")
    autocomplete_fields = ("jurisdiction",)
    row_relations = ("jurisdiction",)
    verbose_name_plural = _("treatments (a province or territory without a row participates)")
    extra = 0


class PhaseInStepInline(RowsInline):
    model = PhaseInStep
    fields = ("fiscal_year", "fraction")
    extra = 0


class TermBasisFormSet(BaseInlineFormSet):
    """Checks the bases with the one rule set for terms (negotiations.terms.check_basis)."""

    def clean(self):
        super().clean()
        if any(self.errors):
            return
        pt_codes = Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL).values_list("code", flat=True)
        forms_by_term = {}
        entries = []
        for form in self.forms:
            if not form.cleaned_data or self._should_delete_form(form):
                continue
            data = form.cleaned_data
            source = data.get("source")
            entries.append(TermBasisEntry(term=data["term"], status=data["status"],
                                          source=source.slug if source else None,
                                          passage=data.get("passage", ""),
                                          # the note in either language meets the rule (its English, else its French)
                                          note=data.get("note_en") or data.get("note_fr") or data.get("note", "")))
            forms_by_term.setdefault(data["term"], form)
        problems = check_basis(entries, list(pt_codes))
        for problem in problems:
            form = forms_by_term.get(problem.field.removeprefix("basis."))
            if form is not None:
                form.add_error(None, problem.message)
        if problems:
            raise ValidationError(_("Some terms' bases do not follow the rules; see the rows marked."))


class TermBasisInline(RowsInlineMixin, TranslationTabularInline):
    model = TermBasis
    formset = TermBasisFormSet
    fields = ("term", "status", "source", "passage", "note")
    autocomplete_fields = ("source",)
    row_relations = ("source",)
    formfield_overrides = {models.TextField: {"widget": forms.Textarea(attrs={"rows": 2, "cols": 40})}}
    verbose_name_plural = _("basis of each term (reported: source and passage; inferred: source and reasoning; "
                            "assumed: the assumption in the note)")
    extra = 0


@admin.register(Offer)
class OfferAdmin(CurationAdmin):
    form = OfferAdminForm
    list_display = ("title", "tabled_on", "tabled_by_codes", "status", "split", "sources_per_trainee", "scale",
                    "responds_to")
    list_select_related = ("responds_to",)
    list_filter = ("status", "negotiation", titled_filter("tabled_by", _("tabling government")),
                   titled_filter("scale_program", _("program the scale comes from")),
                   titled_filter("shortfall_liability", _("liability for an employer shortfall")))
    search_fields = ("title", "slug", "summary", "assumptions")
    date_hierarchy = "tabled_on"
    prepopulated_fields = {"slug": ("title",)}
    autocomplete_fields = ("tabled_by", "responds_to", "meeting", "sources")
    readonly_fields = ("version",)
    actions = ("mark_superseded",)
    inlines = (FundingSourceInline, JurisdictionTreatmentInline, PhaseInStepInline, TermBasisInline)
    fieldsets = (
        (None, {"fields": ("negotiation", "title", "slug", "tabled_by", "tabled_on", "agreed_on", "date_precision",
                           "responds_to", "meeting", "status", "summary", "sources", "version",
                           "seen_version")}),
        (_("Withdrawal"), {
            "description": _("Only when the status is “withdrawn”: why and when, as the offer page asks."),
            "fields": ("withdrawn_on", "withdrawal_reason"),
        }),
        (_("Terms"), {
            "description": _("Per trainee: the federal, provincial and employer amounts add up to the maximum grant."),
            "fields": SCALAR_FIELDS,
        }),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("tabled_by", "funding_sources")

    # An offer's terms live in several tables (its sources of money, treatments, phase-in and basis), which a revert
    # of its row cannot restore: a revert wrote the old split beside today's sources, terms that no longer add up.
    # Its history shows each version; bringing one back is an edit of the offer, checked as every edit is.
    def revert_disabled(self, request, obj=None):
        return True

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST":
            self.message_user(request, _(
                "An offer cannot be reverted from its history: its terms are kept in several tables that a revert "
                "does not restore. Nothing was changed; edit the offer to bring its terms back."), messages.ERROR)
            return redirect(reverse("admin:negotiations_offer_history", args=[unquote(object_id)]))
        return super().history_form_view(request, object_id, version_id, extra_context=extra_context)

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if isinstance(inline, FundingSourceInline) and obj.pk is None:
            kwargs["initial"] = [{"payer": "federal"}, {"payer": "provincial"}]
        return kwargs

    def save_model(self, request, obj, form, change):
        withdrawing = change and form.becomes_withdrawn
        if withdrawing:
            # The rest of the change is saved first, then the offer is withdrawn as the offer page does it.
            obj.status = Offer.objects.values_list("status", flat=True).get(pk=obj.pk)
        if change:
            # From the live row's version (a revert's instance carries the old one).
            obj.version = (form.cleaned_data.get("seen_version") or obj.version) + 1
        super().save_model(request, obj, form, change)
        if withdrawing:
            offer_services.offer_withdraw(actor=request.user, offer=obj, reason=form.cleaned_data["withdrawal_reason"],
                                          withdrawn_on=form.cleaned_data["withdrawn_on"])

    @admin.display(description=_("tabled by"))
    def tabled_by_codes(self, offer):
        return codes(offer.tabled_by)

    @admin.display(description=_("federal / provincial / employer of max"))
    def split(self, offer):
        money = numbers().money
        return _("%(federal)s / %(provincial)s / %(employer)s of %(max_grant)s") % {
            "federal": money(offer.federal_amount), "provincial": money(offer.provincial_amount),
            "employer": money(offer.employer_amount), "max_grant": money(offer.max_grant)}

    @admin.display(description=_("sources per trainee"))
    def sources_per_trainee(self, offer):
        money = numbers().money
        return "; ".join(
            f"{row.get_payer_display()} {row.program} {money(row.amount)}" for row in offer.funding_sources.all()
        ) or "—"

    @admin.display(description=_("scale"), ordering="scale_amount")
    def scale(self, offer):
        return _("%(amount)s from %(program)s") % {"amount": numbers().money(offer.scale_amount),
                                                  "program": offer.scale_program}

    @admin.action(description=_("Mark as superseded"), permissions=["change"])
    def mark_superseded(self, request, queryset):
        marked = offer_services.offers_supersede(actor=request.user, offers=queryset)
        self.message_user(
            request,
            ngettext("%(count)d offer marked as superseded.", "%(count)d offers marked as superseded.", marked)
            % {"count": marked},
            messages.SUCCESS,
        )


class ConditionInline(RowsInlineMixin, TranslationTabularInline):
    """A position's stated conditions: checks on a term, or words only (negotiations.acceptance), the words
    in both languages."""

    model = Condition
    fields = ("order", "kind", "text", "term", "operator", "value", "statement")
    autocomplete_fields = ("statement",)
    row_relations = ("position", "statement")
    extra = 1


@admin.register(Position)
class PositionAdmin(CurationAdmin):
    inlines = (ConditionInline,)
    form = VersionCheckedForm
    list_display = ("jurisdiction", "stance", "as_of", "negotiation", "summary_excerpt", "triggered_by_offer",
                    "triggered_by_meeting", "evidence_count")
    list_select_related = ("jurisdiction", "negotiation", "triggered_by_offer", "triggered_by_meeting")
    list_filter = ("stance", "jurisdiction", "negotiation")
    search_fields = ("summary", "conditions", "jurisdiction__code", "jurisdiction__name_en")
    date_hierarchy = "as_of"
    autocomplete_fields = ("jurisdiction", "evidence", "sources", "triggered_by_offer", "triggered_by_meeting")
    readonly_fields = ("version",)
    inlines = (PositionPassageInline,)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(evidence_count=count_of(Position.evidence.through, "position"))

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "evidence":
            # Each selected statement is labelled with its speaker's name.
            kwargs["queryset"] = Statement.objects.select_related("speaker")
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        if change:
            # From the live row's version (a revert's instance carries the old one).
            obj.version = (form.cleaned_data.get("seen_version") or obj.version) + 1
        super().save_model(request, obj, form, change)

    @admin.display(description=_("summary"))
    def summary_excerpt(self, position):
        return excerpt(position.summary)

    @admin.display(description=_("evidence"), ordering="evidence_count")
    def evidence_count(self, position):
        return position.evidence_count


@admin.register(KeyDate)
class KeyDateAdmin(CurationAdmin):
    list_display = ("title", "date", "date_precision", "kind", "negotiation", "source")
    list_select_related = ("negotiation", "source")
    list_filter = ("kind", "negotiation")
    search_fields = ("title", "slug", "note")
    date_hierarchy = "date"
    prepopulated_fields = {"slug": ("title",)}
    autocomplete_fields = ("source",)
# Article imports (issue 19): read in the admin; reviewed and committed on the import pages.
from negotiations.models import ArticleImport, ProposedStatement  # noqa: E402


class ProposedStatementInline(admin.TabularInline):
    """An import's proposals, to read: each is accepted, edited or refused on the import's review page, through
    negotiations.services.imports, which writes the statements it commits."""

    model = ProposedStatement
    fields = readonly_fields = ["order", "quote", "speaker", "speaker_name", "date", "decision", "statement"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(ArticleImport)
class ArticleImportAdmin(SimpleHistoryAdmin):
    """Article imports, to read and find: they are reviewed and committed on the import pages (the services'
    rules), never edited here."""

    list_display = ["__str__", "outlet", "published_on", "status", "created_at"]
    list_filter = ["status"]
    search_fields = ["title", "outlet", "url"]
    inlines = [ProposedStatementInline]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
