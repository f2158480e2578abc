"""dpsemantics.book.alt_text: a figure's alt text is read from what it draws (issue 39).

A referee found Fig 1.1's typed-in alt text putting markers at 0.14 and 0.47 when the figure drew them at 0.149 and
0.532.  Here: the description follows the data when the data change; every number it writes rounds from a value
the test itself passed to Matplotlib; the check that guards :func:`finish` catches a typed-in number; the text
travels in the SVG to the page's ``alt``; and no notebook types a number into a figure's alt text."""

import json
import re

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from conftest import ROOT
from dpsemantics.book import alt_text, plotting
from dpsemantics.book.sphinx_extras import composed_alt


def _alt(fig) -> str:
    plotting.finish(fig, "fig-test")
    return getattr(fig, plotting.ALT_ATTRIBUTE)[0]


def _marked_figure(marks):
    fig, ax = plotting.new_figure()
    x = np.linspace(0, 1, 101)
    ax.plot(x, x ** 2, label="the curve")
    ax.plot(marks, np.square(marks), linestyle="none", marker="o", label="marked priors")
    ax.set(xlabel="prior", ylabel="posterior")
    ax.legend()
    return fig


def _numbers(text):
    return [value for _, value, _ in alt_text.numbers_in(text)]


def test_alt_text_follows_the_plotted_values():
    """The referee's case: markers at 0.149 and 0.532 are described there; move them and the text moves."""
    first = _alt(_marked_figure([0.149, 0.532]))
    second = _alt(_marked_figure([0.14, 0.47]))
    assert "(0.149, 0.0222)" in first and "(0.532, 0.283)" in first, first
    assert "(0.14, 0.0196)" in second and "(0.47, 0.221)" in second, second
    assert "0.149" not in second and "0.532" not in second
    assert "marked priors" in first and "X axis prior from 0 to 1" in first
    plotting.plt.close("all")


def _sample_figures(seed: int):
    """Figures of every kind the book draws, with the values the test put in (and the numbers of their texts)."""
    rng = np.random.default_rng(seed)
    out = []
    # curves, a reference line and an annotation
    fig, ax = plotting.new_figure()
    x = np.linspace(rng.uniform(0, 1), rng.uniform(2, 5), 60)
    a, b = rng.uniform(0.2, 3, size=2)
    ys = {"rising": a * x, "bump": np.exp(-(x - x.mean()) ** 2) * b}
    level = float(rng.uniform(0.1, 1))
    for label, y in ys.items():
        ax.plot(x, y, label=label)
    ax.axhline(level, linestyle=":")
    ax.annotate("ε = 0.5", (x[3], level))
    ax.legend()
    out.append((fig, [x, *ys.values(), [level, 0.5]]))
    # scatter, error bars, a band and bars in a grid of panels
    fig, axes = plotting.new_figure(ncols=2, nrows=2, height=5)
    pts = rng.uniform(0, 10, size=(20, 2))
    axes[0, 0].scatter(pts[:, 0], pts[:, 1], label="cases")
    axes[0, 0].legend()
    centre, err = rng.uniform(0.5, 1.5, 12), rng.uniform(0.05, 0.2, 12)
    axes[0, 1].errorbar(np.arange(12), centre, yerr=err, fmt="o", label="estimate")
    axes[0, 1].legend()
    band = np.linspace(0, 1, 30)
    axes[1, 0].fill_between(band, band - 0.1, band + 0.2, label="band")
    heights = rng.uniform(0.1, 1, 3)
    axes[1, 1].bar([0, 1, 2], heights)
    axes[1, 1].set(xticks=[0, 1, 2], xticklabels=["no", "yes", "maybe"])
    out.append((fig, [pts.ravel(), centre, centre - err, centre + err, np.arange(12), band, band - 0.1, band + 0.2,
                      heights, [20, 12]]))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_every_number_of_the_alt_text_rounds_from_a_value_put_in(seed):
    """Independent of the module's own reading of the figure: each number of the description is within half a
    unit of its last digit of a value this test passed to Matplotlib (or a number of a text it wrote)."""
    for fig, inputs in _sample_figures(seed):
        text = _alt(fig)
        values = np.unique(np.concatenate([np.asarray(v, dtype=float).ravel() for v in inputs]))
        for written, value, half in alt_text.numbers_in(text):
            assert np.any(np.abs(values - value) <= half * (1 + 1e-9)), f"{written} in: {text}"
        assert alt_text.unfounded_numbers(text, alt_text.drawn_values(fig)) == []
    plotting.plt.close("all")


def test_sample_figures_are_described_by_kind():
    (curves, _), (grid, _) = _sample_figures(0)
    text = _alt(curves)
    assert "Rising: rising from" in text and "bump: from" in text and "highest" in text
    assert "dotted horizontal line at y =" in text and "“ε = 0.5”" in text
    grid_text = _alt(grid)
    assert "Top left panel" in grid_text and "cases: 20 points" in grid_text and "estimate: points (0, " in grid_text
    assert "a shaded band" in grid_text and "at “maybe”" in grid_text
    plotting.plt.close("all")


def test_crossing_of_a_reference_line_is_between_two_drawn_points():
    fig, ax = plotting.new_figure()
    x = np.linspace(0, 1, 11)
    ax.plot(x, x, label="diagonal")
    ax.axhline(0.55, linestyle="--")
    ax.legend()
    assert "crosses 0.55 between x = 0.5 and 0.6" in _alt(fig)
    plotting.plt.close(fig)


@pytest.mark.parametrize("text, values, missing", [
    ("markers at 0.14 and 0.47", [0.149, 0.532], ["0.14", "0.47"]),
    ("markers at 0.149 and 0.532", [0.14912, 0.5318], []),
    ("δ = 2.5×10⁻⁶ and 10⁻⁶", [2.5e-6, 1e-6], []),
    ("δ = 2.5×10⁻⁶", [2.6e-6], ["2.5×10⁻⁶"]),
    ("n = 12 345, −0.5 and 95%", [12345, -0.5, 0.95], []),
    ("−0.5", [0.5], ["−0.5"]),
    ("ε₀ and D1 and Theorem 2.2", [2.2], []),
])
def test_unfounded_numbers(text, values, missing):
    assert alt_text.unfounded_numbers(text, values) == missing


def test_finish_refuses_a_description_with_a_number_not_drawn(monkeypatch):
    monkeypatch.setattr(alt_text, "describe", lambda fig: "Markers at 0.1234 and 0.4711 on a curve to 1.")
    with pytest.raises(ValueError, match=r"\(0\.1234, 0\.4711\)"):
        _alt(_marked_figure([0.149, 0.532]))
    plotting.plt.close("all")


def test_alt_text_travels_in_the_svg_to_the_page():
    """The SVG the page shows carries the description; the page's alt is the intent, then the description; an
    intent with a number is refused; an SVG drawn without finish carries none."""
    fig = _marked_figure([0.149, 0.532])
    plotting.finish(fig, "fig-test")
    description, values, shown = getattr(fig, plotting.ALT_ATTRIBUTE)
    svg = plotting.svg_for_page(fig)
    read, read_values, read_shown = alt_text.from_svg(svg)
    assert read == description and read_shown == shown == ["prior", "posterior", "the curve", "marked priors"]
    assert np.allclose(read_values, values, rtol=1e-11, atol=0)
    intent = "The posterior grows with the prior"
    assert composed_alt(intent, svg) == f"{intent}. {description}"
    with pytest.raises(ValueError, match="intent must hold no number"):
        composed_alt("Markers at 0.14", svg)
    bare, _ = plotting.new_figure()
    assert composed_alt("anything", plotting.svg_for_page(bare)) is None
    plotting.plt.close("all")


def test_plain_text_reads_mathtext():
    assert alt_text.plain_text(r"$(1-e^{-\varepsilon})^2/n$, ε = 0.1") == "(1-e^(-ε))^2/n, ε = 0.1"
    assert alt_text.plain_text(r"Laplace, $\varepsilon_0$=1") == "Laplace, ε₀=1"
    assert alt_text.plain_text(r"$\bar{\varepsilon}$") == "ε̄"
    assert alt_text.plain_text("two\nlines") == "two lines"


def test_no_notebook_types_a_number_into_a_figure_alt_text():
    """The alt text's numbers come from the figure; a cell's ``mystnb.image.alt`` is one sentence of intent."""
    typed = []
    for path in sorted((ROOT / "book").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            alt = cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt", "")
            if re.search(r"\d", alt):
                typed.append(f"{path.name} {cell.get('id')}: {alt}")
    assert not typed, "alt text with typed-in numbers:\n" + "\n".join(typed)


def test_sphinx_reads_the_svg_wherever_the_uri_points(tmp_path):
    """The handler finds the SVG by the image collector's candidates (relative to the source folder, as in the
    book, whose chapters sit in book/) or by myst-nb's uri (a leading / is the source folder)."""
    from types import SimpleNamespace

    from docutils import nodes

    from dpsemantics.book.sphinx_extras import figure_alt_text

    fig = _marked_figure([0.149, 0.532])
    plotting.finish(fig, "fig-test")
    (tmp_path / "_build").mkdir()
    (tmp_path / "_build" / "f.svg").write_text(plotting.svg_for_page(fig), encoding="utf-8")

    def relfn2path(uri, docname):
        rel = uri[1:] if uri.startswith("/") else str(tmp_path.joinpath(docname).parent / uri)
        return rel, str(tmp_path / rel)

    app = SimpleNamespace(srcdir=str(tmp_path), env=SimpleNamespace(docname="book/chapter", relfn2path=relfn2path))
    for image in (nodes.image(uri="_build/f.svg", alt="Intent", candidates={"*": "_build/f.svg"}),
                  nodes.image(uri="/_build/f.svg", alt="Intent")):
        doctree = nodes.document(None, None)
        doctree += image
        figure_alt_text(app, doctree)
        assert image["alt"].startswith("Intent. X axis prior") and "(0.532, 0.283)" in image["alt"], image["alt"]
    plotting.plt.close("all")
