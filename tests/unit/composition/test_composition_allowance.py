"""The k ≤ 1000 path of the optimal composition rests on a derived allowance, not a measured one (issue 23).

``optimal_delta``/``optimal_log_delta`` and ``optimal_epsilon`` for k ≤ 1000 evaluate the k-fold randomized-response
profile on windowed tables whose bound carries every rounding of the table; the measured 1e-14·√k term that was
added on top is gone (``_kov._evaluation_margin``).  These tests check the direction of every value against a
reference written here in mpmath from the formula of Kairouz, Oh & Viswanath (2015, Theorem 3.3; Kazan et al.
Theorem 2.8(3)), importing nothing from the package, over a hostile grid: ε₀ from the smallest subnormal to 1e300,
k = 1, 2, 999, 1000 and 1001 (the first k of the other path), ε on, one ulp either side of and between lattice points
from the far tail (only ℓ = 0 active: δ down to e^{−1400}, compared in log space) to the bulk (δ ≈ 1), and δ₀ = 1e-8
with δ within a relative 1e-14 of A = 1 − (1 − δ₀)^k.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

from dpsemantics import composition as C

KS = (1, 2, 999, 1000, 1001)
EPS0S = (5e-324, 1e-300, 1e-9, 1e-4, 0.05, 1.0, 30.0, 700.0, 1e300)


@pytest.fixture(autouse=True)
def _digits():
    """Every comparison with the reference at its 50 digits (mpmath's default of 15 would round it to a float)."""
    with mp.workdps(50):
        yield


def ref_log_delta(eps: float, eps0: float, k: int, delta0: float):
    """log δ(ε) for the k-fold composition of (ε₀, δ₀)-DP mechanisms, δ(ε) = A + (1 − A)·Σ_ℓ P_ℓ (1 − e^{ε − L_ℓ})₊,
    A = 1 − (1 − δ₀)^k, P_ℓ = C(k, ℓ) q^ℓ p^{k−ℓ}, q = 1/(1 + e^{ε₀}) and L_ℓ = ε₀(k − 2ℓ), every active term summed
    (ℓ = 0 … while L_ℓ > ε, up to a relative 1e-43 past the binomial mode) at 50 digits; the floats ε, ε₀, δ₀ are
    taken as the exact binary numbers they are.  Returns −inf where δ = 0."""
    with mp.workdps(50):
        e, e0 = mp.mpf(eps), mp.mpf(eps0)
        q, p = 1 / (1 + mp.exp(e0)), 1 / (1 + mp.exp(-e0))
        term, total, mode = p**k, mp.mpf(0), (k + 1) * q
        for ell in range((k + 1) // 2):
            loss = e0 * (k - 2 * ell)
            if loss <= e:
                break
            total += term * -mp.expm1(e - loss)
            if ell > mode and term < total * mp.mpf(10) ** -46:
                break  # past the mode the terms decrease: the fewer than k left add below 1e-43 of the sum
            term = term * (k - ell) / (ell + 1) * (q / p)
        reveal = -mp.expm1(k * mp.log1p(-mp.mpf(delta0)))
        value = reveal + (1 - reveal) * total
        return mp.log(value) if value > 0 else -mp.inf


def _eps_grid(eps0: float, k: int):
    """ε on, one ulp below and above, and between lattice points (k − 2ℓ)ε₀, for ℓ = 0 (the far tail: only the
    all-kept outcome is active), 1, the binomial mode and the last active ℓ (the bulk); and ε = 0."""
    q = 1 / (1 + math.exp(min(eps0, 700.0)))
    out = {0.0}
    for ell in sorted({0, 1, int((k + 1) * q), (k - 1) // 2}):
        if ell > (k - 1) // 2:
            continue
        point = (k - 2 * ell) * eps0
        if not math.isfinite(point):
            continue
        out.update({point, float(np.nextafter(point, 0.0)), float(np.nextafter(point, math.inf)),
                    max(point - 0.5 * eps0, 0.0)})
    return sorted(out)


def _delta_grid():
    rows = []
    for eps0 in EPS0S:
        for k in KS:
            for eps in _eps_grid(eps0, k):
                rows.append((eps, eps0, k, 0.0))
            rows.append((0.5 * k * eps0, eps0, k, 1e-8))
    return [np.array(c) for c in zip(*rows)]


def test_optimal_log_delta_is_never_below_the_exact_value():
    """One array call over the grid (and the scalar calls agree with it): every log δ is at least the exact one (to
    the reference's own 50 digits) and, for k ≤ 1000 and ε₀ ≥ 1e-200, at most 1e-9 above it (relative, in δ).  The
    smallest relative excess over k ≤ 1000 must stay nonnegative: a margin eaten up by rounding fails here.  (Where
    ε₀ is below 1e-200 the bound stays safe but is loose in the far tail: the scale of a table is kept within e^{500}
    of its largest term, so a δ of e^{−745} can come out as e^{−535}.)"""
    eps, eps0, k, delta0 = _delta_grid()
    got = C.optimal_log_delta(eps, eps0, k, delta0)
    excess = []
    for i in range(eps.size):
        args = float(eps[i]), float(eps0[i]), int(k[i]), float(delta0[i])
        want = ref_log_delta(*args)
        if want == -mp.inf:
            assert got[i] == -math.inf or got[i] < -1400.0, args  # (no loss above ε: δ = 0 exactly)
            continue
        assert got[i] >= want - 1e-40, (args, got[i], float(want))  # the safe side (the reference: 50 digits)
        rel = float(mp.expm1(mp.mpf(got[i]) - want))
        if args[2] <= 1000 and args[1] >= 1e-200:
            assert rel <= 1e-9, (args, rel)
            excess.append(rel)
        if i % 5 == 0:
            assert C.optimal_log_delta(*args) == got[i], args
    assert len(excess) > 200 and min(excess) >= -1e-40
    # the far tail is in the grid: values far below the normal range, compared in log space
    assert np.min(got[np.isfinite(got)]) < -1000.0


def test_optimal_delta_as_a_float_is_never_below_the_exact_value():
    """optimal_delta itself (exponentiated, subnormal results included) is never below the exact δ."""
    eps, eps0, k, delta0 = _delta_grid()
    got = C.optimal_delta(eps, eps0, k, delta0)
    for i in range(0, eps.size, 3):
        args = float(eps[i]), float(eps0[i]), int(k[i]), float(delta0[i])
        want = ref_log_delta(*args)
        if want == -mp.inf:
            continue
        assert mp.mpf(got[i]) >= mp.exp(want) * (1 - mp.mpf(10) ** -40), (args, got[i])


def _epsilon_grid():
    rows = []
    for eps0 in EPS0S:
        for k in KS:
            for delta in (0.9, 0.3, 1e-6, 1e-40, 1e-300, 5e-324):
                rows.append((eps0, k, delta, 0.0))
            reveal = -math.expm1(k * math.log1p(-1e-8))
            for f in (1e-14, 1e-6, 1.0):
                rows.append((eps0, k, reveal * (1 + f), 1e-8))
    return [np.array(c) for c in zip(*rows)]


def test_optimal_epsilon_meets_its_delta_exactly_and_is_tight():
    """Every ε that optimal_epsilon returns over the grid meets its δ by the exact profile (δ(ε) ≤ δ), and ε is within
    a relative 1e-9 of the smallest such ε (δ(ε(1 − 1e-9)) > δ) where ε is a normal float below kε₀ and ε₀ ≥ 1e-200.
    (It failed at ε₀ = 5e-324, k = 999, δ = 5e-324 before: ε = 0, where δ(0) = 1.4e-322; the tables capped their
    terms at e^{700} above the target, and with 1 − e^{−2ε₀} = 1e-323 the capped terms no longer carried the sum
    over the target.  From a capped term on, the tables now hold D = ∞.)"""
    eps0, k, delta, delta0 = _epsilon_grid()
    got = C.optimal_epsilon(eps0, k, delta, delta0)
    checked = tight = 0
    for i in range(eps0.size):
        e0, kk, d, d0, e = float(eps0[i]), int(k[i]), float(delta[i]), float(delta0[i]), float(got[i])
        if not math.isfinite(e):
            continue
        log_d = mp.log(mp.mpf(d))
        assert ref_log_delta(e, e0, kk, d0) <= log_d + 1e-40, (e0, kk, d, d0, e)
        checked += 1
        if 1e-290 < e < e0 * kk and e0 >= 1e-200:  # (a subnormal ε: the relative step is below its spacing)
            assert ref_log_delta(e * (1 - 1e-9), e0, kk, d0) > log_d, (e0, kk, d, d0, e)
            tight += 1
    assert checked > 300 and tight > 100


def test_optimal_delta_exponentiates_outward():
    """optimal_delta is e^{optimal_log_delta} rounded up at every magnitude (``_rounding.exp_up``; before, np.exp to
    nearest in the normal range, a few ulps either way, left to the relative margin): never below the exact
    exponential of the log bound (mpmath), within 1e-14 of it, and never above 1 (δ = 1 stays 1)."""
    eps, eps0, k, delta0 = _delta_grid()
    eps = np.concatenate([eps, [0.0, 0.0, 1e-3]])
    eps0 = np.concatenate([eps0, [50.0, 5e-324, 1e-3]])
    k = np.concatenate([k, [1000, 1, 10**6]])
    delta0 = np.concatenate([delta0, [0.5, 0.0, 0.0]])
    log_d = C.optimal_log_delta(eps, eps0, k, delta0)
    d = C.optimal_delta(eps, eps0, k, delta0)
    assert np.all(d <= 1.0) and np.any(d == 1.0)
    for ld, dd in zip(log_d, d):
        exact = mp.exp(mp.mpf(float(ld)))
        assert dd >= exact and (dd == 0.0) == (ld == -np.inf)
        if exact > mp.mpf(2.0**-1022):
            assert dd <= exact * (1 + mp.mpf(1e-14))
