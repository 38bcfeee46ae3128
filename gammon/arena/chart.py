"""A round robin as a picture: the ratings with their 95% intervals, and the points-per-game table as a heat map.

Drawn with matplotlib's object interface (no pyplot), so no display is needed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gammon.arena.stats import RoundRobin

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

#: The relative luminance at which black and white text contrast equally with a background (WCAG 2).
EVEN_CONTRAST = 0.179


def luminance(rgb: tuple[float, ...]) -> float:
    """The relative luminance (WCAG 2) of an sRGB colour with channels in 0..1 (alpha ignored).

    >>> luminance((1, 1, 1)), luminance((0, 0, 0))
    (1.0, 0.0)
    """
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(float(c)) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def label_colour(background: tuple[float, ...]) -> str:
    """The text colour that contrasts more with ``background``: black on light cells, white on dark ones.

    >>> label_colour((0.97, 0.97, 0.97)), label_colour((0.02, 0.19, 0.38))
    ('black', 'white')
    """
    return "black" if luminance(background) > EVEN_CONTRAST else "white"


def ratings_figure(table: RoundRobin) -> Figure:
    """The figure :func:`draw_ratings` saves: ratings with 95% error bars (left), points per game (right)."""
    import matplotlib
    import numpy as np
    from matplotlib.figure import Figure  # no pyplot: nothing global, no display

    names = list(table.bots)
    errors = table.rating_errors()
    ratings = [table.ratings[n] for n in names]
    widths = [errors[n] for n in names]
    ppg = table.ppg_table()
    fig = Figure(figsize=(12, 5.2), layout="constrained")
    first = table.results[0]
    fig.suptitle(f"Round robin: {len(names)} bots, {first.games} duplicate-dice {first.format} per pair "
                 f"(seed {first.seed})", fontsize=14, fontweight="bold")
    left, right = fig.subplots(1, 2, width_ratios=(1, 1.15))

    left.errorbar(ratings, range(len(names)), xerr=widths, fmt="o", color="tab:blue", ecolor="tab:blue",
                  elinewidth=2, capsize=5, markersize=7)
    left.set_yticks(range(len(names)), names)
    left.set_ylim(len(names) - 0.5, -0.5)  # the first bot at the top, as in the table
    lo = min(r - w for r, w in zip(ratings, widths))
    hi = max(r + w for r, w in zip(ratings, widths))
    left.set_xlim(lo - 0.08 * (hi - lo + 1), hi + 0.25 * (hi - lo + 1))
    for y, (r, w) in enumerate(zip(ratings, widths)):
        left.annotate(f"{r:.0f} \u00b1 {w:.0f}", (r + w, y), xytext=(6, 0), textcoords="offset points", va="center")
    left.axvline(1500, color="grey", linewidth=0.8, linestyle=":")
    left.grid(axis="x", alpha=0.3)
    left.set_xlabel("Elo-style rating (mean 1500)")
    left.set_title("Ratings, with 95% confidence intervals", fontsize=12)

    grid = np.ma.masked_invalid([[np.nan if v is None else v for v in row] for row in ppg])
    scale = max(0.5, float(np.ma.max(np.ma.abs(grid))) if grid.count() else 0.5)
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="0.85")
    image = right.imshow(grid, cmap=cmap, vmin=-scale, vmax=scale)
    right.set_xticks(range(len(names)), names, rotation=45, ha="right")
    right.set_yticks(range(len(names)), names)
    for i, row in enumerate(ppg):
        for j, v in enumerate(row):
            if v is not None:
                right.text(j, i, f"{v:+.2f}", ha="center", va="center", fontsize=10,
                           color=label_colour(image.cmap(image.norm(v))))
    right.set_title("Points per game, row against column", fontsize=12)
    fig.colorbar(image, ax=right, shrink=0.85, label="points per game")
    return fig


def draw_ratings(table: RoundRobin, path: str | Path) -> Path:
    """Draw :func:`ratings_figure` to ``path`` (PNG, or any format matplotlib knows by the suffix)."""
    path = Path(path)
    ratings_figure(table).savefig(path, dpi=100)
    return path
