"""benchmarks/match_errors.py: GNU Backgammon's per-game statistics are summed per player, and a real ``gnubg -t`` analyses."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from support import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "match_errors.py"
needs_gnubg = pytest.mark.skipif(shutil.which("/usr/games/gnubg") is None, reason="needs GNU Backgammon (/usr/games/gnubg)")


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(SCRIPT.parent))  # as when run as a script: GNU Backgammon's session is analysis.py's
    try:
        yield from load_script(SCRIPT, "match_errors_benchmark")
    finally:
        sys.modules.pop("analysis", None)
        sys.path.remove(str(SCRIPT.parent))


def _stats(unforced: int, cost: float, skill: float, close: int, cube_cost: float, cube_skill: float) -> dict:
    return {"moves": {"unforced-moves": unforced, "error-cost": cost, "error-skill": skill},
            "cube": {"close-cube": close, "error-cost": cube_cost, "error-skill": cube_skill}}


def test_totals_sum_each_players_games_over_all_matches(bench):
    # Given two matches, the first of two games, with each player's statistics per game
    analysed = [
        [{"a": _stats(10, 0.01, 0.10, 2, 0.001, 0.01), "b": _stats(12, 0.02, 0.20, 1, 0.0, 0.0)},
         {"a": _stats(5, 0.03, 0.30, 0, 0.0, 0.0), "b": _stats(6, 0.0, 0.0, 3, 0.004, 0.04)}],
        [{"b": _stats(7, 0.05, 0.50, 1, 0.002, 0.02), "a": _stats(8, 0.0, 0.0, 1, 0.0, 0.0)}],
    ]
    rows = bench.totals(analysed)
    # Then each player's figures are the sums of its own games, whichever seat it had
    assert rows["a"]["unforced moves"] == 23 and rows["b"]["unforced moves"] == 25
    assert rows["a"]["checker cost"] == pytest.approx(0.04) and rows["b"]["checker skill"] == pytest.approx(0.70)
    assert rows["a"]["close cube decisions"] == 3 and rows["b"]["cube cost"] == pytest.approx(0.006)


@needs_gnubg
def test_gnubg_analyses_played_matches_and_names_both_players(bench, tmp_path):
    paths = bench.play(("level1", "level3"), matches=2, length=1, seed=5, folder=tmp_path)
    rows = bench.totals(bench.analyse(paths, plies=0, folder=tmp_path))
    assert set(rows) == {"level1", "level3"}
    assert all(r["unforced moves"] > 0 and r["checker cost"] >= 0.0 for r in rows.values())
    # the weak level gives away more per unforced move than the stronger one, as GNU Backgammon judges them
    rate = {name: r["checker skill"] / r["unforced moves"] for name, r in rows.items()}
    assert rate["level1"] > rate["level3"]
