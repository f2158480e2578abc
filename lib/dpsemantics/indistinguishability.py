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

import numpy as np
from scipy.optimize import brentq

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


def hockey_stick(p, q, eps):
    """One-sided hockey-stick divergence ``Σ max(0, p − e^ε q)``: the smallest δ with p(E) ≤ e^ε q(E) + δ
    for every event E (Lecture 1, Definition 2.1, one direction).

    The definition evaluated in floating point, rounded to nearest, not outward: near a tie (ε within a few ulps
    of log(p/q) at some outcome) a term of size ~u·ε·p can be lost, so that 0 is returned where the exact value
    is positive (4.8e-14 at ε ≈ 620).  Where the δ decides a guarantee, use
    ``PrivacyLoss.finite(p, q).delta(eps)`` (:class:`~dpsemantics.privacy_loss.PrivacyLoss`), which evaluates
    this function at an ε lowered by its error and enlarges the sum by its rounding: never below the exact
    value."""
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
    eps = check_epsilon(eps, "eps", allow_inf=True, scalar=True)  # one answer: arrays are refused, not reduced
    delta = check_delta(delta, scalar=True)
    return bool(smallest_delta(p, q, eps) <= delta + tol)


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
    delta = check_delta(delta, scalar=True)
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


def _exp_times(eps, x):
    """e^ε·x for masses x ≥ 0: 0 where x = 0 (not ∞·0 = NaN), ∞ where the product is beyond the float range."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.where(np.asarray(x) > 0, np.exp(eps) * x, 0.0)


def worst_event(p, q, eps) -> np.ndarray:
    """Boolean mask of the event ``{y : p(y) > e^ε q(y)}`` that attains the hockey-stick divergence."""
    p, q = check_distribution_pair(p, q)
    eps = check_epsilon(eps, "eps", scalar=True)
    return p > _exp_times(eps, q)


def event_violation(p, q, eps, event) -> float:
    """``p(E) − e^ε q(E)`` for the event given as a boolean mask: Definition 2.1 asks this be ≤ δ."""
    p, q = check_distribution_pair(p, q)
    eps = check_epsilon(eps, "eps", scalar=True)
    mask = np.asarray(event)
    if mask.dtype != bool or mask.shape != p.shape:
        raise ValueError(f"event must be a boolean mask of length {p.size} (got event={event!r:.60})")
    return float(p[mask].sum() - _exp_times(eps, q[mask].sum()))


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
    """
    p, q = check_distribution_pair(p, q)
    eps = check_epsilon(eps, "eps", scalar=True)
    m = p.size
    if m > 16:
        raise ValueError(f"p must have at most 16 outcomes for an exhaustive search (got {m})")
    events = ((np.arange(2**m)[:, None] >> np.arange(m)) & 1).astype(bool)
    pe, qe = events @ p, events @ q
    return float(max(np.max(pe - _exp_times(eps, qe)), np.max(qe - _exp_times(eps, pe)), 0.0))


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
