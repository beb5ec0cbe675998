"""The one money parser: what people type ("$300M", "300 million", "15 000,50") read exactly, and a
message with an example for anything else (issue 16 point 4, issue 15 point 4)."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from negotiations.money import EXAMPLE, MoneyError, parse_money

amounts = st.decimals(min_value=0, max_value=Decimal("999999999999.99"), places=2, allow_nan=False)
wholes = st.integers(min_value=0, max_value=10**12)


def english(amount: Decimal) -> str:
    return f"{amount:,.2f}"


def french(amount: Decimal, space: str = "\u202f") -> str:
    return f"{amount:,.2f}".replace(",", space).replace(".", ",")


@pytest.mark.parametrize("text, amount", [
    ("$300M", 300_000_000), ("300 million", 300_000_000), ("$300 million", 300_000_000),
    ("300,000,000", 300_000_000), ("$15,000", 15_000), ("3.75 k", 3_750), ("15000", 15_000),
    ("15 000,50", Decimal("15000.50")), ("300 000 000 $", 300_000_000), ("3,75 k", 3_750),
    ("300 millions de dollars", 300_000_000), ("1,2 milliard", 1_200_000_000), ("$1.2B", 1_200_000_000),
    ("CA$ 500", 500), ("500 CAD", 500), ("15,000.50", Decimal("15000.50")), ("−5000", -5000),
])
def test_the_common_forms(text, amount):
    assert parse_money(text) == Decimal(amount)


@pytest.mark.parametrize("text, says", [
    ("3750e", "“e” is not a known unit"), ("abc", "is not an amount of money"), ("", "No amount was given"),
    ("1,00,000", "not grouped"), ("12 34", "not grouped"), ("$", "is not an amount of money"),
    ("9" * 100, "too long"),
])
def test_anything_else_says_what_was_wrong_with_an_example(text, says):
    with pytest.raises(MoneyError) as caught:
        parse_money(text)
    assert says in caught.value.message
    assert any(example in caught.value.message for example in ("$300M", "300 million", "300,000,000"))


@given(amounts)
def test_english_grouping_with_or_without_dollar_sign(amount):
    assert parse_money(english(amount)) == amount
    assert parse_money("$" + english(amount)) == amount
    assert parse_money(f"{amount:f}") == amount


@given(amounts, st.sampled_from(["\u202f", "\u00a0", " "]))
def test_french_grouping_with_the_dollar_sign_after(amount, space):
    assert parse_money(french(amount, space)) == amount
    assert parse_money(french(amount, space) + " $") == amount


@given(wholes)
def test_millions_and_thousands_in_words_and_letters(n):
    assert parse_money(f"{n} million") == n * 10**6
    assert parse_money(f"${n}M") == n * 10**6
    assert parse_money(f"{n}k") == n * 1000
    assert parse_money(f"{n:,} thousand") == n * 1000


@given(st.text(max_size=80))
def test_any_text_is_an_amount_or_a_money_error(text):
    try:
        value = parse_money(text)
    except MoneyError as error:
        assert error.message and (EXAMPLE in error.message or "k (thousand)" in error.message
                                  or "Group thousands" in error.message)
    else:
        assert isinstance(value, Decimal) and value.is_finite()
