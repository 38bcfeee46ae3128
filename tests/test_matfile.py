"""The .mat export: GNU Backgammon's layout, reading it back, and GNU Backgammon importing it."""

from __future__ import annotations

import dataclasses
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from gammon.bots.random_bot import RandomBot
from gammon.dice import ScriptedDice, SeededDice
from gammon.ids import MatchState
from gammon.match import Match, play_match
from gammon.records import Rules
from gammon.matfile import MatFileError, move_text, read_mat, save_mat, write_mat
from gammon.play import Move
from gammon.position import Position

GNUBG = "/usr/games/gnubg"
needs_gnubg = pytest.mark.skipif(shutil.which(GNUBG) is None, reason="GNU Backgammon is not installed")


class Script:
    """Plays, cube answers and resignations from lists, in order."""

    def __init__(self, name, plays=(), doubles=(), takes=(), resign=()):
        self.name = name
        self.plays, self.doubles, self.takes, self.resign = list(plays), list(doubles), list(takes), list(resign)

    def choose_play(self, position, dice):
        return position.parse_play(self.plays.pop(0), dice)

    def offer_double(self, position, cube):
        return self.doubles.pop(0)

    def accept_double(self, position, cube):
        return self.takes.pop(0)

    def offer_resignation(self, position, cube):
        return self.resign.pop(0) if self.resign else 0

    def accept_resignation(self, position, value, cube):
        return True


class Coin(RandomBot):
    """Random plays and random cube actions; resigns now and then (before or after rolling)."""

    def __init__(self, seed, name, resign_after_roll=False):
        super().__init__(seed)
        self.name = name
        self.coin = random.Random(seed + 1000)
        self.resign_after_roll = resign_after_roll
        self._asked = None

    def offer_double(self, position, cube):
        return self.coin.random() < 0.1

    def accept_double(self, position, cube):
        return self.coin.random() < 0.7

    def offer_resignation(self, position, cube):
        return 0 if self.resign_after_roll or self.coin.random() > 0.01 else self.coin.choice((1, 2, 3))

    def accept_resignation(self, position, value, cube):
        return self.coin.random() < 0.5

    def choose_play(self, position, dice):
        from gammon.match import Resignation

        key = (position, dice)
        if self.resign_after_roll and self._asked != key and self.coin.random() < 0.02:
            self._asked = key
            raise Resignation(self.coin.choice((1, 2, 3)))
        self._asked = key
        return super().choose_play(position, dice)


EXPECTED = """\
 3 point match

 Game 1
 alice : 0                      bob : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Drops                       Wins 1 point

 Game 2
 alice : 0                      bob : 1
  1)                             62: 24/18 13/11
  2) 65: 24/18 18/13              Doubles => 2
  3)  Takes                      65: 24/18 18/13
                                  Wins 4 points
"""


def scripted_match():
    # Game 1: alice opens 3-1, bob doubles, alice drops.
    # Game 2: bob opens 6-2; alice rolls 6-5; bob doubles, alice takes; bob rolls 6-5; alice resigns a gammon.
    alice = Script("alice", plays=["8/5 6/5", "24/13"], doubles=[False], takes=[False, True], resign=[0, 2])
    bob = Script("bob", plays=["24/18 13/11", "24/13"], doubles=[True, True])
    return play_match(alice, bob, 3, ScriptedDice([(3, 1), (2, 6), (6, 5), (6, 5)]))


def test_a_match_is_laid_out_as_gnubg_writes_it():
    text = write_mat(scripted_match())
    assert text.startswith('; [Site "gammon"]\n')
    assert text.split("\n\n", 1)[1].rstrip("\n") + "\n" == EXPECTED


def test_moves_are_single_die_steps_with_bar_25_and_off_0():
    assert move_text((1, 6), [Move(25, 19, True), Move(6, 5)]) == "61: 25/19* 6/5"
    assert move_text((6, 6), [Move(6, 0)] * 2) == "66: 6/0 6/0"
    assert move_text((5, 2), []) == "52:"


def test_reading_back_gives_the_same_games():
    record = play_match(Coin(1, "ann", True), Coin(2, "bo"), 5, SeededDice(3))
    again = read_mat(write_mat(record))
    assert again.names == record.names and again.score == record.score
    for ours, theirs in zip(record.games, again.games):
        assert (theirs.winner, theirs.points, theirs.ended_by, theirs.crawford) == (
            ours.winner, ours.points, ours.ended_by, ours.crawford)
        assert [a.play for a in theirs.plays()] == [a.play for a in ours.plays()]


def test_a_game_from_a_set_position_cannot_be_written():
    game = Match((RandomBot(1), RandomBot(2)), ScriptedDice([(2, 1)]), start=MatchState(player_on_roll=0),
                 position=Position.from_checkers({1: 1}, {24: 1}))
    game.play_game(resume=True)
    with pytest.raises(MatFileError, match="set position"):
        write_mat(game.record)


def test_names_that_would_confuse_the_reader_are_cleaned():
    # GNU Backgammon starts a new game at any line holding "Game " and splits the score line at colons.
    alice = Script("Game Boy: 1", plays=["8/5 6/5"], takes=[False])
    bob = Script("bob", doubles=[True])
    text = write_mat(play_match(alice, bob, 0, ScriptedDice([(3, 1)]), games=1))
    assert " game-Boy- 1 : 0" in text
    assert read_mat(text).names == ("game-Boy- 1", "bob")


def test_unreadable_mat_text_is_a_one_line_error():
    with pytest.raises(MatFileError, match="no 'N point match'"):
        read_mat("hello\n")
    bad = EXPECTED.replace("31: 8/5 6/5", "31: 8/4 6/5")
    with pytest.raises(MatFileError, match=r"game 1: cannot replay '31: 8/4 6/5'"):
        read_mat(bad)


def test_save_mat_writes_a_file(tmp_path):
    path = save_mat(scripted_match(), tmp_path / "m.mat")
    assert path.read_text().count(" Game ") == 2
    with pytest.raises(MatFileError, match="cannot write"):
        save_mat(scripted_match(), tmp_path / "missing" / "m.mat")


# -- GNU Backgammon as the oracle ------------------------------------------------------------


def gnubg(commands: str, cwd: Path) -> str:
    done = subprocess.run([GNUBG, "-t", "-q"], input=commands, capture_output=True, text=True, timeout=60, cwd=cwd)
    return done.stdout


def gnubg_import(path: Path) -> tuple[str, str, str]:
    """GNU Backgammon's score line, final Match ID and Position ID after importing ``path``."""
    out = gnubg(f"set jacoby off\nimport mat {path}\nshow score\nshow board\n", path.parent)
    score = re.findall(r"The score \(after \d+ games?\) is: ([^(]*)\(", out)
    match_id = re.findall(r"Match ID\s*:\s*(\S+)", out)
    position_id = re.findall(r"Position ID:\s*(\S+)", out)
    assert score and match_id and position_id, out[-2000:]
    return score[-1].strip(), match_id[-1], position_id[-1]


@needs_gnubg
def test_gnubg_imports_the_layout_example(tmp_path):
    path = save_mat(scripted_match(), tmp_path / "example.mat")
    assert gnubg_import(path)[0] == "alice 0, bob 5"


@needs_gnubg
@pytest.mark.parametrize(
    ("length", "seed", "after_roll"),
    [(5, 1, False), (7, 2, True), (11, 3, False), (0, 4, True), (0, 5, False), (3, 6, True)],
)
def test_gnubg_imports_an_exported_match_with_the_same_final_score(tmp_path, length, seed, after_roll):
    # Random plays with random doubles, takes, drops and resignations: GNU Backgammon replays every
    # entry and must end with our final score, Match ID and Position ID.
    match = Match((Coin(seed, "alice", after_roll), Coin(seed + 50, "bob")), SeededDice(seed),
                  Rules(match_length=length), games=None if length else 4)
    record = match.play()
    path = save_mat(record, tmp_path / f"m{seed}.mat")
    score, match_id, position_id = gnubg_import(path)
    assert score == f"alice {record.score[0]}, bob {record.score[1]}"
    ours = match.table.match_state()
    theirs = MatchState.from_match_id(match_id)
    last = record.games[-1]
    if last.ended_by == "resign":
        # A resignation after a roll with one legal play (or none) is written without its roll,
        # since GNU Backgammon would read a bare roll as that play made.
        ours = dataclasses.replace(ours, dice=theirs.dice)
    assert theirs == ours
    assert position_id == last.final_position.position_id()


@needs_gnubg
def test_a_match_gnubg_exported_is_read_and_replayed(tmp_path):
    out = gnubg(
        "set seed 5\n"
        + "".join(f"set player {p} gnubg\nset player {p} chequerplay evaluation plies 0\n"
                  f"set player {p} cubedecision evaluation plies 0\n" for p in (0, 1))
        + f"new match 5\nexport match mat {tmp_path / 'g.mat'}\nshow score\n",
        tmp_path,
    )
    final = re.findall(r"The score \(after \d+ games?\) is: gnubg (\d+), (\S+) (\d+)", out)[-1]
    record = read_mat((tmp_path / "g.mat").read_text())
    assert record.score == (int(final[0]), int(final[2]))
    assert sum(len(g.plays()) for g in record.games) > 20
