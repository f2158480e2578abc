"""Evidence for the claims of Lecture 1 (:mod:`dpsemantics.claims.lecture`): the linear program that attacks the
transitivity answer of Exercise 7.2 over every chain p ≈ q ≈ r on a few outcomes.

:mod:`dpsemantics.indistinguishability` computes the answer
(:func:`~dpsemantics.indistinguishability.transitivity_parameters`) and the chapter's three-point witness that
neither parameter can be lowered (:func:`~dpsemantics.indistinguishability.transitivity_witness`, the solution of the
exercise's "can you do better?"); the search for the worst chain is evidence, kept here (the rule:
:mod:`dpsemantics.claims`).
"""

from __future__ import annotations

import numpy as np

from .._validate import check_delta, check_epsilon, check_positive_int, overflow_is_infinity

__all__ = ["transitivity_worst_delta"]

#: The largest ε (and ε′) the floating-point linear program is trusted at (see :func:`transitivity_worst_delta`).
_LP_EPS_MAX = 25.0


@overflow_is_infinity
def transitivity_worst_delta(eps, delta, eps_prime=None, outcomes: int = 3, *, return_chain: bool = False):
    """The largest δ needed for ``p ≈_(ε′, ·) r`` over all chains ``p ≈_(ε,δ) q ≈_(ε,δ) r`` on ``outcomes``
    outcomes, by linear programming (Lecture 1, Exercise 7.2; ε′ defaults to 2ε).

    For a fixed event E the objective ``p(E) − e^{ε′} r(E)`` is linear, and each hockey-stick constraint
    ``Σ_y max(0, p_y − e^ε q_y) ≤ δ`` is linear with one slack variable per outcome; by symmetry E can be
    taken to be the first k outcomes, k = 1, …, outcomes − 1.  An optimiser's attack on the answer
    (2ε, (1 + e^ε)δ) of :func:`~dpsemantics.indistinguishability.transitivity_parameters`, which it attains.
    With ``return_chain`` the optimal chain ``(p, q, r)`` is returned as well (clipped and renormalised, so that its
    exact δs can be recomputed free of solver tolerance).
    """
    from scipy.optimize import linprog

    eps = float(check_epsilon(eps, "eps", scalar=True))
    delta = float(check_delta(delta, "delta", scalar=True))
    eps_prime = 2 * eps if eps_prime is None else float(check_epsilon(eps_prime, "eps_prime", scalar=True))
    # the LP is solved in floating point: with e^ε beyond ~1e11 its coefficients swamp the probabilities and
    # HiGHS returns 0 (measured: correct to 1e-12 up to ε = 20, wrong from ε = 40)
    for name, value in (("eps", eps), ("eps_prime", eps_prime)):
        if value > _LP_EPS_MAX:
            raise ValueError(f"{name} must be at most {_LP_EPS_MAX} for this linear program (got {name}={value!r})")
    m = check_positive_int(outcomes, "outcomes", minimum=2, maximum=200)
    e = np.exp(eps)
    nv = 7 * m  # p, q, r, then slacks s1..s4
    P, Q, R = (slice(k * m, (k + 1) * m) for k in range(3))
    S = [slice((3 + k) * m, (4 + k) * m) for k in range(4)]
    A_ub, b_ub = [], []
    for (x, y), s in zip(((P, Q), (Q, P), (Q, R), (R, Q)), S):
        for j in range(m):
            row = np.zeros(nv)
            row[x.start + j], row[y.start + j], row[s.start + j] = 1.0, -e, -1.0
            A_ub.append(row), b_ub.append(0.0)
        row = np.zeros(nv)
        row[s] = 1.0
        A_ub.append(row), b_ub.append(delta)
    A_eq = np.zeros((3, nv))
    for k, sl in enumerate((P, Q, R)):
        A_eq[k, sl] = 1.0
    best, chain = 0.0, None
    for k in range(1, m):
        c = np.zeros(nv)
        c[P.start:P.start + k] = -1.0
        c[R.start:R.start + k] = np.exp(eps_prime)
        res = linprog(c, A_ub=np.array(A_ub), b_ub=b_ub, A_eq=A_eq, b_eq=np.ones(3), bounds=(0, None), method="highs")
        if res.status == 0 and -float(res.fun) >= best:
            best = -float(res.fun)
            x = np.clip(res.x, 0.0, None)
            chain = tuple(x[sl] / x[sl].sum() for sl in (P, Q, R))
    best = min(best, 1.0)  # a δ; the solver's tolerance can put it a few ulps above 1
    return (best, chain) if return_chain else best
