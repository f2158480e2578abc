"""``disclosure.best_zcdp_pdp_epsilon`` (Kazan et al., Example 4.1) against a minimiser written here, in mpmath, from
the papers' formulas; the reference imports nothing from the package.

For ρ-zCDP and a confidence 1 − δ′, every δ in (0, δ′) gives a valid ε′ (Theorem 2.7, or Canonne, Kamath &
Steinke 2020, Corollary 13, then Kazan et al.'s Theorem 3.9); the function picks the δ that minimises ε′ over
[e^{−708}, δ′).  Three things are asserted on hostile ρ (subnormal to near the float maximum) and δ′ (1.5e-300 to
1):

* **safe:** the ε′ returned is never below the exact ε′ at the δ returned (the δ reproduces the ε′);
* **tight:** it is never above the reference's minimum over the same range of δ by more than 1e-9 relative (for
  δ′ ≤ 0.5; where δ′ is near 1 the best δ is near 1, where the package's safe tight conversion is looser by about
  32u/(α − 1) — the bound is stated below);
* **no worse** than a plain search (a grid of 120 log δ and a bounded Brent step per entry, written below), within
  1e-12 relative, wherever that search's range holds the optimum.

The reference minimum: the exact ε′(δ) of the papers' formulas at 32 digits, on a grid of 64 values of
log log(δ′/δ) (so that δ within 1e-300 of δ′ is reached, which ρ = 10³⁰⁰ needs), refined by golden-section
search between the neighbours of the best grid point.  The tight ε(δ) is the infimum over orders α > 1 of
αρ + log(1 − 1/α) − (log δ + log α)/(α − 1), found where its derivative ρ + (log δ + log α)/(α − 1)² vanishes
(it increases in α), clipped at 0.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from _support.golden import golden_section

from dpsemantics import conversions, disclosure

LOG_FLOOR = -708.0  # the search range of the function: δ in [e^-708, δ′)
DIGITS = 32

RHOS = [5e-324, 1e-300, 1e-150, 1e-30, 1e-8, 1e-3, 0.05, 1.0, 30.0, 1e3, 1e8, 1e30, 1e150, 1e300]
DELTA_PRIMES = [1.5e-300, 1e-100, 1e-12, 1e-6, 0.01, 0.5]
NEAR_ONE = [0.9, 1 - 1e-9, 1.0]


def _eps_simple(rho, log_delta):
    """Theorem 2.7 (Bun & Steinke 2016): ε = ρ + 2√(ρ log(1/δ))."""
    return rho + 2 * mp.sqrt(rho * -log_delta)


def _eps_tight(rho, log_delta):
    """Canonne, Kamath & Steinke 2020, Corollary 13, ε form: the infimum over α > 1, where the derivative in
    t = α − 1 vanishes, clipped at 0.  The derivative times t², ρt² + log δ + log1p(t), is increasing and convex in
    s = log t, so Newton steps in s from a point where it is ≥ 0 (ρt² ≥ log(1/δ) or log1p t ≥ log(1/δ)) descend to
    the root without overshooting.  Every α gives a valid ε, so a t off the root can only raise the value (by the
    square of the error: the objective is stationary there)."""
    L = -log_delta
    s = mp.log(min(mp.sqrt(L / rho), mp.expm1(L)))
    for _ in range(200):
        t = mp.exp(s)
        step = (rho * t * t - L + mp.log1p(t)) / (2 * rho * t * t + t / (1 + t))
        s -= step
        if abs(step) < mp.mpf(10) ** (8 - DIGITS):
            break
    t = mp.exp(s)
    alpha = 1 + t
    value = alpha * rho - mp.log1p(1 / t) - (log_delta + mp.log1p(t)) / t  # log(1 − 1/α) = −log1p(1/t)
    return max(value, mp.mpf(0))


def _eps_prime(eps, u):
    """Kazan et al., Theorem 3.9, ε′ = log(δ′e^ε + δ) − log(δ′ − δ), with u = log(δ′/δ):
    ε + log1p(e^{−u−ε}) − log1p(−e^{−u}) (so that ε′ keeps its digits when ε is tiny)."""
    return eps + mp.log1p(mp.exp(-u - eps)) - mp.log1p(-mp.exp(-u))


def exact_eps_prime(rho, delta, delta_prime, tight):
    """The exact ε′ at δ (δ a float or an mpf; δ < δ′)."""
    with mp.workdps(DIGITS):
        rho, delta, delta_prime = mp.mpf(rho), mp.mpf(delta), mp.mpf(delta_prime)
        eps = (_eps_tight if tight else _eps_simple)(rho, mp.log(delta))
        return _eps_prime(eps, mp.log(delta_prime) - mp.log(delta))


def reference_minimum(rho, delta_prime, tight):
    """min over δ ∈ [e^-708, δ′) of the exact ε′: grid in w = log log(δ′/δ), then golden-section refinement."""
    with mp.workdps(DIGITS):
        R = mp.mpf(rho)
        log_dp = mp.log(mp.mpf(delta_prime))
        w_top = mp.log(log_dp - LOG_FLOOR)  # δ = e^-708

        def f(w):  # u = log(δ′/δ) = e^w
            u = mp.exp(w)
            return _eps_prime((_eps_tight if tight else _eps_simple)(R, log_dp - u), u)

        grid = [w_top - (w_top + 760) * k / 63 for k in range(64)]  # w from w_top down to -760
        values = [f(w) for w in grid]
        i = min(range(len(grid)), key=lambda k: values[k])
        best = values[i]
        _, _, refined = golden_section(f, grid[min(i + 1, len(grid) - 1)], grid[max(i - 1, 0)],
                                       rel_tol=mp.mpf(1e-11))
        return min(best, refined)


# the tight reference solves for the order at each δ (about 0.15 s a case): fewer cases than for Theorem 2.7
TIGHT_RHOS = [5e-324, 1e-300, 1e-30, 1e-8, 1e-3, 1.0, 1e3, 1e8, 1e30, 1e300]
TIGHT_DELTA_PRIMES = [1.5e-300, 1e-12, 0.01, 0.5]
CASES = ([(rho, dp, False) for rho in RHOS for dp in DELTA_PRIMES]
         + [(rho, dp, True) for rho in TIGHT_RHOS for dp in TIGHT_DELTA_PRIMES])


@pytest.mark.parametrize("rho, delta_prime, tight", CASES)
def test_safe_and_within_1e9_of_the_reference_minimum(rho, delta_prime, tight):
    got, delta = disclosure.best_zcdp_pdp_epsilon(rho, delta_prime, tight=tight)
    assert math.exp(LOG_FLOOR) <= delta < delta_prime
    assert got >= exact_eps_prime(rho, delta, delta_prime, tight)  # the δ returned reproduces the ε′ (safe)
    best = reference_minimum(rho, delta_prime, tight)
    # subnormal ρ with tight=True: zcdp_epsilon cannot certify the tight form there (it returns Theorem 2.7's ε), so
    # the least ε′ it can give is Theorem 2.7's minimum
    if tight and rho < 2.3e-308:
        best = reference_minimum(rho, delta_prime, False)
    assert got <= best * (1 + 1e-9), (got, best, float(got / best - 1))


@pytest.mark.parametrize("rho, delta_prime, tight", [(r, dp, t) for t in (False, True) for r in (1e-8, 1.0, 1e3)
                                                      for dp in NEAR_ONE])
def test_delta_prime_near_one(rho, delta_prime, tight):
    """Where δ′ is near 1 the best δ is near 1 too, where the tight conversion's safe evaluation adds about
    32u/(α − 1) (u = 2^-53): the excess over the exact minimum stays below 2√(32u(ρ + 1)) (the least excess of
    ρ(α − 1) + 32u/(α − 1), the first-order cost of moving away from δ = 1), plus 1e-9 relative."""
    got, delta = disclosure.best_zcdp_pdp_epsilon(rho, delta_prime, tight=tight)
    assert 0 < delta < delta_prime
    assert got >= exact_eps_prime(rho, delta, delta_prime, tight)
    best = reference_minimum(rho, delta_prime, tight)
    allowed = best * 1e-9 + (2 * math.sqrt(32 * 2.0**-53 * (rho + 1)) if tight else 0.0)
    assert got - best <= allowed, (got, best, float(got - best))


@pytest.mark.parametrize("rho", [1e308, 1.79e308])
@pytest.mark.parametrize("delta_prime", [1.5e-300, 0.5])
def test_rho_near_the_float_maximum_tight(rho, delta_prime):
    """ε = ρ + 2√(ρ log(1/δ)) is still finite here (the tight ε too): so is ε′, within 1e-9 of the minimum."""
    got, delta = disclosure.best_zcdp_pdp_epsilon(rho, delta_prime, tight=True)
    assert math.isfinite(got) and got >= exact_eps_prime(rho, delta, delta_prime, True)
    assert got <= reference_minimum(rho, delta_prime, True) * (1 + 1e-9)


@pytest.mark.parametrize("delta_prime", [1.5e-300, 0.5])
def test_rho_near_the_float_maximum_theorem_2_7(delta_prime):
    """Finite at ρ near the float maximum, where 4ρ overflows (conversions.zcdp_epsilon forms no such product)."""
    got, delta = disclosure.best_zcdp_pdp_epsilon(1e308, delta_prime)
    assert math.isfinite(got) and got >= exact_eps_prime(1e308, delta, delta_prime, False)
    assert got <= reference_minimum(1e308, delta_prime, False) * (1 + 1e-9)


# ------------------------------------------------------------------ against a plain search


def _replaced(rho, delta_prime, tight):
    """A plain search, one entry at a time: a grid of 120 log δ in [−690, log δ′ + log(1 − 1e-9)], then a bounded
    Brent step between the best point's neighbours."""
    from scipy.optimize import minimize_scalar

    def f(log_delta):
        d = np.exp(log_delta)
        e = np.asarray(conversions.zcdp_epsilon(rho, d, tight=tight))
        finite = np.isfinite(e)
        return np.where(finite, conversions.pdp_epsilon(np.where(finite, e, 0.0), d, delta_prime), np.inf)

    grid = np.linspace(-690.0, math.log(delta_prime) + math.log1p(-1e-9), 120)
    vals = np.asarray(f(grid), dtype=float)
    i = int(np.argmin(vals))
    a, b = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    res = minimize_scalar(lambda x: float(f(x)), bounds=(a, b), method="bounded", options={"xatol": 1e-10})
    return float(min(res.fun, vals[i]))


@pytest.mark.parametrize("tight", [False, True])
def test_no_worse_than_the_replaced_search(tight):
    """Its search range [e^-690, δ′(1 − 1e-9)] lies inside the new one: the new ε′ is never above its own."""
    rng = np.random.default_rng(20261124)
    grid = [(r, dp) for r in RHOS for dp in (1e-280, 1e-100, 1e-6, 0.5, 1.0)]
    rhos = np.concatenate([10.0 ** rng.uniform(-12, 6, 24), [r for r, _ in grid]])
    dps = np.concatenate([10.0 ** rng.uniform(-250, math.log10(0.5), 24), [dp for _, dp in grid]])
    got = disclosure.best_zcdp_pdp_epsilon(rhos, dps, tight=tight)[0]
    crashed = []
    for r, dp, g in zip(rhos, dps, got):
        try:
            before = _replaced(float(r), float(dp), tight)
        except ValueError:  # its Brent step called zcdp_epsilon(tight=True) on one ρ ≥ 1e30, whose scalar path
            crashed.append((r, dp))  # raises "f(a) and f(b) must have different signs" there
            continue
        assert g <= before * (1 + 1e-12), (r, dp)
    assert all(tight and r >= 1e30 for r, _ in crashed), crashed  # (where the package's is finite)
    assert np.all(np.isfinite(got))


# ------------------------------------------------------------------ arrays, errors


def test_an_array_is_the_stack_of_scalar_calls_at_every_length():
    """zcdp_epsilon(tight=True) takes another path below 17 entries: each entry must not depend on the others."""
    rng = np.random.default_rng(7)
    rhos = 10.0 ** rng.uniform(-10, 4, 40)
    dps = 10.0 ** rng.uniform(-200, -0.5, 40)
    for tight in (False, True):
        singles = [disclosure.best_zcdp_pdp_epsilon(float(r), float(d), tight=tight) for r, d in zip(rhos, dps)]
        for n in (1, 2, 16, 17, 40):
            e, d = disclosure.best_zcdp_pdp_epsilon(rhos[:n], dps[:n], tight=tight)
            assert list(e) == [s[0] for s in singles[:n]] and list(d) == [s[1] for s in singles[:n]]
    e, d = disclosure.best_zcdp_pdp_epsilon(rhos[:6].reshape(2, 3), 1e-6)
    assert e.shape == d.shape == (2, 3)
    assert disclosure.best_zcdp_pdp_epsilon(np.array([]), 1e-6)[0].shape == (0,)


@pytest.mark.parametrize("call, name", [
    (lambda: disclosure.best_zcdp_pdp_epsilon(0.3, 1e-308), "delta_prime"),
    (lambda: disclosure.best_zcdp_pdp_epsilon(0.3, [0.01, 2e-308]), "delta_prime"),
    (lambda: disclosure.best_zcdp_pdp_epsilon(0.3, 0.0), "delta_prime"),
    (lambda: disclosure.best_zcdp_pdp_epsilon(-1.0, 0.01), "rho"),
    (lambda: disclosure.best_zcdp_pdp_epsilon([0.1, 0.2, 0.3], [0.01, 0.02]), "rho"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
