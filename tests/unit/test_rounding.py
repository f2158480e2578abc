"""``_rounding.exp_up(log_x, rel)``: e^{log_x}·(1 + rel) rounded up at every magnitude, the last step of a δ computed
in logs (``conversions.zcdp_delta``, ``mechanisms.gaussian_delta``).

The reference is mpmath at 60 digits, from the exact binary value of each float argument; it imports nothing from
the package.  The grid covers the three edges where an exponential goes wrong: the subnormal range (``np.exp`` keeps
only absolute accuracy there and returns 0 below 2.5e-324), the boundary of the normal range (2.2e-308, where the
rounding changes regime), and overflow (e^{709.78…}).  Each test asserts the direction (never below the exact value)
and the size (a few ulps above it in the normal range, one or two subnormal steps below it).  ``rational_up(q)``, the
smallest float not below a rational (the releases' ρ and sums), is checked against the rational itself."""

from __future__ import annotations

import itertools

import mpmath
import numpy as np
import pytest

from dpsemantics import _rounding

TINY = 2.2250738585072014e-308  # the smallest normal float
SMALLEST = 5e-324
LOG_TINY = float(mpmath.log(mpmath.mpf(TINY)))  # −708.396…
LOG_MAX = float(mpmath.log(mpmath.mpf(np.finfo(float).max)))  # 709.782…

RELS = [0.0, 1e-300, 2.2e-16, 2e-12, 3.7e-5, 0.5, 1.0]


def _around(x: float, steps: int) -> list[float]:
    """x and the floats up to ``steps`` ulps on either side of it."""
    out = [x]
    lo = hi = x
    for _ in range(steps):
        lo, hi = float(np.nextafter(lo, -np.inf)), float(np.nextafter(hi, np.inf))
        out += [lo, hi]
    return out


LOGS = sorted(set(
    list(np.linspace(-745.2, -708.0, 61))  # the subnormals, down to below the smallest one
    + _around(LOG_TINY, 8) + list(np.linspace(LOG_TINY - 1e-9, LOG_TINY + 1e-9, 9))  # the normal boundary
    + list(np.linspace(-700.0, 700.0, 57)) + [-1e-300, 0.0, 1e-300, 1e-17, 0.6931471805599453, 1.0]  # the bulk
    + _around(LOG_MAX, 4) + [709.0, 709.7]  # the largest finite exponentials
))


def exact(log_x: float, rel: float) -> mpmath.mpf:
    with mpmath.workdps(60):
        return mpmath.exp(mpmath.mpf(log_x)) * (1 + mpmath.mpf(rel))


@pytest.mark.parametrize("rel", RELS)
def test_exp_up_is_never_below_the_exact_value_and_close_to_it(rel):
    got = np.asarray(_rounding.exp_up(np.array(LOGS), rel))
    with mpmath.workdps(60):
        for log_x, g in zip(LOGS, got):
            want = exact(log_x, rel)
            if want > np.finfo(float).max:
                assert g == np.inf, (log_x, rel)
                continue
            assert mpmath.mpf(float(g)) >= want, (log_x, rel, g)
            if exact(log_x, 0.0) >= TINY * (1 + 1e-15):  # normal: a few ulps (the analysis allows 22u ≈ 2.4e-15)
                assert mpmath.mpf(float(g)) <= want * (1 + mpmath.mpf(3e-15)), (log_x, rel, g)
            else:  # below (or at) the normal range: exp_no_underflow's 2^-40 relative and two subnormal steps
                assert mpmath.mpf(float(g)) <= want * (1 + mpmath.mpf(2e-12)) + 2 * SMALLEST, (log_x, rel, g)
                assert g > 0


def test_the_grid_reaches_values_that_plain_rounding_gets_wrong():
    """The same grid catches np.exp rounded to nearest: it falls below the exact value at some point in the normal
    range and returns 0 for positive values below the smallest float (a check that can fail)."""
    with np.errstate(over="ignore", under="ignore"):
        plain = np.exp(np.array(LOGS))
    below = [log_x for log_x, g in zip(LOGS, plain) if 0 < exact(log_x, 0.0) <= np.finfo(float).max
             and mpmath.mpf(float(g)) < exact(log_x, 0.0)]
    assert any(x > LOG_TINY for x in below) and any(x < LOG_TINY for x in below)
    assert any(g == 0 for g in plain)


def test_exact_values_and_special_arguments():
    assert _rounding.exp_up(-np.inf) == 0.0  # e^{−∞} = 0 exactly, with any allowance
    assert _rounding.exp_up(-np.inf, 0.5) == 0.0
    assert _rounding.exp_up(np.inf) == np.inf
    assert _rounding.exp_up(710.0) == np.inf  # beyond the largest float: +inf is the outward value
    assert np.isnan(_rounding.exp_up(np.nan))
    assert _rounding.exp_up(-1e5) == SMALLEST  # a positive value too small for any float: the smallest one
    assert isinstance(_rounding.exp_up(0.0), float)


def test_arrays_equal_scalar_calls_with_a_per_entry_allowance():
    logs = np.array([-745.0, -720.5, LOG_TINY, -3.0, 0.0, 500.0, -np.inf, LOG_MAX])
    rels = np.array([0.0, 1e-12, 0.5, 1.0, 2e-12, 1e-9, 0.3, 0.0])
    together = _rounding.exp_up(logs, rels)
    assert together.shape == logs.shape
    for log_x, rel, g in zip(logs, rels, together):
        assert _rounding.exp_up(float(log_x), float(rel)) == g
    grid = _rounding.exp_up(logs[:, None], rels[None, :])  # the allowance broadcasts against the exponent
    for i, j in itertools.product(range(logs.size), range(rels.size)):
        assert grid[i, j] == _rounding.exp_up(float(logs[i]), float(rels[j]))


def test_exp_no_underflow_takes_a_per_entry_allowance():
    """``exp_no_underflow`` (which ``exp_up`` uses below the normal range) with an array of allowances equals its
    scalar calls and never falls below e^{log_x}(1 + rel)."""
    logs = np.array([-744.0, -730.0, -709.0, -720.0])
    rels = np.array([0.0, 1e-12, 0.25, 1.0])
    got = _rounding.exp_no_underflow(logs, rels)
    for log_x, rel, g in zip(logs, rels, got):
        assert _rounding.exp_no_underflow(float(log_x), float(rel)) == g
        assert mpmath.mpf(float(g)) >= exact(float(log_x), float(rel))


def test_rational_up_is_the_smallest_float_not_below_a_rational():
    """``rational_up(q)``: never below q, and the float below it is below q (so it is the smallest such float); a
    float is its own value; beyond the largest float, +inf; below the smallest, 5e-324."""
    from fractions import Fraction

    rng = np.random.default_rng(40)
    for num, den in zip(rng.integers(1, 2**62, 2000), rng.integers(1, 2**62, 2000)):
        q = Fraction(int(num), int(den)) * Fraction(2) ** int(rng.integers(-1100, 1000))
        got = _rounding.rational_up(q)
        if got == np.inf:
            assert q > Fraction(np.finfo(float).max)
            continue
        assert Fraction(got) >= q and Fraction(float(np.nextafter(got, 0.0))) < q, q
    assert _rounding.rational_up(Fraction(0.3)) == 0.3 and _rounding.rational_up(Fraction(1, 3)) > 1 / 3
    assert _rounding.rational_up(Fraction(1, 10**400)) == SMALLEST and _rounding.rational_up(Fraction(0)) == 0.0
    assert _rounding.rational_up(Fraction(10**400)) == np.inf


def test_product_error_is_the_exact_rounding_error_of_a_product():
    """``product_error(a, b)``: p = fl(a·b) and, where ``known``, err = a·b − p exactly (exact rationals), over
    products across the whole float range and integers times lattice steps (the PLD's points i·h); ``known`` is
    false beyond TwoProduct's range (|a·b| ≥ 2⁹⁹⁵ or ≤ 2⁻⁹⁶⁹, ±inf), where the error is not claimed."""
    from fractions import Fraction

    rng = np.random.default_rng(41)
    a = np.concatenate([10.0 ** rng.uniform(-300, 300, 3000) * rng.choice([-1, 1], 3000),
                        rng.integers(-10**6, 10**6, 2000).astype(float), [1e200, 1e-200, np.inf, 0.0]])
    b = np.concatenate([10.0 ** rng.uniform(-300, 300, 3000), 10.0 ** rng.uniform(-6, 0, 2000), [1e200, 1e-200, 2.0,
                                                                                                 3.0]])
    p, err, known = _rounding.product_error(a, b)
    with np.errstate(over="ignore"):
        assert np.array_equal(p, a * b)
    low = high = 0
    for x, y, q, e, k in zip(a, b, p, err, known):
        if not k:
            assert not (np.isfinite(q) and 2.0**-969 < abs(q) < 2.0**995)
            continue
        exact = Fraction(float(x)) * Fraction(float(y))
        assert Fraction(float(e)) == exact - Fraction(float(q)), (x, y)
        low += e > 0
        high += e < 0
    assert low > 1000 and high > 1000  # products rounded down and up are both reached
