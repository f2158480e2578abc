"""Rerun a chapter of the book with your own parameters.

    python -m dpsemantics.book.rerun CHAPTER -p NAME VALUE [-p NAME VALUE ...] [--output DIR]
    python -m dpsemantics.book.rerun --list

Each chapter notebook has a cell tagged ``parameters`` (its knobs: ε, δ, δ′, priors, k, n, seeds).  This
command executes the chapter with papermill, with the given values injected after that cell, into an
output folder (default ``_build/rerun/CHAPTER``): the executed notebook, ``parameters.json`` and every
figure as PNG and SVG under the book's figure names (``figures/fig-….png``).  The book's own sources are
never modified.  Unknown chapters or parameters, values of the wrong type and values out of range are
refused, with the valid choices listed, before anything runs.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import sys
from pathlib import Path

from .toc import ROOT, chapter_notebooks
from .plotting import FIGURE_DIR_ENV

# Range rules by parameter name, shared by every chapter (see CONTRIBUTING.md, "parameters").
RANGE_RULES = [  # the first rule whose pattern matches the name applies
    (re.compile(r"^(n|k|seed|trials|days)$|^(n_|k_)"), lambda v: v >= 0, ">= 0"),
    (re.compile(r"^(delta|prior|p_|q_|prob|level)|(_prob|_prior|_level)s?$|^(p|q|b)$"), lambda v: 0 <= v <= 1,
     "in [0, 1]"),
    (re.compile(r"^(eps|epsilon|rho|sigma|scale|sensitivity)"), lambda v: v >= 0, ">= 0"),
]


class RerunError(ValueError):
    """A refused rerun request; the message lists the valid choices."""


def chapters(root: Path = ROOT) -> dict[str, Path]:
    """Chapter name → notebook path, for every notebook listed in ``_toc.yml``."""
    return {nb.stem: nb for nb in chapter_notebooks(root)}


def parameters(notebook: Path) -> dict[str, dict]:
    """The notebook's parameters: name → {default (a Python value), help}."""
    import papermill as pm

    params = {}
    for name, info in pm.inspect_notebook(str(notebook)).items():
        params[name] = {"default": ast.literal_eval(info["default"]), "help": info.get("help", "")}
    return params


def _describe(params: dict) -> str:
    return "\n".join(f"  {name} = {p['default']!r}  # {p['help']}" for name, p in params.items())


def _check_value(name: str, raw: str, default):
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        value = raw
    kind = type(default)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if kind is int and isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise RerunError(f"parameter {name} must be of type {kind.__name__} like its default {default!r} (got {raw!r})")
    numbers = value if isinstance(value, (list, tuple)) else [value]
    for rule, ok, text in RANGE_RULES:
        if rule.search(name):
            for v in numbers:
                if isinstance(v, (int, float)) and not isinstance(v, bool) and (v != v or not ok(v)):
                    raise RerunError(f"parameter {name} must be {text} (got {name}={raw})")
            break
    return value


def validate(chapter: str, pairs: list[tuple[str, str]], root: Path = ROOT) -> tuple[Path, dict]:
    """Check a request; return the notebook and the typed parameter values, or raise RerunError."""
    available = chapters(root)
    if chapter not in available:
        raise RerunError(f"unknown chapter {chapter!r}; valid chapters: {', '.join(sorted(available))}")
    notebook = available[chapter]
    params = parameters(notebook)
    values = {}
    for name, raw in pairs:
        if name not in params:
            raise RerunError(f"unknown parameter {name!r} for chapter {chapter}; valid parameters:\n"
                             f"{_describe(params)}")
        values[name] = _check_value(name, raw, params[name]["default"])
    return notebook, values


def rerun(chapter: str, pairs: list[tuple[str, str]], output: Path | None = None, *, progress: bool = True,
          root: Path = ROOT) -> list[Path]:
    """Execute ``chapter`` with the given parameters; return the files written."""
    import papermill as pm

    notebook, values = validate(chapter, pairs, root)
    output = Path(output) if output else root / "_build" / "rerun" / chapter
    figures = output / "figures"
    figures.mkdir(parents=True, exist_ok=True)
    for old in figures.glob("*"):
        old.unlink()
    executed = output / notebook.name
    previous = os.environ.get(FIGURE_DIR_ENV)
    os.environ[FIGURE_DIR_ENV] = str(figures.resolve())
    try:
        pm.execute_notebook(str(notebook), str(executed), parameters=values, cwd=str(notebook.parent),
                            progress_bar=progress, kernel_name="python3")
    finally:
        if previous is None:
            os.environ.pop(FIGURE_DIR_ENV, None)
        else:
            os.environ[FIGURE_DIR_ENV] = previous
    (output / "parameters.json").write_text(json.dumps({"chapter": chapter, "parameters": values}, indent=2))
    return [executed, output / "parameters.json", *sorted(figures.glob("*"))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dpsemantics.book.rerun", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chapter", nargs="?", help="chapter name, e.g. intro or disclosure-risk")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                        help="set a parameter (repeatable); VALUE is a Python literal")
    parser.add_argument("-o", "--output", type=Path, help="output folder (default _build/rerun/CHAPTER)")
    parser.add_argument("--list", action="store_true", help="list the chapters and their parameters")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.list or not args.chapter:
        for name, nb in sorted(chapters().items()):
            print(f"{name}:\n{_describe(parameters(nb))}")
        return 0 if args.list else 2
    try:
        written = rerun(args.chapter, [tuple(p) for p in args.parameter], args.output, progress=not args.quiet)
    except RerunError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {len(written)} files:")
    for path in written:
        print(f"  {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
