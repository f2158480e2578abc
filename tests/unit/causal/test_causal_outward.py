"""The ε's measured on Tschantz, Sen & Datta's finite models are rounded up: never below the exact value (issue 40).

Every name of :mod:`dpsemantics.causal` whose result is an ε a chapter or a claim reads as holding —
``relative_probability``, ``max_relative_probability``, ``effect_size``, ``brp_epsilon``, ``definition_epsilon``,
``universal_epsilon``, ``definition_epsilon_sem``, ``relatives_effect``, ``log_ratio_by_value``,
``interference_epsilon``, ``adversary_learning``, ``path_effects``, ``nondisclosure_epsilon`` — against references
written here from the paper's formulas: the exact values (``fractions.Fraction``) of the float inputs, every sum,
product and quotient exact, the logarithm at 80 digits (mpmath), compared without tolerance.  The structural models
are evaluated by brute force over every joint assignment (Appendix C, eq. 43), not by the package's engine.

The hostile cases: the chapter's mechanisms and models, entries down to the smallest subnormal (ratios beyond the
float range), entries an ulp apart (an ε of 1e-16 that must not be 0), and seeded random searches that assert they
reach inputs where the measurement rounded to nearest — the formulas of the package before issue 40, written out
below as ``nearest_*`` — falls below the exact value, or returns 0 where it is positive.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from dpsemantics import _rounding, causal
from dpsemantics.mechanisms import FiniteMechanism, geometric_count, local_randomized_response
from dpsemantics.notions import xor_randomized_response

SEED = 40  # issue 40


@pytest.fixture(autouse=True)
def _digits():
    with mp.workdps(80):
        yield


# ------------------------------------------------------------------------------------------------ references


def F(x) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(float(x))


def ref_log(q):
    """ln q at 80 digits for a positive rational q (+inf as mpmath's inf)."""
    if q == math.inf:
        return mp.inf
    t = q - 1  # exactly: log1p keeps the digits of a q within 2⁻¹⁰⁰⁰ of 1
    if abs(t) < Fraction(1, 2):
        return mp.log1p(mp.mpf(t.numerator) / t.denominator)
    return mp.log(mp.mpf(q.numerator)) - mp.log(mp.mpf(q.denominator))


def at_least(got, want) -> bool:
    """got ≥ want exactly (a float against an mpf), and a positive want never met by 0."""
    if want == mp.inf:
        return got == math.inf
    return mp.mpf(float(got)) >= want and (want <= 0 or got > 0)


def close_above(got, want) -> bool:
    """got is at most a few ulps above want (the outward step stays invisible)."""
    if want == mp.inf:
        return True
    return mp.mpf(float(got)) <= want + abs(want) * mp.mpf(2) ** -49 + mp.mpf(2) ** -1070


def max_ratio(pairs):
    """max over (a, b) of a/b and 1, exactly: 0/0 skipped, a > 0 = b gives inf."""
    best = Fraction(1)
    for a, b in pairs:
        if a > 0:
            if b == 0:
                return math.inf
            best = max(best, a / b)
    return best


def rows_of(mech):
    return {tuple(d) if isinstance(d, tuple) else (d,): [F(x) for x in row]
            for d, row in zip(mech.databases, mech.matrix)}


def ref_definition(number, mech, P=None):
    """The smallest ε of Definition ``number`` (Tschantz et al., Table 1 and Appendix B) at the population array
    ``P``, from the definitions: neighbours compared output by output, the conditional and interventional laws
    computed in Fractions (Bayes' rule; Lemma 1, eq. 44; Lemma 2, eq. 78)."""
    rows = rows_of(mech)
    dbs = sorted(rows)
    n = len(dbs[0])
    domain = sorted({v for d in dbs for v in d})
    pop = None if P is None else {d: F(np.asarray(P)[tuple(domain.index(v) for v in d)]) for d in dbs}
    m = len(rows[dbs[0]])
    pairs = []
    if number in (1, 5, 6, 2, 10):
        for d, e in itertools.permutations(dbs, 2):
            if sum(a != b for a, b in zip(d, e)) != 1:
                continue
            if number in (2, 10) and not (pop[d] > 0 and pop[e] > 0):
                continue
            pairs += zip(rows[d], rows[e])
        return ref_log(max_ratio(pairs))
    best = Fraction(1)
    for i in range(n):
        law = {}
        for v in domain:
            if number in (3, 4):
                mass = sum((pop[d] for d in dbs if d[i] == v), Fraction(0))
                if mass == 0:
                    continue
                law[v] = [sum((pop[d] * rows[d][o] for d in dbs if d[i] == v), Fraction(0)) / mass for o in range(m)]
            else:  # 7, 8: Pr[O=o | do(D_i=v)] = Σ Pr[D_-i = d_-i] 𝒜(d_-i, v)(o)
                law[v] = [sum((sum((pop[e] for e in dbs if e[:i] + e[i + 1:] == d[:i] + d[i + 1:]), Fraction(0))
                               * rows[d[:i] + (v,) + d[i + 1:]][o] for d in dbs if d[i] == domain[0]), Fraction(0))
                          for o in range(m)]
        for v, w in itertools.permutations(law, 2):
            best = max(best, max_ratio(zip(law[v], law[w])))
    return ref_log(best)


def ref_interference(mech):
    rows = list(rows_of(mech).values())
    return ref_log(max_ratio(p for r, s in itertools.permutations(rows, 2) for p in zip(r, s)))


def ref_nondisclosure(mech, P):
    rows = rows_of(mech)
    domain = sorted({v for d in rows for v in d})
    pop = {d: F(np.asarray(P)[tuple(domain.index(v) for v in d)]) for d in rows}
    m = len(next(iter(rows.values())))
    out = [sum((pop[d] * rows[d][o] for d in rows), Fraction(0)) for o in range(m)]
    pairs = [(rows[d][o], out[o]) for d in rows for o in range(m) if pop[d] > 0 and out[o] > 0]
    return ref_log(max(max_ratio(pairs), max_ratio((b, a) for a, b in pairs)))


def ref_law(model, population, effect, do=None, given=None):
    """Pr[effect | given, do] by brute force over every joint assignment (Appendix C, eq. 43): each background
    assignment's probability times each equation's probability of its value, in Fractions — the mass of the event,
    divided by the mass of ``given`` when there is a condition; ``None`` when that mass is 0."""
    do, given = dict(do or {}), dict(given or {})
    effect = (effect,) if isinstance(effect, str) else tuple(effect)
    names = list(model.functions)
    order = []
    while len(order) < len(names):  # a causal order, found here
        order += [v for v in names if v not in order and all(p in model.background or p in order
                                                             for p in model.parents[v])]
    law, total = {}, Fraction(0)
    for key, p in population.items():
        key = key if isinstance(key, tuple) else (key,)
        if F(p) == 0:
            continue
        stack = [({b: do.get(b, v) for b, v in zip(model.background, key)}, F(p))]
        for name in order:
            new = []
            for values, w in stack:
                if name in do:
                    new.append(({**values, name: do[name]}, w))
                    continue
                out = model.functions[name](*(values[q] for q in model.parents[name]))
                dist = out if isinstance(out, dict) else {out: 1.0}
                new += [({**values, name: v}, w * F(q)) for v, q in dist.items() if F(q) > 0]
            stack = new
        for values, w in stack:
            if all(values[k] == v for k, v in given.items()):
                y = tuple(values[e] for e in effect)
                law[y] = law.get(y, Fraction(0)) + w
                total += w
    if total == 0:
        return None
    return {y: w / total for y, w in law.items()} if given else law


def ref_effect(model, population, effect, cause, extra_do=None, mode="do"):
    """log RP̄ (eq. 27): the largest ratio of the laws of ``effect`` under two values of ``cause``."""
    cause = (cause,) if isinstance(cause, str) else tuple(cause)
    laws = []
    for x in itertools.product(*(model.domains[c] for c in cause)):
        fix = dict(zip(cause, x))
        law = (ref_law(model, population, effect, do={**(extra_do or {}), **fix}) if mode == "do"
               else ref_law(model, population, effect, do=extra_do, given=fix))
        if law is not None:
            laws.append(law)
    values = {y for law in laws for y in law}
    return ref_log(max_ratio((a.get(y, 0), b.get(y, 0)) for a, b in itertools.permutations(laws, 2) for y in values))


def ref_sem(number, mech, P):
    """Definition ``number``'s ε at P asked of the structural model 𝓜^𝒜 (the package's ``survey_model``, its
    equations the declaration) by brute force: conditioning on Dᵢ (3) or on every data point (10), or ``do`` on
    Dᵢ (7) or on every data point (6); zero-mass conditions skipped."""
    model = causal.survey_model(mech)
    n, domain = len(mech.databases[0]), sorted({v for d in mech.databases for v in d})
    pop = {tuple(domain[j] for j in idx): float(P[idx]) for idx in np.ndindex(P.shape) if P[idx] > 0}
    data = [f"D{i}" for i in range(1, n + 1)]
    best = Fraction(1)
    for i in range(n):
        for ctx in itertools.product(domain, repeat=n - 1) if number in (6, 10) else [()]:
            laws = []
            for v in domain:
                fix = dict(zip(data[:i] + data[i + 1:], ctx)) | {data[i]: v}
                law = ref_law(model, pop, "O", **({"given": fix} if number in (3, 10) else {"do": fix}))
                if law is not None:
                    laws.append(law)
            best = max(best, max_ratio((a.get((o,), 0), b.get((o,), 0)) for a, b in itertools.permutations(laws, 2)
                                       for o in mech.outputs))
    return ref_log(best)


def point_populations(model):
    return [{k: 1.0} for k in itertools.product(*(model.domains[b] for b in model.background))]


def ref_brp(model, effect, cause, extra_do=None):
    """Definition 9: the largest log RP̄ over populations, attained at a point mass (the mediant inequality)."""
    return max(ref_effect(model, u, effect, cause, extra_do) for u in point_populations(model))


# ------------------------------------------------------------------------------------------------ to nearest
# The package's formulas before issue 40, in floats rounded to nearest: what the searches must show to be unsafe.


def nearest_log_max_ratio(table):
    table = np.asarray(table, float)
    hi, lo = table.max(axis=0), table.min(axis=0)
    live = hi > 0
    if np.any(live & (lo == 0)):
        return math.inf
    return float(np.max(np.log(hi[live]) - np.log(lo[live]))) if np.any(live) else 0.0


def nearest_definition(number, A, P):
    """Definition 3 (conditioning) or 7 (Lemma 2) at P, n = 2, in floats."""
    rows_by_i = []
    for i in range(2):
        other = 1 - i
        if number == 3:
            joint, marg = (P[..., None] * A).sum(axis=other), P.sum(axis=other)
            ok = marg > 0
            rows_by_i.append(joint[ok] / marg[ok, None])
        else:
            rows_by_i.append((P.sum(axis=i, keepdims=True)[..., None] * A).sum(axis=other))
    return max(nearest_log_max_ratio(r) for r in rows_by_i)


# ------------------------------------------------------------------------------------------------ the primitive


def test_log_up_is_never_below_the_exact_logarithm():
    """``_rounding.log_up``: 0 exactly at 1, positive above 1, never below ln q, within one ulp of the smallest float
    above it — near 1 (|q − 1| down to 2⁻¹⁰⁰⁰), at ratios beyond the float range, and on 3000 seeded rationals."""
    rng = np.random.default_rng(SEED)
    qs = [Fraction(1), Fraction(3, 2), Fraction(2), Fraction(1, 2), 1 + Fraction(1, 2**1000), 1 - Fraction(1, 2**1000),
          1 + Fraction(1, 2**59), 1 + Fraction(1, 2**61), Fraction(1) / Fraction(5e-324), Fraction(5e-324),
          Fraction(2) ** 3000, Fraction(1, 3) ** 1000]
    qs += [F(a) / F(b) for a, b in 10.0 ** rng.uniform(-300, 0, (1500, 2))]
    qs += [1 + F(t) for t in rng.uniform(-0.5, 1, 1500)]
    nearest_low = 0
    for q in qs:
        got, want = _rounding.log_up(q), ref_log(q)
        assert at_least(got, want) and close_above(got, want), q
        assert (got == 0) == (q == 1)
        assert mp.mpf(got) <= want or mp.mpf(math.nextafter(got, -math.inf)) < want, q  # one ulp at most
        if q.denominator < 2**1000 and q.numerator < 2**1000:
            nearest_low += mp.mpf(math.log(q.numerator) - math.log(q.denominator)) < want
    assert _rounding.log_up(math.inf) == math.inf
    assert nearest_low > 100
    with pytest.raises(ValueError, match="q must be a positive rational"):
        _rounding.log_up(0)


# ------------------------------------------------------------------------------------------------ mechanisms


def _population(rng, kind):
    if kind == "uniform":
        return np.full((2, 2), 0.25)
    if kind == "correlated":
        return np.array([[0.5, 0.0], [0.0, 0.5]])
    return rng.dirichlet(np.ones(4)).reshape(2, 2)


CHAPTER_MECHANISMS = [geometric_count(2, e) for e in (0.5, 0.1, 1 / 3, 1e-8, 30.0)] + [xor_randomized_response(0.5)]


def _random_mechanism(rng, spread):
    rows = rng.dirichlet(np.ones(3), size=4) ** spread
    return FiniteMechanism(rows / rows.sum(axis=1, keepdims=True), list(itertools.product((0, 1), repeat=2)),
                           [0, 1, 2])


def _near_half_mechanism(rng):
    """Rows that differ from ½, ¼, ¼ by a few ulps: ε of order 1e-16, which floats round to 0 or below."""
    base = np.array([0.5, 0.25, 0.25])
    rows = base + rng.integers(-3, 4, size=(4, 3)) * 2.0**-55
    rows[:, 2] = 1 - rows[:, 0] - rows[:, 1]
    return FiniteMechanism(rows, list(itertools.product((0, 1), repeat=2)), [0, 1, 2])


def test_definition_epsilon_and_its_users_are_never_below_the_exact_value():
    """definition_epsilon for every definition, universal_epsilon, adversary_learning and definition_epsilon_sem on
    the chapter's mechanisms and on seeded random ones (spread entries, and entries a few ulps from ½, ¼, ¼), at
    uniform, perfectly correlated and random populations.  The float formulas rounded to nearest fall below the
    exact ε of Definitions 3 and 7, and return 0 where it is positive; the package never does."""
    rng = np.random.default_rng(SEED + 1)
    mechs = CHAPTER_MECHANISMS + [_random_mechanism(rng, s) for s in (0.3, 1.0, 8.0) for _ in range(6)]
    mechs += [_near_half_mechanism(rng) for _ in range(40)]
    nearest_low = nearest_zero = 0
    for j, mech in enumerate(mechs):
        A = causal.mechanism_tensor(mech)[0]
        want1 = ref_definition(1, mech)
        assert at_least(causal.definition_epsilon(1, mech), want1) and close_above(causal.definition_epsilon(1, mech),
                                                                                   want1), j
        for kind in ("uniform", "correlated", "random", "random"):
            P = _population(rng, kind)
            for number in (2, 3, 5, 6, 7, 8, 10) + ((4,) if kind == "uniform" else ()):
                got, want = causal.definition_epsilon(number, mech, P), ref_definition(number, mech, P)
                assert at_least(got, want) and close_above(got, want), (j, kind, number)
                if number in (3, 7):
                    old = nearest_definition(number, A, P)
                    nearest_low += mp.mpf(old) < want
                    nearest_zero += old == 0 < want
            if j % 4 == 0:  # the slow route, on the structural model
                for number in (3, 6, 7, 10):
                    got, want = causal.definition_epsilon_sem(number, mech, P), ref_sem(number, mech, P)
                    assert at_least(got, want) and close_above(got, want), (j, kind, number)
            learned = causal.adversary_learning(mech, P)
            assert at_least(learned["informed"], ref_definition(10, mech, P))
            assert at_least(learned["uninformed"], ref_definition(3, mech, P))
        if j % 5 == 0:
            for number in (2, 3, 5, 8):  # the supremum over populations is attained at the candidates
                want = max(ref_definition(number, mech, P) for P in causal.candidate_populations((2, 2)))
                got = causal.universal_epsilon(number, mech)
                assert at_least(got, want) and close_above(got, want), (j, number)
    assert nearest_low > 50 and nearest_zero > 2, (nearest_low, nearest_zero)


def test_exact_zeros_stay_zero_and_infinities_stay_infinite():
    """The chapter's ε = 0 cases (Appendix B's Definition 10, Proposition 4's Definition 7, the XOR mechanism's
    Definition 3, a constant mechanism, the nondisclosing example) are exactly 0, and ∞ stays ∞."""
    app_b, prop4 = causal.appendix_b_mechanism(), causal.proposition4_mechanism()
    assert causal.definition_epsilon(10, app_b, np.array([0.5, 0.5, 0.0])) == 0.0
    assert causal.definition_epsilon(1, app_b) == math.inf and causal.universal_epsilon(2, app_b) == math.inf
    P4 = np.zeros((3, 3))
    P4[:2, :2] = 0.25
    assert causal.definition_epsilon(7, prop4, P4) == 0.0 and causal.definition_epsilon(1, prop4) == math.inf
    assert causal.definition_epsilon(3, xor_randomized_response(0.5), np.full((2, 2), 0.25)) == 0.0
    const = FiniteMechanism(np.full((4, 2), 0.5), list(itertools.product((0, 1), repeat=2)), [0, 1])
    assert causal.interference_epsilon(const) == 0.0
    assert causal.nondisclosure_epsilon(*causal.nondisclosing_example()) == 0.0
    assert causal.definition_epsilon(1, causal.exact_count(2)) == math.inf


def test_extreme_entries_give_finite_ratios_beyond_the_float_range():
    """Entries of 5e-324 and 1e-300: the exact ratio 1/5e-324 is beyond the largest float, its log (744.44) is not,
    and an entry one ulp from another gives a positive ε of 1e-16, not 0."""
    tiny = FiniteMechanism(np.array([[1 - 5e-324, 5e-324], [5e-324, 1 - 5e-324]]), [(0,), (1,)], [0, 1])
    sub = FiniteMechanism(np.array([[0.5, 0.5], [1 - 1e-300, 1e-300]]), [(0,), (1,)], [0, 1])
    ulp = FiniteMechanism(np.array([[0.5, 0.5], [0.5 + 2.0**-53, 0.5 - 2.0**-53]]), [(0,), (1,)], [0, 1])
    for mech in (tiny, sub, ulp):
        want = ref_definition(1, mech)
        for got in (causal.definition_epsilon(1, mech), causal.interference_epsilon(mech),
                    causal.universal_epsilon(5, mech)):
            assert at_least(got, want) and close_above(got, want) and math.isfinite(got)
        for P in (np.array([0.5, 0.5]), np.array([1 - 1e-300, 1e-300]), np.array([5e-324, 1 - 5e-324])):
            got, want = causal.nondisclosure_epsilon(mech, P), ref_nondisclosure(mech, P)
            assert at_least(got, want) and close_above(got, want)
    assert 0 < causal.definition_epsilon(1, ulp) < 1e-15


def test_interference_and_nondisclosure_are_never_below_the_exact_value():
    rng = np.random.default_rng(SEED + 2)
    mechs = CHAPTER_MECHANISMS + [local_randomized_response(n, 0.5) for n in (1, 2, 3)]
    mechs += [_random_mechanism(rng, s) for s in (0.3, 1.0, 8.0) for _ in range(10)]
    mechs += [_near_half_mechanism(rng) for _ in range(40)]
    nearest_low = 0
    for j, mech in enumerate(mechs):
        got, want = causal.interference_epsilon(mech), ref_interference(mech)
        assert at_least(got, want) and close_above(got, want), j
        if len(mech.databases) != 4:
            continue
        for kind in ("uniform", "correlated", "random", "random"):
            P = _population(rng, kind)
            got, want = causal.nondisclosure_epsilon(mech, P), ref_nondisclosure(mech, P)
            assert at_least(got, want) and close_above(got, want), (j, kind)
            flat, w = mech.matrix, P.ravel()
            out = w @ flat
            old = float(np.max(np.abs(np.log(flat[w > 0][:, out > 0]) - np.log(out[out > 0]))))
            nearest_low += mp.mpf(old) < want
    assert nearest_low > 20, nearest_low


# ------------------------------------------------------------------------------------------------ structural models


def _sequence(rng, spread):
    def channel(rows, cols):
        m = rng.dirichlet(np.ones(cols), size=rows) ** spread
        return m / m.sum(axis=1, keepdims=True)

    return causal.sequence_model([channel(2, 3)], [channel(2, 3) for _ in range(3)])


def test_effect_sizes_on_the_chapters_models_are_never_below_the_exact_value():
    """brp_epsilon, effect_size, max_relative_probability, relative_probability, log_ratio_by_value, path_effects
    and relatives_effect on prog_status, randomized response with relatives, partial inheritance and random
    sequence models X → Y → Z, against the brute-force exact laws."""
    rng = np.random.default_rng(SEED + 3)
    status = causal.prog_status_model(0.5, with_database=False)
    for cause in ("D1", "R1", "R2", ("R1", "R2")):
        got, want = causal.brp_epsilon(status, "O", cause), ref_brp(status, "O", cause)
        assert at_least(got, want) and close_above(got, want), cause
    for k in range(3):
        got, want = causal.relatives_effect(0.5, k), ref_brp(causal.randomized_response_model(0.5, k), "O", "R1")
        assert at_least(got, want) and close_above(got, want), k
    paths = causal.path_effects(status, "O", "R1", direct_hold="R2", indirect_hold="D1")
    assert at_least(paths["total"], ref_brp(status, "O", "R1"))
    assert at_least(paths["direct"], max(ref_brp(status, "O", "R1", {"R2": r}) for r in (0, 1)))
    assert at_least(paths["indirect"], max(ref_brp(status, "O", "R1", {"D1": r}) for r in (0, 1)))
    inherit = causal.inheritance_model(0.5)
    for q in (0.0, 0.3, 1 / 3, 1.0):
        pq = causal.inheritance_population(inherit, q)
        for cause in ("D1", "R1"):
            got, want = causal.effect_size(inherit, pq, "O", cause), ref_effect(inherit, pq, "O", cause)
            assert at_least(got, want) and close_above(got, want), (q, cause)
            rp = causal.max_relative_probability(inherit, pq, "O", cause)
            assert at_least(rp, mp.exp(want)) and close_above(rp, mp.exp(want)), (q, cause)
        for mode in ("do", "given"):
            by_value = causal.log_ratio_by_value(inherit, pq, "O", "D1", mode=mode)
            for y, got in by_value.items():
                laws = [ref_law(inherit, pq, "O", **({"do": {"D1": x}} if mode == "do" else {"given": {"D1": x}}))
                        for x in (0, 1)]
                want = ref_log(max_ratio((a.get((y,), 0), b.get((y,), 0)) for a, b in itertools.permutations(laws, 2)))
                assert at_least(got, want) and close_above(got, want), (q, mode, y)
    nearest_low = 0
    for j in range(40):
        seq = _sequence(rng, float(rng.choice([0.5, 1.0, 6.0])))
        for effect in ("Y", "Z", ("Y", "Z")):
            got, want = causal.brp_epsilon(seq, effect, "X"), ref_brp(seq, effect, "X")
            assert at_least(got, want) and close_above(got, want), (j, effect)
            for u in point_populations(seq):
                table = [[seq.distribution(u, effect, do={"X": x}).get(v, 0.0) for v in
                          sorted({k for x2 in (0, 1) for k in seq.distribution(u, effect, do={"X": x2})}, key=repr)]
                         for x in (0, 1)]
                nearest_low += mp.mpf(nearest_log_max_ratio(table)) < ref_effect(seq, u, effect, "X")
        u = seq.uniform_population()
        for y in seq.domains["Z"]:
            got = causal.relative_probability(seq, u, {"Z": y}, {"X": 1}, {"X": 0})
            a, b = (ref_law(seq, u, "Z", do={"X": x}).get((y,), 0) for x in (1, 0))
            want = mp.mpf((a / b).numerator) / (a / b).denominator  # RP (eq. 26), a ratio of two exact masses
            assert at_least(got, want) and close_above(got, want), (j, y)
            nearest_low += mp.mpf(float(a) / float(b)) < want
    assert nearest_low > 10, nearest_low
