"""The negotiation record: who, when, what was said, where each government stands, what is on the table.

Models hold fields and constraints only. Rules the database cannot express
(a split that must add up, a payer's sources that must add up) live in
`negotiations.terms` and are applied by `clean()` and the services.
"""

import operator
from collections.abc import Collection
from decimal import Decimal
from functools import reduce

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchConfig, SearchVector
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Case, F, Q, When
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from negotiations import bounds
from negotiations.acceptance import condition_problems
from negotiations.terms import GovernmentPayer, Liability, Payer, Program, Treatment  # noqa: F401  (the one vocabulary)
from negotiations.validators import (
    date_range_message,
    text_length,
    validate_no_control_characters,
    validate_not_after_today,
    validate_record_date,
)


def _day(value, precision) -> str:
    """A record's date in words in the reader's language, as choices and the admin name records: date first,
    so that a long title cut off at the end of a select still leaves each choice told apart."""
    from config.numbers import format_date

    return format_date(value, precision)


def _colon(label) -> str:
    from config.numbers import colon

    return colon(label)


class DatePrecision(models.TextChoices):
    DAY = "day", _("day")
    MONTH = "month", _("month")
    YEAR = "year", _("year")
    APPROXIMATE = "approximate", _("approximate")


class Confidence(models.TextChoices):
    HIGH = "high", _("high")
    MEDIUM = "medium", _("medium")
    LOW = "low", _("low")


class Language(models.TextChoices):
    ENGLISH = "en", _("English")
    FRENCH = "fr", _("French")


# The language a quote was spoken in: none chosen says it is not a translation. The blank choice is named
# here, on the fields, so that every form of them (the site's and the admin's) offers it in words, not "---------".
ORIGINAL_LANGUAGE_CHOICES = [("", _("not a translation")), *Language.choices]


# The record is searched in both its languages, each with its own stemming ("subventions" finds
# "subvention", "grants" finds "grant"), accents ignored (migration 0007_i16_search).
SEARCH_CONFIGURATIONS = {"en": "fpt_english", "fr": "fpt_french"}


def search_vector(fields: tuple[str, ...], *, translated: Collection[str], spoken_in: str | None = None) -> CombinedExpression:
    """A record's searched text as one weighted vector (weights A, B, C in the order of `fields`).

    A translated field is read through each language's column with that language's stemming. An
    untranslated one (a quote, kept as it was spoken) is read once, with the stemming of the language in
    the column `spoken_in`, or in every language's stemming when no column says which."""
    vectors = []
    for language, config in SEARCH_CONFIGURATIONS.items():
        for field, weight in zip(fields, "ABC"):
            if field in translated:
                vectors.append(SearchVector(f"{field}_{language}", weight=weight, config=config))
            elif spoken_in is None:
                vectors.append(SearchVector(field, weight=weight, config=config))
            elif language == next(iter(SEARCH_CONFIGURATIONS)):
                vectors.append(SearchVector(field, weight=weight, config=_stemming_of(spoken_in)))
    return reduce(operator.add, vectors)


def _stemming_of(language_field: str) -> Case:
    """The search configuration of the language a row's `language_field` names (each one a constant, as an
    index expression needs)."""
    first, *others = SEARCH_CONFIGURATIONS.items()
    return Case(*(When(**{language_field: language}, then=SearchConfig(config)) for language, config in others),
                default=SearchConfig(first[1]))


def search_index(*, name: str, fields: tuple[str, ...], translated: Collection[str], spoken_in: str | None = None) -> GinIndex:
    """The full-text index of one kind of record; negotiations.search reads its expression from here
    (PostgreSQL uses an expression index only for a query with the same expression). The migrations
    create these indexes on PostgreSQL only."""
    return GinIndex(search_vector(fields, translated=translated, spoken_in=spoken_in), name=name)


def bounded_text(verbose_name, limit: int, **options) -> models.TextField:
    """Free text of at most `limit` characters: the form says so, the model validates it and the
    database refuses longer (length_constraint)."""
    return models.TextField(verbose_name, max_length=limit, validators=[text_length(limit)], **options)


def length_constraint(model_name: str, field: str, limit: int) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=LessThanOrEqual(Length(field), limit), name=f"{model_name}_{field}_length",
        violation_error_message=format_lazy(_("At most {limit} characters, please."), limit=limit),
    )


def date_range_constraint(model_name: str, field: str, *, nullable: bool = False) -> models.CheckConstraint:
    """The database's side of validate_record_date: `field` lies between bounds.EARLIEST_DATE and
    bounds.LATEST_DATE (or is empty, when `nullable`)."""
    condition = Q(**{f"{field}__gte": bounds.EARLIEST_DATE, f"{field}__lte": bounds.LATEST_DATE})
    if nullable:
        condition |= Q(**{f"{field}__isnull": True})
    return models.CheckConstraint(
        condition=condition, name=f"{model_name}_{field}_range",
        violation_error_message=lazy(date_range_message, str)(),
    )


# The languages of the translated fields (negotiations/translation.py, grants/translation.py): the
# same as settings.MODELTRANSLATION_LANGUAGES, written here because the migrations spell them out.
TRANSLATED_LANGUAGES = ("en", "fr")


def translated_length_constraints(model_name: str, field: str, limit: int) -> list[models.CheckConstraint]:
    """length_constraint for a translated field and each of its languages' columns (field_en, field_fr):
    the ORM writes ``field`` to the current language's column, so that column needs the bound too."""
    return [length_constraint(model_name, name, limit)
            for name in (field, *(f"{field}_{language}" for language in TRANSLATED_LANGUAGES))]


def dated_precision_field():
    return models.CharField(
        _("date precision"), max_length=12, choices=DatePrecision.choices, default=DatePrecision.DAY
    )


class Jurisdiction(models.Model):
    class Kind(models.TextChoices):
        FEDERAL = "federal", _("federal")
        PROVINCE = "province", _("province")
        TERRITORY = "territory", _("territory")

    code = models.CharField(_("code"), max_length=2, unique=True)
    # Stored as name_en and name_fr (negotiations/translation.py); ``name`` is the reader's language's.
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    order = models.PositiveSmallIntegerField(_("display order"), default=0)
    population = models.PositiveBigIntegerField(_("population"))
    population_date = models.DateField(_("population as of"), validators=[validate_record_date])
    population_source = models.CharField(_("population source"), max_length=300)
    population_confidence = models.CharField(
        _("population confidence"), max_length=6, choices=Confidence.choices, default=Confidence.HIGH
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("jurisdiction")
        verbose_name_plural = _("jurisdictions")
        ordering = ["order", "code"]
        constraints = [
            models.CheckConstraint(condition=Q(code__regex=r"^[A-Z]{2}$"), name="jurisdiction_code_two_capitals"),
        ]

    def __str__(self):
        return f"{self.name} ({self.code})"

    @property
    def is_federal(self):
        return self.kind == self.Kind.FEDERAL

    def get_absolute_url(self):
        return reverse("negotiations:jurisdiction", args=[self.code])


class Person(models.Model):
    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("slug"), max_length=150, unique=True)
    notes = bounded_text(_("notes"), bounds.NOTES_LENGTH, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("person")
        ordering = ["name"]
        verbose_name_plural = _("people")
        constraints = [*translated_length_constraints("person", "notes", bounds.NOTES_LENGTH)]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("negotiations:person", args=[self.slug])


ROLE_WITHOUT_PLACE = _("A role belongs to a jurisdiction or an organisation.")


class Role(models.Model):
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="roles", verbose_name=_("person"))
    title = models.CharField(_("title"), max_length=250)
    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, null=True, blank=True, related_name="roles",
        verbose_name=_("jurisdiction"),
    )
    organization = models.CharField(_("organisation"), max_length=200, blank=True)
    start = models.DateField(_("from"), null=True, blank=True, validators=[validate_record_date])
    start_precision = dated_precision_field()
    end = models.DateField(_("to"), null=True, blank=True, validators=[validate_record_date])
    end_precision = dated_precision_field()
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("role")
        verbose_name_plural = _("roles")
        ordering = ["person__name", "-start"]
        constraints = [
            models.CheckConstraint(
                condition=Q(jurisdiction__isnull=False) | ~Q(organization=""),
                name="role_has_jurisdiction_or_organization",
                violation_error_message=ROLE_WITHOUT_PLACE,
            ),
            models.CheckConstraint(
                condition=Q(start__isnull=True) | Q(end__isnull=True) | Q(end__gte=F("start")),
                name="role_ends_after_it_starts",
                violation_error_message=_("A role cannot end before it starts."),
            ),
        ]

    def clean(self):
        # The check constraint below, said next to the jurisdiction: a form that edits the organisation in each
        # language (the admin's organization_en and organization_fr) leaves `organization` out of the
        # constraints Django checks, and the database refused the row with a 500.
        if self.jurisdiction_id is None and not self.organization:
            raise ValidationError({"jurisdiction": ROLE_WITHOUT_PLACE})

    def __str__(self):
        where = self.jurisdiction.code if self.jurisdiction_id else self.organization
        return f"{self.person.name}, {self.title} ({where})"


class Negotiation(models.Model):
    slug = models.SlugField(_("slug"), max_length=100, unique=True)
    title = models.CharField(_("title"), max_length=200)
    summary = bounded_text(_("summary"), bounds.SUMMARY_LENGTH, blank=True)
    started_on = models.DateField(_("started on"), null=True, blank=True, validators=[validate_record_date])
    started_precision = dated_precision_field()
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("negotiation")
        verbose_name_plural = _("negotiations")
        ordering = ["-started_on", "title"]
        constraints = [*translated_length_constraints("negotiation", "summary", bounds.SUMMARY_LENGTH)]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("negotiations:stances", args=[self.slug])


class Source(models.Model):
    class Kind(models.TextChoices):
        NEWS = "news", _("news article")
        GOVERNMENT = "government", _("government document")
        STATEMENT = "statement", _("official statement")
        OTHER = "other", _("other")

    slug = models.SlugField(_("slug"), max_length=150, unique=True)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.NEWS)
    outlet = models.CharField(_("outlet"), max_length=150)
    title = models.CharField(_("title"), max_length=300)
    author = models.CharField(_("author"), max_length=150, blank=True)
    published_on = models.DateField(_("published on"), validators=[validate_record_date, validate_not_after_today])
    date_precision = dated_precision_field()
    language = models.CharField(_("language"), max_length=2, choices=Language.choices, default=Language.ENGLISH,
                                help_text=_("The language it is written in: the passages quoted from it are in it."))
    url = models.URLField(_("address"), max_length=500, blank=True)
    archive_url = models.URLField(
        _("archived copy"), max_length=500, blank=True,
        help_text=_("An archived copy of the page (a web archive's address), when there is one."),
    )
    summary = bounded_text(_("summary"), bounds.SUMMARY_LENGTH, blank=True)
    text = bounded_text(
        _("text"), bounds.ARTICLE_TEXT_LENGTH, blank=True, help_text=_("The full text, when imported.")
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("source")
        verbose_name_plural = _("sources")
        ordering = ["-published_on", "outlet"]
        constraints = [
            *translated_length_constraints("source", "summary", bounds.SUMMARY_LENGTH),
            length_constraint("source", "text", bounds.ARTICLE_TEXT_LENGTH),
        ]

    def __str__(self):
        return f"{_day(self.published_on, self.date_precision)} · {_colon(self.outlet)} {self.title}"

    def get_absolute_url(self):
        return reverse("negotiations:source", args=[self.slug])

    @property
    def published_title(self) -> str:
        """The title as the source published it, in its own language (a citation's; ``title`` is the reader's)."""
        return getattr(self, f"title_{self.language}", None) or self.title


class Meeting(models.Model):
    class Kind(models.TextChoices):
        FPT_MINISTERS = "fpt_ministers", _("FPT ministers' meeting")
        PREMIERS = "premiers", _("premiers' meeting")
        BILATERAL = "bilateral", _("bilateral")
        STAKEHOLDER_ROUNDTABLE = "stakeholder_roundtable", _("stakeholder roundtable")
        CALL = "call", _("conference call")
        ANNOUNCEMENT = "announcement", _("announcement or document")
        MEDIA = "media", _("media interview")
        OTHER = "other", _("other")

    negotiation = models.ForeignKey(
        Negotiation, on_delete=models.PROTECT, related_name="meetings", verbose_name=_("negotiation")
    )
    slug = models.SlugField(_("slug"), max_length=150, unique=True)
    title = models.CharField(_("title"), max_length=250)
    date = models.DateField(_("date"), validators=[validate_record_date])
    date_precision = dated_precision_field()
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    location = models.CharField(_("place"), max_length=150, blank=True)
    participants = models.ManyToManyField(
        Person, blank=True, related_name="meetings", verbose_name=_("participants")
    )
    jurisdictions = models.ManyToManyField(
        Jurisdiction, blank=True, related_name="meetings", verbose_name=_("jurisdictions present")
    )
    outcome = bounded_text(_("outcome"), bounds.OUTCOME_LENGTH, blank=True)
    sources = models.ManyToManyField(Source, blank=True, related_name="meetings", verbose_name=_("sources"))
    history = HistoricalRecords(m2m_fields=[participants, jurisdictions, sources])

    class Meta:
        verbose_name = _("meeting")
        verbose_name_plural = _("meetings")
        ordering = ["-date", "title"]
        indexes = [
            models.Index(fields=["negotiation", "date"]),
            models.Index(fields=["-date", "title"], name="meeting_newest_first"),
            search_index(name="meeting_search", fields=("title", "outcome", "location"),
                         translated=("title", "outcome", "location")),
        ]
        constraints = [*translated_length_constraints("meeting", "outcome", bounds.OUTCOME_LENGTH)]

    def __str__(self):
        return f"{_day(self.date, self.date_precision)} · {self.title}"

    def get_absolute_url(self):
        return reverse("negotiations:meeting", args=[self.slug])


class Statement(models.Model):
    negotiation = models.ForeignKey(
        Negotiation, on_delete=models.PROTECT, related_name="statements", verbose_name=_("negotiation")
    )
    speaker = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="statements", verbose_name=_("speaker"))
    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, null=True, blank=True, related_name="statements",
        verbose_name=_("on behalf of"),
        help_text=_("The government the speaker spoke for; empty for stakeholders."),
    )
    date = models.DateField(_("date"), validators=[validate_record_date, validate_not_after_today])
    date_precision = dated_precision_field()
    language = models.CharField(_("language of the quote"), max_length=2, choices=Language.choices, default="en")
    original_language = models.CharField(
        _("language spoken"), max_length=2, choices=ORIGINAL_LANGUAGE_CHOICES, blank=True,
        help_text=_("Set when the quote is a translation."),
    )
    quote = bounded_text(_("quote"), bounds.QUOTE_LENGTH)
    context = models.CharField(_("context"), max_length=300, blank=True)
    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="statements", verbose_name=_("source"))
    meeting = models.ForeignKey(
        Meeting, on_delete=models.SET_NULL, null=True, blank=True, related_name="statements",
        verbose_name=_("made at"),
    )
    ref = models.SlugField(
        _("reference"), max_length=150, unique=True, null=True, blank=True,
        help_text=_("A stable key for imported statements, so a re-import finds them."),
    )
    retracted = models.BooleanField(_("retracted"), default=False)
    retraction_note = models.CharField(
        _("why retracted"), max_length=300, blank=True, validators=[validate_no_control_characters]
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("statement")
        verbose_name_plural = _("statements")
        ordering = ["-date", "speaker__name"]
        indexes = [
            models.Index(fields=["jurisdiction", "date"]),
            models.Index(fields=["speaker", "date"]),
            models.Index(fields=["negotiation", "date"]),
            models.Index(fields=["-date", "-id"], name="statement_newest_first"),
            search_index(name="statement_search", fields=("quote", "context"), translated=("context",),
                         spoken_in="language"),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(quote=""), name="statement_quote_not_empty"),
            length_constraint("statement", "quote", bounds.QUOTE_LENGTH),
        ]

    def __str__(self):
        quote = self.quote if len(self.quote) <= 60 else self.quote[:57] + "..."
        return f"{self.speaker.name}, {_colon(_day(self.date, self.date_precision))} “{quote}”"


def speaker_role_problem(speaker: Person, jurisdiction: Jurisdiction | None) -> str | None:
    """Why `speaker` is not recorded speaking for `jurisdiction`, or None.

    A speaker speaks for a government they hold (or held) a role with: "Jason Kenney on behalf of Ontario" is a
    slip of the list. A person with no role in the record yet (just named) is taken as given, as is a stakeholder.
    Checked where a speaker or government is chosen (the forms, ``statement_record``), not on every save, so that
    a statement recorded before can still be retracted or corrected.
    """
    if jurisdiction is None or speaker.pk is None:
        return None
    governments = set(speaker.roles.values_list("jurisdiction_id", flat=True))
    if not governments or jurisdiction.pk in governments:
        return None
    return _("The record gives %(name)s no role with this government (%(government)s): choose the government "
             "spoken for, or first add that role to the person in the admin.") % {
        "name": speaker.name, "government": jurisdiction.name}


class Stance(models.TextChoices):
    SUPPORTS = "supports", _("supports")
    CONDITIONAL = "conditional", _("conditional")
    OPPOSES = "opposes", _("opposes")
    OPTS_OUT = "opts_out", _("opts out")
    UNKNOWN = "unknown", _("unknown")


class TermFields(models.Model):
    """The one-value terms (negotiations.terms.TERM_FIELDS) as stored fields, shared by ``Offer`` and
    ``grants.Scenario``: per-trainee split, scale, employer minimum, who covers the gap, liability."""

    max_grant = models.DecimalField(_("maximum grant per trainee"), max_digits=12, decimal_places=2)
    federal_amount = models.DecimalField(_("federal per trainee"), max_digits=12, decimal_places=2)
    provincial_amount = models.DecimalField(_("provincial per trainee"), max_digits=12, decimal_places=2)
    employer_amount = models.DecimalField(_("employer per trainee"), max_digits=12, decimal_places=2)
    scale_program = models.CharField(_("scale drawn from"), max_length=12, choices=Program.choices, default=Program.LMA)
    scale_amount = models.DecimalField(_("national amount drawn"), max_digits=14, decimal_places=2)
    employer_min_share = models.DecimalField(
        _("employer minimum share"), max_digits=4, decimal_places=3, null=True, blank=True,
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(1))],
        help_text=_("A fraction between 0 and 1, e.g. 0.15."),
    )
    small_employer_gap_payer = models.CharField(
        _("who covers the small-employer gap"), max_length=10, choices=GovernmentPayer.choices, blank=True,
        help_text=_("Empty: nobody, the grant is smaller."),
    )
    shortfall_liability = models.CharField(
        _("liable for an employer shortfall"), max_length=10, choices=Liability.choices, default=Liability.NONE
    )

    class Meta:
        abstract = True


class Offer(TermFields):
    """An offer and its scalar terms; program sources, treatments and phase-in are rows of their own."""

    class Status(models.TextChoices):
        TABLED = "tabled", _("tabled")
        SUPERSEDED = "superseded", _("superseded")
        REJECTED = "rejected", _("rejected")
        ACCEPTED = "accepted", _("accepted")
        WITHDRAWN = "withdrawn", _("withdrawn")

    negotiation = models.ForeignKey(
        Negotiation, on_delete=models.PROTECT, related_name="offers", verbose_name=_("negotiation")
    )
    slug = models.SlugField(_("slug"), max_length=150, unique=True)
    title = models.CharField(_("title"), max_length=250)
    tabled_by = models.ManyToManyField(Jurisdiction, related_name="offers_tabled", verbose_name=_("tabled by"))
    tabled_on = models.DateField(_("tabled on"), validators=[validate_record_date, validate_not_after_today])
    date_precision = dated_precision_field()
    agreed_on = models.DateField(
        _("agreed on"), null=True, blank=True, validators=[validate_record_date],
        help_text=_("When the governments that table it agreed it, if that day differs from the day it was tabled."),
    )
    responds_to = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="responses",
        verbose_name=_("answers"),
    )
    meeting = models.ForeignKey(
        Meeting, on_delete=models.SET_NULL, null=True, blank=True, related_name="offers",
        verbose_name=_("tabled at"),
    )
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.TABLED)
    summary = bounded_text(_("summary"), bounds.SUMMARY_LENGTH, blank=True)
    sources = models.ManyToManyField(Source, blank=True, related_name="offers", verbose_name=_("sources"))

    # The terms (FISCAL_MODEL) are TermFields' fields; their assumptions, in words:
    assumptions = bounded_text(
        _("assumptions"), bounds.ASSUMPTIONS_LENGTH, blank=True,
        help_text=_("How the sources were read where they leave a term open."),
    )
    withdrawn_on = models.DateField(_("withdrawn on"), null=True, blank=True, validators=[validate_record_date, validate_not_after_today])
    withdrawal_reason = bounded_text(_("why it was withdrawn"), bounds.WITHDRAWAL_REASON_LENGTH, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)
    history = HistoricalRecords(m2m_fields=[tabled_by, sources])

    class Meta:
        verbose_name = _("offer")
        verbose_name_plural = _("offers")
        ordering = ["-tabled_on", "title"]
        indexes = [
            models.Index(fields=["negotiation", "tabled_on"]),
            models.Index(fields=["-tabled_on", "title"], name="offer_newest_first"),
            search_index(name="offer_search", fields=("title", "summary", "assumptions"),
                         translated=("title", "summary", "assumptions")),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(max_grant__gt=0), name="offer_max_grant_positive",
                                   violation_error_message=_("The maximum grant must be greater than zero.")),
            models.CheckConstraint(
                condition=Q(federal_amount__gte=0) & Q(provincial_amount__gte=0) & Q(employer_amount__gte=0),
                name="offer_split_not_negative",
                violation_error_message=_("Per-trainee amounts cannot be negative."),
            ),
            models.CheckConstraint(condition=Q(scale_amount__gt=0), name="offer_scale_positive",
                                   violation_error_message=_("The national amount must be greater than zero.")),
            models.CheckConstraint(
                condition=Q(employer_min_share__isnull=True)
                | (Q(employer_min_share__gte=0) & Q(employer_min_share__lte=1)),
                name="offer_employer_min_share_fraction",
                violation_error_message=_("The employer minimum share is a fraction between 0 and 1."),
            ),
            models.CheckConstraint(condition=~Q(responds_to=F("pk")), name="offer_not_answering_itself"),
            *translated_length_constraints("offer", "summary", bounds.SUMMARY_LENGTH),
            *translated_length_constraints("offer", "assumptions", bounds.ASSUMPTIONS_LENGTH),
            length_constraint("offer", "withdrawal_reason", bounds.WITHDRAWAL_REASON_LENGTH),
            date_range_constraint("offer", "agreed_on", nullable=True),
            date_range_constraint("offer", "withdrawn_on", nullable=True),
        ]

    def __str__(self):
        return self.title

    def clean(self):
        super().clean()
        if problem := self.answering_problem():
            raise ValidationError({"responds_to": problem})

    def answering_problem(self) -> str | None:
        """Why this offer cannot answer the one it names, or None: an offer answers an earlier offer (or one of the
        same day), never itself, and never one that answers it, directly or through others (a loop)."""
        answered = self.responds_to if self.responds_to_id is not None else None
        if answered is None:
            return None
        if self.pk is not None and answered.pk == self.pk:
            return _("An offer cannot answer itself.")
        if self.tabled_on is not None and answered.tabled_on > self.tabled_on:
            return _("“%(title)s” was tabled on %(answered)s, after this offer (%(tabled)s): an offer answers an "
                     "earlier one.") % {"title": answered.title, "answered": _day(answered.tabled_on, answered.date_precision),
                                        "tabled": _day(self.tabled_on, self.date_precision)}
        seen, current = {answered.pk}, answered
        while self.pk is not None and current.responds_to_id is not None and current.responds_to_id not in seen:
            if current.responds_to_id == self.pk:
                return _("“%(title)s” already answers this offer, directly or through others: answering it back would "
                         "make a loop.") % {"title": answered.title}
            seen.add(current.responds_to_id)
            current = Offer.objects.only("pk", "responds_to").get(pk=current.responds_to_id)
        return None

    def dated_title(self) -> str:
        """The offer as a choice names it: its date in words first, then its title."""
        return f"{_day(self.tabled_on, self.date_precision)} · {self.title}"

    def get_absolute_url(self):
        return reverse("negotiations:offer", args=[self.slug])


class FundingSource(models.Model):
    """Where one government payer's per-trainee amount comes from, program by program."""

    offer = models.ForeignKey(Offer, on_delete=models.CASCADE, related_name="funding_sources", verbose_name=_("offer"))
    payer = models.CharField(_("payer"), max_length=10, choices=GovernmentPayer.choices)
    program = models.CharField(_("program"), max_length=12, choices=Program.choices)
    amount = models.DecimalField(_("per trainee"), max_digits=12, decimal_places=2)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("funding source")
        verbose_name_plural = _("funding sources")
        ordering = ["offer", "payer", "program"]
        constraints = [
            models.UniqueConstraint(fields=["offer", "payer", "program"], name="funding_source_once_per_program",
                                    violation_error_message=_("Each program appears once per payer.")),
            models.CheckConstraint(condition=Q(amount__gte=0), name="funding_source_not_negative",
                                   violation_error_message=_("A program amount cannot be negative.")),
        ]

    def __str__(self):
        from config.numbers import format_money

        return f"{_colon(self.get_payer_display())} {format_money(self.amount)} ({self.get_program_display()})"


class JurisdictionTreatment(models.Model):
    """How one P/T is treated by an offer; a P/T without a row participates."""

    offer = models.ForeignKey(Offer, on_delete=models.CASCADE, related_name="treatments", verbose_name=_("offer"))
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+",
                                     verbose_name=_("jurisdiction"))
    treatment = models.CharField(_("treatment"), max_length=24, choices=Treatment.choices)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("treatment of a jurisdiction")
        verbose_name_plural = _("treatments of jurisdictions")
        ordering = ["offer", "jurisdiction__order"]
        constraints = [
            models.UniqueConstraint(fields=["offer", "jurisdiction"], name="treatment_once_per_jurisdiction",
                                    violation_error_message=_("Each jurisdiction has one treatment per offer.")),
        ]

    def __str__(self):
        return f"{self.jurisdiction.code}: {self.get_treatment_display()}"


class PhaseInStep(models.Model):
    """The fraction of the full scale that applies in one fiscal year."""

    offer = models.ForeignKey(Offer, on_delete=models.CASCADE, related_name="phase_in", verbose_name=_("offer"))
    fiscal_year = models.CharField(_("fiscal year"), max_length=7, help_text=_("Such as 2014-15."))
    fraction = models.DecimalField(
        _("fraction of full scale"), max_digits=5, decimal_places=4,
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(1))],
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("phase-in step")
        verbose_name_plural = _("phase-in steps")
        ordering = ["offer", "fiscal_year"]
        constraints = [
            models.UniqueConstraint(fields=["offer", "fiscal_year"], name="phase_in_once_per_year",
                                    violation_error_message=_("Each fiscal year appears once.")),
            models.CheckConstraint(condition=Q(fraction__gte=0) & Q(fraction__lte=1), name="phase_in_fraction",
                                   violation_error_message=_("A phase-in fraction is between 0 and 1.")),
            models.CheckConstraint(condition=Q(fiscal_year__regex=r"^[0-9]{4}-[0-9]{2}$"),
                                   name="phase_in_fiscal_year_format",
                                   violation_error_message=_("A fiscal year is written like 2014-15.")),
        ]

    def __str__(self):
        from config.numbers import format_percent

        return f"{_colon(self.fiscal_year)} {format_percent(self.fraction)}"


class TermBasis(models.Model):
    """Whether one term of an offer was reported, inferred or assumed, and on what (negotiations.terms).

    A term with no row has no basis given: pages say so rather than treat it as reported.
    """

    class Status(models.TextChoices):
        REPORTED = "reported", _("reported")
        INFERRED = "inferred", _("inferred")
        ASSUMED = "assumed", _("assumed")

    offer = models.ForeignKey(Offer, on_delete=models.CASCADE, related_name="term_basis", verbose_name=_("offer"))
    term = models.CharField(_("term"), max_length=40, help_text=_("A term path, such as split.federal or treatments.QC."))
    status = models.CharField(_("basis"), max_length=10, choices=Status.choices)
    source = models.ForeignKey(
        Source, on_delete=models.PROTECT, null=True, blank=True, related_name="term_bases", verbose_name=_("source"),
    )
    passage = bounded_text(_("passage"), bounds.PASSAGE_LENGTH, blank=True,
                           help_text=_("The words of the source that state the term."))
    note = bounded_text(_("note"), bounds.TERM_NOTE_LENGTH, blank=True,
                        help_text=_("The reasoning (inferred) or the assumption (assumed)."))
    history = HistoricalRecords()

    class Meta:
        ordering = ["offer", "term"]
        verbose_name = _("basis of a term")
        verbose_name_plural = _("bases of terms")
        constraints = [
            models.UniqueConstraint(fields=["offer", "term"], name="term_basis_once_per_term",
                                    violation_error_message=_("Each term has one basis per offer.")),
            models.CheckConstraint(condition=Q(status__in=["reported", "inferred", "assumed"]),
                                   name="term_basis_status_known"),
            length_constraint("termbasis", "passage", bounds.PASSAGE_LENGTH),
            *translated_length_constraints("termbasis", "note", bounds.TERM_NOTE_LENGTH),
        ]

    def __str__(self):
        from negotiations.term_basis import term_label

        return f"{_colon(term_label(self.term))} {self.get_status_display()}"


class Position(models.Model):
    negotiation = models.ForeignKey(
        Negotiation, on_delete=models.PROTECT, related_name="positions", verbose_name=_("negotiation")
    )
    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="positions", verbose_name=_("jurisdiction")
    )
    as_of = models.DateField(_("as of"), validators=[validate_record_date, validate_not_after_today])
    date_precision = dated_precision_field()
    stance = models.CharField(_("stance"), max_length=12, choices=Stance.choices)
    summary = bounded_text(_("summary"), bounds.SUMMARY_LENGTH)
    conditions = bounded_text(_("stated conditions"), bounds.CONDITIONS_LENGTH, blank=True)
    evidence = models.ManyToManyField(Statement, blank=True, related_name="positions", verbose_name=_("evidence"))
    sources = models.ManyToManyField(Source, blank=True, related_name="positions", verbose_name=_("sources"))
    triggered_by_offer = models.ForeignKey(
        Offer, on_delete=models.SET_NULL, null=True, blank=True, related_name="positions_triggered",
        verbose_name=_("triggered by offer"),
    )
    triggered_by_meeting = models.ForeignKey(
        Meeting, on_delete=models.SET_NULL, null=True, blank=True, related_name="positions_triggered",
        verbose_name=_("triggered by meeting"),
    )
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)
    history = HistoricalRecords(m2m_fields=[evidence, sources])

    class Meta:
        verbose_name = _("position")
        verbose_name_plural = _("positions")
        ordering = ["-as_of", "jurisdiction__order"]
        indexes = [
            models.Index(fields=["jurisdiction", "as_of"]),
            models.Index(fields=["negotiation", "as_of"]),
            models.Index(fields=["-as_of"], name="position_newest_first"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["negotiation", "jurisdiction", "as_of"], name="position_once_per_day",
                violation_error_message=_("This jurisdiction already has a position on this negotiation on that date."),
            ),
            *translated_length_constraints("position", "summary", bounds.SUMMARY_LENGTH),
            *translated_length_constraints("position", "conditions", bounds.CONDITIONS_LENGTH),
        ]

    def __str__(self):
        from config.numbers import format_as_of

        # "As of" and the date are one phrase at the date's precision: « en janvier 2014 », not « au janvier 2014 ».
        return _("%(code)s %(stance)s %(as_of)s") % {
            "code": self.jurisdiction.code, "stance": self.get_stance_display(),
            "as_of": format_as_of(self.as_of, self.date_precision)}


class SourcePassage(models.Model):
    """The passage of a source that supports a fact of a position (its stance and conditions) or a meeting."""

    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="passages", verbose_name=_("source"))
    position = models.ForeignKey(
        Position, on_delete=models.CASCADE, null=True, blank=True, related_name="passages", verbose_name=_("position"),
    )
    meeting = models.ForeignKey(
        Meeting, on_delete=models.CASCADE, null=True, blank=True, related_name="passages", verbose_name=_("meeting"),
    )
    passage = bounded_text(_("passage"), bounds.PASSAGE_LENGTH, help_text=_("Quoted from the source, word for word."))
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = _("supporting passages")
        ordering = ["source", "id"]
        verbose_name = _("supporting passage")
        constraints = [
            models.CheckConstraint(
                condition=(Q(position__isnull=False) & Q(meeting__isnull=True))
                | (Q(position__isnull=True) & Q(meeting__isnull=False)),
                name="source_passage_supports_one_record",
                violation_error_message=_("A passage supports either a position or a meeting."),
            ),
            models.CheckConstraint(condition=~Q(passage=""), name="source_passage_not_empty"),
            length_constraint("sourcepassage", "passage", bounds.PASSAGE_LENGTH),
        ]

    def __str__(self):
        return f"{self.source.outlet}: “{self.passage[:60]}”"


class Condition(models.Model):
    """One condition a position states: a check on one term of an offer, or words that no terms can be held against.

    The check is a term path (``negotiations.terms.term_paths``, or ``treatments.own`` for the position's own
    jurisdiction), an operator and a value; ``negotiations.acceptance`` holds offers against it.
    """

    class Kind(models.TextChoices):
        CHECK = "check", _("a check on a term")
        WORDS = "words", _("in words only (cannot be checked)")

    class Operator(models.TextChoices):
        EQ = "eq", _("is (=)")
        NE = "ne", _("is not (≠)")
        LE = "le", _("at most (≤)")
        GE = "ge", _("at least (≥)")
        LT = "lt", _("less than (<)")
        GT = "gt", _("more than (>)")
        IN = "in", _("one of")

    position = models.ForeignKey(Position, on_delete=models.CASCADE, related_name="checks", verbose_name=_("position"))
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    kind = models.CharField(_("kind"), max_length=5, choices=Kind.choices, default=Kind.CHECK)
    term = models.CharField(_("term"), max_length=60, blank=True, help_text=_("A term path such as sources.federal.LMA."))
    operator = models.CharField(_("operator"), max_length=2, choices=Operator.choices, blank=True)
    value = models.CharField(_("value"), max_length=200, blank=True,
                             help_text=_("An amount such as 0, a value such as province, or for “one of” a list separated by commas."))
    text = models.CharField(_("in words"), max_length=300)
    statement = models.ForeignKey(
        Statement, on_delete=models.SET_NULL, null=True, blank=True, related_name="conditions_stated",
        verbose_name=_("stated in"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("condition")
        verbose_name_plural = _("conditions")
        ordering = ["position", "order", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="words", term="", operator="") | (Q(kind="check") & ~Q(term="") & ~Q(operator="")),
                name="condition_check_has_term_and_operator",
                violation_error_message=_("A check names a term and an operator; a condition in words names neither."),
            ),
        ]

    def __str__(self):
        if self.kind == self.Kind.WORDS:
            return self.text
        return f"{self.term} {self.operator} {self.value}"

    def clean(self):
        if self.kind == self.Kind.WORDS:
            self.term, self.operator, self.value = "", "", ""
            return
        codes = Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL).values_list("code", flat=True)
        problems = condition_problems(term=self.term, operator=self.operator, value=self.value, pt_codes=codes)
        if problems:
            raise ValidationError(problems)


class RecordVersion(models.Model):
    """One row whose value moves forward after every committed change to the record.

    The read pages cache what they render under this value (negotiations.record_cache), so a change
    made by any process is seen by every process's next request.
    """

    value = models.BigIntegerField(_("version"), default=0)

    class Meta:
        verbose_name_plural = _("record versions")
        verbose_name = _("record version")
        constraints = [models.CheckConstraint(condition=Q(id=1), name="record_version_single_row")]

    def __str__(self):
        return str(self.value)


class KeyDate(models.Model):
    """A date in a negotiation that is not a meeting: a deadline or a milestone, with its source."""

    class Kind(models.TextChoices):
        DEADLINE = "deadline", _("deadline")
        MILESTONE = "milestone", _("milestone")

    negotiation = models.ForeignKey(
        Negotiation, on_delete=models.PROTECT, related_name="key_dates", verbose_name=_("negotiation")
    )
    slug = models.SlugField(_("slug"), max_length=150, unique=True)
    date = models.DateField(_("date"), validators=[validate_record_date])
    date_precision = dated_precision_field()
    time = models.TimeField(
        _("time"), null=True, blank=True, help_text=_("Local time, when one is known (Ottawa time).")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    title = models.CharField(_("title"), max_length=250)
    note = bounded_text(_("note"), bounds.NOTES_LENGTH, blank=True)
    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="key_dates", verbose_name=_("source"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["date", "title"]
        verbose_name = _("key date")
        verbose_name_plural = _("key dates")
        indexes = [models.Index(fields=["negotiation", "date"])]
        constraints = [
            *translated_length_constraints("keydate", "note", bounds.NOTES_LENGTH),
            date_range_constraint("keydate", "date"),
        ]

    def __str__(self):
        return f"{_day(self.date, self.date_precision)} · {self.title}"
class ArticleImport(models.Model):
    """A news article taken in for review (issue 19): its repaired text and the source it proposes.

    Nothing reaches the record until the review is committed (negotiations.services.imports).
    """

    class Status(models.TextChoices):
        REVIEWING = "reviewing", _("being reviewed")
        COMMITTED = "committed", _("committed")

    negotiation = models.ForeignKey(Negotiation, on_delete=models.PROTECT, related_name="imports",
                                    verbose_name=_("negotiation"))
    text = bounded_text(_("repaired text"), bounds.ARTICLE_TEXT_LENGTH)
    text_hash = models.CharField(_("text hash"), max_length=64, unique=True)
    encoding = models.CharField(_("encoding found"), max_length=40, blank=True)
    repairs = models.CharField(_("repairs made"), max_length=300, blank=True)
    warnings = models.JSONField(_("warnings"), default=list, blank=True)
    filename = models.CharField(_("file"), max_length=255, blank=True)
    outlet = models.CharField(_("outlet"), max_length=150, blank=True)
    title = models.CharField(_("title"), max_length=300, blank=True)
    author = models.CharField(_("author"), max_length=150, blank=True)
    dateline = models.CharField(_("dateline"), max_length=100, blank=True)
    published_on = models.DateField(_("published on"), null=True, blank=True, validators=[validate_record_date])
    date_precision = dated_precision_field()
    url = models.URLField(_("address"), max_length=500, blank=True)
    source = models.ForeignKey(Source, on_delete=models.PROTECT, null=True, blank=True, related_name="imports",
                               verbose_name=_("source"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.REVIEWING)
    created_by = models.ForeignKey("auth.User", on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("imported by"))
    created_at = models.DateTimeField(_("imported at"), auto_now_add=True)
    committed_at = models.DateTimeField(_("committed at"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = _("article imports")
        ordering = ["-created_at"]
        verbose_name = _("article import")
        constraints = [
            length_constraint("articleimport", "text", bounds.ARTICLE_TEXT_LENGTH),
            date_range_constraint("articleimport", "published_on", nullable=True),
        ]

    def __str__(self):
        what = self.title or self.filename or _("untitled article")
        return f"{self.outlet}: {what}" if self.outlet else str(what)

    def get_absolute_url(self):
        return reverse("negotiations:import_review", args=[self.pk])


class ProposedStatement(models.Model):
    """One quote an import proposes, and the editor's decision on it."""

    class Decision(models.TextChoices):
        PENDING = "pending", _("to review")
        ACCEPTED = "accepted", _("accepted")
        EDITED = "edited", _("accepted as edited")
        REJECTED = "rejected", _("rejected")

    article_import = models.ForeignKey(ArticleImport, on_delete=models.CASCADE, related_name="proposals",
                                       verbose_name=_("import"))
    order = models.PositiveIntegerField(_("order"))
    quote = bounded_text(_("quote"), bounds.QUOTE_LENGTH)
    fragment = models.BooleanField(_("partial quote"), default=False)
    speaker = models.ForeignKey(Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                verbose_name=_("speaker"))
    speaker_name = models.CharField(_("new speaker's name"), max_length=150, blank=True)
    speaker_role = models.CharField(_("new speaker's role"), max_length=250, blank=True)
    speaker_organization = models.CharField(_("new speaker's organisation"), max_length=200, blank=True)
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="+", verbose_name=_("on behalf of"))
    date = models.DateField(_("date"), null=True, blank=True, validators=[validate_record_date])
    date_precision = dated_precision_field()
    date_basis = models.CharField(_("date read from"), max_length=200, blank=True)
    language = models.CharField(_("language of the quote"), max_length=2, choices=Language.choices, default="en")
    original_language = models.CharField(
        _("language spoken"), max_length=2, choices=ORIGINAL_LANGUAGE_CHOICES, blank=True)
    context = models.CharField(_("context"), max_length=300, blank=True)
    quote_start = models.PositiveIntegerField(_("start of the quote"), default=0)
    quote_end = models.PositiveIntegerField(_("end of the quote"), default=0)
    passage_start = models.PositiveIntegerField(_("start of the passage"), default=0)
    passage_end = models.PositiveIntegerField(_("end of the passage"), default=0)
    decision = models.CharField(_("decision"), max_length=10, choices=Decision.choices, default=Decision.PENDING)
    statement = models.ForeignKey(Statement, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                  verbose_name=_("recorded as"))
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = _("proposed statements")
        ordering = ["article_import", "order"]
        verbose_name = _("proposed statement")
        constraints = [
            models.UniqueConstraint(fields=["article_import", "order"], name="proposal_once_per_place"),
            length_constraint("proposedstatement", "quote", bounds.QUOTE_LENGTH),
            date_range_constraint("proposedstatement", "date", nullable=True),
        ]

    def __str__(self):
        return self.quote[:60]
