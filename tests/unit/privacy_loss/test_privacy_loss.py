"""Tests of dpsemantics.privacy_loss: the one privacy-loss type (Kazan et al., Definition 2.2).

Every law is checked against a reference written here that does not use the package: the Laplace and
Gaussian losses by integrating over the mechanism's output (mpmath / scipy quadrature of the output density),
randomized response by the binomial sum in mpmath, the geometric mechanism by enumerating its outputs, finite
pairs by direct sums.  The profiles are checked against the hockey-stick divergence computed the same way and,
for finite pairs, against :func:`~dpsemantics.indistinguishability.smallest_delta`.
"""

from __future__ import annotations

import ast
import math
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest
from scipy import integrate

from dpsemantics import indistinguishability
from dpsemantics.pld import PrivacyLossDistribution
from dpsemantics.privacy_loss import PrivacyLoss, pair_losses

LIB = Path(__file__).resolve().parents[3] / "lib" / "dpsemantics"


# ---------------------------------------------------------------------------------------------- references


def laplace_reference_cdf(eps, t, *, absent=False):
    """P[Z ≤ t] for the Laplace mechanism with scale 1/ε between the centres 0 and 1, by quadrature over the output:
    Z(y) = ε(|y − 1| − |y|) with y ~ Lap(0, 1/ε) (target present), or Z′(y) = −Z(y) with y ~ Lap(1, 1/ε)."""
    centre = 1.0 if absent else 0.0
    density = lambda y: 0.5 * eps * math.exp(-eps * abs(y - centre))  # noqa: E731
    loss = lambda y: (-1 if absent else 1) * eps * (abs(y - 1) - abs(y))  # noqa: E731
    total = 0.0
    for a, b in [(-math.inf, 0.0), (0.0, 1.0), (1.0, math.inf)]:
        # the set {loss ≤ t} within (a, b): loss is constant outside (0, 1) and linear inside
        if math.isinf(a) or math.isinf(b):
            y = b - 1.0 if math.isinf(a) else a + 1.0
            if loss(y) <= t:
                total += integrate.quad(density, a, b, epsabs=1e-15)[0]
            continue
        cut = (1 - (-t if absent else t) / eps) / 2  # where the linear piece crosses t
        cut = min(max(cut, 0.0), 1.0)
        lo, hi = (0.0, cut) if absent else (cut, 1.0)
        if hi > lo:
            total += integrate.quad(density, lo, hi, epsabs=1e-15)[0]
    return total


def gaussian_reference(sigma):
    """Z(y) = log φ(y/σ)/φ((y − 1)/σ) = (1 − 2y)/(2σ²), y ~ N(0, σ²), in mpmath: (cdf, sf, hockey stick)."""
    s = mp.mpf(sigma)

    def cdf(t):  # Z ≤ t ⇔ y ≥ (1 − 2σ²t)/2
        return mp.ncdf(-(1 - 2 * s**2 * mp.mpf(t)) / 2 / s)

    def sf(t):
        return mp.ncdf((1 - 2 * s**2 * mp.mpf(t)) / 2 / s)

    def hockey(eps):  # ∫ (φ_P − e^ε φ_Q)₊ over y below the point where Z(y) = ε
        y = (1 - 2 * s**2 * mp.mpf(eps)) / 2
        return mp.ncdf(y / s) - mp.exp(eps) * mp.ncdf((y - 1) / s)

    return cdf, sf, hockey


def binomial_rr_reference(eps0, k):
    """k-fold ε₀-randomized response: the loss ε₀(2j − k) with probability C(k, j)e^{jε₀}/(1 + e^{ε₀})^k, mpmath."""
    e = mp.e ** mp.mpf(eps0)
    return [(eps0 * (2 * j - k), mp.binomial(k, j) * e**j / (1 + e) ** k) for j in range(k + 1)]


def geometric_reference(eps, d, span=400):
    """The geometric mechanism between the counts 0 and Δ by enumerating outputs y: P(y) ∝ a^{|y|}, Q(y) ∝ a^{|y−Δ|},
    a = e^{−ε/Δ}; returns the pairs (loss, P-mass)."""
    a = mp.e ** (-mp.mpf(eps) / d)
    c = (1 - a) / (1 + a)
    out = []
    for y in range(-span, span + d + 1):
        p, q = c * a ** abs(y), c * a ** abs(y - d)
        out.append((float(mp.log(p / q)), p))
    return out


def hockey_of_atoms(atoms, eps):
    return float(mp.fsum(w * (1 - mp.e ** (mp.mpf(eps) - z)) for z, w in atoms if z > eps))


# ---------------------------------------------------------------------------------------------- the laws


@pytest.mark.parametrize("eps", [0.3, 1.0, 2.5])
def test_laplace_law_against_quadrature_over_the_output(eps):
    loss = PrivacyLoss.laplace(eps)
    assert loss.dual is loss  # symmetric: Z′ has Z's law
    for t in [-eps - 0.1, -eps, -0.7 * eps, -0.1 * eps, 0.0, 0.4 * eps, 0.99 * eps, eps, eps + 1]:
        want = laplace_reference_cdf(eps, t)
        assert loss.cdf(t) == pytest.approx(want, abs=1e-12)
        assert loss.dual.cdf(t) == pytest.approx(laplace_reference_cdf(eps, t, absent=True), abs=1e-12)
        assert loss.sf(t) == pytest.approx(1 - want, abs=1e-12)
    # the atoms: P[Z = ε] = ½, P[Z = −ε] = e^{−ε}/2, seen as the jumps between cdf_left and cdf
    assert loss.cdf(eps) - loss.cdf_left(eps) == pytest.approx(0.5, abs=1e-15)
    assert loss.cdf(-eps) - loss.cdf_left(-eps) == pytest.approx(math.exp(-eps) / 2, rel=1e-14)
    for q in [0.01, math.exp(-eps) / 2, 0.3, 0.5, 0.8]:
        t = loss.ppf(q)
        assert loss.cdf(t) >= q - 1e-12 and loss.cdf_left(t) <= q + 1e-12
    # the profile δ(ε′) = ∫ (p − e^{ε′} q)₊ over the output (Kazan et al. Theorem A.2)
    for e in [0.0, 0.3 * eps, 0.9 * eps, 2 * eps]:
        f = lambda y: max(0.0, 0.5 * eps * (math.exp(-eps * abs(y)) - math.exp(e) * math.exp(-eps * abs(y - 1))))  # noqa: E731
        kink = min(max((eps - e) / (2 * eps), 0.0), 1.0)  # where p = e^{ε′}q inside (0, 1)
        pieces = [(-60 / eps, 0), (0, kink), (kink, 1), (1, 60 / eps)]
        want = sum(integrate.quad(f, a, b, epsabs=1e-15, epsrel=1e-13)[0] for a, b in pieces if b > a)
        assert loss.delta(e) == pytest.approx(want, abs=1e-12)
        assert loss.delta(e) >= want - 1e-15


@pytest.mark.parametrize("sigma", [0.3, 1.0, 4.0])
def test_gaussian_law_and_profile_against_mpmath(sigma):
    cdf, sf, hockey = gaussian_reference(sigma)
    loss = PrivacyLoss.gaussian(sigma)
    mu = 1 / (2 * sigma**2)
    assert loss.rho() == pytest.approx(mu, rel=1e-15)
    with mp.workdps(40):
        for t in [-3.0, -0.2, 0.0, 0.3, 2.0]:
            assert loss.cdf(t) == pytest.approx(float(cdf(t)), rel=1e-12, abs=1e-300)
            assert loss.sf(t) == pytest.approx(float(sf(t)), rel=1e-12, abs=1e-300)
        # far tail, where 1 − cdf has no digits left
        t = mu + 12 * math.sqrt(2 * mu)
        assert loss.sf(t) == pytest.approx(float(sf(t)), rel=1e-9)
        assert float(sf(loss.isf(1e-30))) == pytest.approx(1e-30, rel=1e-9)
        for e in [0.0, 0.5, 2.0]:
            want = float(hockey(e))
            assert loss.delta(e) == pytest.approx(want, rel=1e-10)
            assert loss.delta(e) >= want * (1 - 1e-14)


@pytest.mark.parametrize("eps0, k", [(0.5, 1), (0.5, 7), (0.1, 40), (1.2, 15)])
def test_randomized_response_is_the_binomial_law(eps0, k):
    atoms = binomial_rr_reference(eps0, k)
    loss = PrivacyLoss.randomized_response(eps0, k)
    assert loss.dual is loss
    want = sorted((z, float(w)) for z, w in atoms)
    assert np.allclose(loss.atoms, [z for z, _ in want], rtol=1e-14, atol=1e-14)
    assert np.allclose(loss.weights, [w for _, w in want], rtol=1e-12, atol=0)
    for t in [0.0, eps0, 2.5 * eps0]:
        pdp = float(mp.fsum(w for z, w in atoms if abs(z) > t + 1e-12))
        assert loss.pdp_delta(t) == pytest.approx(pdp, rel=1e-12)
    for e in [0.0, 0.5 * eps0, eps0 * (k - 2) if k > 2 else 0.1]:
        want = hockey_of_atoms(atoms, e)
        assert loss.delta(e) == pytest.approx(want, rel=1e-10)
        assert loss.delta(e) >= want
    # ε at a δ: on the safe side of the reference profile, and tight
    delta = 0.5 * hockey_of_atoms(atoms, 0.0)
    e = loss.epsilon(delta)
    assert hockey_of_atoms(atoms, e) <= delta
    assert hockey_of_atoms(atoms, e * (1 - 1e-9)) > delta


@pytest.mark.parametrize("eps, d", [(1.0, 1), (1.0, 3), (0.4, 5)])
def test_geometric_law_by_enumerating_outputs(eps, d):
    atoms = geometric_reference(eps, d)
    loss = PrivacyLoss.geometric(eps, d)
    assert loss.dual is loss
    for t in [-eps, -0.5 * eps, 0.0, 0.2 * eps, eps]:
        assert loss.cdf(t) == pytest.approx(float(mp.fsum(w for z, w in atoms if z <= t + 1e-12)), abs=1e-12)
    for e in [0.0, 0.3 * eps, 0.9 * eps]:
        assert loss.delta(e) == pytest.approx(hockey_of_atoms(atoms, e), abs=1e-12)
    if d == 1:  # the same law as randomized response
        rr = PrivacyLoss.randomized_response(eps)
        assert np.allclose(loss.atoms, rr.atoms) and np.allclose(loss.weights, rr.weights, rtol=1e-14)


def test_finite_pair_by_direct_sums_both_orders():
    p = np.array([0.5, 0.25, 0.15, 0.1, 0.0])
    q = np.array([0.2, 0.25, 0.3, 0.0, 0.25])
    loss = PrivacyLoss.finite(p, q)
    assert loss.dual is not loss and loss.dual.dual is loss
    z = [math.log(a / b) if a > 0 and b > 0 else (math.inf if a > 0 else -math.inf) for a, b in zip(p, q)]
    assert list(pair_losses(p, q)) == pytest.approx(z)
    for e in [0.0, 0.2, 0.8, 3.0]:
        one = sum(a - math.exp(e) * b for a, b in zip(p, q) if a > math.exp(e) * b)
        other = sum(b - math.exp(e) * a for a, b in zip(p, q) if b > math.exp(e) * a)
        assert loss.hockey_stick(e) == pytest.approx(one, rel=1e-13, abs=1e-15)
        assert loss.dual.hockey_stick(e) == pytest.approx(other, rel=1e-13, abs=1e-15)
        assert loss.delta(e) == pytest.approx(max(one, other), rel=1e-13, abs=1e-15)
        assert loss.delta(e) == pytest.approx(float(indistinguishability.smallest_delta(p, q, e)), rel=1e-13)
        assert loss.delta(e) >= max(one, other)
        outside = [abs(v) > e for v in z]
        want = max(sum(a for a, o in zip(p, outside) if o), sum(b for b, o in zip(q, outside) if o))
        assert loss.pdp_delta(e) == pytest.approx(want, rel=1e-14, abs=1e-15)  # (raised by its sums' rounding)
    # the mass only one side produces (+∞ under P: 0.1; under Q: 0.25) bounds δ from below at every ε
    assert loss.epsilon(0.2) == math.inf
    assert loss.dual.cdf(math.inf) == 1.0 and loss.dual.sf(1e300) == pytest.approx(0.25)
    e = loss.epsilon(0.3)
    assert float(indistinguishability.smallest_delta(p, q, e)) <= 0.3
    assert float(indistinguishability.smallest_delta(p, q, e * (1 - 1e-9))) > 0.3


def test_pdp_epsilon_is_safe_at_tiny_delta_prime():
    """At σ = 1, δ′ = 1e-20 the tail P[|Z| > t] is far below the rounding of 1 − cdf: the exact ε′ is 9.7623, and
    the ε′ returned is never below it (the 1 − cdf form gives 8.792)."""
    mu, s = mp.mpf(0.5), mp.mpf(1)
    ref = lambda t: mp.ncdf((mu - t) / s) + mp.ncdf((-t - mu) / s)  # noqa: E731 - P[|Z| > t], Z ~ N(μ, 2μ)
    with mp.workdps(50):
        e = PrivacyLoss.gaussian(1.0).pdp_epsilon(1e-20)
        assert e == pytest.approx(9.762345, abs=1e-5)
        assert ref(e) <= mp.mpf(1e-20)
        assert ref(e * (1 - 1e-9)) > mp.mpf(1e-20)


def test_epsilon_inverts_delta_on_the_safe_side():
    for loss in [PrivacyLoss.laplace(1.3), PrivacyLoss.gaussian(0.8), PrivacyLoss.geometric(0.9, 2),
                 PrivacyLoss.randomized_response(0.2, 30)]:
        for delta in [0.3, 1e-3, 1e-8]:
            e = loss.epsilon(delta)
            assert loss.delta(e) <= delta
            if e > 0:
                assert loss.delta(e * (1 - 1e-9)) > delta
    assert PrivacyLoss.laplace(1.0).epsilon(0.5) == 0.0  # δ(0) = 1 − e^{−1/2} < 0.5


@pytest.mark.parametrize("loss, h", [(PrivacyLoss.laplace(0.7), 0.7 / 200), (PrivacyLoss.gaussian(2.0), None),
                                     (PrivacyLoss.randomized_response(0.5, 7), 0.5 / 4),
                                     (PrivacyLoss.geometric(1.0, 3), None),
                                     (PrivacyLoss.finite([0.6, 0.3, 0.1], [0.3, 0.3, 0.4]), 1e-3)])
def test_lattice_brackets_the_exact_profile(loss, h):
    lattice = loss.lattice(h)
    assert isinstance(lattice, PrivacyLossDistribution)
    for e in [0.0, 0.2, 0.5]:
        low, high = lattice.delta_bounds(e)
        exact = loss.hockey_stick(e)
        assert low <= exact * (1 + 1e-9) + 1e-15 and exact <= high * (1 + 1e-9) + 1e-15
        assert high - low < 5e-3


def test_lattice_of_a_law_with_mass_at_infinity_composes():
    """Ported from the removed rounded-up lattice type: +∞ absorbs under composition, P[Z₁ + Z₂ = ∞] = 1 − 0.99²."""
    loss = PrivacyLoss.finite([0.6, 0.39, 0.01], [0.3, 0.7, 0.0])
    two = loss.lattice(0.01).self_compose(2)
    assert two.pessimistic.inf == pytest.approx(1 - 0.99**2, rel=1e-12)
    assert two.epsilon(0.015) == math.inf
    with pytest.raises(ValueError, match="weights"):
        PrivacyLossDistribution.from_atoms([0.1, 0.2], [0.5])


# ---------------------------------------------------------------------------------------------- the surface


def test_every_method_returns_the_one_type():
    loss = PrivacyLoss.finite([0.6, 0.4], [0.4, 0.6])
    for law in [loss, PrivacyLoss.laplace(1.0), PrivacyLoss.gaussian(1.0), PrivacyLoss.randomized_response(1.0, 3)]:
        for value in [law.cdf(0.1), law.cdf_left(0.1), law.sf(0.1), law.ppf(0.3), law.isf(0.3),
                      law.prob_between(-0.1, 0.2), law.prob_abs_greater(0.1), law.hockey_stick(0.1), law.delta(0.1),
                      law.epsilon(0.01), law.pdp_delta(0.1), law.pdp_epsilon(0.01)]:
            assert type(value) is float
        arr = law.cdf(np.array([0.0, 0.5]))
        assert isinstance(arr, np.ndarray) and arr.dtype == float and arr.shape == (2,)


@pytest.mark.parametrize("call, name", [
    (lambda: PrivacyLoss.laplace(0.0), "eps"),
    (lambda: PrivacyLoss.gaussian(-1.0), "sigma"),
    (lambda: PrivacyLoss.gaussian(1e-300), "sigma"),
    (lambda: PrivacyLoss.randomized_response(0.5, 0), "k"),
    (lambda: PrivacyLoss.geometric(1.0, 1.5), "sensitivity"),
    (lambda: PrivacyLoss.finite([0.5, 0.5], [0.2, 0.2, 0.6]), "row_present"),
    (lambda: PrivacyLoss.laplace(1.0).cdf(math.nan), "t"),
    (lambda: PrivacyLoss.laplace(1.0).ppf(1.5), "q"),
    (lambda: PrivacyLoss.laplace(1.0).delta(-1.0), "eps"),
    (lambda: PrivacyLoss.laplace(1.0).epsilon(0.0), "delta"),
    (lambda: PrivacyLoss.gaussian(1.0).pdp_epsilon(1e-300, eps_max=10.0), "delta_prime"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_one_privacy_loss_type_in_the_package():
    """The law of the loss exists once: no class in lib/ other than PrivacyLoss offers a law's cdf, and none of the
    names below (earlier shapes of it) is defined."""
    gone = ["MembershipLoss", "LatticeLoss", "laplace_privacy_loss", "gaussian_privacy_loss",
            "randomized_response_privacy_loss", "composed_randomized_response_loss", "finite_loss",
            "mechanism_pdp_delta", "mechanism_pdp_epsilon", "disclosure.PrivacyLoss"]
    law_classes = []
    for path in LIB.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found = [name for name in gone if name in text]
        assert not found, f"{path.relative_to(LIB)} still names {found}"
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                methods = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
                if {"cdf", "ppf"} <= methods or {"cdf", "sf"} <= methods:
                    law_classes.append(f"{path.relative_to(LIB)}:{node.name}")
    assert law_classes == ["privacy_loss.py:PrivacyLoss"]
