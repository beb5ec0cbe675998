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

Before anything is written every text is repaired (``text_repair``), the file is read through its
schema (``dataset_schema``: each section's fields, their types and the term vocabulary) and every
offer's terms are checked: the split adds up to the maximum grant, each government's sources add up
to its amount, shares are between 0 and 1. A problem raises ``DatasetError`` naming the record and
the field, and nothing is written; so does a key used twice, a reference to a missing record or a
record that fails ``full_clean``.
"""

import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction
from django.utils import translation
from django.utils.translation import gettext_noop
from modeltranslation.translator import NotRegistered, translator

from negotiations import dataset_schema as schema
from negotiations import models as m
from negotiations.dataset_schema import PT_CODES
from negotiations.terms import (
    FUNDING_SOURCES,
    RULED_FIELDS,
    SCALAR_FIELDS,
    TERM_FIELDS,
    OfferTerms,
    TermBasisEntry,
    check_basis,
    check_terms,
    expand_basis_keys,
)
from negotiations.text_repair import repair_text

__all__ = [
    "DEFAULT_DATASET", "PT_CODES", "AppSection", "DatasetError", "LoadReport", "ModelCounts", "load_dataset",
    "read_dataset", "register_section",
]

DEFAULT_DATASET = Path(__file__).resolve().parent / "data" / "canada_job_grant.json"
CHANGE_REASON = gettext_noop("loaded from a seed data set")  # stored in English, shown translated

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

    ``key`` is its records' natural key, ``noun`` what they are called in messages and ``schema``
    the shape of one record (a ``dataset_schema.Record``). ``load`` is called with the loader and
    each record as the schema read it, after the jurisdictions and before the people; it writes the
    record with ``loader.seed()``, so it gets the same messages, French texts, idempotence and
    ``update`` as the sections loaded here.
    """

    name: str
    key: str
    noun: str
    schema: type[schema.Record]
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
    shape = schema.with_sections(tuple((section.name, section.schema) for section in _APP_SECTIONS.values()))
    try:
        dataset = shape.model_validate(data)
    except pydantic.ValidationError as error:
        raise _schema_error(error, data) from None
    _check_keys_are_unique(dataset)
    offers = [_parse_offer(offer) for offer in dataset.offers]
    loader = _Loader(update=update, french=dataset.french)
    # In English, so that a translated field's plain name (title) is its English column (title_en).
    with translation.override("en"), transaction.atomic():
        loader.load(dataset, offers)
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


def _keys() -> dict[str, tuple[str, str]]:
    return {**_KEYS, **{section.name: (section.key, section.noun) for section in _APP_SECTIONS.values()}}


def _check_keys_are_unique(dataset: schema.Dataset) -> None:
    """Two records with one key would silently become one; refuse that before writing."""
    for section, (key, noun) in _keys().items():
        seen = set()
        for record in getattr(dataset, section):
            value = getattr(record, key)
            if value in seen:
                raise DatasetError(f"{noun} {value!r}", key, "appears more than once in the data set")
            seen.add(value)


def _schema_error(error: pydantic.ValidationError, data: dict) -> DatasetError:
    """The first problem the schema found, named as the loader names records: ``offer 'budget-2013'``,
    ``terms.max_grant``, ``must be …``."""
    problems = error.errors(include_url=False)
    record, place = _place([part for part in problems[0]["loc"] if part != "[key]"], data)
    message = _message(problems[0])
    if len(problems) > 1:
        message += f" (and {len(problems) - 1} more problem{'s' if len(problems) > 2 else ''} in the data set)"
    return DatasetError(record, place, message)


def _place(loc: list, data: dict) -> tuple[str, str]:
    """The record ``loc`` is in (by its key, else by its place in the file) and the path within it."""
    if loc[:1] == ["french"]:
        if len(loc) < 3:
            return "French texts", _path(loc[1:]) or "(file)"
        return f"French texts of {loc[1]} {loc[2]!r}", _path(loc[3:]) or "(record)"
    if loc[:1] == ["negotiation"] and len(loc) > 1:
        (key, noun), raw, fallback, rest = ("slug", "negotiation"), data.get("negotiation"), "negotiation", loc[1:]
    elif len(loc) > 1 and isinstance(loc[1], int):
        key, noun = _keys().get(loc[0], ("", ""))
        raw, fallback, rest = data[loc[0]][loc[1]], f"{loc[0]}[{loc[1]}]", loc[2:]
    else:
        return "data set", _path(loc) or "(root)"
    value = raw.get(key) if isinstance(raw, dict) else None
    name = f"{noun} {value!r}" if isinstance(value, str) and value.strip() else fallback
    return name, _path(rest) or "(record)"


def _path(parts: list) -> str:
    """``["terms", "phase_in", 0, "fraction"]`` as ``terms.phase_in[0].fraction``."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts).lstrip(".")


# pydantic's standard problems in the loader's words; the schema's own (dataset_schema) are already worded.
_MESSAGES = {
    "missing": "is required",
    "extra_forbidden": "is not a known field (misspelt?)",
    "string_type": "must be text",
    "int_type": "must be a whole number",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "decimal_parsing": "is not a number",
    "finite_number": "must be a finite number",
    "enum": "must be one of {expected}",
    "literal_error": "must be one of {expected}",
}


def _message(problem: dict) -> str:
    template = _MESSAGES.get(problem["type"])
    if template is None:
        return problem["msg"]
    message = template.format(**problem.get("ctx", {}))
    if problem["type"] in ("missing", "extra_forbidden"):
        return message
    shown = repr(problem["input"])
    return f"{message} (got {shown if len(shown) <= 60 else shown[:57] + '...'})"


def _parse_offer(offer: schema.Offer) -> tuple[schema.Offer, OfferTerms, tuple[TermBasisEntry, ...]]:
    """Check one offer's terms before anything is written; return the offer, its terms and their basis."""
    name, terms, split = f"offer {offer.slug!r}", offer.terms, offer.terms.split
    total = split.federal + split.provincial + split.employer
    if total != terms.max_grant:
        raise DatasetError(name, "terms.split", f"federal {split.federal} + provincial {split.provincial} + employer "
                                                f"{split.employer} = {total}, but max_grant is {terms.max_grant}")
    years = [step.fiscal_year for step in terms.phase_in]
    for position, year in enumerate(years):
        if year in years[:position]:
            raise DatasetError(name, f"terms.phase_in[{position}].fiscal_year", f"{year} is listed more than once")

    # A one-value term whose path is its name sits in "terms" under that name; the split and the scale are
    # grouped as the API writes them.
    offer_terms = OfferTerms.from_values(
        {**{term.name: getattr(terms, term.name) for term in TERM_FIELDS if term.path == term.name},
         "federal_amount": split.federal, "provincial_amount": split.provincial, "employer_amount": split.employer,
         "scale_program": terms.scale.program, "scale_amount": terms.scale.amount, "assumptions": terms.assumptions},
        sources=tuple((payer, program, amount) for payer, by_program in terms.sources.items()
                      for program, amount in by_program.items()),
        treatments=tuple(terms.treatments.items()),
        phase_in=tuple((step.fiscal_year, step.fraction) for step in terms.phase_in),
    )
    problems = offer_terms.problems()
    if problems:
        first = problems[0]
        raise DatasetError(name, _TERMS_FIELDS.get(first.field, f"terms.{first.field}"), first.message)
    return offer, offer_terms, _parse_basis(offer, name)


def _parse_basis(offer: schema.Offer, name: str) -> tuple[TermBasisEntry, ...]:
    """An offer's ``basis``: ``{term path or group: {status, source, passage, note}}``, checked by the term rules.

    A group key (``treatments``, ``sources.federal``) gives every term under it the same basis;
    a term named on its own wins over its group.
    """
    try:
        expanded = expand_basis_keys(offer.basis, PT_CODES)
    except KeyError as error:
        raise DatasetError(name, f"basis.{error.args[0]}", "is neither a term path nor a group of terms") from None
    entries = tuple(
        TermBasisEntry(term=term, status=entry.status, source=entry.source, passage=entry.passage, note=entry.note)
        for term, entry in expanded.items()
    )
    for problem in check_basis(entries, PT_CODES):
        raise DatasetError(name, problem.field, problem.message)
    return entries


@dataclass(frozen=True)
class _Where:
    """Where a record is, for messages: its name (``offer 'budget-2013'``) and the path to a part of it."""

    name: str
    prefix: str = ""

    def error(self, key: str, message: str) -> DatasetError:
        return DatasetError(self.name, self.prefix + key, message)

    def part(self, path: str) -> "_Where":
        return _Where(self.name, f"{self.prefix}{path}.")


# --- writing -------------------------------------------------------------------------------------

_NO_FRENCH = schema.FrenchRecord()


class _Loader:
    def __init__(self, *, update: bool, french: schema.French | None = None):
        self.update = update
        self.french: dict[str, dict[str, schema.FrenchRecord]] = french.model_extra if french else {}
        self.report = LoadReport()
        self.jurisdictions: dict[str, m.Jurisdiction] = {}
        self.people: dict[str, m.Person] = {}
        self.sources: dict[str, m.Source] = {}
        self.meetings: dict[str, m.Meeting] = {}
        self.statements: dict[str, m.Statement] = {}
        self.offers: dict[str, m.Offer] = {}
        self.negotiation: m.Negotiation | None = None

    def load(self, dataset: schema.Dataset,
             offers: list[tuple[schema.Offer, OfferTerms, tuple[TermBasisEntry, ...]]]) -> None:
        for jurisdiction in dataset.jurisdictions:
            self._jurisdiction(jurisdiction)
        for section in _APP_SECTIONS.values():
            for record in getattr(dataset, section.name):
                section.load(self, record)
        for person in dataset.people:
            self._person(person)
        self._negotiation(dataset.negotiation)
        for source in dataset.sources:
            self._source(source)
        for meeting in dataset.meetings:
            self._meeting(meeting)
        for statement in dataset.statements:
            self._statement(statement)
        for offer, terms, basis in offers:
            self._offer(offer, terms, basis)
        for position in dataset.positions:
            self._positions(position)
        for key_date in dataset.key_dates:
            self._key_date(key_date)

    # Sections, in dependency order. A record's plain fields are its model's; its references are looked up.

    def _jurisdiction(self, record: schema.Jurisdiction) -> None:
        self.jurisdictions[record.code], _ = self._upsert(
            m.Jurisdiction, _Where(f"jurisdiction {record.code!r}"), {"code": record.code},
            french=self._french("jurisdictions", record.code).texts, values=record.model_dump(exclude={"code"}),
        )

    # For the sections other apps load (AppSection).

    def seed(self, model: type[models.Model], section: AppSection, key: str, values: dict[str, Any]) -> models.Model:
        """Create, keep or (update) restore the ``model`` record whose natural key is ``key``, with its French texts."""
        obj, _ = self._upsert(model, _Where(f"{section.noun} {key!r}"), {section.key: key},
                              french=self._french(section.name, key).texts, values=values)
        return obj

    def _person(self, record: schema.Person) -> None:
        where, french = _Where(f"person {record.slug!r}"), self._french("people", record.slug)
        person, _ = self._upsert(m.Person, where, {"slug": record.slug}, french=french.texts,
                                 values=record.model_dump(exclude={"slug", "roles"}))
        self.people[record.slug] = person
        for position, role in enumerate(record.roles):
            at = where.part(f"roles[{position}]")
            self._upsert(m.Role, at, {
                "person": person,
                "title": role.title,
                "jurisdiction": self._jurisdiction_ref(at, "jurisdiction", role.jurisdiction) if role.jurisdiction else None,
                "organization": role.organization,
            }, french=french.roles.get(role.title, {}),
                values=role.model_dump(include={"start", "start_precision", "end", "end_precision"}))

    def _negotiation(self, record: schema.Negotiation) -> None:
        self.negotiation, _ = self._upsert(m.Negotiation, _Where(f"negotiation {record.slug!r}"), {"slug": record.slug},
                                           french=self._french("negotiation", record.slug).texts,
                                           values=record.model_dump(exclude={"slug"}))

    def _source(self, record: schema.Source) -> None:
        # `text` is not seeded: a user may import an article's text and keep it through --update.
        self.sources[record.slug], _ = self._upsert(m.Source, _Where(f"source {record.slug!r}"), {"slug": record.slug},
                                                    french=self._french("sources", record.slug).texts,
                                                    values=record.model_dump(exclude={"slug"}))

    def _meeting(self, record: schema.Meeting) -> None:
        where = _Where(f"meeting {record.slug!r}")
        self.meetings[record.slug], _ = self._upsert(
            m.Meeting, where, {"slug": record.slug}, french=self._french("meetings", record.slug).texts, values={
                "negotiation": self.negotiation,
                **record.model_dump(exclude={"slug", "participants", "jurisdictions", "sources", "passages"}),
            }, links={
                "participants": [self._person_ref(where, "participants", key) for key in record.participants],
                "jurisdictions": [self._jurisdiction_ref(where, "jurisdictions", key) for key in record.jurisdictions],
                "sources": [self._source_ref(where, "sources", key) for key in record.sources],
            })
        self._passages(where, record.passages, meeting=self.meetings[record.slug])

    def _passages(self, where: _Where, passages: list[schema.Passage], **owner: models.Model) -> None:
        """``passages``: ``[{source, passage}]``, the words of each source that support the record."""
        for index, item in enumerate(passages):
            at = where.part(f"passages[{index}]")
            source = self._source_ref(at, "source", item.source)
            self._upsert(m.SourcePassage, at, {**owner, "source": source, "passage": item.passage}, {})

    def _statement(self, record: schema.Statement) -> None:
        where = _Where(f"statement {record.ref!r}")
        self.statements[record.ref], _ = self._upsert(
            m.Statement, where, {"ref": record.ref}, french=self._french("statements", record.ref).texts, values={
                "negotiation": self.negotiation,
                **record.model_dump(exclude={"ref", "speaker", "jurisdiction", "source", "meeting"}),
                "speaker": self._person_ref(where, "speaker", record.speaker),
                "jurisdiction": self._jurisdiction_ref(where, "jurisdiction", record.jurisdiction)
                if record.jurisdiction else None,
                "source": self._source_ref(where, "source", record.source),
                "meeting": self._meeting_ref(where, "meeting", record.meeting) if record.meeting else None,
            })

    def _offer(self, record: schema.Offer, terms: OfferTerms, basis: tuple[TermBasisEntry, ...]) -> None:
        slug, where = record.slug, _Where(f"offer {record.slug!r}")
        offer, outcome = self._upsert(m.Offer, where, {"slug": slug}, french=self._french("offers", slug).texts, values={
            "negotiation": self.negotiation,
            **record.model_dump(include={"title", "tabled_on", "date_precision", "agreed_on", "status", "summary"}),
            "responds_to": self._offer_ref(where, "responds_to", record.responds_to) if record.responds_to else None,
            "meeting": self._meeting_ref(where, "meeting", record.meeting) if record.meeting else None,
            **{name: getattr(terms, name) for name in SCALAR_FIELDS},
        }, links={
            "tabled_by": [self._jurisdiction_ref(where, "tabled_by", key) for key in record.tabled_by],
            "sources": [self._source_ref(where, "sources", key) for key in record.sources],
        })
        self.offers[slug] = offer
        rows_too = outcome == "created" or self.update
        for payer, program, amount in terms.sources:
            self._term_row(m.FundingSource, where, {"offer": offer, "payer": payer, "program": program},
                           {"amount": amount}, write=rows_too)
        for code, treatment in terms.treatments:
            jurisdiction = self._jurisdiction_ref(where, "terms.treatments", code)
            self._term_row(m.JurisdictionTreatment, where, {"offer": offer, "jurisdiction": jurisdiction},
                           {"treatment": treatment}, write=rows_too)
        for year, fraction in terms.phase_in:
            self._term_row(m.PhaseInStep, where, {"offer": offer, "fiscal_year": year},
                           {"fraction": fraction}, write=rows_too)
        french_notes = self._french_basis(slug)
        for entry in basis:
            note_fr = french_notes.get(entry.term)
            self._term_row(m.TermBasis, where, {"offer": offer, "term": entry.term}, {
                "status": entry.status,
                "source": (self._source_ref(where, f"basis.{entry.term}.source", entry.source)
                           if entry.source else None),
                "passage": entry.passage,
                "note": entry.note,
            }, write=rows_too, french={"note": note_fr} if note_fr else None)
        if outcome != "created" and self.update:
            self._warn_if_terms_broken(offer)

    def _positions(self, record: schema.Position) -> None:
        french = self._french("positions", position_key(record.codes, record.as_of))
        for code in record.codes:
            where = _Where(f"position {code} as of {record.as_of.isoformat()}")
            position, outcome = self._upsert(m.Position, where, {
                "negotiation": self.negotiation,
                "jurisdiction": self._jurisdiction_ref(where, "jurisdiction", code),
                "as_of": record.as_of,
            }, french=french.texts, values={
                **record.model_dump(include={"date_precision", "stance", "summary", "conditions"}),
                "triggered_by_offer": self._offer_ref(where, "triggered_by_offer", record.triggered_by_offer)
                if record.triggered_by_offer else None,
                "triggered_by_meeting": self._meeting_ref(where, "triggered_by_meeting", record.triggered_by_meeting)
                if record.triggered_by_meeting else None,
            }, links={
                "evidence": [self._statement_ref(where, "evidence", key) for key in record.evidence],
                "sources": [self._source_ref(where, "sources", key) for key in record.sources],
            })
            self._passages(where, record.passages, position=position)
            self._checks(where, record.checks, position, write=outcome == "created" or self.update,
                         french=french.checks)

    def _checks(self, where: _Where, checks: list[schema.Check], position: m.Position, *, write: bool,
                french: list[str]) -> None:
        """The conditions a position states (``checks``): a term, an operator and a value, or words only;
        ``french`` is their words in French, in the same order."""
        if len(french) > len(checks):
            raise DatasetError(f"French texts of {where.name}", "checks",
                               f"must be a list of at most {len(checks)} texts, one per condition in order")
        for order, check in enumerate(checks):
            at = where.part(f"checks[{order}]")
            self._term_row(m.Condition, at, {"position": position, "order": order}, {
                "kind": m.Condition.Kind.CHECK if check.term else m.Condition.Kind.WORDS,
                **check.model_dump(include={"term", "operator", "value", "text"}),
                "statement": self._statement_ref(at, "statement", check.statement) if check.statement else None,
            }, write=write, french={"text": french[order]} if order < len(french) else None)

    # Finding and writing records.

    def _key_date(self, record: schema.KeyDate) -> None:
        where = _Where(f"key date {record.slug!r}")
        self._upsert(m.KeyDate, where, {"slug": record.slug}, french=self._french("key_dates", record.slug).texts,
                     values={
            "negotiation": self.negotiation,
            **record.model_dump(exclude={"slug", "source"}),
            "source": self._source_ref(where, "source", record.source),
        })

    def _french_basis(self, slug: str) -> dict[str, str]:
        """The French notes of an offer's term bases, by term path (groups expanded as the English ones are)."""
        try:
            return expand_basis_keys(self._french("offers", slug).basis, PT_CODES)
        except KeyError as error:
            raise DatasetError(f"French texts of offer {slug!r}", f"basis.{error.args[0]}",
                               "is neither a term path nor a group of terms") from None

    def _french(self, section: str, key: str) -> schema.FrenchRecord:
        """The French texts of one record of the data set (by its natural key); none when there are none."""
        return self.french.get(section, {}).get(key, _NO_FRENCH)

    def _upsert(
        self,
        model: type[models.Model],
        where: _Where,
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
            self._save(obj, where)
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
                self._save(obj, where)
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
            self._save(obj, where)
        for name, targets in missing_links.items():
            if targets:
                getattr(obj, name).add(*targets)
        if changed or any(missing_links.values()):
            counts.updated += 1
            return obj, "updated"
        counts.unchanged += 1
        return obj, "unchanged"

    def _term_row(self, model, where: _Where, lookup: dict, values: dict, *, write: bool,
                  french: dict | None = None) -> None:
        if write:
            self._upsert(model, where, lookup, values, french=french)
            return
        counts = self.report.of(model.__name__)
        if model.objects.filter(**lookup).exists():
            if french and not self.update:  # a row kept as users left it still gets the French it lacks
                self._upsert(model, where, lookup, values, french=french)
                return
            counts.unchanged += 1
        else:
            counts.skipped += 1

    def _save(self, obj: models.Model, where: _Where) -> None:
        try:
            obj.full_clean()
        except ValidationError as error:
            raise _dataset_error(where, error) from None
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

    def _jurisdiction_ref(self, where: _Where, key: str, code: str) -> m.Jurisdiction:
        return self._ref(self.jurisdictions, m.Jurisdiction, "code", code, where, key, "jurisdiction")

    def _person_ref(self, where: _Where, key: str, slug: str) -> m.Person:
        return self._ref(self.people, m.Person, "slug", slug, where, key, "person")

    def _source_ref(self, where: _Where, key: str, slug: str) -> m.Source:
        return self._ref(self.sources, m.Source, "slug", slug, where, key, "source")

    def _meeting_ref(self, where: _Where, key: str, slug: str) -> m.Meeting:
        return self._ref(self.meetings, m.Meeting, "slug", slug, where, key, "meeting")

    def _statement_ref(self, where: _Where, key: str, ref: str) -> m.Statement:
        return self._ref(self.statements, m.Statement, "ref", ref, where, key, "statement")

    def _offer_ref(self, where: _Where, key: str, slug: str) -> m.Offer:
        return self._ref(self.offers, m.Offer, "slug", slug, where, key, "offer")

    @staticmethod
    def _ref(cache: dict, model, attribute: str, value: str, where: _Where, key: str, noun: str):
        if value not in cache:
            found = model.objects.filter(**{attribute: value}).first()
            if found is None:
                raise where.error(key, f"refers to {noun} {value!r}, which is neither earlier in the data set "
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
    for name in fields:
        if french and french.get(name):  # repaired and stripped with the rest of the data set
            result[f"{name}_fr"] = french[name]
    return result


def _same(obj: models.Model, name: str, value: Any) -> bool:
    model_field = obj._meta.get_field(name)
    if model_field.is_relation:
        return getattr(obj, model_field.attname) == (value.pk if value is not None else None)
    return getattr(obj, name) == value


def _dataset_error(where: _Where, error: ValidationError) -> DatasetError:
    if hasattr(error, "error_dict"):
        name, errors = next(iter(error.error_dict.items()))
        messages = [message for item in errors for message in item.messages]
        field_name = "(record)" if name == NON_FIELD_ERRORS else where.prefix + name
        return DatasetError(where.name, field_name, " ".join(messages))
    return DatasetError(where.name, where.prefix.rstrip(".") or "(record)", " ".join(error.messages))
