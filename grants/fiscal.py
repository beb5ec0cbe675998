"""The fiscal engine: what a Canada Job Grant offer costs whom, and out of which program.

Pure Python on purpose (no Django): frozen dataclasses in, frozen dataclasses
out, ``Decimal`` for every amount of money. Money is rounded in exactly one
place, :func:`money` (to the cent, banker's rounding); whole units (trainees,
LMA dollars) are shared out with :func:`grants.allocation.largest_remainder`.

How an offer becomes numbers
----------------------------
Scale.
    Each trainee costs the scale's program a fixed amount: what the federal
    sources plus the provincial sources take from that program per trainee.
    The number of trainees in the country is the scale amount (times the
    phase-in fraction of the fiscal year) divided by that per-trainee draw,
    rounded down to whole trainees. Terms whose sources take nothing from the
    scale's program cannot set a number of trainees and are refused.

Sharing out.
    The national trainees are shared over all 13 provinces and territories
    (P/Ts) by population, in whole trainees, largest remainder first (ties go
    to the larger population, then to the earlier P/T). A P/T that opts out
    with compensation then has no trainees and nothing is taken from it; its
    share is not handed to the others, since it simply keeps its own transfer.
    Every national line is the sum of the P/T lines, so the parts always add
    up to the whole.

P/T lines.
    Each money line is the P/T's trainees times a per-trainee amount, all in
    whole cents, so each product is exact. Payers: federal, provincial and
    employer costs. Programs: ``lma_diverted`` counts draws on the LMA and on
    the CJF (the fund that replaced the LMA with the same per-capita
    transfer), from either government; ``lmda_redirected`` counts LMDA draws;
    ``provincial_new_money`` counts the provincial draw on the P/T's own
    revenue. Where Ottawa delivers the grant itself (federal direct), the P/T
    pays nothing: Ottawa also pays the provincial portion, from new federal
    money, and only the federal draws (and the diversion they cause) happen.

LMA.
    Each P/T's LMA allocation is the LMA envelope shared by population to
    the dollar (largest remainder). What remains for its current programs is
    the allocation less the diversion, never below zero. When a small P/T's
    rounding makes the diversion exceed its allocation, the excess is not
    lost: ``lma_diverted`` keeps the full amount and ``provinces_need``
    counts all of it. A P/T that opts out keeps its whole allocation.

What the P/Ts must find.
    ``provinces_need`` is the new P/T money plus the backfill of everything
    diverted from the LMA, i.e. what a P/T needs to keep its LMA programs
    running and pay its share of the grant. When the P/T is liable for the
    employer shortfall, the liability is paid from its own revenue, so it is
    already inside ``provincial_new_money`` and is counted once, not twice.

Employer participation.
    At participation rate p the employers put in only p of what is expected.
    The shortfall is the expected employer money times (1 - p), to the cent,
    per P/T. Who carries it depends on the terms:

    * the province: it becomes the P/T's liability, is added to its cost and
      paid from its own revenue; a P/T where Ottawa delivers cannot be liable,
      so Ottawa pays it there;
    * Ottawa: added to the federal cost, from new federal money;
    * nobody: fewer grants are made; the P/T's trainees are its allocated
      trainees times p rounded down, every flow line follows them, and the
      shortfall is the employer money of the grants not made.

    In every case federal + provincial + employer cost equals trainees times
    the maximum grant, and each government's program draws add up to its
    cost (see :attr:`Lines.draws`).

Phase-in.
    An optional schedule gives the fraction of the full scale for each fiscal
    year. Without a requested year, the first year at full scale is used (or
    the last year of the schedule if none reaches it). A year before the
    schedule has fraction 0; a later year, or one between two listed years,
    takes the fraction of the latest listed year before it. Every listed year
    is computed and their national lines are summed.

Small employers.
    With a minimum employer share, the employer's amount at that minimum is
    the share of the maximum grant (to the cent); the gap down from the
    regular employer amount is covered by the named government, or by nobody
    (the grant is that much smaller). It is reported per trainee and does not
    change the lines.

Every number can be explained: :meth:`Effect.explain` returns a
:class:`Trace` naming the formula and its inputs. Traces are built on demand
from what the computation kept, so computing stays cheap.

Terms
-----
The engine takes an offer's terms as ``negotiations.terms.OfferTerms`` (the one
value object for them) and speaks its vocabulary (``Program``, ``Payer``,
``Treatment``, ``Liability``). The user-facing rules are
``negotiations.terms.check_terms``'s; :func:`validate_terms` applies them, then
adds only what the engine's own arithmetic needs. :class:`_Plan` is the one
place that reads an ``OfferTerms``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Context, Decimal, DivisionByZero, InvalidOperation, Overflow, localcontext
from functools import lru_cache, wraps

from negotiations.terms import (
    FISCAL_YEAR,
    FUNDING_SOURCES,
    GovernmentPayer,
    Liability,
    OfferTerms,
    Payer,
    Program,
    TermsProblem,
    Treatment,
)

from .allocation import largest_remainder

__all__ = [
    "CENT",
    "DRAW_KEYS",
    "LINE_NAMES",
    "MONEY_ROUNDING",
    "Comparison",
    "Effect",
    "InvalidScenario",
    "InvalidTerms",
    "Jurisdiction",
    "Liability",
    "Lines",
    "Payer",
    "Program",
    "ReferenceData",
    "Scenario",
    "SmallEmployerGap",
    "Trace",
    "Treatment",
    "YearEffect",
    "compare",
    "compute",
    "money",
    "status_quo",
    "validate_terms",
]

# ---------------------------------------------------------------------------
# Rounding: the one place where money is rounded.

CENT = Decimal("0.01")
MONEY_ROUNDING = ROUND_HALF_EVEN


def money(amount: Decimal | int) -> Decimal:
    """Return ``amount`` in whole cents (banker's rounding), the engine's only money rounding."""
    return Decimal(amount).quantize(CENT, rounding=MONEY_ROUNDING)


# The engine's arithmetic runs in its own context so that a caller's Decimal settings (a lower
# precision, say) cannot round a product silently: with 60 digits every product of a per-trainee
# amount and a count of trainees is exact, and anything odd raises instead of rounding.
_ARITHMETIC = Context(prec=60, rounding=MONEY_ROUNDING, traps=[InvalidOperation, DivisionByZero, Overflow])


def _exact(function):
    """Run ``function`` in the engine's own Decimal context."""

    @wraps(function)
    def in_context(*args, **kwargs):
        with localcontext(_ARITHMETIC):
            return function(*args, **kwargs)

    return in_context


_ZERO = Decimal("0.00")
_ONE = Decimal(1)


# ---------------------------------------------------------------------------
# Vocabulary: negotiations.terms' (Program, Payer, Treatment, Liability), and the engine's lines.

LINE_NAMES: tuple[str, ...] = (
    "trainees",
    "federal_cost",
    "provincial_cost",
    "employer_cost",
    "lma_diverted",
    "lmda_redirected",
    "provincial_new_money",
    "lma_allocation",
    "lma_remaining",
    "provinces_need",
    "employer_shortfall",
    "provincial_liability",
)

# The (payer, program) pairs a government can draw on, in the order of Lines.draws.
# Ottawa cannot spend a P/T's own revenue, nor a P/T new federal money.
DRAW_KEYS: tuple[tuple[Payer, Program], ...] = (
    (Payer.FEDERAL, Program.LMA),
    (Payer.FEDERAL, Program.LMDA),
    (Payer.FEDERAL, Program.CJF),
    (Payer.FEDERAL, Program.FEDERAL_NEW),
    (Payer.PROVINCIAL, Program.LMA),
    (Payer.PROVINCIAL, Program.LMDA),
    (Payer.PROVINCIAL, Program.CJF),
    (Payer.PROVINCIAL, Program.PT_OWN),
)
_DRAW_PAYERS = tuple(payer for payer, _ in DRAW_KEYS)
_DRAW_PROGRAMS = tuple(program for _, program in DRAW_KEYS)
_FEDERAL_NEW_AT = DRAW_KEYS.index((Payer.FEDERAL, Program.FEDERAL_NEW))
_PT_OWN_AT = DRAW_KEYS.index((Payer.PROVINCIAL, Program.PT_OWN))
_LMA_LIKE_AT = tuple(i for i, (_, program) in enumerate(DRAW_KEYS) if program in (Program.LMA, Program.CJF))
_LMDA_AT = tuple(i for i, (_, program) in enumerate(DRAW_KEYS) if program is Program.LMDA)
# The lines that sum program draws: (line, the DRAW_KEYS positions it sums, those draws in words).
_DRAW_LINES = (
    ("lma_diverted", _LMA_LIKE_AT, "draws on the LMA and the CJF"),
    ("lmda_redirected", _LMDA_AT, "draws on the LMDA"),
    ("provincial_new_money", (_PT_OWN_AT,), "provincial draw on its own revenue"),
)
_NO_DRAWS = (_ZERO,) * len(DRAW_KEYS)


# ---------------------------------------------------------------------------
# Inputs


@dataclass(frozen=True, kw_only=True)
class Jurisdiction:
    """A province or territory and the population its shares are computed from."""

    code: str
    population: int


@dataclass(frozen=True, kw_only=True)
class ReferenceData:
    """The 13 P/Ts (in display order) and the national envelope of each transfer program."""

    jurisdictions: tuple[Jurisdiction, ...]
    envelopes: tuple[tuple[Program, Decimal], ...]

    def __post_init__(self) -> None:
        codes = [j.code for j in self.jurisdictions]
        if len(set(codes)) != len(codes):
            raise ValueError("jurisdiction codes must be unique")
        for j in self.jurisdictions:
            if isinstance(j.population, bool) or not isinstance(j.population, int) or j.population < 0:
                raise ValueError(f"population of {j.code} must be a non-negative int")
        if not sum(j.population for j in self.jurisdictions):
            raise ValueError("there must be at least one province or territory with a population")
        for program, amount in self.envelopes:
            if _as_enum(Program, program) is None:
                raise ValueError(f"{program!r} is not a program")
            if not isinstance(amount, (int, Decimal)) or isinstance(amount, bool) or amount < 0:
                raise ValueError(f"the envelope of {program} must be a non-negative Decimal")
        lma = self.envelope(Program.LMA)
        if lma is not None and lma != lma.to_integral_value():
            raise ValueError("the LMA envelope must be whole dollars: it is shared out to the dollar")

    def envelope(self, program: Program) -> Decimal | None:
        """Return the national annual envelope of ``program``, or None when it has none."""
        for listed, amount in self.envelopes:
            if listed == program:
                return Decimal(amount)
        return None


@dataclass(frozen=True, kw_only=True)
class Scenario:
    """Assumptions chosen by the reader, not part of the offer."""

    participation: Decimal = Decimal(1)
    fiscal_year: str | None = None  # None: the year the offer reaches full scale


# ---------------------------------------------------------------------------
# Errors


class InvalidTerms(ValueError):
    """Terms that do not add up; ``errors`` lists every problem found, each naming the OfferTerms field."""

    def __init__(self, errors: list[TermsProblem]) -> None:
        self.errors = list(errors)
        super().__init__("; ".join(f"{e.field}: {e.message}" for e in self.errors))

    @property
    def fields(self) -> tuple[str, ...]:
        """The names of the fields at fault, in the order found."""
        return tuple(e.field for e in self.errors)


class InvalidScenario(ValueError):
    """A scenario assumption out of range; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


# ---------------------------------------------------------------------------
# Outputs


@dataclass(frozen=True, slots=True, kw_only=True)
class Lines:
    """The output lines of one P/T (``code``) or of the country (``code`` None)."""

    code: str | None
    trainees: int
    federal_cost: Decimal
    provincial_cost: Decimal
    employer_cost: Decimal
    lma_diverted: Decimal
    lmda_redirected: Decimal
    provincial_new_money: Decimal
    lma_allocation: Decimal
    lma_remaining: Decimal
    provinces_need: Decimal
    employer_shortfall: Decimal
    provincial_liability: Decimal
    # (payer, program, amount) for every pair of DRAW_KEYS, in that order.
    draws: tuple[tuple[Payer, Program, Decimal], ...] = ()

    def as_dict(self) -> dict[str, int | Decimal]:
        """Return the twelve lines by name, in LINE_NAMES order (without ``code`` or draws)."""
        return {name: getattr(self, name) for name in LINE_NAMES}

    def draw(self, payer: Payer, program: Program) -> Decimal:
        """Return what ``payer`` takes from ``program`` (zero when it takes nothing)."""
        for listed_payer, listed_program, amount in self.draws:
            if listed_payer == payer and listed_program == program:
                return amount
        return _ZERO


@dataclass(frozen=True, slots=True, kw_only=True)
class SmallEmployerGap:
    """Per trainee: the employer's amount at the minimum share, the gap it opens and who covers it."""

    employer_minimum: Decimal
    gap: Decimal
    covered_by: Payer | None  # None: nobody, the grant is smaller by the gap


@dataclass(frozen=True, slots=True, kw_only=True)
class Trace:
    """How one number was obtained: the formula in words and its named inputs."""

    line: str
    code: str | None
    value: int | Decimal
    formula: str
    inputs: tuple[tuple[str, object], ...]

    def __str__(self) -> str:
        where = self.code or "national"
        named = ", ".join(f"{name} = {value}" for name, value in self.inputs)
        return f"{self.line} ({where}) = {self.value}: {self.formula} [{named}]"


class _Explains:
    """Shared by Effect and YearEffect: explain any line from the kept context."""

    __slots__ = ()

    def explain(self, line: str, code: str | None = None) -> Trace:
        """Return the trace of ``line`` for P/T ``code``, or nationally when ``code`` is None."""
        return _explain(self._context, line, code)


@dataclass(frozen=True, kw_only=True)
class YearEffect(_Explains):
    """The effect in one fiscal year of a phase-in."""

    fiscal_year: str
    fraction: Decimal
    national: Lines
    by_jurisdiction: tuple[Lines, ...]
    _context: _Context = field(repr=False, compare=False)


@dataclass(frozen=True, kw_only=True)
class Effect(_Explains):
    """The fiscal effect of an offer (or of the status quo) under a scenario."""

    national: Lines
    by_jurisdiction: tuple[Lines, ...]
    scenario: Scenario  # as resolved: the participation and fiscal year actually used
    fraction: Decimal  # the share of the full scale applied in that year
    scale_trainees: int  # national trainees before opt-outs and participation
    years: tuple[YearEffect, ...]
    multi_year_total: Lines | None
    small_employer_gap: SmallEmployerGap | None
    _context: _Context = field(repr=False, compare=False)

    def jurisdiction(self, code: str) -> Lines:
        """Return the lines of P/T ``code``."""
        return self.by_jurisdiction[self._context.plan.index_of(code)]


@dataclass(frozen=True, kw_only=True)
class Comparison:
    """Offer ``b`` against offer ``a``: every line of b minus the same line of a."""

    a: Effect
    b: Effect
    national: Lines
    by_jurisdiction: tuple[Lines, ...]


# ---------------------------------------------------------------------------
# Validation


@_exact
def validate_terms(terms: OfferTerms, reference: ReferenceData | None = None) -> list[TermsProblem]:
    """Return every problem with ``terms`` (empty when valid), each naming the OfferTerms field at fault.

    First what the engine's arithmetic cannot work with at all (amounts that are not exact
    numbers in whole cents), then the user-facing rules of ``negotiations.terms.check_terms``
    (the split and each payer's sources add up, ...), then the engine's own invariants: each
    term in the vocabulary, a well-formed phase-in, and with ``reference``, the scale within
    its program's envelope and treatments that name known P/Ts. Each stage runs only when the
    one before found nothing, so people see the rules they know first.
    """
    errors: list[TermsProblem] = []

    def fail(field_name: str, message: str) -> None:
        errors.append(TermsProblem(field_name, message))

    for name in ("max_grant", "federal_amount", "provincial_amount", "employer_amount", "scale_amount"):
        problem = _money_problem(getattr(terms, name))
        if problem:
            fail(name, problem)
    for row in _rows(terms.sources, FUNDING_SOURCES, 3, "(payer, program, amount)", fail)[0]:
        problem = _money_problem(row[2])
        if problem:
            fail(FUNDING_SOURCES, f"the amount from {row[1]} {problem}")
    if terms.employer_min_share is not None:
        problem = _decimal_problem(terms.employer_min_share)
        if problem:
            fail("employer_min_share", problem)
    if errors:
        return errors

    errors.extend(terms.problems())
    if errors:
        return errors

    scale_program = _as_enum(Program, terms.scale_program)
    if scale_program is None:
        fail("scale_program", f"{terms.scale_program!r} is not a program")
    elif reference is not None:
        envelope = reference.envelope(scale_program)
        if envelope is not None and terms.scale_amount > envelope:
            fail("scale_amount", f"{terms.scale_amount} is more than the {scale_program} envelope of {envelope}")
    if terms.small_employer_gap_payer and _as_enum(GovernmentPayer, terms.small_employer_gap_payer) is None:
        fail("small_employer_gap_payer", f"must be federal, provincial or none (got {terms.small_employer_gap_payer!r})")
    if _as_enum(Liability, terms.shortfall_liability) is None:
        fail("shortfall_liability", f"{terms.shortfall_liability!r} is not province, federal or none")
    _check_treatments(terms.treatments, reference, fail)
    _check_phase_in(terms.phase_in, fail)
    return errors


def _decimal_problem(value: object) -> str | None:
    """Say why ``value`` is not an exact finite number, or return None."""
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        # Floats are refused: they cannot hold most cents exactly.
        return f"must be a Decimal or an int, not {type(value).__name__}"
    if isinstance(value, Decimal) and not value.is_finite():
        return "must be a finite number"
    return None


def _money_problem(value: object) -> str | None:
    """Say why ``value`` is not an amount of money in whole cents, or return None."""
    problem = _decimal_problem(value)
    if problem:
        return problem
    try:
        if money(value) != value:
            return f"must be in whole cents (got {value})"
    except InvalidOperation:
        return f"is too large (got {value})"
    return None


def _as_enum(kind, value):
    """Return ``value`` as a member of the enum ``kind``, or None when it is not one."""
    try:
        return kind(value)
    except (ValueError, TypeError):
        return None


def _check_treatments(entries, reference, fail) -> None:
    known = None if reference is None else {j.code for j in reference.jurisdictions}
    seen: set[str] = set()
    for code, treatment in _rows(entries, "treatments", 2, "(code, treatment)", fail)[0]:
        if _as_enum(Treatment, treatment) is None:
            fail("treatments", f"{treatment!r} is not a treatment (for {code})")
        if not isinstance(code, str):
            fail("treatments", f"{code!r} is not a province or territory code")
            continue
        if code in seen:
            fail("treatments", f"{code} is listed more than once")
        seen.add(code)
        if known is not None and code not in known:
            fail("treatments", f"{code!r} is not a known province or territory")


def _check_phase_in(entries, fail) -> None:
    seen: set[str] = set()
    for year, fraction in _rows(entries, "phase_in", 2, "(fiscal year, fraction)", fail)[0]:
        problem = _fiscal_year_problem(year)
        if problem:
            fail("phase_in", problem)
        elif year in seen:
            fail("phase_in", f"{year} is listed more than once")
        else:
            seen.add(year)
        problem = _decimal_problem(fraction)
        if problem:
            fail("phase_in", f"the fraction for {year} {problem}")
        elif not 0 <= fraction <= 1:
            fail("phase_in", f"the fraction for {year} must be between 0 and 1 (got {fraction})")


def _rows(entries, field_name: str, size: int, shape: str, fail) -> tuple[list[tuple], bool]:
    """Return the well-formed rows (tuples of ``size``) of ``entries`` and whether all were, reporting the others."""
    rows = []
    well_formed = True
    try:
        for entry in entries:
            row = tuple(entry) if isinstance(entry, (tuple, list)) else ()
            if len(row) == size:
                rows.append(row)
            else:
                well_formed = False
    except TypeError:
        well_formed = False
    if not well_formed:
        fail(field_name, f"must be a list of {shape} {'pairs' if size == 2 else 'rows'}")
    return rows, well_formed


# The fiscal years a scenario may name: those that start within the record's dates (1900 to 2100).
FIRST_FISCAL_YEAR, LAST_FISCAL_YEAR = 1900, 2100


def _fiscal_year_problem(year: object) -> str | None:
    """Say why ``year`` is not a fiscal year such as "2014-15", or return None."""
    match = FISCAL_YEAR.fullmatch(year) if isinstance(year, str) else None
    if match is None:
        return f"{year!r} is not a fiscal year written like 2014-15"
    if (int(match[1]) + 1) % 100 != int(match[2]):
        return f"{year!r} does not span two consecutive years"
    if not FIRST_FISCAL_YEAR <= int(match[1]) <= LAST_FISCAL_YEAR:
        first, last = (f"{start}-{(start + 1) % 100:02d}" for start in (FIRST_FISCAL_YEAR, LAST_FISCAL_YEAR))
        return f"{year!r} is not a year of the record: from {first} to {last}"
    return None


def _check_scenario(scenario: Scenario) -> Decimal:
    """Return the participation rate as a Decimal, raising InvalidScenario when out of range."""
    participation = scenario.participation
    problem = _decimal_problem(participation)
    if problem:
        raise InvalidScenario("participation", problem)
    if not 0 <= participation <= 1:
        raise InvalidScenario("participation", f"must be between 0 and 1 (got {participation})")
    if scenario.fiscal_year is not None:
        problem = _fiscal_year_problem(scenario.fiscal_year)
        if problem:
            raise InvalidScenario("fiscal_year", problem)
    return Decimal(participation)


# ---------------------------------------------------------------------------
# Computation


@_exact
def compute(terms: OfferTerms, reference: ReferenceData, scenario: Scenario | None = None) -> Effect:
    """Return the fiscal effect of ``terms`` for every P/T of ``reference`` under ``scenario``.

    Raises :class:`InvalidTerms` when :func:`validate_terms` finds problems and
    :class:`InvalidScenario` for a participation outside 0..1 or a badly
    written fiscal year.
    """
    errors = validate_terms(terms, reference)
    if errors:
        raise InvalidTerms(errors)
    scenario = Scenario() if scenario is None else scenario
    participation = _check_scenario(scenario)
    plan = _Plan(terms, reference, participation)

    schedule = plan.schedule
    fiscal_year, fraction = _resolve_year(schedule, scenario.fiscal_year)
    runs: dict[Decimal, _Run] = {}  # years at the same fraction share one computation

    def run_at(at: Decimal) -> _Run:
        if at not in runs:
            runs[at] = plan.run(at)
        return runs[at]

    current = run_at(fraction)
    years = tuple(
        YearEffect(
            fiscal_year=year,
            fraction=at,
            national=run_at(at).national,
            by_jurisdiction=run_at(at).by_jurisdiction,
            _context=_Context(plan, run_at(at)),
        )
        for year, at in schedule
    )
    multi_year_total = _sum_lines(None, [year.national for year in years]) if years else None

    return Effect(
        national=current.national,
        by_jurisdiction=current.by_jurisdiction,
        scenario=Scenario(participation=participation, fiscal_year=fiscal_year),
        fraction=fraction,
        scale_trainees=current.scale_trainees,
        years=years,
        multi_year_total=multi_year_total,
        small_employer_gap=plan.small_employer_gap,
        _context=_Context(plan, current),
    )


@_exact
def status_quo(reference: ReferenceData, scenario: Scenario | None = None) -> Effect:
    """Return the LMA as it is, with no grant: no trainees, every P/T keeps its allocation."""
    scenario = Scenario() if scenario is None else scenario
    participation = _check_scenario(scenario)
    plan = _Plan(None, reference, participation)
    current = plan.run(Decimal(0))
    return Effect(
        national=current.national,
        by_jurisdiction=current.by_jurisdiction,
        scenario=Scenario(participation=participation, fiscal_year=scenario.fiscal_year),
        fraction=Decimal(0),
        scale_trainees=0,
        years=(),
        multi_year_total=None,
        small_employer_gap=None,
        _context=_Context(plan, current),
    )


@_exact
def compare(a: Effect, b: Effect) -> Comparison:
    """Return ``b - a`` on every line, nationally and for each P/T (same P/Ts in the same order)."""
    codes_a = [lines.code for lines in a.by_jurisdiction]
    codes_b = [lines.code for lines in b.by_jurisdiction]
    if codes_a != codes_b:
        raise ValueError("cannot compare effects computed over different provinces and territories")
    return Comparison(
        a=a,
        b=b,
        national=_difference(a.national, b.national),
        by_jurisdiction=tuple(_difference(x, y) for x, y in zip(a.by_jurisdiction, b.by_jurisdiction)),
    )


def _resolve_year(schedule: tuple[tuple[str, Decimal], ...], requested: str | None) -> tuple[str | None, Decimal]:
    """Return the fiscal year to use and its fraction of the full scale."""
    if not schedule:
        return requested, _ONE
    if requested is None:
        for year, fraction in schedule:
            if fraction == 1:
                return year, fraction
        return schedule[-1]
    # "YYYY-YY" strings sort in calendar order, so a string comparison finds the step.
    fraction = Decimal(0)
    for year, listed in schedule:
        if year > requested:
            break
        fraction = listed
    return requested, fraction


@lru_cache(maxsize=32)
def _lma_allocation(envelope: int, populations: tuple[int, ...]) -> tuple[Decimal, ...]:
    """The envelope shared by population to the dollar; cached since it rarely changes."""
    return tuple(money(dollars) for dollars in largest_remainder(envelope, populations))


@dataclass(frozen=True, slots=True)
class _Rates:
    """Per-trainee amounts for one treatment."""

    federal: Decimal
    provincial: Decimal
    draws: tuple[Decimal, ...]  # in DRAW_KEYS order
    # How each cost follows from the trainees: (formula, per-trainee inputs); None when the payer pays nothing.
    federal_why: tuple[str, tuple]
    provincial_why: tuple[str, tuple] | None


@dataclass(frozen=True, slots=True)
class _Run:
    """The result at one fraction of the full scale."""

    fraction: Decimal
    scale_trainees: int
    allocated: tuple[int, ...]  # each P/T's population share of scale_trainees
    national: Lines
    by_jurisdiction: tuple[Lines, ...]


class _Plan:
    """Everything about an offer and the reference data that does not depend on the year.

    The one place that reads an offer's terms (``OfferTerms``, checked by validate_terms): each
    amount in cents, each payer's sources by program, the choices as the vocabulary's members.
    """

    def __init__(self, terms: OfferTerms | None, reference: ReferenceData, participation: Decimal) -> None:
        self.terms = terms
        self.codes = tuple(j.code for j in reference.jurisdictions)
        self.populations = tuple(j.population for j in reference.jurisdictions)
        self.total_population = sum(self.populations)
        self.lma_envelope = reference.envelope(Program.LMA) or Decimal(0)
        self.lma_allocation = _lma_allocation(int(self.lma_envelope), self.populations)
        self.participation = participation
        self.full_participation = participation == 1
        self.participation_num, self.participation_den = participation.as_integer_ratio()
        self.unpaid = _ONE - participation
        if terms is None:
            return

        self.max_grant = money(terms.max_grant)
        self.federal = money(terms.federal_amount)
        self.provincial = money(terms.provincial_amount)
        self.employer = money(terms.employer_amount)
        federal_sources = {Program(p): money(a) for payer, p, a in terms.sources if payer == Payer.FEDERAL}
        provincial_sources = {Program(p): money(a) for payer, p, a in terms.sources if payer == Payer.PROVINCIAL}
        self.scale_program = Program(terms.scale_program)
        self.scale_amount = money(terms.scale_amount)
        self.scale_draw = federal_sources.get(self.scale_program, _ZERO) + provincial_sources.get(
            self.scale_program, _ZERO
        )
        self.liability = Liability(terms.shortfall_liability)
        chosen = {code: Treatment(t) for code, t in terms.treatments}
        self.treatments = tuple(chosen.get(code, Treatment.PARTICIPATES) for code in self.codes)

        federal_draws = [federal_sources.get(program, _ZERO) for payer, program in DRAW_KEYS if payer is Payer.FEDERAL]
        provincial_draws = [
            provincial_sources.get(program, _ZERO) for payer, program in DRAW_KEYS if payer is Payer.PROVINCIAL
        ]
        direct_draws = federal_draws + [_ZERO] * len(provincial_draws)
        # Delivering directly, Ottawa pays the provincial portion with new money.
        direct_draws[_FEDERAL_NEW_AT] += self.provincial
        federal, provincial = ("per-trainee federal amount", self.federal), ("per-trainee provincial amount", self.provincial)
        self.rates = {
            Treatment.PARTICIPATES: _Rates(
                self.federal, self.provincial, tuple(federal_draws + provincial_draws),
                federal_why=("trainees × per-trainee federal amount", (federal,)),
                provincial_why=("trainees × per-trainee provincial amount", (provincial,)),
            ),
            Treatment.FEDERAL_DIRECT: _Rates(
                self.federal + self.provincial, _ZERO, tuple(direct_draws),
                federal_why=("trainees × (per-trainee federal amount + per-trainee provincial amount)",
                             (federal, provincial)),
                provincial_why=None,
            ),
        }
        self.schedule = tuple(sorted((year, Decimal(fraction)) for year, fraction in terms.phase_in))
        self.small_employer_gap = None
        if terms.employer_min_share is not None:
            minimum = money(Decimal(terms.employer_min_share) * self.max_grant)
            gap_payer = terms.small_employer_gap_payer
            self.small_employer_gap = SmallEmployerGap(
                employer_minimum=minimum,
                gap=self.employer - minimum if self.employer > minimum else _ZERO,
                covered_by=Payer(gap_payer) if gap_payer else None,
            )

    def index_of(self, code: str) -> int:
        try:
            return self.codes.index(code)
        except ValueError:
            raise ValueError(f"{code!r} is not one of the provinces and territories") from None

    # Each method below computes lines and, when given ``why`` (a dict), also puts there each
    # line's formula in words and its named inputs, from the very branch that computes it: a
    # trace says what was done. Computing passes no ``why`` and pays only for testing it.

    def scale_trainees(self, fraction: Decimal, why: dict | None = None) -> int:
        """The national trainees at ``fraction`` of the full scale."""
        # floor(scale × fraction ÷ draw) in exact integer arithmetic: no precision limit can bias it.
        s_num, s_den = self.scale_amount.as_integer_ratio()
        f_num, f_den = fraction.as_integer_ratio()
        d_num, d_den = self.scale_draw.as_integer_ratio()
        trainees = (s_num * f_num * d_den) // (s_den * f_den * d_num)
        if why is not None:
            draw_on = f"per-trainee draw on {self.scale_program}"
            why["trainees"] = (
                f"national trainees = ⌊scale amount × phase-in fraction ÷ {draw_on}⌋, shared by population",
                [("scale amount", self.scale_amount), ("phase-in fraction", fraction), (draw_on, self.scale_draw),
                 ("national trainees", trainees)],
            )  # fmt: skip
        return trainees

    def run(self, fraction: Decimal) -> _Run:
        """Compute every P/T's lines at ``fraction`` of the full scale, and their sums."""
        if self.terms is None:
            return self._run_status_quo()
        scale_trainees = self.scale_trainees(fraction)
        allocated = largest_remainder(scale_trainees, self.populations)
        rows = []
        draw_rows = []
        for index, share in enumerate(allocated):
            values, draws = self.jurisdiction(index, share, scale_trainees)
            rows.append(values)
            draw_rows.append(draws)
        # National lines are column sums of the P/T lines: the parts add up by construction.
        return _Run(
            fraction=fraction,
            scale_trainees=scale_trainees,
            allocated=allocated,
            national=_make_lines(None, _line_sums(rows), _draw_sums(draw_rows)),
            by_jurisdiction=tuple(map(_make_lines, self.codes, rows, draw_rows)),
        )

    def jurisdiction(self, index: int, share: int, scale_trainees: int, why: dict | None = None) -> tuple:
        """P/T ``index``'s values (LINE_NAMES order) and draws (DRAW_KEYS order), allocated ``share``
        of the ``scale_trainees`` national trainees."""
        lma_allocation = self.lma_allocation[index]
        treatment = self.treatments[index]
        if treatment is Treatment.OPTS_OUT_COMPENSATED:
            if why is not None:
                no_grant = "0 (opts out with compensation: keeps its transfer, no grant)"
                why.update((line, (no_grant, [("treatment", treatment.value)])) for line in LINE_NAMES)
                why["trainees"] = (no_grant, [("treatment", treatment.value),
                                              ("trainees allocated by population before opting out", share)])
                why["lma_allocation"] = self._lma_allocation_why(index)
                why["lma_remaining"] = ("LMA allocation (opts out with compensation: keeps its transfer)",
                                        [("LMA allocation", lma_allocation)])
            return (0, _ZERO, _ZERO, _ZERO, _ZERO, _ZERO, _ZERO, lma_allocation, lma_allocation,
                    _ZERO, _ZERO, _ZERO), _NO_DRAWS  # fmt: skip

        rates = self.rates[treatment]
        direct = treatment is Treatment.FEDERAL_DIRECT
        liability = self.liability
        employer = self.employer
        if liability is Liability.NONE:
            if self.full_participation:
                trainees = share
                if why is not None:
                    why["trainees"] = self._allocated_why(index, share, scale_trainees)
            else:
                trainees = share * self.participation_num // self.participation_den
                if why is not None:
                    why["trainees"] = (
                        "⌊trainees allocated by population × participation rate⌋ (fewer grants: nobody is liable)",
                        [*self._allocated_why(index, share, scale_trainees)[1], ("participation rate", self.participation)],
                    )
            shortfall = (share - trainees) * employer
            employer_cost = trainees * employer
            if why is not None:
                why["employer_shortfall"] = (
                    "(trainees allocated by population − trainees) × per-trainee employer amount",
                    [("trainees allocated by population", share), ("trainees", trainees),
                     ("per-trainee employer amount", employer)],
                )  # fmt: skip
                why["employer_cost"] = ("trainees × per-trainee employer amount",
                                        [("trainees", trainees), ("per-trainee employer amount", employer)])
        else:
            trainees = share
            expected = trainees * employer
            shortfall = _ZERO if self.full_participation else money(expected * self.unpaid)
            employer_cost = expected - shortfall
            if why is not None:
                why["trainees"] = self._allocated_why(index, share, scale_trainees)
                why["employer_shortfall"] = (
                    "trainees × per-trainee employer amount × (1 − participation rate), to the cent",
                    [("trainees", trainees), ("per-trainee employer amount", employer),
                     ("participation rate", self.participation)],
                )  # fmt: skip
                why["employer_cost"] = (
                    "trainees × per-trainee employer amount − employer shortfall",
                    [("trainees", trainees), ("per-trainee employer amount", employer), ("employer shortfall", shortfall)],
                )

        draws = [trainees * rate for rate in rates.draws]
        federal_cost = trainees * rates.federal
        provincial_cost = trainees * rates.provincial
        provincial_liability = _ZERO
        if why is not None:
            formula, per_trainee = rates.federal_why
            why["federal_cost"] = (formula, [("trainees", trainees), *per_trainee])
            if rates.provincial_why is None:
                why["provincial_cost"] = ("0 (Ottawa delivers the grant here and pays the provincial portion)",
                                          [("treatment", treatment.value)])
            else:
                formula, per_trainee = rates.provincial_why
                why["provincial_cost"] = (formula, [("trainees", trainees), *per_trainee])
        if liability is Liability.PROVINCE and not direct:
            if shortfall:
                provincial_cost += shortfall
                draws[_PT_OWN_AT] += shortfall
                provincial_liability = shortfall
                if why is not None:
                    formula, inputs = why["provincial_cost"]
                    why["provincial_cost"] = (formula + " + provincial liability",
                                              [*inputs, ("provincial liability", provincial_liability)])
            if why is not None:
                why["provincial_liability"] = ("employer shortfall (the P/T is liable)", [("employer shortfall", shortfall)])
        else:
            if shortfall and liability is not Liability.NONE:
                # Ottawa is liable, or delivers directly and so cannot bill the P/T.
                federal_cost += shortfall
                draws[_FEDERAL_NEW_AT] += shortfall
                if why is not None:
                    formula, inputs = why["federal_cost"]
                    why["federal_cost"] = (formula + " + employer shortfall (carried by Ottawa)",
                                           [*inputs, ("employer shortfall", shortfall)])
            if why is not None:
                # Here the P/T is not liable: Ottawa delivers (and so cannot bill it), or Ottawa or nobody is liable.
                reason = ("Ottawa delivers here, so it carries the shortfall" if direct
                          else "carried by Ottawa" if liability is Liability.FEDERAL else "fewer grants: nobody is liable")
                why["provincial_liability"] = (f"0 ({reason})", [("shortfall liability", liability.value)])

        lma_diverted, lmda_redirected, new_money = [sum([draws[i] for i in at], _ZERO) for _, at, _ in _DRAW_LINES]
        remaining = lma_allocation - lma_diverted if lma_allocation > lma_diverted else _ZERO
        if why is not None:
            for line, at, what in _DRAW_LINES:
                formula = f"trainees × per-trainee {what}"
                inputs = [("trainees", trainees), (f"per-trainee {what}", sum((rates.draws[i] for i in at), _ZERO))]
                if len(at) > 1:
                    inputs += [(f"per-trainee {_DRAW_PAYERS[i]} draw on {_DRAW_PROGRAMS[i]}", rates.draws[i]) for i in at]
                if line == "provincial_new_money" and provincial_liability:
                    formula += " + provincial liability"
                    inputs.append(("provincial liability", provincial_liability))
                if direct:
                    formula += " (Ottawa delivers: the provincial portion draws on no P/T program)"
                why[line] = (formula, inputs)
            why["lma_allocation"] = self._lma_allocation_why(index)
            why["lma_remaining"] = ("max(LMA allocation − LMA diverted, 0)",
                                    [("LMA allocation", lma_allocation), ("LMA diverted", lma_diverted)])
            why["provinces_need"] = ("provincial new money + LMA diverted (the backfill that keeps LMA programs going)",
                                     [("provincial new money", new_money), ("LMA diverted", lma_diverted)])
        return (trainees, federal_cost, provincial_cost, employer_cost, lma_diverted, lmda_redirected, new_money,
                lma_allocation, remaining, new_money + lma_diverted, shortfall, provincial_liability), draws  # fmt: skip

    def status_quo_jurisdiction(self, index: int, why: dict | None = None) -> tuple:
        """P/T ``index``'s values with no grant: it keeps its whole LMA allocation."""
        allocation = self.lma_allocation[index]
        if why is not None:
            why.update((line, ("0 (status quo: no grant)", [])) for line in LINE_NAMES)
            why["lma_allocation"] = self._lma_allocation_why(index)
            why["lma_remaining"] = ("LMA allocation (status quo: nothing is diverted)", [("LMA allocation", allocation)])
        return (0, *(_ZERO,) * 6, allocation, allocation, _ZERO, _ZERO, _ZERO)

    def _run_status_quo(self) -> _Run:
        by_jurisdiction = tuple(
            _make_lines(code, self.status_quo_jurisdiction(index), _NO_DRAWS) for index, code in enumerate(self.codes)
        )
        return _Run(
            fraction=Decimal(0),
            scale_trainees=0,
            allocated=(0,) * len(self.codes),
            national=_sum_lines(None, by_jurisdiction),
            by_jurisdiction=by_jurisdiction,
        )

    def _share_inputs(self, index: int, total_name: str, total: int | Decimal) -> list:
        population = self.populations[index]
        return [
            (total_name, total),
            ("population", population),
            ("population of the provinces and territories", self.total_population),
            ("population share", (Decimal(population) / self.total_population).quantize(_SHARE_SHOWN)),
        ]

    def _lma_allocation_why(self, index: int) -> tuple:
        # The allocation itself is shared out once, in __init__ (_lma_allocation).
        return ("LMA envelope × population share, to the dollar (largest remainder)",
                self._share_inputs(index, "LMA envelope", self.lma_envelope))

    def _allocated_why(self, index: int, share: int, scale_trainees: int) -> tuple:
        return ("national trainees × population share, in whole trainees (largest remainder)",
                [*self._share_inputs(index, "national trainees", scale_trainees),
                 ("trainees allocated by population", share)])


def _make_lines(code: str | None, values, draws) -> Lines:
    """Build Lines from values in LINE_NAMES order and draws in DRAW_KEYS order."""
    return Lines(
        code=code,
        trainees=values[0],
        federal_cost=values[1],
        provincial_cost=values[2],
        employer_cost=values[3],
        lma_diverted=values[4],
        lmda_redirected=values[5],
        provincial_new_money=values[6],
        lma_allocation=values[7],
        lma_remaining=values[8],
        provinces_need=values[9],
        employer_shortfall=values[10],
        provincial_liability=values[11],
        draws=tuple(zip(_DRAW_PAYERS, _DRAW_PROGRAMS, draws)),
    )


def _line_sums(rows) -> list:
    """Sum rows of values in LINE_NAMES order, column by column."""
    return [sum(column) for column in zip(*rows)]


def _draw_sums(rows) -> list[Decimal]:
    """Sum rows of draws in DRAW_KEYS order, column by column."""
    return [sum(column, _ZERO) for column in zip(*rows)]


def _values(lines: Lines) -> tuple:
    return tuple(getattr(lines, name) for name in LINE_NAMES)


def _draw_values(lines: Lines) -> tuple[Decimal, ...]:
    return tuple(amount for _, _, amount in lines.draws) if lines.draws else _NO_DRAWS


def _sum_lines(code: str | None, many) -> Lines:
    many = list(many)
    return _make_lines(code, _line_sums([_values(lines) for lines in many]),
                       _draw_sums([_draw_values(lines) for lines in many]))  # fmt: skip


def _difference(a: Lines, b: Lines) -> Lines:
    values = [y - x for x, y in zip(_values(a), _values(b))]
    draws = [y - x for x, y in zip(_draw_values(a), _draw_values(b))]
    return _make_lines(b.code, values, draws)


# ---------------------------------------------------------------------------
# Traces: built only when asked for, from the plan and the run kept on the effect.


@dataclass(frozen=True, slots=True)
class _Context:
    plan: _Plan
    run: _Run
    # perf: each P/T's explanations, worked out once for all its lines ("compute + 168 traces" in
    # bench/engine.py: without it every trace recomputes its P/T, about twice the time).
    whys: dict = field(default_factory=dict)


# Population shares are shown to ten decimal places; the allocations themselves use exact integers.
_SHARE_SHOWN = Decimal("1e-10")


@_exact
def _explain(context: _Context, line: str, code: str | None) -> Trace:
    if line not in LINE_NAMES:
        raise ValueError(f"{line!r} is not an output line; expected one of {', '.join(LINE_NAMES)}")
    plan, run = context.plan, context.run
    if code is None:
        lines = run.national
        parts = [(each.code, getattr(each, line)) for each in run.by_jurisdiction]
        if line == "trainees" and plan.terms is not None:
            why: dict = {}
            plan.scale_trainees(run.fraction, why)
            formula, inputs = why["trainees"]
            formula, inputs = f"sum of the P/T trainees; {formula}", [*inputs, *parts]
        else:
            formula, inputs = f"sum of {line} over the {len(parts)} provinces and territories", parts
    else:
        index = plan.index_of(code)
        lines = run.by_jurisdiction[index]
        why = context.whys.get(index)
        if why is None:
            why = context.whys[index] = {}
            if plan.terms is None:
                plan.status_quo_jurisdiction(index, why)
            else:
                plan.jurisdiction(index, run.allocated[index], run.scale_trainees, why)
        formula, inputs = why[line]
    return Trace(line=line, code=code, value=getattr(lines, line), formula=formula, inputs=tuple(inputs))
