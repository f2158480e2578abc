"""Evidence for the claims of Kazan et al. (paper 004): worst-case searches over finite neighbouring pairs.

These are the searches, linear programs and witness constructions that back the claims of
:mod:`dpsemantics.claims.kazan` and the chapter's worked checks; the mathematics they search over (a pair's
privacy losses, hockey-stick δ, PDP δ and the loss thresholds of Theorems 3.2, 3.3, 3.5) is in
:mod:`dpsemantics.disclosure`.

A neighbouring pair of a finite mechanism is two output distributions (P = law of M(x), target present;
Q = law of M(x_{-i}), target absent).  Every disclosure event of the paper is an event on the privacy loss
z(y) = log P(y)/Q(y) (Kazan et al., Theorem 3.1), so a pair is described by its outputs' losses.  The searches
below maximise the probability of an event over all pairs supported on a grid of losses: with the P-masses u_j
of outputs with loss z_j as variables (their Q-masses are u_j e^{−z_j}), plus one output impossible under Q
(z = +∞) and one impossible under P (z = −∞), every probability, every hockey-stick divergence and every PDP or
disclosure condition is linear, and the search is a linear program.

The module's last part holds the searches, linear programs, interval proofs and witnesses behind each claim of
:mod:`dpsemantics.claims.kazan`; the registry itself is data.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .. import conversions
from .. import disclosure as D
from ..privacy_loss import pair_losses
from .._validate import as_output, check_delta, check_epsilon, check_positive, check_positive_int, overflow_is_infinity
from dataclasses import replace
from functools import lru_cache
from ..indistinguishability import zcdp_rho, zcdp_rho_bracket
from ..mechanisms import leaky_randomized_response
from . import Verdict
from .certify import verdict_from

__all__ = [
    "leaves_mask",
    "pair_leave_probability",
    "critical_priors",
    "loss_grid",
    "PairProgram",
    "worst_pair",
    "random_pairs",
    "theorem39_tight_pair",
]


def leaves_mask(z, lo, hi):
    """Mask [prior, output]: the loss z leaves [lo, hi] (with a relative slack of 1e-12 for the end points).  No
    verdict reads it: the searches decide each loss exactly with :func:`~dpsemantics.disclosure.leaves`."""
    z = np.asarray(z, dtype=float)[None, :]
    lo = np.atleast_1d(lo)[:, None]
    hi = np.atleast_1d(hi)[:, None]
    with np.errstate(invalid="ignore"):
        up = (z > hi + 1e-12 * np.maximum(1.0, np.abs(np.where(np.isfinite(hi), hi, 0.0)))) & np.isfinite(hi)
        down = (z < lo - 1e-12 * np.maximum(1.0, np.abs(np.where(np.isfinite(lo), lo, 0.0)))) & np.isfinite(lo)
    return up | down


@overflow_is_infinity
def pair_leave_probability(row_present, row_absent, priors, eps, metric: str):
    """For each prior, the larger (over both hypotheses) probability that the adversary's posterior, ratio or
    difference leaves the bound of Theorem 3.2, 3.3 or 3.5 at level ε."""
    a = np.asarray(row_present, dtype=float)
    b = np.asarray(row_absent, dtype=float)
    mask = D.leaves(np.atleast_1d(priors), eps, metric, present=a, absent=b)  # each output's loss decided exactly
    return as_output(np.maximum(mask @ a, mask @ b))


def critical_priors(eps, metric: str, n: int = 400):
    """A prior grid for the condition "for every prior": log-spaced towards 0 and 1 (down to 1e-15), uniform in
    between, plus Lemma 3.4's extremal priors 1/(1 + e^{±ε/2}) and 1/2."""
    n = check_positive_int(n, "n", minimum=4, maximum=10**7)
    tail = np.logspace(-15, -1, n // 4)
    grid = np.concatenate([tail, np.linspace(0.1, 0.9, n // 2), 1 - tail, [0.5],
                           np.atleast_1d(D.worst_case_prior(eps))])
    return np.unique(np.clip(grid, 1e-15, 1 - 1e-15))


def loss_grid(points=(), zmax: float = 8.0, n: int = 161):
    """Losses for a search: a uniform grid on [−zmax, zmax] plus every point given and points just beyond it
    (relative 1e-9), where the worst cases of the theorems sit."""
    pts = np.abs(np.asarray(list(points), dtype=float))
    near = np.concatenate([pts, pts * (1 + 1e-9) + 1e-12, pts * (1 - 1e-9)])
    return np.unique(np.concatenate([np.linspace(-zmax, zmax, n), near, -near]))


@dataclass(frozen=True)
class PairProgram:
    """The linear program over pairs supported on the losses ``z`` (plus z = ±∞): see :func:`worst_pair`."""

    z: np.ndarray

    @property
    def losses(self):
        return np.concatenate([self.z, [np.inf, -np.inf]])

    def p_coef(self, mask):
        """Coefficients of P(event) in the variables (u_1, …, u_m, u_{+∞}, v_{−∞})."""
        m = np.asarray(mask, dtype=float)
        return np.concatenate([m[: self.z.size], [m[-2], 0.0]])

    def q_coef(self, mask):
        m = np.asarray(mask, dtype=float)
        return np.concatenate([m[: self.z.size] * np.exp(-self.z), [0.0, m[-1]]])

    def hockey_coefs(self, eps):
        """Coefficients of Σ max(0, P − e^ε Q) and of Σ max(0, Q − e^ε P)."""
        pq = np.concatenate([np.maximum(0.0, -np.expm1(eps - self.z)), [1.0, 0.0]])
        qp = np.concatenate([np.maximum(0.0, np.exp(-self.z) - math.exp(eps)), [0.0, 1.0]])
        return pq, qp

    def rows(self, x):
        """The pair (P, Q) of a solution."""
        m = self.z.size
        p = np.concatenate([x[:m], [x[m], 0.0]])
        q = np.concatenate([x[:m] * np.exp(-self.z), [0.0, x[m + 1]]])
        return np.clip(p, 0, None), np.clip(q, 0, None)


def worst_pair(z, objective, constraints):
    """Maximise a probability over all pairs whose losses lie on ``z`` (plus ±∞), by linear programming.

    ``objective`` is ``(side, coef)``: ``side`` ``"P"``/``"Q"`` and an event mask over ``PairProgram.losses``,
    or ``("hockey", eps)`` for the P-vs-Q hockey-stick divergence.  ``constraints`` is a list of
    ``(kind, arg, bound)``: ``("dp", eps, δ)`` both hockey-sticks ≤ δ; ``("pdp", eps, δ)`` P[|Z| > ε] and
    Q[|Z′| > ε] ≤ δ; ``(metric, (priors, eps), δ)`` the disclosure condition of Theorem 3.2/3.3/3.5 at every prior
    given, under both hypotheses.  Returns ``(value, (P, Q))``: the optimum and the maximising pair.
    """
    from scipy.optimize import linprog

    prog = PairProgram(np.asarray(z, dtype=float))
    losses = prog.losses
    a_ub, b_ub = [], []
    for kind, arg, bound in constraints:
        if kind == "dp":
            for c in prog.hockey_coefs(arg):
                a_ub.append(c)
                b_ub.append(bound)
        elif kind == "pdp":
            mask = np.abs(losses) > arg
            a_ub += [prog.p_coef(mask), prog.q_coef(mask)]
            b_ub += [bound, bound]
        elif kind in D.METRICS:
            priors, eps = arg
            for mask in D.leaves(np.atleast_1d(priors), eps, kind, z=losses):
                a_ub += [prog.p_coef(mask), prog.q_coef(mask)]
                b_ub += [bound, bound]
        else:
            raise ValueError(f"unknown constraint kind {kind!r}")
    side, arg = objective
    if side == "hockey":
        c = prog.hockey_coefs(arg)[0]
    elif side == "P":
        c = prog.p_coef(arg)
    elif side == "Q":
        c = prog.q_coef(arg)
    else:
        raise ValueError(f"objective side must be 'P', 'Q' or 'hockey' (got {side!r})")
    ones = np.ones(losses.size)
    a_eq = [prog.p_coef(ones), prog.q_coef(ones)]
    res = linprog(-c, A_ub=np.array(a_ub) if a_ub else None, b_ub=np.array(b_ub) if b_ub else None,
                  A_eq=np.array(a_eq), b_eq=[1.0, 1.0], bounds=(0, None), method="highs",
                  # both rows must be distributions to 1e-9 (the default 1e-7 feasibility leaves sums 1 ± 4e-7)
                  options={"primal_feasibility_tolerance": 1e-10})
    if res.status != 0:
        raise RuntimeError(f"the linear program failed: {res.message}")
    return float(-res.fun), prog.rows(res.x)


def random_pairs(n_pairs: int, seed: int, *, eps_scale: float = 1.0, max_outputs: int = 6):
    """Random neighbouring pairs drawn near the worst cases: 2–``max_outputs`` outputs, P from a sparse
    Dirichlet, Q = P·e^{−z} renormalised with losses z spread over ±2·``eps_scale``, and with probability 1/3
    an output that one side cannot produce (infinite loss)."""
    n_pairs = check_positive_int(n_pairs, "n_pairs", minimum=0, maximum=10**7)
    max_outputs = check_positive_int(max_outputs, "max_outputs", minimum=2, maximum=10**6)
    rng = np.random.default_rng(check_positive_int(seed, "seed", minimum=0))
    out = []
    for _ in range(n_pairs):
        m = int(rng.integers(2, max_outputs + 1))
        p = rng.dirichlet(np.full(m, 0.5))
        q = p * np.exp(-rng.uniform(-2 * eps_scale, 2 * eps_scale, m))
        q /= q.sum()
        if rng.random() < 1 / 3:
            tiny = rng.uniform(0, 0.05)
            p = np.concatenate([(1 - tiny) * p, [tiny]])
            q = np.concatenate([q, [0.0]])
        if rng.random() < 0.5:
            p, q = q, p
        out.append((p, q))
    return out


def theorem39_tight_pair(eps, delta, delta_prime, eta: float = 1e-9):
    """The four-output mechanism at which Theorem 3.9 is tight in the limit ``eta`` → 0.

    With ε′ of Theorem 3.9 and a = δ/(1 − e^{ε − ε′ − η}): output A has P = a, Q = a·e^{−ε′−η} (loss just above
    ε′), output B the mirror image (P = a·e^{−ε′−η}, Q = a), and outputs C, D with losses ±ε carry the rest.
    Both hockey-stick divergences at ε equal δ exactly, so the pair is (ε, δ)-DP, and
    P[|Z| > ε′] = a(1 + e^{−ε′−η}) → δ(1 + e^{−ε′})/(1 − e^{ε−ε′}) = δ′ (Zhao et al.'s form of ε′).
    Returns ``(P, Q)`` over (A, B, C, D).
    """
    eps = float(check_epsilon(eps, "eps", scalar=True))
    delta = float(check_delta(delta, "delta", open_low=True, scalar=True))
    delta_prime = float(check_delta(delta_prime, "delta_prime", open_low=True, scalar=True))
    if delta_prime <= delta:
        raise ValueError(f"delta_prime must exceed delta (got delta_prime={delta_prime!r}, delta={delta!r})")
    eta = float(check_positive(eta, "eta", scalar=True))
    if eps > 700.0:  # the outputs C, D carry c and c·e^{−ε}: past e^{−700} the second underflows
        raise ValueError(f"eps must be at most 700 for this construction (got eps={eps!r})")
    ep = float(conversions.pdp_epsilon(eps, delta, delta_prime)) + eta
    a = delta / -math.expm1(eps - ep)
    c = (1 - a * (1 + math.exp(-ep))) / (1 + math.exp(-eps))
    if c < 0:
        raise ValueError(f"delta_prime is too large for the construction (got delta_prime={delta_prime!r})")
    p = np.array([a, a * math.exp(-ep), c, c * math.exp(-eps)])
    return p, p[[1, 0, 3, 2]].copy()


# ---------------------------------------------------------------- the evidence of the kazan claims

# Example 4.1 (Figures 4, 5): ρ = 0.01 per day, δ′ = 0.01, prior 1/2.
RHO_DAY, DP_41 = 0.01, 0.01


# Figure 3: ε_j = 0.05, δ = 1e-6, δ′ = 0.05, prior 1/2, threshold 80%.
EPS0_FIG3, DELTA_FIG3, DP_FIG3 = 0.05, 1e-6, 0.05


# Example 4.3 / Figures 6, 7 (caption): ε = 1.8, δ = 1e-5, δ′ = 0.05.  §4.4 text: ε = 2, δ = 1e-6, δ′ = 0.01.
EX43 = (1.8, 1e-5, 0.05)


TEXT44 = (2.0, 1e-6, 0.01)


# Example 4.2: 12 monthly releases, δ = 1e-8 each, δ = 1e-6 in total, δ′ = 0.01, difference ≤ 20%.
EX42 = dict(k=12, delta0=1e-8, delta_total=1e-6, delta_prime=0.01, difference=0.2)


@lru_cache(maxsize=None)
def _zcdp_eps_prime(days: int) -> np.ndarray:
    return D.zcdp_eps_prime(RHO_DAY, np.arange(1, days + 1), DP_41)


def _post_41(day: int) -> float:
    return float(D.posterior_bounds(0.5, _zcdp_eps_prime(max(day, 210))[day - 1])[1])


def _diff_41(day: int) -> float:
    return float(D.difference_bound(_zcdp_eps_prime(max(day, 210))[day - 1]))


def _worst_41(day: int, which: int) -> float:
    """Worst-case increase of §4.2: from p = 1/(1 + e^{ε′/2}) to p + tanh(ε′/4)."""
    e = _zcdp_eps_prime(max(day, 210))[day - 1]
    p_up = float(D.worst_case_prior(e)[0])
    return p_up if which == 0 else p_up + float(D.difference_bound(e))


KS = np.arange(1, 151)


@lru_cache(maxsize=None)
def _eps_curve(method: str) -> np.ndarray:
    return D.composed_epsilon(EPS0_FIG3, KS, DELTA_FIG3, method)


@lru_cache(maxsize=None)
def _post_curve(method: str) -> np.ndarray:
    d = 0.0 if method == "basic" else DELTA_FIG3  # basic composition of pure mechanisms has δ = 0
    return D.posterior_bounds(0.5, conversions.pdp_epsilon(_eps_curve(method), d, DP_FIG3))[1]


def _fig3_threshold(method: str) -> int | None:
    return D.first_exceeding(_post_curve(method), 0.8)


@lru_cache(maxsize=None)
def _ex42():
    eps_prime = 4 * math.atanh(EX42["difference"])
    eps_total = float(D.dp_epsilon_for_pdp(eps_prime, EX42["delta_total"], EX42["delta_prime"]))
    per_opt = D.per_release_epsilon(eps_total, EX42["k"], EX42["delta_total"], EX42["delta0"], method="optimal")
    per_basic = float(D.epsilon_for_difference(EX42["difference"], 0.0, EX42["delta_prime"])) / EX42["k"]
    return eps_prime, eps_total, per_opt, per_basic


def _b43(prior):
    return D.approximate_bounds(*EX43, prior)


def _b44(prior):
    return D.approximate_bounds(*TEXT44, prior)


def _fig1_eps_prime(dp):
    return float(conversions.pdp_epsilon(1.0, 1e-6, dp))


def _fig6(prior):
    e = _b43(0.5).eps_prime
    return D.symmetric_ratio_bounds(prior, e)


def _fig7_max(params):
    e = D.approximate_bounds(*params, 0.5).eps_prime
    grid = np.linspace(1e-4, 1 - 1e-4, 9999)
    return float(np.max(D.symmetric_difference_bound(grid, e)))


def _a6(tighten=1.0):
    """Appendix A.6: for every prior (and both hypotheses) P[|D| > tanh(ε/4)] ≤ δ, yet P[|Z| > ε] > δ."""
    lhs, rhs, labels = [], [], []
    for eps, delta in ((1.0, 0.01), (0.5, 1e-3), (2.0, 0.05)):
        present, absent, _, q = D.counterexample_a6(eps, delta)
        leave = pair_leave_probability(present, absent, critical_priors(eps, "difference", 4000), eps, "difference")
        lhs += [float(leave.max()), delta]
        rhs += [delta, float(D.pair_pdp_delta(present, absent, eps))]
        labels += [f"eps={eps:g}, delta={delta:g}: difference condition",
                   f"eps={eps:g}, delta={delta:g}: delta < PDP delta"]
    return Verdict.of(lhs, rhs, evidence="extremal", tighten=tighten, labels=labels)


def _exa1_domain(tighten=1.0):
    """Example A.1 says 'Let ε, δ > 0' and defines ε̃ = log(3e^{ε/2} − 1) − log(3 − e^{ε/2}): it needs
    e^{ε/2} < 3 (lhs e^{ε/2}, rhs 3) on a grid of ε up to 4, and a mixing probability δ(1 + e^{−ε̃}) ≤ 1."""
    eps = np.linspace(0.05, 4.0, 80)
    return Verdict.of(np.exp(eps / 2), np.full(eps.size, 3.0), evidence="closed-form", tighten=tighten, labels=[f"eps={e:.3g}" for e in eps])


def _kfold(p, q, k):
    """The k-fold product pair, computed outcome by outcome (no formula of the theorem is used)."""
    pk, qk = p, q
    for _ in range(k - 1):
        pk, qk = np.kron(pk, p), np.kron(qk, q)
    return pk, qk


@lru_cache(maxsize=None)
def _thm28():
    """Theorem 2.8 on k-fold leaky randomized response, whose exact hockey stick is computed from the product pair:
    (1) at Σⱼ εⱼ it is ≤ Σⱼ δⱼ; (2) at the advanced ε (δ′ = 10⁻³, 10⁻²) it is ≤ kδ₀ + δ′; (3) at the optimal ε
    (pure case, δ = 10⁻³, 10⁻²) it is ≤ δ, and just below the optimal ε it exceeds δ (the optimum is attained:
    randomized response is the worst case)."""
    from .. import composition

    lhs, rhs, labels = [], [], []
    for eps0 in (0.1, 0.5, 1.0):
        for k in range(1, 7):
            for delta0 in (0.0, 1e-3):
                pk, qk = _kfold(*leaky_randomized_response(eps0, delta0).matrix, k)
                if delta0 > 0:
                    lhs.append(float(D.pair_hockey(pk, qk, k * eps0))), rhs.append(k * delta0)
                    labels.append(f"basic: k={k}, eps0={eps0}, delta0={delta0:g}")
                for dp in (1e-3, 1e-2):
                    e_adv = float(composition.advanced_epsilon(eps0, k, dp))
                    lhs.append(float(D.pair_hockey(pk, qk, e_adv))), rhs.append(k * delta0 + dp)
                    labels.append(f"advanced: k={k}, eps0={eps0}, delta0={delta0:g}, delta'={dp:g}")
                    if delta0 == 0:
                        e_opt = float(composition.optimal_epsilon(eps0, k, dp))
                        lhs.append(float(D.pair_hockey(pk, qk, e_opt))), rhs.append(dp)
                        labels.append(f"optimal: k={k}, eps0={eps0}, delta={dp:g}")
                        if e_opt > 1e-6:
                            lhs.append(dp), rhs.append(float(D.pair_hockey(pk, qk, e_opt * (1 - 1e-6))))
                            labels.append(f"optimal is least: k={k}, eps0={eps0}, delta={dp:g}, just below it")
    return lhs, rhs, labels


@lru_cache(maxsize=None)
def _thm31():
    """Theorem 3.1: the posterior by Bayes' rule on a finite pair (prior × likelihood, normalised) equals
    p/(p + (1 − p)e^{−z}) at the output's privacy loss z (target present) and p/(p + (1 − p)e^{z′}) at the reverse
    loss (target absent): both as two inequalities, on random pairs and priors."""
    lhs, rhs, labels = [], [], []
    rng = np.random.default_rng(31)
    for j, (p, q) in enumerate(_pairs()[:40]):
        for prior in (rng.uniform(0.01, 0.99), 0.5):
            bayes = prior * p / (prior * p + (1 - prior) * q)
            for present, z in ((True, pair_losses(p, q)), (False, pair_losses(q, p))):
                formula = np.asarray(D.posterior_from_privacy_loss(prior, z, target_present=present), dtype=float)
                ok = (p + q) > 0
                for a, b in ((bayes[ok], formula[ok]), (formula[ok], bayes[ok])):
                    lhs += list(a)
                    rhs += list(b * (1 + 1e-12))
                    labels += [f"pair {j}, prior {prior:.3g}, {'present' if present else 'absent'}, output {y}"
                               for y in np.flatnonzero(ok)]
    return lhs, rhs, labels


def _sublinear(tighten=1.0):
    adv = _eps_curve("advanced") / KS
    opt = _eps_curve("optimal") / KS
    lhs = list(adv[1:]) + list(opt) + [opt[149], opt[49]]
    rhs = list(adv[:-1]) + [0.05] * KS.size + [opt[49], opt[9]]
    labels = [f"advanced eps(k)/k at k={k + 1} vs k={k}" for k in KS[:-1]] \
        + [f"optimal eps(k)/k <= eps0 at k={k}" for k in KS] \
        + ["optimal eps/k: k=150 vs 50", "optimal eps/k: k=50 vs 10"]
    return Verdict.of(lhs, rhs, evidence="exhaustive", tighten=tighten, labels=labels)


def _slower(tighten=1.0):
    basic, opt = _post_curve("basic"), _post_curve("optimal")
    # opt ≤ basic + 1e-4 everywhere, and opt + 0.05 ≤ basic at k = 50
    lhs = list(opt) + [opt[49] + 0.05]
    rhs = list(basic + 1e-4) + [basic[49]]
    return Verdict.of(lhs, rhs, evidence="exhaustive", tighten=tighten, labels=[f"k={k}" for k in KS] + ["k=50, 5 points below"])


def _rr(e):
    keep = 1.0 / (1.0 + math.exp(-e))
    return np.array([keep, 1 - keep]), np.array([1 - keep, keep])


LEVELS = (0.5, 1.0, 2.0)   # ε levels at which the theorems are attacked (ε̃ needs ε < 2 log 3 ≈ 2.197)


DELTA_LP = 1e-3            # δ of the linear programs


DELTA_PRIMES = (2e-3, 0.01, 0.05)


N_RANDOM = 150


SEED = 4




@lru_cache(maxsize=None)
def _pairs():
    return random_pairs(N_RANDOM, SEED)


@lru_cache(maxsize=None)
def _priors(eps, metric):
    return critical_priors(eps, metric, 2000)


def _sup_leave(pq, eps, metric):
    return float(np.max(pair_leave_probability(*pq, _priors(eps, metric), eps, metric)))


def _ratio_leave_below_critical_prior(pq, eps, prec: int = 256):
    """The larger of P(S), Q(S) for S = {y : R ∉ [e^{−ε}, e^{ε}]}, the ratio of Theorem 3.3, eq. (4),
    R = P(y)/(pP(y) + (1 − p)Q(y)) (Theorem 3.1), at one prior p₀ below every output's critical prior, each
    output decided exactly (mpmath.iv at ``prec`` bits; the masses are the floats given, read exactly).

    An output with Q > e^ε·P leaves below e^{−ε} exactly when p < (Q − e^ε P)/(Q − P); one with P > e^ε·Q
    leaves above e^ε when p < (P − e^ε Q)/(e^ε(P − Q)); one with Q = 0 < P when p < e^{−ε}; one with
    P = 0 < Q at every prior.  p₀ is half the smallest of these (an exact binary number, not a float: it may be
    below 1e-308).  The float grid of priors (``critical_priors``) stops at 1e-15 and its leave test has a 1e-12 slack,
    so it misses an output whose loss exceeds ε by less (an LP pair's output at loss 0.5 + 5.6e-17 needs
    p < 1.43e-16): the theorem's hypothesis is "for every prior in (0, 1]", and this is the prior of its proof's
    limit p → 0.  An output the interval cannot decide is counted as staying inside (the side that makes the
    reverse check harder)."""
    from mpmath import iv

    old = iv.prec
    iv.prec = prec
    try:
        e = iv.exp(iv.mpf(float(eps)))
        rows = [(float(a), float(b), iv.mpf(float(a)), iv.mpf(float(b))) for a, b in zip(*pq)]
        critical = []
        for a, b, ia, ib in rows:
            if a > 0 and b > 0 and (ib - e * ia).a > 0:
                critical.append((ib - e * ia) / (ib - ia))
            elif a > 0 and b > 0 and (ia - e * ib).a > 0:
                critical.append((ia - e * ib) / (e * (ia - ib)))
            elif a > 0 and b == 0:
                critical.append(1 / e)
        p0 = iv.mpf(min([c.a for c in critical if c.a > 0] + [iv.mpf(1).a])) / 2
        leave_p, leave_q = [], []
        for a, b, ia, ib in rows:
            if a == 0 and b == 0:
                continue
            r = ia / (p0 * ia + (1 - p0) * ib)
            if r.a > e.b or r.b < (1 / e).a:
                leave_p.append(a)
                leave_q.append(b)
    finally:
        iv.prec = old
    return max(math.fsum(leave_p), math.fsum(leave_q))


def _mask(z, eps):
    losses = np.concatenate([z, [np.inf, -np.inf]])
    return np.abs(losses) > eps


@lru_cache(maxsize=None)
def _lp_pdp_metric(metric, eps):
    """Maximise, over pairs that are (ε, δ)-PDP, the probability that the metric leaves its bound at the
    worst prior (both sides, each prior of a grid): the forward directions of Theorems 3.2, 3.3, 3.5(1)."""
    z = loss_grid([eps])
    pairs = []
    for p in critical_priors(eps, metric, 24):
        mask = D.leaves(p, eps, metric, z=np.concatenate([z, [np.inf, -np.inf]]))[0]
        for side in ("P", "Q"):
            _, pq = worst_pair(z, (side, mask), [("pdp", eps, DELTA_LP)])
            pairs.append(pq)
    return pairs


@lru_cache(maxsize=None)
def _forward(metric):
    """Theorems 3.2, 3.3, 3.5(1): lhs = sup over priors of P[metric leaves its bound at ε], rhs = the pair's PDP δ."""
    lhs, rhs, labels = [], [], []
    for eps in LEVELS:
        for kind, pairs in (("random", _pairs()), ("LP", _lp_pdp_metric(metric, eps))):
            for j, pq in enumerate(pairs):
                d = float(D.pair_pdp_delta(*pq, eps))
                if d <= 0:
                    continue
                lhs.append(_sup_leave(pq, eps, metric))
                rhs.append(d)
                labels.append(f"{kind} pair {j}, eps={eps:g}")
    return lhs, rhs, labels


@lru_cache(maxsize=None)
def _reverse(metric, eps_of=None):
    """Reverse directions: lhs = the pair's PDP δ at ε (or at ε̃), rhs = sup over priors of the leave probability."""
    lhs, rhs, labels = [], [], []
    for eps in LEVELS:
        target = eps if eps_of is None else float(D.epsilon_tilde(eps))
        z = loss_grid([eps, target])
        pr = critical_priors(eps, metric, 60)
        lp = [worst_pair(z, (side, _mask(z, target)), [(metric, (pr, eps), DELTA_LP)])[1] for side in ("P", "Q")]
        for kind, pairs in (("random", _pairs()), ("LP", lp)):
            for j, pq in enumerate(pairs):
                s = _sup_leave(pq, eps, metric)
                if metric == "ratio":  # Theorem 3.3's hypothesis holds for every prior in (0, 1], not only the grid's
                    s = max(s, _ratio_leave_below_critical_prior(pq, eps))
                lhs.append(float(D.pair_pdp_delta(*pq, target)))
                rhs.append(s)
                labels.append(f"{kind} pair {j}, eps={eps:g}")
    return lhs, rhs, labels


def _forward_claim(metric):
    return verdict_from(functools.partial(_forward, metric), evidence=("random-search", "optimised-search"))


def _scaled(search, factor, *args):
    """A search's (lhs, rhs, labels) with the bound rhs scaled by ``factor`` (a constant of the printed statement)."""
    lhs, rhs, labels = search(*args)
    return lhs, factor * np.asarray(rhs), labels


def _reverse_claim(metric, factor=1.0, eps_of=None):
    return verdict_from(functools.partial(_scaled, _reverse, factor, metric, eps_of),
                        evidence=("random-search", "optimised-search"))


@lru_cache(maxsize=None)
def _dp_to_metric(metric):
    """Theorem 3.9 and Corollaries 3.10(2)–3.12(2): over (ε, δ)-DP pairs, the probability that the metric leaves
    its bound at ε′ (sup over priors), against δ′.  LPs maximise it prior by prior; random pairs use their own δ."""
    lhs, rhs, labels = [], [], []
    for eps in LEVELS:
        for dp in DELTA_PRIMES:
            ep = float(conversions.pdp_epsilon(eps, DELTA_LP, dp))
            z = loss_grid([eps, ep])
            losses = np.concatenate([z, [np.inf, -np.inf]])
            for p in critical_priors(ep, metric, 12):
                mask = D.leaves(p, ep, metric, z=losses)[0]
                for side in ("P", "Q"):
                    _, pq = worst_pair(z, (side, mask), [("dp", eps, DELTA_LP)])
                    lhs.append(_sup_leave(pq, ep, metric))
                    rhs.append(dp)
                    labels.append(f"LP at prior {p:.3g}, eps={eps:g}, delta'={dp:g}")
    for j, pq in enumerate(_pairs()):
        for eps in LEVELS:
            d = float(D.pair_hockey(*pq, eps))
            if not 0 < d < 0.5:
                continue
            for dp in (2 * d, 10 * d):
                if dp >= 1:
                    continue
                ep = float(conversions.pdp_epsilon(eps, d, dp))
                lhs.append(_sup_leave(pq, ep, metric))
                rhs.append(dp)
                labels.append(f"random pair {j}, eps={eps:g}, delta={d:.3g}, delta'={dp:.3g}")
    if metric in _NEAR_DELTA:  # the grid's δ′ keep ε′ moderate; the supremum is approached as δ′ → δ
        for eps in LEVELS:
            for dp in _NEAR_DELTA[metric]:
                ep = float(conversions.pdp_epsilon(eps, DELTA_LP, dp))
                pq = theorem39_tight_pair(eps, DELTA_LP, dp, 1e-9 * (ep - eps))
                lhs.append(_sup_leave(pq, ep, metric))
                rhs.append(dp)
                labels.append(f"Theorem 3.9's tight pair, eps={eps:g}, delta={DELTA_LP:g}, delta'={dp / DELTA_LP:g} delta")
    return lhs, rhs, labels


#: δ′ near δ = :data:`DELTA_LP` at which a corollary's supremum is approached (Corollary 3.12(2): the difference bound
#: leaves with probability δ′/(1 + e^{−ε′}) on Theorem 3.9's tight pair, and ε′ → ∞ as δ′ → δ)
_NEAR_DELTA = {"difference": (1.01 * DELTA_LP, 1.0001 * DELTA_LP)}


#: the known supremum of a corollary's leave probability over δ′ on its whole domain, and where it comes from
_DP_METRIC_SUPREMUM = {
    "difference": (1.0, "Theorem 3.9's tight pair at the first prior of Lemma 3.4 leaves the difference bound with "
                        "probability δ′/(1 + e^{−ε′}) (its tail above ε′), which tends to δ′ as δ′ → δ (ε′ → ∞); no "
                        "(ε, δ)-DP mechanism exceeds δ′ (Theorem 3.9)")}


def _dp_metric_claim(metric):
    supremum, source = _DP_METRIC_SUPREMUM.get(metric, (None, ""))
    return verdict_from(functools.partial(_dp_to_metric, metric), evidence=("optimised-search", "random-search"),
                        supremum=supremum, supremum_from=source)


@lru_cache(maxsize=None)
def _metric_to_dp(metric, eps_of=None):
    """Corollaries 3.10(1)–3.12(1): lhs = the pair's DP δ (hockey stick) at ε (or ε̃), rhs = sup over priors of
    the leave probability at ε.  LPs maximise the hockey stick subject to the disclosure condition."""
    lhs, rhs, labels = [], [], []
    for eps in LEVELS:
        target = eps if eps_of is None else float(D.epsilon_tilde(eps))
        z = loss_grid([eps, target])
        pr = critical_priors(eps, metric, 60)
        _, pq_lp = worst_pair(z, ("hockey", target), [(metric, (pr, eps), DELTA_LP)])
        for kind, pairs in (("random", _pairs()), ("LP", [pq_lp])):
            for j, pq in enumerate(pairs):
                lhs.append(float(D.pair_hockey(*pq, target)))
                rhs.append(_sup_leave(pq, eps, metric))
                labels.append(f"{kind} pair {j}, eps={eps:g}")
    return lhs, rhs, labels


def _metric_dp_claim(metric, factor=1.0, eps_of=None):
    return verdict_from(functools.partial(_scaled, _metric_to_dp, factor, metric, eps_of),
                        evidence=("random-search", "optimised-search"))


def _pure_eps_by_hockey(p, q):
    """The smallest ε with both hockey sticks 0 (pure DP), by bisection on the divergence."""
    hi = 1.0
    while D.pair_hockey(p, q, hi) > 0:
        hi *= 2
        if hi > 1e3:
            return math.inf
    lo = 0.0
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if D.pair_hockey(p, q, mid) <= 0 else (mid, hi)
    return hi


@lru_cache(maxsize=None)
def _thm23():
    lhs, rhs, labels = [], [], []
    cases = [pq for pq in _pairs() if np.all(pq[0] > 0) and np.all(pq[1] > 0)]
    cases += [_rr(e) for e in (0.1, 1.0, 5.0)]
    for j, (p, q) in enumerate(cases):
        pdp = float(np.max(np.abs(pair_losses(p, q))))  # smallest ε with P[|Z| ≤ ε] = 1 (both sides)
        dp = _pure_eps_by_hockey(p, q)
        lhs += [pdp, dp]
        rhs += [dp * (1 + 1e-9), pdp * (1 + 1e-9)]  # equal up to the bisection's resolution
        labels += [f"pair {j}: PDP eps <= DP eps", f"pair {j}: DP eps <= PDP eps"]
    return lhs, rhs, labels


def _thm25(tighten=1.0):
    """Theorem 2.5 certified: (ε, δ)-PDP in both orders is point-wise (ε, δ)-indistinguishability, whose largest hockey
    stick at ε is δ (exact LPs at rational e^ε, certify.pointwise_hockey_verdict)."""
    from fractions import Fraction

    from .certify import pointwise_hockey_verdict

    return pointwise_hockey_verdict((Fraction(21, 20), Fraction(3, 2), Fraction(3), Fraction(7)),
                                    (Fraction(1, 10**6), Fraction(1, 1000), Fraction(1, 20)), tighten=tighten)


def _eps_27(rho, delta):
    return rho + 2 * np.sqrt(rho * np.log(1 / delta))


def _ratio_27(p, q, delta):
    """Theorem 2.7's attacked ratio on one pair: hockey stick at ε = ρ + 2√(ρ log 1/δ), over δ, with ρ the pair's
    certified zCDP ρ rounded up (the pair is ρ-zCDP, so a ratio above 1 would be a true counterexample)."""
    rho = zcdp_rho(p, q)
    if not (math.isfinite(rho) and rho > 0):
        return 0.0, rho
    return float(D.pair_hockey(p, q, _eps_27(rho, delta))) / delta, rho


def _two_output_27(theta):
    """A two-output pair P = (a, 1 − a), Q = (1 − b, b) and δ from unconstrained parameters (b down to 1e-250)."""
    a = 1 / (1 + math.exp(-theta[0]))
    b = math.exp(-min(250 * math.log(10), math.exp(theta[1])))
    delta = 1 / (1 + math.exp(-theta[2]))
    return np.array([a, 1 - a]), np.array([1 - b, b]), min(max(delta, 1e-12), 0.99)


#: Theorem 2.7's supremum construction: P = (1 − cδ, cδ) against Q = (1 − b, b) with b = e^{−L}, at these c, L, δ
THM27_SUPREMUM = {"c": 0.995, "log_1_over_b": 1e8, "deltas": (1e-6, 1e-3, 0.1, 0.5)}


def thm27_near_supremum(delta: float, c: float, log_1_over_b: float) -> tuple[float, float]:
    """Theorem 2.7 on the pair P = (1 − cδ, cδ), Q = (1 − b, b), b = e^{−L} (L = ``log_1_over_b``, kept in logs: b
    underflows): ``(hockey stick at ε = ρ + 2√(ρ log 1/δ), ρ)`` with ρ the pair's zCDP ρ rounded up.

    ρ in the order P‖Q is bracketed by the same certified chord bound as
    :func:`~dpsemantics.indistinguishability.zcdp_rho`, from the losses log p − log q written with log q = (log(1 − b),
    −L); in the order Q‖P every D_α is at most D_∞ = log((1 − b)/(1 − cδ)) ≤ log(1/(1 − cδ)), which bounds that
    order's ρ.  As L → ∞, ρ ≈ (√L − √log(1/(cδ)))², ε − L → −∞ and the hockey stick, P({1}) − e^ε Q({1}) = cδ − e^{ε−L},
    tends to cδ: with c → 1 the ratio to δ tends to 1, the theorem's own bound, so the supremum over pairs is 1."""
    from ..indistinguishability import _U, _rho_bracket_one

    a = check_positive(c, "c", scalar=True) * check_delta(delta)
    L = check_positive(log_1_over_b, "log_1_over_b", scalar=True)
    if not (0 < a < 1 and L > 1):
        raise ValueError(f"need 0 < c·δ < 1 and log_1_over_b > 1 (got c={c}, delta={delta}, log_1_over_b={L})")
    lp = np.log([1 - a, a])
    lq = np.array([math.log1p(-math.exp(-L)), -L])
    z = lp - lq
    z_err = float(np.max(3 * _U * (np.abs(lp) + np.abs(lq)) + _U * np.abs(z)))
    rho = max(_rho_bracket_one(np.array([1 - a, a]), z, z_err, 1e-9)[1], -math.log1p(-a))
    eps = _eps_27(rho, delta)
    return max(0.0, a - math.exp(min(eps - L, 700.0))), rho


@lru_cache(maxsize=None)
def _thm27():
    """Theorem 2.7 attacked: the Gaussian (exactly ρ-zCDP) on a grid of (ρ, δ); random pairs; the issue's two-output
    pair P = (0.82, 0.18), Q = (1 − 1.11·10⁻⁶, 1.11·10⁻⁶) at δ = 0.316 (0.384 of δ); and a Nelder–Mead search over
    two-output pairs and δ ∈ (0, 0.99] from seeded starts."""
    from scipy.optimize import minimize

    lhs, rhs, labels = [], [], []
    p, q = np.array([0.82, 0.18]), np.array([1 - 1.11e-6, 1.11e-6])
    r, rho = _ratio_27(p, q, 0.316)
    lhs.append(r * 0.316), rhs.append(0.316), labels.append("two-output pair (0.82, 0.18) vs (1 - 1.11e-6, 1.11e-6), "
                                                            f"rho={rho:.4g}, delta=0.316")
    rng = np.random.default_rng(27)
    for start in ([1.5, math.log(13.7), -0.77], [-3.8, 5.7, 3.0], [0.8, 5.8, -0.6], *rng.normal(scale=2, size=(2, 3))):
        res = minimize(lambda th: -_ratio_27(*_two_output_27(th))[0], np.asarray(start, float), method="Nelder-Mead",
                       options={"maxfev": 300, "xatol": 1e-6, "fatol": 1e-9})
        p, q, d = _two_output_27(res.x)
        r, rho = _ratio_27(p, q, d)
        lhs.append(r * d), rhs.append(d), labels.append("optimised two-output pair "
                                                        f"a={p[0]:.4g}, b={q[1]:.3g}, rho={rho:.4g}, delta={d:.3g}")
    sup = THM27_SUPREMUM
    for delta in sup["deltas"]:
        h, rho = thm27_near_supremum(delta, sup["c"], sup["log_1_over_b"])
        lhs.append(h), rhs.append(delta)
        labels.append(f"P = (1 - {sup['c']}δ, {sup['c']}δ) vs Q = (1 - b, b), b = e^(-{sup['log_1_over_b']:.0e}), "
                      f"rho={rho:.6g}, delta={delta:g}")
    for rho in np.logspace(-4, 1, 11):
        for delta in (1e-12, 1e-6, 1e-3, 0.1, 0.5):
            lhs.append(float(conversions.zcdp_gaussian_delta(rho, _eps_27(rho, delta))))
            rhs.append(delta)
            labels.append(f"Gaussian, rho={rho:.3g}, delta={delta:g}")
    for j, (p, q) in enumerate(_pairs()):
        rho = zcdp_rho(p, q)
        if not math.isfinite(rho) or rho <= 0:
            continue
        for delta in (1e-3, 0.1, 0.5):
            lhs.append(float(D.pair_hockey(p, q, _eps_27(rho, delta))))
            rhs.append(delta)
            labels.append(f"random pair {j}, rho={rho:.3g}, delta={delta:g}")
    return lhs, rhs, labels


@lru_cache(maxsize=None)
def thm27_second_optimiser() -> tuple[float, str]:
    """A second, different optimiser for Theorem 2.7 over the same two-output family: differential evolution (seeded,
    global, population-based) where the first is Nelder–Mead from five starts.  Returns the best hockey stick over δ
    it finds and its case."""
    from scipy.optimize import differential_evolution

    res = differential_evolution(lambda th: -_ratio_27(*_two_output_27(th))[0], [(-6.0, 6.0), (0.0, 6.35), (-6.0, 6.0)],
                                 seed=27, maxiter=10, popsize=6, tol=1e-9, polish=False)
    p, q, d = _two_output_27(res.x)
    return -float(res.fun), f"a={p[0]:.4g}, b={q[1]:.3g}, delta={d:.3g}"


def _thm27_claim(tighten=1.0):
    """Theorem 2.7's search against its supremum 1 (:func:`thm27_near_supremum`), with a second optimiser
    (differential evolution) recorded in ``second``."""

    v = _identity_claim(_thm27, ("extremal", "random-search", "optimised-search"))(tighten=tighten)
    best, case = thm27_second_optimiser()
    return replace(v, supremum=1.0,
                   supremum_from="P = (1 − cδ, cδ), Q = (1 − b, b): as b → 0 the pair's ρ is (√log(1/b) − "
                                 "√log(1/(cδ)))² + o(1), ε − log(1/b) → −∞ and the hockey stick at ε tends to cδ; "
                                 "c → 1 gives δ at every δ (and no ρ-zCDP pair exceeds δ: the theorem)",
                   second=f"differential evolution, seed 27: best at {case}", second_best=best)


@lru_cache(maxsize=None)
def _thm29():
    lhs, rhs, labels = [], [], []
    finite = [pq for pq in _pairs() if np.all(pq[0] > 0) and np.all(pq[1] > 0)]
    cases = [(finite[i], finite[i + 1]) for i in range(0, len(finite) - 1, 2)]
    cases += [(_rr(e), _rr(e)) for e in (0.3, 1.0, 2.0)]
    for j, ((p1, q1), (p2, q2)) in enumerate(cases):
        prod_p, prod_q = np.outer(p1, p2).ravel(), np.outer(q1, q2).ravel()
        lhs.append(zcdp_rho_bracket(prod_p, prod_q)[0])  # attained: the composed pair's ρ is at least this
        rhs.append(zcdp_rho(p1, q1) + zcdp_rho(p2, q2))  # certified upper ends
        labels.append(f"pair of mechanisms {j}")
    return lhs, rhs, labels


@lru_cache(maxsize=None)
def _thm_a2():
    """Theorem A.2: the pair's DP δ at ε, by the definition (every event S enumerated), against the three
    printed expressions P[Z > ε] − e^ε P[−Z′ > ε] = E[max{0, 1 − e^{ε−Z}}] = ∫_ε^∞ e^{ε−z} P[Z > z] dz."""
    from itertools import product

    from scipy import integrate

    lhs, rhs, labels = [], [], []
    for j, (p, q) in enumerate(_pairs()[:60]):
        z = pair_losses(p, q)
        for eps in LEVELS:
            for a, b, zz in ((p, q, z), (q, p, -z)):   # both orders of the pair
                m = a.size
                by_events = max(float(np.dot(s, a) - math.exp(eps) * np.dot(s, b))
                                for s in product((0, 1), repeat=m))
                e1 = float(a[zz > eps].sum() - math.exp(eps) * b[zz > eps].sum())
                with np.errstate(over="ignore", invalid="ignore"):
                    e2 = float(np.sum(np.where((a > 0) & (zz > eps), a * -np.expm1(np.minimum(eps - zz, 0)), 0.0)))
                tail = lambda t: float(a[zz > t].sum())  # noqa: E731
                finite_z = np.sort(zz[np.isfinite(zz) & (zz > eps)])
                top = max(float(finite_z[-1]) if finite_z.size else eps, eps) + 60.0
                e3 = integrate.quad(lambda t: math.exp(eps - t) * tail(t), eps, top,
                                    points=list(finite_z) or None, limit=200, epsabs=1e-14)[0]
                for k, e in enumerate((e1, e2, e3), start=1):
                    lhs += [by_events, e]
                    rhs += [e + 1e-12, by_events + 1e-12]
                    labels += [f"pair {j}, eps={eps:g}: events <= expression {k}",
                               f"pair {j}, eps={eps:g}: expression {k} <= events"]
    return lhs, rhs, labels


def _identity_claim(fn, evidence):
    return verdict_from(fn, evidence=evidence)


@lru_cache(maxsize=None)
def _thm39_tight():
    lhs, rhs, labels = [], [], []
    for eps in (0.1, 1.0, 3.0):
        for delta, dp in ((1e-6, 1e-5), (1e-6, 0.05), (1e-3, 0.01), (0.01, 0.3)):
            ep = float(conversions.pdp_epsilon(eps, delta, dp))
            for r in (1e-3, 1e-6, 1e-9):   # η relative to the gap ε′ − ε, on which the construction depends
                eta = r * (ep - eps)
                p, q = theorem39_tight_pair(eps, delta, dp, eta)
                lhs += [float(D.pair_hockey(p, q, eps)), float(D.pair_pdp_delta(p, q, ep))]
                rhs += [delta, dp]
                labels += [f"eps={eps:g}, delta={delta:g}, eta={eta:g}: (eps, delta)-DP",
                           f"eps={eps:g}, delta={delta:g}, delta'={dp:g}, eta={eta:g}: P[|Z| > eps'] vs delta'"]
    return lhs, rhs, labels


def _thm39_tight_margin_of_limit() -> float:
    """The PDP δ of the four-output pair at η = 1e-9·(ε′ − ε), as a fraction of δ′ (the smallest over the cases)."""
    lhs, rhs, _ = _thm39_tight()
    return float(min(low / high for low, high in zip(lhs[5::6], rhs[5::6])))


@lru_cache(maxsize=None)
def _lem34():
    from scipy.optimize import minimize_scalar

    lhs, rhs, labels = [], [], []
    for eps in (0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 20.0):
        up_closed, down_closed = D.worst_case_prior(eps)
        for start in np.linspace(0.05, 0.95, 7):   # bounded local searches from several brackets
            a, b = max(0.0, start - 0.1), min(1.0, start + 0.1)
            up = minimize_scalar(lambda p: -D.prior_difference_bounds(p, eps)[1], bounds=(a, b), method="bounded",
                                 options={"xatol": 1e-12})
            down = minimize_scalar(lambda p: D.prior_difference_bounds(p, eps)[0], bounds=(a, b), method="bounded",
                                   options={"xatol": 1e-12})
            lhs += [-up.fun, -down.fun]
            rhs += [float(D.prior_difference_bounds(up_closed, eps)[1]),
                    -float(D.prior_difference_bounds(down_closed, eps)[0])]
            labels += [f"eps={eps:g}, upper end, search from {start:.2f}",
                       f"eps={eps:g}, lower end, search from {start:.2f}"]
    return lhs, rhs, labels


def fig3_threshold_interval(method: str, k: int):
    """The thresholds T on the total ε (at δ = 1e-6) for which the curve first exceeds T at query k:
    [ε(k − 1), ε(k)).  Any reading of "posterior > 80%" that is monotone in ε is such a threshold."""
    e = _eps_curve(method)
    return float(e[k - 2]), float(e[k - 1])


def _fig3_joint() -> int:
    """The largest optimal-composition crossing (exact or lattice) that a threshold reproducing the advanced
    crossing 51 can give: T < ε_adv(51), so the optimal curve crosses no later than where it first exceeds T."""
    t_max = fig3_threshold_interval("advanced", 51)[1]
    return max(int(np.flatnonzero(_eps_curve(m) >= t_max)[0]) + 1 for m in ("optimal", "lattice"))


def _b44_like(eps, delta, dp, prior=0.5):
    return D.approximate_bounds(eps, delta, dp, prior)


def _closed(lhs_fn, rhs_fn, cases, evidence="closed-form"):
    """A Verdict over a list of cases from two functions of a case."""
    def compute(tighten=1.0):
        return Verdict.of([lhs_fn(c) for c in cases], [rhs_fn(c) for c in cases], evidence=evidence, tighten=tighten, labels=[str(c) for c in cases])
    return compute


_EPS39 = [(e, d, dp) for e in (0.1, 1.0, 5.0) for d in (1e-12, 1e-6, 0.01) for dp in (d * (1 + 1e-6), d * 10, 0.05, 1.0)
          if dp > d]


def _zhao(tighten=1.0):
    lhs, rhs, labels = [], [], []
    for e, d, dp in _EPS39:
        ep = float(conversions.pdp_epsilon(e, d, dp))
        back = float(conversions.pdp_delta(e, d, ep))
        # the round trip is only as accurate as ε′ − ε: one ulp of ε′ relative to the gap
        slack = 1e-9 + 4 * np.spacing(ep) / (ep - e)
        lhs += [back, dp]
        rhs += [dp * (1 + slack), back * (1 + slack)]
        labels += [f"{(e, d, dp)}: Zhao's delta' <= delta'", f"{(e, d, dp)}: delta' <= Zhao's delta'"]
    return Verdict.of(lhs, rhs, evidence="closed-form", tighten=tighten, labels=labels)


_DP_FIG1 = list(np.logspace(-5.999, -5, 20))


_KS_DESC = [int(k) for k in KS]


def _exceeds_eps(tighten=1.0):
    """Appendix A.8: ε′ > ε for δ′ ∈ (δ, 1].  With u = δ′ − δ, ε′ − ε = log(1 + δ(1 + e^{−ε})/u) (Theorem 3.9's ε′ over
    a common denominator), proved ≥ 0 by interval arithmetic on the box ε ∈ [0, 50], δ ∈ [0, 1], u ∈ [10⁻³⁰⁰, 1]
    (> 0 exactly when δ > 0); the grid cases give the margin."""
    from mpmath import iv

    from .certify import interval_verdict

    cases = _EPS39
    return interval_verdict(lambda e, d, u: iv.log(1 + d * (1 + iv.exp(-e)) / u),
                            [(0.0, 50.0), (0.0, 1.0), (1e-300, 1.0)],
                            [c[0] for c in cases], [float(conversions.pdp_epsilon(*c)) for c in cases],
                            [str(c) for c in cases], domain="every ε ∈ [0, 50], δ ∈ (0, 1), δ′ ∈ (δ, 1] "
                                                            "(δ′ − δ ≥ 10⁻³⁰⁰)",
                            tighten=tighten)


def _fig1_large(tighten=1.0):
    """Figure 1: at (1, 10⁻⁶)-DP, ε′ = log(δ′e + δ) − log(δ′ − δ) > 1.1 for every δ′ ∈ (10⁻⁶, 10⁻⁵], proved by
    interval branch-and-bound on ε′ − 1.1 over the whole interval (ε′ → ∞ at its open end)."""
    from mpmath import iv

    from .certify import interval_verdict

    e1, delta = iv.exp(iv.mpf(1)), iv.mpf(1) / 10**6
    # u = δ′ − δ ∈ (0, 9·10⁻⁶]: ε′ − 1.1 = log((δ + u)e + δ) − log u − 1.1 (log of an interval at 0 is −∞, so the
    # box touching 0 is proved too)
    h = lambda u: iv.log((delta + u) * e1 + delta) - iv.log(u) - iv.mpf(11) / 10  # noqa: E731
    return interval_verdict(h, [(0.0, 9e-6)], [1.1] * len(_DP_FIG1), [_fig1_eps_prime(d) for d in _DP_FIG1],
                            [f"delta'={d:g}" for d in _DP_FIG1], domain="δ′ ∈ (10⁻⁶, 10⁻⁵], ε = 1, δ = 10⁻⁶",
                            tighten=tighten)


def _limit_half(tighten=1.0):
    """|1/(1 + e^{ε/2}) − 1/2| ≤ ε/8: the worst-case prior tends to 1/2 at rate ε/8.  Proved on ε ∈ [0, 8] by interval
    branch-and-bound on h(ε) = ε/8 − (1/2 − 1/(1 + e^{ε/2})), with h(0) = 0 and h′(ε) = (e^{ε/2} − 1)²/(8(1 + e^{ε/2})²)
    (written in a form that is visibly ≥ 0); beyond 8 the gap is below 1/2 ≤ ε/8 (the written tail bound)."""
    from mpmath import iv

    from .certify import interval_verdict

    es = np.logspace(-4, 0.5, 30)  # the margin's grid; below 1e-4 the float rounding of 1/2 exceeds the gap ε³/384
    return interval_verdict(lambda e: e / 8 - (iv.mpf(0.5) - 1 / (1 + iv.exp(e / 2))), [(0.0, 8.0)],
                            np.abs(D.worst_case_prior(es)[0] - 0.5), es / 8, [f"eps={e:.3g}" for e in es],
                            dh=lambda e: (iv.exp(e / 2) - 1) ** 2 / (8 * (1 + iv.exp(e / 2)) ** 2), anchor=0.0,
                            domain="ε ∈ (0, 8]", tail="for ε > 8 the gap is < 1/2 ≤ ε/8", tighten=tighten)


def _fig7_shape(tighten=1.0):
    grid = np.linspace(1e-4, 1 - 1e-4, 9999)
    e = _b43(0.5).eps_prime
    arg = grid[np.argmax(D.symmetric_difference_bound(grid, e))]
    return Verdict.of([0.1, float(D.symmetric_difference_bound(1e-6, e))], [abs(arg - 0.5), 1e-5], evidence="exhaustive", tighten=tighten,
              labels=["maximiser at least 0.1 from 1/2", "bound at p = 1e-6 below 1e-5"])


def _ex11_randomized_response(tighten=1.0):
    """Example 1.1 and §4.1's probability statements against randomized response at ε = 0.1, which is (0.1, 0)-DP
    and so (0.1, 10⁻⁷)-DP: given the employee's true answer, the output that agrees with it (probability
    e^ε/(1 + e^ε) = 0.525) moves the posterior past each printed bound.  lhs: the probability (under the true
    answer) that the printed bound fails; rhs: the failure probability the statement allows (1 − 99%, or 0 for the
    pure-DP guarantee)."""
    keep = 1 / (1 + math.exp(-0.1))
    lhs, rhs, labels = [], [], []

    def post(prior):
        return prior * keep / (prior * keep + (1 - prior) * (1 - keep))

    for allowed, which in ((0.0, "pure DP: 'guaranteed'"), (0.01, "(0.1, 1e-7)-DP: 'with 99% probability'")):
        lhs.append(keep * (post(0.5) > 0.52)), rhs.append(allowed)
        labels.append(f"{which}, posterior {post(0.5):.6f} > 52% (prior 1/2)")
    lhs.append(keep * (post(1e-3) / 1e-3 > 1.1)), rhs.append(0.01)
    labels.append(f"§4.1: prior 0.001 grows by a factor {post(1e-3) / 1e-3:.5f} > 1.1")
    lhs.append(keep * (post(0.5) - 0.5 > 0.02)), rhs.append(0.01)
    labels.append(f"§4.1: prior 1/2 moves by {post(0.5) - 0.5:.5f} > 2 points")
    return Verdict.of(lhs, rhs, evidence="extremal", tighten=tighten, labels=labels)


T_MAX = 100.0


B_LOW = 1.9e-22    # below e^{−T_MAX/2} = 1.93e-22, so the box covers every level t ∈ [0, T_MAX]


def _post(p, w):
    """The posterior of Theorem 3.1 at w = e^{−Z} (target present; absent: w = e^{Z′})."""
    return p / (p + (1 - p) * w)


@lru_cache(maxsize=None)
def _monotone_proof():
    """p/(p + (1 − p)w) decreases in w ∈ [0, ∞) for every p ∈ [0, 1]: its difference quotient between w₁ = x₁/(1 − x₁) and
    w₂ = x₂/(1 − x₂) equals a product of factors ≥ 0 (> 0 for 0 < p < 1 and finite w), identity checked exactly."""
    from .certify import nonnegative_on_box

    def w(x):
        return x / (1 - x)

    def factored(p, x1, x2):
        return p * (1 - p) * (1 - x1) * (1 - x2) / ((p * (1 - x1) + (1 - p) * x1) * (p * (1 - x2) + (1 - p) * x2))

    def quotient_minus_factored(p, x1, x2):
        return (_post(p, w(x1)) - _post(p, w(x2))) / (w(x2) - w(x1)) - factored(p, x1, x2)

    return nonnegative_on_box([("difference quotient − factored form", quotient_minus_factored),
                               ("factored form", factored)], [(0.0, 1.0)] * 3)


#: Each metric's bound at level t against its value at Z = t (upper) and Z = −t (lower), with the difference in a form
#: whose sign shows (coordinates p, b = e^{−t/2}).  ``scale`` multiplies the printed bound's deviation (for refutation
#: tests: scale < 1 makes the bound false).
def _metric_checks(metric, scale=1):
    if metric == "posterior":   # eq. (3): the bounds are the posterior at Z = ±t by definition
        return []
    if metric == "ratio":       # eq. (5): e^{−t} ≤ R ≤ e^t
        hi = lambda p, b: 1 + scale * (1 / b**2 - 1) - _post(p, b**2) / p                      # noqa: E731
        f_hi = lambda p, b: p * (1 - b**2) / (b**2 * (p + (1 - p) * b**2))                     # noqa: E731
        lo = lambda p, b: _post(p, 1 / b**2) / p - (1 - scale * (1 - b**2))                    # noqa: E731
        f_lo = lambda p, b: b**2 * p * (1 - b**2) / (p * b**2 + 1 - p)                         # noqa: E731
    elif metric == "difference":  # eq. (6) and Lemma 3.4: |D| ≤ tanh(t/4) = (1 − b)/(1 + b)
        hi = lambda p, b: scale * (1 - b) / (1 + b) - (_post(p, b**2) - p)                      # noqa: E731
        f_hi = lambda p, b: (1 - b) * (b - p * (1 + b))**2 / ((1 + b) * (b**2 + p * (1 - b**2)))  # noqa: E731
        lo = lambda p, b: _post(p, 1 / b**2) - p + scale * (1 - b) / (1 + b)                    # noqa: E731
        f_lo = lambda p, b: (1 - b) * (p * (1 + b) - 1)**2 / ((1 + b) * (p * b**2 + 1 - p))      # noqa: E731
    else:
        raise ValueError(f"metric must be 'posterior', 'ratio' or 'difference' (got metric={metric!r})")
    return [("upper bound − value at Z = t − factored form", lambda p, b: hi(p, b) - f_hi(p, b)),
            ("upper: factored form", f_hi),
            ("value at Z = −t − lower bound − factored form", lambda p, b: lo(p, b) - f_lo(p, b)),
            ("lower: factored form", f_lo)]


@lru_cache(maxsize=None)
def metric_lemma_proof(metric, scale=1):
    """For every prior p ∈ [0, 1] (the ratio: its limit at p = 0) and level t ∈ [0, T_MAX]: |Z| ≤ t ⇒ the metric stays
    within its bound at t (eq. (3), (5), (6)); with monotonicity, the metric leaves its bound only where |Z| > t."""
    from .certify import nonnegative_on_box

    return nonnegative_on_box(_metric_checks(metric, scale), [(0.0, 1.0), (B_LOW, 1.0)])


@lru_cache(maxsize=None)
def worst_prior_proof():
    """Lemma 3.4: the factored forms of metric_lemma_proof('difference') vanish exactly at p = 1/(1 + e^{t/2}) = b/(1 + b)
    (upper end) and p = 1/(1 + e^{−t/2}) = 1/(1 + b) (lower end), so the bound tanh(t/4) is attained there and only there."""
    from .certify import nonnegative_on_box

    checks = _metric_checks("difference")
    f_hi, f_lo = checks[1][1], checks[3][1]
    zero = [("upper factored form at b/(1 + b), ≤ 0", lambda b: -f_hi(b / (1 + b), b)),
            ("lower factored form at 1/(1 + b), ≤ 0", lambda b: -f_lo(1 / (1 + b), b))]
    return nonnegative_on_box(zero, [(B_LOW, 1.0)])


def _lp39(scale=1):
    """Theorem 3.9 as a linear program over every (ε, δ)-DP pair: x = (P(S), Q(S), P(T), Q(T)) for S = {Z > ε′},
    T = {Z < −ε′}; maximise P(S) + P(T) subject to P(S) − e^ε Q(S) ≤ δ, Q(T) − e^ε P(T) ≤ δ (DP on S and T),
    e^{ε′} Q(S) − P(S) ≤ 0, e^{ε′} P(T) − Q(T) ≤ 0 (the loss on S and T; strict inequalities relaxed).  The printed
    ε′ = log(δ′e^ε + δ) − log(δ′ − δ); the dual below gives δ(e^{ε′} + 1)/(e^{ε′} − e^ε), Zhao et al.'s δ′, which
    equals the printed δ′.  Coordinates (s, δ, v): e^ε = 1/s, δ′ = δ + v(1 − δ)."""
    def params(s, d, v):
        E = 1 / s
        dp = d + v * (1 - d)
        return E, (dp * E + d) / (dp - d), dp

    def c(s, d, v):
        return [1, 0, 1, 0]

    def A(s, d, v):
        E, Ep, _ = params(s, d, v)
        return [[1, -E, 0, 0], [0, 0, -E, 1], [-1, Ep, 0, 0], [0, 0, Ep, -1]]

    def b(s, d, v):
        return [d, d, 0, 0]

    def y(s, d, v):   # simplified with e^{ε′} − e^ε = δ(1 + s)/(s(δ′ − δ)); the identities check it
        w = v * (1 - d)
        k = d * (1 + s)
        return [(d + w + d * s) / k, s * w / k, w / k, s * w / k]

    def target(s, d, v):
        return scale * (d + v * (1 - d))

    return c, A, b, y, target


@lru_cache(maxsize=None)
def theorem39_proof(scale=1):
    """Theorem 3.9 on its whole domain: every ε ≥ 0, δ ∈ (0, 1), δ′ ∈ (δ, 1], every (ε, δ)-DP mechanism."""
    from .certify import parametric_dual_proof

    return parametric_dual_proof(*_lp39(scale), [(0.0, 1.0)] * 3)


@lru_cache(maxsize=None)
def theorem25_proof(scale=1):
    """Theorem 2.5 on its whole domain (every ε ≥ 0, δ ∈ [0, 1], every mechanism): for an event S and B = {Z > ε},
    x = (P(S∩B), Q(S∩B), P(S∖B), Q(S∖B)); maximise P(S) − e^ε Q(S) subject to P(S∩B) ≤ P(B) ≤ δ and
    P(S∖B) − e^ε Q(S∖B) ≤ 0 (outside B the loss is at most ε); the dual (1, 1) gives δ.  Coordinates (s, δ), e^ε = 1/s."""
    from .certify import parametric_dual_proof

    return parametric_dual_proof(lambda s, d: [1, -1 / s, 1, -1 / s],
                                 lambda s, d: [[1, 0, 0, 0], [0, 0, 1, -1 / s]],
                                 lambda s, d: [d, 0], lambda s, d: [1, 1], lambda s, d: scale * d,
                                 [(0.0, 1.0), (0.0, 1.0)])


@lru_cache(maxsize=None)
def ratio_threshold_proof():
    """Theorem 3.3's converse through the limit p → 0: R = 1/(p + (1 − p)w) exceeds e^t = 1/b² exactly where
    w < (b² − p)/(1 − p) (the difference R − e^t has that numerator over a positive denominator, identity checked
    exactly), and (b² − p)/(1 − p) increases to b² = e^{−t} as p decreases to 0 (their gap is p(1 − b²)/(1 − p) ≥ 0),
    so the events {R > e^t} increase to {w < e^{−t}} = {Z > t}."""
    from .certify import nonnegative_on_box

    def formula(p, b, w):
        return ((b**2 - p) - (1 - p) * w) / (b**2 * (p + (1 - p) * w))

    def difference(p, b, w):
        return 1 / (p + (1 - p) * w) - 1 / b**2

    gap = lambda p, b, w: b**2 - (b**2 - p) / (1 - p)                                   # noqa: E731
    checks = [("R − e^t − formula", lambda p, b, w: difference(p, b, w) - formula(p, b, w)),
              ("formula − (R − e^t)", lambda p, b, w: formula(p, b, w) - difference(p, b, w)),
              ("denominator b²(p + (1 − p)w)", lambda p, b, w: b**2 * (p + (1 - p) * w)),
              ("threshold gap − p(1 − b²)/(1 − p)", lambda p, b, w: gap(p, b, w) - p * (1 - b**2) / (1 - p)),
              ("p(1 − b²)/(1 − p)", lambda p, b, w: p * (1 - b**2) / (1 - p)),
              # the lower end: R < e^{−t} = b² exactly where w > (1/b² − p)/(1 − p), which decreases to 1/b² as p → 0
              ("e^{−t} − R − (1 − p)(w − threshold)/(p + (1 − p)w)",
               lambda p, b, w: (b**2 - 1 / (p + (1 - p) * w)) - b**2 * (1 - p) * (w - (1 / b**2 - p) / (1 - p))
               / (p + (1 - p) * w)),
              ("the negation", lambda p, b, w: -((b**2 - 1 / (p + (1 - p) * w)) - b**2 * (1 - p)
                                                 * (w - (1 / b**2 - p) / (1 - p)) / (p + (1 - p) * w))),
              ("lower threshold gap − p(1/b² − 1)/(1 − p)",
               lambda p, b, w: ((1 / b**2 - p) / (1 - p) - 1 / b**2) - p * (1 / b**2 - 1) / (1 - p)),
              ("p(1/b² − 1)/(1 − p)", lambda p, b, w: p * (1 / b**2 - 1) / (1 - p))]
    return nonnegative_on_box(checks, [(0.0, 0.5), (B_LOW, 1.0), (0.0, 1e6)])


@lru_cache(maxsize=None)
def zhao_identity_proof(scale=1):
    """Appendix A.8: Zhao et al.'s δ′ = δ(1 + e^{−ε′})/(1 − e^{ε−ε′}) at the printed ε′ = log(δ′e^ε + δ) − log(δ′ − δ) is
    δ′ (both signs of the difference are identities ≡ 0), coordinates (s, δ, v) of _lp39."""
    from .certify import nonnegative_on_box

    def difference(s, d, v):
        E = 1 / s
        dp = d + v * (1 - d)
        Ep = (dp * E + d) / (dp - d)
        return d * (1 + 1 / Ep) / (1 - E / Ep) - scale * dp

    return nonnegative_on_box([("Zhao's δ′ − δ′", difference), ("δ′ − Zhao's δ′", lambda *t: -difference(*t))],
                              [(0.0, 1.0)] * 3)


def _ex11_facts():
    """Randomized response at every ε ∈ [0.0999, 0.1] (so at 0.1 exactly): the output that agrees with the true answer
    has probability k = e^ε/(1 + e^ε) and moves the posterior past each printed bound."""
    from mpmath import iv

    from .certify import interval_facts

    e = iv.mpf(["0.0999", "0.1"])
    k = lambda: iv.exp(e) / (1 + iv.exp(e))                                             # noqa: E731
    post = lambda p: p * iv.exp(e) / (p * iv.exp(e) + 1 - p)                            # noqa: E731
    small = iv.mpf("0.001")
    return interval_facts([("P[agreeing output] = e^ε/(1 + e^ε)", k, 0.52, None),
                           ("posterior at prior 1/2 (printed: ≤ 52%)", lambda: post(iv.mpf(0.5)), 0.5201, None),
                           ("posterior/prior at prior 0.001 (printed: ≤ 1.1)", lambda: post(small) / small, 1.1001,
                            None),
                           ("posterior − prior at prior 1/2 (printed: ≤ 0.02)", lambda: post(iv.mpf(0.5)) - 0.5,
                            0.02001,
                            None)])


def _exa1_facts():
    """Example A.1's ε̃ = log(3e^{ε/2} − 1) − log(3 − e^{ε/2}) needs 3 − e^{ε/2} > 0, false for every ε ≥ 2.2 (checked on
    [2.2, 50] by interval branch-and-bound)."""
    from mpmath import iv

    from .certify import nonnegative_on_box

    return nonnegative_on_box([("e^{ε/2} − 3", lambda e: iv.exp(e / 2) - 3)], [(2.2, 50.0)])


@lru_cache(maxsize=None)
def eps_tilde_proof(scale=1):
    """Theorem 3.5(2) with ε̃: at the prior 1/2 the difference D = (1 − w)/(2(1 + w)) (w = e^{−Z}) exceeds tanh(ε/4) =
    (a − 1)/(a + 1) (a = e^{ε/2} < 3) exactly where w < (3 − a)/(3a − 1) = e^{−ε̃}, i.e. Z > ε̃: D − tanh(ε/4) equals
    ((3 − a) − w(3a − 1))/(2(1 + w)(a + 1)), an identity checked exactly (and D < −tanh(ε/4) exactly where Z < −ε̃, by
    w ↦ 1/w).  ``scale`` scales ε̃'s threshold e^{−ε̃} (≠ 1: a false variant)."""
    from .certify import nonnegative_on_box

    def gap(a, w):
        return (1 - w) / (2 * (1 + w)) - (a - 1) / (a + 1)

    def formula(a, w):
        return ((3 - a) * scale - w * (3 * a - 1)) / (2 * (1 + w) * (a + 1))

    return nonnegative_on_box([("D − tanh(ε/4) − formula", lambda a, w: gap(a, w) - formula(a, w)),
                               ("formula − (D − tanh(ε/4))", lambda a, w: formula(a, w) - gap(a, w)),
                               ("denominator 2(1 + w)(a + 1)", lambda a, w: 2 * (1 + w) * (a + 1))],
                              [(1.0, 3.0), (0.0, 1e6)])


@lru_cache(maxsize=None)
def pure_dp_proof():
    """Theorem 2.3 (⇒): (ε, 0)-DP ⇒ P[Z > ε + η] = 0 for every η > 0, hence P[|Z| > ε] = 0 (both orders): a linear
    program over P(S), Q(S) for S = {Z > ε + η}: maximise P(S) subject to P(S) − e^ε Q(S) ≤ 0 (DP) and
    e^{ε+η} Q(S) − P(S) ≤ 0; the dual (1, u)/(1 − u), u = e^{−η}, gives 0.  Coordinates (s, u): e^ε = 1/s.  (⇐) is
    Theorem 2.5 at δ = 0."""
    from .certify import parametric_dual_proof

    return parametric_dual_proof(lambda s, u: [1, 0], lambda s, u: [[1, -1 / s], [-1, 1 / (s * u)]],
                                 lambda s, u: [0, 0], lambda s, u: [1 / (1 - u), u / (1 - u)], lambda s, u: 0,
                                 [(0.0, 1.0), (0.0, 1.0)])


def _fig4_checks(day20=0.9, day50=0.98):
    """Figure 4's bound after k days is the least, over δ = uδ′ (u ∈ (0, 1)), of the posterior 1 − 1/(e^{ε′} + 1) =
    1 − (1 − u)/(e^ε + 1) at Theorem 3.9's e^{ε′} = (e^ε + u)/(1 − u), with ε = kρ + 2√(kρ log(1/(uδ′))) (Theorems 2.7, 2.9); for every u it
    exceeds 0.9 at k = 20 and 0.98 at k = 50, so the least one does."""
    from mpmath import iv

    def posterior(k, u):
        rho_k = iv.mpf(k) * iv.mpf(RHO_DAY)
        eps = rho_k + 2 * iv.sqrt(rho_k * iv.log(1 / (u * iv.mpf(DP_41))))
        return 1 - (1 - u) / (iv.exp(eps) + 1)   # 1/(e^{ε′} + 1) = (1 − u)/(e^ε + 1)

    return [(f"posterior at day 20 − {day20}", lambda u: posterior(20, u) - iv.mpf(str(day20))),
            (f"posterior at day 50 − {day50}", lambda u: posterior(50, u) - iv.mpf(str(day50)))]


def _fig7_shape_facts():
    """Figure 7 (ε = 1.8, δ = 10⁻⁵, δ′ = 0.05): the bound's maximiser is 1/(1 + e^{ε′/2}) (Lemma 3.4, certified), at
    least 0.1 from 1/2; at p = 10⁻⁶ both difference bounds are below 10⁻⁵."""
    from mpmath import iv

    from .certify import interval_facts

    eps, delta, dp = (iv.mpf(str(x)) for x in EX43)
    ep = (dp * iv.exp(eps) + delta) / (dp - delta)   # e^{ε′}
    p = iv.mpf("1e-6")
    return interval_facts([("1/2 − 1/(1 + e^{ε′/2})", lambda: iv.mpf(0.5) - 1 / (1 + iv.sqrt(ep)), 0.1, None),
                           ("upper difference bound at p = 10⁻⁶", lambda: p * ep / (p * ep + 1 - p) - p, None, 1e-5),
                           ("lower difference bound at p = 10⁻⁶, negated", lambda: p - p / (p + (1 - p) * ep), None,
                            1e-5)])


_MONO = ("the posterior decreases in w = e^{−Z}", _monotone_proof)


_LP39 = ("Theorem 3.9's linear program", theorem39_proof)


_LP25 = ("Theorem 2.5's linear program", theorem25_proof)


_ALL = "every mechanism (any output space), database, target and both hypotheses"


_FWD = ("Reduction (for every mechanism): a metric increasing in Z that is within its bound at Z = ±t leaves it only "
        "where |Z| > t, so P[it leaves] ≤ P[|Z| > t].")


_LP39_TEXT = ("Linear program over the masses P(S), Q(S), P(T), Q(T) of S = {Z > ε′}, T = {Z < −ε′}, which every "
              "(ε, δ)-DP mechanism makes feasible; its dual in closed form bounds P[|Z| > ε′] by δ′.")


def _lemma(metric):
    return (f"the {metric} at Z = ±t within its bound", lambda: metric_lemma_proof(metric))


def _interval_facts(checks, box):
    from .certify import nonnegative_on_box

    return lambda: nonnegative_on_box(checks, box)


def _fig1_converges_checks():
    from mpmath import iv

    e1, d = iv.exp(iv.mpf(1)), iv.mpf(1) / 10**6
    # ε′ − 1 = log(δ′e + δ) − log(δ′ − δ) − 1 = log(1 + δ(1 + e)/(e(δ′ − δ))): δ′ once, so the enclosure is tight
    gap = lambda dp: iv.log(1 + d * (1 + e1) / (e1 * (dp - d)))                         # noqa: E731
    return [("10⁻³ − (ε′ − 1)", lambda dp: iv.mpf(1) / 1000 - gap(dp)),
            ("ε′ − 1 + 10⁻³", lambda dp: gap(dp) + iv.mpf(1) / 1000)]


def _fig3_tapers_checks():
    from mpmath import iv

    return [("10⁻³ − (1 − posterior bound)", lambda k: iv.mpf(1) / 1000 - 1 / (1 + iv.exp(k * iv.mpf("0.05"))))]


#: The numbered statements of the paper (its headings), for checking references to them.
NUMBERED = ("Definition 2.1", "Definition 2.2", "Theorem 2.3", "Definition 2.4", "Theorem 2.5", "Definition 2.6",
            "Theorem 2.7", "Theorem 2.8", "Theorem 2.9", "Theorem 3.1", "Theorem 3.2", "Theorem 3.3", "Lemma 3.4",
            "Theorem 3.5", "Corollary 3.6", "Corollary 3.7", "Corollary 3.8", "Theorem 3.9", "Corollary 3.10",
            "Corollary 3.11", "Corollary 3.12", "Theorem A.2")


P = 0.005  # a percentage printed without decimals


def _numbered(number: str) -> str:
    """The numbered statement that carries ``number`` ("3.10" → "Corollary 3.10")."""
    found = [s for s in NUMBERED if s.split()[1] == number]
    return found[0] if found else "none"


def _figure_41() -> str:
    """Which figure of Example 4.1 plots the numbers printed with "83% after one week, 96% after one month": Figure 4
    (posterior bound, prior 1/2) or Figure 5 (difference bound)."""
    week, month = _post_41(7), _post_41(30)
    if abs(week - 0.83) <= P and abs(month - 0.96) <= P:
        return "Figure 4"
    return "Figure 5" if abs(_diff_41(7) - 0.83) <= P else "neither"


def _figure_44() -> str:
    """Which figure of §4.4 plots the ratio bounds R̃ (Figure 6's description: about [0.3, 3] at p = 0.5, near 0 the
    bound e^{±ε′}) — Figure 6 (ratio) or Figure 7 (difference, at most tanh(ε′/4) < 1)."""
    low, high = _fig6(0.5)
    ratio_like = abs(low - 0.3) <= 0.05 and high > 1
    return "Figure 6" if ratio_like and _fig7_max(EX43) < 1 else "Figure 7"


def _hypothesis_used(metric: str) -> str:
    """The displayed equation whose event the converse proofs of Theorems 3.3 and 3.5 use in their second case
    (target absent): the ratio event e^{−ε} ≤ X/p ≤ e^ε is (5), the difference event |X − p| ≤ tanh(ε/4) is (9); the
    posterior event (3) differs from both (checked on a grid of priors and posteriors at ε = 1)."""
    eps = 1.0
    events = {
        "(3)": lambda p, x: p / (p + (1 - p) * math.exp(eps)) <= x <= p / (p + (1 - p) * math.exp(-eps)),
        "(5)": lambda p, x: math.exp(-eps) <= x / p <= math.exp(eps),
        "(9)": lambda p, x: abs(x - p) <= math.tanh(eps / 4),
    }
    step = events["(5)" if metric == "ratio" else "(9)"]
    grid = [(p, x) for p in np.linspace(0.05, 0.95, 19) for x in np.linspace(0.01, 0.99, 99)]
    same = [k for k, ev in events.items() if all(ev(p, x) == step(p, x) for p, x in grid)]
    return same[0] if len(same) == 1 else "ambiguous"


def _pure_parameter() -> str:
    """The δ for which Theorem 3.3's or 3.5's condition "≥ 1 − δ" is the pure corollaries' "= 1": δ = 0."""
    return f"(ε, {1 - 1})"


# --- Slips of §4.2, §4.4 and Appendix A found on a line-by-line reading (issue 35) --------------------------------


def _prior_reaching_e_eps() -> float:
    """§4.4: the prior at which an adversary's posterior-to-prior ratio can come close to e^{ε′} (Corollary 3.10's
    bound 1/(p + (1 − p)e^{−ε′}), Example 4.3's release at 95%).  Returns 0 if the bound approaches e^{ε′} as p → 0
    and tends to 1 as p → 1, 1 if the other way round."""
    eps_prime = conversions.pdp_epsilon(*EX43)
    near0 = float(D.prior_ratio_bounds(1e-9, eps_prime)[1])
    near1 = float(D.prior_ratio_bounds(1 - 1e-9, eps_prime)[1])
    target = math.exp(eps_prime)
    if abs(near0 - target) < 1e-6 * target and abs(near1 - 1) < 1e-6:
        return 0.0
    return 1.0 if abs(near1 - target) < 1e-6 * target else math.nan


def _tail_from_23_27(eps: float = 1.0) -> str:
    """Appendix A.5: the tail bound that (23) and (27) give.  (23) is the difference bound at p = 1/(1 + e^{ε/2})
    with the target present, (27) at p = 1/(1 + e^{−ε/2}) with it absent (Z enters with the opposite sign); their
    Z-intervals, from :func:`~dpsemantics.disclosure.leave_thresholds`, both end at +ε above and reach below −ε."""
    a = math.exp(eps / 2)
    lo23, hi23 = (float(x) for x in D.leave_thresholds(1 / (1 + a), eps, "difference"))
    lo, hi = (float(x) for x in D.leave_thresholds(1 / (1 + 1 / a), eps, "difference"))
    lo27, hi27 = -hi, -lo
    upper = math.isclose(hi23, eps) and math.isclose(hi27, eps) and lo23 < -eps and lo27 < -eps
    lower = math.isclose(lo23, -eps) and math.isclose(lo27, -eps) and hi23 > eps and hi27 > eps
    return "P[Z ≤ ε] ≥ 1 − δ" if upper and not lower else ("P[Z ≥ −ε] ≥ 1 − δ" if lower else "neither")


def _pdp_from_difference_bound(eps: float = 1.0, delta: float = 0.01) -> str:
    """Appendix A.9, proof of Corollary 3.12(1): what Theorem 3.5(2) gives from the difference bound (17).  The
    Appendix A.6 mechanism meets (17) (its construction), yet its PDP δ at ε is δ(1 + e^{−ε̃}) > δ; at (ε, 2δ) and
    at (ε̃, δ) it is PDP."""
    present, absent, eps_tilde, _ = D.counterexample_a6(eps, delta)
    at_eps = float(D.pair_pdp_delta(present, absent, eps))
    at_tilde = float(D.pair_pdp_delta(present, absent, eps_tilde))
    if delta < at_eps <= 2 * delta and at_tilde <= delta:
        return "(ε, 2δ)- and (ε̃, δ)-PDP"
    return "(ε, δ)-PDP"


def _ratio_prior_domain() -> str:
    """Appendix A.9, proof of Corollary 3.11: the priors over which the ratio Rᵢ = Xᵢ/pᵢ is defined.  The ratio
    bounds (:func:`~dpsemantics.disclosure.prior_ratio_bounds`) refuse p = 0 and accept p = 1."""
    try:
        D.prior_ratio_bounds(0.0, 1.0)
    except ValueError:
        D.prior_ratio_bounds(1.0, 1.0)
        return "(0, 1]"
    return "[0, 1]"


def _composition_figure() -> str:
    """§4.2: the figure that shows 'the (ε, δ = 10⁻⁶) guarantee of three standard DP composition methods … as a
    function of k' for ε_j = 0.05: basic composition reaches ε = 7.5 at k = 150, which no posterior bound (Figure 3,
    values in [0, 1]) can show; Figure 2 plots the total ε."""
    eps_150 = float(D.composed_epsilon(0.05, [150], 1e-6, method="basic")[0])
    return "Figure 2" if eps_150 > 1 else "Figure 3"
