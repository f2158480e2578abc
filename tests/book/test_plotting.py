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


def test_a_log_axis_has_one_tick_format():
    """Issue 25: a log axis from 10⁻⁵ to 1 showed "0.0001" beside "10⁻⁵"; an axis reaching below 10⁻³ is labelled
    in powers of ten throughout, one within 10⁻³…10⁴ in plain numbers throughout."""
    import numpy as np

    from dpsemantics.book import plotting

    for (low, high), powers in [((1e-5, 1.0), True), ((1e-2, 100.0), False), ((1.0, 1e6), True)]:
        fig, ax = plotting.new_figure()
        x = np.logspace(np.log10(low), np.log10(high), 50)
        ax.plot(x, x)
        ax.set_xscale("log")
        ax.set_xlim(low, high)
        plotting.finish(fig, "test-log-axis")
        fig.canvas.draw()
        labels = [t.get_text() for t in ax.xaxis.get_ticklabels() if t.get_text()]
        assert labels
        in_powers = ["10^" in t for t in labels]
        assert all(in_powers) if powers else not any(in_powers), labels
        plotting.plt.close(fig)


def test_finish_raises_small_figure_text_to_80_percent_of_the_body():
    """A legend set at 6 pt (8 px on the page, against 16 px text) is raised so that every text of the figure is
    at least 12.8 px as the page shows it."""
    from matplotlib.text import Text

    from dpsemantics.book import plotting

    fig, ax = plotting.new_figure()
    ax.plot([0, 1], [0, 1], label="a curve")
    ax.legend(fontsize=6)
    ax.set_xlabel("x", fontsize=5)
    plotting.finish(fig, "test-small-text")
    shown = min(1.0, plotting.COLUMN_PX / (fig.get_figwidth() * fig.dpi))
    for text in fig.findobj(Text):
        if text.get_text():
            assert text.get_fontsize() / 72 * fig.dpi * shown >= 0.8 * 16 - 1e-9, (text.get_text(), text.get_fontsize())
    plotting.plt.close(fig)


def test_neighbour_figures_tell_the_datasets_apart_without_colour():
    """Chapter 1's small multiple: each count panel draws D and D′ with different dashes and markers (greyscale-safe),
    and the privacy-loss figure shows the geometric count's loss at exactly ±ε."""
    from dpsemantics.book import neighbour_figures

    fig, axes = neighbour_figures.neighbour_outputs(10, 1.0, 3.0)
    for ax in axes[1:]:
        a, b = ax.get_lines()[:2]
        assert a.get_linestyle() != b.get_linestyle() and a.get_marker() != b.get_marker()
    plotting.finish(fig, "fig-test")
    fig, ax = neighbour_figures.privacy_losses(10, 0.7, 3.0)
    geometric = ax.get_lines()[0].get_ydata()
    assert np.allclose(np.abs(geometric), 0.7)
    plotting.finish(fig, "fig-test")


def _two_curves(first: dict, second: dict):
    fig, ax = plotting.new_figure()
    x = np.linspace(0, 1, 30)
    ax.plot(x, x, label="first", **first)
    ax.plot(x, x**2, label="second", **second)
    ax.legend()
    return fig


def test_orange_and_sky_blue_print_as_one_grey():
    """Issue 39's Figs 2.5 and 2.7: the palette's orange and sky blue are one grey in print, so a greyscale
    check must compare greys, not colours."""
    orange, sky = plotting.PALETTE[1], plotting.PALETTE[2]
    assert abs(plotting.grey_level(orange) - plotting.grey_level(sky)) < plotting.GREY_TOLERANCE
    assert abs(plotting.grey_level("#000000") - plotting.grey_level(orange)) > plotting.GREY_TOLERANCE


def test_series_alike_in_greyscale_are_refused():
    """Orange and sky blue with the same dash and no marker (the issue's defect) are found, and finish refuses the
    figure; a different dash, a different marker or a different grey tells them apart."""
    orange, sky = plotting.PALETTE[1], plotting.PALETTE[2]
    fig = _two_curves(dict(color=orange, linestyle="-"), dict(color=sky, linestyle="-"))
    assert plotting.greyscale_clashes(fig) == ["'first' and 'second' (in 'panel 1')"]
    with pytest.raises(ValueError, match="greyscale"):
        plotting.finish(fig, "fig-test")
    for second in (dict(color=sky, linestyle="--"), dict(color=sky, linestyle="-", marker="o"),
                   dict(color="black", linestyle="-"), dict(color=sky, linestyle="-", linewidth=4)):
        fig = _two_curves(dict(color=orange, linestyle="-"), second)
        assert plotting.greyscale_clashes(fig) == [], second
        plotting.finish(fig, "fig-test")
    plotting.plt.close("all")


def test_custom_dash_patterns_count_as_different():
    """Two dash patterns given as tuples both read back as "--" from Matplotlib: the check compares the patterns."""
    sky = plotting.PALETTE[2]
    first, other = dict(color=sky, linestyle=plotting.LINESTYLES[4]), dict(color=sky, linestyle=plotting.LINESTYLES[7])
    fig = _two_curves(first, other)
    assert plotting.greyscale_clashes(fig) == []
    fig = _two_curves(first, dict(first))
    assert len(plotting.greyscale_clashes(fig)) == 1
    plotting.plt.close("all")


def test_scatter_series_alike_in_greyscale_are_found():
    fig, ax = plotting.new_figure()
    ax.scatter([0, 1], [0, 1], color=plotting.PALETTE[1], label="a")
    ax.scatter([0, 1], [1, 0], color=plotting.PALETTE[2], label="b")
    ax.legend()
    assert len(plotting.greyscale_clashes(fig)) == 1
    ax.scatter([0, 1], [0.5, 0.5], color=plotting.PALETTE[2], marker="s", label="c")
    ax.legend()
    assert len(plotting.greyscale_clashes(fig)) == 1  # c's squares differ from a's and b's circles
    plotting.plt.close("all")


def test_house_style_cycle_and_plot_series_are_greyscale_distinct():
    """The default cycle (colour with dash) and plot_series (colour, dash and marker) never clash in grey."""
    fig, ax = plotting.new_figure()
    x = np.linspace(0, 1, 30)
    for k in range(7):
        ax.plot(x, x + k, label=f"curve {k}")
    ax.legend()
    assert plotting.greyscale_clashes(fig) == []
    fig, ax = plotting.new_figure()
    plotting.plot_series(ax, x, {f"s{k}": x * (k + 1) for k in range(8)})
    assert plotting.greyscale_clashes(fig) == []
    plotting.plt.close("all")


def test_svg_output_is_byte_identical_from_run_to_run(tmp_path):
    """The book shows figures as SVG; written with the house style's fixed hash salt and without a date, the same
    figure gives the same bytes twice (tests/book/test_rerun.py relies on it), and a different figure does not."""
    def svg(level, path):
        fig, ax = plotting.new_figure()
        ax.plot([0, 1], [0, level], label="a")
        ax.legend()
        plotting.finish(fig, "fig-test")
        fig.savefig(path, format="svg", metadata=plotting.SVG_METADATA)
        plotting.plt.close(fig)
        return path.read_bytes()

    first, second, other = svg(1, tmp_path / "a.svg"), svg(1, tmp_path / "b.svg"), svg(2, tmp_path / "c.svg")
    assert first == second and first != other
    assert b"<dc:date>" not in first
    assert plotting.mpl.rcParams["svg.hashsalt"]


def test_svg_is_sized_in_pixels_at_the_figure_dpi():
    """A 6.4 in figure at 110 dpi shows 704 px wide, as its PNG did; the drawing's coordinates are untouched."""
    import io

    fig, ax = plotting.new_figure()
    ax.plot([0, 1], [0, 1])
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata=plotting.SVG_METADATA)
    svg = plotting._svg_in_pixels(buffer.getvalue(), fig.dpi)
    root = svg[svg.index("<svg"):].split(">", 1)[0]
    assert 'width="704.0px"' in root and "pt\"" not in root, root
    assert "viewBox" in root and svg.replace(root, "") == buffer.getvalue().replace(
        buffer.getvalue()[buffer.getvalue().index("<svg"):].split(">", 1)[0], "")
    plotting.plt.close(fig)


def test_a_probability_axis_turns_logit_when_the_values_crowd_near_one():
    """Bounds at 0.93 … 0.99999 are one line along the top of a 0…1 axis: the axis turns logit, its ticks
    0.9, 0.99, … apart and its range the data's; values that spread over 0…1 keep a linear 0…1 axis."""
    plotting.use_house_style()
    fig, ax = plotting.new_figure()
    values = [0.5, 0.935, 0.9807, 0.99999]
    ax.plot(range(4), values)
    assert plotting.probability_axis(ax.yaxis, values) == "logit"
    assert ax.get_yscale() == "logit"
    low, high = ax.get_ylim()
    assert 0.3 < low < 0.5 and 0.99999 < high < 1
    ticks = list(ax.yaxis.get_major_locator()())
    assert [round(t, 6) for t in ticks] == [0.5, 0.9, 0.99, 0.999, 0.9999, 0.99999]
    assert ax.yaxis.get_major_formatter()(0.999, 0) == "0.999"
    fig2, bx = plotting.new_figure()
    assert plotting.probability_axis(bx.yaxis, [0.1, 0.6, 0.95]) == "linear"
    assert bx.get_yscale() == "linear" and bx.get_ylim() == (0, 1.02)
    for bad in ([], [None], [1.5]):
        with pytest.raises(ValueError, match="values"):
            plotting.probability_axis(bx.yaxis, bad)
    import matplotlib.pyplot as plt

    plt.close(fig)
    plt.close(fig2)
