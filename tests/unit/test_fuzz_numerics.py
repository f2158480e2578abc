"""Fuzzing the public numeric surface: every input gives the right value or limit, or a ValueError.

Each public numeric function of the mathematical modules is called with extreme values — 0, −0.0,
subnormals, 1e±300, the largest float, ±inf, NaN, integers beyond the float range, booleans, strings,
0-d and n-d arrays — with every warning raised as an error.  The only acceptable outcomes are a result
with no NaN and no −0.0 (a Python float for scalar input, a float array otherwise), or a ``ValueError``
whose message names one of the function's parameters.  Then the guarantee-direction properties: every
calibration returns a value that really meets its target, and is minimal to 1e-9 relative.
"""

from __future__ import annotations

import inspect
import math
import warnings

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dpsemantics import composition as K
from dpsemantics import conversions as C
from dpsemantics import disclosure as D
from dpsemantics import mechanisms as M
from dpsemantics.privacy_loss import PrivacyLoss

EXTREMES = [
    0, 0.0, -0.0, 5e-324, 2.2250738585072014e-308, 1e-300, 1e-12, 0.3, 0.5, 1, 2.5, 10, 709.8, 745.2, 1e12,
    1e155, 1e300, 1.7976931348623157e308, math.inf, -math.inf, math.nan, -1, -1e-300, 10**400, -(10**400),
    2**64, True, False, np.float64(0.7), np.int64(3), np.array(0.25), np.array([0.1, 0.9]),
    np.array([[0.2], [3.0]]), np.array([], dtype=float), "0.5", None, 1 + 2j,
]

value = st.one_of(st.sampled_from(EXTREMES), st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 10**6))

# (function, number of positional arguments to fuzz); keyword flags are fuzzed separately
SURFACE = [
    (M.randomized_response_delta, 2),
    (M.laplace_delta, 3),
    (M.gaussian_delta, 3),
    (M.gaussian_log_delta, 3),
    (M.gaussian_sigma, 3),
    (M.two_sided_geometric_pmf, 2),
    (M.name_and_shame_exposure, 2),
    (PrivacyLoss.randomized_response, 1),
    (PrivacyLoss.laplace, 1),
    (PrivacyLoss.gaussian, 2),
    (C.pdp_epsilon, 3),
    (C.pdp_delta, 3),
    (C.pdp_to_dp, 2),
    (C.pure_to_zcdp, 1),
    (C.zcdp_epsilon, 2),
    (C.zcdp_delta, 2),
    (C.zcdp_gaussian_delta, 2),
    (K.basic_epsilon, 2),
    (K.basic_delta, 2),
    (K.advanced_epsilon, 4),
    (K.optimal_delta, 4),
    (K.optimal_log_delta, 4),
    (K.optimal_epsilon, 4),
    (K.max_eps0, 4),
    (K.zcdp_compose, 2),
    (D.posterior_bounds, 2),
    (D.ratio_bounds, 1),
    (D.prior_ratio_bounds, 2),
    (D.difference_bound, 1),
    (D.prior_difference_bounds, 2),
    (D.worst_case_prior, 1),
    (D.epsilon_tilde, 1),
    (D.symmetric_ratio_bounds, 2),
    (D.symmetric_difference_bound, 2),
    (D.posterior_from_privacy_loss, 2),
]


def _assert_clean(result):
    """A float or a float array (possibly inside a tuple), no NaN, no −0.0."""
    if isinstance(result, tuple):
        for part in result:
            if not callable(part) and not hasattr(part, "cdf"):
                _assert_clean(part)
        return
    if isinstance(result, PrivacyLoss):  # a privacy-loss law: its tail and profile are clean numbers
        for value in (result.sf(0.0), result.cdf(0.0), result.delta(0.5), result.pdp_delta(0.5)):
            _assert_clean(value)
        return
    if isinstance(result, np.ndarray):
        assert result.dtype == float, result.dtype
        assert not np.any(np.isnan(result))
        assert not np.any((result == 0) & np.signbit(result)), "−0.0 in result"
        return
    assert type(result) is float, f"expected a Python float, got {type(result).__name__}"
    assert not math.isnan(result)
    assert not (result == 0 and math.copysign(1, result) < 0), "−0.0 returned"


def _call_and_judge(func, args):
    names = list(inspect.signature(func).parameters)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            with np.errstate(divide="raise", over="raise", invalid="raise"):  # underflow to 0 is correct
                result = func(*args)
        except ValueError as err:
            message = str(err)
            assert any(name in message for name in names), \
                f"{func.__name__}{args}: message names no parameter: {message}"
            return
        except Exception as err:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{func.__name__}{tuple(args)!r} raised {type(err).__name__}: {err}")
    _assert_clean(result)


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


@pytest.mark.parametrize("func, arity", SURFACE, ids=[f.__name__ for f, _ in SURFACE])
@FUZZ
@given(data=st.data())
def test_total_on_extreme_inputs(func, arity, data):
    args = [data.draw(value, label=f"arg{i}") for i in range(arity)]
    _call_and_judge(func, args)


@pytest.mark.parametrize("func, arity", SURFACE, ids=[f.__name__ for f, _ in SURFACE])
def test_every_extreme_in_every_position(func, arity):
    """Deterministic sweep: one extreme value at a time, the other arguments at a valid default."""
    defaults = {
        "eps": 0.5, "eps_rr": 1.0, "eps_mech": 1.0, "sigma": 2.0, "sensitivity": 1.0, "delta": 1e-6,
        "delta_prime": 0.01, "eps_prime": 2.0, "rho": 0.1, "eps0": 0.1, "k": 10, "delta0": 0.0,
        "eps_total": 1.0, "rhos": 0.1, "n": 5, "prior": 0.3, "z": 0.5,
    }
    names = list(inspect.signature(func).parameters)[:arity]
    base = [defaults.get(n, 0.5) for n in names]
    _call_and_judge(func, base)
    for i in range(arity):
        for extreme in EXTREMES:
            args = list(base)
            args[i] = extreme
            _call_and_judge(func, args)


def test_issue_reproducers():
    """The audit's reproducers (issue 12): the right value, or a ValueError naming the parameter."""
    assert M.gaussian_sigma(1.0, 1e-6, 1e-18) == pytest.approx(1e-18 * M.gaussian_sigma(1.0, 1e-6), rel=1e-12)
    assert M.gaussian_sigma(1.0, 1e-6, 1e-15) == pytest.approx(1e-15 * M.gaussian_sigma(1.0, 1e-6), rel=1e-12)
    with mpmath.workdps(80):
        sigma = M.gaussian_sigma(0.0, 1e-30)  # ε = 0: δ = erf(1/(2√2 σ)) ≤ 1e-30
        assert mpmath.erf(1 / (2 * mpmath.sqrt(2) * mpmath.mpf(sigma))) <= mpmath.mpf(1e-30)
    assert C.zcdp_delta(745, 1.0, tight=True) == 1.0
    assert C.zcdp_epsilon(5e-324, 1e-6, tight=True) == 0.0
    assert K.optimal_epsilon(1.7976931348623157e308, 10, 1e-6) == math.inf
    # k = 1e9 in O(√k) memory; against the central limit: the loss ε₀(k − 2ℓ), ℓ ~ Bin(k, 1/(1 + e^{ε₀})),
    # spreads over thousands, so δ(ε) ≈ Pr[L > ε]
    from scipy.stats import norm

    q = 1 / (1 + math.exp(0.1))
    clt = 0.1 * 10**9 * (1 - 2 * q) + norm.isf(1e-6) * 0.2 * math.sqrt(10**9 * q * (1 - q))
    assert K.optimal_epsilon(0.1, 10**9, 1e-6) == pytest.approx(clt, rel=1e-5)
    with pytest.raises(ValueError, match="k must be at most 1000000000"):
        K.optimal_epsilon(0.1, 10**10, 1e-6)
    with pytest.raises(ValueError, match="eps0"):
        K.optimal_epsilon(10**400, 10, 1e-6)
    with pytest.raises(ValueError, match="sigma"):
        PrivacyLoss.gaussian(1e-300)
    for args in [(1.0, 1e155), (1e300, 1.0), (1.0, 1.0, 1e-200), (1.0, 1e100)]:
        out = M.gaussian_delta(*args)
        assert out == 5e-324  # the exact δ is positive and below every float: the smallest one, not 0
    assert K.advanced_epsilon(710, 10, 1e-6) == math.inf
    assert M.randomized_response_delta(746, 1) == 0.0
    with pytest.raises(ValueError, match="k must be at most"):
        K.max_eps0(1.0, 2**64, 1e-6)
    assert M.gaussian_sigma(1e12, 1e-6) > 0
    with pytest.raises(ValueError, match="rhos"):
        K.zcdp_compose(0, 10)
    for call, name in [(lambda: PrivacyLoss.laplace(np.array([1.0, 2.0])), "eps"),
                       (lambda: K.max_eps0(np.array([1.0, 2.0]), 10, 1e-6), "eps_total")]:
        with pytest.raises(ValueError, match=f"{name} must be a single number"):
            call()
    with pytest.raises(ValueError, match="boolean"):
        C.pdp_epsilon(True, 0.0, 0.5)
    with pytest.raises(ValueError, match="boolean"):
        K.basic_epsilon(1.0, True)
    assert K.optimal_delta(0.001, 1e-4, 10) == pytest.approx(2.6483e-23, rel=1e-3)


# --- guarantee direction: each calibration meets its target and is minimal ---------------------------------

eps_st = st.one_of(st.sampled_from([0.0, 1e-6, 1e-3, 0.1, 1.0, 5.0, 30.0]), st.floats(0, 40))
delta_st = st.one_of(st.sampled_from([0.5, 1e-3, 1e-6, 1e-12, 1e-50, 1e-200, 1e-300]),
                     st.floats(1e-300, 0.9).map(lambda d: d))
scale_st = st.sampled_from([1e-18, 1e-15, 1e-6, 1.0, 1e6, 1e12])
GUARANTEE = settings(max_examples=200, deadline=None, derandomize=True)


@GUARANTEE
@given(eps=eps_st, delta=delta_st, s=scale_st)
def test_gaussian_sigma_meets_delta_and_is_minimal(eps, delta, s):
    try:
        sigma = M.gaussian_sigma(eps, delta, s)
    except ValueError as err:  # only where σ leaves the float range: δ(ε; r) ≤ δ(0; r) ≤ r/√(2π), so every
        # r ≤ √(2π)·δ is admissible and σ = Δ/r ≤ Δ/(√(2π)δ): beyond the float range only if Δ/δ > 4.5e308
        assert "sigma" in str(err) and math.log10(s) - math.log10(delta) > 308.65
        return
    assert M.gaussian_delta(eps, sigma / s) <= delta
    assert M.gaussian_delta(eps, sigma, s) <= delta
    assert M.gaussian_delta(eps, sigma * (1 - 1e-9), s) > delta


k_st = st.one_of(st.sampled_from([1, 2, 10, 101, 1000, 10**5]), st.integers(1, 3000))
eps0_st = st.one_of(st.sampled_from([1e-4, 0.01, 0.1, 1.0, 5.0]), st.floats(1e-4, 8))


@GUARANTEE
@given(eps0=eps0_st, k=k_st, delta=delta_st, delta0=st.sampled_from([0.0, 1e-12, 1e-8]))
def test_optimal_epsilon_meets_delta_and_is_minimal(eps0, k, delta, delta0):
    assume(delta > 2 * -math.expm1(k * math.log1p(-delta0)))
    eps = K.optimal_epsilon(eps0, k, delta, delta0)
    assert K.optimal_delta(eps, eps0, k, delta0) <= delta
    if eps > 0:
        assert K.optimal_delta(eps * (1 - 1e-9), eps0, k, delta0) > delta or eps * 1e-9 < 1e-300


@GUARANTEE
@given(rho=st.one_of(st.sampled_from([1e-8, 1e-3, 0.1, 1.0, 10.0]), st.floats(1e-6, 50)), delta=delta_st,
       tight=st.booleans())
def test_zcdp_epsilon_meets_delta(rho, delta, tight):
    eps = C.zcdp_epsilon(rho, delta, tight=tight)
    assert C.zcdp_delta(rho, eps, tight=tight) <= delta * (1 + 1e-12)


@GUARANTEE
@given(eps=st.floats(0, 20), delta=st.floats(0, 0.5), frac=st.floats(1e-6, 1.0))
def test_pdp_epsilon_and_delta_are_inverse(eps, delta, frac):
    delta_prime = delta + frac * (1 - delta)
    assume(delta_prime > delta)
    eps_prime = C.pdp_epsilon(eps, delta, delta_prime)
    # δ′ as a function of ε′ has condition number ~ ε′/(ε′ − ε): the round trip is only as good as the gap
    assume(delta > 0 and eps_prime - eps > 1e-6 * max(1.0, eps))
    assert C.pdp_delta(eps, delta, eps_prime) == pytest.approx(delta_prime, rel=1e-9)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(eps_total=st.floats(0.01, 20), k=st.sampled_from([1, 2, 10, 100, 1000]),
       delta=st.sampled_from([1e-3, 1e-6, 1e-10]),
       method=st.sampled_from(["basic", "advanced", "optimal"]))
def test_max_eps0_never_exceeds_budget(eps_total, k, delta, method):
    e0 = K.max_eps0(eps_total, k, delta, method=method)
    composed = {"basic": lambda e: K.basic_epsilon(e, k), "advanced": lambda e: K.advanced_epsilon(e, k, delta),
                "optimal": lambda e: K.optimal_epsilon(e, k, delta)}[method]
    assert composed(e0) <= eps_total
    assert composed(e0 * (1 + 1e-9)) > eps_total or method == "optimal" and composed(e0 * (1 + 1e-9)) == 0
