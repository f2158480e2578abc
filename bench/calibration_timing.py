"""Section 7 of the benchmark: every public calibration or conversion outside ``composition`` that broadcasts, one
call over 10⁶ distinct, hostile but valid inputs, timed in CPU seconds (``time.process_time``) and wall-clock.

"Calibration or conversion" means a function that returns an ε, δ, σ, ρ, a scale or a posterior bound on which a
guarantee rests (issue 23, "Vectorised where the API broadcasts: 10⁶ inputs in under 2 s for every calibration").
The inputs are seeded (``SEED``) and span the magnitudes a caller may pass, all at once in one array: ε from 10⁻¹²
to 630 with exact zeros, δ from 10⁻³⁰⁰ to 1 − 10⁻¹², σ and ρ over twelve and fourteen decades, priors from
10⁻³⁰⁰ to 1 − 10⁻¹⁵ — so every branch of each function (bulk, tail, far tail, subnormal results) runs in the same
call.  Functions that take single numbers only (``releases``, ``PrivacyLossDistribution.epsilon``,
``approximate_bounds``) are listed with the time of 10³ calls in a loop.  The functions over a sequence of k
(``composed_epsilon``, ``composed_posterior_bound``, ``zcdp_eps_prime``) are timed at ks = 1 … 10⁶, or 1 … 10⁴ for
the optimal composition (each distinct k > 1000 is one profile in ``composition``) and 1 … 10³ for the lattice
(a bisection per k); the rows say how many.

Run alone (``python bench/calibration_timing.py``: prints the table) or as ``compare_accountants.py --sections 7``
(into ``_build/bench.json`` / ``bench/results.json``, rendered on the book's Numerics page).
"""

from __future__ import annotations

import math
import time

import numpy as np

from dpsemantics import conversions, disclosure, mechanisms, releases
from dpsemantics.pld import PrivacyLossDistribution

SEED = 20260723
N = 10**6
FEW = 10**3  # scalar-only functions and per-entry loops: this many calls
KS_OPTIMAL = 10**4  # ks = 1 … this for the optimal composition (one profile per distinct k > 1000)
QUANTITY = "calibration over 10⁶ hostile inputs"
TARGET_SECONDS = 2.0


def hostile_inputs(n: int = N, seed: int = SEED) -> dict[str, np.ndarray]:
    """Seeded arrays of valid but hostile values (mixed magnitudes in one array)."""
    rng = np.random.default_rng(seed)

    def mix(*parts):
        """Entries drawn from each part with equal probability."""
        pick = rng.integers(0, len(parts), n)
        out = np.empty(n)
        for i, part in enumerate(parts):
            out[pick == i] = part[pick == i]
        return out

    def decades(lo, hi):
        return 10.0 ** rng.uniform(lo, hi, n)

    eps = mix(decades(-12, 0), decades(0, 2.8), np.where(rng.random(n) < 0.1, 0.0, decades(-3, 1)))
    delta = mix(decades(-300, -100), decades(-100, -1), 1.0 - decades(-12, -1))  # in (0, 1)
    small_delta = mix(decades(-300, -100), decades(-100, -1))  # (0, 0.1): room for a δ′ above it
    prior = mix(decades(-300, -1), rng.uniform(0.01, 0.99, n), 1.0 - decades(-15, -1))  # in (0, 1)
    return dict(
        eps=eps,
        eps_pos=np.where(eps > 0, eps, 1e-9),
        eps_second=mix(decades(-12, 0), decades(0, 2.8)),
        delta=delta,
        small_delta=small_delta,
        delta_prime=np.minimum(small_delta * 10.0 ** rng.uniform(0.5, 3, n), 1.0),  # ≥ 3.16·δ
        gap=decades(-12, 2),
        sigma=decades(-6, 6),
        rho=decades(-10, 4),
        prior=prior,
        z=mix(-decades(-12, 2.8), decades(-12, 2.8)),
        eps_small=decades(-12, math.log10(2 * math.log(3.0)) - 1e-9),  # below ε̃'s limit 2 log 3
        likelihood=decades(-300, 300),
        count=np.floor(decades(0, 9)),
    )


def cases(x: dict[str, np.ndarray]):
    """(function name, setting, number of inputs, call) for each row."""
    eps, delta, dp, sd = x["eps"], x["delta"], x["delta_prime"], x["small_delta"]
    # Theorem 3.9 inverted needs ε′ ≥ −log(1 − (δ/δ′)(1 + e^{−ε′})): above twice −log(1 − 2δ/δ′), up to 630 more
    reach = x["eps_second"] - 2.0 * np.log1p(-2.0 * sd / dp)
    difference = np.tanh(np.minimum(reach, 60.0) / 4.0)  # Corollary 3.12's bound for that ε′, below 1
    ratio = np.exp(reach)  # Corollary 3.11's
    # Corollary 3.10's: the posterior that ε′ = reach allows a prior up to 0.99, kept below 1 (ε′ then still ≥ 32)
    prior = np.minimum(x["prior"], 0.99)
    post_max = np.minimum(prior / (prior + (1.0 - prior) * np.exp(-reach)), 1.0 - 2.0**-53)
    lattice = PrivacyLossDistribution.laplace(0.1, h=0.001).self_compose(100)  # 100 Laplace runs, one lattice
    eps_lattice = 10.0 ** np.random.default_rng(SEED + 1).uniform(-6, 1.2, N)  # up to 16 (the lattice's top)
    few = slice(0, FEW)
    ks = np.arange(1, N + 1)
    one = [(float(a), float(b)) for a, b in zip(x["eps_second"][few], sd[few])]
    return [
        ("mechanisms.randomized_response_delta", "ε, ε_rr", N,
         lambda: mechanisms.randomized_response_delta(eps, x["eps_second"])),
        ("mechanisms.laplace_delta", "ε, ε_mech", N, lambda: mechanisms.laplace_delta(eps, x["eps_second"])),
        ("mechanisms.gaussian_delta", "ε, σ", N, lambda: mechanisms.gaussian_delta(eps, x["sigma"])),
        ("mechanisms.gaussian_log_delta", "ε, σ", N, lambda: mechanisms.gaussian_log_delta(eps, x["sigma"])),
        ("mechanisms.gaussian_sigma", "ε, δ", N, lambda: mechanisms.gaussian_sigma(eps, delta)),
        ("mechanisms.name_and_shame_exposure", "n, δ", N,
         lambda: mechanisms.name_and_shame_exposure(x["count"], delta)),
        ("conversions.pdp_epsilon", "ε, δ, δ′", N, lambda: conversions.pdp_epsilon(eps, sd, dp)),
        ("conversions.pdp_delta", "ε, δ, ε′", N, lambda: conversions.pdp_delta(eps, sd, eps + x["gap"])),
        ("conversions.pure_to_zcdp", "ε", N, lambda: conversions.pure_to_zcdp(eps)),
        ("conversions.zcdp_epsilon", "ρ, δ (Theorem 2.7)", N, lambda: conversions.zcdp_epsilon(x["rho"], delta)),
        ("conversions.zcdp_epsilon", "ρ, δ, tight", N,
         lambda: conversions.zcdp_epsilon(x["rho"], delta, tight=True)),
        ("conversions.zcdp_delta", "ρ, ε (Theorem 2.7)", N, lambda: conversions.zcdp_delta(x["rho"], eps)),
        ("conversions.zcdp_delta", "ρ, ε, tight", N, lambda: conversions.zcdp_delta(x["rho"], eps, tight=True)),
        ("conversions.zcdp_gaussian_delta", "ρ, ε", N, lambda: conversions.zcdp_gaussian_delta(x["rho"], eps)),
        ("disclosure.posterior_bounds", "prior, ε", N, lambda: disclosure.posterior_bounds(x["prior"], eps)),
        ("disclosure.ratio_bounds", "ε", N, lambda: disclosure.ratio_bounds(eps)),
        ("disclosure.prior_ratio_bounds", "prior, ε", N, lambda: disclosure.prior_ratio_bounds(x["prior"], eps)),
        ("disclosure.difference_bound", "ε", N, lambda: disclosure.difference_bound(eps)),
        ("disclosure.prior_difference_bounds", "prior, ε", N,
         lambda: disclosure.prior_difference_bounds(x["prior"], eps)),
        ("disclosure.worst_case_prior", "ε", N, lambda: disclosure.worst_case_prior(eps)),
        ("disclosure.epsilon_tilde", "ε below 2 log 3", N, lambda: disclosure.epsilon_tilde(x["eps_small"])),
        ("disclosure.symmetric_ratio_bounds", "prior, ε", N,
         lambda: disclosure.symmetric_ratio_bounds(x["prior"], eps)),
        ("disclosure.symmetric_difference_bound", "prior, ε", N,
         lambda: disclosure.symmetric_difference_bound(x["prior"], eps)),
        ("disclosure.posterior_from_privacy_loss", "prior, z", N,
         lambda: disclosure.posterior_from_privacy_loss(x["prior"], x["z"])),
        ("disclosure.bayes_posterior", "prior, two likelihoods", N,
         lambda: disclosure.bayes_posterior(x["prior"], x["likelihood"], x["likelihood"][::-1])),
        ("disclosure.leave_thresholds", "prior, ε (difference)", N,
         lambda: disclosure.leave_thresholds(x["prior"], eps, "difference")),
        ("disclosure.dp_epsilon_for_pdp", "ε′, δ, δ′", N, lambda: disclosure.dp_epsilon_for_pdp(reach, sd, dp)),
        ("disclosure.epsilon_for_difference", "bound, δ, δ′", N,
         lambda: disclosure.epsilon_for_difference(difference, sd, dp)),
        ("disclosure.epsilon_for_ratio", "ratio, δ, δ′", N, lambda: disclosure.epsilon_for_ratio(ratio, sd, dp)),
        ("disclosure.epsilon_for_posterior", "prior, posterior, δ, δ′", N,
         lambda: disclosure.epsilon_for_posterior(prior, post_max, sd, dp)),
        ("disclosure.epsilon_for_profile", "priors, posteriors (one δ = 0, δ′ = 10⁻⁶: one release)", N,
         lambda: disclosure.epsilon_for_profile(prior, post_max, 0.0, 1e-6)),
        ("disclosure.best_zcdp_pdp_epsilon", "ρ, δ′ = 10⁻⁶ (Theorem 2.7)", N,
         lambda: disclosure.best_zcdp_pdp_epsilon(x["rho"], 1e-6)),
        ("disclosure.best_zcdp_pdp_epsilon", "ρ, δ′ = 10⁻⁶, tight", N,
         lambda: disclosure.best_zcdp_pdp_epsilon(x["rho"], 1e-6, tight=True)),
        ("disclosure.best_zcdp_pdp_epsilon", "ρ, δ′ (both arrays), tight", N,
         lambda: disclosure.best_zcdp_pdp_epsilon(x["rho"], dp, tight=True)),
        ("disclosure.composed_epsilon", "ks = 1 … 10⁶, basic", N,
         lambda: disclosure.composed_epsilon(0.1, ks, 1e-6, "basic")),
        ("disclosure.composed_epsilon", "ks = 1 … 10⁶, advanced", N,
         lambda: disclosure.composed_epsilon(0.1, ks, 1e-6, "advanced")),
        ("disclosure.composed_epsilon", "ks = 1 … 10⁴, optimal (a profile per k > 1000)", KS_OPTIMAL,
         lambda: disclosure.composed_epsilon(0.1, ks[:KS_OPTIMAL], 1e-6, "optimal")),
        ("disclosure.composed_epsilon", "ks = 1 … 10³, lattice (scalar only: a bisection per k)", FEW,
         lambda: disclosure.composed_epsilon(0.1, ks[:FEW], 1e-6, "lattice")),
        ("disclosure.composed_posterior_bound", "ks = 1 … 10⁶, basic", N,
         lambda: disclosure.composed_posterior_bound(0.5, 0.1, ks, 1e-6, 1e-5, "basic")),
        ("disclosure.zcdp_eps_prime", "ks = 1 … 10⁶ (Theorem 2.7)", N,
         lambda: disclosure.zcdp_eps_prime(0.01, ks, 1e-6)),
        ("disclosure.zcdp_eps_prime", "ks = 1 … 10⁶, tight", N,
         lambda: disclosure.zcdp_eps_prime(0.01, ks, 1e-6, tight=True)),
        ("PrivacyLossDistribution.delta", "10⁶ values of ε on one lattice (100 Laplace runs)", N,
         lambda: lattice.delta(eps_lattice)),
        ("PrivacyLossDistribution.delta_bounds", "10⁶ values of ε on one lattice (100 Laplace runs)", N,
         lambda: lattice.delta_bounds(eps_lattice)),
        ("releases.Gaussian.calibrated", "scalar only: 10³ calls", FEW,
         lambda: [releases.Gaussian.calibrated(a, b) for a, b in one]),
        ("releases.from_fields", "scalar only: 10³ Gaussian σ checks", FEW,
         lambda: [releases.from_fields("gaussian", sigma=10.0, epsilon=a, delta=0.5) for a, _ in one]),
    ]


def rows(inputs: dict[str, np.ndarray] | None = None) -> list[dict]:
    """One timed call per case, in this process, as rows of ``bench/results.json``."""
    x = hostile_inputs() if inputs is None else inputs
    out = []
    for name, setting, count, fn in cases(x):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        out.append(dict(quantity=QUANTITY, setting=setting, peer="—", function=name, inputs=count, reference=None,
                        ours=None, peer_value=None, ours_rel_error=None, peer_rel_error=None, seconds_ours=wall,
                        cpu_seconds_ours=cpu, seconds_peer=None, peer_over_ours=None, error=None))
        flag = "" if cpu * N / count < TARGET_SECONDS else "  (over 2 s per 10⁶)"
        print(f"{name:<40} {setting:<52} {count:>8} {wall:7.2f} s wall {cpu:7.2f} s CPU{flag}", flush=True)
    return out


if __name__ == "__main__":
    rows()
