"""Claims of Kasiviswanathan & Smith, "On the 'Semantics' of Differential Privacy: A Bayesian Formulation".

Every number, constant and inequality the paper prints in its theorems, lemmas, proofs, remarks and
appendices, recomputed with :mod:`dpsemantics.semantic`.  Printed relations are ``printed=True`` and are
*attacked*: each has a search (``_search_*``, cached) that returns the attacked quantity ``lhs``, the printed
bound ``rhs`` at every case tried, labels and the kind of evidence; ``compute(tighten)`` only re-compares, so
re-checking a mutated statement (``claims/mutations.py``) is cheap.  A relation the search refutes is a discrepancy
whose ``worst`` case is the counterexample.  A few claims are the book's own repairs (``where`` says so).
"""

from __future__ import annotations
import math
from . import Claim, Verdict
from .certify import against_supremum
from . import semantic_evidence as E

CHAPTER = "book/semantic-privacy"


CLAIMS = [
    Claim(id="ks-s2-eps-delta-to-zero-delta", paper="ks", where="§2, after Definition 2.3",
          statement="Every (ε, δ)-DP algorithm is (0, δ + e^ε − 1)-DP (δ(0) is the largest SD between neighbours)",
          printed=True,
          compute=E._certified_sd_verdict,
          note="Holds on the whole domain (a dual in closed form in e^ε and δ); the exact worst case is "
                "(e^ε − 1 + 2δ)/(e^ε + 1), attained by a pair on two outcomes; its ratio to the bound tends to 1 "
                "as ε → 0, so the bound at 0.999 is refuted.", chapter=CHAPTER),
    Claim(id="ks-thm2.2-forward", paper="ks", where="Theorem 2.2", statement="ε-DP implies (e^ε − 1)-semantic privacy",
          printed=True,
          compute=against_supremum(E._search_thm22_forward, 0.5, "tanh(ε/2)/(e^ε − 1) → ½ as ε → 0, the geometric count on two "
                          "records attaining tanh(ε/2)"),
          note="Holds with room: the exact worst case over ε-DP mechanisms is tanh(ε/2), attained by the "
                "two-sided geometric count for n ≥ 2; tanh(ε/2)/(e^ε − 1) → ½ as ε → 0.", chapter=CHAPTER),
    Claim(id="ks-s3.2-restatement", paper="ks", where="Theorem 2.2 vs §3.2 'restated'",
          statement="The restatement (ε/2-DP ⇒ (e^ε − 1)-SP) is the same bound as Theorem 2.2 (ε-DP ⇒ (e^ε − 1)-SP)",
          printed=True, compute=E._certified_s32_restatement, expected="discrepancy", finding="proof-gap",
          note="The proof in §3.2 proves ε-DP ⇒ (e^{2ε} − 1)-SP, weaker than the statement by a factor 2 in ε. "
                "The statement is still true (tanh(ε/2) ≤ e^ε − 1), by the sharper two-point argument of the chapter.",
                chapter=CHAPTER),
    Claim(id="ks-thm2.2-converse", paper="ks", where="Theorem 2.2",
          statement="For 0 < ε ≤ 0.45, ε/2-semantic privacy implies 3ε-DP", printed=True,
          compute=against_supremum(E._search_thm22_converse, 4 * math.atanh(0.225) / (6 * 0.225),
                          "4 artanh(s)/(6s) at s = 0.225, randomized response, increasing in s"),
          note="True with room: s-SP implies exactly (4 artanh s)-DP (randomized response attains it), and "
                "4 artanh(ε/2) ≤ 3ε up to ε ≈ 1.717; at the range's end ε = 0.45 the worst case is 0.68 of 3ε.",
                chapter=CHAPTER),
    Claim(id="ks-s3.2-eps-sp-3eps-dp", paper="ks", where="§3.2, proof of Theorem 2.2",
          statement="ε-semantic privacy implies 3ε-DP", printed=True, compute=E._certified_s32_eps_sp_3eps_dp,
          expected="discrepancy",
          finding="proof-gap",
          note="Randomized response with ε₀ is tanh(ε₀/4)-semantically private and exactly ε₀-DP; "
                "ε₀ = 4 artanh(s) > 3s for every s > 0; inside the proof's range ε ≤ 0.45, ε₀ = 1.938 is "
                "0.45-semantically private (tanh(0.4845) = 0.4498) and 1.938 > 3·0.45 = 1.35. The proof's posterior window ½ ± ε should be ½ ± ε/2 "
                "(the theorem assumes ε/2-SP); the theorem itself holds.", chapter=CHAPTER),
    Claim(id="ks-eq6", paper="ks", where="§3.2, equation (6)", statement="(½ + ε)/(½ − ε) ≤ e^{3ε} since ε ≤ 0.45",
          printed=True, compute=E._certified_eq6,
          expected="discrepancy", finding="proof-gap",
          note="log((½+ε)/(½−ε)) = 2 artanh(2ε) ≥ 4ε > 3ε for every ε > 0, so the inequality never holds. "
                "With the window ½ ± ε/2 that the theorem's hypothesis gives, (1+ε)/(1−ε) ≤ e^{3ε} holds "
                "for ε ≤ 0.8586; read as 'ε-SP ⇒ 6ε-DP' it holds for ε ≤ 0.4293, just below 0.45.", chapter=CHAPTER),
    Claim(id="ks-eq6-corrected-range", paper="ks", where="§3.2, equation (6), range ε ≤ 0.45",
          statement="Largest ε for which the corrected step (½ + ε/2)/(½ − ε/2) ≤ e^{3ε} holds (paper: 0.45)",
          printed=0.45, compute=E._eq6_corrected_range, atol=0.005, expected="discrepancy",
          finding="different-reading",
          note="0.45 is sufficient, not the threshold: the corrected step holds up to ε = 0.8586. The other "
                "reading (½ ± ε with e^{6ε}) has threshold 0.4293 < 0.45, so 0.45 matches neither exactly.",
                chapter=CHAPTER),
    Claim(id="ks-eq6-six-eps-range", paper="ks", where="§3.2, equation (6), range ε ≤ 0.45",
          statement="Largest ε with (½ + ε)/(½ − ε) ≤ e^{6ε} (the reading ε-SP ⇒ 6ε-DP; paper's range 0.45)",
          printed=0.45, compute=E._eq6_six_eps_range, atol=0.005, expected="discrepancy", finding="different-reading",
          note="At ε = 0.45 the ratio is 19 > e^{2.7} ≈ 14.9: under this reading the printed range is too wide.",
          chapter=CHAPTER),
    Claim(id="ks-thm2.4-1-condition", paper="ks", where="Theorem 2.4 (1) and its proof",
          statement="If δ < (1 − e^{−ε})²/n then 1 − e^{−ε} > √(nδ) and δ″ ≤ 4√(δ/n)", printed=True,
          compute=E._certified_thm24_condition,
          note="Arithmetic on the proof's δ″; it holds, but that δ″ rests on Lemma 3.4 as derived, which is "
                "false (ks-lem3.4-holds); see ks-thm2.4-1-repaired for the proof with the corrected lemma.",
                chapter=CHAPTER),
    Claim(id="ks-thm2.4-1-last-line", paper="ks", where="§3.4, proof of Theorem 2.4 (1), last line",
          statement="e^{3ε̂} − 1 + δ̂ = ε′ (difference, at ε = 0.1, n = 100, δ = 1e-6)", printed=0.0,
          compute=E._thm24_last_line,
          atol=1e-9, expected="discrepancy", finding="typo",
          note="Slip: Lemma 3.3 (5) gives SD ≤ e^{ε̂} − 1 + δ̂ = e^{3ε} − 1 + √(nδ), which is below the stated "
                "ε′ = e^{3ε} − 1 + 2√(nδ); the theorem holds, its ε′ is looser than the proof needs.", chapter=CHAPTER),
    Claim(id="ks-thm2.4-1-leaky-count", paper="ks", where="Theorem 2.4 (1)",
          statement="(ε, δ)-DP implies (e^{3ε} − 1 + 2√(nδ), 4√(nδ))-semantic privacy", printed=True,
          compute=E._search_thm24_forward,
          note="Holds on every case, with margin 0.0263: the leaky count and leaky randomized response reach only a "
                "semantic δ of order δ, but a one-record, three-output (ε, δ)-DP mechanism (ks.three_output_dp: "
                "outputs with likelihood ratios r and 1/r, mass δ/(r − e^ε) each, r just above the value where the "
                "posterior moves by ε′) reaches about 10δ: semantic δ = 1.02·10⁻³ at ε = 0.01, δ = 9.8·10⁻⁵, i.e. "
                "about 0.10·√δ. At the condition's edge δ → (1 − e^{−ε})² with ε → 0 it tends to 2√δ/19, i.e. 1/38 "
                "≈ 0.0263 of δ′ = 4√δ (0.02631 at ε = 10⁻⁴); a linear program over one-record mechanisms on a grid "
                "of likelihood ratios finds no more (0.1051·√δ at ε = 10⁻³, tests/claims/test_audit_ks.py), so 1/38 "
                "is the one-record supremum as far as that grid sees. Over n ≥ 2 the supremum is not known: an LP "
                "over two-record mechanisms with 22 likelihood values per database (ε = 0.01) finds 0.0250 of δ′, "
                "rising as the grid is refined (a two-record construction reported at 0.0273–0.0276 is not reproduced "
                "here), so no supremum is recorded for the statement. Far below δ′ = 4√(nδ), but of order √δ, not δ.",
          chapter=CHAPTER),
    Claim(id="ks-thm2.4-1-repaired", paper="ks", where="Theorem 2.4 (1), proof repaired (this book)",
          statement="With the corrected Conditioning Lemma and δ̂ from the exact SD bound, n·δ″ ≤ 4√(nδ): the theorem "
                    "survives", printed=True, compute=E._certified_thm24_repaired,
          note="The paper's route (δ̂ = √(nδ)) with the corrected lemma gives only δ′ ≤ (3 + e^{2ε})√(nδ); using the "
                "slack in ε′ (δ̂ = 2√(nδ), Lemma 3.3 (5)) recovers 4√(nδ) for ε ≤ ½ ln 3; using the exact SD bound "
                "(e^{ε̂} − 1 + 2δ̂)/(e^{ε̂} + 1) allows δ̂ ≥ (1 + e^{3ε})√(nδ) and n·δ″ < 3√(nδ) for every ε.",
                chapter=CHAPTER),
    Claim(id="ks-thm2.4-2", paper="ks", where="Theorem 2.4 (2)",
          statement="For ε ≤ 0.45, (ε, δ)-semantic privacy implies (3ε, 2δ)-DP", printed=True,
          compute=E._certified_thm24_converse, expected="discrepancy", finding="false-statement",
          note="Counterexample: randomized response on one record with ε₀ = 0.8 is (0.197, 0)-SP, hence "
                "(0.197, 0.01)-SP, but needs δ = 0.130 > 0.02 at 3·0.197. Same slip as equation (6): the "
                "proof gives (2 artanh(2ε), 2δ)-DP; stated for (ε/2, δ)-SP, as in Theorem 2.2, it holds.",
                chapter=CHAPTER),
    Claim(id="ks-rem1-eps-sd", paper="ks", where="Remark 1",
          statement="The random-index mechanism satisfies (3) with ε_SD = 1/n (n = 4)", printed=0.25,
          compute=E._remark1_sd_parameter, atol=1e-12, chapter=CHAPTER),
    Claim(id="ks-rem1-not-semantic", paper="ks", where="Remark 1",
          statement="The random-index mechanism is not (ε, δ)-semantically private for any ε < 1, δ < 1", printed=True,
          compute=E._certified_remark1_not_semantic,
          note="With the convention that a transcript impossible in Game j is a breach (SD = 1; the paper's "
                "'no data' default makes (j, x_j) impossible in Game j). Counting only transcripts where every "
                "posterior exists, it fails whenever ε + δ < 1. Certified at finitely many points (n = 3, ε ∈ {1/10, "
                "1/2, 9/10, 99/100}, exact rationals): the semantic δ is decided by a comparison SD > ε per "
                "transcript, which an identity or a dual does not express; the argument for every ε < 1 and n "
                "(after (j, 0) Game j keeps the prior, SD = (1 + ε)/2 > ε) is written, not computed.", chapter=CHAPTER),
    Claim(id="ks-rem1-ignore-undefined-reading", paper="ks", where="Remark 1, read with 'ignore undefined posteriors'",
          statement="The random-index mechanism (n = 3) is not (0.5, 0.5)-semantically private", printed=True,
          compute=lambda tighten=1.0: Verdict.of(*E._remark1_readings()[:2], labels=E._remark1_readings()[2],
                                          evidence=("exhaustive", "random-search"), tighten=tighten),
          expected="discrepancy", finding="different-reading",
          note="Remark 1's verdict (ks-rem1-not-semantic, reproduced) rests on the convention that a transcript "
                "impossible in Game i is a full breach. Under the other natural reading, which ignores undefined "
                "posteriors, the only informative transcripts are (i, 0) with Game i's posterior the prior: SD = "
                "Pr[x_i = 1], and the semantic δ at ε is Σ_i (1/n)·Pr[x_i = 0] over the i with Pr[x_i = 1] > ε, below "
                "1 − ε. So the mechanism is (ε, 1 − ε)-semantically private for every ε, e.g. (0.5, 0.5): both "
                "verdicts are computed; the chapter adopts the first.", chapter=CHAPTER),
    Claim(id="ks-rem1-omega-1-over-n", paper="ks", where="Remark 1, 'one would need ε_SD = Ω(1/n)'",
          statement="TV(𝒜(D), 𝒜(D′)) ≤ d_H(D, D′)·ε_SD, so distinguishing databases that differ everywhere needs ε_SD ≥ TV/n",
          printed=True, compute=E._certified_remark1_omega,
          note="Triangle inequality along a path of neighbours, certified for every d by the induction step's dual "
                "in closed form; the random-index mechanism attains it (TV(A(0ⁿ), A(1ⁿ)) = 1 = n·(1/n)).",
          chapter=CHAPTER),
    Claim(id="ks-eq5", paper="ks", where="§2.1, equation (5)",
          statement="1 − β ≤ α + ε_SD for the random-index mechanism (advantage, n = 4)",
          printed=0.25, compute=E._eq5_hypothesis_test, atol=1e-12, chapter=CHAPTER),
    Claim(id="ks-eq4", paper="ks", where="§2.1, equation (4)",
          statement="Largest power 1 − β of a level-α test of one record against an ε-DP mechanism, printed e^{εα} "
                    "(ε = 1, α = 0.05)", printed=E._eq4_printed(), compute=E._eq4_computed, rtol=1e-9, expected="discrepancy",
          finding="typo",
          bound="upper",
          note="e^{εα} ≥ 1 for all ε, α ≥ 0, so (4) as printed is vacuous; Wasserman & Zhou's bound reads "
                "1 − β ≤ e^ε α (the exponent has swallowed the factor α), which randomized response attains.",
                chapter=CHAPTER),
    Claim(id="ks-s2.1-testing", paper="ks", where="§2.1, equation (4) repaired, with δ (Hall et al.)",
          statement="Every test of x_i ∈ S against x_i ∈ T (i.i.d. records) from an (ε, δ)-DP output has power ≤ e^ε α + δ",
          printed=True, compute=E._certified_s21_testing,
          note="Holds on the whole domain: power and α are averages of neighbour pairs under the same law of the other "
                "records (the i.i.d. assumption), a dual in closed form. Randomized response attains it for α ≤ "
                "1/(1 + e^ε); leaky randomized response with δ too. The paper's remark that (4) holds only for product "
                "distributions is about this setting.", chapter=CHAPTER),
    Claim(id="ks-s2.1-informed-beliefs", paper="ks", where="§2.1, 'Prior to Posterior Comparisons'",
          statement="Prior-to-posterior semantic privacy for informed beliefs (all entries but one fixed) is equivalent "
                    "to DP: exactly, sup SD(b, b̄[·|t]) = tanh(ε/4)", printed=True, compute=E._search_s21_informed_beliefs,
          note="Read with the Game-0 posterior b̄₀: with K&S's b̄_i for the free entry i, the comparison is "
                "trivially 0 (Game i does not depend on x_i). The equivalence is exact: s ⇔ 4 artanh(s).",
                chapter=CHAPTER),
    Claim(id="ks-lem3.3-1", paper="ks", where="Lemma 3.3 (1)", statement="Point-wise (ε, δ) ⇒ (ε, δ)-indistinguishable",
          printed=True, compute=E._certified_lemma33_part1,
          note="Holds on the whole domain (a dual in closed form over the masses of S ∩ Bad and S ∖ Bad); attained: "
                "p = (δ, 1 − δ), q = (0, 1).", chapter=CHAPTER),
    Claim(id="ks-lem3.3-2-printed", paper="ks", where="Lemma 3.3 (2)",
          statement="(ε, δ) ⇒ point-wise (ε, 2δ/(1 − e^{−ε}))", printed=True,
          compute=E._certified_lemma33_part2_printed, expected="discrepancy", finding="false-statement",
          note="False as printed: p = (½, ½) and q just beyond ratio e^ε at one point have tiny δ but point-wise "
                "δ ≥ ½. The proof in Appendix A (and its use in Lemma 3.4) has 2ε: point-wise (2ε, 2δ/(1 − e^{−ε})).",
                chapter=CHAPTER),
    Claim(id="ks-lem3.3-2-proved", paper="ks", where="Lemma 3.3 (2), Appendix A",
          statement="(ε, δ) ⇒ point-wise (2ε, 2δ/(1 − e^{−ε}))", printed=True,
          compute=E._certified_lemma33_part2_proved,
          note="Holds on the whole domain (a dual in closed form in e^ε over the masses of the two bad sets); the "
                "worst point-wise δ at 2ε is δ(e^{2ε} + 1)/(e^ε(e^ε − 1)), (e^{2ε} + 1)/(2e^{2ε}) of the bound, which "
                "tends to 1 as ε → 0.", chapter=CHAPTER),
    Claim(id="ks-lem3.3-eq7-eq8", paper="ks", where="Appendix A, equations (7)–(8)",
          statement="Bound (8) exceeds (7), and twice (8) is δ·2e^ε/(e^ε − 1)", printed=True,
          compute=E._certified_eq7_eq8, chapter=CHAPTER),
    Claim(id="ks-lem3.3-3-4", paper="ks", where="Lemma 3.3 (3) and (4)",
          statement="(X, A(X)) ≈ (X, A′(X)) with (ε, δ), and with (ε, δ + δ₁) when a δ₁-fraction of a fails",
          printed=True,
          compute=E._certified_lemma33_parts_3_4,
          note="Holds on the whole domain (a dual in closed form over the masses of the good and the failing values); "
                "part 3 is attained (one value of X with channels (δ, 1 − δ) and (0, 1)); part 4's worst case is "
                "δ + δ₁ − δδ₁.", chapter=CHAPTER),
    Claim(id="ks-lem3.3-5", paper="ks", where="Lemma 3.3 (5)", statement="(ε, δ)-indistinguishable ⇒ SD ≤ e^ε − 1 + δ",
          printed=True, compute=E._certified_sd_verdict,
          note="The proof's sum Σ_c(… + δ) counts δ once per outcome; the bound holds all the same. The exact "
                "maximum is (e^ε − 1 + 2δ)/(e^ε + 1) (the closed-form dual proves it on the whole domain; a pair on two "
                "outcomes attains it).", chapter=CHAPTER),
    Claim(id="ks-fn3-postprocessing", paper="ks", where="§3.3, footnote 3",
          statement="Point-wise indistinguishability is not closed under post-processing", printed=True,
          compute=E._certified_footnote3, chapter=CHAPTER),
    Claim(id="ks-lem3.4-printed-delta2", paper="ks", where="Lemma 3.4 statement",
          statement="δ″ = 2δ̂/δ̂ + 2δ̂/(1 − e^{−ε̂}) (value at ε = 0.1, δ = 1e-4, δ̂ = 0.01), against the proof's δ″",
          printed=E._lemma34_printed_formula(), compute=E._lemma34_proved_formula, rtol=1e-9, expected="discrepancy",
          finding="typo",
          note="Typo in the statement: the proof derives δ″ = 2δ/δ̂ + 2δ/(1 − e^{−ε}); the printed expression "
                "is ≥ 2 and makes the lemma vacuous (true but empty) when read literally.", chapter=CHAPTER),
    Claim(id="ks-lem3.4-holds", paper="ks", where="Lemma 3.4 (Conditioning Lemma)",
          statement="A|_{B=t} ≈ A′|_{B′=t} with (3ε, δ̂) except on mass ≤ 2δ/δ̂ + 2δ/(1 − e^{−ε}) (the proof's δ″, which "
                    "Theorem 2.4 uses), over t ~ B and over t ~ B′", printed=True, compute=E._certified_lemma34_holds,
          expected="discrepancy", finding="false-statement",
          note="False as printed. Binary A, transcripts t₁, t₂, t₀: P with rows (u(1−a), e^ε u(1−a), ·) and (ua, 0, 0), "
                "Q with rows (u(1−a), u(1−a), ·) and (0, ua, 0), a just above δ̂, u = δ/a: the joint δ is exactly δ, "
                "t₁ and t₂ are both bad, and Pr[B ∈ {t₁, t₂}] ≈ (1 + e^ε(1 − δ̂))δ/δ̂ (3.45e-5 against 2.32e-5 at ε = "
                "1, δ̂ = 0.1, δ = 1e-6); the mirror image breaks the bound over t ~ B′. The gap: 'by a similar "
                "argument' bounds Pr[B′ ∈ Bad′₂], not Pr[B ∈ Bad′₂] (ks-lem3.4-similar-argument). Read literally "
                "(printed δ″ ≥ 2) the lemma is vacuous. Corrected: ks-lem3.4-corrected.", chapter=CHAPTER),
    Claim(id="ks-lem3.4-valid-steps", paper="ks", where="Lemma 3.4, proof",
          statement="Pr[B ∈ Bad′₁] ≤ δ/δ̂ (the proof's argument) and, mirrored, Pr[B′ ∈ Bad′₂] ≤ δ/δ̂", printed=True,
          compute=E._search_lemma34_valid_steps,
          note="The argument is right for what it bounds; the counterexample attains δ/δ̂ in the limit.",
          chapter=CHAPTER),
    Claim(id="ks-lem3.4-similar-argument", paper="ks", where="Lemma 3.4, proof: 'By a similar argument'",
          statement="Pr[B ∈ Bad′₂] ≤ δ/δ̂ (and mirrored Pr[B′ ∈ Bad′₁] ≤ δ/δ̂)", printed=True,
          compute=E._certified_lemma34_similar_argument,
          expected="discrepancy", finding="proof-gap",
          note="The mirrored argument bounds the mass of Bad′₂ under B′, not under B; off Bad₀ the two differ by up "
                "to e^{2ε}, so Pr[B ∈ Bad′₂] ≤ e^{2ε}δ/δ̂ is what follows. The counterexample reaches e^ε(1 − "
                "δ̂)·δ/δ̂.", chapter=CHAPTER),
    Claim(id="ks-lem3.4-corrected", paper="ks", where="Lemma 3.4, corrected (this book)",
          statement="Bad mass ≤ 2δ/(1 − e^{−ε}) + (1 + e^{2ε})δ/δ̂, over t ~ B and over t ~ B′", printed=True,
          compute=E._search_lemma34_corrected,
          note="Proved in the chapter (the proof's own steps plus Pr[B = t] ≤ e^{2ε}Pr[B′ = t] off Bad₀); the search "
                "approaches it (margin → 1) as ε → 0 with δ̂ ≪ ε; whether e^{2ε} can be lowered to e^ε is open.",
                chapter=CHAPTER),
    Claim(id="ks-thm4.2-condition", paper="ks", where="Theorem 4.2 / Corollary 4.4",
          statement="The condition ε > √(nδ₂) suffices for the proof's step δ″ ≤ 4√(δ₂/n)", printed=True,
          compute=E._certified_thm42_condition, expected="discrepancy", finding="proof-gap",
          note="The step needs 1 − e^{−ε} ≥ √(nδ₂) (Theorem 2.4's condition); ε > √(nδ₂) is weaker. At "
                "ε = 0.2, √(nδ₂) = 0.19 it fails; there δ′ = 4√(nδ₂) = 0.76 while the proof gives 0.78.",
                chapter=CHAPTER),
    Claim(id="ks-cor4.4-median", paper="ks", where="Corollary 4.4",
          statement="Laplace-type noise at local sensitivity s gives (e^{3ε} − 1 + √(nδ₁), 4√(nδ₁))-local semantic privacy "
                    "(median of 3 records in {0..4})", printed=True, compute=E._search_cor44, expected="not-checked",
          note="Not checked: on every i.i.d. belief tried (concentrated on the middle value, within the theorem's "
                "condition) the semantic δ at ε′ is exactly 0, so the search never approaches δ′. The proof's first "
                "step (Lemma 3.3 (4)) is attacked on its own by ks-lem3.3-3-4.", chapter=CHAPTER),
    Claim(id="ks-fn4-gaussian", paper="ks", where="§4, footnote 4",
          statement="Gaussian noise instead of Laplace: (ε, δ) at local sensitivity 1 gives Theorem 4.2's (ε′, δ′) with "
                    "δ₂ = δ + δ₁ (median of 3 records)", printed=True, compute=E._search_fn4_gaussian, expected="not-checked",
          note="Not checked, as ks-cor4.4-median: every semantic δ found at ε′ is 0. σ from the exact Gaussian "
                "calibration (not Theorem A.2's σ² = log(1/δ)/ε², which is too small).", chapter=CHAPTER),
    Claim(id="ks-a2-gaussian-calibration", paper="ks", where="Appendix B, proof of Theorem A.2",
          statement="Gaussian noise with σ² = log(1/δ)/ε² is (ε, δ)-DP", printed=True,
          compute=E._certified_a2_calibration,
          expected="discrepancy", finding="proof-gap",
          note="The exact profile gives δ(0.5) = 1.68e-5 > 1e-5 at δ = 1e-5; the calibration holds only for δ above "
                "about 3.9e-5 at ε = 0.5 (3.9e-7 at ε = 0.1, 5.6e-4 at ε = 1); at ε = 2 it holds only for δ in "
                "[0.035, 0.535], and from ε ≈ 2.23 on for no δ in [1e-12, 0.9]. Theorem A.2 survives with the "
                "standard calibration.", chapter=CHAPTER),
    Claim(id="ks-a2-ratio", paper="ks", where="Appendix B, proof of Theorem A.2",
          statement="Pr[A = n | 0ⁿ]/Pr[A = n | (1,0ⁿ⁻¹)] = exp((−2n + 1)/(2σ)) (n = 10, σ = 2)",
          printed=E._a2_ratio_printed(),
          compute=E._a2_ratio_computed, rtol=1e-9, expected="discrepancy", finding="typo",
          note="With variance σ² the density ratio is exp((−2n + 1)/(2σ²)); the printed 2σ treats σ as the "
                "variance. The conclusion (exponentially small in n) is unaffected.", chapter=CHAPTER),
    Claim(id="ks-a2-counterexample", paper="ks", where="Theorem A.2",
          statement="(ε, δ)-DP gives no reality-oblivious semantic privacy: δ′ at ε′ = 0.25 when D = 1ⁿ (n = 1000)",
          printed=1.0, compute=E._a2_counterexample, atol=1e-6, chapter=CHAPTER),
    Claim(id="ks-a2-game1-no-update", paper="ks", where="Appendix B, proof of Theorem A.2",
          statement="On D₋₁ no update occurs: the largest change of b̄₁ from the uniform prior over all transcripts",
          printed=0.0,
          compute=E._a2_no_update_in_game1, atol=1e-12, chapter=CHAPTER),
]


# What the chapter states but does not check, and why (rendered by the chapter's last section).
UNCHECKED = [
    ("§2, 'our results extend directly to the interactive, continuous case'",
     "Every computation is on finite, non-interactive mechanisms; continuous noise is binned (Theorem A.2, "
     "footnote 4), which is post-processing and proves nothing about the continuous statement itself."),
    ("Theorem 2.4 (1), the constant 4 in $\\delta' = 4\\sqrt{n\\delta}$ for n ≥ 2",
     "For one record the order is settled: the three-output mechanism of ks-thm2.4-1-leaky-count reaches a semantic δ "
     "of 2$\\sqrt{\\delta}$/19 ≈ 0.105·$\\sqrt{\\delta}$ at the edge of the condition as ε → 0 (1/38 of δ′), "
     "and a linear program over one-record (ε, δ)-DP mechanisms whose outputs take 66 likelihood ratios (a grid) "
     "finds no more, so $\\sqrt{\\delta}$ is needed up to a constant. Whether the factor $\\sqrt{n}$ and the "
     "constant 4 are needed for n ≥ 2 is open: the mechanism searches stop at three records, and a coarse linear "
     "program over two-record mechanisms (ε = 0.01, 22 likelihood values per database) finds 0.0250 of δ′, "
     "rising as its grid is refined."),
    ("Lemma 3.4 corrected, the factor $e^{2\\varepsilon}$",
     "Proved, and approached as ε → 0; the counterexample reaches $e^{\\varepsilon}(1 - \\hat\\delta)$, and whether "
     "$e^{2\\varepsilon}$ can be lowered to $e^{\\varepsilon}$ is open."),
    ("Theorem 4.2 for general mechanisms and beliefs",
     "Checked on median mechanisms of three records in {0..4} with i.i.d. beliefs; there the semantic δ is 0 "
     "(a breach needs prior mass of order ε′ outside E), so only the proof's first step is attacked closely."),
    ("§2.1, Wasserman–Zhou and Hall et al. for continuous mechanisms and composite hypotheses",
     "Checked for finite mechanisms, i.i.d. records and the tests of x_i ∈ S against x_i ∈ T; the "
     "literature's continuous statements are cited, not recomputed."),
    ("Remark 1, 'the mutual information between A(x) and x_i is required to be small'",
     "The paper prints no value: 'small' is not a number. The chapter computes I(A(x); x_i) = H(x_i)/n bits for the "
     "random-index mechanism (0.25 at n = 4, uniform records), a value of this book, not a claim of the paper."),
    ("§1 and §4, historical and bibliographic statements",
     "Who proposed which definition first (Dwork–McSherry, Bassily et al., Kifer–Machanavajjhala) is "
     "not a computation."),
]


CLAIMS += [
    Claim(id="ks-s4-laplace-sd", paper="ks", where="§4, before Corollary 4.4",
          statement="Lap(λ), density ∝ exp(−|y|/λ), has standard deviation λ (value at λ = 1)", printed=1.0,
          compute=E._laplace_standard_deviation,
          rtol=1e-9, expected="discrepancy", finding="typo",
          note="Slip (a standard deviation): the variance of Lap(λ) is 2λ², so its standard deviation is √2·λ; λ is "
                "its mean absolute deviation (the scale). Corollary 4.4 uses only the density, so "
                "nothing else changes.", chapter=CHAPTER),
    Claim(id="ks-s2.1-hypothesis-labels", paper="ks", where="§2.1, 'Hypothesis Testing'",
          statement="The labels of the hypothesis x_i ∈ S and of its alternative x_i ∈ T (printed 'H₁ … versus "
                    "the alternative H₁')",
          printed="H₁, H₁", compute=lambda: "H₀, H₁", expected="discrepancy", finding="typo",
          note="Slip (a hypothesis label): both hypotheses are printed H₁. The level α is the rejection probability "
                "under x_i ∈ S, so x_i ∈ S is the null H₀ (as ks.record_test_distributions and the chapter name it).",
                chapter=CHAPTER),
    Claim(id="ks-appB-numbering", paper="ks", where="Appendix B, Definition A.1 and Theorem A.2",
          statement="The numbers of Appendix B's definition and theorem (printed A.1 and A.2)", printed="A.1, A.2",
          compute=lambda: "B.1, B.2", expected="discrepancy", finding="typo",
          note="Slip (a definition number): Appendix A is the proof of Lemma 3.3 and holds no numbered statement; the "
                "reality-oblivious definition and its theorem sit in Appendix B (§2 points there: 'In Appendix B, we "
                "discuss a stronger notion'), so they should be B.1 and B.2. The book keeps the printed numbers "
                "(ks-a2-… claims) so that readers can find them.", chapter=CHAPTER),
    Claim(id="ks-s2.1-dwork-naor-citation", paper="ks", where="§2.1, 'Prior to Posterior Comparisons'",
          statement="'the impossibility results of Dwork and Naor [5, 7]': the references by Dwork and Naor",
          printed="[5, 7]",
          compute=lambda: "[6, 7]", expected="discrepancy", finding="typo",
          note="Slip (a cross-reference): [5] is Dwork alone (ICALP 2006); Dwork and Naor are [6] and [7] (the same "
                "paper listed twice, J. Privacy and Confidentiality 2(1), 2010), as §2 cites them ('Dwork and Naor "
                "[6], Dwork [5]').", chapter=CHAPTER),
    Claim(id="ks-lem3.3-4-proof-good-set", paper="ks", where="Appendix A, proof of Lemma 3.3 (4)",
          statement="Pr[X ∉ T] ≤ δ₁ for T = {a : A(a) ≤ e^ε A′(a)} (as printed), when A(a) ≈_(ε,δ) A′(a) except on mass δ₁ = 0",
          printed=0.0, compute=E._part4_good_set_mass, atol=1e-12, expected="discrepancy", finding="typo",
          note="Slip: T must be the set of a where A(a) and A′(a) are (ε, δ)-indistinguishable (the lemma's "
                "hypothesis), as the next lines use (the δ they add comes from a ∈ T). As printed, with the pure ratio "
                "condition, a single value whose channels are (δ, 1 − δ) and (0, 1) leaves T empty although δ₁ = 0. "
                "The lemma holds (ks-lem3.3-3-4).", chapter=CHAPTER),
]

# Slips no earlier claim recorded (issue 35).
CLAIMS += [
    Claim(id="ks-s2.1-power-name", paper="ks", where="§2.1, 'Hypothesis Testing', after equation (4)",
          statement="'1 − β is the power (maximum type-II error) of the test': the name of 1 − β",
          printed="the maximum type-II error", compute=E._name_of_one_minus_beta, expected="discrepancy",
          finding="typo",
          note="Slip (a quantity's name): β is the (maximum) type-II error and the power is 1 − β. For randomized "
               "response at ε = 1 the most powerful test at level α = 1/(1 + e) has power 0.731 and type-II error "
               "0.269.", chapter=CHAPTER),
    Claim(id="ks-lem3.3-3-4-strict", paper="ks",
          where="Appendix A, proofs of Lemma 3.3 Parts 3 and 4, the lines 'By symmetry'",
          statement="Pr[ (X, 𝒜′(X)) ∈ S ] < δ (+ δ₁) + e^ε Pr[ (X, 𝒜(X)) ∈ S ]: the relation the symmetric step gives",
          printed="<", compute=E._symmetric_step_relation, expected="discrepancy", finding="typo",
          note="Slip (an inequality): the steps give ≤, and equality occurs (𝒜 = 𝒜′, ε = δ = δ₁ = 0: both sides are "
               "equal for every S). The lemma is stated with ≤ and holds (ks-lem3.3-3-4).", chapter=CHAPTER),
    Claim(id="ks-appB-theorem-b", paper="ks", where="Appendix B, last paragraph",
          statement="'The counterexample of Theorem B': the theorem meant", printed="Theorem B",
          compute=lambda: "Theorem A.2", expected="discrepancy", finding="typo",
          note="Slip (a cross-reference): the paper has no Theorem B (its theorems are 2.2, 2.4, 4.2 and A.2); the "
               "counterexample is Theorem A.2's, in Appendix B (see ks-appB-numbering).", chapter=CHAPTER),
    Claim(id="ks-ref16-title", paper="ks", where="References, [16]",
          statement="The title of Machanavajjhala et al., ICDE 2008", printed="Privacy: From theory to practice on the map",
          compute=lambda: "Privacy: Theory meets Practice on the Map", expected="discrepancy", finding="typo",
          note="Slip (a reference's title): the ICDE 2008 paper is 'Privacy: Theory meets Practice on the Map', as "
               "Kazan et al. cite it (Definition 2.4).", chapter=CHAPTER),
]
