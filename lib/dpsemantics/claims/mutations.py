"""Mutated statements: what makes a check falsifiable.

A check that a printed relation holds is worth something only if it refutes a *false* statement close to
the printed one.  Each :class:`Mutation` changes a registered statement so that it becomes false, by one of
three moves (:data:`KINDS`), and returns the check's :class:`~dpsemantics.claims.Verdict` on the mutated
statement; ``tests/claims/test_claims.py`` requires every one to be refuted.

- ``bound-at-0.99-supremum``: the printed bound scaled to 0.99 × the *known* supremum of lhs/rhs over the
  statement's domain (from a construction or the paper, named in ``supremum_from``, never from the check's
  own margin);
- ``smaller-constant``: a constant of the statement replaced by a smaller one;
- ``hypothesis-dropped``: the statement evaluated where a hypothesis fails.

The mutations live here, not in the paper modules, so that one file lists what each check is asked to refute.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import Verdict

__all__ = ["Mutation", "KINDS", "MUTATIONS"]

KINDS = ("bound-at-0.99-supremum", "smaller-constant", "hypothesis-dropped")


@dataclass(frozen=True)
class Mutation:
    """A false variant of claim ``claim_id``'s statement and the check's verdict on it (``compute()``)."""

    claim_id: str
    kind: str
    statement: str
    compute: Callable[[], Verdict]
    supremum_from: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS} (got kind={self.kind!r})")
        if self.kind == "bound-at-0.99-supremum" and not self.supremum_from:
            raise ValueError(f"{self.claim_id}: a bound scaled to its supremum must say where the supremum comes from")


def _scaled(claim_id: str, factor: float = 0.99):
    """The registered check of ``claim_id`` with its printed bound scaled by ``factor``."""
    def compute():
        from . import get

        return get(claim_id).compute(tighten=factor)
    return compute


def _zcdp_constant_one() -> Verdict:
    """Kazan Theorem 2.7 with the constant 2 replaced by 1: ε = ρ + √(ρ log 1/δ).  The Gaussian mechanism
    (exactly ρ-zCDP) needs more than δ there."""
    from ..conversions import zcdp_gaussian_delta

    lhs, rhs, labels = [], [], []
    for rho in (0.01, 0.1, 1.0):
        for delta in (1e-6, 1e-3):
            lhs.append(float(zcdp_gaussian_delta(rho, rho + math.sqrt(rho * math.log(1 / delta)))))
            rhs.append(delta)
            labels.append(f"Gaussian, rho={rho}, delta={delta:g}")
    return Verdict.of(lhs, rhs, evidence="extremal", labels=labels)


def _improvement_constant_four() -> Verdict:
    """Zhao Sec. II with ε/6 replaced by ε/4: 1/2 − 1/(e^ε + 1) = tanh(ε/2)/2 < ε/4 for every ε > 0, so the interval
    proof must fail and return a counterexample."""
    from mpmath import iv

    from .certify import interval_verdict

    grid = np.linspace(0.01, 1.35, 50)
    return interval_verdict(lambda e: iv.mpf(0.5) - 1 / (iv.exp(e) + 1) - e / 4, [(0.0, 1.35)], grid / 4,
                            0.5 - 1 / (np.exp(grid) + 1), [f"ε={e:.3f}" for e in grid],
                            dh=lambda e: iv.exp(e) / (iv.exp(e) + 1) ** 2 - iv.mpf(1) / 4, anchor=0.0,
                            domain="ε ∈ (0, 1.35]")


def _thm24_condition_dropped() -> Verdict:
    """K&S Theorem 2.4 (1) without its hypothesis δ < (1 − e^{−ε})²/n: at δ = 2·(1 − e^{−ε})²/n the proof's
    √(nδ) < 1 − e^{−ε} fails."""
    from .. import semantic as S

    lhs, rhs, labels = [], [], []
    for eps in (0.1, 1.0):
        for n in (1, 10):
            delta = 2 * float(S.thm24_max_delta(eps, n))
            lhs.append(math.sqrt(n * delta)), rhs.append(-math.expm1(-eps))
            labels.append(f"eps={eps}, n={n}, delta=2*max")
    return Verdict.of(lhs, rhs, evidence="closed-form", labels=labels)


def _dp_bdp_dependent() -> Verdict:
    """Zhao Sec. I (Yang et al.'s Theorem 1) without independence: ε-local randomized response on two records
    under a prior that copies the record has BDP leakage 2ε > ε."""
    from ..mechanisms import local_randomized_response
    from ..notions import bdp_leakage

    lhs, rhs, labels = [], [], []
    for eps in (0.1, 1.0):
        copies = {(0, 0): 0.5, (0, 1): 0.0, (1, 0): 0.0, (1, 1): 0.5}
        lhs.append(bdp_leakage(local_randomized_response(2, eps), copies)), rhs.append(eps)
        labels.append(f"local RR, eps={eps}, copied records")
    return Verdict.of(lhs, rhs, evidence="extremal", labels=labels)


def _dp_implies_def3_without_independence() -> Verdict:
    """Tschantz et al. Table 1 row 4 with its hypothesis (independent data points) dropped: DP ⇒ Definition 3 with
    the same ε.  At the population ½ on (0, 0) and ½ on (1, 1), Pr[O=0 | D₁=v] = 𝒜(v, v)(0); the LP over every ε-DP
    mechanism with 3 outputs on {0,1,2}² reaches e^{2ε}·q, above e^ε·q."""
    from fractions import Fraction

    from .causal_evidence import mechanism_lp, neighbours

    lhs, rhs, labels = [], [], []
    q = Fraction(1, 50)
    for E in (Fraction(11, 10), Fraction(3, 2), Fraction(2)):
        cert = mechanism_lp(2, 3, 3, E, neighbours(2, 3), {(1, 1): 1}, {(0, 0): 1}, q)
        lhs.append(cert.primal), rhs.append(float(E * q))
        labels.append(f"e^ε = {E}: correlated population, Pr[O=0 | D₁=1] given Pr[O=0 | D₁=0] = {q}")
    return Verdict.of(lhs, rhs, evidence="certified-lp", labels=labels, domain="every ε-DP mechanism with 3 outputs on "
                      "{0,1,2}², at the population ½ on (0,0), ½ on (1,1)", certificate=f"{len(lhs)} LPs (HiGHS)")


def _interference_constant_one() -> Verdict:
    """Tschantz et al. §2 with n replaced by 1: changing the whole input moves the output by at most ε_DP.  The LP
    over every ε-DP mechanism on {0,1}² reaches e^{2ε}·q for databases two apart."""
    from fractions import Fraction

    from .causal_evidence import mechanism_lp, neighbours

    lhs, rhs, labels = [], [], []
    q = Fraction(1, 50)
    for E in (Fraction(3, 2), Fraction(2)):
        cert = mechanism_lp(2, 2, 3, E, neighbours(2, 2), {(1, 1): 1}, {(0, 0): 1}, q)
        lhs.append(cert.primal), rhs.append(float(E * q))
        labels.append(f"e^ε = {E}: 𝒜(1,1)(0) given 𝒜(0,0)(0) = {q}, against e^ε·q")
    return Verdict.of(lhs, rhs, evidence="certified-lp", labels=labels, domain="every ε-DP mechanism with 3 outputs on "
                      "{0,1}²", certificate=f"{len(lhs)} LPs (HiGHS)")


MUTATIONS = [
    Mutation("lecture-ex7.2-transitivity", "bound-at-0.99-supremum", "(p, r) is (2ε, 0.99(1 + e^ε)δ)-close",
             _scaled("lecture-ex7.2-transitivity"), "the three-point witness attains (1 + e^ε)δ (lecture-ex7.2-tight)"),
    Mutation("lecture-s5-composition-bound", "bound-at-0.99-supremum", "two mechanisms compose to 0.99(ε₁ + ε₂)-DP",
             _scaled("lecture-s5-composition-bound"), "randomized response composes to exactly ε₁ + ε₂"),
    Mutation("lecture-ex7.1-tv", "bound-at-0.99-supremum", "TV privacy bound scaled by 0.99",
             _scaled("lecture-ex7.1-tv"), "an equivalence: both directions are equalities"),
    Mutation("kazan-thm3.9-holds", "bound-at-0.99-supremum", "(ε, δ)-DP ⇒ PDP failure probability ≤ 0.99δ′",
             _scaled("kazan-thm3.9-holds"),
             "Theorem 3.9 is tight (kazan-thm3.9-tight: the extremal pair attains δ′)"),
    Mutation("kazan-thm2.5-pdp-dp", "bound-at-0.99-supremum", "(ε, δ)-PDP ⇒ (ε, 0.99δ)-DP",
             _scaled("kazan-thm2.5-pdp-dp"),
             "a pair whose losses above ε all carry mass δ on one side with none on the other attains δ"),
    Mutation("kazan-cor3.12-1-two-delta", "smaller-constant", "the difference bound with 1 − δ ⇒ (ε, 0.99δ)-DP",
             _scaled("kazan-cor3.12-1-two-delta", 0.99 / 2), "the hockey stick at ε reaches δ (the note's argument)"),
    Mutation("kazan-thm2.7-zcdp-dp", "smaller-constant", "ρ-zCDP ⇒ (ρ + √(ρ log 1/δ), δ)-DP (constant 2 → 1)",
             _zcdp_constant_one),
    Mutation("ks-lem3.3-1", "bound-at-0.99-supremum", "point-wise (ε, δ) ⇒ (ε, 0.99δ)-indistinguishable",
             _scaled("ks-lem3.3-1"), "p = (δ, 1 − δ), q = (0, 1) attains δ"),
    Mutation("ks-s2.1-testing", "bound-at-0.99-supremum", "power ≤ 0.99(e^ε α + δ)",
             _scaled("ks-s2.1-testing"), "randomized response attains e^ε α for α ≤ 1/(1 + e^ε)"),
    Mutation("ks-thm2.4-1-condition", "hypothesis-dropped", "√(nδ) < 1 − e^{−ε} without δ < (1 − e^{−ε})²/n",
             _thm24_condition_dropped),
    Mutation("zhao-sec2-improvement", "smaller-constant", "1/2 − 1/(e^ε+1) > ε/4 on (0, 1.35] (6 → 4)",
             _improvement_constant_four),
    Mutation("lecture-ex7.2-transitivity-search", "bound-at-0.99-supremum", "(p, r) is (2ε, 0.99(1 + e^ε)δ)-close, "
             "float-ε search", _scaled("lecture-ex7.2-transitivity-search"),
             "the three-point witness attains (1 + e^ε)δ (lecture-ex7.2-tight)"),
    Mutation("ks-lem3.3-5", "bound-at-0.99-supremum", "SD ≤ 0.99(e^ε − 1 + δ)", _scaled("ks-lem3.3-5"),
             "(e^ε − 1 + 2δ)/(e^ε + 1) → e^ε − 1 + δ as ε → 0 with δ ≫ ε (the LP's exact optimum); the certified "
             "grid includes e^ε = 1001/1000, δ = 1/2, where the ratio is 0.9985"),
    Mutation("zhao-sec1-dp-implies-bdp-independent", "hypothesis-dropped",
             "ε-DP ⇒ ε-Bayesian DP without independent records", _dp_bdp_dependent),
    Mutation("tsd-table1-def4-attack", "hypothesis-dropped", "ε-DP ⇒ Definition 3 with the same ε (independent data "
             "points dropped)", _dp_implies_def3_without_independence),
    Mutation("tsd-s2-noninterference", "smaller-constant", "changing the whole input moves the output by at most "
             "1·ε_DP (n → 1)", _interference_constant_one),
    Mutation("tsd-table1-def7-attack", "bound-at-0.99-supremum", "ε-DP ⇒ Definition 7 with 0.99·e^ε in place of e^ε",
             _scaled("tsd-table1-def7-attack"),
             "the ε-DP mechanism with 𝒜(d)(0) = e^ε 𝒜(d′)(0) on one pair attains e^ε at the point-mass population "
             "(the pair LP's primal)"),
    Mutation("tsd-s1.1-data-point-effect-any-relation", "bound-at-0.99-supremum", "the effect of D₁ on O is at most "
             "0.99·e^ε", _scaled("tsd-s1.1-data-point-effect-any-relation"),
             "the geometric count's ratio e^ε between neighbouring counts, at a point-mass population"),
    Mutation("tsd-prop4-half", "bound-at-0.99-supremum", "Pr[O=o | do(Dᵢ=d)] ≤ 0.99·½", _scaled("tsd-prop4-half"),
             "eqs. (18)–(19): every interventional probability is exactly ½"),
]
