"""The autograder zip grades anywhere: a fresh virtual environment outside the repository, offline, with nothing
but the zip (about 1.5–2 minutes of work on an idle 2-core machine, most of it pip installing otter's
dependencies).  The work runs in a background thread, started the moment the session's intro assignment is made
(``intro_assignment``, conftest; ``tests/book/test_assignments.py`` makes it early), so that it overlaps the tests
that run before this one; it is all subprocesses and files in its own folder.  The test waits for it and checks
what it saw."""

import json
import os
import shutil
import subprocess
import venv
import zipfile

import nbformat
import pytest
import yaml

from conftest import ROOT, WITH_INTRO_ASSIGNMENT, Thread
from dpsemantics.book import assignments, exercises

CATALOGUE = exercises.catalogue()
WHEELHOUSE = ROOT / ".venv" / "wheelhouse"
_GRADING: list[Thread] = []


def _start_grading(assignment, tmp_path_factory):
    """Copy what the grading needs out of the assignment (here, before the session's other tests can touch it),
    then grade in a thread."""
    work = tmp_path_factory.mktemp("grading")
    with zipfile.ZipFile(assignments.autograder_zip(assignment)) as z:
        z.extractall(work / "source")
    shutil.copy(assignments.autograder_zip(assignment), work / "autograder.zip")
    shutil.copytree(assignment / "student", work / "student")
    (work / "submissions").mkdir()
    shutil.copy(assignment / "autograder" / "intro.ipynb", work / "submissions" / "solutions.ipynb")
    shutil.copy(assignment / "student" / "intro.ipynb", work / "submissions" / "blank.ipynb")
    thread = Thread(grade_from_zip, work)
    thread.start()
    _GRADING.append(thread)


WITH_INTRO_ASSIGNMENT.append((__file__, _start_grading))


def grade_from_zip(work):
    """In a new virtual environment: install exactly the requirements the zip's environment.yml lists, offline,
    from ``make setup``'s wheelhouse; uninstall the package, run the student notebook (its first cell installs the
    wheel shipped beside it); grade both submissions with ``otter run``.  Returns what was seen."""
    source = work / "source"
    env_dir = work / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python, bindir = env_dir / "bin" / "python", env_dir / "bin"
    home = work / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON", "JUPYTER", "VIRTUAL_ENV"))}
    env |= {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(WHEELHOUSE), "PIP_CONFIG_FILE": os.devnull,
            "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONNOUSERSITE": "1", "HOME": str(home),
            "PATH": f"{bindir}{os.pathsep}{env.get('PATH', '')}"}

    def run(*args, cwd=work, timeout=600):
        proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
        assert proc.returncode == 0, f"{' '.join(map(str, args))} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        return proc.stdout

    conda = yaml.safe_load((source / "environment.yml").read_text())
    pip = next(d["pip"] for d in conda["dependencies"] if isinstance(d, dict))
    (source / "requirements-from-zip.txt").write_text("\n".join(pip) + "\n")
    run(python, "-m", "pip", "install", "--quiet", "--no-compile", "-r", "requirements-from-zip.txt", cwd=source)
    seen = {"installed_from": run(python, "-c", "import dpsemantics, otter; print(dpsemantics.__file__)")}

    # the student notebook installs the package from the wheel handed out with it
    run(python, "-m", "pip", "uninstall", "--quiet", "--yes", "dpsemantics")
    student = work / "student"
    run(bindir / "jupyter", "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
        "--output", "executed.ipynb", "intro.ipynb", cwd=student)
    seen["student_executed"] = student / "executed.ipynb"
    seen["reinstalled_from"] = run(python, "-c", "import dpsemantics; print(dpsemantics.__file__)")

    for name in ("solutions", "blank"):
        out = work / f"out-{name}"
        out.mkdir()
        run(bindir / "otter", "run", "-a", work / "autograder.zip", "-o", out, work / "submissions" / f"{name}.ipynb")
        seen[name] = json.loads((out / "results.json").read_text())
    return seen


def test_autograder_zip_grades_in_a_fresh_environment(intro_assignment):
    """From the zip alone: a new virtual environment outside the repository gets exactly the requirements the
    zip's environment.yml lists (otter-grader, the pins, the package's wheel from the zip's ``files/``),
    installed offline from ``make setup``'s wheelhouse; the student notebook, run there with the package
    uninstalled, installs it from the wheel shipped beside it; then ``otter run`` grades the solutions (full
    marks) and the blank notebook (zero)."""
    if not any(WHEELHOUSE.glob("otter_grader-*.whl")):
        pytest.fail(f"{WHEELHOUSE} has no otter-grader wheel: run `make setup` (it keeps the grading environment's "
                    "wheels; on a checkout set up before it did, remove .venv/.installed-stamp first)")
    assert _GRADING, "the grading did not start when intro_assignment was made"
    seen = _GRADING[-1].result()
    where = seen["installed_from"]
    assert str(ROOT) not in where and "site-packages" in where, where
    installed = nbformat.read(seen["student_executed"], as_version=4)
    first = next(c for c in installed.cells if c.cell_type == "code" and assignments.wheel_name() in c.source)
    assert not [o for o in first.outputs if o.get("output_type") == "error"], first.outputs
    assert "site-packages" in seen["reinstalled_from"]
    intro_checks = {ex.label for ex in CATALOGUE if ex.chapter == "book/intro" and ex.check}
    possible = sum(ex.points for ex in CATALOGUE if ex.chapter == "book/intro" and ex.check)
    for name, expected in (("solutions", possible), ("blank", 0)):
        scored = {t["name"]: t["score"] for t in seen[name]["tests"] if "score" in t}
        assert set(scored) == intro_checks, scored
        assert sum(scored.values()) == expected, (name, seen[name]["tests"])
