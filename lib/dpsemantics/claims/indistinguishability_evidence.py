"""Evidence for the claims of Lecture 1 (:mod:`dpsemantics.claims.lecture`): the linear program that attacks the
transitivity answer of Exercise 7.2 over every chain p ≈ q ≈ r on a few outcomes.

:mod:`dpsemantics.indistinguishability` computes the answer
(:func:`~dpsemantics.indistinguishability.transitivity_parameters`) and the chapter's three-point witness that
neither parameter can be lowered (:func:`~dpsemantics.indistinguishability.transitivity_witness`, the solution of the
exercise's "can you do better?"); the search for the worst chain is evidence, kept here (the rule:
:mod:`dpsemantics.claims`).

The other evidence of the lecture's claims follows: the cases of §5's composition, of the two forms of
indistinguishability and of total-variation privacy, the exact-rational LPs over chains (:func:`chain_lp`) and the
interval proofs (:func:`composition_proof`, :func:`event_form_proof`, :func:`transitivity_proof`) that certify them.
"""

from __future__ import annotations

import numpy as np

from .._validate import check_delta, check_epsilon, check_positive_int, overflow_is_infinity
import itertools
from fractions import Fraction
from functools import cache
from .. import indistinguishability as ind
from .. import mechanisms as mech
from . import Verdict, certify

__all__ = ["transitivity_worst_delta"]

#: The largest ε (and ε′) the floating-point linear program is trusted at (see :func:`transitivity_worst_delta`).
_LP_EPS_MAX = 25.0


@overflow_is_infinity
def transitivity_worst_delta(eps, delta, eps_prime=None, outcomes: int = 3, *, return_chain: bool = False):
    """The largest δ needed for ``p ≈_(ε′, ·) r`` over all chains ``p ≈_(ε,δ) q ≈_(ε,δ) r`` on ``outcomes``
    outcomes, by linear programming (Lecture 1, Exercise 7.2; ε′ defaults to 2ε).

    For a fixed event E the objective ``p(E) − e^{ε′} r(E)`` is linear, and each hockey-stick constraint
    ``Σ_y max(0, p_y − e^ε q_y) ≤ δ`` is linear with one slack variable per outcome; by symmetry E can be
    taken to be the first k outcomes, k = 1, …, outcomes − 1.  An optimiser's attack on the answer
    (2ε, (1 + e^ε)δ) of :func:`~dpsemantics.indistinguishability.transitivity_parameters`, which it attains.
    With ``return_chain`` the optimal chain ``(p, q, r)`` is returned as well (clipped and renormalised, so that its
    exact δs can be recomputed free of solver tolerance).
    """
    from scipy.optimize import linprog

    eps = float(check_epsilon(eps, "eps", scalar=True))
    delta = float(check_delta(delta, "delta", scalar=True))
    eps_prime = 2 * eps if eps_prime is None else float(check_epsilon(eps_prime, "eps_prime", scalar=True))
    # the LP is solved in floating point: with e^ε beyond ~1e11 its coefficients swamp the probabilities and
    # HiGHS returns 0 (measured: correct to 1e-12 up to ε = 20, wrong from ε = 40)
    for name, value in (("eps", eps), ("eps_prime", eps_prime)):
        if value > _LP_EPS_MAX:
            raise ValueError(f"{name} must be at most {_LP_EPS_MAX} for this linear program (got {name}={value!r})")
    m = check_positive_int(outcomes, "outcomes", minimum=2, maximum=200)
    e = np.exp(eps)
    nv = 7 * m  # p, q, r, then slacks s1..s4
    P, Q, R = (slice(k * m, (k + 1) * m) for k in range(3))
    S = [slice((3 + k) * m, (4 + k) * m) for k in range(4)]
    A_ub, b_ub = [], []
    for (x, y), s in zip(((P, Q), (Q, P), (Q, R), (R, Q)), S):
        for j in range(m):
            row = np.zeros(nv)
            row[x.start + j], row[y.start + j], row[s.start + j] = 1.0, -e, -1.0
            A_ub.append(row), b_ub.append(0.0)
        row = np.zeros(nv)
        row[s] = 1.0
        A_ub.append(row), b_ub.append(delta)
    A_eq = np.zeros((3, nv))
    for k, sl in enumerate((P, Q, R)):
        A_eq[k, sl] = 1.0
    best, chain = 0.0, None
    for k in range(1, m):
        c = np.zeros(nv)
        c[P.start:P.start + k] = -1.0
        c[R.start:R.start + k] = np.exp(eps_prime)
        res = linprog(c, A_ub=np.array(A_ub), b_ub=b_ub, A_eq=A_eq, b_eq=np.ones(3), bounds=(0, None), method="highs")
        if res.status == 0 and -float(res.fun) >= best:
            best = -float(res.fun)
            x = np.clip(res.x, 0.0, None)
            chain = tuple(x[sl] / x[sl].sum() for sl in (P, Q, R))
    best = min(best, 1.0)  # a δ; the solver's tolerance can put it a few ulps above 1
    return (best, chain) if return_chain else best


# ---------------------------------------------------------------- the evidence of the lecture claims

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
            _, (p, q, r) = transitivity_worst_delta(eps, delta, outcomes=m, return_chain=True)
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
        worst = max(transitivity_worst_delta(eps, delta, outcomes=m) for m in (3, 4, 5))
        lhs.append((1 + np.exp(eps)) * delta), rhs.append(worst)
        labels.append(f"ε = {eps}, δ = {delta}: (1 + e^ε)δ = {(1 + np.exp(eps)) * delta:.4f}, worst chain {worst:.4f}")
    return np.array(lhs), np.array(rhs), tuple(labels)


def _transitivity_tight_large_delta(tighten: float = 1.0) -> Verdict:
    lhs, rhs, labels = _large_delta_cases()
    return Verdict.of(lhs, rhs, evidence="optimised-search", tighten=tighten, labels=labels)


# --- Lecture 1, §1: the adjacency it describes (issue 35) ----------------------------------------------------------


def _record_count_epsilons(n: int = 3) -> tuple[float, float]:
    """The pure ε of publishing the number of records exactly, on the bit datasets of n − 1 and n records, under
    Definition 3.1's adjacency (replace one record: :func:`~dpsemantics.mechanisms.hamming_adjacent`) and under the
    presence or absence of one record (add or remove one).  Returns ``(replace, add_remove)``."""
    dbs = [t for k in (n - 1, n) for t in itertools.product((0, 1), repeat=k)]
    outputs = [n - 1, n]
    matrix = np.array([[1.0 if len(d) == o else 0.0 for o in outputs] for d in dbs])

    def add_remove(x, y):
        big, small = (x, y) if len(x) > len(y) else (y, x)
        return len(big) == len(small) + 1 and any(big[:i] + big[i + 1:] == small for i in range(len(big)))

    replace = mech.FiniteMechanism(matrix, dbs, outputs)
    presence = mech.FiniteMechanism(matrix, dbs, outputs, adjacent=add_remove)
    return replace.epsilon(), presence.epsilon()


def _definition_3_1_relation() -> str:
    """Which relation Definition 3.1 defines, told apart by the record-count release: 0-DP when a record is replaced
    (every dataset in 𝒳ⁿ has n records), DP for no ε when a record is added or removed."""
    replace, add_remove = _record_count_epsilons()
    return "replace one record" if replace == 0.0 and add_remove == float("inf") else "presence or absence"
