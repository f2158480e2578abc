"""Claims of Kasiviswanathan & Smith, "On the 'Semantics' of Differential Privacy: A Bayesian Formulation".

Every number, constant and inequality the paper prints in its theorems, lemmas, proofs, remarks and
appendices, recomputed with :mod:`dpsemantics.semantic`.  Printed relations are ``printed=True``; a
relation the computation refutes is a discrepancy with the investigated cause in ``note``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy.optimize import brentq

from .. import semantic as S
from ..indistinguishability import smallest_delta, total_variation
from ..mechanisms import FiniteMechanism, gaussian_delta, geometric_count, local_randomized_response, randomized_response
from . import Claim

CHAPTER = "book/semantic-privacy"
EPS_GRID = np.linspace(0.01, 3.0, 60)


def _random_mechanisms(count=40, seed=0):
    """Random finite mechanisms on {0,1}^2 with three outputs (full support, so every ε is finite)."""
    rng = np.random.default_rng(seed)
    dbs = list(itertools.product((0, 1), repeat=2))
    return [FiniteMechanism(rng.dirichlet(np.full(3, 2.0), size=4), dbs, [0, 1, 2]) for _ in range(count)]


def _random_pairs(count=300, size=5, seed=1):
    rng = np.random.default_rng(seed)
    return [rng.dirichlet(np.full(size, 0.8), size=2) for _ in range(count)]


def rr_one_record(eps) -> FiniteMechanism:
    """Randomized response on a database of one record (tuple databases, so Games 0..1 are defined)."""
    return FiniteMechanism(randomized_response(eps).matrix, [(0,), (1,)], [0, 1])


# --- §2: the relaxation remark ---------------------------------------------------------------------------


def _eps_delta_implies_zero_delta():
    """(ε, δ)-DP ⇒ (0, δ + e^ε − 1)-DP: δ(0) ≤ δ(ε) + e^ε − 1 on random mechanisms, every ε of a grid."""
    return all(np.all(m.delta(0.0) <= m.delta(EPS_GRID) + np.expm1(EPS_GRID) + 1e-12) for m in _random_mechanisms())


# --- Theorem 2.2 ---------------------------------------------------------------------------------------


def _thm22_forward_holds():
    """Measured semantic ε ≤ e^ε − 1: geometric counts (n = 1..3), local RR (n = 1..3), random mechanisms."""
    mechs = [geometric_count(n, e) for n in (1, 2, 3) for e in (0.1, 0.5, 1.0, 2.0)]
    mechs += [local_randomized_response(n, e) for n in (1, 2, 3) for e in (0.1, 0.5, 1.0, 2.0)]
    mechs += _random_mechanisms()
    return all(S.semantic_epsilon(m).epsilon <= S.thm22_epsilon(m.epsilon()) + 1e-12 for m in mechs)


def _thm22_tightness_at_1():
    """Largest measured semantic ε of a 1-DP mechanism (geometric count, n = 3), next to e^1 − 1."""
    return S.semantic_epsilon(geometric_count(3, 1.0)).epsilon


def _thm22_statement_equals_restatement():
    """Theorem 2.2 (ε-DP ⇒ (e^ε−1)-SP) and its §3.2 restatement (ε/2-DP ⇒ (e^ε−1)-SP) give one bound."""
    return bool(np.allclose(S.thm22_epsilon(EPS_GRID), S.thm22_proof_epsilon(EPS_GRID)))


def _thm22_converse_holds():
    """ε/2-SP ⇒ 3ε-DP for ε ≤ 0.45: the exact converse (ε_DP ≤ 4 artanh s, attained by RR) stays below
    3ε at s = ε/2 on the whole range, and RR's measured (s, ε_DP) pairs agree."""
    eps = np.linspace(1e-4, 0.45, 200)
    bound_ok = bool(np.all(S.tight_converse_epsilon(eps / 2) <= 3 * eps))
    rr_ok = all(
        m.epsilon() <= 6 * S.semantic_epsilon(m).epsilon + 1e-12
        for m in (rr_one_record(e) for e in (0.05, 0.2, 0.5, 0.9))
        if S.semantic_epsilon(m).epsilon <= 0.225
    )
    return bound_ok and rr_ok


def _sec32_eps_sp_gives_3eps_dp():
    """§3.2's converse step "ε-semantic privacy implies 3ε-DP", on randomized response (one record)."""
    for eps0 in (0.1, 0.5, 1.0):
        m = rr_one_record(eps0)
        if m.epsilon() > 3 * S.semantic_epsilon(m).epsilon + 1e-12:
            return False
    return True


def _eq6_holds():
    """Equation (6): (½ + ε)/(½ − ε) ≤ e^{3ε} for 0 < ε ≤ 0.45, on a grid."""
    eps = np.linspace(1e-4, 0.45, 500)
    return bool(np.all(np.log((0.5 + eps) / (0.5 - eps)) <= 3 * eps))


def _eq6_corrected_range():
    """Largest ε with (½ + ε/2)/(½ − ε/2) ≤ e^{3ε}, the step Theorem 2.2's converse needs for ε/2-SP."""
    return brentq(lambda e: 2 * np.arctanh(e) - 3 * e, 0.1, 0.99, xtol=1e-14)


def _eq6_six_eps_range():
    """Largest ε with (½ + ε)/(½ − ε) ≤ e^{6ε} (the reading 'ε-SP ⇒ 6ε-DP')."""
    return brentq(lambda e: 2 * np.arctanh(2 * e) - 6 * e, 0.05, 0.49, xtol=1e-14)


# --- Theorem 2.4 ---------------------------------------------------------------------------------------


def _thm24_condition_gives_delta2():
    """Under δ < (1−e^{−ε})²/n, the proof's δ″ = 2δ/δ̂ + 2δ/(1−e^{−ε}) with δ̂ = √(nδ) is ≤ 4√(δ/n), and
    1 − e^{−ε} > √(nδ)."""
    for eps, n in itertools.product((0.01, 0.1, 0.5, 1.0, 3.0), (1, 10, 100, 10_000)):
        for frac in (1e-6, 0.1, 0.5, 0.999):
            delta = frac * float(S.thm24_max_delta(eps, n))
            dd = S.conditioning_delta(eps, delta, math.sqrt(n * delta))
            if dd > 4 * math.sqrt(delta / n) * (1 + 1e-12) or -math.expm1(-eps) <= math.sqrt(n * delta):
                return False
    return True


def _thm24_last_line():
    """The proof's last line "(ε̂, δ̂)-indistinguishability gives SD ≤ e^{3ε̂} − 1 + δ̂ = ε′", at ε = 0.1,
    n = 100, δ = 1e-6: returns e^{3ε̂} − 1 + δ̂ − ε′ (0 if the printed equality held)."""
    eps, n, delta = 0.1, 100, 1e-6
    eps_hat, delta_hat = 3 * eps, math.sqrt(n * delta)
    return math.expm1(3 * eps_hat) + delta_hat - S.thm24_parameters(eps, delta, n)[0]


def _thm24_forward_on_leaky_count():
    """Theorem 2.4 (1) on the leaky count (ε, δ)-DP mechanisms: the largest (ε′-)semantic δ found by
    the belief search is ≤ δ′ = 4√(nδ)."""
    for n, eps, delta in ((2, 0.3, 1e-3), (3, 0.5, 1e-4), (3, 1.0, 1e-3)):
        e1, d1 = S.thm24_parameters(eps, delta, n)
        found, _ = S.worst_semantic_delta(S.leaky_count(n, eps, delta), e1, samples=30)
        if found > d1:
            return False
    return True


def _thm24_converse_holds():
    """Theorem 2.4 (2): (ε, δ)-SP ⇒ (3ε, 2δ)-DP for ε ≤ 0.45.  Test: RR on one record with ε₀ = 0.8 is
    (tanh 0.2, 0)-SP, hence (tanh 0.2, 0.01)-SP; is it (3 tanh 0.2, 0.02)-DP?"""
    m = rr_one_record(0.8)
    s = S.semantic_epsilon(m).epsilon
    eps_dp, delta_dp = S.thm24_converse_parameters(s, 0.01)
    return m.is_dp(eps_dp, delta_dp)


def _delta_about_eps2_over_n():
    """(1 − e^{−ε})²/n against ε²/n: the ratio lies in [0.9, 1] for ε ≤ 0.1 (and falls to 0.40 at ε = 1)."""
    eps = np.linspace(1e-6, 0.1, 100)
    ratio = S.thm24_max_delta(eps, 7) / (eps**2 / 7)
    return bool(np.all((ratio >= 0.9) & (ratio <= 1)))


# --- Remark 1 -------------------------------------------------------------------------------------------


def _remark1_sd_parameter():
    """ε_SD of the random-index mechanism with n = 4 (the largest TV between neighbours)."""
    return float(S.random_index_mechanism(4).delta(0.0))


def _remark1_not_semantic():
    """For ε, δ < 1 there is a belief (i.i.d. records, Pr[x_j = 1] = p ∈ (ε, 1)) with semantic δ at ε equal
    to 1 > δ (n = 3; transcripts impossible in Game j count as breaches)."""
    mech = S.random_index_mechanism(3)
    for eps in (0.1, 0.5, 0.9, 0.99):
        p = (1 + eps) / 2
        b = np.array([np.prod([p if v else 1 - p for v in d]) for d in mech.databases])
        if S.semantic_delta(mech, b, eps) < 1 - 1e-12:
            return False
    return True


def _remark1_mutual_information():
    """I(A(x); x_i) in bits for i.i.d. uniform records, n = 4 (the 'small mutual information' variant)."""
    n = 4
    mech = S.random_index_mechanism(n)
    b = np.full(2**n, 2.0**-n)
    joint = np.zeros((2, len(mech.outputs)))
    for k, d in enumerate(mech.databases):
        joint[d[0]] += b[k] * mech.matrix[k]
    px, pt = joint.sum(1, keepdims=True), joint.sum(0, keepdims=True)
    mask = joint > 0
    return float((joint[mask] * np.log2(joint[mask] / (px @ pt)[mask])).sum())


def _eq5_hypothesis_test():
    """Equation (5): power − level ≤ ε_SD for tests of x_i on the random-index mechanism, n = 4: the best
    test's advantage is the TV between outputs given x_1 = 0 and x_1 = 1 (i.i.d. uniform records)."""
    n = 4
    mech = S.random_index_mechanism(n)
    rows = [np.mean([mech.matrix[k] for k, d in enumerate(mech.databases) if d[0] == v], axis=0) for v in (0, 1)]
    return total_variation(rows[0], rows[1])


def _eq4_informative():
    """Equation (4) as printed, 1 − β ≤ e^{εα}: can its right side ever be below 1 (rule anything out)?"""
    eps, alpha = np.meshgrid(np.linspace(0, 5, 50), np.linspace(0, 1, 50))
    return bool(np.any(np.exp(eps * alpha) < 1))


# --- Lemma 3.3 ------------------------------------------------------------------------------------------


def _lemma33_part1():
    return all(
        smallest_delta(p, q, e) <= S.pointwise_delta(p, q, e) + 1e-12 for p, q in _random_pairs() for e in (0.05, 0.5)
    )


def _lemma33_part2_as_printed():
    """Part 2 as printed: (ε, δ) ⇒ point-wise (ε, 2δ/(1 − e^{−ε})), on random pairs and a two-point pair."""
    eps = 0.1
    p = np.array([0.5, 0.5])
    q = np.array([0.5 / (math.exp(eps) * 1.001), 0.0])
    q[1] = 1 - q[0]
    pairs = _random_pairs() + [(p, q)]
    return all(S.pointwise_delta(p, q, eps) <= 2 * smallest_delta(p, q, eps) / -math.expm1(-eps) + 1e-12 for p, q in pairs)


def _lemma33_part2_as_proved():
    """What the proof shows: (ε, δ) ⇒ point-wise (2ε, 2δ/(1 − e^{−ε}))."""
    return all(
        S.pointwise_delta(p, q, 2 * e) <= 2 * smallest_delta(p, q, e) / -math.expm1(-e) + 1e-12
        for p, q in _random_pairs()
        for e in (0.05, 0.3, 1.0)
    )


def _lemma33_eq7_eq8():
    """Equations (7)–(8): δ/(e^{2ε} − e^ε) ≤ δ/(1 − e^{−ε}), and 2·(8) = δ·2e^ε/(e^ε − 1)."""
    eps = EPS_GRID
    eq7, eq8 = 1 / (np.exp(2 * eps) - np.exp(eps)), 1 / -np.expm1(-eps)
    return bool(np.all(eq7 <= eq8) and np.allclose(2 * eq8, 2 * np.exp(eps) / np.expm1(eps)))


def _lemma33_parts_3_4():
    """Parts 3 and 4 on random channels A, A′ over a random X (4 values, 3 outputs), ε = 0.2."""
    rng = np.random.default_rng(2)
    eps = 0.2
    for _ in range(200):
        px = rng.dirichlet(np.ones(4))
        A, B = rng.dirichlet(np.full(3, 1.5), size=(2, 4))
        per_a = np.array([smallest_delta(A[a], B[a], eps) for a in range(4)])
        joint = smallest_delta((px[:, None] * A).ravel(), (px[:, None] * B).ravel(), eps)
        for thr in np.unique(per_a):
            if joint > thr + px[per_a > thr].sum() + 1e-12:
                return False
    return True


def _lemma33_part5():
    return all(
        total_variation(p, q) <= S.max_sd_bound(e, smallest_delta(p, q, e)) + 1e-12
        for p, q in _random_pairs()
        for e in (0.05, 0.5, 2.0)
    )


def _lemma33_part5_slack():
    """Ratio of the tight SD bound (e^ε − 1 + 2δ)/(e^ε + 1) to Part 5's e^ε − 1 + δ at ε = 1, δ = 0.01."""
    return float(S.tight_max_sd(1.0, 0.01) / S.max_sd_bound(1.0, 0.01))


def _footnote3_postprocessing():
    """Point-wise indistinguishability is not closed under post-processing: merging two outcomes raises
    the point-wise δ at ε = 0.2 from 0.03 to 0.39."""
    X = np.array([0.36, 0.03, 0.61])
    Y = np.array([0.30, 0.00, 0.70])
    merge = lambda v: np.array([v[0] + v[1], v[2]])  # noqa: E731
    return S.pointwise_delta(merge(X), merge(Y), 0.2) > S.pointwise_delta(X, Y, 0.2)


# --- Lemma 3.4 ------------------------------------------------------------------------------------------


def _lemma34_printed_formula():
    """The statement's δ″ = 2δ̂/δ̂ + 2δ̂/(1 − e^{−ε̂}) at ε = 0.1, δ = 1e-4, δ̂ = 0.01 (printed formula)."""
    eps, delta_hat = 0.1, 0.01
    return 2 * delta_hat / delta_hat + 2 * delta_hat / -math.expm1(-3 * eps)


def _lemma34_proved_formula():
    """The proof's δ″ = 2δ/δ̂ + 2δ/(1 − e^{−ε}) at the same point."""
    return float(S.conditioning_delta(0.1, 1e-4, 0.01))


def _lemma34_holds():
    """The Conditioning Lemma (with the proof's δ″) on random joint distributions (A, B) ≈ (A′, B′)."""
    rng = np.random.default_rng(3)
    for _ in range(150):
        P = rng.dirichlet(np.ones(12)).reshape(3, 4)
        Q = P * np.exp(rng.normal(scale=0.15, size=P.shape))
        Q /= Q.sum()
        eps = float(rng.choice([0.05, 0.1, 0.3]))
        delta = float(smallest_delta(P.ravel(), Q.ravel(), eps))
        for delta_hat in (0.005, 0.02, 0.1):
            bound = S.conditioning_delta(eps, delta, delta_hat)
            if max(S.conditioning_bad_mass(P, Q, 3 * eps, delta_hat)) > bound + 1e-12:
                return False
    return True


def _lemma34_sqrt_delta():
    """'δ̂ = δ″ = O(√δ) for constant ε': δ″(δ̂ = √δ)/√δ at ε = 0.5, δ = 1e-12 (tends to 2)."""
    delta = 1e-12
    return float(S.conditioning_delta(0.5, delta, math.sqrt(delta)) / math.sqrt(delta))


# --- Theorem 4.2 and Corollary 4.4 ------------------------------------------------------------------------


def _thm42_condition_suffices():
    """Does Theorem 4.2's condition ε > √(nδ₂) give the proof's step 2δ₂/(1 − e^{−ε}) ≤ 2√(δ₂/n)?
    Test at ε = 0.2, n = 10, √(nδ₂) = 0.19 (between 1 − e^{−0.2} = 0.181 and 0.2)."""
    eps, n, root = 0.2, 10, 0.19
    delta2 = root**2 / n
    return 2 * delta2 / -math.expm1(-eps) <= 2 * math.sqrt(delta2 / n)


def _median_setup(eps=0.5):
    """Corollary 4.4's concrete case: median of 3 records in {0,1,2,3,4}, s = 1, i.i.d. records that
    are 2 with probability 0.9 and 1 or 3 with probability 0.05 each."""
    k, n, s = 4, 3, 1
    mech = S.median_mechanism(n, k, eps, s)
    probs = np.array([0.0, 0.05, 0.9, 0.05, 0.0])
    belief = np.array([np.prod(probs[list(d)]) for d in mech.databases])
    ls = S.local_sensitivity(lambda x: float(np.median(x)), mech.databases, range(k + 1))
    delta1 = float(belief[ls > s].sum())
    return mech, belief, delta1, n


def _cor44_holds():
    """Corollary 4.4 on the median mechanism: local semantic δ at ε′ is ≤ δ′ = 4√(nδ₁)."""
    eps = 0.5
    mech, belief, delta1, n = _median_setup(eps)
    e1, d1 = S.thm42_parameters(eps, 0.0, delta1, n)
    return S.semantic_delta(mech, belief, e1) <= d1


# --- Appendix B, Theorem A.2 --------------------------------------------------------------------------------


def _a2_calibration_dp():
    """σ² = log(1/δ)/ε² gives (ε, δ)-DP: checked with the exact Gaussian profile at ε = 0.5, δ = 1e-5."""
    eps, delta = 0.5, 1e-5
    return gaussian_delta(eps, S.paper_gaussian_sigma(eps, delta)) <= delta


def a2_calibration_threshold(eps):
    """The δ below which σ² = log(1/δ)/ε² stops giving (ε, δ)-DP (exact Gaussian profile): scanning δ
    downwards from ½, the first crossing from 'holds' to 'fails', refined by root finding."""
    f = lambda ld: math.log(max(gaussian_delta(eps, S.paper_gaussian_sigma(eps, math.exp(ld))), 1e-300)) - ld  # noqa: E731
    grid = np.linspace(math.log(0.5), -69.0, 400)
    vals = np.array([f(ld) for ld in grid])
    cross = np.flatnonzero((vals[:-1] <= 0) & (vals[1:] > 0))
    if cross.size == 0:
        raise ValueError(f"sigma^2 = log(1/delta)/eps^2 is never (eps, delta)-DP on the grid (got eps={eps})")
    k = int(cross[-1])
    return math.exp(brentq(f, grid[k + 1], grid[k], xtol=1e-12))


def _a2_ratio_printed():
    """Printed ratio exp((−2n + 1)/(2σ)) at n = 10, σ = 2."""
    return math.exp((-2 * 10 + 1) / (2 * 2))


def _a2_ratio_computed():
    """Pr[A(0ⁿ) = n]/Pr[A((1,0ⁿ⁻¹)) = n] with Gaussian densities N(0, σ²), N(1, σ²) at n = 10, σ = 2."""
    n, sigma = 10, 2.0
    return math.exp(-(n**2) / (2 * sigma**2) + (n - 1) ** 2 / (2 * sigma**2))


def _a2_counterexample():
    """Reality-oblivious δ′ at ε′ = 0.25 when the real database is 1ⁿ, n = 1000, σ from ε = 0.5, δ = 1e-5;
    while in the believed world (x ~ b) the transcripts with SD > 0.25 have small probability."""
    sigma = S.paper_gaussian_sigma(0.5, 1e-5)
    return S.dwork_mcsherry_delta(1000, sigma, 0.25)


def _a2_no_update_in_game1():
    """In Game 1 both believed databases become 0ⁿ, so b̄₁ = prior: checked with a binned Gaussian."""
    n, sigma = 3, 1.0
    edges = np.linspace(-8, 11, 381)
    from scipy.stats import norm

    dbs = list(itertools.product((0, 1), repeat=n))
    rows = [np.diff(norm.cdf(edges, loc=sum(d), scale=sigma)) for d in dbs]
    rows = [np.append(r, 1 - r.sum()) for r in rows]
    mech = FiniteMechanism(np.array(rows), dbs, list(range(len(edges))))
    belief = {(0, 0, 0): 0.5, (1, 0, 0): 0.5}
    g = S.games(mech, belief, int(np.searchsorted(edges, 3.0)) - 1)
    return bool(np.allclose(g.posteriors[1][[0, 4]], [0.5, 0.5]) and g.sd[0] > 0.4)


def _claim(id_, where, statement, printed, compute, **kw):
    return Claim(id=f"ks-{id_}", paper="ks", where=where, statement=statement, printed=printed, compute=compute,
                 chapter=CHAPTER, **kw)


CLAIMS = [
    _claim("s2-eps-delta-to-zero-delta", "§2, after Definition 2.3",
           "Every (ε, δ)-DP algorithm is (0, δ + e^ε − 1)-DP", True, _eps_delta_implies_zero_delta),
    _claim("thm2.2-forward", "Theorem 2.2", "ε-DP implies (e^ε − 1)-semantic privacy", True, _thm22_forward_holds,
           note="Holds with room: the exact worst case over ε-DP mechanisms is tanh(ε/2), attained by the "
                "two-sided geometric count for n ≥ 2."),
    _claim("s3.2-restatement", "Theorem 2.2 vs §3.2 'restated'",
           "The restatement (ε/2-DP ⇒ (e^ε − 1)-SP) is the same bound as Theorem 2.2 (ε-DP ⇒ (e^ε − 1)-SP)",
           True, _thm22_statement_equals_restatement, expected="discrepancy",
           note="The proof in §3.2 proves ε-DP ⇒ (e^{2ε} − 1)-SP, weaker than the statement by a factor 2 in ε. "
                "The statement is still true (tanh(ε/2) ≤ e^ε − 1), by the sharper two-point argument of the chapter."),
    _claim("thm2.2-converse", "Theorem 2.2", "For 0 < ε ≤ 0.45, ε/2-semantic privacy implies 3ε-DP", True,
           _thm22_converse_holds,
           note="True with room: s-SP implies exactly (4 artanh s)-DP (randomized response attains it), and "
                "4 artanh(ε/2) ≤ 3ε up to ε ≈ 1.717."),
    _claim("s3.2-eps-sp-3eps-dp", "§3.2, proof of Theorem 2.2",
           "ε-semantic privacy implies 3ε-DP", True, _sec32_eps_sp_gives_3eps_dp, expected="discrepancy",
           note="Randomized response with ε₀ is tanh(ε₀/4)-semantically private and exactly ε₀-DP; "
                "ε₀ = 4 artanh(s) > 3s for every s > 0. The proof's posterior window ½ ± ε should be ½ ± ε/2 "
                "(the theorem assumes ε/2-SP)."),
    _claim("eq6", "§3.2, equation (6)", "(½ + ε)/(½ − ε) ≤ e^{3ε} since ε ≤ 0.45", True, _eq6_holds,
           expected="discrepancy",
           note="log((½+ε)/(½−ε)) = 2 artanh(2ε) ≥ 4ε > 3ε for every ε > 0, so the inequality never holds. "
                "With the window ½ ± ε/2 that the theorem's hypothesis gives, (1+ε)/(1−ε) ≤ e^{3ε} holds "
                "for ε ≤ 0.8586; read as 'ε-SP ⇒ 6ε-DP' it holds for ε ≤ 0.4293, just below 0.45."),
    _claim("eq6-corrected-range", "§3.2, equation (6), range ε ≤ 0.45",
           "Largest ε for which the corrected step (½ + ε/2)/(½ − ε/2) ≤ e^{3ε} holds (paper: 0.45)",
           0.45, _eq6_corrected_range, atol=0.005, expected="discrepancy",
           note="0.45 is sufficient, not the threshold: the corrected step holds up to ε = 0.8586. The other "
                "reading (½ ± ε with e^{6ε}) has threshold 0.4293 < 0.45, so 0.45 matches neither exactly."),
    _claim("eq6-six-eps-range", "§3.2, equation (6), range ε ≤ 0.45",
           "Largest ε with (½ + ε)/(½ − ε) ≤ e^{6ε} (the reading ε-SP ⇒ 6ε-DP; paper's range 0.45)",
           0.45, _eq6_six_eps_range, atol=0.005, expected="discrepancy",
           note="At ε = 0.45 the ratio is 19 > e^{2.7} ≈ 14.9: under this reading the printed range is too wide."),
    _claim("thm2.4-1-condition", "Theorem 2.4 (1) and its proof",
           "If δ < (1 − e^{−ε})²/n then 1 − e^{−ε} > √(nδ) and δ″ ≤ 4√(δ/n)", True, _thm24_condition_gives_delta2),
    _claim("thm2.4-1-last-line", "§3.4, proof of Theorem 2.4 (1), last line",
           "e^{3ε̂} − 1 + δ̂ = ε′ (difference, at ε = 0.1, n = 100, δ = 1e-6)", 0.0, _thm24_last_line,
           atol=1e-9, expected="discrepancy",
           note="Slip: Lemma 3.3 (5) gives SD ≤ e^{ε̂} − 1 + δ̂ = e^{3ε} − 1 + √(nδ), which is below the stated "
                "ε′ = e^{3ε} − 1 + 2√(nδ); the theorem holds, its ε′ is looser than the proof needs."),
    _claim("thm2.4-1-leaky-count", "Theorem 2.4 (1)",
           "(ε, δ)-DP implies (e^{3ε} − 1 + 2√(nδ), 4√(nδ))-semantic privacy (leaky counts)", True,
           _thm24_forward_on_leaky_count,
           note="Belief search gives a lower bound on the worst δ; measured values are ≈ δ, far below 4√(nδ)."),
    _claim("thm2.4-2", "Theorem 2.4 (2)", "For ε ≤ 0.45, (ε, δ)-semantic privacy implies (3ε, 2δ)-DP", True,
           _thm24_converse_holds, expected="discrepancy",
           note="Counterexample: randomized response on one record with ε₀ = 0.8 is (0.197, 0)-SP, hence "
                "(0.197, 0.01)-SP, but needs δ = 0.130 > 0.02 at 3·0.197. Same slip as equation (6): the "
                "proof gives (2 artanh(2ε), 2δ)-DP; stated for (ε/2, δ)-SP, as in Theorem 2.2, it holds."),
    _claim("intro-delta-eps2-n", "Abstract/§1 and Theorem 2.4",
           "δ smaller than about ε²/n: (1 − e^{−ε})²/n is within 10% of ε²/n for ε ≤ 0.1", True,
           _delta_about_eps2_over_n),
    _claim("rem1-eps-sd", "Remark 1", "The random-index mechanism satisfies (3) with ε_SD = 1/n (n = 4)", 0.25,
           _remark1_sd_parameter, atol=1e-12),
    _claim("rem1-not-semantic", "Remark 1",
           "The random-index mechanism is not (ε, δ)-semantically private for any ε < 1, δ < 1", True,
           _remark1_not_semantic,
           note="With the convention that a transcript impossible in Game j is a breach (SD = 1). Counting only "
                "transcripts where every posterior exists, it fails whenever ε + δ < 1."),
    _claim("rem1-mutual-information", "Remark 1",
           "Mutual information between A(x) and x_i is small: H(x_i)/n bits (uniform records, n = 4)", 0.25,
           _remark1_mutual_information, atol=1e-12),
    _claim("eq5", "§2.1, equation (5)", "1 − β ≤ α + ε_SD for the random-index mechanism (advantage, n = 4)",
           0.25, _eq5_hypothesis_test, atol=1e-12),
    _claim("eq4", "§2.1, equation (4)", "1 − β ≤ e^{εα} constrains a test (its right side can fall below 1)",
           True, _eq4_informative, expected="discrepancy",
           note="e^{εα} ≥ 1 for all ε, α ≥ 0, so (4) as printed is vacuous; Wasserman & Zhou's bound reads "
                "1 − β ≤ e^ε α (the exponent has swallowed the factor α)."),
    _claim("lem3.3-1", "Lemma 3.3 (1)", "Point-wise (ε, δ) ⇒ (ε, δ)-indistinguishable", True, _lemma33_part1),
    _claim("lem3.3-2-printed", "Lemma 3.3 (2)", "(ε, δ) ⇒ point-wise (ε, 2δ/(1 − e^{−ε}))", True,
           _lemma33_part2_as_printed, expected="discrepancy",
           note="False as printed: p = (½, ½) and q just beyond ratio e^ε at one point have tiny δ but point-wise "
                "δ ≥ ½. The proof in Appendix A (and its use in Lemma 3.4) has 2ε: point-wise (2ε, 2δ/(1 − e^{−ε}))."),
    _claim("lem3.3-2-proved", "Lemma 3.3 (2), Appendix A", "(ε, δ) ⇒ point-wise (2ε, 2δ/(1 − e^{−ε}))", True,
           _lemma33_part2_as_proved),
    _claim("lem3.3-eq7-eq8", "Appendix A, equations (7)–(8)",
           "Bound (8) exceeds (7), and twice (8) is δ·2e^ε/(e^ε − 1)", True, _lemma33_eq7_eq8),
    _claim("lem3.3-3-4", "Lemma 3.3 (3) and (4)",
           "(X, A(X)) ≈ (X, A′(X)) with (ε, δ), and with (ε, δ + δ₁) when a δ₁-fraction of a fails", True,
           _lemma33_parts_3_4),
    _claim("lem3.3-5", "Lemma 3.3 (5)", "(ε, δ)-indistinguishable ⇒ SD ≤ e^ε − 1 + δ", True, _lemma33_part5,
           note="The proof's sum Σ_c(… + δ) counts δ once per outcome; the bound holds all the same. The exact "
                "maximum is (e^ε − 1 + 2δ)/(e^ε + 1)."),
    _claim("fn3-postprocessing", "§3.3, footnote 3",
           "Point-wise indistinguishability is not closed under post-processing", True, _footnote3_postprocessing),
    _claim("lem3.4-printed-delta2", "Lemma 3.4 statement",
           "δ″ = 2δ̂/δ̂ + 2δ̂/(1 − e^{−ε̂}) (value at ε = 0.1, δ = 1e-4, δ̂ = 0.01), against the proof's δ″",
           _lemma34_printed_formula(), _lemma34_proved_formula, rtol=1e-9, expected="discrepancy",
           note="Typo in the statement: the proof derives δ″ = 2δ/δ̂ + 2δ/(1 − e^{−ε}); the printed expression "
                "is ≥ 2 and would make the lemma vacuous."),
    _claim("lem3.4-holds", "Lemma 3.4 (Conditioning Lemma)",
           "A|_{B=t} ≈ A′|_{B′=t} with (3ε, δ̂) except on mass ≤ 2δ/δ̂ + 2δ/(1 − e^{−ε})", True, _lemma34_holds),
    _claim("lem3.4-sqrt-delta", "§3.3, after Lemma 3.4", "δ̂ = δ″ = O(√δ): δ″/√δ with δ̂ = √δ tends to 2",
           2.0, _lemma34_sqrt_delta, atol=1e-5),
    _claim("thm4.2-condition", "Theorem 4.2 / Corollary 4.4",
           "The condition ε > √(nδ₂) suffices for the proof's step δ″ ≤ 4√(δ₂/n)", True,
           _thm42_condition_suffices, expected="discrepancy",
           note="The step needs 1 − e^{−ε} ≥ √(nδ₂) (Theorem 2.4's condition); ε > √(nδ₂) is weaker. At "
                "ε = 0.2, √(nδ₂) = 0.19 it fails; there δ′ = 4√(nδ₂) = 0.76 while the proof gives 0.78."),
    _claim("cor4.4-median", "Corollary 4.4",
           "Laplace-type noise at local sensitivity s gives (e^{3ε} − 1 + √(nδ₁), 4√(nδ₁))-local semantic privacy "
           "(median of 3 records, ε = 0.5)", True, _cor44_holds),
    _claim("a2-gaussian-calibration", "Appendix B, proof of Theorem A.2",
           "Gaussian noise with σ² = log(1/δ)/ε² is (ε, δ)-DP (ε = 0.5, δ = 1e-5)", True, _a2_calibration_dp,
           expected="discrepancy",
           note="The exact profile gives δ(0.5) = 1.68e-5 > 1e-5; the calibration holds only for δ above about "
                "3.9e-5 at ε = 0.5 (3.9e-7 at ε = 0.1, 5.6e-4 at ε = 1). The standard calibration is σ = √(2 ln(1.25/δ))/ε."),
    _claim("a2-ratio", "Appendix B, proof of Theorem A.2",
           "Pr[A = n | 0ⁿ]/Pr[A = n | (1,0ⁿ⁻¹)] = exp((−2n + 1)/(2σ)) (n = 10, σ = 2)", _a2_ratio_printed(),
           _a2_ratio_computed, rtol=1e-9, expected="discrepancy",
           note="With variance σ² the density ratio is exp((−2n + 1)/(2σ²)); the printed 2σ treats σ as the "
                "variance. The conclusion (exponentially small in n) is unaffected."),
    _claim("a2-counterexample", "Theorem A.2",
           "(ε, δ)-DP gives no reality-oblivious semantic privacy: δ′ at ε′ = 0.25 when x = 1ⁿ (n = 1000)",
           1.0, _a2_counterexample, atol=1e-6),
    _claim("a2-game1-no-update", "Appendix B, proof of Theorem A.2",
           "On x₋₁ no update occurs: b̄₁ stays uniform while b̄₀ moves", True, _a2_no_update_in_game1),
]
