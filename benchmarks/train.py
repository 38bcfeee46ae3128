"""Training and play speed of the TD network, against a naive PyTorch baseline in the same run.

1. Training games per second of ``gammon train`` itself (self-play, encoding,
   lambda-returns, Adam steps; no evaluation matches) with the shipped
   architecture, started from a trained model so that games have realistic
   lengths: self-play in the trainer process (``workers=0``, one core), in
   worker processes (``workers=N``, one a core) and in one fewer with the
   trainer playing the units they have no time for (``learner_plays``).
2. The baseline: the way public PyTorch TD-Gammon clones train, one network
   call per candidate play and an online TD(lambda) update with eligibility
   traces after every move, on the same network, encoder and move generator.
   The ratio of 1 to 2 is the speed-up of batching whole turns in Numba and
   whole games in PyTorch.
3. Decision latency of the neural bot at 0, 1 and 2 plies on one core over
   positions from self-play games.

Usage: ``python benchmarks/train.py [--model models/td.pt] [--games 3000] [--workers 2]``;
it prints the Markdown section recorded in ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name
# would hide the `train` package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import numpy as np  # noqa: E402
import torch  # noqa: E402

from gammon.bots.neural import NeuralBot  # noqa: E402
from gammon.engine.encoding import encode_board  # noqa: E402
from gammon.engine.movegen import generate  # noqa: E402
from gammon.net import Architecture, build_module, load_model, weights_from_state  # noqa: E402
from gammon.position import Position  # noqa: E402
from gammon.train.config import load_config  # noqa: E402
from gammon.train.loop import train  # noqa: E402
from gammon.train.selfplay import SelfPlayer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def training_rate(model_path: str | None, games: int, workers: int, *extra: str, recipe: str = "td") -> tuple[float, float]:
    """Games/s of the real training loop (``gammon train``): overall, and steady (median logged rate, second half)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    with tempfile.TemporaryDirectory() as runs:
        sets = [f"total_games={games}", f"workers={workers}", "eval_every=0", "checkpoint_every=100000000", f"runs_dir={runs}", "log_every=5", *extra]
        if model_path:
            sets.append(f"init_model={model_path}")
        # warm up: load the Numba kernels and torch outside the timing
        config = ROOT / "configs" / f"{recipe}.toml"
        train(load_config(config, ["total_games=16", "workers=0", "eval_every=0", f"runs_dir={runs}/warm",
                                   f"init_model={model_path or ''}"]), progress=False)
        start = time.perf_counter()
        run_dir = train(load_config(config, sets), progress=False)
        overall = games / (time.perf_counter() - start)
        acc = EventAccumulator(str(run_dir))
        acc.Reload()
        rates = [e.value for e in acc.Scalars("charts/games_per_second")]
        return overall, statistics.median(rates[len(rates) // 2 :])


def naive_rate(module: torch.nn.Module, games: int, lam: float = 0.7, lr: float = 0.1, seed: int = 0) -> tuple[float, float]:
    """Games/s and mean turns of per-candidate network calls with online TD(lambda) traces."""
    rng = np.random.default_rng(seed)
    params = list(module.parameters())
    turns = 0
    start = time.perf_counter()
    for _ in range(games):
        board = np.asarray(Position.initial().board, np.int8)
        traces = [torch.zeros_like(p) for p in params]
        prev = None
        first = True
        while True:
            d1, d2 = (int(v) for v in rng.integers(1, 7, 2))
            while first and d1 == d2:
                d1, d2 = (int(v) for v in rng.integers(1, 7, 2))
            first = False
            after, _, over = generate(board, d1, d2)
            best, best_eq = 0, -9.0
            for i in range(len(after)):  # one call per candidate
                if over[i]:
                    eq = 3.0
                else:
                    with torch.no_grad():
                        p = torch.sigmoid(module(torch.from_numpy(encode_board(after[i])).unsqueeze(0)))[0]
                    eq = float(1 - 2 * p[0] + p[3] + p[4] - p[1] - p[2])
                if eq > best_eq:
                    best, best_eq = i, eq
            # online TD(lambda) on the win output of the position just faced
            v = torch.sigmoid(module(torch.from_numpy(encode_board(board)).unsqueeze(0)))[0, 0]
            module.zero_grad()
            v.backward()
            with torch.no_grad():
                if prev is not None:
                    delta = (1.0 - v.item()) - prev  # next state's value, from the previous mover's side
                    for p_, t in zip(params, traces):
                        p_.add_(lr * delta * t)
                for p_, t in zip(params, traces):
                    t.mul_(lam).add_(p_.grad)
            prev = v.item()
            turns += 1
            if over[best]:
                break
            board = after[best]
    return games / (time.perf_counter() - start), turns / games


def positions_from_self_play(weights, n: int, seed: int = 5) -> list[tuple[Position, tuple[int, int]]]:
    rng = np.random.default_rng(seed)
    player = SelfPlayer(weights)
    out = []
    while len(out) < n:
        game = player.play(rng)
        for b in game.boards[:-1:3]:
            d = rng.integers(1, 7, 2)
            out.append((Position(b), (int(d[0]), int(d[1]))))
    return out[:n]


def latency_ms(bot: NeuralBot, cases) -> tuple[float, float, float]:
    bot.choose_play(*cases[0])
    times = []
    for pos, dice in cases:
        start = time.perf_counter()
        bot.choose_play(pos, dice)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.mean(times), statistics.median(times), times[int(0.95 * (len(times) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "td.pt"), help="trained model to start from (realistic games)")
    parser.add_argument("--recipe", default="td", help="configs/<recipe>.toml for the training rows (start them from a model of its nets, e.g. --recipe td2 --model models/td2.pt); the baseline and decision rows use td's network")
    parser.add_argument("--games", type=int, default=3000, help="games per training measurement")
    parser.add_argument("--naive-games", type=int, default=10)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--positions", type=int, default=200, help="positions per latency measurement")
    parser.add_argument("--note", default="nothing else running", help="what else the machine was doing, for the record")
    args = parser.parse_args()
    torch.set_num_threads(1)

    trained = args.model if Path(args.model).is_file() else None  # where the training rows start
    model_path = trained if args.recipe == "td" else str(ROOT / "models" / "td.pt")  # the baseline's and decisions'
    cfg = load_config(ROOT / "configs" / "td.toml")
    arch = Architecture(hidden=cfg.hidden, activation=cfg.activation)
    module = build_module(arch, seed=1)
    if model_path:
        module.load_state_dict(load_model(model_path).state_dict)
    weights = weights_from_state(module.state_dict(), arch)

    inline, inline_steady = training_rate(trained, args.games, 0, recipe=args.recipe)
    pooled, pooled_steady = training_rate(trained, 2 * args.games, args.workers, "learner_plays=false", recipe=args.recipe)
    shared = training_rate(trained, 2 * args.games, args.workers - 1, recipe=args.recipe) if args.workers > 1 else None
    naive, naive_turns = naive_rate(module, args.naive_games)
    cases = positions_from_self_play(weights, args.positions)
    lat = {plies: latency_ms(NeuralBot(weights, plies), cases if plies < 2 else cases[: max(20, args.positions // 5)]) for plies in (0, 1, 2)}

    source = f"`{Path(model_path).relative_to(ROOT) if model_path and Path(model_path).is_relative_to(ROOT) else model_path}`" if model_path else "random weights"
    lines = [
        "## Training (`benchmarks/train.py`)",
        "",
        f"Machine: {os.cpu_count()}-core {platform.machine()} VM, Python {platform.python_version()}, torch {torch.__version__} (CPU), "
        f"{args.note}. Network: {arch.inputs} inputs, "
        f"{arch.hidden} {arch.activation} hidden units, 5 outputs (`configs/td.toml`), started from {source}. "
        f"{args.games} games per training figure; baseline over {args.naive_games} games."
        + (f" The training rows train `configs/{args.recipe}.toml` from `{args.model}`." if args.recipe != "td" else ""),
        "",
        "| measure | gammon | peer | ratio | goal |",
        "|---|---|---|---|---|",
        f"| training games/s, `gammon train`, self-play in the trainer (1 process): overall / steady | {inline:.0f} / {inline_steady:.0f} | naive per-candidate PyTorch TD(lambda): {naive:.1f} | **{inline / naive:.0f}x** | >= 100 games/s |",
        f"| training games/s, `--set workers={args.workers}` ({args.workers} self-play processes + trainer): overall (with start-up) / steady | {pooled:.0f} / {pooled_steady:.0f} | same baseline | **{pooled_steady / naive:.0f}x** | >= 100 games/s |",
        *([f"| training games/s, `--set workers={args.workers - 1}` ({args.workers - 1} self-play process{'es' if args.workers > 2 else ''} + the trainer playing the units they have no time for, `learner_plays`): overall / steady | {shared[0]:.0f} / {shared[1]:.0f} | same baseline | **{shared[1] / naive:.0f}x** | >= 100 games/s |"] if shared else []),
        f"| 0-ply decision, mean / median / p95 ms (one core) | {lat[0][0]:.2f} / {lat[0][1]:.2f} / {lat[0][2]:.2f} | | | < 5 ms |",
        f"| 1-ply decision, mean / median / p95 ms (8 plays kept within 0.16) | {lat[1][0]:.1f} / {lat[1][1]:.1f} / {lat[1][2]:.1f} | | | < 100 ms |",
        f"| 2-ply decision, mean / median / p95 ms | {lat[2][0]:.0f} / {lat[2][1]:.0f} / {lat[2][2]:.0f} | | | |",
        "",
        f"Baseline games average {naive_turns:.0f} turns. Public anchors: Python TD-Gammon clones report about 6 games/s.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
