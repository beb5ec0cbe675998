"""Share a whole number of units over weights so that the parts add up exactly.

This is the largest-remainder (Hamilton) method. Each part first gets the whole
units of its exact quota, ``total * weight / sum(weights)``; the units that are
left over go one at a time to the parts with the largest fractional remainders.
The engine uses it for trainees per province or territory and for the LMA
dollars each one receives, so that every national figure is exactly the sum of
its parts.

The arithmetic is on integers only: no rounding is involved, so the result
depends on nothing but the inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from math import lcm

__all__ = ["largest_remainder"]


def largest_remainder(total: int, weights: Sequence[int | Decimal | Fraction]) -> tuple[int, ...]:
    """Split ``total`` whole units over ``weights``, returning one part per weight.

    The parts are non-negative integers that add up to ``total`` exactly, and
    each differs from its exact quota by less than one unit. Leftover units go
    to the largest remainders; equal remainders are broken by the larger
    weight first, then by position (earlier first), so the result is
    deterministic. A zero weight always gets zero.

    Raises ``ValueError`` for a negative total or weight, or for a positive
    total with nothing to weigh it by (no weights, or all of them zero), and
    ``TypeError`` for a non-integer total or a float or bool weight.
    """
    if isinstance(total, bool) or not isinstance(total, int):
        raise TypeError(f"total must be an int, not {type(total).__name__}")
    if total < 0:
        raise ValueError(f"total must not be negative (got {total})")
    scaled = _as_integers(weights)
    weight_sum = sum(scaled)
    if weight_sum == 0:
        if total == 0:
            return (0,) * len(scaled)
        raise ValueError("cannot share a positive total when there is no weight to share it by")

    parts: list[int] = []
    remainders: list[int] = []
    for weight in scaled:
        whole, remainder = divmod(total * weight, weight_sum)
        parts.append(whole)
        remainders.append(remainder)

    # The quotas' fractions add up to a whole number of units (at most one per part).
    left_over = total - sum(parts)
    if left_over:
        # Remainders share the denominator weight_sum, so comparing numerators is exact.
        order = sorted(range(len(scaled)), key=lambda i: (-remainders[i], -scaled[i], i))
        for index in order[:left_over]:
            parts[index] += 1
    return tuple(parts)


def _as_integers(weights: Sequence[int | Decimal | Fraction]) -> list[int]:
    """Return integers proportional to the weights (exactly), checking each one."""
    if all(type(weight) is int for weight in weights):  # the common case: populations
        if any(weight < 0 for weight in weights):
            raise ValueError(f"weights must not be negative (got {min(weights)})")
        return list(weights)
    for weight in weights:
        if isinstance(weight, (bool, float)) or not isinstance(weight, (int, Decimal, Fraction)):
            raise TypeError(f"weights must be int, Decimal or Fraction, not {type(weight).__name__}")
        if isinstance(weight, Decimal) and not weight.is_finite():
            raise ValueError(f"weights must be finite (got {weight})")
        if weight < 0:
            raise ValueError(f"weights must not be negative (got {weight})")
    # Bring every weight over one common denominator; proportions are unchanged.
    ratios = [weight.as_integer_ratio() for weight in weights]
    denominator = lcm(*(den for _, den in ratios))
    return [num * (denominator // den) for num, den in ratios]
