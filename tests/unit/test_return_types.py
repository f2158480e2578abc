"""The one return type (``dpsemantics._validate``'s rule, DESIGN.md) over every public function of every
mathematical module, and the one broadcasting decorator (``dpsemantics._broadcast``).

* Called with single numbers, no public function returns a NumPy scalar (``np.float64``, ``np.bool_``) or a 0-d
  array anywhere in its result: numbers are Python ``float``/``int``/``bool``.
* Every function decorated with :func:`~dpsemantics._broadcast.broadcasting` gives, for an array argument, exactly
  the stack of its scalar calls (``semantic.dwork_mcsherry_delta(5, 0.5, [0.1, 0.6])`` is ``[1.0, …]``, as the
  scalar call at 0.1 is 1.0), and names the parameters that do not broadcast.

The valid base calls are the fuzz test's (``test_fuzz_surface``: VALID by parameter name, or BASE_CALLS), which
covers every public function, objects included; that test checks that each base call succeeds.
"""

from __future__ import annotations

import dataclasses
import inspect
import math

import numpy as np
import pytest

import test_fuzz_surface as fuzz
from dpsemantics import semantic
from dpsemantics._broadcast import broadcasting
from dpsemantics._validate import check_epsilon

# second values per parameter (the first inside the function's domain is used), on the other side of a branch
# where the function has one
SECOND = {"eps": [0.1], "eps0": [0.3], "eps_prime": [0.1], "eps_sem": [0.05], "delta": [1e-3], "delta_hat": [0.01],
          "n": [5], "prior": [0.9], "b": [0.05], "alpha": [4.0, 0.3], "q": [0.8], "t": [-1.0], "sigma": [0.3],
          "rho": [0.5], "delta_prime": [0.2], "spread": [3.0]}


def _call_args(module, func):
    return dict(fuzz._base_call(module, func))


def _numpy_scalars(result, where="result"):
    """Paths inside ``result`` that hold a NumPy scalar or a 0-d array."""
    if isinstance(result, (tuple, list)):
        return [w for k, part in enumerate(result) for w in _numpy_scalars(part, f"{where}[{k}]")]
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return [w for f in dataclasses.fields(result)
                for w in _numpy_scalars(getattr(result, f.name), f"{where}.{f.name}")]
    if isinstance(result, dict):
        return [w for k, part in result.items() for w in _numpy_scalars(part, f"{where}[{k!r}]")]
    if isinstance(result, np.generic) or (isinstance(result, np.ndarray) and result.ndim == 0):
        return [f"{where}: {type(result).__name__}"]
    return []


@pytest.mark.parametrize("module, name, func", fuzz.FUNCTIONS, ids=[f"{m}.{n}" for m, n, _ in fuzz.FUNCTIONS])
def test_scalar_calls_return_python_numbers(module, name, func):
    args = _call_args(module, func)
    result = func(**args)
    assert not _numpy_scalars(result), f"{module}.{name}({args}) returned {_numpy_scalars(result)}"


BROADCASTING = [(m, n, f) for m, n, f in fuzz.FUNCTIONS if hasattr(f, "checked_parameters")]


def test_the_decorator_is_used_where_the_modules_broadcast():
    """semantic, notions and disclosure broadcast through the decorator (their hand-written validate → broadcast →
    as_output wrappers are gone): at least these use it."""
    names = {n for _, n, _ in BROADCASTING}
    assert {"dwork_mcsherry_delta", "tight_semantic_epsilon", "scaled_posterior_ratio", "membership_g",
            "posterior_bounds", "leave_thresholds", "best_zcdp_pdp_epsilon"} <= names


@pytest.mark.parametrize("module, name, func", BROADCASTING, ids=[f"{m}.{n}" for m, n, _ in BROADCASTING])
def test_an_array_argument_is_the_stack_of_scalar_calls(module, name, func):
    args = _call_args(module, func)
    tried = 0
    for param in func.checked_parameters:
        if param not in SECOND:
            continue
        for second in SECOND[param]:
            values = [args[param], second]
            try:
                singles = [func(**{**args, param: v}) for v in values]
                break
            except ValueError:
                continue  # the second value is outside this function's domain
        else:
            continue
        tried += 1
        both = func(**{**args, param: np.array(values)})
        if isinstance(singles[0], tuple):
            for k in range(len(singles[0])):
                np.testing.assert_array_equal(both[k], [s[k] for s in singles], err_msg=f"{name} part {k}, {param}")
        else:
            np.testing.assert_array_equal(both, singles, err_msg=f"{name} over {param}")
    assert tried, f"{name}: no parameter could be varied"


def test_dwork_mcsherry_delta_elementwise_issue_21():
    """δ′ at ε′ = 0.1 is 1.0 (to 1e-15) for n = 5, σ = 0.5, with or without a second ε′ ≥ ½ beside it (where δ′ = 0):
    P[|2t − 1| > 4σ² artanh(2ε′)] for t ~ N(5, σ²), computed here from the normal CDF."""
    c = 4 * 0.25 * math.atanh(0.2)
    want = (0.5 * math.erfc(((1 + c) / 2 - 5) / (0.5 * math.sqrt(2)))
            + 0.5 * math.erfc((5 - (1 - c) / 2) / (0.5 * math.sqrt(2))))
    assert semantic.dwork_mcsherry_delta(5, 0.5, 0.1) == pytest.approx(want, abs=1e-15)
    np.testing.assert_allclose(semantic.dwork_mcsherry_delta(5, 0.5, [0.1, 0.6]), [want, 0.0], atol=1e-15)


def test_decorator_names_parameters_and_keeps_the_rule():
    @broadcasting(eps=check_epsilon, delta=check_epsilon)
    def f(eps, delta):
        return eps + delta, np.exp(eps)

    assert f(1.0, 2.0) == (3.0, math.e) and all(type(v) is float for v in f(1.0, 2.0))
    assert f(1000.0, 0.0)[1] == math.inf  # overflow is +inf, not a warning
    shapes = r"eps, delta must broadcast to one shape \(got shapes eps: \(2,\), delta: \(3,\)\)"
    with pytest.raises(ValueError, match=shapes):
        f([0.1, 0.2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="delta must not be NaN"):
        f(0.1, math.nan)
    with pytest.raises(TypeError, match="no parameter"):
        broadcasting(gamma=check_epsilon)(lambda eps: eps)

    @broadcasting(elementwise=True, eps=check_epsilon)
    def g(eps, scale=2.0):
        assert type(eps) is float
        return eps * scale, -eps

    assert g(1.5) == (3.0, -1.5)
    lo, hi = g(np.array([[1.0], [2.0]]), scale=3.0)
    np.testing.assert_array_equal(lo, [[3.0], [6.0]])
    assert hi.shape == (2, 1)
    assert inspect.signature(g).parameters["scale"].default == 2.0
