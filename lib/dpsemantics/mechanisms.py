"""Mechanisms with exactly known output distributions and privacy profiles.

* :class:`FiniteMechanism` — a finite mechanism as a row-stochastic matrix (one row per database, one
  column per output), with the adjacency of Lecture 1, Definition 3.1 (databases that differ in one
  record).  Every chapter's exhaustive checks run on these.
* Randomized response, the two-sided geometric count, the Laplace and the Gaussian mechanism: their
  exact privacy profiles δ(ε) (the smallest δ for which they are (ε, δ)-DP).  Their privacy-loss random
  variables ``L = log(P(y)/Q(y))``, ``y ~ P`` (Kazan et al., Definition 2.2) are
  :class:`~dpsemantics.privacy_loss.PrivacyLoss` laws, built on these profiles.

The profiles satisfy δ(ε) = E[(1 − e^{ε − L})₊] for the privacy loss L; the tests check that identity
by numerical integration, independently of the closed forms below.

Closed forms: randomized response, δ(ε) = (e^{ε₀} − e^ε)₊/(1 + e^{ε₀}); Laplace with scale Δ/ε₀,
δ(ε) = (1 − e^{(ε − ε₀)/2})₊; Gaussian with noise σ and sensitivity Δ (Balle & Wang 2018, Thm 8),
δ(ε) = Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Callable, Hashable, Sequence

import mpmath
import numpy as np
from scipy.special import erf, erfcx, expit, log_ndtr, ndtr, ndtri

from . import _rounding
from ._rounding import UNIT_ROUNDOFF as _U  # u, the unit round-off
from ._validate import (ParameterError, as_float, as_output, broadcast, check_delta, check_epsilon, check_positive,
                        check_positive_int, check_row_stochastic, check_record_count)
from .indistinguishability import _exp_times, _pair_hockey

__all__ = [
    "FiniteMechanism",
    "hamming_adjacent",
    "randomized_response",
    "local_randomized_response",
    "geometric_count",
    "two_sided_geometric_pmf",
    "laplace_density",
    "gaussian_density",
    "randomized_response_delta",
    "laplace_delta",
    "gaussian_delta",
    "gaussian_log_delta",
    "gaussian_sigma",
    "gaussian_epsilon",
    "name_and_shame",
    "name_and_shame_exposure",
]


def hamming_adjacent(x, y) -> bool:
    """Lecture 1, Definition 3.1: tuples of equal length that differ in exactly one position."""
    for name, db in (("x", x), ("y", y)):
        if not isinstance(db, tuple):
            raise ValueError(f"{name} must be a database, a tuple of records (got {name}={db!r:.60})")
    if len(x) != len(y):
        return False
    return sum(a != b for a, b in zip(x, y)) == 1


@dataclass
class FiniteMechanism:
    """A mechanism on finitely many databases with finitely many outputs.

    ``matrix[i, j]`` is Pr[M(databases[i]) = outputs[j]].  ``adjacent(x, y)`` decides adjacency; the
    default is :func:`hamming_adjacent` for tuple databases and "any two distinct inputs" otherwise.
    """

    matrix: np.ndarray
    databases: list = field(default=None)
    outputs: list = field(default=None)
    adjacent: Callable[[Hashable, Hashable], bool] = field(default=None, repr=False)

    def __post_init__(self):
        self.matrix = check_row_stochastic(self.matrix, "matrix")
        n_db, n_out = self.matrix.shape
        self.databases = list(range(n_db)) if self.databases is None else list(self.databases)
        self.outputs = list(range(n_out)) if self.outputs is None else list(self.outputs)
        if len(self.databases) != n_db:
            raise ValueError(f"databases must have one entry per row ({n_db}), got {len(self.databases)}")
        if len(self.outputs) != n_out:
            raise ValueError(f"outputs must have one entry per column ({n_out}), got {len(self.outputs)}")
        if self.adjacent is None:
            if all(isinstance(d, tuple) for d in self.databases):
                self.adjacent = hamming_adjacent
            else:
                self.adjacent = lambda x, y: x != y
        self._index = {d: i for i, d in enumerate(self.databases)}

    def row(self, database) -> np.ndarray:
        """The output distribution of the mechanism on ``database``."""
        try:
            return self.matrix[self._index[database]]
        except (KeyError, TypeError):  # (TypeError: an unhashable value such as a list is no database either)
            raise ValueError(f"database must be one of the mechanism's databases (got {database!r})") from None

    def record_domain(self) -> tuple[int, list]:
        """``(n, D)`` when the databases are exactly the tuples of D^n (D in order of first appearance);
        ValueError otherwise.  Chapters that reason record by record (Bayesian DP, causal models) need this."""
        dbs = self.databases
        if not all(isinstance(d, tuple) for d in dbs) or len({len(d) for d in dbs}) != 1:
            raise ValueError("mechanism databases must be tuples of one common length n (one entry per record)")
        n = len(dbs[0])
        domain: list = []
        for d in dbs:
            domain.extend(v for v in d if v not in domain)
        size = len(domain) ** n
        if len(dbs) != size or len(set(dbs)) != size:
            raise ValueError(
                f"mechanism must be defined on every database of D^n (|D|={len(domain)}, n={n}: "
                f"{size} databases expected, got {len(dbs)})"
            )
        return n, domain

    def adjacent_pairs(self) -> list[tuple[int, int]]:
        """Ordered pairs of row indices (i, j), i ≠ j, whose databases are adjacent."""
        return [
            (i, j)
            for i, j in itertools.permutations(range(len(self.databases)), 2)
            if self.adjacent(self.databases[i], self.databases[j])
        ]

    def delta(self, eps):
        """The privacy profile: the smallest δ for which the mechanism is (ε, δ)-DP (Lecture 1, Def 4.1), the
        largest hockey-stick divergence over ordered adjacent pairs; a δ claimed to hold, so never below the exact
        value (each pair's one-sided divergence by ``indistinguishability._pair_hockey``, the kernel of
        :func:`~dpsemantics.indistinguishability.hockey_stick`).  Broadcasts over ``eps`` (+∞ allowed)."""
        eps = np.asarray(check_epsilon(eps, "eps", allow_inf=True), dtype=float)
        pairs = self.adjacent_pairs()
        if not pairs:
            return as_output(np.zeros_like(eps))
        distinct = {(self.matrix[i].tobytes(), self.matrix[j].tobytes()): (i, j) for i, j in pairs}  # rows repeat
        return as_output(np.max([_pair_hockey(self.matrix[i], self.matrix[j])(eps) for i, j in distinct.values()],
                                axis=0))

    def epsilon(self) -> float:
        """The smallest ε for which the mechanism is ε-DP (pure), ∞ if none: max |ln p − ln q| over the outputs of
        adjacent pairs.  A measured ε claimed to hold, so rounded up: each np.log within 4 ulps (8u·|ln|), the
        difference ½ulp, so the exact |ln(p/q)| is at most d(1 + u) + 16u·m, m the larger |ln|; d + 16u·m raised
        3 ulps is above that.  Exactly 0 where p = q."""
        pairs = self.adjacent_pairs()
        best = 0.0
        for i, j in pairs:
            p, q = self.matrix[i], self.matrix[j]
            if np.any((p > 0) != (q > 0)):
                return math.inf
            both = (p > 0) & (p != q)
            if np.any(both):
                lp, lq = np.log(p[both]), np.log(q[both])
                bound = _rounding.up(np.abs(lp - lq) + 16.0 * _U * np.maximum(np.abs(lp), np.abs(lq)), 3)
                best = max(best, float(np.max(bound)))
        return best

    def is_dp(self, eps, delta=0.0, *, tol: float = 1e-12) -> bool:
        """Whether the mechanism is (ε, δ)-differentially private (Lecture 1, Definition 1.1)."""
        return bool(np.all(self.delta(eps) <= delta + tol))

    def compose(self, other: "FiniteMechanism") -> "FiniteMechanism":
        """Run both mechanisms independently on the same database; outputs are pairs."""
        if self.databases != other.databases:
            raise ValueError("other must be defined on the same databases to compose")
        matrix = np.einsum("ij,ik->ijk", self.matrix, other.matrix).reshape(len(self.databases), -1)
        outputs = list(itertools.product(self.outputs, other.outputs))
        return FiniteMechanism(matrix, self.databases, outputs, self.adjacent)

    @classmethod
    def from_function(cls, databases: Sequence, outputs: Sequence, pmf: Callable, adjacent=None):
        """Build from ``pmf(database, output) -> probability``."""
        matrix = np.array([[pmf(d, o) for o in outputs] for d in databases], dtype=float)
        return cls(matrix, list(databases), list(outputs), adjacent)


def _exceeds_exp_times(p, q, eps) -> np.ndarray:
    """The outcomes with p > e^ε q exactly, for float masses p, q and a float ε ≥ 0.

    The float product fl(fl(e^ε)·q) is within 9.1u·e^ε q + 2⁻¹⁰⁷⁵ of e^ε q (np.exp within 4 ulps, the product ½ulp
    and, below the normal range, half a subnormal step), so p above it by a relative 16u plus 2⁻¹⁰⁷⁰ is surely
    above e^ε q, and p that far below it surely not.  The rest are decided exactly: q = 0 (p > 0), ε = 0 (p > q),
    else ln p − ln q against ε in mpmath at 60, 200 and 1 000 digits (a log ratio of floats, 0 or transcendental,
    is never the float ε unless p = q; a difference below 10^{3−d} at d digits is counted as above, the safe
    side)."""
    u = _rounding.UNIT_ROUNDOFF
    prod = _exp_times(eps, q)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        above = p > prod * (1 + 16 * u) + 2.0**-1070
        below = p < prod * (1 - 16 * u) - 2.0**-1070
        # e^ε beyond the float range (ε > 709.78) while e^ε q need not be (q subnormal): compare ln p − ln q with ε,
        # each log within 8u of its modulus and the difference ½ulp, so a gap above 16u(|ln p| + |ln q| + ε) decides
        far = np.isinf(prod) & (q > 0) & (p > 0)
        if np.any(far):
            gap = np.log(np.where(far, p, 1.0)) - np.log(np.where(far, q, 1.0)) - eps
            slack = 16 * u * (np.abs(np.log(np.where(far, p, 1.0))) + np.abs(np.log(np.where(far, q, 1.0))) + eps)
            above = np.where(far, gap > slack, above)
            below = np.where(far, gap < -slack, below)
    out = above.copy()
    for k in np.flatnonzero(~above & ~below):
        a, b = float(p[k]), float(q[k])
        if a == 0 or b == 0 or eps == 0:
            out[k] = a > b if eps == 0 else a > 0
            continue
        for digits in (60, 200, 1000):
            with mpmath.workdps(digits):
                gap = mpmath.log(a) - mpmath.log(b) - mpmath.mpf(float(eps))
                if abs(gap) > mpmath.mpf(10) ** (3 - digits):
                    out[k] = gap > 0
                    break
        else:  # pragma: no cover - within 1e-997 of a tie: no such floats are known
            out[k] = True
    return out




def randomized_response(eps) -> FiniteMechanism:
    """Randomized response on one bit: report the truth with probability e^ε/(1 + e^ε)."""
    eps = check_epsilon(eps, "eps", scalar=True)
    keep = expit(eps)
    return FiniteMechanism(np.array([[keep, 1 - keep], [1 - keep, keep]]), [0, 1], [0, 1])


def local_randomized_response(n: int, eps) -> FiniteMechanism:
    """Randomized response applied independently to each bit of a database in {0,1}^n."""
    n = check_record_count(n, "n", maximum=12)
    rr = randomized_response(eps)
    databases = list(itertools.product((0, 1), repeat=n))
    matrix = np.array([[np.prod([rr.matrix[b, o] for b, o in zip(d, out)]) for out in databases] for d in databases])
    return FiniteMechanism(matrix, databases, databases)


def two_sided_geometric_pmf(k, eps):
    """Pr[Z = k] for the two-sided geometric noise Z with parameter ε: (1−e^{−ε})/(1+e^{−ε}) e^{−ε|k|}."""
    eps = check_epsilon(eps, "eps", strictly_positive=True)
    k = np.asarray(as_float(k, "k"))
    if np.any(~np.isfinite(k) | (k != np.round(k))):
        bad = k[~np.isfinite(k) | (k != np.round(k))].flat[0]
        raise ValueError(f"k must be whole numbers (got k={float(bad)!r})")
    # (1 − a)/(1 + a) = tanh(ε/2); ε|k| beyond the float range gives e^{−∞} = 0, as it should
    with np.errstate(over="ignore"):
        return as_output(np.tanh(eps / 2) * np.exp(-eps * np.abs(k)))


def laplace_density(z, eps, sensitivity=1.0):
    """The density at ``z`` of the Laplace mechanism's noise, scale b = Δ/ε: e^{−|z|/b}/(2b) (Dwork, McSherry,
    Nissim & Smith 2006; Dwork & Roth 2014, Definition 3.3).  A count with this noise added is ε-DP; its outputs
    on two neighbours are this density centred at the two counts."""
    eps = check_epsilon(eps, "eps", strictly_positive=True)
    z, eps, sensitivity = broadcast(z=as_float(z, "z"), eps=eps, sensitivity=check_positive(sensitivity, "sensitivity"))
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        rate = eps / sensitivity  # 1/b; beyond the float range (b → 0) a point mass: ∞ at 0, 0 elsewhere
        density = rate / 2 * np.exp(-rate * np.abs(z))
        density = np.where(np.isinf(rate), np.where(z == 0, np.inf, 0.0), np.where(rate == 0, 0.0, density))
    return as_output(density)


def gaussian_density(z, sigma):
    """The density at ``z`` of the Gaussian mechanism's noise N(0, σ²) (Balle & Wang 2018, whose Theorem 8 gives
    the exact privacy profile, :func:`gaussian_delta`): e^{−z²/2σ²}/(σ√(2π))."""
    sigma = check_positive(sigma, "sigma")
    z, sigma = broadcast(z=as_float(z, "z"), sigma=sigma)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        u = z / sigma  # in log space, so that a density below the normal range is rounded once
        density = np.exp(-0.5 * u * u - np.log(sigma) - 0.5 * math.log(2 * math.pi))
    return as_output(density)


def geometric_count(n: int, eps, *, low: int | None = None, high: int | None = None) -> FiniteMechanism:
    """ε-DP count of ones in a database in {0,1}^n: count + two-sided geometric noise, clamped to
    [low, high] (default [0, n]).  Clamping is post-processing, so the mechanism stays ε-DP, and the
    output set is finite so every probability is exact."""
    n = check_record_count(n, "n", maximum=20)
    eps = check_epsilon(eps, "eps", strictly_positive=True, scalar=True)
    low = 0 if low is None else int(low)
    high = n if high is None else int(high)
    if high <= low:
        raise ValueError(f"high must exceed low (got low={low}, high={high})")
    outputs = list(range(low, high + 1))
    a = np.exp(-eps)
    databases = list(itertools.product((0, 1), repeat=n))
    rows = []
    for d in databases:
        c = sum(d)
        k = np.array(outputs) - c
        row = two_sided_geometric_pmf(k, eps)
        # Pr[Z <= low - c] and Pr[Z >= high - c] fold onto the end points.
        row[0] = _geometric_tail(c - low, a)
        row[-1] = _geometric_tail(high - c, a)
        rows.append(row)
    return FiniteMechanism(np.array(rows), databases, outputs)


def _geometric_tail(m: int, a: float) -> float:
    """Pr[Z >= m] for integer m of either sign, Z two-sided geometric with ratio a = e^{−ε}."""
    if m > 0:
        return a**m / (1 + a)
    return 1.0 - a ** (1 - m) / (1 + a)


def randomized_response_delta(eps, eps_rr):
    """Privacy profile of ε_rr-randomized response: δ(ε) = (e^{ε_rr} − e^ε)₊ / (1 + e^{ε_rr}).

    Rounded up (never below the exact δ): expit within 4 ulps (8u), ε − ε_rr one rounding (u) to which
    expm1's relative sensitivity is at most 1, expm1 8u, the product u — 18u, so 18 ulps."""
    eps = check_epsilon(eps, "eps")
    eps_rr = check_epsilon(eps_rr, "eps_rr")
    eps, eps_rr = broadcast(eps=eps, eps_rr=eps_rr)
    # (e^a − e^b)/(1 + e^a) = expit(a)·(1 − e^{b−a}), stable for large a; b > a gives 0 (no expm1 overflow)
    delta = expit(eps_rr) * -np.expm1(np.minimum(np.subtract(eps, eps_rr), 0.0))
    # below the normal range the product may round to 0 (½·5e-324 is a tie, to even): a positive δ stays positive
    delta = np.where((delta == 0) & (eps < eps_rr), _rounding.SMALLEST_SUBNORMAL, delta)
    return as_output(np.minimum(_rounding.up(delta, 18), 1.0))


def laplace_delta(eps, eps_mech, sensitivity=1.0):
    """Privacy profile of the Laplace mechanism with scale Δ/ε_mech: δ(ε) = (1 − e^{(ε−ε_mech)/2})₊.

    The sensitivity cancels (scale and shift grow together); it is checked and kept for clarity.  Rounded up
    (never below the exact δ): ε − ε_mech one rounding (u; the halving is exact), expm1 8u and its relative
    sensitivity to its argument at most 1 — 9u, so 10 ulps.
    """
    eps = check_epsilon(eps, "eps")
    eps_mech = check_epsilon(eps_mech, "eps_mech", strictly_positive=True)
    eps, eps_mech, _ = broadcast(eps=eps, eps_mech=eps_mech, sensitivity=check_positive(sensitivity, "sensitivity"))
    delta = -np.expm1(np.minimum(np.subtract(eps, eps_mech) / 2, 0.0))
    # below the normal range the halving may round (ε_mech − ε = 5e-324 halves to 0): a positive δ stays positive
    delta = np.where((delta == 0) & (eps < eps_mech), _rounding.SMALLEST_SUBNORMAL, delta)
    return as_output(np.minimum(_rounding.up(delta, 10), 1.0))


_SQRT2 = math.sqrt(2.0)
_SQRT_PI = math.sqrt(math.pi)


def _log_erfcx_difference(u: float, v: float, h: float) -> float:
    """log(erfcx(u) − erfcx(v)) for 30 ≤ u < v = u + h, with h passed exactly (not formed as v − u): one entry of
    :func:`_log_erfcx_differences` (the asymptotic series differenced term by term, h/(uv) kept in logs)."""
    return float(_log_erfcx_differences(np.array([float(u)]), np.array([float(h)]))[0])


# erfcx(x) ~ (1/(x√π)) Σ_m c_m x^{−2m}, c_m = (−1)^m (2m−1)!!/2^m, to 36 terms: for x ≥ 6 the terms fall below
# e^{−36} of the first before they grow
_ERFCX_ASYMPTOTIC = [(-1) ** m * math.prod(range(1, 2 * m, 2)) / 2.0**m for m in range(36)]


def _log_erfcx_differences(u: np.ndarray, h: np.ndarray) -> np.ndarray:
    """log(erfcx(u) − erfcx(u + h)) for u ≥ 0 and h > 0 where the difference cancels, for arrays.

    u ≥ 6: the asymptotic series (1/(x√π)) Σ_m c_m x^{−2m}, c_m = (−1)^m (2m − 1)!!/2^m, differenced term by term
    through u^{−n} − v^{−n} = u^{−n}(1 − ρⁿ) = u^{−n}·(h/v)·G_n with ρ = u/v and G_n = 1 + ρ + … + ρ^{n−1} (no
    cancellation: each difference is formed from h, and G_n is a sum of positive terms, built by the recurrence
    G_{n+2} = G_n + ρⁿ(1 + ρ) with a relative error below 2n·u, and u^{−2m} as a running product), kept relative
    to the first term, h/(uv), which stays in logs (no underflow at u ~ 1e150); 36 terms below u = 30 (the
    remainder is below e^{−36} of the sum), 8 above (below 1e-20).  No transcendental function inside the sum.
    u < 6: the Taylor series in h, −Σ_{n≥1} y⁽ⁿ⁾(u)hⁿ/n!, with y = erfcx, y′ = 2uy − 2/√π and
    y⁽ⁿ⁺¹⁾ = 2u y⁽ⁿ⁾ + 2n y⁽ⁿ⁻¹⁾ (differentiating y′ = 2uy − 2/√π), 14 terms; this route is taken only where the
    difference cancels (it is below 10⁻³ of erfcx(u)), so h·|y′/y| < 10⁻³ and the terms fall by more than 10²
    each.  Both checked against 400-digit mpmath in tests/unit/test_accuracy.py."""
    out = np.empty(u.shape)
    big = u >= 6.0
    for part, terms in ((big & (u < 30.0), 36), (u >= 30.0, 8)):
        if not np.any(part):
            continue
        ub, hb = u[part], h[part]
        vb = ub + hb
        rho = ub / vb  # u/v in (0, 1]
        rho2, one_plus = rho * rho, 1.0 + rho
        with np.errstate(over="ignore"):
            inverse_square = 1.0 / (ub * ub)  # 0 beyond u = 1e154, where every correction is below an ulp
        grow, rho_power, power = np.ones(ub.shape), rho, np.ones(ub.shape)  # G_1, ρ¹, u⁰
        rest = np.zeros(ub.shape)
        for m in range(1, terms):
            grow = grow + rho_power * one_plus  # G_{2m+1} = G_{2m−1} + ρ^{2m−1}(1 + ρ)
            rho_power = rho_power * rho2
            power = power * inverse_square  # u^{−2m}
            rest += _ERFCX_ASYMPTOTIC[m] * power * grow
        out[part] = np.log(hb) - np.log(vb) - np.log(ub) + np.log1p(rest) - 0.5 * math.log(math.pi)
    small = ~big
    if np.any(small):
        us, hs = u[small], h[small]
        prev = erfcx(us)
        cur = 2 * us * prev - 2 / _SQRT_PI  # y′
        total = np.zeros(us.shape)
        term = np.ones(us.shape)
        for n in range(1, 15):
            term = term * hs / n  # hⁿ/n!
            total -= cur * term
            prev, cur = cur, 2 * us * cur + 2 * n * prev
        out[small] = np.log(total)
    return out


def _log_delta_at_zero(r: np.ndarray) -> np.ndarray:
    """log δ(0; r) = log(Φ(r/2) − Φ(−r/2)) = log erf(r/(2√2)) for finite r > 0 (Balle & Wang 2018, Theorem 8 at
    ε = 0); below r = 1e-300, erf(x) = 2x/√π to far below an ulp, so log δ = log r − ½ log 2π."""
    tiny = r <= 1e-300
    with np.errstate(divide="ignore"):
        return np.where(tiny, np.log(np.where(tiny, r, 1.0)) - 0.5 * math.log(2 * math.pi),
                        np.log(erf(np.where(tiny, 1.0, r) / (2 * _SQRT2))))


def _log_delta_bulk_cancelling(eps: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log δ in the bulk (a > 0 > b) where Φ(a) − e^ε Φ(b) cancels, for arrays: there ε < r²/2 with r = a − b small,
    and δ = (Φ(a) − Φ(b)) − expm1(ε)·Φ(b) (the same quantity), with Φ(a) − Φ(b) = ½(erf(a/√2) + erf(−b/√2)) a sum of
    two positive terms (each erf within a few ulps; a, b within an ulp of r/2 absolutely, which moves erf(a/√2) by
    u·r/√(2π), a few u relative to Φ(a) − Φ(b) ≥ r·φ(r)), and expm1(ε)Φ(b) ≤ r²/4, at most r/1.6 of the first term:
    no cancellation once r < 1e-2, which the bulk's cancellation test (Φ(a) above 10³ δ) implies (δ ≥ 0.35·r there).
    An entry where the difference is not at least half its first term is NaN (the caller's mpmath route)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        first = 0.5 * (erf(a / _SQRT2) + erf(-b / _SQRT2))
        d = first - np.expm1(eps) * ndtr(b)
        return np.where(d >= 0.5 * first, np.log(d), np.nan)


def _gaussian_log_delta_mp(eps: float, r: float, digits: float) -> float:
    """log δ in mpmath at enough digits for the cancellation at hand (the last resort: not met on the tests' grids)."""
    digits = min(digits, 600.0) if math.isfinite(digits) else 600.0
    with mpmath.workdps(int(30 + max(0.0, digits))):
        e, rr = mpmath.mpf(eps), mpmath.mpf(r)
        a, b = rr / 2 - e / rr, -rr / 2 - e / rr
        d = mpmath.ncdf(a) - mpmath.exp(e) * mpmath.ncdf(b)
        return float(mpmath.log(d)) if d > 0 else -math.inf


def _gaussian_log_delta_scalar(eps: float, r: float) -> float:
    """log δ(ε) of the Gaussian mechanism as a function of r = Δ/σ (the only thing δ depends on).

    Balle & Wang (2018), Theorem 8: δ = Φ(a) − e^ε Φ(b), a = r/2 − ε/r, b = −r/2 − ε/r.  Because
    b² − a² = 2ε, e^ε Φ(b) = ½ e^{−a²/2} erfcx(−b/√2): no e^ε is ever formed, and in the tail (a ≤ 0)
    δ = ½ e^{−a²/2} (erfcx(−a/√2) − erfcx(−b/√2)), whose logarithm never underflows.  Where the
    difference cancels (v − u ≪ u) it is summed as a series in h = v − u (:func:`_log_erfcx_differences`); where
    Φ(a) − e^ε Φ(b) cancels in the bulk (ε < r²/2 with r small) it is rewritten without the cancellation
    (:func:`_log_delta_bulk_cancelling`); mpmath remains for what neither form covers (not met on the tests' grids).
    ε = 0 is :func:`_log_delta_at_zero`.  The array routine :func:`_gaussian_log_delta_array` takes the same
    branches by the same tests, through the same array helpers, so it gives the same values.
    """
    if r == math.inf:
        return 0.0  # disjoint outputs: δ = 1 at every finite ε
    if r == 0.0:
        return -math.inf  # identical outputs (Δ/σ underflows): δ = 0
    if eps == 0.0:
        return float(_log_delta_at_zero(np.array([r]))[0])
    ratio = eps / r
    if ratio == math.inf:
        return -math.inf
    a = r / 2 - ratio
    b = -r / 2 - ratio
    if a > 0:  # ε < r²/2: the bulk, δ ≥ ... is not tiny unless r is
        first = float(ndtr(a))
        second = 0.5 * math.exp(-0.5 * a * a) * float(erfcx(-b / _SQRT2))
        d = first - second
        cond = first / d if d > 0 else math.inf
        if cond > 1e3:
            out = float(_log_delta_bulk_cancelling(np.array([eps]), np.array([a]), np.array([b]))[0])
            if not math.isnan(out):
                return out
            return _gaussian_log_delta_mp(eps, r, math.log10(cond) if cond < math.inf else 20 + math.log10(1 / r))
        return math.log(d)
    u, v = -a / _SQRT2, -b / _SQRT2  # 0 ≤ u < v
    if 0.5 * a * a > 1e300:
        return -math.inf
    head = -0.5 * a * a + math.log(0.5)
    if u >= 30.0:
        return head + _log_erfcx_difference(u, v, r / _SQRT2)
    eu, ev = float(erfcx(u)), float(erfcx(v))
    diff = eu - ev
    cond = eu / diff if diff > 0 else math.inf
    if cond > 1e3:  # the difference cancels: the series in h (see _log_erfcx_differences), not the subtraction
        return head + float(_log_erfcx_differences(np.array([u]), np.array([r / _SQRT2]))[0])
    return head + math.log(diff)


def _gaussian_ratio(sigma, sensitivity):
    with np.errstate(over="ignore", under="ignore"):
        return np.asarray(sensitivity, dtype=float) / np.asarray(sigma, dtype=float)


def _gaussian_evaluated(eps, sigma, sensitivity):
    """``(ε, r, log δ)`` as float arrays of one shape: the checked ε, r = fl(Δ/σ) and the evaluated log δ(ε; r)
    (accurate to 1e-13, not yet raised)."""
    eps, sigma, sensitivity = broadcast(eps=check_epsilon(eps, "eps"), sigma=check_positive(sigma, "sigma"),
                                        sensitivity=check_positive(sensitivity, "sensitivity"))
    eps, r = np.broadcast_arrays(np.asarray(eps, dtype=float), np.asarray(_gaussian_ratio(sigma, sensitivity)))
    return eps, r, _gaussian_log_delta_array(eps, r)


def gaussian_log_delta(eps, sigma, sensitivity=1.0):
    """Natural log of :func:`gaussian_delta`: a float **never below** log δ(ε), finite where δ itself would underflow
    (use it there).  The evaluated log δ (within 1e-13 of the exact value, ``tests/unit/test_accuracy.py``) plus the
    relative allowance ``rel`` of :func:`gaussian_delta` (log(1 + rel) ≤ rel), rounded up: the addition is within ½
    ulp, raised 1.  Where the evaluation gives −inf although δ > 0, a float above log δ all the same: log 5e-324 where
    fl(Δ/σ) underflowed to 0 (δ ≤ δ(0) = 2Φ(r/2) − 1 < r < 5e-324), −a²/2 where a = r/2 − ε/r ≤ −10¹⁵⁰
    (δ ≤ Φ(a) ≤ e^{−a²/2}; 10⁻¹⁰ of it spared for the rounding of a), else the lowest float (δ below e^{−1.8e308}).
    −inf never (δ > 0 at every finite ε); 0 where the outputs are disjoint (δ = 1)."""
    eps, r, log_d = _gaussian_evaluated(eps, sigma, sensitivity)
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        raised = _rounding.up(log_d + _gaussian_allowance(eps, r, log_d), 1)
        a = r / 2 - eps / np.where(r > 0, r, 1.0)
        far = np.maximum(-0.5 * a * a * (1.0 - 1e-10), -_FLOAT_MAX)
        out = np.where(log_d > -np.inf, raised, np.where(r == 0, _LOG_SMALLEST, far))
    return as_output(np.minimum(out, 0.0))


_FLOAT_MAX = float(np.finfo(float).max)
_LOG_SMALLEST = float(_rounding.up(math.log(_rounding.SMALLEST_SUBNORMAL), 2))  # −744.44, raised past log's error


def _gaussian_log_delta_array(eps: np.ndarray, r: np.ndarray) -> np.ndarray:
    """:func:`_gaussian_log_delta_scalar` over arrays: every branch in NumPy (the bulk with condition ≤ 1e3 and its
    cancelling corner, the tail through erfcx with u < 30 and condition ≤ 1e3, the tails where erfcx(u) − erfcx(v)
    cancels and the far tail's asymptotic series, ε = 0, r at 0 or ∞), chosen by the scalar routine's own tests and
    evaluated by the same array helpers, so the same values; what is left (the mpmath corner, not met on the tests'
    grids) by the scalar routine.  10⁶ elements in well under a second."""
    eps, r = np.broadcast_arrays(eps, r)
    shape = eps.shape
    eps, r = np.ravel(eps), np.ravel(r)  # (1-d: the branches index their own entries)
    out = np.full(eps.shape, np.nan)
    with np.errstate(all="ignore"):
        positive = (r > 0) & np.isfinite(r)
        out[r == np.inf] = 0.0  # disjoint outputs: δ = 1
        out[r == 0.0] = -np.inf  # identical outputs: δ = 0
        zero = positive & (eps == 0)
        out[zero] = _log_delta_at_zero(r[zero])
        ok = (eps > 0) & positive
        ratio = np.where(ok, eps / np.where(ok, r, 1.0), 0.0)
        out[ok & ~np.isfinite(ratio)] = -np.inf  # ε/r beyond the float range: δ below e^{−10³⁰⁸}
        ok &= np.isfinite(ratio)
        a = r / 2 - ratio
        b = -r / 2 - ratio
        out[ok & (a <= 0) & (0.5 * a * a > 1e300)] = -np.inf
        # bulk (a > 0): δ = Φ(a) − ½e^{−a²/2} erfcx(−b/√2); each branch is evaluated on its own entries only
        at = np.flatnonzero(ok & (a > 0))
        if at.size:
            ab, bb = a[at], b[at]
            first = ndtr(ab)
            d = first - 0.5 * np.exp(-0.5 * ab * ab) * erfcx(-bb / _SQRT2)
            bulk = np.where(d > 0, first / d, np.inf) <= 1e3
            out[at[bulk]] = np.log(d[bulk])
            corner = ~bulk  # where Φ(a) − e^ε Φ(b) cancels
            if np.any(corner):
                out[at[corner]] = _log_delta_bulk_cancelling(eps[at[corner]], ab[corner], bb[corner])
        at = np.flatnonzero(ok & (a <= 0) & (0.5 * a * a <= 1e300))
        if at.size:
            at_a, at_r = a[at], r[at]
            head = -0.5 * at_a * at_a + math.log(0.5)
            u = -at_a / _SQRT2
            # far tail (u ≥ 30): the asymptotic series differenced term by term (_log_erfcx_differences)
            far = u >= 30.0
            if np.any(far):
                out[at[far]] = head[far] + _log_erfcx_differences(u[far], at_r[far] / _SQRT2)
            # tail (u < 30): δ = ½e^{−a²/2}(erfcx(u) − erfcx(v)) where that difference does not cancel
            inner = np.flatnonzero(~far)
            ui = u[inner]
            eu, ev = erfcx(ui), erfcx(-b[at[inner]] / _SQRT2)
            diff = eu - ev
            tail = np.where(diff > 0, eu / diff, np.inf) <= 1e3
            out[at[inner[tail]]] = head[inner[tail]] + np.log(diff[tail])
            # where it cancels (h = v − u ≪ u): differenced without cancellation
            near = inner[~tail]
            if near.size:
                out[at[near]] = head[near] + _log_erfcx_differences(u[near], at_r[near] / _SQRT2)
    rest = np.isnan(out)  # the mpmath corner (and NaN input, which the callers refuse before)
    for idx in zip(*np.nonzero(rest)):
        out[idx] = _gaussian_log_delta_scalar(float(eps[idx]), float(r[idx]))
    return out.reshape(shape)


def gaussian_delta(eps, sigma, sensitivity=1.0):
    """Privacy profile of the Gaussian mechanism N(f(x), σ²) with ℓ2-sensitivity Δ (Balle & Wang 2018,
    Theorem 8): δ(ε) = Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ), as a float **never below** the exact value — at
    the exact ratio r* = Δ/σ, or at any r* within u = 2⁻⁵³ relative of the float r = fl(Δ/σ) (``sensitivity=fl(√(2ρ))``,
    ``sigma=1`` for a ρ-zCDP Gaussian).  Broadcasts over all three arguments.

    Evaluated without cancellation (:func:`gaussian_log_delta`: relative error below 1e-12 against 50-digit mpmath
    wherever δ is a normal float, for every ε ≥ 0, σ > 0, Δ > 0, ``tests/unit/test_accuracy.py``), then enlarged by
    two allowances, relative: twice that 1e-12 (``_GAUSSIAN_DELTA_ERROR``), and the rounding of r: ∂δ/∂r = φ(a)
    exactly (a = r/2 − ε/r; the two terms' derivatives combine through e^ε φ(b) = φ(a)), so an error |r − r*| ≤ u·r
    moves δ by at most u·κ·δ(1 + O(u·κ)) with κ = r·φ(a)/δ, allowed twice (1.1e-14 at ρ = 10⁴, ε = ρ; 1e-10 at
    r = 10⁶, where the 1e-12 alone fell short).  e^{log δ}(1 + allowance) is then rounded up by
    ``_rounding.exp_up``, each entry with its own allowance: a few ulps in the normal range (np.exp's error
    included), and below it (δ < 2.2e-308) never below that value, so an exact δ below the smallest float is
    returned as 5e-324, not 0 — also where log δ itself is below −1.8e308: δ > 0 at every finite ε
    (``tests/unit/test_underflow.py``).  At most 1.  :func:`gaussian_sigma`'s σ meets it: δ(σ) ≤ the δ asked for."""
    eps, r, log_d = _gaussian_evaluated(eps, sigma, sensitivity)
    return as_output(_gaussian_delta_upper_at(eps, r, log_d))


def _gaussian_allowance(eps: np.ndarray, r: np.ndarray, log_d: np.ndarray) -> np.ndarray:
    """The relative allowance of :func:`gaussian_delta` over e^{log δ}: twice the evaluation's 1e-12 and twice the
    rounding of r, u·κ with κ = r·φ(a)/δ (at most 1)."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        a = r / 2 - eps / r
        log_kappa = np.log(r) - 0.5 * a * a - 0.5 * _LOG_2PI - log_d
        kappa = np.where(np.isfinite(log_kappa), np.exp(np.minimum(log_kappa, 700.0)), np.inf)
        return np.minimum(2.0 * _GAUSSIAN_DELTA_ERROR + 2.0 * _U * kappa, 1.0)


def _gaussian_delta_upper_at(eps: np.ndarray, r: np.ndarray, log_d: np.ndarray) -> np.ndarray:
    """:func:`gaussian_delta` from float arrays ε, r = fl(Δ/σ) and the evaluated log δ(ε; r), unchecked."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        # e^{log δ}(1 + rel) rounded up, each entry with its own allowance
        out = _rounding.exp_up(log_d, _gaussian_allowance(eps, r, log_d))
    return np.minimum(np.maximum(out, _rounding.SMALLEST_SUBNORMAL), 1.0)


# the relative error of gaussian_delta (and of e^{gaussian_log_delta}) against the exact profile, measured against
# 50-digit mpmath over hostile grids (tests/unit/test_accuracy.py); callers that need the safe side enlarge by twice it
_GAUSSIAN_DELTA_ERROR = 1e-12


def _sigma_log_margin(delta: np.ndarray) -> np.ndarray:
    """log δ − (the log target gaussian_sigma solves for): the margin that lets the σ it returns pass the strict
    check :func:`gaussian_delta` (σ) ≤ δ at the first try (derivation in :func:`gaussian_sigma`).

    4e (e = ``_GAUSSIAN_DELTA_ERROR`` = 1e-12, the evaluation error of log δ), plus 4u(8 + |log δ|) for the roundings
    of log δ and of the subtraction (u·|log δ| each) and ``_rounding.exp_up``'s step (at most 22u above the product).
    Below the normal range (δ < 2.2e-308) the bound is ``exp_no_underflow``'s (which ``exp_up`` uses there): its
    value times (1 + 2⁻⁴⁰)(1 + 1e-13) (another 2e-12 allowed), rounded to the subnormal grid (to nearest: ``ldexp``)
    and then one step s = 5e-324 up, so it is at most δ when that value is below δ − s/2: the target is δ − s/2."""
    tiny = float(np.finfo(float).tiny)
    sub = delta < tiny
    with np.errstate(divide="ignore", invalid="ignore"):
        log_target = np.log(delta) + np.where(sub, np.log1p(-0.5 * (_rounding.SMALLEST_SUBNORMAL / delta)), 0.0)
    margin = (4.0 * _GAUSSIAN_DELTA_ERROR + 4.0 * _U * (8.0 + np.abs(log_target))
              + np.where(sub, 2.0 * _GAUSSIAN_DELTA_ERROR, 0.0))
    return np.log(delta) - (log_target - margin)


#: σ is stepped up by (1 + 6u) from fl(Δ/r), then one ulp: fl(Δ/σ) ≤ r(1 − 3u), which lowers δ by 3u·κ
#: (κ = d log δ/d log r), more than the 2u·κ that :func:`gaussian_delta` allows for the rounding of r
_SIGMA_STEP = 1.0 + 6.0 * _U
_LOG_2PI = math.log(2.0 * math.pi)
_LOG_R_MIN = -744.0  # e^{-744} ≈ 1e-323, the last subnormal: below it r = Δ/σ is not representable


def gaussian_sigma(eps, delta, sensitivity=1.0):
    """The smallest σ for which the Gaussian mechanism with sensitivity Δ is (ε, δ)-DP, inverting
    :func:`gaussian_delta` (Balle & Wang 2018, Theorem 8 — the "analytic Gaussian mechanism").

    δ depends on σ only through r = Δ/σ and increases with r, so the largest admissible r is found in log r
    (``_gaussian_log_ratios``: safeguarded Halley steps on arrays, the slope from dδ/dr = φ(a)), against the
    target log δ − m: the r found satisfies log δ(ε; r) ≤ log δ − m as evaluated, and is maximal to ~1e-13.
    Then σ = fl(fl(Δ/r)·(1 + 6u)) and one ulp up — the one outward step: fl(Δ/r) ≥ (Δ/r)(1 − u) and the product
    is rounded down by at most u relative, which the ulp restores, so σ > (Δ/r)(1 + 4u) exactly and
    r_σ = fl(Δ/σ) ≤ r(1 − 3u) (division and rounding are monotone).

    The σ returned passes the strict check that :func:`~dpsemantics.releases.from_fields` makes of a stated σ,
    ``gaussian_delta(ε, σ, Δ) ≤ δ``, the bound never below the exact profile.  With e = 1e-12 the
    evaluation error of δ and κ = d log δ/d log r = r·φ(a)/δ, that bound is δ_eval(r_σ)(1 + 2e + 2u·κ) to a
    few ulps, and δ_eval(r_σ) ≤ δ*(r_σ)(1 + e) ≤ δ*(r)(1 + e)(1 − 3u·κ) ≤ δ_eval(r)(1 + 2e)(1 − 3u·κ)
    (δ* exact, increasing in r), so the bound is at most δ·e^{−m}(1 + 4e − u·κ + O(u)): the step's 3u·κ covers
    the 2u·κ (whatever κ is, with no κ-dependent target), and m = 4e + 4u(8 + |log δ|)
    (``_sigma_log_margin``) covers 4e and the roundings of log δ; below the normal range another 2e-12 and the
    subnormal grid's rounding (target δ − 2.5e-324).  The check is made once (the float evaluation is not proved
    monotone to the last ulp); an entry that fails is solved again against a lower target (never a loop of ulp
    steps; not observed).
    The cost: σ is above the smallest admissible one by about m/κ + 6u relative (≤ 1.1e-11 for δ ≤ 0.9, where
    κ ≥ 0.37; 1.7e-7 at δ = 1 − 10⁻⁶, κ = 2.5e-5, as κ → 0 when δ → 1; tests/unit/releases/test_releases.py).
    δ = 5e-324 at ε = 0 cannot be certified by a representable σ and is refused (naming ``delta``).

    Broadcasts over ``eps``, ``delta`` and ``sensitivity`` (10⁶ entries in 1–2 s); scalars give a
    float, and every entry equals its scalar call.  Raises ``ValueError`` for bad input and when the answer is
    not a finite positive float (σ/Δ beyond 1e308, naming ``delta``).
    """
    eps = check_epsilon(eps, "eps")
    delta = check_delta(delta, open_low=True, open_high=True)
    sensitivity = check_positive(sensitivity, "sensitivity")
    e, d, s = broadcast(eps=eps, delta=delta, sensitivity=sensitivity)
    shape = e.shape
    e, d, s = (np.ravel(np.asarray(x, dtype=float)) for x in (e, d, s))
    # the margin of _sigma_log_margin (4e-12 + a few u·|log δ|) and the step _SIGMA_STEP: see the docstring
    log_target = np.log(d) - _sigma_log_margin(d)
    sigma = np.empty(e.shape)
    todo = np.arange(e.size)
    lower = np.zeros(e.size)  # extra lowering of the target, for the (not observed) entries whose check fails
    for _ in range(8):
        lt = log_target[todo] - lower[todo]
        r = np.exp(_gaussian_log_ratios(e[todo], lt, d[todo]))
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            quotient = s[todo] / r
            sig = np.nextafter(quotient * _SIGMA_STEP, np.inf)  # the one outward step: σ > (Δ/r)(1 + 4u) exactly
        bad = ~np.isfinite(sig) | (quotient == 0.0)
        if np.any(bad):
            i = todo[np.flatnonzero(bad)[0]]
            raise ParameterError(
                "eps", subject="", reason=f"sigma is not a finite positive float for eps={float(e[i])!r}, "
                f"delta={float(d[i])!r}, sensitivity={float(s[i])!r}"
            )
        # σ is what the caller will use: check it strictly, by the bound that never falls below the exact δ
        r_sig = _gaussian_ratio(sig, s[todo])
        ok = _gaussian_delta_upper_at(e[todo], r_sig, _gaussian_log_deltas(e[todo], r_sig)) <= d[todo]
        sigma[todo[ok]] = sig[ok]
        todo = todo[~ok]
        if todo.size == 0:
            break
        lower[todo] = np.maximum(2.0 * lower[todo], 1e-13)
    else:  # pragma: no cover - the step above is proved; the check only guards the float evaluation
        i = todo[0]
        raise ValueError(f"no Gaussian sigma found for eps={float(e[i])!r}, delta={float(d[i])!r}")
    out = sigma.reshape(shape)
    return float(out) if out.ndim == 0 else out


def gaussian_epsilon(delta, sigma, sensitivity=1.0) -> float:
    """The smallest ε ≥ 0 at which the Gaussian mechanism with noise σ and sensitivity Δ is (ε, δ)-DP, inverting
    Balle & Wang (2018, Theorem 8), δ(ε) = Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ), in ε; scalars only.

    The ε returned passes the strict check :func:`gaussian_delta` (ε, σ, Δ) ≤ δ, the bound never below the
    exact profile, so it is never below the exact ε (δ decreases in ε); it is above it by about m/|d log δ/dε|
    (within 1e-10 relative on the tests' grids, ``tests/unit/releases/test_releases.py``).

    How: f(ε) = log δ(ε) − t, t = log δ − m, is solved for its root by safeguarded Newton steps on a bracket
    [lo, hi] with f(lo) > 0 ≥ f(hi) (slope d log δ/dε = −e^ε Φ(b)/δ, b = −r/2 − ε/r, in logs; a step that leaves
    the bracket bisects it), starting at hi = μ + r√(2(|t| + 1)), μ = r²/2, where the Gaussian tail bound
    P[Z > ε] ≤ e^{−(ε − μ)²/(2r²)} of the loss Z ~ N(μ, r²) puts δ below e^t (checked, doubled while not); the
    answer is the last evaluated point with f ≤ 0.  The one outward step is the margin m: :func:`gaussian_delta`
    is e^{log δ_eval}(1 + 2e + 2u·κ) rounded up (e = 1e-12 its evaluation error, κ = r·φ(a)/δ, a = r/2 − ε/r, the
    rounding of r; r is the same float here and there), so with log δ_eval(ε) ≤ t the bound is at most δ when m
    covers 2e + 2uκ, the rounding of t (u|log δ| + u) and ``_rounding.exp_up``'s step: m = the margin of
    :func:`gaussian_sigma` (4e + 4u(8 + |log δ|), and the subnormal grid, ``_sigma_log_margin``) + 4uκ(ε₁), κ
    taken at a first solution ε₁ (twice the 2uκ, for κ's change between ε₁ and ε).  The check is then made once;
    an answer that fails it (not observed) is solved again against a target lowered by the excess.

    ``inf`` when no ε reaches δ (Δ/σ beyond the float range: δ = 1 at every ε); 0 when δ(0) ≤ δ.  Raises
    ``ValueError`` naming ``delta``, ``sigma`` or ``sensitivity`` for bad input."""
    d = float(check_delta(delta, "delta", open_low=True, scalar=True))
    sigma = float(check_positive(sigma, "sigma", scalar=True))
    sensitivity = float(check_positive(sensitivity, "sensitivity", scalar=True))
    r = float(_gaussian_ratio(sigma, sensitivity))
    if d >= 1.0 or r == 0.0:
        return 0.0
    if r == math.inf:
        return math.inf

    def bound(e: float) -> float:  # gaussian_delta(e, σ, Δ), unchecked: the value every caller's check reads
        a, b = np.array([e]), np.array([r])
        return float(_gaussian_delta_upper_at(a, b, np.array([_gaussian_log_delta_scalar(e, r)]))[0])

    if bound(0.0) <= d:
        return 0.0
    base = float(_sigma_log_margin(np.array([d]))[0])
    log_d = math.log(d)
    mu = 0.5 * r * r
    eps = _gaussian_epsilon_solve(r, log_d - base, mu)
    with np.errstate(all="ignore"):
        a = r / 2 - eps / r
        kappa = math.exp(min(math.log(r) - 0.5 * a * a - 0.5 * _LOG_2PI - _gaussian_log_delta_scalar(eps, r), 700.0))
    lower = 4.0 * _U * kappa
    for _ in range(8):
        if lower > 0:
            eps = _gaussian_epsilon_solve(r, log_d - base - lower, mu)
        got = bound(eps)
        if got <= d:
            return eps
        lower = max(2.0 * lower, math.log(got / d) + 1e-13)  # pragma: no cover - the margin above is proved
    raise ValueError(f"no Gaussian epsilon found for delta={d!r}, sigma={sigma!r}, "  # pragma: no cover
                     f"sensitivity={sensitivity!r}")


def _gaussian_epsilon_solve(r: float, log_target: float, mu: float) -> float:
    """The smallest float ε ≥ 0 found with log δ(ε; r) ≤ ``log_target`` as evaluated (by
    :func:`_gaussian_log_delta_scalar`), within a few ulps of the root: :func:`gaussian_epsilon`'s solver."""
    log_delta = lambda e: _gaussian_log_delta_scalar(e, r)  # noqa: E731
    if log_delta(0.0) <= log_target:
        return 0.0
    hi = (mu + r * math.sqrt(2.0 * (abs(log_target) + 1.0))) * (1.0 + 1e-6)
    lx = log_delta(hi)
    while lx > log_target:  # (not reached: the tail bound above puts δ(hi) below the target)
        hi *= 2.0
        if hi == math.inf:
            return math.inf
        lx = log_delta(hi)
    lo, x = 0.0, hi
    for _ in range(200):
        with np.errstate(all="ignore"):  # f decreases with slope −e^{s}: the step x − f/f′ = x + f·e^{−s}
            s = x + float(log_ndtr(-r / 2 - x / r)) - lx
            step = (lx - log_target) * math.exp(min(-s, 700.0)) if s == s else math.nan
        if abs(step) <= 2.0 * math.ulp(x):  # converged at x; from a point with f > 0, one step past the root
            if lx > log_target:
                c = x + 4.0 * abs(step) + 4.0 * math.ulp(x)
                if c < hi and log_delta(c) <= log_target:
                    hi = c
            break
        nxt = x + step
        if not lo < nxt < hi:  # (a NaN step too) the bracket is bisected
            nxt = 0.5 * (lo + hi)
        if hi - lo <= 4.0 * math.ulp(hi):
            break
        x, lx = nxt, log_delta(nxt)
        if lx > log_target:
            lo = x
        else:
            hi = x
    return hi


def _gaussian_log_deltas(eps: np.ndarray, r: np.ndarray) -> np.ndarray:
    """log δ(ε; r) for 1-d arrays: :func:`_gaussian_log_delta_array`, or for a few entries the scalar routine
    entry by entry, which computes the same values (the array routine is its formulas in NumPy; equal on 2·10⁵
    random points and on the tests' grids) at a tenth of the cost for one entry."""
    if eps.size > 4:
        return _gaussian_log_delta_array(eps, r)
    return np.array([_gaussian_log_delta_scalar(float(a), float(b)) for a, b in zip(eps, r)], dtype=float)


_NEWTON_TOL = 1e-13  # the root in log r is accepted within this (absolute in log r, i.e. relative in σ)


def _gaussian_log_ratios(eps: np.ndarray, log_target: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """For 1-d arrays: a float x with log δ(ε; r = e^x) ≤ ``log_target`` *as evaluated* (by
    :func:`_gaussian_log_delta_array`) and within ~1e-13 of the largest such x.

    δ increases with r, with dδ/dr = φ(a), a = r/2 − ε/r (Balle & Wang 2018, proof of Theorem 8: the terms
    in e^ε φ(b) = φ(a) cancel), so f(x) = log δ(e^x) − target has slope f′ = r φ(a)/δ and
    f″ = f′(1 − a(r/2 + ε/r) − f′).  Safeguarded Halley steps on all entries at once: each keeps a bracket
    [lo, hi] with f(lo) ≤ 0 < f(hi) (initially the representable range [−744, 709]), takes the step where it
    stays inside and bisects otherwise; the answer is the last evaluated point with f ≤ 0, accepted when the
    step left is below 1e-13 (or what the evaluation noise explains) or the bracket has closed.
    The start is the tail approximation a = −Φ⁻¹(1 − δ) (r = 2ε/(z + √(z² + 2ε)), at least δ√(2π)).  Raises
    ``ValueError`` naming ``delta`` when even r = e^{−744} (the last subnormal) is too large."""
    with np.errstate(all="ignore"):  # (overflow to ±inf and 0/0 are handled where they arise)
        n = eps.size
        lo, hi = np.full(n, _LOG_R_MIN), np.full(n, 709.0)  # e^709 < 1.8e308
        lo_seen = np.zeros(n, dtype=bool)  # f(lo) evaluated (the initial lo is not)
        # two lower bounds on the root: δ(ε; r) < Φ(a) gives the r with a = −z, z = Φ⁻¹(1 − δ); δ(ε; r) ≤ δ(0; r)
        # = 2Φ(r/2) − 1 gives r = 2Φ⁻¹((1 + δ)/2)
        z = -ndtri(delta)
        root = np.sqrt(z * z + 2.0 * eps)
        r_tail = np.where(z > 0, 2.0 * eps / (z + root), root - z)
        r_zero = np.where(delta < 1e-8, delta * math.sqrt(2.0 * math.pi), 2.0 * ndtri(0.5 + 0.5 * delta))
        x = np.log(np.maximum(r_tail, r_zero))
        answer = np.full(n, np.nan)
        # Halley aims η below the target (η = 1e-13 + a few ulps of log δ: a resolution, smaller than the evaluation
        # noise of log δ, measured up to 6.7e-13 on 1 758 random points (ε = 2e-11, r = 1.3e-3, where erfcx(u) −
        # erfcx(v) is ill-conditioned), which the margin 4e-12 of _sigma_log_margin and gaussian_sigma's strict
        # check cover) and a point counts as safe only when η/2 below it; it is
        # accepted when the step left is below 1e-13 or what noise of 4η would move; after 12 steps an entry bisects
        eta = 1e-13 + 8.0 * _U * np.abs(log_target)
        # the entries still moving, compacted as they finish: their x, ε, target, η, bracket and whether f(lo) was seen
        idx, xt, e, lt, e_t, lo_t, hi_t, seen = np.arange(n), x, eps, log_target, eta, lo, hi, lo_seen
        for step in range(200):
            r = np.exp(xt)
            log_d = _gaussian_log_deltas(e, r)
            f = log_d - lt
            safe = f <= -0.5 * e_t
            lo_t, hi_t, seen = np.where(safe, xt, lo_t), np.where(safe, hi_t, xt), seen | safe
            ratio = e / r
            a = r / 2 - ratio
            g = np.exp(xt - 0.5 * a * a - 0.5 * _LOG_2PI - log_d)  # f′ = r φ(a)/δ
            g2 = g * (1.0 - a * (r / 2 + ratio) - g)  # f″ = f′ (d log(rφ(a))/dx − f′)
            newton = (f + e_t) / g
            halley = xt - newton / (1.0 - 0.5 * newton * g2 / g)
            halley = np.where(np.isfinite(halley), halley, xt - newton)
            noise_step = 4.0 * e_t / g
            tol = np.maximum(_NEWTON_TOL, 8.0 * np.spacing(np.abs(xt)))
            # above the target with a step too small to move x (steep δ: κ ~ 1e4 at ε = 1e6): step down by 2·tol
            # rather than bisect towards the far initial lo (which accepted r = e^{−180} for r = e^{7.2})
            halley = np.where(~safe & ~(halley < xt - tol), xt - 2.0 * tol, halley)
            done = (safe & (np.abs(halley - xt) <= np.maximum(tol, noise_step))) | ((hi_t - lo_t) <= tol)
            answer[idx[done]] = lo_t[done]
            lo_seen[idx[done]] = seen[done]
            inside = np.isfinite(halley) & (halley > lo_t) & (halley < hi_t) & (step < 12)
            xt = np.where(inside, halley, 0.5 * (lo_t + hi_t))
            if np.all(done):
                break
            if np.any(done):
                keep = ~done
                idx, xt, e, lt, e_t, lo_t, hi_t, seen = (v[keep] for v in (idx, xt, e, lt, e_t, lo_t, hi_t, seen))
    missing = np.flatnonzero(~lo_seen | np.isnan(answer))
    if missing.size:  # the bracket closed on the initial lo: the smallest representable r must be checked
        r_min = np.exp(np.full(missing.size, _LOG_R_MIN))
        too_big = _gaussian_log_deltas(eps[missing], r_min) > log_target[missing]
        if np.any(too_big):
            i = missing[np.flatnonzero(too_big)[0]]
            raise ValueError(
                f"delta is too small for a representable sigma at eps={float(eps[i])!r} "
                f"(got delta={float(delta[i])!r}: sigma/sensitivity would exceed 1e308)"
            )
        answer[missing] = _LOG_R_MIN
    return answer


def name_and_shame(n: int, delta) -> FiniteMechanism:
    """Publish each record of x ∈ {0,1}^n independently with probability δ (Dwork & Roth 2014, §2.3).

    An output lists, per record, ``None`` (withheld) or its value.  The mechanism is (0, δ)-DP, and yet
    it publishes somebody's record with probability 1 − (1 − δ)^n (:func:`name_and_shame_exposure`):
    the reason Lecture 1, §5 asks for δ well below 1/n.
    """
    n = check_record_count(n, "n", maximum=8)
    delta = check_delta(delta, scalar=True)
    databases = list(itertools.product((0, 1), repeat=n))
    outputs = list(itertools.product((None, 0, 1), repeat=n))

    def pmf(x, out):
        prob = 1.0
        for value, shown in zip(x, out):
            prob *= (1 - delta) if shown is None else (delta if shown == value else 0.0)
        return prob

    return FiniteMechanism.from_function(databases, outputs, pmf)


def name_and_shame_exposure(n, delta):
    """Probability that the name-and-shame mechanism publishes at least one of n records: 1 − (1 − δ)^n."""
    n = check_positive(n, "n")
    delta = check_delta(delta)
    n, delta = broadcast(n=n, delta=delta)
    with np.errstate(divide="ignore"):  # δ = 1 gives log 0 = −∞ and exposure 1, as it should
        out = -np.expm1(np.multiply(n, np.log1p(-np.asarray(delta))))
    # rounded up: log1p within 1 ulp (2u), the product ½ ulp (u), expm1 1 ulp (2u) with relative condition at most 1
    # for x ≤ 0 — under 5u, raised 6 ulps, at most 1; a positive exposure that underflowed is the smallest float
    out = np.where((out == 0) & (np.asarray(delta) > 0), _rounding.SMALLEST_SUBNORMAL, out)
    return as_output(np.minimum(_rounding.up(out, 6), 1.0))


# ---------------------------------------------------------------------------------------------------
# Mechanisms on a database of one record (used by the claims of K&S and Zhao and by the coursework)
# ---------------------------------------------------------------------------------------------------

__all__ += ["one_record_randomized_response", "leaky_randomized_response"]


def one_record_randomized_response(eps) -> FiniteMechanism:
    """ε-randomized response on a database of one record: databases ``(0,)``, ``(1,)`` (tuples, so that x₋ᵢ
    of Kasiviswanathan & Smith's Games 0..1 and Zhao's adversaries are defined), outputs 0 and 1; the truth
    with probability e^ε/(1 + e^ε) (Lecture 1, randomized response)."""
    return FiniteMechanism(randomized_response(eps).matrix, [(0,), (1,)], [0, 1])


def leaky_randomized_response(eps, delta) -> FiniteMechanism:
    """Randomized response on one record that with probability δ publishes the record instead: outputs
    ``"0"``, ``"1"``, ``"shows 0"``, ``"shows 1"``.  Exactly (ε, δ)-DP: the extremal (ε, δ) pair with four
    outcomes (the worst case of Kairouz, Oh & Viswanath's composition theorem), which the K&S claims attack
    with (ε, δ)-DP mechanisms."""
    delta = float(check_delta(delta, "delta", scalar=True))
    rr = randomized_response(eps).matrix
    m = np.zeros((2, 4))
    m[:, :2] = (1 - delta) * rr
    m[0, 2] = m[1, 3] = delta
    return FiniteMechanism(m, [(0,), (1,)], ["0", "1", "shows 0", "shows 1"])


__all__ += ["clamped_geometric_pmf"]


def clamped_geometric_pmf(centre, eps, low, high) -> np.ndarray:
    """Pr[clamp(centre + Z, low, high) = k] for k = low, …, high, with Z two-sided geometric noise of parameter ε
    (:func:`two_sided_geometric_pmf`): the geometric mechanism of Ghosh, Roughgarden & Sundararajan with its
    output clamped to a finite range, as in K&S's leaky count and the median mechanism of their Corollary 4.4.
    Clamping is post-processing; the end points carry the tails Pr[Z ≤ low − centre] and Pr[Z ≥ high − centre]."""
    centre = check_positive_int(centre, "centre", minimum=-(10**6), maximum=10**6)
    low = check_positive_int(low, "low", minimum=-(10**6), maximum=10**6)
    high = check_positive_int(high, "high", minimum=-(10**6), maximum=10**6)
    if high <= low:
        raise ValueError(f"high must exceed low (got low={low}, high={high})")
    if high - low > 10**6:
        raise ValueError(f"high - low must be at most 10**6 outputs (got low={low}, high={high})")
    eps = float(check_epsilon(eps, "eps", strictly_positive=True, scalar=True))
    a = math.exp(-eps)
    row = np.array(two_sided_geometric_pmf(np.arange(low, high + 1) - centre, eps), dtype=float)
    row[0] = _geometric_tail(centre - low, a)
    row[-1] = _geometric_tail(high - centre, a)
    return row
