"""The privacy-loss random variable: one type, :class:`PrivacyLoss`, for every mechanism of the book.

Kazan, Sharma, Zhang, Jiang & Yan, Definition 2.2: for the output distributions P = law of M(x) (the target
present) and Q = law of M(x₋ᵢ) (the target absent), the privacy loss is ``Z = log P(Y)/Q(Y)`` with Y ~ P.
Theorem 3.1 also needs the loss under the other hypothesis, ``Z′ = log Q(Y)/P(Y)`` with Y ~ Q; a
:class:`PrivacyLoss` is the exact law of Z and carries the law of Z′ as :attr:`PrivacyLoss.dual` (the same object
for the symmetric mechanisms: randomized response, Laplace, Gaussian, geometric).

Everything the book asks of a privacy loss is read from that law:

* its distribution: ``cdf``, ``cdf_left``, ``sf`` (computed directly, never as 1 − cdf), ``ppf``, ``isf``, and
  ``atoms``/``weights`` where the law is discrete;
* the privacy profile (Definition 2.1 through the loss, Kazan et al. Theorem A.2, eqs. (31)–(33)):
  ``delta(ε) = max over both orders of E[(1 − e^{ε − Z})₊] + P[Z = +∞]`` and its inverse ``epsilon(δ)``;
* probabilistic DP (Definition 2.4): ``pdp_delta(ε) = max(P[|Z| > ε], P[|Z′| > ε])`` and its inverse
  ``pdp_epsilon(δ′)``;
* ``rho()``, the zCDP parameter (Definition 2.6) where the law has one in closed form (the Gaussian's μ);
* ``lattice(h)``: the law on a lattice, as a :class:`~dpsemantics.pld.PrivacyLossDistribution` (pessimistic and
  optimistic sides), the one lattice implementation, with which laws of different mechanisms compose.

Constructors: :meth:`PrivacyLoss.finite` (any pair of output distributions), :meth:`PrivacyLoss.randomized_response`
(k runs: the worst case of composing k pure ε₀-DP mechanisms, Kazan et al. Theorem 2.8(3)),
:meth:`PrivacyLoss.laplace`, :meth:`PrivacyLoss.gaussian` and :meth:`PrivacyLoss.geometric`.

Every number that decides a guarantee is computed on the safe side: profiles are the closed forms of
:mod:`~dpsemantics.mechanisms` and :mod:`~dpsemantics.composition` (exact, evaluated without cancellation) or
sums of positive terms enlarged by their rounding allowance; ``epsilon`` and ``pdp_epsilon`` return the upper
end of their search bracket, where the profile enlarged by 1e-12 relative is already below the target.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
from scipy import stats
from scipy.special import expit, log_ndtr

from . import _binomial, _rounding, composition, mechanisms
from .indistinguishability import _pair_hockey  # the finite hockey stick, rounded up
from ._rounding import UNIT_ROUNDOFF as _U  # u, the unit round-off
from ._validate import (as_float, as_output, check_delta, check_distribution_pair, check_epsilon, check_positive,
                        check_positive_int, check_probability)
from .errors import NumericalLimit
from .pld import PrivacyLossDistribution

__all__ = ["PrivacyLoss", "pair_losses"]

_MARGIN = 1e-12  # relative evaluation error allowed for a profile or a tail when an ε is computed from it
_EPS_SEARCH_MAX = np.finfo(float).max  # an ε beyond this is reported as +inf by the generic inverses


def pair_losses(row_present, row_absent):
    """The privacy loss log(P/Q) of every output of a pair (+∞ where Q = 0, −∞ where P = 0; 0 where both are 0):
    the values of Z of Kazan et al., Definition 2.2, for a finite mechanism."""
    a, b = check_distribution_pair(row_present, row_absent, ("row_present", "row_absent"))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.log(a) - np.log(b)
    return as_output(np.where((a == 0) & (b == 0), 0.0, z))


# --------------------------------------------------------------------------------------------------
# Laws of one side, as functions (cdf, cdf_left, ppf, sf, isf)
# --------------------------------------------------------------------------------------------------


def _discrete_law(values, weights):
    """The five functions of the discrete law with atoms ``values`` (±∞ allowed) and masses ``weights``,
    and the sorted atoms and masses (those with mass > 0)."""
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    keep = weights > 0
    values, weights = values[keep], weights[keep]
    order = np.argsort(values)
    values, weights = values[order], weights[order]
    total = float(np.sum(weights))
    # clipped to [0, 1]: the running sums and np.sum (pairwise) round differently, and cdf(top atom) was
    # 1.0000000000000002 for 20 randomized responses (ppf of it then refused q > 1)
    cum = np.minimum(np.cumsum(weights) / total, 1.0)
    cum[-1] = 1.0
    cum_above = np.minimum(np.concatenate([np.cumsum(weights[::-1])[::-1][1:], [0.0]]) / total, 1.0)  # P[Z > v_i]

    def cdf(t):
        idx = np.searchsorted(values, t, side="right")
        return np.where(idx > 0, cum[np.maximum(idx - 1, 0)], 0.0)

    def cdf_left(t):
        idx = np.searchsorted(values, t, side="left")
        return np.where(idx > 0, cum[np.maximum(idx - 1, 0)], 0.0)

    def ppf(q):
        # the first atom whose cdf reaches q (no allowance below q: q − 1e-15 returned, at masses of 1e-300 or
        # q = 0.3 + 1e-16, an atom whose cdf is below q)
        idx = np.searchsorted(cum, q, side="left")
        return values[np.minimum(idx, values.size - 1)]

    def sf(t):
        idx = np.searchsorted(values, t, side="right")  # the first value above t
        return np.where(idx < values.size, np.concatenate([[1.0], cum_above])[np.minimum(idx, values.size)], 0.0)

    def isf(a):
        # the smallest atom v with P[Z > v] ≤ a (cum_above decreases along the atoms)
        idx = np.searchsorted(-cum_above, -a, side="left")
        return values[np.minimum(idx, values.size - 1)]

    return (cdf, cdf_left, ppf, sf, isf), values, weights


def _laplace_law(eps):
    """The loss of the Laplace mechanism with scale Δ/ε between the centres 0 and Δ, Y ~ Lap(0, Δ/ε):
    L(y) = ε(|y − Δ| − |y|)/Δ has an atom at +ε (y ≤ 0, probability ½), an atom at −ε (y ≥ Δ, probability
    e^{−ε}/2) and, for 0 < y < Δ, L = ε(1 − 2y/Δ), a density in between."""
    top, bottom = eps, -eps
    p_top, p_bottom = 0.5, 0.5 * math.exp(-eps)

    def cdf(t):
        # for 0 < y < Δ, L ≤ t ⇔ y/Δ ≥ y* = (1 − t/ε)/2: P[y* ≤ Y/Δ < 1] under Lap(0, 1/ε)
        y_star = np.clip((1 - t / eps) / 2, 0.0, 1.0)
        middle = 0.5 * (np.exp(-eps * y_star) - math.exp(-eps))
        out = np.where(t < bottom, 0.0, p_bottom + middle)
        return np.where(t >= top, 1.0, out)

    def cdf_left(t):
        return cdf(t) - np.where(t == top, p_top, 0.0) - np.where(t == bottom, p_bottom, 0.0)

    def ppf(q):
        # between the atoms P[L ≤ t] climbs from e^{−ε}/2 to 1/2; above 1/2 the quantile is the top atom
        inner = np.clip(2.0 * (q - p_bottom) + math.exp(-eps), math.exp(-eps), 1.0)
        t = eps * (1.0 + 2.0 * np.log(inner) / eps)
        t = np.where(q <= p_bottom, bottom, t)
        return np.where(q > 0.5, top, t)

    def sf(t):
        # L > t ⇔ y < y* (y ≤ 0 gives the top atom): P = 1 − e^{−ε y*}/2, exact in small tails
        y_star = np.clip((1 - t / eps) / 2, 0.0, 1.0)
        out = np.where(t >= top, 0.0, 1.0 - 0.5 * np.exp(-eps * y_star))
        return np.where(t < bottom, 1.0, out)

    def isf(a):
        # the smallest t with P[L > t] ≤ a: the top atom for a < ½ (P[L ≥ ε] = ½), else solve sf(t) = a
        y_star = np.clip(-np.log(np.clip(2.0 * (1.0 - a), 1e-300, None)) / eps, 0.0, 1.0)
        t = eps * (1.0 - 2.0 * y_star)
        return np.where(a < 0.5, top, np.where(a >= 1.0, bottom, t))

    return cdf, cdf_left, ppf, sf, isf


def _quotient_rounded_toward_zero(a: float, n: np.ndarray, d: int, z: np.ndarray) -> np.ndarray:
    """Whether the float z is below |a·n/d| in modulus (a a float, n and d integers, z its computed value),
    decided exactly in integers: a = M·2^E and z = M_z·2^{E_z} with integer mantissas, so
    |a·n/d| > |z| ⇔ M|n|·2^E > M_z·d·2^{E_z}.  One Python-int comparison per atom (about 1 µs)."""
    m, e = math.frexp(a)
    big, exp = int(m * 2**53), e - 53
    mz, ez = np.frexp(np.abs(z))
    mant, expz = (mz * 2.0**53).astype(np.int64), ez - 53

    def below(ni: int, ei: int, mi: int) -> bool:
        lhs, rhs = big * abs(ni), mi * d
        return (lhs << (exp - ei)) > rhs if exp >= ei else lhs > (rhs << (ei - exp))

    return np.fromiter((below(*t) for t in zip(np.asarray(n).tolist(), expz.tolist(), mant.tolist())), bool, z.size)


def _log_ratios_rounded(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The losses log(a/b) of the outputs with a, b > 0, correctly rounded (not log a − log b in floats, a few ulps off
    either way where the two logs cancel), and whether each float is below the exact loss in modulus.  Exact: the
    logs at 160 bits (then 320, 1 000) and the float's side of the exact value decided there, unless the two are
    too close to tell at that precision (a loss log(a/b) ≠ 0 is transcendental, Lindemann, so never equal to a
    float: the loop ends).  About 30 µs an output."""
    z = np.zeros(a.size)
    toward = np.zeros(a.size, dtype=bool)
    for i in np.flatnonzero((a > 0) & (b > 0) & (a != b)):
        for prec in (160, 320, 1000):
            with mpmath.workprec(prec):
                exact = mpmath.log(mpmath.mpf(float(a[i]))) - mpmath.log(mpmath.mpf(float(b[i])))
                zi = float(exact)  # within ½ ulp unless exact is within 2^(10−prec) of a midpoint: checked next
                gap = abs(mpmath.mpf(zi) - exact)
                if gap > abs(exact) * mpmath.mpf(2) ** (12 - prec) and gap < abs(exact) * 2.0**-52:
                    z[i], toward[i] = zi, abs(zi) < abs(exact)
                    break
        else:  # pragma: no cover - within 2⁻⁹⁸⁸ of a float: no such pair of floats is known
            raise ValueError(f"row_present and row_absent give a loss log({a[i]!r}/{b[i]!r}) too close to a float")
    return z, toward


def _gaussian_tail_up(z, r):
    """A float never below the exact Gaussian tail Φ(z*) = P[N(0, 1) ≤ z*], given z, the computed
    fl(fl(t − μ)/s) for the loss N(μ, s²) with μ = fl(r·r/2), s = fl(√(2μ)), r = fl(Δ/σ) (the exact loss has
    μ* = r*²/2, s* = r*, z* = (t − μ*)/s*).  For the upper tail P[N(0, 1) > z*] pass −z.

    * **z:** r = r*(1 + e₁), μ = μ*(1 + e₁)²(1 + e₂), s = r*(1 + e₁)(1 + e₂)^½(1 + e₃), and two roundings in z
      (each |e| ≤ u): z − z* = z*((1 + e₄)(1 + e₅)/((1 + e₁)(1 + e₂)^½(1 + e₃)) − 1) − (μ*/s*)(3u + O(u²)), with
      μ*/s* = r*/2: |z − z*| ≤ B = 6u|z| + 2u·r (rounded up from 4.6u|z*| + 1.51u·r*, z* and r* within
      ~5u of z and r).
    * **Mills' ratio:** |d log Φ(x)/dx| = φ(x)/Φ(x) ≤ |x| + 1 for every x (for x ≤ 0 it is below
      (|x| + √(x² + 4))/2, Birnbaum 1942; for x > 0 below φ(0)/Φ(0) < 0.8), so |log Φ(z) − log Φ(z*)| ≤
      (|z| + B + 1)·B.
    * **log_ndtr:** scipy's ``log_ndtr`` is taken within 8u(x² + 1) of log Φ(x) — *measured*, not derived: the
      largest error against 40-digit mpmath over x ∈ [−955, 40] is 3.3u(x² + 1) (tests/unit/test_underflow.py
      re-measures it, a check that fails if scipy's changes).
    * **the sum and exp:** the log-space bound y is rounded once (½ulp(y) ≤ u|y|, doubled); e^y by
      :func:`~dpsemantics._rounding.exp_no_underflow` (never below e^y below the normal range, within a few
      ulps above it, covered by the factor 1 + 8u); clipped to 1.  Where z ≤ −80 and B ≤ |z|/2, z* ≤ −40 and
      Φ(z*) < e^{−800}: 5e-324 (the slack would overflow there)."""
    z = np.asarray(z, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        az = np.abs(z)
        b = 6.0 * _U * az + 2.0 * _U * r
        log_t = log_ndtr(z)
        slack = (az + b + 1.0) * b + 8.0 * _U * (az * az + 1.0)
        y = log_t + slack
        y = y + 2.0 * _U * np.abs(y)
        out = np.asarray(_rounding.exp_no_underflow(y), dtype=float) * (1.0 + 8.0 * _U)
    out = np.minimum(np.where(np.isnan(out), 1.0, out), 1.0)
    # far below (z ≤ −80 and B ≤ |z|/2, where the slack would overflow): z* ≤ z/2 ≤ −40, Φ(z*) < e^{−800}
    out = np.where((z < -80.0) & (b <= 0.5 * az), _rounding.SMALLEST_SUBNORMAL, out)
    return np.where(np.isinf(z), (z > 0).astype(float), np.where(np.isnan(z), np.nan, out))  # Φ(±∞) exact


def _gaussian_law(sigma: float, sensitivity: float):
    """The loss of the Gaussian mechanism, Z ~ N(μ, 2μ) with μ = r²/2, r = Δ/σ (so s = √(2μ) = r): cdf and sf
    from the log-space tails of :func:`_gaussian_tail_up`, never below the exact values (P[Z ≤ t] and P[Z > t]
    are tails in the two directions; 1 − cdf loses every digit below 1e-16, and scipy's ``sf`` rounds a tail
    below 2.2e-308 to the subnormal grid or to 0); ppf and isf are scipy's, moved to the safe side of the exact
    quantile by :func:`_quantile_on_the_safe_side`.  Returns the five functions and μ."""
    r = float(mechanisms._gaussian_ratio(sigma, sensitivity))  # the r = fl(Δ/σ) the profile is evaluated at
    mu = 0.5 * r * r if r < 1e154 else math.inf
    if not math.isfinite(mu) or mu == 0.0:
        raise NumericalLimit(
            f"sigma must keep the privacy loss finite and non-degenerate: (sensitivity/sigma)**2/2 is {mu!r} "
            f"(got sigma={sigma!r}, sensitivity={sensitivity!r})"
        )
    s = math.sqrt(2 * mu)
    dist = stats.norm(loc=mu, scale=s)

    def z_of(t):
        with np.errstate(over="ignore", invalid="ignore"):
            t = np.asarray(t, dtype=float)
            # t = ±∞ gives ±∞ (the limits); (t − μ)/s within the error _gaussian_tail_up allows
            return np.where(np.isinf(t), t, (t - mu) / s)

    def cdf(t):
        return _gaussian_tail_up(z_of(t), r)

    def sf(t):
        return _gaussian_tail_up(-z_of(t), r)

    def ppf(q):  # the threshold below which at most q lies, exactly: never above the exact quantile
        return _quantile_on_the_safe_side(dist.ppf(q), cdf, q, -1.0, s)

    def isf(a):  # the threshold above which at most a lies, exactly: never below the exact quantile
        return _quantile_on_the_safe_side(dist.isf(a), sf, a, 1.0, s)

    return (cdf, cdf, ppf, sf, isf), mu


def _quantile_on_the_safe_side(t0, tail, level, direction: float, scale: float):
    """scipy's quantile t0 (ndtri, within ~1e-13 relative of the tail: norm.isf(1e-320) left an exact tail
    1.0000000000001 times the level) moved in ``direction`` until ``tail`` — a bound never below the exact tail —
    is at most ``level``: then the exact tail at the returned t is at most the level.  t0 itself where it already
    passes; else steps of 1e-15·(|t| + scale) (a few ulps), doubling (the tails are monotone), at most 80 checks."""
    t = np.array(t0, dtype=float)
    level = np.broadcast_to(np.asarray(level, dtype=float), t.shape)
    with np.errstate(over="ignore", invalid="ignore"):
        bad = np.isfinite(t) & (np.asarray(tail(t)) > level)
        step = 1e-15 * (np.abs(t) + scale)
        for _ in range(80):
            if not np.any(bad):
                break
            t = np.where(bad, t + direction * step, t)
            bad = bad & np.isfinite(t) & (np.asarray(tail(t)) > level)
            step = 2.0 * step
    return t


def _smallest_eps(profile, delta: float, ceiling: float = _EPS_SEARCH_MAX) -> float:
    """The smallest ε ≥ 0 with profile(ε)(1 + 1e-12) ≤ δ, for a non-increasing profile: bisection, returning the
    upper end of the bracket (safe: the margin covers the profile's evaluation error); +inf when not even
    ``ceiling`` reaches δ."""
    ok = lambda e: float(profile(e)) * (1.0 + _MARGIN) <= delta  # noqa: E731 - one test, used four times
    if ok(0.0):
        return 0.0
    if not ok(ceiling):
        return math.inf
    lo, hi = 0.0, min(1.0, ceiling)
    while not ok(hi):
        lo, hi = hi, min(2.0 * hi, ceiling)
    for _ in range(200):
        mid = lo + 0.5 * (hi - lo)  # not 0.5·(lo + hi): that overflows near the float maximum
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
        if hi - lo <= 1e-13 * max(1.0, hi):
            break
    return hi


# --------------------------------------------------------------------------------------------------
# The type
# --------------------------------------------------------------------------------------------------


class PrivacyLoss:
    """The exact law of a privacy-loss random variable Z = log P(Y)/Q(Y), Y ~ P (Kazan et al., Definition 2.2),
    with the law of the loss under the other hypothesis as :attr:`PrivacyLoss.dual` (Z′ = log Q(Y)/P(Y), Y ~ Q).

    Build one with a constructor (:meth:`finite`, :meth:`randomized_response`, :meth:`laplace`,
    :meth:`gaussian`, :meth:`geometric`); the questions are methods.  In the membership setting of Kazan et al.
    §3.1, P is the law of M(x) (target present) and Q that of M(x₋ᵢ): Theorem 3.1 reads the adversary's
    posterior off Z when the target is present and off Z′ when it is absent, which is what
    :mod:`~dpsemantics.disclosure` does with a ``PrivacyLoss``.
    """

    __slots__ = ("name", "atoms", "weights", "_law", "_hockey", "_epsilon", "_rho", "_lattice", "_dual",
                 "_atom_error", "_tail_error", "_edge")

    def __init__(self, name, law, hockey_stick, *, epsilon=None, rho=None, lattice=None, atoms=None, weights=None):
        """Use the constructors.  ``law`` is ``(cdf, cdf_left, ppf, sf, isf)`` on float arrays, ``hockey_stick``
        this side's E[(1 − e^{ε−Z})₊] + P[Z = +∞] (an upper bound), ``epsilon`` the inverse of :meth:`delta` where
        known in closed form, ``lattice(h)`` the :class:`~dpsemantics.pld.PrivacyLossDistribution` of this side."""
        self.name = name
        self._law = law
        self._hockey = hockey_stick
        self._epsilon, self._rho, self._lattice = epsilon, rho, lattice
        self.atoms, self.weights = atoms, weights
        self._dual = self
        self._atom_error = 0.0  # a bound on |computed atom − exact atom| (the atoms are rounded): pdp_epsilon adds it
        self._tail_error = 0.0  # a bound on the relative error of the masses, hence of the tails: pdp_delta adds it
        # (|z|, mass) of the atoms computed below their exact modulus (|exact| > |z|, sorted, masses summed per |z|,
        # normalised): at ε = |z| the exact P[|Z| > ε] holds them and the computed one does not; pdp_delta adds them
        self._edge = None

    def __repr__(self):
        return f"PrivacyLoss({self.name!r})"

    @property
    def dual(self) -> "PrivacyLoss":
        """The law of Z′ = log Q(Y)/P(Y), Y ~ Q: the loss when the target is absent (Theorem 3.1).  The same
        object for a symmetric mechanism, and ``loss.dual.dual is loss``."""
        return self._dual

    # ---- the law ------------------------------------------------------------------------------------
    def _eval(self, which: int, x: np.ndarray) -> np.ndarray:
        """One of the five functions of the law; an intermediate beyond the float range is ±inf, its limit
        (e.g. t/ε for a Laplace ε of 5e-324), and the clipping of the law takes it to the right end."""
        with np.errstate(over="ignore"):
            return np.asarray(self._law[which](x), dtype=float)

    def _at(self, which: int, x, name: str):
        return as_output(self._eval(which, np.asarray(as_float(x, name), dtype=float)))

    def cdf(self, t):
        """P[Z ≤ t].  Broadcasts over ``t`` (±∞ allowed)."""
        return self._at(0, t, "t")

    def cdf_left(self, t):
        """P[Z < t] (differs from :meth:`cdf` at atoms)."""
        return self._at(1, t, "t")

    def ppf(self, q):
        """The q-quantile: the smallest t with P[Z ≤ t] ≥ q."""
        return as_output(self._eval(2, np.asarray(check_probability(q, "q"), dtype=float)))

    def sf(self, t):
        """P[Z > t], computed directly (1 − cdf loses every digit below 1e-16)."""
        return self._at(3, t, "t")

    def isf(self, alpha):
        """The smallest t with P[Z > t] ≤ alpha (the upper quantile, accurate for tiny alpha)."""
        return as_output(self._eval(4, np.asarray(check_probability(alpha, "alpha"), dtype=float)))

    def prob_between(self, a, b):
        """P[a ≤ Z ≤ b] (closed interval; 0 when b < a)."""
        a, b = np.asarray(as_float(a, "a"), dtype=float), np.asarray(as_float(b, "b"), dtype=float)
        return as_output(np.where(b >= a, self._eval(0, b) - self._eval(1, a), 0.0))

    def prob_abs_greater(self, t):
        """P[|Z| > t], from the survival function (no 1 − cdf cancellation in small tails)."""
        t = np.asarray(as_float(t, "t"), dtype=float)
        return as_output(self._eval(3, t) + self._eval(1, -t))

    # ---- approximate DP: the privacy profile ---------------------------------------------------------
    def hockey_stick(self, eps):
        """This side's hockey-stick divergence E[(1 − e^{ε − Z})₊] + P[Z = +∞] = sup_E P(E) − e^ε Q(E)
        (Kazan et al. Theorem A.2, eq. (32)); never below the exact value.  Broadcasts over ``eps``."""
        eps = np.asarray(check_epsilon(eps, "eps"), dtype=float)
        with np.errstate(over="ignore"):  # ε − z beyond the float range: ±inf, whose term is the limit
            return as_output(self._hockey(eps))

    def delta(self, eps):
        """The privacy profile: the smallest δ with which the pair is (ε, δ)-DP in both orders (Kazan et al.
        Definition 2.1), the larger of the two hockey-stick divergences.  Exact (closed forms, or sums of
        positive terms) and never below the exact value.  Broadcasts over ``eps``."""
        eps = np.asarray(check_epsilon(eps, "eps"), dtype=float)
        with np.errstate(over="ignore"):  # ε − z beyond the float range: ±inf, whose term is the limit
            out = self._hockey(eps)
            if self._dual is not self:
                out = np.maximum(out, self._dual._hockey(eps))
        return as_output(out)

    def epsilon(self, delta) -> float:
        """The smallest ε ≥ 0 with :meth:`delta` (ε) ≤ δ (``inf`` when no ε reaches δ, e.g. when the loss is +∞ with
        probability above δ); on the safe side: never below the exact value."""
        delta = float(check_delta(delta, "delta", open_low=True, scalar=True))
        if self._epsilon is not None:
            return float(self._epsilon(delta))
        return _smallest_eps(lambda e: self.delta(e), delta)

    # ---- probabilistic DP --------------------------------------------------------------------------
    def pdp_delta(self, eps):
        """The smallest δ with which the pair is (ε, δ)-PDP (Kazan et al., Definition 2.4):
        ``max(P[|Z| > ε], P[|Z′| > ε])``.  Broadcasts over ``eps`` (ε = +∞ allowed: δ = 0)."""
        eps = np.asarray(check_epsilon(eps, "eps", allow_inf=True), dtype=float)
        sides = [self] if self._dual is self else [self, self._dual]
        out = np.max([(np.asarray(s.prob_abs_greater(eps), dtype=float) + s._edge_mass(eps)) * (1.0 + s._tail_error)
                      for s in sides], axis=0)
        return as_output(np.minimum(out, 1.0))

    def pdp_epsilon(self, delta_prime, *, eps_max=None) -> float:
        """The smallest ε′ with ``pdp_delta(ε′) ≤ δ′``: the mechanism's own PDP ε at δ′, to compare with the
        worst case ε′ of Theorem 3.9.

        Safe by construction: the tails are the laws' survival functions (no 1 − cdf), the returned ε′ is the
        upper end of the bisection bracket, where P[|Z| > ε′](1 + 1e-12) ≤ δ′ (the factor covers the evaluation
        error of the tails), so ε′ is never below the exact value.  ``inf`` when no finite ε′ reaches δ′ (the loss
        is infinite with probability above δ′); with ``eps_max``, a ``ValueError`` when no ε′ up to ``eps_max``
        reaches δ′."""
        delta_prime = check_delta(delta_prime, "delta_prime", open_low=True, scalar=True)
        ceiling = _EPS_SEARCH_MAX if eps_max is None else float(check_positive(eps_max, "eps_max", scalar=True))
        out = _smallest_eps(lambda t: self.pdp_delta(t), delta_prime, ceiling)
        # the atoms are rounded (the float ε·(2j − k) of randomized response, 1.0 for the exact 10·fl(0.1) =
        # 1.00000000000000005551): the exact ε′ may exceed the computed one by the atoms' error, added upwards
        err = max(self._atom_error, self._dual._atom_error)
        if err > 0.0 and 0.0 < out < math.inf:
            out = float(np.nextafter(out + err, math.inf))
        elif err > 0.0 and out == 0.0:
            out = err
        if eps_max is not None and out > eps_max:
            raise NumericalLimit(f"delta_prime is too small: no eps up to eps_max={eps_max!r} reaches it "
                             f"(got delta_prime={delta_prime!r})")
        return out

    def _set_edge(self, moduli: np.ndarray, masses: np.ndarray) -> None:
        order = np.argsort(moduli)
        moduli, masses = moduli[order], masses[order]
        unique, start = np.unique(moduli, return_index=True)
        self._edge = (unique, np.add.reduceat(masses, start))

    def _edge_mass(self, eps: np.ndarray) -> np.ndarray:
        """The mass of the atoms whose computed modulus is ε and whose exact one is above it (see ``_edge``)."""
        if self._edge is None:
            return np.zeros(np.shape(eps))
        moduli, masses = self._edge
        idx = np.minimum(np.searchsorted(moduli, eps), moduli.size - 1)
        return np.where(moduli[idx] == eps, masses[idx], 0.0)

    # ---- zCDP and the lattice ------------------------------------------------------------------------
    def rho(self) -> float | None:
        """The zCDP parameter (Kazan et al. Definition 2.6: the smallest ρ with E[e^{(α−1)Z}] ≤ e^{α(α−1)ρ} for
        every α > 1, both orders) where the law has it in closed form (the Gaussian: ρ = μ), else ``None``."""
        return self._rho

    def lattice(self, h=None) -> PrivacyLossDistribution:
        """This side's law on the lattice {i·h}, pessimistic and optimistic
        (:class:`~dpsemantics.pld.PrivacyLossDistribution`; ``h=None``: the engine's default step).  Laws of
        different mechanisms compose there (``a.lattice(h).compose(b.lattice(h))``)."""
        return self._lattice(h)

    # ---- constructors --------------------------------------------------------------------------------
    @classmethod
    def _discrete(cls, name, values, weights, hockey, *, atom_error, epsilon=None):
        """A discrete law; ``atom_error`` bounds |computed atom − exact atom| over the atoms."""
        law, values, weights = _discrete_law(values, weights)
        loss = cls(name, law, hockey, epsilon=epsilon, atoms=values, weights=weights,
                   lattice=lambda h: PrivacyLossDistribution.from_atoms(values, weights, h=h))
        loss._atom_error = float(atom_error)
        # the tails are running sums of the n masses over their total (np.sum), each sum of positive terms within
        # (n − 1)u relative, the quotient ½u, and pdp_delta's factor (1 + this) two roundings more: (2n + 8)u, 1 %
        # spare.  A constructor whose masses carry their own error adds it (finite pairs: the masses as given)
        loss._tail_error = (2.0 * values.size + 8.0) * _U * 1.01
        return loss

    @classmethod
    def finite(cls, row_present, row_absent, name: str = "") -> "PrivacyLoss":
        """The loss of a finite mechanism from its two output distributions (``row_present`` = P, the law of
        M(x); ``row_absent`` = Q, the law of M(x₋ᵢ)), with :func:`pair_losses`; outputs impossible under one row
        give infinite losses.  The dual is the loss of the pair in the other order."""
        a, b = check_distribution_pair(row_present, row_absent, ("row_present", "row_absent"))
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        z = np.asarray(pair_losses(a, b), dtype=float)
        # the finite losses correctly rounded, and those rounded toward 0: at ε = |z| the exact tail holds them
        both = (a > 0) & (b > 0)
        rounded, toward = _log_ratios_rounded(a, b)
        z = np.where(both, rounded, z)
        # log a − log b: each log within 1 ulp (2u relative), the difference within ½ ulp of itself
        with np.errstate(divide="ignore"):
            logs = [float(np.max(np.abs(np.log(r[r > 0])), initial=0.0)) for r in (a, b)]
        err = 4.0 * _U * (logs[0] + logs[1])
        present = cls._discrete(name, z, a, _pair_hockey(a, b), atom_error=err)
        absent = cls._discrete(name, -z, b, _pair_hockey(b, a), atom_error=err)
        present._dual, absent._dual = absent, present
        if np.any(toward):
            for side, w in ((present, a), (absent, b)):
                side._set_edge(np.abs(z[toward]), w[toward] / float(np.sum(w[w > 0])))
        return present

    @classmethod
    def randomized_response(cls, eps, k=1) -> "PrivacyLoss":
        """k independent ε-randomized responses about the target: Z = ε(2B − k), B ~ Binomial(k, e^ε/(1 + e^ε))
        (k = 1: Z = ±ε with probabilities expit(±ε)); Z′ has the same law.

        Kairouz, Oh & Viswanath (2015) show that this composition attains the optimal composition bound of
        Kazan et al. Theorem 2.8(3), so :meth:`delta` and :meth:`epsilon` are
        :func:`~dpsemantics.composition.optimal_delta` and :func:`~dpsemantics.composition.optimal_epsilon` (whose
        private engine evaluates the same binomial law, on a window of O(√k) terms, in log space).  The atoms
        are kept on the window of B whose probabilities are within e^{−800} of the largest (the rest, below
        1e-340 in total, is below every float δ′), so k up to 10⁹ fits in memory."""
        eps0 = float(check_epsilon(eps, "eps", strictly_positive=True, scalar=True))
        k = check_positive_int(k, "k", maximum=10**9)
        if k == 1:
            z, w = np.array([eps0, -eps0]), np.array([expit(eps0), expit(-eps0)])
            name = f"randomized response, eps={eps0:g}"
        else:
            keep = float(expit(eps0))
            mode = min(int((k + 1) * keep), k)
            width = int(40.0 * math.sqrt(k * keep * (1.0 - keep))) + 50
            j = np.arange(max(0, mode - width), min(k, mode + width) + 1)
            q, p, log_q, log_p = _binomial.flip_probabilities(eps0)
            w = np.exp(_binomial.log_binom_pmf(j, k, log_p, log_q, p, q))  # j answers kept, each with p
            # each mass within e^{E_j}(1 ± 2u) of the exact one (exp within 1 ulp); the tails are sums of n masses
            # divided by the sum of all n (two sums of non-negative terms, within γ_n each, and one division): a tail
            # is within e^{2E}(1 + (2n + 8)u) of the exact one, E = max_j E_j — above 1e-290, where the masses and
            # their partial sums are normal floats (a subnormal sum is off by 2⁻¹⁰⁷⁵ per addition instead)
            kept = w > 0  # the masses the law keeps (_discrete_law drops the rest)
            log_error = float(np.max(_binomial.log_mass_error(j[kept], k, p, q, log_p, log_q), initial=0.0))
            tail_error = math.expm1(2.0 * log_error + 4.0 * _U) + (2.0 * j.size + 8.0) * _U * 1.01
            with np.errstate(over="ignore"):  # ε·k beyond the float range: the loss is ±∞ there, its limit
                z = eps0 * (2 * j - k)
            # the atoms rounded toward 0 (the product rounded away from 0 differs): at t = |z| the exact tail holds
            # them (pdp_delta at such a t was below the exact tail at 550 of 2 100 atoms sampled, k = 101 … 10⁵)
            toward_zero = (_rounding.mul_away(eps0, (2 * j - k).astype(float)) != z) & np.isfinite(z) & (w > 0)
            name = f"{k}-fold randomized response, eps0={eps0:g}"
        # ε·(2j − k): an exact integer times ε, rounded once (error ≤ ½ ulp ≤ u·|z|; ε·k bounds |z|)
        loss = cls._discrete(name, z, w, lambda e: np.asarray(composition.optimal_delta(e, eps0, k), dtype=float),
                             atom_error=2.0 * _U * eps0 * k,
                             epsilon=lambda d: composition.optimal_epsilon(eps0, k, d))
        loss._lattice = lambda h: PrivacyLossDistribution.randomized_response(eps0, h=h).self_compose(k)
        # the masses are Loader's saddle-point form (_binomial.log_binom_pmf) with the error bound derived in
        # log_mass_error, O(√k·u) (scipy's binom.logpmf, used before, is off by up to 23·k ulps and needed a
        # measured 64·k-ulp allowance: without one randomized_response(0.3, 10**5).pdp_epsilon(5.885021422788781e-16)
        # returned 5216.4, where the exact tail is 5.88502142291e-16 > δ′).  k = 1: expit(±ε₀), within 4u each.
        loss._tail_error = tail_error if k > 1 else 16.0 * _U
        if k > 1 and np.any(toward_zero):
            loss._set_edge(np.abs(z[toward_zero]), w[toward_zero] / float(np.sum(w[w > 0])))
        return loss

    @classmethod
    def laplace(cls, eps) -> "PrivacyLoss":
        """The Laplace mechanism with scale Δ/ε (pure ε-DP): Z has atoms at +ε (probability ½) and −ε (probability
        e^{−ε}/2) and a density in between; Z′ has the same law by symmetry.  Its profile is
        :func:`~dpsemantics.mechanisms.laplace_delta`, δ(ε′) = (1 − e^{(ε′ − ε)/2})₊, inverted in closed form."""
        eps0 = float(check_epsilon(eps, "eps", strictly_positive=True, scalar=True))

        def epsilon(delta):
            # ε′ = ε + 2·log1p(−δ): log1p within 1 ulp of itself (doubled exactly), the sum within half an ulp of
            # itself; raised by twice that bound, so the ε′ returned is never below the exact one
            if delta >= 1.0:
                return 0.0
            # solved at δ(1 − 64u): below the profile's own enlargement (16 ulps), so delta(ε′) ≤ δ as computed too
            log_part = 2.0 * math.log1p(-delta * (1.0 - 64.0 * _U))
            e = eps0 + log_part
            return max(e + 2.0 * (math.ulp(log_part) + math.ulp(e)), 0.0)

        return cls(f"Laplace, eps={eps0:g}", _laplace_law(eps0),
                   # (1 − e^x)₊ with x = (ε′ − ε)/2 within 3 ulps relative (x within 1 ulp; the relative condition
                   # number of 1 − e^x is below 1 for x ≤ 0), rounded to nearest: enlarged by 8 ulps, never short
                   lambda e: np.minimum(np.asarray(mechanisms.laplace_delta(e, eps0), dtype=float) * (1.0 + 16.0 * _U),
                                        1.0),
                   epsilon=epsilon,
                   lattice=lambda h: PrivacyLossDistribution.laplace(eps0, h=h))

    @classmethod
    def gaussian(cls, sigma, sensitivity=1.0) -> "PrivacyLoss":
        """The Gaussian mechanism N(f(x), σ²) with sensitivity Δ: Z ~ N(μ, 2μ), μ = Δ²/(2σ²), and Z′ has the same
        law.  Its profile is the exact one of Balle & Wang (2018, Theorem 8),
        :func:`~dpsemantics.mechanisms.gaussian_delta`; ρ = μ (Bun & Steinke 2016, Proposition 1.6), so a ρ-zCDP
        Gaussian has μ = ρ and k runs add their μ."""
        sigma = float(check_positive(sigma, "sigma", scalar=True))
        sensitivity = float(check_positive(sensitivity, "sensitivity", scalar=True))
        law, mu = _gaussian_law(sigma, sensitivity)
        return cls(f"Gaussian, sigma={sigma:g}", law,
                   # ρ = Δ²/(2σ²) exactly, rounded up (μ, the law's mean, is rounded to nearest)
                   lambda e: mechanisms.gaussian_delta(e, sigma, sensitivity),
                   rho=_rounding.rational_up(Fraction(sensitivity) ** 2 / (2 * Fraction(sigma) ** 2)),
                   epsilon=lambda d: mechanisms.gaussian_epsilon(d, sigma, sensitivity),
                   lattice=lambda h: PrivacyLossDistribution.gaussian(sigma, sensitivity, h=h))

    @classmethod
    def geometric(cls, eps, sensitivity=1) -> "PrivacyLoss":
        """The two-sided geometric mechanism (Ghosh, Roughgarden & Sundararajan 2012) with noise ratio a = e^{−ε/Δ}
        and whole sensitivity Δ, between the counts 0 and Δ: Z = ε for noise ≤ 0 (probability 1/(1 + a)),
        ε(Δ − 2j)/Δ for noise j ∈ {1, …, Δ − 1} (:func:`~dpsemantics.mechanisms.two_sided_geometric_pmf`), −ε for
        noise ≥ Δ (probability a^{Δ}/(1 + a)); Z′ has the same law.  Pure ε-DP; with Δ = 1 the law is randomized
        response's."""
        eps0 = float(check_epsilon(eps, "eps", strictly_positive=True, scalar=True))
        d = check_positive_int(sensitivity, "sensitivity", maximum=10**6)
        if eps0 / d == 0.0:  # the noise's ε/Δ underflows: refused here, with the caller's ε (not the quotient's 0.0)
            raise NumericalLimit(f"eps is too small for sensitivity={d}: eps/sensitivity underflows to 0 "
                             f"(got eps={eps!r})")
        a = math.exp(-eps0 / d)
        j = np.arange(1, d)
        z = np.concatenate([[eps0, -eps0], eps0 * (d - 2 * j) / d])
        with np.errstate(under="ignore"):
            w = np.concatenate([[1.0 / (1.0 + a), math.exp(-eps0) / (1.0 + a)],  # a^Δ = e^{−ε}, not a**Δ
                                np.atleast_1d(mechanisms.two_sided_geometric_pmf(j, eps0 / d)) if d > 1 else []])
        # the atoms' Q-masses, by symmetry the P-masses of the atoms −z (the noise j under Q is Δ − j under P): exact,
        # where w·e^{−z} overflowed at ε = 1.7e308; the profile is the hockey stick of that merged pair
        q = np.concatenate([[w[1], w[0]], w[2:][::-1]])
        # each mass within (2ε + 6) ulps relative: tanh/exp/division within 1 ulp each, e^{−εj/Δ}'s argument
        # rounded twice (≤ 2u·ε absolute)
        mass_error = min((4.0 * eps0 + 8.0) * _U, 1.0)
        loss = cls._discrete(f"geometric, eps={eps0:g}, sensitivity={d}", z, w,
                             _pair_hockey(w, q, mass_error=mass_error),
                             atom_error=4.0 * _U * eps0)  # ε·(Δ − 2j)/Δ: two roundings, each ≤ u·ε
        loss._lattice = lambda h: PrivacyLossDistribution.geometric(eps0, d, h=h)
        loss._tail_error += mass_error  # the masses' own error on top of their sums'
        if d > 1:  # the inner atoms ε(Δ − 2j)/Δ whose float is below the exact modulus: pdp_delta adds them at ε = |z|
            inner = z[2:]
            toward = _quotient_rounded_toward_zero(eps0, d - 2 * j, d, inner) & (w[2:] > 0)
            if np.any(toward):
                loss._set_edge(np.abs(inner[toward]), w[2:][toward] / float(np.sum(w[w > 0])))
        return loss
