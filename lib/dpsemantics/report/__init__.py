"""Your release, interpreted: one differentially private release read through all five papers.

A *release* is a list of mechanisms run on the same data (each ``k`` times), the priors of the adversaries
the reader wants to consider, and the failure probability δ′ of the disclosure statements.  :func:`interpret`
returns a plain dict (the content of ``report.json``); ``dpsemantics.report.render`` writes it as Markdown
and HTML with figures; ``python -m dpsemantics.report`` is the command line.

What is computed, and from which result:

* **Disclosure** (Kazan et al.).  For each prior, the (1 − δ′) upper bound on the posterior of an adversary
  who knows every other record, three ways:

  - ``single_point``: one (ε, δ) statement of the release converted as the paper does — zCDP parts by
    Theorem 2.9 (ρ adds) and Theorem 2.7 at the δ that minimises ε′ (the paper's Example 4.1), (ε, δ) parts
    by basic composition (Theorem 2.8(1)); then Theorem 3.9 and Corollary 3.10.
  - ``best_point``: Theorem 3.9 at the best point of the composition's whole privacy profile
    (:func:`dpsemantics.conversions.profile_pdp_epsilon`): exact profiles where the package has them
    (Gaussian, Balle & Wang; k-fold randomized response and (ε₀, δ₀)-DP, Theorem 2.8(3); one Laplace), the
    Canonne–Kamath–Steinke conversion for zCDP, and otherwise a profile computed from the privacy-loss
    distribution discretised to the safe side (:class:`dpsemantics.composition.LatticeLoss`).
  - ``exact``: the (1 − δ′)-quantile of the posterior itself, from the mechanism's privacy-loss distribution
    through Theorem 3.1 — closed forms for Gaussian releases, one Laplace and k-fold randomized response or
    geometric counts, the safe-side discretised distribution for other compositions (then an upper bound,
    said so under ``exact_method``).  Unavailable when a part is known only by its (ε, δ) or ρ.

  Ratio and difference bounds (Theorems 3.3 and 3.5 through the smallest PDP ε′ known), the worst-case priors
  (Lemma 3.4) and a plain-language paragraph (§4.1) come with them.
* **Semantic** (Kasiviswanathan & Smith) and **Bayesian** (Zhao): semantic privacy, Bayesian semantic
  privacy, Bayesian DP with independent records and membership privacy at the release's ε.
* **Causal** (Tschantz, Sen & Datta): the bound on the effect of one person's data on the output, and an
  effect it does not bound (a status copied into relatives' data).
* **Composition**: how the readings grow when the release is repeated (``composition``), for the figures.

Bad input raises :class:`ReleaseError` (a ``ValueError``) naming the field, before anything is computed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats
from scipy.special import expit

from .. import causal, composition, conversions, disclosure, mechanisms, notions, semantic
from .._validate import check_delta, check_epsilon, check_positive, check_positive_int, check_probability

__all__ = [
    "MECHANISMS",
    "FIELDS",
    "DEFAULT_PRIORS",
    "DEFAULT_DELTA_PRIME",
    "ReleaseError",
    "parse_release",
    "from_parameters",
    "interpret",
]

#: The mechanisms a release may name (``--mechanism``).
MECHANISMS = ("laplace", "gaussian", "randomized-response", "geometric", "dp", "zcdp")

#: Every field of a release, with its meaning (the command line's --help and the chapter list these).
FIELDS = {
    "mechanism": "one of " + ", ".join(MECHANISMS) + " (dp: any mechanism known only by its (ε, δ); "
                 "zcdp: any mechanism known only by its ρ)",
    "epsilon": "ε: of the Laplace mechanism (scale = sensitivity/ε), of randomized response (log of the odds "
               "of answering truthfully), of the geometric count (noise ratio e^(−ε/sensitivity)), of a dp "
               "release; for gaussian, the ε at which σ is calibrated (with delta)",
    "delta": "δ in [0, 1) of a dp release, or the δ at which a gaussian σ is calibrated (default 0)",
    "sigma": "σ > 0: standard deviation of the Gaussian noise",
    "sensitivity": "sensitivity Δ > 0 of the query (default 1); a whole number for geometric",
    "rho": "ρ > 0 of a zcdp release",
    "k": "how many times this mechanism is run on the same data (whole number >= 1, default 1)",
    "priors": "the adversaries' prior probabilities that the target is in the data, each in (0, 1)",
    "delta_prime": "δ′ in (0, 1): the disclosure bounds hold with probability at least 1 − δ′",
    "name": "a name for the release (the report's folder name)",
}

USES = {  # fields each mechanism takes
    "laplace": {"epsilon", "sensitivity"},
    "gaussian": {"sigma", "sensitivity", "epsilon", "delta"},
    "randomized-response": {"epsilon"},
    "geometric": {"epsilon", "sensitivity"},
    "dp": {"epsilon", "delta"},
    "zcdp": {"rho"},
}
COMPONENT_FIELDS = {"mechanism", "epsilon", "delta", "sigma", "sensitivity", "rho", "k"}
TOP_FIELDS = {"name", "priors", "delta_prime", "mechanisms"}
#: The priors a report reads the release at when the release names none.
DEFAULT_PRIORS = (0.01, 0.1, 0.5)
#: The δ′ (probability that the disclosure bound may fail) when the release names none.
DEFAULT_DELTA_PRIME = 0.01
K_MAX = 100_000
PURE = {"laplace", "randomized-response", "geometric"}


class ReleaseError(ValueError):
    """A release the report refuses: ``field`` names the offending field (``mechanisms[1].sigma`` in a
    composition), ``message`` says why."""

    def __init__(self, field: str, message: str):
        self.field, self.message = field, message
        super().__init__(f"{field}: {message}")


def _checked(field: str, check, *args, **kwargs):
    """Run a _validate check with the field as the parameter name; its ValueError becomes a ReleaseError."""
    try:
        return check(*args, **kwargs)
    except ValueError as err:
        text = str(err)
        raise ReleaseError(field, text[len(field) + 1:] if text.startswith(field + " ") else text) from None


# --------------------------------------------------------------------------------------------------
# Reading and validating a release
# --------------------------------------------------------------------------------------------------


def _component(raw: dict, where: str) -> dict:
    def f(name):
        return f"{where}{name}"

    unknown = sorted(set(raw) - COMPONENT_FIELDS)
    if unknown:
        raise ReleaseError(f(unknown[0]), f"unknown field (a mechanism takes {', '.join(sorted(COMPONENT_FIELDS))})")
    mech = raw.get("mechanism")
    if mech not in MECHANISMS:
        raise ReleaseError(f("mechanism"), f"must be one of {', '.join(MECHANISMS)} (got {mech!r})")
    given = {key for key, value in raw.items() if value is not None} - {"mechanism", "k"}
    extra = sorted(given - USES[mech])
    if extra:
        raise ReleaseError(f(extra[0]), f"is not a parameter of the {mech} mechanism (it takes "
                                        f"{', '.join(sorted(USES[mech]))}, and k)")
    out = {"mechanism": mech, "k": _checked(f("k"), check_positive_int, raw.get("k", 1), f("k"), maximum=K_MAX)}
    if "sensitivity" in USES[mech]:
        out["sensitivity"] = (1.0 if raw.get("sensitivity") is None else
                              _checked(f("sensitivity"), check_positive, raw["sensitivity"], f("sensitivity"), scalar=True))
    if mech in PURE or mech == "dp":
        if raw.get("epsilon") is None:
            raise ReleaseError(f("epsilon"), f"is required for the {mech} mechanism")
        out["epsilon"] = _checked(f("epsilon"), check_epsilon, raw["epsilon"], f("epsilon"), scalar=True,
                                  strictly_positive=mech in PURE)
    if mech == "geometric":
        out["sensitivity"] = _checked(f("sensitivity"), check_positive_int, raw.get("sensitivity", 1), f("sensitivity"))
    if mech == "dp":
        out["delta"] = _checked(f("delta"), check_delta, raw.get("delta", 0.0), f("delta"), open_high=True, scalar=True)
    if mech == "zcdp":
        if raw.get("rho") is None:
            raise ReleaseError(f("rho"), "is required for the zcdp mechanism")
        out["rho"] = _checked(f("rho"), check_positive, raw["rho"], f("rho"), scalar=True)
    if mech == "gaussian":
        out.update(_gaussian(raw, out["sensitivity"], f))
    return out


def _gaussian(raw: dict, sens: float, f) -> dict:
    eps, delta, sigma = raw.get("epsilon"), raw.get("delta"), raw.get("sigma")
    if sigma is not None:
        sigma = _checked(f("sigma"), check_positive, sigma, f("sigma"), scalar=True)
    if (eps is None) != (delta is None):
        missing = "delta" if delta is None else "epsilon"
        raise ReleaseError(f(missing), "a gaussian release states epsilon and delta together (or sigma alone)")
    if eps is None:
        if sigma is None:
            raise ReleaseError(f("sigma"), "is required for the gaussian mechanism (or epsilon and delta)")
        out = {"sigma": sigma}
    else:
        eps = _checked(f("epsilon"), check_epsilon, eps, f("epsilon"), scalar=True)
        delta = _checked(f("delta"), check_delta, delta, f("delta"), open_low=True, open_high=True, scalar=True)
        if sigma is None:  # the analytic Gaussian mechanism (Balle & Wang 2018): the smallest σ for (ε, δ)
            sigma = _checked(f("delta"), mechanisms.gaussian_sigma, eps, delta, sens)
        else:
            actual = float(mechanisms.gaussian_delta(eps, sigma, sens))
            if actual > delta * (1 + 1e-9):
                raise ReleaseError(f("sigma"), f"is inconsistent with epsilon and delta: the Gaussian mechanism with "
                                               f"sigma={sigma!r}, sensitivity={sens!r} is only ({eps!r}, {actual:.3g})-DP, "
                                               f"not ({eps!r}, {delta!r})-DP")
        out = {"sigma": sigma, "epsilon": eps, "delta": delta}
    mu = 0.5 * (sens / out["sigma"]) ** 2
    if not (0.0 < mu < 1e12):
        raise ReleaseError(f("sigma"), f"gives a privacy loss that is degenerate or beyond the float range "
                                       f"((sensitivity/sigma)**2/2 = {mu!r})")
    out["mu"] = mu
    return out


def parse_release(data: dict) -> dict:
    """Validate a release given as a dict — the JSON file's content, or the command line's fields — and return
    its normal form ``{"name", "components": [...], "priors", "delta_prime"}``.

    Either the fields of one mechanism sit at the top level, or ``"mechanisms"`` lists several (each with its
    own ``k``), composed together.  Raises :class:`ReleaseError` naming the first bad field."""
    if not isinstance(data, dict):
        raise ReleaseError("release", f"must be a JSON object (got {type(data).__name__})")
    unknown = sorted(set(data) - TOP_FIELDS - COMPONENT_FIELDS)
    if unknown:
        raise ReleaseError(unknown[0], f"unknown field (the fields are {', '.join(sorted(FIELDS) + ['mechanisms'])})")
    if "mechanisms" in data:
        clash = sorted(set(data) & COMPONENT_FIELDS)
        if clash:
            raise ReleaseError(clash[0], "give a mechanism's fields either at the top level or inside "
                                         "'mechanisms', not both")
        listed = data["mechanisms"]
        if not isinstance(listed, list) or not listed:
            raise ReleaseError("mechanisms", "must be a non-empty list of mechanisms")
        comps = []
        for i, raw in enumerate(listed):
            if not isinstance(raw, dict):
                raise ReleaseError(f"mechanisms[{i}]", "must be an object with a mechanism's fields")
            comps.append(_component(raw, f"mechanisms[{i}]."))
    else:
        comps = [_component({k: v for k, v in data.items() if k in COMPONENT_FIELDS}, "")]
    priors = data.get("priors")
    priors = list(DEFAULT_PRIORS) if priors is None else priors
    if not isinstance(priors, (list, tuple)) or not priors:
        raise ReleaseError("priors", "must be a non-empty list of probabilities")
    priors = [_checked("priors", check_probability, p, "priors", open_low=True, open_high=True, scalar=True) for p in priors]
    dp = data.get("delta_prime")
    dp = DEFAULT_DELTA_PRIME if dp is None else dp
    dp = _checked("delta_prime", check_delta, dp, "delta_prime", open_low=True, open_high=True, scalar=True)
    name = data.get("name") or "release"
    if not isinstance(name, str) or not all(c.isalnum() or c in "-_." for c in name) or name.startswith("."):
        raise ReleaseError("name", f"must be letters, digits, '-', '_' or '.' (got {name!r})")
    release = {"name": name, "components": comps, "priors": priors, "delta_prime": dp}
    _best_point(release["components"], dp, field="delta_prime")  # δ′ must leave some guarantee
    return release


def from_parameters(mechanism, epsilon=0.0, delta=0.0, sigma=0.0, rho=0.0, sensitivity=1.0, k=1,
                    priors=DEFAULT_PRIORS, delta_prime=DEFAULT_DELTA_PRIME, name="release") -> dict:
    """A release from the chapter's parameters cell, where every field is a number and 0 means "not given"
    (papermill needs a value of one type per parameter); only the fields the mechanism takes are passed on."""
    raw = {"mechanism": mechanism, "k": k, "priors": list(priors), "delta_prime": delta_prime, "name": name}
    for key, value in (("epsilon", epsilon), ("delta", delta), ("sigma", sigma), ("rho", rho)):
        if value != 0 and key in USES.get(mechanism, ()):
            raw[key] = value
    if sensitivity != 1 and "sensitivity" in USES.get(mechanism, ()):
        raw["sensitivity"] = sensitivity
    return parse_release(raw)


# --------------------------------------------------------------------------------------------------
# The three routes to an upper posterior bound
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Point:
    """A PDP guarantee (ε′ at δ′) and the (ε, δ)-DP point it came from; ``eps_prime`` is inf when vacuous."""

    eps_prime: float
    eps: float
    delta: float
    method: str
    theorems: str


def _rho(c) -> float | None:
    """ρ of a component where it has one: zcdp, Gaussian (Δ²/2σ²), pure ε-DP (ε²/2, Bun & Steinke Prop. 1.4)."""
    if c["mechanism"] == "zcdp":
        return c["rho"]
    if c["mechanism"] == "gaussian":
        return c["mu"]
    if c["mechanism"] in PURE or (c["mechanism"] == "dp" and c["delta"] == 0):
        return float(conversions.pure_to_zcdp(c["epsilon"]))
    return None


def _zcdp_only(c) -> bool:
    return c["mechanism"] == "zcdp" or (c["mechanism"] == "gaussian" and "epsilon" not in c)


def _single_point(comps, dp) -> Point:
    """The paper's route for one stated guarantee (see the module docstring)."""
    zc = [c for c in comps if _zcdp_only(c)]
    if len(zc) == len(comps):
        rho = sum(c["k"] * _rho(c) for c in comps)
        e1, d = disclosure.best_zcdp_pdp_epsilon(rho, dp)
        eps = float(conversions.zcdp_epsilon(rho, d))
        return Point(e1, eps, d, f"ρ = {_num(rho)} in total (Theorem 2.9), converted by Theorem 2.7 at the δ "
                                 "minimising ε′ (as in Example 4.1), then Theorem 3.9",
                     "Kazan et al. Theorems 2.9, 2.7, 3.9; Corollary 3.10")
    eps, delta = 0.0, 0.0
    for c in comps:
        if _zcdp_only(c):  # a zCDP part next to (ε, δ) parts: Theorem 2.7 at δ′/(4m) each
            d_c = dp / (4 * len(zc))
            eps += float(conversions.zcdp_epsilon(c["k"] * _rho(c), d_c))
            delta += d_c
        else:
            eps += c["k"] * c["epsilon"]
            delta += c["k"] * c.get("delta", 0.0)
    text = f"(ε, δ) = ({_num(eps)}, {_num(delta)}) by basic composition (Theorem 2.8(1))"
    if zc:
        text += ", zCDP parts converted by Theorem 2.7 at δ′/(4m) each"
    if delta >= dp:
        return Point(math.inf, eps, delta, text + "; δ ≥ δ′, so Theorem 3.9 gives nothing",
                     "Kazan et al. Theorems 2.8(1), 3.9")
    e1 = eps if delta == 0 else float(conversions.pdp_epsilon(eps, delta, dp))
    return Point(e1, eps, delta, text + ", then Theorem 3.9" if delta else text + " (pure: ε′ = ε, Theorem 2.3)",
                 "Kazan et al. Theorems 2.8(1), 3.9; Corollary 3.10")


def _num(x) -> str:
    from ..book import number

    return number(x)


def _homogeneous(comps):
    """(mechanism, k) when the release is one kind of mechanism with one parameter set."""
    first = {k: v for k, v in comps[0].items() if k != "k"}
    if all({k: v for k, v in c.items() if k != "k"} == first for c in comps):
        return first, sum(c["k"] for c in comps)
    return None, None


def _profile(comps, resolution):
    """The composition's privacy profile δ(ε) (an upper bound on it where discretised), its method and the
    result it rests on; ``None`` when the package has no profile beyond the single point."""
    mech, k = _homogeneous(comps)
    kinds = {c["mechanism"] for c in comps}
    if kinds == {"gaussian"}:
        mu = sum(c["k"] * c["mu"] for c in comps)
        sigma = 1.0 / math.sqrt(2.0 * mu)
        return (lambda e: mechanisms.gaussian_delta(e, sigma), "exact: Gaussian privacy profile (Balle & Wang 2018, "
                "Theorem 8) with the μ = Δ²/(2σ²) of every run added", "Balle & Wang 2018 Thm 8; Kazan et al. Thm 3.9")
    if mech is not None and (mech["mechanism"] in ("randomized-response", "dp")
                             or (mech["mechanism"] == "geometric" and mech["sensitivity"] == 1)):
        e0, d0 = mech["epsilon"], mech.get("delta", 0.0)
        kind = "exact" if mech["mechanism"] != "dp" else "exact worst case over all (ε₀, δ₀)-DP mechanisms"
        return (lambda e: composition.optimal_delta(e, e0, k, d0), f"{kind}: optimal composition of k = {k} "
                "(Theorem 2.8(3), at every ε)", "Kazan et al. Theorem 2.8(3) (Kairouz, Oh & Viswanath 2015); Thm 3.9")
    if mech is not None and mech["mechanism"] == "laplace" and k == 1:
        e0 = mech["epsilon"]
        return (lambda e: mechanisms.laplace_delta(e, e0), "exact: Laplace privacy profile",
                "Laplace profile δ(ε) = (1 − e^((ε − ε₀)/2))₊; Kazan et al. Theorem 3.9")
    if "zcdp" in kinds:
        rhos = [_rho(c) for c in comps]
        if any(r is None for r in rhos):
            return None
        rho = sum(c["k"] * r for c, r in zip(comps, rhos))
        return (lambda e: conversions.zcdp_delta(rho, e, tight=True), f"ρ = {_num(rho)} in total (Theorem 2.9; "
                "pure parts as ε²/2), converted at every ε by Canonne, Kamath & Steinke (2020, Corollary 13)",
                "Kazan et al. Theorem 2.9; Canonne, Kamath & Steinke 2020 Cor. 13; Kazan et al. Theorem 3.9")
    up = _lattice(comps, "up", resolution)
    return (up.delta, f"upper bound: privacy-loss distribution composed on a lattice of step {_num(up.h)}, "
            "rounded up (the profile is never underestimated)", "Kazan et al. Definitions 2.1–2.2, Theorem 3.9")


def _best_point(comps, dp, *, resolution=2**18, field=None) -> Point:
    prof = _profile(comps, resolution)
    single = _single_point(comps, dp)
    if prof is None:
        if math.isinf(single.eps_prime) and field:
            raise ReleaseError(field, f"must exceed the release's δ = {single.delta!r} for any disclosure bound")
        return Point(single.eps_prime, single.eps, single.delta, "the single point (no finer profile is known for "
                     "this mix of approximate DP and zCDP)", single.theorems)
    fn, method, theorems = prof
    try:
        e1, eps, delta = conversions.profile_pdp_epsilon(fn, dp)
    except ValueError:
        if field:
            raise ReleaseError(field, f"is too small: the release has δ(ε) ≥ δ′ at every ε (got {field}={dp!r})") from None
        raise
    if e1 > single.eps_prime:  # both are valid guarantees: keep the better
        return Point(single.eps_prime, single.eps, single.delta, single.method, single.theorems)
    return Point(e1, eps, delta, method, theorems)


# --------------------------------------------------------------------------------------------------
# Privacy-loss distributions: the exact route (Theorem 3.1)
# --------------------------------------------------------------------------------------------------


def _component_loss(c, h, direction):
    """One run's privacy-loss law on the lattice (every mechanism here has Z′ with the law of Z)."""
    m = c["mechanism"]
    L = composition.LatticeLoss
    if m == "laplace":
        e = c["epsilon"]
        _, _, cdf = mechanisms.laplace_privacy_loss(e)
        return L.from_cdf(cdf, -e, e, h, direction=direction)
    if m == "gaussian":
        mu = c["mu"]
        law = stats.norm(loc=mu, scale=math.sqrt(2 * mu))
        w = 13.0 * math.sqrt(2 * mu)
        return L.from_cdf(law.cdf, mu - w, mu + w, h, direction=direction, sf=law.sf)
    if m == "randomized-response" or (m == "geometric" and c["sensitivity"] == 1):
        e = c["epsilon"]
        return L.from_atoms([e, -e], [expit(e), expit(-e)], h, direction=direction)
    if m == "geometric":  # noise ratio a = e^{−ε/Δ}; Z = ε for noise ≤ 0, −ε for noise ≥ Δ, linear between
        e, s = c["epsilon"], c["sensitivity"]
        a = math.exp(-e / s)
        j = np.arange(1, s)
        values = np.concatenate([[e], e * (s - 2 * j) / s, [-e]])
        weights = np.concatenate([[1 / (1 + a)], mechanisms.two_sided_geometric_pmf(j, e / s) if s > 1 else [],
                                  [a**s / (1 + a)]])
        return L.from_atoms(values, weights, h, direction=direction)
    if m == "dp":  # the worst (ε₀, δ₀)-DP mechanism (Kairouz, Oh & Viswanath 2015): RR with a δ₀ reveal
        e, d = c["epsilon"], c["delta"]
        if e == 0:
            return L.from_atoms([0.0], [1 - d], h, direction=direction, pos_inf=d)
        return L.from_atoms([e, -e], [(1 - d) * expit(e), (1 - d) * expit(-e)], h, direction=direction, pos_inf=d)
    raise ValueError(f"no privacy-loss distribution for mechanism={m!r}")  # pragma: no cover - zcdp is screened


def _spread(c) -> float:
    if c["mechanism"] == "gaussian":
        return math.sqrt(2 * c["mu"])
    return c["epsilon"]


def _lattice(comps, direction, resolution):
    """The composition's loss on a common lattice, its step chosen so that the composed law spans about
    ``resolution`` points (the rounding error is at most (number of runs)·h)."""
    sd = math.sqrt(sum(c["k"] * _spread(c) ** 2 for c in comps))
    width = min(30.0 * sd, sum(c["k"] * (_spread(c) * (26 if c["mechanism"] == "gaussian" else 2)) for c in comps))
    h = max(width / resolution, 1e-12)
    total = None
    for c in comps:
        part = _component_loss(c, h, direction).power(c["k"])
        total = part if total is None else total.compose(part)
    return total


@dataclass(frozen=True)
class Exact:
    threshold: float  # the (1 − δ′) bound on the loss that moves the posterior up (Theorem 3.1)
    pdp_eps: float  # the mechanism's own PDP ε′ at δ′ (Definition 2.4)
    method: str
    is_bound: bool


def _exact(comps, dp, resolution) -> Exact | None:
    kinds = {c["mechanism"] for c in comps}
    if kinds & {"zcdp", "dp"}:
        return None
    mech, k = _homogeneous(comps)
    loss = None
    if kinds == {"gaussian"}:
        mu = sum(c["k"] * c["mu"] for c in comps)
        loss, method = disclosure.gaussian_loss(1.0 / math.sqrt(2.0 * mu)), "closed form: Gaussian, Z ~ N(μ, 2μ) with μ added over runs"
    elif mech is not None and (mech["mechanism"] == "randomized-response"
                               or (mech["mechanism"] == "geometric" and mech["sensitivity"] == 1)):
        loss, method = disclosure.composed_randomized_response_loss(mech["epsilon"], k), "closed form: Z = ε(2B − k), B binomial"
    elif mech is not None and mech["mechanism"] == "laplace" and k == 1:
        loss, method = disclosure.laplace_loss(mech["epsilon"]), "closed form: Laplace privacy loss"
    if loss is not None:
        t = max(float(loss.present.ppf(1 - dp)), -float(loss.absent.ppf(dp)))
        return Exact(t, disclosure.mechanism_pdp_epsilon(dp, loss), method, False)
    up, down = _lattice(comps, "up", resolution), _lattice(comps, "down", resolution)
    t = max(up.upper_quantile(dp), -down.lower_quantile(dp))
    z = up.values[up.values >= 0]
    both = np.asarray(up.tail_above(z)) + np.asarray(down.tail_below(-z))
    ok = np.flatnonzero(both <= dp)
    pdp = float(z[ok[0]]) if ok.size else math.inf
    return Exact(t, pdp, f"upper bound: privacy-loss distribution composed on a lattice of step {_num(up.h)}, "
                         f"rounded to the safe side (at most {_num(up.count * up.h)} above the exact loss)", True)


# --------------------------------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------------------------------


def _f(x):
    """A JSON number: Python float, None for ±inf (vacuous)."""
    x = float(x)
    return None if math.isinf(x) else x


def _post(prior, eps_prime) -> float:
    if math.isinf(eps_prime):
        return 1.0
    return float(disclosure.posterior_bounds(prior, eps_prime)[1])


def _readings(comps, dp, resolution=2**18):
    """ε′ of the three routes for one composition (used by the report and its composition figures)."""
    single = _single_point(comps, dp)
    best = _best_point(comps, dp, resolution=resolution)
    exact = _exact(comps, dp, resolution)
    return single, best, exact


def _scaled(comps, m):
    return [dict(c, k=c["k"] * m) for c in comps]


def _pure_eps(comps):
    """The release's ε when every part is pure DP (basic composition with δ = 0 is exact: Theorem 2.8(1))."""
    if all(c["mechanism"] in PURE or (c["mechanism"] == "dp" and c["delta"] == 0) for c in comps):
        return float(sum(c["k"] * c["epsilon"] for c in comps))
    return None


def interpret(release: dict, *, composition_points: int = 12) -> dict:
    """The report's content for a release (a dict as in :func:`parse_release`, validated here)."""
    rel = parse_release(release) if "components" not in release else release
    comps, dp, priors = rel["components"], rel["delta_prime"], rel["priors"]
    single, best, exact = _readings(comps, dp)
    exact_eps = min(best.eps_prime, exact.pdp_eps) if exact else best.eps_prime
    disclosure_rows = []
    for p in priors:
        up_exact = None
        if exact is not None:
            up_exact = min(float(disclosure.posterior_from_privacy_loss(p, exact.threshold)), _post(p, best.eps_prime))
        low, _ = disclosure.posterior_bounds(p, exact_eps) if math.isfinite(exact_eps) else (0.0, 1.0)
        rlow, rhigh = disclosure.prior_ratio_bounds(p, exact_eps) if math.isfinite(exact_eps) else (0.0, 1.0 / p)
        dlow, dhigh = disclosure.prior_difference_bounds(p, exact_eps) if math.isfinite(exact_eps) else (-p, 1 - p)
        disclosure_rows.append({
            "prior": p, "delta_prime": dp,
            "posterior_upper": {"single_point": _post(p, single.eps_prime), "best_point": _post(p, best.eps_prime),
                                "exact": up_exact},
            "posterior_lower": float(low),
            "ratio": {"low": float(rlow), "high": float(rhigh)},
            "difference": {"down": float(dlow), "up": float(dhigh)},
        })
    pure = _pure_eps(comps)
    reading_eps = pure if pure is not None else exact_eps
    out = {
        "release": {"name": rel["name"], "mechanisms": comps, "priors": priors, "delta_prime": dp},
        "eps_prime": {"single_point": _f(single.eps_prime), "best_point": _f(best.eps_prime),
                      "exact": _f(exact_eps) if exact else None},
        "methods": {
            "single_point": {"method": single.method, "theorems": single.theorems,
                             "eps": _f(single.eps), "delta": float(single.delta)},
            "best_point": {"method": best.method, "theorems": best.theorems, "eps": _f(best.eps), "delta": float(best.delta)},
            "exact": ({"method": exact.method, "is_bound": exact.is_bound,
                       "theorems": "Kazan et al. Theorem 3.1 (posterior from the privacy-loss variable), Definition 2.4"}
                      if exact else {"method": None, "is_bound": None, "theorems": "Kazan et al. Theorem 3.1",
                                     "unavailable": _why_no_exact(comps)}),
        },
        "disclosure": disclosure_rows,
        "prior_free": _prior_free(exact_eps),
        "plain_language": _plain(best, exact, priors, dp),
        "semantic": _semantic(reading_eps, pure is not None, dp),
        "bayesian": _bayesian(reading_eps, pure is not None, priors, dp),
        "causal": _causal(reading_eps, pure is not None, dp),
        "composition": _composition(comps, priors[0], dp, composition_points),
    }
    return out


def _why_no_exact(comps) -> str:
    kinds = sorted({c["mechanism"] for c in comps} & {"zcdp", "dp"})
    return (f"part of the release is known only by its guarantee ({', '.join(kinds)}), not by its mechanism: "
            "Theorem 3.1 needs the privacy-loss distribution, and mechanisms with the same guarantee have different ones")


def _prior_free(eps_prime) -> dict:
    if math.isinf(eps_prime):
        return {"eps_prime": None, "ratio": None, "difference": 1.0, "worst_case_priors": None,
                "theorems": "Kazan et al. Theorems 3.3, 3.5; Lemma 3.4"}
    rlow, rhigh = disclosure.ratio_bounds(eps_prime)
    up, down = disclosure.worst_case_prior(eps_prime)
    return {"eps_prime": float(eps_prime), "ratio": {"low": float(rlow), "high": _f(rhigh)},
            "difference": float(disclosure.difference_bound(eps_prime)),
            "worst_case_priors": {"up": float(up), "down": float(down)},
            "theorems": "Kazan et al. Theorem 3.3 (ratio), Theorem 3.5(1) (difference), Lemma 3.4 (worst-case priors)"}


def _plain(best: Point, exact, priors, dp) -> str:
    prior = 0.5 if 0.5 in priors else priors[-1]
    if math.isinf(best.eps_prime):
        return "At this δ′ the release's guarantee does not limit what an adversary can learn."
    text = disclosure.explain(best.eps, best.delta, dp, prior, audience="general")
    if exact is not None:
        bound = min(float(disclosure.posterior_from_privacy_loss(prior, exact.threshold)), _post(prior, best.eps_prime))
        text += (f" For the mechanism actually used, the belief ends at most at {_num(100 * bound)}% with probability "
                 f"at least {_num(100 * (1 - dp))}%" + (" (a bound computed to the safe side)." if exact.is_bound else "."))
    return text


def _semantic(eps, pure, dp) -> dict:
    holds = ("always" if pure else f"except on outputs of probability at most δ′ = {_num(dp)}, where the privacy "
             "loss exceeds ε′ (probabilistic DP, Kazan et al. Definition 2.4); for an adversary who knows every other "
             "record (the two-point belief)")
    if math.isinf(eps):
        return {"epsilon": None, "holds": holds, "ks_theorem_2_2": None, "exact": 1.0, "strong_adversary": 1.0}
    return {
        "epsilon": eps, "holds": holds,
        "ks_theorem_2_2": float(semantic.thm22_epsilon(eps)) if pure else None,
        "exact": float(semantic.tight_semantic_epsilon(eps)) if pure else None,
        "strong_adversary": float(disclosure.difference_bound(eps)),
        "theorems": "Kasiviswanathan & Smith Theorem 2.2 (as printed, e^ε − 1; pure DP); exact over all beliefs "
                    "tanh(ε/2) (attained, semantic-privacy chapter); for the adversary who knows all other records the "
                    "statistical difference is |posterior − prior| ≤ tanh(ε/4) (Kazan et al. Lemma 3.4)",
        "note": None if pure else "Over all beliefs (not only the two-point one) K&S Theorem 2.4 reads (ε, δ)-DP at a "
                                  "cost growing with the number of records n, which is not part of a release: the "
                                  "exact level over all beliefs is given for pure DP only",
    }


def _bayesian(eps, pure, priors, dp) -> dict:
    if math.isinf(eps):
        return {"epsilon": None, "bdp_independent": None, "bsp_zhao": None, "bsp_exact": 1.0, "membership": []}
    ratio = math.exp(eps) if eps < 700 else math.inf
    return {
        "epsilon": eps,
        "holds": "always" if pure else f"on outputs where the privacy loss is within ε′ (probability ≥ {_num(1 - dp)})",
        "bdp_independent": eps,
        "bsp_zhao": float(np.expm1(2 * eps)) if pure else None,
        "bsp_exact": float(semantic.tight_semantic_epsilon(eps)) if pure else None,
        "membership": [{"prior": b, "epsilon_mp": float(notions.membership_privacy_lemma1(ratio, b)),
                        "g": float(notions.membership_g(b, eps))} for b in priors],
        "theorems": "Zhao: Bayesian DP equals DP when records are independent (with correlated records the leakage "
                    "can exceed ε); Theorem 1, ε-BDP ⇒ (e^(2ε) − 1)-BSP, exact tanh(ε/2); membership privacy by "
                    "Lemma 1 with the function g of eq. (26)",
    }


def _causal(eps, pure, dp) -> dict:
    if math.isinf(eps):
        return {"epsilon": None, "effect_bound": None, "relative_probability_max": None, "relatives": []}
    return {
        "epsilon": eps,
        "holds": "always" if pure else f"on outputs where the privacy loss is within ε′ (probability ≥ {_num(1 - dp)})",
        "effect_bound": eps,
        "relative_probability_max": _f(math.exp(eps) if eps < 700 else math.inf),
        "bounds": "the effect of intervening on one person's data point D_i on the output O: "
                  "Pr[O = o | do(D_i = d)] ≤ e^ε · Pr[O = o | do(D_i = d′)] (bounded relative probability)",
        "does_not_bound": "the effect of a person's status R_i on the output when R_i also shapes other people's data "
                          "(relatives, households): each copy adds up to ε; nor what the output reveals by association",
        "relatives": [{"relatives": m, "effect": float(causal.relatives_effect(min(eps, 30.0), m)) if eps <= 30 else (m + 1) * eps}
                      for m in (1, 2, 3)],
        "theorems": "Tschantz, Sen & Datta §6.1: ε-DP is ε-bounded relative probability (Definition 9) from each data "
                    "point to the output; §6.3: a status copied into m relatives' data has effect up to (m + 1)ε",
    }


def _composition(comps, prior, dp, points) -> dict:
    """The readings when the whole release is repeated m times (m = 1 … ``points``), coarser lattice."""
    rows = []
    for m in range(1, points + 1):
        sc = _scaled(comps, m)
        if any(c["k"] > K_MAX for c in sc):
            break
        single, best, exact = _readings(sc, dp, resolution=2**14)
        pure = _pure_eps(sc)
        e_read = pure if pure is not None else (min(best.eps_prime, exact.pdp_eps) if exact else best.eps_prime)
        ex = None
        if exact is not None:
            ex = min(float(disclosure.posterior_from_privacy_loss(prior, exact.threshold)), _post(prior, best.eps_prime))
        rows.append({"repetitions": m, "single_point": _post(prior, single.eps_prime),
                     "best_point": _post(prior, best.eps_prime), "exact": ex,
                     "eps_prime_best": _f(best.eps_prime), "difference": float(disclosure.difference_bound(e_read))
                     if math.isfinite(e_read) else 1.0,
                     "semantic_exact": (float(semantic.tight_semantic_epsilon(e_read)) if math.isfinite(e_read) else 1.0)
                     if pure is not None else None})
    return {"prior": prior, "delta_prime": dp, "rows": rows,
            "method": "the whole release repeated m times; exact composition (ρ and μ add, optimal composition, "
                      "privacy-loss distributions convolved)"}
