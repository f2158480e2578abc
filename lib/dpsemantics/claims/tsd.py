"""Claims of Tschantz, Sen & Datta, "Differential Privacy as a Causal Property" (paper key ``tsd``).

Effect sizes are reported in units of ε (the paper writes "2ε", "3ε"), computed at ε = 0.5 on the
models of :mod:`dpsemantics.causal` with the two-sided geometric count in place of the Laplace count.
Printed relations of Table 1 are strings ("↔ DP", "→ DP", "← DP") compared with the relation that a
seeded random sweep supports (:func:`dpsemantics.claims.causal_evidence.table1`).

Every claim that a printed relation holds returns a :class:`~dpsemantics.claims.Verdict`.  Most are
*certified* by linear programs over a whole domain (:mod:`dpsemantics.claims.causal_evidence`):

- Table 1's rows, §5.2, Proposition 1's proof and §2: over every mechanism with m outputs on kⁿ databases at
  rational e^ε, each definition reduced to pairs of databases (the reduction is written in the claim's domain);
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
from fractions import Fraction

import numpy as np

from .. import causal
from ..mechanisms import FiniteMechanism, geometric_count, randomized_response
from ..notions import xor_randomized_response
from . import Claim, Verdict
from . import causal_evidence as evidence

CHAPTER = "book/causal-view"
EPS = 0.5
SEED = 11


def _verdict(cache, evidence, *, supremum=None, supremum_from="", second=None):
    """A claim's compute from a cached ``(lhs, rhs, labels)`` search.  ``supremum``/``supremum_from``: the known
    supremum of lhs/rhs and its source; ``second``: a cached function returning ``(description, best ratio)`` of a
    second, different optimiser (best ``None`` with a description saying why there is none)."""
    def compute(tighten=1.0):
        lhs, rhs, labels = cache()
        text, best = second() if second else ("", None)
        return Verdict.of(lhs, rhs, evidence=evidence, tighten=tighten, labels=labels, supremum=supremum,
                          supremum_from=supremum_from, second=text, second_best=best)

    return compute


def _none(why):
    """No second optimiser, and why."""
    return lambda: (f"none: {why}", None)


def _nelder_mead(ratio, dim, seed, iters=120):
    """The second optimiser: scipy's Nelder–Mead on ``ratio`` (maximised) from a seeded normal start; returns its
    description and the best ratio it found."""
    from scipy.optimize import minimize

    x0 = np.random.default_rng(seed).normal(0.0, 1.0, dim)
    best = [float(ratio(x0))]

    def loss(x):
        v = float(ratio(x))
        best[0] = max(best[0], v)
        return -v

    minimize(loss, x0, method="Nelder-Mead", options={"maxiter": iters, "xatol": 1e-6, "fatol": 1e-9})
    return f"Nelder–Mead (scipy), {iters} iterations from a seeded start: best ratio {best[0]:.6g}", best[0]


# ---------------------------------------------------------------- Table 1 (strings) and its attacks


@functools.cache
def _table():
    return {r.number: r.computed for r in evidence.table1(seed=0, mechanisms=40, populations=6)}


def _relation(number):
    return lambda: _table()[number]


# ---------------------------------------------------------------- the motivating example (§1.1, §6.3)


@functools.cache
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


def _random_pops_without(value, n, k, count, rng):
    """Random populations over {0..k−1}ⁿ that never produce ``value`` (full and sparse on the rest)."""
    out = []
    for j in range(count):
        P = rng.dirichlet(np.ones(k**n)).reshape((k,) * n)
        if j % 2:
            P = P * (rng.random(P.shape) < 0.6)
        for i in range(n):
            idx = [slice(None)] * n
            idx[i] = value
            P[tuple(idx)] = 0.0
        if P.sum() == 0:
            P[(0,) * n] = 1.0
        out.append(P / P.sum())
    return out


@functools.cache
def _appendix_b_search():
    """Definition 10 at every population with Pr[D₁=2] = 0 (ε = 0: e^ε ≤ 1) and DP's ε (∞: e^{−ε} ≤ 0)."""
    mech = causal.appendix_b_mechanism()
    pops = _random_pops_without(2, 1, 3, 30, np.random.default_rng(SEED))
    lhs = [math.exp(causal.definition_epsilon(10, mech, P)) for P in pops]
    lhs += [math.exp(-causal.definition_epsilon(1, mech))]
    rhs = [1.0] * len(pops) + [0.0]
    labels = [f"population ({', '.join(f'{w:.3g}' for w in np.ravel(P))})" for P in pops]
    return np.array(lhs), np.array(rhs), labels + ["DP: e^(-ε_DP) = 0"]


def _def3_correlated_units():
    mech = geometric_count(2, EPS)
    P = np.zeros((2, 2))
    P[0, 0] = P[1, 1] = 0.5
    return causal.definition_epsilon(3, mech, P) / EPS


def _conditioning_units():
    """Largest log ratio of Pr[O=o | D1=1] to Pr[O=o | D1=0] in prog_status (independent, uniform R1, R3)."""
    m = _status()
    pop = m.uniform_population()
    rows = np.array([[m.probability(pop, {"O": o}, given={"D1": v}) for o in m.domains["O"]] for v in (0, 1)])
    return float(np.max(np.abs(np.log(rows[1]) - np.log(rows[0])))) / EPS


def _prog_a_brp_units():
    m = causal.prog_a_model(EPS, with_database=False)
    return max(causal.brp_epsilon(m, "O", f"D{i}") for i in (1, 2, 3)) / EPS


def _rr_units():
    return causal.brp_epsilon(causal.randomized_response_model(EPS, 1), "D1", "R1") / EPS


def _rr_data_to_output():
    return causal.brp_epsilon(causal.randomized_response_model(EPS, 1), "O", "D1")


def _thm1_parts(m):
    """Theorem 1's two sides: ε(X → ⟨Y,Z⟩) and ε₁ + ε₂."""
    e1 = causal.brp_epsilon(m, "Y", "X")
    e2 = max(causal.brp_epsilon(m, "Z", "X", extra_do={"Y": y}) for y in m.domains["Y"])
    return causal.brp_epsilon(m, ("Y", "Z"), "X"), e1 + e2


def _row_normalised(M):
    M = np.exp(M - M.max(axis=1, keepdims=True))
    return M / M.sum(axis=1, keepdims=True)


def _thm1_build(x):
    """A sequence model X → Y → Z from 24 log-probabilities (Y's channel, then Z's channel for each y)."""
    return causal.sequence_model([_row_normalised(x[:6].reshape(2, 3))],
                                 [_row_normalised(x[6 + 6 * y: 12 + 6 * y].reshape(2, 3)) for y in range(3)])


@functools.cache
def _thm1_second():
    return _nelder_mead(lambda x: (lambda t: t[0] / t[1] if t[1] > 0 else 0.0)(_thm1_parts(_thm1_build(x))), 24, 21)


def _post_processing_ratio(x):
    """ε(X → Z)/ε(X → Y) for Z := g(Y) with a stochastic g (3 × 3 channel) and Y's channel (2 × 3)."""
    m = causal.sequence_model([_row_normalised(x[:6].reshape(2, 3))], [_row_normalised(x[6:15].reshape(3, 3))[[v] * 2]
                                                                       for v in range(3)])
    y = causal.brp_epsilon(m, "Y", "X")
    return causal.brp_epsilon(m, "Z", "X") / y if y > 0 else 0.0


@functools.cache
def _post_processing_second():
    return _nelder_mead(_post_processing_ratio, 15, 22)


def _path_ratio(x):
    """total/(direct + indirect) for the survey with R₂ := R₁ and the mechanism of 12 log-probabilities."""
    mech = FiniteMechanism(_row_normalised(x.reshape(4, 3)), list(itertools.product((0, 1), repeat=2)), [0, 1, 2])
    eff = causal.path_effects(causal.survey_model(mech, copies={2: 1}, with_database=False), "O", "R1",
                              direct_hold="R2", indirect_hold="D1")
    total = eff["direct"] + eff["indirect"]
    return eff["total"] / total if total > 0 else 0.0


@functools.cache
def _path_second():
    return _nelder_mead(_path_ratio, 12, 23)


def _nondisclosure_ratio(x):
    mech = _mech_from_logits(x[:12].reshape(4, 3))
    P = (np.exp(x[12:]) / np.exp(x[12:]).sum()).reshape(2, 2)
    bound = 2 * causal.nondisclosure_epsilon(mech, P)
    return causal.definition_epsilon(3, mech, P) / bound if bound > 0 else 0.0


@functools.cache
def _nondisclosure_second():
    return _nelder_mead(_nondisclosure_ratio, 16, 24)


@functools.cache
def _theorem1_search():
    """Theorem 1: ε(X → ⟨Y,Z⟩) ≤ ε₁ + ε₂ on random models, local search over channels, the worked example."""
    rng = np.random.default_rng(2)
    lhs, rhs, labels = [], [], []

    parts, build = _thm1_parts, _thm1_build

    for j in range(30):
        m = evidence.random_sequence_model(rng, spread=float(rng.uniform(0.2, 2.0)))
        a, b = parts(m)
        lhs.append(a), rhs.append(b), labels.append(f"random model {j}")
    for r in range(2):
        x, _ = evidence.hill_climb(lambda x: (lambda t: t[0] / t[1])(parts(build(x))), rng.normal(0, 1, 24), rng,
                                   steps=25)
        a, b = parts(build(x))
        lhs.append(a), rhs.append(b), labels.append(f"local search {r}")
    rr = randomized_response(0.4).matrix
    release = lambda e: geometric_count(1, e, low=-2, high=3).matrix
    seq = causal.sequence_model([rr], [release(0.35), release(0.7)])
    a, b = parts(seq)
    lhs.append(a), rhs.append(b), labels.append("worked example: randomized response selects the release")
    return np.array(lhs), np.array(rhs), labels


@functools.cache
def _post_processing_search():
    rng = np.random.default_rng(4)
    lhs, rhs, labels = [], [], []
    for j in range(21):
        y = [rng.dirichlet(np.ones(3), size=2) for _ in range(2)]
        if j == 20:  # g = identity on three values: nothing is lost, the bound is attained
            z = [np.eye(3)[[v] * 2] for v in range(3)]
        else:
            g = rng.integers(0, 2, size=3)
            z = [np.eye(2)[[g[v]] * 2] for v in range(3)]
        m = causal.sequence_model(y, z)
        lhs.append(causal.brp_epsilon(m, "Z", "X")), rhs.append(causal.brp_epsilon(m, "Y", "X"))
        labels.append("Z = Y (identity)" if j == 20 else f"random deterministic g {j}")
    return np.array(lhs), np.array(rhs), labels


def _status_to_data_unbounded():
    return causal.brp_epsilon(_status(), "D2", "R2")


@functools.cache
def _breaks_association_search():
    """After do(R2=r), Pr[R1=1 | R2=r] equals the prior; when only observed it moves by at least 0.4."""
    m = _status()
    lhs, rhs, labels = [], [], []
    for p1 in (0.2, 0.5, 0.8):
        pop = m.independent_population({"R1": {0: 1 - p1, 1: p1}, "R3": {0: 0.5, 1: 0.5}})
        prior = m.probability(pop, {"R1": 1})
        for r in (0, 1):
            done = m.probability(pop, {"R1": 1}, given={"R2": r}, do={"R2": r})
            seen = m.probability(pop, {"R1": 1}, given={"R2": r})
            lhs.extend([done, prior, min(prior, 1 - prior)]), rhs.extend([prior, done, abs(seen - prior)])
            labels.extend([f"Pr[R1=1]={p1}, do(R2={r})"] * 2 + [f"Pr[R1=1]={p1}, observing R2={r} moves it"])
    return np.array(lhs), np.array(rhs), labels


# ---------------------------------------------------------------- results stated in prose (§2, §3, §6.3, §7, §8)


@functools.cache
def _informed_search():
    """§3: either adversary can learn more.  Case 1 (count, correlated data points): the informed one learns
    less; case 2 (randomized response on D₁ XOR D₂, independent data points): the uninformed one learns less."""
    count = causal.adversary_learning(geometric_count(2, EPS), np.array([[0.4, 0.1], [0.1, 0.4]]))
    xor = causal.adversary_learning(xor_randomized_response(EPS), np.full((2, 2), 0.25))
    lhs = [count["informed"], xor["uninformed"]]
    rhs = [count["uninformed"], xor["informed"]]
    labels = ["count, correlated: informed ≤ uninformed", "XOR, independent: uninformed ≤ informed"]
    return np.array(lhs), np.array(rhs), labels


@functools.cache
def _path_search():
    """§6.3: total effect ≤ direct + indirect (deterministic models), attained in the survey."""
    rng = np.random.default_rng(12)
    lhs, rhs, labels = [], [], []
    for e in (0.1, 0.5, 1.0, 2.0):
        eff = causal.path_effects(causal.prog_status_model(e, with_database=False), "O", "R1", direct_hold="R2",
                                  indirect_hold="D1")
        lhs.append(eff["total"]), rhs.append(eff["direct"] + eff["indirect"]), labels.append(f"survey, ε = {e:g}")
    for j in range(12):
        mech = evidence.random_mechanism(rng, n=2, k=2, m=3, zero_prob=0.0)
        model = causal.survey_model(mech, copies={2: 1}, with_database=False)
        eff = causal.path_effects(model, "O", "R1", direct_hold="R2", indirect_hold="D1")
        lhs.append(eff["total"]), rhs.append(eff["direct"] + eff["indirect"])
        labels.append(f"random mechanism {j}, R2 := R1")
    inherit = causal.inheritance_model(EPS)
    eff = causal.path_effects(inherit, "O", "R1", direct_hold="R2", indirect_hold="D1")
    lhs.append(eff["total"]), rhs.append(eff["direct"] + eff["indirect"]), labels.append("partial inheritance")
    return np.array(lhs), np.array(rhs), labels


@functools.cache
def _nondisclosure_search():
    """§7: statistical nondisclosure at the true population ⇒ Definition 3's check there with ε = 0;
    quantitatively ε_3(𝒫) ≤ 2·ε_SND(𝒫).  Random mechanisms and populations, local search, randomized
    response near ½ (the ratio tends to 1).  Exactly nondisclosing populations give 0 ≤ 0, a case that
    cannot be tightened, so they are shown in the chapter (:func:`dpsemantics.causal.nondisclosing_example`), not
    counted here."""
    rng = np.random.default_rng(13)
    lhs, rhs, labels = [], [], []

    def add(mech, P, label):
        lhs.append(causal.definition_epsilon(3, mech, P)), rhs.append(2 * causal.nondisclosure_epsilon(mech, P))
        labels.append(label)

    def build(x):
        mech = _mech_from_logits(x[:12].reshape(4, 3))
        P = np.exp(x[12:]) / np.exp(x[12:]).sum()
        return mech, P.reshape(2, 2)

    for j in range(15):
        x = rng.normal(0, 1, 16)
        add(*build(x), f"random mechanism and population {j}")
    for r in range(2):
        obj = lambda x: (lambda mp: causal.definition_epsilon(3, *mp)  # noqa: E731
                         / max(2 * causal.nondisclosure_epsilon(*mp), 1e-300))(build(x))
        x, _ = evidence.hill_climb(obj, rng.normal(0, 1, 16), rng, steps=30)
        add(*build(x), f"local search {r}")
    for p in (0.9, 0.6, 0.51):
        rr = FiniteMechanism(np.array([[p, 1 - p], [1 - p, p]]), [(0,), (1,)], [0, 1])
        add(rr, np.array([0.5, 0.5]), f"randomized response, Pr[truth] = {p}, one data point")
    return np.array(lhs), np.array(rhs), labels


@functools.cache
def _bayesian0_without_independence():
    """§7's reason, 'both are equivalent to requiring independence between D and O': randomized response on
    D₁ ⊕ D₂ with D₁, D₂ independent fair bits passes Definition 3's check with ε = 0 at that population (each
    Pr[O | D_i] is ½), yet D and O are dependent: lhs the nondisclosure ε (0 iff independent), rhs the ε of
    Definition 3's check, which independence would bound it by (0)."""
    lhs, rhs, labels = [], [], []
    population = np.full((2, 2), 0.25)
    dbs = [(0, 0), (0, 1), (1, 0), (1, 1)]
    for eps in (0.1, 0.5, 2.0):
        keep = 1 / (1 + math.exp(-eps))
        rows = [[keep, 1 - keep] if a == b else [1 - keep, keep] for a, b in dbs]
        mech = FiniteMechanism(np.array(rows), dbs, [0, 1])
        posterior_00 = keep * 0.25 / 0.5
        lhs.append(causal.nondisclosure_epsilon(mech, population))
        rhs.append(causal.definition_epsilon(3, mech, population))
        labels.append(f"randomized response on D1 xor D2, eps={eps}: Definition 3 at eps=0, yet "
                      f"Pr[D=(0,0) | O=0] = {posterior_00:.3f} against the prior 0.25")
    return np.array(lhs), np.array(rhs), labels


def _mech_from_logits(logits):
    M = np.exp(logits - logits.max(axis=1, keepdims=True))
    return FiniteMechanism(M / M.sum(axis=1, keepdims=True), list(itertools.product((0, 1), repeat=2)), [0, 1, 2])


#: the §8 experiment: the ε-DP count on three data points, Ada's data point changed, top output
EXPERIMENT = {"first": (1, 1, 1), "second": (0, 1, 1), "output": 3, "trials": (100, 400, 1600),
              "replications": 4000, "level": 0.95}


#: the miscoverage a correct interval has (α), as a fraction of the allowed α + 3 standard errors
_EXPERIMENT_SUPREMUM = (1 - EXPERIMENT["level"]) / (1 - EXPERIMENT["level"] + 3 * math.sqrt(
    EXPERIMENT["level"] * (1 - EXPERIMENT["level"]) / EXPERIMENT["replications"]))


@functools.cache
def _experiment_search():
    mech = geometric_count(3, EPS)
    alpha, R = 1 - EXPERIMENT["level"], EXPERIMENT["replications"]
    lhs, labels = [], []
    for t in EXPERIMENT["trials"]:
        cov = evidence.experiment_coverage(mech, EXPERIMENT["first"], EXPERIMENT["second"], EXPERIMENT["output"], t,
                                         replications=R, level=EXPERIMENT["level"], seed=SEED + t)
        lhs.append(1 - cov["coverage"])
        labels.append(f"{t} runs per arm: miscoverage {1 - cov['coverage']:.4f}")
    allowed = alpha + 3 * math.sqrt(alpha * (1 - alpha) / R)
    return np.array(lhs), np.full(len(lhs), allowed), labels


# ---------------------------------------------------------------- certificates: LPs over whole domains


def _certified(cache):
    """A claim's compute from a cached certified ``(lhs, rhs, labels, domain, certificate)``."""
    def compute(tighten=1.0):
        lhs, rhs, labels, domain, certificate = cache()
        return Verdict.of(lhs, rhs, evidence="certified-lp", tighten=tighten, labels=labels, domain=domain,
                          certificate=certificate)

    return compute


#: the rational e^ε at which the mechanism LPs are solved, and the normalised probability q = 𝒜(d′)(0)
LP_EXP_EPS = (Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(5))
LP_Q = Fraction(1, 50)


@functools.cache
def _pair_lp(n, k, m, exp_eps, pair, hypothesis="dp"):
    """max 𝒜(d)(0) s.t. 𝒜(d′)(0) = q over every mechanism on {0..k−1}ⁿ with m outputs meeting ``hypothesis``
    (``"dp"``: e^ε-ratio on neighbours; ``"all"``: on every pair of databases, interference ε)."""
    hyp = evidence.neighbours(n, k) if hypothesis == "dp" else [
        (a, b) for a in itertools.product(range(k), repeat=n) for b in itertools.product(range(k), repeat=n) if a != b]
    d, d2 = pair
    return evidence.mechanism_lp(n, k, m, exp_eps, hyp, {d: 1}, {d2: 1}, LP_Q)


def _mechanism_cases(n, k, m, *, pairs=None, weighted=(), hypothesis="dp", distance=1):
    """LPs over every mechanism with m outputs on {0..k−1}ⁿ (at each e^ε of :data:`LP_EXP_EPS`): for every ordered
    pair at Hamming ``distance`` (all pairs at the middle e^ε, one pair per orbit of the value/coordinate symmetry
    at the others), the worst 𝒜(d)(0) given 𝒜(d′)(0) = q, against e^{distance·ε}·q; ``weighted`` adds populations
    (weights over d₋₁) at which Pr[O=0 | do(D₁=0)] is maximised given Pr[O=0 | do(D₁=1)] = q."""
    lhs, rhs, labels, sizes = [], [], [], set()
    all_pairs = pairs or evidence.neighbours(n, k, distance)
    for E in LP_EXP_EPS:
        chosen = all_pairs if E == Fraction(3, 2) else all_pairs[:1]
        for pair in chosen:
            cert = _pair_lp(n, k, m, E, pair, hypothesis)
            sizes.add(cert.size)
            lhs.append(float(cert.bound)), rhs.append(float(min(E**distance * LP_Q, 1)))
            labels.append(f"e^ε = {E}: worst 𝒜{pair[0]}(0) given 𝒜{pair[1]}(0) = {LP_Q}")
        for j, w in enumerate(weighted):
            hyp = evidence.neighbours(n, k)
            obj = {(0,) + u: wu for u, wu in zip(itertools.product(range(k), repeat=n - 1), w)}
            nor = {(1,) + u: wu for u, wu in zip(itertools.product(range(k), repeat=n - 1), w)}
            cert = evidence.mechanism_lp(n, k, m, E, hyp, obj, nor, LP_Q)
            sizes.add(cert.size)
            lhs.append(float(cert.bound)), rhs.append(float(E * LP_Q))
            weights = ", ".join(str(x) for x in w)
            labels.append(f"e^ε = {E}: population {j} (weights {weights} on D₂), Pr[O=0 | do(D₁=0)] "
                          f"given Pr[O=0 | do(D₁=1)] = {LP_Q}")
    return lhs, rhs, labels, sizes


def _lp_text(count, sizes):
    from .certify import lp_sizes

    return (f"{count} LPs of sizes {lp_sizes(sizes)} (HiGHS), each bounded by an exact-rational dual checked with "
            "fractions")


#: each Table 1 row's reduction to the pair LPs: why the worst case over its whole class is a pair of databases
_TABLE1_REDUCTION = {
    2: "Def. 2 conditions on the whole database: at any population Pr[O | D=d] = 𝒜(d) where Pr[D=d] > 0, and a "
       "full-support population makes every neighbour pair visible — both directions are the pair LPs",
    3: "Def. 3 at the population ½ on ⟨d₋ᵢ, v⟩ and ½ on ⟨d₋ᵢ, v′⟩ is DP's inequality for that pair, so a mechanism "
       "meeting Def. 3 meets every pair constraint: the pair LPs bound DP's ratio by e^ε",
    4: "Def. 4 (independent data points): Pr[O | Dᵢ=v] = Σ 𝒫₋ᵢ(u) 𝒜(u, v) is linear in 𝒫₋ᵢ, so its ratio is largest "
       "at a point-mass 𝒫₋ᵢ (also independent), where it is a pair ratio — both directions are the pair LPs; "
       "weighted populations are solved directly as well",
    5: "Def. 5: Pr[O | do(D=d)] = 𝒜(d) at every population (Lemma 1), so both directions are the pair LPs",
    6: "Def. 6: Pr[O | do(D=d)] = 𝒜(d) at the given population (Lemma 1), so both directions are the pair LPs",
    7: "Def. 7 (DP ⇒ it): Pr[O | do(Dᵢ=v)] = Σ 𝒫(u) 𝒜(u, v) (Lemma 2) is linear in 𝒫, its ratio largest at a point "
       "mass, a pair ratio; weighted populations are solved directly as well",
    8: "Def. 8: Lemma 2 makes its ratio largest at a point-mass population, where it is a pair ratio; point masses "
       "belong to its 'every population', so both directions are the pair LPs",
    10: "Def. 10 (DP ⇒ it): at any population Pr[O | D=d] = 𝒜(d) where Pr[D=d] > 0, a pair ratio",
}


@functools.cache
def _table1_certificate(number):
    """Table 1 row ``number`` on every mechanism with 3 outputs on {0,1,2}² (n = 2, k = 3), at rational e^ε:
    the directions the paper states, through the reduction in :data:`_TABLE1_REDUCTION`."""
    weighted = ((Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)), (Fraction(7, 10), Fraction(1, 5), Fraction(1, 10))) \
        if number in (4, 7, 8) else ()
    lhs, rhs, labels, sizes = _mechanism_cases(2, 3, 3, weighted=weighted)
    direction = evidence.TABLE1_DIRECTION[number]
    which = {"eq": "both directions (the same LPs)", "le": "DP ⇒ the definition",
             "ge": "the definition ⇒ DP"}[direction]
    domain = (f"every mechanism with 3 outputs on {{0,1,2}}² and every population, at e^ε ∈ "
              f"{{{', '.join(map(str, LP_EXP_EPS))}}}; {which}. Reduction: {_TABLE1_REDUCTION[number]}")
    return lhs, rhs, labels, domain, _lp_text(len(lhs), sizes)


@functools.cache
def _pairs_certificate(n, where, why):
    """A statement whose every instance is a pair of databases (``why``): the pair LPs over every mechanism with
    3 outputs on {0,1,2}ⁿ.  §5.2 (n = 1): Pr[O | do(D₁=v)] = 𝒜(v) at every population (Lemma 1), and every pair of
    databases is a neighbour pair.  Proposition 1's proof (n = 2): at one full-support population
    Pr[O | D=d] = 𝒜(d) for every d."""
    lhs, rhs, labels, sizes = _mechanism_cases(n, 3, 3)
    domain = (f"every mechanism with 3 outputs on {where}, at e^ε ∈ {{{', '.join(map(str, LP_EXP_EPS))}}}; "
              f"both directions ({why})")
    return lhs, rhs, labels, domain, _lp_text(len(lhs), sizes)


@functools.cache
def _noninterference_certificate():
    """§2: interference ε ≤ n·ε_DP (worst 𝒜(d)(0) over ε-DP mechanisms, d and d′ at distance n = 2: e^{2ε}·q) and
    ε_DP ≤ interference ε (worst over mechanisms with e^ε on every pair, d and d′ neighbours: e^ε·q)."""
    lhs, rhs, labels, sizes = _mechanism_cases(2, 2, 3, distance=2)
    labels = [f"interference ≤ 2·ε_DP: {x}" for x in labels]
    l2, r2, lab2, s2 = _mechanism_cases(2, 2, 3, hypothesis="all")
    lhs, rhs, labels = lhs + l2, rhs + r2, labels + [f"ε_DP ≤ interference: {x}" for x in lab2]
    domain = (f"every mechanism with 3 outputs on {{0,1}}² (n = 2), at e^ε ∈ {{{', '.join(map(str, LP_EXP_EPS))}}}: "
              "both inequalities; at ε = 0 both sides are 0 (noninterference)")
    return lhs, rhs, labels, domain, _lp_text(len(lhs), sizes | s2)


@functools.cache
def _arcs_certificate():
    """Figure 2's arcs (d) and (e): with either assumption the worst ratio over every ε-DP mechanism is e^ε (Table 1's
    rows 4 and 10, certified by the same pair LPs); without one, the LP at the population ½ on (0, 0), ½ on (1, 1)
    (Definition 3's check, correlated data points) reaches e^{2ε}·q, above DP's e^ε·q (lhs DP's bound, rhs the LP's
    primal, a mechanism that attains it)."""
    lhs, rhs, labels, sizes = _mechanism_cases(2, 3, 3)
    labels = [f"with either assumption: {x}" for x in labels]
    for E in LP_EXP_EPS[:3]:
        cert = evidence.mechanism_lp(2, 3, 3, E, evidence.neighbours(2, 3), {(1, 1): 1}, {(0, 0): 1}, LP_Q)
        sizes.add(cert.size)
        lhs.append(float(E * LP_Q)), rhs.append(cert.primal)
        labels.append(f"without: e^ε = {E}, correlated population, DP's e^ε·q against the worst ε-DP mechanism's "
                      f"Pr[O=0 | D₁=1] given Pr[O=0 | D₁=0] = {LP_Q}")
    domain = (f"every mechanism with 3 outputs on {{0,1,2}}² at e^ε ∈ {{{', '.join(map(str, LP_EXP_EPS))}}}: with "
              "either assumption through Table 1's reductions for Definitions 4 and 10; without, at the correlated "
              "population ½ on (0,0), ½ on (1,1)")
    return lhs, rhs, labels, domain, _lp_text(len(lhs), sizes)


def _population_lps(cases):
    """``cases``: (label, a, b, bound): the sup over populations of Σ𝒫(u)a_u / Σ𝒫(u)b_u (a_u, b_u at the point
    masses) against ``bound``, each by :func:`~dpsemantics.claims.causal_evidence.population_ratio_lp`."""
    lhs, rhs, labels, sizes = [], [], [], set()
    for label, a, b, bound in cases:
        value, size = evidence.population_ratio_lp(a, b)
        sizes.add(size)
        lhs.append(value), rhs.append(bound), labels.append(label)
    return lhs, rhs, labels, sizes


def _equal_both_ways(label, a, b):
    """An identity of two linear functions of 𝒫: each ratio's supremum over populations at most 1."""
    return [(f"{label}: left/right", a, b, 1.0), (f"{label}: right/left", b, a, 1.0)]


def _probabilities(model, pops, effect, value, **kw):
    """Pr[effect = value | …] at each population (0 for a value the model never produces)."""
    if value not in model.domains[effect]:
        return [0.0] * len(pops)
    return [model.probability(p, {effect: value}, **kw) for p in pops]


@functools.cache
def _prop4_half_certificate():
    """Prop. 4: Pr[O=o | do(Dᵢ=v)] = ½ at every population with Pr[D₁=2] = Pr[D₂=2] = 0 (their point masses are
    the four databases in {0,1}²); and Def. 7 holds there with ε = 0 (every ratio ≤ 1)."""
    model = causal.survey_model(causal.proposition4_mechanism())
    pops = [{u: 1.0} for u in itertools.product((0, 1), repeat=2)]
    cases = []
    for i, v, o in itertools.product((1, 2), range(3), (0, 1)):
        p = _probabilities(model, pops, "O", o, do={f"D{i}": v})
        cases += _equal_both_ways(f"Pr[O={o} | do(D{i}={v})] = ½", p, [0.5] * len(pops))
    lhs, rhs, labels, sizes = _population_lps(cases)
    return (lhs, rhs, labels, "every population with Pr[D₁=2] = Pr[D₂=2] = 0 (a linear function of 𝒫 is bounded "
            "at the point masses)", _lp_text(len(lhs), sizes))


@functools.cache
def _prop4_separates_certificate():
    model = causal.survey_model(causal.proposition4_mechanism())
    pops = [{u: 1.0} for u in itertools.product((0, 1), repeat=2)]
    cases = []
    for i, o in itertools.product((1, 2), (0, 1)):
        for v, v2 in itertools.permutations(range(3), 2):
            cases.append((f"Def. 7 at ε = 0: Pr[O={o} | do(D{i}={v})] / Pr[O={o} | do(D{i}={v2})]",
                          _probabilities(model, pops, "O", o, do={f"D{i}": v}),
                          _probabilities(model, pops, "O", o, do={f"D{i}": v2}), 1.0))
    lhs, rhs, labels, sizes = _population_lps(cases)
    mech = causal.proposition4_mechanism()
    not_dp = mech.row((2, 2))[1] == 0 < mech.row((0, 2))[1]
    lhs.append(1.0 if not_dp else 2.0), rhs.append(1.0)
    labels.append("not DP for any ε: 𝒜(⟨2,2⟩)(1) = 0 < 𝒜(⟨0,2⟩)(1) = ½ (exact)")
    return (lhs, rhs, labels, "every population with Pr[D₁=2] = Pr[D₂=2] = 0; every ordered pair of values and output",
            _lp_text(len(lhs) - 1, sizes))


def _small_mechanisms():
    """Every deterministic mechanism from {0,1}² to {0,1} (the vertices of the polytope of mechanisms: the
    probabilities below are bilinear in population and mechanism) and two random ones with three outputs."""
    dbs = list(itertools.product((0, 1), repeat=2))
    out = [FiniteMechanism(np.eye(2)[list(bits)], dbs, [0, 1]) for bits in itertools.product((0, 1), repeat=4)]
    rng = np.random.default_rng(5)
    return out + [evidence.random_mechanism(rng, n=2, k=2, m=3, zero_prob=0.0) for _ in range(2)]


_SMALL_DOMAIN = ("every population and every mechanism on two binary data points with two outputs (both sides are "
                 "bilinear in population and mechanism: point masses × the 16 deterministic mechanisms), and two "
                 "random mechanisms with three outputs at every population")


@functools.cache
def _lemma_certificate(which):
    """Lemma 1 (eq. 44), Lemma 2 (eq. 78) and Lemma 2 as printed (eqs. 59–60, the unweighted sum) against the
    engine's do() queries, as identities of linear functions of 𝒫."""
    cases = []
    for j, mech in enumerate(_small_mechanisms()):
        model = causal.survey_model(mech)
        pops = model.point_populations()
        for o in mech.outputs:
            if which == "lemma1":
                for db in mech.databases:
                    engine = _probabilities(model, pops, "O", o, do={"D1": db[0], "D2": db[1]})
                    cases += _equal_both_ways(f"mechanism {j}, do(D={db}), O={o}", engine,
                                              [mech.row(db)[mech.outputs.index(o)]] * len(pops))
                continue
            for i, v in itertools.product((0, 1), (0, 1)):
                engine = _probabilities(model, pops, "O", o, do={f"D{i + 1}": v})
                idx = mech.outputs.index(o)
                if which == "lemma2":
                    # at the point mass u, Σ Pr[D₋ᵢ = d₋ᵢ] 𝒜(d₋ᵢ, v) is 𝒜(u₋ᵢ, v)
                    formula = [mech.row(tuple(v if t == i else u[t] for t in range(2)))[idx] for u in
                               (next(iter(p)) for p in pops)]
                else:
                    total = sum(mech.row(tuple(v if t == i else w for t in range(2)))[idx] for w in (0, 1))
                    formula = [total] * len(pops)
                cases += _equal_both_ways(f"mechanism {j}, do(D{i + 1}={v}), O={o}", engine, formula)
    lhs, rhs, labels, sizes = _population_lps(cases)
    return lhs, rhs, labels, _SMALL_DOMAIN, _lp_text(len(lhs), sizes)


@functools.cache
def _downstream_certificate():
    m = causal.prog_status_model(EPS)
    pops = m.point_populations()
    cases = []
    for o in m.domains["O"]:
        for d in itertools.product((0, 1), repeat=2):
            event = {"D1": d[0], "D2": d[1]}
            cases += _equal_both_ways(f"do(O={o}), D={d}", [m.probability(p, event, do={"O": o}) for p in pops],
                                      [m.probability(p, event) for p in pops])
    lhs, rhs, labels, sizes = _population_lps(cases)
    return lhs, rhs, labels, "every population of prog_status (R₁, R₃), every output and database", \
        _lp_text(len(lhs), sizes)


@functools.cache
def _associated_certificate():
    m = causal.prog_status_model(EPS)
    pops = m.point_populations()
    equal = [m.probability(p, lambda a: a["D1"] == a["D2"]) for p in pops]
    cases = [("1 ≤ Pr[D1 = D2]", [1.0] * len(pops), equal, 1.0)]
    for v in (0, 1):
        cases += _equal_both_ways(f"Pr[D2=1 | do(D1={v})] = Pr[D2=1]", _probabilities(m, pops, "D2", 1, do={"D1": v}),
                                  _probabilities(m, pops, "D2", 1))
    lhs, rhs, labels, sizes = _population_lps(cases)
    return lhs, rhs, labels, "every population of prog_status (R₁, R₃)", _lp_text(len(lhs), sizes)


@functools.cache
def _data_point_any_relation_certificate():
    """§1.1: the effect of D₁ on O is at most ε at every population of the inheritance model (any relation between
    the statuses: any joint law of R₁, U₂, C, R₃), and attained."""
    bound, attained, lps = evidence.worst_interventional_ratio(causal.inheritance_model(EPS), "O", "D1")
    lhs = [bound, math.exp(EPS)]
    rhs = [math.exp(EPS), attained]
    labels = ["sup over populations of Pr[O=o | do(D1=v)]/Pr[O=o | do(D1=v′)] ≤ e^ε",
              "e^ε ≤ the ratio at a point-mass population (attained)"]
    return lhs, rhs, labels, \
        f"every population of the inheritance model (every joint law of R₁, U₂, C, R₃), ε = {EPS}", \
        f"{lps} LPs of size 16/0/1 (HiGHS), each bounded by an exact-rational dual checked with fractions"


@functools.cache
def _rr_relatives_certificate():
    lhs, rhs, labels, total = [], [], [], 0
    for k in range(5):
        bound, attained, lps = evidence.worst_interventional_ratio(causal.randomized_response_model(EPS, k), "O", "R1")
        total += lps
        lhs += [bound, math.exp((k + 1) * EPS)]
        rhs += [math.exp((k + 1) * EPS), attained]
        labels += [f"{k} relatives: sup ratio ≤ e^{{(k+1)ε}}", f"{k} relatives: e^{{(k+1)ε}} attained at a point mass"]
    return lhs, rhs, labels, f"every population of the randomized-response model with k = 0..4 relatives, ε = {EPS}", \
        f"{total} LPs (HiGHS), each bounded by an exact-rational dual checked with fractions"


@functools.cache
def _definition9_certificate():
    bound, attained, lps = evidence.worst_interventional_ratio(causal.prog_a_model(EPS, with_database=False), "O", "D1")
    return [bound], [math.exp(-1)], ["prog_A: sup over populations of RP̄(O, D1) against the printed e^{-1}"], \
        f"every population of prog_A, ε = {EPS}", f"{lps} LPs (HiGHS), each bounded by an exact-rational dual"


@functools.cache
def _def4_printed_certificate():
    """Def. 4's printed condition admits the population with all three data points equal; there Pr[O | D₁=v] =
    𝒜(v, v, v), so the worst ε-DP mechanism on {0,1}³ reaches e^{3ε} (the LP over every such mechanism)."""
    lhs, rhs, labels, sizes = [], [], [], set()
    for E in LP_EXP_EPS[:3]:
        cert = evidence.mechanism_lp(3, 2, 2, E, evidence.neighbours(3, 2), {(1, 1, 1): 1}, {(0, 0, 0): 1}, LP_Q)
        sizes.add(cert.size)
        lhs.append(cert.primal), rhs.append(float(E * LP_Q))
        labels.append(f"e^ε = {E}: worst Pr[O=0 | D₁=1] given Pr[O=0 | D₁=0] = {LP_Q}, all data points equal "
                      f"(attains e^(3ε)·q = {float(E ** 3 * LP_Q):.4g})")
    return lhs, rhs, labels, \
        "every ε-DP mechanism with 2 outputs on {0,1}³, at the all-equal population (which meets " \
        "the printed condition)", _lp_text(len(lhs), sizes) + "; the primal values are attained"


# ---------------------------------------------------------------- slips of the text (issue 20): each computed


def _slip(lhs, rhs, labels, evidence="extremal"):
    """A slip's check: the printed form against what the argument needs (refuted when the slip matters)."""
    return lambda tighten=1.0: Verdict.of(lhs(), rhs, evidence=evidence, tighten=tighten, labels=labels,
                                          second="none: a counterexample to the text as printed, computed exactly")


def _eq7_as_printed():
    """Eq. (7) with dᵢ on both sides has ε = 0 for every mechanism; for DP's inequality it would be ε_DP (∞ for the
    mechanisms of eqs. 18–19 and 31–33, which are not DP)."""
    out = []
    for mech in (causal.appendix_b_mechanism(), causal.proposition4_mechanism()):
        M = np.asarray(mech.matrix, float)
        printed = float(np.max(np.log(M[M > 0] / M[M > 0])))  # the same row on both sides
        out.append(causal.definition_epsilon(1, mech) - printed)
    return out


def _appendix_b_reference():
    """Appendix B cites (3), Definition 2's inequality; for the mechanism of eqs. (31)–(33) its ε (over every
    population) is ∞, while Definition 10's inequality (30) at the population holds with ε = 0."""
    mech = causal.appendix_b_mechanism()
    pop = np.array([0.5, 0.5, 0.0])
    return [causal.universal_epsilon(2, mech) - causal.definition_epsilon(10, mech, pop)]


def _recursive():
    """Appendix C calls M^𝒜 'non-recursive'; its equations have a causal order (the engine finds one), so it is
    recursive, as §4 requires — which is what makes the bottom-up computation possible."""
    model = causal.survey_model(geometric_count(3, EPS))
    return "recursive" if model.order else "non-recursive"


def _theorem1_condition():
    """Theorem 1's proof applies Property 1 'for any y such that Pr[Y=y] > 0' and then divides by
    Pr[Y=y | do(X=x)].  Y := X with X uniform: Pr[Y=1] = ½ > 0, yet Pr[Y=1 | do(X=0)] = 0.  lhs: 1 where
    Pr[Y=y] > 0; rhs: 1 where Pr[Y=y | do(X=x)] > 0 (the condition the step needs)."""
    model = causal.sequence_model([np.eye(2)], [np.eye(2), np.eye(2)])
    pop = model.uniform_population()
    out = []
    for y, x in itertools.product((0, 1), (0, 1)):
        seen = model.probability(pop, {"Y": y}) > 0
        done = model.probability(pop, {"Y": y}, do={"X": x}) > 0
        out.append(float(seen) - float(done))
    return out


def _game_i_posteriors(replace_index, printed_denominator, prior=(0.25, 0.25, 0.25, 0.25), d=(1, 1)):
    """§7's posterior of D = ``d`` when one person (component ``replace_index``) gives 0 instead: the ε-DP count on
    two data points, output 2, ``prior`` over (0,0), (0,1), (1,0), (1,1).  ``printed_denominator``: the
    denominator as printed (d₋ᵢ fixed inside the sum over d′)."""
    mech = geometric_count(2, EPS)
    dbs = list(itertools.product((0, 1), repeat=2))
    prior = dict(zip(dbs, prior))

    def swap(d):
        return tuple(0 if t == replace_index else v for t, v in enumerate(d))

    o = 2
    num = mech.row(swap(d))[o] * prior[d]
    den = sum((mech.row(swap(d)) if printed_denominator else mech.row(swap(e)))[o] * prior[e] for e in dbs)
    return num / den


def _game_i_denominator():
    """As printed the denominator's mechanism term does not depend on the summation variable, so the expression is
    the prior Cr[D=d | B] = ¼ whatever the output: lhs |printed − intended|, against 0."""
    return [abs(_game_i_posteriors(1, True) - _game_i_posteriors(1, False))]


def _minus_one_index():
    """'d₋₁d′ᵢ' replaces component 1, 'd with its i-th component replaced' component i (i = 2): different posteriors."""
    skewed = dict(prior=(0.1, 0.2, 0.3, 0.4), d=(1, 0))
    return [abs(_game_i_posteriors(0, False, **skewed) - _game_i_posteriors(1, False, **skewed))]


def _section4_index():
    """§4 defines Pr[O=o | Dᵢ=pos] as 'conditioned upon seeing D₁ = pos' (and 𝓜[Dᵢ := pos] as 'the line assigning
    R₁ to D₁ replaced'): in prog_status the two differ for i = 3 (uniform R₁, R₃)."""
    m = causal.prog_status_model(EPS)
    pop = m.uniform_population()
    return [max(abs(m.probability(pop, {"O": o}, given={"D3": 1}) - m.probability(pop, {"O": o}, given={"D1": 1}))
                for o in m.domains["O"])]


def _prop4_eq16():
    """Proposition 4's proof, eq. (16): Σ_{d₋ₙ} Pr[𝒜(d₋ₙ, dₙ)=o] (no population weights) is then read as
    Pr[O=o | do(Dₙ=dₙ)] 'by Lemma 2' to reach (17).  For the ε-DP count on three data points at the uniform
    population the unweighted sum is 4 times the interventional probability: lhs the sum, rhs the probability."""
    mech = geometric_count(3, EPS)
    model = causal.survey_model(mech)
    pop = model.uniform_population()
    lhs, rhs = [], []
    for o in mech.outputs:
        lhs.append(sum(mech.row(rest + (1,))[mech.outputs.index(o)] for rest in itertools.product((0, 1), repeat=2)))
        rhs.append(model.probability(pop, {"O": o}, do={"D3": 1}))
    return lhs, rhs


def _slip_claim(cid, where, statement, check, *, note, finding="typo"):
    """A slip of the text: a relation whose printed form the check refutes (a discrepancy with a finding)."""
    return Claim(cid, "tsd", where, statement, True, check, expected="discrepancy", finding=finding, chapter=CHAPTER,
                 note=note)


SLIPS = [
    _slip_claim("tsd-prop1-eq7-as-printed", "§3, proof of Proposition 1, eq. (7)",
                "Eq. (7) as printed, Pr[𝒜(⟨d₁,…,dᵢ,…,dₙ⟩)=o] ≤ e^ε Pr[𝒜(⟨d₁,…,dᵢ,…,dₙ⟩)=o], is Definition 1's "
                "inequality (checked as ε_DP ≤ the ε of (7) for two mechanisms that are not DP)",
                _slip(_eq7_as_printed, [0.0, 0.0],
                      ["eqs. (31)–(33): ε_DP − ε of (7)", "eqs. (18)–(19): ε_DP − ε of (7)"]),
                note="The right side should have d′ᵢ: as printed both sides are the same probability, so (7) holds for "
                     "every mechanism (ε = 0) and cannot conclude Definition 1; the two non-DP mechanisms have ε_DP = "
                     "∞. The proof then ends 'Definition 1 holds' twice. With d′ᵢ the step is right "
                     "(tsd-table1-def2-attack is certified)."),
    _slip_claim("tsd-appB-cites-eq3", "Appendix B, after eq. (33)",
                "Eqs. (34)–(35) follow 'using (3)', and '(3) says nothing about D₁ = 2': the inequality cited, (3), "
                "holds for the mechanism of eqs. (31)–(33) with the ε that the population's check gives (checked as ε "
                "of (3) − ε of (30) ≤ 0)",
                _slip(_appendix_b_reference, [0.0], ["ε of (3) over every population minus ε of (30) at Pr[D₁=2] = 0"]),
                note="(3) is Definition 2's inequality, which quantifies over every population and fails for this "
                     "mechanism (ε = ∞). The argument uses Definition 10's inequality (30) at the one population, "
                     "which holds with ε = 0, and the conditioning that gives (34)–(35): the reference should be "
                     "(30)."),
    Claim("tsd-appC-recursive", "tsd", "Appendix C, before eq. (36)",
          "'Since the SEM is non-recursive this can be calculated in a bottom up fashion'",
          "non-recursive", _recursive, expected="discrepancy", finding="typo", chapter=CHAPTER,
          note="§4 restricts the paper to recursive SEMs (an order with no variable before its parents), and only that "
               "order makes the bottom-up computation possible; the engine finds it for 𝓜^𝒜 (a cyclic model is "
               "rejected). 'Non-recursive' should read 'recursive'."),
    _slip_claim("tsd-thm1-proof-condition", "§6.2, proof of Theorem 1",
                "Property 1 is applied 'for any y such that Pr[Y=y] > 0', which makes Pr[Z=z | Y=y, do(X=x)] defined "
                "(checked as 1[Pr[Y=y] > 0] ≤ 1[Pr[Y=y | do(X=x)] > 0] in the model Y := X, X uniform)",
                _slip(_theorem1_condition, [0.0] * 4,
                      [f"y={y}, do(X={x})" for y, x in itertools.product((0, 1), (0, 1))]), finding="proof-gap",
                note="The step conditions on Y = y under do(X = x), so it needs Pr[Y=y | do(X=x)] > 0, not Pr[Y=y] > "
                     "0: with Y := X and X uniform, Pr[Y=1] = ½ but Pr[Y=1 | do(X=0)] = 0. The theorem stands: when "
                     "Pr[Y=y | do(X=x′)] = 0, ε₁-BRP forces Pr[Y=y | do(X=x)] = 0 too and both sides of the last "
                     "inequality are 0 (tsd-thm1-composition)."),
    _slip_claim("tsd-s7-game-i-denominator", "§7, the posterior 'where person i does not provide data'",
                "The printed posterior Pr[𝒜(d₋ᵢd′ᵢ)=o]·Cr[D=d | B] / Σ_d′ Pr[𝒜(d₋ᵢd′ᵢ)=o]·Cr[D=d′ | B] is "
                "Kasiviswanathan and Smith's Game-i posterior (checked as |printed − Game i| ≤ 0: ε-DP count, n = 2, "
                "uniform prior)",
                _slip(_game_i_denominator, [0.0], ["d = (1, 1), o = 2, person 2 gives 0"]),
                note="Inside the sum the mechanism's argument must vary with d′ (𝒜(d′₋ᵢd′ᵢ)); as printed it is the "
                     "fixed 𝒜(d₋ᵢd′ᵢ), the factor cancels and the expression is the prior Cr[D=d | B] = ¼ whatever the "
                     "output, against the Game-i posterior 0.3112 here."),
    _slip_claim("tsd-s7-d-minus-one", "§7, after the posterior",
                "'d₋₁d′ᵢ is shorthand for d with its i-th component replaced with d′ᵢ' (checked as the posteriors with "
                "component 1 and component i = 2 replaced being equal; ε-DP count, n = 2, a prior that is not "
                "symmetric)",
                _slip(_minus_one_index, [0.0],
                      ["prior (0.1, 0.2, 0.3, 0.4), d = (1, 0), o = 2, d′ = 0: component 1 against component 2"]),
                note="The subscript should be −i, as in the formula above it (d₋ᵢd′ᵢ); replacing component 1 instead "
                     "of i gives another posterior whenever the prior is not symmetric in the two data points: 0.2159 "
                     "(component 1 replaced) against 0.3402 (component 2) here."),
    _slip_claim("tsd-s4-conditioning-index", "§4, the probabilities in the model of prog_status",
                "'Pr[O=o | Dᵢ=pos] is that probability conditioned upon seeing D₁ = pos' (and 𝓜[Dᵢ := pos] replaces "
                "'the line assigning R₁ to D₁'): the index makes no difference in prog_status (checked for i = 3, "
                "uniform R₁, R₃)",
                _slip(_section4_index, [0.0], ["max over o of |Pr[O=o | D3=pos] − Pr[O=o | D1=pos]|"]),
                note="Dᵢ should be D₁ (the sentence and the sub-model both speak of D₁). In prog_status D₁ and D₂ are "
                     "equal, but D₃ is not: conditioning on D₃ = pos gives another output distribution."),
    Claim("tsd-prop4-eq16-unweighted", "tsd", "§5.2, proof of Proposition 4, eqs. (15)–(17)",
          "The left side of eq. (16), Σ_{d₋ₙ} Pr[𝒜(d₋ₙ, dₙ)=o] without population weights, is Pr[O=o | do(Dₙ=dₙ)] "
          "by Lemma 2, giving (17) (checked for the ε-DP count on three data points at the uniform population)",
          True, lambda tighten=1.0: Verdict.of(*_prop4_eq16(), evidence="extremal", tighten=tighten,
                                              labels=[f"O={o}" for o in range(4)],
                                              second="none: a counterexample to the text as printed, computed exactly"),
          expected="discrepancy", finding="typo", chapter=CHAPTER,
          note="The weights Pr_𝒫[D₋ₙ = d₋ₙ] of (14) are dropped from (15)–(16), so (16) sums 4 probabilities (up to 4, "
               "not a probability); with them (16) is Lemma 2's eq. (78) and (17) follows. Proposition 4 itself is "
               "certified (tsd-table1-def7-attack); the same weights are missing from eqs. (21)–(22)."),
]


# ---------------------------------------------------------------- the registry


def _table_claim(number, where, statement):
    printed = causal.DEFINITIONS[number][3]
    how = " (Definitions 5 and 6 computed with do() queries on the structural model)" if number in (5, 6) else ""
    return Claim(
        id=f"tsd-table1-def{number}-relation",
        paper="tsd",
        where=where,
        statement=statement + f" (printed relation {printed}; computed on 40 random mechanisms × 6 populations{how})",
        printed=printed,
        compute=_relation(number),
        chapter=CHAPTER,
    )


_DIRECTION_TEXT = {
    "eq": "the same ε both ways (ε_def ≤ ε_DP and ε_DP ≤ ε_def)",
    "ge": "the definition implies DP with the same ε (ε_DP ≤ ε_def)",
    "le": "DP implies the definition with the same ε (ε_def ≤ ε_DP, at the worst population tried)",
}


def _attack_claim(number, where):
    name = causal.DEFINITIONS[number][0]
    return Claim(
        id=f"tsd-table1-def{number}-attack",
        paper="tsd",
        where=where,
        statement=f"{name} (Definition {number}) and DP: {_DIRECTION_TEXT[evidence.TABLE1_DIRECTION[number]]}; "
                  "every mechanism with 3 outputs on {0,1,2}², by LPs through the definition's reduction to pairs of "
                  "databases",
        printed=True,
        compute=_certified(lambda: _table1_certificate(number)),
        chapter=CHAPTER,
    )


CLAIMS = [
    _table_claim(2, "Table 1 row 2; Proposition 1", "Strong adversary DP (Definition 2) is equivalent to DP"),
    _table_claim(3, "Table 1 row 3; §3 (Yang et al., Thm 2)",
                 "Bayesian₀ DP (Definition 3) implies DP but not conversely"),
    _table_claim(4, "Table 1 row 4; §3 (Yang et al., Thm 1)",
                 "Bayesian₀ DP over independent populations (Definition 4) is equivalent to DP"),
    _table_claim(5, "Table 1 row 5; Proposition 2",
                 "Universal whole-database intervention DP (Definition 5) is equivalent to DP"),
    _table_claim(6, "Table 1 row 6; Proposition 3",
                 "Whole-database intervention DP for a given population (Definition 6) is equivalent to DP"),
    _table_claim(7, "Table 1 row 7; Proposition 4",
                 "DP implies data-point intervention DP (Definition 7) but not conversely"),
    _table_claim(8, "Table 1 row 8; Proposition 5",
                 "Universal data-point intervention DP (Definition 8) is equivalent to DP"),
    _table_claim(10, "Appendix B, Definition 10",
                 "Strong adversary DP for one distribution (Definition 10) is implied by DP but does not imply it"),
    _attack_claim(2, "Proposition 1"),
    _attack_claim(3, "§3 (Yang et al., Thm 2)"),
    _attack_claim(4, "§3, (b) (Yang et al., Thm 1; mutually independent data points)"),
    _attack_claim(5, "Proposition 2"),
    _attack_claim(6, "Proposition 3"),
    _attack_claim(7, "Proposition 4"),
    _attack_claim(8, "Proposition 5"),
    _attack_claim(10, "Appendix B"),
    Claim("tsd-fig2-assumption-arcs", "tsd", "Figure 2, (d) and (e)",
          "DP implies Bayesian₀ DP with the same ε under either assumption (independent data points; a strong "
          "adversary who conditions on every other data point), and not without one (a counterexample exceeds DP's ε; "
          "LPs over every mechanism with 3 outputs on {0,1,2}²)",
          True, _certified(_arcs_certificate), chapter=CHAPTER),
    Claim("tsd-def4-printed-condition", "tsd", "§3, Definition 4 (as printed) and (b)",
          "DP implies Definition 4's check at every population meeting its printed condition — Dᵢ independent of Dⱼ "
          "conditioned upon the other data points — with the same ε (n = 3: every ε-DP mechanism with 2 outputs, by "
          "LP)",
          True, _certified(_def4_printed_certificate), expected="discrepancy", finding="false-statement",
          note="For n ≥ 3 the printed condition (pairwise independence given the remaining data points) admits the "
               "population in which all data points are equal: given the others, each is determined, so every pair is "
               "conditionally independent. There conditioning on D₁ fixes the whole database and the ε-DP count needs "
               "3ε. For n = 2 the condition is plain independence, and with mutual independence (Yang et al.'s "
               "assumption, the reading the book uses in Table 1) the equivalence holds: tsd-table1-def4-attack.",
          chapter=CHAPTER),
    Claim("tsd-appB-eq34-pr-o0-d0", "tsd", "Appendix B, eq. (34)",
          "Pr[O=0 | D₁=0] = 1/2 for the mechanism of eqs. (31)–(33)",
          0.5, _appendix_b_probability(0, 0), atol=1e-12, chapter=CHAPTER),
    Claim("tsd-appB-eq35-pr-o1-d1", "tsd", "Appendix B, eq. (35)",
          "Pr[O=1 | D₁=1] = 1/2 for the mechanism of eqs. (31)–(33)",
          0.5, _appendix_b_probability(1, 1), atol=1e-12, chapter=CHAPTER),
    Claim("tsd-appB-def10-not-dp", "tsd", "Appendix B",
          "The mechanism of eqs. (31)–(33) satisfies Definition 10 with ε = 0 at every population with Pr[D₁=2] = 0 "
          "(30 random ones), but is not DP for any ε",
          True, _verdict(_appendix_b_search, ("random-search", "extremal"),
                         supremum=1.0,
                         supremum_from="n = 1: conditioning on D₁ is the mechanism's row, and 𝒜(0) = 𝒜(1), so every "
                                       "population gives e^0 = 1 exactly",
                         second=_none("every population with Pr[D₁=2] = 0 gives the same ratio 1 exactly (eqs. "
                                      "31–33), so there is nothing to optimise")), chapter=CHAPTER),
    Claim("tsd-prop4-half", "tsd", "Proposition 4, after eq. (19)",
          "Pr[O=o | do(Dᵢ=d)] = 1/2 for every o, i and d for the mechanism of eqs. (18)–(19) at every population with "
          "Pr[D₁=2] = Pr[D₂=2] = 0 (LPs over all of them; checked as Pr ≤ 1/2 for both outputs)",
          True, _certified(_prop4_half_certificate), chapter=CHAPTER),
    Claim("tsd-prop4-def7-not-dp", "tsd", "Proposition 4",
          "The mechanism of eqs. (18)–(19) satisfies Definition 7 with ε = 0 at every such population (LPs over all of "
          "them) but is not DP for any ε",
          True, _certified(_prop4_separates_certificate), chapter=CHAPTER),
    Claim("tsd-s5.2-two-data-points", "tsd", "§5.2, before Proposition 4",
          "A counterexample to Definition 7 ⇒ DP needs two data points: with one data point Definition 7's ε equals "
          "DP's at every population (LPs over every mechanism with 3 outputs)",
          True, _certified(lambda: _pairs_certificate(1, "one data point in {0,1,2} and every population",
                                                      "Lemma 1: Pr[O | do(D₁=v)] = 𝒜(v)")), chapter=CHAPTER),
    Claim("tsd-s3-def3-correlated", "tsd", "§1.1 and §3",
          "Conditioning on Ada's data point when Byron's always equals it: Definition 3's ε is 2ε for an ε-DP count "
          "(the 'double dose')",
          2.0, _def3_correlated_units, atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s1.1-conditioning-d1", "tsd", "§1.1",
          "In the survey (R₂ := R₁), conditioning on Ada's data point D₁ moves the output distribution by up to a "
          "factor e^{2ε}",
          2.0, _conditioning_units, atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s1.1-do-d1", "tsd", "§1.1", "Intervening on Ada's data point D₁ has effect size ε on the output",
          1.0, _effect_units("D1"), atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s1.1-do-r1", "tsd", "§1.1",
          "Intervening on Ada's status R₁ has effect up to double ε (two paths, via D₁ and via R₂ → D₂)",
          2.0, _effect_units("R1"), atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s1.1-do-r2", "tsd", "§1.1", "Intervening on Byron's status R₂ has effect size ε",
          1.0, _effect_units("R2"), atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s6.3-total-effect", "tsd", "§6.3, group privacy",
          "Total effect of Ada's and Byron's statuses R₁, R₂ is 3ε",
          3.0, _total_effect_units, atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s6.3-joint-effect", "tsd", "§6.3, group privacy", "Joint effect of R₁ and R₂ (one do on both) is 2ε",
          2.0, _effect_units(("R1", "R2")), atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s6.3-rr-status-to-response", "tsd", "§6.3, randomized response",
          "Randomized response gives ε-BRP from Rᵢ to Dᵢ",
          1.0, _rr_units, atol=1e-9, chapter=CHAPTER),
    Claim("tsd-s6.3-rr-response-to-output", "tsd", "§6.3, randomized response",
          "From Dᵢ to an output computed without noise the BRP is unbounded",
          math.inf, _rr_data_to_output, chapter=CHAPTER),
    Claim("tsd-s6.3-rr-status-to-output", "tsd", "§6.3, randomized response",
          "From Rᵢ to O the BRP is unbounded when statuses affect one another: with k relatives copying R₁ it is "
          "exactly (k+1)ε, k = 0..4",
          True, _certified(_rr_relatives_certificate), chapter=CHAPTER),
    Claim("tsd-s6.3-direct-indirect", "tsd", "§6.3, direct and indirect effects",
          "The effect of Ada's status splits into a direct effect (via D₁, R₂ held) and an indirect one (via R₂, D₁ "
          "held): total ≤ direct + indirect in deterministic models, attained in the survey (ε each, 2ε in total)",
          True, _verdict(_path_search, ("random-search", "extremal"),
                         supremum=1.0,
                         supremum_from="the survey (R₂ := R₁): total = direct + indirect = 2ε, §6.3",
                         second=_path_second), chapter=CHAPTER),
    Claim("tsd-eq28-dp-bounds-rp", "tsd", "§6.1, eq. (28)",
          "For the ε-DP count prog_A, max over 𝒫 and i of RP̄(O, Dᵢ) is e^ε (the bound of eq. 28, attained)",
          1.0, _prog_a_brp_units, atol=1e-9, chapter=CHAPTER, bound="upper"),
    Claim("tsd-def9-printed-bound", "tsd", "§6.1, Definition 9",
          "Definition 9 as printed (max_𝒫 RP̄ ≤ e^{-1}) is met by the ε-DP count for its data points, as 'DP is "
          "equivalent to ε-BRP for all Dᵢ' requires",
          True, _certified(_definition9_certificate), expected="discrepancy", finding="typo",
          note="The printed bound e^{-1} is below 1, while RP̄ ≥ 1 always (take x₁ = x₂), so no model meets it. "
               "The bound must be e^ε, as eq. (28) and the sentence after the definition show; with e^ε the claim "
               "tsd-eq28-dp-bounds-rp reproduces.", chapter=CHAPTER),
    Claim("tsd-thm1-composition", "tsd", "§6.2, Theorem 1",
          "If X has ε₁-BRP to Y and ε₂-BRP to Z in every 𝓜[Y:=y], X has (ε₁+ε₂)-BRP to ⟨Y, Z⟩ (30 random models, local "
          "search over channels, the worked example)",
          True, _verdict(_theorem1_search, ("random-search", "optimised-search", "extremal"),
                         supremum=1.0,
                         supremum_from="the worked example: randomized response selecting a release attains ε₁ + ε₂",
                         second=_thm1_second), chapter=CHAPTER),
    Claim("tsd-thm1-post-processing", "tsd", "§6.2, after Theorem 1",
          "Post-processing: Z := g(Y) has BRP from X at most that of Y (20 random g, and the identity, which attains "
          "it)",
          True, _verdict(_post_processing_search, ("random-search", "extremal"),
                         supremum=1.0,
                         supremum_from="g = identity: Z = Y",
                         second=_post_processing_second), chapter=CHAPTER),
    Claim("tsd-lemma1-eq44", "tsd", "Appendix C, Lemma 1, eq. (44)",
          "Pr[O=o | do(D₁=d₁, …, Dₙ=dₙ)] = Pr[𝒜(d)=o] for every population (LPs; every mechanism on two binary data "
          "points, two random ones with three outputs)",
          True, _certified(lambda: _lemma_certificate("lemma1")), chapter=CHAPTER),
    Claim("tsd-lemma2-eq78", "tsd", "Appendix C, Lemma 2, eq. (78)",
          "Pr[O=o | do(Dⱼ=d′)] = Σ Pr[D₋ⱼ = d₋ⱼ] Pr[𝒜(d₋ⱼ, d′)=o] (LPs over every population; every mechanism on two "
          "binary data points, two random ones with three outputs)",
          True, _certified(lambda: _lemma_certificate("lemma2")), chapter=CHAPTER),
    Claim("tsd-lemma2-eq60-as-printed", "tsd", "Appendix C, Lemma 2, eqs. (59)–(60)",
          "Lemma 2's statement as printed: Pr[O=o | do(Dⱼ=d′ⱼ)] equals the unweighted sum Σ over the other data points "
          "of Pr[𝒜(…, d′ⱼ, …)=o]",
          True, _certified(lambda: _lemma_certificate("printed")), expected="discrepancy", finding="typo",
          note="The statement (eqs. 59–60 in our copy) omits the population weights Pr_𝒫[D₋ⱼ = d₋ⱼ] that the proof's "
               "last line, eq. (78), carries; without them the sum can exceed 1. The same weights are missing from "
               "one side of eqs. (15)–(16) and (21). With the weights (eq. 78) the lemma reproduces.", chapter=CHAPTER),
    Claim("tsd-s4-do-output-leaves-inputs", "tsd", "§4",
          "Pr[D=d | do(O=o)] = Pr[D=d]: intervening downstream does not change the database (LPs over every "
          "population)",
          True, _certified(_downstream_certificate), chapter=CHAPTER),
    Claim("tsd-s4-d1-d2-associated", "tsd", "§4, prog_status",
          "D₁ and D₂ are equal (associated) in prog_status, yet neither causes the other: do(D₁) leaves D₂'s "
          "distribution unchanged (LPs over every population)",
          True, _certified(_associated_certificate), chapter=CHAPTER),
    Claim("tsd-s1.1-status-to-data-unbounded", "tsd", "§1.1",
          "The effect of Byron's status on his data point is large (D₂ := R₂: unbounded)",
          math.inf, _status_to_data_unbounded, chapter=CHAPTER),
    Claim("tsd-s1.1-randomization-breaks-association", "tsd", "§1.1",
          "After an intervention on Byron's status it no longer reveals anything about Ada's, while observing it does "
          "(it moves Pr[R₁=1] by at least min(p, 1−p))",
          True, _verdict(_breaks_association_search, "exhaustive",
                         supremum=1.0,
                         supremum_from="the equalities Pr[R₁=1 | do(R₂=r)] = Pr[R₁=1] (§1.1)",
                         second=_none("an exhaustive family of exact equalities (three priors, two "
                                      "interventions)")), chapter=CHAPTER),
    Claim("tsd-s1.1-data-point-effect-any-relation", "tsd", "§1.1",
          "DP bounds the effect of Ada's data point by ε whatever the relation between the statuses (every joint law "
          "of the statuses in the inheritance model, by LPs)",
          True, _certified(_data_point_any_relation_certificate), chapter=CHAPTER),
    Claim("tsd-prop1-full-support", "tsd", "§3, proof of Proposition 1",
          "One population giving every database positive probability already makes Definition 2's check equal to DP "
          "(LPs over every mechanism with 3 outputs on {0,1,2}²)",
          True, _certified(lambda: _pairs_certificate(2, "{0,1,2}² at any full-support population",
                                                      "Pr[O | D=d] = 𝒜(d) for every d")), chapter=CHAPTER),
    Claim("tsd-s2-noninterference", "tsd", "§2",
          "Differential privacy with ε = 0 is noninterference; quantitatively, the effect of changing the whole input "
          "is at most n·ε_DP and at least ε_DP",
          True, _certified(_noninterference_certificate), chapter=CHAPTER),
    Claim("tsd-s3-informed-adversary", "tsd", "§3, after Proposition 1",
          "Depending on the circumstances either the informed (strong) or the uninformed adversary learns more: a "
          "computed example of each",
          True, _verdict(_informed_search, "extremal",
                         second=_none("an existence statement (either adversary can learn more): its two computed "
                                      "examples are its proof")), chapter=CHAPTER),
    Claim("tsd-s7-nondisclosure", "tsd", "§7, quantitative form (this book)",
          "Statistical nondisclosure (the adversary's background knowledge is the true population) implies Definition "
          "3's check at that population with ε = 0 (the paper); the book's quantitative form: ε₃(𝒫) ≤ 2·ε_SND(𝒫)",
          True, _verdict(_nondisclosure_search, ("random-search", "optimised-search", "extremal"),
                         supremum=1.0,
                         supremum_from="randomized response with Pr[truth] → ½ on one data point: the ratio tends to 1",
                         second=_nondisclosure_second), chapter=CHAPTER,
          note="The paper states only the implication at ε = 0; the factor 2 is this book's bound, not the paper's."),
    Claim("tsd-s7-equivalent-to-independence", "tsd", "§7",
          "'Statistical nondisclosure implies 0-Bayesian₀ DP (Def. 3) since both are equivalent to requiring "
          "independence between D and O' (at the true population): Definition 3 with ε = 0 implies independence of D "
          "and O",
          True, _verdict(_bayesian0_without_independence, "extremal",
                         second=_none("a counterexample: the statement is false")), chapter=CHAPTER,
          expected="discrepancy",
          finding="false-statement",
          note="Not so: randomized response on D₁ ⊕ D₂ (D₁, D₂ independent fair bits, ε = 0.5) passes Definition 3 "
               "with ε = 0 (each Pr[O | D_i] is ½) while Pr[D = (0,0) | O = 0] = 0.311 against the prior 0.25. Only "
               "one direction holds: independence of D and O implies 0-Bayesian₀ DP, so the implication stands and its "
               "stated reason does not (recomputed without the package in tests/claims/test_audit_tsd.py)."),
    Claim("tsd-s8-experiment", "tsd", "§8",
          "An effect size can be estimated from a black box by experiment: the 95% confidence interval for log RP from "
          "interventions on one data point covers the true effect at the nominal rate (seeded simulation, 4000 "
          "experiments per size; bound α + 3 standard errors)",
          True, _verdict(_experiment_search, "random-search",
                         supremum=_EXPERIMENT_SUPREMUM,
                         supremum_from="a correct 95 % interval misses with probability α = 0.05, against the allowed "
                                       "α + 3 standard errors",
                         second=_none("a Monte Carlo coverage rate, not an optimisation")), chapter=CHAPTER),
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
