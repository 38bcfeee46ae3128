"""Search distillation (``method = "search"``): the nets learn their own deeper search, round by round.

The 0-ply net plays worse than its own 1-ply search, and most of what it
gets wrong is in positions self-play never reaches: the plays it weighed and
did not choose, which TD(lambda) never corrects. Each round therefore:

1. plays ``search_games`` self-play games with the current nets
   (:mod:`gammon.train.selfplay`; from where ``race_starts`` and
   ``scrambled_starts`` put them, as in TD training);
2. takes every position a player faced and, at every other one
   (``search_decision_every``), draws a roll and adds the positions left by
   its ``search_candidates`` best plays by 0-ply (a decision: the choices the
   net must rank), without repeats or pure bear-offs (valued exactly from
   the database);
3. values each at ``search_plies`` plies with the same nets
   (:func:`gammon.engine.search.probabilities_batch`), or, with
   ``search_rollouts`` > 0, by that many games the nets play out from it
   at 0-ply (a rollout, :func:`rollout_targets`);
4. fits each net to its own positions' searched probabilities for
   ``search_epochs`` passes (cross-entropy, the learning rate falling
   linearly by pass from ``learning_rate`` towards zero in each round), with
   ``search_rank_weight`` > 0 plus a term on how each decision's candidates
   are ranked (:func:`fit`).

With ``search_race_only`` a round keeps its race positions only and the
race net alone learns (``search_contact_only``: the contact net alone);
with ``rollouts_to_bearoff`` a rollout stops at its first pure bear-off and
counts the database's probabilities there. Each
round's labelled positions are kept in the run folder (``labels/``): a
resumed round fits on them instead of labelling again, and with
``search_memory`` > 0 the earlier rounds' join each fit.

The targets are the nets' own search, or their own games, from positions of
their own games (and the exact bear-off database): nothing else teaches them. A checkpoint is written after
every round (a run stopped with Ctrl-C keeps its last finished round);
``--resume`` plays the next.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from gammon.engine.cache import cross_file, refresh
from gammon.engine.encoding import encode_batch
from gammon.engine.movegen import generate_after
from gammon.engine.network import BEAROFF, CONTACT, RACE, evaluate_classes, evaluate_into, play_equities
from gammon.engine.search import probabilities_batch
from gammon.errors import is_interrupt
from gammon.net import load_model, save_model
from gammon.outcomes import flip_into, lost_into
from gammon.train.checkpoint import CheckpointError, save_checkpoint
from gammon.train.config import Config, ConfigError
from gammon.train.nets import Nets
from gammon.train.selfplay import SelfPlayer, Starts, play_turns
from gammon.train.sparse import logits


class Labels(NamedTuple):
    """A round's labelled positions: ``boards`` (n, 26), ``classes`` (n,), ``targets`` (n, 5), and
    ``decisions`` (m, 2), the rows ``(position, decision number)`` of :func:`round_positions`."""

    boards: np.ndarray
    classes: np.ndarray
    targets: np.ndarray
    decisions: np.ndarray


#: Positions valued per compiled call (the progress bar moves between calls).
LABEL_CHUNK = 4096
#: Turns a rollout's game is played before it is cut and valued by the nets (games this long are rare).
ROLLOUT_TURNS = 128


def round_positions(games, ev: tuple, candidates: int, rng: np.random.Generator,
                    every: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct positions of a round, none finished or a pure bear-off, and its decisions:
    ``(boards (n, 26), classes (n,), decisions (m, 2))``.

    Every position a player faced in ``games``, and at every ``every``-th
    one the positions left by the ``candidates`` best plays of a roll drawn
    from ``rng``, by the 0-ply equities of ``ev`` (each seen by the side on
    roll). Each row of ``decisions`` is ``(row of boards, decision number)``:
    the candidates of one drawn roll share a number, in ascending order.
    """
    faced = np.concatenate([g.boards[:-1] for g in games])
    parts, owners = [faced], [np.full(faced.shape[0], -1, np.int32)]
    if candidates:
        rolls = rng.integers(1, 7, size=(faced.shape[0], 2))
        for k in range(0, faced.shape[0], every):
            after, _, over = generate_after(faced[k], rolls[k, 0], rolls[k, 1])
            n = after.shape[0]
            if n < 2:
                continue
            equities = np.empty(n, np.float64)  # a roll can have thousands of plays: the kernel writes one per play
            play_equities(faced[k], after, over, ev, equities)
            best = np.argsort(-equities, kind="stable")[:candidates]
            parts.append(after[best[~over[best]]])
            owners.append(np.full(parts[-1].shape[0], len(owners) - 1, np.int32))
    boards, inverse = np.unique(np.concatenate(parts), axis=0, return_inverse=True)
    classes = np.empty(boards.shape[0], np.int8)
    evaluate_classes(boards, ev, classes, np.empty((boards.shape[0], 5), np.float32))
    owner = np.concatenate(owners)
    decisions = np.stack([inverse.reshape(-1), owner], axis=1)[owner >= 0].astype(np.int32)
    keep = classes != BEAROFF
    return np.ascontiguousarray(boards[keep]), classes[keep], decisions_kept(decisions, keep)


def decisions_kept(decisions: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """``decisions`` (rows ``(position, decision number)``) of the positions ``keep`` (a mask) keeps,
    their positions renumbered as in ``boards[keep]``."""
    row = np.cumsum(keep, dtype=np.int64) - 1
    kept = decisions[keep[decisions[:, 0]]]
    return np.stack([row[kept[:, 0]], kept[:, 1]], axis=1).astype(np.int32)


def searched_targets(boards: np.ndarray, ev: tuple, plies: int, bar=None) -> np.ndarray:
    """The ``plies``-deep probabilities of each of ``boards`` for its side on roll ((n, 5) float32)."""
    out = np.empty((boards.shape[0], 5), np.float64)
    for start in range(0, boards.shape[0], LABEL_CHUNK):
        stop = min(start + LABEL_CHUNK, boards.shape[0])
        probabilities_batch(boards[start:stop], ev, plies, out[start:stop])
        if bar is not None:
            bar.update(stop - start)
    return out.astype(np.float32)


@cross_file
@njit(cache=True, parallel=True)
def _rollouts(boards, dice, ev, out, to_bearoff) -> None:
    """``out[k]``: the mean outcome, for its side on roll, of the games played from ``boards[k]`` with each
    of ``dice[k]``'s ``(trials, turns, 2)`` rolls by the 0-ply nets of ``ev``; a game still going when its
    rolls run out (or, ``to_bearoff``, at its first pure bear-off) counts the nets' probabilities of the
    position reached. Parallel over positions."""
    trials, turns = dice.shape[1], dice.shape[2]
    width = max(ev[0].shape[0], ev[4].shape[0])
    for k in prange(boards.shape[0]):
        seen = np.empty((turns + 1, 26), np.int8)
        x = np.empty((1, width), np.float32)
        end = np.empty(5, np.float32)  # the outcome for the side on roll where the game stopped
        mine = np.empty(5, np.float32)
        total = np.zeros(5, np.float64)
        for t in range(trials):
            played, points = play_turns(boards[k], dice[k, t], ev, seen, to_bearoff)
            if points > 0:  # over: the loser is on roll in seen[played]
                lost_into(points, end)
            else:
                evaluate_into(seen[played], ev, x, end)
            if played % 2 == 0:  # the starting side is on roll there
                mine[:] = end
            else:
                flip_into(end, mine)
            for i in range(5):
                total[i] += mine[i]
        for i in range(5):
            out[k, i] = total[i] / trials


def rollout_dice(rng: np.random.Generator, positions: int, trials: int, turns: int) -> np.ndarray:
    """The rolls of :func:`rollout_targets`' games, ``(positions, trials, turns, 2)`` int8: trial ``t``'s first
    roll is ordered roll ``t`` mod 36 (1-1, 1-2, ... 6-6), the others are drawn from ``rng``."""
    first = np.array([(r // 6 + 1, r % 6 + 1) for r in range(36)], np.int8)
    dice = rng.integers(1, 7, size=(positions, trials, turns, 2), dtype=np.int8)
    dice[:, :, 0] = first[np.arange(trials) % 36]
    return dice


def rollout_targets(boards: np.ndarray, ev: tuple, trials: int, rng: np.random.Generator, bar=None,
                    turns: int = ROLLOUT_TURNS, to_bearoff: bool = False) -> np.ndarray:
    """The mean outcome of ``trials`` games the nets ``ev`` play out at 0-ply from each of ``boards``, for its
    side on roll ((n, 5) float32, the five cumulative probabilities).

    Trial ``t`` starts with roll ``t`` mod 36 (each ordered roll once in 36
    trials: the first roll, which moves a position's value most, adds no
    noise), then rolls drawn from ``rng``; a game not over after ``turns``
    turns is valued by the nets where it stands. With ``to_bearoff`` (and
    ``ev`` holding the bear-off database) a game stops at its first pure
    bear-off and counts the database's probabilities there instead of
    playing it out: exact for who wins, and without the bear-off's noise.
    Self-play only: the nets play both sides.
    """
    refresh()
    out = np.empty((boards.shape[0], 5), np.float64)
    step = max(1, LABEL_CHUNK // max(1, trials // 36))
    for start in range(0, boards.shape[0], step):
        stop = min(start + step, boards.shape[0])
        _rollouts(boards[start:stop], rollout_dice(rng, stop - start, trials, turns), ev, out[start:stop], to_bearoff)
        if bar is not None:
            bar.update(stop - start)
    return out.astype(np.float32)


def fitting_units(n: int, decisions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How :func:`fit` groups ``n`` positions: each decision with two or more of them (``decisions``' rows
    ``(position, decision number)``), then every position in none, alone. ``(members, sizes)``: the
    positions, unit after unit, and each unit's size."""
    decisions = decisions[np.argsort(decisions[:, 1], kind="stable")]
    _, sizes = np.unique(decisions[:, 1], return_counts=True)
    grouped = sizes >= 2
    members = decisions[np.repeat(grouped, sizes), 0]
    alone = np.setdiff1d(np.arange(n), members)
    return np.concatenate([members, alone]).astype(np.int64), np.concatenate([sizes[grouped], np.ones(alone.size, np.int64)])


def unit_batches(members: np.ndarray, sizes: np.ndarray, order: np.ndarray, batch: int):
    """One pass over :func:`fitting_units`' units in ``order``, about ``batch`` positions a step (a unit
    joins the step where it begins). Yields ``(rows, unit, size)`` per step: its positions, the unit of
    each (counted from 0 in the step), and the size of each of its units."""
    size = sizes[order]
    ends = np.cumsum(size)
    begins = ends - size
    starts = np.cumsum(sizes) - sizes
    rows = members[np.repeat(starts[order] - begins, size) + np.arange(ends[-1])]
    unit = np.repeat(np.arange(size.size), size)
    step = begins // batch
    first = np.flatnonzero(np.r_[True, step[1:] != step[:-1]])
    for a, b in zip(first, np.r_[first[1:], size.size]):
        yield rows[begins[a]:ends[b - 1]], unit[begins[a]:ends[b - 1]] - a, size[a:b]


def ranking_term(error, unit: np.ndarray, size: np.ndarray):
    """The mean square of each position's equity ``error`` (a tensor) less its unit's mean error, over the
    positions in units of two or more (a lone position adds nothing)."""
    import torch

    gid = torch.from_numpy(unit).to(error.device)
    mean = torch.zeros(size.size, device=error.device).index_add_(0, gid, error) / torch.from_numpy(size).to(error)
    return (error - mean[gid]).pow(2).sum() / max(1, int(size[size >= 2].sum()))


def fit(nets: Nets, boards: np.ndarray, classes: np.ndarray, targets: np.ndarray, cfg: Config, seed: int,
        decisions: np.ndarray | None = None) -> dict:
    """``search_epochs`` passes of Adam over each net's positions; the mean loss of the last pass per net
    (and, with ``search_rank_weight``, the mean ranking term as ``<net>_rank``).

    With ``search_rank_weight`` > 0 each step takes whole decisions (``decisions``, as
    :func:`round_positions` gives them; those of one class per net), about ``search_batch`` positions, and
    adds the weight times the mean square, over the candidates of a decision, of the net's equity error
    less that decision's mean error: the error that changes which play the net picks.
    """
    import torch
    import torch.nn.functional as F

    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(nets.parameters(), lr=cfg.learning_rate)
    weight = cfg.search_rank_weight
    no_decisions = np.empty((0, 2), np.int32)
    parts = []
    for name, cls, module, inputs in (("contact", CONTACT, nets.contact, nets.arch.inputs), ("race", RACE, nets.race, cfg.race_inputs)):
        rows = np.flatnonzero(classes == cls)
        if module is not None and rows.size:
            local = np.full(classes.shape[0], -1, np.int64)
            local[rows] = np.arange(rows.size)
            mine = no_decisions if decisions is None or not weight else decisions[local[decisions[:, 0]] >= 0]
            units = fitting_units(rows.size, np.stack([local[mine[:, 0]], mine[:, 1]], axis=1))
            x = torch.from_numpy(encode_batch(boards[rows], inputs)).to(nets.device)
            parts.append((name, module, x, torch.from_numpy(targets[rows]).to(nets.device), units))
    to_equity = torch.tensor([2.0, 1.0, 1.0, -1.0, -1.0], device=nets.device)  # cubeless equity less its constant -1
    losses = {}
    for epoch in range(cfg.search_epochs):
        for group in optimizer.param_groups:
            group["lr"] = cfg.learning_rate * (1.0 - epoch / cfg.search_epochs)
        for name, module, x, y, (members, sizes) in parts:
            order = torch.randperm(sizes.size, generator=generator).numpy()
            total, spread_total, steps = 0.0, 0.0, 0
            for rows, unit, size in unit_batches(members, sizes, order, cfg.search_batch):
                rows = torch.from_numpy(rows).to(nets.device)
                z = logits(module, x[rows])
                loss = F.binary_cross_entropy_with_logits(z, y[rows])
                total += loss.item()
                if weight:
                    spread = ranking_term((torch.sigmoid(z) - y[rows]) @ to_equity, unit, size)
                    spread_total += spread.item()
                    loss = loss + weight * spread
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                optimizer.step()
                steps += 1
            losses[name] = total / steps
            if weight:
                losses[f"{name}_rank"] = spread_total / steps
    return losses


def _label_round(nets: Nets, cfg: Config, games: int, rng: np.random.Generator, round_no: int,
                 progress: bool) -> Labels:
    """Steps 1 to 3 of a round: its labelled positions (one class only with ``search_race_only`` or
    ``search_contact_only``)."""
    from tqdm import tqdm

    evaluator = nets.evaluator()
    ev = evaluator.kernel_args()
    played = SelfPlayer(evaluator, Starts(cfg.race_starts, cfg.scrambled_starts)).play_many(rng, games)
    boards, classes, decisions = round_positions(played, ev, cfg.search_candidates, rng, cfg.search_decision_every)
    if cfg.search_race_only or cfg.search_contact_only:
        keep = classes == (RACE if cfg.search_race_only else CONTACT)
        boards, classes, decisions = boards[keep], classes[keep], decisions_kept(decisions, keep)
    kind = f"{cfg.search_rollouts}-trial rollouts" if cfg.search_rollouts else f"{cfg.search_plies}-ply targets"
    with tqdm(total=boards.shape[0], unit="pos", desc=f"round {round_no + 1}: {kind}",
              disable=not progress, leave=False, dynamic_ncols=True, mininterval=1.0) as label_bar:
        if cfg.search_rollouts:
            targets = rollout_targets(boards, ev, cfg.search_rollouts, rng, label_bar, to_bearoff=cfg.rollouts_to_bearoff)
        else:
            targets = searched_targets(boards, ev, cfg.search_plies, label_bar)
    return Labels(boards, classes, targets, decisions)


def _labels_path(run_dir: Path, round_no: int) -> Path:
    return run_dir / "labels" / f"round-{round_no:04d}.npz"


def _write_labels(path: Path, labels: Labels) -> None:
    """A round's labelled positions, written atomically (temporary file, then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez_compressed(tmp, **labels._asdict())
    tmp.replace(path)


def _read_labels(path: Path) -> Labels:
    """A round's labelled positions (a file from before decisions were kept has none)."""
    try:
        with np.load(path) as saved:
            decisions = saved["decisions"] if "decisions" in saved.files else np.empty((0, 2), np.int32)
            return Labels(saved["boards"], saved["classes"], saved["targets"], decisions)
    except (OSError, KeyError, ValueError) as exc:
        raise CheckpointError(f"cannot read the labelled positions {str(path)!r} ({exc}); delete it to label that round again") from None


def joined(rounds: list[Labels]) -> Labels:
    """Several rounds' labelled positions as one (each round's decisions renumbered after the earlier ones')."""
    decisions, rows, numbers = [], 0, 0
    for labels in rounds:
        decisions.append(labels.decisions + np.array([rows, numbers], np.int32))
        rows += labels.boards.shape[0]
        numbers += int(labels.decisions[:, 1].max()) + 1 if labels.decisions.size else 0
    return Labels(*(np.concatenate(part) for part in zip(*(r[:3] for r in rounds))), np.concatenate(decisions))


def distill(cfg: Config, state: dict | None = None, *, resume: Path | None = None, device: str = "cpu",
            progress: bool = True) -> Path:
    """Run (or continue, from ``resume``'s checkpoint ``state``, not finished) a search-distillation run and
    return its folder, laid out as :func:`gammon.train.loop.train`'s (which calls this for ``method = "search"``)."""
    import torch
    from tqdm import tqdm

    from gammon.train.loop import check_eval_opponents, open_run, run_evaluation

    games = state["games"] if state is not None else 0
    opponents = check_eval_opponents(cfg)
    torch.set_num_threads(cfg.threads)
    nets = Nets(cfg, device)
    if state is not None:
        nets.load_state(state, str(resume))
        elapsed = state["elapsed"]
    else:
        if not cfg.init_model:
            raise ConfigError("method search needs init_model: the nets whose search teaches them (a TD-trained model)")
        nets.warm_start(load_model(cfg.init_model))
        elapsed = 0.0
    run_dir, writer = open_run(cfg, resume, games)
    bar = tqdm(total=cfg.total_games, initial=games, unit="game", disable=not progress, dynamic_ncols=True, mininterval=1.0)
    try:
        while games < cfg.total_games:
            started = time.perf_counter()
            round_no = games // cfg.search_games
            n = min(cfg.search_games, cfg.total_games - games)
            rng = np.random.default_rng([cfg.seed, round_no])
            labelled = _labels_path(run_dir, round_no)
            if labelled.exists():  # labelled before a stop: the same positions and targets again
                labels = _read_labels(labelled)
            else:
                labels = _label_round(nets, cfg, n, rng, round_no, progress)
                _write_labels(labelled, labels)
            memory = [_read_labels(_labels_path(run_dir, r)) for r in range(max(0, round_no - cfg.search_memory), round_no)]
            fitted = joined([*memory, labels])
            losses = fit(nets, *fitted[:3], cfg, seed=cfg.seed * 1_000_003 + round_no, decisions=fitted.decisions)
            games += n
            elapsed += time.perf_counter() - started
            bar.update(n)
            bar.set_postfix(positions=labels.boards.shape[0], loss=f"{losses.get('contact', losses.get('race', 0.0)):.4f}")
            for name, value in losses.items():
                writer.add_scalar(f"losses/{name}", value, games)
            writer.add_scalar("charts/positions_per_round", labels.boards.shape[0], games)
            writer.add_scalar("charts/round_seconds", time.perf_counter() - started, games)
            save_checkpoint(run_dir, {**nets.state(), "games": games, "updates": round_no + 1, "positions": labels.boards.shape[0],
                                      "elapsed": elapsed, "config": cfg.as_dict()})
            save_model(run_dir / "model.pt", nets.contact.state_dict(), nets.arch, games_trained=games,
                       config=cfg.as_dict(), **nets.save_args())
            if cfg.eval_every and games // cfg.eval_every > (games - n) // cfg.eval_every:
                run_evaluation(cfg, run_dir, nets, games, writer, bar, opponents)
    except (KeyboardInterrupt, SystemError) as exc:  # Ctrl-C, also as numba wraps it in a compiled call
        if not is_interrupt(exc):
            raise
        bar.close()
        print(f"stopped at {games} games (the last finished round); continue with: gammon train --resume {run_dir}")
        return run_dir
    finally:
        bar.close()
        writer.flush()
        writer.close()
    return run_dir
