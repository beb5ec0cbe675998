"""Load a seed data set (such as ``data/canada_job_grant.json``) into the record.

One call, one transaction. Records are found again by their natural keys, so loading is
idempotent: what is missing is created, and what exists is left exactly as it is, since the
users' curation wins over the seed. With ``update=True`` the fields the data set provides are
written back over existing records (links are added back, never removed); nothing is ever
deleted.

An offer's terms rows (funding sources, treatments, phase-in steps) belong to the offer: they are
created with it, and for an offer that already exists they are touched only with ``update=True``.
Re-adding one row a user removed would break sums the user made add up.

The record's own text is in English in the data set and in French in a companion file beside it
(``canada_job_grant.fr.json``: for each section, each record's natural key and its French texts; a
position's key is its jurisdiction code, or its codes joined by spaces, then its date). A French
text fills the record's French column (``title_fr``…); without ``update`` it is written only where the
record has no French yet, so a user's French wins as their English does.

Before anything is written every text is repaired (``text_repair``) and every offer's terms are
checked: the split adds up to the maximum grant, each government's sources add up to its amount,
shares are between 0 and 1. A problem raises ``DatasetError`` naming the record and the field, and
nothing is written; so does a reference to a missing record or a record that fails ``full_clean``.
"""

import datetime
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction
from django.utils import translation
from django.utils.translation import gettext_noop
from modeltranslation.translator import NotRegistered, translator

from negotiations import bounds
from negotiations import models as m
from negotiations.terms import (
    FUNDING_SOURCES,
    RULED_FIELDS,
    SCALAR_FIELDS,
    OfferTerms,
    TermBasisEntry,
    check_basis,
    check_terms,
    expand_basis_keys,
)
from negotiations.text_repair import repair_text

__all__ = [
    "DEFAULT_DATASET", "AppSection", "DatasetError", "LoadReport", "ModelCounts", "load_dataset", "read_dataset",
    "register_section",
]

DEFAULT_DATASET = Path(__file__).resolve().parent / "data" / "canada_job_grant.json"
CHANGE_REASON = gettext_noop("loaded from a seed data set")  # stored in English, shown translated

PT_CODES = ("NL", "PE", "NS", "NB", "QC", "ON", "MB", "SK", "AB", "BC", "YT", "NT", "NU")
_FISCAL_YEAR = re.compile(r"^[0-9]{4}-[0-9]{2}$")
_PAYERS = tuple(m.GovernmentPayer.values)

# Where check_terms' field names live in the data set.
_TERMS_FIELDS = {
    "max_grant": "terms.max_grant",
    "federal_amount": "terms.split.federal",
    "provincial_amount": "terms.split.provincial",
    "employer_amount": "terms.split.employer",
    "employer_min_share": "terms.employer_min_share",
    "scale_amount": "terms.scale.amount",
    FUNDING_SOURCES: "terms.sources",
}


class DatasetError(Exception):
    """The data set cannot be loaded; ``record`` and ``field`` say where the problem is."""

    def __init__(self, record: str, field: str, message: str):
        self.record = record
        self.field = field
        self.message = message
        super().__init__(f"{record}, {field}: {message}")


@dataclass
class ModelCounts:
    """What loading did to the records of one model."""

    created: int = 0
    unchanged: int = 0
    updated: int = 0
    # Terms rows of an existing offer that a user removed: left removed (see the module docstring).
    skipped: int = 0


@dataclass
class LoadReport:
    """Counts per model name, in loading order, plus warnings about existing records."""

    counts: dict[str, ModelCounts] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def of(self, model_name: str) -> ModelCounts:
        return self.counts.setdefault(model_name, ModelCounts())

    @property
    def created(self) -> int:
        return sum(counts.created for counts in self.counts.values())

    @property
    def unchanged(self) -> int:
        return sum(counts.unchanged for counts in self.counts.values())

    @property
    def updated(self) -> int:
        return sum(counts.updated for counts in self.counts.values())

    def lines(self) -> list[str]:
        """One line per model and a total, for people."""
        lines = []
        for name, counts in self.counts.items():
            line = f"{name}: {counts.created} created, {counts.unchanged} unchanged, {counts.updated} updated"
            if counts.skipped:
                line += f", {counts.skipped} left out (removed by a user)"
            lines.append(line)
        lines.append(f"Total: {self.created} created, {self.unchanged} unchanged, {self.updated} updated")
        lines.extend(f"Warning: {warning}" for warning in self.warnings)
        return lines


@dataclass(frozen=True)
class AppSection:
    """A section of the data set that another app loads, such as grants' ``programs``.

    ``key`` is its records' natural key and ``noun`` what they are called in messages; ``load``
    is called with the loader and each raw record, after the jurisdictions and before the people.
    It reads the record with ``loader.record()`` and writes it with ``loader.seed()``, so it gets
    the same messages, French texts, idempotence and ``update`` as the sections loaded here.
    """

    name: str
    key: str
    noun: str
    load: Callable[["_Loader", Any], None]


# Filled by the apps' AppConfig.ready(): `negotiations` never imports the apps that depend on it.
_APP_SECTIONS: dict[str, AppSection] = {}


def register_section(section: AppSection) -> None:
    """Have ``section`` loaded with the data set (call it from the app's ``AppConfig.ready()``)."""
    _APP_SECTIONS[section.name] = section


def french_path(path: Path | str) -> Path:
    """Where a data set's French texts are: ``name.fr.json`` beside ``name.json``."""
    path = Path(path)
    return path.with_name(f"{path.stem}.fr.json")


def read_dataset(path: Path | str) -> dict:
    """Read a data set file and its French companion (under the key "french") when there is one."""
    data = _read_json(path)
    french = french_path(path)
    if french.exists():
        data["french"] = _read_json(french)
    return data


def _read_json(path: Path | str) -> dict:
    """Read one JSON file; a missing or malformed file raises DatasetError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DatasetError(str(path), "(file)", f"cannot be read: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DatasetError(str(path), "(file)", f"is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise DatasetError(str(path), "(file)", "must hold one JSON object with the data set's sections")
    return data


def load_dataset(data: dict, *, update: bool = False) -> LoadReport:
    """Load ``data`` (a parsed data set) in one transaction and report what was created, kept or updated.

    Raises DatasetError, with nothing written, when the data set is invalid.
    """
    if not isinstance(data, dict):
        raise DatasetError("data set", "(root)", "must be an object with the data set's sections")
    data = _repaired(data)
    _check_keys_are_unique(data)
    offers = [_parse_offer(raw, index) for index, raw in enumerate(_section(data, "offers"))]
    french = data.get("french", {})
    if not isinstance(french, dict) or not all(isinstance(value, dict) for value in french.values()
                                                   if not isinstance(value, (int, str))):
        raise DatasetError("French texts", "(file)", "must map each section to records by their keys")
    loader = _Loader(update=update, french=french)
    # In English, so that a translated field's plain name (title) is its English column (title_en).
    with translation.override("en"), transaction.atomic():
        loader.load(data, offers)
    return loader.report


# --- reading and checking the data set ---------------------------------------------------------


def _repaired(value: Any) -> Any:
    """The same structure with every string passed through ``repair_text``."""
    if isinstance(value, str):
        return repair_text(value)
    if isinstance(value, list):
        return [_repaired(item) for item in value]
    if isinstance(value, dict):
        return {key: _repaired(item) for key, item in value.items()}
    return value


def _section(data: dict, name: str) -> list:
    value = data.get(name, [])
    if not isinstance(value, list):
        raise DatasetError("data set", name, "must be a list")
    return value


# Each section's natural key, and what its records are called in messages (and _APP_SECTIONS').
_KEYS = {
    "jurisdictions": ("code", "jurisdiction"),
    "people": ("slug", "person"),
    "sources": ("slug", "source"),
    "meetings": ("slug", "meeting"),
    "statements": ("ref", "statement"),
    "offers": ("slug", "offer"),
    "key_dates": ("slug", "key date"),
}


def _check_keys_are_unique(data: dict) -> None:
    """Two records with one key would silently become one; refuse that before writing."""
    keys = {**_KEYS, **{section.name: (section.key, section.noun) for section in _APP_SECTIONS.values()}}
    for section, (key, noun) in keys.items():
        seen = set()
        for raw in _section(data, section):
            value = raw.get(key) if isinstance(raw, dict) else None
            if not isinstance(value, str):
                continue  # reported with the record itself
            if value in seen:
                raise DatasetError(f"{noun} {value!r}", key, "appears more than once in the data set")
            seen.add(value)


class _Record:
    """One record of the data set, read field by field with errors that name it."""

    def __init__(self, raw: Any, name: str, prefix: str = ""):
        if not isinstance(raw, dict):
            raise DatasetError(name, prefix.rstrip(".") or "(record)", "must be an object")
        self.raw = raw
        self.name = name
        self.prefix = prefix

    def error(self, key: str, message: str) -> DatasetError:
        return DatasetError(self.name, self.prefix + key, message)

    def sub(self, key: str) -> "_Record":
        return _Record(self.raw.get(key, {}), self.name, f"{self.prefix}{key}.")

    def text(self, key: str, *, required: bool = False) -> str:
        value = self.raw.get(key)
        if value is None:
            value = ""
        if not isinstance(value, str):
            raise self.error(key, "must be text")
        value = value.strip()
        if required and not value:
            raise self.error(key, "is required")
        return value

    def optional_text(self, key: str) -> str | None:
        return self.text(key) or None

    def integer(self, key: str) -> int:
        value = self.raw.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, "must be a whole number")
        return value

    def date(self, key: str, *, required: bool = True) -> datetime.date | None:
        value = self.raw.get(key)
        if value in (None, ""):
            if required:
                raise self.error(key, "is required (YYYY-MM-DD)")
            return None
        try:
            date = datetime.date.fromisoformat(value)
        except (TypeError, ValueError):
            raise self.error(key, f"must be a date written YYYY-MM-DD (got {value!r})") from None
        if not bounds.date_in_range(date):
            raise self.error(key, f"must be between {bounds.EARLIEST_DATE} and {bounds.LATEST_DATE} (got {value!r})")
        return date

    def decimal(self, key: str, *, nullable: bool = False) -> Decimal | None:
        """Money and fractions are strings, so no binary rounding sneaks in."""
        value = self.raw.get(key)
        if value is None and nullable:
            return None
        if not isinstance(value, str):
            raise self.error(key, f"must be a number written as a string, such as \"5000.00\" (got {value!r})")
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            raise self.error(key, f"is not a number (got {value!r})") from None
        if not number.is_finite():
            raise self.error(key, f"must be a finite number (got {value!r})")
        return number

    def choice(self, key: str, choices: Iterable[str], *, default: str | None = None) -> str:
        value = self.raw.get(key, default)
        choices = tuple(choices)
        if value not in choices:
            raise self.error(key, f"must be one of {', '.join(repr(c) for c in choices)} (got {value!r})")
        return value

    def keys(self, key: str) -> list[str]:
        value = self.raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.error(key, "must be a list of keys (text)")
        return value


def _parse_offer(raw: Any, index: int) -> tuple[dict, OfferTerms, tuple[TermBasisEntry, ...]]:
    """Check one offer's terms before anything is written; return the raw offer, its terms and their basis."""
    slug = raw.get("slug") if isinstance(raw, dict) else None
    name = f"offer {slug!r}" if isinstance(slug, str) and slug else f"offer #{index + 1}"
    record = _Record(raw, name)
    record.text("slug", required=True)
    terms = record.sub("terms")
    split = terms.sub("split")
    scale = terms.sub("scale")
    max_grant = terms.decimal("max_grant")
    federal, provincial, employer = split.decimal("federal"), split.decimal("provincial"), split.decimal("employer")
    if federal + provincial + employer != max_grant:
        raise terms.error(
            "split",
            f"federal {federal} + provincial {provincial} + employer {employer} = "
            f"{federal + provincial + employer}, but max_grant is {max_grant}",
        )

    sources_record = terms.sub("sources")
    sources = []
    for payer in sources_record.raw:
        if payer not in _PAYERS:
            raise sources_record.error(payer, f"is not a government payer; use {' or '.join(_PAYERS)}")
        by_program = sources_record.sub(payer)
        for program in by_program.raw:
            if program not in m.Program.values:
                raise by_program.error(program, f"is not a program; use one of {', '.join(m.Program.values)}")
            sources.append((payer, program, by_program.decimal(program)))

    scale_program = scale.choice("program", m.Program.values)
    scale_amount = scale.decimal("amount")
    share = terms.decimal("employer_min_share", nullable=True)
    gap_payer = terms.choice("small_employer_gap_payer", ("", *_PAYERS), default="")
    liability = terms.choice("shortfall_liability", m.Liability.values, default=m.Liability.NONE)

    treatments_record = terms.sub("treatments")
    treatments = []
    for code in treatments_record.raw:
        if code not in PT_CODES:
            raise treatments_record.error(code, "is not the code of a province or territory")
        treatment = treatments_record.choice(code, m.Treatment.values)
        if treatment == m.Treatment.PARTICIPATES:
            raise treatments_record.error(code, "list only P/Ts that do not simply participate")
        treatments.append((code, treatment))

    phase_in_raw = terms.raw.get("phase_in", [])
    if not isinstance(phase_in_raw, list):
        raise terms.error("phase_in", "must be a list of {fiscal_year, fraction}")
    phase_in = []
    for position, step_raw in enumerate(phase_in_raw):
        step = _Record(step_raw, name, f"terms.phase_in[{position}].")
        year = step.text("fiscal_year", required=True)
        if not _FISCAL_YEAR.match(year) or int(year[5:]) != (int(year[:4]) + 1) % 100:
            raise step.error("fiscal_year", f"must be a fiscal year written like 2014-15 (got {year!r})")
        if year in {listed for listed, _ in phase_in}:
            raise step.error("fiscal_year", f"{year} is listed more than once")
        fraction = step.decimal("fraction")
        if not Decimal(0) <= fraction <= Decimal(1):
            raise step.error("fraction", f"must be between 0 and 1 (got {fraction})")
        phase_in.append((year, fraction))

    offer_terms = OfferTerms(
        max_grant=max_grant, federal_amount=federal, provincial_amount=provincial, employer_amount=employer,
        sources=tuple(sources), scale_program=scale_program, scale_amount=scale_amount, employer_min_share=share,
        small_employer_gap_payer=gap_payer, shortfall_liability=liability, treatments=tuple(treatments),
        phase_in=tuple(phase_in), assumptions=terms.text("assumptions"),
    )
    problems = offer_terms.problems()
    if problems:
        first = problems[0]
        raise DatasetError(name, _TERMS_FIELDS.get(first.field, f"terms.{first.field}"), first.message)
    return raw, offer_terms, _parse_basis(record)


def _parse_basis(record: _Record) -> tuple[TermBasisEntry, ...]:
    """An offer's ``basis``: ``{term path or group: {status, source, passage, note}}``, checked by the term rules.

    A group key (``treatments``, ``sources.federal``) gives every term under it the same basis;
    a term named on its own wins over its group.
    """
    basis = record.sub("basis")
    keyed = {}
    for key in basis.raw:
        entry = basis.sub(key)
        keyed[key] = (entry.choice("status", m.TermBasis.Status.values), entry.optional_text("source"),
                      entry.text("passage"), entry.text("note"))
    try:
        expanded = expand_basis_keys(keyed, PT_CODES)
    except KeyError as error:
        raise basis.error(error.args[0], "is neither a term path nor a group of terms") from None
    entries = tuple(
        TermBasisEntry(term=term, status=status, source=source, passage=passage, note=note)
        for term, (status, source, passage, note) in expanded.items()
    )
    for problem in check_basis(entries, PT_CODES):
        raise record.error(problem.field, problem.message)
    return entries


# --- writing -------------------------------------------------------------------------------------


class _Loader:
    def __init__(self, *, update: bool, french: dict | None = None):
        self.update = update
        self.french = french or {}
        self.report = LoadReport()
        self.jurisdictions: dict[str, m.Jurisdiction] = {}
        self.people: dict[str, m.Person] = {}
        self.sources: dict[str, m.Source] = {}
        self.meetings: dict[str, m.Meeting] = {}
        self.statements: dict[str, m.Statement] = {}
        self.offers: dict[str, m.Offer] = {}
        self.negotiation: m.Negotiation | None = None

    def load(self, data: dict, offers: list[tuple[dict, OfferTerms, tuple[TermBasisEntry, ...]]]) -> None:
        for raw in _section(data, "jurisdictions"):
            self._jurisdiction(raw)
        for section in _APP_SECTIONS.values():
            for raw in _section(data, section.name):
                section.load(self, raw)
        for raw in _section(data, "people"):
            self._person(raw)
        if "negotiation" not in data:
            raise DatasetError("data set", "negotiation", "is required")
        self._negotiation(data["negotiation"])
        for raw in _section(data, "sources"):
            self._source(raw)
        for raw in _section(data, "meetings"):
            self._meeting(raw)
        for raw in _section(data, "statements"):
            self._statement(raw)
        for raw, terms, basis in offers:
            self._offer(raw, terms, basis)
        for index, raw in enumerate(_section(data, "positions")):
            self._positions(raw, index)
        for raw in _section(data, "key_dates"):
            self._key_date(raw)

    # Sections, in dependency order.

    def _jurisdiction(self, raw: Any) -> None:
        record = _Record(raw, _name("jurisdiction", raw, "code"))
        code = record.text("code", required=True)
        self.jurisdictions[code], _ = self._upsert(m.Jurisdiction, record, {"code": code}, french=self._french(
                "jurisdictions", code), values={
            "name_en": record.text("name_en", required=True),
            "name_fr": record.text("name_fr", required=True),
            "kind": record.text("kind", required=True),
            "order": record.integer("order"),
            "population": record.integer("population"),
            "population_date": record.date("population_date"),
            "population_source": record.text("population_source", required=True),
            "population_confidence": record.text("population_confidence") or m.Confidence.HIGH,
        })

    # For the sections other apps load (AppSection).

    def record(self, raw: Any, section: AppSection) -> _Record:
        """One raw record of ``section``, to read field by field with errors that name it."""
        return _Record(raw, _name(section.noun, raw, section.key))

    def seed(self, model: type[models.Model], record: _Record, section: AppSection, key: str,
             values: dict[str, Any]) -> models.Model:
        """Create, keep or (update) restore the ``model`` record whose natural key is ``key``, with its French texts."""
        obj, _ = self._upsert(model, record, {section.key: key}, french=self._french(section.name, key), values=values)
        return obj

    def _person(self, raw: Any) -> None:
        record = _Record(raw, _name("person", raw, "slug"))
        slug = record.text("slug", required=True)
        person, _ = self._upsert(m.Person, record, {"slug": slug}, french=self._french("people", slug), values={
            "name": record.text("name", required=True),
            "notes": record.text("notes"),
        })
        self.people[slug] = person
        roles = record.raw.get("roles", [])
        if not isinstance(roles, list):
            raise record.error("roles", "must be a list")
        french_roles = self._french("people", slug).get("roles", {})
        for position, role_raw in enumerate(roles):
            role = _Record(role_raw, record.name, f"roles[{position}].")
            role_french = french_roles.get(role.text("title"), {}) if isinstance(french_roles, dict) else {}
            code = role.optional_text("jurisdiction")
            self._upsert(m.Role, role, {
                "person": person,
                "title": role.text("title", required=True),
                "jurisdiction": self._jurisdiction_ref(role, "jurisdiction", code) if code else None,
                "organization": role.text("organization"),
            }, french=role_french, values={
                "start": role.date("start", required=False),
                "start_precision": role.text("start_precision") or m.DatePrecision.DAY,
                "end": role.date("end", required=False),
                "end_precision": role.text("end_precision") or m.DatePrecision.DAY,
            })

    def _negotiation(self, raw: Any) -> None:
        record = _Record(raw, _name("negotiation", raw, "slug"))
        slug = record.text("slug", required=True)
        self.negotiation, _ = self._upsert(m.Negotiation, record, {"slug": slug}, french=self._french(
            "negotiation", slug), values={
            "title": record.text("title", required=True),
            "summary": record.text("summary"),
            "started_on": record.date("started_on", required=False),
            "started_precision": record.text("started_precision") or m.DatePrecision.DAY,
        })

    def _source(self, raw: Any) -> None:
        record = _Record(raw, _name("source", raw, "slug"))
        slug = record.text("slug", required=True)
        # `text` is not seeded: a user may import an article's text and keep it through --update.
        self.sources[slug], _ = self._upsert(m.Source, record, {"slug": slug}, french=self._french("sources", slug),
                                             values={
            "kind": record.text("kind") or m.Source.Kind.NEWS,
            "outlet": record.text("outlet", required=True),
            "title": record.text("title", required=True),
            "author": record.text("author"),
            "published_on": record.date("published_on"),
            "date_precision": record.text("date_precision") or m.DatePrecision.DAY,
            "language": record.text("language") or m.Language.ENGLISH,
            "url": record.text("url"),
            "archive_url": record.text("archive_url"),
            "summary": record.text("summary"),
        })

    def _meeting(self, raw: Any) -> None:
        record = _Record(raw, _name("meeting", raw, "slug"))
        slug = record.text("slug", required=True)
        self.meetings[slug], _ = self._upsert(m.Meeting, record, {"slug": slug}, french=self._french("meetings", slug),
                                              values={
            "negotiation": self.negotiation,
            "title": record.text("title", required=True),
            "date": record.date("date"),
            "date_precision": record.text("date_precision") or m.DatePrecision.DAY,
            "kind": record.text("kind", required=True),
            "location": record.text("location"),
            "outcome": record.text("outcome"),
        }, links={
            "participants": [self._person_ref(record, "participants", key) for key in record.keys("participants")],
            "jurisdictions": [
                self._jurisdiction_ref(record, "jurisdictions", key) for key in record.keys("jurisdictions")
            ],
            "sources": [self._source_ref(record, "sources", key) for key in record.keys("sources")],
        })
        self._passages(record, meeting=self.meetings[slug])

    def _passages(self, record: _Record, **owner: models.Model) -> None:
        """``passages``: ``[{source, passage}]``, the words of each source that support the record."""
        raw = record.raw.get("passages", [])
        if not isinstance(raw, list):
            raise record.error("passages", "must be a list of {source, passage}")
        for index, item in enumerate(raw):
            entry = _Record(item, record.name, f"passages[{index}].")
            source = self._source_ref(entry, "source", entry.text("source", required=True))
            passage = entry.text("passage", required=True)
            self._upsert(m.SourcePassage, entry, {**owner, "source": source, "passage": passage}, {})

    def _statement(self, raw: Any) -> None:
        record = _Record(raw, _name("statement", raw, "ref"))
        ref = record.text("ref", required=True)
        code = record.optional_text("jurisdiction")
        meeting = record.optional_text("meeting")
        self.statements[ref], _ = self._upsert(m.Statement, record, {"ref": ref}, french=self._french("statements", ref),
                                               values={
            "negotiation": self.negotiation,
            "speaker": self._person_ref(record, "speaker", record.text("speaker", required=True)),
            "jurisdiction": self._jurisdiction_ref(record, "jurisdiction", code) if code else None,
            "date": record.date("date"),
            "date_precision": record.text("date_precision") or m.DatePrecision.DAY,
            "language": record.text("language") or m.Language.ENGLISH,
            "original_language": record.text("original_language"),
            "quote": record.text("quote", required=True),
            "context": record.text("context"),
            "source": self._source_ref(record, "source", record.text("source", required=True)),
            "meeting": self._meeting_ref(record, "meeting", meeting) if meeting else None,
        })

    def _offer(self, raw: dict, terms: OfferTerms, basis: tuple[TermBasisEntry, ...]) -> None:
        record = _Record(raw, f"offer {raw['slug']!r}")
        slug = record.text("slug", required=True)
        responds_to = record.optional_text("responds_to")
        meeting = record.optional_text("meeting")
        offer, outcome = self._upsert(m.Offer, record, {"slug": slug}, french=self._french("offers", slug), values={
            "negotiation": self.negotiation,
            "title": record.text("title", required=True),
            "tabled_on": record.date("tabled_on"),
            "date_precision": record.text("date_precision") or m.DatePrecision.DAY,
            "agreed_on": record.date("agreed_on", required=False),
            "responds_to": self._offer_ref(record, "responds_to", responds_to) if responds_to else None,
            "meeting": self._meeting_ref(record, "meeting", meeting) if meeting else None,
            "status": record.text("status") or m.Offer.Status.TABLED,
            "summary": record.text("summary"),
            **{name: getattr(terms, name) for name in SCALAR_FIELDS},
        }, links={
            "tabled_by": [self._jurisdiction_ref(record, "tabled_by", key) for key in record.keys("tabled_by")],
            "sources": [self._source_ref(record, "sources", key) for key in record.keys("sources")],
        })
        self.offers[slug] = offer
        rows_too = outcome == "created" or self.update
        for payer, program, amount in terms.sources:
            self._term_row(m.FundingSource, record, {"offer": offer, "payer": payer, "program": program},
                           {"amount": amount}, write=rows_too)
        for code, treatment in terms.treatments:
            jurisdiction = self._jurisdiction_ref(record, "terms.treatments", code)
            self._term_row(m.JurisdictionTreatment, record, {"offer": offer, "jurisdiction": jurisdiction},
                           {"treatment": treatment}, write=rows_too)
        for year, fraction in terms.phase_in:
            self._term_row(m.PhaseInStep, record, {"offer": offer, "fiscal_year": year},
                           {"fraction": fraction}, write=rows_too)
        french_notes = self._french_basis(record, slug)
        for entry in basis:
            note_fr = french_notes.get(entry.term)
            self._term_row(m.TermBasis, record, {"offer": offer, "term": entry.term}, {
                "status": entry.status,
                "source": (self._source_ref(record, f"basis.{entry.term}.source", entry.source)
                           if entry.source else None),
                "passage": entry.passage,
                "note": entry.note,
            }, write=rows_too, french={"note": note_fr} if note_fr else None)
        if outcome != "created" and self.update:
            self._warn_if_terms_broken(offer)

    def _positions(self, raw: Any, index: int) -> None:
        record = _Record(raw, f"position #{index + 1}")
        if "jurisdictions" in record.raw:
            codes = record.keys("jurisdictions")
        else:
            codes = [record.text("jurisdiction", required=True)]
        as_of = record.date("as_of")
        offer = record.optional_text("triggered_by_offer")
        meeting = record.optional_text("triggered_by_meeting")
        french = self._french("positions", position_key(codes, as_of))
        for code in codes:
            named = _Record(raw, f"position {code} as of {as_of.isoformat()}")
            position, outcome = self._upsert(m.Position, named, {
                "negotiation": self.negotiation,
                "jurisdiction": self._jurisdiction_ref(named, "jurisdiction", code),
                "as_of": as_of,
            }, french=french, values={
                "date_precision": named.text("date_precision") or m.DatePrecision.DAY,
                "stance": named.text("stance", required=True),
                "summary": named.text("summary", required=True),
                "conditions": named.text("conditions"),
                "triggered_by_offer": self._offer_ref(named, "triggered_by_offer", offer) if offer else None,
                "triggered_by_meeting": self._meeting_ref(named, "triggered_by_meeting", meeting) if meeting else None,
            }, links={
                "evidence": [self._statement_ref(named, "evidence", key) for key in named.keys("evidence")],
                "sources": [self._source_ref(named, "sources", key) for key in named.keys("sources")],
            })
            self._passages(named, position=position)
            self._checks(named, position, write=outcome == "created" or self.update, french=french.get("checks", []))

    def _checks(self, record: _Record, position: m.Position, *, write: bool, french: Any = ()) -> None:
        """The conditions a position states (``checks``): a term, an operator and a value, or words only;
        ``french`` is their words in French, in the same order."""
        raw_checks = record.raw.get("checks", [])
        if not isinstance(raw_checks, list):
            raise record.error("checks", "must be a list")
        if not isinstance(french, list) or len(french) > len(raw_checks):
            raise DatasetError(f"French texts of {record.name}", "checks",
                               f"must be a list of at most {len(raw_checks)} texts, one per condition in order")
        for order, raw in enumerate(raw_checks):
            item = _Record(raw, record.name, f"checks[{order}].")
            statement = item.optional_text("statement")
            term = item.text("term")
            self._term_row(m.Condition, item, {"position": position, "order": order}, {
                "kind": m.Condition.Kind.CHECK if term else m.Condition.Kind.WORDS,
                "term": term,
                "operator": item.text("operator"),
                "value": item.text("value"),
                "text": item.text("text", required=True),
                "statement": self._statement_ref(item, "statement", statement) if statement else None,
            }, write=write, french={"text": french[order]} if order < len(french) else None)

    # Finding and writing records.

    def _key_date(self, raw: Any) -> None:
        record = _Record(raw, _name("key date", raw, "slug"))
        slug = record.text("slug", required=True)
        time = record.optional_text("time")
        try:
            parsed_time = datetime.time.fromisoformat(time) if time else None
        except ValueError:
            raise record.error("time", f"must be a time written like 15:00 (got {time!r})") from None
        self._upsert(m.KeyDate, record, {"slug": slug}, french=self._french("key_dates", slug), values={
            "negotiation": self.negotiation,
            "date": record.date("date"),
            "date_precision": record.text("date_precision") or m.DatePrecision.DAY,
            "time": parsed_time,
            "kind": record.text("kind", required=True),
            "title": record.text("title", required=True),
            "note": record.text("note"),
            "source": self._source_ref(record, "source", record.text("source", required=True)),
        })

    def _french_basis(self, record: _Record, slug: str) -> dict[str, str]:
        """The French notes of an offer's term bases, by term path (groups expanded as the English ones are)."""
        keyed = self._french("offers", slug).get("basis", {})
        if not isinstance(keyed, dict) or not all(isinstance(note, str) for note in keyed.values()):
            raise DatasetError(f"French texts of offer {slug!r}", "basis", "must map term paths or groups to notes")
        try:
            return expand_basis_keys(keyed, PT_CODES)
        except KeyError as error:
            raise DatasetError(f"French texts of offer {slug!r}", f"basis.{error.args[0]}",
                               "is neither a term path nor a group of terms") from None

    def _french(self, section: str, key: str) -> dict:
        """The French texts of one record of the data set (by its natural key); {} when there are none."""
        texts = self.french.get(section, {}).get(key, {})
        if not isinstance(texts, dict):
            raise DatasetError(f"French texts of {section} {key!r}", "(record)", "must be an object")
        return texts

    def _upsert(
        self,
        model: type[models.Model],
        record: _Record,
        lookup: dict[str, Any],
        values: dict[str, Any],
        *,
        french: dict[str, Any] | None = None,
        links: dict[str, list[models.Model]] | None = None,
    ) -> tuple[Any, str]:
        """Find the record by its natural key; create it, keep it, or (update) restore its seeded fields.

        A translated field's text (``title``) is its English (``title_en``); ``french`` gives the French
        (``title_fr``), which fills a record that has none even without ``update``.
        """
        links = links or {}
        lookup, values = _in_languages(model, lookup), _in_languages(model, values, french or {})
        counts = self.report.of(model.__name__)
        obj = model.objects.filter(**lookup).first()
        if obj is None:
            obj = model(**lookup, **values)
            self._save(obj, record)
            for name, targets in links.items():
                if targets:
                    getattr(obj, name).set(targets)
            counts.created += 1
            return obj, "created"
        if not self.update:
            missing = [name for name, value in values.items() if name.endswith("_fr") and value
                       and not getattr(obj, name)]
            for name in missing:
                setattr(obj, name, values[name])
            if missing:
                self._save(obj, record)
                counts.updated += 1
                return obj, "updated"
            counts.unchanged += 1
            return obj, "unchanged"

        changed = [name for name, value in values.items() if not _same(obj, name, value)]
        for name in changed:
            setattr(obj, name, values[name])
        missing_links = {
            name: [target for target in targets if not getattr(obj, name).filter(pk=target.pk).exists()]
            for name, targets in links.items()
        }
        if changed:
            if hasattr(obj, "version"):
                obj.version += 1
            self._save(obj, record)
        for name, targets in missing_links.items():
            if targets:
                getattr(obj, name).add(*targets)
        if changed or any(missing_links.values()):
            counts.updated += 1
            return obj, "updated"
        counts.unchanged += 1
        return obj, "unchanged"

    def _term_row(self, model, record: _Record, lookup: dict, values: dict, *, write: bool,
                  french: dict | None = None) -> None:
        if write:
            self._upsert(model, record, lookup, values, french=french)
            return
        counts = self.report.of(model.__name__)
        if model.objects.filter(**lookup).exists():
            if french and not self.update:  # a row kept as users left it still gets the French it lacks
                self._upsert(model, record, lookup, values, french=french)
                return
            counts.unchanged += 1
        else:
            counts.skipped += 1

    def _save(self, obj: models.Model, record: _Record) -> None:
        try:
            obj.full_clean()
        except ValidationError as error:
            raise _dataset_error(record, error) from None
        obj._change_reason = CHANGE_REASON
        obj.save()

    def _warn_if_terms_broken(self, offer: m.Offer) -> None:
        rows = [(row.payer, row.program, row.amount) for row in offer.funding_sources.all()]
        problems = check_terms(**{name: getattr(offer, name) for name in RULED_FIELDS}, sources=rows)
        for problem in problems:
            self.report.warnings.append(
                f"offer {offer.slug!r} keeps rows a user added, and its terms no longer hold: {problem.message}"
            )

    # References: to a record loaded just before, or already in the database.

    def _jurisdiction_ref(self, record: _Record, key: str, code: str) -> m.Jurisdiction:
        return self._ref(self.jurisdictions, m.Jurisdiction, "code", code, record, key, "jurisdiction")

    def _person_ref(self, record: _Record, key: str, slug: str) -> m.Person:
        return self._ref(self.people, m.Person, "slug", slug, record, key, "person")

    def _source_ref(self, record: _Record, key: str, slug: str) -> m.Source:
        return self._ref(self.sources, m.Source, "slug", slug, record, key, "source")

    def _meeting_ref(self, record: _Record, key: str, slug: str) -> m.Meeting:
        return self._ref(self.meetings, m.Meeting, "slug", slug, record, key, "meeting")

    def _statement_ref(self, record: _Record, key: str, ref: str) -> m.Statement:
        return self._ref(self.statements, m.Statement, "ref", ref, record, key, "statement")

    def _offer_ref(self, record: _Record, key: str, slug: str) -> m.Offer:
        return self._ref(self.offers, m.Offer, "slug", slug, record, key, "offer")

    @staticmethod
    def _ref(cache: dict, model, attribute: str, value: str, record: _Record, key: str, noun: str):
        if value not in cache:
            found = model.objects.filter(**{attribute: value}).first()
            if found is None:
                raise record.error(key, f"refers to {noun} {value!r}, which is neither earlier in the data set "
                                        "nor in the database")
            cache[value] = found
        return cache[value]


def position_key(codes: list[str], as_of: datetime.date) -> str:
    """A position's key in the French texts: its code (or codes, space-separated) and its date."""
    return f"{' '.join(codes)} {as_of.isoformat()}"


def translated_fields(model: type[models.Model]) -> tuple[str, ...]:
    """The fields of ``model`` kept in both languages (negotiations/translation.py), or ()."""
    try:
        return tuple(translator.get_options_for_model(model).fields)
    except NotRegistered:
        return ()


def _in_languages(model: type[models.Model], values: dict[str, Any], french: dict[str, Any] | None = None) -> dict:
    """``values`` with each translated field under its English name, plus the French texts given."""
    fields = translated_fields(model)
    result = {f"{name}_en" if name in fields else name: value for name, value in values.items()}
    if french is not None:
        for name in fields:
            text = french.get(name)
            if isinstance(text, str) and text.strip():
                result[f"{name}_fr"] = repair_text(text.strip())
    return result


def _name(noun: str, raw: Any, key: str) -> str:
    """How an error names a record: by its key when it has one."""
    value = raw.get(key) if isinstance(raw, dict) else None
    return f"{noun} {value!r}" if isinstance(value, str) and value else f"{noun} without a {key}"


def _same(obj: models.Model, name: str, value: Any) -> bool:
    model_field = obj._meta.get_field(name)
    if model_field.is_relation:
        return getattr(obj, model_field.attname) == (value.pk if value is not None else None)
    return getattr(obj, name) == value


def _dataset_error(record: _Record, error: ValidationError) -> DatasetError:
    if hasattr(error, "error_dict"):
        name, errors = next(iter(error.error_dict.items()))
        messages = [message for item in errors for message in item.messages]
        field_name = "(record)" if name == NON_FIELD_ERRORS else record.prefix + name
        return DatasetError(record.name, field_name, " ".join(messages))
    return DatasetError(record.name, record.prefix.rstrip(".") or "(record)", " ".join(error.messages))
