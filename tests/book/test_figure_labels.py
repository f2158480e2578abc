"""One symbol per quantity across the book's figures (issue 39), as book/notation.md writes it.

Fig 2.1's axis said "semantic-privacy ε (SD)" where Fig 2.2 said ε̄ for the same quantity.  The figures' words
are collected twice: from the notebooks' figure cells (the strings given to ``set_xlabel``, ``label=`` …, read
with :mod:`ast`; runs without a build), and from the built book, where :func:`dpsemantics.book.plotting.finish`
left every figure's titles, axis labels, legend entries and annotations in its SVG
(:func:`dpsemantics.book.alt_text.labels`).  Both must use the book's symbols."""

from __future__ import annotations

import ast
import json
import re

import pytest

from conftest import ROOT
from dpsemantics.book import alt_text, chapter_notebooks

BAR = r"(?:ε̄|\\bar\s*\\varepsilon|\\bar\{\\varepsilon\})"
#: quantity → (the book's way, a pattern that finds another way).  Mathtext draws ``'`` as a prime, so a prime
#: typed as an apostrophe is a fault only outside ``$…$``.
FIGURE_SYMBOLS = {
    "the semantic-privacy parameter (ε̄, notation.md)": (
        "semantic-privacy parameter ε̄",
        re.compile(rf"semantic[- ]privacy (?:parameter|level|ε|\$\\varepsilon)(?!(?:[^;]*){BAR})|{BAR}\$?\s*\(SD\)")),
    "the ε of differential privacy (ε of DP)": (
        "ε of DP", re.compile(r"differential[- ]privacy (?:ε|\$\\varepsilon\$)")),
    "a derived parameter (ε′, δ′: a prime, not an apostrophe)": (
        "ε′, δ′", re.compile(r"[εδρσ]'")),
    "a probability (Pr[…])": ("Pr[…]", re.compile(r"(?<![\w\\])P\[")),
}


def symbol_faults(text: str) -> list[str]:
    """The quantities ``text`` (a figure's label) writes otherwise than the book."""
    primed = re.sub(r"\$[^$]*\$", lambda m: m.group().replace("'", "′"), text)  # mathtext draws ' as ′
    return [f"{quantity}: {text!r} (write {right})" for quantity, (right, wrong) in FIGURE_SYMBOLS.items()
            if wrong.search(primed)]


@pytest.mark.parametrize("text", [r"semantic-privacy $\bar\varepsilon$ (SD)", "semantic-privacy level that guarantees",
                                  "(Bayesian) semantic-privacy parameter", r"differential privacy $\varepsilon$",
                                  "reality-oblivious δ' when", "P[X > t]", r"$P[X_i > t]$"])
def test_symbol_faults_catch(text):
    assert symbol_faults(text)


@pytest.mark.parametrize("text", [r"semantic-privacy parameter $\bar\varepsilon$", "semantic-privacy parameter ε̄",
                                  r"semantic-privacy parameter $\bar\varepsilon$ that guarantees ε-DP",
                                  r"$\varepsilon$ of DP", r"semantic $\delta'$ at $\varepsilon'$", r"$\Pr[X_i > t]$",
                                  "prior probability b = $P_\\mu[x_i]$", "ε′, n = 100", "Pr[Byron inherits]"])
def test_symbol_faults_pass(text):
    assert not symbol_faults(text)


_LABEL_CALLS = {"set_xlabel", "set_ylabel", "set_title", "suptitle", "annotate", "text", "legend"}
_LABEL_KEYWORDS = {"xlabel", "ylabel", "title", "label"}


def _strings(node) -> list[str]:
    """The text of a string or f-string literal (a formatted field as ``{}``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)]
    return []


def figure_cell_labels(source: str) -> list[str]:
    """The strings a figure cell gives Matplotlib as words: arguments of ``set_xlabel``/``set_title``/…, and
    ``xlabel=``/``ylabel=``/``title=``/``label=`` keywords."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in _LABEL_CALLS:
            for arg in node.args:
                found += _strings(arg)
        found += [s for kw in node.keywords if kw.arg in _LABEL_KEYWORDS for s in _strings(kw.value)]
    return found


def test_figure_cell_labels_reads_calls_and_keywords():
    source = 'ax.set(xlabel=r"$\\varepsilon$ of DP", ylabel="y")\nax.plot(x, y, label=f"ε = {e:g}")\n' \
             'ax.set_title("t")\nax.legend()\n'
    assert figure_cell_labels(source) == [r"$\varepsilon$ of DP", "y", "ε = {}", "t"]


def _figure_cells():
    for path in chapter_notebooks():
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code" and "figure" in cell.get("metadata", {}).get("mystnb", {}):
                yield path.stem, cell


def test_figure_labels_in_the_notebooks_use_the_book_symbols():
    """Every label a figure cell writes uses the book's symbol for its quantity."""
    faults, seen = [], 0
    for chapter, cell in _figure_cells():
        for text in figure_cell_labels("".join(cell["source"])):
            seen += 1
            faults += [f"{chapter} {cell['id']}: {f}" for f in symbol_faults(text)]
    assert seen > 50, f"only {seen} labels found in the figure cells: is the reader of calls broken?"
    assert not faults, "figure labels with another symbol:\n" + "\n".join(faults)


def test_built_figures_labels_use_the_book_symbols(strict_build):
    """The words each figure showed when :func:`finish` ended it (kept in its SVG) use the book's symbols; every
    figure of the built book carries them."""
    assert strict_build.returncode == 0, "the strict build failed; see test_strict_build_succeeds"
    faults, figures = [], 0
    for svg in sorted((ROOT / "_build" / "html" / "_images").glob("*.svg")):
        found = alt_text.from_svg(svg.read_text(encoding="utf-8"))
        if found is None:
            continue
        figures += 1
        faults += [f"{svg.name}: {f}" for text in found[2] for f in symbol_faults(text)]
    assert figures >= 30, f"only {figures} figures in the built book carry their labels"
    assert not faults, "figure labels with another symbol:\n" + "\n".join(faults)
