"""Tests of dpsemantics.notions (Zhao 2019) against closed forms, brute force and explicit Bayes updates."""

import itertools
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpsemantics import notions as N
from dpsemantics.claims import notions_evidence as E
from dpsemantics.indistinguishability import total_variation
from dpsemantics.mechanisms import FiniteMechanism, local_randomized_response, randomized_response
from dpsemantics.semantic import semantic_epsilon


# ---------------------------------------------------------------- independent brute-force references


def brute_likelihood(mech, prior, i, S, xi, xS):
    """P[y | X_i = xi, X_S = xS] by summing over every database (dict prior), None if impossible."""
    num = np.zeros(len(mech.outputs))
    mass = 0.0
    for db, row in zip(mech.databases, mech.matrix):
        if db[i] == xi and all(db[j] == v for j, v in zip(S, xS)):
            p = prior.get(db, 0.0)
            num += p * row
            mass += p
    return None if mass == 0 else num / mass


def brute_bdp(mech, prior, domain=(0, 1)):
    n = len(mech.databases[0])
    worst = 0.0
    for i in range(n):
        others = [j for j in range(n) if j != i]
        for k in range(n):
            for S in itertools.combinations(others, k):
                for xS in itertools.product(domain, repeat=k):
                    for a, b in itertools.permutations(domain, 2):
                        la = brute_likelihood(mech, prior, i, S, a, xS)
                        lb = brute_likelihood(mech, prior, i, S, b, xS)
                        if la is None or lb is None:
                            continue
                        for y in range(len(mech.outputs)):
                            if la[y] > 0 and lb[y] == 0:
                                return math.inf
                            if la[y] > 0:
                                worst = max(worst, math.log(la[y] / lb[y]))
    return worst


def as_dict(mech, prior):
    return prior if isinstance(prior, dict) else dict(zip(mech.databases, prior))


def rr_keep(eps):
    return math.exp(eps) / (1 + math.exp(eps))


# ---------------------------------------------------------------- Bayesian DP


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("eps", [0.3, 1.0, 2.5])
def test_bdp_equals_dp_for_independent_records(n, eps):
    # Yang et al. Thm 1 (cited by TSD §3): with independent records BDP leakage is the DP ε.
    mech = local_randomized_response(n, eps)
    assert N.bdp_leakage(mech, N.independent_prior(n, 0.3)) == pytest.approx(eps, rel=1e-12)


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("eps", [0.3, 1.0])
def test_bdp_of_copied_records_is_group_privacy(n, eps):
    # All records equal: the adversary knowing nothing sees n independent RR reports of one bit: n·ε.
    mech = local_randomized_response(n, eps)
    assert N.bdp_leakage(mech, N.copies_prior(n)) == pytest.approx(n * eps, rel=1e-12)
    assert N.bdp_leakage(mech, N.copies_prior(n), i=0, S=()) == pytest.approx(n * eps, rel=1e-12)
    # knowing the copy leaves no uncertainty about record 0: nothing to compare, leakage 0
    assert N.bdp_leakage(mech, N.copies_prior(n), i=0, S=tuple(range(1, n))) == 0.0


@pytest.mark.parametrize("stay", [0.5, 0.7, 0.9, 0.99])
def test_bdp_markov_chain_closed_form(stay):
    # Two records, RR on each; adversary A(0, ∅): L(y|x0) = RR(y0|x0)·Σ_x1 P(x1|x0) RR(y1|x1);
    # worst output y = (1, 1): e^ε · (s k + (1−s)(1−k)) / (s(1−k) + (1−s)k).
    eps = 1.2
    k = rr_keep(eps)
    expected = eps + math.log((stay * k + (1 - stay) * (1 - k)) / (stay * (1 - k) + (1 - stay) * k))
    assert (N.bdp_leakage(local_randomized_response(2, eps), N.markov_chain_prior(2, stay))
            == pytest.approx(expected, rel=1e-12))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.sampled_from([2, 3]))
def test_bdp_matches_brute_force_and_dominates_dp(seed, n):
    rng = np.random.default_rng(seed)
    mech = E.random_mechanism(n, 3, rng, 0.8)
    prior = E.random_prior(n, rng, 0.8)
    leak = N.bdp_leakage(mech, prior)
    assert leak == pytest.approx(brute_bdp(mech, prior), rel=1e-10, abs=1e-12)
    # Yang et al. Thm 2 (cited by TSD §3): with a full-support prior, BDP is at least DP (S = N∖{i}).
    assert leak >= mech.epsilon() - 1e-12
    by_adv = N.bdp_leakage_by_adversary(mech, prior)
    assert max(by_adv.values()) == pytest.approx(leak)
    for i in range(n):
        assert by_adv[(i, tuple(j for j in range(n) if j != i))] <= mech.epsilon() + 1e-12


def test_conditional_likelihood_against_brute_force():
    rng = np.random.default_rng(5)
    mech = E.random_mechanism(3, 4, rng)
    prior = E.random_prior(3, rng)
    got = N.conditional_likelihood(mech, prior, 1, [2], 0, [1])
    assert np.allclose(got, brute_likelihood(mech, prior, 1, (2,), 0, (1,)))
    with pytest.raises(ValueError, match="prior"):
        N.conditional_likelihood(local_randomized_response(2, 1.0), N.copies_prior(2), 0, [1], 0, [1])


def test_deterministic_mechanism_gives_infinite_leakage_not_nan():
    dbs = list(itertools.product((0, 1), repeat=2))
    mech = FiniteMechanism(np.array([[1.0, 0.0] if d[0] == 0 else [0.0, 1.0] for d in dbs]), dbs, [0, 1])
    assert N.bdp_leakage(mech, N.independent_prior(2)) == math.inf
    assert N.bayesian_semantic_privacy(mech, N.independent_prior(2), 0) == 1.0


# ---------------------------------------------------------------- semantic privacy: exact sup over beliefs


def explicit_sd(belief, g0, gi):
    post0 = belief * g0 / np.dot(belief, g0)
    posti = belief * gi / np.dot(belief, gi)
    return total_variation(post0, posti)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(2, 6))
def test_sup_statistical_difference_is_attained_and_never_exceeded(seed, k):
    rng = np.random.default_rng(seed)
    g0, gi = rng.uniform(0.01, 1, k), rng.uniform(0.01, 1, k)
    value = N.sup_statistical_difference(g0, gi)
    for b in rng.dirichlet(np.full(k, 0.5), size=200):
        assert explicit_sd(b, g0, gi) <= value + 1e-12
    # the two extreme points with weight 1/(1+√R) on the larger ratio (in the Game-i posterior)
    r = g0 / gi
    hi, lo = int(np.argmax(r)), int(np.argmin(r))
    if hi != lo:
        a = 1 / (1 + math.sqrt(r[hi] / r[lo]))
        b = np.zeros(k)
        b[hi], b[lo] = a / gi[hi], (1 - a) / gi[lo]
        assert explicit_sd(b / b.sum(), g0, gi) == pytest.approx(value, rel=1e-10)


def test_sup_statistical_difference_two_points_by_mpmath():
    # ratios e^{±Δ/2}: sup is tanh(Δ/4); compute the sup over the weight with mpmath.
    delta = 1.7
    g0, gi = [math.exp(delta / 2), 1.0], [1.0, math.exp(delta / 2)]

    def sd(w):
        p0 = w * g0[0] / (w * g0[0] + (1 - w) * g0[1])
        pi = w * gi[0] / (w * gi[0] + (1 - w) * gi[1])
        return p0 - pi

    w_star = mpmath.findroot(lambda w: mpmath.diff(sd, w), 0.5)
    assert N.sup_statistical_difference(g0, gi) == pytest.approx(float(sd(w_star)), rel=1e-10)


def brute_bsp(mech, prior, default, rng, draws=300):
    """Explicit Bayes updates, eqs. (9) and (15), for random beliefs over every adversary's points."""
    n = len(mech.databases[0])
    best = 0.0
    for i, S in N.adversaries(n):
        pts, g0s, gis = [], [], []
        for xS in itertools.product((0, 1), repeat=len(S)):
            lbot = brute_likelihood(mech, prior, i, S, default, xS)
            if lbot is None:
                continue
            for xi in (0, 1):
                l0 = brute_likelihood(mech, prior, i, S, xi, xS)
                if l0 is not None:
                    pts.append((xi, xS))
                    g0s.append(l0)
                    gis.append(lbot)
        if len(pts) < 2:
            continue
        g0s, gis = np.array(g0s), np.array(gis)
        for b in rng.dirichlet(np.full(len(pts), 0.3), size=draws):
            for y in range(g0s.shape[1]):
                best = max(best, explicit_sd(b, g0s[:, y], gis[:, y]))
    return best


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bsp_bounds_explicit_bayes_updates(seed):
    rng = np.random.default_rng(seed)
    mech = E.random_mechanism(2, 3, rng, 0.7)
    prior = E.random_prior(2, rng, 0.7)
    exact = N.bayesian_semantic_privacy(mech, prior, 0)
    searched = brute_bsp(mech, prior, 0, rng)
    assert searched <= exact + 1e-12
    assert searched >= exact - 0.1  # random beliefs come close to the supremum


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), values=st.sampled_from([2, 3]))
def test_bsp_with_all_others_known_is_ks_semantic_privacy(seed, values):
    # Zhao, remark after Definition 2: S = N∖{i} with a full-support prior is Definition 1; compared
    # with dpsemantics.semantic (an independent implementation of K&S).
    rng = np.random.default_rng(seed)
    dbs = list(itertools.product(range(values), repeat=2))
    mech = FiniteMechanism(rng.dirichlet(np.ones(3), size=len(dbs)), dbs, [0, 1, 2])
    prior = N.uniform_prior(mech)
    ours = max(N.bayesian_semantic_privacy(mech, prior, 0, i=i, S=(1 - i,)) for i in (0, 1))
    assert ours == pytest.approx(semantic_epsilon(mech, default=0, method="exhaustive").epsilon, rel=1e-10)
    assert N.semantic_privacy(mech, 0) == pytest.approx(ours, rel=1e-10)


@pytest.mark.parametrize("eps", [0.2, 1.0, 3.0])
def test_semantic_privacy_tight_examples(eps):
    # one record, default = one of its values: SP = tanh(ε/4); XOR of two records: tanh(ε/2).
    rr = randomized_response(eps)
    rr1 = FiniteMechanism(rr.matrix, [(0,), (1,)], [0, 1])
    assert N.semantic_privacy(rr1, 0) == pytest.approx(math.tanh(eps / 4), rel=1e-12)
    assert N.tight_converse_level(eps) == pytest.approx(math.tanh(eps / 4), rel=1e-12)
    assert N.semantic_privacy(N.xor_randomized_response(eps), 0) == pytest.approx(math.tanh(eps / 2), rel=1e-12)


def test_replace_reading_breaks_theorem1_converse():
    # Copied records: the 'replace' reading of Game i hides the copy, BSP stays at tanh(ε/4) while BDP = 2ε.
    eps = 1.0
    mech, prior = local_randomized_response(2, eps), N.copies_prior(2)
    replace = N.bayesian_semantic_privacy(mech, prior, 0, reading="replace")
    assert replace == pytest.approx(math.tanh(eps / 4), rel=1e-12)
    assert replace < N.zhao_converse_level(N.bdp_leakage(mech, prior))
    assert N.bayesian_semantic_privacy(mech, prior, 0) == pytest.approx(math.tanh(2 * eps / 4), rel=1e-12)


# ---------------------------------------------------------------- Theorems 1 and 2 on many cases


def test_theorems_1_and_2_both_directions_on_example_cases():
    rows = E.leakage_pairs(E.example_cases(seed=11, count=25))
    for eps_col, sem_col in ((0, 1), (2, 3)):
        eps, sem = rows[:, eps_col], rows[:, sem_col]
        assert np.all(sem <= np.expm1(2 * eps) + 1e-12)  # forward, as printed
        assert np.all(sem <= np.tanh(eps / 2) + 1e-12)  # forward, exact
        assert np.all(sem >= np.tanh(eps / 4) - 1e-12)  # converse, exact (contrapositive form)
        small = sem < 0.5
        assert np.all(eps[small] <= 2 * np.arctanh(2 * sem[small]) + 1e-9)  # converse, as printed
    # Sec. II (ii): BSP dominates SP whenever the prior has full support
    full = [c for c in E.example_cases(seed=11, count=25) if "copies" not in c[0]]
    r = E.leakage_pairs(full)
    assert np.all(r[:, 1] <= r[:, 3] + 1e-12)


def test_converse_levels_and_improvement_range():
    eps = np.linspace(0.01, 1.35, 200)
    assert np.allclose(N.zhao_converse_level(eps), 0.5 - 1 / (np.exp(eps) + 1), rtol=1e-13)
    assert np.all(N.zhao_converse_level(eps) > N.ks_converse_level(eps))
    assert np.all(N.tight_converse_level(eps) >= N.zhao_converse_level(eps))
    root = mpmath.findroot(lambda e: mpmath.mpf(1) / 2 - 1 / (mpmath.e**e + 1) - e / 6, 2.5)
    assert N.improvement_range_end() == pytest.approx(float(root), rel=1e-12)
    with pytest.raises(ValueError, match="eps"):
        N.ks_converse_level(1.5)


# ---------------------------------------------------------------- membership privacy, g and Lemma 1


def test_g_closed_values():
    for eps in (0.1, 1.0, 4.0, 40.0):
        e = mpmath.e ** mpmath.mpf(eps)
        assert N.membership_g(0.0, eps) == pytest.approx(float(e), rel=1e-12)
        assert N.membership_g(1.0, eps) == pytest.approx(float(e), rel=1e-12)
        peak = 1 / (1 + e)
        # g is ill-conditioned at its peak (relative condition number about e^ε): at ε = 40 one ulp of b
        # moves g by orders of magnitude, so the peak value is only checked where floats can resolve it.
        if eps <= 4.0:
            assert N.membership_g(float(peak), eps) == pytest.approx(float(e**2), rel=1e-9)
    assert N.membership_g(0.5, 1.0) == pytest.approx(2 * math.e - 1, rel=1e-14)  # (e − 1 + 1/2)/(1/2)
    assert N.membership_g(0.1, 1.0) == pytest.approx(0.9 / (math.exp(-1) - 0.1), rel=1e-14)
    assert N.membership_g(0.3, 0.0) == 1.0
    # extreme ε: finite where the value is, never NaN
    with mpmath.workdps(40):
        b0 = 1e-30
        exact = (1 - mpmath.mpf(b0)) / (mpmath.e ** -50 - b0)
    assert N.membership_g(b0, 50.0) == pytest.approx(float(exact), rel=1e-12)
    big = N.membership_g(np.array([0.0, 1e-300, 0.5, 1.0]), 800.0)
    assert not np.any(np.isnan(big)) and np.all(big > 0)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), b=st.floats(0.01, 0.99))
def test_lemma1_matches_direct_computation_over_all_events(seed, b):
    rng = np.random.default_rng(seed)
    p_in, p_out = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
    ratio = float(np.max(p_in / p_out))  # the worst event's ratio is a singleton's
    direct = N.membership_privacy_direct(p_in, p_out, b)
    assert N.membership_privacy_lemma1(ratio, b) == pytest.approx(direct, rel=1e-9, abs=1e-12)
    # Corollary 1: ratio ≤ e^ε gives ε-MP at every b
    assert direct <= math.log(ratio) + 1e-12


def test_membership_privacy_against_closed_form_and_theorems_3_4():
    eps = 0.8
    mech, prior = local_randomized_response(2, eps), N.markov_chain_prior(2, 0.9)
    leak = N.bdp_leakage(mech, prior)
    A = math.exp(leak)
    for b in (1e-9, 0.05, 0.3, 0.5, 0.9):
        # (28), (29): ε(b) = max(−ln(b + (1−b)/A), ln(1 + b(A − 1)))
        closed = max(-math.log(b + (1 - b) / A), math.log1p(b * (A - 1)))
        got = N.membership_privacy(mech, prior, b)
        assert got == pytest.approx(closed, rel=1e-9)
        assert got <= leak + 1e-12  # Theorem 3
    assert N.membership_privacy(mech, prior, 1e-9) == pytest.approx(leak, abs=1e-7)  # Theorem 4's limit


def test_membership_privacy_of_is_definition_3_from_the_mechanism():
    """Direct MP (every event, every two-point distribution of D*) equals the Lemma-1 shortcut for every b,
    stays below the BDP leakage (Theorem 3) and reaches it as b → 0 (Theorem 4)."""
    mech, prior = local_randomized_response(2, 1.0), N.markov_chain_prior(2, 0.9)
    bs = np.array([1e-13, 1e-4, 0.2, 0.5, 0.8, 1 - 1e-9])
    direct = N.membership_privacy_of(mech, prior, bs)
    assert direct.shape == bs.shape
    assert np.allclose(direct, [N.membership_privacy(mech, prior, b) for b in bs], atol=1e-9)
    leak = N.bdp_leakage(mech, prior)
    assert np.all(direct <= leak + 1e-12) and direct[0] == pytest.approx(leak, rel=1e-12)
    assert isinstance(N.membership_privacy_of(mech, prior, 0.5), float)


def test_membership_pairs_follow_the_prior():
    """Copied records: the adversary knowing the copy has no second value to hesitate between."""
    pairs = N.membership_pairs(local_randomized_response(2, 1.0), N.copies_prior(2))
    keys = {k[:2] for k, _, _ in pairs}
    assert keys == {(0, ()), (1, ())}
    assert all(p_in.sum() == pytest.approx(1.0) and p_out.sum() == pytest.approx(1.0) for _, p_in, p_out in pairs)
    full = N.membership_pairs(local_randomized_response(2, 1.0), N.independent_prior(2))
    assert len(full) == 2 * (2 + 2 * 2)  # per target: S = ∅ (one x_K) and S = {other} (two x_K), two orders each


def test_theorem4_threshold():
    eps, alpha = 0.5, 3.0
    q_star = N.theorem4_threshold(alpha, eps)
    assert q_star == pytest.approx((alpha - math.exp(eps)) / (math.exp(eps) * (alpha - 1)), rel=1e-14)
    assert N.scaled_posterior_ratio(alpha, q_star) == pytest.approx(math.exp(eps), rel=1e-12)
    assert N.scaled_posterior_ratio(alpha, q_star * 0.99) > math.exp(eps)
    assert N.scaled_posterior_ratio(alpha, min(1.0, q_star * 1.01)) < math.exp(eps)
    # a membership adversary with prior q just below the threshold sees the posterior ratio above e^ε
    p_in, p_out = np.array([0.75, 0.25]), np.array([0.25, 0.75])  # likelihood ratio α = 3 on output 0
    q = 0.99 * q_star
    post = q * p_in[0] / (q * p_in[0] + (1 - q) * p_out[0])
    assert post / q > math.exp(eps)
    assert N.membership_privacy_direct(p_in, p_out, q) > eps
    # condition (21) over all events is eq. (39) exactly: the worst event is the output with ratio α
    for q in (0.05, q_star, 0.6):
        up, _ = N.membership_ratios_direct(p_in, p_out, q)
        assert up == pytest.approx(math.log(N.scaled_posterior_ratio(alpha, q)), rel=1e-12)


def test_single_prior_family_is_not_enough():
    # Only b = 1/2 in the family: MP parameter ln((1 + A)/2) < ln A = BDP; Theorem 4 needs scalability.
    A = 5.0
    assert N.membership_privacy_lemma1(A, 0.5) == pytest.approx(math.log((1 + A) / 2), rel=1e-12)


# ---------------------------------------------------------------- bad input


def test_bad_inputs_name_the_parameter():
    mech = local_randomized_response(2, 1.0)
    with pytest.raises(ValueError, match="prior"):
        N.bdp_leakage(mech, [0.5, 0.5, 0.5, -0.5])
    with pytest.raises(ValueError, match="prior"):
        N.bdp_leakage(mech, [0.3, 0.3, 0.3, 0.3])
    with pytest.raises(ValueError, match="prior"):
        N.bdp_leakage(mech, {(0, 0): 0.5, (1, 1): 0.5, (2, 2): 0.0})
    with pytest.raises(ValueError, match="prior"):
        N.bdp_leakage(mech, [0.5, float("nan"), 0.25, 0.25])
    with pytest.raises(ValueError, match="eps"):
        N.membership_g(0.5, -1.0)
    with pytest.raises(ValueError, match="eps"):
        N.zhao_converse_level(-0.1)
    with pytest.raises(ValueError, match="eps"):
        E.example_cases(count=0, eps=-1.0)
    for bad_b in (-0.1, 1.5):
        with pytest.raises(ValueError, match="b"):
            N.membership_g(bad_b, 1.0)
        with pytest.raises(ValueError, match="b"):
            N.membership_privacy(mech, N.independent_prior(2), bad_b)
    with pytest.raises(ValueError, match="b"):
        N.membership_privacy_direct([0.5, 0.5], [0.2, 0.8], 0.0)
    with pytest.raises(ValueError, match="default"):
        N.bayesian_semantic_privacy(mech, N.independent_prior(2), 7)
    with pytest.raises(ValueError, match="alpha"):
        N.theorem4_threshold(1.2, 1.0)
    with pytest.raises(ValueError, match="S"):
        N.bdp_leakage(mech, N.independent_prior(2), i=0, S=(0,))
    with pytest.raises(ValueError, match="stay"):
        N.markov_chain_prior(3, 1.2)
    with pytest.raises(ValueError, match="reading"):
        N.bayesian_semantic_privacy(mech, N.independent_prior(2), 0, reading="other")


def test_theorem4_threshold_at_huge_eps():
    """α > e^ε is decided as log α > ε, so ε = 800 (e^ε beyond the float range) refuses any finite α by name and
    α = ∞ gives the limit e^{−ε} = 0; at ordinary ε the threshold is (α e^{−ε} − 1)/(α − 1) (Zhao, proof of Thm 4)."""
    with pytest.raises(ValueError, match="alpha must exceed"):
        N.theorem4_threshold(1e300, 800.0)
    assert N.theorem4_threshold(math.inf, 800.0) == 0.0
    assert N.theorem4_threshold(5.0, 1.0) == pytest.approx((5 / math.e - 1) / 4, rel=1e-15)
