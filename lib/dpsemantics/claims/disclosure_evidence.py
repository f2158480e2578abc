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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import conversions
from .. import disclosure as D
from ..privacy_loss import pair_losses
from .._validate import as_output, check_delta, check_epsilon, check_positive, check_positive_int, overflow_is_infinity

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
    """Mask [prior, output]: the loss z leaves [lo, hi] (with a relative slack of 1e-12 for the end points)."""
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
    lo, hi = D.leave_thresholds(np.atleast_1d(priors), eps, metric)
    mask = leaves_mask(pair_losses(a, b), lo, hi)
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
            lo, hi = D.leave_thresholds(np.atleast_1d(priors), eps, kind)
            for mask in leaves_mask(losses, lo, hi):
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
