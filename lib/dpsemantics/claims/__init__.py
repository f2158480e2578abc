"""The claims registry: every number, inequality or parameter the source documents print, recomputed.

A :class:`Claim` is data: where in which paper it is printed, the printed value, a function that
recomputes it from the package, a tolerance that reflects the printed precision, and the status we
expect (``"reproduced"`` or ``"discrepancy"``).  One module per paper in this package defines a list
``CLAIMS``; :func:`registry` collects them all, so adding a paper means adding a module, nothing else.

A discrepancy is a finding, not a failure: the claim records both values, a ``finding`` that says what
kind of disagreement it is (:data:`FINDINGS`) and a note on the investigated cause.  The test suite fails
when a claim's status differs from the expected one.

**Claims that a printed relation holds** (``printed=True``) are attacked, not merely checked.  Their
``compute`` takes a keyword ``tighten`` (default 1) and returns a :class:`Verdict`: the attacked quantity
``lhs`` and the printed bound ``rhs`` at every case tried, the kind of ``evidence`` (:data:`EVIDENCE`) and
the worst case found.  The verdict's ``margin`` is max lhs/rhs (1 = the bound is attained, > 1 = it is
violated).  With ``tighten = t`` the check must compare against the bound scaled by ``t`` (or a printed
constant scaled by ``t``).  Falsifiability is shown by ``dpsemantics.claims.mutations``: false variants
of statements (the bound at 0.99 × its known supremum, a smaller constant, a dropped hypothesis) that the
checks must refute.  Cases where both sides are 0 are dropped by :meth:`Verdict.of`; a relation left with no
case is ``not-checked``.

Numeric claims that are *bounds* carry ``bound="upper"`` or ``"lower"``; a printed value that agrees within
the printed precision but lies on the unsafe side (an upper bound printed below the computed, attained value)
makes the printed statement false: it is a ``discrepancy`` with the finding ``unsafe-rounding`` — one rule
for the whole registry.

**Evidence apart from the mathematics.**  A function belongs to the mathematics (the modules at the package root)
when it computes a quantity a paper defines, or builds a construction the paper itself presents (K&S Example 1's
smoking study, Kazan et al.'s Example A.1 mechanism, TSD's Appendix B mechanism): its result is fixed by its
arguments and answers the question exactly.  It is evidence, and lives in this package (``*_evidence`` modules,
``dpsemantics.claims.certify``), when it looks for a case: it searches or optimises (an optimiser of
``scipy.optimize``, a hill climb, a linear program over mechanisms, a grid standing in for a supremum), draws random
numbers, or builds a witness that the book (not the paper) constructs to refute or stress a printed statement.  A
root finder solving an equation that defines a number, and an optimiser choosing the free parameter of a bound valid
at every choice, are mathematics.  ``tests/unit/test_layers.py`` checks the markers (optimisers, random generators)
in disclosure, causal, notions and semantic, and that the mathematics imports neither this package nor
``dpsemantics.book``.  The map of notions (:mod:`~dpsemantics.claims.notion_map`) is here too: its arrows are joined
to the claims that check them; the book draws it.

Run ``python -m dpsemantics.claims`` for a table, ``--json`` for machine-readable output.
"""

from __future__ import annotations

import hashlib
import importlib
import math
import os
import pickle
import pkgutil
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Union

__all__ = ["Claim", "Verdict", "Result", "registry", "get", "evaluate", "evaluate_all", "matches",
           "PAPERS", "STATUSES", "EVIDENCE", "SEARCH_METHODS", "CERTIFICATE_METHODS", "CERTIFIED", "EXACT",
           "FINDINGS", "VERDICT_RTOL"]

Value = Union[float, int, bool, str]

#: The five source documents, by the key that claims and chapters use.
PAPERS = {
    "lecture": "Brown (scribe Choudhary), Lecture 1: Introduction to Differential Privacy",
    "ks": "Kasiviswanathan & Smith, On the 'Semantics' of Differential Privacy: A Bayesian Formulation",
    "zhao": "Zhao, Relations Among Different Privacy Notions",
    "tsd": "Tschantz, Sen & Datta, Differential Privacy as a Causal Property",
    "kazan": "Kazan, Sharma, Zhang, Jiang & Yan, Interpreting Differential Privacy in Terms of Disclosure Risk",
}

#: What a claim can turn out to be.  A relation none of whose cases says anything (every case has both
#: sides 0) is ``not-checked``: it is neither reproduced nor refuted.
STATUSES = ("reproduced", "discrepancy", "not-checked")

#: How a printed relation was established (the kind a :class:`Verdict` names), strongest first.  The kind says
#: exactly what was shown: only the two ``certified-…`` kinds are a proof on the statement's whole stated domain.
EVIDENCE = {
    "certified-interval": "a proof on the statement's whole stated domain by rigorous interval arithmetic "
                          "(mpmath.iv), branch-and-bound over the whole stated parameter box, tails by a bound "
                          "written in the claim",
    "certified-lp": "a proof on the statement's whole stated domain by linear programs: over every mechanism with a "
                    "fixed number of outputs, or over every population of a causal model (HiGHS), each optimum "
                    "certified by an exact-rational dual checked with fractions, or a dual written in closed form "
                    "in the parameters, checked by exact identities and interval arithmetic over the whole "
                    "parameter range",
    "certified-at-points": "exact certificates (an LP with an exact-rational dual, or interval arithmetic) at "
                           "finitely many parameter values only, listed in the verdict's points; a proof of "
                           "nothing between or beyond them",
    "counterexample": "a certified refutation: an exact certificate (LP or interval arithmetic) that the statement "
                      "fails at the case named",
    "closed-form": "a closed form or identity, evaluated on a grid that includes the extremes",
    "search": "a search (enumeration, optimiser, random instances, extremal constructions) over finitely many "
              "cases; a proof of nothing beyond them",
}

#: The methods an exact certificate may use (``Verdict.certified_by`` for the kinds of :data:`EXACT`), in the
#: words a label uses.
CERTIFICATE_METHODS = {
    "certified-interval": "interval arithmetic",
    "certified-lp": "exact LP",
}

#: The methods a ``search`` verdict may name (how its cases were chosen).
SEARCH_METHODS = {
    "exhaustive": "every case of a finite family enumerated",
    "optimised-search": "an optimiser (linear program, convex or local search with restarts) maximised lhs/rhs",
    "random-search": "random instances, drawn near the worst case",
    "extremal": "the known extremal construction (randomized response, two-point beliefs, point masses)",
}

#: Certified kinds: a verdict of these kinds is a proof on the statement's whole stated domain.
CERTIFIED = ("certified-interval", "certified-lp")
#: Kinds backed by an exact certificate: a proof on the whole domain, a proof at listed points, or a refutation.
EXACT = CERTIFIED + ("certified-at-points", "counterexample")
#: A list of parameter values in a verdict's domain (``e^ε ∈ {11/10, 2}``, ``ε ∈ {0.1, 0.5}``).  Transitional
#: (issue 35): a certified verdict whose domain names one, and that was given no ``points``, is classified
#: ``certified-at-points`` with these lists as its points, until every such claim passes its points explicitly.
_LISTED_VALUES = re.compile(r"(?<![\w^])(?:e\^\{?ε\}?|[εδρnbk]) ∈ \{[^}]*\}")

#: What kind of disagreement a discrepancy is.
FINDINGS = {
    "false-statement": "the statement as printed is false: a counterexample is computed",
    "proof-gap": "a step of the proof does not follow; the statement itself may still be true",
    "typo": "a misprinted number, symbol or constant; the intended value is reproduced",
    "unsafe-rounding": "a bound printed rounded in the direction that understates the risk",
    "different-reading": "the printed value follows under another reading (which n, which δ, which game)",
    "unresolved": "the printed value is not reproduced and its cause is not determined",
}

BOUNDS = (None, "upper", "lower")

#: Relative slack for float rounding when a verdict compares lhs with rhs.
VERDICT_RTOL = 1e-9


@dataclass(frozen=True)
class Verdict:
    """The outcome of an attack on a printed inequality ``lhs <= rhs`` (one entry per case tried).

    Build it with :meth:`of`.  Cases where both sides are 0 say nothing and are *vacuous*: they are left out
    of ``cases`` and of the margin (``vacuous`` counts them); a verdict with no other case is not ``checked``.
    ``margin`` is max lhs/rhs over the remaining cases (1 = attained, > 1 = violated; rhs = 0 < lhs counts
    as ∞).  ``holds`` compares every lhs with ``tighten * rhs`` up to :data:`VERDICT_RTOL` rounding slack.
    ``evidence`` is one kind of :data:`EVIDENCE`; a ``search`` names its ``methods``
    (:data:`SEARCH_METHODS`).  ``domain`` says what the verdict covers, ``certificate`` how to reproduce it
    (box count, LP sizes, cases).  The kind is exact about what was shown: a verdict built with a certified kind
    (``certified-lp``/``certified-interval``) keeps it only if it holds and was computed on the whole stated domain;
    with ``points`` (the finitely many parameter values it was computed at, e.g. ``("e^ε = 11/10", "e^ε = 2")``)
    it becomes ``certified-at-points``, and if it does not hold it becomes ``counterexample``; ``certified_by``
    keeps the method (a key of :data:`CERTIFICATE_METHODS`).  Points are never dropped: ``dataclasses.replace``
    keeps them unless it is given ``points=()`` (a certificate that now covers the whole domain).  A ``search``
    states what it is compared with:
    ``supremum``, the known supremum of lhs/rhs over the statement's domain, and ``supremum_from`` where it comes
    from (a construction or the paper, never the search itself; :attr:`supremum_ratio` is margin/supremum), and
    ``second``, a second, different optimiser (``second_best``: the largest lhs/rhs it found, which must not exceed
    the margin), or why there is none.
    """

    holds: bool
    margin: float
    evidence: tuple[str, ...]
    cases: int
    worst: str = ""
    vacuous: int = 0
    methods: tuple[str, ...] = ()
    domain: str = ""
    certificate: str = ""
    supremum: float | None = None
    supremum_from: str = ""
    second: str = ""
    second_best: float | None = None
    points: tuple[str, ...] = ()
    certified_by: str = ""

    def __post_init__(self):
        points = (self.points,) if isinstance(self.points, str) else tuple(str(p) for p in self.points)
        kind = self.evidence[0] if self.evidence else ""
        by = self.certified_by
        if kind in CERTIFICATE_METHODS:
            by = kind  # the evidence names the method (over one that dataclasses.replace() copied)
            if not points:  # transitional (issue 35): a domain that lists values is a certificate at those values
                points = tuple(_LISTED_VALUES.findall(self.domain or ""))
        if kind in EXACT:
            if by not in CERTIFICATE_METHODS:
                raise ValueError(f"a {kind} verdict must name its method: certified_by one of "
                                 f"{sorted(CERTIFICATE_METHODS)} (got certified_by={by!r})")
            if not self.holds and self.checked:
                kind = "counterexample"
            elif points:
                kind = "certified-at-points"
            elif kind == "certified-at-points":
                raise ValueError("a certified-at-points verdict must list its points (got points=())")
            elif kind == "counterexample":
                raise ValueError("a counterexample verdict must not hold (got holds=True)")
        else:  # no certificate: dataclasses.replace() downgrading one to a search carries these over
            by, points = "", ()
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "certified_by", by)
        if kind and self.evidence[:1] != (kind,):
            object.__setattr__(self, "evidence", (kind,) + tuple(self.evidence[1:]))

    @property
    def supremum_ratio(self) -> float | None:
        """The margin as a fraction of the known supremum (1 = the search reached it), or ``None``."""
        if self.supremum is None or not self.checked:
            return None
        if self.supremum == 0:
            return math.inf if self.margin > 0 else 1.0
        return self.margin / self.supremum

    @property
    def checked(self) -> bool:
        """Whether at least one case was not vacuous."""
        return self.cases > 0

    @property
    def kind(self) -> str:
        return self.evidence[0]

    @property
    def certified(self) -> bool:
        """Whether the verdict is a proof on the statement's whole stated domain (:data:`CERTIFIED`)."""
        return self.kind in CERTIFIED

    @property
    def exact(self) -> bool:
        """Whether the verdict rests on an exact certificate (:data:`EXACT`): a proof on the whole domain, a proof
        at listed points, or a certified counterexample."""
        return self.kind in EXACT

    @property
    def scope(self) -> str:
        """What the evidence covers, read off the kind: ``"whole domain"`` (``certified-lp``/``-interval``),
        ``"listed values"`` (``certified-at-points``: the ``points`` only), ``"counterexample"`` or
        ``"cases tried"`` (a search or closed form evaluated on cases)."""
        return {"certified-at-points": "listed values", "counterexample": "counterexample"}.get(
            self.kind, "whole domain" if self.certified else "cases tried")

    @classmethod
    def unchecked(cls, why: str, *, tried: int = 0, methods=()) -> "Verdict":
        """A verdict that checks nothing (status ``not-checked``), saying why: e.g. every case tried had lhs = 0
        far below a positive bound, so the search never came near the statement's edge."""
        if not why:
            raise ValueError("why must say why the relation is not checked (got an empty string)")
        methods = (methods,) if isinstance(methods, str) else tuple(methods)
        return cls(True, 0.0, ("search",), 0, "", 0, methods, f"not checked: {why}", f"{tried} cases tried")

    @classmethod
    def of(cls, lhs, rhs, *, evidence, tighten: float = 1.0, worst: str = "", labels=None, domain: str = "",
           certificate: str = "", supremum: float | None = None, supremum_from: str = "",
           second: str = "", second_best: float | None = None, points=()) -> "Verdict":
        """``lhs``/``rhs``: the attacked quantity and the printed bound, arrays of equal size.
        ``evidence``: a kind of :data:`EVIDENCE`, or search methods (:data:`SEARCH_METHODS`, one or a tuple),
        which make the kind ``search``; a certificate names its method (``certified-lp`` or
        ``certified-interval``) and, if it was computed at finitely many parameter values, lists them in
        ``points`` (one string each, ``"e^ε = 11/10"``): the verdict is then ``certified-at-points``, and a
        certificate that does not hold is a ``counterexample`` (see the class).  ``labels`` (optional, one per
        case) describe the cases; the label of the case with the largest ratio becomes ``worst``.  Vacuous cases
        (lhs = rhs = 0) are dropped.  ``supremum``/``supremum_from``/``second``: see the class."""
        import numpy as np

        lhs = np.ravel(np.asarray(lhs, dtype=float))
        rhs = np.ravel(np.asarray(rhs, dtype=float))
        if supremum is not None and not supremum >= 0:
            raise ValueError(f"supremum must be >= 0 (got supremum={supremum!r})")
        if lhs.size == 0 or lhs.shape != rhs.shape:
            raise ValueError(f"lhs and rhs must be non-empty and of equal size (got {lhs.size} and {rhs.size})")
        if np.any(np.isnan(lhs)) or np.any(np.isnan(rhs)):
            raise ValueError("lhs and rhs must not contain NaN")
        given = (evidence,) if isinstance(evidence, str) else tuple(evidence)
        methods = tuple(e for e in given if e in SEARCH_METHODS)
        kinds = [e for e in given if e in EVIDENCE]
        unknown = [e for e in given if e not in EVIDENCE and e not in SEARCH_METHODS]
        if not given or unknown or len(kinds) > 1 or (kinds and methods and kinds != ["search"]):
            raise ValueError(f"evidence must be one kind of {sorted(EVIDENCE)} or search methods of "
                             f"{sorted(SEARCH_METHODS)} (got evidence={evidence!r})")
        kind = kinds[0] if kinds else "search"
        if kind in ("certified-at-points", "counterexample"):
            raise ValueError(f"evidence must name the certificate's method, certified-lp or certified-interval, "
                             f"with points= for a certificate at points (got evidence={evidence!r})")
        labels = None if labels is None else [str(x) for x in labels]
        if labels is not None and len(labels) != lhs.size:
            raise ValueError(f"labels must have one entry per case (got {len(labels)} for {lhs.size} cases)")
        keep = ~((lhs == 0) & (rhs == 0))
        vacuous = int(lhs.size - keep.sum())
        lhs, rhs = lhs[keep], rhs[keep]
        if labels is not None:
            labels = [x for x, k in zip(labels, keep) if k]
        if not domain:
            how = f" ({', '.join(methods)})" if methods else (" on a grid" if kind == "closed-form" else "")
            domain = f"{lhs.size} case{'' if lhs.size == 1 else 's'}{how}" if kind in ("search", "closed-form") else ""
        if not certificate and kind in ("search", "closed-form"):
            certificate = "seeded, reproducible" + (f"; {vacuous} vacuous cases (0 ≤ 0) left out" if vacuous else "")
        if lhs.size == 0:
            return cls(True, 0.0, (kind,), 0, worst, vacuous, methods, domain, certificate, supremum, supremum_from,
                       second, second_best, points)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(rhs > 0, lhs / np.where(rhs > 0, rhs, 1.0), np.where(lhs <= rhs, 1.0, np.inf))
        i = int(np.argmax(ratio))
        bound = tighten * rhs
        holds = bool(np.all(lhs <= bound + VERDICT_RTOL * np.abs(bound)))
        if labels is not None and not worst:
            worst = labels[i]
        return cls(holds, float(ratio[i]), (kind,), int(lhs.size), worst, vacuous, methods, domain, certificate,
                   supremum, supremum_from, second, second_best, points)


@dataclass(frozen=True)
class Claim:
    """One printed statement of a paper and the code that recomputes it.

    ``printed`` is the value as the paper prints it (a number, or ``True`` for a printed inequality or
    relation that holds).  Numbers match when ``|computed - printed| <= atol + rtol*|printed|``; choose
    the tolerance from the printed precision (a value printed as ``0.46`` gets ``atol=0.005``).
    ``chapter`` is the docname of the chapter that discusses the claim (e.g. ``"book/disclosure-risk"``).
    A claim that a printed relation holds (``printed=True``) has a ``compute(tighten=1.0)`` returning a
    :class:`Verdict`.  ``finding`` (:data:`FINDINGS`) says what a discrepancy is; ``bound`` marks a
    numeric upper or lower bound, so that rounding on the unsafe side is reported.
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
    finding: str = ""
    bound: str | None = None

    def __post_init__(self):
        if self.paper not in PAPERS:
            raise ValueError(f"paper must be one of {sorted(PAPERS)} (got paper={self.paper!r})")
        if self.expected not in STATUSES:
            raise ValueError(f"expected must be one of {STATUSES} (got expected={self.expected!r})")
        if self.atol < 0 or self.rtol < 0:
            raise ValueError(f"tolerances must be >= 0 (got atol={self.atol}, rtol={self.rtol})")
        if self.finding and self.finding not in FINDINGS:
            raise ValueError(f"finding must be one of {sorted(FINDINGS)} (got finding={self.finding!r})")
        if self.bound not in BOUNDS:
            raise ValueError(f"bound must be one of {BOUNDS} (got bound={self.bound!r})")

    @property
    def is_relation(self) -> bool:
        """Whether the claim says that a printed inequality or implication holds."""
        return self.printed is True


@dataclass(frozen=True)
class Result:
    claim: Claim
    computed: Value
    status: str
    verdict: Verdict | None = None

    @property
    def finding(self) -> str:
        """The claim's finding, or ``unsafe-rounding`` for a bound that agrees but is rounded unsafely."""
        c = self.claim
        if c.finding:
            return c.finding
        if c.bound and isinstance(self.computed, (int, float)) and not isinstance(self.computed, bool) \
                and matches(c.printed, self.computed, c.atol, c.rtol):
            printed, computed = float(c.printed), float(self.computed)
            slack = 1e-12 * max(abs(printed), abs(computed))
            if (c.bound == "upper" and printed < computed - slack) or \
                    (c.bound == "lower" and printed > computed + slack):
                return "unsafe-rounding"
        return ""

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
            "finding": self.finding,
            "bound": c.bound,
            "evidence": self.verdict.kind if self.verdict else None,
            "methods": list(self.verdict.methods) if self.verdict else None,
            "domain": self.verdict.domain if self.verdict else None,
            "scope": self.verdict.scope if self.verdict else None,
            "points": list(self.verdict.points) if self.verdict else None,
            "certified_by": self.verdict.certified_by if self.verdict else None,
            "certificate": self.verdict.certificate if self.verdict else None,
            "supremum": self.verdict.supremum if self.verdict else None,
            "supremum_from": self.verdict.supremum_from if self.verdict else None,
            "supremum_ratio": self.verdict.supremum_ratio if self.verdict else None,
            "second_optimiser": self.verdict.second if self.verdict else None,
            "second_best": self.verdict.second_best if self.verdict else None,
            "margin": self.verdict.margin if self.verdict else None,
            "cases": self.verdict.cases if self.verdict else None,
            "vacuous": self.verdict.vacuous if self.verdict else None,
            "worst": self.verdict.worst if self.verdict else None,
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


def evaluate(claim: Claim, tighten: float | None = None) -> Result:
    """Recompute a claim.  ``tighten`` (relations only) scales the printed bound, for the perturbation test."""
    if tighten is not None and not claim.is_relation:
        raise ValueError(f"tighten applies only to relations (printed=True); {claim.id} prints {claim.printed!r}")
    raw = claim.compute() if tighten is None else claim.compute(tighten=tighten)
    verdict = raw if isinstance(raw, Verdict) else None
    computed = verdict.holds if verdict else _to_python(raw)
    if verdict is not None and not verdict.checked:
        return Result(claim, computed, "not-checked", verdict)
    status = "reproduced" if matches(claim.printed, computed, claim.atol, claim.rtol) else "discrepancy"
    result = Result(claim, computed, status, verdict)
    if status == "reproduced" and result.finding == "unsafe-rounding":
        result = Result(claim, computed, "discrepancy", verdict)  # false as printed, by rounding
    return result


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


#: The environment variable naming a folder where the processes that set it share claims' results: each claim is
#: evaluated by the first process whose :func:`evaluate_all` needs it, which writes it there (a file per call and
#: source, ``_source_digest``); the others read it.  ``make test`` sets it for its background job only (the
#: strict build's chapters and reproducibility report, then the student edition's report: each kernel a new
#: process; tests/conftest.py), never for the tests.
SHARED_RESULTS_ENV = "DPSEMANTICS_CLAIMS_RESULTS"


def _source_digest() -> str:
    """SHA-256 of the package's source (every ``.py`` and ``.json`` file under ``dpsemantics/``, with its path):
    results are shared only between processes that run the same code."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def evaluate_all(paper: str | None = None) -> list[Result]:
    """Evaluate every claim of the registry (of one paper, if ``paper`` is a key of :data:`PAPERS`).  With the
    environment variable ``DPSEMANTICS_CLAIMS_RESULTS`` naming a folder, the claims that another process
    evaluated there from the same source are read, and those evaluated here are written there."""
    claims = registry(paper)
    folder = os.environ.get(SHARED_RESULTS_ENV)
    if not folder:
        return [evaluate(c) for c in claims]
    digest = _source_digest()
    known = {}
    for path in sorted(Path(folder).glob(f"results-*-{digest}.pickle")):  # written below, by this run's processes
        known |= {row[0]: row for row in pickle.loads(path.read_bytes())}
    new = {c.id: evaluate(c) for c in claims if c.id not in known}
    share_results(folder, list(new.values()), digest)
    return [new[c.id] if c.id in new else Result(c, *known[c.id][1:]) for c in claims]


def share_results(folder, results: list[Result], digest: str | None = None) -> None:
    """Write ``results`` (of :func:`evaluate`, on the registry's own claims) to ``folder`` for :func:`evaluate_all`
    in other processes of the same source (``make test``'s registry tests leave theirs for the strict build's
    claims page).  One file per call, written whole or not at all."""
    if not results:
        return
    digest = digest or _source_digest()
    path = Path(folder) / f"results-{os.getpid()}-{uuid.uuid4().hex}-{digest}.pickle"
    partial = path.with_suffix(".partial")
    partial.write_bytes(pickle.dumps([(r.claim.id, r.computed, r.status, r.verdict) for r in results]))
    partial.replace(path)  # whole or absent for a reader


def get(claim_id: str) -> Claim:
    """The claim with this id; ``ValueError`` naming the id if there is none."""
    for c in registry():
        if c.id == claim_id:
            return c
    raise ValueError(f"no claim with id {claim_id!r}")
