"""Evidence for the claims of Kasiviswanathan & Smith (paper 000): searches over beliefs.

:mod:`dpsemantics.semantic` computes the semantic-privacy ε exactly (the two-point reduction) and the semantic δ of
one belief; the searches here look for the suprema over all beliefs without that reduction, as a second, different
method for the claims of :mod:`dpsemantics.claims.ks` and the chapter's checks.  They return lower bounds, as
:func:`grid_informed_semantic_epsilon` does for the informed beliefs of §2.1.  :func:`conditioning_counterexample`
is the book's witness against K&S Lemma 3.4 as its proof derives it (the paper prints no such example).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy.optimize import minimize
from scipy.special import log_softmax

from .. import semantic as S
from .._validate import (check_delta, check_epsilon, check_positive, check_positive_int, check_probability,
                         overflow_is_infinity)
from ..mechanisms import FiniteMechanism
from ..semantic import SemanticResult

__all__ = ["searched_semantic_epsilon", "worst_semantic_delta", "grid_informed_semantic_epsilon",
           "conditioning_counterexample"]


def searched_semantic_epsilon(mechanism: FiniteMechanism, *, default=0, seed: int = 0,
                              restarts: int = 3) -> SemanticResult:
    """The semantic-privacy ε of a finite mechanism (K&S Definition 2.1) by search: maximise SD over full beliefs
    (softmax parameters, L-BFGS from ``restarts`` seeded random starts) for every (i, t).

    Independent of the two-point reduction: it explores the whole simplex.  Returns a lower bound on
    the supremum (a local optimiser), which the claims and tests compare with ``semantic.semantic_epsilon``.
    """
    restarts = check_positive_int(restarts, "restarts")
    rng = np.random.default_rng(check_positive_int(seed, "seed", minimum=0))
    lik = S.game_likelihoods(mechanism, default)  # (n+1, n_db, n_t)
    n, n_db = lik.shape[0] - 1, lik.shape[1]
    best = (-1.0, None, 0, 0)
    for i in range(n):
        for t in range(lik.shape[2]):
            l0, li = lik[0, :, t], lik[i + 1, :, t]
            if not np.any(l0 > 0):
                continue

            def neg_sd(theta, l0=l0, li=li):
                """−SD and its gradient in the softmax parameters θ (b = softmax θ)."""
                b = np.exp(log_softmax(theta))
                z0, zi = b @ l0, b @ li
                if zi <= 1e-300:
                    return -1.0, np.zeros_like(theta)
                u = b * l0 / z0 - b * li / zi
                sgn = np.sign(u)
                grad_b = sgn * (l0 / z0 - li / zi) - (sgn @ (b * l0)) * l0 / z0**2 + (sgn @ (b * li)) * li / zi**2
                grad_theta = b * (grad_b - b @ grad_b)
                return -0.5 * np.abs(u).sum(), -0.5 * grad_theta

            for _ in range(restarts):
                theta0 = rng.normal(scale=3.0, size=n_db)
                res = minimize(neg_sd, theta0, jac=True, method="L-BFGS-B")
                val = -float(res.fun)
                if val > best[0]:
                    best = (val, np.exp(log_softmax(res.x)), i, t)
    val, b, i, t = best
    return SemanticResult(min(val, 1.0), b, mechanism.outputs[t], i + 1, True, "optimize")


def worst_semantic_delta(
    mechanism: FiniteMechanism, eps, *, default=0, samples: int = 200, seed: int = 0, grid: int = 9
):
    """A search for sup_b of ``semantic.semantic_delta`` (K&S Definition 2.3's δ at this ε): every two-point
    belief on a weight grid plus ``samples`` random Dirichlet beliefs.  Returns ``(delta, belief)``; the
    value is a lower bound on the supremum (the objective is not concave in b)."""
    eps = check_epsilon(eps, "eps")
    samples = check_positive_int(samples, "samples", minimum=0)
    grid = check_positive_int(grid, "grid")
    n_db = len(mechanism.databases)
    rng = np.random.default_rng(seed)
    candidates = []
    weights = np.linspace(0, 1, grid + 2)[1:-1]
    for x, y in itertools.combinations(range(n_db), 2):
        for a in weights:
            b = np.zeros(n_db)
            b[x], b[y] = a, 1 - a
            candidates.append(b)
    for alpha in (0.1, 0.5, 1.0):
        candidates.extend(rng.dirichlet(np.full(n_db, alpha), size=max(1, samples // 3)))
    best = (-1.0, None)
    for b in candidates:
        d = S.semantic_delta(mechanism, b / b.sum(), eps, default=default)
        if d > best[0]:
            best = (d, b / b.sum())
    return best


def grid_informed_semantic_epsilon(mechanism: FiniteMechanism, *, grid: int = 60) -> float:
    """:func:`dpsemantics.semantic.informed_semantic_epsilon` by search, with no reduction used: every prior on x_i
    on a grid of the simplex over D (|D| ≤ 3, ``grid`` steps per side), every informed setting of the other entries
    (:func:`dpsemantics.semantic.informed_rows`) and every transcript.  A lower bound on the supremum."""
    grid = check_positive_int(grid, "grid")
    _, values = mechanism.record_domain()
    if len(values) > 3:
        raise ValueError(f"the grid search supports |D| <= 3 (got |D|={len(values)})")
    ticks = np.linspace(0, 1, grid + 1)
    priors = np.array([(a, b, 1 - a - b) for a in ticks for b in ticks if a + b <= 1 + 1e-12])[:, : len(values)]
    priors = np.clip(priors, 0, None)
    priors = priors[priors.sum(1) > 0]
    priors /= priors.sum(1, keepdims=True)
    best = 0.0
    for rows in S.informed_rows(mechanism):
        joint = priors[:, :, None] * rows[None]  # (prior, value, t)
        z = joint.sum(1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            post = np.where(z > 0, joint / np.where(z > 0, z, 1.0), priors[:, :, None])
        sd = 0.5 * np.abs(post - priors[:, :, None]).sum(1)
        best = max(best, float(np.max(np.where(z[:, 0] > 0, sd, 0.0))))
    return best


@overflow_is_infinity
def conditioning_counterexample(eps, delta, delta_hat, *, slack: float = 1e-6):
    """Two joint distributions of (A, B), A ∈ {0, 1} (rows) and B ∈ {t₁, t₂, t₀} (columns), that are exactly
    (ε, δ)-indistinguishable, yet t₁ and t₂ are both bad at (3ε, δ̂) and Pr[B ∈ {t₁, t₂}] ≈
    (1 + e^ε(1 − δ̂))·δ/δ̂, more than the proof's δ″ = 2δ/δ̂ + 2δ/(1 − e^{−ε}) when ε is not tiny
    (K&S Lemma 3.4 is false as the proof derives it).  With a = δ̂(1 + slack), u = δ/a:

    P = [[u(1 − a), e^ε u(1 − a), ·], [u a, 0, 0]],   Q = [[u(1 − a), u(1 − a), ·], [0, u a, 0]],

    the column t₀ filling row 0 up to total mass 1 (the two A-marginals are equal).  Raises when the
    masses do not fit in a probability distribution (δ/δ̂ too large)."""
    eps = check_epsilon(eps, "eps", strictly_positive=True, scalar=True)
    delta = check_delta(delta, "delta", open_low=True, scalar=True)
    delta_hat = check_probability(delta_hat, "delta_hat", open_low=True, open_high=True, scalar=True)
    slack = check_positive(slack, "slack", scalar=True)
    a = delta_hat * (1 + slack)
    if a >= 1:
        raise ValueError(f"delta_hat*(1+slack) must be < 1 (got delta_hat={delta_hat}, slack={slack})")
    u = delta / a
    # P's mass outside t₀ is u(1 − a)(1 + e^ε) + ua: compared in log space (e^ε may be beyond the float range)
    if delta >= 1 or math.log(u) + math.log1p(-a) + math.log1p(math.exp(-eps)) + eps > math.log1p(-delta):
        raise ValueError(f"eps, delta and delta_hat give masses above 1: delta/delta_hat is too large at this eps "
                         f"(got eps={eps}, delta={delta}, delta_hat={delta_hat})")
    P = np.array([[u * (1 - a), math.exp(eps) * u * (1 - a), 0.0], [u * a, 0.0, 0.0]])
    Q = np.array([[u * (1 - a), u * (1 - a), 0.0], [0.0, u * a, 0.0]])
    P[0, 2], Q[0, 2] = max(1 - P.sum(), 0.0), max(1 - Q.sum(), 0.0)
    return P, Q
