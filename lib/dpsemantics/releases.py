"""Releases as objects: the mechanisms a release is made of, each answering the questions a reader asks.

A published release is a mechanism (or several) run on one database.  Each class here holds one kind of
mechanism with its parameters and answers, by calling the package's mathematical functions:

* ``delta(eps)``: its privacy profile (Kazan et al. Definition 2.1; exact where the package has it, an upper
  bound otherwise), ``epsilon(delta)`` its inverse;
* ``pdp_epsilon(delta_prime)``: the smallest probabilistic-DP ε′ known at δ′ (Kazan et al. Definition 2.4,
  Theorem 3.9 along the profile, or the mechanism's own privacy-loss law through Theorem 3.1);
* ``rho()``: its zCDP parameter where it has one (Bun & Steinke 2016), ``pure_epsilon()`` its ε when pure;
* the law of its privacy loss where it is known in closed form (:class:`~dpsemantics.privacy_loss.PrivacyLoss`),
  and as a privacy-loss distribution
  (:class:`~dpsemantics.pld.PrivacyLossDistribution`, pessimistic and optimistic sides) for composition;
* ``repeat(k)`` and :class:`Composed`: composition (Kazan et al. Theorems 2.8 and 2.9).

A mechanism known only by its guarantee (:class:`ApproxDP`, :class:`ZCDP`) has no privacy-loss law: every
mechanism with that guarantee is possible, so only worst-case answers are given for it.

This module sits on the mathematical floor: it imports :mod:`~dpsemantics.mechanisms`,
:mod:`~dpsemantics.composition`, :mod:`~dpsemantics.conversions`, :mod:`~dpsemantics.privacy_loss` and
:mod:`~dpsemantics.disclosure`, never the book's tooling.  Answers are *total* over valid parameters: where a numerical route gives up (an ε beyond
its search range, an overflow), the answer falls back to a coarser guarantee that is still valid, or to
"no guarantee" (ε′ = ∞), and says which route it took.
"""

from __future__ import annotations

import functools
import inspect
import math
import sys
from dataclasses import dataclass
from fractions import Fraction

from ._lazy import Lazy
from .errors import NumericalLimit, ParameterError

# The numerical floor, imported on first use: the mechanisms' declarations (fields, ranges, help) are read by the
# release report's --help and refusals before NumPy is loaded (see dpsemantics._lazy).
# Each module is named as a constant string, so that tests/unit/test_layers.py reads these imports too.
np = Lazy("numpy")
_rounding = Lazy("dpsemantics._rounding")
composition = Lazy("dpsemantics.composition")
conversions = Lazy("dpsemantics.conversions")
disclosure = Lazy("dpsemantics.disclosure")
mechanisms = Lazy("dpsemantics.mechanisms")
PrivacyLossDistribution = Lazy("dpsemantics.pld", "PrivacyLossDistribution")
tilted_self_composition = Lazy("dpsemantics.pld", "tilted_self_composition")
PrivacyLoss = Lazy("dpsemantics.privacy_loss", "PrivacyLoss")
as_float, check_delta, check_epsilon, check_positive, check_positive_int = (
    Lazy("dpsemantics._validate", name) for name in ("as_float", "check_delta", "check_epsilon", "check_positive",
                                                      "check_positive_int"))

__all__ = [
    "Field",
    "PdpPoint",
    "ExactLoss",
    "Mechanism",
    "Laplace",
    "Gaussian",
    "Geometric",
    "RandomizedResponse",
    "ApproxDP",
    "ZCDP",
    "DiscreteGaussian",
    "Composed",
    "K_MAX",
    "FROM_FIELDS",
    "from_fields",
]

#: The largest number of runs of one mechanism a release may hold (the lattice composition's limit).
K_MAX = 10**9
#: The failures a numerical route may meet on valid input, on which an answer falls back to a coarser valid one; any
#: other error (a ValueError from a bug, such as a profile that is not vectorised) is raised.
_NUMERIC = (NumericalLimit, OverflowError, FloatingPointError, ZeroDivisionError)


@dataclass(frozen=True)
class Field:
    """One parameter of a mechanism as a release gives it (a ``--flag`` of the report, a key of its JSON file).

    ``name`` is the release's word, ``symbol`` the report's (``"ε"``), ``help`` what it means for this mechanism.
    The domain: a real number between ``low`` and ``high`` (each end open or closed, finite values only), or with
    ``whole`` a whole number ≥ ``low`` (``low_open`` is then ignored).  ``rational``: how an exact rational "a/b" is rounded to a float, ``"up"``
    where a larger value is the safe side (ε, δ, ρ, a sensitivity), ``"down"`` where a smaller one is (σ).
    ``attribute``: the mechanism's attribute holding it (``None`` when only the class's ``from_fields`` reads it);
    ``required``: a release naming the mechanism must give it."""

    name: str
    symbol: str
    help: str
    attribute: str | None = None
    low: float = 0.0
    low_open: bool = True
    high: float = math.inf
    high_open: bool = True
    whole: bool = False
    rational: str = "up"
    required: bool = False

    def __post_init__(self):
        if not (self.name and self.symbol and self.help) or self.rational not in ("up", "down"):
            raise TypeError(f"a Field needs a name, a symbol, a help text and a rounding 'up' or 'down' (got {self!r})")

    def domain(self) -> dict:
        """The domain as keyword arguments (``low``, ``low_open``, ``high``, ``high_open``, ``whole``)."""
        return {"low": self.low, "low_open": self.low_open and not self.whole, "high": self.high,
                "high_open": self.high_open, "whole": self.whole}

    def range_text(self) -> str:
        """The domain in words: ``"> 0"``, ``"in [0, 1)"``, ``"a whole number >= 1"``."""
        if self.whole:
            return f"a whole number >= {self.low:g}"
        if math.isinf(self.high):
            return f"{'>' if self.low_open else '>='} {self.low:g}"
        return f"in {'(' if self.low_open else '['}{self.low:g}, {self.high:g}{')' if self.high_open else ']'}"

    def check(self, value):
        """``value`` as a float (an int for a whole number) in the domain, or a
        ``ParameterError`` naming this field."""
        if self.whole:
            return check_positive_int(value, self.name, minimum=int(self.low))
        x = float(as_float(value, self.name, scalar=True))
        if not math.isfinite(x):
            raise ParameterError(self.name, f"must be finite (got {self.name}={value!r})")
        below = x <= self.low if self.low_open else x < self.low
        above = x >= self.high if self.high_open else x > self.high
        if below or above:
            raise ParameterError(self.name, f"must be {self.range_text()} (got {self.name}={value!r})")
        return x


#: Every mechanism a release may name, by that name, filled as each class declaring its ``fields`` is defined
#: (``Mechanism.__init_subclass__``): the report's flags, help, checks and symbols and the tests' tables are
#: read from here.
FROM_FIELDS: dict = {}


@dataclass(frozen=True)
class PdpPoint:
    """A probabilistic-DP guarantee ε′ at δ′ and the (ε, δ)-DP point it came from.  ``eps_prime`` is ``inf``
    when the route gives no guarantee at this δ′."""

    eps_prime: float
    eps: float
    delta: float
    method: str
    theorems: str


@dataclass(frozen=True)
class ExactLoss:
    """The mechanism's own privacy-loss law at δ′ (Kazan et al. Theorem 3.1): ``threshold`` bounds the loss
    that moves the posterior up with probability ≥ 1 − δ′ (both hypotheses), ``pdp_eps`` is the mechanism's
    own PDP ε′ (Definition 2.4); ``is_bound`` when the law was rounded to the safe side.  ``threshold_low`` and
    ``pdp_eps_low`` are lower bounds on the exact values (equal to the values when they are exact): the exact
    threshold lies in [threshold_low, threshold], the exact ε′ in [pdp_eps_low, pdp_eps]."""

    threshold: float
    pdp_eps: float
    method: str
    is_bound: bool
    threshold_low: float | None = None
    pdp_eps_low: float | None = None

    def __post_init__(self):
        if self.threshold_low is None:
            object.__setattr__(self, "threshold_low", self.threshold)
        if self.pdp_eps_low is None:
            object.__setattr__(self, "pdp_eps_low", self.pdp_eps)


def _exact_from_tails(t, low, up, dp: float, h: float) -> ExactLoss:
    """Theorem 3.1's threshold and the mechanism's own PDP ε′ (Definition 2.4) from bounds ``low ≤ P[L > t] ≤ up``
    on a grid.  Every mechanism with a law here is symmetric (the loss under the other hypothesis is −L in law),
    so the threshold is the upper (1 − δ′) quantile of L, and P[L < −z] = E_Q[e^{L}; L < −z] ≤ e^{−z}P[L > z]:
    ε′ ≤ the first z ≥ 0 with up(z)(1 + e^{−z}) ≤ δ′.  Lower ends: a t with low(t) > δ′ lies below the exact
    threshold (and below ε′, as P[|L| > t] ≥ P[L > t])."""
    ok = np.flatnonzero(up <= dp)
    threshold = float(t[ok[0]]) if ok.size else math.inf
    above = np.flatnonzero(low > dp)
    threshold_low = float(t[above[-1]]) if above.size else -math.inf
    z = t >= 0
    with np.errstate(over="ignore"):
        # up(z) bounds P[L > z] at the float z itself (``tail_bounds_on_lattice``); e^{−z} within 4 ulps (at most 4u of
        # 1 + e^{−z}), the sum and the product ½ ulp each: raised 8 ulps
        both = _rounding.up(up[z] * (1.0 + np.exp(-t[z])), 8)
    ok = np.flatnonzero(both <= dp)
    pdp = float(t[z][ok[0]]) if ok.size else math.inf
    above = np.flatnonzero(low[z] > dp)
    pdp_low = float(t[z][above[-1]]) if above.size else 0.0
    return ExactLoss(threshold, pdp, f"bounded: privacy-loss distributions composed on a lattice of step {h:.3g} "
                     "(pessimistic and optimistic sides, Doroshenko et al. 2022), the tail P[L > t] bounded from the "
                     "bracketed profile", True, threshold_low, pdp_low)


def _closed_form(law) -> str:
    """The report's words for the route through an exact law."""
    return f"closed form: the exact privacy-loss law ({law.name})"


def _eps_ceiling(*guesses) -> float:
    """A search range for ε that contains the answer: at least 200, past every finite hint given, at most the largest
    float (a profile is asked about finite ε only)."""
    finite = [g for g in guesses if g is not None and math.isfinite(g)]
    return min(max([200.0] + [1.5 * g + 10.0 for g in finite]), sys.float_info.max)


#: The methods through which :class:`Composed` asks its parts (and a reader may ask a mechanism) about ``k`` runs,
#: and the report's exact and best-point routes: their numeric arguments are checked before any subclass sees them.
_CHECKED_METHODS = ("profile", "profile_epsilon", "loss", "exact_threshold", "pld_step", "merge", "single_point",
                    "best_point", "exact")
_ARGUMENT_CHECKS = {
    "k": lambda v: check_positive_int(v, "k", maximum=K_MAX),
    "k_other": lambda v: check_positive_int(v, "k_other", maximum=K_MAX),
    "resolution": lambda v: check_positive_int(v, "resolution", maximum=2**26),
    "delta_prime": lambda v: float(check_delta(v, "delta_prime", open_low=True, open_high=True, scalar=True)),
    "delta": lambda v: float(check_delta(v, "delta", open_low=True, scalar=True)),
}


def _checked(method):
    """``method`` with its arguments named in :data:`_ARGUMENT_CHECKS` validated (a ValueError naming the parameter,
    never a crash or NaN further down) and passed on as the checked values."""
    signature = inspect.signature(method)

    @functools.wraps(method)
    def checked(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        for name, check in _ARGUMENT_CHECKS.items():
            if name in bound.arguments:
                bound.arguments[name] = check(bound.arguments[name])
        return method(*bound.args, **bound.kwargs)

    return checked


def _check_arguments_of(cls) -> None:
    """Wrap each method of :data:`_CHECKED_METHODS` that ``cls`` itself defines with :func:`_checked`."""
    for name in _CHECKED_METHODS:
        if name in cls.__dict__:
            setattr(cls, name, _checked(cls.__dict__[name]))


class Mechanism:
    """A mechanism run once; subclasses fill in what they know.

    A mechanism a release may name is declared once, by its class (CONTRIBUTING.md, "Adding a mechanism"):

    * ``name``: the release's word for it, ``title``: one line for the report's help;
    * ``fields``: its parameters as :class:`~dpsemantics.releases.Field` declarations (the report's flags, help, checks, exact-rational
      rounding and symbols, and the constructor's own checks, are read from them); ``together``, ``either`` and
      ``alone`` name fields given together, at least one of, or alone;
    * ``example``: the fields of one valid instance (the protocol and fuzz tests start from it);
    * then either its privacy-loss law (:meth:`~dpsemantics.releases.Mechanism.loss`, with :meth:`~dpsemantics.releases.Mechanism.pld` for composition), or its stated guarantee
      (:meth:`~dpsemantics.releases.Mechanism.pure_epsilon`, :meth:`~dpsemantics.releases.Mechanism.rho` or :meth:`~dpsemantics.releases.Mechanism.stated_point`, with ``guarantee_only``).  Everything else has a
      default derived from these.
    """

    name = "mechanism"
    title = ""
    fields = ()
    together = ()
    either = ()
    alone = None
    example = None
    #: symbols of the entries of :meth:`~dpsemantics.releases.Mechanism.parameters` that are not fields (the report shows them)
    reported = {}
    #: True when the mechanism is known only by its guarantee (no privacy-loss law)
    guarantee_only = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _check_arguments_of(cls)
        if "fields" in cls.__dict__:  # a mechanism a release may name: registered under its name
            if "name" not in cls.__dict__ or cls.name in FROM_FIELDS or not cls.title or cls.example is None:
                raise TypeError(f"{cls.__name__} declares fields: it needs its own unregistered name, a title and an "
                                f"example (got name={cls.name!r})")
            FROM_FIELDS[cls.name] = cls

    def __post_init__(self):
        """Each declared field with an attribute checked against its domain (:meth:`~dpsemantics.releases.Field.check`)."""
        for f in type(self).fields:
            if f.attribute is not None:
                object.__setattr__(self, f.attribute, f.check(getattr(self, f.attribute)))

    @classmethod
    def from_fields(cls, **fields) -> "Mechanism":
        """The mechanism a release gives by these fields (names of ``fields``; ``None`` is "not given"), each
        checked against its declaration (domain, required, together, either, alone), then :meth:`~dpsemantics.releases.Mechanism.build`.  A bad
        field is a ``ParameterError`` naming it."""
        declared = {f.name: f for f in cls.fields}
        given = {}
        for name, value in fields.items():
            if name not in declared:
                raise ParameterError(name, f"is not a field of the {cls.name} mechanism (it takes "
                                           f"{', '.join(declared)})")
            if value is not None:
                given[name] = declared[name].check(value)
        for f in cls.fields:
            if f.required and f.name not in given:
                raise ParameterError(f.name, f"is required for the {cls.name} mechanism")
        if 0 < len(given.keys() & set(cls.together)) < len(cls.together):
            missing = next(name for name in cls.together if name not in given)
            raise ParameterError(missing, f"is required with {' and '.join(cls.together)} (the {cls.name} mechanism "
                                          "takes them together)")
        if cls.either and not given.keys() & set(cls.either):
            raise ParameterError(cls.either[0], f"is required for the {cls.name} mechanism (or "
                                                f"{', '.join(cls.either[1:])})")
        if cls.alone in given and len(given) > 1:
            other = sorted(given.keys() - {cls.alone})[0]
            raise ParameterError(other, f"is not taken with {cls.alone} (the {cls.name} mechanism given by its "
                                        f"{cls.alone} takes no other field)")
        return cls.build(**given)

    @classmethod
    def build(cls, **fields) -> "Mechanism":
        """The mechanism from fields already checked by :meth:`~dpsemantics.releases.Mechanism.from_fields`: by default each passed on as its
        attribute.  A mechanism whose fields are not its attributes (the Gaussian by ρ or by (ε, δ)) overrides
        this."""
        return cls(**{f.attribute: fields[f.name] for f in cls.fields if f.name in fields})

    # ---- what a subclass states --------------------------------------------------------------------
    def parameters(self) -> dict:
        """The mechanism's parameters as numbers (for report.json): its fields held as attributes."""
        return {f.name: float(getattr(self, f.attribute)) for f in type(self).fields if f.attribute is not None}

    def rho(self) -> float | None:
        """ρ of zero-concentrated DP, where the mechanism has one."""
        return None

    def pure_epsilon(self) -> float | None:
        """ε when the mechanism is pure ε-DP (Kazan et al. Theorem 2.3: then ε′ = ε at every δ′)."""
        return None

    def reveal(self) -> float:
        """A probability with which the mechanism may give no protection at all (δ of its profile at ε = ∞)."""
        return 0.0

    def profile_epsilon(self, k: int, delta: float):
        """The smallest ε with :meth:`profile` (k)'s δ(ε) ≤ ``delta``, in closed form or by a solver of its own,
        never below the exact value; ``None`` (the default) where the profile is inverted by bisection."""
        return None

    def stated_point(self) -> tuple[float, float] | None:
        """The (ε, δ) the mechanism is stated with, for basic composition; ``None`` when only ρ is stated."""
        eps = self.pure_epsilon()
        return None if eps is None else (eps, 0.0)

    def profile(self, k: int):
        """``(δ(ε) function, method, theorems)`` of ``k`` runs where an exact profile is known, else ``None``.  By
        default the :meth:`~dpsemantics.privacy_loss.PrivacyLoss.delta` of the law of ``k`` runs
        (:meth:`~dpsemantics.releases.Mechanism.loss`), which is the exact profile (Kazan et al. Definition 2.1 read
        on the law, Theorem 3.9).  The δ(ε) function is vectorised: an array of ε in, an array of δ out."""
        law = self.loss(k)
        if law is None:
            return None
        return law.delta, f"exact: the privacy profile of the exact privacy-loss law ({law.name})", \
            "the mechanism's privacy-loss law; Kazan et al. Definition 2.1, Theorem 3.9"

    def loss(self, k: int):
        """The exact privacy-loss law of ``k`` runs (:class:`~dpsemantics.privacy_loss.PrivacyLoss`), where it is
        known in closed form, else ``None``."""
        return None

    def exact_threshold(self, k: int, delta_prime: float):
        """``(threshold, pdp_eps, method)`` from the exact law of ``k`` runs (see :class:`ExactLoss`)."""
        law = self.loss(k)
        if law is None:
            return None
        t = max(float(law.isf(delta_prime)), -float(law.dual.ppf(delta_prime)))  # isf: no 1 − δ′ cancellation
        pure = self.pure_epsilon()
        ceiling = _eps_ceiling(None if pure is None else k * pure, t)
        return t, law.pdp_epsilon(delta_prime, eps_max=ceiling), _closed_form(law)

    def pld(self, h: float):
        """One run's :class:`~dpsemantics.pld.PrivacyLossDistribution` on the lattice of step ``h``, or ``None``."""
        return None

    def pld_step(self, k: int) -> float:
        """The lattice step the PLD engine's author advises for ``k`` runs (pld.py's bench): ε₀/100 up to
        k = 10⁴, ε₀/50 to 10⁵, ε₀/25 beyond (the pessimistic error grows like k·h²)."""
        eps = self.pure_epsilon() or self.spread()[0]
        return eps / (100.0 if k <= 10**4 else 50.0 if k <= 10**5 else 25.0)

    def pld_unit(self) -> float | None:
        """A step of which every atom of the loss is a multiple (ε for ±ε), or ``None``.  A lattice step dividing it
        keeps the optimistic side from rounding the atoms down k times (a bias of k·h)."""
        return self.pure_epsilon() or None

    def spread(self) -> tuple[float, float]:
        """(standard deviation, half-width worth keeping) of one run's privacy loss, to size a lattice."""
        raise NotImplementedError

    def merge(self, k: int, other: "Mechanism", k_other: int):
        """``(mechanism, runs)`` equal to ``k`` runs of this and ``k_other`` of ``other``, or ``None``."""
        if self == other:
            return self, k + k_other
        return None

    def group_of_two(self) -> "Mechanism | None":
        """This mechanism's guarantee for a change of one record's value when neighbours add or remove a record (a
        removal and an addition: group privacy for two), as a mechanism; ``None`` when none is left.  By default:
        pure ε → 2ε (Dwork & Roth 2014, Theorem 2.2), ρ-zCDP → 4ρ (Bun & Steinke 2016, Proposition 1.9)."""
        pure = self.pure_epsilon()
        if pure is not None:
            return ApproxDP(2 * pure, 0.0) if math.isfinite(2 * pure) else None
        rho = self.rho()
        if rho is not None and self.stated_point() is None:
            return ZCDP(4 * rho) if math.isfinite(4 * rho) else None
        return None

    # ---- the questions, answered through the composition of one part --------------------------------
    def repeat(self, k) -> "Composed":
        """This mechanism run ``k`` times on the same data."""
        return Composed([(self, check_positive_int(k, "k", maximum=K_MAX))])

    def delta(self, eps) -> float:
        return Composed([self]).delta(eps)

    def epsilon(self, delta) -> float:
        return Composed([self]).epsilon(delta)

    def pdp_epsilon(self, delta_prime) -> float:
        return Composed([self]).pdp_epsilon(delta_prime)

    def describe(self) -> str:
        shown = ", ".join(f"{k}={v:g}" for k, v in self.parameters().items())
        return f"{self.name}({shown})"


# ------------------------------------------------------------------------------------------------------
# Mechanisms with a privacy-loss law
# ------------------------------------------------------------------------------------------------------


_check_arguments_of(Mechanism)


@dataclass(frozen=True)
class Laplace(Mechanism):
    """The Laplace mechanism with scale Δ/ε: pure ε-DP; its privacy loss has atoms at ±ε
    (:meth:`~dpsemantics.privacy_loss.PrivacyLoss.laplace`), its profile is :func:`~dpsemantics.mechanisms.laplace_delta`."""

    eps: float
    sensitivity: float = 1.0
    name = "laplace"
    title = "the Laplace mechanism (noise of scale sensitivity/ε)"
    fields = (Field("epsilon", "ε", "the noise's scale is sensitivity/ε", "eps", required=True),
              Field("sensitivity", "Δ", "the query's sensitivity (default 1)", "sensitivity"))
    example = {"epsilon": 0.5}

    def pure_epsilon(self):
        return self.eps

    def rho(self):
        return float(conversions.pure_to_zcdp(self.eps))

    def profile(self, k):
        if k != 1:
            return None
        return (self.loss(1).delta, "exact: Laplace privacy profile",
                "Laplace profile δ(ε) = (1 − e^((ε − ε₀)/2))₊; Kazan et al. Theorem 3.9")

    def loss(self, k):
        return PrivacyLoss.laplace(self.eps) if k == 1 else None

    def pld(self, h):
        return PrivacyLossDistribution.laplace(self.eps, h=h)

    def spread(self):
        return self.eps, 2.0 * self.eps


@dataclass(frozen=True)
class RandomizedResponse(Mechanism):
    """Randomized response with log-odds ε of answering truthfully: Z = ±ε; k runs attain the optimal
    composition bound (Kazan et al. Theorem 2.8(3), Kairouz, Oh & Viswanath 2015)."""

    eps: float
    name = "randomized-response"
    title = "randomized response (the true answer with log-odds ε)"
    fields = (Field("epsilon", "ε", "the log of the odds of answering truthfully", "eps", required=True),)
    example = {"epsilon": 0.5}

    def pure_epsilon(self):
        return self.eps

    def rho(self):
        return float(conversions.pure_to_zcdp(self.eps))

    def profile(self, k):
        return (self.loss(k).delta, f"exact: optimal composition of k = {k} "
                "(Theorem 2.8(3), at every ε)", "Kazan et al. Theorem 2.8(3) (Kairouz, Oh & Viswanath 2015); Thm 3.9")

    def loss(self, k):
        return PrivacyLoss.randomized_response(self.eps, k)

    def pld(self, h):
        return PrivacyLossDistribution.randomized_response(self.eps, h=h)

    def spread(self):
        return self.eps, 2.0 * self.eps


@dataclass(frozen=True)
class Geometric(Mechanism):
    """The two-sided geometric count with noise ratio e^(−ε/Δ) and whole sensitivity Δ: pure ε-DP; with
    Δ = 1 its privacy loss is randomized response's (Z = ±ε), so k runs have the exact law of k-fold randomized
    response; with Δ > 1 one run has the exact law :meth:`~dpsemantics.privacy_loss.PrivacyLoss.geometric` and k
    runs are composed on the lattice (:meth:`~dpsemantics.releases.Mechanism.pld`)."""

    eps: float
    sensitivity: int = 1
    name = "geometric"
    title = "the two-sided geometric count (noise ratio e^(−ε/sensitivity))"
    fields = (Field("epsilon", "ε", "the noise ratio is e^(−ε/sensitivity)", "eps", required=True),
              Field("sensitivity", "Δ", "the count's sensitivity (default 1)", "sensitivity", low=1, whole=True))
    example = {"epsilon": 0.5, "sensitivity": 2}

    def _as_flip(self):
        return RandomizedResponse(self.eps) if self.sensitivity == 1 else None

    def pure_epsilon(self):
        return self.eps

    def rho(self):
        return float(conversions.pure_to_zcdp(self.eps))

    def profile(self, k):
        flip = self._as_flip()
        if flip is not None:
            return flip.profile(k)
        if k != 1:
            return None
        return (self.loss(1).delta, f"exact: geometric privacy profile (sensitivity {self.sensitivity})",
                "two-sided geometric mechanism (Ghosh, Roughgarden & Sundararajan 2012); Kazan et al. Thm 3.9")

    def loss(self, k):
        flip = self._as_flip()
        if flip is not None:
            return flip.loss(k)
        return PrivacyLoss.geometric(self.eps, self.sensitivity) if k == 1 else None

    def pld(self, h):
        return PrivacyLossDistribution.geometric(self.eps, self.sensitivity, h=h)

    def pld_unit(self):
        return self.eps / self.sensitivity

    def spread(self):
        return self.eps, 2.0 * self.eps


@dataclass(frozen=True)
class Gaussian(Mechanism):
    """The Gaussian mechanism N(f(x), σ²) with sensitivity Δ: Z ~ N(μ, 2μ), μ = Δ²/(2σ²) = ρ (Bun & Steinke
    2016, Proposition 1.6); runs add their μ, so any composition of Gaussians is one Gaussian.  Its profile is
    exact (Balle & Wang 2018, Theorem 8: :func:`~dpsemantics.mechanisms.gaussian_delta`).  ``stated`` is the (ε, δ) it was
    calibrated for, when it was (the analytic Gaussian mechanism, :func:`~dpsemantics.mechanisms.gaussian_sigma`)."""

    sigma: float
    sensitivity: float = 1.0
    stated: tuple | None = None
    name = "gaussian"
    title = "the Gaussian mechanism (noise N(0, σ²)), given by σ, by ρ alone, or calibrated to (ε, δ)"
    fields = (Field("sigma", "σ", "the noise's standard deviation", "sigma", rational="down"),
              Field("sensitivity", "Δ", "the query's sensitivity (default 1)", "sensitivity"),
              Field("epsilon", "ε", "the ε at which σ is calibrated (with delta)", low_open=False),
              Field("delta", "δ", "the δ at which σ is calibrated (with epsilon)", high=1.0),
              Field("rho", "ρ", "its ρ = (sensitivity/σ)²/2, given alone"))
    together, either, alone = ("epsilon", "delta"), ("sigma", "epsilon", "rho"), "rho"
    example = {"sigma": 2.0}
    reported = {"mu": "μ"}

    def __post_init__(self):
        super().__post_init__()
        sigma, sens = self.sigma, self.sensitivity
        ratio = sens / sigma
        mu = 0.5 * ratio * ratio if ratio < 1e154 else math.inf  # a float product, never an OverflowError
        if not (0.0 < mu < 1e12):
            raise ParameterError("sigma", f"gives a privacy loss that is degenerate or beyond the float range "
                                          f"((sensitivity/sigma)**2/2 = {mu!r}; got sigma={sigma!r})")

    @classmethod
    def build(cls, sigma=None, sensitivity=1.0, epsilon=None, delta=None, rho=None) -> "Gaussian":
        """σ alone; ρ = (Δ/σ)²/2 alone; or (ε, δ), calibrated by the analytic Gaussian mechanism; or all three,
        checked for agreement: strictly, δ(σ) ≤ δ by the bound never below the exact profile (Balle & Wang 2018,
        Theorem 8, with its evaluation and rounding allowances: ``mechanisms.gaussian_delta``), which every σ
        that :func:`~dpsemantics.mechanisms.gaussian_sigma` returns meets."""
        if rho is not None:
            return cls(_sigma_for_rho(rho))
        if epsilon is None:
            return cls(sigma, sensitivity)
        if sigma is None:
            return cls.calibrated(epsilon, delta, sensitivity)
        actual = float(mechanisms.gaussian_delta(epsilon, sigma, sensitivity))
        if actual > delta:
            raise ParameterError("sigma", f"is inconsistent with epsilon and delta: the Gaussian mechanism with "
                                          f"sigma={sigma!r}, sensitivity={sensitivity!r} is ({epsilon!r}, δ′)-DP for "
                                          f"δ′ ≥ {actual!r} (its exact profile rounded up), which is above "
                                          f"delta={delta!r}")
        return cls(sigma, sensitivity, (float(epsilon), float(delta)))

    @classmethod
    def calibrated(cls, epsilon, delta, sensitivity=1.0) -> "Gaussian":
        """The smallest σ giving (ε, δ)-DP (the analytic Gaussian mechanism, Balle & Wang 2018)."""
        eps = float(check_epsilon(epsilon, "epsilon", scalar=True))
        d = float(check_delta(delta, "delta", open_low=True, open_high=True, scalar=True))
        sigma = mechanisms.gaussian_sigma(eps, d, sensitivity)
        try:
            return cls(sigma, sensitivity, (eps, d))
        except ValueError:
            raise ParameterError("epsilon", f"is too large for this delta: the calibrated Gaussian mechanism's "
                                 f"privacy loss is beyond the float range (sigma={sigma!r} for epsilon={eps!r}, "
                                 f"delta={d!r})") from None

    @property
    def mu(self) -> float:
        ratio = self.sensitivity / self.sigma
        return 0.5 * ratio * ratio

    def parameters(self):
        stated = {} if self.stated is None else {"epsilon": self.stated[0], "delta": self.stated[1]}
        return {**stated, "sigma": self.sigma, "sensitivity": self.sensitivity, "mu": self.mu}

    def rho(self):
        # Δ²/(2σ²) exactly, rounded up (the float μ is rounded to nearest: Gaussian(1e-5).rho() was one ulp low)
        return _gaussian_rho(self.sigma, self.sensitivity)

    def stated_point(self):
        return self.stated

    def _sigma_of(self, k):
        # σ of k runs (Δ = 1): rounded down, so that the law analysed has μ ≥ kμ of one run (_merged_sigma)
        return _merged_sigma([(k, self.sigma, self.sensitivity)])

    def profile(self, k):
        return (self.loss(k).delta, "exact: Gaussian privacy profile (Balle & Wang "
                "2018, Theorem 8) with the μ = Δ²/(2σ²) of every run added",
                "Balle & Wang 2018 Thm 8; Kazan et al. Thm 3.9")

    def loss(self, k):
        return PrivacyLoss.gaussian(self._sigma_of(k))  # Z ~ N(μ, 2μ), μ added over the runs

    def profile_epsilon(self, k, delta):
        # Balle & Wang's δ(ε) solved in ε: the ε passes the check of the profile's own δ (the law's, at σ of k runs)
        return mechanisms.gaussian_epsilon(delta, self._sigma_of(k))

    def exact_threshold(self, k, delta_prime):
        # the upper quantile through the survival function (isf), so that δ′ down to the smallest float stays
        # exact; Z and Z′ have the same law
        law = self.loss(k)
        t = float(law.isf(delta_prime))
        if delta_prime >= 1e-9:
            pdp = law.pdp_epsilon(delta_prime, eps_max=_eps_ceiling(t))
        else:  # P[|Z| > ε] ≤ P[Z > ε] + P[Z < −ε] ≤ δ′ at ε = max(isf(δ′/2), −ppf(δ′/2)): a safe upper bound
            pdp = max(float(law.isf(delta_prime / 2)), -float(law.ppf(delta_prime / 2)))
        return t, pdp, _closed_form(law)

    def pld(self, h):
        return PrivacyLossDistribution.gaussian(self.sigma, self.sensitivity, h=h)

    def pld_step(self, k):
        return math.sqrt(2 * k * self.mu) / 100.0  # well below the √(2μ)/10 the engine's author advises

    def spread(self):
        s = math.sqrt(2 * self.mu)
        return s, 26.0 * s

    def merge(self, k, other, k_other):
        if isinstance(other, Gaussian):
            sigma = _merged_sigma([(k, self.sigma, self.sensitivity), (k_other, other.sigma, other.sensitivity)])
            return Gaussian(sigma), 1
        return None

    def group_of_two(self):
        """The Gaussian mechanism at twice its sensitivity (its outputs move by at most 2Δ, by the triangle
        inequality), with its own law; ``None`` when that law is beyond the float range."""
        try:
            return Gaussian(self.sigma, 2 * self.sensitivity)
        except ParameterError:
            return None


# ------------------------------------------------------------------------------------------------------
# Mechanisms known only by their guarantee
# ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ApproxDP(Mechanism):
    """Any (ε, δ)-DP mechanism.  Its worst case is randomized response with a δ chance of revealing the
    record (Kairouz, Oh & Viswanath 2015), whose k-fold profile is the optimal composition bound (Kazan et al.
    Theorem 2.8(3)); it has no privacy-loss law of its own."""

    eps: float
    delta0: float = 0.0
    name = "dp"
    title = "any mechanism known only by its (ε, δ)"
    fields = (Field("epsilon", "ε", "the stated ε", "eps", low_open=False, required=True),
              Field("delta", "δ", "the stated δ (default 0)", "delta0", low_open=False, high=1.0))
    example = {"epsilon": 0.5, "delta": 1e-6}
    guarantee_only = True

    def pure_epsilon(self):
        return self.eps if self.delta0 == 0 else None

    def rho(self):
        return float(conversions.pure_to_zcdp(self.eps)) if self.delta0 == 0 and self.eps > 0 else None

    def stated_point(self):
        return self.eps, self.delta0

    def reveal(self):
        return self.delta0

    def profile(self, k):
        e0, d0 = self.eps, self.delta0
        return (lambda e: composition.optimal_delta(e, e0, k, d0), f"exact worst case over all (ε₀, δ₀)-DP mechanisms: "
                f"optimal composition of k = {k} (Theorem 2.8(3), at every ε)",
                "Kazan et al. Theorem 2.8(3) (Kairouz, Oh & Viswanath 2015); Thm 3.9")

    def pld(self, h):
        return PrivacyLossDistribution.approximate_dp(self.eps, self.delta0, h=h)

    def pld_step(self, k):
        return super().pld_step(k) if self.eps > 0 else 1e-3

    def group_of_two(self):
        """(2ε, (1 + exp(ε))δ) for δ > 0 (group privacy for approximate DP, two steps); the default when pure."""
        if self.delta0 == 0:
            return super().group_of_two()
        # (1 + e^ε)δ: exp within 1 ulp, the sum and the product within ½ ulp each (under 3u), raised 4 ulps
        d = float(_rounding.up((1 + math.exp(self.eps)) * self.delta0, 4)) if self.eps < 700 else math.inf
        return ApproxDP(2 * self.eps, d) if d < 1 and math.isfinite(2 * self.eps) else None

    def spread(self):
        return max(self.eps, 1e-12), 2.0 * max(self.eps, 1e-12)


@dataclass(frozen=True)
class ZCDP(Mechanism):
    """Any ρ-zCDP mechanism (Bun & Steinke 2016; Kazan et al. Definition 2.6).  ρ adds under composition
    (Theorem 2.9); (ε, δ) points come from Canonne, Kamath & Steinke (2020, Corollary 13)."""

    rho0: float
    name = "zcdp"
    title = "any mechanism known only by its ρ"
    fields = (Field("rho", "ρ", "the stated ρ", "rho0", required=True),)
    example = {"rho": 0.1}
    guarantee_only = True

    def rho(self):
        return self.rho0

    def stated_point(self):
        return None

    def profile(self, k):
        rho = _sum_up([(k, self.rho0)])  # kρ₀ rounded up: never below the exact total ρ
        if not math.isfinite(rho):  # a total ρ beyond the float range: no profile finer than the single point
            return None
        return (lambda e: conversions.zcdp_delta(rho, e, tight=True), f"ρ = {rho:.6g} in total (Theorem 2.9), "
                "converted at every ε by Canonne, Kamath & Steinke (2020, Corollary 13)",
                "Kazan et al. Theorem 2.9; Canonne, Kamath & Steinke 2020 Cor. 13; Kazan et al. Theorem 3.9")

    def spread(self):
        return math.sqrt(2 * self.rho0), 26.0 * math.sqrt(2 * self.rho0)

    def merge(self, k, other, k_other):
        if isinstance(other, ZCDP):
            return ZCDP(_sum_up([(k, self.rho0), (k_other, other.rho0)])), 1
        return None


@dataclass(frozen=True)
class DiscreteGaussian(Mechanism):
    """The discrete Gaussian mechanism: an integer-valued query of sensitivity Δ plus noise Y on the integers with
    P[Y = y] ∝ exp(−y²/(2σ²)) (Canonne, Kamath & Steinke 2020, Definition 1; the noise of the 2020 Census's
    TopDown algorithm).  It is ρ-zCDP with ρ = Δ²/(2σ²) exactly (ibid., Theorem 4), which :meth:`~dpsemantics.releases.Mechanism.rho` returns
    rounded up.  It is declared by that guarantee: its answers are those of a ρ-zCDP mechanism (its profile is
    Canonne, Kamath & Steinke's Corollary 13 conversion of ρ, never below its exact profile, their Theorem 7), and
    the report does not read it through its own privacy-loss law."""

    sigma: float
    sensitivity: int = 1
    name = "discrete-gaussian"
    title = "the discrete Gaussian mechanism (integer noise of scale σ, as in the 2020 Census), by its ρ"
    fields = (Field("sigma", "σ", "the noise's scale: P[y] ∝ exp(−y²/(2σ²)) on the integers", "sigma",
                    rational="down", required=True),
              Field("sensitivity", "Δ", "the integer query's sensitivity (default 1)", "sensitivity", low=1,
                    whole=True))
    example = {"sigma": 2.0, "sensitivity": 1}
    guarantee_only = True

    def __post_init__(self):
        super().__post_init__()
        if not 0.0 < self.rho() < math.inf:
            raise ParameterError("sigma", f"gives ρ = sensitivity²/(2σ²) beyond the float range (got "
                                          f"sigma={self.sigma!r}, sensitivity={self.sensitivity!r})")

    def rho(self):
        return _gaussian_rho(self.sigma, self.sensitivity)

    def stated_point(self):
        return None

    def spread(self):
        s = math.sqrt(2 * self.rho())
        return s, 26.0 * s


# ------------------------------------------------------------------------------------------------------
# Composition
# ------------------------------------------------------------------------------------------------------


def _profile_epsilon(fn, d: float, pure, hint: float = math.inf) -> float:
    """The smallest ε with fn(ε) ≤ d for a profile ``fn`` never below the exact one (bisection, returning the end
    where fn ≤ d: the safe side); ``inf`` if none ≤ 1e6.  ``hint``, an ε another route already gives: when fn meets
    d there but not 10⁻⁹ below it, the profile cannot do better and ``hint`` is returned after two evaluations."""
    with np.errstate(all="ignore"):
        if math.isfinite(hint) and hint > 0 and fn(hint) <= d:
            if fn(hint * (1 - 1e-9)) > d:
                return float(hint)
            lo, hi = 0.0, float(hint)
        else:
            lo, hi = 0.0, _eps_ceiling(pure)
        while fn(hi) > d:
            if hi > 1e6:
                return math.inf
            lo, hi = hi, 4.0 * hi
        if fn(lo) <= d:
            return lo
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            lo, hi = (lo, mid) if fn(mid) <= d else (mid, hi)
            if hi - lo <= 1e-12 * max(1.0, hi):
                break
    return float(hi)


def _sum_up(pairs) -> float:
    """Σ k·x over ``(k, x)`` pairs of whole numbers and floats, exactly (rationals) and rounded up to a float: never
    below the exact sum, and equal to it when it is a float (2 for 2 × 1.0); inf when an x is."""
    pairs = list(pairs)
    if any(math.isinf(x) for _, x in pairs):
        return math.inf
    return _rounding.rational_up(sum((Fraction(int(k)) * Fraction(x) for k, x in pairs), Fraction(0)))


def _sigma_for_rho(rho) -> float:
    """The σ of a Gaussian (Δ = 1) given by its ρ (a float or a Fraction): the float nearest 1/√(2ρ), lowered where its exact ρ = 1/(2σ²)
    falls below the stated ρ (so the mechanism analysed is never less private than stated).  1/(√2·√ρ), with no
    overflow of 2ρ: the two roots, the product and the quotient within ½ ulp each, so at most three steps of one ulp,
    each checked exactly in rationals (the loop stops at the first σ that passes, whatever the count)."""
    sigma = 1.0 / (math.sqrt(2.0) * math.sqrt(rho))
    if not 0.0 < sigma < math.inf:  # ρ beyond the float range either way: the constructor refuses it
        return sigma
    while sigma > 0.0 and 1 / (2 * Fraction(sigma) ** 2) < Fraction(rho):
        sigma = math.nextafter(sigma, 0.0)
    return sigma


def _merged_sigma(parts) -> float:
    """The σ (sensitivity 1) of one Gaussian equivalent to k_i runs of Gaussians (σ_i, Δ_i), for ``parts`` =
    [(k_i, σ_i, Δ_i)]: the runs add their μ_i = Δ_i²/(2σ_i²) (Bun & Steinke 2016, Proposition 1.6 and Lemma 2.3),
    and the one Gaussian with μ = Σ k_iμ_i has σ = 1/√(2μ).  Rounded *down*, so that the mechanism analysed is never
    more private than the runs: μ is summed exactly in rationals (the float sum k·μ₁ + k′·μ₂ was rounded to nearest
    three times, and each μ_i once, so it could fall a few ulps below the exact μ), and σ is the largest float whose
    exact 1/(2σ²) is at least μ: :func:`_sigma_for_rho`'s float (stepped down until 1/(2σ²) ≥ μ holds in rationals),
    then stepped up while the next float still passes.  So 1/(2σ²) ≥ Σ k_iΔ_i²/(2σ_i²) exactly, and one run at
    Δ = 1 keeps its own σ."""
    mu = sum(int(k) * Fraction(delta) ** 2 / (2 * Fraction(sigma) ** 2) for k, sigma, delta in parts)
    sigma = _sigma_for_rho(mu)
    while 0.0 < sigma < math.inf and 1 / (2 * Fraction(math.nextafter(sigma, math.inf)) ** 2) >= mu:
        sigma = math.nextafter(sigma, math.inf)
    return sigma


def _gaussian_rho(sigma, sensitivity) -> float:
    """ρ = Δ²/(2σ²) of the (continuous or discrete) Gaussian mechanism, exactly in rationals and rounded up."""
    return _rounding.rational_up(Fraction(sensitivity) ** 2 / (2 * Fraction(sigma) ** 2))


def _stated_sums(stated):
    """For parts stated as ``(ε_i, δ_i, k_i)``: the runs K, max ε_i, max δ_i, and Σk_iε_i, Σk_iδ_i,
    A = Σk_iε_i(e^{ε_i} − 1), B = Σk_iε_i², each rounded up (n terms of a few correctly rounded operations on
    non-negative numbers, expm1 within 1 ulp: within (2n + 4)u relative, raised by 4n + 8 ulps)."""
    m = len(stated)
    e = np.array([s[0] for s in stated])
    d = np.array([s[1] for s in stated])
    k = np.array([float(s[2]) for s in stated])
    with np.errstate(over="ignore", invalid="ignore"):
        sums = [float(np.sum(k * e)), float(np.sum(k * d)), float(np.sum(k * e * np.expm1(e))), float(np.sum(k * e * e))]
    sums = [math.inf if math.isnan(v) else float(_rounding.up(v, 4 * m + 8)) for v in sums]
    sums[:2] = _sum_up((s[2], s[0]) for s in stated), _sum_up((s[2], s[1]) for s in stated)
    return (int(sum(s[2] for s in stated)), float(e.max()), float(d.max()), *sums)


def _stated_floor(stated) -> float:
    """The smallest total δ below which no route of :func:`_stated_epsilons` gives a finite ε (a lower end)."""
    runs, _, d_max, _, d_sum, _, _ = _stated_sums(stated)
    return min(d_sum, -math.expm1(runs * math.log1p(-d_max)))


def _stated_deltas(stated, e: np.ndarray) -> dict:
    """δ at each ε of ``e`` for parts stated as ``(ε_i, δ_i, k_i)``, by route: ``basic``, ``optimal`` (Kairouz, Oh &
    Viswanath at (max ε_i, max δ_i) over all runs) and ``advanced`` (Theorem 2.8(2) solved for δ:
    δ = Σk_iδ_i + exp(−(ε − A)²/(2B)) for ε > A); each never below the exact value of its formula."""
    runs, e_max, d_max, e_sum, d_sum, a, b = _stated_sums(stated)
    out = {"basic": np.where(e >= e_sum, min(d_sum, 1.0), 1.0)}
    try:
        with np.errstate(all="ignore"):
            out["optimal"] = np.minimum(np.asarray(composition.optimal_delta(e, e_max, runs, d_max), dtype=float), 1.0)
    except _NUMERIC:
        pass
    with np.errstate(all="ignore"):
        x = np.maximum(e - a, 0.0)  # one correctly rounded subtraction of floats: within u relative
        t = np.where(x > 0, _rounding.down(x * x / (2.0 * b), 8), 0.0)  # 2B exact, square and quotient: 3u
        slack = np.where(x > 0, _rounding.exp_up(-t), 1.0)
        out["advanced"] = np.minimum(_rounding.up(d_sum + slack, 2), 1.0)
    return out


def _stated_epsilons(stated, d: np.ndarray) -> dict:
    """ε at each total δ of ``d`` (< 1) for parts stated as ``(ε_i, δ_i, k_i)``, by the routes of
    :func:`_stated_deltas` solved for ε; ``inf`` where a route gives none."""
    runs, e_max, d_max, e_sum, d_sum, a, b = _stated_sums(stated)
    out = {"basic": np.where(d >= d_sum, e_sum, math.inf)}
    floor = -math.expm1(runs * math.log1p(-d_max))
    opt = np.full(d.shape, math.inf)
    go = np.flatnonzero(d > floor * (1 + 1e-12))
    for idx in (go, *([i] for i in go)):  # all at once; one at a time if one of them is refused
        try:
            with np.errstate(all="ignore"):
                opt[idx] = composition.optimal_epsilon(e_max, runs, d[idx], d_max)
            break
        except _NUMERIC:
            continue
    out["optimal"] = opt
    with np.errstate(all="ignore"):
        slack = _rounding.down(d - d_sum, 1)  # never above the exact δ − Σk_iδ_i
        adv = _rounding.up(a + np.sqrt(2.0 * b * -np.log(np.where(slack > 0, slack, 1.0))), 10)
        out["advanced"] = np.where(slack > 0, np.where(np.isnan(adv), math.inf, adv), math.inf)
    return out


class Composed(Mechanism):
    """Mechanisms run on the same data: ``Composed([a, b.repeat(3), (c, 2)])``.  Parts are kept as
    ``(mechanism, runs)`` pairs; compositions given as parts are flattened."""

    name = "composed"

    def __init__(self, parts):
        flat = []
        for part in parts:
            mech, k = part if isinstance(part, tuple) else (part, 1)
            k = check_positive_int(k, "k", maximum=K_MAX)
            if isinstance(mech, Composed):
                flat += [(m, j * k) for m, j in mech.parts]
            elif isinstance(mech, Mechanism):
                flat.append((mech, k))
            else:
                raise ParameterError("parts", f"must be mechanisms (got {mech!r})")
        if not flat:
            raise ParameterError("parts", "must name at least one mechanism (got none)")
        if any(k > K_MAX for _, k in flat):
            raise ParameterError("k", f"must be at most {K_MAX} runs of one mechanism here (got {max(k for _, k in flat)})")
        self.parts = tuple(flat)
        self._lattices = {}  # composed privacy-loss distributions by resolution, computed once

    def __eq__(self, other):
        return isinstance(other, Composed) and self.parts == other.parts

    def __hash__(self):
        return hash(self.parts)

    def repeat(self, k) -> "Composed":
        return Composed([(self, check_positive_int(k, "k", maximum=K_MAX))])

    def spread(self):
        """(standard deviation, half-width) of the composed loss: the parts' losses are independent, so their
        variances and widths add over the runs."""
        spreads = [(m.spread(), k) for m, k in self.parts]
        return math.sqrt(sum(k * sd * sd for (sd, _), k in spreads)), sum(k * width for (_, width), k in spreads)

    def parameters(self):
        return {"parts": len(self.parts), "runs": float(self.runs)}

    @property
    def runs(self) -> int:
        return sum(k for _, k in self.parts)

    @property
    def guarantee_only(self) -> bool:  # noqa: D401 - a property, shadowing the class attribute
        return any(m.guarantee_only for m, _ in self.parts)

    def rho(self):
        return self._rho_up()

    def pure_epsilon(self):
        eps = [(k, m.pure_epsilon()) for m, k in self.parts]
        return None if any(e is None for _, e in eps) else _sum_up(eps)

    def reveal(self):
        # n terms k·log1p(−r) of one sign (log1p within 1 ulp, the product ½): the sum within (n + 3)u relative; −expm1
        # (1 ulp) has relative condition at most 1 there: raised 2n + 10 ulps, at most 1
        total = -math.expm1(sum(k * math.log1p(-m.reveal()) for m, k in self.parts))
        return min(float(_rounding.up(total, 2 * len(self.parts) + 10)), 1.0)

    def merged(self) -> list:
        """The parts with equal mechanisms (and all Gaussians, all zCDP parts) merged."""
        out = []
        for m, k in self.parts:
            for i, (n, j) in enumerate(out):
                both = n.merge(j, m, k)
                if both is not None:
                    out[i] = both
                    break
            else:
                out.append((m, k))
        return out

    # ---- the three routes ---------------------------------------------------------------------------
    def single_point(self, delta_prime) -> PdpPoint:
        """The paper's route for one stated guarantee: zCDP parts by Theorem 2.9 (ρ adds) and Theorem 2.7 at
        the δ minimising ε′ (Example 4.1); stated (ε, δ) parts by basic composition (Theorem 2.8(1)); then
        Theorem 3.9 (Kazan et al.)."""
        dp = float(delta_prime)
        stated = [(m, k, m.stated_point()) for m, k in self.parts]
        rho_only = [(m, k) for m, k, s in stated if s is None]
        if len(rho_only) == len(stated):
            rho = self.rho()
            try:
                if not math.isfinite(rho):
                    raise OverflowError("the total ρ is beyond the float range")
                with np.errstate(all="ignore"):
                    e1, d = disclosure.best_zcdp_pdp_epsilon(rho, dp)
                    eps = float(conversions.zcdp_epsilon(rho, d))
                if not math.isfinite(e1):
                    raise OverflowError
                how = "converted by Theorem 2.7 at the δ minimising ε′ (as in Example 4.1), then Theorem 3.9"
            except _NUMERIC:  # a valid, coarser point: Theorem 2.7 at δ = δ′/2
                d = dp / 2  # 0 when δ′ is the smallest float: then no δ lies below δ′ and there is no guarantee
                with np.errstate(all="ignore"):
                    eps = float(conversions.zcdp_epsilon(rho, d)) if math.isfinite(rho) and d > 0 else math.inf
                    e1 = float(conversions.pdp_epsilon(eps, d, dp)) if math.isfinite(eps) else math.inf
                how = "converted by Theorem 2.7 at δ = δ′/2, then Theorem 3.9"
            return PdpPoint(e1, eps, d, f"ρ = {rho:.6g} in total (Theorem 2.9), {how}",
                            "Kazan et al. Theorems 2.9, 2.7, 3.9; Corollary 3.10")
        eps, delta = 0.0, 0.0
        for m, k, s in stated:
            if s is None:  # a zCDP part next to (ε, δ) parts: Theorem 2.7 at δ′/(4m) each
                d_c = dp / (4 * len(rho_only))
                with np.errstate(all="ignore"):
                    eps += float(conversions.zcdp_epsilon(k * m.rho(), d_c)) if d_c > 0 else math.inf
                delta += d_c
            else:
                eps += float(composition.basic_epsilon(s[0], k))
                delta += k * s[1]
        text = f"(ε, δ) = ({eps:.6g}, {delta:.6g}) by basic composition (Theorem 2.8(1))"
        if rho_only:
            text += ", zCDP parts converted by Theorem 2.7 at δ′/(4m) each"
        if delta >= dp or not math.isfinite(eps):
            return PdpPoint(math.inf, eps, delta, text + "; δ ≥ δ′, so Theorem 3.9 gives nothing at this δ′",
                            "Kazan et al. Theorems 2.8(1), 3.9")
        if delta == 0:
            return PdpPoint(eps, eps, 0.0, text + " (pure: ε′ = ε, Theorem 2.3)", "Kazan et al. Theorems 2.8(1), 2.3")
        with np.errstate(all="ignore"):
            e1 = float(conversions.pdp_epsilon(eps, delta, dp))
        return PdpPoint(e1, eps, delta, text + ", then Theorem 3.9",
                        "Kazan et al. Theorems 2.8(1), 3.9; Corollary 3.10")

    def _pld(self, resolution: int):
        """The composition's privacy-loss distribution (:class:`~dpsemantics.pld.PrivacyLossDistribution`,
        connect-the-dots and optimistic sides) on a common lattice: the step the engine advises for each part,
        but no finer than the composed law's width over ``resolution``; ``None`` when a part has no law."""
        if resolution in self._lattices:
            return self._lattices[resolution]
        parts = self.merged()
        if any(m.pld(1.0) is None for m, _ in parts):
            return None
        spreads = [(m.spread(), k) for m, k in parts]
        sd = math.sqrt(sum(k * s**2 for (s, _), k in spreads))
        width = min(30.0 * sd, sum(k * reach for (_, reach), k in spreads))
        h = max(min(m.pld_step(k) for m, k in parts), width / resolution, 1e-12)
        units = [u for u in (m.pld_unit() for m, _ in parts) if u]
        if units:  # a divisor of the finest atom spacing, so the atoms sit on the lattice
            unit = min(units)
            h = unit / math.ceil(unit / h)
        total = None
        for m, k in parts:
            piece = m.pld(h).self_compose(k)
            total = piece if total is None else total.compose(piece)
        self._lattices[resolution] = total
        return total

    def profile(self, resolution: int = 2**18):
        """``(δ(ε), method, theorems)``: the composition's privacy profile, exact where the package has it
        (one kind of mechanism), through ρ when every part has one and some part is known only by it, and
        otherwise from the privacy-loss distributions composed, pessimistic side (an upper bound).  ``None`` when
        nothing finer than the single point is known (approximate DP next to zCDP)."""
        parts = self.merged()
        if len(parts) == 1:
            found = parts[0][0].profile(parts[0][1])
            if found is not None:
                return found
        if all(m.pld(1.0) is not None for m, _ in parts):
            pld = self._pld(resolution)
            return (pld.delta, f"upper bound: privacy-loss distributions composed on a lattice of step {pld.h:.3g}, "
                    "pessimistic side (connect-the-dots, Doroshenko et al. 2022: never below the exact profile)",
                    "Kazan et al. Definitions 2.1–2.2, Theorem 3.9")
        rho = self.rho()
        if rho is not None and math.isfinite(rho):
            return ZCDP(rho).profile(1)
        return None

    def best_point(self, delta_prime, *, resolution: int = 2**18) -> PdpPoint:
        """Theorem 3.9 at the best point of the whole privacy profile (Kazan et al. §4.2), or the single point
        when that is better or no profile is known."""
        dp = float(delta_prime)
        single = self.single_point(dp)
        try:
            with np.errstate(all="ignore"):
                prof = self.profile(resolution)
        except _NUMERIC:
            prof = None
        if prof is None:
            return PdpPoint(single.eps_prime, single.eps, single.delta, "the single point (no finer profile is known "
                            "for this mix of approximate DP and zCDP)", single.theorems)
        fn, method, theorems = prof
        try:
            with np.errstate(all="ignore"):
                e1, eps, delta = conversions.profile_pdp_epsilon(
                    fn, dp, eps_max=_eps_ceiling(single.eps, single.eps_prime, self.pure_epsilon()))
        except _NUMERIC:
            e1, eps, delta = math.inf, math.inf, 1.0
        if not (e1 <= single.eps_prime):  # both are valid guarantees: keep the better
            return single
        return PdpPoint(e1, eps, delta, method, theorems)

    def exact(self, delta_prime, *, resolution: int = 2**18) -> ExactLoss | None:
        """The (1 − δ′) bound on the privacy loss from the mechanism's own law (Theorem 3.1): closed forms for
        one kind of mechanism where known, else the privacy-loss distributions composed, with the tail
        P[L > t] bracketed (:meth:`~dpsemantics.pld.PrivacyLossDistribution.tail_bounds_on_lattice`): the
        values are the safe ends, ``threshold_low``/``pdp_eps_low`` the other ends.
        ``None`` when a part is known only by its guarantee."""
        if self.guarantee_only:
            return None
        dp = float(delta_prime)
        parts = self.merged()
        if len(parts) == 1:
            try:
                with np.errstate(all="ignore"):
                    found = parts[0][0].exact_threshold(parts[0][1], dp)
            except _NUMERIC:
                found = None
            if found is not None:
                t, pdp, method = found
                return ExactLoss(t, pdp, method, False)
        try:
            with np.errstate(all="ignore"):
                pld = self._pld(resolution)
                t, low, up = pld.tail_bounds_on_lattice()
        except NumericalLimit as err:  # a lattice beyond what fits (too many points): the profile's reading
            return ExactLoss(math.inf, math.inf, f"the privacy-loss distributions could not be read on a lattice "
                             f"({err}): the profile's bound is used", True)
        except _NUMERIC:  # a loss beyond the float range: no finer reading than the profile's
            return ExactLoss(math.inf, math.inf, "the privacy-loss distributions could not be composed in floating "
                             "point (a loss beyond the float range): the profile's bound is used", True)
        return _exact_from_tails(t, low, up, dp, pld.h)

    # ---- the generic questions: the best of every route ---------------------------------------------
    def _route_parts(self):
        """``(stated, rho_z)``: the merged parts with a stated (ε, δ) point as ``(ε, δ, k)`` triples, and the total ρ
        (rounded up) of the parts known only by ρ (``None`` when there are none); ``None`` when a part has neither."""
        stated, rho_z = [], []
        for m, k in self.merged():
            s = m.stated_point()
            if s is not None:
                stated.append((float(s[0]), float(s[1]), k))
                continue
            r = m.rho()
            if r is None:
                return None
            rho_z.append((k, r))
        return stated, (_sum_up(rho_z) if rho_z else None)

    def delta_routes(self, eps) -> dict:
        """δ(ε) by every route this composition has, each an upper bound on the exact profile (so the smallest is the
        answer, :meth:`delta`), by name:

        * ``profile``: :meth:`profile` (exact for one kind of mechanism, else the pessimistic privacy-loss
          distribution);
        * ``pure``: 0 at or above the total pure ε (Kazan et al. Theorem 2.8(1): δ(ε) = 0 there);
        * ``zcdp``: the total ρ converted by Canonne, Kamath & Steinke (2020, Corollary 13), when every part has a ρ;
        * ``basic``, ``optimal``, ``advanced``: the parts' stated (ε_i, δ_i) by basic composition, by the optimal
          composition of K = Σk_i runs of (max ε_i, max δ_i) (Kairouz, Oh & Viswanath 2015; every part is also
          (max ε_i, max δ_i)-DP), and by advanced composition (Theorem 2.8(2), heterogeneous, solved for δ);
        * ``stated+zcdp``: stated parts next to parts known only by ρ: δ_A(ε_a) + δ_Z(ε − ε_a) (basic composition of
          the two groups), the best ε_a on a grid, δ_A the best of the three above and δ_Z Corollary 13.

        Every sum that decides a route is rounded up (never below its exact value)."""
        e = float(check_epsilon(eps, "eps", scalar=True))
        out = {}
        prof = self.profile()
        if prof is not None:
            with np.errstate(all="ignore"):
                out["profile"] = float(min(prof[0](e), 1.0))
        pure = self._pure_up()
        if pure is not None and e >= pure:
            out["pure"] = 0.0
        rho = self._rho_up()
        if rho is not None:
            out["zcdp"] = float(conversions.zcdp_delta(rho, e, tight=True))
        tilted = self._tilted(e) if e > 0 and out.get("profile", 0.0) < 1e-6 else None
        if tilted is not None:
            out["pld-tilted"] = float(tilted(e))
        groups = self._route_parts()
        if groups is not None:
            stated, rho_z = groups
            if stated and rho_z is None:
                out.update({name: float(v[0]) for name, v in _stated_deltas(stated, np.array([e])).items()})
            elif stated:
                ea = e * np.linspace(0.0, 1.0, 257)
                ez = np.maximum(_rounding.down(e - ea, 1), 0.0)
                da = np.min(np.stack(list(_stated_deltas(stated, ea).values())), axis=0)
                dz = np.asarray(conversions.zcdp_delta(rho_z, ez, tight=True), dtype=float)
                out["stated+zcdp"] = float(min(np.min(_rounding.up(da + dz, 1)), 1.0))
        return out

    def epsilon_routes(self, delta) -> dict:
        """The smallest ε with δ(ε) ≤ ``delta`` by every route this composition has (the routes of
        :meth:`delta_routes`, each solved for ε directly: the profile by bisection to the safe side, the optimal
        composition by :func:`~dpsemantics.composition.optimal_epsilon`, advanced composition in closed form, the
        stated and zCDP groups at the best split of δ on a grid); each is at least the exact ε, so the smallest is
        the answer (:meth:`epsilon`).  ``inf`` where a route gives no guarantee."""
        d = float(check_delta(delta, "delta", open_low=True, scalar=True))
        if d >= 1.0:
            return {"trivial": 0.0}
        out = {}
        pure = self._pure_up()
        if pure is not None:
            out["pure"] = pure
        rho = self._rho_up()
        if rho is not None:
            out["zcdp"] = float(conversions.zcdp_epsilon(rho, d, tight=True))
        groups = self._route_parts()
        if groups is not None:
            stated, rho_z = groups
            if stated and rho_z is None:
                out.update({name: float(v[0]) for name, v in _stated_epsilons(stated, np.array([d])).items()})
            elif stated:
                floor = _stated_floor(stated)
                if d > floor:
                    da = floor + (d - floor) * np.concatenate([np.geomspace(1e-9, 0.5, 128), 1 - np.geomspace(0.5, 1e-9, 128)])
                    dz = _rounding.down(d - da, 1)
                    ok = (da > floor) & (dz > 0)
                    da, dz = da[ok], dz[ok]
                    ea = np.min(np.stack(list(_stated_epsilons(stated, da).values())), axis=0)
                    ez = np.asarray(conversions.zcdp_epsilon(rho_z, dz, tight=True), dtype=float)
                    out["stated+zcdp"] = float(np.min(_rounding.up(ea + ez, 1), initial=math.inf))
                else:
                    out["stated+zcdp"] = math.inf
        # the profile never falls below δ(∞) = the chance of revealing the record: no ε at all when that reaches δ
        # (inf is the safe answer at the float edge too)
        prof = None if self.reveal() >= d else self.profile()
        if prof is not None:
            parts = self.merged()
            fast = parts[0][0].profile_epsilon(parts[0][1], d) if len(parts) == 1 else None
            out["profile"] = (fast if fast is not None else
                              _profile_epsilon(prof[0], d, self.pure_epsilon(), min(out.values(), default=math.inf)))
        best = min(out.values(), default=math.inf)
        tilted = self._tilted(best) if math.isfinite(best) and d < 1e-6 else None
        if tilted is not None:
            out["pld-tilted"] = _profile_epsilon(tilted, d, self.pure_epsilon(), best)
        return out

    def _tilted(self, eps_target: float):
        """δ(ε) at ε ≥ 0 of one kind of mechanism run k times whose profile the package has only through the PLD
        (Laplace, geometric with Δ > 1), on the lattice tilted towards ``eps_target``
        (:func:`~dpsemantics.pld.tilted_self_composition`: accurate in the far tail); ``None`` elsewhere."""
        parts = self.merged()
        if len(parts) != 1 or parts[0][0].profile(parts[0][1]) is not None or parts[0][0].pld(1.0) is None:
            return None
        m, k = parts[0]
        try:
            with np.errstate(all="ignore"):
                return tilted_self_composition(m.pld(self._pld(2**18).h), k, eps_target)
        except _NUMERIC:
            return None

    def _pure_up(self):
        """The total pure ε Σk_iε_i, exact and rounded up (:func:`_sum_up`), or ``None``."""
        eps = [(k, m.pure_epsilon()) for m, k in self.parts]
        return None if any(e is None for _, e in eps) else _sum_up(eps)

    def _rho_up(self):
        """The total ρ Σk_iρ_i, exact and rounded up (:func:`_sum_up`), or ``None``."""
        rhos = [(k, m.rho()) for m, k in self.parts]
        return None if any(r is None for _, r in rhos) else _sum_up(rhos)

    def delta(self, eps) -> float:
        """The privacy profile δ(ε): the smallest of the upper bounds of :meth:`delta_routes` (exact where a route is
        exact); 1 when no route gives a guarantee."""
        return min(self.delta_routes(eps).values(), default=1.0)

    def epsilon(self, delta) -> float:
        """The smallest ε with δ(ε) ≤ δ known: the smallest of :meth:`epsilon_routes` (each never below the exact
        value); ``inf`` when no route gives one."""
        return min(self.epsilon_routes(delta).values(), default=math.inf)

    def pdp_epsilon(self, delta_prime) -> float:
        """The smallest PDP ε′ known at δ′: the best of the profile route and the mechanism's own law."""
        dp = float(check_delta(delta_prime, "delta_prime", open_low=True, open_high=True, scalar=True))
        best = self.best_point(dp).eps_prime
        exact = self.exact(dp)
        return best if exact is None else min(best, exact.pdp_eps)

    def describe(self) -> str:
        return " + ".join(f"{k}×{m.describe()}" for m, k in self.parts)


# ------------------------------------------------------------------------------------------------------
# From a release's fields
# ------------------------------------------------------------------------------------------------------


def from_fields(name: str, **fields) -> Mechanism:
    """The mechanism a release names ``name`` with the given fields (``epsilon``, ``delta``, ``sigma``,
    ``sensitivity``, ``rho``); bad values raise ``ValueError`` naming the field."""
    if name not in FROM_FIELDS:
        raise ParameterError("name", f"must be one of {', '.join(FROM_FIELDS)} (got {name!r})")
    return FROM_FIELDS[name].from_fields(**fields)
