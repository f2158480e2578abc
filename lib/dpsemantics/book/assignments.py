"""Assignments generated from the chapters, and graded with otter-grader.

    python -m dpsemantics.book.assignments OUTDIR [CHAPTER ...]          # make assignments
    python -m dpsemantics.book.assignments grade CHAPTER_DIR SUBMISSIONS [--csv FILE]   # make grade

For every chapter with exercises this writes an otter-grader *master notebook*
(``OUTDIR/CHAPTER/master/CHAPTER.ipynb``) made from the chapter's gated exercises and solutions and from
``book/exercises.yml``, and runs ``otter assign`` on it, which writes

* ``OUTDIR/CHAPTER/student/CHAPTER.ipynb`` — the questions, empty answer cells (``name = ...``) and
  ``grader.check("label")`` cells that run the public checks;
* ``OUTDIR/CHAPTER/autograder/CHAPTER.ipynb`` — the solutions notebook (answers, explanations and every test);
* ``OUTDIR/CHAPTER/autograder/CHAPTER-autograder_<time>.zip`` — the tests including the hidden ones, for grading.

Nothing is maintained by hand: the question text and the reference solution come from the chapter, the
answer variables, check call and points from ``exercises.yml``.  Every test calls a check function of
:mod:`dpsemantics.book.coursework`, which recomputes the reference with the package; so neither the tests
nor their output contain the expected value.  The public test of a question carries no points (it tells
the student whether the answer is right, and why not); the hidden test carries all of them, so a wrong
answer loses exactly its question's points.  Exercises without a checkable answer become manually graded
questions (otter's ``manual: true``) and do not count in the autograded score.

``grade`` runs every submitted notebook in a folder through ``otter``'s local grader (no Docker: the
current environment must have the book's dependencies, as ``.venv`` does) and writes a score table, one
row per submission and one column per question, to a CSV file.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
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


def _setup_code(nb: nbformat.NotebookNode) -> str:
    """The chapter's imports (its first code cell) and its parameters cell, then the coursework checks."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    params = next((c for c in code if "parameters" in c.metadata.get("tags", [])), None)
    pieces = [code[0].source] + ([params.source] if params is not None and params is not code[0] else [])
    return "\n\n".join(pieces + ["from dpsemantics.book import coursework"])


def _test(ex: Exercise, *, hidden: bool) -> nbformat.NotebookNode:
    call = ex.call or f"{ex.check.rpartition('.')[2]}({', '.join(ex.answer)})"
    config = f'""" # BEGIN TEST CONFIG\npoints: {ex.points if hidden else 0}\nhidden: {str(hidden).lower()}\n""" # END TEST CONFIG\n'
    body = f"_result = coursework.{call}\nassert _result.correct, str(_result)"
    return nbformat.v4.new_code_cell(config + body)


def chapters_with_exercises(root: Path = ROOT) -> list[Path]:
    """The chapter notebooks that have exercises, in table-of-contents order."""
    chapters = {ex.chapter for ex in catalogue(root)}
    return [nb for nb in chapter_notebooks(root) if str(nb.relative_to(root).with_suffix("")) in chapters]


def master_notebook(chapter_nb: Path, root: Path = ROOT) -> nbformat.NotebookNode:
    """The otter-grader master notebook of one chapter: setup, then one question per exercise."""
    nb = nbformat.read(chapter_nb, as_version=4)
    name = chapter_nb.stem
    title = next((c.source.lstrip("# ").splitlines()[0] for c in nb.cells if c.cell_type == "markdown"
                  and c.source.startswith("# ")), name)
    parts = exercise_parts(nb)
    exercises = [ex for ex in catalogue(root) if ex.chapter == str(chapter_nb.relative_to(root).with_suffix(""))]
    config = {"name": name, "init_cell": True, "check_all_cell": False, "export_cell": False,
              "run_tests": True, "solutions_pdf": False, "generate": True, "tests": {"files": False, "ok_format": True}}
    cells = [_raw("# ASSIGNMENT CONFIG\n" + yaml.safe_dump(config, sort_keys=False)),
             nbformat.v4.new_markdown_cell(
                 f"# Assignment: {title}\n\nThe exercises of the chapter *{title}*. Assign each answer to the variables "
                 "named in the answer cell (replace the `...`), run the cell, then run the `grader.check` cell below "
                 "it: it says whether the answer is right, part by part, without giving the expected value. "
                 "Questions marked *written* are graded by your instructor."),
             nbformat.v4.new_code_cell(_setup_code(nb))]
    for ex in exercises:
        part = parts[ex.label]
        auto = bool(ex.check and ex.answer)
        head = {"name": ex.label, "points": ex.points if auto else 1}
        if not auto:
            head["manual"] = True
        cells.append(_raw("# BEGIN QUESTION\n" + yaml.safe_dump(head, sort_keys=False)))
        kind = "" if auto else " (written)"
        cells.append(nbformat.v4.new_markdown_cell(f"## {ex.title}{kind}\n\n*Goal:* {ex.goal}\n\n{_md(part['question'])}"))
        cells.append(_raw("# BEGIN SOLUTION"))
        if auto:
            prompt = "\n".join(f"{name} = ...  # your answer" for name in ex.answer)
            solution = "\n\n".join(part["code"])
            cells.append(nbformat.v4.new_code_cell(
                f"# BEGIN SOLUTION NO PROMPT\n{solution}\n# END SOLUTION\n\"\"\" # BEGIN PROMPT\n{prompt}\n\"\"\" # END PROMPT"))
        cells.append(nbformat.v4.new_markdown_cell(_md(part["solution"]) or "See the chapter."))
        cells.append(_raw("# END SOLUTION"))
        if auto:
            cells += [_raw("# BEGIN TESTS"), _test(ex, hidden=False), _test(ex, hidden=True), _raw("# END TESTS")]
        cells.append(_raw("# END QUESTION"))
    out = nbformat.v4.new_notebook(cells=cells)
    out.metadata = nb.metadata
    return out


def make_assignment(chapter_nb: Path, outdir: Path, root: Path = ROOT, *, quiet: bool = True) -> Path:
    """Write the master notebook of a chapter and run ``otter assign`` on it; return the chapter's folder."""
    from otter.assign import main as otter_assign

    folder = Path(outdir).resolve() / chapter_nb.stem
    if folder.exists():
        shutil.rmtree(folder)
    master = folder / "master" / f"{chapter_nb.stem}.ipynb"
    master.parent.mkdir(parents=True)
    nbformat.write(master_notebook(chapter_nb, root), master)
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink) if quiet else contextlib.nullcontext():
        otter_assign(str(master), str(folder), no_pdfs=True)
    return folder


def autograder_zip(chapter_dir: Path) -> Path:
    """The autograder archive ``otter assign`` wrote for a chapter (its name carries a time stamp)."""
    found = sorted((Path(chapter_dir) / "autograder").glob("*autograder*.zip"))
    if not found:
        raise FileNotFoundError(f"no autograder zip under {chapter_dir}/autograder: run the assignments command first")
    return found[-1]


def grade(chapter_dir: Path, submissions: Path, csv_path: Path | None = None) -> list[dict]:
    """Grade every ``*.ipynb`` in ``submissions`` with the chapter's autograder; one row per submission
    (question scores, ``total``, ``possible``), written to ``csv_path`` when given."""
    from otter.api import grade_submission

    zip_path = autograder_zip(chapter_dir)
    rows = []
    for nb in sorted(Path(submissions).glob("*.ipynb")):
        with contextlib.redirect_stdout(io.StringIO()):
            result = grade_submission(str(nb), str(zip_path), quiet=True)
        row = {"submission": nb.name}
        order = {ex.label: i for i, ex in enumerate(catalogue())}
        names = sorted(result.test_files, key=lambda name: (order.get(name, len(order)), name))
        row.update({name: result.get_score(name) for name in names})
        row.update(total=result.total, possible=result.possible)
        rows.append(row)
    if csv_path is not None:
        fields = list(dict.fromkeys(k for row in rows for k in row))
        with open(csv_path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
    return rows


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "grade":
        p = argparse.ArgumentParser(prog="python -m dpsemantics.book.assignments grade")
        p.add_argument("chapter_dir", type=Path, help="OUTDIR/CHAPTER written by the assignments command")
        p.add_argument("submissions", type=Path, help="folder of submitted notebooks")
        p.add_argument("--csv", type=Path, default=None, help="score table (default: SUBMISSIONS/scores.csv)")
        a = p.parse_args(args[1:])
        csv_path = a.csv or a.submissions / "scores.csv"
        rows = grade(a.chapter_dir, a.submissions, csv_path)
        for row in rows:
            print(f"{row['submission']}: {row['total']:g} / {row['possible']:g}")
        print(f"scores: {csv_path}")
        return 0
    p = argparse.ArgumentParser(prog="python -m dpsemantics.book.assignments")
    p.add_argument("outdir", type=Path)
    p.add_argument("chapters", nargs="*", help="chapter names (default: every chapter)")
    a = p.parse_args(args)
    available = chapters_with_exercises()
    chapters = [nb for nb in available if not a.chapters or nb.stem in a.chapters]
    if a.chapters and len(chapters) != len(a.chapters):
        p.error(f"unknown chapter or one without exercises; choose from {[nb.stem for nb in available]}")
    for nb in chapters:
        folder = make_assignment(nb, a.outdir)
        print(f"{nb.stem}: {folder / 'student' / nb.name} (student), {folder / 'autograder'} (solutions, tests)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
