"""Presentation of the causal chapter's evidence (Tschantz, Sen & Datta; :doc:`/book/causal-view`): Table 1 as
Markdown and the labels of Figure 2's dashed arcs.  The searches themselves are in
:mod:`dpsemantics.claims.causal_evidence`."""

from __future__ import annotations

from ..claims.causal_evidence import AssumptionArc, Table1Row
from .render import captioned

__all__ = ["table1_markdown", "arc_label", "ARC_LABELS"]

#: Figure 2's label for each assumption under which DP implies Bayesian₀ DP (two lines, drawn on the arc).
ARC_LABELS = {"independent data points": "independent\ndata points", "strong adversary": "strong\nadversary"}


def arc_label(arc: AssumptionArc) -> str:
    """The label drawn on ``arc`` in the implication diagram (the assumption's words, broken over two lines)."""
    if arc.assumption not in ARC_LABELS:
        raise ValueError(f"arc must be one of Figure 2's assumptions {sorted(ARC_LABELS)} (got {arc.assumption!r})")
    return ARC_LABELS[arc.assumption]


def _escape_cell(text: str) -> str:
    """Escape the column separator inside a Markdown table cell."""
    return text.replace("|", "\\|")


def table1_markdown(rows: list[Table1Row], caption: str | None = None, name: str | None = None) -> str:
    """Table 1 as a Markdown table (paper's relation, computed relation and the counts behind it: of the
    cases tried, how many gave ε equal to, above and below the mechanism's DP ε); with a ``caption``, numbered
    and captioned as the book's tables are (:func:`dpsemantics.book.render.captioned`)."""
    head = ("| Def. | name | 𝒫 | point of comparison | paper | computed | cases: $=$, $>$, $<$ "
            "$\\varepsilon_{\\mathrm{DP}}$ |\n|---|---|---|---|---|---|---|\n")
    body = "".join(
        f"| {r.number} | {r.name} | {r.quantifier} | {_escape_cell(r.comparison)} | {r.printed} | {r.computed}"
        f"{'' if r.agrees else ' ⚠'} | {r.cases}: {r.equal}, {r.larger}, {r.smaller} |\n"
        for r in rows
    )
    if caption is None:
        return head + body
    return "\n".join(captioned(caption, (head + body).rstrip("\n").split("\n"), name))
