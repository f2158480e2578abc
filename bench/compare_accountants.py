"""Benchmark: dpsemantics against the accountants the field uses, each at its best honest setting.

Three quantities, each row timed in this one process (median of ``--repeats`` calls) and checked against a
50-digit mpmath reference computed here from the defining formula, independently of both libraries:

1. **Composition.** The smallest ε of the k-fold composition of (ε₀, δ₀)-DP mechanisms at total
   δ = kδ₀ + 1e-6 (Kairouz, Oh & Viswanath 2015).  ``composition.optimal_epsilon`` against
   dp-accounting's privacy-loss-distribution accountant (the PLD of the worst (ε₀, δ₀) mechanism,
   self-composed) discretised at ε₀ — exact for this mechanism and its cheapest setting — and at 1e-4;
   prv-accountant (``eps_error`` 0.01; its upper estimate, the safe one); autodp (RDP-based, a bound).
   OpenDP composes pure DP only by the basic theorem, a different quantity, so it has no row.
2. **ρ-zCDP → (ε, δ)** with the tight conversion of Canonne, Kamath & Steinke (2020):
   ``conversions.zcdp_epsilon(tight=True)`` against dp-accounting's RDP accountant (a ZCDpEvent, CKS over a
   grid of orders), autodp's zCDP_Mechanism and OpenDP's ``make_zCDP_to_approxDP``.
3. **Gaussian σ for (ε, δ)** (the analytic Gaussian mechanism, Balle & Wang 2018):
   ``mechanisms.gaussian_sigma`` against autodp's ``ana_gaussian_calibrator``.
4. **Laplace and Gaussian k-fold composition, δ at a fixed ε** (k = 10³ … 10⁶): ``pld.PrivacyLossDistribution``
   (connect-the-dots, pessimistic, with an optimistic bracket) against dp-accounting's PLD (connect-the-dots,
   pessimistic) at the same discretisation intervals, and **at equal accuracy**: for each target (5 %, 1 %,
   0.1 %) each engine at the coarsest interval of one grid that meets it, then timed.  Both engines are timed
   on the same output, the pessimistic δ (ours builds its optimistic side only when asked; the bracket's time
   is recorded apart).  The Laplace truth is independent of both engines: a contour integral of the closed-form
   moment-generating function in mpmath (``bench/laplace_reference.py``), cross-checked against dp-accounting at
   a fine interval; the Gaussian truth is closed form (a k-fold Gaussian is a Gaussian, Balle & Wang 2018
   Thm 8, in mpmath).  Each error column says its direction: "+" above the truth (safe for a δ), "−" below.
5. **optimal_epsilon's time up to k = 10⁹** (no peer: the PLD cannot reach k = 10⁹ at ε₀-exact resolution in
   reasonable time); the row checks that time grows with k.
6. **Every composition calibration that broadcasts, over 10⁶ inputs** (seeded random arrays over the ranges a user
   meets; the other calibrations are section 7):
   wall-clock and CPU seconds of one call (no peer).  ``optimal_epsilon`` and ``optimal_delta``: one mechanism with
   10⁶ values of δ or ε; 10⁶ distinct mechanisms of k = 10, 100 and 1000 (one column each of a 2-D table that holds
   each column's window of terms: optimal_delta at ε from 0.01 to 5, where δ is near 1 and the window the whole
   bulk, and at the ε of a δ from 1e-12 to 1e-2, where the window is the tail); 10⁶ distinct mechanisms with k
   uniform in 1 … 1000 (issue 40: every k in the same table); and 10³ and 10⁴ distinct mechanisms of k = 10⁴ and
   10⁵ (their profiles built together; the cost is the O(√k) terms of each window).
7. **Every other calibration or conversion, over 10⁶ hostile inputs** (``bench/calibration_timing.py``): each
   public function of ``mechanisms``, ``conversions``, ``disclosure`` and ``pld`` that returns an ε, δ, σ, ρ or a
   posterior bound and broadcasts, one call on seeded arrays that mix every magnitude a caller may pass (ε from
   10⁻¹² to 630, δ from 10⁻³⁰⁰ to 1 − 10⁻¹², …), CPU and wall-clock seconds; the scalar-only ones (``releases``)
   as 10³ calls in a loop.
8. **The release model's ε of k-fold Laplace at small δ** (ε₀ = 0.1; k = 10³ at δ = 1e-12, k = 10⁴ … 10⁶ at
   1e-10): ``releases.Laplace(0.1).repeat(k).epsilon(δ)`` against the exact ε (the contour integral of
   ``laplace_reference``, solved by a secant on log δ) and against dp-accounting's PLD (pessimistic) over the
   grid of intervals: the coarsest interval as close as ours on the safe side, and the coarsest within 0.1 %.
9. **ε of Laplace and Gaussian k-fold composition at equal accuracy** (k = 10 … 10⁵, δ = 1e-6 and 1e-10;
   targets 0.1 % relative and 1e-5 absolute, on the safe side): our best route (the release model's ε, or our
   PLD at the coarsest interval meeting the target) against dp-accounting's PLD at the coarsest interval meeting
   it.  References: the Laplace finite sum at k = 10 and the contour integral from k = 10³ on (at k = 100 the
   contour's truncation bound is too loose and the sum too slow: the row says so), and Balle & Wang's exact ε
   for the Gaussian (k runs of σ = √k are one Gaussian of σ = 1).
10. **The exact ε of one Gaussian**, ``releases.Gaussian(σ).epsilon(δ)`` beside autodp's ``get_eps_ana_gaussian``;
   then the peers' failures, each against a reference: autodp's Fourier accountant (ComposeAFA) on k-fold
   Laplace, prv-accountant on the k-fold Gaussian up to k = 10⁵, autodp's σ calibrator against the smallest safe σ.

``--sections 2,3,7`` reruns only those sections and keeps the others from the existing ``--out`` file
(``--only-pld`` is ``--sections 4,5``).

Run through ``make bench`` (peers in their own virtual environment, bench/requirements.txt); writes
``_build/bench.json``, which the book's numerics page renders.  A peer that fails to import is reported as
missing, not hidden.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import mpmath
import numpy as np
from scipy.optimize import brentq

from dpsemantics import composition, conversions, mechanisms
from dpsemantics.pld import PrivacyLossDistribution

sys.path.insert(0, str(Path(__file__).resolve().parent))
import calibration_timing  # noqa: E402  (section 7)
from laplace_reference import laplace_delta, laplace_delta_mixture  # noqa: E402  (mpmath only: independent of both engines)

mpmath.mp.dps = 50
SLACK = 1e-6


def timed(fn, repeats: int):
    """(value, median seconds) over ``repeats`` calls (a peer's failure is caught by :func:`row`)."""
    times, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return value, statistics.median(times)


_SECTION_OF = {"composition ε": 1, "zCDP → ε (tight)": 2, "Gaussian σ": 3, "Laplace composition δ": 4,
               "Laplace composition δ at equal accuracy": 4, "Gaussian composition δ": 4, "optimal_epsilon time": 5,
               "calibration over many inputs": 6, calibration_timing.QUANTITY: 7,
               "Laplace release ε at small δ": 8, "composition ε at equal accuracy": 9, "Gaussian ε": 10,
               "peer failure": 10}
ALL_SECTIONS = set(range(1, 11))


def _section(r) -> int:
    """The section (1–10 of the module docstring) a row belongs to."""
    return _SECTION_OF[r["quantity"]]


# --- 50-digit references, from the defining formulas ------------------------------------------------------


def ref_composition(eps0: float, k: int, delta: float, delta0: float):
    """KOV: δ(ε) = 1 − (1 − δ₀)^k (1 − Σ_ℓ P_ℓ (1 − e^{ε − L_ℓ})₊), P_ℓ = C(k,ℓ) e^{ε₀(k−ℓ)}/(1+e^{ε₀})^k,
    L_ℓ = ε₀(k − 2ℓ); on each piece between lattice points the sum is A − e^ε B, solved exactly."""
    e0 = mpmath.mpf(eps0)
    target = (mpmath.mpf(delta) - (1 - (1 - mpmath.mpf(delta0)) ** k)) / (1 - mpmath.mpf(delta0)) ** k
    P = (mpmath.exp(e0) / (1 + mpmath.exp(e0))) ** k  # ℓ = 0
    ratio = mpmath.exp(-e0)
    A = B = mpmath.mpf(0)
    for ell in range((k + 1) // 2):
        L = e0 * (k - 2 * ell)
        A += P
        B += P * mpmath.exp(-L)
        lower = max(L - 2 * e0, mpmath.mpf(0))
        if A - mpmath.exp(lower) * B >= target:  # the answer lies on this piece
            return float(mpmath.log((A - target) / B))
        P = P * (k - ell) / (ell + 1) * ratio
    return 0.0


def ref_zcdp(rho: float, delta: float):
    """CKS 2020 Cor. 13: ε = inf_{α>1} αρ + log(1 − 1/α) − (log δ + log α)/(α − 1), minimised in mpmath."""
    r, ld = mpmath.mpf(rho), mpmath.log(mpmath.mpf(delta))
    f = lambda a: a * r + mpmath.log(1 - 1 / a) - (ld + mpmath.log(a)) / (a - 1)  # noqa: E731
    a0 = 1 + mpmath.sqrt(-ld / r)
    a = mpmath.findroot(lambda x: mpmath.diff(f, x), a0)
    return max(float(f(a)), 0.0)


def ref_sigma(eps: float, delta: float):
    """Balle & Wang 2018 Thm 8: the σ with Φ(1/2σ − εσ) − e^ε Φ(−1/2σ − εσ) = δ (sensitivity 1)."""
    e = mpmath.mpf(eps)
    g = lambda s: mpmath.ncdf(1 / (2 * s) - e * s) - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s) - delta  # noqa: E731
    guess = mechanisms.gaussian_sigma(eps, delta)  # only a starting point; the root is mpmath's
    return float(mpmath.findroot(g, mpmath.mpf(guess)))


# --- peers -----------------------------------------------------------------------------------------------


def peers_available():
    out = {}
    for name in ("dp-accounting", "prv-accountant", "autodp", "opendp"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    return out


def pld_epsilon(eps0, delta0, k, delta, interval):
    from dp_accounting.pld import common, privacy_loss_distribution

    pld = privacy_loss_distribution.from_privacy_parameters(
        common.DifferentialPrivacyParameters(eps0, delta0), value_discretization_interval=interval)
    return float(pld.self_compose(k).get_epsilon_for_delta(delta))


def prv_epsilon(eps0, delta0, k, delta):
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import ApproximateDPMechanism, PureDPMechanism

    prv = PureDPMechanism(eps0) if delta0 == 0 else ApproximateDPMechanism(eps0, delta0)
    acc = PRVAccountant(prvs=[prv], max_self_compositions=[k], eps_error=0.01, delta_error=delta / 1000)
    return float(acc.compute_epsilon(delta=delta, num_self_compositions=[k])[2])


def autodp_epsilon(eps0, delta0, k, delta):
    from autodp import mechanism_zoo, transformer_zoo

    mech = mechanism_zoo.PureDP_Mechanism(eps=eps0, name="pure") if delta0 == 0 else None
    if mech is None:
        raise NotImplementedError("autodp has no (ε, δ)-DP mechanism to compose")
    return float(transformer_zoo.Composition()([mech], [k]).get_approxDP(delta))


def rdp_zcdp_epsilon(rho, delta):
    from dp_accounting import dp_event
    from dp_accounting.rdp import rdp_privacy_accountant

    acc = rdp_privacy_accountant.RdpAccountant()
    acc.compose(dp_event.ZCDpEvent(rho))
    return float(acc.get_epsilon(delta))


def autodp_zcdp_epsilon(rho, delta):
    from autodp import mechanism_zoo

    return float(mechanism_zoo.zCDP_Mechanism(rho=rho, xi=0, name="z").get_approxDP(delta))


def opendp_zcdp_epsilon(rho, delta):
    import opendp.prelude as dp

    dp.enable_features("contrib")
    scale = 1.0 / np.sqrt(2.0 * rho)  # a Gaussian of sensitivity 1 is exactly ρ-zCDP at this scale
    meas = dp.m.make_gaussian(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale)
    profile = dp.c.make_zCDP_to_approxDP(meas).map(1.0)
    return float(profile.epsilon(delta))


def autodp_sigma(eps, delta):
    from autodp import calibrator_zoo, mechanism_zoo

    return float(calibrator_zoo.ana_gaussian_calibrator()(mechanism_zoo.ExactGaussianMechanism, eps,
                                                          delta).params["sigma"])


def dp_accounting_pld(kind, param, k, h):
    """dp-accounting's PLD (connect-the-dots, pessimistic) of k runs of the Laplace mechanism (ε₀ = ``param``) or
    the Gaussian (σ = ``param``), sensitivity 1, at interval h."""
    from dp_accounting.pld import privacy_loss_distribution as pld

    if kind == "laplace":
        base = pld.from_laplace_mechanism(1.0 / param, sensitivity=1, value_discretization_interval=h)
    else:
        base = pld.from_gaussian_mechanism(param, sensitivity=1, value_discretization_interval=h)
    return base.self_compose(k)


def dp_accounting_delta(kind, param, k, h, eps):
    return float(dp_accounting_pld(kind, param, k, h).get_delta_for_epsilon(eps))


def ours_pld(kind, param, k, h):
    base = (PrivacyLossDistribution.laplace(param, h=h) if kind == "laplace"
            else PrivacyLossDistribution.gaussian(param, h=h))
    return base.self_compose(k)


def ours_delta(kind, param, k, h, eps):
    """The pessimistic δ: the same output as dp-accounting's get_delta_for_epsilon."""
    return ours_pld(kind, param, k, h).delta(eps)


def ours_bracket(kind, param, k, h, eps):
    return ours_pld(kind, param, k, h).delta_bounds(eps)


def ref_gaussian_delta(eps: float, sigma: float):
    """Balle & Wang 2018 Thm 8 at sensitivity 1, in mpmath."""
    e, s = mpmath.mpf(eps), mpmath.mpf(sigma)
    return float(mpmath.ncdf(1 / (2 * s) - e * s) - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s))


LAPLACE_GRID = (0.02, 0.01, 0.005, 0.0025, 0.00125, 0.000625, 0.0003125)  # intervals tried for a target


def coarsest_meeting(fn, truth, target):
    """(h, value) for the coarsest interval of LAPLACE_GRID whose δ is within ``target`` of the truth, on the
    safe side (0 ≤ error ≤ target); (None, None) if none is."""
    for h in LAPLACE_GRID:
        value = fn(h)
        if 0 <= (value - truth) / truth <= target:
            return h, value
    return None, None


def composition_rows(avail, ks, repeats):
    """Section 4: δ at a fixed ε after k compositions, ours and dp-accounting's, at the same intervals and at
    equal accuracy."""
    rows = []
    e0 = 0.1
    ref_h = {1000: 2.5e-4, 10_000: 5e-4, 100_000: 1e-3, 1_000_000: 1e-3}
    intervals = {1000: (1e-3, 5e-4), 10_000: (2e-3, 1e-3), 100_000: (5e-3, 2e-3), 1_000_000: (1e-2, 4e-3)}
    for k in ks:
        eps = PrivacyLossDistribution.laplace(e0, h=ref_h[k]).self_compose(k).epsilon(1e-6)  # where δ ≈ 1e-6
        truth, rest = laplace_delta(e0, k, eps)
        check, _ = laplace_delta(e0, k, eps, contour=0.8)
        assert rest < 1e-9 * truth and abs(check - truth) <= 1e-12 * truth, (truth, check, rest)
        cross = None
        if avail["dp-accounting"]:  # the peer at its finest interval here, as a cross-check of the reference
            cross = (dp_accounting_delta("laplace", e0, k, ref_h[k], eps) - truth) / truth
        for h in intervals[k]:
            params = dict(k=k, eps0=e0, eps=eps, h=h, truth_low=truth, truth_high=truth, reference_rest=rest,
                          peer_fine_interval=ref_h[k], peer_fine_signed_error=cross)
            rows.append(pld_row("Laplace composition δ", f"PLD, interval {h:g}", avail, params, truth,
                                lambda: ours_delta("laplace", e0, k, h, eps),
                                lambda: ours_bracket("laplace", e0, k, h, eps),
                                lambda: dp_accounting_delta("laplace", e0, k, h, eps), repeats))
        if avail["dp-accounting"]:
            for target in (0.05, 0.01, 0.001):
                h_ours, v_ours = coarsest_meeting(lambda h: ours_delta("laplace", e0, k, h, eps), truth, target)
                h_peer, v_peer = coarsest_meeting(lambda h: dp_accounting_delta("laplace", e0, k, h, eps), truth,
                                                  target)
                t_ours = t_peer = None
                reps = 3 if k <= 10_000 else 1
                if h_ours is not None:
                    _, t_ours = timed(lambda: ours_delta("laplace", e0, k, h_ours, eps), reps)
                if h_peer is not None:
                    _, t_peer = timed(lambda: dp_accounting_delta("laplace", e0, k, h_peer, eps), reps)
                signed = lambda v: None if v is None else (v - truth) / truth  # noqa: E731
                rows.append(dict(quantity="Laplace composition δ at equal accuracy", setting=f"within {target:.1%}",
                                 peer="dp-accounting", k=k, eps0=e0, eps=eps, target=target, reference=truth,
                                 h_ours=h_ours, h_peer=h_peer, ours=v_ours, peer_value=v_peer,
                                 ours_signed_error=signed(v_ours), peer_signed_error=signed(v_peer),
                                 seconds_ours=t_ours, seconds_peer=t_peer,
                                 peer_over_ours=None if None in (t_ours, t_peer) else t_peer / t_ours, error=None))
        print(f"Laplace k={k} done")
    for k in ks:
        sigma = math.sqrt(k)  # the k-fold composition is the Gaussian with σ = 1
        eps = brentq(lambda e: math.log(mechanisms.gaussian_delta(e, 1.0)) - math.log(1e-6), 0.0, 30.0)  # δ = 1e-6
        truth = ref_gaussian_delta(eps, 1.0)
        for h in (1e-3, 2e-4):
            params = dict(k=k, sigma=sigma, eps=eps, h=h, truth_low=truth, truth_high=truth)
            rows.append(pld_row("Gaussian composition δ", f"PLD, interval {h:g}", avail, params, truth,
                                lambda: ours_delta("gaussian", sigma, k, h, eps),
                                lambda: ours_bracket("gaussian", sigma, k, h, eps),
                                lambda: dp_accounting_delta("gaussian", sigma, k, h, eps), repeats))
        print(f"Gaussian k={k} done")
    return rows


def pld_row(quantity, setting, avail, params, truth, ours_fn, bracket_fn, peer_fn, repeats):
    high, t_ours = timed(ours_fn, repeats)
    (low, _), t_bracket = timed(bracket_fn, 1)
    theirs, t_theirs, err = None, None, None
    if avail["dp-accounting"]:
        try:
            theirs, t_theirs = timed(peer_fn, repeats)
        except Exception as exc:  # noqa: BLE001 - a peer's failure is a finding
            err = f"{type(exc).__name__}: {str(exc)[:80]}"
    signed = lambda v: None if v is None else (v - truth) / truth  # noqa: E731
    return dict(quantity=quantity, setting=setting, peer="dp-accounting", **params, reference=truth, ours=high,
                ours_optimistic=low, peer_value=theirs, ours_rel_error=abs(signed(high)),
                ours_signed_error=signed(high), ours_optimistic_signed_error=signed(low),
                peer_rel_error=None if theirs is None else abs(signed(theirs)),
                peer_signed_error=signed(theirs), seconds_ours=t_ours, seconds_ours_bracket=t_bracket,
                seconds_peer=t_theirs, peer_over_ours=None if t_theirs is None else t_theirs / t_ours, error=err)


def optimal_epsilon_timing(repeats):
    """Section 5: optimal_epsilon's time at k = 10³ … 10⁹ (ε₀ = 0.01, δ = 1e-6)."""
    rows = []
    for k in (10**3, 10**4, 10**5, 10**6, 10**7, 10**8, 10**9):
        value, t = timed(lambda: composition.optimal_epsilon(0.01, k, 1e-6), repeats)
        rows.append(dict(quantity="optimal_epsilon time", setting="ε₀ = 0.01, δ = 1e-6", peer="—", k=k, eps0=0.01,
                         delta=1e-6, reference=None, ours=value, peer_value=None, ours_rel_error=None,
                         peer_rel_error=None, seconds_ours=t, seconds_peer=None, peer_over_ours=None, error=None))
        print(f"optimal_epsilon k={k}: {t:.3f} s")
    return rows


def broadcast_timing():
    """Section 6: one call of each broadcasting composition calibration on seeded random arrays (10⁶ entries unless
    said); the other calibrations are section 7 (``calibration_timing``)."""
    rng = np.random.default_rng(2026)
    n = 10**6
    eps = rng.uniform(0.01, 5.0, n)
    delta = 10.0 ** rng.uniform(-12, -2, n)
    rng.uniform(size=3 * n)  # the draws of the rows now in section 7 (ρ, σ, δ′): the inputs below stay the same
    rng.uniform(size=2 * 10**3)  # the draws of two rows now among ``large`` below: the inputs after stay the same
    eps0_many = rng.uniform(0.001, 2.0, n)  # distinct mechanisms of k ≤ 1000: one column each of a 2-D table
    k_many = rng.integers(1, 1001, n)  # (drawn last: the inputs above stay those of the earlier runs)
    distinct = []
    for k in (10, 100, 1000):
        distinct += [
            ("composition.optimal_epsilon", f"10⁶ distinct mechanisms (ε₀ random, k = {k})",
             n, lambda k=k: composition.optimal_epsilon(eps0_many, k, delta)),
            ("composition.optimal_delta", f"10⁶ distinct mechanisms (ε₀ random, k = {k})",
             n, lambda k=k: composition.optimal_delta(eps, eps0_many, k)),
        ]
    # the ε at which each of these mechanisms reaches its δ (the tail, where a table's window is short)
    eps_tail = composition.optimal_epsilon(eps0_many, 1000, delta)
    distinct.append(("composition.optimal_delta", "10⁶ distinct mechanisms (ε₀ random, k = 1000), ε of a δ in "
                     "1e-12…1e-2", n, lambda: composition.optimal_delta(eps_tail, eps0_many, 1000)))
    # many distinct k (issue 40): the columns of every k ≤ 1000 share one table
    distinct += [
        ("composition.optimal_epsilon", "10⁶ distinct mechanisms (ε₀ random, k random in 1…1000)",
         n, lambda: composition.optimal_epsilon(eps0_many, k_many, delta)),
        ("composition.optimal_delta", "10⁶ distinct mechanisms (ε₀ random, k random in 1…1000)",
         n, lambda: composition.optimal_delta(eps, eps0_many, k_many)),
    ]
    # distinct mechanisms of k > 1000: their profiles are built together (_kov._RRProfiles); the cost is the
    # terms of each window (Loader's form), O(√k) a mechanism
    large = []
    for k, count in ((10**4, 10**3), (10**4, 10**4), (10**5, 10**3), (10**5, 10**4)):
        e0s, ds = eps0_many[:count], delta[:count]
        tail = composition.optimal_epsilon(e0s, k, ds)
        power = {10**3: "³", 10**4: "⁴", 10**5: "⁵"}
        label = f"10{power[count]} distinct mechanisms (ε₀ random, k = 10{power[k]})"
        large += [
            ("composition.optimal_epsilon", label, count,
             lambda k=k, e=e0s, d=ds: composition.optimal_epsilon(e, k, d)),
            ("composition.optimal_delta", label + ", ε in 0.01…5", count,
             lambda k=k, e=e0s: composition.optimal_delta(eps[:e.size], e, k)),
            ("composition.optimal_delta", label + ", ε of a δ in 1e-12…1e-2", count,
             lambda k=k, e=e0s, t=tail: composition.optimal_delta(t, e, k)),
        ]
    cases = [
        ("composition.optimal_epsilon", "one mechanism (ε₀ = 0.1, k = 100), 10⁶ values of δ",
         n, lambda: composition.optimal_epsilon(0.1, 100, delta)),
        ("composition.optimal_epsilon", "one mechanism (ε₀ = 0.01, k = 10⁴), 10⁶ values of δ",
         n, lambda: composition.optimal_epsilon(0.01, 10**4, delta)),
        *distinct,
        *large,
        ("composition.optimal_delta", "one mechanism (ε₀ = 0.1, k = 100), 10⁶ values of ε",
         n, lambda: composition.optimal_delta(eps, 0.1, 100)),
        ("composition.advanced_epsilon", "ε₀ and slack δ arrays, k = 100", n,
         lambda: composition.advanced_epsilon(eps / 10, 100, delta)),
    ]
    rows = []
    for name, setting, inputs, fn in cases:
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        rows.append(dict(quantity="calibration over many inputs", setting=setting, peer="—", function=name,
                         inputs=inputs, reference=None, ours=None, peer_value=None, ours_rel_error=None,
                         peer_rel_error=None, seconds_ours=wall, cpu_seconds_ours=cpu, seconds_peer=None,
                         peer_over_ours=None, error=None))
        print(f"{name} ({setting}): {wall:.2f} s wall, {cpu:.2f} s CPU")
    return rows


# --- sections 8–10: the release model and ε at equal accuracy (issue 40) ------------------------------------

EPS_GRID = (0.1, 0.05, *LAPLACE_GRID)  # intervals tried for an ε target (coarser first)
CALL_CAP = 20.0  # seconds: an engine whose call took longer is not refined further (the row says so)


MIXTURE_K_MAX = 10  # k-fold Laplace up to here: the finite sum (its cost grows like k⁴ at k·log₁₀k digits)


def exact_laplace_epsilon(eps0, k, delta, guess):
    """The exact ε of k runs of the ε₀-Laplace mechanism at δ: the root of log δ(ε) = log δ, δ(ε) from
    ``laplace_reference`` (independent of both engines): the finite sum up to k = MIXTURE_K_MAX, else the contour
    integral, checked that the part it leaves out is negligible.  ``guess`` is a safe ε (δ(guess) ≤ δ): the root
    is bracketed below it, so that the solver never steps past kε₀, where δ is 0."""
    def log_gap(e):
        if k <= MIXTURE_K_MAX:
            return mpmath.log(laplace_delta_mixture(eps0, k, float(e))) - mpmath.log(delta)
        value, rest = laplace_delta(eps0, k, float(e), dps=20)
        assert rest < 1e-9 * value, (k, e, value, rest)  # the reference's truncation bound
        return mpmath.log(value) - mpmath.log(delta)
    low = 0.97 * guess
    while log_gap(low) <= 0:
        low *= 0.9
    assert log_gap(guess) <= 0, (k, delta, guess)  # ours is on the safe side, or the row is not made
    return float(mpmath.findroot(log_gap, (low, guess), solver="illinois", tol=1e-20, verify=False))


def exact_gaussian_epsilon(sigma, delta):
    """Balle & Wang 2018 Thm 8 solved for ε at sensitivity 1, in mpmath (50 digits)."""
    s, d = mpmath.mpf(sigma), mpmath.mpf(delta)
    f = lambda e: mpmath.log(mpmath.ncdf(1 / (2 * s) - e * s)  # noqa: E731
                             - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s)) - mpmath.log(d)
    lo, hi = mpmath.mpf(0), 1 / (2 * s**2) + mpmath.sqrt(2 * mpmath.log(1 / d)) / s + 1
    return float(mpmath.findroot(f, (lo, hi), solver="anderson", tol=1e-40))


def dp_accounting_epsilon(kind, param, k, h, delta):
    """dp-accounting's ε at δ of k runs at interval h (:func:`dp_accounting_pld`)."""
    return float(dp_accounting_pld(kind, param, k, h).get_epsilon_for_delta(delta))


def ours_pld_epsilon(kind, param, k, h, delta):
    return ours_pld(kind, param, k, h).epsilon(delta)


def grid_values(fn, enough, grid=EPS_GRID):
    """{h: (value, seconds)} over ``grid``, coarse to fine, until ``enough(values)`` or a call exceeds CALL_CAP
    seconds (an engine's failure is recorded as the value None with its message)."""
    out = {}
    for h in grid:
        start = time.perf_counter()
        try:
            value = fn(h)
        except Exception as exc:  # noqa: BLE001 - a failure is a finding
            value = f"{type(exc).__name__}: {str(exc)[:80]}"
        out[h] = (value, time.perf_counter() - start)
        if enough(out) or out[h][1] > CALL_CAP:
            break
    return out


def meets(value, truth, target, absolute):
    """On the safe side of the truth and within the target (relative, or absolute in ε)."""
    if not isinstance(value, float):
        return False
    return 0 <= value - truth <= (target if absolute else target * truth)


def first_meeting(values, truth, target, absolute):
    """The coarsest h of ``values`` that meets the target, or None."""
    return next((h for h, (v, _) in values.items() if meets(v, truth, target, absolute)), None)


TARGETS = ((1e-3, False, "0.1 % relative"), (1e-5, True, "1e-5 absolute"))


def release_small_delta_rows(avail, repeats):
    """Section 8: the release model's ε of k-fold Laplace (ε₀ = 0.1) at small δ against the exact ε and against
    dp-accounting's PLD at the coarsest interval that is at least as close (safe side)."""
    from dpsemantics import releases

    rows = []
    for k, delta in ((10**3, 1e-12), (10**4, 1e-10), (10**5, 1e-10), (10**6, 1e-10)):
        ours, t_ours = timed(lambda: releases.Laplace(0.1).repeat(k).epsilon(delta), repeats)
        routes = releases.Laplace(0.1).repeat(k).epsilon_routes(delta)
        exact = exact_laplace_epsilon(0.1, k, delta, ours)
        excess = (ours - exact) / exact
        tried, h_peer, v_peer, t_peer = {}, None, None, None
        if avail["dp-accounting"]:
            grid = tuple(h for h in EPS_GRID if k < 10**6 or h >= 0.00125)  # k = 10⁶ finer: minutes a call
            tried = grid_values(lambda h: dp_accounting_epsilon("laplace", 0.1, k, h, delta),
                                lambda vals: first_meeting(vals, exact, max(excess, 0.0), False) is not None, grid)
            h_peer = first_meeting(tried, exact, max(excess, 0.0), False)
            if h_peer is not None:
                v_peer, t_peer = tried[h_peer]
                if t_peer < 5:  # a second timing of the cheap calls (the first included imports and warm-up)
                    _, t_peer = timed(lambda: dp_accounting_epsilon("laplace", 0.1, k, h_peer, delta), repeats)
        finest = min(tried) if tried else None
        signed = lambda v: (v - exact) / exact if isinstance(v, float) else None  # noqa: E731
        h_loose = first_meeting(tried, exact, 1e-3, False)  # the peer at the looser 0.1 % (safe side), if met
        t_loose = None if h_loose is None else tried[h_loose][1]
        rows.append(dict(quantity="Laplace release ε at small δ", setting="release model vs PLD", peer="dp-accounting",
                         k=k, eps0=0.1, delta=delta, reference=exact, ours=ours, ours_route=min(routes, key=routes.get),
                         routes=routes,
                         ours_signed_error=excess, h_peer=h_peer, peer_value=v_peer, peer_signed_error=signed(v_peer),
                         peer_finest_interval=finest, peer_finest_value=tried[finest][0] if tried else None,
                         peer_finest_signed_error=signed(tried[finest][0]) if tried else None,
                         peer_tried={str(h): v for h, (v, _) in tried.items()},
                         peer_tried_seconds={str(h): t for h, (_, t) in tried.items()},
                         peer_unsafe_intervals=[h for h, (v, _) in tried.items() if isinstance(v, float) and v < exact],
                         h_peer_loose=h_loose,
                         peer_loose_signed_error=None if h_loose is None else signed(tried[h_loose][0]),
                         seconds_peer_loose=t_loose, peer_loose_over_ours=None if t_loose is None else t_loose / t_ours,
                         seconds_ours=t_ours, seconds_peer=t_peer,
                         peer_over_ours=None if t_peer is None else t_peer / t_ours, error=None))
        print(f"release k={k} δ={delta:g}: ours {excess:+.2e} in {t_ours:.2f} s; peer h={h_peer} {signed(v_peer)} "
              f"in {t_peer} s")
    return rows


def epsilon_accuracy_rows(avail, ks):
    """Section 9: ε of k-fold Laplace (ε₀ = 0.1) and Gaussian (σ = √k a run) compositions at equal accuracy:
    our best route (the release model's ε, or our PLD at the coarsest interval meeting the target) against
    dp-accounting's PLD at the coarsest interval meeting it, both on the safe side."""
    from dpsemantics import releases

    rows = []
    for kind in ("laplace", "gaussian"):
        for delta in (1e-6, 1e-10):
            for k in ks:
                param = 0.1 if kind == "laplace" else math.sqrt(k)
                make = (lambda: releases.Laplace(0.1).repeat(k)) if kind == "laplace" else \
                    (lambda: releases.Gaussian(param).repeat(k))
                release, _ = timed(lambda: make().epsilon(delta), 1)
                if kind == "laplace":
                    if MIXTURE_K_MAX < k < 1000:  # the contour's truncation bound: 0.08 %–0.2 % of δ at k = 100
                        rows.append(dict(quantity="composition ε at equal accuracy", setting="no reference",
                                         kind=kind, peer="dp-accounting", k=k, delta=delta, reference=None,
                                         error="no independent reference at this k (the contour integral's "
                                               "truncation bound is above 10⁻⁹ of δ, the finite sum too slow)",
                                         peer_over_ours=None))
                        continue
                    truth = exact_laplace_epsilon(0.1, k, delta, release)
                else:
                    truth = exact_gaussian_epsilon(1.0, delta)  # k runs of σ = √k are one Gaussian of σ = 1
                reps = 3 if k <= 1000 else 1
                _, t_release = timed(lambda: make().epsilon(delta), reps)
                enough = lambda vals: all(first_meeting(vals, truth, t, a) is not None for t, a, _ in TARGETS)  # noqa: E731
                ours_vals = grid_values(lambda h: ours_pld_epsilon(kind, param, k, h, delta), enough)
                peer_vals = grid_values(lambda h: dp_accounting_epsilon(kind, param, k, h, delta), enough) \
                    if avail["dp-accounting"] else {}
                signed = lambda v: (v - truth) / truth if isinstance(v, float) else None  # noqa: E731
                for target, absolute, label in TARGETS:
                    h_ours, h_peer = (first_meeting(v, truth, target, absolute) for v in (ours_vals, peer_vals))
                    t_ours = t_peer = None
                    if h_ours is not None:
                        _, t_ours = timed(lambda: ours_pld_epsilon(kind, param, k, h_ours, delta), reps)
                    if h_peer is not None:
                        _, t_peer = timed(lambda: dp_accounting_epsilon(kind, param, k, h_peer, delta), reps)
                    release_meets = meets(release, truth, target, absolute)
                    candidates = [t for t in (t_release if release_meets else None, t_ours) if t is not None]
                    best = min(candidates) if candidates else None
                    route = None if best is None else ("release" if best == t_release and release_meets else "pld")
                    rows.append(dict(
                        quantity="composition ε at equal accuracy", setting=label, kind=kind, peer="dp-accounting",
                        k=k, delta=delta, target=target, absolute=absolute, reference=truth,
                        release=release, release_signed_error=signed(release), release_meets=release_meets,
                        seconds_release=t_release, h_ours=h_ours,
                        ours_pld=None if h_ours is None else ours_vals[h_ours][0],
                        ours_pld_signed_error=None if h_ours is None else signed(ours_vals[h_ours][0]),
                        seconds_ours_pld=t_ours, ours_route=route, seconds_ours=best,
                        ours_finest_interval=min(ours_vals),
                        ours_finest_signed_error=signed(ours_vals[min(ours_vals)][0]),
                        h_peer=h_peer, peer_value=None if h_peer is None else peer_vals[h_peer][0],
                        peer_signed_error=None if h_peer is None else signed(peer_vals[h_peer][0]),
                        peer_finest_interval=min(peer_vals) if peer_vals else None,
                        peer_finest_signed_error=signed(peer_vals[min(peer_vals)][0]) if peer_vals else None,
                        peer_finest_seconds=peer_vals[min(peer_vals)][1] if peer_vals else None,
                        seconds_peer=t_peer, peer_over_ours=None if None in (best, t_peer) else t_peer / best,
                        error=None))
                print(f"ε {kind} k={k} δ={delta:g} done")
    return rows


def autodp_gaussian_epsilon(sigma, delta):
    """autodp's exact Gaussian ε (what ExactGaussianMechanism.get_approxDP calls)."""
    from autodp import dp_bank

    return float(dp_bank.get_eps_ana_gaussian(sigma, delta))


def autodp_fourier_laplace_epsilon(eps0, k, delta):
    """autodp's analytical Fourier accountant (characteristic functions) for k runs of the Laplace mechanism."""
    from autodp import mechanism_zoo, transformer_zoo

    mech = mechanism_zoo.LaplaceMechanism(b=1.0 / eps0, phi_off=False, RDP_off=True)
    return float(transformer_zoo.ComposeAFA()([mech], [k]).get_approxDP(delta))


def prv_gaussian_epsilon(sigma, k, delta):
    """prv-accountant's upper ε for k runs of the Gaussian mechanism (eps_error 0.01)."""
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import GaussianMechanism

    acc = PRVAccountant(prvs=[GaussianMechanism(sigma)], max_self_compositions=[k], eps_error=0.01,
                        delta_error=delta / 1000)
    return float(acc.compute_epsilon(delta=delta, num_self_compositions=[k])[2])


def gaussian_epsilon_rows(avail, repeats):
    """Section 10: the exact ε of one Gaussian, ``releases.Gaussian(σ).epsilon(δ)`` beside autodp's closed-form
    route; then the peers' own failures where they occur (autodp's Fourier accountant, prv-accountant at large
    k), each against an independent reference."""
    from dpsemantics import releases

    rows = []
    for sigma in (0.5, 1.0, 5.0, 50.0):
        for delta in (1e-5, 1e-10):
            ref = exact_gaussian_epsilon(sigma, delta)
            if avail["autodp"]:
                r = row("Gaussian ε", "get_eps_ana_gaussian", "autodp", dict(sigma=sigma, delta=delta), ref,
                        lambda: releases.Gaussian(sigma).epsilon(delta), lambda: autodp_gaussian_epsilon(sigma, delta),
                        repeats)
                r["ours_above_reference"] = (r["ours"] - ref) / ref  # signed: + is the safe side
                r["peer_above_reference"] = None if r["peer_value"] is None else (r["peer_value"] - ref) / ref
                rows.append(r)
    print("Gaussian ε done")
    if avail["autodp"]:
        for k, delta in ((100, 1e-6), (1000, 1e-6), (1000, 1e-10)):
            truth = exact_laplace_epsilon(0.1, k, delta, composition.optimal_epsilon(0.1, k, delta)) \
                if k >= 1000 else None
            r = row("peer failure", "autodp ComposeAFA (Fourier), Laplace ε₀ = 0.1", "autodp",
                    dict(k=k, delta=delta), truth, lambda: releases.Laplace(0.1).repeat(k).epsilon(delta),
                    lambda: autodp_fourier_laplace_epsilon(0.1, k, delta), 1)
            rows.append(r)
            print(f"autodp Fourier k={k}: {r['peer_value']} ({r['error']}) truth {truth}")
    if avail["prv-accountant"]:
        for k in (10**3, 10**4, 10**5):
            truth = exact_gaussian_epsilon(1.0, 1e-6)
            r = row("peer failure", "prv-accountant, Gaussian σ = √k a run, eps_error 0.01 (upper)",
                    "prv-accountant", dict(k=k, sigma=math.sqrt(k), delta=1e-6), truth,
                    lambda: releases.Gaussian(math.sqrt(k)).repeat(k).epsilon(1e-6),
                    lambda: prv_gaussian_epsilon(math.sqrt(k), k, 1e-6), 1)
            rows.append(r)
            print(f"prv Gaussian k={k}: {r['peer_value']} ({r['error']}) truth {truth}")
    if avail["autodp"]:  # autodp's σ calibrator on the unsafe side: a σ whose exact δ exceeds the target
        for eps, delta in ((0.1, 1e-5), (1.0, 1e-5), (5.0, 1e-5), (0.1, 1e-10), (1.0, 1e-10), (5.0, 1e-10)):
            ref = ref_sigma(eps, delta)
            r = row("peer failure", "autodp ana_gaussian_calibrator, σ against the smallest safe σ", "autodp",
                    dict(eps=eps, delta=delta), ref, lambda: mechanisms.gaussian_sigma(eps, delta),
                    lambda: autodp_sigma(eps, delta), 1)
            r["peer_delta_at_sigma"] = None if r["peer_value"] is None else ref_gaussian_delta(eps, r["peer_value"])
            rows.append(r)
    return rows


# --- the table -------------------------------------------------------------------------------------------


def row(quantity, setting, peer, params, reference, ours_fn, peer_fn, repeats):
    ours, t_ours = timed(ours_fn, repeats)
    try:
        theirs, t_theirs = timed(peer_fn, repeats)
        err = None
    except Exception as exc:  # noqa: BLE001 - a peer's failure is a finding, reported in the table
        theirs, t_theirs, err = None, None, f"{type(exc).__name__}: {str(exc)[:80]}"
    rel = lambda v: None if v is None else abs(v - reference) / abs(reference) if reference else abs(v)  # noqa: E731
    return dict(quantity=quantity, setting=setting, peer=peer, **params, reference=reference, ours=ours,
                peer_value=theirs, ours_rel_error=rel(ours), peer_rel_error=rel(theirs), seconds_ours=t_ours,
                seconds_peer=t_theirs, peer_over_ours=None if t_theirs is None else t_theirs / t_ours, error=err)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="_build/bench.json")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--eps0", type=float, default=0.1)
    parser.add_argument("--quick", action="store_true", help="k up to 1000 only")
    parser.add_argument("--only-pld", action="store_true", help="only the Laplace/Gaussian composition rows and "
                        "optimal_epsilon's timing (sections 4 and 5), merged into an existing --out file")
    parser.add_argument("--sections", default=",".join(map(str, sorted(ALL_SECTIONS))),
                        help="the sections to run (comma-separated); the "
                        "other sections' rows are kept from an existing --out file")
    args = parser.parse_args(argv)
    sections = {4, 5} if args.only_pld else {int(v) for v in args.sections.split(",")}
    load_start = os.getloadavg()  # the machine may be shared: the load is recorded; ratios are taken in one process
    avail = peers_available()
    ks = [10, 100, 1000] if args.quick else [10, 100, 1000, 10_000, 100_000]
    e0, rows = args.eps0, []
    print("peers:", ", ".join(f"{k} {v or 'missing'}" for k, v in avail.items()))
    if sections != ALL_SECTIONS:  # keep the other sections of the last run
        last = json.loads(Path(args.out).read_text())
        rows = [r for r in last["rows"] if _section(r) not in sections]
        if sections.isdisjoint({1, 2, 3, 4, 8, 9, 10}):  # no peer was run: the peers named are those of the kept rows
            avail = last["meta"]["peers"]
    for delta0 in (0.0, 1e-8) if 1 in sections else ():
        for k in ks:
            delta = k * delta0 + SLACK
            ref = ref_composition(e0, k, delta, delta0)
            params = dict(k=k, eps0=e0, delta0=delta0, delta=delta)
            ours = lambda: composition.optimal_epsilon(e0, k, delta, delta0)  # noqa: E731
            if avail["dp-accounting"]:
                for interval, label in ((e0, "PLD, interval ε₀ (exact)"), (1e-4, "PLD, interval 1e-4")):
                    rows.append(row("composition ε", label, "dp-accounting", params, ref, ours,
                                    lambda: pld_epsilon(e0, delta0, k, delta, interval), args.repeats))
            if avail["prv-accountant"] and k <= 1000:  # beyond, its grid for pure DP takes minutes
                rows.append(row("composition ε", "PRV, eps_error 0.01 (upper)", "prv-accountant", params, ref, ours,
                                lambda: prv_epsilon(e0, delta0, k, delta), 1))
            if avail["autodp"] and delta0 == 0:
                rows.append(row("composition ε", "RDP composition (a bound)", "autodp", params, ref, ours,
                                lambda: autodp_epsilon(e0, delta0, k, delta), args.repeats))
            print(f"composition k={k} delta0={delta0:g} done")
    for rho in (1e-4, 0.01, 0.3, 5.0) if 2 in sections else ():
        for delta in (1e-5, 1e-10):
            ref = ref_zcdp(rho, delta)
            params = dict(rho=rho, delta=delta)
            ours = lambda: conversions.zcdp_epsilon(rho, delta, tight=True)  # noqa: E731
            for peer, fn, setting in (("dp-accounting", rdp_zcdp_epsilon, "RDP, CKS over a grid of orders"),
                                      ("autodp", autodp_zcdp_epsilon, "zCDP_Mechanism"),
                                      ("opendp", opendp_zcdp_epsilon, "make_zCDP_to_approxDP")):
                if avail[peer]:
                    rows.append(row("zCDP → ε (tight)", setting, peer, params, ref, ours, lambda: fn(rho, delta),
                                    args.repeats))
    print("zCDP done")
    for eps in (0.1, 1.0, 5.0) if 3 in sections else ():
        for delta in (1e-5, 1e-10):
            ref = ref_sigma(eps, delta)
            if avail["autodp"]:
                rows.append(row("Gaussian σ", "ana_gaussian_calibrator", "autodp", dict(eps=eps, delta=delta), ref,
                                lambda: mechanisms.gaussian_sigma(eps, delta), lambda: autodp_sigma(eps, delta),
                                args.repeats))
    print("Gaussian done")
    if 4 in sections:
        rows += composition_rows(avail, [1000, 10_000] if args.quick else [1000, 10_000, 100_000, 1_000_000], 1)
    if 5 in sections:
        rows += optimal_epsilon_timing(1 if args.quick else 3)
    if 6 in sections:
        rows += broadcast_timing()
    if 7 in sections:
        rows += calibration_timing.rows()
    if 8 in sections:
        rows += release_small_delta_rows(avail, 1 if args.quick else 3)
    if 9 in sections:
        rows += epsilon_accuracy_rows(avail, [10, 100, 1000] if args.quick else [10, 100, 1000, 10_000, 100_000])
    if 10 in sections:
        rows += gaussian_epsilon_rows(avail, args.repeats)
    rows.sort(key=_section)  # the sections in order, whichever were rerun

    head = (f"{'quantity':<18} {'peer':<15} {'setting':<32} {'params':<34} {'our rel err':>11} {'peer rel err':>12} "
            f"{'peer/ours time':>14}")
    print(head)
    print("-" * len(head))
    for r in rows:
        if _section(r) >= 8:  # sections 8–10: their own lines
            print(f"{r['quantity']:<30} {r['setting']:<40} " + ", ".join(
                f"{key}={r[key]:.6g}" for key in ("k", "sigma", "eps", "delta", "reference", "ours", "peer_value",
                                                  "ours_signed_error", "peer_signed_error", "peer_over_ours")
                if isinstance(r.get(key), (int, float))) + (f" [{r['error']}]" if r.get("error") else ""))
            continue
        p = ", ".join(f"{k}={r[k]:g}" for k in ("k", "eps0", "delta0", "rho", "eps", "delta") if k in r)
        fmt = lambda v: "—" if v is None else f"{v:.1e}"  # noqa: E731
        if "ours_signed_error" in r:
            r_ours, r_peer = r["ours_signed_error"], r["peer_signed_error"]
            fmt_s = lambda v: "—" if v is None else f"{v:+.1e}"  # noqa: E731
            ratio = "failed" if r["peer_over_ours"] is None else f"{r['peer_over_ours']:.2f}"
            at = f" (h ours {r['h_ours']}, peer {r['h_peer']})" if "h_ours" in r else ""
            print(f"{r['quantity']:<18} {r['peer']:<15} {r['setting']:<32} k={r['k']:<10g} {fmt_s(r_ours):>11} "
                  f"{fmt_s(r_peer):>12} {ratio:>14}{at}")
            continue
        if "inputs" in r:
            print(f"{r['function']:<34} {r['setting']:<52} {r['seconds_ours']:.2f} s ({r['cpu_seconds_ours']:.2f} CPU)")
            continue
        if r["reference"] is None:
            print(f"{r['quantity']:<18} {'—':<15} {r['setting']:<32} k={r['k']:<10g} {r['seconds_ours']:.3f} s")
            continue
        ratio = "failed" if r["peer_over_ours"] is None else f"{r['peer_over_ours']:.2f}"
        print(f"{r['quantity']:<18} {r['peer']:<15} {r['setting']:<32} {p:<34} {fmt(r['ours_rel_error']):>11} "
              f"{fmt(r['peer_rel_error']):>12} {ratio:>14}")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = dict(peers=avail, numpy=np.__version__, python=platform.python_version(), machine=platform.machine(),
                repeats=args.repeats, reference="mpmath, 50 digits", cpus=os.cpu_count(),
                load_average_start=load_start, load_average_end=os.getloadavg(), sections=sorted(sections))
    out.write_text(json.dumps(dict(meta=meta, rows=rows), indent=2))
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
