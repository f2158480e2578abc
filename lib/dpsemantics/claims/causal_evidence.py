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
programs at the end of this module: :func:`mechanism_lp` (the worst mechanism with m outputs on kⁿ databases meeting
a hypothesis given by pairs of databases) and :func:`population_ratio_lp` (the supremum over every population of a
ratio of two linear functions of the population, Charnes–Cooper), each bounded by an exact-rational dual
(:func:`dpsemantics.claims.certify.lp_upper_bound`).  :mod:`dpsemantics.claims.tsd` states each reduction.
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

__all__ = ["classify_relation", "Table1Row", "table1", "hill_climb", "TABLE1_DIRECTION", "definition_pair",
           "attack_table1_row", "AssumptionArc", "assumption_arcs", "population_ratio_lp", "mechanism_lp", "neighbours",
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


def mechanism_lp(n: int, k: int, m: int, exp_eps, hypothesis, objective, normaliser, q):
    """The worst mechanism on {0..k−1}ⁿ with ``m`` outputs for one linear comparison at output 0:
    max Σ_d objective[d]·𝒜(d)(0)  s.t.  Σ_d normaliser[d]·𝒜(d)(0) = q,  𝒜(d)(o) ≤ e^ε 𝒜(d′)(o) for every
    (d, d′) in ``hypothesis`` and every o, rows of 𝒜 distributions.  ``exp_eps`` and ``q`` are Fractions,
    ``objective``/``normaliser`` map databases to Fractions.  Returns the LP certificate (its ``bound`` is an exact
    rational upper bound on the optimum)."""
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
    for d1, d2 in hypothesis:
        for o in range(m):
            row = [zero] * size
            row[var(d1, o)], row[var(d2, o)] = one, -Fraction(exp_eps)
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
