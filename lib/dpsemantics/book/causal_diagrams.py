"""Drawings of Tschantz, Sen & Datta's causal models: a model's graph (their Figure 1) and the implication
diagram of Table 1 (their Figure 2, extended), both drawn from the models and computed relations in
:mod:`dpsemantics.causal`.  No graph-drawing library needed."""

from __future__ import annotations

import math

from ..causal import DEFINITIONS, StructuralModel
from .plotting import PALETTE


def layered_layout(model: StructuralModel) -> dict[str, tuple[float, float]]:
    """Node positions for drawing a model's causal graph: columns by "as late as possible" layering
    (every variable one column before its earliest child, sinks last), rows ordered by repeated
    barycentre sweeps over neighbours, centred on zero.  No graph-drawing library needed."""
    children = {v: [c for p, c in model.edges() if p == v] for v in model.variables}
    parents = {v: list(model.parents.get(v, ())) for v in model.variables}
    order = model.background + model.order  # parents before children
    height: dict[str, int] = {}
    for v in reversed(order):  # longest path to a sink
        height[v] = 0 if not children[v] else 1 + max(height[c] for c in children[v])
    top = max(height.values())
    depth = {v: top - height[v] for v in order}
    for v in reversed(order):  # as late as possible: right before the earliest child
        if children[v]:
            depth[v] = min(depth[c] for c in children[v]) - 1
    columns: dict[int, list] = {}
    for v in order:
        columns.setdefault(depth[v], []).append(v)
    pos = {v: float(i) for col in columns.values() for i, v in enumerate(col)}
    for _ in range(6):  # barycentre sweeps fix the order within each column
        for col in columns.values():
            def bary(v):
                nb = parents[v] + children[v]
                return (sum(pos[u] for u in nb) / len(nb)) if nb else pos[v]
            col.sort(key=lambda v: (bary(v), v))
            for i, v in enumerate(col):
                pos[v] = float(i)
    y = {}
    last = max(columns)
    for v in columns[last]:
        y[v] = (len(columns[last]) - 1) / 2 - columns[last].index(v)
    for d in sorted(columns, reverse=True)[1:]:  # right to left: sit at the mean height of the children
        col = columns[d]
        want = [sum(y[c] for c in children[v]) / len(children[v]) if children[v] else 0.0 for v in col]
        ordered = sorted(zip(want, range(len(col))), key=lambda t: (-t[0], t[1]))
        placed = []
        for w, i in ordered:  # keep at least one unit between neighbours, top to bottom
            placed.append(min(w, placed[-1] - 1.0) if placed else w)
        shift = (sum(want) - sum(placed)) / len(col)
        for (w, i), p in zip(ordered, placed):
            y[col[i]] = p + shift
    return {v: (float(depth[v]), float(y[v])) for v in order}


def _passes_near(p0, p1, others, radius=0.35) -> bool:
    (x0, y0), (x1, y1) = p0, p1
    for (x, yy) in others:
        t = ((x - x0) * (x1 - x0) + (yy - y0) * (y1 - y0)) / max((x1 - x0) ** 2 + (y1 - y0) ** 2, 1e-12)
        if 0.05 < t < 0.95 and math.hypot(x0 + t * (x1 - x0) - x, y0 + t * (y1 - y0) - yy) < radius:
            return True
    return False


def draw_causal_diagram(ax, model: StructuralModel, *, node_labels=None, edge_labels=None, highlight=()):
    """Draw the model's graph on ``ax`` at :func:`layered_layout` positions: background variables in
    white boxes, endogenous ones shaded; ``edge_labels[(parent, child)]`` is written on the arrow and
    arrows in ``highlight`` are drawn thick."""
    pos = layered_layout(model)
    node_labels = node_labels or {}
    edge_labels = edge_labels or {}
    boxes = {v: ax.text(x, y, node_labels.get(v, v), ha="center", va="center", fontsize=9, zorder=3,
                        bbox=dict(boxstyle="round,pad=0.35", fc="white" if v in model.background else "#dbeaf7",
                                  ec="#333333"))
             for v, (x, y) in pos.items()}
    for (p, c) in model.edges():
        (x0, y0), (x1, y1) = pos[p], pos[c]
        thick = (p, c) in highlight
        # an arrow that would run through another node bends around it
        others = [q for v, q in pos.items() if v not in (p, c)]
        rad = 0.3 if _passes_near((x0, y0), (x1, y1), others) else 0.0
        _arrow_between(ax, boxes[p], boxes[c], style="-|>", color=PALETTE[5] if thick else "#555555",
                       lw=2.2 if thick else 1.1, rad=rad)
        if (p, c) in edge_labels:
            mx, my = 0.5 * (x0 + x1) + 0.5 * rad * (y1 - y0), 0.5 * (y0 + y1) - 0.5 * rad * (x1 - x0)
            # an opaque label above every arrow: no arrow runs through its text (issue 25, Fig 4.1)
            ax.text(mx, my, edge_labels[(p, c)], ha="center", va="center", fontsize=9, zorder=6,
                    color=PALETTE[5] if thick else "#333333",
                    bbox=dict(boxstyle="round,pad=0.25", fc="white", ec="none", alpha=1.0))
    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)
    ax.set_ylim(min(ys) - 0.7, max(ys) + 0.7)
    ax.axis("off")
    return pos


_GROUP = {1: 0, 2: -1, 3: 2, 4: -1, 10: -1, 5: 1, 6: 1, 7: 1, 8: 1}  # 2: above DP (a stronger notion)


def _arrow_between(ax, a, b, *, style, color, lw=1.6, linestyle="-", rad=0.0):
    """An arrow from text box ``a`` to text box ``b``, clipped at the boxes' outlines."""
    return ax.annotate("", xy=b.get_position(), xytext=a.get_position(),
                       arrowprops=dict(arrowstyle=style, color=color, lw=lw, linestyle=linestyle,
                                       patchA=a.get_bbox_patch(), patchB=b.get_bbox_patch(),
                                       shrinkA=2, shrinkB=2, mutation_scale=14,
                                       connectionstyle=f"arc3,rad={rad}"))


def draw_implication_diagram(ax, rows: list, *, conditional=None):
    """Figure 2 extended to Table 1, drawn from computed relations: DP in the middle, associative
    definitions left, causal ones right; a double-headed arrow for "↔ DP", an arrow towards DP for
    "→ DP" and away from DP for "← DP".  ``conditional`` is a list of (from, to, label) dashed arrows
    (implications that need an assumption)."""
    groups: dict[int, list] = {}
    for num in [1] + [r.number for r in rows]:
        groups.setdefault(_GROUP[num], []).append(num)
    boxes = {}
    height = max(len(nums) for g, nums in groups.items() if g in (-1, 1)) if len(groups) > 1 else 1
    for g, nums in groups.items():
        for i, num in enumerate(nums):
            if g == 2:  # stronger definitions sit above DP
                x, y = 1.2 * (i - (len(nums) - 1) / 2), (height - 1) / 2 + 0.3
            else:
                x, y = 2.4 * g, (len(nums) - 1) / 2 - i
            name = DEFINITIONS[num][0] if num != 1 else "Differential privacy"
            boxes[num] = ax.text(x, y, f"Def. {num}\n{_wrap(name)}", ha="center", va="center", fontsize=8, zorder=3,
                                 bbox=dict(boxstyle="round,pad=0.3", fc="#f2f2f2" if num != 1 else "#ffe9bf",
                                           ec="#333333"))
    colours = {"↔ DP": PALETTE[3], "→ DP": PALETTE[1], "← DP": PALETTE[4], "none": "#999999"}
    styles = {"↔ DP": "<|-|>", "→ DP": "-|>", "← DP": "<|-", "none": "-"}
    # a dash pattern per relation as well as a colour, so that the relations stay apart in greyscale
    dashes = {"↔ DP": "-", "→ DP": (0, (6, 2)), "← DP": (0, (1.5, 1.5)), "none": (0, (3, 1, 1, 1))}
    for r in rows:
        _arrow_between(ax, boxes[r.number], boxes[1], style=styles[r.computed], color=colours[r.computed],
                       linestyle=dashes[r.computed])
    for k, (src, dst, label) in enumerate(conditional or []):
        rad = 0.45 if k % 2 == 0 else -0.45
        _arrow_between(ax, boxes[src], boxes[dst], style="-|>", color=PALETTE[6], lw=1.2, linestyle="--", rad=rad)
        (x0, y0), (x1, y1) = boxes[src].get_position(), boxes[dst].get_position()
        off = 0.5 * rad * (y1 - y0)
        ax.text(0.5 * (x0 + x1) + off + (0.08 if off >= 0 else -0.08), 0.5 * (y0 + y1) - 0.5 * rad * (x1 - x0), label,
                ha="left" if off >= 0 else "right", va="center", fontsize=8, color=PALETTE[6], style="italic", zorder=4,
                bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.9))
    for label, kind in [("equivalent", "↔ DP"), ("implies DP only", "→ DP"), ("implied by DP only", "← DP")]:
        ax.plot([], [], color=colours[kind], linestyle=dashes[kind], label=label)
    ax.plot([], [], color=PALETTE[6], linestyle="--", label="DP implies it under an assumption")
    ax.legend(loc="lower center", ncols=2, bbox_to_anchor=(0.5, -0.12))
    ys = [b.get_position()[1] for b in boxes.values()]
    ax.set_xlim(-3.5, 3.5)
    ax.set_ylim(min(ys) - 0.8, max(ys) + 0.8)
    ax.axis("off")
    return boxes


def _wrap(text, width=22):
    words, lines, line = text.split(), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    lines.append(line)
    return "\n".join(lines)
