"""The report's content: a release (validated by :mod:`.fields`, built into :mod:`dpsemantics.releases`
objects) read through the five papers.  Numbers stay numbers here; the renderers format them.

What is computed, and from which result:

* **Disclosure** (Kazan et al.).  For each prior, the (1 − δ′) upper bound on the posterior of an adversary
  who knows every other record, three ways: ``single_point`` (one stated guarantee converted as the paper does,
  :meth:`~dpsemantics.releases.Composed.single_point`), ``best_point`` (Theorem 3.9 at the best point of the
  whole privacy profile, :meth:`~dpsemantics.releases.Composed.best_point`) and ``exact`` (the mechanism's own
  privacy-loss law through Theorem 3.1, :meth:`~dpsemantics.releases.Composed.exact`).  Ratio and difference
  bounds (Theorems 3.3, 3.5), worst-case priors (Lemma 3.4) and §4.1's plain-language paragraph come with them.
* **Pure releases.**  When every part is pure ε-DP the privacy loss never exceeds the total ε, so the bound at ε
  holds on every output (Theorems 2.3 and 3.2): ``posterior_always``, the headline and the lower bound, ratio and
  change are read there; route bounds below it hold with probability ≥ 1 − δ′ and are marked so (``holds_always``).
* **The value reading under unbounded neighbours** (``reading.value_reading``): a value change is a removal and an
  addition, so each part's guarantee is taken for a group of two (pure ε → 2ε; (ε, δ) → (2ε, (1 + e^ε)δ); ρ → 4ρ; a
  Gaussian mechanism at twice its sensitivity), composed, and read at δ′ like the membership bound — never at 2ε′
  and 2δ′, which is false.
* **The reading depends on the neighbouring relation.**  Kazan et al. state their results for unbounded DP
  (a record added or removed), so the posterior is about *membership*; they list the bounded version as
  future work (§5).  With bounded neighbours (a record's value replaced) the same computation — Bayes's rule
  for two hypotheses whose databases are neighbours, Theorem 3.1's argument — bounds the posterior that the
  target's record holds one value rather than another, *given that the target is in the data*; membership is
  then not what the guarantee is about.
* **Semantic** (Kasiviswanathan & Smith), **Bayesian** (Zhao) and **causal** (Tschantz, Sen & Datta)
  readings at the release's ε (pure DP) or the smallest ε′ known at δ′.
* **Composition**: the readings when the whole release is repeated up to ``horizon`` times.
"""

from __future__ import annotations

import math

import numpy as np

from .. import causal, disclosure, notions, releases, semantic
from .._validate import ParameterError
from .fields import ReleaseError, validate, warnings_for

__all__ = ["SCHEMA_VERSION", "build", "parse_release", "interpret"]

#: The version of report.json's layout (2: numbers as numbers, unit, neighbours, invariants, horizon, headline;
#: 3: always, posterior_always, holds_always, posterior_upper_with_lower, warnings, release.published, the value
#: reading by group privacy at δ′ (its delta_prime is δ′, no longer 2δ′), posterior_curve.log_x).
SCHEMA_VERSION = 3
#: Composition rows computed at most (spread over 1 … horizon).
COMPOSITION_POINTS = 12


def build(components) -> releases.Composed:
    """The release as a :class:`~dpsemantics.releases.Composed` of mechanism objects, from the normal form's
    components ``(name, k, fields, field prefix)``; a value the mathematics refuses becomes a ReleaseError."""
    parts = []
    for name, k, fields, where in components:
        try:
            parts.append((releases.from_fields(name, **fields), k))
        except ParameterError as err:  # the field from the error's attribute, never from its message
            named = err.parameter in fields
            field = err.parameter if named else next(iter(fields), "mechanism")
            raise ReleaseError(where + field, err.reason if named else str(err)) from None
    return releases.Composed(parts)


def parse_release(data: dict) -> dict:
    """Validate a release given as a dict and build its model: the normal form of
    ``dpsemantics.report.fields.validate`` with ``"model"`` (the composed mechanisms) added."""
    rel = validate(data)
    model = build(rel["components"])
    floor = model.reveal()
    if floor >= rel["delta_prime"]:
        raise ReleaseError("delta_prime", f"must exceed {floor:.6g}, the probability with which the release may give "
                                          f"no protection at all (its total δ at every ε); got {rel['delta_prime']!r}")
    return {**rel, "model": model}


def from_parameters(mechanism, epsilon=0.0, delta=0.0, sigma=0.0, rho=0.0, sensitivity=1.0, k=1,
                    priors=(0.01, 0.1, 0.5), delta_prime=0.01, name="release", **extra) -> dict:
    """A release from the chapter's parameters cell, where every field is a number and 0 means "not given"
    (papermill needs a value of one type per parameter); only the fields the mechanism takes are passed on."""
    from .fields import MECHANISMS

    takes = MECHANISMS.get(mechanism, {}).get("fields", {})
    raw = {"mechanism": mechanism, "k": k, "priors": list(priors), "delta_prime": delta_prime, "name": name, **extra}
    for key, value in (("epsilon", epsilon), ("delta", delta), ("sigma", sigma), ("rho", rho)):
        if value != 0 and key in takes:
            raw[key] = value
    if sensitivity != 1 and "sensitivity" in takes:
        raw["sensitivity"] = sensitivity
    return parse_release(raw)


# --------------------------------------------------------------------------------------------------
# Numbers
# --------------------------------------------------------------------------------------------------


def _f(x):
    """A JSON number: Python float, None for ±inf or NaN (no guarantee)."""
    x = float(x)
    return x if math.isfinite(x) else None


def _post(prior, eps_prime):
    """Corollary 3.10's upper posterior p/(p + (1 − p)e^{−ε′}), None when ε′ = ∞ (no guarantee)."""
    if not math.isfinite(eps_prime):
        return None
    return float(disclosure.posterior_bounds(prior, eps_prime)[1])


def _from_loss(prior, threshold, eps_prime):
    """Theorem 3.1's posterior at the (1 − δ′) loss threshold, never above the profile route's bound."""
    if not math.isfinite(threshold):
        return _post(prior, eps_prime)
    x = float(disclosure.posterior_from_privacy_loss(prior, threshold))
    other = _post(prior, eps_prime)
    return x if other is None else min(x, other)


def _routes(model, dp, resolution):
    single = model.single_point(dp)
    best = model.best_point(dp, resolution=resolution)
    exact = model.exact(dp, resolution=resolution)
    return single, best, exact


def _smallest(best, exact) -> float:
    return best.eps_prime if exact is None else min(best.eps_prime, exact.pdp_eps)


# --------------------------------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------------------------------


def interpret(release: dict, *, resolution: int = 2**18, horizon: int | None = None) -> dict:
    """The report's content for a release (a dict as in :func:`~dpsemantics.report.parse_release`, validated
    here if raw)."""
    rel = release if "model" in release else parse_release(release)
    model, dp, priors = rel["model"], rel["delta_prime"], rel["priors"]
    single, best, exact = _routes(model, dp, resolution)
    eps_small = _smallest(best, exact)
    pure = model.pure_epsilon()
    # pure ε-DP: the privacy loss never exceeds ε, so the posterior bound at ε holds on every output (Kazan et al.
    # Theorems 2.3 and 3.2); the lower bound, ratio and change are read there too (probability 1)
    eps_read = pure if pure is not None else eps_small
    rows = []
    for p in priors:
        finite = math.isfinite(eps_read)
        low, high_both = (float(x) for x in disclosure.posterior_bounds(p, eps_read)) if finite else (0.0, None)
        rlow, rhigh = disclosure.prior_ratio_bounds(p, eps_read) if finite else (0.0, 1.0 / p)
        dlow, dhigh = disclosure.prior_difference_bounds(p, eps_read) if finite else (-p, 1 - p)
        always = None if pure is None else _post(p, pure)
        upper = {"single_point": _post(p, single.eps_prime), "best_point": _post(p, best.eps_prime),
                 "exact": (None if exact is None else _from_loss(p, exact.threshold, best.eps_prime))
                 if not (exact is None and pure is not None) else always}
        rows.append({
            "prior": p, "delta_prime": dp,
            "posterior_always": always,
            "posterior_upper": upper,
            "holds_always": {key: _at_least(value, always) for key, value in upper.items()},
            "posterior_lower": low,
            # the upper bound from the same event as the lower one (|L| ≤ ε′, Definition 2.4): the two hold together
            "posterior_upper_with_lower": high_both,
            "ratio": {"low": float(rlow), "high": _f(rhigh)},
            "difference": {"down": float(dlow), "up": float(dhigh)},
        })
    reading_eps = eps_read
    horizon = rel["horizon"] if horizon is None else horizon
    out = {
        "schema_version": SCHEMA_VERSION,
        "release": {
            "name": rel["name"], "title": rel.get("title"),
            "mechanisms": [{"mechanism": m.name, **m.parameters(), "k": k} for m, k in model.parts],
            "priors": priors, "delta_prime": dp, "horizon": horizon, "horizon_reason": rel["horizon_reason"],
            "rho": _f(model.rho()) if model.rho() is not None else None, "pure_epsilon": pure,
            "published": (rel.get("source") or {}).get("published"),
        },
        "unit": rel["unit"],
        "neighbours": rel["neighbours"],
        "invariants": rel["invariants"],
        "source": rel.get("source"),
        "eps_prime": {"single_point": _f(single.eps_prime), "best_point": _f(best.eps_prime),
                      "exact": _f(eps_small) if exact else (pure if pure is not None else None)},
        "always": pure is not None,
        "methods": {
            "single_point": {"method": single.method, "theorems": single.theorems,
                             "eps": _f(single.eps), "delta": float(single.delta)},
            "best_point": {"method": best.method, "theorems": best.theorems, "eps": _f(best.eps),
                           "delta": float(best.delta)},
            "exact": ({"method": exact.method, "is_bound": exact.is_bound,
                       "eps_prime_low": _f(exact.pdp_eps_low), "eps_prime_high": _f(exact.pdp_eps),
                       "threshold_low": _f(exact.threshold_low), "threshold_high": _f(exact.threshold),
                       "posterior_low": [None if not math.isfinite(exact.threshold_low) else
                                         float(disclosure.posterior_from_privacy_loss(p, exact.threshold_low))
                                         for p in priors],
                       "theorems": "Kazan et al. Theorem 3.1 (posterior from the privacy-loss variable), "
                                   "Definition 2.4"}
                      if exact else _pure_worst_case(pure, priors) if pure is not None else
                      {"method": None, "is_bound": None, "theorems": "Kazan et al. Theorem 3.1",
                                     "unavailable": "part of the release is read by its guarantee only (a "
                                                    "mechanism known only by its guarantee, or one whose privacy-loss "
                                                    "law the package does not hold): "
                                                    "Theorem 3.1 needs the privacy-loss distribution, and mechanisms "
                                                    "with the same guarantee have different ones"}),
        },
        "disclosure": rows,
        "prior_free": _prior_free(eps_read),
        "plain_language": _plain(best, exact, priors, dp, rel["neighbours"]),
        "reading": _reading(rel, model, dp),
        "semantic": _semantic(reading_eps, pure is not None, dp),
        "bayesian": _bayesian(reading_eps, pure is not None, priors, dp),
        "causal": _causal(reading_eps, pure is not None, dp),
        "posterior_curve": _curve(single, best, exact, dp, pure),
        "composition": _composition(model, priors[-1], dp, horizon),
    }
    out["headline"] = _headline(out)
    out["warnings"] = warnings_for(rel) + list((rel.get("source") or {}).get("overridden") or [])
    return out


def _at_least(value, always) -> bool:
    """Whether a route's bound is no tighter than the pure bound (then it holds on every output, as that one does)."""
    return always is not None and value is not None and value >= always * (1 - 1e-12)


def _pure_worst_case(pure, priors) -> dict:
    """The exact route for a release known only by its pure guarantee: the worst case over all ε-DP mechanisms is
    the pure bound itself (randomized response with ε attains it, on an output of probability e^ε/(1 + e^ε))."""
    return {"method": "exact worst case over all mechanisms with this pure guarantee: the privacy loss never "
                      f"exceeds ε = {pure:.6g}, and randomized response with this ε reaches it "
                      "(Kazan et al. Theorems 2.3, 3.2)",
            "is_bound": False, "eps_prime_low": pure, "eps_prime_high": pure, "threshold_low": pure,
            "threshold_high": pure, "posterior_low": [_post(p, pure) for p in priors],
            "theorems": "Kazan et al. Theorems 2.3 and 3.2 (pure DP: the bound holds on every output)"}


def _headline(rep) -> dict:
    """The largest posterior reachable from the priors asked (best bound known for each prior): for a pure release
    the bound that holds on every output (probability 1), with the smaller one that holds with probability ≥ 1 − δ′
    when a route gives one."""
    best_prior, best_value, route, tighter = None, -1.0, None, None
    rows = rep["disclosure"]
    # the priors a bound can say something about first: from a belief above 99.99 % no release moves it much
    rows = [row for row in rows if row["prior"] < 0.9999] or rows
    for row in rows:
        u = row["posterior_upper"]
        known = [(u[key], key) for key in ("exact", "best_point", "single_point") if u[key] is not None]
        if row["posterior_always"] is not None:
            value, key = row["posterior_always"], "always"
            less = [v for v, k in known if not row["holds_always"][k] and v < value]
            small = min(less) if less else None
        else:
            value, key = min(known) if known else (1.0, None)
            small = None
        if value >= best_value:
            best_prior, best_value, route, tighter = row["prior"], value, key, small
    return {"prior": best_prior, "posterior_upper": None if route is None else best_value, "route": route,
            "always": route == "always", "tighter_with_delta_prime": tighter,
            "delta_prime": rep["release"]["delta_prime"], "neighbours": rep["neighbours"]}


def _doubled(model) -> releases.Composed | None:
    """Each part's guarantee for a change of one record's value, a removal then an addition (group privacy for two
    steps, applied to each part by its :meth:`~dpsemantics.releases.Mechanism.group_of_two`, then composed): pure
    ε → 2ε; (ε, δ) → (2ε, (1 + e^ε)δ); ρ-zCDP → 4ρ (Bun & Steinke 2016, Proposition 1.9); a Gaussian mechanism at
    twice its sensitivity, whose own law is then used.  ``None`` when a part has no guarantee left (δ ≥ 1)."""
    parts = [(m.group_of_two(), k) for m, k in model.parts]
    if any(m is None for m, _ in parts):  # a part with no guarantee left: no value reading rather than a wrong one
        return None
    return releases.Composed(parts)


VALUE_METHOD = ("a change of the target's value is a removal and an addition, a group of two: group privacy at the "
                "level of each part's guarantee (pure ε → 2ε; (ε, δ) → (2ε, (1 + e^ε)δ); ρ → 4ρ; a Gaussian mechanism "
                "at twice its sensitivity, with its own law), composed, then read like the membership bound "
                "(Kazan et al. Theorem 3.9 at the best point, or Theorem 3.1 with the mechanism's own law)")


def _value_reading(model, priors, dp) -> dict:
    """The value reading under unbounded neighbours, from :func:`_doubled`: never ε′ and δ′ doubled, which is
    false (an (ε, δ)-DP mechanism can put the value posterior at 1 on outputs of probability e^ε·δ, above 2δ′ for
    δ′ < e^ε·δ/2: issue 36's example, ε = 3, δ = 0.002, δ′ = 0.01)."""
    doubled = _doubled(model)
    if doubled is None or doubled.reveal() >= dp:
        reveal = None if doubled is None else doubled.reveal()
        return {"eps_prime": None, "delta_prime": dp, "always": False, "method": VALUE_METHOD,
                "reveal": reveal, "posteriors": [{"prior": p, "posterior_upper": None} for p in priors]}
    pure = doubled.pure_epsilon()
    single, best, exact = _routes(doubled, dp, 2**14)
    eps_small = _smallest(best, exact)
    posts = []
    for p in priors:
        if pure is not None:
            value = _post(p, pure)
        else:
            known = [v for v in (_post(p, single.eps_prime), _post(p, best.eps_prime),
                                 None if exact is None else _from_loss(p, exact.threshold, best.eps_prime))
                     if v is not None]
            value = min(known) if known else None
        posts.append({"prior": p, "posterior_upper": value})
    eps = pure if pure is not None else eps_small
    return {"eps_prime": _f(eps), "delta_prime": dp, "always": pure is not None, "method": VALUE_METHOD,
            "reveal": max(0.0, doubled.reveal()), "posteriors": posts}


def _reading(rel, model, dp) -> dict:
    """What the posterior is about, which results carry over, and what the guarantee does not cover."""
    outside = [f"invariant (published exactly, outside the accounting): {text}" for text in rel["invariants"]]
    outside.append("post-processing adds no privacy loss but the guarantee says nothing beyond the privacy unit"
                   + (f" ({rel['unit']})" if rel["unit"] else "")
                   + ": several units belonging to one person (several days, devices, relatives) add up")
    if rel["neighbours"] == "unbounded":
        return {
            "neighbours": "unbounded",
            "question": "is the target in the data?",
            "prior_means": "the adversary's probability that the target's record is in the data",
            "carries_over": "Kazan et al. Theorems 3.1–3.9 and Corollary 3.10 as stated (they assume unbounded DP)",
            "value_reading": _value_reading(model, rel["priors"], dp),
            "value_reading_note": VALUE_METHOD,
            "not_covered": outside,
        }
    return {
        "neighbours": "bounded",
        "question": "which of two values does the target's record hold, given that the target is in the data?",
        "prior_means": "the adversary's probability that the target's record holds the first of two candidate values",
        "carries_over": "the posterior bounds of Kazan et al. (Theorem 3.1's Bayes step, Theorems 3.3, 3.5, 3.9, "
                        "Corollary 3.10) for the two databases that differ in the target's value, which are "
                        "neighbours here; Kazan et al. state their results for unbounded DP and list the bounded "
                        "version as future work (§5), so this reading is the book's, by the same argument",
        "value_reading": None,
        "value_reading_note": None,
        "not_covered": ["membership: bounded neighbours keep the number of records fixed, so the guarantee says "
                        "nothing about whether the target is in the data (the record count, or an invariant, may "
                        "reveal it)"] + outside,
    }


def _prior_free(eps_prime) -> dict:
    if not math.isfinite(eps_prime):
        return {"eps_prime": None, "ratio": None, "difference": 1.0, "worst_case_priors": None,
                "theorems": "Kazan et al. Theorems 3.3, 3.5; Lemma 3.4"}
    rlow, rhigh = disclosure.ratio_bounds(eps_prime)
    up, down = disclosure.worst_case_prior(eps_prime)
    return {"eps_prime": float(eps_prime), "ratio": {"low": float(rlow), "high": _f(rhigh)},
            "difference": float(disclosure.difference_bound(eps_prime)),
            "worst_case_priors": {"up": float(up), "down": float(down)},
            "theorems": "Kazan et al. Theorem 3.3 (ratio), Theorem 3.5(1) (difference), Lemma 3.4 (worst-case priors)"}


def _plain(best, exact, priors, dp, neighbours) -> str | None:
    """§4.1's explanation at the best point (membership wording; None when there is no guarantee, when the
    bounds it would print round to 0 % and 100 %, or when the neighbours are bounded: the headline speaks then)."""
    if not math.isfinite(best.eps_prime) or neighbours != "unbounded" or best.eps > 700:
        return None
    prior = 0.5 if 0.5 in priors else priors[-1]
    low, high = disclosure.posterior_bounds(prior, best.eps_prime)
    if low < 5e-4 or high > 1 - 5e-4:  # §4.1's sentence would read "between 0.0% and 100.0%": the headline says it
        return None
    with np.errstate(all="ignore"):
        return disclosure.explain(best.eps, best.delta, dp, prior, audience="general")


def _semantic(eps, pure, dp) -> dict:
    if not math.isfinite(eps):
        return {"epsilon": None, "pure": pure}
    with np.errstate(over="ignore"):
        return {
            "epsilon": eps, "pure": pure, "delta_prime": None if pure else dp,
            "ks_theorem_2_2": _f(semantic.thm22_epsilon(eps)) if pure else None,
            "exact": float(semantic.tight_semantic_epsilon(eps)) if pure else None,
            "strong_adversary": float(disclosure.difference_bound(eps)),
            "theorems": "Kasiviswanathan & Smith Theorem 2.2 (as printed, e^ε − 1; pure DP); exact over all beliefs "
                        "tanh(ε/2) (attained, semantic-privacy chapter); for the adversary who knows all other records "
                        "the statistical difference is |posterior − prior| ≤ tanh(ε/4) (Kazan et al. Lemma 3.4)",
        }


def _bayesian(eps, pure, priors, dp) -> dict:
    if not math.isfinite(eps):
        return {"epsilon": None, "pure": pure, "membership": []}
    ratio = math.exp(eps) if eps < 700 else math.inf
    with np.errstate(over="ignore"):
        return {
            "epsilon": eps, "pure": pure, "delta_prime": None if pure else dp,
            "bdp_independent": eps,
            "bsp_zhao": _f(np.expm1(2 * eps)) if pure else None,
            "bsp_exact": float(semantic.tight_semantic_epsilon(eps)) if pure else None,
            "membership": [{"prior": b, "epsilon_mp": _f(notions.membership_privacy_lemma1(ratio, b)),
                            "g": _f(notions.membership_g(b, eps))} for b in priors],
            "theorems": "Zhao: Bayesian DP equals DP when records are independent (with correlated records the "
                        "leakage can exceed ε); Theorem 1, ε-BDP ⇒ (e^(2ε) − 1)-BSP, exact tanh(ε/2); membership "
                        "privacy by Lemma 1 with the function g of eq. (26)",
        }


def _causal(eps, pure, dp) -> dict:
    if not math.isfinite(eps):
        return {"epsilon": None, "pure": pure, "relatives": []}
    return {
        "epsilon": eps, "pure": pure, "delta_prime": None if pure else dp,
        "effect_bound": eps,
        "relative_probability_max": _f(math.exp(eps)) if eps < 700 else None,
        "relatives": [{"relatives": m,
                       "effect": float(causal.relatives_effect(eps, m)) if eps <= 30 else _f((m + 1) * eps)}
                      for m in (1, 2, 3)],
        "theorems": "Tschantz, Sen & Datta §6.1: ε-DP is ε-bounded relative probability (Definition 9) from each data "
                    "point to the output; §6.3: a status copied into m relatives' data has effect up to (m + 1)ε",
    }


def _curve(single, best, exact, dp, pure=None) -> dict:
    """The upper posterior against the prior (for the posterior-against-prior plot), each route.  The priors are
    chosen from the release: a linear grid on (0, 1) when the bound is informative there, else a logarithmic grid
    around the prior 1/(1 + e^ε′) whose bound is 1/2 (two decades either side), so the curves are not flat at 1."""
    eps = pure if pure is not None else (best.eps_prime if exact is None else min(best.eps_prime, exact.pdp_eps))
    log_x = math.isfinite(eps) and eps > math.log(199.0)  # the bound at prior 0.005 is already above 1/2
    if log_x:
        log_middle = -eps - math.log1p(math.exp(-eps))  # log 1/(1 + e^ε)
        low = math.exp(max(log_middle - math.log(100.0), math.log(1e-300)))
        high = math.exp(min(log_middle + math.log(100.0), math.log(0.5)))
        if not low < high:  # ε beyond the float range of priors: the widest logarithmic grid
            low, high = 1e-300, 0.5
        grid = [float(x) for x in np.geomspace(low, high, 100)]
    else:
        grid = [float(x) for x in np.linspace(0.005, 0.995, 100)]
    return {"priors": grid, "delta_prime": dp, "log_x": log_x,
            "always": None if pure is None else [_post(p, pure) for p in grid],
            "single_point": [_post(p, single.eps_prime) for p in grid],
            "best_point": [_post(p, best.eps_prime) for p in grid],
            "exact": None if exact is None else [_from_loss(p, exact.threshold, best.eps_prime) for p in grid]}


def repetition_points(horizon: int, points: int = COMPOSITION_POINTS) -> list[int]:
    """At most ``points`` repetition counts from 1 to ``horizon``, evenly spread on a log scale."""
    if horizon <= points:
        return list(range(1, horizon + 1))
    raw = np.unique(np.round(np.geomspace(1, horizon, points)).astype(int))
    return [int(m) for m in raw]


def _composition(model, prior, dp, horizon) -> dict:
    """The readings when the whole release is repeated m times (m = 1 … horizon), on a coarser lattice."""
    rows = []
    for m in repetition_points(horizon):
        if max(k for _, k in model.parts) * m > releases.K_MAX:
            break
        rep = model.repeat(m) if m > 1 else model
        single, best, exact = _routes(rep, dp, 2**14)
        pure = rep.pure_epsilon()
        e_small = _smallest(best, exact)
        e_read = pure if pure is not None else e_small
        rows.append({"repetitions": m, "single_point": _post(prior, single.eps_prime),
                     "best_point": _post(prior, best.eps_prime),
                     "exact": None if exact is None else _from_loss(prior, exact.threshold, best.eps_prime),
                     "eps_prime_best": _f(best.eps_prime),
                     "difference": float(disclosure.difference_bound(e_read)) if math.isfinite(e_read) else None,
                     "semantic_exact": (float(semantic.tight_semantic_epsilon(e_read)) if math.isfinite(e_read)
                                        else None) if pure is not None else None})
    return {"prior": prior, "delta_prime": dp, "horizon": horizon, "rows": rows,
            "method": "the whole release repeated m times; exact composition (ρ and μ add, optimal composition, "
                      "privacy-loss distributions convolved)"}
