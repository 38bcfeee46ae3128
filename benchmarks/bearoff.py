"""The bear-off database against GNU Backgammon's, measured in one run on one machine.

1. Build time of the full one-sided database (54,264 positions), after a
   small build has compiled the kernel.
2. Lookups per second on the same random pure bear-off positions:
   a side's distribution (``Database.distribution``) against
   ``gnubg_nn.bearoff_probabilities``, and the race probabilities of the
   side on roll (``Database.race``, one board a call, and
   ``Database.race_batch``) against ``gnubg_nn.probabilities(board,
   p_1sbear)``, gnubg's evaluation from its one-sided database.

Rounds alternate between the two sides; ratios are medians over rounds.
Usage: ``python benchmarks/bearoff.py [--rounds 5] [--positions 5000]``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import gnubg_nn
import numpy as np

from gammon.bearoff import Database, kernels, positions
from gammon.bearoff.store import build
from gammon.bots.external import gnubg_boards


def rate(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return len(items) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--positions", type=int, default=5000)
    args = parser.parse_args()

    build(checkers=3)  # compile (or load the compiled kernel)
    start = time.perf_counter()
    tables = build()
    build_s = time.perf_counter() - start
    db = Database(tables)

    rng = np.random.default_rng(2024)
    pairs = rng.integers(1, positions(), (args.positions, 2))
    boards = np.zeros((args.positions, 26), np.int8)
    for k, (a, b) in enumerate(pairs):
        boards[k, 1:7] = kernels.unrank(a)
        boards[k, 24:18:-1] = -kernels.unrank(b)
    ours_boards = list(boards)
    their_boards = gnubg_boards(boards).tolist()
    ids = [int(a) for a in pairs[:, 0]]
    db.race(ours_boards[0])
    db.race_batch(boards[:2])

    ratios: dict[str, list[float]] = {"distribution": [], "race": [], "race_batch": []}
    rates: dict[str, list[float]] = {k: [] for k in ("dist_ours", "dist_gnubg", "race_ours", "race_gnubg", "batch_ours")}
    p_1sbear = gnubg_nn.p_1sbear
    for _ in range(args.rounds):
        d_ours = rate(db.distribution, ids)
        d_gnubg = rate(gnubg_nn.bearoff_probabilities, ids)
        r_ours = rate(db.race, ours_boards)
        r_gnubg = rate(lambda b: gnubg_nn.probabilities(b, p_1sbear), their_boards)
        start = time.perf_counter()
        db.race_batch(boards)
        b_ours = len(boards) / (time.perf_counter() - start)
        for key, value in zip(rates, (d_ours, d_gnubg, r_ours, r_gnubg, b_ours)):
            rates[key].append(value)
        ratios["distribution"].append(d_ours / d_gnubg)
        ratios["race"].append(r_ours / r_gnubg)
        ratios["race_batch"].append(b_ours / r_gnubg)

    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"build: {build_s:.1f} s for {positions()} positions (kernel compiled beforehand)")
    print(f"distribution lookups/s: gammon {med['dist_ours']:,.0f}  gnubg_nn.bearoff_probabilities {med['dist_gnubg']:,.0f}  ratio {statistics.median(ratios['distribution']):.2f}")
    print(f"race lookups/s: gammon {med['race_ours']:,.0f}  gnubg_nn.probabilities(p_1sbear) {med['race_gnubg']:,.0f}  ratio {statistics.median(ratios['race']):.2f}")
    print(f"race lookups/s, batched: gammon {med['batch_ours']:,.0f}  ratio {statistics.median(ratios['race_batch']):.2f}")


if __name__ == "__main__":
    main()
