"""leave_thresholds and leaves (Kazan et al., eqs. (3), (5), (8) with Theorem 3.1): the boundary of the leave event.

The claims of Theorems 3.2, 3.3, 3.5 read the leave event both ways (a forward check needs its probability from
above, a reverse check from below), and the linear programs put mass exactly on a threshold, so no one-sided
rounding of the thresholds serves them: ``leave_thresholds(..., side="inner")`` is an interval inside the exact
one, ``side="outer"`` one around it, and ``leaves`` decides a loss between the two exactly.  Checked here against
references computed apart from the package: the exact thresholds in mpmath (at 400 digits, enough for 1 − p of a
subnormal p to be exact), the leave event of an output with masses (P, Q) in exact rationals
(``fractions.Fraction``) against e^ε, tanh(ε/4) at 300 digits, with the gap asserted far above that precision —
no tolerance anywhere.  The seeded searches assert that they reach inputs where the thresholds rounded to nearest
fall on the wrong side of the exact ones, and LP pairs whose float loss and exact loss are on different sides.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from dpsemantics import disclosure as D
from dpsemantics.claims import disclosure_evidence as E


def exact_thresholds(p: float, eps: float, metric: str):
    """(lo*, hi*) in mpmath at 400 digits, from the paper's events solved for z without cancellation."""
    with mp.workdps(400):
        p, e = mp.mpf(p), mp.mpf(eps)
        q = 1 - p  # exact at 400 digits for every float p
        if metric == "posterior":
            return -e, e
        if metric == "ratio":  # e^{−ε} ≤ 1/(p + q e^{−z}) ≤ e^ε
            y = -mp.expm1(-e) / q
            return -mp.log1p(mp.expm1(e) / q), (-mp.log1p(-y) if y < 1 else mp.inf)
        b = mp.tanh(e / 4)  # |p/(p + q e^{−z}) − p| ≤ b
        hi = mp.log1p(b / p) - mp.log1p(-b / q) if b < q else mp.inf
        lo = mp.log1p(-b / p) - mp.log1p(b / q) if b < p else -mp.inf
        return lo, hi


def hostile_inputs(n: int, seed: int):
    """Priors near 0 (down to subnormal), near 1, near ½, uniform; ε tiny (to 1e-300), moderate, large (to 1e3)."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        kind = rng.integers(5)
        p = [rng.uniform(), 10 ** rng.uniform(-323, -1), 1 - 10 ** rng.uniform(-16, -1),
             0.5 + rng.uniform(-1e-9, 1e-9), float(rng.choice([0.5, 0.25, 0.75]))][kind]
        eps = float([10 ** rng.uniform(-300, -1), rng.uniform(0, 5), 10 ** rng.uniform(0, 3)][rng.integers(3)])
        if 0 < p < 1:
            yield float(p), eps


def test_inner_inside_exact_inside_outer_and_nearest_is_on_the_wrong_side():
    wrong_for_inner = wrong_for_outer = checked = 0
    for p, eps in hostile_inputs(1500, seed=40):
        for metric in D.METRICS:
            lo, hi = exact_thresholds(p, eps, metric)
            lo_in, hi_in = D.leave_thresholds(p, eps, metric, side="inner")
            lo_out, hi_out = D.leave_thresholds(p, eps, metric, side="outer")
            assert lo_out <= lo <= lo_in and hi_in <= hi <= hi_out, (p, eps, metric)
            assert lo_in <= hi_in
            lo_n, hi_n = D.leave_thresholds(p, eps, metric, side="nearest")
            wrong_for_inner += bool(lo_n < lo or hi_n > hi)  # a loss counted inside that leaves
            wrong_for_outer += bool(lo_n > lo or hi_n < hi)  # a loss counted as leaving that stays
            checked += 1
    assert checked > 4000
    assert wrong_for_inner > 300 and wrong_for_outer > 300  # to nearest is unsafe for both uses


@pytest.mark.parametrize("side", ["inner", "outer"])
def test_exact_cases(side):
    """The posterior's thresholds are ±ε on every side; ε = 0 gives 0; priors 0 and 1 never leave."""
    for eps in (5e-324, 1e-300, 0.5, 1e300):
        assert D.leave_thresholds(0.3, eps, "posterior", side=side) == (-eps, eps)
    for metric in D.METRICS:
        assert D.leave_thresholds(0.3, 0.0, metric, side=side) == (0.0, 0.0)
        for p in (0.0, 1.0):
            assert D.leave_thresholds(p, 1.0, metric, side=side) == (-math.inf, math.inf)


def test_side_is_checked():
    with pytest.raises(ValueError, match="side"):
        D.leave_thresholds(0.3, 1.0, "ratio", side="up")
    with pytest.raises(ValueError, match="present"):
        D.leaves(0.3, 1.0, "ratio")


# ------------------------------------------------------------------ the exact classifier


def reference_leaves(p: float, eps: float, metric: str, a: float, b: float) -> bool:
    """The output with P-mass a and Q-mass b leaves the bound at prior p: X = p·a/(p·a + (1 − p)·b) in exact
    rationals, compared with e^{±ε} or tanh(ε/4) at 300 digits; the gap must be far above that precision."""
    P, A, B = Fraction(p), Fraction(a), Fraction(b)
    if metric == "posterior":  # leaves ⇔ A > e^ε B or B > e^ε A
        with mp.workdps(300):
            e = mp.exp(mp.mpf(eps))
            gaps = [mp.mpf(A.numerator) / A.denominator - e * mp.mpf(B.numerator) / B.denominator,
                    mp.mpf(B.numerator) / B.denominator - e * mp.mpf(A.numerator) / A.denominator]
            scale = max(A, B)
            for g in gaps:
                assert abs(g) > mp.mpf(10) ** -250 * mp.mpf(scale.numerator) / scale.denominator
            return any(g > 0 for g in gaps)
    X = P * A / (P * A + (1 - P) * B)
    with mp.workdps(300):
        x, pm = mp.mpf(X.numerator) / X.denominator, mp.mpf(P.numerator) / P.denominator
        if metric == "ratio":
            r, e = x / pm, mp.exp(mp.mpf(eps))
            gaps = [r - e, 1 / e - r]
        else:
            t = mp.tanh(mp.mpf(eps) / 4)
            gaps = [x - pm - t, pm - x - t]
        for g in gaps:
            assert abs(g) > mp.mpf(10) ** -250
        return any(g > 0 for g in gaps)


def on_threshold_masses(eps: float, metric: str, p: float, n: int, rng):
    """Outputs as the linear programs build them: P-mass u, Q-mass u·e^{−z} in floats, with z the float threshold
    at prior p (the mass the program puts exactly on it)."""
    lo, hi = D.leave_thresholds(p, eps, metric)
    z = np.array([t for t in (lo, hi) if math.isfinite(t)])
    u = rng.uniform(0.01, 0.4, size=(n, z.size))
    return u.ravel(), (u * np.exp(-z)).ravel()


def test_leaves_on_masses_exactly_on_the_threshold():
    """Masses on the float threshold: the float loss log a − log b and the exact loss log(a/b) fall on either side;
    ``leaves`` agrees with the exact rationals on every one, and both answers occur."""
    rng = np.random.default_rng(7)
    outcomes, float_wrong = set(), 0
    for metric in D.METRICS:
        for eps in (0.5, 1.0, 2.0, 1e-8):
            for p in (0.5, 1 / (1 + math.exp(eps / 2)), 1 / (1 + math.exp(-eps / 2)), 1e-6, 0.9):
                a, b = on_threshold_masses(eps, metric, p, 40, rng)
                got = D.leaves(p, eps, metric, present=a, absent=b)[0]
                lo, hi = D.leave_thresholds(p, eps, metric)
                z = np.log(a) - np.log(b)
                for j in range(a.size):
                    want = reference_leaves(p, eps, metric, float(a[j]), float(b[j]))
                    assert bool(got[j]) == want, (metric, eps, p, a[j], b[j])
                    outcomes.add(want)
                    float_wrong += bool((z[j] < lo or z[j] > hi) != want)
    assert outcomes == {True, False}
    assert float_wrong > 100  # the float loss against the float threshold misjudges many of them


@pytest.mark.parametrize("metric", D.METRICS)
def test_leaves_on_the_claims_lp_pairs(metric):
    """The pairs of the forward linear programs (mass on the loss grid's ε and at the threshold's prior): ``leaves``
    against the exact rationals at every prior of the program's grid where it differs from the old test with a
    1e-12 slack (``leaves_mask``), and on a sample of the rest."""
    differ_slack = 0
    for eps in (0.5, 2.0):
        priors = np.concatenate([E.critical_priors(eps, metric, 24), D.worst_case_prior(eps)])
        for a, b in E._lp_pdp_metric(metric, eps)[:12]:
            keep = (a > 0) | (b > 0)
            a, b = a[keep], b[keep]
            got = D.leaves(priors, eps, metric, present=a, absent=b)
            lo, hi = D.leave_thresholds(priors, eps, metric)
            with np.errstate(divide="ignore"):
                old = E.leaves_mask(np.log(a) - np.log(b), lo, hi)
            for i, p in enumerate(priors):
                near = np.flatnonzero(old[i] != got[i])
                for j in near:
                    assert bool(got[i, j]) == reference_leaves(float(p), eps, metric, float(a[j]), float(b[j]))
                differ_slack += near.size
            # and a sample of the rest
            for i in range(0, priors.size, 5):
                for j in range(0, a.size, 7):
                    assert bool(got[i, j]) == reference_leaves(float(priors[i]), eps, metric, float(a[j]), float(b[j]))
    if metric == "difference":  # at Lemma 3.4's prior the threshold is ε, a point of the programs' loss grid
        assert differ_slack > 0  # the programs' pairs do put mass there, and the old test misjudged it


def test_leaves_on_float_losses_at_the_thresholds():
    """Float losses on and next to the inner and outer thresholds: ``leaves(z=...)`` against mpmath at 400 digits
    (a float z is its exact value); at ε = 0 only z = 0 stays."""
    rng = np.random.default_rng(11)
    for p, eps in hostile_inputs(120, seed=41):
        for metric in D.METRICS:
            lo, hi = exact_thresholds(p, eps, metric)
            ends = [v for side in ("inner", "outer") for v in D.leave_thresholds(p, eps, metric, side=side)
                    if math.isfinite(v)]
            z = np.unique([np.nextafter(v, d) for v in ends for d in (-np.inf, np.inf)] + ends
                          + [np.inf, -np.inf, float(rng.normal())])
            got = D.leaves(p, eps, metric, z=z)[0]
            for zj, g in zip(z, got):
                want = bool(mp.mpf(zj) < lo or mp.mpf(zj) > hi)
                assert bool(g) == want, (p, eps, metric, zj)
    assert D.leaves([0.3, 0.0], 0.0, "ratio", z=[0.0, 1e-300, -np.inf]).tolist() == [[False, True, True],
                                                                                       [False, False, False]]
