"""Claims of Zhao, *Relations Among Different Privacy Notions* (source 001), recomputed and attacked.

Every printed relation (``printed=True``) returns a :class:`~dpsemantics.claims.Verdict`: the attacked
quantity against the printed bound over every case tried, with the kind of evidence and the margin.  The
searches run where the bounds bite — Theorems 1 and 2 at small ε, where ``e^{2ε} − 1 < 1`` — and combine the
known extremal constructions (the XOR mechanism attains tanh(ε/2) forward; randomized response on one
record with ⊥ one of its values attains tanh(ε/4) backward) with Nelder–Mead searches over finite
mechanisms (two records, three outputs) and correlated priors, restarted from seeded random points.
Membership privacy (Theorems 3 and 4) is computed from mechanisms, directly from Definition 3 over every
output event (:func:`dpsemantics.notions.membership_privacy_of`), not from the BDP leakage through g.

Searches are cached (:func:`functools.cache`), so ``compute(tighten=t)`` only re-compares.
"""

from __future__ import annotations
from . import Claim, Verdict
from . import notions_evidence as E

CHAPTER = "book/privacy-notions"


CLAIMS = [
    Claim(
        id="zhao-sec2-improvement", paper="zhao", where="Sec. II and after Theorem 2",
        statement="1/2 − 1/(e^ε+1) > ε/6 for 0 < ε ≤ 1.35 (Zhao's converse level beats K&S's)",
        printed=True, compute=E._improvement,
        note="Holds exactly on (0, 2.5757); the worst ratio ε/6 : (1/2 − 1/(e^ε+1)) on the printed "
             "range is at ε = 1.35.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-sec2-ks-range", paper="zhao", where="Abstract; Sec. II",
        statement="K&S (as Zhao quotes them): ε/6-SP implies ε-DP for ε ≤ 1.35, i.e. a δ-SP mechanism (δ ≤ 0.225) is 6δ-DP",
        printed=True, compute=E._relation("ks", False),
        note="Attacked over mechanisms: randomized response on one record attains DP ε against 6·tanh(ε/4); the "
             "ratio tends to 2/3 as ε → 0, so ε/6 is a third below what is needed (tanh(ε/4) is exact).",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-eq20-odds", paper="zhao", where="Proof of Theorem 1, eq. (20)",
        statement="(1/2 + (1/2 − 1/(e^ε+1))) / (1/2 − (1/2 − 1/(e^ε+1))) = e^ε (max |log-ratio − ε| over a grid)",
        printed=0.0, compute=E._odds_identity, atol=1e-12, chapter=CHAPTER,
    ),
    Claim(
        id="zhao-thm1-forward", paper="zhao", where="Theorem 1 (first part)",
        statement="ε-Bayesian DP implies (e^{2ε} − 1)-Bayesian semantic privacy", printed=True,
        compute=E._relation("forward", True),
        note="Attacked at small ε (down to 0.005, where e^{2ε} − 1 < 1): the XOR mechanism attains the exact worst "
             "case tanh(ε/2); the ratio tanh(ε/2)/(e^{2ε} − 1) tends to 1/4 as ε → 0, so the printed bound is "
             "four times too large at best.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-thm1-converse", paper="zhao", where="Theorem 1 (second part)",
        statement="(1/2 − 1/(e^ε+1))-Bayesian semantic privacy implies ε-Bayesian DP", printed=True,
        compute=E._relation("converse", True),
        note="Attacked over mechanisms and priors: randomized response on one record (⊥ one of its values) has "
             "BSP tanh(ε/4), and the printed converse promises 2·artanh(2·tanh(ε/4)), which exceeds ε by "
             "O(ε³): the margin tends to 1 as ε → 0 — the converse is tight to first order.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-thm2-forward", paper="zhao", where="Theorem 2 (first part, from K&S)",
        statement="ε-DP implies (e^{2ε} − 1)-semantic privacy", printed=True, compute=E._relation("forward", False),
        note="As Theorem 1 with the uniform prior: the XOR mechanism attains tanh(ε/2).", chapter=CHAPTER,
    ),
    Claim(
        id="zhao-thm2-converse", paper="zhao", where="Theorem 2 (second part)",
        statement="(1/2 − 1/(e^ε+1))-semantic privacy implies ε-DP", printed=True,
        compute=E._relation("converse", False),
        note="As Theorem 1: randomized response on one record makes the margin tend to 1 as ε → 0.", chapter=CHAPTER,
    ),
    Claim(
        id="zhao-ii-bsp-implies-sp", paper="zhao", where="Sec. II (ii); remark after Definition 2",
        statement="(e^{2ε} − 1)-Bayesian semantic privacy implies (e^{2ε} − 1)-semantic privacy (SP ≤ BSP)",
        printed=True, compute=E._bsp_dominates_sp,
        note="Needs a prior of full support (the condition is ours: with copied records the adversary K = N∖{i} "
             "has no pair of values to compare, and BSP can fall below SP).  SP is computed by the semantic-privacy "
             "module, BSP by the notions module: the margin 1 says the adversary K = N∖{i} is the worst.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-thm3", paper="zhao", where="Theorem 3",
        statement="ε-Bayesian DP implies ε-membership privacy (family D*)",
        printed=True, compute=E._theorem3,
        note="MP computed from the mechanisms directly (Definition 3, every output event, every two-point "
             "distribution of D* the prior allows, P[x_i] from 1e-13 to 1 − 1e-9); the bound is approached as "
             "P[x_i] → 0 or → 1.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-thm4", paper="zhao", where="Theorem 4",
        statement="For a downward-scalable family, ε-membership privacy implies ε-Bayesian DP", printed=True,
        compute=E._theorem4,
        note="The family: every two-point distribution of D* at every P[x_i] ∈ (0, 1) (downward scalable).  Its MP ε, "
             "from Definition 3 directly, reaches the BDP leakage as the proof's scaled q → 0 (1e-13 here), so "
             "the margin is 1 up to rounding.  With P[x_i] fixed at 1/2 (not scalable) it fails: see the chapter.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-lemma1", paper="zhao", where="Lemma 1, eq. (23)",
        statement="⟨D, ε⟩-MP holds iff P[Y|x_i]/P[Y|x̄_i] ≤ g(P_D[x_i]) (checked against all events)", printed=True,
        compute=E._lemma1,
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-cor1-g-min", paper="zhao", where="Proof of Corollary 1, eq. (26)",
        statement="g takes its minimum g(0) = g(1) = e^ε", printed=True, compute=E._g_minimum, chapter=CHAPTER,
    ),
    Claim(
        id="zhao-cor1-g-monotone", paper="zhao", where="Proof of Corollary 1",
        statement="g increases on [0, 1/(1+e^ε)] and decreases on (1/(1+e^ε), 1]", printed=True, compute=E._g_monotone,
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-lemma1-g1-g2", paper="zhao", where="Proof of Lemma 1, eq. (38)",
        statement="g1 ≤ g2 on (0, 1/(1+e^ε)] and g1 ≥ g2 on (1/(1+e^ε), e^{−ε})", printed=True, compute=E._g_branches,
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-eq39-threshold", paper="zhao", where="Proof of Theorem 4, eq. (39)",
        statement="α/(αq + 1 − q) > e^ε exactly when q < (α − e^ε)/(e^ε(α − 1)), for α > e^ε", printed=True,
        compute=E._certified_eq39,
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-sec2-improvement-range-end", paper="zhao", where="Sec. II, after Theorem 2",
        statement="Zhao's level exceeds ε/6 beyond the printed range ε ≤ 1.35 (the crossing lies above 1.35)",
        printed=True, compute=E._certified_range_end,
        chapter=CHAPTER,
    ),
]


__all__ = ["CLAIMS", "UNCHECKED"]


CLAIMS += [
    Claim(
        id="zhao-sec1-dp-implies-bdp-independent", paper="zhao", where="Sec. I (BDP of Yang et al., their Theorem 1)",
        statement="With independent records, ε-DP implies ε-Bayesian DP", printed=True,
        compute=E._dp_implies_bdp_certified,
        note="Zhao introduces BDP as broadening DP to dependent records, citing Yang et al.  The condition is needed: "
             "with copied records ε-local randomized response on two records is ε-DP but its BDP leakage is 2ε.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-sec1-bdp-implies-dp-full-support", paper="zhao", where="Sec. I (BDP of Yang et al., their Theorem 2)",
        statement="Under a prior of full support, ε-Bayesian DP implies ε-DP", printed=True,
        compute=E._bdp_implies_dp_full_support,
        note="The condition is needed: a prior on a single database makes every mechanism 0-BDP.",
        chapter=CHAPTER,
    ),
]


#: Statements of the paper the chapter states but does not check, and why: (where, statement, why not).
UNCHECKED = [
    ("Sec. III-A, footnote 2", "The results extend readily to continuous distributions",
     "Every check runs on finite mechanisms and finite priors; no continuous case is computed."),
    ("Definition 2", "Beliefs b range over all distributions on Dⁿ, and the unknown records follow b",
     "The book fixes the correlation prior of BDP and lets beliefs range over (x_i, x_K); under Zhao's literal "
     "wording b plays both roles. Both readings agree for K = N∖{i}; the other adversaries are checked under the "
     "book's reading only (the 'replace' reading of Game i is shown to break the converse of Theorem 1)."),
    ("Proof of Theorem 4", "Li et al.'s Lemma 3.4: x_i-scaling preserves P[Y | x_i] and P[Y | x̄_i]",
     "Taken as the definition of the scaled distributions (the two-point family at every P[x_i]); Li et al.'s "
     "general notion of downward scalability is not modelled."),
    ("Footnote 1 and Definition 3", "Negative membership privacy of Li et al.",
     "The paper sets it aside; so does the book."),
    ("Sec. I", "Deployments (iOS 10, RAPPOR) and the related-work survey of Sec. IV",
     "Statements about other work, not results of the paper."),
]


CLAIMS += [
    Claim(
        id="zhao-thm1-converse-three-values", paper="zhao", where="Theorem 1 (second part), records with three values",
        statement="(1/2 − 1/(e^ε+1))-BSP implies ε-BDP, under the book's BSP (belief points where ⊥ has prior mass 0 "
                  "are dropped), records in {0, 1, 2}",
        printed=True, compute=E._certified_three_values,
        expected="discrepancy", finding="different-reading",
        note="The book's BSP (notions.bayesian_semantic_privacy, reading 'condition') drops the belief points where ⊥ "
             "has prior mass 0. With binary records that costs nothing (zhao-thm1-converse holds), but with three "
             "values it does: n = 2, ⊥ = 0, a prior on x₁ ∈ {1, 2}, randomized response with ε = 2 between 1 and 2 has "
             "BDP 2.000 and BSP 0 < 0.381. Under a reading that keeps those points (or for priors where ⊥ has mass) "
             "the converse is not refuted by this example; the chapter's Theorem 1 is stated for the reading the "
             "book adopts, which needs ⊥ to have prior mass.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-thm1-converse-replace-reading", paper="zhao",
        where="Theorem 1 (second part) with eq. (13) read as 'replace'",
        statement="(1/2 − 1/(e^ε+1))-BSP implies ε-BDP, with Game i drawing the unknown records given the true x_i "
                  "and then replacing record i by ⊥",
        printed=True,
        compute=lambda tighten=1.0: Verdict.of(*E._replace_reading_cases()[:2], evidence="extremal", tighten=tighten,
                                             labels=E._replace_reading_cases()[2]),
        expected="discrepancy", finding="different-reading",
        note="Eq. (13) leaves open whether the unknown records follow the prior given X_i = ⊥ or given the true x_i. "
             "Under the second ('replace') reading the converse fails: with copied records Game i still sees the copy, "
             "so BSP stays at tanh(ε/4) while BDP is nε. Under the reading the book adopts (condition on X_i = ⊥) "
             "Theorem 1 holds (zhao-thm1-converse).",
        chapter=CHAPTER,
    ),
]


CLAIMS += [
    Claim(
        id="zhao-thm1-proof-hypothesis", paper="zhao", where="Proof of Theorem 1, first part",
        statement="The factor c in the proof's hypothesis 'Y is a cε-Bayesian differentially private algorithm' (printed ε/2)",
        printed=0.5, compute=E._forward_proof_hypothesis_factor, atol=1e-12, expected="discrepancy", finding="typo",
        note="Slip (a hypothesis label): the part to prove starts from ε-BDP, and the proof's next line bounds the "
             "likelihood ratio against ⊥ by e^{±ε}, which is what ε-BDP gives (the ratio's largest log is the BDP "
             "leakage itself, computed here for local randomized response). With ε/2-BDP the same steps would give "
             "(e^ε − 1)-BSP; the printed ε/2 is a leftover of K&S's restated Theorem 2.2.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-thm1-converse-definition-number", paper="zhao", where="Proof of Theorem 1, second part",
        statement="'b₀[·|y] will assign probabilities in [1/2 − s, 1/2 + s] … (by Definition n)': the definition the step uses "
                  "(printed Definition 1)", printed=1, compute=lambda: 2, expected="discrepancy", finding="typo",
        note="Slip (a definition number): the hypothesis is s-Bayesian semantic privacy, Definition 2 (eq. (17)); "
             "Definition 1 is K&S's semantic privacy, which is the case K = N∖{i} only. The step is right with "
             "Definition 2.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-thm1-converse-lemma-part", paper="zhao", where="Proof of Theorem 1, second part, after eq. (20)",
        statement="'From [3, Lemma 3.3-Property n], Y(x_{i+S}) and Y(x′_{i+S}) are (ε, 0)-indistinguishable' from point-wise "
                  "(ε, 0)-indistinguishability (printed Property 5)", printed=5, compute=lambda: 1, expected="discrepancy",
        finding="typo",
        note="Slip (a cross-reference): point-wise ⇒ (ε, δ)-indistinguishable is K&S Lemma 3.3 Part 1 "
             "(ks-lem3.3-1); Part 5 bounds the statistical difference. K&S's own proof cites Part 1 at this step.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-lemma1-proof-summary-ii", paper="zhao", where="Proof of Lemma 1, eq. (38), '⇐' part ii)",
        statement="The inequality part ii) concludes 'for any x ∈ [0, 1]' (printed: 1 − x ≥ A(e^{−ε} − x))",
        printed="1 − x ≥ A(e^{−ε} − x)", compute=lambda: "Ax + 1 − x ≤ e^ε", expected="discrepancy", finding="typo",
        note="Slip: part ii) proves A·x + 1 − x ≤ e^ε in each of its three cases, but its closing sentence repeats "
             "part i)'s conclusion 1 − x ≥ A(e^{−ε} − x). The equivalence (38) holds (zhao-lemma1, zhao-lemma1-g1-g2).",
        chapter=CHAPTER,
    ),
]

# Slips no earlier claim recorded (issue 35).
CLAIMS += [
    Claim(
        id="zhao-eq36-event", paper="zhao", where="Proof of Lemma 1, eq. (36)",
        statement="'(22) ⟺ P_{D,Y}[𝒴 | x̄ᵢ] ≥ e^{−ε} × P_{D,Y}[Y(X) ≠ y]': the probability on the right",
        printed="P_{D,Y}[Y(X) ≠ y]", compute=E._eq36_right_side, expected="discrepancy", finding="typo",
        note="Slip (a symbol): by Bayes' theorem (35), (22) is equivalent to P[𝒴 | x̄ᵢ] ≥ e^{−ε} P_{D,Y}[𝒴], as in "
             "the companion step (32) and in (37); with the complement of 𝒴 the equivalence fails (e.g. P[xᵢ] = ½, "
             "P[𝒴 | xᵢ] = 0.2, P[𝒴 | x̄ᵢ] = 0.05, ε = 1). Lemma 1 holds (zhao-lemma1).",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-s4-renyi-entropy", paper="zhao", where="Section IV (related work), Bun and Steinke [29]",
        statement="Bun and Steinke 'formulate the problem in terms of Renyi entropy': the quantity zCDP bounds",
        printed="Rényi entropy", compute=E._zcdp_quantity, expected="discrepancy", finding="typo",
        note="Slip (a quantity's name): zCDP bounds the Rényi divergence between the output distributions on "
             "neighbouring databases, D_α ≤ ρα (Kazan et al., Definition 2.6). An entropy describes one distribution: "
             "randomized response's two output distributions have equal Rényi entropies of every order, yet ρ > 0.",
        chapter=CHAPTER,
    ),
    Claim(
        id="zhao-ref33-author", paper="zhao", where="Section IV (related work)",
        statement="'Bohli and Andreas [33]': the authors of reference [33]", printed="Bohli and Andreas",
        compute=lambda: "Bohli and Pashalidis", expected="discrepancy", finding="typo",
        note="Slip (a reference's author): reference [33] is J.-M. Bohli and A. Pashalidis, 'Relations among privacy "
             "notions' (ACM TISSEC 2011); Andreas is Pashalidis's first name.",
        chapter=CHAPTER,
    ),
]
