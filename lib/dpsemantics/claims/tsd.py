"""Claims of Tschantz, Sen & Datta, "Differential Privacy as a Causal Property" (paper key ``tsd``).

Effect sizes are reported in units of ε (the paper writes "2ε", "3ε"), computed at ε = 0.5 on the
models of :mod:`dpsemantics.causal` with the two-sided geometric count in place of the Laplace count.
Printed relations of Table 1 are strings ("↔ DP", "→ DP", "← DP") compared with the relation that a
seeded random sweep supports (:func:`dpsemantics.causal.table1`).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from .. import causal
from ..mechanisms import geometric_count
from . import Claim

CHAPTER = "book/causal-view"
EPS = 0.5


@functools.lru_cache(maxsize=1)
def _table():
    return {r.number: r.computed for r in causal.table1(seed=0, mechanisms=40, populations=6)}


def _relation(number):
    return lambda: _table()[number]


@functools.lru_cache(maxsize=1)
def _status():
    return causal.prog_status_model(EPS, with_database=False)


def _effect_units(cause):
    return lambda: causal.brp_epsilon(_status(), "O", cause) / EPS


def _total_effect_units():
    return (causal.brp_epsilon(_status(), "O", "R1") + causal.brp_epsilon(_status(), "O", "R2")) / EPS


def _appendix_b_probability(o, v):
    def compute():
        model = causal.survey_model(causal.appendix_b_mechanism())
        return model.probability({(0,): 0.5, (1,): 0.5, (2,): 0.0}, {"O": o}, given={"D1": v})

    return compute


def _appendix_b_separates():
    mech = causal.appendix_b_mechanism()
    return causal.definition_epsilon(10, mech, np.array([0.5, 0.5, 0.0])) == 0.0 and math.isinf(causal.definition_epsilon(1, mech))


def _prop4_population():
    P = np.zeros((3, 3))
    P[:2, :2] = 0.25
    return P


def _prop4_half_everywhere():
    model = causal.survey_model(causal.proposition4_mechanism())
    pop = {(a, b): 0.25 for a in (0, 1) for b in (0, 1)}
    return all(abs(model.probability(pop, {"O": o}, do={f"D{i}": v}) - 0.5) < 1e-12
               for i in (1, 2) for v in range(3) for o in (0, 1))


def _prop4_separates():
    mech = causal.proposition4_mechanism()
    return causal.definition_epsilon(7, mech, _prop4_population()) == 0.0 and math.isinf(causal.definition_epsilon(1, mech))


def _one_data_point_never_separates():
    rng = np.random.default_rng(3)
    for _ in range(200):
        mech = causal.random_mechanism(rng, n=1, k=3, m=3, zero_prob=0.1)
        P = causal.random_population(rng, n=1, k=3, kind="sparse")
        e7, e1 = causal.definition_epsilon(7, mech, P), causal.definition_epsilon(1, mech)
        if not (e7 == e1 or math.isclose(e7, e1, rel_tol=1e-9)):
            return False
    return True


def _conditioning_units():
    """Largest log ratio of Pr[O=o | D1=1] to Pr[O=o | D1=0] in prog_status (independent, uniform R1, R3)."""
    m = _status()
    pop = m.uniform_population()
    rows = np.array([[m.probability(pop, {"O": o}, given={"D1": v}) for o in m.domains["O"]] for v in (0, 1)])
    return float(np.max(np.abs(np.log(rows[1]) - np.log(rows[0])))) / EPS


def _prog_a_brp_units():
    m = causal.prog_a_model(EPS, with_database=False)
    return max(causal.brp_epsilon(m, "O", f"D{i}") for i in (1, 2, 3)) / EPS


def _printed_definition9_met():
    """Definition 9 as printed: max_P RP̄(O, D_1) ≤ e^{-1} for the ε-DP count prog_A."""
    m = causal.prog_a_model(EPS, with_database=False)
    return math.exp(causal.brp_epsilon(m, "O", "D1")) <= math.exp(-1)


def _rr_units():
    return causal.brp_epsilon(causal.randomized_response_model(EPS, 1), "D1", "R1") / EPS


def _rr_data_to_output():
    return causal.brp_epsilon(causal.randomized_response_model(EPS, 1), "O", "D1")


def _rr_status_to_output_grows():
    values = [causal.relatives_effect(EPS, k) / EPS for k in range(5)]
    return all(abs(v - (k + 1)) < 1e-9 for k, v in enumerate(values))


def _theorem1_random():
    rng = np.random.default_rng(2)
    for _ in range(40):
        m = causal.random_sequence_model(rng, spread=float(rng.uniform(0.2, 2.0)))
        e1 = causal.brp_epsilon(m, "Y", "X")
        e2 = max(causal.brp_epsilon(m, "Z", "X", extra_do={"Y": y}) for y in m.domains["Y"])
        if causal.brp_epsilon(m, ("Y", "Z"), "X") > e1 + e2 + 1e-12:
            return False
    return True


def _post_processing():
    rng = np.random.default_rng(4)
    for _ in range(20):
        y = [rng.dirichlet(np.ones(3), size=2) for _ in range(2)]
        g = rng.integers(0, 2, size=3)
        z = [np.eye(2)[[g[j]] * 2] for j in range(3)]
        m = causal.sequence_model(y, z)
        if causal.brp_epsilon(m, "Z", "X") > causal.brp_epsilon(m, "Y", "X") + 1e-12:
            return False
    return True


def _lemma1():
    rng = np.random.default_rng(5)
    for _ in range(5):
        mech = causal.random_mechanism(rng)
        model = causal.survey_model(mech)
        P = causal.random_population(rng, kind="correlated")
        pop = {idx: float(P[idx]) for idx in np.ndindex(P.shape)}
        for db in mech.databases:
            got = model.distribution(pop, "O", do={"D1": db[0], "D2": db[1]})
            if not np.allclose([got.get(o, 0.0) for o in mech.outputs], mech.row(db), atol=1e-12):
                return False
    return True


def _lemma2_values(weighted):
    """Pr[O=3 | do(D1=1)] in prog_status with uniform R1, R3, and Lemma 2's right-hand side."""
    mech = geometric_count(3, EPS)
    m = causal.prog_status_model(EPS)
    pop = m.uniform_population()
    lhs = m.probability(pop, {"O": 3}, do={"D1": 1})
    # D2 = R1 and D3 = R3: Pr[D2=a, D3=b] = 1/4 for all a, b (eq. 78 weights)
    rhs = sum((0.25 if weighted else 1.0) * mech.row((1, a, b))[3] for a, b in itertools.product((0, 1), repeat=2))
    return abs(lhs - rhs) < 1e-12


def _downstream_do_leaves_inputs():
    m = causal.prog_status_model(EPS)
    pop = m.uniform_population()
    base = m.distribution(pop, "D")
    for o in m.domains["O"]:
        got = m.distribution(pop, "D", do={"O": o})
        if any(abs(got.get(k, 0.0) - p) > 1e-12 for k, p in base.items()):
            return False
    return True


def _associated_not_causal():
    """D1 and D2 are equal in prog_status, yet do(D1) leaves D2's distribution alone."""
    m = causal.prog_status_model(EPS)
    pop = m.uniform_population()
    equal = abs(m.probability(pop, lambda a: a["D1"] == a["D2"]) - 1.0) < 1e-12
    untouched = all(abs(m.probability(pop, {"D2": 1}, do={"D1": v}) - 0.5) < 1e-12 for v in (0, 1))
    return equal and untouched


def _def3_correlated_units():
    mech = geometric_count(2, EPS)
    P = np.zeros((2, 2))
    P[0, 0] = P[1, 1] = 0.5
    return causal.definition_epsilon(3, mech, P) / EPS


def _status_to_data_unbounded():
    return causal.brp_epsilon(_status(), "D2", "R2")


def _intervention_breaks_association():
    """After do(R2 = r), Byron's status says nothing about Ada's: Pr[R1=1 | R2=r, do(R2=r)] = Pr[R1=1]."""
    m = _status()
    pop = m.uniform_population()
    prior = m.probability(pop, {"R1": 1})
    seen = [m.probability(pop, {"R1": 1}, given={"R2": r}) for r in (0, 1)]
    done = [m.probability(pop, {"R1": 1}, given={"R2": r}, do={"R2": r}) for r in (0, 1)]
    return all(abs(d - prior) < 1e-12 for d in done) and all(abs(v - prior) > 0.4 for v in seen)


def _data_point_effect_any_relation():
    """The effect of D1 on O stays within ε whatever the chance that Byron inherits Ada's status."""
    m = causal.inheritance_model(EPS)
    return all(causal.effect_size(m, causal.inheritance_population(m, q), "O", "D1") <= EPS + 1e-12
               for q in np.linspace(0, 1, 11))


def _full_support_population_suffices():
    """Proposition 1's proof: one population with full support already gives DP's ε in Definition 2."""
    rng = np.random.default_rng(6)
    for _ in range(40):
        mech = causal.random_mechanism(rng)
        P = causal.random_population(rng, kind="full")
        e10, e1 = causal.definition_epsilon(10, mech, P), causal.definition_epsilon(1, mech)
        if not (e10 == e1 or math.isclose(e10, e1, rel_tol=1e-9)):
            return False
    return True


def _table_claim(number, where, statement):
    printed = causal.DEFINITIONS[number][3]
    return Claim(
        id=f"tsd-table1-def{number}-relation",
        paper="tsd",
        where=where,
        statement=statement + f" (printed relation {printed}; computed on 40 random mechanisms × 6 populations)",
        printed=printed,
        compute=_relation(number),
        chapter=CHAPTER,
    )


CLAIMS = [
    _table_claim(2, "Table 1 row 2; Proposition 1", "Strong adversary DP (Definition 2) is equivalent to DP"),
    _table_claim(3, "Table 1 row 3; §3 (Yang et al., Thm 2)", "Bayesian₀ DP (Definition 3) implies DP but not conversely"),
    _table_claim(4, "Table 1 row 4; §3 (Yang et al., Thm 1)", "Bayesian₀ DP over independent populations (Definition 4) is equivalent to DP"),
    _table_claim(5, "Table 1 row 5; Proposition 2", "Universal whole-database intervention DP (Definition 5) is equivalent to DP"),
    _table_claim(6, "Table 1 row 6; Proposition 3", "Whole-database intervention DP for a given population (Definition 6) is equivalent to DP"),
    _table_claim(7, "Table 1 row 7; Proposition 4", "DP implies data-point intervention DP (Definition 7) but not conversely"),
    _table_claim(8, "Table 1 row 8; Proposition 5", "Universal data-point intervention DP (Definition 8) is equivalent to DP"),
    _table_claim(10, "Appendix B, Definition 10", "Strong adversary DP for one distribution (Definition 10) is implied by DP but does not imply it"),
    Claim("tsd-appB-eq34-pr-o0-d0", "tsd", "Appendix B, eq. (34)", "Pr[O=0 | D₁=0] = 1/2 for the mechanism of eqs. (31)–(33)",
          0.5, _appendix_b_probability(0, 0), atol=1e-12, chapter=CHAPTER),
    Claim("tsd-appB-eq35-pr-o1-d1", "tsd", "Appendix B, eq. (35)", "Pr[O=1 | D₁=1] = 1/2 for the mechanism of eqs. (31)–(33)",
          0.5, _appendix_b_probability(1, 1), atol=1e-12, chapter=CHAPTER),
    Claim("tsd-appB-def10-not-dp", "tsd", "Appendix B", "The mechanism of eqs. (31)–(33) satisfies Definition 10 (with ε = 0) when Pr[D₁=2] = 0, but is not DP for any ε",
          True, _appendix_b_separates, chapter=CHAPTER),
    Claim("tsd-prop4-half", "tsd", "Proposition 4, after eq. (19)", "Pr[O=o | do(Dᵢ=d)] = 1/2 for every o, i and d for the mechanism of eqs. (18)–(19) when Pr[D₁=2] = Pr[D₂=2] = 0",
          True, _prop4_half_everywhere, chapter=CHAPTER),
    Claim("tsd-prop4-def7-not-dp", "tsd", "Proposition 4", "The mechanism of eqs. (18)–(19) satisfies Definition 7 (with ε = 0) for that population but is not DP",
          True, _prop4_separates, chapter=CHAPTER),
    Claim("tsd-s5.2-two-data-points", "tsd", "§5.2, before Proposition 4", "A counterexample to Definition 7 ⇒ DP needs two data points: with one data point Definition 7's ε equals DP's at every population (200 random cases)",
          True, _one_data_point_never_separates, chapter=CHAPTER),
    Claim("tsd-s3-def3-correlated", "tsd", "§1.1 and §3", "Conditioning on Ada's data point when Byron's always equals it: Definition 3's ε is 2ε for an ε-DP count (the 'double dose')",
          2.0, _def3_correlated_units, atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s1.1-conditioning-d1", "tsd", "§1.1", "In the survey (R₂ := R₁), conditioning on Ada's data point D₁ moves the output distribution by up to a factor e^{2ε}",
          2.0, _conditioning_units, atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s1.1-do-d1", "tsd", "§1.1", "Intervening on Ada's data point D₁ has effect size ε on the output",
          1.0, _effect_units("D1"), atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s1.1-do-r1", "tsd", "§1.1", "Intervening on Ada's status R₁ has effect up to double ε (two paths, via D₁ and via R₂ → D₂)",
          2.0, _effect_units("R1"), atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s1.1-do-r2", "tsd", "§1.1", "Intervening on Byron's status R₂ has effect size ε",
          1.0, _effect_units("R2"), atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s6.3-total-effect", "tsd", "§6.3, group privacy", "Total effect of Ada's and Byron's statuses R₁, R₂ is 3ε",
          3.0, _total_effect_units, atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s6.3-joint-effect", "tsd", "§6.3, group privacy", "Joint effect of R₁ and R₂ (one do on both) is 2ε",
          2.0, _effect_units(("R1", "R2")), atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s6.3-rr-status-to-response", "tsd", "§6.3, randomized response", "Randomized response gives ε-BRP from Rᵢ to Dᵢ",
          1.0, _rr_units, atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s6.3-rr-response-to-output", "tsd", "§6.3, randomized response", "From Dᵢ to an output computed without noise the BRP is unbounded",
          math.inf, _rr_data_to_output, chapter=CHAPTER),
    Claim("tsd-s6.3-rr-status-to-output", "tsd", "§6.3, randomized response", "From Rᵢ to O the BRP is unbounded when statuses affect one another: with k relatives copying R₁ it is (k+1)ε, k = 0..4",
          True, _rr_status_to_output_grows, chapter=CHAPTER),
    Claim("tsd-eq28-dp-bounds-rp", "tsd", "§6.1, eq. (28)", "For the ε-DP count prog_A, max over 𝒫 and i of RP̄(O, Dᵢ) is e^ε (the bound of eq. 28, attained)",
          1.0, _prog_a_brp_units, atol=1e-9, chapter=CHAPTER),
    Claim("tsd-def9-printed-bound", "tsd", "§6.1, Definition 9", "Definition 9 as printed (max_𝒫 RP̄ ≤ e^{-1}) is met by the ε-DP count for its data points, as 'DP is equivalent to ε-BRP for all Dᵢ' requires",
          True, _printed_definition9_met, expected="discrepancy",
          note="The printed bound e^{-1} is below 1, while RP̄ ≥ 1 always (take x₁ = x₂), so no model meets it. "
               "The bound must be e^ε, as eq. (28) and the sentence after the definition show; with e^ε the claim "
               "tsd-eq28-dp-bounds-rp reproduces.", chapter=CHAPTER),
    Claim("tsd-thm1-composition", "tsd", "§6.2, Theorem 1", "If X has ε₁-BRP to Y and ε₂-BRP to Z in every 𝓜[Y:=y], X has (ε₁+ε₂)-BRP to ⟨Y, Z⟩ (40 random models)",
          True, _theorem1_random, chapter=CHAPTER),
    Claim("tsd-thm1-post-processing", "tsd", "§6.2, after Theorem 1", "Post-processing: Z := g(Y) has BRP from X at most that of Y (20 random models)",
          True, _post_processing, chapter=CHAPTER),
    Claim("tsd-lemma1-eq44", "tsd", "Appendix C, Lemma 1, eq. (44)", "Pr[O=o | do(D₁=d₁, …, Dₙ=dₙ)] = Pr[𝒜(d)=o] for every population",
          True, _lemma1, chapter=CHAPTER),
    Claim("tsd-lemma2-eq78", "tsd", "Appendix C, Lemma 2, eq. (78)", "Pr[O=o | do(D₁=d′)] = Σ Pr[D₂..Dₙ = d₂..dₙ] Pr[𝒜(d′, d₂, …, dₙ)=o]",
          True, lambda: _lemma2_values(True), chapter=CHAPTER),
    Claim("tsd-lemma2-eq60-as-printed", "tsd", "Appendix C, Lemma 2, eqs. (59)–(60)", "Lemma 2's statement as printed: Pr[O=o | do(Dⱼ=d′ⱼ)] equals the unweighted sum Σ over the other data points of Pr[𝒜(…, d′ⱼ, …)=o]",
          True, lambda: _lemma2_values(False), expected="discrepancy",
          note="The statement (eqs. 59–60 in our copy) omits the population weights Pr_𝒫[D₋ⱼ = d₋ⱼ] that the proof's "
               "last line, eq. (78), carries; without them the sum can exceed 1. The same weights are missing from "
               "one side of eqs. (15)–(16) and (21). With the weights (eq. 78) the lemma reproduces.", chapter=CHAPTER),
    Claim("tsd-s4-do-output-leaves-inputs", "tsd", "§4", "Pr[D=d | do(O=o)] = Pr[D=d]: intervening downstream does not change the database",
          True, _downstream_do_leaves_inputs, chapter=CHAPTER),
    Claim("tsd-s4-d1-d2-associated", "tsd", "§4, prog_status", "D₁ and D₂ are equal (associated) in prog_status, yet neither causes the other: do(D₁) leaves D₂'s distribution unchanged",
          True, _associated_not_causal, chapter=CHAPTER),
    Claim("tsd-s1.1-status-to-data-unbounded", "tsd", "§1.1", "The effect of Byron's status on his data point is large (D₂ := R₂: unbounded)",
          math.inf, _status_to_data_unbounded, chapter=CHAPTER),
    Claim("tsd-s1.1-randomization-breaks-association", "tsd", "§1.1", "After an intervention on Byron's status it no longer reveals anything about Ada's (while observing it does)",
          True, _intervention_breaks_association, chapter=CHAPTER),
    Claim("tsd-s1.1-data-point-effect-any-relation", "tsd", "§1.1", "DP bounds the effect of Ada's data point by ε whatever the relation between the statuses (inheritance probability 0, 0.1, …, 1)",
          True, _data_point_effect_any_relation, chapter=CHAPTER),
    Claim("tsd-prop1-full-support", "tsd", "§3, proof of Proposition 1", "One population giving every database positive probability already makes Definition 2's check equal to DP (40 random cases)",
          True, _full_support_population_suffices, chapter=CHAPTER),
]
