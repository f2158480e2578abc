"""(ε, δ)-indistinguishability of finite distributions (Lecture 1, Definition 2.1).

For distributions ``p`` and ``q`` on a finite set, the worst event for ``p(E) <= e^ε q(E) + δ`` is
``E = {y : p(y) > e^ε q(y)}``, so the smallest δ that works is the *hockey-stick divergence*

    H_γ(p ‖ q) = Σ_y max(0, p(y) − γ q(y))   with γ = e^ε,

and ``p ≈_(ε,δ) q`` holds exactly when ``δ >= max(H(p‖q), H(q‖p))``.  At ε = 0 the hockey stick is the
total variation distance (Lecture 1, Exercise 7.1).  All functions broadcast over ``eps``.

The pair's zCDP ρ (Kazan et al., Definition 2.6), a supremum over Rényi orders α, is bracketed by
:func:`zcdp_rho_bracket` with a certified upper end (:func:`zcdp_rho`), never estimated from a grid of α alone.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np

from . import _rounding
from ._rounding import UNIT_ROUNDOFF as _U  # u, the unit round-off
from ._validate import (as_output, check_delta, check_distribution_pair, check_epsilon, check_positive,
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
    "transitivity_delta_limit",
    "group_parameters",
    "zcdp_rho",
    "zcdp_rho_bracket",
]


def _hockey_nearest(p, q, eps):
    """Σ max(0, p − e^ε q) evaluated in floating point, to nearest: the kernel ``_pair_hockey`` makes safe.

    Near a tie (ε within a few ulps of log(p/q) at some outcome) a term of size ~u·ε·p can be lost, so that 0 is
    returned where the exact value is positive (4.8e-14 at ε ≈ 620); never read as a δ on its own."""
    # p − e^ε q = p (1 − e^{ε + log q − log p}), evaluated without forming e^ε (which overflows past ε ≈ 709
    # while the divergence is still positive when q is tiny).
    both = (p > 0) & (q > 0)
    log_ratio = np.log(np.where(both, q, 1.0)) - np.log(np.where(both, p, 1.0))
    # where q = 0 the whole of p counts (exponent −∞); where p = 0 nothing does
    exponent = np.where(both, np.minimum(eps[..., None] + log_ratio, 0.0), -np.inf)
    return np.where(p > 0, -p * np.expm1(exponent), 0.0).sum(axis=-1), (exponent < 0.0).any(axis=-1)


def _pair_hockey(p, q, mass_error=0.0):
    """This side's E[(1 − e^{ε − Z})₊] + P[Z = +∞] for the loss of the pair (P, Q) (outputs merged by their loss
    value will do: merging outputs of equal loss keeps the divergence), never below the exact value: a function
    of ε (an array) for the masses ``p``, ``q``.

    Each term is p·(1 − e^x) with x = ε + log(q/p), log(q/p) computed as the log of the quotient where that is a
    normal float (within 1.01u + 8u|log(q/p)|: the quotient within u, the log within 4 ulps) and as
    log q − log p elsewhere (within 8u(|log p| + |log q|) + u|log(q/p)|), the sum within ½ ulp: the bound e on
    |x − exact exponent| is those, plus u(ε + |log(q/p)|), times 1.02; near a tie (x ≈ 0) that error is relative
    to the term of any size (at P = (0.9, 0.1), Q = (0.1, 0.9) and an ε just below log(P/Q) the plain evaluation
    returned 0 where the exact value is positive).  So, for the exact masses of a finite pair (``mass_error`` = 0):
    a term with x + e < 0 is evaluated at x − e (the term decreases in x: never below the exact one), a term with
    x − e ≥ 0 is exactly 0, and a term in between (a tie) is decided and evaluated at 200 bits and rounded up.  At
    ε = 0 the exact Σ (p − q)₊ is used (each p − q exact or within ½ ulp, 0 only where p = q).  The sum is enlarged
    by its rounding allowance (each of the n terms within 2 ulps, their sum within n ulps), and below the normal
    range, where a product keeps only absolute accuracy (half a subnormal ulp a term), by n subnormal ulps
    (n·5e-324) wherever some term is positive: a positive value is never returned as 0.  The mass that only P can
    produce (q = 0) is summed exactly and added, with one ulp up for that addition.

    Computed masses (``mass_error`` > 0, the relative error of each) keep the coarser rule: ``_hockey_nearest``
    at ε lowered by 8 ulps of ε and 16u·max|log| + 4·``mass_error``, and Σ (p − q)₊ enlarged by ``mass_error``
    times Σ (p + q)."""
    grow = 1.0 + (4.0 * p.size + 8.0) * _U
    floor = p.size * _rounding.SMALLEST_SUBNORMAL
    mass_error = min(float(mass_error), 1.0)
    both = (p > 0) & (q > 0)
    with np.errstate(divide="ignore", over="ignore", under="ignore"):
        lp, lq = np.log(np.where(both, p, 1.0)), np.log(np.where(both, q, 1.0))
        logs = np.abs(np.concatenate([np.log(p[p > 0]), np.log(q[q > 0])]))
        # log(q/p): as the log of the quotient where that is a normal float (the quotient within u, so its log within
        # 1.01u, and the log's own 4 ulps), else as log q − log p (each log 4 ulps, the difference ½ ulp)
        ratio = np.where(both, q, 1.0) / np.where(both, p, 1.0)
        normal = both & (ratio >= 2.3e-308) & (ratio <= 1e308)
        lr = np.where(normal, np.log(np.where(normal, ratio, 1.0)), lq - lp)
        lr_err = np.where(normal, 1.01 * _U + 8.0 * _U * np.abs(lr),
                          8.0 * _U * (np.abs(lp) + np.abs(lq)) + _U * np.abs(lr))
    # the value at ε = 0: p − q is exact or within ½ ulp (for exact masses), and 0 only where p = q
    total_variation = float(np.sum(np.maximum(p - q, 0.0))) + mass_error * float(np.sum(p) + np.sum(q))
    only_p = (p > 0) & (q == 0)  # the whole of p counts at every ε: their sum, rounded up (exact when it is a float)
    lone = _rounding.rational_up(sum((Fraction(float(x)) for x in p[only_p]), Fraction(0)))
    equal = p == q  # exactly 0 at every ε ≥ 0

    def coarse(eps):
        slack = 16.0 * _U * float(np.max(logs, initial=0.0)) + 4.0 * mass_error
        lowered = eps * (1.0 - 8.0 * _U) - slack
        at, some = _hockey_nearest(p, q, np.maximum(lowered, 0.0))
        at = np.where(some, np.asarray(at, dtype=float) + floor, at)
        return np.minimum(np.where(lowered > 0.0, at, total_variation) * grow, 1.0)

    def hockey(eps):
        eps = np.asarray(eps, dtype=float)
        if mass_error > 0.0:
            return coarse(eps)
        flat = eps.reshape(-1)[:, None]
        with np.errstate(invalid="ignore", over="ignore"):
            x = flat + lr
            err = 1.02 * (lr_err + _U * (flat + np.abs(lr)))  # and the sum ε + log(q/p), ½ ulp
            sure = both & ~equal & (x + err < 0.0)
            tie = both & ~equal & ~sure & (x - err < 0.0) & np.isfinite(flat)
            terms = np.where(sure, -p * np.expm1(np.where(sure, x - err, 0.0)), 0.0)
        for k, j in zip(*np.nonzero(tie)):
            terms[k, j] = _tie_term(float(p[j]), float(q[j]), float(flat[k, 0]))
        out = terms.sum(axis=-1)
        # a certainly positive term may underflow to 0: the floor goes wherever one is positive
        out = np.where((sure | (terms > 0)).any(axis=-1), (out + floor) * grow, 0.0)
        # plus the mass only P can produce, summed exactly (so that it is returned exactly when it is all)
        out = np.where(out > 0, _rounding.up(out + lone, 1), lone)
        out = np.where(flat[:, 0] == 0.0, total_variation * grow, out)
        return np.minimum(out, 1.0).reshape(eps.shape)

    return hockey


def _tie_term(p: float, q: float, eps: float) -> float:
    """max(0, p − e^ε q) = p·(−expm1(ε + log q − log p))₊ for floats p, q > 0, p ≠ q, ε < ∞, rounded up: the sign of
    the exponent decided at 200 bits (then 400, 1 000: it is not 0, since e^ε = p/q has no solution in floats
    with ε > 0 — e^ε is transcendental, Lindemann — and ε = 0 with p ≠ q is not a tie), the term then raised by
    2⁻¹⁵⁰ relative (its error at that precision is below 2⁻¹⁹⁰) and rounded up to a float."""
    for prec in (200, 400, 1000):
        with mpmath.workprec(prec):
            x = mpmath.mpf(eps) + mpmath.log(mpmath.mpf(q)) - mpmath.log(mpmath.mpf(p))
            if abs(x) > mpmath.mpf(2) ** (40 - prec) * (1 + abs(mpmath.mpf(eps)) + 800):
                if x >= 0:
                    return 0.0
                term = -mpmath.mpf(p) * mpmath.expm1(x) * (1 + mpmath.mpf(2) ** -150)
                man, exp = term.man_exp
                return _rounding.rational_up(Fraction(int(man)) * Fraction(2) ** int(exp))
    raise ValueError(f"p and q give a tie p = e^eps q too close to decide (p={p!r}, q={q!r}, eps={eps!r})")


def hockey_stick(p, q, eps):
    """One-sided hockey-stick divergence ``Σ max(0, p − e^ε q)``: the smallest δ with p(E) ≤ e^ε q(E) + δ
    for every event E (Lecture 1, Definition 2.1, one direction).  Rounded up: never below the exact value of
    the float inputs, and never 0 where that is positive (the error analysis is ``_pair_hockey``'s, the
    same evaluation as ``PrivacyLoss.finite(p, q).hockey_stick``)."""
    p, q = check_distribution_pair(p, q)
    eps = np.asarray(check_epsilon(eps, "eps", allow_inf=True), dtype=float)
    return as_output(_pair_hockey(p, q)(eps))


def smallest_delta(p, q, eps):
    """The smallest δ such that ``p ≈_(ε,δ) q`` (both directions of Definition 2.1); rounded up (the larger of
    the two :func:`hockey_stick` values, each never below its exact value)."""
    return as_output(np.maximum(hockey_stick(p, q, eps), hockey_stick(q, p, eps)))


def is_indistinguishable(p, q, eps, delta, *, tol: float = 1e-12) -> bool:
    """Whether ``p ≈_(ε,δ) q`` (Lecture 1, Definition 2.1), up to floating-point slack ``tol``."""
    eps = check_epsilon(eps, "eps", allow_inf=True, scalar=True)  # one answer: arrays are refused, not reduced
    delta = check_delta(delta, scalar=True)
    return bool(smallest_delta(p, q, eps) <= delta + tol)


def total_variation(p, q) -> float:
    """Total variation distance ``max_E |p(E) − q(E)| = ½ Σ |p − q|``, rounded up (it is the δ of the pair at
    ε = 0, Lecture 1, Exercise 7.1): each |p − q| within ½ ulp (exact below the normal range), the sum of n
    non-negative terms within (n − 1)u relative, so raised n + 2 ulps, and the halving rounded away from 0 (a
    subnormal halving is inexact).  0 only where p = q; at most 1."""
    p, q = check_distribution_pair(p, q)
    total = _rounding.up(float(np.abs(p - q).sum()), p.size + 2)
    return min(1.0, float(_rounding.mul_away(0.5, total)))


def max_divergence(p, q) -> float:
    """The smallest ε with ``p ≈_(ε,0) q``: ``max_y |log p(y) − log q(y)|`` (∞ if supports differ), rounded up.

    Each log within 4 ulps (NumPy's SIMD kernels; 1 in glibc), at most 8u|log p| + 8u|log q|, and the difference
    within ½ ulp (u|d|): each |d| is raised by that before the maximum, and the result by 2 ulps for the sum's own
    rounding.  Outcomes with p = q add nothing (their loss is exactly 0), so equal distributions give 0."""
    p, q = check_distribution_pair(p, q)
    both = (p > 0) & (q > 0)
    if np.any((p > 0) != (q > 0)):
        return float("inf")
    lp, lq = np.log(p[both]), np.log(q[both])
    d = np.abs(lp - lq)
    err = np.where(p[both] != q[both], 8.0 * _U * (np.abs(lp) + np.abs(lq)) + _U * d, 0.0)
    return float(_rounding.up(float(np.max(d + err)), 2))


def smallest_epsilon(p, q, delta) -> float:
    """The smallest ε ≥ 0 with ``p ≈_(ε,δ) q`` (∞ if none; 0 when δ ≥ TV(p, q)), rounded up: never below the exact
    value.  δ = 0: :func:`max_divergence`; otherwise the search of ``PrivacyLoss.finite(p, q).epsilon`` on the
    same rounded-up :func:`smallest_delta` (its ε is the upper end of a bracket at which the rounded-up δ is at
    most δ, so the exact δ is too)."""
    from .privacy_loss import PrivacyLoss

    p, q = check_distribution_pair(p, q)
    delta = check_delta(delta, scalar=True)
    if smallest_delta(p, q, 0.0) <= delta:
        return 0.0
    if delta == 0.0:
        return max_divergence(p, q)
    return float(PrivacyLoss.finite(p, q).epsilon(delta))


def _exp_times(eps, x):
    """e^ε·x for masses x ≥ 0: 0 where x = 0 (not ∞·0 = NaN), ∞ where the product is beyond the float range."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.where(np.asarray(x) > 0, np.exp(eps) * x, 0.0)


def worst_event(p, q, eps) -> np.ndarray:
    """Boolean mask of the event ``{y : p(y) > e^ε q(y)}`` that attains the hockey-stick divergence."""
    p, q = check_distribution_pair(p, q)
    eps = check_epsilon(eps, "eps", scalar=True)
    return p > _exp_times(eps, q)


def _violation_up(pe, qe, eps: float, m: int):
    """A float never below p(E) − e^ε q(E), for event masses ``pe``, ``qe`` (arrays) computed as sums of at most m
    of the masses (each within (m − 1)u relative of its exact sum: non-negative terms).

    e^ε·q(E): e^ε within 4 ulps (8u) and the product within u, so (m + 9)u with q(E)'s own error; where e^ε
    overflows (ε > 709.78) it is e^{ε + log q(E)}, whose exponent is off by 8u|log q(E)| (the log) + mu (q(E)'s
    error) + u|ε + log q(E)| (the sum), which moves the result by that much relative (times 1.01), plus 8u for
    exp.  Below the normal range a product keeps absolute accuracy only: one subnormal ulp (5e-324) is added for
    it.  The difference rounds within u of itself.  The first-order bound is doubled (covering the rounding of
    its own evaluation and second-order terms) and the sum raised 2 ulps.  Where e^ε q(E) is beyond the float
    range the exact value is below −(largest float), which is returned."""
    pe, qe = np.asarray(pe, dtype=float), np.asarray(qe, dtype=float)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore", under="ignore"):
        grows = math.exp(eps) if eps < 709.0 else math.inf
        if math.isfinite(grows):
            t = grows * qe
            rel = (m + 9.0) * _U
        else:
            arg = eps + np.log(np.where(qe > 0, qe, 1.0))
            t = np.where(qe > 0, np.exp(arg), 0.0)
            rel = 1.01 * (8.0 * _U * np.abs(arg - eps) + m * _U + _U * np.abs(arg)) + 9.0 * _U
        v = pe - t
        err = 2.0 * (rel * t + m * _U * pe + _U * np.abs(v)) + np.where(
            (t > 0) & (t < 2.3e-308), _rounding.SMALLEST_SUBNORMAL, 0.0)
        out = _rounding.up(v + err, 2)
    return np.where(np.isinf(t), -np.finfo(float).max, out)


def event_violation(p, q, eps, event) -> float:
    """``p(E) − e^ε q(E)`` for the event given as a boolean mask: Definition 2.1 asks this be ≤ δ.  Rounded up
    (the δ this event needs, never understated; ``_violation_up`` gives the error analysis)."""
    p, q = check_distribution_pair(p, q)
    eps = check_epsilon(eps, "eps", scalar=True)
    mask = np.asarray(event)
    if mask.dtype != bool or mask.shape != p.shape:
        raise ValueError(f"event must be a boolean mask of length {p.size} (got event={event!r:.60})")
    return float(_violation_up(p[mask].sum(), q[mask].sum(), float(eps), p.size))


@overflow_is_infinity
def transitivity_parameters(eps, delta):
    """Parameters (ε′, δ′) = (2ε, (1 + e^ε)δ) with ``p ≈ q ≈ r ⇒ p ≈_(ε′,δ′) r`` (Lecture 1, Exercise 7.2).

    Chaining the two inequalities of Definition 2.1 gives ``p(E) ≤ e^ε(e^ε r(E) + δ) + δ``.
    """
    eps = check_epsilon(eps, "eps")
    delta = check_delta(delta)
    # δ + e^ε·δ: at δ = 0 it is 0 for every ε, where (1 + e^ε)·δ was ∞·0 = NaN once e^ε overflows
    # rounded up: exp within 4 ulps, the product and the sum ½ each (2ε exact)
    return as_output(2 * np.asarray(eps)), as_output(np.minimum(1.0, _rounding.up(delta + _exp_times(eps, delta), 6)))


def transitivity_delta_limit(eps):
    """The largest δ at which the answer (2ε, (1 + e^ε)δ) of Lecture 1, Exercise 7.2 cannot be improved:
    1/(e^ε + 2) (this book).

    For an event E with r(E) = 0 the chain's reverse steps give q(E) ≤ δ and
    p(E) ≤ 1 − (1 − q(E) − δ)/e^ε, so p(E) = (1 + e^ε)δ needs (1 + e^ε)δ ≤ 1 − (1 − 2δ)/e^ε, i.e.
    (e^ε − 1)(e^ε + 2)δ ≤ e^ε − 1.  Above this δ the worst chain needs less than (1 + e^ε)δ at 2ε (the linear
    program of the claims registry finds the same limit); below it neither parameter can be lowered.
    """
    eps = check_epsilon(eps, "eps")
    with np.errstate(over="ignore"):  # e^ε beyond the float range: the limit is 0
        # the largest δ, so rounded down: exp within 4 ulps (8u, of which e^ε/(e^ε + 2) counts), the sum and the
        # quotient ½ each: under 9u, lowered 10 ulps
        return as_output(_rounding.down(1.0 / (np.exp(eps) + 2.0), 10))


def smallest_delta_over_events(p, q, eps) -> float:
    """The smallest δ of Definition 2.1 found by checking every event E ⊆ support (2^m of them).

    Exponential in the support size m (allowed up to 16): an independent check of :func:`smallest_delta`.
    Rounded up: every event's p(E) − e^ε q(E) is raised by its own error bound (the evaluation shares nothing
    with :func:`hockey_stick`'s).
    """
    p, q = check_distribution_pair(p, q)
    eps = check_epsilon(eps, "eps", scalar=True)
    m = p.size
    if m > 16:
        raise ValueError(f"p must have at most 16 outcomes for an exhaustive search (got {m})")
    events = ((np.arange(2**m)[:, None] >> np.arange(m)) & 1).astype(bool)
    pe, qe = events @ p, events @ q
    if float(eps) == 0.0:
        # e^0 = 1: p(E) − q(E) as one sum of the differences p − q (each within ½ ulp, exact below the normal range
        # and 0 where p = q), within (m − 1)u·Σ|p − q| + ½ ulp: raised by twice that, so equal rows give exactly 0
        diff = events.astype(float) @ (p - q)
        spread = events.astype(float) @ np.abs(p - q)
        best = float(np.max(_rounding.up(np.abs(diff) + 2.0 * (m + 1.0) * _U * spread, 2)))  # both orders
        return min(1.0, max(best, 0.0))
    # rounded up, each event's value by _violation_up
    best = max(float(np.max(_violation_up(pe, qe, float(eps), m))), float(np.max(_violation_up(qe, pe, float(eps), m))))
    return min(1.0, max(best, 0.0))


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
    # e^ε·x with 0 for x = 0 at every ε (δ = 0 or t = 0 with e^ε beyond the float range: not ∞·0 = NaN)
    q = np.array([delta, _exp_times(eps, t), 0.0])
    p = np.array([delta + _exp_times(eps, delta), _exp_times(eps, q[1]), 0.0])
    r = np.array([0.0, t, 0.0])
    if p[:2].sum() > 1:
        raise ValueError("delta too large for the witness: (1 + e^eps)*delta + e^(2 eps)*t must be <= 1 "
                         f"(got eps={eps}, delta={delta}, t={t})")
    p[2], q[2], r[2] = 1 - p[:2].sum(), 1 - q[:2].sum(), 1 - r[:2].sum()
    if not (is_indistinguishable(p, q, eps, delta) and is_indistinguishable(q, r, eps, delta)):
        raise ValueError(f"no three-point witness for eps={eps}, delta={delta}, t={t}: delta or t too "
                         "large relative to eps")
    return p, q, r




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
        slack = float(_rounding.mul_away(g, delta))
    elif math.isinf(eps):
        slack = 1.0
    else:
        terms = (math.log(delta), _log_expm1(g * eps), -_log_expm1(eps))
        # each term within a few ulps: their sum is off by at most 4u·Σ|term|, added before exp (outward)
        log_slack = sum(terms) + 4 * _U * (sum(abs(t) for t in terms) + 1.0)
        slack = 1.0 if log_slack >= 0.0 else float(_rounding.exp_up(log_slack))  # never 0 for a positive δ_g
    return float(_rounding.mul_away(g, eps)), min(1.0, slack)  # gε rounded up


def _log_expm1(x: float) -> float:
    """log(e^x − 1) for x > 0 (x may be +inf), without overflow."""
    if x > 30.0:
        return x + math.log1p(-math.exp(-x))
    return math.log(math.expm1(x))


# --------------------------------------------------------------------------------------------------
# ρ-zCDP of a pair (Bun & Steinke 2016, Definition 1.1; Kazan et al., Definition 2.6)
# --------------------------------------------------------------------------------------------------

def _log_moment(t: np.ndarray, w: np.ndarray, z: np.ndarray, z_err: float):
    """f(1 + t) = log Σ_y w(y) e^{t z(y)} = log E_P[e^{(α−1)Z}] at each t = α − 1 > 0, with an error bound.

    Where t·max|z| ≤ 1 the form log1p(Σ w·expm1(tz)) keeps relative accuracy as f → 0 (α → 1); beyond, the
    log-sum-exp form m + log Σ w e^{tz − m}.  The bound is twice the first-order rounding error of the form used
    ((n + 3)u·Σ w|expm1(tz)|/(1 + S) for the first, (n + 3)u·(max(|tz| + |log w|) + 1) for the second, 2u|f| for
    the last rounding, and the renormalised weights' error (n + 2)u, times max|expm1(tz)|/(1 + S) in the first
    form), plus t·``z_err`` for the error of the computed losses z (f moves by at most t·η when every z moves by at
    most η)."""
    n = z.size
    tz = t[:, None] * z[None, :]
    small = t * np.max(np.abs(z)) <= 1.0
    e = np.expm1(np.where(small[:, None], tz, 0.0))
    s = e @ w
    f_small = np.log1p(s)
    # the sum's rounding, and weights off by (n + 2)u in total: both in proportion to |expm1(tz)|, so → 0 as t → 0
    err_small = ((n + 3) * _U * (np.abs(e) @ w) + (n + 2) * _U * np.max(np.abs(e), axis=1)) / (1.0 + s)
    lw = np.log(w)
    m = np.max(tz + lw, axis=1)
    f_large = m + np.log(np.exp(tz + lw - m[:, None]).sum(axis=1))
    err_large = (n + 3) * _U * (np.max(np.abs(tz) + np.abs(lw), axis=1) + 1.0) + (n + 2) * _U
    f = np.where(small, f_small, f_large)
    return f, 2.0 * (np.where(small, err_small, err_large) + 2 * _U * np.abs(f)) + t * z_err


def _chord_bound(ta, tb, fa, fb):
    """max over t ∈ [ta, tb] of ℓ(t)/(t(1 + t)) (α = 1 + t), ℓ the chord through (ta, fa) and (tb, fb), 0 < ta < tb: at
    an end, or at a root of s t² + 2c t + c = 0 (ℓ = c + s t), where the derivative of ℓ/(t + t²) vanishes."""
    s = (fb - fa) / (tb - ta)
    c = fa - s * ta
    best = np.maximum(fa / (ta * (1 + ta)), fb / (tb * (1 + tb)))
    disc = c * (c - s)
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(np.maximum(disc, 0.0))
        for r in ((-c + root) / s, (-c - root) / s):
            inside = (s != 0) & (disc >= 0) & (r > ta) & (r < tb)
            r = np.where(inside, r, 1.0)
            best = np.where(inside, np.maximum(best, (c + s * r) / (r * (1 + r))), best)
    return best


#: Refinement stops at this many points of α per order of the pair (the bracket is valid at any stop, only wider).
_MAX_POINTS = 20000


def _rho_bracket_one(w: np.ndarray, z: np.ndarray, z_err: float, rtol: float) -> tuple[float, float]:
    """``(lower, upper)`` for sup_{α>1} f(α)/(α(α − 1)), f(α) = log E_w[e^{(α−1)z}], one order of the pair (each
    computed loss z within ``z_err`` of the exact one)."""
    z_max = float(np.max(z))
    if z_max <= 0.0:  # Σw = 1 and E_w[e^{-z}] = 1 (Q sums to one) force z = 0 where w > 0: the same distribution
        return 0.0, 0.0
    t = np.geomspace(1e-7, 1e3, 241)  # t = α − 1
    while True:
        f, err = _log_moment(t, w, z, z_err)
        lower = float(np.max(f / (t * (1 + t))))
        fu = f + err
        cells = _chord_bound(t[:-1], t[1:], fu[:-1], fu[1:]) * (1 + 1e-12)
        first = fu[0] / t[0] * (1 + 1e-12)  # (1, α₀]: f ≤ its chord from (1, 0), so f/(α(α−1)) ≤ D_{α₀}
        tail = (z_max + z_err) / (1 + t[-1]) * (1 + 1e-12)  # [α_N, ∞): D_α ≤ D_∞ = max z
        upper = max(float(np.max(cells)), first, tail)
        target = lower * (1 + rtol)
        if upper <= target or t.size > _MAX_POINTS:
            return lower, upper
        bad = cells > target
        new = [(t[:-1][bad] + t[1:][bad]) / 2]
        if first > target and t[0] > 1e-300:
            new.append([t[0] / 16])
        if tail > target:
            new.append(np.geomspace(2 * t[-1], min(max(2 * t[-1], 2 * z_max / max(lower, 1e-300)), 1e300), 8))
        grown = np.unique(np.concatenate([t, *map(np.asarray, new)]))
        if grown.size == t.size:  # nothing left to split at float resolution
            return lower, upper
        t = grown


def zcdp_rho_bracket(p, q, *, rtol: float = 1e-9) -> tuple[float, float]:
    """``(lower, upper)`` around the smallest ρ for which the pair is ρ-zCDP: ρ* = sup over α > 1 and both orders of
    D_α(p‖q)/α, D_α = log E_p[e^{(α−1)Z}]/(α − 1), Z = log p/q (Bun & Steinke 2016, Definition 1.1; Kazan et al.,
    Definition 2.6: E[e^{(α−1)Z}] ≤ e^{α(α−1)ρ}).  ``lower`` is a value of D_α/α at some α (up to rounding); ``upper``
    is certified, so ρ = ``upper`` is a valid zCDP parameter of the pair; the two differ by at most ``rtol``
    relatively (unless rounding alone is larger, as for two distributions 10⁻⁹ apart: then ``upper`` stays safe and
    the bracket wider).  Supports that differ give (∞, ∞) (D_α = ∞ for α > 1); equal distributions (0, 0).

    The upper end rests on two facts, proved here.  (i) f(α) = log E_p[e^{(α−1)Z}] = log Σ_y q(y) e^{α Z(y)} is a
    log-sum-exp of functions linear in α, hence **convex**, with f(1) = 0; so on a cell [a, b] f lies below its chord,
    and f(α)/(α(α − 1)) ≤ chord(α)/(α(α − 1)), maximised in closed form (at an end or at a root of a quadratic).
    (ii) D_α = (f(α) − f(1))/(α − 1) is the slope of a convex function from 1, hence **non-decreasing** in α, with
    limit D_∞ = max Z; so on (1, α₀] the ratio is at most D_{α₀}, and on [α_N, ∞) at most max Z / α_N.  Cells are
    bisected (and the grid pushed towards 1 and ∞) until the largest cell bound is within ``rtol`` of ``lower``, or
    20 000 points of α are used.
    Each f(α) is raised by twice its first-order rounding error and by the effect of the rounding of the losses
    log p − log q, and the result by a relative 10⁻¹²; ``p`` and ``q`` are renormalised to sum to one first.  A
    grid maximum of D_α/α alone is only a lower estimate of ρ*."""
    p, q = check_distribution_pair(p, q)
    rtol = float(check_positive(rtol, "rtol", scalar=True))
    if np.any((p > 0) != (q > 0)):
        return math.inf, math.inf
    keep = p > 0
    p, q = p[keep] / p[keep].sum(), q[keep] / q[keep].sum()
    lp, lq = np.log(p), np.log(q)
    z = lp - lq
    z_err = float(np.max(3 * _U * (np.abs(lp) + np.abs(lq)) + _U * np.abs(z)))  # two logs and a difference
    brackets = [_rho_bracket_one(p, z, z_err, rtol), _rho_bracket_one(q, -z, z_err, rtol)]
    return max(b[0] for b in brackets), max(b[1] for b in brackets)


def zcdp_rho(p, q, *, rtol: float = 1e-9) -> float:
    """The pair's zCDP ρ, rounded up: the certified upper end of :func:`zcdp_rho_bracket` (within ``rtol`` of the
    supremum ρ* = sup_α D_α/α), so that the pair is ρ-zCDP for the value returned (Kazan et al., Definition 2.6)."""
    return zcdp_rho_bracket(p, q, rtol=rtol)[1]
