"""One house style for every figure of the book.

* :func:`use_house_style` sets Matplotlib's parameters (no preset style names: the look is ours and
  stays the same when Matplotlib's presets change).
* :data:`PALETTE` is the Okabe–Ito palette, distinguishable under the common forms of colour-blindness;
  :data:`LINESTYLES` adds a second cue so that curves never rely on colour alone.
* :func:`finish` is called at the end of every figure cell with the figure's book name (the ``name`` in
  the cell's ``mystnb.figure`` metadata).  It gives log axes plain tick labels (``0.01``, ``2``, ``50``;
  ``10⁻⁶`` only outside 10⁻⁴…10⁵), never Matplotlib's ``2×10⁰``.  When the environment variable ``DPSEMANTICS_FIGURE_DIR`` is set
  (``python -m dpsemantics.book.rerun`` sets it), the figure is also written there as PNG and SVG under that
  name, so a rerun with new parameters produces files named like the book's figures.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt

__all__ = ["PALETTE", "LINESTYLES", "use_house_style", "new_figure", "finish", "plain_log_ticks", "FIGURE_DIR_ENV"]

FIGURE_DIR_ENV = "DPSEMANTICS_FIGURE_DIR"

#: Okabe & Ito (2008) colour-blind-safe palette, black first.
PALETTE = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#F0E442"]
LINESTYLES = ["-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 1)), (0, (8, 2))]


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
        }
    )


def new_figure(ncols: int = 1, nrows: int = 1, *, width: float | None = None, height: float | None = None, **kwargs):
    """A figure with ``nrows × ncols`` axes in the house style (returns ``fig, axes``)."""
    use_house_style()
    w, h = mpl.rcParams["figure.figsize"]
    size = (width or w * (1 if ncols == 1 else 0.62 * ncols), height or h * (1 if nrows == 1 else 0.8 * nrows))
    return plt.subplots(nrows, ncols, figsize=size, **kwargs)


def finish(fig, name: str) -> None:
    """End a figure cell: save ``name``.png/.svg when ``$DPSEMANTICS_FIGURE_DIR`` is set.

    ``name`` must equal the figure's ``mystnb.figure.name`` in the notebook, so that a rerun writes files
    named like the book's figures.  The figure itself is displayed by the notebook as usual.
    """
    if not name or not isinstance(name, str):
        raise ValueError(f"name must be a non-empty string (got name={name!r})")
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if axis.get_scale() == "log":
                plain_log_ticks(axis)
    out = os.environ.get(FIGURE_DIR_ENV)
    if out:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        for ext in ("png", "svg"):
            fig.savefig(folder / f"{name}.{ext}")


def _plain_tick(value: float) -> str:
    if value <= 0 or not math.isfinite(value):
        return ""
    if 1e-4 <= value < 1e5:
        return f"{value:.6g}"
    exponent = round(math.log10(value))
    if math.isclose(value, 10.0 ** exponent, rel_tol=1e-9):
        return f"$10^{{{exponent}}}$"
    return f"{value:.0e}".replace("e-0", "e-").replace("e+0", "e").replace("e+", "e")


def plain_log_ticks(axis) -> None:
    """Plain tick labels on a log axis: powers of ten as ``0.01`` … ``1000`` (``10⁻⁶`` beyond), and, on an
    axis spanning less than about two decades, the minor ticks 2, 3 and 5 labelled too."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    low, high = sorted(axis.get_view_interval())
    decades = math.log10(high / low) if low > 0 else math.inf
    axis.set_major_locator(LogLocator(base=10))
    axis.set_major_formatter(FuncFormatter(lambda v, _: _plain_tick(v)))
    if decades < 2.2:
        axis.set_minor_locator(LogLocator(base=10, subs=(2.0, 3.0, 5.0)))
        axis.set_minor_formatter(FuncFormatter(lambda v, _: _plain_tick(v)))
    else:
        axis.set_minor_locator(LogLocator(base=10, subs=tuple(range(2, 10))))
        axis.set_minor_formatter(NullFormatter())
