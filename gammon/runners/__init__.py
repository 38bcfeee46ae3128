"""Where the work runs: one interface over worker processes on this machine and actors on a Ray cluster.

A job is a worker class and the arguments it is built with; a runner builds
one worker per process (or actor) once, then runs numbered *units* on them:
``submit(payload)`` numbers a unit, ``take()`` returns the result of the
oldest unit not yet taken, waiting for it if need be, so every result is
taken exactly once and in number order, whichever worker played it.
A unit must carry everything its result depends on (its seeds, the version
of the weights it plays with), which makes results independent of the
workers, of their number and of failures. ``map(payloads, progress)`` runs
a batch of units that way; ``share(obj)`` makes a large object (weights) that
many units refer to travel once where the backend can do that (Ray's object
store; shared memory for a numpy array and worker processes); ``stats()``
counts failures survived.

The arena (chunks of duplicate pairs, :mod:`gammon.arena.run`) and the
trainer (units of self-play games, :mod:`gammon.train.sources`) both run on
it. Backends:

* ``local`` (:mod:`gammon.runners.local`): ``workers`` processes started
  with ``spawn``; ``workers=0`` runs the units in the calling process.
* ``ray`` (:mod:`gammon.runners.ray`): Ray actors of one CPU each, on an
  existing cluster (``--address``) or a Ray started for the run; an actor
  that dies is replaced and its units are run again.

``gammon train`` and ``gammon eval`` share one switch: ``--backend local``
(the default) or ``--backend ray [--address ADDRESS]`` (with no address, Ray's
own rule: ``$RAY_ADDRESS``, else a cluster started on this machine with
``ray start``, else a new local Ray for the run, stopped after it). Ray is an
optional extra, ``pip install gammon[ray]``, imported only when asked for.

>>> with start(LOCAL, Doubler, (10,), workers=0) as runner:
...     list(runner.map([1, 2, 3]))
[10, 20, 30]
>>> Backend.from_options("ray", "auto").describe()
'Ray cluster at auto'
>>> Backend.from_options("local", "auto")
Traceback (most recent call last):
gammon.runners.RunnerError: --address auto needs --backend ray
"""

from __future__ import annotations

import argparse
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from gammon.errors import GammonError

__all__ = [
    "BACKENDS", "LOCAL", "Backend", "Doubler", "Local", "Runner", "RunnerError", "Shared", "Worker",
    "add_backend_arguments", "backend_from_args", "require_ray", "start",
]

BACKENDS = ("local", "ray")
INSTALL_HINT = "pip install gammon[ray]"


class RunnerError(GammonError):
    """Work that cannot run: a bad backend option, Ray missing or unreachable, a worker that died."""


@dataclass(frozen=True)
class Backend:
    """A backend choice: ``name`` is ``local`` or ``ray``; ``address`` a Ray cluster (None: Ray's default)."""

    name: str = "local"
    address: str | None = None

    @classmethod
    def from_options(cls, name: str, address: str | None) -> Backend:
        """Check a ``--backend`` / ``--address`` pair."""
        if name not in BACKENDS:
            raise RunnerError(f"unknown backend {name!r}: expected one of {', '.join(BACKENDS)}")
        if address is not None and name != "ray":
            raise RunnerError(f"--address {address} needs --backend ray")
        return cls(name, address or None)

    @property
    def is_ray(self) -> bool:
        return self.name == "ray"

    def describe(self) -> str:
        if not self.is_ray:
            return "local processes"
        return f"Ray cluster at {self.address}" if self.address else "Ray on this machine"


LOCAL = Backend()


def one_thread() -> None:
    """Keep a worker process or actor to one core: the runner's workers are the parallelism, so the
    searches' Numba threads (:mod:`gammon.engine.search`) would only oversubscribe the machine."""
    import numba

    numba.set_num_threads(1)


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--backend`` and ``--address`` options of ``gammon train`` and ``gammon eval``."""
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="local: worker processes on this machine (default); ray: Ray actors (pip install gammon[ray])")
    parser.add_argument("--address", default=None, metavar="ADDRESS",
                        help="with --backend ray: the cluster to join (auto, HOST:PORT, ray://HOST:10001); default: "
                             "$RAY_ADDRESS or a Ray started here with `ray start`, else a new local Ray for the run")


def backend_from_args(args: argparse.Namespace) -> Backend:
    return Backend.from_options(args.backend, args.address)


def require_ray() -> Any:
    """The ``ray`` module, or a one-line :class:`RunnerError` that says how to install it."""
    try:
        import ray
    except ImportError:
        raise RunnerError(f"the ray backend needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


class Worker(Protocol):
    """What a runner runs: built once per process or actor as ``cls(*args)``, then handed units."""

    def run(self, payload: Any) -> Any: ...


class Shared(Protocol):
    """A handle to an object many units use (see :meth:`Runner.share`); ``get()`` on the worker."""

    def get(self) -> Any: ...


@dataclass(frozen=True)
class Local:
    """A shared object that travels inside each unit (local processes, the calling process)."""

    value: Any

    def get(self) -> Any:
        return self.value


class Runner(ABC):
    """Numbered units on the workers of one job, results taken in order (see the module docstring).

    ``workers`` is the number of processes or actors (0: the calling process).
    A runner is a context manager; leaving it stops the workers.
    """

    workers: int

    def __init__(self) -> None:
        self._submitted = 0
        self._taken = 0

    def submit(self, payload: Any) -> int:
        """Queue one unit; returns its number (0, 1, 2 ... in submission order)."""
        number = self._submitted
        self._submitted += 1
        self._send(number, payload)
        return number

    def take(self) -> Any:
        """The result of the oldest unit not yet taken, waiting for it."""
        if self._taken == self._submitted:
            raise RunnerError("no unit to take: every submitted unit was taken")
        result = self._wait(self._taken)
        self._taken += 1
        return result

    def ready(self) -> bool:
        """Whether :meth:`take` would return at once (the oldest unit not taken has its result here).

        Runners that cannot tell without waiting say True.
        """
        return True

    def outstanding(self) -> int:
        """Units submitted whose results have not arrived; runners that cannot tell without waiting say
        :attr:`pending`."""
        return self.pending

    @property
    def pending(self) -> int:
        """Units submitted and not yet taken."""
        return self._submitted - self._taken

    def map(self, payloads: Iterable[Any], progress: Callable[[Any], None] | None = None) -> Iterator[Any]:
        """Run one unit per payload; yields the results in order, calling ``progress`` with each.

        Every unit is submitted at once: the backend hands them to workers as
        they become free, so a slow unit does not idle the others.
        """
        count = 0
        for payload in payloads:
            self.submit(payload)
            count += 1
        for _ in range(count):
            result = self.take()
            if progress is not None:
                progress(result)
            yield result

    def share(self, obj: Any) -> Shared:
        """A handle to ``obj`` for many units: it travels with each unit here; worker processes and Ray
        override this."""
        return Local(obj)

    def stats(self) -> dict[str, float]:
        """Counters of failures survived (workers replaced, units run again); empty when none can happen."""
        return {}

    def describe(self) -> str:
        return f"{self.workers} worker process{'es' if self.workers != 1 else ''}" if self.workers else "this process"

    def close(self) -> None:
        """Stop the workers; results not taken are dropped."""

    @abstractmethod
    def _send(self, number: int, payload: Any) -> None: ...

    @abstractmethod
    def _wait(self, number: int) -> Any: ...

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Doubler:
    """A worker for examples and tests: multiplies each payload by its ``factor``."""

    def __init__(self, factor: int) -> None:
        self.factor = factor

    def run(self, payload: Any) -> Any:
        return payload * self.factor


def start(backend: Backend, worker: type, args: tuple = (), workers: int | None = None, *,
          most: int | None = None, spare: int = 0) -> Runner:
    """A runner for the job ``worker(*args)`` on ``backend``.

    ``workers``: processes (0: the calling process) or Ray actors; None is one
    per CPU (of this machine, or of the Ray cluster) less ``spare``. ``most``
    caps the number (a job of few units needs no more workers than units).
    """
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 0):
        raise RunnerError(f"invalid number of workers {workers!r}: expected 0 or more")
    if backend.is_ray:
        from gammon.runners.ray import RayRunner

        return RayRunner(backend, worker, args, workers, most=most, spare=spare)
    from gammon.runners.local import InlineRunner, ProcessRunner

    if workers is None:
        workers = max(1, (os.cpu_count() or 1) - spare)
    if most is not None:
        workers = min(workers, most)
    return ProcessRunner(worker, args, workers) if workers > 0 else InlineRunner(worker, args)
