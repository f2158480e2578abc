"""Tests for dpsemantics.semantic (Kasiviswanathan & Smith).

Expected values come from hand-derived closed forms (randomized response, the geometric count), from
brute force (belief grids over the simplex, loops over events) and from mpmath — never from the code
under test.
"""

import itertools
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpsemantics import semantic as S
from dpsemantics import mechanisms
from dpsemantics.claims import semantic_evidence
from dpsemantics.indistinguishability import smallest_delta, total_variation
from dpsemantics.mechanisms import (
    FiniteMechanism,
    gaussian_delta,
    geometric_count,
    local_randomized_response,
    randomized_response,
)

BINARY2 = list(itertools.product((0, 1), repeat=2))


def bayes_loop(matrix, databases, belief, col, game, default=0):
    """Equations (1)-(2) written out with loops, independently of the module."""
    index = {d: k for k, d in enumerate(databases)}
    weights = []
    for k, x in enumerate(databases):
        if game == 0:
            src = x
        else:
            src = x[: game - 1] + (default,) + x[game:]
        weights.append(matrix[index[src]][col] * belief[k])
    total = sum(weights)
    return [w / total for w in weights]


def grid_beliefs(m, steps):
    """Every belief on m databases whose entries are multiples of 1/steps."""
    for combo in itertools.product(range(steps + 1), repeat=m - 1):
        if sum(combo) <= steps:
            yield np.array(list(combo) + [steps - sum(combo)]) / steps


def brute_semantic_epsilon(mech, steps):
    """max over a belief grid, every transcript and index of SD(b̄0, b̄i), by direct Bayes."""
    n = len(mech.databases[0])
    best = 0.0
    for b in grid_beliefs(len(mech.databases), steps):
        for col in range(len(mech.outputs)):
            p0 = np.array(bayes_loop(mech.matrix, mech.databases, b, col, 0)) if mech.matrix[:, col] @ b > 0 else None
            if p0 is None:
                continue
            for i in range(1, n + 1):
                pi = bayes_loop(mech.matrix, mech.databases, b, col, i)
                best = max(best, 0.5 * float(np.abs(p0 - np.array(pi)).sum()))
    return best


# --- games and posteriors ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_posteriors_match_bayes_by_hand(seed):
    rng = np.random.default_rng(seed)
    matrix = rng.dirichlet(np.ones(3), size=4)
    mech = FiniteMechanism(matrix, BINARY2, ["a", "b", "c"])
    belief = rng.dirichlet(np.ones(4))
    g = S.games(mech, belief, "b")
    for game in range(3):
        assert np.allclose(g.posteriors[game], bayes_loop(matrix, BINARY2, belief, 1, game))
    for i in (1, 2):
        expected = 0.5 * np.abs(np.array(bayes_loop(matrix, BINARY2, belief, 1, 0))
                                - bayes_loop(matrix, BINARY2, belief, 1, i)).sum()
        assert S.statistical_difference(mech, belief, "b", i) == pytest.approx(expected, abs=1e-12)
    assert np.allclose(S.posterior(mech, belief, "b", 2), bayes_loop(matrix, BINARY2, belief, 1, 2))


def test_belief_as_dict_and_game_undefined_counts_as_breach():
    mech = S.random_index_mechanism(2)
    # transcript (1, 1) cannot happen in Game 1 (record 1 replaced by 0): SD = 1 by convention
    g = S.games(mech, {(1, 0): 0.5, (1, 1): 0.5}, (1, 1))
    assert not g.defined[1] and g.defined[2]
    assert g.sd[0] == 1.0 and g.sd[1] == 0.0
    with pytest.raises(ValueError, match="undefined"):
        S.posterior(mech, {(1, 0): 0.5, (1, 1): 0.5}, (1, 1), 1)


# --- the semantic-privacy ε: search against brute force ------------------------------------------------


@pytest.mark.parametrize("build", [lambda: randomized_response_tuple(0.7), lambda: local_randomized_response(2, 0.6),
                                   lambda: geometric_count(2, 0.8)])
def test_semantic_epsilon_agrees_with_brute_force_grid(build):
    mech = build()
    exact = S.semantic_epsilon(mech).epsilon
    steps = 60 if len(mech.databases) == 2 else 12
    brute = brute_semantic_epsilon(mech, steps)
    assert brute <= exact + 1e-12  # no grid belief beats the supremum
    assert exact - brute < 0.02  # and the grid comes close to it
    assert S.semantic_epsilon(mech, method="exhaustive").epsilon == pytest.approx(exact, abs=1e-12)
    assert semantic_evidence.searched_semantic_epsilon(mech, restarts=2).epsilon == pytest.approx(exact, abs=1e-5)


def randomized_response_tuple(eps):
    rr = randomized_response(eps)
    return FiniteMechanism(rr.matrix, [(0,), (1,)], [0, 1])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_exact_epsilon_is_attained_and_never_beaten(seed):
    rng = np.random.default_rng(seed)
    mech = FiniteMechanism(rng.dirichlet(np.full(3, 0.7), size=4), BINARY2, [0, 1, 2])
    res = S.semantic_epsilon(mech)
    assert S.semantic_epsilon(mech, method="exhaustive").epsilon == pytest.approx(res.epsilon, abs=1e-10)
    # the reported belief attains it
    assert S.statistical_difference(mech, res.belief, res.transcript, res.index) == pytest.approx(res.epsilon, abs=1e-9)
    for b in rng.dirichlet(np.full(4, 0.3), size=200):
        sd, prob = S.semantic_profile(mech, b)
        assert sd[:, prob > 0].max() <= res.epsilon + 1e-12


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 3.0])
def test_closed_forms_randomized_response_and_geometric(n, eps):
    # local RR: for a fixed transcript, r(x) ∈ {1, e^{±ε}} so R = e^ε; geometric count: R = e^{2ε} once a
    # database with count ≤ t and one with count ≥ t+1 both have x_i = 1 (n ≥ 2)
    assert S.semantic_epsilon(local_randomized_response(n, eps)).epsilon == pytest.approx(math.tanh(eps / 4), abs=1e-12)
    expected = math.tanh(eps / 2) if n >= 2 else math.tanh(eps / 4)
    assert S.semantic_epsilon(geometric_count(n, eps)).epsilon == pytest.approx(expected, abs=1e-12)


def test_two_point_formula_with_mpmath():
    # sup_a [aR/(aR + 1 - a) - a] = (√R - 1)/(√R + 1)
    for R in (1.5, 3.0, 20.0):
        R = mpmath.mpf(R)
        f = lambda a: a * R / (a * R + 1 - a) - a  # noqa: E731
        a_star = mpmath.findroot(lambda a: R / (a * R + 1 - a) ** 2 - 1, (mpmath.mpf("1e-6"), 1), solver="bisect")
        assert float(f(a_star)) == pytest.approx(S.tilt_statistical_difference(math.log(float(R))), abs=1e-12)


# --- Theorem 2.2 -------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_theorem_2_2_both_directions_on_random_mechanisms(seed):
    rng = np.random.default_rng(seed)
    mech = FiniteMechanism(rng.dirichlet(np.full(3, 2.0), size=4), BINARY2, [0, 1, 2])
    eps = mech.epsilon()
    sem = S.semantic_epsilon(mech).epsilon
    assert sem <= S.tight_semantic_epsilon(eps) + 1e-12 <= S.thm22_epsilon(eps) + 1e-12
    assert eps <= S.tight_converse_epsilon(sem) + 1e-9


def test_converse_inequality_6_fails_and_randomized_response_breaks_theorem_2_4_part_2():
    # (1/2 + s)/(1/2 - s) ≤ e^{3s} never holds for s > 0: log LHS = 2 artanh(2s) ≥ 4s
    for s in (1e-3, 0.1, 0.45):
        assert math.log((0.5 + s) / (0.5 - s)) > 3 * s
    # RR on one record with ε0 = 0.8 is (tanh 0.2, 0)-semantically private, s ≤ 0.45 ...
    eps0 = 0.8
    mech = randomized_response_tuple(eps0)
    s = S.semantic_epsilon(mech).epsilon
    assert s == pytest.approx(math.tanh(eps0 / 4))
    # ... so (s, δ)-semantically private for δ = 0.01, yet not (3s, 2δ)-DP:
    needed = (math.exp(eps0) - math.exp(3 * s)) / (1 + math.exp(eps0))
    assert mech.delta(3 * s) == pytest.approx(needed) and needed > 0.02


# --- Theorem 2.4 and the Conditioning Lemma ---------------------------------------------------------------


def test_theorem_2_4_parameters_and_condition():
    eps, delta, n = 0.5, 1e-5, 100
    e1, d1 = S.thm24_parameters(eps, delta, n)
    assert e1 == pytest.approx(math.exp(1.5) - 1 + 2 * math.sqrt(1e-3))
    assert d1 == pytest.approx(4 * math.sqrt(1e-3))
    assert S.thm24_max_delta(eps, n) == pytest.approx((1 - math.exp(-0.5)) ** 2 / 100)
    with pytest.raises(ValueError, match="delta must be <"):
        S.thm24_parameters(eps, 2e-3, n)
    # under the condition, the proof's δ'' = 2δ/δ̂ + 2δ/(1-e^-ε) with δ̂ = √(nδ) is ≤ 4√(δ/n)
    for eps, n in itertools.product((0.1, 0.5, 2.0), (1, 10, 1000)):
        delta = 0.99 * S.thm24_max_delta(eps, n)
        assert S.conditioning_delta(eps, delta, math.sqrt(n * delta)) <= 4 * math.sqrt(delta / n) * (1 + 1e-12)


def test_theorem_2_4_on_leaky_count():
    n, eps, delta = 3, 0.3, 1e-4
    mech = S.leaky_count(n, eps, delta)
    assert mech.delta(eps) == pytest.approx(delta, rel=1e-9)
    e1, d1 = S.thm24_parameters(eps, delta, n)
    found, _ = semantic_evidence.worst_semantic_delta(mech, e1, samples=30)
    assert found <= d1
    # Under the uniform belief the database is published with probability δ.  Then b̄0 is a point mass;
    # b̄ᵢ is undefined when x_i = 1 (SD = 1) and splits evenly between x and x + e_i when x_i = 0
    # (SD = 1/2).  Count transcripts move posteriors by at most tanh(ε/2) ≈ 0.149.  So at 0.4 exactly
    # the published-database transcripts are bad:
    assert S.semantic_delta(mech, np.full(8, 1 / 8), 0.4) == pytest.approx(delta, rel=1e-6)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_conditioning_lemma_on_random_joints(seed):
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.ones(12)).reshape(3, 4)
    Q = P * np.exp(rng.normal(scale=0.15, size=P.shape))
    Q /= Q.sum()
    eps = 0.1
    delta = float(smallest_delta(P.ravel(), Q.ravel(), eps))
    for delta_hat in (0.01, 0.05, 0.2):
        bound = S.conditioning_delta(eps, delta, delta_hat)
        bad_b, bad_bp = S.conditioning_bad_mass(P, Q, 3 * eps, delta_hat)
        assert bad_b <= bound + 1e-12 and bad_bp <= bound + 1e-12


# --- Lemma 3.3 -----------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([0.05, 0.3, 1.0]))
def test_lemma_3_3_parts_1_2_5(seed, eps):
    rng = np.random.default_rng(seed)
    p, q = rng.dirichlet(np.full(5, 0.8), size=2)
    d = float(smallest_delta(p, q, eps))
    # Part 1: point-wise (ε, δ) ⇒ (ε, δ)
    assert d <= S.pointwise_delta(p, q, eps) + 1e-12
    # Part 2 as proved: (ε, δ) ⇒ point-wise (2ε, 2δ/(1 − e^{−ε}))
    assert S.pointwise_delta(p, q, 2 * eps) <= 2 * d / (1 - math.exp(-eps)) + 1e-12
    # Part 5, and the tight value
    tv = total_variation(p, q)
    assert tv <= S.tight_max_sd(eps, d) + 1e-12 <= S.max_sd_bound(eps, d) + 1e-12


def test_lemma_3_3_part_2_as_printed_fails():
    eps = 0.1
    p = np.array([0.5, 0.5])
    q = np.array([0.5 / (math.exp(eps) * 1.001), 0.0])
    q[1] = 1 - q[0]
    d = float(smallest_delta(p, q, eps))
    assert S.pointwise_delta(p, q, eps) >= 0.5 > 2 * d / (1 - math.exp(-eps))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_lemma_3_3_parts_3_and_4(seed):
    rng = np.random.default_rng(seed)
    px = rng.dirichlet(np.ones(4))
    A, B = rng.dirichlet(np.full(3, 1.5), size=(2, 4))
    eps = 0.2
    per_a = np.array([smallest_delta(A[a], B[a], eps) for a in range(4)])
    joint = lambda M: (px[:, None] * M).ravel()  # noqa: E731
    # Part 3: the pair is (ε, max_a δ_a)-indistinguishable
    assert smallest_delta(joint(A), joint(B), eps) <= per_a.max() + 1e-12
    # Part 4: with δ = a threshold, δ1 = mass of the a's above it
    for thr in np.unique(per_a):
        delta1 = px[per_a > thr].sum()
        assert smallest_delta(joint(A), joint(B), eps) <= thr + delta1 + 1e-12


# --- the examples -------------------------------------------------------------------------------------


def test_random_index_mechanism_remark_1():
    for n in (2, 3, 4):
        mech = S.random_index_mechanism(n)
        assert mech.delta(0.0) == pytest.approx(1 / n)  # ε_SD = 1/n
    mech = S.random_index_mechanism(3)
    dbs = mech.databases
    for p in (0.2, 0.6):
        b = np.array([np.prod([p if v else 1 - p for v in d]) for d in dbs])
        # t = (j, 0): prob 1 − p, SD = p in Game j; t = (j, 1): prob p, b̄_j undefined (SD = 1)
        assert S.semantic_delta(mech, b, p - 0.01) == pytest.approx(1.0)
        assert S.semantic_delta(mech, b, p + 0.01) == pytest.approx(p)


def test_smoking_study_numbers():
    dbs, b, risk = S.smoking_study(4, risks=(0.1, 0.6), prior_high=0.5)
    assert b.sum() == pytest.approx(1.0)
    assert b @ risk == pytest.approx(0.35)  # the insurer's prior risk for Alice
    k = 3  # a database with three ill participants
    lo, hi = 0.1**k * 0.9 ** (4 - k), 0.6**k * 0.4 ** (4 - k)
    expected = (0.1 * lo + 0.6 * hi) / (lo + hi)
    assert risk[dbs.index((1, 1, 1, 0))] == pytest.approx(expected)


def test_dwork_mcsherry_against_binned_gaussian():
    sigma, n = 1.5, 3
    edges = np.linspace(-12, 15, 2701)
    centers = (edges[:-1] + edges[1:]) / 2
    dbs = list(itertools.product((0, 1), repeat=n))
    from scipy.stats import norm

    rows = [np.diff(norm.cdf(edges, loc=sum(d), scale=sigma)) for d in dbs]
    rows = [np.append(r, 1 - r.sum()) for r in rows]
    mech = FiniteMechanism(np.array(rows), dbs, list(range(len(centers) + 1)))
    belief = {(0, 0, 0): 0.5, (1, 0, 0): 0.5}
    for t in (0.5, 2.0, 3.0):
        col = int(np.searchsorted(edges, t)) - 1
        got = S.statistical_difference(mech, belief, col, 1)
        assert got == pytest.approx(float(S.dwork_mcsherry_sd(centers[col], sigma)), abs=1e-6)
        assert S.statistical_difference(mech, belief, col, 2) == pytest.approx(0.0, abs=1e-12)


def test_paper_gaussian_calibration_profile():
    # σ² = log(1/δ)/ε²: compare with the exact profile computed here by quadrature-free mpmath
    eps, delta = 0.5, 1e-9
    sigma = S.paper_gaussian_sigma(eps, delta)
    r = mpmath.mpf(1) / sigma
    exact = mpmath.ncdf(r / 2 - eps / r) - mpmath.e**eps * mpmath.ncdf(-r / 2 - eps / r)
    assert gaussian_delta(eps, sigma) == pytest.approx(float(exact), rel=1e-8)
    assert float(exact) > delta  # the stated calibration is not (ε, δ)-DP here


def test_dwork_mcsherry_delta_grows_with_n():
    sigma = S.paper_gaussian_sigma(0.5, 1e-5)
    deltas = [S.dwork_mcsherry_delta(n, sigma, 0.25) for n in (10, 100, 1000)]
    assert deltas[0] < deltas[1] < deltas[2] and deltas[2] > 0.99


def test_local_sensitivity_and_median_mechanism():
    med = lambda x: float(np.median(x))  # noqa: E731
    assert S.local_sensitivity(med, [(0, 2, 4)], range(5))[0] == 2
    assert S.local_sensitivity(med, [(2, 2, 2)], range(5))[0] == 0
    mech = S.median_mechanism(3, 2, 0.5, 1)
    ls = S.local_sensitivity(med, mech.databases, range(3))
    for k, x in enumerate(mech.databases):
        if ls[k] <= 1:
            for y in mech.databases:
                if sum(a != b for a, b in zip(x, y)) == 1:
                    assert smallest_delta(mech.row(x), mech.row(y), 0.5) <= 1e-12


def test_extreme_parameters_stay_finite():
    for eps in (1e-8, 30.0):
        res = S.semantic_epsilon(local_randomized_response(2, eps))
        assert np.isfinite(res.epsilon) and 0 <= res.epsilon <= 1
        assert res.epsilon == pytest.approx(math.tanh(eps / 4), rel=1e-6, abs=1e-12)
    assert S.tight_converse_epsilon(1.0) == np.inf


# --- bad input ----------------------------------------------------------------------------------------


def test_bad_input_raises_value_error_naming_the_problem():
    mech = geometric_count(2, 1.0)
    with pytest.raises(ValueError, match="row 1 of matrix must sum to 1"):
        FiniteMechanism(np.array([[0.5, 0.5], [0.7, 0.7]]), [(0,), (1,)], [0, 1])
    with pytest.raises(ValueError, match="mechanism must be a FiniteMechanism"):
        S.semantic_epsilon(np.eye(2))
    with pytest.raises(ValueError, match="belief must sum to 1"):
        S.games(mech, [0.5, 0.5, 0.5, 0.0], 1)
    with pytest.raises(ValueError, match="belief must have one probability per database"):
        S.games(mech, [0.5, 0.5], 1)
    with pytest.raises(ValueError, match=r"index i must be a whole number in 1..2.*i=3"):
        S.statistical_difference(mech, np.full(4, 0.25), 1, 3)
    with pytest.raises(ValueError, match=r"index i must be a whole number in 1..2.*i=0"):
        S.statistical_difference(mech, np.full(4, 0.25), 1, 0)
    with pytest.raises(ValueError, match=r"game must be a whole number in 0..2"):
        S.posterior(mech, np.full(4, 0.25), 1, -1)
    with pytest.raises(ValueError, match="transcript must be one of"):
        S.games(mech, np.full(4, 0.25), 7)
    with pytest.raises(ValueError, match="default=5"):
        S.games(mech, np.full(4, 0.25), 1, default=5)
    with pytest.raises(ValueError, match="method must be"):
        S.semantic_epsilon(mech, method="magic")
    with pytest.raises(ValueError, match="eps must be >= 0"):
        S.semantic_delta(mech, np.full(4, 0.25), -0.1)
    with pytest.raises(ValueError, match="eps must be <= 0.45"):
        S.thm24_converse_parameters(0.5, 0.01)
    with pytest.raises(ValueError, match="eps must exceed"):
        S.thm42_parameters(0.01, 0.0, 0.01, 10)
    with pytest.raises(ValueError, match="belief must not be NaN"):
        S.games(mech, [np.nan, 0.5, 0.5, 0.0], 1)


@pytest.mark.registry
def test_ks_claims_have_their_expected_status():
    from dpsemantics.claims import evaluate_all

    results = evaluate_all("ks")
    assert len(results) >= 30
    wrong = [(r.claim.id, r.status) for r in results if not r.as_expected]
    assert not wrong


def test_reality_oblivious_delta_on_geometric_dwork_mcsherry():
    # Theorem A.2's construction with the geometric count: belief on {0^n, (1,0^{n-1})}, reality 1^n
    n, eps = 4, 0.5
    geo = geometric_count(n, eps)
    zero, one = (0,) * n, (1,) + (0,) * (n - 1)
    belief = {zero: 0.5, one: 0.5}
    reality = geo.row((1,) * n)
    odds = geo.row(one) / geo.row(zero)
    sd = np.abs(odds / (1 + odds) - 0.5)  # Game 1 keeps the uniform prior
    for eps_prime in (0.05, 0.1, 0.2):
        expected = reality[sd > eps_prime].sum()
        assert S.reality_oblivious_delta(geo, belief, (1,) * n, eps_prime) == pytest.approx(expected, abs=1e-12)
    # a random mechanism, every transcript checked with Bayes by hand, reality drawn outside the belief
    rng = np.random.default_rng(7)
    matrix = rng.dirichlet(np.ones(5), size=4)
    rand = FiniteMechanism(matrix, BINARY2, list(range(5)))
    b = np.array([0.5, 0.0, 0.5, 0.0])  # on (0,0) and (1,0); reality (1,1)
    sds = []
    for col in range(5):
        p0 = np.array(bayes_loop(matrix, BINARY2, b, col, 0))
        sds.append(max(0.5 * np.abs(p0 - bayes_loop(matrix, BINARY2, b, col, i)).sum() for i in (1, 2)))
    # ε′ between the SDs: at an SD itself the exact SD of the float inputs decides, which
    # test_semantic_measured_outward.py checks against rationals
    levels = np.unique(sds)
    for eps_prime in (levels[:-1] + levels[1:]) / 2:
        expected = matrix[3][np.array(sds) > eps_prime].sum()
        assert S.reality_oblivious_delta(rand, b, (1, 1), eps_prime) == pytest.approx(expected, abs=1e-12)


def test_constant_mechanism_with_an_impossible_output_is_zero_private():
    const = FiniteMechanism([[0.0, 1.0], [0.0, 1.0]], [(0,), (1,)], ["never", "always"])
    for res in (S.semantic_epsilon(const), S.semantic_epsilon(const, method="exhaustive"),
                semantic_evidence.searched_semantic_epsilon(const)):
        assert res.epsilon == pytest.approx(0.0, abs=1e-12) and res.transcript == "always"


# --- the Conditioning Lemma repaired, Theorem 2.4 (1) repaired, §2.1 ----------------------------------------


@pytest.mark.parametrize("eps,delta_hat", [(1.0, 0.1), (0.5, 0.01), (0.1, 1e-3)])
def test_conditioning_counterexample_is_exact_and_breaks_the_proofs_delta2(eps, delta_hat):
    delta = 1e-3 * delta_hat
    P, Q = semantic_evidence.conditioning_counterexample(eps, delta, delta_hat)
    assert float(smallest_delta(P.ravel(), Q.ravel(), eps)) == pytest.approx(delta, rel=1e-9)
    assert np.allclose(P.sum(1), Q.sum(1))
    bad = S.conditioning_bad_mass(P, Q, 3 * eps, delta_hat)
    assert bad[0] == pytest.approx((1 + math.exp(eps) * (1 - delta_hat)) * delta / delta_hat, rel=1e-4)
    assert bad[0] > S.conditioning_delta(eps, delta, delta_hat)
    assert max(bad) <= S.corrected_conditioning_delta(eps, delta, delta_hat)
    with pytest.raises(ValueError, match="delta_hat"):
        semantic_evidence.conditioning_counterexample(eps, delta, 1.0)
    with pytest.raises(ValueError, match="too large"):
        semantic_evidence.conditioning_counterexample(eps, 0.5, 0.1)


def test_corrected_conditioning_delta_formula_and_validation():
    assert S.corrected_conditioning_delta(1.0, 1e-6, 0.1) == pytest.approx(
        2e-6 / (1 - math.exp(-1)) + (1 + math.exp(2)) * 1e-5)
    assert S.corrected_conditioning_delta(0.3, 1e-4, 0.01) > S.conditioning_delta(0.3, 1e-4, 0.01)
    with pytest.raises(ValueError, match="delta_hat"):
        S.corrected_conditioning_delta(0.3, 1e-4, 0.0)
    with pytest.raises(ValueError, match="eps"):
        S.corrected_conditioning_delta(0.0, 1e-4, 0.1)


@pytest.mark.parametrize("eps", [0.01, 0.5, 3.0])
@pytest.mark.parametrize("n", [1, 100])
def test_thm24_repaired_delta_is_below_three_root_n_delta(eps, n):
    for frac in (1e-6, 0.5, 0.999):
        delta = frac * float(S.thm24_max_delta(eps, n))
        root = math.sqrt(n * delta)
        dh = float(S.thm24_repaired_delta_hat(eps, delta, n))
        assert float(S.tight_max_sd(3 * eps, min(dh, 1.0))) <= S.thm24_parameters(eps, delta, n)[0] * (1 + 1e-12)
        assert float(S.thm24_repaired_delta(eps, delta, n)) < 3 * root


@pytest.mark.parametrize("eps", [0.3, 1.0, 2.5])
def test_informed_semantic_epsilon_is_tanh_quarter_eps(eps):
    for m in (local_randomized_response(2, eps), geometric_count(2, eps)):
        exact = S.informed_semantic_epsilon(m)
        assert exact == pytest.approx(math.tanh(m.epsilon() / 4), abs=1e-12)
        assert semantic_evidence.grid_informed_semantic_epsilon(m, grid=50) == pytest.approx(exact, abs=1e-5)
    with pytest.raises(ValueError, match="grid"):
        semantic_evidence.grid_informed_semantic_epsilon(geometric_count(1, eps), grid=0)


def test_most_powerful_power_neyman_pearson():
    assert S.most_powerful_power([0.5, 0.5], [0.2, 0.8], [0, 0.25, 0.5, 1]) == pytest.approx([0, 0.4, 0.8, 1])
    # an outcome impossible under the null is rejected first: power at level 0 is its alternative mass
    assert (S.most_powerful_power([0, 0.5, 0.5], [0.1, 0.2, 0.7], [0, 0.25, 0.5, 1])
            == pytest.approx([0.1, 0.45, 0.8, 1]))
    e = math.exp(1.0)
    rr = np.array([[e, 1], [1, e]]) / (1 + e)
    alphas = np.linspace(0, 1, 11)
    assert np.allclose(S.most_powerful_power(rr[0], rr[1], alphas), S.testing_bound(1.0, 0.0, alphas))
    with pytest.raises(ValueError, match="alternative"):
        S.most_powerful_power([0.5, 0.5], [1.0], 0.1)
    with pytest.raises(ValueError, match="alpha"):
        S.most_powerful_power([0.5, 0.5], [0.5, 0.5], 1.5)


def test_testing_bound_shape():
    assert S.testing_bound(1.0, 0.0, 0.0) == 0.0 and S.testing_bound(1.0, 0.1, 0.0) == pytest.approx(0.1)
    assert S.testing_bound(1.0, 0.0, 1.0) == 1.0
    assert S.testing_bound(0.0, 0.0, 0.3) == pytest.approx(0.3)


def test_total_at_extreme_parameters_issue_23():
    """thm24_repaired_delta_hat as the paper's formula in 50 digits, and +inf (not inf − inf = NaN) when e^{3ε}
    overflows; thm42_parameters for n beyond the float range; conditioning_counterexample refuses arrays and
    masses above 1 by the caller's names."""
    import mpmath

    with mpmath.workdps(50):
        for eps, delta, n in [(0.1, 1e-6, 3), (0.01, 1e-10, 100), (1.0, 1e-3, 1)]:
            e3 = mpmath.expm1(3 * mpmath.mpf(eps))
            want = ((e3 + 2 * mpmath.sqrt(n * mpmath.mpf(delta))) * (e3 + 2) - e3) / 2
            got = S.thm24_repaired_delta_hat(eps, delta, n)
            assert got == pytest.approx(float(want), rel=1e-13) and got <= want  # the largest δ̂: rounded down
        eps_prime, delta_prime = S.thm42_parameters(0.5, 0.0, 0.0, 10**400)
        assert delta_prime == 0.0 and mpmath.expm1(1.5) <= eps_prime == pytest.approx(math.expm1(1.5), rel=1e-14)
    assert S.thm24_repaired_delta_hat(300.0, 1e-6, 3) == math.inf
    with pytest.raises(ValueError, match="eps must exceed"):
        S.thm42_parameters(0.5, 1e-6, 0.0, 10**400)
    with pytest.raises(ValueError, match="eps must be a single number"):
        semantic_evidence.conditioning_counterexample([0.1, 0.9], 1e-6, 1e-3)
    with pytest.raises(ValueError, match="delta_hat"):
        semantic_evidence.conditioning_counterexample(800.0, 1e-6, 1e-3)


def test_clamped_geometric_is_one_implementation_with_the_closed_form():
    """mechanisms.clamped_geometric_pmf against the two-sided geometric law summed by hand (Ghosh et al.: Pr[Z = k]
    ∝ e^{−ε|k|}), the tails folded onto the end points; leaky_count and median_mechanism use it."""
    eps, centre, low, high = 0.7, 2, -1, 4
    a = math.exp(-eps)
    pmf = lambda k: (1 - a) / (1 + a) * a ** abs(k)  # noqa: E731
    want = [pmf(k - centre) for k in range(low, high + 1)]
    want[0] = sum(pmf(k - centre) for k in range(low - 400, low + 1))
    want[-1] = sum(pmf(k - centre) for k in range(high, high + 400))
    np.testing.assert_allclose(mechanisms.clamped_geometric_pmf(centre, eps, low, high), want, rtol=1e-13)
    leaky = S.leaky_count(3, eps, 0.1)
    row = leaky.row((1, 1, 0))
    np.testing.assert_allclose(row[:4], 0.9 * mechanisms.clamped_geometric_pmf(2, eps, 0, 3), rtol=1e-15)
    med = S.median_mechanism(3, 2, eps, 2, margin=1)
    np.testing.assert_allclose(med.row((0, 2, 2)), mechanisms.clamped_geometric_pmf(2, eps / 2, -1, 3), rtol=1e-15)
    with pytest.raises(ValueError, match="high must exceed low"):
        mechanisms.clamped_geometric_pmf(0, eps, 2, 2)


def test_log_ratio_spread_and_the_tilt_bound():
    """One max-log-ratio: ln(max/min) per column, ∞ where a point is ruled out, 0 where nothing is observed; and
    tanh(Δ/4) = (√R − 1)/(√R + 1) with R = e^Δ (written out here), 1 at Δ = ∞."""
    lik = np.array([[0.2, 0.0, 0.0], [0.8, 0.3, 0.0]])
    got = S.log_ratio_spread(lik, axis=0)  # rounded up, by a few ulps (test_semantic_measured_outward.py)
    assert math.log(4.0) <= got[0] <= math.log(4.0) * (1 + 1e-14) and list(got[1:]) == [math.inf, 0.0]
    assert math.log(2.0) <= S.log_ratio_spread([0.5, 0.25]) <= math.log(2.0) * (1 + 1e-14)
    for delta_log in (0.0, 0.3, 2.0, 40.0):
        root = math.exp(delta_log / 2)
        assert S.tilt_statistical_difference(delta_log) == pytest.approx((root - 1) / (root + 1), rel=1e-14, abs=1e-300)
    assert S.tilt_statistical_difference(math.inf) == 1.0
    with pytest.raises(ValueError, match="likelihoods must be >= 0"):
        S.log_ratio_spread([0.5, -0.1])
    with pytest.raises(ValueError, match="spread"):
        S.tilt_statistical_difference(-1.0)


def test_corrected_conditioning_delta_at_delta_zero_past_exp_overflow():
    """δ = 0 makes both terms of δ″ = 2δ/(1 − e^{−ε}) + (1 + e^{2ε})δ/δ̂ zero; past ε ≈ 355 e^{2ε} overflows and
    ∞·0 gave NaN (with a RuntimeWarning); δ > 0 there is ∞ (overflow read as infinity), δ̂ = ∞ leaves 2δ/(1 − e^{−ε})."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert S.corrected_conditioning_delta(400.0, 0.0, 0.5) == 0.0
        assert S.corrected_conditioning_delta(400.0, 1e-6, 0.5) == math.inf
        assert S.corrected_conditioning_delta(400.0, 1e-6, math.inf) == pytest.approx(2e-6, rel=1e-15)
