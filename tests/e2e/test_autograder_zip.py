"""The autograder zip grades anywhere: a fresh virtual environment outside the repository, offline, with nothing
but the zip (about 1.5–2 minutes on an idle 2-core machine, most of it pip installing otter's dependencies)."""

import nbformat
import pytest

from dpsemantics.book import assignments, exercises

CATALOGUE = exercises.catalogue()


def test_autograder_zip_grades_in_a_fresh_environment(intro_assignment, tmp_path):
    """From the zip alone: a new virtual environment outside the repository gets exactly the requirements the
    zip's environment.yml lists (otter-grader, the pins, the package's wheel from the zip's ``files/``),
    installed offline from ``make setup``'s wheelhouse; the student notebook, run there with the package
    uninstalled, installs it from the wheel shipped beside it; then ``otter run`` grades the solutions (full
    marks) and the blank notebook (zero).  About a minute and a half, most of it pip installing otter's
    dependencies."""
    import os
    import shutil
    import subprocess
    import venv
    import zipfile

    import yaml

    from conftest import ROOT

    wheelhouse = ROOT / ".venv" / "wheelhouse"
    if not any(wheelhouse.glob("otter_grader-*.whl")):
        pytest.fail(f"{wheelhouse} has no otter-grader wheel: run `make setup` (it keeps the grading environment's "
                    "wheels; on a checkout set up before it did, remove .venv/.installed-stamp first)")
    work = tmp_path / "grading"
    source = work / "source"
    with zipfile.ZipFile(assignments.autograder_zip(intro_assignment)) as z:
        z.extractall(source)
    zip_copy = work / "autograder.zip"
    shutil.copy(assignments.autograder_zip(intro_assignment), zip_copy)
    env_dir = work / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python, bindir = env_dir / "bin" / "python", env_dir / "bin"
    home = work / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON", "JUPYTER", "VIRTUAL_ENV"))}
    env |= {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheelhouse), "PIP_CONFIG_FILE": os.devnull,
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
    where = run(python, "-c", "import dpsemantics, otter; print(dpsemantics.__file__)")
    assert str(ROOT) not in where and "site-packages" in where, where

    # the student notebook installs the package from the wheel handed out with it
    run(python, "-m", "pip", "uninstall", "--quiet", "--yes", "dpsemantics")
    student = work / "student"
    shutil.copytree(intro_assignment / "student", student)
    run(bindir / "jupyter", "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
        "--output", "executed.ipynb", "intro.ipynb", cwd=student)
    installed = nbformat.read(student / "executed.ipynb", as_version=4)
    first = next(c for c in installed.cells if c.cell_type == "code" and assignments.wheel_name() in c.source)
    assert not [o for o in first.outputs if o.get("output_type") == "error"], first.outputs
    assert "site-packages" in run(python, "-c", "import dpsemantics; print(dpsemantics.__file__)")

    subs = work / "submissions"
    subs.mkdir()
    shutil.copy(intro_assignment / "autograder" / "intro.ipynb", subs / "solutions.ipynb")
    shutil.copy(intro_assignment / "student" / "intro.ipynb", subs / "blank.ipynb")
    possible = sum(ex.points for ex in CATALOGUE if ex.chapter == "book/intro" and ex.check)
    for name, expected in (("solutions", possible), ("blank", 0)):
        out = work / f"out-{name}"
        out.mkdir()
        run(bindir / "otter", "run", "-a", zip_copy, "-o", out, subs / f"{name}.ipynb")
        results = __import__("json").loads((out / "results.json").read_text())
        scored = {t["name"]: t["score"] for t in results["tests"] if "score" in t}
        assert set(scored) == {ex.label for ex in CATALOGUE if ex.chapter == "book/intro" and ex.check}, scored
        assert sum(scored.values()) == expected, (name, results["tests"])
