"""Coursework: every exercise has a solution and a learning goal; check functions named exist."""

import importlib

import pytest
import yaml

from conftest import ROOT
from dpsemantics import book
from dpsemantics.book import exercises

CATALOGUE = exercises.catalogue()


def test_every_paper_chapter_has_at_least_six_exercises():
    """The chapters that mirror a paper (those the claims registry points into); 'Interpreting your own
    release' applies them and has no exercises of its own."""
    from dpsemantics import claims

    chapters = {c.chapter for c in claims.registry()}
    assert chapters <= {str(nb.relative_to(ROOT).with_suffix("")) for nb in book.chapter_notebooks()}
    counts = {ch: sum(ex.chapter == ch for ex in CATALOGUE) for ch in chapters}
    assert counts and all(n >= 6 for n in counts.values()), counts


def test_exercises_mix_checked_answers_and_the_papers_slips():
    checked = [ex for ex in CATALOGUE if ex.check]
    assert len(checked) >= 2 * len({ex.chapter for ex in CATALOGUE})
    slips = [ex for ex in CATALOGUE if ex.title.startswith("Find the paper's slip")]
    assert len(slips) >= 6 and all("registry" in ex.goal for ex in slips)


@pytest.mark.parametrize("ex", [e for e in CATALOGUE if e.check], ids=[e.label for e in CATALOGUE if e.check])
def test_checked_exercise_names_its_answer_and_points(ex):
    assert ex.answer and all(name.isidentifier() for name in ex.answer), ex.label
    assert ex.points > 0, ex.label


@pytest.mark.parametrize("ex", CATALOGUE, ids=[e.label for e in CATALOGUE])
def test_exercise_has_solution_and_goal(ex):
    assert ex.has_solution, f"{ex.label} has no gated solution"
    assert ex.goal.strip(), f"{ex.label} has no learning goal in book/exercises.yml"


def test_goals_file_has_no_stale_labels():
    goals = yaml.safe_load((ROOT / "book" / "exercises.yml").read_text())
    labels = {label for nb in (ROOT / "book").glob("*.ipynb") for label, _, _ in exercises.find_exercises(nb)}
    assert set(goals) <= labels, set(goals) - labels


@pytest.mark.parametrize("ex", [e for e in CATALOGUE if e.check], ids=[e.label for e in CATALOGUE if e.check])
def test_check_function_exists(ex):
    module, _, name = ex.check.rpartition(".")
    assert callable(getattr(importlib.import_module(module), name)), ex.check


def test_student_edition_removes_every_solution_and_keeps_every_exercise(tmp_path):
    import nbformat

    from dpsemantics.book import student_edition

    written = student_edition.write_edition(tmp_path)
    assert written
    for path in written:
        original = nbformat.read(ROOT / "book" / path.name, as_version=4)
        student = nbformat.read(path, as_version=4)
        text = "\n".join(c.source for c in student.cells)
        assert "solution-start" not in text and "solution-end" not in text
        assert [l for l, _, _ in exercises.find_exercises(path)] == [l for l, _, _ in exercises.find_exercises(ROOT / "book" / path.name)]
        solution_code = len([c for c in original.cells if c.cell_type == "code"]) - len([c for c in student.cells if c.cell_type == "code"])
        assert solution_code >= 0
    intro = nbformat.read(tmp_path / "book" / "intro.ipynb", as_version=4)
    assert not any("transitivity_witness(eps, 0.01)" in c.source for c in intro.cells), "solution code left in"


def test_strip_solutions_rejects_unclosed_solution():
    import nbformat

    from dpsemantics.book import student_edition

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("```{solution-start} x\n:class: dropdown\n```\nopen")])
    with pytest.raises(ValueError, match="solution-end"):
        student_edition.strip_solutions(nb)
