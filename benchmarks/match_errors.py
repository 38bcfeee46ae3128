"""Where one bot loses to another in matches: GNU Backgammon's analysis of their checker plays and cube decisions.

    nice python benchmarks/match_errors.py [--players td gnubg] [--matches 16] [--length 7] [--plies 2] [--seed 10161]

Plays ``--matches`` matches between the two bots (each first in half of
them; match ``i`` with ``SeededDice(seed * 100 + i)``), writes each as
``.mat`` and has GNU Backgammon analyse it (``gnubg -t``: ``import mat``,
``analyse match`` at ``--plies`` for checker play and cube, then the
statistics of ``gnubg.match()``). Prints, per player, what its checker plays
and its cube decisions gave away over all the matches: GNU Backgammon's
error cost (match-winning chance) and error skill (normalised EMG), and the
unforced moves and close cube decisions they come from. It measures, it
never trains. The judge is GNU Backgammon, which favours its own net's
style where that plays.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

# Run as a script, this file's folder is on sys.path: GNU Backgammon's analysis session is analysis.py's.
from analysis import gnubg_analyse
from gammon.bots import load
from gammon.dice import SeededDice
from gammon.match import play_match
from gammon.matfile import save_mat


def play(players: tuple[str, str], matches: int, length: int, seed: int, folder: Path) -> list[Path]:
    """The matches, each saved as ``.mat`` in ``folder``; the players swap seats every other match."""
    paths = []
    for i in range(matches):
        names = players if i % 2 == 0 else players[::-1]
        record = play_match(*(load(name, seed=seed * 100 + i) for name in names), length,
                            SeededDice(seed * 100 + i), names=names)
        paths.append(save_mat(record, folder / f"match-{i:03d}.mat"))
    return paths


def analyse(paths: list[Path], plies: int, folder: Path) -> list[list[dict]]:
    """GNU Backgammon's statistics of each game of each match, by player name (``analysis.py``'s session)."""
    return [match["by_name"] for match in gnubg_analyse(paths, plies, folder, timeout=3600)]


def totals(analysed: list[list[dict]]) -> dict[str, dict[str, float]]:
    """Per player: unforced moves, close cube decisions, and the error cost and skill of each kind, summed."""
    out: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for match in analysed:
        for game in match:
            for name, stats in game.items():
                moves, cube, row = stats["moves"], stats["cube"], out[name]
                row["unforced moves"] += moves["unforced-moves"]
                row["checker cost"] += moves["error-cost"]
                row["checker skill"] += moves["error-skill"]
                row["close cube decisions"] += cube["close-cube"]
                row["cube cost"] += cube["error-cost"]
                row["cube skill"] += cube["error-skill"]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", nargs=2, default=["td", "gnubg"], metavar=("A", "B"))
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--length", type=int, default=7)
    parser.add_argument("--plies", type=int, default=2, help="GNU Backgammon's analysis depth (default 2)")
    parser.add_argument("--seed", type=int, default=10161)
    args = parser.parse_args()
    if args.players[0] == args.players[1]:
        parser.error("the two players need different names: GNU Backgammon's statistics are by name")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = totals(analyse(play(tuple(args.players), args.matches, args.length, args.seed, folder), args.plies, folder))
    print(f"{args.matches} {args.length}-point matches, seed {args.seed}, analysed by GNU Backgammon at {args.plies}-ply\n")
    print("| player | unforced moves | checker error cost (MWC) / skill (EMG) | close cube decisions | cube error cost (MWC) / skill (EMG) |")
    print("|---|---|---|---|---|")
    for name in args.players:
        r = rows[name]
        print(f"| {name} | {r['unforced moves']:.0f} | {r['checker cost']:.3f} / {r['checker skill']:.2f} | "
              f"{r['close cube decisions']:.0f} | {r['cube cost']:.3f} / {r['cube skill']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
