"""Where the work runs: worker processes on this machine, or actors on a Ray cluster.

``gammon train`` and ``gammon eval`` share one switch: ``--backend local``
(the default: worker processes on this machine) or ``--backend ray
[--address ADDRESS]`` (Ray actors on an existing cluster; with no address,
Ray's own rule: ``$RAY_ADDRESS``, else a cluster started on this machine with
``ray start``, else a new local Ray for the run, stopped after it). Ray is an
optional extra, ``pip install gammon[ray]``; it is imported only when the Ray
backend is asked for.

Both Ray users (self-play in :mod:`gammon.train.ray_source`, the arena in
:mod:`gammon.arena_ray`) keep their actors in an :class:`ActorPool`, which
replaces an actor that dies. Their work units carry their own seeds and are
accounted for by number on the driver, so a unit lost with an actor is
simply submitted again and its result is taken once.

>>> Backend.from_options("local", None)
Backend(name='local', address=None)
>>> Backend.from_options("ray", "auto").describe()
'Ray cluster at auto'
>>> Backend.from_options("local", "auto")
Traceback (most recent call last):
gammon.backend.BackendError: --address auto needs --backend ray
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from gammon.errors import GammonError

BACKENDS = ("local", "ray")
INSTALL_HINT = "pip install gammon[ray]"


class BackendError(GammonError):
    """A backend that cannot be used: Ray missing, a bad address, more actors than CPUs."""


@dataclass(frozen=True)
class Backend:
    """A backend choice: ``name`` is ``local`` or ``ray``; ``address`` a Ray cluster (None: start one here)."""

    name: str = "local"
    address: str | None = None

    @classmethod
    def from_options(cls, name: str, address: str | None) -> Backend:
        """Check a ``--backend`` / ``--address`` pair."""
        if name not in BACKENDS:
            raise BackendError(f"unknown backend {name!r}: expected one of {', '.join(BACKENDS)}")
        if address is not None and name != "ray":
            raise BackendError(f"--address {address} needs --backend ray")
        return cls(name, address or None)

    @property
    def is_ray(self) -> bool:
        return self.name == "ray"

    def describe(self) -> str:
        if not self.is_ray:
            return "local processes"
        return f"Ray cluster at {self.address}" if self.address else "Ray on this machine"


LOCAL = Backend()


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
    """The ``ray`` module, or a one-line :class:`BackendError` that says how to install it."""
    try:
        import ray
    except ImportError:
        raise BackendError(f"the ray backend needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


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
            raise BackendError(f"cannot start or join Ray at {where}: {reason[:160]}") from None
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def check_reachable(address: str | None, timeout: float = 5.0) -> None:
    """A ``HOST:PORT`` address must accept a connection (Ray itself would retry for minutes).

    ``auto``, ``ray://`` addresses and None are left to Ray.
    """
    if not address or address == "auto" or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise BackendError(f"invalid Ray address {address!r}: expected auto, HOST:PORT or ray://HOST:PORT")
    import socket

    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise BackendError(f"cannot reach Ray at {address}: {exc.strerror or exc}") from None


def cluster_cpus(ray: Any) -> int:
    """CPUs of the connected Ray cluster (all nodes)."""
    return int(ray.cluster_resources().get("CPU", 0))


def check_actor_count(ray: Any, actors: int) -> int:
    """Each actor takes one CPU; asking for more than the cluster has would wait forever."""
    cpus = cluster_cpus(ray)
    if actors < 1:
        raise BackendError(f"invalid number of Ray actors {actors}: expected at least 1")
    if actors > cpus:
        raise BackendError(f"{actors} Ray actors need {actors} CPUs; the cluster has {cpus}")
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
            raise BackendError(f"Ray actors keep dying ({self.replaced} replaced); last: {reason[:160]}")
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
