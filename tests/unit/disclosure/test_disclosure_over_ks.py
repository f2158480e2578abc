"""``composed_epsilon``, ``composed_posterior_bound`` and ``zcdp_eps_prime`` over arrays of k (one call of the
composition function over all the ks).  Their values must be those of k-by-k loops of scalar calls, bit for bit,
so that the array form is only faster: each entry equals the scalar call of the function it reads
(``composition.composed_epsilon_by``, ``best_zcdp_pdp_epsilon``), over hostile ks (1, the k ≤ 1000 batch edge,
k = 10⁶ and 10⁹) and every method."""

from __future__ import annotations

import numpy as np
import pytest

from dpsemantics import composition, conversions, disclosure

KS = [1, 2, 3, 10, 999, 1000, 1001, 4097, 10**6, 10**9]


@pytest.mark.parametrize("method", ["basic", "advanced", "optimal", "lattice"])
@pytest.mark.parametrize("eps0, delta", [(0.1, 1e-6), (0.003, 1e-12), (1.5, 0.2)])
def test_composed_epsilon_is_the_loop_of_scalar_calls(method, eps0, delta):
    ks = KS if method != "lattice" else KS[:8]  # the lattice bisection at k = 10⁹ takes seconds
    loop = [composition.composed_epsilon_by(method, eps0, k, delta) for k in ks]
    got = disclosure.composed_epsilon(eps0, ks, delta, method)
    assert isinstance(got, np.ndarray) and got.dtype == float and got.shape == (len(ks),)
    assert list(got) == loop


@pytest.mark.parametrize("method", ["basic", "optimal"])
def test_composed_posterior_bound_is_the_loop_of_scalar_calls(method):
    prior, eps0, delta, delta_prime = 0.3, 0.05, 1e-8, 1e-6
    d = 0.0 if method == "basic" else delta
    loop = [disclosure.posterior_bounds(prior, float(conversions.pdp_epsilon(
        composition.composed_epsilon_by(method, eps0, k, delta), d, delta_prime)))[1] for k in KS]
    assert list(disclosure.composed_posterior_bound(prior, eps0, KS, delta, delta_prime, method)) == loop


@pytest.mark.parametrize("tight", [False, True])
def test_zcdp_eps_prime_is_the_loop_of_scalar_calls(tight):
    ks = KS + list(range(11, 40))
    loop = [disclosure.best_zcdp_pdp_epsilon(float(composition.zcdp_compose(0.01, k)), 1e-6, tight=tight)[0]
            for k in ks]
    assert list(disclosure.zcdp_eps_prime(0.01, ks, 1e-6, tight=tight)) == loop


def test_a_single_k_is_an_array_of_one():
    assert disclosure.composed_epsilon(0.1, 7, 1e-6).shape == (1,)
    assert disclosure.zcdp_eps_prime(0.1, 7, 1e-6).shape == (1,)


@pytest.mark.parametrize("call, name", [
    (lambda: disclosure.composed_epsilon(0.1, [1, 0], 1e-6), "ks"),
    (lambda: disclosure.composed_epsilon(0.1, [1, 2], 0.0, "advanced"), "delta"),
    (lambda: disclosure.composed_epsilon(0.1, [1, 2], 0.0, "optimal"), "delta"),
    (lambda: disclosure.composed_epsilon(0.1, [1, 2], 1e-6, "best"), "method"),
    (lambda: disclosure.zcdp_eps_prime(0.1, [1, 2], [1e-6, 1e-5]), "delta_prime"),
    (lambda: disclosure.zcdp_eps_prime(0.1, [1, 2], 1e-320), "delta_prime"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
