"""Tests for dpsemantics.composition (Kazan et al. Theorem 2.8 and 2.9; Kairouz–Oh–Viswanath 2015).

Expected values come from closed forms typed here from the theorems, from brute force over the k-fold
product of finite mechanisms (FiniteMechanism.compose + hockey-stick divergence), and from properties
the theorems imply.  50-digit comparisons live in tests/unit/test_accuracy.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dpsemantics import composition as C
from dpsemantics import _kov
from dpsemantics.indistinguishability import max_divergence, smallest_epsilon
from dpsemantics.mechanisms import FiniteMechanism, randomized_response

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def kfold(mech: FiniteMechanism, k: int) -> FiniteMechanism:
    out = mech
    for _ in range(k - 1):
        out = out.compose(mech)
    return out


def kov_mechanism(eps0: float, delta0: float) -> FiniteMechanism:
    """The worst (ε₀, δ₀)-DP mechanism of Kairouz, Oh & Viswanath (2015): randomized response with an
    extra outcome revealing the input with probability δ₀."""
    a = math.exp(eps0) / (1 + math.exp(eps0))
    b = 1 - a
    m = np.array(
        [
            [delta0, (1 - delta0) * a, (1 - delta0) * b, 0.0],
            [0.0, (1 - delta0) * b, (1 - delta0) * a, delta0],
        ]
    )
    return FiniteMechanism(m, [0, 1], ["reveal0", "say0", "say1", "reveal1"])


# ------------------------------------------------------------------------------------ closed forms


def test_basic_closed_form():
    assert C.basic_epsilon(0.05, 28) == pytest.approx(1.4, rel=1e-15)
    assert C.basic_delta(1e-8, 12) == pytest.approx(1.2e-7, rel=1e-15)
    np.testing.assert_allclose(C.basic_epsilon([0.1, 0.2], [3, 5]), [0.3, 1.0], rtol=1e-15)


def test_advanced_closed_form_homogeneous():
    # ε = kε₀(e^{ε₀} − 1) + ε₀√(2k log(1/δ)), typed from Kazan Thm 2.8(2) with ε_j = ε₀
    eps0, k, delta = 0.05, 100, 1e-6
    expected = k * eps0 * (math.exp(eps0) - 1) + math.sqrt(2 * k * eps0**2 * math.log(1 / delta))
    assert C.advanced_epsilon(eps0, k, delta) == pytest.approx(expected, rel=1e-13)
    # δ₀ does not change ε (the slack parametrisation): the total δ is kδ₀ + δ
    assert C.advanced_epsilon(eps0, k, delta, 1e-9) == pytest.approx(expected, rel=1e-13)


def test_advanced_heterogeneous_matches_paper_form_and_homogeneous():
    eps = [0.1, 0.2, 0.05]
    dj = [1e-7, 2e-7, 0.0]
    total = 1e-5
    expected = sum(e * (math.exp(e) - 1) for e in eps) + math.sqrt(
        2 * sum(e * e for e in eps) * math.log(1 / (total - sum(dj))))
    assert C.advanced_epsilon_heterogeneous(eps, total, dj) == pytest.approx(expected, rel=1e-13)
    assert C.advanced_epsilon_heterogeneous([0.1] * 7, 1e-6 + 7e-8, [1e-8] * 7) == pytest.approx(
        C.advanced_epsilon(0.1, 7, 1e-6, 1e-8), rel=1e-9
    )


def test_zcdp_compose():
    assert C.zcdp_compose([0.01, 0.02, 0.03]) == pytest.approx(0.06, rel=1e-15)
    assert C.zcdp_compose(0.01, 365) == pytest.approx(3.65, rel=1e-14)
    np.testing.assert_allclose(C.zcdp_compose(0.5, [1, 2, 3]), [0.5, 1.0, 1.5])


def test_optimal_single_mechanism_is_randomized_response_profile():
    # k = 1: δ(ε) = (e^{ε₀} − e^ε)₊/(1 + e^{ε₀}) and ε(δ) = log(e^{ε₀} − δ(1 + e^{ε₀}))
    eps0 = 0.7
    for e in [0.0, 0.3, 0.69, 0.7, 1.0]:
        expected = max(math.exp(eps0) - math.exp(e), 0.0) / (1 + math.exp(eps0))
        # an upper bound: the float value raised by its evaluation allowance, 1e-12 + 1e-14·√k relative
        got = C.optimal_delta(e, eps0, 1)
        assert got >= expected and got == pytest.approx(expected, rel=2e-12, abs=1e-300)
    delta = 0.05
    assert (C.optimal_epsilon(eps0, 1, delta)
            == pytest.approx(math.log(math.exp(eps0) - delta * (1 + math.exp(eps0))), rel=1e-13))


def test_optimal_two_fold_closed_form():
    # k = 2: privacy loss 2ε₀ w.p. a², 0 w.p. 2ab, −2ε₀ w.p. b²; for 0 ≤ ε < 2ε₀: δ = a²(1 − e^{ε−2ε₀})
    eps0 = 0.4
    a = math.exp(eps0) / (1 + math.exp(eps0))
    for e in [0.0, 0.1, 0.5, 0.79]:
        assert C.optimal_delta(e, eps0, 2) == pytest.approx(a * a * (1 - math.exp(e - 2 * eps0)), rel=2e-12)


def test_lattice_points_match_printed_formula():
    # optimal_lattice evaluates the printed sum of Thm 2.8(3) term by term; the continuous profile must
    # agree at every lattice point.  The float ε = (k − 2ℓ)ε₀ misses the true lattice point by up to half an
    # ulp, and optimal_delta evaluates exactly at the float it is given, so allow |dδ/dε| ≤ e^ε times that.
    for eps0, k, delta0 in [(0.1, 10, 0.0), (0.05, 37, 1e-6), (1.0, 20, 0.0), (2.0, 7, 1e-3)]:
        for ell in range(k // 2 + 1):
            eps, delta = C.optimal_lattice(eps0, k, ell, delta0)
            assert eps == pytest.approx((k - 2 * ell) * eps0)
            slack = np.exp(eps) * np.spacing(eps)
            assert C.optimal_delta(eps, eps0, k, delta0) == pytest.approx(delta, rel=1e-11, abs=slack)


def test_lattice_gap_is_exact():
    """optimal_delta(0.001, 1e-4, 10): the float 0.001 lies 2.7e-20 below the float 10 × 1e-4, so δ is
    P_0 (1 − e^{−2.7e-20}) ≈ 2.6e-23, not 0 (exact rational arithmetic on the float inputs)."""
    from fractions import Fraction
    import mpmath

    gap = Fraction(0.001) - 10 * Fraction(1e-4)
    with mpmath.workdps(60):
        e0 = mpmath.mpf(1e-4)
        p0 = (mpmath.exp(e0) / (1 + mpmath.exp(e0))) ** 10
        want = p0 * -mpmath.expm1(mpmath.mpf(gap.numerator) / gap.denominator)
    assert float(want) == pytest.approx(2.6e-23, rel=0.05)
    assert C.optimal_delta(0.001, 1e-4, 10) == pytest.approx(float(want), rel=1e-12)


def test_optimal_between_lattice_points_beats_lattice_reading():
    # the smallest ε at the δ of a lattice point is that lattice point; a slightly larger δ gives a
    # strictly smaller ε (the printed theorem only offers the next lattice point down)
    eps0, k, ell = 0.1, 20, 4
    eps_l, delta_l = C.optimal_lattice(eps0, k, ell)
    assert C.optimal_epsilon(eps0, k, delta_l) == pytest.approx(eps_l, rel=1e-10)
    e = C.optimal_epsilon(eps0, k, delta_l * 1.01)
    assert (k - 2 * (ell + 1)) * eps0 < e < eps_l


def test_optimal_epsilon_zero_and_limits():
    # δ at least δ(0) (the total variation of the k-fold product) gives ε = 0
    d0 = C.optimal_delta(0.0, 0.1, 10)
    assert C.optimal_epsilon(0.1, 10, min(1 - 1e-16, d0 * 1.0001)) == 0.0
    assert C.optimal_epsilon(0.1, 10, d0 * 0.999) > 0.0
    # ε₀ = 0 composes to ε = 0 and δ = 1 − (1 − δ₀)^k
    assert C.optimal_epsilon(0.0, 50, 1e-6) == 0.0
    assert C.optimal_delta(0.3, 0.0, 5, 1e-3) == pytest.approx(1 - (1 - 1e-3) ** 5, rel=1e-12)
    # beyond kε₀ only the δ₀ part is left
    assert C.optimal_delta(5.0, 0.1, 10) == 0.0
    assert C.optimal_delta(5.0, 0.1, 10, 1e-4) == pytest.approx(-math.expm1(10 * math.log1p(-1e-4)), rel=2e-12)


def test_extreme_parameters_finite():
    for eps0 in [1e-4, 10.0, 50.0]:
        for k in [1, 100_000]:
            for delta in [1e-300, 0.5]:
                e = C.optimal_epsilon(eps0, k, delta)
                assert np.isfinite(e) and 0 <= e <= k * eps0 * (1 + 1e-12)
    assert C.optimal_log_delta(0.01, 1e-4, 100_000) < 0
    assert np.isfinite(C.advanced_epsilon(50.0, 100_000, 1e-300))


def test_vectorised_matches_scalar():
    deltas = np.array([1e-3, 1e-6, 1e-12])
    vec = C.optimal_epsilon(0.1, 100, deltas)
    assert vec.shape == (3,)
    for d, v in zip(deltas, vec):
        assert v == C.optimal_epsilon(0.1, 100, float(d))
    eps = np.linspace(0, 3, 7).reshape(7, 1)
    grid = C.optimal_delta(eps, 0.1, np.array([10, 20, 30]))
    assert grid.shape == (7, 3)
    assert grid[3, 1] == C.optimal_delta(float(eps[3, 0]), 0.1, 20)


def _hostile_optimal_epsilon_grid():
    """(ε₀, k, δ, δ₀) over the corners: ε₀ from a subnormal to one whose kε₀ overflows, k from 1 to 10⁵, δ from
    the smallest float to 1 − 2⁻⁵³ and within 1e-14 of the reveal mass A = 1 − (1 − δ₀)^k (where the target
    is formed at 60 digits); only the combinations for which a finite-or-infinite ε exists (the scalar call
    does not raise)."""
    rows = []
    for eps0 in [5e-324, 1e-300, 1e-8, 0.01, 0.7, 30.0, 700.0, 1.7e308]:
        for k in [1, 2, 3, 101, 20_001, 10**5]:
            for delta0 in [0.0, 1e-12, 1e-8]:
                reveal = -math.expm1(k * math.log1p(-delta0))
                deltas = [5e-324, 1e-300, 1e-15, 1e-6, 0.3, 1 - 2**-53]
                if reveal > 0:
                    deltas += [reveal * (1 + 1e-14), reveal * (1 + 1e-6), min(2 * reveal, 0.9)]
                for delta in deltas:
                    try:
                        value = C.optimal_epsilon(eps0, k, delta, delta0)
                    except ValueError:
                        continue
                    rows.append((eps0, k, delta, delta0, value))
    return rows


def test_optimal_epsilon_array_equals_scalar_calls_bit_for_bit():
    """One array call over a hostile grid (many mechanisms, targets in different groups, the cancellation path)
    returns exactly the stacked scalar calls: grouping by mechanism changes no bit of any entry."""
    rows = _hostile_optimal_epsilon_grid()
    assert len(rows) > 400
    eps0, k, delta, delta0, scalar = (np.array(c) for c in zip(*rows))
    vec = C.optimal_epsilon(eps0, k, delta, delta0)
    assert vec.shape == scalar.shape
    same = (vec == scalar) | (np.isinf(vec) & np.isinf(scalar))
    assert np.all(same), [rows[i] + (vec[i],) for i in np.flatnonzero(~same)[:5]]
    assert np.any(np.isinf(scalar)) and np.any(scalar == 0.0) and np.any((scalar > 0) & np.isfinite(scalar))
    # the same entries in another order and shape: still the same bits
    order = np.random.default_rng(7).permutation(len(rows))
    shuffled = C.optimal_epsilon(eps0[order].reshape(-1, 1), k[order].reshape(-1, 1), delta[order].reshape(-1, 1),
                                 delta0[order].reshape(-1, 1))
    assert shuffled.shape == (len(rows), 1)
    assert np.array_equal(shuffled[:, 0], vec[order])
    # one mechanism, a million-fold range of δ (one group per e^64 of target): each entry is its scalar call
    deltas = np.geomspace(5e-324, 0.5, 97)
    many = C.optimal_epsilon(0.1, 10**4, deltas)
    assert np.array_equal(many, [C.optimal_epsilon(0.1, 10**4, float(d)) for d in deltas])


def test_optimal_delta_array_equals_scalar_calls_bit_for_bit():
    """optimal_log_delta over an array (many mechanisms, ε from 0 past the largest loss, scales of δ from 1 to
    e^-700) returns exactly the stacked scalar calls."""
    rows = []
    for eps0 in [5e-324, 1e-300, 1e-8, 0.01, 0.7, 30.0, 1.7e308]:
        for k in [1, 2, 101, 20_001, 10**5]:
            for delta0 in [0.0, 1e-8]:
                top = min(k * eps0, 1e300)
                for eps in [0.0, 1e-300, top * 1e-3, top * 0.3, top * 0.9, top * (1 - 1e-12), top, top * 2, 1e300]:
                    rows.append((eps, eps0, k, delta0, C.optimal_log_delta(eps, eps0, k, delta0)))
    eps, eps0, k, delta0, scalar = (np.array(c) for c in zip(*rows))
    vec = C.optimal_log_delta(eps, eps0, k, delta0)
    same = (vec == scalar) | (np.isneginf(vec) & np.isneginf(scalar))
    assert np.all(same), [rows[i] + (vec[i],) for i in np.flatnonzero(~same)[:5]]
    assert np.any(np.isneginf(scalar)) and np.any(scalar == 0.0) and np.any(scalar < -600)


def test_optimal_epsilon_array_reports_the_first_bad_entry():
    """An array with one δ below the reveal mass raises for that entry, naming it, as the scalar call does."""
    with pytest.raises(ValueError, match=r"delta must exceed .*got delta=1e-07"):
        C.optimal_epsilon(0.1, 100, [1e-3, 1e-7, 1e-2], 1e-8)
    with pytest.raises(ValueError, match=r"k must be at most 1000000000 here \(got k=2000000000\)"):
        C.optimal_epsilon(0.1, np.array([10, 2 * 10**9]), 1e-6)
    with pytest.raises(ValueError, match=r"k must be a whole number >= 1 \(got k=2.5\)"):
        C.optimal_epsilon(0.1, np.array([10, 2.5]), 1e-6)
    with pytest.raises(ValueError, match=r"k must be a whole number >= 1 \(got k=0\)"):
        C.optimal_epsilon(0.1, np.array([0, 3]), 1e-6)


def test_max_eps0_inverts_each_method():
    for method in ["basic", "advanced", "optimal"]:
        e0 = C.max_eps0(0.81, 12, 1e-6, 1e-8 if method != "basic" else 0.0, method=method)
        if method == "basic":
            assert e0 == pytest.approx(0.81 / 12)
        elif method == "advanced":
            assert C.advanced_epsilon(e0, 12, 1e-6 - 12e-8, 1e-8) == pytest.approx(0.81, rel=1e-10)
        else:
            assert C.optimal_epsilon(e0, 12, 1e-6, 1e-8) == pytest.approx(0.81, rel=1e-10)


# ------------------------------------------------------------------------------------ brute force


@pytest.mark.parametrize("eps0,k", [(0.3, 1), (0.3, 2), (0.3, 5), (1.0, 6), (0.05, 7), (2.0, 4)])
def test_optimal_delta_equals_brute_force_randomized_response(eps0, k):
    mk = kfold(randomized_response(eps0), k)
    eps = np.unique(np.concatenate([np.linspace(0, k * eps0 * 1.1, 23), eps0 * np.arange(k % 2, k + 1, 2)]))
    np.testing.assert_allclose(C.optimal_delta(eps, eps0, k), mk.delta(eps), rtol=1e-9, atol=1e-14)


@pytest.mark.parametrize("eps0,delta0,k", [(0.5, 0.01, 3), (0.2, 0.05, 5), (1.5, 1e-3, 4)])
def test_optimal_delta_equals_brute_force_kov_mechanism(eps0, delta0, k):
    mech = kov_mechanism(eps0, delta0)
    assert mech.is_dp(eps0, delta0)
    mk = kfold(mech, k)
    eps = np.linspace(0, k * eps0 * 1.2, 31)
    np.testing.assert_allclose(C.optimal_delta(eps, eps0, k, delta0), mk.delta(eps), rtol=1e-9, atol=1e-14)


@pytest.mark.parametrize("eps0,delta0,k,delta", [(0.5, 0.0, 5, 1e-2), (0.2, 0.01, 4, 0.1), (1.0, 1e-3, 3, 0.02)])
def test_optimal_epsilon_is_smallest_for_brute_force(eps0, delta0, k, delta):
    mk = kfold(kov_mechanism(eps0, delta0), k)
    e = C.optimal_epsilon(eps0, k, delta, delta0)
    assert mk.is_dp(e, delta, tol=1e-12)
    assert not mk.is_dp(e - 1e-6, delta, tol=0.0)


@FAST
@given(
    p=st.lists(st.floats(0.05, 1.0), min_size=3, max_size=3),
    q=st.lists(st.floats(0.05, 1.0), min_size=3, max_size=3),
    delta0=st.sampled_from([0.0, 0.01, 0.05]),
    k=st.integers(1, 3),
)
def test_any_mechanism_composes_within_optimal_profile(p, q, delta0, k):
    """Kazan Thm 2.8(3) is a guarantee for *every* (ε₀, δ₀)-DP mechanism: compose a random one."""
    p = np.array(p) / sum(p)
    q = np.array(q) / sum(q)
    # δ₀ = 0: the max divergence (indistinguishability.smallest_epsilon can fail at δ = 0, see report)
    eps0 = max_divergence(p, q) if delta0 == 0 else smallest_epsilon(p, q, delta0)
    assume(np.isfinite(eps0) and eps0 > 1e-3)
    mech = FiniteMechanism(np.vstack([p, q]), [0, 1], list(range(3)))
    mk = kfold(mech, k)
    eps = np.linspace(0, k * eps0, 9)
    assert np.all(mk.delta(eps) <= C.optimal_delta(eps, eps0, k, delta0) + 1e-9)


# ------------------------------------------------------------------------------------ properties

eps0_st = st.floats(1e-4, 10.0)
k_st = st.integers(1, 2000)
delta_st = st.floats(1e-300, 0.5)


@FAST
@given(a=eps0_st, b=eps0_st, k=st.integers(1, 1000), extra=st.integers(1, 50), d1=delta_st, d2=delta_st)
def test_optimal_epsilon_monotone_in_delta_k_eps0(a, b, k, extra, d1, d2):
    e_lo, e_hi = sorted([a, b])
    d_lo, d_hi = sorted([d1, d2])
    base = C.optimal_epsilon(e_lo, k, d_lo)
    slack = base * 1e-12 + 1e-300
    assert C.optimal_epsilon(e_lo, k, d_hi) <= base + slack  # more δ, less ε
    assert base <= C.optimal_epsilon(e_lo, k + extra, d_lo) * (1 + 1e-12) + 1e-300  # more mechanisms
    assert base <= C.optimal_epsilon(e_hi, k, d_lo) * (1 + 1e-12) + 1e-300  # weaker mechanisms


@FAST
@given(eps0=eps0_st, k=k_st, e1=st.floats(0, 1), e2=st.floats(0, 1), delta0=st.sampled_from([0.0, 1e-9, 1e-4]))
def test_optimal_delta_decreasing_in_eps_increasing_in_delta0(eps0, k, e1, e2, delta0):
    lo, hi = sorted([e1 * k * eps0, e2 * k * eps0])
    d_lo = C.optimal_delta(lo, eps0, k, delta0)
    assert C.optimal_delta(hi, eps0, k, delta0) <= d_lo * (1 + 1e-12)
    assert C.optimal_delta(lo, eps0, k, 0.0) <= d_lo * (1 + 1e-12)


@FAST
@given(eps0=eps0_st, k=k_st, delta=st.floats(1e-300, 0.9), delta0=st.sampled_from([0.0, 1e-10, 1e-6]))
def test_delta_to_epsilon_to_delta(eps0, k, delta, delta0):
    A = -math.expm1(k * math.log1p(-delta0))
    assume(delta > A * (1 + 1e-6))
    e = C.optimal_epsilon(eps0, k, delta, delta0)
    # the exact root lies within a few ulps of e: δ is at most the target just above e (feasible) and at
    # least the target just below it (smallest) — up to the 1e-9 accuracy of δ itself
    step = 16 * np.spacing(max(e, 1e-300))
    assert C.optimal_delta(e + step, eps0, k, delta0) <= delta * (1 + 1e-9)
    if e > 0:
        assert C.optimal_delta(max(e - step, 0.0), eps0, k, delta0) >= delta * (1 - 1e-9)


@FAST
@given(eps0=eps0_st, k=k_st, frac=st.floats(0.0, 0.999))
def test_epsilon_to_delta_to_epsilon(eps0, k, frac):
    e = frac * k * eps0
    d = C.optimal_delta(e, eps0, k)
    assume(1e-290 < d < 1.0)
    # δ(ε) is strictly decreasing where positive, so inverting returns ε (up to the flat conditioning
    # of the profile; compare in δ via the slope when ε is tiny)
    e_back = C.optimal_epsilon(eps0, k, d)
    # where the profile is very flat (slope e^ε·Pr[Bin(k, p) < m] tiny) ε is ill-conditioned in δ; then
    # the round trip must still land on the same δ
    close_in_eps = e_back == pytest.approx(e, rel=1e-6, abs=1e-12)
    close_in_delta = C.optimal_delta(e_back, eps0, k) == pytest.approx(d, rel=1e-9)
    assert close_in_eps or close_in_delta


@FAST
@given(eps0=st.floats(1e-4, 5.0), k=k_st, delta=st.floats(1e-300, 0.5), delta0=st.sampled_from([0.0, 1e-12, 1e-8]))
def test_optimal_at_most_advanced_and_basic(eps0, k, delta, delta0):
    total = min(k * delta0 + delta, 0.999999)
    assume(total > -math.expm1(k * math.log1p(-delta0)))  # kδ₀ + δ must be representable above 1 − (1 − δ₀)^k
    opt = C.optimal_epsilon(eps0, k, total, delta0)
    assert opt <= C.advanced_epsilon(eps0, k, delta, delta0) * (1 + 1e-12)
    assert opt <= C.basic_epsilon(eps0, k) * (1 + 1e-12)


# ------------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda: C.basic_epsilon(-0.1, 3), "eps0"),
        (lambda: C.basic_epsilon(0.1, 0), "k"),
        (lambda: C.basic_delta(1.5, 3), "delta0"),
        (lambda: C.advanced_epsilon(0.1, 0, 1e-6), "k"),
        (lambda: C.advanced_epsilon(0.1, 2.5, 1e-6), "k"),
        (lambda: C.advanced_epsilon(float("nan"), 3, 1e-6), "eps0"),
        (lambda: C.advanced_epsilon(0.1, 3, 0.0), "delta_slack"),
        (lambda: C.advanced_epsilon(0.1, 3, 1.0), "delta_slack"),
        (lambda: C.advanced_epsilon(0.1, 3), "delta_slack"),
        (lambda: C.advanced_epsilon(0.1, 3, delta=1e-6), r"not accepted here \(got delta=1e-06\)"),
        (lambda: C.advanced_epsilon(0.1, 3, 1e-6, delta=1e-6), r"not accepted here \(got delta=1e-06\)"),
        (lambda: C.advanced_epsilon(0.1, 3, 1e-6, 1.0), "delta0"),
        (lambda: C.advanced_epsilon_heterogeneous([0.1, 0.2], 1e-6, [1e-6, 1e-6]), "delta"),
        (lambda: C.advanced_epsilon_heterogeneous([0.1, 0.2], 1e-6, [1e-9]), "delta_list"),
        (lambda: C.optimal_epsilon(0.1, 0, 1e-6), "k"),
        (lambda: C.optimal_epsilon(0.1, True, 1e-6), "k"),
        (lambda: C.optimal_epsilon(0.1, 10, float("nan")), "delta"),
        (lambda: C.optimal_epsilon(0.1, 10, 0.0), "delta"),
        (lambda: C.optimal_epsilon(0.1, 10, 1.0), "delta"),
        (lambda: C.optimal_epsilon(0.1, 10, 1e-6, 1.0), "delta0"),
        (lambda: C.optimal_epsilon(0.1, 10, 1e-6, 1e-6), "delta must exceed"),
        (lambda: C.optimal_epsilon(float("inf"), 10, 1e-6), "eps0"),
        (lambda: C.optimal_delta(-1.0, 0.1, 10), "eps"),
        (lambda: C.optimal_delta(1.0, -0.1, 10), "eps0"),
        (lambda: C.optimal_delta(1.0, 0.1, [3, 0]), "k"),
        (lambda: C.optimal_lattice(0.1, 10, 6), "ell"),
        (lambda: C.max_eps0(0.81, 12, 1e-6, method="best"), "method"),
        (lambda: C.max_eps0(0.0, 12, 1e-6), "eps_total"),
        (lambda: C.zcdp_compose([0.1, -0.1]), "rhos"),
        (lambda: C.zcdp_compose(0.1, 0), "k"),
    ],
)
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_one_table_of_composition_methods():
    """Every ``method`` argument reads composition.COMPOSITION_METHODS: the total ε at total δ of each theorem
    (Kazan Thm 2.8) is the one its own function gives, the methods order as the theorems do (optimal ≤
    lattice, optimal ≤ advanced, optimal ≤ basic), and max_eps0 inverts each one on the safe side."""
    eps0, k, delta, delta0 = 0.05, 200, 1e-6 + 200 * 1e-9, 1e-9
    table = {m: C.composed_epsilon_by(m, eps0, k, delta, delta0) for m in C.COMPOSITION_METHODS}
    assert set(table) == {"basic", "advanced", "optimal", "lattice"}
    assert table["basic"] == C.basic_epsilon(eps0, k)
    assert table["advanced"] == C.advanced_epsilon(eps0, k, delta - k * delta0, delta0)
    assert table["optimal"] == C.optimal_epsilon(eps0, k, delta, delta0)
    assert table["optimal"] <= min(table["lattice"], table["advanced"], table["basic"])
    for m in C.COMPOSITION_METHODS:
        e0 = C.max_eps0(table[m], k, delta, delta0, method=m)
        assert C.composed_epsilon_by(m, e0, k, delta, delta0) <= table[m]
        assert e0 >= eps0 * (1 - 1e-6)
    with pytest.raises(ValueError, match="method must be one of 'basic', 'advanced', 'optimal', 'lattice'"):
        C.composed_epsilon_by("best", eps0, k, delta)


def test_distinct_mechanisms_array_equals_scalar_calls(monkeypatch):
    """Many distinct small mechanisms in one call (the row-wise path, k ≤ 1000: issue 23's 10⁶ distinct (ε₀, k)):
    ε₀ from the smallest subnormal to 1.7e308, k = 1 … 1000 (and 1001, the per-mechanism path), δ down to 5e-324 and
    next to A = 1 − (1 − δ₀)^k.  Every entry of optimal_epsilon and optimal_log_delta equals its scalar call, also
    when the rows are cut into chunks of a few cells (the memory cap)."""
    e0 = np.concatenate([[5e-324, 1e-300, 1e-9], np.geomspace(1e-4, 50.0, 40), [700.0, 1e300, 1.7e308]])
    ks = np.array([1, 2, 3, 10, 99, 100, 1000, 1001])
    eps0, k = (a.ravel() for a in np.meshgrid(e0, ks))
    delta0 = np.resize([0.0, 0.0, 1e-8], eps0.size)
    reveal = -np.expm1(k * np.log1p(-delta0))
    delta = np.where(delta0 > 0, reveal * np.resize([1 + 1e-14, 1 + 1e-6, 3.0], eps0.size),
                     np.resize([5e-324, 1e-300, 1e-6, 0.3, 0.9], eps0.size))
    with np.errstate(over="ignore", invalid="ignore"):
        eps = eps0 * k * np.resize([0.0, 0.2, 0.7, 1 - 1e-12, 1.0], eps0.size)
    eps = np.where(np.isfinite(eps), eps, 1e300)
    whole = C.optimal_epsilon(eps0, k, delta, delta0)
    log_d = C.optimal_log_delta(eps, eps0, k, delta0)
    monkeypatch.setattr(_kov, "_BATCH_CELLS", 7)
    assert np.array_equal(C.optimal_epsilon(eps0, k, delta, delta0), whole)
    assert np.array_equal(C.optimal_log_delta(eps, eps0, k, delta0), log_d)
    for i in np.random.default_rng(5).choice(eps0.size, 150, replace=False):
        args = float(eps0[i]), int(k[i]), float(delta[i]), float(delta0[i])
        assert C.optimal_epsilon(*args) == whole[i], args
        assert C.optimal_log_delta(float(eps[i]), args[0], args[1], args[3]) == log_d[i], args
    assert np.any(np.isinf(whole)) and np.any(whole == 0) and np.any((whole > 0) & np.isfinite(whole))


def test_many_distinct_k_in_one_table_equal_the_per_k_route(monkeypatch):
    """Issue 40 (10⁶ mechanisms, k uniform in 1 … 1000): mechanisms of different k ≤ 1000 share one ``_RRRows``
    table (their columns side by side in every chunk) instead of one table per k.  On a seeded sample — ε₀ from the
    smallest subnormal to 1.7e308, 200 values of k among 1 … 1000 with both ends, δ from 1e-300 to 0.9 and next to
    A = 1 − (1 − δ₀)^k, ε in the bulk, in the tail and on lattice points — every entry of optimal_epsilon and
    optimal_log_delta equals the route of one k at a time (the call restricted to the entries of that k), also with
    chunks of a few cells or columns, and a sample of the scalar calls."""
    rng = np.random.default_rng(4040)
    n = 4000
    ks = np.concatenate([[1, 2, 3, 999, 1000], rng.choice(np.arange(4, 999), 195, replace=False)])
    k = rng.choice(ks, n)
    eps0 = 10.0 ** rng.uniform(-4, 1.5, n)
    eps0[:8] = [5e-324, 1e-300, 1e-9, 700.0, 1e300, 1.7e308, 0.5, 0.5]
    delta0 = np.resize([0.0, 0.0, 0.0, 1e-8], n)
    reveal = -np.expm1(k * np.log1p(-delta0))
    delta = np.where(delta0 > 0, reveal * np.resize([1 + 1e-14, 1 + 1e-6, 3.0], n),
                     10.0 ** rng.uniform(-300, -0.05, n))
    with np.errstate(over="ignore", invalid="ignore"):
        eps = np.minimum(eps0 * k * rng.uniform(0.0, 1.1, n), 1e300)
        eps[1::5] = np.minimum(eps0[1::5] * (k[1::5] - 2 * rng.integers(0, 3, eps[1::5].size)), 1e300)  # lattice
    eps[::7] = rng.uniform(0.0, 5.0, eps[::7].size)  # the bulk: δ near 1
    eps = np.maximum(eps, 0.0)
    whole = C.optimal_epsilon(eps0, k, delta, delta0)
    log_d = C.optimal_log_delta(eps, eps0, k, delta0)
    back = np.isfinite(whole)
    log_back = C.optimal_log_delta(whole[back], eps0[back], k[back], delta0[back])
    per_k, per_k_d, per_k_back = np.empty(n), np.empty(n), np.empty(back.sum())
    where_back = np.cumsum(back) - 1
    for kb in np.unique(k):
        m = k == kb
        per_k[m] = C.optimal_epsilon(eps0[m], k[m], delta[m], delta0[m])
        per_k_d[m] = C.optimal_log_delta(eps[m], eps0[m], k[m], delta0[m])
        mb = m & back
        per_k_back[where_back[mb]] = C.optimal_log_delta(whole[mb], eps0[mb], k[mb], delta0[mb])
    assert np.array_equal(whole, per_k)
    assert np.array_equal(log_d, per_k_d)
    assert np.array_equal(log_back, per_k_back)
    monkeypatch.setattr(_kov, "_BATCH_CELLS", 50)
    monkeypatch.setattr(_kov, "_SWEEP_COLUMNS", 13)
    assert np.array_equal(C.optimal_epsilon(eps0, k, delta, delta0), whole)
    assert np.array_equal(C.optimal_log_delta(eps, eps0, k, delta0), log_d)
    for i in rng.choice(n, 60, replace=False):
        args = float(eps0[i]), int(k[i]), float(delta[i]), float(delta0[i])
        assert C.optimal_epsilon(*args) == whole[i], args
        assert C.optimal_log_delta(float(eps[i]), args[0], args[1], args[3]) == log_d[i], args
    assert np.any(np.isinf(whole)) and np.any(whole == 0) and np.any((whole > 0) & np.isfinite(whole))
    assert np.any(log_d == 0.0) and np.any(log_d < -300) and np.any(np.isneginf(log_d))


def test_one_small_mechanism_many_targets_equals_scalar_calls():
    """k ≤ 1000, one mechanism, a million-fold range of δ: its targets share columns of the windowed table, each
    column cut above the piece of its largest target, so an entry's table is shorter in the scalar call than in the
    array call.  The rows below a cut do not depend on where it is: every entry equals its scalar call, and δ at
    the ε found (one array call) equals its scalar calls too."""
    deltas = np.geomspace(5e-324, 0.5, 97)
    for eps0, k in [(0.1, 1000), (1e-4, 999), (3.0, 1000), (0.7, 2)]:
        many = C.optimal_epsilon(eps0, k, deltas)
        assert np.array_equal(many, [C.optimal_epsilon(eps0, k, float(d)) for d in deltas]), (eps0, k)
        back = C.optimal_log_delta(many, eps0, k)
        assert np.array_equal(back, [C.optimal_log_delta(float(e), eps0, k) for e in many]), (eps0, k)


def test_working_memory_is_bounded_by_blocks(monkeypatch):
    """Issue 23: the per-entry arrays were not capped (about 600 bytes an entry at once: 233 MB for 4·10⁵ entries).
    The entries now go through blocks of ``_INPUT_BLOCK``: with blocks of 2¹⁴, a broadcast grid of 600 ε₀ × 500 δ
    (3·10⁵ entries, each input never expanded beyond a block) peaks below 25 MB of traced memory, the result and
    its copy included, for optimal_epsilon and optimal_log_delta alike; and the blocks change no bit."""
    import tracemalloc

    eps0 = np.geomspace(1e-3, 3.0, 600)[:, None]
    delta = np.geomspace(1e-12, 0.5, 500)[None, :]
    monkeypatch.setattr(_kov, "_INPUT_BLOCK", 2**14)
    peaks = []
    for call in (lambda: C.optimal_epsilon(eps0, 10, delta), lambda: C.optimal_log_delta(delta * 10, eps0, 10)):
        tracemalloc.start()
        try:
            out = call()
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert out.shape == (600, 500)
    assert max(peaks) < 25e6, peaks
    eps = C.optimal_epsilon(eps0, 10, delta)
    for i, j in [(0, 0), (599, 499), (300, 250), (17, 498)]:
        assert eps[i, j] == C.optimal_epsilon(float(eps0[i, 0]), 10, float(delta[0, j]))


def test_window_log_mass_error_bounds_every_mass_of_its_window():
    """The k > 1000 profile allows one number per window for the error of its log-masses (issue 23: the measured
    1e-14·√k was below the float error in the far tail).  That number must be at least the term-by-term bound at every
    j of the window: seeded windows that cross the series/direct switch of the deviance (|x − m| = 0.1(x + m)), hold
    m/e (where x log(m/x) peaks), reach j = 0 or j = k, or sit where k·q < 1; and it stays within 2× of the largest
    term-by-term bound (one scalar per window, not a loose one)."""
    from dpsemantics import _binomial as B

    rng = np.random.default_rng(23)
    for eps0, k in [(0.0037277568132300172, 13967), (1.0, 100_000), (2.0, 5000), (12.0, 1001), (1e-4, 200_000),
                    (0.3, 3000), (25.0, 2000)]:
        q, p, log_q, log_p = B.flip_probabilities(eps0)
        mode = B.binomial_mode(eps0, k)
        windows = [(0, k), (0, mode), (mode, k), (max(mode - 50, 0), min(mode + 50, k)),
                   (int(k * q * 0.3), int(k * q * 0.95) + 1), (max(int(k * q / math.e) - 3, 0), int(k * q) + 2)]
        for _ in range(6):
            a, b = sorted(int(x) for x in rng.integers(0, k + 1, 2))
            windows.append((a, b))
        for lo, hi in windows:
            j = np.arange(lo, hi + 1, dtype=float)
            each = B.log_mass_error(j, k, q, p, log_q, log_p)
            whole = B.window_log_mass_error(lo, hi, k, q, p, log_q, log_p)
            assert whole >= each.max(), (eps0, k, lo, hi, whole, each.max())
            assert whole <= 2.0 * each.max(), (eps0, k, lo, hi, whole, each.max())


def test_optimal_delta_swept_chunks_change_no_bit(monkeypatch):
    """optimal_delta's columns are swept row by row, in chunks of ``_SWEEP_COLUMNS`` columns, keeping only the cells
    each entry reads (no table; issue 23: 10⁶ distinct mechanisms in the bulk, where δ ≈ 1).  Chunks of 9 columns (the
    row sweep) and of 10⁶ (one chunk) give the same bits, the same as the scalar calls (one column: the per-column
    form), over ε₀ from 1e-300 to 1.7e308, k = 1 … 1000, ε from 0 past kε₀, δ₀ = 0 and 1e-8."""
    rng = np.random.default_rng(2310)
    n = 3000
    eps0 = np.concatenate([[5e-324, 1e-300, 1e-9, 700.0, 1e300, 1.7e308], 10.0 ** rng.uniform(-4, 1.5, n - 6)])
    k = rng.choice([1, 2, 3, 10, 99, 100, 999, 1000], n)
    with np.errstate(over="ignore"):
        eps = np.minimum(eps0 * k * rng.uniform(0.0, 1.1, n), 1e300)
    eps[::7] = rng.uniform(0.0, 5.0, eps[::7].size)  # the bulk: ε small against kε₀, δ near 1
    delta0 = np.resize([0.0, 0.0, 1e-8], n)
    monkeypatch.setattr(_kov, "_SWEEP_COLUMNS", 10**6)
    whole = C.optimal_log_delta(eps, eps0, k, delta0)
    monkeypatch.setattr(_kov, "_SWEEP_COLUMNS", 9)
    assert np.array_equal(C.optimal_log_delta(eps, eps0, k, delta0), whole)
    for i in rng.choice(n, 60, replace=False):
        assert C.optimal_log_delta(float(eps[i]), float(eps0[i]), int(k[i]), float(delta0[i])) == whole[i], i
    assert np.all(whole <= 0.0) and np.any(whole > -1e-3) and np.any(whole < -30.0)


def test_optimal_log_delta_far_tail_of_large_k_forms_only_the_rows_it_reads():
    """k > 1000, ε just below kε₀ (only the all-kept outcome, or the first two, active): log δ ≈ −4.7·10⁸ at ε₀ = 0.5,
    k = 10⁹.  Every term of the binomial lies above that scale's floor, and the profile formed all ⌈k/2⌉ rows (the
    process was killed for memory); the rows past the entries' last active ℓ are no longer formed.  The value is an
    upper bound on the closed form Σ_{ℓ ≤ 1} C(k, ℓ) q^ℓ p^{k−ℓ}(1 − e^{ε − L_ℓ}) (50-digit mpmath), loose by at most
    1e-4 relative (the whole window's derived log-mass error), and the array call equals the scalar calls."""
    import mpmath as mp

    for eps0, k in [(0.5, 10**9), (1e-4, 10**9), (0.01, 10**7)]:
        eps = np.array([eps0 * (k - 0.5), eps0 * (k - 1.5), eps0 * (k - 2.0) + eps0 / 8])
        got = C.optimal_log_delta(eps, eps0, k)
        with mp.workdps(50):
            e0 = mp.mpf(eps0)
            q, p = 1 / (1 + mp.exp(e0)), 1 / (1 + mp.exp(-e0))
            for e, g in zip(eps, got):
                terms = [mp.binomial(k, ell) * q**ell * p ** (k - ell) * -mp.expm1(mp.mpf(e) - e0 * (k - 2 * ell))
                         for ell in range(2) if e0 * (k - 2 * ell) > e]
                want = mp.log(mp.fsum(terms))
                assert want <= g <= want + 1e-4, (eps0, k, e, g, float(want))
        assert np.array_equal(got, [C.optimal_log_delta(float(e), eps0, k) for e in eps])


@pytest.mark.parametrize("k, frac", [(10**7, 0.75), (10**8, 0.75), (10**8, 0.2)])
def test_far_tail_delta_at_huge_k_matches_the_binomial_sum_and_forms_few_terms(k, frac, monkeypatch):
    """δ_RR far in the tail of k ≥ 10⁷ runs of ε₀ = 0.1 randomized response (ε = frac·kε₀, log δ ≈ −10⁶), the
    point profile_pdp_epsilon's bracketing asks: against the Kairouz–Oh–Viswanath sum written here in mpmath
    (the terms ℓ from the last active one down, until they fall e^{-80} below it), never below it and within
    1e-9 in the log; and the profile built for it forms few terms (the window used to begin at ℓ = 0: O(k))."""
    import mpmath as mp

    eps0 = 0.1
    eps = frac * k * eps0
    sizes = []
    original = _kov._RRProfile.__init__

    def counting(self, *args, **kwargs):
        original(self, *args, **kwargs)
        sizes.append(self.ell.size)

    monkeypatch.setattr(_kov._RRProfile, "__init__", counting)
    got = float(C.optimal_log_delta(eps, eps0, k))
    with mp.workdps(40):
        e0, e, q = mp.mpf(eps0), mp.mpf(eps), 1 / (1 + mp.exp(mp.mpf(eps0)))
        last = int(mp.ceil((k - e / e0) / 2)) - 1  # the largest ℓ with ε₀(k − 2ℓ) > ε
        terms, ell = [], last
        while ell >= 0:
            loss = e0 * (k - 2 * ell)
            t = (mp.loggamma(k + 1) - mp.loggamma(ell + 1) - mp.loggamma(k - ell + 1) + ell * mp.log(q)
                 + (k - ell) * mp.log(1 - q) + mp.log(-mp.expm1(e - loss)))
            terms.append(t)
            if t < terms[0] - 80:
                break
            ell -= 1
        top = max(terms)
        exact = top + mp.log(mp.fsum(mp.exp(t - top) for t in terms))
    assert got >= exact and got - exact <= 1e-9 * abs(exact), (got, float(exact))
    assert max(sizes) < 10**5, sizes
