"""The binomial law of k randomized responses, in log space: Loader's saddle-point form and its error bound.

Randomized response at ε₀ flips an answer with probability q = 1/(1 + e^{ε₀}); among k answers the number of
flips is Binomial(k, q), the law behind the optimal composition theorem (Kazan et al. Theorem 2.8(3); Kairouz, Oh
& Viswanath 2015, Theorem 3.3).  Its masses are formed by Loader's saddle-point form (Loader 2000, "Fast and
accurate computation of binomial probabilities"), accurate to ~1e-15 for every k, where gammaln differences lose
digits at large k.  :func:`log_mass_error` bounds the float evaluation's error term by term.  Used by
:mod:`~dpsemantics.composition` (the optimal profile) and :mod:`~dpsemantics.privacy_loss` (the k-fold law).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import expit, gammaln

from ._rounding import UNIT_ROUNDOFF as _U  # u, the unit round-off

_LOG_2PI = math.log(2 * math.pi)
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188)


def stirlerr(n: np.ndarray) -> np.ndarray:
    """log n! − log(√(2πn)(n/e)ⁿ) for n ≥ 1: the Stirling series above 15, gammaln below (both exact)."""
    n = np.asarray(n, dtype=float)
    small = n <= 15
    out = np.empty_like(n)
    ns = n[small]
    out[small] = gammaln(ns + 1) - (ns + 0.5) * np.log(ns) + ns - 0.5 * _LOG_2PI
    nb = n[~small]
    inv2 = 1.0 / (nb * nb)
    series = np.zeros_like(nb)
    for c in reversed(_STIRLING):
        series = series * inv2 + c
    out[~small] = series / nb
    return out


def _part(a, mask):
    """a[mask] for an array ``a`` (of the mask's shape), ``a`` itself for a number (a parameter shared by all)."""
    return a[mask] if np.ndim(a) else a


def bd0(x: np.ndarray, m) -> np.ndarray:
    """x log(x/m) + m − x without cancellation (Loader's deviance; series where x is near m).  ``m``: a number, or
    an array of x's shape (one m per entry: many binomial laws at once, the same operations entry by entry)."""
    x = np.asarray(x, dtype=float)
    out = np.empty_like(x)
    near = np.abs(x - m) < 0.1 * (x + m)
    xn, mn = x[near], _part(m, near)
    v = (xn - mn) / (xn + mn)
    total = (xn - mn) * v
    term = 2 * xn * v
    for j in range(1, 12):
        term = term * v * v
        total = total + term / (2 * j + 1)
    out[near] = total
    xf, mf = x[~near], _part(m, ~near)
    with np.errstate(divide="ignore"):
        out[~near] = xf * (np.log(xf) - np.log(mf)) + mf - xf
    return out


def each_log(x) -> np.ndarray:
    """``math.log`` entry by entry (a float array): the logarithm the scalar forms take of their numbers, so that an
    array of many laws gets the bits of one law at a time on every machine (NumPy's vectorised log may differ from
    the C library's by an ulp where it has SIMD kernels).  Entries ≤ 0 give −inf (they are masked by the callers)."""
    return np.array([math.log(v) if v > 0 else -math.inf for v in np.asarray(x, dtype=float).ravel().tolist()],
                    dtype=float).reshape(np.shape(x))


def log_binom_pmf(ell: np.ndarray, k, log_q, log_p, q, p, log_k=None, s_k=None) -> np.ndarray:
    """log C(k, ℓ) q^ℓ p^{k−ℓ} (p = 1 − q given separately, both exact), Loader's saddle-point form.  The law's
    parameters k, log q, log p, q, p (and ``log_k`` = math.log(k), ``s_k`` = stirlerr(k), formed here when not
    given) are numbers, or arrays of ℓ's shape (one law per entry; each entry gets the bits its own law's call gives
    it)."""
    ell = np.asarray(ell, dtype=float)
    out = np.empty_like(ell)
    lo, hi = ell == 0, ell == k
    out[lo] = _part(k, lo) * _part(log_p, lo)
    out[hi] = _part(k, hi) * _part(log_q, hi)
    mid = ~(lo | hi)
    e = ell[mid]
    kk = _part(k, mid)
    if log_k is None:
        log_k = math.log(k) if np.ndim(k) == 0 else each_log(k)
    with np.errstate(divide="ignore", invalid="ignore"):
        if s_k is None:
            s_k = stirlerr(np.array([float(k)]))[0] if np.ndim(k) == 0 else stirlerr(kk)
        else:
            s_k = _part(s_k, mid)
        out[mid] = (
            s_k - stirlerr(e) - stirlerr(kk - e)
            - bd0(e, kk * _part(q, mid)) - bd0(kk - e, kk * _part(p, mid))
            + 0.5 * (_part(log_k, mid) - _LOG_2PI - np.log(e) - np.log(kk - e))
        )
    return np.where(np.isnan(out), -np.inf, out)


def flip_probabilities(eps0: float):
    """(q, p, log q, log p) for randomized response at ε₀: q = 1/(1 + e^{ε₀}) flips an answer, p = 1 − q
    keeps it; each computed directly (no 1 − q), so both stay exact at every ε₀.  Floats for a number, arrays
    for an array."""
    with np.errstate(divide="ignore"):
        out = (expit(-eps0), expit(eps0), -np.logaddexp(0.0, eps0), -np.logaddexp(0.0, -eps0))
    return tuple(float(x) for x in out) if np.ndim(eps0) == 0 else out


def binomial_mode(eps0: float, k: int) -> int:
    """The most likely number of flipped answers among k (the mode of Binomial(k, q))."""
    return min(int((k + 1) * float(expit(-eps0))), k)


# the relative error of the probabilities q = expit(−ε₀) (flip), p = expit(ε₀) (keep) (1/(1 + e^{∓ε₀}): exp within
# 1 ulp, the sum and the division rounded once each: 4u; measured 1.9u against 50-digit mpmath,
# tests/unit/test_binomial.py) and of m = fl(k·q), fl(k·p) on top of it
FLIP_ERROR = 5.01 * _U


def log_mass_error(j: np.ndarray, k: int, q: float, p: float, log_q: float, log_p: float) -> np.ndarray:
    """A bound on |log_binom_pmf(j, k, log_q, log_p, q, p) − log b(j)|, b the exact Binomial(k, q*) masses
    (q = fl(q*) and p = fl(1 − q*) the float success and failure probabilities, each within ``FLIP_ERROR`` of the
    exact ones: for randomized response at ε₀, q* = e^{ε₀}/(1 + e^{ε₀}) keeps an answer), term by term through
    Loader's form log b(j) = s(k) − s(j) − s(k − j) − bd0(j, kq) − bd0(k − j, kp) + ½ log(k/(2πj(k − j))) (Loader 2000;
    s the Stirling error log n! − log(√(2πn)(n/e)ⁿ), bd0(x, m) = x log(x/m) + m − x):

    * **the parameters:** the form evaluated exactly at m₁ = fl(kq) = kq*(1 + α), m₂ = fl(kp) = kp*(1 + β) is
      log C(k, j) + j log(m₁/k) + (k − j) log(m₂/k) − (m₁ + m₂ − k) = log b(j) + (j − kq*)(α − β) + R with
      |R| ≤ k(α² + β²) (|log(1 + α) − α| ≤ α²): the k·u terms cancel to first order and |j − kq*| ≤ |j − m₁| + |α|m₁
      remains — O(√k·u) on the window of O(√k) masses kept.  |α|, |β| ≤ 5.01u (``FLIP_ERROR``).
    * **s(n):** for n > 15 the series stops after 1/(1188n⁹); the Stirling series' remainder is below its first
      omitted term 691/(360360n¹¹) (0.98u at n = 16), and its evaluation (Horner, 5 terms, value ≤ 1/(12n)) is within
      11u/(12n) ≤ u/n; for n ≤ 15 gammaln(n + 1) − (n + ½)log n + n − ½log 2π is within 67u of s(n) at every one of
      the fifteen n (checked exhaustively against mpmath), taken as 128u.
    * **bd0(x, m):** near m (|x − m| < 0.1(x + m)) the series in v = (x − m)/(x + m) (|v| < 0.1, so the terms past
      the first are below 7 % of it and the sum never cancels by more than 1.16×): v within 3u, each term within
      (8j + 5)u, twelve sums: within 24u·bd0, its truncation after v²³ below 1e-24·x; far from m, x(log x − log m) +
      m − x with logs within 1 ulp: within 6u(x(|log x| + |log m| + |log(x/m)|) + m + x).
    * **½ log(k/(2πj(k − j))):** four logs within 1 ulp and three sums: within 3u(|log k| + 2 + |log j| + |log(k − j)|).
    * **the sum of the six terms:** five roundings, within 5u times the sum of their moduli (+ the errors above).
    * **the ends** j = 0 and j = k (k·log p, k·log q; log p = −logaddexp(0, −ε₀) within 3u·|log p| of log p*):
      within 8u·k·|log p| (resp. |log q|).

    Every step is a bound on a float evaluation of a named formula; the only inputs taken from measurement are
    glibc's exp/log within 1 ulp and scipy's gammaln at n ≤ 15 (the fifteen values, checked)."""
    u = _U
    j = np.asarray(j, dtype=float)
    out = np.empty_like(j)
    lo, hi = j == 0, j == k
    out[lo] = 8.0 * u * k * abs(log_p)
    out[hi] = 8.0 * u * k * abs(log_q)
    mid = ~(lo | hi)
    e = j[mid]
    m1, m2 = k * q, k * p
    alpha = FLIP_ERROR

    def stirling_error(n):
        n = np.asarray(n, dtype=float)
        with np.errstate(over="ignore"):
            big = 691.0 / (360360.0 * n**11) + u / n
        return np.where(n <= 15, 128.0 * u, big)

    def deviance_error(x, m):
        x = np.asarray(x, dtype=float)
        near = np.abs(x - m) < 0.1 * (x + m)
        value = np.abs(bd0(x, m))
        with np.errstate(divide="ignore", invalid="ignore"):  # m = 0 (k·q underflowed): the mass is 0, not kept
            far = 6.0 * u * (x * (np.abs(np.log(x)) + np.abs(np.log(m)) + np.abs(np.log(x / m))) + m + x)
        return np.where(near, 24.0 * u * value + 1e-24 * x, far), value

    param = (np.abs(e - m1) + alpha * m1) * 2.0 * alpha + k * 2.0 * alpha * alpha
    s_k, s_e, s_ke = stirlerr(np.array([float(k)]))[0], stirlerr(e), stirlerr(k - e)
    d1, v1 = deviance_error(e, m1)
    d2, v2 = deviance_error(k - e, m2)
    logs = abs(math.log(k)) + 2.0 + np.abs(np.log(e)) + np.abs(np.log(k - e))
    half = 0.5 * (math.log(k) - _LOG_2PI - np.log(e) - np.log(k - e))
    moduli = abs(s_k) + np.abs(s_e) + np.abs(s_ke) + v1 + v2 + np.abs(half)
    terms = (stirling_error(np.array([float(k)]))[0] + stirling_error(e) + stirling_error(k - e) + d1 + d2
             + 3.0 * u * logs)
    out[mid] = (param + terms + 5.0 * u * (moduli + terms)) * (1.0 + 1e-6)
    return out


def _deviance_error_max(xa: float, xb: float, m: float):
    """(a bound on the evaluation error of bd0(x, m), the largest |bd0(x, m)|) over the whole x in [xa, xb] (1 ≤ xa ≤
    xb), majorising :func:`log_mass_error`'s two forms piece by piece.  bd0(·, m) is convex with its minimum 0 at m,
    so its largest value is at an end; the series form's bound 24u·bd0 + 1e-24·x is taken at those largest values.
    The direct form is used only where |x − m| ≥ 0.1(x + m), i.e. x ≤ 9m/11 or x ≥ 11m/9 (taken 1e-9 wider, far
    beyond the float test's rounding); its bound 6u(x(|log x| + |log m| + |log(x/m)|) + m + x) is majorised by the
    sum of its parts' maxima: x log x and x|log m| increase (x ≥ 1), x log(m/x) (x < m) is largest at m/e, and for
    x > m every part increases."""
    u = _U
    if not m > 0:  # k·q underflowed: as in log_mass_error, no bound (those masses are formed as 0, never kept)
        return math.inf, math.inf
    value = float(np.max(np.abs(bd0(np.array([xa, xb]), m))))
    err = 24.0 * u * value + 1e-24 * xb
    log_m = abs(math.log(m))
    left, right = m * (9.0 / 11.0) * (1.0 + 1e-9), m * (11.0 / 9.0) * (1.0 - 1e-9)
    if xa <= left:  # a part of the window on the direct form, below the mode
        xl = min(xb, left)
        peak = min(max(m / math.e, xa), xl)
        far = xl * math.log(xl) + xl * log_m + peak * math.log(m / peak) + m + xl
        err = max(err, 6.0 * u * far)
    if xb >= right:  # above the mode
        far = xb * math.log(xb) + xb * log_m + xb * math.log(xb / m) + m + xb
        err = max(err, 6.0 * u * far)
    return err, value


def window_log_mass_error(lo: int, hi: int, k: int, q: float, p: float, log_q: float, log_p: float) -> float:
    """A bound on :func:`log_mass_error` over every j in [lo, hi] at once (0 ≤ lo ≤ hi ≤ k), from O(1) evaluations:
    each of its parts is replaced by its largest value on the window — |j − kq| at an end; the Stirling errors
    (non-increasing in n: 128u up to 15, then 691/(360360n¹¹) + u/n) at the smallest j and k − j; the deviances'
    by :func:`_deviance_error_max`; the logarithms' |log j| + |log(k − j)| ≤ log hi + log(k − lo); the moduli
    likewise (s(n) ≥ 0 is decreasing).  A sum of these maxima bounds the maximum of the sum, so every mass of the
    window is within e^{±bound} of the exact Binomial(k, q*) mass: a sum of such masses with positive weights has
    the same relative error (the k-fold profile of :mod:`~dpsemantics.composition`, k > 1000).  It costs what a
    few masses cost, where log_mass_error over a window of 10⁶ terms took seconds.  :func:`window_log_mass_errors`
    for many windows at once."""
    u = _U
    out = 0.0
    if lo == 0:
        out = 8.0 * u * k * abs(log_p)
    if hi == k:
        out = max(out, 8.0 * u * k * abs(log_q))
    a, b = max(lo, 1), min(hi, k - 1)
    if a > b:
        return out
    m1, m2 = k * q, k * p
    alpha = FLIP_ERROR
    param = (max(abs(a - m1), abs(b - m1)) + alpha * m1) * 2.0 * alpha + k * 2.0 * alpha * alpha
    n = np.array([float(k), float(a), float(k - b)])
    s = stirlerr(n)
    with np.errstate(over="ignore"):
        stirling = np.where(n <= 15, 128.0 * u, 691.0 / (360360.0 * n**11) + u / n)
    d1, v1 = _deviance_error_max(float(a), float(b), m1)
    d2, v2 = _deviance_error_max(float(k - b), float(k - a), m2)
    logs = abs(math.log(k)) + 2.0 + math.log(b) + math.log(k - a)
    half = 0.5 * (abs(math.log(k)) + _LOG_2PI + math.log(b) + math.log(k - a))
    moduli = float(np.sum(np.abs(s))) + v1 + v2 + half
    terms = float(np.sum(stirling)) + d1 + d2 + 3.0 * u * logs
    return max(out, (param + terms + 5.0 * u * (moduli + terms)) * (1.0 + 1e-6))


def _deviance_error_maxes(xa, xb, m):
    """(a bound on the evaluation error of bd0(x, m), the largest |bd0(x, m)|) over the whole x in [xa, xb] (1 ≤ xa ≤
    xb), majorising :func:`log_mass_error`'s two forms piece by piece.  bd0(·, m) is convex with its minimum 0 at m,
    so its largest value is at an end; the series form's bound 24u·bd0 + 1e-24·x is taken at those largest values.
    The direct form is used only where |x − m| ≥ 0.1(x + m), i.e. x ≤ 9m/11 or x ≥ 11m/9 (taken 1e-9 wider, far
    beyond the float test's rounding); its bound 6u(x(|log x| + |log m| + |log(x/m)|) + m + x) is majorised by the
    sum of its parts' maxima: x log x and x|log m| increase (x ≥ 1), x log(m/x) (x < m) is largest at m/e, and for
    x > m every part increases.  :func:`_deviance_error_max` for arrays (one window per entry; the logarithms by
    :func:`each_log`, as ``math.log``, so that each entry gets the scalar form's bits)."""
    xa, xb, m = (np.asarray(v, dtype=float) for v in (xa, xb, m))
    on = m > 0  # k·q underflowed: as in log_mass_error, no bound (those masses are formed as 0, never kept)
    m = np.where(on, m, 1.0)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # (the branch not taken may overflow)
        return _deviance_error_maxes_on(xa, xb, m, on)


def _deviance_error_maxes_on(xa, xb, m, on):
    """:func:`_deviance_error_maxes` where m > 0 (``on``; elsewhere ∞)."""
    u = _U
    value = np.maximum(np.abs(bd0(xa, m)), np.abs(bd0(xb, m)))
    err = 24.0 * u * value + 1e-24 * xb
    log_m = np.abs(each_log(m))
    left, right = m * (9.0 / 11.0) * (1.0 + 1e-9), m * (11.0 / 9.0) * (1.0 - 1e-9)
    # a part of the window on the direct form, below the mode
    xl = np.minimum(xb, left)
    peak = np.minimum(np.maximum(m / math.e, xa), xl)
    far = xl * each_log(xl) + xl * log_m + peak * each_log(m / peak) + m + xl
    err = np.where(xa <= left, np.maximum(err, 6.0 * u * far), err)
    # above the mode
    far = xb * each_log(xb) + xb * log_m + xb * each_log(xb / m) + m + xb
    err = np.where(xb >= right, np.maximum(err, 6.0 * u * far), err)
    return np.where(on, err, math.inf), np.where(on, value, math.inf)


def window_log_mass_errors(lo, hi, k, q, p, log_q, log_p) -> np.ndarray:
    """:func:`window_log_mass_error` for many windows (1-d arrays, one law and window per entry), the same
    operations entry by entry (``math.log`` by :func:`each_log`), so that each entry gets the bits of its scalar call
    (tests/unit/test_binomial.py); the scalar form stays apart, as it is several times faster for one window."""
    u = _U
    lo, hi, k = (np.asarray(v, dtype=np.int64) for v in (lo, hi, k))
    q, p, log_q, log_p = (np.asarray(v, dtype=float) for v in (q, p, log_q, log_p))
    kf = k.astype(float)
    out = np.where(lo == 0, 8.0 * u * kf * np.abs(log_p), 0.0)
    out = np.where(hi == k, np.maximum(out, 8.0 * u * kf * np.abs(log_q)), out)
    a, b = np.maximum(lo, 1), np.minimum(hi, k - 1)
    on = a <= b
    a, b = np.where(on, a, 1), np.where(on, b, 1)
    af, bf, ka, kb = a.astype(float), b.astype(float), (k - a).astype(float), (k - b).astype(float)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # (entries without a window: masked below)
        return _window_errors(out, on, kf, af, bf, ka, kb, q, p, log_q, log_p)


def _window_errors(out, on, kf, af, bf, ka, kb, q, p, log_q, log_p):
    """:func:`window_log_mass_errors`' sum of the parts' maxima, for windows [a, b] (``on``; elsewhere ``out``)."""
    u = _U
    m1, m2 = kf * q, kf * p
    alpha = FLIP_ERROR
    param = (np.maximum(np.abs(af - m1), np.abs(bf - m1)) + alpha * m1) * 2.0 * alpha + kf * 2.0 * alpha * alpha
    n = np.stack([kf, af, kb])
    s = stirlerr(n)
    stirling = np.where(n <= 15, 128.0 * u, 691.0 / (360360.0 * n**11) + u / n)
    d1, v1 = _deviance_error_maxes(af, bf, m1)
    d2, v2 = _deviance_error_maxes(kb, ka, m2)
    log_k, log_b, log_ka = each_log(kf), each_log(bf), each_log(ka)
    logs = np.abs(log_k) + 2.0 + log_b + log_ka
    half = 0.5 * (np.abs(log_k) + _LOG_2PI + log_b + log_ka)
    moduli = ((np.abs(s[0]) + np.abs(s[1])) + np.abs(s[2])) + v1 + v2 + half
    terms = ((stirling[0] + stirling[1]) + stirling[2]) + d1 + d2 + 3.0 * u * logs
    return np.where(on, np.maximum(out, (param + terms + 5.0 * u * (moduli + terms)) * (1.0 + 1e-6)), out)
