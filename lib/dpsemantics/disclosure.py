"""Disclosure risk of a differentially private release (Kazan, Sharma, Zhang, Jiang & Yan).

The setting is the membership-inference game of Kazan et al., §3.1: an adversary knows every record of
the database except whether the target ``i`` is in it, holds a prior ``p = P[I_i = 1]`` and sees the
output Y of the mechanism, which came either from M(x) (target present) or from M(x_{−i})
(target absent).  The adversary's posterior is the random variable ``X_i = P[I_i = 1 | Y]``.

What the module computes, with the result of the paper each function implements:

* the posterior as a function of the privacy-loss random variable (Theorem 3.1, eq. (2)) and, for
  comparison, directly with Bayes' rule;
* the posterior, posterior-to-prior ratio and posterior-to-prior difference bounds of probabilistic DP
  (Theorems 3.2, 3.3, 3.5, eqs. (3), (5), (8)), of pure DP (Corollaries 3.6–3.8) and of approximate DP
  via Theorem 3.9's ε′ (Corollaries 3.10–3.12);
* the priors that make the difference bound extreme (Lemma 3.4) and the ε̃ of Theorem 3.5(2), which
  exists only for ε < 2·log 3;
* exact distributions of the posterior for mechanisms whose privacy loss is known (a
  :class:`~dpsemantics.privacy_loss.PrivacyLoss`: randomized response and its compositions, Laplace,
  Gaussian, geometric, any finite pair), to show how far a concrete mechanism is from the worst case;
* the inverse problems of §4.3: the largest ε a disclosure-risk requirement allows, per release under
  composition;
* the losses at which each metric leaves its bound (eqs. (3), (5), (8) with Theorem 3.1):
  :func:`leave_thresholds` (to nearest, or inside or around the exact interval) and :func:`leaves`, which decides
  each loss exactly;
* :func:`explain`: the plain-language explanations of §4.1 with the numbers filled in for a release.

Numerics: every bound of Theorems 3.2, 3.3 and 3.5 (and Lemma 3.4) is rounded outward — an upper bound is never
below the exact value, a lower bound never above it — by a stated number of ulps that covers its evaluation
error (``_posterior_form``).  The bound ``p / (p + (1 − p)e^{−ε})`` is evaluated as written where no intermediate
leaves the normal range (|ε| ≤ 700: within 14u), else in log-odds form, exp(−log(1 + e^{−logit p − ε})),
whose error grows with |log p| + |ε|; both are exact at p = 0 and p = 1.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import numpy as np
from scipy.special import expit

from . import _rounding
from .privacy_loss import PrivacyLoss
from .indistinguishability import smallest_delta
from ._broadcast import broadcasting
from ._validate import (as_float, as_output, broadcast, check_delta, check_distribution_pair, check_epsilon,
                        check_instance, check_positive, check_positive_int, check_probability, refuse_where)
from .errors import NumericalLimit

__all__ = [
    "EPS_TILDE_LIMIT",
    "logit",
    "posterior_bounds",
    "ratio_bounds",
    "prior_ratio_bounds",
    "difference_bound",
    "prior_difference_bounds",
    "worst_case_prior",
    "epsilon_tilde",
    "symmetric_ratio_bounds",
    "symmetric_difference_bound",
    "posterior_from_privacy_loss",
    "bayes_posterior",
    "posterior_interval_probability",
    "ratio_interval_probability",
    "difference_interval_probability",
    "posterior_quantile",
    "counterexample_a6",
    "approximate_bounds",
    "DisclosureBounds",
    "best_zcdp_pdp_epsilon",
    "dp_epsilon_for_pdp",
    "epsilon_for_difference",
    "epsilon_for_ratio",
    "epsilon_for_posterior",
    "epsilon_for_profile",
    "per_release_epsilon",
    "lattice_optimal_epsilon",
    "composed_epsilon",
    "composed_posterior_bound",
    "zcdp_eps_prime",
    "first_exceeding",
    "explain",
    "METRICS",
    "pair_hockey",
    "pair_pdp_delta",
    "leave_thresholds",
    "LEAVE_SIDES",
    "leaves",
]

#: Theorem 3.5(2)'s ε̃ = log(3e^{ε/2} − 1) − log(3 − e^{ε/2}) exists only for e^{ε/2} < 3, i.e. ε < 2·log 3.
EPS_TILDE_LIMIT = 2.0 * math.log(3.0)


_out = as_output


def logit(p):
    """log(p/(1 − p)) with log1p for accuracy near 1; ±inf at p = 0, 1 (no warning)."""
    p = np.asarray(check_probability(p, "p"), dtype=float)
    with np.errstate(divide="ignore"):
        return as_output(np.log(p) - np.log1p(-p))


_EXP_ULPS = 4.0  # np.exp, expm1, log, log1p, tanh: within 4 ulps (1 in glibc; NumPy's AVX-512 kernels allow up to 4)
_DIRECT_MAX_EPS = 700.0  # e^{±700} is a normal float, and so is the denominator p + q·e^{−s} (≥ e^{−700}/2)


def _posterior_form(p, q, s, *, reciprocal: bool = False):
    """``(x, ulps)``: x = p/(p + q·e^{−s}) (Kazan et al., Theorem 3.1, eq. (2) at privacy loss s), or with
    ``reciprocal`` x = 1/(p + q·e^{−s}), and a bound on |x − exact| in ulps of x, for the outward rounding of
    the bounds that use it.  p ∈ [0, 1] is exact; q is 1 − p as a float (within u of it).

    Where |s| ≤ 700 the formula as written: e^{−s} within 4 ulps (8u), q·e^{−s} within 10u (plus, if it is
    subnormal, 2⁻¹⁰⁷⁵ absolutely), the sum of two nonnegative terms 11u — p + q ≈ 1, so the sum is at least
    e^{−700}/2, a normal float, against which 2⁻¹⁰⁷⁵ is below u — the quotient 13u (13u + u for a numerator q that
    carries its own rounding); one ulp of x is at least u·x, and at least the rounding of a subnormal x, so 16 ulps
    cover it.  Elsewhere the log-odds form x = exp(−log(1 + e^{log q − log p − s})) (or
    exp(−logaddexp(log p, log q − s))): each logarithm within 4 ulps, i.e. 8u of its magnitude, the sums within u
    of theirs, and x's relative sensitivity to the exponent at most 1, so 8(|log p| + |log q| + |s| + 2) ulps; the
    exponential (``_rounding.exp_no_underflow``, never below e^{log x}, at most 1e-12 relative and two subnormal
    ulps above it) 8 more."""
    p, q, s = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (p, q, s)))
    direct = np.abs(s) <= _DIRECT_MAX_EPS
    with np.errstate(divide="ignore", over="ignore", under="ignore", invalid="ignore"):
        denominator = p + q * np.exp(-np.clip(s, -_DIRECT_MAX_EPS, _DIRECT_MAX_EPS))
        lp, lq = np.log(p), np.log(q)
        # log x = −log(1 + e^{−y}), y = log p − log q + s (expit(y) itself underflows to 0 below y ≈ −709)
        log_x = -np.logaddexp(lp, lq - s) if reciprocal else -np.logaddexp(0.0, lq - lp - s)
        x = np.where(direct, (1.0 if reciprocal else p) / denominator, _rounding.exp_no_underflow(log_x))
        finite_logs = np.where(np.isfinite(lp), np.abs(lp), 0.0) + np.where(np.isfinite(lq), np.abs(lq), 0.0)
        ulps = np.where(direct, 16.0, 2.0 * _EXP_ULPS * (finite_logs + np.abs(s) + 3.0))
    return x, ulps


# --------------------------------------------------------------------------------------------------
# Bounds of Theorems 3.2, 3.3, 3.5 and Lemma 3.4 (pure DP: Corollaries 3.6–3.8)
# --------------------------------------------------------------------------------------------------


@broadcasting(prior=check_probability, eps=check_epsilon)
def posterior_bounds(prior, eps):
    """Kazan et al., Theorem 3.2, eq. (3) (pure DP: Corollary 3.6, eq. (10)).

    Under (ε, δ)-PDP, with probability at least 1 − δ the adversary's posterior lies in
    ``[p/(p + (1−p)e^{ε}), p/(p + (1−p)e^{−ε})]``.  Returns ``(low, high)``; broadcasts over ``prior``
    and ``eps``.  Rounded outward (``_posterior_form``): low never above, high never below the exact value;
    exact at ε = 0 and at p ∈ {0, 1}.
    """
    p, q = prior, 1.0 - prior
    low, low_ulps = _posterior_form(p, q, -eps)
    high, high_ulps = _posterior_form(p, q, eps)
    exact = (eps == 0) | (p * q == 0)
    low = np.where(exact, p, np.clip(_rounding.down(low, low_ulps), 0.0, p))
    high = np.where(exact, p, np.clip(_rounding.up(high, high_ulps), p, 1.0))
    return low, high


@broadcasting(eps=check_epsilon)
def ratio_bounds(eps):
    """Kazan et al., Theorem 3.3, eq. (5) (pure DP: Corollary 3.7): the prior-free bounds
    ``(e^{−ε}, e^{ε})`` on the posterior-to-prior ratio.  Rounded outward by exp's 4 ulps; exact at ε = 0."""
    with np.errstate(over="ignore"):  # e^ε beyond the float range is +inf, its limit
        low, high = _rounding.down(np.exp(-eps), _EXP_ULPS), _rounding.up(np.exp(eps), _EXP_ULPS)
    return np.where(eps == 0, 1.0, np.maximum(low, 0.0)), np.where(eps == 0, 1.0, high)


@broadcasting(prior=partial(check_probability, open_low=True), eps=check_epsilon)
def prior_ratio_bounds(prior, eps):
    """The prior-dependent ratio bounds behind Theorem 3.3 (proof in Appendix A.3):
    ``1/(p + (1−p)e^{ε}) ≤ X/p ≤ 1/(p + (1−p)e^{−ε})``.  The ratio needs p > 0.  Rounded outward
    (``_posterior_form``); exact at ε = 0 and p = 1; the upper bound at most 1/p (X ≤ 1), +inf where 1/p is."""
    return _ratio_bounds(prior, 1.0 - prior, eps)


def _ratio_bounds(p, q, eps):
    """``prior_ratio_bounds`` with the complement q of p given: ``_ratio_bounds(1 − p, p, ε)`` bounds
    (1 − X)/(1 − p) with the exact p in the place of 1 − (1 − p)."""
    low, low_ulps = _posterior_form(p, q, -eps, reciprocal=True)
    high, high_ulps = _posterior_form(p, q, eps, reciprocal=True)
    exact = (eps == 0) | (q == 0)
    with np.errstate(over="ignore", divide="ignore"):
        # X ≤ 1, so X/p ≤ 1/p whatever ε: the cap keeps the bound finite where the allowance, which grows with ε, is
        # larger than the value (at ε = 1e300 it was 3.6e285)
        trivial = _rounding.up(1.0 / p, 1)
        return (np.where(exact, 1.0, np.clip(_rounding.down(low, low_ulps), 0.0, 1.0)),
                np.where(exact, 1.0, np.clip(_rounding.up(high, high_ulps), 1.0, trivial)))


@broadcasting(eps=check_epsilon)
def difference_bound(eps):
    """Kazan et al., Theorem 3.5(1), eq. (8) (pure DP: Corollary 3.8): the prior-free bound
    ``(e^{ε/2} − 1)/(e^{ε/2} + 1) = tanh(ε/4)`` on |posterior − prior|.  Rounded up by tanh's 4 ulps (and
    ε/4's rounding when subnormal), at most 1; exact at ε = 0."""
    # a subnormal ε/4 may round to 0, where tanh(ε/4) > 0 is still above 0: the smallest float is above it
    floor = np.where(eps > 0, _rounding.SMALLEST_SUBNORMAL, 0.0)
    return np.minimum(np.maximum(_rounding.up(np.tanh(eps / 4.0), _EXP_ULPS + 1.0), floor), 1.0)


@broadcasting(prior=check_probability, eps=check_epsilon)
def prior_difference_bounds(prior, eps):
    """The prior-dependent difference bounds of Lemma 3.4, eq. (6): ``(low − p, high − p)`` with
    ``(low, high) = posterior_bounds(p, ε)``, written as ``∓p(1−p)(1 − e^{∓ε})/(…)`` so that no
    cancellation occurs near p = 0 or 1: high = (1 − p)(1 − e^{−ε})·p/(p + (1 − p)e^{−ε}) and
    low = −p(1 − e^{−ε})·(1 − p)/((1 − p) + p·e^{−ε}).  Rounded outward: the fraction's error
    (``_posterior_form``, n ulps, at most 2nu relative), −expm1's 8u, q's u and two products' 2u — so
    2n + 12 ulps; exact (0) at ε = 0 and p ∈ {0, 1}; never outside [−p, 1 − p], the move the posterior can make."""
    p = prior
    q = 1.0 - p
    one_minus_em = -np.expm1(-eps)
    up_part, up_ulps = _posterior_form(p, q, eps)
    down_part, down_ulps = _posterior_form(q, p, eps)
    still = (p * q == 0) | (eps == 0)  # the posterior cannot move
    # below the normal range the products may underflow to 0 where the exact move is positive: ±5e-324 then
    tiny = _rounding.SMALLEST_SUBNORMAL
    high = np.where(still, 0.0, np.maximum(_rounding.up(q * one_minus_em * up_part, 2.0 * up_ulps + 12.0), tiny))
    low = np.where(still, 0.0, np.minimum(_rounding.down(-p * one_minus_em * down_part, 2.0 * down_ulps + 12.0),
                                          -tiny))
    # the posterior lies in [0, 1], so its move in [−p, 1 − p] whatever ε: the caps keep the bounds inside it where
    # the allowance, which grows with ε, exceeds the value (±1.8e285 at ε = 1e300, ±inf at 1e308)
    return np.maximum(low, -p), np.minimum(high, _rounding.up(q, 1))


@broadcasting(eps=check_epsilon)
def worst_case_prior(eps):
    """Kazan et al., Lemma 3.4: the priors at which the difference bounds of eq. (6) are extreme.

    Returns ``(p_up, p_down)``: ``p_up = 1/(1 + e^{ε/2})`` maximises the upper limit (the largest
    possible increase of the posterior), ``p_down = 1/(1 + e^{−ε/2})`` minimises the lower limit.
    """
    return expit(-eps / 2.0), expit(eps / 2.0)


def epsilon_tilde(eps):
    """Kazan et al., Theorem 3.5(2) and Corollary 3.12(1): ``ε̃ = log(3e^{ε/2} − 1) − log(3 − e^{ε/2})``.

    It is the privacy loss at which the posterior of an adversary with prior 1/2 moves by exactly
    tanh(ε/4); it exists only for ``ε < 2·log 3`` (beyond, tanh(ε/4) ≥ 1/2 and the prior-1/2 adversary
    constrains nothing).  A ``ValueError`` is raised outside that range.  The ε of a guarantee (the mechanism is
    (ε̃, δ)-PDP): rounded up, never below the exact ε̃ (``_epsilon_tilde_bounds``); 0 at ε = 0.
    """
    eps = np.asarray(check_epsilon(eps, "eps"), dtype=float)
    if np.any(eps >= EPS_TILDE_LIMIT):  # (the float 2·log 3 is 1.8e-16 above the exact one: every ε below it is too)
        bad = eps[eps >= EPS_TILDE_LIMIT].flat[0] if eps.ndim else float(eps)
        raise ValueError(
            f"eps must be < 2*log(3) = {EPS_TILDE_LIMIT:.6f} for Theorem 3.5's epsilon-tilde to exist (got eps={bad!r})"
        )
    return _out(_epsilon_tilde_bounds(eps)[1])


_TILDE_TINY = 1e-100  # below it ε̃ = ε + ε³/16 + O(ε⁵) lies between ε and the next float up


def _epsilon_tilde_bounds(eps: np.ndarray):
    """(lower, upper) floats around the exact ε̃ of :func:`epsilon_tilde`, for checked ε in [0, 2·log 3).

    ε̃ = A + B with A = log1p(3m/2), B = −log1p(−m/2), m = e^{ε/2} − 1 (expm1: ε̃ → 0 smoothly as ε → 0); ε/2 is exact
    for ε ≥ 1e-100.  Errors, with u = 2⁻⁵³ and exp, expm1, log1p within 4 ulps (8u relative, ``_EXP_ULPS``): m
    within 8u·m; 3m/2 within 9.01u relative (the product rounds once), and since log1p(a) has relative condition
    a/((1 + a)log1p(a)) ≤ 1 in a, A within 9.01u·A + 8u·A; m/2 within 8u relative, and B = −log(1 − b) moves by
    b/(1 − b) per unit relative change of b, so B within 8u·b/(1 − b) + 8u·B (large only next to 2·log 3, where
    1 − b → 0); the sum A + B of two non-negative terms within u of itself.  One ulp of the result is at least u
    times it, so ⌈err/ulp⌉ + 1 ulps each way bound ε̃.  Below 1e-100, ε ≤ ε̃ ≤ ε(1 + ε²/15) < ε + ulp(ε)."""
    tiny = eps < _TILDE_TINY
    h = np.where(tiny, 1.0, eps) / 2.0
    m = np.expm1(h)
    a = np.log1p(3.0 * m / 2.0)
    b = m / 2.0
    minus_b = -np.log1p(-b)
    value = a + minus_b
    u = _rounding.UNIT_ROUNDOFF
    err = 17.01 * u * a + 8.0 * u * (b / (1.0 - b) + minus_b) + u * value
    ulps = 1.0 + np.ceil(err / np.spacing(value))
    low = np.where(tiny, eps, np.maximum(_rounding.down(value, ulps), 0.0))
    high = np.where(tiny, _rounding.up(eps, 1), _rounding.up(value, ulps))
    return np.where(eps == 0, 0.0, low), np.where(eps == 0, 0.0, high)


def symmetric_ratio_bounds(prior, eps):
    """Bounds on the ratios ``X/p`` and ``(1 − X)/(1 − p)`` together (Kazan et al., §4.4, Figure 6).

    Returns ``(lowest lower bound, highest upper bound)`` of the two ratios; the second ratio's bounds
    are the first one's at prior 1 − p.  Needs 0 < p < 1.  Rounded outward, as :func:`prior_ratio_bounds`.
    """
    p = np.asarray(check_probability(prior, "prior", open_low=True, open_high=True), dtype=float)
    eps = np.asarray(check_epsilon(eps, "eps"), dtype=float)
    lo1, hi1 = prior_ratio_bounds(p, eps)
    lo0, hi0 = _ratio_bounds(1.0 - p, p, eps)
    return _out(np.minimum(lo1, lo0)), _out(np.maximum(hi1, hi0))


def symmetric_difference_bound(prior, eps):
    """Bound on ``max{X − p, (1 − X) − (1 − p)}`` (Kazan et al., §4.4, Figure 7): the larger of the
    upper difference bounds at priors p and 1 − p.  Its maximum over p is tanh(ε/4) (Lemma 3.4).  The bound at
    prior 1 − p is minus the lower bound at p (with the exact p, not 1 − (1 − p)); rounded up."""
    p = np.asarray(check_probability(prior, "prior"), dtype=float)
    low1, hi1 = prior_difference_bounds(p, eps)
    return _out(np.maximum(hi1, -low1))


# --------------------------------------------------------------------------------------------------
# Theorem 3.1: the posterior as a function of the privacy loss
# --------------------------------------------------------------------------------------------------


def posterior_from_privacy_loss(prior, z, *, target_present: bool = True):
    """Kazan et al., Theorem 3.1, eq. (2).

    With ``target_present`` (Y ← M(x)) and ``z`` a value of Z_i = PrivLoss(M(x) ‖ M(x_{−i})), the posterior is
    p/(p + (1 − p)e^{−z}); otherwise (Y ← M(x_{−i})) ``z`` is a value of Z′_i = PrivLoss(M(x_{−i}) ‖ M(x)) and the
    posterior is p/(p + (1 − p)e^{z}).  ``z`` may be ±inf.
    """
    p = np.asarray(check_probability(prior, "prior"), dtype=float)
    z = np.asarray(as_float(z, "z"))  # ±inf allowed (outputs only one database can produce); NaN refused
    sign = 1.0 if target_present else -1.0
    lp = logit(p)
    with np.errstate(invalid="ignore"):
        s = lp + sign * z
    # A prior of 0 or 1 is never moved, whatever z is (inf − inf would be NaN).
    s = np.where(np.isinf(lp), lp, s)
    return _out(expit(s))


def bayes_posterior(prior, like_present, like_absent):
    """P[I = 1 | Y = y] by Bayes' rule: p·a / (p·a + (1 − p)·b) with a = P[M(x) = y] and
    b = P[M(x_{−i}) = y] (densities allowed).  The definition behind Kazan et al., eq. (1)."""
    p = np.asarray(check_probability(prior, "prior"), dtype=float)
    a = np.asarray(as_float(like_present, "like_present"), dtype=float)
    b = np.asarray(as_float(like_absent, "like_absent"), dtype=float)
    for name, v in (("like_present", a), ("like_absent", b)):
        refuse_where((v < 0) | np.isinf(v), f"{name} must be finite and >= 0", **{name: v})
    num = p * a
    den = num + (1.0 - p) * b
    if np.any(den <= 0):
        raise ValueError("the output must have positive probability under the adversary's model "
                         "(got p*like_present + (1-p)*like_absent = 0)")
    return _out(num / den)


# --------------------------------------------------------------------------------------------------
# Exact probabilities of the disclosure events (checks of Theorems 3.2, 3.3, 3.5)
# --------------------------------------------------------------------------------------------------


def _interval_in_z(prior, low, high, target_present):
    """The Z-interval equivalent to ``low ≤ X ≤ high`` (Theorem 3.1: X is monotone in Z)."""
    lp = logit(prior)
    a, b = logit(low) - lp, logit(high) - lp
    return (a, b) if target_present else (-b, -a)


def posterior_interval_probability(prior, low, high, loss: PrivacyLoss, *, tol: float = 1e-9):
    """P[low ≤ X ≤ high] under Y ← M(x) and under Y ← M(x_{−i}) (returns both), computed from
    the privacy loss via Theorem 3.1 (``loss`` the law of Z, ``loss.dual`` that of Z′).  The interval is
    widened by ``tol`` in log-odds so that a posterior landing exactly on a bound (randomized response,
    Laplace) counts as inside it.  Needs 0 < prior < 1."""
    p = check_probability(prior, "prior", open_low=True, open_high=True)
    low, high = check_probability(low, "low"), check_probability(high, "high")
    check_instance(loss, PrivacyLoss, "loss")
    refuse_where(np.asarray(low) > np.asarray(high), "low must be at most high", low=low, high=high)
    out = []
    for present, part in ((True, loss), (False, loss.dual)):
        a, b = _interval_in_z(p, low, high, present)
        out.append(_out(part.prob_between(np.asarray(a) - tol, np.asarray(b) + tol)))
    return tuple(out)


def ratio_interval_probability(prior, eps, loss: PrivacyLoss, *, tol: float = 1e-9):
    """P[e^{−ε} ≤ X/p ≤ e^{ε}] under both hypotheses (the event of Theorem 3.3, eq. (5)); p in (0, 1)."""
    p = np.asarray(check_probability(prior, "prior", open_low=True, open_high=True), dtype=float)
    eps = np.asarray(check_epsilon(eps, "eps"), dtype=float)
    low = p * np.exp(-eps)
    with np.errstate(over="ignore"):  # e^ε beyond the float range: the upper end is 1
        high = np.minimum(p * np.exp(eps), 1.0)
    return posterior_interval_probability(p, low, high, loss, tol=tol)


def difference_interval_probability(prior, eps, loss: PrivacyLoss, *, tol: float = 1e-9):
    """P[|X − p| ≤ tanh(ε/4)] under both hypotheses (the event of Theorem 3.5, eq. (8)); p in (0, 1)."""
    p = np.asarray(check_probability(prior, "prior", open_low=True, open_high=True), dtype=float)
    b = difference_bound(eps)
    low = np.maximum(p - b, 0.0)
    high = np.minimum(p + b, 1.0)
    return posterior_interval_probability(p, low, high, loss, tol=tol)


def posterior_quantile(prior, q, loss: PrivacyLoss, *, target_present: bool = True):
    """The q-quantile of the posterior X (Theorem 3.1: X increases with Z under M(x), decreases with Z′
    under M(x_{−i}))."""
    p = check_probability(prior, "prior")
    q = check_probability(q, "q", open_low=True, open_high=True)
    check_instance(loss, PrivacyLoss, "loss")
    if target_present:
        z = loss.ppf(q)
    else:
        z = loss.dual.isf(q)  # the upper (1 − q)-quantile, without forming 1 − q
    return posterior_from_privacy_loss(p, z, target_present=target_present)


def counterexample_a6(eps, delta):
    """The mechanism of Kazan et al., Appendix A.6 (Example A.1): with probability q = δ(1 + e^{−ε̃}) run
    ε̃-randomized response on the target's membership, otherwise release nothing (output ``⊥``).

    Returns ``(row_present, row_absent, eps_tilde, q)`` over the outputs ``(⊥, yes, no)``.  Its
    posterior-to-prior difference obeys the bound tanh(ε/4) with probability ≥ 1 − δ for every prior,
    but P[|Z| ≤ ε] = 1 − q < 1 − δ, so it is not (ε, δ)-PDP: the converse of Theorem 3.5(1) fails.
    """
    eps = check_epsilon(eps, "eps", strictly_positive=True, scalar=True)
    delta = check_delta(delta, "delta", open_low=True, scalar=True)
    epsilon_tilde(eps)  # its range check, named as there
    # the mechanism's own parameter: ε̃ rounded down, so that its posterior moves by at most tanh(ε/4) at any prior
    et = float(_epsilon_tilde_bounds(np.asarray(float(eps)))[0])
    q = delta * (1.0 + math.exp(-et))
    if q > 1:
        raise ValueError("delta is too large for the construction, delta*(1+exp(-eps_tilde)) > 1 "
                         f"(got delta={delta!r})")
    keep = float(expit(et))
    row_present = np.array([1.0 - q, q * keep, q * (1.0 - keep)])
    row_absent = np.array([1.0 - q, q * (1.0 - keep), q * keep])
    return row_present, row_absent, et, q


# --------------------------------------------------------------------------------------------------
# Approximate DP (Corollaries 3.10–3.12) and the applications of §4
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DisclosureBounds:
    """Everything Corollaries 3.10–3.12 and Lemma 3.4 say about one (ε, δ)-DP release, at confidence
    1 − δ′ (``eps_prime`` is Theorem 3.9's ε′)."""

    eps: float
    delta: float
    delta_prime: float
    eps_prime: float
    prior: float
    posterior_low: float
    posterior_high: float
    ratio_low: float
    ratio_high: float
    prior_ratio_low: float
    prior_ratio_high: float
    difference: float
    worst_prior_up: float
    worst_prior_down: float

    @property
    def confidence(self) -> float:
        """1 − δ′, the probability with which the bounds hold: rounded *down* (the float 1 − δ′ rounds to nearest
        where δ′ < ½ and may land above it; it is lowered one ulp then, checked exactly in rationals)."""
        c = 1.0 - self.delta_prime
        return math.nextafter(c, 0.0) if Fraction(c) > 1 - Fraction(self.delta_prime) else c


def _pdp_eps(eps, delta, delta_prime):
    from . import conversions

    return conversions.pdp_epsilon(eps, delta, delta_prime)


def approximate_bounds(eps, delta, delta_prime, prior=0.5) -> DisclosureBounds:
    """Kazan et al., Corollaries 3.10(2), 3.11(2), 3.12(2) and Lemma 3.4 for an (ε, δ)-DP release:
    with probability at least 1 − δ′ the adversary's posterior, ratio and difference obey the PDP bounds
    at ε′ = log(δ′e^ε + δ) − log(δ′ − δ) (Theorem 3.9).  With δ = 0 the bounds hold with certainty
    (Corollaries 3.6–3.8) and ε′ = ε."""
    eps = check_epsilon(eps, "eps")
    delta = check_delta(delta, "delta")
    prior = check_probability(prior, "prior")
    if np.ndim(eps) or np.ndim(delta) or np.ndim(prior) or np.ndim(delta_prime):
        raise ValueError("eps, delta, delta_prime and prior must be single numbers here (approximate_bounds takes "
                         "scalars; use the vectorised bound functions for arrays)")
    delta_prime = check_delta(delta_prime, "delta_prime")
    eps_prime = float(eps) if delta == 0 else float(_pdp_eps(eps, delta, delta_prime))
    low, high = posterior_bounds(prior, eps_prime)
    rlow, rhigh = ratio_bounds(eps_prime)
    if prior > 0:
        prlow, prhigh = prior_ratio_bounds(prior, eps_prime)
    else:
        prlow = prhigh = float("inf")  # the ratio is undefined at p = 0; never shown then
    up, down = worst_case_prior(eps_prime)
    return DisclosureBounds(float(eps), float(delta), float(delta_prime), eps_prime, float(prior), low, high,
                            rlow, rhigh, prlow, prhigh, difference_bound(eps_prime), up, down)


_LOG_DELTA_FLOOR = -708.0  # the smallest log δ best_zcdp_pdp_epsilon searches over (e^{-708}: still a normal float)
_SPLIT_STEPS = 200  # bracketed Newton steps at most (a bisection over the whole range takes about 60)


def _split_stationarity(s, rho, log_inv_dp, tight: bool):
    """``(Φ, dΦ/ds)`` at the order α = 1 + t, t = e^s, for :func:`best_zcdp_pdp_epsilon` (1-d arrays).

    Both conversions of ρ-zCDP are an order α = 1 + t chosen for δ = e^{−L}.  Theorem 2.7's ε = ρ + 2√(ρL) is
    the value at t = √(L/ρ) of αρ + L/(α − 1), so L(t) = ρt² and ε(t) = ρ(1 + 2t); the tight conversion (Canonne,
    Kamath & Steinke 2020, Corollary 13) is stationary where ρt² + log1p t = L, so L(t) = ρt² + log1p t and
    ε(t) = (1 + t)ρ − log1p(1/t) + (L − log1p t)/t = ρ(1 + 2t) − log1p(1/t) (clipped at 0).  In both, dε/dL = 1/t
    (the envelope theorem).  With u = L − log(1/δ′) the gap between log δ′ and log δ (r = δ/δ′ = e^{−u}),
    Theorem 3.9's ε′ = ε + log1p(e^{−u−ε}) − log1p(−e^{−u}) has

        t·dε′/dL = A − t/expm1(u),   A = 1 − σ(1 + t) − κ/(t·L′(t)),   σ = 1/(1 + e^{u+ε}),

    where κ/t is what the safe evaluation adds to the tight ε at order t (``conversions._tight_eps_upper``: 32u/t
    is its leading term, u the unit round-off; κ = 0 for Theorem 2.7), which matters only where t is tiny (δ′ near
    1).  This has the sign of Φ = log expm1(u) + log A − log t where A > 0, and is negative elsewhere (Φ = −∞
    there, as where u ≤ 0, δ ≥ δ′, and where the tight ε is clipped at 0: ε′ falls with L).  The minimising δ is
    where Φ changes sign from − to +.  L increases with t, so t parametrises δ."""
    t = np.exp(s)
    kappa = 32.0 * _rounding.UNIT_ROUNDOFF if tight else 0.0
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        u = rho * t * t + (np.log1p(t) if tight else 0.0) - log_inv_dp
        du = 2.0 * rho * t + (1.0 / (1.0 + t) if tight else 0.0)  # L′(t)
        # u + ε = ρ(1 + t)² − log(1/δ′) (+ log t for the tight form: log1p t − log1p(1/t) = log t); ρ(1 + t) first,
        # as ρt·t above: t² overflows where ρ is subnormal
        sig = expit(-(rho * (1.0 + t) * (1.0 + t) - log_inv_dp + (s if tight else 0.0)))
        slack = kappa / (t * du) if tight else 0.0
        keep = 1.0 - sig * (1.0 + t) - slack  # A
        gap = -np.expm1(-u)  # 1 − r = 1 − δ/δ′, and log expm1(u) = u + log(1 − r)
        phi = u + np.log(gap) + np.log(keep) - s
        valid = (u > 0) & (keep > 0) & ~np.isnan(phi)
        if tight:  # the tight ε = ρ(1 + 2t) − log1p(1/t) is clipped at 0 only where ρt(1 + 2t) < 1 (log1p(1/t) ≤ 1/t)
            low = np.flatnonzero(rho * t * (1.0 + 2.0 * t) < 1.0)
            valid[low] &= rho[low] * (1.0 + 2.0 * t[low]) >= np.log1p(1.0 / t[low])
        phi = np.where(valid, phi, -np.inf)
        dkeep = sig * ((1.0 - sig) * (du + du / t) * (1.0 + t) - 1.0)  # −(σ′(1 + t) + σ), σ′ = −σ(1 − σ)(L′ + ε′)
        if tight:  # + κ(L′ + tL″)/(tL′)², L″ = 2ρ − 1/(1 + t)²
            dkeep = dkeep + slack * (du + t * (2.0 * rho - 1.0 / (1.0 + t) ** 2)) / (t * du)
        dphi = t * (du / gap + dkeep / keep) - 1.0
    return phi, dphi


def _minimising_order(rho, log_inv_dp, tight: bool):
    """The order t (1-d arrays) at which Φ of ``_split_stationarity`` changes sign, by Newton steps in s = log t
    kept inside a shrinking bracket (a step that leaves it, or is not finite, is a bisection), from a first guess two
    fixed-point steps from the root, until a Newton step is below 1e-9 of s or the bracket 4 ulps wide (near the
    largest t searched where Φ is negative up to there: the best δ is at the floor e^{−708}).
    Entries never mix, so an entry's t does not depend on the others.  Every t gives a valid δ: its precision decides
    how close ε′ comes to the minimum, never whether it holds."""
    top = -_LOG_DELTA_FLOOR
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        # t_lo solves ρt² + t = log(1/δ′), where L(t) ≤ log(1/δ′): δ ≥ δ′; t_hi has L(t) ≥ 708: δ at the floor
        t_lo = 2.0 * log_inv_dp / (1.0 + np.sqrt(1.0 + 4.0 * rho * log_inv_dp))
        t_hi = math.sqrt(top) / np.sqrt(rho)  # (top/ρ overflows for a subnormal ρ)
        if tight:
            t_hi = np.minimum(t_hi, np.expm1(top))
        # first guess: Φ = 0 (with κ = 0) is e^u = 1 + t(1 + e^{−ε}), i.e. ρt² = log(1/δ′) + log1p(t(1 + e^{−ε}))
        # for Theorem 2.7 and, with e^{−ε} = e^{−ρ(1+2t)}(1 + 1/t), ρt² = log(1/δ′) + log1p(e^{−ρ(1+2t)}) for the
        # tight form: two fixed-point steps from ρt² = log(1/δ′)
        t0 = np.sqrt(log_inv_dp) / np.sqrt(rho)
        for _ in range(2):
            decay = np.exp(-rho * (1.0 + 2.0 * t0))
            t0 = np.sqrt(log_inv_dp + np.log1p(decay if tight else t0 * (1.0 + decay))) / np.sqrt(rho)
    a = np.log(np.maximum(t_lo, 1e-300))
    b = np.log(t_hi)
    out = np.empty(rho.shape)
    idx = np.arange(rho.size)
    s = np.clip(np.log(np.where(t0 > 0, t0, 1.0)), a, b)
    for _ in range(_SPLIT_STEPS):
        if idx.size == 0:
            break
        phi, dphi = _split_stationarity(s, rho, log_inv_dp, tight)
        below = phi < 0
        a = np.where(below, s, a)
        b = np.where(below, b, s)
        with np.errstate(invalid="ignore", divide="ignore"):
            newton = np.where(phi == 0, s, s - phi / dphi)
        inside = np.isfinite(newton) & (newton >= a) & (newton <= b)
        scale = np.maximum(np.abs(s), 1.0)
        # a Newton step below 1e-9 (relative) is the last (Newton's error after it is of order its square); it ends
        # the search only where Φ is small: where A is tiny, log A is steep and Newton creeps towards the root in
        # short steps (growing geometrically); a step too short to move s bisects
        done = ((b - a <= 4.0 * np.finfo(float).eps * scale) | (phi == 0)
                | (inside & (np.abs(newton - s) <= 1e-9 * scale) & (np.abs(phi) <= 1.0)))
        s = np.where(inside & ((newton != s) | done), newton, 0.5 * (a + b))
        if np.any(done):
            out[idx[done]] = np.exp(s[done])
            go = ~done
            idx, a, b, s, rho, log_inv_dp = idx[go], a[go], b[go], s[go], rho[go], log_inv_dp[go]
    out[idx] = np.exp(s)  # still moving after _SPLIT_STEPS steps (none in the tests): the last iterate, valid
    return out


def _split_delta(t, rho, log_inv_dp, delta_prime, tight: bool):
    """The δ whose best order is t (``_split_stationarity``): δ′·e^{−u}, u = L(t) − log(1/δ′), kept in
    [e^{−708}, δ′) as a float."""
    with np.errstate(over="ignore", invalid="ignore"):
        u = rho * t * t + (np.log1p(t) if tight else 0.0) - log_inv_dp
        delta = np.clip(delta_prime * np.exp(-u), math.exp(_LOG_DELTA_FLOOR), np.nextafter(delta_prime, 0.0))
    return np.where(np.isnan(delta), math.exp(_LOG_DELTA_FLOOR), delta)


def _split_eps_prime(rho, delta, delta_prime, tight: bool):
    """``pdp_epsilon(zcdp_epsilon(rho, delta, tight), delta, delta_prime)`` (1-d arrays, one entry at a time in
    effect): the package's safe conversions, +∞ where zcdp_epsilon's ε is (ρ near the float maximum)."""
    from . import conversions

    # zcdp_epsilon(tight=True) solves more than _VECTOR_MIN entries at once and fewer one by one (the last bits
    # differ): a short call is padded so that every entry takes the same path whatever the length of the call
    n = rho.size
    pad = max(conversions._VECTOR_MIN + 1 - n, 0) if tight else 0
    eps = np.asarray(conversions.zcdp_epsilon(np.concatenate([rho, np.full(pad, rho[0])]),
                                              np.concatenate([delta, np.full(pad, delta[0])]), tight=tight))[:n]
    finite = np.isfinite(eps)
    return np.where(finite, conversions.pdp_epsilon(np.where(finite, eps, 0.0), delta, delta_prime), np.inf), eps


@broadcasting(rho=check_positive, delta_prime=partial(check_delta, open_low=True))
def best_zcdp_pdp_epsilon(rho, delta_prime, *, tight: bool = False):
    """Kazan et al., Example 4.1: the smallest ε′ reachable from ρ-zCDP at confidence 1 − δ′.

    ρ-zCDP gives (ε(δ), δ)-DP for every δ (Theorem 2.7, or the tight conversion of Canonne, Kamath &
    Steinke with ``tight=True``), and each of these gives (ε′(δ), δ′)-PDP by Theorem 3.9 for δ < δ′.
    The paper does not say which δ it used; we take the one minimising ε′ over δ ∈ [e^{−708}, δ′).
    Returns ``(eps_prime, delta)``; broadcasts over ``rho`` and ``delta_prime``.

    The minimising δ solves a stationarity condition in the order of the conversion (``_split_stationarity``),
    by bracketed Newton steps on all entries at once (``_minimising_order``).  Every δ < δ′ gives a valid ε′,
    so the δ found decides tightness only: the ε′ returned is the package's safe conversions evaluated at the δ
    returned — ``pdp_epsilon(zcdp_epsilon(rho, delta, tight), delta, delta_prime)``, each rounded up — so that δ
    reproduces it.  ``zcdp_epsilon(tight=True)`` is the smaller of the two conversions; where it returned
    clearly more than the tight form at the order found (it falls back to Theorem 2.7 where it cannot certify the
    tight one, ρ below about 1e-307), the optimum of Theorem 2.7's form is tried too and the smaller ε′ kept.
    Each entry's result does not depend on the other entries (an array call is the stack of its scalar calls).
    """
    if np.any(np.log(delta_prime) <= _LOG_DELTA_FLOOR):  # no room for a δ below δ′ in the search range
        bad = float(np.ravel(delta_prime)[np.argmax(np.ravel(np.log(delta_prime) <= _LOG_DELTA_FLOOR))])
        raise NumericalLimit(f"delta_prime must exceed e^{_LOG_DELTA_FLOOR:g} = {math.exp(_LOG_DELTA_FLOOR):.3g} here: "
                             f"the search needs a delta below it, at or above that floor (got delta_prime={bad!r})")
    shape = rho.shape  # (the decorator has broadcast rho and delta_prime)
    r, dp = np.ravel(rho), np.ravel(delta_prime)
    if r.size == 0:
        return np.zeros(shape), np.zeros(shape)
    log_inv_dp = -np.log(dp)
    t = _minimising_order(r, log_inv_dp, tight)
    delta = _split_delta(t, r, log_inv_dp, dp, tight)
    eps_prime, eps = _split_eps_prime(r, delta, dp, tight)
    if tight:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            form = np.maximum(r * (1.0 + 2.0 * t) - np.log1p(1.0 / t), 0.0)
            loose = np.flatnonzero(np.isfinite(eps) & (eps > form * (1.0 + 1e-6) + 64.0 * _rounding.UNIT_ROUNDOFF / t))
        if loose.size:
            d2 = _split_delta(_minimising_order(r[loose], log_inv_dp[loose], False), r[loose], log_inv_dp[loose],
                              dp[loose], False)
            e2 = _split_eps_prime(r[loose], d2, dp[loose], True)[0]
            better = e2 < eps_prime[loose]
            eps_prime[loose[better]], delta[loose[better]] = e2[better], d2[better]
    return eps_prime.reshape(shape), delta.reshape(shape)


def _dp_epsilon_for_pdp(eps_prime, delta, delta_prime, name: str = "eps_prime"):
    """Theorem 3.9 inverted (see :func:`dp_epsilon_for_pdp`); ``name`` is the caller's parameter that
    ε′ was made from, for the error message.  ``eps_prime`` must already be rounded *down*."""
    eps_prime = np.asarray(eps_prime, dtype=float)
    delta = np.asarray(check_delta(delta, "delta"), dtype=float)
    delta_prime = np.asarray(check_delta(delta_prime, "delta_prime", open_low=True), dtype=float)
    refuse_where(delta_prime <= delta, "delta_prime must exceed delta", delta_prime=delta_prime, delta=delta)
    # ε = ε′ + log1p(−(δ/δ′)(1 + e^{−ε′})): no log(e^{ε′}(δ′ − δ) − δ) − log δ′ cancellation
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        x = (delta / delta_prime) * (1.0 + np.exp(-eps_prime))
        eps = eps_prime + np.log1p(-np.minimum(x, 1.0))
    refuse_where(~(eps >= 0), f"{name} is too small to be reached from any eps >= 0 at this delta and delta_prime",
                 **{name if name == "eps_prime" else f"{name} giving eps_prime": eps_prime, "delta": delta,
                    "delta_prime": delta_prime})
    # x within 3 ulps, log1p within 1 ulp of |log1p| (amplified by 1/(1 − x) for x near 1), the sum within
    # 1 ulp of the larger term: subtract that bound, so ε is never above the exact value
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        err = (np.spacing(eps_prime) + 2.0 * np.spacing(np.abs(eps - eps_prime))
               + 4.0 * np.spacing(1.0) * np.where(x > 0, x / (1.0 - x), 0.0))
    return _out(np.maximum(np.where(delta > 0, eps - err, eps), 0.0))


def dp_epsilon_for_pdp(eps_prime, delta, delta_prime):
    """Invert Theorem 3.9: the ε with ``log(δ′e^ε + δ) − log(δ′ − δ) = ε′``, i.e.
    ``ε = log(e^{ε′}(δ′ − δ) − δ) − log δ′ = ε′ + log1p(−(δ/δ′)(1 + e^{−ε′}))`` (Kazan et al., Example 4.2,
    footnote 6), rounded *down* by its evaluation error: the largest ε allowed is never overstated.
    Raises ``ValueError`` when no ε ≥ 0 reaches ε′ (δ too large for that ε′)."""
    eps_prime = np.asarray(check_epsilon(eps_prime, "eps_prime"), dtype=float)
    return _dp_epsilon_for_pdp(eps_prime, delta, delta_prime)


def epsilon_for_difference(max_difference, delta, delta_prime):
    """Kazan et al., Example 4.2: the largest ε for which an (ε, δ)-DP release keeps |posterior − prior|
    ≤ ``max_difference`` with probability ≥ 1 − δ′ (Corollary 3.12(2) solved for ε:
    ε′ = 4·artanh(b), then Theorem 3.9 inverted)."""
    b = check_probability(max_difference, "max_difference", open_low=True, open_high=True)
    # ε′ rounded down (arctanh within 2 ulps): a larger ε′ would allow more than the bound
    return _dp_epsilon_for_pdp(_rounding.down(4.0 * np.arctanh(b), 4), delta, delta_prime, "max_difference")


def epsilon_for_ratio(max_ratio, delta, delta_prime):
    """The largest ε for which the posterior-to-prior ratio stays within [1/r, r] with probability ≥ 1 − δ′
    (Corollary 3.11(2) solved for ε)."""
    r = as_float(max_ratio, "max_ratio")
    refuse_where((np.asarray(r) <= 1) | np.isinf(r), "max_ratio must be finite and > 1", max_ratio=r)
    return _dp_epsilon_for_pdp(_rounding.down(np.log(r), 2), delta, delta_prime, "max_ratio")


def epsilon_for_posterior(prior, max_posterior, delta, delta_prime):
    """The largest ε for which an adversary with prior p ends, with probability ≥ 1 − δ′, with a
    posterior of at most ``max_posterior`` (Corollary 3.10(2) solved for ε: ε′ = logit(post) − logit(p))."""
    p = np.asarray(check_probability(prior, "prior", open_low=True, open_high=True), dtype=float)
    m = np.asarray(check_probability(max_posterior, "max_posterior", open_high=True), dtype=float)
    refuse_where(m <= p, "max_posterior must exceed prior", max_posterior=m, prior=p)
    lm, lp = np.asarray(logit(m)), np.asarray(logit(p))
    # logit(x) = log x − log1p(−x): each logarithm within 4 ulps of itself (not of the logit, which cancels near
    # x = ½: the old allowance of 4 ulps of each logit let ε′ = logit(0.5252) − logit(0.5097) come out 3e-18 high),
    # each difference within ½ ulp of its result: ε′ rounded down by that much
    with np.errstate(divide="ignore"):
        parts = sum(np.spacing(np.abs(np.log(x))) + np.spacing(np.abs(np.log1p(-x))) for x in (m, p))
    rounding = np.spacing(np.abs(lm)) + np.spacing(np.abs(lp)) + np.spacing(np.abs(lm - lp))
    eps_prime = (lm - lp) - (4.0 * parts + rounding)
    return _dp_epsilon_for_pdp(np.maximum(eps_prime, 0.0), delta, delta_prime, "max_posterior")


def epsilon_for_profile(priors, max_posteriors, delta, delta_prime) -> float:
    """A disclosure-risk profile in the sense of Kazan & Reiter (2024), carried to approximate DP as in
    Kazan et al., §4.3: for each prior, the highest posterior the curator accepts (with probability
    ≥ 1 − δ′).  Returns the largest ε meeting every point of the profile."""
    priors, max_posteriors = broadcast(priors=check_probability(priors, "priors", open_low=True, open_high=True),
                                       max_posteriors=check_probability(max_posteriors, "max_posteriors",
                                                                        open_high=True))
    # one ε for the whole profile: δ and δ′ are single numbers (arrays would broadcast against the profile)
    delta = check_delta(delta, "delta", scalar=True)
    delta_prime = check_delta(delta_prime, "delta_prime", scalar=True)
    refuse_where(max_posteriors <= priors, "max_posteriors must exceed priors, point by point",
                 max_posteriors=max_posteriors, priors=priors)
    eps = epsilon_for_posterior(priors, max_posteriors, delta, delta_prime)
    return float(np.min(eps))


def lattice_optimal_epsilon(eps0, k, delta, delta0=0.0) -> float:
    """Kazan et al., Theorem 2.8(3) used as printed: ``composition.lattice_optimal_epsilon``."""
    from . import composition

    return composition.lattice_optimal_epsilon(eps0, k, delta, delta0)


def per_release_epsilon(eps_total, k, delta_total, delta0=0.0, *, method: str = "optimal") -> float:
    """Kazan et al., Example 4.2: the largest per-release ε₀ such that k releases, each (ε₀, δ₀)-DP,
    compose to (ε_total, δ_total)-DP.  ``"basic"``, ``"advanced"`` and ``"optimal"`` are
    ``composition.max_eps0``; ``"lattice"`` restricts the optimal theorem to its printed lattice points
    (:func:`lattice_optimal_epsilon`), which is a step function of ε₀ and is bisected here."""
    from . import composition

    eps_total = float(check_epsilon(eps_total, "eps_total", strictly_positive=True, scalar=True))
    k = check_positive_int(k, "k", maximum=10**9)
    delta_total = float(check_delta(delta_total, "delta_total", open_low=True, open_high=True, scalar=True))
    delta0 = float(check_delta(delta0, "delta0", open_high=True, scalar=True))
    try:  # one table of methods: composition.COMPOSITION_METHODS
        return float(composition.max_eps0(eps_total, k, delta_total, delta0, method=method))
    except ValueError as err:  # max_eps0 names its own δ "delta": say the caller's name
        raise ValueError(str(err).replace("delta must", "delta_total must")
                         .replace("(got delta=", "(got delta_total=")) from None


def composed_epsilon(eps0, ks, delta, method: str = "optimal"):
    """The total ε of k-fold composition of pure ε₀-DP mechanisms at total δ, for each k in ``ks``
    (Kazan et al., Theorem 2.8; Figures 2 and 3): ``"basic"`` kε₀, ``"advanced"`` (Dwork–Rothblum–Vadhan),
    ``"optimal"`` (exact, any ε) or ``"lattice"`` (optimal restricted to the printed lattice points).

    One call of the composition function with the array of ks where it broadcasts (``basic_epsilon``,
    ``advanced_epsilon``, ``optimal_epsilon``: each entry equals its scalar call, so the values are those of
    ``composition.composed_epsilon_by`` k by k); ``"lattice"`` (a bisection over the lattice) is one call per k."""
    from . import composition

    ks = np.atleast_1d(composition._check_k(ks, "ks"))
    eps0 = float(check_epsilon(eps0, "eps0", scalar=True))
    delta = float(check_delta(delta, "delta", scalar=True))
    composition._check_method(method)  # one table of methods: composition.COMPOSITION_METHODS
    if method == "lattice" or ks.size == 0:
        return np.array([composition.composed_epsilon_by(method, eps0, int(k), delta) for k in ks.ravel()],
                        dtype=float).reshape(ks.shape)
    composition.composed_epsilon_by(method, eps0, int(ks.flat[0]), delta)  # the table's errors, named as there
    if method == "basic":
        return np.asarray(composition.basic_epsilon(eps0, ks), dtype=float)
    if method == "advanced":  # the slack is the total δ: these mechanisms are pure (δ₀ = 0)
        return np.asarray(composition.advanced_epsilon(eps0, ks, delta, 0.0), dtype=float)
    return np.asarray(composition.optimal_epsilon(eps0, ks, delta, 0.0), dtype=float)


def composed_posterior_bound(prior, eps0, ks, delta, delta_prime, method: str = "optimal"):
    """Kazan et al., Figure 3: the (1 − δ′)-probability upper bound on the posterior after k compositions
    of ε₀-DP mechanisms, by Corollary 3.10 with the ε of Theorem 2.8 at total δ (basic composition of
    pure mechanisms has δ = 0, so there ε′ = ε)."""
    from . import conversions

    eps = composed_epsilon(eps0, ks, delta, method)
    d = 0.0 if method == "basic" else delta
    finite = np.isfinite(eps)  # an infinite ε bounds nothing: the posterior bound is 1
    high = posterior_bounds(prior, conversions.pdp_epsilon(np.where(finite, eps, 0.0), d, delta_prime))[1]
    return np.where(finite, high, 1.0)


def zcdp_eps_prime(rho, ks, delta_prime, *, tight: bool = False):
    """Kazan et al., Example 4.1 (Figures 4 and 5): ε′ after k releases of ρ-zCDP each (Theorem 2.9: kρ in
    total), converted to (ε, δ)-DP and then to (ε′, δ′)-PDP with the δ that minimises ε′
    (:func:`best_zcdp_pdp_epsilon`, one call over all the ks)."""
    from . import composition

    ks = np.atleast_1d(composition._check_k(ks, "ks"))
    rho = float(check_positive(rho, "rho", scalar=True))
    delta_prime = float(check_delta(delta_prime, "delta_prime", open_low=True, scalar=True))
    return np.asarray(best_zcdp_pdp_epsilon(composition.zcdp_compose(rho, ks), delta_prime, tight=tight)[0],
                      dtype=float)


def first_exceeding(values, threshold, start: int = 1):
    """The first index (counting from ``start``) at which ``values`` exceeds ``threshold``, or ``None``.
    Used for the paper's "exceeded after k queries / days" statements."""
    v = np.atleast_1d(as_float(values, "values"))
    if v.ndim != 1:
        raise ValueError(f"values must be a 1-D sequence of numbers (got shape {v.shape})")
    threshold = as_float(threshold, "threshold", scalar=True)
    start = check_positive_int(start, "start", minimum=0)
    hits = np.flatnonzero(v > threshold)
    return int(hits[0]) + start if hits.size else None


# --------------------------------------------------------------------------------------------------
# §4.1: explanations in plain language
# --------------------------------------------------------------------------------------------------


def _pct_down(x):
    return f"{math.floor(x * 1000 + 1e-9) / 10:.1f}%"


def _pct_up(x):
    return f"{math.ceil(x * 1000 - 1e-9) / 10:.1f}%"


def explain(eps, delta, delta_prime, prior, *, audience: str = "both") -> str:
    """The explanations of Kazan et al., §4.1, written for a concrete release with computed numbers.

    ``audience`` is ``"general"`` (no formulas), ``"technical"`` (the adversary model and the bounds
    with their theorem numbers) or ``"both"``.  Bounds are rounded outwards (lower bounds down, upper
    bounds up), so a printed bound is never tighter than the computed one.
    """
    if audience not in ("general", "technical", "both"):
        raise ValueError(f"audience must be 'general', 'technical' or 'both' (got audience={audience!r})")
    b = approximate_bounds(eps, delta, delta_prime, prior)
    pure = b.delta == 0
    conf = "with certainty" if pure else f"with probability at least {_pct_down(b.confidence)}"
    out = []
    if audience in ("general", "both"):
        if pure:
            tail = ("This cannot fail: under pure differential privacy the change is always within that limit.")
        else:
            tail = (f"There is a small chance, at most {_pct_up(b.delta_prime)}, that their belief moves further; "
                    "under pure differential privacy even that could not happen.")
        out.append(
            "If you contribute your data, the published result limits what anyone can learn about whether you "
            f"took part. Take an adversary who knows everyone else's data and believed beforehand "
            f"that there was a {_pct_down(b.prior)} chance you were included: they "
            f"would, {conf}, end up believing it with a probability between {_pct_down(b.posterior_low)} "
            f"and {_pct_up(b.posterior_high)}. Whatever they believed beforehand, the release moves that "
            f"belief by at most {_pct_up(b.difference)[:-1]} percentage points. {tail}"
        )
    if audience in ("technical", "both"):
        eps_txt = f"ε′ = ε = {b.eps_prime:.6g}" if pure else (
            f"ε′ = log(δ′e^ε + δ) − log(δ′ − δ) = {b.eps_prime:.6g} (Theorem 3.9)")
        ratio_txt = (f"for this prior the posterior-to-prior ratio lies in [{b.prior_ratio_low:.3f}, "
                     f"{b.prior_ratio_high:.3f}], and " if b.prior > 0 else "")
        out.append(
            f"Technical statement. The release satisfies (ε = {b.eps:g}, δ = {b.delta:g})-differential privacy. "
            f"Consider an adversary who knows every record except whether the target is present, with prior "
            f"probability p = {b.prior:g} that it is. With {eps_txt}, {conf} (δ′ = {b.delta_prime:g}) the "
            f"adversary's posterior lies in [{b.posterior_low:.4f}, {b.posterior_high:.4f}] (Corollary "
            f"{'3.6' if pure else '3.10'}); {ratio_txt}for every prior the ratio lies in [{b.ratio_low:.4f}, "
            f"{b.ratio_high:.4f}] (Corollary {'3.7' if pure else '3.11'}) and the posterior differs from the prior "
            f"by at most {b.difference:.4f} (Corollary {'3.8' if pure else '3.12'}). The largest change is possible "
            f"for priors {b.worst_prior_up:.3f} (upwards) and {b.worst_prior_down:.3f} (downwards) (Lemma 3.4)."
        )
    return "\n\n".join(out)


# --------------------------------------------------------------------------------------------------
# Finite neighbouring pairs (the objects of the worst-case searches in claims/disclosure_evidence.py)
# --------------------------------------------------------------------------------------------------
#
# A neighbouring pair of a finite mechanism is two output distributions (P = law of M(x), target present;
# Q = law of M(x_{-i}), target absent).  Every disclosure event of the paper is an event on the privacy loss
# z(y) = log P(y)/Q(y) (Theorem 3.1), so a pair is described by its outputs' losses.  The linear programs
# over such pairs that back the claims live in :mod:`dpsemantics.claims.disclosure_evidence`.

#: The three disclosure metrics of Kazan et al. §3: posterior, posterior-to-prior ratio, posterior − prior.
METRICS = ("posterior", "ratio", "difference")


def pair_hockey(row_present, row_absent, eps):
    """max of the two hockey-stick divergences Σ max(0, P − e^ε Q), Σ max(0, Q − e^ε P): the pair's DP δ at ε
    (Kazan et al., Definition 2.1), :func:`~dpsemantics.indistinguishability.smallest_delta` of the pair.
    Broadcasts over ``eps``; ε = +∞ gives 0 unless one output is possible under only one side.  A DP δ claimed
    to hold, so never below the exact value (rounded up as ``smallest_delta`` is)."""
    a, b = check_distribution_pair(row_present, row_absent, ("row_present", "row_absent"))
    return smallest_delta(a, b, check_epsilon(eps, "eps", allow_inf=True))


def pair_pdp_delta(row_present, row_absent, eps):
    """The pair's PDP δ at ε (Definition 2.4): max(P[|Z| > ε], Q[|Z′| > ε]), that is
    ``PrivacyLoss.finite(row_present, row_absent).pdp_delta(eps)`` (:class:`~dpsemantics.privacy_loss.PrivacyLoss`).
    Broadcasts over ``eps``."""
    return PrivacyLoss.finite(row_present, row_absent).pdp_delta(eps)


#: the sides of :func:`leave_thresholds`: to nearest, an interval inside the exact one, one around it
LEAVE_SIDES = ("nearest", "inner", "outer")
_MAX_FLOAT = float(np.finfo(float).max)


def _log1p_bounds(lo, hi):
    """Bounds on log1p over [lo, hi] (lo > −1 or −1: −inf): log1p within 4 ulps (``_EXP_ULPS``) and increasing."""
    with np.errstate(divide="ignore"):
        return _rounding.down(np.log1p(lo), _EXP_ULPS), _rounding.up(np.log1p(hi), _EXP_ULPS)


def _quotient_bounds(a_lo, a_hi, b_lo, b_hi):
    """Bounds on a/b for a ∈ [a_lo, a_hi] (≥ 0), b ∈ [b_lo, b_hi] (> 0): each quotient correctly rounded, so one
    ulp outward covers it; a quotient that overflows is above the largest float (the lower end is that float), one
    that underflows to 0 with a positive numerator is below the smallest (the upper end is that float)."""
    with np.errstate(over="ignore", under="ignore"):
        low = np.minimum(_rounding.down(a_lo / b_hi, 1), _MAX_FLOAT)
        high = np.where(a_hi > 0, np.maximum(_rounding.up(a_hi / b_lo, 1), _rounding.SMALLEST_SUBNORMAL), 0.0)
    return np.maximum(low, 0.0), high


def _threshold_bounds(p, eps, metric):
    """``(lo_low, lo_high, hi_low, hi_high)``: floats with lo_low ≤ lo* ≤ lo_high and hi_low ≤ hi* ≤ hi_high for
    the exact thresholds (lo*, hi*) of :func:`leave_thresholds`, for 0 < p < 1 and ε > 0 (float interval arithmetic:
    every operation's result moved outward by its error bound, ``_rounding.up``/``down``).

    ``"ratio"``: lo* = −log1p((e^ε − 1)/(1 − p)) and hi* = −log1p(−(1 − e^{−ε})/(1 − p)) (+∞ where
    1 − e^{−ε} ≥ 1 − p), the forms of eq. (5)'s thresholds without cancellation for small ε; and, intersected with
    them, lo* = log(1 − p) − ε − log1p(−p e^{−ε}) and hi* = log(1 − p) − log(e^{−ε} − p), without overflow for
    large ε.  ``"difference"``: with b = tanh(ε/4) (eq. (8)), hi* = log1p(b/p) − log1p(−b/(1 − p)) (+∞ where
    b ≥ 1 − p) and lo* = log1p(−b/p) − log1p(b/(1 − p)) (−∞ where b ≥ p).  Errors: 1 − p correctly rounded
    (one ulp each way); exp, expm1, log, log1p, tanh within 4 ulps (``_EXP_ULPS``; tanh 5 for the rounding of a
    subnormal ε/4); products, quotients and sums correctly rounded (one ulp each way); every function used is
    monotone, so the ends of each interval come from the ends of its arguments'."""
    down, up = _rounding.down, _rounding.up
    q = 1.0 - p
    q_lo, q_hi = down(q, 1), up(q, 1)
    inf = np.full(np.shape(p), np.inf)
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        if metric == "ratio":
            # lo*, form A: −log1p(x), x = expm1(ε)/(1 − p) (expm1(ε) overflows past ε ≈ 709.8: at least the max)
            em = np.expm1(eps)
            x_lo, x_hi = _quotient_bounds(np.minimum(down(em, _EXP_ULPS), _MAX_FLOAT), up(em, _EXP_ULPS), q_lo, q_hi)
            l_lo, l_hi = _log1p_bounds(x_lo, x_hi)
            lo_low, lo_high = -l_hi, -l_lo
            # lo*, form B: log(1 − p) − ε + t, t = −log1p(−c) ≥ 0, c = p·e^{−ε} (e^{−ε} at least 0 below the normal
            # range, at most exp_up's value)
            e = np.exp(-eps)
            e_lo = np.where(e < 2.2250738585072014e-308, 0.0, down(e, _EXP_ULPS))
            e_hi = _rounding.exp_up(-eps)
            c_lo = down(p * e_lo, 1)
            c_hi = np.minimum(np.maximum(up(p * e_hi, 1), _rounding.SMALLEST_SUBNORMAL), 1.0)
            n_lo, n_hi = _log1p_bounds(-c_hi, -c_lo)
            t_lo, t_hi = -n_hi, -n_lo
            lq_lo, lq_hi = down(np.log(q_lo), _EXP_ULPS), up(np.log(q_hi), _EXP_ULPS)
            lo_low = np.maximum(lo_low, down(down(lq_lo - eps, 1) + t_lo, 1))
            lo_high = np.minimum(lo_high, up(up(lq_hi - eps, 1) + t_hi, 1))
            # hi*, form A: −log1p(−y), y = m/(1 − p), m = −expm1(−ε) ∈ [0, 1)
            m = -np.expm1(-eps)
            y_lo, y_hi = _quotient_bounds(down(m, _EXP_ULPS), np.minimum(up(m, _EXP_ULPS), 1.0), q_lo, q_hi)
            g_lo, g_hi = _log1p_bounds(-np.minimum(y_hi, 1.0), -np.minimum(y_lo, 1.0))
            hi_low = np.where(y_lo >= 1.0, inf, -g_hi)
            hi_high = np.where(y_hi >= 1.0, inf, -g_lo)
            # hi*, form B: log(1 − p) − log d, d = e^{−ε} − p (+∞ where d ≤ 0)
            d_lo, d_hi = down(e_lo - p, 1), up(e_hi - p, 1)
            b_low = np.where(d_hi <= 0, inf, down(lq_lo - up(np.log(d_hi), _EXP_ULPS), 1))
            b_high = np.where(d_lo <= 0, inf, up(lq_hi - down(np.log(d_lo), _EXP_ULPS), 1))
            hi_low, hi_high = np.maximum(hi_low, b_low), np.minimum(hi_high, b_high)
        else:
            b_hi = difference_bound(eps)
            b_lo = np.maximum(down(np.tanh(eps / 4.0), _EXP_ULPS + 1.0), 0.0)
            x1_lo, x1_hi = _quotient_bounds(b_lo, b_hi, p, p)  # b/p
            x2_lo, x2_hi = _quotient_bounds(b_lo, b_hi, q_lo, q_hi)  # b/(1 − p)
            l1_lo, l1_hi = _log1p_bounds(x1_lo, x1_hi)
            l2_lo, l2_hi = _log1p_bounds(x2_lo, x2_hi)
            m1_lo, m1_hi = _log1p_bounds(-np.minimum(x1_hi, 1.0), -np.minimum(x1_lo, 1.0))
            m2_lo, m2_hi = _log1p_bounds(-np.minimum(x2_hi, 1.0), -np.minimum(x2_lo, 1.0))
            # hi* = log1p(x1) − log1p(−x2), increasing in b; the two terms are ≥ 0, their sum rounded once
            hi_low = np.where(x2_lo >= 1.0, inf, down(l1_lo - m2_hi, 1))
            hi_high = np.where(x2_hi >= 1.0, inf, up(l1_hi - m2_lo, 1))
            # lo* = log1p(−x1) − log1p(x2), decreasing in b; both terms ≤ 0
            lo_low = np.where(x1_hi >= 1.0, -inf, down(m1_lo - l2_hi, 1))
            lo_high = np.where(x1_lo >= 1.0, -inf, up(m1_hi - l2_lo, 1))
    return lo_low, lo_high, hi_low, hi_high


@broadcasting(prior=check_probability, eps=check_epsilon)
def leave_thresholds(prior, eps, metric: str, *, side: str = "outer"):
    """The losses between which an adversary with this prior stays inside the bound of ``metric`` at level ε:
    returns ``(lo, hi)``; the posterior leaves the bound exactly when z < lo or z > hi (±∞: never).

    ``"posterior"``: eq. (3), (lo, hi) = (−ε, ε) for 0 < p < 1.  ``"ratio"``: eq. (5), R = X/p ∈ [e^{−ε}, e^{ε}].
    ``"difference"``: eq. (8), |X − p| ≤ tanh(ε/4).  Theorem 3.1 makes X increasing in z.  Priors 0 and 1 never
    move, so they never leave.

    ``side``: ``"outer"`` (the default) returns an interval around the exact one (lo rounded down, hi up: a loss
    outside it certainly leaves), ``"inner"`` one inside it (lo rounded up, hi down: a loss in it certainly stays
    inside the bound), and ``"nearest"`` the formulas evaluated in floats, to nearest, for plots.  The posterior's
    thresholds ±ε are exact on every side.  A loss between the inner and outer ends is decided by :func:`leaves`,
    which is what a verdict reads.
    """
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS} (got metric={metric!r})")
    if side not in LEAVE_SIDES:
        raise ValueError(f"side must be one of {LEAVE_SIDES} (got side={side!r})")
    p = prior
    inner = (p > 0) & (p < 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if metric == "posterior":
            lo, hi = -eps, eps
        elif side != "nearest":
            lo_low, lo_high, hi_low, hi_high = _threshold_bounds(np.where(inner, p, 0.5), eps, metric)
            lo, hi = (lo_high, hi_low) if side == "inner" else (lo_low, hi_high)
            lo, hi = np.where(eps == 0, 0.0, lo), np.where(eps == 0, 0.0, hi)
        elif metric == "ratio":
            # R ≤ e^ε ⇔ (1 − p)e^{−z} ≥ e^{−ε} − p;  R ≥ e^{−ε} ⇔ (1 − p)e^{−z} ≤ e^{ε} − p.
            hi = np.where(p < np.exp(-eps), -np.log((np.exp(-eps) - p) / (1 - p)), np.inf)
            lo = -np.log((np.exp(eps) - p) / (1 - p))
        else:
            b = np.tanh(eps / 4.0)
            lp = logit(p)
            hi = np.where(p + b < 1, logit(np.minimum(p + b, 1)) - lp, np.inf)
            lo = np.where(p - b > 0, logit(np.maximum(p - b, 0)) - lp, -np.inf)
    lo = np.where(inner, lo, -np.inf)
    hi = np.where(inner, hi, np.inf)
    return lo, hi


_LEAVE_PRECISIONS = (64, 128, 256, 1024, 4096)  # bits of the interval evaluation, raised until it decides


def _leave_interval_test(iv, p, eps, metric, a, b, z):
    """One evaluation of :func:`_leaves_exactly`'s test at ``iv``'s precision: True, False or None (undecided)."""
    P, e = iv.mpf(p), iv.exp(iv.mpf(eps))
    if z is not None:
        w = iv.mpf(0) if z == math.inf else None if z == -math.inf else iv.exp(-iv.mpf(z))
    else:
        w = None if a == 0 else iv.mpf(b) / iv.mpf(a)
    if metric == "posterior":
        if w is None:
            return True
        g, low, high = w, 1 / e, e  # inside ⇔ e^{−ε} ≤ w ≤ e^ε
    elif metric == "ratio":
        if w is None:  # R = 0 < e^{−ε}
            return True
        g, low, high = P + (1 - P) * w, 1 / e, e  # 1/R
    else:
        x = iv.mpf(0) if w is None else P / (P + (1 - P) * w)
        t = 1 - 2 / (iv.exp(iv.mpf(eps) / 2) + 1)  # tanh(ε/4), one occurrence of ε (mpmath.iv has no tanh)
        g, low, high = x - P, -t, t
    if g.a > high.b or g.b < low.a:
        return True
    if g.a >= low.b and g.b <= high.a:
        return False
    return None


@functools.lru_cache(maxsize=200_000)
def _leaves_exactly(p: float, eps: float, metric: str, a: float, b: float, z: float | None) -> bool:
    """Whether the output with masses (a, b) (loss log(a/b)), or with ``z`` given the float loss z, leaves the
    bound of ``metric`` at the prior p ∈ (0, 1) and ε > 0, decided with mpmath's interval arithmetic on the exact
    values of the floats.  With w = Q/P = e^{−z}: the posterior leaves eq. (3) when w < e^{−ε} or w > e^{ε}; the ratio
    R = 1/(p + (1 − p)w) leaves eq. (5) when R > e^ε or R < e^{−ε}; the posterior X = p/(p + (1 − p)w) leaves eq. (8)
    when |X − p| > tanh(ε/4).  The boundary is transcendental (Lindemann–Weierstrass: e^ε with ε ≠ 0 rational is
    transcendental), so it is never met by these rational or exponential values except where the test below is
    exact (z = ±ε for the posterior); the precision rises until the interval decides."""
    from mpmath import iv

    if metric == "posterior" and z is not None:
        return bool(z > eps or z < -eps)
    old = iv.prec
    try:
        for prec in _LEAVE_PRECISIONS:
            iv.prec = prec
            decided = _leave_interval_test(iv, p, eps, metric, a, b, z)
            if decided is not None:
                return decided
    finally:
        iv.prec = old
    raise NumericalLimit(f"the leave event of {metric!r} at prior {p!r}, eps {eps!r} is undecided at "
                         f"{_LEAVE_PRECISIONS[-1]} bits (z={z!r}, present={a!r}, absent={b!r})")


def leaves(prior, eps, metric: str, z=None, *, present=None, absent=None):
    """Exactly which losses leave the bound of ``metric`` at level ε (eq. (3), (5) or (8) with Theorem 3.1): a
    boolean array ``[prior, output]``, True where the output's loss lies outside the exact interval of
    :func:`leave_thresholds` (strictly: a loss on a threshold stays inside).

    The outputs are given either by their losses ``z`` (floats, ±∞ allowed, read exactly) or by their
    nonnegative masses ``present`` = P(y) and ``absent`` = Q(y) (their loss log(P/Q) is exact, not its float).
    Each loss is tested against the ``"inner"`` and ``"outer"`` thresholds (with the float loss's error bound); a
    loss between the two is decided by interval arithmetic at rising precision on the exact floats.  ``prior`` is
    a scalar or a 1-d array, ``eps`` a scalar; priors 0 and 1 never leave; at ε = 0 every loss but 0 leaves."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS} (got metric={metric!r})")
    priors = np.atleast_1d(np.asarray(check_probability(prior, "prior"), dtype=float))
    if priors.ndim != 1:
        raise ValueError(f"prior must be a scalar or a 1-d array (got shape {priors.shape})")
    eps = float(check_epsilon(eps, "eps", scalar=True))
    if (z is None) == (present is None and absent is None) or (present is None) != (absent is None):
        raise ValueError("give either z or both present and absent "
                         f"(got z={z!r}, present={present!r}, absent={absent!r})")
    if z is not None:
        zf = np.atleast_1d(np.asarray(as_float(z, "z"), dtype=float))
        a = b = np.zeros(zf.shape)
        z_lo = z_hi = zf
        none = np.zeros(zf.shape, dtype=bool)
    else:
        a, b = (np.atleast_1d(np.asarray(as_float(v, name), dtype=float))
                for v, name in ((present, "present"), (absent, "absent")))
        for name, v in (("present", a), ("absent", b)):  # masses of outputs: rows need not be whole distributions
            refuse_where((v < 0) | np.isinf(v), f"{name} must be finite and >= 0", **{name: v})
        if a.shape != b.shape or a.ndim != 1:
            raise ValueError(f"present and absent must be 1-d arrays of one length (got shapes {a.shape}, {b.shape})")
        none = (a == 0) & (b == 0)  # no mass under either hypothesis: it leaves nothing
        with np.errstate(divide="ignore", invalid="ignore"):
            la, lb = np.log(a), np.log(b)
            zf = np.where(none, 0.0, la - lb)
            # each log within 4 ulps (8u of its modulus); the difference rounded once (½ ulp of zf) and zf ∓ err
            # once more (½ ulp of the result, whose ulp is at least half of zf's): two ulps of the result each way
            err = 2.0 * _EXP_ULPS * _rounding.UNIT_ROUNDOFF * (np.where(a > 0, np.abs(la), 0.0)
                                                               + np.where(b > 0, np.abs(lb), 0.0))
            finite = np.isfinite(zf)
            z_lo = np.where(finite, _rounding.down(zf - err, 2), zf)
            z_hi = np.where(finite, _rounding.up(zf + err, 2), zf)
    moving = (priors > 0) & (priors < 1)
    if eps == 0:  # every threshold is 0: the loss leaves unless it is 0 (P = Q)
        zero = (zf == 0) if z is not None else (a == b)
        return moving[:, None] & ~zero[None, :] & ~none[None, :]
    lo_in, hi_in = (np.atleast_1d(v)[:, None] for v in leave_thresholds(priors, eps, metric, side="inner"))
    lo_out, hi_out = (np.atleast_1d(v)[:, None] for v in leave_thresholds(priors, eps, metric, side="outer"))
    zl, zh = z_lo[None, :], z_hi[None, :]
    out = (zl > hi_out) | (zh < lo_out)
    unsure = ~out & ~((zl >= lo_in) & (zh <= hi_in)) & moving[:, None] & ~none[None, :]
    for i, j in zip(*np.nonzero(unsure)):
        out[i, j] = _leaves_exactly(float(priors[i]), eps, metric, float(a[j]), float(b[j]),
                                    None if z is None else float(zf[j]))
    return out & moving[:, None] & ~none[None, :]
