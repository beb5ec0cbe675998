"""Invariants of the fiscal model, checked on thousands of generated offers."""

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grants.fiscal import (
    DRAW_KEYS,
    LINE_NAMES,
    InvalidTerms,
    Jurisdiction,
    Liability,
    Payer,
    Program,
    ReferenceData,
    Scenario,
    Treatment,
    compute,
    validate_terms,
)
from negotiations.terms import OfferTerms
from tests.profiles import examples
from tests.shared import POPULATIONS

D = Decimal

ENVELOPES = {Program.LMA: 500_000_000, Program.LMDA: 1_950_000_000, Program.CJF: 500_000_000}
REFERENCE = ReferenceData(
    jurisdictions=tuple(Jurisdiction(code=code, population=population) for code, population in POPULATIONS.items()),
    envelopes=tuple((program, D(amount)) for program, amount in ENVELOPES.items()),
)
FEDERAL_PROGRAMS = [Program.LMA, Program.LMDA, Program.CJF, Program.FEDERAL_NEW]
PROVINCIAL_PROGRAMS = [Program.LMA, Program.LMDA, Program.CJF, Program.PT_OWN]
YEARS = [f"{start}-{(start + 1) % 100:02d}" for start in range(2012, 2023)]
MONEY_LINES = LINE_NAMES[1:]
# Lines that flow with the trainees (the LMA allocation is a stock, what remains is derived from it).
FLOW_LINES = tuple(name for name in MONEY_LINES if name not in ("lma_allocation", "lma_remaining"))

SETTINGS = dict(database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow])

fractions_0_to_1 = st.integers(min_value=0, max_value=100).map(lambda hundredths: D(hundredths) / 100)


@st.composite
def split_over(draw, amount: int, programs: list[Program]):
    """Whole-dollar amounts by program adding up to ``amount`` (zeros allowed, order shuffled)."""
    cuts = sorted(draw(st.lists(st.integers(0, amount), min_size=len(programs) - 1, max_size=len(programs) - 1)))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, amount])]
    keep_zeros = draw(st.booleans())
    pairs = [(program, D(part)) for program, part in zip(programs, parts) if part or keep_zeros]
    return tuple(draw(st.permutations(pairs)))


@st.composite
def valid_terms(draw):
    """Terms that add up: whole dollars, split and sources consistent, scale within half an envelope."""
    federal = draw(st.integers(0, 15_000))
    provincial = draw(st.integers(0, 15_000))
    if federal + provincial == 0:
        federal = 1  # some government money is needed for a scale to mean anything
    employer = draw(st.integers(0, 15_000))
    federal_sources = draw(split_over(federal, FEDERAL_PROGRAMS))
    provincial_sources = draw(split_over(provincial, PROVINCIAL_PROGRAMS))
    drawn_on = {program for program, amount in federal_sources + provincial_sources if amount}
    scale_program = draw(st.sampled_from(sorted(drawn_on)))
    # At most half the envelope, so that doubling the scale stays valid.
    scale_amount = D(draw(st.integers(1, ENVELOPES.get(scale_program, 500_000_000) // 2)))
    # None leaves the P/T out of the treatments, so that it participates by default.
    chosen = draw(st.lists(st.sampled_from([None, *Treatment]), min_size=len(POPULATIONS), max_size=len(POPULATIONS)))
    treatments = tuple((code, treatment) for code, treatment in zip(POPULATIONS, chosen) if treatment is not None)
    years = draw(st.lists(st.sampled_from(YEARS[1:-1]), unique=True, max_size=5))
    fractions = draw(st.lists(fractions_0_to_1, min_size=len(years), max_size=len(years)))
    phase_in = tuple(zip(years, fractions))
    return OfferTerms(
        max_grant=D(federal + provincial + employer),
        federal_amount=D(federal),
        provincial_amount=D(provincial),
        employer_amount=D(employer),
        sources=(*((Payer.FEDERAL, program, amount) for program, amount in federal_sources),
                 *((Payer.PROVINCIAL, program, amount) for program, amount in provincial_sources)),
        scale_program=scale_program,
        scale_amount=scale_amount,
        employer_min_share=draw(st.none() | fractions_0_to_1),
        small_employer_gap_payer=draw(st.sampled_from(["", Payer.FEDERAL, Payer.PROVINCIAL])),
        shortfall_liability=draw(st.sampled_from(list(Liability))),
        treatments=treatments,
        phase_in=phase_in,
    )


scenarios = st.builds(
    Scenario,
    participation=fractions_0_to_1 | st.just(D(1)),
    fiscal_year=st.none() | st.sampled_from(YEARS),
)


def treatment_of(terms: OfferTerms, code: str) -> Treatment:
    return dict(terms.treatments).get(code, Treatment.PARTICIPATES)


def per_trainee_draw(terms: OfferTerms) -> Fraction:
    return sum((Fraction(amount) for _, program, amount in terms.sources if program == terms.scale_program), Fraction(0))


def sources_of(terms: OfferTerms, payer: Payer) -> tuple:
    """One payer's (payer, program, amount) rows."""
    return tuple(row for row in terms.sources if row[0] == payer)


def expected_year_and_fraction(terms: OfferTerms, requested: str | None) -> tuple[str | None, Decimal]:
    """The fiscal model's year rule, written independently of the engine."""
    schedule = sorted(terms.phase_in)
    if not schedule:
        return requested, D(1)
    if requested is None:
        return next(((year, f) for year, f in schedule if f == 1), schedule[-1])
    earlier = [f for year, f in schedule if year <= requested]
    return requested, earlier[-1] if earlier else D(0)


def check_parts_add_up(national, by_jurisdiction):
    for name in LINE_NAMES:
        assert sum(getattr(lines, name) for lines in by_jurisdiction) == getattr(national, name), name
    for index in range(len(DRAW_KEYS)):
        assert sum(lines.draws[index][2] for lines in by_jurisdiction) == national.draws[index][2]


def check_jurisdiction(terms: OfferTerms, participation: Decimal, lines, lma_allocation: Decimal):
    treatment = treatment_of(terms, lines.code)
    values = lines.as_dict()
    for name in MONEY_LINES:
        assert values[name] >= 0, name
        assert values[name] == values[name].quantize(D("0.01")), name  # whole cents
    assert lines.trainees >= 0
    assert all(amount >= 0 for _, _, amount in lines.draws)

    # Payers add up to the grant; sources add up to payers.
    assert lines.federal_cost + lines.provincial_cost + lines.employer_cost == lines.trainees * terms.max_grant
    assert sum(amount for payer, _, amount in lines.draws if payer is Payer.FEDERAL) == lines.federal_cost
    assert sum(amount for payer, _, amount in lines.draws if payer is Payer.PROVINCIAL) == lines.provincial_cost
    assert lines.lma_diverted == sum(a for _, program, a in lines.draws if program in (Program.LMA, Program.CJF))
    assert lines.lmda_redirected == sum(a for _, program, a in lines.draws if program is Program.LMDA)
    assert lines.provincial_new_money == lines.draw(Payer.PROVINCIAL, Program.PT_OWN)

    # The LMA and what the P/T must find.
    assert lines.lma_allocation == lma_allocation
    assert lines.lma_remaining == max(lines.lma_allocation - lines.lma_diverted, 0)
    assert lines.provinces_need == lines.provincial_new_money + lines.lma_diverted

    # Participation and liability.
    if participation == 1:
        assert lines.employer_shortfall == 0
    liable = terms.shortfall_liability is Liability.PROVINCE and treatment is Treatment.PARTICIPATES
    assert lines.provincial_liability == (lines.employer_shortfall if liable else 0)

    if treatment is Treatment.OPTS_OUT_COMPENSATED:
        assert lines.lma_remaining == lines.lma_allocation
        assert all(values[name] == 0 for name in FLOW_LINES)
        assert lines.trainees == 0
    if treatment is Treatment.FEDERAL_DIRECT:
        assert lines.provincial_cost == lines.provincial_new_money == 0


@settings(max_examples=examples(1500), **SETTINGS)
@given(terms=valid_terms(), scenario=scenarios)
def test_invariants_hold_for_any_valid_offer(terms, scenario):
    """Every invariant of the fiscal model, for the chosen year and every phase-in year."""
    assert validate_terms(terms, REFERENCE) == []
    effect = compute(terms, REFERENCE, scenario)
    participation = effect.scenario.participation
    assert participation == scenario.participation

    lma_allocations = {lines.code: lines.lma_allocation for lines in effect.by_jurisdiction}
    assert sum(lma_allocations.values()) == ENVELOPES[Program.LMA]

    for outcome in (effect, *effect.years):
        check_parts_add_up(outcome.national, outcome.by_jurisdiction)
        for lines in outcome.by_jurisdiction:
            check_jurisdiction(terms, participation, lines, lma_allocations[lines.code])

    assert (effect.scenario.fiscal_year, effect.fraction) == expected_year_and_fraction(terms, scenario.fiscal_year)

    # The national trainees are the scale over the per-trainee draw, rounded down.
    expected = int(Fraction(terms.scale_amount) * Fraction(effect.fraction) / per_trainee_draw(terms))
    assert effect.scale_trainees == expected
    assert effect.national.trainees <= expected
    if all(treatment_of(terms, code) is not Treatment.OPTS_OUT_COMPENSATED for code in POPULATIONS):
        if participation == 1 or terms.shortfall_liability is not Liability.NONE:
            assert effect.national.trainees == expected
    if terms.shortfall_liability is Liability.NONE:
        # Fewer grants: each P/T rounds its share down, so the country never exceeds p of the scale.
        assert effect.national.trainees <= expected * participation

    if terms.phase_in:
        assert [year.fiscal_year for year in effect.years] == sorted(year for year, _ in terms.phase_in)
        for name in LINE_NAMES:
            total = sum(getattr(year.national, name) for year in effect.years)
            assert getattr(effect.multi_year_total, name) == total
    else:
        assert effect.years == () and effect.multi_year_total is None
        assert effect.fraction == 1

    gap = effect.small_employer_gap
    if terms.employer_min_share is None:
        assert gap is None
    else:
        assert gap.gap >= 0
        assert gap.gap == max(terms.employer_amount - gap.employer_minimum, 0)


# How far a P/T's trainees can land from double. Largest remainder keeps an allocation within one
# of its quota, so double the allocation is within two of double the quota, and the doubled scale
# has at most one more national trainee: the allocation moves by -2..3 from double. Rounding down
# by participation (nobody liable) widens that to -2..4.
ALLOCATION_SLACK = 3
DOUBLING_SLACK = {True: ALLOCATION_SLACK, False: ALLOCATION_SLACK + 1}


@settings(max_examples=examples(400), **SETTINGS)
@given(terms=valid_terms(), scenario=scenarios)
def test_doubling_the_scale_doubles_every_flow(terms, scenario):
    """Twice the scale gives twice every flow line, up to each P/T's allocation rounding."""
    single = compute(terms, REFERENCE, scenario)
    double = compute(replace(terms, scale_amount=terms.scale_amount * 2), REFERENCE, scenario)
    assert double.scale_trainees - 2 * single.scale_trainees in (0, 1)
    whole = scenario.participation == 1 or terms.shortfall_liability is not Liability.NONE
    # The most any one trainee can move a line: the whole grant, twice for provinces_need.
    per_trainee_bound = 2 * terms.max_grant
    for one, two in zip(single.by_jurisdiction, double.by_jurisdiction):
        drift = two.trainees - 2 * one.trainees
        assert abs(drift) <= DOUBLING_SLACK[whole]
        assert two.lma_allocation == one.lma_allocation
        for name in FLOW_LINES:
            # With fewer grants, the shortfall follows the allocated trainees, not the actual ones.
            moved = abs(drift) + (ALLOCATION_SLACK if not whole and name == "employer_shortfall" else 0)
            # Shortfalls are rounded to the cent once per P/T in each effect.
            slack = moved * per_trainee_bound + D("0.02")
            assert abs(getattr(two, name) - 2 * getattr(one, name)) <= slack, (one.code, name)


def _mutations(terms: OfferTerms):
    """(field expected in the errors, a way to break the terms) for each kind of inconsistency."""
    envelope = ENVELOPES.get(terms.scale_program)
    zero_draw = [
        program
        for program in Program
        if per_trainee_draw(replace(terms, scale_program=program)) == 0
    ]
    fed, prov = Payer.FEDERAL, Payer.PROVINCIAL
    yield "federal_amount", lambda t, n: replace(t, federal_amount=D(-n))
    yield "provincial_amount", lambda t, n: replace(t, provincial_amount=D(-n))
    yield "employer_amount", lambda t, n: replace(t, employer_amount=D(-n))
    yield "max_grant", lambda t, n: replace(t, max_grant=t.max_grant + n)
    yield "max_grant", lambda t, n: replace(t, max_grant=D(-n))
    yield "funding_sources", lambda t, n: replace(t, sources=(*t.sources, (fed, Program.PT_OWN, D(0))))
    yield "funding_sources", lambda t, n: replace(t, sources=(
        (fed, Program.LMA, t.federal_amount + n), (fed, Program.LMDA, D(-n)), *sources_of(t, prov)))
    yield "funding_sources", lambda t, n: replace(t, sources=(*t.sources, (fed, Program.FEDERAL_NEW, D(n))))
    yield "funding_sources", lambda t, n: replace(t, sources=(*t.sources, (prov, Program.FEDERAL_NEW, D(0))))
    yield "funding_sources", lambda t, n: replace(t, sources=(
        *sources_of(t, fed), (prov, Program.PT_OWN, t.provincial_amount + n), (prov, Program.CJF, D(-n))))
    yield "funding_sources", lambda t, n: replace(t, sources=(*t.sources, (prov, Program.PT_OWN, D(n))))
    yield "employer_min_share", lambda t, n: replace(t, employer_min_share=1 + D(n) / 100)
    yield "employer_min_share", lambda t, n: replace(t, employer_min_share=-D(n) / 100)
    yield "scale_amount", lambda t, n: replace(t, scale_amount=D(1 - n))
    if envelope is not None:
        yield "scale_amount", lambda t, n: replace(t, scale_amount=D(envelope + n))
    if zero_draw:
        yield "funding_sources", lambda t, n: replace(t, scale_program=zero_draw[n % len(zero_draw)])
    yield "phase_in", lambda t, n: replace(t, phase_in=(*t.phase_in, ("2030-31", 1 + D(n) / 100)))
    yield "phase_in", lambda t, n: replace(t, phase_in=(*t.phase_in, ("2030-32", D("0.5"))))
    yield "phase_in", lambda t, n: replace(t, phase_in=(*t.phase_in, ("2030-31", D(0)), ("2030-31", D(1))))
    yield "treatments", lambda t, n: replace(t, treatments=(*t.treatments, ("CA", Treatment.PARTICIPATES)))


@settings(max_examples=examples(1000), **SETTINGS)
@given(terms=valid_terms(), size=st.integers(min_value=1, max_value=10**6), data=st.data())
def test_invalid_terms_are_refused_naming_the_field(terms, size, data):
    """Breaking a valid offer in any one way makes compute refuse it, naming the broken field."""
    field, mutate = data.draw(st.sampled_from(list(_mutations(terms))), label="mutation")
    broken = mutate(terms, size)
    fields = [error.field for error in validate_terms(broken, REFERENCE)]
    assert field in fields
    with pytest.raises(InvalidTerms) as raised:
        compute(broken, REFERENCE)
    assert field in raised.value.fields
