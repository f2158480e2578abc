"""Directed rounding: the last step of every function whose result decides a guarantee.

A bound computed in floating point is off by a few units in the last place (ulps) either way.  When the
result is an ε, δ, σ or ρ that a guarantee rests on, the package rounds it *outward* — up where a larger
value is safe (an ε or δ that is claimed to hold), down where a smaller one is (the largest ε a budget
allows) — by a stated number of ulps that covers the evaluation error of the formula.  One step, no
search loop: the error bound is part of the formula's analysis, written beside each call.

``up(x, ulps)`` and ``down(x, ulps)`` broadcast; 0, ±inf and NaN are returned unchanged (a result that
is exactly 0 or infinite is exact, and NaN is refused before it gets here).  ``exp_no_underflow(log_x, rel)``
exponentiates a log-space bound without rounding it down below the normal range (where ``np.exp`` keeps only
absolute accuracy and returns 0 below 2.5e-324); ``exp_up(log_x, rel)`` is e^{log_x}·(1 + rel) rounded up at every
magnitude, in the normal range as well as below it (the last step of a δ computed in logs); ``mul_away(a, b)`` is a
product rounded away from 0, ``product_error(a, b)`` the exact error of a rounded product (on which side of the exact
product the float fell); ``rational_up(q)`` is the smallest float not below a rational; ``log_up(q)`` a float not
below the natural logarithm of a positive rational (the last step of an ε measured as the log of an exact ratio).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["up", "down", "exp_no_underflow", "exp_up", "product_error", "mul_away", "rational_up", "log_up",
           "SMALLEST_SUBNORMAL", "UNIT_ROUNDOFF"]

UNIT_ROUNDOFF = float(np.finfo(float).eps) / 2  # u = 2⁻⁵³: a correctly rounded operation errs by at most u relative
_TINY = float(np.finfo(float).tiny)  # the smallest normal float, 2.2e-308
SMALLEST_SUBNORMAL = 5e-324  # the float just above 0: the safe value of a positive bound that would underflow
_SHIFT = 64 * math.log(2.0)  # within 64·ln2·u < 5e-15 of 64 ln 2 (math.log is within ½ ulp)


def _move(x, ulps: float, sign: float):
    x = np.asarray(x, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        # the ulp on the side we move to (at a power of two the one below is half the one above); past the
        # largest float, up goes to +inf, which is the outward answer
        away = sign * x > 0
        ulp = np.where(away, np.spacing(np.abs(x)), np.spacing(np.nextafter(np.abs(x), 0.0)))
        moved = x + sign * ulps * ulp
    keep = (x == 0) | ~np.isfinite(x)
    out = np.where(keep, x, moved)
    return float(out) if out.ndim == 0 else out


def up(x, ulps: float = 4.0):
    """x plus ``ulps`` units in its last place (toward +∞); exact 0 and ±inf unchanged."""
    return _move(x, ulps, 1.0)


def down(x, ulps: float = 4.0):
    """x minus ``ulps`` units in its last place (toward −∞); exact 0 and ±inf unchanged."""
    return _move(x, ulps, -1.0)


def exp_no_underflow(log_x, rel: float = 0.0):
    """exp(log_x) for a log-space bound ``log_x``: ``np.exp(log_x)`` where that is a normal float (relative error
    below a few ulps, which the caller's own relative allowance covers), and below the normal range a float
    **never below** exp(log_x)·(1 + rel) — the smallest subnormal 5e-324, not 0, when that is below it.
    ``rel`` is the caller's relative allowance (its error bound on e^{log_x}, a number or an array that broadcasts
    against ``log_x``), which a multiplication after the fact could not apply to a subnormal.  Broadcasts; −inf
    gives 0, NaN stays NaN.  :func:`exp_up` adds the outward step in the normal range too.

    Below 2.2e-308 ``np.exp`` rounds to the subnormal grid (absolute accuracy only: 6 subnormal ulps low at
    2e-317).  So it is exponentiated in the normal range instead, y = fl(log_x + fl(64 ln 2)), and scaled back by
    2⁻⁶⁴: |y − (log_x + 64 ln 2)| ≤ ½ulp(y) + 5e-15 ≤ 6.2e-14 for |y| < 1024, so e^y is within 6.2e-14 + (the few
    ulps of exp) ≤ 1e-13 relative of e^{log_x}·2⁶⁴; the factor (1 + rel)(1 + 2⁻⁴⁰) (2⁻⁴⁰ = 9.1e-13) covers that
    and its own rounding, ``ldexp`` then rounds once to the subnormal grid (at most one subnormal ulp down) and
    one ``nextafter`` toward +inf restores it.  The result is at most (1 + rel)(1 + 1e-12)·e^{log_x} + 1e-323."""
    log_x = np.asarray(log_x, dtype=float)
    with np.errstate(under="ignore", over="ignore"):
        out = np.exp(log_x)
        low = (out < _TINY) & (log_x > -np.inf)
        if np.any(low):
            out = np.where(low, _exp_below_normal(np.where(low, log_x, 0.0), rel), out)
    return float(out) if out.ndim == 0 else out


def _exp_below_normal(log_x: np.ndarray, rel) -> np.ndarray:
    """:func:`exp_no_underflow`'s value for entries whose e^{log_x} is below the normal range (its docstring)."""
    with np.errstate(under="ignore", over="ignore"):
        scaled = np.ldexp(np.exp(log_x + _SHIFT) * ((1.0 + np.asarray(rel, dtype=float)) * (1.0 + 2.0**-40)), -64)
    return np.nextafter(scaled, np.inf)


#: np.exp's relative error in the normal range: within 4 ulps (1 in glibc; NumPy's SIMD kernels allow up to 4), and
#: one ulp of a normal float x is at most 2u·x
_EXP_REL_ERROR = 8.0 * UNIT_ROUNDOFF


def exp_up(log_x, rel=0.0):
    """A float **never below** e^{log_x}·(1 + rel), for every entry: the exponential of a log-space upper bound with
    the caller's relative allowance ``rel`` ≥ 0 (its error bound on e^{log_x}; a number or an array that broadcasts
    against ``log_x``), rounded up at every magnitude.  Vectorised (no loop over entries); −inf gives exactly 0,
    +inf (and any value beyond the largest float) +inf, NaN stays NaN.

    In the normal range (E = fl(e^{log_x}) ≥ 2.2e-308): E ≥ e^{log_x}(1 − 8u) (``np.exp`` within 4 ulps, u = 2⁻⁵³),
    the factor F = fl(fl(1 + rel)·(1 + 10u)) stepped one ulp up, and the result fl(E·F) stepped one ulp up.  Each
    rounding to nearest loses at most u relative and each ``nextafter`` toward +∞ gains at least u (one ulp of a
    normal float x is more than u·x), so the result is at least
    e^{log_x}(1 + rel)·(1 − 8u)(1 − u)³(1 + u)²(1 + 10u) ≥ e^{log_x}(1 + rel)(1 + u − 100u²) > e^{log_x}(1 + rel),
    and at most about (1 + rel)(1 + 22u) above it (a few ulps, 2.4e-15 relative).
    Below it: :func:`exp_no_underflow` with the same ``rel`` (exponentiated at e^{log_x + 64 ln 2}, where it is
    normal, with a further 2⁻⁴⁰ relative, scaled back by 2⁻⁶⁴ and stepped one subnormal up), so a positive bound too
    small for a float is 5e-324, not 0.
    ``conversions.zcdp_delta``, ``mechanisms.gaussian_delta`` and ``composition.optimal_delta`` end with it."""
    log_x = np.asarray(log_x, dtype=float)
    rel = np.asarray(rel, dtype=float)
    with np.errstate(under="ignore", over="ignore", invalid="ignore"):
        e = np.exp(log_x)
        factor = np.nextafter((1.0 + rel) * (1.0 + 10.0 * UNIT_ROUNDOFF), np.inf)
        out = np.nextafter(e * factor, np.inf)
        low = e < _TINY
        if np.any(low):
            below = _exp_below_normal(np.where(low, log_x, 0.0), np.where(low, rel, 0.0))
            out = np.where(low, np.where(log_x == -np.inf, 0.0, below), out)
    return float(out) if out.ndim == 0 else out


_SPLIT = 134217729.0  # 2²⁷ + 1: Veltkamp's splitting constant for doubles


def product_error(a, b):
    """``(p, err, known)`` for float arrays (or numbers) a, b: p = fl(a·b), rounded to nearest, and err = a·b − p
    *exactly* where ``known`` — by Dekker's TwoProduct (Veltkamp's split into 26-bit halves; exact without overflow or
    underflow of the partial products, Dekker 1971, Theorem 4.7 — used below |a·b| = 2⁹⁹⁵ and above 2⁻⁹⁶⁹, where
    neither happens); elsewhere (and for ±inf) err is not known.  The sign of err tells on which side of the exact
    product the float fell (0: it is exact).  Broadcasts."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    with np.errstate(over="ignore", invalid="ignore"):
        p = a * b
        ah, bh = _SPLIT * a - (_SPLIT * a - a), _SPLIT * b - (_SPLIT * b - b)
        al, bl = a - ah, b - bh
        err = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # a·b − p, exactly, in the safe range
        known = np.isfinite(err) & (np.abs(p) < 2.0**995) & (np.abs(p) > 2.0**-969)
    return p, err, known


def mul_away(a, b):
    """fl(a·b) rounded away from 0 instead of to nearest: |result| ≥ |a·b| exactly, and equal to a·b when that is a
    float.  The rounding error of the product is found exactly by :func:`product_error` (Dekker's TwoProduct), and the
    product stepped one ulp outward where it was rounded toward 0.  Outside TwoProduct's exact range (a product that
    is finite and not 0 but beyond 2⁹⁹⁵ or below 2⁻⁹⁶⁹, including one that underflowed to 0) the product is formed
    in rationals and rounded away from 0 (:func:`rational_up` of its modulus); ±inf stays.  Broadcasts."""
    p, err, known = product_error(a, b)
    a, b = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    with np.errstate(over="ignore", invalid="ignore"):
        toward_zero = known & (err * np.sign(p) > 0) & (p != 0)
        out = np.where(toward_zero, np.nextafter(p, np.copysign(np.inf, p)), p)
    out = np.array(out, dtype=float)
    for i in np.argwhere(~known & np.isfinite(p) & (a != 0) & (b != 0)):
        i = tuple(i)
        exact = Fraction(float(a[i])) * Fraction(float(b[i]))
        out[i] = math.copysign(rational_up(abs(exact)), exact)
    return float(out) if out.ndim == 0 else out


def rational_up(exact: Fraction) -> float:
    """The smallest float not below the rational ``exact`` (+inf beyond the float range): ``float`` rounds to
    nearest, and where that fell below, one ``nextafter`` toward +inf.  Equal to ``exact`` when it is a float."""
    try:
        out = float(exact)
    except OverflowError:
        return math.inf
    return math.nextafter(out, math.inf) if math.isfinite(out) and Fraction(out) < exact else out


_LOG_PREC = 128  # bits of the interval logarithm in log_up: its width is far below one ulp of the result
_NEAR_ONE = Fraction(1, 2**60)  # |q − 1| below this: ln q ≤ q − 1 is within (q − 1)²/2 < 2⁻⁶¹|q − 1| of ln q


def log_up(q) -> float:
    """A float **never below** ln q, for a positive rational ``q`` (a ``Fraction``, an int or a float, each taken
    exactly): 0.0 exactly when q = 1, positive whenever q > 1, and +inf for q = +inf.

    For |q − 1| < 2⁻⁶⁰ it is ``rational_up(q − 1)``: ln(1 + t) ≤ t for every t > −1 (equality only at t = 0), and
    t − ln(1 + t) ≤ t²/2 < 2⁻⁶¹|t| for t ≥ 0, so the result is the smallest float not below t, at most one ulp above
    the smallest float not below ln q (for t < 0 it is also safe, by the same inequality).  Otherwise q's numerator and
    denominator enter mpmath's interval arithmetic exactly (``from_int``), their quotient and its logarithm are
    enclosed at 128 bits with directed rounding (``mpi_div``, ``mpi_log``), and the enclosure's upper end, a dyadic
    rational, is rounded up by :func:`rational_up`.  The enclosure is narrower than 2⁻¹²⁰·max(|ln q|, 1) ≤ 2⁻⁵⁹|ln q|
    (|ln q| > 2⁻⁶¹ here), so the result is the smallest float not below ln q or the float just above it: one ulp at
    most, with no floating-point error analysis to trust (about 35 µs a call)."""
    if isinstance(q, float) and math.isinf(q) and q > 0:
        return math.inf
    q = Fraction(q)
    if q <= 0:
        raise ValueError(f"q must be a positive rational (got q={q!r})")
    t = q - 1
    if abs(t) < _NEAR_ONE:
        return rational_up(t) + 0.0  # + 0.0: −0.0 (a t just below 0) as 0.0
    from mpmath import libmp

    num, den = libmp.from_int(q.numerator), libmp.from_int(q.denominator)
    _, upper = libmp.mpi_log(libmp.mpi_div((num, num), (den, den), _LOG_PREC), _LOG_PREC)
    sign, man, exp, _ = upper
    end = Fraction(-man if sign else man) * (Fraction(2) ** exp)
    return rational_up(end)
