"""The book's exercises, for instructors: found in the chapter notebooks, joined with their learning goals.

Exercises are gated ``exercise-start``/``exercise-end`` directives with a ``:label:``; their learning goals
(and, for exercises with a checkable answer, the check function students can call, the answer variables, the
exercise's own parameters passed to the check (``hidden_params`` overrides some for the hidden test, e.g. a
formula's test points), and the points of the generated assignment; ``written`` points for
a part graded by hand) live in ``book/exercises.yml``, keyed by label.  ``book/instructors.md`` renders
:func:`catalogue`; a test requires every exercise to have a goal and a solution.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .toc import ROOT, chapter_notebooks
_START = re.compile(r"```\{exercise-start\}\s*(?P<title>.*)\n:label:\s*(?P<label>\S+)")
_SOLUTION = re.compile(r"```\{solution-start\}\s*(?P<label>\S+)")


@dataclass(frozen=True)
class Exercise:
    chapter: str
    label: str
    title: str
    has_solution: bool
    goal: str = ""
    check: str = ""
    answer: tuple[str, ...] = ()
    params: dict = field(default_factory=dict)
    points: int = 0
    written: int = 0
    hidden_params: dict = field(default_factory=dict)

    @property
    def check_name(self) -> str:
        """The check function's name in :mod:`dpsemantics.book.coursework`."""
        return self.check.rpartition(".")[2]

    def call(self) -> str:
        """The check's call with the answer variables and the exercise's parameters, as students write it."""
        args = list(self.answer) + [f"{k}={v!r}" for k, v in self.params.items()]
        return f"{self.check_name}({', '.join(args)})"


def find_exercises(notebook: Path) -> list[tuple[str, str, bool]]:
    """(label, title, has_solution) of every gated exercise in a notebook, in order."""
    cells = json.loads(notebook.read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    solutions = {m.group("label") for m in _SOLUTION.finditer(text)}
    return [(m.group("label"), m.group("title").strip(), m.group("label") in solutions) for m in _START.finditer(text)]


def catalogue(root: Path = ROOT) -> list[Exercise]:
    """Every exercise of every chapter in the table of contents, with its goal and check function."""
    goals = yaml.safe_load((root / "book" / "exercises.yml").read_text()) or {}
    out = []
    for nb in chapter_notebooks(root):
        chapter = str(nb.relative_to(root).with_suffix(""))
        for label, title, has_solution in find_exercises(nb):
            info = goals.get(label, {})
            out.append(Exercise(chapter, label, title, has_solution, info.get("goal", ""), info.get("check", ""),
                                tuple(info.get("answer", ())), dict(info.get("params", {})), int(info.get("points", 0)),
                                int(info.get("written", 0)), dict(info.get("hidden_params", {}))))
    return out


_REGISTRY = re.compile(r"registry:\s*([\w.\-]+?)(?=[)\s,;]|$)")


def exercise_claims(root: Path = ROOT) -> set[str]:
    """The claims of the reproducibility report that exercises ask students to find (the ``registry:`` ids in
    their learning goals): the student edition leaves their rows out."""
    return {m.group(1) for ex in catalogue(root) for m in _REGISTRY.finditer(ex.goal)}
