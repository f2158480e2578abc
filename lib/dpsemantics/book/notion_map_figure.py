"""The notion map drawn: every notion of :mod:`dpsemantics.notion_map` as a box coloured by its chapter,
every relation as an arrow styled by its status in the claims registry and labelled with its number, its
parameter map and, where it has one, its condition.

Graphviz (``dot``, Debian's ``graphviz``) lays the map out: it ranks the notions, routes every arrow
around the boxes and places every label where nothing else is.  Matplotlib then draws that layout in the
book's house style, so the figure looks like the others and a rerun saves it like the others.  The boxes
and labels are measured in Matplotlib first and handed to Graphviz at exactly that size, so what Graphviz
keeps apart stays apart once drawn.
"""

from __future__ import annotations

import json
import shutil
import subprocess

from ..notion_map import CHAPTERS, NOTIONS, RELATIONS, statuses
from .plotting import PALETTE

__all__ = ["draw", "edge_labels", "layout"]

REFUTED_COLOUR = "#b2182b"
_STYLE = {"valid": ("-", PALETTE[0]), "refuted": ((0, (4, 2)), REFUTED_COLOUR), "unchecked": ((0, (1, 1.5)), "#777777")}
_POINTS_PER_INCH = 72.0


def edge_labels() -> list[str]:
    """Each arrow's label, in the order of :data:`RELATIONS`: ``[k] transform``, its caveat on a second line,
    and ``✗ … refuted as printed`` for an arrow whose claim is a discrepancy."""
    labels = []
    for k, (r, mark) in enumerate(zip(RELATIONS, statuses()), start=1):
        text = f"[{k}] {r.transform}" + (f"\n{r.caveat}" if r.caveat else "")
        if mark == "refuted":
            text = f"✗ {text}\nrefuted as printed"
        labels.append(text)
    return labels


def _measure(texts, fontsize):
    """Width and height in points of each text as Matplotlib will draw it."""
    import matplotlib.pyplot as plt

    fig = plt.figure()
    renderer = fig.canvas.get_renderer()
    sizes = []
    for text in texts:
        artist = fig.text(0, 0, text, fontsize=fontsize, ha="center", va="center", multialignment="center")
        box = artist.get_window_extent(renderer)
        sizes.append((box.width * _POINTS_PER_INCH / fig.dpi, box.height * _POINTS_PER_INCH / fig.dpi))
    plt.close(fig)
    return sizes


def layout(fontsize: float = 7.5) -> dict:
    """Graphviz's layout of the map (``dot -Tjson``), with nodes and labels at their drawn sizes."""
    dot = shutil.which("dot")
    if dot is None:
        raise RuntimeError("the notion map is laid out by Graphviz: install it (Debian: apt-get install graphviz; "
                           "`make system` does) so that `dot` is on the PATH")
    node_sizes = _measure([n.label for n in NOTIONS], fontsize + 1.5)
    label_sizes = _measure(edge_labels(), fontsize)
    lines = ["digraph notions {", "graph [rankdir=LR, nodesep=0.25, ranksep=0.4, splines=true];",
             "node [shape=box, style=rounded, fixedsize=true, label=\"\"];", "edge [arrowsize=0.7];"]
    pad = 8.0  # the box's padding around its text, in points
    for n, (w, h) in zip(NOTIONS, node_sizes):
        lines.append(f'"{n.key}" [width={(w + 2 * pad) / 72:.3f}, height={(h + 2 * pad) / 72:.3f}];')
    for k, (r, (w, h)) in enumerate(zip(RELATIONS, label_sizes)):
        cell = f'<TABLE BORDER="0" CELLPADDING="0" CELLSPACING="0"><TR><TD FIXEDSIZE="TRUE" WIDTH="{w + 4:.0f}" HEIGHT="{h + 2:.0f}"> </TD></TR></TABLE>'
        lines.append(f'"{r.source}" -> "{r.target}" [id="e{k}", dir={"both" if r.both_ways else "forward"}, label=<{cell}>];')
    lines.append("}")
    proc = subprocess.run([dot, "-Tjson"], input="\n".join(lines), capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def _points(text: str) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in text.split()]


def _spline(pos: str):
    """Graphviz's edge ``pos``: optional ``s,x,y`` / ``e,x,y`` arrow tips, then cubic B-spline control points."""
    start = end = None
    points = []
    for token in pos.split():
        if token.startswith("s,"):
            start = tuple(map(float, token[2:].split(",")))
        elif token.startswith("e,"):
            end = tuple(map(float, token[2:].split(",")))
        else:
            points.append(tuple(map(float, token.split(","))))
    return start, points, end


def draw(ax=None, *, fontsize: float = 7.5):
    """Draw the map (on ``ax``, or a new figure at Graphviz's size, so text and boxes keep their measured
    sizes); returns the figure."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch, PathPatch
    from matplotlib.path import Path

    graph = layout(fontsize)
    x0, y0, x1, y1 = map(float, graph["bb"].split(","))
    if ax is None:
        legend_height = 1.1
        width = (x1 - x0 + 8) / _POINTS_PER_INCH
        fig = plt.figure(figsize=(width, (y1 - y0 + 8) / _POINTS_PER_INCH + legend_height), layout=None)
        ax = fig.add_axes((0, legend_height / fig.get_figheight(), 1, 1 - legend_height / fig.get_figheight()))
    else:
        fig = ax.figure
    ax.set_xlim(x0 - 4, x1 + 4)
    ax.set_ylim(y0 - 4, y1 + 4)
    ax.set_aspect("equal")
    ax.set_axis_off()
    colours = dict(zip(CHAPTERS, [PALETTE[2], PALETTE[1], PALETTE[3], PALETTE[6], PALETTE[7]]))
    by_key = {n.key: n for n in NOTIONS}
    for obj in graph.get("objects", []):
        n = by_key[obj["name"]]
        x, y = _points(obj["pos"])[0]
        w, h = float(obj["width"]) * 72, float(obj["height"]) * 72
        ax.add_patch(FancyBboxPatch((x - w / 2 + 3, y - h / 2 + 3), w - 6, h - 6, boxstyle="round,pad=3", zorder=3,
                                    facecolor=colours[n.chapter], edgecolor="black", linewidth=0.8, alpha=0.95))
        ax.text(x, y, n.label, ha="center", va="center", fontsize=fontsize + 1.5, zorder=4, multialignment="center")
    labels = edge_labels()
    marks = statuses()
    for edge in graph.get("edges", []):
        k = int(edge["id"][1:])
        linestyle, colour = _STYLE[marks[k]]
        start, points, end = _spline(edge["pos"])
        codes = [Path.MOVETO] + [Path.CURVE4] * (len(points) - 1)
        ax.add_patch(PathPatch(Path(points, codes), facecolor="none", edgecolor=colour, linewidth=1.0,
                               linestyle=linestyle, zorder=2))
        for base, tip in ((points[-1], end), (points[0], start)):
            if tip is not None:
                ax.add_patch(FancyArrowPatch(base, tip, arrowstyle="-|>", mutation_scale=9, color=colour, linewidth=1.0,
                                             shrinkA=0, shrinkB=0, zorder=2))
        lx, ly = _points(edge["lp"])[0]
        ax.text(lx, ly, labels[k], ha="center", va="center", fontsize=fontsize, zorder=5, multialignment="center",
                color=REFUTED_COLOUR if marks[k] == "refuted" else "black",
                bbox=dict(boxstyle="round,pad=0.1", facecolor="white", edgecolor="none", alpha=0.9))
    chapters = fig.legend(handles=[Patch(facecolor=c, edgecolor="black", label=text) for text, c in
                                   ((CHAPTERS[ch].split(" (")[0], c) for ch, c in colours.items())],
                          loc="lower left", bbox_to_anchor=(0.01, 0.0), fontsize=fontsize + 0.5, ncols=2,
                          title="box: defined in the chapter on", title_fontsize=fontsize + 0.5)
    fig.legend(handles=[
        Line2D([], [], color=_STYLE["valid"][1], linestyle=_STYLE["valid"][0], label="holds: its claims reproduce"),
        Line2D([], [], color=REFUTED_COLOUR, linestyle=_STYLE["refuted"][0], label="✗ refuted: a claim is a discrepancy"),
        Line2D([], [], color=_STYLE["unchecked"][1], linestyle=_STYLE["unchecked"][0], label="no claim checks it yet"),
    ], loc="lower right", bbox_to_anchor=(0.99, 0.0), fontsize=fontsize + 0.5,
        title="arrow (joined to the claims registry; ⇔ both ways)", title_fontsize=fontsize + 0.5)
    fig.add_artist(chapters)
    return fig
