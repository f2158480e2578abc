"""The generated assignments: otter-grader gives the reference solutions full marks, an unanswered notebook
zero, and a notebook with one wrong answer loses exactly that question's points; no output shows the answer.

One chapter (intro) goes end to end through ``otter assign`` and ``otter``'s local grader (about half a
minute: each graded notebook runs in its own kernel); for every chapter, the master notebook's solutions are
run in-process against its hidden tests, which is what the grader does, without the kernels.
"""

import csv
import math
from collections import Counter

import nbformat
import numpy as np
import pytest
from IPython.core.inputtransformer2 import TransformerManager

from dpsemantics.book import assignments, exercises

pytest.importorskip("otter", reason="otter-grader is not installed (pip install -e '.[test]')")

CHAPTERS = assignments.chapters_with_exercises()
CATALOGUE = exercises.catalogue()


def test_answer_variables_are_unique_within_a_chapter():
    """Otter runs the whole notebook before the tests: a later answer with the same name would overwrite."""
    for nb in CHAPTERS:
        names = Counter(n for ex in CATALOGUE if nb.stem in ex.chapter for n in ex.answer)
        assert not [n for n, k in names.items() if k > 1], (nb.stem, names)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[nb.stem for nb in CHAPTERS])
def test_master_notebook_solutions_pass_their_hidden_tests(chapter):
    master = assignments.master_notebook(chapter)
    raw = [c.source for c in master.cells if c.cell_type == "raw"]
    assert raw[0].startswith("# ASSIGNMENT CONFIG")
    questions = [line.split(": ", 1)[1] for src in raw if src.startswith("# BEGIN QUESTION") for line in src.splitlines()
                 if line.startswith("name: ")]
    assert questions == [ex.label for ex in CATALOGUE if ex.chapter.endswith(chapter.stem)]
    # Execute like the grader: every code cell in order (tests are code cells too, run at the end).
    code = [c.source for c in master.cells if c.cell_type == "code"]
    tests = [src for src in code if "# BEGIN TEST CONFIG" in src]
    hidden = [src for src in tests if "hidden: true" in src]
    checked = [ex for ex in CATALOGUE if ex.chapter.endswith(chapter.stem) and ex.check]
    assert len(hidden) == len(checked) == len(tests) // 2
    namespace = {}
    transform = TransformerManager().transform_cell
    for src in code:
        if src not in tests:
            exec(compile(transform(src), chapter.stem, "exec"), namespace)  # noqa: S102 - the book's own code
    for src in hidden:
        exec(compile(src, chapter.stem, "exec"), namespace)  # noqa: S102


@pytest.fixture(scope="module")
def intro_assignment(tmp_path_factory):
    out = tmp_path_factory.mktemp("assignments")
    intro = next(nb for nb in CHAPTERS if nb.stem == "intro")
    return assignments.make_assignment(intro, out)


def _submissions(folder, target):
    """Solutions, the unanswered student notebook, and the solutions with one answer (eps_group) wrong."""
    target.mkdir()
    solutions = nbformat.read(folder / "autograder" / "intro.ipynb", as_version=4)
    nbformat.write(solutions, target / "solutions.ipynb")
    nbformat.write(nbformat.read(folder / "student" / "intro.ipynb", as_version=4), target / "unanswered.ipynb")
    edited = 0
    for cell in solutions.cells:
        if cell.cell_type == "code" and "eps_group = 3 * 0.5" in cell.source:
            cell.source = cell.source.replace("eps_group = 3 * 0.5", "eps_group = 2 * 0.5")
            edited += 1
    assert edited == 1
    nbformat.write(solutions, target / "one-wrong.ipynb")
    return target


def test_otter_grades_the_intro_assignment(intro_assignment, tmp_path):
    folder = intro_assignment
    student = nbformat.read(folder / "student" / "intro.ipynb", as_version=4)
    student_text = "\n".join(c.source for c in student.cells)
    assert "eps_group = ..." in student_text and "3 * 0.5" not in student_text, "solution code left in the student notebook"
    assert 'grader.check("intro-ex-group")' in student_text
    points = {ex.label: ex.points for ex in CATALOGUE if ex.chapter == "book/intro" and ex.check}
    csv_path = tmp_path / "scores.csv"
    rows = {r["submission"]: r for r in assignments.grade(folder, _submissions(folder, tmp_path / "subs"), csv_path)}
    possible = sum(points.values())
    assert rows["solutions.ipynb"]["total"] == rows["solutions.ipynb"]["possible"] == possible
    assert rows["unanswered.ipynb"]["total"] == 0
    wrong = rows["one-wrong.ipynb"]
    assert wrong["total"] == possible - points["intro-ex-group"]
    assert wrong["intro-ex-group"] == 0 and all(wrong[q] == p for q, p in points.items() if q != "intro-ex-group")
    with open(csv_path) as f:
        table = list(csv.DictReader(f))
    assert [r["submission"] for r in table] == ["one-wrong.ipynb", "solutions.ipynb", "unanswered.ipynb"]
    assert float(table[1]["total"]) == possible


def test_grader_feedback_does_not_show_the_expected_value(intro_assignment, tmp_path):
    from otter.api import grade_submission

    subs = _submissions(intro_assignment, tmp_path / "subs")
    result = grade_submission(str(subs / "one-wrong.ipynb"), str(assignments.autograder_zip(intro_assignment)), quiet=True)
    report = result.results["intro-ex-group"].summary()
    assert "not within the tolerance" in report
    delta_group = (1 + math.exp(0.5) + math.exp(1.0)) * 1e-3
    for x in (1.5, delta_group):
        for form in {f"{x:.6g}", f"{x:.4g}", f"{x:.3g}", f"{x:.4f}", repr(x), f"{np.float64(x)!r}"}:
            if len(form.strip("-0.")) >= 3:
                assert form not in report, form
