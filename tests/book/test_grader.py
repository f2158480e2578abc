"""``make grade``: a class's folder graded out of the students' reach, one notebook unable to break the rest.

One folder of the intro assignment's submissions is graded once (module fixture, about 90 s: a process per
notebook, one of them waiting for its timeout): an honest notebook (the solutions), the blank student
notebook, the four class-breaking notebooks of issue 37 — ``os._exit(0)``, ``time.sleep(10**6)``,
``builtins.isinstance = lambda *a: True``, no otter metadata — a notebook that asks for more memory than the
limit, and the tampers.  The expected scores are the assignment's points from ``book/exercises.yml``, not the
grader's output.

The tampers (each a blank notebook plus one cell; every one must score 0 on the auto-graded questions):

* ``coursework.references`` — the reference values with their tolerances, from the student's package;
* tests on disk — read ``tests/*.py`` and write passing ones where otter would read them, and overwrite the
  grader's own ``grading/hidden-checks.json`` (its absolute path written into the tamper, as a student who
  found it would) with intervals that accept anything;
* a frame peek — answers whose ``__float__`` walks the caller's frames for reference values;
* otter's objects — ``otter.test_files.GradingResults.__init__`` patched so every result passes;
* builtins — ``isinstance`` patched before the answers are read.

Copying the chapter (its solution code, with the chapter's parameters) scores 0 on every question whose
parameters the seed moved.  Calling the package function that computes an answer, with the assignment's
parameters, is not a tamper the grader can see (the answer is a right number either way): the prompts no longer
name the function (``tests/book/test_assignments.py``), and the package is still installed.
"""

import csv
import json
import shutil

import nbformat
import pytest

from dpsemantics.book import assignments, exercises, grader

pytest.importorskip("otter", reason="otter-grader is not installed (pip install -e '.[coursework]')")

INTRO = [ex for ex in exercises.catalogue() if ex.chapter == "book/intro"]
POINTS = {ex.label: ex.points for ex in INTRO if ex.check and ex.answer}
POSSIBLE = sum(POINTS.values())
TIMEOUT = 40

BREAKERS = {
    "exits": "import os\nos._exit(0)",
    "hangs": "import time\ntime.sleep(10**6)",
    "builtins": "import builtins\nbuiltins.isinstance = lambda *a: True",
    "memory": "hog = bytearray(6 * 1024**3)  # lazily mapped: without the 3 GB limit this succeeds",
}

PEEK = '''
import sys
class Peek(float):
    def __float__(self):
        frame, seen = sys._getframe(1), []
        while frame is not None:
            for key, value in list(frame.f_locals.items()):
                if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, float) for v in value):
                    seen.append(sum(value) / 2)
            frame = frame.f_back
        return seen[0] if seen else 0.0
    def __array__(self, dtype=None, copy=None):
        import numpy as np
        return np.asarray(self.__float__())
eps_group, delta_group = Peek(0.0), Peek(0.0)
eps_at_sigma2, sigma_for_half = Peek(0.0), Peek(0.0)
'''

PATCH_OTTER = '''
import otter.test_files
_init = otter.test_files.GradingResults.__init__
def _all_pass(self, test_files, *a, **k):
    for t in test_files:
        for r in getattr(t, "test_case_results", []):
            r.passed = True
    _init(self, test_files, *a, **k)
otter.test_files.GradingResults.__init__ = _all_pass
'''

DISK = '''
import glob, json, os, pathlib
try:
    checks = json.loads(pathlib.Path({checks!r}).read_text())
    for q in checks["questions"]:
        for a in q["answers"]:
            if "interval" in a:
                a["interval"] = [-1e308, 1e308]
            else:
                a["intervals"] = [[-1e308, 1e308]] * len(a["intervals"])
    pathlib.Path({checks!r}).write_text(json.dumps(checks))
except OSError:
    pass
stolen = [pathlib.Path(p).read_text() for p in glob.glob("tests/*.py") + glob.glob("../**/tests/*.py", recursive=True)]
pathlib.Path("tests").mkdir(exist_ok=True)
for name in {names!r}:
    pathlib.Path(f"tests/{{name}}.py").write_text(
        "from otter.test_files import test_case\\nOK_FORMAT = False\\nname = %r\\npoints = 100\\n"
        "@test_case(points=100, hidden=True)\\ndef test_ok():\\n    pass\\n" % name)
'''


# Calling the package instead of writing the theorem's formula (the formula answers of intro-ex-profile and
# intro-ex-name-shame): right values when run (test_package_calls_are_right_answers_when_not_blocked), 0 when graded.
PACKAGE_CALLS = """
import functools
from scipy.optimize import brentq
from dpsemantics import mechanisms as mech
from dpsemantics.mechanisms import gaussian_delta
eps_for_sigma = lambda sigma, delta: brentq(lambda e: gaussian_delta(e, sigma) - delta, 0, 60, xtol=1e-14)
sigma_for_eps = functools.partial(mech.gaussian_sigma)
smallest_delta = lambda eps, delta: float(mech.name_and_shame(2, delta).delta(eps))
largest_delta = lambda n, p: brentq(lambda d: mech.name_and_shame_exposure(n, d) - p, 0, 1, xtol=1e-16)
"""
FORMULAS = ("intro-ex-profile", "intro-ex-name-shame")


def _printed_numbers() -> str:
    """Functions returning the numbers the chapter prints for the formula exercises (at its own parameters)."""
    from scipy.optimize import brentq

    from dpsemantics import mechanisms

    eps2 = brentq(lambda e: mechanisms.gaussian_delta(e, 2.0) - 1e-6, 0, 60)
    sigma = mechanisms.gaussian_sigma(0.5, 1e-6)
    return (f"eps_for_sigma = lambda sigma, delta: {eps2!r}\nsigma_for_eps = lambda eps, delta: {sigma!r}\n"
            f"smallest_delta = lambda eps, delta: 0.01\nlargest_delta = lambda n, p: {1 - 0.95 ** 0.01!r}\n")


def _with_cell(nb, code, *, first=False):
    nb = nbformat.from_dict(json.loads(nbformat.writes(nb)))
    cell = nbformat.v4.new_code_cell(code)
    nb.cells.insert(3 if first else len(nb.cells), cell)
    return nb


@pytest.fixture(scope="module")
def graded(intro_assignment, tmp_path_factory):
    """(rows by submission, per-question feedback, the hidden checks' text before and after) of one grading."""
    folder = tmp_path_factory.mktemp("grade") / "intro"
    shutil.copytree(intro_assignment, folder)
    subs = folder.parent / "submissions"
    subs.mkdir()
    solutions = nbformat.read(folder / "autograder" / "intro.ipynb", as_version=4)
    blank = nbformat.read(folder / "student" / "intro.ipynb", as_version=4)
    nbformat.write(solutions, subs / "honest.ipynb")
    nbformat.write(blank, subs / "blank.ipynb")
    for name, code in BREAKERS.items():
        nbformat.write(_with_cell(solutions, code), subs / f"break-{name}.ipynb")
    nometa = _with_cell(solutions, "x = 1")
    del nometa.metadata["otter"]
    nbformat.write(nometa, subs / "break-nometa.ipynb")
    checks_path = folder / grader.HIDDEN_CHECKS
    tampers = {
        "references": "from dpsemantics.book import coursework\n"
                      "r = coursework.references('check_group_answer', eps=0.5, delta=1e-3, group_size=3)\n"
                      "eps_group, delta_group = r[0].value, r[1].value",
        "disk": DISK.format(names=list(POINTS), checks=str(checks_path)),
        "frame-peek": PEEK,
        "otter-results": PATCH_OTTER,
        "builtins": "import builtins\nbuiltins.isinstance = lambda *a: True\nbuiltins.float = lambda *a: 1.5",
        "package-calls": PACKAGE_CALLS,
        "printed-numbers": _printed_numbers(),
    }
    for name, code in tampers.items():
        nbformat.write(_with_cell(blank, code), subs / f"tamper-{name}.ipynb")
    chapter = nbformat.read(assignments.ROOT / "book" / "intro.ipynb", as_version=4)
    parts = assignments.exercise_parts(chapter)
    copied = "\n\n".join(code for ex in INTRO if ex.check and ex.answer for code in parts[ex.label]["code"])
    nbformat.write(_with_cell(blank, copied), subs / "tamper-chapter.ipynb")  # the chapter's own solutions
    wrong = "\n".join(f"{v} = 0.0" for ex in INTRO for v in ex.answer if ex.check and ex.label != "intro-ex-transitive")
    wrong += "\neps_prime = delta_prime = lambda e, d: 0.0"
    nbformat.write(_with_cell(blank, wrong), subs / "zz-wrong-after.ipynb")  # graded after the disk tamper
    before = checks_path.read_text()
    results = {}
    rows = grader.grade(folder, subs, subs / "scores.csv", results, timeout=TIMEOUT, memory_mb=3072, sandbox=False)
    with open(subs / "scores.csv") as f:
        table = {r["submission"]: r for r in csv.DictReader(f)}
    return {r["submission"]: r for r in rows}, table, results, before, checks_path.read_text()


def test_every_submission_has_a_row_and_the_honest_one_full_marks(graded):
    rows, table, *_ = graded
    assert sorted(table) == sorted(rows) and len(rows) == 2 + len(BREAKERS) + 1 + 7 + 2
    honest = rows["honest.ipynb"]
    assert honest["status"] == "graded" and honest["total"] == POSSIBLE == honest["possible"] == 10
    assert all(honest[q] == p for q, p in POINTS.items())
    assert float(table["honest.ipynb"]["total"]) == POSSIBLE
    assert rows["blank.ipynb"]["total"] == 0


def test_class_breaking_notebooks_get_their_own_row_with_the_reason(graded):
    rows, table, *_ = graded
    assert rows["break-exits.ipynb"]["status"] == "error"
    assert "ended before its answers were collected" in rows["break-exits.ipynb"]["reason"]
    assert rows["break-hangs.ipynb"]["status"] == "error"
    assert f"timed out after {TIMEOUT} s" in rows["break-hangs.ipynb"]["reason"]
    assert rows["break-nometa.ipynb"]["status"] == "error"
    assert "not a submission for assignment 'intro'" in rows["break-nometa.ipynb"]["reason"]
    for name in ("break-exits.ipynb", "break-hangs.ipynb", "break-nometa.ipynb"):
        assert table[name]["total"] == "" and table[name]["reason"], table[name]
    # answers given before the builtins were broken, or before the allocation failed, are still read
    assert rows["break-builtins.ipynb"]["status"] == "graded" and rows["break-builtins.ipynb"]["total"] == POSSIBLE
    memory = rows["break-memory.ipynb"]
    assert memory["status"] == "graded" and "MemoryError" in memory["reason"] and memory["total"] == POSSIBLE


@pytest.mark.parametrize("tamper", ["references", "disk", "frame-peek", "otter-results", "builtins", "package-calls",
                                    "printed-numbers"])
def test_tampering_scores_zero(graded, tamper):
    rows, *_ = graded
    row = rows[f"tamper-{tamper}.ipynb"]
    assert row["status"] == "graded", row
    assert row["total"] == 0 and all(row[q] == 0 for q in POINTS), row


def test_the_chapters_own_solutions_score_zero_where_the_seed_moved_the_parameters(graded):
    """Copying the chapter: its solution code, run with the chapter's parameters, answers every question of
    the assignment (seed 1) whose parameters differ — and scores 0 on each.  The formula answers
    (intro-ex-transitive, intro-ex-profile, intro-ex-name-shame) have no parameters: the chapter's solution *is*
    the formula, so copying it keeps the points (the student edition, which prints no solution, is the one to
    hand out; book/instructors.md says so)."""
    rows, *_ = graded
    row = rows["tamper-chapter.ipynb"]
    seeded = [ex.label for ex in INTRO if ex.check and ex.answer and ex.params]
    assert seeded and row["status"] == "graded"
    assert all(row[label] == 0 for label in seeded), row
    for label in ("intro-ex-transitive", *FORMULAS):
        assert row[label] == POINTS[label], (label, row)


@pytest.mark.parametrize("tamper", ["package-calls", "printed-numbers"])
def test_formula_answers_need_the_formula(graded, tamper):
    """A formula answer that calls the package (module functions, a name imported from it, functools.partial
    of one) or returns the numbers the chapter prints scores 0 on the formula questions; the honest notebook,
    graded in the same folder, has them right."""
    rows, _, results, *_ = graded
    row = rows[f"tamper-{tamper}.ipynb"]
    assert row["status"] == "graded" and all(row[label] == 0 for label in FORMULAS), row
    assert all(rows["honest.ipynb"][label] == POINTS[label] for label in FORMULAS)
    if tamper == "package-calls":  # they raised: the package was blocked, not merely imprecise
        feedback = [line for label in FORMULAS for line in results[f"tamper-{tamper}.ipynb"][label]]
        assert feedback and all("differs at a test point" in line or "raised" in line for line in feedback)


def test_package_calls_are_right_answers_when_not_blocked(intro_assignment):
    """The package-call tamper is a real one: run here, with the package working, its functions fall inside
    every interval of the hidden checks (so only the block stops them)."""
    checks = json.loads((intro_assignment / grader.HIDDEN_CHECKS).read_text())
    namespace = {}
    exec(PACKAGE_CALLS, namespace)  # noqa: S102 - the tamper's own cell
    for q in checks["questions"]:
        if q["name"] not in FORMULAS:
            continue
        answers = {a["var"]: [float(namespace[a["var"]](*pt)) for pt in a["points"]] for a in q["answers"]}
        assert grader.score_question(q, answers) == (q["points"], []), q["name"]


def test_overwriting_the_hidden_checks_changes_no_score(graded):
    """The tamper really rewrote the file (the grader ran without the sandbox) and no later row changed."""
    rows, _, _, before, after = graded
    assert before != after and "1e+308" in after
    assert rows["zz-wrong-after.ipynb"]["total"] == 0  # graded after the file was rewritten (sorted order)


def test_feedback_names_the_part_never_the_value(graded):
    _, _, results, *_ = graded
    feedback = results["blank.ipynb"]["intro-ex-group"]
    assert feedback and all(line.startswith(("eps_group", "delta_group")) for line in feedback)
    assert not any(ch.isdigit() for line in feedback for ch in line)


def test_the_sandbox_hides_the_assignment(intro_assignment, tmp_path):
    """With unprivileged namespaces the notebook sees an empty assignment folder and no network."""
    if not grader.sandbox_available():
        pytest.skip("unshare cannot make unprivileged namespaces here")
    folder = tmp_path / "intro"
    shutil.copytree(intro_assignment, folder)
    subs = tmp_path / "subs"
    subs.mkdir()
    checks = folder / grader.HIDDEN_CHECKS
    blank = nbformat.read(folder / "student" / "intro.ipynb", as_version=4)
    probe = (f"import os, pathlib, socket\nseen = os.listdir({str(folder)!r})\n"
             f"pathlib.Path({str(checks)!r}).parent.mkdir(parents=True, exist_ok=True)\n"
             f"pathlib.Path({str(checks)!r}).write_text('{{}}')\n"
             "try:\n    socket.create_connection(('1.1.1.1', 80), timeout=2)\n    net = 1.5\nexcept OSError:\n"
             "    net = 0.0\neps_group = float(len(seen)) + net")
    nbformat.write(_with_cell(blank, probe), subs / "probe.ipynb")
    before = checks.read_text()
    rows = grader.grade(folder, subs, None, timeout=TIMEOUT, sandbox=True)
    assert rows[0]["status"] == "graded", rows[0]
    assert checks.read_text() == before
    answers, _ = grader.run_notebook(subs / "probe.ipynb", {"answers": [{"var": "eps_group", "kind": "number"}]},
                                     timeout=TIMEOUT, memory_mb=3072, hide=(folder, subs), name="intro.ipynb")
    assert answers == {"eps_group": 0.0}, answers


def test_bad_limits_are_value_errors(intro_assignment, tmp_path):
    with pytest.raises(ValueError, match="timeout"):
        grader.grade(intro_assignment, tmp_path, timeout=0)
    with pytest.raises(ValueError, match="memory_mb"):
        grader.grade(intro_assignment, tmp_path, memory_mb=10)


DISCLOSURE_HONEST = """
import numpy as np
def eps_prime(eps, delta, delta_prime):  # Theorem 3.9
    return np.log(delta_prime * np.exp(eps) + delta) - np.log(delta_prime - delta)
def posterior(prior, eps, delta, delta_prime):  # Corollary 3.10
    return prior / (prior + (1 - prior) * np.exp(-eps_prime(eps, delta, delta_prime)))
def eps_for(eps_prime, delta, delta_prime):  # Theorem 3.9 solved for eps
    return eps_prime + np.log1p(-(delta / delta_prime) * (1 + np.exp(-eps_prime)))
eps_prime_profile = 0.0
"""

DISCLOSURE_CALLS = """
import types
import numpy as np
from dpsemantics import conversions, disclosure
from dpsemantics.disclosure import dp_epsilon_for_pdp
copy = types.FunctionType(conversions.pdp_epsilon.__code__, conversions.pdp_epsilon.__globals__)
conversions.pdp_epsilon.__module__ = "not_the_package"
eps_prime = lambda eps, delta, delta_prime: copy(eps, delta, delta_prime)
posterior = np.vectorize(lambda p, e, d, d1: disclosure.posterior_bounds(p, conversions.pdp_epsilon(e, d, d1))[1])
eps_for = lambda e1, d, d1: __import__("dpsemantics.disclosure", fromlist=["x"]).dp_epsilon_for_pdp(e1, d, d1)
eps_for_alias = dp_epsilon_for_pdp
eps_prime_profile = 0.0
"""


@pytest.mark.parametrize("code, expected", [(DISCLOSURE_HONEST, "right"), (DISCLOSURE_CALLS, "wrong")])
def test_disclosure_formulas_are_graded_without_the_package(tmp_path, code, expected):
    """kazan-ex-pdp and kazan-ex-profile's formula (Theorem 3.9, Corollary 3.10, Theorem 3.9 inverted), run by the
    grader's runner at the hidden points: the NumPy formulas from the paper score, the same answers made of
    package calls (a module function, a renamed copy of one, np.vectorize, a fresh import, a name imported from
    the package) are blocked and score 0."""
    from dpsemantics.book import coursework

    kazan = [ex for ex in exercises.catalogue() if ex.label in ("kazan-ex-pdp", "kazan-ex-profile")]
    checks = grader.hidden_checks(kazan, lambda ex: coursework.references(ex.check_name,
                                                                          **(ex.params | ex.hidden_params)))
    spec = grader.runner_spec(checks)
    if expected == "wrong":
        alias = next(a for a in spec["answers"] if a["var"] == "eps_for")
        spec["answers"].append(dict(alias, var="eps_for_alias"))
    notebook = tmp_path / "disclosure-risk.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)]), notebook)
    answers, reason = grader.run_notebook(notebook, spec, timeout=TIMEOUT, memory_mb=3072, name="disclosure-risk.ipynb")
    assert answers is not None and not reason, reason
    formulas = {q["name"]: [a for a in q["answers"] if a["kind"] == "formula"] for q in checks}
    for q in checks:
        for a in formulas[q["name"]]:
            got = answers[a["var"]]
            inside = [isinstance(x, float) and lo <= x <= hi for x, (lo, hi) in zip(got, a["intervals"])]
            if expected == "right":
                assert all(inside) and len(inside) == len(a["points"]), (a["var"], got)
            else:
                assert got and all(isinstance(x, str) and x.startswith("raised") for x in got), (a["var"], got)
    if expected == "wrong":
        assert all(x.startswith("raised") for x in answers["eps_for_alias"])


def test_definition7_check_has_one_source():
    """cv-ex-def7's check is one function: the zip's hidden test carries its source text verbatim, and the
    hidden test (on the objects) and ``make grade`` (on their plain data) give the same verdicts on the chapter's
    counterexample, on differentially private mechanisms, and on malformed answers."""
    import numpy as np

    from dpsemantics.mechanisms import FiniteMechanism, geometric_count

    ex = next(ex for ex in exercises.catalogue() if ex.label == "cv-ex-def7")
    source = assignments.hidden_test(ex)
    assert grader.definition7_source().strip() in "\n".join(line[4:] for line in source.splitlines())
    namespace = {}
    exec(source.split('""" # END TEST CONFIG\n', 1)[1], namespace)  # noqa: S102 - the generated hidden test
    dbs = [(0, 0), (0, 1), (1, 0), (1, 1)]
    bad = FiniteMechanism(np.array([[0.5, 0.5]] * 3 + [[1.0, 0.0]]), dbs, [0, 1])  # the chapter's solution
    uniform = np.full((2, 2), 0.25)
    cases = [(bad, uniform, True), (geometric_count(2, 0.5), uniform, False), (bad, np.full((2, 2), 0.3), False),
             (bad, np.eye(2) / 2, None), (FiniteMechanism(np.full((4, 2), 0.5), dbs, [0, 1]), uniform, False),
             ("not a mechanism", uniform, False)]
    (q,) = grader.hidden_checks([ex], None)
    for mechanism, population, expected in cases:
        try:
            namespace["test_hidden"](mechanism, population)
            zip_verdict = True
        except AssertionError:
            zip_verdict = False
        data = {"bad": {"matrix": np.asarray(mechanism.matrix).tolist(), "databases": [list(d) for d in dbs]}
                if hasattr(mechanism, "matrix") else "not a finite mechanism",
                "P": np.asarray(population).tolist()}
        grade_verdict = grader.score_question(q, data)[0] == q["points"]
        assert zip_verdict == grade_verdict, (mechanism, population)
        if expected is not None:
            assert grade_verdict == expected, (mechanism, population)


# Every formula answer of the book computed by calls into the package (what a student who knows the package
# writes instead of the paper's formula). A new formula exercise needs a row here.
PACKAGE_ATTACKS = """
import math
from scipy.optimize import brentq
from dpsemantics import causal, conversions, disclosure, mechanisms as mech, notions, semantic as S
from dpsemantics import indistinguishability as ind
from dpsemantics.privacy_loss import PrivacyLoss
def _copies(e, n):
    return mech.local_randomized_response(int(n), e), notions.copies_prior(int(n))
def _equal(n):
    import numpy as np
    pop = np.zeros((2,) * int(n)); pop[(0,) * int(n)] = pop[(1,) * int(n)] = 0.5
    return pop
eps_prime_chain = lambda e, d: ind.transitivity_parameters(e, d)[0]
delta_prime_chain = lambda e, d: ind.transitivity_parameters(e, d)[1]
eps_for_sigma = lambda s, d: brentq(lambda e: mech.gaussian_delta(e, s) - d, 0, 60, xtol=1e-14)
sigma_for_eps = lambda e, d: brentq(lambda s: mech.gaussian_delta(e, s) - d, 1e-3, 1e3, xtol=1e-14)
smallest_delta = lambda e, d: float(mech.name_and_shame(2, d).delta(e))
largest_delta = lambda n, p: brentq(lambda d: mech.name_and_shame_exposure(n, d) - p, 0, 1, xtol=1e-16)
semantic_formula = lambda e, n: S.semantic_epsilon(mech.local_randomized_response(int(n), e)).epsilon
count_semantic_eps = lambda e, n: S.semantic_epsilon(mech.geometric_count(int(n), e)).epsilon
copies_leakage = lambda e, n: notions.bdp_leakage(*_copies(e, n))
bsp_replace = lambda e, n: notions.bayesian_semantic_privacy(*_copies(e, n), 0, reading="replace")
bdp = lambda e, n: notions.bdp_leakage(*_copies(e, n))
rp_bar = lambda e: math.exp(causal.brp_epsilon(causal.prog_a_model(e, with_database=False), "O", "D1"))
eps_def3 = lambda e, n: causal.definition_epsilon(3, mech.geometric_count(int(n), e), _equal(n))
eps_for = lambda e1, d, d1: float(disclosure.dp_epsilon_for_pdp(e1, d, d1))
p_star = lambda e: float(disclosure.worst_case_prior(e)[0])
max_difference = lambda e: float(disclosure.difference_bound(e))
posterior_bound = lambda p, e: float(disclosure.posterior_bounds(p, e)[1])
prob_present = lambda e: float(1 - PrivacyLoss.laplace(e).cdf_left(e))
prob_absent = lambda e: float(PrivacyLoss.laplace(e).dual.cdf(-e))
eps_prime = lambda e, d, d1: float(conversions.pdp_epsilon(e, d, d1))
posterior = lambda p, e, d, d1: float(disclosure.posterior_bounds(p, conversions.pdp_epsilon(e, d, d1))[1])
"""
# the intro chapter's chaining answers are named eps_prime and delta_prime, like kazan-ex-pdp's ε′: renamed here
RENAMED = {("intro-ex-transitive", "eps_prime"): "eps_prime_chain", ("intro-ex-transitive", "delta_prime"):
           "delta_prime_chain"}


def _formula_checks():
    """The hidden checks of every formula question of the book, its variables renamed where two chapters share one."""
    from dpsemantics.book import coursework

    checks = []
    for ex in exercises.catalogue():
        if not (ex.check and ex.answer) or ex.check_name == "check_definition7_counterexample":
            continue
        (q,) = grader.hidden_checks([ex], lambda e: coursework.references(e.check_name, **(e.params | e.hidden_params)))
        q["answers"] = [dict(a, var=RENAMED.get((ex.label, a["var"]), a["var"])) for a in q["answers"]
                        if a["kind"] == "formula"]
        if q["answers"]:
            checks.append(q)
    return checks


def test_every_formula_answer_made_of_package_calls_scores_zero(tmp_path):
    """For every formula question of the book: the answer computed by calling the package is right at every
    hidden point when the package works (here, in the test's process), and scores 0 when graded (the runner
    blocks the package: every point raised); the formula questions are all covered."""
    checks = _formula_checks()
    assert {q["name"] for q in checks} >= {"intro-ex-profile", "intro-ex-name-shame", "ks-ex-count", "zhao-ex-copies",
                                           "zhao-ex-replace", "cv-ex-def9", "cv-ex-def4", "kazan-ex-profile",
                                           "kazan-ex-tanh", "kazan-ex-laplace", "kazan-ex-pdp"}
    namespace = {}
    exec(PACKAGE_ATTACKS, namespace)  # noqa: S102 - the attack's own cell
    for q in checks:
        unblocked = {a["var"]: [float(namespace[a["var"]](*pt)) for pt in a["points"]] for a in q["answers"]}
        assert grader.score_question(q, unblocked) == (q["points"], []), q["name"]
    notebook = tmp_path / "attack.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(PACKAGE_ATTACKS)]), notebook)
    answers, reason = grader.run_notebook(notebook, grader.runner_spec(checks), timeout=120, memory_mb=3072,
                                          name="attack.ipynb")
    assert answers is not None and not reason, reason
    for q in checks:
        assert grader.score_question(q, answers)[0] == 0, q["name"]
        for a in q["answers"]:
            assert all(isinstance(x, str) and x.startswith("raised") for x in answers[a["var"]]), (a["var"], answers)


def test_the_chapters_printed_values_are_no_formula():
    """Copying the numbers the chapter prints (its answers at the chapter's own values, as constant functions)
    scores 0 on every formula question: the hidden points are not the chapter's."""
    from dpsemantics.book import coursework

    checks = {q["name"]: q for q in _formula_checks()}
    for ex in exercises.catalogue():
        if ex.label not in checks:
            continue
        printed = {RENAMED.get((ex.label, r.part), r.part): r.values[0]
                   for r in coursework.references(ex.check_name, **ex.params) if hasattr(r, "values")}
        q = checks[ex.label]
        answers = {a["var"]: [printed[a["var"]]] * len(a["points"]) for a in q["answers"]}
        assert grader.score_question(q, answers)[0] == 0, ex.label


def test_a_container_client_without_its_daemon_is_no_runtime(tmp_path, monkeypatch):
    """A ``docker`` on the PATH whose ``info`` fails (the client without a daemon, as on this machine) is not
    reported as a container runtime; one whose ``info`` succeeds is."""
    fake = tmp_path / "docker"
    fake.write_text("#!/bin/sh\necho 'Cannot connect to the Docker daemon' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert grader.container_runtime() is None
    fake.write_text("#!/bin/sh\nexit 0\n")
    assert grader.container_runtime() == "docker"
