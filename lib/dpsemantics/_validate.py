"""Input validation shared by every module.

Every public function of :mod:`dpsemantics` checks its arguments with these helpers, so that bad input
raises a :class:`ValueError` whose message names the parameter and the value given (a ``ParameterError``, whose
``parameter`` attribute names it too), and never
propagates as NaN or a silently wrong answer.  All helpers accept scalars or array-likes and return a
float (for scalar input) or a float ``numpy.ndarray``.

One rule for every public function:

* **booleans** are refused wherever a number is expected (``True`` is not an ε, a δ nor a count);
* **strings, complex numbers and other objects** are refused; NaN is refused;
* **integers beyond the float range** (``10**400``) are read as ±∞, and then accepted or refused by the
  parameter's own range (an ε must be finite unless the function says otherwise);
* ``-0.0`` is read as ``0.0``;
* **arrays** are accepted where a function broadcasts (its docstring says so) and refused with
  ``"<name> must be a single number"`` where it takes scalars only (``scalar=True``);
* results are Python ``float`` for scalar input and float ``numpy.ndarray`` otherwise (:func:`as_output`).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .errors import ParameterError

__all__ = [
    "ParameterError",
    "as_float",
    "as_output",
    "broadcast",
    "check_epsilon",
    "check_delta",
    "check_probability",
    "check_positive_int",
    "check_positive",
    "check_distribution",
    "check_distribution_pair",
    "check_row_stochastic",
    "check_record_count",
    "check_single_value",
    "check_instance",
    "overflow_is_infinity",
    "refuse_where",
]

# Databases in {0,1}^n are enumerated: 2^20 of them (a million rows) is the most a finite mechanism here holds.
RECORDS_MAX = 20


def _show(value) -> str:
    arr = np.asarray(value)
    if arr.ndim == 0:
        return repr(value.item() if hasattr(value, "item") else value)
    return np.array2string(arr, threshold=8, precision=6)


def _huge_int_to_float(v):
    """A Python int too large for a float becomes ±inf (the rule above); anything else unchanged."""
    if isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)):
        try:
            return float(v)
        except OverflowError:
            return float("inf") if v > 0 else float("-inf")
    return v


def as_float(value, name: str, *, scalar: bool = False):
    """Convert ``value`` to float (scalar) or float array under the module's rule; reject booleans,
    strings, complex numbers, NaN, and (with ``scalar=True``) arrays."""
    if isinstance(value, (str, bytes)):
        raise ParameterError(name, f"must be a real number (got {name}={value!r})")
    try:
        raw = np.asarray(value)
    except Exception:  # pragma: no cover - ragged input
        raise ParameterError(name, f"must be a real number or an array of them (got {name}={value!r})") from None
    if raw.dtype == bool or isinstance(value, (bool, np.bool_)):
        raise ParameterError(name, f"must be a real number, not a boolean (got {name}={value!r})")
    if raw.dtype.kind in "cSUV" or (raw.dtype.kind == "O" and any(isinstance(v, (bool, np.bool_, str, bytes, complex))
                                                                  for v in raw.ravel())):
        raise ParameterError(name, f"must be a real number (got "
                                   f"{name}={_show(value) if raw.dtype.kind != 'O' else value!r})")
    if scalar and raw.ndim != 0:
        raise ParameterError(name, f"must be a single number (got an array of shape {raw.shape})")
    try:
        if raw.dtype.kind == "O":
            arr = np.asarray([_huge_int_to_float(v) for v in raw.ravel()], dtype=float).reshape(raw.shape)
        else:
            arr = np.asarray(_huge_int_to_float(value) if raw.ndim == 0 else raw, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise ParameterError(name, f"must be a real number (got {name}={value!r})") from None
    if np.any(np.isnan(arr)):
        raise ParameterError(name, f"must not be NaN (got {name}={_show(value)})")
    arr = arr + 0.0  # -0.0 → 0.0
    return float(arr) if arr.ndim == 0 else arr


def broadcast(**named):
    """``np.broadcast_arrays`` of the named arguments, or a ValueError naming them and their shapes."""
    try:
        return np.broadcast_arrays(*[np.asarray(v) for v in named.values()])
    except ValueError:
        shapes = ", ".join(f"{n}: {np.shape(v)}" for n, v in named.items())
        raise ParameterError(next(iter(named)), f"must broadcast to one shape (got shapes {shapes})",
                             subject=", ".join(named)) from None


def as_output(x):
    """The one return type: a Python float for a 0-d result, a float ``numpy.ndarray`` otherwise."""
    x = np.asarray(x, dtype=float) + 0.0  # -0.0 → 0.0
    return float(x) if x.ndim == 0 else x


def _bad(arr, mask, name, requirement):
    arr = np.asarray(arr)
    bad = arr[mask] if arr.ndim else arr
    shown = _show(bad.flat[0] if np.ndim(bad) else bad)
    raise ParameterError(name, f"must be {requirement} (got {name}={shown})")


def refuse_where(bad, requirement: str, **named):
    """Raise ``ValueError(f"{requirement} (got a=…, b=…)")`` if ``bad`` holds anywhere, showing the named values at
    the first entry where it does (and that entry's index for an array), never whole arrays: a message a caller can
    read when one entry in a million is wrong.  The named values broadcast against ``bad``."""
    bad = np.asarray(bad, dtype=bool)
    if not np.any(bad):
        return
    idx = np.unravel_index(int(np.argmax(bad)), bad.shape) if bad.ndim else ()
    shown = ", ".join(f"{n}={_show(np.broadcast_to(np.asarray(v), bad.shape)[idx])}" for n, v in named.items())
    where = f" at index {tuple(int(i) for i in idx)}" if bad.size > 1 else ""
    first = next(iter(named))
    subject, reason = ((first, requirement[len(first) + 1:]) if requirement.startswith(first + " ")
                       else ("", requirement))
    raise ParameterError(first, f"{reason} (got {shown}{where})", subject=subject)


def check_epsilon(eps, name: str = "eps", *, allow_inf: bool = False, strictly_positive: bool = False,
                  scalar: bool = False):
    """A privacy parameter ε: a real number ≥ 0 (> 0 with ``strictly_positive``), finite unless allowed."""
    arr = as_float(eps, name, scalar=scalar)
    a = np.asarray(arr)
    if strictly_positive and np.any(a <= 0):
        _bad(a, a <= 0, name, "> 0")
    if np.any(a < 0):
        _bad(a, a < 0, name, ">= 0")
    if not allow_inf and np.any(np.isinf(a)):
        _bad(a, np.isinf(a), name, "finite")
    return arr


def check_positive(x, name: str, *, allow_inf: bool = False, scalar: bool = False):
    """A real number > 0 (ρ of zCDP, σ of a Gaussian, a sensitivity, ...)."""
    return check_epsilon(x, name, allow_inf=allow_inf, strictly_positive=True, scalar=scalar)


def check_probability(p, name: str, *, open_low: bool = False, open_high: bool = False, scalar: bool = False):
    """A probability in [0, 1]; ``open_low``/``open_high`` exclude 0 or 1 (e.g. a prior in a ratio)."""
    arr = as_float(p, name, scalar=scalar)
    a = np.asarray(arr)
    low_bad = a <= 0 if open_low else a < 0
    high_bad = a >= 1 if open_high else a > 1
    if np.any(low_bad | high_bad):
        lo = "(0" if open_low else "[0"
        hi = "1)" if open_high else "1]"
        _bad(a, low_bad | high_bad, name, f"in {lo}, {hi}")
    return arr


def check_delta(delta, name: str = "delta", *, open_low: bool = False, open_high: bool = False, scalar: bool = False):
    """A failure probability δ in [0, 1]."""
    return check_probability(delta, name, open_low=open_low, open_high=open_high, scalar=scalar)


def check_positive_int(k, name: str = "k", *, minimum: int = 1, maximum: int | None = None) -> int:
    """A whole number ≥ ``minimum`` (number of compositions, database size, ...), at most ``maximum``
    where a function cannot compute beyond it (the message says so).  0-d arrays are read as scalars;
    booleans, non-integral and infinite values are refused."""
    if isinstance(k, np.ndarray) and k.ndim == 0:
        k = k.item()
    if isinstance(k, (bool, np.bool_)):
        raise ParameterError(name, f"must be a whole number >= {minimum}, not a boolean (got {name}={k!r})")
    if isinstance(k, np.ndarray):
        raise ParameterError(name, f"must be a single whole number (got an array of shape {k.shape})")
    if not isinstance(k, numbers.Integral):
        if isinstance(k, numbers.Real) and math.isfinite(float(k)) and float(k).is_integer():
            k = int(k)
        else:
            raise ParameterError(name, f"must be a whole number >= {minimum} (got {name}={k!r})")
    shown = repr(k) if abs(k) < 10**30 else f"an integer of {len(str(abs(k)))} digits"  # one short line
    if k < minimum:
        raise ParameterError(name, f"must be a whole number >= {minimum} (got {name}={shown})")
    if maximum is not None and k > maximum:
        raise ParameterError(name, f"must be at most {maximum} here (got {name}={shown})")
    return int(k)


def check_distribution(p, name: str = "p", *, atol: float = 1e-9) -> np.ndarray:
    """A finite probability distribution: a 1-D array of non-negative numbers summing to one."""
    arr = np.asarray(as_float(p, name), dtype=float)
    if arr.ndim != 1 or arr.size == 0:
        raise ParameterError(name, f"must be a non-empty 1-D array of probabilities (got shape {arr.shape})")
    if np.any(arr < 0) or np.any(np.isinf(arr)):
        raise ParameterError(name, f"must have entries in [0, 1] (got {name}={_show(arr)})")
    total = arr.sum()
    if abs(total - 1.0) > atol:
        raise ParameterError(name, f"must sum to 1 (got sum {total!r} for {name}={_show(arr)})")
    return arr


def check_distribution_pair(p, q, names: tuple[str, str] = ("p", "q"), *, atol: float = 1e-9):
    """Two distributions over the same outputs (the pair of a neighbouring pair of databases), each checked by
    :func:`check_distribution` under the caller's ``names``."""
    first, second = names
    p = check_distribution(p, first, atol=atol)
    q = check_distribution(q, second, atol=atol)
    if p.shape != q.shape:
        raise ParameterError(second, f"must have the same number of outputs (got {p.size} and {q.size})",
                             subject=f"{first} and {second}")
    return p, q


def check_row_stochastic(matrix, name: str = "matrix", *, atol: float = 1e-9) -> np.ndarray:
    """A 2-D array whose rows are probability distributions (a finite mechanism or channel)."""
    arr = np.asarray(as_float(matrix, name), dtype=float)
    if arr.ndim != 2 or arr.size == 0:
        raise ParameterError(name, f"must be a non-empty 2-D array (got shape {arr.shape})")
    if np.any(arr < 0) or np.any(np.isinf(arr)):
        raise ParameterError(name, f"must have entries in [0, 1] (got {name}={_show(arr)})")
    sums = arr.sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1.0) > atol)
    if bad.size:
        raise ParameterError(name, f"must sum to 1 (got sum {sums[bad[0]]!r})", subject=f"row {bad[0]} of {name}")
    return arr


def check_record_count(n, name: str = "n", *, minimum: int = 1, maximum: int = RECORDS_MAX) -> int:
    """The number of records n of a database in D^n that a function enumerates (2^n databases or more):
    a whole number in [minimum, maximum], so that a huge n is a ValueError, not a hang or a MemoryError."""
    return check_positive_int(k=n, name=name, minimum=minimum, maximum=maximum)


def overflow_is_infinity(func):
    """Run ``func`` with floating-point overflow read as ±inf (the module rule: a value beyond the float
    range is ±inf) and return the package's one output type; invalid operations (NaN) still raise."""
    import functools

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with np.errstate(over="ignore"):
            out = func(*args, **kwargs)
        if isinstance(out, tuple):
            return tuple(as_output(v) if isinstance(v, (float, np.floating, np.ndarray)) else v for v in out)
        return as_output(out) if isinstance(out, (float, np.floating, np.ndarray)) else out

    return wrapper


def check_instance(value, cls: type, name: str):
    """``value`` if it is a ``cls`` (a mechanism, a model, a privacy loss), else a ValueError naming ``name``."""
    if not isinstance(value, cls):
        raise ParameterError(name, f"must be a {cls.__name__} (got a {type(value).__name__}: {name}={value!r:.60})")
    return value


def check_single_value(value, name: str):
    """One record value, output or label (a number, a string, a tuple: anything hashable), never an array or a
    list, which would compare elementwise with the mechanism's values.  Returns it unchanged."""
    try:
        hash(value)
    except TypeError:
        raise ParameterError(name, f"must be a single value (a number, string or tuple), not a {type(value).__name__} "
                         f"(got {name}={value!r})") from None
    return value
