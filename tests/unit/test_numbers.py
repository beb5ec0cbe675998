"""How figures are written (config.numbers.Numbers): as Django's number_format writes them, in each language.

Numbers looks the language's separators up once and formats with Python; Django's
``number_format(value, decimal_pos=places, force_grouping=True)`` is the reference it must match,
for counts and money, in English and in French (which groups with a no-break space and writes a
decimal comma).
"""

from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.formats import number_format
from hypothesis import given, settings
from hypothesis import strategies as st

from config.numbers import format_count, format_fiscal_year, format_money, numbers
from grants.presentation import format_change
from tests.profiles import examples

LANGUAGES = ["en", "fr"]
MONEY = st.decimals(min_value=Decimal("-1e15"), max_value=Decimal("1e15"), places=2, allow_nan=False)
ANY_DECIMAL = st.decimals(min_value=Decimal("-1e15"), max_value=Decimal("1e15"), allow_nan=False,
                          allow_infinity=False)
COUNTS = st.integers(min_value=-(10**15), max_value=10**15)


@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=examples(300), derandomize=True)
@given(value_places=st.one_of(
    st.tuples(st.one_of(COUNTS, MONEY.map(abs), ANY_DECIMAL.map(abs)), st.sampled_from([0, 2])),
    st.tuples(MONEY, st.just(2)),  # negative money at its own precision: nothing to cut
))
def test_grouped_writes_what_number_format_writes(language, value_places):
    value, places = value_places
    with translation.override(language):
        assert numbers().grouped(value, places) == number_format(value, decimal_pos=places, force_grouping=True)


def test_a_negative_value_cut_to_zero_is_written_without_its_sign():
    # Where Django writes "-0" (its cut keeps the sign), a figure reads 0.
    assert number_format(Decimal("-0.5"), decimal_pos=0, force_grouping=True) == "-0"
    with translation.override("en"):
        assert numbers().grouped(Decimal("-0.5"), 0) == "0"
        assert numbers().grouped(Decimal("-0.001"), 2) == "0.00"


@pytest.mark.parametrize(("language", "amount", "written"), [
    ("en", Decimal("300000000.00"), "$300,000,000"),
    ("en", Decimal("1234.5"), "$1,234.50"),
    ("en", Decimal("-0.01"), "\u2212$0.01"),
    ("en", Decimal("0"), "$0"),
    ("fr", Decimal("300000000.00"), "300\xa0000\xa0000\xa0$"),  # fr-CA: the sign after, a no-break space
    ("fr", Decimal("1234.5"), "1\xa0234,50\xa0$"),
    ("fr", Decimal("15000"), "15\xa0000\xa0$"),
    ("fr", Decimal("-0.01"), "\u22120,01\xa0$"),
])
def test_money_shows_cents_only_when_there_are_any(language, amount, written):
    with translation.override(language):
        assert format_money(amount) == written


def test_counts_and_changes():
    with translation.override("en"):
        assert format_count(30_000_000_000) == "30,000,000,000"
        assert format_change("trainees", -1500) == "\u22121,500"
        assert format_change("federal_cost", Decimal("300000000.00")) == "+$300,000,000"
        assert format_change("federal_cost", Decimal("0.00")) == "$0"


def test_each_language_keeps_its_own_style():
    with translation.override("fr"):
        french = format_money(Decimal("1234.5"))
    with translation.override("en"):
        english = format_money(Decimal("1234.5"))
    assert (english, french) == ("$1,234.50", "1\xa0234,50\xa0$")


@pytest.mark.parametrize(("language", "value", "places", "written"), [
    ("en", Decimal("0.150"), 3, "0.15"), ("fr", Decimal("0.150"), 3, "0,15"),
    ("fr", Decimal("0.1250"), 4, "0,125"), ("en", Decimal("1.0000"), 4, "1"),
    ("fr", Decimal("12345.5"), 2, "12\xa0345,5"),
])
def test_decimals_drop_trailing_zeros_in_each_language(language, value, places, written):
    with translation.override(language):
        assert numbers().decimal(value, places) == written


@pytest.mark.parametrize(("language", "fraction", "written"), [
    ("en", Decimal("0.15"), "15%"), ("fr", Decimal("0.15"), "15\xa0%"), ("fr", Decimal("0.125"), "12,5\xa0%"),
])
def test_percentages_in_each_language(language, fraction, written):
    with translation.override(language):
        assert numbers().percent(fraction) == written


def test_as_of_a_date_is_a_phrase_of_each_language_at_the_date_s_precision():
    # "as of" then the date read « au vers le 29 janvier 2014 » beside an approximate stance, « au janvier 2014 »
    # beside one known to the month.
    import datetime

    from config.numbers import format_as_of

    day = datetime.date(2014, 1, 29)
    with translation.override("fr"):
        assert [format_as_of(day, precision) for precision in ("day", "approximate", "month", "year")] == [
            "au 29 janvier 2014", "vers le 29 janvier 2014", "en janvier 2014", "en 2014"]
    with translation.override("en"):
        assert [format_as_of(day, precision) for precision in ("day", "approximate", "month", "year")] == [
            "as of January 29, 2014", "as of about January 29, 2014", "as of January 2014", "as of 2014"]


def test_a_position_is_named_with_its_date_as_of_its_precision():
    # The admin names a position by its government, stance and date: « ON s'oppose au janvier 2014 » before.
    import datetime

    from negotiations.models import Jurisdiction, Position, Stance

    def named(precision):
        return str(Position(jurisdiction=Jurisdiction(code="ON"), stance=Stance.OPPOSES,
                            as_of=datetime.date(2014, 1, 29), date_precision=precision))

    with translation.override("fr"):
        assert [named(precision) for precision in ("day", "month", "approximate")] == [
            "ON s'oppose au 29 janvier 2014", "ON s'oppose en janvier 2014", "ON s'oppose vers le 29 janvier 2014"]
    with translation.override("en"):
        assert named("month") == "ON opposes as of January 2014"


def test_dates_in_words_in_each_language():
    import datetime

    from config.numbers import format_date

    day = datetime.date(2014, 1, 28)
    with translation.override("fr"):
        assert (format_date(day), format_date(day, "month"), format_date(day, "year")) == (
            "28 janvier 2014", "janvier 2014", "2014")
    with translation.override("en"):
        assert format_date(day) == "January 28, 2014"
    # The first of a month, as French writes it ("1 avril 2014" before)
    first = datetime.date(2014, 4, 1)
    with translation.override("fr"):
        assert (format_date(first), format_date(first, "month")) == ("1er avril 2014", "avril 2014")
        assert format_date(datetime.date(2014, 4, 11)) == "11 avril 2014"
    with translation.override("en"):
        assert format_date(first) == "April 1, 2014"


def test_the_engine_s_explanations_read_in_french():
    from grants.presentation import trace_text

    formula = "national trainees × population share, in whole trainees (largest remainder)"
    with translation.override("fr"):
        assert trace_text(formula) == (
            "stagiaires à l'échelle nationale × part de la population, en stagiaires entiers (plus fort reste)")
        assert trace_text("sum of provinces_need over the 13 provinces and territories") == (
            "somme de «\xa0À trouver par les P.-T.\xa0» sur les 13 provinces et territoires")
    with translation.override("en"):
        assert trace_text(formula) == formula
        # the explanation showed the line's code: "sum of employer_cost over the 13 provinces and territories"
        assert trace_text("sum of employer_cost over the 13 provinces and territories") == (
            "sum of “Employer cost” over the 13 provinces and territories")


def test_no_english_is_left_in_the_french_explanations():
    # "Formule : 0 (liability rests with none)", "(the P/T is liable)", ", to the cent" and "prélèvement … sur LMA"
    # came out in English on the French explanation pages: the engine's phrases missing from TRACE_PHRASES.
    import re
    from dataclasses import replace

    from grants import fiscal
    from grants.presentation import trace_text
    from negotiations.terms import Liability, Treatment
    from tests.unit.test_fiscal import BUDGET_2013, DECEMBER_2013, PHASE_IN, REFERENCE

    english = re.compile(r"\b(the|with|rests|liable|delivers|here|carries|none|from|and|per|draw|draws|over|sum|"
                         r"trainees?|federal|money|new|LMA|LMDA|CJF|PT_OWN|own|revenue|allocated|employer|shortfall|"
                         r"liability|whole|remainder|opts|out|nothing|diverted|backfill|treatment|nobody)\b")
    left = set()
    for terms in (BUDGET_2013, DECEMBER_2013):
        for liability in Liability:
            for treatment in (None, Treatment.FEDERAL_DIRECT, Treatment.OPTS_OUT_COMPENSATED):
                for participation, phase_in in ((Decimal(1), PHASE_IN), (Decimal("0.5"), ())):
                    varied = replace(terms, shortfall_liability=liability, phase_in=phase_in,
                                     treatments=(("ON", treatment),) if treatment else ())
                    scenario = fiscal.Scenario(participation=participation)
                    for effect in (fiscal.compute(varied, REFERENCE, scenario), fiscal.status_quo(REFERENCE, scenario)):
                        for line in fiscal.LINE_NAMES:
                            for code in (None, "ON", "QC"):
                                trace = effect.explain(line, code)
                                with translation.override("fr"):
                                    texts = [trace_text(trace.formula), *(trace_text(name) for name, _ in trace.inputs)]
                                left |= {text for text in texts if english.search(re.sub(r"«[^»]*»", "", text))}
    assert sorted(left) == []


@pytest.mark.parametrize(("language", "year", "written"), [
    ("en", "2014-15", "2014-15"), ("fr", "2014-15", "2014-2015"), ("fr", "1999-00", "1999-2000"),
    ("fr", "2099-00", "2099-2100"), ("fr", "next year", "next year"), ("fr", "2014-2015", "2014-2015"),
    ("fr", "", ""),
])
def test_a_fiscal_year_is_written_as_the_language_writes_it(language, year, written):
    # French tables read "2014-15" beside prose that reads "en 2014-2015", as Canada's French writes fiscal years.
    with translation.override(language):
        assert format_fiscal_year(year) == written


def test_a_month_heading_is_abbreviated_as_each_language_writes_it():
    import datetime

    from config.numbers import format_short_month

    months = [datetime.date(2014, month, 1) for month in range(1, 13)]
    with translation.override("fr"):
        assert [format_short_month(month).split()[0] for month in months] == [
            "janv.", "févr.", "mars", "avr.", "mai", "juin", "juill.", "août", "sept.", "oct.", "nov.", "déc."]
    with translation.override("en"):
        assert format_short_month(months[0]) == "Jan. 2014" and format_short_month(months[8]) == "Sept. 2014"
