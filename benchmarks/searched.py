"""Speed of a position's 1- and 2-ply probabilities: the compiled search against the roll-by-roll loop it replaced.

``NeuralBot.probabilities(position, plies)`` (cube decisions at 1 ply, hints,
analysis, resignations, and the targets of ``method = "search"`` training)
used to walk the 21 rolls in Python, one compiled call per roll and per
position it leaves. It is now one compiled call
(:func:`gammon.engine.search.probabilities_1ply` / ``probabilities_2ply``,
sharing a position's first layer over its rolls). Both run here on the same
self-play positions, interleaved round by round in one process on one
thread; the figures are the medians per position and their ratio. The two
give the same probabilities (checked here too).

Usage: ``python benchmarks/searched.py [--model td2] [--positions 200] [--rounds 5]``
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from gammon.bots import load  # noqa: E402
from gammon.engine.analysis import ROLLS  # noqa: E402
from gammon.engine.network import evaluate_batch  # noqa: E402
from gammon.engine.search import best_play, probabilities_1ply, probabilities_2ply  # noqa: E402
from gammon.outcomes import flip, game_result, sanitize, won_probs  # noqa: E402
from gammon.train.selfplay import SelfPlayer  # noqa: E402


def roll_by_roll(board: np.ndarray, ev: tuple, plies: int) -> np.ndarray:
    """The previous implementation (NeuralBot.probabilities before the compiled search), kept as the baseline."""
    if plies == 0:
        p = np.empty((1, 5), np.float32)
        evaluate_batch(board.reshape(1, 26), ev, p)
        return sanitize(p[0])
    total = np.zeros(5)
    for (d1, d2), weight in ROLLS:
        after, over, i, _ = best_play(board, d1, d2, ev)
        mine = won_probs(int(game_result(after[i]))) if over[i] else flip(roll_by_roll(after[i], ev, plies - 1))
        total += weight * mine
    return sanitize(total / 36.0)


def compiled(board: np.ndarray, ev: tuple, plies: int) -> np.ndarray:
    out = np.empty(5)
    (probabilities_1ply if plies == 1 else probabilities_2ply)(board, ev, out)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="td2")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    bot = load(args.model)
    ev = bot.evaluator.kernel_args()
    games = SelfPlayer(bot.evaluator).play_many(np.random.default_rng(7), 10)
    faced = np.concatenate([g.boards[:-1] for g in games])
    boards = faced[np.random.default_rng(8).choice(faced.shape[0], args.positions, replace=False)]
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, one thread; {args.model}, "
          f"{args.positions} self-play positions, {args.rounds} rounds interleaved")
    print("| plies | roll by roll (ms/position) | compiled (ms/position) | speed-up | largest difference |")
    print("|---|---:|---:|---:|---:|")
    for plies in (1, 2):
        n = args.positions if plies == 1 else max(1, args.positions // 10)
        worst = max(float(np.abs(roll_by_roll(b, ev, plies) - compiled(b, ev, plies)).max()) for b in boards[:n])
        times = {roll_by_roll: [], compiled: []}
        for _ in range(args.rounds):
            for fn in times:
                start = time.perf_counter()
                for b in boards[:n]:
                    fn(b, ev, plies)
                times[fn].append((time.perf_counter() - start) / n * 1e3)
        old, new = statistics.median(times[roll_by_roll]), statistics.median(times[compiled])
        print(f"| {plies} | {old:.2f} | {new:.2f} | {old / new:.2f}x | {worst:.1e} |")


if __name__ == "__main__":
    main()
