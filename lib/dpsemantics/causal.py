"""Differential privacy as a causal property (Tschantz, Sen & Datta, "Differential Privacy as a Causal
Property"; paper key ``tsd``).

Three layers, each exact (no sampling):

1. :class:`StructuralModel` — a finite *probabilistic structural equation model* (§4 and Appendix C):
   background (exogenous) variables with finite domains, a population distribution 𝒫 over them, and
   one possibly randomised structural equation ``X := F_X(pa(X))`` per endogenous variable.  Queries
   compute Pr_{𝓜,𝒫}[event | given, do(...)] by running the equations in causal order (Appendix C,
   eq. 43), with Pearl's sub-model 𝓜[Z := z] for interventions.
2. Effect sizes (§6.1): the relative probability RP (eq. 26), its maximum over values RP̄ (eq. 27),
   and the ε of bounded relative probability, BRP (Definition 9), which maximises over every
   population.  The maximum over populations is attained at a point-mass population: Pr[Y=y | do(X=x)]
   is linear in 𝒫, and a ratio of two linear functions of the same weights never exceeds the largest
   ratio of their terms (the mediant inequality).  :func:`brp_epsilon` uses that.
3. Definitions 1–8 and 10 (Table 1, Appendix B) for a mechanism 𝒜 on databases 𝒟ⁿ and a population
   𝒫 over data points, in the model 𝓜^𝒜 with ``D_i := R_i`` and ``O := 𝒜(D)``.  :func:`definition_epsilon`
   returns the smallest ε for which a definition's inequality holds at one population, using Lemma 1
   (eq. 44) and Lemma 2 (eq. 78) in vectorised form; the tests check those formulas against the
   generic engine of layer 1.  :func:`universal_epsilon` takes the supremum over populations.

Values of variables are any hashable Python objects; data points in the ready-made models are 0 (neg)
and 1 (pos).  Nothing here draws random numbers: the random mechanisms, populations and models that the searches
use, and §8's simulated experiment, are in ``dpsemantics.claims.causal_evidence``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Callable, Hashable, Sequence

import numpy as np

from ._validate import (as_float, check_distribution, check_epsilon, check_positive_int, check_probability,
                        check_instance, check_record_count, check_row_stochastic, check_single_value)
from ._rounding import log_up, rational_up
from .mechanisms import FiniteMechanism, geometric_count, randomized_response

__all__ = [
    "StructuralModel",
    "relative_probability",
    "max_relative_probability",
    "effect_size",
    "brp_epsilon",
    "prog_a_model",
    "survey_model",
    "prog_status_model",
    "sequence_model",
    "mechanism_tensor",
    "definition_epsilon",
    "universal_epsilon",
    "candidate_populations",
    "DEFINITIONS",
    "UNIVERSAL_INNER",
    "appendix_b_mechanism",
    "proposition4_mechanism",
    "posterior",
    "definition_epsilon_sem",
    "exact_count",
    "randomized_response_model",
    "relatives_effect",
    "log_ratio_by_value",
    "inheritance_model",
    "inheritance_population",
    "interference_epsilon",
    "adversary_learning",
    "path_effects",
    "nondisclosure_epsilon",
    "nondisclosing_example",
    "pairwise_conditionally_independent",
]

Event = Mapping[str, Hashable] | Callable[[dict], bool]


def _is_distribution(value) -> bool:
    return isinstance(value, Mapping)


# --------------------------------------------------------------------------------------------------
# 1. Finite probabilistic structural equation models
# --------------------------------------------------------------------------------------------------


class StructuralModel:
    """A recursive structural equation model with finite domains and randomised equations (§4).

    Parameters
    ----------
    background:
        ``{name: domain}`` for the background (exogenous) variables, in the order used by population
        keys.  A domain may contain values the population gives probability zero.
    equations:
        ``{name: (parents, function)}``: ``function(*parent_values)`` returns either a value (a
        deterministic equation) or a mapping ``{value: probability}`` (a randomised equation, footnote 1
        of the paper).  Listing order does not matter; the causal order is computed.
    domains:
        optional ``{name: domain}`` for endogenous variables (needed when a variable should accept an
        intervention on a value its equation never produces); otherwise inferred from the equations.

    Every equation is evaluated once on every combination of its parents' domains when the model is
    built, so a randomised equation whose probabilities do not sum to one, or a value outside a declared
    domain, is reported immediately.  A cycle, an unknown parent or a name used twice is a ``ValueError``.
    """

    def __init__(self, background: Mapping[str, Sequence], equations: Mapping[str, tuple], domains=None):
        if not isinstance(background, Mapping) or not isinstance(equations, Mapping):
            raise ValueError("background and equations must be mappings from variable names")
        self.background = list(background)
        self.domains: dict[str, list] = {}
        for name, dom in background.items():
            dom = list(dom)
            if not dom:
                raise ValueError(f"domain of background variable {name!r} must not be empty")
            if len(set(dom)) != len(dom):
                raise ValueError(f"domain of background variable {name!r} repeats a value (got {dom!r})")
            self.domains[name] = dom
        self.parents: dict[str, tuple] = {}
        self.functions: dict[str, Callable] = {}
        for name, spec in equations.items():
            if name in self.domains:
                raise ValueError(f"variable {name!r} is both a background variable and has an equation")
            try:
                parents, function = spec
            except (TypeError, ValueError):
                raise ValueError(f"equation of {name!r} must be a pair (parents, function) (got {spec!r})") from None
            parents = tuple(parents)
            if name in parents:
                raise ValueError(f"variable {name!r} may not be its own parent (a cyclic model)")
            if not callable(function):
                raise ValueError(f"function of {name!r} must be callable (got {function!r})")
            self.parents[name] = parents
            self.functions[name] = function
        known = set(self.domains) | set(self.parents)
        for name, parents in self.parents.items():
            for p in parents:
                if p not in known:
                    raise ValueError(f"parent {p!r} of {name!r} is not a variable of the model")
        self.order = self._causal_order()
        self.variables = self.background + self.order
        self._position = {v: i for i, v in enumerate(self.variables)}
        declared = dict(domains or {})
        for name in declared:
            if name not in self.parents:
                raise ValueError(f"domains may only be declared for endogenous variables (got {name!r})")
        self._tables: dict[str, dict] = {}
        for name in self.order:
            table = {}
            produced: list = []
            for values in itertools.product(*(self.domains[p] for p in self.parents[name])):
                dist = self._evaluate(name, values)
                table[values] = dist
                for v in dist:
                    if v not in produced:
                        produced.append(v)
            if name in declared:
                dom = list(declared[name])
                outside = [v for v in produced if v not in dom]
                if outside:
                    raise ValueError(f"equation of {name!r} produces {outside[0]!r}, outside its declared "
                                     f"domain {dom!r}")
            else:
                dom = produced
            self.domains[name] = dom
            self._tables[name] = table

    def _causal_order(self) -> list[str]:
        """Kahn's algorithm over the endogenous variables; a leftover set is a cycle."""
        remaining = {v: {p for p in ps if p in self.parents} for v, ps in self.parents.items()}
        order = []
        while remaining:
            ready = [v for v, ps in remaining.items() if not ps]
            if not ready:
                raise ValueError(f"the model must be recursive (acyclic); a cycle runs through {sorted(remaining)}")
            for v in ready:
                order.append(v)
                del remaining[v]
            for ps in remaining.values():
                ps.difference_update(ready)
        return order

    def _evaluate(self, name, values) -> dict:
        out = self.functions[name](*values)
        if not _is_distribution(out):
            return {out: 1.0}
        keys = list(out)
        where = dict(zip(self.parents[name], values))
        probs = check_distribution([out[k] for k in keys], f"distribution of {name} at {where}")
        return {k: float(p) for k, p in zip(keys, probs) if p > 0}

    # ---------------------------------------------------------------- checks on queries
    def _check_variable(self, name, role="variable"):
        if name not in self._position:
            raise ValueError(f"{role} {name!r} is not a variable of the model (variables: {self.variables})")

    def _check_assignment(self, assignment, role) -> dict:
        if assignment is None:
            return {}
        if not isinstance(assignment, Mapping):
            raise ValueError(f"{role} must be a mapping from variable names to values (got {assignment!r})")
        for name, value in assignment.items():
            self._check_variable(name, f"{role} variable")
            if value not in self.domains[name]:
                raise ValueError(f"{role} value {name}={value!r} is outside the domain of {name} "
                                 f"{self.domains[name]!r}")
        return dict(assignment)

    def check_population(self, population) -> dict:
        """Validate 𝒫: a mapping from tuples of background values (in ``background`` order) to
        probabilities summing to one; a model with one background variable also accepts bare values."""
        if not isinstance(population, Mapping) or not population:
            raise ValueError(f"population must be a non-empty mapping from background values to probabilities "
                             f"(got {population!r})")
        keys = []
        for key in population:
            single = len(self.background) == 1 and not (isinstance(key, tuple) and len(key) == 1)
            k = (key,) if single else key
            if not isinstance(k, tuple) or len(k) != len(self.background):
                raise ValueError(f"population key {key!r} must give one value for each of {self.background}")
            for name, v in zip(self.background, k):
                if v not in self.domains[name]:
                    raise ValueError(f"population key {key!r}: value {v!r} is outside the domain of {name} "
                                     f"{self.domains[name]!r}")
            keys.append(k)
        probs = check_distribution([population[k] for k in population], "population")
        return {k: float(p) for k, p in zip(keys, probs)}

    def uniform_population(self) -> dict:
        """The uniform distribution over all background assignments."""
        keys = list(itertools.product(*(self.domains[b] for b in self.background)))
        return {k: 1.0 / len(keys) for k in keys}

    def independent_population(self, marginals: Mapping[str, Mapping]) -> dict:
        """The product of one marginal per background variable (``{name: {value: prob}}``)."""
        missing = [b for b in self.background if b not in marginals]
        if missing:
            raise ValueError(f"marginals must give a distribution for every background variable (missing {missing})")
        parts = []
        for b in self.background:
            vals = list(marginals[b])
            probs = check_distribution([marginals[b][v] for v in vals], f"marginal of {b}")
            parts.append(list(zip(vals, probs)))
        pop: dict = {}
        for combo in itertools.product(*parts):
            key = tuple(v for v, _ in combo)
            pop[key] = pop.get(key, 0.0) + math.prod(p for _, p in combo)
        return self.check_population(pop)

    def point_populations(self) -> list[dict]:
        """Every point-mass population (one per background assignment)."""
        return [{k: 1.0} for k in itertools.product(*(self.domains[b] for b in self.background))]

    # ---------------------------------------------------------------- semantics
    def joint(self, population, do=None) -> dict[tuple, float]:
        """The joint distribution of all ``variables`` in Pr_{𝓜[do],𝒫} (Appendix C, eq. 43),
        as ``{values: probability}`` over tuples in ``variables`` order (zero entries omitted)."""
        return self._joint(population, do, float)

    def _joint(self, population, do, number) -> dict:
        """:meth:`joint` with every probability read through ``number``: ``float`` (to nearest, the same floats as
        before ``number`` existed: 0 + p is p), or ``Fraction`` (the exact joint law of the model's float
        probabilities, which the measured ε's read)."""
        pop = self.check_population(population)
        do = self._check_assignment(do, "do")
        rows: dict[tuple, float] = {}
        for key, p in pop.items():
            if p <= 0:
                continue
            key = tuple(do.get(b, v) for b, v in zip(self.background, key))
            rows[key] = rows.get(key, 0) + number(p)
        for name in self.order:
            idx = [self._position[q] for q in self.parents[name]]
            new: dict[tuple, float] = {}
            for values, p in rows.items():
                dist = {do[name]: 1.0} if name in do else self._tables[name][tuple(values[i] for i in idx)]
                for v, q in dist.items():
                    key = values + (v,)
                    new[key] = new.get(key, 0) + p * number(q)
            rows = new
        return rows

    def _matcher(self, event, role):
        if event is None:
            return lambda values: True
        if callable(event) and not isinstance(event, Mapping):
            return lambda values: bool(event(dict(zip(self.variables, values))))
        event = self._check_assignment(event, role)
        pairs = [(self._position[k], v) for k, v in event.items()]
        return lambda values: all(values[i] == v for i, v in pairs)

    def probability(self, population, event, given=None, do=None) -> float:
        """Pr_{𝓜,𝒫}[event | given, do(...)]: ``event`` and ``given`` are ``{name: value}`` conjunctions or
        predicates on the full assignment; ``do`` is ``{name: value}``.  Conditioning on an event of
        probability zero is undefined and raises ``ValueError`` (interventions never do: §4)."""
        return float(self._probability(population, event, given, do, float))

    def _probability(self, population, event, given, do, number):
        """:meth:`probability` from ``_joint`` with ``number`` (``Fraction``: exactly)."""
        joint = self._joint(population, do, number)
        hit, cond = self._matcher(event, "event"), self._matcher(given, "given")
        den = sum(p for v, p in joint.items() if cond(v))
        if given is not None and den <= 0:
            raise ValueError(f"given={given!r} has probability zero under this population; conditioning on it is "
                             "undefined")
        num = sum(p for v, p in joint.items() if cond(v) and hit(v))
        return num / den if given is not None else num

    def distribution(self, population, variables, given=None, do=None) -> dict:
        """The (conditional, interventional) distribution of one variable or a tuple of variables."""
        return self._distribution(population, variables, given, do, float)

    def _distribution(self, population, variables, given, do, number) -> dict:
        """:meth:`distribution` from ``_joint`` with ``number``.  With ``Fraction`` each probability is exactly
        the joint mass of its event (eq. 43, as :meth:`probability` reads it), divided by the mass of ``given`` when
        there is a condition (Bayes' rule), and not renormalised otherwise: a randomised equation's floats may sum to
        1 ± an ulp, and renormalising would move an interventional law off the equation's own numbers."""
        single = isinstance(variables, str)
        names = (variables,) if single else tuple(variables)
        for n in names:
            self._check_variable(n)
        joint = self._joint(population, do, number)
        cond = self._matcher(given, "given")
        idx = [self._position[n] for n in names]
        out: dict = {}
        total = 0
        for values, p in joint.items():
            if cond(values):
                key = values[idx[0]] if single else tuple(values[i] for i in idx)
                out[key] = out.get(key, 0) + p
                total += p
        if total <= 0:
            raise ValueError(f"given={given!r} has probability zero under this population; conditioning on it is "
                             "undefined")
        if given is None and number is not float:
            return out
        return {k: v / total for k, v in out.items()}

    def submodel(self, assignment: Mapping) -> "StructuralModel":
        """Pearl's sub-model 𝓜[Z := z]: each listed endogenous variable's equation becomes a constant."""
        assignment = self._check_assignment(assignment, "assignment")
        for name in assignment:
            if name in self.background:
                raise ValueError(f"submodel replaces equations; {name!r} is a background variable (use do= in queries)")
        eqs = {}
        for name in self.order:
            if name in assignment:
                value = assignment[name]
                eqs[name] = ((), lambda value=value: value)
            else:
                eqs[name] = (self.parents[name], self.functions[name])
        return StructuralModel({b: self.domains[b] for b in self.background}, eqs,
                               {n: self.domains[n] for n in self.order})

    def edges(self) -> list[tuple[str, str]]:
        """Direct causal arrows (parent, child)."""
        return [(p, c) for c in self.order for p in self.parents[c]]

    def descendants(self, name) -> set[str]:
        self._check_variable(name)
        out, frontier = set(), {name}
        while frontier:
            nxt = {c for p, c in self.edges() if p in frontier} - out
            out |= nxt
            frontier = nxt
        return out


# --------------------------------------------------------------------------------------------------
# 2. Relative probability and bounded relative probability (§6.1)
# --------------------------------------------------------------------------------------------------


def _variables(model: StructuralModel, x, name: str) -> tuple:
    """``x`` (a variable name or a tuple of names) as a tuple of variables of ``model``; a ValueError naming the
    parameter ``name`` (effect, cause, …) otherwise."""
    names = (x,) if isinstance(x, str) else tuple(x) if isinstance(x, (tuple, list)) else None
    if not names or not all(isinstance(v, str) and v in model.variables for v in names):
        raise ValueError(f"{name} must be a variable of the model or a tuple of them (variables: {model.variables}; "
                         f"got {name}={x!r})")
    return names


def _check_model(model) -> StructuralModel:
    return check_instance(model, StructuralModel, "model")


def relative_probability(model: StructuralModel, population, event, do_first, do_second) -> float:
    """RP_{𝓜,𝒫}(ρ, φ, ψ) = Pr[ρ | do(φ)] / Pr[ρ | do(ψ)] (Tschantz et al., eq. 26).

    ``inf`` when only the denominator is zero; a ``ValueError`` when both are (the ratio is undefined).
    Rounded up (the ratio a bound RP ≤ e^ε reads): both probabilities are computed exactly in rationals from the
    model's floats and their ratio rounded once, to the smallest float not below it."""
    _check_model(model)
    for role, assignment in (("do_first", do_first), ("do_second", do_second)):
        model._check_assignment(assignment, role)
    p = model._probability(population, event, None, do_first, Fraction)
    q = model._probability(population, event, None, do_second, Fraction)
    if q == 0:
        if p == 0:
            raise ValueError(f"event={event!r} has probability zero under both interventions; RP is undefined")
        return math.inf
    return rational_up(p / q)


def _interventional_table(model, population, effect, cause, extra_do=None):
    """Rows: one per value of the cause (a tuple over the cause variables); columns: effect values; the entries
    exact (``Fraction``s of the model's floats)."""
    effect, cause = _variables(_check_model(model), effect, "effect"), _variables(model, cause, "cause")
    overlap = set(effect) & set(cause)
    if overlap:
        raise ValueError(f"effect and cause must be different variables (both contain {sorted(overlap)})")
    extra = dict(extra_do or {})
    if set(extra) & set(cause):
        raise ValueError("extra_do must not fix a cause variable")
    causes = list(itertools.product(*(model.domains[c] for c in cause)))
    dists = [model._distribution(population, effect, None, {**extra, **dict(zip(cause, x))}, Fraction)
             for x in causes]
    values = sorted({k for d in dists for k in d}, key=repr)
    return _exact_table([[d.get(v, 0) for v in values] for d in dists]), causes, values


def _exact_table(rows) -> np.ndarray:
    """A 2-D object array of the exact values (``Fraction``s) of ``rows`` (floats taken exactly)."""
    out = np.empty((len(rows), len(rows[0]) if len(rows) else 0), dtype=object)
    for i, row in enumerate(rows):
        out[i] = [x if isinstance(x, Fraction) else Fraction(x) for x in row]
    return out


def _max_ratio(num, den):
    """The largest num[j]/den[j] over matching entries, and 1 (the ratio of a value to itself), exactly: entries are
    ``Fraction``s or floats taken exactly; 0/0 is skipped and a positive num over den = 0 gives ``inf``."""
    best = Fraction(1)
    for a, b in zip(np.ravel(num).tolist(), np.ravel(den).tolist()):
        if a > 0:
            if b == 0:
                return math.inf
            r = Fraction(a) / Fraction(b)
            if r > best:
                best = r
    return best


def _max_table_ratio(table: np.ndarray):
    """max over columns y and rows x1, x2 of table[x1, y] / table[x2, y], exactly (``_max_ratio``)."""
    best = Fraction(1)
    for column in np.asarray(table, dtype=object).T:
        col = [x if isinstance(x, Fraction) else Fraction(x) for x in column.tolist()]
        best = max(best, _max_ratio([max(col)], [min(col)]))
    return best


def _log_max_ratio(table: np.ndarray) -> float:
    """max over columns y and rows x1, x2 of log(table[x1, y] / table[x2, y]), skipping 0/0 (0 if nothing is left).

    Rounded up: the ratio is found exactly in rationals (the table's exact entries), and its logarithm rounded
    once, up (``_rounding.log_up``: at most one ulp above the smallest float not below the exact
    ε; 0 exactly when the columns are constant, positive whenever the exact ε is)."""
    return log_up(_max_table_ratio(table))


def max_relative_probability(model: StructuralModel, population, effect, cause, *, extra_do=None) -> float:
    """RP̄_{𝓜,𝒫}(Y, X) = max_{y, x₁, x₂} RP(Y=y, X=x₁, X=x₂) (Tschantz et al., eq. 27).

    ``effect`` (Y) and ``cause`` (X) are variable names or tuples of names (a tuple cause is a joint
    intervention with several do operators, §6.3).  ``extra_do`` fixes further variables in every query
    (the sub-model 𝓜[Y := y] of Theorem 1).  Pairs with probability zero under both interventions are
    skipped (the inequality Pr ≤ e^ε Pr holds for them); a value reachable under one intervention only
    gives ``inf``.  Rounded up: the exact ratio of the model's rational probabilities, rounded once."""
    table, _, _ = _interventional_table(model, population, effect, cause, extra_do)
    return rational_up(_max_table_ratio(table))


def effect_size(model: StructuralModel, population, effect, cause, *, extra_do=None) -> float:
    """log RP̄_{𝓜,𝒫}(Y, X): the smallest ε with RP̄ ≤ e^ε for this population (eq. 27, in log space), rounded up
    (the exact ratio's logarithm, one ulp at most above the smallest float not below it)."""
    table, _, _ = _interventional_table(model, population, effect, cause, extra_do)
    return _log_max_ratio(table)


def brp_epsilon(model: StructuralModel, effect, cause, *, extra_do=None) -> float:
    """The smallest ε for which 𝓜 has ε-bounded relative probability from X to Y (Definition 9),
    i.e. log max_𝒫 RP̄_{𝓜,𝒫}(Y, X).

    The maximum over all populations equals the maximum over point-mass populations: every
    Pr_{𝓜,𝒫}[Y=y | do(X=x)] = Σ_u 𝒫(u)·Pr_{𝓜}[Y=y | do(X=x), U=u] is linear in 𝒫, and
    Σ 𝒫(u)a_u / Σ 𝒫(u)b_u ≤ max_u a_u/b_u (mediant inequality).  Rounded up: the maximum of
    :func:`effect_size`'s upper bounds is not below the maximum of the exact values."""
    _variables(_check_model(model), effect, "effect")
    _variables(model, cause, "cause")
    best = 0.0
    for pop in model.point_populations():
        best = max(best, effect_size(model, pop, effect, cause, extra_do=extra_do))
        if best == math.inf:
            break
    return best


# --------------------------------------------------------------------------------------------------
# Ready-made models: prog_A, prog_status, randomized response, Theorem 1
# --------------------------------------------------------------------------------------------------


def _mechanism_equation(mechanism: FiniteMechanism):
    def run(*data):
        row = mechanism.row(tuple(data))
        return {o: float(p) for o, p in zip(mechanism.outputs, row) if p > 0}

    return run


def _database_shape(mechanism: FiniteMechanism) -> tuple[int, list]:
    n, domain = check_instance(mechanism, FiniteMechanism, "mechanism").record_domain()
    return n, sorted(domain, key=repr)


def prog_a_model(eps=0.5, n: int = 3, *, with_database: bool = True) -> StructuralModel:
    """prog_𝒜 of §4: the data points D_1..D_n are inputs (background), ``D := ⟨D_1, …, D_n⟩`` and
    ``O := count + noise``.  The paper adds Laplace noise; we add two-sided geometric noise clamped to
    [0, n] (:func:`dpsemantics.mechanisms.geometric_count`), also ε-DP, so every probability is exact."""
    mech = geometric_count(check_positive_int(n, "n"), eps)
    names = [f"D{i}" for i in range(1, n + 1)]
    background = {d: [0, 1] for d in names}
    eqs = _output_equations(mech, names, with_database)
    return StructuralModel(background, eqs)


def _output_equations(mech, data_names, with_database):
    if with_database:
        return {"D": (tuple(data_names), lambda *d: tuple(d)), "O": (("D",), lambda d: _mechanism_equation(mech)(*d))}
    return {"O": (tuple(data_names), _mechanism_equation(mech))}


def survey_model(mechanism: FiniteMechanism, *, copies: Mapping[int, int] | None = None,
                 response: FiniteMechanism | None = None, with_database: bool = True) -> StructuralModel:
    """The survey of §1.1 / §4 as an SEM: statuses R_i, data points D_i, database D, output O := 𝒜(D).

    ``copies={j: i}`` makes R_j := R_i (Byron's status copies Ada's: ``{2: 1}``); the other R_i are
    background.  ``response`` (a mechanism on single values, e.g. randomized response) makes
    D_i := response(R_i) instead of D_i := R_i (§6.3, first application)."""
    n, domain = _database_shape(mechanism)
    copies = dict(copies or {})
    for j, i in copies.items():
        if j not in range(1, n + 1) or i not in range(1, n + 1) or j == i:
            raise ValueError(f"copies must map data indices in 1..{n} to another index (got {j}: {i})")
        if i in copies:
            raise ValueError(f"copies: R{i} is itself a copy; copy its source instead")
    background = {f"R{i}": domain for i in range(1, n + 1) if i not in copies}
    eqs: dict = {f"R{j}": ((f"R{i}",), lambda r: r) for j, i in copies.items()}
    for i in range(1, n + 1):
        if response is None:
            eqs[f"D{i}"] = ((f"R{i}",), lambda r: r)
        else:
            eqs[f"D{i}"] = ((f"R{i}",), _mechanism_equation_single(response))
    eqs.update(_output_equations(mechanism, [f"D{i}" for i in range(1, n + 1)], with_database))
    domains = {f"D{i}": domain for i in range(1, n + 1)}
    domains.update({f"R{j}": domain for j in copies})
    return StructuralModel(background, eqs, domains)


def _mechanism_equation_single(mechanism):
    def run(value):
        row = mechanism.row(value)
        return {o: float(p) for o, p in zip(mechanism.outputs, row) if p > 0}

    return run


def prog_status_model(eps=0.5, n: int = 3, *, with_database: bool = True) -> StructuralModel:
    """prog_status of §4: R_2 := R_1 (Byron's status copies Ada's), D_i := R_i, and prog_𝒜 on the D_i."""
    n = check_positive_int(n, "n", minimum=2)
    return survey_model(geometric_count(n, eps), copies={2: 1}, with_database=with_database)


def sequence_model(channel_y, channels_z, *, x_domain=None, w_domain=None) -> StructuralModel:
    """X, Y, Z *in sequence* (§6.2): background X and W, ``Y := F_Y(X, W)``, ``Z := F_Z(X, Y)``.

    ``channel_y[w][x]`` is the distribution of Y (a row of probabilities); ``channels_z[y][x]`` that of Z,
    so choosing y selects one of several algorithms for Z, as in Theorem 1.  Values are indices."""
    for name, channels in (("channel_y", channel_y), ("channels_z", channels_z)):
        if not isinstance(channels, Sequence | np.ndarray) or isinstance(channels, str) or len(channels) == 0:
            raise ValueError(f"{name} must be a non-empty list of row-stochastic matrices "
                             f"(got {name}={channels!r:.60})")
    cy = [check_row_stochastic(m, f"channel_y[{w}]") for w, m in enumerate(channel_y)]
    cz = [check_row_stochastic(m, f"channels_z[{y}]") for y, m in enumerate(channels_z)]
    nx, ny = cy[0].shape
    if any(m.shape != (nx, ny) for m in cy):
        raise ValueError("every channel_y[w] must have the same shape")
    if len(cz) != ny or any(m.shape[0] != nx or m.shape[1] != cz[0].shape[1] for m in cz):
        raise ValueError(f"channels_z must hold one {nx}-row matrix per value of Y ({ny}), all of one shape")
    nz = cz[0].shape[1]
    background = {"X": list(range(nx)), "W": list(range(len(cy)))}
    eqs = {
        "Y": (("X", "W"), lambda x, w: {y: float(cy[w][x, y]) for y in range(ny)}),
        "Z": (("X", "Y"), lambda x, y: {z: float(cz[y][x, z]) for z in range(nz)}),
    }
    return StructuralModel(background, eqs, {"Y": list(range(ny)), "Z": list(range(nz))})


# --------------------------------------------------------------------------------------------------
# 3. Definitions 1–8 and 10 on a mechanism and a population of data points (Table 1, Appendix B)
# --------------------------------------------------------------------------------------------------

#: Table 1 of the paper (and Definition 10 of Appendix B): number → (name, quantifier over 𝒫, what is
#: compared, the relation to differential privacy printed in the paper).
DEFINITIONS = {
    1: ("Differential privacy", "n/a", "Pr[𝒜(d₁,…,dᵢ,…,dₙ)=o]", "is DP"),
    2: ("Strong adversary DP", "∀", "Pr[O=o | D₁=d₁,…,Dₙ=dₙ]", "↔ DP"),
    3: ("Bayesian₀ DP", "∀", "Pr[O=o | Dᵢ=dᵢ]", "→ DP"),
    4: ("Independent Bayesian₀ DP", "∀ indep.", "Pr[O=o | Dᵢ=dᵢ]", "↔ DP"),
    5: ("Universal whole-database intervention DP", "∀", "Pr[O=o | do(D₁=d₁,…,Dₙ=dₙ)]", "↔ DP"),
    6: ("Whole-database intervention DP", "given", "Pr[O=o | do(D₁=d₁,…,Dₙ=dₙ)]", "↔ DP"),
    7: ("Data-point intervention DP", "given", "Pr[O=o | do(Dᵢ=dᵢ)]", "← DP"),
    8: ("Universal data-point intervention DP", "∀", "Pr[O=o | do(Dᵢ=dᵢ)]", "↔ DP"),
    10: ("Strong adversary DP for one distribution (App. B)", "given", "Pr[O=o | D=d]", "← DP"),
}
#: universal definition → the inner, one-population check whose supremum over populations it is
UNIVERSAL_INNER = {2: 10, 3: 3, 4: 4, 5: 6, 8: 7}


def mechanism_tensor(mechanism: FiniteMechanism) -> tuple[np.ndarray, list]:
    """The mechanism as an array ``A[d₁, …, dₙ, o]`` over 𝒟ⁿ × 𝒪 (indices into the sorted domain)."""
    n, domain = _database_shape(mechanism)
    k, m = len(domain), len(mechanism.outputs)
    pos = {v: i for i, v in enumerate(domain)}
    A = np.empty((k,) * n + (m,))
    for db, row in zip(mechanism.databases, mechanism.matrix):
        A[tuple(pos[v] for v in db)] = row
    return A, domain


def _tensor(mechanism) -> np.ndarray:
    """The array 𝒜[d₁, …, dₙ, o] of a mechanism given as a FiniteMechanism (:func:`mechanism_tensor`) or as that
    array itself: every entry a probability and each last-axis row summing to one."""
    if isinstance(mechanism, FiniteMechanism):
        return mechanism_tensor(mechanism)[0]
    A = np.asarray(as_float(mechanism, "mechanism"), dtype=float)
    if A.ndim < 2 or A.size == 0:
        raise ValueError(f"mechanism must be a FiniteMechanism or an array over D^n x outputs (got shape {A.shape})")
    check_row_stochastic(A.reshape(-1, A.shape[-1]), "mechanism")
    return A


def _check_population_array(population, shape) -> np.ndarray:
    P = np.asarray(as_float(population, "population"), dtype=float)
    if P.shape != shape:
        raise ValueError(f"population must be an array of shape {shape} over D^n (got shape {P.shape})")
    check_distribution(P.ravel(), "population")
    return P


def _move_axis_pairs(X: np.ndarray, i: int, valid=None):
    """max over v, v' (along axis i) of X[..v..]/X[..v'..], and 1, exactly (``_max_ratio``), optionally only
    where ``valid`` holds for both (valid has X's shape without the last, output, axis)."""
    k = X.shape[i]
    best = Fraction(1)
    for v, w in itertools.permutations(range(k), 2):
        a, b = np.take(X, v, axis=i), np.take(X, w, axis=i)
        if valid is not None:
            ok = np.take(valid, v, axis=i) & np.take(valid, w, axis=i)
            a, b = a[ok], b[ok]
        best = max(best, _max_ratio(a, b))
    return best


_exact_array = np.frompyfunc(Fraction, 1, 1)  # the exact value of every float of an array, as an object array


def is_independent(P: np.ndarray, atol=1e-12) -> bool:
    """Whether the population array ``P`` is the product of its marginals (mutually independent data points)."""
    margs = [P.sum(axis=tuple(j for j in range(P.ndim) if j != i)) for i in range(P.ndim)]
    prod = margs[0]
    for m in margs[1:]:
        prod = np.multiply.outer(prod, m)
    return bool(np.allclose(P, prod, atol=atol, rtol=0))


def definition_epsilon(number: int, mechanism, population=None) -> float:
    """The smallest ε for which Definition ``number``'s inequality holds at one population 𝒫.

    ``mechanism`` is a :class:`~dpsemantics.mechanisms.FiniteMechanism` on 𝒟ⁿ (or the array of
    :func:`mechanism_tensor`);
    ``population`` an array over 𝒟ⁿ (ignored by Definition 1).  For the universally quantified
    Definitions 2, 3, 4, 5, 8 this is the check *inside* the quantifier (2 at one 𝒫 is Definition 10).
    Definition 4 requires an independent 𝒫.  Comparisons made vacuous by zero probabilities are skipped
    (ε = 0 if none remain); ``inf`` means no ε works.

    * 1 — Definition 1: max over i, neighbours and o of log 𝒜(d)(o)/𝒜(d')(o).
    * 2, 10 — eq. (3)/(30): Pr[O=o | D=d] = 𝒜(d)(o) for databases with 𝒫(d) > 0.
    * 3, 4 — eq. (8)/(9): Pr[O=o | Dᵢ=v] = Σ 𝒫(d | dᵢ=v) 𝒜(d)(o), for v with 𝒫(Dᵢ=v) > 0.
    * 5, 6 — eq. (10)/(11) via Lemma 1 (eq. 44): Pr[O=o | do(D=d)] = 𝒜(d)(o) for every d.
    * 7, 8 — eq. (12)/(20) via Lemma 2 (eq. 78): Pr[O=o | do(Dᵢ=v)] = Σ 𝒫(D₋ᵢ=d₋ᵢ) 𝒜(d₋ᵢ, v)(o).

    Rounded up: the probabilities compared are computed exactly in rationals from the floats of 𝒜 and 𝒫, the
    largest ratio is found exactly, and its logarithm rounded once, up (one ulp at most above the smallest float
    not below the exact ε; 0 exactly when the exact ε is 0).
    """
    if check_single_value(number, "number") not in DEFINITIONS:
        raise ValueError(f"number must be one of {sorted(DEFINITIONS)} (got number={number!r})")
    A = _tensor(mechanism)
    n = A.ndim - 1
    if population is None and number != 1:
        raise ValueError(f"definition {number} needs a population (got population=None)")
    P = None if population is None else _check_population_array(population, A.shape[:-1])  # (checked if given)
    if number == 1:
        return log_up(max(_move_axis_pairs(A, i) for i in range(n)))
    if number in (5, 6):
        # Lemma 1: intervening on every data point gives 𝒜(d) whatever 𝒫 is.
        return log_up(max(_move_axis_pairs(A, i) for i in range(n)))
    if number in (2, 10):
        return log_up(max(_move_axis_pairs(A, i, valid=P > 0) for i in range(n)))
    if number == 4 and not is_independent(P):
        raise ValueError("definition 4 applies to populations with independent data points only (got a dependent "
                         "population)")
    Pq, Aq = _exact_array(P), _exact_array(A)  # the sums below are exact
    best = Fraction(1)
    for i in range(n):
        others = tuple(j for j in range(n) if j != i)
        if number in (3, 4):
            weights = Pq[..., None] * Aq  # Pr[D=d, O=o]
            joint = weights.sum(axis=others)  # Pr[D_i=v, O=o], shape (k, m)
            marg = np.atleast_1d(Pq.sum(axis=others))  # Pr[D_i=v]
            ok = np.array([x > 0 for x in marg], dtype=bool)
            rows = joint[ok] / marg[ok, None]
        else:  # 7, 8: Lemma 2
            other = Pq.sum(axis=i, keepdims=True)  # Pr[D_{-i}=d_{-i}], broadcast along axis i
            rows = (other[..., None] * Aq).sum(axis=others)  # shape (k, m): row v = Pr[O | do(D_i=v)]
        best = max(best, _move_axis_pairs(rows, 0))
    return log_up(best)


def definition_epsilon_sem(number: int, mechanism: FiniteMechanism, population) -> float:
    """:func:`definition_epsilon` computed the slow way, with conditioning and ``do`` queries on the
    structural model 𝓜^𝒜 of :func:`survey_model` (``D_i := R_i``, ``D := ⟨D_1, …, D_n⟩``, ``O := 𝒜(D)``).

    An independent check of the closed forms (Lemma 1, Lemma 2, Bayes' rule) used by
    :func:`definition_epsilon`; Definition 1 has no population and is not handled here.  Rounded up as
    :func:`definition_epsilon` is: the queries are answered exactly in rationals, the largest ratio found exactly and
    its logarithm rounded once, up."""
    if check_single_value(number, "number") not in DEFINITIONS or number == 1:
        raise ValueError(f"number must be one of {sorted(set(DEFINITIONS) - {1})} (got number={number!r})")
    n, domain = _database_shape(mechanism)
    P = _check_population_array(population, (len(domain),) * n)
    model = survey_model(mechanism)
    pop = {tuple(domain[j] for j in idx): float(P[idx]) for idx in np.ndindex(P.shape) if P[idx] > 0}
    data = [f"D{i}" for i in range(1, n + 1)]
    outs = mechanism.outputs
    best = Fraction(1)
    for i in range(n):
        whole = number in (2, 5, 6, 10)
        contexts = itertools.product(domain, repeat=n - 1) if whole else [()]
        for ctx in contexts:
            rows = []
            for v in domain:
                values = dict(zip(data[:i] + data[i + 1:], ctx)) | {data[i]: v}
                fix = values if whole else {data[i]: v}
                if number in (5, 6, 7, 8):
                    dist = model._distribution(pop, "O", None, fix, Fraction)
                elif model._probability(pop, fix, None, None, Fraction) > 0:
                    dist = model._distribution(pop, "O", fix, None, Fraction)
                else:
                    continue  # a zero-probability condition: the definition skips it
                rows.append([dist.get(o, 0) for o in outs])
            if len(rows) >= 2:
                best = max(best, _max_table_ratio(_exact_table(rows)))
    return log_up(best)


def candidate_populations(shape: tuple) -> list[np.ndarray]:
    """Point masses, and two-point populations ½δ_a + ½δ_b, over 𝒟ⁿ (``shape`` = (k,)*n).

    These attain the supremum over all populations of every definition of :data:`DEFINITIONS` (the
    chapter gives the arguments: Definitions 5–8 are linear in 𝒫 (mediant inequality), Definition 2/10
    needs two adjacent databases with positive probability, Definition 3 two databases that differ in
    the i-th entry; for Definition 4 the two-point populations that differ only in one coordinate are
    the independent ones needed)."""
    if not isinstance(shape, (tuple, list)) or not shape:
        raise ValueError(f"shape must be a tuple of domain sizes, one per data point (got shape={shape!r})")
    shape = tuple(check_positive_int(k, "shape") for k in shape)
    if math.prod(shape) > 64:  # the two-point populations number cells·(cells − 1)/2
        raise ValueError(f"shape must have at most 64 cells here (got shape={shape}, {math.prod(shape)} cells)")
    cells = list(itertools.product(*(range(k) for k in shape)))
    out = []
    for c in cells:
        P = np.zeros(shape)
        P[c] = 1.0
        out.append(P)
    for a, b in itertools.combinations(cells, 2):
        P = np.zeros(shape)
        P[a] = P[b] = 0.5
        out.append(P)
    return out


def universal_epsilon(number: int, mechanism, populations=()) -> float:
    """The smallest ε for which a universally quantified definition (2, 3, 4, 5 or 8) holds: the
    supremum over populations of :func:`definition_epsilon` of its inner check, over
    :func:`candidate_populations` plus any extra ``populations`` (Definition 4: independent ones only).  Rounded up:
    the largest of :func:`definition_epsilon`'s upper bounds is not below the exact supremum over those populations."""
    if check_single_value(number, "number") == 1:
        return definition_epsilon(1, mechanism)
    if number not in UNIVERSAL_INNER:
        raise ValueError(f"number must be a universally quantified definition {sorted(UNIVERSAL_INNER)} "
                         f"(got number={number!r})")
    A = _tensor(mechanism)
    inner = UNIVERSAL_INNER[number]
    best = 0.0
    for P in list(candidate_populations(A.shape[:-1])) + [np.asarray(p, float) for p in populations]:
        if number == 4 and not is_independent(P):
            continue
        best = max(best, definition_epsilon(inner, A, P))
        if best == math.inf:
            break
    return best


def appendix_b_mechanism() -> FiniteMechanism:
    """Appendix B, eqs. (31)–(33): one data point in {0, 1, 2}; 𝒜(0), 𝒜(1) uniform on {0, 1}, 𝒜(2) = 0."""
    M = np.array([[0.5, 0.5], [0.5, 0.5], [1.0, 0.0]])
    return FiniteMechanism(M, [(0,), (1,), (2,)], [0, 1])


def proposition4_mechanism() -> FiniteMechanism:
    """Proof of Proposition 4, eqs. (18)–(19): two data points in {0, 1, 2}; 𝒜(⟨2, 2⟩) = 0 surely,
    every other database gives 0 or 1 with probability ½ each."""
    dbs = list(itertools.product(range(3), repeat=2))
    M = np.array([[1.0, 0.0] if d == (2, 2) else [0.5, 0.5] for d in dbs])
    return FiniteMechanism(M, dbs, [0, 1])


# --------------------------------------------------------------------------------------------------
# §7: posteriors with and without an individual's data (Kasiviswanathan & Smith's comparison)
# --------------------------------------------------------------------------------------------------


def posterior(mechanism: FiniteMechanism, prior, output, *, replace: tuple[int, Hashable] | None = None) -> np.ndarray:
    """Cr[D=d | O=o, B] of eq. (29) for every database d (in ``mechanism.databases`` order), with
    prior ``prior`` (one probability per database).  ``replace=(i, v)`` gives the second expression of
    §7: the mechanism runs on d with its i-th entry (1-based) replaced by v, i.e. Cr[D=d | O=o, do(Dᵢ=v), B]."""
    check_instance(mechanism, FiniteMechanism, "mechanism")
    prior = check_distribution(prior, "prior")
    if prior.size != len(mechanism.databases):
        raise ValueError(f"prior must have one entry per database ({len(mechanism.databases)}), got {prior.size}")
    if check_single_value(output, "output") not in mechanism.outputs:
        raise ValueError(f"output must be one of the mechanism's outputs {mechanism.outputs} (got output={output!r})")
    j = mechanism.outputs.index(output)
    if replace is None:
        like = mechanism.matrix[:, j]
    else:
        i, v = replace
        n, domain = _database_shape(mechanism)
        if i not in range(1, n + 1) or v not in domain:
            raise ValueError(f"replace must be (index in 1..{n}, value in {domain}) (got replace={replace!r})")
        like = np.array([mechanism.row(d[: i - 1] + (v,) + d[i:])[j] for d in mechanism.databases])
    w = like * prior
    if w.sum() <= 0:
        raise ValueError(f"output={output!r} has probability zero under this prior; the posterior is undefined")
    return w / w.sum()


def exact_count(n: int, domain=(0, 1)) -> FiniteMechanism:
    """The exact (noise-free) count of ones: not differentially private for any finite ε."""
    n = check_record_count(n, "n", maximum=20)
    dbs = list(itertools.product(domain, repeat=n))
    outs = list(range(n + 1))
    return FiniteMechanism(np.array([[1.0 if sum(d) == o else 0.0 for o in outs] for d in dbs]), dbs, outs)


def randomized_response_model(eps, relatives: int = 1) -> StructuralModel:
    """§6.3, first application: statuses R_i, randomized responses D_i := RR_ε(R_i), the exact count O.
    R_2, …, R_{1+relatives} copy R_1; one further unrelated person keeps the count from being trivial."""
    relatives = check_record_count(relatives, "relatives", minimum=0, maximum=18)
    eps = check_epsilon(eps, "eps", scalar=True)
    n = relatives + 2
    return survey_model(exact_count(n), copies={j: 1 for j in range(2, relatives + 2)},
                        response=randomized_response(eps), with_database=False)


def relatives_effect(eps, relatives: int) -> float:
    """BRP ε from R₁ to O in :func:`randomized_response_model`, rounded up (:func:`brp_epsilon`)."""
    return brp_epsilon(randomized_response_model(eps, relatives), "O", "R1")


# --------------------------------------------------------------------------------------------------
# Per-value effect sizes (Figures 1 and 2 are drawn by dpsemantics.book.causal_diagrams)
# --------------------------------------------------------------------------------------------------


def log_ratio_by_value(model: StructuralModel, population, effect: str, cause, *, mode: str = "do") -> dict:
    """For each value y of ``effect``: max over cause values x₁, x₂ of log Pr[Y=y | ·(X=x₁)] / Pr[Y=y | ·(X=x₂)],
    where · is ``do`` (intervention, eq. 26) or ``given`` (conditioning, the associative view).
    Cause values of probability zero are skipped under conditioning.  Each value rounded up (the probabilities exact in
    rationals, each ratio's logarithm rounded once, up)."""
    if not isinstance(effect, str):
        raise ValueError(f"effect must be one variable of the model (got effect={effect!r})")
    _variables(_check_model(model), effect, "effect")
    rows = _readings(model, population, effect, cause, mode, Fraction)
    values = model.domains[effect]
    table = _exact_table([[r.get(v, 0) for v in values] for r in rows])
    return {v: _log_max_ratio(table[:, [j]]) for j, v in enumerate(values)}


def _readings(model: StructuralModel, population, effect, cause, mode: str, number=float) -> list[dict]:
    """The distribution of ``effect`` under ``do`` or ``given`` each value of ``cause`` (a name or a tuple of
    names); cause values of probability zero are skipped under conditioning.  ``number``: ``float``, or
    ``Fraction`` for the exact laws."""
    if mode not in ("do", "given"):
        raise ValueError(f"mode must be 'do' or 'given' (got mode={mode!r})")
    cause = _variables(_check_model(model), cause, "cause")
    rows = []
    for x in itertools.product(*(model.domains[c] for c in cause)):
        fix = dict(zip(cause, x))
        if mode == "given" and model._probability(population, fix, None, None, number) <= 0:
            continue
        given, do = (fix, None) if mode == "given" else (None, fix)
        rows.append(model._distribution(population, effect, given, do, number))
    return rows


def moved_by(model: StructuralModel, population, cause, among, *, mode: str = "do", atol: float = 1e-12) -> list[str]:
    """The variables of ``among`` whose distribution differs between two values of ``cause`` when intervening
    on it (``mode="do"``) or conditioning on it (``"given"``): in the survey, the data points a reading moves.
    A cause listed in ``among`` counts as moved."""
    moved = []
    for name in among:
        rows = _readings(model, population, name, cause, mode)
        keys = sorted({k for r in rows for k in r}, key=repr)
        table = np.array([[r.get(k, 0.0) for k in keys] for r in rows])
        if np.any(table.max(axis=0) - table.min(axis=0) > atol):
            moved.append(name)
    return moved


def inheritance_model(eps=0.5) -> StructuralModel:
    """The survey with partial inheritance: Byron's status copies Ada's when a coin C shows 1 and is his
    own independent status U₂ otherwise (R₂ := R₁ if C = 1 else U₂); D_i := R_i; O is the ε-DP
    geometric count of three data points.  Background: R₁, U₂, C, R₃."""
    eps = check_epsilon(eps, "eps", strictly_positive=True, scalar=True)
    mech = geometric_count(3, eps)
    eqs = {"R2": (("R1", "U2", "C"), lambda r1, u2, c: r1 if c == 1 else u2)}
    for i in (1, 2, 3):
        eqs[f"D{i}"] = ((f"R{i}",), lambda r: r)
    eqs["O"] = (("D1", "D2", "D3"), _mechanism_equation(mech))
    return StructuralModel({"R1": [0, 1], "U2": [0, 1], "C": [0, 1], "R3": [0, 1]}, eqs)


def inheritance_population(model: StructuralModel, q) -> dict:
    """Fair, independent R₁, U₂, R₃ and Pr[C = 1] = q for :func:`inheritance_model`."""
    _check_model(model)
    q = check_probability(q, "q", scalar=True)
    half = {0: 0.5, 1: 0.5}
    return model.independent_population({"R1": half, "U2": half, "C": {0: 1 - q, 1: q}, "R3": half})


# ---------------------------------------------------------------- §2: ε = 0 is noninterference


def interference_epsilon(mechanism: FiniteMechanism) -> float:
    """max over *all* pairs of databases d, d' and outputs o of log 𝒜(d)(o)/𝒜(d')(o): the effect of
    changing the whole input.  Zero exactly when the output distribution does not depend on the input
    at all (probabilistic noninterference, §2).  Rounded up: the largest ratio of the matrix's entries found exactly,
    its logarithm rounded once, up."""
    return _log_max_ratio(check_instance(mechanism, FiniteMechanism, "mechanism").matrix)


# ---------------------------------------------------------------- §3: who learns more


def adversary_learning(mechanism: FiniteMechanism, population) -> dict:
    """What two adversaries learn about a data point, as the ε of their comparison at ``population``:
    the *informed* (strong) one conditions on every other data point (Definition 10's check), the
    *uninformed* one on none (Definition 3's check).  Both rounded up (:func:`definition_epsilon`)."""
    return {"informed": definition_epsilon(10, mechanism, population),
            "uninformed": definition_epsilon(3, mechanism, population)}


# ---------------------------------------------------------------- §6.3: direct and indirect effects


def path_effects(model: StructuralModel, effect: str, cause: str, *, direct_hold, indirect_hold) -> dict:
    """Total, controlled direct and controlled indirect effect sizes (BRP ε, maximised over populations).

    ``direct_hold``: variables held fixed (at every combination of values, the worst taken) to block the
    indirect paths — what remains is the direct effect; ``indirect_hold``: variables held to block the
    direct path.  For a deterministic model at a point-mass population the risk ratio of the total effect
    factors into a direct and an indirect ratio, so total ≤ direct + indirect.  Each rounded up
    (:func:`brp_epsilon`; a held effect is the largest of upper bounds)."""
    _check_model(model)
    holds = {name: _variables(model, names, name) for name, names in (("direct_hold", direct_hold),
                                                                        ("indirect_hold", indirect_hold))}

    def held(names):
        return max(brp_epsilon(model, effect, cause, extra_do=dict(zip(names, vals)))
                   for vals in itertools.product(*(model.domains[v] for v in names)))

    return {"total": brp_epsilon(model, effect, cause), "direct": held(holds["direct_hold"]),
            "indirect": held(holds["indirect_hold"])}


# ---------------------------------------------------------------- §7: statistical nondisclosure


def nondisclosure_epsilon(mechanism, population) -> float:
    """The ε of approximate statistical nondisclosure at ``population`` when the adversary's background
    knowledge is the population itself: max over outputs o of positive probability and databases d of
    positive probability of |log Cr[D=d | O=o] / Cr[D=d]| = |log 𝒜(d)(o) / Pr[O=o]|.  Zero exactly
    when D and O are independent (Dalenius' statistical nondisclosure).  Rounded up: Pr[O=o] is computed exactly in
    rationals from the floats of 𝒜 and 𝒫, the largest ratio either way found exactly, and its logarithm rounded once,
    up."""
    A = _tensor(mechanism)
    P = _check_population_array(population, A.shape[:-1])
    flat, weights = _exact_array(A.reshape(-1, A.shape[-1])), _exact_array(P.ravel())
    out = weights @ flat  # Pr[O=o], exactly
    seen = np.array([x > 0 for x in out], dtype=bool)
    rows = flat[P.ravel() > 0][:, seen]
    marginal = np.broadcast_to(out[seen], rows.shape)
    return log_up(max(_max_ratio(rows, marginal), _max_ratio(marginal, rows)))


def nondisclosing_example():
    """A mechanism that is far from 0-DP (one database has its own output distribution) and a population at
    which D and O are independent (statistical nondisclosure): the population gives that database probability 0."""
    same, other = [0.25, 0.25, 0.5], [0.7, 0.2, 0.1]  # dyadic entries: exact zeros are not blurred by rounding
    mech = FiniteMechanism(np.array([same, same, other, same]), list(itertools.product((0, 1), repeat=2)), [0, 1, 2])
    return mech, np.array([[0.5, 0.25], [0.0, 0.25]])


# ---------------------------------------------------------------- Definition 4's printed condition


def pairwise_conditionally_independent(population, atol: float = 1e-12) -> bool:
    """Definition 4's printed condition: for all i ≠ j, Dᵢ is independent of Dⱼ *conditioned upon the
    other data points*.  For n = 2 this is independence; for n ≥ 3 it admits degenerate populations
    (all data points equal) that are far from independent.  ``atol``: the absolute tolerance of each equality."""
    P = np.asarray(as_float(population, "population"), dtype=float)
    if P.ndim == 0 or P.size == 0:
        raise ValueError(f"population must be a non-empty array over D^n, one axis per data point "
                         f"(got shape {P.shape})")
    check_distribution(P.ravel(), "population")
    atol = float(check_epsilon(atol, "atol", scalar=True))
    n = P.ndim
    for i, j in itertools.combinations(range(n), 2):
        Q = np.moveaxis(P, (i, j), (0, 1))  # (k_i, k_j, rest...)
        rest = Q.sum(axis=(0, 1))
        qi, qj = Q.sum(axis=1), Q.sum(axis=0)  # (k_i, rest...), (k_j, rest...)
        with np.errstate(divide="ignore", invalid="ignore"):
            prod = np.where(rest > 0, qi[:, None] * qj[None, :] / np.where(rest > 0, rest, 1.0), 0.0)
        if not np.allclose(Q, prod, atol=atol, rtol=0):
            return False
    return True
