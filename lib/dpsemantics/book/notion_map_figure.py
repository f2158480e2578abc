"""The notion map drawn: every notion of :mod:`dpsemantics.claims.notion_map` as a box coloured by its chapter,
every relation as an arrow styled by its status in the claims registry and labelled with its number in the
chapter's table, which gives its parameter map, theorem and condition (a ``*`` on the map marks an arrow that
holds only under a condition; an arrow whose condition is a hypothesis the paper leaves out carries it in words).

Graphviz (``dot``, Debian's ``graphviz``) lays the map out: it ranks the notions, routes every arrow
around the boxes and places every label where nothing else is.  Matplotlib then draws that layout in the book's house style, so the figure looks like the
others and a rerun saves it like the others.  The boxes and labels are measured in Matplotlib first and
handed to Graphviz at exactly that size, so what Graphviz keeps apart stays apart once drawn.  Box names are
wrapped and arrows carry only their numbers, so that the map fits the text column
(:data:`~dpsemantics.book.plotting.COLUMN_WIDTH`) with its box names at the size of the page's body text.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import textwrap

from ..claims.notion_map import NOTIONS, RELATIONS, chapters, statuses
from .plotting import COLUMN_WIDTH, PALETTE

__all__ = ["draw", "edge_labels", "layout", "node_labels", "FONTSIZE"]

REFUTED_COLOUR = "#b2182b"
#: A hatch per chapter beside its colour: the palette's sky blue, orange and purple print as one grey.
CHAPTER_HATCHES = ["", "//", "", "..", "\\\\"]
HATCH_COLOUR = "#7a7a7a"
_STYLE = {"valid": ("-", PALETTE[0]), "refuted": ((0, (4, 2)), REFUTED_COLOUR), "unchecked": ((0, (1, 1.5)), "#777777")}
_POINTS_PER_INCH = 72.0
#: Text size of the map's arrow labels and legends, in points (box names half a point larger): at the column
#: width a page shows box names at the size of its body text, and the rest at the size of its tables.
FONTSIZE = 10.0
_WRAP = 12  # characters per line of a box name


def _wrap(text: str) -> str:
    """``text`` broken into lines of :data:`_WRAP` characters, never inside a parameter list like ``(ε, δ)``."""
    text = re.sub(r"\([^()]{1,6}\)", lambda m: m.group().replace(" ", "\u00a0"), text)  # a no-break space
    # a word too long for a line breaks after such a list: "(ε, δ)-" / "probabilistic"
    text = " ".join(w.replace(")-", ")-\n", 1) if len(w) > _WRAP else w for w in text.split(" "))
    return "\n".join(textwrap.fill(part, _WRAP, break_long_words=False) for part in text.split("\n"))


def node_labels() -> list[str]:
    """Each box's name, in the order of :data:`NOTIONS`, wrapped to the map's line length."""
    return [_wrap(n.label) for n in NOTIONS]


def edge_labels() -> list[str]:
    """Each arrow's label, in the order of :data:`RELATIONS`: ``[k]``, its row of the chapter's table (which
    gives the parameter map, the theorem and the condition), ``[k]*`` for an arrow that holds only under a
    condition, ``[k]*`` over its caveat for an arrow whose condition a claim shows is needed (``Relation.needs``:
    a hypothesis the paper leaves out, written on the arrow), and ``✗ [k] refuted`` for an arrow whose claim is a
    discrepancy."""
    labels = []
    for k, (r, mark) in enumerate(zip(RELATIONS, statuses()), start=1):
        text = f"[{k}]" + ("*" if r.condition else "")
        if r.needs:
            text += f"\n{r.caveat}"
        labels.append(f"✗ {text}\nrefuted" if mark == "refuted" else text)
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


def layout(fontsize: float = FONTSIZE) -> dict:
    """Graphviz's layout of the map (``dot -Tjson``), with nodes and labels at their drawn sizes."""
    dot = shutil.which("dot")
    if dot is None:
        raise RuntimeError("the notion map is laid out by Graphviz: install it (Debian: apt-get install graphviz; "
                           "`make system` does) so that `dot` is on the PATH")
    node_sizes = _measure(node_labels(), fontsize + 0.5)
    label_sizes = _measure(edge_labels(), fontsize)
    lines = ["digraph notions {", "graph [rankdir=LR, nodesep=0.15, ranksep=0.2, splines=true];",
             "node [shape=box, style=rounded, fixedsize=true, label=\"\"];", "edge [arrowsize=0.7];"]
    pad = 6.0  # the box's padding around its text, in points
    for n, (w, h) in zip(NOTIONS, node_sizes):
        lines.append(f'"{n.key}" [width={(w + 2 * pad) / 72:.3f}, height={(h + 2 * pad) / 72:.3f}];')
    for k, (r, (w, h)) in enumerate(zip(RELATIONS, label_sizes)):
        cell = (f'<TABLE BORDER="0" CELLPADDING="0" CELLSPACING="0"><TR><TD FIXEDSIZE="TRUE" WIDTH="{w + 3:.0f}" '
                f'HEIGHT="{h + 1:.0f}"> </TD></TR></TABLE>')
        lines.append(f'"{r.source}" -> "{r.target}" [id="e{k}", dir={"both" if r.both_ways else "forward"}, '
                     f'label=<{cell}>];')
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


def draw(ax=None, *, fontsize: float = FONTSIZE):
    """Draw the map (on ``ax``, or on a new figure as wide as the text column, so that text and boxes keep
    their measured sizes, with the two legends below it); returns the figure."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, PathPatch
    from matplotlib.path import Path

    graph = layout(fontsize)
    x0, y0, x1, y1 = map(float, graph["bb"].split(","))
    map_width, map_height = (x1 - x0 + 8) / _POINTS_PER_INCH, (y1 - y0 + 8) / _POINTS_PER_INCH
    if ax is None:
        if map_width > COLUMN_WIDTH:
            raise ValueError(f"the notion map's layout is {map_width:.2f} in wide, wider than the text column "
                             f"({COLUMN_WIDTH} in): shorten its labels or wrap them more")
        fig = plt.figure(figsize=(COLUMN_WIDTH, map_height), layout="none")
        ax = fig.add_axes((0, 0, 1, 1))
    else:
        fig = ax.figure
    ax.set_xlim(x0 - 4, x1 + 4)
    ax.set_ylim(y0 - 4, y1 + 4)
    ax.set_aspect("equal")
    ax.set_axis_off()
    colours = dict(zip(chapters(), [PALETTE[2], PALETTE[1], PALETTE[3], PALETTE[6], PALETTE[7]]))
    hatches = dict(zip(chapters(), CHAPTER_HATCHES))
    by_key = {n.key: n for n in NOTIONS}
    names = dict(zip((n.key for n in NOTIONS), node_labels()))
    for obj in graph.get("objects", []):
        n = by_key[obj["name"]]
        x, y = _points(obj["pos"])[0]
        w, h = float(obj["width"]) * 72, float(obj["height"]) * 72
        ax.add_patch(FancyBboxPatch((x - w / 2 + 3, y - h / 2 + 3), w - 6, h - 6, boxstyle="round,pad=3", zorder=3,
                                    facecolor=colours[n.chapter], edgecolor="black", linewidth=0.8, alpha=0.95,
                                    hatch=hatches[n.chapter], hatchcolor=HATCH_COLOUR))
        ax.text(x, y, names[n.key], ha="center", va="center", fontsize=fontsize + 0.5, zorder=4,
                multialignment="center")
    labels = edge_labels()
    marks = statuses()
    for edge in graph.get("edges", []):
        k = int(edge["id"][1:])
        linestyle, colour = _STYLE[marks[k]]
        start, points, end = _spline(edge["pos"])
        codes = [Path.MOVETO] + [Path.CURVE4] * (len(points) - 1)
        # the gids tie each label to its arrow for the alt text (dpsemantics.book.alt_text)
        ax.add_patch(PathPatch(Path(points, codes), facecolor="none", edgecolor=colour, linewidth=1.0,
                               linestyle=linestyle, zorder=2, gid=f"notion-edge-{k}"))
        for base, tip in ((points[-1], end), (points[0], start)):
            if tip is not None:
                ax.add_patch(FancyArrowPatch(base, tip, arrowstyle="-|>", mutation_scale=9, color=colour, linewidth=1.0,
                                             shrinkA=0, shrinkB=0, zorder=2))
        lx, ly = _points(edge["lp"])[0]
        ax.text(lx, ly, labels[k], ha="center", va="center", fontsize=fontsize, zorder=5, multialignment="center",
                gid=f"notion-edge-{k}-label",
                color=REFUTED_COLOUR if marks[k] == "refuted" else "black",
                bbox=dict(boxstyle="round,pad=0.1", facecolor="white", edgecolor="none", alpha=0.9))
    if fig.get_layout_engine() is None and len(fig.axes) == 1:  # our own figure: the legends go below the map
        _legends_below(fig, ax, colours, fontsize)
    return fig


def _chapter_name(docname: str) -> str:
    """A chapter as the table of contents names it, number and title up to its colon ("1 What differential
    privacy says"), never a name typed in here.  Where there is no table of contents to read (the chapter opened
    alone in a fresh Python, as Colab runs it, with the package installed from its wheel), the chapter's file
    name ("privacy-notions")."""
    from .toc import chapter_titles

    try:
        return chapter_titles()[docname].split(":")[0]
    except (ImportError, OSError, KeyError):
        return docname.rsplit("/", 1)[-1]


def _legends_below(fig, ax, colours, fontsize) -> None:
    """The chapters' colours and the arrows' styles, one legend above the other under the map, each in two
    columns where they fit the figure's width and in one where not; the figure grows by their height."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    entries = [
        ("box: defined in chapter", [Patch(facecolor=c, edgecolor="black", label=_chapter_name(ch), hatch=h,
                                           hatchcolor=HATCH_COLOUR)
                                     for (ch, c), h in zip(colours.items(), CHAPTER_HATCHES)]),
        ("arrow [k]: row k of the table below (⇔ both ways)", [
            Line2D([], [], color=_STYLE["valid"][1], linestyle=_STYLE["valid"][0], label="holds: its claims reproduce"),
            Line2D([], [], color=REFUTED_COLOUR, linestyle=_STYLE["refuted"][0],
                   label="✗ refuted: a claim is a discrepancy"),
            Line2D([], [], color=_STYLE["unchecked"][1], linestyle=_STYLE["unchecked"][0],
                   label="no claim checks it yet"),
            Line2D([], [], linestyle="none", marker="$*$", color="black", label="[k]*: holds under a condition"),
        ]),
    ]
    renderer = fig.canvas.get_renderer()
    legends = []
    for title, handles in entries:
        for ncols in (2, 1):
            legend = fig.legend(handles=handles, loc="upper left", fontsize=fontsize, ncols=ncols, title=title,
                                title_fontsize=fontsize, alignment="left", columnspacing=1.0)
            if ncols == 1 or legend.get_window_extent(renderer).width <= fig.bbox.width:
                break
            legend.remove()
        legends.append(legend)
    heights = [legend.get_window_extent(renderer).height / fig.dpi for legend in legends]
    map_height = fig.get_figheight()
    total = map_height + sum(heights) + 0.1
    fig.set_figheight(total)
    ax.set_position((0, (total - map_height) / total, 1, map_height / total))
    top = total - map_height
    for legend, height in zip(legends, heights):
        legend.set_bbox_to_anchor((0.0, top / total), transform=fig.transFigure)
        top -= height + 0.05
