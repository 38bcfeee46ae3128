"""The runner interface on the local backend: units in order, each once, errors as one line."""

from __future__ import annotations

import os
from pathlib import Path

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
