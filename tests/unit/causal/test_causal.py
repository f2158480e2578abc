"""Tests of dpsemantics.causal (Tschantz, Sen & Datta).

Expected values come from closed forms written out here (geometric tails Pr[Z ≥ m] = a^m/(1+a) with
a = e^{-ε}, randomized-response odds e^ε), from the paper's printed numbers (Appendix B, Proposition 4),
or from direct NumPy sums independent of the structural-equation engine.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpsemantics import causal as c
from dpsemantics.book import causal_tables
from dpsemantics.claims import causal_evidence as E
from dpsemantics.mechanisms import FiniteMechanism, geometric_count
from dpsemantics.notions import xor_randomized_response

EPS = 0.5
A = math.exp(-EPS)


def tail(m, a=A):
    """Pr[Z >= m] for two-sided geometric Z with ratio a (independent of mechanisms._geometric_tail)."""
    return a**m / (1 + a) if m > 0 else 1 - a ** (1 - m) / (1 + a)


UNIFORM2 = {(r1, r3): 0.25 for r1 in (0, 1) for r3 in (0, 1)}


# ---------------------------------------------------------------- the engine on small hand models
def coin_model():
    return c.StructuralModel(
        {"X": [0, 1]},
        {"Y": (("X",), lambda x: {x: 0.75, 1 - x: 0.25}), "Z": (("Y",), lambda y: 2 * y)},
    )


def test_joint_and_queries_by_hand():
    m = coin_model()
    pop = {0: 0.4, 1: 0.6}
    assert m.probability(pop, {"Y": 1}) == pytest.approx(0.4 * 0.25 + 0.6 * 0.75)
    assert m.probability(pop, {"Z": 2}, given={"X": 0}) == pytest.approx(0.25)
    # Bayes: Pr[X=1 | Y=1] = .6*.75 / (.4*.25 + .6*.75)
    assert m.probability(pop, {"X": 1}, given={"Y": 1}) == pytest.approx(0.45 / 0.55)
    # intervening on Y does not change X (X is upstream)
    assert m.probability(pop, {"X": 1}, do={"Y": 1}) == pytest.approx(0.6)
    assert m.domains["Z"] == [0, 2]
    assert m.order == ["Y", "Z"]


def test_submodel_equals_do():
    m = coin_model()
    pop = {0: 0.3, 1: 0.7}
    sub = m.submodel({"Y": 0})
    assert sub.probability(pop, {"Z": 0}) == pytest.approx(1.0)
    assert m.probability(pop, {"Z": 0}, do={"Y": 0}) == pytest.approx(1.0)


def test_intervention_on_zero_probability_value_is_defined():
    m = coin_model()
    # X=1 has probability zero; do(X=1) still defined (§4), conditioning on it is not.
    assert m.probability({0: 1.0, 1: 0.0}, {"Y": 1}, do={"X": 1}) == pytest.approx(0.75)
    with pytest.raises(ValueError, match="probability zero"):
        m.probability({0: 1.0, 1: 0.0}, {"Y": 1}, given={"X": 1})


def test_conditioning_versus_intervening_on_prog_status():
    m = c.prog_status_model(EPS)
    # D1 = 1 reveals R1 = R2 = 1: count 2 + R3
    cond = 0.5 * tail(1) + 0.5 * tail(0)
    # do(D1 = 1): count 1 + R1 + R3
    do = 0.25 * tail(2) + 0.5 * tail(1) + 0.25 * tail(0)
    assert m.probability(UNIFORM2, {"O": 3}, given={"D1": 1}) == pytest.approx(cond, rel=1e-12)
    assert m.probability(UNIFORM2, {"O": 3}, do={"D1": 1}) == pytest.approx(do, rel=1e-12)
    # intervening downstream leaves the inputs alone (§4): Pr[D=d | do(O=o)] = Pr[D=d]
    for o in range(4):
        assert m.distribution(UNIFORM2, "D", do={"O": o}) == pytest.approx(m.distribution(UNIFORM2, "D"))


def test_prog_a_output_distribution_matches_geometric_count():
    m = c.prog_a_model(EPS)
    mech = geometric_count(3, EPS)
    for db in itertools.product((0, 1), repeat=3):
        point = {db: 1.0}
        dist = m.distribution(point, "O")
        assert [dist.get(o, 0.0) for o in range(4)] == pytest.approx(list(mech.row(db)), abs=1e-15)
        count = sum(db)
        assert dist[3] == pytest.approx(tail(3 - count), rel=1e-12)


# ---------------------------------------------------------------- effect sizes (§1.1, §6)
@pytest.mark.parametrize("eps", [0.1, 0.5, 2.0])
def test_motivating_effect_sizes(eps):
    m = c.prog_status_model(eps, with_database=False)
    assert c.brp_epsilon(m, "O", "D1") == pytest.approx(eps, rel=1e-9)
    assert c.brp_epsilon(m, "O", "R2") == pytest.approx(eps, rel=1e-9)
    assert c.brp_epsilon(m, "O", "R1") == pytest.approx(2 * eps, rel=1e-9)
    assert c.brp_epsilon(m, "O", ("R1", "R2")) == pytest.approx(2 * eps, rel=1e-9)


def test_conditioning_on_ada_data_point_gives_factor_e_2eps():
    m = c.prog_status_model(EPS, with_database=False)
    rows = [[m.probability(UNIFORM2, {"O": o}, given={"D1": v}) for o in range(4)] for v in (0, 1)]
    ratio = max(rows[1][o] / rows[0][o] for o in range(4))
    # at o = 3: (p + (1-p) a) / (p a^2 + (1-p) a^3) = a^-2 for any weight p of R3
    assert math.log(ratio) == pytest.approx(2 * EPS, rel=1e-9)


def test_relative_probability_definition():
    m = c.prog_status_model(EPS)
    rp = c.relative_probability(m, UNIFORM2, {"O": 3}, {"D1": 1}, {"D1": 0})
    num = 0.25 * tail(2) + 0.5 * tail(1) + 0.25 * tail(0)
    den = 0.25 * tail(3) + 0.5 * tail(2) + 0.25 * tail(1)
    assert rp == pytest.approx(num / den, rel=1e-12)
    assert c.max_relative_probability(m, UNIFORM2, "O", "D1") == pytest.approx(math.exp(EPS), rel=1e-9)


def test_relative_probability_zero_cases():
    mech = c.exact_count(2)
    m = c.survey_model(mech, with_database=False)
    pop = {(a, b): 0.25 for a in (0, 1) for b in (0, 1)}
    assert c.relative_probability(m, pop, {"O": 2}, {"D1": 1}, {"D1": 0}) == math.inf
    with pytest.raises(ValueError, match="undefined"):
        c.relative_probability(m, {(0, 0): 1.0}, {"O": 2}, {"D1": 0}, {"D1": 0})


@pytest.mark.parametrize("eps", [0.3, 1.0])
def test_randomized_response_effects(eps):
    m = c.randomized_response_model(eps, relatives=1)
    assert c.brp_epsilon(m, "D1", "R1") == pytest.approx(eps, rel=1e-9)
    assert c.brp_epsilon(m, "O", "D1") == math.inf
    for k in (0, 1, 2, 3):
        # the top count needs every copy of R1 reported as 1: odds (e^eps)^(k+1)
        assert c.relatives_effect(eps, k) == pytest.approx((k + 1) * eps, rel=1e-9)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_brp_is_attained_at_point_masses(seed):
    rng = np.random.default_rng(seed)
    m = c.prog_status_model(float(rng.uniform(0.1, 2)), with_database=False)
    w = rng.dirichlet(np.ones(4))
    pop = dict(zip(itertools.product((0, 1), repeat=2), w))
    for cause in ("D1", "R1", "R2", ("R1", "R2")):
        assert c.effect_size(m, pop, "O", cause) <= c.brp_epsilon(m, "O", cause) + 1e-12


# ---------------------------------------------------------------- Theorem 1
def direct_brp_y(model):
    """log max over w, y, x1, x2 of channel ratios, straight from the equation tables."""
    best = 0.0
    for w in model.domains["W"]:
        table = np.array([[model._tables["Y"][(x, w)].get(y, 0.0) for y in model.domains["Y"]]
                          for x in model.domains["X"]])
        best = max(best, float(np.max(np.log(table.max(0)) - np.log(table.min(0)))))
    return best


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_theorem1_sequential_composition(seed):
    rng = np.random.default_rng(seed)
    m = E.random_sequence_model(rng, spread=float(rng.uniform(0.2, 2)))
    e1 = c.brp_epsilon(m, "Y", "X")
    assert e1 == pytest.approx(direct_brp_y(m), rel=1e-9)
    e2 = max(c.brp_epsilon(m, "Z", "X", extra_do={"Y": y}) for y in m.domains["Y"])
    e12 = c.brp_epsilon(m, ("Y", "Z"), "X")
    assert e12 <= e1 + e2 + 1e-12
    assert e12 >= e1 - 1e-12  # marginalising Z is post-processing


def test_post_processing():
    rng = np.random.default_rng(5)
    y = rng.dirichlet(np.ones(3), size=2)
    z = [np.eye(3)[[0, 0, 1]][[j] * 2] for j in range(3)]  # Z := g(Y), ignores X
    m = c.sequence_model([y], z)
    e1 = c.brp_epsilon(m, "Y", "X")
    assert c.brp_epsilon(m, ("Y", "Z"), "X") == pytest.approx(e1, rel=1e-12)
    assert c.brp_epsilon(m, "Z", "X") <= e1 + 1e-12


# ---------------------------------------------------------------- Definitions 1-10
def test_definition_epsilon_matches_sem_engine():
    rng = np.random.default_rng(11)
    for _ in range(6):
        mech = E.random_mechanism(rng)
        for kind in ("full", "sparse", "independent", "correlated"):
            P = E.random_population(rng, kind=kind)
            defs = (2, 3, 5, 6, 7, 8, 10) + ((4,) if kind == "independent" else ())
            for d in defs:
                assert (c.definition_epsilon(d, mech, P)
                        == pytest.approx(c.definition_epsilon_sem(d, mech, P), abs=1e-12))


def test_definition1_is_the_mechanism_epsilon():
    mech = geometric_count(3, EPS)
    assert c.definition_epsilon(1, mech) == pytest.approx(mech.epsilon(), rel=1e-12)
    assert c.definition_epsilon(1, mech) == pytest.approx(EPS, rel=1e-9)


def test_lemma2_direct_sum():
    rng = np.random.default_rng(2)
    mech = E.random_mechanism(rng)
    Atensor = c.mechanism_tensor(mech)[0]
    P = E.random_population(rng, kind="correlated")
    model = c.survey_model(mech)
    pop = {idx: float(P[idx]) for idx in np.ndindex(P.shape)}
    for v in range(3):
        direct = sum(P[:, x].sum() * Atensor[v, x] for x in range(3))  # Σ Pr[D2=x] A(v, x)
        got = model.distribution(pop, "O", do={"D1": v})
        assert [got.get(o, 0.0) for o in range(3)] == pytest.approx(list(direct), abs=1e-12)


def test_appendix_b_counterexample():
    mech = c.appendix_b_mechanism()
    P = np.array([0.5, 0.5, 0.0])
    assert c.definition_epsilon(10, mech, P) == 0.0  # Definition 10 holds with eps = 0
    assert c.definition_epsilon(1, mech) == math.inf
    assert c.definition_epsilon(6, mech, P) == math.inf  # intervention sees the zero-probability value
    model = c.survey_model(mech)
    for v in (0, 1):
        assert model.probability({(0,): 0.5, (1,): 0.5}, {"O": 0}, given={"D1": v}) == pytest.approx(0.5)


def test_proposition4_counterexample():
    mech = c.proposition4_mechanism()
    P = np.zeros((3, 3))
    P[:2, :2] = 0.25
    assert c.definition_epsilon(7, mech, P) == 0.0
    assert c.definition_epsilon(1, mech) == math.inf
    model = c.survey_model(mech)
    pop = {(a, b): 0.25 for a in (0, 1) for b in (0, 1)}
    for v in range(3):
        for o in (0, 1):
            assert model.probability(pop, {"O": o}, do={"D1": v}) == pytest.approx(0.5)


def test_definition3_broken_by_correlated_population():
    mech = geometric_count(2, EPS)
    P = np.zeros((2, 2))
    P[0, 0] = P[1, 1] = 0.5  # Ada and Byron always agree
    assert c.definition_epsilon(3, mech, P) == pytest.approx(2 * EPS, rel=1e-9)
    assert c.definition_epsilon(1, mech) == pytest.approx(EPS, rel=1e-9)
    Pind = np.full((2, 2), 0.25)
    assert c.definition_epsilon(4, mech, Pind) <= EPS + 1e-12


def test_single_data_point_definition7_equals_dp():
    rng = np.random.default_rng(4)
    for _ in range(20):
        mech = E.random_mechanism(rng, n=1, k=3, m=3, zero_prob=0.1)
        P = E.random_population(rng, n=1, k=3, kind="sparse")
        e7, e1 = c.definition_epsilon(7, mech, P), c.definition_epsilon(1, mech)
        assert e7 == e1 or math.isclose(e7, e1, rel_tol=1e-9)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_candidate_populations_attain_supremum(seed):
    rng = np.random.default_rng(seed)
    mech = E.random_mechanism(rng, zero_prob=0.0)
    Atensor = c.mechanism_tensor(mech)[0]
    sup = {d: c.universal_epsilon(d, Atensor) for d in (2, 3, 4, 5, 8)}
    inner = {2: 10, 3: 3, 4: 4, 5: 6, 8: 7}
    for kind in ("full", "sparse", "independent", "correlated"):
        P = E.random_population(rng, kind=kind)
        for d, i in inner.items():
            if d == 4 and kind != "independent":
                continue
            assert c.definition_epsilon(i, Atensor, P) <= sup[d] + 1e-12
    # Definitions 2, 4, 5 and 8 are equivalent to DP; 3 is at least as strong
    e1 = c.definition_epsilon(1, Atensor)
    for d in (2, 4, 5, 8):
        assert sup[d] == pytest.approx(e1, rel=1e-12)
    assert sup[3] >= e1 - 1e-12


def test_universal_definition3_closed_form():
    rng = np.random.default_rng(8)
    mech = E.random_mechanism(rng, zero_prob=0.0)
    Atensor = c.mechanism_tensor(mech)[0]
    # sup over P: max over i, v != v', o of max_x A(v, x)(o) / min_x' A(v', x')(o)
    best = 0.0
    for i in range(2):
        B = np.moveaxis(Atensor, i, 0)
        for v, w in itertools.permutations(range(3), 2):
            best = max(best, float(np.max(np.log(B[v].max(0)) - np.log(B[w].min(0)))))
    assert c.universal_epsilon(3, Atensor) == pytest.approx(best, rel=1e-12)


def test_table1_reproduces_paper_relations():
    rows = E.table1(seed=1, mechanisms=25, populations=4)
    assert {r.number: r.computed for r in rows} == {r.number: r.printed for r in rows}
    md = causal_tables.table1_markdown(rows)
    assert md.count("\n") == len(rows) + 2


def test_classify_relation():
    assert E.classify_relation([1, 2], [1, 2]) == "↔ DP"
    assert E.classify_relation([1, 3], [1, 2]) == "→ DP"
    assert E.classify_relation([1, 1], [1, 2]) == "← DP"
    assert E.classify_relation([0, 3], [1, 2]) == "none"
    assert E.classify_relation([math.inf], [math.inf]) == "↔ DP"


# ---------------------------------------------------------------- §7 posteriors
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.05, 3.0))
def test_posterior_ratio_bounded_by_e_2eps(seed, eps):
    rng = np.random.default_rng(seed)
    mech = geometric_count(3, eps)
    prior = rng.dirichlet(np.ones(8))
    for o in mech.outputs:
        p = c.posterior(mech, prior, o)
        assert p.sum() == pytest.approx(1.0)
        for i in (1, 2, 3):
            for v in (0, 1):
                q = c.posterior(mech, prior, o, replace=(i, v))
                assert np.all(p <= math.exp(2 * eps) * q * (1 + 1e-12))


# ---------------------------------------------------------------- bad input
def test_cyclic_model_rejected():
    with pytest.raises(ValueError, match="cycle"):
        c.StructuralModel({"U": [0]}, {"X": (("U", "Y"), lambda u, y: y), "Y": (("X",), lambda x: x)})
    with pytest.raises(ValueError, match="own parent"):
        c.StructuralModel({"U": [0]}, {"X": (("X",), lambda x: x)})


def test_unknown_parent_and_duplicate_names():
    with pytest.raises(ValueError, match="'V'"):
        c.StructuralModel({"U": [0]}, {"X": (("V",), lambda v: v)})
    with pytest.raises(ValueError, match="both"):
        c.StructuralModel({"U": [0]}, {"U": ((), lambda: 0)})


def test_probabilities_must_sum_to_one():
    with pytest.raises(ValueError, match="sum to 1"):
        c.StructuralModel({"U": [0, 1]}, {"X": (("U",), lambda u: {0: 0.5, 1: 0.4})})
    with pytest.raises(ValueError, match="population"):
        coin_model().probability({0: 0.5, 1: 0.6}, {"Y": 1})
    with pytest.raises(ValueError, match="population"):
        c.definition_epsilon(7, geometric_count(2, EPS), np.full((2, 2), 0.3))


def test_bad_interventions():
    m = coin_model()
    with pytest.raises(ValueError, match="'Q'"):
        m.probability({0: 1.0}, {"Y": 1}, do={"Q": 1})
    with pytest.raises(ValueError, match="Y=5"):
        m.probability({0: 1.0}, {"Y": 1}, do={"Y": 5})
    with pytest.raises(ValueError, match="outside"):
        m.probability({7: 1.0}, {"Y": 1})
    with pytest.raises(ValueError, match="outside its declared domain"):
        c.StructuralModel({"U": [0, 1]}, {"X": (("U",), lambda u: u + 1)}, domains={"X": [0, 1]})


def test_bad_definition_arguments():
    mech = geometric_count(2, EPS)
    with pytest.raises(ValueError, match="number"):
        c.definition_epsilon(9, mech, np.full((2, 2), 0.25))
    with pytest.raises(ValueError, match="independent"):
        c.definition_epsilon(4, mech, np.array([[0.5, 0], [0, 0.5]]))
    with pytest.raises(ValueError, match="shape"):
        c.definition_epsilon(7, mech, np.full(4, 0.25))
    with pytest.raises(ValueError, match="number"):
        c.universal_epsilon(7, mech)
    with pytest.raises(ValueError, match="kind"):
        E.random_population(np.random.default_rng(0), kind="weird")
    with pytest.raises(ValueError, match="eps"):
        c.prog_status_model(-1.0)
    with pytest.raises(ValueError, match="copies"):
        c.survey_model(mech, copies={2: 2})
    not_full = FiniteMechanism(np.array([[1.0], [1.0]]), [(0, 0), (1, 1)], [0])
    with pytest.raises(ValueError, match="D\\^n"):
        c.survey_model(not_full)


def test_inheritance_model_interpolates_between_independent_and_copy():
    m = c.inheritance_model(EPS)
    # q = 1: Byron copies Ada, as in prog_status -> conditioning on D1 gives 2 eps
    full = c.inheritance_population(m, 1.0)
    assert max(c.log_ratio_by_value(m, full, "O", "D1", mode="given").values()) == pytest.approx(2 * EPS, rel=1e-9)
    # q = 0: independent data points -> conditioning gives the same table as intervening
    none = c.inheritance_population(m, 0.0)
    cond = c.log_ratio_by_value(m, none, "O", "D1", mode="given")
    do = c.log_ratio_by_value(m, none, "O", "D1")
    assert list(cond.values()) == pytest.approx(list(do.values()), rel=1e-12)
    # do(D1) never depends on q beyond eps
    for q in (0.0, 0.3, 1.0):
        assert c.effect_size(m, c.inheritance_population(m, q), "O", "D1") <= EPS + 1e-12
    with pytest.raises(ValueError, match="q"):
        c.inheritance_population(m, 1.5)


def test_definitions_with_three_data_points_match_sem_engine():
    rng = np.random.default_rng(21)
    for _ in range(3):
        mech = E.random_mechanism(rng, n=3, k=2, m=3)
        for kind in ("full", "sparse", "independent", "correlated"):
            P = E.random_population(rng, n=3, k=2, kind=kind)
            for d in (2, 3, 6, 7, 10):
                assert (c.definition_epsilon(d, mech, P)
                        == pytest.approx(c.definition_epsilon_sem(d, mech, P), abs=1e-12))


# ---------------------------------------------------------------- searches and the results of §2, §3, §6.3, §7, §8
def test_hill_climb_finds_a_maximum():
    rng = np.random.default_rng(0)
    x, v = E.hill_climb(lambda x: -float(np.sum((x - 1.0) ** 2)), np.zeros(2), rng, steps=200, scale=0.5)
    assert v > -0.05 and np.allclose(x, 1.0, atol=0.2)


def test_definition_pair_rows_5_and_6_use_the_structural_model():
    rng = np.random.default_rng(3)
    mech = E.random_mechanism(rng, zero_prob=0.0)
    P = E.random_population(rng, kind="sparse")
    a5, e1 = E.definition_pair(5, mech, [P])
    a6, _ = E.definition_pair(6, mech, [P])
    assert a5 == pytest.approx(e1, rel=1e-12) and a6 == pytest.approx(e1, rel=1e-12)
    assert c.definition_epsilon_sem(6, mech, P) == pytest.approx(c.definition_epsilon(6, mech, P), abs=1e-12)


@pytest.mark.parametrize("number", sorted(E.TABLE1_DIRECTION))
def test_attack_table1_row_never_breaks_the_printed_direction(number):
    a, b, labels = E.attack_table1_row(number, seed=1, mechanisms=4, climbs=1, steps=5)
    assert len(a) == len(b) == len(labels)
    direction = E.TABLE1_DIRECTION[number]
    if direction in ("le", "eq"):
        assert np.all(a <= b * (1 + 1e-9))
    if direction in ("ge", "eq"):
        assert np.all(b <= a * (1 + 1e-9))


def test_assumption_arcs_are_needed():
    arcs = E.assumption_arcs(seed=0, mechanisms=3)
    assert {a.assumption for a in arcs} == {"independent data points", "strong adversary"}
    for a in arcs:
        assert a.with_ratio == pytest.approx(1.0) and a.without_ratio == pytest.approx(2.0) and a.needed


def test_interference_is_n_eps_for_local_randomized_response():
    from dpsemantics.mechanisms import local_randomized_response

    for n in (1, 2, 3):
        assert c.interference_epsilon(local_randomized_response(n, EPS)) == pytest.approx(n * EPS, rel=1e-9)
    const = FiniteMechanism(np.tile([0.5, 0.5], (2, 1)), [(0,), (1,)], [0, 1])
    assert c.interference_epsilon(const) == 0.0


def test_adversary_learning_examples():
    count = c.adversary_learning(geometric_count(2, EPS), np.array([[0.4, 0.1], [0.1, 0.4]]))
    assert count["informed"] == pytest.approx(EPS) and EPS < count["uninformed"] < 2 * EPS
    xor = c.adversary_learning(xor_randomized_response(EPS), np.full((2, 2), 0.25))
    assert xor["uninformed"] == pytest.approx(0.0, abs=1e-12) and xor["informed"] == pytest.approx(EPS)


def test_path_effects_in_the_survey():
    eff = c.path_effects(c.prog_status_model(EPS, with_database=False), "O", "R1", direct_hold="R2", indirect_hold="D1")
    assert eff == pytest.approx({"total": 2 * EPS, "direct": EPS, "indirect": EPS})


def test_nondisclosure_epsilon():
    mech, P = c.nondisclosing_example()
    assert c.nondisclosure_epsilon(mech, P) == 0.0 and c.definition_epsilon(3, mech, P) == 0.0
    assert c.universal_epsilon(3, mech) > 0
    # randomized response on one bit, fair prior: posteriors 2p and 2(1-p) times the prior
    p = 0.7
    rr = FiniteMechanism(np.array([[p, 1 - p], [1 - p, p]]), [(0,), (1,)], [0, 1])
    assert c.nondisclosure_epsilon(rr, np.array([0.5, 0.5])) == pytest.approx(abs(math.log(2 * (1 - p))))
    with pytest.raises(ValueError, match="population"):
        c.nondisclosure_epsilon(rr, np.array([0.5, 0.5, 0.0]))


def test_experiment_interval_and_coverage():
    mech = geometric_count(3, EPS)
    est, lo, hi = E.experiment_log_ratio(mech, (1, 1, 1), (0, 1, 1), 3, 500, np.random.default_rng(0), replications=50)
    assert est.shape == (50,) and np.all(lo < est) and np.all(est < hi)
    cov = E.experiment_coverage(mech, (1, 1, 1), (0, 1, 1), 3, 400, replications=2000, seed=1)
    assert cov["truth"] == pytest.approx(EPS)
    assert abs(cov["coverage"] - 0.95) < 3 * math.sqrt(0.95 * 0.05 / 2000)
    with pytest.raises(ValueError, match="trials"):
        E.experiment_log_ratio(mech, (1, 1, 1), (0, 1, 1), 3, 0, np.random.default_rng(0))


def test_pairwise_conditional_independence():
    P = np.zeros((2, 2, 2))
    P[0, 0, 0] = P[1, 1, 1] = 0.5
    assert c.pairwise_conditionally_independent(P)  # Definition 4's printed condition admits it
    assert not c.pairwise_conditionally_independent(np.array([[0.5, 0.0], [0.0, 0.5]]))
    assert c.pairwise_conditionally_independent(np.full((2, 2, 2), 1 / 8))
    assert c.definition_epsilon(3, geometric_count(3, EPS), P) == pytest.approx(3 * EPS, rel=1e-9)


def test_moved_by_names_the_data_points_each_reading_moves():
    m = c.prog_status_model(0.5, with_database=False)
    u, data = m.uniform_population(), ["D1", "D2", "D3"]
    assert c.moved_by(m, u, "D1", data, mode="given") == ["D1", "D2"]  # Byron's data point copies Ada's
    assert c.moved_by(m, u, "D1", data) == ["D1"]
    assert c.moved_by(m, u, "R1", data) == ["D1", "D2"]
    assert c.moved_by(m, u, ("R1", "R2"), data) == ["D1", "D2"]
    assert c.moved_by(m, u, "R3", data) == ["D3"]
    with pytest.raises(ValueError, match="mode"):
        c.moved_by(m, u, "R1", data, mode="see")


def test_arc_labels_name_each_assumption_and_reject_others():
    arcs = E.assumption_arcs(seed=0, mechanisms=1)
    assert [causal_tables.arc_label(a) for a in arcs] == ["independent\ndata points", "strong\nadversary"]
    other = E.AssumptionArc("no assumption", 1.0, 2.0, "")
    with pytest.raises(ValueError, match="no assumption"):
        causal_tables.arc_label(other)


def test_mechanism_lp_finds_the_dp_worst_case_and_rejects_bad_sizes():
    from fractions import Fraction as F

    cert = E.mechanism_lp(1, 2, 2, F(3), E.neighbours(1, 2), {(1,): 1}, {(0,): 1}, F(1, 10))
    assert cert.bound == F(3, 10)  # randomized response at e^ε = 3: 𝒜(1)(0) ≤ 3·𝒜(0)(0)
    apart = E.mechanism_lp(2, 2, 2, F(2), E.neighbours(2, 2), {(1, 1): 1}, {(0, 0): 1}, F(1, 10))
    assert apart.bound == F(4, 10)  # two steps apart: e^{2ε}
    with pytest.raises(ValueError, match="m must"):
        E.mechanism_lp(1, 2, 1, F(3), [], {(1,): 1}, {(0,): 1}, F(1, 10))
    with pytest.raises(ValueError, match="exp_eps"):
        E.mechanism_lp(1, 2, 2, F(1, 2), [], {(1,): 1}, {(0,): 1}, F(1, 10))


def test_population_ratio_lp_is_the_largest_vertex_ratio():
    bound, size = E.population_ratio_lp([0.2, 0.5, 0.1], [0.4, 0.25, 0.1])
    assert bound == pytest.approx(2.0) and size == (3, 0, 1)
    assert E.population_ratio_lp([0.1, 0.0], [0.0, 0.3])[0] == math.inf
    assert E.population_ratio_lp([0.0, 0.0], [0.2, 0.3])[0] == 0.0
    with pytest.raises(ValueError, match="numerator and denominator"):
        E.population_ratio_lp([0.1], [0.1, 0.2])
