"""Claims of Lecture 1 (Brown, scribe Choudhary): the few statements it makes that can be computed, and
the two exercises (§7), whose answers the book works out and attacks.

Relations (``printed=True``) return a :class:`~dpsemantics.claims.Verdict`; searches are cached so that
``compute(tighten=t)`` only re-compares.
"""

from __future__ import annotations
from . import Claim, certify
from . import indistinguishability_evidence as E

CHAPTER = "book/intro"


CLAIMS = [
    Claim(
        id="lecture-s5-pure-composition",
        paper="lecture",
        where="§5, composition of exponentials",
        statement="Running two ε-DP algorithms yields a 2ε-DP algorithm: the factor 2, attained (randomized response "
                  "at ε = 0.5, the pair's exact ε over ε)",
        printed=2.0,
        compute=E._two_pure_mechanisms_compose_to_sum,
        atol=1e-12,
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-s5-composition-bound",
        paper="lecture",
        where="§5, composition of exponentials",
        statement="Running an ε1-DP and an ε2-DP algorithm on the same data is (ε1 + ε2)-DP",
        printed=True,
        compute=certify.certified_by(
            E._composition, [("the point-wise identity", E.composition_proof)], kind="certified-interval",
            domain="every two pure DP mechanisms (discrete outputs, run independently on the same "
                   "data), every ε₁, ε₂ ≥ 0",
            reduction="Pure DP is the point-wise bound p ≤ e^ε q (Definition 1.1 with δ = 0 on single outputs); the "
                      "pair's point-wise bound follows from an identity with non-negative multipliers:"),
        note="Randomized response attains the sum; random mechanisms on {0,1}² stay below it. The printed value of "
             "lecture-s5-pure-composition is the lecture's factor 2 of '2ε' "
             "(before: the value 1 at the book's ε = 0.5, which the lecture does not print).",
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-def4.1-equivalent-forms",
        paper="lecture",
        where="Definitions 1.1 and 4.1",
        statement="The event form and the indistinguishability form of (ε, δ)-DP define the same δ(ε)",
        printed=True,
        compute=certify.certified_by(
            E._event_form_equals_indistinguishability_form, [("the event LP's dual (1, 1)", E.event_form_proof)],
            kind="certified-lp", domain="every pair of distributions on any output space, every event, every ε ≥ 0",
            reduction="The event form's δ (sup over events of p(S) − e^ε q(S)) is reached at S = {p > e^ε q}, where it "
                      "is the hockey stick Σ_y max(0, p_y − e^ε q_y):"),
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-ex7.1-tv",
        paper="lecture",
        where="Exercise 7.1",
        statement="(0, δ)-DP is TV-distance privacy: the smallest δ at ε = 0 is the total variation distance",
        printed=True,
        compute=certify.certified_by(
            E._tv_privacy, [("the event LP's dual (1, 1) at ε = 0", E.event_form_proof)], kind="certified-lp",
            domain="every pair of distributions on any output space, every event (ε = 0)",
            reduction="At ε = 0 the largest p(S) − q(S) is reached at S = {p > q} (the event LP below), where it is "
                      "Σ_y max(0, p_y − q_y) = ½‖p − q‖₁ since Σ_y (p_y − q_y) = 0:"),
        note="The exercise asserts the correspondence; the smallest δ over every event is compared with "
             "½‖p − q‖₁ both ways.",
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-ex7.2-transitivity",
        paper="lecture",
        where="Exercise 7.2",
        statement="p ≈(ε,δ) q ≈(ε,δ) r implies p ≈(2ε,(1+e^ε)δ) r (the book's answer to the exercise)",
        printed=True,
        compute=E._transitivity_certified,
        note="Certified on the whole domain by the event LP's dual (1, e^ε), checked at the claim's own bound (a bound "
             "scaled below 1 fails the dual and is refuted by the exact three-point chain at e^ε = 2, δ = 1/100); the "
             "cases are linear programs over all chains on 3 and 4 outcomes (every event, both directions of each step "
             "constrained) at rational e^ε, whose primal attains (1 + e^ε)δ. The search over floating ε and random "
             "chains is lecture-ex7.2-transitivity-search.",
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-ex7.2-transitivity-search",
        paper="lecture",
        where="Exercise 7.2",
        statement="p ≈(ε,δ) q ≈(ε,δ) r implies p ≈(2ε,(1+e^ε)δ) r, at ε on a grid (LP optima, the three-point witness) "
                  "and on random chains",
        printed=True,
        compute=certify.against_supremum(E._transitivity, 1.0, "the three-point witness attains (1 + e^ε)δ"),
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-ex7.2-tight",
        paper="lecture",
        where="Exercise 7.2",
        statement="Neither parameter of (2ε, (1+e^ε)δ) can be lowered (this book's answer, read for small δ: the grid "
                  "δ ≤ 0.01): at 2ε the witness needs (1+e^ε)δ, below 2ε more",
        printed=True,
        compute=certify.against_supremum(E._transitivity_tight, 1.0, "each step of the witness uses exactly δ, and "
                                         "(p, r) needs exactly (1 + e^ε)δ at 2ε"),
        note="The three-point witness (r, q, p) = (0, δ, (1+e^ε)δ) on one outcome and (t, e^ε t, e^{2ε} t) on another: "
             "each step uses exactly δ, and at ε′ < 2ε the pair (p, r) needs (1+e^ε)δ + (e^{2ε} − e^{ε′})t. "
             "A two-point witness shows only that δ′ cannot be lowered at 2ε. Only for small δ: see "
             "lecture-ex7.2-tight-large-delta.",
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-ex7.2-tight-large-delta",
        paper="lecture",
        where="Exercise 7.2 (this book's answer, every δ)",
        statement="(1+e^ε)δ cannot be lowered for any δ: the worst chain needs it (LP over chains on 3–5 outcomes)",
        printed=True,
        compute=E._transitivity_tight_large_delta,
        expected="discrepancy",
        finding="different-reading",
        note="The tightness holds for small δ (lecture-ex7.2-tight, δ ≤ 0.01) but not on the whole domain: at ε = 1, "
             "δ = 0.25 the worst chain needs only 0.816 < (1 + e)δ = 0.930. Both readings are computed; the answer "
             "(2ε, (1+e^ε)δ) is valid either way, it is only not the least δ′ for large δ.",
        chapter=CHAPTER,
    ),
]


#: Statements of the lecture the chapter states but does not check, and why: (where, statement, why not).
UNCHECKED = [
    ("Definition 2.1", "(ε, δ)-indistinguishability is symmetric",
     "True by construction (both inequalities are in the definition); nothing to compute."),
    ("§4", "Other flavours of DP by changing adjacency (user-level DP)",
     "Named, not stated as a result; the chapter shows the group bound instead "
     "(tests/unit/indistinguishability/test_indistinguishability.py and the audit check δ_g = δ Σ e^{jε} on random "
     "chains)."),
    ("§5", "ε 'on the order of 1 or 0.1'; δ ≈ 1/n² or 2^{−Ω(n)}",
     "Advice, not a result; the chapter illustrates it (e^ε against 1 + ε, the name-and-shame mechanism)."),
    ("§6", "Pure DP is a stronger guarantee than approximate DP",
     "Definitional ((ε, 0) implies (ε, δ) for every δ); the chapter shows a mechanism that is (0, δ)-DP but not "
     "ε-DP for any finite ε."),
]

# Slips no earlier claim recorded (issue 35).
CLAIMS += [
    Claim(
        id="lecture-s1-presence-or-absence", paper="lecture", where="§1, before Definition 1.1",
        statement="The output should be insensitive 'to the presence or absence of any single individual's data': the "
                  "adjacency of Definition 3.1 (checked by publishing the number of records exactly, under Definition "
                  "3.1 and under adding or removing one record)",
        printed="presence or absence", compute=E._definition_3_1_relation, expected="discrepancy",
        finding="different-reading",
        note="§1 describes unbounded neighbours (one person's record present or absent); Definition 3.1, which the "
             "lecture and this chapter use, replaces one record of a dataset in 𝒳ⁿ. The two are different "
             "definitions: publishing the number of records is 0-DP under replacement and not ε-DP for any ε under "
             "addition or removal. Kazan et al. (Chapter 5) use the add-or-remove notion.",
        chapter=CHAPTER,
    ),
]
