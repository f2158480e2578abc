"""Outward rounding without exceptions (issue 40): the safe-side rule over the whole public surface.

The rule (book/numerics.md, "The safe-side rule"): an ε, δ or ρ that is claimed to hold is never below the exact
value; the largest ε a budget allows never above it; a σ never below the smallest σ that works; a bound on a
posterior, a ratio or a difference widened on both sides; and a positive exact value is never returned as 0.

This file ENUMERATES the public surface — every function in the ``__all__`` of the mathematical modules and every
public method of their classes (:func:`public_names`) — and requires each name to stand in :data:`TABLE` with one of

* a safe direction (``up``, ``down``, ``both``) and the hostile cases that check it: ``HERE`` (the tests below, each
  registered by :func:`checks`, against references computed apart from the package — ``fractions.Fraction`` on the
  exact values of the float inputs, or mpmath at 80 digits — and compared without tolerance) or the test file that
  holds them (it must exist and name the function);
* an exemption with its reason (a bool, a table, an object, the law itself, numbers returned as given);
* ``OPEN``: a number a guarantee may read whose outward rounding is not shown yet — issue 40's remaining work,
  listed by name so that the list can only shrink knowingly.

A new public function that is in none of them fails :func:`test_every_public_name_is_in_the_table`.

The hostile cases: the reproducers the referee's report names (it found 308 results one ulp below the exact value
and 14 results of 0 where it is positive), seeded random searches of several thousand inputs that include many on
which the float operation rounded to nearest falls one ulp short (the searches assert that they do reach such
inputs, so they cannot pass by missing them), subnormal inputs and k up to 10⁹.
"""

from __future__ import annotations

import inspect
import math
import re
import types
from fractions import Fraction
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest
from _support.exact import mp_of, mpf

from dpsemantics import (causal, composition, conversions, disclosure, indistinguishability, mechanisms, notions,
                         pld, privacy_loss, releases, semantic)

MODULES = [composition, conversions, mechanisms, privacy_loss, pld, semantic, disclosure, notions,
           indistinguishability, causal, releases]
TESTS = Path(__file__).resolve().parents[1]  # tests/
TINY = 5e-324  # the smallest positive float


@pytest.fixture(autouse=True)
def _digits():
    with mp.workdps(80):
        yield


# ------------------------------------------------------------------------------------------------ the enumeration


def public_names(modules=MODULES) -> set[str]:
    """``module.function`` for every function of each module's ``__all__``, and ``module.Class.method`` for every
    public method, class method, static method and property that a class of ``__all__`` defines itself."""
    names = set()
    for mod in modules:
        short = mod.__name__.rsplit(".", 1)[-1]
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isfunction(obj):
                names.add(f"{short}.{name}")
            elif inspect.isclass(obj):
                for attr, value in vars(obj).items():
                    if not attr.startswith("_") and (inspect.isfunction(value) or isinstance(
                            value, (classmethod, staticmethod, property))):
                        names.add(f"{short}.{name}.{attr}")
    return names


HERE = "here"
CHECKED: dict[str, list[str]] = {}  # name → the tests below that check it


def checks(*names):
    """Register the decorated test as a check of ``names`` (entries of TABLE marked HERE)."""
    def mark(test):
        for name in names:
            CHECKED.setdefault(name, []).append(test.__name__)
        return test
    return mark


def exempt(reason: str):
    return ("exempt", reason)


def open_(reason: str):
    return ("open", reason)


OBJECT = "returns an object (a mechanism, a law, a lattice, a model or a distribution); its numbers are checked " \
         "where they are read"
TABLE_ = "returns a table, a mask, an index, a witness or a list of cases for the chapters, not a bound"
BOOL = "returns a bool"
TEXT = "returns text"
LAW = "the law itself (a pmf, density, cdf, quantile, posterior or probability of an event under it), to nearest: " \
      "no side of it is safe; the bounds built on it carry the outward step"
GIVEN = "returns numbers it was given, unchanged (no arithmetic to round)"
TUNING = "a tuning quantity (a lattice step or width, a spread): the bounds computed with it are safe at any value"
ARGMAX = "an argument (where a bound is extreme), not a bound: the bounds at every argument are checked"
DELEGATES = "returns a δ(ε) function that calls a function checked in its own row (loss(k).delta, optimal_delta, " \
            "zcdp_delta at a ρ rounded up)"
MEASURED = "a finite mechanism's or model's measured parameter (sums, maxima, searches in floats, to nearest) for " \
           "the chapters' comparisons; not yet shown outward"
CLOSED = "a paper's closed form evaluated to nearest; not yet rounded outward"

_NOTIONS_OUTWARD = "unit/notions/test_notions_outward.py"
_SEMANTIC_OUTWARD = "unit/semantic/test_semantic_outward.py"
_SEMANTIC_MEASURED = "unit/semantic/test_semantic_measured_outward.py"
_SAFE = "unit/test_safe_direction.py"
_DISCLOSURE_OUTWARD = "unit/disclosure/test_disclosure_outward.py"
_LOSS_OUTWARD = "unit/privacy_loss/test_privacy_loss_outward.py"
_CONVERSIONS_OUTWARD = "unit/conversions/test_conversions_outward.py"
_REST = "unit/test_outward_rounding_rest.py"

#: name → (direction, HERE or a test file under tests/) | ("exempt", reason) | ("open", reason)
TABLE = {
    # composition
    "composition.basic_epsilon": ("up", HERE),
    "composition.basic_delta": ("up", HERE),
    "composition.advanced_epsilon": ("up", HERE),
    "composition.advanced_epsilon_heterogeneous": ("up", HERE),
    "composition.zcdp_compose": ("up", HERE),
    "composition.composed_epsilon_by": ("up", HERE),
    "composition.optimal_delta": ("up", _SAFE),
    "composition.optimal_log_delta": ("up", "unit/composition/test_composition_allowance.py"),
    "composition.optimal_epsilon": ("up", _SAFE),
    "composition.lattice_optimal_epsilon": ("up", _SAFE),
    "composition.max_eps0": ("down", "unit/composition/test_composition_max_eps0.py"),
    "composition.optimal_lattice": ("up", _REST),  # the pair (ε, δ): both rounded up
    # conversions
    "conversions.pdp_epsilon": ("up", _SAFE),
    "conversions.pdp_delta": ("up", _DISCLOSURE_OUTWARD),
    "conversions.pure_to_zcdp": ("up", HERE),
    "conversions.zcdp_epsilon": ("up", _CONVERSIONS_OUTWARD),
    "conversions.zcdp_delta": ("up", _CONVERSIONS_OUTWARD),
    "conversions.zcdp_gaussian_delta": ("up", _CONVERSIONS_OUTWARD),
    "conversions.pdp_to_dp": exempt(GIVEN),
    "conversions.profile_pdp_epsilon": ("up", _REST),  # ε′ at the point (ε, δ(ε)) it names
    # mechanisms
    "mechanisms.laplace_delta": ("up", HERE),
    "mechanisms.randomized_response_delta": ("up", HERE),
    "mechanisms.name_and_shame_exposure": ("up", HERE),
    "mechanisms.gaussian_log_delta": ("up", HERE),
    "mechanisms.gaussian_delta": ("up", "unit/mechanisms/test_mechanisms_outward.py"),
    "mechanisms.gaussian_epsilon": ("up", "unit/releases/test_releases.py"),
    "releases.Mechanism.profile_epsilon": exempt("returns None: the default, where no closed-form inverse exists and "
                                                 "the profile is inverted by the checked epsilon route"),
    "mechanisms.gaussian_sigma": ("up", _SAFE),
    **dict.fromkeys(["mechanisms.FiniteMechanism.delta", "mechanisms.FiniteMechanism.epsilon"],
                    ("up", _SEMANTIC_MEASURED)),
    "mechanisms.FiniteMechanism.is_dp": exempt(BOOL),
    "mechanisms.hamming_adjacent": exempt(BOOL),
    **dict.fromkeys(["mechanisms.FiniteMechanism.row", "mechanisms.FiniteMechanism.record_domain",
                     "mechanisms.FiniteMechanism.adjacent_pairs"], exempt(TABLE_)),
    **dict.fromkeys(["mechanisms.FiniteMechanism.compose", "mechanisms.FiniteMechanism.from_function",
                     "mechanisms.randomized_response", "mechanisms.local_randomized_response",
                     "mechanisms.geometric_count", "mechanisms.name_and_shame",
                     "mechanisms.one_record_randomized_response", "mechanisms.leaky_randomized_response"],
                    exempt(OBJECT)),
    **dict.fromkeys(["mechanisms.two_sided_geometric_pmf", "mechanisms.laplace_density", "mechanisms.gaussian_density",
                     "mechanisms.clamped_geometric_pmf"], exempt(LAW)),
    # privacy_loss
    **dict.fromkeys([f"privacy_loss.PrivacyLoss.{m}" for m in ("hockey_stick", "delta", "epsilon", "pdp_delta",
                                                               "pdp_epsilon")], ("up", _LOSS_OUTWARD)),
    "privacy_loss.PrivacyLoss.lattice": ("both", _LOSS_OUTWARD),
    "privacy_loss.PrivacyLoss.rho": ("up", HERE),
    **dict.fromkeys([f"privacy_loss.PrivacyLoss.{m}" for m in ("cdf", "cdf_left", "ppf", "sf", "isf", "prob_between",
                                                               "prob_abs_greater")], exempt(LAW)),
    **dict.fromkeys([f"privacy_loss.PrivacyLoss.{m}" for m in ("dual", "finite", "randomized_response", "laplace",
                                                               "gaussian", "geometric")], exempt(OBJECT)),
    "privacy_loss.pair_losses": exempt(LAW),
    # pld
    "pld.PrivacyLossDistribution.delta": ("up", "unit/test_pld.py"),
    "pld.PrivacyLossDistribution.epsilon": ("up", "unit/test_pld.py"),
    "pld.PrivacyLossDistribution.delta_bounds": ("both", "unit/test_pld.py"),
    "pld.PrivacyLossDistribution.epsilon_bounds": ("both", "unit/test_pld.py"),
    "pld.PrivacyLossDistribution.tail_bounds": ("both", _REST),
    "pld.PrivacyLossDistribution.tail_bounds_on_lattice": ("both", _REST),
    "pld.tilted_self_composition": ("up", _REST),  # a δ(ε) function the release model reads as a guarantee
    **dict.fromkeys([f"pld.PrivacyLossDistribution.{m}" for m in (
        "optimistic", "laplace", "gaussian", "randomized_response", "geometric", "approximate_dp", "from_atoms",
        "mixture", "compose", "self_compose")], exempt(OBJECT)),
    # disclosure
    "disclosure.prior_difference_bounds": ("both", HERE),
    "disclosure.posterior_bounds": ("both", _DISCLOSURE_OUTWARD),
    "disclosure.ratio_bounds": ("both", _DISCLOSURE_OUTWARD),
    "disclosure.prior_ratio_bounds": ("both", _DISCLOSURE_OUTWARD),
    "disclosure.difference_bound": ("up", _DISCLOSURE_OUTWARD),
    "disclosure.symmetric_ratio_bounds": ("both", _DISCLOSURE_OUTWARD),
    "disclosure.symmetric_difference_bound": ("up", _DISCLOSURE_OUTWARD),
    "disclosure.dp_epsilon_for_pdp": ("down", _SAFE),
    "disclosure.epsilon_for_difference": ("down", _SAFE),
    "disclosure.epsilon_for_ratio": ("down", _SAFE),
    "disclosure.epsilon_for_posterior": ("down", _SAFE),
    "disclosure.lattice_optimal_epsilon": ("up", _SAFE),
    "disclosure.zcdp_eps_prime": ("up", HERE),
    "disclosure.best_zcdp_pdp_epsilon": ("up", HERE),
    "disclosure.composed_epsilon": ("up", HERE),
    "disclosure.per_release_epsilon": ("down", HERE),
    "disclosure.epsilon_for_profile": ("down", _REST),
    "disclosure.composed_posterior_bound": ("up", _REST),
    "disclosure.approximate_bounds": ("both", _REST),
    "disclosure.DisclosureBounds.confidence": ("down", _REST),  # 1 − δ′, the probability the bounds hold with
    "disclosure.epsilon_tilde": ("up", _REST),  # Theorem 3.5(2): the mechanism is (ε̃, δ)-PDP
    # the boundary of the leave event: by default (side="outer") around the exact interval, side="inner" inside
    # it; a loss between them is decided exactly by leaves, which is what the claims read
    "disclosure.leave_thresholds": ("both", "unit/disclosure/test_disclosure_leave_thresholds.py"),
    "disclosure.leaves": exempt(BOOL),  # decided exactly (interval arithmetic), checked in the same file
    "disclosure.pair_hockey": ("up", _SEMANTIC_MEASURED),
    "disclosure.pair_pdp_delta": ("up", HERE),
    "disclosure.worst_case_prior": exempt(ARGMAX),
    "disclosure.first_exceeding": exempt(TABLE_),
    "disclosure.explain": exempt(TEXT),
    "disclosure.counterexample_a6": exempt(OBJECT),
    **dict.fromkeys(["disclosure.logit", "disclosure.posterior_from_privacy_loss", "disclosure.bayes_posterior",
                     "disclosure.posterior_interval_probability", "disclosure.ratio_interval_probability",
                     "disclosure.difference_interval_probability", "disclosure.posterior_quantile"], exempt(LAW)),
    # semantic
    **dict.fromkeys([f"semantic.{n}" for n in ("thm22_epsilon", "thm22_proof_epsilon", "tight_semantic_epsilon",
                                               "thm22_converse_epsilon", "tight_converse_epsilon",
                                               "two_point_converse_epsilon")], ("up", _SEMANTIC_OUTWARD)),
    **dict.fromkeys([f"semantic.{n}" for n in ("thm24_parameters", "thm24_proof_epsilon", "thm24_converse_parameters",
                                               "conditioning_delta", "corrected_conditioning_delta",
                                               "thm24_repaired_delta", "testing_bound", "thm42_parameters",
                                               "max_sd_bound", "tight_max_sd", "paper_gaussian_sigma")],
                    ("up", HERE)),
    **dict.fromkeys(["semantic.thm24_max_delta", "semantic.thm24_repaired_delta_hat"], ("down", HERE)),
    # Theorem A.2's counterexample: its SD and δ′ witness how far and how often reality-oblivious privacy fails
    # (the claim ks-a2-counterexample reads δ′ ≈ 1), so they are never overstated
    **dict.fromkeys(["semantic.dwork_mcsherry_delta", "semantic.dwork_mcsherry_sd"], ("down", _SEMANTIC_MEASURED)),
    # measured SDs, ε and δ of finite mechanisms claimed to hold; the Neyman–Pearson power is an adversary's success
    # (compared with the bound e^ε α + δ); a local sensitivity enlarges Corollary 4.4's bad mass b(LS > s)
    **dict.fromkeys([f"semantic.{n}" for n in ("log_ratio_spread", "tilt_statistical_difference",
                                               "statistical_difference", "semantic_epsilon", "semantic_delta",
                                               "reality_oblivious_delta", "conditioning_bad_mass",
                                               "informed_semantic_epsilon", "most_powerful_power", "pointwise_delta",
                                               "local_sensitivity")], ("up", _SEMANTIC_MEASURED)),
    **dict.fromkeys([f"semantic.{n}" for n in ("games", "game_likelihoods", "game_weights", "posterior",
                                               "semantic_profile", "informed_rows")], exempt(TABLE_)),
    **dict.fromkeys([f"semantic.{n}" for n in ("random_index_mechanism", "smoking_study", "leaky_count",
                                               "median_mechanism")], exempt(OBJECT)),
    # notions
    "notions.membership_privacy_lemma1": ("up", _SEMANTIC_OUTWARD),
    **dict.fromkeys([f"notions.{n}" for n in ("zhao_converse_level", "ks_converse_level", "tight_converse_level")],
                    ("down", HERE)),
    "notions.improvement_range_end": exempt("the crossing point of two levels (Brent's root), not a bound: the "
                                            "levels on either side are checked"),
    **dict.fromkeys([f"notions.{n}" for n in ("membership_g", "theorem4_threshold", "scaled_posterior_ratio")],
                    ("down", _NOTIONS_OUTWARD)),
    **dict.fromkeys([f"notions.{n}" for n in ("bdp_leakage", "bdp_leakage_by_adversary", "bayesian_semantic_privacy",
                                              "semantic_privacy", "sup_statistical_difference",
                                              "membership_ratios_direct", "membership_privacy_direct",
                                              "membership_privacy", "membership_privacy_of")],
                    ("up", _NOTIONS_OUTWARD)),
    **dict.fromkeys([f"notions.{n}" for n in ("adversaries", "conditional_likelihood", "membership_pairs")],
                    exempt(TABLE_)),
    **dict.fromkeys([f"notions.{n}" for n in ("independent_prior", "markov_chain_prior", "copies_prior",
                                              "uniform_prior", "xor_randomized_response")], exempt(OBJECT)),
    # indistinguishability
    "indistinguishability.zcdp_rho": ("up", "unit/indistinguishability/test_indistinguishability.py"),
    "indistinguishability.zcdp_rho_bracket": ("both", "unit/indistinguishability/test_indistinguishability.py"),
    **dict.fromkeys(["indistinguishability.transitivity_parameters", "indistinguishability.group_parameters"],
                    ("up", HERE)),
    "indistinguishability.transitivity_delta_limit": ("down", HERE),
    **dict.fromkeys([f"indistinguishability.{n}" for n in ("hockey_stick", "smallest_delta", "smallest_epsilon",
                                                           "total_variation", "max_divergence", "event_violation",
                                                           "smallest_delta_over_events")],
                    ("up", "unit/indistinguishability/test_indistinguishability_outward.py")),
    "indistinguishability.is_indistinguishable": exempt(BOOL),
    **dict.fromkeys(["indistinguishability.worst_event", "indistinguishability.transitivity_witness"],
                    exempt(TABLE_)),
    # causal (Tschantz et al.): the ε of a definition at a finite model, an ε (or RP ≤ e^ε) claimed to hold: the
    # probabilities exact in rationals, the largest ratio exact, its log rounded once, up (0 and ∞ stay exact)
    **dict.fromkeys([f"causal.{n}" for n in ("relative_probability", "max_relative_probability", "effect_size",
                                             "brp_epsilon", "definition_epsilon", "universal_epsilon",
                                             "definition_epsilon_sem", "relatives_effect", "log_ratio_by_value",
                                             "interference_epsilon", "adversary_learning", "path_effects",
                                             "nondisclosure_epsilon")], ("up", "unit/causal/test_causal_outward.py")),
    **dict.fromkeys([f"causal.{n}" for n in ("prog_a_model", "survey_model", "prog_status_model", "sequence_model",
                                             "appendix_b_mechanism", "proposition4_mechanism", "exact_count",
                                             "randomized_response_model", "inheritance_model",
                                             "inheritance_population", "nondisclosing_example")] +
                    [f"causal.StructuralModel.{m}" for m in ("uniform_population", "independent_population",
                                                             "point_populations", "submodel")], exempt(OBJECT)),
    **dict.fromkeys(["causal.mechanism_tensor", "causal.candidate_populations", "causal.posterior",
                     "causal.StructuralModel.edges", "causal.StructuralModel.descendants"], exempt(TABLE_)),
    **dict.fromkeys(["causal.StructuralModel.joint", "causal.StructuralModel.probability",
                     "causal.StructuralModel.distribution"], exempt(LAW)),
    "causal.StructuralModel.check_population": exempt(GIVEN),
    "causal.pairwise_conditionally_independent": exempt(BOOL),
    # releases
    **dict.fromkeys([f"releases.{c}.rho" for c in ("Mechanism", "Laplace", "Gaussian", "Geometric",
                                                   "RandomizedResponse", "ApproxDP", "ZCDP", "DiscreteGaussian",
                                                   "Composed")], ("up", HERE)),
    **dict.fromkeys([f"releases.{c}.pure_epsilon" for c in ("Mechanism", "Laplace", "Geometric", "RandomizedResponse",
                                                            "ApproxDP", "Composed")], ("up", HERE)),
    **dict.fromkeys([f"releases.{c}.reveal" for c in ("Mechanism", "ApproxDP", "Composed")], ("up", HERE)),
    **dict.fromkeys([f"releases.{c}.group_of_two" for c in ("Mechanism", "Gaussian", "ApproxDP")], ("up", HERE)),
    **dict.fromkeys(["releases.ZCDP.merge", "releases.ZCDP.profile", "releases.Gaussian.build",
                     "releases.Gaussian.profile_epsilon"], ("up", HERE)),
    **dict.fromkeys([f"releases.{c}.stated_point" for c in ("Mechanism", "Gaussian", "ApproxDP", "ZCDP",
                                                            "DiscreteGaussian")], exempt(GIVEN)),
    **dict.fromkeys([f"releases.{c}.profile" for c in ("Mechanism", "Laplace", "Gaussian", "Geometric",
                                                       "RandomizedResponse", "ApproxDP")], exempt(DELEGATES)),
    **dict.fromkeys(["releases.Mechanism.delta", "releases.Mechanism.epsilon", "releases.Mechanism.pdp_epsilon",
                     "releases.Composed.delta", "releases.Composed.epsilon", "releases.Composed.pdp_epsilon",
                     "releases.Composed.delta_routes", "releases.Composed.epsilon_routes",
                     "releases.Composed.single_point", "releases.Composed.best_point", "releases.Composed.exact",
                     "releases.Mechanism.exact_threshold", "releases.Gaussian.exact_threshold"], ("up", HERE)),
    "releases.Composed.profile": exempt(DELEGATES),
    **dict.fromkeys([f"releases.{c}.{m}" for c, m in (
        ("Mechanism", "pld_step"), ("Mechanism", "pld_unit"), ("Mechanism", "spread"), ("Laplace", "spread"),
        ("Gaussian", "pld_step"), ("Gaussian", "spread"), ("Geometric", "pld_unit"), ("Geometric", "spread"),
        ("RandomizedResponse", "spread"), ("ApproxDP", "pld_step"), ("ApproxDP", "spread"), ("ZCDP", "spread"),
        ("DiscreteGaussian", "spread"), ("Composed", "spread"))], exempt(TUNING)),
    **dict.fromkeys([f"releases.{c}.{m}" for c, m in (
        ("Mechanism", "from_fields"), ("Mechanism", "build"), ("Mechanism", "loss"), ("Mechanism", "pld"),
        ("Mechanism", "merge"), ("Mechanism", "repeat"), ("Laplace", "loss"), ("Laplace", "pld"),
        ("Gaussian", "calibrated"), ("Gaussian", "loss"), ("Gaussian", "pld"),
        ("Gaussian", "merge"), ("Geometric", "loss"), ("Geometric", "pld"), ("RandomizedResponse", "loss"),
        ("RandomizedResponse", "pld"), ("ApproxDP", "pld"), ("Composed", "repeat"), ("Composed", "merged"))] +
        ["releases.from_fields"], exempt(OBJECT)),
    **dict.fromkeys(["releases.Mechanism.describe", "releases.Composed.describe", "releases.Field.range_text"],
                    exempt(TEXT)),
    **dict.fromkeys(["releases.Field.domain", "releases.Field.check", "releases.Mechanism.parameters",
                     "releases.Gaussian.parameters", "releases.Composed.parameters", "releases.Composed.runs",
                     "releases.Composed.guarantee_only"], exempt("a declaration or the parameters as given (the "
                                                                 "report's fields, a count of runs, a flag)")),
    "releases.Gaussian.mu": exempt("the privacy-loss law's mean (a parameter of the law, to nearest); the guarantee "
                                   "ρ is rho(), rounded up"),
}


def test_every_public_name_is_in_the_table():
    names = public_names()
    missing = sorted(names - TABLE.keys())
    assert not missing, f"public names with no row in TABLE (a safe direction and cases, or a reason): {missing}"
    assert not sorted(TABLE.keys() - names), "TABLE names what is no longer public"


def test_a_new_public_function_fails_the_enumeration():
    """The enumeration sees a function the moment it enters an ``__all__`` (a stand-in module with one new name)."""
    stand = types.ModuleType("dpsemantics.composition")
    for name in composition.__all__:
        setattr(stand, name, getattr(composition, name))

    def brand_new_epsilon(eps0, k):
        return k * eps0
    stand.brand_new_epsilon = brand_new_epsilon
    stand.__all__ = [*composition.__all__, "brand_new_epsilon"]
    assert public_names([stand]) - TABLE.keys() == {"composition.brand_new_epsilon"}


def test_every_row_is_backed():
    for name, (kind, where) in TABLE.items():
        if kind in ("exempt", "open"):
            assert where.strip(), name
            continue
        assert kind in ("up", "down", "both"), name
        if where == HERE:
            assert CHECKED.get(name), f"{name} is marked HERE but no test below checks it"
        else:
            text = (TESTS / where).read_text()
            assert re.search(rf"\b{re.escape(name.rsplit('.', 1)[-1])}\b", text), f"{where} does not name {name}"
    assert not CHECKED.keys() - TABLE.keys()


#: the number of OPEN rows: it may only go down (a row leaves OPEN when its cases are written); a new public function
#: that returns a guarantee's number enters checked, not open
OPEN_ROWS = 0


def test_the_open_rows_only_shrink():
    opened = sorted(name for name, (kind, _) in TABLE.items() if kind == "open")
    assert len(opened) <= OPEN_ROWS, f"{len(opened) - OPEN_ROWS} new OPEN rows: check them instead ({opened})"


# ------------------------------------------------------------------------------------------------ references


def exact(x) -> Fraction:
    """The exact value of a float."""
    return Fraction(float(x))


def at_least(got, want) -> bool:
    """got ≥ want exactly, for a float ``got`` and a Fraction or an mpf ``want``."""
    if math.isinf(got):
        return got > 0
    return (exact(got) >= want) if isinstance(want, Fraction) else (mpf(got) >= want)


def positive_if(got, want) -> bool:
    """A positive exact value is not returned as 0 (nor below)."""
    return not want > 0 or got > 0


RNG_SEED = 40  # the number: the searches below are reproducible


def _uniform_k(rng, n):
    return np.concatenate([rng.integers(1, 10**9 + 1, n // 2), rng.integers(1, 10**4, n - n // 2)])


def _nearest_low(values, products) -> int:
    """How many floats rounded to nearest (``values``) fall below their exact value (``products``): the search is
    hostile only if this is positive."""
    return sum(exact(v) < p for v, p in zip(values, products))


# ------------------------------------------------------------------------------------------------ composition


NAMED = [(0.3, 3), (0.1, 3), (0.7, 7), (1 / 3, 999999937), (0.3, 10**9), (TINY, 10**9), (1e-300, 3), (1.0, 1),
         (2.2250738585072014e-308, 7)]


@checks("composition.basic_epsilon", "composition.basic_delta")
def test_basic_composition_is_never_below_k_times():
    assert exact(composition.basic_epsilon(0.3, 3)) >= 3 * exact(0.3)  # the referee's: fl(0.9) is one ulp low
    assert exact(composition.basic_delta(3e-9, 99)) >= 99 * exact(3e-9)
    rng = np.random.default_rng(RNG_SEED)
    n = 4000
    base = np.concatenate([rng.uniform(0, 1, n // 2), 10.0 ** rng.uniform(-320, 2, n // 2)])
    k = _uniform_k(rng, n)
    want = [int(j) * exact(b) for j, b in zip(k, base)]
    assert _nearest_low(k.astype(float) * base, want) > n // 10  # the float product is low on many of them
    for fn in (composition.basic_epsilon, composition.basic_delta):
        args = (base, k) if fn is composition.basic_epsilon else (np.minimum(base, 1.0), k)
        got = fn(*args)  # vectorised: one call
        assert isinstance(got, np.ndarray) and got.shape == (n,)
        w = want if fn is composition.basic_epsilon else [int(j) * exact(b) for j, b in zip(k, args[0])]
        assert all(at_least(g, x) and positive_if(g, x) for g, x in zip(got, w))
        # one ulp at most above (in the normal range; below it the step is one subnormal ulp)
        assert all(exact(g) <= x * (1 + Fraction(1, 2**51)) for g, x in zip(got, w) if x > Fraction(2) ** -960)
    for b, j in NAMED:
        assert at_least(composition.basic_epsilon(b, j), j * exact(b)), (b, j)
        assert at_least(composition.basic_delta(min(b, 1.0), j), j * exact(min(b, 1.0))), (b, j)
    assert composition.basic_epsilon(0.0, 10**9) == 0.0 and composition.basic_epsilon(1e300, 10**9) == math.inf


def ref_advanced(eps0, k, slack):
    """Kazan et al., Theorem 2.8(2) homogeneous: kε₀(e^{ε₀} − 1) + ε₀√(2k log(1/slack)); ``slack`` an mpf."""
    e = mpf(eps0)
    return k * e * mp.expm1(e) + e * mp.sqrt(2 * k * -mp.log(slack))


@checks("composition.advanced_epsilon")
def test_advanced_epsilon_is_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 1)
    n = 2000
    eps0 = np.concatenate([10.0 ** rng.uniform(-9, 1, n - 4), [TINY, 1e-300, 700.0, 0.0]])
    k = _uniform_k(rng, n)
    slack = 10.0 ** rng.uniform(-300, -0.01, n)
    got = composition.advanced_epsilon(eps0, k, slack)
    for g, e, j, s in zip(got, eps0, k, slack):
        want = ref_advanced(e, int(j), mpf(s))
        assert at_least(g, want) and positive_if(g, want), (e, j, s)


def ref_heterogeneous(eps_list, delta, delta_list):
    slack = mp_of(exact(delta) - sum(exact(d) for d in delta_list))
    eps = [mpf(e) for e in eps_list]
    return mp.fsum(e * mp.expm1(e) for e in eps) + mp.sqrt(2 * mp.fsum(e * e for e in eps) * -mp.log(slack))


@checks("composition.advanced_epsilon_heterogeneous")
def test_advanced_epsilon_heterogeneous_is_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 2)
    cases = [([0.1, 0.2], 1e-6, [0.0, 0.0]), ([TINY], 0.5, [0.0]), ([TINY, 1e-320], 1 - 2**-53, [0.0, 0.0]),
             ([1e-200] * 3, 1e-10, [3e-11, 3e-11, 3e-11]), ([0.3] * 1000, 1e-9, [1e-13] * 1000),
             ([1e-160, 1.0], 1e-300, [0.0, 0.0]), ([0.0, 0.0], 0.5, [0.1, 0.1])]
    for _ in range(1500):
        m = int(rng.integers(1, 30))
        eps = list(10.0 ** rng.uniform(-12, 0.5, m))
        deltas = list(rng.choice([0.0, 1.0], m) * 10.0 ** rng.uniform(-14, -7, m))
        cases.append((eps, float(sum(deltas)) + float(10.0 ** rng.uniform(-300, -0.5)), deltas))
    for eps, delta, deltas in cases:
        if exact(delta) <= sum(exact(d) for d in deltas):  # no slack left in exact arithmetic: refused
            with pytest.raises(ValueError, match="delta"):
                composition.advanced_epsilon_heterogeneous(eps, delta, deltas)
            continue
        got = composition.advanced_epsilon_heterogeneous(eps, delta, deltas)
        want = ref_heterogeneous(eps, delta, deltas)
        assert at_least(got, want) and positive_if(got, want), (eps[:3], delta)
        assert mpf(got) <= want * (1 + mp.mpf(2) ** -45) or want < 1e-300, (eps[:3], delta)  # still tight
    with pytest.raises(ValueError, match="delta"):
        composition.advanced_epsilon_heterogeneous([0.1], 1e-6, [1e-6])  # no slack
    with pytest.raises(ValueError, match="eps_list"):
        composition.advanced_epsilon_heterogeneous([-0.1], 1e-6)


@checks("composition.zcdp_compose")
def test_zcdp_compose_is_never_below_the_exact_sum():
    assert at_least(composition.zcdp_compose(0.3, 999999937), 999999937 * exact(0.3))  # the referee's
    rng = np.random.default_rng(RNG_SEED + 3)
    n = 4000
    rho = np.concatenate([rng.uniform(0, 1, n // 2), 10.0 ** rng.uniform(-320, 3, n // 2)])
    k = _uniform_k(rng, n)
    want = [int(j) * exact(r) for j, r in zip(k, rho)]
    assert _nearest_low(k * rho, want) > n // 10
    got = composition.zcdp_compose(rho, k)
    assert isinstance(got, np.ndarray) and got.shape == (n,)
    assert all(at_least(g, w) and positive_if(g, w) for g, w in zip(got, want))
    lows = 0
    for _ in range(3000):  # lists: the float sum is low on many of them, the package never
        terms = list(10.0 ** rng.uniform(-8, 1, int(rng.integers(2, 40))))
        total = sum(exact(t) for t in terms)
        lows += exact(float(np.sum(terms))) < total
        got = composition.zcdp_compose(terms)
        assert at_least(got, total) and exact(math.nextafter(got, 0.0)) < total, terms[:3]  # the float just above
    assert lows > 300
    assert composition.zcdp_compose([TINY, TINY]) == 1e-323 and composition.zcdp_compose([1e308, 1e308]) == math.inf
    with pytest.raises(ValueError, match="rhos"):
        composition.zcdp_compose([0.1, -0.1])


@checks("composition.composed_epsilon_by", "disclosure.composed_epsilon")
def test_composed_epsilon_by_basic_and_advanced_are_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 4)
    for _ in range(400):
        eps0, k = float(rng.uniform(0, 1)), int(rng.integers(1, 10**6))
        delta0 = float(10.0 ** rng.uniform(-15, -8))
        delta = float(k * delta0 * (1 + 10.0 ** rng.uniform(-15, 0)))
        slack = exact(delta) - k * exact(delta0)
        if slack > 0 and slack < 1:
            got = composition.composed_epsilon_by("advanced", eps0, k, delta, delta0)
            assert at_least(got, ref_advanced(eps0, k, mp_of(slack))), (eps0, k, delta, delta0)
        if k * exact(delta0) <= exact(delta):
            assert at_least(composition.composed_epsilon_by("basic", eps0, k, delta, delta0), k * exact(eps0))
        else:
            with pytest.raises(ValueError, match="delta"):
                composition.composed_epsilon_by("basic", eps0, k, delta, delta0)
    ks = _uniform_k(rng, 1000)
    got = disclosure.composed_epsilon(0.3, ks, 1e-6, method="basic")
    assert all(at_least(g, int(j) * exact(0.3)) for g, j in zip(got, ks))
    got = disclosure.composed_epsilon(0.3, ks[:200], 1e-6, method="advanced")
    assert all(at_least(g, ref_advanced(0.3, int(j), mpf(1e-6))) for g, j in zip(got, ks[:200]))


@checks("disclosure.per_release_epsilon")
def test_per_release_epsilon_basic_never_exceeds_the_budget():
    """The largest ε₀ within a budget: k·ε₀ ≤ ε_total exactly (the float just above would not be)."""
    rng = np.random.default_rng(RNG_SEED + 5)
    for _ in range(300):
        total, k = float(rng.uniform(0.01, 10)), int(rng.integers(1, 10**9))
        got = disclosure.per_release_epsilon(total, k, 1e-6, method="basic")
        assert k * exact(got) <= exact(total) < k * exact(math.nextafter(got, math.inf)), (total, k)


# ------------------------------------------------------------------------------------------------ conversions


@checks("conversions.pure_to_zcdp")
def test_pure_to_zcdp_is_never_below_half_the_square():
    rng = np.random.default_rng(RNG_SEED + 6)
    eps = np.concatenate([rng.uniform(0, 3, 2000), 10.0 ** rng.uniform(-323, 154, 2000), [TINY, 1e-162]])
    want = [exact(e) ** 2 / 2 for e in eps]
    assert _nearest_low(eps * eps / 2, want) > 200
    got = conversions.pure_to_zcdp(eps)
    assert all(at_least(g, w) and positive_if(g, w) for g, w in zip(got, want))


def ref_best_zcdp_pdp(rho: mp.mpf, delta_prime: float) -> mp.mpf:
    """Kazan et al., Example 4.1 with Theorem 2.7 (ε = ρ + 2√(ρ log(1/δ))) and Theorem 3.9
    (ε′ = log(δ′e^ε + δ) − log(δ′ − δ)), minimised over δ ∈ (0, δ′) by a golden-section search in log δ to 1e-40:
    the minimum is within far less than an ulp of the value returned (the objective is smooth at its minimum)."""
    dp = mpf(delta_prime)

    def f(log_d):
        d = mp.exp(log_d)
        eps = rho + 2 * mp.sqrt(rho * -log_d)
        return mp.log(dp * mp.exp(eps) + d) - mp.log(dp - d)
    lo, hi = mp.mpf(-1500), mp.log(dp) - mp.mpf(10) ** -30
    grid = [lo + (hi - lo) * i / 400 for i in range(401)]
    best = min(range(401), key=lambda i: f(grid[i]))
    a, b = grid[max(best - 1, 0)], grid[min(best + 1, 400)]
    g = (mp.sqrt(5) - 1) / 2
    for _ in range(260):
        c, d = b - g * (b - a), a + g * (b - a)
        a, b = (a, d) if f(c) < f(d) else (c, b)
    return f((a + b) / 2) * (1 - mp.mpf(10) ** -40)


@checks("disclosure.zcdp_eps_prime", "disclosure.best_zcdp_pdp_epsilon")
def test_zcdp_eps_prime_at_huge_k_is_never_below_exact():
    for rho, k, dp in [(0.3, 999999937, 0.05), (1e-8, 10**6, 1e-3), (1e-12, 10**9, 0.1), (0.01, 7, 1e-6)]:
        got = float(disclosure.zcdp_eps_prime(rho, [k], dp)[0])
        assert at_least(got, ref_best_zcdp_pdp(mp_of(k * exact(rho)), dp)), (rho, k, dp)
        one = float(disclosure.best_zcdp_pdp_epsilon(rho, dp)[0])
        assert at_least(one, ref_best_zcdp_pdp(mpf(rho), dp)), (rho, dp)


# ------------------------------------------------------------------------------------------------ mechanisms


def ref_laplace_delta(eps, eps_mech):
    return max(-mp.expm1((mpf(eps) - mpf(eps_mech)) / 2), mp.mpf(0))


def ref_rr_delta(eps, eps_rr):
    a, b = mpf(eps_rr), mpf(eps)
    return max(-mp.expm1(b - a) * mp.exp(a) / (1 + mp.exp(a)), mp.mpf(0))


@checks("mechanisms.laplace_delta", "mechanisms.randomized_response_delta")
def test_laplace_and_randomized_response_delta_never_below_exact_nor_zero():
    assert mechanisms.laplace_delta(0.0, TINY) > 0  # the referee's: the halving rounded 5e-324 to 0
    assert mechanisms.randomized_response_delta(0.0, TINY) > 0  # ½·5e-324 is a tie, rounded to even: 0
    rng = np.random.default_rng(RNG_SEED + 7)
    n = 3000
    eps_mech = np.concatenate([10.0 ** rng.uniform(-8, 1.5, n - 6), [TINY, 1e-323, 2.2250738585072014e-308, 1e-300,
                                                                    1.0, 700.0]])
    eps = eps_mech * rng.uniform(0, 1.2, n)
    eps[-6:] = [0.0, TINY, 0.0, 1e-300 * 0.5, math.nextafter(1.0, 0.0), 699.0]
    for fn, ref in ((mechanisms.laplace_delta, ref_laplace_delta),
                    (mechanisms.randomized_response_delta, ref_rr_delta)):
        got = fn(eps, eps_mech)
        for g, e, m in zip(got, eps, eps_mech):
            want = ref(e, m)
            assert at_least(g, want) and positive_if(g, want), (fn.__name__, e, m)


@checks("mechanisms.name_and_shame_exposure")
def test_name_and_shame_exposure_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 8)
    n = np.concatenate([rng.integers(1, 10**6, 1000), [1, 3, 10**9]])
    delta = np.concatenate([10.0 ** rng.uniform(-320, 0, 1000), [TINY, 0.1, 1e-20]])
    got = mechanisms.name_and_shame_exposure(n, delta)
    for g, j, d in zip(got, n, delta):
        want = -mp.expm1(int(j) * mp.log1p(-mpf(d)))
        assert at_least(g, want) and positive_if(g, want) and g <= 1.0, (j, d)


def ref_gaussian_log_delta(eps, sigma):
    """log of Balle & Wang's δ = Φ(r/2 − ε/r) − e^ε Φ(−r/2 − ε/r), r = 1/σ, at enough digits for the difference."""
    with mp.workdps(400):
        r, e = 1 / mpf(sigma), mpf(eps)
        return mp.log(mp.ncdf(r / 2 - e / r) - mp.exp(e) * mp.ncdf(-r / 2 - e / r))


@checks("mechanisms.gaussian_log_delta")
def test_gaussian_log_delta_never_below_exact():
    for eps in (0.0, 1e-9, 0.3, 1.0, 5.0):
        for sigma in (0.3, 1.0, 4.0):
            got = float(mechanisms.gaussian_log_delta(eps, sigma))
            assert at_least(got, ref_gaussian_log_delta(eps, sigma)), (eps, sigma)


# ------------------------------------------------------------------------------------------------ disclosure


def ref_difference(p, eps):
    """Lemma 3.4, eq. (6): the posterior's move up and down, q = 1 − p exactly."""
    p, e = mpf(p), mpf(eps)
    q, gain = 1 - p, -mp.expm1(-e)
    return -p * gain * q / (q + p * mp.exp(-e)), q * gain * p / (p + q * mp.exp(-e))


@checks("disclosure.prior_difference_bounds")
def test_prior_difference_bounds_are_widened_on_both_sides_and_never_zero():
    rng = np.random.default_rng(RNG_SEED + 9)
    n = 3000
    prior = np.concatenate([rng.uniform(0, 1, n // 2), 10.0 ** rng.uniform(-323, 0, n // 2)])
    eps = np.concatenate([10.0 ** rng.uniform(-323, 1.5, n // 2), rng.uniform(0, 5, n // 2)])
    prior[:4], eps[:4] = [0.5, TINY, 0.5, 1 - 2**-53], [TINY, 0.5, 1e-320, 2.2250738585072014e-308]
    low, high = disclosure.prior_difference_bounds(prior, eps)
    for lo, hi, p, e in zip(low, high, prior, eps):
        want_lo, want_hi = ref_difference(p, e)
        assert at_least(hi, want_hi) and positive_if(hi, want_hi), (p, e)
        assert mpf(lo) <= want_lo and positive_if(-lo, -want_lo), (p, e)


# ------------------------------------------------------------------------------------------------ releases


def _pure_rho(eps) -> Fraction:
    return exact(eps) ** 2 / 2


def _gaussian_rho(sigma, sensitivity=1.0) -> Fraction:
    return exact(sensitivity) ** 2 / (2 * exact(sigma) ** 2)


@checks("releases.Gaussian.rho", "releases.DiscreteGaussian.rho", "privacy_loss.PrivacyLoss.rho")
def test_the_gaussian_rho_is_never_below_delta_squared_over_two_sigma_squared():
    from dpsemantics.privacy_loss import PrivacyLoss
    assert at_least(releases.Gaussian(1e-5).rho(), _gaussian_rho(1e-5))  # the referee's
    rng = np.random.default_rng(RNG_SEED + 10)
    sigmas = 10.0 ** rng.uniform(-5.8, 6, 2000)
    lows = 0
    for s in sigmas:
        want = _gaussian_rho(s)
        lows += exact(releases.Gaussian(float(s)).mu) < want
        assert at_least(releases.Gaussian(float(s)).rho(), want), s
        assert at_least(PrivacyLoss.gaussian(float(s)).rho(), want), s
        assert at_least(releases.DiscreteGaussian(float(s) + 1.0, 3).rho(), _gaussian_rho(float(s) + 1.0, 3)), s
    assert lows > 200  # μ, rounded to nearest, is low on many of them


@checks(*[f"releases.{c}.rho" for c in ("Mechanism", "Laplace", "Geometric", "RandomizedResponse", "ApproxDP", "ZCDP",
                                        "Composed")],
        *[f"releases.{c}.pure_epsilon" for c in ("Mechanism", "Laplace", "Geometric", "RandomizedResponse",
                                                 "ApproxDP", "Composed")])
def test_composed_rho_and_pure_epsilon_are_never_below_the_exact_sums():
    R = releases
    assert at_least(R.ZCDP(1e-8).repeat(10**6).rho(), 10**6 * exact(1e-8))  # the referee's
    assert R.Mechanism.rho(R.ZCDP(0.1)) is None and R.Mechanism.pure_epsilon(R.ZCDP(0.1)) is None
    rng = np.random.default_rng(RNG_SEED + 11)
    lows = 0
    for _ in range(1500):
        e, s, r = float(rng.uniform(0.01, 3)), float(10.0 ** rng.uniform(-3, 3)), float(10.0 ** rng.uniform(-9, 1))
        k1, k2, k3, k4 = (int(j) for j in rng.integers(1, 10**6, 4))
        parts = [(R.Laplace(e), k1), (R.Gaussian(s), k2), (R.ZCDP(r), k3), (R.RandomizedResponse(e / 2), k4),
                 (R.Geometric(e, 2), 1), (R.ApproxDP(e / 3), 2)]
        want = (k1 * _pure_rho(e) + k2 * _gaussian_rho(s) + k3 * exact(r) + k4 * _pure_rho(e / 2) + _pure_rho(e)
                + 2 * _pure_rho(e / 3))
        comp = R.Composed(parts)
        assert at_least(comp.rho(), want), (e, s, r)
        lows += exact(float(sum(k * m.rho() for m, k in parts))) < want
        for m, _ in parts:
            assert at_least(m.rho(), _gaussian_rho(s) if isinstance(m, R.Gaussian) else
                            exact(r) if isinstance(m, R.ZCDP) else _pure_rho(m.eps))
        pure = R.Composed([p for p in parts if p[0].pure_epsilon() is not None])
        assert at_least(pure.pure_epsilon(), k1 * exact(e) + k4 * exact(e / 2) + exact(e) + 2 * exact(e / 3))
        assert R.ZCDP(r).repeat(k3).rho() == R.Composed([(R.ZCDP(r), k3)]).rho()
        assert at_least(R.ZCDP(r).repeat(k3).rho(), k3 * exact(r))
    assert lows > 100  # the float sum of the parts is low on many of them
    assert R.ApproxDP(0.5, 1e-6).rho() is None and R.ApproxDP(0.5, 1e-6).pure_epsilon() is None


@checks("releases.ZCDP.merge", "releases.ZCDP.profile")
def test_zcdp_merge_and_profile_use_the_total_rho_rounded_up():
    z = releases.ZCDP(0.3)
    merged, runs = z.merge(999999937, releases.ZCDP(0.1), 3)
    assert runs == 1 and at_least(merged.rho0, 999999937 * exact(0.3) + 3 * exact(0.1))
    rho_up = merged.rho0
    total = composition.zcdp_compose(0.3, 999999937)  # kρ₀ rounded up (checked above)
    assert at_least(total, 999999937 * exact(0.3)) and rho_up > 0
    eps = np.array([total + 2e5, total + 3e5])  # δ near 1e-15 and 1e-33: a δ that moves with ρ
    assert np.array_equal(z.profile(999999937)[0](eps), conversions.zcdp_delta(total, eps, tight=True))


@checks("releases.Mechanism.reveal", "releases.ApproxDP.reveal", "releases.Composed.reveal")
def test_reveal_is_never_below_exact():
    R = releases
    assert R.Mechanism.reveal(R.Laplace(1.0)) == 0.0 and R.Composed([R.Laplace(1.0)]).reveal() == 0.0
    rng = np.random.default_rng(RNG_SEED + 12)
    for _ in range(500):
        d1, d2 = (float(10.0 ** x) for x in rng.uniform(-20, -1, 2))
        k1, k2 = (int(j) for j in rng.integers(1, 10**9, 2))
        a, b = R.ApproxDP(0.5, d1), R.ApproxDP(0.2, d2)
        assert a.reveal() == d1
        want = -mp.expm1(k1 * mp.log1p(-mpf(d1)) + k2 * mp.log1p(-mpf(d2)))
        got = R.Composed([(a, k1), (b, k2)]).reveal()
        assert at_least(got, want) and got <= 1.0, (d1, d2, k1, k2)


@checks("releases.Mechanism.group_of_two", "releases.Gaussian.group_of_two", "releases.ApproxDP.group_of_two")
def test_group_of_two_is_never_below_exact():
    R = releases
    rng = np.random.default_rng(RNG_SEED + 13)
    for _ in range(1000):
        e, d = float(rng.uniform(0, 20)), float(10.0 ** rng.uniform(-300, -1))
        g = R.ApproxDP(e, d).group_of_two()
        want = (1 + mp.exp(mpf(e))) * mpf(d)
        if g is None:  # no guarantee left: (1 + e^ε)δ, raised, reaches 1
            assert want > 1 - mp.mpf(2) ** -40, (e, d)
        else:
            assert exact(g.eps) == 2 * exact(e) and at_least(g.delta0, want), (e, d)
    assert exact(R.Laplace(0.3).group_of_two().eps) == 2 * exact(0.3)
    assert at_least(R.ZCDP(0.3).group_of_two().rho(), 4 * exact(0.3))
    g = R.Gaussian(2.0).group_of_two()
    assert at_least(g.rho(), _gaussian_rho(2.0, 2.0))


# ------------------------------------------------------------------------------------------------ closed forms


def _grid(seed, n=600):
    """ε over eighteen decades (and 0.45, the converses' end), δ over three hundred, n up to 10⁶."""
    rng = np.random.default_rng(seed)
    eps = np.concatenate([10.0 ** rng.uniform(-12, 1.5, n), [1e-300, 0.45, 1.0]])
    delta = np.concatenate([10.0 ** rng.uniform(-300, -1, n), [1e-300, 1e-6, 0.01]])
    n_rec = np.concatenate([rng.integers(1, 10**6, n), [1, 10, 1000]]).astype(float)
    return eps, delta, n_rec


def _e3(e):
    return mp.expm1(3 * mpf(e))


def _gain(e):
    return -mp.expm1(-mpf(e))  # 1 − e^{−ε}


CLOSED_FORMS = [  # (name, direction, arguments from the grid, the exact value in mpmath)
    ("semantic.thm24_max_delta", "down", lambda e, d, n: (e, n), lambda e, d, n: _gain(e) ** 2 / mpf(n)),
    ("semantic.thm24_proof_epsilon", "up", lambda e, d, n: (e, d, n),
     lambda e, d, n: _e3(e) + mp.sqrt(mpf(n) * mpf(d))),
    ("semantic.conditioning_delta", "up", lambda e, d, n: (e, d, 1e-3),
     lambda e, d, n: 2 * mpf(d) / mpf(1e-3) + 2 * mpf(d) / _gain(e)),
    ("semantic.corrected_conditioning_delta", "up", lambda e, d, n: (e, d, 1e-3),
     lambda e, d, n: 2 * mpf(d) / _gain(e) + (1 + mp.exp(2 * mpf(e))) * mpf(d) / mpf(1e-3)),
    ("semantic.thm24_repaired_delta_hat", "down", lambda e, d, n: (e, d, n),
     lambda e, d, n: ((_e3(e) + 2 * mp.sqrt(mpf(n) * mpf(d))) * (_e3(e) + 2) - _e3(e)) / 2),
    ("semantic.thm24_repaired_delta", "up", lambda e, d, n: (e, d, n),
     lambda e, d, n: mpf(n) * (2 * mpf(d) / _gain(e) + (1 + mp.exp(2 * mpf(e))) * mpf(d) / (
         ((_e3(e) + 2 * mp.sqrt(mpf(n) * mpf(d))) * (_e3(e) + 2) - _e3(e)) / 2))),
    ("semantic.testing_bound", "up", lambda e, d, n: (e, d, 0.05),
     lambda e, d, n: min(mp.exp(mpf(e)) * mpf(0.05) + mpf(d), 1 - mp.exp(-mpf(e)) * (1 - mpf(d) - mpf(0.05)),
                         mp.mpf(1))),
    ("semantic.max_sd_bound", "up", lambda e, d, n: (e, d), lambda e, d, n: mp.expm1(mpf(e)) + mpf(d)),
    ("semantic.tight_max_sd", "up", lambda e, d, n: (e, d),
     lambda e, d, n: min((mp.expm1(mpf(e)) + 2 * mpf(d)) / (mp.exp(mpf(e)) + 1), mp.mpf(1))),
    ("notions.zhao_converse_level", "down", lambda e, d, n: (e,), lambda e, d, n: mp.tanh(mpf(e) / 2) / 2),
    ("notions.tight_converse_level", "down", lambda e, d, n: (e,), lambda e, d, n: mp.tanh(mpf(e) / 4)),
    ("indistinguishability.transitivity_delta_limit", "down", lambda e, d, n: (e,),
     lambda e, d, n: 1 / (mp.exp(mpf(e)) + 2)),
    ("indistinguishability.transitivity_parameters", "up", lambda e, d, n: (e, d),
     lambda e, d, n: (2 * mpf(e), min((1 + mp.exp(mpf(e))) * mpf(d), mp.mpf(1)))),
]


def _on_side(got, want, direction) -> bool:
    if direction == "up":
        return at_least(got, want) and positive_if(got, want)
    return math.isinf(got) and got < 0 or mpf(got) <= want


def _call(name, args):
    module, func = name.split(".")
    return getattr(globals()[module], func)(*args)


@checks(*[c[0] for c in CLOSED_FORMS])
@pytest.mark.parametrize("name, direction, args, want", CLOSED_FORMS, ids=[c[0] for c in CLOSED_FORMS])
def test_closed_forms_are_on_their_safe_side(name, direction, args, want):
    eps, delta, n_rec = _grid(RNG_SEED + 20)
    got = _call(name, args(eps, delta, n_rec))  # one broadcast call
    pairs = got if isinstance(got, tuple) else (got,)
    for i in range(eps.size):
        w = want(eps[i], delta[i], n_rec[i])
        for g, x in zip(pairs, w if isinstance(w, tuple) else (w,)):
            assert _on_side(float(np.asarray(g)[i]), x, direction), (name, eps[i], delta[i], n_rec[i])


SCALAR_FORMS = [  # functions of scalars only: (name, direction, arguments, exact values), called one point at a time
    ("semantic.thm24_parameters", "up", lambda e, d, n: (e, d, int(n)),
     lambda e, d, n: (_e3(e) + 2 * mp.sqrt(mpf(n) * mpf(d)), 4 * mp.sqrt(mpf(n) * mpf(d)))),
    ("semantic.thm24_converse_parameters", "up", lambda e, d, n: (min(e, 0.45), d),
     lambda e, d, n: (3 * mpf(min(e, 0.45)), 2 * mpf(d))),
    ("semantic.thm42_parameters", "up", lambda e, d, n: (e, d, d / 3, int(n)),
     lambda e, d, n: (_e3(e) + mp.sqrt(mpf(n) * (mpf(d) + mpf(d / 3))), 4 * mp.sqrt(mpf(n) * (mpf(d) + mpf(d / 3))))),
    ("semantic.paper_gaussian_sigma", "up", lambda e, d, n: (e, d), lambda e, d, n: mp.sqrt(-mp.log(mpf(d))) / mpf(e)),
    ("notions.ks_converse_level", "down", lambda e, d, n: (min(e, 1.35),), lambda e, d, n: mpf(min(e, 1.35)) / 6),
    ("indistinguishability.group_parameters", "up", lambda e, d, n: (e, d, int(n) % 50 + 1),
     lambda e, d, n: (mpf(e) * (int(n) % 50 + 1),
                      min(mpf(d) * mp.fsum(mp.exp(j * mpf(e)) for j in range(int(n) % 50 + 1)), mp.mpf(1)))),
]


@checks(*[c[0] for c in SCALAR_FORMS])
@pytest.mark.parametrize("name, direction, args, want", SCALAR_FORMS, ids=[c[0] for c in SCALAR_FORMS])
def test_scalar_closed_forms_are_on_their_safe_side(name, direction, args, want):
    eps, delta, n_rec = _grid(RNG_SEED + 21, 300)
    checked = 0
    for e, d, n in zip(eps, delta, n_rec):
        try:
            got = _call(name, args(e, d, n))
        except ValueError:  # outside the theorem's condition (δ ≥ (1 − e^{−ε})²/n, ε ≤ √(nδ₂)): refused
            continue
        checked += 1
        w = want(e, d, n)
        for g, x in zip(got if isinstance(got, tuple) else (got,), w if isinstance(w, tuple) else (w,)):
            assert _on_side(float(g), x, direction), (name, e, d, n)
    assert checked > 100


# ------------------------------------------------------------------------------------------------ release answers


def _bisect(f, lo, hi, steps=230):
    """The root of a decreasing f on [lo, hi] (f(lo) > 0 > f(hi)) to 2⁻²³⁰ of the bracket, as its upper end."""
    for _ in range(steps):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    return hi


class ExactGaussian:
    """k runs of the Gaussian mechanism N(0, σ²), Δ = 1: the loss Z ~ N(μ, 2μ) with μ = k/(2σ²) exactly (Bun &
    Steinke, Proposition 1.6), its profile (Balle & Wang 2018, Theorem 8), the ε of a δ, and the PDP ε′ of a δ′
    (Kazan et al., Definition 2.4: P[|Z| > ε′] ≤ δ′), in mpmath."""

    def __init__(self, sigma, k):
        self.mu = mp_of(k / (2 * exact(sigma) ** 2))
        self.s = mp.sqrt(2 * self.mu)  # the loss's standard deviation, r = √(2μ) = √k/σ

    def delta(self, eps):
        e, r = mp.mpf(eps), self.s
        return mp.ncdf(r / 2 - e / r) - mp.exp(e) * mp.ncdf(-r / 2 - e / r)

    def epsilon(self, delta):
        d = mpf(delta)
        return mp.mpf(0) if self.delta(0) <= d else _bisect(lambda e: self.delta(e) - d, mp.mpf(0), 60 * self.mu + 60)

    def pdp_delta(self, eps):
        e = mp.mpf(eps)
        return mp.ncdf((self.mu - e) / self.s) + mp.ncdf((-e - self.mu) / self.s)

    def pdp_epsilon(self, delta_prime):
        d = mpf(delta_prime)
        return _bisect(lambda e: self.pdp_delta(e) - d, mp.mpf(0), 60 * self.mu + 60)


GAUSSIAN_RUNS = [(2.0, 1), (0.5, 1), (2.0, 10), (10.0, 999999937), (3.0, 1000)]


@checks("releases.Mechanism.delta", "releases.Composed.delta", "releases.Composed.delta_routes",
        "releases.Mechanism.epsilon", "releases.Composed.epsilon", "releases.Composed.epsilon_routes",
        "releases.Gaussian.profile_epsilon")
@pytest.mark.parametrize("sigma, k", GAUSSIAN_RUNS)
def test_the_gaussian_releases_delta_and_epsilon_are_never_below_exact(sigma, k):
    ref = ExactGaussian(sigma, k)
    release = releases.Gaussian(sigma) if k == 1 else releases.Gaussian(sigma).repeat(k)
    for z in (0.0, 0.5, 2.0, 4.0):
        eps = float(ref.mu + z * ref.s)
        want = ref.delta(eps)
        assert at_least(release.delta(eps), want), (sigma, k, eps)
        if k > 1:
            assert all(at_least(v, want) for v in release.delta_routes(eps).values()), (sigma, k, eps)
    for delta in (0.3, 1e-3, 1e-6, 1e-10):
        want = ref.epsilon(delta)
        assert at_least(release.epsilon(delta), want), (sigma, k, delta)
        assert at_least(releases.Gaussian(sigma).profile_epsilon(k, delta), want), (sigma, k, delta)
        if k > 1:
            assert all(at_least(v, want) for v in release.epsilon_routes(delta).values()), (sigma, k, delta)


@checks("releases.Mechanism.pdp_epsilon", "releases.Composed.pdp_epsilon", "releases.Composed.single_point",
        "releases.Composed.best_point", "releases.Composed.exact", "releases.Mechanism.exact_threshold",
        "releases.Gaussian.exact_threshold")
@pytest.mark.parametrize("sigma, k", GAUSSIAN_RUNS)
def test_the_gaussian_releases_pdp_epsilon_is_never_below_exact(sigma, k):
    """The PDP ε′ at δ′ by every route: never below the mechanism's own (Definition 2.4); the (ε, δ) a route reads
    it from holds (δ never below the exact δ(ε)); the exact law's threshold never below P[Z > t] = δ′'s t."""
    ref = ExactGaussian(sigma, k)
    comp = releases.Gaussian(sigma).repeat(k)
    for dp in (0.1, 1e-3, 1e-6, 1e-10):
        want = ref.pdp_epsilon(dp)
        assert at_least(comp.pdp_epsilon(dp), want), (sigma, k, dp)
        if k == 1:
            assert at_least(releases.Gaussian(sigma).pdp_epsilon(dp), want), (sigma, dp)
        for point in (comp.single_point(dp), comp.best_point(dp)):
            assert at_least(point.eps_prime, want), (sigma, k, dp, point.method)
            assert at_least(point.delta, ref.delta(point.eps)), (sigma, k, dp, point.method)
        t_exact = _bisect(lambda t: mp.ncdf((ref.mu - t) / ref.s) - mpf(dp), mp.mpf(-60) * ref.mu - 60,
                          60 * ref.mu + 60)
        law = comp.exact(dp)
        # the safe ends; the other ends (threshold_low, pdp_eps_low) of a closed-form law are the same floats, to
        # nearest (is_bound False), and may lie an ulp above the exact value: not checked here (issue 40, open)
        assert not law.is_bound and at_least(law.threshold, t_exact) and at_least(law.pdp_eps, want), (sigma, k, dp)
        t, pdp, _ = releases.Gaussian(sigma).exact_threshold(k, dp)
        assert at_least(t, t_exact) and at_least(pdp, want), (sigma, k, dp)


@checks("releases.Composed.delta")
def test_merged_gaussians_delta_is_never_below_exact():
    """Two Gaussians of different σ merge into one (their μ add, rounded): the δ of the merged law at ε up to six
    standard deviations above its mean, never below the exact profile at μ = k₁/(2σ₁²) + k₂/(2σ₂²)."""
    rng = np.random.default_rng(RNG_SEED + 30)
    for _ in range(150):
        s1, s2 = (float(x) for x in 10.0 ** rng.uniform(-1, 2, 2))
        k1, k2 = (int(x) for x in rng.integers(1, 10**6, 2))
        mu = mp_of(k1 / (2 * exact(s1) ** 2) + k2 / (2 * exact(s2) ** 2))
        r = mp.sqrt(2 * mu)
        eps = float(mu + float(rng.uniform(0, 6)) * r)
        want = mp.ncdf(r / 2 - eps / r) - mp.exp(eps) * mp.ncdf(-r / 2 - eps / r)
        got = releases.Composed([(releases.Gaussian(s1), k1), (releases.Gaussian(s2), k2)]).delta(eps)
        assert at_least(got, want), (s1, s2, k1, k2, eps)


@checks("releases.Gaussian.build")
def test_a_gaussian_given_by_rho_is_never_less_private_than_stated():
    """σ from ρ: the mechanism built has Δ²/(2σ²) ≥ ρ exactly (the σ nearest 1/√(2ρ) was above it for 97 of 3000
    seeded ρ: a mechanism with less ρ than stated, analysed in its place)."""
    rng = np.random.default_rng(RNG_SEED + 31)
    rhos = np.concatenate([10.0 ** rng.uniform(-11, 11.5, 3000), [0.5, 0.125, 2.0, TINY, 1e-300]])
    nearest_low = 0
    for rho in rhos:
        built = releases.Gaussian.build(rho=float(rho))
        assert at_least(built.rho(), exact(rho)) and _gaussian_rho(built.sigma) >= exact(rho), rho
        nearest = 1.0 / (math.sqrt(2.0) * math.sqrt(float(rho)))
        nearest_low += _gaussian_rho(nearest) < exact(rho)
    assert nearest_low > 30


def ref_pair_pdp_delta(p, q, eps) -> mp.mpf:
    """Kazan et al., Definition 2.4 on a finite pair: max(P[|Z| > ε], Q[|Z′| > ε]) with Z = log P(y)/Q(y) under P
    (+∞ where Q(y) = 0) and Z′ = −Z under Q, the comparisons made at 80 digits on the floats' exact values, each law
    its masses over their exact total (as the package reads a row)."""
    e = mpf(eps)

    def side(a, b):
        total = mp.mpf(0)
        for x, y in zip(a, b):
            if x > 0 and (y == 0 or abs(mp.log(mpf(x)) - mp.log(mpf(y))) > e):
                total += mpf(x)
        return total / mp.fsum(mpf(x) for x in a)
    return max(side(p, q), side(q, p))


@checks("disclosure.pair_pdp_delta")
def test_pair_pdp_delta_is_never_below_exact():
    """A finite pair's tails are running sums of its masses over their total: rounded to nearest they were below
    the exact tail at 29 % of the ε tried (7 714 of 26 954), now raised by the sums' (2n + 8)u."""
    rng = np.random.default_rng(RNG_SEED + 32)
    for _ in range(200):
        m = int(rng.integers(2, 8))
        p, q = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(m))
        if rng.uniform() < 0.3:
            q[0], q[1] = 0.0, q[0] + q[1]
        # ε at the pair's own losses (the ties) and between them
        losses = np.abs(np.log(np.where((p > 0) & (q > 0), p / np.where(q > 0, q, 1.0), 1.0)))
        eps = np.concatenate([losses, losses * (1 + 1e-15), [0.0, float(losses.max()) / 2]])
        got = disclosure.pair_pdp_delta(p, q, eps)
        for g, e in zip(got, eps):
            assert at_least(g, ref_pair_pdp_delta(p, q, e)), (p, q, e)
