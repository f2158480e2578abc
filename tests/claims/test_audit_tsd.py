"""A hostile referee's audit of the causal-view chapter (Tschantz, Sen & Datta), with independent code.

Nothing here imports ``dpsemantics``: mechanisms, populations, conditioning and interventions are written
out again with NumPy, SciPy and exact fractions, so that an error shared by the package and the chapter
cannot hide.  Each test names the sentence of the book (or the paper) that it checks, including its
hypotheses and quantifiers (which n, which population, which adjacency).

The tests whose names mention the registry (or that say "Join") import ``dpsemantics.claims`` only after their
independent computation, to read the registry's claim by ``claims.get(id)`` and require it to agree: a change
on either side is caught.
"""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import norm

EPS = 0.5


# ---------------------------------------------------------------- independent building blocks


def geometric_count(n, eps):
    """Count of ones in {0,1}^n plus two-sided geometric noise, clamped to [0, n]; rows keyed by database."""
    a = math.exp(-eps)
    rows = {}
    for db in itertools.product((0, 1), repeat=n):
        c = sum(db)
        row = np.empty(n + 1)
        for o in range(n + 1):
            if o == 0:
                row[o] = a**c / (1 + a)
            elif o == n:
                row[o] = a ** (n - c) / (1 + a)
            else:
                row[o] = (1 - a) / (1 + a) * a ** abs(o - c)
        rows[db] = row
    return rows


def random_mechanism(rng, n=2, k=3, m=3, spread=1.5):
    rows = {}
    for db in itertools.product(range(k), repeat=n):
        p = np.exp(rng.uniform(-spread, spread, m))
        rows[db] = p / p.sum()
    return rows


def log_max_ratio(rows):
    """max over columns of log(max/min) over the given rows (0/0 skipped, x/0 infinite)."""
    R = np.array(rows)
    hi, lo = R.max(0), R.min(0)
    live = hi > 0
    if np.any(live & (lo == 0)):
        return math.inf
    return float(np.max(np.log(hi[live]) - np.log(lo[live]))) if live.any() else 0.0


def eps_dp(mech):
    dbs = list(mech)
    best = 0.0
    for d in dbs:
        for e in dbs:
            if sum(x != y for x, y in zip(d, e)) == 1:
                best = max(best, log_max_ratio([mech[d], mech[e]]))
    return best


def cond_on_point(mech, pop, i, v):
    """Pr[O | D_i = v] under population ``pop`` (dict db -> prob), or None if Pr[D_i = v] = 0."""
    w = {d: p for d, p in pop.items() if d[i] == v and p > 0}
    tot = sum(w.values())
    if tot == 0:
        return None
    return sum(p * mech[d] for d, p in w.items()) / tot


def do_point(mech, pop, i, v):
    """Pr[O | do(D_i = v)]: replace the i-th data point of every database by v (the SEM D_i := R_i)."""
    return sum(p * mech[d[:i] + (v,) + d[i + 1:]] for d, p in pop.items())


def eps_bayes0(mech, pop, values):
    n = len(next(iter(mech)))
    best = 0.0
    for i in range(n):
        rows = [r for r in (cond_on_point(mech, pop, i, v) for v in values) if r is not None]
        if len(rows) > 1:
            best = max(best, log_max_ratio(rows))
    return best


def eps_do_point(mech, pop, values):
    n = len(next(iter(mech)))
    return max(log_max_ratio([do_point(mech, pop, i, v) for v in values]) for i in range(n))


def eps_strong(mech, pop):
    """Definition 10's check: adjacent databases that both have positive probability."""
    best = 0.0
    for d, p in pop.items():
        for e, q in pop.items():
            if p > 0 and q > 0 and sum(x != y for x, y in zip(d, e)) == 1:
                best = max(best, log_max_ratio([mech[d], mech[e]]))
    return best


def point_masses(values, n):
    return [{d: 1.0} for d in itertools.product(values, repeat=n)]


def two_point(values, n):
    dbs = list(itertools.product(values, repeat=n))
    return [{a: 0.5, b: 0.5} for a, b in itertools.combinations(dbs, 2)]


def random_pop(rng, values, n, sparse=False):
    dbs = list(itertools.product(values, repeat=n))
    w = rng.dirichlet(np.ones(len(dbs)))
    if sparse:
        w = w * (rng.random(len(dbs)) < 0.5)
        if w.sum() == 0:
            w[0] = 1.0
    w = w / w.sum()
    return dict(zip(dbs, w))


# ---------------------------------------------------------------- Table 1 and its quantifiers


@pytest.mark.parametrize("seed", range(6))
def test_table1_relations_with_their_quantifiers(seed):
    """Table 1: Defs 5, 6, 8 equal DP; Def 7 at any population ≤ DP; Def 3 (over all populations) ≥ DP;
    Def 4 over independent populations = DP; Def 10 at one population ≤ DP, Def 2 (all populations) = DP."""
    rng = np.random.default_rng(seed)
    vals = range(3)
    mech = random_mechanism(rng)
    e1 = eps_dp(mech)
    points = point_masses(vals, 2)
    # Definition 5 / 6: under do(D = d) every data point is set, so Pr[O] = Σ_r P(r) A(d) = A(d) at any
    # population, zero-probability databases included: every pair of neighbours is compared
    sparse = random_pop(rng, vals, 2, sparse=True)
    do_whole = {d: sum(p * mech[d] for p in sparse.values()) for d in mech}
    assert eps_dp(do_whole) == pytest.approx(e1, rel=1e-12)
    # Definition 8: sup over populations attained at point masses; it equals DP (Proposition 5)
    assert max(eps_do_point(mech, P, vals) for P in points) == pytest.approx(e1, rel=1e-12)
    randoms = [random_pop(rng, vals, 2, sparse=s) for s in (False, True) for _ in range(5)]
    for P in randoms:
        assert eps_do_point(mech, P, vals) <= e1 + 1e-12  # Definition 7: DP implies it at every population
        assert eps_strong(mech, P) <= e1 + 1e-12  # Definition 10
    # Definition 3: sup over (two-point) populations is at least DP's ε
    assert max(eps_bayes0(mech, P, vals) for P in two_point(vals, 2)) >= e1 - 1e-12
    # Definition 4 with mutual independence: never above DP, and two-point populations differing in one
    # coordinate (which are independent) reach it
    for _ in range(5):
        m1, m2 = rng.dirichlet(np.ones(3)), rng.dirichlet(np.ones(3))
        P = {d: m1[d[0]] * m2[d[1]] for d in mech}
        assert eps_bayes0(mech, P, vals) <= e1 + 1e-12
    reach = 0.0
    for d in mech:
        for i, v in itertools.product(range(2), vals):
            e = d[:i] + (v,) + d[i + 1:]
            if e != d:
                reach = max(reach, eps_bayes0(mech, {d: 0.5, e: 0.5}, vals))
    assert reach == pytest.approx(e1, rel=1e-12)


def test_definition7_does_not_imply_dp_at_full_support():
    """The book's exercise: a population with full support can still hide a violation from Definition 7
    (finite ε at the population, ε = ∞ for DP)."""
    mech = {(0, 0): np.array([0.5, 0.5]), (0, 1): np.array([0.5, 0.5]), (1, 0): np.array([0.5, 0.5]),
            (1, 1): np.array([1.0, 0.0])}
    P = {d: 0.25 for d in mech}
    assert eps_dp(mech) == math.inf
    assert eps_do_point(mech, P, (0, 1)) == pytest.approx(math.log(2))


def test_appendix_b_exact():
    """Appendix B eqs. (34)-(35): Pr[O=0 | D1=0] = Pr[O=1 | D1=1] = 1/2 with Pr[D1=2] = 0; Definition 10
    holds with ε = 0 there, while DP fails for every ε (𝒜(2) never outputs 1)."""
    A = {(0,): [Fraction(1, 2), Fraction(1, 2)], (1,): [Fraction(1, 2), Fraction(1, 2)],
         (2,): [Fraction(1), Fraction(0)]}
    P = {(0,): Fraction(1, 2), (1,): Fraction(1, 2), (2,): Fraction(0)}
    for v, o in ((0, 0), (1, 1)):
        assert sum(P[d] * A[d][o] for d in A if d[0] == v) / sum(P[d] for d in A if d[0] == v) == Fraction(1, 2)
    assert A[(2,)][1] == 0 < A[(1,)][1]


@pytest.mark.parametrize("seed", range(4))
def test_proposition4_exact_at_every_population_without_twos(seed):
    """Proposition 4 (eqs. 18-19): Pr[O=o | do(Di=d)] = 1/2 for every o, i, d — at *any* population with
    Pr[D1=2] = Pr[D2=2] = 0, not only the uniform one."""
    rng = np.random.default_rng(seed)
    w = [Fraction(int(x), 1) for x in rng.integers(1, 20, size=4)]
    dbs = [(0, 0), (0, 1), (1, 0), (1, 1)]
    P = {d: x / sum(w) for d, x in zip(dbs, w)}
    A = lambda d: [Fraction(1), Fraction(0)] if d == (2, 2) else [Fraction(1, 2), Fraction(1, 2)]
    for i, v, o in itertools.product(range(2), range(3), range(2)):
        assert sum(p * A(d[:i] + (v,) + d[i + 1:])[o] for d, p in P.items()) == Fraction(1, 2)


# ---------------------------------------------------------------- the survey: conditioning versus intervening


def status_effect(eps, cause):
    """Effect sizes in prog_status (R2 := R1, Di := Ri, three data points) maximised over point masses of
    the background (R1, R3), from the closed-form count."""
    A = geometric_count(3, eps)
    best = 0.0
    for r1, r3 in itertools.product((0, 1), repeat=2):
        rows = []
        for x in (0, 1):
            if cause == "R1":
                db = (x, x, r3)
            elif cause == "R2":
                db = (r1, x, r3)
            elif cause == "D1":
                db = (x, r1, r3)
            elif cause == "R1R2":
                rows.extend(A[(x, y, r3)] for y in (0, 1))
                continue
            rows.append(A[db])
        best = max(best, log_max_ratio(rows))
    return best


@pytest.mark.parametrize("eps", [0.1, 0.5, 2.0])
def test_survey_effect_sizes(eps):
    """§1.1 and §6.3: D1 → ε, R1 → 2ε, R2 → ε, total 3ε, joint 2ε, at every ε (the chapter's panel (a))."""
    assert status_effect(eps, "D1") == pytest.approx(eps, rel=1e-9)
    assert status_effect(eps, "R1") == pytest.approx(2 * eps, rel=1e-9)
    assert status_effect(eps, "R2") == pytest.approx(eps, rel=1e-9)
    assert status_effect(eps, "R1R2") == pytest.approx(2 * eps, rel=1e-9)
    assert status_effect(eps, "R1") + status_effect(eps, "R2") == pytest.approx(3 * eps, rel=1e-9)


@pytest.mark.parametrize("eps", [0.2, 0.5, 1.5])
def test_double_dose_is_exactly_2eps_for_any_weight_of_the_third(eps):
    """§1.1: conditioning on D1 when D2 = D1 moves the count by e^{2ε} — for any distribution of R3."""
    A = geometric_count(3, eps)
    for w in (0.1, 0.5, 0.9):
        P = {(a, a, b): (0.5) * (w if b else 1 - w) for a in (0, 1) for b in (0, 1)}
        rows = [cond_on_point(A, P, 0, v) for v in (0, 1)]
        assert log_max_ratio(rows) == pytest.approx(2 * eps, rel=1e-9)
    # and the two-point version of Definition 3 for n = 2 (the registry's tsd-s3-def3-correlated)
    A2 = geometric_count(2, eps)
    assert eps_bayes0(A2, {(0, 0): 0.5, (1, 1): 0.5}, (0, 1)) == pytest.approx(2 * eps, rel=1e-9)


@pytest.mark.parametrize("k", range(4))
def test_randomized_response_relatives(k):
    """§6.3: statuses R1 and k copies, each answered by randomized response, exact count (plus one
    unrelated person): the effect of R1 on the count is (k+1)ε."""
    p = math.exp(EPS) / (1 + math.exp(EPS))
    n = k + 2

    def count_dist(r1, r_other):
        truth = [r1] * (k + 1) + [r_other]
        dist = np.zeros(n + 1)
        for ans in itertools.product((0, 1), repeat=n):
            pr = np.prod([p if a == t else 1 - p for a, t in zip(ans, truth)])
            dist[sum(ans)] += pr
        return dist

    best = max(log_max_ratio([count_dist(0, r), count_dist(1, r)]) for r in (0, 1))
    assert best == pytest.approx((k + 1) * EPS, rel=1e-9)


def test_definition9_printed_bound_is_unsatisfiable():
    """Definition 9 as printed bounds max RP̄ by e^{-1}; RP̄ ≥ 1 always (x1 = x2), and the count attains e^ε."""
    A = geometric_count(3, EPS)
    ratios = [A[(1, b, c)] / A[(0, b, c)] for b, c in itertools.product((0, 1), repeat=2)]
    rpbar = max(float(np.max(np.maximum(r, 1 / r))) for r in ratios)
    assert rpbar >= 1 > math.exp(-1)
    assert rpbar == pytest.approx(math.exp(EPS), rel=1e-12)


def test_lemma2_needs_population_weights():
    """Lemma 2: the weighted sum (eq. 78) is the interventional probability; the printed unweighted sum
    exceeds 1 for the count (so it cannot be a probability)."""
    A = geometric_count(3, EPS)
    P = {d: 0.25 for d in itertools.product((0, 1), repeat=2)}
    weighted = sum(p * A[(1,) + d][3] for d, p in P.items())
    unweighted = sum(A[(1,) + d][3] for d in P)
    full = {(r1, r1, r3): 0.25 for r1 in (0, 1) for r3 in (0, 1)}
    # prog_status with uniform R1, R3: do(D1 = 1) keeps D2 = R1, D3 = R3
    engine = sum(p * A[(1,) + d[1:]][3] for d, p in full.items())
    assert weighted == pytest.approx(engine, rel=1e-12)
    assert unweighted > 1 and unweighted == pytest.approx(4 * weighted)


# ---------------------------------------------------------------- Definition 4's printed condition


def pairwise_ci(P, n):
    """Dᵢ ⟂ Dⱼ given the other data points, for all i < j (P: dict over {0,1}^n)."""
    for i, j in itertools.combinations(range(n), 2):
        rest = [t for t in range(n) if t not in (i, j)]
        for ctx in itertools.product((0, 1), repeat=len(rest)):
            sel = {d: p for d, p in P.items() if all(d[t] == c for t, c in zip(rest, ctx))}
            tot = sum(sel.values())
            if tot == 0:
                continue
            for a, b in itertools.product((0, 1), repeat=2):
                joint = sum(p for d, p in sel.items() if d[i] == a and d[j] == b) / tot
                pi = sum(p for d, p in sel.items() if d[i] == a) / tot
                pj = sum(p for d, p in sel.items() if d[j] == b) / tot
                if abs(joint - pi * pj) > 1e-12:
                    return False
    return True


def test_definition4_printed_condition_admits_perfect_correlation_for_n3():
    """Definition 4's printed condition (pairwise independence given the *other* data points) holds for the
    population with D1 = D2 = D3, and there the ε-DP count needs 3ε: DP does not imply Definition 4 as
    printed for n ≥ 3.  For n = 2 the condition is plain independence and excludes it."""
    P3 = {(0, 0, 0): 0.5, (1, 1, 1): 0.5}
    assert pairwise_ci(P3, 3)
    A = geometric_count(3, EPS)
    assert eps_dp(A) == pytest.approx(EPS, rel=1e-12)
    assert eps_bayes0(A, P3, (0, 1)) == pytest.approx(3 * EPS, rel=1e-9)
    assert not pairwise_ci({(0, 0): 0.5, (1, 1): 0.5}, 2)


@pytest.mark.parametrize("seed", range(3))
def test_full_support_non_product_populations_fail_the_printed_condition(seed):
    """The chapter says only populations with zero-probability databases separate the two readings:
    random full-support populations that are not products fail pairwise conditional independence."""
    rng = np.random.default_rng(seed)
    P = dict(zip(itertools.product((0, 1), repeat=3), rng.dirichlet(np.ones(8))))
    assert not pairwise_ci(P, 3)


# ---------------------------------------------------------------- §2, §3, §6.3, §7, §8


@pytest.mark.parametrize("n", [1, 2, 3])
def test_noninterference_chain(n):
    """§2: ε = 0 is noninterference.  Changing the whole input costs at most nε, attained by local
    randomized response; a 0-DP mechanism has identical rows."""
    p = math.exp(EPS) / (1 + math.exp(EPS))
    dbs = list(itertools.product((0, 1), repeat=n))
    lrr = {d: np.array([np.prod([p if a == b else 1 - p for a, b in zip(d, o)]) for o in dbs]) for d in dbs}
    whole = log_max_ratio(list(lrr.values()))
    assert whole == pytest.approx(n * EPS, rel=1e-9)
    assert eps_dp(lrr) == pytest.approx(EPS, rel=1e-9)
    rng = np.random.default_rng(n)
    for _ in range(10):
        mech = random_mechanism(rng, n=n, k=2)
        assert eps_dp(mech) - 1e-12 <= log_max_ratio(list(mech.values())) <= n * eps_dp(mech) + 1e-12


def test_informed_and_uninformed_adversaries():
    """§3: with correlated data the uninformed adversary learns more (count); with an exclusive or the
    informed one does (uninformed learns nothing)."""
    A = geometric_count(2, EPS)
    P = {(0, 0): 0.4, (0, 1): 0.1, (1, 0): 0.1, (1, 1): 0.4}
    assert eps_strong(A, P) == pytest.approx(EPS, rel=1e-9)
    assert EPS < eps_bayes0(A, P, (0, 1)) < 2 * EPS
    p = math.exp(EPS) / (1 + math.exp(EPS))
    xor = {(a, b): np.array([p, 1 - p]) if a ^ b == 0 else np.array([1 - p, p]) for a in (0, 1) for b in (0, 1)}
    U = {d: 0.25 for d in xor}
    assert eps_bayes0(xor, U, (0, 1)) == pytest.approx(0.0, abs=1e-12)
    assert eps_strong(xor, U) == pytest.approx(EPS, rel=1e-9)


def test_direct_plus_indirect_in_the_survey():
    """§6.3: Ada's status has a direct effect ε (R2 held) and an indirect effect ε (D1 held); total 2ε."""
    A = geometric_count(3, EPS)
    direct = max(log_max_ratio([A[(x, r2, r3)] for x in (0, 1)]) for r2 in (0, 1) for r3 in (0, 1))
    indirect = max(log_max_ratio([A[(d1, x, r3)] for x in (0, 1)]) for d1 in (0, 1) for r3 in (0, 1))
    total = max(log_max_ratio([A[(x, x, r3)] for x in (0, 1)]) for r3 in (0, 1))
    assert direct == pytest.approx(EPS) and indirect == pytest.approx(EPS)
    assert total == pytest.approx(direct + indirect)


@pytest.mark.parametrize("seed", range(5))
def test_nondisclosure_bounds_bayes0_at_that_population(seed):
    """§7: if every posterior is within e^{±s} of the prior (adversary's background = the population), then
    Pr[O | Di = v] is within e^{±s} of Pr[O], so Definition 3's check holds with 2s; s = 0 gives 0."""
    rng = np.random.default_rng(seed)
    mech = random_mechanism(rng, n=2, k=2)
    P = random_pop(rng, (0, 1), 2)
    out = sum(p * mech[d] for d, p in P.items())
    s = max(float(np.max(np.abs(np.log(mech[d]) - np.log(out)))) for d, p in P.items() if p > 0)
    assert eps_bayes0(mech, P, (0, 1)) <= 2 * s + 1e-12
    # exact nondisclosure: a population supported on databases with one common output distribution
    same = np.array([0.25, 0.25, 0.5])
    hide = {(0, 0): same, (0, 1): same, (1, 0): np.array([0.7, 0.2, 0.1]), (1, 1): same}
    Q = {(0, 0): 0.5, (0, 1): 0.25, (1, 0): 0.0, (1, 1): 0.25}
    assert eps_bayes0(hide, Q, (0, 1)) == 0.0
    assert max(eps_bayes0(hide, T, (0, 1)) for T in two_point((0, 1), 2)) > 0  # but not Definition 3


def test_experiment_interval_coverage():
    """§8: intervene on Ada's data point (111 vs 011), count the top output, Katz interval for the log risk
    ratio: the coverage of the true effect ε is within Monte Carlo error of 95 %."""
    A = geometric_count(3, EPS)
    p1, p2 = A[(1, 1, 1)][3], A[(0, 1, 1)][3]
    assert math.log(p1 / p2) == pytest.approx(EPS)
    rng = np.random.default_rng(99)
    N, R = 400, 3000
    x1 = np.maximum(rng.binomial(N, p1, R), 0.5)
    x2 = np.maximum(rng.binomial(N, p2, R), 0.5)
    est = np.log(x1 / x2)
    se = np.sqrt(1 / x1 - 1 / N + 1 / x2 - 1 / N)
    z = norm.ppf(0.975)
    cover = np.mean((est - z * se <= EPS) & (EPS <= est + z * se))
    assert abs(cover - 0.95) < 3 * math.sqrt(0.95 * 0.05 / R)


@pytest.mark.parametrize("seed", range(4))
def test_theorem1_and_post_processing(seed):
    """Theorem 1 (pa(Z) = {X, Y}): ε(X → ⟨Y, Z⟩) ≤ ε₁ + ε₂, with the maxima over point-mass populations of
    the background W acting on Y; and Z = g(Y) never has more BRP than Y."""
    rng = np.random.default_rng(seed)
    nx, ny, nz, nw = 2, 3, 3, 2
    Fy = rng.dirichlet(np.ones(ny), size=(nw, nx))  # Fy[w, x] = distribution of Y
    Fz = rng.dirichlet(np.ones(nz), size=(ny, nx))  # Fz[y, x] = distribution of Z
    e1 = max(log_max_ratio([Fy[w, x] for x in range(nx)]) for w in range(nw))
    e2 = max(log_max_ratio([Fz[y, x] for x in range(nx)]) for y in range(ny))
    pair = max(log_max_ratio([np.outer(Fy[w, x], np.ones(nz)).ravel() * Fz[:, x].ravel() for x in range(nx)])
               for w in range(nw))
    assert pair <= e1 + e2 + 1e-12
    g = rng.integers(0, 2, size=ny)
    post = max(log_max_ratio([np.bincount(g, weights=Fy[w, x], minlength=2) for x in range(nx)]) for w in range(nw))
    assert post <= e1 + 1e-12


@pytest.mark.parametrize("seed", range(3))
def test_posteriors_with_and_without_ada_within_e_2eps(seed):
    """§7 (Kasiviswanathan & Smith's comparison): posteriors with the real and a replaced i-th data point
    differ pointwise by at most e^{2ε}, for any prior — including perfectly correlated ones."""
    rng = np.random.default_rng(seed)
    A = geometric_count(3, EPS)
    dbs = list(A)
    prior = rng.dirichlet(np.ones(len(dbs))) * np.array([1.0 if d[0] == d[1] else 0.0 for d in dbs])
    prior /= prior.sum()
    worst = 0.0
    for o in range(4):
        like = np.array([A[d][o] for d in dbs])
        post = like * prior / np.sum(like * prior)
        for i, v in itertools.product(range(3), (0, 1)):
            like2 = np.array([A[d[:i] + (v,) + d[i + 1:]][o] for d in dbs])
            post2 = like2 * prior / np.sum(like2 * prior)
            live = post > 0
            worst = max(worst, float(np.max(np.abs(np.log(post[live]) - np.log(post2[live])))))
    assert worst <= 2 * EPS + 1e-12


# --- §7: 0-Bayesian₀ DP is not equivalent to independence ----------------------------------------------------------


def test_s7_xor_randomized_response_passes_definition_3_at_zero_but_discloses():
    """Randomized response on D₁ ⊕ D₂, D₁ and D₂ independent fair bits, ε = 0.5."""
    keep = math.exp(0.5) / (1 + math.exp(0.5))
    joint = {}  # Pr[D1 = a, D2 = b, O = o]
    for a, b, o in itertools.product((0, 1), repeat=3):
        joint[a, b, o] = 0.25 * (keep if o == (a ^ b) else 1 - keep)
    # Definition 3 at this population: Pr[O = o | D_i = v] does not depend on v (ε = 0)
    for i, o in itertools.product((0, 1), repeat=2):
        given = [sum(p for (a, b, oo), p in joint.items() if oo == o and (a, b)[i] == v) / 0.5 for v in (0, 1)]
        assert given[0] == pytest.approx(0.5) and given[1] == pytest.approx(0.5)
    pr_o0 = sum(p for (a, b, o), p in joint.items() if o == 0)
    posterior = joint[0, 0, 0] / pr_o0
    assert posterior == pytest.approx(0.311, abs=5e-4) and posterior > 0.25 + 0.06


def test_s7_under_the_universal_reading_zero_bayesian0_dp_forces_independence():
    """Definition 3 read with its quantifier over all populations: the XOR mechanism fails it (ε at the two-point
    populations on {0,1}² is its ε = 0.5), and Definition 3 with ε = 0 at the two-point populations on neighbours
    bounds every neighbour ratio by 1 (scipy's LP), so every row is the same and O is independent of D."""
    keep = math.exp(0.5) / (1 + math.exp(0.5))
    xor = {(a, b): np.array([keep, 1 - keep]) if a == b else np.array([1 - keep, keep]) for a in (0, 1)
           for b in (0, 1)}
    assert max(eps_bayes0(xor, P, (0, 1)) for P in two_point((0, 1), 2)) == pytest.approx(0.5, rel=1e-9)
    hyp = []
    for a, b in itertools.permutations(itertools.product(range(3), repeat=2), 2):
        if sum(s != t for s, t in zip(a, b)) == 1:
            hyp.append(({a: 1.0}, {b: 1.0}))  # Pr[O | D_i = a_i] = 𝒜(a) at the population ½ on a, ½ on b
    assert _lp_over_mechanisms(hyp, {(1, 0): 1.0}, {(0, 0): 1.0}, 1.0) == pytest.approx(1.0, rel=1e-9)


def test_s7_registry_files_both_readings():
    """Join: the registry's claim is a different-reading finding: refuted at one population by this construction,
    and its companion under the universal reading holds with margin 1; the note gives the XOR mechanism's ε."""
    from dpsemantics import claims

    r = claims.evaluate(claims.get("tsd-s7-equivalent-to-independence"))
    assert r.status == "discrepancy" and r.finding == "different-reading" and "xor" in r.verdict.worst
    assert "0.311" in r.claim.note and "tsd-s7-independence-universal" in r.claim.note
    u = claims.evaluate(claims.get("tsd-s7-independence-universal"))
    assert u.status == "reproduced" and u.verdict.margin == pytest.approx(1.0, rel=1e-9)
    assert not claims.get("tsd-s7-independence-universal").compute(tighten=0.99).holds


# ---------------------------------------------------------------- the LP certificates, joined to the registry


def _worst_dp_mechanism_ratio(exp_eps, d, d2, n=2, k=3, m=3, q=0.02):
    """max 𝒜(d)(0) given 𝒜(d2)(0) = q over every e^ε-DP mechanism on {0..k−1}ⁿ (m outputs), by scipy's LP alone."""
    from scipy.optimize import linprog

    dbs = list(itertools.product(range(k), repeat=n))
    idx = {x: i for i, x in enumerate(dbs)}
    size = len(dbs) * m
    A_ub = []
    for a in dbs:
        for b in dbs:
            if sum(x != y for x, y in zip(a, b)) == 1:
                for o in range(m):
                    row = np.zeros(size)
                    row[idx[a] * m + o], row[idx[b] * m + o] = 1.0, -exp_eps
                    A_ub.append(row)
    A_eq = [np.kron(np.eye(len(dbs))[i], np.ones(m)) for i in range(len(dbs))]
    fix = np.zeros(size)
    fix[idx[d2] * m] = 1.0
    c = np.zeros(size)
    c[idx[d] * m] = -1.0
    res = linprog(c, A_ub=np.array(A_ub), b_ub=np.zeros(len(A_ub)), A_eq=np.array(A_eq + [fix]),
                  b_eq=np.r_[np.ones(len(dbs)), q], bounds=(0, 1), method="highs")
    return -res.fun / q


def test_table1_rows_are_certified_over_every_mechanism_and_the_worst_case_is_e_eps_registry():
    """Table 1's ↔ rows: over every ε-DP mechanism on {0,1,2}², neighbours reach exactly e^ε, databases two apart
    e^{2ε} (why conditioning on correlated data points, Def. 3 without independence, needs 2ε).  Join: every row of
    the registry is certified by LPs and its margin is 1 (attained)."""
    assert _worst_dp_mechanism_ratio(1.5, (0, 1), (0, 0)) == pytest.approx(1.5, rel=1e-9)
    assert _worst_dp_mechanism_ratio(1.5, (1, 1), (0, 0)) == pytest.approx(2.25, rel=1e-9)
    from dpsemantics import claims

    for number in (2, 3, 4, 5, 6, 7, 8, 10):
        v = claims.evaluate(claims.get(f"tsd-table1-def{number}-attack")).verdict
        assert v.kind == "certified-at-points" and v.certified_by == "certified-lp"  # at four e^ε (issue 35)
        assert v.margin == pytest.approx(1.0, rel=1e-9) and "every mechanism" in v.domain
        assert not claims.get(f"tsd-table1-def{number}-attack").compute(tighten=0.99).holds


def test_tsd_relations_are_mostly_certified_registry():
    """Issue 20: at least 18 of the 33 relations of Tschantz et al. the registry held are certified (an LP over a whole
    domain); the slips found later are counterexamples, each a discrepancy."""
    from dpsemantics import claims
    from dpsemantics.claims import tsd

    slips = {c.id for c in tsd.SLIPS}
    results = [claims.evaluate(c) for c in claims.registry("tsd") if c.is_relation and c.id not in slips]
    assert len(results) == 33
    assert sum(r.verdict.exact for r in results) >= 18  # exact LPs (issue 35: most at listed e^ε)
    assert all(claims.evaluate(c).status == "discrepancy" and c.finding for c in tsd.SLIPS)


def test_s7_posterior_as_printed_is_the_prior_and_the_game_i_posterior_is_not_registry():
    """§7's posterior 'where person i does not provide data', as printed, keeps 𝒜(d₋ᵢd′ᵢ) fixed inside the
    denominator's sum, so it equals the prior; with the summation variable in place it is Kasiviswanathan and
    Smith's Game-i posterior (ε-DP count, n = 2, uniform prior, d = (1, 1), output 2, person 2 gives 0)."""
    rows = geometric_count(2, EPS)
    dbs = list(itertools.product((0, 1), repeat=2))
    swap = lambda d: (d[0], 0)  # noqa: E731
    printed = rows[swap((1, 1))][2] * 0.25 / sum(rows[swap((1, 1))][2] * 0.25 for _ in dbs)
    intended = rows[swap((1, 1))][2] * 0.25 / sum(rows[swap(e)][2] * 0.25 for e in dbs)
    assert printed == pytest.approx(0.25) and intended == pytest.approx(0.3112, abs=5e-5)
    from dpsemantics import claims

    r = claims.evaluate(claims.get("tsd-s7-game-i-denominator"))
    assert r.status == "discrepancy" and f"{intended:.4f}" in r.claim.note


def test_proposition4_eq16_without_weights_is_four_times_the_interventional_probability_registry():
    """Proposition 4's proof, eq. (16): the sum over the other two data points without population weights is, at the
    uniform population (weights ¼), exactly 4 × Pr[O=o | do(D₃=1)] (Lemma 2, eq. 78)."""
    rows = geometric_count(3, EPS)
    for o in range(4):
        unweighted = sum(rows[rest + (1,)][o] for rest in itertools.product((0, 1), repeat=2))
        interventional = sum(0.25 * rows[rest + (1,)][o] for rest in itertools.product((0, 1), repeat=2))
        assert unweighted == pytest.approx(4 * interventional)
    from dpsemantics import claims

    v = claims.evaluate(claims.get("tsd-prop4-eq16-unweighted")).verdict
    assert v.margin == pytest.approx(4.0) and not v.holds


# ---------------------------------------------------------------- the definitions written into the LPs (issue 35)


def _lp_over_mechanisms(hypothesis, objective, normaliser, exp_eps, n=2, k=3, m=3, q=0.02):
    """max Σ objective[d]·𝒜(d)(0) given Σ normaliser[d]·𝒜(d)(0) = q over every mechanism on {0..k−1}ⁿ with m outputs
    meeting Σ left·𝒜(·)(o) ≤ e^ε Σ right·𝒜(·)(o) for each (left, right) in ``hypothesis`` and every o (scipy alone)."""
    from scipy.optimize import linprog

    dbs = list(itertools.product(range(k), repeat=n))
    idx = {x: i for i, x in enumerate(dbs)}
    size = len(dbs) * m
    A_ub = []
    for left, right in hypothesis:
        for o in range(m):
            row = np.zeros(size)
            for d, w in left.items():
                row[idx[d] * m + o] += w
            for d, w in right.items():
                row[idx[d] * m + o] -= exp_eps * w
            A_ub.append(row)
    A_eq = [np.kron(np.eye(len(dbs))[i], np.ones(m)) for i in range(len(dbs))]
    fix, c = np.zeros(size), np.zeros(size)
    for d, w in normaliser.items():
        fix[idx[d] * m] = w
    for d, w in objective.items():
        c[idx[d] * m] = -w
    res = linprog(c, A_ub=np.array(A_ub) if A_ub else None, b_ub=np.zeros(len(A_ub)) if A_ub else None,
                  A_eq=np.array(A_eq + [fix]), b_eq=np.r_[np.ones(len(dbs)), q], bounds=(0, 1), method="highs")
    return -res.fun / q


def _dp_pairs(n=2, k=3):
    dbs = list(itertools.product(range(k), repeat=n))
    return [({a: 1.0}, {b: 1.0}) for a in dbs for b in dbs if sum(x != y for x, y in zip(a, b)) == 1]


def test_dp_does_not_imply_definition3_but_definition3_implies_dp():
    """Table 1 row 3 both ways, written from Definition 3 itself.  DP ⇒ Def. 3 fails: at the population ½ on (0,0),
    ½ on (1,1), Pr[O | D₁=v] = 𝒜(v, v), and the worst ε-DP mechanism reaches e^{2ε}.  Def. 3 ⇒ DP: Definition 3 at
    the two-point populations ½ on ⟨d₋ᵢ, v⟩, ½ on ⟨d₋ᵢ, v′⟩ (where Pr[O | Dᵢ=v] = 𝒜(d₋ᵢ, v)) as the hypothesis
    bounds every neighbour ratio by e^ε."""
    corr = {(0, 0): 0.5, (1, 1): 0.5}
    left = {d: p for d, p in corr.items() if d[0] == 1}
    right = {d: p for d, p in corr.items() if d[0] == 0}
    total = lambda f: {d: p / sum(f.values()) for d, p in f.items()}  # noqa: E731
    assert _lp_over_mechanisms(_dp_pairs(), total(left), total(right), 1.5) == pytest.approx(2.25, rel=1e-9)
    hyp = []
    for (a, b) in [(x, y) for x, y in itertools.permutations(itertools.product(range(3), repeat=2), 2)
                   if sum(s != t for s, t in zip(x, y)) == 1]:
        pop = {a: 0.5, b: 0.5}
        i = next(j for j in range(2) if a[j] != b[j])
        hyp.append(({d: 1.0 for d in pop if d[i] == a[i]}, {d: 1.0 for d in pop if d[i] == b[i]}))
    assert _lp_over_mechanisms(hyp, {(1, 0): 1.0}, {(0, 0): 1.0}, 1.5) == pytest.approx(1.5, rel=1e-9)


def test_definition7_at_a_population_without_twos_does_not_imply_dp():
    """Def. 7 at the population uniform on {0,1}² (Pr[Dᵢ=2] = 0): Pr[O | do(D₁=v)] = ½(𝒜(v,0) + 𝒜(v,1)) and
    Pr[O | do(D₂=v)] = ½(𝒜(0,v) + 𝒜(1,v)) never involve ⟨2,2⟩, so 𝒜(2,2)(0) = 1 while 𝒜(2,1)(0) = q."""
    pop = {d: 0.25 for d in itertools.product((0, 1), repeat=2)}
    hyp = []
    for i in range(2):
        forms = [{d[:i] + (v,) + d[i + 1:]: p for d, p in pop.items()} for v in range(3)]
        hyp += [(forms[v], forms[w]) for v, w in itertools.permutations(range(3), 2)]
    assert _lp_over_mechanisms(hyp, {(2, 2): 1.0}, {(2, 1): 1.0}, 1.5) == pytest.approx(50.0, rel=1e-9)
    assert _lp_over_mechanisms(_dp_pairs(), {(2, 2): 1.0}, {(2, 1): 1.0}, 1.5) == pytest.approx(1.5, rel=1e-9)


@pytest.mark.parametrize("number", [3, 7])
def test_table1_rows_flipped_to_equivalence_are_refuted_registry(number):
    """Join (issue 35): the registry's certificate of row 3 or 7 asked for '↔ DP' instead of the printed relation is
    refuted (the flipped row is false: tsd-fig2-assumption-arcs, tsd-prop4-def7-not-dp), while the printed relation
    holds with margin 1 and the certificate names the definition's comparisons."""
    from dpsemantics.claims import causal_evidence as E

    flipped = E.table1_verdict(number, "eq")
    assert not flipped.holds and flipped.margin > 1.09
    assert ("DP ⇒ Def. 3" if number == 3 else "Def. 7 (") in flipped.worst
    printed = E.table1_verdict(number)
    assert printed.holds and printed.margin == pytest.approx(1.0, rel=1e-9)
    assert f"Definition {number}" in printed.domain


@pytest.mark.parametrize("number", [2, 3, 4, 5, 6, 7, 8, 10])
def test_definition_forms_are_the_definitions_probabilities_registry(number):
    """Join: the linear forms the LPs take for each definition, applied to a random mechanism, give the probabilities
    this file computes by conditioning (cond_on_point, Bayes' rule on the database) and intervention (do_point)."""
    from dpsemantics.claims import causal_evidence as E

    rng = np.random.default_rng(number)
    mech = random_mechanism(rng)
    apply = lambda form: sum(float(w) * mech[d] for d, w in form.items())  # noqa: E731
    for name, pop in E.lp_populations(2, 3):
        P = {d: float(w) for d, w in pop.items()}
        for label, left, right in E.definition_forms(number, pop, 2, 3):
            for form, side in ((left, label.split(" against ")[0]), (right, label.split(" against ")[1])):
                if number in (3, 4, 7, 8):
                    i, v = int(side[side.index("D") + 1]) - 1, int(side[side.index("=") + 1])
                    want = cond_on_point(mech, P, i, v) if number in (3, 4) else do_point(mech, P, i, v)
                else:
                    start = side.index("=(") + 2
                    d = tuple(int(x) for x in side[start:side.index(")", start)].split(", "))
                    want = mech[d]
                assert np.allclose(apply(form), want, atol=1e-12), (name, label)
