"""Composition of differentially private mechanisms: basic, advanced, optimal (homogeneous), zCDP.

Kazan, Sharma, Zhang, Jiang & Yan (paper 004), Theorem 2.8, for k mechanisms that are each (ε₀, δ₀)-DP:

1. *basic* (Dwork et al. 2006): (kε₀, kδ₀)-DP — :func:`basic_epsilon`, :func:`basic_delta`;
2. *advanced* (Dwork, Rothblum & Vadhan 2010), in the paper's form
   ε = Σ_j ε_j(e^{ε_j} − 1) + √(2 Σ_j ε_j² log(1/(δ − Σ_j δ_j))) for any total δ > Σ_j δ_j
   — :func:`advanced_epsilon` (homogeneous, parametrised by the slack δ − kδ₀) and
   :func:`advanced_epsilon_heterogeneous`;
3. *optimal* (Kairouz, Oh & Viswanath 2015, Theorem 3.3; Murtagh & Vadhan 2016): at the lattice points
   ε = (k − 2ℓ)ε₀ the composition is (ε, 1 − (1 − δ₀)^k (1 − δ_ℓ))-DP with
   δ_ℓ = Σ_{j<ℓ} C(k, j)(e^{(k−j)ε₀} − e^{(k−2ℓ+j)ε₀})/(1 + e^{ε₀})^k, and nothing better holds.

Kazan's Theorem 2.9 (Bun & Steinke 2016): zCDP parameters add — :func:`zcdp_compose`.

The optimal result at *any* ε.  The worst (ε₀, δ₀)-DP mechanism is randomized response with an extra
"reveal" outcome of probability δ₀ (KOV 2015, Theorem 3.3).  Without the reveal part, the k-fold
composition's privacy loss is ε₀(k − 2ℓ) with ℓ ~ Binomial(k, 1/(1 + e^{ε₀})), so its exact privacy profile
is the hockey-stick divergence

    δ_RR(ε) = Σ_ℓ C(k, ℓ) (e^{ε₀(k−ℓ)} − e^{ε} e^{ε₀ℓ})₊ / (1 + e^{ε₀})^k,

and with the reveal part δ(ε) = 1 − (1 − δ₀)^k (1 − δ_RR(ε)).  At ε = (k − 2ℓ)ε₀ this is exactly the
printed δ_ℓ (the terms with j ≥ ℓ vanish).  Between lattice points δ_RR is of the form A − e^ε B, so the
printed lattice formula, read only at lattice points, overstates the smallest ε for a given δ;
:func:`optimal_epsilon` inverts the continuous profile.

Numerics: every term is formed in log space (``gammaln``, ``log1p``, ``expm1``) and summed with
``logsumexp``; 1 − (1 − δ₀)^k is ``-expm1(k·log1p(−δ₀))``.  Results are finite and accurate (relative
error below 1e-9 against 50-digit mpmath, see ``tests/test_accuracy.py``) for ε₀ from 1e-4 to 10, k up to
10⁵ and δ down to 1e-300.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq
from scipy.special import gammaln, logsumexp

from ._validate import check_delta, check_epsilon, check_positive, check_positive_int
from .conversions import _out

__all__ = [
    "basic_epsilon",
    "basic_delta",
    "advanced_epsilon",
    "advanced_epsilon_heterogeneous",
    "optimal_delta",
    "optimal_log_delta",
    "optimal_epsilon",
    "optimal_lattice",
    "max_eps0",
    "zcdp_compose",
]


def _check_k(k, name: str = "k"):
    """k: a whole number >= 1, or an array of them.  Returns an int or an int64 array."""
    if isinstance(k, (bool, np.bool_)) or np.asarray(k).dtype == bool:
        raise ValueError(f"{name} must be a whole number >= 1 (got {name}={k!r})")
    if np.ndim(k) == 0:
        return check_positive_int(k.item() if hasattr(k, "item") else k, name)
    arr = np.asarray(k)
    flat = [check_positive_int(v.item() if hasattr(v, "item") else v, name) for v in arr.ravel()]
    return np.asarray(flat, dtype=np.int64).reshape(arr.shape)


def _check_delta0(delta0):
    return check_delta(delta0, "delta0", open_high=True)


# --------------------------------------------------------------------------------------------------
# Basic and advanced composition (Kazan Theorem 2.8, parts 1 and 2)
# --------------------------------------------------------------------------------------------------


def basic_epsilon(eps0, k):
    """Kazan et al., Theorem 2.8(1) (basic composition, Dwork et al. 2006): ε = kε₀.

    The matching δ is :func:`basic_delta` (kδ₀).  Broadcasts over ``eps0`` and ``k``.
    """
    eps0 = check_epsilon(eps0, "eps0")
    k = _check_k(k)
    return _out(np.asarray(k, dtype=float) * np.asarray(eps0))


def basic_delta(delta0, k):
    """Kazan et al., Theorem 2.8(1) (basic composition): δ = kδ₀ (may exceed 1, then the guarantee is
    vacuous).  Broadcasts over ``delta0`` and ``k``."""
    delta0 = check_delta(delta0, "delta0")
    k = _check_k(k)
    return _out(np.asarray(k, dtype=float) * np.asarray(delta0))


def advanced_epsilon(eps0, k, delta, delta0=0.0):
    """Kazan et al., Theorem 2.8(2) (advanced composition, Dwork, Rothblum & Vadhan 2010), homogeneous:

        ε = k ε₀ (e^{ε₀} − 1) + ε₀ √(2k log(1/δ)).

    **Parametrisation.** ``delta`` is the *slack* δ of the paper's "δ − Σ δ_j": the k-fold composition of
    (ε₀, δ₀)-DP mechanisms is (ε, kδ₀ + δ)-DP.  With δ₀ = 0 (the default) the total is δ itself.
    (The paper states the theorem with the total δ and writes log(1/(δ − Σδ_j)).)

    eps0 ≥ 0, whole k ≥ 1, delta ∈ (0, 1), delta0 ∈ [0, 1); broadcasts.  ``delta0`` only enters the total
    δ, not ε; it is validated so that a meaningless δ₀ = 1 is caught.
    """
    eps0 = np.asarray(check_epsilon(eps0, "eps0"))
    k = np.asarray(_check_k(k), dtype=float)
    delta = np.asarray(check_delta(delta, "delta", open_low=True, open_high=True))
    _check_delta0(delta0)
    return _out(k * eps0 * np.expm1(eps0) + eps0 * np.sqrt(2.0 * k * -np.log(delta)))


def advanced_epsilon_heterogeneous(eps_list, delta, delta_list=None):
    """Kazan et al., Theorem 2.8(2) verbatim, for mechanisms with different (ε_j, δ_j):

        ε = Σ_j ε_j(e^{ε_j} − 1) + √(2 Σ_j ε_j² log(1/(δ − Σ_j δ_j))),

    where ``delta`` is the *total* δ (> Σ δ_j) as in the paper.  ``eps_list`` and ``delta_list`` are
    1-D sequences of equal length.
    """
    eps = np.atleast_1d(np.asarray(check_epsilon(eps_list, "eps_list"), dtype=float))
    if eps.ndim != 1:
        raise ValueError(f"eps_list must be one-dimensional (got shape {eps.shape})")
    if delta_list is None:
        deltas = np.zeros_like(eps)
    else:
        deltas = np.atleast_1d(np.asarray(check_delta(delta_list, "delta_list"), dtype=float))
        if deltas.shape != eps.shape:
            raise ValueError(f"delta_list must have the same length as eps_list (got {deltas.size} and {eps.size})")
    delta = float(check_delta(delta, "delta", open_low=True, open_high=True))
    slack = delta - deltas.sum()
    if not slack > 0:
        raise ValueError(f"delta must exceed sum(delta_list) (got delta={delta!r}, sum(delta_list)={float(deltas.sum())!r})")
    return float(np.sum(eps * np.expm1(eps)) + np.sqrt(2.0 * np.sum(eps**2) * -np.log(slack)))


# --------------------------------------------------------------------------------------------------
# Optimal homogeneous composition (Kazan Theorem 2.8(3); Kairouz, Oh & Viswanath 2015, Theorem 3.3)
# --------------------------------------------------------------------------------------------------


class _RRProfile:
    """The exact privacy profile of the k-fold composition of ε₀-randomized response.

    Holds, for ℓ = 0 … m−1 (the lattice points L_ℓ = ε₀(k − 2ℓ) > 0), the logs of
    P_ℓ = C(k, ℓ) e^{ε₀(k−ℓ)}/(1 + e^{ε₀})^k = Pr[privacy loss = L_ℓ].
    """

    def __init__(self, eps0: float, k: int):
        self.eps0 = eps0
        self.k = k
        m = (k + 1) // 2  # number of ℓ with k − 2ℓ > 0
        ell = np.arange(m, dtype=float)
        self.L = eps0 * (k - 2.0 * ell)
        # log P_ℓ = log C(k, ℓ) − k log(1 + e^{−ε₀}) − ℓ ε₀   (no large cancelling terms)
        log_binom = gammaln(k + 1.0) - gammaln(ell + 1.0) - gammaln(k - ell + 1.0)
        self.logP = log_binom - k * np.log1p(np.exp(-eps0)) - ell * eps0

    def log_delta(self, eps: np.ndarray) -> np.ndarray:
        """log δ_RR(ε) for an array of ε ≥ 0 (−inf where δ_RR = 0, i.e. ε ≥ kε₀)."""
        eps = np.asarray(eps, dtype=float)
        flat = eps.ravel()
        out = np.full(flat.shape, -np.inf)
        chunk = max(1, 2_000_000 // max(1, self.L.size))
        for start in range(0, flat.size, chunk):
            e = flat[start : start + chunk, None]
            gap = e - self.L[None, :]  # ε − L_ℓ; only ℓ with L_ℓ > ε contribute
            active = gap < 0
            with np.errstate(divide="ignore"):
                terms = np.where(active, self.logP[None, :] + np.log(-np.expm1(np.minimum(gap, -1e-300))), -np.inf)
            any_active = active.any(axis=1)
            res = np.full(e.shape[0], -np.inf)
            if np.any(any_active):
                res[any_active] = logsumexp(terms[any_active], axis=1)
            out[start : start + chunk] = res
        return out.reshape(eps.shape)

    def log_delta_scalar(self, eps: float) -> float:
        """log δ_RR(ε) for one ε, using only the active terms (fast path for root finding)."""
        m = int(np.searchsorted(-self.L, -eps, side="left"))  # number of ℓ with L_ℓ > ε
        if m == 0:
            return -np.inf
        gap = eps - self.L[:m]
        return float(logsumexp(self.logP[:m] + np.log(-np.expm1(gap))))


def _log_total(log_rr, delta0: float, k: int):
    """log of 1 − (1 − δ₀)^k (1 − δ_RR) = A + δ_RR(1 − A), A = 1 − (1 − δ₀)^k, in log space."""
    if delta0 == 0.0:
        return log_rr
    log1m_A = k * np.log1p(-delta0)  # log(1 − A)
    log_A = np.log(-np.expm1(log1m_A))
    return np.logaddexp(log_A, log_rr + log1m_A)


def _optimal_log_delta_scalar_params(eps, eps0: float, k: int, delta0: float):
    if eps0 == 0.0:
        log_rr = np.full(np.shape(eps), -np.inf)
    else:
        log_rr = _RRProfile(eps0, k).log_delta(eps)
    with np.errstate(divide="ignore"):
        return _log_total(log_rr, delta0, k)


def optimal_log_delta(eps, eps0, k, delta0=0.0):
    """Natural log of :func:`optimal_delta` (−inf where δ = 0): use it when δ would underflow."""
    eps = np.asarray(check_epsilon(eps, "eps"))
    eps0 = np.asarray(check_epsilon(eps0, "eps0"))
    k = np.asarray(_check_k(k))
    delta0 = np.asarray(_check_delta0(delta0))
    e, e0, kk, d0 = np.broadcast_arrays(eps, eps0, k, delta0)
    out = np.empty(e.shape)
    # group by the mechanism parameters so the lattice is built once per (ε₀, k, δ₀)
    keys = {}
    for idx in np.ndindex(e.shape):
        keys.setdefault((float(e0[idx]), int(kk[idx]), float(d0[idx])), []).append(idx)
    for (a, b, c), idxs in keys.items():
        vals = _optimal_log_delta_scalar_params(np.array([e[i] for i in idxs]), a, b, c)
        for i, v in zip(idxs, np.atleast_1d(vals)):
            out[i] = v
    return _out(out)


def optimal_delta(eps, eps0, k, delta0=0.0):
    """Exact privacy profile of the k-fold composition of (ε₀, δ₀)-DP mechanisms (Kazan Theorem 2.8(3);
    Kairouz, Oh & Viswanath 2015, Theorem 3.3), at any ε ≥ 0:

        δ(ε) = 1 − (1 − δ₀)^k (1 − Σ_ℓ C(k, ℓ)(e^{ε₀(k−ℓ)} − e^{ε+ε₀ℓ})₊/(1 + e^{ε₀})^k).

    The smallest δ for which *every* k-fold composition of (ε₀, δ₀)-DP mechanisms is (ε, δ)-DP; it is
    attained by randomized response (with a δ₀ reveal outcome).  At ε = (k − 2ℓ)ε₀ it equals the printed
    lattice value (:func:`optimal_lattice`).  Broadcasts over all arguments; values below ~1e-308
    underflow — use :func:`optimal_log_delta` there.
    """
    log_d = optimal_log_delta(eps, eps0, k, delta0)
    return _out(np.exp(log_d))


def optimal_lattice(eps0, k, ell, delta0=0.0):
    """The printed form of Kazan Theorem 2.8(3) at one lattice point: returns ``(eps, delta)`` with
    ε = (k − 2ℓ)ε₀ and δ = 1 − (1 − δ₀)^k (1 − δ_ℓ),
    δ_ℓ = Σ_{j=0}^{ℓ−1} C(k, j)(e^{(k−j)ε₀} − e^{(k−2ℓ+j)ε₀})/(1 + e^{ε₀})^k, for ℓ ∈ {0, …, ⌊k/2⌋}.

    Computed term by term from the printed sum (in log space), independently of :func:`optimal_delta`.
    """
    eps0 = float(check_epsilon(eps0, "eps0"))
    k = check_positive_int(k, "k")
    ell = check_positive_int(ell, "ell", minimum=0)
    if ell > k // 2:
        raise ValueError(f"ell must be at most floor(k/2) = {k // 2} (got ell={ell})")
    delta0 = float(_check_delta0(delta0))
    eps = (k - 2 * ell) * eps0
    if ell == 0 or eps0 == 0.0:
        log_rr = -np.inf
    else:
        j = np.arange(ell, dtype=float)
        log_binom = gammaln(k + 1.0) - gammaln(j + 1.0) - gammaln(k - j + 1.0)
        # e^{(k−j)ε₀} − e^{(k−2ℓ+j)ε₀} = e^{(k−j)ε₀}(1 − e^{−2(ℓ−j)ε₀}); divide by (1+e^{ε₀})^k
        log_terms = log_binom + (k - j) * eps0 - k * np.logaddexp(0.0, eps0) + np.log(-np.expm1(-2.0 * (ell - j) * eps0))
        log_rr = float(logsumexp(log_terms))
    with np.errstate(divide="ignore"):
        delta = float(np.exp(_log_total(log_rr, delta0, k)))
    return float(eps), delta


def _optimal_epsilon_scalar(eps0: float, k: int, delta: float, delta0: float) -> float:
    log1m_A = k * np.log1p(-delta0)
    A = -np.expm1(log1m_A)  # 1 − (1 − δ₀)^k, the part of δ that no finite ε removes
    if not delta > A:
        raise ValueError(
            f"delta must exceed 1 - (1 - delta0)**k = {float(A)!r} for a finite epsilon to exist "
            f"(got delta={delta!r}, delta0={delta0!r}, k={k})"
        )
    if eps0 == 0.0:
        return 0.0
    # target for the randomized-response part: δ_RR = (δ − A)/(1 − A), in logs
    log_target = np.log(delta - A) - log1m_A if A > 0 else np.log(delta)
    prof = _RRProfile(eps0, k)
    if prof.log_delta_scalar(0.0) <= log_target:
        return 0.0
    # top piece ε ∈ [L_1, L_0): only ℓ = 0 is active, δ_RR = P_0(1 − e^{ε − L_0}) — solve exactly
    L0, logP0 = prof.L[0], prof.logP[0]
    L1 = max(prof.L[1], 0.0) if prof.L.size > 1 else 0.0
    if prof.L.size == 1 or prof.log_delta_scalar(L1) > log_target:
        # the root lies in the top piece: ε = L_0 + log(1 − target/P_0)
        return float(max(L0 + np.log1p(-np.exp(log_target - logP0)), 0.0))
    # otherwise the root lies in [0, L_1], where f goes from > 0 to <= 0
    f = lambda e: prof.log_delta_scalar(e) - log_target  # noqa: E731 - decreasing, continuous
    return float(brentq(f, 0.0, L1, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=400))


def optimal_epsilon(eps0, k, delta, delta0=0.0):
    """The smallest ε for which every k-fold composition of (ε₀, δ₀)-DP mechanisms is (ε, δ)-DP
    (Kazan Theorem 2.8(3); Kairouz, Oh & Viswanath 2015, Theorem 3.3; Murtagh & Vadhan 2016).

    ``delta`` is the *total* δ of the composition (compare :func:`advanced_epsilon`, whose ``delta`` is the
    slack on top of kδ₀: ``optimal_epsilon(eps0, k, k*delta0 + d, delta0) <= advanced_epsilon(eps0, k, d,
    delta0)``).  The answer is exact at every δ, not only at the printed lattice points (k − 2ℓ)ε₀: the
    profile of :func:`optimal_delta` is continuous and decreasing, and is inverted by Brent's method in
    log δ (the top piece, where one lattice term is active, in closed form).  Returns 0 when δ is at least
    δ(0).  Raises ``ValueError`` when δ ≤ 1 − (1 − δ₀)^k (no finite ε exists) or on bad input.
    Broadcasts over all arguments.
    """
    eps0 = np.asarray(check_epsilon(eps0, "eps0"))
    k = np.asarray(_check_k(k))
    delta = np.asarray(check_delta(delta, "delta", open_low=True, open_high=True))
    delta0 = np.asarray(_check_delta0(delta0))
    e0, kk, d, d0 = np.broadcast_arrays(eps0, k, delta, delta0)
    out = np.empty(e0.shape)
    for idx in np.ndindex(e0.shape):
        out[idx] = _optimal_epsilon_scalar(float(e0[idx]), int(kk[idx]), float(d[idx]), float(d0[idx]))
    return _out(out)


def max_eps0(eps_total, k, delta, delta0=0.0, method: str = "optimal"):
    """The largest per-mechanism ε₀ such that k-fold composition of (ε₀, δ₀)-DP mechanisms is
    (ε_total, δ)-DP under the chosen composition theorem (Kazan Theorem 2.8; used in their Example 4.2).

    ``method``: ``"basic"`` (ε_total/k; requires kδ₀ ≤ δ), ``"advanced"`` (``delta`` is the total, the
    slack δ − kδ₀ must be positive) or ``"optimal"`` (``delta`` is the total δ of :func:`optimal_epsilon`).
    Solved by Brent's method on the monotone map ε₀ ↦ ε(ε₀).  Scalar arguments only.
    """
    eps_total = float(check_epsilon(eps_total, "eps_total", strictly_positive=True))
    k = check_positive_int(k, "k")
    delta = float(check_delta(delta, "delta", open_low=True, open_high=True))
    delta0 = float(_check_delta0(delta0))
    if method == "basic":
        if k * delta0 > delta:
            raise ValueError(f"delta must be at least k*delta0 = {k * delta0!r} for basic composition (got delta={delta!r})")
        return eps_total / k
    if method == "advanced":
        slack = delta - k * delta0
        if not slack > 0:
            raise ValueError(f"delta must exceed k*delta0 = {k * delta0!r} for advanced composition (got delta={delta!r})")
        g = lambda e0: advanced_epsilon(e0, k, slack, delta0) - eps_total  # noqa: E731
    elif method == "optimal":
        optimal_epsilon(1e-12, k, delta, delta0)  # raises if δ is too small for any finite ε
        g = lambda e0: optimal_epsilon(e0, k, delta, delta0) - eps_total  # noqa: E731
    else:
        raise ValueError(f"method must be 'basic', 'advanced' or 'optimal' (got method={method!r})")
    hi = eps_total  # expand until the composed ε exceeds the budget
    while g(hi) < 0:
        hi *= 2.0
    return float(brentq(g, 0.0, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=400))


# --------------------------------------------------------------------------------------------------
# zCDP composition (Kazan Theorem 2.9)
# --------------------------------------------------------------------------------------------------


def zcdp_compose(rhos, k=None):
    """Kazan et al., Theorem 2.9 (Bun & Steinke 2016, Lemma 2.3): running ρ_j-zCDP mechanisms together is
    (Σ_j ρ_j)-zCDP.

    ``zcdp_compose([ρ_1, …, ρ_k])`` sums a sequence; ``zcdp_compose(rho, k)`` is the homogeneous case kρ
    (broadcasts over ``rho`` and ``k``).
    """
    if k is None:
        rhos = np.atleast_1d(np.asarray(check_positive(rhos, "rhos"), dtype=float))
        if rhos.ndim != 1:
            raise ValueError(f"rhos must be one-dimensional (got shape {rhos.shape})")
        return float(rhos.sum())
    rho = np.asarray(check_positive(rhos, "rho"))
    k = np.asarray(_check_k(k), dtype=float)
    return _out(k * rho)

