"""``python -m dpsemantics.claims [--json] [--paper PAPER]``: recompute and report every claim."""

from __future__ import annotations

import argparse
import json
import sys

from . import PAPERS, evaluate_all


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
              (r.verdict.kind + (" (listed values only)" if r.verdict.scope == "listed values" else "")
               if r.verdict else "")) for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    n_rep = sum(r.status == "reproduced" for r in results)
    n_disc = sum(r.status == "discrepancy" for r in results)
    relations = [r for r in results if r.verdict is not None]
    n_cert = sum(r.verdict.scope in ("whole domain", "counterexample") for r in relations)
    n_listed = sum(r.verdict.scope == "listed values" for r in relations)
    n_not = len(results) - n_rep - n_disc
    print(f"\n{len(results)} claims: {n_rep} reproduced, {n_disc} discrepancies, {n_not} not checked; "
          f"of {len(relations)} relations, {n_cert} certified on their whole stated domain or refuted by a certified "
          f"counterexample (interval or LP), {n_listed} certified at listed parameter values only")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
