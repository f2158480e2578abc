"""The exercises' check functions: right answers pass, wrong ones fail, and nothing leaks the expected value."""

import dataclasses
import math
import re

import numpy as np
import pytest
from scipy.optimize import brentq

from dpsemantics import causal, conversions, mechanisms, notions, semantic
from dpsemantics import disclosure as D
from dpsemantics.book import coursework as C
from dpsemantics.claims import ks as ks_claims
from dpsemantics.mechanisms import FiniteMechanism, geometric_count

E = math.exp
RR08 = ks_claims.rr_one_record(0.8)
S08 = semantic.semantic_epsilon(RR08).epsilon
SIGMA_PAPER = math.sqrt(math.log(1 / 1e-5)) / 0.5
PROFILE = ([0.01, 0.2, 0.5, 0.9], [0.05, 0.5, 0.75, 0.97], 1e-7, 0.05)
EPS_PROFILE = D.epsilon_for_profile(*PROFILE)
PDP = conversions.pdp_epsilon(1.0, 1e-6, 0.01)
EPS_SIGMA2 = brentq(lambda e: mechanisms.gaussian_delta(e, 2.0) - 1e-6, 0, 20, xtol=1e-12)
DBS = [(0, 0), (0, 1), (1, 0), (1, 1)]
BAD = FiniteMechanism(np.array([[0.5, 0.5]] * 3 + [[1.0, 0.0]]), DBS, [0, 1])

# name: (check, right answer, wrong answers, the expected numbers that must never appear in any output)
CASES = {
    "transitivity": (C.check_transitivity_answer, (lambda e, d: 2 * e, lambda e, d: (1 + np.exp(e)) * d),
                     [(lambda e, d: 2 * e, lambda e, d: 2 * d), (lambda e, d: e, lambda e, d: 10 * d)], []),
    "gaussian": (C.check_gaussian_calibration, (EPS_SIGMA2, mechanisms.gaussian_sigma(0.5, 1e-6)),
                 [(2.0, 9.0), (None, "x")], [EPS_SIGMA2, mechanisms.gaussian_sigma(0.5, 1e-6)]),
    "group": (C.check_group_answer, (1.5, 1e-3 * (1 + E(0.5) + E(1.0))), [(1.5, 3e-3), (1.0, 1e-3)],
              [1.5, 1e-3 * (1 + E(0.5) + E(1.0))]),
    "rr": (C.check_rr_answer, (math.log(3), mechanisms.randomized_response_delta(0.5, math.log(3))), [(0.75, 0.1)],
           [math.log(3), mechanisms.randomized_response_delta(0.5, math.log(3))]),
    "name_and_shame": (C.check_name_and_shame, (0.01, 1 - 0.99**100), [(0.0, 0.01), (0.01, 1.0)], [0.01, 1 - 0.99**100]),
    "semantic": (C.check_semantic_formula, (lambda e, n: math.tanh(e / 4),), [(lambda e, n: math.expm1(e),), (3,)],
                 [math.tanh(x / 4) for x in (0.1, 0.5, 1.0, 2.0)]),
    "ks_converse": (C.check_ks_converse, (S08, RR08.delta(3 * S08)), [(0.2, 0.02)], [S08, RR08.delta(3 * S08)]),
    "eq4": (C.check_eq4_slip, (E(0.05), E(1.0) * 0.05), [(E(0.05), 0.05)], [E(0.05), E(1.0) * 0.05]),
    "a2": (C.check_gaussian_calibration_slip, (SIGMA_PAPER, mechanisms.gaussian_delta(0.5, SIGMA_PAPER)), [(SIGMA_PAPER, 1e-5)],
           [SIGMA_PAPER, mechanisms.gaussian_delta(0.5, SIGMA_PAPER)]),
    "count_semantic": (C.check_count_semantic, (math.tanh(0.5),), [(E(1.0) - 1,)], [math.tanh(0.5)]),
    "markov": (C.check_markov_leakage, (notions.bdp_leakage(mechanisms.local_randomized_response(2, 1.0), notions.markov_chain_prior(2, 0.9)),),
               [(1.0,), (2.0,)], [notions.bdp_leakage(mechanisms.local_randomized_response(2, 1.0), notions.markov_chain_prior(2, 0.9))]),
    "copies": (C.check_copies_answer, (3, 0.5, 1.5), [(3, 0.5, 0.5), (3, 0.5, float("nan"))], [1.5]),
    "family": (C.check_family_answer, (math.log((1 + E(1.0)) / 2),), [(1.0,)], [math.log((1 + E(1.0)) / 2)]),
    "replace": (C.check_replace_reading, (math.tanh(0.25), 3.0), [(3.0, 3.0)], [math.tanh(0.25)]),
    "byron": (C.check_byron_effect, (0.5, 0.5), [(1.0, 0.5)], [0.5]),
    "def7": (C.check_definition7_counterexample, (BAD, np.full((2, 2), 0.25)), [(geometric_count(2, 0.5), np.full((2, 2), 0.25))],
             [math.log(2)]),
    "relatives": (C.check_relatives_effect, (1.5, 0.5, 2), [(0.5, 0.5, 2)], [1.5]),
    "def9": (C.check_definition9_slip, (E(0.5),), [(E(-1),)], [E(0.5)]),
    "def4": (C.check_definition4_slip, (1.5,), [(0.5,)], [1.5]),
    "profile": (C.check_profile_answer, (EPS_PROFILE, *PROFILE), [(EPS_PROFILE * 1.2, *PROFILE), (EPS_PROFILE * 0.8, *PROFILE)],
                [EPS_PROFILE]),
    "peak": (C.check_difference_peak, (1 / (1 + E(1.5)), math.tanh(0.75)), [(0.5, math.tanh(0.75))], [1 / (1 + E(1.5)), math.tanh(0.75)]),
    "laplace": (C.check_laplace_answer, (0.3 / (0.3 + 0.7 * E(-0.5)), 0.5, E(-0.5) / 2), [(0.4, 0.5, 0.5)],
                [0.3 / (0.3 + 0.7 * E(-0.5)), E(-0.5) / 2]),
    "figure3": (C.check_figure3_slip, (28, 45), [(28, 96)], [45]),
    "example41": (C.check_example41_slip, (0.1638, 0.8362), [(0.19, 0.81)], [0.1638, 0.8362]),
    "pdp": (C.check_pdp_posterior, (PDP, float(D.posterior_bounds(0.1, PDP)[1])), [(1.0, 0.5)], [PDP, float(D.posterior_bounds(0.1, PDP)[1])]),
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
    assert set(C.__all__) - {"Part", "CheckResult"} == {CASES[k][0].__name__ for k in CASES}


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


def test_checks_never_raise_on_nonsense():
    assert not C.check_laplace_answer(float("nan"), None, "x").correct
    assert not C.check_byron_effect(..., 0.5).correct
    assert not C.check_transitivity_answer(1, 2).correct
    assert not C.check_definition7_counterexample("mechanism", None).correct


def test_profile_feedback_says_which_way_without_the_value():
    assert "too large" in str(C.check_profile_answer(EPS_PROFILE * 1.2, *PROFILE))
    assert "too small" in str(C.check_profile_answer(EPS_PROFILE * 0.8, *PROFILE))


def test_loose_transitivity_answer_is_valid_but_not_tight():
    loose = C.check_transitivity_answer(lambda e, d: 2 * e, lambda e, d: 3 * np.exp(e) * d)
    assert not loose.correct and [p.ok for p in loose.parts] == [True, False]


def test_checks_are_not_in_the_mathematical_modules():
    for module in (causal, D, notions, semantic, mechanisms):
        assert not [n for n in dir(module) if n.startswith("check_") and n.endswith(("answer", "effect", "formula", "counterexample"))]
