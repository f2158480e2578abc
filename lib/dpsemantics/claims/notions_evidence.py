"""Evidence for the claims of Zhao, *Relations Among Different Privacy Notions* (paper 001): the named cases.

The example mechanisms and priors on which :mod:`dpsemantics.claims.zhao` and the chapter check Theorems 1–3,
and the table of the four leakage numbers those theorems relate; the notions themselves (BDP leakage,
Bayesian semantic privacy, semantic privacy) are in :mod:`dpsemantics.notions`.
"""

from __future__ import annotations

import numpy as np

from .._validate import check_epsilon, check_positive_int
from ..mechanisms import FiniteMechanism, geometric_count, local_randomized_response
from ..notions import (
    bayesian_semantic_privacy,
    bdp_leakage,
    copies_prior,
    independent_prior,
    markov_chain_prior,
    random_mechanism,
    random_prior,
    semantic_privacy,
    xor_randomized_response,
)

__all__ = ["example_cases", "leakage_pairs"]


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
