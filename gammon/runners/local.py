"""The local backend: the units of a job in worker processes on this machine, or in the calling process.

:class:`ProcessRunner` starts ``n`` processes (``spawn``: a clean
interpreter, no torch unless the worker imports it), each building its
worker once; units go out through one shared queue, so a free process takes
the next unit, and results come back keyed by unit number through a pipe per
process (a process that dies mid-message closes its pipe instead of leaving
the caller waiting for the rest). A numpy array many units use (the weights
of self-play) goes through shared memory (:meth:`~ProcessRunner.share`): the
units carry its name, not its bytes (pickling the 450 KB of `td2.pt`'s
weights into a pipe and out again took about 0.4 ms of CPU a unit, the
two processes together; writing them into shared memory and copying them
out, 0.04 ms).
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
import threading
import time
import weakref
from multiprocessing.connection import Connection, wait
from multiprocessing.shared_memory import SharedMemory
from typing import Any

import numpy as np

from gammon.runners import Local, Runner, RunnerError, one_thread

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


#: The shared-memory blocks this process has attached, by name (a worker attaches each block once).
_attached: dict[str, SharedMemory] = {}


class SharedArray:
    """A numpy array in a shared-memory block of a :class:`ProcessRunner` (see :meth:`ProcessRunner.share`).

    It pickles to its name, shape and dtype; :meth:`get` in a worker process
    returns a copy of the array (the block is written again once no unit
    refers to it any more).
    """

    __slots__ = ("name", "shape", "dtype", "__weakref__")

    def __init__(self, name: str, shape: tuple[int, ...], dtype: str) -> None:
        self.name, self.shape, self.dtype = name, shape, dtype

    def __reduce__(self):
        return SharedArray, (self.name, self.shape, self.dtype)

    def get(self) -> np.ndarray:
        block = _attached.get(self.name)
        if block is None:
            block = _attached[self.name] = SharedMemory(self.name)
        return np.ndarray(self.shape, self.dtype, buffer=block.buf).copy()


def _send_all(outbox: queue_mod.SimpleQueue, results: Connection) -> None:
    while (item := outbox.get()) is not None:
        results.send(item)


def _serve(worker: type, args: tuple, tasks: Any, results: Connection) -> None:
    """A worker process: build the worker, then run units until the ``None`` that stops it.

    Results leave through this process's own pipe, sent by a thread so that
    the next unit starts while the caller is busy: a process that dies
    mid-message closes its pipe, which the caller sees, where a shared
    queue would leave it waiting for the rest of the message.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    one_thread()
    outbox: queue_mod.SimpleQueue = queue_mod.SimpleQueue()
    sender = threading.Thread(target=_send_all, args=(outbox, results), daemon=True)
    sender.start()
    try:
        instance = worker(*args)
    except BaseException as exc:
        outbox.put((-1, _Failure(exc)))
    else:
        while (task := tasks.get()) is not None:
            number, payload = task
            try:
                out = instance.run(payload)
            except BaseException as exc:
                out = _Failure(exc)
            outbox.put((number, out))
    outbox.put(None)
    sender.join()


class ProcessRunner(Runner):
    """``workers`` processes, each with one ``worker(*args)``, fed numbered units."""

    def __init__(self, worker: type, args: tuple, workers: int) -> None:
        super().__init__()
        if workers < 1:
            raise RunnerError(f"invalid number of worker processes {workers}: expected at least 1")
        self.workers = workers
        ctx = mp.get_context("spawn")
        self._tasks = ctx.Queue()
        self._done: dict[int, Any] = {}
        self._payloads: dict[int, Any] = {}  # kept until taken: the shared arrays they refer to stay
        self._blocks: list[SharedMemory] = []  # every block of share(), to unlink at close
        self._free: list[SharedMemory] = []  # blocks no handle refers to any more
        self._procs: list[Any] = []
        self._pipes: dict[Connection, Any] = {}  # the reading end of each process's results pipe -> process
        for i in range(workers):
            reader, writer = ctx.Pipe(duplex=False)
            p = ctx.Process(target=_serve, args=(worker, args, self._tasks, writer), daemon=True,
                            name=f"gammon-{worker.__name__}-{i}")
            p.start()
            writer.close()  # the child's end: once the child is gone the pipe reports end of file
            self._procs.append(p)
            self._pipes[reader] = p

    def _send(self, number: int, payload: Any) -> None:
        self._payloads[number] = payload
        self._tasks.put((number, payload))

    def share(self, obj: Any) -> SharedArray | Local:
        """A numpy array in a shared-memory block (any other object, or any array where this system has no
        shared memory, travels with each unit).

        The block is written again only after every unit submitted with the
        handle has been taken and the caller has dropped the handle itself.
        """
        if not isinstance(obj, np.ndarray) or obj.nbytes == 0:
            return Local(obj)
        fits = [b for b in self._free if b.size >= obj.nbytes]
        if fits:
            block = fits[0]
            self._free.remove(block)
        else:
            try:
                block = SharedMemory(create=True, size=obj.nbytes)
            except OSError:  # no /dev/shm (some containers): the slower way still works
                return Local(obj)
            self._blocks.append(block)
        np.ndarray(obj.shape, obj.dtype, buffer=block.buf)[...] = obj
        handle = SharedArray(block.name, obj.shape, obj.dtype.str)
        weakref.finalize(handle, self._free.append, block)
        return handle

    def ready(self) -> bool:
        if self._taken == self._submitted:
            return True  # take says there is nothing to take
        if self._taken not in self._done:
            self._receive(0.0)
        return self._taken in self._done

    def outstanding(self) -> int:
        if self.pending > len(self._done):
            self._receive(0.0)
        return self.pending - len(self._done)

    def _wait(self, number: int) -> Any:
        while number not in self._done:
            self._receive(POLL)
        self._payloads.pop(number, None)
        return self._done.pop(number)

    def _receive(self, timeout: float) -> None:
        """Read the results that arrive within ``timeout`` seconds into ``_done``."""
        if not self._pipes:
            raise RunnerError("every worker process has stopped")
        for reader in wait(list(self._pipes), timeout=timeout):
            try:
                got, out = reader.recv()
            except (EOFError, OSError):
                p = self._pipes.pop(reader)
                p.join(timeout=1)
                raise RunnerError(f"worker process {p.name} died (exit code {p.exitcode})") from None
            if isinstance(out, _Failure):
                raise out.exc
            self._done[got] = out

    def close(self) -> None:
        if not self._procs:
            return
        procs, self._procs = self._procs, []
        while True:  # units not started yet are dropped (a caller stopped early, e.g. by Ctrl-C)
            try:
                self._tasks.get_nowait()
            except queue_mod.Empty:
                break
        for _ in procs:
            self._tasks.put(None)
        pipes, self._pipes = list(self._pipes), {}
        open_pipes, deadline = list(pipes), time.monotonic() + 5
        while open_pipes and (left := deadline - time.monotonic()) > 0:
            for reader in wait(open_pipes, timeout=left):  # drain, so that no worker blocks on a full pipe
                try:
                    reader.recv()
                except (EOFError, OSError):  # that worker has exited
                    open_pipes.remove(reader)
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
                p.join(timeout=5)
        for reader in pipes:
            reader.close()
        self._tasks.cancel_join_thread()
        self._tasks.close()
        self._done = {}
        self._payloads = {}
        blocks, self._blocks, self._free = self._blocks, [], []
        for block in blocks:
            block.close()
            block.unlink()


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
