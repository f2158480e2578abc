"""The student edition of the book: the same chapters with every exercise solution removed.

    python -m dpsemantics.book.student_edition OUTDIR

copies the book's sources (``_config.yml``, ``_toc.yml``, ``references.bib``, ``book/``) to ``OUTDIR`` with
every gated solution (``solution-start`` … ``solution-end``, including the code cells between them) cut out
of the notebooks; ``make book-student`` then builds that copy.  (sphinx-exercise's own ``hide_solutions``
option crashes on gated solutions in version 1.2.1 — "unknown node type: solution_end_node" — so the
solutions are removed at the source instead, which also keeps them out of the downloadable notebooks.)
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import nbformat

from .toc import ROOT
_START = re.compile(r"```\{solution-start\}")
_END = re.compile(r"```\{solution-end\}\s*\n?```")
NOTICE = "\n\n```{note}\nThis is the student edition: the solutions are not included.\n```\n"


def strip_solutions(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove every gated solution from a notebook (markdown spans and the code cells inside them)."""
    inside, cells = False, []
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            if not inside:
                cells.append(cell)
            continue
        text, pos, kept = cell.source, 0, []
        while True:
            if not inside:
                m = _START.search(text, pos)
                if m is None:
                    kept.append(text[pos:])
                    break
                kept.append(text[pos:m.start()])
                inside, pos = True, m.end()
            m = _END.search(text, pos)
            if m is None:
                break
            inside, pos = False, m.end()
        new = "".join(kept).strip()
        if new:
            cell.source = new
            cells.append(cell)
    if inside:
        raise ValueError("a solution-start has no matching solution-end")
    nb.cells = cells
    return nb


def write_edition(outdir: Path, root: Path = ROOT) -> list[Path]:
    """Copy the book to ``outdir`` with solutions removed; return the notebooks written."""
    outdir = Path(outdir)
    if outdir.exists():
        shutil.rmtree(outdir)
    shutil.copytree(root / "book", outdir / "book")
    for name in ("_config.yml", "_toc.yml", "references.bib"):
        shutil.copy2(root / name, outdir / name)
    written = []
    for path in sorted((outdir / "book").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        if any(_START.search(c.source) for c in nb.cells if c.cell_type == "markdown"):
            nb = strip_solutions(nb)
            nb.cells[0].source += NOTICE if nb.cells[0].cell_type == "markdown" else ""
            nbformat.write(nb, path)
            written.append(path)
    return written


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m dpsemantics.book.student_edition OUTDIR", file=sys.stderr)
        return 2
    for path in write_edition(Path(args[0])):
        print(f"solutions removed: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
