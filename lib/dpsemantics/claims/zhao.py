"""Claims of Zhao, *Relations Among Different Privacy Notions* (source 001), recomputed.

Printed relations (implications, inequalities, properties of g) are claims with ``printed=True``; the
computation checks them on the finite mechanisms and correlated priors of
:func:`dpsemantics.notions.example_cases` (exhaustively over adversaries, outputs and, for membership
privacy, events) or on fine grids of ε, b and q.
"""

from __future__ import annotations

import math

import numpy as np

from ..notions import (
    bdp_leakage,
    example_cases,
    improvement_range_end,
    leakage_pairs,
    membership_g,
    membership_privacy,
    membership_privacy_direct,
    scaled_posterior_ratio,
    theorem4_threshold,
    tight_converse_level,
    zhao_converse_level,
)
from . import Claim

CHAPTER = "book/privacy-notions"
_EPS_GRID = np.linspace(1e-3, 1.35, 2000)
_CACHE: dict = {}


def _pairs() -> np.ndarray:
    if "pairs" not in _CACHE:
        cases = example_cases(seed=0, count=40)
        _CACHE["names"] = [name for name, _, _ in cases]
        _CACHE["pairs"] = leakage_pairs(cases)
    return _CACHE["pairs"]


def _forward(eps_col: int, sem_col: int) -> bool:
    """Every case: semantic level ≤ e^{2ε} − 1 at the case's own (B)DP ε."""
    p = _pairs()
    return bool(np.all(p[:, sem_col] <= np.expm1(2 * p[:, eps_col]) + 1e-12))


def _converse(eps_col: int, sem_col: int) -> bool:
    """Every case with semantic level δ < 1/2: its (B)DP ε is at most the ε with 1/2 − 1/(e^ε+1) = δ,
    i.e. the mechanism is δ-(B)SP with δ = zhao_converse_level(ε) only if it is ε-(B)DP."""
    p = _pairs()
    ok = p[:, sem_col] < 0.5
    eps_needed = 2 * np.arctanh(2 * p[ok, sem_col])
    return bool(ok.any() and np.all(p[ok, eps_col] <= eps_needed + 1e-9))


def _bsp_dominates_sp() -> bool:
    """Full-support priors only (random cases and Markov chains with stay < 1): SP ≤ BSP."""
    p = _pairs()
    full = np.array(["copies" not in name for name in _CACHE["names"]])
    return bool(full.any() and np.all(p[full, 1] <= p[full, 3] + 1e-12))


def _theorem3() -> bool:
    """MP at every prior probability b on a grid never exceeds the BDP leakage."""
    for _, mech, prior in example_cases(seed=1, count=8):
        leak = bdp_leakage(mech, prior)
        for b in (1e-6, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999):
            if membership_privacy(mech, prior, b) > leak + 1e-9:
                return False
    return True


def _theorem4() -> bool:
    """Over the downward-scalable family (every b in (0, 1)), the MP parameter reaches the BDP leakage:
    at b = 1e-9 it is within 1e-6 of it, for every case with finite leakage."""
    for _, mech, prior in example_cases(seed=2, count=8):
        leak = bdp_leakage(mech, prior)
        if math.isfinite(leak) and abs(membership_privacy(mech, prior, 1e-9) - leak) > 1e-6:
            return False
    return True


def _lemma1() -> bool:
    """Definition 3 checked over all events (direct) agrees with 'ratio ≤ g(b)' on a grid of ε and b."""
    rng = np.random.default_rng(3)
    for _ in range(40):
        p_in, p_out = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
        ratio = float(np.max(p_in / p_out))
        for b in (0.02, 0.2, 0.5, 0.8, 0.98):
            direct = membership_privacy_direct(p_in, p_out, b)
            for eps in np.linspace(0.05, 3.0, 25):
                lemma = ratio <= membership_g(b, eps) * (1 + 1e-12)
                if (direct <= eps + 1e-12) != lemma and abs(direct - eps) > 1e-9:
                    return False
    return True


def _g_minimum() -> bool:
    bs = np.linspace(0, 1, 4001)
    for eps in (0.1, 0.5, 1.0, 2.0, 5.0):
        g = membership_g(bs, eps)
        ends = (membership_g(0.0, eps), membership_g(1.0, eps))
        if not (np.isclose(ends[0], math.exp(eps), rtol=1e-12) and np.isclose(ends[1], math.exp(eps), rtol=1e-12)):
            return False
        if g.min() < math.exp(eps) * (1 - 1e-12):
            return False
    return True


def _g_monotone() -> bool:
    for eps in (0.1, 0.5, 1.0, 2.0, 5.0):
        split = 1 / (1 + math.exp(eps))
        up = membership_g(np.linspace(0, split, 2001), eps)
        down = membership_g(np.linspace(split, 1, 2001)[1:], eps)
        if not (np.all(np.diff(up) > 0) and np.all(np.diff(down) < 0)):
            return False
    return True


def _g_branches() -> bool:
    for eps in (0.1, 0.5, 1.0, 2.0, 5.0):
        e = math.exp(eps)
        split = 1 / (1 + e)
        g1 = lambda x: (1 - x) / (1 / e - x)  # noqa: E731
        g2 = lambda x: (e - 1 + x) / x  # noqa: E731
        low = np.linspace(split / 1000, split, 500)
        high = np.linspace(split, 1 / e, 502)[1:-1]
        if not (np.all(g1(low) <= g2(low) * (1 + 1e-12)) and np.all(g1(high) >= g2(high) * (1 - 1e-12))):
            return False
    return True


def _eq39() -> bool:
    qs = np.linspace(1e-4, 1, 3000)
    for eps in (0.1, 0.5, 1.0, 2.0):
        for alpha in (math.exp(eps) * 1.01, math.exp(eps) * 2, math.exp(eps) * 10):
            q_star = theorem4_threshold(alpha, eps)
            exceeds = scaled_posterior_ratio(alpha, qs) > math.exp(eps)
            far = np.abs(qs - q_star) > 1e-9
            if not np.array_equal(exceeds[far], (qs < q_star)[far]):
                return False
    return True


def _odds_identity() -> float:
    d = zhao_converse_level(_EPS_GRID)
    return float(np.max(np.abs(np.log((0.5 + d) / (0.5 - d)) - _EPS_GRID)))


CLAIMS = [
    Claim(
        "zhao-sec2-improvement", "zhao", "Sec. II and after Theorem 2",
        "1/2 − 1/(e^ε+1) > ε/6 for 0 < ε ≤ 1.35 (Zhao's converse level beats K&S's)",
        True, lambda: bool(np.all(zhao_converse_level(_EPS_GRID) > _EPS_GRID / 6)) and improvement_range_end() > 1.35,
        note="Holds exactly on (0, 2.5757); the paper states it on the range where K&S's result applies.",
        chapter=CHAPTER,
    ),
    Claim(
        "zhao-sec2-ks-range", "zhao", "Abstract; Sec. II",
        "K&S: ε-DP is implied by ε/6-SP for ε ≤ 1.35 (K&S Thm 2.2: ε/2-SP ⇒ 3ε-DP for ε ≤ 0.45)",
        True, lambda: bool(np.all(_EPS_GRID / 6 <= tight_converse_level(_EPS_GRID))),
        note="Checked against the exact converse tanh(ε/4) ≥ ε/6, which holds far beyond 1.35 (up to ≈ 5.15).",
        chapter=CHAPTER,
    ),
    Claim(
        "zhao-eq20-odds", "zhao", "Proof of Theorem 1, eq. (20)",
        "(1/2 + (1/2 − 1/(e^ε+1))) / (1/2 − (1/2 − 1/(e^ε+1))) = e^ε (max |log-ratio − ε| over a grid)",
        0.0, _odds_identity, atol=1e-12, chapter=CHAPTER,
    ),
    Claim(
        "zhao-thm1-forward", "zhao", "Theorem 1 (first part)",
        "ε-Bayesian DP implies (e^{2ε} − 1)-Bayesian semantic privacy", True, lambda: _forward(2, 3),
        note="Holds on every example; the exact worst case is tanh(ε/2), far below e^{2ε} − 1.", chapter=CHAPTER,
    ),
    Claim(
        "zhao-thm1-converse", "zhao", "Theorem 1 (second part)",
        "(1/2 − 1/(e^ε+1))-Bayesian semantic privacy implies ε-Bayesian DP", True, lambda: _converse(2, 3),
        note="Holds on every example; the exact converse level is tanh(ε/4).", chapter=CHAPTER,
    ),
    Claim(
        "zhao-thm2-forward", "zhao", "Theorem 2 (first part, from K&S)",
        "ε-DP implies (e^{2ε} − 1)-semantic privacy", True, lambda: _forward(0, 1), chapter=CHAPTER,
    ),
    Claim(
        "zhao-thm2-converse", "zhao", "Theorem 2 (second part)",
        "(1/2 − 1/(e^ε+1))-semantic privacy implies ε-DP", True, lambda: _converse(0, 1), chapter=CHAPTER,
    ),
    Claim(
        "zhao-ii-bsp-implies-sp", "zhao", "Sec. II (ii); remark after Definition 2",
        "(e^{2ε} − 1)-Bayesian semantic privacy implies (e^{2ε} − 1)-semantic privacy (SP ≤ BSP)",
        True, _bsp_dominates_sp,
        note="Needs a prior of full support: with copied records the adversary S = N∖{i} sees nothing.",
        chapter=CHAPTER,
    ),
    Claim(
        "zhao-thm3", "zhao", "Theorem 3", "ε-Bayesian DP implies ε-membership privacy (family D*)",
        True, _theorem3, chapter=CHAPTER,
    ),
    Claim(
        "zhao-thm4", "zhao", "Theorem 4",
        "For a downward-scalable family, ε-membership privacy implies ε-Bayesian DP", True, _theorem4,
        chapter=CHAPTER,
    ),
    Claim(
        "zhao-lemma1", "zhao", "Lemma 1, eq. (23)",
        "⟨D, ε⟩-MP holds iff P[Y|x_i]/P[Y|x̄_i] ≤ g(P_D[x_i]) (checked against all events)", True, _lemma1,
        chapter=CHAPTER,
    ),
    Claim(
        "zhao-cor1-g-min", "zhao", "Proof of Corollary 1, eq. (26)",
        "g takes its minimum g(0) = g(1) = e^ε", True, _g_minimum, chapter=CHAPTER,
    ),
    Claim(
        "zhao-cor1-g-monotone", "zhao", "Proof of Corollary 1",
        "g increases on [0, 1/(1+e^ε)] and decreases on (1/(1+e^ε), 1]", True, _g_monotone, chapter=CHAPTER,
    ),
    Claim(
        "zhao-lemma1-g1-g2", "zhao", "Proof of Lemma 1, eq. (38)",
        "g1 ≤ g2 on (0, 1/(1+e^ε)] and g1 ≥ g2 on (1/(1+e^ε), e^{−ε})", True, _g_branches, chapter=CHAPTER,
    ),
    Claim(
        "zhao-eq39-threshold", "zhao", "Proof of Theorem 4, eq. (39)",
        "α/(αq + 1 − q) > e^ε exactly when q < (α − e^ε)/(e^ε(α − 1)), for α > e^ε", True, _eq39,
        chapter=CHAPTER,
    ),
]

__all__ = ["CLAIMS"]
