"""Steady training games/s from the difference of two run lengths, and the CPU each game costs.

A run's wall time is its start-up (worker processes, Numba's cache, torch)
plus its games at the steady rate, so two runs of ``G1`` and ``G2`` games
give the steady rate as ``(G2 - G1) / (T2 - T1)``: start-up drops out, and
every game of the longer run counts, where ``benchmarks/train.py``'s
"steady" is the median of short logged windows (which moves by about 10%
from run to run on a shared VM). The CPU time of the trainer and of its
worker processes is differenced the same way: milliseconds of CPU a game,
and how busy each side was.

Usage::

    python benchmarks/steady_rate.py --recipe td2 --model models/td2.pt --workers 1
    PYTHONPATH=/path/to/other/checkout python benchmarks/steady_rate.py --workers 2

The second form measures another checkout (the code before a change, say)
with the same method: its ``gammon`` package and ``configs/`` are used.
Alternate the two a few times; compare rates measured in the same sitting.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, and its train.py would hide the top-level
# `train` package of checkouts from before it became gammon.train.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]


def timed_run(config: Path, games: int, sets: list[str]) -> tuple[float, float, float]:
    """Wall seconds, trainer CPU seconds and worker CPU seconds of one training run of ``games`` games."""
    try:
        from gammon.train.config import load_config
        from gammon.train.loop import train
    except ImportError:  # a checkout from before train/ was installed as gammon.train
        from train.config import load_config
        from train.loop import train

    with tempfile.TemporaryDirectory() as runs:
        cfg = load_config(config, [f"total_games={games}", "eval_every=0", "checkpoint_every=1000000000",
                                   f"runs_dir={runs}", *sets])
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall, cpu = time.perf_counter(), time.process_time()
        train(cfg, progress=False)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        workers = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    return wall, cpu, workers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recipe", default="td", help="configs/<recipe>.toml of the checkout measured")
    parser.add_argument("--model", default=None, help="model file to start from (default: models/<recipe>.pt of that checkout)")
    parser.add_argument("--workers", type=int, default=1, help="self-play worker processes")
    parser.add_argument("--games", type=int, nargs=2, default=(15000, 45000), metavar=("SHORT", "LONG"))
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="more config overrides")
    args = parser.parse_args()

    import torch

    import gammon

    torch.set_num_threads(1)
    root = Path(gammon.__file__).resolve().parents[1]
    config = root / "configs" / f"{args.recipe}.toml"
    model = args.model or str(root / "models" / f"{args.recipe}.pt")
    sets = [f"workers={args.workers}", f"init_model={model}", *args.set]
    timed_run(config, 16, ["workers=0", f"init_model={model}"])  # warm up: Numba's cache, torch
    short, long = (timed_run(config, games, sets) for games in args.games)
    games = args.games[1] - args.games[0]
    wall, trainer, workers = (b - a for a, b in zip(short, long))
    print(f"{root} {args.recipe} workers={args.workers}: steady {games / wall:.0f} games/s, "
          f"CPU {(trainer + workers) / games * 1e3:.3f} ms a game, trainer busy {trainer / wall:.0%}, "
          f"workers busy {workers / wall:.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
