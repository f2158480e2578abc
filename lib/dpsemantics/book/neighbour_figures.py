"""Chapter 1's pictures of the four basic mechanisms on two neighbouring datasets of the survey.

The survey (the book's running example): a clinic counts the "yes" answers of its respondents. The dataset D has
``count`` of them with Ada answering no; its neighbour D′ is the same with Ada answering yes (``count + 1``).

* :func:`neighbour_outputs` draws, in four panels, each mechanism's output distribution on D and on D′: randomized
  response (Ada's own answer, flipped with probability 1/(1 + e^ε)), the two-sided geometric count, the Laplace
  mechanism and the Gaussian mechanism.
* :func:`privacy_losses` draws the privacy loss log(P[output | D′] / P[output | D]) of the three counts against the
  output, with the band ±ε.

The two datasets are told apart by colour, line style and marker (or hatching), so the figures read in greyscale.
Every probability comes from :mod:`dpsemantics.mechanisms`.
"""

from __future__ import annotations

import numpy as np
from matplotlib.legend_handler import HandlerTuple
from matplotlib.ticker import MaxNLocator

from .. import mechanisms as mech
from . import plotting

__all__ = ["neighbour_outputs", "privacy_losses", "LABELS"]

#: The legend's names of the two datasets.
LABELS = ("D: Ada answers no", "D′: Ada answers yes")


def _style(j: int) -> dict:
    return {"color": plotting.PALETTE[4 * j], "linestyle": plotting.LINESTYLES[j], "marker": plotting.MARKERS[j],
            "markerfacecolor": "white", "markeredgewidth": 1.3, "markersize": 5}


def _count_outputs(count: int, eps: float, sigma: float, span: int):
    """Outputs around the two counts and each count mechanism's probabilities (masses or densities) on D and D′."""
    k = np.arange(count - span, count + span + 2)
    y = np.linspace(count - span, count + span + 1, 401)
    rows = {
        "geometric": (k, [mech.two_sided_geometric_pmf(k - c, eps) for c in (count, count + 1)]),
        "Laplace": (y, [mech.laplace_density(y - c, eps) for c in (count, count + 1)]),
        "Gaussian": (y, [mech.gaussian_density(y - c, sigma) for c in (count, count + 1)]),
    }
    return rows


def neighbour_outputs(count: int, eps: float, sigma: float, *, span: int = 6):
    """Four panels: randomized response, geometric, Laplace and Gaussian outputs on D (Ada no) and D′ (Ada yes).

    ``eps`` is the ε of the first three mechanisms, ``sigma`` the Gaussian noise's standard deviation (sensitivity
    1).  Returns ``(fig, axes)``; the caller ends the cell with :func:`dpsemantics.book.plotting.finish`."""
    fig, axes = plotting.new_figure(ncols=2, nrows=2, height=5.0)
    axes = axes.ravel()
    bars = []
    keep = float(mech.randomized_response(eps).row(1)[1])  # Pr[report yes | Ada yes]
    for j, truth in enumerate((0, 1)):
        probs = np.array([keep, 1 - keep]) if truth == 0 else np.array([1 - keep, keep])
        bars.append(axes[0].bar(np.arange(2) + (j - 0.5) * 0.38, probs, width=0.36, color="white" if j == 0 else
                                plotting.PALETTE[4], edgecolor=plotting.PALETTE[4 * j],
                                hatch="///" if j == 0 else None, linewidth=1.2))
    axes[0].set(xticks=[0, 1], xticklabels=["reports no", "reports yes"], ylim=(0, 1), ylabel="probability",
                title="randomized response")
    rows = _count_outputs(count, eps, sigma, span)
    lines = [[], []]
    for ax, (name, (x, pair)) in zip(axes[1:], rows.items()):
        for j, values in enumerate(pair):
            style = _style(j)
            if name == "geometric":
                (line,) = ax.plot(x, values, linewidth=1.0, **style)
            else:
                (line,) = ax.plot(x, values, markevery=(40 + 20 * j, 80), **style)
            lines[j].append(line)
        title = f"Gaussian count, σ = {sigma:.2f}" if name == "Gaussian" else f"{name} count"
        ax.set(title=title, xlabel="published count", ylabel="probability" if name == "geometric" else "density")
        ax.set_ylim(bottom=0)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        for c in (count, count + 1):
            ax.axvline(c, color="grey", linewidth=0.6, linestyle=(0, (1, 3)))
    fig.legend([(bars[j][0], lines[j][0]) for j in (0, 1)], LABELS, loc="outside lower center", ncols=2,
               handler_map={tuple: HandlerTuple(ndivide=None, pad=0.8)}, handlelength=4.0)
    return fig, axes


def privacy_losses(count: int, eps: float, sigma: float, *, span: int = 24):
    """The privacy loss log(P[y | D′] / P[y | D]) of the geometric, Laplace and Gaussian counts against the output
    y, with the band ±ε.  Returns ``(fig, ax)``."""
    fig, ax = plotting.new_figure(height=3.4)
    for j, (name, (x, (on_d, on_d_prime))) in enumerate(_count_outputs(count, eps, sigma, span).items()):
        with np.errstate(divide="ignore"):
            loss = np.log(on_d_prime) - np.log(on_d)
        style = {"color": plotting.PALETTE[j + 1], "linestyle": plotting.LINESTYLES[j], "marker": plotting.MARKERS[j],
                 "markerfacecolor": "white", "markeredgewidth": 1.3, "markersize": 5}
        if name == "geometric":
            ax.plot(x, loss, linestyle="none", **{k: v for k, v in style.items() if k != "linestyle"}, label=name)
        else:
            ax.plot(x, loss, markevery=(30 + 25 * j, 100), label=name, **style)
    for level, text in ((-eps, "−ε"), (eps, "+ε")):
        ax.axhline(level, color="grey", linewidth=0.9, linestyle=(0, (4, 2)))
        ax.annotate(text, (1.0, level), xycoords=("axes fraction", "data"), xytext=(3, 0),
                    textcoords="offset points", va="center", color="grey")
    ax.set(xlabel="published count", ylabel="privacy loss of the output",
           ylim=(-2.6 * eps, 2.6 * eps))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(loc="upper left")
    return fig, ax
