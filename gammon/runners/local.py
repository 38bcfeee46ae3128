"""The local backend: the units of a job in worker processes on this machine, or in the calling process.

:class:`ProcessRunner` starts ``n`` processes (``spawn``: a clean
interpreter, no torch unless the worker imports it), each building its
worker once; units go out through one shared queue, so a free process takes
the next unit, and results come back through another, keyed by unit number.
Workers ignore Ctrl-C (the caller decides what it means). A process that dies
is reported as a one-line :class:`~gammon.runners.RunnerError` rather than
waited for; a unit that raises raises the same error in the caller.

:class:`InlineRunner` runs each unit in the calling process when it is
taken: no start-up cost, for one worker.
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import queue as queue_mod
import signal
import time
from typing import Any

from gammon.runners import Runner, RunnerError

#: Seconds between checks that the worker processes are alive while waiting for a result.
POLL = 1.0


class _Failure:
    """An exception raised in a worker, sent back to be raised in the caller."""

    def __init__(self, exc: BaseException) -> None:
        try:
            pickle.dumps(exc)
        except Exception:
            exc = RuntimeError(f"{type(exc).__name__}: {exc}")
        self.exc = exc


def _serve(worker: type, args: tuple, tasks: Any, results: Any) -> None:
    """A worker process: build the worker, then run units until the ``None`` that stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    results.cancel_join_thread()  # at the stop, results nobody will read may be dropped
    try:
        instance = worker(*args)
    except BaseException as exc:
        results.put((-1, _Failure(exc)))
        return
    while (task := tasks.get()) is not None:
        number, payload = task
        try:
            out = instance.run(payload)
        except BaseException as exc:
            out = _Failure(exc)
        results.put((number, out))


class ProcessRunner(Runner):
    """``workers`` processes, each with one ``worker(*args)``, fed numbered units."""

    def __init__(self, worker: type, args: tuple, workers: int) -> None:
        super().__init__()
        if workers < 1:
            raise RunnerError(f"invalid number of worker processes {workers}: expected at least 1")
        self.workers = workers
        ctx = mp.get_context("spawn")
        self._tasks = ctx.Queue()
        self._results = ctx.Queue()
        self._done: dict[int, Any] = {}
        self._procs = [ctx.Process(target=_serve, args=(worker, args, self._tasks, self._results), daemon=True,
                                   name=f"gammon-{worker.__name__}-{i}") for i in range(workers)]
        for p in self._procs:
            p.start()

    def _send(self, number: int, payload: Any) -> None:
        self._tasks.put((number, payload))

    def _wait(self, number: int) -> Any:
        while number not in self._done:
            try:
                got, out = self._results.get(timeout=POLL)
            except queue_mod.Empty:
                dead = [p for p in self._procs if not p.is_alive()]
                if dead:
                    raise RunnerError(f"worker process {dead[0].name} died (exit code {dead[0].exitcode})") from None
                continue
            if isinstance(out, _Failure):
                raise out.exc
            self._done[got] = out
        return self._done.pop(number)

    def close(self) -> None:
        if not self._procs:
            return
        procs, self._procs = self._procs, []
        for _ in procs:
            self._tasks.put(None)
        deadline = time.monotonic() + 5
        while any(p.is_alive() for p in procs) and time.monotonic() < deadline:
            try:  # keep the result pipe flowing so that no worker blocks on a full one
                self._results.get(timeout=0.05)
            except (queue_mod.Empty, OSError, ValueError, EOFError):
                pass
        for p in procs:
            if p.is_alive():
                p.terminate()
            p.join(timeout=5)
        for q in (self._tasks, self._results):
            q.cancel_join_thread()
            q.close()
        self._done = {}


class InlineRunner(Runner):
    """The units of ``worker(*args)`` in the calling process, each run when it is taken."""

    workers = 0

    def __init__(self, worker: type, args: tuple) -> None:
        super().__init__()
        self._worker = worker(*args)
        self._payloads: dict[int, Any] = {}

    def _send(self, number: int, payload: Any) -> None:
        self._payloads[number] = payload

    def _wait(self, number: int) -> Any:
        return self._worker.run(self._payloads.pop(number))

    def close(self) -> None:
        self._payloads = {}
