"""Helpers the tests share: driving `gammon` in a pseudo-terminal, and loading a benchmark script as a module."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
#: Every prompt of the human player in `gammon play` and `gammon tournament`.
PROMPT = r"you, (move (\d)-(\d):|roll or double\? \[roll\]|play [^?\r\n]+\? \[Enter = yes, undo = take back\]|take or pass\?) "


def spawn(*args: str, env: dict[str, str] | None = None, timeout: int = 90):
    """``python -m gammon ARGS`` on a 60x160 pseudo-terminal (pexpect), unbuffered, ``env`` added."""
    import pexpect

    return pexpect.spawn(sys.executable, ["-m", "gammon", *args], encoding="utf-8", timeout=timeout, cwd=str(ROOT),
                         dimensions=(60, 160), env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})


def play_turns(child, turns: int) -> tuple[str, str]:
    """Answer ``turns`` move prompts with the first listed play (rolling, taking and confirming as asked);
    return the next move prompt and the Position ID of the board above it."""
    done = 0
    while True:
        child.expect(PROMPT)
        prompt = child.after
        if prompt.startswith("you, move"):
            if done == turns:
                return prompt, child.before.rsplit("Position ID: ", 1)[1].split()[0]
            child.sendline("1")
            done += 1
        elif "take or pass" in prompt:
            child.sendline("take")
        else:
            child.sendline("")


def load_script(path: Path, name: str) -> Iterator[ModuleType]:
    """Import the script ``path`` as module ``name`` for a fixture to yield; forgotten afterwards."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while it loads
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[name]


def start_cli(args: list[str]) -> subprocess.Popen:
    """``python -m gammon ARGS`` from the checkout, its output captured as text."""
    return subprocess.Popen([sys.executable, "-m", "gammon", *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_checkpoint(runs: Path, proc: subprocess.Popen, timeout: float = 60.0) -> Path:
    """The run folder under ``runs`` once its first checkpoint is written (``proc`` must still be running)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = list(runs.glob("*/checkpoint.pt"))
        if found:
            return found[0].parent
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    proc.kill()
    raise AssertionError("no checkpoint appeared")


def matchplay_cases() -> list[dict]:
    """The match-play fixture's cases (``fixtures/matchplay_gnubg.json``): GNU Backgammon's best plays at a
    score and in money play, made by ``fixtures/make_matchplay_fixtures.py``."""
    return json.loads((ROOT / "tests" / "fixtures" / "matchplay_gnubg.json").read_text())["cases"]


def case_cube(case: dict):
    """The mover's :class:`~gammon.cube.CubeState` of a match-play fixture case."""
    from gammon.cube import CubeState

    return CubeState(cube=case["cube"], owner=case["owner"], match_length=case["match_length"],
                     score=tuple(case["score"]), crawford=case["crawford"])


def best_plays_found(bot, cases: list[dict]) -> tuple[int, int]:
    """How many of GNU Backgammon's best plays at the score in ``cases`` (:func:`matchplay_cases`) ``bot`` finds
    choosing at the score (``choose_match_play``), and choosing as in money play (``choose_play``)."""
    from gammon import Position

    at_score = in_money = 0
    for case in cases:
        position, dice = Position.from_position_id(case["position_id"]), tuple(case["dice"])
        best = position.parse_play(case["gnubg_match"][0][0], dice)
        at_score += bot.choose_match_play(position, dice, case_cube(case)) == best
        in_money += bot.choose_play(position, dice) == best
    return at_score, in_money
