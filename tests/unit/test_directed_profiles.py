"""Profiles and losses that decide a guarantee are on the safe side of the exact value, and bad input is named.

References are mpmath at 60 digits written from the papers' formulas, without the package; each test asserts the
direction (never below the exact value) and that the allowance is small.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from dpsemantics import conversions
from dpsemantics.privacy_loss import PrivacyLoss


@pytest.mark.parametrize("eps, d", [(5e-324, 3), (5e-324, 2), (1e-323, 10**6)])
def test_geometric_refuses_an_eps_whose_quotient_underflows_with_the_callers_value(eps, d):
    # before: "eps must be > 0 (got eps=0.0)", the value of ε/Δ inside the pmf, not the caller's
    with pytest.raises(ValueError, match=rf"eps.*sensitivity={d}.*got eps={eps!r}\)"):
        PrivacyLoss.geometric(eps, d)
    assert PrivacyLoss.geometric(eps, 1).pdp_delta(0.0) > 0  # Δ = 1 needs no quotient: accepted


def ref_gaussian_delta(eps: float, r) -> mpmath.mpf:
    """Balle & Wang (2018), Theorem 8 at the exact ratio r = Δ/σ: δ(ε) = Φ(r/2 − ε/r) − e^ε Φ(−r/2 − ε/r), at 80
    digits (the two terms cancel to at most about 1e-20 relative on the grids here)."""
    with mpmath.workdps(80):
        e, r = mpmath.mpf(eps), mpmath.mpf(r)
        return mpmath.ncdf(r / 2 - e / r) - mpmath.exp(e) * mpmath.ncdf(-r / 2 - e / r)


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
        with mpmath.workdps(80):
            exact = ref_gaussian_delta(eps, mpmath.sqrt(2 * mpmath.mpf(rho)))
            if got < exact:
                below.append((rho, eps, float((got - exact) / exact)))
            if exact > 1e-300:
                worst = max(worst, float((got - exact) / exact))
    # before: 34 of 112 below, by up to 5.7e-10 relative (rounded to nearest, at the float √(2ρ))
    assert not below, below[:5]
    # and the allowance is small: 2e-12 plus 2u·κ, κ = r·φ(a)/δ (up to 2e7 at ρ = 10¹¹, x = 50: 3e-9 there)
    assert worst < 1e-8


@pytest.mark.parametrize("sigma, sensitivity", [(0.7, 1.0), (3.0, 1.0), (1e-5, 3.0), (2.0, 0.3), (4e-6, 1.0)])
def test_gaussian_privacy_loss_profile_is_never_below_the_exact_one(sigma, sensitivity):
    with mpmath.workdps(80):
        r = mpmath.mpf(sensitivity) / mpmath.mpf(sigma)
        rf = float(r)
        eps = [float(rf * rf / 2 + x * rf) for x in (-0.4, 0.0, 0.5, 1.5, 4.0, 9.0, 20.0, 35.0)]
        eps = [e for e in eps if e >= 0] + [0.0, 0.25]
        got = np.asarray(PrivacyLoss.gaussian(sigma, sensitivity).delta(np.array(eps)), dtype=float)
        for e, g in zip(eps, got):
            exact = ref_gaussian_delta(e, r)
            assert g >= exact, (e, g, float(exact))
            if exact > 1e-300:
                assert g <= exact * (1 + 1e-8)  # 2e-12 + 2u·r·φ(a)/δ: 2e-9 at r = 3e5


def _random_pairs(n_pairs=40, size=6, seed=23):
    """Seeded pairs whose losses are small (P ≈ Q: the floats log a − log b cancel) or large (masses down to 1e-30)."""
    rng = np.random.default_rng(seed)
    for i in range(n_pairs):
        p = rng.dirichlet(np.ones(size))
        q = p * np.exp(rng.normal(scale=1e-6 if i % 2 else 3.0, size=size))
        yield p / p.sum(), q / q.sum()


def ref_pdp_delta(p, q, eps) -> mpmath.mpf:
    """Kazan et al., Definition 2.4: max(P[|Z| > ε], Q[|Z′| > ε]) with Z = log(P/Q) at 60 digits (the masses as the
    floats given; outputs impossible under one row have an infinite loss)."""
    with mpmath.workdps(60):
        e, tail_p, tail_q = mpmath.mpf(eps), mpmath.mpf(0), mpmath.mpf(0)
        for a, b in zip(p, q):
            z = mpmath.inf if b == 0 else (-mpmath.inf if a == 0 else mpmath.log(mpmath.mpf(a) / mpmath.mpf(b)))
            if abs(z) > e:
                tail_p, tail_q = tail_p + mpmath.mpf(a), tail_q + mpmath.mpf(b)
        return max(tail_p, tail_q)


def test_finite_pair_pdp_delta_is_never_below_the_exact_tail_at_its_atoms():
    # at ε equal to an atom's float (and to the float log a − log b), the atoms whose exact modulus is above it count
    below = []
    for p, q in _random_pairs():
        loss = PrivacyLoss.finite(p, q)
        with mpmath.workdps(60):
            correct = [float(mpmath.log(mpmath.mpf(a) / mpmath.mpf(b))) for a, b in zip(p, q)]
        with np.errstate(divide="ignore"):
            naive = list(np.abs(np.log(p) - np.log(q)))
        eps = sorted({abs(e) for e in correct + naive if math.isfinite(e)})
        got = np.asarray(loss.pdp_delta(np.array(eps)), dtype=float)
        for e, g in zip(eps, got):
            exact = ref_pdp_delta(p, q, e)
            if g < exact * (1 - 1e-9):  # a missing atom, not the tails' 1e-12 allowance
                below.append((e, g, float(exact)))
    assert not below, below[:5]
