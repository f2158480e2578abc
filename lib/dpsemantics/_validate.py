"""Input validation shared by every module.

Every public function of :mod:`dpsemantics` checks its arguments with these helpers, so that bad input
raises a :class:`ValueError` whose message names the parameter and the value given, and never
propagates as NaN or a silently wrong answer.  All helpers accept scalars or array-likes and return a
float (for scalar input) or a float ``numpy.ndarray``.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "as_float",
    "check_epsilon",
    "check_delta",
    "check_probability",
    "check_positive_int",
    "check_positive",
    "check_distribution",
    "check_row_stochastic",
]


def _show(value) -> str:
    arr = np.asarray(value)
    if arr.ndim == 0:
        return repr(value.item() if hasattr(value, "item") else value)
    return np.array2string(arr, threshold=8, precision=6)


def as_float(value, name: str):
    """Convert ``value`` to float (scalar) or float array; reject non-numbers and NaN."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number (got {name}={value!r})") from None
    if np.any(np.isnan(arr)):
        raise ValueError(f"{name} must not be NaN (got {name}={_show(value)})")
    return float(arr) if arr.ndim == 0 else arr


def _bad(arr, mask, name, requirement):
    arr = np.asarray(arr)
    bad = arr[mask] if arr.ndim else arr
    shown = _show(bad.flat[0] if np.ndim(bad) else bad)
    raise ValueError(f"{name} must be {requirement} (got {name}={shown})")


def check_epsilon(eps, name: str = "eps", *, allow_inf: bool = False, strictly_positive: bool = False):
    """A privacy parameter ε: a real number ≥ 0 (> 0 with ``strictly_positive``), finite unless allowed."""
    arr = as_float(eps, name)
    a = np.asarray(arr)
    if strictly_positive and np.any(a <= 0):
        _bad(a, a <= 0, name, "> 0")
    if np.any(a < 0):
        _bad(a, a < 0, name, ">= 0")
    if not allow_inf and np.any(np.isinf(a)):
        _bad(a, np.isinf(a), name, "finite")
    return arr


def check_positive(x, name: str, *, allow_inf: bool = False):
    """A real number > 0 (ρ of zCDP, σ of a Gaussian, a sensitivity, ...)."""
    return check_epsilon(x, name, allow_inf=allow_inf, strictly_positive=True)


def check_probability(p, name: str, *, open_low: bool = False, open_high: bool = False):
    """A probability in [0, 1]; ``open_low``/``open_high`` exclude 0 or 1 (e.g. a prior in a ratio)."""
    arr = as_float(p, name)
    a = np.asarray(arr)
    low_bad = a <= 0 if open_low else a < 0
    high_bad = a >= 1 if open_high else a > 1
    if np.any(low_bad | high_bad):
        lo = "(0" if open_low else "[0"
        hi = "1)" if open_high else "1]"
        _bad(a, low_bad | high_bad, name, f"in {lo}, {hi}")
    return arr


def check_delta(delta, name: str = "delta", *, open_low: bool = False, open_high: bool = False):
    """A failure probability δ in [0, 1]."""
    return check_probability(delta, name, open_low=open_low, open_high=open_high)


def check_positive_int(k, name: str = "k", *, minimum: int = 1) -> int:
    """A whole number ≥ ``minimum`` (number of compositions, database size, ...)."""
    if isinstance(k, bool):
        raise ValueError(f"{name} must be a whole number >= {minimum} (got {name}={k!r})")
    if not isinstance(k, numbers.Integral):
        if isinstance(k, numbers.Real) and float(k).is_integer():
            k = int(k)
        else:
            raise ValueError(f"{name} must be a whole number >= {minimum} (got {name}={k!r})")
    if k < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum} (got {name}={k!r})")
    return int(k)


def check_distribution(p, name: str = "p", *, atol: float = 1e-9) -> np.ndarray:
    """A finite probability distribution: a 1-D array of non-negative numbers summing to one."""
    arr = np.asarray(as_float(p, name), dtype=float)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of probabilities (got shape {arr.shape})")
    if np.any(arr < 0) or np.any(np.isinf(arr)):
        raise ValueError(f"{name} must have entries in [0, 1] (got {name}={_show(arr)})")
    total = arr.sum()
    if abs(total - 1.0) > atol:
        raise ValueError(f"{name} must sum to 1 (got sum {total!r} for {name}={_show(arr)})")
    return arr


def check_row_stochastic(matrix, name: str = "matrix", *, atol: float = 1e-9) -> np.ndarray:
    """A 2-D array whose rows are probability distributions (a finite mechanism or channel)."""
    arr = np.asarray(as_float(matrix, name), dtype=float)
    if arr.ndim != 2 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array (got shape {arr.shape})")
    if np.any(arr < 0) or np.any(np.isinf(arr)):
        raise ValueError(f"{name} must have entries in [0, 1] (got {name}={_show(arr)})")
    sums = arr.sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1.0) > atol)
    if bad.size:
        raise ValueError(f"row {bad[0]} of {name} must sum to 1 (got sum {sums[bad[0]]!r})")
    return arr
