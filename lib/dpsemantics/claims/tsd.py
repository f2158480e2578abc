"""Claims of Tschantz, Sen & Datta, "Differential Privacy as a Causal Property" (paper key ``tsd``).

Effect sizes are reported in units of ε (the paper writes "2ε", "3ε"), computed at ε = 0.5 on the
models of :mod:`dpsemantics.causal` with the two-sided geometric count in place of the Laplace count.
Printed relations of Table 1 are strings ("↔ DP", "→ DP", "← DP") compared with the relation that a
seeded random sweep supports (:func:`dpsemantics.claims.causal_evidence.table1`).

Every claim that a printed relation holds returns a :class:`~dpsemantics.claims.Verdict`.  Most are
*certified* by linear programs (:mod:`dpsemantics.claims.causal_evidence`), at the listed rational e^ε:

- Table 1's rows, §5.2, Proposition 1's proof and Figure 2's arcs: over every mechanism with m outputs on kⁿ
  databases, each definition written as its own comparisons (conditioning or intervention) at listed populations —
  the LP's objective for "DP implies it", its hypothesis for "it implies DP"; the step from the listed populations to
  every population, where the LPs do not take it, is written in the claim's domain;
- statements about one model at every population (Propositions 4, Lemmas 1–2, §4, §1.1, §6.3, Definition 9):
  interventional probabilities are linear in the population, so each ratio's supremum is a Charnes–Cooper LP.

Each LP's optimum is bounded by an exact-rational dual checked with fractions.  The remaining relations are
searches and record the supremum they are compared with.  An equality is checked as two inequalities
(margin 1 when it holds).  Searches and LPs are cached, so ``compute(tighten=t)`` only re-compares.
"""

from __future__ import annotations
import functools
import itertools
import math
from .. import causal
from . import Claim, Verdict
from . import causal_evidence as E
from .certify import verdict_from

CHAPTER = "book/causal-view"


SLIPS = [
    Claim(id="tsd-prop1-eq7-as-printed", paper="tsd", where="§3, proof of Proposition 1, eq. (7)",
                statement="Eq. (7) as printed, Pr[𝒜(⟨d₁,…,dᵢ,…,dₙ⟩)=o] ≤ e^ε Pr[𝒜(⟨d₁,…,dᵢ,…,dₙ⟩)=o], is Definition "
                          "1's inequality (checked as ε_DP ≤ the ε of (7) for two mechanisms that are not DP)",
                compute=E._slip(E._eq7_as_printed, [0.0, 0.0],
                      ["eqs. (31)–(33): ε_DP − ε of (7)", "eqs. (18)–(19): ε_DP − ε of (7)"]),
                note="The right side should have d′ᵢ: as printed both sides are the same probability, so (7) holds for "
                     "every mechanism (ε = 0) and cannot conclude Definition 1; the two non-DP mechanisms have ε_DP = "
                     "∞. The proof then ends 'Definition 1 holds' twice. With d′ᵢ the step is right "
                     "(tsd-table1-def2-attack is certified).", printed=True, expected="discrepancy", finding="typo",
                     chapter=CHAPTER),
    Claim(id="tsd-appB-cites-eq3", paper="tsd", where="Appendix B, after eq. (33)",
                statement="Eqs. (34)–(35) follow 'using (3)', and '(3) says nothing about D₁ = 2': the inequality "
                          "cited, (3), holds for the mechanism of eqs. (31)–(33) with the ε that the population's "
                          "check gives (checked as ε of (3) − ε of (30) ≤ 0)",
                compute=E._slip(E._appendix_b_reference, [0.0], ["ε of (3) over every population minus ε of (30) at Pr[D₁=2] = 0"]),
                note="(3) is Definition 2's inequality, which quantifies over every population and fails for this "
                     "mechanism (ε = ∞). The argument uses Definition 10's inequality (30) at the one population, "
                     "which holds with ε = 0, and the conditioning that gives (34)–(35): the reference should be "
                     "(30).", printed=True, expected="discrepancy", finding="typo", chapter=CHAPTER),
    Claim(id="tsd-appC-recursive", paper="tsd", where="Appendix C, before eq. (36)",
          statement="'Since the SEM is non-recursive this can be calculated in a bottom up fashion'",
          printed="non-recursive", compute=E._recursive, expected="discrepancy", finding="typo", chapter=CHAPTER,
          note="§4 restricts the paper to recursive SEMs (an order with no variable before its parents), and only that "
               "order makes the bottom-up computation possible; the engine finds it for 𝓜^𝒜 (a cyclic model is "
               "rejected). 'Non-recursive' should read 'recursive'."),
    Claim(id="tsd-thm1-proof-condition", paper="tsd", where="§6.2, proof of Theorem 1",
                statement="Property 1 is applied 'for any y such that Pr[Y=y] > 0', which makes Pr[Z=z | Y=y, "
                          "do(X=x)] defined (checked as 1[Pr[Y=y] > 0] ≤ 1[Pr[Y=y | do(X=x)] > 0] in the model Y := "
                          "X, X uniform)",
                compute=E._slip(E._theorem1_condition, [0.0] * 4,
                      [f"y={y}, do(X={x})" for y, x in itertools.product((0, 1), (0, 1))]), finding="proof-gap",
                note="The step conditions on Y = y under do(X = x), so it needs Pr[Y=y | do(X=x)] > 0, not Pr[Y=y] > "
                     "0: with Y := X and X uniform, Pr[Y=1] = ½ but Pr[Y=1 | do(X=0)] = 0. The theorem stands: when "
                     "Pr[Y=y | do(X=x′)] = 0, ε₁-BRP forces Pr[Y=y | do(X=x)] = 0 too and both sides of the last "
                     "inequality are 0 (tsd-thm1-composition).", printed=True, expected="discrepancy", chapter=CHAPTER),
    Claim(id="tsd-s7-game-i-denominator", paper="tsd", where="§7, the posterior 'where person i does not provide data'",
                statement="The printed posterior Pr[𝒜(d₋ᵢd′ᵢ)=o]·Cr[D=d | B] / Σ_d′ Pr[𝒜(d₋ᵢd′ᵢ)=o]·Cr[D=d′ | B] is "
                          "Kasiviswanathan and Smith's Game-i posterior (checked as |printed − Game i| ≤ 0: ε-DP "
                          "count, n = 2, uniform prior)",
                compute=E._slip(E._game_i_denominator, [0.0], ["d = (1, 1), o = 2, person 2 gives 0"]),
                note="Inside the sum the mechanism's argument must vary with d′ (𝒜(d′₋ᵢd′ᵢ)); as printed it is the "
                     "fixed 𝒜(d₋ᵢd′ᵢ), the factor cancels and the expression is the prior Cr[D=d | B] = ¼ whatever the "
                     "output, against the Game-i posterior 0.3112 here.", printed=True, expected="discrepancy",
                     finding="typo", chapter=CHAPTER),
    Claim(id="tsd-s7-d-minus-one", paper="tsd", where="§7, after the posterior",
                statement="'d₋₁d′ᵢ is shorthand for d with its i-th component replaced with d′ᵢ' (checked as the "
                          "posteriors with component 1 and component i = 2 replaced being equal; ε-DP count, n = 2, a "
                          "prior that is not symmetric)",
                compute=E._slip(E._minus_one_index, [0.0],
                      ["prior (0.1, 0.2, 0.3, 0.4), d = (1, 0), o = 2, d′ = 0: component 1 against component 2"]),
                note="The subscript should be −i, as in the formula above it (d₋ᵢd′ᵢ); replacing component 1 instead "
                     "of i gives another posterior whenever the prior is not symmetric in the two data points: 0.2159 "
                     "(component 1 replaced) against 0.3402 (component 2) here.", printed=True, expected="discrepancy",
                     finding="typo", chapter=CHAPTER),
    Claim(id="tsd-s4-conditioning-index", paper="tsd", where="§4, the probabilities in the model of prog_status",
                statement="'Pr[O=o | Dᵢ=pos] is that probability conditioned upon seeing D₁ = pos' (and 𝓜[Dᵢ := pos] "
                          "replaces 'the line assigning R₁ to D₁'): the index makes no difference in prog_status "
                          "(checked for i = 3, uniform R₁, R₃)",
                compute=E._slip(E._section4_index, [0.0], ["max over o of |Pr[O=o | D3=pos] − Pr[O=o | D1=pos]|"]),
                note="Dᵢ should be D₁ (the sentence and the sub-model both speak of D₁). In prog_status D₁ and D₂ are "
                     "equal, but D₃ is not: conditioning on D₃ = pos gives another output distribution.", printed=True,
                     expected="discrepancy", finding="typo", chapter=CHAPTER),
    Claim(id="tsd-prop4-eq16-unweighted", paper="tsd", where="§5.2, proof of Proposition 4, eqs. (15)–(17)",
          statement="The left side of eq. (16), Σ_{d₋ₙ} Pr[𝒜(d₋ₙ, dₙ)=o] without population weights, is Pr[O=o | "
                    "do(Dₙ=dₙ)] by Lemma 2, giving (17) (checked for the ε-DP count on three data points at the "
                    "uniform population)",
          printed=True, compute=lambda tighten=1.0: Verdict.of(*E._prop4_eq16(), evidence="extremal", tighten=tighten,
                                              labels=[f"O={o}" for o in range(4)],
                                              second="none: a counterexample to the text as printed, computed exactly"),
          expected="discrepancy", finding="typo", chapter=CHAPTER,
          note="The weights Pr_𝒫[D₋ₙ = d₋ₙ] of (14) are dropped from (15)–(16), so (16) sums 4 probabilities (up to 4, "
               "not a probability); with them (16) is Lemma 2's eq. (78) and (17) follows. Proposition 4 itself is "
               "certified (tsd-table1-def7-attack); the same weights are missing from eqs. (21)–(22)."),
]


#: Table 1's rows (Definition number, where, statement) and the places that prove each row's relation.
TABLE1_ROWS = [
    (2, "Table 1 row 2; Proposition 1", "Strong adversary DP (Definition 2) is equivalent to DP"),
    (3, "Table 1 row 3; §3 (Yang et al., Thm 2)", "Bayesian₀ DP (Definition 3) implies DP but not conversely"),
    (4, "Table 1 row 4; §3 (Yang et al., Thm 1)",
     "Bayesian₀ DP over independent populations (Definition 4) is equivalent to DP"),
    (5, "Table 1 row 5; Proposition 2", "Universal whole-database intervention DP (Definition 5) is equivalent to DP"),
    (6, "Table 1 row 6; Proposition 3",
     "Whole-database intervention DP for a given population (Definition 6) is equivalent to DP"),
    (7, "Table 1 row 7; Proposition 4", "DP implies data-point intervention DP (Definition 7) but not conversely"),
    (8, "Table 1 row 8; Proposition 5", "Universal data-point intervention DP (Definition 8) is equivalent to DP"),
    (10, "Appendix B, Definition 10",
     "Strong adversary DP for one distribution (Definition 10) is implied by DP but does not imply it"),
]


TABLE1_PROOFS = [(2, "Proposition 1"), (3, "§3 (Yang et al., Thm 2)"),
                 (4, "§3, (b) (Yang et al., Thm 1; mutually independent data points)"), (5, "Proposition 2"),
                 (6, "Proposition 3"), (7, "Proposition 4"), (8, "Proposition 5"), (10, "Appendix B")]


CLAIMS = [
    *[Claim(id=f"tsd-table1-def{number}-relation", paper="tsd", where=where,
            statement=E._table1_statement(number, statement), printed=causal.DEFINITIONS[number][3],
            compute=E._relation(number), chapter=CHAPTER)
      for number, where, statement in TABLE1_ROWS],
    *[Claim(id=f"tsd-table1-def{number}-attack", paper="tsd", where=where, statement=E._attack_statement(number),
            printed=True, compute=E._table1_verdict(functools.partial(E._table1_certificate, number)),
            chapter=CHAPTER)
      for number, where in TABLE1_PROOFS],
    Claim(id="tsd-fig2-assumption-arcs", paper="tsd", where="Figure 2, (d) and (e)",
          statement="DP implies Bayesian₀ DP with the same ε under either assumption (independent data points; a "
                    "strong adversary who conditions on every other data point), and not without one (a "
                    "counterexample exceeds DP's ε; LPs over every mechanism with 3 outputs on {0,1,2}²)",
          printed=True, compute=E._certified_at_points(E._arcs_certificate), chapter=CHAPTER),
    Claim(id="tsd-def4-printed-condition", paper="tsd", where="§3, Definition 4 (as printed) and (b)",
          statement="DP implies Definition 4's check at every population meeting its printed condition — Dᵢ "
                    "independent of Dⱼ conditioned upon the other data points — with the same ε (n = 3: every ε-DP "
                    "mechanism with 2 outputs, by LP)",
          printed=True, compute=E._certified(E._def4_printed_certificate), expected="discrepancy",
          finding="false-statement",
          note="For n ≥ 3 the printed condition (pairwise independence given the remaining data points) admits the "
               "population in which all data points are equal: given the others, each is determined, so every pair is "
               "conditionally independent. There conditioning on D₁ fixes the whole database and the ε-DP count needs "
               "3ε. For n = 2 the condition is plain independence, and with mutual independence (Yang et al.'s "
               "assumption, the reading the book uses in Table 1) the equivalence holds: tsd-table1-def4-attack.",
          chapter=CHAPTER),
    Claim(id="tsd-appB-eq34-pr-o0-d0", paper="tsd", where="Appendix B, eq. (34)",
          statement="Pr[O=0 | D₁=0] = 1/2 for the mechanism of eqs. (31)–(33)",
          printed=0.5, compute=E._appendix_b_probability(0, 0), atol=1e-12, chapter=CHAPTER),
    Claim(id="tsd-appB-eq35-pr-o1-d1", paper="tsd", where="Appendix B, eq. (35)",
          statement="Pr[O=1 | D₁=1] = 1/2 for the mechanism of eqs. (31)–(33)",
          printed=0.5, compute=E._appendix_b_probability(1, 1), atol=1e-12, chapter=CHAPTER),
    Claim(id="tsd-appB-def10-not-dp", paper="tsd", where="Appendix B",
          statement="The mechanism of eqs. (31)–(33) satisfies Definition 10 with ε = 0 at every population with "
                    "Pr[D₁=2] = 0 (30 random ones), but is not DP for any ε",
          printed=True, compute=verdict_from(E._appendix_b_search, evidence=("random-search", "extremal"),
                         supremum=1.0,
                         supremum_from="n = 1: conditioning on D₁ is the mechanism's row, and 𝒜(0) = 𝒜(1), so every "
                                       "population gives e^0 = 1 exactly",
                         second=E._none("every population with Pr[D₁=2] = 0 gives the same ratio 1 exactly (eqs. "
                                      "31–33), so there is nothing to optimise")), chapter=CHAPTER),
    Claim(id="tsd-prop4-half", paper="tsd", where="Proposition 4, after eq. (19)",
          statement="Pr[O=o | do(Dᵢ=d)] = 1/2 for every o, i and d for the mechanism of eqs. (18)–(19) at every "
                    "population with Pr[D₁=2] = Pr[D₂=2] = 0 (LPs over all of them; checked as Pr ≤ 1/2 for both "
                    "outputs)",
          printed=True, compute=E._certified(E._prop4_half_certificate), chapter=CHAPTER),
    Claim(id="tsd-prop4-def7-not-dp", paper="tsd", where="Proposition 4",
          statement="The mechanism of eqs. (18)–(19) satisfies Definition 7 with ε = 0 at every such population (LPs "
                    "over all of them) but is not DP for any ε",
          printed=True, compute=E._certified(E._prop4_separates_certificate), chapter=CHAPTER),
    Claim(id="tsd-s5.2-two-data-points", paper="tsd", where="§5.2, before Proposition 4",
          statement="A counterexample to Definition 7 ⇒ DP needs two data points: with one data point Definition 7's "
                    "ε equals DP's at every population (LPs over every mechanism with 3 outputs)",
          printed=True,
          compute=E._table1_verdict(functools.partial(E._table1_certificate, 7, "eq", 1, 3, None,
                                                          E.ONE_DATA_POINT)), chapter=CHAPTER),
    Claim(id="tsd-s3-def3-correlated", paper="tsd", where="§1.1 and §3",
          statement="Conditioning on Ada's data point when Byron's always equals it: Definition 3's ε is 2ε for an "
                    "ε-DP count (the 'double dose')",
          printed=2.0, compute=E._def3_correlated_units, atol=1e-9, chapter=CHAPTER),
    Claim(id="tsd-s1.1-conditioning-d1", paper="tsd", where="§1.1",
          statement="In the survey (R₂ := R₁), conditioning on Ada's data point D₁ moves the output distribution by "
                    "up to a factor e^{2ε}",
          printed=2.0, compute=E._conditioning_units, atol=1e-9, chapter=CHAPTER),
    Claim(id="tsd-s1.1-do-d1", paper="tsd", where="§1.1",
          statement="Intervening on Ada's data point D₁ has effect size ε on the output",
          printed=1.0, compute=E._effect_units("D1"), atol=1e-9, chapter=CHAPTER),
    Claim(id="tsd-s1.1-do-r1", paper="tsd", where="§1.1",
          statement="Intervening on Ada's status R₁ has effect up to double ε (two paths, via D₁ and via R₂ → D₂)",
          printed=2.0, compute=E._effect_units("R1"), atol=1e-9, chapter=CHAPTER),
    Claim(id="tsd-s1.1-do-r2", paper="tsd", where="§1.1",
          statement="Intervening on Byron's status R₂ has effect size ε",
          printed=1.0, compute=E._effect_units("R2"), atol=1e-9, chapter=CHAPTER),
    Claim(id="tsd-s6.3-total-effect", paper="tsd", where="§6.3, group privacy",
          statement="Total effect of Ada's and Byron's statuses R₁, R₂ is 3ε",
          printed=3.0, compute=E._total_effect_units, atol=1e-9, chapter=CHAPTER),
    Claim(id="tsd-s6.3-joint-effect", paper="tsd", where="§6.3, group privacy",
          statement="Joint effect of R₁ and R₂ (one do on both) is 2ε",
          printed=2.0, compute=E._effect_units(("R1", "R2")), atol=1e-9, chapter=CHAPTER),
    Claim(id="tsd-s6.3-rr-status-to-response", paper="tsd", where="§6.3, randomized response",
          statement="Randomized response gives ε-BRP from Rᵢ to Dᵢ",
          printed=1.0, compute=E._rr_units, atol=1e-9, chapter=CHAPTER),
    Claim(id="tsd-s6.3-rr-response-to-output", paper="tsd", where="§6.3, randomized response",
          statement="From Dᵢ to an output computed without noise the BRP is unbounded",
          printed=math.inf, compute=E._rr_data_to_output, chapter=CHAPTER),
    Claim(id="tsd-s6.3-rr-status-to-output", paper="tsd", where="§6.3, randomized response",
          statement="From Rᵢ to O the BRP is unbounded when statuses affect one another: with k relatives copying R₁ "
                    "it is exactly (k+1)ε, k = 0..4",
          printed=True, compute=E._certified_at_points(E._rr_relatives_certificate), chapter=CHAPTER),
    Claim(id="tsd-s6.3-direct-indirect", paper="tsd", where="§6.3, direct and indirect effects",
          statement="The effect of Ada's status splits into a direct effect (via D₁, R₂ held) and an indirect one "
                    "(via R₂, D₁ held): total ≤ direct + indirect in deterministic models, attained in the survey (ε "
                    "each, 2ε in total)",
          printed=True, compute=verdict_from(E._path_search, evidence=("random-search", "extremal"),
                         supremum=1.0,
                         supremum_from="the survey (R₂ := R₁): total = direct + indirect = 2ε, §6.3",
                         second=E._path_second), chapter=CHAPTER),
    Claim(id="tsd-eq28-dp-bounds-rp", paper="tsd", where="§6.1, eq. (28)",
          statement="For the ε-DP count prog_A, max over 𝒫 and i of RP̄(O, Dᵢ) is e^ε (the bound of eq. 28, attained)",
          printed=1.0, compute=E._prog_a_brp_units, atol=1e-9, chapter=CHAPTER, bound="upper"),
    Claim(id="tsd-def9-printed-bound", paper="tsd", where="§6.1, Definition 9",
          statement="Definition 9 as printed (max_𝒫 RP̄ ≤ e^{-1}) is met by the ε-DP count for its data points, as "
                    "'DP is equivalent to ε-BRP for all Dᵢ' requires",
          printed=True, compute=E._certified(E._definition9_certificate), expected="discrepancy", finding="typo",
          note="The printed bound e^{-1} is below 1, while RP̄ ≥ 1 always (take x₁ = x₂), so no model meets it. "
               "The bound must be e^ε, as eq. (28) and the sentence after the definition show; with e^ε the claim "
               "tsd-eq28-dp-bounds-rp reproduces.", chapter=CHAPTER),
    Claim(id="tsd-thm1-composition", paper="tsd", where="§6.2, Theorem 1",
          statement="If X has ε₁-BRP to Y and ε₂-BRP to Z in every 𝓜[Y:=y], X has (ε₁+ε₂)-BRP to ⟨Y, Z⟩ (30 random "
                    "models, local search over channels, the worked example)",
          printed=True, compute=verdict_from(E._theorem1_search, evidence=("random-search", "optimised-search", "extremal"),
                         supremum=1.0,
                         supremum_from="the worked example: randomized response selecting a release attains ε₁ + ε₂",
                         second=E._thm1_second), chapter=CHAPTER),
    Claim(id="tsd-thm1-post-processing", paper="tsd", where="§6.2, after Theorem 1",
          statement="Post-processing: Z := g(Y) has BRP from X at most that of Y (20 random g, and the identity, "
                    "which attains it)",
          printed=True, compute=verdict_from(E._post_processing_search, evidence=("random-search", "extremal"),
                         supremum=1.0,
                         supremum_from="g = identity: Z = Y",
                         second=E._post_processing_second), chapter=CHAPTER),
    Claim(id="tsd-lemma1-eq44", paper="tsd", where="Appendix C, Lemma 1, eq. (44)",
          statement="Pr[O=o | do(D₁=d₁, …, Dₙ=dₙ)] = Pr[𝒜(d)=o] for every population (LPs; every mechanism on two "
                    "binary data points, two random ones with three outputs)",
          printed=True, compute=E._certified(lambda: E._lemma_certificate("lemma1")), chapter=CHAPTER),
    Claim(id="tsd-lemma2-eq78", paper="tsd", where="Appendix C, Lemma 2, eq. (78)",
          statement="Pr[O=o | do(Dⱼ=d′)] = Σ Pr[D₋ⱼ = d₋ⱼ] Pr[𝒜(d₋ⱼ, d′)=o] (LPs over every population; every "
                    "mechanism on two binary data points, two random ones with three outputs)",
          printed=True, compute=E._certified(lambda: E._lemma_certificate("lemma2")), chapter=CHAPTER),
    Claim(id="tsd-lemma2-eq60-as-printed", paper="tsd", where="Appendix C, Lemma 2, eqs. (59)–(60)",
          statement="Lemma 2's statement as printed: Pr[O=o | do(Dⱼ=d′ⱼ)] equals the unweighted sum Σ over the other "
                    "data points of Pr[𝒜(…, d′ⱼ, …)=o]",
          printed=True, compute=E._certified(lambda: E._lemma_certificate("printed")), expected="discrepancy",
          finding="typo",
          note="The statement (eqs. 59–60 in our copy) omits the population weights Pr_𝒫[D₋ⱼ = d₋ⱼ] that the proof's "
               "last line, eq. (78), carries; without them the sum can exceed 1. The same weights are missing from "
               "one side of eqs. (15)–(16) and (21). With the weights (eq. 78) the lemma reproduces.", chapter=CHAPTER),
    Claim(id="tsd-s4-do-output-leaves-inputs", paper="tsd", where="§4",
          statement="Pr[D=d | do(O=o)] = Pr[D=d]: intervening downstream does not change the database (LPs over every "
                    "population)",
          printed=True, compute=E._certified(E._downstream_certificate), chapter=CHAPTER),
    Claim(id="tsd-s4-d1-d2-associated", paper="tsd", where="§4, prog_status",
          statement="D₁ and D₂ are equal (associated) in prog_status, yet neither causes the other: do(D₁) leaves D₂'s "
                    "distribution unchanged (LPs over every population)",
          printed=True, compute=E._certified(E._associated_certificate), chapter=CHAPTER),
    Claim(id="tsd-s1.1-status-to-data-unbounded", paper="tsd", where="§1.1",
          statement="The effect of Byron's status on his data point is large (D₂ := R₂: unbounded)",
          printed=math.inf, compute=E._status_to_data_unbounded, chapter=CHAPTER),
    Claim(id="tsd-s1.1-randomization-breaks-association", paper="tsd", where="§1.1",
          statement="After an intervention on Byron's status it no longer reveals anything about Ada's, while "
                    "observing it does (it moves Pr[R₁=1] by at least min(p, 1−p))",
          printed=True, compute=verdict_from(E._breaks_association_search, evidence="exhaustive",
                         supremum=1.0,
                         supremum_from="the equalities Pr[R₁=1 | do(R₂=r)] = Pr[R₁=1] (§1.1)",
                         second=E._none("an exhaustive family of exact equalities (three priors, two "
                                      "interventions)")), chapter=CHAPTER),
    Claim(id="tsd-s1.1-data-point-effect-any-relation", paper="tsd", where="§1.1",
          statement="DP bounds the effect of Ada's data point by ε whatever the relation between the statuses (every "
                    "joint law of the statuses in the inheritance model, by LPs)",
          printed=True, compute=E._certified_at_points(E._data_point_any_relation_certificate), chapter=CHAPTER),
    Claim(id="tsd-prop1-full-support", paper="tsd", where="§3, proof of Proposition 1",
          statement="One population giving every database positive probability already makes Definition 2's check "
                    "equal to DP (LPs over every mechanism with 3 outputs on {0,1,2}²)",
          printed=True, compute=E._table1_verdict(functools.partial(E._table1_certificate, 10, "eq", 2, 3,
                                                                            E.FULL_SUPPORT)),
          chapter=CHAPTER),
    Claim(id="tsd-s2-noninterference", paper="tsd", where="§2",
          statement="Differential privacy with ε = 0 is noninterference; quantitatively, the effect of changing the "
                    "whole input is at most n·ε_DP and at least ε_DP",
          printed=True, compute=E._certified_at_points(E._noninterference_certificate), chapter=CHAPTER),
    Claim(id="tsd-s3-informed-adversary", paper="tsd", where="§3, after Proposition 1",
          statement="Depending on the circumstances either the informed (strong) or the uninformed adversary learns "
                    "more: a computed example of each",
          printed=True, compute=verdict_from(E._informed_search, evidence="extremal",
                         second=E._none("an existence statement (either adversary can learn more): its two computed "
                                      "examples are its proof")), chapter=CHAPTER),
    Claim(id="tsd-s7-nondisclosure", paper="tsd", where="§7, quantitative form (this book)",
          statement="Statistical nondisclosure (the adversary's background knowledge is the true population) implies "
                    "Definition 3's check at that population with ε = 0 (the paper); the book's quantitative form: "
                    "ε₃(𝒫) ≤ 2·ε_SND(𝒫)",
          printed=True, compute=verdict_from(E._nondisclosure_search, evidence=("random-search", "optimised-search", "extremal"),
                         supremum=1.0,
                         supremum_from="randomized response with Pr[truth] → ½ on one data point: the ratio tends to 1",
                         second=E._nondisclosure_second), chapter=CHAPTER,
          note="The paper states only the implication at ε = 0; the factor 2 is this book's bound, not the paper's."),
    Claim(id="tsd-s7-equivalent-to-independence", paper="tsd", where="§7",
          statement="'Statistical nondisclosure implies 0-Bayesian₀ DP (Def. 3) since both are equivalent to "
                    "requiring independence between D and O' (at the true population): Definition 3 with ε = 0 "
                    "implies independence of D and O",
          printed=True, compute=verdict_from(E._bayesian0_without_independence, evidence="extremal",
                         second=E._none("a counterexample under the one-population reading")),
          chapter=CHAPTER, expected="discrepancy", finding="different-reading",
          note="A reading of Definition 3.  Read at the one true population (the population nondisclosure speaks of), "
               "the reason is false: randomized response on D₁ ⊕ D₂ (D₁, D₂ independent fair bits, ε = 0.5) passes "
               "Definition 3's check there with ε = 0 (each Pr[O | D_i] is ½) while Pr[D = (0,0) | O = 0] = 0.311 "
               "against the prior 0.25 (recomputed without the package in tests/claims/test_audit_tsd.py).  Read with "
               "the paper's quantifier over all populations, 0-Bayesian₀ DP implies 0-DP, every row of the mechanism "
               "is the same and D, O are independent at every population: the reason holds "
               "(tsd-s7-independence-universal, margin 1), and the XOR mechanism is not 0-Bayesian₀ DP there (its "
               "Definition 3 ε over every population is 0.5).  Independence implies 0-Bayesian₀ DP at that "
               "population under either reading."),
    Claim(id="tsd-s7-independence-universal", paper="tsd", where="§7",
          statement="With Definition 3's quantifier over all populations, 0-Bayesian₀ DP implies independence of D and "
                    "O (through 0-DP: LPs over every mechanism with 3 outputs on {0,1,2}² at ε = 0)",
          printed=True, compute=E._certified_at_points(E._zero_bayesian0_universal), chapter=CHAPTER),
    Claim(id="tsd-s8-experiment", paper="tsd", where="§8",
          statement="An effect size can be estimated from a black box by experiment: the 95% confidence interval for "
                    "log RP from interventions on one data point covers the true effect at the nominal rate (seeded "
                    "simulation, 4000 experiments per size; bound α + 3 standard errors)",
          printed=True, compute=verdict_from(E._experiment_search, evidence="random-search",
                         supremum=E._EXPERIMENT_SUPREMUM,
                         supremum_from="a correct 95 % interval misses with probability α = 0.05, against the allowed "
                                       "α + 3 standard errors",
                         second=E._none("a Monte Carlo coverage rate, not an optimisation")), chapter=CHAPTER),
]


CLAIMS += SLIPS


#: results the paper states that the registry does not check, and why (rendered by the chapter)
UNCHECKED = [
    ("§6.3, third application",
     "Liu et al.'s and related dependent-data definitions confuse association with causation",
     "a reading of other papers' definitions, with no model or number to compute"),
    ("§6.3, fourth application",
     "Kifer and Machanavajjhala's social network: causal models state which evidence of participation to protect",
     "no model is given; the chapter's direct/indirect computation is the nearest checkable piece"),
    ("§6.3, last paragraph", "Direct effects correspond to node privacy, edge privacy to the direct effect of posting",
     "an analogy; the checkable part (total versus direct versus indirect) is tsd-s6.3-direct-indirect"),
    ("§7", "Kasiviswanathan and Smith's posterior comparison is the causal Cr[D=d | O=o, do(Dᵢ=d′ᵢ), B]",
     "the paper leaves the formalisation of credences in causal models to future work; the chapter computes the "
     "posteriors and their e^{2ε} bound"),
    ("§8", "BRP composes in parallel as DP does", "stated by analogy with DP; no theorem is given"),
    ("Appendix A", "The history of the two views of differential privacy", "historical narrative"),
]

# Slips no earlier claim recorded (issue 35).
CLAIMS += [
    Claim(id="tsd-s4-recursive-order", paper="tsd", where="§4, recursive SEMs",
          statement="'all background variables come before all endogenous variables and no variable has a parent that "
                    "comes before it in the ordering': the direction (checked on every order of prog_status's "
                    "variables)",
          printed="before", compute=E._recursive_order_direction, expected="discrepancy", finding="typo",
          note="Slip (a direction): read literally, no model in which a background variable has a child has such an "
               "order (prog_status has none of the 40 320 orders); 'after' is meant — parents first, the order in "
               "which Appendix C computes bottom up and the engine evaluates the model (tsd-appC-recursive).",
          chapter=CHAPTER),
    Claim(id="tsd-s1.1-intervene-inputs", paper="tsd", where="§1.1, 'Now, let us instead consider interpreting …'",
          statement="Causal definitions examine 'just the differential privacy algorithm itself by intervening upon "
                    "all its outputs': the variables intervened on",
          printed="outputs", compute=E._what_screens_off_the_population, expected="discrepancy", finding="typo",
          note="Slip (a word): intervening on all the algorithm's inputs gives Pr[𝒜(d) = o] whatever the population "
               "(Appendix C, Lemma 1, eq. (44)); intervening on its output fixes the output and gives the same point "
               "mass for every mechanism (computed for the ε-DP count and a constant mechanism).",
          chapter=CHAPTER),
    Claim(id="tsd-s4-model-subscript", paper="tsd", where="§4, 'A second difference is …'",
          statement="'… is defined even when Pr[Dᵢ = dᵢ] = 0' (under the model 𝓜ₛᴬ and 𝒫): the model in the subscript",
          printed="𝓜ₛᴬ", compute=lambda: "𝓜ₛₜᴬ", expected="discrepancy", finding="typo",
          note="Slip (an equation's subscript): the model is 𝓜ₛₜᴬ (𝓜 with subscript st), the SEM of prog_status, as in the same sentence "
               "and everywhere else in §4.",
          chapter=CHAPTER),
    Claim(id="tsd-appC-index-sets", paper="tsd", where="Appendix C, eqs. (53) and (74)–(78)",
          statement="The sets the sums of Lemma 1's and Lemma 2's proofs run over: (53) r⃗ ∈ 𝒟ₙ, (74)–(77) "
                    "⟨r₂, …, rₙ⟩ ∈ ℛⁿ, (78) ⟨d₂, …, dₙ⟩ ∈ 𝒟ⁿ (the exponent of the last, as printed)",
          printed="n", compute=lambda: "n − 1", expected="discrepancy", finding="typo",
          note="Slip (an index set): (53) sums over 𝒟ₙ where (54)–(55) have ℛⁿ, and (74)–(78) sum n − 1 components "
               "r₂, …, rₙ (d₂, …, dₙ) over ℛⁿ (𝒟ⁿ): the sets are ℛⁿ⁻¹ and 𝒟ⁿ⁻¹, as in Lemma 2's statement, eqs. "
               "(59)–(60). The computation is unaffected (tsd-lemma2-eq78).",
          chapter=CHAPTER),
    Claim(id="tsd-appA1-goldwasser-micali", paper="tsd", where="Appendix A.1",
          statement="'Goldwasser and Silvio's cryptographic notion of semantic security': the authors of reference "
                    "[46]",
          printed="Goldwasser and Silvio", compute=lambda: "Goldwasser and Micali", expected="discrepancy",
          finding="typo",
          note="Slip (a reference's author): reference [46] is S. Goldwasser and S. Micali, 'Probabilistic "
               "encryption' (JCSS 1984); Silvio is Micali's first name.",
          chapter=CHAPTER),
    Claim(id="tsd-s3-alvim-authors", paper="tsd", where="§3, after Proposition 1 ('informed adversaries')",
          statement="'Alvim and Andrés rewrite differential privacy this way [2, p. 5]': the authors of reference [2]",
          printed="Alvim and Andrés", compute=lambda: "Alvim et al.", expected="discrepancy", finding="typo",
          note="Slip (a reference's authors): reference [2] has four authors, M. Alvim, M. Andrés, K. Chatzikokolakis "
               "and C. Palamidessi; §2 cites it as 'Alvim et al.'",
          chapter=CHAPTER),
    Claim(id="tsd-ref36-year", paper="tsd", where="References, [36]",
          statement="The year of Dwork and Naor, 'On the difficulties of disclosure prevention …', J. Privacy and "
                    "Confidentiality 2(1), 93–107",
          printed=2008, compute=lambda: 2010, expected="discrepancy", finding="typo",
          note="Slip (a reference's year): volume 2, issue 1 of the Journal of Privacy and Confidentiality appeared in "
               "2010, the year Kasiviswanathan and Smith give for the same paper (their [6] and [7]).",
          chapter=CHAPTER),
]
