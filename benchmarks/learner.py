"""The learner's step three ways, same run: autograd with torch.nn.Linear's dense first layer, autograd with
the sparse first layer (gammon.train.sparse.logits, the previous learner), and the passes written out without
autograd (gammon.train.sparse.forward/backward, the learner now).

One process, one torch thread, the same self-play batches (``games_per_update``
games each, played by the recipe's starting model): the TD learner's whole
step (:func:`gammon.train.loop.learn_step`: values, lambda-returns, loss,
backward, Adam) timed each way in turn, interleaved round by round so that the load of a shared
machine falls on all alike. The learner's time per game is what caps
training when self-play runs on other cores (more worker processes, Ray
actors); on two cores it is about a third of the CPU a game costs.

Usage: ``python benchmarks/learner.py [--recipes td td2] [--batches 40] [--rounds 6]``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import numpy as np  # noqa: E402
import torch  # noqa: E402

import gammon.train.nets as nets_module  # noqa: E402
from gammon.net import load_model  # noqa: E402
from gammon.train.config import load_config  # noqa: E402
from gammon.train.loop import learn_step, make_optimizer  # noqa: E402
from gammon.train.nets import Nets  # noqa: E402
from gammon.train.selfplay import SelfPlayer  # noqa: E402
from gammon.train.sparse import logits as sparse_logits  # noqa: E402
from gammon.train.td import batch_states  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: Each way: the first layer autograd runs through, and whether the learner skips autograd.
WAYS = {"dense": (lambda module, x: module(x), False), "sparse": (sparse_logits, False), "fused": (sparse_logits, True)}


def learner_ms_per_game(recipe: str, batches: int, rounds: int) -> dict[str, float]:
    """Median over ``rounds`` of each way's learner time per game (ms), the first round a warm-up."""
    cfg = load_config(ROOT / "configs" / f"{recipe}.toml", ["eval_every=0"])
    nets = Nets(cfg)
    nets.warm_start(load_model(ROOT / cfg.init_model if cfg.init_model else ROOT / "models" / "td.pt"))
    optimizer = make_optimizer(cfg, nets.parameters())
    played = nets.evaluator()
    rng = np.random.default_rng(0)
    player = SelfPlayer(played)
    data = [batch_states(player.play_many(rng, cfg.games_per_update)) for _ in range(batches)]
    times: dict[str, list[float]] = {name: [] for name in WAYS}
    for r in range(rounds + 1):
        for name, (first_layer, fused) in WAYS.items():
            nets_module.sparse_logits = first_layer
            nets.fused = fused
            start = time.perf_counter()
            for boards, starts, z in data:
                learn_step(nets, optimizer, boards, starts, z, cfg.final_lam, played.kernel_args(), cfg.loss)
            if r:
                times[name].append(1000 * (time.perf_counter() - start) / (batches * cfg.games_per_update))
    nets_module.sparse_logits = sparse_logits
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recipes", nargs="+", default=["td", "td2"], help="configs/<recipe>.toml, from its init_model")
    parser.add_argument("--batches", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--note", default="nothing else running")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(f"Machine: {platform.machine()}, Python {platform.python_version()}, torch {torch.__version__}, {args.note}; "
          f"{args.batches} batches, median of {args.rounds} interleaved rounds.\n")
    print("| recipe | autograd, dense first layer, ms a game | autograd, sparse first layer (before) | without autograd (now) | before / now |")
    print("|---|---:|---:|---:|---:|")
    for recipe in args.recipes:
        t = learner_ms_per_game(recipe, args.batches, args.rounds)
        print(f"| `{recipe}` | {t['dense']:.3f} | {t['sparse']:.3f} | {t['fused']:.3f} | **{t['sparse'] / t['fused']:.2f}x** |",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
