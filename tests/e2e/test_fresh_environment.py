"""The chapters run where a launch button takes a reader: a fresh Python with only pip (Colab, Binder).

A new virtual environment gets a kernel and nothing else — no dpsemantics, no myst-nb, no checkout — and
the chapters are executed from a temporary folder outside the repository.  The first chapter installs the
package itself through its first cell (``%pip install`` of the book's release, answered offline from the
wheel of this checkout and the wheels ``make setup`` keeps in ``.venv/wheelhouse``); the others then run
with the package installed from that wheel, and ``glue`` degrades to a no-op without myst-nb.
"""

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import nbformat
import pytest

from conftest import ROOT
from dpsemantics.book import chapter_notebooks
from dpsemantics.book.notebook import install_spec

WHEELHOUSE = ROOT / ".venv" / "wheelhouse"
KERNEL = "dpsemantics-fresh"
CHAPTERS = chapter_notebooks()
# Left out of the fresh environment: another package index, and the checkout on the import path.
REMOVED = ("PIP_EXTRA_INDEX_URL", "PYTHONPATH")


def _first_code_cell(path: Path) -> str:
    nb = nbformat.read(path, as_version=4)
    return next(c.source for c in nb.cells if c.cell_type == "code")


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_first_cell_installs_the_books_release(path):
    source = _first_code_cell(path)
    lines = source.splitlines()
    assert lines[:4] == [
        "try:",
        "    import dpsemantics  # noqa: F401",
        "except ImportError:  # a fresh Python (Colab, Binder): install this book's release first",
        f'    %pip install --quiet "{install_spec()}"',
    ], f"{path.name}: the first cell must install {install_spec()!r} when dpsemantics is missing"
    assert "myst_nb" not in source, f"{path.name} imports myst_nb directly; use dpsemantics.book.notebook.glue"


def _run(*args, env=None):
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, f"{' '.join(map(str, args))} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    if not WHEELHOUSE.is_dir():
        pytest.fail(f"{WHEELHOUSE} is missing: run `make setup` (it keeps the wheels this offline test installs)")
    base = tmp_path_factory.mktemp("fresh")
    wheels = base / "wheels"
    overrides = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": f"{WHEELHOUSE} {wheels}",
                 "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONNOUSERSITE": "1"}
    offline = {k: v for k, v in os.environ.items() if k not in REMOVED} | overrides
    # this checkout's wheel, built offline (the build backend comes from the wheelhouse)
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, ROOT, env=offline)
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    _run(python, "-m", "pip", "install", "--quiet", "ipykernel==7.4.0", env=offline)
    _run(python, "-m", "ipykernel", "install", "--prefix", env_dir, "--name", KERNEL)
    work = base / "work"  # outside the checkout: nothing can be read from the repository by accident
    work.mkdir()
    return {"python": python, "env": offline, "overrides": overrides, "jupyter_path": env_dir / "share" / "jupyter",
            "work": work}


def _execute(path: Path, fresh, monkeypatch):
    from nbclient import NotebookClient

    monkeypatch.setenv("JUPYTER_PATH", str(fresh["jupyter_path"]))
    for key, value in fresh["overrides"].items():
        monkeypatch.setenv(key, value)
    for key in REMOVED:
        monkeypatch.delenv(key, raising=False)
    copy = fresh["work"] / path.name
    shutil.copy(path, copy)
    nb = nbformat.read(copy, as_version=4)
    NotebookClient(nb, kernel_name=KERNEL, timeout=900, resources={"metadata": {"path": str(fresh["work"])}}).execute()
    return nb


def test_fresh_environment_has_only_pip_and_a_kernel(fresh):
    probe = "import importlib.util as u; print([m for m in ('dpsemantics', 'myst_nb', 'numpy') if u.find_spec(m)])"
    before = _run(fresh["python"], "-c", probe, env=fresh["env"]).strip()
    assert before == "[]", f"the fresh environment already holds {before}"


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_chapter_runs_in_a_fresh_environment(path, fresh, monkeypatch):
    nb = _execute(path, fresh, monkeypatch)
    errors = [o for c in nb.cells if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    where = _run(fresh["python"], "-c", "import dpsemantics; print(dpsemantics.__file__)", env=fresh["env"])
    assert str(ROOT) not in where and "site-packages" in where, where
