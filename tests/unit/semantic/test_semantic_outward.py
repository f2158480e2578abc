"""The semantic-privacy and membership-privacy ε's the report prints are rounded up: never below the exact value.

Kasiviswanathan & Smith, Theorem 2.2 as stated (e^ε − 1) and as proved (e^{2ε} − 1), the exact worst case tanh(ε/2),
and the converses (6s as stated for s ≤ 0.225, the exact 4 artanh s, and 2 artanh 2s from the proof's two-point
belief); Zhao, Lemma 1 with the g of eq. (26) (``membership_privacy_lemma1``).  The references are written here in
mpmath from the papers' formulas and import nothing from the package.  Rounded to nearest, each would be below the
exact value in about half of all calls, and a grid of 400 points is bound to hit one."""

import mpmath as mp
import numpy as np
import pytest

from dpsemantics import notions, semantic


@pytest.fixture(autouse=True)
def _digits():
    with mp.workdps(60):
        yield


RNG = np.random.default_rng(2024)
EPS = np.r_[5e-324, 1e-320, 2.2250738585072014e-308, 1e-300, 1e-12, 10.0 ** RNG.uniform(-15, 2.8, 400), 700.0]
S_ANY = np.r_[5e-324, 1e-300, 1e-12, RNG.uniform(0, 1, 300), 1 - 2.0**-53]

CLOSED_FORMS = [
    ("thm22_epsilon", EPS, lambda e: mp.expm1(e)),
    ("thm22_proof_epsilon", EPS, lambda e: mp.expm1(2 * e)),
    ("tight_semantic_epsilon", EPS, lambda e: mp.tanh(e / 2)),
    ("thm22_converse_epsilon", S_ANY[S_ANY <= 0.225], lambda s: 6 * s),
    ("tight_converse_epsilon", S_ANY, lambda s: 4 * mp.atanh(s)),
    ("two_point_converse_epsilon", S_ANY[S_ANY < 0.5], lambda s: 2 * mp.atanh(2 * s)),
]


@pytest.mark.parametrize("name, xs, exact", CLOSED_FORMS, ids=[c[0] for c in CLOSED_FORMS])
def test_closed_forms_are_never_below_the_exact_value(name, xs, exact):
    got = getattr(semantic, name)(xs)  # one broadcast call, and the same values one by one
    assert np.array_equal(got, [getattr(semantic, name)(float(x)) for x in xs])
    for x, g in zip(xs, got):
        want = exact(mp.mpf(float(x)))
        assert mp.mpf(float(g)) >= min(want, 1 if name == "tight_semantic_epsilon" else want), (name, x)
        if want > mp.mpf(np.finfo(float).max):  # beyond the float range: +inf is the outward answer
            assert g == np.inf, (name, x)
        else:
            assert mp.mpf(float(g)) <= want * (1 + mp.mpf(2e-15)) + mp.mpf(1e-322), (name, x)


def g_exact(b, eps):
    """Zhao, eq. (26)."""
    if b <= 1 / (1 + mp.exp(eps)):
        return (1 - b) / (mp.exp(-eps) - b)
    return (mp.exp(eps) - 1 + b) / b


def lemma1_exact(ratio, b):
    """The smallest ε with ratio ≤ g_ε(b): g increases in ε, bisection at 60 digits."""
    lo, hi = mp.mpf(0), mp.log(ratio)
    for _ in range(220):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if g_exact(b, mid) >= ratio else (mid, hi)
    return hi


@pytest.mark.parametrize("b", [1e-300, 1e-9, 0.01, 0.2689414213699951, 0.5, 0.9, 1 - 1e-12])
def test_membership_privacy_lemma1_is_never_below_the_exact_root(b):
    """Brent's root was returned as found: below the exact ε in about half the cases, by up to 1e-14."""
    for ratio in np.r_[1.0000001, 1.5, np.e, 10.0, 1e3, 1e12, 10.0 ** RNG.uniform(0, 8, 12)]:
        got = notions.membership_privacy_lemma1(float(ratio), b)
        want = lemma1_exact(mp.mpf(float(ratio)), mp.mpf(b))
        assert mp.mpf(got) >= want, (ratio, b)
        assert mp.mpf(got) <= want + mp.mpf(1e-12) * (1 + want), (ratio, b)
