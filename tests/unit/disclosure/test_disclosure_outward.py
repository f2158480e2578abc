"""Kazan et al.'s posterior, ratio and difference bounds (Theorems 3.2, 3.3, 3.5, Lemma 3.4) and Theorem 3.9
solved for δ′ are rounded outward: an upper bound never below the exact value, a lower bound never above it.
The reference is written here in mpmath and imports nothing from the package.

A bound on the unsafe side by one ulp claims more than the theorem gives; the grid reaches tiny priors (down to
2.5e-310, where the log-odds form ``expit(logit p + ε)`` loses hundreds of ulps) and ε up to 800."""

import itertools
from math import inf

import mpmath as mp
import pytest

from dpsemantics import conversions, disclosure


@pytest.fixture(autouse=True)
def _digits():
    with mp.workdps(60):
        yield

PRIORS = [2.5e-310, 1e-300, 1.9143655964255758e-261, 5.2e-116, 1e-17, 0.17232647202240880, 0.3, 0.5,
          0.6911656825540583, 1 - 1e-12, 1 - 2.0**-53]
EPSILONS = [1e-12, 0.003152911285549741, 0.2048497712470145, 1.0, 2.007312386364031, 50.34491423616958,
            272.39993706446387, 700.0, 705.0, 740.0, 800.0]


def high(p, e):
    return p / (p + (1 - p) * mp.exp(-e))


def low(p, e):
    return p / (p + (1 - p) * mp.exp(e))


def close(got, exact, rel):
    return abs(mp.mpf(got) - exact) <= rel * abs(exact) + mp.mpf(1e-320)


@pytest.mark.parametrize("p,eps", list(itertools.product(PRIORS, EPSILONS)))
def test_posterior_ratio_and_difference_bounds_are_outward(p, eps):
    P, E = mp.mpf(p), mp.mpf(eps)
    lo, hi = disclosure.posterior_bounds(p, eps)
    assert lo <= low(P, E) and hi >= high(P, E)
    rlo, rhi = disclosure.prior_ratio_bounds(p, eps)
    assert rlo <= low(P, E) / P and rhi >= high(P, E) / P
    dlo, dhi = disclosure.prior_difference_bounds(p, eps)
    assert dlo <= low(P, E) - P and dhi >= high(P, E) - P
    # outward, not vacuous: within 1e-12 relative where the formula is evaluated as written (ε ≤ 700)
    if eps <= 700:
        assert close(hi, high(P, E), 1e-12) and close(lo, low(P, E), 1e-12)
        assert close(rhi, high(P, E) / P, 1e-12) and close(dhi, high(P, E) - P, 1e-12)


@pytest.mark.parametrize("eps", EPSILONS + [1e-300, 5e-324])
def test_prior_free_bounds_are_outward(eps):
    E = mp.mpf(eps)
    rlo, rhi = disclosure.ratio_bounds(eps)
    assert rlo <= mp.exp(-E) and rhi >= mp.exp(E)
    assert 1 >= disclosure.difference_bound(eps) >= mp.tanh(E / 4)


def test_the_bounds_are_exact_where_nothing_moves():
    assert disclosure.posterior_bounds(0.3, 0.0) == (0.3, 0.3)
    assert disclosure.posterior_bounds(0.0, 2.0) == (0.0, 0.0) and disclosure.posterior_bounds(1.0, 2.0) == (1.0, 1.0)
    assert disclosure.ratio_bounds(0.0) == (1.0, 1.0) and disclosure.difference_bound(0.0) == 0.0
    assert disclosure.prior_difference_bounds(0.3, 0.0) == (0.0, 0.0)


@pytest.mark.parametrize("eps,delta,factor", list(itertools.product([0.0, 1e-9, 0.5, 3.0, 30.0], [1e-300, 1e-12, 0.01],
                                                                [1 + 1e-12, 1.01, 2.0, 50.0])))
def test_pdp_delta_is_never_below_theorem_39_solved_for_delta_prime(eps, delta, factor):
    eps_prime = eps * factor if eps else factor - 1
    E, D, E1 = mp.mpf(eps), mp.mpf(delta), mp.mpf(eps_prime)
    exact = D * (1 + mp.exp(-E1)) / (1 - mp.exp(E - E1))
    got = conversions.pdp_delta(eps, delta, eps_prime)
    assert got >= exact and close(got, exact, 1e-13)


@pytest.mark.parametrize("p,eps", list(itertools.product([1e-300, 1e-17, 0.3, 0.5, 1 - 1e-12],
                                                          [1e-12, 1.0, 50.0, 705.0])))
@mp.workdps(400)  # 1 − p keeps a prior of 1e-300
def test_the_symmetric_bounds_of_section_44_are_outward(p, eps):
    P, E = mp.mpf(p), mp.mpf(eps)
    lo, hi = disclosure.symmetric_ratio_bounds(p, eps)
    # X/p and (1 − X)/(1 − p): the second ratio's bounds are the first's at the complementary prior
    assert lo <= min(low(P, E) / P, low(1 - P, E) / (1 - P)) and hi >= max(high(P, E) / P, high(1 - P, E) / (1 - P))
    assert disclosure.symmetric_difference_bound(p, eps) >= max(high(P, E) - P, high(1 - P, E) - (1 - P))


@pytest.mark.parametrize("eps", [40.0, 700.0, 1e5, 1e15, 1e300, 1.7976931348623157e308])
def test_prior_dependent_bounds_never_leave_their_trivial_range(eps):
    """The allowance of the ratio and difference bounds grows with ε; the bounds themselves may not: the posterior
    lies in [0, 1], so X/p ≤ 1/p and X − p ∈ [−p, 1 − p] (at ε = 1e300 the difference bound was ±1.8e285, and the
    report refused the release at 1e308 with ±inf).  Still outward against the exact values."""
    for p in PRIORS:
        P, E = mp.mpf(p), mp.mpf(eps)
        down, up = disclosure.prior_difference_bounds(p, eps)
        assert -p <= down <= low(P, E) - P and high(P, E) - P <= up <= (1 - P) * (1 + mp.mpf(2.0**-51))
        r_low, r_high = disclosure.prior_ratio_bounds(p, eps)
        assert 0 <= r_low <= low(P, E) / P and high(P, E) / P <= r_high
        assert r_high <= (1 / P) * (1 + mp.mpf(2.0**-51)) or (1 / P > mp.mpf(1.7976931348623157e308) and r_high == inf)
