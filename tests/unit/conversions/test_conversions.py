"""Tests for dpsemantics.conversions (Kazan et al. Theorems 2.5, 2.7, 3.9; Bun–Steinke; CKS 2020).

Expected values: closed forms typed from the theorems, the independent Zhao et al. form of Theorem 3.9,
exhaustive privacy-loss computations on finite mechanisms (the theorems must hold for them), and the exact
Gaussian profile (a ρ-zCDP mechanism, so no valid conversion may undercut it).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dpsemantics import conversions as V
from dpsemantics.indistinguishability import smallest_delta
from dpsemantics.mechanisms import gaussian_delta, randomized_response

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------- PDP (Thm 2.5, 3.9)


def test_pdp_epsilon_closed_form():
    for eps, delta, dp in [(1.0, 1e-6, 1e-3), (0.5, 0.01, 0.05), (3.0, 1e-8, 1.0), (0.0, 0.1, 0.2)]:
        expected = math.log(dp * math.exp(eps) + delta) - math.log(dp - delta)
        assert V.pdp_epsilon(eps, delta, dp) == pytest.approx(expected, rel=1e-13)


def test_pdp_epsilon_pure_dp_is_unchanged():
    # δ = 0: (ε, 0)-DP ⇔ (ε, 0)-PDP (Theorem 2.3), so ε′ = ε for every δ′
    np.testing.assert_array_equal(V.pdp_epsilon(0.7, 0.0, [1e-9, 0.5, 1.0]), [0.7, 0.7, 0.7])


def test_pdp_epsilon_broadcasts():
    out = V.pdp_epsilon(np.array([[0.1], [1.0]]), 1e-6, np.array([1e-4, 1e-3, 1e-2]))
    assert out.shape == (2, 3)
    assert out[1, 2] == V.pdp_epsilon(1.0, 1e-6, 1e-2)


def test_pdp_delta_is_inverse_zhao_form():
    eps, delta, ep = 0.5, 1e-5, 0.9
    expected = delta * (1 + math.exp(-ep)) / (1 - math.exp(eps - ep))
    assert V.pdp_delta(eps, delta, ep) == pytest.approx(expected, rel=1e-13)
    assert V.pdp_epsilon(eps, delta, V.pdp_delta(eps, delta, ep)) == pytest.approx(ep, rel=1e-12)


def test_pdp_to_dp_keeps_parameters():
    assert V.pdp_to_dp(0.3, 1e-5) == (0.3, 1e-5)


def _pdp_delta_of(p, q, eps):
    """1 − min over both directions of Pr[−ε ≤ Z ≤ ε], Z the privacy loss (Kazan Definition 2.4)."""
    worst = 0.0
    for a, b in [(p, q), (q, p)]:
        with np.errstate(divide="ignore"):
            z = np.where(b > 0, np.log(np.where(a > 0, a, 1.0)) - np.log(np.where(b > 0, b, 1.0)), np.inf)
        inside = (a > 0) & (np.abs(z) <= eps + 1e-12)
        worst = max(worst, 1.0 - a[inside].sum())
    return worst


rows = st.lists(st.floats(0.0, 1.0), min_size=4, max_size=4).filter(lambda r: sum(r) > 0.1)


@FAST
@given(p=rows, q=rows, eps=st.floats(0.0, 2.0), frac=st.floats(0.01, 1.0))
def test_theorem_3_9_holds_on_random_mechanisms(p, q, eps, frac):
    """(ε, δ)-DP with δ the exact hockey-stick value ⇒ (ε′, δ′)-PDP for δ′ ∈ (δ, 1]."""
    p, q = np.array(p) / sum(p), np.array(q) / sum(q)
    delta = float(smallest_delta(p, q, eps))
    assume(delta < 0.99)
    dp = delta + frac * (1 - delta)
    assume(dp > delta)
    ep = V.pdp_epsilon(eps, delta, dp)
    assert _pdp_delta_of(p, q, ep) <= dp + 1e-9


@FAST
@given(p=rows, q=rows, eps=st.floats(0.0, 2.0))
def test_theorem_2_5_holds_on_random_mechanisms(p, q, eps):
    """(ε, δ)-PDP ⇒ (ε, δ)-DP: the PDP δ bounds the hockey-stick δ."""
    p, q = np.array(p) / sum(p), np.array(q) / sum(q)
    e, d = V.pdp_to_dp(eps, _pdp_delta_of(p, q, eps))
    assert float(smallest_delta(p, q, e)) <= d + 1e-12


@FAST
@given(eps=st.floats(0, 10), d1=st.floats(0, 0.49), d2=st.floats(0, 0.49), dp=st.floats(0.5, 1.0))
def test_pdp_epsilon_monotone(eps, d1, d2, dp):
    lo, hi = sorted([d1, d2])
    assert V.pdp_epsilon(eps, lo, dp) <= V.pdp_epsilon(eps, hi, dp) * (1 + 1e-14)  # larger δ costs more
    assert V.pdp_epsilon(eps, lo, dp) >= eps  # never better than ε
    assert V.pdp_epsilon(eps, lo, 1.0) <= V.pdp_epsilon(eps, lo, dp) * (1 + 1e-14)  # larger δ′ helps


# ---------------------------------------------------------------------------------- zCDP


def test_zcdp_simple_closed_form_and_inverse():
    rho, delta = 0.01, 1e-6
    expected = rho + 2 * math.sqrt(rho * math.log(1 / delta))
    assert V.zcdp_epsilon(rho, delta) == pytest.approx(expected, rel=1e-14)
    assert V.zcdp_delta(rho, expected) == pytest.approx(delta, rel=1e-12)
    assert V.zcdp_delta(rho, rho / 2) == 1.0  # below ρ the simple bound gives nothing


def test_pure_to_zcdp_bounds_renyi_divergence_of_randomized_response():
    # Bun & Steinke Prop 1.4: ε-DP ⇒ D_α(P‖Q) ≤ α ε²/2 for every α > 1; check on ε-RR exhaustively
    for eps in [0.1, 0.5, 1.0, 3.0]:
        rho = V.pure_to_zcdp(eps)
        assert rho == pytest.approx(eps**2 / 2)
        p, q = randomized_response(eps).matrix
        for alpha in [1.01, 1.5, 2.0, 5.0, 20.0, 200.0]:
            d_alpha = math.log(np.sum(p**alpha * q ** (1 - alpha))) / (alpha - 1)
            assert d_alpha <= alpha * rho * (1 + 1e-12)


def test_tight_conversion_reduces_to_formula_at_optimal_alpha():
    # evaluate the CKS objective on a dense α grid; the package's infimum must be below every grid value
    # and within 1e-6 of the grid minimum
    rho, delta = 1 / 32, 1e-6
    alpha = 1 + np.geomspace(1e-3, 1e3, 200_001)
    obj = alpha * rho + np.log1p(-1 / alpha) - (np.log(delta) + np.log(alpha)) / (alpha - 1)
    tight = V.zcdp_epsilon(rho, delta, tight=True)
    assert tight <= obj.min() + 1e-12
    assert tight == pytest.approx(obj.min(), abs=1e-6)


rho_st = st.floats(1e-6, 10.0)


@FAST
@given(rho=rho_st, delta=st.floats(1e-300, 0.5))
def test_tight_below_simple_and_round_trip(rho, delta):
    simple = V.zcdp_epsilon(rho, delta)
    tight = V.zcdp_epsilon(rho, delta, tight=True)
    assert 0.0 <= tight <= simple
    assert V.zcdp_delta(rho, simple) == pytest.approx(delta, rel=1e-9)
    if tight > 0:
        assert V.zcdp_delta(rho, tight, tight=True) == pytest.approx(delta, rel=1e-6)
    else:
        assert V.zcdp_delta(rho, 0.0, tight=True) <= delta * (1 + 1e-9)


@FAST
@given(rho=rho_st, x=st.floats(0.0, 30.0))
def test_gaussian_below_tight_below_simple(rho, x):
    """The Gaussian mechanism with ρ = 1/(2σ²) is ρ-zCDP, so both conversions must bound its δ."""
    eps = rho + x * math.sqrt(rho)
    g = V.zcdp_gaussian_delta(rho, eps)
    t = V.zcdp_delta(rho, eps, tight=True)
    s = V.zcdp_delta(rho, eps)
    assert g <= t * (1 + 1e-9) + 1e-300
    assert t <= s * (1 + 1e-9) + 1e-300
    # g is enlarged to the safe side, by 2e-12 + 2u·κ (conversions.zcdp_gaussian_delta)
    assert g == pytest.approx(gaussian_delta(eps, 1 / math.sqrt(2 * rho)), rel=3e-12, abs=1e-300)


@FAST
@given(rho=rho_st, d1=st.floats(1e-300, 0.9), d2=st.floats(1e-300, 0.9))
def test_zcdp_epsilon_monotone(rho, d1, d2):
    lo, hi = sorted([d1, d2])
    for tight in (False, True):
        assert V.zcdp_epsilon(rho, hi, tight) <= V.zcdp_epsilon(rho, lo, tight) * (1 + 1e-12) + 1e-300
        assert V.zcdp_epsilon(rho, lo, tight) <= V.zcdp_epsilon(rho * 1.5, lo, tight) * (1 + 1e-12) + 1e-300


def test_zcdp_vectorised():
    out = V.zcdp_epsilon([0.01, 0.1], [[1e-3], [1e-9]], tight=True)
    assert out.shape == (2, 2)
    assert out[1, 0] == V.zcdp_epsilon(0.01, 1e-9, tight=True)


def test_extreme_values_finite():
    assert np.isfinite(V.zcdp_epsilon(1e-12, 1e-300, tight=True))
    assert np.isfinite(V.zcdp_epsilon(1e3, 1e-300, tight=True))
    assert 0 <= V.zcdp_delta(1e-6, 50.0, tight=True) <= 1
    assert np.isfinite(V.pdp_epsilon(50.0, 1e-300, 1e-299))


# ---------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda: V.pdp_epsilon(1.0, 1e-3, 1e-3), "delta_prime must exceed delta"),
        (lambda: V.pdp_epsilon(1.0, 1e-3, 1e-4), "delta_prime"),
        (lambda: V.pdp_epsilon(-1.0, 1e-3, 0.1), "eps"),
        (lambda: V.pdp_epsilon(float("nan"), 1e-3, 0.1), "eps"),
        (lambda: V.pdp_epsilon(1.0, 1.0, 1.0), "delta"),
        (lambda: V.pdp_epsilon(1.0, 0.0, 0.0), "delta_prime"),
        (lambda: V.pdp_epsilon(1.0, 0.0, 1.5), "delta_prime"),
        (lambda: V.pdp_delta(1.0, 1e-6, 1.0), "eps_prime must exceed eps"),
        (lambda: V.pure_to_zcdp(-0.1), "eps"),
        (lambda: V.zcdp_epsilon(0.0, 1e-6), "rho"),
        (lambda: V.zcdp_epsilon(-1.0, 1e-6, tight=True), "rho"),
        (lambda: V.zcdp_epsilon(0.1, 0.0), "delta"),
        (lambda: V.zcdp_epsilon(0.1, 1.5), "delta"),
        (lambda: V.zcdp_epsilon(0.1, float("nan"), tight=True), "delta"),
        (lambda: V.zcdp_delta(0.1, -1.0), "eps"),
        (lambda: V.zcdp_delta(float("inf"), 1.0), "rho"),
        (lambda: V.zcdp_gaussian_delta(0.0, 1.0), "rho"),
    ],
)
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# ------------------------------------------------------------------ Theorem 3.9 along a whole profile


def test_profile_pdp_epsilon_zcdp_matches_example_4_1_search():
    from dpsemantics.disclosure import best_zcdp_pdp_epsilon

    got, eps, delta = V.profile_pdp_epsilon(lambda e: V.zcdp_delta(0.3, e), 0.01)
    assert got == pytest.approx(best_zcdp_pdp_epsilon(0.3, 0.01)[0], rel=1e-9)
    assert got == pytest.approx(float(V.pdp_epsilon(eps, delta, 0.01)), rel=1e-12)  # a point actually used


def test_profile_pdp_epsilon_is_the_grid_minimum():
    from dpsemantics.mechanisms import gaussian_delta, laplace_delta

    got, _, _ = V.profile_pdp_epsilon(lambda e: laplace_delta(e, 0.8), 0.05)
    assert got == pytest.approx(0.8, rel=1e-12) and got >= 0.8  # pure: the best point is (ε₀, 0)
    prof = lambda e: gaussian_delta(e, 3.0)  # noqa: E731
    got, _, _ = V.profile_pdp_epsilon(prof, 0.01)
    grid = np.linspace(0.0, 3.0, 30001)
    d = np.asarray(prof(grid))
    ok = d < 0.01
    brute = float(np.min(V.pdp_epsilon(grid[ok], d[ok], 0.01)))
    assert brute - 1e-6 <= got <= brute + 1e-9


def test_profile_pdp_epsilon_refuses_an_unreachable_delta_prime():
    with pytest.raises(ValueError, match="delta_prime"):
        V.profile_pdp_epsilon(lambda e: np.full(np.shape(e), 0.02), 0.01)


def test_tight_zcdp_conversions_agree_between_the_scalar_and_the_array_route():
    """Arrays (more than 16 inputs) take the vectorised Newton route, scalars Brent's method: both give the
    same tight ε and δ to a relative 1e-12, the array ε is never below the scalar one by more than that, and
    each array ε meets its δ through the (scalar) inverse conversion — the safe direction, checked."""
    rho = np.geomspace(1e-8, 50.0, 40)
    delta = np.geomspace(1e-15, 0.5, 40)
    zcdp_epsilon, zcdp_delta = V.zcdp_epsilon, V.zcdp_delta
    eps_arr = zcdp_epsilon(rho, delta, tight=True)
    eps_one = np.array([zcdp_epsilon(r, d, tight=True) for r, d in zip(rho, delta)])
    assert np.allclose(eps_arr, eps_one, rtol=1e-12, atol=1e-300)
    assert all(zcdp_delta(r, e, tight=True) <= d for r, e, d in zip(rho, eps_arr, delta))
    grid = np.linspace(0.0, 30.0, 40)
    d_arr = zcdp_delta(rho, grid, tight=True)
    d_one = np.array([zcdp_delta(r, e, tight=True) for r, e in zip(rho, grid)])
    assert np.allclose(d_arr, d_one, rtol=1e-12, atol=1e-300)
