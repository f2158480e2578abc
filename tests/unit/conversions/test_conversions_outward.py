"""The conversions' numbers that decide a guarantee are never below the exact value, and close to it.

* ``zcdp_delta``, simple (Kazan et al., Theorem 2.7 solved for δ) and tight (Canonne, Kamath & Steinke 2020,
  Corollary 13), at 50 digits, and below the float range (the smallest float, not 0);
* ``zcdp_epsilon(tight=True)``: the ε at the order it finds, raised by its own evaluation error, never below the
  exact ε of Corollary 13 and within a few parts in 10⁴ of it even where δ is near 1, confirmed by the inverse
  conversion ``zcdp_delta``, and a number (not a bracket error) at ρ up to the float maximum;
* ``zcdp_gaussian_delta``: the Gaussian profile at the ratio r = √(2ρ) (Balle & Wang 2018, Theorem 8), up to
  ρ = 10¹¹;
* ``pure_to_zcdp``: ε²/2 rounded up (Bun & Steinke, Proposition 1.4), so that the ρ it returns is a guarantee.

A δ or ε below the exact value would claim more privacy than the mechanism has.  The references are mpmath
(50 to 80 digits), written here from the papers' formulas; they import nothing from the package."""

from __future__ import annotations

import itertools
import math
import warnings

import mpmath as mp
import numpy as np
import pytest

from dpsemantics import conversions

RHOS = [1e-9, 3e-4, 0.07, 1.0, 8.0, 33.7, 400.0]
DELTAS = [1e-300, 1e-40, 1e-6, 0.3, 0.9, 0.999, 1 - 1e-6, 1 - 1e-12]


def exact_tight_epsilon(rho: float, delta: float) -> mp.mpf:
    """inf over α > 1 of αρ + log(1 − 1/α) − (log δ + log α)/(α − 1), clipped at 0 (CKS 2020, Corollary 13): with
    t = α − 1 and L = log(1/δ), the objective (1 + t)ρ + log(t/(1 + t)) + (L − log(1 + t))/t is stationary where
    ρt² + log(1 + t) = L, one root in (0, min(√(L/ρ), e^L − 1)], found by the Illinois method."""
    with mp.workdps(50):
        r, L = mp.mpf(rho), -mp.log(mp.mpf(delta))
        t = mp.findroot(lambda s: r * s * s + mp.log1p(s) - L, (mp.mpf(0), min(mp.sqrt(L / r), mp.expm1(L))),
                        solver="illinois", tol=mp.mpf(10) ** -45, maxsteps=2000)
        return max((1 + t) * r + mp.log(t / (1 + t)) + (L - mp.log1p(t)) / t, mp.mpf(0))


@pytest.mark.parametrize("rho,delta", list(itertools.product(RHOS, DELTAS)))
def test_tight_epsilon_is_never_below_the_exact_value_and_close_to_it(rho, delta):
    exact = exact_tight_epsilon(rho, delta)
    for got in (conversions.zcdp_epsilon(rho, delta, tight=True),  # one input: Brent's method
                float(conversions.zcdp_epsilon(np.full(20, rho), delta, tight=True)[0])):  # many: Newton steps
        assert got >= exact, (rho, delta, got, exact)
        slack = mp.mpf(1e-9) * exact + (mp.mpf(4e-3) if delta > 0.99 else mp.mpf(1e-300))
        assert got <= exact + slack, (rho, delta, got, exact)


def test_tight_epsilon_is_confirmed_by_the_inverse_conversion_on_hostile_inputs():
    """ρ over fourteen decades, δ from 1e-300 to 1 − 10⁻¹²: zcdp_delta at the ε returned is at most δ."""
    rng = np.random.default_rng(23)
    rho = 10.0 ** rng.uniform(-10, 4, 4000)
    delta = np.concatenate([10.0 ** rng.uniform(-300, -1, 2000), 1.0 - 10.0 ** rng.uniform(-12, -1, 2000)])
    eps = conversions.zcdp_epsilon(rho, delta, tight=True)
    assert np.all(conversions.zcdp_delta(rho, eps, tight=True) <= delta)
    assert np.all(eps <= conversions.zcdp_epsilon(rho, delta))  # never above the simple form


@pytest.mark.parametrize("rho,delta", [(1e30, 6.155262085515453e-07), (1e150, 1e-300), (1e300, 0.5),
                                       (1e300, 1 - 2.0**-53), (1e308, 1 - 2.0**-53), (1.7e308, 1e-6)])
def test_tight_epsilon_at_huge_rho_is_a_number_not_a_bracket_error(rho, delta):
    """At huge ρ, where the root's bracket [0, √(L/ρ)] rounds so that ρ·hi² < L and L/ρ may be subnormal or
    underflow, one input and many give a safe ε, without a warning: never below the exact value, which is
    ρ + 2√(ρL) up to a part in 10¹⁵ here."""
    exact = exact_tight_epsilon(rho, delta)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        one = conversions.zcdp_epsilon(rho, delta, tight=True)
        many = conversions.zcdp_epsilon(np.full(20, rho), delta, tight=True)
    for got in (one, float(many[0])):
        assert exact <= got <= exact * (1 + mp.mpf(1e-14)), (rho, delta, got)


RHO_EPS = [(9.629270863855327, 39.45309077622214), (0.37944652764636977, 0.3826109016227727), (1e-6, 0.01),
           (0.0021396495831664920, 0.0023966099059344074), (0.5, 3.0), (2.0, 60.0), (1e-3, 0.5), (0.01, 2.0)]


def cks_log_delta(rho, eps):
    """log of inf over α > 1 of e^{(α−1)(αρ−ε)}(1 − 1/α)^α/(α − 1), by bisection on the derivative of the
    (convex) log objective."""
    rho, eps = mp.mpf(rho), mp.mpf(eps)

    def f(a):
        return (a - 1) * (a * rho - eps) + a * mp.log(1 - 1 / a) - mp.log(a - 1)

    def slope(a):
        return (2 * a - 1) * rho - eps + mp.log(1 - 1 / a)

    lo, hi = mp.mpf(1) + mp.mpf(10) ** -45, mp.mpf(10) ** 9
    for _ in range(400):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if slope(mid) > 0 else (mid, hi)
    return min(f((lo + hi) / 2), 0)


@pytest.mark.parametrize("rho,eps", RHO_EPS)
def test_zcdp_delta_is_never_below_the_exact_value(rho, eps):
    rho_, eps_ = mp.mpf(rho), mp.mpf(eps)
    simple = min(1, mp.exp(-(eps_ - rho_) ** 2 / (4 * rho_))) if eps_ > rho_ else 1
    tight = mp.exp(cks_log_delta(rho, eps))
    got_simple, got_tight = conversions.zcdp_delta(rho, eps), conversions.zcdp_delta(rho, eps, tight=True)
    assert simple <= got_simple <= simple * (1 + 1e-12)
    assert tight <= got_tight <= tight * (1 + 1e-10)
    # the array path (Newton steps for many inputs at once) too
    many = conversions.zcdp_delta(np.full(20, rho), np.full(20, eps), tight=True)
    assert np.all([tight <= v for v in many])


def test_zcdp_delta_below_the_float_range_is_the_smallest_float_not_zero():
    assert conversions.zcdp_delta(1e-6, 1.0) == 5e-324  # exact: e^{−249 999.5}


def test_pure_to_zcdp_is_the_smallest_float_not_below_half_eps_squared():
    """Bun & Steinke, Proposition 1.4: ε-DP ⇒ (ε²/2)-zCDP.  ρ is a guarantee: the float returned is the exact ε²/2
    rounded up, and positive for every positive ε (a ρ of 0 is refused by every zCDP function)."""
    rng = np.random.default_rng(11)
    eps = np.r_[5e-324, 1e-320, 1e-200, 1.4e-162, 1e-160, 2.0**-511, 1e-10, 0.1, 0.3, 1.0, 3.0, 1e154,
                10.0 ** rng.uniform(-170, 154, 300)]
    got = conversions.pure_to_zcdp(eps)
    for e, r in zip(eps, got):
        exact = mp.mpf(float(e)) ** 2 / 2
        assert mp.mpf(float(r)) >= exact, e
        if mp.mpf(2.0) ** -968 < exact < mp.mpf(2.0) ** 994:  # and the smallest such float (mul_away's exact range)
            assert mp.mpf(float(np.nextafter(r, 0.0))) < exact, e
    assert conversions.pure_to_zcdp(1.0) == 0.5 and conversions.pure_to_zcdp(0.0) == 0.0


def ref_gaussian_delta(eps: float, r) -> mp.mpf:
    """Balle & Wang (2018), Theorem 8 at the exact ratio r = Δ/σ: δ(ε) = Φ(r/2 − ε/r) − e^ε Φ(−r/2 − ε/r), at 80
    digits (the two terms cancel to at most about 1e-20 relative on the grids here)."""
    with mp.workdps(80):
        e, r = mp.mpf(eps), mp.mpf(r)
        return mp.ncdf(r / 2 - e / r) - mp.exp(e) * mp.ncdf(-r / 2 - e / r)


def _zcdp_grid():
    # ε = ρ + x√ρ: δ from about ½ down to e^{−x²/4}, ρ up to 10¹¹ (r = √(2ρ) ≈ 4.5e5, where the rounding of r moves δ
    # by about r·φ(a)/δ ulps, more than the 1e-12 evaluation allowance)
    for rho in np.logspace(-4, 11, 16):
        for x in (0.0, 0.3, 1.0, 2.5, 6.0, 20.0, 50.0):
            yield float(rho), float(rho + x * math.sqrt(rho))


def test_zcdp_gaussian_delta_is_never_below_the_exact_profile():
    below, worst = [], 0.0
    for rho, eps in _zcdp_grid():
        got = float(conversions.zcdp_gaussian_delta(rho, eps))
        with mp.workdps(80):
            exact = ref_gaussian_delta(eps, mp.sqrt(2 * mp.mpf(rho)))
            if got < exact:
                below.append((rho, eps, float((got - exact) / exact)))
            if exact > 1e-300:
                worst = max(worst, float((got - exact) / exact))
    assert not below, below[:5]
    # and the allowance is small: 2e-12 plus 2u·κ, κ = r·φ(a)/δ (up to 2e7 at ρ = 10¹¹, x = 50: 3e-9 there)
    assert worst < 1e-8
