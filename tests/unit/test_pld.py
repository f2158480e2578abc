"""The privacy-loss-distribution engine: its bracket [optimistic, pessimistic] contains the exact profile.

References are closed forms evaluated here in mpmath (randomized response: the binomial sum of Kairouz, Oh &
Viswanath; Gaussian: Balle & Wang 2018 Thm 8 with σ/√k; Laplace, one run: (1 − e^{(ε−ε₀)/2})₊ and, for
ε < 0, the same hockey stick from its definition), importing nothing from dpsemantics.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

from dpsemantics.pld import PrivacyLossDistribution as PLD


def rr_delta(eps, eps0, k):
    e, e0 = mp.mpf(eps), mp.mpf(eps0)
    q = 1 / (1 + mp.exp(e0))
    total = mp.mpf(0)
    for ell in range(k + 1):
        loss = e0 * (k - 2 * ell)
        if loss > e:
            total += mp.binomial(k, ell) * q**ell * (1 - q) ** (k - ell) * -mp.expm1(e - loss)
    return total


def gaussian_delta(eps, sigma):
    e, s = mp.mpf(eps), mp.mpf(sigma)
    return mp.ncdf(1 / (2 * s) - e * s) - mp.exp(e) * mp.ncdf(-1 / (2 * s) - e * s)


@pytest.mark.parametrize("eps0, k", [(0.1, 1), (0.1, 50), (1.0, 7), (0.3, 400)])
def test_randomized_response_bracket_contains_the_exact_profile(eps0, k):
    pld = PLD.randomized_response(eps0, h=eps0 / 10).self_compose(k)
    for eps in (0.0, 0.5 * eps0, eps0 * math.sqrt(k), 2 * eps0 * math.sqrt(k)):
        low, high = pld.delta_bounds(eps)
        exact = rr_delta(eps, eps0, k)
        assert low <= exact <= high
        assert high <= exact * (1 + 1e-6) + 1e-12  # the lattice is exact for randomized response


@pytest.mark.parametrize("sigma, k", [(1.0, 1), (3.0, 9), (20.0, 400)])
def test_gaussian_bracket_contains_the_closed_form(sigma, k):
    pld = PLD.gaussian(sigma, h=2e-4 * math.sqrt(k) / sigma).self_compose(k)
    s = sigma / math.sqrt(k)
    for eps in (0.0, 0.5, 2.0, 4.0):
        low, high = pld.delta_bounds(eps)
        exact = gaussian_delta(eps, s)
        assert low <= exact <= high
        if exact > 1e-12:
            assert high <= exact * 1.01  # connect-the-dots: close on the safe side


@pytest.mark.parametrize("eps0", [0.1, 1.0, 3.0])
def test_laplace_single_run_bracket_and_negative_eps(eps0):
    pld = PLD.laplace(eps0, h=eps0 / 200)
    for eps in (0.0, 0.3 * eps0, 0.9 * eps0, 1.5 * eps0):
        low, high = pld.delta_bounds(eps)
        exact = max(-mp.expm1((mp.mpf(eps) - eps0) / 2), 0)
        assert low <= exact <= high
    # ε < 0: δ(ε) = E_P[(1 − e^{ε−L})₊] from the definition (P = Lap(0, 1/ε₀), Q = Lap(1, 1/ε₀))
    e0 = mp.mpf(eps0)
    p = lambda y: e0 / 2 * mp.exp(-e0 * abs(y))  # noqa: E731
    q = lambda y: e0 / 2 * mp.exp(-e0 * abs(y - 1))  # noqa: E731
    for eps in (-0.5 * eps0, -0.9 * eps0):
        kink = (1 - mp.mpf(eps) / e0) / 2  # where p = e^ε q, inside (0, 1)
        exact = mp.quad(lambda y: max(p(y) - mp.exp(eps) * q(y), 0), [-mp.inf, 0, kink, 1, mp.inf])
        low, high = pld.delta_bounds(eps)
        assert low <= exact <= high


def test_laplace_composition_bracket_is_narrow_and_epsilon_is_safe():
    pld = PLD.laplace(0.1, h=5e-4).self_compose(1000)
    eps = pld.epsilon(1e-6)
    low, high = pld.delta_bounds(eps)
    assert high <= 1e-6 and low <= high and (high - low) / high < 1e-3
    e_low, e_high = pld.epsilon_bounds(1e-6)
    assert e_low <= eps == e_high


def test_mixture_and_approximate_dp():
    """A mixture with disjoint outputs has the mixed loss law; the (ε, δ) worst case has δ(ε) = δ + ..."""
    a, b = PLD.randomized_response(0.5, h=0.05), PLD.approximate_dp(0.5, 1e-3, h=0.05)
    mix = PLD.mixture([0.25, 0.75], [a, b])
    for eps in (0.0, 0.2):
        la, ha = a.delta_bounds(eps)
        lb, hb = b.delta_bounds(eps)
        lm, hm = mix.delta_bounds(eps)
        assert lm == pytest.approx(0.25 * la + 0.75 * lb) and hm == pytest.approx(0.25 * ha + 0.75 * hb)
    assert b.delta(0.5) == pytest.approx(1e-3, rel=1e-9)  # only the reveal is left at ε = ε₀


def test_geometric_with_sensitivity_one_is_randomized_response():
    g, rr = PLD.geometric(0.7, 1, h=0.07), PLD.randomized_response(0.7, h=0.07)
    assert g.self_compose(5).delta_bounds(0.3) == pytest.approx(rr.self_compose(5).delta_bounds(0.3))


@pytest.mark.parametrize("call, name", [
    (lambda: PLD.laplace(0.1, h=5e-324), "h"),
    (lambda: PLD.laplace(-1.0), "eps"),
    (lambda: PLD.gaussian(1e-300), "sigma"),
    (lambda: PLD.laplace(0.1).self_compose(10**400), "k"),
    (lambda: PLD.laplace(0.1).compose(PLD.laplace(0.1, h=0.01)), "other"),
    (lambda: PLD.mixture([0.5, 0.6], [PLD.laplace(0.1), PLD.laplace(0.1)]), "weights"),
    (lambda: PLD.laplace(0.1).epsilon(0.0), "delta"),
])
def test_errors_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize("sigma,k", [(2.0, 1), (5.0, 30), (0.7, 4)])
def test_tail_bounds_on_lattice_bracket_the_gaussian_tail(sigma, k):
    """k Gaussian runs: L ~ N(μ, 2μ) with μ = k/(2σ²); P[L > t] = ½ erfc((t − μ)/(2√μ)) in mpmath, apart from
    the package.  Both sides must hold at every lattice point (direction), and be tight where it matters."""
    mu = k / (2 * sigma**2)
    one = PLD.gaussian(sigma, h=1 / sigma / 100)  # the advised step: well below √(2μ)/10 of one run
    pld = one.self_compose(k) if k > 1 else one
    t, low, up = pld.tail_bounds_on_lattice()
    pick = slice(None, None, max(1, t.size // 400))
    for ti, lo, hi in zip(t[pick], low[pick], up[pick]):
        exact = float(mp.erfc((mp.mpf(ti) - mu) / (2 * mp.sqrt(mu))) / 2)
        assert lo <= exact <= hi, (ti, lo, exact, hi)
        if 1e-6 < exact < 0.1:  # the tails a δ′ reads (measured: within +19 % / −18 %, at k = 30)
            assert hi <= exact * 1.25 and lo >= exact * 0.75
    # what the report reads is the quantile: at δ′ = 1e-3 both ends within 10 % of a standard deviation (measured 6 %)
    q = mu + math.sqrt(2 * mu) * float(mp.sqrt(2) * mp.erfinv(1 - 2 * mp.mpf("1e-3")))
    t_hi, t_lo = t[up <= 1e-3][0], t[low > 1e-3][-1]
    assert t_lo <= q <= t_hi and t_hi - t_lo <= 0.1 * math.sqrt(2 * mu)


def test_atoms_a_rounding_above_the_top_lattice_point_do_not_crash():
    """h = ε/n with ε/h == n in floats but ε > n·h used to index one past the lattice (an IndexError from the
    report for a Laplace + Gaussian mix).  The Laplace profile (1 − e^{(ε − ε₀)/2}) stays bracketed."""
    for eps0 in (0.1, 0.2, 0.3, 0.7):
        for n in range(2, 120):
            low, high = PLD.laplace(eps0, h=eps0 / n).delta_bounds(eps0 / 2)
            exact = -math.expm1(-eps0 / 4)
            assert low <= exact <= high, (eps0, n)


@pytest.mark.parametrize("eps0, k", [(0.1, 1000), (1.0, 10_000), (0.1, 200_000)])
def test_fft_round_off_allowance_covers_the_exact_binomial_law(eps0, k):
    """k-fold randomized response on the lattice of step ε₀ is a binomial law (Kairouz, Oh & Viswanath 2015):
    the Euclidean norm of the FFT power's error against scipy's binomial pmf stays under the carried
    bound ``err`` (measured 150–700× under it), and the bound is small enough to matter nowhere (δ ≥ 1e-6 here).
    The bound against exact integer convolutions: tests/unit/test_accuracy.py."""
    import numpy as np
    from scipy.stats import binom

    pld = PLD.randomized_response(eps0, h=eps0).self_compose(k)
    for lat in (pld.pessimistic, pld.optimistic):
        idx = lat.start + np.arange(lat.probs.size)  # loss idx·ε₀ = (k − ℓ)ε₀ − ℓε₀
        ell = (k - idx) / 2
        exact = np.where(ell == np.round(ell), binom.pmf(np.round(ell), k, 1 / (1 + math.exp(eps0))), 0.0)
        actual = float(np.linalg.norm(lat.probs - exact))
        assert actual <= lat.err <= 1e-9
        assert actual > 0  # the comparison sees the round-off (not a trivially exact path)


def _laplace_reference(name="laplace_delta"):
    """bench/laplace_reference.py: k-fold Laplace δ(ε) by a contour integral of the closed-form MGF (mpmath), or
    (``name="laplace_delta_mixture"``) by a finite sum for small k."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "laplace_reference.py"
    spec = importlib.util.spec_from_file_location("laplace_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def test_laplace_finite_sum_reference():
    """The bench's finite sum for k-fold Laplace δ(ε) (ε₀ = 0.1): at k = 1 the closed form 1 − e^{(ε−ε₀)/2}; at
    k = 2 the expectation over one run's loss of the one-run profile at ε − L, by nested quadrature split at the
    kinks; at k = 40 the contour integral, within that integral's own truncation bound."""
    import mpmath as mp

    mixture = _laplace_reference("laplace_delta_mixture")
    for eps in (0.0, 0.03, 0.08):
        assert mixture(0.1, 1, eps) == pytest.approx(float(1 - mp.exp((mp.mpf(eps) - mp.mpf("0.1")) / 2)), rel=1e-14)
    e0 = mp.mpf("0.1")

    def expect(g, x):  # E_P[g(L)] over one run; the continuous part split where ε₀(1 − 2y) = x
        kink = (1 - x / e0) / 2
        points = sorted({mp.mpf(0), mp.mpf(1), *([kink] if 0 < kink < 1 else [])})
        cont = mp.quad(lambda y: e0 / 2 * mp.exp(-e0 * y) * g(e0 * (1 - 2 * y)), points)
        return g(e0) / 2 + mp.exp(-e0) / 2 * g(-e0) + cont

    with mp.workdps(30):
        one = lambda x: expect(lambda ell: max(1 - mp.exp(x - ell), 0), x)  # noqa: E731
        two = float(expect(lambda ell: one(mp.mpf("0.15") - ell), mp.mpf("0.15") - e0))  # one's kink: x = ε₀
    assert mixture(0.1, 2, 0.15) == pytest.approx(two, rel=1e-9)
    contour, rest = _laplace_reference()(0.1, 40, 2.0)
    assert abs(mixture(0.1, 40, 2.0, dps=100) - contour) <= rest


def test_laplace_composition_bracket_contains_the_contour_reference():
    """k = 1000 runs of the ε₀ = 0.1 Laplace mechanism at ε ≈ 19.2 (δ ≈ 6.4e-7): the exact δ from an
    independent contour integral (two contours agree) lies in the bracket, and the pessimistic side is within
    1e-4 relative at h = ε₀/100 — the engine's error on the safe side only."""
    laplace_delta = _laplace_reference()
    eps = 19.23
    exact, rest = laplace_delta(0.1, 1000, eps)
    other, _ = laplace_delta(0.1, 1000, eps, dps=25, contour=0.7)
    assert rest < 1e-25 and abs(other - exact) <= 1e-15 * exact
    low, high = PLD.laplace(0.1, h=1e-3).self_compose(1000).delta_bounds(eps)
    assert low <= exact <= high <= exact * (1 + 1e-4)
    assert low >= exact * (1 - 1e-3)


@pytest.mark.parametrize("sigma, sensitivity", [(5e-324, 1.0), (1.7e308, 1.0), (1.0, 1.7e308), (1e-300, 1.0),
                                                (1e-6 / 1.5, 1.0), (1e160, 1e-160)])
def test_gaussian_at_sigma_extremes_is_a_clear_error_naming_sigma(sigma, sensitivity):
    """Δ/σ is formed by the Gaussian profile's one ratio (``mechanisms._gaussian_ratio``): where it overflows,
    underflows, or gives μ = (Δ/σ)²/2 ≥ 1e12, a one-line ValueError naming sigma, not a ZeroDivisionError or NaN."""
    with pytest.raises(ValueError, match="sigma"):
        PLD.gaussian(sigma, sensitivity)


@pytest.mark.parametrize("sigma, sensitivity, eps", [(1e-6 * 1.0001, 1.0, 1e11), (1e5, 1.0, 1e-6),
                                                     (3e150, 3e150, 0.3), (2e-150, 1e-150, 1.0)])
def test_gaussian_at_sigma_extremes_brackets_the_closed_form(sigma, sensitivity, eps):
    """Just inside the limits (μ near 1e12, μ = 5e-11, and Δ, σ near the ends of the float range with a moderate
    ratio) the bracket contains Balle & Wang's closed form at σ/Δ."""
    with mp.workdps(60):
        exact = gaussian_delta(eps, mp.mpf(sigma) / mp.mpf(sensitivity))
    low, high = PLD.gaussian(sigma, sensitivity).delta_bounds(eps)
    assert low <= exact <= high
    assert high <= exact * 1.01 + 1e-12


@pytest.mark.parametrize("eps0, k", [(0.1, 50), (1.0, 7), (0.37, 3)])
def test_bracket_holds_at_and_next_to_the_atoms(eps0, k):
    """At ε on an atom (k − 2ℓ)ε₀ of the composed law, and one float either side of it, where 1 − e^{ε − z} is
    decided by the last bits of ε − z: the exact profile stays inside [optimistic, pessimistic], for an array of
    such ε (one call) and for each ε alone."""
    pld = PLD.randomized_response(eps0, h=eps0 / 10).self_compose(k)
    atoms = [float(mp.mpf(eps0) * (k - 2 * ell)) for ell in range(k + 1) if k - 2 * ell >= 0]
    eps = sorted({float(x) for a in atoms for x in (math.nextafter(a, -math.inf), a, math.nextafter(a, math.inf))})
    low, high = pld.delta_bounds(np.array(eps))
    for e, lo, hi in zip(eps, low, high):
        exact = rr_delta(e, eps0, k)
        assert lo <= exact <= hi, (e, lo, float(exact), hi)
        assert (lo, hi) == pld.delta_bounds(e)


def test_delta_over_many_values_is_one_vectorised_pass():
    """10⁵ values of ε on a lattice of 20 001 points in one call equal the calls one by one (a sample), and take
    well under a second (a loop over ε took about 13 s)."""
    import time

    pld = PLD.laplace(0.1, h=0.001).self_compose(100)
    eps = np.random.default_rng(7).uniform(-1.0, 11.0, 10**5)
    start = time.process_time()
    many = pld.delta(np.abs(eps))
    assert time.process_time() - start < 2.0
    for i in range(0, eps.size, 9973):
        assert many[i] == pld.delta(abs(float(eps[i])))


@pytest.mark.parametrize("sigma, k", [(5.0, 30), (0.7, 4)])
def test_k_fold_gaussian_profile_never_below_the_closed_form_in_the_far_tail(sigma, k):
    """The pessimistic δ(ε) of k Gaussian runs, from the bulk out past the last point the FFT's round-off
    leaves positive (where the computed entries are 0 but the exact ones are not), against Balle & Wang's closed
    form at σ/√k in mpmath: never below it.  The lattice used to end where its computed tail vanished, with
    δ = 3·10⁻²⁹ beyond while the exact δ was about 10⁻²⁶ (σ = 5, k = 30)."""
    pld = PLD.gaussian(sigma, h=1 / sigma / 100).self_compose(k)
    mu = k / (2 * sigma**2)
    s = sigma / math.sqrt(k)
    for eps in np.linspace(mu, mu + 16 * math.sqrt(2 * mu), 161):
        with mp.workdps(60):
            exact = gaussian_delta(eps, mp.mpf(s))
        assert pld.delta(eps) >= exact, (eps, pld.delta(eps), float(exact))


def test_tail_bounds_are_numbers_where_the_two_lattices_lie_apart():
    """At a coarse step (h = ε₀) the optimistic lattice of 10⁶ Laplace runs lies ~1200 below the pessimistic one
    (each run's loss rounded down): the profile of one side read far above its lattice was e^{large}·0 = NaN,
    and so were 5 621 upper and 15 178 lower tail bounds.  Every bound is now a number in [0, 1], lower ≤ upper,
    and the upper side is at least the optimistic profile (δ(t) ≤ P[L > t], Kazan et al. Definition 2.4)."""
    pld = PLD.laplace(0.1, h=0.1).self_compose(10**6)
    t, low, up = pld.tail_bounds_on_lattice()
    assert np.all((0 <= low) & (low <= up) & (up <= 1))
    assert np.all(up >= pld.optimistic.delta(t, pld.h))


def test_tail_bounds_of_lattices_too_far_apart_are_refused_naming_h():
    """σ = 3 Gaussian and ε₀ = 0.1 Laplace, 10⁹ runs each, on the common step h = 0.1: the optimistic lattice lies
    2.7·10⁸ points below the pessimistic one, and the bounds, arrays over both, took 13.7 GB.  Refused (a
    NumericalLimit naming h) before any array is formed; the release reads the profile's bound instead."""
    from dpsemantics import releases
    from dpsemantics.errors import NumericalLimit

    c = releases.Composed([(releases.Gaussian(3.0), 10**9), (releases.Laplace(0.1), 10**9)])
    with pytest.raises(NumericalLimit, match="h="):
        c._pld(2**18).tail_bounds_on_lattice()
    exact = c.exact(0.01)
    assert exact.is_bound and exact.threshold == math.inf and "h=" in exact.method
