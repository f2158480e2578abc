"""The book builds strictly, and a notebook that raises fails the build and the notebook tests."""

import json
import subprocess
import sys
from pathlib import Path

import yaml

from conftest import ROOT, jupyter_book
from dpsemantics.book import chapter_notebooks, docnames


def test_strict_build_succeeds(strict_build):
    tail = (strict_build.stdout + strict_build.stderr)[-4000:]
    assert strict_build.returncode == 0, f"strict book build failed:\n{tail}"
    html = ROOT / "_build" / "html"
    for doc in docnames():
        assert (html / f"{doc}.html").is_file(), f"{doc}.html missing from the build"


def test_every_toc_notebook_exists_and_has_parameters_cell():
    notebooks = chapter_notebooks()
    assert notebooks
    for nb in notebooks:
        cells = json.loads(nb.read_text())["cells"]
        tags = [c.get("metadata", {}).get("tags", []) for c in cells]
        assert any("parameters" in t for t in tags), f"{nb.name} has no parameters cell"
        assert all(not c.get("outputs") for c in cells if c["cell_type"] == "code"), f"{nb.name} is committed with outputs"


def _raising_project(tmp_path: Path) -> Path:
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    config["bibtex_bibfiles"] = []
    (tmp_path / "_config.yml").write_text(yaml.safe_dump(config))
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: broken\n")
    nb = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# Broken\n"]},
            {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": ["raise RuntimeError('boom')\n"]},
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp_path / "broken.ipynb").write_text(json.dumps(nb))
    return tmp_path


def test_a_raising_notebook_fails_the_build_and_nbval(tmp_path):
    project = _raising_project(tmp_path)
    build = jupyter_book(".", "-W", "-n", "--keep-going", cwd=project)
    assert build.returncode != 0, "a notebook that raises produced a green build"
    nbval = subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval-lax", "-p", "no:cacheprovider", "-q", str(project / "broken.ipynb")],
        capture_output=True, text=True, cwd=project,
    )
    assert nbval.returncode != 0, "nbval passed a notebook that raises"


def test_prose_numbers_are_glued_in_the_reader_format():
    """``{glue:text}`x:.1e``` or ``:g`` prints Python's exponent form (1e-06) into a sentence; numbers that can
    be tiny are glued as text made by ``book.number`` (10⁻⁶) instead."""
    import re

    for nb in chapter_notebooks():
        for cell in json.loads(nb.read_text())["cells"]:
            if cell["cell_type"] == "markdown":
                bad = re.findall(r"\{glue:text\}`[\w:]+:[^`]*[eEgG]`", "".join(cell["source"]))
                assert not bad, f"{nb.name}: {bad} (glue number(value, digits) and write {{glue:text}}`name`)"
