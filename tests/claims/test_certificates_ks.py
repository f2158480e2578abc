"""Certificates for Kasiviswanathan–Smith and Zhao (issue 20): each certified verdict is a proof on the stated
domain or a certified counterexample, and each kind of certificate refutes a false variant.

The falsifiability tests change the *statement* (the bound scaled by ``tighten`` below its supremum, a corrected
statement that is true, a hypothesis dropped) and require the certificate to fail or the counterexample not to be
certified.  The interval primitives are checked against references computed without the package (``math.erf``,
hand-counted point-wise δ's).
"""

import math
from fractions import Fraction

import pytest

CERTIFIED_KS = ["ks-s3.2-restatement", "ks-eq6", "ks-thm2.4-1-condition", "ks-thm2.4-1-repaired",
                "ks-lem3.3-eq7-eq8", "ks-thm4.2-condition", "ks-a2-gaussian-calibration", "ks-lem3.3-2-printed",
                "ks-fn3-postprocessing", "ks-s3.2-eps-sp-3eps-dp", "ks-thm2.4-2"]
CERTIFIED_ZHAO = ["zhao-eq39-threshold", "zhao-sec2-improvement-range-end"]
#: Certified counterexamples that semantic_evidence's refutation helper downgrades to closed-form: it asks whether the
#: verdict's kind is still "certified-interval", which a refutation's kind is no longer (issue 35: "counterexample").
_DOWNGRADED = pytest.mark.xfail(strict=True, reason="semantic_evidence checks v.kind != 'certified-interval' for a "
                                                    "refutation; it must check 'counterexample' (issue 35)")


@pytest.mark.parametrize("claim_id", [pytest.param(c, marks=_DOWNGRADED)
                                      if c in ("ks-s3.2-eps-sp-3eps-dp", "ks-thm2.4-2") else c
                                      for c in CERTIFIED_KS + CERTIFIED_ZHAO])
def test_certified_with_the_expected_status(claim_id):
    """A certificate by interval arithmetic: a proof on the whole domain when the claim is expected to reproduce, a
    counterexample (never a proof's label) when it is expected to be a discrepancy."""
    from dpsemantics import claims

    claim = claims.get(claim_id)
    result = claims.evaluate(claim)
    assert result.verdict.certified_by == "certified-interval", result.verdict.certificate
    assert result.status == claim.expected
    assert result.verdict.domain and result.verdict.certificate
    if claim.expected == "discrepancy":  # a certified counterexample, never a proof
        assert result.verdict.kind == "counterexample" and not result.verdict.holds
        assert "counterexample" in result.verdict.certificate or "exact" in result.verdict.certificate
    else:
        assert result.verdict.kind in ("certified-interval", "certified-at-points")


@pytest.mark.parametrize("claim_id, factor", [
    ("ks-thm2.4-1-condition", 0.99),   # sup of √(nδ)/(1 − e^{−ε}) over the domain is 1 (δ → the condition's edge)
    ("ks-lem3.3-eq7-eq8", 0.99),       # (7)/(8) = e^{−2ε} → 1 as ε → 0
    ("ks-thm2.4-1-repaired", 0.63),    # n·δ″/(4√(nδ)) tends to 9/14 = 0.643 (next test)
    ("zhao-sec2-improvement-range-end", 0.5),  # the crossing 2.5757 is below 1.35/0.5
])
def test_interval_proofs_refute_a_tightened_bound(claim_id, factor):
    """The printed bound scaled below the relation's supremum: the branch-and-bound must fail and say where."""
    from dpsemantics import claims

    verdict = claims.get(claim_id).compute(tighten=factor)
    assert not verdict.holds
    assert verdict.kind != "certified-interval"


def test_repaired_theorem_24_bound_is_approached():
    """Independent: with f → 1 and ε → 0 the repaired n·δ″/(4√(nδ)) = (2f + (1 + e^{2ε})fu/δ̂*)/4 tends to
    (2 + 4/7)/4 = 9/14 ≈ 0.643 — so scaling the bound to 0.63 must be refuted (previous test)."""
    eps, f = 1e-7, 1 - 1e-9
    u, e3 = -math.expm1(-eps), math.expm1(3 * eps)
    dhat = (e3 * (e3 + 1) + 2 * f * u * (e3 + 2)) / 2
    assert (2 * f + (1 + math.exp(2 * eps)) * f * u / dhat) / 4 == pytest.approx(9 / 14, rel=1e-5)


def test_refutation_does_not_certify_a_true_statement():
    """Equation (6) corrected (window ½ ± ε/2: log((1 + ε)/(1 − ε)) ≤ 3ε, true up to 0.8586) at ε = 9/20: the
    same certificate must not claim a counterexample."""
    from mpmath import iv

    from dpsemantics.claims.certify import interval_refutation

    v = interval_refutation(lambda e: 3 * e - iv.log((1 + e) / (1 - e)), [Fraction(9, 20)], [0.9], [1.35], ["x"],
                            domain="test")
    assert v.kind == "closed-form" and "not certified" in v.certificate


def test_theorem_42_with_theorem_24s_condition_is_not_refuted():
    """Dropping Theorem 4.2's weak hypothesis for Theorem 2.4's (√(nδ₂) < 1 − e^{−ε}): at ε = 1/5,
    √(nδ₂) = 0.18 < 1 − e^{−0.2} = 0.1813 the step holds, so no counterexample may be certified there."""
    from mpmath import iv

    from dpsemantics.claims.certify import interval_refutation

    h = lambda e, r: 4 * r - (2 * r + 2 * r * r / -iv.expm1(-e))  # noqa: E731
    assert interval_refutation(h, [Fraction(1, 5), Fraction(18, 100)], [1.0], [1.0], ["x"], domain="t").kind \
        == "closed-form"


def test_semantic_privacy_proof_fails_below_the_supremum():
    """Randomized response with ε₀ = 2 has semantic ε exactly tanh(1/2) = 0.46212: the branch-and-bound proves
    0.4622 and must fail at 0.4620."""
    from dpsemantics.claims.semantic_evidence import _rr_semantic_bound

    assert math.tanh(0.5) < 0.4622
    assert _rr_semantic_bound(Fraction(2), Fraction(4622, 10000)).proved
    assert not _rr_semantic_bound(Fraction(2), Fraction(4620, 10000)).proved


def test_iv_ncdf_encloses_the_normal_cdf():
    from mpmath import iv

    from dpsemantics.claims.certify import iv_erf, iv_ncdf

    iv.prec = 160
    for x in (-5.0, -3.32, -0.5, 0.0, 1.0, 2.35, 4.0):
        ref = 0.5 * math.erfc(-x / math.sqrt(2))
        v = iv_ncdf(iv.mpf(x))
        assert float(v.a) - 1e-15 <= ref <= float(v.b) + 1e-15 and float(v.b - v.a) < 1e-30
    with pytest.raises(ValueError, match="x must lie"):
        iv_erf(iv.mpf(7))


def test_iv_pointwise_delta_by_hand():
    """Footnote 3 by hand: at ε = 0.2 (e^0.2 = 1.2214) only the middle outcome of X = (.36, .03, .61),
    Y = (.30, 0, .70) is bad (.36/.30 = 1.2, .70/.61 = 1.148), so δ = .03; merged, .39/.30 = 1.3 is bad: δ = .39."""
    from mpmath import iv

    from dpsemantics.claims.certify import iv_hockey_stick, iv_pointwise_delta

    iv.prec = 80
    E = iv.exp(iv.mpf(1) / 5)
    X = [Fraction(36, 100), Fraction(3, 100), Fraction(61, 100)]
    Y = [Fraction(30, 100), Fraction(0), Fraction(70, 100)]
    assert iv_pointwise_delta(X, Y, E) == Fraction(3, 100)
    assert iv_pointwise_delta([Fraction(39, 100), Fraction(61, 100)], [Fraction(30, 100), Fraction(70, 100)], E) \
        == Fraction(39, 100)
    hs = iv_hockey_stick(X, Y, E)  # the best event {outcome 2} alone: .03 (outcome 1: .36 − 1.2214·.30 < 0)
    assert float(hs.a) == pytest.approx(0.03, abs=1e-15)
    with pytest.raises(ValueError, match="not decided"):
        iv_pointwise_delta([Fraction(1, 2)], [Fraction(1, 2)], iv.mpf([0.9, 1.1]))


CERTIFIED_LP_KS = ["ks-rem1-omega-1-over-n", "ks-s2.1-testing", "ks-lem3.3-2-proved"]


@pytest.mark.parametrize("claim_id, factor", [("ks-rem1-omega-1-over-n", 0.99), ("ks-s2.1-testing", 0.99),
                                              ("ks-lem3.3-2-proved", 0.95)])
def test_mechanism_lps_certify_and_refute_a_tightened_bound(claim_id, factor):
    """Certified over every mechanism (pair) at the LP's parameters; the bound scaled below the LP's optimum
    (attained: TV = d·ε_SD, power = e^ε α + δ; Lemma 3.3 (2) as proved reaches 0.9535 of its bound) is refuted."""
    from dpsemantics import claims

    assert claims.evaluate(claims.get(claim_id)).verdict.certified_by == "certified-lp"
    refuted = claims.get(claim_id).compute(tighten=factor)
    assert not refuted.holds and refuted.kind == "counterexample"


def test_lemma33_part2_lp_optimum_by_hand():
    """Independent: on the outcome with p ≥ e^{2ε}q the event's hockey stick gives p(1 − e^{−ε}) ≤ δ, on the one with
    q ≥ e^{2ε}p it gives p(e^{2ε} − e^ε) ≤ δ; the sum δe^ε/(e^ε − 1) + δ/(e^{2ε} − e^ε) = δ(1 + e^{2ε})/(e^{2ε} − e^ε)
    is the worst point-wise δ at 2ε (attained when the rest of the mass absorbs the difference).  The LP's exact dual
    bound must equal it (to 10⁻⁹) and stay below the proved 2δe^ε/(e^ε − 1)."""
    from dpsemantics.claims.semantic_evidence import part2_lp

    for E in (Fraction(6, 5), Fraction(2), Fraction(3)):
        delta = Fraction(1, 100)
        cert = part2_lp(E, delta)
        exact = delta * (1 + E * E) / (E * E - E)
        assert abs(cert.bound - exact) < Fraction(1, 10**9) and cert.bound <= 2 * delta * E / (E - 1)


def test_remark1_lp_optimum_is_min_one_d_sd():
    from dpsemantics.claims.semantic_evidence import mechanism_lp

    for n, d, s in ((2, 2, Fraction(1, 4)), (3, 3, Fraction(1, 4)), (3, 2, Fraction(1, 3)), (3, 3, Fraction(1, 2))):
        x, y = (0,) * n, (1,) * d + (0,) * (n - d)
        cert = mechanism_lp(n, 2, Fraction(1), s, {x: [1, 0], y: [-1, 0]})
        assert abs(cert.bound - min(1, d * s)) < Fraction(1, 10**9)
        assert cert.primal == pytest.approx(float(min(1, d * s)))


def test_lemma33_parts_3_4_lp_optimum_by_hand():
    """Independent: channels that fail carry hockey stick ≤ 1 each, the others ≤ δ, so the joint is at most
    δ₁ + (1 − δ₁)δ = δ + δ₁ − δδ₁ (attained by disjoint failing channels), strictly inside part 4's δ + δ₁; part 3 is
    attained (δ).  The exact dual bounds must equal these, and the tightened statement must be refuted."""
    from dpsemantics import claims
    from dpsemantics.claims.semantic_evidence import PARTS34_PRIOR, parts34_lp

    for failing in (frozenset(), frozenset({0}), frozenset({0, 1})):
        d1 = sum((PARTS34_PRIOR[a] for a in failing), Fraction(0))
        delta = Fraction(1, 10)
        assert abs(parts34_lp(Fraction(2), delta, failing).bound - (delta + d1 - delta * d1)) < Fraction(1, 10**9)
    assert claims.evaluate(claims.get("ks-lem3.3-3-4")).verdict.certified_by == "certified-lp"
    assert not claims.get("ks-lem3.3-3-4").compute(tighten=0.99).holds


@pytest.mark.parametrize("claim_id, supremum", [
    ("ks-thm2.2-forward", 0.5),                                   # tanh(ε/2)/(e^ε − 1) → 1/2
    ("ks-thm2.2-converse", 4 * math.atanh(0.225) / (6 * 0.225)),  # randomized response at the range's end
    ("zhao-thm2-forward", 0.25),                                  # tanh(ε/2)/(e^{2ε} − 1) → 1/4
    ("zhao-thm2-converse", 1.0),                                  # ε/(2 artanh(2 tanh(ε/4))) → 1
])
def test_searches_record_a_known_supremum_and_reach_it(claim_id, supremum):
    """Item 2 of the brief: a search that stays a search records the known supremum (recomputed here from the
    construction's closed form, not read from the package), reaches at least 0.99 of it, and — for Zhao's
    Theorem 2 — a second optimiser (differential evolution) does not beat the first search."""
    from dpsemantics import claims

    assert 0.5 - math.tanh(1e-6 / 2) / math.expm1(1e-6) < 1e-6  # the limit used for ks-thm2.2-forward
    v = claims.get(claim_id).compute()
    assert v.supremum == pytest.approx(supremum, rel=1e-12)
    assert 0.99 <= v.margin / supremum <= 1 + 1e-9
    if claim_id.startswith("zhao"):
        assert "differential evolution" in v.second and v.second_best <= v.margin * (1 + 1e-9)


def test_lemma34_exact_counterexample_by_closed_form():
    """Independent closed forms at e^ε = 2, δ̂ = 1/10, a = δ̂(1 + 10⁻⁶), u = δ/a: t₁ carries u under B, t₂ carries
    2u(1 − a); both are bad, so Pr[B ∈ Bad] = u(3 − 2a) ≈ 28δ against δ″ = 2δ/δ̂ + 4δ = 24δ; t₂ is not in Bad₀
    (ratio 2(1 − a) < 4), so Pr[B ∈ Bad′₂] = 2u(1 − a) ≈ 18δ > δ/δ̂ = 10δ.  The corrected lemma's bound
    4δ + (1 + 4)δ/δ̂ = 54δ is not refuted by the same pair."""
    from dpsemantics import claims
    from dpsemantics.claims.semantic_evidence import (_exact_refutation, _search_lemma34_corrected,
                                                      lemma34_exact_counterexample)

    delta, dh = Fraction(1, 10**6), Fraction(1, 10)
    a = dh * (1 + Fraction(1, 10**6))
    u = delta / a
    joint, bad, bad2, dpp = lemma34_exact_counterexample()
    assert joint == delta and bad == u * (3 - 2 * a) and bad2 == 2 * u * (1 - a) and dpp == 24 * delta
    corrected = 4 * delta + 5 * delta / dh
    assert _exact_refutation(_search_lemma34_corrected, bad, corrected, 1.0, domain="t", what="x").kind == "search"
    for claim_id in ("ks-lem3.4-holds", "ks-lem3.4-similar-argument"):
        result = claims.evaluate(claims.get(claim_id))
        assert result.verdict.kind == "counterexample" and result.status == "discrepancy"


def test_zhao_dp_implies_bdp_lp_by_hand():
    """Independent: with P[y | x₁ = 0] = c, ε-DP gives P[y | x₁ = 1] ≤ e^ε c and, on the complement,
    1 − P[y | x₁ = 1] ≥ (1 − c)/e^ε; so the optimum is min(e^ε c, 1 − (1 − c)/e^ε): 11/100 at c = 1/10 and 10/11 at
    c = 9/10 (e^ε = 11/10).  The certificate must reach these and refute the bound scaled by 0.99."""
    from dpsemantics import claims
    from dpsemantics.claims.notions_evidence import _dp_bdp_lps

    for label, cert, bound in _dp_bdp_lps():
        E = Fraction(label.split("e^ε = ")[1].split(",")[0])
        c = Fraction(label.split("P[y | x₁ = 0] = ")[1].split(":")[0])
        assert abs(cert.bound - min(E * c, 1 - (1 - c) / E)) < Fraction(1, 10**9) and cert.bound <= bound
    claim = claims.get("zhao-sec1-dp-implies-bdp-independent")
    assert claims.evaluate(claim).verdict.certified_by == "certified-lp"
    assert not claim.compute(tighten=0.99).holds


def test_zhao_three_values_counterexample_is_certified():
    from dpsemantics import claims

    result = claims.evaluate(claims.get("zhao-thm1-converse-three-values"))
    assert result.verdict.kind == "counterexample" and result.status == "discrepancy"
    assert "BSP = 0 exactly" in result.verdict.certificate


def test_remark1_exact_semantic_delta_matches_the_package_below_one():
    """The exact evaluator is not a constant: at Pr[x_j = 1] = 1/5 < ε = 1/2 only the impossible transcripts (j, 1)
    breach, so δ = Pr[some x_j = 1 shown] = 1/5 exactly, which the package's float computation must match; at
    Pr[x_j = 1] = (1 + ε)/2 every transcript breaches (δ = 1) and the claim is certified."""
    import numpy as np

    from dpsemantics import claims
    from dpsemantics import semantic as S
    from dpsemantics.claims.semantic_evidence import random_index_semantic_delta_exact

    assert random_index_semantic_delta_exact(3, Fraction(1, 5), Fraction(1, 2)) == Fraction(1, 5)
    mech = S.random_index_mechanism(3)
    b = np.array([np.prod([0.2 if v else 0.8 for v in d]) for d in mech.databases])
    assert S.semantic_delta(mech, b, 0.5) == pytest.approx(0.2, abs=1e-12)
    assert claims.evaluate(claims.get("ks-rem1-not-semantic")).verdict.certified_by == "certified-interval"
