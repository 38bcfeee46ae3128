"""The Ray backend: the units of a job on Ray actors, one CPU each, spread over the cluster's nodes.

Each actor builds the job's worker once. Units wait on the driver, lowest
number first, and go to the actor holding the fewest (at most
:data:`PER_ACTOR`: one playing, one waiting, so no actor idles on the
driver). When an actor dies (``ray.kill``, a crash, a lost node) the
:class:`ActorPool` replaces it and each unit it held is queued again with the
payload it was submitted with; results are kept by unit number, so each is
taken once and none is lost. :meth:`RayRunner.share` puts an object in Ray's
object store once; units carry its reference and an actor fetches it when
it needs it.

The worker class travels by reference: the cluster's nodes need gammon
installed (and any external bot an arena job names).
"""

from __future__ import annotations

import heapq
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from gammon.runners import Backend, Runner, RunnerError, require_ray

#: Units an actor holds at once.
PER_ACTOR = 2


@contextmanager
def ray_session(backend: Backend) -> Iterator[Any]:
    """Yield the ``ray`` module, connected; a Ray this call started is shut down on exit.

    An already initialised Ray (a test, a notebook, an enclosing session) is
    used as it is and left running.
    """
    ray = require_ray()
    started = False
    if not ray.is_initialized():
        check_reachable(backend.address)
        try:
            ray.init(address=backend.address, include_dashboard=False, logging_level="warning")
        except (ConnectionError, ValueError, RuntimeError) as exc:
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            where = backend.address or "this machine"
            raise RunnerError(f"cannot start or join Ray at {where}: {reason[:160]}") from None
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def check_reachable(address: str | None, timeout: float = 5.0) -> None:
    """A ``HOST:PORT`` address must accept a connection (Ray itself would retry for minutes).

    ``auto``, ``ray://`` addresses and None are left to Ray.

    >>> check_reachable("nowhere")
    Traceback (most recent call last):
    gammon.runners.RunnerError: invalid Ray address 'nowhere': expected auto, HOST:PORT or ray://HOST:PORT
    """
    if not address or address == "auto" or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise RunnerError(f"invalid Ray address {address!r}: expected auto, HOST:PORT or ray://HOST:PORT")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise RunnerError(f"cannot reach Ray at {address}: {exc.strerror or exc}") from None


def cluster_cpus(ray: Any) -> int:
    """CPUs of the connected Ray cluster (all nodes)."""
    return int(ray.cluster_resources().get("CPU", 0))


def check_actor_count(ray: Any, actors: int) -> int:
    """Each actor takes one CPU; asking for more than the cluster has would wait forever."""
    cpus = cluster_cpus(ray)
    if actors < 1:
        raise RunnerError(f"invalid number of Ray actors {actors}: expected at least 1")
    if actors > cpus:
        raise RunnerError(f"{actors} Ray actors need {actors} CPUs; the cluster has {cpus}")
    return actors


def lost_actor_errors(ray: Any) -> tuple[type[BaseException], ...]:
    """The exceptions that mean a unit's actor (or its node) is gone, not that the unit failed."""
    ex = ray.exceptions
    return (ex.RayActorError, ex.WorkerCrashedError, ex.NodeDiedError)


class ActorPool:
    """``n`` actors of one class, one CPU each, spread over the nodes; a dead one is replaced.

    ``handles[slot]`` is the current actor of each slot and ``generation[slot]``
    counts its replacements, so a caller that sees several failed units of one
    dead actor replaces it once. ``max_replacements`` stops a job whose actors
    keep dying (a node without gammon installed, a crash at start-up).
    """

    def __init__(self, ray: Any, cls: type, n: int, args: tuple = (), max_replacements: int | None = None) -> None:
        self.ray = ray
        self.args = args
        self.remote = ray.remote(num_cpus=1, max_restarts=0, scheduling_strategy="SPREAD")(cls)
        self.handles = [self.remote.remote(*args) for _ in range(n)]
        self.generation = [0] * n
        self.replaced = 0
        self.max_replacements = max(10, 2 * n) if max_replacements is None else max_replacements

    def __len__(self) -> int:
        return len(self.handles)

    def replace(self, slot: int, generation: int, cause: BaseException) -> None:
        """Replace the actor of ``slot`` if it is still the one of ``generation``."""
        if self.generation[slot] != generation:
            return
        if self.replaced >= self.max_replacements:
            reason = (str(cause).strip().splitlines() or [type(cause).__name__])[0]
            raise RunnerError(f"Ray actors keep dying ({self.replaced} replaced); last: {reason[:160]}")
        try:
            self.ray.kill(self.handles[slot])
        except Exception:  # already gone
            pass
        self.handles[slot] = self.remote.remote(*self.args)
        self.generation[slot] += 1
        self.replaced += 1
        print(f"gammon: a Ray actor died ({type(cause).__name__}); replaced it, its work is submitted again",
              file=sys.stderr)

    def close(self) -> None:
        for handle in self.handles:
            try:
                self.ray.kill(handle)
            except Exception:
                pass
        self.handles = []


class _Actor:
    """A Ray actor holding one worker of a job."""

    def __init__(self, worker: type, args: tuple) -> None:
        from gammon.runners import one_thread

        one_thread()
        self.worker = worker(*args)

    def run(self, payload: Any) -> Any:
        return self.worker.run(payload)


@dataclass(frozen=True)
class RayShared:
    """An object in Ray's object store (see :meth:`RayRunner.share`)."""

    ref: Any

    def get(self) -> Any:
        import ray

        return ray.get(self.ref)


class RayRunner(Runner):
    """The units of ``worker(*args)`` on Ray actors (see the module docstring).

    ``workers`` None: one actor per CPU of the cluster less ``spare``, at most ``most``.
    """

    def __init__(self, backend: Backend, worker: type, args: tuple, workers: int | None, *,
                 most: int | None = None, spare: int = 0) -> None:
        super().__init__()
        self._session = ray_session(backend)
        self.ray = self._session.__enter__()
        try:
            if workers is None:
                workers = max(1, cluster_cpus(self.ray) - spare)
            if most is not None:
                workers = min(workers, most)
            self.workers = check_actor_count(self.ray, workers)
            self.pool = ActorPool(self.ray, _Actor, workers, (worker, args))
        except BaseException:
            self._session.__exit__(None, None, None)
            raise
        self.backend = backend
        self._lost = lost_actor_errors(self.ray)
        self._payloads: dict[int, Any] = {}  # kept until taken, to run a unit again
        self._queue: list[int] = []  # a heap of the units waiting for an actor
        self._running: dict[Any, tuple[int, int, int]] = {}  # ref -> (unit, slot, generation)
        self._held = [0] * workers
        self._done: dict[int, Any] = {}
        self.resubmitted = 0
        self._closed = False

    def share(self, obj: Any) -> RayShared:
        return RayShared(self.ray.put(obj))

    def stats(self) -> dict[str, float]:
        return {"workers_replaced": self.pool.replaced, "units_resubmitted": self.resubmitted}

    def describe(self) -> str:
        return f"{self.workers} Ray actor{'s' if self.workers != 1 else ''} ({self.backend.describe()})"

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.pool.close()
        self._payloads, self._running, self._done = {}, {}, {}
        self._session.__exit__(None, None, None)

    def _send(self, number: int, payload: Any) -> None:
        self._payloads[number] = payload
        heapq.heappush(self._queue, number)
        self._dispatch()

    def _dispatch(self) -> None:
        while self._queue:
            slot = min(range(self.workers), key=self._held.__getitem__)
            if self._held[slot] >= PER_ACTOR:
                return
            number = heapq.heappop(self._queue)
            ref = self.pool.handles[slot].run.remote(self._payloads[number])
            self._running[ref] = (number, slot, self.pool.generation[slot])
            self._held[slot] += 1

    def _wait(self, number: int) -> Any:
        while number not in self._done:
            self._dispatch()
            ready, _ = self.ray.wait(list(self._running), num_returns=1)
            for ref in ready:
                self._collect(ref)
        del self._payloads[number]
        return self._done.pop(number)

    def _collect(self, ref: Any) -> None:
        number, slot, generation = self._running.pop(ref)
        current = generation == self.pool.generation[slot]
        if current:
            self._held[slot] -= 1
        try:
            result = self.ray.get(ref)
        except self._lost as exc:
            if current:
                self.pool.replace(slot, generation, exc)
                self._held[slot] = 0
            heapq.heappush(self._queue, number)
            self.resubmitted += 1
            return
        self._done[number] = result
