"""``gammon board``: run as a user runs it, in a subprocess."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

START_ID = "4HPwATDgc/ABMA"


def gammon(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gammon", *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_board_draws_the_starting_position():
    run = gammon("board")
    assert run.returncode == 0, run.stderr
    assert f"Position ID: {START_ID}" in run.stdout
    assert re.search(r"Pip count\s+X: 167\s+O: 167", run.stdout)
    assert "+13-14-15-16-17-18------19-20-21-22-23-24-+" in run.stdout
    assert run.stderr == ""


def test_board_with_an_id_and_dice_lists_the_legal_plays():
    run = gammon("board", START_ID, "--dice", "66")
    assert run.returncode == 0, run.stderr
    assert f"Position ID: {START_ID}" in run.stdout
    assert "Pip count" in run.stdout
    assert "11 legal plays of 6-6" in run.stdout
    listed = [line.strip() for line in run.stdout.splitlines() if line.startswith("   ")]
    assert "24/18(2) 13/7(2)" in listed and "13/7(4)" in listed
    assert len(listed) == 11


def test_board_of_another_position_shows_its_id_and_pips():
    # O on roll after X opened 8/5 6/5
    run = gammon("board", "sGfwATDgc/ABMA", "--dice", "3-1")
    assert run.returncode == 0, run.stderr
    assert "Position ID: sGfwATDgc/ABMA" in run.stdout
    assert re.search(r"Pip count\s+X: 167\s+O: 163", run.stdout)
    assert "legal plays of 3-1" in run.stdout


@pytest.mark.parametrize(
    "args, named",
    [
        (["board", "not-an-id!"], "'not-an-id!'"),
        (["board", "4HPwATDgc/ABM"], "'4HPwATDgc/ABM'"),
        (["board", "//////////////"], "'//////////////'"),
        (["board", START_ID, "--dice", "71"], "'71'"),
        (["board", START_ID, "--dice", "six"], "'six'"),
    ],
)
def test_bad_input_is_a_one_line_error_naming_it_with_status_2(args, named):
    run = gammon(*args)
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert named in lines[0]
    assert lines[0].startswith("gammon board: error:")
    assert "Traceback" not in run.stderr
