"""Check functions for the book's exercises: one result type, and never the expected value.

Every check takes the student's answer (numbers, or a function for a formula) and returns a
:class:`CheckResult`: whether the whole answer is correct, a verdict per part with feedback, and a hint.
The reference values are recomputed with the package each time and compared to a tolerance; they are never
stored in the result, printed, or echoed back (nor is the student's own answer, which would be the
expected value when it is right).  ``tests/test_coursework.py`` feeds every check right and wrong answers and
searches every field and rendering for the expected numbers.

The exercises name their check in ``book/exercises.yml``; the generated assignments
(:mod:`dpsemantics.book.assignments`) call the same functions in their public and hidden tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .. import causal, conversions, disclosure, mechanisms, notions, semantic
from .. import indistinguishability as ind
from .render import number

__all__ = [
    "Part", "CheckResult",
    "check_transitivity_answer", "check_gaussian_calibration", "check_group_answer", "check_rr_answer",
    "check_name_and_shame", "check_semantic_formula", "check_ks_converse", "check_eq4_slip",
    "check_gaussian_calibration_slip", "check_count_semantic", "check_copies_answer", "check_markov_leakage", "check_family_answer", "check_replace_reading",
    "check_byron_effect", "check_definition7_counterexample", "check_relatives_effect", "check_definition9_slip",
    "check_definition4_slip", "check_profile_answer", "check_difference_peak", "check_laplace_answer",
    "check_figure3_slip", "check_example41_slip", "check_pdp_posterior",
]


@dataclass(frozen=True)
class Part:
    """One part of an answer: its name, whether it is right, and feedback that does not give it away."""

    name: str
    ok: bool
    feedback: str


@dataclass(frozen=True)
class CheckResult:
    """The result of every check: ``correct`` (all parts right), ``parts`` and a ``hint`` for wrong answers.

    ``bool(result)`` is ``result.correct``, so ``assert check(...)`` works in tests.  Neither the fields nor
    the renderings contain the expected value."""

    correct: bool
    parts: tuple[Part, ...] = field(default_factory=tuple)
    hint: str = ""

    def __bool__(self) -> bool:
        return self.correct

    def _lines(self) -> list[str]:
        head = "correct" if self.correct else "not yet"
        lines = [f"{head}: {sum(p.ok for p in self.parts)} of {len(self.parts)} parts right"]
        lines += [f"  [{'ok' if p.ok else 'x '}] {p.name}: {p.feedback}" for p in self.parts]
        if not self.correct and self.hint:
            lines.append(f"  hint: {self.hint}")
        return lines

    def __str__(self) -> str:
        return "\n".join(self._lines())

    def __repr__(self) -> str:
        return f"CheckResult(correct={self.correct}, parts={len(self.parts)})\n" + str(self)

    def _repr_markdown_(self) -> str:
        head, *rest = self._lines()
        return f"**{head}**\n\n" + "\n".join(f"* {line.strip()}" for line in rest)


def _number(value) -> float | None:
    """The answer as a finite float, or None when it is not one (no exception: a check never crashes)."""
    if isinstance(value, bool) or value is None or value is Ellipsis:
        return None
    try:
        out = float(np.asarray(value, dtype=float).reshape(()))
    except (TypeError, ValueError):
        return None
    return out if math.isfinite(out) else None


def _part(name: str, answer, truth: float, *, rtol: float = 1e-3, atol: float = 1e-9) -> Part:
    got = _number(answer)
    if got is None:
        return Part(name, False, "expected a finite number")
    ok = abs(got - truth) <= max(atol, rtol * abs(truth))
    return Part(name, ok, f"within {number(rtol)} (relative) of the exact value" if ok else "not within the tolerance")


def _result(parts: list[Part], hint: str) -> CheckResult:
    return CheckResult(all(p.ok for p in parts), tuple(parts), hint)


def _compare(answers: dict, truths: dict, hint: str, *, rtol: float = 1e-3, atol: float = 1e-9) -> CheckResult:
    return _result([_part(k, answers[k], truths[k], rtol=rtol, atol=atol) for k in truths], hint)


def _formula(name: str, formula: Callable, truth: Callable, points, *, rtol: float = 1e-9, atol: float = 1e-12) -> Part:
    """A formula compared with the reference at every point (the points are not reported)."""
    if not callable(formula):
        return Part(name, False, "expected a function")
    wrong = 0
    for args in points:
        try:
            got = _number(formula(*args))
        except Exception:  # noqa: BLE001 - a student's formula may raise anything; that is a wrong answer
            got = None
        want = truth(*args)
        if got is None or abs(got - want) > max(atol, rtol * abs(want)):
            wrong += 1
    if wrong:
        return Part(name, False, f"differs from the exact value at {wrong} of {len(points)} test points")
    return Part(name, True, f"agrees at all {len(points)} test points")


# --------------------------------------------------------------------------------------------------
# Chapter 1: the definitions (Lecture 1)
# --------------------------------------------------------------------------------------------------


def check_transitivity_answer(eps_prime, delta_prime, *, trials: int = 300, seed: int = 0) -> CheckResult:
    """Lecture 1, Exercise 7.2: ``eps_prime(eps, delta)``, ``delta_prime(eps, delta)`` for chained
    indistinguishability.  Tried on random chains p ≈ q ≈ r (Dirichlet, 2–6 outcomes, δ the least the chain
    needs) and on :func:`~dpsemantics.indistinguishability.transitivity_witness`; the answer is correct when it
    is never violated and as tight as (2ε, (1 + e^ε)δ)."""
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
    try:
        for eps, delta, p, q, r in cases:
            e2, d2 = _number(eps_prime(eps, delta)), _number(delta_prime(eps, delta))
            if e2 is None or d2 is None or e2 < 0 or ind.smallest_delta(p, r, e2) > d2 + 1e-12:
                violated += 1
        tight = all(delta_prime(e, d) <= (1 + np.exp(e)) * d * (1 + 1e-9) and eps_prime(e, d) <= 2 * e * (1 + 1e-9)
                    for e in (0.1, 0.5, 1.0, 2.0) for d in (1e-3, 1e-2))
    except Exception:  # noqa: BLE001
        return _result([Part("valid", False, "the functions raised an error")], "Both take (eps, delta) and return a number.")
    valid = Part("valid", not violated, f"holds on all {len(cases)} chains tried" if not violated
                 else f"violated on {violated} of {len(cases)} chains (a counterexample exists)")
    tight_part = Part("tight", bool(tight) and not violated, "as tight as the chained definition allows" if tight
                      else "valid but looser than necessary")
    return _result([valid, tight_part], "Write p(E) ≤ e^ε q(E) + δ and bound q(E) the same way.")


def check_gaussian_calibration(eps_at_sigma2, sigma_for_half) -> CheckResult:
    """Exercise "Reading a profile": the ε at which the Gaussian mechanism with σ = 2 is (ε, 10⁻⁶)-DP and
    the smallest σ giving (0.5, 10⁻⁶)-DP (exact profile, :func:`~dpsemantics.mechanisms.gaussian_delta`)."""
    from scipy.optimize import brentq

    truth = {"eps_at_sigma2": brentq(lambda e: mechanisms.gaussian_delta(e, 2.0) - 1e-6, 0, 20, xtol=1e-12),
             "sigma_for_half": mechanisms.gaussian_sigma(0.5, 1e-6)}
    return _compare({"eps_at_sigma2": eps_at_sigma2, "sigma_for_half": sigma_for_half}, truth,
                    "The profile δ(ε) decreases in ε and in σ: solve δ = 10⁻⁶ with a root finder.")


def check_group_answer(eps_group, delta_group, *, eps=0.5, delta=1e-3, group_size=3) -> CheckResult:
    """Exercise "Groups of three": the (ε, δ) that chaining gives for groups (Lecture 1, §4)."""
    e, d = ind.group_parameters(eps, delta, group_size)
    return _compare({"eps_group": eps_group, "delta_group": delta_group}, {"eps_group": e, "delta_group": d},
                    "Chain the guarantee along a path of single-record changes; each step scales the δ before it by e^ε.")


def check_rr_answer(eps_pure, delta_at_half, *, keep=0.75) -> CheckResult:
    """Exercise "Randomized response, both ways": the pure-DP ε of randomized response that keeps the bit
    with probability ``keep``, and its exact δ at ε = 0.5 (:func:`~dpsemantics.mechanisms.randomized_response_delta`)."""
    eps_rr = math.log(keep / (1 - keep))
    return _compare({"eps_pure": eps_pure, "delta_at_half": delta_at_half},
                    {"eps_pure": mechanisms.randomized_response(eps_rr).epsilon(),
                     "delta_at_half": mechanisms.randomized_response_delta(0.5, eps_rr)},
                    "Compare the two output distributions outcome by outcome: the ratio gives ε, the hockey stick δ.")


def check_name_and_shame(smallest_delta, exposure, *, n=100, delta=0.01) -> CheckResult:
    """Exercise "Name and shame": the smallest δ at ε = 1 of the mechanism that publishes each of ``n``
    records with probability ``delta``, and the probability that somebody's record is published."""
    small = mechanisms.name_and_shame(2, delta)  # the per-pair δ does not depend on n
    return _compare({"smallest_delta": smallest_delta, "exposure": exposure},
                    {"smallest_delta": small.delta(1.0), "exposure": mechanisms.name_and_shame_exposure(n, delta)},
                    "On a pair of adjacent databases the outputs differ only when the differing record is published.")


# --------------------------------------------------------------------------------------------------
# Chapter 2: semantic privacy (Kasiviswanathan & Smith)
# --------------------------------------------------------------------------------------------------


def check_semantic_formula(formula, *, n_values=(1, 2, 3), eps_values=(0.1, 0.5, 1.0, 2.0)) -> CheckResult:
    """A closed form ``formula(eps, n)`` for the semantic-privacy ε of local randomized response, compared
    with :func:`~dpsemantics.semantic.semantic_epsilon` at every (n, ε)."""
    points = [(e, n) for n in n_values for e in eps_values]
    part = _formula("formula", formula, lambda e, n: semantic.semantic_epsilon(mechanisms.local_randomized_response(n, e)).epsilon,
                    points)
    return _result([part], "The ratio r takes two values; the two-point characterisation gives tanh(ln R / 4).")


def _rr_one(eps0):
    from ..claims import ks as ks_claims

    return ks_claims.rr_one_record(eps0)


def check_ks_converse(semantic_eps, delta_needed, *, eps0=0.8) -> CheckResult:
    """Exercise "Repairing Theorem 2.4 (2)", part (b): for randomized response on one record with ε₀, its exact
    semantic ε s and the δ it needs at 3s (K&S Theorem 2.4 (2) promises 2δ)."""
    m = _rr_one(eps0)
    s = semantic.semantic_epsilon(m).epsilon
    return _compare({"semantic_eps": semantic_eps, "delta_needed": delta_needed}, {"semantic_eps": s, "delta_needed": m.delta(3 * s)},
                    "The mechanism is exactly tanh(ε₀/4)-semantically private; its privacy profile gives δ at any ε.")


def check_eq4_slip(printed_bound, corrected_bound) -> CheckResult:
    """Exercise "Find the slip: equation (4)": the power bound at ε = 1, α = 0.05 as printed (e^{εα}) and the
    largest power of a level-α test against randomized response (Wasserman & Zhou's e^ε·α, attained)."""
    from ..claims import ks as ks_claims

    p0, p1 = ks_claims.record_test_distributions(_rr_one(1.0), 0, [0.5, 0.5], {0}, {1})
    return _compare({"printed_bound": printed_bound, "corrected_bound": corrected_bound},
                    {"printed_bound": math.exp(0.05), "corrected_bound": semantic.most_powerful_power(p0, p1, 0.05)},
                    "A power above 1 bounds nothing; compute the Neyman–Pearson test of one randomized-response record.")


def check_gaussian_calibration_slip(sigma, exact_delta, *, eps=0.5, delta=1e-5) -> CheckResult:
    """Exercise "Find the slip: the Gaussian calibration of Theorem A.2": the proof's σ² = log(1/δ)/ε²
    (:func:`~dpsemantics.semantic.paper_gaussian_sigma`) and the exact δ that σ gives at ε
    (:func:`~dpsemantics.mechanisms.gaussian_delta`)."""
    s = semantic.paper_gaussian_sigma(eps, delta)
    return _compare({"sigma": sigma, "exact_delta": exact_delta}, {"sigma": s, "exact_delta": mechanisms.gaussian_delta(eps, s)},
                    "Evaluate the exact Gaussian privacy profile at the proof's σ and compare it with δ.")


def check_count_semantic(semantic_eps, *, n=3, eps=1.0) -> CheckResult:
    """Exercise "The geometric count, exactly": the semantic-privacy ε of the ε-DP geometric count on ``n``
    records (:func:`~dpsemantics.semantic.semantic_epsilon`), to compare with Theorem 2.2's e^ε − 1."""
    truth = semantic.semantic_epsilon(mechanisms.geometric_count(n, eps)).epsilon
    return _compare({"semantic_eps": semantic_eps}, {"semantic_eps": truth},
                    "Find two databases whose ratios r go in opposite directions; then use tanh(ln R / 4).")


# --------------------------------------------------------------------------------------------------
# Chapter 3: privacy notions (Zhao)
# --------------------------------------------------------------------------------------------------


def check_copies_answer(n: int, eps, answer) -> CheckResult:
    """Exercise "Copies and group privacy": the BDP leakage of ε-local randomized response on ``n`` bits when
    all records are copies of one fair bit (:func:`~dpsemantics.notions.copies_prior`)."""
    truth = notions.bdp_leakage(mechanisms.local_randomized_response(n, eps), notions.copies_prior(n))
    return _compare({"leakage": answer}, {"leakage": truth},
                    "The adversary who knows no other record sees n noisy reports of the same bit.", rtol=1e-6)


def check_markov_leakage(leakage, *, n=2, eps=1.0, stay=0.9) -> CheckResult:
    """Exercise "Correlated records": the Bayesian-DP leakage of ε-local randomized response on ``n`` bits under
    the Markov-chain prior in which each record copies the previous one with probability ``stay``."""
    truth = notions.bdp_leakage(mechanisms.local_randomized_response(n, eps), notions.markov_chain_prior(n, stay))
    return _compare({"leakage": leakage}, {"leakage": truth},
                    "The uninformed adversary sees the target's report and a report of a correlated record.", rtol=1e-6)


def check_family_answer(eps_prime, *, eps=1.0, b=0.5) -> CheckResult:
    """Exercise "A family that is not downward scalable": the membership-privacy ε′ of ε-randomized response
    on one record for the family with P[x_i] = b only (Zhao, Lemma 1)."""
    truth = notions.membership_privacy_lemma1(math.exp(eps), b)
    return _compare({"eps_prime": eps_prime}, {"eps_prime": truth}, "Use Lemma 1 with A = e^ε at the one prior b.", rtol=1e-6)


def check_replace_reading(bsp_replace, bdp, *, n=3, eps=1.0) -> CheckResult:
    """Exercise "Find the slip: the reading of eq. (13)": for n copies of one fair bit under ε-local randomized
    response, the Bayesian semantic privacy under the 'replace' reading of Game i, and the BDP leakage."""
    m, prior = mechanisms.local_randomized_response(n, eps), notions.copies_prior(n)
    return _compare({"bsp_replace": bsp_replace, "bdp": bdp},
                    {"bsp_replace": notions.bayesian_semantic_privacy(m, prior, 0, reading="replace"),
                     "bdp": notions.bdp_leakage(m, prior)},
                    "Under 'replace' the copies of the target stay in Game i; under 'condition' they follow ⊥.", rtol=1e-6)


# --------------------------------------------------------------------------------------------------
# Chapter 4: the causal view (Tschantz, Sen & Datta)
# --------------------------------------------------------------------------------------------------


def check_byron_effect(answer, eps) -> CheckResult:
    """Exercise "Byron's effect": the effect size (log RP̄, maximised over populations) of R₂ on O in
    :func:`~dpsemantics.causal.prog_status_model`."""
    truth = causal.brp_epsilon(causal.prog_status_model(eps, with_database=False), "O", "R2")
    return _compare({"effect": answer}, {"effect": truth}, "Count the paths from R₂ to the output.", rtol=1e-9, atol=1e-12)


def check_definition7_counterexample(mechanism, population) -> CheckResult:
    """Exercise "Another counterexample for Definition 7": Definition 7 must hold at ``population`` with a
    smaller ε than differential privacy needs (Tschantz et al., Proposition 4)."""
    try:
        e7 = causal.definition_epsilon(7, mechanism, population)
        e1 = causal.definition_epsilon(1, mechanism)
    except (TypeError, ValueError) as err:
        return _result([Part("counterexample", False, f"not a mechanism and population on two data points ({type(err).__name__})")],
                       "Use a FiniteMechanism on the four databases and a 2×2 population.")
    ok = e7 < e1
    return _result([Part("counterexample", ok, "Definition 7 needs a smaller ε than differential privacy" if ok
                         else "Definition 7 needs at least the ε of differential privacy here")],
                   "Make one database misbehave and let the population average over it.")


def check_relatives_effect(answer, eps, relatives: int) -> CheckResult:
    """Exercise "Relatives under randomized response": the effect of R₁ on the exact count O when ``relatives``
    statuses copy R₁ (:func:`~dpsemantics.causal.relatives_effect`)."""
    return _compare({"effect": answer}, {"effect": causal.relatives_effect(eps, relatives)},
                    "Setting R₁ sets every copy; which output's probability changes most?", rtol=1e-9, atol=1e-12)


def check_definition9_slip(rp_bar, *, eps=0.5) -> CheckResult:
    """Exercise "Find the slip: Definition 9's bound": max over populations of RP̄(O, D₁) for the ε-DP count
    prog_A (:func:`~dpsemantics.causal.prog_a_model`); printed bound e^{-1}, every RP̄ is at least 1."""
    truth = math.exp(causal.brp_epsilon(causal.prog_a_model(eps, with_database=False), "O", "D1"))
    return _compare({"rp_bar": rp_bar}, {"rp_bar": truth}, "RP̄ is a ratio of probabilities maximised over pairs, x₁ = x₂ included.")


def _all_equal_population(n: int) -> np.ndarray:
    population = np.zeros((2,) * n)
    population[(0,) * n] = population[(1,) * n] = 0.5
    return population


def check_definition4_slip(eps_def3, *, eps=0.5, n=3) -> CheckResult:
    """Exercise "Find the slip: Definition 4's condition": the ε of the associative Definition 3 for the ε-DP
    count on ``n`` data points under the population in which all data points are equal (it meets Definition
    4's printed pairwise condition)."""
    truth = causal.definition_epsilon(3, mechanisms.geometric_count(n, eps), _all_equal_population(n))
    return _compare({"eps_def3": eps_def3}, {"eps_def3": truth},
                    "Conditioning on D₁ here fixes the whole database: compare the counts of all-zeros and all-ones.")


# --------------------------------------------------------------------------------------------------
# Chapter 5: disclosure risk (Kazan et al.)
# --------------------------------------------------------------------------------------------------


def check_profile_answer(eps, priors, max_posteriors, delta, delta_prime) -> CheckResult:
    """Exercise "Your own disclosure-risk profile": is ``eps`` the largest ε meeting the profile?  Says only
    whether a point of the profile fails or a larger ε would still do."""
    truth = disclosure.epsilon_for_profile(priors, max_posteriors, delta, delta_prime)
    got = _number(eps)
    if got is None:
        part = Part("eps", False, "expected a finite number")
    elif abs(got - truth) <= 1e-3 * max(1.0, truth):
        part = Part("eps", True, "every point of the profile holds and no larger epsilon would do")
    elif got > truth:
        part = Part("eps", False, "too large: at least one prior would end above its accepted posterior")
    else:
        part = Part("eps", False, "too small: a larger epsilon still meets the whole profile")
    return _result([part], "Corollary 3.10 gives ε′ per point; Theorem 3.9 turns ε′ into ε; the smallest wins.")


def check_difference_peak(p_star, max_difference, *, eps=3.0) -> CheckResult:
    """Exercise "Where the difference bound comes from": the prior maximising the posterior-minus-prior bound
    and the maximum (Kazan et al., Corollary 3.7; :func:`~dpsemantics.disclosure.worst_case_prior`)."""
    return _compare({"p_star": p_star, "max_difference": max_difference},
                    {"p_star": 1 / (1 + math.exp(eps / 2)),
                     "max_difference": float(disclosure.prior_difference_bounds(1 / (1 + math.exp(eps / 2)), eps)[1])},
                    "Set the derivative of p/(p + (1 − p)e^{−ε}) − p to zero.")


def check_laplace_answer(posterior_bound, prob_present, prob_absent, *, eps=0.5, prior=0.3) -> CheckResult:
    """Exercise "A Laplace release against its bound": Corollary 3.6's posterior bound after one ε-Laplace
    release, and the probabilities that the posterior reaches it when the target is present and absent
    (Theorem 3.1 with the Laplace privacy loss)."""
    loss = disclosure.laplace_loss(eps)
    truth = {"posterior_bound": float(disclosure.posterior_bounds(prior, eps)[1]),
             "prob_present": float(1.0 - loss.present.cdf_left(eps)),
             "prob_absent": float(loss.absent.cdf(-eps))}
    return _compare({"posterior_bound": posterior_bound, "prob_present": prob_present, "prob_absent": prob_absent}, truth,
                    "The posterior reaches the bound exactly when the privacy loss is at its atom +ε.")


def check_figure3_slip(k_basic, k_optimal) -> CheckResult:
    """Exercise "Find the slip: Figure 3": the number of ε₀ = 0.05 queries after which a prior of 1/2 can pass
    80% (δ = 10⁻⁶, δ′ = 0.05) with basic and with optimal composition; the paper prints 28 and 96."""
    from ..claims import get

    return _compare({"k_basic": k_basic, "k_optimal": k_optimal},
                    {"k_basic": get("kazan-fig3-basic-80").compute(), "k_optimal": get("kazan-fig3-optimal-80").compute()},
                    "Find the first k whose composed ε exceeds the ε′ at which prior 1/2 reaches 80%.", rtol=0, atol=0.5)


def check_example41_slip(worst_from, worst_to) -> CheckResult:
    """Exercise "Find the slip: Example 4.1": the worst-case posterior interval (from the worst prior to its
    bound) after 30 days of the daily ρ = 0.01 zCDP release with δ′ = 0.01 (the paper prints 19% → 81%)."""
    from ..claims import get

    return _compare({"worst_from": worst_from, "worst_to": worst_to},
                    {"worst_from": get("kazan-ex4.1-worst-month-from").compute(),
                     "worst_to": get("kazan-ex4.1-worst-month-to").compute()},
                    "The worst prior is the one of the difference bound at the composed ε′.", rtol=0, atol=5e-3)


def check_pdp_posterior(eps_prime, posterior, *, eps=1.0, delta=1e-6, delta_prime=0.01, prior=0.1) -> CheckResult:
    """Exercise "From (ε, δ) to a posterior": Theorem 3.9's ε′ and Corollary 3.10's posterior bound for an
    adversary with the given prior (:func:`~dpsemantics.conversions.pdp_epsilon`)."""
    e1 = conversions.pdp_epsilon(eps, delta, delta_prime)
    return _compare({"eps_prime": eps_prime, "posterior": posterior},
                    {"eps_prime": e1, "posterior": float(disclosure.posterior_bounds(prior, e1)[1])},
                    "Convert to probabilistic DP first, then apply the pure-DP posterior bound at ε′.")
