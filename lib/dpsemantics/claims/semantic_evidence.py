"""Evidence for the claims of Kasiviswanathan & Smith (paper 000): searches over beliefs.

:mod:`dpsemantics.semantic` computes the semantic-privacy ε exactly (the two-point reduction) and the semantic δ of
one belief; the searches here look for the suprema over all beliefs without that reduction, as a second, different
method for the claims of :mod:`dpsemantics.claims.ks` and the chapter's checks.  Both return lower bounds.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.optimize import minimize
from scipy.special import log_softmax

from .. import semantic as S
from .._validate import check_epsilon, check_positive_int
from ..mechanisms import FiniteMechanism
from ..semantic import SemanticResult

__all__ = ["searched_semantic_epsilon", "worst_semantic_delta"]


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
