"""Golden-section search in mpmath, for the tests' own references (it imports nothing from the package)."""

from __future__ import annotations

import mpmath as mp


def golden_section(f, lo, hi, *, steps: int = 10**4, rel_tol=0):
    """Minimise a unimodal ``f`` on [lo, hi]: the bracket shrinks by 1/φ a step, one interior value reused, for
    ``steps`` steps or until hi − lo ≤ ``rel_tol``·max(1, |lo|).  Returns ``(lo, hi, value)``: the final bracket and
    the smaller of the two interior values of f (a value f takes, so an upper bound on its minimum)."""
    g = (mp.sqrt(5) - 1) / 2
    c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if hi - lo <= rel_tol * max(1, abs(lo)):
            break
        if fc < fd:
            hi, d, fd = d, c, fc
            c = hi - g * (hi - lo)
            fc = f(c)
        else:
            lo, c, fc = c, d, fd
            d = lo + g * (hi - lo)
            fd = f(d)
    return lo, hi, min(fc, fd)
