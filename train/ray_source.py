"""Self-play on Ray actors: the third game source, beside those of :mod:`gammon.train.workers`.

The learner (the training loop) stays in the driver process and trains where
it was told to (``--device``); self-play actors, one CPU each, anywhere on the
cluster, play games with a recent copy of the weights.

How work flows. Games are made in numbered *units* of ``unit_games`` games
(by default one update's worth, ``games_per_update``). Unit ``j`` is played
with its own dice, seeded from ``(seed, start_games, j)``, and with the
weights that were newest when it was submitted. ``inflight`` units are
submitted ahead; each time the learner takes unit ``j`` it submits unit
``j + inflight``. The learner takes units strictly in number order, keeping
a unit that finished early until its turn.

Staleness. With one unit per update, the games of update ``u`` were played
with the weights of update ``u - inflight``: self-play lags the learner by
exactly ``inflight`` updates (``2 * actors`` by default, enough to keep every
actor busy), never more, whatever the speed of the actors. TD(lambda) targets
are recomputed by the learner with the current network, so only the
positions visited are stale, not the targets; ``benchmarks/RESULTS.md`` (the Ray section)
compares the strength of a run with and without this lag.

Determinism and fault tolerance. A unit's games depend only on its seed and
its weights, which the learner keeps until the unit is taken. When an actor
dies (``ray.kill``, a crash, a lost node) the :class:`~gammon.backend.ActorPool`
replaces it and each unit it held is submitted again with the same seed and
weights; units are accounted for by number, so each is trained on once and
none is lost. A run is therefore a function of its config, ``inflight`` and
``unit_games``: for a given ``inflight`` (``ray_staleness`` in the config)
the same with 1 or 100 actors, with or without failures. Resuming from a
checkpoint starts a new numbering (units in flight at the checkpoint are
played again with the checkpoint's weights), so a resumed run is not the
same to the bit as an uninterrupted one, unlike self-play in the trainer.

Weights travel through Ray's object store: one ``ray.put`` per publish, and
an actor fetches a version only when a unit needs it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from gammon.backend import ActorPool, Backend, BackendError, check_actor_count, cluster_cpus, lost_actor_errors, ray_session
from gammon.net import Architecture, Weights
from gammon.train.selfplay import Game, SelfPlayer


class SelfPlayActor:
    """A Ray actor (one CPU): plays units of games with the weights it is handed."""

    def __init__(self, arch: dict) -> None:
        self.arch = Architecture(**arch)
        self.player: SelfPlayer | None = None
        self.version = -1

    def play(self, version: int, weights: list, seed: tuple[int, ...], n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``n`` games as ``(all boards, turns + 1 of each game, points)``; ``weights`` is ``[ObjectRef]``."""
        if version != self.version:
            import ray

            current = Weights.from_flat(np.array(ray.get(weights[0])), self.arch)
            if self.player is None:
                self.player = SelfPlayer(current)
            self.player.weights = current
            self.version = version
        games = self.player.play_many(np.random.default_rng(seed), n)
        return (np.concatenate([g.boards for g in games]),
                np.array([g.boards.shape[0] for g in games], np.int64),
                np.array([g.points for g in games], np.int64))


@dataclass
class _Unit:
    number: int
    version: int
    weights: object  # the ObjectRef of its weights, kept until the unit is taken
    slot: int = -1
    generation: int = -1
    ref: object = None


class RaySource:
    """Self-play units on ``actors`` Ray actors, taken in order (see the module docstring).

    ``games(n)``, ``publish(weights)`` and ``close()`` as the sources of
    :mod:`gammon.train.workers`; ``stats()`` gives counters for TensorBoard.
    """

    def __init__(self, backend: Backend, actors: int, weights: Weights, seed: int, start_games: int,
                 unit_games: int, inflight: int | None = None) -> None:
        if unit_games < 1:
            raise BackendError(f"invalid unit size {unit_games}: expected at least 1 game")
        self._session = ray_session(backend)
        self.ray = self._session.__enter__()
        try:
            if actors == 0:  # one actor per CPU of the cluster, less one for the learner
                actors = max(1, cluster_cpus(self.ray) - 1)
            check_actor_count(self.ray, actors)
            self.actors = actors
            self.inflight = 2 * actors if inflight is None else inflight
            if self.inflight < 1:
                raise BackendError(f"invalid inflight {self.inflight}: expected at least 1 unit")
            self.unit_games = unit_games
            self.seed = (int(seed), int(start_games))
            self._lost = lost_actor_errors(self.ray)
            self.pool = ActorPool(self.ray, SelfPlayActor, actors, (weights.arch.as_dict(),))
        except BaseException:
            self._session.__exit__(None, None, None)
            raise
        self._closed = False
        self.version = 0
        self._weights_ref = self.ray.put(weights.flat())
        self._units: dict[int, _Unit] = {}
        self._next_take = 0
        self._next_submit = 0
        self._pending: deque[Game] = deque()
        self.resubmitted = 0
        self.lag = 0  # updates between the weights of the last unit taken and the learner's
        self.taken = 0  # units taken
        self.recent_versions: deque[int] = deque(maxlen=1024)  # the weights version of the last units taken
        for _ in range(self.inflight):
            self._submit_new()

    # -- the source protocol ---------------------------------------------------------------

    def games(self, n: int) -> list[Game]:
        while len(self._pending) < n:
            unit = self._units[self._next_take]
            boards, lengths, points = self._result(unit)
            del self._units[self._next_take]
            self._next_take += 1
            self.taken += 1
            self.recent_versions.append(unit.version)
            self.lag = self.version - unit.version
            self._submit_new()
            for b, p in zip(np.split(boards, np.cumsum(lengths)[:-1]), points):
                self._pending.append(Game(b, int(p)))
        return [self._pending.popleft() for _ in range(n)]

    def publish(self, weights: Weights) -> None:
        self.version += 1
        self._weights_ref = self.ray.put(weights.flat())

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.pool.close()
        self._units = {}
        self._session.__exit__(None, None, None)

    def stats(self) -> dict[str, float]:
        """``staleness``: updates the last unit's weights were behind the learner's; failures so far."""
        return {"staleness": self.lag, "actors_replaced": self.pool.replaced,
                "units_resubmitted": self.resubmitted}

    # -- units -----------------------------------------------------------------------------

    def _submit_new(self) -> None:
        unit = _Unit(self._next_submit, self.version, self._weights_ref)
        self._units[unit.number] = unit
        self._next_submit += 1
        self._send(unit)

    def _send(self, unit: _Unit) -> None:
        slot = unit.number % self.actors
        unit.slot, unit.generation = slot, self.pool.generation[slot]
        unit.ref = self.pool.handles[slot].play.remote(unit.version, [unit.weights], (*self.seed, unit.number), self.unit_games)

    def _result(self, unit: _Unit):
        while True:
            try:
                return self.ray.get(unit.ref)
            except self._lost as exc:
                # The actor of this unit is gone: replace it (once) and send again every unit it held.
                dead_slot, dead_generation = unit.slot, unit.generation
                self.pool.replace(dead_slot, dead_generation, exc)
                for other in self._units.values():
                    if other.slot == dead_slot and other.generation == dead_generation:
                        self._send(other)
                        self.resubmitted += 1
