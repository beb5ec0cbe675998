"""The offer-terms rules (negotiations.terms): each refusal names its field and says why, in words."""

from decimal import Decimal

import pytest

from negotiations.terms import TermsProblem, check_terms, problems_by_field

BUDGET_2013 = dict(
    max_grant=Decimal("15000"),
    federal_amount=Decimal("5000"),
    provincial_amount=Decimal("5000"),
    employer_amount=Decimal("5000"),
    sources=[("federal", "LMA", Decimal("5000")), ("provincial", "PT_OWN", Decimal("5000"))],
    employer_min_share=None,
    scale_amount=Decimal("300000000"),
    scale_program="LMA",
)


def terms(**changes):
    return {**BUDGET_2013, **changes}


def test_budget_2013_terms_hold():
    assert check_terms(**BUDGET_2013) == []


def test_december_offer_terms_hold():
    """Ottawa pays 10,000 from the LMA and the LMDA; the provinces pay nothing and list no source."""
    assert check_terms(**terms(
        federal_amount=Decimal("10000"),
        provincial_amount=Decimal("0"),
        sources=[("federal", "LMA", Decimal("5000")), ("federal", "LMDA", Decimal("5000"))],
        employer_min_share=Decimal("0.15"),
    )) == []


def test_ints_are_accepted_as_amounts():
    assert check_terms(
        max_grant=15000, federal_amount=5000, provincial_amount=5000, employer_amount=5000,
        sources=[("federal", "LMA", 5000), ("provincial", "PT_OWN", 5000)],
    ) == []


def test_split_that_does_not_add_up_is_refused_on_max_grant_naming_the_numbers():
    problems = check_terms(**terms(employer_amount=Decimal("4000"), sources=None))
    assert problems == [TermsProblem(
        "max_grant",
        "The federal, provincial and employer amounts ($5,000 + $5,000 + $4,000) add up to $14,000"
        " but the maximum grant is $15,000.",
    )]


def test_federal_sources_that_do_not_add_up_are_refused():
    problems = check_terms(**terms(sources=[("federal", "LMA", Decimal("4000")), ("provincial", "PT_OWN", Decimal("5000"))]))
    assert problems == [TermsProblem(
        "funding_sources", "Federal sources add up to $4,000 but the federal amount is $5,000."
    )]


def test_provincial_amount_without_sources_is_refused():
    problems = check_terms(**terms(sources=[("federal", "LMA", Decimal("5000"))]))
    assert problems == [TermsProblem(
        "funding_sources", "Provincial sources add up to $0 but the provincial amount is $5,000."
    )]


def test_federal_money_from_provincial_own_revenue_is_refused():
    problems = check_terms(**terms(sources=[
        ("federal", "LMA", Decimal("2500")), ("federal", "PT_OWN", Decimal("2500")),
        ("provincial", "PT_OWN", Decimal("5000")),
    ]))
    assert problems == [TermsProblem(
        "funding_sources",
        "The federal government cannot pay from a province's or territory's own revenue (PT_OWN).",
    )]


def test_provincial_money_from_new_federal_money_is_refused():
    problems = check_terms(**terms(sources=[
        ("federal", "LMA", Decimal("5000")), ("provincial", "FEDERAL_NEW", Decimal("5000")),
    ]))
    assert problems == [TermsProblem(
        "funding_sources", "A province or territory cannot pay with new federal money (FEDERAL_NEW)."
    )]


def test_program_listed_twice_for_one_payer_is_refused():
    problems = check_terms(**terms(sources=[
        ("federal", "LMA", Decimal("2500")), ("federal", "LMA", Decimal("2500")),
        ("provincial", "PT_OWN", Decimal("5000")),
    ]))
    assert problems == [TermsProblem("funding_sources", "Federal money from LMA is listed more than once.")]


def test_employer_and_unknown_programs_have_no_sources():
    problems = check_terms(**terms(sources=[
        ("federal", "LMA", Decimal("5000")), ("provincial", "PT_OWN", Decimal("5000")),
        ("employer", "LMA", Decimal("1")), ("federal", "EI", Decimal("0")),
    ]))
    assert problems == [
        TermsProblem("funding_sources", "Only the federal and provincial governments have funding sources, not “employer”."),
        TermsProblem("funding_sources", "“EI” is not a program; use one of LMA, LMDA, CJF, PT_OWN, FEDERAL_NEW."),
    ]


def test_negative_source_amount_is_refused():
    problems = check_terms(**terms(sources=[
        ("federal", "LMA", Decimal("6000")), ("federal", "LMDA", Decimal("-1000")),
        ("provincial", "PT_OWN", Decimal("5000")),
    ]))
    assert problems == [TermsProblem("funding_sources", "The federal amount from LMDA cannot be negative (got −$1,000).")]


def test_scale_program_nobody_draws_on_is_refused():
    problems = check_terms(**terms(scale_program="CJF"))
    assert problems == [TermsProblem(
        "funding_sources",
        "The scale is drawn from CJF but no payer takes anything from CJF per trainee,"
        " so the number of trainees cannot be worked out.",
    )]


def test_max_grant_must_be_positive():
    problems = check_terms(**terms(
        max_grant=Decimal("0"), federal_amount=Decimal("0"), provincial_amount=Decimal("0"),
        employer_amount=Decimal("0"), sources=[], scale_program=None,
    ))
    assert problems == [TermsProblem("max_grant", "The maximum grant must be greater than zero (got $0).")]


def test_negative_payer_amount_is_refused_on_its_field():
    problems = check_terms(**terms(
        federal_amount=Decimal("-1000"), employer_amount=Decimal("11000"), sources=None,
    ))
    assert problems == [TermsProblem("federal_amount", "The federal amount cannot be negative (got −$1,000).")]


@pytest.mark.parametrize("share", [Decimal("-0.1"), Decimal("1.5")])
def test_employer_min_share_outside_zero_to_one_is_refused(share):
    problems = check_terms(**terms(employer_min_share=share))
    assert problems == [TermsProblem(
        "employer_min_share",
        f"The employer minimum share is a fraction between 0 and 1, such as 0.15 (got {share}).",
    )]


def test_scale_amount_must_be_positive():
    problems = check_terms(**terms(scale_amount=Decimal("0")))
    assert problems == [TermsProblem("scale_amount", "The national amount drawn must be greater than zero (got $0).")]


def test_sources_none_skips_the_source_rules():
    assert check_terms(**terms(sources=None, scale_program="CJF")) == []


def test_unknown_amounts_skip_only_the_rules_that_need_them():
    """A formset after the offer form refused max_grant still checks the sources against the payers."""
    problems = check_terms(**terms(max_grant=None, sources=[("federal", "LMA", Decimal("4000"))]))
    assert problems == [
        TermsProblem("funding_sources", "Federal sources add up to $4,000 but the federal amount is $5,000."),
        TermsProblem("funding_sources", "Provincial sources add up to $0 but the provincial amount is $5,000."),
    ]
    assert check_terms(**terms(provincial_amount=None, sources=[("federal", "LMA", Decimal("5000"))])) == []


def test_every_problem_is_reported_at_once():
    problems = check_terms(**terms(
        employer_amount=Decimal("4000"), employer_min_share=Decimal("2"),
        sources=[("federal", "LMA", Decimal("4000"))],
    ))
    assert [p.field for p in problems] == ["max_grant", "employer_min_share", "funding_sources", "funding_sources"]


def test_floats_are_a_programming_error():
    with pytest.raises(TypeError):
        check_terms(**terms(max_grant=15000.0))


def test_problems_by_field_groups_messages_in_order():
    problems = [TermsProblem("max_grant", "a"), TermsProblem("funding_sources", "b"), TermsProblem("max_grant", "c")]
    assert problems_by_field(problems) == {"max_grant": ["a", "c"], "funding_sources": ["b"]}


def test_term_paths_name_every_term_once():
    from negotiations.terms import term_paths

    paths = term_paths(["QC", "ON"])
    assert len(paths) == len(set(paths))
    assert paths[:4] == ("max_grant", "split.federal", "split.provincial", "split.employer")
    assert "sources.federal.LMA" in paths and "sources.provincial.PT_OWN" in paths
    # Ottawa cannot spend a province's own revenue, nor a province new federal money: no such term.
    assert "sources.federal.PT_OWN" not in paths and "sources.provincial.FEDERAL_NEW" not in paths
    assert paths[-3:] == ("treatments.QC", "treatments.ON", "phase_in")


def test_term_value_reads_each_kind_of_path():
    from negotiations.terms import OfferTerms, term_value

    offer = OfferTerms(
        max_grant=Decimal("15000"), federal_amount=Decimal("5000"), provincial_amount=Decimal("5000"),
        employer_amount=Decimal("5000"), scale_amount=Decimal("300000000"),
        sources=(("federal", "LMA", Decimal("5000")), ("provincial", "PT_OWN", Decimal("5000"))),
        treatments=(("QC", "opts_out_compensated"),), phase_in=(("2014-15", Decimal("0.5")),),
    )
    assert term_value(offer, "split.employer") == Decimal("5000")
    assert term_value(offer, "sources.federal.LMA") == Decimal("5000")
    assert term_value(offer, "sources.federal.LMDA") == 0
    assert term_value(offer, "scale") == Decimal("300000000")
    assert term_value(offer, "treatments.QC") == "opts_out_compensated"
    assert term_value(offer, "treatments.ON") == "participates"
    assert term_value(offer, "shortfall_liability") == "none"
    assert term_value(offer, "phase_in") == (("2014-15", Decimal("0.5")),)
    with pytest.raises(KeyError):
        term_value(offer, "split.nobody")
