"""The fields of a release and their checks, in plain Python (no NumPy, no SciPy): the command line refuses bad
input, and answers ``--help``, before the mathematics is imported.

The mechanisms and their fields are read from their declarations in :mod:`dpsemantics.releases` (each class's
``fields``, registered in ``releases.FROM_FIELDS``; that module loads its numerical floor on first use): this
module only arranges them into the tables below.  ``validate`` turns a release given as a dict (JSON, flags or a
gallery entry) into its normal form or raises :class:`ReleaseError` naming the first bad field.  Mechanism objects
are built from the normal form by ``dpsemantics.report.content.build``.
"""

from __future__ import annotations

import math
import numbers
import re
from fractions import Fraction

from ..errors import ParameterError
from ..releases import FROM_FIELDS, K_MAX  # the release model's limit on k, re-exported: one constant

__all__ = ["FIELDS", "MECHANISMS", "PARAMETERS", "SYMBOLS", "NEIGHBOURS", "DEFAULT_PRIORS", "DEFAULT_DELTA_PRIME",
           "K_MAX", "MAX_PARTS", "MAX_PRIORS", "HORIZON_MAX", "MAX_DIGITS", "ReleaseError", "validate",
           "default_horizon", "warnings_for"]

#: What each mechanism takes (besides ``k``), from its class's declaration: ``fields`` with each field's domain,
#: ``needs``: required fields; ``together``: fields given together or not at all; ``either``: at least one of them;
#: ``alone``: a field given with no other.
MECHANISMS = {name: {"fields": {f.name: f.domain() for f in cls.fields},
                     "needs": tuple(f.name for f in cls.fields if f.required), "together": cls.together,
                     "either": cls.either, "alone": cls.alone} for name, cls in FROM_FIELDS.items()}
#: Every mechanism parameter a release may give (a flag each), in the order the mechanisms declare them.
PARAMETERS = tuple(dict.fromkeys(f.name for cls in FROM_FIELDS.values() for f in cls.fields))
#: The report's symbol of each parameter of a mechanism (its fields, and what ``parameters()`` adds, such as μ).
SYMBOLS = {**{f.name: f.symbol for cls in FROM_FIELDS.values() for f in cls.fields},
           **{key: symbol for cls in FROM_FIELDS.values() for key, symbol in cls.reported.items()}}


def _parameter_help(name: str) -> str:
    """One parameter's help: its symbol, then what it is, and its range, for each mechanism taking it."""
    uses = [(mech, f) for mech, cls in FROM_FIELDS.items() for f in cls.fields if f.name == name]
    return f"{uses[0][1].symbol}: " + "; ".join(f"{mech}: {f.range_text()}, {f.help}" for mech, f in uses)


NEIGHBOURS = ("unbounded", "bounded")

#: Every field of a release, with its meaning (the command line's --help and the chapter list these).
FIELDS = {
    "mechanism": "one of " + ", ".join(FROM_FIELDS) + " (" + "; ".join(f"{name}: {cls.title}"
                                                                    for name, cls in FROM_FIELDS.items()) + ")",
    **{name: _parameter_help(name) for name in PARAMETERS},
    "k": f"how many times this mechanism is run on the same data (whole number >= 1, at most {K_MAX}, "
         "default 1)",
    "priors": "the adversaries' prior probabilities (that the target is in the data, or, with bounded "
              "neighbours, that the target's record holds one of two values), each in (0, 1)",
    "delta_prime": "δ′ in (0, 1): the disclosure bounds hold with probability at least 1 − δ′ (a pure ε-DP "
                   "release's bounds hold always; above 0.1 the report warns)",
    "unit": "the privacy unit: what one 'record' protected by the guarantee is (a person, a device-day, ...)",
    "neighbours": "unbounded (a record added or removed: the guarantee is about membership) or bounded (a "
                  "record's value changed: the guarantee is about the value, given that the record is there)",
    "invariants": "what is published exactly, outside the accounting (a list of short texts)",
    "horizon": "how many times the whole release is repeated in the composition section (whole number >= 1; "
               "default from the unit: 365 for a daily unit, 52 weekly, 12 monthly, else 10)",
    "name": "a name for the release (the report's folder name)",
}

#: The longest number a release field takes, in digits (a JSON integer, or a side of an exact rational "a/b").
MAX_DIGITS = 400
#: A δ′ above this is read, with a warning: the bounds may then fail on a large share of the outputs.
DELTA_PRIME_PLAUSIBLE = 0.1
_RATIONAL = re.compile(r"\s*(\d+)\s*(?:/\s*(\d+)\s*)?")
#: How an exact rational of each field is rounded to a float: as its declaration says for a mechanism's field (up
#: where a larger value is the safe side, σ down), δ′ down; the priors to nearest.
_ROUNDING = {"delta_prime": "down", **{f.name: f.rational for cls in FROM_FIELDS.values() for f in cls.fields}}

#: The priors a report reads the release at when the release names none.
DEFAULT_PRIORS = (0.01, 0.1, 0.5)
#: The δ′ (probability that the disclosure bound may fail) when the release names none.
DEFAULT_DELTA_PRIME = 0.01
MAX_PARTS = 64
MAX_PRIORS = 32
HORIZON_MAX = 10**5
COMPONENT_FIELDS = {"mechanism", *PARAMETERS, "k"}
TOP_FIELDS = {"name", "priors", "delta_prime", "mechanisms", "unit", "neighbours", "invariants", "horizon",
              "title", "source"}


class ReleaseError(ParameterError):
    """A release the report refuses: ``field`` (its ``parameter``) names the offending field
    (``mechanisms[1].sigma`` in a composition), ``message`` (its ``reason``) says why."""

    def __init__(self, field: str, message: str):
        super().__init__(field, message, subject=f"{field}:")

    field = property(lambda self: self.parameter)
    message = property(lambda self: self.reason)


def _exact(field, value):
    """An exact rational written "a/b" (or a whole number "a") as a float: rounded up for a parameter whose larger
    value is the safe side (ε, δ, ρ, sensitivity), down for σ and δ′, to nearest otherwise (priors)."""
    match = _RATIONAL.fullmatch(value)
    if not match:
        raise ReleaseError(field, f"must be a number or an exact rational 'a/b' (got {value!r})")
    if any(part and len(part) > MAX_DIGITS for part in match.groups()):
        raise ReleaseError(field, f"has more than {MAX_DIGITS} digits (got a number of "
                                  f"{max(len(p or '') for p in match.groups())} digits)")
    num, den = int(match.group(1)), int(match.group(2) or 1)
    if den == 0:
        raise ReleaseError(field, f"has a zero denominator (got {value!r})")
    exact = Fraction(num, den)
    try:
        x = float(exact)
    except OverflowError:
        raise ReleaseError(field, f"must be finite (got {value!r})") from None
    direction = _ROUNDING.get(field.rsplit(".", 1)[-1])
    if direction == "up" and Fraction(x) < exact:
        x = math.nextafter(x, math.inf)
    elif direction == "down" and Fraction(x) > exact:
        x = math.nextafter(x, 0.0)
    return x


def _number(field, value, *, low=0.0, low_open=False, high=math.inf, high_open=True, whole=False, maximum=None):
    """A finite real (a whole number with ``whole``) in the stated range, or a ReleaseError naming ``field``; exact
    rationals written "a/b" are accepted wherever a number is."""
    if isinstance(value, str):
        value = _exact(field, value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_DIGITS:
        raise ReleaseError(field, f"has more than {MAX_DIGITS} digits")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ReleaseError(field, f"must be a {'whole ' if whole else ''}number (got {value!r})")
    x = float(value)
    if not math.isfinite(x):
        raise ReleaseError(field, f"must be finite (got {value!r})")
    if whole:
        if not x.is_integer():
            raise ReleaseError(field, f"must be a whole number >= {int(low)} (got {value!r})")
        if maximum is not None and x > maximum:
            raise ReleaseError(field, f"must be at most {maximum} here (got {value!r})")
    bad_low = x <= low if low_open else x < low
    bad_high = x >= high if high_open else x > high
    if bad_low or bad_high:
        lo = f"> {low:g}" if low_open else f">= {low:g}"
        hi = "" if math.isinf(high) else (f" and < {high:g}" if high_open else f" and <= {high:g}")
        raise ReleaseError(field, f"must be {lo}{hi} (got {value!r})")
    return int(x) if whole else x


def _component(raw: dict, where: str) -> dict:
    def f(name):
        return f"{where}{name}"

    unknown = sorted(set(raw) - COMPONENT_FIELDS)
    if unknown:
        raise ReleaseError(f(unknown[0]), f"unknown field (a mechanism takes {', '.join(sorted(COMPONENT_FIELDS))})")
    mech = raw.get("mechanism")
    if mech not in MECHANISMS:
        raise ReleaseError(f("mechanism"), f"must be one of {', '.join(MECHANISMS)} (got {mech!r})")
    rules = MECHANISMS[mech]
    takes = set(rules["fields"])
    given = {key for key, value in raw.items() if value is not None} - {"mechanism", "k"}
    extra = sorted(given - takes)
    if extra:
        raise ReleaseError(f(extra[0]), f"is not a parameter of the {mech} mechanism (it takes "
                                        f"{', '.join(sorted(takes))}, and k)")
    for need in rules.get("needs", ()):
        if need not in given:
            raise ReleaseError(f(need), f"is required for the {mech} mechanism")
    together = rules.get("together", ())
    if together and 0 < len(given & set(together)) < len(together):
        missing = next(key for key in together if key not in given)
        raise ReleaseError(f(missing), f"the {mech} mechanism takes {' and '.join(together)} together")
    either = rules.get("either", ())
    if either and not given & set(either):
        raise ReleaseError(f(either[0]), f"is required for the {mech} mechanism (or {', '.join(either[1:])})")
    alone = rules.get("alone")
    if alone in given and len(given) > 1:
        other = sorted(given - {alone})[0]
        raise ReleaseError(f(other), f"the {mech} mechanism given by its {alone} takes no other field")
    k = _number(f("k"), raw.get("k", 1), low=1, whole=True, maximum=K_MAX)
    return mech, k, {key: _number(f(key), raw[key], **rules["fields"][key]) for key in sorted(given)}, where


def _text(field, value, limit=400):
    if not isinstance(value, str) or not value.strip():
        raise ReleaseError(field, f"must be a non-empty text (got {value!r})")
    if len(value) > limit:
        raise ReleaseError(field, f"must be at most {limit} characters (got {len(value)})")
    return value.strip()


def _reveal(comps) -> float:
    """The probability with which the release may reveal a record outright (its δ at every ε): the dp parts' δ,
    composed as 1 − Π(1 − δ)^k (plain Python, before the mathematics is imported)."""
    log_keep = 0.0
    for mech, k, fields, _ in comps:
        if mech == "dp" and fields.get("delta", 0.0) > 0:
            log_keep += k * math.log1p(-fields["delta"])
    return -math.expm1(log_keep)


def warnings_for(rel: dict) -> list[str]:
    """Sentences printed at the top of the report for inputs that are valid but implausible."""
    out = []
    if rel["delta_prime"] > DELTA_PRIME_PLAUSIBLE:
        out.append(f"δ′ = {rel['delta_prime']:g}: the bounds of this report may fail on outputs of total probability "
                   f"up to {rel['delta_prime']:g}; a disclosure bound is usually read at δ′ of 0.05 or less.")
    return out


def default_horizon(unit: str | None) -> tuple[int, str]:
    """How many repetitions the composition section shows when the release names none, and why."""
    text = (unit or "").lower()
    for word, count, span in (("day", 365, "a year of daily releases"), ("week", 52, "a year of weekly releases"),
                              ("month", 12, "a year of monthly releases")):
        if word in text:
            return count, f"{span} (from the unit '{unit}')"
    return 10, "ten repetitions (no unit with a period was given; set --horizon)"


def validate(data) -> dict:
    """The normal form of a release: ``{"name", "components", "priors", "delta_prime", "unit", "neighbours",
    "invariants", "horizon", "horizon_reason", "title", "source"}``.

    Each component is ``(mechanism name, k, {field: number}, field prefix)``.  Either the fields of one
    mechanism sit at the top level, or ``"mechanisms"`` lists several (each with its
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
        if len(listed) > MAX_PARTS:
            raise ReleaseError("mechanisms", f"must list at most {MAX_PARTS} mechanisms (got {len(listed)}); "
                                             "give repeated runs of one mechanism as its k")
        comps = []
        for i, raw in enumerate(listed):
            if not isinstance(raw, dict):
                raise ReleaseError(f"mechanisms[{i}]", "must be an object with a mechanism's fields")
            comps.append(_component(raw, f"mechanisms[{i}]."))
    else:
        if "mechanism" not in data:
            raise ReleaseError("mechanism", f"is required (one of {', '.join(MECHANISMS)}), or 'mechanisms'")
        comps = [_component({k: v for k, v in data.items() if k in COMPONENT_FIELDS}, "")]
    priors = data.get("priors")
    priors = list(DEFAULT_PRIORS) if priors is None else priors
    if not isinstance(priors, (list, tuple)) or not priors:
        raise ReleaseError("priors", "must be a non-empty list of probabilities")
    if len(priors) > MAX_PRIORS:
        raise ReleaseError("priors", f"must list at most {MAX_PRIORS} priors (got {len(priors)})")
    priors = [_number("priors", p, low=0.0, low_open=True, high=1.0) for p in priors]
    dp = data.get("delta_prime")
    dp = DEFAULT_DELTA_PRIME if dp is None else dp
    dp = _number("delta_prime", dp, low=0.0, low_open=True, high=1.0)
    name = data.get("name")
    name = "release" if name is None else name
    if (not isinstance(name, str) or not name or not all(c.isalnum() or c in "-_." for c in name)
            or name.startswith(".") or len(name) > 100):
        raise ReleaseError("name", f"must be one or more letters, digits, '-', '_' or '.' (got {name!r})")
    unit = data.get("unit")
    unit = None if unit is None else _text("unit", unit, 200)
    neighbours = data.get("neighbours", "unbounded")
    if neighbours not in NEIGHBOURS:
        raise ReleaseError("neighbours", f"must be one of {', '.join(NEIGHBOURS)} (got {neighbours!r})")
    invariants = data.get("invariants", [])
    if not isinstance(invariants, list) or len(invariants) > 32:
        raise ReleaseError("invariants", "must be a list of at most 32 short texts")
    invariants = [_text("invariants", text) for text in invariants]
    horizon = data.get("horizon")
    if horizon is None:
        horizon, reason = default_horizon(unit)
    else:
        horizon = _number("horizon", horizon, low=1, whole=True, maximum=HORIZON_MAX)
        reason = "as given"
    floor = _reveal(comps)
    if floor >= dp:
        raise ReleaseError("delta_prime", f"must exceed {floor:.6g}, the probability with which the release may give "
                                          f"no protection at all (its total δ at every ε); got {dp!r}")
    return {"name": name, "components": comps, "priors": priors, "delta_prime": dp, "unit": unit,
            "neighbours": neighbours, "invariants": invariants, "horizon": horizon, "horizon_reason": reason,
            "title": data.get("title"), "source": data.get("source")}
