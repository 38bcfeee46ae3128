"""The runner interface on the local backend: units in order, each once, errors as one line."""

from __future__ import annotations

import gc
import os
import pickle
from multiprocessing.shared_memory import SharedMemory
from pathlib import Path

import numpy as np
import pytest

from gammon import runners
from gammon.cli import main
from gammon.runners import LOCAL, Doubler, RunnerError

QUICK = Path(__file__).resolve().parents[1] / "configs" / "td-quick.toml"


class Slow:
    """A worker whose first units take longest, so they finish last."""

    def __init__(self) -> None:
        pass

    def run(self, payload: int) -> tuple[int, int]:
        import time

        time.sleep(0.05 * max(0, 4 - payload))
        return payload, os.getpid()


class Dies:
    def run(self, payload: int) -> int:
        os._exit(3)


class Fails:
    def run(self, payload: int) -> int:
        raise ValueError(f"bad unit {payload}")


class Reads:
    """A worker that returns the shared array a unit refers to, times the unit's factor."""

    def run(self, payload: tuple) -> np.ndarray:
        shared, factor = payload
        return shared.get() * factor


def test_results_come_in_unit_order_whichever_process_finished_first():
    # Given two processes and units that finish in reverse order
    with runners.start(LOCAL, Slow, (), workers=2) as runner:
        # When they are mapped
        seen: list = []
        results = list(runner.map(range(8), seen.append))
    # Then each result is taken once, in unit order, and both processes worked
    assert [n for n, _ in results] == list(range(8)) and seen == results
    assert len({pid for _, pid in results}) == 2


def test_units_can_be_submitted_and_taken_one_by_one():
    with runners.start(LOCAL, Doubler, (3,), workers=1) as runner:
        assert [runner.submit(p) for p in (1, 2)] == [0, 1]
        assert runner.take() == 3 and runner.pending == 1
        runner.submit(5)
        assert (runner.take(), runner.take()) == (6, 15)
        with pytest.raises(RunnerError, match="no unit to take"):
            runner.take()


def test_zero_workers_run_the_units_in_this_process():
    with runners.start(LOCAL, Slow, (), workers=0) as runner:
        assert [pid for _, pid in runner.map(range(3))] == [os.getpid()] * 3
        assert runner.stats() == {} and runner.describe() == "this process"


def test_a_unit_that_raises_raises_in_the_caller():
    with runners.start(LOCAL, Fails, (), workers=1) as runner, pytest.raises(ValueError, match="bad unit 7"):
        list(runner.map([7]))


def test_a_worker_process_that_dies_is_a_one_line_error_not_a_hang():
    with runners.start(LOCAL, Dies, (), workers=1) as runner, pytest.raises(RunnerError, match=r"died \(exit code 3\)"):
        list(runner.map([1]))


def test_bad_backend_options_are_one_line_errors(capsys):
    with pytest.raises(RunnerError, match="invalid number of workers -1"):
        runners.start(LOCAL, Doubler, (1,), workers=-1)
    with pytest.raises(RunnerError, match="unknown backend 'spark'"):
        runners.Backend.from_options("spark", None)
    assert main(["train", "--config", str(QUICK), "--address", "auto"]) == 2
    err = capsys.readouterr().err
    assert "--address auto needs --backend ray" in err and err.count("\n") == 1


def test_a_shared_array_reaches_the_worker_processes_by_name_through_shared_memory():
    weights = np.arange(100_000, dtype=np.float32)
    with runners.start(LOCAL, Reads, (), workers=2) as runner:
        shared = runner.share(weights)
        assert len(pickle.dumps(shared)) < 200  # a unit carries its name, not its 400 KB
        results = list(runner.map([(shared, k) for k in range(4)]))
        assert runner.share({"not": "an array"}).get() == {"not": "an array"}  # anything else travels with each unit
    assert all(np.array_equal(r, weights * k) for k, r in enumerate(results))


def test_a_shared_block_is_written_again_only_once_its_units_are_taken_and_its_handle_dropped():
    with runners.start(LOCAL, Reads, (), workers=1) as runner:
        first = runner.share(np.ones(1000, np.float32))
        name = first.name
        runner.submit((first, 1))
        del first
        second = runner.share(np.full(1000, 2, np.float32))
        assert second.name != name  # the first's unit is not taken yet: its block is kept
        assert np.array_equal(runner.take(), np.ones(1000))  # the unit read its own array
        gc.collect()
        third = runner.share(np.full(1000, 3, np.float32))
        assert third.name == name  # free again
        runner.submit((second, 1))
        assert np.array_equal(runner.take(), np.full(1000, 2))
    with pytest.raises(FileNotFoundError):
        SharedMemory(name)  # closing the runner removed its blocks


def test_without_shared_memory_a_shared_array_travels_with_each_unit(monkeypatch):
    from gammon.runners import local

    def unavailable(*args, **kwargs):
        raise OSError("no /dev/shm")

    monkeypatch.setattr(local, "SharedMemory", unavailable)
    with runners.start(LOCAL, Reads, (), workers=1) as runner:
        shared = runner.share(np.arange(10, dtype=np.float32))
        assert isinstance(shared, runners.Local)
        runner.submit((shared, 2))
        assert np.array_equal(runner.take(), np.arange(10) * 2)
