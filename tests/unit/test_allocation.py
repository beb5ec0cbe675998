"""Largest-remainder allocation: whole units over weights, parts adding up exactly."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grants.allocation import largest_remainder
from tests import shared
from tests.profiles import examples

# Statistics Canada estimates for 1 July 2013, NL to NU.
POPULATIONS = tuple(shared.POPULATIONS.values())


@pytest.mark.parametrize("total", [0, 1, 13, 60_000, 130_000, 500_000_000])
def test_parts_add_up_to_the_total(total):
    """The parts sum to the total exactly, whatever the total."""
    assert sum(largest_remainder(total, POPULATIONS)) == total


def test_each_part_is_within_one_unit_of_its_quota():
    """No part strays a whole unit from its exact population share."""
    total = 60_000
    parts = largest_remainder(total, POPULATIONS)
    weight_sum = sum(POPULATIONS)
    for part, weight in zip(parts, POPULATIONS):
        assert abs(part - Fraction(total * weight, weight_sum)) < 1


def test_leftover_units_go_to_the_largest_remainders():
    """Quotas 2.2, 1.7, 1.1 round to 2, 2, 1: the 0.7 remainder gets the spare unit."""
    assert largest_remainder(5, [22, 17, 11]) == (2, 2, 1)


def test_equal_remainders_go_to_the_larger_weight_first():
    """Quotas 0.5 and 1.5 tie on remainder; the larger weight wins, wherever it stands."""
    assert largest_remainder(2, [1, 3]) == (0, 2)
    assert largest_remainder(2, [3, 1]) == (2, 0)


def test_equal_remainders_and_weights_go_to_the_earlier_position():
    """With nothing else to tell them apart, earlier parts get the spare units."""
    assert largest_remainder(2, [1, 1, 1]) == (1, 1, 0)
    assert largest_remainder(1, [5, 5]) == (1, 0)


def test_same_inputs_give_the_same_parts():
    """The result depends only on the inputs (no hidden ordering or randomness)."""
    assert largest_remainder(7, [1] * 13) == largest_remainder(7, [1] * 13) == (1,) * 7 + (0,) * 6


def test_zero_total_gives_zero_parts():
    """Nothing to share: every part is zero."""
    assert largest_remainder(0, POPULATIONS) == (0,) * 13


def test_zero_weight_gets_nothing():
    """A part with no weight never receives a leftover unit."""
    assert largest_remainder(3, [0, 1, 0, 1]) == (0, 2, 0, 1)


def test_all_zero_weights_with_zero_total_give_zeros():
    """Zero over zero weights is an empty allocation, not an error."""
    assert largest_remainder(0, [0, 0, 0]) == (0, 0, 0)
    assert largest_remainder(0, []) == ()


def test_positive_total_without_weight_is_refused():
    """There is no way to share units when every weight is zero."""
    with pytest.raises(ValueError):
        largest_remainder(5, [0, 0])
    with pytest.raises(ValueError):
        largest_remainder(5, [])


def test_decimal_and_fraction_weights_are_exact():
    """Non-integer weights allocate exactly as their integer equivalents."""
    assert largest_remainder(2, [Decimal("0.5"), Decimal("1.5")]) == largest_remainder(2, [1, 3])
    assert largest_remainder(10, [Fraction(1, 3), Fraction(2, 3)]) == largest_remainder(10, [1, 2])


@pytest.mark.parametrize(
    ("total", "weights", "error"),
    [
        (-1, [1, 2], ValueError),
        (3, [1, -2], ValueError),
        (3, [1.0, 2.0], TypeError),
        (3.0, [1, 2], TypeError),
        (True, [1, 2], TypeError),
        (3, [Decimal("NaN"), 1], ValueError),
    ],
)
def test_bad_inputs_are_refused(total, weights, error):
    """Negative, non-finite and float inputs are errors, not silently rounded."""
    with pytest.raises(error):
        largest_remainder(total, weights)


@settings(max_examples=examples(300), database=None, deadline=None)
@given(
    total=st.integers(min_value=0, max_value=10**9),
    weights=st.lists(st.integers(min_value=0, max_value=10**8), min_size=1, max_size=20).filter(any),
)
def test_any_allocation_adds_up_and_stays_near_its_quotas(total, weights):
    """For any total and weights: exact sum, parts within one unit of their quotas."""
    parts = largest_remainder(total, weights)
    assert sum(parts) == total
    weight_sum = sum(weights)
    for part, weight in zip(parts, weights):
        assert part >= 0
        assert abs(part - Fraction(total * weight, weight_sum)) < 1
