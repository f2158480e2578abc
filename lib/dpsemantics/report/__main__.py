"""Interpret a differentially private release through the five papers of the book.

    python -m dpsemantics.report --mechanism laplace --epsilon 0.5 --k 10 --prior 0.5
    python -m dpsemantics.report --release census-2020-pl94-persons
    python -m dpsemantics.report --list
    python -m dpsemantics.report --from release.json --output DIR
    python -m dpsemantics.report --compare census-2020-pl94-persons wikipedia-pageviews-current my.json

Writes report.html (self-contained, with figures), report.md (+ its figures as SVG), report.json (numbers as
numbers, with a schema_version), report.csv and composition.csv into DIR (default ./NAME-report/ in the
current directory).  An existing non-empty DIR is refused unless --force, which replaces it whole when it holds
an earlier report (the .dpsemantics-report file every report folder has).  --compare reads every release at the
union of the priors asked and takes only --prior, --delta-prime, --output and --force.  Numbers may be written as
exact rationals "a/b".  A JSON file holds the same fields as the flags, and may list several different mechanisms
composed together:

    {"name": "two-queries", "priors": [0.1, 0.5], "delta_prime": 0.01, "unit": "person",
     "neighbours": "unbounded", "mechanisms": [{"mechanism": "laplace", "epsilon": 0.2, "k": 3},
                                              {"mechanism": "gaussian", "sigma": 5.0, "sensitivity": 1.0}]}

Bad input gets one line "error: FIELD: MESSAGE", exit status 2, and no files.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .fields import (DEFAULT_DELTA_PRIME, DEFAULT_PRIORS, FIELDS, MAX_DIGITS, MECHANISMS, NEIGHBOURS, PARAMETERS,
                     ReleaseError, warnings_for)

#: Limits on a release file (--from): size, nesting depth, list entries.
MAX_BYTES = 1_000_000
MAX_DEPTH = 8
MAX_ENTRIES = 256


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors in the report's one-line form
        self.exit(2, f"error: arguments: {message}\n")


def _num(text: str):
    """A number flag: a float, or an exact rational "a/b" kept as written (the release's checks read it)."""
    try:
        return float(text)
    except ValueError:
        from .fields import _RATIONAL

        if _RATIONAL.fullmatch(text):
            return text.strip()
        raise argparse.ArgumentTypeError(f"not a number or an exact rational a/b: {text!r}") from None


def _parser() -> argparse.ArgumentParser:
    epilog = "Fields of a release (flags or JSON keys):\n" + "\n".join(f"  {k}: {v}" for k, v in FIELDS.items())
    epilog += ("\n  mechanisms: (JSON only) a list of mechanisms, each with its own fields and k, composed together"
               f"\n\nDefaults: priors {list(DEFAULT_PRIORS)}, delta_prime {DEFAULT_DELTA_PRIME}, k 1, sensitivity 1,"
               " neighbours unbounded, output ./NAME-report/."
               f"\nLimits on --from: {MAX_BYTES} bytes, nesting depth {MAX_DEPTH}, {MAX_ENTRIES} entries per list, "
               "no duplicate keys.")
    p = _Parser(prog="python -m dpsemantics.report", description=__doc__, epilog=epilog,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    for flag, kind in (("mechanism", str), *((name, _num) for name in PARAMETERS), ("k", _num)):
        p.add_argument(f"--{flag}", type=kind, help=FIELDS[flag],
                       metavar="{" + ",".join(MECHANISMS) + "}" if kind is str else None)
    p.add_argument("--prior", type=_num, action="append", help=f"{FIELDS['priors']}; repeatable "
                                                                f"(default {' '.join(str(x) for x in DEFAULT_PRIORS)})")
    p.add_argument("--delta-prime", type=_num, dest="delta_prime",
                   help=f"{FIELDS['delta_prime']} (default {DEFAULT_DELTA_PRIME})")
    p.add_argument("--unit", help=FIELDS["unit"])
    p.add_argument("--neighbours", choices=NEIGHBOURS, help=FIELDS["neighbours"])
    p.add_argument("--invariant", action="append", dest="invariants", help=FIELDS["invariants"] + "; repeatable")
    p.add_argument("--horizon", type=_num, help=FIELDS["horizon"])
    p.add_argument("--name", help=FIELDS["name"] + " (default 'release', the JSON file's or the gallery's name)")
    p.add_argument("--from", dest="source", type=Path, help="read the release from this JSON file (flags given too "
                                                             "override its top-level fields)")
    p.add_argument("--release", metavar="NAME", nargs="?", const="", help="a published release from the gallery; "
                   "flags given too override its fields (--release alone, or --release --list, lists the gallery)")
    p.add_argument("--list", "--list-releases", dest="list_releases", action="store_true",
                   help="list the gallery of published releases and exit")
    p.add_argument("--compare", nargs="+", metavar="RELEASE",
                   help="compare releases side by side: gallery names or JSON files (flags --prior, --delta-prime "
                        "apply)")
    p.add_argument("--output", type=Path, help="folder for the report (default ./NAME-report/)")
    p.add_argument("--force", action="store_true", help="replace an existing non-empty output folder")
    return p


def _no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ReleaseError("from", f"duplicate key {key!r} in the JSON file")
        seen[key] = value
    return seen


def _check_shape(value, depth=0):
    if depth > MAX_DEPTH:
        raise ReleaseError("from", f"the JSON file is nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, (list, dict)):
        if len(value) > MAX_ENTRIES:
            raise ReleaseError("from", f"a list or object in the JSON file has more than {MAX_ENTRIES} entries")
        for item in value.values() if isinstance(value, dict) else value:
            _check_shape(item, depth + 1)


def read_json(path: Path) -> dict:
    """A release file, within the limits, as a dict; every failure is a ReleaseError on ``from``."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as err:
        raise ReleaseError("from", f"cannot read {path}: {err.strerror or err}") from None
    if len(raw) > MAX_BYTES:
        raise ReleaseError("from", f"{path} is larger than {MAX_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ReleaseError("from", f"{path} is not UTF-8 text") from None
    if text.count("[") + text.count("{") > MAX_ENTRIES * MAX_DEPTH:
        raise ReleaseError("from", f"{path} holds too many lists and objects")
    depth = 0
    for ch in text:  # refuse deep nesting before the parser recurses into it
        depth += ch in "[{"
        depth -= ch in "]}"
        if depth > MAX_DEPTH + 1:
            raise ReleaseError("from", f"the JSON file is nested deeper than {MAX_DEPTH} levels")
    def whole(digits):
        if len(digits.lstrip("-")) > MAX_DIGITS:
            raise ReleaseError("from", f"a number in {path} has {len(digits.lstrip('-'))} digits (at most "
                                       f"{MAX_DIGITS})")
        return int(digits)

    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_int=whole,
                          parse_constant=lambda c: (_ for _ in ()).throw(ReleaseError("from", f"{c} is not a number")))
    except json.JSONDecodeError as err:
        raise ReleaseError("from", f"{path} is not valid JSON ({err.msg}, line {err.lineno})") from None
    _check_shape(data)
    if not isinstance(data, dict):
        raise ReleaseError("from", f"{path} must hold a JSON object")
    data.setdefault("name", path.stem)
    return data


#: A mechanism's flags: its name, its parameters (every declared field), its runs.
_PARAMETERS = ("mechanism", *PARAMETERS, "k")


def _flags(args) -> dict:
    return {**{key: getattr(args, key) for key in _PARAMETERS}, "priors": args.prior,
            "delta_prime": args.delta_prime, "name": args.name, "unit": args.unit, "neighbours": args.neighbours,
            "invariants": args.invariants, "horizon": args.horizon}


def _whole(data: dict) -> dict:
    for key in ("k", "horizon"):
        if isinstance(data.get(key), float) and data[key].is_integer():
            data[key] = int(data[key])
    return data


def _sources_first(data: dict, flags: dict) -> None:
    """A gallery entry's neighbouring relation, unit and invariants, where its source states them, are not
    overridden: refused in one line naming the source.  Other changes of what the source states (a mechanism's
    parameters, a relation the source does not state) are read, with a warning at the top of the report."""
    src = data["source"]
    stated = set(src.get("stated", []))
    name = src["gallery"]
    for key in ("neighbours", "unit", "invariants"):
        if key in flags and flags[key] != data.get(key) and key in stated:
            why = ""
            if key == "neighbours" and flags[key] == "unbounded" and data.get("invariants"):
                why = (" A membership reading would contradict it: what the source publishes exactly (invariants: "
                       + "; ".join(data["invariants"]) + ") is outside the accounting, so membership that these "
                       "counts reveal is not protected at all.")
            quote = next((s["sentence"] for s in src["sources"] if key.rstrip("s") in s["states"]), None)
            raise ReleaseError(key, f"the source of {name} states {key} {data.get(key)!r}"
                               + (f" (“{quote}”)" if quote else "") + f"; refused.{why} Copy the entry into a "
                               "JSON file and use --from to read a release of your own.")
    changed = [key for key in (*_PARAMETERS, "neighbours", "unit", "invariants")
               if key in flags and flags[key] != data.get(key)]
    if changed:
        src = dict(src)
        src["overridden"] = [f"This report changes what the gallery entry {name} gives for {key} "
                             f"({data.get(key)!r} → {flags[key]!r}); "
                             + ("its source states it, so this is not the published release."
                                if key in stated or key in _PARAMETERS else
                                "its source does not state it (the entry's reading).") for key in changed]
        data["source"] = src


def release_from_args(args) -> dict:
    """The release as a dict: the gallery entry or JSON file's fields, then the flags given."""
    data = {}
    if args.release is not None and args.source is not None:
        raise ReleaseError("release", "give either --release or --from, not both")
    if args.release is not None:
        from .gallery import release

        data = release(args.release)
    elif args.source is not None:
        data = read_json(args.source)
    flags = {key: value for key, value in _flags(args).items() if value is not None}
    if args.release is not None:
        _sources_first(data, flags)
    if "mechanism" in flags and "mechanisms" in data:
        data.pop("mechanisms")
    data.update(flags)
    if "mechanism" not in data and "mechanisms" not in data:
        raise ReleaseError("mechanism",
                           f"is required (one of {', '.join(MECHANISMS)}), or --from FILE, or --release NAME")
    return _whole(data)


def _list() -> int:
    from .gallery import entries

    for name, entry in sorted(entries().items()):
        rel = entry["release"]
        params = ", ".join(f"{k}={v}" for k, v in rel.items() if k in PARAMETERS)
        print(f"{name}: {entry['title']} — {rel['mechanism']} ({params}), unit: {rel.get('unit')}, "
              f"neighbours: {rel.get('neighbours')}")
    return 0


#: Flags --compare applies (to every release); any other release flag given with --compare is refused.
COMPARE_FLAGS = ("priors", "delta_prime")


def _compare_refusals(args) -> None:
    """--compare reads each release as published: a flag it cannot apply to all of them is refused, not ignored."""
    given = [key for key, value in _flags(args).items() if value is not None and key not in COMPARE_FLAGS]
    given += [key for key in ("source", "release") if getattr(args, key) is not None]
    if given:
        flag = {"priors": "prior", "delta_prime": "delta-prime", "invariants": "invariant",
                "source": "from"}.get(given[0], given[0])
        raise ReleaseError("compare", f"--{flag} cannot be applied to the releases compared (--compare takes "
                                      "--prior, --delta-prime, --output and --force; run a release alone to "
                                      "change its other fields)")


def _compare(args) -> int:
    from .gallery import names, release
    from .fields import validate

    _compare_refusals(args)
    raw = []
    for item in args.compare:
        data = release(item) if item in names() else read_json(Path(item))
        for key in COMPARE_FLAGS:
            if _flags(args)[key] is not None:
                data[key] = _flags(args)[key]
        data["horizon"] = 1
        raw.append(_whole(data))
    # every release at the union of the priors asked (each release's own, or --prior for all), checked first
    union = sorted({p for data in raw for p in validate(data)["priors"]})
    for data in raw:
        data["priors"] = union
        validate(data)
    from .content import interpret, parse_release
    from .render import write_files, number, percent, prior as prior_text

    reports = [interpret(parse_release(data)) for data in raw]
    priors = union
    header = ["release", "unit", "neighbours", "ρ", "δ′", "ε′ (best point)"] + [
        f"posterior from prior {prior_text(p)}" for p in priors]
    rows = []
    for rep in reports:
        best = {}
        for row in rep["disclosure"]:
            known = [v for v in row["posterior_upper"].values() if v is not None]
            if row.get("posterior_always") is not None:
                known.append(row["posterior_always"])
            best[row["prior"]] = min(known) if known else None
        rows.append([rep["release"].get("title") or rep["release"]["name"], rep["unit"] or "–", rep["neighbours"],
                     number(rep["release"]["rho"]), number(rep["release"]["delta_prime"]),
                     number(rep["eps_prime"]["best_point"], direction="up")]
                    + [percent(best.get(p), "up") if best.get(p) is not None else "no guarantee at this level"
                       for p in priors])
    md = ["# Releases compared", "", "Best upper bound on the posterior known for each release, at every prior asked "
          "(the union of the releases' priors): it holds with probability at least 1 − δ′ (δ′ in its column), "
          "and on every output for a pure ε-DP release; with bounded neighbours the prior is about the target's "
          "value, with unbounded ones about membership.", "", "| " + " | ".join(header) + " |",
          "|" + "---|" * len(header)]
    md += ["| " + " | ".join(r) + " |" for r in rows]
    import csv
    import io

    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([header] + rows)
    folder = args.output or Path.cwd() / "compare-report"
    files = {"compare.md": "\n".join(md) + "\n", "compare.csv": buf.getvalue(),
             "compare.json": json.dumps({"schema_version": reports[0]["schema_version"], "priors": priors,
                                         "reports": reports}, indent=2, ensure_ascii=False, allow_nan=False)}
    written = write_files(files, folder, force=args.force)
    print("\n".join(md[4:]))
    print(f"wrote {len(written)} files into {folder}")
    return 0


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.list_releases or args.release == "":
        return _list()
    try:
        if args.compare:
            from .render import check_output

            _compare_refusals(args)
            check_output(args.output or Path.cwd() / "compare-report", args.force)
            return _compare(args)
        from .fields import validate

        data = release_from_args(args)
        name = validate(data)["name"]
        folder = args.output or Path.cwd() / f"{name}-report"
        from .render import check_output

        check_output(folder, args.force)  # refuse before computing
        for text in warnings_for(validate(data)) + list((data.get("source") or {}).get("overridden") or []):
            print(f"warning: {text}", file=sys.stderr)
        from .content import interpret, parse_release
        from .render import write

        report = interpret(parse_release(data))
        written = write(report, folder, force=args.force)
    except ValueError as err:  # ReleaseError, and the renderer's OutputError
        field = getattr(err, "field", "output")
        message = getattr(err, "message", str(err))
        print(f"error: {field}: {message}", file=sys.stderr)
        return 2
    from .render import headline_text

    print(headline_text(report))
    print(f"wrote {len(written)} files into {folder}:")
    for path in written:
        print(f"  {path.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
