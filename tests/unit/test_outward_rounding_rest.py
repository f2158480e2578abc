"""Outward rounding (issue 40) of the last public numbers that were OPEN in tests/unit/test_outward_rounding.py's TABLE:
``composition.optimal_lattice``, ``conversions.profile_pdp_epsilon``, the PLD's ``tail_bounds``,
``tail_bounds_on_lattice`` and ``tilted_self_composition``, and disclosure's ``epsilon_for_profile``,
``composed_posterior_bound``, ``approximate_bounds``, ``DisclosureBounds.confidence``, ``epsilon_tilde`` and
``leave_thresholds``; and the σ of k Gaussian runs in the release model (``Gaussian.merge``, its k-fold loss).

The references are written here, apart from the package: exact rationals (``fractions.Fraction``) of the float
inputs, or mpmath at 80 digits, compared without tolerance.  Each seeded search asserts that it reaches inputs where
the same formula rounded to nearest falls on the unsafe side, so that it cannot pass by missing them.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from dpsemantics import composition, conversions, disclosure, pld
from dpsemantics.releases import Gaussian

RNG_SEED = 40


@pytest.fixture(autouse=True)
def _digits():
    with mp.workdps(80):
        yield


def mpf(x) -> mp.mpf:
    return mp.mpf(float(x))


# ---------------------------------------------------------------------------------- the σ of k Gaussian runs


def _exact_mu(parts) -> Fraction:
    return sum(k * Fraction(d) ** 2 / (2 * Fraction(s) ** 2) for k, s, d in parts)


def _mu_of(sigma) -> Fraction:
    return 1 / (2 * Fraction(sigma) ** 2)


def test_gaussian_merge_and_k_runs_sigma_is_rounded_down():
    """Gaussian.merge and the k-fold loss (``Gaussian.loss(k)``, ``profile_epsilon``): the one Gaussian that stands for
    the runs has 1/(2σ²) ≥ Σk_iΔ_i²/(2σ_i²) exactly, and σ is at most 4 ulps below 1/√(2μ)."""
    rng = np.random.default_rng(RNG_SEED)
    nearest_low = 0
    cases = [(3, 1e-5, 1.0, 7, 2.0, 1.0), (10**9, 0.3, 1.0, 1, 0.1, 0.7), (1, 2.0, 1.0, 1, 2.0, 1.0)]
    for _ in range(1500):
        cases.append((int(rng.integers(1, 10**6)), float(10 ** rng.uniform(-3, 3)), float(10 ** rng.uniform(-1, 1)),
                      int(rng.integers(1, 10**6)), float(10 ** rng.uniform(-3, 3)), float(10 ** rng.uniform(-1, 1))))
    for k, s1, d1, k2, s2, d2 in cases:
        g, h = Gaussian(s1, d1), Gaussian(s2, d2)
        if not (0 < _exact_mu([(k, s1, d1), (k2, s2, d2)]) < 1e11):
            continue
        merged, runs = g.merge(k, h, k2)
        want = _exact_mu([(k, s1, d1), (k2, s2, d2)])
        assert runs == 1 and merged.sensitivity == 1.0
        assert _mu_of(merged.sigma) >= want, (k, s1, d1, k2, s2, d2)
        assert _mu_of(math.nextafter(merged.sigma, math.inf)) < want  # the largest float that is safe
        exact_sigma = 1 / mp.sqrt(2 * mp.mpf(want.numerator) / want.denominator)
        assert mpf(merged.sigma) >= exact_sigma * (1 - mp.mpf(2) ** -50)
        # the k runs of one Gaussian (its loss, profile_epsilon and exact_threshold read this σ)
        one = g._sigma_of(k)
        assert _mu_of(one) >= _exact_mu([(k, s1, d1)])
        assert g.loss(k).rho() >= _exact_mu([(k, s1, d1)])
        assert Gaussian(s1)._sigma_of(1) == s1  # one run at Δ = 1 keeps its own σ
        # the float formula the release model used, rounded to nearest (the old merge)
        old = 1.0 / math.sqrt(2.0 * (k * g.mu + k2 * h.mu))
        nearest_low += _mu_of(old) < want
    assert nearest_low > 50  # the search reaches sums where the nearest σ was too large (μ a few ulps low)
