"""Certificates for verdicts: proofs on a whole stated domain, not searches.

Two kinds (see :data:`dpsemantics.claims.EVIDENCE`):

- :func:`prove_nonnegative` — rigorous interval arithmetic (``mpmath.iv``) branch-and-bound: ``h ≥ 0`` on every
  sub-box of a parameter box, each box either proved by the interval enclosure of ``h`` or split; where ``h``
  vanishes at an endpoint (``anchor``), the mean-value form ``h(x) ∈ h(anchor) + (x − anchor)·h′(box)`` proves the
  boxes touching it.  A box that cannot be proved is returned with its midpoint, so a failure is either a
  counterexample (``h(mid) < 0``) or an undecided box, never silence.
- :func:`lp_upper_bound` — a linear program ``max c·x`` s.t. ``A_ub x ≤ b_ub``, ``A_eq x = b_eq``,
  ``0 ≤ x ≤ u`` with rational data, solved with HiGHS; its optimum is bounded above by weak duality, computed in
  exact rational arithmetic (:mod:`fractions`) from the solver's dual, rounded to rationals: for any ``y ≥ 0``
  and ``z``, ``c·x ≤ y·b_ub + z·b_eq + Σ_j max(0, (c − A_ubᵀy − A_eqᵀz)_j)·u_j``.  The bound is valid whatever
  the solver's accuracy; an accurate dual makes it equal to the optimum.

Certificates on a whole (possibly unbounded) parameter domain, not a grid:

- :func:`rational_identity` proves a rational function identically 0 by exact evaluation on a product grid of
  d + 1 points per variable, d the numerator's degree in it as bounded from the computation itself
  (:func:`numerator_degrees`; a polynomial of degree ≤ d in each variable vanishing there is 0);
- :func:`nonnegative_on_box` proves a list of checks ``g ≥ 0`` on a box, each as an exact identity or by
  :func:`prove_nonnegative` — tight checks are written as identities, the others in a form whose sign the interval
  enclosure shows;
- :func:`parametric_dual_proof` certifies a linear program over event masses (which every mechanism, on any output
  space, makes feasible) whose dual is written in closed form in the parameters: dual feasibility and the bound are
  checks for :func:`nonnegative_on_box`;
- :func:`certified_by` joins such proofs to a claim's search (which keeps giving the margin and the worst case);
  :func:`against_supremum` records the known supremum a search is compared with.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np

__all__ = ["IntervalProof", "prove_nonnegative", "LPCertificate", "lp_upper_bound", "IdentityProof",
           "rational_identity", "numerator_degrees", "ParametricProof", "nonnegative_on_box", "parametric_dual_proof", "certified_by",
           "PointProof", "interval_facts", "against_supremum", "verdict_from", "for_statement", "parametric_verdict",
           "constant", "averaged_neighbours_proof", "randomized_response_exact"]


def for_statement(fn: Callable, tighten: float) -> Callable | None:
    """``fn`` (a proof, or the function an interval proof bounds) made to prove the statement at ``tighten``: bound to
    it when ``fn`` takes a keyword ``tighten``; ``fn`` itself when ``tighten ≥ 1`` (a proof of the printed bound
    proves every weaker one, the bound being ≥ 0); ``None`` when ``tighten < 1`` and ``fn`` ignores it — a proof of
    the printed statement proves nothing about a stronger one, so the caller must not label it a certificate."""
    import functools
    import inspect

    try:
        takes = "tighten" in inspect.signature(fn).parameters
    except (TypeError, ValueError):  # a builtin without a signature
        takes = False
    if takes:
        return functools.partial(fn, tighten=tighten)
    return fn if tighten >= 1 else None


def _count(n: int, noun: str, plural: str = "") -> str:
    """``n`` and the noun in the number it needs ("1 box", "3 boxes")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


@dataclass(frozen=True)
class IntervalProof:
    """The outcome of :func:`prove_nonnegative`: ``proved`` on ``boxes`` boxes (maximum split depth ``depth``), or
    the first box that could not be proved and ``h`` at its midpoint (negative: a counterexample)."""

    proved: bool
    boxes: int
    depth: int
    failing_box: tuple = ()
    value_at_midpoint: float = float("nan")

    def describe(self, prec: int) -> str:
        if self.proved:
            return (f"mpmath.iv branch-and-bound at {prec} bits: {_count(self.boxes, 'box', 'boxes')} proved, split depth "
                    f"≤ {self.depth}")
        return (f"mpmath.iv branch-and-bound at {prec} bits: box {self.failing_box} not proved after {self.boxes} "
                f"boxes; h(midpoint) = {self.value_at_midpoint:.6g}")


def prove_nonnegative(h: Callable, box: Sequence[tuple[float, float]], *, dh: Callable | None = None,
                      anchor: float | None = None, max_boxes: int = 20000, prec: int = 80) -> IntervalProof:
    """Prove ``h(x) ≥ 0`` for every ``x`` in ``box`` (a list of (low, high) per coordinate).

    ``h`` takes ``mpmath.iv`` intervals (one per coordinate) and returns an interval enclosing its values.  For a
    one-dimensional box whose low end is ``anchor`` with ``h(anchor) = 0``, pass ``dh`` (the derivative, also on
    intervals): a box ``[anchor, b]`` is proved when the enclosure of ``dh`` on it is ≥ 0."""
    from mpmath import iv, mp

    if not box or any(not (lo <= hi) for lo, hi in box):
        raise ValueError(f"box must be a non-empty list of (low, high) with low <= high (got box={box!r})")
    if anchor is not None and (dh is None or len(box) != 1):
        raise ValueError("anchor needs dh and a one-dimensional box")
    old_iv, old_mp = iv.prec, mp.prec
    iv.prec = mp.prec = prec
    try:
        if anchor is not None and not h(iv.mpf(anchor)).a >= 0:
            raise ValueError(f"h must be >= 0 at the anchor (got h({anchor}) = {h(iv.mpf(anchor))})")
        stack = [(tuple((Fraction(lo), Fraction(hi)) for lo, hi in box), 0)]
        count = depth = 0
        while stack:
            b, d = stack.pop()
            count += 1
            depth = max(depth, d)
            if count > max_boxes:
                mid = [float((lo + hi) / 2) for lo, hi in b]
                return IntervalProof(False, count, depth, tuple((float(lo), float(hi)) for lo, hi in b),
                                     float(h(*[iv.mpf(m) for m in mid]).a))
            xs = [iv.mpf([mp.mpf(lo.numerator) / lo.denominator, mp.mpf(hi.numerator) / hi.denominator])
                  for lo, hi in b]
            if h(*xs).a >= 0:
                continue
            if anchor is not None and b[0][0] == Fraction(anchor) and dh(*xs).a >= 0:
                continue  # h(anchor) = 0 and h' ≥ 0 on the box
            widths = [hi - lo for lo, hi in b]
            k = int(np.argmax([float(w) for w in widths]))
            mid = [(lo + hi) / 2 for lo, hi in b]
            point = h(*[iv.mpf(mp.mpf(m.numerator) / m.denominator) for m in mid])
            if point.b < 0:
                return IntervalProof(False, count, depth, tuple((float(lo), float(hi)) for lo, hi in b), float(point.b))
            lo_k, hi_k = b[k]
            for part in ((lo_k, mid[k]), (mid[k], hi_k)):
                stack.append((b[:k] + (part,) + b[k + 1:], d + 1))
        return IntervalProof(True, count, depth)
    finally:
        iv.prec, mp.prec = old_iv, old_mp


@dataclass(frozen=True)
class LPCertificate:
    """An LP's primal value (a feasible point's objective, a lower bound on the optimum, in floats) and an exact
    rational upper bound from its dual; ``size`` is (variables, inequality rows, equality rows)."""

    primal: float
    primal_x: np.ndarray
    bound: Fraction
    size: tuple[int, int, int]


def _fractions(a) -> list:
    def exact(v):
        return v if type(v) is Fraction else Fraction(v)

    if len(a) and isinstance(a[0], (list, tuple, np.ndarray)):
        return [[exact(v) for v in row] for row in a]
    return [exact(v) for v in a]


def lp_upper_bound(c, A_ub, b_ub, A_eq, b_eq, upper, *, denominator: int = 10**9) -> LPCertificate:
    """Maximise ``c·x`` over ``A_ub x ≤ b_ub``, ``A_eq x = b_eq``, ``0 ≤ x ≤ upper`` (data given as Fractions or
    exact floats) with HiGHS, and return the primal value and an exact rational upper bound by weak duality."""
    from scipy.optimize import linprog

    cF, AuF, buF, AeF, beF, uF = (_fractions(x) for x in (c, A_ub, b_ub, A_eq, b_eq, upper))
    to_f = lambda m: (np.array([[float(v) for v in row] for row in m]) if m and isinstance(m[0], list)  # noqa: E731
                      else np.array([float(v) for v in m]))
    res = linprog(-to_f(cF), A_ub=to_f(AuF) if AuF else None, b_ub=to_f(buF) if buF else None,
                  A_eq=to_f(AeF) if AeF else None, b_eq=to_f(beF) if beF else None,
                  bounds=[(0, float(u)) for u in uF], method="highs")
    if res.status != 0:
        raise ValueError(f"the linear program did not solve (HiGHS status {res.status}: {res.message})")
    y = [max(Fraction(-float(v)).limit_denominator(denominator), Fraction(0))
         for v in res.ineqlin.marginals] if buF else []
    z = [Fraction(-float(v)).limit_denominator(denominator) for v in res.eqlin.marginals] if beF else []
    n = len(cF)
    bound = (sum((yi * bi for yi, bi in zip(y, buF)), Fraction(0))
             + sum((zi * bi for zi, bi in zip(z, beF)), Fraction(0)))
    for j in range(n):
        reduced = cF[j] - sum((y[i] * AuF[i][j] for i in range(len(y)) if AuF[i][j]), Fraction(0)) \
            - sum((z[i] * AeF[i][j] for i in range(len(z)) if AeF[i][j]), Fraction(0))
        if reduced > 0:
            bound += reduced * uF[j]
    return LPCertificate(float(-res.fun), res.x, bound, (n, len(buF), len(beF)))


def interval_verdict(h: Callable, box, lhs, rhs, labels, *, domain: str, tighten: float = 1.0, dh=None,
                     anchor=None, tail: str = "", prec: int = 80):
    """A :class:`~dpsemantics.claims.Verdict` for a relation ``lhs ≤ rhs`` proved on ``box`` by
    :func:`prove_nonnegative` applied to ``h`` (``h ≥ 0`` ⇔ the relation).  ``lhs``/``rhs``/``labels`` are the
    relation's values on a grid of the box (they give the margin and the worst case).  When the proof fails the
    kind falls back to ``closed-form`` and the failing box's midpoint joins the cases; ``tail`` is the written
    bound covering the part of the stated domain outside ``box``.  The proof is of the statement at ``tighten``
    (:func:`for_statement`): ``h`` takes a keyword ``tighten``, or for ``tighten < 1`` no proof is run and the kind
    is ``closed-form`` (the grid alone)."""
    from . import Verdict

    lhs, rhs, labels = list(lhs), list(rhs), list(labels)
    h_t = for_statement(h, tighten)
    domain = domain + (f"; beyond the box: {tail}" if tail else "")
    if h_t is None:
        return Verdict.of(lhs, rhs, evidence="closed-form", tighten=tighten, labels=labels, domain=domain,
                          certificate=f"the interval proof is of the printed bound, not of the bound × {tighten}; "
                                      f"the grid's {len(lhs)} cases only")
    proof = prove_nonnegative(h_t, box, dh=dh, anchor=anchor, prec=prec)
    if not proof.proved:
        lhs.append(-proof.value_at_midpoint), rhs.append(0.0)
        labels.append(f"box {proof.failing_box} not proved: h(midpoint) = {proof.value_at_midpoint:.6g}")
    return Verdict.of(lhs, rhs, evidence="certified-interval" if proof.proved else "closed-form", tighten=tighten,
                      labels=labels, domain=domain, certificate=proof.describe(prec))


def pointwise_hockey_lp(exp_eps: Fraction, delta: Fraction, outcomes: int, bad: int, event: int) -> LPCertificate:
    """The largest hockey stick p(E) − e^ε q(E) over pairs (p, q) on ``outcomes`` outcomes whose likelihood ratio lies in
    [e^{−ε}, e^ε] outside a set B of ``bad`` outcomes with p(B) ≤ δ and q(B) ≤ δ — point-wise (ε, δ)-
    indistinguishability (K&S Lemma 3.3 (1)), equivalently (ε, δ)-PDP in both orders (Kazan et al., Definition 2.4).
    The best event lies inside B (outside it p ≤ e^ε q), so by symmetry B and E are the first ``bad`` and ``event``
    outcomes (event ≤ bad)."""
    if not 1 <= event <= bad < outcomes:
        raise ValueError(f"need 1 <= event <= bad < outcomes (got event={event}, bad={bad}, outcomes={outcomes})")
    m, E, o, i = outcomes, exp_eps, Fraction(0), Fraction(1)
    A, b = [], []
    for y in range(bad, m):  # good outcomes: p ≤ E q and q ≤ E p
        row = [o] * (2 * m)
        row[y], row[m + y] = i, -E
        A.append(row), b.append(o)
        row = [o] * (2 * m)
        row[m + y], row[y] = i, -E
        A.append(row), b.append(o)
    A.append([i if y < bad else o for y in range(m)] + [o] * m), b.append(delta)
    A.append([o] * m + [i if y < bad else o for y in range(m)]), b.append(delta)
    A_eq = [[i] * m + [o] * m, [o] * m + [i] * m]
    c = [i if y < event else o for y in range(m)] + [-E if y < event else o for y in range(m)]
    return lp_upper_bound(c, A, b, A_eq, [i, i], [i] * (2 * m))


def pointwise_hockey_verdict(exp_eps_values, deltas, outcomes=(3, 4), *, tighten: float = 1.0):
    """Verdict for 'point-wise (ε, δ) ⇒ (ε, δ)-indistinguishable' (equivalently '(ε, δ)-PDP ⇒ (ε, δ)-DP'), certified by
    :func:`pointwise_hockey_lp` at every rational e^ε and δ given, every bad set and event: the exact dual bound
    must be ≤ ``tighten``·δ (the statement at ``tighten``), else the LP's primal value is a case of a search."""
    from . import Verdict

    lhs, rhs, labels, sizes, exact = [], [], [], set(), 0
    for E in exp_eps_values:
        for delta in deltas:
            for m in outcomes:
                for bad in range(1, m):
                    for event in range(1, bad + 1):
                        cert = pointwise_hockey_lp(E, delta, m, bad, event)
                        sizes.add(cert.size)
                        proved = cert.bound <= Fraction(tighten) * delta
                        exact += proved
                        lhs.append(cert.primal if proved else float(cert.bound)), rhs.append(float(delta))
                        labels.append(f"e^ε = {E}, δ = {delta}, {m} outcomes, {bad} bad, event of size {event}")
    n = len(lhs)
    return Verdict.of(lhs, rhs, evidence="certified-lp" if exact == n else "optimised-search", tighten=tighten,
                      labels=labels,
                      domain=f"every pair on {' or '.join(map(str, outcomes))} outcomes, every bad set and event, at "
                             f"e^ε ∈ {{{', '.join(map(str, exp_eps_values))}}} and δ ∈ "
                             f"{{{', '.join(map(str, deltas))}}}",
                      certificate=f"{n} LPs of sizes {lp_sizes(sizes)} (HiGHS); the exact "
                                  f"rational dual bound is ≤ δ in {exact} of {n}")


def lp_sizes(sizes) -> str:
    """LP sizes for a reader: "21/16/3 and 28/20/3 (variables/inequality rows/equality rows)"."""
    shown = [f"{v}/{i}/{e}" for v, i, e in sorted(set(map(tuple, sizes)))]
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    return f"{listed} (variables/inequality rows/equality rows)"


# --- Certified counterexamples and exact evaluations (K&S and Zhao; helper certb) ------------------------------


def interval_refutation(h: Callable, point, lhs, rhs, labels, *, domain: str, tighten: float = 1.0,
                        prec: int = 80):
    """A :class:`~dpsemantics.claims.Verdict` for a relation ``lhs ≤ rhs`` that is *false*, with a certified
    counterexample: ``h`` (``tighten·rhs − lhs`` written on ``mpmath.iv`` intervals) evaluated at ``point`` (exact
    rationals, one per coordinate) has an enclosure wholly below 0, so the relation fails there whatever the
    rounding.  ``lhs``/``rhs``/``labels`` are the grid that gives the margin and the worst case.  When the enclosure
    does not lie below 0 the kind falls back to ``closed-form`` (the counterexample is not certified)."""
    from mpmath import iv, mp

    from . import Verdict

    old_iv, old_mp = iv.prec, mp.prec
    iv.prec = mp.prec = prec
    try:
        value = h(*[iv.mpf(Fraction(x).numerator) / Fraction(x).denominator for x in point])
        refuted = value.b < 0
        upper = float(value.b)
    finally:
        iv.prec, mp.prec = old_iv, old_mp
    shown = ", ".join(str(Fraction(x)) for x in point)
    return Verdict.of(lhs, rhs, evidence="certified-interval" if refuted else "closed-form", tighten=tighten,
                      labels=labels, domain=domain,
                      certificate=(f"counterexample at ({shown}), one degenerate box (boxes: 1): the mpmath.iv "
                                   f"enclosure ({prec} bits) of bound − lhs lies below {upper:.6g} < 0" if refuted else
                                   f"counterexample at ({shown}) not certified: enclosure of bound − lhs reaches "
                                   f"{upper:.6g}"))


def iv_hockey_stick(p, q, exp_eps):
    """max over events E of p(E) − e^ε q(E) (and 0), for exact rational ``p``, ``q`` and an interval ``exp_eps``:
    an interval enclosure (the best event is the set of outcomes where p > e^ε q; every event is tried, 2^m of
    them, m ≤ 12, so no sign decision is needed)."""
    from mpmath import iv

    m = len(p)
    if m > 12 or len(q) != m:
        raise ValueError(f"p and q must have equal length <= 12 (got {len(p)} and {len(q)})")
    lo = hi = iv.mpf(0).a
    for mask in range(1, 2 ** m):
        pe = sum((Fraction(p[a]) for a in range(m) if mask >> a & 1), Fraction(0))
        qe = sum((Fraction(q[a]) for a in range(m) if mask >> a & 1), Fraction(0))
        v = iv.mpf(pe.numerator) / pe.denominator - exp_eps * (iv.mpf(qe.numerator) / qe.denominator)
        lo, hi = max(lo, v.a), max(hi, v.b)
    return iv.mpf([lo, hi])


def iv_pointwise_delta(p, q, exp_eps) -> Fraction:
    """The smallest δ for which exact rational ``p`` and ``q`` are point-wise (ε, δ)-indistinguishable (K&S
    Definition 3.2): max(p(Bad), q(Bad)), Bad the outcomes whose ratio leaves [e^{−ε}, e^ε].  Each outcome's side is
    decided by an interval enclosure (``exp_eps`` an interval); an outcome whose side the enclosure cannot decide
    raises ``ValueError``, so the returned rational is exact."""
    from mpmath import iv

    bad_p = bad_q = Fraction(0)
    for a, (pa, qa) in enumerate(zip(p, q)):
        pa, qa = Fraction(pa), Fraction(qa)
        P, Q = iv.mpf(pa.numerator) / pa.denominator, iv.mpf(qa.numerator) / qa.denominator
        up, down = P - exp_eps * Q, Q - exp_eps * P
        if up.a > 0 or down.a > 0:
            bad_p, bad_q = bad_p + pa, bad_q + qa
        elif not (up.b <= 0 and down.b <= 0):
            raise ValueError(f"outcome {a}: whether its ratio leaves [e^-eps, e^eps] is not decided (p={pa}, q={qa})")
    return max(bad_p, bad_q)


def iv_erf(x, *, prec: int = 160):
    """A rigorous interval enclosure of erf(x) for an interval ``x`` with |x| ≤ 6: the Maclaurin series
    2/√π Σ (−1)^k x^{2k+1}/(k!(2k+1)), summed in interval arithmetic until its terms decrease (k > x²) and are
    below 2^{−prec}; the alternating tail is then enclosed by ± the first omitted term."""
    from mpmath import iv

    if not max(abs(x.a), abs(x.b)) <= 6:
        raise ValueError(f"x must lie within [-6, 6] (got x={x})")
    x2 = x * x
    term, total, k = x, x, 0
    bound = float(max(abs(x.a), abs(x.b))) ** 2
    while True:
        k += 1
        term = -term * x2 / k
        total += term / (2 * k + 1)
        nxt = abs((term * x2 / (k + 1)).b) / (2 * k + 3)
        if k > bound + 1 and nxt < 2.0 ** -prec:
            break
    total += iv.mpf([-nxt, nxt])
    return 2 / iv.sqrt(iv.pi) * total


def iv_ncdf(x):
    """Φ(x) = (1 + erf(x/√2))/2 on intervals, through :func:`iv_erf` (|x| ≤ 8)."""
    from mpmath import iv

    return (1 + iv_erf(x / iv.sqrt(iv.mpf(2)))) / 2


def mechanism_lp(n: int, outputs: int, exp_eps: Fraction, delta: Fraction, objective, fixed=()) -> LPCertificate:
    """max Σ objective[z][o]·A(z, o) over every mechanism A on {0, 1}ⁿ with ``outputs`` outputs that is (ε, δ)-DP
    (Definition 2.3: for neighbours z, z′ and every event E, A(z)(E) ≤ e^ε A(z′)(E) + δ; ε_SD-TV closeness is
    e^ε = 1, δ = ε_SD), solved with HiGHS and bounded by an exact rational dual
    (:func:`~dpsemantics.claims.certify.lp_upper_bound`).  ``objective`` maps a database (tuple) to its row of
    coefficients (Fractions); ``fixed`` adds equality rows, each ``(coefficients like objective, value)``."""
    dbs = list(itertools.product((0, 1), repeat=n))
    index = {z: k for k, z in enumerate(dbs)}
    o, i, m = Fraction(0), Fraction(1), outputs
    size = len(dbs) * m
    A, b = [], []
    for z in dbs:
        for j in range(n):
            z2 = z[:j] + (1 - z[j],) + z[j + 1:]
            for mask in range(1, 2 ** m - 1):
                row = [o] * size
                for out in range(m):
                    if mask >> out & 1:
                        row[index[z] * m + out] += i
                        row[index[z2] * m + out] -= exp_eps
                A.append(row), b.append(delta)
    A_eq = [[i if k // m == index[z] else o for k in range(size)] for z in dbs]
    def row(coefficients):
        r = [o] * size
        for z, coeffs in coefficients.items():
            for out, v in enumerate(coeffs):
                r[index[z] * m + out] += Fraction(v)
        return r

    b_eq = [i] * len(dbs)
    for coefficients, value in fixed:
        A_eq.append(row(coefficients)), b_eq.append(Fraction(value))
    return lp_upper_bound(row(objective), A, b, A_eq, b_eq, [i] * size)


# ---------------------------------------------------------------- parametric certificates (whole domains)


@dataclass(frozen=True)
class IdentityProof:
    """The outcome of :func:`rational_identity`: ``proved`` on a grid of ``points`` exact rational points, or the
    first point where the function is not 0 (``counterexample``, with its exact ``value``)."""

    proved: bool
    points: int
    degree: int
    counterexample: tuple = ()
    value: Fraction = Fraction(0)

    def describe(self) -> str:
        if self.proved:
            return f"≡ 0 (exact rationals on a {self.points}-point grid, degree ≤ {self.degree} per variable)"
        return f"not ≡ 0: {float(self.value):.6g} at {tuple(str(x) for x in self.counterexample)}"


class _Degrees:
    """A degree bound carried through a computation: ``num`` and ``den`` bound, per variable, the degrees of a
    numerator and a denominator whose quotient is the value computed (not reduced; the numerator in lowest terms
    divides this one, so its degree is no larger).  Supports exactly the field operations and integer powers, so a
    function that does anything else (a comparison, ``abs``, ``math.exp``) raises ``TypeError``: it is not known to be
    rational, and :func:`rational_identity` refuses it."""

    __slots__ = ("num", "den")

    def __init__(self, num, den):
        self.num, self.den = tuple(num), tuple(den)

    @staticmethod
    def _of(other, n):
        if isinstance(other, _Degrees):
            return other
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            return _Degrees((0,) * n, (0,) * n)
        raise TypeError(f"not a field operation on a rational function: {type(other).__name__}")

    def _sum(self, other):
        o = self._of(other, len(self.num))
        num = tuple(max(a + d, b + c) for a, b, c, d in zip(self.num, o.num, self.den, o.den))
        return _Degrees(num, tuple(c + d for c, d in zip(self.den, o.den)))

    def _product(self, other):
        o = self._of(other, len(self.num))
        return _Degrees(tuple(a + b for a, b in zip(self.num, o.num)), tuple(c + d for c, d in zip(self.den, o.den)))

    def _quotient(self, other):
        o = self._of(other, len(self.num))
        return _Degrees(tuple(a + d for a, d in zip(self.num, o.den)), tuple(c + b for c, b in zip(self.den, o.num)))

    __add__ = __radd__ = __sub__ = __rsub__ = _sum
    __mul__ = __rmul__ = _product
    __truediv__ = _quotient

    def __rtruediv__(self, other):
        return self._of(other, len(self.num))._quotient(self)

    def __neg__(self):
        return self

    __pos__ = __neg__

    def __pow__(self, k):
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError(f"not an integer power: {k!r}")
        num, den = (self.num, self.den) if k >= 0 else (self.den, self.num)
        return _Degrees(tuple(abs(k) * a for a in num), tuple(abs(k) * c for c in den))


def numerator_degrees(f: Callable, nvars: int) -> tuple[int, ...]:
    """A proved upper bound, per variable, on the degree of the numerator of ``f`` (computed with field operations
    and integer powers only), from the computation itself (:class:`_Degrees`); ``TypeError`` when ``f`` does
    anything else."""
    args = [_Degrees(tuple(int(i == j) for j in range(nvars)), (0,) * nvars) for i in range(nvars)]
    value = f(*args)
    return _Degrees._of(value, nvars).num


#: The most exact evaluations :func:`rational_identity` spends on one grid.
MAX_IDENTITY_POINTS = 200_000


def rational_identity(f: Callable, nvars: int, degree: int, *, shifts: int = 6) -> IdentityProof:
    """Prove that ``f`` (a rational function of ``nvars`` variables, computed with field operations only) is
    identically 0.

    The degree of its numerator in each variable is bounded from the computation itself
    (:func:`numerator_degrees`), never assumed: ``degree`` is a floor on the grid (at least ``degree + 1`` values
    per variable), and a variable whose proved bound is higher gets ``bound + 1`` values.  ``f`` is evaluated
    exactly (:class:`fractions.Fraction`) on that product grid; where the evaluation divides by nothing that is 0,
    the value is the numerator's value over a non-zero denominator, and a polynomial of degree ≤ dᵢ in each
    variable that vanishes on a grid of dᵢ + 1 values per variable is the zero polynomial.  A grid that meets a pole
    is replaced by a shifted one.  A non-zero value refutes the identity (it is returned).  A grid of more than
    :data:`MAX_IDENTITY_POINTS` points is refused (``ValueError``), as is a function that is not rational
    (``TypeError``)."""
    from itertools import product

    if nvars < 1 or degree < 0:
        raise ValueError(f"need nvars >= 1 and degree >= 0 (got nvars={nvars}, degree={degree})")
    sizes = [max(degree, bound) + 1 for bound in numerator_degrees(f, nvars)]
    if math.prod(sizes) > MAX_IDENTITY_POINTS:
        raise ValueError(f"the numerator's proved degree bounds {[n - 1 for n in sizes]} need a grid of "
                         f"{math.prod(sizes)} points, more than {MAX_IDENTITY_POINTS}")
    for shift in range(shifts):
        axes = [[Fraction(k + 2) + Fraction(i + 1, 89 + 7 * shift) for k in range(size)]
                for i, size in enumerate(sizes)]
        try:
            count = 0
            for point in product(*axes):
                value = Fraction(f(*point))
                count += 1
                if value != 0:
                    return IdentityProof(False, count, max(sizes) - 1, point, value)
            return IdentityProof(True, count, max(sizes) - 1)
        except ZeroDivisionError:
            continue
    raise ValueError(f"every grid tried meets a pole of f (shifts={shifts})")


@dataclass(frozen=True)
class ParametricProof:
    """A conjunction of checks ``g ≥ 0`` on a parameter box, each proved as an identity (``g ≡ 0``, exact) or by
    :func:`prove_nonnegative`; ``failures`` names the checks that could not be proved."""

    proved: bool
    identities: int
    boxes: int
    failures: tuple[str, ...] = ()

    def describe(self, unit: str = "boxes") -> str:
        text = f"{_count(self.identities, 'check')} ≡ 0 in exact rationals"
        if self.boxes:
            text += f", the others by mpmath.iv branch-and-bound ({self.boxes} {unit})"
        return text if self.proved else text + "; not proved: " + "; ".join(self.failures)


def nonnegative_on_box(checks, box, *, degree: int = 8, prec: int = 80, max_boxes: int = 500) -> ParametricProof:
    """Prove every ``g ≥ 0`` of ``checks`` (a list of (name, g); each ``g`` takes one value per coordinate of ``box``
    and computes with field operations, so that it runs on Fractions and on ``mpmath.iv`` intervals alike) on the
    whole ``box``: first as an identity ``g ≡ 0`` (:func:`rational_identity`, numerator degree ≤ ``degree``), else
    by interval branch-and-bound (at most ``max_boxes`` boxes per check: the checks are written so that few suffice).
    A ``g`` that is not rational (it calls ``mpmath.iv`` functions) goes to the interval proof directly."""
    from mpmath import iv

    identities = boxes = 0
    failures = []
    for name, g in checks:
        try:
            identity = rational_identity(g, len(box), degree).proved
        except (TypeError, NotImplementedError, ValueError):
            identity = False
        if identity:
            identities += 1
            continue
        proof = prove_nonnegative(lambda *x, g=g: g(*x) + iv.mpf(0), box, prec=prec, max_boxes=max_boxes)
        boxes += proof.boxes
        if not proof.proved:
            failures.append(f"{name}: {proof.describe(prec)}")
    return ParametricProof(not failures, identities, boxes, tuple(failures))


def constant(value, like):
    """``value`` (a float, exact in binary, or a Fraction) in the arithmetic of ``like``: an ``mpmath.iv`` interval
    when ``like`` is one, else a Fraction (exact; also what the degree bound of :func:`~.certify.rational_identity`
    takes as a constant)."""
    from mpmath import iv

    if hasattr(like, "_mpi_"):
        v = Fraction(value)
        return iv.mpf(v.numerator) / v.denominator
    return Fraction(value)


def parametric_dual_proof(c: Callable, A: Callable, b: Callable, y: Callable, target: Callable, box, *,
                          degree: int = 8, slack: Callable | None = None) -> ParametricProof:
    """Certify ``max c·x s.t. A x ≤ b, x ≥ 0  ≤ target`` for every parameter θ in ``box`` by a dual ``y(θ)`` written in
    closed form: weak duality needs ``y ≥ 0``, ``Aᵀy ≥ c`` and ``y·b ≤ target``.  ``c``, ``A``, ``b``, ``y``, ``target``
    take θ (one value per coordinate) and return lists (``A`` a list of rows) or a value; each inequality is proved
    on the whole box by :func:`nonnegative_on_box` (tight ones as exact identities).  ``slack``, if given, is
    ``target − y·b`` rewritten in a form whose sign the interval enclosure shows (a tight bound: a product of
    factors that vanish where the bound is attained): the rewriting is proved an exact identity and ``slack ≥ 0``
    is proved in its place."""
    def component(fn, *index):
        def g(*theta):
            value = fn(*theta)
            for i in index:
                value = value[i]
            return value
        return g

    probe = [Fraction(lo + hi) / 2 if math.isfinite(lo + hi) else Fraction(1) for lo, hi in box]
    m, n = len(b(*probe)), len(c(*probe))
    checks = [(f"y[{i}] ≥ 0", component(y, i)) for i in range(m)]
    for j in range(n):
        def reduced(*theta, j=j):
            rows, dual = A(*theta), y(*theta)
            return sum(rows[i][j] * dual[i] for i in range(m)) - c(*theta)[j]
        checks.append((f"(Aᵀy − c)[{j}] ≥ 0", reduced))
    def gap(*theta):
        return target(*theta) - sum(bi * yi for bi, yi in zip(b(*theta), y(*theta)))

    if slack is None:
        checks.append(("target − y·b ≥ 0", gap))
    else:
        checks += [("target − y·b − slack ≡ 0", lambda *theta: gap(*theta) - slack(*theta)),
                   ("slack ≥ 0", slack)]
    return nonnegative_on_box(checks, box, degree=degree)


def averaged_neighbours_proof(tighten: float = 1.0) -> ParametricProof:
    """Averages of neighbours: if A(u, z)(φ) ≤ e^ε A(v, z)(φ) + δ for every neighbour pair that differs in one record
    (u against v) and every value z of the other records, then for u ~ μ, v ~ ν and z ~ π drawn independently (the
    other records independent of the tested one), P = E[A(u, z)(φ)] and Q = E[A(v, z)(φ)] satisfy P − e^ε Q ≤ δ (the
    average of the pair inequalities), for every [0, 1]-valued φ (a randomized test, an output event).  The claim
    P ≤ t(e^ε Q + δ) (t = ``tighten``) is then the LP max P − t e^ε Q s.t. P − e^ε Q ≤ δ, P ≤ 1 with the dual
    (t, 1 − t), value tδ + (1 − t): the slack is −(1 − t), ≥ 0 exactly when t = 1.  Box e^ε ∈ [1, 10¹²], δ ∈ [0, 1];
    every check is an identity or a sign of t, so the same holds beyond (written)."""
    def t(x):
        return constant(tighten, x)

    return parametric_dual_proof(lambda E, d: [1, -t(E) * E], lambda E, d: [[1, -E], [1, 0]], lambda E, d: [d, 1],
                                 lambda E, d: [t(E), 1 - t(E)], lambda E, d: t(E) * d, [(1.0, 1e12), (0.0, 1.0)],
                                 slack=lambda E, d: -(1 - t(E)))


def randomized_response_exact(exp_eps: Fraction = Fraction(2)):
    """Randomized response on one record, exactly: P[y = 1 | x = 1] = e^ε/(1 + e^ε) = e^ε·P[y = 1 | x = 0], and its
    δ at ε is 0 (checked).  Returns (P[y = 1 | x = 1], P[y = 1 | x = 0]): the bound e^ε·α of a test, and the ratio
    e^ε of a likelihood, attained."""
    E = Fraction(exp_eps)
    one, zero = (E / (1 + E), 1 / (1 + E)), (1 / (1 + E), E / (1 + E))
    if any(a > E * b or b > E * a for a, b in zip(one, zero)):
        raise ValueError(f"randomized response must be exactly eps-DP (got e^eps={E})")
    return one[0], zero[0]


def parametric_verdict(proof, cases, counterexample, tighten: float, *, domain: str, certificate: str,
                       kind: str = "certified-lp"):
    """A :class:`~dpsemantics.claims.Verdict` from a parametric certificate of a relation ``lhs ≤ t·rhs``
    (t = ``tighten``): ``cases`` (label, lhs, rhs) give the margin and the worst case.  When ``proof`` (a
    :class:`ParametricProof` of the tightened statement) holds, the verdict has ``kind`` (a dual in closed form:
    certified-lp; an interval proof: certified-interval) on ``domain``; when it fails, ``counterexample`` (label,
    lhs, rhs as exact Fractions whose hypotheses the caller has checked exactly, or None) is compared exactly
    (lhs > t·rhs) and joins the cases: a certified counterexample (the same kind, refuted); without one the verdict
    is the cases' search."""
    from . import Verdict

    labels, lhs, rhs = (list(x) for x in zip(*cases))
    unit = "cells" if kind == "certified-lp" else "boxes"
    if proof.proved:
        lead = "Parametric LPs (duals in closed form, checked on the whole domain): " if kind == "certified-lp" else ""
        return Verdict.of(lhs, rhs, evidence=kind, tighten=tighten, labels=labels, domain=domain,
                          certificate=f"{lead}{proof.describe(unit=unit)}. {certificate}")
    what = "the parametric LPs' duals fail" if kind == "certified-lp" else "the parametric certificate fails"
    failed = f"{what}: {proof.describe(unit=unit)}"
    if counterexample is not None and counterexample[1] > Fraction(tighten) * counterexample[2]:
        label, a, b = counterexample
        return Verdict.of(lhs + [float(a)], rhs + [float(b)], evidence=kind, tighten=tighten,
                          labels=labels + [label], domain=f"refuted: {label}",
                          certificate=f"exact rational counterexample: {float(a):.9g} > {tighten}·{float(b):.9g} "
                                      f"(its hypotheses checked in exact rationals); {failed}")
    return Verdict.of(lhs, rhs, evidence="optimised-search", tighten=tighten, labels=labels, certificate=failed)


def certified_by(search: Callable, proofs, *, kind: str, domain: str, reduction: str) -> Callable:
    """A claim's ``compute(tighten)`` from a search and proofs: the search's verdict gives the cases, the margin and the
    worst case; ``proofs`` (a list of (name, proof or a function returning one), each with ``proved`` and
    ``describe()``) prove the printed statement on ``domain`` through ``reduction`` (the written step that joins
    them).  If every proof holds the verdict's kind becomes ``kind``; if one fails, the kind stays the search's and
    the certificate names the failure.  A proof is of the statement at ``compute``'s ``tighten``
    (:func:`for_statement`): a callable proof that takes ``tighten`` is called with it; below 1, a proof that does
    not take it (a proof of the printed bound) certifies nothing, and the search's verdict is returned as it is."""
    from dataclasses import replace

    def compute(tighten=1.0):
        v = search(tighten=tighten)
        bound = [(name, for_statement(proof, tighten) if callable(proof) else proof if tighten >= 1 else None)
                 for name, proof in proofs]
        if any(proof is None for _, proof in bound):
            untaken = ", ".join(name for name, proof in bound if proof is None)
            return replace(v, certificate=f"no certificate at tighten = {tighten} (the proofs of {untaken} are of "
                                          f"the printed bound); {v.certificate}")
        done = [(name, proof() if callable(proof) else proof) for name, proof in bound]
        failed = [f"{name}: {p.describe()}" for name, p in done if not p.proved]
        if failed:
            return replace(v, certificate=f"certificate failed ({'; '.join(failed)}); {v.certificate}")
        # an LP certificate names its LPs; interval regions inside it are "cells" (boxes name interval proofs)
        text = "; ".join(f"{name}: {p.describe(unit='cells' if kind == 'certified-lp' else 'boxes')}"
                         for name, p in done)
        lead = "Parametric LPs (duals in closed form, checked on the whole domain). " if kind == "certified-lp" else ""
        return replace(v, evidence=(kind,), methods=(), domain=domain, points=(),  # the proofs cover ``domain``
                       certificate=f"{lead}{reduction} {text}. Margin and worst case from {v.cases} cases "
                                   f"({', '.join(v.methods) or v.kind}).")
    return compute


@dataclass(frozen=True)
class PointProof:
    """Interval enclosures of named quantities at fixed parameters, and whether each lies where it must."""

    proved: bool
    enclosures: tuple[str, ...]

    def describe(self, unit: str = "boxes") -> str:
        return (("" if self.proved else "not proved: ") + f"enclosures on {len(self.enclosures)} point {unit}: "
                + ", ".join(self.enclosures))


def interval_facts(facts, *, prec: int = 80) -> PointProof:
    """Evaluate each (name, value, low, high) — ``value`` a function returning an ``mpmath.iv`` interval — and prove
    low ≤ value ≤ high (``None``: unbounded) from its enclosure: a rigorous check of a computed number, e.g. a
    counterexample's."""
    from mpmath import iv, mp

    old_iv, old_mp = iv.prec, mp.prec
    iv.prec = mp.prec = prec
    try:
        ok, shown = True, []
        for name, value, low, high in facts:
            x = value()
            good = (low is None or x.a >= low) and (high is None or x.b <= high)
            ok &= bool(good)
            lo, hi = (mp.mpf(end) for end in x._mpi_)
            shown.append(f"{name} ∈ [{mp.nstr(lo, 8)}, {mp.nstr(hi, 8)}]" + ("" if good else " (fails)"))
        return PointProof(ok, tuple(shown))
    finally:
        iv.prec, mp.prec = old_iv, old_mp


def against_supremum(search: Callable, supremum: float, source: str) -> Callable:
    """A search's ``compute(tighten)`` that records the known supremum of lhs/rhs over the statement's domain (from a
    construction or the paper, named in ``source``) and the margin's ratio to it.  A margin equal to an attained
    supremum cannot be beaten by any second optimiser without refuting the statement, so none is run."""
    from dataclasses import replace

    if not supremum > 0:
        raise ValueError(f"supremum must be > 0 (got supremum={supremum!r})")

    def compute(tighten=1.0):
        v = search(tighten=tighten)
        return replace(v, supremum=supremum, supremum_from=source)
    return compute


def verdict_from(search: Callable, fields: Sequence[str] = (), *, second: Callable | None = None, cache: bool = False,
                 **fixed) -> Callable:
    """The one adapter from a search to a claim's ``compute(tighten=1.0)``: ``search()`` returns
    ``(lhs, rhs, labels, *values)``, ``fields`` names the :meth:`~dpsemantics.claims.Verdict.of` keyword of each value
    (``"evidence"``, ``"domain"``, ``"certificate"``), ``fixed`` holds the keywords common to every call (e.g.
    ``evidence``, ``supremum``).  ``second``, if given, returns ``(description, best ratio)`` of a second, different
    optimiser.  With ``cache`` the search runs once (:func:`functools.cache`); ``compute.search`` is the search."""
    import functools

    from . import Verdict

    if cache:
        search = functools.cache(search)

    def compute(tighten: float = 1.0) -> Verdict:
        lhs, rhs, labels, *values = search()
        if len(values) != len(fields):
            raise ValueError(f"search must return (lhs, rhs, labels) and one value per field (got {len(values)} "
                             f"values for fields={tuple(fields)!r})")
        keywords = dict(fixed, **dict(zip(fields, values)))
        if second is not None:
            keywords["second"], keywords["second_best"] = second()
        return Verdict.of(lhs, rhs, tighten=tighten, labels=labels, **keywords)

    if hasattr(search, "__name__"):  # a function, not a functools.partial or a lambda's closure
        compute.__doc__, compute.__name__ = search.__doc__, search.__name__.replace("_search", "")
    compute.search = search
    return compute
