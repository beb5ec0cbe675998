"""The fiscal engine on the worked examples and on each rule of the fiscal model."""

import ast
import sys
from dataclasses import FrozenInstanceError, replace
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import pytest

import grants.fiscal
import negotiations.terms
from grants.fiscal import (
    LINE_NAMES,
    InvalidScenario,
    InvalidTerms,
    Jurisdiction,
    Liability,
    Payer,
    Program,
    ReferenceData,
    Scenario,
    Treatment,
    compare,
    compute,
    status_quo,
    validate_terms,
)
from negotiations.terms import OfferTerms
from tests.shared import CANADA_POPULATION, POPULATIONS

D = Decimal

TOTAL_POPULATION = CANADA_POPULATION
REFERENCE = ReferenceData(
    jurisdictions=tuple(Jurisdiction(code=code, population=population) for code, population in POPULATIONS.items()),
    envelopes=((Program.LMA, D(500000000)), (Program.LMDA, D(1950000000)), (Program.CJF, D(500000000))),
)

BUDGET_2013 = OfferTerms(
    max_grant=D(15000),
    federal_amount=D(5000),
    provincial_amount=D(5000),
    employer_amount=D(5000),
    sources=((Payer.FEDERAL, Program.LMA, D(5000)), (Payer.PROVINCIAL, Program.PT_OWN, D(5000))),
    scale_program=Program.LMA,
    scale_amount=D(300000000),
)
DECEMBER_2013 = OfferTerms(
    max_grant=D(15000),
    federal_amount=D(10000),
    provincial_amount=D(0),
    employer_amount=D(5000),
    sources=((Payer.FEDERAL, Program.LMA, D(5000)), (Payer.FEDERAL, Program.LMDA, D(5000))),
    scale_program=Program.LMA,
    scale_amount=D(300000000),
    shortfall_liability=Liability.PROVINCE,
)
PHASE_IN = (("2014-15", D("0.15")), ("2015-16", D("0.3")), ("2016-17", D("0.6")), ("2017-18", D(1)))
M = 1_000_000


def lines_of(effect, code):
    return next(lines for lines in effect.by_jurisdiction if lines.code == code)


# --- worked examples ----------------------------------------------------------------------------


def test_budget_2013_worked_example():
    """Budget 2013: 60,000 trainees, $300M per payer, $200M of the LMA left, $600M for the P/Ts."""
    national = compute(BUDGET_2013, REFERENCE).national
    assert national.as_dict() == {
        "trainees": 60000,
        "federal_cost": D(300 * M),
        "provincial_cost": D(300 * M),
        "employer_cost": D(300 * M),
        "lma_diverted": D(300 * M),
        "lmda_redirected": D(0),
        "provincial_new_money": D(300 * M),
        "lma_allocation": D(500 * M),
        "lma_remaining": D(200 * M),
        "provinces_need": D(600 * M),
        "employer_shortfall": D(0),
        "provincial_liability": D(0),
    }
    assert national.code is None


def test_december_2013_worked_example():
    """December 2013: Ottawa pays $600M (half LMA, half LMDA); the P/Ts need $300M."""
    national = compute(DECEMBER_2013, REFERENCE).national
    assert national.trainees == 60000
    assert national.federal_cost == D(600 * M)
    assert national.provincial_cost == 0
    assert national.employer_cost == D(300 * M)
    assert national.lma_diverted == D(300 * M)
    assert national.lmda_redirected == D(300 * M)
    assert national.provincial_new_money == 0
    assert national.lma_remaining == D(200 * M)
    assert national.provinces_need == D(300 * M)
    assert national.employer_shortfall == 0
    assert national.provincial_liability == 0


def test_money_is_in_cents_as_the_api_shows_it():
    """Money lines carry two decimals, so they print as the API's "300000000.00"."""
    national = compute(BUDGET_2013, REFERENCE).national
    assert str(national.federal_cost) == "300000000.00"
    assert str(national.lmda_redirected) == "0.00"


def test_jurisdiction_lines_add_up_to_national_lines():
    """Every national line is exactly the sum of the 13 P/T lines."""
    effect = compute(DECEMBER_2013, REFERENCE, Scenario(participation=D("0.37")))
    assert [lines.code for lines in effect.by_jurisdiction] == list(POPULATIONS)
    for name in LINE_NAMES:
        assert sum(getattr(lines, name) for lines in effect.by_jurisdiction) == getattr(effect.national, name)


def test_trainees_are_shared_by_population_in_whole_trainees():
    """Ontario's 38.5 % of 60,000 is 23,103 trainees; each P/T is within one of its quota."""
    effect = compute(BUDGET_2013, REFERENCE)
    assert lines_of(effect, "ON").trainees == 23103
    for lines in effect.by_jurisdiction:
        quota = Fraction(60000 * POPULATIONS[lines.code], TOTAL_POPULATION)
        assert abs(lines.trainees - quota) < 1


def test_lma_allocation_is_per_capita_to_the_dollar():
    """The $500M LMA is shared by population, in whole dollars adding up to $500M."""
    effect = status_quo(REFERENCE)
    assert effect.national.lma_allocation == D(500 * M)
    for lines in effect.by_jurisdiction:
        assert lines.lma_allocation == lines.lma_allocation.to_integral_value()
        quota = Fraction(500 * M * POPULATIONS[lines.code], TOTAL_POPULATION)
        assert abs(Fraction(lines.lma_allocation) - quota) < 1
    assert lines_of(effect, "ON").lma_allocation == D(192529111)


def test_sources_add_up_to_payers_in_each_jurisdiction():
    """Each government's program draws add up to its cost (draws exposed on the lines)."""
    for lines in compute(DECEMBER_2013, REFERENCE, Scenario(participation=D("0.5"))).by_jurisdiction:
        federal = sum(amount for payer, _, amount in lines.draws if payer is Payer.FEDERAL)
        provincial = sum(amount for payer, _, amount in lines.draws if payer is Payer.PROVINCIAL)
        assert federal == lines.federal_cost
        assert provincial == lines.provincial_cost
        assert lines.draw(Payer.FEDERAL, Program.LMDA) == lines.lmda_redirected


# --- validation ---------------------------------------------------------------------------------


FED, PROV = Payer.FEDERAL, Payer.PROVINCIAL
BUDGET_PROVINCIAL = (PROV, Program.PT_OWN, D(5000))
BUDGET_FEDERAL = (FED, Program.LMA, D(5000))


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"federal_amount": D(-5000), "max_grant": D(5000)}, "federal_amount"),
        ({"provincial_amount": D(-1)}, "provincial_amount"),
        ({"employer_amount": D(-1)}, "employer_amount"),
        ({"max_grant": D(-15000)}, "max_grant"),
        ({"max_grant": D(16000)}, "max_grant"),
        ({"federal_amount": D(0), "provincial_amount": D(0), "employer_amount": D(0), "max_grant": D(0)}, "max_grant"),
        ({"sources": ((FED, Program.LMA, D(4000)), BUDGET_PROVINCIAL)}, "funding_sources"),
        ({"sources": (BUDGET_FEDERAL, (PROV, Program.PT_OWN, D(4999)))}, "funding_sources"),
        ({"sources": ((FED, Program.LMA, D(6000)), (FED, Program.LMDA, D(-1000)), BUDGET_PROVINCIAL)},
         "funding_sources"),
        ({"sources": (BUDGET_FEDERAL, (PROV, Program.PT_OWN, D(6000)), (PROV, Program.CJF, D(-1000)))},
         "funding_sources"),
        ({"sources": (BUDGET_FEDERAL, (FED, Program.PT_OWN, D(0)), BUDGET_PROVINCIAL)}, "funding_sources"),
        ({"sources": (BUDGET_FEDERAL, BUDGET_PROVINCIAL, (PROV, Program.FEDERAL_NEW, D(0)))}, "funding_sources"),
        ({"sources": ((FED, Program.LMA, D(2500)), (FED, Program.LMA, D(2500)), BUDGET_PROVINCIAL)},
         "funding_sources"),
        ({"sources": ((FED, "EI", D(5000)), BUDGET_PROVINCIAL)}, "funding_sources"),
        ({"sources": (BUDGET_FEDERAL, BUDGET_PROVINCIAL, (FED, Program.LMA))}, "funding_sources"),
        ({"sources": (BUDGET_FEDERAL, (PROV, Program.PT_OWN, 5000.0))}, "funding_sources"),
        ({"employer_min_share": D("1.5")}, "employer_min_share"),
        ({"employer_min_share": D("-0.1")}, "employer_min_share"),
        ({"scale_amount": D(0)}, "scale_amount"),
        ({"scale_amount": D(-300 * M)}, "scale_amount"),
        ({"scale_amount": D(500 * M + 1)}, "scale_amount"),
        ({"scale_program": Program.LMDA}, "funding_sources"),
        ({"scale_program": "EI"}, "scale_program"),
        ({"phase_in": (("2014-15", D("1.2")),)}, "phase_in"),
        ({"phase_in": (("2014-15", D("-0.1")),)}, "phase_in"),
        ({"phase_in": (("2014-2015", D("0.5")),)}, "phase_in"),
        ({"phase_in": (("2014-16", D("0.5")),)}, "phase_in"),
        ({"phase_in": (("2014-15", D("0.5")), ("2014-15", D("0.6")))}, "phase_in"),
        ({"treatments": (("XX", Treatment.PARTICIPATES),)}, "treatments"),
        ({"treatments": (("QC", "leaves"),)}, "treatments"),
        ({"shortfall_liability": "employers"}, "shortfall_liability"),
        ({"small_employer_gap_payer": Payer.EMPLOYER}, "small_employer_gap_payer"),
        ({"federal_amount": D("5000.001"), "employer_amount": D("4999.999")}, "federal_amount"),
        ({"employer_amount": 5000.0}, "employer_amount"),
    ],
)
def test_invalid_terms_name_the_field(changes, field):
    """Each kind of inconsistency is refused, naming the OfferTerms field at fault."""
    terms = replace(BUDGET_2013, **changes)
    assert field in [error.field for error in validate_terms(terms, REFERENCE)]
    with pytest.raises(InvalidTerms) as raised:
        compute(terms, REFERENCE)
    assert field in raised.value.fields
    assert field in str(raised.value)


def test_the_user_facing_rules_are_those_of_negotiations_terms():
    """The split, the sources and the scale's draw are refused with check_terms' own messages."""
    for changes in ({"max_grant": D(16000)}, {"employer_amount": D(-1), "max_grant": D(9999)},
                    {"sources": ((FED, Program.LMA, D(4000)), BUDGET_PROVINCIAL)}, {"scale_program": Program.CJF}):
        terms = replace(BUDGET_2013, **changes)
        assert validate_terms(terms, REFERENCE) == terms.problems() != []


def test_split_error_states_the_sum_and_the_maximum():
    """The message says what the split adds up to and what it should."""
    errors = validate_terms(replace(BUDGET_2013, max_grant=D(16000)))
    assert [error.field for error in errors] == ["max_grant"]
    assert "$15,000" in errors[0].message and "$16,000" in errors[0].message


def test_source_error_states_both_amounts():
    """The message gives the sources' total and the payer's amount."""
    errors = validate_terms(replace(BUDGET_2013, sources=((FED, Program.LMA, D(4000)), BUDGET_PROVINCIAL)))
    assert [error.field for error in errors] == ["funding_sources"]
    assert "$4,000" in errors[0].message and "$5,000" in errors[0].message


def test_negative_amount_message():
    """A negative amount is reported as such."""
    errors = validate_terms(replace(BUDGET_2013, employer_amount=D(-1), max_grant=D(9999)))
    assert ("employer_amount", "The employer amount cannot be negative (got −$1).") in [
        (error.field, error.message) for error in errors
    ]


def test_the_engine_checks_what_its_arithmetic_needs_before_the_rules():
    """Amounts that are not exact numbers in whole cents are refused before check_terms weighs them."""
    errors = validate_terms(replace(BUDGET_2013, employer_amount=5000.0, max_grant=D("15000.001")))
    assert [(error.field, error.message) for error in errors] == [
        ("max_grant", "must be in whole cents (got 15000.001)"),
        ("employer_amount", "must be a Decimal or an int, not float"),
    ]


def test_envelope_and_treatment_codes_are_only_checked_against_reference_data():
    """Without reference data there is no envelope or list of P/Ts to check against."""
    terms = replace(BUDGET_2013, scale_amount=D(600 * M), treatments=(("XX", Treatment.PARTICIPATES),))
    assert validate_terms(terms) == []
    assert {error.field for error in validate_terms(terms, REFERENCE)} == {"scale_amount", "treatments"}


def test_valid_worked_examples_have_no_errors():
    """The worked examples are valid terms."""
    assert validate_terms(BUDGET_2013, REFERENCE) == []
    assert validate_terms(DECEMBER_2013, REFERENCE) == []


@pytest.mark.parametrize(
    ("scenario", "field"),
    [
        (Scenario(participation=D("1.01")), "participation"),
        (Scenario(participation=D("-0.01")), "participation"),
        (Scenario(participation=0.5), "participation"),
        (Scenario(participation=D("NaN")), "participation"),
        (Scenario(fiscal_year="2014"), "fiscal_year"),
        (Scenario(fiscal_year="2014-16"), "fiscal_year"),
        (Scenario(fiscal_year="2099-00x"), "fiscal_year"),
        (Scenario(fiscal_year="0000-01"), "fiscal_year"),  # well formed, consecutive, and no year of any record
        (Scenario(fiscal_year="9999-00"), "fiscal_year"),
        (Scenario(fiscal_year="1899-00"), "fiscal_year"),
    ],
)
def test_invalid_scenario_names_the_field(scenario, field):
    """A participation outside 0..1 or a badly written fiscal year is refused."""
    with pytest.raises(InvalidScenario) as raised:
        compute(BUDGET_2013, REFERENCE, scenario)
    assert raised.value.field == field
    with pytest.raises(InvalidScenario):
        status_quo(REFERENCE, scenario)


def test_a_fiscal_year_outside_the_record_says_which_years_are():
    with pytest.raises(InvalidScenario) as raised:
        compute(BUDGET_2013, REFERENCE, Scenario(fiscal_year="0000-01"))
    assert raised.value.message == "'0000-01' is not a year of the record: from 1900-01 to 2100-01"
    assert compute(BUDGET_2013, REFERENCE, Scenario(fiscal_year="2100-01")).scenario.fiscal_year == "2100-01"


def test_century_crossing_fiscal_year_is_valid():
    """1999-00 spans two consecutive years."""
    assert compute(BUDGET_2013, REFERENCE, Scenario(fiscal_year="1999-00")).scenario.fiscal_year == "1999-00"


# --- treatments ---------------------------------------------------------------------------------


def test_opting_out_keeps_the_transfer_and_drops_the_share():
    """Quebec opting out: no trainees, LMA untouched, its share not handed to the others."""
    base = compute(BUDGET_2013, REFERENCE)
    terms = replace(BUDGET_2013, treatments=(("QC", Treatment.OPTS_OUT_COMPENSATED),))
    effect = compute(terms, REFERENCE)
    quebec = lines_of(effect, "QC")
    assert quebec.trainees == 0
    assert quebec.lma_diverted == quebec.provinces_need == quebec.federal_cost == 0
    assert quebec.lma_remaining == quebec.lma_allocation == lines_of(base, "QC").lma_allocation
    assert effect.national.trainees == 60000 - lines_of(base, "QC").trainees
    for before, after in zip(base.by_jurisdiction, effect.by_jurisdiction):
        if after.code != "QC":
            assert after == before


def test_federal_direct_delivery_costs_the_province_nothing():
    """Where Ottawa delivers, it pays both government portions; the diversion still happens."""
    terms = replace(BUDGET_2013, treatments=(("NU", Treatment.FEDERAL_DIRECT),))
    nunavut = lines_of(compute(terms, REFERENCE), "NU")
    trainees = nunavut.trainees
    assert trainees == 61
    assert nunavut.federal_cost == trainees * D(10000)
    assert nunavut.provincial_cost == nunavut.provincial_new_money == nunavut.provincial_liability == 0
    assert nunavut.employer_cost == trainees * D(5000)
    assert nunavut.lma_diverted == trainees * D(5000)
    assert nunavut.draw(Payer.FEDERAL, Program.FEDERAL_NEW) == trainees * D(5000)
    assert nunavut.provinces_need == nunavut.lma_diverted


def test_federal_direct_skips_the_provincial_program_draws():
    """The provincial portion's LMDA draw does not happen where Ottawa delivers."""
    terms = replace(
        BUDGET_2013,
        sources=((Payer.FEDERAL, Program.LMA, D(5000)), (Payer.PROVINCIAL, Program.LMDA, D(5000))),
        treatments=(("PE", Treatment.FEDERAL_DIRECT),),
    )
    effect = compute(terms, REFERENCE)
    assert lines_of(effect, "PE").lmda_redirected == 0
    assert lines_of(effect, "NS").lmda_redirected == lines_of(effect, "NS").trainees * D(5000)


# --- employer participation and liability --------------------------------------------------------

HALF = Scenario(participation=D("0.5"))


def test_province_liable_pays_the_shortfall_from_its_own_revenue():
    """P/Ts liable at 50 % participation: the shortfall is their liability, cost and new money."""
    terms = replace(BUDGET_2013, shortfall_liability=Liability.PROVINCE)
    ontario = lines_of(compute(terms, REFERENCE, HALF), "ON")
    trainees = 23103
    shortfall = trainees * D(2500)
    assert ontario.trainees == trainees
    assert ontario.employer_shortfall == ontario.provincial_liability == shortfall
    assert ontario.employer_cost == trainees * D(5000) - shortfall
    assert ontario.provincial_cost == trainees * D(5000) + shortfall
    assert ontario.provincial_new_money == trainees * D(5000) + shortfall
    assert ontario.federal_cost == trainees * D(5000)
    assert ontario.provinces_need == ontario.provincial_new_money + ontario.lma_diverted


def test_federal_liable_pays_the_shortfall_with_new_money():
    """Ottawa liable at 50 %: it adds the shortfall from new federal money; no P/T liability."""
    terms = replace(BUDGET_2013, shortfall_liability=Liability.FEDERAL)
    ontario = lines_of(compute(terms, REFERENCE, HALF), "ON")
    shortfall = 23103 * D(2500)
    assert ontario.employer_shortfall == shortfall
    assert ontario.provincial_liability == 0
    assert ontario.federal_cost == 23103 * D(5000) + shortfall
    assert ontario.draw(Payer.FEDERAL, Program.FEDERAL_NEW) == shortfall
    assert ontario.provincial_cost == 23103 * D(5000)


def test_nobody_liable_means_fewer_grants():
    """No one liable at 50 %: half the grants (rounded down), every flow follows."""
    terms = replace(BUDGET_2013, shortfall_liability=Liability.NONE)
    effect = compute(terms, REFERENCE, HALF)
    ontario = lines_of(effect, "ON")
    assert ontario.trainees == 23103 // 2
    assert ontario.employer_shortfall == (23103 - 23103 // 2) * D(5000)
    assert ontario.federal_cost == ontario.employer_cost == ontario.trainees * D(5000)
    assert ontario.lma_diverted == ontario.trainees * D(5000)
    assert ontario.provincial_liability == 0
    assert effect.scale_trainees == 60000


def test_province_liability_falls_to_ottawa_where_it_delivers():
    """A P/T where Ottawa delivers cannot be billed: Ottawa carries the shortfall there."""
    terms = replace(DECEMBER_2013, treatments=(("YT", Treatment.FEDERAL_DIRECT),))
    yukon = lines_of(compute(terms, REFERENCE, HALF), "YT")
    assert yukon.provincial_liability == 0
    assert yukon.federal_cost == yukon.trainees * D(10000) + yukon.employer_shortfall


@pytest.mark.parametrize("liability", list(Liability))
def test_payers_add_up_to_the_grant_at_any_participation(liability):
    """federal + provincial + employer = trainees × max grant, whoever is liable."""
    terms = replace(DECEMBER_2013, shortfall_liability=liability)
    for participation in (D(0), D("0.33"), D("0.5"), D(1)):
        for lines in compute(terms, REFERENCE, Scenario(participation=participation)).by_jurisdiction:
            assert lines.federal_cost + lines.provincial_cost + lines.employer_cost == lines.trainees * D(15000)


def test_shortfall_is_rounded_to_the_cent():
    """A shortfall that falls between cents is rounded once, to the cent."""
    terms = replace(BUDGET_2013, shortfall_liability=Liability.PROVINCE, employer_amount=D("4999.99"),
                    provincial_amount=D("5000.01"),
                    sources=((Payer.FEDERAL, Program.LMA, D(5000)), (Payer.PROVINCIAL, Program.PT_OWN, D("5000.01"))))
    prince_edward = lines_of(compute(terms, REFERENCE, Scenario(participation=D("0.333"))), "PE")
    exact = prince_edward.trainees * D("4999.99") * D("0.667")
    assert prince_edward.employer_shortfall == exact.quantize(D("0.01"))
    assert prince_edward.employer_shortfall.as_tuple().exponent == -2


# --- phase-in -----------------------------------------------------------------------------------


def test_default_year_is_the_first_at_full_scale():
    """Without a requested year, the first year at 100 % is shown."""
    effect = compute(replace(BUDGET_2013, phase_in=PHASE_IN), REFERENCE)
    assert effect.scenario.fiscal_year == "2017-18"
    assert effect.fraction == 1
    assert effect.national.trainees == 60000


def test_default_year_without_full_scale_is_the_last_listed():
    """When no year reaches 100 %, the schedule's last year is shown."""
    effect = compute(replace(BUDGET_2013, phase_in=PHASE_IN[:3]), REFERENCE)
    assert effect.scenario.fiscal_year == "2016-17"
    assert effect.national.trainees == 36000


@pytest.mark.parametrize(
    ("year", "trainees"),
    [("2013-14", 0), ("2014-15", 9000), ("2015-16", 18000), ("2016-17", 36000), ("2017-18", 60000),
     ("2020-21", 60000)],  # fmt: skip
)
def test_requested_year_takes_its_fraction(year, trainees):
    """Before the schedule nothing happens; after it, the last fraction holds."""
    effect = compute(replace(BUDGET_2013, phase_in=PHASE_IN), REFERENCE, Scenario(fiscal_year=year))
    assert effect.scenario.fiscal_year == year
    assert effect.national.trainees == trainees


def test_year_between_listed_years_keeps_the_earlier_fraction():
    """A gap in the schedule holds the fraction of the latest year listed before it."""
    phase_in = (("2014-15", D("0.15")), ("2017-18", D(1)))
    effect = compute(replace(BUDGET_2013, phase_in=phase_in), REFERENCE, Scenario(fiscal_year="2016-17"))
    assert effect.fraction == D("0.15")


def test_phase_in_listed_out_of_order_is_sorted():
    """The schedule is read in calendar order whatever order it was written in."""
    effect = compute(replace(BUDGET_2013, phase_in=tuple(reversed(PHASE_IN))), REFERENCE)
    assert [year.fiscal_year for year in effect.years] == ["2014-15", "2015-16", "2016-17", "2017-18"]
    assert effect.scenario.fiscal_year == "2017-18"


def test_years_and_multi_year_total():
    """Each listed year is computed, and the multi-year total sums their national lines."""
    effect = compute(replace(BUDGET_2013, phase_in=PHASE_IN), REFERENCE)
    assert [(year.fiscal_year, year.fraction, year.national.trainees) for year in effect.years] == [
        ("2014-15", D("0.15"), 9000),
        ("2015-16", D("0.3"), 18000),
        ("2016-17", D("0.6"), 36000),
        ("2017-18", D(1), 60000),
    ]
    total = effect.multi_year_total
    assert total.trainees == 123000
    assert total.lma_diverted == D(615 * M)
    assert total.provinces_need == D(1230 * M)
    for name in LINE_NAMES:
        assert getattr(total, name) == sum(getattr(year.national, name) for year in effect.years)
    assert len(effect.years[0].by_jurisdiction) == 13


def test_no_phase_in_means_full_scale_and_no_years():
    """Without a schedule the year stays unset, the scale is full and there is no total."""
    effect = compute(BUDGET_2013, REFERENCE)
    assert effect.scenario == Scenario(participation=D(1), fiscal_year=None)
    assert effect.years == ()
    assert effect.multi_year_total is None


# --- small employers ----------------------------------------------------------------------------


def test_small_employer_gap():
    """A 15 % minimum on $15,000 is $2,250, leaving a $2,750 gap for whoever covers it."""
    terms = replace(BUDGET_2013, employer_min_share=D("0.15"), small_employer_gap_payer=Payer.FEDERAL)
    gap = compute(terms, REFERENCE).small_employer_gap
    assert (gap.employer_minimum, gap.gap, gap.covered_by) == (D(2250), D(2750), Payer.FEDERAL)
    assert compute(replace(terms, small_employer_gap_payer=""), REFERENCE).small_employer_gap.covered_by is None
    assert compute(BUDGET_2013, REFERENCE).small_employer_gap is None


def test_small_employer_gap_is_never_negative():
    """An employer amount already below the minimum opens no gap."""
    terms = replace(BUDGET_2013, employer_min_share=D("0.5"))
    assert compute(terms, REFERENCE).small_employer_gap.gap == 0


# --- traces -------------------------------------------------------------------------------------


def test_ontario_trainees_trace_names_its_share_and_the_national_trainees():
    """Ontario's trainees are explained by its population share of the national trainees."""
    trace = compute(BUDGET_2013, REFERENCE).explain("trainees", "ON")
    inputs = dict(trace.inputs)
    assert (trace.line, trace.code, trace.value) == ("trainees", "ON", 23103)
    assert "population share" in trace.formula and "national trainees" in trace.formula
    assert inputs["national trainees"] == 60000
    assert inputs["population"] == 13537994
    assert inputs["population of the provinces and territories"] == TOTAL_POPULATION
    assert inputs["population share"] == D("0.3850582212")


def test_cost_trace_inputs_multiply_to_the_value():
    """The federal cost is its trainees times the per-trainee federal amount, as stated."""
    trace = compute(DECEMBER_2013, REFERENCE).explain("federal_cost", "BC")
    inputs = dict(trace.inputs)
    assert trace.formula == "trainees × per-trainee federal amount"
    assert inputs["trainees"] * inputs["per-trainee federal amount"] == trace.value


def test_liability_trace_names_the_shortfall():
    """The provincial cost with a liability shows both parts."""
    terms = replace(BUDGET_2013, shortfall_liability=Liability.PROVINCE)
    trace = compute(terms, REFERENCE, HALF).explain("provincial_cost", "MB")
    inputs = dict(trace.inputs)
    assert inputs["trainees"] * inputs["per-trainee provincial amount"] + inputs["provincial liability"] == trace.value


def test_national_trace_lists_every_jurisdiction():
    """A national line is explained as the sum of the 13 P/T values."""
    effect = compute(BUDGET_2013, REFERENCE)
    trace = effect.explain("provinces_need")
    assert trace.code is None
    assert [name for name, _ in trace.inputs] == list(POPULATIONS)
    assert sum(value for _, value in trace.inputs) == trace.value == D(600 * M)
    trainees = dict(effect.explain("trainees").inputs)
    assert (trainees["scale amount"], trainees["per-trainee draw on LMA"]) == (D(300 * M), D(5000))


def test_every_line_of_every_jurisdiction_can_be_explained():
    """explain() works for all 12 lines, nationally and for each P/T, and matches the lines."""
    terms = replace(DECEMBER_2013, phase_in=PHASE_IN,
                    treatments=(("QC", Treatment.OPTS_OUT_COMPENSATED), ("NU", Treatment.FEDERAL_DIRECT)))  # fmt: skip
    effect = compute(terms, REFERENCE, HALF)
    for code in [None, *POPULATIONS]:
        lines = effect.national if code is None else lines_of(effect, code)
        for name in LINE_NAMES:
            trace = effect.explain(name, code)
            assert trace.value == getattr(lines, name)
            assert trace.formula and str(trace)
    assert effect.years[0].explain("trainees", "ON").value == lines_of(effect.years[0], "ON").trainees


def test_explain_refuses_unknown_names():
    """An unknown line or P/T code is an error, not an empty trace."""
    effect = compute(BUDGET_2013, REFERENCE)
    with pytest.raises(ValueError):
        effect.explain("grants")
    with pytest.raises(ValueError):
        effect.explain("trainees", "XX")


# --- status quo and comparison ------------------------------------------------------------------


def test_status_quo_keeps_the_whole_lma():
    """No grant: no trainees, each P/T keeps its whole LMA allocation."""
    effect = status_quo(REFERENCE)
    assert effect.national.trainees == 0
    assert effect.national.lma_allocation == effect.national.lma_remaining == D(500 * M)
    assert effect.national.provinces_need == effect.national.federal_cost == 0
    for lines in effect.by_jurisdiction:
        assert lines.lma_remaining == lines.lma_allocation
    assert effect.explain("lma_remaining", "ON").value == lines_of(effect, "ON").lma_allocation


def test_compare_gives_b_minus_a_on_every_line():
    """Budget 2013 against the December offer, nationally and for Ontario."""
    budget, december = compute(BUDGET_2013, REFERENCE), compute(DECEMBER_2013, REFERENCE)
    comparison = compare(budget, december)
    assert comparison.a is budget and comparison.b is december
    assert comparison.national.federal_cost == D(300 * M)
    assert comparison.national.provincial_cost == D(-300 * M)
    assert comparison.national.provinces_need == D(-300 * M)
    assert comparison.national.trainees == 0
    ontario = lines_of(comparison, "ON")
    for name in LINE_NAMES:
        assert getattr(ontario, name) == getattr(lines_of(december, "ON"), name) - getattr(lines_of(budget, "ON"), name)


def test_compare_with_the_status_quo():
    """Against the status quo the difference is the offer's own flows."""
    comparison = compare(status_quo(REFERENCE), compute(BUDGET_2013, REFERENCE))
    assert comparison.national.trainees == 60000
    assert comparison.national.lma_allocation == 0
    assert comparison.national.lma_remaining == D(-300 * M)


def test_compare_refuses_different_jurisdictions():
    """Effects over different sets of P/Ts cannot be lined up."""
    smaller = ReferenceData(jurisdictions=REFERENCE.jurisdictions[:12], envelopes=REFERENCE.envelopes)
    with pytest.raises(ValueError):
        compare(compute(BUDGET_2013, REFERENCE), compute(BUDGET_2013, smaller))


def test_a_callers_decimal_context_does_not_change_the_figures():
    """The engine keeps its own precision: a caller's 6-digit context cannot round $300M."""
    terms, scenario = replace(BUDGET_2013, shortfall_liability=Liability.PROVINCE), Scenario(participation=D("0.37"))
    with localcontext() as context:
        context.prec = 6
        national = compute(terms, REFERENCE, scenario).national
    assert national == compute(terms, REFERENCE, scenario).national
    assert national.federal_cost == D(300 * M)
    assert national.employer_shortfall == D(189 * M)


# --- the shape of the module --------------------------------------------------------------------


def test_line_names():
    """The twelve lines of the API, trainees first."""
    assert LINE_NAMES == (
        "trainees", "federal_cost", "provincial_cost", "employer_cost", "lma_diverted", "lmda_redirected",
        "provincial_new_money", "lma_allocation", "lma_remaining", "provinces_need", "employer_shortfall",
        "provincial_liability",
    )  # fmt: skip
    assert list(compute(BUDGET_2013, REFERENCE).national.as_dict()) == list(LINE_NAMES)


def test_enum_values():
    """The stored values the API and the database use."""
    assert [p.value for p in Program] == ["LMA", "LMDA", "CJF", "PT_OWN", "FEDERAL_NEW"]
    assert [p.value for p in Payer] == ["federal", "provincial", "employer"]
    assert [t.value for t in Treatment] == ["participates", "opts_out_compensated", "federal_direct"]
    assert [li.value for li in Liability] == ["province", "federal", "none"]


def test_inputs_and_outputs_are_frozen_and_keyword_only():
    """Values cannot be changed after the fact, nor built from positional arguments."""
    effect = compute(BUDGET_2013, REFERENCE)
    with pytest.raises(FrozenInstanceError):
        effect.national.trainees = 1
    with pytest.raises(FrozenInstanceError):
        BUDGET_2013.max_grant = D(1)
    with pytest.raises(TypeError):
        Jurisdiction("ON", 1)


def _imports(path: Path) -> list[tuple[int, str | None]]:
    """(level, module) of every import in the file at ``path``: level > 0 for a relative import."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.extend((0, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module))
    return found


# What negotiations.terms may import beside the standard library: the choices' base class and lazy
# translation, neither of which reads settings or the database at import.
# negotiations.terms writes its messages through the one formatter (config.numbers: Django formats only).
TERMS_DJANGO_IMPORTS = {"django.db.models.enums", "django.utils.translation", "django.utils.functional", "config.numbers"}


def test_the_engine_imports_only_the_standard_library_and_the_term_vocabulary():
    """grants/fiscal.py stays pure: nothing outside the stdlib but its sibling and negotiations.terms,
    which is pure too (no database, no settings at import)."""
    for level, module in _imports(Path(grants.fiscal.__file__)):
        if level:  # relative: grants.allocation
            assert module == "allocation"
        elif module != "negotiations.terms":
            assert module.split(".")[0] in sys.stdlib_module_names, module
    for level, module in _imports(Path(negotiations.terms.__file__)):
        assert not level
        assert module.split(".")[0] in sys.stdlib_module_names or module in TERMS_DJANGO_IMPORTS, module
