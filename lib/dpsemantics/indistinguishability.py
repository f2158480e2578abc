"""(ε, δ)-indistinguishability of finite distributions (Lecture 1, Definition 2.1).

For distributions ``p`` and ``q`` on a finite set, the worst event for ``p(E) <= e^ε q(E) + δ`` is
``E = {y : p(y) > e^ε q(y)}``, so the smallest δ that works is the *hockey-stick divergence*

    H_{e^ε}(p ‖ q) = Σ_y max(0, p(y) − e^ε q(y)),

and ``p ≈_(ε,δ) q`` holds exactly when ``δ >= max(H(p‖q), H(q‖p))``.  At ε = 0 the hockey stick is the
total variation distance (Lecture 1, Exercise 7.1).  All functions broadcast over ``eps``.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

from ._validate import check_delta, check_distribution, check_epsilon, check_positive_int

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
    "group_parameters",
    "check_transitivity_answer",
]


def _pair(p, q):
    p = check_distribution(p, "p")
    q = check_distribution(q, "q")
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same support size (got {p.size} and {q.size})")
    return p, q


def hockey_stick(p, q, eps):
    """One-sided hockey-stick divergence ``Σ max(0, p − e^ε q)``: the smallest δ with p(E) ≤ e^ε q(E) + δ
    for every event E (Lecture 1, Definition 2.1, one direction)."""
    p, q = _pair(p, q)
    eps = np.asarray(check_epsilon(eps, "eps", allow_inf=True))
    # p − e^ε q = p (1 − e^{ε + log q − log p}), evaluated without forming e^ε (which overflows past ε ≈ 709
    # while the divergence is still positive when q is tiny).
    both = (p > 0) & (q > 0)
    log_ratio = np.log(np.where(both, q, 1.0)) - np.log(np.where(both, p, 1.0))
    # where q = 0 the whole of p counts (exponent −∞); where p = 0 nothing does
    exponent = np.where(both, np.minimum(eps[..., None] + log_ratio, 0.0), -np.inf)
    terms = np.where(p > 0, -p * np.expm1(exponent), 0.0)
    out = terms.sum(axis=-1)
    return float(out) if out.ndim == 0 else out


def smallest_delta(p, q, eps):
    """The smallest δ such that ``p ≈_(ε,δ) q`` (both directions of Definition 2.1)."""
    return np.maximum(hockey_stick(p, q, eps), hockey_stick(q, p, eps))


def is_indistinguishable(p, q, eps, delta, *, tol: float = 1e-12) -> bool:
    """Whether ``p ≈_(ε,δ) q`` (Lecture 1, Definition 2.1), up to floating-point slack ``tol``."""
    delta = check_delta(delta)
    return bool(np.all(smallest_delta(p, q, eps) <= delta + tol))


def total_variation(p, q) -> float:
    """Total variation distance ``max_E |p(E) − q(E)| = ½ Σ |p − q|``."""
    p, q = _pair(p, q)
    return float(0.5 * np.abs(p - q).sum())


def max_divergence(p, q) -> float:
    """The smallest ε with ``p ≈_(ε,0) q``: ``max_y |log p(y) − log q(y)|`` (∞ if supports differ)."""
    p, q = _pair(p, q)
    both = (p > 0) & (q > 0)
    if np.any((p > 0) != (q > 0)):
        return float("inf")
    return float(np.max(np.abs(np.log(p[both]) - np.log(q[both]))))


def smallest_epsilon(p, q, delta) -> float:
    """The smallest ε ≥ 0 with ``p ≈_(ε,δ) q`` (∞ if none; 0 when δ ≥ TV(p, q))."""
    p, q = _pair(p, q)
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
    p, q = _pair(p, q)
    eps = check_epsilon(eps, "eps")
    return p > np.exp(eps) * q


def event_violation(p, q, eps, event) -> float:
    """``p(E) − e^ε q(E)`` for the event given as a boolean mask: Definition 2.1 asks this be ≤ δ."""
    p, q = _pair(p, q)
    eps = check_epsilon(eps, "eps")
    mask = np.asarray(event, dtype=bool)
    if mask.shape != p.shape:
        raise ValueError(f"event must be a boolean mask of length {p.size} (got shape {mask.shape})")
    return float(p[mask].sum() - np.exp(eps) * q[mask].sum())


def transitivity_parameters(eps, delta):
    """Parameters (ε′, δ′) = (2ε, (1 + e^ε)δ) with ``p ≈ q ≈ r ⇒ p ≈_(ε′,δ′) r`` (Lecture 1, Exercise 7.2).

    Chaining the two inequalities of Definition 2.1 gives ``p(E) ≤ e^ε(e^ε r(E) + δ) + δ``.
    """
    eps = check_epsilon(eps, "eps")
    delta = check_delta(delta)
    return 2 * eps, np.minimum(1.0, (1 + np.exp(eps)) * delta)


def smallest_delta_over_events(p, q, eps) -> float:
    """The smallest δ of Definition 2.1 found by checking every event E ⊆ support (2^m of them).

    Exponential in the support size m (allowed up to 16): an independent check of :func:`smallest_delta`.
    """
    p, q = _pair(p, q)
    eps = check_epsilon(eps, "eps")
    m = p.size
    if m > 16:
        raise ValueError(f"p must have at most 16 outcomes for an exhaustive search (got {m})")
    events = ((np.arange(2**m)[:, None] >> np.arange(m)) & 1).astype(bool)
    pe, qe = events @ p, events @ q
    factor = np.exp(eps)
    return float(max(np.max(pe - factor * qe), np.max(qe - factor * pe), 0.0))


def transitivity_witness(eps, delta):
    """Three distributions p ≈ q ≈ r, each pair (ε, δ)-indistinguishable, with p and r exactly at
    (2ε, (1 + e^ε)δ): the bound of :func:`transitivity_parameters` is attained (Lecture 1, Exercise 7.2).

    On two outcomes {a, b}: r puts no mass on a, q puts δ there and p puts (1 + e^ε)δ; the event {a}
    then uses the full slack of both steps.  Needs (1 + e^ε)δ ≤ 1 and the reverse inequalities on {b},
    which hold when δ is small next to ε; they are checked here, not assumed.
    """
    eps = check_epsilon(eps, "eps")
    delta = check_delta(delta)
    a_p = (1 + np.exp(eps)) * delta
    if a_p > 1:
        raise ValueError(f"delta too large for the witness: (1 + e^eps)*delta must be <= 1 (got delta={delta})")
    p = np.array([a_p, 1 - a_p])
    q = np.array([delta, 1 - delta])
    r = np.array([0.0, 1.0])
    if not (is_indistinguishable(p, q, eps, delta) and is_indistinguishable(q, r, eps, delta)):
        raise ValueError(f"no two-point witness for eps={eps}, delta={delta}: delta is too large relative to eps")
    return p, q, r


def group_parameters(eps, delta, group_size: int):
    """Group privacy: an (ε, δ)-DP algorithm is (gε, δ_g)-DP for datasets differing in g records, with
    δ_g = δ Σ_{j<g} e^{jε} ≤ g e^{(g−1)ε} δ (Dwork & Roth 2014, Thm 2.2 for δ = 0; in general, chaining
    Lecture 1, Exercise 7.2's argument g times along a path of adjacent datasets).

    This is the "group" flavour of DP that Lecture 1, §4 mentions; user-level DP asks for it directly.
    """
    eps = check_epsilon(eps, "eps")
    delta = check_delta(delta)
    g = check_positive_int(group_size, "group_size")
    # Σ_{j<g} e^{jε} δ: the chain p_0 ≈ p_1 ≈ … ≈ p_g accumulates each step's δ scaled by e^{jε}.
    slack = delta * np.sum(np.exp(eps * np.arange(g)))
    return g * eps, min(1.0, float(slack))


def check_transitivity_answer(eps_prime, delta_prime, *, trials: int = 300, seed: int = 0) -> dict:
    """Check a student's answer to Lecture 1, Exercise 7.2.

    ``eps_prime(eps, delta)`` and ``delta_prime(eps, delta)`` are the proposed parameters.  The answer is
    tried on random chains p ≈ q ≈ r (Dirichlet distributions on 2–6 outcomes, δ set to the least value
    the chain needs) and on :func:`transitivity_witness`.  Returns whether it was ever violated, a
    counterexample if so, and whether it is as tight as (2ε, (1 + e^ε)δ).
    """
    trials = check_positive_int(trials, "trials")
    rng = np.random.default_rng(seed)
    cases = []
    for eps in (0.1, 0.5, 1.0, 2.0):
        for delta in (1e-3, 1e-2):
            cases.append((eps, delta, *transitivity_witness(eps, delta)))
    for _ in range(trials):
        m = int(rng.integers(2, 7))
        p, q, r = rng.dirichlet(np.full(m, 0.5), size=3)
        eps = float(rng.uniform(0.05, 2.0))
        delta = float(max(smallest_delta(p, q, eps), smallest_delta(q, r, eps)))
        cases.append((eps, delta, p, q, r))
    for eps, delta, p, q, r in cases:
        e2, d2 = float(eps_prime(eps, delta)), float(delta_prime(eps, delta))
        needed = float(smallest_delta(p, r, e2))
        if needed > d2 + 1e-12:
            return {"valid": False, "counterexample": {"eps": eps, "delta": delta, "p": p, "q": q, "r": r,
                                                        "needed_delta": needed, "your_delta": d2}}
    tight = all(
        float(delta_prime(e, d)) <= (1 + np.exp(e)) * d * (1 + 1e-9) and float(eps_prime(e, d)) <= 2 * e * (1 + 1e-9)
        for e in (0.1, 0.5, 1.0, 2.0)
        for d in (1e-3, 1e-2)
    )
    return {"valid": True, "counterexample": None, "as_tight_as_reference": tight}

