"""Directed rounding: the last step of every function whose result decides a guarantee.

A bound computed in floating point is off by a few units in the last place (ulps) either way.  When the
result is an ε, δ, σ or ρ that a guarantee rests on, the package rounds it *outward* — up where a larger
value is safe (an ε or δ that is claimed to hold), down where a smaller one is (the largest ε a budget
allows) — by a stated number of ulps that covers the evaluation error of the formula.  One step, no
search loop: the error bound is part of the formula's analysis, written beside each call.

``up(x, ulps)`` and ``down(x, ulps)`` broadcast; 0, ±inf and NaN are returned unchanged (a result that
is exactly 0 or infinite is exact, and NaN is refused before it gets here).
"""

from __future__ import annotations

import numpy as np

__all__ = ["up", "down"]


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
