"""The assignment's ``dpsemantics.book.coursework``: the result types, and no check that knows an answer.

The wheel handed out with an assignment (:func:`dpsemantics.book.assignments.student_wheel`) carries this
module in place of :mod:`dpsemantics.book.coursework`, whose checks compute every exercise's exact answer
(and whose ``references`` return them with their tolerances).  In an assignment the ``grader.check`` cells
check an answer's form and rough size (their data are written into the notebook when the assignment is
generated); your instructor's grader checks the rest, out of the notebook's reach.  The book's chapters,
run with the book's own package, keep the full checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Part", "CheckResult"]

_WHY = ("this assignment's package has no answer checks: run the grader.check cell below the answer; "
        "your instructor grades the answer")


@dataclass(frozen=True)
class Part:
    """One part of an answer: its name, whether it is right, and feedback that does not give it away (the book's
    :mod:`~dpsemantics.book.coursework` uses this type too)."""

    name: str
    ok: bool
    feedback: str


@dataclass(frozen=True)
class CheckResult:
    """The book's check result; in an assignment every check returns one saying it is not available."""

    correct: bool
    parts: tuple[Part, ...] = field(default_factory=tuple)
    hint: str = ""

    def __bool__(self) -> bool:
        return self.correct

    def __str__(self) -> str:
        return "\n".join([f"not checked: {self.hint}"] + [f"  {p.name}: {p.feedback}" for p in self.parts])


def __getattr__(name: str):
    if name.startswith("check_"):
        def check(*answers, **params) -> CheckResult:
            return CheckResult(False, (Part("answer", False, _WHY),), _WHY)

        check.__name__ = name
        return check
    raise AttributeError(f"module 'dpsemantics.book.coursework' has no attribute {name!r} in an assignment")
