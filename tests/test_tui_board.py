"""The board a player reads: which way they move, home board and off area, the opponent's moves in their
numbering, fixed colours and labels per player, and colour only on a terminal."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from gammon.board_text import draw_board
from gammon.bots.random_bot import RandomBot
from gammon.dice import SeededDice
from gammon.match import Match
from gammon.play import Move
from gammon.position import Position
from gammon.records import Action, Rules
from gammon.tui.colour import painter, wants_colour
from gammon.tui.table import draw_table, seat_symbols
from gammon.tui.words import describe, play_text

ROOT = Path(__file__).resolve().parents[1]


def test_the_board_says_which_way_you_move_and_where_home_is():
    lines = draw_board(Position.initial()).splitlines()
    assert lines[1].endswith("-24-+ off O") and lines[13].endswith("--1-+ off X (on roll)")
    legend = "\n".join(lines[-2:])
    assert "X moves 24 -> 13 along the top (right to left), then 12 -> 1 along the bottom" in legend
    assert "X's home board is 1-6 (bottom right)" in legend and "off at the right ('off')" in legend


def test_borne_off_checkers_are_drawn_in_the_off_column():
    lines = draw_board(Position.from_checkers({1: 11}, {24: 15})).splitlines()
    off_column = [line[45:48].strip() for line in lines[8:13]]
    assert off_column == ["", "", "", "X", "XXX"]


def test_the_opponents_move_is_told_in_your_numbering():
    # td's 8/2* (its numbering) is 17/23* on the board you see.
    action = Action(1, "move", dice=(6, 1), moves=(Move(8, 2, True), Move(2, 1)))
    assert play_text(action.moves, 1, 0) == "17/23*/24"
    assert describe(Action(1, "move", dice=(6, 4), moves=(Move(8, 2, True), Move(6, 2))), ("you", "td"), 0) == \
        "td rolls 6-4 and plays 17/23* 19/23"
    assert play_text((Move(25, 20), Move(6, 0)), 1, 0) == "bar/5 19/off"


def test_your_own_words_are_in_the_second_person():
    names = ("you", "td")
    assert describe(Action(0, "roll", dice=(3, 5)), names) == "you roll 5-3"
    assert describe(Action(0, "win", value=1, points=1), names) == "you win 1 point"
    assert describe(Action(1, "win", value=2, points=4), names) == "td wins 4 points (gammon)"
    assert describe(Action(0, "take"), names) == "you take" and describe(Action(1, "pass"), names) == "td passes"


def two_player_table():
    seen = []
    match = Match((RandomBot(1), RandomBot(2)), SeededDice(3), Rules(match_length=3), names=("player 1", "player 2"),
                  observers=[lambda a, t: seen.append(t) if a.kind == "roll" else None], games=1)
    match.play_game()
    return match.table


def test_two_players_keep_their_symbols_whoever_looks():
    table = two_player_table()
    for viewer in (0, 1):
        board = draw_table(table, viewer, symbols=seat_symbols(viewer))
        assert "X: player 1" in board and "O: player 2" in board
    assert draw_table(table, 1, symbols=seat_symbols(1)).splitlines()[14].startswith(" +12-11")
    assert " off O" in draw_table(table, 1, symbols=seat_symbols(1)).splitlines()[14]


def test_each_seat_keeps_its_colour_on_either_side_of_the_board():
    assert painter(0)(" X ", "bottom") == painter(1)(" X ", "top") == "\x1b[1;31m X \x1b[0m"
    assert painter(0)(" O ", "top") == painter(1)(" O ", "bottom") == "\x1b[1;34m O \x1b[0m"


def test_the_last_move_and_hits_are_highlighted():
    paint = painter(0)
    board = draw_board(Position.initial(), marks={8, 5}, hits={5}, paint=paint)
    assert "\x1b[7m" in board  # the 8-point, reverse video
    assert "\x1b[1;33;41m" in board  # the hit on the 5-point
    plain = draw_board(Position.initial(), marks={8, 5})
    assert "\x1b" not in plain


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_colour_only_on_a_terminal_without_no_color(monkeypatch):
    assert wants_colour(Tty()) and not wants_colour(io.StringIO())
    assert not wants_colour(Tty(), flag=False) and not wants_colour(Tty(), setting=False)
    assert wants_colour(Tty(), flag=True, setting=False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_colour(Tty(), flag=True)


pexpect = pytest.importorskip("pexpect")


def spawn(*args: str, env: dict[str, str] | None = None):
    return pexpect.spawn(sys.executable, ["-m", "gammon", *args], encoding="utf-8", timeout=90, cwd=str(ROOT),
                         dimensions=(60, 160), env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})


def first_prompt(child) -> str:
    child.expect(r"you, (move \d-\d|roll or double\? \[roll\]) ")
    return child.before


def test_colour_on_a_terminal_and_none_with_no_color():
    child = spawn("play", "--opponent", "random", "--seed", "3", "--no-hint")
    assert "\x1b[1;31m" in first_prompt(child)
    child.terminate(force=True)
    child = spawn("play", "--opponent", "random", "--seed", "3", "--no-hint", "--no-color")
    assert "\x1b[" not in first_prompt(child)
    child.terminate(force=True)
    child = spawn("play", "--opponent", "random", "--seed", "3", "--no-hint", env={"NO_COLOR": "1"})
    assert "\x1b[" not in first_prompt(child)
    child.terminate(force=True)


def test_after_your_move_the_board_is_drawn_and_the_bot_move_is_in_your_numbering():
    # Seed 3: random opens with 5-2; the board after it and after my move are drawn.
    child = spawn("play", "--opponent", "random", "--seed", "3", "--no-hint", "--no-color", "--match", "1")
    child.expect(r"random rolls 5-2 and plays (\S+ \S+)")
    shown = child.match.group(1).split()
    assert all(int(part.split("/")[0]) < int(part.split("/")[1].rstrip("*")) for part in shown)  # upwards: 1 -> 24
    child.expect(r"you, move (\d)-(\d): ")
    child.sendline("1")
    child.expect(r"you, play [^?]+\? ")
    assert "Position ID" in child.before  # the board after my move, before I confirm
    child.terminate(force=True)


def test_two_player_labels_do_not_swap_between_turns():
    import subprocess

    done = subprocess.run([sys.executable, "-m", "gammon", "play", "--two-player", "--match", "1", "--seed", "4",
                           "--no-hint"], input="1\n\n" * 400, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "player 1 is X, player 2 is O" in done.stdout
    assert done.stdout.count("X: player 1") > 5 and done.stdout.count("O: player 2") > 5
    assert "O: player 1" not in done.stdout and "X: player 2" not in done.stdout
