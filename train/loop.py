"""The TD(lambda) self-play training loop: one readable function, :func:`train`.

Each iteration: take ``games_per_update`` new self-play games, encode every
position a player faced, run the evaluator once over them (each position in
the net of its class, pure bear-offs exactly from the database:
:mod:`gammon.train.nets`), turn the values into lambda-return targets
(:mod:`gammon.train.td`), take one optimizer step on the cross-entropy between
each net's outputs and its positions' targets, and hand the new weights to
the self-play players. Around that: TensorBoard scalars, evaluation matches,
checkpoints, and a clean stop on Ctrl-C.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import numpy as np

from gammon.net import load_model, save_model
from gammon.outcomes import OUTPUTS
from gammon.runners import LOCAL, Backend, require_ray
from gammon.train.checkpoint import load_checkpoint, save_checkpoint
from gammon.train.config import Config, ConfigError, field_docs
from gammon.train.nets import Nets
from gammon.train.selfplay import Starts
from gammon.train.sources import default_inflight, open_source
from gammon.train.td import batch_states, lambda_returns


def new_run_dir(cfg: Config) -> Path:
    """``runs/backgammon__<exp_name>__<seed>__<unix time>`` (CleanRL's naming), made unique."""
    base = Path(cfg.runs_dir) / f"backgammon__{cfg.exp_name}__{cfg.seed}__{int(time.time())}"
    run_dir, k = base, 1
    while run_dir.exists():
        run_dir, k = Path(f"{base}_{k}"), k + 1
    run_dir.mkdir(parents=True)
    return run_dir


def hyperparameter_table(cfg: Config) -> str:
    docs = field_docs()
    rows = "\n".join(f"|{k}|{v}|{docs.get(k, '')}|" for k, v in cfg.as_dict().items())
    return "|param|value|meaning|\n|-|-|-|\n" + rows


def open_run(cfg: Config, resume: Path | None, games: int):
    """The run folder (``resume``, or a new one) and its TensorBoard writer; says where it is first, and
    writes ``config.json`` (and, for a new run, the hyperparameters to TensorBoard)."""
    from torch.utils.tensorboard import SummaryWriter

    run_dir = Path(resume) if resume is not None else new_run_dir(cfg)
    resumed = f" (resumed at {games} of {cfg.total_games} games)" if resume is not None else ""
    print(f"run folder: {run_dir}{resumed}", flush=True)
    (run_dir / "config.json").write_text(json.dumps(cfg.as_dict(), indent=2) + "\n")
    writer = SummaryWriter(str(run_dir))
    if resume is None:
        writer.add_text("hyperparameters", hyperparameter_table(cfg))
    return run_dir, writer


def schedule(start: float, end: float, cfg: Config, games: int) -> float:
    """Linear from ``start`` to ``end`` over ``total_games`` (learning rate, lambda)."""
    frac = min(1.0, games / cfg.total_games) if cfg.total_games else 1.0
    return start + (end - start) * frac


def train(cfg: Config, *, resume: Path | None = None, device: str = "cpu", progress: bool = True,
          backend: Backend = LOCAL) -> Path:
    """Train (or continue training) and return the run folder.

    ``backend`` says where self-play runs: this machine (``workers``
    processes, or the trainer itself) or Ray actors (:mod:`gammon.train.sources`).

    The folder holds ``checkpoint.pt`` (to resume), ``model.pt`` (the latest
    model file), ``models/model-<games>.pt`` (one per evaluation; model files
    and evaluations hold the weight averages when ``ema_decay`` keeps them),
    ``eval.jsonl`` (evaluation results), ``config.json`` and the TensorBoard
    event files.
    """
    if cfg.method == "search" and backend.is_ray:
        raise ConfigError("method search runs on this machine only: drop --backend ray")
    if backend.is_ray:
        require_ray()
    state = load_checkpoint(resume) if resume is not None else None
    if state is not None and state["games"] >= cfg.total_games:
        print(f"{resume} is finished: it has trained {state['games']} games of total_games={cfg.total_games}. "
              f"To train on, raise total_games: gammon train --resume {resume} --set total_games={2 * max(state['games'], 1)}",
              flush=True)
        return Path(resume)
    if cfg.method == "search":
        from gammon.train.distill import distill

        return distill(cfg, state, resume=resume, device=device, progress=progress)
    import torch
    from tqdm import tqdm

    # -- run folder, config, seeding --------------------------------------------
    opponents = check_eval_opponents(cfg)  # before anything is written
    torch.set_num_threads(cfg.threads)
    rng = np.random.default_rng(cfg.seed)  # the dice of inline self-play
    nets = Nets(cfg, device)
    arch = nets.arch
    optimizer = make_optimizer(cfg, nets.parameters())
    games = updates = positions = 0
    elapsed = 0.0
    if state is None and cfg.init_model:
        nets.warm_start(load_model(cfg.init_model))
    if state is not None:
        nets.load_state(state, str(resume))
        optimizer.load_state_dict(state["optimizer"])
        fuse(optimizer)
        games, updates, positions = state["games"], state["updates"], state["positions"]
        elapsed = state["elapsed"]
        rng.bit_generator.state = state["rng_numpy"]
        torch.set_rng_state(state["rng_torch"])

    # -- self-play source (before the run folder, so a backend that fails leaves none) --
    played = nets.evaluator()
    # the lag follows the config alone; whether the trainer really plays, also the CPUs here
    plays = cfg.learner_plays and not backend.is_ray and cfg.workers > 0
    inflight = cfg.ray_staleness or (default_inflight(cfg.workers, True) if plays else None)
    source = open_source(backend, cfg.workers, played, rng, seed=cfg.seed, start_games=games,
                         unit_games=cfg.games_per_update, inflight=inflight,
                         learner_plays=plays and cfg.workers < (os.cpu_count() or 1),
                         starts=Starts(cfg.race_starts, cfg.scrambled_starts))

    run_dir, writer = open_run(cfg, resume, games)
    writer.add_text("backend", source.describe())

    def checkpoint() -> None:
        save_checkpoint(run_dir, {
            **nets.state(),
            "optimizer": optimizer.state_dict(),
            "games": games, "updates": updates, "positions": positions,
            "elapsed": elapsed + (time.perf_counter() - started),
            "config": cfg.as_dict(),
            "rng_numpy": rng.bit_generator.state, "rng_torch": torch.get_rng_state(),
        })
        kept = nets.kept()
        save_model(run_dir / "model.pt", kept.contact.state_dict(), arch, games_trained=games, config=cfg.as_dict(),
                   **kept.save_args())

    stop = {"requested": False}

    def on_signal(signum, frame):
        if stop["requested"]:  # a second Ctrl-C stops at once
            raise KeyboardInterrupt
        stop["requested"] = True

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    bar = tqdm(total=cfg.total_games, initial=games, unit="game", disable=not progress, dynamic_ncols=True, mininterval=1.0)
    started = time.perf_counter()
    window_start, window_games = started, 0
    next_checkpoint = games + cfg.checkpoint_every
    next_eval = (games // cfg.eval_every + 1) * cfg.eval_every if cfg.eval_every else None
    try:
        while games < cfg.total_games and not stop["requested"]:
            # -- play ---------------------------------------------------------------
            batch = source.games(min(cfg.games_per_update, cfg.total_games - games))
            boards, starts, z = batch_states(batch)

            # -- learn: one step towards the lambda-returns --------------------------------
            lr = schedule(cfg.learning_rate, cfg.final_learning_rate, cfg, games)
            lam = schedule(cfg.lam, cfg.final_lam, cfg, games)
            for group in optimizer.param_groups:
                group["lr"] = lr
            split, td, loss = learn_step(nets, optimizer, boards, starts, z, lam, played.kernel_args(), cfg.loss)
            played = nets.evaluator()
            source.publish(played)

            games += len(batch)
            updates += 1
            positions += boards.shape[0]
            window_games += len(batch)
            td_error = float(np.sqrt(np.mean(td.astype(np.float64) ** 2)))
            bar.update(len(batch))

            # -- log ---------------------------------------------------------------------
            if updates % cfg.log_every == 0:
                now = time.perf_counter()
                rate = window_games / max(now - window_start, 1e-9)
                window_start, window_games = now, 0
                bar.set_postfix(td_err=f"{td_error:.3f}")  # the bar shows the games/s itself
                writer.add_scalar("losses/loss", loss, games)
                writer.add_scalar("losses/td_error", td_error, games)
                writer.add_scalar("charts/games_per_second", rate, games)
                writer.add_scalar("charts/learning_rate", lr, games)
                writer.add_scalar("charts/lambda", lam, games)
                writer.add_scalar("charts/game_length", boards.shape[0] / len(batch), games)
                points = np.array([g.points for g in batch])
                writer.add_scalar("charts/gammon_rate", float(np.mean(points >= 2)), games)
                writer.add_scalar("charts/backgammon_rate", float(np.mean(points >= 3)), games)
                means = split.values.mean(axis=0)
                for name, value in zip(OUTPUTS, means):
                    writer.add_scalar(f"outputs/{name}", float(value), games)
                for name, value in source.stats().items():
                    writer.add_scalar(f"selfplay/{name}", value, games)

            # -- evaluate, checkpoint ---------------------------------------------------------
            if next_eval is not None and games >= next_eval:
                next_eval += cfg.eval_every
                run_evaluation(cfg, run_dir, nets.kept(), games, writer, bar, opponents)
            if games >= next_checkpoint or games >= cfg.total_games or stop["requested"]:
                next_checkpoint = games + cfg.checkpoint_every
                checkpoint()
    finally:
        bar.close()
        source.close()
        writer.flush()
        writer.close()
        for s, handler in previous.items():
            signal.signal(s, handler)
    if stop["requested"]:
        print(f"stopped at {games} games; checkpoint saved. Continue with: gammon train --resume {run_dir}")
    return run_dir


def learn_step(nets: Nets, optimizer, boards: np.ndarray, starts: np.ndarray, z: np.ndarray, lam: float, ev: tuple,
               loss_kind: str = "bce"):
    """One optimizer step of each net towards its own positions' lambda-returns (weighted by their number), then
    the weight averages; returns the batch's values (:class:`~gammon.train.nets.Batch`), TD errors and loss."""
    split = nets.forward(boards, ev)
    targets, td = lambda_returns(split.values, starts, z, lam)
    optimizer.zero_grad(set_to_none=True)
    loss = nets.backward(split, targets, loss_kind)
    optimizer.step()
    nets.update_averages()
    return split, td, loss


def make_optimizer(cfg: Config, parameters: list):
    """The run's optimizer (``optimizer``, ``learning_rate``), with fused steps where this torch has them."""
    import torch

    if cfg.optimizer == "sgd":
        return torch.optim.SGD(parameters, lr=cfg.learning_rate)
    return fuse(torch.optim.Adam(parameters, lr=cfg.learning_rate))


def fuse(optimizer):
    """Switch ``optimizer`` to its fused step (one kernel for all parameters) when this torch and device
    support it (on the CPU since torch 2.4). In a training run here the per-tensor step took about a fifth
    of the learner's time, the fused one a fiftieth; the updates are the same up to float rounding.
    Also after loading a checkpoint, whose groups say how the run that wrote it stepped.
    """
    import torch

    if not isinstance(optimizer, torch.optim.Adam):
        return optimizer
    try:
        torch.optim.Adam([torch.zeros(1, device=optimizer.param_groups[0]["params"][0].device)], fused=True)
    except (RuntimeError, ValueError, TypeError):
        return optimizer
    for group in optimizer.param_groups:
        group["foreach"] = None
        group["fused"] = True
    return optimizer


def check_eval_opponents(cfg: Config) -> list[str]:
    """The ``eval_opponents`` the evaluations will play: each is built once here, before the run starts.

    An opponent whose optional extra is not installed (``pubeval`` and
    ``gnubg`` need ``gammon[gnubg]``) is left out with a note when the run
    evaluates at all; any other that cannot be built (an unknown name, a
    missing model file) is a :class:`ConfigError` naming it.
    """
    from gammon.bots import load
    from gammon.bots.external import MissingExtraError
    from gammon.errors import GammonError

    available = []
    for spec in cfg.eval_opponents:
        try:
            load(spec, seed=0)
        except MissingExtraError as exc:
            if cfg.eval_every:
                print(f"eval: {spec} is not available, its evaluations are skipped ({exc})", flush=True)
            continue
        except GammonError as exc:
            raise ConfigError(f"eval_opponents: {exc}") from None
        available.append(spec)
    return available


def run_evaluation(cfg: Config, run_dir: Path, nets: Nets, games: int, writer, bar,
                   opponents: list[str] | None = None) -> None:
    """Short duplicate-dice matches (:func:`gammon.arena.evaluate`) of the 0-ply net
    against ``opponents`` (default ``eval_opponents``); log them, append to eval.jsonl, snapshot the model."""
    from gammon.arena import evaluate
    from gammon.bots.neural import NeuralBot
    from gammon.errors import GammonError

    save_model(run_dir / "models" / f"model-{games:09d}.pt", nets.contact.state_dict(), nets.arch, games_trained=games,
               config=cfg.as_dict(), **nets.save_args())
    net = NeuralBot(nets.evaluator())
    eval_games = max(2, cfg.eval_games + cfg.eval_games % 2)  # duplicate dice: whole pairs
    for spec in cfg.eval_opponents if opponents is None else opponents:
        started = time.perf_counter()
        try:
            result = evaluate(net, spec, eval_games, seed=cfg.seed + games, workers=1)
        except GammonError as exc:  # checked at the start; an opponent that fails in play is skipped this time
            bar.write(f"eval at {games} games: skipping {spec} ({exc})")
            continue
        writer.add_scalar(f"eval/{spec}_ppg", result.ppg, games)
        writer.add_scalar(f"eval/{spec}_win_rate", result.win_rate, games)
        record = {"games_trained": games, "opponent": spec, "games": result.games, "ppg": result.ppg,
                  "stderr": result.half_width / 1.96, "ci95": list(result.ci95), "win_rate": result.win_rate,
                  "seed": result.seed, "seconds": time.perf_counter() - started}
        with open(run_dir / "eval.jsonl", "a") as fh:
            fh.write(json.dumps(record) + "\n")
        lo, hi = result.ci95
        bar.write(f"eval at {games} games: {spec}: {result.ppg:+.3f} ppg (95% CI {lo:+.3f} .. {hi:+.3f}), "
                  f"wins {result.win_rate:.1%}, {result.games} games")
