"""Outward rounding (issue 40) of the last public numbers that were OPEN in tests/unit/test_outward_rounding.py's TABLE:
``composition.optimal_lattice``, ``conversions.profile_pdp_epsilon``, the PLD's ``tail_bounds``,
``tail_bounds_on_lattice`` and ``tilted_self_composition``, and disclosure's ``epsilon_for_profile``,
``composed_posterior_bound``, ``approximate_bounds``, ``DisclosureBounds.confidence``, ``epsilon_tilde`` and
``leave_thresholds``; and the σ of k Gaussian runs in the release model (``Gaussian.merge``, its k-fold loss).

The references are written here, apart from the package: exact rationals (``fractions.Fraction``) of the float
inputs, or mpmath at 80 digits, compared without tolerance.  Each seeded search asserts that it reaches inputs where
the same formula rounded to nearest falls on the unsafe side, so that it cannot pass by missing them.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from dpsemantics import composition, conversions, disclosure, pld
from dpsemantics.releases import Gaussian

RNG_SEED = 40


@pytest.fixture(autouse=True)
def _digits():
    with mp.workdps(80):
        yield


def mpf(x) -> mp.mpf:
    return mp.mpf(float(x))


# ---------------------------------------------------------------------------------- the σ of k Gaussian runs


def _exact_mu(parts) -> Fraction:
    return sum(k * Fraction(d) ** 2 / (2 * Fraction(s) ** 2) for k, s, d in parts)


def _mu_of(sigma) -> Fraction:
    return 1 / (2 * Fraction(sigma) ** 2)


def test_gaussian_merge_and_k_runs_sigma_is_rounded_down():
    """Gaussian.merge and the k-fold loss (``Gaussian.loss(k)``, ``profile_epsilon``): the one Gaussian that stands for
    the runs has 1/(2σ²) ≥ Σk_iΔ_i²/(2σ_i²) exactly, and σ is at most 4 ulps below 1/√(2μ)."""
    rng = np.random.default_rng(RNG_SEED)
    nearest_low = 0
    cases = [(3, 1e-5, 1.0, 7, 2.0, 1.0), (10**9, 0.3, 1.0, 1, 0.1, 0.7), (1, 2.0, 1.0, 1, 2.0, 1.0)]
    for _ in range(1500):
        cases.append((int(rng.integers(1, 10**6)), float(10 ** rng.uniform(-3, 3)), float(10 ** rng.uniform(-1, 1)),
                      int(rng.integers(1, 10**6)), float(10 ** rng.uniform(-3, 3)), float(10 ** rng.uniform(-1, 1))))
    for k, s1, d1, k2, s2, d2 in cases:
        g, h = Gaussian(s1, d1), Gaussian(s2, d2)
        if not (0 < _exact_mu([(k, s1, d1), (k2, s2, d2)]) < 1e11):
            continue
        merged, runs = g.merge(k, h, k2)
        want = _exact_mu([(k, s1, d1), (k2, s2, d2)])
        assert runs == 1 and merged.sensitivity == 1.0
        assert _mu_of(merged.sigma) >= want, (k, s1, d1, k2, s2, d2)
        assert _mu_of(math.nextafter(merged.sigma, math.inf)) < want  # the largest float that is safe
        exact_sigma = 1 / mp.sqrt(2 * mp.mpf(want.numerator) / want.denominator)
        assert mpf(merged.sigma) >= exact_sigma * (1 - mp.mpf(2) ** -50)
        # the k runs of one Gaussian (its loss, profile_epsilon and exact_threshold read this σ)
        one = g._sigma_of(k)
        assert _mu_of(one) >= _exact_mu([(k, s1, d1)])
        assert g.loss(k).rho() >= _exact_mu([(k, s1, d1)])
        assert Gaussian(s1)._sigma_of(1) == s1  # one run at Δ = 1 keeps its own σ
        # the float formula the release model used, rounded to nearest (the old merge)
        old = 1.0 / math.sqrt(2.0 * (k * g.mu + k2 * h.mu))
        nearest_low += _mu_of(old) < want
    assert nearest_low > 50  # the search reaches sums where the nearest σ was too large (μ a few ulps low)


# ---------------------------------------------------------------------------------- disclosure (Kazan et al.)


def logit_mp(p) -> mp.mpf:
    p = mpf(p)
    return mp.log(p) - mp.log1p(-p)


def eps_prime_mp(eps, delta, delta_prime) -> mp.mpf:
    """Theorem 3.9: ε′ = log(δ′e^ε + δ) − log(δ′ − δ), at the exact values of the floats (or mpf)."""
    e, d, dp = (v if isinstance(v, mp.mpf) else mpf(v) for v in (eps, delta, delta_prime))
    return e if d == 0 else mp.log(dp * mp.exp(e) + d) - mp.log(dp - d)  # δ = 0: ε′ = ε (Theorem 2.3)


def dp_eps_for_pdp_mp(eps_prime, delta, delta_prime) -> mp.mpf:
    """Theorem 3.9 inverted: ε = log(e^{ε′}(δ′ − δ) − δ) − log δ′."""
    d, dp = mpf(delta), mpf(delta_prime)
    return mp.log(mp.exp(eps_prime) * (dp - d) - d) - mp.log(dp)


def posterior_high_mp(p, eps) -> mp.mpf:
    p = mpf(p)
    return p / (p + (1 - p) * mp.exp(-eps))


def posterior_low_mp(p, eps) -> mp.mpf:
    p = mpf(p)
    return p / (p + (1 - p) * mp.exp(eps))


def test_epsilon_for_profile_is_never_above_the_exact_largest_epsilon():
    """The largest ε meeting every point of a disclosure-risk profile (Kazan et al., §4.3): the minimum over the
    points of Corollary 3.10(2) solved for ε (ε′ = logit(post) − logit(p), Theorem 3.9 inverted), each rounded down by
    ``epsilon_for_posterior``, so the minimum is never above the exact minimum."""
    rng = np.random.default_rng(RNG_SEED + 1)
    nearest_high = checked = 0
    cases = [([0.1, 0.3, 0.5], [0.2, 0.5, 0.7], 1e-6, 0.01), ([0.05], [0.5], 0.0, 0.05), ([1e-300], [0.9], 1e-9, 0.1)]
    for _ in range(1500):
        n = int(rng.integers(1, 6))
        priors = rng.uniform(0.001, 0.9, n)
        posts = priors + (1 - priors) * rng.uniform(0.01, 0.99, n)
        cases.append((list(priors), list(posts), float(10 ** rng.uniform(-12, -3)),
                      float(10 ** rng.uniform(-2.5, -0.5))))
    for priors, posts, delta, delta_prime in cases:
        each = [dp_eps_for_pdp_mp(logit_mp(m) - logit_mp(p), delta, delta_prime) for p, m in zip(priors, posts)]
        want = min(each)
        if not want > 0:
            continue
        try:
            got = disclosure.epsilon_for_profile(priors, posts, delta, delta_prime)
        except ValueError:  # a point within rounding of reaching no ε ≥ 0: refused, not overstated
            continue
        checked += 1
        assert mpf(got) <= want, (priors, posts, delta, delta_prime)
        assert mpf(got) >= want - mp.mpf(1e-12) * (1 + abs(want))  # still tight
        # the same formulas in floats, rounded to nearest
        lp = [math.log(m) - math.log1p(-m) - (math.log(p) - math.log1p(-p)) for p, m in zip(priors, posts)]
        plain = min(e + math.log1p(-(delta / delta_prime) * (1 + math.exp(-e))) for e in lp)
        nearest_high += mpf(plain) > want
    assert checked > 1000 and nearest_high > 50


@pytest.mark.parametrize("method", ["basic", "advanced", "optimal"])
def test_composed_posterior_bound_is_never_below_the_exact_bound(method):
    """Kazan et al., Figure 3: Corollary 3.10's upper posterior bound at Theorem 3.9's ε′ of the composed ε (Theorem
    2.8).  References: basic kε₀ and advanced kε₀(e^{ε₀} − 1) + ε₀√(2k log(1/δ)) exactly, then ε′ and the posterior in
    mpmath; "optimal" from the package's composed ε (never below the exact one: composition.optimal_epsilon's row),
    through the remaining steps in mpmath."""
    rng = np.random.default_rng(RNG_SEED + 2)
    nearest_low = 0
    n = 300 if method != "optimal" else 60
    for _ in range(n):
        prior = float(rng.uniform(0.001, 0.999))
        eps0 = float(10 ** rng.uniform(-3, -0.5))
        ks = rng.integers(1, 200, 3)
        delta = float(10 ** rng.uniform(-10, -4))
        delta_prime = float(10 ** rng.uniform(-2, -0.3))
        got = disclosure.composed_posterior_bound(prior, eps0, ks, delta, delta_prime, method)
        for g, k in zip(got, ks):
            k = int(k)
            if method == "basic":
                eps_prime = k * mpf(eps0)  # δ = 0: ε′ = ε
            elif method == "advanced":
                e = mpf(eps0)
                eps_prime = eps_prime_mp(k * e * mp.expm1(e) + e * mp.sqrt(2 * k * -mp.log(mpf(delta))), delta,
                                         delta_prime)
            else:
                eps_prime = eps_prime_mp(composition.optimal_epsilon(eps0, k, delta), delta, delta_prime)
            want = posterior_high_mp(prior, eps_prime)
            assert mpf(g) >= want, (prior, eps0, k, delta, delta_prime)
            assert mpf(g) <= want * (1 + mp.mpf(1e-12))
            plain = prior / (prior + (1 - prior) * math.exp(-float(eps_prime)))
            nearest_low += mpf(plain) < want
    assert nearest_low > n // 10


def test_approximate_bounds_are_outward_and_its_confidence_is_rounded_down():
    """Corollaries 3.10(2)–3.12(2) for an (ε, δ) release, field by field against mpmath at the exact ε′ of Theorem 3.9:
    ε′ never below it, the posterior and ratio bounds outward, the difference bound (tanh(ε′/4)) never below, and the
    confidence 1 − δ′ never above (exact rationals).  ``worst_prior_*`` are arguments (Lemma 3.4), not bounds."""
    rng = np.random.default_rng(RNG_SEED + 3)
    nearest = conf_high = 0
    cases = [(2.0, 1e-6, 0.01, 0.5), (1.0, 0.0, 0.05, 0.1), (0.5, 1e-3, 0.1, 0.9), (1.0, 1e-3, 0.01, 0.1)]
    for _ in range(600):
        cases.append((float(10 ** rng.uniform(-3, 1)), float(10 ** rng.uniform(-12, -3)), float(rng.uniform(0.01, 0.5)),
                      float(rng.uniform(0.001, 0.999))))
    for eps, delta, delta_prime, prior in cases:
        b = disclosure.approximate_bounds(eps, delta, delta_prime, prior)
        ep = eps_prime_mp(eps, delta, delta_prime)
        assert mpf(b.eps_prime) >= ep
        assert mpf(b.posterior_low) <= posterior_low_mp(prior, ep)
        assert mpf(b.posterior_high) >= posterior_high_mp(prior, ep)
        assert mpf(b.ratio_low) <= mp.exp(-ep) and mpf(b.ratio_high) >= mp.exp(ep)
        p = mpf(prior)
        assert mpf(b.prior_ratio_low) <= 1 / (p + (1 - p) * mp.exp(ep))
        assert mpf(b.prior_ratio_high) >= 1 / (p + (1 - p) * mp.exp(-ep))
        assert mpf(b.difference) >= mp.tanh(ep / 4)
        assert Fraction(b.confidence) <= 1 - Fraction(delta_prime)
        assert Fraction(b.confidence) >= 1 - Fraction(delta_prime) - Fraction(2) ** -53
        conf_high += Fraction(1.0 - delta_prime) > 1 - Fraction(delta_prime)
        plain_ep = math.log(delta_prime * math.exp(eps) + delta) - math.log(delta_prime - delta)
        nearest += (mpf(plain_ep) < ep) + (mpf(math.tanh(plain_ep / 4)) < mp.tanh(ep / 4))
    assert nearest > 50 and conf_high > 50  # the float 1 − δ′ lands above the exact one on many δ′


def epsilon_tilde_mp(eps) -> mp.mpf:
    """log(3e^{h} − 1) − log(3 − e^{h}), h = ε/2, as log1p(3(e^h − 1)/2) − log1p(−(e^h − 1)/2) (the same number;
    mpmath's expm1 keeps its 80 digits down to the smallest ε, where 3e^h − 1 would cancel them)."""
    m = mp.expm1(mpf(eps) / 2)
    return mp.log1p(3 * m / 2) - mp.log1p(-m / 2)


def test_epsilon_tilde_is_rounded_up_and_the_counterexample_down():
    """Theorem 3.5(2): the mechanism is (ε̃, δ)-PDP, so ε̃ is never below the exact value, up to the float just below
    2·log 3 (where 3 − e^{ε/2} cancels); Appendix A.6's mechanism is built at an ε̃ never above it (its posterior moves
    by at most tanh(ε/4)).  Subnormal and tiny ε: ε̃ = ε + ε³/16 + …, never returned as ε itself or 0."""
    from dpsemantics.disclosure import _epsilon_tilde_bounds

    rng = np.random.default_rng(RNG_SEED + 4)
    top = math.nextafter(disclosure.EPS_TILDE_LIMIT, 0.0)
    eps = np.concatenate([[5e-324, 1e-320, 1e-300, 1e-100, 2e-100, 1e-20, 1e-8, 0.5, 1.0, 2.0, 2.19, top,
                           math.nextafter(top, 0.0)], rng.uniform(0, top, 3000), 10 ** rng.uniform(-300, 0.3, 1000)])
    eps = eps[eps < disclosure.EPS_TILDE_LIMIT]
    got = disclosure.epsilon_tilde(eps)
    low, high = _epsilon_tilde_bounds(eps)
    assert np.array_equal(got, high)
    nearest_low = 0
    for e, g, lo in zip(eps, got, low):
        want = epsilon_tilde_mp(e)
        assert mpf(lo) <= want <= mpf(g), e
        # tight up to ε = 2.19 (next to 2·log 3 = 2.1972 the 4 ulps of e^{ε/2} are most of 3 − e^{ε/2}, and the bound
        # widens with them: 41.4 for the exact 37.5 at the last float)
        assert mpf(g) <= want * (1 + mp.mpf(2) ** -40) or e < 1e-100 or e > 2.19, e
        h = e / 2.0
        nearest_low += mpf(math.log1p(3.0 * math.expm1(h) / 2.0) - math.log1p(-math.expm1(h) / 2.0)) < want
    assert nearest_low > 300
    assert disclosure.epsilon_tilde(0.0) == 0.0 and disclosure.epsilon_tilde(5e-324) > 0
    et = disclosure.counterexample_a6(1.0, 0.01)[2]
    assert mpf(et) <= epsilon_tilde_mp(1.0)


# ---------------------------------------------------------------------------------- conversions.profile_pdp_epsilon


def _check_profile_point(profile, delta_prime, got):
    """``got`` = (ε′, ε, δ): δ is the profile's own value at ε (capped at 1) and ε′ is never below Theorem 3.9 there."""
    eps_prime, eps, delta = got
    assert delta == min(float(np.asarray(profile(np.asarray(eps)))), 1.0)
    want = eps_prime_mp(eps, delta, delta_prime)
    assert mpf(eps_prime) >= want, (eps, delta, delta_prime)
    return want


def test_profile_pdp_epsilon_reads_the_profile_at_its_own_delta():
    """Every point tried has δ(ε) < δ′; the old code replaced δ(ε) by δ′(1 − 1e-15) wherever it was above that, and
    returned an ε′ below Theorem 3.9's at the point it names.  Here the profile lies in that band everywhere."""
    delta_prime = 0.01

    def flat(e):
        return np.full(np.shape(e), delta_prime * (1 - 2.0**-52))  # 1e-16 below δ′: inside the band

    _check_profile_point(flat, delta_prime, conversions.profile_pdp_epsilon(flat, delta_prime))


def test_profile_pdp_epsilon_is_never_below_theorem_3_9_at_its_point():
    """Seeded profiles of the chapters' kinds — a Gaussian's exact profile (Balle & Wang, ``gaussian_delta``), Laplace
    δ(ε) = 1 − e^{(ε − ε₀)/2} (pure ε₀ past ε₀), steep exponentials — and δ′ over five decades: ε′ never below Theorem
    3.9 at the returned (ε, δ(ε)), which the search reaches with the float formula one ulp low on many of them."""
    from dpsemantics.mechanisms import gaussian_delta

    rng = np.random.default_rng(RNG_SEED + 5)
    nearest_low = 0
    for i in range(120):
        delta_prime = float(10 ** rng.uniform(-6, -0.5))
        kind = i % 3
        if kind == 0:
            sigma = float(10 ** rng.uniform(-0.5, 1))
            profile = lambda e, s=sigma: gaussian_delta(e, s)  # noqa: E731
        elif kind == 1:
            eps0 = float(10 ** rng.uniform(-1, 0.7))
            profile = lambda e, a=eps0: np.where(np.asarray(e) < a, -np.expm1((np.asarray(e) - a) / 2), 0.0)  # noqa: E731
        else:
            c, a = float(10 ** rng.uniform(-3, 0)), float(10 ** rng.uniform(-1, 1))
            profile = lambda e, c=c, a=a: c * np.exp(-a * np.asarray(e))  # noqa: E731
        try:
            got = conversions.profile_pdp_epsilon(profile, delta_prime)
        except ValueError:
            continue
        want = _check_profile_point(profile, delta_prime, got)
        _, eps, delta = got
        if delta > 0:
            plain = math.log(delta_prime * math.exp(eps) + delta) - math.log(delta_prime - delta)
            nearest_low += mpf(plain) < want
    assert nearest_low > 10


# ---------------------------------------------------------------------------------- composition.optimal_lattice


def lattice_delta_mp(eps0, k, ell, delta0=0.0) -> mp.mpf:
    """Kazan et al., Theorem 2.8(3) as printed, an upper bound on it within e^{−1500} relative: δ = 1 − (1 − δ₀)^k(1 −
    δ_ℓ), δ_ℓ = Σ_{j<ℓ} C(k, j)(e^{(k−j)ε₀} − e^{(k−2ℓ+j)ε₀})/(1 + e^{ε₀})^k, summed in mpmath over the j within
    60 standard deviations (+100) of the largest term, plus k times the largest term left out on each side (log C(k,
    j)q^j p^{k−j} is concave), so never below the exact sum."""
    e = mpf(eps0)
    q = 1 / (1 + mp.exp(e))
    p = 1 - q

    def log_mass(j):
        return mp.loggamma(k + 1) - mp.loggamma(j + 1) - mp.loggamma(k - j + 1) + j * mp.log(q) + (k - j) * mp.log(p)

    if ell == 0:
        rr = mp.mpf(0)
    else:
        mode = int(mp.floor((k + 1) * q))
        top = min(ell - 1, mode)
        width = int(60 * math.sqrt(k * float(q) * float(p))) + 100
        lo, hi = max(0, top - width), min(ell, top + width + 1)
        rr = mp.fsum(mp.exp(log_mass(j)) * -mp.expm1(-2 * (ell - j) * e) for j in range(lo, hi))
        if lo > 0:
            rr += k * mp.exp(log_mass(lo - 1))
        if hi < ell:
            rr += k * mp.exp(log_mass(hi))
    a = -mp.expm1(k * mp.log1p(-mpf(delta0)))  # A = 1 − (1 − δ₀)^k, without the cancellation of 1 − (1 − δ_ℓ)
    return a + rr * (1 - a)


def test_optimal_lattice_pair_is_never_below_the_exact_lattice_point():
    """Theorem 2.8(3)'s printed lattice point (ε, δ) = ((k − 2ℓ)ε₀, δ_ℓ) as a guarantee: ε never below (k − 2ℓ)ε₀
    exactly (rationals), δ never below the printed sum (mpmath), and within 1e-9 of it.  Hostile: issue 23's far-tail
    points (the float sum was 1.1e-11 low there), δ₀ > 0 (A = 1 − (1 − δ₀)^k dominating), and a seeded search that
    reaches lattice points where the float nearest the exact ε or δ is below it."""
    cases = [(0.0037277568132300172, 13967, 5092, 0.0), (0.005621523493331103, 20658, 8111, 0.0),
             (0.25591163384822474, 7874, 1912, 0.0), (0.1, 10, 3, 0.0), (0.1, 10, 0, 1e-6), (2.0, 7, 2, 1e-3),
             (0.05, 37, 11, 1e-6), (1e-300, 10, 2, 0.0), (0.3, 1, 0, 0.0)]
    rng = np.random.default_rng(RNG_SEED + 6)
    for _ in range(100):
        k = int(np.exp(rng.uniform(0, math.log(3000))))
        cases.append((float(10 ** rng.uniform(-3, 0.5)), k, int(rng.integers(0, k // 2 + 1)),
                      float(rng.choice([0.0, 10 ** rng.uniform(-12, -3)]))))
    eps_low = delta_low = 0
    for eps0, k, ell, delta0 in cases:
        eps, delta = composition.optimal_lattice(eps0, k, ell, delta0)
        want_eps = (k - 2 * ell) * Fraction(eps0)
        assert Fraction(eps) >= want_eps and Fraction(eps) <= want_eps * (1 + Fraction(1, 2**51))
        want = lattice_delta_mp(eps0, k, ell, delta0)
        assert mpf(delta) >= want, (eps0, k, ell, delta0)
        assert mpf(delta) <= want * (1 + mp.mpf(1e-9)) + mp.mpf(1e-300), (eps0, k, ell, delta0)
        eps_low += Fraction(float((k - 2 * ell) * eps0)) < want_eps
        delta_low += mpf(float(want)) < want
    assert eps_low > 10 and delta_low > 10


# ---------------------------------------------------------------------------------- pld: the tail P[L > t]


def _gaussian_tail_mp(t, mu) -> mp.mpf:
    """P[L > t] for L ~ N(μ, 2μ) (the Gaussian mechanism's loss, Balle & Wang 2018), μ an mpf."""
    return mp.erfc((mpf(t) - mu) / (2 * mp.sqrt(mu))) / 2


def _rr_tail_mp(t, eps0, k) -> mp.mpf:
    """P[L > t] for k runs of ε₀-randomized response: L = ε₀(2J − k), J ~ Bin(k, e^{ε₀}/(1 + e^{ε₀})), exactly."""
    e = mpf(eps0)
    p = mp.exp(e) / (1 + mp.exp(e))
    return mp.fsum(mp.binomial(k, j) * p**j * (1 - p) ** (k - j) for j in range(k + 1) if e * (2 * j - k) > mpf(t))


@pytest.mark.parametrize("kind, param, k", [("gaussian", 1.0, 1), ("gaussian", 3.0, 10), ("rr", 0.5, 1),
                                            ("rr", 0.3, 12)])
def test_tail_bounds_bracket_the_exact_tail_at_the_float_points(kind, param, k):
    """``tail_bounds_on_lattice`` and ``tail_bounds``: lower ≤ P[L > t] ≤ upper at the float t returned (or asked),
    against the exact tail in mpmath — the Gaussian's normal tail, randomized response's binomial sum, whose atoms sit
    on lattice points.  The points include many whose float fl(i·h) lies below the lattice point i·h where the bound
    was formed (there P[L > t] may take an atom at i·h: the bound of the point before is stated)."""
    if kind == "gaussian":
        one = pld.PrivacyLossDistribution.gaussian(param, h=0.01)
        mu = k / (2 * mpf(param) ** 2)
        tail = lambda t: _gaussian_tail_mp(t, mu)  # noqa: E731
    else:
        one = pld.PrivacyLossDistribution.randomized_response(param, h=param / 7)
        tail = lambda t: _rr_tail_mp(t, param, k)  # noqa: E731
    dist = one.self_compose(k)
    t, low, up = dist.tail_bounds_on_lattice()
    rng = np.random.default_rng(RNG_SEED + 7)
    pick = np.unique(np.concatenate([np.arange(0, t.size, max(1, t.size // 300)), rng.integers(0, t.size, 200)]))
    below = 0
    for i in pick:
        want = tail(t[i])
        assert mpf(low[i]) <= want <= mpf(up[i]), (i, t[i], low[i], up[i], float(want))
        lattice_index = round(t[i] / dist.h)
        below += Fraction(t[i]) < lattice_index * Fraction(dist.h)
    assert below >= max(1, pick.size // 10)  # the search reaches floats below their lattice point
    for x in t[pick[:: max(1, pick.size // 40)]]:
        lo, hi = dist.tail_bounds(float(x))
        want = tail(x)
        assert mpf(lo) <= want <= mpf(hi), x


def _routes_references():
    """The mpmath references of tests/unit/releases/test_releases_routes.py (the k-fold Laplace profile by the
    inversion integral, the k-fold randomized-response profile as a binomial sum), loaded from that file."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent / "releases" / "test_releases_routes.py"
    spec = importlib.util.spec_from_file_location("_routes_references", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("eps0, k, target", [(0.1, 1000, 15.0), (0.1, 3000, 60.0), (0.3, 1000, 80.0)])
def test_tilted_self_composition_is_an_upper_bound_on_the_exact_profile(eps0, k, target):
    """The tilted k-fold Laplace profile is read by the release model as a guarantee (the "pld-tilted" route where δ <
    1e-6), so it is a proved upper bound: against the exact profile (the inversion integral, mpmath) at points near
    and far from the ε it was tilted towards — far below it, where the tilt's allowance e^{kΛ − λz} is largest, and
    past the last point — never below, at most 1, and within 1 % at the target."""
    refs = _routes_references()
    fn = pld.tilted_self_composition(pld.PrivacyLossDistribution.laplace(eps0, h=eps0 / 100), k, target)
    assert fn is not None
    rng = np.random.default_rng(RNG_SEED + 8)
    top = k * eps0
    reads = np.concatenate([[0.0, target, target * 0.5, target * 1.5, top - eps0, top], rng.uniform(0, top, 8)])
    for e in reads:
        value, exact = fn(float(e)), refs.laplace_kfold_delta(float(e), eps0, k)
        assert exact <= mpf(value) <= 1.0, (e, value, exact)
        if e == target:
            assert mpf(value) <= exact * 1.01


def test_tilted_self_composition_of_randomized_response_is_an_upper_bound():
    """Randomized response's atoms lie on the lattice (h = ε₀/10): its tilted k-fold profile against the exact binomial
    sum (Kairouz, Oh & Viswanath 2015), read on the atoms themselves (where (1 − e^{ε − z})₊ vanishes at z = ε) and
    between them."""
    refs = _routes_references()
    eps0, k = 0.2, 400
    fn = pld.tilted_self_composition(pld.PrivacyLossDistribution.randomized_response(eps0, h=eps0 / 10), k, 30.0)
    assert fn is not None
    for e in [10.0, 20.0, 29.8, 30.0, 30.1, 45.0, 60.2, 79.8]:
        value, exact = fn(e), refs.rr_kfold_delta(e, eps0, k)
        assert exact <= mpf(value) <= 1.0, (e, value, exact)
