"""The match as a picture: player 0's match-winning chance (money: equity) decision by decision, errors marked.

Drawn with matplotlib (a dependency of the package) on the Agg backend,
so no display is needed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gammon.errors import GammonError

if TYPE_CHECKING:  # pragma: no cover
    from gammon.analysis.match import MatchAnalysis

__all__ = ["PlotError", "plot_match"]

_STYLE = {"doubtful": ("o", 30), "bad": ("s", 45), "very bad": ("X", 80)}
_COLOURS = ("tab:blue", "tab:red")


class PlotError(GammonError):
    """A plot that cannot be drawn or written; the message names the file."""


def plot_match(analysis: MatchAnalysis, path: str | Path) -> Path:
    """Draw ``analysis`` to ``path`` (PNG, or any format matplotlib knows by the suffix); returns the path."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError(f"cannot draw {str(path)!r}: matplotlib is not installed (pip install matplotlib)") from None
    path = Path(path)
    decisions = [d for d in analysis.decisions if d.mwc is not None]
    match = bool(analysis.match_length)
    scale = 100.0 if match else 1.0
    xs = list(range(1, len(decisions) + 1))
    ys = [d.mwc * scale for d in decisions]
    fig, ax = plt.subplots(figsize=(11, 4.5))
    ax.plot(xs, ys, color="black", linewidth=1.0)
    if match:
        ax.axhline(50.0, color="grey", linewidth=0.5)
        ax.set_ylim(0, 100)
    for i, d in enumerate(decisions):
        if i and d.game != decisions[i - 1].game:
            ax.axvline(i + 0.5, color="grey", linestyle=":", linewidth=0.8)
    for player in (0, 1):
        for mark, (marker, size) in _STYLE.items():
            pts = [(x, y) for x, y, d in zip(xs, ys, decisions) if d.player == player and d.mark == mark]
            if pts:
                ax.scatter(*zip(*pts), marker=marker, s=size, color=_COLOURS[player],
                           label=f"{analysis.names[player]}: {mark}", zorder=3)
    ax.set_xlabel("decision (dotted lines: new game)")
    ax.set_ylabel(f"{analysis.names[0]}'s match-winning chance (%)" if match else f"{analysis.names[0]}'s equity (points)")
    kind = f"{analysis.match_length}-point match" if match else "money session"
    ax.set_title(f"{analysis.names[0]} vs {analysis.names[1]}, {kind}, {analysis.plies}-ply analysis")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100)
    except (OSError, ValueError) as exc:
        raise PlotError(f"cannot write {str(path)!r}: {getattr(exc, 'strerror', None) or exc}") from None
    finally:
        plt.close(fig)
    return path
