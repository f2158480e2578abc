"""Interpret your own differentially private release through the five papers of the book.

    python -m dpsemantics.report --mechanism laplace --epsilon 0.5 --k 10 --prior 0.5
    python -m dpsemantics.report --from release.json --output DIR

Writes report.html (self-contained, with figures), report.md (+ its figures as SVG) and report.json into
DIR (default _build/report/NAME/).  A JSON file holds the same fields as the flags, and may list several
different mechanisms composed together:

    {"name": "two-queries", "priors": [0.1, 0.5], "delta_prime": 0.01,
     "mechanisms": [{"mechanism": "laplace", "epsilon": 0.2, "k": 3},
                    {"mechanism": "gaussian", "sigma": 5.0, "sensitivity": 1.0}]}

Bad input gets one line "error: FIELD: MESSAGE", exit status 2, and no files.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import DEFAULT_DELTA_PRIME, DEFAULT_PRIORS, FIELDS, MECHANISMS, ReleaseError, interpret, parse_release


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors in the report's one-line form
        self.exit(2, f"error: arguments: {message}\n")


def _parser() -> argparse.ArgumentParser:
    from ..book.toc import ROOT

    epilog = "Fields of a release (flags or JSON keys):\n" + "\n".join(f"  {k}: {v}" for k, v in FIELDS.items())
    epilog += ("\n  mechanisms: (JSON only) a list of mechanisms, each with its own fields and k, composed together"
               f"\n\nDefaults: priors {list(DEFAULT_PRIORS)}, delta_prime {DEFAULT_DELTA_PRIME}, k 1, sensitivity 1,"
               f" output {ROOT.name}/_build/report/NAME/.")
    p = _Parser(prog="python -m dpsemantics.report", description=__doc__, epilog=epilog,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mechanism", choices=None, metavar="{" + ",".join(MECHANISMS) + "}", help=FIELDS["mechanism"])
    p.add_argument("--epsilon", type=float, help=FIELDS["epsilon"])
    p.add_argument("--delta", type=float, help=FIELDS["delta"])
    p.add_argument("--sigma", type=float, help=FIELDS["sigma"])
    p.add_argument("--sensitivity", type=float, help=FIELDS["sensitivity"])
    p.add_argument("--rho", type=float, help=FIELDS["rho"])
    p.add_argument("--k", type=float, help=FIELDS["k"])
    p.add_argument("--prior", type=float, action="append", help=f"{FIELDS['priors']}; repeatable "
                                                                f"(default {' '.join(str(x) for x in DEFAULT_PRIORS)})")
    p.add_argument("--delta-prime", type=float, dest="delta_prime",
                   help=f"{FIELDS['delta_prime']} (default {DEFAULT_DELTA_PRIME})")
    p.add_argument("--name", help=FIELDS["name"] + " (default 'release', or the JSON file's name)")
    p.add_argument("--from", dest="source", type=Path, help="read the release from this JSON file (flags given too "
                                                             "override its top-level fields)")
    p.add_argument("--output", type=Path, help="folder for the report (default _build/report/NAME/)")
    return p


def release_from_args(args) -> dict:
    """The release as a dict: the JSON file's fields, then the flags given."""
    data = {}
    if args.source is not None:
        try:
            data = json.loads(Path(args.source).read_text(encoding="utf-8"))
        except OSError as err:
            raise ReleaseError("from", f"cannot read {args.source}: {err.strerror}") from None
        except json.JSONDecodeError as err:
            raise ReleaseError("from", f"{args.source} is not valid JSON ({err.msg}, line {err.lineno})") from None
        if not isinstance(data, dict):
            raise ReleaseError("from", f"{args.source} must hold a JSON object")
        data.setdefault("name", Path(args.source).stem)
    flags = {"mechanism": args.mechanism, "epsilon": args.epsilon, "delta": args.delta, "sigma": args.sigma,
             "sensitivity": args.sensitivity, "rho": args.rho, "k": args.k, "priors": args.prior,
             "delta_prime": args.delta_prime, "name": args.name}
    for key, value in flags.items():
        if value is not None:
            data[key] = value
    if "k" in data and isinstance(data["k"], float) and data["k"].is_integer():
        data["k"] = int(data["k"])
    if "mechanism" not in data and "mechanisms" not in data:
        raise ReleaseError("mechanism", f"is required (one of {', '.join(MECHANISMS)}), or --from FILE")
    return data


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        release = parse_release(release_from_args(args))
        report = interpret(release)
    except ReleaseError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    from ..book import number
    from ..book.toc import ROOT
    from .render import write

    folder = args.output or ROOT / "_build" / "report" / release["name"]
    written = write(report, folder)
    up = report["disclosure"][-1]
    pu = up["posterior_upper"]
    print(f"prior {number(up['prior'])}: posterior upper bound (probability >= {number(1 - up['delta_prime'])}) "
          f"single_point {number(pu['single_point'])}, best_point {number(pu['best_point'])}, exact "
          + ("unavailable" if pu["exact"] is None else number(pu["exact"])))
    print(f"wrote {len(written)} files into {folder}:")
    for path in written:
        print(f"  {path.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
