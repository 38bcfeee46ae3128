"""Self-play games/s and the 1- and 2-ply search time of a position, for this checkout or another one.

The hot paths a change of the evaluator touches, measured the same way on
both sides of the change: run it once with this checkout and once with the
code before the change on ``PYTHONPATH``, alternately a few times in one
sitting, and compare medians (a single run on a shared VM moves by 10-30%).
Everything runs on one Numba thread, from the same dice and positions, with
the model given (by default ``models/td2.pt``: phase nets and the bear-off
database). Alongside the timings it prints a digest of the games and of the
searched probabilities: equal digests mean the two checkouts play and search
alike.

Usage::

    python benchmarks/hot_path.py
    PYTHONPATH=/path/to/other/checkout python benchmarks/hot_path.py --model models/td2.pt
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import time
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import gammon  # noqa: E402
from gammon.engine.search import probabilities_batch  # noqa: E402
from gammon.net import load_model  # noqa: E402
from gammon.train.selfplay import SelfPlayer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "td2.pt"))
    parser.add_argument("--games", type=int, default=1500, help="self-play games per round")
    parser.add_argument("--positions", type=int, default=300, help="positions searched at 1 ply per round (a 25th of them at 2)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    evaluator = load_model(args.model).evaluator()
    player = SelfPlayer(evaluator)
    games = player.play_many(np.random.default_rng(0), 200)
    boards = np.array([b for game in games for b in game.boards[:-1][::5]][: args.positions], np.int8)
    deep = boards[: max(1, len(boards) // 25)]
    kernel = evaluator.kernel_args()
    out = np.empty((len(boards), 5))
    probabilities_batch(boards[:2], kernel, 1, out[:2])  # compile or load before timing
    probabilities_batch(boards[:2], kernel, 2, out[:2])

    rates, one, two = [], [], []
    for _ in range(args.rounds):
        started = time.perf_counter()
        played = player.play_many(np.random.default_rng(1), args.games)
        rates.append(args.games / (time.perf_counter() - started))
        started = time.perf_counter()
        probabilities_batch(boards, kernel, 1, out)
        one.append((time.perf_counter() - started) / len(boards))
        started = time.perf_counter()
        probabilities_batch(deep, kernel, 2, out[: len(deep)])
        two.append((time.perf_counter() - started) / len(deep))

    digest = hashlib.sha256()
    for game in played:
        digest.update(np.ascontiguousarray(game.boards).tobytes())
    probabilities_batch(boards, kernel, 1, out)
    digest.update(out.tobytes())
    print(f"{Path(gammon.__file__).parents[1]} ({Path(args.model).name}, one thread, medians of {args.rounds} rounds): "
          f"self-play {statistics.median(rates):.0f} games/s, 1-ply {statistics.median(one) * 1e3:.3f} ms, "
          f"2-ply {statistics.median(two) * 1e3:.2f} ms a position; digest {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
