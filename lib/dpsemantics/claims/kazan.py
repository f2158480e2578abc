"""Claims of Kazan, Sharma, Zhang, Jiang & Yan, "Interpreting Differential Privacy in Terms of Disclosure
Risk" (paper 004): every number printed in §2.3–§4 and in the figure descriptions, recomputed with
:mod:`dpsemantics.disclosure`, :mod:`dpsemantics.conversions` and :mod:`dpsemantics.composition`.

Tolerances follow the printed precision: a percentage printed as "83%" gets ±0.005, a ratio printed as
"1.7" gets ±0.05, a count of queries or days must match exactly.  Relations the paper states in words
("much larger", "converges to") are recomputed as booleans.
"""

from __future__ import annotations
from .. import disclosure as D
from . import Claim, Verdict
from . import disclosure_evidence as E
from .certify import against_supremum, certified_by

CHAPTER = "book/disclosure-risk"
P = E.P  # a percentage printed without decimals
NEAREST = ("printed rounded to the nearest percent; as a bound it is on the unsafe side (the registry's "
          "unsafe-rounding rule: an upper bound printed below, or a lower bound above, the computed value)")

# Bounds printed on the unsafe side (the registry's rule): the bounds are attained (Theorem 3.9 is tight, and the
# prior-wise bounds are its images), so a value printed below an upper bound or above a lower one makes the
# printed statement false — by rounding.  Example 1.1 / §4.1 (six), Example 4.1 (two), Example 4.3 and §4.4 (eight)
# carry this note, expected="discrepancy" and finding="unsafe-rounding".
FALSE_BY_ROUNDING = ("False as printed, by rounding: the bound is attained, and the printed value lies on its unsafe "
                     "side (agreeing with it only to the printed precision).")


CLAIMS = [
    # ---------------------------------------------------------------- Example 1.1 and its §4.1 sequel
    Claim(id="kazan-ex1.1-4.1-probability-statements", paper="kazan", where="Example 1.1, §4.1",
          statement="(0.1, 10⁻⁷)-DP with δ′ = 0.01: with 99% probability the posterior (prior 50%) stays between 48% "
                    "and 52%, any prior grows by at most a factor 1.1 and moves by at most 2 points; with pure DP, "
                    "'guaranteed'", printed=True,
          compute=certified_by(E._ex11_randomized_response, [("randomized response", E._ex11_facts)], kind="certified-interval",
                        domain="randomized response at ε = 0.1 (0.1-DP, so (0.1, 10⁻⁷)-DP): a counterexample",
                        reduction="Counterexample, interval enclosures at every ε ∈ [0.0999, 0.1]:"),
          expected="discrepancy", finding="false-statement",
          note="False as printed, by rounding: randomized response at ε = 0.1 is (0.1, 0)-DP, and with probability "
                "0.525 (its output agreeing with the true answer) puts the posterior at 52.498%, the ratio at 1.105 "
                "for a small prior, the difference at 2.498 points. The statements with the unrounded bounds "
                "(47.50%–52.50%, e^{ε′} = 1.105, 2.5 points) hold (Corollaries 3.10–3.12).", chapter=CHAPTER),
    Claim(id="kazan-ex1.1-pure-low", paper="kazan", where="Example 1.1",
          statement="pure (0.1, 0)-DP, prior 50%: posterior at least 48%", printed=0.48,
          compute=lambda: D.posterior_bounds(0.5, 0.1)[0], atol=P, bound="lower",
          note="Computed 47.50%; " + NEAREST + ". " + FALSE_BY_ROUNDING, expected="discrepancy",
          finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-ex1.1-pure-high", paper="kazan", where="Example 1.1",
          statement="pure (0.1, 0)-DP, prior 50%: posterior at most 52%", printed=0.52,
          compute=lambda: D.posterior_bounds(0.5, 0.1)[1], atol=P, bound="upper",
          note="Computed 52.50%; " + NEAREST + ". " + FALSE_BY_ROUNDING, expected="discrepancy",
          finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-ex1.1-approx-low", paper="kazan", where="Example 1.1, §4.1",
          statement="(0.1, 1e-7)-DP, δ′=0.01: with 99% probability posterior ≥ 48%",
          printed=0.48, compute=lambda: E._b44_like(0.1, 1e-7, 0.01).posterior_low, atol=P, bound="lower",
          note="Computed 47.50%; " + NEAREST + ". " + FALSE_BY_ROUNDING, expected="discrepancy",
          finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-ex1.1-approx-high", paper="kazan", where="Example 1.1, §4.1",
          statement="(0.1, 1e-7)-DP, δ′=0.01: with 99% probability posterior ≤ 52%",
          printed=0.52, compute=lambda: E._b44_like(0.1, 1e-7, 0.01).posterior_high, atol=P, bound="upper",
          note="Computed 52.50%; " + NEAREST + ". " + FALSE_BY_ROUNDING, expected="discrepancy",
          finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-4.1-eps-prime", paper="kazan", where="§4.1", statement="δ′ = 0.01 ≫ δ = 1e-7 gives ε′ ≈ ε = 0.1",
          printed=0.1, compute=lambda: E._b44_like(0.1, 1e-7, 0.01).eps_prime, atol=0.0005, chapter=CHAPTER),
    Claim(id="kazan-4.1-ratio-up", paper="kazan", where="§4.1 (Corollary 3.11)",
          statement="with 99% probability the prior grows by at most a factor 1.1",
          printed=1.1, compute=lambda: E._b44_like(0.1, 1e-7, 0.01).ratio_high, atol=0.05, bound="upper",
          note="Computed e^{ε′} = 1.1052; printed to one decimal, on the unsafe side of the bound. " + FALSE_BY_ROUNDING, expected="discrepancy", finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-4.1-ratio-down", paper="kazan", where="§4.1 (Corollary 3.11)",
          statement="with 99% probability the prior shrinks by at most a factor 0.90",
          printed=0.90, compute=lambda: E._b44_like(0.1, 1e-7, 0.01).ratio_low, atol=P, bound="lower", chapter=CHAPTER),
    Claim(id="kazan-4.1-difference", paper="kazan", where="§4.1 (Corollary 3.12)",
          statement="with 99% probability the prior moves by at most 2 points",
          printed=0.02, compute=lambda: E._b44_like(0.1, 1e-7, 0.01).difference, atol=P, bound="upper",
          note="Computed 2.4999%; " + NEAREST + " (a safe statement is 2.5%). " + FALSE_BY_ROUNDING,
          expected="discrepancy", finding="unsafe-rounding", chapter=CHAPTER),
    # ---------------------------------------------------------------- §2: results the paper restates
    Claim(id="kazan-thm2.3-pure-pdp", paper="kazan", where="Theorem 2.3",
          statement="(ε, 0)-DP ⇔ P[−ε ≤ Z ≤ ε] = 1: the smallest pure-DP ε of a pair "
                    "(bisection on the hockey-stick divergence) equals max |Z|, in both directions", printed=True,
          compute=certified_by(E._identity_claim(E._thm23, ("random-search", "extremal")),
                        [("(⇒) linear program", E.pure_dp_proof),
                         ("(⇐) Theorem 2.5's linear program at δ = 0", E._LP25[1])],
                        kind="certified-lp", domain=f"{E._ALL}; every ε ≥ 0",
                        reduction="Both directions for every mechanism: (ε, 0)-DP gives P[Z > ε + η] = 0 for every "
                                  "η > 0 (the union over η is {Z > ε}), and P[|Z| ≤ ε] = 1 is (ε, 0)-PDP, hence "
                                  "(ε, 0)-DP."), chapter=CHAPTER),
    Claim(id="kazan-thm2.5-pdp-dp", paper="kazan", where="Theorem 2.5",
          statement="(ε, δ)-PDP ⇒ (ε, δ)-DP: the hockey stick at ε of every (ε, δ)-PDP "
                    "pair is at most δ (exact LPs over all pairs on 3 and 4 outputs)", printed=True,
          compute=certified_by(E._thm25, [E._LP25], kind="certified-lp", domain=f"{E._ALL}; every ε ≥ 0, δ ∈ [0, 1]",
                        reduction="Linear program over P(S∩B), Q(S∩B), P(S∖B), Q(S∖B) for every event S and B = "
                                  "{Z > ε}, dual (1, 1) bounds P(S) − e^ε Q(S) by δ."), chapter=CHAPTER),
    Claim(id="kazan-thm2.7-zcdp-dp", paper="kazan", where="Theorem 2.7",
          statement="ρ-zCDP ⇒ (ρ + 2√(ρ log(1/δ)), δ)-DP: the exact Gaussian profile "
                    "(conversions.zcdp_gaussian_delta), random finite pairs and optimised two-output pairs at their "
                    "Rényi ρ stay below δ", printed=True, compute=E._thm27_claim,
          note="Holds on every case and is tight: its supremum over ρ-zCDP pairs is δ itself. P = (1 − cδ, cδ) against "
               "Q = (1 − b, b) with b → 0 has ρ ≈ (√log(1/b) − √log(1/(cδ)))² and a hockey stick tending to cδ; at "
               "c = 0.995, b = e^(−10⁸) it reaches 0.995 of δ at every δ tried, from 10⁻⁶ to ½ (recomputed without the "
               "package in tests/claims/test_audit_kazan.py). The Gaussian reaches only a fraction of δ.", chapter=CHAPTER),
    Claim(id="kazan-thm2.8-composition", paper="kazan", where="Theorem 2.8",
          statement="k mechanisms, the j-th (εⱼ, δⱼ)-DP, compose to (1) (Σⱼ εⱼ, Σⱼ δⱼ), (2) the advanced (ε, kδ₀ + "
                    "δ′), (3) the optimal ε at δ, which is the least: exact k-fold "
                    "leaky randomized response, k ≤ 6", printed=True,
          compute=against_supremum(E._identity_claim(E._thm28, ("extremal", "exhaustive")), 1.0,
                            "randomized response attains the optimal composition (Kairouz et al.), and the least-ε "
                            "cases compare δ with itself"),
          note="The product pair is built outcome by outcome; randomized response is the worst case for the optimal "
                "composition, so the optimal ε is attained (margin 1), while basic and advanced "
                "composition are loose.", chapter=CHAPTER),
    Claim(id="kazan-thm3.1-posterior", paper="kazan", where="Theorem 3.1, eq. (2)",
          statement="the adversary's posterior is p/(p + (1 − p)e^{−Z}) (target present) or p/(p + (1 − p)e^{Z′}) (absent): "
                    "Bayes' rule on random finite pairs, both directions", printed=True,
          compute=against_supremum(E._identity_claim(E._thm31, ("random-search",)), 1.0, "an identity: both sides are equal"), chapter=CHAPTER),
    Claim(id="kazan-thm2.9-zcdp-compose", paper="kazan", where="Theorem 2.9",
          statement="ρ₁-zCDP and ρ₂-zCDP compose to (ρ₁ + ρ₂)-zCDP: the Rényi ρ of "
                    "the product pair (computed from the product distribution) is at most the sum", printed=True,
          compute=against_supremum(E._identity_claim(E._thm29, ("random-search", "extremal")), 1.0,
                            "equality for two copies of randomized response, whose Rényi divergences "
                            "peak at the same α"), chapter=CHAPTER),
    Claim(id="kazan-thmA.2-characterisation", paper="kazan", where="Appendix A.8, Theorem A.2",
          statement="the DP δ at ε (max over every event S) equals P[Z > ε] − e^ε P[−Z′ > ε] = E[max{0, 1 − e^{ε−Z}}] "
                    "= ∫_{ε}^{∞} e^{ε−z} P[Z > z] dz, both orders of the pair",
          printed=True, compute=against_supremum(E._identity_claim(E._thm_a2, ("exhaustive", "random-search")), 1.0,
                                  "an identity: all four expressions are equal"), chapter=CHAPTER),
    # ---------------------------------------------------------------- §3: Theorems 3.2, 3.3, Lemma 3.4, Theorem 3.5
    Claim(id="kazan-thm3.2-forward", paper="kazan", where="Theorem 3.2 (⇒)",
          statement="(ε, δ)-PDP ⇒ for every prior and both hypotheses P[posterior leaves eq. (3)] ≤ δ", printed=True,
          compute=certified_by(E._forward_claim("posterior"), [E._MONO], kind="certified-interval", reduction=E._FWD,
                        domain=f"{E._ALL}; every prior p ∈ [0, 1], every ε ≥ 0"), chapter=CHAPTER),
    Claim(id="kazan-thm3.2-reverse", paper="kazan", where="Theorem 3.2 (⇐)",
          statement="eq. (3) with probability 1 − δ for every prior ⇒ (ε, δ)-PDP", printed=True,
          compute=certified_by(E._reverse_claim("posterior"), [E._MONO], kind="certified-interval", domain=f"{E._ALL}; every ε ≥ 0",
                        reduction="At the prior 1/2 the posterior leaves eq. (3) exactly where |Z| > ε (strictly "
                                  "monotone: the factored difference quotient is > 0 for 0 < p < 1), so the hypothesis "
                                  "at that one prior is P[|Z| > ε] ≤ δ under both hypotheses, i.e. (ε, δ)-PDP."),
                                  chapter=CHAPTER),
    Claim(id="kazan-thm3.3-forward", paper="kazan", where="Theorem 3.3 (⇒)",
          statement="(ε, δ)-PDP ⇒ P[R ∉ [e^{−ε}, e^{ε}]] ≤ δ for every prior in (0, 1]", printed=True,
          compute=certified_by(E._forward_claim("ratio"), [E._MONO, E._lemma("ratio")], kind="certified-interval",
                              reduction=E._FWD, domain=f"{E._ALL}; every prior p ∈ (0, 1], ε ∈ [0, 100]"),
          note="The ratio event is larger than the posterior event for every fixed prior > 0; the bound is "
                "approached only as the prior tends to 0.", chapter=CHAPTER),
    Claim(id="kazan-thm3.3-reverse", paper="kazan", where="Theorem 3.3 (⇐)",
          statement="the ratio bound for every prior in (0, 1] ⇒ (ε, δ)-PDP (priors down to 1e-15, and per pair one "
                    "prior below its outputs' critical priors, decided exactly)", printed=True,
          compute=certified_by(E._reverse_claim("ratio"), [E._MONO, ("the ratio's events as p → 0", E.ratio_threshold_proof)],
                        kind="certified-interval", domain=f"{E._ALL}; priors p → 0, ε ∈ [0, 100]",
                        reduction="At prior p the ratio exceeds e^ε exactly where Z > t(p), and t(p) decreases to ε as "
                                  "p → 0 (below e^{−ε}: where Z < −t′(p), t′(p) → ε), so P[|Z| > ε] is the limit of "
                                  "the probabilities that the ratio leaves its bound, each ≤ δ "
                                  "(continuity of measure)."),
          note="Needs priors arbitrarily close to 0 (the proof's limit p → 0): with priors bounded away from 0 the "
                "converse fails (see the chapter).  The LP's pair at ε = 0.5 is such a case: one output's loss exceeds "
                "ε by 5.6e-17 (its masses are floats), so its PDP δ is 0.00254 > δ = 0.001, yet the ratio leaves its "
                "bound there only at priors below 1.43e-16; on the grid (≥ 1e-15) the pair meets the condition.",
                chapter=CHAPTER),
    Claim(id="kazan-lem3.4-worst-priors", paper="kazan", where="Lemma 3.4",
          statement="the upper end of eq. (6) is largest at 1/(1 + e^{ε/2}), the "
                    "lower end smallest at 1/(1 + e^{−ε/2}) (bounded local searches from seven brackets)", printed=True,
          compute=certified_by(E._identity_claim(E._lem34, "optimised-search"),
                        [E._lemma("difference"), ("zero at the two priors", E.worst_prior_proof)],
                        kind="certified-interval", domain="every prior p ∈ [0, 1], ε ∈ [0, 100]",
                        reduction="tanh(ε/4) − D(p) is (1 − b)(b − p(1 + b))² over a positive factor "
                                  "(b = e^{−ε/2}; the lower end likewise), an identity checked exactly, zero at the "
                                  "printed priors only."), chapter=CHAPTER),
    Claim(id="kazan-thm3.5-1", paper="kazan", where="Theorem 3.5(1)",
          statement="(ε, δ)-PDP ⇒ P[|D| > tanh(ε/4)] ≤ δ for every prior", printed=True,
          compute=certified_by(E._forward_claim("difference"), [E._MONO, E._lemma("difference")], kind="certified-interval",
                        reduction=E._FWD, domain=f"{E._ALL}; every prior p ∈ [0, 1], ε ∈ [0, 100]"), chapter=CHAPTER),
    Claim(id="kazan-thm3.5-2-two-delta", paper="kazan", where="Theorem 3.5(2)",
          statement="the difference bound with 1 − δ for every prior ⇒ (ε, 2δ)-PDP",
          printed=True, compute=certified_by(E._reverse_claim("difference", factor=2.0),
                              [E._MONO, E._lemma("difference"), ("zero at the two priors", E.worst_prior_proof)],
                        kind="certified-interval", domain=f"{E._ALL}; every ε ∈ [0, 100]",
                        reduction="At p = 1/(1 + e^{ε/2}) the difference exceeds tanh(ε/4) exactly where Z > ε "
                                  "(attained at Z = ε, Lemma 3.4, and strictly increasing in Z), at p = "
                                  "1/(1 + e^{−ε/2}) it falls below −tanh(ε/4) exactly where Z < −ε; the hypothesis at "
                                  "these two priors gives P[Z > ε] ≤ δ and P[Z < −ε] ≤ δ, so P[|Z| > ε] ≤ 2δ "
                                  "under both hypotheses."),
          note="Holds, but 2δ is not attained: the LP's worst case is (1 + e^{−ε})δ, which is also an upper bound "
                "(every loss above ε leaves at the prior 1/(1 + e^{ε/2}), every loss below −ε at 1/(1 + e^{−ε/2}), "
                "and the other side's mass is at most e^{−ε} times as large).", chapter=CHAPTER),
    Claim(id="kazan-thm3.5-2-eps-tilde", paper="kazan", where="Theorem 3.5(2)",
          statement="the difference bound with 1 − δ for every prior ⇒ (ε̃, δ)-PDP, ε < 2 log 3", printed=True,
          compute=certified_by(E._reverse_claim("difference", eps_of="tilde"), [("the prior 1/2 at ε̃", E.eps_tilde_proof)],
                        kind="certified-interval", domain=f"{E._ALL}; every ε ∈ [0, 2 log 3)",
                        reduction="At the prior 1/2 the difference leaves ±tanh(ε/4) exactly where |Z| > ε̃, so the "
                                  "hypothesis at that prior is P[|Z| > ε̃] ≤ δ under both hypotheses: (ε̃, δ)-PDP."),
                                  chapter=CHAPTER),
    Claim(id="kazan-a6-counterexample", paper="kazan", where="Appendix A.6, Example A.1",
          statement="the difference bound holds w.p. ≥ 1 − δ for every prior, yet the mechanism is not (ε, δ)-PDP "
                    "(checked on the example's real domain: ε < 2 log 3, δ(1 + e^{−ε̃}) ≤ 1)",
          printed=True, compute=E._a6, chapter=CHAPTER),
    Claim(id="kazan-exA.1-domain", paper="kazan", where="Appendix A.6, Example A.1",
          statement="'Let ε, δ > 0': ε̃ = log(3e^{ε/2} − 1) − log(3 − e^{ε/2}) is defined for every ε > 0",
          printed=True,
          compute=certified_by(E._exa1_domain, [("ε̃'s second logarithm", E._exa1_facts)], kind="certified-interval",
                        domain="ε ∈ [2.2, 50]: the printed 'every ε > 0' fails on all of it",
                        reduction="Counterexample: 3 − e^{ε/2} < 0, so log(3 − e^{ε/2}) is undefined:"),
          expected="discrepancy", finding="false-statement",
          note="False as printed: ε̃ exists only for ε < 2 log 3 ≈ 2.197 (3 − e^{ε/2} > 0), and the mechanism needs "
                "δ(1 + e^{−ε̃}) ≤ 1. The counterexample is valid on that domain (kazan-a6-counterexample), which "
                "suffices for the appendix's point; the printed quantifier is too wide.", chapter=CHAPTER),
    # ---------------------------------------------------------------- Theorem 3.9 and Figure 1
    Claim(id="kazan-thm3.9-holds", paper="kazan", where="Theorem 3.9",
          statement="(ε, δ)-DP ⇒ (ε′, δ′)-PDP: P[|Z| > ε′] ≤ δ′ (LP over (ε, δ)-DP pairs, "
                    "random pairs at their own δ)", printed=True,
          compute=certified_by(E._dp_metric_claim("posterior"), [E._LP39], kind="certified-lp", reduction=E._LP39_TEXT,
                        domain=f"{E._ALL}; every (ε, δ)-DP mechanism, ε ≥ 0, δ ∈ (0, 1), δ′ ∈ (δ, 1]"), chapter=CHAPTER),
    Claim(id="kazan-thm3.9-tight", paper="kazan", where="Theorem 3.9",
          statement="tight: a four-output (ε, δ)-DP mechanism has P[|Z| > ε′ + η] → δ′ as η → 0",
          printed=True, compute=against_supremum(E._identity_claim(E._thm39_tight, "extremal"), 1.0,
                                  "the four-output pair is (ε, δ)-DP exactly and reaches δ′ as η → 0"),
          note="The statement itself holds; its margin is how close the four-output pair comes to δ′ (1 − O(η)).",
          chapter=CHAPTER),
    Claim(id="kazan-thm3.9-exceeds-eps", paper="kazan", where="Appendix A.8",
          statement="ε′ > ε for every δ′ ∈ (δ, 1] (δ > 0)", printed=True, compute=E._exceeds_eps, chapter=CHAPTER),
    Claim(id="kazan-thm3.9-zhao", paper="kazan", where="Appendix A.8",
          statement="Theorem 3.9 agrees with Zhao et al.'s δ′ = δ(1 + e^{−ε′})/(1 − e^{ε−ε′})", printed=True,
          compute=certified_by(E._zhao, [("the identity", E.zhao_identity_proof)], kind="certified-interval",
                              domain="every ε ≥ 0, δ ∈ (0, 1), δ′ ∈ (δ, 1]",
                              reduction="An exact rational identity in (e^{−ε}, δ, δ′):"), chapter=CHAPTER),
    Claim(id="kazan-fig1-large", paper="kazan", where="Figure 1 description",
          statement="(1, 1e-6)-DP: for δ′ between 1e-6 and 1e-5, ε′ is much larger than 1",
          printed=True, compute=E._fig1_large,
          note="'Much larger' read as > 1.1; at δ′ = 1e-5, ε′ = 1.14, and ε′ → ∞ as δ′ → 1e-6.", chapter=CHAPTER),
    Claim(id="kazan-fig1-converges", paper="kazan", where="Figure 1 description, §3.4",
          statement="(1, 1e-6)-DP: ε′ ≈ ε = 1 once δ′ ≫ δ (e.g. 0.01, 0.05)", printed=True,
          compute=certified_by(E._closed(lambda d: abs(E._fig1_eps_prime(d) - 1), lambda d: 1e-3, [0.01, 0.05]),
                              [("|ε′ − 1| ≤ 10⁻³", E._interval_facts(E._fig1_converges_checks(), [(0.01, 1.0)]))],
                              kind="certified-interval", domain="every δ′ ∈ [0.01, 1] (ε = 1, δ = 10⁻⁶)",
                              reduction="Interval branch-and-bound on Theorem 3.9's ε′ over the whole range:"),
          note="'≈' read as within 1e-3.", chapter=CHAPTER),
    # ---------------------------------------------------------------- Corollaries 3.10–3.12
    Claim(id="kazan-cor3.10-1", paper="kazan", where="Corollary 3.10(1)",
          statement="eq. (13) with 1 − δ for every prior ⇒ (ε, δ)-DP", printed=True,
          compute=certified_by(E._metric_dp_claim("posterior"), [E._MONO, E._LP25], kind="certified-lp",
                        domain=f"{E._ALL}; every ε ≥ 0",
                        reduction="At the prior 1/2 the posterior leaves eq. (13) exactly where |Z| > ε, so the "
                                  "hypothesis is (ε, δ)-PDP, and (ε, δ)-DP follows by Theorem 2.5's linear program."),
                                  chapter=CHAPTER),
    Claim(id="kazan-cor3.10-2", paper="kazan", where="Corollary 3.10(2)",
          statement="(ε, δ)-DP ⇒ eq. (14) at ε′ with probability 1 − δ′", printed=True,
          compute=certified_by(E._dp_metric_claim("posterior"), [E._LP39, E._MONO], kind="certified-lp",
                        reduction=E._LP39_TEXT + " " + E._FWD,
                        domain=f"{E._ALL}; every (ε, δ)-DP mechanism, ε ≥ 0, δ ∈ (0, 1), δ′ ∈ (δ, 1], every prior"),
                        chapter=CHAPTER),
    Claim(id="kazan-cor3.11-1", paper="kazan", where="Corollary 3.11(1)",
          statement="the ratio bound for every prior in (0, 1] ⇒ (ε, δ)-DP (priors down to 1e-15)", printed=True,
          compute=certified_by(E._metric_dp_claim("ratio"), [E._MONO, ("the ratio's events as p → 0", E.ratio_threshold_proof),
                                                    E._LP25],
                        kind="certified-lp", domain=f"{E._ALL}; priors p → 0, ε ∈ [0, 100]",
                        reduction="As for Theorem 3.3 (⇐) the hypothesis gives (ε, δ)-PDP in the limit p → 0, and "
                                  "(ε, δ)-DP follows by Theorem 2.5's linear program."), chapter=CHAPTER),
    Claim(id="kazan-cor3.11-2", paper="kazan", where="Corollary 3.11(2)",
          statement="(ε, δ)-DP ⇒ P[R ∉ [e^{−ε′}, e^{ε′}]] ≤ δ′", printed=True,
          compute=certified_by(E._dp_metric_claim("ratio"), [E._LP39, E._MONO, E._lemma("ratio")], kind="certified-lp",
                        reduction=E._LP39_TEXT + " " + E._FWD,
                        domain=f"{E._ALL}; every (ε, δ)-DP mechanism, δ ∈ (0, 1), δ′ ∈ (δ, 1], ε′ ≤ 100, every prior"),
                        chapter=CHAPTER),
    Claim(id="kazan-cor3.12-1-two-delta", paper="kazan", where="Corollary 3.12(1)",
          statement="the difference bound with 1 − δ ⇒ (ε, 2δ)-DP", printed=True,
          compute=certified_by(E._metric_dp_claim("difference", factor=2.0),
                        [E._MONO, E._lemma("difference"), ("zero at the two priors", E.worst_prior_proof), E._LP25],
                        kind="certified-lp", domain=f"{E._ALL}; every ε ∈ [0, 100]",
                        reduction="As for Theorem 3.5(2) the hypothesis at the two worst priors gives (ε, 2δ)-PDP, and "
                                  "(ε, 2δ)-DP follows by Theorem 2.5's linear program."),
          note="Holds with margin 1/2: the condition already gives (ε, δ)-DP (the hockey stick at ε is at most "
                "P[Z > ε], and every loss above ε leaves at the prior 1/(1 + e^{ε/2})); the 2δ comes from going "
                "through Theorem 3.5(2).", chapter=CHAPTER),
    Claim(id="kazan-cor3.12-1-eps-tilde", paper="kazan", where="Corollary 3.12(1)",
          statement="the difference bound with 1 − δ ⇒ (ε̃, δ)-DP", printed=True,
          compute=certified_by(E._metric_dp_claim("difference", eps_of="tilde"),
                        [("the prior 1/2 at ε̃", E.eps_tilde_proof), E._LP25],
                        kind="certified-lp", domain=f"{E._ALL}; every ε ∈ [0, 2 log 3)",
                        reduction="As for Theorem 3.5(2) with ε̃ the hypothesis gives (ε̃, δ)-PDP, and (ε̃, δ)-DP follows "
                                  "by Theorem 2.5's linear program."), chapter=CHAPTER),
    Claim(id="kazan-cor3.12-2", paper="kazan", where="Corollary 3.12(2)",
          statement="(ε, δ)-DP ⇒ P[|D| > tanh(ε′/4)] ≤ δ′", printed=True,
          compute=certified_by(E._dp_metric_claim("difference"), [E._LP39, E._MONO, E._lemma("difference")], kind="certified-lp",
                        reduction=E._LP39_TEXT + " " + E._FWD,
                        domain=f"{E._ALL}; every (ε, δ)-DP mechanism, δ ∈ (0, 1), δ′ ∈ (δ, 1], ε′ ≤ 100, every prior"),
                        chapter=CHAPTER),
    # ---------------------------------------------------------------- Figures 2 and 3
    Claim(id="kazan-fig2-basic-linear", paper="kazan", where="Figure 2 description",
          statement="basic composition grows linearly in k", printed=True,
          compute=lambda tighten=1.0: Verdict.unchecked("the curve is drawn from Theorem 2.8(1)'s formula kε₀, so comparing "
                                                 "it with kε₀ is an identity", tried=len(E._KS_DESC)),
          expected="not-checked",
          note="Not checked: the basic curve is kε₀ by definition. That kε₀ is what k pure mechanisms compose to "
                "(the theorem behind the curve) is kazan-thm2.8-composition.", chapter=CHAPTER),
    Claim(id="kazan-fig2-sublinear", paper="kazan", where="Figure 2 description",
          statement="advanced and optimal grow sub-linearly: ε(k)/k falls with k (advanced strictly; optimal from k = "
                    "10 to 50 to 150, with small wiggles from its lattice structure)",
          printed=True, compute=E._sublinear, chapter=CHAPTER),
    Claim(id="kazan-fig3-basic-80", paper="kazan", where="§4.2, Figure 3",
          statement="80% posterior bound exceeded after 28 queries (basic)", printed=28,
          compute=lambda: E._fig3_threshold("basic"), chapter=CHAPTER),
    Claim(id="kazan-fig3-advanced-80", paper="kazan", where="§4.2, Figure 3",
          statement="80% posterior bound exceeded after 51 queries (advanced)", printed=51,
          compute=lambda: E._fig3_threshold("advanced"), expected="discrepancy", finding="unresolved",
          note="Recomputed: 26. Advanced composition at δ = 1e-6 gives ε(26) = 1.41 > log 4 = 1.386 (the ε′ at "
                "which a prior of 1/2 reaches 80%). The printed 51 is exactly where the advanced ε first exceeds 2 "
                "= log2(4), as if the posterior had been computed with 2^{-ε} instead of e^{-ε}; basic (28) uses e. "
                "That reading does not give the optimal curve's 96 (kazan-fig3-joint-reading), so it stays a "
                "coincidence, not an explanation.", chapter=CHAPTER),
    Claim(id="kazan-fig3-optimal-80", paper="kazan", where="§4.2, Figure 3",
          statement="80% posterior bound exceeded after 96 queries (optimal)", printed=96,
          compute=lambda: E._fig3_threshold("optimal"), expected="discrepancy", finding="unresolved",
          note="Recomputed: 45 with the exact optimal composition (42 with lattice points only). At δ = 1e-6 no "
                "reading monotone in ε gives both printed numbers: 51 needs a threshold on the total ε below "
                "ε_adv(51) = 2.0077, 96 needs one above ε_opt(95) = 2.1448 (kazan-fig3-joint-reading). 96 appears "
                "only for the lattice version at δ = 1e-3 with log 4, where advanced composition gives 45, not 51. "
                "Cause unresolved.", chapter=CHAPTER),
    Claim(id="kazan-fig3-joint-reading", paper="kazan", where="§4.2, Figure 3",
          statement="51 (advanced) and 96 (optimal) come from one reading: the latest optimal crossing that any "
                    "threshold on ε reproducing the advanced 51 allows (δ = 1e-6; exact and "
                    "lattice optimal composition)", printed=96, compute=E._fig3_joint, expected="discrepancy",
          finding="unresolved",
          note="Any reading of 'posterior above 80%' that is monotone in ε (any prior, δ′, base of the logarithm) "
                "is a threshold T on the total ε, the same for both curves at the same δ. The advanced crossing 51 "
                "needs ε_adv(50) ≤ T < ε_adv(51) = 2.0077; the optimal curve then crosses T no later than the "
                "computed k, while 96 needs T ≥ ε_opt(95) = 2.1448 (lattice: 2.15). The two printed numbers "
                "cannot come from one such reading.", chapter=CHAPTER),
    Claim(id="kazan-fig3-basic-tapers", paper="kazan", where="Figure 3 description",
          statement="the basic-composition bound tapers off to one", printed=True,
          compute=certified_by(E._closed(lambda k: 1 - float(E._post_curve("basic")[k - 1]), lambda k: 1e-3, [150]),
                        [("1 − bound ≤ 10⁻³", E._interval_facts(E._fig3_tapers_checks(), [(150.0, 1e6)]))],
                        kind="certified-interval", domain="every k ∈ [150, 10⁶] (ε₀ = 0.05, basic composition, δ = 0)",
                        reduction="The bound 1/(1 + e^{−0.05k}) by interval branch-and-bound:"),
          note="'Tapers off to one' read as within 1e-3 of one at k = 150.", chapter=CHAPTER),
    Claim(id="kazan-fig3-optimal-slower", paper="kazan", where="Figure 3 description",
          statement="the optimal-composition bound rises more slowly than the basic one (never above it by more than "
                    "1e-4, which is δ's effect in Theorem 3.9, and 5 points below it at k = 50)",
          printed=True, compute=E._slower, chapter=CHAPTER),
    # ---------------------------------------------------------------- Example 4.1, Figures 4 and 5
    Claim(id="kazan-ex4.1-post-week", paper="kazan", where="Example 4.1, Figure 4",
          statement="posterior bound 83% after one week", printed=0.83,
          compute=lambda: E._post_41(7), atol=P, bound="upper",
          note="The paper does not state the δ of the zCDP→(ε, δ) conversion; we take the δ minimising ε′.",
          chapter=CHAPTER),
    Claim(id="kazan-ex4.1-post-month", paper="kazan", where="Example 4.1, Figure 4",
          statement="posterior bound 96% after one month (30 days)", printed=0.96,
          compute=lambda: E._post_41(30), atol=P, bound="upper", note=FALSE_BY_ROUNDING, expected="discrepancy",
          finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-ex4.1-post-99", paper="kazan", where="Example 4.1, Figure 4",
          statement="posterior bound exceeds 99% after 58 days", printed=58,
          compute=lambda: D.first_exceeding(D.posterior_bounds(0.5, E._zcdp_eps_prime(210))[1], 0.99), chapter=CHAPTER),
    Claim(id="kazan-ex4.1-diff-week", paper="kazan", where="Example 4.1, Figure 5",
          statement="difference bound 38% after one week", printed=0.38,
          compute=lambda: E._diff_41(7), atol=P, bound="upper", chapter=CHAPTER),
    Claim(id="kazan-ex4.1-diff-month", paper="kazan", where="Example 4.1, Figure 5",
          statement="difference bound 67% after one month", printed=0.67,
          compute=lambda: E._diff_41(30), atol=P, bound="upper", note=FALSE_BY_ROUNDING, expected="discrepancy",
          finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-ex4.1-diff-98", paper="kazan", where="Example 4.1, Figure 5",
          statement="difference bound exceeds 98% after 202 days", printed=202,
          compute=lambda: D.first_exceeding(D.difference_bound(E._zcdp_eps_prime(210)), 0.98), chapter=CHAPTER),
    Claim(id="kazan-ex4.1-worst-week-from", paper="kazan", where="Example 4.1",
          statement="worst case after a week: from 31% ...", printed=0.31,
          compute=lambda: E._worst_41(7, 0), atol=P, chapter=CHAPTER),
    Claim(id="kazan-ex4.1-worst-week-to", paper="kazan", where="Example 4.1", statement="... to 69%", printed=0.69,
          compute=lambda: E._worst_41(7, 1), atol=P, chapter=CHAPTER),
    Claim(id="kazan-ex4.1-worst-month-from", paper="kazan", where="Example 4.1",
          statement="worst case after a month: from 19% ...", printed=0.19,
          compute=lambda: E._worst_41(30, 0), atol=P, expected="discrepancy", finding="typo",
          note="Recomputed 16% → 84%. The printed 19% → 81% is a change of 62 points, inconsistent with the "
                "paper's own 67% difference bound for the same day; 16% → 84% is consistent with it.", chapter=CHAPTER),
    Claim(id="kazan-ex4.1-worst-month-to", paper="kazan", where="Example 4.1", statement="... to 81%", printed=0.81,
          compute=lambda: E._worst_41(30, 1), atol=P,
          expected="discrepancy", finding="typo", note="Recomputed 84%; see kazan-ex4.1-worst-month-from.",
          chapter=CHAPTER),
    Claim(id="kazan-ex4.1-worst-202-from", paper="kazan", where="Example 4.1",
          statement="worst case after 202 days: from 1% ...", printed=0.01,
          compute=lambda: E._worst_41(202, 0), atol=P, chapter=CHAPTER),
    Claim(id="kazan-ex4.1-worst-202-to", paper="kazan", where="Example 4.1", statement="... to 99%", printed=0.99,
          compute=lambda: E._worst_41(202, 1), atol=P, chapter=CHAPTER),
    Claim(id="kazan-fig4-rises", paper="kazan", where="Figure 4 description",
          statement="the posterior bound rises quickly from 0.5 (above 0.9 by day 20) and nears one after day 50",
          printed=True,
          compute=certified_by(E._closed(lambda c: c[1], lambda c: E._post_41(c[0]), [(20, 0.9), (50, 0.98)]),
                              [("every δ of the conversion", E._interval_facts(E._fig4_checks(), [(0.0, 1.0)]))],
                              kind="certified-interval", domain="days 20 and 50 (ρ = 0.01 per day, δ′ = 0.01), every "
                                   "δ ∈ (0, δ′) of the zCDP conversion",
                              reduction="The bound is the least posterior over the conversion's δ; interval "
                                        "branch-and-bound over δ = uδ′, u ∈ (0, 1):"),
          note="'Rises quickly' read as above 0.9 by day 20, 'nears one' as above 0.98 at day 50.", chapter=CHAPTER),
    Claim(id="kazan-fig5-rises", paper="kazan", where="Figure 5 description",
          statement="the difference bound rises with every day and nears one after day 150",
          printed=True, compute=E._closed(lambda d: 0.95 if d == 0 else E._diff_41(d),
                         lambda d: E._diff_41(150) if d == 0 else E._diff_41(d + 1),
                         list(range(0, 210))),
          note="Day d's bound against day d + 1's for every day, and 0.95 against the bound at day 150.",
          chapter=CHAPTER),
    # ---------------------------------------------------------------- Example 4.2
    Claim(id="kazan-ex4.2-eps-prime", paper="kazan", where="Example 4.2, footnote 6",
          statement="tanh(ε′/4) = 0.2 gives ε′ = 0.81", printed=0.81,
          compute=lambda: E._ex42()[0], atol=P, chapter=CHAPTER),
    Claim(id="kazan-ex4.2-eps-total", paper="kazan", where="Example 4.2, footnote 6",
          statement="solving Theorem 3.9 for ε gives ε_total = 0.81", printed=0.81,
          compute=lambda: E._ex42()[1], atol=P, chapter=CHAPTER),
    Claim(id="kazan-ex4.2-per-release", paper="kazan", where="Example 4.2",
          statement="optimal composition allows ε ≈ 0.135 per release", printed=0.135,
          compute=lambda: E._ex42()[2], atol=0.0005, expected="discrepancy", finding="different-reading",
          note="Recomputed 0.0678: with total δ = 1e-6 and 12 releases the optimal composition is barely better "
                "than basic. The printed 0.135 is exactly the optimal composition restricted to its lattice points "
                "at total δ = 0.01, the example's δ′ (the paper uses δ′ both for the PDP failure probability and "
                "for Theorem 2.8(3)'s per-release δ): kazan-ex4.2-per-release-delta-prime.", chapter=CHAPTER),
    Claim(id="kazan-ex4.2-per-release-delta-prime", paper="kazan", where="Example 4.2",
          statement="optimal composition allows ε ≈ 0.135 per release, "
                    "read with total δ = δ′ = 0.01 and the lattice points of Theorem 2.8(3)", printed=0.135,
          compute=lambda: D.per_release_epsilon(E._ex42()[1], E.EX42["k"], E.EX42["delta_prime"], E.EX42["delta0"], method="lattice"),
          atol=0.0005, finding="different-reading",
          note="Reproduces 0.1351 (the exact optimal composition at the same δ gives 0.1365, outside the printed "
                "precision). With this reading the twelve releases are (0.81, 0.01)-DP, and Theorem 3.9 at "
                "δ = δ′ = 0.01 gives no PDP guarantee at all, so the reading is a slip, not an alternative design.",
                chapter=CHAPTER),
    Claim(id="kazan-ex4.2-basic", paper="kazan", where="Example 4.2",
          statement="pure DP and basic composition allow ε ≈ 0.068 per release", printed=0.068,
          compute=lambda: E._ex42()[3], atol=0.0005, chapter=CHAPTER),
    Claim(id="kazan-ex4.2-factor-two", paper="kazan", where="Example 4.2",
          statement="the generalisation doubles the per-release ε", printed=2.0,
          compute=lambda: E._ex42()[2] / E._ex42()[3], atol=0.05, expected="discrepancy", finding="different-reading",
          note="Recomputed factor 1.003; follows from kazan-ex4.2-per-release "
                "(with the δ′ reading the factor is 2.0).", chapter=CHAPTER),
    # ---------------------------------------------------------------- Example 4.3 and §4.4
    Claim(id="kazan-ex4.3-half-post", paper="kazan", where="Example 4.3",
          statement="prior 50%: posterior at most 86% (95%)", printed=0.86,
          compute=lambda: E._b43(0.5).posterior_high, atol=P, bound="upper", chapter=CHAPTER),
    Claim(id="kazan-ex4.3-half-diff", paper="kazan", where="Example 4.3", statement="prior 50%: difference 36%",
          printed=0.36, compute=lambda: E._b43(0.5).posterior_high - 0.5, atol=P, bound="upper", chapter=CHAPTER),
    Claim(id="kazan-ex4.3-half-ratio", paper="kazan", where="Example 4.3", statement="prior 50%: ratio 1.7",
          printed=1.7,
          compute=lambda: E._b43(0.5).posterior_high / 0.5, atol=0.05, bound="upper", note=FALSE_BY_ROUNDING,
          expected="discrepancy", finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-ex4.3-tenth-post", paper="kazan", where="Example 4.3", statement="prior 10%: posterior at most 40%",
          printed=0.40, compute=lambda: E._b43(0.1).posterior_high, atol=P, bound="upper", note=FALSE_BY_ROUNDING,
          expected="discrepancy", finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-ex4.3-tenth-diff", paper="kazan", where="Example 4.3", statement="prior 10%: difference 30%",
          printed=0.30, compute=lambda: E._b43(0.1).posterior_high - 0.1, atol=P, bound="upper", note=FALSE_BY_ROUNDING,
          expected="discrepancy", finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-ex4.3-tenth-ratio", paper="kazan", where="Example 4.3", statement="prior 10%: ratio 4.0",
          printed=4.0,
          compute=lambda: E._b43(0.1).posterior_high / 0.1, atol=0.05, bound="upper", note=FALSE_BY_ROUNDING,
          expected="discrepancy", finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-4.4-ratio-at-most-6", paper="kazan", where="§4.4",
          statement="a prior near zero reaches a ratio of at most 6 (e^{ε′})", printed=6,
          compute=lambda: E._b43(0.5).ratio_high, atol=0.5, bound="upper", note=FALSE_BY_ROUNDING,
          expected="discrepancy", finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-4.4-worst-prior-43", paper="kazan", where="§4.4, Example 4.3",
          statement="worst-case prior 1/(1 + e^{ε′/2}) ≈ 29%", printed=0.29,
          compute=lambda: E._b43(0.5).worst_prior_up, atol=P, chapter=CHAPTER),
    Claim(id="kazan-4.4-worst-post-43", paper="kazan", where="§4.4, Example 4.3",
          statement="that adversary's posterior is at most 71%", printed=0.71,
          compute=lambda: E._b43(E._b43(0.5).worst_prior_up).posterior_high, atol=P, bound="upper",
          note=FALSE_BY_ROUNDING, expected="discrepancy", finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-4.4-worst-diff-43", paper="kazan", where="§4.4, Example 4.3", statement="a difference of 42%",
          printed=0.42, compute=lambda: E._b43(0.5).difference, atol=P, bound="upper", note=FALSE_BY_ROUNDING,
          expected="discrepancy", finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-4.4-worst-ratio-43", paper="kazan", where="§4.4, Example 4.3", statement="a ratio of 2.5",
          printed=2.5, compute=lambda: E._b43(E._b43(0.5).worst_prior_up).prior_ratio_high, atol=0.05, bound="upper",
          chapter=CHAPTER),
    Claim(id="kazan-4.4-worst-prior-low", paper="kazan", where="§4.4 (ε=2, δ=1e-6, δ′=0.01)",
          statement="worst-case adversaries have p = 0.27 ...", printed=0.27,
          compute=lambda: E._b44(0.5).worst_prior_up, atol=P, chapter=CHAPTER),
    Claim(id="kazan-4.4-worst-prior-high", paper="kazan", where="§4.4 (ε=2, δ=1e-6, δ′=0.01)",
          statement="... and p = 0.73", printed=0.73,
          compute=lambda: E._b44(0.5).worst_prior_down, atol=P, chapter=CHAPTER),
    Claim(id="kazan-4.4-worst-change", paper="kazan", where="§4.4 (ε=2, δ=1e-6, δ′=0.01)",
          statement="maximum change from prior to posterior ±0.46", printed=0.46,
          compute=lambda: E._b44(0.5).difference, atol=P, bound="upper", note=FALSE_BY_ROUNDING,
          expected="discrepancy", finding="unsafe-rounding", chapter=CHAPTER),
    Claim(id="kazan-4.4-limit-half", paper="kazan", where="§4.4",
          statement="as ε → 0 the worst-case prior tends to 0.5", printed=True,
          compute=E._limit_half, note="Checked with its rate: |1/(1 + e^{ε/2}) − 1/2| = tanh(ε/4)/2 ≤ ε/8.",
          chapter=CHAPTER),
    # ---------------------------------------------------------------- Figures 6 and 7 (descriptions)
    Claim(id="kazan-fig6-extreme-high", paper="kazan", where="Figure 6 description",
          statement="near p = 0 or 1 the ratio bounds reach nearly 10 ...", printed=10,
          compute=lambda: E._fig6(1e-9)[1], rtol=0.1, expected="discrepancy", finding="different-reading",
          note="Recomputed e^{ε′} = 6.05 (the paper's own text says 'at most 6'); 0.1 and 10 are the decade ticks of "
                "the log axis, which the description probably read off.", chapter=CHAPTER),
    Claim(id="kazan-fig6-extreme-low", paper="kazan", where="Figure 6 description", statement="... and nearly 0.1",
          printed=0.1, compute=lambda: E._fig6(1e-9)[0], rtol=0.1, expected="discrepancy", finding="different-reading",
          note="Recomputed e^{−ε′} = 0.165; see kazan-fig6-extreme-high (decade ticks).", chapter=CHAPTER),
    Claim(id="kazan-fig6-half-low", paper="kazan", where="Figure 6 description",
          statement="at p = 0.5 the bounds are approximately [0.3, 3]: lower 0.3", printed=0.3,
          compute=lambda: E._fig6(0.5)[0], atol=0.05, chapter=CHAPTER),
    Claim(id="kazan-fig6-half-high", paper="kazan", where="Figure 6 description", statement="at p = 0.5: upper 3",
          printed=3, compute=lambda: E._fig6(0.5)[1], atol=0.5, expected="discrepancy", finding="false-statement",
          note="Recomputed 1/(0.5 + 0.5e^{−ε′}) = 1.72 for ε′ = 1.80; no parameter set in the paper gives 3 "
                "(ε′ would have to be infinite for the ratio at p = 0.5 to reach 2).", chapter=CHAPTER),
    Claim(id="kazan-fig7-max-caption", paper="kazan", where="Figure 7 description",
          statement="difference bounds reach nearly ±0.5 (caption: ε=1.8, δ=1e-5, 95%)",
          printed=0.5, compute=lambda: E._fig7_max(E.EX43), atol=0.05, expected="discrepancy", finding="typo",
          note="With the caption's parameters the maximum is tanh(ε′/4) = 0.42 at p = 0.29 and 0.71; with the text's "
                "(ε=2, δ=1e-6, δ′=0.01) it is 0.46 at p = 0.27 and 0.73 (kazan-fig7-max-text), which fits "
                "'nearly 0.5'. The caption of Figure 7 probably repeats Figure 6's parameters.", chapter=CHAPTER),
    Claim(id="kazan-fig7-max-text", paper="kazan", where="Figure 7 description, §4.4 text",
          statement="difference bounds reach nearly ±0.5 (text: ε=2, δ=1e-6, 99%)",
          printed=0.5, compute=lambda: E._fig7_max(E.TEXT44), atol=0.05, chapter=CHAPTER),
    Claim(id="kazan-fig7-shape", paper="kazan", where="Figure 7 description",
          statement="largest near, but not at, 0.5; collapsing to 0 near p = 0 and 1", printed=True,
          compute=certified_by(E._fig7_shape, [("Lemma 3.4's maximiser", E.worst_prior_proof),
                                      ("the curve at its maximiser and at p = 10⁻⁶", E._fig7_shape_facts)],
                        kind="certified-interval", domain="the caption's ε = 1.8, δ = 10⁻⁵, δ′ = 0.05; every prior",
                        reduction="The maximiser over p is 1/(1 + e^{ε′/2}) exactly (Lemma 3.4); "
                                  "interval enclosures:"), chapter=CHAPTER),
]

SLIPS = [
    Claim(id="kazan-slip-4.3-theorem-3.10", paper="kazan", where="§4.3",
          statement="the upper bound over all DP mechanisms 'from Theorem 3.10'",
          printed="Theorem 3.10", compute=lambda: E._numbered("3.10"),
          note="There is no Theorem 3.10: the bound over all (ε, δ)-DP mechanisms is Corollary 3.10 (certified: "
               "kazan-cor3.10-2).", expected="discrepancy", finding="typo", chapter=CHAPTER),
    Claim(id="kazan-slip-ex4.1-figure", paper="kazan", where="Example 4.1",
          statement="'Figure 5 plots a 99% upper bound on the adversary's posterior "
                    "probability' (83% after a week, 96% after a month)", printed="Figure 5", compute=E._figure_41,
          note="The posterior bound (prior 1/2) is Figure 4, by its caption and by the numbers "
               "(kazan-ex4.1-post-week); Figure 5 is the difference bound, described two sentences later.",
               expected="discrepancy", finding="typo", chapter=CHAPTER),
    Claim(id="kazan-slip-4.4-figure", paper="kazan", where="§4.4",
          statement="'Figure 7 plots 95% probability bounds on R̃ᵢ = max{Xᵢ/pᵢ, (1 − Xᵢ)/(1 − pᵢ)}'",
          printed="Figure 7", compute=E._figure_44,
          note="The ratio bounds are Figure 6 (its caption and description: about [0.3, 3] at p = 1/2); Figure 7 plots "
               "the difference bounds D̃ᵢ, as the next paragraph says.", expected="discrepancy", finding="typo",
               chapter=CHAPTER),
    Claim(id="kazan-slip-a3-equation", paper="kazan", where="Appendix A.3 (proof of Theorem 3.3, ⇐, second case)",
          statement="'Thus, from (3) with "
                    "Y ← M(x₁), for all pᵢ ∈ (0, 1]' — the ratio bound that follows is the hypothesis (5)", printed="(3)",
          compute=lambda: E._hypothesis_used("ratio"),
          note="The converse assumes (5), the ratio bound; (3) is Theorem 3.2's posterior bound, a different event for "
               "every prior (computed on a grid). The first case of the same proof cites (5).", expected="discrepancy",
               finding="typo", chapter=CHAPTER),
    Claim(id="kazan-slip-a5-equation", paper="kazan", where="Appendix A.5 (proof of Theorem 3.5(2), second case)",
          statement="'Thus, from (3) with Y ← M(x₁), for all pᵢ ∈ (0, 1]' — the difference bound that follows is the "
                    "hypothesis (9), for pᵢ ∈ [0, 1]", printed="(3)", compute=lambda: E._hypothesis_used("difference"),
          note="The converse assumes (9), the difference bound; the first case of the same proof cites (9) with "
               "pᵢ ∈ [0, 1]. The second case repeats the (3) and (0, 1] of Appendix A.3.", expected="discrepancy",
               finding="typo", chapter=CHAPTER),
    Claim(id="kazan-slip-a7-cor3.7-delta", paper="kazan", where="Appendix A.7 (proof of Corollary 3.7)",
          statement="'From Theorem 3.3, M satisfies "
                    "(ε, δ)-PDP if and only if … (29) ≥ 1' in the pure case", printed="(ε, δ)", compute=E._pure_parameter,
          note="The proof is about (ε, 0): Theorem 3.3 at δ = 0 gives the probability ≥ 1 of (29); the first sentence "
               "of the same proof and Corollary 3.6's proof say (ε, 0).", expected="discrepancy", finding="typo",
               chapter=CHAPTER),
    Claim(id="kazan-slip-a7-cor3.8-delta", paper="kazan", where="Appendix A.7 (proof of Corollary 3.8)",
          statement="'From Theorem 3.5, M satisfies "
                    "(ε, δ)-PDP if and only if … (30) ≥ 1' in the pure case", printed="(ε, δ)", compute=E._pure_parameter,
          note="As in Corollary 3.7's proof, the parameter is (ε, 0). At δ = 0 Theorem 3.5's two parts do give an "
               "equivalence (2δ = 0); for δ > 0 they do not, so 'if and only if' holds only in the pure case.",
               expected="discrepancy", finding="typo", chapter=CHAPTER),
]

CLAIMS = CLAIMS + SLIPS

# Slips no earlier claim recorded (issue 35).
CLAIMS += [
    Claim(id="kazan-slip-4.4-prior-near-zero", paper="kazan", where="§4.4, the posterior-to-prior ratio",
          statement="'for an adversary's probability that Iᵢ = 1 to increase by a factor close to e^ε, it must be that "
                    "pᵢ ≈ 1' (Example 4.3's release at 95%)",
          printed=1.0, compute=E._prior_reaching_e_eps, expected="discrepancy", finding="typo",
          note="Slip (a direction): the bound 1/(p + (1 − p)e^{−ε′}) tends to e^{ε′} as p → 0 and to 1 as p → 1 (6.02 "
               "at p = 0.001, 1.0008 at p = 0.999, e^{ε′} = 6.05); the next sentence says 'an adversary with prior "
               "probability near zero'.", chapter=CHAPTER),
    Claim(id="kazan-slip-a5-tail-pairing", paper="kazan", where="Appendix A.5 (proof of Theorem 3.5(2), last paragraph)",
          statement="'From (23) and (27), … P[Z ≥ −ε] ≥ 1 − δ, and from (24) and (26), … P[Z ≤ ε] ≥ 1 − δ': what (23) "
                    "and (27) give",
          printed="P[Z ≥ −ε] ≥ 1 − δ", compute=E._tail_from_23_27, expected="discrepancy", finding="typo",
          note="Slip (the direction of an inequality): (23) and (27) are the events −log((2e^{ε/2} − 1)/(2e^{ε/2} − "
               "e^ε)) ≤ Z ≤ ε, which bound Z from above ([−1.378, 1] at ε = 1), and (24) and (26) bound it from below. "
               "The conclusion (ε, 2δ)-PDP is unaffected (kazan-thm3.5-2-two-delta).", chapter=CHAPTER),
    Claim(id="kazan-slip-a9-cor3.12-conclusions", paper="kazan", where="Appendix A.9 (proof of Corollary 3.12(1))",
          statement="'From Theorem 3.5, if … (17) …, then M satisfies (ε, δ)-PDP. From Theorem 2.5, … both "
                    "(ε, 2δ)-probabilistic DP and (ε̃, δ)-probabilistic DP': what Theorem 3.5 gives from (17)",
          printed="(ε, δ)-PDP", compute=E._pdp_from_difference_bound, expected="discrepancy", finding="typo",
          note="Slip (the two conclusions exchanged): Theorem 3.5(2) gives (ε, 2δ)- and (ε̃, δ)-PDP, and Theorem 2.5 "
               "turns each into DP. (ε, δ)-PDP does not follow: the Appendix A.6 mechanism meets (17) but its PDP δ at "
               "ε = 1 is 0.0134 > δ = 0.01 (kazan-a6-counterexample). The corollary holds (kazan-cor3.12-1-two-delta, "
               "kazan-cor3.12-1-eps-tilde).", chapter=CHAPTER),
    Claim(id="kazan-slip-a9-cor3.11-prior-domain", paper="kazan",
          where="Appendix A.9 (proof of Corollary 3.11, both parts)",
          statement="'for any database x, target i, pᵢ ∈ [0, 1]': the priors of the ratio bound", printed="[0, 1]",
          compute=E._ratio_prior_domain, expected="discrepancy", finding="typo",
          note="Slip (a quantifier): Rᵢ = Xᵢ/pᵢ has no value at pᵢ = 0; Corollary 3.11 and Theorem 3.3 state "
               "pᵢ ∈ (0, 1], as the proof of Theorem 3.3 (Appendix A.3) does.", chapter=CHAPTER),
    Claim(id="kazan-slip-4.2-figure", paper="kazan", where="§4.2, first paragraph",
          statement="'Often, composition results are visualized as in Figure 3, which presents the composition of k "
                    "pure DP mechanisms, each with ε_j = 0.05'",
          printed="Figure 3", compute=E._composition_figure, expected="discrepancy", finding="typo",
          note="Slip (a cross-reference): the total ε of basic, advanced and optimal composition against k is Figure 2 "
               "(its caption); Figure 3 is the posterior bound the next paragraph introduces.", chapter=CHAPTER),
]
