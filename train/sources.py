"""Where self-play games come from: the trainer process itself, or numbered units on a runner.

Both sources have the same methods: ``games(n)`` returns ``n`` new games,
``publish(weights)`` hands newer weights to the players, ``stats()`` gives
counters for TensorBoard, ``describe()`` one line for it, ``close()``.

* :class:`InlineSource` (``workers = 0`` on the local backend) plays in the
  trainer process, always with the newest weights and the trainer's dice
  generator: runs are exactly reproducible and resumable.
* :class:`UnitSource` plays on a :mod:`gammon.runners` runner: worker
  processes on this machine (``workers = N``) or Ray actors
  (``--backend ray``), the learner staying in the trainer process.

Units. Games are made in numbered units of ``unit_games`` games (one
update's worth, ``games_per_update``). Unit ``j`` is played with its own
dice, seeded from ``(seed, start_games, j)``, and with the weights that were
newest when it was submitted. ``inflight`` units are submitted ahead; each
time the learner takes unit ``j`` it submits unit ``j + inflight``, and it
takes units strictly in number order.

Staleness. With one unit per update, the games of update ``u`` were played
with the weights of update ``u - inflight``: self-play lags the learner by
exactly ``inflight`` updates (``ray_staleness`` in the config; by default
twice the processes that play, the workers and the learner with
``learner_plays``: enough to keep every worker busy and the learner's units
ahead), never more, whatever the speed of the workers. TD(lambda) targets
are recomputed by the learner with the current network, so only the
positions visited are stale, not the targets.

Determinism. A unit's games depend only on its seed and its weights, so a
run is a function of its config and ``inflight``: the same with 1 or 100
workers, local processes or Ray actors, with or without actors lost and
replaced (their units are run again, each taken once). Local processes used
to play free-running (each with its own generator and whatever weights it
had last seen, so runs were not repeatable); they now take the same units as
Ray actors, at about the same training games/s (within a few per cent on
two shared cores, measured as ``benchmarks/train.py`` does).

The learner's share. With ``learner_plays``, the learner plays the units
the workers have no time for: a new unit goes to the runner while fewer
than :data:`DEPTH` a worker are out there unfinished (one more while the
learner has a unit of its own still to play: with only two, the worker
ran dry a tenth of the time while the learner played one of its own), else
it stays with the learner, which plays it when it is due or, ahead of time,
while it waits for a worker's unit. On a machine with a core more than the workers
(one worker on two cores), two busy processes then share the cores instead
of three. Which process plays a unit changes no game: a unit's games
depend only on its seed and weights.

Resuming from a checkpoint starts a new numbering (units in flight at the
checkpoint are played again with the checkpoint's weights), so a resumed run
is not the same to the bit as an uninterrupted one, unlike inline self-play.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from gammon import runners
from gammon.net import Evaluator, Weights
from gammon.runners import Backend, Runner, RunnerError, Shared
from gammon.train.selfplay import Game, SelfPlayer, Starts

#: With ``learner_plays``: units a worker has out at once (one it plays, one queued; see ``UnitSource._depth``), the rest stay with the learner.
DEPTH = 2


def default_inflight(workers: int, learner_plays: bool) -> int:
    """The units in flight when the config leaves it open: twice the processes that play them."""
    return 2 * (max(1, workers) + (1 if learner_plays else 0))


class InlineSource:
    """Self-play in the trainer process with the trainer's generator."""

    def __init__(self, evaluator: Evaluator, rng: np.random.Generator, starts: Starts = Starts()) -> None:
        self.player = SelfPlayer(evaluator, starts)
        self.rng = rng

    def games(self, n: int) -> list[Game]:
        return self.player.play_many(self.rng, n)

    def publish(self, evaluator: Evaluator) -> None:
        self.player.evaluator = evaluator

    def stats(self) -> dict[str, float]:
        return {}

    def describe(self) -> str:
        return "self-play in the trainer process"

    def close(self) -> None:
        pass


class SelfPlayWorker:
    """A runner's worker: plays units ``(version, weights, seed, n)`` with the evaluator of that version."""

    def __init__(self, layout: dict, starts: Starts = Starts()) -> None:
        self.layout = layout
        self.starts = starts
        self.player: SelfPlayer | None = None
        self.version = -1

    def run(self, unit: tuple[int, Shared, tuple[int, ...], int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``n`` games as ``(all boards, turns + 1 of each game, points)``."""
        version, weights, seed, n = unit
        if version != self.version:
            self.use(version, Evaluator.from_flat(np.asarray(weights.get()), self.layout))
        return self.play(seed, n)

    def use(self, version: int, evaluator: Evaluator) -> None:
        """Play the next units with ``evaluator``, the weights of ``version``."""
        if self.player is None:
            self.player = SelfPlayer(evaluator, self.starts)
        self.player.evaluator = evaluator
        self.version = version

    def play(self, seed: tuple[int, ...], n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`run`'s games with the evaluator in use."""
        games = self.player.play_many(np.random.default_rng(seed), n)
        return (np.concatenate([g.boards for g in games]),
                np.array([g.boards.shape[0] for g in games], np.int64),
                np.array([g.points for g in games], np.int64))


@dataclass
class _Own:
    """A unit the learner plays: its seed, the evaluator of its weights version, then its result."""

    seed: tuple[int, ...]
    evaluator: Evaluator | None
    result: tuple | None = None


class UnitSource:
    """Self-play units on a runner, taken in order (see the module docstring)."""

    def __init__(self, runner: Runner, weights: Evaluator | Weights, seed: int, start_games: int, unit_games: int,
                 inflight: int | None = None, learner_plays: bool = False, starts: Starts = Starts()) -> None:
        self.runner = runner
        self.inflight = default_inflight(runner.workers, learner_plays) if inflight is None else inflight
        if self.inflight < 1:
            raise RunnerError(f"invalid inflight {self.inflight}: expected at least 1 unit")
        self.unit_games = unit_games
        self.seed = (int(seed), int(start_games))
        self.version = 0
        self._evaluator = Evaluator.of(weights)
        self._weights = runner.share(self._evaluator.flat())
        # each unit submitted and not taken: its weights version, and what the learner needs if it plays it
        self._queued: deque[tuple[int, _Own | None]] = deque()
        self._submitted = 0
        self._learner = SelfPlayWorker(self._evaluator.layout(), starts) if learner_plays and runner.workers else None
        self.learner_units = 0  # units the learner played
        self._pending: deque[Game] = deque()
        self.lag = 0  # updates between the weights of the last unit taken and the learner's
        self.taken = 0  # units taken
        self.recent_versions: deque[int] = deque(maxlen=1024)  # the weights version of the last units taken
        for _ in range(self.inflight):
            self._submit()

    def games(self, n: int) -> list[Game]:
        while len(self._pending) < n:
            version, own = self._queued.popleft()
            self.taken += 1
            self.recent_versions.append(version)
            self.lag = self.version - version
            if own is None:
                while self._learner is not None and not self.runner.ready() and self._play_ahead():
                    pass  # the learner's units ahead, while the worker's is not back
                boards, lengths, points = self.runner.take()
                self._submit()
            else:
                self._submit()  # first, so that the workers have it while the learner plays
                if own.result is None:
                    self._play(version, own)
                boards, lengths, points = own.result
            for b, p in zip(np.split(boards, np.cumsum(lengths)[:-1]), points):
                self._pending.append(Game(b, int(p)))
        return [self._pending.popleft() for _ in range(n)]

    def _play(self, version: int, own: _Own) -> None:
        self._learner.use(version, own.evaluator)
        own.result = self._learner.play(own.seed, self.unit_games)
        own.evaluator = None
        self.learner_units += 1

    def _play_ahead(self) -> bool:
        """Play the learner's first unit in the queue not yet played; False when there is none."""
        for version, own in self._queued:
            if own is not None and own.result is None:
                self._play(version, own)
                return True
        return False

    def publish(self, weights: Evaluator | Weights) -> None:
        self.version += 1
        self._evaluator = Evaluator.of(weights)
        self._weights = self.runner.share(self._evaluator.flat())

    def stats(self) -> dict[str, float]:
        """``staleness``: updates the last unit's weights were behind the learner's; the share of the units
        the learner played (with ``learner_plays``); the runner's counters."""
        shares = {} if self._learner is None else {"learner_share": self.learner_units / max(1, self.taken)}
        return {"staleness": self.lag, **shares, **self.runner.stats()}

    def describe(self) -> str:
        learner = ", the learner playing the units they have no time for" if self._learner is not None else ""
        return f"{self.runner.describe()}{learner}, self-play {self.inflight} updates behind the learner"

    def close(self) -> None:
        self.runner.close()

    def _depth(self) -> int:
        """Units a worker may have out (with ``learner_plays``): :data:`DEPTH`, one more while the learner has a
        unit of its own not yet played (work of its own, so the worker need not run dry meanwhile)."""
        return DEPTH + any(own is not None and own.result is None for _, own in self._queued)

    def _submit(self) -> None:
        seed = (*self.seed, self._submitted)
        self._submitted += 1
        if self._learner is not None and self.runner.outstanding() >= self._depth() * self.runner.workers:
            self._queued.append((self.version, _Own(seed, self._evaluator)))
            return
        self.runner.submit((self.version, self._weights, seed, self.unit_games))
        self._queued.append((self.version, None))


def open_source(backend: Backend, workers: int, weights: Evaluator | Weights, rng: np.random.Generator, *, seed: int,
                start_games: int, unit_games: int, inflight: int | None = None,
                learner_plays: bool = False, starts: Starts = Starts()) -> InlineSource | UnitSource:
    """The self-play source of a run: in the trainer (local, ``workers`` 0) or units on a runner.

    On Ray ``workers`` 0 means one actor per cluster CPU less one (the learner's).
    """
    if unit_games < 1:
        raise RunnerError(f"invalid unit size {unit_games}: expected at least 1 game")
    if not backend.is_ray and workers == 0:
        return InlineSource(weights, rng, starts)
    runner = runners.start(backend, SelfPlayWorker, (Evaluator.of(weights).layout(), starts), workers or None,
                           spare=1)
    try:
        return UnitSource(runner, weights, seed, start_games, unit_games, inflight, learner_plays, starts)
    except BaseException:
        runner.close()
        raise
