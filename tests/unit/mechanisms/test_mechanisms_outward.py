"""The mechanisms' privacy profiles δ(ε) are never below the exact value, and within a few ulps of it: Laplace and
randomized response in closed form, the Gaussian mechanism by Balle & Wang (2018), Theorem 8 at 200 digits (its
two terms cancel).  A δ below the exact value would claim more privacy than the mechanism has.  The references
are written here in mpmath and import nothing from the package."""

import itertools

import mpmath as mp
import pytest

from dpsemantics import mechanisms


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
