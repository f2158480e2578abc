"""``python -m dpsemantics.claims [--json] [--paper PAPER]``: recompute and report every claim."""

from __future__ import annotations

import argparse
import json
import sys

from . import EVIDENCE, PAPERS, evaluate_all


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dpsemantics.claims", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--paper", choices=sorted(PAPERS), help="only this paper's claims")
    args = parser.parse_args(argv)
    results = evaluate_all(args.paper)
    if args.json:
        json.dump([r.to_dict() for r in results], sys.stdout, indent=2)
        print()
        return 0
    rows = [("id", "where", "printed", "computed", "status", "evidence")]
    rows += [(r.claim.id, r.claim.where, _fmt(r.claim.printed), _fmt(r.computed), r.status,
              (r.verdict.kind + (f" ({', '.join(r.verdict.points)})" if r.verdict.points else "")
               if r.verdict else "")) for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    n_rep = sum(r.status == "reproduced" for r in results)
    n_disc = sum(r.status == "discrepancy" for r in results)
    relations = [r for r in results if r.verdict is not None]
    kinds = {k: sum(r.verdict.kind == k for r in relations) for k in EVIDENCE}
    n_not = len(results) - n_rep - n_disc
    print(f"\n{len(results)} claims: {n_rep} reproduced, {n_disc} discrepancies, {n_not} not checked; "
          f"of {len(relations)} relations, {kinds['certified-lp'] + kinds['certified-interval']} certified on their "
          f"whole stated domain, {kinds['certified-at-points']} exact at listed parameter values only, "
          f"{kinds['counterexample']} certified counterexamples, {kinds['closed-form']} closed forms on a grid, "
          f"{kinds['search']} searches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
