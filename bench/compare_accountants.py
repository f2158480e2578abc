"""Compare dpsemantics' exact composition and zCDP conversion with Google's dp-accounting library.

Two comparisons, timed in the same run (each computation repeated, median wall time):

1. k-fold composition of an (ε₀, δ₀)-DP mechanism: ``dpsemantics.composition.optimal_epsilon`` (the exact
   Kairouz–Oh–Viswanath profile, inverted at the total δ) versus the privacy-loss-distribution (PLD)
   accountant of dp-accounting (``pld.privacy_loss_distribution.from_privacy_parameters`` — the PLD of the
   worst (ε₀, δ₀)-DP mechanism — self-composed k times, then ``get_epsilon_for_delta``).  The total δ is
   kδ₀ + δ_slack, so that a finite ε exists for every k.
2. ρ-zCDP → (ε, δ)-DP after k compositions of ρ₀-zCDP steps (ρ₀ = ε₀²/2, Bun & Steinke Prop 1.4):
   ``dpsemantics.conversions.zcdp_epsilon(kρ₀, δ, tight=True)`` (Canonne–Kamath–Steinke 2020 with the
   order α optimised continuously) versus dp-accounting's RDP accountant (``ZCDpEvent(ρ₀)`` composed k
   times, the same CKS conversion minimised over its default grid of orders).

Usage: ``python bench/compare_accountants.py [--out _build/bench.json] [--repeats 5] [--quick]``.
Run it through ``make bench``, which installs bench/requirements.txt into a separate virtual environment.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from dpsemantics import composition, conversions


def timed(fn, repeats: int):
    """(value, median seconds) over ``repeats`` calls."""
    times, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return value, statistics.median(times)


def pld_epsilon(eps0: float, delta0: float, k: int, delta_total: float, interval: float) -> float:
    from dp_accounting.pld import common, privacy_loss_distribution

    pld = privacy_loss_distribution.from_privacy_parameters(
        common.DifferentialPrivacyParameters(eps0, delta0), value_discretization_interval=interval
    )
    return float(pld.self_compose(k).get_epsilon_for_delta(delta_total))


def rdp_epsilon(rho0: float, k: int, delta: float) -> float:
    from dp_accounting import dp_event
    from dp_accounting.rdp import rdp_privacy_accountant

    acc = rdp_privacy_accountant.RdpAccountant()
    acc.compose(dp_event.ZCDpEvent(rho0), k)
    return float(acc.get_epsilon(delta))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="_build/bench.json")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--eps0", type=float, default=0.1)
    parser.add_argument("--delta-slack", type=float, default=1e-6)
    parser.add_argument("--interval", type=float, default=1e-4, help="PLD value discretization interval")
    parser.add_argument("--quick", action="store_true", help="k up to 1000 only")
    args = parser.parse_args(argv)

    from importlib.metadata import version

    dp_version = version("dp-accounting")
    ks = [10, 100, 1000] if args.quick else [10, 100, 1000, 10000]
    eps0 = args.eps0
    rows = []

    print(f"dp-accounting {dp_version}, numpy {np.__version__}, "
          f"python {platform.python_version()}; median of {args.repeats} runs\n")
    head = f"{'k':>6} {'delta0':>7} {'delta':>9} | {'PLD eps':>12} {'optimal eps':>12} {'PLD-opt':>10} | {'t PLD':>9} {'t opt':>9} {'ratio':>7}"
    print("Composition of (eps0=%g, delta0)-DP mechanisms, total delta = k*delta0 + %g" % (eps0, args.delta_slack))
    print(head)
    print("-" * len(head))
    for delta0 in [0.0, 1e-8]:
        for k in ks:
            delta = k * delta0 + args.delta_slack
            ours, t_ours = timed(lambda: composition.optimal_epsilon(eps0, k, delta, delta0), args.repeats)
            theirs, t_theirs = timed(lambda: pld_epsilon(eps0, delta0, k, delta, args.interval), args.repeats)
            row = dict(kind="composition", k=k, eps0=eps0, delta0=delta0, delta=delta,
                       pld_epsilon=theirs, optimal_epsilon=ours, difference=theirs - ours,
                       seconds_pld=t_theirs, seconds_ours=t_ours, time_ratio=t_theirs / t_ours,
                       advanced_epsilon=composition.advanced_epsilon(eps0, k, args.delta_slack, delta0),
                       basic_epsilon=composition.basic_epsilon(eps0, k))
            rows.append(row)
            print(f"{k:>6} {delta0:>7.0e} {delta:>9.3e} | {theirs:>12.6f} {ours:>12.6f} {theirs - ours:>10.2e} | "
                  f"{t_theirs:>8.4f}s {t_ours:>8.4f}s {t_theirs / t_ours:>7.1f}")

    rho0 = conversions.pure_to_zcdp(eps0)
    delta = args.delta_slack
    print(f"\nzCDP: k steps of rho0 = eps0^2/2 = {rho0:g}, delta = {delta:g}")
    head = f"{'k':>6} {'rho':>7} | {'RDP eps':>12} {'CKS eps':>12} {'RDP-CKS':>10} {'simple eps':>11} | {'t RDP':>9} {'t CKS':>9} {'ratio':>7}"
    print(head)
    print("-" * len(head))
    for k in ks:
        rho = composition.zcdp_compose(rho0, k)
        ours, t_ours = timed(lambda: conversions.zcdp_epsilon(rho, delta, tight=True), args.repeats)
        theirs, t_theirs = timed(lambda: rdp_epsilon(rho0, k, delta), args.repeats)
        simple = conversions.zcdp_epsilon(rho, delta)
        rows.append(dict(kind="zcdp", k=k, rho0=rho0, rho=rho, delta=delta, rdp_epsilon=theirs,
                         tight_epsilon=ours, simple_epsilon=simple, difference=theirs - ours,
                         seconds_rdp=t_theirs, seconds_ours=t_ours, time_ratio=t_theirs / t_ours))
        print(f"{k:>6} {rho:>7.3g} | {theirs:>12.6f} {ours:>12.6f} {theirs - ours:>10.2e} {simple:>11.6f} | "
              f"{t_theirs:>8.4f}s {t_ours:>8.4f}s {t_theirs / t_ours:>7.1f}")

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = dict(dp_accounting=dp_version, numpy=np.__version__,
                python=platform.python_version(), repeats=args.repeats, pld_interval=args.interval)
    out.write_text(json.dumps(dict(meta=meta, rows=rows), indent=2))
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
