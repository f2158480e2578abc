"""The masses of k randomized responses (PrivacyLoss.randomized_response) and the bound on their error.

The masses are Loader's saddle-point form of the binomial law (_binomial.log_binom_pmf); _binomial derives a
bound on its error term by term (_binomial.log_mass_error) and carries it into the tails that pdp_delta and
pdp_epsilon read.  Here the bound is checked against 50-digit mpmath (log C(k, j) + j log p + (k − j) log q from
loggamma, written apart from the package) at k up to 10⁹, at the mode, across the window and at its very ends; the
two measured inputs of the derivation (expit within 4u, the Stirling error for n ≤ 15 within 128u) are checked
exhaustively or on a dense grid; and pdp_delta / pdp_epsilon are checked in the safe direction against exact tails
summed in mpmath, at k = 10⁶ and 10⁹.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from dpsemantics import _binomial, _rounding
from dpsemantics.privacy_loss import PrivacyLoss

U = 2.0**-53


def exact_log_mass(e0: float, k: int, j: int) -> mp.mpf:
    """log P[B = j], B ~ Binomial(k, e^ε₀/(1 + e^ε₀)) (the answers kept), at the working precision."""
    E = mp.exp(mp.mpf(e0))
    keep, flip = E / (1 + E), 1 / (1 + E)
    return mp.loggamma(k + 1) - mp.loggamma(j + 1) - mp.loggamma(k - j + 1) + j * mp.log(keep) + (k - j) * mp.log(flip)


def exact_upper_tail(e0: float, k: int, j: int) -> mp.mpf:
    """P[B > j], summed from j + 1 up with the ratio b(i + 1)/b(i) = (k − i)/(i + 1)·e^ε₀ until the terms stop
    counting."""
    with mp.workdps(30):
        E = mp.exp(mp.mpf(e0))
        i = j + 1
        term = mp.exp(exact_log_mass(e0, k, i))
        total = term
        while i < k and term > total * mp.mpf("1e-22"):
            term *= mp.mpf(k - i) / (i + 1) * E
            i += 1
            total += term
        return total


def window(e0: float, k: int) -> np.ndarray:
    """The ends, the mode and 41 points across the window of masses randomized_response keeps."""
    keep = math.exp(e0) / (1 + math.exp(e0))
    mode = min(int((k + 1) * keep), k)
    width = int(40.0 * math.sqrt(k * keep * (1.0 - keep))) + 50
    lo, hi = max(0, mode - width), min(k, mode + width)
    return np.unique(np.concatenate([np.arange(lo, min(lo + 5, hi + 1)), np.arange(max(lo, hi - 4), hi + 1),
                                     np.linspace(lo, hi, 41).astype(int), [mode]]))


CASES = [(0.3, 2), (0.1, 10), (1e-3, 200), (50.0, 3), (2.0, 1000), (20.0, 10**4), (0.3, 10**5), (2.0, 10**6),
         (0.01, 10**9), (5.0, 10**9), (1e-6, 10**9)]


@pytest.mark.parametrize("e0, k", CASES)
def test_log_masses_within_the_derived_bound(e0, k):
    q, p, log_q, log_p = _binomial.flip_probabilities(e0)
    j = window(e0, k)
    got = _binomial.log_binom_pmf(j, k, log_p, log_q, p, q)
    bound = _binomial.log_mass_error(j, k, p, q, log_p, log_q)
    ratios = []
    with mp.workdps(50):
        for jj, g, b in zip(j, got, bound):
            err = abs(mp.mpf(float(g)) - exact_log_mass(e0, k, int(jj)))
            assert err <= b, (e0, k, int(jj), float(err / U), float(b / U))
            ratios.append(float(err / b))
    # measured 0.02–0.21 of the bound over these cases: the bound is not vacuous
    assert max(ratios) > 0.01, max(ratios)


def test_the_bound_is_far_below_the_old_allowance_at_large_k():
    # the allowance for scipy's binom.logpmf was 64·k ulps on the tails; the derived one grows like √k
    for e0, k in [(0.3, 10**5), (2.0, 10**6)]:  # (k = 10⁹: in the test below)
        assert PrivacyLoss.randomized_response(e0, k)._tail_error < 64 * k * U / 10


def test_flip_probabilities_within_the_allowance():
    rng = np.random.default_rng(5)
    worst = 0.0
    with mp.workdps(50):
        for e0 in np.concatenate([np.logspace(-9, math.log10(700), 300), rng.random(100) * 5]):
            q, p, _, _ = _binomial.flip_probabilities(float(e0))
            E = mp.exp(mp.mpf(float(e0)))
            worst = max(worst, float(abs(q * (1 + E) - 1)), float(abs(p * (1 + E) / E - 1)))
    assert worst <= _binomial.FLIP_ERROR - U  # fl(k·q) adds one rounding on top
    assert worst > 0.5 * U  # the grid meets expit's rounding


def test_stirling_error_small_n_exhaustively_and_large_n_by_the_series_remainder():
    with mp.workdps(50):
        for n in range(1, 60):
            exact = mp.loggamma(n + 1) - (n + mp.mpf(1) / 2) * mp.log(n) + n - mp.log(2 * mp.pi) / 2
            err = abs(mp.mpf(float(_binomial.stirlerr(np.array([float(n)]))[0])) - exact)
            bound = 128 * U if n <= 15 else 691 / (360360 * mp.mpf(n) ** 11) + U / n
            assert err <= bound, (n, float(err / U))


@pytest.mark.parametrize("e0, k, sigmas", [(0.01, 10**6, [6.0, 20.0, 35.0]), (2.0, 10**6, [6.0, 30.0]),
                                           (0.01, 10**9, [35.0])])
def test_pdp_delta_and_epsilon_on_the_safe_side_at_large_k(e0, k, sigmas):
    loss = PrivacyLoss.randomized_response(e0, k)
    assert loss._tail_error < 64 * k * U / 10  # far below 64·k ulps, a blanket allowance for scipy's masses
    keep = math.exp(e0) / (1 + math.exp(e0))
    sd = math.sqrt(k * keep * (1 - keep))
    for d in sigmas:
        j = int(k * keep + d * sd)
        tail = exact_upper_tail(e0, k, j)  # P[B > j] = P[Z > t] for t between the atoms j and j + 1
        assert tail > mp.mpf("1e-290")
        between = e0 * (2 * j - k) + e0  # midway to the next atom
        assert mp.mpf(float(loss.pdp_delta(between))) >= tail, (e0, k, d)
        # at the atom j itself (computed ε₀·(2j − k) may round below the exact atom, which then counts in the tail)
        at_atom = e0 * (2 * j - k)
        tail_at = tail if mp.mpf(at_atom) >= mp.mpf(e0) * (2 * j - k) else tail + mp.exp(exact_log_mass(e0, k, j))
        assert mp.mpf(float(loss.pdp_delta(at_atom))) >= tail_at, (e0, k, d)
        # δ′ just below and just above the tail beyond atom j: the ε′ returned leaves an exact tail ≤ δ′
        for dp in (float(tail) * (1 - 1e-12), float(tail) * (1 + 1e-12)):
            e = loss.pdp_epsilon(dp)
            with mp.workdps(50):
                last = int(mp.floor((mp.mpf(e) / mp.mpf(e0) + k) / 2))  # the last exact atom ≤ ε′
            assert last >= j, (e0, k, d, dp, e)  # P[Z > ε′] = P[B > last] ≤ P[B > j] ≈ δ′ …
            if last == j:
                assert tail <= dp, (e0, k, d, dp, e)  # … and when it is j, the exact tail is at most δ′


def test_mul_away_is_the_product_rounded_away_from_zero():
    rng = np.random.default_rng(11)
    # the last four underflow to 0 when rounded to nearest, though the exact product is not 0
    a = np.concatenate([rng.random(3000) * 10, [0.3, 0.1, 1e-3, 5e-324, 1e300, -0.7, 1e-200, -1e-300, 5e-324, 0.3]])
    b = np.concatenate([rng.integers(-10**9, 10**9, 3000).astype(float), [3.0, -3.0, 7.0, 3.0, 1e10, 3.0, 1e-200,
                                                                         1e-30, 0.3, -1e-323]])
    got = _rounding.mul_away(a, b)
    for x, u, v in zip(got, a, b):
        if not math.isfinite(x):
            assert abs(Fraction(float(u)) * Fraction(float(v))) > Fraction(float(np.finfo(float).max))
            continue
        exact = Fraction(float(u)) * Fraction(float(v))
        assert abs(Fraction(float(x))) >= abs(exact), (u, v, x)  # never toward 0
        if Fraction(float(x)) != exact:  # and one ulp at most (outside Dekker's range it steps even when exact)
            assert abs(Fraction(float(np.nextafter(x, 0.0)))) <= abs(exact), (u, v, x)


@pytest.mark.parametrize("e0, k", [(0.3, 101), (0.7, 240)])
def test_pdp_delta_at_every_float_atom_is_not_below_the_exact_tail(e0, k):
    """At t equal to the float of an atom ε₀·(2j − k), the atom is still counted in P[|Z| > t] when its exact
    value is above t: an atom rounded to nearest, below its exact value, would drop out of the tail there."""
    loss = PrivacyLoss.randomized_response(e0, k)
    with mp.workdps(40):
        E = mp.exp(mp.mpf(e0))
        keep = E / (1 + E)
        masses = [mp.binomial(k, j) * keep**j * (1 - keep) ** (k - j) for j in range(k + 1)]
        exact_atoms = [Fraction(e0) * (2 * j - k) for j in range(k + 1)]
        for j in range((k + 1) // 2, k + 1):
            t = e0 * (2 * j - k)  # the float a caller would pass
            tail = mp.fsum(m for m, z in zip(masses, exact_atoms) if abs(z) > Fraction(t))
            if tail > mp.mpf("1e-290"):
                assert mp.mpf(float(loss.pdp_delta(t))) >= tail, (j, t)


@pytest.mark.parametrize("e0, d", [(0.3, 7), (1.1, 13), (0.7, 31), (1e-3, 5)])
def test_geometric_pdp_delta_at_every_float_atom_is_not_below_the_exact_tail(e0, d):
    """The same for the two-sided geometric mechanism's atoms ε₀(Δ − 2j)/Δ (12 of them rounded toward 0 in the first
    three cases); its masses from the law: P[noise ≤ 0] = 1/(1 + a), P[noise ≥ Δ] = a^Δ/(1 + a), and
    P[noise = j] = (1 − a)a^j/(1 + a), a = e^{−ε₀/Δ} (Ghosh, Roughgarden & Sundararajan 2012)."""
    loss = PrivacyLoss.geometric(e0, d)
    with mp.workdps(40):
        a = mp.exp(-mp.mpf(e0) / d)
        atoms = [(Fraction(e0), 1 / (1 + a)), (-Fraction(e0), a**d / (1 + a))]
        atoms += [(Fraction(e0) * (d - 2 * j) / d, (1 - a) * a**j / (1 + a)) for j in range(1, d)]
        for z, _ in atoms:
            t = float(z)  # the float a caller would pass
            if t < 0:
                continue
            tail = mp.fsum(m for v, m in atoms if abs(v) > Fraction(t))
            if tail > 0:
                assert mp.mpf(float(loss.pdp_delta(t))) >= tail, (e0, d, t)


def test_many_laws_at_once_have_the_bits_of_one_at_a_time():
    """log_binom_pmf with one law per entry and window_log_mass_errors (many windows) give every entry the float of
    the one-law call (composition builds many profiles together with them and promises the bits of one profile each),
    over ε₀ from the smallest subnormal to 1e300, k from 1001 to 10⁹, windows at the mode, the ends and the tails."""
    rows, pmf_args = [], []
    for e0 in (5e-324, 1e-300, 1e-9, 1e-4, 0.01, 0.3, 1.0, 5.0, 30.0, 700.0, 1e300):
        q, p, log_q, log_p = _binomial.flip_probabilities(e0)
        for k in (1001, 20_000, 20_001, 123_457, 10**6, 10**9):
            mode = _binomial.binomial_mode(e0, k)
            for lo, hi in ((0, mode), (max(mode - 100, 0), min(mode + 100, k)), (0, k), (mode, k), (1, 1),
                           (max(mode - 5000, 0), max(mode - 10, 0))):
                if lo <= hi:
                    rows.append((lo, hi, k, q, p, log_q, log_p))
            ell = np.unique(np.clip(np.concatenate([np.arange(0, 8), mode + np.arange(-20, 20), [k - 1, k]]), 0, k))
            pmf_args.append((ell.astype(float), k, log_q, log_p, q, p))
    many = _binomial.window_log_mass_errors(*(np.array(c) for c in zip(*rows)))
    one = np.array([_binomial.window_log_mass_error(*r) for r in rows])
    assert np.array_equal(many, one)
    ell = np.concatenate([a[0] for a in pmf_args])
    law = [np.concatenate([np.full(a[0].size, float(a[i])) for a in pmf_args]) for i in range(1, 6)]
    with np.errstate(over="ignore"):  # (k·log q overflows to −∞ at ε₀ = 1e300, in both forms)
        many = _binomial.log_binom_pmf(ell, *law)
        one = np.concatenate([_binomial.log_binom_pmf(*a) for a in pmf_args])
    assert np.array_equal(many, one)
