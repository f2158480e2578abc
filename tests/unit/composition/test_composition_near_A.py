"""The k-fold composition's exact profile where the δ₀ part A = 1 − (1 − δ₀)^k dominates (Kazan Theorem 2.8(3);
Kairouz, Oh & Viswanath 2015, Theorem 3.3): ``optimal_delta`` never below the exact δ, ``optimal_epsilon``
never refusing a δ above A, against a reference written here in mpmath (it imports nothing from the package).

Found from outside: at δ₀ = 1.77e-24, k = 1000, ε = 108 the package returned δ = 1.7667453261145275e-21, seven
ulps below the exact 1.7667453261145301e-21 — the allowance for A was added in log space, where an absolute
8u is lost in the rounding of |log δ| ≈ 48; and every δ within 1e-300 of A (δ₀ ≈ 1e-295) was refused as if it
were below A."""

import mpmath as mp
import pytest

from dpsemantics.composition import optimal_delta, optimal_epsilon


def exact_delta(eps0, k, eps, delta0):
    """1 − (1 − δ₀)^k (1 − δ_RR(ε)), δ_RR = Σ_{ℓ: (2ℓ − k)ε₀ > ε} C(k, ℓ)(e^{ℓε₀} − e^{ε + (k−ℓ)ε₀}) / (1 + e^{ε₀})^k,
    with 1 − (1 − δ₀)^k formed as −expm1(k·log1p(−δ₀)) so that a δ₀ of 1e-290 keeps its digits."""
    with mp.workdps(80):
        e0, e = mp.mpf(eps0), mp.mpf(eps)
        rr = mp.fsum(mp.binomial(k, j) * (mp.exp(j * e0) - mp.exp(e + (k - j) * e0))
                     for j in range(k + 1) if (2 * j - k) * e0 > e) / (1 + mp.exp(e0)) ** k
        x = k * mp.log1p(-mp.mpf(delta0))
        return -mp.expm1(x) + mp.exp(x) * rr


# A alone (ε ≥ kε₀: no loss exceeds ε) over 300 orders of magnitude of δ₀, and A beside a visible δ_RR
GRID = ([(eps0, k, k * eps0 * f, d0) for eps0 in (0.1, 1.3) for k in (1, 10, 1000) for f in (1.0, 2.5)
         for d0 in (3e-5, 1.77e-24, 2.4e-291)]
        + [(0.19549604003334994, 1000, 108.14993821647609, 1.76674532611453e-24),
           (0.03921860639828486, 1000, 37.06328320359805, 1e-12), (0.5, 10, 1.0, 1e-9), (2.0, 3, 0.5, 1e-200)])


@pytest.mark.parametrize("eps0,k,eps,delta0", GRID)
def test_optimal_delta_never_below_the_exact_value_where_A_dominates(eps0, k, eps, delta0):
    got, exact = optimal_delta(eps, eps0, k, delta0), exact_delta(eps0, k, eps, delta0)
    assert got >= exact, (got, exact)
    assert got <= exact * (1 + 1e-11)  # and not by much


@pytest.mark.parametrize("delta0,k", [(2.1375827527256242e-295, 10), (2.4480060256137566e-291, 1000),
                                      (1.77e-24, 1000), (1e-8, 1000)])
@pytest.mark.parametrize("rel", [1e-15, 1e-12, 1e-6])
def test_optimal_epsilon_just_above_A_is_finite_and_safe(delta0, k, rel):
    with mp.workdps(60):
        A = -mp.expm1(k * mp.log1p(-mp.mpf(delta0)))
        delta = float(A * (1 + rel))
        if not delta > A:  # rel below the float spacing at this A
            delta = float(mp.mpf(delta) * (1 + mp.mpf(2) ** -50))
    eps = optimal_epsilon(1.0, k, delta, delta0)
    assert eps < float("inf")
    assert exact_delta(1.0, k, eps, delta0) <= delta
