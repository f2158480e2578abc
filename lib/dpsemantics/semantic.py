"""Semantic privacy: what a Bayesian adversary concludes, computed (Kasiviswanathan & Smith).

Kasiviswanathan & Smith (K&S) formalise "an adversary draws the same conclusions whether or not my data
is used" with n + 1 games.  In Game 0 the adversary sees a transcript t of the mechanism run on the real
database x; in Game i (1 ≤ i ≤ n) it sees a transcript of the mechanism run on x₋ᵢ, the database with
record i replaced by a fixed default value.  Starting from a belief b over databases, Bayes' rule gives
the posteriors

* b̄₀[x | t] ∝ Pr[A(x) = t] · b[x]            (K&S equation 1),
* b̄ᵢ[x | t] ∝ Pr[A(x₋ᵢ) = t] · b[x]          (K&S equation 2),

and a mechanism is ε-semantically private (K&S Definition 2.1) when SD(b̄₀[·|t], b̄ᵢ[·|t]) ≤ ε for every
belief b, transcript t and index i.  This module computes all of that for a finite mechanism
(:class:`dpsemantics.mechanisms.FiniteMechanism` whose databases are tuples of length n), and the bounds of
the paper's theorems, so that every statement of the paper can be checked on concrete mechanisms.

The public API, grouped (other chapters import these names; they are stable):

Games and posteriors
    :func:`games` (every posterior of one transcript), :func:`posterior`, :func:`statistical_difference`,
    :func:`semantic_profile` (all transcripts at once), :func:`game_likelihoods`, :func:`game_weights`.
Semantic privacy of a mechanism
    :func:`semantic_epsilon` (the exact ε of Definition 2.1 with a worst belief),
    :func:`semantic_delta` (Definitions 2.3/4.1 for one belief), :func:`reality_oblivious_delta` (Appendix B,
    Definition A.1), :func:`log_ratio_spread` and :func:`tilt_statistical_difference` (the two-point bound).
    The searches over beliefs that cross-check them are evidence, in ``dpsemantics.claims.semantic_evidence``.
Bounds printed by the paper, and the exact ones
    :func:`thm22_epsilon`, :func:`thm22_proof_epsilon`, :func:`tight_semantic_epsilon`,
    :func:`thm22_converse_epsilon`, :func:`tight_converse_epsilon`, :func:`thm24_max_delta`,
    :func:`thm24_parameters`, :func:`thm24_proof_epsilon`, :func:`thm24_converse_parameters`,
    :func:`conditioning_delta`, :func:`corrected_conditioning_delta`,
    :func:`thm24_repaired_delta_hat`, :func:`thm24_repaired_delta`, :func:`thm42_parameters`, :func:`max_sd_bound`, :func:`tight_max_sd`,
    :func:`pointwise_delta`.
Related approaches (§2.1)
    :func:`informed_semantic_epsilon` (prior-to-posterior, informed beliefs; :func:`informed_rows`), :func:`most_powerful_power`
    and :func:`testing_bound` (the hypothesis-testing view).
The paper's examples
    :func:`random_index_mechanism` (Remark 1), :func:`smoking_study` (Example 1), :func:`leaky_count`,
    :func:`dwork_mcsherry_sd`, :func:`dwork_mcsherry_delta`, :func:`paper_gaussian_sigma` (Theorem A.2),
    :func:`median_mechanism`, :func:`local_sensitivity` (Corollary 4.4).

Two conventions, both stated in the chapter:

* A transcript that has probability 0 in Game i but positive probability in Game 0 leaves b̄ᵢ undefined.
  Seeing it proves that record i was used, so we count it as a complete breach: SD = 1.
* The worst belief for Definition 2.1 is found exactly by a reduction proved in the chapter: the tilt
  b̄₀ ∝ b̄ᵢ · r with r(x) = Pr[A(x) = t]/Pr[A(x₋ᵢ) = t] moves a distribution by at most
  (√R − 1)/(√R + 1) in statistical difference, R = max r / min r, and a two-point belief attains it.
"""

from __future__ import annotations

import math
import itertools
from fractions import Fraction
from dataclasses import dataclass
from functools import partial
from typing import Callable, Hashable, Sequence

import numpy as np
import mpmath
from scipy.special import ndtr

from ._validate import (
    as_float,
    as_output,
    check_delta,
    check_distribution,
    check_distribution_pair,
    check_epsilon,
    check_instance,
    check_positive,
    check_positive_int,
    check_probability,
    check_record_count,
    check_single_value,
    overflow_is_infinity,
    refuse_where,
)
from . import _rounding
from ._broadcast import broadcasting
from .mechanisms import FiniteMechanism, _exceeds_exp_times, clamped_geometric_pmf

__all__ = [
    "Games",
    "SemanticResult",
    "games",
    "log_ratio_spread",
    "tilt_statistical_difference",
    "game_likelihoods",
    "game_weights",
    "posterior",
    "statistical_difference",
    "semantic_profile",
    "semantic_epsilon",
    "semantic_delta",
    "reality_oblivious_delta",
    "thm22_epsilon",
    "thm22_proof_epsilon",
    "tight_semantic_epsilon",
    "thm22_converse_epsilon",
    "tight_converse_epsilon",
    "two_point_converse_epsilon",
    "thm24_max_delta",
    "thm24_parameters",
    "thm24_proof_epsilon",
    "thm24_converse_parameters",
    "conditioning_delta",
    "conditioning_bad_mass",
    "corrected_conditioning_delta",
    "thm24_repaired_delta_hat",
    "thm24_repaired_delta",
    "informed_semantic_epsilon",
    "informed_rows",
    "most_powerful_power",
    "testing_bound",
    "thm42_parameters",
    "max_sd_bound",
    "tight_max_sd",
    "pointwise_delta",
    "random_index_mechanism",
    "smoking_study",
    "leaky_count",
    "dwork_mcsherry_sd",
    "dwork_mcsherry_delta",
    "paper_gaussian_sigma",
    "median_mechanism",
    "local_sensitivity",
]


# ---------------------------------------------------------------------------------------------------
# Games 0..n
# ---------------------------------------------------------------------------------------------------


def _record_length(mechanism: FiniteMechanism) -> int:
    dbs = check_instance(mechanism, FiniteMechanism, "mechanism").databases
    if not all(isinstance(d, tuple) for d in dbs):
        raise ValueError("mechanism.databases must be tuples (x_1, ..., x_n) so that x_{-i} is defined")
    lengths = {len(d) for d in dbs}
    if len(lengths) != 1 or 0 in lengths:
        raise ValueError(f"mechanism.databases must all have the same length n >= 1 (got lengths {sorted(lengths)})")
    return lengths.pop()


def _minus_index(mechanism: FiniteMechanism, default) -> np.ndarray:
    """``out[i-1, k]`` is the row index of x₋ᵢ for x = databases[k] (K&S §2: record i set to the default)."""
    n = _record_length(mechanism)
    check_single_value(default, "default")
    index = {d: k for k, d in enumerate(mechanism.databases)}
    out = np.empty((n, len(mechanism.databases)), dtype=int)
    for k, d in enumerate(mechanism.databases):
        for i in range(n):
            minus = d[:i] + (default,) + d[i + 1 :]
            if minus not in index:
                raise ValueError(
                    f"default={default!r} gives x_-{i + 1}={minus!r}, which is not one of mechanism.databases"
                )
            out[i, k] = index[minus]
    return out


def _belief(mechanism: FiniteMechanism, belief) -> np.ndarray:
    """A belief as a vector over ``mechanism.databases``; a dict {database: probability} is accepted."""
    check_instance(mechanism, FiniteMechanism, "mechanism")
    if isinstance(belief, dict):
        index = {d: k for k, d in enumerate(mechanism.databases)}
        vec = np.zeros(len(index))
        for d, p in belief.items():
            if d not in index:
                raise ValueError(f"belief gives probability to {d!r}, which is not one of mechanism.databases")
            vec[index[d]] += as_float(p, "belief")
        belief = vec
    b = check_distribution(belief, "belief")
    if b.size != len(mechanism.databases):
        raise ValueError(
            f"belief must have one probability per database ({len(mechanism.databases)}), got {b.size}"
        )
    return b


def _column(mechanism: FiniteMechanism, transcript) -> int:
    check_single_value(transcript, "transcript")
    for j, out in enumerate(mechanism.outputs):
        if out == transcript:
            return j
    raise ValueError(f"transcript must be one of mechanism.outputs (got transcript={transcript!r})")


def _check_index(i, n: int, *, allow_zero: bool) -> int:
    low = 0 if allow_zero else 1
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not low <= int(i) <= n:
        what = "game" if allow_zero else "index i"
        raise ValueError(f"{what} must be a whole number in {low}..{n} for databases of size n={n} (got i={i!r})")
    return int(i)


def game_likelihoods(mechanism: FiniteMechanism, default=0) -> np.ndarray:
    """Pr_g[t | x] for every game g = 0..n, database x and transcript t (K&S §2, Games 0..n): shape ``(n+1, n_db, n_t)``;
    Game 0 runs the mechanism on x, Game g on x₋g (record g set to ``default``)."""
    minus = _minus_index(mechanism, default)
    L = mechanism.matrix
    return np.concatenate([L[None, :, :], L[minus]], axis=0)


def game_weights(mechanism: FiniteMechanism, belief, default=0):
    """Joint weights and evidences of every game and transcript (K&S §2, Games 0..n).

    Returns ``w`` of shape ``(n+1, n_db, n_t)`` with w[g, x, t] = Pr_g[t | x] b[x] (:func:`game_likelihoods`) and
    ``z`` = w.sum(axis=1), the probability of t in game g under the belief b.  The posteriors b̄_g[x | t] are
    w[g, x, t]/z[g, t].
    """
    b = _belief(mechanism, belief)
    w = game_likelihoods(mechanism, default) * b[None, :, None]
    return w, w.sum(axis=1)


def _sd_from_weights(w: np.ndarray, z: np.ndarray, *, tol: float = 0.0) -> np.ndarray:
    """SD(b̄₀, b̄ᵢ) for every i and t, shape (n, n_t); 1 where Game i cannot produce t (module convention);
    0 where Game 0 cannot produce t (such transcripts never occur)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        post = np.where(z[:, None, :] > tol, w / np.where(z > tol, z, 1.0)[:, None, :], 0.0)
    sd = 0.5 * np.abs(post[1:] - post[0][None]).sum(axis=1)
    possible = z[0] > tol
    undefined = (z[1:] <= tol) & possible[None, :]
    sd = np.where(undefined, 1.0, sd)
    return np.where(possible[None, :], np.clip(sd, 0.0, 1.0), 0.0)


@dataclass(frozen=True)
class Games:
    """Everything an adversary computes from one transcript in Games 0..n (K&S §2, equations 1–2).

    ``posteriors[g]`` is b̄_g[· | t] over ``mechanism.databases`` (row 0 is Game 0, the real world);
    ``evidence[g]`` is the probability of t in Game g under the belief; ``defined[g]`` says whether
    b̄_g exists (evidence > 0; undefined rows are zeros); ``sd[i-1]`` is SD(b̄₀, b̄ᵢ), 1 when b̄ᵢ is
    undefined.
    """

    posteriors: np.ndarray
    evidence: np.ndarray
    defined: np.ndarray
    sd: np.ndarray


def games(mechanism: FiniteMechanism, belief, transcript, *, default=0) -> Games:
    """The n + 1 posteriors b̄₀, …, b̄ₙ of one transcript (K&S equations 1 and 2) and their statistical
    differences SD(b̄₀, b̄ᵢ) (K&S Definition 2.1).

    ``belief`` is a probability vector over ``mechanism.databases`` (or a dict {database: probability});
    ``transcript`` is one of ``mechanism.outputs``; ``default`` is the value that replaces record i in
    Game i.  Raises ``ValueError`` if the transcript is impossible in Game 0 under the belief.
    """
    b = _belief(mechanism, belief)
    j = _column(mechanism, transcript)
    w, z = game_weights(mechanism, b, default)
    w, z = w[:, :, j], z[:, j]
    if z[0] <= 0:
        raise ValueError(f"transcript={transcript!r} has probability 0 in Game 0 under this belief")
    defined = z > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        post = np.where(defined[:, None], w / np.where(defined, z, 1.0)[:, None], 0.0)
    sd = _sd_from_weights(w[:, :, None], z[:, None])[:, 0]
    return Games(post, z, defined, sd)


def posterior(mechanism: FiniteMechanism, belief, transcript, i: int = 0, *, default=0) -> np.ndarray:
    """b̄ᵢ[· | t]: the posterior in Game i (i = 0: K&S equation 1; 1 ≤ i ≤ n: equation 2)."""
    n = _record_length(mechanism)
    i = _check_index(i, n, allow_zero=True)
    g = games(mechanism, belief, transcript, default=default)
    if not g.defined[i]:
        raise ValueError(f"transcript={transcript!r} has probability 0 in Game {i}: b̄_{i} is undefined")
    return g.posteriors[i]


def statistical_difference(mechanism: FiniteMechanism, belief, transcript, i: int, *, default=0) -> float:
    """SD(b̄₀[·|t], b̄ᵢ[·|t]) for one index i in 1..n (K&S Definition 2.1); 1 if b̄ᵢ is undefined.

    The SD that ε-semantic privacy bounds, so rounded up: computed exactly in rationals from the float likelihoods
    and belief (the posteriors are ratios of sums of products of them) and returned as the smallest float not
    below it."""
    n = _record_length(mechanism)
    i = _check_index(i, n, allow_zero=False)
    b = _belief(mechanism, belief)
    j = _column(mechanism, transcript)
    minus = _minus_index(mechanism, default)
    L = mechanism.matrix
    sd = _exact_sd(L[:, j], L[minus[i - 1], j], b)
    if sd is None:
        raise ValueError(f"transcript={transcript!r} has probability 0 in Game 0 under this belief")
    return _rounding.rational_up(sd)


def _exact_sd(like0, likei, b):
    """SD(b̄₀, b̄ᵢ) of one transcript in exact rationals, from the likelihoods of Game 0 and Game i and the belief
    (floats, read exactly): 1 where b̄ᵢ is undefined, ``None`` where Game 0 cannot produce the transcript."""
    bs = [Fraction(float(v)) for v in b]
    w0 = [Fraction(float(a)) * c for a, c in zip(like0, bs)]
    wi = [Fraction(float(a)) * c for a, c in zip(likei, bs)]
    z0, zi = sum(w0), sum(wi)
    if z0 == 0:
        return None
    if zi == 0:
        return Fraction(1)
    return sum(abs(a / z0 - c / zi) for a, c in zip(w0, wi)) / 2


def _bad_transcripts(mechanism: FiniteMechanism, b: np.ndarray, eps: float, default) -> np.ndarray:
    """Whether some SD(b̄₀, b̄ᵢ) exceeds ε at each transcript, decided exactly (K&S Definitions 2.3, 4.1, A.1).

    The float SDs of :func:`semantic_profile` are within (4|D| + 16)u of the exact ones (u = 2⁻⁵³): each weight
    L·b within ½u, each evidence (a sum of |D| of them) within (|D| − 1)u, each posterior within (|D| + 2)u relative,
    the |D| differences and their sum add |D| + 1 roundings of numbers whose total is at most 2, halved.  Where a
    float SD is farther than that from ε its side is the exact one; the cells within it, and those whose evidence
    is below 2⁻⁹⁰⁰ (where products may have underflowed), are decided in exact rationals
    (:func:`statistical_difference`'s arithmetic).  No tolerance: a transcript whose exact SD exceeds ε counts."""
    minus = _minus_index(mechanism, default)
    L = mechanism.matrix
    w, z = game_weights(mechanism, b, default)
    sd = _sd_from_weights(w, z)
    err = (4.0 * len(mechanism.databases) + 16.0) * _rounding.UNIT_ROUNDOFF
    unsure = (np.abs(sd - eps) <= err) | (z[:1] < 2.0**-900) | (z[1:] < 2.0**-900)
    bad = sd > eps
    exact_eps = Fraction(float(eps))
    for i, t in zip(*np.nonzero(unsure)):
        cell = _exact_sd(L[:, t], L[minus[i], t], b)
        bad[i, t] = cell is not None and cell > exact_eps
    return np.any(bad, axis=0)


def semantic_profile(mechanism: FiniteMechanism, belief, *, default=0):
    """For one belief, every transcript at once: ``(sd, prob)`` with ``sd[i-1, t]`` = SD(b̄₀, b̄ᵢ) at
    transcript t and ``prob[t]`` = Pr[t] in Game 0 when x ~ b (the weighting of K&S Definition 2.3)."""
    b = _belief(mechanism, belief)
    w, z = game_weights(mechanism, b, default)
    return _sd_from_weights(w, z), z[0]


def semantic_delta(mechanism: FiniteMechanism, belief, eps, *, default=0) -> float:
    """The smallest δ for which the mechanism is (ε, δ)-local semantically private for this belief
    (K&S Definition 4.1; Definition 2.3 asks it for every belief): Pr_{x~b, t~A(x)}[∃i: SD > ε]."""
    eps = check_epsilon(eps, "eps", scalar=True)
    b = _belief(mechanism, belief)
    bad = _bad_transcripts(mechanism, b, eps, default)
    # a δ claimed to hold, so rounded up: the transcripts decided exactly, Pr[bad] = Σ_x b[x] Σ_{t bad} L[x, t]
    # summed in exact rationals and rounded once to the float above
    rows = mechanism.matrix[:, bad]
    mass = sum((Fraction(float(bx)) * sum(map(Fraction, map(float, row))) for bx, row in zip(b, rows) if bx > 0),
               Fraction(0))
    return min(_rounding.rational_up(mass), 1.0)


def reality_oblivious_delta(mechanism: FiniteMechanism, belief, database, eps, *, default=0) -> float:
    """Pr_{t~A(database)}[∃i: SD(b̄₀, b̄ᵢ) > ε]: the δ of reality-oblivious semantic privacy (K&S Appendix B,
    Definition A.1) for one belief and one real database, which need not be likely under the belief."""
    eps = check_epsilon(eps, "eps", scalar=True)
    b = _belief(mechanism, belief)
    row = mechanism.row(database)
    # Transcripts the belief deems impossible in Game 0 leave b̄₀ undefined: a breach by convention (exactly: no
    # database of positive belief gives them positive probability; a product of positive floats is positive).
    impossible = ~np.any((mechanism.matrix > 0) & (b[:, None] > 0), axis=0)
    bad = _bad_transcripts(mechanism, b, eps, default) | impossible
    # a δ claimed to hold: the transcripts decided exactly, their probabilities summed exactly, rounded up once
    return min(_rounding.rational_up(sum(map(Fraction, map(float, row[bad])), Fraction(0))), 1.0)


# ---------------------------------------------------------------------------------------------------
# The semantic-privacy ε of a mechanism
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SemanticResult:
    """The semantic-privacy ε of a mechanism and where it is attained.

    ``epsilon`` is sup SD(b̄₀, b̄ᵢ) over beliefs, transcripts and indices (K&S Definition 2.1); ``belief``,
    ``transcript`` and ``index`` attain it (or come within 1e-9 of it when ``attained`` is False: the
    supremum 1 is then a limit of ever more lopsided beliefs).  ``method`` records how it was found.
    """

    epsilon: float
    belief: np.ndarray
    transcript: Hashable
    index: int
    attained: bool
    method: str


def log_ratio_spread(likelihoods, axis=0):
    """The spread ln max − ln min of non-negative likelihoods along ``axis``: Δ ln R, R the max/min ratio of the
    likelihoods of one observation under the points of a belief (K&S, proof of Theorem 2.2; Zhao's BDP leakage is
    its maximum over observations).  +∞ where some entries are 0 and others positive (the observation rules a
    point out); 0 where all are 0 (the observation never happens: nothing to learn).  The one max-log-ratio of
    :mod:`dpsemantics.semantic` and :mod:`dpsemantics.notions`."""
    values = np.asarray(as_float(likelihoods, "likelihoods"), dtype=float)
    if values.ndim == 0 or values.size == 0:
        raise ValueError(f"likelihoods must be a non-empty array (got shape {values.shape})")
    if np.any(values < 0):
        raise ValueError(f"likelihoods must be >= 0 (got likelihoods={values.ravel()[values.ravel() < 0][0]!r})")
    hi, lo = values.max(axis=axis), values.min(axis=axis)
    return as_output(np.where(hi > 0, _log_ratio_up(hi, lo), 0.0))


def _log_ratio_up(hi, lo):
    """A float never below ln(hi/lo) for floats hi ≥ lo ≥ 0, hi > 0 (+∞ at lo = 0, exactly 0 at hi = lo).

    ln of the float quotient: fl(hi/lo) = (hi/lo)(1 + e), |e| ≤ u, moves the log by at most 1.01u absolute, and np.log
    is within 4 ulps (8u relative) of its argument's log; so ln(hi/lo) ≤ d(1 + 8u) + 1.01u for the computed d, and
    fl(d + 2u) raised 10 ulps is above that (each ulp at least u relative).  Where hi/lo is beyond the float range
    (ln > 709) ln hi − ln lo instead: each log within 8u of its modulus, the difference ½ulp, so d + 8u(|ln hi| +
    |ln lo|) (a relative 2e-15 at most) raised 4 ulps."""
    hi, lo = np.asarray(hi, dtype=float), np.asarray(lo, dtype=float)
    u = _rounding.UNIT_ROUNDOFF
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ratio = hi / lo
        direct = _rounding.up(np.log(ratio) + 2.0 * u, 10)
        log_hi, log_lo = np.log(hi), np.log(lo)
        split = _rounding.up(log_hi - log_lo + 8.0 * u * (np.abs(log_hi) + np.abs(log_lo)), 4)
    out = np.where(np.isinf(ratio) & (lo > 0), split, direct)
    return np.where(hi == lo, 0.0, np.where(lo == 0, np.inf, out))


@broadcasting(spread=partial(check_epsilon, allow_inf=True))
def tilt_statistical_difference(spread):
    """The largest statistical difference between a belief and the same belief reweighted by likelihoods whose log
    ratio spread is Δ = ln R (:func:`log_ratio_spread`): (√R − 1)/(√R + 1) = tanh(Δ/4), 1 at Δ = ∞.  A two-point
    belief on the points of largest and smallest likelihood attains it (K&S, proof of Theorem 2.2; Zhao's
    semantic level tanh(ε/4) of ε-BDP).

    The largest SD, so rounded up: Δ/4 is exact in the normal range (tanh(x) = x below it, where a quarter of a
    subnormal rounds to the subnormal grid, half a step at most, and a positive spread is never taken to 0: the
    smallest subnormal), np.tanh within 4 ulps, raised 5 ulps, capped at 1."""
    quarter = spread / 4
    safe = np.where((quarter == 0) & (spread > 0), _rounding.SMALLEST_SUBNORMAL, np.tanh(quarter))
    return np.minimum(_rounding.up(safe, 5), 1.0)


def _tilt_ratios(mechanism: FiniteMechanism, default):
    """r[i-1, x, t] = Pr[A(x)=t]/Pr[A(x₋ᵢ)=t] with inf for 0-denominators; ``valid`` marks defined ratios."""
    minus = _minus_index(mechanism, default)
    L = mechanism.matrix
    Li = L[minus]
    valid = (L[None] > 0) | (Li > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(Li > 0, L[None] / np.where(Li > 0, Li, 1.0), np.inf)
    return r, valid, Li


def _two_point_belief(L, Li, i, t, hi, lo, R, n_db):
    """The belief on {hi, lo} that attains (√R−1)/(√R+1) for index i and transcript t, and whether the
    supremum is attained (R = ∞ with only one of the two ratios degenerate: SD → 1 in a limit)."""
    belief = np.zeros(n_db)
    if hi == lo:
        belief[hi] = 1.0
        return belief, True
    if np.isfinite(R):
        a = 1.0 / (1.0 + np.sqrt(R))  # b̄ᵢ's weight on the database with the largest ratio
        w_hi, w_lo = a / Li[i, hi, t], (1 - a) / Li[i, lo, t]
        belief[hi], belief[lo] = w_hi / (w_hi + w_lo), w_lo / (w_hi + w_lo)
        return belief, True
    inf_hi = Li[i, hi, t] == 0  # r(hi) = ∞: hi is impossible in Game i
    zero_lo = L[lo, t] == 0  # r(lo) = 0: lo is impossible in Game 0
    if inf_hi and zero_lo:
        belief[hi] = belief[lo] = 0.5  # b̄₀ = point on hi, b̄ᵢ = point on lo: SD = 1
        return belief, True
    w = 1 - 1e-9 if inf_hi else 1e-9  # SD → 1 as the weight moves to hi (resp. lo)
    belief[hi], belief[lo] = w, 1 - w
    return belief, False


def _spread_of_ratio_up(R, exact_one):
    """A float never below ln R* for R = fl(fl(a/b)/fl(c/d)) ≥ 1 the computed max/min ratio of the tilts (or of two
    of them) and R* the exact one: three roundings put R* below R(1 + 3.01u), so R raised 4 ulps bounds it, and its
    log is rounded up by :func:`log_ratio_spread`'s analysis.  R = 1 is exact (spread 0) only where ``exact_one``
    says the exact ratios are equal (decided in rationals); +∞ stays +∞."""
    R = np.asarray(R, dtype=float)
    bumped = np.where(np.isinf(R), np.inf, _rounding.up(R, 4))
    return np.where((R == 1.0) & exact_one, 0.0, _log_ratio_up(bumped, np.ones_like(R)))


def _ratios_equal(L, Li, valid, R):
    """For the (i, t) cells whose float max/min ratio R is 1: whether the exact tilts L[x, t]/Li[i, x, t] over the
    valid x are all equal (identical floats, or equal cross products in rationals)."""
    out = np.zeros(R.shape, dtype=bool)
    for i, t in zip(*np.nonzero(R == 1.0)):
        rows = np.flatnonzero(valid[i, :, t])
        a, c = L[rows, t], Li[i, rows, t]
        if np.all(a == c):
            out[i, t] = True
            continue
        # (all infinite — Game i never gives t — is the float code's R = 1 too, kept as it was)
        ratios = {Fraction(float(x)) / Fraction(float(y)) if y > 0 else None for x, y in zip(a, c)}
        out[i, t] = len(ratios) <= 1
    return out


def _exact(mechanism: FiniteMechanism, default) -> SemanticResult:
    n_db = len(mechanism.databases)
    r, valid, Li = _tilt_ratios(mechanism, default)
    rmax = np.where(valid, r, -np.inf).max(axis=1)  # (n, n_t)
    rmin = np.where(valid, r, np.inf).min(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        R = np.where(rmin > 0, rmax / np.where(rmin > 0, rmin, 1.0), np.inf)
    R = np.where(np.isfinite(rmax) | (rmin < np.inf), R, 1.0)
    R = np.where(np.isnan(R), 1.0, R)
    sd = tilt_statistical_difference(_spread_of_ratio_up(R, _ratios_equal(mechanism.matrix, Li, valid, R)))
    sd = np.where(valid.any(axis=1), sd, -1.0)  # (i, t) pairs no database can produce do not count
    i, t = np.unravel_index(int(np.argmax(sd)), sd.shape)
    ratios = np.where(valid[i, :, t], r[i, :, t], np.nan)
    hi = int(np.nanargmax(ratios))
    lo = int(np.nanargmin(ratios))
    belief, attained = _two_point_belief(mechanism.matrix, Li, int(i), int(t), hi, lo, R[i, t], n_db)
    return SemanticResult(float(sd[i, t]), belief, mechanism.outputs[t], int(i) + 1, attained, "exact")


def _exhaustive(mechanism: FiniteMechanism, default) -> SemanticResult:
    """Every transcript, every index, every pair of databases as a two-point belief, the mixing weight
    optimised in closed form — an O(n·|T|·|D|²) enumeration that does not use the max/min shortcut."""
    r, valid, Li = _tilt_ratios(mechanism, default)
    n, n_db, n_t = r.shape
    best = (-1.0, None)
    for i in range(n):
        for t in range(n_t):
            for x, y in itertools.combinations(range(n_db), 2):
                if not (valid[i, x, t] and valid[i, y, t]):
                    continue
                hi, lo = (x, y) if r[i, x, t] >= r[i, y, t] else (y, x)
                if r[i, lo, t] == 0 or np.isinf(r[i, hi, t]):
                    R = np.inf
                else:
                    R = r[i, hi, t] / r[i, lo, t]
                one = R == 1.0 and Fraction(float(mechanism.matrix[x, t])) * Fraction(float(Li[i, y, t])) == \
                    Fraction(float(mechanism.matrix[y, t])) * Fraction(float(Li[i, x, t]))
                sd = float(tilt_statistical_difference(_spread_of_ratio_up(R, one)))
                if sd > best[0]:
                    best = (sd, (i, t, hi, lo, R))
    if best[1] is None:
        return SemanticResult(0.0, np.full(n_db, 1.0 / n_db), mechanism.outputs[0], 1, True, "exhaustive")
    sd, (i, t, hi, lo, R) = best
    belief, attained = _two_point_belief(mechanism.matrix, Li, i, t, hi, lo, R, n_db)
    return SemanticResult(sd, belief, mechanism.outputs[t], int(i) + 1, bool(attained), "exhaustive")


def semantic_epsilon(mechanism: FiniteMechanism, *, default=0, method: str = "exact") -> SemanticResult:
    """The semantic-privacy ε of a finite mechanism: sup over beliefs b, transcripts t and indices i of
    SD(b̄₀[·|t], b̄ᵢ[·|t]) (K&S Definition 2.1), with a belief that attains it.

    ``method``:

    * ``"exact"`` (default) — for each (i, t), the ratios r(x) = Pr[A(x)=t]/Pr[A(x₋ᵢ)=t]; the supremum over
      beliefs is (√R − 1)/(√R + 1) with R = max r / min r (the chapter proves it; a two-point belief
      attains it).  O(n · |D| · |T|).
    * ``"exhaustive"`` — enumerate every pair of databases as the support of the belief (small domains).

    A gradient search over all beliefs, with no reduction at all, cross-checks both in the claims
    (``dpsemantics.claims.semantic_evidence.searched_semantic_epsilon``).
    """
    _record_length(mechanism)
    if method == "exact":
        return _exact(mechanism, default)
    if method == "exhaustive":
        return _exhaustive(mechanism, default)
    raise ValueError(f"method must be 'exact' or 'exhaustive' (got method={method!r})")


# ---------------------------------------------------------------------------------------------------
# The paper's bounds, and the exact values they bound
# ---------------------------------------------------------------------------------------------------
# Each is an ε that a guarantee rests on (a semantic ε a DP mechanism is certified to meet, or a DP ε a
# semantically private one is), so each is rounded up by its evaluation error (``_rounding``): NumPy's tanh, expm1
# and arctanh within 4 ulps (the allowance this package takes for NumPy's elementary functions), a product by 6
# within half an ulp, the halving and doubling exact.  A statistical difference is at most 1, so tanh's bound is
# capped there.  Tested against mpmath (tests/unit/test_safe_direction.py).
_ELEMENTARY_ULPS = 4


@broadcasting(eps=check_epsilon)
def thm22_epsilon(eps):
    """Theorem 2.2 as stated: ε-DP implies (e^ε − 1)-semantic privacy."""
    return _rounding.up(np.expm1(eps), _ELEMENTARY_ULPS)


@broadcasting(eps=check_epsilon)
def thm22_proof_epsilon(eps):
    """What the proof of Theorem 2.2 (§3.2, "restated": ε/2-DP ⇒ (e^ε − 1)-SP) gives for ε-DP:
    e^{2ε} − 1, weaker than the statement."""
    return _rounding.up(np.expm1(2 * eps), _ELEMENTARY_ULPS)


@broadcasting(eps=check_epsilon)
def tight_semantic_epsilon(eps):
    """The exact worst case over all ε-DP mechanisms: tanh(ε/2) (the chapter proves the bound; the
    two-sided geometric count with n ≥ 2 attains it).  ε-DP keeps r(x) in [e^{−ε}, e^ε], so R ≤ e^{2ε}."""
    half = eps / 2  # exact, except below the normal range, where the ulps below cover it — and where it is 0
    safe = np.where((half == 0) & (eps > 0), _rounding.SMALLEST_SUBNORMAL, np.tanh(half))
    return np.minimum(_rounding.up(safe, _ELEMENTARY_ULPS), 1.0)


@broadcasting(eps_sem=check_epsilon)
def thm22_converse_epsilon(eps_sem):
    """Theorem 2.2's converse as stated: ε/2-semantic privacy implies 3ε-DP for ε ≤ 0.45, i.e.
    s-semantic privacy implies 6s-DP for s ≤ 0.225.  Raises outside the stated range."""
    refuse_where(eps_sem > 0.225, "eps_sem must be <= 0.225 (= 0.45/2, Theorem 2.2's range)", eps_sem=eps_sem)
    return _rounding.up(6 * eps_sem, 1)


@broadcasting(eps_sem=check_probability)
def tight_converse_epsilon(eps_sem):
    """The exact converse: s-semantic privacy implies (4 artanh s)-DP, and randomized response shows
    nothing smaller works.  (Semantic ε ≥ tanh(ε_DP/4) because a neighbour pair differing in record i
    gives R ≥ e^{ε_DP}.)  ∞ at s ≥ 1."""
    with np.errstate(divide="ignore"):
        return _rounding.up(4 * np.arctanh(eps_sem), _ELEMENTARY_ULPS)


@broadcasting(eps_sem=check_probability)
def two_point_converse_epsilon(eps_sem):
    """What the two-point belief of the proof of Theorem 2.2 (equation 6) yields from s-semantic
    privacy: posterior odds ≤ (½ + s)/(½ − s), i.e. (2 artanh 2s)-DP, for s < ½."""
    refuse_where(eps_sem >= 0.5, "eps_sem must be < 0.5 for equation (6) to bound anything", eps_sem=eps_sem)
    return _rounding.up(2 * np.arctanh(2 * eps_sem), _ELEMENTARY_ULPS)


@broadcasting(eps=partial(check_epsilon, strictly_positive=True), n=check_positive)
def thm24_max_delta(eps, n):
    """Theorem 2.4 (1)'s condition: δ < (1 − e^{−ε})²/n.  Returns the right-hand side, the largest δ allowed,
    rounded down: expm1 within 4 ulps, the square and the quotient within ½ ulp each (under 10u), lowered 12 ulps;
    0 below the normal range (where the square loses relative accuracy; 0 allows nothing, which is safe)."""
    with np.errstate(under="ignore"):
        out = np.expm1(-eps) ** 2 / n
    return np.where(out < _TINY_NORMAL, 0.0, _rounding.down(out, 12))


@overflow_is_infinity
def thm24_parameters(eps, delta, n):
    """Theorem 2.4 (1): (ε, δ)-DP ⇒ (ε′, δ′)-semantic privacy, ε′ = e^{3ε} − 1 + 2√(nδ), δ′ = 4√(nδ).

    Raises ``ValueError`` when δ ≥ (1 − e^{−ε})²/n: the theorem says nothing there."""
    eps = check_epsilon(eps, "eps", strictly_positive=True, scalar=True)
    delta = check_delta(delta, "delta", open_low=True, scalar=True)
    n = check_positive_int(n, "n")
    if delta >= thm24_max_delta(eps, n):
        raise ValueError(
            f"delta must be < (1 - e^-eps)^2/n = {float(thm24_max_delta(eps, n)):.3g} for Theorem 2.4 "
            f"(got delta={delta}, eps={eps}, n={n})"
        )
    root = _root_up(n * delta)
    return float(_rounding.up(_e3_up(eps) + 2 * root, 1)), float(4 * root)


_TINY_NORMAL = float(np.finfo(float).tiny)


def _e3_up(eps):
    """e^{3ε} − 1 rounded up: 3ε is one rounding (within u·3ε), which expm1 carries with relative condition
    x·e^x/(e^x − 1) ≤ 1 + x at x = 3ε, so (1 + 3ε)u, and expm1's own 4 ulps: raised 6 + 4ε ulps."""
    with np.errstate(over="ignore"):
        return _rounding.up(np.expm1(3 * eps), 6 + 4 * np.asarray(eps, dtype=float))


def _e3_down(eps):
    """e^{3ε} − 1 rounded down, by the allowance of _e3_up."""
    with np.errstate(over="ignore"):
        return _rounding.down(np.expm1(3 * eps), 6 + 4 * np.asarray(eps, dtype=float))


def _root_up(x):
    """√x for a product x = n·δ formed in floats (within ½ ulp), rounded up: the root halves that and adds ½ ulp."""
    return _rounding.up(np.sqrt(x), 2)


@broadcasting(eps=partial(check_epsilon, strictly_positive=True), delta=check_delta, n=check_positive)
def thm24_proof_epsilon(eps, delta, n):
    """ε′ that the proof of Theorem 2.4 (1) actually yields: Lemma 3.3 (5) applied to (3ε, √(nδ))
    gives e^{3ε} − 1 + √(nδ) (the proof's last line writes e^{3ε̂} − 1 + δ̂, a slip)."""
    return _rounding.up(_e3_up(eps) + _root_up(n * delta), 1)  # two terms rounded up, their sum within ½ ulp


def thm24_converse_parameters(eps, delta):
    """Theorem 2.4 (2) as stated: (ε, δ)-semantic privacy ⇒ (3ε, 2δ)-DP for ε ≤ 0.45."""
    eps = check_epsilon(eps, "eps", strictly_positive=True, scalar=True)
    delta = check_delta(delta, "delta", open_low=True, scalar=True)
    if eps > 0.45:
        raise ValueError(f"eps must be <= 0.45 for Theorem 2.4 (2) (got eps={eps})")
    return float(_rounding.mul_away(3.0, eps)), 2 * delta  # 3ε rounded up, 2δ exact


@broadcasting(eps=partial(check_epsilon, strictly_positive=True), delta=check_delta, delta_hat=check_positive)
def conditioning_delta(eps, delta, delta_hat):
    """Lemma 3.4 (Conditioning Lemma) as proved: δ″ = 2δ/δ̂ + 2δ/(1 − e^{−ε}) bounds the probability of
    transcripts t at which A|_{B=t} and A′|_{B′=t} are not (3ε, δ̂)-indistinguishable.  (The printed
    statement reads 2δ̂/δ̂ + 2δ̂/(1 − e^{−ε̂}), a typo.)"""
    # two positive terms: 2δ/δ̂ within ½ ulp, 2δ/(1 − e^{−ε}) within 4½ ulps (expm1 4), the sum ½: raised 12 ulps
    return _rounding.up(2 * delta / delta_hat - 2 * delta / np.expm1(-eps), 12)


def conditioning_bad_mass(joint, joint_prime, eps_hat, delta_hat) -> tuple[float, float]:
    """For two joint distributions of (A, B) (matrices, rows a, columns t), the probability under B and
    under B′ of the transcripts t at which A|_{B=t} and A′|_{B′=t} are not (ε̂, δ̂)-indistinguishable:
    the quantity Lemma 3.4 bounds by δ″.  A transcript possible under only one of B, B′ counts as bad."""
    P = np.asarray(as_float(joint, "joint"), dtype=float)
    Q = np.asarray(as_float(joint_prime, "joint_prime"), dtype=float)
    check_distribution(P.ravel(), "joint")
    check_distribution(Q.ravel(), "joint_prime")
    if P.shape != Q.shape or P.ndim != 2:
        raise ValueError(f"joint and joint_prime must be matrices of one shape (got {P.shape} and {Q.shape})")
    eps_hat = check_epsilon(eps_hat, "eps_hat", scalar=True)
    delta_hat = check_delta(delta_hat, "delta_hat", scalar=True)
    # The masses that the lemma bounds, so rounded up: each transcript decided exactly (its conditionals are exact
    # rationals of the float entries; their δ at ε̂ is compared with δ̂ by _delta_exceeds, no tolerance) and
    # the bad columns' masses summed in rationals and rounded up once.
    bad = np.zeros(P.shape[1], dtype=bool)
    for t in range(P.shape[1]):
        p_col, q_col = [Fraction(float(v)) for v in P[:, t]], [Fraction(float(v)) for v in Q[:, t]]
        pb, qb = sum(p_col), sum(q_col)
        if pb == 0 or qb == 0:
            bad[t] = pb > 0 or qb > 0
            continue
        bad[t] = _delta_exceeds([v / pb for v in p_col], [v / qb for v in q_col], eps_hat, delta_hat)
    masses = [sum((Fraction(float(v)) for v in M[:, bad].ravel()), Fraction(0)) for M in (P, Q)]
    return _rounding.rational_up(masses[0]), _rounding.rational_up(masses[1])


def _delta_exceeds(p, q, eps, delta) -> bool:
    """Whether the smallest δ with p ≈_(ε,δ) q (the larger hockey-stick divergence, Σ (p − e^ε q)₊ either way)
    exceeds ``delta``, for rationals p, q and floats ε, δ, decided exactly: at ε = 0 in rationals (Σ (p − q)₊);
    otherwise e^ε is irrational (Lindemann), so the divergence is never the float δ unless it is 0, and mpmath at
    60, 200 and then 1 000 digits decides the side (the error at d digits is below 10^{3−d}); a difference smaller
    than that at 1 000 digits is counted as exceeding, the safe side."""
    if eps == 0:
        return max(sum(max(a - b, 0) for a, b in zip(p, q)), sum(max(b - a, 0) for a, b in zip(p, q))) > \
            Fraction(float(delta))
    for digits in (60, 200, 1000):
        with mpmath.workdps(digits):
            g = mpmath.exp(mpmath.mpf(float(eps)))
            ps = [mpmath.mpf(a.numerator) / a.denominator for a in p]
            qs = [mpmath.mpf(b.numerator) / b.denominator for b in q]
            over = max(mpmath.fsum(max(a - g * b, 0) for a, b in zip(ps, qs)),
                       mpmath.fsum(max(b - g * a, 0) for a, b in zip(ps, qs)))
            if over == 0:
                return False
            gap = over - mpmath.mpf(float(delta))
            if abs(gap) > mpmath.mpf(10) ** (3 - digits):
                return bool(gap > 0)
    return True  # pragma: no cover - within 1e-997 of δ: no such pair is known


@broadcasting(eps=partial(check_epsilon, strictly_positive=True), delta=check_delta,
              delta_hat=partial(check_positive, allow_inf=True))
def corrected_conditioning_delta(eps, delta, delta_hat):
    """The Conditioning Lemma (K&S Lemma 3.4) with the proof repaired: δ″ = 2δ/(1 − e^{−ε}) + (1 + e^{2ε})·δ/δ̂.

    The proof bounds Pr[B ∈ Bad′₁] ≤ δ/δ̂ correctly, but "by a similar argument" only gives
    Pr[B′ ∈ Bad′₂] ≤ δ/δ̂; off Bad₀, Pr[B = t] ≤ e^{2ε} Pr[B′ = t], hence Pr[B ∈ Bad′₂] ≤ e^{2ε}δ/δ̂.
    (The same bound holds over t ~ B′ by symmetry.)
    ``dpsemantics.claims.semantic_evidence.conditioning_counterexample`` shows that the printed 2δ/δ̂ + 2δ/(1 − e^{−ε}) is not enough."""
    # δ̂ = ∞ (the limit) or δ = 0: the second term is 0, whatever e^{2ε} is (∞·0 would be NaN past ε ≈ 355)
    live = np.isfinite(delta_hat) & (delta > 0)
    with np.errstate(over="ignore"):
        second = np.where(live, (1 + np.exp(2 * eps)) * np.where(live, delta, 1.0) / np.where(live, delta_hat, 1.0),
                          0.0)
    # two positive terms, each within 6 ulps (exp or expm1 4, three roundings ½), the sum ½: raised 12 ulps
    return _rounding.up(-2 * delta / np.expm1(-eps) + second, 12)


@broadcasting(eps=partial(check_epsilon, strictly_positive=True), delta=partial(check_delta, open_low=True),
              n=check_positive)
def thm24_repaired_delta_hat(eps, delta, n):
    """The largest δ̂ for which (3ε, δ̂)-indistinguishable posteriors are within Theorem 2.4 (1)'s
    ε′ = e^{3ε} − 1 + 2√(nδ) in statistical difference, using the exact maximum
    (e^{ε̂} − 1 + 2δ̂)/(e^{ε̂} + 1) (:func:`tight_max_sd`) instead of Lemma 3.3 (5):
    δ̂* = ((e^{3ε} − 1 + 2√(nδ))(e^{3ε} + 1) − (e^{3ε} − 1))/2 ≥ (e^{3ε} + 1)√(nδ)."""
    e3 = _e3_down(eps)
    root = 2 * _rounding.down(np.sqrt(n * delta), 2)
    # ((e3 + root)(e3 + 2) − e3)/2 expanded into non-negative terms: no inf − inf when e^{3ε} overflows.  The largest
    # δ̂, so rounded down: from lower bounds of e3 and the root, five roundings of non-negative terms (under 3u),
    # lowered 4 ulps
    with np.errstate(over="ignore"):
        return _rounding.down((e3 * (e3 + 1) + root * (e3 + 2)) / 2, 4)


@overflow_is_infinity
def thm24_repaired_delta(eps, delta, n):
    """δ′ = n·δ″ that Theorem 2.4 (1)'s proof gives with the corrected Conditioning Lemma
    (:func:`corrected_conditioning_delta`) at δ̂ = :func:`thm24_repaired_delta_hat`; under the theorem's
    condition it is below 3√(nδ), so the printed δ′ = 4√(nδ) survives.  Where δ̂ is beyond the float range
    (e^{3ε} overflows) it is read as ∞, and the lemma's second term, (1 + e^{2ε})δ/δ̂ < 4δe^{−4ε}, as 0."""
    dh = thm24_repaired_delta_hat(eps, delta, n)  # rounded down: the lemma's δ/δ̂ rounded up with it
    return _rounding.mul_away(n, corrected_conditioning_delta(eps, delta, dh))


def informed_semantic_epsilon(mechanism: FiniteMechanism) -> float:
    """sup SD(b, b̄₀[·|t]) over *informed* beliefs — all entries but one fixed — and transcripts t: the
    prior-to-posterior notion of Dwork et al. that K&S §2.1 recalls as "equivalent to differential privacy".

    For each index i, each setting of the other entries and each t, the likelihoods of the values of x_i have
    ratio R = max/min and the supremum over priors on x_i is tanh(ln R / 4) (two-point prior).  A grid over the
    priors, with no reduction, cross-checks it in the claims
    (``dpsemantics.claims.semantic_evidence.grid_informed_semantic_epsilon``).  The mechanism's databases must be
    all of Dⁿ."""
    check_instance(mechanism, FiniteMechanism, "mechanism")
    best = 0.0
    for rows in informed_rows(mechanism):
        best = max(best, float(np.max(tilt_statistical_difference(log_ratio_spread(rows, axis=0)))))
    return best


def informed_rows(mechanism: FiniteMechanism):
    """The informed adversary's likelihood tables: for each index i and each setting of the other entries, the
    rows Pr[A(x) = t] of the databases that differ only in x_i (an array of shape (|D|, |T|)), one at a time."""
    n, values = mechanism.record_domain()
    index = {d: k for k, d in enumerate(mechanism.databases)}
    L = mechanism.matrix
    for i in range(n):
        for rest in itertools.product(values, repeat=n - 1):
            yield np.array([L[index[rest[:i] + (v,) + rest[i:]]] for v in values])


@broadcasting(alpha=check_probability)
def most_powerful_power(null, alternative, alpha):
    """The power 1 − β of the most powerful (randomised, Neyman–Pearson) test of ``null`` against
    ``alternative`` (two distributions on the same finite outcomes) at level α: reject on the outcomes
    of largest likelihood ratio alternative/null first.  Vectorised in ``alpha``."""
    p0 = check_distribution(null, "null")
    p1 = check_distribution(alternative, "alternative")
    if p0.shape != p1.shape:
        raise ValueError(f"null and alternative must have the same outcomes (got {p0.size} and {p1.size})")
    # The power of the best test, an adversary's success (K&S §2.1 compares it with the bound e^ε α + δ of
    # testing_bound, which a mechanism must meet): rounded up.  Exactly in rationals of the float inputs — the
    # outcomes ordered by their exact likelihood ratio, the levels and powers exact partial sums, the randomised
    # outcome's share exact — and rounded up once (so never below, and at most one ulp above, the exact power).
    f0, f1 = [Fraction(float(v)) for v in p0], [Fraction(float(v)) for v in p1]
    order = sorted(range(len(f0)), key=lambda k: (f0[k] > 0, -(f1[k] / f0[k]) if f0[k] > 0 else 0))
    levels, powers = [Fraction(0)], [Fraction(0)]
    for k in order:
        levels.append(levels[-1] + f0[k])
        powers.append(powers[-1] + f1[k])

    def power(a: float) -> float:
        a = Fraction(a)
        k = max(j for j, level in enumerate(levels) if level <= a)  # the last level ≤ α (ties: the most power)
        out = powers[k]
        if k + 1 < len(levels):  # randomise on the next outcome (its level f0 > 0, or k would be later)
            out += (a - levels[k]) / f0[order[k]] * f1[order[k]]
        return _rounding.rational_up(min(out, Fraction(1)))

    alpha = np.asarray(alpha, dtype=float)
    return np.array([power(float(a)) for a in alpha.ravel()]).reshape(alpha.shape)


@broadcasting(eps=check_epsilon, delta=check_delta, alpha=check_probability)
def testing_bound(eps, delta, alpha):
    """The largest power of a level-α test of one record's value against an (ε, δ)-DP mechanism:
    1 − β ≤ e^ε α + δ (Wasserman & Zhou for δ = 0; K&S §2.1, equation (4) with the exponent repaired), and
    symmetrically 1 − β ≤ 1 − e^{−ε}(1 − δ − α).  Returns the smaller of the two, capped at 1."""
    # The largest power, so each form rounded up.  The first: exp within 4 ulps, the product and the sum ½ each,
    # raised 6 ulps; exactly δ at α = 0 (not ∞·0 = NaN once e^ε overflows).  The second, 1 − e^{−ε}(1 − δ − α):
    # 1 − δ − α is within 2⁻⁵³ absolute (two subtractions of numbers at most 1), so that much below it is a lower
    # bound; times e^{−ε} (4 ulps and ½) lowered 6 ulps; 1 minus that lower bound, raised 1 ulp
    with np.errstate(invalid="ignore", over="ignore"):
        first = np.where(alpha > 0, _rounding.up(np.exp(eps) * alpha + delta, 6), delta)
    rest = np.maximum((1 - delta - alpha) - 2.0**-53, 0.0)
    second = _rounding.up(1 - _rounding.down(np.exp(-eps) * rest, 6), 1)
    return np.minimum(np.minimum(first, second), 1.0)


@overflow_is_infinity
def thm42_parameters(eps, delta, delta1, n):
    """Theorem 4.2: ε′ = e^{3ε} − 1 + √(nδ₂), δ′ ≤ 4√(nδ₂), δ₂ = δ + δ₁, stated for ε > √(nδ₂).
    (Corollary 4.4 is the case δ = 0.)  Raises when ε ≤ √(nδ₂)."""
    eps = check_epsilon(eps, "eps", strictly_positive=True, scalar=True)
    delta = check_delta(delta, "delta", scalar=True)
    delta1 = check_delta(delta1, "delta1", scalar=True)
    n = check_positive_int(n, "n")
    delta2 = delta + delta1
    # n beyond the float range: √(nδ₂) is +∞ unless δ₂ = 0
    # √(nδ₂) rounded up: δ₂ within ½ ulp, the two roots ¾ and ½, the product ½ (under 2.5u), raised 3 ulps
    root = 0.0 if delta2 == 0 else (float(_rounding.up(math.sqrt(n) * math.sqrt(delta2), 3)) if n < 2**1000
                                    else math.inf)
    if eps <= root:
        raise ValueError(f"eps must exceed sqrt(n*(delta+delta1)) = {root:.3g} for Theorem 4.2 (got eps={eps})")
    return float(_rounding.up(_e3_up(eps) + root, 1)), 4 * root


@broadcasting(eps=check_epsilon, delta=check_delta)
def max_sd_bound(eps, delta):
    """Lemma 3.3 (5): (ε, δ)-indistinguishable X, Y have SD(X, Y) ≤ e^ε − 1 + δ."""
    return _rounding.up(np.expm1(eps) + delta, 5)  # expm1 within 4 ulps, the sum ½


@broadcasting(eps=check_epsilon, delta=check_delta)
def tight_max_sd(eps, delta):
    """The largest SD of two (ε, δ)-indistinguishable distributions: (e^ε − 1 + 2δ)/(e^ε + 1), attained on
    three points (the corner of the (ε, δ) trade-off region)."""
    a = np.exp(-eps)  # divided through by e^ε: no inf/inf at large ε (the limit is 1)
    # rounded up: 1 − a as −expm1(−ε) (4 ulps; 1 − a cancels at small ε), 2δa within 4½, the numerator's sum ½
    # (under 9u); 1 + a within 4½u; the quotient ½: under 14u, raised 16 ulps; an SD is at most 1
    return np.minimum(_rounding.up((-np.expm1(-eps) + 2 * delta * a) / (1 + a), 16), 1.0)


def pointwise_delta(p, q, eps) -> float:
    """The smallest δ for which p and q are point-wise (ε, δ)-indistinguishable (K&S Definition 3.2):
    the larger of p(Bad) and q(Bad), Bad = {a : p(a) ∉ [e^{−ε} q(a), e^ε q(a)]}."""
    p, q = check_distribution_pair(p, q)
    eps = check_epsilon(eps, "eps", scalar=True)
    # A δ claimed to hold, so rounded up: Bad decided exactly (no tolerance), p(Bad) and q(Bad) summed in rationals
    # and rounded up once
    bad = _exceeds_exp_times(p, q, eps) | _exceeds_exp_times(q, p, eps)
    return max(_rounding.rational_up(sum(map(Fraction, map(float, m[bad])), Fraction(0))) for m in (p, q))


# ---------------------------------------------------------------------------------------------------
# The paper's examples
# ---------------------------------------------------------------------------------------------------


def random_index_mechanism(n: int) -> FiniteMechanism:
    """K&S Remark 1: on x ∈ {0,1}^n pick i uniformly and output (i, x_i).  Any two neighbours are at
    statistical difference 1/n, yet it publishes a record in the clear."""
    n = check_record_count(n, "n", maximum=20)
    databases = list(itertools.product((0, 1), repeat=n))
    outputs = [(i, v) for i in range(1, n + 1) for v in (0, 1)]
    return FiniteMechanism.from_function(databases, outputs, lambda x, o: (x[o[0] - 1] == o[1]) / n)


def smoking_study(n: int, risks=(0.1, 0.6), prior_high: float = 0.5):
    """K&S Example 1 as a small Bayesian model.  n smokers join a study; record j is 1 if participant j
    has lung disease.  The insurer believes smokers' risk θ is ``risks[0]`` or ``risks[1]`` (prior
    ``prior_high`` on the second) and records are i.i.d. given θ.  Alice, a smoker, is *not* in the study.

    Returns ``(databases, belief, alice_risk)``: the databases {0,1}^n, the insurer's belief b over them
    (θ marginalised out) and ``alice_risk[x]`` = Pr[Alice ill | study data x] = E[θ | x].  Her risk after
    a transcript t is Σ_x b̄[x|t] alice_risk[x], because Alice's health is independent of t given x.
    """
    n = check_record_count(n, "n", maximum=20)  # the belief lists all 2^n databases
    risks = np.asarray(check_probability(risks, "risks", open_low=True, open_high=True), dtype=float)
    if risks.shape != (2,):
        raise ValueError(f"risks must be two probabilities, the low and the high risk (got shape {risks.shape})")
    low, high = float(risks[0]), float(risks[1])
    prior_high = check_probability(prior_high, "prior_high", open_low=True, open_high=True, scalar=True)
    databases = list(itertools.product((0, 1), repeat=n))
    k = np.array([sum(d) for d in databases])
    log_lik = np.stack([k * np.log(th) + (n - k) * np.log1p(-th) for th in (low, high)])
    log_joint = log_lik + np.log([1 - prior_high, prior_high])[:, None]
    log_b = np.logaddexp(log_joint[0], log_joint[1])
    post_high = np.exp(log_joint[1] - log_b)
    belief = np.exp(log_b)
    belief /= belief.sum()
    alice_risk = low + (high - low) * post_high
    return databases, belief, alice_risk


def leaky_count(n: int, eps, delta) -> FiniteMechanism:
    """An (ε, δ)-DP count that is not ε-DP: with probability δ publish the whole database, otherwise
    the count plus two-sided geometric noise clamped to [0, n].  Its privacy profile at ε is exactly δ.
    Used to see how the δ of Theorem 2.4 turns into bad transcripts."""
    n = check_record_count(n, "n", maximum=20)
    eps = check_epsilon(eps, "eps", strictly_positive=True, scalar=True)
    delta = check_delta(delta, "delta", scalar=True)
    databases = list(itertools.product((0, 1), repeat=n))
    counts = list(range(n + 1))
    rows = {c: clamped_geometric_pmf(c, eps, 0, n) for c in counts}

    def pmf(x, out):
        if isinstance(out, tuple):
            return delta * (out == x)
        return (1 - delta) * rows[sum(x)][out]

    return FiniteMechanism.from_function(databases, counts + databases, pmf)


@overflow_is_infinity
def paper_gaussian_sigma(eps, delta) -> float:
    """The noise of the proof of Theorem A.2: variance σ² = log(1/δ)/ε² (natural log), σ returned.
    Whether it gives (ε, δ)-DP is checked with :func:`dpsemantics.mechanisms.gaussian_delta`."""
    eps = check_epsilon(eps, "eps", strictly_positive=True, scalar=True)
    delta = check_delta(delta, "delta", open_low=True, open_high=True, scalar=True)
    # rounded up (a σ): log within 4 ulps, the root halves it and adds ½, the quotient ½ (under 3u): 4 ulps
    return float(_rounding.up(np.sqrt(-np.log(delta)) / eps, 4))


@broadcasting(t=as_float, sigma=check_positive)
def dwork_mcsherry_sd(t, sigma):
    """Theorem A.2's counterexample: belief uniform on {0ⁿ, (1, 0ⁿ⁻¹)}, output t = Σx + N(0, σ²).
    Game 1 does not update (both databases become 0ⁿ), so SD(b̄₀, b̄₁) = |Pr[(1,0ⁿ⁻¹) | t] − ½| with
    log-odds (2t − 1)/(2σ²)."""
    # (t − ½)/σ/σ: σ → 0 gives ±inf; t = ±inf gives ±inf at every finite σ (σ² overflowing made it ∞/∞ = NaN)
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        log_odds = (t - 0.5) / sigma / sigma
    # |expit(L) − ½| = ½ tanh(|L|/2) (no cancellation at small L).  Rounded DOWN: Theorem A.2 is a counterexample,
    # and this SD is its witness (how far Game 0's posterior moves while Game 1's stays at ½), so it is never
    # overstated.  |L| is within three roundings (3.01u relative; below the normal range, half a subnormal step
    # more) of the exact one, lowered 4 ulps; the halving is exact in the normal range and tanh is within 4 ulps
    # there (tanh(x) = x below it), the product by ½ exact: lowered 5 ulps.  0 where the exact SD is below the
    # smallest float (a lower bound).
    low = _rounding.down(np.abs(log_odds), 4)
    return np.where(np.isinf(t), 0.5, _rounding.down(0.5 * np.tanh(low / 2), 5))  # t = ±∞: the limit ½, exact


@broadcasting(n=check_positive, sigma=check_positive, eps_prime=check_epsilon)
def dwork_mcsherry_delta(n, sigma, eps_prime):
    """Reality-oblivious δ′ at ε′ for Theorem A.2's counterexample when the real database is 1ⁿ:
    Pr_{t ~ N(n, σ²)}[SD(b̄₀, b̄₁) > ε′] (K&S Definition A.1).  Needs ε′ < ½ (SD never exceeds ½ here)."""
    below = eps_prime < 0.5  # elsewhere SD > ε′ never happens: δ′ = 0, element by element
    # SD > ε′  ⇔  |2t − 1| > 2σ²·2 artanh(2ε′)
    a = np.arctanh(2 * np.where(below, eps_prime, 0.0))
    with np.errstate(invalid="ignore"):  # σ² = ∞ with artanh 0 = 0: the threshold is 0, not NaN
        c = np.where(a == 0, 0.0, 4 * sigma**2 * a)
    hi, lo = (1 + c) / 2, (1 - c) / 2
    # Rounded DOWN: Theorem A.2 is a counterexample, and this δ′ is its witness (how often reality-oblivious
    # privacy fails; the claim ks-a2-counterexample reads it as ≈ 1), so it is never overstated.  The two
    # arguments x = (n − hi)/σ and (lo − n)/σ: artanh within 4 ulps (2ε′ exact), σ² and the product ½ulp each, so c
    # within 10u·c; 1 ± c, the differences with n and the quotient ½ulp each, so |x − x*| ≤ u(n + 1 + 6.5c)/σ + u|x|,
    # below B = 2u(n + 1 + 4c)/σ + 2u|x|.  Φ is increasing: Φ(x − B) ≤ Φ(x*).  scipy's ndtr is ½erfc(−x/√2) for
    # x < 0, whose internal scaling by 1/√2 costs a relative x²·2u (d ln Φ/dx ≤ |x| + 1, Mills' ratio) and erfc a
    # few ulps: each term lowered 8 + 4·min(x, 0)² ulps (for x ≥ 0 the error is absolute, a few ulps of Φ ≥ ½), the
    # sum 1 ulp more.  Terms below the normal range are taken as 0 (a lower bound).
    u = _rounding.UNIT_ROUNDOFF
    with np.errstate(invalid="ignore", over="ignore"):
        terms = []
        for x in ((n - hi) / sigma, (lo - n) / sigma):
            b = 2.0 * u * (n + 1 + 4 * c) / sigma + 2.0 * u * np.abs(x)
            phi = ndtr(x - np.where(np.isinf(x), 0.0, b))  # x = ±∞ is exact (a limit): no ∞ − ∞
            ulps = np.minimum(8.0 + 4.0 * np.minimum(x, 0.0) ** 2, 2.0**40)
            terms.append(np.where(phi < 2.0**-1022, 0.0, _rounding.down(phi, np.where(np.isnan(ulps), 0.0, ulps))))
    return np.where(below, _rounding.down(terms[0] + terms[1], 1), 0.0)


def median_mechanism(n: int, k: int, eps, s: int = 1, *, margin: int = 3) -> FiniteMechanism:
    """Corollary 4.4's local-sensitivity mechanism, discretised: on x ∈ {0..k}^n (n odd) release
    median(x) + Z, Z two-sided geometric with ratio e^{−ε/s} (the discrete Laplace with scale s/ε), clamped
    to [−margin, k + margin].  Where LS_median(x) ≤ s, x and each neighbour are ε-indistinguishable."""
    n = check_positive_int(n, "n")
    if n % 2 == 0:
        raise ValueError(f"n must be odd so that the median is one record (got n={n})")
    k = check_positive_int(k, "k")
    if n > 20 or n * math.log2(k + 1) > 20:  # (k + 1)^n databases, each a row of the table
        raise ValueError(f"n and k must give at most 2**20 databases, (k + 1)**n (got n={n}, k={k})")
    eps = check_epsilon(eps, "eps", strictly_positive=True, scalar=True)
    s = check_positive_int(s, "s", maximum=2**53)  # (ε/s is formed as a float)
    margin = check_positive_int(margin, "margin", minimum=0, maximum=10**6)
    if k + margin > 10**6:  # clamped_geometric_pmf's largest output
        raise ValueError(f"k + margin must be at most 10**6, the largest output (got k={k}, margin={margin})")
    if (k + 1) ** n * (k + 2 * margin + 1) > 2**24:  # the table: a row of k + 2·margin + 1 outputs per database
        raise ValueError(f"n, k and margin must give a table of at most 2**24 entries, (k + 1)**n databases times "
                         f"k + 2*margin + 1 outputs (got n={n}, k={k}, margin={margin})")
    databases = list(itertools.product(range(k + 1), repeat=n))
    outputs = np.arange(-margin, k + margin + 1)
    rows = [clamped_geometric_pmf(int(np.median(x)), eps / s, -margin, k + margin) for x in databases]
    return FiniteMechanism(np.array(rows), databases, [int(o) for o in outputs])


def local_sensitivity(f: Callable, databases: Sequence, domain: Sequence) -> np.ndarray:
    """LS_f(x) = max over neighbours y (one record changed to another value of ``domain``) of
    |f(x) − f(y)| (K&S Definition 4.3), for every database in ``databases`` (tuples of records)."""
    if not callable(f):
        raise ValueError(f"f must be a function of a database (got f={f!r:.60})")
    if not isinstance(databases, Sequence | np.ndarray) or not all(isinstance(x, tuple) for x in databases):
        raise ValueError(f"databases must be a sequence of tuples of records (got databases={databases!r:.60})")
    if not isinstance(domain, Sequence | np.ndarray) or isinstance(domain, str):
        raise ValueError(f"domain must be a sequence of record values (got domain={domain!r:.60})")
    # Rounded up: Corollary 4.4 splits the databases by LS ≤ s, and the bad mass δ₁ = b(LS > s) is a δ that its
    # guarantee adds; a larger LS only moves mass into δ₁.  Each |f(x) − f(y)| of the float values of f is computed
    # exactly in rationals and rounded up once (a float difference is within ½ulp, on either side); the values of
    # f themselves are the caller's.
    def gap(a, b):
        a, b = float(a), float(b)
        if not (math.isfinite(a) and math.isfinite(b)):
            return abs(a - b)
        return _rounding.rational_up(abs(Fraction(a) - Fraction(b)))

    out = np.empty(len(databases))
    for k, x in enumerate(databases):
        fx = f(x)
        best = 0.0
        for i in range(len(x)):
            for v in domain:
                if v != x[i]:
                    best = max(best, gap(fx, f(x[:i] + (v,) + x[i + 1 :])))
        out[k] = best
    return out
