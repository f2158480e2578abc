"""Lecture 1, Definition 2.1: checks of the hockey-stick formula against the definition itself."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpsemantics import indistinguishability as ind
from dpsemantics.claims import indistinguishability_evidence as evidence


def brute_force_delta(p, q, eps):
    """Definition 2.1 directly: the worst event, both directions, by enumerating all subsets."""
    worst = 0.0
    for mask in itertools.product((False, True), repeat=len(p)):
        m = np.array(mask)
        worst = max(worst, p[m].sum() - np.exp(eps) * q[m].sum(), q[m].sum() - np.exp(eps) * p[m].sum())
    return worst


distributions = st.integers(2, 6).flatmap(
    lambda m: st.tuples(
        st.lists(st.floats(0.0, 1.0), min_size=m, max_size=m).filter(lambda v: sum(v) > 1e-3),
        st.lists(st.floats(0.0, 1.0), min_size=m, max_size=m).filter(lambda v: sum(v) > 1e-3),
    )
).map(lambda pq: (np.array(pq[0]) / sum(pq[0]), np.array(pq[1]) / sum(pq[1])))


@settings(max_examples=150, deadline=None)
@given(distributions, st.floats(0.0, 3.0))
def test_smallest_delta_equals_worst_event(pq, eps):
    p, q = pq
    expected = brute_force_delta(p, q, eps)
    assert ind.smallest_delta(p, q, eps) == pytest.approx(expected, abs=1e-12)
    assert ind.smallest_delta_over_events(p, q, eps) == pytest.approx(expected, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(distributions, st.floats(0.0, 3.0), st.floats(0.0, 3.0))
def test_hockey_stick_in_range_and_decreasing(pq, e1, e2):
    p, q = pq
    lo, hi = sorted((e1, e2))
    d_lo, d_hi = ind.smallest_delta(p, q, lo), ind.smallest_delta(p, q, hi)
    assert 0.0 <= d_hi <= d_lo + 1e-15 <= 1.0 + 1e-12


@settings(max_examples=100, deadline=None)
@given(distributions)
def test_tv_is_hockey_stick_at_zero(pq):
    """Lecture 1, Exercise 7.1: (0, δ)-indistinguishability is total variation ≤ δ."""
    p, q = pq
    assert ind.hockey_stick(p, q, 0.0) == pytest.approx(0.5 * np.abs(p - q).sum(), abs=1e-12)
    assert ind.total_variation(p, q) == pytest.approx(0.5 * np.abs(p - q).sum(), abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(distributions, st.floats(1e-4, 0.5))
def test_smallest_epsilon_inverts_smallest_delta(pq, delta):
    p, q = pq
    e = ind.smallest_epsilon(p, q, delta)
    if np.isinf(e):
        assert brute_force_delta(p, q, 700.0) > delta
    else:
        assert ind.smallest_delta(p, q, e) <= delta + 1e-9
        if e > 1e-9:
            assert ind.smallest_delta(p, q, max(e - 1e-6, 0)) > delta - 1e-9


def test_smallest_epsilon_at_zero_delta_is_max_divergence():
    p, q = np.array([1 / 3, 1 / 3, 1 / 3]), np.array([0.4, 0.4, 0.2])
    assert ind.smallest_epsilon(p, q, 0.0) == pytest.approx(np.log(5 / 3))
    assert ind.smallest_epsilon([1.0, 0.0], [0.5, 0.5], 0.0) == np.inf


def test_max_divergence_randomized_response():
    e = 0.7
    keep = np.exp(e) / (1 + np.exp(e))
    assert ind.max_divergence([keep, 1 - keep], [1 - keep, keep]) == pytest.approx(e)
    assert ind.max_divergence([1.0, 0.0], [0.5, 0.5]) == np.inf


def test_transitivity_bound_is_attained_and_never_exceeded():
    """Lecture 1, Exercise 7.2: (2ε, (1+e^ε)δ), attained by the three-point witness."""
    for eps, delta in [(0.1, 1e-3), (0.5, 1e-2), (1.0, 1e-2), (2.0, 1e-3)]:
        p, q, r = ind.transitivity_witness(eps, delta)
        assert brute_force_delta(p, q, eps) <= delta + 1e-15
        assert brute_force_delta(q, r, eps) <= delta + 1e-15
        assert brute_force_delta(p, r, 2 * eps) == pytest.approx((1 + np.exp(eps)) * delta, rel=1e-12)
    rng = np.random.default_rng(1)
    for _ in range(300):
        p, q, r = rng.dirichlet(np.ones(4), size=3)
        eps = rng.uniform(0, 2)
        delta = max(brute_force_delta(p, q, eps), brute_force_delta(q, r, eps))
        assert brute_force_delta(p, r, 2 * eps) <= (1 + np.exp(eps)) * delta + 1e-12


def test_three_point_witness_shows_both_parameters_are_needed():
    """Lecture 1, Exercise 7.2: at 2ε the witness needs exactly (1+e^ε)δ; at any ε′ < 2ε it needs
    (1+e^ε)δ + (e^{2ε} − e^{ε′})t, strictly more — so neither 2ε nor (1+e^ε)δ can be lowered."""
    for eps, delta, t in [(0.1, 1e-3, 1e-3), (1.0, 1e-2, 0.05), (2.0, 1e-3, 1e-3)]:
        p, q, r = ind.transitivity_witness(eps, delta, t)
        assert p.size == 3
        bound = (1 + np.exp(eps)) * delta
        assert brute_force_delta(p, r, 2 * eps) == pytest.approx(bound, rel=1e-12)
        for e2 in (0.0, eps, 1.5 * eps, 2 * eps - 1e-3):
            assert brute_force_delta(p, r, e2) == pytest.approx(bound + (np.exp(2 * eps) - np.exp(e2)) * t, rel=1e-9)
            assert brute_force_delta(p, r, e2) > bound
    with pytest.raises(ValueError, match="delta"):
        ind.transitivity_witness(1.0, 0.3)


def test_transitivity_lp_attains_the_answer_and_no_more():
    for eps, delta in [(0.1, 1e-3), (1.0, 1e-2), (2.0, 1e-3)]:
        bound = (1 + np.exp(eps)) * delta
        for m in (2, 3, 4):
            best, (p, q, r) = evidence.transitivity_worst_delta(eps, delta, outcomes=m, return_chain=True)
            assert best == pytest.approx(bound, rel=1e-6)
            used = max(brute_force_delta(p, q, eps), brute_force_delta(q, r, eps))
            assert brute_force_delta(p, r, 2 * eps) <= (1 + np.exp(eps)) * used * (1 + 1e-9)
        # below 2ε the worst chain needs more than (1 + e^ε)δ: the bound is not an artefact of the answer's ε′
        assert evidence.transitivity_worst_delta(eps, delta, eps_prime=1.9 * eps) > bound


def test_transitivity_answer_is_tight_exactly_up_to_the_delta_limit():
    """Exercise 7.2: (1 + e^ε)δ is needed at 2ε for δ up to 1/(e^ε + 2) and no further.  The worst chain comes from
    the linear program over all chains on four outcomes; the limit is compared with it on both sides."""
    for eps in (0.1, 0.5, 1.0, 2.0):
        limit = ind.transitivity_delta_limit(eps)
        for delta, tight in ((0.98 * limit, True), (1.02 * limit, False)):
            worst = evidence.transitivity_worst_delta(eps, delta, outcomes=4)
            bound = (1 + np.exp(eps)) * delta
            assert (worst >= bound * (1 - 1e-7)) if tight else (worst < bound * (1 - 1e-4)), (eps, delta, worst)
    assert ind.transitivity_delta_limit(1.0) == pytest.approx(0.21194, abs=5e-6)
    assert ind.transitivity_delta_limit(800.0) == 0.0


def test_group_parameters_pure_case_and_chain_sum():
    assert ind.group_parameters(0.5, 0.0, 4) == (2.0, 0.0)
    e, d = ind.group_parameters(1.0, 1e-6, 3)
    assert e == 3.0
    assert d == pytest.approx(1e-6 * (1 + np.e + np.e**2))
    assert d <= 3 * np.exp(2.0) * 1e-6  # Dwork & Roth's g e^{(g-1)ε} δ


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: ind.hockey_stick([0.5, 0.5], [0.5, 0.5], -1.0), "eps"),
        (lambda: ind.hockey_stick([0.5, 0.5], [0.5, 0.5], float("nan")), "eps"),
        (lambda: ind.hockey_stick([0.6, 0.6], [0.5, 0.5], 1.0), "p"),
        (lambda: ind.hockey_stick([0.5, 0.5], [-0.5, 1.5], 1.0), "q"),
        (lambda: ind.smallest_delta([0.5, 0.5], [1.0], 1.0), "p and q"),
        (lambda: ind.is_indistinguishable([0.5, 0.5], [0.5, 0.5], 1.0, 1.5), "delta"),
        (lambda: ind.smallest_epsilon([0.5, 0.5], [0.5, 0.5], -0.1), "delta"),
        (lambda: ind.transitivity_parameters(1.0, 2.0), "delta"),
        (lambda: ind.group_parameters(1.0, 0.1, 0), "group_size"),
        (lambda: ind.smallest_delta_over_events(np.ones(17) / 17, np.ones(17) / 17, 0.1), "p"),
    ],
)
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize("eps, delta, g", [(0.5, 1e-6, 2), (0.1, 1e-9, 50), (1e-300, 1e-5, 7), (2.0, 1e-300, 300),
                                           (0.01, 0.3, 1), (30.0, 1e-200, 12), (5e-324, 1e-6, 10**12)])
def test_group_parameters_is_the_chained_sum_rounded_up(eps, delta, g):
    """δ_g = δ Σ_{j<g} e^{jε} (Dwork & Roth Thm 2.2, chained), against the sum in mpmath (closed form for the
    huge g): never below it, within 1e-12 of it, and capped at 1."""
    import mpmath as mp

    from dpsemantics.indistinguishability import group_parameters

    with mp.workdps(50):
        e, d = mp.mpf(eps), mp.mpf(delta)
        exact = d * g if e == 0 else d * mp.expm1(g * e) / mp.expm1(e)
        exact = min(exact, mp.mpf(1))
    ge, dg = group_parameters(eps, delta, g)
    assert Fraction(ge) >= g * Fraction(eps) and ge <= math.nextafter(g * eps, math.inf)  # gε rounded up
    assert dg >= exact and dg <= exact * (1 + 1e-12)


def test_group_parameters_and_transitivity_refuse_what_they_cannot_compute():
    from dpsemantics.claims.indistinguishability_evidence import transitivity_worst_delta
    from dpsemantics.indistinguishability import group_parameters

    with pytest.raises(ValueError, match="group_size"):
        group_parameters(0.5, 1e-6, 1e300)
    with pytest.raises(ValueError, match="eps_prime"):
        transitivity_worst_delta(1.0, 1e-6, eps_prime=1e300)
    with pytest.raises(ValueError, match="eps"):
        transitivity_worst_delta(40.0, 1e-6)
    three = Fraction(3) * Fraction(1e300)  # 3ε exactly: the smallest float not below it
    want = 3e300 if Fraction(3e300) >= three else math.nextafter(3e300, math.inf)
    assert group_parameters(1e300, 1e-6, 3) == (want, 1.0)


def _reference_rho(p, q, dps=30):
    """sup over α > 1 and both orders of log(Σ p^α q^(1−α))/(α(α − 1)) (Bun & Steinke 2016, Definition 1.1), in
    mpmath at 30 digits without the package: the limit α → 1 (the KL divergence), a grid in log(α − 1) and a
    golden-section refinement around its best point."""
    import mpmath as mp

    mp.mp.dps = dps
    best = mp.mpf(0)
    for a, b in ((p, q), (q, p)):
        a, b = [mp.mpf(x) for x in a], [mp.mpf(x) for x in b]

        def h(log_t):
            t = mp.e ** log_t
            return mp.log(mp.fsum(x ** (1 + t) * y ** (-t) for x, y in zip(a, b))) / ((1 + t) * t)

        best = max(best, mp.fsum(x * mp.log(x / y) for x, y in zip(a, b)))  # α → 1
        grid = [mp.mpf(-14) + k * mp.mpf(22) / 800 for k in range(801)]
        k = max(range(len(grid)), key=lambda i: h(grid[i]))
        lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
        for _ in range(90):  # golden section on [lo, hi]
            m1, m2 = hi - (hi - lo) / mp.phi, lo + (hi - lo) / mp.phi
            lo, hi = (m1, hi) if h(m1) < h(m2) else (lo, m2)
        best = max(best, h((lo + hi) / 2))
    return best


def _grid_rho(p, q, alphas):
    """A grid estimate: max of D_α/α over a grid of α (both orders), a lower estimate of the supremum."""
    p, q = np.asarray(p, float), np.asarray(q, float)
    return max(float(np.max([np.logaddexp.reduce(al * np.log(a) + (1 - al) * np.log(b)) / (al * (al - 1))
                             for al in alphas])) for a, b in ((p, q), (q, p)))


_A_GRID = 1 + np.logspace(-4, 2.5, 300)


@pytest.mark.parametrize("p, q", [
    ([1 / (1 + np.exp(-1.0)), 1 / (1 + np.exp(1.0))], [1 / (1 + np.exp(1.0)), 1 / (1 + np.exp(-1.0))]),
    ([0.82, 0.18], [1 - 1.11e-6, 1.11e-6]),
    ([0.5, 0.3, 0.2], [0.2, 0.2, 0.6]),
    ([0.999, 1e-3], [1 - 1e-40, 1e-40]),
], ids=["rr-eps1", "two-output-1e-6", "three-outputs", "rare-huge-loss"])
def test_zcdp_rho_brackets_the_supremum_that_a_grid_misses(p, q):
    """The zCDP ρ is a supremum over α.  A grid of α only ever sees values below it (randomized response's
    supremum is the limit α → 1, attained by no α at all), so a grid maximum is a lower estimate, unsafe for a
    guarantee.  The bracket's upper end is at or above the 30-digit supremum, the lower end at or below it, and
    they are within 10⁻⁹ relatively."""
    ref = float(_reference_rho(p, q))
    lower, upper = ind.zcdp_rho_bracket(p, q)
    assert lower <= ref * (1 + 1e-13) and upper >= ref, (lower, ref, upper)
    assert upper - lower <= 1e-9 * ref
    assert ind.zcdp_rho(p, q) == upper
    assert _grid_rho(p, q, _A_GRID) < ref  # a grid: under the supremum, the unsafe direction


def test_zcdp_rho_grid_misses_randomized_responses_limit_at_alpha_one():
    """ε-randomized response: sup_α D_α/α is KL = ε tanh(ε/2) (the limit α → 1), below Bun & Steinke's ε²/2."""
    for e in (0.1, 1.0, 3.0):
        keep = 1 / (1 + np.exp(-e))
        p, q = [keep, 1 - keep], [1 - keep, keep]
        kl = e * np.tanh(e / 2)
        lower, upper = ind.zcdp_rho_bracket(p, q)
        assert lower <= kl <= upper <= e ** 2 / 2
        assert _grid_rho(p, q, _A_GRID) < kl * (1 - 1e-7)


def test_zcdp_rho_edges_and_bad_input():
    # two distributions 10⁻⁹ apart: rounding of the losses exceeds ρ itself, and the upper end still covers it
    p, q = [0.5, 0.5], [0.5 + 1e-9, 0.5 - 1e-9]
    assert ind.zcdp_rho(p, q) >= float(_reference_rho(p, q)) > 0
    assert ind.zcdp_rho([1.0, 0.0], [0.5, 0.5]) == float("inf")
    assert ind.zcdp_rho_bracket([0.5, 0.5], [0.0, 1.0]) == (float("inf"), float("inf"))
    assert ind.zcdp_rho_bracket([0.3, 0.7], [0.3, 0.7]) == (0.0, 0.0)
    with pytest.raises(ValueError, match="rtol"):
        ind.zcdp_rho([0.3, 0.7], [0.5, 0.5], rtol=0.0)
    with pytest.raises(ValueError, match="q"):
        ind.zcdp_rho([0.3, 0.7], [0.5, 0.6])
    with pytest.raises(ValueError, match="same number of outputs"):
        ind.zcdp_rho([0.3, 0.7], [0.2, 0.3, 0.5])
