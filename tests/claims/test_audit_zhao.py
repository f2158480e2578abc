"""A hostile referee's audit of the chapter on Zhao's paper (book/privacy-notions), with independent code.

Nothing here imports ``dpsemantics``: mechanisms, priors, Bayesian-DP leakage, (Bayesian) semantic privacy
and membership privacy are rebuilt from the definitions with NumPy/SciPy, and every exact result and every
discrepancy the chapter asserts is checked, with its hypotheses made explicit:

* databases are tuples in {0,1}^n, adjacency is substitution of one record (Hamming), ⊥ = 0 is a value of
  the domain (so Game i runs the mechanism on a database of the same domain);
* Bayesian DP and Bayesian semantic privacy are relative to a prior π on {0,1}^n (the correlation model);
  an adversary A(i, S) conditions on (x_i, x_S) and the other records follow π;
* Game i of Definition 2 is read as the chapter reads it ("condition": the unknown records follow π given
  X_i = ⊥), and the "replace" reading is checked to break the converse of Theorem 1;
* the membership-privacy family D* contains the two-point distributions P[x_i, x_K] = b for every b ∈ (0, 1)
  (the downward-scalable family), unless a test fixes b.

The tests whose names mention the registry (or that say "Join") import ``dpsemantics.claims`` only after their
independent computation, to read the registry's claim by ``claims.get(id)`` and require it to agree: a change
on either side is caught.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.optimize import brentq, minimize

# --------------------------------------------------------------------------------------------------
# Independent model: mechanisms are (databases, matrix); priors are dicts database -> probability
# --------------------------------------------------------------------------------------------------


def dbs(n):
    return list(itertools.product((0, 1), repeat=n))


def rr_row(bit, eps):
    keep = math.exp(eps) / (1 + math.exp(eps))
    return np.array([keep, 1 - keep]) if bit == 0 else np.array([1 - keep, keep])


def local_rr(n, eps):
    """Randomized response on each bit; outputs are the 2^n noisy tuples."""
    return {x: np.array([np.prod([rr_row(b, eps)[o] for b, o in zip(x, y)]) for y in dbs(n)]) for x in dbs(n)}


def xor_rr(eps):
    return {x: rr_row(x[0] ^ x[1], eps) for x in dbs(2)}


def rr_one(eps):
    return {(b,): rr_row(b, eps) for b in (0, 1)}


def independent(n, p=0.5):
    return {x: float(np.prod([p if v else 1 - p for v in x])) for x in dbs(n)}


def copies(n):
    return {x: (0.5 if len(set(x)) == 1 else 0.0) for x in dbs(n)}


def markov(n, stay):
    out = {}
    for x in dbs(n):
        pr = 0.5
        for a, b in zip(x, x[1:]):
            pr *= stay if a == b else 1 - stay
        out[x] = pr
    return out


def dp_epsilon(mech):
    worst = 0.0
    for x in mech:
        for i in range(len(x)):
            x2 = x[:i] + (1 - x[i],) + x[i + 1:]
            p, q = mech[x], mech[x2]
            with np.errstate(divide="ignore"):
                worst = max(worst, float(np.max(np.log(p[p > 0]) - np.log(q[p > 0]))))
    return worst


def views(mech, prior, i, S):
    """{x_S: {x_i: (mass, likelihood L(y | x_i, x_S))}} over values the prior allows."""
    out = {}
    for x, w in prior.items():
        if w <= 0:
            continue
        key = tuple(x[j] for j in S)
        cell = out.setdefault(key, {}).setdefault(x[i], [0.0, 0.0])
        cell[0] += w
        cell[1] = cell[1] + w * mech[x]
    return {k: {v: (m, lik / m) for v, (m, lik) in d.items()} for k, d in out.items()}


def adversaries(n):
    for i in range(n):
        others = [j for j in range(n) if j != i]
        for r in range(n):
            yield from ((i, S) for S in itertools.combinations(others, r))


def bdp(mech, prior, only=None):
    n = len(next(iter(mech)))
    worst = 0.0
    for i, S in adversaries(n) if only is None else [only]:
        for cell in views(mech, prior, i, S).values():
            liks = [lik for _, lik in cell.values()]
            for a, b in itertools.permutations(liks, 2):
                with np.errstate(divide="ignore"):
                    worst = max(worst, float(np.max(np.log(a[a > 0]) - np.log(b[a > 0]))))
    return worst


def sd(p, q):
    return 0.5 * float(np.abs(p - q).sum())


def sup_sd_search(a, c, rng, restarts=6):
    """sup over beliefs b of SD(b·a/⟨b,a⟩, b·c/⟨b,c⟩), by Nelder–Mead over softmax weights with restarts
    plus every two-point belief on a grid: a search, not the closed form under audit."""
    k = len(a)

    def value(w):
        b = np.exp(w - w.max())
        b /= b.sum()
        return sd(b * a / (b @ a), b * c / (b @ c))

    best = 0.0
    for s, t in itertools.permutations(range(k), 2):
        for lam in np.linspace(0.001, 0.999, 400):
            b = np.zeros(k)
            b[s], b[t] = lam, 1 - lam
            best = max(best, sd(b * a / (b @ a), b * c / (b @ c)))
    for _ in range(restarts):
        res = minimize(lambda w: -value(w), rng.normal(size=k) * 2, method="Nelder-Mead", options={"maxfev": 2000})
        best = max(best, -res.fun)
    return best


def semantic_level(mech, prior, bot=0, reading="condition", rng=None):
    """(Bayesian) semantic privacy by search over beliefs, adversary by adversary and output by output.
    K&S's SP is the case prior = uniform (full support) and S = N∖{i}; Zhao's BSP takes every S."""
    rng = rng or np.random.default_rng(0)
    n = len(next(iter(mech)))
    worst = 0.0
    for i, S in adversaries(n):
        points, g0, gi = [], [], []
        for xs, cell in views(mech, prior, i, S).items():
            if reading == "condition":
                if bot not in cell:
                    continue
                for v, (_, lik) in cell.items():
                    points.append((v, xs)), g0.append(lik), gi.append(cell[bot][1])
            else:  # replace: unknown records follow the prior given the TRUE x_i; record i is then set to ⊥
                for v in cell:
                    lik0 = np.zeros_like(cell[v][1])
                    liki = np.zeros_like(lik0)
                    mass = 0.0
                    for x, w in prior.items():
                        if w > 0 and x[i] == v and tuple(x[j] for j in S) == xs:
                            xb = x[:i] + (bot,) + x[i + 1:]
                            lik0 += w * mech[x]
                            liki += w * mech[xb]
                            mass += w
                    g0.append(lik0 / mass), gi.append(liki / mass)
        if len(g0) < 2:
            continue
        g0, gi = np.array(g0), np.array(gi)
        for y in range(g0.shape[1]):
            worst = max(worst, sup_sd_search(g0[:, y], gi[:, y], rng, restarts=2))
    return worst


# --------------------------------------------------------------------------------------------------
# Bayesian DP: the table, copies and Markov chains
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3])
def test_bdp_equals_dp_for_independent_records_and_n_eps_for_copies(n):
    eps = 1.0
    m = local_rr(n, eps)
    assert dp_epsilon(m) == pytest.approx(eps)
    for i, S in adversaries(n):
        assert bdp(m, independent(n), only=(i, S)) == pytest.approx(eps)
        blind = bdp(m, copies(n), only=(i, S))
        # the adversary knowing nothing sees n reports of one bit; knowing any copy leaves no pair of values
        assert blind == pytest.approx(n * eps if not S else 0.0, abs=1e-12)


def test_markov_chain_leakage_rises_from_eps_to_n_eps():
    eps, n = 1.0, 2
    m = local_rr(n, eps)
    stays = np.linspace(0.5, 1.0, 11)
    blind = [bdp(m, markov(n, s), only=(0, ())) for s in stays]
    assert blind[0] == pytest.approx(eps) and blind[-1] == pytest.approx(n * eps)
    assert np.all(np.diff(blind) >= -1e-12)


def test_dp_bdp_conditions_are_needed():
    """The map's [21]/[22]: DP ⇒ BDP needs independence (copies: DP 1, BDP 2); BDP ⇒ DP needs full support
    (a prior on one database makes every mechanism 0-BDP)."""
    m = local_rr(2, 1.0)
    assert dp_epsilon(m) == pytest.approx(1.0) and bdp(m, copies(2)) == pytest.approx(2.0)
    point = {x: (1.0 if x == (0, 1) else 0.0) for x in dbs(2)}
    assert bdp(m, point) == 0.0
    rng = np.random.default_rng(1)
    for _ in range(10):
        mech = {x: rng.dirichlet(np.ones(3)) for x in dbs(2)}
        full = dict(zip(dbs(2), rng.dirichlet(np.ones(4))))
        assert bdp(mech, independent(2, float(rng.uniform(0.1, 0.9)))) <= dp_epsilon(mech) + 1e-12
        assert dp_epsilon(mech) <= bdp(mech, full) + 1e-12


# --------------------------------------------------------------------------------------------------
# Semantic privacy: the closed form, the exact forward and converse levels, Theorems 1 and 2
# --------------------------------------------------------------------------------------------------


def test_sup_over_beliefs_is_tanh_of_a_quarter_of_the_spread():
    """The chapter's lemma: sup_b SD = tanh(Δ/4), Δ the spread of ln(a/c); checked by search over beliefs."""
    rng = np.random.default_rng(2)
    for _ in range(12):
        k = int(rng.integers(2, 5))
        a, c = rng.uniform(0.05, 1, size=k), rng.uniform(0.05, 1, size=k)
        spread = float(np.ptp(np.log(a / c)))
        found = sup_sd_search(a, c, rng)
        assert found <= math.tanh(spread / 4) + 1e-9
        assert found == pytest.approx(math.tanh(spread / 4), abs=2e-4)


@pytest.mark.parametrize("eps", [0.05, 0.3, 1.0])
def test_xor_attains_tanh_half_and_rr_attains_tanh_quarter(eps):
    """ε-DP ⇒ tanh(ε/2)-SP is attained by XOR randomized response; tanh(ε/4)-SP ⇒ ε-DP by randomized
    response on one record — both need ⊥ to be one of the record's values."""
    xor = xor_rr(eps)
    assert dp_epsilon(xor) == pytest.approx(eps)
    sp = semantic_level(xor, {x: 0.25 for x in dbs(2)})
    assert sp == pytest.approx(math.tanh(eps / 2), abs=2e-4) and sp <= math.tanh(eps / 2) + 1e-9
    one = rr_one(eps)
    sp1 = semantic_level(one, {(0,): 0.5, (1,): 0.5})
    assert sp1 == pytest.approx(math.tanh(eps / 4), abs=2e-4)


def test_printed_bounds_against_the_exact_ones():
    grid = np.linspace(1e-4, 3, 3000)
    forward = np.tanh(grid / 2) / np.expm1(2 * grid)
    assert np.all(np.diff(forward) < 0) and forward[0] == pytest.approx(0.25, abs=1e-4)
    assert math.expm1(2 * math.log(2) / 2) == pytest.approx(1.0)  # vacuous from ε = ln 2 / 2 on
    # the printed converse says something only while the level tanh(ε/4) is below 1/2: ε < 4 artanh(1/2)
    live = grid[grid < 4 * math.atanh(0.5)]
    converse = live / (2 * np.arctanh(2 * np.tanh(live / 4)))
    assert np.all(converse < 1) and converse[0] == pytest.approx(1.0, abs=1e-8)
    # Zhao's level (1/2 − 1/(e^ε+1)) is tanh(ε/2)/2, below the exact tanh(ε/4) for every ε > 0
    assert np.allclose(0.5 - 1 / (np.exp(grid) + 1), np.tanh(grid / 2) / 2)
    assert np.all(np.tanh(grid / 2) / 2 < np.tanh(grid / 4))


def test_theorems_1_and_2_hold_on_random_small_mechanisms():
    rng = np.random.default_rng(3)
    for _ in range(4):
        mech = {x: rng.dirichlet(np.ones(2)) ** 0.05 for x in dbs(2)}
        mech = {x: v / v.sum() for x, v in mech.items()}  # ε of a few tenths: where e^{2ε} − 1 < 1
        prior = dict(zip(dbs(2), rng.dirichlet(np.ones(4))))
        e, s = bdp(mech, prior), semantic_level(mech, prior)
        assert s <= math.tanh(e / 2) + 1e-6 <= math.expm1(2 * e)
        assert e <= 4 * math.atanh(s) + 1e-3 and e <= 2 * math.atanh(2 * s) + 1e-3


def test_converse_of_theorem_1_fails_under_the_replace_reading():
    """Copies, ε-local RR on two records: BDP 2ε; 'replace' BSP is tanh(ε/4), below Zhao's level at 2ε, so
    the converse would promise BDP ≤ 2 artanh(2 tanh(ε/4)) < 2ε.  The chapter's reading gives tanh(ε/2)."""
    eps = 1.0
    m, pr = local_rr(2, eps), copies(2)
    assert bdp(m, pr) == pytest.approx(2 * eps)
    rep = semantic_level(m, pr, reading="replace")
    assert rep == pytest.approx(math.tanh(eps / 4), abs=2e-4)
    assert rep < math.tanh(2 * eps / 2) / 2
    assert 2 * math.atanh(2 * rep) < 2 * eps
    assert semantic_level(m, pr) == pytest.approx(math.tanh(2 * eps / 4), abs=2e-4)


def test_bsp_implies_sp_needs_a_prior_of_full_support():
    """Sec. II (ii) with a correlation prior: XOR RR under copied records is 0-BDP and 0-BSP, yet its SP is
    tanh(ε/2) — so 'BSP ⇒ SP' needs a prior of full support (the chapter's condition)."""
    eps = 1.0
    m = xor_rr(eps)
    assert bdp(m, copies(2)) == 0.0
    assert semantic_level(m, copies(2)) == pytest.approx(0.0, abs=1e-12)
    assert semantic_level(m, {x: 0.25 for x in dbs(2)}) == pytest.approx(math.tanh(eps / 2), abs=2e-4)


def test_improvement_over_ks():
    level = lambda e: 0.5 - 1 / (math.exp(e) + 1)  # noqa: E731
    grid = np.linspace(1e-6, 1.35, 5000)
    assert all(level(e) > e / 6 for e in grid)
    crossing = brentq(lambda e: level(e) - e / 6, 1, 6)
    assert crossing == pytest.approx(2.5757, abs=5e-4)
    assert level(1e-6) / 1e-6 == pytest.approx(0.25, rel=1e-4)  # slope 1/4 against 1/6: 50% larger
    # K&S Theorem 2.2 (ε/2-SP ⇒ 3ε-DP, ε ≤ 0.45) in Zhao's parametrisation: ε′/6-SP ⇒ ε′-DP for ε′ ≤ 1.35
    assert 3 * 0.45 == pytest.approx(1.35) and (3 * 0.45) / 6 == pytest.approx(0.45 / 2)


# --------------------------------------------------------------------------------------------------
# Membership privacy: Definition 3 over every event, Lemma 1, Theorems 3 and 4, the exercises
# --------------------------------------------------------------------------------------------------


def mp_direct(p_in, p_out, b):
    """Smallest ε meeting (21) and (22) for the two-point distribution P[x_i] = b, every event enumerated."""
    k = len(p_in)
    worst = 0.0
    for r in range(1, k + 1):
        for E in itertools.combinations(range(k), r):
            a_in, a_out = p_in[list(E)].sum(), p_out[list(E)].sum()
            total = b * a_in + (1 - b) * a_out
            if total <= 0:
                continue
            if a_in > 0:
                worst = max(worst, math.log(a_in / total))  # (21): P[x_i|E]/b
            worst = max(worst, math.log(total / a_out) if a_out > 0 else math.inf)  # (22)
    return worst


def g(b, eps):
    e = math.exp(eps)
    return (1 - b) / (1 / e - b) if b <= 1 / (1 + e) else (e - 1 + b) / b


def test_lemma_1_agrees_with_definition_3():
    rng = np.random.default_rng(4)
    for _ in range(40):
        k = int(rng.integers(2, 5))
        p_in, p_out = rng.dirichlet(np.ones(k), size=2)
        A = float(np.max(p_in / p_out))
        for b in (0.01, 0.3, 0.5, 0.9):
            direct = mp_direct(p_in, p_out, b)
            # Lemma 1: MP at ε iff A ≤ g_ε(b); g_ε(b) increases in ε, so the smallest such ε is a root
            lemma = 0.0 if A <= 1 else brentq(lambda e: g(b, e) - A, 1e-12, math.log(A) + 1)
            assert direct == pytest.approx(lemma, abs=1e-8)


def test_g_peak_and_minimum():
    for eps in (0.2, 1.0, 3.0):
        e = math.exp(eps)
        assert g(1 / (1 + e), eps) == pytest.approx(e * e)
        assert g(0.0, eps) == pytest.approx(e) and g(1.0, eps) == pytest.approx(e)


def membership_from_mechanism(mech, prior, b):
    n = len(next(iter(mech)))
    worst = 0.0
    for i, K in adversaries(n):
        for cell in views(mech, prior, i, K).values():
            for (_, l1), (_, l2) in itertools.permutations(cell.values(), 2):
                worst = max(worst, mp_direct(l1, l2, b))
    return worst


def test_theorem_3_and_4_from_mechanisms():
    m, pr = local_rr(2, 1.0), markov(2, 0.9)
    leak = bdp(m, pr)
    mp = [membership_from_mechanism(m, pr, b) for b in (1e-10, 0.01, 0.3, 0.5, 0.9, 1 - 1e-10)]
    assert all(x <= leak + 1e-9 for x in mp)  # Theorem 3
    assert mp[0] == pytest.approx(leak, abs=1e-8)  # Theorem 4: the scaled-down member reaches the leakage
    assert mp[-1] == pytest.approx(leak, abs=1e-8)  # ... and so does P[x_i] → 1, through (22)


def test_theorem_4_copies_example_and_the_non_scalable_family():
    """Copies, ε-local RR on two records: α = e^{2ε}; the threshold of eq. (39) is q* = 1/(1+e^ε) (for this
    α); the best P[x_i] is 1/(1+√α) with MP ε = ln(α)/2; the family {P[x_i] = 1/2} gives ln((1+α)/2) < ln α."""
    eps = 1.0
    m, pr = local_rr(2, eps), copies(2)
    alpha = math.exp(bdp(m, pr))
    assert alpha == pytest.approx(math.exp(2 * eps))
    q_star = (alpha - math.exp(eps)) / (math.exp(eps) * (alpha - 1))
    assert q_star == pytest.approx(1 / (1 + math.exp(eps)))
    p_in, p_out = views(m, pr, 0, ())[()][1][1], views(m, pr, 0, ())[()][0][1]
    for q, exceeds in ((0.99 * q_star, True), (1.01 * q_star, False)):
        up = max(math.log(p_in[list(E)].sum() / (q * p_in[list(E)].sum() + (1 - q) * p_out[list(E)].sum()))
                 for r in range(1, 5) for E in itertools.combinations(range(4), r))
        assert (up > eps) == exceeds
        assert math.exp(up) == pytest.approx(alpha / (alpha * q + 1 - q))
    from scipy.optimize import minimize_scalar

    best = minimize_scalar(lambda q: membership_from_mechanism(m, pr, q), bounds=(1e-3, 1 - 1e-3), method="bounded",
                           options={"xatol": 1e-10})
    assert best.x == pytest.approx(1 / (1 + math.sqrt(alpha)), abs=1e-5)
    assert best.fun == pytest.approx(math.log(alpha) / 2, abs=1e-8)
    half = membership_from_mechanism(m, pr, 0.5)
    assert half == pytest.approx(math.log((1 + alpha) / 2)) and half < math.log(alpha)


@pytest.mark.parametrize("eps", [0.3, 1.0, 2.0])
def test_exercise_family_randomized_response(eps):
    one = rr_one(eps)
    assert (membership_from_mechanism(one, {(0,): 0.5, (1,): 0.5}, 0.5)
            == pytest.approx(math.log((1 + math.exp(eps)) / 2)))


def test_exercise_converse_numbers():
    d = 0.3
    assert 4 * math.atanh(d) < math.log((1 + 2 * d) / (1 - 2 * d))
    # Theorem 2's inversion is 2·artanh(2δ)
    assert math.log((1 + 2 * d) / (1 - 2 * d)) == pytest.approx(2 * math.atanh(2 * d))


def test_exercise_copies_leakage_n_eps():
    for n in (2, 3):
        assert bdp(local_rr(n, 0.7), copies(n)) == pytest.approx(0.7 * n)


def test_converse_of_theorem_1_fails_with_three_valued_records_under_the_books_reading():
    """Records in {0, 1, 2}, ⊥ = 0, n = 2, prior on x₁ ∈ {1, 2}: randomized response with ε = 2 between 1 and 2
    has BDP 2 but the book's BSP (points where ⊥ has prior mass 0 dropped) is 0 < 1/2 − 1/(e² + 1) = 0.381.
    Joined to the registry's zhao-thm1-converse-three-values."""
    eps = 2.0
    keep = math.exp(eps) / (1 + math.exp(eps))
    mech = {x: np.array([0.5, 0.5]) if x[0] == 0 else np.array([keep, 1 - keep] if x[0] == 1 else [1 - keep, keep])
            for x in itertools.product((0, 1, 2), repeat=2)}
    prior = {x: (1 / 6 if x[0] in (1, 2) else 0.0) for x in mech}
    assert bdp(mech, prior) == pytest.approx(eps)
    assert semantic_level(mech, prior) == 0.0 < 0.5 - 1 / (math.exp(eps) + 1)

    from dpsemantics import claims

    r = claims.evaluate(claims.get("zhao-thm1-converse-three-values"))
    assert r.status == "discrepancy" and r.finding == "different-reading" and "BDP 2.000" in r.claim.note


@pytest.mark.parametrize("claim_id", ["zhao-cor1-g-min", "zhao-cor1-g-monotone", "zhao-lemma1-g1-g2"])
def test_g_certificates_take_the_statement(claim_id):
    """Issue 35: the g-proofs prove the claim's own statement (eq. (26) as printed, with tighten) on every ε > 0: at
    t = 1 a proof on the whole domain, at t = 0.999 a refutation by an exact counterexample (the bounds are attained:
    g(0) = e^ε, g continuous at b → b′, g1 = g2 at the split)."""
    from dpsemantics import claims

    v = claims.get(claim_id).compute()
    assert v.holds and v.kind == "certified-interval" and v.scope == "whole domain", v.certificate
    w = claims.get(claim_id).compute(tighten=0.999)
    assert not w.holds and w.scope == "counterexample", w.certificate


def test_g_attained_values_independently():
    """Independent (no package), eq. (26) at e^ε = 2: g(0) = (1 − 0)/(1/2 − 0) = 2 = e^ε, and at the split x = 1/3
    g1 = (2/3)/(1/6) = 4 = g2 = (2 − 1 + 1/3)/(1/3): so e^ε ≤ 0.999·g(b) and g1 ≤ 0.999·g2 are false."""
    from fractions import Fraction

    g1 = lambda b, s: (1 - b) / (s - b)  # noqa: E731
    g2 = lambda b, s: (1 / s - 1 + b) / b  # noqa: E731
    s = Fraction(1, 2)
    assert g1(Fraction(0), s) == 2 and g1(Fraction(1, 3), s) == g2(Fraction(1, 3), s) == 4
    assert g2(Fraction(1), s) == 2


def test_dp_implies_bdp_independent_whole_domain_and_refuted_when_tightened():
    """Issue 35: certified on every mechanism and every ε (averages of neighbour pairs); at 0.999 refuted exactly by
    randomized response (independent: P[y = 1 | x = 1]/P[y = 1 | x = 0] = (2/3)/(1/3) = 2 = e^ε at e^ε = 2)."""
    from fractions import Fraction

    from dpsemantics import claims

    assert Fraction(2, 3) / Fraction(1, 3) == 2
    v = claims.get("zhao-sec1-dp-implies-bdp-independent").compute()
    assert v.holds and v.scope == "whole domain"
    w = claims.get("zhao-sec1-dp-implies-bdp-independent").compute(tighten=0.999)
    assert not w.holds and w.scope == "counterexample"
