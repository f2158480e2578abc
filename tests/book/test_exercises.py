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
        labels = [label for label, _, _ in exercises.find_exercises(path)]
        assert labels == [label for label, _, _ in exercises.find_exercises(ROOT / "book" / path.name)]
        code_cells = [len([c for c in nb.cells if c.cell_type == "code"]) for nb in (original, student)]
        solution_code = code_cells[0] - code_cells[1]
        assert solution_code >= 0
    intro = nbformat.read(tmp_path / "book" / "intro.ipynb", as_version=4)
    assert not any("transitivity_witness(eps, 0.01)" in c.source for c in intro.cells), "solution code left in"
    # what gives answers away is gone: the instructors page (file, contents entry, links) ...
    assert not (tmp_path / "book" / "instructors.md").exists()
    assert "book/instructors" not in (tmp_path / "_toc.yml").read_text()
    assert not [p for p in (tmp_path / "book").rglob("*.md") if "`instructors`" in p.read_text()]
    # ... and the report's rows that exercises ask for: the copy's report cell filters them out right after
    # evaluating the claims (run here on stand-ins for the evaluated rows, one per claim of the registry)
    from types import SimpleNamespace

    from dpsemantics import claims

    targets = exercises.exercise_claims()
    assert {"kazan-fig3-optimal-80", "kazan-ex4.1-worst-month-from", "tsd-def4-printed-condition"} <= targets
    text = (tmp_path / "book" / "claims.md").read_text()
    cell = next(part.split("\n```")[0] for part in text.split("```{code-cell} ipython3")[1:]
                if "evaluate_all()" in part)
    lines = cell.splitlines()
    start = next(i for i, line in enumerate(lines) if "claims.evaluate_all()" in line)
    rows = [SimpleNamespace(claim=c, status="reproduced") for c in claims.registry()]
    from dpsemantics.book import prose

    namespace = {"results": rows, "prose": prose}
    exec("\n".join(lines[start + 1:]).split("\nn_rep")[0], namespace)  # noqa: S102 - the lines after the evaluation
    shown = {r.claim.id for r in namespace["results"]}
    assert shown and not shown & targets and shown | targets == {c.id for c in claims.registry()}
    # a note of a row kept may name a row left out (Example 4.1's "… to 81%" names "… from 19%"): the copy's
    # report names it without a link, and still links the rows it shows
    note = "see kazan-ex4.1-worst-month-from and kazan-ex4.1-worst-month-to"
    assert "{claim}`kazan-ex4.1-worst-month-from`" in prose(note), "the check could not fail"
    assert namespace["prose"](note) == prose(note).replace(
        "{claim}`kazan-ex4.1-worst-month-from`", "`kazan-ex4.1-worst-month-from`")
    assert "{claim}`kazan-ex4.1-worst-month-to`" in namespace["prose"](note)
    linked = [p.name for p in (tmp_path / "book").rglob("*") if p.suffix in (".md", ".ipynb")
              and any(f"{{claim}}`{c}`" in p.read_text() for c in targets)]
    assert not linked, f"links to report rows the student edition leaves out: {linked}"


def test_strip_solutions_rejects_unclosed_solution():
    import nbformat

    from dpsemantics.book import student_edition

    unclosed = nbformat.v4.new_markdown_cell("```{solution-start} x\n:class: dropdown\n```\nopen")
    nb = nbformat.v4.new_notebook(cells=[unclosed])
    with pytest.raises(ValueError, match="solution-end"):
        student_edition.strip_solutions(nb)


def _printed_forms(value: float, fraction: bool) -> set[str]:
    """How a reader would see a number written: 3 and 4 significant digits, an integer as itself, a
    probability also as a percentage."""
    import re as _re

    if float(value).is_integer():  # a count; one digit also numbers equations and records
        return {_re.escape(str(int(value)))} if abs(value) >= 10 else set()
    forms = {f"{value:.3g}", f"{value:.4g}"}
    if fraction:
        forms |= {f"{100 * value:.0f} ?%", f"{100 * value:.1f} ?%"}
    return {f for f in forms if len(f.strip("-0.")) >= 2}


def _question_text(ex) -> str:
    from dpsemantics.book import assignments

    nb = next(p for p in book.chapter_notebooks() if str(p.relative_to(ROOT).with_suffix("")) == ex.chapter)
    import nbformat

    return assignments.exercise_parts(nbformat.read(nb, as_version=4))[ex.label]["question"]


@pytest.mark.parametrize("ex", [e for e in CATALOGUE if e.check], ids=[e.label for e in CATALOGUE if e.check])
def test_no_goal_or_question_states_its_answer(ex):
    """The reference values of the exercise's own parameters appear neither in its learning goal nor in its
    question (as 3 or 4 significant digits, an integer, or a percentage) — e.g. not "crosses 80% after 45
    queries" or "16% → 84%"."""
    import re

    from dpsemantics.book import coursework

    try:
        refs = coursework.references(ex.check_name, **ex.params)
    except ValueError:
        pytest.skip(f"{ex.label}: a construction, no reference value")
    texts = {"goal": ex.goal, "question": _question_text(ex)}
    for ref in refs:
        if not isinstance(ref, coursework.Reference):
            continue
        for form in _printed_forms(ref.value, ref.fraction):
            for where, text in texts.items():
                assert not re.search(rf"(?<![\d.]){form}(?![\d])", text), (
                    f"{ex.label}: its {where} states {ref.part} ({form})")


def test_the_issues_giveaways_are_gone():
    goals = " ".join(ex.goal for ex in CATALOGUE)
    for giveaway in ("45 queries", "16% → 84%", "needs 3ε", "e^ε·α", "(2ε, (1 + e^ε)δ)"):
        assert giveaway not in goals, giveaway


def test_exercises_do_not_ask_for_the_chapters_own_parameters():
    """An exercise takes its own parameters, not the ones the chapter uses (and prints results for) in its
    parameters cell: among the parameters both name, at least one differs.  (Name and shame's answer does not
    depend on ε.)  No parameter is a name to be looked up in the notebook."""
    import json

    for ex in [e for e in CATALOGUE if e.params]:
        assert all(not isinstance(v, str) for v in ex.params.values()), ex.label
        nb = json.loads((ROOT / f"{ex.chapter}.ipynb").read_text())
        namespace = {}
        parameters = next("".join(c["source"]) for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
        exec(parameters, namespace)  # noqa: S102
        shared = {k for k in ex.params if k in namespace}
        if shared and ex.label != "intro-ex-name-shame":
            assert any(ex.params[k] != namespace[k] for k in shared), (ex.label, {k: ex.params[k] for k in shared})
    assert {"cv-ex-byron", "cv-ex-relatives", "zhao-ex-family",
            "zhao-ex-markov"} <= {ex.label for ex in CATALOGUE if "eps" in ex.params}


@pytest.mark.parametrize("ex", [e for e in CATALOGUE if e.check and e.check_name != "check_definition7_counterexample"],
                         ids=lambda ex: ex.label)
def test_feedback_names_the_students_variables(ex):
    """Each part of a check's feedback (and of the hidden test's message) is named after the variable the
    student assigns."""
    from dpsemantics.book import coursework

    assert [r.part for r in coursework.references(ex.check_name, **ex.params)] == list(ex.answer)
