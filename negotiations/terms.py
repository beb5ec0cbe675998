"""The vocabulary of an offer's terms, the rules they must follow, and the one value object that holds them.

The one home of the term vocabulary (programs, payers, treatments, liabilities, with their
translated labels: the models' choices and the fiscal engine use these very classes), of the
user-facing rules (the split and each payer's sources add up) and of ``OfferTerms``.

No database and no settings read at import (Django's ``TextChoices``, lazy translations and the one
formatter, ``config.numbers``, are only imported), so the admin, the services, the API, the loader and
the fiscal engine all apply the same rules and report the same messages, each written in the reader's
language when it is shown (``say``). Each problem names the Offer
model field at fault, or ``"funding_sources"`` for anything that needs the
per-program rows to see (their sums, which program a payer may draw on, a
program listed twice, the scale's program left undrawn).

Payers and programs are the members of ``GovernmentPayer`` and ``Program`` below or their plain
string values (``TextChoices`` members are ``str``, so either can be passed).
"""

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from decimal import Decimal

from django.db.models.enums import TextChoices
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from config.numbers import numbers

__all__ = [
    "ASSUMED", "BASIS_STATUSES", "FISCAL_YEAR", "FUNDING_SOURCES", "GovernmentPayer", "INFERRED", "Liability", "OfferTerms",
    "Payer", "Program", "REPORTED", "RULED_FIELDS", "SCALAR_FIELDS", "TERM_FIELDS", "TERMS_BY_TABLE", "TERM_BY_PATH",
    "TermField", "Treatment", "TermBasisEntry",
    "TermsProblem", "check_basis", "check_terms", "expand_basis_keys", "missing_basis", "problems_by_field",
    "term_groups", "term_paths", "term_value",
]

# ---------------------------------------------------------------------------
# Vocabulary: the stored values are what the database and the data set file hold; never change one.

# A fiscal year as the record writes it: 2014-15 (its two groups: the first year, the last two digits of the next).
# ASCII digits only, as the database's constraint and the API's pattern ask: ``\d`` also takes ٢٠١٥-١٦ and ２０１５-１６,
# which a form took, the engine computed with and a scenario kept, where the save of an offer refused them.
FISCAL_YEAR = re.compile(r"([0-9]{4})-([0-9]{2})")


class Program(TextChoices):
    """Where a government's per-trainee money comes from."""

    LMA = "LMA", _("Labour Market Agreements")
    LMDA = "LMDA", _("Labour Market Development Agreements")
    CJF = "CJF", _("Canada Job Fund")
    PT_OWN = "PT_OWN", _("Province's or territory's own revenue")
    FEDERAL_NEW = "FEDERAL_NEW", _("New federal money")


# A program named in a sentence (the rules' messages), as readers of each language abbreviate it.
PROGRAM_SHORT_NAMES = {
    Program.LMA: pgettext_lazy("program, short", "LMA"),
    Program.LMDA: pgettext_lazy("program, short", "LMDA"),
    Program.CJF: pgettext_lazy("program, short", "CJF"),
    Program.PT_OWN: pgettext_lazy("program, short", "own revenue"),
    Program.FEDERAL_NEW: pgettext_lazy("program, short", "new federal money"),
}


class Payer(TextChoices):
    """Who puts money into a grant."""

    FEDERAL = "federal", _("federal government")
    PROVINCIAL = "provincial", _("province or territory")
    EMPLOYER = "employer", _("employer")


class GovernmentPayer(TextChoices):
    """A payer that has funding sources, or covers a small employer's gap: a government."""

    FEDERAL = "federal", _("federal government")
    PROVINCIAL = "provincial", _("province or territory")


class Liability(TextChoices):
    """Who makes up for employers that put in less than expected."""

    PROVINCE = "province", _("the province or territory pays it back")
    FEDERAL = "federal", _("the federal government covers it")
    NONE = "none", _("nobody: fewer grants")


class Treatment(TextChoices):
    """How an offer treats one province or territory."""

    PARTICIPATES = "participates", _("participates")
    OPTS_OUT_COMPENSATED = "opts_out_compensated", _("opts out with compensation")
    FEDERAL_DIRECT = "federal_direct", _("federal direct delivery")


FUNDING_SOURCES = "funding_sources"

FEDERAL = GovernmentPayer.FEDERAL
PROVINCIAL = GovernmentPayer.PROVINCIAL
PROGRAMS = tuple(Program)

# Ottawa cannot spend a province's own revenue, and a province cannot spend new federal money.
FORBIDDEN_PROGRAM = {
    FEDERAL: (Program.PT_OWN, gettext_noop(
        "The federal government cannot pay from a province's or territory's own revenue (PT_OWN).")),
    PROVINCIAL: (Program.FEDERAL_NEW, gettext_noop(
        "A province or territory cannot pay with new federal money (FEDERAL_NEW).")),
}
# The rules' sentences that name a payer, one per payer so that each translates whole.
_LISTED_TWICE = {FEDERAL: gettext_noop("Federal money from %(program)s is listed more than once."),
                 PROVINCIAL: gettext_noop("Provincial money from %(program)s is listed more than once.")}
_NEGATIVE_SOURCE = {
    FEDERAL: gettext_noop("The federal amount from %(program)s cannot be negative (got %(amount)s)."),
    PROVINCIAL: gettext_noop("The provincial amount from %(program)s cannot be negative (got %(amount)s)."),
}
_SOURCES_TOTAL = {
    FEDERAL: gettext_noop("Federal sources add up to %(total)s but the federal amount is %(amount)s."),
    PROVINCIAL: gettext_noop("Provincial sources add up to %(total)s but the provincial amount is %(amount)s."),
}

_ZERO = Decimal(0)
_ONE = Decimal(1)


@dataclass(frozen=True, kw_only=True)
class OfferTerms:
    """Everything an offer puts on the table, per trainee unless said otherwise (FISCAL_MODEL.md).

    The one value object for an offer's terms: the forms build it, the services store it, the
    loader reads it from the data set, and ``grants`` maps it to the engine's terms in one place.
    ``sources`` are ``(payer, program, amount)`` rows; ``treatments`` are
    ``(P/T code, treatment)`` pairs, where a P/T left out participates;
    ``phase_in`` are ``(fiscal year, fraction of the full scale)`` pairs.
    """

    max_grant: Decimal
    federal_amount: Decimal
    provincial_amount: Decimal
    employer_amount: Decimal
    scale_program: str = Program.LMA
    scale_amount: Decimal
    employer_min_share: Decimal | None = None
    small_employer_gap_payer: str = ""
    shortfall_liability: str = Liability.NONE
    assumptions: str = ""
    sources: tuple[tuple[str, str, Decimal], ...] = ()
    treatments: tuple[tuple[str, str], ...] = ()
    phase_in: tuple[tuple[str, Decimal], ...] = ()

    def problems(self) -> list["TermsProblem"]:
        """Every broken rule, with the messages the admin gives (an empty list when the terms hold)."""
        return check_terms(**{name: getattr(self, name) for name in RULED_FIELDS}, sources=self.sources)

    @classmethod
    def from_values(cls, values: Mapping[str, object], **rows) -> "OfferTerms":
        """The terms from a mapping of field names (a form's cleaned data, an offer's fields): each one-value
        term read through its ``TermField`` (a blank reads as ``TermField.blank``), ``assumptions`` as text,
        and the rows (``sources``, ``treatments``, ``phase_in``) passed as they are."""
        one_value = {term.name: term.read(values.get(term.name)) for term in TERM_FIELDS}
        return cls(**one_value, assumptions=values.get("assumptions") or "", **rows)


# The terms an offer (and a scenario) stores in its own fields, in form order; the others are rows.
SCALAR_FIELDS = tuple(f.name for f in fields(OfferTerms) if f.name not in ("sources", "treatments", "phase_in"))


# ---------------------------------------------------------------------------
# The one-value terms, described once: every layer that lists, labels, shows, compares or reads them
# (the offer page, the differences between two offers, the basis, the preview's problems, the forms'
# reading, the loader, "Record as offer") loops over ``TERM_FIELDS`` instead of naming them.

MONEY, SHARE, CHOICE = "money", "share", "choice"
PER_TRAINEE, SCALE_AND_EMPLOYERS = "per_trainee", "scale_and_employers"  # the offer page's two tables


@dataclass(frozen=True)
class TermField:
    """One of the terms an offer (and a scenario) keeps in a field of its own.

    ``name`` is the field (on ``OfferTerms``, ``Offer`` and ``Scenario``); ``path`` the term path its basis
    and conditions use; ``label`` what people call it on its own, ``short_label`` inside its table on the
    offer page (under "Per trainee": "Federal"); ``kind`` how its value is written (money, a share, a
    choice among ``choices``); ``empty`` how no value reads; ``blank`` what an empty input means;
    ``required`` whether every offer must state it.
    """

    name: str
    path: str
    label: str
    kind: str
    table: str
    choices: type[TextChoices] | None = None
    short_label: str = ""
    empty: str = ""
    blank: object = None
    required: bool = False  # every offer states it (the data set file must give it)

    def read(self, value):
        """A value as a form or a file gives it: empty input reads as ``blank``."""
        return self.blank if value is None or value == "" else value

    def text(self, value, numbers) -> str:
        """The value in words for people, written by ``numbers`` (config.numbers.Numbers)."""
        if value is None or value == "":
            return str(self.empty)
        if self.kind == MONEY:
            return numbers.money(value)
        if self.kind == SHARE:
            return numbers.percent(value)  # as the fiscal page, the verdicts and the API's words write a share
        return str(self.choices(value).label) if value in self.choices.values else str(value)


TERM_FIELDS = (
    TermField("max_grant", "max_grant", _("Maximum grant per trainee"), MONEY, PER_TRAINEE, required=True),
    TermField("federal_amount", "split.federal", _("Federal per trainee"), MONEY, PER_TRAINEE,
              short_label=_("Federal"), required=True),
    TermField("provincial_amount", "split.provincial", _("Provincial or territorial per trainee"), MONEY,
              PER_TRAINEE, short_label=_("Provincial or territorial"), required=True),
    TermField("employer_amount", "split.employer", _("Employer per trainee"), MONEY, PER_TRAINEE,
              short_label=_("Employer"), required=True),
    TermField("scale_program", "scale", _("Scale drawn from"), CHOICE, SCALE_AND_EMPLOYERS, choices=Program,
              required=True),
    TermField("scale_amount", "scale", _("National amount drawn"), MONEY, SCALE_AND_EMPLOYERS, required=True),
    TermField("employer_min_share", "employer_min_share", _("Employer minimum share"), SHARE, SCALE_AND_EMPLOYERS,
              empty=_("none")),
    TermField("small_employer_gap_payer", "small_employer_gap_payer", _("Who covers the small-employer gap"),
              CHOICE, SCALE_AND_EMPLOYERS, choices=GovernmentPayer, empty=_("nobody"), blank=""),
    TermField("shortfall_liability", "shortfall_liability", _("Liable for an employer shortfall"), CHOICE,
              SCALE_AND_EMPLOYERS, choices=Liability, blank=Liability.NONE),
)
# The one-value terms by the table of the offer page (and fieldset of its form) they sit in, in order.
TERMS_BY_TABLE = {table: tuple(term for term in TERM_FIELDS if term.table == table)
                  for table in dict.fromkeys(term.table for term in TERM_FIELDS)}
# The paths of the one-value terms, in display order: max_grant first, the others after the split and the sources.
SCALAR_PATHS = tuple(dict.fromkeys(term.path for term in TERM_FIELDS if not term.path.startswith("split.")))
# A path's words and kind: "scale" is the national amount (its program is said beside it).
TERM_BY_PATH = {term.path: term for term in TERM_FIELDS}


def is_share(path: str) -> bool:
    """Whether the term at ``path`` is a share (a fraction from 0 to 1, shown as a percentage), not money."""
    term = TERM_BY_PATH.get(path)
    return term is not None and term.kind == SHARE
# The one-value terms that check_terms reads (OfferTerms.problems and the admin pass them by name).
RULED_FIELDS = ("max_grant", "federal_amount", "provincial_amount", "employer_amount", "employer_min_share",
                "scale_amount", "scale_program")


# ---------------------------------------------------------------------------
# Term paths: the one way every layer names a single term (API.md): ``max_grant``,
# ``split.federal``, ``sources.federal.LMA``, ``scale``, ``employer_min_share``,
# ``small_employer_gap_payer``, ``shortfall_liability``, ``treatments.QC``, ``phase_in``.
# A term's basis (reported, inferred, assumed) and a position's conditions are keyed by them.

SPLIT_PAYERS = tuple(Payer)


def term_paths(pt_codes: Iterable[str]) -> tuple[str, ...]:
    """Every term path of an offer, in display order, for the provinces and territories ``pt_codes``."""
    return (
        "max_grant",
        *(f"split.{payer}" for payer in SPLIT_PAYERS),
        *(f"sources.{payer}.{program}" for payer in (FEDERAL, PROVINCIAL) for program in PROGRAMS
          if program != FORBIDDEN_PROGRAM[payer][0]),
        *SCALAR_PATHS[1:],
        *(f"treatments.{code}" for code in pt_codes),
        "phase_in",
    )


def term_value(terms: OfferTerms, path: str):
    """The value of one term of ``terms``: a Decimal, a string, or for ``phase_in`` a tuple of pairs.

    A program no payer draws on reads 0; a P/T no treatment names reads ``participates``; ``scale``
    reads the national amount (its program is ``scale_program``). Raises KeyError for an unknown path.
    """
    head, _, rest = path.partition(".")
    if head == "sources":
        payer, _, program = rest.partition(".")
        if payer in (FEDERAL, PROVINCIAL) and program in PROGRAMS:
            return sum((Decimal(a) for p, prog, a in terms.sources if p == payer and prog == program), _ZERO)
    if head == "treatments" and rest:
        return dict(terms.treatments).get(rest, Treatment.PARTICIPATES)
    if path == "phase_in":
        return terms.phase_in
    if path in TERM_BY_PATH:
        return getattr(terms, TERM_BY_PATH[path].name)
    raise KeyError(path)


@dataclass(frozen=True)
class TermsProblem:
    """One broken rule: the model field at fault (or ``"funding_sources"``) and a sentence for people
    (``say``: written when it is shown, in the reader's language; it compares equal to its text)."""

    field: str
    message: str


def _written(template: str, params: tuple[tuple[str, object], ...]) -> str:
    write = numbers()
    values = {  # amounts as money; a share as a number (0.15, 0,15); a program by its short name (LMA, EMT)
        name: (write.decimal(value) if name == "share" else write.money(value)) if isinstance(value, Decimal)
        else str(PROGRAM_SHORT_NAMES.get(value, value)) if name == "program" else str(value) for name, value in params
    }
    translated = gettext(template)
    return translated % values if values else translated


_written_lazily = lazy(_written, str)


def say(template: str, **params) -> str:
    """A rule's sentence, translated and its amounts written by the one formatter (config.numbers) when it is
    shown, so that a message made in one request reads in the language of the page that shows it."""
    return _written_lazily(template, tuple(params.items()))


def check_terms(
    *,
    max_grant: Decimal | int | None,
    federal_amount: Decimal | int | None,
    provincial_amount: Decimal | int | None,
    employer_amount: Decimal | int | None,
    sources: Iterable[tuple[str, str, Decimal | int]] | None,
    employer_min_share: Decimal | int | None = None,
    scale_amount: Decimal | int | None = None,
    scale_program: str | None = None,
) -> list[TermsProblem]:
    """Return every problem with an offer's terms, in a stable order; an empty list means they hold.

    ``sources`` are ``(payer, program, amount)`` rows, per trainee, as stored in
    ``FundingSource``. Pass ``None`` for what is not known (a form that sees
    only the offer's own fields has no rows; a formset after the offer form
    refused a field has no value for it): every rule that needs a missing value
    is skipped, the others still apply. Amounts are ``Decimal`` or ``int``; a
    float raises ``TypeError`` because it cannot hold cents exactly.
    """
    max_grant, federal_amount, provincial_amount, employer_amount = (
        _exact_or_none(max_grant), _exact_or_none(federal_amount),
        _exact_or_none(provincial_amount), _exact_or_none(employer_amount),
    )
    problems: list[TermsProblem] = []

    if max_grant is not None and max_grant <= 0:
        problems.append(TermsProblem("max_grant", say(
            gettext_noop("The maximum grant must be greater than zero (got %(amount)s)."), amount=max_grant)))
    for field, message, amount in (
        ("federal_amount", gettext_noop("The federal amount cannot be negative (got %(amount)s)."), federal_amount),
        ("provincial_amount", gettext_noop("The provincial amount cannot be negative (got %(amount)s)."),
         provincial_amount),
        ("employer_amount", gettext_noop("The employer amount cannot be negative (got %(amount)s)."), employer_amount),
    ):
        if amount is not None and amount < 0:
            problems.append(TermsProblem(field, say(message, amount=amount)))

    if None not in (max_grant, federal_amount, provincial_amount, employer_amount):
        split = federal_amount + provincial_amount + employer_amount
        if split != max_grant:
            problems.append(TermsProblem("max_grant", say(
                gettext_noop("The federal, provincial and employer amounts (%(federal)s + %(provincial)s + "
                             "%(employer)s) add up to %(total)s but the maximum grant is %(max_grant)s."),
                federal=federal_amount, provincial=provincial_amount, employer=employer_amount, total=split,
                max_grant=max_grant,
            )))

    if employer_min_share is not None:
        share = _exact(employer_min_share)
        if not _ZERO <= share <= _ONE:
            problems.append(TermsProblem(
                "employer_min_share",
                say(gettext_noop("The employer minimum share is a fraction between 0 and 1, such as 0.15 "
                                 "(got %(share)s)."), share=share),
            ))

    if scale_amount is not None and _exact(scale_amount) <= 0:
        problems.append(TermsProblem("scale_amount", say(
            gettext_noop("The national amount drawn must be greater than zero (got %(amount)s)."),
            amount=_exact(scale_amount))))

    if sources is not None:
        problems.extend(_check_sources(
            list(sources),
            amounts={FEDERAL: federal_amount, PROVINCIAL: provincial_amount},
            scale_program=scale_program,
        ))
    return problems


def problems_by_field(problems: Iterable[TermsProblem]) -> dict[str, list[str]]:
    """Group messages by field, in order: the shape ``django.core.exceptions.ValidationError`` takes."""
    grouped: dict[str, list[str]] = {}
    for problem in problems:
        grouped.setdefault(problem.field, []).append(problem.message)
    return grouped


def _check_sources(
    rows: list[tuple[str, str, Decimal | int]],
    *,
    amounts: dict[str, Decimal | None],
    scale_program: str | None,
) -> list[TermsProblem]:
    problems: list[TermsProblem] = []

    def refuse(message: str) -> None:
        problems.append(TermsProblem(FUNDING_SOURCES, message))

    totals = {FEDERAL: _ZERO, PROVINCIAL: _ZERO}
    seen: set[tuple[str, str]] = set()
    for payer, program, raw_amount in rows:
        amount = _exact(raw_amount)
        if payer not in totals:
            refuse(say(gettext_noop("Only the federal and provincial governments have funding sources, not "
                                    "“%(payer)s”."), payer=str(payer)))
            continue
        if program not in PROGRAMS:
            refuse(say(gettext_noop("“%(program)s” is not a program; use one of %(programs)s."),
                       program=str(program), programs=", ".join(PROGRAMS)))
            continue
        if (payer, program) in seen:
            refuse(say(_LISTED_TWICE[payer], program=program))
        seen.add((payer, program))
        forbidden, message = FORBIDDEN_PROGRAM[payer]
        if program == forbidden:
            refuse(say(message))
        if amount < 0:
            refuse(say(_NEGATIVE_SOURCE[payer], program=program, amount=amount))
        totals[payer] += amount

    for payer in (FEDERAL, PROVINCIAL):
        if amounts[payer] is not None and totals[payer] != amounts[payer]:
            refuse(say(_SOURCES_TOTAL[payer], total=totals[payer], amount=amounts[payer]))

    # The fiscal engine counts trainees as the scale divided by the per-trainee draw on its program.
    if scale_program is not None and scale_program in PROGRAMS:
        drawn = sum(
            (_exact(amount) for payer, program, amount in rows if payer in totals and program == scale_program),
            _ZERO,
        )
        if drawn <= 0:
            refuse(say(gettext_noop(
                "The scale is drawn from %(program)s but no payer takes anything from %(program)s per trainee, so "
                "the number of trainees cannot be worked out."), program=str(scale_program)))
    return problems


def _exact(value: Decimal | int) -> Decimal:
    """Return ``value`` as a Decimal, refusing floats (and bools) that would smuggle in binary rounding."""
    if isinstance(value, bool) or not isinstance(value, (Decimal, int)):
        raise TypeError(f"amounts must be Decimal or int, not {type(value).__name__}")
    return Decimal(value)


def _exact_or_none(value: Decimal | int | None) -> Decimal | None:
    return None if value is None else _exact(value)


# ---------------------------------------------------------------------------
# The basis of a term (DOMAIN.md, "Basis of a term"): each term of an offer is reported (a source and
# the passage that states it), inferred (a source and the reasoning) or assumed (the modelling
# assumption, in words). A term with no basis is *missing*, never silently taken as reported.

REPORTED = "reported"
INFERRED = "inferred"
ASSUMED = "assumed"
BASIS_STATUSES = (REPORTED, INFERRED, ASSUMED)


@dataclass(frozen=True, kw_only=True)
class TermBasisEntry:
    """The basis of one term: ``term`` is a term path, ``source`` a source key (a slug) or None."""

    term: str
    status: str
    source: str | None = None
    passage: str = ""
    note: str = ""


def term_groups(pt_codes: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Group keys a data set may use for many terms at once (``treatments`` for every ``treatments.XX``).

    A group stands for every term path under it; a term named on its own wins over its group.
    """
    paths = term_paths(pt_codes)
    groups = {}
    for prefix in ("split", "sources", f"sources.{FEDERAL}", f"sources.{PROVINCIAL}", "treatments"):
        groups[prefix] = tuple(path for path in paths if path.startswith(prefix + "."))
    return groups


def expand_basis_keys(keyed: dict[str, object], pt_codes: Iterable[str]) -> dict[str, object]:
    """Map term paths or group keys to values, into term paths only (the most specific key wins).

    Raises KeyError naming the first key that is neither a term path nor a group.
    """
    pt_codes = tuple(pt_codes)
    paths, groups = term_paths(pt_codes), term_groups(pt_codes)
    expanded: dict[str, object] = {}
    # Broad groups first, so narrower groups and single terms written later override them.
    for key in sorted(keyed, key=lambda k: (k not in groups, k.count("."))):
        if key in groups:
            expanded.update({path: keyed[key] for path in groups[key]})
        elif key in paths:
            expanded[key] = keyed[key]
        else:
            raise KeyError(key)
    return expanded


def check_basis(entries: Iterable[TermBasisEntry], pt_codes: Iterable[str]) -> list[TermsProblem]:
    """Every broken rule of an offer's term bases; each problem's field is ``basis.<term path>``.

    A reported term needs a source and the passage that states it; an inferred term a source and
    the reasoning (``note``); an assumed term the assumption in words (``note``). A term appears once.
    """
    valid = set(term_paths(pt_codes))
    problems: list[TermsProblem] = []
    seen: set[str] = set()

    def refuse(entry: TermBasisEntry, message: str, **params) -> None:
        problems.append(TermsProblem(f"basis.{entry.term}", say(message, **params)))

    for entry in entries:
        if entry.term not in valid:
            refuse(entry, gettext_noop("“%(term)s” is not a term of an offer."), term=str(entry.term))
            continue
        if entry.term in seen:
            refuse(entry, gettext_noop("The basis of %(term)s is given more than once."), term=entry.term)
        seen.add(entry.term)
        if entry.status not in BASIS_STATUSES:
            refuse(entry, gettext_noop("The basis is reported, inferred or assumed (got “%(status)s”)."),
                   status=str(entry.status))
        elif entry.status == REPORTED:
            if not entry.source:
                refuse(entry, gettext_noop("A reported term needs the source that states it."))
            if not entry.passage.strip():
                refuse(entry, gettext_noop("A reported term needs the passage of its source that states it."))
        elif entry.status == INFERRED:
            if not entry.source:
                refuse(entry, gettext_noop("An inferred term needs the source it is inferred from."))
            if not entry.note.strip():
                refuse(entry, gettext_noop("An inferred term needs the reasoning, in the note."))
        elif not entry.note.strip():
            refuse(entry, gettext_noop("An assumed term needs the assumption, in words, in the note."))
    return problems


def missing_basis(entries: Iterable[TermBasisEntry], pt_codes: Iterable[str]) -> tuple[str, ...]:
    """The term paths, in display order, that have no basis at all."""
    given = {entry.term for entry in entries}
    return tuple(path for path in term_paths(pt_codes) if path not in given)
