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
error below 1e-9 against 50-digit mpmath, see ``tests/unit/test_accuracy.py``) for ε₀ from 1e-4 to 10, k up to
10⁵ and δ down to 1e-300.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from scipy.optimize import brentq

from . import _rounding
from ._validate import as_output as _out
from .errors import NumericalLimit
from ._validate import broadcast, check_delta, check_epsilon, check_positive, check_positive_int
from ._kov import (_by_blocks, _evaluation_margin, _lattice_log_rr, _log_total_bound, _optimal_epsilons,
                   _optimal_log_deltas)

__all__ = [
    "basic_epsilon",
    "basic_delta",
    "advanced_epsilon",
    "advanced_epsilon_heterogeneous",
    "optimal_delta",
    "optimal_log_delta",
    "optimal_epsilon",
    "optimal_lattice",
    "lattice_optimal_epsilon",
    "COMPOSITION_METHODS",
    "composed_epsilon_by",
    "max_eps0",
    "zcdp_compose",
]


_K_MAX = 10**9  # the exact optimal composition costs O(√k); past 1e9 it takes seconds (use a CLT/PLD accountant)


def _check_k(k, name: str = "k"):
    """k: a whole number in [1, 10⁹], or an array of them.  Returns an int or an int64 array.  Arrays of
    integers or floats are checked at once (the message names the first bad entry, as for a scalar)."""
    if isinstance(k, (bool, np.bool_)) or np.asarray(k).dtype == bool:
        raise ValueError(f"{name} must be a whole number >= 1, not a boolean (got {name}={k!r})")
    if np.ndim(k) == 0:
        return check_positive_int(k.item() if hasattr(k, "item") else k, name, maximum=_K_MAX)
    arr = np.asarray(k)
    if arr.dtype.kind in "iuf":  # numbers: one pass; the first bad entry goes through the scalar check
        with np.errstate(invalid="ignore"):
            bad = ~((arr >= 1) & (arr <= _K_MAX) & (arr == np.floor(arr)))
        if np.any(bad):
            check_positive_int(arr[bad].ravel()[0].item(), name, maximum=_K_MAX)  # raises, naming the value
        return arr.astype(np.int64)
    flat = [check_positive_int(v.item() if hasattr(v, "item") else v, name, maximum=_K_MAX) for v in arr.ravel()]
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
    eps0, k = broadcast(eps0=check_epsilon(eps0, "eps0"), k=_check_k(k))
    # k ≤ 10⁹ is a float exactly; the one product rounded up (never below kε₀; +inf beyond the float range)
    return _out(_rounding.mul_away(np.asarray(k, dtype=float), eps0))


def basic_delta(delta0, k):
    """Kazan et al., Theorem 2.8(1) (basic composition): δ = kδ₀ (may exceed 1, then the guarantee is
    vacuous).  Broadcasts over ``delta0`` and ``k``."""
    delta0, k = broadcast(delta0=check_delta(delta0, "delta0"), k=_check_k(k))
    return _out(_rounding.mul_away(np.asarray(k, dtype=float), delta0))  # rounded up, as in basic_epsilon


def advanced_epsilon(eps0, k, delta_slack=None, delta0=0.0, *, delta=None):
    """Kazan et al., Theorem 2.8(2) (advanced composition, Dwork, Rothblum & Vadhan 2010), homogeneous:

        ε = k ε₀ (e^{ε₀} − 1) + ε₀ √(2k log(1/δ)).

    **Parametrisation.** ``delta_slack`` is the slack of the paper's "δ − Σ δ_j" (the δ in its formula
    above): the k-fold composition of (ε₀, δ₀)-DP mechanisms is (ε, kδ₀ + delta_slack)-DP.  Everywhere else
    in the package ``delta`` is the *total* δ (``advanced_epsilon_heterogeneous``, ``optimal_epsilon``,
    ``max_eps0``), so this function does not take a ``delta``: passing one raises ``ValueError`` (it would
    have meant the slack here before; the name changed so that one name has one meaning).

    eps0 ≥ 0, whole k ≥ 1, delta_slack ∈ (0, 1), delta0 ∈ [0, 1); broadcasts.  ``delta0`` only enters the
    total δ, not ε; it is validated so that a meaningless δ₀ = 1 is caught.
    """
    if delta is not None:
        raise ValueError(f"advanced_epsilon takes the slack as delta_slack (the composition is (eps, k*delta0 + "
                         "delta_slack)-DP); delta means the total δ elsewhere and is not accepted here "
                         f"(got delta={delta!r})")
    if delta_slack is None:
        raise ValueError("delta_slack is required: the slack δ on top of k*delta0 (got delta_slack=None)")
    eps0, k, slack, _ = broadcast(eps0=check_epsilon(eps0, "eps0"), k=np.asarray(_check_k(k), dtype=float),
                                  delta_slack=check_delta(delta_slack, "delta_slack", open_low=True, open_high=True),
                                  delta0=_check_delta0(delta0))
    with np.errstate(over="ignore", invalid="ignore"):  # ε₀ past ~709: ε beyond the float range is +inf
        out = k * eps0 * np.expm1(eps0) + eps0 * np.sqrt(2.0 * k * -np.log(slack))
    # a sum of two positive terms, each within 3 ulps: 4 ulps up is never below the exact ε
    return _out(_rounding.up(np.where(np.isnan(out), np.inf, out), 4))


def advanced_epsilon_heterogeneous(eps_list, delta, delta_list=None):
    """Kazan et al., Theorem 2.8(2) verbatim, for mechanisms with different (ε_j, δ_j):

        ε = Σ_j ε_j(e^{ε_j} − 1) + √(2 Σ_j ε_j² log(1/(δ − Σ_j δ_j))),

    where ``delta`` is the *total* δ (> Σ δ_j) as in the paper.  ``eps_list`` and ``delta_list`` are
    1-D sequences of equal length.

    Rounded up (never below the exact ε): the slack δ − Σδ_j is summed exactly (``math.fsum``) and rounded
    down; with s = max ε_j the root is s·√(2 Σ(ε_j/s)² log(1/slack)) — the scaling keeps ε_j² from underflowing
    — whose factor (each ε_j/s and its square within 1.5u, fsum u, the log 2u, the product u, the root halves
    that and adds u/2: under 4u) is raised 8 ulps and multiplied by s rounded away from 0; the first sum (expm1
    within 1 ulp, one product, fsum: under 4u) and the total are raised 8 ulps, a term below the normal range
    counted at 2.2e-308.  A positive exact ε is never returned as 0.
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
    delta = float(check_delta(delta, "delta", open_low=True, open_high=True, scalar=True))
    parts = [delta, *(-deltas).tolist()]
    slack = math.fsum(parts)  # δ − Σδ_j correctly rounded; stepped down below if it rounded up
    if not slack > 0:
        raise ValueError("delta must exceed sum(delta_list) "
                         f"(got delta={delta!r}, sum(delta_list)={float(deltas.sum())!r})")
    if math.fsum([*parts, -slack]) < 0:
        slack = math.nextafter(slack, 0.0)
    scale = float(eps.max())
    if scale == 0.0:
        return 0.0
    if not math.isfinite(scale):
        return math.inf
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):  # beyond the float range: +inf
        ratio = eps / scale
        root = _rounding.up(math.sqrt(2.0 * math.fsum((ratio * ratio).tolist()) * -math.log(slack)), 8)
        terms = eps * np.expm1(eps)
        tiny = float(np.finfo(float).tiny)
        first = math.fsum(terms.tolist()) + tiny * int(np.count_nonzero((eps > 0) & (terms < tiny)))
        out = float(_rounding.up(first + float(_rounding.mul_away(scale, root)), 8))
    return math.inf if math.isnan(out) else out


def optimal_log_delta(eps, eps0, k, delta0=0.0):
    """Natural log of :func:`optimal_delta` (−inf where δ = 0): use it when δ would underflow.

    An upper bound by construction: the float evaluation is raised by its error allowance (for k ≤ 1000 the
    tables' derived rounding bound, the direct form's 10u·S, below 3e-12, and the terms the window drops,
    ``_RRRows``; for k > 1000 the derived error of the window's log-masses, O(√k·u), ``_RRProfile.log_error``),
    then by a relative 1e-12 for the log-space steps after it (plus 1e-14·√k of slack for k > 1000;
    ``_evaluation_margin``), so the δ reported is never below the exact one.  Works
    through the entries in blocks of 2¹⁶ (``_by_blocks``): the working memory stays ~40 MB at any number of inputs."""
    eps = np.asarray(check_epsilon(eps, "eps"))
    eps0 = np.asarray(check_epsilon(eps0, "eps0"))
    k = np.asarray(_check_k(k))
    delta0 = np.asarray(_check_delta0(delta0))
    views = broadcast(eps=eps, eps0=eps0, k=k, delta0=delta0)
    return _out(_by_blocks(_optimal_log_deltas, (float, float, np.int64, float), *views))


def optimal_delta(eps, eps0, k, delta0=0.0):
    """Exact privacy profile of the k-fold composition of (ε₀, δ₀)-DP mechanisms (Kazan Theorem 2.8(3);
    Kairouz, Oh & Viswanath 2015, Theorem 3.3), at any ε ≥ 0:

        δ(ε) = 1 − (1 − δ₀)^k (1 − Σ_ℓ C(k, ℓ)(e^{ε₀(k−ℓ)} − e^{ε+ε₀ℓ})₊/(1 + e^{ε₀})^k).

    The smallest δ for which *every* k-fold composition of (ε₀, δ₀)-DP mechanisms is (ε, δ)-DP; it is
    attained by randomized response (with a δ₀ reveal outcome).  At ε = (k − 2ℓ)ε₀ it equals the printed
    lattice value (:func:`optimal_lattice`).  The gaps ε − (k − 2ℓ)ε₀ are formed exactly, so a value next to
    a lattice point keeps its relative accuracy.  k ≤ 10⁹.  Broadcasts over all arguments (many distinct
    mechanisms at once; see :func:`optimal_epsilon` and the Numerics page for times); values below
    ~1e-308 underflow — use :func:`optimal_log_delta` there.
    """
    log_d = np.asarray(optimal_log_delta(eps, eps0, k, delta0), dtype=float)
    # exp_up never rounds below e^{log δ}, at any magnitude: in the normal range one outward step (np.exp may be a few
    # ulps low), below it the exponential taken in the normal range and scaled back (np.exp keeps only absolute
    # accuracy there: measured 6 subnormal ulps low at 2e-317), and a δ below the smallest float is that float, not 0.
    # log δ ≤ 0, and δ = 1 stays 1 (the outward step would pass it).
    return _out(np.minimum(_rounding.exp_up(log_d), 1.0))


def optimal_lattice(eps0, k, ell, delta0=0.0):
    """The printed form of Kazan Theorem 2.8(3) at one lattice point: returns ``(eps, delta)`` with
    ε = (k − 2ℓ)ε₀ and δ = 1 − (1 − δ₀)^k (1 − δ_ℓ),
    δ_ℓ = Σ_{j=0}^{ℓ−1} C(k, j)(e^{(k−j)ε₀} − e^{(k−2ℓ+j)ε₀})/(1 + e^{ε₀})^k, for ℓ ∈ {0, …, ⌊k/2⌋}.

    Computed term by term from the printed sum, in log space: C(k, j)e^{(k−j)ε₀}/(1 + e^{ε₀})^k is the
    binomial probability C(k, j)q^j p^{k−j} (q = 1/(1 + e^{ε₀}), p = 1 − q), evaluated by Loader's
    saddle-point form (accurate at every k, where ``gammaln`` of 10⁹ loses six digits), times
    1 − e^{−2(ℓ−j)ε₀}.  Only the terms within 40 standard deviations of the largest are summed (a window of O(√k)
    terms, so k up to 10⁹ costs milliseconds), and the rest is bounded by two more terms.

    Both numbers are rounded up, so that the composition is (ε, δ)-DP at the pair returned: ε is the product
    (k − 2ℓ)ε₀ rounded away from 0 (``_rounding.mul_away``); δ is an upper bound on the exact δ of the printed form,
    its logarithm raised by the derived error of every step (``_kov._lattice_log_rr``: the window's log-masses, the
    factors, the sum and the terms left out) and A = 1 − (1 − δ₀)^k by its own rounding, then exponentiated upward
    (``_rounding.exp_up``); at most 1.  (δ(ε) decreases in ε, so the δ at the exact lattice point also holds at the
    ε above it.)
    """
    eps0 = float(check_epsilon(eps0, "eps0", scalar=True))
    k = check_positive_int(k, "k", maximum=_K_MAX)
    ell = check_positive_int(ell, "ell", minimum=0)
    if ell > k // 2:
        raise ValueError(f"ell must be at most floor(k/2) = {k // 2} (got ell={ell})")
    delta0 = float(check_delta(delta0, "delta0", open_high=True, scalar=True))
    eps = float(_rounding.mul_away(float(k - 2 * ell), eps0))  # k − 2ℓ ≤ 10⁹: exact as a float
    if ell == 0 or eps0 == 0.0:
        log_rr, allowance = -np.inf, 0.0
    else:
        log_rr, allowance = _lattice_log_rr(eps0, k, ell)
    with np.errstate(divide="ignore"):
        log_delta = float(_log_total_bound(log_rr + allowance, delta0, k, margin=0.0))
    return eps, min(float(_rounding.exp_up(log_delta)), 1.0)

def optimal_epsilon(eps0, k, delta, delta0=0.0):
    """The smallest ε for which every k-fold composition of (ε₀, δ₀)-DP mechanisms is (ε, δ)-DP
    (Kazan Theorem 2.8(3); Kairouz, Oh & Viswanath 2015, Theorem 3.3; Murtagh & Vadhan 2016).

    ``delta`` is the *total* δ of the composition (compare :func:`advanced_epsilon`, whose ``delta_slack`` is
    the slack on top of kδ₀: ``optimal_epsilon(eps0, k, k*delta0 + d, delta0) <= advanced_epsilon(eps0, k, d,
    delta0)``).  The answer is exact at every δ, not only at the printed lattice points (k − 2ℓ)ε₀: between
    two lattice points the profile is A − B·e^ε, so one pass of cumulative log-sums finds the piece and a
    closed form gives ε (no iteration; ``_RRProfile``).  Time and memory grow like √k; k ≤ 10⁹.
    Returns 0 when δ is at least δ(0).  Raises ``ValueError`` when δ ≤ 1 − (1 − δ₀)^k (no finite ε
    exists) or on bad input.  Broadcasts over all arguments.  Mechanisms with k ≤ 1000 are solved many at a
    time, whatever their mix of k, one per column of a 2-D table that holds only the rows of each column's
    window (``_RRRows``: the terms within e^{−33}/k of the target, up to the piece of the answer; in chunks of
    2¹⁹ cells: 10⁶ distinct mechanisms of k = 1000, or of k random in 1 … 1000, in about 2 s); larger k get one
    profile per mechanism (ε₀, k) and per e^64 of target, with all the δ of a group solved at once (10⁶ values
    of δ for one mechanism in under a second); from four distinct mechanisms of k ≤ 10⁵ on, their profiles are
    built together (``_RRProfiles``, the same bits), and each costs its window's O(√k) terms, a few tenths of a
    microsecond each (10⁴ mechanisms of k = 10⁴ in about 4 s).  The entries go through blocks of 2¹⁶
    (``_by_blocks``), so the working memory stays ~40 MB at any number of inputs.  The result of every entry
    equals its scalar call.
    """
    eps0 = np.asarray(check_epsilon(eps0, "eps0"))
    k = np.asarray(_check_k(k))
    delta = np.asarray(check_delta(delta, "delta", open_low=True, open_high=True))
    delta0 = np.asarray(_check_delta0(delta0))
    views = broadcast(eps0=eps0, k=k, delta=delta, delta0=delta0)
    return _out(_by_blocks(_optimal_epsilons, (float, np.int64, float, float), *views))


def lattice_optimal_epsilon(eps0, k, delta, delta0=0.0) -> float:
    """Kazan et al., Theorem 2.8(3) used as printed: only the lattice points ε = (k − 2ℓ)ε₀ are
    available, so the guarantee at δ is the smallest lattice ε whose printed δ (:func:`optimal_lattice`) is
    at most δ.  Compare :func:`optimal_epsilon`, exact at any ε.

    Safe by construction: a lattice point is accepted only when its printed δ (an upper bound: :func:`optimal_lattice`
    raises it by the derived error of every step, the window's log-masses among them — without that, at
    ε₀ = 0.0037, k = 13 967, ℓ = 5092, a δ 5e-12 below the exact δ_ℓ was accepted: the printed value was 1.1e-11
    low), enlarged further by ``_evaluation_margin`` (1e-12 relative, 1e-12 + 1e-14·√k for k > 1000) as slack, is
    at most δ."""
    eps0 = float(check_epsilon(eps0, "eps0", strictly_positive=True, scalar=True))
    k = check_positive_int(k, "k", maximum=_K_MAX)
    delta = float(check_delta(delta, "delta", scalar=True))
    delta0 = float(check_delta(delta0, "delta0", open_high=True, scalar=True))
    margin = _evaluation_margin(k)

    def ok(ell):  # optimal_lattice's δ is an upper bound already (its derived allowance); the margin is kept as slack
        return optimal_lattice(eps0, k, ell, delta0)[1] * (1.0 + margin) <= delta
    if not ok(0):
        raise NumericalLimit(f"delta is too small for any lattice point of Theorem 2.8(3) (got delta={delta!r})")
    # δ grows with ℓ (the lattice ε = (k − 2ℓ)ε₀ shrinks): bisect for the largest feasible ℓ.
    lo, hi = 0, k // 2
    if ok(hi):
        lo = hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return optimal_lattice(eps0, k, lo, delta0)[0]  # (k − 2ℓ)ε₀ rounded away from 0, not to nearest


def _basic_total(eps0: float, k: int, delta: float, delta0: float) -> float:
    if k * Fraction(delta0) > Fraction(delta):  # exactly: the float product rounds
        raise ValueError("delta must be at least k*delta0 = "
                         f"{k * delta0!r} for basic composition (got delta={delta!r})")
    return float(basic_epsilon(eps0, k))


def _advanced_total(eps0: float, k: int, delta: float, delta0: float) -> float:
    exact = Fraction(delta) - k * Fraction(delta0)
    slack = float(exact)  # the slack δ − kδ₀ rounded down (a larger slack would give a smaller ε)
    if Fraction(slack) > exact:
        slack = math.nextafter(slack, 0.0)
    if not 0 < slack < 1:
        raise ValueError(f"delta must exceed k*delta0 = {k * delta0!r} and leave a slack below 1 for advanced "
                         f"composition (got delta={delta!r})")
    return float(advanced_epsilon(eps0, k, slack, delta0))


#: The one table of composition theorems (Kazan et al., Theorem 2.8): method → the total ε of k runs of an
#: (ε₀, δ₀)-DP mechanism at the total δ.  Every function that takes ``method`` reads it here.
COMPOSITION_METHODS = {
    "basic": _basic_total,  # Theorem 2.8(1): kε₀ (needs kδ₀ ≤ δ)
    "advanced": _advanced_total,  # Theorem 2.8(2): slack δ − kδ₀
    "optimal": lambda eps0, k, delta, delta0: float(optimal_epsilon(eps0, k, delta, delta0)),  # 2.8(3), any ε
    "lattice": lambda eps0, k, delta, delta0: lattice_optimal_epsilon(eps0, k, delta, delta0),  # 2.8(3) as printed
}


def _check_method(method) -> str:
    if not (isinstance(method, str) and method in COMPOSITION_METHODS):
        raise ValueError(f"method must be one of {', '.join(map(repr, COMPOSITION_METHODS))} (got method={method!r})")
    return method


def composed_epsilon_by(method: str, eps0, k, delta, delta0=0.0) -> float:
    """The total ε of the k-fold composition of (ε₀, δ₀)-DP mechanisms at total δ, by the composition
    theorem ``method`` of :data:`COMPOSITION_METHODS` (Kazan et al., Theorem 2.8): ``"basic"``,
    ``"advanced"``, ``"optimal"`` or ``"lattice"``.  Scalar arguments; bad input raises ``ValueError``."""
    method = _check_method(method)
    eps0 = float(check_epsilon(eps0, "eps0", scalar=True))
    k = check_positive_int(k, "k", maximum=_K_MAX)
    delta = float(check_delta(delta, "delta", scalar=True))  # δ = 0 is basic composition of pure mechanisms
    delta0 = float(check_delta(delta0, "delta0", open_high=True, scalar=True))
    return COMPOSITION_METHODS[method](eps0, k, delta, delta0)


def max_eps0(eps_total, k, delta, delta0=0.0, method: str = "optimal"):
    """The largest per-mechanism ε₀ such that k-fold composition of (ε₀, δ₀)-DP mechanisms is
    (ε_total, δ)-DP under the chosen composition theorem (Kazan Theorem 2.8; used in their Example 4.2).

    ``method`` is a key of :data:`COMPOSITION_METHODS`; ``delta`` is the total δ for every method:
    ``"basic"`` (ε_total/k; requires kδ₀ ≤ δ), ``"advanced"`` (the slack δ − kδ₀ must be positive),
    ``"optimal"`` (:func:`optimal_epsilon`) or ``"lattice"`` (:func:`lattice_optimal_epsilon`, a step
    function of ε₀, bisected).  Otherwise solved by Brent's method on the monotone map ε₀ ↦ ε(ε₀).  Scalar
    arguments only.
    """
    method = _check_method(method)
    eps_total = check_epsilon(eps_total, "eps_total", strictly_positive=True, scalar=True)
    k = check_positive_int(k, "k", maximum=_K_MAX)
    delta = check_delta(delta, "delta", open_low=True, open_high=True, scalar=True)
    delta0 = check_delta(delta0, "delta0", open_high=True, scalar=True)
    total = COMPOSITION_METHODS[method]
    if method == "basic":
        total(eps_total, k, delta, delta0)  # raises if kδ₀ > δ
        return _basic_eps0(float(eps_total), k)
    if method == "lattice":  # a step function of ε₀: bisect for the largest feasible ε₀
        lo, hi = 0.0, float(eps_total)
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            feasible = mid > 0 and total(mid, k, delta, delta0) <= eps_total
            lo, hi = (mid, hi) if feasible else (lo, mid)
        return lo
    total(1e-12, k, delta, delta0)  # raises if δ is too small for any finite ε
    g = lambda e0: total(e0, k, delta, delta0) - eps_total  # noqa: E731
    # expand until the composed ε exceeds the budget.  With δ > 0 the composed ε can be far below ε₀ (0 for every ε₀
    # whose δ(0) is within δ), so a tiny budget can need an ε₀ many decades above it: the factor squares at each step
    # (2, 4, 16, 256, …), at most 11 evaluations from 5e-324 to any float, the last point below staying the lower end
    # of the bracket, which is then bisected in log ε₀ to a factor 2 (at most 11 more) for Brent's method.  (Doubling
    # took about 1 000 evaluations from ε_total = 5e-324: 161 s at k = 10⁹.)
    lo, hi, factor = 0.0, eps_total, 2.0
    while g(hi) < 0:
        lo, hi, factor = hi, min(hi * factor, _FLOAT_MAX), factor * factor
    while lo > 0 and hi > 2.0 * lo:  # then halve the bracket in log ε₀ (Brent bisects linearly: 10³ steps here)
        mid = math.exp(0.5 * (math.log(lo) + math.log(hi)))
        lo, hi = (mid, hi) if g(mid) < 0 else (lo, mid)
    # relative tolerance in ε₀ (an absolute one would be meaningless for tiny budgets), then step to the
    # safe side: the returned ε₀ must compose to at most ε_total
    root = brentq(g, lo, hi, xtol=4e-323, rtol=4 * np.finfo(float).eps, maxiter=400)  # xtol: 8 subnormal ulps
    return _safe_root(g, float(root))


def _basic_eps0(eps_total: float, k: int) -> float:
    """The largest ε₀ ≈ ε_total/k with kε₀ ≤ ε_total exactly (and so also in floats): q = fl(ε_total/k) is within
    half an ulp of the quotient, so q ≤ (ε_total/k)(1 + u); where the exact product k·q exceeds ε_total (compared
    exactly, in rational arithmetic: one product of an integer and a float), the float below q is at most
    q(1 − u) < ε_total/k (below the normal range: q − 2⁻¹⁰⁷⁴ < ε_total/k, the quotient being within 2⁻¹⁰⁷⁵).  One
    outward ``nextafter``, no loop.  (The loop it replaces compared the float product, which rounds: 1/10⁴ gave
    ε₀ = fl(10⁻⁴), whose exact 10⁴·ε₀ exceeds 1 by 4.8e-17.)"""
    eps0 = eps_total / k
    if k * Fraction(eps0) > Fraction(eps_total):
        eps0 = math.nextafter(eps0, 0.0)
    return eps0


_FLOAT_MAX = float(np.finfo(float).max)
_ROOT_STEPS = 64  # at most this many evaluations of the composed ε below Brent's root (each a doubling or a halving)


def _safe_root(g, root: float) -> float:
    """The ε₀ that :func:`max_eps0` returns from Brent's ``root`` of g(ε₀) = composed ε − ε_total (g increasing):
    ``root`` itself where g(root) ≤ 0; else a bracket [lo, root] with g(lo) ≤ 0 < g(root) is found below it in
    steps of 2ⁱ ulps (i = 2, 3, …: lo = root − 2ⁱ ulps, at most ~12 steps since Brent's root is within a relative
    4·2⁻⁵² of the exact one), then bisected on the float grid (the integers of the floats' bit patterns, which
    order the positive floats) down to adjacent floats; lo is returned: g(lo) ≤ 0, so the returned ε₀ composes to
    at most ε_total under the method, whatever the rounding of g near the root.  At most 2·_ROOT_STEPS evaluations
    (the Build of issue 23: never a search loop of ulp steps); if no lo is found, 0 (the composition of ε₀ = 0 is
    ε = 0 ≤ ε_total)."""
    if root <= 0.0 or g(root) <= 0.0:
        return max(root, 0.0)
    bits = lambda x: int(np.float64(x).view(np.int64))  # noqa: E731  (positive floats: order-preserving)
    value = lambda b: float(np.int64(b).view(np.float64))  # noqa: E731
    hi = bits(root)
    lo = None
    for i in range(2, _ROOT_STEPS):
        candidate = max(hi - 2**i, 0)
        if candidate == 0 or g(value(candidate)) <= 0.0:
            lo = candidate
            break
        hi = candidate
    if not lo:  # (not reached: 2⁶³ ulps below any float is 0)
        return 0.0
    while hi - lo > 1:  # g(value(lo)) ≤ 0 < g(value(hi)): at most i bisection steps
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if g(value(mid)) <= 0.0 else (lo, mid)
    return value(lo)


# --------------------------------------------------------------------------------------------------
# zCDP composition (Kazan Theorem 2.9)
# --------------------------------------------------------------------------------------------------


def zcdp_compose(rhos, k=None):
    """Kazan et al., Theorem 2.9 (Bun & Steinke 2016, Lemma 2.3): running ρ_j-zCDP mechanisms together is
    (Σ_j ρ_j)-zCDP.

    ``zcdp_compose([ρ_1, …, ρ_k])`` sums a sequence; ``zcdp_compose(rho, k)`` is the homogeneous case kρ
    (broadcasts over ``rho`` and ``k``).  Rounded up: the smallest float not below the exact sum (the sum is
    formed exactly by ``math.fsum``; kρ is one product rounded away from 0).
    """
    if k is None:
        rhos = np.atleast_1d(np.asarray(check_positive(rhos, "rhos"), dtype=float))
        if rhos.ndim != 1:
            raise ValueError(f"rhos must be one-dimensional (got shape {rhos.shape})")
        terms = rhos.tolist()
        try:
            total = math.fsum(terms)  # the exact sum correctly rounded; fsum of it minus the sum has its sign
        except OverflowError:
            return math.inf
        if math.isfinite(total) and math.fsum([*terms, -total]) > 0:
            total = math.nextafter(total, math.inf)
        return total
    rho, k = broadcast(rhos=check_positive(rhos, "rhos"), k=np.asarray(_check_k(k), dtype=float))
    return _out(_rounding.mul_away(k, rho))  # kρ rounded up (+inf beyond the float range)
