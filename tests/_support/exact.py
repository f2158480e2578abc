"""Exact comparisons for the outward-rounding tests: a float against an exact value (mpmath or a Fraction), with no
tolerance."""

import math
from fractions import Fraction

import mpmath as mp


def mpf(x) -> mp.mpf:
    """The exact value of a float in mpmath (53 bits fit in the tests' working precision)."""
    return mp.mpf(float(x))


def mp_of(q: Fraction) -> mp.mpf:
    return mp.mpf(q.numerator) / q.denominator


def at_least(got, want) -> bool:
    """got ≥ want exactly (``want`` a Fraction or an mpf), and not 0 where want > 0; +inf is at least anything."""
    if math.isinf(got):
        return got > 0
    ok = Fraction(float(got)) >= want if isinstance(want, Fraction) else mpf(got) >= want
    return ok and (not want > 0 or got > 0)
