"""Who would sign: an offer's terms held against the conditions of a government's position.

Pure Python on purpose (no Django): the offer page, the live preview, the stance matrix, the
jurisdiction pages and the API all give the same verdict from the same rules, and the rules are
property-tested without a database.

A condition is either a check on one term (a term path of ``negotiations.terms``, an operator
and a value, such as ``sources.federal.LMA eq 0``) or a condition in words only, which no terms can
be held against. A verdict is:

- ``fails`` when a check fails (which ones, and by how much for an amount);
- ``unknown`` when nothing fails but a condition is in words only, or there is no position in force,
  or the position states no condition and does not support the offer: never a guess;
- ``meets`` when every condition is a check that the terms pass (or the position supports the
  negotiation and states no condition).
"""

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from negotiations.money import MoneyError, parse_money
from negotiations.terms import (
    CHOICE,
    SCALAR_PATHS,
    TERM_BY_PATH,
    OfferTerms,
    Treatment,
    term_paths,
    term_value,
)

__all__ = [
    "FAILS", "MEETS", "OPERATORS", "OWN", "UNKNOWN", "Condition", "Failure", "Stated", "Verdict",
    "check", "condition_problems", "count_meets", "parse_value", "resolve_term", "verdict", "verdicts",
]

MEETS = "meets"
FAILS = "fails"
UNKNOWN = "unknown"
VERDICTS = (MEETS, FAILS, UNKNOWN)

OPERATORS = ("eq", "ne", "le", "ge", "lt", "gt", "in")
ORDERING_OPERATORS = ("le", "ge", "lt", "gt")
# ``treatments.own``: the treatment of the position's own jurisdiction, so that one condition can be
# stated for a group of governments (the premiers' "the right to opt out with full compensation").
OWN = "own"
OWN_TREATMENT = f"treatments.{OWN}"

# The values a term that is not an amount may take (FISCAL_MODEL.md).
CHOICES = {
    **{path: ("", *term.choices.values) if term.blank == "" else tuple(term.choices.values)
       for path, term in TERM_BY_PATH.items() if term.kind == CHOICE},
    "treatments": tuple(Treatment.values),
}
_NOT_AMOUNTS = tuple(path for path in CHOICES if path != "treatments")
# The amounts an offer may leave unstated (the employer minimum share): a condition may ask for "none".
_OPTIONAL_AMOUNTS = frozenset(path for path, term in TERM_BY_PATH.items() if term.kind != CHOICE and not term.required)
SUPPORTS = "supports"


@dataclass(frozen=True, kw_only=True)
class Condition:
    """One stated condition: its words, and where it can be checked, its term, operator and value."""

    text: str
    term: str = ""  # empty: a condition in words only
    operator: str = ""
    value: str = ""
    statement: str | None = None  # the ref of the statement that states it

    @property
    def checkable(self) -> bool:
        return bool(self.term and self.operator)


@dataclass(frozen=True, kw_only=True)
class Stated:
    """A position in force: whose, its stance, and its conditions."""

    jurisdiction: str
    stance: str
    conditions: tuple[Condition, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Failure:
    """A check the terms fail: the condition, the value the terms give, and for an amount by how much."""

    condition: Condition
    term: str  # resolved: ``treatments.QC`` rather than ``treatments.own``
    actual: object
    gap: Decimal | None = None  # how far the amount is from what the condition asks (positive)


@dataclass(frozen=True, kw_only=True)
class Verdict:
    jurisdiction: str
    verdict: str
    failing: tuple[Failure, ...] = ()
    in_words: tuple[Condition, ...] = ()  # conditions no terms can be held against
    met: tuple[Condition, ...] = ()
    stated: Stated | None = None  # None: no position in force


def resolve_term(term: str, jurisdiction: str) -> str:
    """``treatments.own`` as the jurisdiction's own treatment path; any other path as it is."""
    return f"treatments.{jurisdiction}" if term == OWN_TREATMENT else term


def value_choices(term: str) -> tuple[str, ...] | None:
    """The values a term that is not an amount may take (any ``treatments.<code>`` a treatment's); None for an amount."""
    if term.split(".", 1)[0] == "treatments":
        return CHOICES["treatments"]
    return CHOICES.get(term)


def parse_value(term: str, operator: str, value: str):
    """The value a condition holds a term against: a Decimal for an amount, a string for a choice,
    and for ``in`` a tuple of them (comma-separated). Raises ValueError with a sentence for people."""
    raw = [part.strip() for part in value.split(",")] if operator == "in" else [value.strip()]
    allowed = value_choices(term)
    parsed = []
    for part in raw:
        if allowed is None:
            if part.lower() in ("", "none") and term in _OPTIONAL_AMOUNTS and operator in ("eq", "ne", "in"):
                parsed.append(None)
                continue
            # read as the offer form reads amounts: "5,000" and "5 000" are thousands, "0,15" (French) and "0.15" a fraction
            try:
                number = parse_money(part)
            except MoneyError:
                raise ValueError(f"“{part}” is not a number; {term} is an amount, such as 0 or 5000.") from None
            parsed.append(number)
        else:
            if part not in allowed:
                shown = ", ".join(choice or "(none)" for choice in allowed)
                raise ValueError(f"“{part}” is not a value of {term}; use one of: {shown}.")
            parsed.append(part)
    return tuple(parsed) if operator == "in" else parsed[0]


def condition_problems(*, term: str, operator: str, value: str, pt_codes: Iterable[str]) -> dict[str, str]:
    """What is wrong with a check, by the field at fault (``term``, ``operator``, ``value``); empty when it holds.

    A condition in words only (no term, no operator) has nothing to check here.
    """
    if not term and not operator:
        return {}
    problems: dict[str, str] = {}
    paths = set(term_paths(tuple(pt_codes))) | {OWN_TREATMENT}
    if not term:
        problems["term"] = "Name the term this condition checks, or leave the operator empty to keep it in words."
    elif term not in paths:
        problems["term"] = f"“{term}” is not a term of an offer; use a path such as sources.federal.LMA."
    elif term == "phase_in":
        problems["term"] = "The phase-in cannot be checked with one operator; state this condition in words."
    if not operator:
        problems["operator"] = "Choose how the term is checked (eq, ne, le, ge, lt, gt, in)."
    elif operator not in OPERATORS:
        problems["operator"] = f"“{operator}” is not an operator; use one of {', '.join(OPERATORS)}."
    if problems:
        return problems
    if operator in ORDERING_OPERATORS and value_choices(term) is not None:
        problems["operator"] = f"{term} is not an amount: check it with eq, ne or in."
        return problems
    try:
        parse_value(term, operator, value)
    except ValueError as error:
        problems["value"] = str(error)
    return problems


def _compare(operator: str, actual, wanted) -> bool:
    if operator == "eq":
        return actual == wanted
    if operator == "ne":
        return actual != wanted
    if operator == "in":
        return actual in wanted
    if actual is None:  # no minimum employer share is set: no ordering holds
        return False
    return {
        "le": actual <= wanted, "ge": actual >= wanted, "lt": actual < wanted, "gt": actual > wanted,
    }[operator]


def _gap(operator: str, actual, wanted) -> Decimal | None:
    """By how much an amount misses: its distance from what the condition asks."""
    if not isinstance(actual, Decimal) or operator in ("ne", "in") or not isinstance(wanted, Decimal):
        return None
    return abs(actual - wanted)


def check(terms: OfferTerms, condition: Condition, jurisdiction: str) -> Failure | None:
    """None when ``terms`` pass the check, else the failure. The condition must be checkable."""
    term = resolve_term(condition.term, jurisdiction)
    actual = term_value(terms, term)
    if term in SCALAR_PATHS and term not in _NOT_AMOUNTS and actual is not None:
        actual = Decimal(actual)
    wanted = parse_value(condition.term, condition.operator, condition.value)
    if _compare(condition.operator, actual, wanted):
        return None
    return Failure(condition=condition, term=term, actual=actual, gap=_gap(condition.operator, actual, wanted))


def verdict(terms: OfferTerms, stated: Stated | None, *, jurisdiction: str) -> Verdict:
    """The verdict of ``jurisdiction`` on ``terms`` under its position in force (None: no position)."""
    if stated is None:
        return Verdict(jurisdiction=jurisdiction, verdict=UNKNOWN)
    failing, in_words, met = [], [], []
    for condition in stated.conditions:
        if not condition.checkable:
            in_words.append(condition)
            continue
        failure = check(terms, condition, jurisdiction)
        if failure is None:
            met.append(condition)
        else:
            failing.append(failure)
    if failing:
        outcome = FAILS
    elif in_words:
        outcome = UNKNOWN
    elif met or stated.stance == SUPPORTS:
        outcome = MEETS
    else:  # states no condition and does not support: nothing to go on
        outcome = UNKNOWN
    return Verdict(jurisdiction=jurisdiction, verdict=outcome, failing=tuple(failing), in_words=tuple(in_words),
                   met=tuple(met), stated=stated)


def verdicts(terms: OfferTerms, in_force: dict[str, Stated | None], pt_codes: Sequence[str]) -> tuple[Verdict, ...]:
    """One verdict per P/T, in the order of ``pt_codes``."""
    return tuple(verdict(terms, in_force.get(code), jurisdiction=code) for code in pt_codes)


def count_meets(results: Iterable[Verdict]) -> int:
    return sum(1 for result in results if result.verdict == MEETS)


@dataclass(frozen=True)
class Government:
    code: str
    name_en: str
    name_fr: str

    def name_for(self, language: str | None) -> str:
        """The name in ``language`` ("fr", "fr-ca", "en", …): French where it is written, else English."""
        return self.name_fr if (language or "").startswith("fr") and self.name_fr else self.name_en


@dataclass(frozen=True)
class PositionBook:
    """Every position of a negotiation, by P/T, oldest first: what ``in_force`` looks up by date.

    Built once per record version (two queries) and shared, so it is never changed after it is made.
    """

    governments: tuple[Government, ...]  # the 13 P/Ts, in display order
    positions: dict[str, tuple[tuple[object, Stated], ...]]  # code -> ((as_of, stated), ...) by as_of

    def in_force(self, on) -> dict[str, Stated | None]:
        """Each P/T's position in force on the date ``on``: its latest with ``as_of <= on`` (None: none yet)."""
        found: dict[str, Stated | None] = {}
        for government in self.governments:
            latest = None
            for as_of, stated in self.positions.get(government.code, ()):
                if as_of > on:
                    break
                latest = stated
            found[government.code] = latest
        return found

    @functools.cached_property
    def checked_terms(self) -> tuple[str, ...]:
        """Every term path some condition checks (``treatments.own`` resolved): the only terms a verdict reads."""
        return tuple(sorted({
            resolve_term(condition.term, code)
            for code, dated in self.positions.items() for _as_of, stated in dated
            for condition in stated.conditions if condition.checkable
        }))

    def judge(self, terms: OfferTerms, on) -> tuple[Verdict, ...]:
        """Each P/T's verdict on ``terms`` tabled on the date ``on``."""
        return verdicts(terms, self.in_force(on), [g.code for g in self.governments])
