"""``gammon demo``: the caption before the board it describes, the final board, --explain, redrawing in place."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gammon.play import Move
from gammon.position import Position
from gammon.records import Action
from gammon.tui.explain import Explainer

ROOT = Path(__file__).resolve().parents[1]


def demo(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "gammon", "demo", "--delay", "0", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_each_caption_comes_before_the_board_it_describes():
    lines = demo("--players", "level3", "level1", "--match", "1", "--seed", "4", "--no-color")
    captions = [i for i, line in enumerate(lines) if " rolls " in line and " and " in line]
    assert captions
    for i in captions:
        following = next(line for line in lines[i + 1:] if not line.startswith("   "))
        assert following.startswith(" GNU Backgammon  Position ID:")


def test_the_final_board_follows_the_win():
    lines = demo("--players", "level3", "level1", "--match", "1", "--seed", "4", "--no-color")
    win = max(i for i, line in enumerate(lines) if " wins " in line and "point" in line and "Score" not in line)
    assert lines[win + 1].startswith(" GNU Backgammon  Position ID:")
    board = "\n".join(lines[win + 1:win + 22])
    assert "Borne off  X: 15" in board or "O: 15" in board


def test_explain_names_terms_as_they_happen():
    text = "\n".join(demo("--players", "level3", "level1", "--match", "3", "--seed", "4", "--explain", "--no-color"))
    for term in ("(hit) a checker landing", "(bar) a checker on the bar", "(entering) a checker comes in",
                 "(bearing off) once all 15", "(cube) before rolling"):
        assert term in text
    assert text.count("(hit) a checker landing") == 1  # explained once, then just named
    assert "(hit)\n" in text or "(hit) (bar)" in text


def test_explainer_names_prime_gammon_blocked_and_crawford():
    ex = Explainer()
    prime = Position.from_checkers({4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 13: 3}, {24: 2})
    assert ex.notes(Action(0, "move", dice=(1, 2), moves=(Move(13, 12), Move(13, 11))), prime, False)[0].startswith(
        "(prime) six blocked points")
    assert ex.notes(Action(1, "move", dice=(6, 6)), None, False)[0].startswith("(blocked)")
    assert ex.notes(Action(1, "win", value=2, points=2), None, False)[0].startswith("(gammon)")
    assert ex.notes(Action(0, "start", dice=(3, 1)), None, True)[0].startswith("(Crawford game)")


pexpect = pytest.importorskip("pexpect")


def test_on_a_terminal_the_board_is_redrawn_in_place():
    child = pexpect.spawn(sys.executable, ["-m", "gammon", "demo", "--players", "random", "random", "--match", "1",
                                           "--seed", "1", "--delay", "0.001"], encoding="utf-8", timeout=120,
                          cwd=str(ROOT), env={**os.environ, "PYTHONUNBUFFERED": "1"})
    child.expect_exact("\x1b[H\x1b[2J")
    child.expect(r"Final score")
    child.expect(pexpect.EOF)
