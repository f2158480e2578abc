"""The book and its package work where a launch button takes a reader: a fresh Python with only pip (Colab, Binder).

A new virtual environment gets a kernel and nothing else — no dpsemantics, no myst-nb, no checkout — and works
in a temporary folder outside the repository.  The first chapter is executed there in full: its first cell
installs the package itself (``%pip install`` of the book's release, answered offline from the wheel of this
checkout and the wheels ``make setup`` keeps in ``.venv/wheelhouse``), and ``glue`` degrades to a no-op without
myst-nb.  The other chapters are not executed a second time (the strict build is their one execution, in
``tests/book/test_book_build.py``): here every import statement of every chapter runs in the fresh environment,
the installed versions are the exact pins of ``pyproject.toml``, and the package's command-line tools run from
the installed wheel (the report from its packaged gallery, the claims registry).  What this leaves to the
strict build alone: a chapter other than the first that calls, while running, a function needing more than
the package's declared dependencies or a file of the checkout.
"""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
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
FIRST = CHAPTERS[0]  # where a reader starts, and where the package is installed
# Left out of the fresh environment: another package index, and the checkout on the import path.
REMOVED = ("PIP_EXTRA_INDEX_URL", "PYTHONPATH")


def _code_cells(path: Path) -> list[str]:
    return [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_first_cell_installs_the_books_release(path):
    source = _code_cells(path)[0]
    lines = source.splitlines()
    assert lines[:4] == [
        "try:",
        "    import dpsemantics  # noqa: F401",
        "except ImportError:  # a fresh Python (Colab, Binder): install this book's release first",
        f'    %pip install --quiet "{install_spec()}"',
    ], f"{path.name}: the first cell must install {install_spec()!r} when dpsemantics is missing"
    assert "myst_nb" not in source, f"{path.name} imports myst_nb directly; use dpsemantics.book.notebook.glue"


def import_statements(path: Path) -> list[str]:
    """Every ``import``/``from … import`` statement of a chapter's code cells, at any depth, as source text
    (IPython magics and shell lines left out: they are not Python)."""
    found = []
    for source in _code_cells(path):
        python = "\n".join(line[:len(line) - len(line.lstrip())] + "pass" if line.lstrip().startswith(("%", "!"))
                           else line for line in source.splitlines())
        for node in ast.walk(ast.parse(python)):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and not (isinstance(node, ast.ImportFrom)
                                                                       and node.level):
                found.append(ast.unparse(node))
    return list(dict.fromkeys(found))


def _run(*args, env=None, cwd=None):
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env, cwd=cwd)
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


def test_fresh_environment_has_only_pip_and_a_kernel(fresh):
    probe = "import importlib.util as u; print([m for m in ('dpsemantics', 'myst_nb', 'numpy') if u.find_spec(m)])"
    before = _run(fresh["python"], "-c", probe, env=fresh["env"]).strip()
    assert before == "[]", f"the fresh environment already holds {before}"


@pytest.fixture(scope="module")
def first_chapter(fresh):
    """The first chapter executed in the fresh environment (its first cell installs the package)."""
    from nbclient import NotebookClient

    saved = {k: os.environ.get(k) for k in ("JUPYTER_PATH", *fresh["overrides"], *REMOVED)}
    os.environ["JUPYTER_PATH"] = str(fresh["jupyter_path"])
    os.environ.update(fresh["overrides"])
    for key in REMOVED:
        os.environ.pop(key, None)
    try:
        copy = fresh["work"] / FIRST.name
        shutil.copy(FIRST, copy)
        nb = nbformat.read(copy, as_version=4)
        NotebookClient(nb, kernel_name=KERNEL, timeout=900,
                       resources={"metadata": {"path": str(fresh["work"])}}).execute()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return nb


def test_first_chapter_installs_the_package_and_runs_in_a_fresh_environment(first_chapter, fresh):
    errors = [(o.get("ename"), o.get("evalue")) for c in first_chapter.cells if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{FIRST.name} raised in a fresh environment: {errors}"
    where = _run(fresh["python"], "-c", "import dpsemantics; print(dpsemantics.__file__)", env=fresh["env"])
    assert str(ROOT) not in where and "site-packages" in where, where


def test_installed_versions_are_the_pins(first_chapter, fresh):
    """The wheel's requirements, as pip resolved them in the fresh environment, are pyproject.toml's exact pins."""
    pins = dict(re.fullmatch(r"([A-Za-z0-9_.\-]+)==(\S+)", r).groups()
                for r in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"])
    listed = json.loads(_run(fresh["python"], "-m", "pip", "list", "--format=json", env=fresh["env"]))
    installed = {p["name"].lower(): p["version"] for p in listed}
    assert {name.lower(): installed.get(name.lower()) for name in pins} == {n.lower(): v for n, v in pins.items()}


# Run in the fresh environment: each chapter's import statements, each in its own try; the failures by chapter.
_IMPORT_PROBE = """
import json, sys
failed = {}
for chapter, statements in json.loads(sys.argv[1]).items():
    for statement in statements:
        try:
            exec(statement, {})
        except Exception as err:
            failed.setdefault(chapter, []).append(f"{statement} -> {err!r}")
print(json.dumps(failed))
"""


@pytest.fixture(scope="module")
def failed_imports(first_chapter, fresh):
    """Each chapter's import statements that fail in the fresh environment (one interpreter for all chapters)."""
    statements = {path.stem: import_statements(path) for path in CHAPTERS}
    out = _run(fresh["python"], "-c", _IMPORT_PROBE, json.dumps(statements), env=fresh["env"], cwd=fresh["work"])
    return statements, json.loads(out)


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_chapter_imports_resolve_in_the_fresh_environment(path, failed_imports):
    statements, failed = failed_imports
    assert any("dpsemantics" in s for s in statements[path.stem]), f"no import of the package found in {path.name}"
    assert path.stem not in failed, f"{path.name}: imports that fail in a fresh environment:\n" + "\n".join(
        failed[path.stem])


def test_command_line_tools_run_from_the_installed_wheel(first_chapter, fresh):
    """The report (with the gallery shipped as package data) and the claims registry, from outside the checkout."""
    out = fresh["work"] / "census-report"
    _run(fresh["python"], "-m", "dpsemantics.report", "--release", "census-2020-pl94-persons", "--output", out,
         env=fresh["env"], cwd=fresh["work"])
    report = json.loads((out / "report.json").read_text())
    assert report["schema_version"] and (out / "report.html").is_file()
    table = _run(fresh["python"], "-m", "dpsemantics.claims", "--paper", "lecture", "--json",
                 env=fresh["env"], cwd=fresh["work"])
    rows = json.loads(table)
    assert rows and all(r["status"] == r["expected"] for r in rows), [r["id"] for r in rows
                                                                     if r["status"] != r["expected"]]
