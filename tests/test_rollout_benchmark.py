"""benchmarks/rollout.py: gnubg's rollout output is parsed, and a real ``gnubg -t`` session rolls out and evaluates."""

from __future__ import annotations

import doctest
import shutil
import sys
from pathlib import Path

import pytest

from gammon.position import Position
from support import load_script

FOLDER = Path(__file__).resolve().parents[1] / "benchmarks"
needs_gnubg = pytest.mark.skipif(shutil.which("/usr/games/gnubg") is None, reason="needs GNU Backgammon (/usr/games/gnubg)")


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(FOLDER))  # as when run as a script: it reads the decisions with moves.py
    try:
        yield from load_script(FOLDER / "rollout.py", "rollout_benchmark")
    finally:
        sys.modules.pop("moves", None)
        sys.path.remove(str(FOLDER))


def test_doctests(bench):
    assert doctest.testmod(bench).failed == 0


def test_a_marker_without_a_result_before_it_is_an_error(bench):
    with pytest.raises(ValueError, match="no rollout result"):
        bench.parse_rollouts("Rollout done.\n@@ rollout 4HPwATDgc/ABMA 1.0\n")


@needs_gnubg
def test_gnubg_rolls_out_a_certain_win_and_sees_the_lopsided_position_from_the_side_on_roll(bench):
    # Given a position every roll wins (two checkers on the one point), and one the side on roll loses a gammon
    sure = Position.from_checkers({1: 2}, {24: 3}).position_id()
    # When one gnubg -t session rolls the first out (36 trials) and evaluates the second at 2-ply
    (rolled,), (lopsided,) = bench.gnubg_session([sure], [bench.LOPSIDED], trials=36, seed=1, timeout=120)
    # Then the rollout is a certain single win for the side on roll, and the evaluation a certain lost gammon
    assert rolled.position_id == sure and rolled.trials == 36 and rolled.seconds > 0
    assert rolled.probabilities.tolist() == [1.0, 0.0, 0.0, 0.0, 0.0] and rolled.equity == 1.0 and rolled.equity_se == 0.0
    assert lopsided[0] < 0.01 and lopsided[3] > 0.99 and lopsided[5] < -1.98
