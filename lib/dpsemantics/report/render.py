"""The report as Markdown and as one self-contained HTML page (figures inline as SVG, no CDN, math as plain
Unicode text, every number through :func:`dpsemantics.book.number`)."""

from __future__ import annotations

import html
import io
import json
from pathlib import Path

from ..book import number
from ..book import plotting

__all__ = ["figures", "markdown", "html_page", "percent", "write"]

FIGURES = {
    "fig-report-posterior": "Upper bound on the posterior of an adversary with prior {prior} (probability ≥ 1 − δ′, "
                            "δ′ = {dp}) when the whole release is repeated: one stated point, the best point of the "
                            "privacy profile, and the mechanism's own privacy loss (Theorem 3.1).",
    "fig-report-readings": "Prior-free readings as the release is repeated: the largest change of any prior "
                           "(Kazan et al. Theorem 3.5) and the exact semantic-privacy level tanh(ε/2) "
                           "(Kasiviswanathan & Smith).",
}


def _fmt(x, digits=4) -> str:
    return "–" if x is None else number(x, digits)


def percent(x) -> str:
    """A probability as a percentage; near 0 or 1 with enough digits that it never shows as 0% or 100%."""
    if x is None:
        return "–"
    digits = 4 if 1e-3 <= abs(x) <= 0.999 else 7
    return f"{number(100 * x, digits)}%"


_pct = percent


def figures(report: dict, only: str | None = None) -> dict:
    """The composition figures, as Matplotlib figures keyed by name (``only``: just that one)."""
    comp = report["composition"]
    rows = comp["rows"]
    m = [r["repetitions"] for r in rows]
    figs = {}
    if only == "fig-report-readings":
        return _readings_figure(rows, m)
    fig, ax = plotting.new_figure()
    for i, (key, label) in enumerate((("single_point", "single point (as the paper converts)"),
                                      ("best_point", "best point of the privacy profile"),
                                      ("exact", "exact (privacy-loss distribution)"))):
        ys = [r[key] for r in rows]
        if all(y is not None for y in ys):
            ax.plot(m, ys, color=plotting.PALETTE[i], linestyle=plotting.LINESTYLES[i], marker="o", markersize=3, label=label)
    ax.axhline(comp["prior"], color="#777777", linewidth=0.8)
    ax.set_xlabel("times the release is repeated")
    ax.set_ylabel("posterior upper bound")
    ax.set_ylim(0, 1.02)
    ax.legend(loc="lower right")
    figs["fig-report-posterior"] = fig
    return figs if only else {**figs, **_readings_figure(rows, m)}


def _readings_figure(rows, m) -> dict:
    fig, ax = plotting.new_figure()
    ax.plot(m, [r["difference"] for r in rows], color=plotting.PALETTE[1], linestyle=plotting.LINESTYLES[0],
            marker="o", markersize=3, label="largest change of any prior (Theorem 3.5)")
    if all(r["semantic_exact"] is not None for r in rows):
        ax.plot(m, [r["semantic_exact"] for r in rows], color=plotting.PALETTE[2], linestyle=plotting.LINESTYLES[1],
                marker="s", markersize=3, label="semantic privacy, exact (tanh(ε/2))")
    ax.set_xlabel("times the release is repeated")
    ax.set_ylabel("bound")
    ax.set_ylim(0, 1.02)
    ax.legend(loc="lower right")
    return {"fig-report-readings": fig}


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _caption(name, report) -> str:
    comp = report["composition"]
    return FIGURES[name].format(prior=number(comp["prior"]), dp=number(comp["delta_prime"]))


def _mechanism_line(c) -> str:
    keys = ("epsilon", "delta", "sigma", "sensitivity", "rho")
    names = {"epsilon": "ε", "delta": "δ", "sigma": "σ", "sensitivity": "Δ", "rho": "ρ"}
    parts = [f"{names[k]} = {number(c[k])}" for k in keys if k in c]
    return f"{c['mechanism']} ({', '.join(parts)}), run k = {c['k']} time{'s' if c['k'] != 1 else ''}"


def _sections(report: dict) -> list[tuple[str, list[str], list[list[str]] | None]]:
    """(heading, paragraphs, table rows with a header row) for both renderers."""
    rel, m = report["release"], report["methods"]
    dp = rel["delta_prime"]
    out = []
    out.append(("The release", [_mechanism_line(c) for c in rel["mechanisms"]]
                + [f"Adversaries' priors: {', '.join(number(p) for p in rel['priors'])}; δ′ = {number(dp)}."], None))
    out.append(("In plain language", [report["plain_language"]], None))
    rows = [["prior", "single point", "best point", "exact", "lower bound", "ratio", "change"]]
    for d in report["disclosure"]:
        pu = d["posterior_upper"]
        rows.append([number(d["prior"]), _pct(pu["single_point"]), _pct(pu["best_point"]), _pct(pu["exact"]),
                     _pct(d["posterior_lower"]), f"[{_fmt(d['ratio']['low'])}, {_fmt(d['ratio']['high'])}]",
                     f"{_pct(d['difference']['down'])} … +{_pct(d['difference']['up'])}"])
    eps = report["eps_prime"]
    exact_text = (f"Exact: {m['exact']['method']} (ε′ = {_fmt(eps['exact'])})." if m["exact"]["method"]
                  else f"Exact: unavailable — {m['exact']['unavailable']}.")
    out.append(("Disclosure risk (Kazan et al.)", [
        f"With probability at least 1 − δ′ = {number(1 - dp)}, the posterior of an adversary who knows every other "
        "record stays below the upper bound in the table. It is computed three ways.",
        f"Single point: {m['single_point']['method']} (ε′ = {_fmt(eps['single_point'])}; {m['single_point']['theorems']}).",
        f"Best point: {m['best_point']['method']}; the best point is (ε, δ) = ({_fmt(m['best_point']['eps'])}, "
        f"{_fmt(m['best_point']['delta'])}), ε′ = {_fmt(eps['best_point'])} ({m['best_point']['theorems']}).",
        exact_text,
        "Lower bound, ratio (posterior/prior) and change (posterior − prior) use the smallest ε′ known "
        "(Theorems 3.2, 3.3, 3.5 and Lemma 3.4).",
    ], rows))
    pf = report["prior_free"]
    if pf["eps_prime"] is not None:
        out.append(("Whatever the prior", [
            f"For every prior the posterior-to-prior ratio lies in [{_fmt(pf['ratio']['low'])}, {_fmt(pf['ratio']['high'])}] "
            f"and the posterior moves by at most {_pct(pf['difference'])} (points); the largest move is possible from "
            f"priors {_fmt(pf['worst_case_priors']['up'])} (up) and {_fmt(pf['worst_case_priors']['down'])} (down). "
            f"{pf['theorems']}."], None))
    s = report["semantic"]
    if s["epsilon"] is not None:
        ks = f"Theorem 2.2 as printed: {_fmt(s['ks_theorem_2_2'])}; " if s.get("ks_theorem_2_2") is not None else ""
        general = f"exact level over all beliefs {_fmt(s['exact'])}; " if s["exact"] is not None else ""
        out.append(("Semantic privacy (Kasiviswanathan & Smith)", [
            f"At ε = {_fmt(s['epsilon'])}, holding {s['holds']}: {ks}{general}for the adversary who knows every "
            f"other record {_fmt(s['strong_adversary'])}.",
            s["theorems"] + "." + (f" {s['note']}." if s.get("note") else "")], None))
    b = report["bayesian"]
    if b["epsilon"] is not None:
        rows_b = [["prior b", "membership privacy ε", "g(b)"]] + [[number(r["prior"]), _fmt(r["epsilon_mp"]), _fmt(r["g"])]
                                                                  for r in b["membership"]]
        out.append(("Bayesian readings (Zhao)", [
            f"At ε = {_fmt(b['epsilon'])}, holding {b['holds']}: Bayesian DP leakage with independent records "
            f"{_fmt(b['bdp_independent'])}" + (f"; Bayesian semantic privacy {_fmt(b['bsp_zhao'])} by Zhao's Theorem 1, "
                                                f"exactly {_fmt(b['bsp_exact'])}." if b["bsp_exact"] is not None else "."),
            b["theorems"] + "."], rows_b))
    c = report["causal"]
    if c["epsilon"] is not None:
        rel_text = "; ".join(f"{r['relatives']} relative{'s' if r['relatives'] > 1 else ''}: {_fmt(r['effect'])}"
                             for r in c["relatives"])
        out.append(("Causal reading (Tschantz, Sen & Datta)", [
            f"Bounded ({c['holds']}): {c['bounds']}, with ε = {_fmt(c['effect_bound'])} "
            f"(relative probability at most {_fmt(c['relative_probability_max'])}).",
            f"Not bounded: {c['does_not_bound']}. Effect of a status copied into relatives' data, computed: {rel_text}.",
            c["theorems"] + "."], None))
    comp = report["composition"]
    rows_c = [["repeated", "single point", "best point", "exact", "largest change"]] + [
        [str(r["repetitions"]), _pct(r["single_point"]), _pct(r["best_point"]), _pct(r["exact"]), _pct(r["difference"])]
        for r in comp["rows"]]
    out.append(("Composition", [f"Prior {number(comp['prior'])}, δ′ = {number(comp['delta_prime'])}; {comp['method']}."],
                rows_c))
    return out


def markdown(report: dict, figure_files: dict | None = None) -> str:
    name = report["release"]["name"]
    lines = [f"# Your release, interpreted: {name}", ""]
    for heading, paras, rows in _sections(report):
        lines += [f"## {heading}", ""]
        for p in paras:
            lines += [p, ""]
        if rows:
            lines.append("| " + " | ".join(rows[0]) + " |")
            lines.append("|" + "---|" * len(rows[0]))
            lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
            lines.append("")
        if heading == "Composition" and figure_files:
            for fig_name, path in figure_files.items():
                lines += [f"![{_caption(fig_name, report)}]({path})", "", f"*{_caption(fig_name, report)}*", ""]
    return "\n".join(lines)


_CSS = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#111}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:right}
th{background:#f3f3f3}figure{margin:1rem 0}figcaption{font-size:.9rem;color:#333}svg{max-width:100%;height:auto}"""


def html_page(report: dict, figs: dict) -> str:
    name = html.escape(report["release"]["name"])
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>Your release, interpreted: {name}</title><style>{_CSS}</style></head><body>",
             f"<h1>Your release, interpreted: {name}</h1>"]
    for heading, paras, rows in _sections(report):
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        parts += [f"<p>{html.escape(p)}</p>" for p in paras]
        if rows:
            parts.append("<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in rows[0]) + "</tr>")
            parts += ["<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows[1:]]
            parts.append("</table>")
        if heading == "Composition":
            for fig_name, fig in figs.items():
                cap = html.escape(_caption(fig_name, report))
                parts.append(f'<figure id="{fig_name}" role="img" aria-label="{cap}">{_svg(fig)}'
                             f"<figcaption>{cap}</figcaption></figure>")
    parts.append("<details><summary>report.json</summary><pre>"
                 + html.escape(json.dumps(report, indent=1, ensure_ascii=False)) + "</pre></details>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write(report: dict, folder) -> list[Path]:
    """Write report.json, report.md (with its figures as SVG files) and report.html into ``folder``."""
    import matplotlib.pyplot as plt

    folder = Path(folder)
    figs = figures(report)
    try:
        page = html_page(report, figs)
        folder.mkdir(parents=True, exist_ok=True)
        files = {}
        for fig_name, fig in figs.items():
            path = folder / f"{fig_name}.svg"
            fig.savefig(path, format="svg")
            files[fig_name] = path.name
        written = [folder / "report.json", folder / "report.md", folder / "report.html"]
        written[0].write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
        written[1].write_text(markdown(report, files), encoding="utf-8")
        written[2].write_text(page, encoding="utf-8")
    finally:
        for fig in figs.values():
            plt.close(fig)
    return written + [folder / f for f in files.values()]
