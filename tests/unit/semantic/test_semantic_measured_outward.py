"""Outward rounding of the measured numbers of Kasiviswanathan & Smith's chapter and of a finite mechanism (issue 40).

Each function is compared, without tolerance, with a reference computed apart from the package — exact
``fractions.Fraction`` arithmetic on the float inputs, or mpmath at 80 digits — on the chapter's own mechanisms and
on seeded random searches that ASSERT they reach inputs where the float computation rounded to nearest (or the old
code, with its 1e-12 tolerance) lands on the unsafe side, so that no check passes by missing them.

Directions (the callers decide them):

* up — ``semantic.semantic_epsilon``, ``semantic.informed_semantic_epsilon``, ``semantic.log_ratio_spread``,
  ``semantic.tilt_statistical_difference``, ``semantic.statistical_difference`` (the SD a semantic ε bounds),
  ``semantic.semantic_delta``, ``semantic.reality_oblivious_delta``, ``semantic.pointwise_delta``,
  ``semantic.conditioning_bad_mass`` (the mass Lemma 3.4 bounds), ``semantic.most_powerful_power`` (an adversary's
  power, compared with the bound e^ε α + δ), ``semantic.local_sensitivity`` (Corollary 4.4's δ₁ = b(LS > s) grows
  with it), ``mechanisms.FiniteMechanism.delta``, ``mechanisms.FiniteMechanism.epsilon``,
  ``disclosure.pair_hockey``;
* down — ``semantic.dwork_mcsherry_sd`` and ``semantic.dwork_mcsherry_delta``: the witnesses of Theorem A.2's
  counterexample (how far, and how often, reality-oblivious privacy fails), never overstated.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from scipy.special import expit, ndtr

from dpsemantics import disclosure, mechanisms, semantic
from dpsemantics.mechanisms import FiniteMechanism

RNG_SEED = 40
mpf = mp.mpf


@pytest.fixture(autouse=True)
def _digits():
    with mp.workdps(80):
        yield


def F(x) -> Fraction:
    return Fraction(float(x))


def M(fr: Fraction):
    return mpf(fr.numerator) / fr.denominator


def at_least(got, want) -> bool:
    return F(got) >= want if isinstance(want, Fraction) else mpf(float(got)) >= want


def at_most(got, want) -> bool:
    return F(got) <= want if isinstance(want, Fraction) else mpf(float(got)) <= want


def positive_if(got, want) -> bool:
    return not want > 0 or got > 0


# ------------------------------------------------------------------------------------------------ references


def ref_exceeds(a: float, b: float, eps: float) -> bool:
    """a > e^ε b exactly (mpmath at 80 digits; a float log ratio is never the float ε unless a = b)."""
    if b == 0:
        return a > 0
    if a == 0:
        return False
    if eps == 0:
        return a > b
    return mp.log(mpf(a)) - mp.log(mpf(b)) > mpf(eps)


def ref_hockey(p, q, eps):
    """Σ (p − e^ε q)₊ at 80 digits."""
    g = mp.exp(mpf(float(eps)))
    return mp.fsum(max(mpf(float(a)) - g * mpf(float(b)), 0) for a, b in zip(p, q))


def ref_sd(like0, likei, b):
    """SD(b̄₀, b̄ᵢ) in rationals (1 where b̄ᵢ is undefined, None where Game 0 cannot produce the transcript)."""
    w0 = [F(a) * F(c) for a, c in zip(like0, b)]
    wi = [F(a) * F(c) for a, c in zip(likei, b)]
    z0, zi = sum(w0), sum(wi)
    if z0 == 0:
        return None
    if zi == 0:
        return Fraction(1)
    return sum(abs(x / z0 - y / zi) for x, y in zip(w0, wi)) / 2


def minus_rows(mech, default=0):
    n = len(mech.databases[0])
    index = {d: k for k, d in enumerate(mech.databases)}
    return [[index[d[:i] + (default,) + d[i + 1:]] for d in mech.databases] for i in range(n)]


def ref_cells(mech, b):
    """Exact SD of every (i, t) cell, and the exact Game-0 probability of every transcript."""
    L = mech.matrix
    minus = minus_rows(mech)
    sds = [[ref_sd(L[:, t], L[minus[i], t], b) for t in range(L.shape[1])] for i in range(len(minus))]
    prob = [sum(F(L[x, t]) * F(b[x]) for x in range(L.shape[0])) for t in range(L.shape[1])]
    return sds, prob


def ref_tilt(R: Fraction | None):
    """(√R − 1)/(√R + 1) = tanh(ln R / 4) at 80 digits; R = None is ∞."""
    if R is None:
        return mpf(1)
    s = mp.sqrt(M(R))
    return (s - 1) / (s + 1)


def ref_semantic_epsilon(mech):
    """sup SD over beliefs, transcripts, indices by the chapter's reduction in exact rationals (positive matrices)."""
    L = mech.matrix
    best = mpf(0)
    for rows in minus_rows(mech):
        for t in range(L.shape[1]):
            r = [F(L[x, t]) / F(L[rows[x], t]) for x in range(L.shape[0])]
            best = max(best, ref_tilt(max(r) / min(r)))
    return best


def random_mechanism(rng, n=2, outputs=3, spread=1.0):
    dbs = list(itertools.product((0, 1), repeat=n))
    rows = rng.dirichlet(np.full(outputs, spread), size=len(dbs))
    rows = np.maximum(rows, 1e-300)
    rows /= rows.sum(axis=1, keepdims=True)
    return FiniteMechanism(rows, dbs, list(range(outputs)))


def chapter_mechanisms():
    return [mechanisms.geometric_count(2, 0.5), mechanisms.geometric_count(2, 2.0), mechanisms.geometric_count(3, 0.1),
            mechanisms.one_record_randomized_response(1.0), mechanisms.one_record_randomized_response(0.7),
            mechanisms.local_randomized_response(2, 0.3), semantic.median_mechanism(3, 2, 0.1, 1)]


# ------------------------------------------------------------------------------------------------ log ratios and tilts


def test_log_ratio_spread_and_tilt_statistical_difference_are_never_below():
    rng = np.random.default_rng(RNG_SEED)
    n = 3000
    lo = np.concatenate([rng.uniform(1e-3, 1, n // 3), 10.0 ** rng.uniform(-320, 0, n // 3),
                         rng.uniform(0.1, 1, n - 2 * (n // 3))])
    factor = np.concatenate([1 + rng.integers(1, 40, n // 3) * 2.0**-52, 10.0 ** rng.uniform(0, 300, n // 3),
                             rng.uniform(1, 3, n - 2 * (n // 3))])
    hi = np.minimum(lo * factor, 1.0)
    want = [mp.log(mpf(float(a))) - mp.log(mpf(float(b))) for a, b in zip(hi, lo)]
    got = semantic.log_ratio_spread(np.stack([hi, lo]), axis=0)
    assert all(at_least(g, w) and positive_if(g, w) for g, w in zip(got, want))
    plain = np.log(hi) - np.log(lo)
    assert sum(mpf(float(v)) < w for v, w in zip(plain, want)) > n // 10
    # hostile extremes: a subnormal and the largest ratio; equal likelihoods are exactly 0; a zero one is ∞
    assert at_least(semantic.log_ratio_spread([1.0, 5e-324]), -mp.log(mpf(5e-324)))
    assert at_least(semantic.log_ratio_spread([1e-310, 3e-320]), mp.log(mpf(1e-310) / mpf(3e-320)))
    assert semantic.log_ratio_spread([0.3, 0.3]) == 0.0 and semantic.log_ratio_spread([0.3, 0.0]) == math.inf

    spread = np.concatenate([plain[plain > 0], 10.0 ** rng.uniform(-320, 3, 1000), [5e-324, 1e-322, math.inf]])
    got = semantic.tilt_statistical_difference(spread)
    want = [mp.tanh(mpf(float(s)) / 4) if math.isfinite(s) else mpf(1) for s in spread]
    assert all(at_least(g, w) and positive_if(g, w) and g <= 1 for g, w in zip(got, want))
    assert sum(mpf(float(v)) < w for v, w in zip(np.tanh(spread / 4), want)) > len(spread) // 10


# ------------------------------------------------------------------------------------------------ semantic ε


def test_semantic_epsilon_and_informed_semantic_epsilon_are_never_below():
    rng = np.random.default_rng(RNG_SEED)
    mechs = chapter_mechanisms()[:-1] + [random_mechanism(rng, outputs=int(rng.integers(2, 5)),
                                                          spread=float(rng.choice([0.3, 5.0, 300.0])))
                                         for _ in range(60)]
    low = 0
    for m in mechs:
        want = ref_semantic_epsilon(m)
        for method in ("exact", "exhaustive"):
            assert at_least(semantic.semantic_epsilon(m, method=method).epsilon, want)
        # the old computation: the tilts' max/min ratio in floats, tanh(ln R / 4) to nearest
        L = m.matrix
        old = max(np.tanh(np.log(np.max(L[:, t] / L[rows, t]) / np.min(L[:, t] / L[rows, t])) / 4)
                  for rows in minus_rows(m) for t in range(L.shape[1]))
        low += mpf(float(old)) < want
    assert low > len(mechs) // 10

    # informed beliefs: the two-point prior on x_i, tanh(ln R / 4) with R the max/min likelihood ratio
    low = 0
    for m in mechs:
        n, values = m.record_domain()
        index = {d: k for k, d in enumerate(m.databases)}
        want, old = mpf(0), 0.0
        for i in range(n):
            for rest in itertools.product(values, repeat=n - 1):
                rows = m.matrix[[index[rest[:i] + (v,) + rest[i:]] for v in values]]
                for t in range(rows.shape[1]):
                    col = [F(v) for v in rows[:, t]]
                    want = max(want, ref_tilt(max(col) / min(col)))
                    old = max(old, float(np.tanh((np.log(rows[:, t].max()) - np.log(rows[:, t].min())) / 4)))
        assert at_least(semantic.informed_semantic_epsilon(m), want)
        low += mpf(old) < want
    assert low > len(mechs) // 10


def test_semantic_epsilon_is_exactly_zero_for_an_uninformative_mechanism():
    m = FiniteMechanism(np.array([[0.3, 0.7]] * 4), list(itertools.product((0, 1), repeat=2)), [0, 1])
    assert semantic.semantic_epsilon(m).epsilon == 0.0
    assert semantic.informed_semantic_epsilon(m) == 0.0


# ------------------------------------------------------------------------------------------------ SD and semantic δ


def _belief(rng, k):
    return rng.dirichlet(np.full(k, 0.7))


def test_statistical_difference_is_the_exact_sd_rounded_up():
    rng = np.random.default_rng(RNG_SEED)
    low = 0
    cases = 0
    for m in chapter_mechanisms()[:3] + [random_mechanism(rng, outputs=3) for _ in range(40)]:
        b = _belief(rng, len(m.databases))
        minus = minus_rows(m)
        for i, t in itertools.product(range(len(minus)), range(len(m.outputs))):
            want = ref_sd(m.matrix[:, t], m.matrix[minus[i], t], b)
            got = semantic.statistical_difference(m, b, m.outputs[t], i + 1)
            assert at_least(got, want) and positive_if(got, want)
            assert F(got) <= want * (1 + Fraction(1, 2**51))  # one ulp at most above
            old = semantic.games(m, b, m.outputs[t]).sd[i]  # the float SD, to nearest
            low += F(old) < want
            cases += 1
    assert low > cases // 10


def _hostile_eps(rng, mech, b, k=4):
    """ε just below, at and just above exact cell SDs: where the old tolerance (1e-12) dropped transcripts."""
    sds, _ = ref_cells(mech, b)
    flat = [s for row in sds for s in row if s is not None and 0 < s < 1]
    out = []
    for s in rng.choice(len(flat), size=min(k, len(flat)), replace=False):
        x = float(flat[s])
        out += [math.nextafter(x, 0), x, math.nextafter(math.nextafter(x, 0), 0), x - 1e-13]
    return out


def ref_semantic_delta(mech, b, eps):
    sds, prob = ref_cells(mech, b)
    e = F(eps)
    # a probability: at most 1 (float inputs may sum a few ulps above 1; δ = 1 holds whatever they are)
    return min(sum((prob[t] for t in range(len(prob)) if any(row[t] is not None and row[t] > e for row in sds)),
                   Fraction(0)), Fraction(1))


def ref_oblivious_delta(mech, b, db, eps):
    sds, prob = ref_cells(mech, b)
    row = mech.row(db)
    e = F(eps)
    return min(sum((F(row[t]) for t in range(len(prob))
                    if prob[t] == 0 or any(r[t] is not None and r[t] > e for r in sds)), Fraction(0)), Fraction(1))


def test_semantic_delta_and_reality_oblivious_delta_are_never_below():
    rng = np.random.default_rng(RNG_SEED)
    low = low_ro = cases = 0
    mechs = [mechanisms.geometric_count(2, 0.5), semantic.random_index_mechanism(3), semantic.leaky_count(2, 0.3, 1e-3)]
    mechs += [random_mechanism(rng, outputs=3) for _ in range(25)]
    for m in mechs:
        b = _belief(rng, len(m.databases))
        for eps in _hostile_eps(rng, m, b) + [0.0, 0.2]:
            want = ref_semantic_delta(m, b, eps)
            got = semantic.semantic_delta(m, b, eps)
            assert at_least(got, want) and positive_if(got, want) and F(got) <= want * (1 + Fraction(1, 2**51))
            db = m.databases[int(rng.integers(len(m.databases)))]
            want_ro = ref_oblivious_delta(m, b, db, eps)
            got_ro = semantic.reality_oblivious_delta(m, b, db, eps)
            assert at_least(got_ro, want_ro) and positive_if(got_ro, want_ro)
            # the old code: float SDs with a 1e-12 tolerance, probabilities summed to nearest
            sd, prob = semantic.semantic_profile(m, b)
            bad = np.any(sd > eps + 1e-12, axis=0)
            low += F(float(np.clip(prob[bad].sum(), 0, 1))) < want
            low_ro += F(float(m.row(db)[bad | (prob <= 0)].sum())) < want_ro
            cases += 1
    assert low > cases // 10 and low_ro > cases // 20


# ------------------------------------------------------------------------------------------------ pointwise, Lemma 3.4


def ref_pointwise(p, q, eps):
    bad = [ref_exceeds(a, b, eps) or ref_exceeds(b, a, eps) for a, b in zip(p, q)]
    return max(sum((F(a) for a, k in zip(p, bad) if k), Fraction(0)), sum((F(b) for b, k in zip(q, bad) if k),
                                                                            Fraction(0)))


def test_pointwise_delta_is_never_below():
    rng = np.random.default_rng(RNG_SEED)
    low = cases = 0
    pairs = [(np.array([0.39, 0.61]), np.array([0.30, 0.70])), (np.array([0.9, 0.1]), np.array([0.1, 0.9]))]
    pairs += [tuple(rng.dirichlet(np.full(5, 0.8), size=2)) for _ in range(60)]
    for p, q in pairs:
        ratios = [abs(math.log(a / b)) for a, b in zip(p, q) if a > 0 and b > 0 and a != b]
        for r in ratios[:3]:
            for eps in (r, math.nextafter(r, 0), math.nextafter(r, 9), r * (1 - 1e-13)):
                want = ref_pointwise(p, q, eps)
                got = semantic.pointwise_delta(p, q, eps)
                assert at_least(got, want) and positive_if(got, want)
                old = (p > np.exp(eps) * q * (1 + 1e-12)) | (q > np.exp(eps) * p * (1 + 1e-12))
                low += F(max(p[old].sum(), q[old].sum())) < want
                cases += 1
    assert low > cases // 10
    assert semantic.pointwise_delta([0.5, 0.5], [0.5, 0.5], 0.0) == 0.0  # a tie at ε = 0 is not bad
    # subnormal masses
    p, q = np.array([0.5, 0.5 - 3e-320, 3e-320]), np.array([0.5, 0.5, 0.0])
    assert at_least(semantic.pointwise_delta(p, q, 0.1), ref_pointwise(p, q, 0.1))
    assert semantic.pointwise_delta(p, q, 0.1) > 0
    # e^ε beyond the float range while e^ε q is 0.2: the outcome is bad (main returned 0)
    p, q = np.array([0.25, 0.75]), np.array([1 - 1e-322, 1e-322])
    want = ref_pointwise(p, q, 740.0)
    assert want > 0 and at_least(semantic.pointwise_delta(p, q, 740.0), want)


def ref_bad_mass(P, Q, eps, delta):
    out = [Fraction(0), Fraction(0)]
    for t in range(P.shape[1]):
        pb, qb = sum(map(F, P[:, t])), sum(map(F, Q[:, t]))
        if pb == 0 or qb == 0:
            bad = pb > 0 or qb > 0
        else:
            p = [M(F(v) / pb) for v in P[:, t]]
            q = [M(F(v) / qb) for v in Q[:, t]]
            g = mp.exp(mpf(float(eps)))
            d = max(mp.fsum(max(a - g * b, 0) for a, b in zip(p, q)), mp.fsum(max(b - g * a, 0) for a, b in zip(p, q)))
            bad = d > mpf(float(delta))
        if bad:
            out[0] += pb
            out[1] += qb
    return out


def test_conditioning_bad_mass_is_never_below():
    from dpsemantics.claims import semantic_evidence

    rng = np.random.default_rng(RNG_SEED)
    cases = [semantic_evidence.conditioning_counterexample(1.0, 1e-6, 0.1) + (3.0, 0.1)]
    low = 0
    for _ in range(40):
        P = rng.dirichlet(np.full(12, 0.6)).reshape(3, 4)
        Q = rng.dirichlet(np.full(12, 0.6)).reshape(3, 4)
        eps = float(rng.uniform(0, 0.5))
        # δ̂ just below one column's exact δ: the old tolerance (1e-12) dropped that column
        t = int(rng.integers(4))
        p, q = P[:, t] / P[:, t].sum(), Q[:, t] / Q[:, t].sum()
        d = float(max(mp.fsum(max(mpf(float(a)) - mp.exp(eps) * mpf(float(b)), 0) for a, b in zip(p, q)),
                      mp.fsum(max(mpf(float(b)) - mp.exp(eps) * mpf(float(a)), 0) for a, b in zip(p, q))))
        cases.append((P, Q, eps, max(d * (1 - 1e-14), 0.0)))
    for P, Q, eps, delta in cases:
        want = ref_bad_mass(P, Q, eps, delta)
        got = semantic.conditioning_bad_mass(P, Q, eps, delta)
        assert all(at_least(g, w) and positive_if(g, w) for g, w in zip(got, want))
        from dpsemantics.indistinguishability import smallest_delta
        pb, qb = P.sum(axis=0), Q.sum(axis=0)
        old = np.array([smallest_delta(P[:, t] / pb[t], Q[:, t] / qb[t], eps) > delta + 1e-12
                        for t in range(P.shape[1])])
        low += F(pb[old].sum()) < want[0]
    assert low > len(cases) // 10


# ------------------------------------------------------------------------------------------------ testing power


def ref_power(p0, p1, alpha):
    f0, f1 = [F(v) for v in p0], [F(v) for v in p1]
    order = sorted(range(len(f0)), key=lambda k: (f0[k] > 0, -(f1[k] / f0[k]) if f0[k] > 0 else 0))
    a, level, power = F(alpha), Fraction(0), Fraction(0)
    for k in order:
        if level + f0[k] <= a:
            level, power = level + f0[k], power + f1[k]
        else:
            return min(power + (a - level) / f0[k] * f1[k], Fraction(1))
    return min(power, Fraction(1))


def old_power(p0, p1, a):
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(p0 > 0, p1 / np.where(p0 > 0, p0, 1.0), np.inf)
    order = np.argsort(-ratio, kind="stable")
    levels = np.concatenate([[0.0], np.cumsum(p0[order])])
    powers = np.concatenate([[0.0], np.cumsum(p1[order])])
    k = np.clip(np.searchsorted(levels, a, side="right") - 1, 0, levels.size - 1)
    nxt = np.minimum(k + 1, levels.size - 1)
    gap = levels[nxt] - levels[k]
    frac = np.where(gap > 0, (a - levels[k]) / np.where(gap > 0, gap, 1.0), 0.0)
    return np.minimum(powers[k] + np.clip(frac, 0.0, 1.0) * (powers[nxt] - powers[k]), 1.0)


def test_most_powerful_power_is_never_below():
    from dpsemantics.claims import semantic_evidence

    rng = np.random.default_rng(RNG_SEED)
    alphas = np.concatenate([np.linspace(0, 1, 101), rng.uniform(0, 1, 50), [1e-300, 5e-324]])
    pairs = [semantic_evidence.record_test_distributions(mechanisms.one_record_randomized_response(e), 0, [0.5, 0.5],
                                                         {0}, {1}) for e in (0.1, 0.7, 1.0, 3.0)]
    pairs += [tuple(rng.dirichlet(np.full(6, 0.5), size=2)) for _ in range(30)]
    low = cases = 0
    for p0, p1 in pairs:
        p0, p1 = np.asarray(p0, dtype=float), np.asarray(p1, dtype=float)
        got = semantic.most_powerful_power(p0, p1, alphas)
        for a, g, o in zip(alphas, got, old_power(p0, p1, alphas)):
            want = ref_power(p0, p1, a)
            assert at_least(g, want) and positive_if(g, want)
            assert F(g) <= want * (1 + Fraction(1, 2**51)) or want < Fraction(2) ** -960  # one ulp (normal range)
            low += F(o) < want
            cases += 1
    assert low > cases // 10


# ------------------------------------------------------------------------------------------------ local sensitivity


def test_local_sensitivity_is_never_below():
    rng = np.random.default_rng(RNG_SEED)
    dbs = list(itertools.product(range(4), repeat=3))
    fs = [lambda x: float(np.median(x)), lambda x: 0.1 * sum(x), lambda x: math.exp(sum(x) / 3)]
    for _ in range(6):  # values of mixed magnitudes: their float differences round, half of them down
        w = 10.0 ** rng.uniform(-4, 4, 3) * rng.uniform(0.5, 1, 3)
        fs.append(lambda x, w=w: float(np.dot(w, x)) + 0.1)
    low = cases = 0
    for f in fs:
        got = semantic.local_sensitivity(f, dbs, range(4))
        for x, g in zip(dbs, got):
            fx = F(f(x))
            nbrs = [x[:i] + (v,) + x[i + 1:] for i in range(3) for v in range(4) if v != x[i]]
            want = max(abs(fx - F(f(y))) for y in nbrs)
            assert at_least(g, want)
            low += F(max(abs(f(x) - f(y)) for y in nbrs)) < want
            cases += 1
    assert low > cases // 10


# ------------------------------------------------------------------------------------------------ Theorem A.2 (down)


def test_dwork_mcsherry_sd_and_delta_are_never_above():
    rng = np.random.default_rng(RNG_SEED)
    t = np.concatenate([rng.uniform(-50, 50, 1500), 0.5 + 10.0 ** rng.uniform(-300, 0, 500)])
    sigma = np.concatenate([rng.uniform(0.3, 20, 1500), rng.uniform(0.5, 2, 500)])
    got = semantic.dwork_mcsherry_sd(t, sigma)
    want = [abs(1 / (1 + mp.exp(-(mpf(float(a)) - mpf(0.5)) / mpf(float(s)) ** 2)) - mpf(0.5))
            for a, s in zip(t, sigma)]
    assert all(at_most(g, w) for g, w in zip(got, want))
    old = np.abs(expit((t - 0.5) / sigma / sigma) - 0.5)
    assert sum(mpf(float(o)) > w for o, w in zip(old, want)) > len(t) // 10

    n = np.concatenate([10.0 ** rng.uniform(0, 4, 600), [1000.0]])
    sig = np.concatenate([rng.uniform(0.5, 40, 600), [float(semantic.paper_gaussian_sigma(0.5, 1e-5))]])
    ep = np.concatenate([rng.uniform(0.01, 0.49, 600), [0.25]])
    got = semantic.dwork_mcsherry_delta(n, sig, ep)

    def ref(n, s, e):
        n, s = mpf(float(n)), mpf(float(s))
        c = 4 * s**2 * mp.atanh(2 * mpf(float(e)))
        return mp.ncdf((n - (1 + c) / 2) / s) + mp.ncdf(((1 - c) / 2 - n) / s)

    want = [ref(*a) for a in zip(n, sig, ep)]
    assert all(at_most(g, w) for g, w in zip(got, want))
    a = np.arctanh(2 * ep)
    c = 4 * sig**2 * a
    old = ndtr((n - (1 + c) / 2) / sig) + ndtr(((1 - c) / 2 - n) / sig)
    assert sum(mpf(float(o)) > w for o, w in zip(old, want)) > len(n) // 10
    assert semantic.dwork_mcsherry_delta(1000, sig[-1], 0.25) > 1 - 1e-6  # the claim's reading is kept


# ------------------------------------------------------------------------------------------------ a finite mechanism


def test_finite_mechanism_delta_and_pair_hockey_are_never_below():
    rng = np.random.default_rng(RNG_SEED)
    low = cases = 0
    pairs = [(np.array([0.9, 0.1]), np.array([0.1, 0.9]))]
    pairs += [tuple(rng.dirichlet(np.full(4, 0.7), size=2)) for _ in range(80)]
    pairs += [(np.array([0.5, 0.5 - 3e-320, 3e-320]), np.array([0.5, 0.5 - 1e-320, 1e-320]))]  # subnormal masses
    pairs += [(np.array([0.25, 0.75]), np.array([1 - 1e-322, 1e-322]))]  # e^ε beyond the float range, e^ε q not
    for p, q in pairs:
        ratios = [abs(math.log(a) - math.log(b)) for a, b in zip(p, q) if a > 0 and b > 0 and a != b]
        eps = [0.0, 0.3, 740.0] + [e for r in ratios[:2] for e in (r, math.nextafter(r, 0), r * (1 - 1e-15))]
        m = FiniteMechanism(np.stack([p, q]), [(0,), (1,)], [0, 1, 2, 3][:p.size])
        got_m = m.delta(eps)
        got_d = disclosure.pair_hockey(p, q, eps)
        for e, gm, gd in zip(eps, got_m, got_d):
            want = max(ref_hockey(p, q, e), ref_hockey(q, p, e))
            assert at_least(gm, want) and positive_if(gm, want)
            assert at_least(gd, want) and positive_if(gd, want)
            with np.errstate(over="ignore", invalid="ignore"):  # the definition in floats, to nearest
                nearest = max(np.sum(np.maximum(p - np.exp(e) * q, 0)), np.sum(np.maximum(q - np.exp(e) * p, 0)))
            low += mpf(float(nearest)) < want
            cases += 1
    assert low > cases // 10
    same = FiniteMechanism(np.array([[0.3, 0.7], [0.3, 0.7]]), [(0,), (1,)], [0, 1])
    assert same.delta(0.0) == 0.0 and same.epsilon() == 0.0  # exact zeros stay 0
    assert disclosure.pair_hockey([0.5, 0.5], [1.0, 0.0], math.inf) == 0.5  # ε = ∞: the mass only one side has


def test_finite_mechanism_epsilon_is_never_below():
    rng = np.random.default_rng(RNG_SEED)
    mechs = chapter_mechanisms() + [random_mechanism(rng, n=1, outputs=int(rng.integers(2, 6)),
                                                     spread=float(rng.choice([0.5, 50.0]))) for _ in range(300)]
    low = 0
    for m in mechs:
        want = max((abs(mp.log(mpf(float(a))) - mp.log(mpf(float(b))))
                    for i, j in m.adjacent_pairs() for a, b in zip(m.matrix[i], m.matrix[j])), default=mpf(0))
        assert at_least(m.epsilon(), want)
        old = max(float(np.max(np.abs(np.log(m.matrix[i]) - np.log(m.matrix[j])))) for i, j in m.adjacent_pairs())
        low += mpf(old) < want
    assert low > len(mechs) // 10
