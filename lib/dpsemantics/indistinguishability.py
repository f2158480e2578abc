"""(ε, δ)-indistinguishability of finite distributions (Lecture 1, Definition 2.1).

For distributions ``p`` and ``q`` on a finite set, the worst event for ``p(E) <= e^ε q(E) + δ`` is
``E = {y : p(y) > e^ε q(y)}``, so the smallest δ that works is the *hockey-stick divergence*

    H_γ(p ‖ q) = Σ_y max(0, p(y) − γ q(y))   with γ = e^ε,

and ``p ≈_(ε,δ) q`` holds exactly when ``δ >= max(H(p‖q), H(q‖p))``.  At ε = 0 the hockey stick is the
total variation distance (Lecture 1, Exercise 7.1).  All functions broadcast over ``eps``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq

from . import _rounding
from ._validate import (as_output, check_delta, check_distribution_pair, check_epsilon,
                        check_positive_int, overflow_is_infinity)

__all__ = [
    "hockey_stick",
    "smallest_delta",
    "smallest_epsilon",
    "is_indistinguishable",
    "total_variation",
    "max_divergence",
    "worst_event",
    "event_violation",
    "transitivity_parameters",
    "smallest_delta_over_events",
    "transitivity_witness",
    "transitivity_worst_delta",
    "group_parameters",
]


def hockey_stick(p, q, eps):
    """One-sided hockey-stick divergence ``Σ max(0, p − e^ε q)``: the smallest δ with p(E) ≤ e^ε q(E) + δ
    for every event E (Lecture 1, Definition 2.1, one direction)."""
    p, q = check_distribution_pair(p, q)
    eps = np.asarray(check_epsilon(eps, "eps", allow_inf=True))
    # p − e^ε q = p (1 − e^{ε + log q − log p}), evaluated without forming e^ε (which overflows past ε ≈ 709
    # while the divergence is still positive when q is tiny).
    both = (p > 0) & (q > 0)
    log_ratio = np.log(np.where(both, q, 1.0)) - np.log(np.where(both, p, 1.0))
    # where q = 0 the whole of p counts (exponent −∞); where p = 0 nothing does
    exponent = np.where(both, np.minimum(eps[..., None] + log_ratio, 0.0), -np.inf)
    terms = np.where(p > 0, -p * np.expm1(exponent), 0.0)
    return as_output(terms.sum(axis=-1))


def smallest_delta(p, q, eps):
    """The smallest δ such that ``p ≈_(ε,δ) q`` (both directions of Definition 2.1)."""
    return as_output(np.maximum(hockey_stick(p, q, eps), hockey_stick(q, p, eps)))


def is_indistinguishable(p, q, eps, delta, *, tol: float = 1e-12) -> bool:
    """Whether ``p ≈_(ε,δ) q`` (Lecture 1, Definition 2.1), up to floating-point slack ``tol``."""
    delta = check_delta(delta)
    return bool(np.all(smallest_delta(p, q, eps) <= delta + tol))


def total_variation(p, q) -> float:
    """Total variation distance ``max_E |p(E) − q(E)| = ½ Σ |p − q|``."""
    p, q = check_distribution_pair(p, q)
    return float(0.5 * np.abs(p - q).sum())


def max_divergence(p, q) -> float:
    """The smallest ε with ``p ≈_(ε,0) q``: ``max_y |log p(y) − log q(y)|`` (∞ if supports differ)."""
    p, q = check_distribution_pair(p, q)
    both = (p > 0) & (q > 0)
    if np.any((p > 0) != (q > 0)):
        return float("inf")
    return float(np.max(np.abs(np.log(p[both]) - np.log(q[both]))))


def smallest_epsilon(p, q, delta) -> float:
    """The smallest ε ≥ 0 with ``p ≈_(ε,δ) q`` (∞ if none; 0 when δ ≥ TV(p, q))."""
    p, q = check_distribution_pair(p, q)
    delta = check_delta(delta)
    if smallest_delta(p, q, 0.0) <= delta:
        return 0.0
    top = max_divergence(p, q)
    if delta == 0.0:
        return top
    if not np.isfinite(top):
        # δ below the mass on which the supports differ can never be reached.
        if smallest_delta(p, q, 700.0) > delta:
            return float("inf")
        top = 700.0
    return float(brentq(lambda e: smallest_delta(p, q, e) - delta, 0.0, top, xtol=1e-14, rtol=1e-14))


def worst_event(p, q, eps) -> np.ndarray:
    """Boolean mask of the event ``{y : p(y) > e^ε q(y)}`` that attains the hockey-stick divergence."""
    p, q = check_distribution_pair(p, q)
    eps = check_epsilon(eps, "eps")
    return p > np.exp(eps) * q


def event_violation(p, q, eps, event) -> float:
    """``p(E) − e^ε q(E)`` for the event given as a boolean mask: Definition 2.1 asks this be ≤ δ."""
    p, q = check_distribution_pair(p, q)
    eps = check_epsilon(eps, "eps")
    mask = np.asarray(event, dtype=bool)
    if mask.shape != p.shape:
        raise ValueError(f"event must be a boolean mask of length {p.size} (got shape {mask.shape})")
    return float(p[mask].sum() - np.exp(eps) * q[mask].sum())


@overflow_is_infinity
def transitivity_parameters(eps, delta):
    """Parameters (ε′, δ′) = (2ε, (1 + e^ε)δ) with ``p ≈ q ≈ r ⇒ p ≈_(ε′,δ′) r`` (Lecture 1, Exercise 7.2).

    Chaining the two inequalities of Definition 2.1 gives ``p(E) ≤ e^ε(e^ε r(E) + δ) + δ``.
    """
    eps = check_epsilon(eps, "eps")
    delta = check_delta(delta)
    return as_output(2 * np.asarray(eps)), as_output(np.minimum(1.0, (1 + np.exp(eps)) * delta))


def smallest_delta_over_events(p, q, eps) -> float:
    """The smallest δ of Definition 2.1 found by checking every event E ⊆ support (2^m of them).

    Exponential in the support size m (allowed up to 16): an independent check of :func:`smallest_delta`.
    """
    p, q = check_distribution_pair(p, q)
    eps = check_epsilon(eps, "eps")
    m = p.size
    if m > 16:
        raise ValueError(f"p must have at most 16 outcomes for an exhaustive search (got {m})")
    events = ((np.arange(2**m)[:, None] >> np.arange(m)) & 1).astype(bool)
    pe, qe = events @ p, events @ q
    factor = np.exp(eps)
    return float(max(np.max(pe - factor * qe), np.max(qe - factor * pe), 0.0))


@overflow_is_infinity
def transitivity_witness(eps, delta, t=None):
    """Three distributions p ≈ q ≈ r, each pair (ε, δ)-indistinguishable, that show the answer
    (2ε, (1 + e^ε)δ) of :func:`transitivity_parameters` cannot be improved in either parameter
    (Lecture 1, Exercise 7.2).

    Three outcomes {a, b, c}: on a, r puts 0, q puts δ and p puts (1 + e^ε)δ — the event {a} uses the full
    slack of both steps, so at 2ε exactly (1 + e^ε)δ is needed (δ′ cannot be lowered); on b, r puts t,
    q puts e^ε t and p puts e^{2ε} t — the pure factor e^ε of both steps, so at any ε′ < 2ε the pair (p, r)
    needs (1 + e^ε)δ + (e^{2ε} − e^{ε′})t > (1 + e^ε)δ (ε′ cannot be lowered without raising δ′).  c takes
    the rest.  ``t`` defaults to δ; the validity of the chain is checked here, not assumed.
    """
    eps = check_epsilon(eps, "eps", scalar=True)
    delta = check_delta(delta, "delta", scalar=True)
    t = float(delta) if t is None else float(check_delta(t, "t", scalar=True))
    e = float(np.exp(eps))
    p = np.array([(1 + e) * delta, e * e * t, 0.0])
    q = np.array([delta, e * t, 0.0])
    r = np.array([0.0, t, 0.0])
    if p[:2].sum() > 1:
        raise ValueError("delta too large for the witness: (1 + e^eps)*delta + e^(2 eps)*t must be <= 1 "
                         f"(got delta={delta}, t={t})")
    p[2], q[2], r[2] = 1 - p[:2].sum(), 1 - q[:2].sum(), 1 - r[:2].sum()
    if not (is_indistinguishable(p, q, eps, delta) and is_indistinguishable(q, r, eps, delta)):
        raise ValueError(f"no three-point witness for eps={eps}, delta={delta}, t={t}: delta or t too "
                         "large relative to eps")
    return p, q, r


@overflow_is_infinity
def transitivity_worst_delta(eps, delta, eps_prime=None, outcomes: int = 3, *, return_chain: bool = False):
    """The largest δ needed for ``p ≈_(ε′, ·) r`` over all chains ``p ≈_(ε,δ) q ≈_(ε,δ) r`` on ``outcomes``
    outcomes, by linear programming (Lecture 1, Exercise 7.2; ε′ defaults to 2ε).

    For a fixed event E the objective ``p(E) − e^{ε′} r(E)`` is linear, and each hockey-stick constraint
    ``Σ_y max(0, p_y − e^ε q_y) ≤ δ`` is linear with one slack variable per outcome; by symmetry E can be
    taken to be the first k outcomes, k = 1, …, outcomes − 1.  An optimiser's attack on the answer
    (2ε, (1 + e^ε)δ), which it attains.  With ``return_chain`` the optimal chain ``(p, q, r)`` is returned
    as well (clipped and renormalised, so that its exact δs can be recomputed free of solver tolerance).
    """
    from scipy.optimize import linprog

    eps = float(check_epsilon(eps, "eps", scalar=True))
    delta = float(check_delta(delta, "delta", scalar=True))
    eps_prime = 2 * eps if eps_prime is None else float(check_epsilon(eps_prime, "eps_prime", scalar=True))
    # the LP is solved in floating point: with e^ε beyond ~1e11 its coefficients swamp the probabilities and
    # HiGHS returns 0 (measured: correct to 1e-12 up to ε = 20, wrong from ε = 40)
    for name, value in (("eps", eps), ("eps_prime", eps_prime)):
        if value > _LP_EPS_MAX:
            raise ValueError(f"{name} must be at most {_LP_EPS_MAX} for this linear program (got {name}={value!r})")
    m = check_positive_int(outcomes, "outcomes", minimum=2, maximum=200)
    e = np.exp(eps)
    nv = 7 * m  # p, q, r, then slacks s1..s4
    P, Q, R = (slice(k * m, (k + 1) * m) for k in range(3))
    S = [slice((3 + k) * m, (4 + k) * m) for k in range(4)]
    A_ub, b_ub = [], []
    for (x, y), s in zip(((P, Q), (Q, P), (Q, R), (R, Q)), S):
        for j in range(m):
            row = np.zeros(nv)
            row[x.start + j], row[y.start + j], row[s.start + j] = 1.0, -e, -1.0
            A_ub.append(row), b_ub.append(0.0)
        row = np.zeros(nv)
        row[s] = 1.0
        A_ub.append(row), b_ub.append(delta)
    A_eq = np.zeros((3, nv))
    for k, sl in enumerate((P, Q, R)):
        A_eq[k, sl] = 1.0
    best, chain = 0.0, None
    for k in range(1, m):
        c = np.zeros(nv)
        c[P.start:P.start + k] = -1.0
        c[R.start:R.start + k] = np.exp(eps_prime)
        res = linprog(c, A_ub=np.array(A_ub), b_ub=b_ub, A_eq=A_eq, b_eq=np.ones(3), bounds=(0, None), method="highs")
        if res.status == 0 and -float(res.fun) >= best:
            best = -float(res.fun)
            x = np.clip(res.x, 0.0, None)
            chain = tuple(x[sl] / x[sl].sum() for sl in (P, Q, R))
    best = min(best, 1.0)  # a δ; the solver's tolerance can put it a few ulps above 1
    return (best, chain) if return_chain else best


_LP_EPS_MAX = 25.0
_U = np.finfo(float).eps / 2


@overflow_is_infinity
def group_parameters(eps, delta, group_size: int):
    """Group privacy: an (ε, δ)-DP algorithm is (gε, δ_g)-DP for datasets differing in g records, with
    δ_g = δ Σ_{j<g} e^{jε} ≤ g e^{(g−1)ε} δ (Dwork & Roth 2014, Thm 2.2 for δ = 0; in general, chaining
    Lecture 1, Exercise 7.2's argument g times along a path of adjacent datasets).

    This is the "group" flavour of DP that Lecture 1, §4 mentions; user-level DP asks for it directly.
    """
    eps = float(check_epsilon(eps, "eps", scalar=True))
    delta = float(check_delta(delta, "delta", scalar=True))
    g = check_positive_int(group_size, "group_size", maximum=10**15)
    # Σ_{j<g} e^{jε} δ: the chain p_0 ≈ p_1 ≈ … ≈ p_g accumulates each step's δ scaled by e^{jε}; in closed
    # form δ·expm1(gε)/expm1(ε) (δ·g at ε = 0), taken in logs so that no term overflows, rounded up
    if delta == 0.0 or g == 1:
        slack = delta
    elif eps == 0.0:
        slack = g * delta
    elif math.isinf(eps):
        slack = 1.0
    else:
        terms = (math.log(delta), _log_expm1(g * eps), -_log_expm1(eps))
        # each term within a few ulps: their sum is off by at most 4u·Σ|term|, added before exp (outward)
        log_slack = sum(terms) + 4 * _U * (sum(abs(t) for t in terms) + 1.0)
        slack = 1.0 if log_slack >= 0.0 else _rounding.up(math.exp(log_slack), 2)
    return g * eps, min(1.0, slack)


def _log_expm1(x: float) -> float:
    """log(e^x − 1) for x > 0 (x may be +inf), without overflow."""
    if x > 30.0:
        return x + math.log1p(-math.exp(-x))
    return math.log(math.expm1(x))
