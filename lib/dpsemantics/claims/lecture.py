"""Claims of Lecture 1 (Brown, scribe Choudhary): the few statements it makes that can be computed, and
the two exercises (§7), whose answers the book works out and attacks.

Relations (``printed=True``) return a :class:`~dpsemantics.claims.Verdict`; searches are cached so that
``compute(tighten=t)`` only re-compares.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import numpy as np

from .. import indistinguishability as ind
from .. import mechanisms as mech
from . import Claim, Verdict, certify, lecture_evidence

CHAPTER = "book/intro"
_CHAIN_GRID = [(e, d) for e in (0.05, 0.1, 0.5, 1.0, 2.0) for d in (1e-6, 1e-3, 1e-2)]


def _two_pure_mechanisms_compose_to_sum():
    """Two ε-DP mechanisms run on the same data: the exact ε of the pair over ε, the factor the lecture prints as
    "2ε" (randomized response at ε = 0.5, which attains the sum; lecture-s5-composition-bound attacks the bound)."""
    rr = mech.randomized_response(0.5)
    return rr.compose(rr).epsilon() / 0.5


@cache
def _composition_cases():
    """(ε of the pair, ε1 + ε2, label): randomized response (extremal) and random mechanisms on {0,1}^2."""
    rng = np.random.default_rng(5)
    out = []
    for e1, e2 in itertools.product((0.05, 0.5, 2.0), repeat=2):
        a, b = mech.randomized_response(e1), mech.randomized_response(e2)
        out.append((a.compose(b).epsilon(), e1 + e2, f"randomized response {e1} then {e2}"))
    dbs = list(itertools.product((0, 1), repeat=2))
    for k in range(60):
        a = mech.FiniteMechanism(rng.dirichlet(np.full(3, 0.5), size=4), dbs, [0, 1, 2])
        b = mech.FiniteMechanism(rng.dirichlet(np.full(2, 0.5), size=4), dbs, [0, 1])
        out.append((a.compose(b).epsilon(), a.epsilon() + b.epsilon(), f"random pair #{k}"))
    return out


@cache
def composition_proof(scale=1):
    """§5's composition in the pure case, for every pair of outputs (y₁, y₂) of two mechanisms run on the same data
    (independently): with hᵢ = e^{εᵢ}qᵢ − pᵢ ≥ 0 (each is εᵢ-DP, point-wise), e^{ε₁+ε₂}q₁q₂ − p₁p₂ = p₂h₁ + e^{ε₁}q₁h₂ ≥ 0,
    an identity checked exactly, with p₂ ≥ 0 and e^{ε₁}q₁ ≥ 0 on the box; summed over an event's outputs it is the event
    form.  Coordinates (p₁, q₁, p₂, q₂, s₁, s₂), e^{εᵢ} = 1/sᵢ.  ``scale`` multiplies e^{ε₁+ε₂} (< 1: a false variant)."""
    def rest(p1, q1, p2, q2, s1, s2):
        h1, h2 = q1 / s1 - p1, q2 / s2 - p2
        return scale * q1 * q2 / (s1 * s2) - p1 * p2 - (p2 * h1 + q1 / s1 * h2)

    return certify.nonnegative_on_box([("e^{ε₁+ε₂}q₁q₂ − p₁p₂ − (p₂h₁ + e^{ε₁}q₁h₂)", rest),
                                       ("p₂", lambda p1, q1, p2, q2, s1, s2: p2),
                                       ("e^{ε₁}q₁", lambda p1, q1, p2, q2, s1, s2: q1 / s1)],
                                      [(0.0, 1.0)] * 6, degree=3)


@cache
def event_form_proof(drop_outside=False):
    """Definitions 1.1 and 4.1 (and Exercise 7.1 at ε = 0): for every pair p, q on any output space, every event S and
    A = {p > e^ε q}, p(S) − e^ε q(S) ≤ p(A) − e^ε q(A) = Σ_y max(0, p_y − e^ε q_y), with equality at S = A.  The
    common part S ∩ A cancels; over x = (p(S∖A), q(S∖A), p(A∖S), q(A∖S)) maximise [p(S∖A) − e^ε q(S∖A)] −
    [p(A∖S) − e^ε q(A∖S)] subject to p(S∖A) − e^ε q(S∖A) ≤ 0 (outside A) and e^ε q(A∖S) − p(A∖S) ≤ 0 (inside A): the
    dual (1, 1) gives 0.  ``drop_outside`` drops the first constraint (a false variant).  Coordinates: s = e^{−ε}."""
    rows = (lambda s: [[1, -1 / s, 0, 0], [0, 0, -1, 1 / s]]) if not drop_outside else (lambda s: [[0, 0, -1, 1 / s]])
    return certify.parametric_dual_proof(lambda s: [1, -1 / s, -1, 1 / s], rows,
                                         lambda s: [0] * len(rows(1)), lambda s: [1] * len(rows(1)),
                                         lambda s: 0, [(0.0, 1.0)])


def _composition(tighten: float = 1.0) -> Verdict:
    lhs, rhs, labels = zip(*_composition_cases())
    return Verdict.of(lhs, rhs, evidence=("extremal", "random-search"), tighten=tighten, labels=labels)


@cache
def _forms_cases():
    """Event-form δ (every event, every ordered adjacent pair) and the hockey-stick δ of Definition 4.1."""
    rng = np.random.default_rng(4)
    mechs = [("geometric count on {0,1}^3, ε = 0.7", mech.geometric_count(3, 0.7)),
             ("local randomized response on {0,1}^2, ε = 1", mech.local_randomized_response(2, 1.0)),
             ("name-and-shame, n = 2, δ = 0.05", mech.name_and_shame(2, 0.05))]
    dbs = list(itertools.product((0, 1), repeat=2))
    mechs += [(f"random mechanism #{k}", mech.FiniteMechanism(rng.dirichlet(np.full(4, 0.5), size=4), dbs,
                                                              [0, 1, 2, 3]))
              for k in range(8)]
    events, hockey, labels = [], [], []
    for name, m in mechs:
        pairs = m.adjacent_pairs()
        for eps in (0.0, 0.2, 0.5, 0.7, 1.5):
            events.append(max(ind.smallest_delta_over_events(m.matrix[i], m.matrix[j], eps) for i, j in pairs))
            hockey.append(m.delta(eps))
            labels.append(f"{name}, ε = {eps}")
    # values below 1e-13 are float rounding of an exact 0 (a pure mechanism beyond its ε)
    clean = lambda x: np.where(np.abs(x) < 1e-13, 0.0, np.array(x))  # noqa: E731
    return clean(events), clean(hockey), tuple(labels)


def _event_form_equals_indistinguishability_form(tighten: float = 1.0) -> Verdict:
    """Both ways: the event form's δ ≤ the indistinguishability form's δ, and conversely."""
    ev, hs, labels = _forms_cases()
    return Verdict.of(np.concatenate([ev, hs]), np.concatenate([hs, ev]), evidence=("exhaustive", "random-search"),
                      tighten=tighten, labels=labels + labels)


@cache
def _tv_cases():
    rng = np.random.default_rng(71)
    events, tv, labels = [], [], []
    pairs = [(np.array([1.0, 0.0]), np.array([0.0, 1.0]), "disjoint supports"),
             (np.array([0.5, 0.5]), np.array([0.5, 0.5]), "equal distributions")]
    pairs += [(*rng.dirichlet(np.full(m, a), size=2), f"random pair #{k}, {m} outcomes")
              for k, (m, a) in enumerate(itertools.product((2, 3, 5, 8), (0.2, 1.0, 5.0)))]
    for p, q, label in pairs:
        events.append(ind.smallest_delta_over_events(p, q, 0.0))
        tv.append(0.5 * float(np.abs(p - q).sum()))
        labels.append(label)
    return np.array(events), np.array(tv), tuple(labels)


def _tv_privacy(tighten: float = 1.0) -> Verdict:
    """(0, δ)-indistinguishability ⇔ TV ≤ δ: the smallest δ at ε = 0 over every event equals ½‖p − q‖₁."""
    ev, tv, labels = _tv_cases()
    return Verdict.of(np.concatenate([ev, tv]), np.concatenate([tv, ev]),
                      evidence=("exhaustive", "extremal", "random-search"),
                      tighten=tighten, labels=labels + labels)


@cache
def _chain_cases():
    """δ needed by (p, r) at 2ε over chains p ≈ q ≈ r: the LP optimum (3 and 4 outcomes), the witness, and
    random chains with δ set to the least the chain needs."""
    lhs, rhs, labels = [], [], []
    for eps, delta in _CHAIN_GRID:
        bound = (1 + np.exp(eps)) * delta
        for m in (3, 4):
            # the LP's optimal chain, evaluated exactly: its own δ (≤ δ up to solver tolerance) sets the bound
            _, (p, q, r) = lecture_evidence.transitivity_worst_delta(eps, delta, outcomes=m, return_chain=True)
            used = max(ind.smallest_delta(p, q, eps), ind.smallest_delta(q, p, eps), ind.smallest_delta(q, r, eps),
                       ind.smallest_delta(r, q, eps))
            lhs.append(ind.smallest_delta(p, r, 2 * eps)), rhs.append((1 + np.exp(eps)) * used)
            labels.append(f"LP optimum, {m} outcomes, ε = {eps}, δ = {delta:g}")
        p, q, r = ind.transitivity_witness(eps, delta)
        lhs.append(ind.smallest_delta(p, r, 2 * eps)), rhs.append(bound), \
            labels.append(f"three-point witness, ε = {eps}, δ = {delta:g}")
    rng = np.random.default_rng(72)
    for k in range(200):
        p, q, r = rng.dirichlet(np.full(int(rng.integers(2, 6)), 0.5), size=3)
        eps = float(rng.uniform(0.05, 2.0))
        delta = max(ind.smallest_delta(p, q, eps), ind.smallest_delta(q, r, eps))
        lhs.append(ind.smallest_delta(p, r, 2 * eps)), rhs.append((1 + np.exp(eps)) * delta), \
            labels.append(f"random chain #{k}")
    return np.array(lhs), np.array(rhs), tuple(labels)


def _transitivity(tighten: float = 1.0) -> Verdict:
    lhs, rhs, labels = _chain_cases()
    return Verdict.of(lhs, rhs, evidence=("optimised-search", "extremal", "random-search"), tighten=tighten,
                      labels=labels)


#: e^ε values at which Exercise 7.2 is certified: rational, so that every LP's data is exact.
CERTIFIED_EXP_EPS = (Fraction(21, 20), Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(7))
CERTIFIED_DELTAS = (Fraction(1, 10**6), Fraction(1, 1000), Fraction(1, 100))
CERTIFIED_OUTCOMES = (3, 4)


def chain_lp(exp_eps: Fraction, delta: Fraction, outcomes: int, event_size: int):
    """Exercise 7.2 as a linear program over every chain p ≈(ε,δ) q ≈(ε,δ) r on ``outcomes`` outcomes (both directions
    of both steps, each hockey stick Σ_y max(0, a_y − e^ε b_y) ≤ δ through one slack per outcome): maximise
    p(E) − e^{2ε} r(E) for E the first ``event_size`` outcomes (every event is one of these up to a permutation of
    the outcomes, which maps chains to chains).  Returns a :class:`~dpsemantics.claims.certify.LPCertificate`."""
    from .certify import lp_upper_bound

    m, E, zero, one = outcomes, exp_eps, Fraction(0), Fraction(1)
    n = 7 * m
    P, Q, R, slacks = 0, m, 2 * m, (3 * m, 4 * m, 5 * m, 6 * m)
    A, b = [], []
    for (x, y), s in zip(((P, Q), (Q, P), (Q, R), (R, Q)), slacks):
        for j in range(m):
            row = [zero] * n
            row[x + j], row[y + j], row[s + j] = one, -E, -one
            A.append(row), b.append(zero)
        A.append([one if s <= i < s + m else zero for i in range(n)]), b.append(delta)
    A_eq = [[one if base <= i < base + m else zero for i in range(n)] for base in (P, Q, R)]
    c = [zero] * n
    for j in range(event_size):
        c[P + j], c[R + j] = one, -E * E
    return lp_upper_bound(c, A, b, A_eq, [one] * 3, [one] * n)


@cache
def _certified_chains():
    lhs, rhs, labels, sizes, exact = [], [], [], set(), 0
    for E in CERTIFIED_EXP_EPS:
        for delta in CERTIFIED_DELTAS:
            bound = (1 + E) * delta
            for m in CERTIFIED_OUTCOMES:
                for k in range(1, m):
                    cert = chain_lp(E, delta, m, k)
                    sizes.add(cert.size)
                    exact += cert.bound <= bound
                    # the primal optimum (a chain reaching it) for the margin; the dual bound if it fails the proof
                    lhs.append(cert.primal if cert.bound <= bound else float(cert.bound))
                    rhs.append(float(bound))
                    labels.append(f"e^ε = {E}, δ = {delta}, {m} outcomes, event of size {k}")
    return np.array(lhs), np.array(rhs), tuple(labels), sorted(sizes), exact


@cache
def transitivity_proof(scale=1):
    """Exercise 7.2 on its whole domain (every ε ≥ 0, δ ≥ 0, every chain on any output space): for an event S the
    masses x = (p(S), q(S), r(S)) satisfy p(S) − e^ε q(S) ≤ δ and q(S) − e^ε r(S) ≤ δ; maximise p(S) − e^{2ε} r(S).
    The dual (1, e^ε) gives (1 + e^ε)δ (weak duality; the three-point witness attains it, lecture-ex7.2-tight).
    Coordinates (s, δ) with e^ε = 1/s ∈ [1, ∞).  ``scale`` multiplies the bound (scale < 1: a false variant)."""
    return certify.parametric_dual_proof(lambda s, d: [1, 0, -1 / s**2],
                                         lambda s, d: [[1, -1 / s, 0], [0, 1, -1 / s]],
                                         lambda s, d: [d, d], lambda s, d: [1, 1 / s],
                                         lambda s, d: scale * (1 + 1 / s) * d, [(0.0, 1.0), (0.0, 1.0)])


def _transitivity_grid(tighten: float = 1.0) -> Verdict:
    lhs, rhs, labels, sizes, exact = _certified_chains()
    return Verdict.of(
        lhs, rhs, evidence="certified-lp" if exact == lhs.size else "optimised-search", tighten=tighten, labels=labels,
        domain="every chain p ≈(ε,δ) q ≈(ε,δ) r on 3 or 4 outcomes, every event, at e^ε ∈ {21/20, 11/10, 3/2, 2, 3, 7} "
               "and δ ∈ {10⁻⁶, 10⁻³, 10⁻²}",
        certificate=f"{lhs.size} LPs of sizes {certify.lp_sizes(sizes)}, solved with HiGHS; in "
                    f"{exact} of {lhs.size} the exact rational dual bound equals or is below (1 + e^ε)δ")


_transitivity_certified = certify.certified_by(
    _transitivity_grid, [("the event LP's dual (1, e^ε)", transitivity_proof)], kind="certified-lp",
    domain="every chain p ≈(ε,δ) q ≈(ε,δ) r on any output space, every event, every ε ≥ 0 and δ ≥ 0",
    reduction="For every event S, p(S) − e^{2ε} r(S) ≤ (p(S) − e^ε q(S)) + e^ε (q(S) − e^ε r(S)) ≤ (1 + e^ε)δ: a "
              "linear program over (p(S), q(S), r(S)) with the dual (1, e^ε). The grid LPs over chains on 3 and 4 "
              "outcomes (exact rational duals at six e^ε and three δ) give the cases.")


@cache
def _tight_cases():
    """The three-point witness: each step of the chain needs exactly δ (lhs: needed, rhs: δ), and (p, r) needs
    at least (1 + e^ε)δ at every ε′ ≤ 2ε (lhs: (1 + e^ε)δ, rhs: needed at ε′), with equality only at 2ε."""
    lhs, rhs, labels = [], [], []
    for eps, delta in _CHAIN_GRID:
        p, q, r = ind.transitivity_witness(eps, delta)
        for a, b, name in ((p, q, "p vs q"), (q, r, "q vs r")):
            lhs.append(max(ind.smallest_delta(a, b, eps), ind.smallest_delta(b, a, eps))), rhs.append(delta)
            labels.append(f"{name} at (ε, δ) = ({eps}, {delta:g})")
        for e2 in np.linspace(0, 2 * eps, 21):
            lhs.append((1 + np.exp(eps)) * delta), rhs.append(ind.smallest_delta(p, r, e2))
            labels.append(f"(1 + e^ε)δ against the δ that p vs r needs at ε′ = {e2:.4g} (ε = {eps}, δ = {delta:g})")
    return np.array(lhs), np.array(rhs), tuple(labels)


def _transitivity_tight(tighten: float = 1.0) -> Verdict:
    lhs, rhs, labels = _tight_cases()
    return Verdict.of(lhs, rhs, evidence="extremal", tighten=tighten, labels=labels)


@cache
def _large_delta_cases():
    """Tightness over the whole domain of δ: the bound (1 + e^ε)δ against the LP's worst case over chains on 3–5
    outcomes, for δ beyond the chapter's grid (δ ≤ 0.01)."""
    lhs, rhs, labels = [], [], []
    for eps, delta in ((0.5, 0.2), (1.0, 0.1), (1.0, 0.25), (0.1, 0.4), (2.0, 0.1)):
        worst = max(lecture_evidence.transitivity_worst_delta(eps, delta, outcomes=m) for m in (3, 4, 5))
        lhs.append((1 + np.exp(eps)) * delta), rhs.append(worst)
        labels.append(f"ε = {eps}, δ = {delta}: (1 + e^ε)δ = {(1 + np.exp(eps)) * delta:.4f}, worst chain {worst:.4f}")
    return np.array(lhs), np.array(rhs), tuple(labels)


def _transitivity_tight_large_delta(tighten: float = 1.0) -> Verdict:
    lhs, rhs, labels = _large_delta_cases()
    return Verdict.of(lhs, rhs, evidence="optimised-search", tighten=tighten, labels=labels)


CLAIMS = [
    Claim(
        id="lecture-s5-pure-composition",
        paper="lecture",
        where="§5, composition of exponentials",
        statement="Running two ε-DP algorithms yields a 2ε-DP algorithm: the factor 2, attained (randomized response "
                  "at ε = 0.5, the pair's exact ε over ε)",
        printed=2.0,
        compute=_two_pure_mechanisms_compose_to_sum,
        atol=1e-12,
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-s5-composition-bound",
        paper="lecture",
        where="§5, composition of exponentials",
        statement="Running an ε1-DP and an ε2-DP algorithm on the same data is (ε1 + ε2)-DP",
        printed=True,
        compute=certify.certified_by(
            _composition, [("the point-wise identity", composition_proof)], kind="certified-interval",
            domain="every two pure DP mechanisms (discrete outputs, run independently on the same "
                   "data), every ε₁, ε₂ ≥ 0",
            reduction="Pure DP is the point-wise bound p ≤ e^ε q (Definition 1.1 with δ = 0 on single outputs); the "
                      "pair's point-wise bound follows from an identity with non-negative multipliers:"),
        note="Randomized response attains the sum; random mechanisms on {0,1}² stay below it. The printed value of "
             "lecture-s5-pure-composition is the lecture's factor 2 of '2ε' "
             "(before: the value 1 at the book's ε = 0.5, which the lecture does not print).",
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-def4.1-equivalent-forms",
        paper="lecture",
        where="Definitions 1.1 and 4.1",
        statement="The event form and the indistinguishability form of (ε, δ)-DP define the same δ(ε)",
        printed=True,
        compute=certify.certified_by(
            _event_form_equals_indistinguishability_form, [("the event LP's dual (1, 1)", event_form_proof)],
            kind="certified-lp", domain="every pair of distributions on any output space, every event, every ε ≥ 0",
            reduction="The event form's δ (sup over events of p(S) − e^ε q(S)) is reached at S = {p > e^ε q}, where it "
                      "is the hockey stick Σ_y max(0, p_y − e^ε q_y):"),
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-ex7.1-tv",
        paper="lecture",
        where="Exercise 7.1",
        statement="(0, δ)-DP is TV-distance privacy: the smallest δ at ε = 0 is the total variation distance",
        printed=True,
        compute=certify.certified_by(
            _tv_privacy, [("the event LP's dual (1, 1) at ε = 0", event_form_proof)], kind="certified-lp",
            domain="every pair of distributions on any output space, every event (ε = 0)",
            reduction="At ε = 0 the largest p(S) − q(S) is reached at S = {p > q} (the event LP below), where it is "
                      "Σ_y max(0, p_y − q_y) = ½‖p − q‖₁ since Σ_y (p_y − q_y) = 0:"),
        note="The exercise asserts the correspondence; the smallest δ over every event is compared with "
             "½‖p − q‖₁ both ways.",
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-ex7.2-transitivity",
        paper="lecture",
        where="Exercise 7.2",
        statement="p ≈(ε,δ) q ≈(ε,δ) r implies p ≈(2ε,(1+e^ε)δ) r (the book's answer to the exercise)",
        printed=True,
        compute=_transitivity_certified,
        note="Certified on the whole domain by the event LP's dual (1, e^ε), and by linear programs over all chains on "
             "3 and 4 outcomes (every event, both directions of each step constrained) at rational e^ε: the exact dual "
             "bound is (1 + e^ε)δ, which the primal attains. The search over floating ε and random chains is "
             "lecture-ex7.2-transitivity-search.",
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-ex7.2-transitivity-search",
        paper="lecture",
        where="Exercise 7.2",
        statement="p ≈(ε,δ) q ≈(ε,δ) r implies p ≈(2ε,(1+e^ε)δ) r, at ε on a grid (LP optima, the three-point witness) "
                  "and on random chains",
        printed=True,
        compute=certify.against_supremum(_transitivity, 1.0, "the three-point witness attains (1 + e^ε)δ"),
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-ex7.2-tight",
        paper="lecture",
        where="Exercise 7.2",
        statement="Neither parameter of (2ε, (1+e^ε)δ) can be lowered (this book's answer, read for small δ: the grid "
                  "δ ≤ 0.01): at 2ε the witness needs (1+e^ε)δ, below 2ε more",
        printed=True,
        compute=certify.against_supremum(_transitivity_tight, 1.0, "each step of the witness uses exactly δ, and "
                                         "(p, r) needs exactly (1 + e^ε)δ at 2ε"),
        note="The three-point witness (r, q, p) = (0, δ, (1+e^ε)δ) on one outcome and (t, e^ε t, e^{2ε} t) on another: "
             "each step uses exactly δ, and at ε′ < 2ε the pair (p, r) needs (1+e^ε)δ + (e^{2ε} − e^{ε′})t. "
             "A two-point witness shows only that δ′ cannot be lowered at 2ε. Only for small δ: see "
             "lecture-ex7.2-tight-large-delta.",
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-ex7.2-tight-large-delta",
        paper="lecture",
        where="Exercise 7.2 (this book's answer, every δ)",
        statement="(1+e^ε)δ cannot be lowered for any δ: the worst chain needs it (LP over chains on 3–5 outcomes)",
        printed=True,
        compute=_transitivity_tight_large_delta,
        expected="discrepancy",
        finding="different-reading",
        note="The tightness holds for small δ (lecture-ex7.2-tight, δ ≤ 0.01) but not on the whole domain: at ε = 1, "
             "δ = 0.25 the worst chain needs only 0.816 < (1 + e)δ = 0.930. Both readings are computed; the answer "
             "(2ε, (1+e^ε)δ) is valid either way, it is only not the least δ′ for large δ.",
        chapter=CHAPTER,
    ),
]


#: Statements of the lecture the chapter states but does not check, and why: (where, statement, why not).
UNCHECKED = [
    ("Definition 2.1", "(ε, δ)-indistinguishability is symmetric",
     "True by construction (both inequalities are in the definition); nothing to compute."),
    ("§4", "Other flavours of DP by changing adjacency (user-level DP)",
     "Named, not stated as a result; the chapter shows the group bound instead "
     "(tests/unit/test_indistinguishability.py and the audit check δ_g = δ Σ e^{jε} on random chains)."),
    ("§5", "ε 'on the order of 1 or 0.1'; δ ≈ 1/n² or 2^{−Ω(n)}",
     "Advice, not a result; the chapter illustrates it (e^ε against 1 + ε, the name-and-shame mechanism)."),
    ("§6", "Pure DP is a stronger guarantee than approximate DP",
     "Definitional ((ε, 0) implies (ε, δ) for every δ); the chapter shows a mechanism that is (0, δ)-DP but not "
     "ε-DP for any finite ε."),
]
