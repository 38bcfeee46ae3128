"""Play notation: printing, tolerant parsing, legality checks, value semantics.

``fixtures/notation_gnubg.json`` holds, for 48 positions and rolls, every
legal play as GNU Backgammon writes it (regenerate it with
``fixtures/make_notation_fixture.py``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from gammon import IllegalPlayError, Move, Play, PlayNotationError, Position
from gammon.dice import SeededDice
from gammon.engine import movegen
from gammon.play import format_moves, parse_moves

NOTATION = json.loads((Path(__file__).parent / "fixtures" / "notation_gnubg.json").read_text())
START = Position.initial()


def notations(position: Position, dice: tuple[int, int]) -> set[str]:
    return {str(play) for play in position.legal_plays(dice)}


# -- printing ---------------------------------------------------------------------


def test_prints_two_checkers_highest_point_first():
    play = START.parse_play("13/11 24/18", (6, 2))
    assert str(play) == "24/18 13/11"
    assert play.notation() == "24/18 13/11"


def test_prints_entering_with_a_hit_from_the_bar():
    # Given a checker on the bar and an opposing blot on 22
    pos = Position.from_checkers({25: 1, 13: 2, 6: 12}, {22: 1, 12: 5})
    # When rolling 3-2, Then entering on 22 hits: bar/22*
    assert "bar/22* 13/11" in notations(pos, (3, 2))
    assert str(pos.parse_play("bar/22 13/11", (3, 2))) == "bar/22* 13/11"


def test_prints_bearing_off_as_off():
    pos = Position.from_checkers({6: 1, 3: 2}, {20: 15})
    assert notations(pos, (6, 1)) == {"6/off 3/2", "6/off"}  # 6/off 3/2, or 6/5 5/off
    assert "6/off 3/2" in notations(pos, (6, 1))


def test_prints_repeated_moves_with_a_count():
    assert "8/5(2) 6/3(2)" in notations(START, (3, 3))
    assert "13/7(2) 8/2(2)" in notations(START, (6, 6))
    assert "24/18(2) 13/7(2)" in notations(START, (6, 6))


def test_prints_one_checker_moving_twice_as_one_chain():
    # 24/18/13 is written 24/13, whatever order the two steps were generated in
    assert "24/13" in notations(START, (6, 5))
    assert format_moves((Move(18, 13), Move(24, 18))) == "24/13"
    assert format_moves((Move(13, 7), Move(13, 7), Move(7, 1), Move(7, 1))) == "13/1(2)"


def test_prints_a_hit_in_the_middle_of_a_chain():
    # Given an opposing blot on 18
    pos = Position.from_checkers({24: 2, 13: 5, 8: 3, 6: 5}, {18: 1, 12: 5, 17: 3, 20: 5, 1: 1})
    plays = notations(pos, (6, 5))
    # Then the checker that hits on 18 and goes on is written 24/18*/13
    assert "24/18*/13" in plays
    assert "24/13" in plays  # by way of 19, no hit
    assert pos.parse_play("24/18*/13", (6, 5)) != pos.parse_play("24/19/13", (6, 5))


def test_prints_a_hit_by_one_of_two_checkers_making_the_same_move_as_gnubg():
    # Given a blot on 5 and two checkers on 6: both go 6/5 with 1-1, one hitting
    pos = Position.from_checkers({6: 2, 8: 2, 13: 11}, {5: 1, 12: 14})
    assert "8/7(2) 6/5*(2)" in notations(pos, (1, 1))
    assert "6/5*/4(2)" in notations(pos, (1, 1))


def test_prints_the_pass():
    pos = Position.from_checkers({25: 1, 13: 14}, {p: 2 for p in range(19, 25)})
    (play,) = pos.legal_plays((6, 6))
    assert str(play) == "(no play)" and play.is_pass() and play.moves == ()


def test_notation_matches_gnubg_for_every_legal_play():
    # For each position and roll gnubg lists every legal play; ours must be the
    # same plays, written with the same parts (the order of parts with the same
    # starting point may differ), and gnubg's text must parse to the same play
    total = exact = 0
    for case in NOTATION["cases"]:
        pos = Position.from_checkers(
            {int(p): n for p, n in case["mine"].items()}, {int(p): n for p, n in case["theirs"].items()}
        )
        dice = tuple(case["dice"])
        ours = {tuple(sorted(str(play).split())): play for play in pos.legal_plays(dice)}
        theirs = [tuple(sorted(text.split())) for text in case["plays"]]
        assert len(ours) == len(theirs) == len(set(theirs)), case["name"]
        assert set(ours) == set(theirs), case["name"]
        for text in case["plays"]:
            play = pos.parse_play(text, dice)
            assert play == ours[tuple(sorted(text.split()))], (case["name"], text)
            total += 1
            exact += str(play) == text
    assert total > 1000
    assert exact > 0.9 * total


# -- parsing -------------------------------------------------------------------------


def test_hit_marks_are_optional_when_parsing():
    pos = Position.from_checkers({25: 1, 13: 2, 6: 12}, {22: 1, 12: 5})
    assert pos.parse_play("bar/22 13/11", (3, 2)) == pos.parse_play("bar/22* 13/11*", (3, 2))


@pytest.mark.parametrize("text", ["bar/22* 13/11", "25/22 13/11", "b/22 13/11", "BAR/22* 13/11", "Bar/22*, 13/11"])
def test_bar_may_be_written_bar_b_or_25(text):
    pos = Position.from_checkers({25: 1, 13: 2, 6: 12}, {22: 1, 12: 5})
    assert str(pos.parse_play(text, (3, 2))) == "bar/22* 13/11"


@pytest.mark.parametrize("text", ["6/off 3/2", "6/0 3/2", "6/o 3/2", "3/2 6/OFF", "  6/off   3/2 "])
def test_off_may_be_written_off_o_or_0(text):
    pos = Position.from_checkers({6: 1, 3: 2}, {20: 15})
    assert str(pos.parse_play(text, (6, 1))) == "6/off 3/2"


def test_moves_may_be_written_in_any_order():
    assert START.parse_play("13/11 24/18", (6, 2)) == START.parse_play("24/18 13/11", (6, 2))
    assert START.parse_play("6/3(2) 8/5(2)", (3, 3)) == START.parse_play("8/5 6/3 8/5 6/3", (3, 3))
    # and the dice in either order
    assert START.parse_play("24/18 13/11", (2, 6)) == START.parse_play("24/18 13/11", (6, 2))


def test_chained_moves_parse_like_the_whole_move():
    assert START.parse_play("24/18/13", (6, 5)) == START.parse_play("24/13", (6, 5))
    with pytest.raises(IllegalPlayError, match="19 is blocked"):
        START.parse_play("24/19/13", (6, 5))  # the route matters: 19 is the opponent's point
    assert START.parse_play("13/10/7(2)", (3, 3)) == START.parse_play("13/7(2)", (3, 3))


def test_parse_moves_reads_segments():
    assert parse_moves("24/18*/13 bar/22 6/off 8/5(2)") == [(24, 18), (18, 13), (25, 22), (6, 0), (8, 5), (8, 5)]
    assert parse_moves("") == []


def test_empty_text_is_the_pass_only_when_passing_is_legal():
    closed = Position.from_checkers({25: 1, 13: 14}, {p: 2 for p in range(19, 25)})
    assert closed.parse_play("", (6, 6)).is_pass()
    with pytest.raises(IllegalPlayError):
        START.parse_play("", (6, 6))


# -- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["24-18", "hello", "24/", "/18", "24/18/", "24//18", "26/20", "18/24", "off/3", "6/bar",
     "24/18(x)", "24/18(0)", "24/18(5)", "24/18 (2)", "24/18**", "*24/18", "100/50"],
)
def test_unreadable_text_raises_play_notation_error_naming_the_input(text):
    with pytest.raises(PlayNotationError) as err:
        START.parse_play(text, (6, 2))
    assert repr(text) in str(err.value)
    assert isinstance(err.value, ValueError)


def test_non_text_raises_play_notation_error():
    with pytest.raises(PlayNotationError):
        START.parse_play(None, (6, 2))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text, dice, why",
    [
        ("24/18 13/11", (6, 1), "the dice do not match"),
        ("13/7", (6, 2), "only one die used when both can be"),
        ("12/10 12/6", (6, 2), "no checker on 12"),
        ("19/13 19/17", (6, 2), "the opponent's checkers"),
        ("24/19 13/11", (5, 2), "19 is blocked"),
        ("24/18 24/18", (6, 2), "a die used twice"),
        ("8/2 6/0", (6, 2), "bearing off with checkers outside"),
        ("8/5(2) 6/3(2) 24/21", (3, 3), "five moves with doubles"),
    ],
)
def test_illegal_play_raises_illegal_play_error_naming_input_and_position(text, dice, why):
    with pytest.raises(IllegalPlayError) as err:
        START.parse_play(text, dice)
    assert repr(text) in str(err.value), why
    assert START.position_id() in str(err.value), why


def test_applying_a_play_from_another_position_raises():
    play = START.parse_play("24/18 13/11", (6, 2))
    other = START.apply(START.parse_play("8/5 6/5", (3, 1)))
    with pytest.raises(IllegalPlayError):
        other.apply(play)


# -- value semantics ------------------------------------------------------------------------


def test_plays_are_equal_when_they_start_and_end_in_the_same_positions():
    a = START.parse_play("24/18 13/11", (6, 2))
    b = START.parse_play("13/11 24/18", (6, 2))
    c = START.parse_play("24/16", (6, 2))
    assert a == b and hash(a) == hash(b)
    assert a != c
    assert a in START.legal_plays((6, 2))
    assert len({a, b, c}) == 2
    assert a != "24/18 13/11"
    # the same checker moves from an equal (rebuilt) position are equal too
    again = Position.from_position_id(START.position_id())
    assert again.parse_play("24/18 13/11", (6, 2)) == a


def test_plays_from_different_positions_differ_even_with_the_same_result():
    # Given {6: 2} playing 6/5 6/4 and {7: 1, 5: 1} playing 7/4: both reach {5: 1, 4: 1}
    pos1 = Position.from_checkers({6: 2}, {20: 15})
    pos2 = Position.from_checkers({7: 1, 5: 1}, {20: 15})
    p1 = pos1.parse_play("6/5 6/4", (2, 1))
    p2 = pos2.parse_play("7/4", (2, 1))
    assert pos1.apply(p1) == pos2.apply(p2)
    # Then the plays are still different plays
    assert p1 != p2


def test_play_moves_and_repr():
    play = START.parse_play("24/18 13/11", (6, 2))
    assert sorted(play.moves, reverse=True) == [Move(24, 18), Move(13, 11)]
    assert play.origin == START
    assert "24/18 13/11" in repr(play) and START.position_id() in repr(play)
    assert isinstance(play, Play)


def test_plays_sequence_behaves_like_a_list():
    plays = START.legal_plays((3, 1))
    assert len(plays) == 16
    assert plays[-1] == plays[len(plays) - 1]
    assert plays[2:4] == [plays[2], plays[3]]
    assert list(plays) == [plays[i] for i in range(16)]
    assert [START.apply(p) for p in plays] == plays.positions()
    assert plays.after.shape == (16, 26)
    assert "16 for 3-1" in repr(plays)


def test_legal_plays_carry_the_generators_results_steps_and_game_over_flags():
    # Given positions of seeded random games, a bear-off that can end the game, and a position
    # whose 1-1 has 918 distinct plays (more than the double generator's first buffer holds)
    rng, dice = random.Random(3), SeededDice(3)
    positions, pos = [], START
    for _ in range(300):
        positions.append(pos)
        plays = pos.legal_plays(dice.roll())
        pos = pos.apply(plays[rng.randrange(len(plays))])
        if pos.is_game_over():
            pos = START
    positions += [Position.from_checkers({1: 1, 2: 1}, {24: 3}), Position.from_position_id("/XcABAG0MVFUBg")]
    assert len(Position.from_position_id("/XcABAG0MVFUBg").legal_plays((1, 1))) == 918
    ended = 0
    for position in positions:
        for roll in [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]:
            # When its legal plays are listed for every roll
            plays = position.legal_plays(roll)
            after, steps, over = movegen.generate(position.board, *roll)
            # Then each play has the generator's result, single-die steps and game-over flag
            assert plays.after.tolist() == after.tolist()
            assert not plays.after.flags.writeable
            for i, play in enumerate(plays):
                assert play.moves == tuple(Move(s, d, h == 1) for s, d, h in steps[i].tolist() if s >= 0)
                assert position.apply(play).is_game_over() == bool(over[i])
                ended += bool(over[i])
    assert ended > 0


def test_every_legal_play_round_trips_through_its_notation():
    # Given positions met in seeded random games
    rng, dice = random.Random(8), SeededDice(8)
    pos, checked, hits, chains, counts = START, 0, 0, 0, 0
    for _ in range(600):
        roll = dice.roll()
        plays = pos.legal_plays(roll)
        for play in plays:
            text = str(play)
            # Then reading the printed notation gives back the same play
            assert pos.parse_play(text, roll) == play, (pos.position_id(), roll, text)
            checked += 1
            hits += "*" in text
            chains += any(part.count("/") > 1 for part in text.split())
            counts += "(" in text
        pos = rng.choice(plays.positions())
        if pos.is_game_over():
            pos = START
    assert checked > 5000 and hits > 100 and chains > 20 and counts > 100
