"""The ratings' 95% intervals, and the round-robin chart: error bars drawn, labels that contrast with their cells,
titles inside the picture."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

from gammon.arena import Result, RoundRobin, Z95, elo_errors, elo_ratings
from gammon.arena.chart import draw_ratings, label_colour, luminance, ratings_figure
from gammon.arena.pairing import ArenaRecord
from gammon.arena.stats import ELO, win_count_variance


def result(a, b, win_rate, games=100, records=()):
    return Result(a, b, games, games // 2, 9, "cubeless money games", 0.0, (0.0, 0.0), win_rate, 0, 0, 0, 0, 0, 1.0, 1,
                  records=tuple(records))


def records(pairs: list[tuple[int, int]]) -> list[ArenaRecord]:
    """A's points in each game of each duplicate pair."""
    return [ArenaRecord(k, swapped, points, 50) for k, pair in enumerate(pairs) for swapped, points in zip((0, 1), pair)]


def test_without_duplicate_records_the_intervals_are_the_binomial_fisher_errors():
    # Given two bots, 76 wins in 100 games (and the fit's virtual draw), then each rating's error against the mean
    # is half the gap's: 1 / (2 sqrt(n p (1 - p))) in log-strength.
    r = result("x", "y", 0.76)
    errors = elo_errors(["x", "y"], [r], elo_ratings(["x", "y"], [r]))
    p = 76.5 / 101
    h, v = 101 * p * (1 - p), 100 * p * (1 - p)
    assert errors["x"] == errors["y"] == pytest.approx(Z95 * ELO * math.sqrt(v) / (2 * h))


def test_intervals_shrink_when_luck_cancels_within_duplicate_pairs():
    # Given the same 50% win rate, pairs that split (each bot wins its seat's game) carry less doubt than pairs
    # won or lost twice, and four times the games halve the interval.
    split = result("x", "y", 0.5, records=records([(1, -1)] * 40 + [(1, 1), (-1, -1)] * 5))
    twice = result("x", "y", 0.5, records=records([(1, 1), (-1, -1)] * 25))
    assert win_count_variance(split) < win_count_variance(twice)
    assert win_count_variance(twice) == pytest.approx(100 * 100 * (50 * 0.25 / 50) / 51, rel=1e-9)

    def error(r):
        return elo_errors(["x", "y"], [r], elo_ratings(["x", "y"], [r]))["x"]

    assert error(split) < error(twice)
    quadruple = result("x", "y", 0.5, games=400, records=records([(1, 1), (-1, -1)] * 100))
    assert error(quadruple) == pytest.approx(error(twice) / 2, rel=0.03)


def test_a_clean_sweep_has_a_finite_nonzero_interval():
    sweep = result("x", "y", 1.0, records=records([(2, 1)] * 50))
    errors = elo_errors(["x", "y"], [sweep], elo_ratings(["x", "y"], [sweep]))
    assert 0 < errors["x"] < math.inf


def test_labels_are_black_on_light_cells_and_white_on_dark_ones():
    assert label_colour((1.0, 1.0, 1.0, 1.0)) == "black"
    assert label_colour((0.0, 0.0, 0.0, 1.0)) == "white"
    assert label_colour((0.02, 0.19, 0.38)) == "white"  # RdBu's darkest blue
    assert label_colour((0.97, 0.97, 0.97)) == "black"  # RdBu's middle


def contrast(text_colour: str, background) -> float:
    """The WCAG contrast ratio of black or white text on ``background``."""
    lt, lb = (1.0 if text_colour == "white" else 0.0), luminance(background)
    return (max(lt, lb) + 0.05) / (min(lt, lb) + 0.05)


def table() -> RoundRobin:
    names = ("level3", "level2", "random")
    results = (result("level3", "level2", 0.6, records=records([(1, -1)] * 30 + [(1, 1)] * 10 + [(-1, -1)] * 10)),
               result("level3", "random", 0.95, records=records([(2, 1)] * 45 + [(1, -1)] * 5)),
               result("level2", "random", 0.9, records=records([(1, 3)] * 40 + [(1, -1)] * 10)))
    results = tuple(replace(r, ppg=sum(x.points for x in r.records) / r.games) for r in results)
    return RoundRobin(names, results, elo_ratings(names, results))


def test_the_chart_draws_each_rating_with_its_95_percent_error_bar():
    rr = table()
    fig = ratings_figure(rr)
    left = fig.axes[0]
    [bars] = left.containers
    assert bars.has_xerr and not bars.has_yerr
    points, _, (lines,) = bars
    xs, ys = points.get_data()
    errors = rr.rating_errors()
    assert list(xs) == pytest.approx([rr.ratings[n] for n in rr.bots])
    spans = [(seg[1][0] - seg[0][0]) / 2 for seg in lines.get_segments()]
    assert spans == pytest.approx([errors[n] for n in rr.bots])
    assert all(e > 0 for e in errors.values())
    assert [t.get_text() for t in left.get_yticklabels()] == list(rr.bots)


def test_every_cell_label_contrasts_with_its_cell():
    rr = table()
    fig = ratings_figure(rr)
    heat = fig.axes[1]
    [image] = heat.get_images()
    ppg = rr.ppg_table()
    labels = heat.texts
    assert len(labels) == 6
    colours = set()
    for label in labels:
        j, i = (round(c) for c in label.get_position())
        cell = image.cmap(image.norm(ppg[i][j]))
        assert label.get_text() == f"{ppg[i][j]:+.2f}"
        assert label.get_color() == label_colour(cell)
        assert contrast(label.get_color(), cell) >= 4.5  # WCAG AA for normal text
        colours.add(label.get_color())
    assert colours == {"black", "white"}


def test_the_titles_are_inside_the_picture_and_big_enough(tmp_path):
    rr = table()
    fig = ratings_figure(rr)
    canvas = FigureCanvasAgg(fig)  # as savefig draws it: the layout runs, then every text has its place
    canvas.draw()
    renderer = canvas.get_renderer()
    box = fig.bbox
    title = fig.get_suptitle()
    assert title.startswith("Round robin: 3 bots, 100 duplicate-dice cubeless money games per pair")
    [suptitle] = fig.findobj(lambda a: isinstance(a, Text) and a.get_text() == title)
    texts = [suptitle] + [ax.title for ax in fig.axes[:2]]
    for text in texts:
        extent = text.get_window_extent(renderer)
        assert text.get_text() and text.get_fontsize() >= 12
        assert box.x0 <= extent.x0 and extent.x1 <= box.x1 and box.y0 <= extent.y0 and extent.y1 <= box.y1
    path = draw_ratings(rr, tmp_path / "ratings.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
