"""Concessions round by round: each term's value offer by offer, for Ottawa's offers and the provinces'
and territories' counter-proposals, what each side moved and when, and the gap between their latest offers.

Pure Python (no Django): ``negotiations.selectors.verdicts``-style readers pass the offers in as ``Round``s.
A side's move on a term is a *concession* when it brings the term closer to the other side's latest
offer, a *hardening* when it takes it further away, and otherwise just a move.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from negotiations.terms import OfferTerms, term_paths, term_value

FEDERAL = "federal"
PROVINCES = "provinces"  # the P/Ts' counter-proposals
PARTIES = (FEDERAL, PROVINCES)

CONCEDED = "conceded"
HARDENED = "hardened"
MOVED = "moved"


@dataclass(frozen=True)
class Round:
    """One offer of the negotiation, as a round: who tabled it, when, and its terms."""

    slug: str
    title: str
    tabled_on: object
    party: str
    terms: OfferTerms


@dataclass(frozen=True)
class Value:
    offer: str
    tabled_on: object
    party: str
    value: object  # Decimal, str, None, or for phase_in a tuple of pairs


@dataclass(frozen=True)
class TermRounds:
    term: str
    rounds: tuple[Value, ...]
    numeric: bool

    def of(self, party: str) -> tuple[Value, ...]:
        return tuple(value for value in self.rounds if value.party == party)


@dataclass(frozen=True)
class Move:
    """A side changing one term from its previous offer to the next."""

    party: str
    term: str
    offer: str
    tabled_on: object
    before: object
    after: object
    kind: str  # conceded, hardened or moved


@dataclass(frozen=True)
class Gap:
    term: str
    federal: object
    provinces: object


@dataclass(frozen=True)
class Concessions:
    terms: tuple[TermRounds, ...]
    moves: tuple[Move, ...]
    latest: dict  # party -> Round (its latest offer), for the parties that have tabled one
    gaps: tuple[Gap, ...]  # terms on which the two sides' latest offers differ

    def moves_of(self, party: str) -> tuple[Move, ...]:
        return tuple(move for move in self.moves if move.party == party)


def is_amount(path: str) -> bool:
    """Whether a term is a number (drawn as a step chart) rather than a choice or the phase-in."""
    return path not in ("small_employer_gap_payer", "shortfall_liability", "phase_in") and not path.startswith(
        "treatments.")


def _numeric(value) -> bool:
    return isinstance(value, Decimal)


def _distance(a, b):
    """How far apart two values of a term are: a number for amounts, 0 or 1 for anything else."""
    if _numeric(a) and _numeric(b):
        return abs(a - b)
    return 0 if a == b else 1


def _phase_in_distance(a, b):
    """How far apart two phase-ins are: over every year either names, how much the share of the full scale
    differs (a year before a phase-in's first is at 0, after its last at 1; no phase-in is full scale every year).
    A slower start is then closer to a slower one: November's phase-in came closer to the provinces' longer one,
    where every change of a phase-in read as a mere move."""
    years = sorted({year for year, _share in (a or ())} | {year for year, _share in (b or ())})
    return sum(abs(_share_in(a, year) - _share_in(b, year)) for year in years)


def _share_in(phase_in, year: str) -> Decimal:
    if not phase_in:
        return Decimal(1)
    steps = dict(phase_in)
    if year in steps:
        return Decimal(steps[year])
    return Decimal(0) if year < min(steps) else Decimal(1)


def _kind(before, after, target, distance=_distance) -> str:
    if target is None:
        return MOVED
    was, now = distance(before, target), distance(after, target)
    if now < was:
        return CONCEDED
    if now > was:
        return HARDENED
    return MOVED


def concessions(rounds: Sequence[Round], pt_codes: Sequence[str]) -> Concessions:
    """The concessions of a negotiation whose offers are ``rounds`` (oldest first)."""
    rounds = sorted(rounds, key=lambda r: (r.tabled_on, r.slug))
    latest = {}
    for entry in rounds:
        latest[entry.party] = entry
    paths = term_paths(pt_codes)
    terms = []
    moves = []
    for path in paths:
        values = tuple(Value(r.slug, r.tabled_on, r.party, term_value(r.terms, path)) for r in rounds)
        terms.append(TermRounds(path, values, is_amount(path)))
        for party in PARTIES:
            own = [v for v in values if v.party == party]
            other = next((p for p in PARTIES if p != party), None)
            target = term_value(latest[other].terms, path) if other in latest else None
            for previous, current in zip(own, own[1:]):
                if previous.value != current.value:
                    moves.append(Move(party, path, current.offer, current.tabled_on, previous.value, current.value,
                                      _kind(previous.value, current.value, target,
                                            _phase_in_distance if path == "phase_in" else _distance)))
    moves.sort(key=lambda m: (m.tabled_on, paths.index(m.term)))
    gaps = ()
    if len(latest) == len(PARTIES):
        gaps = tuple(
            Gap(path, term_value(latest[FEDERAL].terms, path), term_value(latest[PROVINCES].terms, path))
            for path in paths
            if term_value(latest[FEDERAL].terms, path) != term_value(latest[PROVINCES].terms, path)
        )
    return Concessions(terms=tuple(terms), moves=tuple(moves), latest=latest, gaps=gaps)
