"""Alt text read from a figure: what a reader who cannot see the figure is told, built from what it draws.

:func:`describe` writes, for a finished Matplotlib figure, each panel's position and title, its axes' labels and
the range of the data along them, and every series: its name (the legend entry whose key has its colour, dash
and marker), where it starts and ends, its peak and trough, the points it marks, where it crosses a horizontal
reference line; reference lines, scattered points, bands and bars by their values; for a diagram (boxes joined
by arrows), its boxes and its arrows with their labels.  Every number is written by
:func:`dpsemantics.book.render.number` to three significant digits, the book's rule for values a reader reads
off a figure, and every number comes from the drawn data: :func:`drawn_values` collects all that the figure
draws (the coordinates of its lines, points, bars and bands, the numbers in its texts, its series' sizes) and
:func:`unfounded_numbers` names the numbers of a text that no drawn value rounds to.
:func:`dpsemantics.book.plotting.finish` refuses a figure whose description has one.

The text reaches the page inside the figure's SVG (:func:`embed`: a ``<desc>`` holding the description, a
``<metadata>`` holding the drawn values and one holding the figure's words, :func:`labels`, for the book's
one-symbol-per-quantity check), where the book's Sphinx extension reads it (:func:`from_svg`) into the
image's ``alt`` attribute, after the author's one sentence of intent (the cell's ``mystnb.image.alt``, which may
hold no digit), so that the alt text changes with the data and cannot drift from it.
"""

from __future__ import annotations

import html
import math
import re

import numpy as np

from .render import number

__all__ = ["describe", "drawn_values", "numbers_in", "unfounded_numbers", "labels", "embed", "from_svg",
           "plain_text", "DIGITS", "ALT_ID", "DATA_ID", "LABELS_ID"]

#: Significant digits of every number in a description.
DIGITS = 3
#: The ids of the two elements :func:`embed` adds to an SVG.
ALT_ID = "dpsemantics-alt"
DATA_ID = "dpsemantics-data"
LABELS_ID = "dpsemantics-labels"
#: At most this many points of a series are listed one by one; longer series are described by their shape.
FEW_POINTS = 6
#: At most this many boxes, arrows or texts of one panel are listed.
MOST_LISTED = 40

_TEX = {r"\varepsilon": "ε", r"\epsilon": "ε", r"\delta": "δ", r"\rho": "ρ", r"\sigma": "σ", r"\alpha": "α",
        r"\beta": "β", r"\mu": "μ", r"\lambda": "λ", r"\infty": "∞", r"\cdot": "·", r"\times": "×", r"\leq": "≤",
        r"\le": "≤", r"\geq": "≥", r"\ge": "≥", r"\log": "log", r"\ln": "ln", r"\exp": "exp", r"\sqrt": "√",
        r"\pm": "±", r"\to": "→", r"\ldots": "…", r"\dots": "…", r"\emptyset": "∅", r"\,": " ", r"\;": " ",
        r"\!": "", r"\ ": " ", r"\Pr": "Pr", r"\max": "max", r"\min": "min", r"\prime": "′", r"\mid": "|"}
_ACCENTS = {"bar": "\u0304", "tilde": "\u0303", "hat": "\u0302"}
_SUBSCRIPTS = str.maketrans("0123456789aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")


def _over(top: str, bottom: str) -> str:
    """``\\frac{a}{b}`` as ``a/b``, a numerator or denominator of more than one character in parentheses."""
    top, bottom = top.strip("{}").strip(), bottom.strip("{}").strip()
    wrap = (lambda p: p if len(p) == 1 or re.fullmatch(r"\w+", p) else f"({p})")
    return f"{wrap(top)}/{wrap(bottom)}"


def plain_text(text: str) -> str:
    """A figure's text as a screen reader should get it: mathtext (``$\\varepsilon_0$``) as Unicode (``ε_0``),
    braces dropped, an exponent in parentheses when it is longer than one character (``e^(2ε)``), lines joined."""
    def math_part(m):
        t = m.group(1).replace("'", "′")  # mathtext draws ' as a prime
        t = re.sub(r"\\(bar|tilde|hat)\s*(?:\{\s*(\\?[A-Za-z]+)\s*\}|(\\[A-Za-z]+|[A-Za-z]))",
                   lambda a: _TEX.get(a.group(2) or a.group(3), (a.group(2) or a.group(3)).lstrip("\\"))
                   + _ACCENTS[a.group(1)], t)
        t = re.sub(r"\\sqrt\s*\{([^{}]*)\}", lambda r: "√" + (r.group(1) if len(r.group(1)) == 1 else
                                                                 f"({r.group(1)})"), t)
        t = re.sub(r"(?<=[\w)])\\(log|ln|exp|tanh|artanh|sin|cos)(?![A-Za-z])", r" \\\1", t)  # 2\log 3: 2 log 3
        for tex, uni in sorted(_TEX.items(), key=lambda kv: -len(kv[0])):
            t = re.sub(re.escape(tex) + r"(?![A-Za-z])", lambda _m, u=uni: u, t)
        t = re.sub(r"\\(?:mathrm|mathit|mathbf|text|operatorname)\{([^{}]*)\}", r"\1", t)
        t = re.sub(r"\^\{([^{}])\}", r"^\1", t)
        t = re.sub(r"\^\{([^{}]{2,})\}", r"^(\1)", t)
        t = re.sub(r"\\[dt]?frac\s*(\{[^{}]*\}|\w)\s*(\{[^{}]*\}|\w)", lambda f: _over(f.group(1), f.group(2)), t)
        t = re.sub(r"_\{?([0-9aehijklmnoprstuvx]+)\}?", lambda i: i.group(1).translate(_SUBSCRIPTS), t)
        t = t.replace("{", "").replace("}", "")
        return t.replace("\\", "")

    text = re.sub(r"\$([^$]*)\$", math_part, text)
    text = re.sub(r"(?<=\S-)\s*\n\s*", "", text)  # a word broken after its hyphen: "(ε, δ)-" / "probabilistic"
    return re.sub(r"\s*\n\s*", " ", text).strip()


# ---------------------------------------------------------------------------------------------------------
# Numbers in a text, and the drawn values they must round from

_SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
_NUMBER = re.compile(r"(?<![\w.⁰¹²³⁴⁵⁶⁷⁸⁹₀-₉])(?P<sign>[-−]?)(?:"
                     r"(?P<mantissa>\d+(?:\.\d+)?)×10(?P<exp>[⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"
                     r"|10(?P<pow>[⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"
                     r"|(?P<plain>\d{1,3}(?:[ \u202f]\d{3})+(?!\d|\.\d)|\d+(?:\.\d+)?(?:e[-+]?\d+)?))"
                     r"(?P<percent>%?)")


def numbers_in(text: str) -> list[tuple[str, float, float]]:
    """Every number written in ``text`` as ``(as written, value, half a unit of its last digit)``: plain
    (``0.149``, ``−2``, ``12 345``), scientific (``2.5×10⁻⁶``, ``10⁻⁶``, ``1e-06``) or a percentage (``95%``).
    Digits that are part of a word or a subscript (``ε₀``, ``D1``) are not numbers."""
    found = []
    for m in _NUMBER.finditer(text):
        sign = -1.0 if m.group("sign") else 1.0
        if m.group("mantissa"):
            mantissa, exp = m.group("mantissa"), int(m.group("exp").translate(_SUPERSCRIPTS))
            decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
            value, half = float(mantissa) * 10.0 ** exp, 0.5 * 10.0 ** (exp - decimals)
        elif m.group("pow"):
            exp = int(m.group("pow").translate(_SUPERSCRIPTS))
            value, half = 10.0 ** exp, 0.5 * 10.0 ** exp
        else:
            plain = re.sub(r"[ \u202f]", "", m.group("plain"))
            mantissa, _, exp = plain.partition("e")
            decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
            value = float(plain)
            half = 0.5 * 10.0 ** ((int(exp) if exp else 0) - decimals)
        if m.group("percent"):
            value, half = value / 100, half / 100
        found.append((m.group(0), sign * value, half))
    return found


def _figure_texts(fig) -> list[str]:
    """Every text ``fig`` shows except tick labels (titles, axis labels, legend entries, annotations, box and
    arrow labels), and the tick labels that name categories: fixed ones, and those under bars."""
    from matplotlib.text import Text
    from matplotlib.ticker import FixedFormatter

    fixed_ticks = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if isinstance(axis.get_major_formatter(), FixedFormatter) or (axis is ax.xaxis and ax.containers):
                fixed_ticks.update(id(t) for t in axis.get_ticklabels())
    ticks = {id(t) for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)
             for t in axis.get_ticklabels(which="both")} - fixed_ticks
    return [t.get_text() for t in fig.findobj(Text) if t.get_text() and id(t) not in ticks and t.get_visible()]


def drawn_values(fig) -> np.ndarray:
    """All that ``fig`` draws, as numbers: the data coordinates of its lines, scatter points, error bars, bands
    and bars (an edge, a centre and a height of each), the numbers in its texts (:func:`numbers_in`), how many
    points each series has; sorted, distinct."""
    from matplotlib.patches import Rectangle

    values: list = []
    for ax in fig.axes:
        for line in ax.get_lines():
            xy = np.asarray(line.get_xydata(), dtype=float).reshape(-1, 2)
            x_data, y_data = line.get_transform().contains_branch_seperately(ax.transData)
            values += [xy[:, 0].ravel()] if x_data else []
            values += [xy[:, 1].ravel()] if y_data else []
            values.append([len(xy)])
        for coll in ax.collections:
            offsets = np.asarray(coll.get_offsets(), dtype=float).reshape(-1, 2)
            if len(offsets):
                values += [offsets.ravel(), [len(offsets)]]
            paths = coll.get_paths()
            for path in paths:
                values.append(np.asarray(path.vertices, dtype=float).ravel())
            values.append([len(paths)])
        for patch in ax.patches:
            if isinstance(patch, Rectangle):
                x, y, w, h = patch.get_x(), patch.get_y(), patch.get_width(), patch.get_height()
                values.append([x, x + w, x + w / 2, y, y + h, h])
        values.append([len(ax.containers)] + [len(c) for c in ax.containers])
    for text in _figure_texts(fig):
        values.append([v for _, v, _ in numbers_in(text)])
    flat = np.concatenate([np.asarray(v, dtype=float).ravel() for v in values]) if values else np.empty(0)
    flat = flat[np.isfinite(flat)]
    return np.unique(flat)


def unfounded_numbers(text: str, values) -> list[str]:
    """The numbers written in ``text`` (:func:`numbers_in`) that no value of ``values`` rounds to (a value within
    half a unit of the number's last digit, or that :func:`dpsemantics.book.render.number` writes the same way);
    ``∞`` is not a number here.  Empty when every number of ``text`` comes from ``values``."""
    values = np.asarray(values, dtype=float)
    values = np.sort(values[np.isfinite(values)])
    missing = []
    for written, value, half in numbers_in(text):
        low, high = value - half * (1 + 1e-9), value + half * (1 + 1e-9)
        i = np.searchsorted(values, low)
        if i < len(values) and values[i] <= high:
            continue
        if math.isfinite(value) and value == 0 and len(values) and np.min(np.abs(values)) < 1e-12:
            continue
        missing.append(written)
    return missing


# ---------------------------------------------------------------------------------------------------------
# The description

def _n(value) -> str:
    return number(float(value), DIGITS).replace("-", "−")


def _point(x, y) -> str:
    return f"({_n(x)}, {_n(y)})"


def _dash_word(artist) -> str:
    """"solid", "dashed", "dotted" or "dash-dotted" from the artist's dash pattern; "" for no line."""
    style = artist.get_linestyle()
    if style in ("None", "none", "", " "):
        return ""
    pattern = getattr(artist, "_unscaled_dash_pattern", (0, None))[1]
    if not pattern:
        return "solid"
    if len(pattern) > 2:
        return "dash-dotted"
    return "dotted" if pattern[0] <= 1.5 else "dashed"


def _style_key(artist):
    """What a legend's key shares with the artist it stands for: colour, dash pattern, marker, hatch."""
    from matplotlib.colors import to_rgba
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if isinstance(artist, tuple):
        return _style_key(artist[0]) if artist else None
    if isinstance(artist, Line2D):
        marker = artist.get_marker()
        marker = None if marker in ("None", "none", "", " ", None) else str(marker)
        style = artist.get_linestyle()
        dash = None if style in ("None", "none", "", " ") else tuple(
            np.round(np.asarray(artist._unscaled_dash_pattern[1] or (), dtype=float), 2))
        colour = artist.get_color() if dash is not None else artist.get_markeredgecolor()
        return ("line", tuple(np.round(to_rgba(colour), 3)), dash, marker)
    if isinstance(artist, Patch):
        return ("patch", tuple(np.round(to_rgba(artist.get_facecolor()), 3)),
                tuple(np.round(to_rgba(artist.get_edgecolor()), 3)), artist.get_hatch() or None)
    try:  # a collection: its first colour
        from matplotlib.colors import to_rgba_array

        face = to_rgba_array(artist.get_facecolor())
        edge = to_rgba_array(artist.get_edgecolor())
        colour = face[0] if len(face) and face[0][3] > 0 else edge[0] if len(edge) else (0, 0, 0, 0)
        return ("collection", tuple(np.round(colour, 3)))
    except (AttributeError, ValueError):
        return None


def _legend_entries(legend) -> list[tuple[list, str]]:
    """``(keys drawn, text)`` of each entry of ``legend``: every artist of the entry's key (an entry for a tuple of
    artists draws one of each) with the text beside it."""
    from matplotlib.offsetbox import DrawingArea, TextArea

    entries = []

    def walk(box):
        children = box.get_children()
        if len(children) == 2 and isinstance(children[0], DrawingArea) and isinstance(children[1], TextArea):
            entries.append((children[0].get_children(), children[1].get_text()))
            return
        for child in children:
            if hasattr(child, "get_children") and not isinstance(child, (DrawingArea, TextArea)):
                walk(child)

    box = getattr(legend, "_legend_handle_box", None)
    if box is not None:
        walk(box)
    if not entries:  # a legend laid out some other way: its handles, one per entry
        handles = getattr(legend, "legend_handles", None) or []
        entries = [([h], t.get_text()) for h, t in zip(handles, legend.get_texts()) if h is not None]
    return entries


def _legend_names(fig, ax=None) -> list[tuple[object, str]]:
    """``(style key, entry text)`` for every artist in the key of every entry of ``ax``'s legend (when given) and
    of the figure's legends, in that order (a panel's own legend names its artists first)."""
    legends = ([ax.get_legend()] if ax is not None else []) + list(fig.legends)
    names = []
    for legend in legends:
        if legend is None:
            continue
        for artists, text in _legend_entries(legend):
            if text:
                names += [(_style_key(a), plain_text(text)) for a in artists]
    return names


def _name_of(artist, names) -> str | None:
    """The legend entry standing for ``artist``: its own label when a legend shows it, else the entry whose key
    has its style (a legend built from proxies or from tuples of artists)."""
    key = _style_key(artist)
    if key is None:
        return None
    for other, text in names:
        if other is not None and other[0] == key[0] and other[1:] == key[1:]:
            return text
    label = artist.get_label() if hasattr(artist, "get_label") else ""
    return plain_text(label) if label and not label.startswith("_") else None


def _position_names(fig) -> dict:
    """Each axes' place on the page ("left", "top right", …), from its grid position; "" for a single panel."""
    axes = [ax for ax in fig.axes if ax.get_visible()]
    if len(axes) <= 1:
        return {ax: "" for ax in axes}
    out = {}
    for ax in axes:
        spec = ax.get_subplotspec()
        if spec is None:
            out[ax] = ""
            continue
        nrows, ncols = spec.get_gridspec().get_geometry()
        row, col = spec.rowspan.start, spec.colspan.start
        rows = {1: [""], 2: ["top", "bottom"], 3: ["top", "middle", "bottom"]}.get(nrows)
        cols = {1: [""], 2: ["left", "right"], 3: ["left", "middle", "right"]}.get(ncols)
        if rows is None or cols is None:
            out[ax] = ""
        else:
            out[ax] = " ".join(w for w in (rows[row], cols[col]) if w)
    return out


def _axis_words(ax, which: str, values) -> str:
    label = plain_text((ax.get_xlabel if which == "x" else ax.get_ylabel)())
    scale = (ax.get_xscale if which == "x" else ax.get_yscale)()
    finite = np.asarray([v for v in values if np.isfinite(v)], dtype=float)
    words = f"{which} axis"
    words += f" {label}" if label else ""
    if len(finite) and not label and scale == "linear":
        return ""
    if len(finite):
        low, high = finite.min(), finite.max()
        words += f" from {_n(low)} to {_n(high)}" if _n(low) != _n(high) else f" at {_n(low)}"
    if scale != "linear" and scale not in label:
        words += f" ({scale} scale)"
    return words if words != f"{which} axis" else ""


def _shape(x, y) -> str:
    """A long series in words: where it starts and ends, rising or falling, its peak and trough inside."""
    words = []
    dy = np.diff(y)
    tol = 1e-9 * max(float(np.ptp(y)), float(np.max(np.abs(y))), 1e-300)
    if _n(y.min()) == _n(y.max()):
        return f"flat at {_n(y[0])} for x from {_n(x[0])} to {_n(x[-1])}"
    trend = "rising" if np.all(dy >= -tol) else "falling" if np.all(dy <= tol) else "from"
    words.append(f"{trend} {'from ' if trend != 'from' else ''}{_n(y[0])} at x = {_n(x[0])} to {_n(y[-1])} at x = "
                 f"{_n(x[-1])}")
    if trend == "from":
        top, bottom = int(np.argmax(y)), int(np.argmin(y))
        if 0 < top < len(y) - 1 and _n(y[top]) not in (_n(y[0]), _n(y[-1])):
            words.append(f"highest {_n(y[top])} at x = {_n(x[top])}")
        if 0 < bottom < len(y) - 1 and _n(y[bottom]) not in (_n(y[0]), _n(y[-1])):
            words.append(f"lowest {_n(y[bottom])} at x = {_n(x[bottom])}")
    return ", ".join(words)


def _crossings(x, y, levels) -> list[str]:
    """Where the series crosses each horizontal reference line: between two drawn points."""
    out = []
    for level in dict.fromkeys(levels):
        tol = 1e-9 * max(abs(level), float(np.max(np.abs(y))), 1e-300)
        side = np.where(np.abs(y - level) <= tol, 0, np.sign(y - level))
        apart = np.nonzero(side)[0]  # a curve that only touches the line does not cross it
        change = [(apart[k], apart[k + 1]) for k in range(len(apart) - 1) if side[apart[k]] != side[apart[k + 1]]]
        if 0 < len(change) <= 2:
            out += [f"crosses {_n(level)} between x = {_n(x[i])} and {_n(x[j])}" for i, j in change]
    return out


def _probes(x, y, ax, marks, said: str = "") -> str:
    """A curve's drawn point nearest to each vertical reference line, or, without any, to the middle of its x
    range (the geometric middle on a log axis): its shape between the ends."""
    log = ax.get_xscale() == "log" and x.min() > 0
    targets = list(dict.fromkeys(marks)) or [
        math.sqrt(x.min() * x.max()) if log else (x.min() + x.max()) / 2]
    out = []
    for t in targets:
        i = int(np.argmin(np.abs(np.log(x) - math.log(t)) if log and t > 0 else np.abs(x - t)))
        if 0 < i < len(x) - 1 and f"at x = {_n(x[i])}" not in said:  # not a point the words already give
            out.append(f"{_n(y[i])} at x = {_n(x[i])}")
    return ("through " + ", ".join(dict.fromkeys(out))) if out else ""


def _line_words(line, ax, names, levels, marks=()) -> tuple[str, str] | None:
    """``(kind, words)`` for one line: a reference line, a few points or a curve."""
    xy = np.asarray(line.get_xydata(), dtype=float).reshape(-1, 2)
    x_data, y_data = line.get_transform().contains_branch_seperately(ax.transData)
    name = _name_of(line, names)
    named = f"{name}: " if name else ""
    dash = _dash_word(line)
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    if not x_data and y_data and len(xy):
        if not y0 <= xy[0, 1] <= y1:
            return None  # outside the panel: not drawn
        return "reference", f"{named or dash + ' '}horizontal line at y = {_n(xy[0, 1])}".strip()
    if x_data and not y_data and len(xy):
        if not x0 <= xy[0, 0] <= x1:
            return None
        return "reference", f"{named or dash + ' '}vertical line at x = {_n(xy[0, 0])}".strip()
    finite = xy[np.isfinite(xy).all(axis=1)]
    shown = _in_view(ax, finite)
    cut = len(shown) < len(finite)
    finite = shown
    if not len(finite):
        return None
    x, y = finite[:, 0], finite[:, 1]
    if len(finite) == 2 and not name and (x[0] == x[1] or y[0] == y[1]):
        where = f"x = {_n(x[0])}" if x[0] == x[1] else f"y = {_n(y[0])}"
        return "reference", f"{dash} line at {where}".strip()
    if len(finite) == 2 and not name and dash:
        return "reference", f"{dash} line from {_point(x[0], y[0])} to {_point(x[1], y[1])}"
    if len(finite) <= FEW_POINTS or (dash == "" and len(finite) <= 2 * FEW_POINTS):
        points = ", ".join(_point(a, b) for a, b in zip(x, y))
        what = "point" if len(finite) == 1 else "points"
        return "series", f"{named}{what} {points}" + (" (the rest outside the plotted range)" if cut else "")
    increasing = np.all(np.diff(x) > 0) or np.all(np.diff(x) < 0)
    if not increasing:
        return "series", _cloud(named, finite)
    if x[0] > x[-1]:
        x, y = x[::-1], y[::-1]
    words = _shape(x, y)
    probe = _probes(x, y, ax, marks, said=words) if "flat at" not in words else ""
    crossings = _crossings(x, y, levels) if name else []
    tail = "; ".join(crossings)
    text = (f"{named}{'curve ' if not name else ''}{words}" + (f", {probe}" if probe else "")
            + (f"; {tail}" if tail else ""))
    if cut:
        text += " (leaving the plotted range)"
    elif len(finite) < len(xy):
        text += " (not drawn where infinite or undefined)"
    return "series", text


def _in_view(ax, xy):
    """The points of ``xy`` inside ``ax``'s view limits (what the panel shows)."""
    if ax.get_xscale() == "log":
        xy = xy[xy[:, 0] > 0]
    if ax.get_yscale() == "log":
        xy = xy[xy[:, 1] > 0]
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    pad_x, pad_y = 1e-9 * max(abs(x0), abs(x1), 1e-300), 1e-9 * max(abs(y0), abs(y1), 1e-300)
    inside = ((xy[:, 0] >= x0 - pad_x) & (xy[:, 0] <= x1 + pad_x) & (xy[:, 1] >= y0 - pad_y)
              & (xy[:, 1] <= y1 + pad_y))
    return xy[inside]


def _cloud(named: str, xy) -> str:
    """Many unconnected points: how many, and the box they fill."""
    return (f"{named}{len(xy)} points, x from {_n(xy[:, 0].min())} to {_n(xy[:, 0].max())}, y from "
            f"{_n(xy[:, 1].min())} to {_n(xy[:, 1].max())}")


def _collection_words(coll, ax, names) -> str | None:
    from matplotlib.collections import LineCollection, PathCollection, PolyCollection

    name = _name_of(coll, names)
    named = f"{name}: " if name else ""
    if isinstance(coll, PathCollection) and len(coll.get_offsets()):
        xy = np.asarray(coll.get_offsets(), dtype=float).reshape(-1, 2)
        xy = xy[np.isfinite(xy).all(axis=1)]
        if not len(xy):
            return None
        if len(xy) <= FEW_POINTS:
            return f"{named}{'point' if len(xy) == 1 else 'points'} " + ", ".join(_point(a, b) for a, b in xy)
        return _cloud(named, xy)
    vertices = [np.asarray(p.vertices, dtype=float) for p in coll.get_paths() if len(p.vertices)]
    if not vertices:
        return None
    allv = np.concatenate(vertices)
    allv = allv[np.isfinite(allv).all(axis=1)]
    if not len(allv):
        return None
    if isinstance(coll, LineCollection):
        what = f"{len(vertices)} line segments" if len(vertices) > 1 else "a line segment"
    elif isinstance(coll, PolyCollection):
        what = "a shaded band" if len(vertices) == 1 else f"{len(vertices)} shaded areas"
    else:
        what = "shapes"
    return (f"{named}{what}, x from {_n(allv[:, 0].min())} to {_n(allv[:, 0].max())}, y from "
            f"{_n(allv[:, 1].min())} to {_n(allv[:, 1].max())}")


def _category(ax, x: float) -> str | None:
    """The tick label nearest to ``x`` (a bar's category), when ``x`` is closer to it than to any other."""
    ticks = list(ax.get_xticks())
    labels = [t.get_text() for t in ax.get_xticklabels()]
    if len(ticks) < 2 or len(labels) != len(ticks):
        return None
    i = int(np.argmin([abs(t - x) for t in ticks]))
    spacing = min(abs(b - a) for a, b in zip(ticks, ticks[1:]))
    return (plain_text(labels[i]) or None) if abs(ticks[i] - x) < 0.5 * spacing else None


def _bar_words(container, ax, names) -> str | None:
    patches = [p for p in container.patches if p.get_visible()]
    if not patches:
        return None
    name = _name_of(patches[0], names) or (container.get_label() if not str(container.get_label()).startswith("_")
                                           else None)
    named = f"{plain_text(name)}: " if name else ""
    items = []
    for p in patches[:MOST_LISTED]:
        centre = p.get_x() + p.get_width() / 2
        where = _category(ax, centre)
        where = f"“{where}”" if where else f"x = {_n(centre)}"
        items.append(f"{_n(p.get_height())} at {where}")
    return f"{named}bars of height " + ", ".join(items)


def _diagram_words(ax, names) -> list[str]:
    """A diagram: its boxes (texts in a box) and its arrows, from box to box, each with its label: the text whose
    gid is the arrow's followed by ``-label``, else the nearest text (of the arrow's colour, where they have one)."""
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, PathPatch
    from matplotlib.text import Annotation

    texts = [t for t in ax.texts if t.get_text().strip() and not isinstance(t, Annotation)]
    boxes_patches = [p for p in ax.patches if isinstance(p, FancyBboxPatch)]

    def in_box(t):
        if t.get_bbox_patch() is not None and t.get_bbox_patch().get_edgecolor()[3] > 0:
            return True
        x, y = t.get_position()
        return any(p.get_x() <= x <= p.get_x() + p.get_width() and p.get_y() <= y <= p.get_y() + p.get_height()
                   for p in boxes_patches)

    nodes = [t for t in texts if in_box(t)]
    if not nodes:
        return []
    others = [t for t in texts if t not in nodes]
    node_xy = np.array([t.get_position() for t in nodes], dtype=float)

    def nearest(xy, among, where):
        d = np.hypot(*(where - np.asarray(xy, dtype=float)).T)
        return among[int(np.argmin(d))], float(np.min(d))

    to_data = ax.transData.inverted()

    def samples(patch):
        """Points along ``patch`` (on its curves, not at their control points), in data coordinates."""
        t = np.linspace(0, 1, 12)
        points = [np.atleast_2d(segment(t)) for segment, _ in patch.get_path().iter_bezier()]
        points = np.concatenate(points) if points else np.asarray(patch.get_path().vertices, dtype=float)
        return to_data.transform(patch.get_transform().transform(points))

    arrows = []  # (tail, head, patch, points along it, head at the tail, head at the head)
    for ann in ax.texts:
        if isinstance(ann, Annotation) and ann.arrow_patch is not None:
            style = type(ann.arrow_patch.get_arrowstyle()).__name__
            ends = (style.endswith(("A", "AB")), style.endswith("B"))
            arrows.append((ann.xyann, ann.xy, ann.arrow_patch, samples(ann.arrow_patch), *ends))
    bases = [np.asarray(p._posA_posB[0], dtype=float) for p in ax.patches
             if isinstance(p, FancyArrowPatch) and getattr(p, "_posA_posB", None)]
    for p in ax.patches:
        if isinstance(p, PathPatch) and not isinstance(p, FancyArrowPatch):
            v = np.asarray(p.get_path().vertices, dtype=float)
            if len(v) < 2:
                continue
            near = [any(np.allclose(base, end) for base in bases) for end in (v[0], v[-1])]  # a head drawn on
            arrows.append((tuple(v[0]), tuple(v[-1]), p, samples(p), *near))
    lines = ["boxes: " + "; ".join(f"“{plain_text(t.get_text())}”" for t in nodes[:MOST_LISTED])]
    scale = float(np.ptp(node_xy, axis=0).max()) if len(node_xy) > 1 else 1.0
    labels: dict[int, list[str]] = {}
    def colour(artist):
        from matplotlib.colors import to_rgb

        rgb = to_rgb(artist.get_color() if hasattr(artist, "get_text") else artist.get_edgecolor())
        return None if max(rgb) - min(rgb) < 0.05 else tuple(np.round(rgb, 2))  # black and greys: no colour

    def gap(t, k):
        """How far label ``t`` is from arrow ``k``; three times as far when both have colours and they differ."""
        pts, patch = arrows[k][3], arrows[k][2]
        d = float(np.min(np.hypot(*(pts - np.asarray(t.get_position(), dtype=float)).T)))
        return d * (3 if colour(t) != colour(patch) else 1)

    pairs = sorted((gap(t, k), j, k) for j, t in enumerate(others) for k in range(len(arrows)))
    placed = set()
    by_gid = {arrow[2].get_gid(): k for k, arrow in enumerate(arrows) if arrow[2].get_gid()}
    for j, t in enumerate(others):  # a label that names its arrow: its gid is the arrow's and "-label"
        k = by_gid.get((t.get_gid() or "").removesuffix("-label")) if (t.get_gid() or "").endswith("-label") else None
        if k is not None:
            labels.setdefault(k, []).append(plain_text(t.get_text()))
            placed.add(j)
    for rounds in range(2):  # each label to the nearest arrow without one, then the rest to the nearest arrow
        for gap, j, k in pairs:
            if j in placed or gap >= 0.25 * scale or (rounds == 0 and k in labels):
                continue
            labels.setdefault(k, []).append(plain_text(others[j].get_text()))
            placed.add(j)
    described = []
    for k, (tail, head, patch, _, at_tail, at_head) in enumerate(arrows[:MOST_LISTED]):
        a, _ = nearest(tail, nodes, node_xy)
        b, _ = nearest(head, nodes, node_xy)
        if a is b:
            continue
        first, second = f"“{plain_text(a.get_text())}”", f"“{plain_text(b.get_text())}”"
        if at_tail and at_head:
            words = f"between {first} and {second}, both ways"
        elif at_tail:
            words = f"from {second} to {first}"
        elif at_head:
            words = f"from {first} to {second}"
        else:
            words = f"a line between {first} and {second}"
        if k in labels:
            words += " labelled " + " and ".join(f"“{label}”" for label in labels[k])
        meaning = _arrow_name(patch, names)
        if meaning:
            words += f" ({meaning})"
        described.append(words)
    if described:
        lines.append("arrows " + "; ".join(described))
    return lines


def _arrow_name(patch, names) -> str | None:
    """The legend entry whose line has an arrow's colour (and dash, where colours repeat)."""
    from matplotlib.colors import to_rgba

    colour = tuple(np.round(to_rgba(patch.get_edgecolor()), 3))
    matches = list(dict.fromkeys(text for key, text in names if key is not None and key[0] == "line"
                                 and key[1] == colour and key[2] is not None))
    return matches[0] if len(matches) == 1 else None


def _reference_positions(ax) -> tuple[list[float], list[float]]:
    """The heights of ``ax``'s horizontal reference lines and the places of its vertical ones (an ``axhline`` or
    ``axvline``, or a two-point line drawn level or upright)."""
    levels, marks = [], []
    for line in ax.get_lines():
        xy = np.asarray(line.get_xydata(), dtype=float).reshape(-1, 2)
        if not len(xy):
            continue
        data = line.get_transform().contains_branch_seperately(ax.transData)
        for k, out in ((1, levels), (0, marks)):  # k: the coordinate the line fixes, y for a level, x for a mark
            if data[k] and (not data[1 - k] or (len(xy) == 2 and xy[0, k] == xy[1, k])):
                out.append(float(xy[0, k]))
    return levels, marks


def _merged(references: list[str]) -> str:
    """``["dotted line at x = 10", "dotted line at x = 11"]`` → ``"dotted lines at x = 10 and 11"``."""
    groups: dict[str, list[str]] = {}
    for ref in dict.fromkeys(references):
        head, sep, value = ref.rpartition(" = ")
        groups.setdefault(head if sep else ref, []).append(value if sep else "")
    out = []
    for head, values in groups.items():
        if len(values) == 1:
            out.append(f"{head} = {values[0]}" if values[0] else head)
        else:
            plural = re.sub(r"\bline at\b", "lines at", head)
            out.append(f"{plural} = {', '.join(values[:-1])} and {values[-1]}")
    return "; ".join(out)


def describe(fig) -> str:
    """The alt text of ``fig``, read from what it draws (see the module's docstring)."""
    from matplotlib.container import BarContainer, ErrorbarContainer

    places = _position_names(fig)
    panels = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        parts = []
        names = _legend_names(fig, ax)
        title = plain_text(ax.get_title())
        head = " ".join(w for w in (places.get(ax, "").capitalize() or "", "panel" if places.get(ax) else "") if w)
        if title:
            head = f"{head}, titled “{title}”" if head else f"“{title}”"
        diagram = not ax.axison
        if diagram:
            parts += _diagram_words(ax, names)
        else:
            xs, ys = [], []
            for line in ax.get_lines():
                xy = np.asarray(line.get_xydata(), dtype=float).reshape(-1, 2)
                x_data, y_data = line.get_transform().contains_branch_seperately(ax.transData)
                xs += list(xy[:, 0]) if x_data and y_data else []
                ys += list(xy[:, 1]) if x_data and y_data else []
            for coll in ax.collections:
                off = np.asarray(coll.get_offsets(), dtype=float).reshape(-1, 2)
                for path in coll.get_paths():
                    v = np.asarray(path.vertices, dtype=float)
                    xs += list(v[:, 0])
                    ys += list(v[:, 1])
                xs += list(off[:, 0])
                ys += list(off[:, 1])
            shown = _in_view(ax, np.column_stack([xs, ys])) if xs else np.empty((0, 2))
            xs, ys = list(shown[:, 0]), list(shown[:, 1])
            for container in ax.containers:
                if isinstance(container, BarContainer):
                    ys += [p.get_height() for p in container.patches]
            parts.append(_axis_words(ax, "x", xs if not ax.containers else []))
            parts.append(_axis_words(ax, "y", ys))
            levels, marks = _reference_positions(ax)
            series, references = [], []
            seen = []
            caps = {id(cap) for c in ax.containers if isinstance(c, ErrorbarContainer) for cap in c[1]}
            for line in ax.get_lines():
                if not line.get_visible() or id(line) in caps:
                    continue
                words = _line_words(line, ax, names, levels, marks)
                if words is None:
                    continue
                kind, text = words
                ydata = np.asarray(line.get_ydata(), dtype=float)
                if kind == "series" and not _name_of(line, names) and any(
                        len(s) == len(ydata) and np.allclose(s, ydata, equal_nan=True) for s in seen):
                    continue  # an unnamed twin of a drawn series (staggered markers of coinciding curves)
                seen.append(ydata)
                (references if kind == "reference" else series).append(text)
            for coll in ax.collections:
                text = _collection_words(coll, ax, names)
                if text:
                    series.append(text)
            for container in ax.containers:
                if isinstance(container, BarContainer):
                    text = _bar_words(container, ax, names)
                    if text:
                        series.append(text)
            parts += list(dict.fromkeys(series))  # coinciding curves share their legend entry: said once
            if references:
                parts.append("reference lines: " + _merged(references))
            marks = [plain_text(t.get_text()) for t in ax.texts if t.get_text().strip()]
            if marks:
                parts.append("marked: " + "; ".join(f"“{m}”" for m in marks[:MOST_LISTED]))
        body = "; ".join(p for p in parts if p)
        panels.append(f"{head}: {body}." if head else f"{body[:1].upper()}{body[1:]}.")
    legends = [legend for legend in fig.legends if legend.get_texts()]
    for legend in legends:
        title = plain_text(legend.get_title().get_text()) if legend.get_title() else ""
        entries = "; ".join(plain_text(t.get_text()) for t in legend.get_texts())
        panels.append(f"Legend{f' “{title}”' if title else ''}: {entries}.")
    return " ".join(panels)


# ---------------------------------------------------------------------------------------------------------
# From the figure to the page

def labels(fig) -> list[str]:
    """The words ``fig`` shows about its quantities, as written: titles, axis labels, legend titles and entries,
    annotations (not tick labels).  :func:`dpsemantics.book.plotting.finish` keeps them in the SVG
    (:func:`embed`), so that the book's figures can be checked for one symbol per quantity."""
    return list(dict.fromkeys(t for t in _figure_texts(fig) if re.search(r"[^\W\d]", t)))


def embed(svg: str, alt: str, values, shown=()) -> str:
    """``svg`` with ``alt`` in a ``<desc id="dpsemantics-alt">``, ``values`` (the drawn values) in a
    ``<metadata id="dpsemantics-data">`` and the figure's texts ``shown`` (:func:`labels`) in a
    ``<metadata id="dpsemantics-labels">`` (JSON), right after the root element's opening tag."""
    import json

    head, _, rest = svg.partition("<svg")
    tag, _, body = rest.partition(">")
    data = " ".join(f"{v:.12g}" for v in np.asarray(values, dtype=float))
    texts = html.escape(json.dumps(list(shown), ensure_ascii=False), quote=False)
    return (f'{head}<svg{tag}>\n <desc id="{ALT_ID}">{html.escape(alt, quote=False)}</desc>\n'
            f' <metadata id="{DATA_ID}">{data}</metadata>\n <metadata id="{LABELS_ID}">{texts}</metadata>{body}')


def from_svg(svg: str) -> tuple[str, np.ndarray, list[str]] | None:
    """The description, the drawn values and the texts :func:`embed` put in ``svg``; ``None`` when it holds
    none."""
    import json

    alt = re.search(rf'<desc id="{ALT_ID}">(.*?)</desc>', svg, re.S)
    if alt is None:
        return None
    data = re.search(rf'<metadata id="{DATA_ID}">(.*?)</metadata>', svg, re.S)
    values = np.array([float(v) for v in data.group(1).split()]) if data else np.empty(0)
    texts = re.search(rf'<metadata id="{LABELS_ID}">(.*?)</metadata>', svg, re.S)
    shown = json.loads(html.unescape(texts.group(1))) if texts else []
    return html.unescape(alt.group(1)), values, shown
