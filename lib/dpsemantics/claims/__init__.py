"""The claims registry: every number, inequality or parameter the source documents print, recomputed.

A :class:`Claim` is data: where in which paper it is printed, the printed value, a function that
recomputes it from the package, a tolerance that reflects the printed precision, and the status we
expect (``"reproduced"`` or ``"discrepancy"``).  One module per paper in this package defines a list
``CLAIMS``; :func:`registry` collects them all, so adding a paper means adding a module, nothing else.

A discrepancy is a finding, not a failure: the claim records both values and a note on the likely cause.
The test suite fails only when a claim's status differs from the expected one.

Run ``python -m dpsemantics.claims`` for a table, ``--json`` for machine-readable output.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from dataclasses import dataclass, field
from typing import Callable, Union

Value = Union[float, int, bool, str]

PAPERS = {
    "lecture": "Brown (scribe Choudhary), Lecture 1: Introduction to Differential Privacy",
    "ks": "Kasiviswanathan & Smith, On the 'Semantics' of Differential Privacy: A Bayesian Formulation",
    "zhao": "Zhao, Relations Among Different Privacy Notions",
    "tsd": "Tschantz, Sen & Datta, Differential Privacy as a Causal Property",
    "kazan": "Kazan, Sharma, Zhang, Jiang & Yan, Interpreting Differential Privacy in Terms of Disclosure Risk",
}

STATUSES = ("reproduced", "discrepancy")


@dataclass(frozen=True)
class Claim:
    """One printed statement of a paper and the code that recomputes it.

    ``printed`` is the value as the paper prints it (a number, or ``True`` for a printed inequality or
    relation that holds).  Numbers match when ``|computed - printed| <= atol + rtol*|printed|``; choose
    the tolerance from the printed precision (a value printed as ``0.46`` gets ``atol=0.005``).
    ``chapter`` is the docname of the chapter that discusses the claim (e.g. ``"book/disclosure-risk"``).
    """

    id: str
    paper: str
    where: str
    statement: str
    printed: Value
    compute: Callable[[], Value] = field(repr=False, compare=False)
    atol: float = 0.0
    rtol: float = 0.0
    expected: str = "reproduced"
    note: str = ""
    chapter: str = ""

    def __post_init__(self):
        if self.paper not in PAPERS:
            raise ValueError(f"paper must be one of {sorted(PAPERS)} (got paper={self.paper!r})")
        if self.expected not in STATUSES:
            raise ValueError(f"expected must be one of {STATUSES} (got expected={self.expected!r})")
        if self.atol < 0 or self.rtol < 0:
            raise ValueError(f"tolerances must be >= 0 (got atol={self.atol}, rtol={self.rtol})")


@dataclass(frozen=True)
class Result:
    claim: Claim
    computed: Value
    status: str

    @property
    def as_expected(self) -> bool:
        return self.status == self.claim.expected

    def to_dict(self) -> dict:
        c = self.claim
        return {
            "id": c.id,
            "paper": c.paper,
            "where": c.where,
            "statement": c.statement,
            "printed": c.printed,
            "computed": self.computed,
            "status": self.status,
            "expected": c.expected,
            "atol": c.atol,
            "rtol": c.rtol,
            "note": c.note,
            "chapter": c.chapter,
        }


def _to_python(value):
    """NumPy scalars to plain Python, so results serialise and compare cleanly."""
    if hasattr(value, "item"):
        value = value.item()
    return value


def matches(printed: Value, computed: Value, atol: float = 0.0, rtol: float = 0.0) -> bool:
    """Whether a computed value reproduces a printed one (booleans and strings must be equal)."""
    if isinstance(printed, (bool, str)) or isinstance(computed, (bool, str)):
        return printed == computed
    computed = float(computed)
    if not math.isfinite(computed):
        return computed == printed
    return abs(computed - float(printed)) <= atol + rtol * abs(float(printed))


def evaluate(claim: Claim) -> Result:
    computed = _to_python(claim.compute())
    status = "reproduced" if matches(claim.printed, computed, claim.atol, claim.rtol) else "discrepancy"
    return Result(claim, computed, status)


def registry(paper: str | None = None) -> list[Claim]:
    """Every claim of every paper module in this package (or of one paper)."""
    if paper is not None and paper not in PAPERS:
        raise ValueError(f"paper must be one of {sorted(PAPERS)} (got paper={paper!r})")
    claims: list[Claim] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        claims.extend(getattr(module, "CLAIMS", []))
    ids = [c.id for c in claims]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"claim ids must be unique (duplicated: {dupes})")
    return [c for c in claims if paper is None or c.paper == paper]


def evaluate_all(paper: str | None = None) -> list[Result]:
    return [evaluate(c) for c in registry(paper)]


def get(claim_id: str) -> Claim:
    for c in registry():
        if c.id == claim_id:
            return c
    raise ValueError(f"no claim with id {claim_id!r}")
