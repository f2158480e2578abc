"""Mechanisms: exact profiles checked against numerical integration, mpmath and brute force."""

import itertools

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from dpsemantics import mechanisms as mech


def integrated_delta(p_pdf, q_pdf, eps, points):
    """δ(ε) = ∫ max(0, p(y) − e^ε q(y)) dy, the continuous hockey stick, by quadrature."""
    f = lambda y: max(0.0, p_pdf(y) - np.exp(eps) * q_pdf(y))
    total = 0.0
    for a, b in zip(points[:-1], points[1:]):
        total += integrate.quad(f, a, b, epsabs=1e-13, epsrel=1e-12, limit=200)[0]
    return total


@pytest.mark.parametrize("eps_mech", [0.1, 1.0, 3.0])
@pytest.mark.parametrize("eps", [0.0, 0.05, 0.5, 2.0])
def test_laplace_profile_matches_integration(eps_mech, eps):
    b = 1.0 / eps_mech
    p, q = stats.laplace(0, b).pdf, stats.laplace(1, b).pdf
    expected = max(integrated_delta(p, q, eps, [-60 * b, 0, 1, 60 * b + 1]),
                   integrated_delta(q, p, eps, [-60 * b, 0, 1, 60 * b + 1]))
    assert mech.laplace_delta(eps, eps_mech) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("sigma", [0.3, 1.0, 4.0])
@pytest.mark.parametrize("eps", [0.0, 0.3, 1.0, 3.0])
def test_gaussian_profile_matches_integration(sigma, eps):
    p, q = stats.norm(0, sigma).pdf, stats.norm(1, sigma).pdf
    pts = [-40 * sigma, 0.5 - 5 * sigma, 0.5 + 5 * sigma, 40 * sigma + 1]
    assert mech.gaussian_delta(eps, sigma) == pytest.approx(integrated_delta(p, q, eps, pts), abs=1e-9)


@pytest.mark.parametrize("sigma, eps, sens", [(1.0, 1.0, 1.0), (3.7, 1.0, 1.0), (0.5, 20.0, 1.0), (10.0, 0.01, 2.0),
                                              (1.0, 30.0, 1.0)])
def test_gaussian_profile_matches_mpmath(sigma, eps, sens):
    """Balle & Wang (2018) Thm 8 in 50-digit arithmetic; the float version must keep relative accuracy."""
    with mp.workdps(50):
        r = mp.mpf(sens) / sigma
        e = mp.mpf(eps)
        exact = mp.ncdf(r / 2 - e / r) - mp.e**e * mp.ncdf(-r / 2 - e / r)
    got = mech.gaussian_delta(eps, sigma, sens)
    assert got > 0
    assert abs(got - float(exact)) <= 1e-9 * float(exact)


def test_profiles_equal_expected_privacy_loss():
    """δ(ε) = E[(1 − e^{ε−L})₊] for the privacy-loss variable L (Kazan et al., Def. 2.2), with each law written
    here: a second route to the closed forms."""
    for eps in (0.0, 0.2, 0.7):
        # randomized response with ε_rr = 1: L = ±1 with probabilities e/(1 + e), 1/(1 + e)
        vals, probs = np.array([1.0, -1.0]), np.array([np.e / (1 + np.e), 1 / (1 + np.e)])
        assert mech.randomized_response_delta(eps, 1.0) == pytest.approx(
            np.sum(probs * np.clip(1 - np.exp(eps - vals), 0, None)), abs=1e-14)
        # Gaussian with σ = 1.3: L ~ N(μ, 2μ), μ = 1/(2σ²)
        mu = 1 / (2 * 1.3**2)
        L = stats.norm(mu, np.sqrt(2 * mu))
        expected = integrate.quad(lambda t: L.pdf(t) * max(0.0, 1 - np.exp(eps - t)), eps, L.mean() + 40 * L.std(),
                                  epsabs=1e-13)[0]
        assert mech.gaussian_delta(eps, 1.3) == pytest.approx(expected, abs=1e-10)
        # Laplace with ε₀ = 1.5 between centres 0 and 1: L(y) = ε₀(|y − 1| − |y|), y ~ Lap(0, 1/ε₀), over the output
        e0 = 1.5
        term = lambda y: 0.5 * e0 * np.exp(-e0 * abs(y)) * max(0.0, 1 - np.exp(eps - e0 * (abs(y - 1) - abs(y))))  # noqa: E731
        expected = sum(integrate.quad(term, a, b, epsabs=1e-14, limit=200)[0]
                       for a, b in [(-np.inf, 0.0), (0.0, 1.0), (1.0, np.inf)])
        assert mech.laplace_delta(eps, e0) == pytest.approx(expected, abs=1e-10)


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.5])
def test_randomized_response_profile_closed_form(eps):
    rr = mech.randomized_response(eps)
    keep = np.exp(eps) / (1 + np.exp(eps))
    for e in (0.0, eps / 3, eps, 2 * eps):
        expected = max(0.0, keep - np.exp(e) * (1 - keep))  # event {the reported bit equals the true bit}
        assert rr.delta(e) == pytest.approx(expected, abs=1e-14)
        assert mech.randomized_response_delta(e, eps) == pytest.approx(expected, abs=1e-14)
    assert rr.epsilon() == pytest.approx(eps)


@pytest.mark.parametrize("n, eps", [(1, 0.5), (2, 1.0), (3, 0.3)])
def test_geometric_count_is_exactly_eps_dp(n, eps):
    g = mech.geometric_count(n, eps)
    assert g.epsilon() == pytest.approx(eps)
    # exactly ε-DP in the mathematics; the float rows' ratios may exceed e^ε by an ulp, and the profile is rounded up
    assert g.delta(eps) == pytest.approx(0.0, abs=4e-15)
    assert g.delta(0.9 * eps) > 0
    # group of n records: exactly nε between the all-zeros and the all-ones database
    far = np.max(np.abs(np.log(g.row((0,) * n)) - np.log(g.row((1,) * n))))
    assert far == pytest.approx(n * eps)


def test_two_sided_geometric_pmf_sums_to_one():
    k = np.arange(-400, 401)
    assert mech.two_sided_geometric_pmf(k, 0.3).sum() == pytest.approx(1.0, abs=1e-12)


def test_local_randomized_response_is_eps_dp_per_record():
    m = mech.local_randomized_response(3, 0.8)
    assert m.matrix.shape == (8, 8)
    assert m.epsilon() == pytest.approx(0.8)


def test_compose_adds_pure_epsilons():
    both = mech.randomized_response(0.4).compose(mech.randomized_response(0.9))
    assert both.epsilon() == pytest.approx(1.3)


def test_name_and_shame_is_zero_delta_dp_and_exposes():
    n, d = 3, 0.07
    m = mech.name_and_shame(n, d)
    assert m.delta(0.0) == pytest.approx(d)
    assert m.epsilon() == np.inf
    # exposure: brute force over which records are published
    exposed = sum(
        np.prod([d if s else 1 - d for s in shown]) for shown in itertools.product((0, 1), repeat=n) if any(shown)
    )
    assert mech.name_and_shame_exposure(n, d) == pytest.approx(exposed)
    assert mech.name_and_shame_exposure(10.0, 1.0) == 1.0


@settings(max_examples=40, deadline=None)
@given(st.floats(0.05, 5.0), st.floats(1e-12, 0.2))
def test_gaussian_sigma_inverts_profile(eps, delta):
    s = mech.gaussian_sigma(eps, delta)
    assert mech.gaussian_delta(eps, s) == pytest.approx(delta, rel=1e-8)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: mech.randomized_response(-1), "eps"),
        (lambda: mech.geometric_count(0, 1.0), "n"),
        (lambda: mech.geometric_count(2, 0.0), "eps"),
        (lambda: mech.laplace_delta(1.0, 0.0), "eps_mech"),
        (lambda: mech.gaussian_delta(1.0, -2.0), "sigma"),
        (lambda: mech.gaussian_delta(float("nan"), 1.0), "eps"),
        (lambda: mech.gaussian_sigma(1.0, 0.0), "delta"),
        (lambda: mech.randomized_response_delta(1.0, -0.5), "eps_rr"),
        (lambda: mech.FiniteMechanism([[0.5, 0.6], [0.5, 0.5]]), "row 0 of matrix"),
        (lambda: mech.FiniteMechanism([[0.5, 0.5]], databases=["a", "b"]), "databases"),
        (lambda: mech.randomized_response(1.0).row(7), "database"),
        (lambda: mech.name_and_shame(2, 1.5), "delta"),
    ],
)
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_record_domain_accepts_full_grids_only():
    assert mech.local_randomized_response(2, 1.0).record_domain() == (2, [0, 1])
    partial = mech.FiniteMechanism([[1.0], [1.0], [1.0]], databases=[(0, 0), (0, 1), (1, 0)])
    with pytest.raises(ValueError, match="every database of D"):
        partial.record_domain()
    with pytest.raises(ValueError, match="tuples of one common length"):
        mech.randomized_response(1.0).record_domain()


def test_gaussian_sigma_broadcasts_and_equals_its_scalar_calls():
    """gaussian_sigma over arrays: every entry is its scalar call, bit for bit, on a grid that
    crosses the bulk, the tail, ε = 0, tiny and large sensitivities; each σ meets δ and is minimal to 1e-9."""
    eps = np.array([0.0, 1e-6, 0.01, 0.5, 1.0, 5.0, 30.0])[:, None, None]
    delta = np.array([0.5, 1e-3, 1e-6, 1e-12, 1e-100, 1e-300])[None, :, None]
    sens = np.array([1e-18, 1.0, 1e12])[None, None, :]
    with pytest.raises(ValueError, match="sigma"):  # Δ/δ = 1e312: σ beyond the float range
        mech.gaussian_sigma(eps, delta, sens)
    sens = sens[:, :, :2]
    sigma = mech.gaussian_sigma(eps, delta, sens)
    assert sigma.shape == (7, 6, 2)
    for i, j, m in np.ndindex(sigma.shape):
        e, d, s = float(eps[i, 0, 0]), float(delta[0, j, 0]), float(sens[0, 0, m])
        scalar = mech.gaussian_sigma(e, d, s)
        assert isinstance(scalar, float) and scalar == sigma[i, j, m]
        assert mech.gaussian_delta(e, scalar, s) <= d
        assert mech.gaussian_delta(e, scalar * (1 - 1e-9), s) > d
    with pytest.raises(ValueError, match="sensitivity"):
        mech.gaussian_sigma(np.ones(3), 1e-6, np.array([1.0, -1.0, 1.0]))
    with pytest.raises(ValueError, match="delta"):
        mech.gaussian_sigma(1.0, np.array([1e-6, 1.0]))
    with pytest.raises(ValueError, match="sigma is not a finite positive float for eps=0.0, delta=1e-320"):
        mech.gaussian_sigma(np.zeros(2), np.array([1e-6, 1e-320]), 1e10)  # σ ≈ Δ√(2π)/δ


def test_laplace_and_gaussian_densities_against_scipy_and_their_privacy_loss():
    """The noise densities the book draws on two neighbours: scipy.stats's Laplace and normal densities, total mass 1,
    and the Laplace log-ratio between neighbouring counts within ±ε (equal to ±ε outside [count, count + Δ])."""
    z = np.linspace(-12, 12, 97)
    for eps, sens in [(0.5, 1.0), (1.0, 2.0), (3.0, 0.5)]:
        got = mech.laplace_density(z, eps, sens)
        assert np.allclose(got, stats.laplace.pdf(z, scale=sens / eps), rtol=1e-13, atol=0)
        mass = 2 * integrate.quad(lambda v: mech.laplace_density(v, eps, sens), 0, np.inf)[0]
        assert mass == pytest.approx(1, rel=1e-9)
        loss = np.log(mech.laplace_density(z - sens, eps, sens) / got)
        assert np.all(np.abs(loss) <= eps * (1 + 1e-12))
        assert np.isclose(loss.max(), eps) and np.isclose(loss.min(), -eps)
    for sigma in (0.3, 1.0, 7.0):
        want = stats.norm.pdf(z, scale=sigma)
        normal = want > 1e-300  # below, both are subnormal numbers with few digits
        assert np.allclose(mech.gaussian_density(z, sigma)[normal], want[normal], rtol=1e-12, atol=0)
    assert mech.laplace_density(0.0, 1e300, 1e-300) == np.inf
    assert mech.laplace_density(1.0, 1e300, 1e-300) == 0.0
