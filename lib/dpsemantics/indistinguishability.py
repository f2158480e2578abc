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

from ._validate import check_delta, check_distribution, check_epsilon

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
    with np.errstate(over="ignore", invalid="ignore"):
        # p − e^ε q with e^ε = ∞ and q = 0 is p, not NaN.
        scaled = np.where(q == 0, 0.0, np.exp(eps)[..., None] * q)
    out = np.clip(p - scaled, 0.0, None).sum(axis=-1)
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
