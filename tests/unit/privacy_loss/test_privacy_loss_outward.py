"""Every number :class:`dpsemantics.privacy_loss.PrivacyLoss` returns for a guarantee is on the safe side of the
exact value, on grids that sit on the worst cases, and bad input is refused by name.

The references are written here from the mechanisms' definitions, in mpmath (60 digits, more where a difference
cancels), and never import the package: the Laplace profile and tails by integrating the output densities in
closed form, the Gaussian profile by Balle & Wang (2018, Theorem 8) and its tails by the normal law of the loss,
randomized response by the binomial sum, the two-sided geometric mechanism by its output classes, finite pairs
by Σ (p − e^ε q)₊ over the exact float rows (Kazan et al., Theorem A.2, eq. (32)) and by their tails
max(P[|Z| > ε], Q[|Z′| > ε]) (Definition 2.4).

Every check asserts the *direction*: ``delta(ε)`` and ``pdp_delta(ε)`` are never below the exact profile or tail;
the ε returned by ``epsilon(δ)`` and ``pdp_epsilon(δ′)`` satisfies the guarantee exactly (the exact profile or
tail at it is at most δ, resp. δ′), so it is never below the exact smallest ε.  The grids sit on the worst cases:
ε a few ulps below an atom of the loss (where p − e^ε q cancels), ε near 0 and up to 700, δ down to 1e-300, σ
from 1e-6 to 1e6.
"""

from __future__ import annotations

import math
import warnings

import mpmath as mp
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dpsemantics.privacy_loss import PrivacyLoss



@pytest.fixture(autouse=True)
def _sixty_digits():
    """60-digit mpmath in this module's tests only (a global setting leaked into other modules' mpmath tests)."""
    with mp.workdps(60):
        yield

# ------------------------------------------------------------------------------------------------ references


def finite_profile(P, Q, eps):
    """max over both orders of Σ (p − e^ε q)₊, exactly (the float rows and ε as given)."""
    e = mp.exp(mp.mpf(eps))
    side = lambda A, B: sum(max(mp.mpf(a) - e * mp.mpf(b), 0) for a, b in zip(A, B))  # noqa: E731
    return max(side(P, Q), side(Q, P))


def finite_losses(P, Q):
    """The exact finite losses ±log(p/q) of the outputs both rows can produce."""
    return [abs(mp.log(mp.mpf(a)) - mp.log(mp.mpf(b))) for a, b in zip(P, Q) if a > 0 and b > 0]


def laplace_profile(e0, e):
    """Hockey stick of Lap(0, 1/ε₀) against Lap(1, 1/ε₀) at ε, by integrating the densities: on y ≤ 0 the ratio
    is e^{ε₀} (mass ½); on (0, y₀), y₀ = (1 − ε/ε₀)/2, the ratio e^{ε₀(1 − 2y)} exceeds e^ε."""
    e0, e = mp.mpf(e0), mp.mpf(e)
    if e >= e0:
        return mp.mpf(0)
    y0 = (1 - e / e0) / 2
    return ((1 - mp.exp(e - e0)) / 2 + (1 - mp.exp(-e0 * y0)) / 2
            - mp.exp(e - e0) * (mp.exp(e0 * y0) - 1) / 2)


def laplace_tail(e0, t):
    """P[|Z| > t] for the Laplace loss Z = ε₀(|y − 1| − |y|), y ~ Lap(0, 1/ε₀)."""
    e0, t = mp.mpf(e0), mp.mpf(t)
    if t >= e0:
        return mp.mpf(0)
    a, b = (1 - t / e0) / 2, (1 + t / e0) / 2  # |Z| > t ⇔ y < a or y > b
    cdf = lambda y: mp.exp(e0 * y) / 2 if y < 0 else 1 - mp.exp(-e0 * y) / 2  # noqa: E731
    return cdf(a) + 1 - cdf(b)


def gaussian_profile(e, sigma):
    """Balle & Wang (2018), Theorem 8, at 300 digits (the two terms cancel)."""
    with mp.workdps(300):
        s, e = mp.mpf(sigma), mp.mpf(e)
        return mp.ncdf(1 / (2 * s) - e * s) - mp.exp(e) * mp.ncdf(-1 / (2 * s) - e * s)


def gaussian_tail(sigma, t):
    """P[|Z| > t] for Z ~ N(μ, 2μ), μ = 1/(2σ²)."""
    with mp.workdps(100):
        mu = 1 / (2 * mp.mpf(sigma) ** 2)
        sd, t = mp.sqrt(2 * mu), mp.mpf(t)
        return mp.ncdf((mu - t) / sd) + mp.ncdf((-t - mu) / sd)


def rr_law(e0, k):
    """The atoms ε₀(2j − k) and masses Binomial(k, e^ε₀/(1 + e^ε₀)) of k randomized responses, exactly."""
    e0 = mp.mpf(e0)
    p = mp.exp(e0) / (1 + mp.exp(e0))
    return [(e0 * (2 * j - k), mp.binomial(k, j) * p**j * (1 - p) ** (k - j)) for j in range(k + 1)]


def rr_profile(e0, k, e):
    return sum(w * (1 - mp.exp(mp.mpf(e) - z)) for z, w in rr_law(e0, k) if z > e)


def rr_tail(e0, k, t):
    return sum(w for z, w in rr_law(e0, k) if abs(z) > t)


def geometric_classes(e0, d):
    """(P-mass, Q-mass) of the output classes of the two-sided geometric mechanism between the counts 0 and d:
    y ≤ 0, y ≥ d and each y in 1..d−1, from the pmf (1 − a)/(1 + a)·a^|j|, a = e^{−ε₀/d}."""
    a = mp.exp(-mp.mpf(e0) / d)
    c = (1 - a) / (1 + a)
    return ([(1 / (1 + a), a**d / (1 + a)), (a**d / (1 + a), 1 / (1 + a))]
            + [(c * a**y, c * a ** (d - y)) for y in range(1, d)])


def geometric_profile(e0, d, e):
    E = mp.exp(mp.mpf(e))
    classes = geometric_classes(e0, d)
    side = lambda pairs: sum(max(p - E * q, 0) for p, q in pairs)  # noqa: E731
    return max(side(classes), side([(q, p) for p, q in classes]))


def below(x):
    """The floats just below x (where a hockey-stick term p − e^ε q cancels)."""
    x = float(x)
    return [x, math.nextafter(x, 0), math.nextafter(math.nextafter(x, 0), 0), x * (1 - 1e-13)]


# ------------------------------------------------------------------------------------------------ 1. direction

NEAR_TIES = [([0.6, 0.4], [0.4, 0.6]), ([0.9, 0.1], [0.1, 0.9]), ([0.7, 0.3], [0.2, 0.8]),
             ([1e-300, 1 - 1e-300], [3e-300, 1 - 3e-300]), ([0.5, 0.5], [0.5 + 2**-53, 0.5 - 2**-53]),
             ([0.5, 0.25, 0.25, 0.0], [0.25, 0.25, 0.0, 0.5])]


@pytest.mark.parametrize("P, Q", NEAR_TIES)
def test_finite_profile_never_below_the_exact_one_at_near_ties(P, Q):
    # broke: P = (0.9, 0.1), Q = (0.1, 0.9) at the float ε nearest log 9 gave delta 0.0, exact 2.09e-16
    loss = PrivacyLoss.finite(P, Q)
    for z in finite_losses(P, Q):
        for eps in [0.0, *below(z), math.nextafter(float(z), 1)]:
            assert loss.delta(eps) >= finite_profile(P, Q, eps), (P, Q, eps)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.floats(1e-300, 1.0), min_size=2, max_size=5), st.lists(st.floats(1e-300, 1.0), min_size=2,
       max_size=5), st.integers(0, 3))
@example([0.9, 0.1], [0.1, 0.9], 1)
@example([1e-300, 1.0], [3e-300, 1.0], 1)
def test_finite_profile_direction_at_every_loss_value(p, q, ulps):
    n = min(len(p), len(q))
    P = np.array(p[:n]) / sum(p[:n])
    Q = np.array(q[:n]) / sum(q[:n])
    loss = PrivacyLoss.finite(P, Q)
    for z in finite_losses(P, Q):
        eps = float(z)
        for _ in range(ulps):
            eps = math.nextafter(eps, 0)
        assert loss.delta(eps) >= finite_profile(P, Q, eps)
        e = loss.epsilon(1e-12)
        assert finite_profile(P, Q, e) <= 1e-12


@pytest.mark.parametrize("e0", [5e-324, 1e-300, 1e-12, 1e-3, 0.1, 1.0, 10.0, 50.0, 700.0, 1e6])
def test_laplace_profile_and_inverses_on_the_safe_side(e0):
    # broke: laplace(1).delta(0) = 0.3934693402873666 < 1 − e^{−1/2} (round-to-nearest), and
    # laplace(700).pdp_epsilon(δ′) raised "delta_prime is too small" for every δ′ (search stopped at 200)
    loss = PrivacyLoss.laplace(e0)
    for eps in [0.0, e0 / 2, *below(e0), e0]:
        assert loss.delta(eps) >= laplace_profile(e0, eps), eps
    for d in [1e-300, 1e-16, 1e-6, 0.3, 0.999999]:
        assert laplace_profile(e0, loss.epsilon(d)) <= d
        e_prime = loss.pdp_epsilon(d)
        assert laplace_tail(e0, e_prime) <= d
        assert e_prime <= e0 * (1 + 1e-12) + 1e-13  # P[|Z| > ε₀] = 0: not vacuous (bisection to 1e-13)


@pytest.mark.parametrize("sigma", [1e-3, 0.1, 1.0, 10.0, 1e3, 1e6])
def test_gaussian_profile_and_inverses_on_the_safe_side(sigma):
    # broke: gaussian(1).delta(1) = 0.12693673750664386, below the exact 0.126936737506643866…;
    # gaussian(0.001).pdp_epsilon(0.5) raised although ε′ ≈ 5e5 exists
    loss = PrivacyLoss.gaussian(sigma)
    for eps in [0.0, 1e-6, 0.5, 1.0, 5.0, 50.0, 700.0]:
        exact = gaussian_profile(eps, sigma)
        if exact > mp.mpf("1e-300"):
            assert loss.delta(eps) >= exact, eps
    for d in [1e-300, 1e-100, 1e-20, 1e-9, 1e-3, 0.5]:
        e = loss.epsilon(d)
        assert math.isfinite(e) and gaussian_profile(e, sigma) <= d
        assert gaussian_tail(sigma, loss.pdp_epsilon(d)) <= d


@pytest.mark.parametrize("e0, k", [(1.0, 1), (0.1, 10), (2.0, 50), (50.0, 3), (1e-3, 200)])
def test_randomized_response_on_the_safe_side(e0, k):
    # broke: randomized_response(0.1, 10).pdp_epsilon(1e-300) = 1.0, the float atom 0.1·10, below the exact
    # largest loss 10·fl(0.1) = 1.0000000000000000555 (P[|Z| > 1.0] = 0.0022 > 1e-300)
    loss = PrivacyLoss.randomized_response(e0, k)
    for eps in [0.0, e0, *below(e0 * k), *below(abs(e0 * (k - 2)))]:
        assert loss.delta(eps) >= rr_profile(e0, k, eps), eps
    for d in [1e-300, 1e-20, 1e-9, 1e-3]:
        e = loss.epsilon(d)
        assert math.isinf(e) or rr_profile(e0, k, e) <= d
        assert rr_tail(e0, k, loss.pdp_epsilon(d)) <= d


def test_many_randomized_responses_pdp_epsilon_on_the_safe_side():
    # broke: scipy's binom.logpmf is off by ~20·k ulps; randomized_response(0.3, 10**5).pdp_epsilon(δ′) at
    # δ′ = 5.885021422788781e-16 returned 5216.4 where the exact tail P[|Z| > 5216.4] is 5.88502142291e-16 > δ′
    # (the exact ε′ is the next atom, 5217.0)
    e0, k = 0.3, 10**5
    p = mp.exp(mp.mpf(e0)) / (1 + mp.exp(mp.mpf(e0)))
    log_mass = lambda j: (mp.loggamma(k + 1) - mp.loggamma(j + 1) - mp.loggamma(k - j + 1)  # noqa: E731
                          + j * mp.log(p) + (k - j) * mp.log(1 - p))
    j0 = 58694  # the atom 0.3·(2·58694 − k) = 5216.4 (float), 8 standard deviations above the mean
    upper_tail = lambda t: mp.fsum(mp.exp(log_mass(j)) for j in range(j0 - 3, j0 + 1500)  # noqa: E731
                                   if mp.mpf(e0) * (2 * j - k) > t)  # the lower tail is below 1e-2000
    loss = PrivacyLoss.randomized_response(e0, k)
    for delta_prime in [5.885021422788781e-16, float(upper_tail(5216.4)) * (1 + 1e-9), 6.4818134797e-90]:
        assert upper_tail(loss.pdp_epsilon(delta_prime)) <= delta_prime


@pytest.mark.parametrize("e0, k", [pytest.param(0.01, 10**9, marks=pytest.mark.slow), (2.0, 10**6), (0.3, 10**5)])
def test_randomized_response_masses_within_the_tail_allowance(e0, k):
    # the tails' allowance is derived (_binomial.log_mass_error, Loader's masses; it replaced 64·k ulps
    # measured for scipy's binom.logpmf, up to 34·k ulps off after normalisation at k = 1e9): the normalised masses
    # are within it (tests/unit/test_binomial.py checks the log masses against their bound one by one)
    loss = PrivacyLoss.randomized_response(e0, k)
    p = mp.exp(mp.mpf(e0)) / (1 + mp.exp(mp.mpf(e0)))
    total = mp.fsum(mp.mpf(w) for w in loss.weights)
    normal = np.flatnonzero(loss.weights > 1e-290)  # subnormal masses carry no relative accuracy (δ′ ≥ 1e-290)
    for i in normal[np.linspace(0, normal.size - 1, 9).astype(int)]:
        j = round((loss.atoms[i] / e0 + k) / 2)
        exact = mp.exp(mp.loggamma(k + 1) - mp.loggamma(j + 1) - mp.loggamma(k - j + 1)
                       + j * mp.log(p) + (k - j) * mp.log(1 - p))
        # normalised masses (the law divides by their sum) within the tails' allowance
        assert abs(loss.weights[i] / total / exact - 1) <= loss._tail_error, (j, loss.weights[i] / exact)


@pytest.mark.parametrize("e0, d", [(1.0, 1), (0.5, 3), (1e-3, 1000), (10.0, 1000), (700.0, 5), (1.0, 1000)])
def test_geometric_profile_on_the_safe_side(e0, d):
    # broke (while fixing the overflow below): masses a**Δ carry Δ ulps; at (1, 1000) the profile a few ulps
    # below ε = 1 was 0.0 where the exact value is 5.6e-17
    loss = PrivacyLoss.geometric(e0, d)
    for y in [0, 1, d - 1]:
        for eps in [0.0, e0 * 0.3, *below(abs(e0 * (d - 2 * y) / d))]:
            assert loss.delta(eps) >= geometric_profile(e0, d, eps), eps
    for delta in [1e-300, 1e-20, 1e-3]:
        e = loss.epsilon(delta)
        assert math.isinf(e) or geometric_profile(e0, d, e) <= delta


def test_geometric_at_the_float_maximum_has_no_overflow():
    # broke: geometric(1.7e308) raised RuntimeWarning: overflow encountered in exp (the Q-masses w·e^{−z})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loss = PrivacyLoss.geometric(1.7e308)
        assert loss.delta(0.0) == 1.0
        assert loss.epsilon(1e-9) >= 1.7e308  # inf: safe (the masses e^{−ε} underflow, the law looks disjoint)
        assert loss.pdp_epsilon(1e-9) >= 1.7e308


def test_pdp_epsilon_with_infinite_loss_is_inf_and_eps_max_still_errs():
    loss = PrivacyLoss.finite([0.5, 0.5, 0.0], [0.25, 0.25, 0.5])  # dual: Z′ = +∞ with probability ½
    assert loss.pdp_epsilon(1e-3) == math.inf and loss.epsilon(1e-3) == math.inf
    with pytest.raises(ValueError, match="eps_max"):
        loss.pdp_epsilon(1e-3, eps_max=10.0)


# ------------------------------------------------------------------------------------------------ 2. consistency

LAWS = [PrivacyLoss.laplace(0.7), PrivacyLoss.gaussian(1.3), PrivacyLoss.geometric(0.9, 4),
        PrivacyLoss.randomized_response(0.3, 20), PrivacyLoss.finite([0.5, 0.3, 0.2, 0.0], [0.1, 0.3, 0.3, 0.3])]


@pytest.mark.parametrize("loss", LAWS, ids=lambda loss: loss.name)
def test_law_is_consistent(loss):
    ts = np.array([-5.0, -0.7, -0.2, 0.0, 0.2, 0.35, 0.7, 1.5, 5.0])
    for side in [loss, loss.dual]:
        assert np.allclose(side.cdf(ts) + side.sf(ts), 1.0, atol=1e-14)
        assert side.dual.dual is side
        if side.atoms is not None:
            finite = side.atoms[np.isfinite(side.atoms)]
            cum = side.cdf(finite)
            assert np.array_equal(side.ppf(cum), finite)  # the quantile of an atom's cdf is that atom
            assert np.array_equal(side.isf(side.sf(finite)), finite)
        else:
            for q in [1e-9, 0.1, 0.5, 0.9]:
                t = side.ppf(q)
                assert side.cdf(t) == pytest.approx(q, rel=1e-9) or side.cdf_left(t) <= q <= side.cdf(t)
    eps = np.array([0.0, 0.1, 0.5, 2.0])
    assert np.array_equal(loss.delta(eps), np.maximum(loss.hockey_stick(eps), loss.dual.hockey_stick(eps)))


BRACKETED = [(PrivacyLoss.laplace(0.7), lambda e: laplace_profile(0.7, e)),
             (PrivacyLoss.gaussian(1.3), lambda e: gaussian_profile(e, 1.3)),
             (PrivacyLoss.geometric(0.9, 4), lambda e: geometric_profile(0.9, 4, e)),
             (PrivacyLoss.randomized_response(0.3, 20), lambda e: rr_profile(0.3, 20, e))]


@pytest.mark.parametrize("P, Q", [([1e-300, 1 - 1e-300], [3e-300, 1 - 3e-300]), ([0.3, 0.7], [0.6, 0.4])])
def test_discrete_quantile_reaches_q(P, Q):
    # broke: finite([1e-300, 1], [3e-300, 1]).ppf(2e-300) was the atom −log 3, whose cdf is 1e-300 < 2e-300
    # (ppf searched for q − 1e-15); also ppf(0.30000000000000004) of the second pair
    loss = PrivacyLoss.finite(P, Q)
    for q in [2 * P[0], math.nextafter(P[0], 1), P[0], 1e-310, 0.5, 1.0]:
        t = loss.ppf(q)
        assert loss.cdf(t) >= q and loss.cdf_left(t) < q or q <= loss.cdf(loss.atoms[0]) == loss.cdf(t)


@pytest.mark.parametrize("loss, exact", BRACKETED, ids=lambda x: getattr(x, "name", ""))
def test_lattice_bracket_contains_the_exact_profile(loss, exact):
    pld = loss.lattice(1e-3)
    for eps in [0.0, 0.2, 0.5]:
        low, high = pld.delta_bounds(eps)
        assert low <= exact(eps) <= high and pld.delta(eps) >= exact(eps)
        assert low <= loss.delta(eps) and high >= exact(eps)


# ------------------------------------------------------------------------------------------------ 3. bad input

NOT_A_NUMBER = [math.nan, "1", 1j, True]
SCALAR_ONLY = [np.array([0.1, 0.2]), [0.5, 0.5], [[0.5]], None]  # None: no default there
POSITIVE = [math.inf, -math.inf, -1.0, 0.0, 10**400]  # 10**400 overflows a float: an error, not inf
PROBABILITY = [-1.0, -5e-324, 1.0000000000000002, 1.7e308, 10**400, math.inf]
LAW = PrivacyLoss.laplace(1.0)
FINITE = PrivacyLoss.finite([0.5, 0.5, 0.0], [0.25, 0.25, 0.5])

CASES = [
    ("eps", PrivacyLoss.laplace, NOT_A_NUMBER + SCALAR_ONLY + POSITIVE),
    ("eps", PrivacyLoss.randomized_response, NOT_A_NUMBER + SCALAR_ONLY + POSITIVE),
    ("k", lambda v: PrivacyLoss.randomized_response(1.0, v),
     NOT_A_NUMBER + SCALAR_ONLY + [0, -1, 1.5, 10**10, 10**400]),
    ("sigma", PrivacyLoss.gaussian, NOT_A_NUMBER + SCALAR_ONLY + POSITIVE + [5e-324]),
    ("sensitivity", lambda v: PrivacyLoss.gaussian(1.0, v), NOT_A_NUMBER + SCALAR_ONLY + POSITIVE),
    ("eps", PrivacyLoss.geometric, NOT_A_NUMBER + SCALAR_ONLY + POSITIVE),
    ("sensitivity", lambda v: PrivacyLoss.geometric(1.0, v), NOT_A_NUMBER + [None, 0, 2.5, 10**7, 10**400]),
    ("row_present", lambda v: PrivacyLoss.finite(v, [0.5, 0.5]),
     [math.nan, "1", None, [2.0, -1.0], [0.5, math.nan], [0.5, 0.6], [0.5]]),
    ("delta", LAW.epsilon, NOT_A_NUMBER + SCALAR_ONLY + PROBABILITY + [0.0]),
    ("delta_prime", LAW.pdp_epsilon, NOT_A_NUMBER + SCALAR_ONLY + PROBABILITY + [0.0]),
    ("eps_max", lambda v: LAW.pdp_epsilon(0.1, eps_max=v), NOT_A_NUMBER + SCALAR_ONLY[:3] + [-1.0, 0.0, 10**400]),
    ("eps", LAW.delta, NOT_A_NUMBER + [-1.0, -5e-324, math.inf, [0.1, -1.0]]),
    ("eps", FINITE.pdp_delta, NOT_A_NUMBER + [-1.0, [0.1, math.nan]]),
    ("q", LAW.ppf, NOT_A_NUMBER + PROBABILITY),
    ("alpha", FINITE.isf, NOT_A_NUMBER + PROBABILITY),
    ("t", FINITE.cdf, NOT_A_NUMBER),
    ("h", FINITE.lattice, NOT_A_NUMBER + [-1.0, 0.0, math.inf]),  # None: the default step
]


@pytest.mark.parametrize("name, call, values", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_a_value_error_naming_the_parameter(name, call, values):
    for v in values:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a warning on the way is a defect too
            with pytest.raises(ValueError, match=rf"\b{name}\b"):
                call(v)


EXTREME_LAWS = [  # k = 10⁹, the largest k, takes seconds: make test-fast has k = 10⁶ (the same windowed path, k > 1000)
    ("laplace", 5e-324), ("laplace", 1.7e308), ("gaussian", 1e-150), ("gaussian", 1e150),
    pytest.param(("randomized_response", 1e-300, 10**9), marks=pytest.mark.slow),
    ("randomized_response", 1e-300, 10**6),
    ("randomized_response", 1.7e308, 3), ("geometric", 1e-300, 1000), ("finite",)]


@pytest.mark.parametrize("law", EXTREME_LAWS, ids=lambda law: "-".join(map(str, law)))
def test_extreme_legal_input_gives_numbers_without_warnings(law):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loss = FINITE if law[0] == "finite" else getattr(PrivacyLoss, law[0])(*law[1:])
        for d in [5e-324, 1e-300, 0.5]:
            assert loss.epsilon(d) >= 0.0 and loss.pdp_epsilon(d) >= 0.0
        for e in [0.0, 5e-324, 1.0, 1.7e308]:
            assert 0.0 <= loss.delta(e) <= 1.0 and 0.0 <= loss.pdp_delta(e) <= 1.0
        assert np.all(np.isfinite(loss.sf([-1.7e308, 0.0, 1.7e308])))


@pytest.mark.parametrize("eps, d", [(5e-324, 3), (5e-324, 2), (1e-323, 10**6)])
def test_geometric_refuses_an_eps_whose_quotient_underflows_with_the_callers_value(eps, d):
    # the refusal names the caller's ε and Δ, not the quotient ε/Δ that underflowed inside the pmf
    with pytest.raises(ValueError, match=rf"eps.*sensitivity={d}.*got eps={eps!r}\)"):
        PrivacyLoss.geometric(eps, d)
    assert PrivacyLoss.geometric(eps, 1).pdp_delta(0.0) > 0  # Δ = 1 needs no quotient: accepted


@pytest.mark.parametrize("sigma, sensitivity", [(0.7, 1.0), (3.0, 1.0), (1e-5, 3.0), (2.0, 0.3), (4e-6, 1.0)])
def test_gaussian_privacy_loss_profile_is_never_below_the_exact_one(sigma, sensitivity):
    with mp.workdps(80):
        r = mp.mpf(sensitivity) / mp.mpf(sigma)
        rf = float(r)
        eps = [float(rf * rf / 2 + x * rf) for x in (-0.4, 0.0, 0.5, 1.5, 4.0, 9.0, 20.0, 35.0)]
        eps = [e for e in eps if e >= 0] + [0.0, 0.25]
        got = np.asarray(PrivacyLoss.gaussian(sigma, sensitivity).delta(np.array(eps)), dtype=float)
        for e, g in zip(eps, got):
            exact = gaussian_profile(e, 1 / r)  # σ/Δ: the profile at the ratio r = Δ/σ
            assert g >= exact, (e, g, float(exact))
            if exact > 1e-300:
                assert g <= exact * (1 + 1e-8)  # 2e-12 + 2u·r·φ(a)/δ: 2e-9 at r = 3e5


def _random_pairs(n_pairs=40, size=6, seed=23):
    """Seeded pairs whose losses are small (P ≈ Q: the floats log a − log b cancel) or large (masses down to 1e-30)."""
    rng = np.random.default_rng(seed)
    for i in range(n_pairs):
        p = rng.dirichlet(np.ones(size))
        q = p * np.exp(rng.normal(scale=1e-6 if i % 2 else 3.0, size=size))
        yield p / p.sum(), q / q.sum()


def ref_pdp_delta(p, q, eps) -> mp.mpf:
    """Kazan et al., Definition 2.4: max(P[|Z| > ε], Q[|Z′| > ε]) with Z = log(P/Q) at 60 digits (the masses as the
    floats given; outputs impossible under one row have an infinite loss)."""
    with mp.workdps(60):
        e, tail_p, tail_q = mp.mpf(eps), mp.mpf(0), mp.mpf(0)
        for a, b in zip(p, q):
            z = mp.inf if b == 0 else (-mp.inf if a == 0 else mp.log(mp.mpf(a) / mp.mpf(b)))
            if abs(z) > e:
                tail_p, tail_q = tail_p + mp.mpf(a), tail_q + mp.mpf(b)
        return max(tail_p, tail_q)


def test_finite_pair_pdp_delta_is_never_below_the_exact_tail_at_its_atoms():
    # at ε equal to an atom's float (and to the float log a − log b), the atoms whose exact modulus is above it count
    below = []
    for p, q in _random_pairs():
        loss = PrivacyLoss.finite(p, q)
        with mp.workdps(60):
            correct = [float(mp.log(mp.mpf(a) / mp.mpf(b))) for a, b in zip(p, q)]
        with np.errstate(divide="ignore"):
            naive = list(np.abs(np.log(p) - np.log(q)))
        eps = sorted({abs(e) for e in correct + naive if math.isfinite(e)})
        got = np.asarray(loss.pdp_delta(np.array(eps)), dtype=float)
        for e, g in zip(eps, got):
            exact = ref_pdp_delta(p, q, e)
            if g < exact * (1 - 1e-9):  # a missing atom, not the tails' 1e-12 allowance
                below.append((e, g, float(exact)))
    assert not below, below[:5]
