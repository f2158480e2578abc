"""python -m dpsemantics.book.rerun: a chapter rerun with new parameters writes different figures, named like
the book's; bad requests are refused with the valid choices and a non-zero exit.

The chapter is rerun once, with a changed ε; the run at the book's defaults it is compared with is the strict
build's execution of the chapter (``strict_build``, conftest), not a second rerun.
"""

import json
import subprocess
import sys

import pytest

from conftest import ROOT
from dpsemantics.book import rerun

EXECUTED_INTRO = ROOT / "_build" / "jupyter_execute" / "book" / "intro.ipynb"  # the strict build's execution


def figure_names(notebook):
    cells = json.loads(notebook.read_text())["cells"]
    return {c["metadata"]["mystnb"]["figure"]["name"] for c in cells
            if "figure" in c.get("metadata", {}).get("mystnb", {})}


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "dpsemantics.book.rerun", *args], capture_output=True, text=True,
                          cwd=ROOT)


SVG = "image/svg+xml"


def figure_images(notebook, mime=SVG):
    """Each figure cell's displayed images of type ``mime`` (the SVG text as the notebook stores it), by the
    figure's name."""
    cells = json.loads(notebook.read_text())["cells"]
    return {c["metadata"]["mystnb"]["figure"]["name"]: ["".join(o["data"][mime]) for o in c.get("outputs", [])
                                                        if mime in o.get("data", {})]
            for c in cells if "figure" in c.get("metadata", {}).get("mystnb", {})}


@pytest.fixture(scope="session")  # not module: the test that compares with the build runs after the build
def changed_run(tmp_path_factory):
    changed = tmp_path_factory.mktemp("changed")
    proc = run_cli("intro", "-p", "eps", "0.5", "-o", str(changed), "--quiet")
    assert proc.returncode == 0, proc.stderr
    return changed, proc.stdout


def test_rerun_writes_every_book_figure_as_png_and_svg(changed_run):
    changed, stdout = changed_run
    names = figure_names(ROOT / "book" / "intro.ipynb")
    assert names
    for name in names:
        for ext in ("png", "svg"):
            assert (changed / "figures" / f"{name}.{ext}").is_file()
            assert f"{name}.{ext}" in stdout
    assert json.loads((changed / "parameters.json").read_text())["parameters"] == {"eps": 0.5}


def test_changed_eps_changes_a_figure(changed_run, strict_build):
    """The rerun's figures against the strict build's, figure by figure: the profile figure (drawn at ε) differs,
    and a figure that does not depend on ε is byte-identical (the comparison sees the parameter, not noise)."""
    assert strict_build.returncode == 0, "the strict build failed; see test_strict_build_succeeds"
    changed, _ = changed_run
    book, rerun_images = figure_images(EXECUTED_INTRO), figure_images(changed / "intro.ipynb")
    assert set(rerun_images) == set(book) and all(book.values()), "a figure cell displayed no SVG"
    differ = {name for name in book if rerun_images[name] != book[name]}
    assert "fig-intro-profiles" in differ
    assert differ != set(book), f"every figure differs from the build's, even those that do not depend on ε: {differ}"


def test_every_built_figure_is_svg(strict_build):
    """Every figure of every executed chapter is shown as SVG (vector on the page and in the printed book), never
    as a PNG beside or instead of it."""
    assert strict_build.returncode == 0, "the strict build failed; see test_strict_build_succeeds"
    for name in rerun.chapters():
        executed = EXECUTED_INTRO.with_name(f"{name}.ipynb")
        svg, png = figure_images(executed), figure_images(executed, "image/png")
        missing = [n for n, v in svg.items() if not v]
        assert svg and not missing, f"{name}: a figure cell displayed no SVG: {missing}"
        assert not any(png.values()), f"{name}: figures shown as PNG: {[n for n, v in png.items() if v]}"


def test_book_sources_untouched(changed_run):
    src = json.loads((ROOT / "book" / "intro.ipynb").read_text())
    assert all(not c.get("outputs") for c in src["cells"] if c["cell_type"] == "code")


@pytest.mark.parametrize(
    "args, expected",
    [
        (["intro", "-p", "epz", "0.5"], "valid parameters"),
        (["intro", "-p", "delta", "2"], "delta must be in [0, 1]"),
        (["intro", "-p", "n_records", "'three'"], "n_records must be of type int"),
        (["intro", "-p", "eps", "-1"], "eps must be >= 0"),
        (["no-such-chapter"], "valid chapters"),
    ],
)
def test_bad_requests_are_refused(args, expected):
    proc = run_cli(*args)
    assert proc.returncode != 0
    assert expected in proc.stderr
    if "valid parameters" in expected:
        assert "eps = 1.0" in proc.stderr


def test_every_notebook_figure_is_saved_under_its_book_name():
    """Each figure cell's mystnb name is the name passed to plotting.finish in that cell, and has alt text."""
    for nb in rerun.chapters().values():
        for cell in json.loads(nb.read_text())["cells"]:
            fig = cell.get("metadata", {}).get("mystnb", {}).get("figure")
            if not fig:
                continue
            source = "".join(cell["source"])
            assert f'"{fig["name"]}"' in source and "finish(" in source, (
                f"{nb.name}: {fig['name']} not saved by finish()")
            alt = cell["metadata"]["mystnb"].get("image", {}).get("alt", "")
            assert alt.strip(), f"{nb.name}: {fig['name']} has no alt text"
            assert fig.get("caption", "").strip(), f"{nb.name}: {fig['name']} has no caption"


def test_every_chapter_accepts_its_own_defaults():
    """The name-based range rules never refuse a value the book itself uses."""
    for name, nb in rerun.chapters().items():
        params = rerun.parameters(nb)
        _, values = rerun.validate(name, [(p, repr(info["default"])) for p, info in params.items()])
        assert values == {p: info["default"] for p, info in params.items()}
