"""Entering a play one checker at a time: each move checked, undo, confirmation, and why an entry is illegal."""

from __future__ import annotations

import io

import pytest

from gammon.position import Position
from gammon.tui.entry import EntryError, PlayEntry
from gammon.tui.guide import guide_text
from gammon.tui.human import HumanBot


def entry_error(position: Position, dice, *texts: str) -> str:
    entry = PlayEntry(position, dice)
    for text in texts[:-1]:
        entry.enter(text)
    with pytest.raises(EntryError) as error:
        entry.enter(texts[-1])
    return str(error.value)


def test_one_checker_at_a_time_builds_the_play():
    # Given the opening position and 3-1, when 8/5 and then 6/5 are entered, then the play is 8/5 6/5.
    entry = PlayEntry(Position.initial(), (3, 1))
    entry.enter("8/5")
    assert not entry.complete and entry.remaining == [1]
    assert entry.current().board[5] == 1 and entry.current().board[8] == 2
    entry.enter("6/5")
    assert entry.complete and str(entry.play()) == "8/5 6/5"


def test_undo_takes_back_the_last_checker_move():
    entry = PlayEntry(Position.initial(), (6, 6))
    entry.enter("24/18")
    entry.enter("13/7")
    assert entry.undo() == "13/7"
    assert entry.remaining == [6, 6, 6] and entry.current().board[13] == 5
    assert entry.undo() == "24/18" and entry.undo() is None
    assert entry.current() == Position.initial()


def test_a_move_needs_a_die_you_rolled():
    assert entry_error(Position.initial(), (5, 3), "8/2") == "8/2 needs a 6: you rolled 5-3"
    assert entry_error(Position.initial(), (5, 3), "8/3", "6/4") == "6/4 needs a 2: you have a 3 left"


def test_a_checker_may_use_both_dice_in_one_move():
    entry = PlayEntry(Position.initial(), (3, 2))
    entry.enter("13/8")
    assert entry.complete and str(entry.play()) == "13/8"


def test_you_must_enter_from_the_bar_first():
    bar = Position.from_checkers({25: 1, 13: 14}, {19: 2})
    assert entry_error(bar, (3, 1), "13/10") == "13/10: you must enter from the bar first"


def test_a_blocked_point_is_named():
    assert entry_error(Position.initial(), (6, 5), "24/19") == \
        "24/19: you cannot move to the 19-point: it is blocked (5 opposing checkers)"
    closed = Position.from_checkers({25: 1, 6: 14}, {22: 2})
    assert entry_error(closed, (3, 1), "bar/22") == \
        "bar/22: you cannot enter on the 22-point: it is blocked (2 opposing checkers)"


def test_bearing_off_needs_every_checker_home():
    assert entry_error(Position.initial(), (6, 5), "6/off").startswith(
        "6/off: you may bear off only when all your checkers are in your home board")


def test_you_must_use_both_dice_when_you_can():
    # Given a race position where 12/11 with the 1 leaves the 6 unplayable (12/6 first uses both dice)
    position = Position.from_position_id("3x0ggAV/jUAAAA")
    assert all(len(p.moves) == 2 for p in position.legal_plays((6, 1)))
    assert entry_error(position, (6, 1), "12/11") == "12/11: you must use both dice when you can"


def test_the_higher_die_must_be_played():
    # Given one checker on 13 and the rest on 1, O on X's 5-point: with 6-2 either die alone is legal
    # (13/7 or 13/11) but not both (each order ends on the blocked 5); the rule says: the 6.
    position = Position.from_checkers({13: 1, 1: 14}, {5: 2})
    assert [str(p) for p in position.legal_plays((6, 2))] == ["13/7"]
    assert entry_error(position, (6, 2), "13/11") == \
        "13/11: the higher die must be played: when only one die can be used it must be the 6"


def test_a_wrong_line_changes_nothing():
    entry = PlayEntry(Position.initial(), (3, 1))
    entry.enter("8/5")
    with pytest.raises(EntryError):
        entry.enter("6/5 24/23")
    assert entry.text() == "8/5" and entry.remaining == [1]


def human(text: str, **options):
    out = io.StringIO()
    return HumanBot("ann", input=io.StringIO(text), output=out, show_board=False, **options), out


def test_the_human_enters_checkers_one_by_one_and_confirms():
    me, out = human("8/5\n6/5\n\n", confirm=True)
    assert str(me.choose_play(Position.initial(), (3, 1))) == "8/5 6/5"
    text = out.getvalue()
    assert "ann, move 3-1 (8/5; 1 to play): " in text
    assert "ann, play 8/5 6/5? [Enter = yes, undo = take back] " in text


def test_undo_at_the_confirmation_takes_back_the_last_checker():
    me, out = human("8/5\n6/5\nundo\n24/23\nyes\n", confirm=True)
    assert str(me.choose_play(Position.initial(), (3, 1))) == "24/23 8/5"


def test_undo_with_nothing_moved_says_so():
    me, out = human("undo\n8/5 6/5\n")
    me.choose_play(Position.initial(), (3, 1))
    assert "Nothing to undo" in out.getvalue()


def test_a_play_number_asks_for_confirmation_unless_turned_off():
    plays = Position.initial().legal_plays((3, 1))
    me, out = human("1\n\n", confirm_numbers=True)
    assert me.choose_play(Position.initial(), (3, 1)) == plays[0]
    assert f"ann, play {plays[0]}?" in out.getvalue()
    me, out = human("1\n", confirm_numbers=False)
    assert me.choose_play(Position.initial(), (3, 1)) == plays[0]
    assert "ann, play" not in out.getvalue()


def test_without_confirmation_the_turn_ends_when_the_last_die_is_used():
    me, out = human("8/5\n6/5\n", confirm=False)
    assert str(me.choose_play(Position.initial(), (3, 1))) == "8/5 6/5"


def test_an_illegal_checker_move_is_explained_and_nothing_is_lost():
    me, out = human("8/5\n8/3\n6/5\n")
    assert str(me.choose_play(Position.initial(), (3, 1))) == "8/5 6/5"
    assert "Not played: 8/3 needs a 5: you have a 1 left." in out.getvalue()


def test_the_board_is_drawn_after_each_checker_and_after_the_move():
    me, out = human("8/5\n6/5\n")
    me.show_board = True
    me.choose_play(Position.initial(), (3, 1))
    boards = out.getvalue().count("Position ID")
    assert boards == 3  # before, after 8/5, after 6/5


def test_the_guide_lists_destinations_dice_hits_and_blocks():
    text = guide_text(PlayEntry(Position.initial(), (5, 3)))
    assert " 24: 21 with the 3; 19 blocked (the 5)" in text
    assert " 13: 8 with the 5; 10 with the 3" in text
    home = Position.from_checkers({6: 1, 5: 3, 2: 2}, {19: 2, 4: 1})
    text = guide_text(PlayEntry(home, (6, 1)))
    assert "6: bears off with the 6; 5 with the 1" in text and "5: 4 with the 1, hitting" in text


def test_the_guide_shows_bar_entry_only():
    text = guide_text(PlayEntry(Position.from_checkers({25: 1, 6: 14}, {22: 2, 5: 1}), (3, 1)))
    assert "you must enter from the bar first" in text
    assert text.splitlines()[1:] == ["   bar: 24 with the 1; 22 blocked (the 3)"]


def test_guide_command_and_guide_setting():
    me, out = human("guide\n8/5 6/5\n")
    me.choose_play(Position.initial(), (3, 1))
    assert "Move guide (3-1 to play):" in out.getvalue()
    me, out = human("8/5 6/5\n", guide=True)
    me.choose_play(Position.initial(), (3, 1))
    assert "Move guide (3-1 to play):" in out.getvalue()


def test_checkers_one_at_a_time_with_undo_and_confirmation_in_a_terminal():
    import os
    import sys
    from pathlib import Path

    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "gammon", "play", "--opponent", "random", "--seed", "3", "--no-hint",
                                           "--no-color", "--match", "1"], encoding="utf-8", timeout=90,
                          cwd=str(Path(__file__).resolve().parents[1]), dimensions=(60, 160),
                          env={**os.environ, "PYTHONUNBUFFERED": "1"})
    child.expect(r"you, move (\d)-(\d): ")
    dice = (int(child.match.group(1)), int(child.match.group(2)))
    position = Position.from_position_id(child.before.rsplit("Position ID: ", 1)[1].split()[0])
    play = next(p for p in position.legal_plays(dice) if len(p.moves) == 2)
    steps = [f"{m.src if m.src != 25 else 'bar'}/{m.dst or 'off'}" for m in play.moves]
    child.sendline(steps[0])
    child.expect(r"you, move \d-\d \([^)]*; \d to play\): ")
    assert "Position ID" in child.before  # redrawn after the checker moved
    child.sendline("undo")
    child.expect_exact(f"Took back {steps[0]}")
    child.sendline("6/off")
    child.expect_exact("Not played: 6/off: you may bear off only when all your checkers are in your home board")
    for step in steps:
        child.sendline(step)
    child.expect_exact(f"you, play {play}? [Enter = yes, undo = take back] ")
    child.sendline("")
    child.expect(r"random rolls \d-\d")
    child.terminate(force=True)


def test_bearing_off_is_refused_for_the_rule_not_for_a_point_on_the_way():
    # 6/off with 5-2 could only go 6/1/off; the 1-point is blocked, but the rule that matters is that
    # checkers are still outside the home board.
    assert entry_error(Position.initial(), (5, 2), "6/off").startswith(
        "6/off: you may bear off only when all your checkers are in your home board")
    # A checker outside may bear off in one move when it is the last one out: 8/off with 6-2.
    entry = PlayEntry(Position.from_checkers({8: 1, 2: 3}, {24: 2}), (6, 2))
    entry.enter("8/off")
    assert entry.complete and str(entry.play()) == "8/off"


def test_random_typing_never_breaks_the_game():
    # Given a match against the random bot, when a person types anything at every prompt (never quit),
    # then the match goes on or ends normally: no error other than the end of input stopping it.
    import random

    from gammon.bots.random_bot import RandomBot
    from gammon.dice import SeededDice
    from gammon.match import Match, QuitMatch
    from gammon.records import Rules
    from gammon.resign import with_resignations

    words = ["1", "2", "", "undo", "8/5", "24/23", "bar/22", "6/off", "13/8", "6/5", "moves", "guide", "board", "help",
             "double", "take", "pass", "resign", "resign gammon", "resign lots", "accept", "reject", "xyz", "99",
             "y", "n", "beaver", "roll", "25/20", "0/3", "8/5(2)", "3/off"]

    class Typist:
        def __init__(self, seed):
            self.rng = random.Random(seed)
            self.left = 3000

        def readline(self):
            self.left -= 1
            return "" if self.left < 0 else self.rng.choice(words) + "\n"

    for seed in range(3):
        me = HumanBot("ann", input=Typist(seed), output=io.StringIO(), show_board=False, confirm=True,
                      confirm_numbers=True, guide=seed == 1)
        match = Match([me, with_resignations(RandomBot(seed))], SeededDice(seed), Rules(match_length=3))
        try:
            match.play()
        except QuitMatch:
            pass
        assert match.record.games
