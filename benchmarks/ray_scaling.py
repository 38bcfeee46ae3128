"""The Ray backend: its overhead against local processes, how it scales with actors, and its effect on learning.

``throughput`` (the default) measures, with the shipped architecture started
from ``models/td.pt`` (realistic game lengths):

1. self-play alone (no learning) from each game source: in the trainer, in
   local worker processes, on Ray actors, for 1 .. ``--max-actors`` actors;
2. the whole training loop (``gammon train``) on each backend;
3. the learner alone: one TD(lambda) update for batches of 16 .. 1024 games,
   on the CPU and, when one is present, on CUDA: the rate of games it can
   absorb, which caps what more actors can add;
4. inference, positions/s of the network's forward pass at the batch sizes of
   move choice (the candidates of one roll, ~20) and beyond: the Numba kernel
   self-play uses, against torch on the CPU and, when present, on CUDA;
5. the arena (``gammon eval``, the net against pubeval) on local processes
   and on Ray actors, checking that the records are identical.

``device`` measures only what a GPU changes (3 and 4, and the training loop
with ``--device cpu`` and ``--device cuda`` at 16 and 256 games per update);
it needs no Ray and takes a few minutes, for a machine lent with a GPU.

``strength`` trains the same recipe (``configs/td-quick.toml``) with self-play
in the trainer (no lag) and on Ray (self-play ``ray_staleness`` updates
behind) for several seeds, and plays each run's snapshots against pubeval.

Usage::

    python benchmarks/ray_scaling.py throughput [--games 3000] [--max-actors 2]
    python benchmarks/ray_scaling.py device [--games 3000]
    python benchmarks/ray_scaling.py strength [--seeds 1 2] [--staleness 2 32] [--eval-games 2000]

Each prints Markdown for the Ray section of ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and benchmarks/train.py
# would hide the `train` package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import numpy as np  # noqa: E402
import torch  # noqa: E402

from gammon.arena import evaluate, mean_ci95  # noqa: E402
from gammon.net import load_model, weights_from_state  # noqa: E402
from gammon.runners import LOCAL, Backend  # noqa: E402
from gammon.train.config import load_config  # noqa: E402
from gammon.train.loop import train  # noqa: E402
from gammon.train.selfplay import SelfPlayer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "models" / "td.pt"
RAY = Backend("ray")
UPDATE = 16  # games per update of configs/td.toml


# -- throughput -------------------------------------------------------------------------------


def trained_weights():
    model = load_model(MODEL)
    return weights_from_state(model.state_dict, model.arch)


def source_rate(kind: str, actors: int, games: int) -> tuple[float, float]:
    """Start-up seconds and steady games/s of a game source fed new weights every 16 games."""
    from gammon.train.sources import open_source

    weights = trained_weights()
    start = time.perf_counter()
    backend = RAY if kind == "ray" else LOCAL
    workers = 0 if kind == "inline" else actors
    source = open_source(backend, workers, weights, np.random.default_rng(1), seed=1, start_games=0, unit_games=UPDATE)
    try:
        source.games(UPDATE)  # the first games: processes or actors started, kernels loaded
        startup = time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(games // UPDATE):
            source.games(UPDATE)
            source.publish(weights)
        return startup, (games // UPDATE) * UPDATE / (time.perf_counter() - start)
    finally:
        source.close()


def training_rate(backend: Backend, workers: int, games: int, device: str = "cpu", extra: tuple[str, ...] = ()) -> tuple[float, float]:
    """Games/s of the real training loop: overall (with start-up) and steady (median logged rate, second half)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    with tempfile.TemporaryDirectory() as runs:
        sets = [f"total_games={games}", f"workers={workers}", "eval_every=0", "checkpoint_every=100000000",
                f"runs_dir={runs}", "log_every=5", f"init_model={MODEL}", *extra]
        start = time.perf_counter()
        run_dir = train(load_config(ROOT / "configs" / "td.toml", sets), progress=False, backend=backend, device=device)
        overall = games / (time.perf_counter() - start)
        acc = EventAccumulator(str(run_dir))
        acc.Reload()
        rates = [e.value for e in acc.Scalars("charts/games_per_second")]
        return overall, statistics.median(rates[len(rates) // 2:])


def learner_rate(batch: int, device: str, repeats: int = 5) -> tuple[float, float]:
    """Games/s and positions/s one learner absorbs: encode, forward, lambda-returns, backward, Adam step."""
    import torch.nn.functional as F

    from gammon.engine.encoding import encode_batch
    from gammon.net import build_module
    from gammon.train.td import batch_states, lambda_returns

    model_file = load_model(MODEL)
    module = build_module(model_file.arch, seed=1).to(device)
    module.load_state_dict(model_file.state_dict)
    optimizer = torch.optim.Adam(module.parameters(), lr=1e-4)
    games = SelfPlayer(trained_weights()).play_many(np.random.default_rng(3), batch)
    times = []
    for _ in range(repeats + 1):
        if device == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        boards, starts, z = batch_states(games)
        x = torch.from_numpy(encode_batch(boards)).to(device)
        logits = module(x)
        targets, _ = lambda_returns(torch.sigmoid(logits).detach().cpu().numpy(), starts, z, 0.7)
        loss = F.binary_cross_entropy_with_logits(logits, torch.from_numpy(targets).to(device))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if device == "cuda":
            torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    best = statistics.median(times[1:])
    return batch / best, boards.shape[0] / best


def inference_rate(batch: int, engine: str, repeats: int = 200) -> float:
    """Positions/s of one forward pass over ``batch`` encoded positions from self-play."""
    from gammon.engine.encoding import encode_batch
    from gammon.engine.network import probabilities
    from gammon.net import build_module

    weights = trained_weights()
    boards = np.concatenate([g.boards for g in SelfPlayer(weights).play_many(np.random.default_rng(4), 40)])
    x = np.ascontiguousarray(encode_batch(boards[:batch]))
    if engine == "numba":
        run = lambda: probabilities(weights, x)  # noqa: E731
    else:
        model_file = load_model(MODEL)
        module = build_module(model_file.arch, seed=1).to(engine)
        module.load_state_dict(model_file.state_dict)
        xt = torch.from_numpy(x)

        def run():
            with torch.no_grad():  # the candidates go to the device and the probabilities come back
                return torch.sigmoid(module(xt.to(engine))).cpu()
    run()
    start = time.perf_counter()
    for _ in range(repeats):
        run()
    return batch * repeats / (time.perf_counter() - start)


def arena_rate(backend: Backend, workers: int, games: int):
    return evaluate(str(MODEL), "pubeval", games=games, seed=7, workers=workers, backend=backend)


def network() -> str:
    """``models/td.pt`` and its layer sizes, for the headers."""
    arch = load_model(MODEL).arch
    return f"`models/td.pt` ({arch.inputs}-{arch.hidden}-{arch.outputs})"


def device_tables() -> tuple[list[str], list[str]]:
    """Markdown rows: the learner by device and batch, inference by engine and batch."""
    learner = ["| device | games per update | learner games/s | positions/s |", "|---|---|---|---|"]
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for device in devices:
        for batch in (16, 64, 256, 1024):
            g, p = learner_rate(batch, device)
            learner.append(f"| {device} | {batch} | {g:.0f} | {p:.0f} |")
    if "cuda" not in devices:
        learner.append("| cuda | 16 .. 1024 | not measured: no GPU on this machine | |")
    engines = ["numba", "cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    infer = ["| positions per call | " + " | ".join(f"{e} positions/s" for e in engines) + " |",
             "|---" * (len(engines) + 1) + "|"]
    for batch in (1, 20, 100, 1000):
        infer.append(f"| {batch} | " + " | ".join(f"{inference_rate(batch, e):.0f}" for e in engines) + " |")
    if "cuda" not in engines:
        infer.append("| (cuda) | not measured: no GPU on this machine | |")
    return learner, infer


def device(args) -> str:
    """What a GPU changes: the learner, inference, and ``gammon train --device``."""
    torch.set_num_threads(1)
    cores = os.cpu_count() or 1
    workers = max(1, cores - 1)
    learner, infer = device_tables()
    loop = ["| `gammon train` | games per update | overall games/s (with start-up) | steady games/s |", "|---|---|---|---|"]
    for dev in ["cpu"] + (["cuda"] if torch.cuda.is_available() else []):
        for update in (16, 256):
            overall, steady = training_rate(LOCAL, workers, args.games, dev, (f"games_per_update={update}", "log_every=1"))
            loop.append(f"| `--device {dev}` | {update} | {overall:.0f} | {steady:.0f} |")
    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
    head = (f"Machine: {cores}-core {platform.machine()}, {gpu}, Python {platform.python_version()}, torch {torch.__version__}. "
            f"Network: {network()}. Training loop: {workers} self-play worker process{'es' if workers > 1 else ''}, {args.games} games per figure.")
    return "\n".join([head, "", "The learner alone (median of 5 updates):", "", *learner, "",
                      "Inference (`numba`: the self-play kernel; `cpu`/`cuda`: torch, one thread on the CPU):", "", *infer, "",
                      "The training loop:", "", *loop]) + "\n"


def throughput(args) -> str:
    import ray

    torch.set_num_threads(1)
    cores = os.cpu_count() or 1
    ray.init(num_cpus=cores, include_dashboard=False, logging_level="warning")
    actors = list(range(1, args.max_actors + 1))
    rows = ["| game source | actors / processes | start-up s | self-play games/s | vs one local process |", "|---|---|---|---|---|"]
    base_startup, base = source_rate("inline", 1, args.games)
    rows.append(f"| in the trainer (`workers = 0`) | 1 | {base_startup:.1f} | {base:.0f} | 1.00 |")
    for kind, label in (("processes", "local processes (`workers = N`)"), ("ray", "Ray actors (`--backend ray`)")):
        for n in actors:
            startup, rate = source_rate(kind, n, args.games)
            rows.append(f"| {label} | {n} | {startup:.1f} | {rate:.0f} | {rate / base:.2f} |")
    loop = ["| `gammon train` | self-play | overall games/s (with start-up) | steady games/s |", "|---|---|---|---|"]
    for label, backend, workers in [("local", LOCAL, 0), ("local", LOCAL, 1)] + [("ray", RAY, n) for n in actors]:
        overall, steady = training_rate(backend, workers, args.games)
        what = "in the trainer" if workers == 0 else f"{workers} {'process' if label == 'local' else 'actor'}{'s' if workers > 1 else ''}"
        loop.append(f"| `--backend {label}` | {what} | {overall:.0f} | {steady:.0f} |")
    learner, infer = device_tables()
    arena = ["| `gammon eval models/td.pt pubeval` | workers | games/s (with start-up) | records identical to local, 1 process |", "|---|---|---|---|"]
    reference = arena_rate(LOCAL, 1, args.arena_games)
    arena.append(f"| `--backend local` | 1 | {reference.games_per_second:.0f} | (reference) |")
    for label, backend in (("local", LOCAL), ("ray", RAY)):
        for n in actors:
            if label == "local" and n == 1:
                continue
            result = arena_rate(backend, n, args.arena_games)
            arena.append(f"| `--backend {label}` | {n} | {result.games_per_second:.0f} | {'yes' if result.records == reference.records else 'NO'} |")
    ray.shutdown()
    head = (f"Machine: {cores}-core {platform.machine()} VM, Python {platform.python_version()}, torch {torch.__version__}, "
            f"Ray {ray.__version__}; a local Ray with {cores} CPUs. Network: {network()}. "
            f"{args.games} games per self-play and training figure, {args.arena_games} per arena figure.")
    return "\n".join([head, "", "Self-play alone:", "", *rows, "", "The training loop:", "", *loop, "",
                      "The learner alone (median of 5 updates):", "", *learner, "",
                      "Inference (`numba`: the self-play kernel; `cpu`/`cuda`: torch, one thread on the CPU):", "", *infer, "",
                      "The arena:", "", *arena]) + "\n"


# -- strength ---------------------------------------------------------------------------------


def train_recipe(seed: int, staleness: int | None, games: int, snapshot: int, runs: str) -> Path:
    """``configs/td-quick.toml`` for ``games`` games; ``staleness`` None: self-play in the trainer."""
    sets = [f"seed={seed}", f"total_games={games}", f"eval_every={snapshot}", "eval_opponents=",
            f"runs_dir={runs}", f"exp_name=td-quick-{'local' if staleness is None else f'ray{staleness}'}"]
    if staleness is None:
        return train(load_config(ROOT / "configs" / "td-quick.toml", sets), progress=False)
    sets += ["workers=1", f"ray_staleness={staleness}"]
    return train(load_config(ROOT / "configs" / "td-quick.toml", sets), progress=False, backend=RAY)


def strength(args) -> str:
    torch.set_num_threads(1)
    runs = args.runs
    variants = [None, *args.staleness]
    results = []
    final = {}  # (seed, lag) -> pair means of the last snapshot: the same dice for every run
    for seed in args.seeds:
        for staleness in variants:
            start = time.perf_counter()
            run_dir = train_recipe(seed, staleness, args.games, args.snapshot, runs)
            seconds = time.perf_counter() - start
            for snap in sorted((run_dir / "models").glob("model-*.pt")):
                r = evaluate(str(snap), "pubeval", games=args.eval_games, seed=args.eval_seed, workers=1)
                final[seed, staleness or 0] = r.pair_means()
                row = {"seed": seed, "staleness": staleness or 0, "backend": "local" if staleness is None else "ray",
                       "games": int(snap.stem.split("-")[1]), "ppg": r.ppg, "ci95": list(r.ci95), "win_rate": r.win_rate,
                       "train_seconds": seconds}
                results.append(row)
                print(json.dumps(row), flush=True)
    lines = ["| seed | backend | self-play lag (updates) | games trained | ppg vs pubeval (95% CI) | wins |", "|---|---|---|---|---|---|"]
    for r in results:
        lo, hi = r["ci95"]
        lines.append(f"| {r['seed']} | {r['backend']} | {r['staleness']} | {r['games']} | {r['ppg']:+.3f} ({lo:+.3f} .. {hi:+.3f}) | {r['win_rate']:.1%} |")
    lines += ["", "Paired on the same evaluation dice, at the last snapshot:", "",
              "| seed | Ray lag (updates) | ppg of the Ray run minus the local run (95% CI) |", "|---|---|---|"]
    for seed in args.seeds:
        for lag in args.staleness:
            diff = [r - l for r, l in zip(final[seed, lag], final[seed, 0])]
            mean, (lo, hi) = mean_ci95(diff)
            lines.append(f"| {seed} | {lag} | {mean:+.3f} ({lo:+.3f} .. {hi:+.3f}) |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", nargs="?", default="throughput", choices=("throughput", "device", "strength"))
    parser.add_argument("--games", type=int, default=None, help="throughput: games per figure (3000); strength: games trained (30000)")
    parser.add_argument("--arena-games", type=int, default=4000)
    parser.add_argument("--max-actors", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--staleness", type=int, nargs="+", default=[2, 32], help="Ray runs: updates self-play lags the learner")
    parser.add_argument("--snapshot", type=int, default=10000, help="strength: games between snapshots")
    parser.add_argument("--eval-games", type=int, default=2000)
    parser.add_argument("--eval-seed", type=int, default=2024)
    parser.add_argument("--runs", default=tempfile.mkdtemp(prefix="ray-strength-"))
    args = parser.parse_args()
    if args.part in ("throughput", "device"):
        args.games = args.games or 3000
        print(throughput(args) if args.part == "throughput" else device(args))
    else:
        args.games = args.games or 30000
        print(strength(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
