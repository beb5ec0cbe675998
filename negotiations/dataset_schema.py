"""The shape of a seed data set file (``data/canada_job_grant.json`` and its French ``.fr.json``), in pydantic.

Each record is a model that refuses keys it does not know, so a misspelt field is an error rather
than a text silently left out. The types say what the loader used to check by hand: texts (``None``
reads as empty, surrounding spaces are dropped), dates written ``YYYY-MM-DD`` within the record's
range (``bounds``), money and fractions written as strings (``"5000.00"``) so that no binary rounding
sneaks in, and the term vocabulary of ``negotiations.terms``. Rules between values and records (the
split adds up, a reference exists, a key is used once, a basis follows the term rules) stay in
``negotiations.loading``; the model fields' own checks stay in ``full_clean``.

Error messages are written for people as the loader shows them (``offer 'budget-2013', terms.max_grant:
must be …``): the custom ones here, pydantic's standard ones reworded by ``loading._message``.
"""

import datetime
import functools
import re
from decimal import Decimal
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Strict, StrictInt, create_model, model_validator
from pydantic_core import PydanticCustomError

from negotiations import bounds
from negotiations import models as m
from negotiations.terms import CHOICE, TERM_FIELDS, GovernmentPayer, Program, TermField, Treatment

PT_CODES = ("NL", "PE", "NS", "NB", "QC", "ON", "MB", "SK", "AB", "BC", "YT", "NT", "NU")
_FISCAL_YEAR = re.compile(r"([0-9]{4})-([0-9]{2})")


def _problem(kind: str, message: str, value: Any = None) -> PydanticCustomError:
    return PydanticCustomError(kind, message, {"got": _shown(value)})


def _shown(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _none_is_empty(value: Any) -> Any:
    return "" if value is None else value


def _empty_is_none(value: Any) -> Any:
    return None if value == "" else value


def _required(value: str) -> str:
    if not value:
        raise _problem("required", "is required")
    return value


def text_or(default: str):
    """A text that reads as ``default`` when it is empty or left out (a field of this type defaults to "")."""
    default = getattr(default, "value", default)  # a member of a TextChoices: its stored value
    return Annotated[Text, AfterValidator(lambda value: value or default)]


def _money(value: Any) -> Any:
    if not isinstance(value, str):
        raise _problem("money_type", 'must be a number written as a string, such as "5000.00" (got {got})', value)
    return value.strip()


def _fraction(value: Decimal) -> Decimal:
    if not Decimal(0) <= value <= Decimal(1):
        raise _problem("fraction", "must be between 0 and 1 (got {got})", str(value))
    return value


def _date(value: Any) -> datetime.date:
    if value in (None, ""):
        raise _problem("required", "is required (YYYY-MM-DD)")
    try:
        date = datetime.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise _problem("date", "must be a date written YYYY-MM-DD (got {got})", value) from None
    if not bounds.date_in_range(date):
        raise PydanticCustomError("date_range", "must be between {earliest} and {latest} (got {got})", {
            "earliest": str(bounds.EARLIEST_DATE), "latest": str(bounds.LATEST_DATE), "got": _shown(value)})
    return date


def _time(value: Any) -> datetime.time:
    try:
        return datetime.time.fromisoformat(value)
    except (TypeError, ValueError):
        raise _problem("time", "must be a time written like 15:00 (got {got})", value) from None


def _fiscal_year(value: str) -> str:
    """``2014-15``: a year, a dash and the next year's last two digits."""
    match = _FISCAL_YEAR.fullmatch(value)
    if not match or int(match[2]) != (int(match[1]) + 1) % 100:
        raise _problem("fiscal_year", "must be a fiscal year written like 2014-15 (got {got})", value)
    return value


def _pt_code(value: str) -> str:
    if value not in PT_CODES:
        raise _problem("pt_code", "is not the code of a province or territory")
    return value


def _not_participates(value: Treatment) -> Treatment:
    if value == Treatment.PARTICIPATES:
        raise _problem("treatment", "list only P/Ts that do not simply participate")
    return value


Text = Annotated[str, BeforeValidator(_none_is_empty), Strict(), AfterValidator(str.strip)]
RequiredText = Annotated[Text, AfterValidator(_required)]
OptionalText = Annotated[Text, AfterValidator(lambda value: value or None)]  # a key that may be left out
Keys = list[Annotated[str, Strict()]]  # the natural keys of other records
Money = Annotated[Decimal, BeforeValidator(_money)]
Fraction = Annotated[Money, AfterValidator(_fraction)]
Day = Annotated[datetime.date, BeforeValidator(_date)]
OptionalDay = Annotated[Day | None, BeforeValidator(_empty_is_none)]
OptionalTime = Annotated[Annotated[datetime.time, BeforeValidator(_time)] | None, BeforeValidator(_empty_is_none)]
Precision = text_or(m.DatePrecision.DAY)


class Record(BaseModel):
    """A record of the data set: every key it may have is a field; any other key is refused.

    Choices read as their plain stored values (``"LMA"``), as the models store them.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=True, validate_default=True)


# --- the sections ---------------------------------------------------------------------------------


class Jurisdiction(Record):
    code: RequiredText
    name_en: RequiredText
    name_fr: RequiredText
    kind: RequiredText
    order: StrictInt
    population: StrictInt
    population_date: Day
    population_source: RequiredText
    population_confidence: text_or(m.Confidence.HIGH) = ""


class Role(Record):
    title: RequiredText
    jurisdiction: OptionalText = None
    organization: Text = ""
    start: OptionalDay = None
    start_precision: Precision = ""
    end: OptionalDay = None
    end_precision: Precision = ""


class Person(Record):
    slug: RequiredText
    name: RequiredText
    notes: Text = ""
    roles: list[Role] = []


class Negotiation(Record):
    slug: RequiredText
    title: RequiredText
    summary: Text = ""
    started_on: OptionalDay = None
    started_precision: Precision = ""


class Source(Record):
    # No `text`: a user may import an article's text and keep it through --update.
    slug: RequiredText
    kind: text_or(m.Source.Kind.NEWS) = ""
    outlet: RequiredText
    title: RequiredText
    author: Text = ""
    published_on: Day
    date_precision: Precision = ""
    language: text_or(m.Language.ENGLISH) = ""
    url: Text = ""
    archive_url: Text = ""
    summary: Text = ""


class Passage(Record):
    """The words of a source that support the record they are listed under."""

    source: RequiredText
    passage: RequiredText


class Meeting(Record):
    slug: RequiredText
    title: RequiredText
    date: Day
    date_precision: Precision = ""
    kind: RequiredText
    location: Text = ""
    outcome: Text = ""
    participants: Keys = []
    jurisdictions: Keys = []
    sources: Keys = []
    passages: list[Passage] = []


class Statement(Record):
    ref: RequiredText
    speaker: RequiredText
    jurisdiction: OptionalText = None
    date: Day
    date_precision: Precision = ""
    language: text_or(m.Language.ENGLISH) = ""
    original_language: Text = ""
    quote: RequiredText
    context: Text = ""
    source: RequiredText
    meeting: OptionalText = None


class Split(Record):
    federal: Money
    provincial: Money
    employer: Money


class Scale(Record):
    program: Program
    amount: Money


class PhaseInStep(Record):
    fiscal_year: Annotated[RequiredText, AfterValidator(_fiscal_year)]
    fraction: Fraction


class _GroupedTerms(Record):
    """An offer's terms as the API groups them: the split, the scale, and the rows."""

    split: Split
    sources: dict[GovernmentPayer, dict[Program, Money]] = {}
    scale: Scale
    treatments: dict[Annotated[str, AfterValidator(_pt_code)], Annotated[Treatment, AfterValidator(_not_participates)]] = {}
    phase_in: list[PhaseInStep] = []
    assumptions: Text = ""


def _one_value(term: TermField) -> tuple[Any, Any]:
    """The type and default of a one-value term the file keeps under its own name in ``terms``."""
    if term.kind == CHOICE:
        if term.blank == "":
            return Annotated[term.choices | None, BeforeValidator(_empty_is_none)], None
        return term.choices, ... if term.required else term.blank
    return (Money, ...) if term.required else (Money | None, None)


# The other one-value terms (max_grant, employer_min_share, ...) sit in "terms" under their names:
# their keys and types follow negotiations.terms.TERM_FIELDS, so a new term needs no line here.
Terms = create_model(
    "Terms", __base__=_GroupedTerms,
    **{term.name: _one_value(term) for term in TERM_FIELDS if term.path == term.name},
)


class Basis(Record):
    """What one term (or group of terms) rests on; ``negotiations.terms.check_basis`` says what each status needs."""

    status: m.TermBasis.Status
    source: OptionalText = None
    passage: Text = ""
    note: Text = ""


class Offer(Record):
    slug: RequiredText
    title: RequiredText
    tabled_on: Day
    date_precision: Precision = ""
    agreed_on: OptionalDay = None
    responds_to: OptionalText = None
    meeting: OptionalText = None
    status: text_or(m.Offer.Status.TABLED) = ""
    summary: Text = ""
    tabled_by: Keys = []
    sources: Keys = []
    terms: Terms
    basis: dict[str, Basis] = {}  # by term path or group of terms


class Check(Record):
    """A condition of a position: a term, an operator and a value, or words only."""

    term: Text = ""
    operator: Text = ""
    value: Text = ""
    text: RequiredText
    statement: OptionalText = None


class Position(Record):
    """One position, or the same one for several jurisdictions (``jurisdictions``)."""

    jurisdiction: Text = ""
    jurisdictions: Keys | None = None
    as_of: Day
    date_precision: Precision = ""
    stance: RequiredText
    summary: RequiredText
    conditions: Text = ""
    triggered_by_offer: OptionalText = None
    triggered_by_meeting: OptionalText = None
    evidence: Keys = []
    sources: Keys = []
    passages: list[Passage] = []
    checks: list[Check] = []

    @model_validator(mode="after")
    def _names_its_jurisdictions(self) -> "Position":
        if self.jurisdictions is None and not self.jurisdiction:
            raise _problem("required", "needs a jurisdiction (a code) or jurisdictions (a list of codes)")
        return self

    @property
    def codes(self) -> list[str]:
        return self.jurisdictions if self.jurisdictions is not None else [self.jurisdiction]


class KeyDate(Record):
    slug: RequiredText
    date: Day
    date_precision: Precision = ""
    time: OptionalTime = None
    kind: RequiredText
    title: RequiredText
    note: Text = ""
    source: RequiredText


# --- the French companion -------------------------------------------------------------------------


class FrenchRecord(BaseModel):
    """One record's French texts, by the English field's name (``title``…); the loader uses the translated ones."""

    model_config = ConfigDict(extra="allow", frozen=True)
    __pydantic_extra__: dict[str, Text]

    roles: dict[str, dict[str, Text]] = {}  # a person's roles, by their English title
    basis: dict[str, Text] = {}  # an offer's basis notes, by term path or group
    checks: list[Text] = []  # a position's conditions' words, in order

    @property
    def texts(self) -> dict[str, str]:
        return self.model_extra or {}


class French(BaseModel):
    """The French file: for each section, each record's French texts by its natural key."""

    model_config = ConfigDict(extra="allow", frozen=True)
    __pydantic_extra__: dict[str, dict[str, FrenchRecord]]

    format: StrictInt | None = None
    about: Text = ""


# --- the file -------------------------------------------------------------------------------------


class Dataset(Record):
    """The whole file; the sections other apps load (``loading.AppSection``) are added by ``with_sections``."""

    format: StrictInt | None = None
    about: Text = ""
    jurisdictions: list[Jurisdiction] = []
    people: list[Person] = []
    negotiation: Negotiation
    sources: list[Source] = []
    meetings: list[Meeting] = []
    statements: list[Statement] = []
    offers: list[Offer] = []
    positions: list[Position] = []
    key_dates: list[KeyDate] = []
    french: French = French()


@functools.cache
def with_sections(sections: tuple[tuple[str, type[Record]], ...]) -> type[Dataset]:
    """``Dataset`` with the sections other apps load: ``(name, record model)`` pairs."""
    if not sections:
        return Dataset
    return create_model("Dataset", __base__=Dataset, **{name: (list[schema], []) for name, schema in sections})
