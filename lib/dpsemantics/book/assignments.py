"""Assignments generated from the chapters, and graded with otter-grader.

    python -m dpsemantics.book.assignments OUTDIR [CHAPTER ...] [--seed N]   # make assignments
    python -m dpsemantics.book.assignments grade CHAPTER_DIR SUBMISSIONS [--csv FILE] [--timeout S] [--memory MB]
    python -m dpsemantics.book.assignments requirements   # the grading environment's pins (make setup's wheelhouse)

For every chapter with exercises this writes an otter-grader *master notebook*
(``OUTDIR/CHAPTER/master/CHAPTER.ipynb``) made from the chapter's gated exercises and solutions and from
``book/exercises.yml``, runs ``otter assign`` on it, and writes ``OUTDIR/CHAPTER/grading/`` (the hidden checks
and the assignment's package, for ``make grade``); ``otter assign`` writes

* ``OUTDIR/CHAPTER/student/CHAPTER.ipynb`` — the questions, empty answer cells (``name = ...``) and
  ``grader.check("label")`` cells that run the public checks;
* ``OUTDIR/CHAPTER/autograder/CHAPTER.ipynb`` — the solutions notebook (answers, explanations and every test);
* ``OUTDIR/CHAPTER/autograder/CHAPTER-autograder_<time>.zip`` — the tests including the hidden ones, for grading.

Nothing is maintained by hand: the question text and the reference solution come from the chapter, the
answer variables, parameters and points from ``book/exercises.yml``.

The parameters come from a seed (:func:`assignment_params`, ``--seed``): the chapter's, moved until the graded
answer differs from the one the chapter prints.  The question states them and the precision it is graded to,
and does not name the package function that computes its answer (:func:`_unnamed`).  The wheel handed out is
the assignment's (:func:`student_wheel`): :mod:`dpsemantics.book.coursework`, whose checks compute every
answer, is replaced by :mod:`dpsemantics.book.student_coursework`.  A question's public test (no points) is
self-contained: the answer's form and a coarse range (:func:`_band`), not an oracle for the graded value.

Two graders.  ``make grade`` (:func:`grade`, :mod:`dpsemantics.book.grader`) runs each notebook in its own
process only to collect its answers as data and scores them in a process that never runs student code, against
``grading/hidden-checks.json`` written here.  The autograder zip (for Gradescope or ``otter run``) keeps otter's
hidden tests: reference intervals compared with the answer variables using nothing the notebook can rebind (no
import, no module, no builtin name); they still run in the student's kernel, as otter runs every test, so otter's
own objects and the test's frame stay within the student's reach there (``book/instructors.md`` says so).
Exercises without a checkable answer, and the written parts of those with one (``written`` points in
``exercises.yml``), become manually graded questions (otter's ``manual: true``); the score table lists them with
their points, to be filled in.

The autograder zip carries the assignment's wheel and the pinned requirements (its ``environment.yml`` installs
``otter-grader``, the book's pins and the wheel from ``files/``), and the student notebook installs the
package from the same wheel, shipped beside it; ``tests/e2e/test_autograder_zip.py`` grades a submission from the zip
alone in a fresh virtual environment, offline.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import re
import shutil
import sys
from pathlib import Path

import nbformat
import yaml

from .exercises import Exercise, catalogue
from .toc import ROOT, chapter_notebooks

_LABEL = re.compile(r":label:\s*(\S+)")
_ROLE = re.compile(r"\{[a-z:]+\}`([^`]*)`")


def _md(text: str) -> str:
    """MyST roles (``{prf:ref}`x` ``, ``{cite}`x` ``) as plain code, for Jupyter's Markdown."""
    return _ROLE.sub(r"`\1`", text).strip()


def exercise_parts(nb: nbformat.NotebookNode) -> dict[str, dict]:
    """Per exercise label: its question (Markdown), its written solution (Markdown) and its solution code."""
    parts: dict[str, dict] = {}
    current = None  # (kind, label) of the open gated block
    for cell in nb.cells:
        if cell.cell_type == "code":
            if current and current[0] == "solution":
                parts[current[1]]["code"].append(cell.source)
            continue
        text, pos = cell.source, 0
        while True:
            if current is None:
                m = re.compile(r"```\{(exercise|solution)-start\}\s*([^\n]*)\n((?::[^\n]*\n)*)```\n?").search(text, pos)
                if m is None:
                    break
                kind = m.group(1)
                label = _LABEL.search(m.group(3)).group(1) if kind == "exercise" else m.group(2).strip()
                entry = parts.setdefault(label, {"title": "", "question": "", "solution": "", "code": []})
                if kind == "exercise":
                    entry["title"] = m.group(2).strip()
                current, pos = (kind, label), m.end()
            end = re.compile(r"```\{" + current[0] + r"-end\}\s*\n?```").search(text, pos)
            key = "question" if current[0] == "exercise" else "solution"
            parts[current[1]][key] += text[pos:end.start() if end else len(text)]
            if end is None:
                break
            current, pos = None, end.end()
    return parts


def _raw(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_raw_cell(text)


def wheel_name(root: Path = ROOT) -> str:
    """The file name of the package's wheel for the book's release (pure Python: ``py3-none-any``)."""
    from .toc import release

    return f"dpsemantics-{release(root)['version']}-py3-none-any.whl"


def _setup_code(nb: nbformat.NotebookNode, root: Path = ROOT) -> str:
    """The chapter's imports (its first code cell, whose install line now installs the wheel shipped with the
    assignment instead of the release on the package index) and its parameters cell."""
    from .notebook import install_spec

    code = [c for c in nb.cells if c.cell_type == "code"]
    params = next((c for c in code if "parameters" in c.metadata.get("tags", [])), None)
    first = code[0].source.replace(f'"{install_spec(root)}"', wheel_name(root))
    pieces = [first] + ([params.source] if params is not None and params is not code[0] else [])
    return "\n\n".join(pieces + ["from dpsemantics.book import coursework"])


def _config(source: str, *, points: float, hidden: bool) -> str:
    return f'""" # BEGIN TEST CONFIG\npoints: {points}\nhidden: {str(hidden).lower()}\n""" # END TEST CONFIG\n'


def _band(ref, rng) -> tuple[float, float]:
    """A coarse range around a reference value for the public check: each end 20–60% (chosen by ``rng``) away,
    so that the public check says "in the right range" for many wrong answers and finding the accepted value
    from it takes the work (the graded tolerance is 0.01–0.5%).  Clipped to [0, 1] for a probability."""
    v = float(ref.value)
    width = max(abs(v), ref.tolerance)
    lo, hi = v - rng.uniform(0.2, 0.6) * width, v + rng.uniform(0.2, 0.6) * width
    if ref.fraction:
        lo, hi = max(lo, 0.0), min(hi, 1.0)
    return lo, hi


_PUBLIC_PRELUDE = """\
    import math
    def number(x):
        try:
            import numpy as np
            a = np.asarray(x, dtype=float)
            if a.size != 1 or isinstance(x, bool):
                return None
            v = float(a.reshape(-1)[0])
        except Exception:
            return None
        return v if math.isfinite(v) else None
    problems = []
"""


def public_test(ex: Exercise, refs=None, rng=None) -> str:
    """The public test, in the student's kernel: the answer's form (a finite number — a one-element array or
    list is the same number —, a function of the stated arguments, a probability between 0 and 1) and, for a
    number, whether it lies in a coarse range (:func:`_band`); no points, no package, no reference value."""
    import random

    rng = rng or random.Random(ex.label)
    args = ", ".join(ex.answer)
    body = f"def test_public({args}):\n" + _PUBLIC_PRELUDE
    if refs is None:  # a construction (Definition 7's counterexample): the form only
        mechanism, population = ex.answer
        body += (f"    if not (hasattr({mechanism}, 'matrix') and hasattr({mechanism}, 'databases')):\n"
                 f"        problems.append('{mechanism}: expected a FiniteMechanism on the four databases')\n"
                 f"    try:\n"
                 f"        import numpy as np\n"
                 f"        pop = np.asarray({population}, dtype=float)\n"
                 f"        ok = pop.shape == (2, 2) and (pop >= 0).all() and abs(pop.sum() - 1) < 1e-9\n"
                 f"    except Exception:\n"
                 f"        ok = False\n"
                 f"    if not ok:\n"
                 f"        problems.append('{population}: expected a 2×2 table of probabilities summing to 1')\n")
    else:
        for var, ref in zip(ex.answer, refs):
            if hasattr(ref, "points"):
                n = len(ref.points[0])
                sample = tuple(ref.sample) or tuple([0.5] + [1e-3] * (n - 1))
                body += (f"    try:\n"
                         f"        v = number({var}(*{sample!r}))\n"
                         f"    except Exception:\n"
                         f"        v = None\n"
                         f"    if v is None:\n"
                         f"        problems.append('{var}: expected a function of {n} numbers returning a number')\n")
                continue
            lo, hi = _band(ref, rng)
            frac = (f"    elif v > 1 and {ref.fraction!r}:\n"
                    f"        problems.append('{var}: a probability is a fraction in [0, 1], not a percentage')\n")
            body += (f"    v = number({var})\n"
                     f"    if v is None:\n"
                     f"        problems.append('{var}: expected a finite number' + (' (still ...)' if {var} is ... "
                     f"else ''))\n" + frac +
                     f"    elif not ({lo!r} <= v <= {hi!r}):\n"
                     f"        problems.append('{var}: not in the range a right answer lies in')\n")
    body += ("    assert not problems, 'not yet:\\n' + '\\n'.join(problems) + '\\n(this check is coarse: "
             "passing it does not mean the answer is graded right)'\n")
    return _config("", points=0, hidden=False) + body


# The hidden test's prelude: the answer as an exact float, reached without any name the notebook can rebind
# (the float and int types come from literals; their slot methods read the stored value of a subclass without
# calling its overrides).  Anything else is converted once with float(); None when it is not a number.
_PRELUDE = """\
    F, I = (0.0).__class__, (0).__class__
    def value(x):
        try:
            if x.__len__() == 1:
                x = x[0]
        except:
            pass
        try:
            return F.__float__(x)
        except:
            pass
        try:
            return I.__float__(x)
        except:
            pass
        try:
            return F.__float__(F(x))
        except:
            return None
    wrong = []
"""


def _scalar_lines(var: str, ref) -> str:
    lo, hi = ref.interval()
    return (f"    v = value({var})\n"
            f"    if v is None or not ({float(lo)!r} <= v <= {float(hi)!r}):\n"
            f"        wrong.append({ref.part!r})\n")


def _formula_lines(var: str, ref) -> str:
    cases = []
    for args, want in zip(ref.points, ref.values):
        tol = max(ref.atol, ref.rtol * abs(want))
        args = tuple(float(a) if isinstance(a, float) else a for a in args)
        cases.append(f"({args!r}, {want - tol!r}, {want + tol!r})")
    return (f"    for args, lo, hi in ({', '.join(cases)},):\n"
            f"        try:\n"
            f"            v = value({var}(*args))\n"
            f"        except:\n"
            f"            v = None\n"
            f"        if v is None or not (lo <= v <= hi):\n"
            f"            wrong.append({ref.part!r})\n")


def _definition7_lines(mechanism: str, population: str) -> str:
    """The hidden test's Definition 7 check: the grader's own function
    (:func:`dpsemantics.book.grader.definition7_separates`), its source embedded, called on the answer's attributes."""
    import textwrap

    from .grader import definition7_source

    return (textwrap.indent(definition7_source(), "    ") +
            f"    try:\n"
            f"        ok = definition7_separates({mechanism}.matrix, {mechanism}.databases, {population}, value)\n"
            f"    except:\n"
            f"        ok = False\n"
            f"    if ok is not True:\n"
            f"        wrong.append('counterexample')\n")


def hidden_test(ex: Exercise, refs=None) -> str:
    """The hidden test of a checked exercise in the autograder zip (otter's path, e.g. Gradescope): its
    reference values (intervals), computed now, and a comparison that uses no module, no builtin name and no
    notebook global other than the answer variables.  ``refs``: the references (default: the exercise's own
    parameters).  ``make grade`` does not use it (:mod:`dpsemantics.book.grader`)."""
    from . import coursework

    args = ", ".join(ex.answer)
    body = f"def test_hidden({args}):\n" + _PRELUDE
    if ex.check_name == "check_definition7_counterexample":
        mechanism, population = ex.answer
        body += _definition7_lines(mechanism, population)
    else:
        if refs is None:
            refs = coursework.references(ex.check_name, **(ex.params | ex.hidden_params))
        if len(refs) != len(ex.answer):
            raise ValueError(f"{ex.label}: {len(ex.answer)} answer variables for {len(refs)} references")
        for var, ref in zip(ex.answer, refs):
            formula = isinstance(ref, coursework.FormulaReference)
            body += _formula_lines(var, ref) if formula else _scalar_lines(var, ref)
    body += '    assert not wrong, "not right: " + ", ".join(wrong)\n'
    return _config("", points=ex.points, hidden=True) + body


_PROBABILITIES = {"keep", "prior", "b", "stay", "threshold", "delta_prime", "alpha"}
_FACTORS = (0.7, 0.8, 0.85, 0.9, 1.1, 1.15, 1.2, 1.3)


def _vary(key: str, value, rng):
    """One parameter moved by the seed: a float scaled by 0.7–1.3 (two significant digits; a probability
    stays below 0.99), an integer moved by ±1 (at least 2), a list of probabilities element by element by
    0.85–1.15 (kept in (0, 1)); other values unchanged."""
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, float) and 0 < v < 1 for v in value):
            out = [float(f"{v * rng.choice((0.85, 0.9, 1.1, 1.15)):.2g}") for v in value]
            return out if all(0 < v < 1 for v in out) else list(value)
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if isinstance(value, int):
        return max(2, value + rng.choice((-1, 1)))
    new = float(f"{value * rng.choice(_FACTORS):.2g}")
    if key in _PROBABILITIES and not 0.0 < new < 0.99:
        return value
    return new


def assignment_params(ex: Exercise, seed: int | None) -> dict:
    """The parameters of an exercise in an assignment made with ``seed``: the chapter's (``exercises.yml``)
    moved by :func:`_vary` until a reference value differs from the chapter's by more than its tolerance (a
    question scores all or nothing, so the chapter's printed numbers score 0) and every one keeps the chapter's
    sign (the question keeps its sense, e.g. a posterior above its prior); the chapter's own when ``seed`` is
    None or the
    exercise has no parameters to move.  Deterministic in (seed, label)."""
    import random

    from . import coursework

    if seed is None or not ex.params:
        return dict(ex.params)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    chapter_refs = coursework.references(ex.check_name, **(ex.params | ex.hidden_params))
    rng = random.Random(f"{seed}:{ex.label}")
    for _ in range(50):
        params = {k: _vary(k, v, rng) for k, v in ex.params.items()}
        try:
            refs = coursework.references(ex.check_name, **(params | ex.hidden_params))
        except (ValueError, ZeroDivisionError, OverflowError):
            continue
        moved = [not r.interval()[0] <= c.value <= r.interval()[1] for r, c in zip(refs, chapter_refs)
                 if not hasattr(r, "points")]
        sane = all(hasattr(r, "points") or (math.isfinite(r.value) and (r.value > 0) == (c.value > 0))
                   for r, c in zip(refs, chapter_refs))
        if sane and any(moved):
            return params
    raise ValueError(f"{ex.label}: no seeded parameters found for seed={seed!r}")


def assignment_plan(chapter_nb: Path, root: Path = ROOT, seed: int | None = None) -> dict[str, tuple]:
    """Per auto-graded exercise of a chapter: (its parameters for ``seed``, its references); references None
    for a construction (Definition 7's counterexample)."""
    from . import coursework

    chapter = str(Path(chapter_nb).resolve().relative_to(Path(root).resolve()).with_suffix(""))
    plan = {}
    for ex in catalogue(root):
        if ex.chapter != chapter or not (ex.check and ex.answer):
            continue
        if ex.check_name == "check_definition7_counterexample":
            plan[ex.label] = ({}, None)
            continue
        params = assignment_params(ex, seed)
        plan[ex.label] = (params, coursework.references(ex.check_name, **(params | ex.hidden_params)))
    return plan


def _precision(ref, check: str = "") -> str:
    from .render import number

    if hasattr(ref, "points"):
        args = tuple(ref.args) or tuple(f"x{i + 1}" for i in range(len(ref.points[0])))
        return (f"`{ref.part}`: a Python function of ({', '.join(args)}), in that order (e.g. "
                f"`lambda {', '.join(args)}: ...`), returning a number; graded at points the notebook is not told, "
                f"to within a relative {number(ref.rtol)}, without the `dpsemantics` package (a call into it raises)")
    if ref.atol >= ref.rtol * abs(ref.value):
        what = "a whole number" if ref.atol == 0.5 else f"within {ref.atol:g} (absolute)"
    else:
        what = f"within a relative {number(ref.rtol)} ({ref.rtol * 100:g}%)"
    unit = ", as a fraction between 0 and 1 (not a percentage)" if ref.fraction else ""
    return f"`{ref.part}`: {what} of the exact value{unit}"


def chapters_with_exercises(root: Path = ROOT) -> list[Path]:
    """The chapter notebooks that have exercises, in table-of-contents order."""
    chapters = {ex.chapter for ex in catalogue(root)}
    return [nb for nb in chapter_notebooks(root) if str(nb.relative_to(root).with_suffix("")) in chapters]


_IMPORT_NOTE = re.compile(r"\s*\((?:after |from )`[^`]*dpsemantics[^`]*`\)")
_NAMED_CALL = re.compile(r"`(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*(?:\([^`]*\))?`")


def _unnamed(question: str) -> str:
    """An auto-graded question without the names of the package's functions that compute its answer
    (```mech.gaussian_sigma```, ```D.epsilon_for_profile(...)```): the assignment asks for the idea."""
    def replace(m: re.Match) -> str:
        return "the `grader.check` cell" if m.group(0).startswith("`coursework.") else "your own code"

    question = _IMPORT_NOTE.sub("", question)
    return _NAMED_CALL.sub(replace, question)


def _params_text(params: dict) -> str:
    return ", ".join(f"`{k} = {v!r}`" for k, v in params.items())


def master_notebook(chapter_nb: Path, root: Path = ROOT, seed: int | None = None,
                    plan: dict | None = None) -> nbformat.NotebookNode:
    """The otter-grader master notebook of one chapter: setup, then one question per exercise, with the
    parameters of ``seed`` (:func:`assignment_params`; ``plan`` reuses an :func:`assignment_plan`)."""
    import random

    plan = assignment_plan(chapter_nb, root, seed) if plan is None else plan
    rng = random.Random(f"public:{seed}:{Path(chapter_nb).stem}")
    nb = nbformat.read(chapter_nb, as_version=4)
    name = chapter_nb.stem
    title = next((c.source.lstrip("# ").splitlines()[0] for c in nb.cells if c.cell_type == "markdown"
                  and c.source.startswith("# ")), name)
    parts = exercise_parts(nb)
    exercises = [ex for ex in catalogue(root) if ex.chapter == str(chapter_nb.relative_to(root).with_suffix(""))]
    config = {"name": name, "init_cell": True, "check_all_cell": False, "export_cell": False,
              "run_tests": True, "solutions_pdf": False, "generate": {"show_hidden": True, "show_stdout": False},
              "tests": {"files": False, "ok_format": False},
              "requirements": "requirements.txt", "overwrite_requirements": True, "files": [wheel_name(root)],
              "python_version": "3.11"}
    cells = [_raw("# ASSIGNMENT CONFIG\n" + yaml.safe_dump(config, sort_keys=False)),
             nbformat.v4.new_markdown_cell(
                 f"# Assignment: {title}\n\nThe exercises of the chapter *{title}*. Assign each answer to the "
                 "variables named in the answer cell (replace the `...`), run the cell, then run the `grader.check` "
                 "cell below it: it checks the answer's form and whether it lies in the right range (a coarse "
                 "check: your instructor's grader checks it to the precision each question states). Where a "
                 "question lists *this assignment's parameters*, use them, not the chapter's. "
                 "Questions marked *written* are graded by your instructor."),
             nbformat.v4.new_code_cell(_setup_code(nb))]
    for ex in exercises:
        part = parts[ex.label]
        auto = bool(ex.check and ex.answer)
        head = {"name": ex.label, "points": ex.points if auto else manual_points(ex)}
        if not auto:
            head["manual"] = True
        cells.append(_raw("# BEGIN QUESTION\n" + yaml.safe_dump(head, sort_keys=False)))
        kind = "" if auto else f" (written, {manual_points(ex)} points)"
        params, refs = plan.get(ex.label, ({}, None))
        seeded = auto and params != ex.params
        extra = ""
        if seeded:
            extra += (f"\n\n**This assignment's parameters** (use these, not the chapter's): {_params_text(params)}."
                      " Where the question gives other values for these, these replace them.")
        if auto and refs is not None:
            scalar = any(not hasattr(r, "points") for r in refs)
            extra += ("\n\n**Graded to:** " + "; ".join(_precision(r, ex.check_name) for r in refs) + "."
                      + (" A number may be given as a one-element array or list." if scalar else ""))
        question = _md(_unnamed(part["question"]) if auto else part["question"])
        cells.append(nbformat.v4.new_markdown_cell(f"## {ex.title}{kind}\n\n*Goal:* {ex.goal}\n\n{question}{extra}"))
        cells.append(_raw("# BEGIN SOLUTION"))
        if auto:
            prompt = "\n".join(f"{name} = ...  # your answer" for name in ex.answer)
            solution = "\n\n".join(part["code"])
            if seeded:  # the chapter's code computes with the chapter's parameters: the values for these instead
                formula = any(hasattr(r, "points") for r in refs)  # the chapter's code defines the functions
                solution = (solution + "\n\n" if formula else "") + "\n".join(
                    f"{var} = {float(r.value)!r}  # the exact value at this assignment's parameters"
                    for var, r in zip(ex.answer, refs) if not hasattr(r, "points"))  # a formula stays the chapter's
            cells.append(nbformat.v4.new_code_cell(
                f"# BEGIN SOLUTION NO PROMPT\n{solution}\n# END SOLUTION\n"
                f"\"\"\" # BEGIN PROMPT\n{prompt}\n\"\"\" # END PROMPT"))
        chapter_code = ("\n\nThe chapter's computation, with the chapter's parameters:\n\n```python\n"
                        + "\n\n".join(part["code"]) + "\n```") if seeded else ""
        cells.append(nbformat.v4.new_markdown_cell((_md(part["solution"]) or "See the chapter.") + chapter_code))
        cells.append(_raw("# END SOLUTION"))
        if auto:
            cells += [_raw("# BEGIN TESTS"), nbformat.v4.new_code_cell(public_test(ex, refs, rng)),
                      nbformat.v4.new_code_cell(hidden_test(ex, refs)), _raw("# END TESTS")]
        cells.append(_raw("# END QUESTION"))
        if auto and ex.written:
            written = {"name": f"{ex.label}-written", "points": ex.written, "manual": True}
            cells.append(_raw("# BEGIN QUESTION\n" + yaml.safe_dump(written, sort_keys=False)))
            cells.append(nbformat.v4.new_markdown_cell(
                f"## {ex.title}: the written part ({ex.written} points)\n\nAnswer the questions of *{ex.title}* "
                "that ask for a reason or an explanation (not the numbers), in this cell. Full marks need the claim, "
                "the step that proves or refutes it (the inequality, the counterexample with its numbers, or the "
                "line of the paper that fails and why) and what it means for the guarantee; half for the right "
                "claim with a gap."))
            cells += [_raw("# BEGIN SOLUTION"),
                      nbformat.v4.new_markdown_cell(_md(part["solution"]) or "See the chapter."),
                      _raw("# END SOLUTION"), _raw("# END QUESTION")]
    out = nbformat.v4.new_notebook(cells=cells)
    out.metadata = nb.metadata
    return out


def manual_points(ex: Exercise) -> int:
    """The points of an exercise graded by hand: its ``points`` in exercises.yml, 2 when none are given."""
    return ex.points or 2


def manual_questions(chapter: str) -> dict[str, int]:
    """The questions of a chapter graded by hand, with their points: exercises without a check, and the written
    parts (``LABEL-written``) of those with one."""
    out = {}
    for ex in catalogue():
        if Path(ex.chapter).name != chapter:
            continue
        if ex.check and ex.answer:
            if ex.written:
                out[f"{ex.label}-written"] = ex.written
        else:
            out[ex.label] = manual_points(ex)
    return out


def requirements(root: Path = ROOT) -> list[str]:
    """The grading environment's requirements: otter-grader and ipykernel at the book's pins, the package's
    pinned dependencies, and the package's wheel from the zip's ``files/`` folder."""
    import tomllib

    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    pins = {req.split("==")[0]: req for req in [*extras["book"], *extras["coursework"]]}
    return [pins["otter-grader"].replace("otter-grader", "otter-grader[grading]"), pins["ipykernel"],
            *project["dependencies"], f"files/{wheel_name(root)}"]


def build_wheel(dest: Path, root: Path = ROOT) -> Path:
    """Build the package's wheel into ``dest`` (offline when ``make setup``'s wheelhouse holds the build backend)."""
    import subprocess

    dest.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dest), str(root)]
    wheelhouse = root / ".venv" / "wheelhouse"
    if wheelhouse.is_dir():
        cmd[4:4] = ["--find-links", str(wheelhouse)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"building the wheel failed:\n{proc.stderr[-2000:]}")
    wheel = dest / wheel_name(root)
    if not wheel.is_file():
        raise RuntimeError(f"pip wheel wrote no {wheel.name} into {dest}")
    return wheel


def make_assignment(chapter_nb: Path, outdir: Path, root: Path = ROOT, *, quiet: bool = True, wheel: Path | None = None,
                    run_tests: bool = True, seed: int | None = 1) -> Path:
    """Write the master notebook of a chapter, the package's wheel and the requirements beside it, and run
    ``otter assign`` on it; return the chapter's folder.  ``wheel`` reuses a wheel already built;
    ``run_tests=False`` skips otter's own run of the solutions against the tests (the tests do their own).
    ``seed`` sets the exercises' parameters (:func:`assignment_params`; None: the chapter's own).  The wheel
    handed out is the assignment's (:func:`student_wheel`); ``grading/`` holds the hidden checks and the same
    package unpacked, for :func:`grade`."""
    from otter.assign import main as otter_assign

    chapter_nb = Path(chapter_nb).resolve()
    folder = Path(outdir).resolve() / chapter_nb.stem
    if folder.exists():
        shutil.rmtree(folder)
    master = folder / "master" / f"{chapter_nb.stem}.ipynb"
    master.parent.mkdir(parents=True)
    plan = assignment_plan(chapter_nb, root, seed)
    nb = master_notebook(chapter_nb, root, seed, plan)
    if not run_tests:
        nb.cells[0].source = nb.cells[0].source.replace("run_tests: true", "run_tests: false")
    nbformat.write(nb, master)
    if wheel is None:
        build_wheel(master.parent, root)
    else:
        shutil.copy2(wheel, master.parent / wheel_name(root))
    student_wheel(master.parent / wheel_name(root))
    (master.parent / "requirements.txt").write_text("\n".join(requirements(root)) + "\n")
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink) if quiet else contextlib.nullcontext():
        otter_assign(str(master), str(folder), no_pdfs=True)
    write_hidden_checks(chapter_nb, folder, root, seed, plan)
    import zipfile

    with zipfile.ZipFile(master.parent / wheel_name(root)) as z:  # the package the grader runs notebooks with
        z.extractall(folder / "grading" / "package", [n for n in z.namelist() if n.startswith("dpsemantics/")])
    return folder


def write_hidden_checks(chapter_nb: Path, folder: Path, root: Path = ROOT, seed: int | None = None,
                        plan: dict | None = None) -> Path:
    """``folder/grading/hidden-checks.json``: the reference intervals :func:`grade` compares answers with (the
    grader's copy of the hidden tests, outside the student and autograder folders), with the seed and the
    parameters they were computed for."""
    import json

    from .grader import HIDDEN_CHECKS, hidden_checks

    plan = assignment_plan(chapter_nb, root, seed) if plan is None else plan
    chapter = str(Path(chapter_nb).resolve().relative_to(Path(root).resolve()).with_suffix(""))
    exercises = [ex for ex in catalogue(root) if ex.chapter == chapter]
    questions = hidden_checks(exercises, lambda ex: plan[ex.label][1])
    path = Path(folder) / HIDDEN_CHECKS
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"assignment": Path(chapter_nb).stem, "seed": seed,
                                "parameters": {label: params for label, (params, _) in plan.items()},
                                "questions": questions, "manual": manual_questions(Path(chapter_nb).stem)}, indent=1))
    return path


def student_wheel(wheel: Path) -> Path:
    """Rewrite the package's wheel, in place, as the assignment's: ``dpsemantics/book/coursework.py`` (whose
    checks and ``references`` compute every answer) replaced by :mod:`dpsemantics.book.student_coursework`
    (the result types, checks that know nothing), and ``RECORD`` rewritten with the new hashes."""
    import base64
    import hashlib
    import zipfile

    wheel = Path(wheel)
    with zipfile.ZipFile(wheel) as z:
        files = {info.filename: z.read(info) for info in z.infolist()}
    stub = files.get("dpsemantics/book/student_coursework.py")
    if stub is None or "dpsemantics/book/coursework.py" not in files:
        raise ValueError(f"wheel is not the package's (no dpsemantics/book/coursework.py): {wheel}")
    files["dpsemantics/book/coursework.py"] = stub
    record = next(name for name in files if name.endswith(".dist-info/RECORD"))
    lines = []
    for name, data in files.items():
        if name == record:
            continue
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{name},sha256={digest},{len(data)}")
    files[record] = ("\n".join(lines + [f"{record},,"]) + "\n").encode()
    tmp = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    tmp.replace(wheel)
    return wheel


def autograder_zip(chapter_dir: Path) -> Path:
    """The autograder archive ``otter assign`` wrote for a chapter (its name carries a time stamp)."""
    found = sorted((Path(chapter_dir) / "autograder").glob("*autograder*.zip"))
    if not found:
        raise FileNotFoundError(f"no autograder zip under {chapter_dir}/autograder: run the assignments command first")
    return found[-1]


def grade(chapter_dir: Path, submissions: Path, csv_path: Path | None = None, results: dict | None = None,
          *, timeout: float = 300.0, memory_mb: int = 4096) -> list[dict]:
    """Grade every ``*.ipynb`` in ``submissions``, each in its own process with a timeout and a memory limit,
    out of the student's reach (:func:`dpsemantics.book.grader.grade`); one row per submission, written to
    ``csv_path`` when given."""
    from .grader import grade as grade_apart

    return grade_apart(chapter_dir, submissions, csv_path, results, timeout=timeout, memory_mb=memory_mb)


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["requirements"]:
        print("\n".join(r for r in requirements() if not r.startswith("files/")))
        return 0
    if args and args[0] == "grade":
        p = argparse.ArgumentParser(prog="python -m dpsemantics.book.assignments grade")
        p.add_argument("chapter_dir", type=Path, help="OUTDIR/CHAPTER written by the assignments command")
        p.add_argument("submissions", type=Path, help="folder of submitted notebooks")
        p.add_argument("--csv", type=Path, default=None, help="score table (default: SUBMISSIONS/scores.csv)")
        p.add_argument("--timeout", type=float, default=300.0, help="seconds per notebook (default 300)")
        p.add_argument("--memory", type=int, default=4096, help="address-space limit per notebook, MB (default 4096)")
        a = p.parse_args(args[1:])
        from .grader import container_runtime, sandbox_available

        if not sandbox_available():
            runtime = container_runtime()
            where = f"{runtime} is available" if runtime else "no Docker or podman that answers"
            print("warning: no namespace sandbox (unshare): the notebooks run with your permissions and can read "
                  f"your files and the network ({where}); grade in a container or a throw-away account "
                  "(book/instructors.md)", file=sys.stderr)
        csv_path = a.csv or a.submissions / "scores.csv"
        rows = grade(a.chapter_dir, a.submissions, csv_path, timeout=a.timeout, memory_mb=a.memory)
        for row in rows:
            graded = row["status"] == "graded"
            score = f"{row['total']:g} / {row['possible']:g}" if graded else f"error: {row['reason']}"
            print(f"{row['submission']}: {score}")
        print(f"scores: {csv_path}")
        return 0
    p = argparse.ArgumentParser(prog="python -m dpsemantics.book.assignments")
    p.add_argument("outdir", type=Path)
    p.add_argument("chapters", nargs="*", help="chapter names (default: every chapter)")
    p.add_argument("--seed", type=int, default=1,
                   help="sets the exercises' parameters (default 1; a new one per term, or per student)")
    a = p.parse_args(args)
    if a.seed < 0:
        p.error(f"--seed must be a non-negative integer, got {a.seed}")
    available = chapters_with_exercises()
    chapters = [nb for nb in available if not a.chapters or nb.stem in a.chapters]
    if a.chapters and len(chapters) != len(a.chapters):
        p.error(f"unknown chapter or one without exercises; choose from {[nb.stem for nb in available]}")
    wheel = build_wheel(Path(a.outdir) / "wheel") if chapters else None
    for nb in chapters:
        folder = make_assignment(nb, a.outdir, wheel=wheel, seed=a.seed)
        print(f"{nb.stem}: {folder / 'student' / nb.name} (student), {folder / 'autograder'} (solutions, tests)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
