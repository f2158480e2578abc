"""The whole public surface under extreme numbers: every public function of every mathematical module.

``test_fuzz_numerics.py`` fuzzes the calibrations in depth, ``test_fuzz_pairs.py`` extremes in two parameters
at once; this file covers the breadth (issue 23): each
function of ``__all__`` in mechanisms, conversions, composition, indistinguishability, disclosure, semantic,
notions and causal is called with a valid base call (built from the table VALID by parameter name, or given
whole in BASE_CALLS), then with one parameter at a time replaced by each extreme value of its kind: numbers
(NUMERIC_EXTREMES), objects such as mechanisms, models, losses and variable names (OBJECT_EXTREMES), and
distributions (``hostile_distributions``, which must be refused).  The only acceptable outcomes are a result
with no NaN, or a ``ValueError`` whose message names a parameter of the function (the caller's name, as a word),
within a few seconds (a hang or a memory explosion counts as a failure).  No public function is left out.  The
methods of objects — pld.PrivacyLossDistribution (constructors
included) and the release classes of releases.py — are swept the same way at the end of the file
(``OBJECT_CALLS``), with the methods not yet total listed, each with its reason, in ``OBJECT_KNOWN_FAILURES``.
"""

from __future__ import annotations

import inspect
import math
import re
import signal
import warnings

import numpy as np
import pytest

from dpsemantics import (causal, composition, conversions, disclosure, indistinguishability, mechanisms, notions,
                         semantic)
from dpsemantics.claims import disclosure_evidence
from dpsemantics.privacy_loss import PrivacyLoss

MODULES = [mechanisms, conversions, composition, indistinguishability, disclosure, semantic, notions, causal]

NUMERIC_EXTREMES = [0, -0.0, 5e-324, 1e-300, 0.5, 1, 1e300, 1.7976931348623157e308, math.inf, -math.inf, math.nan,
                    -1, 10**400, True, "0.5", None, np.array([0.1, 0.9])]

_RR = lambda: mechanisms.randomized_response(1.0)  # noqa: E731
_LRR = lambda: mechanisms.local_randomized_response(2, 1.0)  # noqa: E731

# parameter name → a valid value (callables are factories)
VALID = {
    "eps": 0.5, "eps0": 0.1, "eps_rr": 1.0, "eps_mech": 1.0, "eps_prime": 2.0, "eps_total": 1.0, "eps_sem": 0.2,
    "eps_hat": 0.5, "eps_def": 0.5, "eps_dp": 0.5, "delta": 1e-6, "delta_slack": 1e-6, "delta0": 0.0,
    "delta_prime": 0.01, "delta_total": 1e-6,
    "delta_hat": 1e-3, "delta1": 1e-3, "sigma": 2.0, "sensitivity": 1.0, "rho": 0.1, "rhos": 0.1, "k": 10,
    "ks": [1, 10], "n": 3, "ell": 2, "prior": 0.3, "priors": [0.2, 0.5], "z": 0.5, "q": [0.3, 0.7], "p": [0.5, 0.5],
    "b": 0.3, "alpha": 2.0, "ratio": 1.5, "low": 0, "high": 4, "max_difference": 0.2, "max_ratio": 2.0,
    "max_posterior": 0.6, "max_posteriors": [0.5, 0.8], "like_present": 0.3, "like_absent": 0.2,
    "eps_list": [0.1, 0.2], "delta_list": None, "threshold": 0.5, "values": [0.1, 0.7], "x": (0, 1), "y": (0, 0),
    "t": 1e-3, "group_size": 2, "eta": 1e-9, "stay": 0.8, "p0": 0.5, "p_in": [0.6, 0.4], "p_out": [0.4, 0.6],
    "game0": [0.5, 0.2], "game_i": [0.4, 0.3], "null": [0.5, 0.5], "alternative": [0.7, 0.3],
    "row_present": [0.6, 0.4], "row_absent": [0.4, 0.6], "metric": "ratio", "n_pairs": 2, "seed": 0,
    "joint": [[0.25, 0.25], [0.25, 0.25]], "joint_prime": [[0.25, 0.25], [0.25, 0.25]], "relatives": 1,
    "mechanism": _LRR, "loss": lambda: PrivacyLoss.gaussian(1.0), "number": 1,
    "profile": lambda: (lambda e: mechanisms.gaussian_delta(e, 1.0)), "event": lambda: [0],
    "q_or_p": 0.3, "method": "optimal", "centre": 1, "spread": 0.5, "likelihoods": [[0.2, 0.5], [0.8, 0.5]],
}
# parameters that are objects, not numbers: not fuzzed with numeric extremes
OBJECTS = {"mechanism", "loss", "profile", "event", "x", "y", "metric", "ks", "priors", "max_posteriors", "eps_list",
           "delta_list", "p", "values", "p_in", "p_out", "game0", "game_i", "null", "alternative", "row_present",
           "row_absent", "joint", "joint_prime", "method", "likelihoods"}

# Functions whose parameters include objects the table VALID cannot give by name (a mechanism on databases of
# records, a belief over them, a structural model and its population, a privacy loss), or whose names mean
# something else there (``prior``: a probability in disclosure, a distribution over databases in notions): their
# valid base calls, as keyword arguments.  Every parameter is then swept like the others: numeric ones with
# NUMERIC_EXTREMES, objects with OBJECT_EXTREMES, distributions with hostile_distributions.
_GEO = lambda: mechanisms.geometric_count(2, 0.5)  # noqa: E731 - records in {0, 1}^2, outputs 0..2
_U4 = lambda: np.full(4, 0.25)  # noqa: E731 - a belief over the four databases
_POP = lambda: np.array([[0.25, 0.25], [0.25, 0.25]])  # noqa: E731 - a population over D^2
_PROG = lambda: causal.prog_a_model(0.5, 2)  # noqa: E731 - background D1, D2
_PROG_POP = lambda: {(a, b): 0.25 for a in (0, 1) for b in (0, 1)}  # noqa: E731 - its population
_LOSS = lambda: PrivacyLoss.gaussian(1.0)  # noqa: E731
BASE_CALLS = {
    "semantic.games": lambda: dict(mechanism=_GEO(), belief=_U4(), transcript=1, default=0),
    "semantic.game_weights": lambda: dict(mechanism=_GEO(), belief=_U4(), default=0),
    "semantic.posterior": lambda: dict(mechanism=_GEO(), belief=_U4(), transcript=1, i=0, default=0),
    "semantic.statistical_difference": lambda: dict(mechanism=_GEO(), belief=_U4(), transcript=1, i=1, default=0),
    "semantic.semantic_profile": lambda: dict(mechanism=_GEO(), belief=_U4(), default=0),
    "semantic.semantic_epsilon": lambda: dict(mechanism=_GEO(), default=0),
    "semantic.semantic_delta": lambda: dict(mechanism=_GEO(), belief=_U4(), eps=0.5, default=0),
    "semantic.reality_oblivious_delta": lambda: dict(mechanism=_GEO(), belief=_U4(), database=(1, 1), eps=0.5,
                                                     default=0),
    "semantic.conditioning_bad_mass": lambda: dict(joint=[[0.25, 0.25], [0.25, 0.25]],
                                                   joint_prime=[[0.4, 0.1], [0.1, 0.4]], eps_hat=0.5, delta_hat=1e-3),
    "semantic.informed_semantic_epsilon": lambda: dict(mechanism=_GEO()),
    "semantic.smoking_study": lambda: dict(n=3, risks=(0.1, 0.6), prior_high=0.5),
    "semantic.median_mechanism": lambda: dict(n=3, k=4, eps=0.5, s=1, margin=3),
    "semantic.local_sensitivity": lambda: dict(f=len, databases=[(0, 1), (1, 1)], domain=[0, 1]),
    "notions.adversaries": lambda: dict(n=3),
    "notions.uniform_prior": lambda: dict(mechanism=_LRR()),
    "notions.bdp_leakage": lambda: dict(mechanism=_LRR(), prior=_U4()),
    "notions.bdp_leakage_by_adversary": lambda: dict(mechanism=_LRR(), prior=_U4()),
    "notions.bayesian_semantic_privacy": lambda: dict(mechanism=_LRR(), prior=_U4(), default=0),
    "notions.semantic_privacy": lambda: dict(mechanism=_LRR(), default=0),
    "notions.membership_privacy": lambda: dict(mechanism=_LRR(), prior=_U4(), b=0.3),
    "notions.membership_privacy_of": lambda: dict(mechanism=_LRR(), prior=_U4(), b=0.3),
    "notions.membership_pairs": lambda: dict(mechanism=_LRR(), prior=_U4()),
    "notions.conditional_likelihood": lambda: dict(mechanism=_LRR(), prior=_U4(), i=0, S=[1], x_i=0, x_S=[0]),
    "causal.relative_probability": lambda: dict(model=_PROG(), population=_PROG_POP(), event={"O": 1},
                                                do_first={"D1": 0}, do_second={"D1": 1}),
    "causal.max_relative_probability": lambda: dict(model=_PROG(), population=_PROG_POP(), effect="O", cause="D1"),
    "causal.effect_size": lambda: dict(model=_PROG(), population=_PROG_POP(), effect="O", cause="D1"),
    "causal.brp_epsilon": lambda: dict(model=_PROG(), effect="O", cause="D1"),
    "causal.survey_model": lambda: dict(mechanism=_GEO()),
    "causal.sequence_model": lambda: dict(channel_y=[[[0.75, 0.25], [0.25, 0.75]]],
                                          channels_z=[[[0.75, 0.25], [0.25, 0.75]], [[0.5, 0.5], [0.5, 0.5]]]),
    "causal.mechanism_tensor": lambda: dict(mechanism=_GEO()),
    "causal.definition_epsilon": lambda: dict(number=3, mechanism=_GEO(), population=_POP()),
    "causal.universal_epsilon": lambda: dict(number=3, mechanism=_GEO()),
    "causal.candidate_populations": lambda: dict(shape=(2, 2)),
    "causal.posterior": lambda: dict(mechanism=_GEO(), prior=_U4(), output=1),
    "causal.definition_epsilon_sem": lambda: dict(number=3, mechanism=_GEO(), population=_POP()),
    "causal.log_ratio_by_value": lambda: dict(model=_PROG(), population=_PROG_POP(), effect="O", cause="D1"),
    "causal.inheritance_population": lambda: dict(model=causal.inheritance_model(0.5), q=0.3),
    "causal.interference_epsilon": lambda: dict(mechanism=_GEO()),
    "causal.adversary_learning": lambda: dict(mechanism=_GEO(), population=_POP()),
    "causal.path_effects": lambda: dict(model=causal.inheritance_model(0.5), effect="O", cause="R1",
                                        direct_hold=("D2",), indirect_hold=("D1",)),
    "causal.nondisclosure_epsilon": lambda: dict(mechanism=_GEO(), population=_POP()),
    "causal.pairwise_conditionally_independent": lambda: dict(population=_POP(), atol=1e-12),
    "semantic.most_powerful_power": lambda: dict(null=[0.5, 0.5], alternative=[0.7, 0.3], alpha=0.1),
    "indistinguishability.event_violation": lambda: dict(p=[0.5, 0.5], q=[0.3, 0.7], eps=0.5, event=[True, False]),
    "disclosure.logit": lambda: dict(p=0.3),
    "notions.independent_prior": lambda: dict(n=3, p=0.3),
    "notions.copies_prior": lambda: dict(n=3, p=0.3),
    "notions.scaled_posterior_ratio": lambda: dict(alpha=2.0, q=0.3),
    "semantic.testing_bound": lambda: dict(eps=0.5, delta=1e-6, alpha=0.1),
    "semantic.thm24_converse_parameters": lambda: dict(eps=0.3, delta=1e-6),
    "disclosure.posterior_interval_probability": lambda: dict(prior=0.3, low=0.2, high=0.8, loss=_LOSS()),
    "disclosure.ratio_interval_probability": lambda: dict(prior=0.3, eps=0.5, loss=_LOSS()),
    "disclosure.difference_interval_probability": lambda: dict(prior=0.3, eps=0.5, loss=_LOSS()),
    "disclosure.posterior_quantile": lambda: dict(prior=0.3, q=0.3, loss=_LOSS()),
    "disclosure.first_exceeding": lambda: dict(values=[0.1, 0.7], threshold=0.5, start=1),
    "disclosure.explain": lambda: dict(eps=0.5, delta=1e-6, delta_prime=0.01, prior=0.3),
    "mechanisms.hamming_adjacent": lambda: dict(x=(0, 1), y=(0, 0)),
}
# hostile stand-ins for an object (a mechanism, a model, a loss, a variable name, an index set): each must give a
# ValueError naming the parameter, or a result without NaN where it happens to be a valid value
OBJECT_EXTREMES = [None, 0.5, "zz", np.array([1.0]), [[0.5]], {"a": 1}]
# parameters that hold a probability distribution: a hostile one must be refused with a ValueError naming it
DISTRIBUTIONS = {"belief", "population", "joint", "joint_prime", "p_in", "p_out", "null", "alternative",
                 "row_present", "row_absent", "p", "q", "prior"}


def hostile_distributions(valid):
    """Variants of a valid distribution that are not distributions: a negative entry (the sum kept), every entry
    doubled, a NaN, an infinity, an empty array, text, None."""
    a = np.array(valid, dtype=float)
    flat = a.ravel()
    negative = flat.copy()
    negative[0], negative[-1] = -0.5, flat[-1] + flat[0] + 0.5
    nan, inf = flat.copy(), flat.copy()
    nan[0], inf[0] = math.nan, math.inf
    return [negative.reshape(a.shape), 2 * a, nan.reshape(a.shape), inf.reshape(a.shape), np.zeros(0), "ab", None]


def _public_functions():
    out = []
    for mod in MODULES:
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isfunction(obj):
                out.append((mod.__name__.rsplit(".", 1)[1], name, obj))
    return out


FUNCTIONS = _public_functions()


def _signature_call(func, valid: dict, *, keywords: bool):
    """[(name, value, keyword-only?)] for a valid call of ``func`` from the table ``valid`` (factories called),
    keyword-only parameters included only with ``keywords``; None when a required parameter has no valid value."""
    args = []
    for name, param in inspect.signature(func).parameters.items():
        if param.kind in (param.VAR_KEYWORD, param.VAR_POSITIONAL) or (param.kind is param.KEYWORD_ONLY
                                                                       and not keywords):
            continue
        if param.default is not param.empty and name not in valid:
            continue
        if name not in valid:
            return None
        v = valid[name]
        args.append((name, v() if callable(v) and not isinstance(v, (list, tuple)) else v,
                     param.kind is param.KEYWORD_ONLY))
    return args


def _base_call(module: str, func):
    """[(name, value)]: the valid base call of ``func`` (positional order), from BASE_CALLS or from VALID."""
    if f"{module}.{func.__name__}" in BASE_CALLS:
        given = BASE_CALLS[f"{module}.{func.__name__}"]()
        return [(name, given[name]) for name in inspect.signature(func).parameters if name in given]
    found = _signature_call(func, VALID, keywords=False)
    return None if found is None else [(name, value) for name, value, _ in found]


def _kind(name: str, value) -> str:
    """How a parameter is swept: "distribution", "number" or "object"."""
    if name in DISTRIBUTIONS and np.size(value) > 1:
        return "distribution"
    if name in OBJECTS or not isinstance(value, (int, float)) or isinstance(value, bool):
        return "object"
    return "number"


def _names_one(err: Exception, names) -> bool:
    """Whether the message names one of ``names`` as a word (``i`` inside ``prior`` does not count)."""
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", str(err)) for n in names)


class _Hang(Exception):
    pass


def _alarm(*_):
    raise _Hang


REFUSED = object()  # what _judge returns for a call refused with a ValueError that names a parameter


def _judge(func, args, names, *, refuse: str | None = None, kwargs: dict | None = None):
    """Call ``func(*args, **kwargs)``: a ValueError must name one of ``names``; a result must hold no NaN; with
    ``refuse`` (a parameter given a value that is not valid), only a ValueError naming it is accepted.  Returns
    the result, or REFUSED."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(20)
        try:
            with np.errstate(divide="raise", over="raise", invalid="raise"):
                result = func(*args, **(kwargs or {}))
        except ValueError as err:
            assert _names_one(err, [refuse] if refuse else names), \
                f"{func.__name__}{tuple(args)!r}{kwargs or ''}: message names no parameter: {err}"
            return REFUSED
        except _Hang:
            pytest.fail(f"{func.__name__}{tuple(args)!r}{kwargs or ''} ran for more than 20 s")
        except Exception as err:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{func.__name__}{tuple(args)!r}{kwargs or ''} raised {type(err).__name__}: {err}")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
    assert refuse is None, f"{func.__name__}{tuple(args)!r}{kwargs or ''} accepted {refuse} (returned {result!r:.80})"
    _no_nan(result, func)
    return result


def _no_nan(result, func):
    if isinstance(result, (tuple, list)):
        for part in result:
            _no_nan(part, func)
        return
    if isinstance(result, dict):
        for part in result.values():
            _no_nan(part, func)
        return
    if isinstance(result, (float, np.ndarray, np.floating)) and np.asarray(result).dtype.kind == "f":
        assert not np.any(np.isnan(result)), f"{func.__name__}: NaN in the result"


def test_every_public_function_is_reached():
    """The surface is every ``__all__`` function, and each has a base call that succeeds."""
    missing = [f"{m}.{n}" for m, n, f in FUNCTIONS if _base_call(m, f) is None]
    assert not missing, f"no base call for {missing}: add their parameters to VALID or the call to BASE_CALLS"
    stale = set(BASE_CALLS) - {f"{m}.{n}" for m, n, _ in FUNCTIONS}
    assert not stale, stale


# Functions not yet total (each fails the sweep); empty since every public function passed it.  Strict xfail:
# the day one is fixed, its mark must go.
KNOWN_FAILURES: set[str] = set()
_CASES = [pytest.param(m, n, f, id=f"{m}.{n}",
                       marks=[pytest.mark.xfail(strict=True, reason="not yet total: see KNOWN_FAILURES")]
                       if f"{m}.{n}" in KNOWN_FAILURES else []) for m, n, f in FUNCTIONS]


@pytest.mark.parametrize("module, name, func", _CASES)
def test_extremes_in_every_parameter(module, name, func):
    base = dict(_base_call(module, func))
    names = list(inspect.signature(func).parameters)
    result = func(**base)  # the base call is valid: it returns (a ValueError here is a wrong table entry)
    _no_nan(result, func)
    for pname, value in base.items():
        kind = _kind(pname, value)
        extremes = (NUMERIC_EXTREMES if kind == "number" else OBJECT_EXTREMES if kind == "object"
                    else hostile_distributions(value))
        for extreme in extremes:
            call = dict(_base_call(module, func))  # fresh objects: a call may not see another's
            call[pname] = extreme
            _judge(func, [], names, kwargs=call, refuse=pname if kind == "distribution" else None)


# ------------------------------------------------------------------ issue 23's outcomes, as named cases


ISSUE_23 = {
    "optimal_lattice k=10**400": (lambda: composition.optimal_lattice(0.1, 10**400, 1), "k"),
    "lattice_optimal_epsilon k=10**400": (lambda: disclosure.lattice_optimal_epsilon(0.1, 10**400, 1e-6), "k"),
    "PrivacyLoss.gaussian sigma=1.7e308": (lambda: PrivacyLoss.gaussian(1.7e308), "sigma"),
    "PrivacyLoss.gaussian sigma=5e-324": (lambda: PrivacyLoss.gaussian(5e-324), "sigma"),
    "PrivacyLoss.lattice h=5e-324": (lambda: PrivacyLoss.laplace(1.0).lattice(5e-324), "h"),
    "theorem39_tight_pair eps=1.7e308": (lambda: disclosure_evidence.theorem39_tight_pair(1.7e308, 1e-6, 1e-3), "eps"),
    "bayes_posterior like_present=inf": (lambda: disclosure.bayes_posterior(0.5, math.inf, 1.0), "like_present"),
    "composed_epsilon ks=['1','10']": (lambda: disclosure.composed_epsilon(0.1, ["1", "10"], 1e-6), "ks"),
    "per_release_epsilon delta_total=2": (lambda: disclosure.per_release_epsilon(1.0, 10, 2.0), "delta_total"),
    "per_release_epsilon delta_total below k*delta0": (
        lambda: disclosure.per_release_epsilon(1.0, 10, 1e-6, 1e-6, method="advanced"), "delta_total"),
    "PrivacyLoss.randomized_response k=1e10": (lambda: PrivacyLoss.randomized_response(0.1, 10**10), "k"),
    "PrivacyLoss.lattice self_compose k=10**400": (
        lambda: PrivacyLoss.laplace(1.0).lattice(0.01).self_compose(10**400), "k"),
}


@pytest.mark.parametrize("case", list(ISSUE_23), ids=list(ISSUE_23))
def test_issue_23_errors_name_the_callers_parameter(case):
    call, name = ISSUE_23[case]
    with pytest.raises(ValueError) as info:
        call()
    message = str(info.value)
    assert message.startswith(name) or f"{name}=" in message or f" {name} " in message, message
    assert "\n" not in message and len(message) < 300, message


ISSUE_23_VALUES = {
    "optimal_lattice eps0=1.7e308 (was NaN)": lambda: composition.optimal_lattice(1.7e308, 10, 1),
    "zcdp_epsilon tight rho=1e-300 (was RuntimeError)": lambda: conversions.zcdp_epsilon(1e-300, 1e-6, tight=True),
    "zcdp_delta tight rho=1e-295": lambda: conversions.zcdp_delta(1e-295, 1.0, tight=True),
    "zcdp_epsilon tight rho=1e-290": lambda: conversions.zcdp_epsilon(1e-290, 1e-10, tight=True),
    "PrivacyLoss.randomized_response k=1e8 (was 4.9 GB)":
        lambda: PrivacyLoss.randomized_response(0.1, 10**8).sf(0.0),
}


@pytest.mark.parametrize("case", list(ISSUE_23_VALUES), ids=list(ISSUE_23_VALUES))
def test_issue_23_values_are_finite_or_limits(case):
    out = ISSUE_23_VALUES[case]()
    assert not np.any(np.isnan(np.asarray(out, dtype=float)))


# ------------------------------------------------------------------ objects: the PLD type and the release classes
#
# The functions above take numbers; these take them through an object.  Every public method of
# pld.PrivacyLossDistribution and of the release classes (constructors included) is called with a valid base call,
# then with one numeric parameter at a time replaced by each extreme: the same outcomes are required (a result
# without NaN, or a ValueError naming the parameter).  The release classes name their fields as a release does,
# so their messages may use that name (``epsilon`` for ``eps``, ``delta`` for ``delta0``, ``rho`` for ``rho0``).
# privacy_loss.PrivacyLoss is swept the same way: its constructors and every public method of one instance of each.

from dpsemantics import pld as pld_module  # noqa: E402
from dpsemantics import releases  # noqa: E402

PLD = pld_module.PrivacyLossDistribution

METHOD_VALID = {
    "eps": 0.5, "delta": 1e-6, "delta0": 1e-8, "delta_prime": 0.01, "k": 3, "k_other": 2, "h": 0.01, "t": 1.0,
    "sigma": 2.0, "sensitivity": 1.0, "rho": 0.1, "rho0": 0.1, "epsilon": 0.5, "resolution": 2**10,
    "weights": [0.5, 0.5], "plds": lambda: [PLD.laplace(0.5, h=0.01), PLD.randomized_response(0.5, h=0.01)],
    "other": None,  # filled per object: an instance of the same kind
    "q": 0.3, "alpha": 0.01, "a": -0.5, "b": 0.5, "row_present": [0.5, 0.3, 0.2], "row_absent": [0.2, 0.3, 0.5],
    "eps_max": 200.0,
}
METHOD_OBJECTS = {"plds", "other"}
FIELD_ALIASES = {"eps": "epsilon", "delta0": "delta", "rho0": "rho"}


def _release_instances():
    """One instance of every registered mechanism (from its declared ``example``) and a composition."""
    out = {cls.__name__: cls.from_fields(**cls.example) for cls in releases.FROM_FIELDS.values()}
    return {**out, "Composed": releases.Composed([releases.Laplace(0.5), (releases.Gaussian(2.0), 2)])}


def _public_methods(cls) -> list[str]:
    """The names of a class's public methods (functions defined on it or inherited, not properties)."""
    return [name for name, _ in inspect.getmembers(cls, inspect.isfunction) if not name.startswith("_")]


def _object_calls():
    """(label, callable, instance of the same kind for ``other``) for every public method and constructor."""
    calls = []
    pld = PLD.laplace(0.5, h=0.01)
    for name in ("laplace", "gaussian", "randomized_response", "geometric", "approximate_dp", "mixture"):
        calls.append((f"PrivacyLossDistribution.{name}", getattr(PLD, name), pld))
    calls += [(f"PrivacyLossDistribution().{name}", getattr(pld, name), PLD.randomized_response(0.5, h=0.01))
              for name in _public_methods(PLD)]
    calls.append(("PrivacyLossDistribution().optimistic", lambda: pld.optimistic, pld))
    laws = {"laplace": PrivacyLoss.laplace(0.5), "gaussian": PrivacyLoss.gaussian(2.0),
            "randomized_response": PrivacyLoss.randomized_response(0.5, 3), "geometric": PrivacyLoss.geometric(0.5, 2),
            "finite": PrivacyLoss.finite([0.5, 0.3, 0.2], [0.2, 0.3, 0.5])}
    for name, law in laws.items():
        calls.append((f"PrivacyLoss.{name}", getattr(PrivacyLoss, name), None))
        calls += [(f"PrivacyLoss.{name}().{method}", getattr(law, method), law)
                  for method in _public_methods(PrivacyLoss)]
    for cls_name, obj in _release_instances().items():
        cls = type(obj)
        if cls_name != "Composed":
            calls.append((f"releases.{cls_name}", cls, obj))
        calls += [(f"releases.{cls_name}().{name}", getattr(obj, name), obj) for name in _public_methods(cls)]
    calls.append(("releases.Gaussian.calibrated", releases.Gaussian.calibrated, None))
    for field_name in releases.FROM_FIELDS:
        calls.append((f"releases.from_fields('{field_name}')", lambda name=field_name, **kw: releases.from_fields(
            name, **kw), None))
    return calls


#: The base call of each registered mechanism's from_fields: its declared example.
_FROM_FIELDS_BASE = {name: cls.example for name, cls in releases.FROM_FIELDS.items()}


def _object_base(label, func, other):
    """[(name, value, keyword?)]: the base call's arguments, or None when a parameter has no valid value."""
    if label.startswith("releases.from_fields("):
        kind = label.split("'")[1]
        return [(n, v, True) for n, v in _FROM_FIELDS_BASE[kind].items()]
    return _signature_call(func, {**METHOD_VALID, "other": other}, keywords=True)


def _bound_call(label, func, args):
    """A no-argument callable whose name shows the call (for _judge's messages)."""
    def call():
        return func(*[v for _, v, kw in args if not kw], **{n: v for n, v, kw in args if kw})
    call.__name__ = f"{label}({', '.join(f'{n}={v!r}' for n, v, _ in args)})"
    return call


OBJECT_CALLS = _object_calls()


def test_every_object_method_is_reached():
    missing = [label for label, func, other in OBJECT_CALLS if _object_base(label, func, other) is None]
    assert not missing, f"no base call for {missing}: add their parameters to METHOD_VALID"
    assert len(OBJECT_CALLS) > 100


# Methods not yet total (each fails the sweep; strict xfail, so the day one is fixed its line must go).
OBJECT_KNOWN_FAILURES: dict[str, str] = {}
_OBJECT_CASES = [pytest.param(label, func, other, id=label,
                              marks=[pytest.mark.xfail(strict=True, reason=OBJECT_KNOWN_FAILURES[label])]
                              if label in OBJECT_KNOWN_FAILURES else []) for label, func, other in OBJECT_CALLS]


def test_object_known_failures_are_current():
    assert set(OBJECT_KNOWN_FAILURES) <= {label for label, _, _ in OBJECT_CALLS}


@pytest.mark.parametrize("label, func, other", _OBJECT_CASES)
def test_extremes_in_every_object_method(label, func, other):
    base = _object_base(label, func, other)
    names = [n for n, _, _ in base] + [FIELD_ALIASES[n] for n, _, _ in base if n in FIELD_ALIASES]
    _judge(_bound_call(label, func, base), [], names or ["self"])
    for i, (pname, _, _) in enumerate(base):
        if pname in METHOD_OBJECTS:
            continue
        for extreme in NUMERIC_EXTREMES:
            args = list(base)
            args[i] = (pname, extreme, base[i][2])
            _judge(_bound_call(label, func, args), [], names)
