"""dpsemantics.book.plotting: the house style's checks and repairs."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from dpsemantics.book import plotting


def test_finish_refuses_a_figure_wider_than_the_column():
    fig, _ = plotting.new_figure(width=plotting.COLUMN_WIDTH + 1)
    with pytest.raises(ValueError, match="wider than the text column"):
        plotting.finish(fig, "fig-test")


def test_new_figure_fits_the_column_whatever_the_panels():
    for ncols in (1, 2, 4):
        fig, _ = plotting.new_figure(ncols=ncols)
        assert fig.get_figwidth() <= plotting.COLUMN_WIDTH


def test_a_legend_over_a_curve_is_detected_and_moved():
    fig, ax = plotting.new_figure()
    x = np.linspace(0, 1, 50)
    ax.plot(x, np.full_like(x, 0.9), label="a line across the top")
    ax.plot(x, x, label="the diagonal")
    ax.legend(loc="upper left")
    assert plotting.legend_covers_data(ax)
    plotting.finish(fig, "fig-test")
    assert not plotting.legend_covers_data(ax)


def test_a_legend_with_no_free_corner_goes_below_the_axes():
    fig, ax = plotting.new_figure()
    x = np.linspace(0, 1, 50)
    for level in np.linspace(0, 1, 12):
        ax.plot(x, np.full_like(x, level), label=f"level {level:.2f}" if level < 0.2 else None)
    ax.legend()
    plotting.finish(fig, "fig-test")
    assert not plotting.legend_covers_data(ax)
    assert ax.get_legend().get_window_extent().y1 < ax.get_window_extent().y0


@pytest.mark.parametrize("value, text", [(1e-6, "10⁻⁶"), (2.5e-6, "2.5×10⁻⁶"), (1e6, "10⁶"), (100.0, "100"),
                                         (0.001, "0.001"), (3e-5, "3×10⁻⁵")])
def test_readable_number(value, text):
    assert plotting.readable_number(value) == text


def test_finish_rewrites_exponent_notation_in_legends_and_titles():
    fig, ax = plotting.new_figure()
    ax.plot([0, 1], [0, 1], label=f"δ = {1e-6:g}")
    ax.set_title(f"n = {1e4:.0e}, $10^{{-6}}$ kept")
    ax.legend()
    plotting.finish(fig, "fig-test")
    assert ax.get_legend().get_texts()[0].get_text() == "δ = 10⁻⁶"
    assert ax.get_title() == "n = 10000, $10^{-6}$ kept"
