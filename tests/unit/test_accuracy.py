"""Accuracy of the numerical core against 50-digit mpmath references.

The references below are written independently of the package: the optimal-composition profile is
evaluated as  δ_RR(ε) = Pr[Bin(k, q) < m] − e^ε Pr[Bin(k, p) < m]  (q = 1/(1 + e^{ε₀}), p = 1 − q, m the
number of lattice points (k − 2ℓ)ε₀ above ε), with binomial probabilities summed by exact recurrences
in mpmath; the smallest ε is then solved in closed form on the piece where δ_RR is A − e^ε B.  The
package's value is used only as a first guess of which piece to look in; the reference is accepted only
once it lies inside its own piece.  Tolerance: relative error ≤ 1e-9 (the brief's requirement).
"""

from __future__ import annotations

import itertools

import mpmath as mp
import numpy as np
import pytest
from _support.golden import golden_section

from dpsemantics import composition, conversions



@pytest.fixture(autouse=True)
def _fifty_digits():
    """50-digit mpmath inside this module's tests only (a global setting would leak into other modules)."""
    with mp.workdps(50):
        yield

RTOL = 1e-9

EPS0 = [1e-4, 1e-2, 0.1, 1.0, 10.0]
KS = [1, 10, 100, 1000, 100_000]
DELTAS = [1e-3, 1e-10, 1e-300]


# ---------------------------------------------------------------------------------------------- mpmath


def _binom_cdf(last: int, k: int, prob) -> mp.mpf:
    """Pr[Bin(k, prob) <= last] at 50 digits, summing the unimodal pmf outward from its largest
    term inside {0..last} and stopping once terms fall below 1e-70 of that term (the dropped tail is at
    most k·1e-70 relative)."""
    if last < 0:
        return mp.mpf(0)
    if last >= k:
        return mp.mpf(1)
    prob = mp.mpf(prob)
    mode = int(mp.floor((k + 1) * prob))
    start = max(0, min(mode, last))
    log_start = mp.loggamma(k + 1) - mp.loggamma(start + 1) - mp.loggamma(k - start + 1)
    log_start += (k - start) * mp.log1p(-prob) + start * mp.log(prob)
    top = mp.exp(log_start)
    cut = top * mp.mpf(10) ** -70
    ratio_up = prob / (1 - prob)
    total = top
    t, j = top, start
    while j > 0:  # downward: pmf(j-1) = pmf(j) * j / (k - j + 1) / ratio_up
        t = t * j / (k - j + 1) / ratio_up
        j -= 1
        total += t
        if t < cut:
            break
    t, j = top, start
    while j < last:  # upward: pmf(j+1) = pmf(j) * (k - j) / (j + 1) * ratio_up
        t = t * (k - j) / (j + 1) * ratio_up
        j += 1
        total += t
        if t < cut:
            break
    return total


def _pieces(eps0, k, m):
    """(S_P, S_Q) with δ_RR = S_P − e^ε S_Q on the piece where exactly ℓ = 0..m−1 are active."""
    eps0 = mp.mpf(eps0)
    q = 1 / (1 + mp.exp(eps0))
    return _binom_cdf(m - 1, k, q), _binom_cdf(m - 1, k, 1 - q)


def _active(eps, eps0, k) -> int:
    """Number of ℓ ∈ {0..} with (k − 2ℓ)ε₀ > ε, exactly (ε rational in binary, mpmath arithmetic)."""
    eps, eps0 = mp.mpf(eps), mp.mpf(eps0)
    # (k − 2ℓ)ε₀ > ε  ⇔  ℓ < (k − ε/ε₀)/2
    bound = (k - eps / eps0) / 2
    m = int(mp.ceil(bound))
    return max(0, min(m, (k + 1) // 2))


def mp_log_delta(eps, eps0, k, delta0=0.0):
    eps = mp.mpf(eps)
    m = _active(eps, eps0, k)
    sp, sq = _pieces(eps0, k, m)
    rr = sp - mp.exp(eps) * sq
    A = 1 - (1 - mp.mpf(delta0)) ** k
    total = A + rr * (1 - A)
    return mp.log(total) if total > 0 else mp.mpf("-inf")


def mp_optimal_epsilon(eps0, k, delta, delta0=0.0, guess=0.0):
    eps0m = mp.mpf(eps0)
    A = 1 - (1 - mp.mpf(delta0)) ** k
    target = (mp.mpf(delta) - A) / (1 - A)
    m_max = (k + 1) // 2
    m = max(1, _active(guess, eps0, k))
    for _ in range(200):
        sp, sq = _pieces(eps0, k, m)
        if sp <= target:  # δ < target on this whole piece: the root lies at smaller ε (more active terms)
            if m == m_max:
                return mp.mpf(0)
            m += 1
            continue
        eps = mp.log((sp - target) / sq)
        hi = (k - 2 * (m - 1)) * eps0m
        lo = (k - 2 * m) * eps0m
        if eps >= hi:
            if m == 1:  # the top piece has no piece above; ε < kε₀ beyond 50 digits
                return eps
            m -= 1
        elif eps < lo:
            if lo <= 0:
                return mp.mpf(0)
            m += 1
        else:
            return max(eps, mp.mpf(0))
    raise AssertionError("reference did not settle")  # pragma: no cover


def _rel(a, b):
    a, b = mp.mpf(a), mp.mpf(b)
    if b == 0:
        return abs(a)
    return abs(a - b) / abs(b)


# ---------------------------------------------------------------------------------------------- tests


@pytest.mark.parametrize("eps0,k", list(itertools.product(EPS0, KS)))
def test_optimal_epsilon_matches_mpmath(eps0, k):
    ours = composition.optimal_epsilon(eps0, k, DELTAS)
    for delta, value in zip(DELTAS, ours):
        ref = mp_optimal_epsilon(eps0, k, delta, guess=value)
        assert np.isfinite(value)
        assert _rel(value, ref) <= RTOL, (eps0, k, delta, value, mp.nstr(ref, 20))


@pytest.mark.parametrize("eps0,k,delta0", [(0.1, 10, 1e-8), (1.0, 1000, 1e-7), (1e-2, 100_000, 1e-12),
                                           (10.0, 100, 1e-5)])
def test_optimal_epsilon_with_delta0_matches_mpmath(eps0, k, delta0):
    A = -np.expm1(k * np.log1p(-delta0))
    for slack in [1e-3, 1e-10, 1e-300]:
        delta = A + slack if A + slack > A else A * (1 + 1e-6)
        value = composition.optimal_epsilon(eps0, k, delta, delta0)
        ref = mp_optimal_epsilon(eps0, k, delta, delta0, guess=value)
        assert _rel(value, ref) <= RTOL, (eps0, k, delta0, delta, value, mp.nstr(ref, 20))


@pytest.mark.parametrize("eps0,k", list(itertools.product(EPS0, KS)))
def test_optimal_delta_matches_mpmath(eps0, k):
    # ε on and between lattice points, from 0 to just below kε₀
    top = k * eps0
    eps = np.unique(np.concatenate([[0.0], top * np.array([1e-3, 0.013, 0.1, 0.37, 0.5, 0.9, 0.999]),
                                    [eps0 * (k - 2)] if k > 2 else []]))
    ours = composition.optimal_log_delta(eps, eps0, k)
    for e, lv in zip(eps, ours):
        ref = mp_log_delta(e, eps0, k)
        if ref == mp.mpf("-inf"):
            assert lv == -np.inf
            continue
        if ref < -700:  # far below what a double δ can hold; compare logs absolutely
            assert abs(lv - float(ref)) <= 1e-9 * abs(float(ref)), (eps0, k, e, lv, ref)
            continue
        # relative error of δ = |exp(Δ log δ) − 1|
        assert abs(mp.expm1(mp.mpf(lv) - ref)) <= RTOL, (eps0, k, e, lv, mp.nstr(ref, 20))


@pytest.mark.parametrize("eps0,k,delta0", [(0.1, 10, 1e-8), (1.0, 100, 1e-3), (1e-4, 100_000, 1e-9)])
def test_optimal_delta_with_delta0_matches_mpmath(eps0, k, delta0):
    for e in np.array([0.0, 0.2, 0.6, 0.95]) * k * eps0:
        ours = composition.optimal_delta(e, eps0, k, delta0)
        ref = mp.exp(mp_log_delta(e, eps0, k, delta0))
        assert _rel(ours, ref) <= RTOL


@pytest.mark.parametrize("eps0,k", list(itertools.product(EPS0, KS)))
def test_advanced_epsilon_matches_mpmath(eps0, k):
    for delta in DELTAS:
        e0 = mp.mpf(eps0)
        ref = k * e0 * mp.expm1(e0) + mp.sqrt(2 * k * e0**2 * mp.log(1 / mp.mpf(delta)))
        assert _rel(composition.advanced_epsilon(eps0, k, delta), ref) <= RTOL


def _mp_tight_eps(rho, delta):
    """inf over α of αρ + log(1 − 1/α) + (log(1/δ) − log α)/(α − 1) by golden-section search in log(α−1),
    independent of the stationarity equation the package solves."""
    rho, L = mp.mpf(rho), -mp.log(mp.mpf(delta))

    def g(s):  # s = log(α − 1)
        t = mp.exp(s)
        a = 1 + t
        return a * rho + mp.log(t / a) + (L - mp.log(a)) / t

    lo, hi, _ = golden_section(g, mp.mpf(-60), mp.log(mp.sqrt(L / rho)) + 5, steps=400)
    return max(g((lo + hi) / 2), mp.mpf(0))


@pytest.mark.parametrize("rho", [1e-6, 1e-3, 1 / 32, 0.5, 10.0])
def test_zcdp_epsilon_tight_matches_mpmath(rho):
    for delta in DELTAS:
        ours = conversions.zcdp_epsilon(rho, delta, tight=True)
        ref = _mp_tight_eps(rho, delta)
        assert _rel(ours, ref) <= RTOL, (rho, delta, ours, mp.nstr(ref, 20))
        simple = mp.mpf(rho) + 2 * mp.sqrt(mp.mpf(rho) * mp.log(1 / mp.mpf(delta)))
        assert _rel(conversions.zcdp_epsilon(rho, delta), simple) <= RTOL


@pytest.mark.parametrize("rho", [1e-6, 1e-3, 1 / 32, 0.5, 10.0])
def test_zcdp_delta_tight_matches_mpmath(rho):
    # δ(ε) = inf_α exp((α−1)(αρ−ε)) (1−1/α)^α/(α−1): golden-section on log δ in log(α−1)
    for eps in [rho * 1.5, rho + 2 * np.sqrt(rho * 20), rho + 2 * np.sqrt(rho * 600)]:
        r, e = mp.mpf(rho), mp.mpf(eps)

        def h(s):
            t = mp.exp(s)
            a = 1 + t
            return t * (a * r - e) + a * mp.log(t / a) - mp.log(t)

        lo, hi = mp.mpf(-60), mp.log((e + 1) / (2 * r) + 2) + 3
        invphi = (mp.sqrt(5) - 1) / 2
        for _ in range(400):
            c, d = hi - invphi * (hi - lo), lo + invphi * (hi - lo)
            if h(c) < h(d):
                hi = d
            else:
                lo = c
        ref = mp.exp(min(h((lo + hi) / 2), mp.mpf(0)))
        assert _rel(conversions.zcdp_delta(rho, eps, tight=True), ref) <= RTOL, (rho, eps)


@pytest.mark.parametrize("eps", [0.0, 1e-4, 0.5, 5.0, 50.0])
def test_pdp_epsilon_matches_mpmath(eps):
    for delta, delta_prime in [(1e-6, 1e-3), (1e-300, 1e-299), (0.1, 0.1000001), (0.0, 0.5), (1e-8, 1.0)]:
        d, dp, e = mp.mpf(delta), mp.mpf(delta_prime), mp.mpf(eps)
        ref = mp.log(dp * mp.exp(e) + d) - mp.log(dp - d)
        assert _rel(conversions.pdp_epsilon(eps, delta, delta_prime), ref) <= RTOL


# --- Gaussian mechanism (Balle & Wang 2018, Theorem 8) -------------------------------------------------------


def _gaussian_log_delta_reference(eps, sigma):
    """log(Φ(a) − e^ε Φ(b)), a = 1/2σ − εσ, b = −1/2σ − εσ, at enough digits for the cancellation."""
    with mp.workdps(400):
        e, r = mp.mpf(eps), 1 / mp.mpf(sigma)
        d = mp.ncdf(r / 2 - e / r) - mp.exp(e) * mp.ncdf(-r / 2 - e / r)
        return None if d <= 0 else mp.log(d)


@pytest.mark.parametrize("eps", [0.0, 1e-12, 1e-8, 1e-4, 0.01, 0.1, 0.5, 1.0, 3.0, 10.0, 50.0, 300.0, 1e4])
def test_gaussian_log_delta_matches_mpmath(eps):
    """The erfcx form, the differenced asymptotic series and the mpmath corner: |error| ≤ 1e-13 in log δ
    (a relative error of 1e-13 in δ) wherever δ is a normal float, across fifteen decades of σ."""
    for sigma in [1e-3, 0.01, 0.05, 0.1, 0.3, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 100.0, 1e3, 1e4, 1e6, 1e8]:
        want = _gaussian_log_delta_reference(eps, sigma)
        if want is None or want < -700:
            continue
        assert abs(_evaluated_log_delta(eps, sigma) - float(want)) <= 1e-13 * max(1.0, abs(float(want))), (eps, sigma)
        _assert_raised_log_delta(eps, sigma, want)


def _evaluated_log_delta(eps, sigma) -> float:
    """The evaluated log δ before the public gaussian_log_delta raises it by gaussian_delta's allowance."""
    from dpsemantics.mechanisms import _gaussian_evaluated

    return float(_gaussian_evaluated(eps, sigma, 1.0)[2])


def _assert_raised_log_delta(eps, sigma, want):
    """The public log δ is on the safe side and within its allowance (2e-12 and the rounding of r) of the value."""
    from dpsemantics.mechanisms import gaussian_log_delta

    got = float(gaussian_log_delta(eps, sigma))
    assert mp.mpf(got) >= want and got - float(want) <= 1e-11 * max(1.0, abs(float(want))), (eps, sigma)


@pytest.mark.parametrize("u", [0.0, 0.5, 2.0, 5.9, 6.0, 6.1, 12.0, 29.9])
def test_gaussian_log_delta_where_erfcx_cancels_matches_mpmath(u):
    """The tail where erfcx(u) − erfcx(u + h) cancels (u < 30, h = Δ/(σ√2) small): the Taylor series in h below
    u = 6, the differenced asymptotic series above; ε is placed so that −a/√2 = u.  |error| ≤ 1e-13 in log δ."""
    for r in [1e-9, 1e-6, 1e-4, 1e-3, 1e-2]:
        eps = (u * 2**0.5 + r / 2) * r
        want = _gaussian_log_delta_reference(eps, 1 / r)
        if want is None or want < -700:
            continue
        got = _evaluated_log_delta(eps, 1 / r)
        assert abs(got - float(want)) <= 1e-13 * max(1.0, abs(float(want))), (u, r)
        _assert_raised_log_delta(eps, 1 / r, want)


# ------------------------------------------------------------------------ FFT round-off against exact integers


def _exact_polynomial_product(factors, power: int = 1):
    """The exact product of polynomials with float coefficients, raised to ``power``, as a list of Fractions: every
    float is an integer times 2^e, so each factor is an integer polynomial over a power of two; the product is
    formed by Kronecker substitution (each polynomial packed into one Python integer, the integers multiplied
    and raised to the power exactly)."""
    from fractions import Fraction

    scaled = []
    for coeffs in factors:
        fr = [Fraction(float(v)) for v in coeffs]
        scale = max(f.denominator for f in fr)  # a power of two
        scaled.append(([int(f * scale) for f in fr], scale))
    bound = 1
    for ints, _ in scaled:
        bound *= sum(ints)
    bits = (bound**power).bit_length() + 2  # every coefficient is at most the product of the sums
    product, denominator = 1, 1
    for ints, scale in scaled:
        product *= sum(a << (bits * i) for i, a in enumerate(ints))
        denominator *= scale
    product, denominator = product**power, denominator**power
    size = power * sum(len(ints) - 1 for ints, _ in scaled) + 1
    mask = (1 << bits) - 1
    return [Fraction((product >> (bits * i)) & mask, denominator) for i in range(size)]


def _exact_cyclic_power(probs, k: int, n: int):
    """The exact k-fold convolution of ``probs`` folded modulo n (the cyclic convolution of length n)."""
    folded = [0] * n
    for i, c in enumerate(_exact_polynomial_product([probs], k)):
        folded[i % n] += c
    return folded


def _exact_error_norm(computed, exact) -> float:
    from fractions import Fraction

    return float(sum((Fraction(float(c)) - e) ** 2 for c, e in zip(computed, exact))) ** 0.5


def _adversarial_lattices():
    """(name, probs, k, n): dyadic laws whose k-fold power is known exactly, with the dynamic range and the
    folding the FFT power meets in the package (or worse): a binomial step, two atoms far apart (a spectrum with
    many coefficients near modulus 1), subnormal and 1e-300 masses beside masses near 1, a two-sided geometric
    law, a spike with a 1e-15 tail, random masses over 30 orders of magnitude, and wrap-around (n below the
    support of the power)."""
    rng = np.random.default_rng(23)
    wide = 10.0 ** rng.uniform(-30, 0, 12)
    yield "binomial step", np.array([0.25, 0.5, 0.25]), 1000, 2048
    yield "binomial, folded", np.array([0.5, 0.5]), 300, 64
    yield "two far atoms", np.concatenate([[0.5], np.zeros(40), [0.5]]), 24, 1024
    yield "subnormal and 1e-300", np.array([0.5, 5e-324, 0.25, 1e-300, 0.125, 2.0**-1000, 0.125]), 6, 48
    yield "two-sided geometric", 2.0 ** -np.abs(np.arange(-12, 13)) / 3.0, 64, 2048
    yield "spike with a 1e-15 tail", np.concatenate([[1 - 2e-15], np.full(8, 2.5e-16)]), 40, 512
    yield "30 orders of magnitude", wide / wide.sum(), 16, 256
    yield "30 orders, folded", wide / wide.sum(), 40, 100


@pytest.mark.parametrize("name, probs, k, n", list(_adversarial_lattices()), ids=lambda v: v if isinstance(v, str)
                         else None)
def test_fft_power_bound_covers_the_exact_power(name, probs, k, n):
    """pld's FFT power (one real FFT raised to the k-th power in polar form, cyclic of length n) carries a proven
    bound on the Euclidean norm of its error, under the FFT error model stated in pld.py; here it is never below
    the error against the exact integer power."""
    from dpsemantics.pld import _cyclic_power

    q, bound = _cyclic_power(np.asarray(probs, dtype=float), k, n)
    actual = _exact_error_norm(q, _exact_cyclic_power(probs, k, n))
    assert actual <= bound, (name, actual, bound)
    assert bound <= 1e-8  # and it stays usable


def test_fft_convolution_bound_covers_the_exact_product():
    """The pairwise FFT convolution's bound (used when two long lattices are composed) is never below the error of
    scipy's fftconvolve against the exact product, over adversarial pairs."""
    from scipy.signal import fftconvolve

    from dpsemantics.pld import _fft_convolution_error

    rng = np.random.default_rng(5)
    pairs = [(np.array([0.5, 5e-324, 0.5]), 10.0 ** rng.uniform(-300, 0, 600)),
             (10.0 ** rng.uniform(-30, 0, 700), 10.0 ** rng.uniform(-30, 0, 500)),
             (np.concatenate([[1 - 1e-15], np.full(999, 1e-18)]), np.full(300, 1 / 300))]
    for a, b in pairs:
        product = _exact_polynomial_product([a, b])
        actual = _exact_error_norm(fftconvolve(a, b), product)
        bound = _fft_convolution_error(a, b)
        assert 0 < actual <= bound, (actual, bound)
