"""The student edition of the book: the same chapters with every exercise solution removed.

    python -m dpsemantics.book.student_edition OUTDIR

copies the book's sources (``_config.yml``, ``_toc.yml``, ``references.bib``, ``book/``) to ``OUTDIR`` with
every gated solution (``solution-start`` … ``solution-end``, including the code cells between them) cut out
of the notebooks, and without what gives answers away: the *For instructors* page (its table of learning
goals and checks; links to it become plain text) and the rows of the reproducibility report that exercises ask
students to find (:func:`~dpsemantics.book.exercises.exercise_claims`); ``make book-student`` then builds that
copy.

    python -m dpsemantics.book.student_edition OUTDIR --executed _build/jupyter_execute

starts instead from the notebooks a build of the reader's edition has already executed (Jupyter Book keeps
them in ``_build/jupyter_execute``, the MyST-markdown pages with code, such as the claims report, as notebooks
too): their solutions are cut the same way, outputs and all, and the copy's
``_config.yml`` excludes them from execution (a notebook whose cells differ from its source is stale and is
executed again), so building the student edition costs no second execution of
the chapters (``make pdf`` and the PDF test use this).  (sphinx-exercise's own ``hide_solutions``
option crashes on gated solutions in version 1.2.1 — "unknown node type: solution_end_node" — so the
solutions are removed at the source instead, which also keeps them out of the downloadable notebooks.)
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import nbformat
import yaml

from .exercises import exercise_claims
from .toc import ROOT

_START = re.compile(r"```\{solution-start\}")
_END = re.compile(r"```\{solution-end\}\s*\n?```")
NOTICE = "\n\n```{note}\nThis is the student edition: the solutions are not included.\n```\n"
INSTRUCTORS = "book/instructors"
_INSTRUCTORS_LINK = re.compile(r"\{doc\}`/?(?:book/)?instructors`( page)?")
# The line of book/claims.md after which the rows the exercises ask for are filtered out.
_CLAIMS_ANCHOR = "results = claims.evaluate_all()"


def drop_instructors(outdir: Path) -> None:
    """Remove the instructors page from a copy of the book: its file, its table-of-contents entry, and the
    links to it (which become the page's name in plain text)."""
    (outdir / f"{INSTRUCTORS}.md").unlink(missing_ok=True)
    toc_path = outdir / "_toc.yml"
    toc = yaml.safe_load(toc_path.read_text())

    def prune(entries):
        kept = [e for e in entries if e.get("file") != INSTRUCTORS]
        for e in kept:
            for key in ("chapters", "sections", "parts"):
                if key in e:
                    e[key] = prune(e[key])
        return kept

    for key in ("parts", "chapters"):
        if key in toc:
            toc[key] = prune(toc[key])
    toc_path.write_text(yaml.safe_dump(toc, sort_keys=False, allow_unicode=True))
    for path in (outdir / "book").rglob("*"):
        if path.suffix in (".md", ".ipynb"):
            text = path.read_text()
            if _INSTRUCTORS_LINK.search(text):
                path.write_text(_INSTRUCTORS_LINK.sub("*For instructors* page (not in the student edition)", text))


def _claim_role(claim_ids: set[str]) -> str:
    """The pattern of a ``{claim}`ID``` link to one of ``claim_ids`` (the id as its group)."""
    return r"\{claim\}`(" + "|".join(re.escape(c) for c in sorted(claim_ids)) + r")`"


def drop_exercise_claims(outdir: Path, claim_ids: set[str]) -> None:
    """Leave the claims that exercises ask for out of the copy's reproducibility report, and unlink the
    references to them that the report writes itself: a note in a row that is kept may name a row left out
    (Example 4.1's "… to 81%" names "… from 19%"), and the report links every claim id it prints."""
    page = outdir / "book" / "claims.md"
    text = page.read_text()
    if _CLAIMS_ANCHOR not in text:
        raise ValueError(
            f"book/claims.md no longer contains {_CLAIMS_ANCHOR!r}: update student_edition._CLAIMS_ANCHOR"
        )
    keep = "\n".join([
        "",
        f"results = [r for r in results if r.claim.id not in {sorted(claim_ids)!r}]"
        "  # student edition: exercise targets",
        "import re as _re  # student edition: a row left out is named, not linked",
        f"_left_out, _reader_prose = _re.compile({_claim_role(claim_ids)!r}), prose",
        "prose = lambda text: _left_out.sub(r'`\\1`', _reader_prose(text))  # noqa: E731",
    ])
    page.write_text(text.replace(_CLAIMS_ANCHOR, _CLAIMS_ANCHOR + keep, 1))


def unlink_exercise_claims(outdir: Path, claim_ids: set[str]) -> None:
    """Links to the report rows left out become the plain claim id (no link to a row that is not there), in
    every page of the copy, executed notebooks included: run after the executed chapters are put in place, so
    that this edit of their text does not make them look changed (and be executed again).  The report's own
    links are unlinked by its code (:func:`drop_exercise_claims`)."""
    page = outdir / "book" / "claims.md"
    role = re.compile(_claim_role(claim_ids))
    for path in (outdir / "book").rglob("*"):
        if path.suffix in (".md", ".ipynb") and path != page:
            text = path.read_text()
            if role.search(text):
                path.write_text(role.sub(r"`\1`", text))


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


def _read_source(path: Path) -> nbformat.NotebookNode:
    """A page as a notebook: a Jupyter notebook, or a MyST-markdown page with code cells (the claims report)."""
    if path.suffix == ".md":
        from myst_nb.core.read import read_myst_markdown_notebook

        return read_myst_markdown_notebook(path.read_text())
    return nbformat.read(path, as_version=4)


def _same_sources(done: Path, path: Path) -> bool:
    """Whether an executed notebook was made from the current source (same cells, same text): a stale one is
    not reused, and the chapter is executed again."""
    cells = lambda nb: [(c.cell_type, c.source) for c in nb.cells]  # noqa: E731
    return cells(nbformat.read(done, as_version=4)) == cells(_read_source(path))


def _reuse_executed(done: Path, path: Path) -> None:
    """Copy an executed notebook, with the glue data myst-nb kept aside (``NAME.glue.json``) put back as the
    outputs of one removed cell, so that ``{glue:text}`` finds its numbers without re-executing."""
    nb = nbformat.read(done, as_version=4)
    glue_file = done.with_suffix(".glue.json")
    if glue_file.is_file():
        outputs = []
        for output in json.loads(glue_file.read_text()).values():
            prefix = output.get("metadata", {}).get("scrapbook", {}).get("mime_prefix", "")
            output["data"] = {prefix + k: v for k, v in output["data"].items()}
            outputs.append(nbformat.from_dict(output))
        cell = nbformat.v4.new_code_cell("# glue data of the executed chapter", metadata={"tags": ["remove-cell"]})
        cell.outputs = outputs
        nb.cells.append(cell)
    nbformat.write(nb, path)


def write_edition(outdir: Path, root: Path = ROOT, executed: Path | None = None) -> list[Path]:
    """Copy the book to ``outdir`` with solutions removed; return the notebooks written.

    With ``executed`` (a build's ``jupyter_execute`` folder), chapters are taken with their outputs from there
    and left out of the copy's execution."""
    outdir = Path(outdir)
    if outdir.exists():
        shutil.rmtree(outdir)
    shutil.copytree(root / "book", outdir / "book")
    # pyproject.toml: the release (launch buttons)
    for name in ("_config.yml", "_toc.yml", "references.bib", "pyproject.toml"):
        shutil.copy2(root / name, outdir / name)
    drop_instructors(outdir)
    targets = exercise_claims(root)
    drop_exercise_claims(outdir, targets)  # the report's own code changes: that one page is executed again
    written, reused = [], []
    if executed is not None:  # executed MyST-markdown pages come back as notebooks, under the same page name
        for path in sorted((outdir / "book").glob("*.ipynb")) + sorted((outdir / "book").glob("*.md")):
            done = Path(executed) / "book" / f"{path.stem}.ipynb"
            if done.is_file() and _same_sources(done, path):
                path.unlink()
                _reuse_executed(done, path.with_suffix(".ipynb"))
                reused.append(f"book/{path.stem}.ipynb")
    unlink_exercise_claims(outdir, targets)
    for path in sorted((outdir / "book").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        if any(_START.search(c.source) for c in nb.cells if c.cell_type == "markdown"):
            nb = strip_solutions(nb)
            nb.cells[0].source += NOTICE if nb.cells[0].cell_type == "markdown" else ""
            nbformat.write(nb, path)
            written.append(path)
    if reused:
        config = yaml.safe_load((outdir / "_config.yml").read_text())
        config.setdefault("execute", {})["exclude_patterns"] = reused
        (outdir / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    return written


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    executed = None
    if len(args) == 3 and args[1] == "--executed":
        args, executed = args[:1], Path(args[2])
    if len(args) != 1:
        print("usage: python -m dpsemantics.book.student_edition OUTDIR [--executed BUILD/jupyter_execute]",
              file=sys.stderr)
        return 2
    for path in write_edition(Path(args[0]), executed=executed):
        print(f"solutions removed: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
