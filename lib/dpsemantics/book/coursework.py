"""Check functions for the book's exercises: one result type, and never the expected value.

Every check takes the student's answer (numbers, or a function for a formula) and keyword parameters (the
exercise's ε, δ, ...), and returns a :class:`CheckResult`: the verdict and a hint first, then a line per
part with feedback.  Checks never raise: blank (``...``), missing or malformed answers are wrong answers with
a message saying what was expected.  The reference values are never stored in the result, printed, or
echoed back (nor is the student's own answer, which would be the expected value when it is right);
``tests/book/test_coursework.py`` feeds every check right and wrong answers and searches every field and
rendering for the expected numbers.

The reference of every numeric check is available apart from the check as :func:`references`: a tuple of
:class:`Reference` (one number and the tolerance applied to it) or :class:`FormulaReference` (a function's
values at a few points).  :mod:`dpsemantics.book.assignments` computes them when it generates an assignment
and writes them into the hidden tests, which then grade without this module, the package or any notebook
global other than the answer variables.

The exercises name their check and its parameters in ``book/exercises.yml``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .. import causal, conversions, disclosure, mechanisms, notions, semantic
from .. import indistinguishability as ind
from ..privacy_loss import PrivacyLoss
from .render import number
from .student_coursework import Part  # one type for both editions of this module

__all__ = [
    "Part", "CheckResult", "Reference", "FormulaReference", "references",
    "check_transitivity_answer", "check_gaussian_calibration", "check_group_answer", "check_rr_answer",
    "check_name_and_shame", "check_semantic_formula", "check_ks_converse", "check_eq4_slip",
    "check_gaussian_calibration_slip", "check_count_semantic", "check_copies_answer", "check_markov_leakage",
    "check_family_answer", "check_replace_reading",
    "check_byron_effect", "check_definition7_counterexample", "check_relatives_effect", "check_definition9_slip",
    "check_definition4_slip", "check_profile_answer", "check_difference_peak", "check_laplace_answer",
    "check_figure3_slip", "check_example41_slip", "check_pdp_posterior",
]


@dataclass(frozen=True)
class CheckResult:
    """The result of every check: ``correct`` (all parts right), ``parts`` and a ``hint`` for wrong answers.

    ``bool(result)`` is ``result.correct``, so ``assert check(...)`` works in tests.  The rendering puts the
    verdict and the hint first.  Neither the fields nor the renderings contain the expected value."""

    correct: bool
    parts: tuple[Part, ...] = field(default_factory=tuple)
    hint: str = ""

    def __bool__(self) -> bool:
        return self.correct

    def _lines(self) -> list[str]:
        head = "correct" if self.correct else "not yet"
        lines = [f"{head}: {sum(p.ok for p in self.parts)} of {len(self.parts)} parts right"]
        if not self.correct and self.hint:
            lines.append(f"  hint: {self.hint}")
        lines += [f"  [{'ok' if p.ok else 'x '}] {p.name}: {p.feedback}" for p in self.parts]
        return lines

    def __str__(self) -> str:
        return "\n".join(self._lines())

    def __repr__(self) -> str:
        return f"CheckResult(correct={self.correct}, parts={len(self.parts)})\n" + str(self)

    def _repr_markdown_(self) -> str:
        head = self._lines()[0]  # the parts as words, their variables as code: no "[ok] eps_group" on a page
        rest = [f"hint: {self.hint}"] if not self.correct and self.hint else []
        rest += [f"{'right' if p.ok else 'not yet'}: `{p.name}`, {p.feedback}" for p in self.parts]
        return f"**{head}**\n\n" + "\n".join(f"* {line}" for line in rest)


@dataclass(frozen=True)
class Reference:
    """One graded number: the part's name, its exact value, the tolerance applied to it
    (``max(atol, rtol·|value|)``), and known confusions (another value a student may give, with what to tell
    them, e.g. ε′ where ε is asked)."""

    part: str
    value: float
    rtol: float = 1e-3
    atol: float = 1e-9
    confusions: tuple[tuple[float, str], ...] = ()
    fraction: bool = False  # a probability: a percentage (100×) gets a hint

    @property
    def tolerance(self) -> float:
        return max(self.atol, self.rtol * abs(self.value))

    def interval(self) -> tuple[float, float]:
        return (self.value - self.tolerance, self.value + self.tolerance)

    def describe(self) -> str:
        """The tolerance as it is applied: absolute when atol decides, relative otherwise."""
        if self.atol >= self.rtol * abs(self.value):
            return f"within {number(self.atol)} (absolute)"
        return f"within {number(self.rtol)} (relative)"

    def part_for(self, answer) -> Part:
        got = _number(answer)
        if got is None:
            still = " (the answer is still `...`)" if answer is Ellipsis else ""
            return Part(self.part, False, "expected a finite number" + still)
        if abs(got - self.value) <= self.tolerance:
            return Part(self.part, True, f"{self.describe()} of the exact value")
        for other, message in self.confusions:
            if abs(got - other) <= max(self.atol, self.rtol * abs(other)):
                return Part(self.part, False, message)
        if self.fraction and abs(got - 100 * self.value) <= 100 * self.tolerance:
            return Part(self.part, False,
                        "this looks like a percentage: give a probability as a fraction between 0 and 1")
        return Part(self.part, False, f"not {self.describe()} of the exact value")


@dataclass(frozen=True)
class FormulaReference:
    """A function answer's exact values at a few points (the points are not reported to the student)."""

    part: str
    points: tuple[tuple[float, ...], ...]
    values: tuple[float, ...]
    rtol: float = 1e-9
    atol: float = 1e-12
    args: tuple[str, ...] = ()  # the function's argument names, in the order the points give them
    sample: tuple[float, ...] = ()  # a point at which the public check tries the function (no value is compared)

    def part_for(self, formula) -> Part:
        if not callable(formula):
            return Part(self.part, False, "expected a function")
        wrong = 0
        for args, want in zip(self.points, self.values):
            try:
                got = _number(formula(*args))
            except Exception:  # noqa: BLE001 - a student's formula may raise anything; that is a wrong answer
                got = None
            if got is None or abs(got - want) > max(self.atol, self.rtol * abs(want)):
                wrong += 1
        if wrong:
            return Part(self.part, False, f"differs from the exact value at {wrong} of {len(self.points)} test points")
        return Part(self.part, True, f"agrees at all {len(self.points)} test points")


def _number(value) -> float | None:
    """The answer as a finite float, or None when it is not one (no exception: a check never crashes)."""
    if isinstance(value, bool) or value is None or value is Ellipsis:
        return None
    try:
        out = float(np.asarray(value, dtype=float).reshape(()))
    except (TypeError, ValueError, OverflowError):
        return None
    return out if math.isfinite(out) else None


def _result(parts: list[Part], hint: str) -> CheckResult:
    return CheckResult(all(p.ok for p in parts), tuple(parts), hint)


def _formula(part: str, fn: Callable[..., float], points, args: tuple[str, ...], sample: tuple,
             rtol: float = 1e-6) -> FormulaReference:
    """A formula answer's reference: ``fn`` (the package's computation) at ``points`` (tuples of ``args``);
    ``sample``, a point outside them, is where the public check tries the student's function."""
    points = tuple(tuple(float(x) if isinstance(x, float) else x for x in p) for p in points)
    return FormulaReference(part, points, tuple(float(fn(*p)) for p in points), rtol=rtol, args=args,
                            sample=tuple(sample))


_REFERENCES: dict[str, Callable[..., tuple]] = {}
_HINTS: dict[str, str] = {}


def references(check: str | Callable, **params) -> tuple:
    """The exact values a check compares with, for the exercise's parameters: one :class:`Reference` or
    :class:`FormulaReference` per answer, in the order of the check's answer arguments.  Used by the
    assignments to write hidden tests that grade without the package."""
    name = check if isinstance(check, str) else check.__name__
    name = name.rpartition(".")[2]
    if name not in _REFERENCES:
        raise ValueError(f"check has no numeric reference: {name!r} (choose from {sorted(_REFERENCES)})")
    return tuple(_REFERENCES[name](**params))


def _graded(hint: str):
    """Make a check from a reference function: the check compares its answers with the references, in order,
    and never raises (a parameter or answer it cannot use is a wrong answer with a message)."""

    def wrap(reference_fn):
        name = "check_" + reference_fn.__name__.removeprefix("_ref_")
        _REFERENCES[name] = reference_fn
        _HINTS[name] = hint

        def check(*answers, **params) -> CheckResult:
            try:
                refs = reference_fn(**params)
            except (TypeError, ValueError) as err:
                return _result([Part("parameters", False, f"the check's parameters are not valid ({err})")], hint)
            if len(answers) != len(refs):
                expected = f"expected {len(refs)} answers ({', '.join(r.part for r in refs)}), got {len(answers)}"
                return _result([Part("answer", False, expected)], hint)
            return _result([ref.part_for(a) for ref, a in zip(refs, answers)], hint)

        check.__name__ = check.__qualname__ = name
        check.__doc__ = reference_fn.__doc__
        check.__module__ = __name__
        return check

    return wrap


def _never_raises(hint: str):
    """For the checks that are not a comparison with references: any exception is a wrong answer."""

    def wrap(fn):
        @functools.wraps(fn)
        def check(*args, **kwargs) -> CheckResult:
            try:
                return fn(*args, **kwargs)
            except Exception as err:  # noqa: BLE001 - a check never crashes on a student's input
                return _result([Part("answer", False, f"could not be checked ({type(err).__name__})")], hint)

        return check

    return wrap


# --------------------------------------------------------------------------------------------------
# Chapter 1: the definitions (Lecture 1)
# --------------------------------------------------------------------------------------------------

_TRANSITIVITY_HINT = "Write p(E) ≤ e^ε q(E) + δ and bound q(E) the same way."


@_never_raises(_TRANSITIVITY_HINT)
def check_transitivity_answer(eps_prime, delta_prime, *, trials: int = 300, seed: int = 0) -> CheckResult:
    """Lecture 1, Exercise 7.2: ``eps_prime(eps, delta)``, ``delta_prime(eps, delta)`` for chained
    indistinguishability.  Tried on random chains p ≈ q ≈ r (Dirichlet, 2–6 outcomes, δ the least the chain
    needs) and on :func:`~dpsemantics.indistinguishability.transitivity_witness`; the answer is correct when it
    is never violated and as tight as the chained definition allows (Lecture 1, §3)."""
    if not (callable(eps_prime) and callable(delta_prime)):
        return _result([Part("valid", False, "expected two functions of (eps, delta)")], "Apply the definition twice.")
    rng = np.random.default_rng(seed)
    cases = []
    for eps in (0.1, 0.5, 1.0, 2.0):
        for delta in (1e-3, 1e-2):
            for t in (delta, 0.5 * (1 - (1 + np.exp(eps)) * delta) / np.exp(2 * eps)):
                cases.append((eps, delta, *ind.transitivity_witness(eps, delta, t)))
    for _ in range(trials):
        m = int(rng.integers(2, 7))
        p, q, r = rng.dirichlet(np.full(m, 0.5), size=3)
        eps = float(rng.uniform(0.05, 2.0))
        delta = float(max(ind.smallest_delta(p, q, eps), ind.smallest_delta(q, r, eps)))
        cases.append((eps, delta, p, q, r))
    violated = 0
    for eps, delta, p, q, r in cases:
        e2, d2 = _number(eps_prime(eps, delta)), _number(delta_prime(eps, delta))
        if e2 is None or d2 is None or e2 < 0 or ind.smallest_delta(p, r, e2) > d2 + 1e-12:
            violated += 1
    tight = all((_number(delta_prime(e, d)) or math.inf) <= ind.transitivity_parameters(e, d)[1] * (1 + 1e-9)
                and (_number(eps_prime(e, d)) or math.inf) <= ind.transitivity_parameters(e, d)[0] * (1 + 1e-9)
                for e in (0.1, 0.5, 1.0, 2.0) for d in (1e-3, 1e-2))
    valid = Part("valid", not violated, f"holds on all {len(cases)} chains tried" if not violated
                 else f"violated on {violated} of {len(cases)} chains (a counterexample exists)")
    tight_part = Part("tight", bool(tight) and not violated, "as tight as the chained definition allows" if tight
                      else "valid but looser than necessary")
    return _result([valid, tight_part], _TRANSITIVITY_HINT)


def _ref_transitivity_answer():
    """For grading apart from the package: the exact (ε′, δ′) of chaining (Lecture 1, Exercise 7.2;
    :func:`~dpsemantics.indistinguishability.transitivity_parameters`) at points other than the public check's."""
    points = ((0.2, 1e-4), (0.75, 5e-3), (1.3, 2e-3), (3.0, 1e-6))
    values = [ind.transitivity_parameters(e, d) for e, d in points]
    return (FormulaReference("eps_prime", points, tuple(float(v[0]) for v in values), rtol=1e-6,
                             args=("eps", "delta"), sample=(0.5, 1e-3)),
            FormulaReference("delta_prime", points, tuple(float(v[1]) for v in values), rtol=1e-6,
                             args=("eps", "delta"), sample=(0.5, 1e-3)))


_REFERENCES["check_transitivity_answer"] = _ref_transitivity_answer


@_graded("Write δ(ε) of Balle & Wang's Theorem 8 with Φ (scipy.stats.norm.cdf); it decreases in ε and in σ, so a "
         "root finder inverts it.")
def _ref_gaussian_calibration(*, eps_points=((2.0, 1e-6), (0.7, 1e-3), (4.0, 1e-8)),
                              sigma_points=((0.5, 1e-6), (1.5, 1e-3), (0.2, 1e-5))):
    """Exercise "Reading a profile", two functions of the exact Gaussian profile (Balle & Wang 2018, Theorem 8;
    :func:`~dpsemantics.mechanisms.gaussian_delta`), graded without the package: ``eps_for_sigma(sigma, delta)``,
    the ε at which noise σ (sensitivity 1) is (ε, δ)-DP, and ``sigma_for_eps(eps, delta)``, the smallest σ giving
    (ε, δ)-DP.  ``eps_points``: (σ, δ) pairs; ``sigma_points``: (ε, δ) pairs."""
    from scipy.optimize import brentq

    eps_points = tuple((float(s), float(d)) for s, d in eps_points)
    sigma_points = tuple((float(e), float(d)) for e, d in sigma_points)
    eps_values = tuple(brentq(lambda e: float(mechanisms.gaussian_delta(e, s)) - d, 0, 60, xtol=1e-14)
                       for s, d in eps_points)
    sigma_values = tuple(brentq(lambda x: float(mechanisms.gaussian_delta(e, x)) - d, 1e-3, 1e3, xtol=1e-14)
                         for e, d in sigma_points)
    return (FormulaReference("eps_for_sigma", eps_points, eps_values, rtol=1e-6, args=("sigma", "delta"),
                             sample=(2.0, 1e-6)),
            FormulaReference("sigma_for_eps", sigma_points, sigma_values, rtol=1e-6, args=("eps", "delta"),
                             sample=(0.5, 1e-6)))


check_gaussian_calibration = _ref_gaussian_calibration


@_graded("Chain the guarantee along a path of single-record changes; each step scales the δ before it by e^ε.")
def _ref_group_answer(*, eps=0.5, delta=1e-3, group_size=3):
    """Exercise "Groups of three": the (ε, δ) that chaining gives for groups (Lecture 1, §4)."""
    e, d = ind.group_parameters(eps, delta, group_size)
    return Reference("eps_group", e), Reference("delta_group", d)


check_group_answer = _ref_group_answer


@_graded("Compare the two output distributions outcome by outcome: the ratio gives ε, the hockey stick δ.")
def _ref_rr_answer(*, keep=0.75, eps=0.5):
    """Exercise "Randomized response, both ways": the pure-DP ε of randomized response that keeps the bit
    with probability ``keep``, and its exact δ at ``eps``
    (:func:`~dpsemantics.mechanisms.randomized_response_delta`)."""
    eps_rr = math.log(keep / (1 - keep))
    return (Reference("eps_pure", mechanisms.randomized_response(eps_rr).epsilon()),
            Reference("delta_at_half", mechanisms.randomized_response_delta(eps, eps_rr), fraction=True))


check_rr_answer = _ref_rr_answer


@_graded("On a pair of adjacent databases the outputs differ only when the differing record is published; for (b), "
         "the records are published independently.")
def _ref_name_and_shame(*, delta_points=((1.0, 0.01), (0.3, 1e-3), (2.5, 0.2)),
                        exposure_points=((100, 0.05), (1000, 0.5), (30, 0.01))):
    """Exercise "Name and shame" (Lecture 1, §5), two functions graded without the package: ``smallest_delta(eps,
    delta)``, the smallest δ at ε of the mechanism that publishes each record with probability ``delta``
    (:func:`~dpsemantics.mechanisms.name_and_shame`), and ``largest_delta(n, p)``, the largest publication
    probability for which somebody's record among ``n`` is published with probability at most ``p`` (the
    exposure :func:`~dpsemantics.mechanisms.name_and_shame_exposure` solved for δ)."""
    from scipy.optimize import brentq

    delta_points = tuple((float(e), float(d)) for e, d in delta_points)
    exposure_points = tuple((int(n), float(q)) for n, q in exposure_points)
    # the per-pair δ does not depend on n: two records show it
    smallest = tuple(float(mechanisms.name_and_shame(2, d).delta(e)) for e, d in delta_points)
    largest = tuple(brentq(lambda d: float(mechanisms.name_and_shame_exposure(n, d)) - q, 0.0, 1.0, xtol=1e-16)
                    for n, q in exposure_points)
    return (FormulaReference("smallest_delta", delta_points, smallest, rtol=1e-6, args=("eps", "delta"),
                             sample=(1.0, 0.01)),
            FormulaReference("largest_delta", exposure_points, largest, rtol=1e-6, args=("n", "p"),
                             sample=(100, 0.05)))


check_name_and_shame = _ref_name_and_shame


# --------------------------------------------------------------------------------------------------
# Chapter 2: semantic privacy (Kasiviswanathan & Smith)
# --------------------------------------------------------------------------------------------------


def _rr_semantic(e, n):
    return semantic.semantic_epsilon(mechanisms.local_randomized_response(int(n), e)).epsilon


@_graded("The ratio r takes two values; the two-point characterisation gives the semantic ε from ln R.")
def _ref_semantic_formula(*, n_values=(1, 2, 3), eps_values=(0.1, 0.5, 1.0, 2.0)):
    """A closed form ``formula(eps, n)`` for the semantic-privacy ε of local randomized response, compared
    with :func:`~dpsemantics.semantic.semantic_epsilon` at every (ε, n)."""
    points = tuple((float(e), int(n)) for n in n_values for e in eps_values)
    return (FormulaReference("semantic_formula", points, tuple(_rr_semantic(e, n) for e, n in points), rtol=1e-6,
                             args=("eps", "n"), sample=(0.5, 2)),)


check_semantic_formula = _ref_semantic_formula


@_graded("The mechanism is exactly semantically private at a parameter you can compute; its privacy profile gives δ "
         "at any ε.")
def _ref_ks_converse(*, eps0=0.8, factor=3.0):
    """Exercise "Repairing Theorem 2.4 (2)", part (b): for randomized response on one record with ``eps0``, its
    exact semantic ε s and the δ it needs at ``factor``·s (K&S Theorem 2.4 (2) promises 2δ at 3s)."""
    m = mechanisms.one_record_randomized_response(eps0)
    s = semantic.semantic_epsilon(m).epsilon
    return Reference("semantic_eps", s), Reference("delta_needed", m.delta(factor * s), fraction=True)


check_ks_converse = _ref_ks_converse


@_graded("A power above 1 bounds nothing; compute the Neyman–Pearson test of one randomized-response record.")
def _ref_eq4_slip(*, eps=0.7, alpha=0.1):
    """Exercise "Find the slip: equation (4)": the power bound at ``eps``, ``alpha`` as printed (e^{εα}) and the
    largest power of a level-α test against randomized response (K&S eq. (4); Wasserman & Zhou)."""
    from ..claims import semantic_evidence

    rr = mechanisms.one_record_randomized_response(eps)
    p0, p1 = semantic_evidence.record_test_distributions(rr, 0, [0.5, 0.5], {0}, {1})
    return (Reference("printed_bound", math.exp(eps * alpha)),
            Reference("corrected_bound", semantic.most_powerful_power(p0, p1, alpha), fraction=True))


check_eq4_slip = _ref_eq4_slip


@_graded("Evaluate the exact Gaussian privacy profile at the proof's σ and compare it with δ.")
def _ref_gaussian_calibration_slip(*, eps=0.6, delta=1e-5):
    """Exercise "Find the slip: the Gaussian calibration of Theorem A.2": the proof's σ² = log(1/δ)/ε²
    (:func:`~dpsemantics.semantic.paper_gaussian_sigma`) and the exact δ that σ gives at ε
    (:func:`~dpsemantics.mechanisms.gaussian_delta`)."""
    s = semantic.paper_gaussian_sigma(eps, delta)
    return Reference("sigma", s), Reference("exact_delta", mechanisms.gaussian_delta(eps, s))


check_gaussian_calibration_slip = _ref_gaussian_calibration_slip


@_graded("Find two databases whose ratios r go in opposite directions; then use the two-point characterisation "
         "(and look at one record on its own).")
def _ref_count_semantic(*, points=((1.5, 3), (0.4, 1), (2.6, 2))):
    """Exercise "The geometric count, exactly": ``count_semantic_eps(eps, n)``, the semantic-privacy ε of the
    ε-DP geometric count on ``n`` records (:func:`~dpsemantics.semantic.semantic_epsilon`), to compare with
    Theorem 2.2's e^ε − 1; graded without the package at ``points`` ((ε, n) pairs)."""
    def exact(e, n):
        return semantic.semantic_epsilon(mechanisms.geometric_count(int(n), e)).epsilon

    return (_formula("count_semantic_eps", exact, [(float(e), int(n)) for e, n in points], ("eps", "n"), (1.5, 3)),)


check_count_semantic = _ref_count_semantic


# --------------------------------------------------------------------------------------------------
# Chapter 3: privacy notions (Zhao)
# --------------------------------------------------------------------------------------------------


@_graded("The adversary who knows no other record sees n noisy reports of the same bit.")
def _ref_copies_answer(*, points=((0.8, 3), (0.3, 2), (1.7, 5))):
    """Exercise "Copies and group privacy": ``copies_leakage(eps, n)``, the BDP leakage of ε-local randomized
    response on ``n`` bits when all records are copies of one fair bit (:func:`~dpsemantics.notions.copies_prior`),
    graded without the package at ``points`` ((ε, n) pairs)."""
    def exact(e, n):
        return notions.bdp_leakage(mechanisms.local_randomized_response(int(n), e), notions.copies_prior(int(n)))

    return (_formula("copies_leakage", exact, [(float(e), int(n)) for e, n in points], ("eps", "n"), (0.8, 3)),)


check_copies_answer = _ref_copies_answer


@_graded("The uninformed adversary sees the target's report and a report of a correlated record.")
def _ref_markov_leakage(*, n=2, eps=0.8, stay=0.75):
    """Exercise "Correlated records": the Bayesian-DP leakage of ε-local randomized response on ``n`` bits under
    the Markov-chain prior in which each record copies the previous one with probability ``stay``."""
    truth = notions.bdp_leakage(mechanisms.local_randomized_response(n, eps), notions.markov_chain_prior(n, stay))
    return (Reference("markov_leakage", truth, rtol=1e-6),)


check_markov_leakage = _ref_markov_leakage


@_graded("Use Lemma 1 with A = e^ε at the family's one prior b.")
def _ref_family_answer(*, eps=0.8, b=0.5):
    """Exercise "A family that is not downward scalable": the membership-privacy ε′ of ε-randomized response
    on one record for the family with P[x_i] = b only (Zhao, Lemma 1)."""
    truth = notions.membership_privacy_lemma1(math.exp(eps), b)
    mistake = "that is the Bayesian-DP leakage ε; membership privacy for this family needs less"
    return (Reference("eps_prime_family", truth, rtol=1e-6, confusions=((eps, mistake),)),)


check_family_answer = _ref_family_answer


@_graded("Under 'replace' the copies of the target stay in Game i; under 'condition' they follow ⊥.")
def _ref_replace_reading(*, points=((0.8, 4), (0.3, 2), (1.7, 3))):
    """Exercise "Find the slip: the reading of eq. (13)": for n copies of one fair bit under ε-local randomized
    response, ``bsp_replace(eps, n)``, the Bayesian semantic privacy under the 'replace' reading of Game i, and
    ``bdp(eps, n)``, the BDP leakage; graded without the package at ``points`` ((ε, n) pairs)."""
    def model(e, n):
        return mechanisms.local_randomized_response(int(n), e), notions.copies_prior(int(n))

    points = [(float(e), int(n)) for e, n in points]
    return (_formula("bsp_replace", lambda e, n: notions.bayesian_semantic_privacy(*model(e, n), 0, reading="replace"),
                     points, ("eps", "n"), (0.8, 4)),
            _formula("bdp", lambda e, n: notions.bdp_leakage(*model(e, n)), points, ("eps", "n"), (0.8, 4)))


check_replace_reading = _ref_replace_reading


# --------------------------------------------------------------------------------------------------
# Chapter 4: the causal view (Tschantz, Sen & Datta)
# --------------------------------------------------------------------------------------------------


@_graded("Count the paths from R₂ to the output.")
def _ref_byron_effect(*, eps=0.7):
    """Exercise "Byron's effect": the effect size (log RP̄, maximised over populations) of R₂ on O in
    :func:`~dpsemantics.causal.prog_status_model` (Tschantz et al., Definition 9)."""
    truth = causal.brp_epsilon(causal.prog_status_model(eps, with_database=False), "O", "R2")
    return (Reference("byron", truth, rtol=1e-6, atol=1e-9),)


check_byron_effect = _ref_byron_effect


def _log_max_ratio_rows(rows: list[list[float]]) -> float:
    """The largest |log(a/b)| between two rows, outcome by outcome (0/0 skipped, a/0 infinite)."""
    best = 0.0
    for x, y in zip(*rows):
        if x > 0 and y > 0:
            best = max(best, abs(math.log(x / y)))
        elif x > 0 or y > 0:
            return math.inf
    return best


_DEF7_HINT = "Make one database misbehave and let the population average over it."


@_never_raises(_DEF7_HINT)
def check_definition7_counterexample(mechanism, population) -> CheckResult:
    """Exercise "Another counterexample for Definition 7": Definition 7 must hold at ``population`` with a
    smaller ε than differential privacy needs (Tschantz et al., Proposition 4)."""
    try:
        e7 = causal.definition_epsilon(7, mechanism, population)
        e1 = causal.definition_epsilon(1, mechanism)
    except (TypeError, ValueError, AttributeError) as err:
        not_one = f"not a mechanism and population on two data points ({type(err).__name__})"
        return _result([Part("counterexample", False, not_one)],
                       "Use a FiniteMechanism on the four databases and a 2×2 population.")
    # the grader's rule (grader.definition7_separates): the ratio e^{ε₇} at least 1 + 1e-9 below e^{ε_DP}; the ε's
    # are measured on the floats of the mechanism, for which the geometric count's two differ in the 16th digit
    ok = e7 + 1e-9 < e1
    return _result([Part("counterexample", ok, "Definition 7 needs a smaller ε than differential privacy" if ok
                         else "Definition 7 needs at least the ε of differential privacy here")], _DEF7_HINT)


@_graded("Setting R₁ sets every copy; which output's probability changes most?")
def _ref_relatives_effect(*, eps=0.7, relatives=2):
    """Exercise "Relatives under randomized response": the effect of R₁ on the exact count O when ``relatives``
    statuses copy R₁ (:func:`~dpsemantics.causal.relatives_effect`)."""
    return (Reference("relatives_value", causal.relatives_effect(eps, relatives), rtol=1e-6, atol=1e-9,
                      confusions=((eps, "that is the effect of one status; the relatives copy R₁"),)),)


check_relatives_effect = _ref_relatives_effect


@_graded("RP̄ is a ratio of probabilities maximised over pairs, x₁ = x₂ included.")
def _ref_definition9_slip(*, points=((0.7,), (0.3,), (1.7,))):
    """Exercise "Find the slip: Definition 9's bound": ``rp_bar(eps)``, the max over populations of RP̄(O, D₁)
    for the ε-DP count prog_A (:func:`~dpsemantics.causal.prog_a_model`; printed bound e^{-1}, every RP̄ is at
    least 1), graded without the package at ``points``."""
    def exact(e):
        return math.exp(causal.brp_epsilon(causal.prog_a_model(e, with_database=False), "O", "D1"))

    return (_formula("rp_bar", exact, points, ("eps",), (0.7,)),)


check_definition9_slip = _ref_definition9_slip


def _all_equal_population(n: int) -> np.ndarray:
    population = np.zeros((2,) * n)
    population[(0,) * n] = population[(1,) * n] = 0.5
    return population


@_graded("Conditioning on D₁ here fixes the whole database: compare the counts of all-zeros and all-ones.")
def _ref_definition4_slip(*, points=((0.7, 3), (0.3, 2), (1.7, 4))):
    """Exercise "Find the slip: Definition 4's condition": ``eps_def3(eps, n)``, the ε of the associative
    Definition 3 for the ε-DP count on ``n`` data points under the population in which all data points are equal
    (it meets Definition 4's printed pairwise condition), graded without the package at ``points``."""
    def exact(e, n):
        return causal.definition_epsilon(3, mechanisms.geometric_count(int(n), e), _all_equal_population(int(n)))

    return (_formula("eps_def3", exact, [(float(e), int(n)) for e, n in points], ("eps", "n"), (0.7, 3)),)


check_definition4_slip = _ref_definition4_slip


# --------------------------------------------------------------------------------------------------
# Chapter 5: disclosure risk (Kazan et al.)
# --------------------------------------------------------------------------------------------------

_PROFILE = {"priors": (0.05, 0.3, 0.6, 0.95), "max_posteriors": (0.2, 0.6, 0.8, 0.99), "delta": 1e-3,
            "delta_prime": 0.05}


@_graded("Corollary 3.10 gives ε′ per point (the smallest binds); for (b), solve Theorem 3.9's equation for ε.")
def _ref_profile_answer(*, priors=_PROFILE["priors"], max_posteriors=_PROFILE["max_posteriors"],
                        delta=_PROFILE["delta"], delta_prime=_PROFILE["delta_prime"],
                        inverse_points=((1.2, 1e-3, 0.05), (0.5, 1e-6, 0.01), (2.0, 1e-4, 0.2))):
    """Exercise "A disclosure-risk profile": the smallest log-odds increase ε′ the profile allows
    (Kazan et al., Corollary 3.10), and ``eps_for(eps_prime, delta, delta_prime)``, the largest ε of (ε, δ)-DP
    whose Theorem 3.9 ε′ is at most ``eps_prime`` (Theorem 3.9 inverted, Example 4.2, footnote 6;
    :func:`~dpsemantics.disclosure.dp_epsilon_for_pdp`), graded without the package at ``inverse_points``.
    ``delta`` and ``delta_prime`` are the curator's, for the written part (the profile's ε)."""
    priors, posts = np.asarray(priors, float), np.asarray(max_posteriors, float)
    if priors.shape != posts.shape or priors.ndim != 1 or priors.size < 1:
        raise ValueError(f"priors and max_posteriors must be two lists of the same length (got {priors!r}, {posts!r})")
    eps_prime = float(np.min(disclosure.logit(posts) - disclosure.logit(priors)))
    eps = disclosure.epsilon_for_profile(priors, posts, delta, delta_prime)
    single = sorted({float(x) for x in disclosure.logit(posts) - disclosure.logit(priors)} - {eps_prime})
    points = tuple(tuple(float(x) for x in p) for p in inverse_points)
    values = tuple(float(disclosure.dp_epsilon_for_pdp(*p)) for p in points)
    return (Reference("eps_prime_profile", eps_prime, rtol=1e-4,
                      confusions=((eps, "that is already ε of (ε, δ)-DP; ε′ is the log-odds increase before "
                                        "Theorem 3.9"),)
                      + tuple((e, "too large: another point of the profile binds") for e in single)),
            FormulaReference("eps_for", points, values, rtol=1e-6, args=("eps_prime", "delta", "delta_prime"),
                             sample=(1.2, 1e-3, 0.05)))


check_profile_answer = _ref_profile_answer


@_graded("Set the derivative of p/(p + (1 − p)e^{−ε}) − p to zero.")
def _ref_difference_peak(*, points=((2.2,), (0.5,), (4.0,))):
    """Exercise "Where the difference bound comes from": ``p_star(eps)``, the prior maximising the
    posterior-minus-prior bound, and ``max_difference(eps)``, the maximum (Kazan et al., Lemma 3.4 and
    Corollary 3.8; :func:`~dpsemantics.disclosure.worst_case_prior`), graded without the package at ``points``."""
    def p_star(e):
        return float(np.ravel(disclosure.worst_case_prior(e))[0])

    return (_formula("p_star", p_star, points, ("eps",), (2.2,)),
            _formula("max_difference", lambda e: float(disclosure.prior_difference_bounds(p_star(e), e)[1]), points,
                     ("eps",), (2.2,)))


check_difference_peak = _ref_difference_peak


@_graded("The posterior reaches the bound exactly when the privacy loss is at its atom +ε.")
def _ref_laplace_answer(*, bound_points=((0.3, 0.5), (0.05, 1.2), (0.8, 0.1)), eps_points=((0.5,), (1.2,), (0.1,))):
    """Exercise "A Laplace release against its bound", parts (a) and (b), graded without the package:
    ``posterior_bound(prior, eps)``, Corollary 3.6's posterior bound after one ε-Laplace release, and
    ``prob_present(eps)``, ``prob_absent(eps)``, the probabilities that the posterior reaches it when the
    target is present and absent (Theorem 3.1 with the Laplace privacy loss)."""
    return (_formula("posterior_bound", lambda p, e: float(disclosure.posterior_bounds(p, e)[1]), bound_points,
                     ("prior", "eps"), (0.3, 0.5)),
            _formula("prob_present", lambda e: float(1.0 - PrivacyLoss.laplace(e).cdf_left(e)), eps_points, ("eps",),
                     (0.5,)),
            _formula("prob_absent", lambda e: float(PrivacyLoss.laplace(e).dual.cdf(-e)), eps_points, ("eps",),
                     (0.5,)))


check_laplace_answer = _ref_laplace_answer


@functools.lru_cache(maxsize=64)
def first_crossing(method: str, *, threshold: float, eps0: float = 0.05, delta: float = 1e-6, delta_prime: float = 0.05,
                   prior: float = 0.5, k_max: int = 400) -> int:
    """The first number of ε₀-queries after which a prior can pass ``threshold`` (Kazan et al., Figure 3:
    composed ε by ``method``, basic with δ = 0, then Theorem 3.9's ε′, then Corollary 3.6's bound).  Cached: the
    optimal composition of a few hundred k costs about a second."""
    ks = np.arange(1, k_max + 1)
    d = 0.0 if method == "basic" else delta
    composed = disclosure.composed_epsilon(eps0, ks, delta, method)
    post = disclosure.posterior_bounds(prior, conversions.pdp_epsilon(composed, d, delta_prime))[1]
    above = np.flatnonzero(np.asarray(post) > threshold)
    if above.size == 0:
        raise ValueError(f"the posterior does not pass threshold={threshold!r} within {k_max} queries")
    return int(ks[above[0]])


@_graded("Find the first k whose composed ε, turned into ε′, lets prior 1/2 pass the threshold.")
def _ref_figure3_slip(*, threshold=0.9):
    """Exercise "Find the slip: Figure 3": the number of ε₀ = 0.05 queries after which a prior of 1/2 can pass
    ``threshold`` (δ = 10⁻⁶, δ′ = 0.05) with basic and with optimal composition (the paper prints 28 and 96 at 80%)."""
    threshold = float(threshold)
    return (Reference("k_basic", first_crossing("basic", threshold=threshold), rtol=0, atol=0.5),
            Reference("k_optimal", first_crossing("optimal", threshold=threshold), rtol=0, atol=0.5))


check_figure3_slip = _ref_figure3_slip


@_graded("The worst prior is the one of the difference bound at the composed ε′.")
def _ref_example41_slip(*, days=60, rho=0.01, delta_prime=0.01):
    """Exercise "Find the slip: Example 4.1": the worst-case posterior interval (from the worst prior to its
    bound) after ``days`` days of the daily ρ-zCDP release with δ′ (the paper prints 19% → 81% after 30)."""
    e = float(np.ravel(disclosure.zcdp_eps_prime(rho, days, delta_prime))[0])
    start = float(np.ravel(disclosure.worst_case_prior(e))[0])
    return (Reference("worst_from", start, rtol=0, atol=5e-3, fraction=True),
            Reference("worst_to", start + float(disclosure.difference_bound(e)), rtol=0, atol=5e-3, fraction=True))


check_example41_slip = _ref_example41_slip


@_graded("Convert to probabilistic DP first (Theorem 3.9), then apply the pure-DP posterior bound at ε′.")
def _ref_pdp_posterior(*, eps_points=((1.0, 1e-3, 0.01), (0.5, 1e-6, 0.05), (2.0, 1e-4, 0.001)),
                       posterior_points=((0.1, 1.0, 1e-3, 0.01), (0.3, 0.5, 1e-6, 0.05), (0.02, 2.0, 1e-4, 0.001))):
    """Exercise "From (ε, δ) to a posterior", two functions graded without the package: Theorem 3.9's
    ``eps_prime(eps, delta, delta_prime)`` (:func:`~dpsemantics.conversions.pdp_epsilon`), and
    ``posterior(prior, eps, delta, delta_prime)``, Corollary 3.10's bound on the posterior at that ε′."""
    eps_points = tuple(tuple(float(x) for x in p) for p in eps_points)
    posterior_points = tuple(tuple(float(x) for x in p) for p in posterior_points)
    eps_values = tuple(float(conversions.pdp_epsilon(*p)) for p in eps_points)
    post_values = tuple(float(disclosure.posterior_bounds(p[0], conversions.pdp_epsilon(*p[1:]))[1])
                        for p in posterior_points)
    return (FormulaReference("eps_prime", eps_points, eps_values, rtol=1e-6,
                             args=("eps", "delta", "delta_prime"), sample=(1.0, 1e-3, 0.01)),
            FormulaReference("posterior", posterior_points, post_values, rtol=1e-6,
                             args=("prior", "eps", "delta", "delta_prime"), sample=(0.1, 1.0, 1e-3, 0.01)))


check_pdp_posterior = _ref_pdp_posterior
