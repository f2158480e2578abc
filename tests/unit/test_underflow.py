"""Gaussian profiles and tails whose exact value is below the normal range (2.2e-308) are never returned below it.

A δ or a tail is a guarantee, and the subnormal grid (or 0) lies below such values as often as above: the
Gaussian profile ``gaussian_delta(60, 1)`` and ``PrivacyLoss.gaussian(1).sf(60)``, ``.delta(60)`` and
``.pdp_delta(60)`` are positive, whatever ``np.exp`` or scipy's ``norm.sf`` give there.  The references here are
mpmath at 60 digits,
written from the formulas of the papers (Balle & Wang 2018, Theorem 8; the loss N(μ, 2μ) of the Gaussian
mechanism), without the package; each test asserts the direction (never below the exact value) and the size.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy.special import log_ndtr

from dpsemantics import _rounding, mechanisms
from dpsemantics.privacy_loss import PrivacyLoss

U = 2.0**-53
TINY = 2.2250738585072014e-308
SMALLEST = 5e-324


def ref_gaussian_delta(eps: float, sigma: float, sensitivity: float = 1.0) -> mpmath.mpf:
    """Balle & Wang (2018), Theorem 8: δ(ε) = Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ), at 60 digits (the two terms
    cancel to about 1e-3 relative here, far above the working precision)."""
    with mpmath.workdps(60):
        e, s, d = mpmath.mpf(eps), mpmath.mpf(sigma), mpmath.mpf(sensitivity)
        a, b = d / (2 * s) - e * s / d, -d / (2 * s) - e * s / d
        return mpmath.ncdf(a) - mpmath.exp(e) * mpmath.ncdf(b)


def ref_tail(t: float, sigma: float, sensitivity: float, upper: bool) -> mpmath.mpf:
    """P[Z > t] (upper) or P[Z ≤ t] for the Gaussian mechanism's loss Z ~ N(μ, 2μ), μ = Δ²/(2σ²)."""
    with mpmath.workdps(60):
        r = mpmath.mpf(sensitivity) / mpmath.mpf(sigma)
        z = (mpmath.mpf(t) - r * r / 2) / r
        return mpmath.ncdf(-z) if upper else mpmath.ncdf(z)


def _eps_grid(sigma: float) -> list[float]:
    """ε where the exact δ runs from about e^{−690} (normal) through the subnormals to below 5e-324."""
    r = 1.0 / sigma
    # δ ≈ Φ(r/2 − ε/r): log δ ≈ −(ε/r − r/2)²/2, so ε/r − r/2 from √1380 to √1560 (and one far point)
    zs = np.concatenate([np.linspace(math.sqrt(1380), math.sqrt(1560), 23), [40.0, 60.0]])
    return [float((z + r / 2) * r) for z in zs]


SIGMAS = [0.3, 1.0, 3.0, 50.0]


@pytest.mark.parametrize("sigma", SIGMAS)
def test_gaussian_delta_never_below_exact_in_and_below_the_subnormal_range(sigma):
    eps = _eps_grid(sigma)
    got = np.asarray(mechanisms.gaussian_delta(np.array(eps), sigma), dtype=float)
    subnormal = 0
    for e, g in zip(eps, got):
        exact = ref_gaussian_delta(e, sigma)
        assert exact > 0
        if exact < TINY:  # below the normal range: the direction (above it gaussian_delta rounds to nearest, 1e-12)
            assert mpmath.mpf(float(g)) >= exact, (e, sigma, g, exact)
        # the size: within the 2e-12 allowance (+ the 1e-12 of log δ) and one subnormal ulp, or 5e-324 below it
        assert mpmath.mpf(float(g)) <= exact * (1 + 4e-12) + 2 * SMALLEST, (e, sigma, g, exact)
        subnormal += 0 < g < TINY
    assert subnormal >= 5  # the grid does reach the subnormal range


def test_privacy_loss_gaussian_profile_never_below_exact_below_the_normal_range():
    for sigma in (1.0, 3.0):
        loss = PrivacyLoss.gaussian(sigma)
        for e in _eps_grid(sigma):
            exact = ref_gaussian_delta(e, sigma)
            for value in (loss.delta(e), loss.hockey_stick(e), loss.dual.hockey_stick(e)):
                assert mpmath.mpf(float(value)) >= exact > 0, (sigma, e, value, exact)


@pytest.mark.parametrize("sigma,sensitivity", [(1.0, 1.0), (0.7, 2.0), (1e-3, 1.0), (1e3, 1.0), (5.0, 0.1)])
def test_privacy_loss_gaussian_tails_never_below_exact(sigma, sensitivity):
    """sf and cdf at z = (t − μ)/s from the bulk to beyond the smallest float, both sides; pdp_delta's
    P[|Z| > ε] too (scipy's ``norm.sf`` is 0 from z ≈ 38.5 on)."""
    loss = PrivacyLoss.gaussian(sigma, sensitivity)
    r = sensitivity / sigma
    mu, s = r * r / 2, r
    zs = np.concatenate([np.linspace(-3, 3, 7), np.linspace(8, 37, 6), np.linspace(37.5, 38.7, 13), [39.0, 45.0, 1e3]])
    worst = 0.0
    for z in zs:
        t_up, t_down = mu + z * s, mu - z * s
        for t, upper, got in ((t_up, True, loss.sf(t_up)), (t_down, False, loss.cdf(t_down))):
            exact = ref_tail(t, sigma, sensitivity, upper)
            g = mpmath.mpf(float(got))
            assert g >= exact, (sigma, sensitivity, z, upper, got, exact)
            if exact > 1e-300:
                worst = max(worst, float(g / exact - 1))
            else:
                assert g <= exact * (1 + 1e-10) + 2 * SMALLEST, (z, got, exact)
    assert worst < 1e-10  # the allowance is a few 1e-12 at z = 38, not a vacuous bound
    for eps in (1.0, 20.0, mu + 38.2 * s, mu + 38.6 * s, mu + 50 * s):
        with mpmath.workdps(60):
            exact = ref_tail(eps, sigma, sensitivity, True) + ref_tail(-eps, sigma, sensitivity, False)
        assert mpmath.mpf(float(loss.pdp_delta(eps))) >= exact > 0


def test_pdp_epsilon_at_a_subnormal_delta_prime_is_not_below_exact():
    loss = PrivacyLoss.gaussian(1.0)
    for dp in (1e-300, 1e-310, 1e-320):
        e = loss.pdp_epsilon(dp)
        with mpmath.workdps(60):
            tail = ref_tail(e, 1.0, 1.0, True) + ref_tail(-e, 1.0, 1.0, False)
        assert tail <= dp, (dp, e, tail)


def test_scipy_log_ndtr_within_the_allowance_the_gaussian_tails_assume():
    """privacy_loss._gaussian_tail_up takes scipy's log_ndtr within 8u(x² + 1) of log Φ(x); this is measured (3.3u
    at most, at x = −0.92), so it is re-measured here: the check fails if a scipy release is less accurate."""
    xs = np.concatenate([np.linspace(-40, 40, 321), -np.logspace(0, 3, 60), [-0.92, -1.22, -11.58, -65.47]])
    worst = 0.0
    with mpmath.workdps(40):
        for x in xs:
            err = abs(mpmath.mpf(float(log_ndtr(x))) - mpmath.log(mpmath.ncdf(mpmath.mpf(float(x)))))
            worst = max(worst, float(err / (U * (x * x + 1))))
    assert worst <= 8.0, worst
    assert worst > 0.5  # the grid does meet scipy's error (a check of nothing would pass with 0)


def test_exp_no_underflow_is_never_below_exp_and_within_its_allowance():
    logs = np.concatenate([np.linspace(-708.5, -745.5, 371), [-708.3964185322641, -744.44007192138, -745.1332191019411,
                                                               -746.0, -800.0, -1e5, -1e300]])
    for rel in (0.0, 2e-12):
        got = np.asarray(_rounding.exp_no_underflow(logs, rel), dtype=float)
        with mpmath.workdps(50):
            for x, g in zip(logs, got):
                exact = mpmath.exp(mpmath.mpf(float(x))) * (1 + mpmath.mpf(rel))
                if g >= TINY:  # the normal range: np.exp's own value, within a few ulps (rel is the caller's there)
                    assert abs(mpmath.mpf(float(g)) / mpmath.exp(mpmath.mpf(float(x))) - 1) <= 4 * U, (x, g)
                    continue
                assert mpmath.mpf(float(g)) >= exact, (x, g)
                assert mpmath.mpf(float(g)) <= exact * (1 + 2e-12) + 2 * SMALLEST, (x, g)
    assert _rounding.exp_no_underflow(-np.inf) == 0.0
    assert _rounding.exp_no_underflow(-1.0) == math.exp(-1.0)  # the normal range is np.exp's own value


def test_the_pld_gaussian_pessimistic_profile_does_not_underflow():
    """The lattice engine moves the mass beyond μ ± 40√(2μ) and every tail below 1e-30 to +∞ (pessimistic side), so
    its δ never comes near the subnormal range: it stays above the exact value, alone and composed (a k-fold
    Gaussian with σ is the Gaussian with σ/√k)."""
    from dpsemantics.pld import PrivacyLossDistribution

    for sigma, k in ((1.0, 1), (1.0, 4), (3.0, 9)):
        pld = PrivacyLossDistribution.gaussian(sigma)
        if k > 1:
            pld = pld.self_compose(k)
        for e in _eps_grid(sigma / math.sqrt(k)):
            exact = ref_gaussian_delta(e, sigma / math.sqrt(k))
            assert mpmath.mpf(float(pld.delta(e))) >= exact > 0, (sigma, k, e)


def test_gaussian_delta_whose_log_is_below_the_float_range_is_the_smallest_float():
    # the reproducers: log δ itself is −inf in floats (δ ≈ e^{−5e309}), yet δ > 0 at every finite ε (the
    # Gaussian loss is unbounded, so P[L > ε] > 0 and δ(ε) ≥ E[(1 − e^{ε−L}); L > ε + 1] > 0)
    for args in [(1.0, 1e155), (1e300, 1.0), (1.0, 1.0, 1e-200), (1.0, 1e100)]:
        assert mechanisms.gaussian_delta(*args) == SMALLEST
    assert np.all(np.asarray(mechanisms.gaussian_delta(np.array([0.0, 1.0, 1e3, 1e300]), 1.0)) > 0)


@pytest.mark.parametrize("sigma", [0.01, 1.0, 30.0])
def test_privacy_loss_gaussian_quantiles_leave_at_most_their_level(sigma):
    """isf(a) and ppf(q) bound the thresholds releases use for an exact PDP ε′: the exact tail beyond them is at most
    the level.  scipy's norm.isf(1e-320) at σ = 1 left an exact tail 1.0000000000001 times the level."""
    loss = PrivacyLoss.gaussian(sigma)
    levels = [0.5, 0.3, 1e-5, 1e-20, 1e-100, 1e-300, 1e-308, 1e-310, 1e-315, 1e-320, 5e-324, 1 - 1e-16]
    for level in levels:
        upper, lower = float(loss.isf(level)), float(loss.ppf(level))
        exact_up, exact_low = ref_tail(upper, sigma, 1.0, True), ref_tail(lower, sigma, 1.0, False)
        assert exact_up <= level and exact_low <= level, (sigma, level)
        if level > 1e-300:  # and tight: within 1e-8 of the level
            assert exact_up >= level * (1 - 1e-8) and exact_low >= level * (1 - 1e-8), (sigma, level)
    assert loss.isf(0.0) == math.inf and loss.ppf(0.0) == -math.inf
