"""One house style for every figure of the book.

* :func:`use_house_style` sets Matplotlib's parameters (no preset style names: the look is ours and
  stays the same when Matplotlib's presets change).
* :data:`PALETTE` is the Okabe–Ito palette, distinguishable under the common forms of colour-blindness;
  :data:`LINESTYLES` adds a second cue so that curves never rely on colour alone, and :data:`MARKERS` a third.
* :func:`plot_series` draws several curves on one grid, each with its own colour, dash pattern and marker;
  curves that coincide (checked numerically by :func:`coinciding`) share one legend entry that names them all
  and says so, and their markers are staggered so that every one of them stays visible.
* :func:`finish` is called at the end of every figure cell with the figure's book name (the ``name`` in
  the cell's ``mystnb.figure`` metadata).  It gives log axes plain tick labels (``0.01``, ``2``, ``50``;
  ``10⁻⁶`` only outside 10⁻⁴…10⁵), never Matplotlib's ``2×10⁰``; writes numbers in titles, labels and
  legends the same way (``1e-06`` → ``10⁻⁶``); refuses a figure wider than the text column
  (:data:`COLUMN_WIDTH`: a wider one is shrunk by the page, and its text with it); and moves a legend that
  would cover data to a free corner of its axes, or below them.  When the environment variable ``DPSEMANTICS_FIGURE_DIR`` is set
  (``python -m dpsemantics.book.rerun`` sets it), the figure is also written there as PNG and SVG under that
  name, so a rerun with new parameters produces files named like the book's figures.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import matplotlib as mpl
import matplotlib.pyplot as plt

from . import alt_text
from .render import exponents, scientific

if TYPE_CHECKING:
    import numpy as np

__all__ = ["PALETTE", "LINESTYLES", "MARKERS", "COLUMN_WIDTH", "use_house_style", "new_figure", "finish",
           "plain_log_ticks", "readable_number", "legend_covers_data", "coinciding", "plot_series", "probability_axis",
           "FIGURE_DIR_ENV"]

FIGURE_DIR_ENV = "DPSEMANTICS_FIGURE_DIR"

#: Okabe & Ito (2008) colour-blind-safe palette, black first.
PALETTE = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#F0E442"]
LINESTYLES = ["-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 1)), (0, (8, 2))]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
#: The widest figure, in inches, that the book's page shows at (about) its natural size: at 1280 px the text
#: column shows a figure 672 px wide, and 6.4 in at the house 110 dpi is 704 px.  Wider figures are shrunk,
#: text and all, so :func:`finish` refuses them.
COLUMN_WIDTH = 6.4


def use_house_style() -> None:
    """Apply the book's figure style to Matplotlib's global parameters."""
    from cycler import cycler

    mpl.rcParams.update(
        {
            "figure.figsize": (6.4, 3.8),
            "figure.dpi": 110,
            "savefig.dpi": 150,
            # An opaque white background keeps figures legible in the book's dark mode.
            "figure.facecolor": "white",
            "axes.facecolor": "white",
            "savefig.facecolor": "white",
            "axes.prop_cycle": cycler(color=PALETTE[:7]) + cycler(linestyle=LINESTYLES[:7]),
            "axes.grid": True,
            "grid.color": "#d9d9d9",
            "grid.linewidth": 0.6,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.titlesize": 11,
            "axes.labelsize": 10,
            "legend.fontsize": 9,
            "legend.frameon": False,
            "lines.linewidth": 1.8,
            "font.size": 10,
            "mathtext.fontset": "dejavusans",
            "figure.constrained_layout.use": True,
            # SVG for the HTML (vector, so the printed book's figures are vector too), written the same way on
            # every run: fixed ids (svg.hashsalt) and, in _show_as_svg and finish, no date in the metadata, so that
            # a figure that does not depend on a parameter is byte-identical from one run to the next.
            "svg.hashsalt": "dpsemantics",
            "svg.fonttype": "path",
        }
    )
    _show_as_svg()


#: Keywords for every SVG the book writes: no ``<dc:date>`` (the run's time would make each run's figure differ).
SVG_METADATA = {"Date": None}


def _show_as_svg() -> None:
    """In a notebook kernel, show figures as SVG (vector in the HTML and in the PDF printed from it), with
    :data:`SVG_METADATA`; outside IPython (scripts, tests) do nothing."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is a dependency of the notebooks, not of the package
        return
    if get_ipython() is None:
        return
    from matplotlib.figure import Figure
    from matplotlib_inline.backend_inline import set_matplotlib_formats

    set_matplotlib_formats("svg", metadata=SVG_METADATA)
    get_ipython().display_formatter.formatters["image/svg+xml"].for_type(Figure, svg_for_page)


def svg_for_page(fig) -> str:
    """``fig`` as the SVG the book shows: Matplotlib's (tight bounding box, :data:`SVG_METADATA`) with its width
    and height in pixels at the figure's dpi, so that the page shows it at the size a PNG at that dpi had (an SVG
    sized in points would show at 96/72 px per point, 13 % smaller, its text with it)."""
    from IPython.core.pylabtools import print_figure

    svg = _svg_in_pixels(print_figure(fig, "svg", bbox_inches="tight", metadata=SVG_METADATA), fig.dpi)
    return _with_alt_text(fig, svg)


#: The attribute :func:`finish` sets on a figure: its alt text, drawn values and texts
#: (:mod:`dpsemantics.book.alt_text`).
ALT_ATTRIBUTE = "dpsemantics_alt_text"


def _with_alt_text(fig, svg: str) -> str:
    """``svg`` with the alt text and drawn values :func:`finish` found for ``fig``, when it has been finished."""
    found = getattr(fig, ALT_ATTRIBUTE, None)
    return alt_text.embed(svg, *found) if found else svg


def _svg_in_pixels(svg: str, dpi: float) -> str:
    """The root element's ``width``/``height`` in points rewritten in pixels at ``dpi`` (the viewBox keeps the
    drawing's own coordinates, so the figure scales)."""
    head, _, rest = svg.partition("<svg")
    tag, _, body = rest.partition(">")
    tag = re.sub(r'(width|height)="([\d.]+)pt"', lambda m: f'{m.group(1)}="{float(m.group(2)) * dpi / 72:.1f}px"', tag)
    return f"{head}<svg{tag}>{body}"


def new_figure(ncols: int = 1, nrows: int = 1, *, width: float | None = None, height: float | None = None, **kwargs):
    """A figure with ``nrows × ncols`` axes in the house style (returns ``fig, axes``), as wide as the text
    column unless ``width`` says otherwise."""
    use_house_style()
    w, h = mpl.rcParams["figure.figsize"]
    size = (width or COLUMN_WIDTH, height or h * (1 if nrows == 1 else 0.8 * nrows))
    return plt.subplots(nrows, ncols, figsize=size, **kwargs)


def finish(fig, name: str) -> None:
    """End a figure cell: plain log ticks, readable numbers, legends clear of the data (see the module's
    docstring); save ``name``.png/.svg when ``$DPSEMANTICS_FIGURE_DIR`` is set.

    ``name`` must equal the figure's ``mystnb.figure.name`` in the notebook, so that a rerun writes files
    named like the book's figures.  The figure itself is displayed by the notebook as usual.
    """
    if not name or not isinstance(name, str):
        raise ValueError(f"name must be a non-empty string (got name={name!r})")
    if fig.get_figwidth() > COLUMN_WIDTH * 1.001:
        raise ValueError(f"figure {name} is {fig.get_figwidth():.2f} in wide, wider than the text column "
                         f"({COLUMN_WIDTH} in): the page would shrink it and its text")
    clashes = greyscale_clashes(fig)
    if clashes:
        raise ValueError(f"figure {name}: series that a greyscale print cannot tell apart (same grey, dash, marker "
                         f"and width; give them different dashes or markers): {'; '.join(clashes)}")
    _legible_texts(fig)
    fig.canvas.draw()  # settles the layout, so that the axes' lengths are known
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if axis.get_scale() == "log":
                plain_log_ticks(axis)
    _readable_texts(fig)
    _clear_legends(fig)
    description, values = alt_text.describe(fig), alt_text.drawn_values(fig)
    unfounded = alt_text.unfounded_numbers(description, values)
    if unfounded:
        raise ValueError(f"figure {name}: its alt text has numbers the figure does not draw ({', '.join(unfounded)}): "
                         f"{description}")
    setattr(fig, ALT_ATTRIBUTE, (description, values, alt_text.labels(fig)))
    out = os.environ.get(FIGURE_DIR_ENV)
    if out:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        fig.savefig(folder / f"{name}.png", metadata={"Description": description})
        svg = folder / f"{name}.svg"
        fig.savefig(svg, metadata=SVG_METADATA)
        svg.write_text(alt_text.embed(svg.read_text(encoding="utf-8"), *getattr(fig, ALT_ATTRIBUTE)), encoding="utf-8")
        (folder / f"{name}.alt.txt").write_text(description + "\n", encoding="utf-8")


def _power_tick(value: float) -> str:
    """A log-axis tick in powers of ten: ``10⁻⁶`` (mathtext), ``2×10⁻⁶`` between them."""
    exponent = math.floor(math.log10(value) + 1e-9)
    mantissa = value / 10.0 ** exponent
    if math.isclose(mantissa, 1.0, rel_tol=1e-9) or math.isclose(mantissa, 10.0, rel_tol=1e-9):
        return f"$10^{{{exponent + (1 if mantissa > 5 else 0)}}}$"
    return f"${mantissa:.2g}\\times 10^{{{exponent}}}$"


def _plain_tick(value: float, powers: bool = False) -> str:
    """A log-axis tick: plain (``0.01``, ``50``) or, on an axis that needs them, in powers of ten throughout."""
    if value <= 0 or not math.isfinite(value):
        return ""
    return _power_tick(value) if powers else f"{value:.6g}"


def log_ticks_in_powers(low: float, high: float) -> bool:
    """Whether a log axis from ``low`` to ``high`` labels its ticks in powers of ten (``10⁻⁶``): when it reaches
    below 10⁻³ or above 10⁴, where plain numbers grow long.  One format per axis: never ``0.0001`` beside ``10⁻⁵``."""
    return low < 1e-3 * (1 - 1e-9) or high > 1e4 * (1 + 1e-9)


def plain_log_ticks(axis) -> None:
    """Tick labels on a log axis in one format (:func:`log_ticks_in_powers`): plain (``0.01`` … ``1000``) on an
    axis within 10⁻³…10⁴, powers of ten (``10⁻⁶``) throughout on one that reaches beyond; on an axis spanning
    less than about two decades, the minor ticks 2, 3 and 5 labelled too — or only 2 and 5, or none, where the
    axis is too short for their labels to stand apart."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    low, high = sorted(axis.get_view_interval())
    decades = math.log10(high / low) if low > 0 else math.inf
    box = axis.axes.get_window_extent()
    length = (box.width if axis is axis.axes.xaxis else box.height) / axis.axes.figure.dpi  # inches
    per_decade = length / decades if decades > 0 else math.inf
    subs = (2.0, 3.0, 5.0) if per_decade >= 2.8 else (2.0, 5.0) if per_decade >= 1.2 else ()
    powers = log_ticks_in_powers(low, high)
    axis.set_major_locator(LogLocator(base=10))
    axis.set_major_formatter(FuncFormatter(lambda v, _: _plain_tick(v, powers)))
    if decades < 2.2 and subs:
        axis.set_minor_locator(LogLocator(base=10, subs=subs))
        axis.set_minor_formatter(FuncFormatter(lambda v, _: _plain_tick(v, powers)))
    else:
        axis.set_minor_locator(LogLocator(base=10, subs=tuple(range(2, 10))))
        axis.set_minor_formatter(NullFormatter())


#: A probability axis turns logit when its largest value is above this: on a linear 0…1 axis, bounds at 0.93,
#: 0.99 and 0.9999 all draw as one line along the top.
CROWDED_NEAR_ONE = 0.95


def probability_axis(axis, values, *, crowded: float = CROWDED_NEAR_ONE) -> str:
    """Choose a probability axis from the values it shows (``None`` and non-finite values ignored): linear from 0
    to 1 when the largest is at most ``crowded``; otherwise a logit axis (0.5, 0.9, 0.99, 0.999 … equally spaced,
    labelled in plain numbers), from just below the smallest value to just above the largest.  Returns
    ``"linear"`` or ``"logit"``."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator

    finite = [float(v) for v in values if v is not None and math.isfinite(v)]
    if not finite:
        raise ValueError(f"values must hold at least one finite probability (got values={list(values)!r})")
    if any(v < 0 or v > 1 for v in finite):
        raise ValueError(f"values must be probabilities in [0, 1] (got {min(finite)} … {max(finite)})")
    ax = axis.axes
    setlim = ax.set_ylim if axis is ax.yaxis else ax.set_xlim
    if max(finite) <= crowded:
        (ax.set_yscale if axis is ax.yaxis else ax.set_xscale)("linear")
        setlim(0, 1.02)
        return "linear"
    edge = 1e-12  # a bound of exactly 0 or 1 sits at the axis' end
    logit = [math.log(v / (1 - v)) for v in (min(max(v, edge), 1 - edge) for v in finite)]
    low, high = min(logit), max(logit)
    pad = max(0.05 * (high - low), 0.3)
    low, high = low - pad, high + pad
    (ax.set_yscale if axis is ax.yaxis else ax.set_xscale)("logit", nonpositive="clip")
    setlim(1 / (1 + math.exp(-low)), 1 / (1 + math.exp(-high)))
    nines = [1 - 10.0 ** -k for k in range(1, 13)]
    candidates = [10.0 ** -k for k in range(12, 0, -1)] + [0.5] + nines
    ticks = [t for t in candidates if low <= math.log(t / (1 - t)) <= high]
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.12g}"))
    axis.set_minor_locator(NullLocator())
    axis.set_minor_formatter(NullFormatter())
    return "logit"


def readable_number(value: float) -> str:
    """A number for a figure's text: plain between 10⁻⁴ and 10⁵ (``0.001``, ``100``), beyond that ``10⁻⁶`` or
    ``2.5×10⁻⁶`` (:func:`dpsemantics.book.render.scientific`, as in the book's prose and tables)."""
    if value == 0 or not math.isfinite(value) or 1e-4 <= abs(value) < 1e5:
        return f"{value:.6g}"
    return scientific(value, 3)


#: The book's body text is 16 px; a figure's text, as the page shows the figure, is at least 80 % of it.
BODY_TEXT_PX = 16.0
MIN_TEXT_FRACTION = 0.8
#: The text column's width in pixels at 1280 px (see :data:`COLUMN_WIDTH`).
COLUMN_PX = 672


def smallest_legible_points(fig) -> float:
    """The smallest font size, in points, whose text ``fig`` shows at 80 % of the body text or more once the
    page has scaled it to the column (a figure wider than the column in pixels is shrunk, its text with it)."""
    shown = min(1.0, COLUMN_PX / (fig.get_figwidth() * fig.dpi))
    return MIN_TEXT_FRACTION * BODY_TEXT_PX / (fig.dpi * shown) * 72


def _legible_texts(fig) -> None:
    """Every text of ``fig`` (legends, labels, ticks, annotations) raised to :func:`smallest_legible_points`."""
    from matplotlib.text import Text

    floor = smallest_legible_points(fig)
    for text in fig.findobj(Text):
        if text.get_text() and text.get_fontsize() < floor:
            text.set_fontsize(floor)
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_tick_params(which="both", labelsize=max(floor, axis.get_ticklabels()[0].get_fontsize()
                                                               if axis.get_ticklabels() else floor))


def _readable_text(text: str) -> str:
    parts = re.split(r"(\$[^$]*\$)", text)  # mathtext is left alone
    return "".join(p if p.startswith("$") else exponents(p, readable_number) for p in parts)


def _readable_texts(fig) -> None:
    """Titles, axis labels, legend entries and annotations with numbers written by :func:`readable_number`."""
    from matplotlib.text import Text

    for text in fig.findobj(Text):  # tick labels too, harmlessly: their formatters rewrite them at drawing
        if text.get_text():
            text.set_text(_readable_text(text.get_text()))


def _data_points(ax) -> np.ndarray:
    """Display coordinates of what ``ax`` draws as data: points along every line (its segments sampled, so a
    straight line between two far points counts), markers and scatter points, bars and filled areas."""
    import numpy as np
    from matplotlib.patches import Rectangle

    chunks = []
    for line in ax.get_lines():
        if not line.get_visible():
            continue
        xy = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
        xy = xy[np.isfinite(xy).all(axis=1)]
        if len(xy) > 1 and line.get_linestyle() not in ("None", "none", " ", ""):
            t = np.linspace(0, 1, 24)[:, None, None]
            xy = (xy[:-1] + t * (xy[1:] - xy[:-1])).reshape(-1, 2)
        chunks.append(xy)
    for coll in ax.collections:
        for path in coll.get_paths():
            chunks.append(coll.get_transform().transform(path.vertices))
        offsets = coll.get_offsets()
        if len(offsets):
            chunks.append(coll.get_offset_transform().transform(offsets))
    for patch in ax.patches:
        if isinstance(patch, Rectangle) and patch.get_visible():
            box = patch.get_window_extent()
            xs, ys = np.linspace(box.x0, box.x1, 12), np.linspace(box.y0, box.y1, 12)
            chunks.append(np.array([(x, y) for x in xs for y in ys]))
    chunks = [c for c in chunks if len(c)]
    return np.concatenate(chunks) if chunks else np.empty((0, 2))


def legend_covers_data(ax, legend=None) -> bool:
    """Whether ``ax``'s legend (or ``legend``) lies over anything ``ax`` draws as data (see :func:`finish`)."""
    legend = legend or ax.get_legend()
    if legend is None:
        return False
    fig = ax.figure
    fig.canvas.draw()  # the constrained layout and the legend's position are settled by drawing
    box = legend.get_window_extent().padded(2)
    xy = _data_points(ax)
    inside = (xy[:, 0] >= box.x0) & (xy[:, 0] <= box.x1) & (xy[:, 1] >= box.y0) & (xy[:, 1] <= box.y1)
    return bool(inside.any())


_CORNERS = ("upper left", "upper right", "lower right", "lower left", "upper center", "lower center",
            "center left", "center right")


def _clear_legends(fig) -> None:
    """Move each axes' legend that covers data to the first corner where it covers none, or below the axes."""
    from matplotlib.transforms import offset_copy

    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None or not legend_covers_data(ax):
            continue
        for loc in _CORNERS:
            legend.set_loc(loc)
            if not legend_covers_data(ax):
                break
        else:  # below the axes, under the tick labels and the axis label
            renderer = fig.canvas.get_renderer()
            depth = ax.get_window_extent(renderer).y0 - ax.xaxis.get_tightbbox(renderer).y0 + 4
            legend.set_loc("upper center")
            legend.set_bbox_to_anchor((0.5, 0.0), transform=offset_copy(ax.transAxes, fig, y=-depth, units="dots"))
            fig.canvas.draw()


def coinciding(series, *, rtol: float = 1e-9, atol: float = 1e-12) -> list[list[str]]:
    """The labels of ``series`` (label → values on one grid) grouped by numerical coincidence: two curves share
    a group when their values agree at every point (``numpy.allclose`` with ``rtol``, ``atol``), checked
    against every member of the group; groups and members in the order of ``series``."""
    import numpy as np

    groups: list[list[str]] = []
    for label, ys in series.items():
        ys = np.asarray(ys, dtype=float)
        for group in groups:
            if all(np.allclose(ys, np.asarray(series[other], dtype=float), rtol=rtol, atol=atol) for other in group):
                group.append(label)
                break
        else:
            groups.append([label])
    return groups


def plot_series(ax, x, series, *, reasons=None, rtol: float = 1e-9, start: int = 0, legend: dict | None = None):
    """Draw ``series`` (label → values at ``x``) on ``ax``, each curve with its own colour, dash pattern and
    marker (the house styles from index ``start``, in the order of ``series``), and a legend.

    Curves that :func:`coinciding` finds equal share one legend entry, "a = b = c (coincide)", showing all
    their styles; their markers are staggered along the curve so that each stays visible.  ``reasons`` maps
    a label to why its curve takes its value; a group whose members share a reason shows it in the entry
    ("… (coincide: reason)"), a single curve shows it in parentheses.  Returns the groups."""
    from matplotlib.legend_handler import HandlerTuple

    groups = coinciding(series, rtol=rtol)
    reasons = reasons or {}
    handles, texts = [], []
    for group in groups:
        lines = []
        for j, label in enumerate(group):
            k = start + list(series).index(label)  # a label's style follows its place in ``series``, not its group
            (line,) = ax.plot(x, series[label], color=PALETTE[k % len(PALETTE)],
                              linestyle=LINESTYLES[k % len(LINESTYLES)],
                              marker=MARKERS[k % len(MARKERS)], markevery=(j, len(group)), markersize=6.5,
                              markerfacecolor="white", markeredgewidth=1.4, label="_" + label)
            lines.append(line)
        why = {reasons.get(label) for label in group}
        why = why.pop() if len(why) == 1 else None
        if len(group) == 1:
            texts.append(group[0] + (f" ({why})" if why else ""))
            handles.append(lines[0])
        else:
            texts.append(" = ".join(group) + (f" (coincide: {why})" if why else " (coincide)"))
            handles.append(tuple(lines))
    ax.legend(handles, texts, handler_map={tuple: HandlerTuple(ndivide=None, pad=0.6)}, handlelength=2.2 + 1.4 * max(
        len(g) - 1 for g in groups), **(legend or {}))
    return groups


#: Two greys closer than this (on 0…1) read as one grey in print.
GREY_TOLERANCE = 0.12


def grey_level(color) -> float:
    """The grey (0 black … 1 white) a greyscale print gives ``color``: its luma (ITU-R BT.601, the weights
    printers and Pillow's ``convert("L")`` use), over white where it is transparent."""
    from matplotlib.colors import to_rgba

    r, g, b, a = to_rgba(color)
    luma = 0.299 * r + 0.587 * g + 0.114 * b
    return a * luma + (1 - a)


def _first_color(colors):
    import numpy as np

    colors = np.asarray(colors, dtype=float).reshape(-1, 4)
    return tuple(colors[0]) if len(colors) else (0, 0, 0, 0)


def greyscale_style(artist):
    """What a greyscale print shows of a legend entry's artist: its grey, its dash pattern (``None`` for no
    line), its marker (``None`` for none) and its line width; a tuple of these for a tuple of artists (an entry
    that shows several, :func:`plot_series`'s coinciding curves)."""
    import numpy as np
    from matplotlib.collections import Collection
    from matplotlib.colors import to_rgba
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if isinstance(artist, tuple):
        return tuple(greyscale_style(a) for a in artist)
    if isinstance(artist, Line2D):
        style = artist.get_linestyle()
        dash = None if style in ("None", "none", "", " ") else (
            tuple(np.round(np.asarray(artist._unscaled_dash_pattern[1] or (), dtype=float), 2)) or "solid")
        marker = artist.get_marker()
        marker = None if marker in ("None", "none", "", " ", None) else str(marker)
        color = artist.get_color() if dash is not None or marker is None else (
            artist.get_markeredgecolor() if artist.get_markerfacecolor() in ("none", "white", "w") else
            artist.get_markerfacecolor())
        color = to_rgba(color, alpha=artist.get_alpha())
        return (round(grey_level(color), 3), dash, marker, round(float(artist.get_linewidth()), 1) if dash else None)
    if isinstance(artist, Collection):  # a scatter: its markers' shape and fill
        paths = artist.get_paths()
        shape = (tuple(np.round(paths[0].vertices, 2).ravel()) if len(paths) else None)
        face = _first_color(artist.get_facecolor())
        edge = _first_color(artist.get_edgecolor())
        color = face if face[3] > 0 else edge
        return (round(grey_level(color), 3), None, hash(shape), None)
    if isinstance(artist, Patch):
        return (round(grey_level(artist.get_facecolor()), 3), artist.get_hatch() or None, "patch", None)
    return None


def _same_in_grey(a, b) -> bool:
    if a is None or b is None:
        return False
    if isinstance(a[0], tuple) or isinstance(b[0], tuple):  # entries of several artists: alike if all parts are
        a = a if isinstance(a[0], tuple) else (a,)
        b = b if isinstance(b[0], tuple) else (b,)
        return len(a) == len(b) and all(_same_in_grey(x, y) for x, y in zip(a, b))
    grey_a, dash_a, marker_a, width_a = a
    grey_b, dash_b, marker_b, width_b = b
    widths_alike = width_a is None or width_b is None or max(width_a, width_b) < 1.6 * min(width_a, width_b)
    return abs(grey_a - grey_b) < GREY_TOLERANCE and dash_a == dash_b and marker_a == marker_b and widths_alike


def _legend_entries(legend):
    """``(text, artist)`` of each entry of ``legend``: the artist the legend draws as its key, which carries the
    plotted artist's style (for a tuple entry, :func:`plot_series`'s coinciding curves, the first of them)."""
    handles = getattr(legend, "legend_handles", None) or getattr(legend, "legendHandles", [])
    texts = [t.get_text() for t in legend.get_texts()]
    return list(zip(texts, handles))


def greyscale_clashes(fig) -> list[str]:
    """The legend entries of ``fig`` (each axes' legend and the figure's own) that a greyscale print shows
    alike: two entries whose artists have greys within :data:`GREY_TOLERANCE` and the same dash pattern,
    marker and (within a factor 1.6) line width.  A reader matches a curve to its entry by what the print
    shows, so such a pair cannot be told apart.  Each clash reads ``"a" and "b" (in the panel titled …)``."""
    legends = [(ax.get_title() or f"panel {i + 1}", ax.get_legend()) for i, ax in enumerate(fig.axes)]
    legends += [("figure legend", legend) for legend in fig.legends]
    clashes = []
    for where, legend in legends:
        if legend is None:
            continue
        entries = _legend_entries(legend)
        styles = [(text, greyscale_style(artist)) for text, artist in entries]
        for i in range(len(styles)):
            for j in range(i + 1, len(styles)):
                if _same_in_grey(styles[i][1], styles[j][1]):
                    clashes.append(f"{styles[i][0]!r} and {styles[j][0]!r} (in {where!r})")
    return clashes
