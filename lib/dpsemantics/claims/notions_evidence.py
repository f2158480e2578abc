"""Evidence for the claims of Zhao, *Relations Among Different Privacy Notions* (paper 001): the cases searched.

Seeded random mechanisms and priors for the searches, the named example mechanisms and priors on which
:mod:`dpsemantics.claims.zhao` and the chapter check Theorems 1–3, and the table of the four leakage numbers those
theorems relate; the notions themselves (BDP leakage, Bayesian semantic privacy, semantic privacy) are in
:mod:`dpsemantics.notions`.
"""

from __future__ import annotations

import itertools

import numpy as np

from .._validate import check_epsilon, check_positive_int
from ..mechanisms import FiniteMechanism, geometric_count, local_randomized_response
from ..notions import (
    bayesian_semantic_privacy,
    bdp_leakage,
    copies_prior,
    independent_prior,
    markov_chain_prior,
    semantic_privacy,
    xor_randomized_response,
)

__all__ = ["random_prior", "random_mechanism", "example_cases", "leakage_pairs"]


def random_prior(n: int, rng: np.random.Generator, concentration=1.0) -> dict:
    """A Dirichlet-random (hence generally correlated, full-support) prior over {0,1}^n."""
    n = check_positive_int(n, "n")
    dbs = list(itertools.product((0, 1), repeat=n))
    w = rng.dirichlet(np.full(len(dbs), float(concentration)))
    w = np.maximum(w, 1e-12)
    w /= w.sum()
    return dict(zip(dbs, w.tolist()))


def random_mechanism(n: int, n_outputs: int, rng: np.random.Generator, concentration=1.0) -> FiniteMechanism:
    """A mechanism on {0,1}^n whose rows are Dirichlet-random distributions on ``n_outputs`` outputs."""
    n = check_positive_int(n, "n")
    n_outputs = check_positive_int(n_outputs, "n_outputs", minimum=2)
    dbs = list(itertools.product((0, 1), repeat=n))
    rows = rng.dirichlet(np.full(n_outputs, float(concentration)), size=len(dbs))
    rows = np.maximum(rows, 1e-12)
    rows /= rows.sum(axis=1, keepdims=True)
    return FiniteMechanism(rows, dbs, list(range(n_outputs)))


def example_cases(seed: int = 0, count: int = 40, eps=1.0) -> list[tuple[str, FiniteMechanism, dict]]:
    """Named cases ``(name, mechanism, prior)`` on {0,1}^n: ε-local randomized response and the ε-DP
    count under independent, Markov-chain and copied records, the XOR mechanism, and ``count`` random
    mechanisms (two records, three outputs) under random correlated priors (seeded)."""
    count = check_positive_int(count, "count", minimum=0)
    eps = check_epsilon(eps, "eps", strictly_positive=True)
    rng = np.random.default_rng(seed)
    cases = []
    for n in (2, 3):
        for mech_name, mech in (("local RR", local_randomized_response(n, eps)), ("count", geometric_count(n, eps))):
            for prior_name, prior in (
                ("independent", independent_prior(n)),
                ("Markov 0.8", markov_chain_prior(n, 0.8)),
                ("Markov 0.95", markov_chain_prior(n, 0.95)),
                ("copies", copies_prior(n)),
            ):
                cases.append((f"{mech_name}, n={n}, {prior_name}", mech, prior))
    cases.append(("XOR RR, independent", xor_randomized_response(eps), independent_prior(2)))
    for k in range(count):
        cases.append((f"random #{k}", random_mechanism(2, 3, rng, 0.7), random_prior(2, rng, 0.7)))
    return cases


def leakage_pairs(cases, default=0) -> np.ndarray:
    """Rows ``(DP ε, SP, BDP ε, BSP)`` for each ``(name, mechanism, prior)`` case: the four numbers that
    Theorems 1 and 2 relate."""
    rows = []
    for _, mech, prior in cases:
        rows.append(
            (
                mech.epsilon(),
                semantic_privacy(mech, default),
                bdp_leakage(mech, prior),
                bayesian_semantic_privacy(mech, prior, default),
            )
        )
    return np.array(rows, dtype=float)
