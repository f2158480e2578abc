"""Zhao (2019), *Relations Among Different Privacy Notions*: Bayesian differential privacy (BDP),
Bayesian semantic privacy (BSP), membership privacy (MP) and the function g(b).

Setting.  A database is a tuple ``x = (x_1, …, x_n)`` over a finite domain ``D``; a finite mechanism is a
:class:`~dpsemantics.mechanisms.FiniteMechanism` defined on *every* tuple of ``D^n``; a *prior* (the
correlation model of Yang et al. that BDP is relative to) is a probability distribution over ``D^n``,
given as a dict ``{database: probability}`` or as an array aligned with ``mechanism.databases``.
Records are numbered from 0 in code (from 1 in the paper).

An adversary ``A(i, S)`` knows the records in ``S ⊆ N∖{i}`` and targets record ``i``; the records in
``U = N∖({i}∪S)`` are unknown to it and follow the prior conditionally on what it knows.  Its view of
the mechanism is the *conditional likelihood*

    L(y | x_i, x_S) = Σ_{x_U} π(x_U | x_i, x_S) · P[M(x) = y]          (Zhao, eq. (19) and (9))

* BDP leakage (Zhao, Sec. I; eq. (19)): ``max ln L(y|x_i,x_S) / L(y|x'_i,x_S)`` over adversaries, values with
  positive prior probability and outputs.
* BSP (Zhao, Definition 2): Game 0 uses ``L(y|x_i,x_S)``, Game i uses ``L(y|⊥,x_S)`` — eq. (13) fixes
  ``X_i = ⊥`` and leaves ``X_U`` random, so we read it as the same conditional with ``x_i`` replaced by the
  default value ⊥.  This is the reading under which both halves of the proof of Theorem 1 go through
  (the Game-i likelihood does not depend on ``x_i``; a BDP bound compares it with Game 0).  Points
  ``(x_i, x_S)`` where ``π(⊥, x_S) = 0`` have no Game i and are left out of the beliefs.
  With ``S = N∖{i}`` and a prior of full support BSP is Kasiviswanathan & Smith's semantic privacy
  (Zhao, remark after Definition 2).
* MP (Zhao, Definition 3, after Li et al.): for the family ``D*`` of two-point distributions
  ``P[x_i, x_K] = b``, ``P[x'_i, x_K] = 1 − b``.

The semantic-privacy parameter is computed exactly, not by search: for fixed ``i`` and ``y`` write
``ρ(x) = L₀(y|x)/L_i(y|x)`` for the ratio of the two games' likelihoods.  Over *all* beliefs,

    sup_b SD(b₀[·|y], b_i[·|y]) = tanh(Δ/4),   Δ = max_x ln ρ(x) − min_x ln ρ(x),

attained by a belief on the two extreme points with weight ``1/(1+√R)`` on the larger one, ``R = e^Δ``
(the statistical difference is ``E[(ρ/Eρ − 1)₊]`` under the Game-i posterior; for a fixed mean this is
largest when ρ sits on its two extremes).  The tests check this against explicit Bayes updates for
random beliefs.  Consequences: ε-DP ⇒ tanh(ε/2)-SP, and tanh(ε/4)-SP ⇒ ε-DP, both tight — sharper than
Zhao's Theorems 1–2 (``e^{2ε} − 1`` and ``1/2 − 1/(e^ε+1)``), which they imply.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from dataclasses import dataclass
from functools import partial
from typing import Iterator, Sequence

import numpy as np
from scipy.optimize import brentq

from ._validate import (as_float, check_distribution, check_epsilon, check_positive_int, check_probability,
                        check_instance, check_record_count, check_single_value, refuse_where)
from . import _rounding
from ._rounding import UNIT_ROUNDOFF as _U  # u, the unit round-off
from ._broadcast import broadcasting
from .mechanisms import FiniteMechanism
from .semantic import log_ratio_spread, tilt_statistical_difference

__all__ = [
    "adversaries",
    "independent_prior",
    "markov_chain_prior",
    "copies_prior",
    "uniform_prior",
    "xor_randomized_response",
    "conditional_likelihood",
    "bdp_leakage",
    "bdp_leakage_by_adversary",
    "bayesian_semantic_privacy",
    "semantic_privacy",
    "sup_statistical_difference",
    "zhao_converse_level",
    "ks_converse_level",
    "tight_converse_level",
    "improvement_range_end",
    "membership_g",
    "membership_ratios_direct",
    "membership_privacy_direct",
    "membership_privacy_lemma1",
    "membership_privacy",
    "membership_privacy_of",
    "membership_pairs",
    "theorem4_threshold",
    "scaled_posterior_ratio",
]

#: Kasiviswanathan & Smith, Theorem 2.2: ε/2-SP ⇒ 3ε-DP for ε ≤ 0.45, i.e. ε/6-SP ⇒ ε-DP for ε ≤ 1.35.
KS_CONVERSE_LIMIT = 3 * 0.45


# --------------------------------------------------------------------------------------------------
# The joint model: prior × mechanism on the grid D^n
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Model:
    domain: tuple
    n: int
    prior: np.ndarray  # shape (d,)*n
    lik: np.ndarray  # shape (d,)*n + (K,)


def _grid(mechanism: FiniteMechanism):
    n, domain = check_instance(mechanism, FiniteMechanism, "mechanism").record_domain()
    pos = {v: k for k, v in enumerate(domain)}
    index = [tuple(pos[v] for v in d) for d in mechanism.databases]
    return tuple(domain), n, index


def _prior_vector(mechanism: FiniteMechanism, prior) -> np.ndarray:
    if isinstance(prior, dict):
        unknown = [k for k in prior if k not in set(mechanism.databases)]
        if unknown:
            raise ValueError(f"prior has databases the mechanism does not know (got prior key {unknown[0]!r})")
        vec = np.array([as_float(prior.get(d, 0.0), "prior") for d in mechanism.databases], dtype=float)
    else:
        vec = np.asarray(as_float(prior, "prior"), dtype=float)
        if vec.shape != (len(mechanism.databases),):
            raise ValueError(
                f"prior must have one probability per database ({len(mechanism.databases)}), got shape {vec.shape}"
            )
    return check_distribution(vec, "prior")


def _model(mechanism: FiniteMechanism, prior) -> _Model:
    domain, n, index = _grid(mechanism)
    vec = _prior_vector(mechanism, prior)
    d = len(domain)
    grid_prior = np.zeros((d,) * n)
    grid_lik = np.zeros((d,) * n + (mechanism.matrix.shape[1],))
    for row, idx in enumerate(index):
        grid_prior[idx] = vec[row]
        grid_lik[idx] = mechanism.matrix[row]
    return _Model(domain, n, grid_prior, grid_lik)


def adversaries(n: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every adversary ``A(i, S)`` of Zhao, Sec. I: a target ``i`` and a known set ``S ⊆ N∖{i}`` (0-based)."""
    n = check_record_count(n, "n")  # n·2^(n−1) adversaries; checked on the call, not on the first step
    return ((i, S) for i in range(n) for size in range(n) for S in itertools.combinations(
        [j for j in range(n) if j != i], size))


def _check_adversary(n: int, i, S) -> tuple[int, tuple[int, ...]]:
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < n:
        raise ValueError(f"i must be a record index in 0..{n - 1} (got i={i!r})")
    try:
        indices = tuple(sorted(check_positive_int(j, "S", minimum=0) for j in S))
    except TypeError:  # not a collection of indices
        indices = None
    if indices is None or len(set(indices)) != len(indices) or any(not 0 <= j < n or j == i for j in indices):
        raise ValueError(f"S must be a set of record indices other than i={i} (got S={S!r})")
    return int(i), indices


def _adversary_view(model: _Model, i: int, S: tuple[int, ...]):
    """Mass π(x_i, x_S) with shape (d, d^|S|) and likelihood L(y|x_i, x_S) with shape (d, d^|S|, K)."""
    n, d = model.n, len(model.domain)
    U = [j for j in range(n) if j != i and j not in S]
    order = [i, *S, *U]
    joint = model.prior[..., None] * model.lik
    joint = np.transpose(joint, order + [n]).reshape(d, d ** len(S), d ** len(U), -1).sum(axis=2)
    mass = np.transpose(model.prior, order).reshape(d, d ** len(S), d ** len(U)).sum(axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        lik = np.where(mass[..., None] > 0, joint / np.where(mass > 0, mass, 1.0)[..., None], 0.0)
    return mass, lik


def _likelihood_error(model: _Model, S: tuple[int, ...]) -> float:
    """A bound on the relative error of every likelihood of ``_adversary_view`` for the known set ``S``: each is
    Σ_U π·P / Σ_U π over the N = d^|U| unknown values, N products (u each) summed (N − 1 additions of non-negative
    terms, (N − 1)u), divided (u) by N − 1 additions (u each): (2N + 1)u to first order, taken as (2N + 2)u.
    Products below the normal range (π·P < 2.2e-308) are outside this bound."""
    return (2.0 * len(model.domain) ** (model.n - 1 - len(S)) + 2.0) * _U


def _constant_likelihood(model: _Model, i: int, S: tuple[int, ...], *, masked: bool = True) -> np.ndarray:
    """``(d^|S|, K)`` booleans: P[M(x) = y] is one and the same float for every database x with X_S = x_S (every x
    the prior allows, when ``masked``; every x, when not).  There every conditional likelihood L(y | ·, x_S) of
    every x_i (and of ⊥, and of x_i replaced by ⊥) is exactly that value (a convex combination of equal values),
    so every log ratio of them is exactly 0: the outward step is not taken where the exact answer is 0."""
    n, d = model.n, len(model.domain)
    U = [j for j in range(n) if j != i and j not in S]
    order = [i, *S, *U]
    lik = np.transpose(model.lik, order + [n]).reshape(d, d ** len(S), d ** len(U), -1)
    pos = (np.transpose(model.prior, order).reshape(d, d ** len(S), d ** len(U)) > 0)[..., None] if masked else True
    return np.where(pos, lik, -np.inf).max(axis=(0, 2)) == np.where(pos, lik, np.inf).min(axis=(0, 2))


def _spread_error(hi, lo, spread, rel):
    """A bound on |computed − exact| of ln(hi/lo) = ln hi − ln lo (``spread``), for positive likelihoods each
    within ``rel`` relative of exact: each log within 4 ulps (8u|ln|), the difference within ½ ulp (u·spread), and
    the inputs' errors move ln(hi/lo) by at most 2·rel·1.01; the whole times 1.01 for its own evaluation."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1.01 * (8.0 * _U * (np.abs(np.log(hi)) + np.abs(np.log(lo))) + _U * spread + 2.02 * rel)


def conditional_likelihood(mechanism: FiniteMechanism, prior, i: int, S: Sequence[int], x_i,
                           x_S: Sequence) -> np.ndarray:
    """``P[Y = · | X_i = x_i, X_S = x_S]`` with the unknown records drawn from the prior (Zhao, eq. (19)).

    Raises ``ValueError`` (naming ``prior``) when the conditioning event has prior probability zero.
    """
    model = _model(mechanism, prior)
    i, S = _check_adversary(model.n, i, S)
    if isinstance(x_S, (str, bytes)) or not isinstance(x_S, Sequence | np.ndarray) or len(x_S) != len(S):
        raise ValueError(f"x_S must give one value per index in S={S} (got x_S={x_S!r})")
    for name, v in (("x_i", x_i), *(("x_S", v) for v in x_S)):
        if check_single_value(v, name) not in model.domain:
            raise ValueError(f"{name} must hold values of the record domain {model.domain} (got {name}={v!r})")
    mass, lik = _adversary_view(model, i, S)
    d = len(model.domain)
    col = 0
    for v in x_S:
        col = col * d + model.domain.index(v)
    row = model.domain.index(x_i)
    if mass[row, col] <= 0:
        raise ValueError(f"prior gives probability 0 to X_{i}={x_i!r}, X_S={x_S!r}; the likelihood is undefined")
    return lik[row, col].copy()


# --------------------------------------------------------------------------------------------------
# Priors and example mechanisms
# --------------------------------------------------------------------------------------------------


def independent_prior(n: int, p=0.5) -> dict:
    """Independent records in {0,1}: each is 1 with probability ``p``."""
    n = check_record_count(n, "n", maximum=20)
    p = check_probability(p, "p", scalar=True)
    return {x: float(np.prod([p if v else 1 - p for v in x])) for x in itertools.product((0, 1), repeat=n)}


def markov_chain_prior(n: int, stay, p0=0.5) -> dict:
    """Records in {0,1} forming a Markov chain: ``X_0 ~ Bernoulli(p0)``, each next record copies the
    previous one with probability ``stay`` and flips otherwise (``stay = 1/2``: independent uniform bits;
    ``stay = 1``: all records are copies)."""
    n = check_record_count(n, "n", maximum=20)
    stay = check_probability(stay, "stay", scalar=True)
    p0 = check_probability(p0, "p0", scalar=True)
    out = {}
    for x in itertools.product((0, 1), repeat=n):
        pr = p0 if x[0] else 1 - p0
        for a, b in zip(x, x[1:]):
            pr *= stay if a == b else 1 - stay
        out[x] = float(pr)
    return out


def copies_prior(n: int, p=0.5) -> dict:
    """All ``n`` records are copies of one bit that is 1 with probability ``p`` (perfect correlation)."""
    n = check_record_count(n, "n", maximum=20)
    p = check_probability(p, "p", scalar=True)
    return {x: (p if all(x) else (1 - p if not any(x) else 0.0)) for x in itertools.product((0, 1), repeat=n)}


def uniform_prior(mechanism: FiniteMechanism) -> np.ndarray:
    """The uniform prior over the mechanism's databases (full support)."""
    k = len(check_instance(mechanism, FiniteMechanism, "mechanism").databases)
    return np.full(k, 1.0 / k)


def xor_randomized_response(eps) -> FiniteMechanism:
    """ε-randomized response applied to ``x_0 XOR x_1`` on two bits: ε-DP, and its semantic-privacy
    parameter reaches tanh(ε/2) — record 0 pushes the output one way or the other depending on record 1."""
    eps = check_epsilon(eps, "eps", scalar=True)
    keep = 1.0 / (1.0 + math.exp(-eps))
    dbs = list(itertools.product((0, 1), repeat=2))
    return FiniteMechanism.from_function(dbs, [0, 1], lambda x, y: keep if (x[0] ^ x[1]) == y else 1 - keep)


# --------------------------------------------------------------------------------------------------
# Bayesian differential privacy
# --------------------------------------------------------------------------------------------------


def _leakage(model: _Model, i: int, S: tuple[int, ...]) -> float:
    """The BDP leakage of the adversary A(i, S), rounded up: each spread ln max − ln min of the likelihoods of one
    output raised by ``_spread_error`` (the likelihoods within ``_likelihood_error``) and 2 ulps for the
    sum, except where the mechanism's probability of the output is constant over the known values
    (``_constant_likelihood``: exactly 0)."""
    mass, lik = _adversary_view(model, i, S)
    rel = _likelihood_error(model, S)
    constant = _constant_likelihood(model, i, S)
    worst = 0.0
    for col in range(mass.shape[1]):
        rows = mass[:, col] > 0
        if rows.sum() < 2:
            continue
        values = lik[rows, col, :]
        spread = np.asarray(log_ratio_spread(values, axis=0), dtype=float)
        hi, lo = values.max(axis=0), values.min(axis=0)
        raised = np.where((hi > 0) & (lo > 0), spread + _spread_error(hi, lo, spread, rel), spread)
        raised = np.where(constant[col], 0.0, _rounding.up(raised, 2))
        worst = max(worst, float(np.max(raised)))
    return worst


def bdp_leakage_by_adversary(mechanism: FiniteMechanism, prior) -> dict:
    """``{(i, S): BDPL}`` for every adversary ``A(i, S)`` (Zhao, Sec. I, after Yang et al.), each rounded up as in
    :func:`bdp_leakage`."""
    model = _model(mechanism, prior)
    return {(i, S): _leakage(model, i, S) for i, S in adversaries(model.n)}


def bdp_leakage(mechanism: FiniteMechanism, prior, *, i=None, S=None) -> float:
    """Bayesian differential privacy leakage (Zhao, Sec. I and eq. (19)): the smallest ε for which the
    mechanism is ε-BDP under ``prior``; of one adversary ``A(i, S)`` when ``i`` and ``S`` are given.
    Outputs and values that the prior rules out are skipped; ``inf`` when no finite ε works.

    An ε that is claimed to hold, so rounded up: never below the exact leakage of the float inputs (each log ratio
    raised by the error of the conditional sums, the logs and their difference), and exactly 0 only where the
    mechanism's output probabilities do not depend on the unknown and target records."""
    model = _model(mechanism, prior)
    if i is None and S is None:
        return max(_leakage(model, a, b) for a, b in adversaries(model.n))
    if i is None or S is None:
        raise ValueError(f"give both i and S, or neither (got i={i!r}, S={S!r})")
    i, S = _check_adversary(model.n, i, S)
    return _leakage(model, i, S)


# --------------------------------------------------------------------------------------------------
# Bayesian semantic privacy and semantic privacy
# --------------------------------------------------------------------------------------------------


def sup_statistical_difference(game0, game_i) -> float:
    """``sup`` over beliefs of SD(b₀[·|y], b_i[·|y]) for one transcript ``y``, given the two games'
    likelihoods ``game0[x] = P[y | x]`` and ``game_i[x] = P[y | x in Game i]`` on the belief's possible
    points ``x``: ``tanh(Δ/4)`` with Δ the spread of ``ln(game0/game_i)`` (module docstring).

    As in :mod:`dpsemantics.semantic`: a transcript possible in Game 0 but impossible in Game i for some
    point counts as a complete breach (SD = 1); one that Game 0 never produces imposes nothing.

    The δ of a semantic-privacy guarantee, so rounded up: Δ raised by the error of the two ratios (u each), the
    logs (4 ulps each) and their difference, tanh raised 4 ulps; exactly 0 only where every ratio is the same
    rational (checked exactly)."""
    a = np.asarray(as_float(game0, "game0"), dtype=float).ravel()
    c = np.asarray(as_float(game_i, "game_i"), dtype=float).ravel()
    if a.shape != c.shape:
        raise ValueError(f"game0 and game_i must have the same length (got {a.size} and {c.size})")
    if np.any(a < 0) or np.any(c < 0):
        raise ValueError("game0 and game_i must be probabilities (>= 0)")
    return _sup_sd(a, c, 0.0, None)


def _sup_sd(a: np.ndarray, c: np.ndarray, rel: float, exactly_zero) -> float:
    """:func:`sup_statistical_difference` for likelihoods each within ``rel`` relative of the exact ones, rounded up.
    ``exactly_zero``: whether the exact Δ is known to be 0 (``None``: decide it from ``a`` and ``c``, which are then
    the exact inputs, in rational arithmetic when the float ratios all agree)."""
    if np.any((a > 0) & (c == 0)):
        return 1.0  # y proves record i was used (the convention of dpsemantics.semantic)
    if not np.any((a > 0) & (c > 0)):
        return 0.0  # y never happens in Game 0: nothing to observe
    # the spread of ln(game0/game_i) over the points where game_i > 0 (a zero ratio there: a breach, Δ = ∞)
    seen = c > 0
    ratios = a[seen] / c[seen]
    spread = float(log_ratio_spread(ratios))
    if not math.isfinite(spread):
        return 1.0
    hi, lo = float(ratios.max()), float(ratios.min())
    if exactly_zero:
        return 0.0
    if hi == lo:
        if exactly_zero is None:
            a0, c0 = Fraction(float(a[seen][0])), Fraction(float(c[seen][0]))
            exactly_zero = all(Fraction(float(x)) * c0 == a0 * Fraction(float(y)) for x, y in zip(a[seen], c[seen]))
        if exactly_zero:
            return 0.0
    # each ratio within u (the division) and 2·rel (its two likelihoods) of the exact one
    raised = _rounding.up(spread + float(_spread_error(hi, lo, spread, 2.0 * rel + _U)), 2)
    return min(1.0, float(_rounding.up(float(tilt_statistical_difference(raised)), 4)))


def _domain_index(model: _Model, default) -> int:
    if check_single_value(default, "default") not in model.domain:
        raise ValueError(f"default must be a value of the domain {model.domain} (got default={default!r})")
    return model.domain.index(default)


def _bsp_one(model: _Model, i: int, S: tuple, bot: int, reading: str = "condition") -> float:
    """The BSP level of the adversary A(i, S) (the max over outputs of ``_sup_sd``), rounded up: both games'
    likelihoods within ``_likelihood_error`` (Game i's on the replaced model has the same N unknown values),
    and exactly 0 for an output whose probability is constant over the databases involved."""
    mass, lik = _adversary_view(model, i, S)
    rel = _likelihood_error(model, S)
    if reading == "replace":
        # Game i: the unknown records follow the prior given the TRUE x_i; only record i is replaced by ⊥.
        replaced = np.take(model.lik, np.full(len(model.domain), bot), axis=i)
        _, lik_i = _adversary_view(_Model(model.domain, model.n, model.prior, replaced), i, S)
        rows, cols = np.nonzero(mass > 0)
        g0, gi = lik[rows, cols, :], lik_i[rows, cols, :]
        constant = _constant_likelihood(model, i, S, masked=False)  # the replaced databases too
    else:
        cols = np.flatnonzero(mass[bot] > 0)
        if cols.size == 0:
            return 0.0
        g0, gi = [], []
        for col in cols:
            rows = np.flatnonzero(mass[:, col] > 0)
            g0.append(lik[rows, col, :])
            gi.append(np.broadcast_to(lik[bot, col, :], (rows.size, lik.shape[-1])))
        g0 = np.concatenate(g0)
        gi = np.concatenate(gi)
        constant = _constant_likelihood(model, i, S)
    zero = constant[np.unique(cols)].all(axis=0)  # per output: constant at every known value involved
    return max(_sup_sd(g0[:, y], gi[:, y], rel, bool(zero[y])) for y in range(lik.shape[-1]))


def bayesian_semantic_privacy(mechanism: FiniteMechanism, prior, default, *, i=None, S=None,
                              reading: str = "condition") -> float:
    """The smallest δ for which the mechanism is δ-Bayesian-semantically private (Zhao, Definition 2),
    exactly (sup over beliefs in closed form).  Of one adversary ``A(i, S)`` when ``i`` and ``S`` are given;
    ``default`` is the value ⊥.

    ``reading`` chooses what Game i (eq. (13)) runs on:

    * ``"condition"`` (default; the reading under which Theorem 1's proof works): the unknown records follow
      the prior given ``X_i = ⊥`` and ``X_S = x_S`` — the likelihood is ``L(y | ⊥, x_S)``;
    * ``"replace"``: the unknown records follow the prior given the true ``(x_i, x_S)``, and only record i is
      then replaced by ⊥ before the mechanism runs ("i's record is not used", as in K&S's Game i).

    The δ of a guarantee, so rounded up: never below the exact value of the float inputs (the likelihoods' and
    the logs' errors added to each spread, tanh raised), and 0 only where it is exactly 0.
    """
    if reading not in ("condition", "replace"):
        raise ValueError(f"reading must be 'condition' or 'replace' (got reading={reading!r})")
    model = _model(mechanism, prior)
    bot = _domain_index(model, default)
    if i is None and S is None:
        return max(_bsp_one(model, a, b, bot, reading) for a, b in adversaries(model.n))
    if i is None or S is None:
        raise ValueError(f"give both i and S, or neither (got i={i!r}, S={S!r})")
    i, S = _check_adversary(model.n, i, S)
    return _bsp_one(model, i, S, bot, reading)


def semantic_privacy(mechanism: FiniteMechanism, default) -> float:
    """Kasiviswanathan & Smith's semantic-privacy parameter (their Definition 2.1; Zhao, Definition 1), rounded
    up: Bayesian semantic privacy with ``S = N∖{i}`` and the uniform (full-support) prior, which reduces to it
    (Zhao, remark after Definition 2), maximised over the targets i.  The tests compare it with
    :func:`dpsemantics.semantic.semantic_epsilon`, K&S's definition evaluated directly."""
    model = _model(mechanism, uniform_prior(mechanism))
    bot = _domain_index(model, default)
    return max(_bsp_one(model, i, tuple(j for j in range(model.n) if j != i), bot) for i in range(model.n))


# --------------------------------------------------------------------------------------------------
# The parameter transformations of Theorems 1 and 2
# --------------------------------------------------------------------------------------------------




@broadcasting(eps=partial(check_epsilon, allow_inf=True))
def zhao_converse_level(eps):
    """Zhao, Theorems 1 and 2 (second halves): (1/2 − 1/(e^ε + 1))-(B)SP ⇒ ε-(B)DP.

    Computed as tanh(ε/2)/2, which equals 1/2 − 1/(e^ε + 1); the largest level, so rounded down (tanh within 4
    ulps, the halvings exact)."""
    return _rounding.down(np.tanh(eps / 2) / 2, 4)


@broadcasting(eps=check_epsilon)
def ks_converse_level(eps):
    """Kasiviswanathan & Smith, Theorem 2.2 in Zhao's parametrisation: ε/6-SP ⇒ ε-DP, valid for ε ≤ 1.35."""
    refuse_where(eps > KS_CONVERSE_LIMIT + 1e-12, "eps must be <= 1.35 for Kasiviswanathan & Smith's converse",
                 eps=eps)
    return _rounding.down(eps / 6, 1)  # the largest level: one quotient (½ ulp), lowered 1


@broadcasting(eps=partial(check_epsilon, allow_inf=True))
def tight_converse_level(eps):
    """The largest δ for which δ-(B)SP ⇒ ε-(B)DP: tanh(ε/4) (our sharpening; attained by randomized
    response on one record whose default value is one of its two values).  Rounded down (tanh within 4 ulps)."""
    return _rounding.down(np.tanh(eps / 4), 4)



def improvement_range_end() -> float:
    """The ε > 0 where Zhao's level 1/2 − 1/(e^ε+1) falls back to K&S's ε/6 (it exceeds ε/6 exactly on
    (0, this value)); the root of tanh(ε/2)/2 = ε/6."""
    return float(brentq(lambda e: math.tanh(e / 2) / 2 - e / 6, 1.0, 6.0, xtol=1e-15, rtol=1e-15))


# --------------------------------------------------------------------------------------------------
# Membership privacy (Zhao, Sec. III-B)
# --------------------------------------------------------------------------------------------------


@broadcasting(b=check_probability, eps=check_epsilon)
def membership_g(b, eps):
    """Zhao, eq. (26): ``g(b) = (1 − b)/(e^{−ε} − b)`` for ``b ≤ 1/(1 + e^ε)`` and ``(e^ε − 1 + b)/b`` above.

    By Lemma 1, ⟨D, ε⟩-MP holds iff ``P[Y|x_i]/P[Y|x̄_i] ≤ g(P_D[x_i])`` for every event and D: g is the largest
    ratio ε allows, so it is rounded **down**.  The first branch is below the second for b < 1/(1 + e^ε) and above
    it beyond (they meet at e^{2ε}), so g = min(first, second) wherever the first is defined (b e^ε < 1): the
    branch is never chosen by a rounded comparison.  First branch, in logs, log(1 − b) + ε − log(1 − b e^ε):
    log1p within 4 ulps (8u) of its value, log b within 8u|log b| and ε added (u|log b + ε|), exp within 8u,
    so x = b e^ε within r = 9u + 8u|log b| + u|log b + ε| relative, which moves log(1 − x) by at most
    r·x/(1 − x(1 + 2r)); each of the three roundings of the sum (and the lowering) u of its size; lowered by
    that before the exp, and the exp by 10 ulps.  Where x(1 ± 2r) straddles 1 (b within about r of e^{−ε},
    where g is ill-conditioned) the first branch is replaced by e^ε, lowered 10 ulps, a lower bound of both
    branches.  Second branch 1 + expm1(ε)/b: expm1 within 8u, the quotient u, the sum u: lowered 12 ulps.
    Beyond the float range: the largest float."""
    big = np.finfo(float).max
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        log_b = np.log(np.where(b > 0, b, 1.0))
        arg = np.where(b > 0, log_b + eps, -np.inf)
        x = np.exp(arg)  # b e^ε
        r = 9.0 * _U + 8.0 * _U * np.abs(log_b) + _U * np.abs(np.where(b > 0, arg, 0.0))
        below = x * (1.0 + 2.0 * r) < 1.0  # b e^ε < 1 for certain
        above = x * (1.0 - 2.0 * r) >= 1.0  # b e^ε ≥ 1 for certain: the first branch is not defined
        xs = np.where(below, x, 0.0)
        part = [np.log1p(-b), eps, -np.log1p(-xs)]
        log_first = part[0] + part[1] + part[2]
        err = 1.01 * (8.0 * _U * (np.abs(part[0]) + np.abs(part[2]))
                      + np.where(xs > 0, r * xs / (1.0 - xs * (1.0 + 2.0 * r)), 0.0)
                      + 3.0 * _U * (np.abs(part[0]) + eps + np.abs(part[2])))
        floor = np.minimum(_rounding.down(np.exp(eps), 10), big)  # g ≥ e^ε on both branches
        first = np.where(below, _rounding.down(np.exp(log_first - err), 10), np.where(above, np.inf, floor))
        second = _rounding.down(1 + np.expm1(eps) / np.where(b > 0, b, 1.0), 12)
        second = np.where(b > 0, second, np.inf)
        out = np.where(eps == 0, 1.0, np.minimum(first, second))  # g = 1 exactly at ε = 0
    return np.minimum(out, big)


def membership_ratios_direct(p_in, p_out, b) -> tuple[float, float]:
    """The two sides of Definition 3 (Zhao; Li et al.'s positive MP) for the two-point distribution with
    ``P[x_i] = b``, maximised over **all events** Y of the output (enumerated): ``(max ln(P[x_i|Y]/b),
    max ln((1 − b)/P[x̄_i|Y]))`` — conditions (21) and (22).  ``p_in``/``p_out`` are the output
    distributions given ``x_i`` and given ``x̄_i``.  A direct computation, used to check Lemma 1.

    Each side is an ε that must hold, so rounded up (the error analysis is :func:`membership_privacy_of`'s)."""
    p_in = check_distribution(p_in, "p_in")
    p_out = check_distribution(p_out, "p_out")
    if p_in.shape != p_out.shape:
        raise ValueError(f"p_in and p_out must have the same length (got {p_in.size} and {p_out.size})")
    b = check_probability(b, "b", open_low=True, open_high=True, scalar=True)
    k = p_in.size
    if k > 16:
        raise ValueError(f"p_in has too many outputs to enumerate all events (got {k} > 16)")
    up, down = _mp_sides(p_in, p_out, np.array([float(b)]))
    return float(up[0]), float(down[0])


def membership_privacy_direct(p_in, p_out, b) -> float:
    """Smallest ε ≥ 0 for which Definition 3 holds for the two-point distribution with ``P[x_i] = b``:
    the larger of the two sides of :func:`membership_ratios_direct` (each rounded up)."""
    return max(*membership_ratios_direct(p_in, p_out, b), 0.0)


def membership_privacy_lemma1(ratio, b) -> float:
    """Smallest ε with ``ratio ≤ g_ε(b)`` (Zhao, Lemma 1), by bisection in ε (g_ε(b) increases with ε).

    ``ratio`` is the largest likelihood ratio ``P[Y|x_i]/P[Y|x̄_i]`` over events; ``inf`` gives ``inf``."""
    ratio = as_float(ratio, "ratio", scalar=True)
    if ratio < 0:
        raise ValueError(f"ratio must be >= 0 (got ratio={ratio!r})")
    b = check_probability(b, "b", open_low=True, open_high=True, scalar=True)
    if math.isinf(ratio):
        return math.inf
    if ratio <= 1.0:
        return 0.0
    top = math.log(ratio)  # g_ε(b) ≥ e^ε, so ε = ln(ratio) always suffices
    f = lambda e: math.log(membership_g(b, e)) - math.log(ratio)  # noqa: E731
    if f(top) <= 0:
        return float(_rounding.up(top, 2))  # math.log within 1 ulp
    # The ε returned is one a guarantee rests on: never below the exact root.  Brent's root is within
    # 1e-14(1 + ε) of the root of the float f; f is within 32u(1 + ε + ln ratio) of the exact one (g's exp, log1p
    # and divisions, then two logs), and the exact f rises with slope at least 1 in ε (d log g/dε ≥ 1 on both
    # branches of eq. (26)), so its root is within that much of the float f's.
    root = float(brentq(f, 0.0, top, xtol=1e-14, rtol=1e-14))
    return float(_rounding.up(root + 2e-14 * (1.0 + root) + 32.0 * _rounding.UNIT_ROUNDOFF * (1.0 + root + top), 2))


def membership_privacy(mechanism: FiniteMechanism, prior, b) -> float:
    """⟨D*, ε⟩-membership privacy parameter of the mechanism for the family D* of Zhao, Sec. III-B
    restricted to two-point distributions with ``P[x_i, x_K] = b``: via Lemma 1 with the worst likelihood
    ratio, which is ``e^{BDP leakage}``.  As b → 0 it tends to the BDP leakage (Theorems 3 and 4).  Rounded up:
    the leakage and its exponential rounded up, and Lemma 1's ε never below the exact one for that ratio."""
    b = check_probability(b, "b", open_low=True, open_high=True)
    leak = bdp_leakage(mechanism, prior)  # rounded up, and 0 only where exactly 0
    # the worst ratio e^{leak} rounded up (Lemma 1's ε increases with it), 1 exactly where the leakage is 0
    ratio = 1.0 if leak == 0.0 else (float(_rounding.exp_up(leak)) if leak < 700 else math.inf)
    return membership_privacy_lemma1(ratio, b)


def membership_pairs(mechanism: FiniteMechanism, prior) -> list[tuple[tuple, np.ndarray, np.ndarray]]:
    """The two-point distributions of Zhao's family D* (Sec. III-B) that a mechanism and a prior give:
    one entry ``((i, K, x_K, x_i, x'_i), P[Y|x_i, x_K], P[Y|x'_i, x_K])`` per adversary ``(i, K)``, known values
    ``x_K`` and ordered pair of values ``x_i ≠ x'_i`` that the prior allows (eqs. (24)–(25): the records outside
    ``{i} ∪ K`` follow the prior).  Membership privacy of D* compares exactly these two output distributions."""
    model = _model(mechanism, prior)
    d = len(model.domain)
    out = []
    for i, K in adversaries(model.n):
        mass, lik = _adversary_view(model, i, K)
        for col in range(mass.shape[1]):
            rows = np.flatnonzero(mass[:, col] > 0)
            x_K = tuple(model.domain[(col // d ** (len(K) - 1 - j)) % d] for j in range(len(K)))
            for a in rows:
                for c in rows:
                    if a != c:
                        out.append(((i, K, x_K, model.domain[a], model.domain[c]), lik[a, col].copy(),
                                    lik[c, col].copy()))
    return out


def _events(k: int) -> np.ndarray:
    return ((np.arange(1, 2**k)[:, None] >> np.arange(k)) & 1).astype(float)


def _mp_sides(p_in: np.ndarray, p_out: np.ndarray, bs: np.ndarray, rel: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Conditions (21) and (22) of Definition 3 over all events, for every b at once (ratio form, no cancellation at
    tiny b): max ln(P[Y|x_i]/P_D[Y]) and max ln(P_D[Y]/P[Y|x̄_i]) per b, each rounded up, −∞ where no event counts.

    ``rel`` bounds the relative error of each mass of ``p_in`` and ``p_out`` (0 for exact inputs).  P[Y|·] is a sum
    of at most k of them (k outputs; within rel + (k − 1)u), P_D[Y] = b·a_in + (1 − b)·a_out within rel + (k + 2)u
    (1 − b, two products and a sum, u each), and below the normal range a sum of products keeps absolute accuracy
    only (5e-324 more, relative to it).  Each log within 4 ulps, the difference ½ ulp: a log ratio is raised by
    1.01·(8u(|ln num| + |ln den|) + u|value| + 1.01·(the two relative errors)), the maximum by 2 ulps.  Rows
    p_in = p_out given exactly (``rel`` = 0) give exactly 0 for every event (both sides)."""
    ev = _events(p_in.size)
    k = p_in.size
    a_in, a_out = ev @ p_in, ev @ p_out
    bs = np.asarray(bs, dtype=float)[:, None]
    total = bs * a_in + (1 - bs) * a_out  # P_D[Y] per b and event
    with np.errstate(divide="ignore", invalid="ignore"):
        rel_sum = (k - 1.0) * _U + rel
        rel_total = (k + 2.0) * _U + rel + np.where(total < 2.3e-308, 5e-324 / np.where(total > 0, total, 1.0), 0.0)
        l_in, l_out = np.log(np.where(a_in > 0, a_in, 1.0)), np.log(np.where(a_out > 0, a_out, 1.0))
        l_total = np.log(np.where(total > 0, total, 1.0))
        up = l_in - l_total
        down = l_total - l_out
        up = up + 1.01 * (8.0 * _U * (np.abs(l_in) + np.abs(l_total)) + _U * np.abs(up) + 1.01 * (rel_sum + rel_total))
        down = down + 1.01 * (8.0 * _U * (np.abs(l_out) + np.abs(l_total)) + _U * np.abs(down)
                              + 1.01 * (rel_sum + rel_total))
        up = np.where((total > 0) & (a_in > 0), up, -np.inf)
        down = np.where(total > 0, np.where(a_out > 0, down, np.inf), -np.inf)
    if rel == 0.0 and np.array_equal(p_in, p_out):
        up, down = np.where(np.isfinite(up), 0.0, up), np.where(np.isfinite(down), 0.0, down)
        return up.max(axis=1), down.max(axis=1)
    return _rounding.up(up.max(axis=1), 2), _rounding.up(down.max(axis=1), 2)


def _mp_direct_many(p_in: np.ndarray, p_out: np.ndarray, bs: np.ndarray, rel: float = 0.0) -> np.ndarray:
    """Definition 3 over all events for every b at once, rounded up (``_mp_sides``)."""
    up, down = _mp_sides(p_in, p_out, bs, rel)
    return np.maximum(np.maximum(up, down), 0.0)


@broadcasting(b=partial(check_probability, open_low=True, open_high=True))
def membership_privacy_of(mechanism: FiniteMechanism, prior, b) -> np.ndarray | float:
    """The smallest ε for which the mechanism is ⟨D*_b, ε⟩-membership private, computed **directly from
    Definition 3** (conditions (21) and (22), every event of the output enumerated) over every two-point
    distribution of :func:`membership_pairs` with ``P[x_i, x_K] = b`` (Zhao, Sec. III-B).  ``b`` may be an
    array (one result per b).  Independent of Lemma 1 and of the BDP leakage: Theorems 3 and 4 compare the two.
    Rounded up (``_mp_sides`` gives the error analysis, with the conditional likelihoods' error): the ε claimed for
    the mechanism; exactly 0 where the mechanism's output does not depend on the target and unknown records.
    """
    model = _model(mechanism, prior)
    worst = np.zeros(b.size)
    for i, K in adversaries(model.n):  # the pairs of membership_pairs, with their likelihoods' error
        mass, lik = _adversary_view(model, i, K)
        rel = _likelihood_error(model, K)
        constant = _constant_likelihood(model, i, K)
        for col in range(mass.shape[1]):
            if constant[col].all():
                continue  # every pair's two rows are exactly equal: 0
            rows = np.flatnonzero(mass[:, col] > 0)
            for a, c in itertools.permutations(rows, 2):
                worst = np.maximum(worst, _mp_direct_many(lik[a, col], lik[c, col], b.ravel(), rel))
    return worst.reshape(b.shape)


@broadcasting(alpha=as_float, q=check_probability)
def scaled_posterior_ratio(alpha, q):
    """Zhao, eq. (39): ``P[x_i|Y]/P[x_i] = α/(αq + 1 − q)`` under a distribution scaled to ``P[x_i] = q``.

    The proof of Theorem 4 shows membership privacy fails by this ratio exceeding e^ε, so it is rounded **down**
    (a violation it shows is one the exact ratio shows too): αq, 1 − q, their sum and the quotient are within u
    each (the sum of two non-negative terms), so 4u relative: lowered 5 ulps."""
    refuse_where((alpha < 1) | np.isinf(alpha), "alpha must be finite and >= 1", alpha=alpha)
    return _rounding.down(alpha / (alpha * q + 1 - q), 5)


def theorem4_threshold(alpha, eps) -> float:
    """Zhao, proof of Theorem 4: eq. (39) exceeds e^ε once ``q < (α − e^ε)/(e^ε(α − 1))`` (needs α > e^ε).

    The proof's claim holds for every q below the value returned, so it is rounded **down**: computed as
    expm1(ln α − ε)/(α − 1) (= (α e^{−ε} − 1)/(α − 1), no cancellation in the numerator), where ln α − ε is
    within d = 8u ln α + 2u|ln α − ε| (log 4 ulps, the difference and the lowering ½ ulp each) and expm1 within
    8u: the numerator is lowered to expm1(x − d)·(1 − 10u), α − 1 is within u and the quotient within u:
    lowered 3 ulps more.  0 where the error can exceed the numerator (α within about 10⁻¹³ relative of e^ε);
    for α = ∞, e^{−ε} lowered 10 ulps."""
    eps = check_epsilon(eps, "eps", scalar=True)
    alpha = as_float(alpha, "alpha", scalar=True)
    # α > e^ε compared as log α > ε: e^ε overflows past ε ≈ 709 while the comparison is still defined
    if not (alpha > 0 and math.log(alpha) > eps):
        bound = f"e^eps = {math.exp(eps)!r}" if eps < 709 else f"e^eps (eps={eps!r})"
        raise ValueError(f"alpha must exceed {bound} (got alpha={alpha!r})")
    if math.isinf(alpha):
        return float(_rounding.down(math.exp(-eps), 10))
    x = math.log(alpha) - eps
    x_low = x - 1.01 * (8.0 * _U * math.log(alpha) + 2.0 * _U * abs(x))
    if x_low <= 0.0:
        return 0.0
    numerator = float(_rounding.down(math.expm1(x_low), 10))
    return float(_rounding.down(numerator / (alpha - 1), 3))
