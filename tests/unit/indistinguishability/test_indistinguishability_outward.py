"""Definition 2.1's numbers of a finite pair are rounded outward (issue 40): never below the exact value of the
float inputs, and never 0 where that is positive.

``hockey_stick``, ``smallest_delta``, ``total_variation``, ``event_violation`` and ``smallest_delta_over_events``
are δ's (the δ a pair or an event needs): up.  ``max_divergence`` and ``smallest_epsilon`` are the ε of a pair: up.
The references are written here, apart from the package: mpmath at 80 digits on the exact values of the floats
(sums of float masses, e^ε of the float ε), or ``fractions.Fraction``; compared without tolerance.  Each random
search also evaluates the plain round-to-nearest formula (the code before issue 40) and asserts that it falls
below the exact value on some of its inputs, so the search cannot pass by missing them."""

import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from scipy.optimize import brentq

from _support.exact import at_least, mpf
from dpsemantics import indistinguishability as ind
from dpsemantics.mechanisms import geometric_count, name_and_shame, randomized_response

TINY = 5e-324
RNG_SEED = 40


@pytest.fixture(autouse=True)
def _digits():
    with mp.workdps(80):
        yield


# ------------------------------------------------------------------------------------------------ references


def ref_hockey(p, q, eps):
    e = mp.exp(mpf(eps)) if math.isfinite(eps) else None
    total = mp.mpf(0)
    for a, b in zip(p, q):
        if a > 0 and (b == 0 or e is not None and mpf(a) > e * mpf(b)):
            total += mpf(a) - (0 if b == 0 else e * mpf(b))
    return min(total, mp.mpf(1))


def ref_delta(p, q, eps):
    return max(ref_hockey(p, q, eps), ref_hockey(q, p, eps))


def ref_tv(p, q):
    return min(sum((abs(Fraction(float(a)) - Fraction(float(b))) for a, b in zip(p, q)), Fraction(0)) / 2,
               Fraction(1))


def ref_max_divergence(p, q):
    if any((a > 0) != (b > 0) for a, b in zip(p, q)):
        return mp.inf
    return max(abs(mp.log(mpf(a)) - mp.log(mpf(b))) for a, b in zip(p, q) if a > 0)


def ref_violation(p, q, eps, mask):
    return mp.fsum(mpf(a) for a, m in zip(p, mask) if m) - mp.exp(mpf(eps)) * mp.fsum(
        mpf(b) for b, m in zip(q, mask) if m)


def ref_over_events(p, q, eps):
    best = mp.mpf(0)
    for mask in itertools.product((False, True), repeat=len(p)):
        best = max(best, ref_violation(p, q, eps, mask), ref_violation(q, p, eps, mask))
    return min(best, mp.mpf(1))


# ------------------------------------------------------------------------------------------------ the old code


def nearest_hockey(p, q, eps):
    """The definition to nearest, as hockey_stick computed it before issue 40."""
    both = (p > 0) & (q > 0)
    log_ratio = np.log(np.where(both, q, 1.0)) - np.log(np.where(both, p, 1.0))
    exponent = np.where(both, np.minimum(eps + log_ratio, 0.0), -np.inf)
    return float(np.where(p > 0, -p * np.expm1(exponent), 0.0).sum())


def nearest_delta(p, q, eps):
    return max(nearest_hockey(p, q, eps), nearest_hockey(q, p, eps))


def nearest_over_events(p, q, eps):
    m = p.size
    events = ((np.arange(2**m)[:, None] >> np.arange(m)) & 1).astype(bool)
    pe, qe = events @ p, events @ q
    return float(max(np.max(pe - math.exp(eps) * qe), np.max(qe - math.exp(eps) * pe), 0.0))


# ------------------------------------------------------------------------------------------------ the cases


def chapter_pairs():
    """The chapters' own mechanisms: randomized response, the geometric count and name-and-shame (Lecture 1)."""
    out = []
    for eps in (0.1, 0.5, 1.0, math.log(3), 2.0):
        m = randomized_response(eps)
        out.append((m.matrix[0], m.matrix[1], eps))
    for n, eps in ((1, 0.5), (2, 1.0), (3, 0.3), (4, 0.7)):
        g = geometric_count(n, eps)
        for i, j in ((0, 1), (1, 2), (0, 2)):
            if j < len(g.matrix):
                out.append((g.matrix[i], g.matrix[j], eps))
    m = name_and_shame(4, 0.05)
    out.append((m.matrix[0], m.matrix[1], 0.5))
    return out


def hostile_pairs(seed, count):
    """Random pairs on 2–6 outcomes, ε at the pair's own losses nudged by a few ulps (the ties), subnormal and
    zero masses among them."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        m = int(rng.integers(2, 7))
        p, q = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(m))
        r = rng.uniform()
        if r < 0.15:
            q[0], q[1] = 0.0, q[0] + q[1]
        elif r < 0.3:
            p[0], p[1] = 1e-320 * (1 + int(rng.integers(0, 9))), p[1] + p[0]
            q[0], q[1] = 1e-321 * (1 + int(rng.integers(0, 9))), q[1] + q[0]
        both = (p > 0) & (q > 0)
        losses = np.abs(np.log(p[both]) - np.log(q[both]))
        z = float(losses[int(rng.integers(0, losses.size))])
        eps = z
        for _ in range(int(rng.integers(-3, 4))):
            eps = math.nextafter(eps, math.inf if rng.uniform() < 0.5 else 0.0)
        yield p, q, max(eps, 0.0)


# ------------------------------------------------------------------------------------------------ the tests


def test_hockey_stick_and_smallest_delta_are_never_below_exact():
    nearest_low = 0
    cases = [*chapter_pairs(), *hostile_pairs(RNG_SEED, 500)]
    for p, q, eps in cases:
        for e in (eps, 0.0, eps / 2, eps * 1.5 + 0.1):
            want = ref_hockey(p, q, e)
            assert at_least(float(ind.hockey_stick(p, q, e)), want), (p, q, e)
            assert at_least(float(ind.smallest_delta(p, q, e)), ref_delta(p, q, e)), (p, q, e)
            nearest_low += mpf(nearest_hockey(p, q, e)) < want or (want > 0 and nearest_hockey(p, q, e) == 0)
    # ε = ∞: only the mass where q = 0 counts
    assert float(ind.hockey_stick([0.5, 0.5, 0.0], [0.4, 0.3, 0.3], math.inf)) == 0.0
    assert at_least(float(ind.hockey_stick([0.5, 0.5], [1.0, 0.0], math.inf)), Fraction(1, 2))
    assert nearest_low > 50, nearest_low


def test_hockey_stick_keeps_exact_zeros_and_broadcasts():
    p = np.array([0.25, 0.25, 0.5])
    assert float(ind.hockey_stick(p, p, 0.0)) == 0.0 and float(ind.smallest_delta(p, p, 3.0)) == 0.0
    eps = np.array([0.0, 0.1, 1.0, 5.0])
    q = np.array([0.5, 0.25, 0.25])
    got = ind.hockey_stick(p, q, eps)
    assert np.array_equal(got, [float(ind.hockey_stick(p, q, float(e))) for e in eps])
    for g, e in zip(got, eps):
        assert at_least(float(g), ref_hockey(p, q, float(e)))
        assert mpf(g) <= ref_hockey(p, q, float(e)) * (1 + mp.mpf(1e-13)) + mp.mpf(1e-300)  # invisible digits


def test_subnormal_and_huge_eps():
    # a positive divergence far below the normal range is not 0
    p, q = np.array([1e-320, 1 - 1e-320]), np.array([1e-321, 1 - 1e-321])
    for eps in (0.0, 1.0, math.log(10) * (1 - 1e-15), 2.0):
        assert at_least(float(ind.hockey_stick(p, q, eps)), ref_hockey(p, q, eps)), eps
    # q tiny and ε past exp's range: the divergence is still positive
    p, q = np.array([0.5, 0.5 - 1e-300, 1e-300]), np.array([0.5, 0.5, 0.0])
    for eps in (650.0, 709.0, 710.0, 800.0):
        assert at_least(float(ind.hockey_stick(p, q, eps)), ref_hockey(p, q, eps)), eps
        assert at_least(ind.smallest_delta_over_events(p, q, eps), ref_over_events(p, q, eps)), eps


def test_total_variation_is_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 1)
    nearest_low = 0
    for _ in range(3000):
        m = int(rng.integers(2, 9))
        p, q = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(m))
        want = ref_tv(p, q)
        assert at_least(ind.total_variation(p, q), want), (p, q)
        nearest_low += Fraction(float(0.5 * np.abs(p - q).sum())) < want
    assert nearest_low > 100, nearest_low
    p = np.array([0.5, 0.5])
    assert ind.total_variation(p, p) == 0.0 and ind.total_variation([1.0, 0.0], [0.0, 1.0]) == 1.0
    # a difference of one subnormal: ½·5e-324 is not representable, and is not returned as 0
    assert at_least(ind.total_variation([1.0, TINY], [1.0, 0.0]), Fraction(TINY) / 2)


def test_max_divergence_is_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 2)
    nearest_low = 0
    for _ in range(2000):
        m = int(rng.integers(2, 7))
        p = rng.dirichlet(np.ones(m))
        q = p * np.exp(rng.normal(0, 10.0 ** rng.uniform(-15, 0), m))
        q /= q.sum()
        want = ref_max_divergence(p, q)
        assert at_least(ind.max_divergence(p, q), want), (p, q)
        nearest_low += mpf(np.max(np.abs(np.log(p) - np.log(q)))) < want
    assert nearest_low > 100, nearest_low
    for p, q, _ in chapter_pairs():
        assert at_least(ind.max_divergence(p, q), ref_max_divergence(p, q))
    p = np.array([0.3, 0.7])
    assert ind.max_divergence(p, p) == 0.0 and ind.max_divergence([1.0, 0.0], [0.5, 0.5]) == math.inf
    assert at_least(ind.max_divergence([1e-320, 1 - 1e-320], [3e-320, 1 - 3e-320]), mp.log(3))


def test_smallest_epsilon_is_never_below_exact():
    """Valid at the exact δ (ref δ(ε) ≤ δ, which for a non-increasing δ(·) is ε ≥ ε*), and within 1e-9 of it;
    the old Brent root on the to-nearest δ was invalid on some of the same inputs."""
    nearest_invalid = 0
    checked = 0
    for k, (p, q, eps) in enumerate([*chapter_pairs(), *hostile_pairs(RNG_SEED + 3, 60)]):
        for target in (float(nearest_delta(p, q, eps)), 1e-3, 1e-9):
            if not 0 < target < 1:
                continue
            got = ind.smallest_epsilon(p, q, target)
            if math.isinf(got):
                assert ref_delta(p, q, 1e6) >= target, (p, q, target)  # reached only at ε = ∞
                continue
            checked += 1
            assert ref_delta(p, q, got) <= target, (p, q, target, got)
            if got > 0:
                assert ref_delta(p, q, max(got * (1 - 1e-9) - 1e-12, 0.0)) > target or got < 1e-9, (p, q, target)
            if nearest_delta(p, q, 0.0) > target and nearest_delta(p, q, 700.0) < target:
                old = brentq(lambda e: nearest_delta(p, q, e) - target, 0.0, 700.0, xtol=1e-14, rtol=1e-14)
                nearest_invalid += ref_delta(p, q, old) > target
    assert checked > 150 and nearest_invalid > 5, (checked, nearest_invalid)
    p, q = np.array([0.9, 0.1]), np.array([0.1, 0.9])
    assert ind.smallest_epsilon(p, q, 0.0) == ind.max_divergence(p, q)
    assert ind.smallest_epsilon(p, q, 0.9) == 0.0


def test_event_violation_is_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 4)
    nearest_low = 0
    for p, q, eps in hostile_pairs(RNG_SEED + 4, 600):
        mask = rng.uniform(size=p.size) < 0.5
        want = ref_violation(p, q, eps, mask)
        assert at_least(ind.event_violation(p, q, eps, mask), want), (p, q, eps, mask)
        nearest_low += mpf(p[mask].sum() - math.exp(eps) * q[mask].sum()) < want
    assert nearest_low > 30, nearest_low
    p, q = np.array([0.5, 0.5 - 1e-300, 1e-300]), np.array([0.5, 0.5, 0.0])
    for eps in (709.0, 710.0, 1e5):
        mask = np.array([False, True, True])
        assert at_least(ind.event_violation(q, p, eps, mask), ref_violation(q, p, eps, mask)), eps


def test_smallest_delta_over_events_is_never_below_exact():
    nearest_low = 0
    cases = [*chapter_pairs(), *hostile_pairs(RNG_SEED + 5, 250)]
    for p, q, eps in cases:
        if p.size > 8:
            continue
        for e in (eps, 0.0):
            want = ref_over_events(p, q, e)
            assert at_least(ind.smallest_delta_over_events(p, q, e), want), (p, q, e)
            nearest_low += mpf(nearest_over_events(p, q, e)) < want
    assert nearest_low > 30, nearest_low
    p = np.array([0.2, 0.3, 0.5])
    assert ind.smallest_delta_over_events(p, p, 0.0) == 0.0
