"""Evidence for the claims of Tschantz, Sen & Datta (:mod:`dpsemantics.claims.tsd`): the searches that the
mathematics in :mod:`dpsemantics.causal` does not need.

- :func:`table1` regenerates Table 1 (and Definition 10) by a seeded sweep over random mechanisms and
  populations, :func:`classify_relation` reads the relation it supports;
- :func:`attack_table1_row` tries to break a row's direction by random mechanisms and :func:`hill_climb` on
  their log-probabilities (:func:`definition_pair` gives one mechanism's pair of ε);
- :func:`assumption_arcs` searches Figure 2's dashed arcs (DP ⇒ Bayesian₀ DP under an assumption);
- :func:`random_mechanism`, :func:`random_population` and :func:`random_sequence_model` draw the random instances
  these searches (and the chapter's sweeps) use, and :func:`experiment_log_ratio`/:func:`experiment_coverage`
  simulate §8's black-box experiment: whatever draws random numbers is a sample, not the mathematics.

A search proves nothing beyond its cases.  The registry certifies the same relations instead with the linear
programs at the end of this module: :func:`form_lp` (the worst mechanism with m outputs on kⁿ databases meeting a
hypothesis given by linear forms: a definition's own comparisons, :func:`definition_forms`, at the populations of
:func:`lp_populations`; :func:`mechanism_lp` when the forms are pairs of databases) and :func:`population_ratio_lp`
(the supremum over every population of a ratio of two linear functions of the population, Charnes–Cooper), each
bounded by an exact-rational dual (:func:`dpsemantics.claims.certify.lp_upper_bound`).  Each certificate's domain
names its populations and the steps to other populations that the LPs do not check.

The module's last part holds the searches, LPs and certificates behind each claim of :mod:`dpsemantics.claims.tsd`
(the Table 1 certificates, the lemma and downstream certificates); the registry itself is data.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .._validate import check_positive_int
from ..causal import (DEFINITIONS, UNIVERSAL_INNER, StructuralModel, candidate_populations, definition_epsilon,
                      definition_epsilon_sem, is_independent, mechanism_tensor, sequence_model, universal_epsilon)
from ..mechanisms import FiniteMechanism, geometric_count
import functools
from fractions import Fraction
from .. import causal
from ..mechanisms import randomized_response
from ..notions import xor_randomized_response
from . import Verdict
from .certify import verdict_from

__all__ = ["classify_relation", "Table1Row", "table1", "hill_climb", "TABLE1_DIRECTION", "definition_pair",
           "attack_table1_row", "AssumptionArc", "assumption_arcs", "population_ratio_lp", "mechanism_lp", "form_lp",
           "table1_verdict", "definition_forms", "lp_populations", "UNIVERSAL_DEFINITIONS", "neighbours",
           "worst_interventional_ratio", "random_mechanism", "random_population", "random_sequence_model",
           "experiment_log_ratio", "experiment_coverage"]


def classify_relation(eps_def, eps_dp, *, rtol=1e-9) -> str:
    """The relation to DP that a sample of (ε_def, ε_DP) pairs supports: ``"↔ DP"`` if always equal,
    ``"→ DP"`` if ε_def ≥ ε_DP always and sometimes strictly (the definition implies DP, not conversely),
    ``"← DP"`` if ε_def ≤ ε_DP always and sometimes strictly (DP implies it), ``"none"`` otherwise."""
    a, b = np.asarray(eps_def, float), np.asarray(eps_dp, float)
    if a.shape != b.shape or a.size == 0:
        raise ValueError(f"eps_def and eps_dp must be non-empty and of one shape (got {a.shape}, {b.shape})")
    with np.errstate(invalid="ignore"):
        close = (a == b) | (np.abs(a - b) <= rtol * np.maximum(np.abs(a), np.abs(b)))
    bigger, smaller = (a > b) & ~close, (a < b) & ~close
    if close.all():
        return "↔ DP"
    if not smaller.any():
        return "→ DP"
    if not bigger.any():
        return "← DP"
    return "none"


@dataclass
class Table1Row:
    number: int
    name: str
    quantifier: str
    comparison: str
    printed: str
    computed: str
    cases: int
    equal: int
    larger: int
    smaller: int
    pairs: np.ndarray = None  # (cases, 2): ε of the definition, ε of DP

    @property
    def agrees(self) -> bool:
        return self.printed == self.computed


def table1(seed: int = 0, mechanisms: int = 60, populations: int = 8, n: int = 2, k: int = 3,
           m: int = 3) -> list[Table1Row]:
    """Regenerate Table 1 (plus Definition 10) by computation on random mechanisms and populations.

    For each random mechanism 𝒜 and each random population 𝒫 (full, sparse, independent and
    correlated kinds in turn), compare each definition's ε with ε_DP = Definition 1's ε: at 𝒫 for the
    definitions with a given population (6, 7, 10), as a supremum over populations for the universal ones
    (:func:`universal_epsilon`, with the random populations added).  Rows 5 and 6 are computed from their
    own definitions — ``do`` queries on the structural model (:func:`definition_epsilon_sem`; Definition 5
    over every point-mass population and the random ones) — so they test Lemma 1 rather than assume it.
    The computed relation is :func:`classify_relation` of all those pairs."""
    rng = np.random.default_rng(seed)
    kinds = ("full", "sparse", "independent", "correlated")
    pairs: dict[int, list] = {d: [] for d in DEFINITIONS if d != 1}
    for _ in range(check_positive_int(mechanisms, "mechanisms")):
        mech = random_mechanism(rng, n, k, m)
        A = mechanism_tensor(mech)[0]
        e1 = definition_epsilon(1, A)
        pops = [random_population(rng, n, k, kinds[j % 4])
                for j in range(check_positive_int(populations, "populations"))]
        for d in (7, 10):
            pairs[d].extend((definition_epsilon(d, A, P), e1) for P in pops)
        # rows 5 and 6 ask the structural model do() queries (their own definitions), not Lemma 1
        pairs[6].extend((definition_epsilon_sem(6, mech, P), e1) for P in pops)
        points = [P for P in candidate_populations(A.shape[:-1]) if np.count_nonzero(P) == 1]
        pairs[5].append((_universal_sem(5, mech, points + pops), e1))
        for d in (2, 3, 8):
            pairs[d].append((universal_epsilon(d, A, pops), e1))
        pairs[4].append((universal_epsilon(4, A, [P for P in pops if is_independent(P)]), e1))
    rows = []
    for d, (name, quant, comp, printed) in DEFINITIONS.items():
        if d == 1:
            continue
        a, b = np.array(pairs[d]).T
        with np.errstate(invalid="ignore"):
            eq = (a == b) | np.isclose(a, b, rtol=1e-9, atol=0)
        rows.append(Table1Row(d, name, quant, comp, printed, classify_relation(a, b), len(a), int(eq.sum()),
                              int(((a > b) & ~eq).sum()), int(((a < b) & ~eq).sum()), np.column_stack([a, b])))
    return rows


# ---------------------------------------------------------------- worst-case searches (Table 1 rows, Figure 2)


def _positive_mechanism(logits: np.ndarray, n: int, k: int) -> FiniteMechanism:
    dbs = list(itertools.product(range(k), repeat=n))
    M = np.exp(logits - logits.max(axis=1, keepdims=True))
    return FiniteMechanism(M / M.sum(axis=1, keepdims=True), dbs, list(range(logits.shape[1])))


def hill_climb(objective: Callable[[np.ndarray], float], x0: np.ndarray, rng, *, steps: int = 40,
               scale: float = 0.5) -> tuple[np.ndarray, float]:
    """Maximise ``objective`` by a (1+1) local search: Gaussian steps of shrinking ``scale``, a step kept
    when it does not lower the objective.  Returns the best point and value (no gradients needed)."""
    x, best = np.array(x0, float), float(objective(x0))
    for t in range(steps):
        y = x + rng.normal(0.0, scale * (1 - 0.8 * t / max(steps, 1)), size=x.shape)
        v = float(objective(y))
        if v >= best:
            x, best = y, v
    return x, best


#: how each Table 1 row is attacked: which side the paper says is the larger ε
#: ("eq": equal, "ge": the definition's ε is at least DP's (it implies DP), "le": at most (DP implies it))
TABLE1_DIRECTION = {2: "eq", 3: "ge", 4: "eq", 5: "eq", 6: "eq", 7: "le", 8: "eq", 10: "le"}


def _universal_sem(number: int, mechanism: FiniteMechanism, populations) -> float:
    """Supremum over ``populations`` of :func:`definition_epsilon_sem` (Definition 5: whole-database
    interventions on the structural model, at every population given)."""
    inner = UNIVERSAL_INNER.get(number, number)
    return max(definition_epsilon_sem(inner, mechanism, P) for P in populations)


def definition_pair(number: int, mechanism: FiniteMechanism, populations=()) -> tuple[float, float]:
    """(ε of Definition ``number``, ε of DP) for one mechanism.  Universal definitions take the supremum
    over :func:`candidate_populations` and the extra ``populations``; definitions for a given population
    (6, 7, 10) take the *largest* ε over the populations tried (the adversarial choice when the claim is
    "DP implies it").  Definitions 5 and 6 are computed with ``do`` queries on the structural model
    (:func:`definition_epsilon_sem`), not by Lemma 1, so that their rows test the causal definition."""
    A = mechanism_tensor(mechanism)[0]
    e1 = definition_epsilon(1, A)
    shape = A.shape[:-1]
    extra = [np.asarray(p, float) for p in populations]
    if number == 5:
        pops = [P for P in candidate_populations(shape) if np.count_nonzero(P) == 1] + extra
        return _universal_sem(5, mechanism, pops), e1
    if number == 6:
        return _universal_sem(6, mechanism, extra or candidate_populations(shape)[:1]), e1
    if number in (7, 10):
        pops = extra or candidate_populations(shape)
        return max(definition_epsilon(number, A, P) for P in pops), e1
    if number == 4:
        return universal_epsilon(4, A, [P for P in extra if is_independent(P)]), e1
    return universal_epsilon(number, A, extra), e1


def attack_table1_row(number: int, *, seed: int = 0, mechanisms: int = 12, climbs: int = 2, steps: int = 15,
                      n: int = 2, k: int = 3, m: int = 3, eps: float = 0.5):
    """Try to break Table 1's relation for Definition ``number`` (:data:`TABLE1_DIRECTION`).

    Cases: random full-support mechanisms on {0..k−1}ⁿ with random populations of every kind, then
    :func:`hill_climb` on the mechanism's log-probabilities from the worst ``climbs`` of them, maximising
    the ratio that the paper says is at most 1 (ε_def/ε_DP for "le", ε_DP/ε_def for "ge", the larger of the
    two for "eq"), and the ε-DP geometric count on {0,1}² (the extremal mechanism: DP's ε is attained).
    Returns ``(eps_def, eps_dp, labels)``, arrays with one entry per case."""
    direction = TABLE1_DIRECTION[number]
    rng = np.random.default_rng(seed)
    kinds = ("full", "sparse", "independent", "correlated")
    pops = [random_population(rng, n, k, kinds[j % 4]) for j in range(4)]

    def ratio(a, b):
        if direction == "le":
            return a / b
        if direction == "ge":
            return b / a
        return max(a / b, b / a)

    rows, labels, starts = [], [], []
    for j in range(mechanisms):
        logits = rng.uniform(-1.5, 1.5, size=(k**n, m))
        a, b = definition_pair(number, _positive_mechanism(logits, n, k), pops)
        rows.append((a, b))
        labels.append(f"random mechanism {j}")
        starts.append((ratio(a, b), logits))
    starts.sort(key=lambda t: -t[0])
    for c, (_, logits) in enumerate(starts[:climbs]):
        best, _ = hill_climb(lambda x: ratio(*definition_pair(number, _positive_mechanism(x, n, k), pops)),
                             logits, rng, steps=steps)
        rows.append(definition_pair(number, _positive_mechanism(best, n, k), pops))
        labels.append(f"local search from start {c}")
    count = geometric_count(2, eps)
    shape = (2, 2)
    pops2 = [np.full(shape, 0.25), np.array([[0.5, 0.0], [0.0, 0.5]]), np.array([[0.4, 0.1], [0.1, 0.4]])]
    rows.append(definition_pair(number, count, pops2))
    labels.append(f"geometric count, n = 2, ε = {eps:g}")
    a, b = np.array(rows, float).T
    return a, b, labels


@dataclass
class AssumptionArc:
    """One dashed arc of the paper's Figure 2: DP implies Bayesian₀ DP under ``assumption``.
    ``with_ratio``: the largest ε(Bayesian₀ reading)/ε_DP found *with* the assumption (≤ 1 means DP's ε
    suffices); ``without_ratio``: the largest found when the assumption is dropped (> 1: a
    counterexample shows it is needed); ``witness`` describes that counterexample."""

    assumption: str
    with_ratio: float
    without_ratio: float
    witness: str

    @property
    def needed(self) -> bool:
        return self.with_ratio <= 1 + 1e-9 and self.without_ratio > 1 + 1e-9


def assumption_arcs(*, seed: int = 0, mechanisms: int = 12, eps: float = 0.5) -> list[AssumptionArc]:
    """Compute Figure 2's arcs.  For each assumption, the adversary's reading with it (independent data
    points: Definition 4's check; a strong adversary who conditions on every other data point:
    Definition 10's check) is maximised over random mechanisms, candidate and random populations; the
    assumption is *needed* when dropping it (Definition 3's check at any population) yields a ratio
    above 1 — the geometric count with perfectly correlated data points gives 2."""
    rng = np.random.default_rng(seed)
    mechs = [random_mechanism(rng, 2, 2, 3, zero_prob=0.0) for _ in range(mechanisms)] + [geometric_count(2, eps)]
    shape = (2, 2)
    pops = candidate_populations(shape) + [random_population(rng, 2, 2, kind) for kind in
                                           ("full", "sparse", "independent", "correlated") for _ in range(3)]
    indep = [P for P in pops if is_independent(P)]
    best_ind = best_strong = best_none = 0.0
    witness = ""
    for j, mech in enumerate(mechs):
        A = mechanism_tensor(mech)[0]
        e1 = definition_epsilon(1, A)
        best_ind = max(best_ind, max(definition_epsilon(4, A, P) for P in indep) / e1)
        best_strong = max(best_strong, max(definition_epsilon(10, A, P) for P in pops) / e1)
        for P in pops:
            r = definition_epsilon(3, A, P) / e1
            if r > best_none:
                best_none = r
                name = "geometric count" if j == len(mechs) - 1 else f"random mechanism {j}"
                witness = f"{name}, population " + ", ".join(
                    f"{cell}: {w:.3g}" for cell, w in zip(("(0, 0)", "(0, 1)", "(1, 0)", "(1, 1)"), np.ravel(P)))
    return [AssumptionArc("independent data points", best_ind, best_none, witness),
            AssumptionArc("strong adversary", best_strong, best_none, witness)]


# ---------------------------------------------------------------- certificates: linear programs on whole domains
#
# Two reductions make the causal definitions' worst cases linear programs (Tschantz et al., Appendix C):
#
# - over populations: an interventional probability Pr[Y=y | do(X=x)] is linear in the population 𝒫, so a ratio of two
#   of them is linear-fractional, and its supremum over the simplex of populations is the linear program
#   max Σ y_u a_u  s.t.  Σ y_u b_u = 1, y ≥ 0  (Charnes–Cooper), attained at a point-mass population;
# - over mechanisms: at one population every definition's probability is linear in the mechanism's entries 𝒜(d)(o)
#   (Lemmas 1 and 2 for interventions; Pr[O=o | Dᵢ=v] = Σ Pr[D=d | Dᵢ=v] 𝒜(d)(o) for conditioning), so the worst
#   mechanism satisfying a hypothesis given by pairs of databases is a linear program over the mechanisms with m
#   outputs on kⁿ databases.


def population_ratio_lp(numerator, denominator):
    """An exact-rational upper bound on sup over every population 𝒫 of (Σ 𝒫(u) a_u)/(Σ 𝒫(u) b_u), given a_u, b_u ≥ 0 at
    the point-mass populations u (Charnes–Cooper's LP, solved by HiGHS, bounded by its exact dual:
    :func:`~dpsemantics.claims.certify.lp_upper_bound`).  Returns ``(bound, size)``; ``bound`` is ∞ when some u has
    b_u = 0 < a_u (the ratio is unbounded there) and 0 when every a_u is 0."""
    from fractions import Fraction

    from .certify import lp_upper_bound

    a = [Fraction(float(x)) for x in numerator]
    b = [Fraction(float(x)) for x in denominator]
    if len(a) != len(b) or not a or min(a) < 0 or min(b) < 0:
        raise ValueError(f"numerator and denominator must be non-negative and of equal, positive length "
                         f"(got {len(a)} and {len(b)})")
    if any(x > 0 and y == 0 for x, y in zip(a, b)):
        return math.inf, (len(a), 0, 1)
    if not any(a):
        return 0.0, (len(a), 0, 1)
    cap = 1 / min(y for y in b if y > 0)
    cert = lp_upper_bound(a, [], [], [b], [Fraction(1)], [cap] * len(a))
    return float(cert.bound), cert.size


def form_lp(n: int, k: int, m: int, exp_eps, constraints, objective, normaliser, q):
    """The worst mechanism on {0..k−1}ⁿ with ``m`` outputs for one linear comparison at output 0:
    max Σ_d objective[d]·𝒜(d)(0)  s.t.  Σ_d normaliser[d]·𝒜(d)(0) = q,  Σ_d left[d]·𝒜(d)(o) ≤ e^ε Σ_d right[d]·𝒜(d)(o)
    for every (left, right) in ``constraints`` and every o, rows of 𝒜 distributions.  ``left``, ``right``,
    ``objective`` and ``normaliser`` map databases to Fractions (a definition's probabilities as linear forms in the
    mechanism: :func:`definition_forms`); ``exp_eps`` and ``q`` are Fractions.  Returns the LP certificate (its
    ``bound`` is an exact rational upper bound on the optimum)."""
    from fractions import Fraction

    from .certify import lp_upper_bound

    for name, value in (("n", n), ("k", k), ("m", m)):
        if not isinstance(value, int) or value < 1 or (name == "m" and value < 2):
            raise ValueError(f"{name} must be a whole number >= {2 if name == 'm' else 1} (got {name}={value!r})")
    if not (Fraction(exp_eps) >= 1 and 0 < Fraction(q) <= 1):
        raise ValueError(f"exp_eps must be >= 1 and q in (0, 1] (got exp_eps={exp_eps!r}, q={q!r})")
    dbs = list(itertools.product(range(k), repeat=n))
    index = {d: j for j, d in enumerate(dbs)}
    size = len(dbs) * m
    zero, one = Fraction(0), Fraction(1)

    def var(d, o):
        return index[d] * m + o

    A_ub, b_ub = [], []
    for left, right in constraints:
        for o in range(m):
            row = [zero] * size
            for d, w in left.items():
                row[var(d, o)] += Fraction(w)
            for d, w in right.items():
                row[var(d, o)] -= Fraction(exp_eps) * Fraction(w)
            A_ub.append(row), b_ub.append(zero)
    A_eq, b_eq = [], []
    for d in dbs:
        row = [zero] * size
        for o in range(m):
            row[var(d, o)] = one
        A_eq.append(row), b_eq.append(one)
    row = [zero] * size
    for d, w in normaliser.items():
        row[var(d, 0)] = Fraction(w)
    A_eq.append(row), b_eq.append(Fraction(q))
    c = [zero] * size
    for d, w in objective.items():
        c[var(d, 0)] = Fraction(w)
    return lp_upper_bound(c, A_ub, b_ub, A_eq, b_eq, [one] * size)


def mechanism_lp(n: int, k: int, m: int, exp_eps, hypothesis, objective, normaliser, q):
    """:func:`form_lp` with a hypothesis given by pairs of databases (d, d′): 𝒜(d)(o) ≤ e^ε 𝒜(d′)(o) for every o
    (DP's hypothesis when the pairs are :func:`neighbours`)."""
    return form_lp(n, k, m, exp_eps, [({d1: 1}, {d2: 1}) for d1, d2 in hypothesis], objective, normaliser, q)


# ---------------------------------------------------------------- the definitions as linear forms in the mechanism
#
# At a fixed population 𝒫 every probability that Definitions 2–8 and 10 compare is linear in the mechanism's entries
# 𝒜(d)(o): conditioning on an event about the data points (Definitions 2, 3, 4, 10) weighs 𝒜(d) by 𝒫(d | event), and
# intervening on data points (Definitions 5–8) runs the model 𝓜^𝒜 with those data points set, which weighs 𝒜(d) by
# the population's probability of the other data points (the truncated factorisation of 𝓜^𝒜: Lemma 1, eq. 44, for
# all data points and Lemma 2, eq. 78, for one; both are checked against the structural engine by tsd-lemma1-eq44
# and tsd-lemma2-eq78).  :func:`definition_forms` writes each definition's comparisons at one population as pairs of
# such forms, with the definition's side conditions, so that an LP over mechanisms can take the definition itself as
# its hypothesis or its objective.


def _conditioned(population, event):
    """The coefficients of Pr_𝒫[O=o | event] in the mechanism: 𝒫(d)·1[d ∈ event]/𝒫(event); ``None`` when 𝒫(event) = 0
    (the definitions skip a comparison whose condition has probability zero)."""
    total = sum((w for d, w in population.items() if event(d)), Fraction(0))
    if total == 0:
        return None
    return {d: w / total for d, w in population.items() if event(d) and w > 0}


def _intervened(population, fixed, n, k):
    """The coefficients of Pr_𝒫[O=o | do(D_j = x_j for j in fixed)] in the mechanism of 𝓜^𝒜: the database with the
    fixed data points set and the others as drawn, each weighted by 𝒫's probability of the others."""
    out = {}
    for d, w in population.items():
        if w > 0:
            e = tuple(fixed.get(j, d[j]) for j in range(n))
            out[e] = out.get(e, Fraction(0)) + w
    return out


def _is_independent_exact(population, n, k):
    """Whether a population (exact Fractions) is the product of its marginals."""
    margs = [{v: sum((w for d, w in population.items() if d[i] == v), Fraction(0)) for v in range(k)}
             for i in range(n)]
    return all(population.get(d, Fraction(0)) == math.prod((margs[i][d[i]] for i in range(n)), start=Fraction(1))
               for d in itertools.product(range(k), repeat=n))


#: the definitions whose quantifier is "for all populations" (the others are stated for a given population)
UNIVERSAL_DEFINITIONS = (2, 3, 4, 5, 8)


def definition_forms(number: int, population, n: int, k: int):
    """Definition ``number``'s comparisons at one population (a dict from databases in {0..k−1}ⁿ to Fractions), as
    ``(label, left, right)``: the definition requires Σ left[d]·𝒜(d)(o) ≤ e^ε Σ right[d]·𝒜(d)(o) for every output o.

    - 2, 10 — eqs. (3)/(30): Pr[O=o | D=d] against Pr[O=o | D=d′], d and d′ differing in one data point, both of
      positive probability;
    - 3, 4 — eqs. (8)/(9): Pr[O=o | Dᵢ=v] against Pr[O=o | Dᵢ=v′], both values of positive probability (Definition 4
      only at a population whose data points are independent: none otherwise);
    - 5, 6 — eqs. (10)/(11): Pr[O=o | do(D=d)] against Pr[O=o | do(D=d′)], d and d′ differing in one data point;
    - 7, 8 — eqs. (12)/(20): Pr[O=o | do(Dᵢ=v)] against Pr[O=o | do(Dᵢ=v′)].

    Comparisons that are the same pair of forms are listed once."""
    if number not in DEFINITIONS or number == 1:
        raise ValueError(f"number must be one of {sorted(set(DEFINITIONS) - {1})} (got number={number!r})")
    population = {tuple(d): Fraction(w) for d, w in population.items()}
    if number == 4 and not _is_independent_exact(population, n, k):
        return []
    dbs = list(itertools.product(range(k), repeat=n))
    out, seen = [], set()

    def add(label, left, right):
        if left is None or right is None:
            return
        key = (frozenset(left.items()), frozenset(right.items()))
        if left != right and key not in seen:
            seen.add(key)
            out.append((label, left, right))

    for i in range(n):
        for v, v2 in itertools.permutations(range(k), 2):
            if number in (3, 4):
                add(f"Pr[O | D{i + 1}={v}] against Pr[O | D{i + 1}={v2}]",
                    _conditioned(population, lambda d: d[i] == v), _conditioned(population, lambda d: d[i] == v2))
            elif number in (7, 8):
                add(f"Pr[O | do(D{i + 1}={v})] against Pr[O | do(D{i + 1}={v2})]",
                    _intervened(population, {i: v}, n, k), _intervened(population, {i: v2}, n, k))
            else:
                for d in dbs:
                    if d[i] != v:
                        continue
                    d2 = d[:i] + (v2,) + d[i + 1:]
                    if number in (2, 10):
                        add(f"Pr[O | D={d}] against Pr[O | D={d2}]", _conditioned(population, lambda e: e == d),
                            _conditioned(population, lambda e: e == d2))
                    else:
                        add(f"Pr[O | do(D={d})] against Pr[O | do(D={d2})]",
                            _intervened(population, dict(enumerate(d)), n, k),
                            _intervened(population, dict(enumerate(d2)), n, k))
    return out


def neighbours(n: int, k: int, distance: int = 1) -> list[tuple[tuple, tuple]]:
    """Ordered pairs of databases in {0..k−1}ⁿ at Hamming distance ``distance`` (1: DP's neighbours)."""
    dbs = list(itertools.product(range(k), repeat=n))
    return [(d1, d2) for d1 in dbs for d2 in dbs if sum(x != y for x, y in zip(d1, d2)) == distance]


def worst_interventional_ratio(model, effect: str, cause, *, populations=None, values=None):
    """The supremum over every population supported on ``populations`` (point masses; default all) of
    Pr[Y=y | do(X=x)] / Pr[Y=y | do(X=x′)] over effect values y and ordered pairs of cause values x ≠ x′: each
    ratio bounded by :func:`population_ratio_lp`.  Returns ``(bound, attained, lps)``: the largest exact-dual
    bound, the largest ratio at a single point-mass population (a value the supremum reaches), and the number of LPs."""
    cause = cause if isinstance(cause, tuple) else (cause,)
    pops = model.point_populations() if populations is None else populations
    xs = list(itertools.product(*(model.domains[c] for c in cause)))
    dists = {x: [model.distribution(pop, effect, do=dict(zip(cause, x))) for pop in pops] for x in xs}
    ys = values if values is not None else sorted({y for x in xs for d in dists[x] for y in d}, key=repr)
    bound = attained = 0.0
    lps = 0
    for y in ys:
        for x, x2 in itertools.permutations(xs, 2):
            a = [d.get(y, 0.0) for d in dists[x]]
            b = [d.get(y, 0.0) for d in dists[x2]]
            lp, _ = population_ratio_lp(a, b)
            lps += 1
            bound = max(bound, lp)
            with np.errstate(divide="ignore", invalid="ignore"):
                r = np.where(np.asarray(b) > 0, np.asarray(a) / np.where(np.asarray(b) > 0, b, 1.0),
                             np.where(np.asarray(a) > 0, np.inf, 0.0))
            attained = max(attained, float(np.max(r)))
    return bound, attained, lps


# ---------------------------------------------------------------- random instances for the searches


def _random_channel(rng, rows, cols, spread):
    logits = rng.uniform(-spread, spread, size=(rows, cols))
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def random_sequence_model(rng, nx=2, ny=3, nz=3, nw=2, spread=1.0) -> StructuralModel:
    """A random :func:`sequence_model` (log-probabilities uniform in ±``spread``), for testing Theorem 1."""
    return sequence_model([_random_channel(rng, nx, ny, spread) for _ in range(nw)],
                          [_random_channel(rng, nx, nz, spread) for _ in range(ny)])


def random_mechanism(rng, n=2, k=3, m=3, *, zero_prob=0.02, spread=1.5) -> FiniteMechanism:
    """A random mechanism on {0..k−1}ⁿ with m outputs: log-probabilities uniform in ±``spread``, each
    entry zeroed with probability ``zero_prob`` (so ε = ∞ occurs), rows renormalised."""
    dbs = list(itertools.product(range(k), repeat=n))
    M = np.exp(rng.uniform(-spread, spread, size=(len(dbs), m)))
    M[rng.random(M.shape) < zero_prob] = 0.0
    M[M.sum(axis=1) == 0, 0] = 1.0
    return FiniteMechanism(M / M.sum(axis=1, keepdims=True), dbs, list(range(m)))


def random_population(rng, n=2, k=3, kind="full") -> np.ndarray:
    """A random population over {0..k−1}ⁿ: ``full`` (Dirichlet, all positive), ``sparse`` (about half the
    databases impossible), ``independent`` (product of random marginals, some values impossible) or
    ``correlated`` (mass on databases whose entries all agree)."""
    shape = (k,) * n
    if kind == "full":
        return rng.dirichlet(np.ones(k**n)).reshape(shape)
    if kind == "sparse":
        w = rng.dirichlet(np.ones(k**n)) * (rng.random(k**n) < 0.5)
        if w.sum() == 0:
            w[rng.integers(k**n)] = 1.0
        return (w / w.sum()).reshape(shape)
    if kind == "independent":
        P = np.ones(())
        for _ in range(n):
            m = rng.dirichlet(np.ones(k)) * (rng.random(k) < 0.8)
            if m.sum() == 0:
                m[rng.integers(k)] = 1.0
            P = np.multiply.outer(P, m / m.sum())
        return P
    if kind == "correlated":
        P = np.zeros(shape)
        w = rng.dirichlet(np.ones(k))
        for v in range(k):
            P[(v,) * n] = w[v]
        return P
    raise ValueError(f"kind must be one of 'full', 'sparse', 'independent', 'correlated' (got kind={kind!r})")


# ---------------------------------------------------------------- §8: effect sizes by experiment


def experiment_log_ratio(mechanism: FiniteMechanism, first, second, output, trials: int, rng, *,
                         level: float = 0.95, replications: int = 1):
    """A black-box experiment (§8): run the mechanism ``trials`` times on database ``first`` (the
    intervention do(D = first)) and ``trials`` times on ``second``, count how often ``output`` appears, and
    estimate log RP = log Pr[O=o | do(first)] / Pr[O=o | do(second)] with the Katz log risk-ratio
    confidence interval (½ added to zero counts).  Vectorised over ``replications`` independent
    experiments; returns ``(estimate, low, high)`` arrays."""
    from scipy.stats import norm

    trials = check_positive_int(trials, "trials")
    replications = check_positive_int(replications, "replications")
    j = mechanism.outputs.index(output)
    draws = [rng.multinomial(trials, mechanism.row(db), size=replications)[:, j].astype(float)
             for db in (first, second)]
    x1, x2 = (np.where(x == 0, 0.5, x) for x in draws)
    est = np.log(x1 / trials) - np.log(x2 / trials)
    se = np.sqrt(np.clip(1 / x1 - 1 / trials, 0, None) + np.clip(1 / x2 - 1 / trials, 0, None))
    z = float(norm.ppf(0.5 + level / 2))
    return est, est - z * se, est + z * se


def experiment_coverage(mechanism: FiniteMechanism, first, second, output, trials: int, *, replications: int = 2000,
                        level: float = 0.95, seed: int = 0) -> dict:
    """Seeded simulation of :func:`experiment_log_ratio`: how often the interval covers the true log RP."""
    rng = np.random.default_rng(seed)
    j = mechanism.outputs.index(output)
    truth = float(np.log(mechanism.row(first)[j]) - np.log(mechanism.row(second)[j]))
    est, lo, hi = experiment_log_ratio(mechanism, first, second, output, trials, rng, level=level,
                                       replications=replications)
    return {"truth": truth, "coverage": float(np.mean((lo <= truth) & (truth <= hi))),
            "width": float(np.mean(hi - lo)), "mean": float(np.mean(est)), "replications": replications}


# ---------------------------------------------------------------- the evidence of the tsd claims

EPS = 0.5


SEED = 11




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


@functools.cache
def _table():
    return {r.number: r.computed for r in table1(seed=0, mechanisms=40, populations=6)}


def _relation(number):
    return lambda: _table()[number]


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
        m = random_sequence_model(rng, spread=float(rng.uniform(0.2, 2.0)))
        a, b = parts(m)
        lhs.append(a), rhs.append(b), labels.append(f"random model {j}")
    for r in range(2):
        x, _ = hill_climb(lambda x: (lambda t: t[0] / t[1])(parts(build(x))), rng.normal(0, 1, 24), rng,
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
        mech = random_mechanism(rng, n=2, k=2, m=3, zero_prob=0.0)
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
        x, _ = hill_climb(obj, rng.normal(0, 1, 16), rng, steps=30)
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
        cov = experiment_coverage(mech, EXPERIMENT["first"], EXPERIMENT["second"], EXPERIMENT["output"], t,
                                         replications=R, level=EXPERIMENT["level"], seed=SEED + t)
        lhs.append(1 - cov["coverage"])
        labels.append(f"{t} runs per arm: miscoverage {1 - cov['coverage']:.4f}")
    allowed = alpha + 3 * math.sqrt(alpha * (1 - alpha) / R)
    return np.array(lhs), np.full(len(lhs), allowed), labels


#: A claim's compute from a cached certified ``(lhs, rhs, labels, domain, certificate)``
#: (:func:`dpsemantics.claims.certify.verdict_from`).
_certified = functools.partial(verdict_from, fields=("domain", "certificate"), evidence="certified-lp")


#: A claim's compute from a cached ``(lhs, rhs, labels, domain, certificate, points)`` of LPs solved at finitely many
#: parameter values (``points``: one string each, ``"e^ε = 3/2"``): a ``certified-at-points`` verdict.
_certified_at_points = functools.partial(verdict_from, fields=("domain", "certificate", "points"),
                                         evidence="certified-lp")


#: A Table 1 certificate's compute: certified at points when it holds; refuted by an LP's primal mechanism (an
#: optimised search) when it does not (:func:`_table1_certificate`).
_table1_verdict = functools.partial(verdict_from, fields=("domain", "certificate", "points", "evidence"))


#: the rational e^ε at which the mechanism LPs are solved, and the normalised probability q = 𝒜(d′)(0)
LP_EXP_EPS = (Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(5))


LP_Q = Fraction(1, 50)


def _points(values=LP_EXP_EPS):
    """The listed e^ε of a certificate at points, one string each."""
    return tuple(f"e^ε = {E}" for E in values)


def _pair_lp(n, k, m, exp_eps, pair):
    """max 𝒜(d)(0) s.t. 𝒜(d′)(0) = q over every ε-DP mechanism on {0..k−1}ⁿ with m outputs."""
    d, d2 = pair
    return mechanism_lp(n, k, m, exp_eps, neighbours(n, k), {d: 1}, {d2: 1}, LP_Q)


def _lp_text(count, sizes):
    from .certify import lp_sizes

    return (f"{count} LPs of sizes {lp_sizes(sizes)} (HiGHS), each bounded by an exact-rational dual checked with "
            "fractions")


#: the e^ε at which every comparison and every pair is solved (the other e^ε of :data:`LP_EXP_EPS`: a subset)
LP_PIVOT = Fraction(3, 2)


def _weighted_populations(n, k):
    """The populations over {0..k−1}ⁿ that are not point masses or two-point: uniform, the data points all equal (½ on
    0ⁿ, ½ on 1ⁿ: correlated), i.i.d. with a skewed marginal, and uniform on {0..k−2}ⁿ (no data point takes k−1)."""
    dbs = list(itertools.product(range(k), repeat=n))
    marginal = [Fraction(2 ** (k - 1 - v), 2 ** k - 1) for v in range(k)]
    rest = list(itertools.product(range(k - 1), repeat=n))
    return [("uniform", {d: Fraction(1, len(dbs)) for d in dbs}),
            ("all data points equal (½ on 0ⁿ, ½ on 1ⁿ)", {(0,) * n: Fraction(1, 2), (1,) * n: Fraction(1, 2)}),
            (f"i.i.d. with marginal ({', '.join(map(str, marginal))})",
             {d: math.prod((marginal[v] for v in d), start=Fraction(1)) for d in dbs}),
            (f"uniform on {{0..{k - 2}}}ⁿ (no data point is {k - 1})", {d: Fraction(1, len(rest)) for d in rest})]


def lp_populations(n: int, k: int):
    """The populations at which the Table 1 LPs write each definition (named): every point mass, every two-point
    population ½ on each of two neighbouring databases, and :func:`_weighted_populations`."""
    dbs = list(itertools.product(range(k), repeat=n))
    half = Fraction(1, 2)
    return ([(f"point mass at {d}", {d: Fraction(1)}) for d in dbs]
            + [(f"½ on {d}, ½ on {d2}", {d: half, d2: half}) for d, d2 in neighbours(n, k) if d < d2]
            + _weighted_populations(n, k))


@functools.cache
def _dp_implies_cases(number, n, k, exp_eps, weighted_only):
    """DP ⇒ Definition ``number``: for each comparison of the definition at each population of
    :func:`lp_populations` (``weighted_only``: :func:`_weighted_populations`), the worst ε-DP mechanism's left side
    given right side = q, against e^ε·q.  Returns ``[(bound, e^ε·q, label, size)]``."""
    pops = _weighted_populations(n, k) if weighted_only else [
        (name, p) for name, p in lp_populations(n, k) if not name.startswith("½ on")]
    dp = [({d1: 1}, {d2: 1}) for d1, d2 in neighbours(n, k)]
    out, seen = [], set()
    for name, population in pops:
        for label, left, right in definition_forms(number, population, n, k):
            key = (frozenset(left.items()), frozenset(right.items()))
            if key in seen:
                continue
            seen.add(key)
            cert = form_lp(n, k, 3, exp_eps, dp, left, right, LP_Q)
            out.append((float(cert.bound), float(exp_eps * LP_Q),
                        f"DP ⇒ Def. {number}, e^ε = {exp_eps}, {name}: worst {label.replace(' against ', ' given ')}"
                        f" = {LP_Q}", cert.size, cert.primal))
    return out


@functools.cache
def _implies_dp_cases(number, n, k, exp_eps, populations, all_pairs):
    """Definition ``number`` ⇒ DP: the definition's comparisons at the named ``populations`` (a tuple of names of
    :func:`lp_populations`) as the hypothesis; for every ordered neighbour pair (or the first, without ``all_pairs``)
    the worst mechanism's 𝒜(d)(0) given 𝒜(d′)(0) = q, against e^ε·q."""
    named = dict(lp_populations(n, k))
    hypothesis, seen = [], set()
    for name in populations:
        for _, left, right in definition_forms(number, named[name], n, k):
            key = (frozenset(left.items()), frozenset(right.items()))
            if key not in seen:
                seen.add(key)
                hypothesis.append((left, right))
    where = populations[0] if len(populations) == 1 else f"{len(populations)} populations"
    pairs = neighbours(n, k) if all_pairs else neighbours(n, k)[:1]
    out = []
    for d, d2 in pairs:
        cert = form_lp(n, k, 3, exp_eps, hypothesis, {d: 1}, {d2: 1}, LP_Q)
        out.append((float(cert.bound), float(exp_eps * LP_Q),
                    f"Def. {number} ({where}) ⇒ DP, e^ε = {exp_eps}: worst 𝒜{d}(0) given 𝒜{d2}(0) = {LP_Q}",
                    cert.size, cert.primal))
    return out


#: why DP ⇒ the definition at the listed populations extends to every population (a step the LPs do not check)
_EVERY_POPULATION = {
    2: "where Pr[D=d] > 0, Pr[O | D=d] = 𝒜(d), so every comparison at every population is one of the pair ratios",
    3: "none: the definition conditions on one data point, which the LPs show DP does not bound",
    4: "at an independent population Pr[O | Dᵢ=v] = Σ 𝒫₋ᵢ(u) 𝒜(u, v) is linear in 𝒫₋ᵢ, so its ratio is largest at a "
       "point mass (the mediant inequality)",
    5: "by Lemma 1 the comparison is 𝒜(d) against 𝒜(d′) at every population",
    7: "Pr[O | do(Dᵢ=v)] is linear in 𝒫 (Lemma 2), so its ratio is largest at a point mass (the mediant inequality)",
}
_EVERY_POPULATION |= {6: _EVERY_POPULATION[5], 8: _EVERY_POPULATION[7], 10: _EVERY_POPULATION[2]}


#: why the definition at the listed populations implies DP at every given population (given-population definitions)
_GIVEN_POPULATION = {6: "by Lemma 1 Definition 6's comparisons are the same at every population",
                     7: "none: Definition 7 at a population that never produces a value leaves that value's "
                        "databases unconstrained",
                     10: "a population of full support gives every database positive probability, so Definition 10's "
                         "comparisons are the pair ratios; other populations leave databases unconstrained"}


@functools.cache
def _table1_certificate(number, relation=None, n=2, k=3, given=None, given_step=None):
    """Table 1 row ``number`` (``relation``: "eq", "le" (DP ⇒ the definition) or "ge" (the definition ⇒ DP); default
    the paper's, :data:`TABLE1_DIRECTION`) on every mechanism with 3 outputs on {0..k−1}ⁿ, at rational e^ε, with the
    definition written into the LPs (:func:`definition_forms`): as the objective against a DP hypothesis for DP ⇒ it,
    as the hypothesis for it ⇒ DP.  A universally quantified definition is assumed at every population of
    :func:`lp_populations` at once (a consequence of it); a definition for a given population at each of ``given``
    (default the weighted populations) in turn.  At e^ε = 3/2 every comparison and every pair is solved, at the other
    e^ε the weighted populations' comparisons and one pair.  ``given_step``: why the given populations stand for every
    population (default :data:`_GIVEN_POPULATION`)."""
    relation = relation or TABLE1_DIRECTION[number]
    if relation not in ("eq", "le", "ge"):
        raise ValueError(f"relation must be 'eq', 'le' or 'ge' (got relation={relation!r})")
    universal = number in UNIVERSAL_DEFINITIONS
    given = given or tuple(name for name, _ in _weighted_populations(n, k))
    cases, parts = [], []
    if relation in ("eq", "le"):
        for E in LP_EXP_EPS:
            cases += _dp_implies_cases(number, n, k, E, E != LP_PIVOT)
        weighted = "; ".join(name for name, _ in _weighted_populations(n, k))
        parts.append(f"DP ⇒ Definition {number}: its comparisons as the objective at every point mass and at the "
                     f"populations {weighted} (at e^ε = {LP_PIVOT}; the latter at the other e^ε); at every other "
                     "population: "
                     f"{_EVERY_POPULATION[number]} (a step the LPs do not check)")
    if relation in ("eq", "ge"):
        hypotheses = [tuple(name for name, _ in lp_populations(n, k))] if universal else [(g,) for g in given]
        for E in LP_EXP_EPS:
            for h in hypotheses:
                cases += _implies_dp_cases(number, n, k, E, h, E == LP_PIVOT)
        if universal:
            parts.append(f"Definition {number} ⇒ DP: its comparisons at all {len(hypotheses[0])} listed populations as "
                         "the hypothesis (a consequence of its 'for all populations'), every neighbour pair at e^ε = "
                         f"{LP_PIVOT}, one at the others")
        else:
            step = given_step or _GIVEN_POPULATION[number]
            parts.append(f"Definition {number} ⇒ DP: its comparisons at each of {', '.join(given)} in turn as the "
                         f"hypothesis; at every other population: {step} (a step the LPs do not check)")
    lhs, rhs, labels, sizes, primal = (list(x) for x in zip(*cases))
    violated = [j for j, (a, b) in enumerate(zip(lhs, rhs)) if a > b * (1 + 1e-9)]
    for j in violated:  # a refutation rests on a mechanism that attains the value, not on the dual's upper bound
        lhs[j] = primal[j]
    values = ", ".join(map(str, LP_EXP_EPS))
    domain = (f"every mechanism with 3 outputs on {{0..{k - 1}}}^{n} with 𝒜(d′)(0) = q = {LP_Q}, at e^ε ∈ "
              f"{{{values}}}. " + "; ".join(parts))
    text = _lp_text(len(lhs), set(sizes))
    if violated:
        text += (f"; {len(violated)} cases refuted by the LP's primal: a mechanism HiGHS returns (feasible to its "
                 "tolerance, not checked exactly) that exceeds the bound")
    return (lhs, rhs, labels, domain, text, _points(),
            ("optimised-search",) if violated else "certified-lp")


@functools.cache
def _noninterference_certificate():
    """§2: interference ε ≤ n·ε_DP: the worst 𝒜(d)(0) over ε-DP mechanisms on {0,1}² given 𝒜(d′)(0) = q, d and d′ at
    distance n = 2, against e^{2ε}·q.  The lower bound ε_DP ≤ interference ε holds by definition (neighbours are pairs
    of databases) and is not an LP."""
    lhs, rhs, labels, sizes = [], [], [], set()
    pairs = neighbours(2, 2, 2)
    for E in LP_EXP_EPS:
        for pair in (pairs if E == LP_PIVOT else pairs[:1]):
            cert = _pair_lp(2, 2, 3, E, pair)
            sizes.add(cert.size)
            lhs.append(float(cert.bound)), rhs.append(float(min(E**2 * LP_Q, 1)))
            labels.append(f"interference ≤ 2·ε_DP: e^ε = {E}: worst 𝒜{pair[0]}(0) given 𝒜{pair[1]}(0) = {LP_Q}")
    domain = (f"every ε-DP mechanism with 3 outputs on {{0,1}}² (n = 2) with 𝒜(d′)(0) = q = {LP_Q}, at e^ε ∈ "
              f"{{{', '.join(map(str, LP_EXP_EPS))}}}: interference ε ≤ 2·ε_DP (every pair two apart at e^ε = "
              f"{LP_PIVOT}, one at the others); ε_DP ≤ interference ε and the ε = 0 case (noninterference) follow from "
              "the definitions, every neighbour pair being a pair of databases (not an LP)")
    return lhs, rhs, labels, domain, _lp_text(len(lhs), sizes), _points()


@functools.cache
def _arcs_certificate():
    """Figure 2's arcs (d) and (e): with either assumption DP implies the adversary's check with the same ε — DP ⇒
    Definition 4 (independent data points) and DP ⇒ Definition 10 (a strong adversary), each written into the LPs
    (:func:`_dp_implies_cases`); without one, the LP at the population ½ on (0, 0), ½ on (1, 1) (Definition 3's
    check, correlated data points) reaches e^{2ε}·q, above DP's e^ε·q (lhs DP's bound, rhs the LP's primal, a
    mechanism that attains it)."""
    cases = []
    for number, assumption in ((4, "independent data points"), (10, "strong adversary")):
        for E in LP_EXP_EPS:
            cases += [(a, b, f"with {assumption}: {label}", size)
                      for a, b, label, size, _ in _dp_implies_cases(number, 2, 3, E, E != LP_PIVOT)]
    lhs, rhs, labels, sizes = (list(x) for x in zip(*cases))
    sizes = set(sizes)
    for E in LP_EXP_EPS[:3]:
        cert = mechanism_lp(2, 3, 3, E, neighbours(2, 3), {(1, 1): 1}, {(0, 0): 1}, LP_Q)
        sizes.add(cert.size)
        lhs.append(float(E * LP_Q)), rhs.append(cert.primal)
        labels.append(f"without: e^ε = {E}, correlated population, DP's e^ε·q against the worst ε-DP mechanism's "
                      f"Pr[O=0 | D₁=1] given Pr[O=0 | D₁=0] = {LP_Q}")
    domain = (f"every mechanism with 3 outputs on {{0,1,2}}² with 𝒜(d′)(0) = q = {LP_Q}, at e^ε ∈ "
              f"{{{', '.join(map(str, LP_EXP_EPS))}}}: with either assumption, Definition 4's and Definition 10's "
              "comparisons at the listed populations as the LPs' objective (every other population: "
              f"{_EVERY_POPULATION[4]}; {_EVERY_POPULATION[10]} — steps the LPs do not check); without, at the "
              "correlated population ½ on (0,0), ½ on (1,1)")
    return lhs, rhs, labels, domain, _lp_text(len(lhs), sizes), _points()


def _population_lps(cases):
    """``cases``: (label, a, b, bound): the sup over populations of Σ𝒫(u)a_u / Σ𝒫(u)b_u (a_u, b_u at the point
    masses) against ``bound``, each by :func:`~dpsemantics.claims.causal_evidence.population_ratio_lp`."""
    lhs, rhs, labels, sizes = [], [], [], set()
    for label, a, b, bound in cases:
        value, size = population_ratio_lp(a, b)
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
    return out + [random_mechanism(rng, n=2, k=2, m=3, zero_prob=0.0) for _ in range(2)]


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
    bound, attained, lps = worst_interventional_ratio(causal.inheritance_model(EPS), "O", "D1")
    lhs = [bound, math.exp(EPS)]
    rhs = [math.exp(EPS), attained]
    labels = ["sup over populations of Pr[O=o | do(D1=v)]/Pr[O=o | do(D1=v′)] ≤ e^ε",
              "e^ε ≤ the ratio at a point-mass population (attained)"]
    return lhs, rhs, labels, \
        f"every population of the inheritance model (every joint law of R₁, U₂, C, R₃), ε = {EPS}", \
        f"{lps} LPs of size 16/0/1 (HiGHS), each bounded by an exact-rational dual checked with fractions", \
        (f"ε = {EPS}",)


@functools.cache
def _rr_relatives_certificate():
    lhs, rhs, labels, total = [], [], [], 0
    for k in range(5):
        bound, attained, lps = worst_interventional_ratio(causal.randomized_response_model(EPS, k), "O", "R1")
        total += lps
        lhs += [bound, math.exp((k + 1) * EPS)]
        rhs += [math.exp((k + 1) * EPS), attained]
        labels += [f"{k} relatives: sup ratio ≤ e^{{(k+1)ε}}", f"{k} relatives: e^{{(k+1)ε}} attained at a point mass"]
    return lhs, rhs, labels, f"every population of the randomized-response model with k = 0..4 relatives, ε = {EPS}", \
        f"{total} LPs (HiGHS), each bounded by an exact-rational dual checked with fractions", (f"ε = {EPS}",)


@functools.cache
def _definition9_certificate():
    bound, attained, lps = worst_interventional_ratio(causal.prog_a_model(EPS, with_database=False), "O", "D1")
    return [bound], [math.exp(-1)], ["prog_A: sup over populations of RP̄(O, D1) against the printed e^{-1}"], \
        f"every population of prog_A, ε = {EPS}", f"{lps} LPs (HiGHS), each bounded by an exact-rational dual"


@functools.cache
def _def4_printed_certificate():
    """Def. 4's printed condition admits the population with all three data points equal; there Pr[O | D₁=v] =
    𝒜(v, v, v), so the worst ε-DP mechanism on {0,1}³ reaches e^{3ε} (the LP over every such mechanism)."""
    lhs, rhs, labels, sizes = [], [], [], set()
    for E in LP_EXP_EPS[:3]:
        cert = mechanism_lp(3, 2, 2, E, neighbours(3, 2), {(1, 1, 1): 1}, {(0, 0, 0): 1}, LP_Q)
        sizes.add(cert.size)
        lhs.append(cert.primal), rhs.append(float(E * LP_Q))
        labels.append(f"e^ε = {E}: worst Pr[O=0 | D₁=1] given Pr[O=0 | D₁=0] = {LP_Q}, all data points equal "
                      f"(attains e^(3ε)·q = {float(E ** 3 * LP_Q):.4g})")
    return lhs, rhs, labels, \
        "every ε-DP mechanism with 2 outputs on {0,1}³, at the all-equal population (which meets " \
        "the printed condition)", _lp_text(len(lhs), sizes) + "; the primal values are attained"


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


def _table1_statement(number, statement):
    """A Table 1 relation claim's statement: the row's text, the printed relation and how it was computed."""
    printed = causal.DEFINITIONS[number][3]
    how = " (Definitions 5 and 6 computed with do() queries on the structural model)" if number in (5, 6) else ""
    return statement + f" (printed relation {printed}; computed on 40 random mechanisms × 6 populations{how})"


_DIRECTION_TEXT = {
    "eq": "the same ε both ways (ε_def ≤ ε_DP and ε_DP ≤ ε_def)",
    "ge": "the definition implies DP with the same ε (ε_DP ≤ ε_def)",
    "le": "DP implies the definition with the same ε (ε_def ≤ ε_DP, at the worst population tried)",
}


def _attack_statement(number):
    """A Table 1 attack claim's statement: the definition, its direction to DP and the LPs' domain."""
    name = causal.DEFINITIONS[number][0]
    return (f"{name} (Definition {number}) and DP: {_DIRECTION_TEXT[TABLE1_DIRECTION[number]]}; "
            "every mechanism with 3 outputs on {0,1,2}², by LPs that take the definition's own comparisons "
            "(its conditioning or intervention at each listed population) as their objective or hypothesis")


#: §5.2 with one data point: why Definition 7 at the listed populations stands for every population
ONE_DATA_POINT = "with one data point Pr[O | do(D₁=v)] = 𝒜(v) at every population (Lemma 1)"


#: Proposition 1's proof: the populations of full support among :func:`lp_populations` (n = 2, k = 3)
FULL_SUPPORT = tuple(name for name, p in lp_populations(2, 3) if len(p) == 9 and all(w > 0 for w in p.values()))


@functools.cache
def _zero_bayesian0_universal():
    """§7 under the paper's Definition 3 (for all populations): 0-Bayesian₀ DP implies independence of D and O.
    Definition 3 with ε = 0 at every population of :func:`lp_populations` as the hypothesis, every neighbour pair: the
    worst 𝒜(d)(0) given 𝒜(d′)(0) = q is q (e^ε = 1), so 𝒜(d) = 𝒜(d′) for neighbours, every row of 𝒜 is the same and O
    is independent of D at every population.  (The randomized response on D₁ ⊕ D₂ that refutes the one-population
    reading, :func:`_bayesian0_without_independence`, is not 0-Bayesian₀ DP: :func:`xor_universal_epsilon`.)"""
    names = tuple(name for name, _ in lp_populations(2, 3))
    cases = _implies_dp_cases(3, 2, 3, Fraction(1), names, True)
    lhs, rhs, labels, sizes, _ = (list(x) for x in zip(*cases))
    domain = (f"every mechanism with 3 outputs on {{0,1,2}}² with 𝒜(d′)(0) = q = {LP_Q}, at e^ε ∈ {{1}} (ε = 0): "
              f"Definition 3's comparisons at all {len(names)} listed populations as the hypothesis (a consequence of "
              "its 'for all populations'); then every row of 𝒜 is the same (neighbours connect {0,1,2}²) and D, O are "
              "independent at every population (a step the LPs do not check)")
    return lhs, rhs, labels, domain, _lp_text(len(lhs), set(sizes)), _points((Fraction(1),))


def xor_universal_epsilon(eps=0.5):
    """Definition 3's ε for randomized response on D₁ ⊕ D₂ over every population (:func:`universal_epsilon`): the
    mechanism that refutes §7's reason at one population is not 0-Bayesian₀ DP under the paper's quantifier."""
    return causal.universal_epsilon(3, xor_randomized_response(eps))


def table1_verdict(number: int, relation: str | None = None) -> Verdict:
    """The certificate of Table 1 row ``number`` (:func:`_table1_certificate`) asked for ``relation`` ("eq": the
    definition ↔ DP, "le": DP ⇒ it, "ge": it ⇒ DP; default the paper's) as a verdict: asked for a relation the
    paper does not state ("Definition 3 ↔ DP", "Definition 7 ↔ DP") it is refuted."""
    return _table1_verdict(functools.partial(_table1_certificate, number, relation))()


# --- Slips of §1.1 and §4 found on a line-by-line reading (issue 35) -----------------------------------------------


def _recursive_order_direction() -> str:
    """§4's recursive SEMs: an order with the background variables first in which 'no variable has a parent that
    comes before it' (as printed) or after it.  Enumerates every such order of prog_status's variables (R₁, R₃
    background; R₂, D₁, D₂, D₃, D, O endogenous) and returns the direction that some order satisfies."""
    model = causal.prog_status_model()
    endogenous = list(model.parents)
    ok = {"before": False, "after": False}
    for head in itertools.permutations(model.background):
        for tail in itertools.permutations(endogenous):
            pos = {v: k for k, v in enumerate(head + tail)}
            edges = [(pos[p], pos[v]) for v in endogenous for p in model.parents[v]]
            ok["before"] |= all(p > v for p, v in edges)  # no parent comes before its child
            ok["after"] |= all(p < v for p, v in edges)  # no parent comes after its child
    found = [k for k, v in ok.items() if v]
    return found[0] if len(found) == 1 else "ambiguous"


def _what_screens_off_the_population() -> str:
    """§1.1: interventions 'examine the behavior of just the differential privacy algorithm itself'.  In the survey
    model with two mechanisms (the ε-DP count and a constant one) and two populations: do() on every data point gives
    each mechanism's own output distribution whatever the population (Lemma 1, eq. (44)); do(O = o) gives the same
    point mass for both mechanisms.  Returns which intervention tells the algorithms apart."""
    count = geometric_count(2, EPS)
    constant = FiniteMechanism(np.full((4, 3), 1 / 3), count.databases, [0, 1, 2])
    inputs_ok, at_outputs = True, []
    for mech in (count, constant):
        model = causal.survey_model(mech)
        pops = [model.uniform_population(),
                model.independent_population({"R1": {0: 0.9, 1: 0.1}, "R2": {0: 0.3, 1: 0.7}})]
        for d in mech.databases:
            for p in pops:
                row = [model.probability(p, {"O": o}, do={"D1": d[0], "D2": d[1]}) for o in mech.outputs]
                inputs_ok &= bool(np.allclose(row, mech.row(d)))
        at_outputs.append(tuple(round(model.probability(pops[0], {"O": o}, do={"O": 1}), 12) for o in mech.outputs))
    tells_apart = len(set(at_outputs)) > 1
    return "inputs" if inputs_ok and not tells_apart else "outputs"
