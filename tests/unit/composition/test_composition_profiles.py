"""Many distinct mechanisms of k > 1000 in one call build their profiles together, with the bits of one profile each
(issue 23: "Distinct mechanisms with k > 1000 do not meet the target").

``_kov._profiles_log_rr`` and ``_profiles_epsilons`` form the windows and tables of every (ε₀, k, scale) at
once (``_ProfileWindows``, ``_RRProfiles``); ``_optimal_log_rr`` and the per-group loop of ``_optimal_epsilons`` build
one ``_RRProfile`` per mechanism.  Every entry must get the same float from both, on a hostile grid: ε₀ from the
smallest subnormal to 1e300, k on both sides of the direct/windowed switch (20 000) and up to 10⁹, ε in the bulk, on
and one ulp either side of lattice points, and at the ε of δ from 1e-300 to 0.5 (the far tail); for optimal_epsilon
also δ₀ > 0 with δ next to A = 1 − (1 − δ₀)^k.  The direction of the values is tested elsewhere against references
that do not import the package (test_safe_direction.py, test_composition_allowance.py); equal bits carry it over.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpsemantics import composition as C
from dpsemantics import _kov

EPS0S = (5e-324, 1e-300, 1e-6, 0.004, 0.3, 30.0, 700.0, 1e300)
KS = (1001, 20_000, 20_001, 99_991)


def _grid():
    """(ε, ε₀, k) rows: per mechanism the bulk, lattice points ± 1 ulp and the ε of a few δ; k up to 10⁶ (public
    calls build profiles together up to _K_TOGETHER = 10⁵, one at a time past it), and the far tail at k = 10⁹."""
    rows = []
    mechanisms = [(e0, k) for e0 in EPS0S for k in KS] + [(0.01, 10**6), (0.5, 10**6)]
    for e0, k in mechanisms:
        with np.errstate(over="ignore"):
            top = k * e0
        for f in (0.0, 0.5, 0.999999):
            rows.append((min(top * f, 1e308), e0, k))
        if math.isfinite(top):
            for n in (k, k - 40):
                point = n * e0
                rows += [(point, e0, k), (float(np.nextafter(point, 0.0)), e0, k),
                         (float(np.nextafter(point, math.inf)), e0, k)]
        for d in (1e-300, 1e-12, 0.5):
            rows.append((float(C.optimal_epsilon(e0, k, d)), e0, k))
    rows += [(0.5 * 10**9 * 0.999999, 0.5, 10**9), (10**9 * 1e-4 * 0.99999, 1e-4, 10**9)]
    eps, eps0, k = (np.array(c) for c in zip(*rows))
    return eps, eps0, k.astype(np.int64)


@pytest.fixture(scope="module")
def grid():
    return _grid()


def test_profiles_together_equal_one_profile_each(grid):
    eps, eps0, k = grid
    together = _kov._profiles_log_rr(eps, eps0, k)
    alone = np.array([_kov._optimal_log_rr(np.array([e]), e0, int(kk))[0] for e, e0, kk in zip(eps, eps0, k)])
    assert np.array_equal(together, alone)
    assert np.isfinite(together).sum() > 0.7 * eps.size  # (the grid is mostly where δ_RR > 0)


def test_optimal_delta_of_distinct_mechanisms_equals_scalar_calls(grid):
    eps, eps0, k = grid
    delta0 = np.where(np.arange(eps.size) % 3 == 0, 1e-9, 0.0)
    got = C.optimal_log_delta(eps, eps0, k, delta0)
    assert np.array_equal(got, [C.optimal_log_delta(*args) for args in zip(eps, eps0, k, delta0)])


def test_optimal_epsilon_of_distinct_mechanisms_equals_scalar_calls():
    """Targets from the far tail to the bulk, just below δ(0) (the window's last piece, down to ε = 0: k odd, it is
    narrower than 2ε₀), next to A where δ₀ > 0, and ε = 0 (δ above δ(0)), many mechanisms in
    one call (the entries of one mechanism and scale share a profile) against one call each (one profile each)."""
    rows = []
    for e0 in EPS0S:
        for k in KS:
            for d in (1e-300, 1e-6, 0.999):
                rows.append((e0, k, d, 0.0))
            at_zero = float(C.optimal_delta(0.0, e0, k))  # δ(0): just below it the answer is on the last piece
            if 0.0 < at_zero < 1.0:
                rows += [(e0, k, at_zero * (1 - 1e-3), 0.0), (e0, k, at_zero * (1 - 1e-9), 0.0)]
            a = -math.expm1(k * math.log1p(-1e-9))
            rows += [(e0, k, a * (1 + 1e-14), 1e-9), (e0, k, a * 1.5, 1e-9), (e0, k, min(a + 1e-6, 0.9), 1e-9)]
    eps0, k, delta, delta0 = (np.array(c) for c in zip(*rows))
    k = k.astype(np.int64)
    got = C.optimal_epsilon(eps0, k, delta, delta0)
    assert np.array_equal(got, [C.optimal_epsilon(*args) for args in zip(eps0, k, delta, delta0)])
    assert np.any(got == 0.0) and np.any(got > 0.0)


def test_many_profiles_take_the_batched_path(monkeypatch):
    """The switch: from _MANY_PROFILES distinct mechanisms on, no _RRProfile is built (optimal_delta; optimal_epsilon
    builds none either); below it, one per (mechanism, scale)."""
    built = []
    original = _kov._RRProfile.__init__

    def counting(self, *args, **kwargs):
        built.append(args[:2])
        original(self, *args, **kwargs)
    monkeypatch.setattr(_kov._RRProfile, "__init__", counting)
    e0 = np.linspace(0.01, 0.5, _kov._MANY_PROFILES)
    C.optimal_delta(1.0, e0, 5000)
    C.optimal_epsilon(e0, 5000, 1e-6)
    assert built == []
    C.optimal_delta(1.0, e0[:_kov._MANY_PROFILES - 1], 5000)
    assert len(built) == _kov._MANY_PROFILES - 1
