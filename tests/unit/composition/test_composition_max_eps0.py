"""max_eps0 ends on the safe side without a loop of ulp steps (issue 23, Build: "an outward nextafter as the last
step, never a search loop of ulp steps").

The ε₀ returned must compose to at most ε_total under the method.  The direction is checked against references that
import nothing from the package: the Kairouz–Oh–Viswanath sum in mpmath (``ref_log_delta`` of
test_composition_allowance.py, written apart from the code) for ``"optimal"`` — the k-fold composition of the
returned ε₀ has δ(ε_total) ≤ δ —, the paper's formula of Kazan et al. Theorem 2.8(2) in mpmath for ``"advanced"``,
and exact rational arithmetic for ``"basic"`` (k·ε₀ ≤ ε_total as real numbers, not only in floats).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from test_composition_allowance import ref_log_delta

from dpsemantics import composition as C

# (ε_total, k, δ, δ₀): small and large k (both optimal paths: rows for k ≤ 1000, profiles above), tiny and large
# budgets, δ₀ > 0
CASES = [
    (0.81, 12, 1e-6, 1e-8),
    (1.0, 1000, 1e-6, 0.0),
    (1.0, 1001, 1e-8, 1e-12),
    (1.0, 3000, 1e-6, 0.0),
    (20.0, 7, 1e-3, 1e-5),
    (1e-6, 50, 1e-6, 0.0),
    (5e-324, 10, 1e-6, 0.0),  # budgets far below the answer: with δ > 0 the composed ε is 0 up to ε₀ ≈ 8e-7
    (1e-300, 1, 1e-6, 0.0),
]


def test_a_tiny_budget_takes_few_evaluations(monkeypatch):
    """ε_total = 5e-324 with δ = 1e-6: the answer is about 8e-7, 10³ doublings above the budget, and the expansion
    that doubled took about 1 000 evaluations of the composed ε (161 s at k = 10⁹); squaring the factor, then halving
    the bracket in log ε₀, takes about 60 (Brent's and the safe-side steps included)."""
    calls = []
    optimal = C.COMPOSITION_METHODS["optimal"]
    monkeypatch.setitem(C.COMPOSITION_METHODS, "optimal", lambda *a: calls.append(a) or optimal(*a))
    e0 = C.max_eps0(5e-324, 10, 1e-6)
    assert 7e-7 < e0 < 9e-7 and len(calls) <= 100, (e0, len(calls))


@pytest.mark.parametrize("eps_total,k,delta,delta0", CASES)
def test_optimal_max_eps0_is_safe_against_the_kov_sum(eps_total, k, delta, delta0):
    """δ(ε_total) of the k-fold composition of the returned ε₀ (mpmath, KOV Theorem 3.3) is at most δ, and the
    next ε₀ up by a relative 1e-6 exceeds it (so the answer is not far on the safe side)."""
    e0 = C.max_eps0(eps_total, k, delta, delta0, method="optimal")
    with mp.workdps(50):
        assert ref_log_delta(eps_total, e0, k, delta0) <= mp.log(mp.mpf(delta))
        assert ref_log_delta(eps_total, e0 * (1 + 1e-6), k, delta0) > mp.log(mp.mpf(delta))


def _ref_advanced(eps0: float, k: int, slack: float):
    """Kazan et al. Theorem 2.8(2): k ε₀(e^{ε₀} − 1) + ε₀ √(2k log(1/slack)), at 50 digits."""
    with mp.workdps(50):
        e = mp.mpf(eps0)
        return k * e * mp.expm1(e) + e * mp.sqrt(2 * k * mp.log(1 / mp.mpf(slack)))


@pytest.mark.parametrize("eps_total,k,delta,delta0", CASES)
def test_advanced_max_eps0_is_safe_against_the_formula(eps_total, k, delta, delta0):
    e0 = C.max_eps0(eps_total, k, delta, delta0, method="advanced")
    slack = delta - k * delta0
    with mp.workdps(50):
        assert _ref_advanced(e0, k, slack) <= eps_total
        # not far on the safe side: a relative 1e-9 more, or (for a subnormal answer) the next float, is too much
        assert _ref_advanced(max(e0 * (1 + 1e-9), math.nextafter(e0, 1.0)), k, slack) > eps_total


@pytest.mark.parametrize("eps_total,k", [(1.0, 10**4), (0.81, 12), (1.0, 3), (1.0, 10**9), (5e-324, 1),
                                          (1e-310, 7), (1.7e308, 3), (0.3, 999_999_999)] +
                         [(math.ldexp(1.0 + i / 97.0, -i % 40), k) for i in range(40) for k in (3, 10, 49, 10**6)])
def test_basic_max_eps0_is_exactly_safe_and_tight(eps_total, k):
    """k·ε₀ ≤ ε_total in exact arithmetic (before, 1/10⁴ rounded up gave exactly 10⁴·ε₀ > 1 although the float
    product rounded to 1.0), and the float above ε₀ would not be."""
    e0 = C.max_eps0(eps_total, k, 1e-6, method="basic")
    assert k * Fraction(e0) <= Fraction(eps_total)
    assert k * Fraction(float(np.nextafter(e0, math.inf))) > Fraction(eps_total)


def test_safe_root_brackets_below_brent_in_few_evaluations():
    """``_safe_root`` with a g that turns positive at a known float: it returns the largest float with g ≤ 0 when
    Brent's root lies 1, 5 or 10⁶ ulps above it, in a number of evaluations logarithmic in that distance (the
    removed loop took one evaluation per ulp)."""
    edge = 0.123456789
    for above in (1, 5, 10**6):
        calls = []

        def g(e0):
            calls.append(e0)
            return -1.0 if e0 <= edge else 1.0
        root = float((np.array([edge]).view(np.int64) + above).view(np.float64)[0])
        assert C._safe_root(g, root) == edge
        assert len(calls) <= 2 * math.log2(above) + 4
    assert C._safe_root(lambda e0: -1.0, 0.5) == 0.5  # Brent's root already safe: returned as it is
