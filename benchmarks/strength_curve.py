"""Draw a model's strength over games trained from `gammon eval --json` results.

Usage: ``python benchmarks/strength_curve.py OUT.png GAMES=RESULT.json [GAMES=RESULT.json ...] [--title T]``,
one argument per snapshot: the games it had trained, and the JSON `gammon eval SNAPSHOT OPPONENT --json`
wrote. Each point is the snapshot's points per game with its 95% interval (duplicate dice).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def read(points: list[str]) -> list[tuple[int, float, float, float, str, int, int]]:
    """``(games trained, ppg, low, high, opponent, games played, seed)`` per ``GAMES=FILE``, by games trained."""
    rows = []
    for item in points:
        games, _, path = item.partition("=")
        result = json.loads(Path(path).read_text())
        low, high = result["ci95"]
        rows.append((int(games), result["ppg"], low, high, result["b"], result["games"], result["seed"]))
    return sorted(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("points", nargs="+", metavar="GAMES=RESULT.json")
    parser.add_argument("--title", default="Strength over games trained")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read(args.points)
    x = [r[0] / 1e6 for r in rows]
    y = [r[1] for r in rows]
    err = [[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    ax.errorbar(x, y, yerr=err, fmt="o-", capsize=4, color="#1f4e9c")
    ax.axhline(0.0, color="#555555", linewidth=1, linestyle="--")
    ax.set_xlabel("games trained in this stage (millions)")
    ax.set_ylabel(f"points per game against {rows[0][4]}")
    ax.set_title(f"{args.title}\n{rows[0][5]} duplicate-dice games per point, seed {rows[0][6]}, 95% intervals", fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out)
    for r in rows:
        print(f"{r[0]:>9} games: {r[1]:+.3f} ({r[2]:+.3f} .. {r[3]:+.3f}) against {r[4]}")


if __name__ == "__main__":
    main()
