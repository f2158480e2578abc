"""Tests of dpsemantics.disclosure (Kazan et al.).

Expected values come from closed forms evaluated with mpmath, from exact rational arithmetic (Bayes' rule
with fractions), from brute-force enumeration and numerical integration written here, and from the
paper's printed numbers; never from the functions under test.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats
from scipy.optimize import brentq, minimize_scalar

from dpsemantics import disclosure as D
from dpsemantics import mechanisms as mech
from dpsemantics.privacy_loss import PrivacyLoss, pair_losses
from dpsemantics.claims import disclosure_evidence as E



@pytest.fixture(autouse=True)
def _fifty_digits():
    """50-digit mpmath inside this module's tests only (a global setting would leak into other modules)."""
    with mp.workdps(50):
        yield


priors = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
inner_priors = st.floats(min_value=1e-6, max_value=1 - 1e-6)
epsilons = st.floats(min_value=0.0, max_value=50.0, allow_nan=False)


def mp_bound(p, eps, sign):
    p, eps = mp.mpf(p), mp.mpf(eps)
    return p / (p + (1 - p) * mp.exp(-sign * eps))


# ---------------------------------------------------------------------------------------------- bounds


@settings(max_examples=200, deadline=None)
@given(priors, epsilons)
def test_posterior_bounds_match_mpmath(p, eps):
    low, high = D.posterior_bounds(p, eps)
    for got, sign in ((low, -1), (high, 1)):
        want = float(mp_bound(p, eps, sign))
        assert math.isfinite(got)
        assert got == pytest.approx(want, rel=1e-12, abs=1e-300)
    assert 0.0 <= low <= p <= high <= 1.0


@pytest.mark.parametrize("p", [1e-12, 1e-13, 1 - 1e-12, 1 - 1e-13])
def test_posterior_bounds_near_the_ends(p):
    for eps in (0.01, 1.0, 20.0):
        low, high = D.posterior_bounds(p, eps)
        assert low == pytest.approx(float(mp_bound(p, eps, -1)), rel=1e-10)
        assert high == pytest.approx(float(mp_bound(p, eps, 1)), rel=1e-10)
        # the complementary side keeps its accuracy too
        assert 1 - high == pytest.approx(float(1 - mp_bound(p, eps, 1)), rel=1e-3)


def test_posterior_bounds_broadcast_and_exact_ends():
    low, high = D.posterior_bounds(np.array([0.0, 0.5, 1.0])[:, None], np.array([0.0, 1.0]))
    assert low.shape == high.shape == (3, 2)
    assert np.all(low[0] == 0) and np.all(high[0] == 0) and np.all(low[2] == 1) and np.all(high[2] == 1)
    assert np.allclose(low[:, 0], [0, 0.5, 1]) and np.allclose(high[:, 0], [0, 0.5, 1])


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan")])
def test_bad_prior_is_named(bad):
    with pytest.raises(ValueError, match="prior"):
        D.posterior_bounds(bad, 1.0)
    with pytest.raises(ValueError, match="prior"):
        D.prior_difference_bounds(bad, 1.0)


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_bad_eps_is_named(bad):
    for f in (D.ratio_bounds, D.difference_bound, D.worst_case_prior, D.epsilon_tilde):
        with pytest.raises(ValueError, match="eps"):
            f(bad)


def test_ratio_needs_positive_prior():
    with pytest.raises(ValueError, match=r"prior must be in \(0"):
        D.prior_ratio_bounds(0.0, 1.0)
    with pytest.raises(ValueError, match="prior"):
        D.ratio_interval_probability(0.0, 1.0, PrivacyLoss.randomized_response(1.0))


@settings(max_examples=100, deadline=None)
@given(st.floats(min_value=1e-12, max_value=1.0), st.floats(min_value=0.0, max_value=30.0))
def test_prior_ratio_bounds_are_posterior_over_prior_and_within_theorem_3_3(p, eps):
    low, high = D.prior_ratio_bounds(p, eps)
    assert low == pytest.approx(float(mp_bound(p, eps, -1) / p), rel=1e-11)
    assert high == pytest.approx(float(mp_bound(p, eps, 1) / p), rel=1e-11)
    rlow, rhigh = D.ratio_bounds(eps)
    assert rlow * (1 - 1e-12) <= low and high <= rhigh * (1 + 1e-12)


def test_prior_ratio_bounds_tend_to_theorem_3_3_as_prior_vanishes():
    for eps in (0.1, 1.8, 5.0):
        low, high = D.prior_ratio_bounds(1e-14, eps)
        assert low == pytest.approx(math.exp(-eps), rel=1e-9)
        assert high == pytest.approx(math.exp(eps), rel=1e-9)


@pytest.mark.parametrize("eps", [0.05, 0.5, 1.8, 2.0, 6.0])
def test_lemma_3_4_maximisers_by_numerical_optimisation(eps):
    # the upper and lower limits of eq. (6), written out with mpmath
    upper = lambda p: -float(mp_bound(p, eps, 1) - p)  # noqa: E731
    lower = lambda p: float(mp_bound(p, eps, -1) - p)  # noqa: E731
    r_up = minimize_scalar(upper, bounds=(0, 1), method="bounded", options={"xatol": 1e-12})
    r_down = minimize_scalar(lower, bounds=(0, 1), method="bounded", options={"xatol": 1e-12})
    p_up, p_down = D.worst_case_prior(eps)
    assert p_up == pytest.approx(r_up.x, abs=1e-6)
    assert p_down == pytest.approx(r_down.x, abs=1e-6)
    # Theorem 3.5(1): the extreme values are ±(e^{ε/2} − 1)/(e^{ε/2} + 1)
    closed = float((mp.exp(mp.mpf(eps) / 2) - 1) / (mp.exp(mp.mpf(eps) / 2) + 1))
    assert D.difference_bound(eps) == pytest.approx(closed, rel=1e-12)
    assert -r_up.fun == pytest.approx(closed, rel=1e-9)
    assert r_down.fun == pytest.approx(-closed, rel=1e-9)


@settings(max_examples=100, deadline=None)
@given(priors, st.one_of(st.just(0.0), st.floats(min_value=1e-8, max_value=40.0)))
def test_prior_difference_bounds(p, eps):
    low, high = D.prior_difference_bounds(p, eps)
    assert high == pytest.approx(float(mp_bound(p, eps, 1) - p), rel=1e-10, abs=1e-300)
    assert low == pytest.approx(float(mp_bound(p, eps, -1) - p), rel=1e-10, abs=1e-300)
    b = D.difference_bound(eps)
    assert -b * (1 + 1e-12) <= low <= 0 <= high <= b * (1 + 1e-12)


def test_symmetric_bounds_of_figures_6_and_7():
    eps = 1.8
    grid = np.linspace(1e-6, 1 - 1e-6, 20001)
    d = D.symmetric_difference_bound(grid, eps)
    i = int(np.argmax(d))
    assert d[i] == pytest.approx(math.tanh(eps / 4), rel=1e-6)
    assert min(grid[i], 1 - grid[i]) == pytest.approx(1 / (1 + math.exp(eps / 2)), abs=1e-4)
    low, high = D.symmetric_ratio_bounds(grid, eps)
    assert high.max() == pytest.approx(math.exp(eps), rel=1e-4) and low.min() == pytest.approx(math.exp(-eps), rel=1e-4)
    assert np.allclose(high, high[::-1]) and np.allclose(low, low[::-1])


def test_epsilon_tilde():
    for eps in (0.0, 0.3, 1.0, 2.0, 2.19):
        b = mp.tanh(mp.mpf(eps) / 4)
        want = float(mp.log((mp.mpf(1) / 2 + b) / (mp.mpf(1) / 2 - b)))  # prior-1/2 adversary
        assert D.epsilon_tilde(eps) == pytest.approx(want, rel=1e-12, abs=1e-15)
        assert D.epsilon_tilde(eps) >= eps - 1e-15
    assert D.EPS_TILDE_LIMIT == pytest.approx(2 * math.log(3))
    with pytest.raises(ValueError, match="eps must be < 2\\*log\\(3\\)"):
        D.epsilon_tilde(2.2)
    with pytest.raises(ValueError, match="eps"):
        D.epsilon_tilde([1.0, 3.0])


# ---------------------------------------------------------------------------------------------- Theorem 3.1


def fraction_rows():
    # ε = log 2 geometric-noise count clamped to {0,..,3}; the target's record moves the count from 1 to 2.
    a = Fraction(1, 2)

    def tail(m):
        return a**m / (1 + a) if m > 0 else 1 - a ** (1 - m) / (1 + a)

    def row(c):
        r = [(1 - a) / (1 + a) * a ** abs(y - c) for y in range(4)]
        r[0], r[-1] = tail(c), tail(3 - c)
        return r

    return row(2), row(1)


def test_theorem_3_1_against_exact_bayes():
    present, absent = fraction_rows()
    assert sum(present) == 1 and sum(absent) == 1
    for p in (Fraction(1, 10), Fraction(1, 2), Fraction(7, 8)):
        for a, b in zip(present, absent):
            exact = p * a / (p * a + (1 - p) * b)
            z = math.log(a / b)
            assert D.posterior_from_privacy_loss(float(p), z) == pytest.approx(float(exact), rel=1e-13)
            assert (D.posterior_from_privacy_loss(float(p), -z, target_present=False)
                    == pytest.approx(float(exact), rel=1e-13))
            assert D.bayes_posterior(float(p), float(a), float(b)) == pytest.approx(float(exact), rel=1e-13)


def test_theorem_3_1_extreme_values():
    assert D.posterior_from_privacy_loss(0.3, np.inf) == 1.0
    assert D.posterior_from_privacy_loss(0.3, -np.inf) == 0.0
    assert D.posterior_from_privacy_loss(0.0, np.inf) == 0.0
    assert D.posterior_from_privacy_loss(1.0, -np.inf) == 1.0
    with pytest.raises(ValueError, match="z"):
        D.posterior_from_privacy_loss(0.3, float("nan"))
    with pytest.raises(ValueError, match="positive probability"):
        D.bayes_posterior(0.3, 0.0, 0.0)


def brute_force_event(prior, rows, event):
    """P[event(posterior)] under M(x) and M(x_{-i}), enumerating outputs with exact fractions."""
    present, absent = rows
    p = Fraction(prior)
    probs = [Fraction(0), Fraction(0)]
    for a, b in zip(present, absent):
        post = p * a / (p * a + (1 - p) * b)
        if event(post, p):
            probs[0] += a
            probs[1] += b
    return [float(x) for x in probs]


def exact_pdp_delta(eps, rows):
    # the theorems at the real ε the float stands for (ln 2 for fl(ln 2)): losses within 1e-12 of ε do not count
    present, absent = rows
    out = []
    for first, second in ((present, absent), (absent, present)):
        out.append(sum(float(f) for f, s in zip(first, second) if abs(math.log(f / s)) > eps + 1e-12))
    return max(out)


def float_pdp_delta(eps, rows):
    # |log(P/Q)| > ε decided exactly (50 digits) at the float ε given: at fl(ln 2) < ln 2 the losses ±ln 2 count
    present, absent = rows
    out = []
    with mp.workdps(50):
        for first, second in ((present, absent), (absent, present)):
            out.append(sum(float(f) for f, s in zip(first, second)
                           if abs(mp.log(mp.mpf(f.numerator) / f.denominator * s.denominator / s.numerator)) > eps))
    return max(out)


@pytest.mark.parametrize("eps", [0.3, math.log(2), 1.0, 2 * math.log(2), 2.5])
def test_theorems_3_2_3_3_3_5_exhaustively(eps):
    rows = fraction_rows()
    loss = PrivacyLoss.finite([float(x) for x in rows[0]], [float(x) for x in rows[1]])
    pdp = exact_pdp_delta(eps, rows)
    assert loss.pdp_delta(eps) == pytest.approx(float_pdp_delta(eps, rows), abs=1e-14)  # 1.0 at fl(ln 2), not 0
    e = Fraction(math.exp(eps))
    einv = Fraction(math.exp(-eps))
    b = Fraction(math.tanh(eps / 4))
    tol = Fraction(1, 10**12)
    for prior in (Fraction(1, 100), Fraction(1, 5), Fraction(1, 2), Fraction(9, 10)):
        in_post = lambda x, p: p / (p + (1 - p) * e) - tol <= x <= p / (p + (1 - p) * einv) + tol  # noqa: E731
        in_ratio = lambda x, p: einv - tol <= x / p <= e + tol  # noqa: E731
        in_diff = lambda x, p: abs(x - p) <= b + tol  # noqa: E731
        post = brute_force_event(prior, rows, in_post)
        # Theorem 3.2: for 0 < p < 1 the posterior event is exactly the event |Z| <= ε
        assert min(post) == pytest.approx(1 - pdp, abs=1e-12)
        low, high = D.posterior_bounds(float(prior), eps)
        assert D.posterior_interval_probability(float(prior), low, high, loss) == pytest.approx(tuple(post), abs=1e-12)
        # Theorems 3.3 and 3.5(1): the ratio and difference events are at least as likely
        ratio = brute_force_event(prior, rows, in_ratio)
        diff = brute_force_event(prior, rows, in_diff)
        assert min(ratio) >= 1 - pdp - 1e-12 and min(diff) >= 1 - pdp - 1e-12
        assert D.ratio_interval_probability(float(prior), eps, loss) == pytest.approx(tuple(ratio), abs=1e-12)
        assert D.difference_interval_probability(float(prior), eps, loss) == pytest.approx(tuple(diff), abs=1e-12)


def test_theorem_3_5_part_2_and_counterexample_a6():
    eps, delta = 1.0, 0.01
    present, absent, et, q = D.counterexample_a6(eps, delta)
    keep = 1 / (1 + math.exp(-et))
    assert q == pytest.approx(delta * (1 + math.exp(-et)))
    assert present[1] == pytest.approx(delta) and present[2] == pytest.approx(delta * math.exp(-et))
    b = math.tanh(eps / 4)
    worst = 1.0
    for p in np.linspace(0.001, 0.999, 999):
        prob = [0.0, 0.0]
        for a, bb in zip(present, absent):
            post = p * a / (p * a + (1 - p) * bb)
            if abs(post - p) <= b + 1e-12:
                prob[0] += a
                prob[1] += bb
        worst = min(worst, *prob)
    assert worst >= 1 - delta - 1e-12  # the difference condition (9) holds for every prior ...
    assert keep > 0.5
    loss = PrivacyLoss.finite(present, absent)
    assert 1 - loss.pdp_delta(eps) == pytest.approx(1 - q)  # ... but (ε, δ)-PDP fails
    assert 1 - q < 1 - delta
    # Theorem 3.5(2): the mechanism is (ε̃, δ)-PDP and (ε, 2δ)-PDP
    assert loss.pdp_delta(et) <= delta + 1e-15
    assert loss.pdp_delta(eps) <= 2 * delta


# ---------------------------------------------------------------------------------------------- continuous mechanisms


def bayes_gaussian(p, y, sigma):
    a = stats.norm.pdf(y, loc=0.0, scale=sigma)
    b = stats.norm.pdf(y, loc=1.0, scale=sigma)
    return p * a / (p * a + (1 - p) * b)


@pytest.mark.parametrize("sigma,p,t", [(1.0, 0.5, 0.7), (0.5, 0.2, 0.5), (2.0, 0.9, 0.93)])
def test_gaussian_posterior_law_by_integration(sigma, p, t):
    """P[X >= t] under M(x) = N(0, σ²) (x_{-i} shifts the mean to 1), integrating the Bayes posterior."""
    lo, hi = 0.5 - 12 * sigma, 0.5 + 12 * sigma  # wide, yet no density underflows to 0
    y_star = brentq(lambda y: bayes_gaussian(p, y, sigma) - t, lo, hi)  # posterior decreases in y
    direct = stats.norm.cdf(y_star, loc=0.0, scale=sigma)
    loss = PrivacyLoss.gaussian(sigma)
    lo_z = float(D.logit(t) - D.logit(p))
    assert 1 - loss.cdf(lo_z) == pytest.approx(direct, rel=1e-9)
    # same by quadrature over the output, independently of the threshold
    quad = integrate.quad(lambda y: stats.norm.pdf(y, 0.0, sigma) * (bayes_gaussian(p, y, sigma) >= t), lo, hi,
                          points=[y_star], limit=200)[0]
    assert quad == pytest.approx(direct, abs=1e-7)


def test_laplace_attains_the_pure_bound_with_probability_one_half():
    eps = 0.8
    loss = PrivacyLoss.laplace(eps)
    low, high = D.posterior_bounds(0.3, eps)
    # Corollary 3.6: the bound holds surely ...
    assert D.posterior_interval_probability(0.3, low, high, loss) == pytest.approx((1.0, 1.0))
    # ... and the upper end is reached exactly when y <= 0 under Lap(0, 1/ε): probability 1/2
    assert D.posterior_quantile(0.3, 0.6, loss) == pytest.approx(high, rel=1e-12)
    assert D.posterior_quantile(0.3, 0.49, loss) < high
    q = np.array([0.05, 0.2, 0.3, 0.45])
    assert np.allclose(loss.cdf(loss.ppf(q)), np.maximum(q, math.exp(-eps) / 2))


def test_gaussian_pdp_epsilon_closed_form():
    sigma, dp = 1.3, 0.01
    mu = 1 / (2 * sigma**2)
    s = mp.sqrt(2 * mu)
    f = lambda t: (1 - mp.ncdf((t - mu) / s)) + mp.ncdf((-t - mu) / s) - dp  # noqa: E731
    want = float(mp.findroot(f, 2.0))
    assert PrivacyLoss.gaussian(sigma).pdp_epsilon(dp) == pytest.approx(want, rel=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.floats(0.1, 3.0), st.sampled_from([1e-8, 1e-6, 1e-4]), st.sampled_from([0.001, 0.01, 0.05, 0.2]))
def test_theorem_3_9_on_calibrated_gaussian(eps, delta, dp):
    from dpsemantics import conversions

    sigma = mech.gaussian_sigma(eps, delta)
    loss = PrivacyLoss.gaussian(sigma)
    eps_prime = conversions.pdp_epsilon(eps, delta, dp)
    assert loss.pdp_delta(eps_prime) <= dp * (1 + 1e-9)
    assert loss.pdp_epsilon(dp) <= eps_prime * (1 + 1e-9)


def test_composed_randomized_response_is_binomial():
    eps0, k = 0.05, 40
    loss = PrivacyLoss.randomized_response(eps0, k)
    keep = 1 / (1 + math.exp(-eps0))
    t = 0.5
    want = sum(math.comb(k, j) * keep**j * (1 - keep) ** (k - j)
               for j in range(k + 1) if abs(eps0 * (2 * j - k)) > t + 1e-12)
    assert loss.prob_abs_greater(t) == pytest.approx(want, rel=1e-12)


# ---------------------------------------------------------------------------------------------- applications


def test_best_zcdp_delta_beats_a_grid():
    from dpsemantics import conversions

    for rho in (0.07, 0.3, 2.02):
        best, d = D.best_zcdp_pdp_epsilon(rho, 0.01)
        grid = np.logspace(-40, math.log10(0.01) - 1e-6, 4000)
        vals = [float(conversions.pdp_epsilon(conversions.zcdp_epsilon(rho, x), x, 0.01)) for x in grid]
        assert best <= min(vals) + 1e-9
        assert best >= min(vals) - 1e-3
        assert 0 < d < 0.01


def test_inverse_of_theorem_3_9():
    from dpsemantics import conversions

    for eps, delta, dp in ((0.5, 1e-6, 0.01), (3.0, 1e-3, 0.05), (0.01, 1e-9, 0.2)):
        e1 = conversions.pdp_epsilon(eps, delta, dp)
        assert D.dp_epsilon_for_pdp(e1, delta, dp) == pytest.approx(eps, rel=1e-10)
    with pytest.raises(ValueError, match="delta_prime"):
        D.dp_epsilon_for_pdp(1.0, 0.1, 0.05)
    with pytest.raises(ValueError, match="eps_prime"):
        D.dp_epsilon_for_pdp(0.001, 0.001, 0.002)


def test_example_4_2_printed_numbers():
    # footnote 6: (e^{ε'/2} − 1)/(e^{ε'/2} + 1) = 0.2 gives ε' = 0.81, and ε_total = 0.81 after Theorem 3.9
    assert 4 * math.atanh(0.2) == pytest.approx(0.81, abs=0.005)
    assert D.epsilon_for_difference(0.2, 1e-6, 0.01) == pytest.approx(0.81, abs=0.005)
    # basic composition with δ = 0: 0.068 per release over 12 months
    assert D.epsilon_for_difference(0.2, 0.0, 0.01) / 12 == pytest.approx(0.068, abs=0.0005)
    assert D.per_release_epsilon(0.81, 12, 1e-6, 0.0, method="basic") == pytest.approx(0.81 / 12)


def test_per_release_epsilon_inverts_composition():
    from dpsemantics import composition

    e0 = D.per_release_epsilon(0.81, 12, 1e-6, 1e-8, method="optimal")
    assert float(composition.optimal_epsilon(e0, 12, 1e-6, 1e-8)) == pytest.approx(0.81, rel=1e-8)
    e_adv = D.per_release_epsilon(0.81, 12, 1e-6, 1e-8, method="advanced")
    # advanced_epsilon takes the slack δ − kδ₀ on top of the releases' own δ₀
    assert float(composition.advanced_epsilon(e_adv, 12, 1e-6 - 12e-8, 1e-8)) == pytest.approx(0.81, rel=1e-8)
    e_lat = D.per_release_epsilon(0.81, 12, 1e-6, 1e-8, method="lattice")
    assert D.lattice_optimal_epsilon(e_lat, 12, 1e-6, 1e-8) <= 0.81 and e_lat <= e0 + 1e-12
    assert e_adv <= e0
    with pytest.raises(ValueError, match="method"):
        D.per_release_epsilon(0.81, 12, 1e-6, 1e-8, method="magic")


def test_profile():
    priors, posts = [0.05, 0.5, 0.9], [0.15, 0.7, 0.95]
    eps = D.epsilon_for_profile(priors, posts, 1e-6, 0.05)
    # every point holds at eps, and the tightest one is attained
    highs = [D.approximate_bounds(eps, 1e-6, 0.05, p).posterior_high for p in priors]
    assert all(h <= m + 1e-9 for h, m in zip(highs, posts))
    assert any(abs(h - m) < 1e-9 for h, m in zip(highs, posts))
    with pytest.raises(ValueError, match="max_posterior"):
        D.epsilon_for_posterior(0.5, 0.4, 1e-6, 0.05)


def test_first_exceeding():
    assert D.first_exceeding([0.1, 0.5, 0.81, 0.9], 0.8) == 3
    assert D.first_exceeding([0.1], 0.8) is None


def test_explain_example_1_1():
    text = D.explain(0.1, 1e-7, 0.01, 0.5)
    assert "47.5%" in text and "52.5%" in text and "99.0%" in text and "2.5 percentage points" in text
    assert "Corollary 3.10" in text
    pure = D.explain(0.1, 0.0, 0.01, 0.5)
    assert "with certainty" in pure and "Corollary 3.6" in pure
    assert "Technical" not in D.explain(1.0, 1e-6, 0.05, 0.2, audience="general")
    with pytest.raises(ValueError, match="audience"):
        D.explain(1.0, 1e-6, 0.05, 0.2, audience="lawyers")
    with pytest.raises(ValueError, match="delta_prime"):
        D.explain(1.0, 1e-6, 1e-7, 0.2)
    with pytest.raises(ValueError, match="prior"):
        D.explain(1.0, 1e-6, 0.05, 1.2)


def test_rho_must_be_positive():
    with pytest.raises(ValueError, match="rho"):
        D.best_zcdp_pdp_epsilon(0.0, 0.01)
    with pytest.raises(ValueError, match="rho"):
        D.best_zcdp_pdp_epsilon(-1.0, 0.01)


@settings(max_examples=100, deadline=None)
@given(st.floats(0.0, 1.0), st.floats(0.0, 50.0), st.floats(1e-300, 0.4), st.floats(0.5, 1.0))
def test_no_nan_anywhere(p, eps, delta, dp):
    b = D.approximate_bounds(eps, delta, dp, p)
    values = [b.eps_prime, b.posterior_low, b.posterior_high, b.ratio_low, b.ratio_high, b.difference,
              b.worst_prior_up, b.worst_prior_down]
    assert all(math.isfinite(v) for v in values)
    assert b.posterior_low <= b.posterior_high and b.eps_prime >= eps


@pytest.mark.registry
def test_kazan_claims_have_their_expected_status():
    from dpsemantics import claims

    results = claims.evaluate_all("kazan")
    assert len(results) >= 40
    wrong = [(r.claim.id, r.computed, r.status) for r in results if not r.as_expected]
    assert not wrong


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**20).map(lambda j: j / 2**20), st.floats(0.0, 50.0))  # 1 − p exact in floating point
def test_bounds_are_symmetric_under_relabelling(p, eps):
    """Swapping 'present' and 'absent' maps the prior p to 1 − p and the bounds to 1 − (reversed bounds)."""
    low, high = D.posterior_bounds(p, eps)
    low_c, high_c = D.posterior_bounds(1 - p, eps)
    assert low == pytest.approx(1 - high_c, abs=1e-12)
    assert high == pytest.approx(1 - low_c, abs=1e-12)


# ------------------------------------------------------------------ worst-case search over finite pairs
# (claims/disclosure_evidence.py)


def test_leave_thresholds_match_bayes_rule():
    """The loss interval of leave_thresholds agrees with the bounds evaluated by Bayes' rule on each output."""
    rng = np.random.default_rng(3)
    z = np.linspace(-3, 3, 241)
    for metric in D.METRICS:
        for prior in rng.uniform(0.01, 0.99, 20):
            eps = float(rng.uniform(0.1, 2.0))
            lo, hi = D.leave_thresholds(prior, eps, metric)
            x = 1 / (1 + (1 - prior) / prior * np.exp(-z))
            if metric == "posterior":
                inside = (x >= prior / (prior + (1 - prior) * math.exp(eps)) - 1e-12) & \
                         (x <= prior / (prior + (1 - prior) * math.exp(-eps)) + 1e-12)
            elif metric == "ratio":
                inside = (x / prior >= math.exp(-eps) - 1e-12) & (x / prior <= math.exp(eps) + 1e-12)
            else:
                inside = np.abs(x - prior) <= math.tanh(eps / 4) + 1e-12
            ours = (z >= lo - 1e-9) & (z <= hi + 1e-9)
            assert np.array_equal(ours, inside), (metric, prior, eps)


def test_theorem39_tight_pair_is_dp_and_attains_delta_prime():
    for eps, delta, dp in [(1.0, 1e-6, 0.01), (0.3, 1e-3, 0.05)]:
        p, q = E.theorem39_tight_pair(eps, delta, dp, 1e-10)
        assert p.sum() == pytest.approx(1) and q.sum() == pytest.approx(1)
        assert D.pair_hockey(p, q, eps) <= delta * (1 + 1e-9)
        ep = math.log(dp * math.exp(eps) + delta) - math.log(dp - delta)
        assert D.pair_pdp_delta(p, q, ep) == pytest.approx(dp, rel=1e-5)
    with pytest.raises(ValueError, match="delta_prime"):
        E.theorem39_tight_pair(1.0, 0.1, 0.05)


def test_worst_pair_linear_program_finds_known_optima():
    eps, delta = 1.0, 1e-3
    z = E.loss_grid([eps])
    # max hockey stick over (ε, δ)-PDP pairs is δ (Theorem 2.5 attained by an output only one side produces)
    val, (p, q) = E.worst_pair(z, ("hockey", eps), [("pdp", eps, delta)])
    assert val == pytest.approx(delta, rel=1e-6)
    assert D.pair_pdp_delta(p, q, eps) <= delta * (1 + 1e-6)
    # max PDP δ under the difference condition is (1 + e^{−ε})δ (Theorem 3.5(2) with its sharp constant)
    mask = np.abs(E.PairProgram(z).losses) > eps
    val, _ = E.worst_pair(z, ("P", mask), [("difference", (E.critical_priors(eps, "difference", 80), eps), delta)])
    assert val == pytest.approx((1 + math.exp(-eps)) * delta, rel=1e-6)
    with pytest.raises(ValueError, match="constraint"):
        E.worst_pair(z, ("P", mask), [("nonsense", eps, delta)])


def test_random_pairs_are_distributions_and_seeded():
    a = E.random_pairs(20, 1)
    b = E.random_pairs(20, 1)
    for (p, q), (p2, q2) in zip(a, b):
        assert np.array_equal(p, p2) and np.array_equal(q, q2)
        assert p.sum() == pytest.approx(1) and q.sum() == pytest.approx(1)


# ------------------------------------------------------------------ a pair's δ through the one hockey stick


@pytest.mark.parametrize("call, name", [
    (lambda: D.pair_hockey([0.6, 0.4], [0.4, 0.6], math.nan), "eps"),
    (lambda: D.pair_hockey([2.0, -1.0], [0.5, 0.5], 1.0), "row_present"),
    (lambda: D.pair_hockey([0.5, 0.5], [0.3, 0.3], 1.0), "row_absent"),
    (lambda: D.pair_hockey([0.5, 0.5], [0.2, 0.3, 0.5], 1.0), "row_present"),
    (lambda: D.pair_pdp_delta([0.6, 0.4], [0.4, 0.6], -1.0), "eps"),
    (lambda: D.pair_pdp_delta([2.0, -1.0], [0.5, 0.5], 1.0), "row_present"),
    (lambda: pair_losses([0.5, 0.5], [1.5, -0.5]), "row_absent"),
])
def test_pair_functions_refuse_bad_input_by_the_callers_name(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_pair_hockey_at_huge_eps_is_the_mass_only_one_side_can_produce():
    """ε = 800: e^ε is beyond the float range, yet the divergence is exact and no overflow warning appears.
    Q puts 1/2 on an output P cannot produce, so δ = 1/2 at every ε; a full-support pair has δ = 0."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert D.pair_hockey([1.0, 0.0], [0.5, 0.5], 800.0) == 0.5
        assert D.pair_hockey([0.6, 0.4], [0.4, 0.6], 800.0) == 0.0
        # |Z| = ∞ on both outputs: the tail 1/2, raised by its sums' rounding
        assert 0.5 <= D.pair_pdp_delta([1.0, 0.0], [0.5, 0.5], 800.0) == pytest.approx(0.5, rel=1e-14)


def test_pair_hockey_matches_the_definition_by_enumerating_events():
    """Kazan et al., Definition 2.1 by brute force: the largest P(E) − e^ε Q(E) over all 2^m events, both ways."""
    import itertools

    rng = np.random.default_rng(5)
    for _ in range(30):
        m = int(rng.integers(2, 6))
        p, q = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(m))
        eps = float(rng.uniform(0, 2))
        best = 0.0
        for r in range(m + 1):
            for ev in itertools.combinations(range(m), r):
                ev = list(ev)
                best = max(best, p[ev].sum() - math.exp(eps) * q[ev].sum(), q[ev].sum() - math.exp(eps) * p[ev].sum())
        assert D.pair_hockey(p, q, eps) == pytest.approx(best, abs=1e-14)
    assert isinstance(D.pair_hockey([0.6, 0.4], [0.4, 0.6], 0.1), float)
    assert D.pair_hockey([0.6, 0.4], [0.4, 0.6], [0.0, 0.1]).shape == (2,)
