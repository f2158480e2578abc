"""The notion map drawn: every notion of :mod:`dpsemantics.notion_map` as a box coloured by its chapter,
every relation as an arrow styled by its status in the claims registry."""

from __future__ import annotations

from ..notion_map import CHAPTERS, NOTIONS, RELATIONS, notion, statuses
from .plotting import PALETTE


def _arcs():
    """Curvature for each relation: arrows sharing a pair of nodes fan out symmetrically."""
    groups: dict = {}
    for k, r in enumerate(RELATIONS):
        groups.setdefault(frozenset((r.source, r.target)), []).append(k)
    rad = {}
    for members in groups.values():
        m = len(members)
        for j, k in enumerate(members):
            r = RELATIONS[k]
            # arc3's sign is relative to the direction of travel: normalise to one orientation per pair.
            a, b = sorted((r.source, r.target))
            offset = 0.0 if m == 1 else (j - (m - 1) / 2) * 0.3
            rad[k] = offset if r.source == a else -offset
    return rad


def draw(ax=None, *, fontsize: float = 7.5, number_edges: bool = True):
    """Draw the map on ``ax`` (a new figure if None); returns the figure.

    Nodes are coloured by the chapter that defines them; each arrow carries its number (as in
    :func:`table_rows`) and its parameter transformation.  Double-headed arrows are equivalences.  Arrows are
    drawn by their :func:`status`: solid when their claims reproduce, dashed red, crossed (✗) and labelled
    "refuted" when a claim is a discrepancy, dotted grey when no claim checks them yet."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, Patch


    if ax is None:
        fig, ax = plt.subplots(figsize=(11.5, 8.2))
    else:
        fig = ax.figure
    colours = dict(zip(CHAPTERS, [PALETTE[2], PALETTE[1], PALETTE[3], PALETTE[6], PALETTE[7]]))
    texts = {}
    for nd in NOTIONS:
        texts[nd.key] = ax.text(
            *nd.pos, nd.label, ha="center", va="center", fontsize=fontsize + 1.5, zorder=3,
            bbox=dict(boxstyle="round,pad=0.45", facecolor=colours[nd.chapter], edgecolor="black", alpha=0.9),
        )
    xs = [n.pos[0] for n in NOTIONS]
    ys = [n.pos[1] for n in NOTIONS]
    ax.set_xlim(min(xs) - 1.6, max(xs) + 1.6)
    ax.set_ylim(min(ys) - 0.8, max(ys) + 0.8)
    ax.set_axis_off()
    fig.canvas.draw()  # place the boxes, so that arrows can be clipped at their edges
    rads = _arcs()
    marks = statuses()
    refuted_colour = "#b2182b"
    style = {"valid": ("-", PALETTE[0]), "refuted": ((0, (4, 2)), refuted_colour), "unchecked": (":", "grey")}
    for k, r in enumerate(RELATIONS):
        linestyle, colour = style[marks[k]]
        a, b = notion(r.source).pos, notion(r.target).pos
        rad = rads[k]
        arrow = FancyArrowPatch(
            a, b, connectionstyle=f"arc3,rad={rad}", arrowstyle="<|-|>" if r.both_ways else "-|>",
            mutation_scale=11, lw=1.0, color=colour, linestyle=linestyle, zorder=2,
            patchA=texts[r.source].get_bbox_patch(), patchB=texts[r.target].get_bbox_patch(), shrinkA=2, shrinkB=2,
        )
        ax.add_patch(arrow)
        # label at the midpoint of the arc (arc3 puts its control point at distance rad·|ab| off the chord)
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        dx, dy = b[0] - a[0], b[1] - a[1]
        lx, ly = mx + rad * dy / 2, my - rad * dx / 2
        # anchor the label on the outer side of a bent arrow, so that labels of parallel arrows part
        ha, va = "center", "center"
        if rad:
            nx, ny = rad * dy, -rad * dx
            if abs(nx) >= abs(ny):
                ha = "left" if nx > 0 else "right"
            else:
                va = "bottom" if ny > 0 else "top"
        label = (f"[{k + 1}] " if number_edges else "") + r.transform
        if marks[k] == "refuted":
            label = "✗ " + label + "\nrefuted as printed"
        ax.text(lx, ly, label, ha=ha, va=va, fontsize=fontsize, zorder=4,
                color=refuted_colour if marks[k] == "refuted" else "black",
                bbox=dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none", alpha=0.85))
    first = ax.legend(
        handles=[Patch(facecolor=c, edgecolor="black", label=ch) for ch, c in colours.items()],
        loc="lower center", bbox_to_anchor=(0.62, 0.0), fontsize=fontsize, title="defined in chapter", title_fontsize=fontsize,
    )
    ax.add_artist(first)
    ax.legend(
        handles=[
            Line2D([], [], color=PALETTE[0], linestyle="-", label="holds: its claims reproduce"),
            Line2D([], [], color=refuted_colour, linestyle=(0, (4, 2)), label="✗ refuted: a claim is a discrepancy"),
            Line2D([], [], color="grey", linestyle=":", label="no claim checks it yet"),
        ],
        loc="upper right", fontsize=fontsize, title="arrow (joined to the claims registry)", title_fontsize=fontsize,
    )
    return fig
