"""python -m dpsemantics.book.rerun: a chapter rerun with new parameters writes different figures, named like
the book's; bad requests are refused with the valid choices and a non-zero exit."""

import json
import subprocess
import sys

import pytest

from conftest import ROOT
from dpsemantics.book import rerun


def figure_names(notebook):
    cells = json.loads(notebook.read_text())["cells"]
    return {c["metadata"]["mystnb"]["figure"]["name"] for c in cells
            if "figure" in c.get("metadata", {}).get("mystnb", {})}


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "dpsemantics.book.rerun", *args], capture_output=True, text=True,
                          cwd=ROOT)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("default")
    changed = tmp_path_factory.mktemp("changed")
    rerun.rerun("intro", [], base, progress=False)
    proc = run_cli("intro", "-p", "eps", "0.5", "-o", str(changed), "--quiet")
    assert proc.returncode == 0, proc.stderr
    return base, changed, proc.stdout


def test_rerun_writes_every_book_figure_as_png_and_svg(two_runs):
    base, changed, stdout = two_runs
    names = figure_names(ROOT / "book" / "intro.ipynb")
    assert names
    for name in names:
        for ext in ("png", "svg"):
            assert (changed / "figures" / f"{name}.{ext}").is_file()
            assert f"{name}.{ext}" in stdout
    assert json.loads((changed / "parameters.json").read_text())["parameters"] == {"eps": 0.5}


def test_changed_eps_changes_a_figure(two_runs):
    base, changed, _ = two_runs
    differ = [p.name for p in (changed / "figures").glob("*.png")
              if p.read_bytes() != (base / "figures" / p.name).read_bytes()]
    assert "fig-intro-profiles.png" in differ


def test_book_sources_untouched(two_runs):
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
