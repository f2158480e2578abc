"""Conversions between pure DP, approximate DP, probabilistic DP (PDP) and zero-concentrated DP (zCDP).

What Kazan, Sharma, Zhang, Jiang & Yan ("Interpreting Differential Privacy in Terms of Disclosure Risk",
paper 004) state in §2 and §3.3, and what this module computes:

* Theorem 2.3 — ε-DP holds exactly when the privacy-loss variable lies in [−ε, ε] with probability one;
  equivalently (ε, 0)-PDP ⇔ (ε, 0)-DP (nothing to compute: :func:`pdp_to_dp` with δ = 0).
* Theorem 2.5 — (ε, δ)-PDP implies (ε, δ)-DP: :func:`pdp_to_dp`.
* Theorem 2.7 (Bun & Steinke 2016) — ρ-zCDP implies (ρ + 2√(ρ log(1/δ)), δ)-DP for every δ > 0:
  :func:`zcdp_epsilon` with ``tight=False``; its exact inverse :func:`zcdp_delta`.
* Theorem 3.9 — (ε, δ)-DP implies (ε′, δ′)-PDP for every δ′ ∈ (δ, 1] with
  ε′ = log(δ′e^ε + δ) − log(δ′ − δ): :func:`pdp_epsilon`; solving the same relation for δ′ gives the
  form of Zhao et al. (2019) quoted in Kazan's Appendix A.8, δ′ = δ(1 + e^{−ε′})/(1 − e^{ε−ε′}):
  :func:`pdp_delta`.

Conversions the book uses that are *not* stated in paper 004 (cited to their own source):

* pure ε-DP ⇒ (ε²/2)-zCDP (Bun & Steinke 2016, Proposition 1.4): :func:`pure_to_zcdp`.
* the tighter ρ-zCDP ⇒ (ε, δ)-DP conversion of Canonne, Kamath & Steinke (2020, "The Discrete Gaussian
  for Differential Privacy", Corollary 13): δ = inf_{α>1} e^{(α−1)(αρ−ε)} (1 − 1/α)^α / (α − 1),
  equivalently ε = inf_{α>1} αρ + log(1 − 1/α) − (log δ + log α)/(α − 1):
  :func:`zcdp_epsilon` / :func:`zcdp_delta` with ``tight=True``.
* the privacy profile of the Gaussian mechanism whose zCDP parameter is ρ (σ = Δ/√(2ρ)); it is a ρ-zCDP
  mechanism, so no conversion can give a δ below it: :func:`zcdp_gaussian_delta`.

All functions broadcast over array arguments (NumPy rules) and reject bad input with a ``ValueError`` that
names the parameter.  Everything is evaluated in log space so that δ down to 1e-300 and ε up to 50 stay
finite and accurate.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq, minimize_scalar

from . import _rounding
from ._rounding import UNIT_ROUNDOFF as _U  # u, the unit round-off
from ._validate import as_output, broadcast, check_delta, check_epsilon, check_positive
from .errors import NumericalLimit
from .mechanisms import gaussian_delta

__all__ = [
    "pdp_epsilon",
    "pdp_delta",
    "pdp_to_dp",
    "pure_to_zcdp",
    "zcdp_epsilon",
    "zcdp_delta",
    "zcdp_gaussian_delta",
    "profile_pdp_epsilon",
]


_out = as_output


# --------------------------------------------------------------------------------------------------
# Probabilistic DP (Kazan et al. Definition 2.4, Theorems 2.5 and 3.9)
# --------------------------------------------------------------------------------------------------


def pdp_epsilon(eps, delta, delta_prime):
    """ε′ of Kazan et al. (paper 004), Theorem 3.9: an (ε, δ)-DP mechanism is (ε′, δ′)-PDP with

        ε′ = log(δ′e^ε + δ) − log(δ′ − δ)   for every δ′ ∈ (δ, 1].

    Evaluated as ε + log1p(δe^{−ε}/δ′) − log1p(−δ/δ′), which needs no exponential of ε and stays exact
    for δ = 0 (ε′ = ε, Theorem 2.3) and for δ′ close to δ.  Broadcasts over all three arguments.

    Raises ``ValueError`` unless eps ≥ 0, delta ∈ [0, 1), delta_prime ∈ (0, 1] and delta_prime > delta.

    Rounded up (never below the exact ε′): the three terms are positive, the two small ones within 3 ulps
    of themselves (the last, when δ/δ′ > ½, within 2 ulps of |log δ′|), the two additions within ½ ulp of
    the sum each; the result is raised by that bound (``_rounding``), typically 1–2 ulps.
    With δ = 0 the result is ε itself, exactly.
    """
    eps = check_epsilon(eps, "eps")
    delta = check_delta(delta, "delta", open_high=True)
    delta_prime = check_delta(delta_prime, "delta_prime", open_low=True)
    e, d, dp = broadcast(eps=eps, delta=delta, delta_prime=delta_prime)
    bad = dp <= d
    if np.any(bad):
        i = np.flatnonzero(bad.ravel())[0]
        raise ValueError(
            f"delta_prime must exceed delta (got delta_prime={float(dp.ravel()[i])!r}, delta={float(d.ravel()[i])!r})"
        )
    # −log(1 − δ/δ′): log1p while δ/δ′ ≤ ½, else log δ′ − log(δ′ − δ) (exact when δ′ is the next float above δ)
    ratio = d / dp
    with np.errstate(divide="ignore"):
        tail = np.where(ratio <= 0.5, -np.log1p(-np.minimum(ratio, 0.5)), np.log(dp) - np.log(dp - d))
        middle = np.log1p(ratio * np.exp(-e))
        value = e + middle + tail
        # error: two additions (½ ulp of the sum each), 3 ulps of each small term, and for the second form
        # of the tail 2 ulps of |log δ′| (its two logs are exact to that, not to their difference)
        err = 3.0 * (np.spacing(middle) + np.spacing(tail)) + np.where(ratio <= 0.5, 0.0,
                                                                       2.0 * np.spacing(np.abs(np.log(dp))))
        with np.errstate(over="ignore", invalid="ignore"):  # ε′ at the float maximum: its ulp is +inf
            ulps = 1.0 + np.ceil(np.nan_to_num(err / np.spacing(np.abs(value))))
    return _out(np.where(d > 0, _rounding.up(value, ulps), e))


def pdp_delta(eps, delta, eps_prime):
    """δ′ for which an (ε, δ)-DP mechanism is (ε′, δ′)-PDP, for ε′ > ε (Zhao et al. 2019, as quoted in
    Kazan et al. Appendix A.8):

        δ′ = δ (1 + e^{−ε′}) / (1 − e^{ε − ε′}).

    This is Kazan's Theorem 3.9 solved for δ′, so ``pdp_epsilon(eps, delta, pdp_delta(eps, delta, e1))``
    returns ``e1``.  The value can exceed 1 (then the PDP statement is vacuous); it is returned as is.

    Raises ``ValueError`` unless eps ≥ 0, delta ∈ [0, 1) and eps_prime > eps.

    Rounded up (never below the exact δ′): e^{−ε′} within 4 ulps (8u), so 1 + e^{−ε′} within 5u and the
    numerator 6u; ε − ε′ is one correctly rounded subtraction (u), to which expm1's relative sensitivity is at
    most 1, plus expm1's own 8u; the quotient u — 16u, and one ulp of δ′ is at least u·δ′: 16 ulps.
    """
    eps = check_epsilon(eps, "eps")
    delta = check_delta(delta, "delta", open_high=True)
    eps_prime = check_epsilon(eps_prime, "eps_prime")
    e, d, ep = broadcast(eps=eps, delta=delta, eps_prime=eps_prime)
    bad = ep <= e
    if np.any(bad):
        i = np.flatnonzero(bad.ravel())[0]
        raise ValueError(f"eps_prime must exceed eps (got eps_prime={float(ep.ravel()[i])!r}, "
                         f"eps={float(e.ravel()[i])!r})")
    with np.errstate(over="ignore"):  # ε′ within a few ulps of ε: δ′ beyond the float range is +inf
        return _out(_rounding.up(d * (1.0 + np.exp(-ep)) / -np.expm1(e - ep), 16.0))


def pdp_to_dp(eps, delta):
    """Kazan et al., Theorem 2.5 (Dwork et al. 2014; Zhao et al. 2019): (ε, δ)-PDP implies (ε, δ)-DP.

    The parameters carry over unchanged; the function validates them and returns ``(eps, delta)`` so that
    code can name the step it takes.  (The converse fails for δ > 0; Theorem 3.9, :func:`pdp_epsilon`, is
    the partial converse.)
    """
    return check_epsilon(eps, "eps"), check_delta(delta, "delta")


# --------------------------------------------------------------------------------------------------
# zCDP (Kazan et al. Definition 2.6, Theorem 2.7; Bun & Steinke 2016; Canonne, Kamath & Steinke 2020)
# --------------------------------------------------------------------------------------------------


def pure_to_zcdp(eps):
    """ρ = ε²/2: a pure ε-DP mechanism is (ε²/2)-zCDP (Bun & Steinke 2016, Proposition 1.4), rounded up.

    Not stated in paper 004; Kazan's §2 defines zCDP (Definition 2.6) and converts it to approximate DP
    (Theorem 2.7, :func:`zcdp_epsilon`).
    """
    eps = np.asarray(check_epsilon(eps, "eps"), dtype=float)
    with np.errstate(over="ignore", under="ignore"):  # ε > 1.9e154: ρ beyond the float range is +inf
        square = _rounding.mul_away(eps, eps)  # a ρ a guarantee rests on: ε² rounded up (exact when it is a float)
        rho = 0.5 * square
    # the halving is exact unless ρ is subnormal, where it may round down (or to 0, as may ε² itself): one ulp up
    return _out(np.where((2.0 * rho < square) | ((rho == 0) & (eps > 0)), np.nextafter(rho, np.inf), rho))


def _log_inv_delta(delta):
    delta = np.asarray(check_delta(delta, "delta", open_low=True))
    return -np.log(delta)


def _tight_eps_scalar(rho: float, L: float) -> float:
    """inf over α > 1 of  αρ + log(1 − 1/α) + (L − log α)/(α − 1),  with L = log(1/δ) > 0.

    Writing t = α − 1 > 0 the objective is g(t) = (1+t)ρ + log(t/(1+t)) + (L − log1p t)/t, whose
    derivative is ρ − (L − log1p t)/t²; the unique stationary point solves ρt² + log1p(t) = L, which has
    exactly one root in (0, √(L/ρ)] because the left side increases from 0.
    """
    # log1p(t) ≤ L bounds the root as well as ρt² ≤ L: the second bracket keeps a subnormal ρ harmless.  √L/√ρ (not
    # √(L/ρ), which loses digits when L/ρ is subnormal) raised by 1e-15 as in _tight_eps_many: rounded to nearest,
    # ρ·hi² fell below L at ρ = 1e30 and Brent's bracket had no sign change
    hi = float(np.sqrt(L) / np.sqrt(rho) * (1 + 1e-15))
    hi = min(hi, float(np.expm1(L))) if L < 700 else hi
    hi = max(hi, _rounding.SMALLEST_SUBNORMAL)
    f = lambda s: rho * s * s + np.log1p(s) - L  # noqa: E731
    if not f(hi) > 0.0:  # the root is at or below the smallest float (or at hi): any t gives a valid bound
        return float(_tight_eps_upper(np.array([hi]), np.array([rho]), np.array([L]))[0])
    # disp=False: where ρt² is below the resolution of log1p(t) (ρ ≲ 1e-290) the last digits of the root
    # cannot settle; any t gives a valid bound, and _tight_eps_upper adds the bound's own evaluation error
    t = brentq(f, 0.0, hi, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500, disp=False)
    if t <= 0.0:  # pragma: no cover - the root is strictly positive for L > 0
        t = np.nextafter(0.0, 1.0)
    return float(_tight_eps_upper(np.array([t]), np.array([rho]), np.array([L]))[0])


def _tight_eps_upper(t: np.ndarray, rho: np.ndarray, L: np.ndarray) -> np.ndarray:
    """g(t) = (1 + t)ρ − log1p(1/t) + (L − log1p t)/t (CKS 2020, Corollary 13 in its ε form at α = 1 + t, with
    log(1 − 1/α) = −log1p(1/t)), raised by its evaluation error, at least 0: an upper bound on the ε that order α
    gives for δ = e^{−L}.  Every α > 1 gives a valid ε (the corollary bounds δ at each α, and the ε form solves
    that bound for ε), so whatever t the root finder returns, this is a safe ε — safe by construction, with no
    check against the inverse and no stepping.  The error, with A = (1 + t)ρ, B = log1p(1/t), N = L − log1p t and
    C = N/t: A within 3u|A| (two roundings), B within 10u|B| (1/t's rounding, to which log1p's relative
    sensitivity is at most 1, and log1p's 4 ulps), N within 8u(L + log1p t) + u|N| (L = −log δ and log1p t within
    4 ulps each, the subtraction), so C within 8u(L + log1p t)/t + 2u|C|; the two additions u(|A| + |B| + |C|)
    each — in all below 12u(|A| + |B| + |C| + (L + log1p t)/t), taken as 16u for the rounding of the bound
    itself.  Where t is so small or large that a term is not finite, ε = +∞ (no finite bound was certified at
    that t; the caller's simple bound remains).

    The ε is raised once more, by (3·(the allowance of :func:`zcdp_delta`'s log δ at this t and ε) + 32u)/t: log δ
    falls with slope t in ε at a fixed order, so the inverse conversion — which solves for its own order, at least
    as good, adds its own allowance and rounds e^{log δ} up by at most 22u (``_rounding.exp_up``) — confirms δ at
    the ε returned (``zcdp_delta(ρ, ε, tight=True) ≤ δ``), with no check to run.  Near δ = 1 (t small, δ hardly
    moving with ε) that costs most: ε + 3.5e-3 at δ = 1 − 10⁻¹² (the check it replaces had raised ε by up to 2 %)."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        a = (1 + t) * rho
        b = np.log1p(1.0 / t)
        lt = np.log1p(t)
        c = (L - lt) / t
        g = a - b + c
        g = g + 16.0 * _U * (np.abs(a) + np.abs(b) + np.abs(c) + (L + lt) / t)
        g = g + (3.0 * _tight_log_delta_terms(t, rho, g)[1] + 32.0 * _U) / t
    return np.where(np.isfinite(g), np.maximum(g, 0.0), np.inf)


def _tight_log_delta_scalar(rho: float, eps: float) -> float:
    """log of inf over α > 1 of e^{(α−1)(αρ−ε)} (1 − 1/α)^α / (α − 1)   (CKS 2020, Corollary 13).

    With t = α − 1 the log objective is h(t) = t((1+t)ρ − ε) + (1+t)(log t − log1p t) − log t, whose
    derivative (2t+1)ρ − ε + log t − log1p t increases strictly from −∞ to +∞: one stationary point.
    """

    def deriv(t):
        return (2 * t + 1) * rho - eps - np.log1p(1.0 / t)

    with np.errstate(over="ignore"):
        hi = min(max(1.0, (eps + 1.0) / (2.0 * rho) + 1.0), 1e300)  # subnormal ρ: the root is below 1e300
    while deriv(hi) <= 0:  # pragma: no cover - the bracket above already suffices
        hi *= 2.0
    lo = min(1.0, hi) / 2.0
    while deriv(lo) >= 0:
        lo /= 2.0**8
        if lo < 1e-300:
            # the stationary point is below 1e-300, where h(t) = O(t log t): the infimum is 0, δ = 1
            return 0.0
    t = brentq(deriv, lo, hi, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500, disp=False)
    return float(_tight_log_delta_upper(t, rho, eps))


def _tight_log_delta_terms(t, rho, eps):
    """``(h, allowance)``: h(t) = t((1+t)ρ − ε) − (1+t)·log1p(1/t) − log t, the log of CKS 2020, Corollary 13's
    bound at α = 1 + t, as evaluated, and a bound on its evaluation error.  For t < 1 it is written
    t((1+t)ρ − ε) − (1+t)·log1p(t) + t·log t (the same number: (1+t)log1p(1/t) + log t = (1+t)log1p(t) − t log t),
    whose terms are O(t), so that where δ is near 1 (t small) the terms log1p(1/t) and log t, both near log(1/t),
    no longer cancel to a log δ near 0.  With A, B, C the three terms, (1+t)ρ − ε errs by 2u(1+t)ρ + u|·|, so A by
    2u·t(1+t)ρ + 2u|A|; log1p (4 ulps, 8u, and its argument's u) and two products give 11u|B|; log t and a product
    9u|C|; the two subtractions u(|A| + |B| + |C|) — in all below 16u(t(1+t)ρ + |A| + |B| + |C|)."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        small = t < 1.0
        a = t * ((1 + t) * rho - eps)
        b = (1 + t) * np.log1p(np.where(small, t, 1.0 / t))
        c = np.where(small, -t * np.log(t), np.log(t))
        allowance = 16.0 * _U * (t * ((1 + t) * rho) + np.abs(a) + np.abs(b) + np.abs(c))  # (no t² overflow)
        return a - b - c, allowance


def _tight_log_delta_upper(t, rho, eps):
    """h(t) (:func:`_tight_log_delta_terms`) raised by its evaluation error, capped at 0: an upper bound on log δ.
    Every t > 0 gives a valid δ, so only the float evaluation at this t needs an allowance.  NaN (t beyond the
    float range) gives 0, δ = 1."""
    h, allowance = _tight_log_delta_terms(t, rho, eps)
    with np.errstate(invalid="ignore"):
        h = h + allowance
    return np.minimum(np.where(np.isnan(h), 0.0, h), 0.0)


_VECTOR_MIN = 16  # more inputs than this: the tight conversions solve for all of them at once (numpy);
# fewer: one Brent solve each (scalar floats are faster there).  Both are checked against mpmath in the tests.


def _increasing_root_in_log(f, df_ds, s_lo, s_hi, params):
    """For each entry, the root s of f(e^s, *params) = 0 in [s_lo, s_hi], f strictly increasing in s,
    f(e^{s_lo}) < 0 < f(e^{s_hi}): Newton steps in s = log t (``df_ds`` is the derivative in s), kept inside
    the shrinking bracket (a step that leaves it, or is not finite, is a bisection), all entries at once (the
    unfinished ones are gathered when half are done), until the step is below 4 ulps of s.  Returns t = e^s.
    Any t gives a valid bound where this is used (an infimum over orders), so the precision of the root
    decides tightness only, never safety."""
    a = np.array(s_lo, dtype=float).ravel()
    b = np.array(s_hi, dtype=float).ravel()
    s = b.copy()
    out = np.empty(s.size)
    idx = np.arange(s.size)
    params = [np.asarray(q, dtype=float).ravel() for q in params]
    for _ in range(400):
        if idx.size == 0:
            break
        t = np.exp(s)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            fv = f(t, *params)
            step = fv / df_ds(t, *params)
        below = fv < 0
        a = np.where(below, s, a)
        b = np.where(below, b, s)
        nxt = np.where(fv == 0, s, s - step)
        inside = np.isfinite(nxt) & (nxt >= a) & (nxt <= b)
        nxt = np.where(inside, nxt, 0.5 * (a + b))
        done = (np.abs(nxt - s) <= 4 * np.finfo(float).eps * np.maximum(np.abs(s), 1.0)) | (fv == 0)
        s = nxt
        if np.any(done):
            out[idx[done]] = s[done]
            if np.count_nonzero(done) * 2 >= idx.size or np.all(done):  # gather the unfinished ones
                keep = ~done
                idx, a, b, s = idx[keep], a[keep], b[keep], s[keep]
                params = [q[keep] for q in params]
    out[idx] = s  # entries still moving after 400 steps (none in the tests) keep their last iterate
    return np.exp(out)


def _tight_eps_many(rho: np.ndarray, L: np.ndarray) -> np.ndarray:
    """inf over α > 1 of  αρ + log(1 − 1/α) + (L − log α)/(α − 1),  with L = log(1/δ) > 0, for 1-d arrays.

    Writing t = α − 1 > 0 the objective is g(t) = (1+t)ρ + log(t/(1+t)) + (L − log1p t)/t, whose
    derivative is ρ − (L − log1p t)/t²; the unique stationary point solves ρt² + log1p(t) = L, which has
    exactly one root in (0, √(L/ρ)] because the left side increases from 0.
    """
    # log1p(t) ≤ L bounds the root as well as ρt² ≤ L: the second bracket keeps a subnormal ρ harmless
    with np.errstate(over="ignore"):
        hi = np.sqrt(L) / np.sqrt(rho) * (1 + 1e-15)  # (√(L/ρ) loses digits when L/ρ is subnormal)
        hi = np.where(L < 700, np.minimum(hi, np.expm1(np.minimum(L, 700.0))), hi)
    hi = np.clip(hi, _rounding.SMALLEST_SUBNORMAL, 1e300)  # L/ρ below the float range: any t gives a valid bound

    t = _increasing_root_in_log(lambda t, r, el: r * t * t + np.log1p(t) - el,
                                lambda t, r, el: t * (2 * r * t + 1 / (1 + t)),
                                np.full(L.shape, -745.0), np.log(hi), (rho, L))
    return _tight_eps_upper(np.maximum(t, np.nextafter(0.0, 1.0)), rho, L)


def _tight_log_delta_many(rho: np.ndarray, eps: np.ndarray) -> np.ndarray:
    """log of inf over α > 1 of e^{(α−1)(αρ−ε)} (1 − 1/α)^α / (α − 1)   (CKS 2020, Corollary 13), 1-d arrays.

    With t = α − 1 the log objective is h(t) = t((1+t)ρ − ε) + (1+t)(log t − log1p t) − log t, whose
    derivative (2t+1)ρ − ε + log t − log1p t increases strictly from −∞ to +∞: one stationary point.  Where
    it lies below 1e-300, h(t) = O(t log t) there: the infimum is 0, δ = 1.
    """
    with np.errstate(over="ignore"):
        hi = np.minimum(np.maximum(1.0, (eps + 1.0) / (2.0 * rho) + 1.0), 1e300)
    lo = np.full(rho.shape, 1e-300)

    def deriv(t, r, e):
        return (2 * t + 1) * r - e - np.log1p(1.0 / t)

    tiny = deriv(lo, rho, eps) >= 0  # the stationary point is below 1e-300
    out = np.zeros(rho.shape)
    go = np.flatnonzero(~tiny)
    if go.size:
        r, e = rho[go], eps[go]
        t = _increasing_root_in_log(deriv, lambda t, r, e: 2 * r * t + 1 / (1 + t), np.log(lo[go]), np.log(hi[go]),
                                    (r, e))
        out[go] = _tight_log_delta_upper(t, r, e)
    return out


def zcdp_epsilon(rho, delta, tight: bool = False):
    """ε such that a ρ-zCDP mechanism is (ε, δ)-DP.

    ``tight=False``: Kazan et al. (paper 004), Theorem 2.7 (Bun & Steinke 2016, Proposition 1.3),
    ε = ρ + 2√(ρ log(1/δ)).

    ``tight=True``: Canonne, Kamath & Steinke (2020), Corollary 13, in the ε form
    ε = inf_{α>1} αρ + log(1 − 1/α) − (log δ + log α)/(α − 1), clipped at 0.  Every α gives a valid
    bound; the infimum is found by solving the stationarity condition ρ(α−1)² + log α = log(1/δ) with
    Brent's method.  It never exceeds the simple bound (the two extra terms are negative).

    Safe by construction, with no check and no stepping.  Simple form: every operation of ρ + 2√ρ·√L is correctly
    rounded and every term is positive; L = −log δ is within 4 ulps (the allowance this package takes for NumPy's
    log), so √L is within 3u and the float ε is at least ε(1 − 6u) (u = 2⁻⁵³; a product below the normal range
    errs by at most half the smallest subnormal); raising it by 8 ulps (each at least u·ε) covers both.  Tight
    form: every α gives a valid ε, so the ε at the α found is raised by its own evaluation error
    (``_tight_eps_upper``) and 4 ulps (the check against the inverse, whose own allowance is loose near δ = 1, had
    raised ε by up to 2 % there and taken 4.5 s for 10⁶ inputs).

    rho > 0 and delta ∈ (0, 1] broadcast against each other; bad input raises ``ValueError``.
    """
    rho = check_positive(rho, "rho")
    L = _log_inv_delta(delta)
    r, L = broadcast(rho=rho, delta=L)
    # the simple form, ε = ρ + 2√ρ·√L, raised by its derived evaluation error (see the docstring)
    with np.errstate(over="ignore"):  # ρ near the float maximum: ε = +inf, the outward answer
        simple = np.where(L == 0.0, 0.0, r + 2.0 * (np.sqrt(r) * np.sqrt(L)))
    out = np.asarray(_rounding.up(simple, 8), dtype=float)
    if tight:  # both forms are valid ε: the tight one where it is smaller (everywhere its bound is finite)
        if r.size > _VECTOR_MIN:  # many: Newton steps in log t for all at once
            go = np.flatnonzero(np.ravel(L) > 0.0)
            tight_eps = np.zeros(r.size)
            tight_eps[go] = _tight_eps_many(np.ravel(r)[go], np.ravel(L)[go])
            tight_eps = tight_eps.reshape(r.shape)
        else:  # few: Brent's method for each
            tight_eps = np.zeros(r.shape)
            for idx in np.ndindex(r.shape):
                if L[idx] > 0.0:
                    tight_eps[idx] = _tight_eps_scalar(float(r[idx]), float(L[idx]))
        out = np.minimum(out, _rounding.up(tight_eps, 4))
    return _out(out)


def zcdp_delta(rho, eps, tight: bool = False):
    """δ such that a ρ-zCDP mechanism is (ε, δ)-DP: the exact inverse of :func:`zcdp_epsilon`.

    ``tight=False``: Theorem 2.7 of Kazan et al. solved for δ, δ = exp(−(ε − ρ)²/(4ρ)) for ε ≥ ρ and
    δ = 1 (no guarantee) for ε < ρ.

    ``tight=True``: Canonne, Kamath & Steinke (2020), Corollary 13,
    δ = min(1, inf_{α>1} e^{(α−1)(αρ−ε)} (1 − 1/α)^α / (α − 1)).

    For the δ of the Gaussian mechanism with the same ρ — a lower limit for any such conversion, since
    that mechanism is ρ-zCDP — see :func:`zcdp_gaussian_delta`.

    Rounded up (never below the exact δ of the formula): log δ is raised by its evaluation error
    (``_tight_log_delta_upper``; 6 ulps of (ε − ρ)²/(4ρ) for the simple form), and e^{log δ} rounded up
    (``_rounding.exp_up``: a few ulps in the normal range, never below e^{log δ} under it); a δ below the float
    range is 5e-324, not 0.
    """
    rho = check_positive(rho, "rho")
    eps = check_epsilon(eps, "eps")
    r, e = broadcast(rho=rho, eps=eps)
    if not tight:
        x = np.maximum(e - r, 0.0)
        with np.errstate(over="ignore", under="ignore"):
            # a = (ε − ρ)²/(4ρ) within 5u relative (the subtraction, the square, 4ρ, the division): 6 ulps up
            # in log space; beyond the float range e^{−a} is still above 0, so the smallest float
            log_delta = _rounding.up(-np.minimum((x / (4.0 * r)) * x, 1e308), 6)
    elif r.size > _VECTOR_MIN:  # many: Newton steps in log t for all at once
        log_delta = _tight_log_delta_many(np.ravel(r).astype(float), np.ravel(e).astype(float)).reshape(r.shape)
    else:
        log_delta = np.empty(r.shape)
        for idx in np.ndindex(r.shape):
            log_delta[idx] = _tight_log_delta_scalar(float(r[idx]), float(e[idx]))
    # log δ is an upper bound; its exponential rounded up at every magnitude (_rounding.exp_up); at most 1
    return _out(np.minimum(_rounding.exp_up(log_delta), 1.0))


def zcdp_gaussian_delta(rho, eps):
    """Exact privacy profile δ(ε) of the Gaussian mechanism whose zCDP parameter is ρ = Δ²/(2σ²).

    The Gaussian mechanism with σ = Δ/√(2ρ) is exactly ρ-zCDP (Bun & Steinke 2016, Proposition 1.6), so
    every valid ρ-zCDP ⇒ (ε, δ)-DP conversion must give at least this δ.  Computed with
    :func:`dpsemantics.mechanisms.gaussian_delta` (Balle & Wang 2018, Theorem 8) at Δ/σ = √(2ρ), and never below the
    exact value (the δ of a guarantee, and the left side of the claims that a conversion's ε suffices for the
    Gaussian): enlarged by that function's error and by the rounding of √(2ρ)
    (``mechanisms.gaussian_delta``).
    """
    rho = check_positive(rho, "rho")
    eps = check_epsilon(eps, "eps")
    r, e = broadcast(rho=rho, eps=eps)
    with np.errstate(over="ignore"):
        ratio = np.where(r <= 1e307, np.sqrt(2.0 * r), np.sqrt(2.0) * np.sqrt(r))  # √(2ρ) within u relative
    return _out(gaussian_delta(e, 1.0, ratio))  # vectorised



# --------------------------------------------------------------------------------------------------
# Theorem 3.9 along a whole privacy profile
# --------------------------------------------------------------------------------------------------


def profile_pdp_epsilon(profile, delta_prime, *, eps_max: float = 200.0, grid: int = 160):
    """The smallest ε′ that Kazan et al., Theorem 3.9 gives at confidence 1 − δ′ from any point of a
    privacy profile: ``min over ε of log(δ′e^ε + δ(ε)) − log(δ′ − δ(ε))`` over the ε with δ(ε) < δ′.

    A mechanism with privacy profile δ(ε) (the smallest δ for which it is (ε, δ)-DP) is (ε, δ(ε))-DP at
    *every* ε, so each point gives a PDP guarantee; "different points along the curve will yield different
    disclosure risk interpretations" (Kazan et al., §4.2) and this function takes the best.  ``profile`` maps
    an array of ε ≥ 0 to δ(ε) (an upper bound on it is enough: the result is then an upper bound too).

    Every ε′ returned is Theorem 3.9 evaluated at a point actually tried, at the profile's own δ there and rounded
    up (:func:`pdp_epsilon`), so it is a valid guarantee whatever the search misses; the search is a grid on
    [ε₀, ε₁] (ε₀ the first ε with δ(ε) < δ′, ε₁ where δ(ε) has fallen below δ′·1e-9 or vanishes) refined by a
    bounded scalar minimisation.  Returns
    ``(eps_prime, eps, delta)``: ε′ and the profile point (ε, δ(ε)) giving it.  Raises
    ``NumericalLimit`` (a ``ValueError``) when no ε ≤ ``eps_max`` has δ(ε) < δ′.
    """
    if not callable(profile):
        raise ValueError(f"profile must be a function mapping an array of eps to delta (got profile={profile!r:.60})")
    delta_prime = float(check_delta(delta_prime, "delta_prime", open_low=True, scalar=True))

    def d(e):
        return np.minimum(np.asarray(profile(np.asarray(e, dtype=float)), dtype=float), 1.0)

    if float(d(eps_max)) >= delta_prime:
        raise NumericalLimit(f"delta_prime is too small for this profile: delta(eps) >= delta_prime for every eps <= "
                         f"{eps_max} (got delta_prime={delta_prime!r})")
    lo, hi = 0.0, eps_max
    if float(d(0.0)) >= delta_prime:  # the first ε with δ(ε) < δ′, by bisection
        a, b = 0.0, eps_max
        for _ in range(100):
            m = a + 0.5 * (b - a)  # no overflow when b is near the largest float
            a, b = (a, m) if float(d(m)) < delta_prime else (m, b)
            if b - a < 1e-12 * max(1.0, b):
                break
        lo = b
    top = max(lo, 1.0)  # an ε where δ is negligible (or zero): past it ε′ ≈ ε only grows
    while top < eps_max and float(d(top)) > delta_prime * 1e-9:
        top = min(2.0 * top, eps_max)
    hi = top
    extra = [lo, hi]
    if float(d(hi)) == 0.0:  # a pure part: the first ε with δ(ε) = 0 is where ε′ = ε is smallest there
        a, b = lo, hi
        for _ in range(200):
            m = a + 0.5 * (b - a)  # no overflow when b is near the largest float
            a, b = (a, m) if float(d(m)) == 0.0 else (m, b)
            if b - a <= 2 * math.ulp(b):
                break
        extra.append(b)

    def f(e):
        # Theorem 3.9 (pdp_epsilon, rounded up) at the profile's own δ(ε) wherever δ(ε) < δ′ (a δ lowered there, as the
        # clamp min(δ(ε), δ′(1 − 1e-15)) did just below δ′, would give an ε′ below the exact one); +inf elsewhere
        de = d(e)
        usable = de < delta_prime
        return np.where(usable, pdp_epsilon(e, np.where(usable, de, 0.0), delta_prime), np.inf)

    eps_grid = np.unique(np.concatenate([np.linspace(lo, hi, grid), extra]))
    vals = np.asarray(f(eps_grid), dtype=float)
    i = int(np.argmin(vals))
    best_e, best_v = float(eps_grid[i]), float(vals[i])
    a, b = float(eps_grid[max(i - 1, 0)]), float(eps_grid[min(i + 1, eps_grid.size - 1)])
    if b > a:
        res = minimize_scalar(lambda e: float(f(e)), bounds=(a, b), method="bounded", options={"xatol": 1e-12})
        v = float(f(res.x))
        if v < best_v:
            best_e, best_v = float(res.x), v
    return best_v, best_e, float(d(best_e))
