"""Speed of the evaluator with phase nets against the single 211-input net, on the same incremental evaluator.

The strength issue's goal: self-play games/s with the new nets (a 219-input
contact net, a race net, the bear-off database) at least two thirds of the
old 211-input net's. Both play self-play games from the same dice, in one
process on one core, interleaved (old, new, old, new, ...) so that the load
of a shared machine falls on both alike; the figure is the ratio of the
medians, beside the lowest and highest ratio of one round's pair.
Decision latency of the neural bot at 0, 1 and 2 plies is compared the
same way.

Usage: ``python benchmarks/phase_nets.py [--old models/td.pt] [--new MODEL] [--inputs 219] [--games 400] [--rounds 5]``;
``--new`` defaults to the old model grown into the new evaluator (``--inputs``
inputs, zero weights on the new ones, the race net a copy), so the games are alike.
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

from gammon import Position  # noqa: E402
from gammon.bots.neural import NeuralBot  # noqa: E402
from gammon.net import Evaluator, load_model  # noqa: E402
from gammon.train.config import Config  # noqa: E402
from gammon.train.nets import Nets  # noqa: E402
from gammon.train.selfplay import SelfPlayer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def grown(model_path: str, inputs: int = 219) -> Evaluator:
    """The old model in the new evaluator: ``inputs`` inputs (new ones zero), a race net copied from it, the database."""
    model = load_model(model_path)
    nets = Nets(Config(hidden=model.arch.hidden, activation=model.arch.activation, inputs=inputs,
                       race_hidden=model.arch.hidden, bearoff=True))
    nets.warm_start(model)
    return nets.evaluator()


def decisions(evaluator: Evaluator, n: int, seed: int = 3) -> list[tuple[Position, tuple[int, int]]]:
    """Positions and rolls from self-play games."""
    rng = np.random.default_rng(seed)
    games = SelfPlayer(evaluator).play_many(rng, max(1, n // 20))
    cases = []
    for g in games:
        for b in g.boards[:-1:3]:
            cases.append((Position(b), (int(rng.integers(1, 7)), int(rng.integers(1, 7)))))
    return cases[:n]


def latency(bot: NeuralBot, cases) -> float:
    start = time.perf_counter()
    for position, dice in cases:
        bot.choose_play(position, dice)
    return (time.perf_counter() - start) / len(cases) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default=str(ROOT / "models" / "td.pt"), help="a 211-input single-net model")
    parser.add_argument("--new", default=None, help="a model with phase nets (default: the old one grown into them)")
    parser.add_argument("--inputs", type=int, default=219, help="the grown contact net's encoding (without --new): 219 or 227")
    parser.add_argument("--games", type=int, default=400, help="self-play games per round and evaluator")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--positions", type=int, default=120, help="decisions per latency measurement")
    parser.add_argument("--note", default="nothing else running")
    args = parser.parse_args()

    old = load_model(args.old).evaluator()
    new = load_model(args.new).evaluator() if args.new else grown(args.old, args.inputs)
    players = {"old": SelfPlayer(old), "new": SelfPlayer(new)}
    for p in players.values():
        p.play_many(np.random.default_rng(0), 10)  # compile outside the timing
    rates: dict[str, list[float]] = {"old": [], "new": []}
    for r in range(args.rounds):
        for name, player in players.items():
            start = time.perf_counter()
            player.play_many(np.random.default_rng(100 + r), args.games)
            rates[name].append(args.games / (time.perf_counter() - start))
    cases = decisions(old, args.positions)
    lat: dict[int, tuple[float, float]] = {}
    for plies in (0, 1, 2):
        some = cases if plies < 2 else cases[: max(10, len(cases) // 6)]
        bots = [NeuralBot(e, plies) for e in (old, new)]
        for b in bots:
            latency(b, some[:3])
        runs = [[], []]
        for _ in range(3):
            for k, b in enumerate(bots):
                runs[k].append(latency(b, some))
        lat[plies] = (statistics.median(runs[0]), statistics.median(runs[1]))
    old_rate, new_rate = statistics.median(rates["old"]), statistics.median(rates["new"])
    per_round = [n / o for o, n in zip(rates["old"], rates["new"])]  # each round's pair played the same dice
    lines = [
        "## Phase nets against the single net (`benchmarks/phase_nets.py`)",
        "",
        f"Machine: {os.cpu_count()}-core {platform.machine()} VM, Python {platform.python_version()}, one core "
        f"(`NUMBA_NUM_THREADS=1`), {args.note}. Old: `{args.old}` ({old.nets}); new: "
        f"{'`' + args.new + '`' if args.new else 'the old model grown into the new evaluator'} ({new.nets}). "
        f"Medians of {args.rounds} interleaved rounds of {args.games} self-play games each.",
        "",
        "| measure | old | new | new / old | goal |",
        "|---|---|---|---|---|",
        f"| self-play games/s (one process) | {old_rate:.0f} | {new_rate:.0f} | **{new_rate / old_rate:.2f}** "
        f"(rounds {min(per_round):.2f} .. {max(per_round):.2f}) | >= 0.67 |",
    ]
    for plies in (0, 1, 2):
        a, b = lat[plies]
        lines.append(f"| {plies}-ply decision, mean ms | {a:.2f} | {b:.2f} | {a / b:.2f} (speed) | |")
    print("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
