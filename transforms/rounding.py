"""The one rounding of the rules (docs/rules.md §0): to an integer, half away from zero.

Exact on integers and fractions (PJ, the bonus B, quota boundaries); on floats (Elo
changes under the FIDE switch, bars rounded to a step) it rounds the float as given.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


def round_half_away(value: Fraction | int | float) -> int:
    """One number rounded half away from zero (exact for a Fraction or an int)."""
    if isinstance(value, float):
        return int(math.copysign(math.floor(abs(value) + 0.5), value))
    exact = Fraction(value)
    magnitude = math.floor(abs(exact) + Fraction(1, 2))
    return -magnitude if exact < 0 else magnitude


def divide_half_away(numerator: np.ndarray | int, denominator: np.ndarray | int) -> np.ndarray:
    """Integers numerator / denominator rounded half away from zero, exactly (Int64)."""
    den = np.asarray(denominator, dtype=np.int64)
    if np.any(den <= 0):
        raise ValueError(f"denominators must be positive, got {denominator}")
    num = np.asarray(numerator, dtype=np.int64)
    return np.sign(num) * ((2 * np.abs(num) + den) // (2 * den))


def round_half_away_array(values: np.ndarray) -> np.ndarray:
    """Floats rounded to whole numbers, half away from zero (Float64)."""
    x = np.asarray(values, dtype=np.float64)
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def round_to_step(value: float, step: int) -> int:
    """`value` rounded to the nearest multiple of `step`, half away from zero."""
    return round_half_away(value / step) * step
