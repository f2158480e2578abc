"""The generated assignments: grading that survives the student.

* Every chapter's reference solutions pass their public and hidden tests; the hidden tests read no name but
  their own and the answer variables (no module, no builtin, no notebook global), and differ from the public ones.
* The tamper suite: for every chapter, a blank notebook plus one tampering cell (rebinding ``coursework``,
  replacing the checks, patching their private helpers, monkeypatching the package, patching builtins, answers
  that compare equal to anything, setting the chapter's globals) gains zero points, and the solutions with the
  globals tampered still score full marks.  Each submission is graded as otter grades it — its code cells
  executed in one namespace, then the test files run against that namespace by otter's own
  ``ExceptionTestFile`` — in a forked process, so that one tamper cannot leak into the next (about 0.1 s each).
* One chapter (intro) goes end to end through ``otter assign`` and otter's local grader: solutions full marks,
  blank zero, one wrong answer loses exactly its points (with feedback that leads with the verdict and never
  shows the value), a blank notebook with its metadata edited to carry passing tests zero, and the score table
  has a column per written question with its points (about 30 s on an idle machine: a kernel per submission).
* The autograder zip grading a submission in a fresh virtual environment is ``tests/e2e/test_autograder_zip.py``;
  the intro assignment both use is the session fixture ``intro_assignment`` (``tests/conftest.py``).
"""

import ast
import builtins
import csv
import inspect
import math
import multiprocessing
from collections import Counter

import nbformat
import numpy as np
import pytest
from IPython.core.inputtransformer2 import TransformerManager

from dpsemantics.book import assignments, exercises

pytest.importorskip("otter", reason="otter-grader is not installed (pip install -e '.[coursework]')")
from otter.test_files.exception_test import ExceptionTestFile  # noqa: E402

CHAPTERS = assignments.chapters_with_exercises()
CATALOGUE = exercises.catalogue()
IDS = [nb.stem for nb in CHAPTERS]


def test_answer_variables_are_unique_within_a_chapter():
    """Otter runs the whole notebook before the tests: a later answer with the same name would overwrite."""
    for nb in CHAPTERS:
        names = Counter(n for ex in CATALOGUE if nb.stem in ex.chapter for n in ex.answer)
        assert not [n for n, k in names.items() if k > 1], (nb.stem, names)


def _split(master):
    """(code cells that are not tests, [(test source, points, hidden)]) of a master notebook."""
    code, tests = [], []
    for cell in master.cells:
        if cell.cell_type != "code":
            continue
        if "# BEGIN TEST CONFIG" not in cell.source:
            code.append(cell.source)
            continue
        head, body = cell.source.split('""" # END TEST CONFIG\n', 1)
        points = float(head.split("points: ")[1].split("\n")[0])
        tests.append((body, points, "hidden: true" in head))
    return code, tests


def _test_files(master, chapter):
    """The test files otter writes from the master notebook (its exception-based template: one test case per
    test cell, public with 0 points, hidden with all of them), one per question."""
    questions, current = {}, None
    for cell in master.cells:
        if cell.cell_type == "raw" and cell.source.startswith("# BEGIN QUESTION"):
            current = cell.source.split("name: ")[1].split("\n")[0]
        elif cell.cell_type == "code" and "# BEGIN TEST CONFIG" in cell.source:
            head, body = cell.source.split('""" # END TEST CONFIG\n', 1)
            points = head.split("points: ")[1].split("\n")[0]
            hidden = "hidden: true" in head
            questions.setdefault(current, []).append(f"@test_case(points={points}, hidden={hidden})\n{body}")
    files = []
    for name, cases in questions.items():
        source = ("from otter.test_files import test_case\n\nOK_FORMAT = False\n\n" + f'name = "{name}"\n\n'
                  + "\n\n".join(cases))
        files.append((f"{chapter}/{name}.py", source))
    return files


def _student_code(master):
    """What a blank student notebook runs: the setup cell and the prompts (``name = ...``)."""
    code, _ = _split(master)
    out = []
    for src in code:
        if "# BEGIN SOLUTION NO PROMPT" in src:
            out.append(src.split('""" # BEGIN PROMPT\n')[1].split('\n""" # END PROMPT')[0])
        else:
            out.append(src)
    return out


def _solution_code(master):
    return _split(master)[0]


def _grade(cells, files):
    """Execute the cells in one namespace, then run every test file against it as otter's grader does; the
    points scored and possible."""
    namespace = {"__name__": "__main__"}
    transform = TransformerManager().transform_cell
    for src in cells:
        try:
            exec(compile(transform(src), "<submission>", "exec"), namespace)  # noqa: S102 - the submission
        except Exception:  # noqa: BLE001 - a failing cell does not stop otter's grading (ignore_errors)
            pass
    score = possible = 0.0
    for path, source in files:
        try:
            test = ExceptionTestFile.from_string(source, path=path)
            test.run(namespace)
            score, possible = score + test.score, possible + test.possible
        except Exception:  # noqa: BLE001 - the grading itself broke (in otter: no results, so no points)
            pass
    return score, possible


def _graded_in_child(conn, cells, files):
    try:
        conn.send(_grade(cells, files))
    except BaseException as err:  # noqa: BLE001 - report anything to the parent
        conn.send(("error", repr(err)))
    finally:
        conn.close()


def grade_isolated(cells, files):
    """:func:`_grade` in a forked process: a tamper patches modules and builtins of that process only."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_graded_in_child, args=(child, cells, files))
    proc.start()
    child.close()
    result = parent.recv() if parent.poll(120) else ("error", "timeout")
    proc.join(10)
    assert result[0] != "error", result
    return result


MASTERS = {nb.stem: assignments.master_notebook(nb) for nb in CHAPTERS}


@pytest.mark.parametrize("chapter", CHAPTERS, ids=IDS)
def test_master_notebook_solutions_pass_their_public_and_hidden_tests(chapter):
    master = MASTERS[chapter.stem]
    raw = [c.source for c in master.cells if c.cell_type == "raw"]
    assert raw[0].startswith("# ASSIGNMENT CONFIG")
    questions = [line.split(": ", 1)[1] for src in raw if src.startswith("# BEGIN QUESTION")
                 for line in src.splitlines() if line.startswith("name: ")]
    expected = []
    for ex in CATALOGUE:
        if ex.chapter.endswith(chapter.stem):
            expected.append(ex.label)
            if ex.check and ex.written:
                expected.append(f"{ex.label}-written")
    assert questions == expected
    _, tests = _split(master)
    checked = [ex for ex in CATALOGUE if ex.chapter.endswith(chapter.stem) and ex.check]
    assert [p for _, p, h in tests if h] == [ex.points for ex in checked]
    assert [p for _, p, h in tests if not h] == [0.0] * len(checked)
    score, possible = _grade(_solution_code(master), _test_files(master, chapter.stem))
    assert score == possible == sum(ex.points for ex in checked)


def _loaded_names(function: ast.FunctionDef) -> tuple[set, set]:
    """The names a function reads and the names it binds (arguments, assignments, loop targets, nested
    functions and their arguments)."""
    loads, binds = set(), set()
    for node in ast.walk(function):
        if isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else binds).add(node.id)
        elif isinstance(node, ast.arg):
            binds.add(node.arg)
        elif isinstance(node, ast.FunctionDef):
            binds.add(node.name)
    return loads, binds


@pytest.mark.parametrize("chapter", CHAPTERS, ids=IDS)
def test_hidden_tests_read_nothing_the_notebook_can_rebind(chapter):
    """Every name a hidden test reads is one it binds itself or an answer variable it is given: no builtin
    (abs, float, isinstance, ...), no module, no notebook global such as eps; no import; and it is not the
    public test."""
    _, tests = _split(MASTERS[chapter.stem])
    answers = [ex.answer for ex in CATALOGUE if ex.chapter.endswith(chapter.stem) and ex.check]
    hidden = [src for src, _, h in tests if h]
    public = [src for src, _, h in tests if not h]
    for src, names, pub in zip(hidden, answers, public):
        tree = ast.parse(src)
        function = tree.body[0]
        assert isinstance(function, ast.FunctionDef) and len(tree.body) == 1
        assert [a.arg for a in function.args.args] == list(names)
        loads, binds = _loaded_names(function)
        assert loads <= binds, f"{chapter.stem}: a hidden test reads {sorted(loads - binds)}"
        assert not (loads & set(dir(builtins)) - binds)
        assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal))]
        assert "coursework" not in src and "dpsemantics" not in src and src != pub
        assert "coursework" not in pub and "dpsemantics" not in pub  # the student's wheel has no checks


# Tampering cells, each appended to a notebook (a student who wants the points without the work).
ALL_CHECKS = "[n for n in dir(_c) if n.startswith('check_')]"
TAMPERS = {
    "rebind coursework": """
from dpsemantics.book.coursework import CheckResult
class _Fake:
    def __getattr__(self, name):
        return lambda *a, **k: CheckResult(True)
coursework = _Fake()
""",
    "replace the checks": f"""
import dpsemantics.book.coursework as _c
for _n in {ALL_CHECKS}:
    setattr(_c, _n, lambda *a, **k: _c.CheckResult(True))
""",
    "patch private helpers": """
import dpsemantics.book.coursework as _c
_c._number = lambda value: 0.0
_c._result = lambda parts, hint: _c.CheckResult(True, tuple(parts), hint)
_c.Reference.part_for = lambda self, answer: _c.Part(self.part, True, "")
_c.FormulaReference.part_for = lambda self, answer: _c.Part(self.part, True, "")
_c.Reference.interval = lambda self: (-1e300, 1e300)
""",
    "monkeypatch the package": """
from types import SimpleNamespace
import dpsemantics
from dpsemantics import mechanisms, semantic, notions, causal, disclosure, conversions, indistinguishability
mechanisms.gaussian_delta = lambda *a, **k: 0.0
mechanisms.gaussian_sigma = lambda *a, **k: 0.0
semantic.semantic_epsilon = lambda *a, **k: SimpleNamespace(epsilon=0.0)
notions.bdp_leakage = lambda *a, **k: 0.0
causal.brp_epsilon = lambda *a, **k: 0.0
causal.relatives_effect = lambda *a, **k: 0.0
causal.definition_epsilon = lambda number, *a, **k: 0.0 if number == 7 else 1.0
disclosure.epsilon_for_profile = lambda *a, **k: 0.0
conversions.pdp_epsilon = lambda *a, **k: 0.0
indistinguishability.group_parameters = lambda *a, **k: (0.0, 0.0)
""",
    "patch builtins": """
import builtins, math
builtins.abs = lambda x: 0.0
builtins.float = lambda *a: 0.0
builtins.isinstance = lambda *a: True
builtins.all = builtins.any = lambda *a: True
builtins.max = builtins.min = lambda *a, **k: 0.0
builtins.AssertionError = type("Harmless", (Exception,), {})
math.isclose = lambda *a, **k: True
math.isfinite = lambda *a: True
""",
    "answers equal to anything": """
class _Sly(float):
    __eq__ = __le__ = __ge__ = __lt__ = __gt__ = lambda self, other: True
    __ne__ = lambda self, other: False
    __float__ = lambda self: 0.5
    __abs__ = lambda self: 0.0
    __sub__ = __rsub__ = lambda self, other: 0.0
    __call__ = lambda self, *a: self
""",
    "set the chapter's globals": """
eps = 1.0; delta = 0.5; b_family = 0.3; n = 7; seed = 1; threshold = 0.5; days = 1; eps0 = 2.0; delta_prime_comp = 0.5
""",
}
ASSIGN_SLY = "\nfor _name in {names!r}:\n    globals()[_name] = _Sly(0.0)\n"
ASSIGN_WRONG = "\nfor _name in {names!r}:\n    globals()[_name] = 0.0\n"


def _answer_names(chapter):
    return [n for ex in CATALOGUE if ex.chapter.endswith(chapter) and ex.check for n in ex.answer]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=IDS)
def test_tampering_gains_no_points(chapter):
    """Blank notebook: zero; blank (answers 0, or objects that compare equal to anything) plus each tamper:
    zero; the solutions followed by a cell setting the chapter's globals: still full marks."""
    master, name = MASTERS[chapter.stem], chapter.stem
    files = _test_files(master, name)
    blank = _student_code(master)
    names = _answer_names(name)
    scores = {"blank": grade_isolated(blank, files)}
    for tamper, cell in TAMPERS.items():
        answers = (ASSIGN_SLY if tamper == "answers equal to anything" else ASSIGN_WRONG).format(names=names)
        scores[tamper] = grade_isolated(blank + [cell + answers] if "Sly" in cell else blank + [answers, cell], files)
    possible = scores["blank"][1]
    assert possible == sum(ex.points for ex in CATALOGUE if ex.chapter.endswith(name) and ex.check) > 0
    assert {k: s for k, (s, _) in scores.items() if s} == {}, scores
    solved = grade_isolated(_solution_code(master) + [TAMPERS["set the chapter's globals"]], files)
    assert solved == (possible, possible)


def test_hidden_tests_grade_without_the_package():
    """The hidden tests still grade with dpsemantics made unimportable and every check broken."""
    master = MASTERS["causal-view"]
    files = _test_files(master, "causal-view")
    breaker = ("import sys\nfor _m in [m for m in sys.modules if m.startswith('dpsemantics')]:\n"
               "    sys.modules[_m] = None\n")
    assert grade_isolated(_solution_code(master) + [breaker], files)[0] == sum(
        ex.points for ex in CATALOGUE if ex.chapter.endswith("causal-view") and ex.check)


# ---------------------------------------------------------------------------------------------------------
# End to end through otter (intro)
# ---------------------------------------------------------------------------------------------------------


def _submissions(folder, target):
    """Solutions, the unanswered student notebook, the solutions with one answer (eps_group) wrong, and the
    unanswered notebook with its metadata edited: every stored test replaced by one that passes, for 10 points."""
    target.mkdir()
    solutions = nbformat.read(folder / "autograder" / "intro.ipynb", as_version=4)
    nbformat.write(solutions, target / "solutions.ipynb")
    student = nbformat.read(folder / "student" / "intro.ipynb", as_version=4)
    nbformat.write(student, target / "unanswered.ipynb")
    edited = 0
    for cell in solutions.cells:
        if cell.cell_type == "code" and "\neps_group = " in "\n" + cell.source:
            lines = cell.source.splitlines()
            cell.source = "\n".join("eps_group = 0.1" if line.startswith("eps_group = ") else line for line in lines)
            edited += 1
    assert edited == 1
    nbformat.write(solutions, target / "one-wrong.ipynb")
    passing = ("from otter.test_files import test_case\nOK_FORMAT = False\nname = {name!r}\npoints = 10\n"
               "@test_case(points=10, hidden=False)\ndef test_ok():\n    pass\n")
    tests = student.metadata["otter"]["tests"]
    for name in list(tests):
        tests[name] = passing.format(name=name)
    for cell in student.cells:
        cell.metadata.setdefault("otter", {})["tests"] = list(tests)
    nbformat.write(student, target / "zz-metadata-edited.ipynb")
    return target


def test_otter_grades_the_intro_assignment(intro_assignment, tmp_path):
    folder = intro_assignment
    student = nbformat.read(folder / "student" / "intro.ipynb", as_version=4)
    student_text = "\n".join(c.source for c in student.cells)
    assert "eps_group = ..." in student_text and "3 * 0.5" not in student_text, (
        "solution code left in the student notebook")
    assert 'grader.check("intro-ex-group")' in student_text
    assert assignments.wheel_name() in student_text and "%pip install" in student_text
    assert '"dpsemantics==' not in student_text, "the student notebook must install the wheel shipped beside it"
    assert (folder / "student" / assignments.wheel_name()).is_file()
    points = {ex.label: ex.points for ex in CATALOGUE if ex.chapter == "book/intro" and ex.check}
    csv_path = tmp_path / "scores.csv"
    results = {}
    graded = assignments.grade(folder, _submissions(folder, tmp_path / "subs"), csv_path, results)
    rows = {r["submission"]: r for r in graded}
    possible = sum(points.values())
    assert rows["solutions.ipynb"]["total"] == rows["solutions.ipynb"]["possible"] == possible
    assert rows["unanswered.ipynb"]["total"] == 0
    assert rows["zz-metadata-edited.ipynb"]["total"] == 0 and rows["zz-metadata-edited.ipynb"]["possible"] == possible
    wrong = rows["one-wrong.ipynb"]
    assert wrong["total"] == possible - points["intro-ex-group"]
    assert wrong["intro-ex-group"] == 0 and all(wrong[q] == p for q, p in points.items() if q != "intro-ex-group")
    with open(csv_path) as f:
        table = list(csv.DictReader(f))
    assert [r["submission"] for r in table] == ["one-wrong.ipynb", "solutions.ipynb", "unanswered.ipynb",
                                                "zz-metadata-edited.ipynb"]
    assert float(table[1]["total"]) == possible
    # the written questions are in the export, with their points, for the instructor to fill in
    manual = assignments.manual_questions("intro")
    assert manual["intro-ex-tv"] == 2 and manual["intro-ex-transitive-written"] == 2
    assert all(f"{q} (written, of {p})" in table[0] for q, p in manual.items())
    assert float(table[0]["written_possible"]) == sum(manual.values())
    # the grader's feedback on the wrong answer names the part, never a value
    report = "\n".join(results["one-wrong.ipynb"]["intro-ex-group"])
    assert report.startswith("eps_group:") and "delta_group" not in report, report
    delta_group = (1 + math.exp(0.5) + math.exp(1.0)) * 1e-3
    for x in (1.5, delta_group):
        for form in {f"{x:.6g}", f"{x:.4g}", f"{x:.3g}", f"{x:.4f}", repr(x), f"{np.float64(x)!r}"}:
            if len(form.strip("-0.")) >= 3:
                assert form not in report, form


def test_autograder_zip_carries_the_wheel_and_the_pins(intro_assignment):
    import tomllib
    import zipfile

    import yaml

    from conftest import ROOT

    with zipfile.ZipFile(assignments.autograder_zip(intro_assignment)) as z:
        names = set(z.namelist())
        env = yaml.safe_load(z.read("environment.yml"))
    assert f"files/{assignments.wheel_name()}" in names
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert set(project["dependencies"]) <= set(pip) and f"files/{assignments.wheel_name()}" in pip
    assert "otter-grader[grading]==7.0.0" in pip and not [p for p in pip if "dpsemantics==" in p]
    assert all("==" in p or p.endswith(".whl") for p in pip), pip


def test_written_parts_are_manual_questions_with_points():
    master = MASTERS["causal-view"]
    heads = [c.source for c in master.cells if c.cell_type == "raw" and c.source.startswith("# BEGIN QUESTION")]
    manual = [h for h in heads if "manual: true" in h]
    assert any("cv-ex-one-point" in h and "points: 3" in h for h in manual)
    assert any("cv-ex-def9-written" in h and "points: 1" in h for h in manual)
    assert inspect.signature(assignments.grade).parameters


def test_the_tamper_suite_would_catch_checks_run_in_the_kernel():
    """The suite is not vacuous: with hidden tests that call the notebook's ``coursework`` checks (the old
    design), rebinding ``coursework`` or replacing the checks earns every point on a blank notebook."""
    files = []
    checked = [ex for ex in CATALOGUE if ex.chapter.endswith("semantic-privacy") and ex.check]
    for ex in checked:
        source = (f"from otter.test_files import test_case\n\nOK_FORMAT = False\n\nname = {ex.label!r}\n\n"
                  f"@test_case(points={ex.points}, hidden=True)\ndef test_old(env, {', '.join(ex.answer)}):\n"
                  f"    coursework = env['coursework']\n    assert coursework.{ex.call()}.correct\n")
        files.append((f"semantic-privacy/{ex.label}.py", source))
    blank = _student_code(MASTERS["semantic-privacy"])
    names = _answer_names("semantic-privacy")
    possible = sum(ex.points for ex in checked)
    assert grade_isolated(blank + [ASSIGN_WRONG.format(names=names)], files) == (0, possible)
    for tamper in ("rebind coursework", "replace the checks"):
        tampered = blank + [ASSIGN_WRONG.format(names=names), TAMPERS[tamper]]
        assert grade_isolated(tampered, files) == (possible, possible)


# ---------------------------------------------------------------------------------------------------------
# Nothing shipped that answers: the student's wheel, the seeded parameters, the prompts
# ---------------------------------------------------------------------------------------------------------

REFERENCE_CODE = ("def references", "_ref_", "first_crossing", "_REFERENCES")


def test_student_wheel_carries_no_reference_computation(intro_assignment):
    """The wheel handed out (and the package the grader runs notebooks with) has none of the reference code
    that the book's own package has."""
    import zipfile

    source = (assignments.ROOT / "lib" / "dpsemantics" / "book" / "coursework.py").read_text()
    assert all(p in source for p in REFERENCE_CODE), "the grep would find nothing anywhere"
    for wheel in (intro_assignment / "student" / assignments.wheel_name(),
                  intro_assignment / "autograder" / assignments.wheel_name()):
        with zipfile.ZipFile(wheel) as z:
            texts = {n: z.read(n).decode("utf-8", "replace") for n in z.namelist()}
        assert "dpsemantics/book/coursework.py" in texts and "dpsemantics/mechanisms.py" in texts
        assert not [(n, p) for n, t in texts.items() for p in REFERENCE_CODE if p in t]
    package = intro_assignment / "grading" / "package" / "dpsemantics"
    assert not [(f, p) for f in package.rglob("*.py") for p in REFERENCE_CODE if p in f.read_text()]


def test_seeds_give_different_parameters_and_accepted_answers(tmp_path):
    """SEED=1 and SEED=2 write different parameters and disjoint accepted intervals into the hidden checks;
    the group-privacy answers are computed here from the parameters (k·ε, δ·Σᵢ₌₀^{k−1} e^{iε}), and the
    chapter's printed answer (ε = 1.5 for three records at ε = 0.5) is rejected under both seeds."""
    import json

    intro = next(nb for nb in CHAPTERS if nb.stem == "intro")
    checks = {}
    for seed in (1, 2):
        path = assignments.write_hidden_checks(intro, tmp_path / f"seed{seed}", seed=seed)
        checks[seed] = json.loads(path.read_text())
    assert checks[1]["parameters"] != checks[2]["parameters"]
    intervals = {}
    for seed, data in checks.items():
        params = data["parameters"]["intro-ex-group"]
        eps, delta, k = params["eps"], params["delta"], params["group_size"]
        assert (eps, delta, k) != (0.5, 1e-3, 3)
        want = {"eps_group": k * eps, "delta_group": delta * sum(math.exp(i * eps) for i in range(k))}
        group = next(q for q in data["questions"] if q["name"] == "intro-ex-group")
        for a in group["answers"]:
            lo, hi = a["interval"]
            assert lo <= want[a["var"]] <= hi, (seed, a)
            intervals[(seed, a["var"])] = (lo, hi)
        lo, hi = intervals[(seed, "eps_group")]
        assert not lo <= 1.5 <= hi
    a, b = intervals[(1, "eps_group")], intervals[(2, "eps_group")]
    assert a[1] < b[0] or b[1] < a[0], (a, b)
    with pytest.raises(ValueError, match="seed"):
        assignments.assignment_params(next(ex for ex in CATALOGUE if ex.label == "intro-ex-group"), -1)


SEEDED = {nb.stem: assignments.master_notebook(nb, seed=1) for nb in CHAPTERS}


@pytest.mark.parametrize("chapter", CHAPTERS, ids=IDS)
def test_graded_prompts_name_no_function_and_state_the_precision(chapter):
    """No auto-graded question names a package function (no ``module.function``; ``grader.check`` is the
    notebook's own check), each numeric one states the precision it is graded to, and a seeded one lists the
    assignment's parameters."""
    import re

    labels = {ex.label: ex for ex in CATALOGUE if ex.check and ex.answer}
    current, seen = None, 0
    for cell in SEEDED[chapter.stem].cells:
        if cell.cell_type == "raw" and cell.source.startswith("# BEGIN QUESTION"):
            current = cell.source.split("name: ")[1].split("\n")[0]
            continue
        if cell.cell_type == "markdown" and current in labels and cell.source.startswith("## "):
            ex, text = labels[current], cell.source
            named = set(re.findall(r"\b[A-Za-z_]\w*\.[A-Za-z_]\w*", text)) - {"grader.check", "e.g", "i.e"}
            assert not named, (current, named)
            if ex.check_name != "check_definition7_counterexample":
                assert "**Graded to:**" in text, current
            if ex.params:
                assert "**This assignment's parameters**" in text, current
            current, seen = None, seen + 1
    assert seen == sum(1 for ex in labels.values() if chapter.stem in ex.chapter)


def test_public_check_is_coarse_and_accepts_the_forms_the_hidden_one_does():
    """The public check of intro-ex-group (seed 1) passes the right answer as a number, a one-element array
    and a one-element list, and passes a wrong answer 10% off too (it is not an oracle for the graded value);
    it fails a blank answer and one ten times off.  The hidden test (the zip's) accepts the same three forms."""
    master = SEEDED["intro"]
    _, tests = _split(master)
    ex = next(ex for ex in CATALOGUE if ex.label == "intro-ex-group")
    order = [e.label for e in CATALOGUE if e.chapter == "book/intro" and e.check and e.answer]
    public = [src for src, _, h in tests if not h][order.index(ex.label)]
    hidden = [src for src, _, h in tests if h][order.index(ex.label)]
    plan = assignments.assignment_plan(next(nb for nb in CHAPTERS if nb.stem == "intro"), seed=1)
    params = plan[ex.label][0]
    eps, delta, k = params["eps"], params["delta"], params["group_size"]
    right = (k * eps, delta * sum(math.exp(i * eps) for i in range(k)))

    def run(src, name, *args):
        namespace = {}
        exec(compile(src, "<test>", "exec"), namespace)  # noqa: S102 - the generated test
        try:
            namespace[name](*args)
            return True
        except AssertionError:
            return False

    for form in (lambda x: x, lambda x: np.array([x]), lambda x: [x]):
        assert run(public, "test_public", *map(form, right))
        assert run(hidden, "test_hidden", *map(form, right))
    assert run(public, "test_public", right[0] * 1.1, right[1] * 1.1)
    assert not run(hidden, "test_hidden", right[0] * 1.1, right[1] * 1.1)
    assert not run(public, "test_public", ..., ...)
    assert not run(public, "test_public", right[0] * 10, right[1])


def test_instructors_page_has_a_rubric_for_every_written_question_and_the_term_sections():
    page = (assignments.ROOT / "book" / "instructors.md").read_text()
    for heading in ("## A term with the book", "## Points", "## Rubrics for the written parts", "## Gradescope"):
        assert heading in page, heading
    rubrics = page.split("## Rubrics for the written parts")[1].split("\n## ")[0]
    written = [ex.label for ex in CATALOGUE if ex.written or not (ex.check and ex.answer)]
    assert written and not [label for label in written if f"`{label}`" not in rubrics]
    syllabus = page.split("## A term with the book")[1].split("\n## ")[0]
    assert not [ex.label for ex in CATALOGUE if f"`{ex.label}`" not in syllabus]
    assert "with your permissions" in page
    # the syllabus's points per assignment are the exercises' (summed here from the catalogue)
    for chapter in {ex.chapter for ex in CATALOGUE}:
        auto = sum(ex.points for ex in CATALOGUE if ex.chapter == chapter and ex.check and ex.answer)
        written = sum(ex.written if ex.check and ex.answer else (ex.points or 2)
                      for ex in CATALOGUE if ex.chapter == chapter)
        assert f"| {chapter.split('/')[1]} ({auto} / {written}) |" in syllabus, chapter


def test_formula_arguments_are_the_ones_the_hidden_checks_call():
    """The prompt's (eps, delta) for intro-ex-transitive: the exact chaining (2ε, (1 + e^ε)δ) written here
    passes the hidden check when called in that order, and fails with the arguments swapped."""
    master = SEEDED["intro"]
    text = next(c.source for c in master.cells if c.cell_type == "markdown" and "Transitivity" in c.source
                and "Graded to" in c.source)
    assert "a Python function of (eps, delta)" in text
    from dpsemantics.book import grader

    intro = next(nb for nb in CHAPTERS if nb.stem == "intro")
    plan = assignments.assignment_plan(intro, seed=1)
    ex = next(ex for ex in CATALOGUE if ex.label == "intro-ex-transitive")
    (q,) = grader.hidden_checks([ex], lambda e: plan[e.label][1])
    for order, expected in ((lambda e, d: (e, d), 2), (lambda e, d: (d, e), 0)):
        answers = {}
        for a in q["answers"]:
            f = (lambda e, d: 2 * e) if a["var"] == "eps_prime" else (lambda e, d: (1 + math.exp(e)) * d)
            answers[a["var"]] = [f(*order(*pt)) for pt in a["points"]]
        assert grader.score_question(q, answers)[0] == expected


@pytest.mark.parametrize("chapter", CHAPTERS, ids=IDS)
def test_seeded_solutions_pass_their_tests(chapter):
    """The solutions notebook of a seeded assignment (seed 1) scores full marks on its own tests: the seeded
    numbers replace the chapter's, and the formula answers (graded at fixed hidden points) keep the chapter's
    functions, also in an exercise with both (kazan-ex-profile)."""
    master = SEEDED[chapter.stem]
    score, possible = grade_isolated(_solution_code(master), _test_files(master, chapter.stem))
    assert score == possible == sum(ex.points for ex in CATALOGUE if ex.chapter.endswith(chapter.stem) and ex.check)


def test_formula_prompts_state_the_rule_and_the_precision():
    """Every question with a formula answer says, in its "Graded to" line, that the function is graded without
    the package and to which relative precision (10⁻⁶, as a reader writes it)."""
    from dpsemantics.book import coursework

    formula = {ex.label for ex in CATALOGUE
               if ex.check and ex.answer and ex.check_name != "check_definition7_counterexample"
               and any(isinstance(r, coursework.FormulaReference) for r in coursework.references(ex.check_name))}
    assert len(formula) >= 13
    seen = set()
    for master in SEEDED.values():
        current = None
        for cell in master.cells:
            if cell.cell_type == "raw" and cell.source.startswith("# BEGIN QUESTION"):
                current = cell.source.split("name: ")[1].split("\n")[0]
            elif cell.cell_type == "markdown" and current in formula and cell.source.startswith("## "):
                graded = cell.source.split("**Graded to:**")[1]
                assert "without the `dpsemantics` package" in graded and "relative 10⁻⁶" in graded, current
                assert "1e-06" not in cell.source, current
                seen.add(current)
    assert seen == formula
