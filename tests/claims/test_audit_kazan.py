"""An independent audit of the disclosure-risk chapter (Kazan et al.), as a hostile referee would run it.

Nothing here imports ``dpsemantics``: every quantity is recomputed from the paper's formulas with numpy, scipy,
mpmath and fractions, so that a bug shared by the package and the chapter cannot hide.  Each test names the
sentence of the chapter (or the registry claim) it audits.

The tests whose names mention the registry (or that say "Join") import ``dpsemantics.claims`` only after their
independent computation, to read the registry's claim by ``claims.get(id)`` and require it to agree: a change
on either side is caught.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from scipy import integrate, stats
from scipy.special import comb, expit


def logit(p):
    return math.log(p) - math.log1p(-p)


def eps_prime(eps, delta, dp):
    """Theorem 3.9: ε′ = log(δ′e^ε + δ) − log(δ′ − δ)."""
    return math.log(dp * math.exp(eps) + delta) - math.log(dp - delta)


def hockey(p, q, eps):
    p, q = np.asarray(p, float), np.asarray(q, float)
    return max(np.maximum(p - math.exp(eps) * q, 0).sum(), np.maximum(q - math.exp(eps) * p, 0).sum())


def losses(p, q):
    with np.errstate(divide="ignore"):
        return np.log(np.asarray(p, float)) - np.log(np.asarray(q, float))


def pdp_delta(p, q, eps):
    z = losses(p, q)
    out = np.abs(z) > eps
    return max(np.asarray(p)[out].sum(), np.asarray(q)[out].sum())


def diff_leave(p, q, eps, priors):
    """sup over priors of max over hypotheses of P[|X − prior| > tanh(ε/4)] (X by Bayes' rule)."""
    p, q = np.asarray(p, float), np.asarray(q, float)
    b = math.tanh(eps / 4)
    worst = 0.0
    for pr in priors:
        x = pr * p / (pr * p + (1 - pr) * q)
        out = np.abs(x - pr) > b * (1 + 1e-12)
        worst = max(worst, p[out].sum(), q[out].sum())
    return worst


PRIORS = np.unique(np.concatenate([np.logspace(-12, -1, 300), np.linspace(0.1, 0.9, 2001),
                                   1 - np.logspace(-12, -1, 300)]))


def with_worst_priors(eps):
    return np.unique(np.concatenate([PRIORS, [expit(-eps / 2), expit(eps / 2), 0.5]]))


# ------------------------------------------------------------------ Theorem 3.9, Zhao, the four-output pair


@pytest.mark.parametrize("eps,delta,dp", [(1.0, 1e-6, 0.01), (0.1, 1e-3, 0.05), (3.0, 0.01, 0.3)])
def test_theorem_39_matches_zhao_in_50_digits(eps, delta, dp):
    with mp.workdps(50):
        e, d, dpp = mp.mpf(eps), mp.mpf(delta), mp.mpf(dp)
        ep = mp.log(dpp * mp.exp(e) + d) - mp.log(dpp - d)
        zhao = d * (1 + mp.exp(-ep)) / (1 - mp.exp(e - ep))
        assert abs(zhao - dpp) < mp.mpf(10) ** -40
        assert ep > e


@pytest.mark.parametrize("eps,delta,dp", [(1.0, 1e-6, 0.01), (0.5, 1e-3, 0.05)])
def test_four_output_pair_attains_theorem_39(eps, delta, dp):
    """The chapter: 'Theorem 3.9 cannot be improved' — a four-output (ε, δ)-DP pair with P[|Z| > ε′] → δ′."""
    ep0 = eps_prime(eps, delta, dp)
    for r, tol in [(1e-4, 1e-3), (1e-8, 1e-6)]:
        ep = ep0 + r * (ep0 - eps)  # η relative to the gap ε′ − ε, which is what a depends on
        a = delta / -math.expm1(eps - ep)
        c = (1 - a * (1 + math.exp(-ep))) / (1 + math.exp(-eps))
        p = np.array([a, a * math.exp(-ep), c, c * math.exp(-eps)])
        q = p[[1, 0, 3, 2]]
        assert abs(p.sum() - 1) < 1e-12 and abs(q.sum() - 1) < 1e-12
        assert hockey(p, q, eps) <= delta * (1 + 1e-9)
        got = pdp_delta(p, q, ep0)
        assert got <= dp and got > dp * (1 - tol)


def test_random_dp_pairs_never_beat_theorem_39():
    rng = np.random.default_rng(11)
    for _ in range(300):
        m = rng.integers(2, 6)
        p = rng.dirichlet(np.ones(m) * 0.5)
        q = rng.dirichlet(np.ones(m) * 0.5)
        for eps in (0.5, 1.0):
            d = hockey(p, q, eps)
            if not 0 < d < 0.3:
                continue
            for dp in (1.5 * d, 3 * d):
                if dp < 1:
                    assert pdp_delta(p, q, eps_prime(eps, d, dp)) <= dp * (1 + 1e-9)


# ------------------------------------------------------------------ Theorem 3.5(2), Corollary 3.12(1), Theorem 3.3


@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0])
def test_theorem_35_2_constant_is_one_plus_exp_minus_eps(eps):
    """The chapter: the 2δ of Theorem 3.5(2) is reached only as (1 + e^{−ε})δ.  Construction: P-mass δ at loss
    just above ε, P-mass δe^{−ε−η} at loss just below −ε, the rest at loss 0."""
    delta, eta = 1e-3, 1e-7
    z1, z2 = eps + eta, -(eps + eta)
    u1, u2 = delta, delta * math.exp(z2)
    q1, q2 = u1 * math.exp(-z1), u2 * math.exp(-z2)
    rest_p, rest_q = 1 - u1 - u2, 1 - q1 - q2
    # the rest must have loss 0: split it into two outputs with equal P and Q masses plus a balancing pair
    p = np.array([u1, u2, rest_p])
    q = np.array([q1, q2, rest_q])
    assert abs(rest_p - rest_q) < 1e-15 + 2 * delta  # near-balanced; use exact loss from the arrays below
    sup = diff_leave(p, q, eps, with_worst_priors(eps))
    assert sup <= delta * (1 + 1e-9)
    ratio = pdp_delta(p, q, eps) / sup
    assert ratio == pytest.approx(1 + math.exp(-eps), rel=1e-4)
    assert ratio < 2


def test_difference_condition_gives_eps_delta_dp():
    """The chapter: the conditions of Corollary 3.12(1) already give (ε, δ)-DP (hockey ≤ sup leave)."""
    rng = np.random.default_rng(5)
    for _ in range(150):
        m = rng.integers(2, 5)
        p = rng.dirichlet(np.ones(m) * 0.5)
        q = p * np.exp(-rng.uniform(-2, 2, m))
        q /= q.sum()
        for eps in (0.5, 1.0):
            assert hockey(p, q, eps) <= diff_leave(p, q, eps, with_worst_priors(eps)) + 1e-12


def test_ratio_converse_needs_priors_near_zero():
    """The chapter: with priors ≥ 0.01 only, the ratio condition holds for a pair whose loss is always outside
    [−1, 1] (PDP δ = 1)."""
    eps, z = 1.0, 1.003
    x = math.expm1(z) / (math.exp(z) - math.exp(-z))
    p = np.array([x, 1 - x])
    q = np.array([x * math.exp(-z), (1 - x) * math.exp(z)])
    assert abs(q.sum() - 1) < 1e-12 and pdp_delta(p, q, eps) == pytest.approx(1.0)
    for pr in np.linspace(0.01, 1, 500):
        for rows in (p, q):
            post = pr * p / (pr * p + (1 - pr) * q)
            r = post / pr
            assert np.all((r <= math.exp(eps) * (1 + 1e-12)) & (r >= math.exp(-eps) * (1 - 1e-12)))
    # and at a small enough prior the ratio leaves its bound with the whole mass on output 0
    pr = 1e-6
    post = pr * p[0] / (pr * p[0] + (1 - pr) * q[0])
    assert post / pr > math.exp(eps)


# The pair the linear program of kazan-thm3.3-reverse finds at ε = 1/2 (masses as the floats it returned): an output
# on the grid's loss −1/2 (Q = P·e^{1/2} in floats), a certain "leave" output at loss ≈ 7.3 and the rest at loss 0.
LP_BOUNDARY_PAIR = (("0x1.93d2089e20120p-10", "0x1.feb3048d1962ap-1", "0x1.0624dd2f1a9fcp-10"),
                    ("0x1.4ce4c81123590p-9", "0x1.feb3048d1962ap-1", "0x1.6aad57a079818p-21"))


def exp_bracket(x: Fraction, terms: int = 40):
    """Rational lo ≤ e^x ≤ hi for 0 ≤ x ≤ 1: the Taylor sum, and the sum plus twice the first omitted term."""
    lo = sum(x**n / math.factorial(n) for n in range(terms + 1))
    return lo, lo + 2 * x ** (terms + 1) / math.factorial(terms + 1)


def exact_ratio_leave(p, q, prior, e_lo, e_hi):
    """max(P(S), Q(S)) for S = {y: R ∉ [e^{−ε}, e^{ε}]}, R = P/(pP + (1 − p)Q) (Theorem 3.3, eq. (4)), in exact
    rationals; an output whose R lies within the bracket of e^{±ε} would be undecided: none is, asserted."""
    out_p, out_q = Fraction(0), Fraction(0)
    for a, b in zip(p, q):
        r = a / (prior * a + (1 - prior) * b)
        assert not (1 / e_hi <= r <= 1 / e_lo or e_lo <= r <= e_hi)
        if r < 1 / e_hi or r > e_hi:
            out_p, out_q = out_p + a, out_q + b
    return max(out_p, out_q)


def test_ratio_converse_lp_pair_leaves_only_below_prior_1e_16():
    """kazan-thm3.3-reverse at ε = 1/2: the LP pair's first output has Q/P above e^{1/2} by 9.27e-17 (its loss
    exceeds ε by 5.6e-17), so its PDP δ is 0.00254 > δ = 0.001 (Definition 2.4, exactly); yet the ratio leaves
    [e^{−1/2}, e^{1/2}] there only at priors below p* = (Q − e^{1/2}P)/(Q − P) = 1.43e-16.  At every prior of the
    claim's grid (≥ 1e-15) the leave probability is δ = 0.001: the pair meets the condition on the grid, not the
    theorem's hypothesis (every prior in (0, 1]); at p*/2 it leaves with 0.00254 = its PDP δ, so the theorem holds.
    Join: the registry's claim, which now also evaluates a prior below each pair's critical priors, is reproduced."""
    p, q = ([Fraction(float.fromhex(h)) for h in row] for row in LP_BOUNDARY_PAIR)
    lo, hi = exp_bracket(Fraction(1, 2))
    assert q[0] / p[0] > hi and q[0] / p[0] - hi > Fraction(9, 10**17)      # Q/P − e^{1/2} ≈ 9.274e-17
    pdp = max(p[0] + p[2], q[0] + q[2])                                       # outputs 0 and 2 have |Z| > 1/2
    assert q[1] == p[1] and p[2] / q[2] > hi and math.isclose(pdp, 0.002540452743512449, rel_tol=1e-15)
    p_star_lo, p_star_hi = (q[0] - hi * p[0]) / (q[0] - p[0]), (q[0] - lo * p[0]) / (q[0] - p[0])
    assert Fraction(142, 10**18) < p_star_lo <= p_star_hi < Fraction(144, 10**18)
    for prior in [Fraction(10) ** -15, Fraction(10) ** -10, Fraction(1, 100), Fraction(1, 2)]:
        assert exact_ratio_leave(p, q, prior, lo, hi) == p[2]                 # only output 2: P-mass 0.001
    assert exact_ratio_leave(p, q, Fraction(99, 100), lo, hi) == 0           # R ≤ 1/p < e^{1/2}: nothing leaves
    assert exact_ratio_leave(p, q, p_star_lo / 2, lo, hi) == pdp

    from dpsemantics import claims
    from dpsemantics.disclosure import pair_pdp_delta

    assert float(pair_pdp_delta([float(x) for x in p], [float(x) for x in q], 0.5)) >= float(pdp)
    result = claims.evaluate(claims.get("kazan-thm3.3-reverse"))
    assert result.status == "reproduced" and result.verdict.margin <= 1 + 1e-9, (result.status, result.verdict.worst)


def test_a6_counterexample():
    """Appendix A.6 (chapter): difference condition with δ for every prior, PDP δ = δ(1 + e^{−ε̃}) > δ."""
    eps, delta = 1.0, 0.01
    et = math.log(3 * math.exp(eps / 2) - 1) - math.log(3 - math.exp(eps / 2))
    qq = delta * (1 + math.exp(-et))
    keep = expit(et)
    p = np.array([1 - qq, qq * keep, qq * (1 - keep)])
    q = np.array([1 - qq, qq * (1 - keep), qq * keep])
    assert diff_leave(p, q, eps, with_worst_priors(eps)) <= delta * (1 + 1e-9)
    assert pdp_delta(p, q, eps) == pytest.approx(qq) and qq > delta


# ------------------------------------------------------------------ Theorem A.2, Theorem 2.7 (Gaussian)


def gaussian_delta(mu, eps):
    """Balle & Wang: δ(ε) of N(0,1) vs N(μ,1)."""
    return stats.norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * stats.norm.cdf(-eps / mu - mu / 2)


@pytest.mark.parametrize("mu,eps", [(0.5, 0.3), (1.0, 1.0), (2.0, 0.5)])
def test_theorem_a2_integral_for_gaussian(mu, eps):
    """Theorem A.2's ∫_ε^∞ e^{ε−z} P[Z > z] dz with Z ~ N(μ²/2, μ²) equals the Gaussian profile."""
    m, s = mu**2 / 2, mu
    val = integrate.quad(lambda z: math.exp(eps - z) * stats.norm.sf(z, m, s), eps, eps + 60 * s, limit=200)[0]
    assert val == pytest.approx(gaussian_delta(mu, eps), rel=1e-7)


def test_theorem_a2_by_events_with_fractions():
    """Exact rational check: the worst event's P(S) − e^ε Q(S) equals P[Z > ε] − e^ε Q[Z > ε] (ε = log 2)."""
    from itertools import product

    p = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)]
    q = [Fraction(1, 8), Fraction(1, 4), Fraction(1, 2), Fraction(1, 8)]
    e = Fraction(2)  # e^ε with ε = log 2
    by_events = max(sum(pi for pi, s in zip(p, S) if s) - e * sum(qi for qi, s in zip(q, S) if s)
                    for S in product((0, 1), repeat=4))
    formula = sum(pi for pi, qi in zip(p, q) if pi > e * qi) - e * sum(qi for pi, qi in zip(p, q) if pi > e * qi)
    assert by_events == formula == Fraction(1, 4)


@pytest.mark.parametrize("rho", [1e-3, 0.01, 0.1, 1.0])
@pytest.mark.parametrize("delta", [1e-9, 1e-5, 1e-2])
def test_theorem_27_against_exact_gaussian(rho, delta):
    eps = rho + 2 * math.sqrt(rho * math.log(1 / delta))
    assert gaussian_delta(math.sqrt(2 * rho), eps) <= delta


def zcdp_rho(p, q):
    """sup over α > 1 of D_α/α in both orders, on a fine α grid refined by a bounded scalar search."""
    from scipy.optimize import minimize_scalar
    from scipy.special import logsumexp

    def d_over_alpha(x, y, a):
        return logsumexp(a * np.log(x) + (1 - a) * np.log(y)) / ((a - 1) * a)

    best = 0.0
    for x, y in ((p, q), (q, p)):
        grid = 1 + np.logspace(-5, 5, 4000)
        vals = [d_over_alpha(x, y, a) for a in grid]
        i = int(np.argmax(vals))
        lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
        res = minimize_scalar(lambda a: -d_over_alpha(x, y, a), bounds=(lo, hi), method="bounded")
        best = max(best, vals[i], -res.fun)
    return best


# The issue's two-output pair (δ = 0.316) and the registry's optimised one (δ = 0.99): both close to Theorem 2.7's δ.
THM27_PAIRS = [((0.82, 0.18), (1 - 1.11e-6, 1.11e-6), 0.316, 0.3837),
               ((0.03988, 0.96012), (1 - 1e-250, 1e-250), 0.99, 0.9617)]


@pytest.mark.parametrize("p, q, delta, reached", THM27_PAIRS)
def test_theorem_27_two_output_pairs_come_close_to_delta(p, q, delta, reached):
    p, q = np.array(p), np.array(q)
    rho = zcdp_rho(p, q)
    ratio = hockey(p, q, rho + 2 * math.sqrt(rho * math.log(1 / delta))) / delta
    assert reached <= ratio <= 1  # holds, yet far from the Gaussian's fraction


def test_theorem_27_registry_margin_is_at_least_the_constructions():
    """Join: the registry's margin for kazan-thm2.7-zcdp-dp is no smaller than what the pairs above reach."""
    from dpsemantics import claims

    v = claims.evaluate(claims.get("kazan-thm2.7-zcdp-dp")).verdict
    reached = max(r for *_, r in THM27_PAIRS)
    assert reached <= v.margin <= 1 + 1e-9


@pytest.mark.parametrize("delta", [1e-6, 1e-3, 0.1, 0.5])
def test_theorem_27_supremum_is_delta_itself(delta):
    """Issue 35: P = (1 − cδ, cδ) against Q = (1 − b, b), b = e^{−L}, in logs.  ρ = sup_α D_α(P‖Q)/α (the order Q‖P
    gives at most log(1/(1 − cδ))) is (√L − √log(1/(cδ)))² to 10⁻⁸, and at c = 0.995, L = 10⁸ the hockey stick at
    ρ + 2√(ρ log 1/δ) is 0.995 of δ: Theorem 2.7's bound δ is its supremum.  Join: the registry states supremum 1 and
    reaches at least 0.99 of it."""
    from scipy.optimize import minimize_scalar

    c, L = 0.995, 1e8
    a, A = c * delta, math.log(1 / (c * delta))

    def d_over_alpha(alpha):
        log_moment = np.logaddexp(alpha * math.log1p(-a) + (1 - alpha) * math.log1p(-math.exp(-L)),
                                  alpha * math.log(a) + (alpha - 1) * L)
        return log_moment / ((alpha - 1) * alpha)

    guess = 1 / (1 - math.sqrt(A / L))
    res = minimize_scalar(lambda x: -d_over_alpha(x), bounds=(1 + (guess - 1) / 4, 1 + 4 * (guess - 1)),
                          method="bounded", options={"xatol": 1e-14})
    rho = max(-res.fun, math.log(1 / (1 - a)))
    assert rho == pytest.approx((math.sqrt(L) - math.sqrt(A)) ** 2, rel=1e-8)
    eps = rho + 2 * math.sqrt(rho * math.log(1 / delta))
    ratio = (a - math.exp(eps - L)) / delta
    assert 0.99 <= ratio <= 1
    from dpsemantics import claims

    v = claims.evaluate(claims.get("kazan-thm2.7-zcdp-dp")).verdict
    assert v.supremum == 1.0 and v.margin >= 0.99 and v.holds and "b → 0" in v.supremum_from


def test_corollary_312_2_supremum_is_approached_as_delta_prime_tends_to_delta():
    """Issue 35: Corollary 3.12(2)'s supremum over its domain is δ′ itself, not the 0.940 of a grid.  Theorem 3.9's
    tight pair, built here from its description (output A: P = a, Q = a e^{−ε′−η}; B its mirror; C, D with losses ±ε
    carrying the rest; a = δ/(1 − e^{ε−ε′−η})), is (ε, δ)-DP; at the prior 1/(1 + e^{ε′/2}) (Lemma 3.4) output A moves
    the posterior by more than tanh(ε′/4), so the difference bound leaves with probability a ≥ 0.9999 δ′ at ε = 2,
    δ = 10⁻³, δ′ = 1.0001δ (mpmath at 60 digits).  Join: the registry reaches it and states supremum 1."""
    import mpmath as mp

    mp.mp.dps = 60
    eps, delta = mp.mpf(2), mp.mpf("0.001")
    dp = mp.mpf("1.0001") * delta
    ep = mp.log(dp * mp.e ** eps + delta) - mp.log(dp - delta)
    eta = mp.mpf("1e-9") * (ep - eps)
    a = delta / (1 - mp.e ** (eps - ep - eta))
    x = (1 - a * (1 + mp.e ** (-ep - eta))) / (1 + mp.e ** (-eps))
    P = [a, a * mp.e ** (-ep - eta), x, x * mp.e ** (-eps)]
    Q = [a * mp.e ** (-ep - eta), a, x * mp.e ** (-eps), x]
    assert mp.fsum(P) == mp.fsum(Q) and abs(mp.fsum(P) - 1) < mp.mpf("1e-50")
    hockey = max(mp.fsum(max(u - mp.e ** eps * v, 0) for u, v in zip(P, Q)),
                 mp.fsum(max(v - mp.e ** eps * u, 0) for u, v in zip(P, Q)))
    assert abs(hockey - delta) < mp.mpf("1e-40")
    prior = 1 / (1 + mp.e ** (ep / 2))
    moved = [abs(prior * u / (prior * u + (1 - prior) * v) - prior) > mp.tanh(ep / 4) for u, v in zip(P, Q)]
    leave = mp.fsum(u for u, m in zip(P, moved) if m)
    assert moved == [True, False, False, False] and leave / dp >= mp.mpf("0.9999")
    assert leave / dp == pytest.approx(float(1 / (1 + mp.e ** (-ep))), rel=1e-7)
    from dpsemantics import claims

    v = claims.evaluate(claims.get("kazan-cor3.12-2")).verdict
    assert v.holds and v.supremum == 1.0 and v.margin >= float(leave / dp) * (1 - 1e-6)
    assert not claims.get("kazan-cor3.12-2").compute(tighten=0.999).holds


# ------------------------------------------------------------------ Figure 3 forensics


def advanced(eps0, k, delta):
    return k * eps0 * math.expm1(eps0) + eps0 * math.sqrt(2 * k * math.log(1 / delta))


def rr_kfold_delta(eps0, k, eps):
    """Exact δ(ε) of k-fold ε₀-randomized response (the optimal composition), both sides equal by symmetry."""
    j = np.arange(k + 1)
    pk = expit(eps0)
    logc = np.array([math.lgamma(k + 1) - math.lgamma(i + 1) - math.lgamma(k - i + 1) for i in j])
    lp = logc + (k - j) * math.log(pk) + j * math.log1p(-pk)
    z = eps0 * (k - 2 * j)
    return float(np.sum(np.where(z > eps, np.exp(lp) * -np.expm1(eps - z), 0.0)))


def optimal(eps0, k, delta):
    lo, hi = 0.0, k * eps0
    if rr_kfold_delta(eps0, k, 0.0) <= delta:
        return 0.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if rr_kfold_delta(eps0, k, mid) <= delta else (mid, hi)
    return hi


def test_figure_3_no_single_reading_gives_51_and_96():
    eps0, delta = 0.05, 1e-6
    adv50, adv51 = advanced(eps0, 50, delta), advanced(eps0, 51, delta)
    opt95, opt96 = optimal(eps0, 95, delta), optimal(eps0, 96, delta)
    assert adv50 == pytest.approx(1.98664, abs=1e-4) and adv51 == pytest.approx(2.00769, abs=1e-4)
    assert opt95 == pytest.approx(2.14476, abs=1e-4) and opt96 == pytest.approx(2.16668, abs=1e-4)
    assert adv51 < opt95  # the threshold intervals [adv50, adv51) and [opt95, opt96) are disjoint
    # and the latest optimal crossing compatible with 51 is well before 96
    k_latest = next(k for k in range(1, 151) if optimal(eps0, k, delta) >= adv51)
    assert k_latest < 96


def crossing(eps_of_k, delta, dp=0.05, level=0.8):
    for k in range(1, 151):
        ep = eps_prime(eps_of_k(k), delta, dp) if delta > 0 else eps_of_k(k)
        if expit(ep) > level:  # prior 1/2: posterior bound 1/(1 + e^{−ε′})
            return k
    return None


def test_figure_3_recomputed_crossings():
    assert crossing(lambda k: 0.05 * k, 0.0) == 28
    assert crossing(lambda k: advanced(0.05, k, 1e-6), 1e-6) == 26
    assert crossing(lambda k: advanced(0.05, k, 1e-3), 1e-3) == 45  # the registry note's corrected value


# ------------------------------------------------------------------ Example 4.2


def lattice_delta(eps0, k, ell, delta0):
    d_ell = sum(comb(k, j, exact=True) * (math.exp((k - j) * eps0) - math.exp((k - 2 * ell + j) * eps0))
                for j in range(ell)) / (1 + math.exp(eps0)) ** k
    return 1 - (1 - delta0) ** k * (1 - d_ell)


def lattice_max_eps0(eps_total, k, delta_total, delta0):
    def ok(e0):
        return any((k - 2 * ell) * e0 <= eps_total and lattice_delta(e0, k, ell, delta0) <= delta_total
                   for ell in range(k // 2 + 1))
    lo, hi = 0.0, eps_total
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def test_example_42_is_lattice_optimal_at_delta_prime():
    eps_p = 4 * math.atanh(0.2)
    eps_total = math.log(math.exp(eps_p) * (0.01 - 1e-6) - 1e-6) - math.log(0.01)  # Theorem 3.9 inverted
    assert eps_total == pytest.approx(0.8108, abs=1e-4)
    at_dp = lattice_max_eps0(eps_total, 12, 0.01, 1e-8)
    assert abs(at_dp - 0.135) <= 0.0005
    at_1e6 = lattice_max_eps0(eps_total, 12, 1e-6, 1e-8)
    assert at_1e6 < 0.07  # the example's own δ: barely above basic composition's 0.0676


# ------------------------------------------------------------------ facts stated in the chapter's prose


@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0, 8.0])
def test_tanh_difference_bound_and_worst_prior(eps):
    grid = np.linspace(0, 1, 400001)
    g = grid / (grid + (1 - grid) * math.exp(-eps)) - grid
    assert g.max() == pytest.approx(math.tanh(eps / 4), abs=1e-9)
    assert grid[np.argmax(g)] == pytest.approx(1 / (1 + math.exp(eps / 2)), abs=1e-5)


def test_eps_tilde_exists_only_below_2_log_3():
    lim = 2 * math.log(3)
    assert math.tanh(lim / 4) == pytest.approx(0.5)
    et = lambda e: math.log(3 * math.exp(e / 2) - 1) - math.log(3 - math.exp(e / 2))  # noqa: E731
    assert et(lim - 1e-9) > 20
    # ε̃ is the loss at which the prior-1/2 posterior moves by exactly tanh(ε/4)
    for e in (0.3, 1.0, 2.0):
        assert expit(et(e)) - 0.5 == pytest.approx(math.tanh(e / 4), rel=1e-12)


def test_ratio_at_half_never_exceeds_two():
    """Figure 6 paragraph: 'no prior can push the ratio at p = 1/2 above 2' (R = X/p ≤ 1/p)."""
    with mp.workdps(60):
        for ep in (1, 5, 50):
            assert mp.mpf(1) / (mp.mpf(1) / 2 + mp.exp(-ep) / 2) < 2


def test_example_11_bounds_are_rounded_on_the_unsafe_side():
    ep = eps_prime(0.1, 1e-7, 0.01)
    hi = expit(ep)
    lo = expit(-ep)
    assert hi > 0.52 and lo < 0.48  # printed 52% and 48% understate the bounds
    assert math.tanh(ep / 4) > 0.02  # printed 2 points understates 2.5
