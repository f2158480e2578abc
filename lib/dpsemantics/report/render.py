"""The report as Markdown, one self-contained HTML page (figures inline as SVG, no CDN, math as plain Unicode
text) and CSV, with the report's own number formatting (this module imports nothing from
:mod:`dpsemantics.book`; Matplotlib is imported only to draw).

Formatting rules: probabilities as percentages with enough digits never to show 0 % or 100 %, bounds that
reach 99.99 % or more as "above 99.99 %", and a level that bounds nothing as "no guarantee at this level".
A bound is printed rounded outward at its last digit — an upper bound (a posterior bound, ε′, a level, the upper
end of an interval) up, a lower bound down — so the digits shown are never tighter than the bound computed (the
float is read as its shortest decimal, which reads back as the same float: a pure ε of 0.1 prints as 0.1, not as
0.1001, the next 4-digit decimal above the binary 0.1000000000000000055); the inputs (priors, δ′, the release's
parameters) are rounded to nearest.
"""

from __future__ import annotations

import csv
import decimal
import html
import io
import json
import math
import os
import shutil
import tempfile
from pathlib import Path

from .fields import SYMBOLS

__all__ = ["number", "epsilon", "percent", "prior", "level", "figures", "markdown", "html_page", "csv_tables", "write",
           "NO_GUARANTEE"]

NO_GUARANTEE = "no guarantee at this level"
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7")  # Okabe–Ito, distinguishable in colour-blind vision
_LINESTYLES = ("-", "--", ":", "-.")
_ROUTES = (("single_point", "single point (as the paper converts)"),
           ("best_point", "best point of the privacy profile"),
           ("exact", "exact (privacy-loss distribution)"))


_ROUNDING = {None: decimal.ROUND_HALF_EVEN, "up": decimal.ROUND_CEILING, "down": decimal.ROUND_FLOOR}


def _significant(x: decimal.Decimal, digits: int, direction) -> decimal.Decimal:
    """x to ``digits`` significant digits, rounded to nearest (``direction=None``), up or down (toward ±∞)."""
    with decimal.localcontext() as ctx:
        ctx.prec = 800  # exact: a double has at most 767 significant decimal digits
        return x.quantize(decimal.Decimal(1).scaleb(x.adjusted() - digits + 1), rounding=_ROUNDING[direction])


def number(x, digits: int = 4, direction: str | None = None) -> str:
    """A number with ``digits`` significant digits (more in [10⁻⁴, 10⁶) where the integer part needs them),
    exponents as × 10ⁿ; None as "–".  ``direction``: None rounds to nearest, ``"up"`` toward +∞ (an upper bound),
    ``"down"`` toward −∞ (a lower bound), from the shortest decimal of the float (or the Decimal given)."""
    if x is None:
        return "–"
    if isinstance(x, int) and not isinstance(x, bool):
        return str(x)
    if not isinstance(x, decimal.Decimal):
        x = float(x)
        if math.isinf(x):
            return "∞" if x > 0 else "−∞"
        x = decimal.Decimal(repr(x))
    if x == 0:
        return "0"
    if decimal.Decimal("1e-4") <= abs(x) < 1000000:
        q = _significant(x, max(digits, x.adjusted() + 1), direction)
        if abs(q) < 1000000:  # (rounding up can carry into the next decade: then the × 10ⁿ form below)
            text = format(q, "f")
            return text.rstrip("0").rstrip(".") if "." in text else text
    q = _significant(x, digits, direction)
    mantissa, exponent = format(q, f".{digits - 1}e").split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def epsilon(x, direction: str | None = "up") -> str:
    """A privacy-loss level (ε, ε′) as every sentence of a report prints it: three decimals from 1 on (four
    significant digits below 1), rounded up by default, so one ε′ reads the same everywhere on the page."""
    if x is None or isinstance(x, bool):
        return number(x)
    x = float(x)
    if not math.isfinite(x) or x == 0:
        return number(x)
    digits = 4 if abs(x) < 1 else int(math.floor(math.log10(abs(x)))) + 4
    return number(x, min(max(digits, 4), 20), direction)


def percent(x, direction: str | None = None) -> str:
    """A probability as a percentage: "above 99.99 %" from 0.9999 on, small ones as × 10ⁿ % (never "0 %");
    ``direction`` as in :func:`number` (100·x is formed exactly)."""
    if x is None:
        return "–"
    if x >= 0.9999:
        return "above 99.99 %"
    return f"{number(decimal.Decimal(repr(float(x))) * 100, 4, direction)} %"


def _shortest_digits(x: float) -> int:
    return len(decimal.Decimal(repr(float(x))).as_tuple().digits)


def prior(x, as_percent: bool = False) -> str:
    """A prior (an input) with every digit it was given, so 0.9999999999999999 never reads as 1 and 10⁻³⁰⁰ never
    as 0; as a percentage with ``as_percent``."""
    digits = max(4, _shortest_digits(x))
    if as_percent:
        return f"{number(decimal.Decimal(repr(float(x))) * 100, digits)} %"
    return number(x, digits)


def level(x, vacuous_at: float = 1.0) -> str:
    """A semantic or Bayesian level, an upper bound (rounded up): "no guarantee at this level" when it bounds
    nothing (≥ ``vacuous_at``)."""
    if x is None or x >= vacuous_at:
        return NO_GUARANTEE
    return number(x, direction="up")


def _exact_text(report) -> str:
    """The exact route's sentence: "exact" only when the bracket [low, high] around each value it shows is
    narrower than the digits shown; otherwise "upper bound", with the bracket."""
    ex, eps = report["methods"]["exact"], report["eps_prime"]["exact"]
    low, high = ex.get("eps_prime_low"), ex.get("eps_prime_high")
    posts = [(lo, d["posterior_upper"]["exact"]) for lo, d in zip(ex.get("posterior_low") or [], report["disclosure"])]
    narrow = (not ex["is_bound"]) or (low is not None and high is not None and number(low) == number(high) and all(
        lo is not None and hi is not None and percent(lo) == percent(hi) for lo, hi in posts))
    if narrow:
        return f"Exact: {ex['method']} (ε′ = {epsilon(eps)})."
    text = f"Upper bound (not exact at the digits shown): {ex['method']} (ε′ ≤ {epsilon(eps)}"
    if low is not None and high is not None:
        text += f"; the mechanism's own ε′ lies in [{number(low, direction='down')}, {number(high, direction='up')}]"
    ranges = [f"prior {prior(d['prior'])}: [{percent(lo, 'down')}, {percent(hi, 'up')}]" for (lo, hi), d in
              zip(posts, report["disclosure"]) if lo is not None and hi is not None]
    if ranges:
        text += "; the exact route's posterior lies in " + ", ".join(ranges)
    return text + ")."


def _route_cell(report, row_value, route) -> str:
    """A posterior bound of one route: the percentage, or why there is none."""
    if row_value is not None:
        return percent(row_value, "up")
    if route == "exact" and report["methods"]["exact"]["method"] is None:
        return "unavailable"
    return NO_GUARANTEE


# --------------------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------------------


def _new_figure():
    import sys

    import matplotlib

    if "matplotlib.pyplot" not in sys.modules:  # the command line: no screen needed.  In a notebook pyplot is
        matplotlib.use("Agg")                   # already loaded with the notebook's backend, which must stay.
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(True, color="#dddddd", linewidth=0.6)
    return fig, ax


def _log_x(ax):
    """A logarithmic x axis labelled in plain numbers (no TeX in the SVG)."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())


def _prior_figure(report):
    curve = report["posterior_curve"]
    fig, ax = _new_figure()
    drawn = []
    series = list(_ROUTES)
    if curve.get("always") is not None:
        series = [("always", "pure ε: on every output")] + series
    for i, (key, label) in enumerate(series):
        ys = curve.get(key)
        if ys is None or any(y is None for y in ys):
            continue
        ax.plot(curve["priors"], ys, color=_PALETTE[i % len(_PALETTE)], linestyle=_LINESTYLES[i % len(_LINESTYLES)],
                label=label)
        drawn.append(label)
    xs = curve["priors"]
    ax.plot(xs, xs, color="#777777", linewidth=0.8, label="posterior = prior")
    ax.set_xlabel("prior" + (" (target in the data)" if report["neighbours"] == "unbounded"
                             else " (record holds the first value)")
                  + (", log scale" if curve.get("log_x") else ""))
    ax.set_ylabel("posterior upper bound")
    if curve.get("log_x"):
        _log_x(ax)
        ax.set_xlim(xs[0], xs[-1])
    else:
        ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.legend(loc="lower right", fontsize=8)
    return fig, drawn


def _repetition_figure(report, series, ylabel, colours):
    """Lines over the number of repetitions, for each ``(row key, label)`` with a value at every point."""
    rows = report["composition"]["rows"]
    m = [r["repetitions"] for r in rows]
    fig, ax = _new_figure()
    drawn = []
    for i, (key, label) in enumerate(series):
        ys = [r[key] for r in rows]
        if all(y is not None for y in ys):
            ax.plot(m, ys, color=_PALETTE[colours + i], linestyle=_LINESTYLES[i], marker="os^"[i], markersize=3,
                    label=label)
            drawn.append(label)
    _log_x(ax)
    ax.set_xlabel("times the release is repeated")
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 1.02)
    if drawn:
        ax.legend(loc="lower right", fontsize=8)
    return fig, ax, drawn


def _composition_figure(report):
    fig, ax, drawn = _repetition_figure(report, _ROUTES, "posterior upper bound", 0)
    ax.axhline(report["composition"]["prior"], color="#777777", linewidth=0.8,
               label=f"prior {prior(report['composition']['prior'])}")
    if drawn:
        ax.legend(loc="lower right", fontsize=8)
    return fig, drawn


def _readings_figure(report):
    series = (("difference", "largest change of any prior (Kazan et al. Theorem 3.5)"),
              ("semantic_exact", "semantic privacy, exact (tanh(ε/2), Kasiviswanathan & Smith)"))
    fig, _, drawn = _repetition_figure(report, series, "largest change of belief", 1)
    return fig, drawn


def figures(report: dict, only: str | None = None) -> dict:
    """``{name: (Matplotlib figure, caption)}``; the composition figures only when the horizon exceeds 1 and
    something is drawn.  Captions name exactly the lines drawn."""
    dp = number(report["release"]["delta_prime"])
    makers = {"fig-report-prior": _prior_figure}
    if report["composition"]["horizon"] > 1:
        makers.update({"fig-report-posterior": _composition_figure, "fig-report-readings": _readings_figure})
    out = {}
    for name, make in makers.items():
        if only is not None and name != only:
            continue
        fig, drawn = make(report)
        if not drawn and name != "fig-report-prior":
            import matplotlib.pyplot as plt

            plt.close(fig)
            continue
        lines = "; ".join(drawn) if drawn else "no route gives a bound at this δ′"
        if name == "fig-report-prior":
            prob = (f"the pure-ε curve on every output, the others with probability ≥ 1 − δ′, δ′ = {dp}"
                    if report.get("always") else f"probability ≥ 1 − δ′, δ′ = {dp}")
            cap = (f"Upper bound on the posterior against the prior ({prob}): {lines}; "
                   "the grey diagonal is posterior = prior."
                   + (" The priors run on a logarithmic axis around the one from which the bound reaches 1/2: on "
                      "a linear axis every curve would sit at 1." if report["posterior_curve"].get("log_x") else ""))
        elif name == "fig-report-posterior":
            cap = (f"Upper bound on the posterior of an adversary with prior {prior(report['composition']['prior'])} "
                   f"(probability ≥ 1 − δ′, δ′ = {dp}) when the whole release is repeated up to "
                   f"{report['composition']['horizon']} times: {lines}.")
        else:
            cap = f"Prior-free readings as the release is repeated: {lines}."
        out[name] = (fig, cap)
    return out


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    text = buf.getvalue()
    return text[text.index("<svg"):]


# --------------------------------------------------------------------------------------------------
# Sections (shared by Markdown and HTML)
# --------------------------------------------------------------------------------------------------


def mechanism_line(c) -> str:
    """One mechanism of report.json's ``release.mechanisms`` in words: its name, its own parameters and how often it
    runs ("laplace (ε = 1, Δ = 30), run once")."""
    parts = [f"{SYMBOLS[k]} = {number(c[k], 6)}" for k in c if k in SYMBOLS]  # in the mechanism's own order
    runs = "once" if c["k"] == 1 else f"k = {c['k']} times"
    return f"{c['mechanism']} ({', '.join(parts)}), run {runs}"


def _who(report) -> str:
    unit = (report.get("unit") or "").split(" (")[0].split(",")[0].strip()
    return f"one {unit}" if unit and not unit.lower().startswith("not ") else "one record"


_PUBLISHED_NAMES = {"epsilon": "ε", "delta": "δ", "rho": "ρ", "roughly_epsilon": "roughly ε",
                    "roughly_delta": "roughly δ", "count_epsilon_largest": "largest count ε"}


def _summary(report) -> list[str]:
    """The director's summary: who is protected, against what, what is published exactly, and the publisher's own
    figures beside the report's ε′ at δ′, with one sentence reconciling them."""
    rel = report["release"]
    unit = report.get("unit")
    paras = [f"Who is protected: {unit or 'not stated'}. This is the privacy unit, the one record the guarantee is "
             "about; several units of one person (days, devices) add up."]
    if report["neighbours"] == "unbounded":
        paras.append("Against what: learning whether such a record is in the data at all (membership: neighbouring "
                     "data sets differ by one record added or removed). Changing a record's value counts as two such "
                     "steps, so the record's value is protected less (see 'What the guarantee is about').")
    else:
        paras.append("Against what: learning the value of such a record, given that it is in the data (neighbouring "
                     "data sets differ in one record's value). Whether a record is in the data is not protected by "
                     "this guarantee.")
    inv = report.get("invariants") or []
    if inv:
        paras.append("Published exactly, outside the guarantee: " + "; ".join(inv) + ". Whatever these exact counts "
                     "reveal (for instance that a block holds a given number of units or people) has no protection "
                     "at all.")
    elif report.get("source"):
        paras.append("Published exactly, outside the guarantee: nothing stated by the source.")
    else:
        paras.append("Published exactly, outside the guarantee: none given (--invariant names them).")
    pub = rel.get("published") or {}
    dp = rel["delta_prime"]
    if report.get("always"):
        ours = (f"this report: ε = {epsilon(rel['pure_epsilon'])}, pure, so its bounds hold on every "
                "output (no failure probability δ′ is needed)")
    else:
        e = report["eps_prime"]["exact"] if report["eps_prime"]["exact"] is not None else report["eps_prime"][
            "best_point"]
        ours = (f"this report: ε′ = {epsilon(e)} at δ′ = {number(dp)} (the privacy loss exceeds ε′ "
                "with probability at most δ′: Kazan et al. Definition 2.4)" if e is not None else
                f"this report: no ε′ at δ′ = {number(dp)}")
    if pub:
        theirs = ", ".join(f"{_PUBLISHED_NAMES.get(k, k)} = {number(v)}" for k, v in pub.items())
        text = f"The publisher's own figures: {theirs}; {ours}."
        if "delta" in pub and pub["delta"] and not report.get("always"):
            text += (f" Both describe the same release: the publisher's (ε, δ) is one point of its privacy profile "
                     f"(ε-DP up to a slack δ = {number(pub['delta'])}), while ε′ is the loss exceeded only with "
                     f"probability δ′ = {number(dp)}; allowing failures that much more often gives a different ε, "
                     "and the posterior bounds below follow from ε′ at δ′.")
        elif report.get("always") and "epsilon" in pub:
            text += " The numbers agree: a pure guarantee has no failure probability to trade against ε."
        paras.append(text)
    elif report.get("source"):
        paras.append(f"The publisher's own figures: not recorded; {ours}.")
    else:
        paras.append(f"The guarantee, as given: {'; '.join(mechanism_line(c) for c in rel['mechanisms'])}; {ours}."
                     + ("" if report.get("always") else " The parameters given describe the mechanism or one point of "
                        "its privacy profile; ε′ at δ′ is the level its privacy loss exceeds with probability at "
                        "most δ′, and the posterior bounds below follow from it."))
    return paras


def _finer(report) -> list:
    """The source's finer readings (per attribute, per geography, per query), as tables with their captions."""
    out = []
    for block in (report.get("source") or {}).get("finer") or []:
        rows = [list(block["columns"])] + [[str(c) for c in row] for row in block["rows"]]
        out.append((block["caption"] + f" — {block['source']}.", rows))
    return out


def headline_text(report) -> str:
    """The headline as a decision-maker reads it: who, from what belief, to at most what belief, and how often the
    bound may fail (never, for a pure release)."""
    h = report["headline"]
    dp = report["release"]["delta_prime"]
    who = _who(report)
    if report["neighbours"] == "unbounded":
        about = f"that {who} is in the data"
    else:
        about = f"about which of two values the record of {who} holds (knowing that it is in the data)"
    if h["posterior_upper"] is None:
        return (f"No protection can be stated here: allowing a failure probability of {percent(dp)} (δ′), no bound "
                f"limits what someone who knows every other record can learn {about}.")
    start = f"Someone who knows every other record and is {prior(h['prior'], True)} sure {about}"
    if h["prior"] >= 0.9999:
        return (f"{start} is almost certain already: no bound on how much surer they become says anything here; "
                "read the release at smaller priors (--prior).")
    if h["posterior_upper"] >= 0.9999:
        end = "may become more than 99.99 % sure: the guarantee does not rule it out"
    else:
        end = f"becomes at most {percent(h['posterior_upper'], 'up')} sure"
    if h.get("always"):
        if h["posterior_upper"] >= 0.9999:
            text = (f"{start} may become more than 99.99 % sure: the guarantee is pure ε-DP, whose bound never "
                    "fails, but at this ε it does not rule such a belief out.")
        else:
            text = f"{start} {end}, whatever the release shows: the guarantee is pure ε-DP, so this bound never fails."
        if h.get("tighter_with_delta_prime") is not None:
            text += (f" Allowing rare outputs (total probability at most δ′ = {percent(dp)}) on which it may not "
                     f"hold, the bound is {percent(h['tighter_with_delta_prime'], 'up')}.")
        return text
    if h["posterior_upper"] >= 0.9999:
        return (f"{start} {end}, even leaving aside rare outputs of total probability up to {percent(dp)} (δ′, the "
                "failure probability this report allows).")
    return (f"{start} {end}, except on rare outputs of total probability at most {percent(dp)} (δ′, the failure "
            "probability this report allows), on which the belief may go higher.")


def _plain_text(report) -> str | None:
    """Kazan et al. §4.1's explanation for a general audience, for every release (membership or value), with the
    numbers of the disclosure table as the page prints them (one formatter, rounded outward); None when no route
    bounds the posterior at the prior shown."""
    rows = report["disclosure"]
    row = next((d for d in rows if d["prior"] == 0.5), rows[-1])
    # the lower and upper ends from one event (|L| ≤ ε′), so "between … and …" fails with probability ≤ δ′ in all
    high = row["posterior_always"] if row.get("posterior_always") is not None else row["posterior_upper_with_lower"]
    move = report["prior_free"]["difference"]
    if high is None or move is None:
        return None
    always = report.get("always")
    dp = report["release"]["delta_prime"]
    if report["neighbours"] == "unbounded":
        what = "whether your record is in the data"
        belief = "that your record was included"
    else:
        what = "the value of your record (not whether it is in the data, which this guarantee does not cover)"
        belief = "that your record holds one value rather than another"
    when = ("whatever the release shows: under pure differential privacy this cannot fail" if always else
            f"except on rare outputs, of total probability at most {percent(dp)}, on which their belief may move "
            "further")
    return (f"The published result limits what anyone can learn about {what}. Take someone who knows everyone "
            f"else's data and was {prior(row['prior'], True)} sure beforehand {belief}: after the release they are "
            f"between {percent(row['posterior_lower'], 'down')} and "
            f"{percent(high, 'up').replace('above', 'more than')} sure, {when}. Whatever "
            f"they believed beforehand, the release moves that belief by at most {percent(move, 'up')[:-2]} "
            "percentage points" + ("." if always else " (with the same exception)."))


def _value_paragraph(v) -> tuple[str, list | None]:
    dp = number(v["delta_prime"])
    if v["posteriors"] and all(x["posterior_upper"] is None for x in v["posteriors"]):
        why = ""
        if v.get("reveal") is not None:
            why = (f": group privacy leaves the two values a slack δ = {number(v['reveal'], direction='up')}, not "
                   f"below δ′ = {dp}, and a mechanism with this guarantee can reveal the value outright on outputs of "
                   "probability above δ′ (for one (ε, δ) part, e^ε·δ of them)")
        return (f"The target's value: no guarantee at δ′ = {dp}{why}. Method: {v['method']}.", None)
    if v["always"]:
        when = f"on every output (ε = {epsilon(v['eps_prime'])} for the pair, pure)"
    else:
        when = (f"with probability at least 1 − δ′ (δ′ = {dp}; ε′ = {epsilon(v['eps_prime'])} for "
                "the pair)")
    rows = [["prior (first value)", "posterior upper bound (value)"]] + [
        [prior(x["prior"]), percent(x["posterior_upper"], "up") if x["posterior_upper"] is not None
         else NO_GUARANTEE] for x in v["posteriors"]]
    return (f"The target's value: the posterior that the target's record holds one value rather than another stays "
            f"below the bound in the table {when}. Method: {v['method']}.", rows)


def _sections(report: dict) -> list[tuple[str, list[str], list[list[str]] | None]]:
    """(heading, paragraphs, table rows with a header row) for both renderers."""
    rel, m = report["release"], report["methods"]
    dp = rel["delta_prime"]
    out = []
    if report.get("warnings"):
        out.append(("Read this first", list(report["warnings"]), None))
    out.append(("Headline", [headline_text(report)], None))
    out.append(("Summary for decision-makers", _summary(report), None))
    about = [mechanism_line(c) for c in rel["mechanisms"]]
    about.append(f"Privacy unit: {report['unit'] or 'not stated'}. Neighbouring relation: {report['neighbours']}.")
    about.append(f"Adversaries' priors: {', '.join(prior(p) for p in rel['priors'])}; δ′ = {number(dp)}.")
    src = report.get("source")
    if src:
        if src.get("mechanism_note"):
            about.append(src["mechanism_note"])
        for s in src["sources"]:
            about.append(f"{s['states']}: “{s['sentence']}” — {s['where']}, {s['url']} ({s['confirmed']}).")
    out.append((rel.get("title") or "The release", about, None))
    finer = _finer(report)
    for i, (caption, rows_f) in enumerate(finer):
        out.append(("Finer readings (from the source)" + (f", {i + 1}" if len(finer) > 1 else ""), [
            caption + " Each is the publisher's ε for a narrower question than the whole release's (one attribute, "
            "or a record within a smaller area); the whole release's reading is the one above."], rows_f))
    r = report["reading"]
    paras = [f"The question the posterior answers: {r['question']} The prior is {r['prior_means']}.",
             f"What carries over: {r['carries_over']}."]
    rows = None
    if r["value_reading"]:
        text, rows = _value_paragraph(r["value_reading"])
        paras.append(text)
    paras.append("Outside the guarantee: " + "; ".join(r["not_covered"]) + ".")
    out.append(("What the guarantee is about", paras, rows))
    plain = _plain_text(report)
    if plain:
        out.append(("In plain language", [plain], None))
    always = report.get("always")
    first = report["disclosure"][0] if report["disclosure"] else None
    marks = {k: bool(first and all(d["holds_always"][k] for d in report["disclosure"])) if always else False
             for k, _ in _ROUTES}
    head = {"single_point": "single point", "best_point": "best point", "exact": "exact"}
    rows = [["prior"] + (["always (pure ε)"] if always else [])
            + [head[k] + (" (always)" if always and marks[k] else " (prob. ≥ 1 − δ′)" if always else "")
               for k, _ in _ROUTES] + ["lower bound", "ratio", "change"]]
    for d in report["disclosure"]:
        pu = d["posterior_upper"]
        vac_ratio = d["ratio"]["high"] is None or d["ratio"]["high"] >= 1 / d["prior"] * (1 - 1e-12)
        rows.append([prior(d["prior"])] + ([percent(d["posterior_always"], "up")] if always else [])
                    + [_route_cell(report, pu[k], k) for k, _ in _ROUTES]
                    + [percent(d["posterior_lower"], "down") if d["posterior_lower"] > 0 else NO_GUARANTEE,
                       NO_GUARANTEE if vac_ratio else
                       f"[{number(d['ratio']['low'], direction='down')}, {number(d['ratio']['high'], direction='up')}]",
                       f"−{percent(-d['difference']['down'], 'up')} … +{percent(d['difference']['up'], 'up')}"])
    eps = report["eps_prime"]
    exact_text = _exact_text(report) if m["exact"]["method"] else f"Exact: unavailable — {m['exact']['unavailable']}."
    if always:
        pure = epsilon(rel["pure_epsilon"])
        opening = (f"The release is pure ε-DP with ε = {pure} in total: its privacy loss never exceeds ε, so on every "
                   "output (probability 1) the posterior of an adversary who knows every other record stays below "
                   "the 'always' column (Kazan et al. Theorems 2.3 and 3.2); so do the lower bound, ratio and change.")
        if not all(marks.values()):
            opening += (f" Columns marked 'prob. ≥ 1 − δ′' are smaller bounds that hold except on outputs of total "
                        f"probability at most δ′ = {number(dp)}.")
        lower = "Lower bound, ratio (posterior/prior) and change (posterior − prior) are read at the pure ε (always)."
    else:
        opening = (f"With probability at least 1 − δ′ = {number(1 - decimal.Decimal(repr(dp)), 6, 'down')}, the "
                   "posterior of an adversary who knows every other record stays below the upper bound in the table. "
                   "It is computed three ways.")
        lower = ("Lower bound, ratio (posterior/prior) and change (posterior − prior) use the smallest ε′ known "
                 "(Theorems 3.2, 3.3, 3.5 and Lemma 3.4), with probability at least 1 − δ′.")
    out.append(("Disclosure risk (Kazan et al.)", [
        opening,
        f"Single point: {m['single_point']['method']} (ε′ = {epsilon(eps['single_point'])}; "
        f"{m['single_point']['theorems']}).",
        f"Best point: {m['best_point']['method']}; the best point is (ε, δ) = ({number(m['best_point']['eps'])}, "
        f"{number(m['best_point']['delta'])}), ε′ = {epsilon(eps['best_point'])} "
        f"({m['best_point']['theorems']}).",
        exact_text,
        lower,
    ], rows))
    pf = report["prior_free"]
    if pf["eps_prime"] is not None:
        out.append(("Whatever the prior", [
            ("On every output (pure ε-DP), for" if report.get("always") else
             f"With probability at least 1 − δ′ (δ′ = {number(dp)}), for")
            + f" every prior the posterior-to-prior ratio lies in [{number(pf['ratio']['low'], direction='down')}, "
            f"{number(pf['ratio']['high'], direction='up')}] and the posterior moves by at most "
            f"{percent(pf['difference'], 'up')} (points); "
            f"the largest move is possible from priors {number(pf['worst_case_priors']['up'])} (up) and "
            f"{number(pf['worst_case_priors']['down'])} (down). {pf['theorems']}."], None))
    out += _other_papers(report)
    comp = report["composition"]
    if comp["horizon"] > 1:
        rows_c = [["repeated", "single point", "best point", "exact", "largest change"]] + [
            [str(r["repetitions"])] + [_route_cell(report, r[k], k) for k, _ in _ROUTES]
            + [percent(r["difference"], "up") if r["difference"] is not None else NO_GUARANTEE] for r in comp["rows"]]
        out.append(("Composition", [
            f"Horizon: {comp['horizon']} repetitions ({rel['horizon_reason']}). Prior {prior(comp['prior'])}, "
            f"δ′ = {number(comp['delta_prime'])}; {comp['method']}."], rows_c))
    else:
        out.append(("Composition", ["Horizon: the release is read once (horizon 1); set --horizon to see it repeated."],
                    None))
    return out


def _holds(block) -> str:
    if block["pure"]:
        return "pure DP, so it holds on every output"
    return (f"the smallest ε′ known at δ′ = {number(block['delta_prime'])}, so it holds except on outputs of "
            "probability at most δ′")


def _other_papers(report):
    out = []
    s = report["semantic"]
    if s["epsilon"] is not None:
        parts = []
        if s["ks_theorem_2_2"] is not None:
            parts.append(f"Theorem 2.2 as printed (e^ε − 1): {level(s['ks_theorem_2_2'])}")
        if s["exact"] is not None:
            parts.append(f"the exact level over all beliefs (tanh(ε/2)): {level(s['exact'])}")
        parts.append("for the adversary who knows every other record, the posterior moves by at most "
                     f"{level(s['strong_adversary'])} (tanh(ε/4))")
        note = "" if s["pure"] else (" Over all beliefs, not only the two-point one, K&S Theorem 2.4 reads (ε, δ)-DP "
                                     "at a cost growing with the number of records, which is not part of a release: "
                                     "the exact level over all beliefs is given for pure DP only.")
        out.append(("Semantic privacy (Kasiviswanathan & Smith)", [
            f"Read at ε = {epsilon(s['epsilon'])} ({_holds(s)}). Semantic privacy levels: " + "; ".join(parts) + ".",
            s["theorems"] + "." + note], None))
    b = report["bayesian"]
    if b["epsilon"] is not None:
        rows_b = [["prior b", "membership privacy ε", "g(b)"]] + [
            [prior(r["prior"]), number(r["epsilon_mp"], direction="up"), number(r["g"])] for r in b["membership"]]
        if report["neighbours"] == "bounded":  # membership privacy is about membership: not covered here
            rows_b = None
        bsp = (f" Bayesian semantic privacy by Zhao's Theorem 1: {level(b['bsp_zhao'])}; exactly: "
               f"{level(b['bsp_exact'])}." if b["bsp_exact"] is not None else "")
        out.append(("Bayesian readings (Zhao)", [
            f"Read at ε = {epsilon(b['epsilon'])} ({_holds(b)}). Bayesian DP leakage with independent records: "
            f"{number(b['bdp_independent'], direction='up')}.{bsp}", b["theorems"] + "."
            + (" Membership privacy is about membership, which a guarantee with bounded neighbours does not cover: "
               "its table is left out." if rows_b is None else "")], rows_b))
    c = report["causal"]
    if c["epsilon"] is not None:
        rel_text = "; ".join(f"{r['relatives']} relative{'s' if r['relatives'] > 1 else ''}: "
                             f"{epsilon(r['effect'])}"
                             for r in c["relatives"])
        ratio = (number(c["relative_probability_max"], direction="up") if c["relative_probability_max"] is not None
                 else "beyond 10³⁰⁰")
        out.append(("Causal reading (Tschantz, Sen & Datta)", [
            f"Read at ε = {epsilon(c['epsilon'])} ({_holds(c)}). Bounded: the effect of intervening on one person's "
            f"data point on the output, Pr[O = o | do(D_i = d)] ≤ e^ε · Pr[O = o | do(D_i = d′)], with ε = "
            f"{number(c['effect_bound'], direction='up')} (relative probability at most {ratio}).",
            "Not bounded: the effect of a person's status when it also shapes other people's data (relatives, "
            f"households): each copy adds up to ε. Computed for a status copied into relatives' data: {rel_text}.",
            c["theorems"] + "."], None))
    return out


# --------------------------------------------------------------------------------------------------
# Writers
# --------------------------------------------------------------------------------------------------


def markdown(report: dict, figure_files: dict | None = None) -> str:
    title = report["release"].get("title") or report["release"]["name"]
    lines = [f"# Your release, interpreted: {title}", ""]
    for heading, paras, rows in _sections(report):
        lines += [f"## {heading}", ""]
        for p in paras:
            lines += [p, ""]
        if rows:
            lines.append("| " + " | ".join(rows[0]) + " |")
            lines.append("|" + "---|" * len(rows[0]))
            lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
            lines.append("")
        for fig_name, (path, cap) in (figure_files or {}).items():
            if _figure_section(fig_name) == heading:
                lines += [f"![{cap}]({path})", "", f"*{cap}*", ""]
    return "\n".join(lines)


def _figure_section(name: str) -> str:
    return "Disclosure risk (Kazan et al.)" if name == "fig-report-prior" else "Composition"


_CSS = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;
color:#111}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:right}
th{background:#f3f3f3}figure{margin:1rem 0}figcaption{font-size:.9rem;color:#333}svg{max-width:100%;height:auto}"""


def html_page(report: dict, figs: dict) -> str:
    title = html.escape(report["release"].get("title") or report["release"]["name"])
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>Your release, interpreted: {title}</title><style>{_CSS}</style></head><body>",
             f"<h1>Your release, interpreted: {title}</h1>"]
    for heading, paras, rows in _sections(report):
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        parts += [f"<p>{html.escape(p)}</p>" for p in paras]
        if rows:
            parts.append("<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in rows[0]) + "</tr>")
            parts += ["<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows[1:]]
            parts.append("</table>")
        for fig_name, (fig, cap) in figs.items():
            if _figure_section(fig_name) == heading:
                cap = html.escape(cap)
                parts.append(f'<figure id="{fig_name}" role="img" aria-label="{cap}">{_svg(fig)}'
                             f"<figcaption>{cap}</figcaption></figure>")
    parts.append("<details><summary>report.json</summary><pre>"
                 + html.escape(json.dumps(report, indent=1, ensure_ascii=False)) + "</pre></details>")
    parts.append("</body></html>")
    return "\n".join(parts)


def csv_tables(report: dict) -> dict:
    """``{file name: CSV text}``: the disclosure table and the composition table, numbers unformatted."""
    out = {}
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["prior", "delta_prime", "single_point", "best_point", "exact", "posterior_lower", "ratio_low",
                "ratio_high", "difference_down", "difference_up"])
    for d in report["disclosure"]:
        pu = d["posterior_upper"]
        w.writerow([d["prior"], d["delta_prime"], pu["single_point"], pu["best_point"], pu["exact"],
                    d["posterior_lower"], d["ratio"]["low"], d["ratio"]["high"], d["difference"]["down"],
                    d["difference"]["up"]])
    out["report.csv"] = buf.getvalue()
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["repetitions", "single_point", "best_point", "exact", "eps_prime_best", "difference", "semantic_exact"])
    for r in report["composition"]["rows"]:
        w.writerow([r[k] for k in ("repetitions", "single_point", "best_point", "exact", "eps_prime_best",
                                   "difference", "semantic_exact")])
    out["composition.csv"] = buf.getvalue()
    return out


class OutputError(ValueError):
    """The output folder cannot be written as asked (exists, is a file, is not writable)."""


#: The file every report folder holds: --force replaces a folder only when it holds this file (an earlier report).
MARKER = ".dpsemantics-report"


def check_output(folder, force: bool = False) -> Path:
    """Refuse, before any work: an output that is a file; an existing non-empty folder unless ``force``, and with
    ``force`` one that does not hold an earlier report (its marker file); a place where no folder can be created
    (tried: a temporary folder is made and removed in the nearest existing parent)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder} exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        if not force:
            raise OutputError(f"{folder} exists and is not empty (use --force to replace an earlier report)")
        if not (folder / MARKER).is_file():
            raise OutputError(f"{folder} is not an earlier report (it has no {MARKER} file): --force replaces only "
                              "a folder this tool wrote; choose another --output")
    probe = folder.absolute().parent
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK):
        raise OutputError(f"cannot write into {probe}")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".dpsemantics-probe-", dir=probe))
    except OSError as err:
        raise OutputError(f"cannot write into {probe}: {err.strerror or err}") from None
    return folder


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_files(files: dict, folder, *, force: bool = False) -> list[Path]:
    """Write ``{name: text}`` into a temporary folder beside ``folder``, then move it into place (replacing an
    existing folder only with ``force``, leaving no stale file).  On failure nothing is left behind."""
    folder = check_output(folder, force)
    parent = folder.absolute().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=parent))
    except OSError as err:
        raise OutputError(f"cannot write into {parent}: {err.strerror or err}") from None
    old = None
    try:
        os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes 0700: the folder is as readable as the umask says
        files = {**files, MARKER: "This folder was written by python -m dpsemantics.report; --force may replace it.\n"}
        for name, text in files.items():
            (tmp / name).write_text(text, encoding="utf-8")
        if folder.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{folder.name}-old-", dir=parent))
            os.rename(folder, old / "previous")
        os.rename(tmp, folder)
    except OSError as err:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and (old / "previous").exists() and not folder.exists():
            os.rename(old / "previous", folder)
        raise OutputError(f"cannot write {folder}: {err.strerror or err}") from None
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    return [folder / name for name in files if name != MARKER]


def report_files(report: dict) -> dict:
    """Every file of a report, as ``{name: text}``: report.json, report.md, report.html, CSVs, SVG figures."""
    import matplotlib.pyplot as plt

    figs = figures(report)
    try:
        files = {"report.json": json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False)}
        svgs = {f"{name}.svg": _svg(fig) for name, (fig, _) in figs.items()}
        files["report.md"] = markdown(report, {name: (f"{name}.svg", cap) for name, (_, cap) in figs.items()})
        files["report.html"] = html_page(report, figs)
        files.update(csv_tables(report))
        files.update(svgs)
    finally:
        for fig, _ in figs.values():
            plt.close(fig)
    return files


def write(report: dict, folder, *, force: bool = False) -> list[Path]:
    """Write the report's files into ``folder`` (see :func:`write_files`)."""
    check_output(folder, force)
    return write_files(report_files(report), folder, force=force)
