"""The book builds strictly, and a page whose code raises fails the build and names the page and the cell.

The strict build (``strict_build``, conftest) is the one execution of every page with code in ``make test``
(the notebook tests of ``--nbval-lax`` executed each chapter a second time, and could say no more: the chapters
are stored without outputs, so nbval only checked that every cell runs).  myst-nb stops the build at the first
cell that raises (``nb_execution_raise_on_error``); :func:`execution_failure` reads that page and cell from the
build's log, and each page's test below reports it, or that the build stopped before reaching the page.
"""

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
import yaml

from conftest import ROOT, jupyter_book
from dpsemantics.book import chapter_notebooks, docnames
from dpsemantics.book.toc import pages_with_code

EXECUTED = ROOT / "_build" / "jupyter_execute"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
PAGES = pages_with_code()


class ExecutionFailure(NamedTuple):
    path: str  # the page's source file as the build named it
    cell: str  # the source of the cell that raised
    error: str  # the error the cell raised, as the kernel printed it (its last lines)


def execution_failure(log: str) -> ExecutionFailure | None:
    """The page and cell that stopped a build, read from its log (``None`` when no cell raised)."""
    log = _ANSI.sub("", log)
    page = re.search(r"ExecutionError: (\S+)", log)
    if page is None:
        return None
    cell = re.search(r"An error occurred while executing the following cell:\n-+\n(.*?)\n-+\n(.*?)"
                     r"\n\s*The above exception was the direct cause", log, re.S)
    source, error = (cell.group(1).strip(), cell.group(2).strip()) if cell else ("(not in the log)", "")
    error_lines = [line for line in error.splitlines() if line.strip()]
    return ExecutionFailure(page.group(1), source, "\n".join(error_lines[-12:]))


def test_strict_build_succeeds(strict_build):
    log = strict_build.stdout + strict_build.stderr
    failure = execution_failure(log)
    where = f"\n{failure.path} raised in the cell:\n{failure.cell}\n{failure.error}" if failure else ""
    assert strict_build.returncode == 0, f"strict book build failed:{where}\n{log[-4000:]}"
    html = ROOT / "_build" / "html"
    for doc in docnames():
        assert (html / f"{doc}.html").is_file(), f"{doc}.html missing from the build"


@pytest.mark.parametrize("page", PAGES)
def test_page_runs_in_the_strict_build(page, strict_build):
    """Each page with code was executed by the strict build without an error: the page and cell that raised
    are named, and a page the build never reached (it stops at the first error) fails too."""
    failure = execution_failure(strict_build.stdout + strict_build.stderr)
    if failure and Path(failure.path).with_suffix("").as_posix().endswith(page):
        pytest.fail(f"{page} raised in the strict build, in the cell:\n{failure.cell}\n\n{failure.error}")
    executed = EXECUTED / f"{page}.ipynb"
    reached = executed.is_file() and (strict_build.args[0] == "reused"
                                      or executed.stat().st_mtime >= getattr(strict_build, "started", 0))
    stopped = f" (the build stopped at {failure.path})" if failure else ""
    assert reached, f"{page} was not executed by the strict build{stopped}"
    cells = json.loads(executed.read_text())["cells"]
    errors = [(i, o.get("ename"), o.get("evalue")) for i, c in enumerate(cells) if c["cell_type"] == "code"
              and "raises-exception" not in c.get("metadata", {}).get("tags", [])
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{page}: cells that raised (cell index, error): {errors}"


def test_every_toc_notebook_exists_and_has_parameters_cell():
    notebooks = chapter_notebooks()
    assert notebooks
    for nb in notebooks:
        cells = json.loads(nb.read_text())["cells"]
        tags = [c.get("metadata", {}).get("tags", []) for c in cells]
        assert any("parameters" in t for t in tags), f"{nb.name} has no parameters cell"
        assert all(not c.get("outputs") for c in cells if c["cell_type"] == "code"), (
            f"{nb.name} is committed with outputs")


def test_an_unnumbered_opening_page_does_not_shift_the_chapter_numbers(tmp_path):
    """Issue 34: the opening page (*What ε means for a person*) is a notebook in an unnumbered part before the
    chapters; it follows the chapters' rules (it is among ``chapter_notebooks``), but Chapter 1 stays the first
    notebook of the numbered part, as Jupyter Book numbers it."""
    from dpsemantics.book import toc

    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: index\nparts:\n  - caption: Start here\n    chapters:\n      - file: front\n"
        "  - caption: Chapters\n    numbered: true\n    chapters:\n      - file: one\n      - file: two\n"
        "  - caption: Reference\n    chapters:\n      - file: notes\n")
    for name in ("front", "one", "two", "notes"):
        cells = [{"cell_type": "markdown", "metadata": {}, "source": [f"# Title {name}\n"]}]
        (tmp_path / f"{name}.ipynb").write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                                            "nbformat_minor": 5}))
    assert [p.stem for p in toc.chapter_notebooks(tmp_path)] == ["front", "one", "two", "notes"]
    assert toc.chapter_numbers(tmp_path) == {"one": 1, "two": 2}
    assert toc.chapter_titles(tmp_path) == {"one": "1 Title one", "two": "2 Title two"}
    assert "book/meaning" not in toc.chapter_numbers() and toc.chapter_numbers()["book/intro"] == 1


def _raising_project(tmp_path: Path) -> Path:
    """A two-page book with the book's configuration (its extensions read ``pyproject.toml`` and the
    bibliography) whose first page raises in its second code cell."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    config.get("html", {}).pop("favicon", None)
    (tmp_path / "_config.yml").write_text(yaml.safe_dump(config))
    for name in ("pyproject.toml", "references.bib"):
        (tmp_path / name).write_text((ROOT / name).read_text())
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: broken\nchapters:\n  - file: fine\n")

    def notebook(title, source):
        cells = [{"cell_type": "markdown", "metadata": {}, "source": [f"# {title}\n"]},
                 {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": ["x = 1\n"]},
                 {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": [source]}]
        return json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5, "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}})

    (tmp_path / "broken.ipynb").write_text(notebook("Broken", "raise RuntimeError('boom in cell two')\n"))
    (tmp_path / "fine.ipynb").write_text(notebook("Fine", "print(x)\n"))
    return tmp_path


def test_a_raising_notebook_fails_the_build_and_nbval_naming_the_cell(tmp_path):
    project = _raising_project(tmp_path)
    build = jupyter_book(".", "-W", "-n", "--keep-going", cwd=project)
    assert build.returncode != 0, "a notebook that raises produced a green build"
    # the build failed because of the notebook (not the configuration), and the report says where
    failure = execution_failure(build.stdout + build.stderr)
    assert failure is not None, (build.stdout + build.stderr)[-3000:]
    assert failure.path.endswith("broken.ipynb") and failure.cell == "raise RuntimeError('boom in cell two')"
    assert "RuntimeError: boom in cell two" in failure.error
    # nbval, for running one chapter while writing it (CONTRIBUTING), fails a raising notebook too
    nbval = subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval-lax", "-p", "no:cacheprovider", "-q", str(project / "broken.ipynb")],
        capture_output=True, text=True, cwd=project,
    )
    assert nbval.returncode != 0, "nbval passed a notebook that raises"


def test_prose_numbers_are_glued_in_the_reader_format():
    """``{glue:text}`x:.1e``` or ``:g`` prints Python's exponent form (1e-06) into a sentence; numbers that can
    be tiny are glued as text made by ``book.number`` (10⁻⁶) instead."""
    for nb in chapter_notebooks():
        for cell in json.loads(nb.read_text())["cells"]:
            if cell["cell_type"] == "markdown":
                bad = re.findall(r"\{glue:text\}`[\w:]+:[^`]*[eEgG]`", "".join(cell["source"]))
                assert not bad, f"{nb.name}: {bad} (glue number(value, digits) and write {{glue:text}}`name`)"
