"""Zhao's measured parameters and closed forms are rounded to their safe side (issue 40).

Up (an ε or δ claimed for a mechanism): ``bdp_leakage``, ``bdp_leakage_by_adversary``, ``bayesian_semantic_privacy``
(both readings), ``semantic_privacy``, ``sup_statistical_difference``, ``membership_ratios_direct`` (both sides),
``membership_privacy_direct``, ``membership_privacy``, ``membership_privacy_of``.  Down: ``membership_g`` (the largest
likelihood ratio ε-MP allows, Lemma 1), ``theorem4_threshold`` (every q below it violates MP, Theorem 4's proof) and
``scaled_posterior_ratio`` (eq. (39), read as a violation of e^ε).

The references are written here and import nothing from the package's arithmetic: the conditional likelihoods of
Zhao's eq. (19) summed over the databases in ``fractions.Fraction`` on the exact float inputs, their logs and tanh in
mpmath at 80 digits; compared without tolerance.  The random searches count how often the plain round-to-nearest
evaluation is below the exact value and assert that it is, on some inputs."""

import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from _support.exact import at_least, mp_of, mpf
from dpsemantics import notions as N
from dpsemantics.mechanisms import FiniteMechanism, local_randomized_response

RNG_SEED = 40


@pytest.fixture(autouse=True)
def _digits():
    with mp.workdps(80):
        yield


def at_most(got, want) -> bool:
    return math.isinf(want) or mpf(got) <= want


# ------------------------------------------------------------------------------------------------ references


def likelihoods(mech, prior, i, S, bot=None):
    """{(x_S, x_i): [L(y | x_i, x_S) as Fractions]} for the values the prior allows (Zhao, eq. (19)); with ``bot``,
    the same with record i of every database replaced by ``bot`` before the mechanism runs (the "replace"
    reading's Game i), keyed alike."""
    rows = {db: [Fraction(float(v)) for v in row] for db, row in zip(mech.databases, mech.matrix)}
    pri = {db: Fraction(float(prior.get(db, 0.0))) for db in mech.databases}
    acc = {}
    for db in mech.databases:
        if pri[db] == 0:
            continue
        key = (tuple(db[j] for j in S), db[i])
        run = db if bot is None else tuple(bot if j == i else v for j, v in enumerate(db))
        num, mass = acc.get(key, ([Fraction(0)] * len(mech.outputs), Fraction(0)))
        acc[key] = ([a + pri[db] * b for a, b in zip(num, rows[run])], mass + pri[db])
    return {k: [a / m for a in num] for k, (num, m) in acc.items()}


def all_adversaries(n):
    for i in range(n):
        others = [j for j in range(n) if j != i]
        for k in range(n):
            yield from ((i, S) for S in itertools.combinations(others, k))


def ref_spread(values):
    """ln max − ln min of exact likelihoods (+∞ if some are 0 and others not, 0 if all are 0)."""
    hi, lo = max(values), min(values)
    if hi == 0:
        return mp.mpf(0)
    return mp.inf if lo == 0 else mp.log(mp_of(hi / lo))


def ref_bdp_by(mech, prior, i, S):
    lik = likelihoods(mech, prior, i, S)
    worst = mp.mpf(0)
    for xs in {k[0] for k in lik}:
        rows = [v for k, v in lik.items() if k[0] == xs]
        if len(rows) < 2:
            continue
        for y in range(len(mech.outputs)):
            worst = max(worst, ref_spread([r[y] for r in rows]))
    return worst


def ref_bdp(mech, prior):
    return max(ref_bdp_by(mech, prior, i, S) for i, S in all_adversaries(len(mech.databases[0])))


def ref_sup_sd(a, c):
    """tanh(Δ/4) over the points with c > 0 (exact Fractions a, c): 1 if a > 0 = c somewhere, 0 if no a, c > 0."""
    if any(x > 0 and y == 0 for x, y in zip(a, c)):
        return mp.mpf(1)
    if not any(x > 0 and y > 0 for x, y in zip(a, c)):
        return mp.mpf(0)
    ratios = [x / y for x, y in zip(a, c) if y > 0]
    return mp.tanh(ref_spread(ratios) / 4) if ref_spread(ratios) != mp.inf else mp.mpf(1)


def ref_bsp(mech, prior, bot, reading="condition", adversaries=None):
    n = len(mech.databases[0])
    best = mp.mpf(0)
    for i, S in adversaries or all_adversaries(n):
        lik = likelihoods(mech, prior, i, S)
        if reading == "condition":
            keys = [k for k in lik if (k[0], bot) in lik]
            game_i = {k: lik[(k[0], bot)] for k in keys}
        else:
            keys = list(lik)
            game_i = likelihoods(mech, prior, i, S, bot)
        for y in range(len(mech.outputs)):
            if keys:
                best = max(best, ref_sup_sd([lik[k][y] for k in keys], [game_i[k][y] for k in keys]))
    return best


def ref_mp_sides(p_in, p_out, b):
    """max ln(P[Y|x_i]/P_D[Y]) and max ln(P_D[Y]/P[Y|x̄_i]) over the events, exactly."""
    b = Fraction(float(b))
    p_in = [v if isinstance(v, Fraction) else Fraction(float(v)) for v in p_in]  # exact rows, or the floats' values
    p_out = [v if isinstance(v, Fraction) else Fraction(float(v)) for v in p_out]
    up = down = -mp.inf
    k = len(p_in)
    for mask in range(1, 2**k):
        a_in = sum((p_in[j] for j in range(k) if mask >> j & 1), Fraction(0))
        a_out = sum((p_out[j] for j in range(k) if mask >> j & 1), Fraction(0))
        total = b * a_in + (1 - b) * a_out
        if total == 0:
            continue
        if a_in > 0:
            up = max(up, mp.log(mp_of(a_in / total)))
        down = max(down, mp.log(mp_of(total / a_out)) if a_out > 0 else mp.inf)
    return up, down


def g_exact(b, eps):
    """Zhao, eq. (26)."""
    b, e = mpf(b), mp.exp(mpf(eps))
    if b <= 1 / (1 + e):
        return (1 - b) / (1 / e - b)
    return (e - 1 + b) / b


def lemma1_exact(ratio, b):
    """The smallest ε with ratio ≤ g_ε(b), by bisection at 80 digits (g increases in ε)."""
    if ratio <= 1:
        return mp.mpf(0)
    lo, hi = mp.mpf(0), mp.log(ratio)
    for _ in range(230):
        mid = (lo + hi) / 2
        b_, e = mpf(b), mp.exp(mid)
        g = (1 - b_) / (1 / e - b_) if b_ <= 1 / (1 + e) else (e - 1 + b_) / b_
        lo, hi = (lo, mid) if g >= ratio else (mid, hi)
    return lo


# ------------------------------------------------------------------------------------------------ the cases


def random_mechanism(rng, n, d=2, k=2):
    dbs = list(itertools.product(range(d), repeat=n))
    rows = rng.dirichlet(np.ones(k) * 0.7, size=len(dbs))
    return FiniteMechanism(rows, dbs, list(range(k)))


def random_prior(rng, mech):
    w = rng.dirichlet(np.ones(len(mech.databases)))
    if rng.uniform() < 0.3:
        w[int(rng.integers(0, w.size))] = 0.0
        w /= w.sum()
    return dict(zip(mech.databases, (float(x) for x in w)))


def chapter_cases():
    """The chapter's mechanisms and priors (privacy-notions): local randomized response with the independent,
    Markov and copies priors, the XOR mechanism, the three-valued mechanism of the BSP aside."""
    lrr = local_randomized_response(2, 1.0)
    out = [(lrr, N.independent_prior(2)), (lrr, N.markov_chain_prior(2, 0.9)), (lrr, N.copies_prior(2)),
           (local_randomized_response(2, 0.8), N.markov_chain_prior(2, 0.75)),
           (N.xor_randomized_response(1.0), N.copies_prior(2)),
           (N.xor_randomized_response(1.0), N.independent_prior(2))]
    keep = 1 / (1 + math.exp(-2.0))
    by_value = {0: [0.5, 0.5], 1: [keep, 1 - keep], 2: [1 - keep, keep]}
    dbs3 = [(a, b) for a in (0, 1, 2) for b in (0, 1, 2)]
    three = FiniteMechanism(np.array([by_value[a] for a, _ in dbs3]), dbs3, [1, 2])
    out.append((three, {d: (1 / 6 if d[0] in (1, 2) else 0.0) for d in dbs3}))
    return out


def as_dict(mech, prior):
    return prior if isinstance(prior, dict) else dict(zip(mech.databases, prior))


# ------------------------------------------------------------------------------------------------ BDP


def nearest_bdp(mech, prior):
    """The BDP leakage in floats, to nearest, as before issue 40: sums of π·P over the unknown records, divided by
    the mass, ln max − ln min."""
    n = len(mech.databases[0])
    worst = 0.0
    for i, S in all_adversaries(n):
        acc = {}
        for db, row in zip(mech.databases, mech.matrix):
            p = prior.get(db, 0.0)
            if p == 0:
                continue
            key = (tuple(db[j] for j in S), db[i])
            num, mass = acc.get(key, (np.zeros(len(mech.outputs)), 0.0))
            acc[key] = (num + p * row, mass + p)
        for xs in {k[0] for k in acc}:
            rows = [num / m for k, (num, m) in acc.items() if k[0] == xs]
            if len(rows) > 1:
                arr = np.array(rows)
                with np.errstate(divide="ignore"):
                    worst = max(worst, float(np.max(np.log(arr.max(axis=0)) - np.log(arr.min(axis=0)))))
    return worst


def test_bdp_leakage_is_never_below_exact():
    rng = np.random.default_rng(RNG_SEED)
    nearest_low = 0
    cases = [*chapter_cases(), *((m, random_prior(rng, m)) for m in (random_mechanism(rng, int(rng.integers(2, 4)))
                                                                      for _ in range(80)))]
    for mech, prior in cases:
        prior = as_dict(mech, prior)
        want = ref_bdp(mech, prior)
        got = N.bdp_leakage(mech, prior)
        assert at_least(got, want), (mech.matrix, prior)
        assert want == mp.inf or mpf(got) <= want * (1 + mp.mpf(1e-13)) + mp.mpf(1e-14)  # invisible digits
        nearest_low += mpf(nearest_bdp(mech, prior)) < want
        by = N.bdp_leakage_by_adversary(mech, prior)
        for (i, S), value in by.items():
            assert at_least(value, ref_bdp_by(mech, prior, i, S)), (i, S)
            assert N.bdp_leakage(mech, prior, i=i, S=S) == value
    assert nearest_low > 10, nearest_low


def test_bdp_leakage_keeps_exact_zeros():
    """A mechanism that ignores the records leaks exactly 0 under every prior (no outward step where the exact
    answer is 0), and membership privacy is then 0 too."""
    dbs = list(itertools.product((0, 1), repeat=2))
    blind = FiniteMechanism(np.tile([0.3, 0.7], (4, 1)), dbs, [0, 1])
    for prior in (N.independent_prior(2, 0.3), N.markov_chain_prior(2, 0.8)):
        assert N.bdp_leakage(blind, prior) == 0.0
        assert N.bayesian_semantic_privacy(blind, prior, 0) == 0.0
        assert N.membership_privacy(blind, prior, 0.5) == 0.0
        assert float(N.membership_privacy_of(blind, prior, 0.5)) == 0.0
    assert N.semantic_privacy(blind, 0) == 0.0


# ------------------------------------------------------------------------------------------------ BSP, SP, sup SD


def test_bayesian_semantic_privacy_is_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 1)
    cases = [*chapter_cases(), *((m, random_prior(rng, m)) for m in (random_mechanism(rng, 2) for _ in range(40)))]
    for mech, prior in cases:
        prior = as_dict(mech, prior)
        for reading in ("condition", "replace"):
            want = ref_bsp(mech, prior, 0, reading)
            got = N.bayesian_semantic_privacy(mech, prior, 0, reading=reading)
            assert at_least(got, want), (reading, mech.matrix, prior)
            assert mpf(got) <= want * (1 + mp.mpf(1e-13)) + mp.mpf(1e-14), reading


def test_semantic_privacy_is_never_below_exact():
    """K&S's parameter: BSP with S = N∖{i} under the uniform prior, the exact reference from the conditionals."""
    rng = np.random.default_rng(RNG_SEED + 2)
    mechs = [N.xor_randomized_response(e) for e in (0.3, 1.0, 2.5)] + [local_randomized_response(2, 0.7)]
    mechs += [random_mechanism(rng, 2, k=3) for _ in range(30)]
    for mech in mechs:
        prior = dict(zip(mech.databases, [1 / len(mech.databases)] * len(mech.databases)))
        n = len(mech.databases[0])
        adv = [(i, tuple(j for j in range(n) if j != i)) for i in range(n)]
        want = ref_bsp(mech, prior, 0, adversaries=adv)
        assert at_least(N.semantic_privacy(mech, 0), want), mech.matrix


def test_sup_statistical_difference_is_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 3)
    nearest_low = 0
    for _ in range(1500):
        m = int(rng.integers(2, 6))
        c = rng.dirichlet(np.ones(m))
        a = c * np.exp(rng.normal(0, 10.0 ** rng.uniform(-15, 0), m))  # ratios near one another: Δ small
        if rng.uniform() < 0.1:
            a[0] = 0.0
        want = ref_sup_sd([Fraction(float(x)) for x in a], [Fraction(float(x)) for x in c])
        got = N.sup_statistical_difference(a, c)
        assert at_least(got, want), (a, c)
        with np.errstate(divide="ignore"):
            r = a / c
            nearest = float(np.tanh((np.log(r.max()) - np.log(r.min())) / 4))
        nearest_low += mpf(nearest) < want or (want > 0 and nearest == 0)
    assert nearest_low > 100, nearest_low
    # equal ratios exactly: 0; ratios equal in floats but not exactly: positive
    assert N.sup_statistical_difference([0.2, 0.4], [0.1, 0.2]) == 0.0
    a, c = np.array([0.1, 0.3]), np.array([0.3, 0.9])
    want = ref_sup_sd([Fraction(0.1), Fraction(0.3)], [Fraction(0.3), Fraction(0.9)])
    assert want > 0 and at_least(N.sup_statistical_difference(a, c), want)
    assert N.sup_statistical_difference([0.5, 0.5], [1.0, 0.0]) == 1.0
    assert N.sup_statistical_difference([0.0, 0.0], [0.5, 0.5]) == 0.0


# ------------------------------------------------------------------------------------------------ membership privacy


def test_membership_ratios_and_privacy_direct_are_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 4)
    nearest_low = 0
    for _ in range(300):
        k = int(rng.integers(2, 5))
        p_in, p_out = rng.dirichlet(np.ones(k)), rng.dirichlet(np.ones(k))
        if rng.uniform() < 0.2:
            p_out[0], p_out[1] = 0.0, p_out[0] + p_out[1]
        b = float(10.0 ** rng.uniform(-300, -1e-9)) if rng.uniform() < 0.3 else float(rng.uniform(0.01, 0.99))
        up_w, down_w = ref_mp_sides(p_in, p_out, b)
        up, down = N.membership_ratios_direct(p_in, p_out, b)
        assert at_least(up, up_w) and at_least(down, down_w), (p_in, p_out, b)
        assert at_least(N.membership_privacy_direct(p_in, p_out, b), max(up_w, down_w, mp.mpf(0)))
        # the definition's posteriors in floats, to nearest (the code before issue 40)
        nearest = -math.inf
        for mask in range(1, 2**k):
            idx = [j for j in range(k) if mask >> j & 1]
            a_in, a_out = float(p_in[idx].sum()), float(p_out[idx].sum())
            total = b * a_in + (1 - b) * a_out
            if total > 0 and a_in > 0:
                nearest = max(nearest, math.log(b * a_in / total / b))
        nearest_low += mpf(nearest) < up_w
    assert nearest_low > 20, nearest_low
    p = np.array([0.25, 0.75])
    assert N.membership_ratios_direct(p, p, 0.3) == (0.0, 0.0)


def test_membership_privacy_of_is_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 5)
    bs = np.array([1e-300, 1e-6, 0.1, 0.5, 0.9])
    cases = [*chapter_cases()[:5], *((m, random_prior(rng, m)) for m in (random_mechanism(rng, 2) for _ in range(15)))]
    for mech, prior in cases:
        prior = as_dict(mech, prior)
        got = N.membership_privacy_of(mech, prior, bs)
        for b, g in zip(bs, got):
            want = mp.mpf(0)
            for i, S in all_adversaries(len(mech.databases[0])):
                lik = likelihoods(mech, prior, i, S)
                for (xs, a), l_in in lik.items():
                    for (xs2, c), l_out in lik.items():
                        if xs2 == xs and a != c:
                            want = max(want, *ref_mp_sides(l_in, l_out, b))
            assert at_least(float(g), want), (b, prior)


def test_membership_privacy_is_never_below_exact():
    rng = np.random.default_rng(RNG_SEED + 6)
    cases = [*chapter_cases()[:5], *((m, random_prior(rng, m)) for m in (random_mechanism(rng, 2) for _ in range(15)))]
    for mech, prior in cases:
        prior = as_dict(mech, prior)
        leak = ref_bdp(mech, prior)
        if leak == mp.inf or leak > 600:
            continue
        for b in (1e-9, 0.2, 0.5):
            assert at_least(N.membership_privacy(mech, prior, b), lemma1_exact(mp.exp(leak), b)), (b, prior)


# ------------------------------------------------------------------------------------------------ closed forms


def test_membership_g_is_never_above_exact():
    rng = np.random.default_rng(RNG_SEED + 7)
    eps = np.concatenate([10.0 ** rng.uniform(-12, 2.5, 600), [0.5, 1.0, 4.0, 40.0, 700.0]])
    b = np.concatenate([10.0 ** rng.uniform(-300, 0, 300), rng.uniform(0, 1, 300), [0.0, 1.0, 0.5, 0.1, 1e-300]])
    nearest_high = 0
    for e in eps[::3]:
        split = float(1 / (1 + mp.exp(mpf(e))))
        points = np.concatenate([b[:40], [split, math.nextafter(split, 0), math.nextafter(split, 1)]])
        got = N.membership_g(points, e)
        for x, g in zip(points, got):
            want = g_exact(x, e)
            assert at_most(float(g), want), (x, e)
            # close, except within 1e-9 of the peak, where g is ill-conditioned (relative condition number e^ε)
            assert mpf(g) >= want * (1 - mp.mpf(1e-9)) or abs(x - split) <= 1e-9 * split, (x, e)
    for x, e in zip(b.tolist(), eps[: b.size].tolist()):
        if e > 700 or x == 0:
            continue
        want = g_exact(x, e)
        nearest = (1 - x) * math.exp(e) / (1 - x * math.exp(e)) if x <= 1 / (1 + math.exp(e)) else \
            1 + math.expm1(e) / x
        nearest_high += mpf(nearest) > want
    assert nearest_high > 50, nearest_high
    assert N.membership_g(0.3, 0.0) == 1.0


def test_theorem4_threshold_is_never_above_exact():
    rng = np.random.default_rng(RNG_SEED + 8)
    nearest_high = checked = 0
    for _ in range(2000):
        e = float(10.0 ** rng.uniform(-6, 2.5))
        alpha = float(math.exp(e) * (1 + 10.0 ** rng.uniform(-12, 3)))
        if not math.log(alpha) > e:
            continue
        checked += 1
        a, x = mpf(alpha), mp.exp(-mpf(e))
        want = (a * x - 1) / (a - 1)
        got = N.theorem4_threshold(alpha, e)
        assert 0 <= got and at_most(got, want), (alpha, e)
        slack = mp.mpf(1e-14) * (1 + mp.log(a)) * a * x / (a - 1)  # the numerator's error, over α − 1
        assert got == 0 or mpf(got) >= want * (1 - mp.mpf(1e-14)) - slack, (alpha, e)
        nearest_high += mpf((alpha * math.exp(-e) - 1) / (alpha - 1)) > want
    assert checked > 1000 and nearest_high > 50, (checked, nearest_high)
    assert at_most(N.theorem4_threshold(math.inf, 1.0), mp.exp(-1))


def test_scaled_posterior_ratio_is_never_above_exact():
    rng = np.random.default_rng(RNG_SEED + 9)
    alpha = 10.0 ** rng.uniform(0, 12, 3000)
    q = np.concatenate([10.0 ** rng.uniform(-300, 0, 1500), rng.uniform(0, 1, 1500)])
    got = N.scaled_posterior_ratio(alpha, q)
    nearest = alpha / (alpha * q + 1 - q)
    nearest_high = 0
    for a, x, g, n in zip(alpha, q, got, nearest):
        want = Fraction(float(a)) / (Fraction(float(a)) * Fraction(float(x)) + 1 - Fraction(float(x)))
        assert Fraction(float(g)) <= want, (a, x)
        nearest_high += Fraction(float(n)) > want
    assert nearest_high > 100, nearest_high
