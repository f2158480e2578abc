"""The engine behind :func:`dpsemantics.composition.optimal_delta` and :func:`~dpsemantics.composition.optimal_epsilon`:
the exact optimal composition of k (ε₀, δ₀)-DP mechanisms (Kairouz, Oh & Viswanath 2015, Theorem 3.3) evaluated
as the k-fold randomized-response profile δ_RR(ε), in logs, over windows of the binomial terms that matter, with
every evaluation error bounded and added on the safe side.

Private: the readable API, with the theorems, is :mod:`dpsemantics.composition`; this module holds the machinery
(profiles of one mechanism, tables of many, row windows, blocks of inputs, the evaluation margin) and its tuning
constants.  Nothing here validates its arguments: the public functions do.
"""

from __future__ import annotations

import functools
import math

import mpmath
import numpy as np
from scipy.signal import lfilter

from . import _binomial, _rounding
from ._rounding import UNIT_ROUNDOFF as _U  # u, the unit round-off

# --------------------------------------------------------------------------------------------------
# Optimal homogeneous composition (Kazan Theorem 2.8(3); Kairouz, Oh & Viswanath 2015, Theorem 3.3)
# --------------------------------------------------------------------------------------------------


def _lattice_gap(eps: np.ndarray, eps0: float, n: np.ndarray) -> np.ndarray:
    """ε − n·ε₀ for whole n, exactly rounded (Dekker's two-product): a lattice point given in floats is hit
    exactly, and the factor 1 − e^{ε − nε₀} keeps its relative accuracy next to it."""
    n = np.asarray(n, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        prod = n * eps0
        # the splitting below overflows past ~1e300: there ε₀ is scaled by 2⁻⁸⁰ first (exact), and the error back
        scale = np.where(np.abs(eps0) > 1e290, 2.0**-80, 1.0)
        split = 134217729.0  # 2^27 + 1
        def halves(x):
            t = split * x
            hi = t - (t - x)
            return hi, x - hi
        nh, nl = halves(n)
        eh, el = halves(eps0 * scale)
        err = (((nh * eh - prod * scale) + nh * el + nl * eh) + nl * el) / scale
        gap = (eps - prod) - err
    return np.where(np.isfinite(prod), gap, -np.inf)


_SAFETY = 1e-12  # relative margin for the evaluation error of δ when a guarantee is computed
_K_DIRECT = 20_000  # up to here all ⌈k/2⌉ terms are computed at once (cheaper than locating the window)


def _piece_epsilon(t, D_j, D_prev, T_j, upper, lower, width):
    """The ε on piece j [lower, upper] (upper = L_j) where δ_RR = t, D_{j−1} < t ≤ D_j, in closed form from whichever
    end is nearer: ε = lower + log1p((D_j − t)/C_j), C_j = e^{−width}T_j, or ε = L_j + log1p(−(t − D_{j−1})/T_j),
    clipped to the piece.  Where C_j underflows to 0 (a window's last piece, down to ε = 0, wider than ~745) the upper
    form is taken: the lower one would give ∞, clipped to L_j, an ε too large by up to the width (it was: ε₀ = 300,
    k = 1001, δ = 0.9 gave 300 300 for 300 297.70)."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        C_j = T_j * np.exp(-width)
        near_lower = (D_j - t <= t - D_prev) & (C_j > 0.0)
        eps = np.where(near_lower, lower + np.log1p((D_j - t) / C_j), upper + np.log1p(-(t - D_prev) / T_j))
    eps = np.where(np.isnan(eps), upper, eps)  # (not reached: the chosen branch is finite) the safe end
    return np.minimum(np.maximum(eps, lower), upper)


_CAP = math.exp(700.0)  # a table's terms above e^{700} (in units of e^{ref}) are capped there: see _piece_sums


def _piece_sums(P: np.ndarray, g, gain: np.ndarray):
    """The sums of the piecewise form of δ_RR over a window of terms P_ℓ (units of e^{ref}; P is overwritten), down
    axis 0 (one column per mechanism, or 1-d for one): T_j = min(P_j, e^{700}) + g·T_{j−1} (``lfilter``, g = e^{−2ε₀},
    per column) and D_j = D_{j−1} + gain_j·T_j (``cumsum``, gain_j = 1 − e^{−width_j}, δ gained over piece j).  A
    capped term lies far above every target of its table, but where 1 − e^{−2ε₀} < e^{−696} (ε₀ < 1e-302) its capped
    gain no longer carries D over them (optimal_epsilon(5e-324, 999, 5e-324) was 0 where δ(0) = 1.4e-322): from the
    first capped term on, D is ∞ (the solver stops at or before that row; :func:`_log_piece_bound` returns ∞ past
    it).  :meth:`_RRRows._sweep` is the same recurrence row by row."""
    capped = P >= _CAP
    T = np.minimum(P, _CAP, out=P)  # (P is overwritten)
    if T.ndim == 1:
        T = lfilter([1.0], [1.0, -g], T)
    else:
        for i in range(T.shape[1]):
            T[:, i] = lfilter([1.0], [1.0, -g[i]], T[:, i])
    D = np.cumsum(gain * T, axis=0)
    if capped.any():
        D[np.logical_or.accumulate(capped, axis=0)] = np.inf
    return T, D


def _log_piece_bound(D_prev, T_j, D_j, gap, terms, per_term: float, dropped, log_error):
    """An upper bound on log δ_RR(ε) on piece j (units of the tables): log(D_{j−1} + T_j(1 − e^{gap})), gap = ε − L_j
    (exact, :func:`_lattice_gap`), raised by the rounding of the sums of :func:`_piece_sums` over ``terms`` = j + 1
    terms — relative (per_term·terms + 808)u (each term e^{log P − ref} within 808u, |log P − ref| ≤ 800; the sums
    and, for the rows, the ratio steps ``per_term``u a term), absolute (6·terms + 8)·2⁻¹⁰⁷⁴ in the subnormal range
    — with ``dropped`` (the terms outside the window) added and ``log_error`` (the error of the terms' first
    logarithms) added to the logarithm; ∞ where D_j is ∞ (a capped term at or before j, :func:`_piece_sums`)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        value = D_prev + T_j * -np.expm1(gap)
        value = value * (1.0 + (per_term * terms + 808.0) * _U) + (6.0 * terms + 8.0) * 2.0**-1074 + dropped
        return np.where(D_j == np.inf, np.inf, np.log(value) + log_error)


class _RRProfile:
    """The k-fold composition of ε₀-randomized response, the worst case of Kairouz, Oh & Viswanath (2015).

    Its privacy loss is L_ℓ = ε₀(k − 2ℓ) with probability P_ℓ = C(k, ℓ) q^ℓ (1 − q)^{k−ℓ},
    q = 1/(1 + e^{ε₀}) (ℓ = the number of flipped answers).  Only the terms with P_ℓ above ``log_floor``
    are kept: ℓ runs over one window [lo, hi] around the binomial mode, whose size grows like √k, so time
    and memory are O(√k).  ``cut``: the largest ℓ any caller reads (optimal_delta: its entries' last active ℓ); for
    large k the rows past it are not formed (the window's ends, and so ``log_error``, stay those of the whole window:
    an entry gets the same bits whatever the cut).  Without it, a δ far in the tail (ε₀ = 0.5, k = 10⁹, ε just
    below kε₀: log δ ≈ −4.7·10⁸, every term above the floor) formed all ⌈k/2⌉ rows and ran out of memory.
    """

    def __init__(self, eps0: float, k: int, log_floor: float, cut: int | None = None):
        self.eps0, self.k = eps0, k
        self.q, self.p, self.log_q, self.log_p = _binomial.flip_probabilities(eps0)
        self.m = (k + 1) // 2  # ℓ = 0 … m − 1 have L_ℓ > 0
        if k <= _K_DIRECT:  # small k: every active term at once, the window by mask (log P is unimodal)
            ell = np.arange(self.m, dtype=float)
            logP = self._log_p(ell)
            keep = np.flatnonzero(logP >= log_floor)
            window = slice(keep[0], keep[-1] + 1) if keep.size else slice(0, 0)
            self.ell, self.logP = ell[window], logP[window]
            self.log_error = self._window_error()
            return
        # large k: a window around the mode, sized by the normal approximation and widened until both
        # ends are below the floor (log P is concave in ℓ, so everything outside is lower still)
        mode = _binomial.binomial_mode(eps0, k)
        lp = lambda i: float(self._log_p(np.array([float(i)]))[0])  # noqa: E731
        sd = math.sqrt(k * self.q * self.p)
        offset = int(1.5 * (math.sqrt(2.0 * max(lp(mode) - log_floor, 0.0)) + 3.0) * sd) + 10
        lo_off = hi_off = offset
        while mode - lo_off > 0 and lp(mode - lo_off) >= log_floor:
            lo_off *= 2
        while mode + hi_off < k and lp(mode + hi_off) >= log_floor:
            hi_off *= 2
        lo, top = max(mode - lo_off, 0), min(mode + hi_off, self.m - 1)
        lo = _window_start(lambda x: self._log_p(x.astype(float)) >= log_floor, lo, mode)
        if cut is not None and lo <= cut < top:
            ends = self._log_p(np.array([float(lo), float(top)]))
            if np.all(np.isfinite(ends)):  # (else some masses underflow: the window is formed whole, below)
                self.ell = np.arange(lo, cut + 1, dtype=float)
                self.logP = self._log_p(self.ell)
                self.log_error = _binomial.window_log_mass_error(lo, top, k, self.q, self.p, self.log_q, self.log_p)
                return
        self.ell = np.arange(lo, top + 1, dtype=float) if lo <= top else np.zeros(0)
        self.logP = self._log_p(self.ell)
        self.log_error = self._window_error()

    def _log_p(self, ell):
        return _binomial.log_binom_pmf(ell, self.k, self.log_q, self.log_p, self.q, self.p)

    def _window_error(self) -> float:
        """The largest error of log P_ℓ over the window against the exact masses (Loader's form evaluated in floats
        at the float q and p: ``_binomial.window_log_mass_error``, derived, O(√k·u)).  Every sum the tables form
        has positive weights, so its relative error is at most this one number (with the tables' own rounding,
        allowed in :meth:`bound`); added to :meth:`bound`'s logarithm and to the solver's margin.  (The measured
        1e-14·√k of ``_evaluation_margin`` was below it: at ε₀ = 0.0037, k = 13 967, δ = 1e-226 the float log P was
        off by 1.8e-11 against 2.2e-12 allowed, and optimal_epsilon's ε had δ 1.0000000000059 times the target.)"""
        formed = self.ell[np.isfinite(self.logP)]  # (−inf: k·q underflowed, a mass below e^{−744} formed as 0)
        if formed.size == 0:
            return 0.0
        return _binomial.window_log_mass_error(int(formed[0]), int(formed[-1]), self.k, self.q, self.p,
                                               self.log_q, self.log_p)

    def tables(self, ref: float):
        """The piecewise form of δ_RR in units of e^{ref}, once per profile, for :meth:`solve` and :meth:`bound`.

        On a piece [lower_j, L_j] between lattice points only ℓ ≤ j are active, so δ_RR(ε) = A_j − e^ε B_j
        with A_j = Σ_{ℓ≤j} P_ℓ, B_j = Σ_{ℓ≤j} P_ℓ e^{−L_ℓ}.  With T_j = e^{L_j} B_j = P_j + e^{−2ε₀} T_{j−1}
        (a positive recurrence) the values at the lower ends are D_j = D_{j−1} + (1 − e^{−2ε₀}) T_j — sums of
        positive terms only, in linear space scaled by e^{ref} (terms above e^{ref + 700} are capped there:
        they exceed every target of the group, whose targets lie in [e^{ref}, e^{ref + 64}); :func:`_piece_sums`).
        The window's last piece reaches down to ε = 0 (the terms past it are below target·e^{−60}/k)."""
        e0, ell = self.eps0, self.ell
        with np.errstate(over="ignore", invalid="ignore"):  # ε₀ near the float maximum: ∞ − ∞ in the lower ends
            g, c = math.exp(-2.0 * e0), -math.expm1(-2.0 * e0)
            upper = e0 * (self.k - 2.0 * ell)
            last_piece = np.zeros(ell.size, dtype=bool)
            last_piece[-1] = True
            lower = np.where(last_piece, 0.0, np.maximum(upper - 2.0 * e0, 0.0))
            width = np.where(np.isinf(upper), np.inf, upper - lower)  # kε₀ beyond the float range: an endless piece
            gain = np.where(width == 2.0 * e0, c, -np.expm1(-width))  # δ gained over each piece, per unit of T
            T, D = _piece_sums(np.exp(self.logP - ref), g, gain)
        return T, D, upper, lower, width

    def solve(self, tables, log_target: np.ndarray) -> np.ndarray:
        """The smallest ε ≥ 0 with δ_RR(ε) ≤ e^{log_target} (``log_target`` in the units of ``tables``), for
        many targets at once: the first j with D_j ≥ target holds the answer, in closed form from whichever
        end of the piece is nearer: ε = lower_j + log1p((D_j − t)/C_j), C_j = e^{−2ε₀}T_j, or
        ε = L_j + log1p(−(t − D_{j−1})/T_j)."""
        T, D, upper, lower, width = tables
        t = np.exp(log_target)
        j = np.searchsorted(D, t, side="left")
        out = np.zeros(t.shape)
        on = j < D.size  # past the window: δ_RR(0) ≤ target, ε = 0
        j, t = j[on], t[on]
        D_prev = np.where(j > 0, D[np.maximum(j - 1, 0)], 0.0)
        out[on] = _piece_epsilon(t, D[j], D_prev, T[j], upper[j], lower[j], width[j])
        return out

    def bound(self, tables, eps: np.ndarray, dropped: float = 0.0) -> np.ndarray:
        """An upper bound on the float evaluation of log δ_RR(ε) (units of ``tables``; −inf where 0), for many ε:
        on the piece of the last active ℓ (found with the exact lattice gap), δ_RR(ε) = D_{j−1} + T_j(1 − e^{ε−L_j})
        (the positive-sum form of :meth:`tables`), raised by the rounding of the sums that formed it: T_j and
        D_{j−1} are sums of at most j + 1 positive terms each formed within a few ulps, and each P_ℓ = e^{log P_ℓ −
        ref} is off by u·|log P_ℓ − ref| ≤ 800u where it matters, so the relative error is below
        (3(j + 1) + 808)·u; in the subnormal range each operation may add an absolute 2⁻¹⁰⁷⁵ instead, so
        (6(j + 1) + 8)·2⁻¹⁰⁷⁴ is added as well; ``dropped`` (units of the tables) bounds the terms outside the
        window and is added; last the logarithm is raised by the derived error of the window's log-masses against
        the exact ones (``log_error``, :meth:`_window_error`), which bounds the relative error of every such sum."""
        T, D, upper, _, _ = tables
        n = self.k - 2.0 * self.ell
        # the last ℓ with L_ℓ > ε: L decreases along the window, and the lattice points are 2ε₀ apart, so the
        # float search is off by at most one; the exact gaps of the two candidates decide
        j = np.searchsorted(-upper, -eps, side="left") - 1
        nxt = np.minimum(j + 1, D.size - 1)
        here = np.maximum(j, 0)
        gap_next = _lattice_gap(eps, self.eps0, n[nxt])
        gap_here = _lattice_gap(eps, self.eps0, n[here])
        take_next = (j + 1 < D.size) & (gap_next < 0)
        take_here = ~take_next & (j >= 0) & (gap_here < 0)
        j = np.where(take_next, j + 1, np.where(take_here, j, j - 1))
        gap = np.where(take_next, gap_next, gap_here)
        redo = ~take_next & ~take_here & (j >= 0)  # stepped back one: its gap is formed anew
        if np.any(redo):
            gap[redo] = _lattice_gap(eps[redo], self.eps0, n[j[redo]])
        out = np.full(eps.shape, -np.inf)
        on = j >= 0
        jj = j[on]
        D_prev = np.where(jj > 0, D[np.maximum(jj - 1, 0)], 0.0)
        out[on] = _log_piece_bound(D_prev, T[jj], D[jj], gap[on], jj + 1, 3.0, dropped, self.log_error)
        return out


_DROPPED = math.exp(-60.0)  # the terms outside a window with floor ref − 60 − log k, in units of e^{ref}


def _log_total_bound(log_rr, delta0, k, *, margin=None):
    """An upper bound on log of 1 − (1 − δ₀)^k (1 − δ_RR) = A + δ_RR(1 − A), A = 1 − (1 − δ₀)^k, in log space (δ₀
    may be an array matching log_rr): δ_RR raised by its evaluation margin (``_evaluation_margin``), A by its own
    rounding — A = −expm1(x), x = k·log1p(−δ₀) within 3u|x| + u, and |x|(1 − A) ≤ A, so A is within 5u relative,
    allowed 8u — so that a δ just above A keeps a finite ε (the margin is not applied to A).  ``margin``: the
    relative allowance on δ_RR in log space, ``_evaluation_margin(k)`` when None (the printed lattice formula,
    :func:`optimal_lattice`, passes its own derived one, ``_lattice_log_rr``).

    The logarithms carry *absolute* errors, which are relative errors of δ and grow with |log δ|: log A is
    within one ulp of log A_float, raised by that ulp and 8u (added as 8u + 2 ulps, so the sum's own rounding
    cannot take it back); ``logaddexp`` (a + log1p(e^d), d = b − a ≤ 0) adds at most ½ulp(a) + ½ulp(d)·e^d +
    2u·log 2 + ½ulp(total) ≤ u(2|a| + 2); and the caller's final e^total (``np.exp``, within one ulp) 2u more.
    So where δ₀ > 0 the result is raised by 4u(|a| + 2) in log space, a = the larger of the two logarithms.
    Without these allowances ``optimal_delta`` fell short of the exact δ by up to 7 ulps (1.5e-15 relative)
    where A dominates and |log δ| ≈ 48 (tests/unit/composition/test_composition_near_A.py)."""
    log_rr, delta0, k = np.asarray(log_rr, dtype=float), np.asarray(delta0, dtype=float), np.asarray(k, dtype=float)
    margin = _evaluation_margin(k) if margin is None else margin
    if not np.any(delta0 != 0.0):  # no reveal mass (the where below, without forming A)
        return np.minimum(log_rr + margin, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        log1m_A = k * np.log1p(-delta0)
        log_A = np.log(-np.expm1(log1m_A))
        log_rr_part = log_rr + margin + log1m_A
        log_A = log_A + (8.0 * _U + 2.0 * np.spacing(np.abs(log_A)))
        total = np.where(delta0 == 0.0, log_rr + margin, np.logaddexp(log_A, log_rr_part))
        # (δ₀ = 0: δ_RR's margin, 1e-12 relative, already exceeds 4u(|log δ| + 2) down to 1e-308)
        larger = np.maximum(log_A, log_rr_part)
        total = np.where(delta0 == 0.0, total, total + 4.0 * _U * (np.abs(larger) + 2.0))
    return np.minimum(total, 0.0)


def _optimal_log_rr(eps: np.ndarray, eps0: float, k: int, profiles: dict | None = None) -> np.ndarray:
    """log δ_RR(ε) for a 1-d array of ε and one mechanism (ε₀ > 0): an upper bound on its float evaluation
    (:meth:`_RRProfile.bound`), −inf where no loss exceeds ε.

    The largest active term sits at ℓ* = min(mode, last active ℓ), and δ_RR(ε) is a sum of terms no larger
    than a few times P_ℓ*; the entries are grouped by ⌊log P_ℓ* / 64⌋, and per group one profile is built on a
    window holding every term above e^{floor}, floor = ref − 60 − log k (ref = 64·⌊log P_ℓ* / 64⌋), with its
    tables in units of e^{ref}, where every δ of the group is evaluated at once.  The terms outside the window
    are fewer than k and each below e^{floor} (log P is concave), so together below e^{ref − 60}: that is added
    to the bound (``dropped``), which is therefore an upper bound on the whole sum, not only on the window's.
    (The floor was ref − 800, with the claim that the rest cannot move a float; at k = 10⁹ that window is twice as
    wide, and its rounding allowance 3(j + 1)u, j ≈ 2·10⁶, alone exceeded the solver's margin.)  ``profiles``
    (ref → (profile, tables)) lends tables already built with this floor (:func:`_optimal_epsilons`' own).
    What an entry gets depends only on its own ε, so an array call equals the scalar calls bit for bit."""
    out = np.full(eps.shape, -np.inf)
    last = _last_active(eps, eps0, k)
    live = np.flatnonzero(last >= 0)
    if live.size == 0:
        return out
    q, p, log_q, log_p = _binomial.flip_probabilities(eps0)
    top = np.minimum(last[live], _binomial.binomial_mode(eps0, k))
    bucket = np.floor(_binomial.log_binom_pmf(top, k, log_q, log_p, q, p) / _GROUP_SPAN)
    for (b,), members in _group_slices(bucket[:, None]):
        ref = _GROUP_SPAN * b
        if profiles is not None and ref in profiles:
            prof, tables = profiles[ref]
        else:  # (rows past the group's largest last active ℓ are never read)
            prof = _RRProfile(eps0, k, ref - 60.0 - math.log(k), cut=int(np.max(last[live[members]])))
            if prof.ell.size == 0:  # (not reached: ℓ* itself is above the floor)
                continue
            tables = prof.tables(ref)
        idx = live[members]
        out[idx] = prof.bound(tables, eps[idx], dropped=_DROPPED) + ref
    return out


# --- many distinct mechanisms of k > _K_BATCH at once -------------------------------------------------------

_MANY_PROFILES = 4  # from this many distinct mechanisms (ε₀, k) of k > _K_BATCH in one call on, built together
# ... if k ≤ _K_TOGETHER: past it a window holds ≳ 10⁴ terms, whose evaluation (a few tenths of a µs each)
# outweighs the ~1 ms of Python work a profile costs, and one profile at a time was as fast or faster (measured with
# 200 mechanisms: at k = 10⁶ optimal_delta equal, optimal_epsilon 1.7× slower together; at 10⁵ together faster)
_K_TOGETHER = 10**5
_PROFILE_TERMS = 2**16  # terms per batch of _RRProfiles (its working arrays, a dozen of 512 kB, stay in cache)


def _each(fn, x: np.ndarray) -> np.ndarray:
    """``fn`` (a ``math`` function) entry by entry: the scalar form's own rounding for every column."""
    return np.array([fn(v) for v in np.asarray(x, dtype=float).tolist()], dtype=float)


class _ProfileWindows:
    """The windows of many :class:`_RRProfile` at once: one column per (ε₀, k, ref, cut) (1-d arrays; k > _K_BATCH,
    ε₀ > 0), with the floor ref − 60 − log k of :func:`_optimal_log_rr` and the same window, rule for rule, found
    with vectorised steps instead of a Python call per profile:

    * k ≤ _K_DIRECT: _RRProfile evaluates all ⌈k/2⌉ terms and keeps those above the floor; here the two ends are
      found by bisection on either side of c = min(mode, ⌈k/2⌉ − 1) (``_first_true``).  The kept terms are one
      interval: log P is concave, and where the float log P crosses the floor its slope, |ℓ − kq|/(kqp) ≥ 10 standard
      deviations / (kqp)^{1/2} ≥ 0.07 a step at k ≤ 20 000, exceeds its error (``log_error``, below 1e-11) many times
      over, so the float values cross the floor once on each side.  c is always above the floor (its mass is at least
      1/(k + 1), the floor at most e^{−60}/k); were it not, the window is empty, as _RRProfile's would be.  With a
      ``cut`` below the window's end the rows past it are not formed: they are never read, and the rows up to it are
      the same (the last row of the window, which reaches down to ε = 0, is then not among them).
    * k > _K_DIRECT: the same normal-approximation offset and doubling steps as _RRProfile, for every column at once.

    ``log_error`` (``_binomial.window_log_mass_errors``) is formed for all columns whose window ends do not depend on
    the terms; the others (a mass that underflows) get theirs from the formed terms, as _RRProfile's
    ``_window_error``.  What a column gets depends only on its own (ε₀, k, ref, cut)."""

    def __init__(self, eps0: np.ndarray, k: np.ndarray, ref: np.ndarray, cut: np.ndarray | None):
        self.eps0, self.k, self.ref = eps0, k.astype(np.int64), ref
        k = self.k
        self.kf = kf = k.astype(float)
        self.q, self.p, self.log_q, self.log_p = q, p, log_q, log_p = _binomial.flip_probabilities(eps0)
        self.log_k = _binomial.each_log(kf)
        floor = ref - 60.0 - self.log_k
        m = (k + 1) // 2
        mode = np.minimum(((k + 1).astype(float) * q).astype(np.int64), k)  # _binomial.binomial_mode
        n = eps0.size
        lo, end = np.zeros(n, dtype=np.int64), np.full(n, -1, dtype=np.int64)
        window_end = np.full(n, -1, dtype=np.int64)  # the last row of the whole window (for log_error)
        self.flag_last = np.ones(n, dtype=bool)  # the last formed row is the window's last piece (down to ε = 0)
        self.ends_known = np.ones(n, dtype=bool)  # else log_error from the first and last finite formed terms

        direct = np.flatnonzero(k <= _K_DIRECT)
        if direct.size:
            c = np.minimum(mode[direct], m[direct] - 1)
            live = self._log_p(c, direct) >= floor[direct]
            d, c = direct[live], c[live]
            fl = floor[d]
            lo[d] = _first_true(lambda x: self._log_p(x, d) >= fl, np.zeros_like(c), c)
            window_end[d] = _first_true(lambda x: self._log_p(x, d) < fl, c + 1, m[d] - 1) - 1
            end[d] = window_end[d] if cut is None else np.minimum(window_end[d], cut[d])
            self.flag_last[d] = end[d] == window_end[d]
        large = np.flatnonzero(k > _K_DIRECT)
        if large.size:
            g, md, fl = large, mode[large], floor[large]
            sd = np.sqrt(kf[g] * q[g] * p[g])
            lp_mode = self._log_p(md, g)
            offset = (1.5 * (np.sqrt(2.0 * np.maximum(lp_mode - fl, 0.0)) + 3.0) * sd).astype(np.int64) + 10
            lo_off, hi_off = offset.copy(), offset.copy()
            todo = np.flatnonzero(md - lo_off > 0)
            while todo.size:  # widened until both ends are below the floor (each step doubles)
                todo = todo[self._log_p(md[todo] - lo_off[todo], g[todo]) >= fl[todo]]
                lo_off[todo] *= 2
                todo = todo[md[todo] - lo_off[todo] > 0]
            todo = np.flatnonzero(md + hi_off < k[g])
            while todo.size:
                todo = todo[self._log_p(md[todo] + hi_off[todo], g[todo]) >= fl[todo]]
                hi_off[todo] *= 2
                todo = todo[md[todo] + hi_off[todo] < k[g[todo]]]
            glo, gtop = np.maximum(md - lo_off, 0), np.minimum(md + hi_off, m[g] - 1)
            glo = _window_start(lambda x: self._log_p(x, g) >= fl, glo, md)
            lo[g], end[g], window_end[g] = glo, gtop, gtop
            self.ends_known[g] = False
            if cut is not None:
                ct = cut[g]
                inside = np.flatnonzero((glo <= ct) & (ct < gtop))
                with np.errstate(divide="ignore", invalid="ignore"):
                    finite = (np.isfinite(self._log_p(glo[inside], g[inside]))
                              & np.isfinite(self._log_p(gtop[inside], g[inside])))
                w = inside[finite]
                end[g[w]] = ct[w]
                self.ends_known[g[w]] = True
        self.lo, self.end = lo, end
        self.size = np.maximum(end - lo + 1, 0)
        known = np.flatnonzero(self.ends_known & (self.size > 0))
        self.log_error = np.zeros(n)
        self.log_error[known] = _binomial.window_log_mass_errors(lo[known], window_end[known], k[known], q[known],
                                                                 p[known], log_q[known], log_p[known])

    def _log_p(self, ell, cols):
        """log P_ℓ for whole ℓ (an int array of cols' shape, or (rows, cols)) of the columns ``cols``."""
        ell = np.asarray(ell)
        pick = lambda a: np.broadcast_to(a[cols], ell.shape)  # noqa: E731
        return _binomial.log_binom_pmf(ell.astype(float), pick(self.kf), pick(self.log_q), pick(self.log_p),
                                       pick(self.q), pick(self.p), pick(self.log_k))

    def batches(self):
        """Column index arrays of at most _PROFILE_TERMS formed terms each (one column at least)."""
        total = np.cumsum(self.size)
        start = 0
        while start < self.size.size:
            stop = max(int(np.searchsorted(total, total[start] - self.size[start] + _PROFILE_TERMS, side="right")),
                       start + 1)
            yield np.arange(start, stop)
            start = stop


class _RRProfiles:
    """The tables of :class:`_RRProfile` for many columns (``cols`` of a :class:`_ProfileWindows`) at once, their
    windows concatenated in one array: the terms by one call of Loader's form (one law per entry), the pieces'
    edges and gains element by element, and per column the two recurrences (``_piece_sums``: ``lfilter`` and
    ``cumsum``, in C) — every operation the one :meth:`_RRProfile.tables` applies, in the same order, so that each
    column's T and D are those of its own profile bit for bit.  :meth:`bound` and :meth:`solve` are those of
    _RRProfile for one column per entry, with the searches (``searchsorted`` there) done as one bisection over all
    entries (the same first index: −L and D are nondecreasing within a column)."""

    def __init__(self, windows: _ProfileWindows, cols: np.ndarray):
        w = windows
        self.cols = cols
        size = w.size[cols]
        self.size = size
        self.offset = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
        total = int(np.sum(size))
        col = np.repeat(np.arange(cols.size), size)
        c = cols[col]
        ell = (w.lo[c] + (np.arange(total) - self.offset[col])).astype(float)
        s_k = _binomial.stirlerr(w.kf[cols])[col]  # (per column, as the scalar form forms it once)
        log_p = _binomial.log_binom_pmf(ell, w.kf[c], w.log_q[c], w.log_p[c], w.q[c], w.p[c], w.log_k[c], s_k)
        self.eps0, self.kf, self.ref = w.eps0[cols], w.kf[cols], w.ref[cols]
        self.log_error = w.log_error[cols].copy()
        unknown = np.flatnonzero(~w.ends_known[cols] & (size > 0))
        if unknown.size:  # (_RRProfile._window_error: the first and last formed masses that are not 0)
            fin = np.isfinite(log_p)
            idx = np.arange(total)
            starts = self.offset[unknown]
            first = np.minimum.reduceat(np.where(fin, idx, total), self.offset[size > 0])
            last = np.maximum.reduceat(np.where(fin, idx, -1), self.offset[size > 0])
            where = np.searchsorted(np.flatnonzero(size > 0), unknown)
            first, last = first[where], last[where]
            has = first < starts + size[unknown]
            u = unknown[has]
            cu = cols[u]
            self.log_error[u] = _binomial.window_log_mass_errors(
                w.lo[cu] + (first[has] - starts[has]), w.lo[cu] + (last[has] - starts[has]), w.k[cu], w.q[cu],
                w.p[cu], w.log_q[cu], w.log_p[cu])
        e0 = self.eps0[col]
        with np.errstate(over="ignore", invalid="ignore"):  # ε₀ near the float maximum: ∞ − ∞ in the lower ends
            g, gain_lattice = _each(math.exp, -2.0 * self.eps0), -_each(math.expm1, -2.0 * self.eps0)
            upper = e0 * (self.kf[col] - 2.0 * ell)
            last_piece = np.zeros(total, dtype=bool)
            flagged = np.flatnonzero(w.flag_last[cols] & (size > 0))
            last_piece[self.offset[flagged] + size[flagged] - 1] = True
            lower = np.where(last_piece, 0.0, np.maximum(upper - 2.0 * e0, 0.0))
            width = np.where(np.isinf(upper), np.inf, upper - lower)
            gain = np.where(width == 2.0 * e0, gain_lattice[col], -np.expm1(-width))
            P = np.exp(log_p - self.ref[col])
        T, D = np.empty(total), np.empty(total)
        for i in np.flatnonzero(size > 0).tolist():  # the recurrences, per column (in C; ~10 µs each)
            a, b = int(self.offset[i]), int(self.offset[i] + size[i])
            T[a:b], D[a:b] = _piece_sums(P[a:b], g[i], gain[a:b])
        self.T, self.D, self.upper, self.lower, self.width = T, D, upper, lower, width
        self.n = self.kf[col] - 2.0 * ell

    def bound(self, which: np.ndarray, eps: np.ndarray, dropped: float) -> np.ndarray:
        """:meth:`_RRProfile.bound` for one ε per entry, ``which`` its column (an index into ``cols``); −inf where
        no term of the window is active."""
        if self.D.size == 0:  # (not reached: a window holds the largest active term)
            return np.full(eps.shape, -np.inf)
        s, z, e0 = self.offset[which], self.size[which], self.eps0[which]
        s = np.minimum(s, self.D.size - 1)  # (an empty last column: its entries are masked below)
        last = np.maximum(z - 1, 0)
        with np.errstate(invalid="ignore"):
            first_at_or_below = _first_true(lambda x: -self.upper[s + x] >= -eps, np.zeros_like(z), z - 1)
        j = first_at_or_below - 1
        nxt = np.minimum(j + 1, last)
        here = np.maximum(j, 0)
        gap_next = _lattice_gap(eps, e0, self.n[s + nxt])
        gap_here = _lattice_gap(eps, e0, self.n[s + here])
        take_next = (j + 1 < z) & (gap_next < 0)
        take_here = ~take_next & (j >= 0) & (gap_here < 0)
        j = np.where(take_next, j + 1, np.where(take_here, j, j - 1))
        gap = np.where(take_next, gap_next, gap_here)
        redo = ~take_next & ~take_here & (j >= 0)
        if np.any(redo):
            gap[redo] = _lattice_gap(eps[redo], e0[redo], self.n[s[redo] + j[redo]])
        out = np.full(eps.shape, -np.inf)
        on = (j >= 0) & (z > 0)
        jj, at = j[on], s[on] + j[on]
        D_prev = np.where(jj > 0, self.D[np.maximum(at - 1, 0)], 0.0)
        out[on] = _log_piece_bound(D_prev, self.T[at], self.D[at], gap[on], jj + 1, 3.0, dropped,
                                   self.log_error[which[on]])
        return out

    def solve(self, which: np.ndarray, log_target: np.ndarray) -> np.ndarray:
        """:meth:`_RRProfile.solve` for one target per entry, ``which`` its column."""
        if self.D.size == 0:  # (nothing above the floor: δ_RR(0) ≤ target, ε = 0)
            return np.zeros(log_target.shape)
        s, z = np.minimum(self.offset[which], self.D.size - 1), self.size[which]
        t = np.exp(log_target)
        j = _first_true(lambda x: self.D[s + x] >= t, np.zeros_like(z), z - 1)
        out = np.zeros(t.shape)
        on = j < z
        at, jj, t = s[on] + j[on], j[on], t[on]
        D_prev = np.where(jj > 0, self.D[np.maximum(at - 1, 0)], 0.0)
        out[on] = _piece_epsilon(t, self.D[at], D_prev, self.T[at], self.upper[at], self.lower[at], self.width[at])
        return out


def _profile_columns(keys: np.ndarray):
    """The distinct rows of ``keys`` (n × 3: ε₀, k, bucket) as (the entries' column, the columns' first entries)."""
    _, first, column = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    return np.ravel(column), first


def _check_bucket(eps: np.ndarray, eps0: np.ndarray, k: np.ndarray) -> np.ndarray:
    """⌊log P_ℓ*/64⌋ of :func:`_optimal_log_rr`'s grouping (ℓ* = min(mode, last active ℓ)) per entry; NaN where no
    loss exceeds ε (δ_RR = 0: no profile is read)."""
    last = _last_active(eps, eps0, k)
    q, p, log_q, log_p = _binomial.flip_probabilities(eps0)
    mode = np.minimum(((k + 1).astype(float) * q).astype(np.int64), k)
    top = np.maximum(np.minimum(last, mode), 0)
    with np.errstate(invalid="ignore"):
        bucket = np.floor(_binomial.log_binom_pmf(top, k.astype(float), log_q, log_p, q, p) / _GROUP_SPAN)
    return np.where(last >= 0, bucket, np.nan)


def _profiles_log_rr(eps: np.ndarray, eps0: np.ndarray, k: np.ndarray) -> np.ndarray:
    """:func:`_optimal_log_rr` for 1-d arrays, one mechanism (ε₀ > 0, k > _K_BATCH) per entry, every profile built
    at once (:class:`_ProfileWindows`, :class:`_RRProfiles`): the same grouping (per ε₀, k and ⌊log P_ℓ*/64⌋, cut at
    the group's largest last active ℓ), the same windows and tables, so each entry gets the bits of
    :func:`_optimal_log_rr` for its own mechanism (tests/unit/composition/test_composition_profiles.py)."""
    out = np.full(eps.shape, -np.inf)
    last = _last_active(eps, eps0, k)
    live = np.flatnonzero(last >= 0)
    if live.size == 0:
        return out
    e, e0, kk, la = eps[live], eps0[live], k[live], last[live]
    bucket = _check_bucket(e, e0, kk)
    column, first = _profile_columns(np.stack([e0, kk.astype(float), bucket], axis=1))
    cut = np.zeros(first.size, dtype=np.int64)
    np.maximum.at(cut, column, la.astype(np.int64))
    windows = _ProfileWindows(e0[first], kk[first], _GROUP_SPAN * bucket[first], cut)
    by_column = np.argsort(column, kind="stable")
    starts = np.searchsorted(column[by_column], np.arange(first.size + 1))
    for cols in windows.batches():
        members = by_column[starts[cols[0]]:starts[cols[-1] + 1]]
        tables = _RRProfiles(windows, cols)
        out[live[members]] = tables.bound(column[members] - cols[0], e[members], _DROPPED) + tables.ref[
            column[members] - cols[0]]
    return out


def _profiles_epsilons(eps0: np.ndarray, k: np.ndarray, log_t: np.ndarray, slack: np.ndarray | None = None,
                       rounds: int = 60) -> np.ndarray:
    """The loop of :func:`_optimal_epsilons` for many distinct mechanisms of k > _K_BATCH at once (1-d arrays, log_t
    the rounded-down targets): per (ε₀, k, ⌊log target/64⌋) the same profile, now built together with the others
    (:class:`_ProfileWindows`, :class:`_RRProfiles`), each target solved below itself by the same margins (``slack``:
    the extra margin, the evaluation margin at first), the ε rounded up 4 ulps and checked by :func:`_profiles_log_rr`
    (the bits of :func:`_optimal_log_rr`), all entries in one check; the failing entries are solved again with the
    extra margin doubled (their profiles, rebuilt, are the same), up to ``rounds`` times, then ε = ∞.  Every entry
    gets the bits of its own scalar call."""
    bucket = np.floor(log_t / _GROUP_SPAN)
    column, first = _profile_columns(np.stack([eps0, k.astype(float), bucket], axis=1))
    windows = _ProfileWindows(eps0[first], k[first], _GROUP_SPAN * bucket[first], None)
    margin = _evaluation_margin(k)
    slack = margin.copy() if slack is None else slack
    ref = windows.ref[column]
    target = log_t - ref
    e = np.zeros(eps0.shape)  # (a column with nothing above the floor: δ_RR(0) ≤ target, ε = 0)
    log_rr = np.full(eps0.shape, -np.inf)
    lent = np.zeros(eps0.shape, dtype=bool)
    by_column = np.argsort(column, kind="stable")
    starts = np.searchsorted(column[by_column], np.arange(first.size + 1))
    for cols in windows.batches():
        members = by_column[starts[cols[0]]:starts[cols[-1] + 1]]
        tables = _RRProfiles(windows, cols)
        which = column[members] - cols[0]
        on = tables.size[which] > 0
        m, w = members[on], which[on]
        e[m] = _rounding.up(tables.solve(w, target[m] - margin[m] - tables.log_error[w] - slack[m]), 4)
        # the check's profile is this one where its scale (of the largest active term at e) is the target's: read it
        # here, as _optimal_epsilons lends its tables (the same bits as a profile cut at e's last active ℓ)
        same = _check_bucket(e[m], eps0[m], k[m]) == bucket[m]
        log_rr[m[same]] = tables.bound(w[same], e[m[same]], _DROPPED) + tables.ref[w[same]]
        lent[m[same]] = True
    solved = windows.size[column] > 0
    rest = np.flatnonzero(solved & ~lent)
    log_rr[rest] = _profiles_log_rr(e[rest], eps0[rest], k[rest])
    ok = ~solved | np.isinf(e) | (log_rr - ref + margin <= target)
    fail = np.flatnonzero(~ok)
    if fail.size:  # (the margin reaches the size of δ itself long before 60 rounds; then ε = inf)
        e[fail] = (_profiles_epsilons(eps0[fail], k[fail], log_t[fail], 2.0 * slack[fail], rounds - 1) if rounds > 1
                   else math.inf)
    return e


# --- many distinct small mechanisms at once (k ≤ _K_BATCH) ---------------------------------------------------

_K_BATCH = 1000  # up to here a mechanism's profile is one column of a 2-D (ℓ × mechanisms) table
_BATCH_CELLS = 2**19  # cells per chunk of a table (memory: a few arrays of 4 MB)
_ROW_SPAN = 4.0  # a column's scale: ref = 4·⌊level/4⌋ (level: log of the target, or of a lower bound on δ_RR(ε))
_ROW_DROP = 33.0  # a column keeps the terms above e^{floor}, floor = ref − 33 − log k
# the terms it drops, in units of e^{ref}: fewer than ⌈k/2⌉ ≤ k, each below e^{floor} (to within the rounding of
# log P, a relative 1e-11 at most, allowed as a factor 2; and 2 for ⌈k/2⌉/k ≤ 1 at k = 1): below 4e^{−33}
_ROW_DROPPED = 4.0 * math.exp(-_ROW_DROP)
# up to this many columns, P, T and D are formed per column by cumprod, lfilter and cumsum: y_j = y_{j−1}·x_j,
# y_j = x_j + g·y_{j−1} and y_j = y_{j−1} + x_j evaluated in the same order, with the same roundings, as the
# row-by-row loops (checked equal bit for bit on random columns), which cost a Python step per row
_FEW_COLUMNS = 8
# optimal_delta's chunks (no table kept, a few vectors of this many columns swept row by row): they stay in cache
_SWEEP_COLUMNS = 2**14


@functools.lru_cache(maxsize=1024)  # (every k ≤ _K_BATCH: 2 MB; 256 thrashed on 1000 distinct k, per block)
def _log_binomial_coefficients(k: int) -> np.ndarray:
    """log C(k, ℓ) for ℓ = 0 … ⌈k/2⌉ − 1, each from the exact integer (within a few ulps of its value).  The
    integers by the exact recurrence C(k, ℓ + 1) = C(k, ℓ)(k − ℓ)/(ℓ + 1) (the division has no remainder): the same
    integers as math.comb, so the same logarithms, at one product a row instead of a fresh comb (k ≤ 1000 for
    each of 1000 distinct k took 1.9 s)."""
    logs, c = [], 1
    for ell in range((k + 1) // 2):
        logs.append(math.log(c))
        c = c * (k - ell) // (ell + 1)
    out = np.array(logs)
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=64)
def _step_ratios(k: int, rows: int) -> np.ndarray:
    """fl((k − ℓ + 1)/ℓ) for ℓ = 0 … ⌈k/2⌉ − 1 + ``rows`` (the ratio C(k, ℓ)/C(k, ℓ − 1), within u), entries from
    ℓ = ⌈k/2⌉ on (and ℓ = 0) set to 1: a table's cells past ⌈k/2⌉ − 1 read them, and they lie past every top."""
    m = (k + 1) // 2
    ell = np.arange(m + rows, dtype=float)
    with np.errstate(divide="ignore"):
        out = np.where((ell >= 1) & (ell < m), (k - ell + 1.0) / ell, 1.0)
    out.flags.writeable = False
    return out


def _log_binomial_rows(k: np.ndarray):
    """The rows of :func:`_log_binomial_coefficients` for the distinct k among the entries (an int array),
    concatenated: (flat, start) with log C(k_i, ℓ) = flat[start_i + ℓ] for ℓ = 0 … ⌈k_i/2⌉ − 1 (the same numbers,
    one row per distinct k however many entries share it); ``start`` has k's shape."""
    ks, inverse = np.unique(np.asarray(k, dtype=np.int64), return_inverse=True)
    rows = [_log_binomial_coefficients(v) for v in ks.tolist()]
    offsets = np.concatenate([[0], np.cumsum((ks + 1) // 2)[:-1]]).astype(np.int64)
    return np.concatenate(rows), offsets[np.ravel(inverse)].reshape(np.shape(k))


def _each_log_k(k: np.ndarray) -> np.ndarray:
    """math.log(k) per entry of an int array (``_binomial.each_log``, once per distinct k)."""
    ks, inverse = np.unique(k, return_inverse=True)
    return _binomial.each_log(ks.astype(float))[np.ravel(inverse)].reshape(np.shape(k))


def _row_log_p(k, ell: np.ndarray, log_q, log_p, log_c=None) -> np.ndarray:
    """log P_ℓ = (log C(k, ℓ) + ℓ log q) + (k − ℓ) log p, the direct form of :class:`_RRRows`, for whole ℓ (an int
    array, 0 ≤ ℓ ≤ ⌈k/2⌉ − 1) broadcasting with k (a whole number or an int array), log q and log p.  ``log_c``:
    :func:`_log_binomial_rows` of k, if the caller has it."""
    f = ell.astype(float)
    flat, start = _log_binomial_rows(k) if log_c is None else log_c
    with np.errstate(over="ignore", invalid="ignore"):
        return (flat[start + ell] + f * log_q) + (k - f) * log_p


def _window_start(above, lo, mode):
    """The first whole ℓ in [lo, mode] whose float log P_ℓ is at or above the floor (``above``, given an int array
    of ℓ), lo where none is below it: the doubling steps of the large-k windows stop at *some* ℓ below the floor,
    which for a floor far under the mode's mass (a δ far in the tail, where the window is cut at the last active
    ℓ ≪ mode) was ℓ = 0: O(k) terms formed (randomized response ε₀ = 0.1, k = 10⁸: 0.65 s a δ, a report at k = 10⁹
    27 minutes and 10 GB).  log P_ℓ increases up to the mode (the binomial is unimodal) and crosses the floor once,
    with a slope far above its error, so the terms left out are below the floor, as before: fewer than k of them,
    together below e^{ref − 60} (``_DROPPED``).  Per entry it depends only on (ε₀, k, floor): the same ℓ for a
    profile built alone (:class:`_RRProfile`) or with others (:class:`_ProfileWindows`)."""
    scalar = np.ndim(lo) == 0
    lo_arr, mode_arr = np.atleast_1d(np.asarray(lo, dtype=np.int64)), np.atleast_1d(np.asarray(mode, dtype=np.int64))
    out = np.minimum(_first_true(above, lo_arr, mode_arr), np.maximum(mode_arr, lo_arr))
    out = np.where(mode_arr >= lo_arr, out, lo_arr)
    return int(out[0]) if scalar else out


def _first_true(pred, start: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """For each entry, the smallest whole x in [start, stop] with pred(x) true, stop + 1 if none; pred (given an
    int array of x, one per entry, each within its [start, stop]) is false then true on that range: a bisection
    over all entries at once (for a few entries, pred on every x of the range at once: one step, not ten)."""
    lo, hi = start.astype(np.int64), stop.astype(np.int64) + 1
    span = int(np.max(hi - lo, initial=0))
    if span <= 0:
        return lo
    if lo.size * span <= 4096:
        x = lo + np.arange(span)[:, None]  # (x, entries)
        yes = pred(np.minimum(x, stop)) & (x < hi)
        return np.where(yes.any(axis=0), lo + np.argmax(yes, axis=0), hi)
    for _ in range(int(np.max(hi - lo, initial=0)).bit_length()):
        mid = (lo + hi) // 2
        yes = pred(np.minimum(np.maximum(mid, start), stop))
        open_ = lo < hi
        hi = np.where(open_ & yes, mid, hi)
        lo = np.where(open_ & ~yes, mid + 1, lo)
    return lo


def _row_windows(eps0: np.ndarray, k: np.ndarray, ref: np.ndarray, *, ceiling=None, need=None, flips=None,
                 log_c=None):
    """The window of each column of :class:`_RRRows` (ε₀ > 0, k ≤ _K_BATCH and scale ref per column):
    ``(lo, hi, top, live)``.

    The column keeps the terms with log P_ℓ ≥ floor = ref − 33 − log k.  log P is concave in ℓ (the binomial law is
    log-concave), increasing up to the mode M = ⌊(k + 1)q⌋ and decreasing after it, so those terms are the ℓ of one
    interval [lo, hi] of [0, ⌈k/2⌉ − 1], found by bisection on either side of M (``live``: M's term is above the
    floor; float noise at the floor, a relative 1e-11 of log P, is allowed for in ``_ROW_DROPPED``).  The table
    holds the rows lo … top only:

    * ``ceiling`` (the solver, every target of the column below e^{ceiling}·(1 − 1e-6)): top is the first ℓ ≥ lo with
      log P_ℓ + log(1 − e^{−2ε₀}) ≥ ceiling, if that is below hi.  Then D_top ≥ (1 − e^{−2ε₀})T_top ≥ (1 −
      e^{−2ε₀})P_top ≥ e^{ceiling} exceeds every target, so the piece that holds the answer — and every ℓ active
      at the ε found — lies at or below top; the rows past it are never needed.  Else top = hi.
    * ``need`` (optimal_delta: the largest last active ℓ among the column's entries): top = min(need, hi).

    hi is found only where it can matter (top may reach M); elsewhere it is given as ⌈k/2⌉, past every row, which
    is then at least the true hi and above top (no row of the table is the window's last piece).  The bisections
    test log P in the form log C(k, ℓ) + ℓ(log q − log p) + k log p (three operations), which differs from the
    direct form by rounding only, a relative 1e-11 of S at most: allowed for in ``_ROW_DROPPED`` at the floor, and
    by the ceiling's factor 1 + 1e-6.  Also returns (log q, log p) per column, for :class:`_RRRows`.  ``flips``:
    the columns' (q, log q, log p) (``_binomial.flip_probabilities``), if the caller has them; ``log_c``: their
    :func:`_log_binomial_rows`, likewise."""
    k = np.asarray(k, dtype=np.int64)
    m = (k + 1) // 2
    q, log_q, log_p = _flips(eps0) if flips is None else flips
    log_c, at = _log_binomial_rows(k) if log_c is None else log_c  # log C(k, x) = log_c[at + x]
    with np.errstate(over="ignore", invalid="ignore"):  # ε₀ near the float maximum: −2ε₀ = −∞, 1 − e^{−2ε₀} = 1
        mode = np.minimum(np.floor((k + 1) * q), m - 1).astype(np.int64)  # q ≤ 1/2: (k + 1)q ≥ 0 is finite
        slope, base = log_q - log_p, k * log_p
        floor = ref - (_ROW_DROP + _each_log_k(k)) - base  # the tests compare log C + ℓ·slope with floor − base
        live = log_c[at + mode] + mode * slope >= floor
        lo = _first_true(lambda x: log_c[at + x] + x * slope >= floor, np.zeros_like(mode), mode)
        if ceiling is not None:
            rise = ceiling - base - np.log(-np.expm1(-2.0 * eps0))
            cut = _first_true(lambda x: log_c[at + x] + x * slope >= rise, np.minimum(lo, mode), mode)
            wants_hi = live & (cut >= mode)
        else:
            wants_hi = live & (need > mode)
        hi = m.copy()
        w = np.flatnonzero(wants_hi)
        sw, fw, aw = slope[w], floor[w], at[w]
        hi[w] = _first_true(lambda x: log_c[aw + x] + x * sw < fw, mode[w] + 1, m[w] - 1) - 1
    top = np.where((cut <= mode) & (cut < hi), cut, hi) if ceiling is not None else np.minimum(need, hi)
    top = np.minimum(top, m - 1)
    top = np.where(live, top, lo - 1)  # (not live: no row)
    return lo, hi, top, live, log_q, log_p


class _RRRows:
    """k-fold ε₀-randomized response for many mechanisms (ε₀, k), k ≤ _K_BATCH, at once, one mechanism per column of
    a 2-D table whose row r holds ℓ = lo + r of that column's window (:func:`_row_windows`); columns of different k
    share the table (each cell is formed from its own column's numbers only).

    The same piecewise tables as :class:`_RRProfile` (T_j = P_j + e^{−2ε₀}T_{j−1}, D_j = D_{j−1} + (1 −
    e^{−width_j})T_j, the same closed-form solve and the same bound), with these differences:

    * each column keeps only the terms with log P_ℓ ≥ floor = ref − 33 − log k, the rows lo … top of its window:
      zeros past top (rows the wider columns of the chunk need) leave D nondecreasing and are never read, so a
      column's values depend only on its (ε₀, k, ref) and on no other column; the terms outside the window, below
      4e^{−33} in units of e^{ref} together (``_ROW_DROPPED``), are *added* to :meth:`bound`;
    * the pieces between lattice points all have width 2ε₀ exactly, so their δ gain is (1 − e^{−2ε₀})T_j with
      1 − e^{−2ε₀} formed once; only the window's last piece, at hi (down to ε = 0; this includes the piece of
      ℓ = (k − 1)/2, from ε₀ down to 0, whenever that ℓ is in the window), takes −expm1(−width) of its own width;
    * the first term is e^{log P_lo − ref} with log P_lo = (log C(k, lo) + lo log q) + (k − lo) log p, log C from
      the exact integer: three roundings of numbers up to S = log C(k, lo) + lo|log q| + (k − lo)|log p| =
      2 log C(k, lo) − log P_lo in size (log q and log p within 2 ulps, log C within 4), so log P_lo is within 10u·S
      (first order; ``self.s_max``, formed from the floats, whose own error is a relative ~1e-15 of it; S < 2200
      at k ≤ 1000, so 10u·S < 3e-12), and the exponential adds (|log P_lo − ref| + 1)u ≤ 801u.  Each further term
      is P_ℓ = P_{ℓ−1}·ρ_ℓ, ρ_ℓ = fl(fl((k − ℓ + 1)/ℓ)·fl(e^{−ε₀})) — the exact ratio is (k − ℓ + 1)/ℓ·q/p and q/p =
      e^{−ε₀} exactly — within 5u a step (the quotient u, the exponential 2u, two products u each).  So the term
      of row r is within a relative 10u·S + (801 + 5r)u of the exact one (first order, 5ru < 3e-13): the 10u·S
      is added by :meth:`bound` and included in the solver's margin, the rest is inside its (8(r + 1) + 808)u.
      (Loader's form, which :class:`_RRProfile` uses, is exact at every k but costs ~0.6 µs a term; the ratio
      costs two products a cell.)"""

    def __init__(self, eps0: np.ndarray, k: np.ndarray, ref: np.ndarray, lo, hi, top, live, log_q, log_p,
                 reads=None, log_c=None):
        """The columns come in ascending order of their number of rows, top − lo + 1 (:func:`_tables`' chunks).
        ``reads`` = (cols, last), one entry each (:meth:`bound`'s arguments): only the cells those entries read are
        kept, not the table (optimal_delta: one read per entry, so the columns are swept row by row in a few
        vectors that stay in cache, and :meth:`bound` must then be called with the same entries).  ``log_c``: the
        columns' :func:`_log_binomial_rows`, if the caller has them."""
        k = np.asarray(k, dtype=np.int64)
        self.eps0, self.k, self.kf, self.ref = eps0, k, k.astype(float), ref
        self.lo, self.hi, self.top, self.live = lo, hi, top, live
        self.m = m = (k + 1) // 2
        log_c = _log_binomial_rows(k) if log_c is None else log_c
        # S_lo = log C(k, lo) + lo|log q| + (k − lo)|log p|: the size of the numbers that form log P_lo
        self.s_max = log_c[0][log_c[1] + np.minimum(lo, m - 1)] + (lo * -log_q + (k - lo) * -log_p)
        extent = np.maximum(top - lo + 1, 0)  # the rows of each column
        self.rows = rows = max(int(np.max(extent, initial=0)), 1)
        # P_lo = e^{log P_lo − ref} from the direct form; then P_ℓ = P_{ℓ−1}·ρ_ℓ, ρ_ℓ = ((k − ℓ + 1)/ℓ)·e^{−ε₀} (the
        # exact ratio: q/p = e^{−ε₀}), one row of cells (all mechanisms) at a time; a column without rows starts at
        # 1, so that its cells hold normal numbers (a subnormal operand costs a hundred normal ones)
        last_piece = np.flatnonzero(hi <= top)  # the window's last piece is a row of the table
        r_hi = hi[last_piece] - lo[last_piece]
        self._read = None
        if reads is not None:
            on, r, c = self._reads(*reads)
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):  # (ε₀ near the float maximum: −2ε₀ = −∞)
            g, c_step = np.exp(-2.0 * eps0), -np.expm1(-2.0 * eps0)
            first = np.exp(np.minimum(_row_log_p(k, np.minimum(lo, m - 1), log_q, log_p, log_c) - ref, 700.0))
            first[top < lo] = 1.0
            w_hi = self._width(hi[last_piece], last_piece)
            if eps0.size <= _FEW_COLUMNS and np.all(k == k[0]):  # a few long columns of one k: the same products
                ratio = _step_ratios(int(k[0]), rows)[lo[None, :] + np.arange(1, rows)[:, None]]  # and sums, in C
                ratio *= np.exp(-eps0)
                T = np.empty((rows, eps0.size))
                T[0] = first
                T[1:] = ratio
                np.cumprod(T, axis=0, out=T)  # P_ℓ = P_{ℓ−1}·ρ_ℓ down each column
                gain = np.broadcast_to(c_step, T.shape).copy()
                gain[r_hi, last_piece] = w_hi
                T, D = _piece_sums(T, g, gain)
                if reads is not None:
                    self._read = (T[r, c], np.where(r > 0, D[np.maximum(r - 1, 0), c], 0.0), D[r, c])
                    return
            else:
                by_row = np.argsort(r_hi, kind="stable")
                cut = np.flatnonzero(np.diff(r_hi[by_row])) + 1
                special = {int(r_hi[grp[0]]): (last_piece[grp], w_hi[grp]) for grp in np.split(by_row, cut) if grp.size}
                swept = self._sweep(first, g, c_step, extent, special, None if reads is None else (r, c))
                if reads is not None:
                    self._read = swept
                    return
                T, D = swept
        self.T, self.D = T, D

    def _sweep(self, first, g, c_step, extent, special, reads):
        """The recurrences of the table row by row over all its columns: P_ℓ = P_{ℓ−1}·ρ_ℓ, T_j = min(P_j, e^{700}) +
        g·T_{j−1}, D_j = D_{j−1} + (1 − e^{−width_j})T_j, in the same order and with the same roundings as the
        per-column form (cumprod, lfilter, cumsum).  Columns are in ascending order of ``extent`` (their rows), so
        the columns still open at row j are a suffix: each row works on that suffix only.  ``special``: row →
        (columns, 1 − e^{−width}) of the columns whose window's last piece it is.  Returns the tables (T, D) (past a
        column's extent D = ∞, so D stays nondecreasing down each column; T there is never read), or, given
        ``reads`` = (rows r, columns c), only T_r, D_{r−1} (0 at r = 0) and D_r of each read, kept as the sweep
        passes row r.  From the first term capped at e^{700} on, D is ∞, as in :func:`_piece_sums`."""
        n, rows, eps0, lo, kf = first.size, self.rows, self.eps0, self.lo, self.kf
        if np.any(extent[1:] < extent[:-1]):
            raise AssertionError("_RRRows: the columns must come in ascending order of their rows")  # (internal)
        starts = np.searchsorted(extent, np.arange(rows), side="right")  # row j: the columns starts[j]: are open
        em = np.exp(-eps0)
        capping = bool(np.any(self.ref < -699.0))  # else every P ≤ e^{−ref}(1 + 1e-12) < e^{700}: min is the identity
        P, T_row, D_row = first.copy(), np.empty(n), np.zeros(n)
        step, ratio, ell = np.empty(n), np.empty(n), lo.astype(float)  # ell: ℓ = lo + j of row j
        if reads is None:
            T, D = np.empty((rows, n)), np.full((rows, n), np.inf)
        else:
            r, c = reads
            order = np.argsort(r, kind="stable")
            at = np.searchsorted(r[order], np.arange(rows + 1))
            read_T, read_D, read_D_here = np.empty(r.size), np.empty(r.size), np.empty(r.size)
        for j in range(rows):
            s = int(starts[j])
            if s == n:
                break
            Ps, Ts, Ds, st = P[s:], T_row[s:], D_row[s:], step[s:]
            if j == 0:
                np.minimum(Ps, _CAP, out=Ts)
            else:
                ra, ls = ratio[s:], ell[s:]
                np.add(ls, 1.0, out=ls)
                # fl((k − ℓ + 1)/ℓ), as _step_ratios forms it (1 ≤ ℓ ≤ ⌈k/2⌉ − 1 within a column's rows)
                np.subtract(kf[s:], ls, out=ra)
                np.add(ra, 1.0, out=ra)
                np.divide(ra, ls, out=ra)
                np.multiply(ra, em[s:], out=ra)
                np.multiply(Ps, ra, out=Ps)  # P_ℓ = P_{ℓ−1}·ρ_ℓ
                np.multiply(Ts, g[s:], out=Ts)
                if capping:
                    np.minimum(Ps, _CAP, out=st)
                    np.add(st, Ts, out=Ts)  # T_j = min(P_j, cap) + g T_{j−1}
                else:
                    np.add(Ps, Ts, out=Ts)
            if reads is not None and at[j] < at[j + 1]:
                mine = order[at[j]:at[j + 1]]
                read_T[mine] = T_row[c[mine]]
                read_D[mine] = D_row[c[mine]]  # D_{j−1} (0 before the first row)
            np.multiply(Ts, c_step[s:], out=st)
            if j in special:
                cols, w = special[j]
                step[cols] = w * T_row[cols]
            np.add(Ds, st, out=Ds)  # D_j = D_{j−1} + (1 − e^{−width_j})T_j
            if capping:  # from a capped term on, D is only known to exceed every target: ∞
                np.copyto(Ds, np.inf, where=Ps >= _CAP)
            if reads is not None and at[j] < at[j + 1]:
                read_D_here[mine] = D_row[c[mine]]
            if reads is None:
                T[j, s:] = Ts
                D[j, s:] = Ds
        if reads is not None:
            return read_T, read_D, read_D_here
        return T, D

    def _edges(self, j: np.ndarray, cols: np.ndarray):
        """(upper, lower, width) of piece j for the given mechanisms: [max(L_j − 2ε₀, 0), L_j], the last piece
        of the window reaching down to 0."""
        e0 = self.eps0[cols]
        with np.errstate(over="ignore", invalid="ignore"):
            upper = e0 * (self.kf[cols] - 2.0 * j)
            lower = np.where(j == self.hi[cols], 0.0, np.maximum(upper - 2.0 * e0, 0.0))
        return upper, lower, upper - lower

    def _width(self, j, cols):
        """1 − e^{−width} of piece j."""
        return -np.expm1(-self._edges(j, cols)[2])

    def solve(self, cols: np.ndarray, log_target: np.ndarray) -> np.ndarray:
        """:meth:`_RRProfile.solve` for one target per mechanism (``cols`` indexes them, ``log_target`` in their
        units); the same formulas element by element."""
        t = np.exp(log_target)
        # the first row with D ≥ t, by bisection (D is a cumulative sum of terms ≥ 0: nondecreasing down a column)
        r, stop = np.zeros(t.shape, dtype=np.int64), np.full(t.shape, self.rows, dtype=np.int64)
        for _ in range(self.rows.bit_length()):
            mid = (r + stop) // 2
            below = self.D[np.minimum(mid, self.rows - 1), cols] < t
            r, stop = np.where(below, mid + 1, r), np.where(below, stop, mid)
        out = np.zeros(t.shape)
        j = self.lo[cols] + r
        # past the window (top = hi: it is not cut): δ_RR(0) ≤ target up to the dropped terms, ε = 0 (checked)
        on = self.live[cols] & (j <= self.top[cols])
        c, r, j, t = cols[on], r[on], j[on], t[on]
        D_j = self.D[r, c]
        D_prev = np.where(r > 0, self.D[np.maximum(r - 1, 0), c], 0.0)
        T_j = self.T[r, c]
        out[on] = _piece_epsilon(t, D_j, D_prev, T_j, *self._edges(j, c))
        return out

    def _reads(self, cols: np.ndarray, last: np.ndarray):
        """The cells :meth:`bound` reads for these entries: (the entries with a row, each one's row r = min(last, hi)
        − lo and column), the rows in lo … top of a live column."""
        j = np.minimum(last, self.hi[cols]).astype(np.int64)
        on = self.live[cols] & (j >= self.lo[cols]) & (j <= self.top[cols])
        return on, (j - self.lo[cols])[on], cols[on]

    def bound(self, cols: np.ndarray, eps: np.ndarray, last: np.ndarray) -> np.ndarray:
        """An upper bound on log δ_RR(ε) in units of e^{ref} for one ε per mechanism, given the last active ℓ (the
        largest with L_ℓ > ε, found with the exact lattice gap; ≥ 0): on its piece j = min(last, hi),
        δ_RR(ε) = D_{j−1} + T_j(1 − e^{ε−L_j}) over the window, raised by the rounding of the terms and sums ((8(r + 1)
        + 808)u relative — 5u a ratio step and 3u a sum, per term — and (6(r + 1) + 8)·2⁻¹⁰⁷⁴ absolute for sums of r + 1
        terms, r = j − lo; each term e^{log P − ref} within 808u, |log P − ref| ≤ 800) and by the direct form's 10u·S,
        with the dropped terms (``_ROW_DROPPED``) added (:func:`_log_piece_bound`); ∞ past a capped term.  Where every
        active term is below the window (j < lo, or no term above the floor) only the dropped terms remain.  (j > top
        is not reached: the solver's ε lies at or below the piece it was solved on, and optimal_delta's columns reach
        every entry's last; there the bound is δ_RR ≤ 1.)"""
        on, r, c = self._reads(cols, last)
        out = np.full(eps.shape, math.log(_ROW_DROPPED))  # nothing in the window is active
        beyond = np.minimum(last, self.hi[cols]) > self.top[cols]
        out[beyond] = -self.ref[cols[beyond]]  # (not reached) δ_RR ≤ 1
        gap = _lattice_gap(eps[on], self.eps0[c], self.kf[c] - 2.0 * (self.lo[c] + r))
        if self._read is None:
            T_r, D_prev, D_here = self.T[r, c], np.where(r > 0, self.D[np.maximum(r - 1, 0), c], 0.0), self.D[r, c]
        else:  # (the cells read as the rows were swept: these entries')
            T_r, D_prev, D_here = self._read
        out[on] = _log_piece_bound(D_prev, T_r, D_here, gap, r + 1, 8.0, _ROW_DROPPED, 10.0 * _U * self.s_max[c])
        return out


def _row_chunks(width: np.ndarray):
    """Column slices of at most _BATCH_CELLS cells (memory stays bounded), for columns sorted by ``width`` (rows
    each; ascending), so that a chunk's table is as tall as its widest column and no taller than needed."""
    n, start = width.size, 0
    while start < n:
        count = max(1, _BATCH_CELLS // max(int(width[min(start + _BATCH_CELLS, n) - 1]), 1))
        while count > 1 and int(width[min(start + count, n) - 1]) * count > _BATCH_CELLS:
            count = max(1, _BATCH_CELLS // max(int(width[min(start + count, n) - 1]), 1))
        yield slice(start, min(start + count, n))
        start += count


def _last_active(eps: np.ndarray, eps0, k):
    """The largest ℓ with L_ℓ = ε₀(k − 2ℓ) > ε exactly (the lattice gap decides a float on a lattice point),
    capped at ⌈k/2⌉ − 1; −1 where no loss exceeds ε.  ``eps0`` and ``k`` broadcast with ``eps``."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        last = np.floor((k - eps / eps0) / 2)
        last = np.where(np.isfinite(last), last, -1.0)
        gap_hit = _lattice_gap(eps, eps0, k - 2 * last) >= 0  # ε on or above L_last: that ℓ is not active
    return np.minimum(np.where(gap_hit, last - 1, last), (k + 1) // 2 - 1)


def _columns(eps0: np.ndarray, ref: np.ndarray, k: np.ndarray):
    """The distinct (k, ε₀, ref) among the entries — one column of ``_RRRows`` each, whatever the number of
    entries that share it (one mechanism with 10⁶ values of δ is one column per scale).  Returns (the entries in
    column order, the column of each, the first entry of each column)."""
    order = np.argsort(eps0)
    se = eps0[order]
    if np.any(se[1:] == se[:-1]):  # an ε₀ with several entries: by (k, ε₀, ref), so a column's are adjacent
        order = np.lexsort((ref, eps0, k))
    se, sr, sk = eps0[order], ref[order], k[order]
    new = np.ones(order.size, dtype=bool)
    new[1:] = (se[1:] != se[:-1]) | (sr[1:] != sr[:-1]) | (sk[1:] != sk[:-1])
    return order, np.cumsum(new) - 1, order[new]


def _tables(eps0: np.ndarray, k: np.ndarray, ref: np.ndarray, column: np.ndarray, windows, last=None, log_c=None):
    """The chunks of ``_RRRows`` for columns (ε₀, k, ref) with their ``windows`` (:func:`_row_windows`), widest last;
    yields (the chunk's tables, the entries' positions in ``column`` order it serves, their column in the chunk).
    Given ``last`` (each entry's last active ℓ, in ``column`` order), a chunk keeps only the cells its entries'
    :meth:`_RRRows.bound` reads (no table: the chunks are then cut by columns, _SWEEP_COLUMNS, not by cells).
    ``log_c``: the columns' :func:`_log_binomial_rows`, if the caller has them (one lookup table for every chunk)."""
    lo, top = windows[0], windows[2]
    width = np.maximum(top - lo + 1, 0)
    by_width = np.argsort(width.astype(np.int16), kind="stable")  # (a radix sort: widths are below 2¹⁵)
    starts = np.searchsorted(column, np.arange(width.size + 1))  # a column's entries: starts[c] … starts[c + 1] − 1
    parts = (_row_chunks(width[by_width]) if last is None
             else (slice(a, a + _SWEEP_COLUMNS) for a in range(0, width.size, _SWEEP_COLUMNS)))
    for part in parts:
        cols = by_width[part]
        count = starts[cols + 1] - starts[cols]
        within = np.repeat(np.arange(cols.size), count)  # each member's column in the chunk
        members = starts[cols][within] + (np.arange(within.size) - (np.cumsum(count) - count)[within])
        reads = None if last is None else (within, last[members])
        rows = _RRRows(eps0[cols], k[cols], ref[cols], *(w[cols] for w in windows), reads=reads,
                       log_c=None if log_c is None else (log_c[0], log_c[1][cols]))
        yield rows, members, within


def _flips(eps0):
    """(q, log q, log p) of randomized response at ε₀ (``_binomial.flip_probabilities``)."""
    q, _, log_q, log_p = _binomial.flip_probabilities(eps0)
    return q, log_q, log_p


def _level(eps: np.ndarray, eps0: np.ndarray, k: np.ndarray, last: np.ndarray, flips, log_c=None) -> np.ndarray:
    """log of a lower bound on δ_RR(ε) (last ≥ 0, the last active ℓ), in the direct form: with ℓ' = min(M, last − 1)
    (M the mode), δ_RR(ε) ≥ P_ℓ'(1 − e^{ε − L_ℓ'}) ≥ (1 − e^{−2ε₀})P_ℓ' (ε < L_last ≤ L_ℓ' − 2ε₀) and δ_RR(ε) ≥
    P_last(1 − e^{ε − L_last}); the latter's factor is taken at least e^{−500} (a level above δ_RR only raises the
    floor: the dropped terms, added to the bound, are then larger than they need be, never missed).  ``flips``:
    (q, log q, log p) per entry (:func:`_flips`)."""
    q, log_q, log_p = flips
    m = (k + 1) // 2
    mode = np.minimum(np.floor((k + 1) * q), m - 1).astype(np.int64)
    last = last.astype(np.int64)
    prev = np.minimum(mode, np.maximum(last - 1, 0))
    log_c = _log_binomial_rows(k) if log_c is None else log_c
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        below = np.where(last >= 1, _row_log_p(k, prev, log_q, log_p, log_c) + np.log(-np.expm1(-2.0 * eps0)),
                         -np.inf)
        gap = _lattice_gap(eps, eps0, k - 2.0 * last)
        at = _row_log_p(k, last, log_q, log_p, log_c) + np.maximum(np.log(-np.expm1(gap)), -500.0)
    return np.maximum(below, at)


def _rows_log_rr(eps: np.ndarray, eps0: np.ndarray, k: np.ndarray) -> np.ndarray:
    """:func:`_optimal_log_rr` for many mechanisms of k ≤ _K_BATCH (1-d arrays ε, ε₀ > 0, k): each entry's scale is
    ref = 4·⌊level/4⌋ (:func:`_level`, a lower bound on log δ_RR(ε)), and its column of ``_RRRows`` (one per distinct
    (k, ε₀, ref), every k in one table) holds every term above e^{ref − 33 − log k} up to the largest last active ℓ
    of its entries; the value is :meth:`_RRRows.bound`, the dropped terms added.  A column's cells depend only on
    its (ε₀, k, ref), and an entry reads only the rows up to its own last active ℓ, so an entry gets the same bits
    whatever else is in the call."""
    out = np.full(eps.shape, -np.inf)
    last = _last_active(eps, eps0, k)
    live = np.flatnonzero(last >= 0)
    if live.size == 0:
        return out
    e, e0, la, kk = eps[live], eps0[live], last[live], k[live]
    flips = _flips(e0)
    log_c = _log_binomial_rows(kk)
    ref = _ROW_SPAN * np.floor(_level(e, e0, kk, la, flips, log_c) / _ROW_SPAN)
    order, column, first = _columns(e0, ref, kk)
    if first.size == order.size:  # one entry per column (distinct mechanisms)
        need = la[first].astype(np.int64)
    else:
        need = np.zeros(first.size, dtype=np.int64)
        np.maximum.at(need, column, la[order].astype(np.int64))
    log_c = (log_c[0], log_c[1][first])  # the columns'
    windows = _row_windows(e0[first], kk[first], ref[first], need=need, flips=tuple(f[first] for f in flips),
                           log_c=log_c)
    for rows, members, cols in _tables(e0[first], kk[first], ref[first], column, windows, last=la[order],
                                       log_c=log_c):
        idx = order[members]
        out[live[idx]] = rows.bound(cols, e[idx], la[idx]) + rows.ref[cols]
    return out


def _log_rr_by_mechanism(eps: np.ndarray, eps0: np.ndarray, k: np.ndarray) -> np.ndarray:
    """log δ_RR(ε) (an upper bound on its float evaluation) for 1-d arrays, one mechanism (ε₀ > 0, k) per entry:
    k ≤ _K_BATCH row-wise (:func:`_rows_log_rr`, every k in one table), larger k per mechanism
    (:func:`_optimal_log_rr`).  An entry's value depends only on its own (ε, ε₀, k)."""
    out = np.empty(eps.shape)
    small = k <= _K_BATCH
    if np.any(small):
        out[small] = _rows_log_rr(eps[small], eps0[small], k[small])
    big = np.flatnonzero(~small)
    keys = np.stack([eps0[big], k[big].astype(float)], axis=1)
    groups = list(_group_slices(keys))
    together = np.flatnonzero(k[big] <= _K_TOGETHER)
    if len(together) and len(np.unique(keys[together], axis=0)) >= _MANY_PROFILES:  # built together, the same bits
        out[big[together]] = _profiles_log_rr(eps[big[together]], eps0[big[together]], k[big[together]])
        groups = [(key, members) for key, members in groups if key[1] > _K_TOGETHER]
    for (a, b), members in groups:
        idx = big[members]
        out[idx] = _optimal_log_rr(eps[idx], float(a), int(b))
    return out


_INPUT_BLOCK = 2**16  # entries per block of a call: its working arrays (~600 bytes an entry) stay below ~40 MB


def _by_blocks(fn, types, *views) -> np.ndarray:
    """``fn`` over the entries of the broadcast ``views`` (one shape), in blocks of _INPUT_BLOCK entries in order,
    each block's entries given as 1-d arrays of the given ``types``: the working memory is bounded
    whatever the number of inputs (only the result, one float per entry, is allocated whole; the tables are capped
    apart, ``_BATCH_CELLS``), and a broadcast input is never expanded beyond a block.  What an entry gets depends
    only on its own arguments, so the blocks change no bit of it.  ``fn`` raises on a bad entry (naming it) in the
    order of the entries.  Returns the result in the views' shape."""
    shape = views[0].shape
    n = views[0].size
    out = np.empty(n)
    if n <= _INPUT_BLOCK:  # one block: the entries as they are
        return fn(*(np.ravel(v).astype(t) for v, t in zip(views, types))).reshape(shape)
    for start in range(0, n, _INPUT_BLOCK):
        stop = min(start + _INPUT_BLOCK, n)
        index = np.unravel_index(np.arange(start, stop), shape) if shape else ()
        block = [np.reshape(v[index], -1).astype(t) for v, t in zip(views, types)]
        out[start:stop] = fn(*block)
    return out.reshape(shape)


def _optimal_log_deltas(flat_e: np.ndarray, flat_e0: np.ndarray, flat_k: np.ndarray, flat_d0: np.ndarray) -> np.ndarray:
    """:func:`optimal_log_delta` for 1-d arrays (ε, ε₀, k, δ₀)."""
    log_rr = np.full(flat_e.shape, -np.inf)
    on = np.flatnonzero(flat_e0 > 0.0)
    # one row per entry for k ≤ _K_BATCH, else one profile per mechanism (ε₀, k) and scale of δ
    log_rr[on] = _log_rr_by_mechanism(flat_e[on], flat_e0[on], flat_k[on])
    # an upper bound: δ_RR raised by its evaluation allowance (``_evaluation_margin``), A by its rounding
    return _log_total_bound(log_rr, flat_d0, flat_k)


def _lattice_window(eps0: float, k: int, ell: int) -> tuple[int, int]:
    """The j summed by :func:`optimal_lattice` at ℓ ≥ 1, as (start, stop): those within 40 standard deviations of
    the largest term, j* = min(ℓ − 1, mode) (log P_j is concave: the others are e^{−800} below it)."""
    q, p, _, _ = _binomial.flip_probabilities(eps0)
    top = min(ell - 1, _binomial.binomial_mode(eps0, k))
    width = int(40.0 * math.sqrt(k * q * p)) + 50
    return max(0, top - width), min(ell, top + width + 1)


def _lattice_log_rr(eps0: float, k: int, ell: int) -> tuple[float, float]:
    """(log S, E): the printed δ_ℓ of Theorem 2.8(3) at ℓ ≥ 1, ε₀ > 0, evaluated as :func:`optimal_lattice` describes,
    and an absolute allowance E on its logarithm, so that log δ_ℓ ≤ log S + E (the upper bound passed on).

    The terms a_j = log P_j + log(1 − e^{−2(ℓ−j)ε₀}) over the window [start, stop) of :func:`_lattice_window`, and two
    more that bound every term left out: log P is concave with its maximum at the mode ≥ j* (the window's largest
    term), so each P_j with j < start is at most P_{start−1}, and (when stop < ℓ, where j* is the mode) each with
    j ≥ stop at most P_stop; fewer than k of each, with factors at most 1: the terms log k + log P_{start−1} and
    log k + log P_stop bound their sums.  So S ≥ δ_ℓ in exact arithmetic.  Its float evaluation, with u = 2⁻⁵³ and
    exp, expm1, log within 4 ulps (8u relative; an absolute 8u·|y| on a logarithm y):

    * log P_j against the exact Binomial(k, q*) masses: ``_binomial.window_log_mass_error`` over [start − 1, stop];
    * the factor: x = 2(ℓ − j)·ε₀ rounded once (u relative; −expm1(−x) has relative condition x e^{−x}/(1 − e^{−x}) ≤
      1 in x), −expm1 8u, its log 8u·|log f|; log k 8u·log k; the sum a_j ½ulp ≤ u|a_j|;
    * the sum Σ e^{a_j − top} (top = max a_j, so its largest term is e⁰ = 1 and the sum is at least 1): each difference
      ½ulp ≤ u|a_j − top|, each exp 8u (or, below the normal range, 4·2⁻¹⁰⁷⁴ absolute, at most 1e-300 of the sum),
      n − 1 additions of non-negative terms (n − 1)u·1.01 in any order; its log 8u·log n + 8u; adding top and then E
      ½ulp each (≤ u|log S| each, counted with the sum's 1e-300 per term).

    E is the sum of these bounds (a few 1e-13 up to the window's mass error, which grows like 1e-14·√k)."""
    q, p, log_q, log_p = _binomial.flip_probabilities(eps0)
    start, stop = _lattice_window(eps0, k, ell)
    j = np.arange(start, stop, dtype=float)
    log_k = math.log(k)
    with np.errstate(divide="ignore", over="ignore"):
        factor = np.log(-np.expm1(-2.0 * (ell - j) * eps0))
        log_terms = _binomial.log_binom_pmf(j, k, log_q, log_p, q, p) + factor
        out = [j for j, keep in ((start - 1, start > 0), (stop, stop < ell)) if keep]
        if out:
            log_out = _binomial.log_binom_pmf(np.array(out, dtype=float), k, log_q, log_p, q, p) + log_k
            log_terms = np.concatenate([log_terms, log_out])
    finite = log_terms[np.isfinite(log_terms)]
    if finite.size == 0:
        return -math.inf, 0.0
    top = float(np.max(finite))
    diffs = finite - top
    log_s = top + math.log(float(np.sum(np.exp(diffs))))
    n = finite.size
    u = _U
    mass = _binomial.window_log_mass_error(max(start - 1, 0), min(stop, k), k, q, p, log_q, log_p)
    factors = float(np.max(np.abs(factor[np.isfinite(factor)]), initial=0.0))
    errors = (mass + u * (9.0 + 8.0 * max(factors, log_k) + float(np.max(np.abs(finite)))
                          + min(float(np.max(np.abs(diffs))), 800.0) + 8.0 + 1.01 * n + 8.0 * math.log(n) + 8.0
                          + 2.0 * abs(log_s)) + n * 1e-300)
    return log_s, errors * (1.0 + 1e-6)


def _log_rr_targets(delta: np.ndarray, delta0: np.ndarray, k: np.ndarray) -> np.ndarray:
    """log of the randomized-response part's target, (δ − A)/(1 − A) with A = 1 − (1 − δ₀)^k, rounded
    *down*, for 1-d arrays; raises ``ValueError`` (naming the first offending entry) unless δ > A.

    (δ − A)/(1 − A) = 1 − (1 − δ)/(1 − δ₀)^k = −expm1(x), x = log1p(−δ) − k·log1p(−δ₀), with no A ever
    formed.  x is known to within a few ulps of its two terms; where that is not small against x
    (δ within a relative ~1e-6 of A) x is formed again at 60 digits (δ and δ₀ are exact binary numbers).
    The bound on x's error is added before the target is taken, so the target is never overstated; the
    logarithm is then lowered by its own rounding (4 ulps of the result and 4e-16 for the argument's)."""
    if not np.any(delta0 > 0):  # no reveal mass: the target is δ itself (the last line below, as for δ₀ = 0 there)
        lt = np.log(delta)
        return lt - (4.0 * np.spacing(np.abs(lt)) + 4e-16)
    kf = k.astype(float)
    a, b = np.log1p(-delta), kf * np.log1p(-delta0)
    x = a - b
    err = 4.0 * (np.spacing(np.abs(a)) + np.spacing(np.abs(b)))
    redo = np.flatnonzero((delta0 > 0) & ~(x + err < -1e6 * err))
    for i in redo:  # cancellation: redo x in high precision (rare: δ within a relative 1e-6 of A)
        with mpmath.workdps(60):
            xm = mpmath.log1p(-mpmath.mpf(float(delta[i]))) - int(k[i]) * mpmath.log1p(-mpmath.mpf(float(delta0[i])))
            # float(xm) is within half an ulp of xm: relative 2⁻⁵³ for a normal x, absolute 2⁻¹⁰⁷⁵ for a subnormal
            # one (the floor was 1e-300, which refused every δ within 1e-300 of A although δ > A)
            x[i], err[i] = float(xm), abs(float(xm)) * 1e-15 + _rounding.SMALLEST_SUBNORMAL
    bad = np.flatnonzero((delta0 > 0) & ~(x + err < 0.0))
    if bad.size:
        i = bad[0]
        A = -math.expm1(float(b[i]))
        raise ValueError(
            f"delta must exceed 1 - (1 - delta0)**k = {A!r} for a finite epsilon to exist "
            f"(got delta={float(delta[i])!r}, delta0={float(delta0[i])!r}, k={int(k[i])})"
        )
    with np.errstate(divide="ignore"):
        # −expm1 is decreasing in x: x + err gives a target at most the exact one (expm1 itself within 1 ulp)
        lt = np.where(delta0 > 0, np.log(-np.expm1(np.minimum(x + err, 0.0))), np.log(delta))
    return lt - (4.0 * np.spacing(np.abs(lt)) + 4e-16)


def _evaluation_margin(k):
    """The relative allowance on δ_RR that the bounds of the tables leave to the caller: 1e-12 (``_SAFETY``) for
    k ≤ 1000, plus 1e-14·√k for k > 1000.

    k ≤ 1000 (:class:`_RRRows`, derived): :meth:`_RRRows.bound` already raises the value by every error of the table
    — the first term's 10u·S, the ratio steps and the sums ((8(r + 1) + 808)u and the subnormal absolute term), the
    dropped terms — so only the log-space steps after it remain: log(value) within one ulp of a number of size at
    most 745 (the value lies between the dropped terms' 4e^{−33} and ~e^{708}), the additions of 10u·S, of ref and of
    this margin (half an ulp of the result each), and the final exponential (``_rounding.exp_up``: rounded up at
    every magnitude, so it costs nothing of the margin).
    Wherever δ_RR > 0 at k ≤ 1000, |log δ_RR| ≤ k log 2 + 745 ≤ 1439: δ_RR(ε) ≥ P₀(1 −
    e^{ε − kε₀}) with P₀ = p^k ≥ 2^{−k} and the gap kε₀ − ε, a nonzero difference of floats (or, past the first
    piece, 2ε₀ ≥ 2^{−1073}), at least 2^{−1074}; so these steps move log δ by at most ulp(745) + 3·½ulp(1439) + 8u <
    6e-13, inside the 1e-12.  (The measured 1e-14·√k that was added here too covered the rounding of k·q in Loader's
    form, which this path does not use.)

    k > 1000 (:class:`_RRProfile`): the window's log-masses carry their own derived error (``log_error``,
    ``_binomial.window_log_mass_error``), added to the bound; the measured 1e-14·√k (the rounding of k·q in
    Loader's deviance; measured 1.65e-11 at k = 1e9) is kept there as slack."""
    k = np.asarray(k)
    extra = np.where(k > _K_BATCH, 1e-14 * np.sqrt(np.maximum(k, 1)), 0.0)
    out = _SAFETY + extra
    return float(out) if out.ndim == 0 else out


_GROUP_SPAN = 64.0  # targets are grouped by ⌊log target / 64⌋: one window and one scale per group


def _group_slices(keys: np.ndarray):
    """The rows of ``keys`` (n × m floats) grouped by equal rows: yields (first row, indices of the group)."""
    if keys.shape[0] == 0:
        return
    if np.all(keys == keys[0]):  # one group (the usual case: one mechanism): no sort
        yield keys[0], np.arange(keys.shape[0])
        return
    _, inverse = np.unique(keys, axis=0, return_inverse=True)
    inverse = np.ravel(inverse)
    order = np.argsort(inverse, kind="stable")
    bounds = np.flatnonzero(np.diff(inverse[order])) + 1
    for members in np.split(order, bounds):
        yield keys[members[0]], members


def _optimal_epsilons(eps0: np.ndarray, k: np.ndarray, delta: np.ndarray, delta0: np.ndarray) -> np.ndarray:
    """The smallest ε with δ(ε) ≤ δ for 1-d arrays, on the safe side by construction.

    Each target is rounded down (:func:`_log_rr_targets`).  Entries with k ≤ _K_BATCH go to :func:`_rows_epsilons`
    (one column of a windowed 2-D table each, the same steps, checked by the tables' own upper bound on δ_RR: an
    upper bound on the exact δ_RR, so the ε is safe, though optimal_delta's own window, set by the level of δ at
    that ε, may round its bound differently, by a relative ~1e-12).  The others are grouped by (ε₀, k,
    ⌊log target/64⌋): per group the k-fold randomized-response profile is built once, on a window that holds every
    term above e^{ref − 60}/k (ref = 64·⌊log target/64⌋, below every target of the group), with its piecewise tables
    (:meth:`_RRProfile.tables`).  Every target of the group is solved in closed form (:meth:`_RRProfile.solve`)
    below the target by the evaluation margin and the window's log-mass error (``log_error``) and the margin
    again, the ε found is rounded up by 4 ulps and checked once by the upper bound on δ_RR that
    :func:`optimal_delta` uses (so optimal_delta(ε) ≤ δ holds for the ε returned, up to the rounding of
    A + δ_RR(1 − A) when δ is within a few ulps of A); the entries that
    fail are solved again with the extra margin doubled (never a loop of ulp steps).  What an entry gets depends
    only on its own (ε₀, k, δ, δ₀), so an array call equals the scalar calls bit for bit."""
    log_t = _log_rr_targets(delta, delta0, k)
    out = np.zeros(eps0.shape)
    active = (eps0 > 0.0) & (log_t < 0.0)
    with np.errstate(over="ignore"):
        huge = active & np.isinf(eps0 * k)  # the answer kε₀ + log(1 − δ_RR) exceeds the float range
    out[huge] = math.inf
    live = np.flatnonzero(active & ~huge)
    small = k[live] <= _K_BATCH
    if np.any(small):  # many mechanisms of small k: one column each of one table (_RRRows)
        idx = live[small]
        out[idx] = _rows_epsilons(eps0[idx], k[idx], log_t[idx])
    live = live[~small]
    keys = np.stack([eps0[live], k[live].astype(float), np.floor(log_t[live] / _GROUP_SPAN)], axis=1)
    groups = list(_group_slices(keys))
    together = k[live] <= _K_TOGETHER
    if len({(a, b) for (a, b, _), _ in groups if b <= _K_TOGETHER}) >= _MANY_PROFILES:  # built together, same bits
        out[live[together]] = _profiles_epsilons(eps0[live[together]], k[live[together]], log_t[live[together]])
        groups = [(key, members) for key, members in groups if key[1] > _K_TOGETHER]
    for (e0, kf, bucket), members in groups:
        idx = live[members]
        kk = int(kf)
        ref = _GROUP_SPAN * bucket
        margin = _evaluation_margin(kk)
        prof = _RRProfile(float(e0), kk, ref - 60.0 - math.log(kk))
        if prof.ell.size == 0:
            continue  # nothing active above the floor: δ_RR(0) ≤ target, ε = 0
        tables = prof.tables(ref)
        profiles = {ref: (prof, tables)}  # the check's tables where its scale is this ref (the same floor)
        target = log_t[idx] - ref
        eps = np.full(idx.size, math.inf)
        slack = np.full(idx.size, margin)
        todo = np.arange(idx.size)
        for _ in range(60):
            e = np.atleast_1d(_rounding.up(prof.solve(tables, target[todo] - margin - prof.log_error - slack[todo]), 4))
            # the check is optimal_delta's own upper bound on δ_RR at e, against the randomized-response target
            ok = np.isinf(e) | (_optimal_log_rr(e, float(e0), kk, profiles) - ref + margin <= target[todo])
            eps[todo[ok]] = e[ok]
            todo = todo[~ok]
            if todo.size == 0:
                break
            slack[todo] *= 2.0  # (the margin reaches the size of δ itself long before 60 rounds; then ε = inf)
        out[idx] = eps
    return out



def _rows_epsilons(eps0: np.ndarray, k: np.ndarray, log_t: np.ndarray) -> np.ndarray:
    """The loop of :func:`_optimal_epsilons` for many mechanisms of k ≤ _K_BATCH, one column of ``_RRRows`` per
    distinct (k, ε₀, ref), ref = 4·⌊log target/4⌋, every k in one table, cut above the piece that can hold any
    target of the column (:func:`_row_windows`' ceiling).  Each entry is solved below its target by the margin (with
    the direct form's allowance 10u·S) and as much again, rounded up 4 ulps and checked by the upper bound of these
    tables at the ε found (:meth:`_RRRows.bound`, the dropped terms added: an upper bound on the exact δ_RR);
    failing entries are solved again with the extra margin doubled.  A column with no term above its floor has
    δ_RR(0) below the dropped terms' bound: ε = 0, checked like the others."""
    out = np.zeros(eps0.shape)
    margin = _evaluation_margin(1)  # (the same for every k ≤ _K_BATCH)
    ref = _ROW_SPAN * np.floor(log_t / _ROW_SPAN)
    order, column, first = _columns(eps0, ref, k)
    # a column's tables reach up to the piece that holds its largest target (the rows below any row are the same
    # whatever the table's extent, so an entry's answer does not depend on the column's other entries)
    if first.size == order.size:  # one entry per column (distinct mechanisms)
        ceiling = log_t[first]
    else:
        ceiling = np.full(first.size, -np.inf)
        np.maximum.at(ceiling, column, log_t[order])
    log_c = _log_binomial_rows(k[first])
    windows = _row_windows(eps0[first], k[first], ref[first], ceiling=ceiling + 1e-6, log_c=log_c)
    for rows, members, cols in _tables(eps0[first], k[first], ref[first], column, windows, log_c=log_c):
        entries = order[members]
        target = log_t[entries] - rows.ref[cols]
        eps = np.zeros(entries.shape)
        lead = margin + 10.0 * _U * rows.s_max[cols]
        slack = lead.copy()
        todo = np.arange(entries.size)
        for _ in range(60):
            c = cols[todo]
            e = np.atleast_1d(_rounding.up(rows.solve(c, target[todo] - lead[todo] - slack[todo]), 4))
            log_rr = np.full(e.shape, -np.inf)
            last = _last_active(e, rows.eps0[c], rows.k[c])
            live = np.flatnonzero(last >= 0)  # (no loss above ε: δ_RR = 0)
            log_rr[live] = rows.bound(c[live], e[live], last[live])
            ok = np.isinf(e) | (log_rr + margin <= target[todo])
            eps[todo[ok]] = e[ok]
            todo = todo[~ok]
            if todo.size == 0:
                break
            slack[todo] *= 2.0
        else:  # (the margin reaches the size of δ itself long before 60 rounds)
            eps[todo] = math.inf
        out[entries] = eps
    return out
