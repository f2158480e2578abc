"""Privacy profiles δ(ε) that decide a guarantee are never below the exact value: the zCDP conversions (Kazan et
al. Theorem 2.7 solved for δ; Canonne, Kamath & Steinke 2020, Corollary 13), and the Laplace and
randomized-response profiles.  The references are written here in mpmath and import nothing from the package.

Found from outside: ``zcdp_delta`` fell short of the exact δ by up to 4.5e-15 relative (the simple form) and
7.5e-15 (the tight form) at ρ = 9.6, ε = 39.5 — its exponent, about 30, was rounded to nearest — and the Laplace
and randomized-response profiles by up to an ulp in about half of all calls."""

import itertools

import mpmath as mp
import numpy as np
import pytest

from dpsemantics import conversions, mechanisms


@pytest.fixture(autouse=True)
def _digits():
    with mp.workdps(50):
        yield

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


@pytest.mark.parametrize("eps_mech,frac", list(itertools.product([1e-6, 0.031837927272129270, 0.124, 1.7, 30.0],
                                                                 [0.0, 0.1, 0.4137, 0.9, 1 - 1e-9])))
def test_laplace_and_randomized_response_profiles_are_never_below_the_exact_value(eps_mech, frac):
    eps = eps_mech * frac
    M, E = mp.mpf(eps_mech), mp.mpf(eps)
    laplace = 1 - mp.exp((E - M) / 2)
    rr = (mp.exp(M) - mp.exp(E)) / (1 + mp.exp(M))
    assert laplace <= mechanisms.laplace_delta(eps, eps_mech) <= laplace * (1 + 1e-14)
    assert rr <= mechanisms.randomized_response_delta(eps, eps_mech) <= rr * (1 + 1e-14)


@pytest.mark.parametrize("eps,sigma", list(itertools.product([0.0, 1e-9, 0.3, 1.0, 5.0, 40.0],
                                                             [1e-6, 0.05, 0.7, 1.0, 3.3, 250.0])))
def test_gaussian_delta_is_never_below_the_exact_profile(eps, sigma):
    """Balle & Wang 2018, Theorem 8, at the float ratio 1/σ: δ = Φ(r/2 − ε/r) − e^ε Φ(−r/2 − ε/r), evaluated at
    200 digits (the two terms cancel)."""
    with mp.workdps(200):
        r, E = 1 / mp.mpf(sigma), mp.mpf(eps)
        exact = mp.ncdf(r / 2 - E / r) - mp.exp(E) * mp.ncdf(-r / 2 - E / r)
        got = mechanisms.gaussian_delta(eps, sigma)
        assert exact <= got
        assert exact == 0 or got <= max(exact * (1 + 1e-9), mp.mpf(5e-324) * 4)


def test_pure_to_zcdp_is_the_smallest_float_not_below_half_eps_squared():
    """Bun & Steinke, Proposition 1.4: ε-DP ⇒ (ε²/2)-zCDP.  ρ is a guarantee: the float returned is the exact ε²/2
    rounded up (it was rounded to nearest, below the exact value for about half of all ε, and 0 below ε ≈ 1.5e-162,
    which no zCDP function accepts)."""
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
