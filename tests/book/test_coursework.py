"""The exercises' check functions: right answers pass, wrong ones fail, and nothing leaks the expected value."""

import dataclasses
import math
import re

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.stats import norm

from dpsemantics import causal, mechanisms, notions, semantic
from dpsemantics import disclosure as D
from dpsemantics.book import coursework as C
from dpsemantics.mechanisms import FiniteMechanism, geometric_count

E = math.exp
RR08 = mechanisms.one_record_randomized_response(0.8)
S08 = semantic.semantic_epsilon(RR08).epsilon
SIGMA_PAPER = math.sqrt(math.log(1 / 1e-5)) / 0.6
PROFILE = ([0.05, 0.3, 0.6, 0.95], [0.2, 0.6, 0.8, 0.99], 1e-3, 0.05)
EPS_PROFILE = D.epsilon_for_profile(*PROFILE)
# Corollary 3.10 by hand: the smallest log-odds increase the profile allows
EPS_PRIME_PROFILE = min(math.log(m / (1 - m)) - math.log(p / (1 - p)) for p, m in zip(*PROFILE[:2]))
# The formula answers, written from the papers here (NumPy and SciPy only), as a student would
def _gauss_profile(eps, sigma):  # Balle & Wang (2018), Theorem 8, sensitivity 1
    return norm.cdf(1 / (2 * sigma) - eps * sigma) - math.exp(eps) * norm.cdf(-1 / (2 * sigma) - eps * sigma)


def EPS_FOR_SIGMA(sigma, delta):
    return brentq(lambda e: _gauss_profile(e, sigma) - delta, 0, 60, xtol=1e-14)


def SIGMA_FOR_EPS(eps, delta):
    return brentq(lambda s: _gauss_profile(eps, s) - delta, 1e-3, 1e3, xtol=1e-14)


def PDP_EPS(eps, delta, delta_prime):  # Kazan et al., Theorem 3.9
    return math.log(delta_prime * math.exp(eps) + delta) - math.log(delta_prime - delta)


def PDP_POSTERIOR(prior, eps, delta, delta_prime):  # Corollary 3.10 at Theorem 3.9's ε′
    return prior / (prior + (1 - prior) * math.exp(-PDP_EPS(eps, delta, delta_prime)))


def EPS_FOR(eps_prime, delta, delta_prime):  # Theorem 3.9 solved for ε
    return math.log(math.exp(eps_prime) * (delta_prime - delta) - delta) - math.log(delta_prime)


PDP = PDP_EPS(1.0, 1e-3, 0.01)
EPS_SIGMA2 = EPS_FOR_SIGMA(2.0, 1e-6)
DBS = [(0, 0), (0, 1), (1, 0), (1, 1)]
MARKOV = notions.bdp_leakage(mechanisms.local_randomized_response(2, 0.8), notions.markov_chain_prior(2, 0.75))
BAD = FiniteMechanism(np.array([[0.5, 0.5]] * 3 + [[1.0, 0.0]]), DBS, [0, 1])

# name: (check, right answer, wrong answers, the expected numbers that must never appear in any output)
CASES = {
    "transitivity": (C.check_transitivity_answer, (lambda e, d: 2 * e, lambda e, d: (1 + np.exp(e)) * d),
                     [(lambda e, d: 2 * e, lambda e, d: 2 * d), (lambda e, d: e, lambda e, d: 10 * d)], []),
    "gaussian": (C.check_gaussian_calibration, (EPS_FOR_SIGMA, SIGMA_FOR_EPS),
                 # the classical σ = √(2 ln(1.25/δ))/ε (Dwork & Roth, Theorem A.1) is not the smallest
                 [(EPS_FOR_SIGMA, lambda e, d: math.sqrt(2 * math.log(1.25 / d)) / e), (2.0, 9.0), (None, "x")],
                 [EPS_SIGMA2, SIGMA_FOR_EPS(0.5, 1e-6)]),
    "group": (C.check_group_answer, (1.5, 1e-3 * (1 + E(0.5) + E(1.0))), [(1.5, 3e-3), (1.0, 1e-3)],
              [1.5, 1e-3 * (1 + E(0.5) + E(1.0))]),
    "rr": (C.check_rr_answer, (math.log(3), mechanisms.randomized_response_delta(0.5, math.log(3))), [(0.75, 0.1)],
           [math.log(3), mechanisms.randomized_response_delta(0.5, math.log(3))]),
    "name_and_shame": (C.check_name_and_shame, (lambda e, d: d, lambda n, p: 1 - (1 - p) ** (1 / n)),
                       [(lambda e, d: 0.0, lambda n, p: 1 - (1 - p) ** (1 / n)), (lambda e, d: d, lambda n, p: p / n),
                        (0.01, 1 - 0.99**100)],
                       [1 - 0.95 ** (1 / 100)]),
    "semantic": (C.check_semantic_formula, (lambda e, n: math.tanh(e / 4),), [(lambda e, n: math.expm1(e),), (3,)],
                 [math.tanh(x / 4) for x in (0.1, 0.5, 1.0, 2.0)]),
    "ks_converse": (C.check_ks_converse, (S08, RR08.delta(3 * S08)), [(0.2, 0.02)], [S08, RR08.delta(3 * S08)]),
    "eq4": (C.check_eq4_slip, (E(0.07), E(0.7) * 0.1), [(E(0.07), 0.1)], [E(0.07), E(0.7) * 0.1]),
    "a2": (C.check_gaussian_calibration_slip, (SIGMA_PAPER, mechanisms.gaussian_delta(0.6, SIGMA_PAPER)),
           [(SIGMA_PAPER, 1e-5)],
           [SIGMA_PAPER, mechanisms.gaussian_delta(0.6, SIGMA_PAPER)]),
    # n ≥ 2: tanh(ε/2) (all-zeros against all-ones); one record: randomized response, tanh(ε/4)
    "count_semantic": (C.check_count_semantic, (lambda e, n: math.tanh(e / 2) if n >= 2 else math.tanh(e / 4),),
                       [(lambda e, n: math.tanh(e / 2),), (lambda e, n: math.expm1(e),), (math.tanh(0.75),)],
                       [math.tanh(0.75)]),
    "markov": (C.check_markov_leakage, (MARKOV,), [(0.8,), (1.6,)], [MARKOV]),
    "copies": (C.check_copies_answer, (lambda e, n: n * e,), [(lambda e, n: e,), (2.4,), (float("nan"),)], [2.4]),
    "family": (C.check_family_answer, (math.log((1 + E(0.8)) / 2),), [(0.8,)], [math.log((1 + E(0.8)) / 2)]),
    "replace": (C.check_replace_reading, (lambda e, n: math.tanh(e / 4), lambda e, n: n * e),
                [(lambda e, n: n * e, lambda e, n: n * e), (math.tanh(0.2), 3.2)], [math.tanh(0.2)]),
    "byron": (C.check_byron_effect, (0.7,), [(1.4,)], [0.7]),
    "def7": (C.check_definition7_counterexample, (BAD, np.full((2, 2), 0.25)),
             [(geometric_count(2, 0.5), np.full((2, 2), 0.25))],
             [math.log(2)]),
    "relatives": (C.check_relatives_effect, (2.1,), [(0.7,)], [2.1]),
    "def9": (C.check_definition9_slip, (math.exp,), [(lambda e: E(-1),), (lambda e: e,), (E(0.7),)], [E(0.7)]),
    "def4": (C.check_definition4_slip, (lambda e, n: n * e,), [(lambda e, n: e,), (2.1,)], [2.1]),
    "profile": (C.check_profile_answer, (EPS_PRIME_PROFILE, EPS_FOR),
                [(EPS_PROFILE, EPS_FOR), (EPS_PRIME_PROFILE, lambda e1, d, d1: e1), (EPS_PRIME_PROFILE, EPS_PROFILE)],
                [EPS_PROFILE, EPS_PRIME_PROFILE]),
    "peak": (C.check_difference_peak, (lambda e: 1 / (1 + E(e / 2)), lambda e: math.tanh(e / 4)),
             [(lambda e: 0.5, lambda e: math.tanh(e / 4)), (1 / (1 + E(1.1)), math.tanh(0.55))],
             [1 / (1 + E(1.1)), math.tanh(0.55)]),
    "laplace": (C.check_laplace_answer, (lambda p, e: p / (p + (1 - p) * E(-e)), lambda e: 0.5, lambda e: E(-e) / 2),
                [(lambda p, e: p / (p + (1 - p) * E(-e)), lambda e: 0.5, lambda e: 0.5),
                 (0.3 / (0.3 + 0.7 * E(-0.5)), 0.5, E(-0.5) / 2)],
                [0.3 / (0.3 + 0.7 * E(-0.5)), E(-0.5) / 2]),
    "figure3": (C.check_figure3_slip, (44, 99), [(28, 45), (28, 96)], [99]),
    "example41": (C.check_example41_slip, (0.0878, 0.9122), [(0.1638, 0.8362), (8.78, 91.22)], [0.0878, 0.9122]),
    "pdp": (C.check_pdp_posterior, (PDP_EPS, PDP_POSTERIOR),
            [(lambda e, d, d1: e, PDP_POSTERIOR), (PDP_EPS, lambda p, e, d, d1: p / (p + (1 - p) * math.exp(-e))),
             (PDP, float(D.posterior_bounds(0.1, PDP)[1]))],
            [PDP, PDP_POSTERIOR(0.1, 1.0, 1e-3, 0.01)]),
}


def renderings(result) -> str:
    """Everything a student can see of a result: str, repr, Markdown, and every field."""
    fields = [str(getattr(result, f.name)) for f in dataclasses.fields(result)]
    fields += [f"{p.name} {p.ok} {p.feedback}" for p in result.parts]
    return "\n".join([str(result), repr(result), result._repr_markdown_(), *fields])


def printed_forms(x: float) -> set[str]:
    forms = {repr(float(x)), f"{x:.6g}", f"{x:.4g}", f"{x:.3g}", f"{x:.4f}", f"{x:.3f}", f"{x:.2e}"}
    # a short form like "0.5" or "1.5" also occurs in ordinary words; search for it only with enough digits
    return {f for f in forms if len(f.strip("-0.")) >= 3}


def test_every_public_check_has_a_case():
    assert {n for n in C.__all__ if n.startswith("check_")} == {CASES[k][0].__name__ for k in CASES}


@pytest.mark.parametrize("name", CASES)
def test_right_answer_passes_and_wrong_ones_fail(name):
    check, right, wrongs, _ = CASES[name]
    result = check(*right)
    assert isinstance(result, C.CheckResult) and result.correct and bool(result), str(result)
    assert all(p.ok for p in result.parts)
    for wrong in wrongs:
        bad = check(*wrong)
        assert isinstance(bad, C.CheckResult) and not bad.correct, (name, wrong)
        assert any(not p.ok for p in bad.parts) and bad.hint


@pytest.mark.parametrize("name", CASES)
def test_no_output_contains_the_expected_value(name):
    check, right, wrongs, expected = CASES[name]
    for answer in (right, *wrongs):
        text = renderings(check(*answer))
        for x in expected:
            for form in printed_forms(x):
                assert form not in text, f"{name}: {form!r} (expected value {x!r}) appears in\n{text}"


def test_feedback_writes_numbers_as_a_reader_does():
    """Tolerances in feedback read 10⁻⁶, never Python's 1e-06 (the book's one format for numbers)."""
    texts = {name: renderings(CASES[name][0](*CASES[name][1])) for name in CASES}
    for name, text in texts.items():
        assert not re.search(r"(?<![\w.])\d+(\.\d+)?e[-+]?\d+", text), f"{name}: exponent form in\n{text}"
    assert any("within 10⁻⁶ (relative)" in text for text in texts.values())
    assert not any("within 0 " in text for text in texts.values())


NONSENSE = [..., None, "x", float("nan"), float("inf"), [1.0, 2.0], {}, True, object(), lambda *a: 1 / 0]


@pytest.mark.parametrize("name", CASES)
def test_checks_never_raise_on_blank_or_invalid_input(name):
    """Blank answers (``...``, as the student notebook starts), wrong types, wrong counts, bad parameters:
    a CheckResult that is not correct, never an exception (whose traceback would show the computation)."""
    check, right, _, _ = CASES[name]
    for junk in NONSENSE:
        result = check(*[junk] * len(right))
        assert isinstance(result, C.CheckResult) and not result.correct, (name, junk)
    assert not check().correct and not check(*right, *right).correct
    if name not in ("transitivity", "def7"):
        assert not check(*right, eps=-1.0, no_such_parameter=3).correct


def test_verdict_and_hint_come_first():
    text = str(C.check_group_answer(1.5, 3e-3))
    lines = text.splitlines()
    assert lines[0].startswith("not yet") and lines[1].strip().startswith("hint:"), text
    assert "Traceback" not in text


def test_tolerance_is_described_as_applied():
    """An absolute tolerance reads 'absolute' with its size (Figure 3's counts: 0.5; Example 4.1: 0.005),
    never 'within 0 (relative)'."""
    fig3 = str(C.check_figure3_slip(44, 99))
    assert "within 0.5 (absolute)" in fig3 and "(relative)" not in fig3
    ex41 = str(C.check_example41_slip(0.0878, 0.9122))
    assert "within 0.005 (absolute)" in ex41
    assert "within 0.001 (relative)" in str(C.check_group_answer(1.5, 1e-3 * (1 + E(0.5) + E(1.0))))


def test_percentage_for_a_fraction_gets_a_hint():
    result = C.check_example41_slip(8.78, 91.22)
    assert not result.correct and str(result).count("percentage") == 2
    rr = C.check_rr_answer(math.log(3), 100 * mechanisms.randomized_response_delta(0.5, math.log(3)))
    assert "percentage" in str(rr) and not rr.correct


def test_epsilon_and_epsilon_prime_are_told_apart():
    """Theorem 3.9's step is graded: ε where ε′ is asked fails with a message naming it; the posterior at ε
    where Theorem 3.9's ε′ is asked fails."""
    swapped = C.check_profile_answer(EPS_PROFILE, EPS_FOR)
    assert [p.ok for p in swapped.parts] == [False, True]
    assert "ε′" in swapped.parts[0].feedback and "Theorem 3.9" in swapped.parts[0].feedback
    assert abs(EPS_PROFILE - EPS_PRIME_PROFILE) > 10 * 1e-4 * EPS_PROFILE  # far apart at δ = 10⁻³
    pdp = C.check_pdp_posterior(PDP_EPS, lambda p, e, d, d1: p / (p + (1 - p) * math.exp(-e)))
    assert [p.ok for p in pdp.parts] == [True, False]


def test_profile_needs_every_point():
    """The ε′ of one point of the profile (a non-binding prior) is too large, and is said to be."""
    one_point = math.log(0.2 / 0.8) - math.log(0.05 / 0.95)
    assert one_point > EPS_PRIME_PROFILE * 1.01
    result = C.check_profile_answer(one_point, EPS_FOR)
    assert not result.correct and "another point" in result.parts[0].feedback


def test_references_match_the_checks():
    """The references the hidden tests are made of agree with the checks: the right answers are inside their
    intervals, and each interval is as narrow as the tolerance."""
    for name, (check, right, _, _) in CASES.items():
        if name in ("def7",):
            continue
        refs = C.references(check.__name__)
        assert len(refs) == len(right), name
        for ref, answer in zip(refs, right):
            if isinstance(ref, C.Reference):
                lo, hi = ref.interval()
                assert lo <= float(answer) <= hi and hi - lo <= 2 * ref.tolerance * (1 + 1e-9), (name, ref.part)
            else:
                assert all(abs(answer(*a) - v) <= max(ref.atol, ref.rtol * abs(v))
                           for a, v in zip(ref.points, ref.values))
    with pytest.raises(ValueError, match="check_definition7_counterexample"):
        C.references("check_definition7_counterexample")


def test_loose_transitivity_answer_is_valid_but_not_tight():
    loose = C.check_transitivity_answer(lambda e, d: 2 * e, lambda e, d: 3 * np.exp(e) * d)
    assert not loose.correct and [p.ok for p in loose.parts] == [True, False]


def test_checks_are_not_in_the_mathematical_modules():
    for module in (causal, D, notions, semantic, mechanisms):
        kinds = ("answer", "effect", "formula", "counterexample")
        assert not [n for n in dir(module) if n.startswith("check_") and n.endswith(kinds)]


def test_parameters_are_keywords_never_positional_answers():
    """The old call check_relatives_effect(value, eps, k) let eps = 0 make the answer 0 correct; parameters are
    now keyword-only and default to the exercise's own values, so extra positional values are a wrong answer."""
    assert not C.check_relatives_effect(0.0, 0.0, 2).correct
    assert not C.check_relatives_effect(0.0).correct
    assert C.check_relatives_effect(2.1).correct and C.check_relatives_effect(2.1, eps=0.7, relatives=2).correct
    assert not C.check_byron_effect(0.0, 0.0).correct and not C.check_copies_answer(3, 0.5, 1.5).correct
