"""Where self-play games come from: the trainer process itself, or worker processes.

Both sources have the same three methods: ``games(n)`` returns ``n`` new
games, ``publish(weights)`` hands newer weights to the players, ``close()``.

* :class:`InlineSource` plays in the trainer process, always with the newest
  weights and the trainer's dice generator: runs are exactly reproducible
  and resumable.
* :class:`WorkerPool` runs ``n`` processes (``spawn``: no torch in them)
  that play continuously with the most recent weights they have seen; the
  trainer publishes weights through shared memory after every update and
  reads finished games from a queue. Games may come from weights a few
  updates old, as in any asynchronous actor-learner setup.
"""

from __future__ import annotations

import multiprocessing as mp
import queue as queue_mod
import signal

import numpy as np

from gammon.net import Architecture, Weights
from gammon.train.selfplay import Game, SelfPlayer

#: Games a worker sends per message.
CHUNK = 4


class InlineSource:
    """Self-play in the trainer process with the trainer's generator."""

    def __init__(self, weights: Weights, rng: np.random.Generator) -> None:
        self.player = SelfPlayer(weights)
        self.rng = rng

    def games(self, n: int) -> list[Game]:
        return self.player.play_many(self.rng, n)

    def publish(self, weights: Weights) -> None:
        self.player.weights = weights

    def close(self) -> None:
        pass


def _worker(index, seed, arch_dict, shared, version, queue, stop) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the trainer's to handle
    arch = Architecture(**arch_dict)
    rng = np.random.default_rng(seed)
    buf = np.frombuffer(shared.get_obj(), dtype=np.float32)
    seen = -1
    player = None
    while not stop.is_set():
        if version.value != seen:
            with shared.get_lock():
                flat = buf.copy()
                seen = version.value
            player = SelfPlayer(Weights.from_flat(flat, arch))
        payload = [(g.boards, g.points) for g in player.play_many(rng, CHUNK)]
        while not stop.is_set():
            try:
                queue.put(payload, timeout=0.2)
                break
            except queue_mod.Full:
                continue


class WorkerPool:
    """``n`` self-play processes fed with weights through shared memory."""

    def __init__(self, n: int, weights: Weights, seed: int, start_games: int) -> None:
        ctx = mp.get_context("spawn")
        self.arch = weights.arch
        self.shared = ctx.Array("f", Weights.flat_size(self.arch))
        self.version = ctx.Value("q", 0)
        self.queue = ctx.Queue(maxsize=4 * n)
        self.stop = ctx.Event()
        self._pending: list[Game] = []
        self.publish(weights)
        self.procs = []
        for i in range(n):
            worker_seed = np.random.SeedSequence([seed, i, start_games])
            p = ctx.Process(
                target=_worker,
                args=(i, worker_seed, self.arch.as_dict(), self.shared, self.version, self.queue, self.stop),
                daemon=True,
                name=f"gammon-selfplay-{i}",
            )
            p.start()
            self.procs.append(p)

    def publish(self, weights: Weights) -> None:
        flat = weights.flat()
        with self.shared.get_lock():
            np.frombuffer(self.shared.get_obj(), dtype=np.float32)[:] = flat
            self.version.value += 1

    def games(self, n: int) -> list[Game]:
        while len(self._pending) < n:
            try:
                payload = self.queue.get(timeout=60)
            except queue_mod.Empty:
                dead = [p.name for p in self.procs if not p.is_alive()]
                if dead:
                    raise RuntimeError(f"self-play worker(s) died: {', '.join(dead)}") from None
                continue
            self._pending.extend(Game(boards, points) for boards, points in payload)
        out, self._pending = self._pending[:n], self._pending[n:]
        return out

    def close(self) -> None:
        self.stop.set()
        try:
            while True:
                self.queue.get_nowait()
        except (queue_mod.Empty, OSError, ValueError):
            pass
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
                p.join(timeout=5)
        self.queue.cancel_join_thread()
