"""One broadcasting decorator for the package's functions of numbers (issue 21: one type per idea).

Many public functions take numbers or arrays of numbers (ε, δ, a prior, ...) and must all follow the same rule
(:mod:`dpsemantics._validate`): validate each argument under the caller's parameter name, broadcast the arguments
to one shape (or say which ones do not fit), read floating-point overflow as ±∞, and return a Python ``float``
for scalar input and a float ``numpy.ndarray`` otherwise.  :func:`broadcasting` does those four steps once, so
that a function's body is only its formula::

    @broadcasting(eps=check_epsilon, delta=partial(check_delta, open_low=True))
    def bound(eps, delta):
        return np.expm1(eps) + delta

With ``elementwise=True`` the body receives single floats and is called once per element of the broadcast
shape: for bodies that cannot be written with array operations (a bisection, a one-dimensional optimiser).
"""

from __future__ import annotations

import functools
import inspect
from typing import Callable

import numpy as np

from ._validate import as_output, broadcast

__all__ = ["broadcasting"]


def _output(out):
    """The package's one return type, applied to each part of a tuple of results."""
    if isinstance(out, tuple):
        return tuple(_output(v) for v in out)
    if isinstance(out, (bool, np.bool_)):
        return bool(out)
    if isinstance(out, (int, float, np.integer, np.floating, np.ndarray)):
        return as_output(out)
    return out


def broadcasting(*, elementwise: bool = False, **checks: Callable):
    """Decorate a function of numbers: each parameter named in ``checks`` is validated by its check, called as
    ``check(value, name)`` (so that a ``ValueError`` names the caller's parameter and value); the checked
    parameters are broadcast to one shape (a ``ValueError`` names them and their shapes when they do not fit);
    the body runs with overflow read as ±∞ (invalid operations still raise or give NaN as the body decides);
    the result, or each part of a tuple of results, is a ``float`` for scalar input and a float array otherwise.

    ``elementwise=True`` calls the body once per element with Python floats and assembles the results (tuples
    element by element) into arrays of the broadcast shape.
    """

    def decorate(func):
        signature = inspect.signature(func)
        unknown = set(checks) - set(signature.parameters)
        if unknown:
            raise TypeError(f"{func.__name__} has no parameter(s) {sorted(unknown)} to check")

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            named = {name: check(bound.arguments[name], name) for name, check in checks.items()}
            arrays = broadcast(**named) if len(named) > 1 else [np.asarray(v) for v in named.values()]
            arrays = [np.asarray(a, dtype=float) for a in arrays]
            with np.errstate(over="ignore"):
                if not elementwise or not arrays or arrays[0].ndim == 0:
                    values = [float(a) for a in arrays] if elementwise else arrays
                    bound.arguments.update(zip(named, values))
                    return _output(func(*bound.args, **bound.kwargs))
                shape = arrays[0].shape
                results = []
                for idx in np.ndindex(shape):
                    bound.arguments.update((name, float(a[idx])) for name, a in zip(named, arrays))
                    results.append(func(*bound.args, **bound.kwargs))
            if results and isinstance(results[0], tuple):
                parts = zip(*results)
                return tuple(as_output(np.reshape(np.array(p, dtype=float), shape)) for p in parts)
            return as_output(np.reshape(np.array(results, dtype=float), shape))

        wrapper.checked_parameters = tuple(checks)
        return wrapper

    return decorate
