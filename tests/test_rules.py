"""The rules of backgammon, one test per rule, on literal positions.

Positions are written with ``Position.from_checkers(mine, theirs)``: both
dicts use the numbering of the player on roll (24 is their farthest point
back, 1 their ace point); ``mine[25]`` is the player's bar and ``theirs[0]``
the opponent's bar. Checkers left out have been borne off.

A trick used throughout: checkers parked on the ace point cannot move while
any checker is outside the home board (they could only bear off), so
``{13: 1, 1: 14}`` is a position where exactly one checker can move.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from gammon import GameOverError, InvalidDiceError, Position
from gammon.dice import ScriptedDice, SeededDice, SystemDice, opening_roll
from gammon.position import ROLLS


def notations(position: Position, dice: tuple[int, int]) -> set[str]:
    """The legal plays of ``dice`` written in standard notation."""
    plays = position.legal_plays(dice)
    texts = {str(play) for play in plays}
    assert len(texts) == len(plays), "two plays share a notation"
    assert len(set(plays.positions())) == len(plays), "two plays reach the same position"
    return texts


def after(position: Position, text: str, dice: tuple[int, int]) -> Position:
    """The position after the play written ``text`` (opponent on roll)."""
    return position.apply(position.parse_play(text, dice))


# -- the starting position and the direction of movement -----------------------


def test_starting_position_is_2_on_24_5_on_13_3_on_8_5_on_6_for_both_sides():
    # Given the starting position
    pos = Position.initial()
    # Then each side, in its own numbering, has 2 on 24, 5 on 13, 3 on 8 and 5 on 6
    expected = [0] * 25
    for point, count in {24: 2, 13: 5, 8: 3, 6: 5}.items():
        expected[point - 1] = count
    mine, theirs = pos.checkers()
    assert list(mine) == expected
    assert list(theirs) == expected
    # And 15 checkers each, none borne off, 167 pips each, the same from either side
    assert sum(mine) == sum(theirs) == 15
    assert pos.borne_off() == (0, 0)
    assert pos.pip_counts() == (167, 167)
    assert pos.flip() == pos
    assert pos.position_id() == "4HPwATDgc/ABMA"
    assert not pos.is_game_over() and pos.result() == 0


def test_checkers_move_only_forward():
    # Given the starting position, for every roll
    pos = Position.initial()
    for dice, _ in ROLLS:
        # Then every single step of every play moves towards the ace point
        for play in pos.legal_plays(dice):
            assert play.moves, f"{dice}: unexpected pass"
            for move in play.moves:
                assert move.dst < move.src, f"{dice}: {play} moves backwards"
    # Given a lone checker on the 10 point (the rest parked on the ace point)
    lone = Position.from_checkers({10: 1, 1: 14}, {20: 15})
    # When rolling 2-1, Then it can only go down to the 7 point
    assert notations(lone, (2, 1)) == {"10/7"}


# -- blocked points, hits, jumping -------------------------------------------------


def test_point_held_by_two_or_more_opposing_checkers_is_blocked():
    # Given one movable checker on 13; the opponent holds 10 (3 checkers) and 8 (2)
    pos = Position.from_checkers({13: 1, 1: 14}, {10: 3, 8: 2})
    # When rolling 5-3, Then neither 13/8 nor 13/10 is possible: the turn passes
    plays = pos.legal_plays((5, 3))
    assert len(plays) == 1 and plays[0].is_pass()
    # And with 5-5 (13/8 blocked) too
    assert pos.legal_plays((5, 5))[0].is_pass()


def test_landing_on_a_lone_opposing_checker_hits_it_to_the_bar():
    # Given one movable checker on 13 and an opposing blot on 9
    pos = Position.from_checkers({13: 1, 1: 14}, {9: 1, 24: 14})
    # When rolling 4-2, Then the checker may hit on the way (4 first) or not (2 first)
    assert notations(pos, (4, 2)) == {"13/9*/7", "13/7"}
    # And after the hit the blot is on the bar: the opponent, now on roll, has one there
    hit = after(pos, "13/9*/7", (4, 2))
    opponent, _ = hit.checkers()
    assert opponent[24] == 1
    assert hit.pip_counts()[0] == 14 * 1 + 25  # 14 checkers on their ace point, one on the bar
    # And the quiet play leaves the blot where it was (their 16 point)
    quiet = after(pos, "13/7", (4, 2))
    assert quiet.checkers()[0][24] == 0 and quiet.checkers()[0][15] == 1
    # Given the blot on 7 instead, Then both routes end with the hit: 13/7*
    assert notations(Position.from_checkers({13: 1, 1: 14}, {7: 1, 24: 14}), (4, 2)) == {"13/7*"}


def test_a_hit_is_recorded_in_the_middle_of_a_chained_move():
    # Given a blot on 11 and a block on 10
    pos = Position.from_checkers({13: 1, 1: 14}, {11: 1, 10: 2, 24: 12})
    # When rolling 3-2, Then 13/10 is blocked and the only play hits on the way: 13/11*/8
    assert notations(pos, (3, 2)) == {"13/11*/8"}


def test_checkers_may_jump_over_blocked_points():
    # Given four consecutive blocks between 13 and 7 (12, 11, 10, 9)
    pos = Position.from_checkers({13: 1, 1: 14}, {12: 2, 11: 2, 10: 2, 9: 2})
    # When rolling 6-5, Then 13/7 jumps them all and 7/2 follows (or 13/8/2)
    assert notations(pos, (6, 5)) == {"13/2"}


# -- the two dice --------------------------------------------------------------


def test_dice_are_played_separately_not_as_their_sum():
    # Given both intermediate points of 13/7 blocked (9 and 11), 7 itself open
    pos = Position.from_checkers({13: 1, 1: 14}, {9: 2, 11: 2})
    # When rolling 4-2, Then 13/7 is not a play: the turn passes
    plays = pos.legal_plays((4, 2))
    assert len(plays) == 1 and plays[0].is_pass()


def test_one_checker_may_use_both_dice_through_an_open_intermediate_point():
    # Given two checkers on 13 and a block on 9 (13/9 impossible, 13/11 open)
    pos = Position.from_checkers({13: 2, 1: 13}, {9: 2})
    # When rolling 4-2, Then the 4 can only be played after the 2, by the same
    # checker: 13/11/7 (13/9 is blocked)
    assert notations(pos, (4, 2)) == {"13/7"}
    # And with 6-2 (7 open, 11 open, 9 blocked) both routes and both checkers are possible
    assert notations(pos, (6, 2)) == {"13/5", "13/11 13/7"}


# -- doubles ---------------------------------------------------------------------


def test_doubles_are_played_four_times():
    # Given two movable checkers (24 and 13) and an open board
    pos = Position.from_checkers({24: 1, 13: 1, 2: 13}, {3: 15})
    # When rolling 2-2, Then four 2s are shared out between them in every way
    assert notations(pos, (2, 2)) == {"24/16", "24/18 13/11", "24/20 13/9", "24/22 13/7", "13/5"}
    for play in pos.legal_plays((2, 2)):
        assert len(play.moves) == 4


def test_doubles_play_as_many_as_possible_when_only_two_can_be_played():
    # Given a checker on 13 and the opponent's block on 1 (13/9/5 then 5/1 blocked)
    pos = Position.from_checkers({13: 1, 2: 14}, {1: 2})
    # When rolling 4-4, Then two 4s are played; the 2s cannot bear off past the checker on 5
    plays = pos.legal_plays((4, 4))
    assert [str(p) for p in plays] == ["13/5"]
    assert len(plays[0].moves) == 2


def test_doubles_play_as_many_as_possible_when_only_three_can_be_played():
    # Given a checker on 17 and the opponent's block on 1
    pos = Position.from_checkers({17: 1, 2: 14}, {1: 2})
    # When rolling 4-4, Then three 4s are played: 17/13/9/5
    plays = pos.legal_plays((4, 4))
    assert [str(p) for p in plays] == ["17/5"]
    assert len(plays[0].moves) == 3


# -- how many dice must be used ------------------------------------------------------


def test_must_use_both_dice_if_any_sequence_does():
    # Given checkers on 24 and 13; 18 and 2 are blocked
    pos = Position.from_checkers({24: 1, 13: 1, 1: 13}, {18: 2, 2: 2})
    # When rolling 6-5: 13/8 alone would use only the 5 (then 8/2 and 24/18 are blocked)
    # Then only the plays using both dice are legal
    assert notations(pos, (6, 5)) == {"24/13", "24/19 13/7"}


def test_must_use_both_dice_even_if_only_one_order_allows_it():
    # Given one movable checker on 13 and a block on 8
    pos = Position.from_checkers({13: 1, 1: 14}, {8: 2})
    # When rolling 6-5, Then the 5 first is blocked but 6 then 5 works: 13/7/2 is forced
    assert notations(pos, (6, 5)) == {"13/2"}


def test_could_use_either_die_but_not_both_must_use_higher():
    # Given one movable checker on 13 and a block on 2 (so 13/7/2 and 13/8/2 both fail)
    pos = Position.from_checkers({13: 1, 1: 14}, {2: 2})
    # When rolling 6-5, Then the 6 must be played
    assert notations(pos, (6, 5)) == {"13/7"}


def test_if_only_the_lower_die_can_be_used_it_must_be_used():
    # Given a block on 7 (the 6 is unplayable) and on 2 (13/8 cannot continue)
    pos = Position.from_checkers({13: 1, 1: 14}, {7: 2, 2: 2})
    # When rolling 6-5, Then the 5 alone is played
    assert notations(pos, (6, 5)) == {"13/8"}


def test_no_legal_move_is_exactly_one_empty_pass_play():
    # Given both 13/7 and 13/8 blocked
    pos = Position.from_checkers({13: 1, 1: 14}, {7: 2, 8: 2})
    # When rolling 6-5
    plays = pos.legal_plays((6, 5))
    # Then there is exactly one play, the empty one
    assert len(plays) == 1
    (play,) = plays
    assert play.is_pass() and play.moves == ()
    assert str(play) == "(no play)"
    # And playing it hands the same position to the opponent
    assert pos.apply(play) == pos.flip()
    assert pos.parse_play("", (6, 5)) == play


# -- the bar ---------------------------------------------------------------------------


def test_checkers_on_the_bar_enter_on_point_25_minus_the_die():
    # Given two checkers on the bar and an open board
    pos = Position.from_checkers({25: 2, 1: 13}, {12: 15})
    # When rolling 2-1, Then one enters on 23 and the other on 24
    assert notations(pos, (2, 1)) == {"bar/24 bar/23"}
    # When rolling 6-3, Then they enter on 19 and 22
    assert notations(pos, (6, 3)) == {"bar/22 bar/19"}


def test_all_bar_checkers_enter_before_any_other_checker_moves():
    # Given one checker on the bar, two on 13, and a block on 19 (no entry with a 6)
    pos = Position.from_checkers({25: 1, 13: 2, 1: 12}, {19: 2})
    # When rolling 6-5, Then the checker enters with the 5 first; the 6 is played afterwards
    assert notations(pos, (6, 5)) == {"bar/14", "bar/20 13/7"}
    # When rolling 6-6, Then nothing can enter, so 13/7 is not allowed either: the turn passes
    plays = pos.legal_plays((6, 6))
    assert len(plays) == 1 and plays[0].is_pass()


def test_two_on_the_bar_with_one_entering_die_enters_one_and_stops():
    # Given two checkers on the bar and a block on 19
    pos = Position.from_checkers({25: 2, 13: 2, 1: 11}, {19: 2})
    # When rolling 6-5, Then one enters with the 5; the 6 cannot be played
    assert notations(pos, (6, 5)) == {"bar/20"}
    rest = after(pos, "bar/20", (6, 5))
    assert rest.checkers()[1][24] == 1  # one still on the bar
    # When rolling 5-5, Then both enter and the other two 5s are played too
    for play in pos.legal_plays((5, 5)):
        assert [m.src for m in play.moves[:2]] == [25, 25] and len(play.moves) == 4


def test_could_enter_with_either_die_but_must_use_higher():
    # Given one checker on the bar; 17 is blocked so neither bar/22/17 nor bar/20/17 works
    pos = Position.from_checkers({25: 1, 1: 14}, {17: 2})
    # When rolling 5-3, Then it must enter with the 5
    assert notations(pos, (5, 3)) == {"bar/20"}


def test_closed_board_means_the_turn_passes():
    # Given a checker on the bar against a closed board (19 to 24 all blocked)
    pos = Position.from_checkers({25: 1, 13: 14}, {p: 2 for p in range(19, 25)})
    # Then every roll passes, though the checkers on 13 could otherwise move
    for dice, _ in ROLLS:
        plays = pos.legal_plays(dice)
        assert len(plays) == 1 and plays[0].is_pass(), dice


def test_partly_closed_board_lets_in_only_the_open_point():
    # Given a checker on the bar; 19 to 23 blocked, 24 open
    pos = Position.from_checkers({25: 1, 13: 2, 1: 12}, {p: 2 for p in range(19, 24)})
    for dice, _ in ROLLS:
        plays = pos.legal_plays(dice)
        if 1 not in dice:
            # Then without a 1 the turn passes
            assert len(plays) == 1 and plays[0].is_pass(), dice
        else:
            # And with a 1 every play starts bar/24
            assert all(p.moves[0] == (25, 24, False) for p in plays), dice
    assert notations(pos, (6, 1)) == {"bar/18", "bar/24 13/7"}


# -- bearing off -------------------------------------------------------------------------


def test_bear_off_only_once_all_checkers_are_home():
    # Given a checker on 9, outside the home board
    pos = Position.from_checkers({9: 1, 6: 2, 5: 2}, {20: 15})
    # When rolling 6-5, Then 6/off 5/off is not possible; bearing off is only
    # allowed after the 9 has come home
    assert notations(pos, (6, 5)) == {"9/3 6/1", "9/3 5/off", "9/4 6/off"}


def test_bear_off_with_the_exact_die_from_its_point():
    # Given checkers on 4 and 3, all home
    pos = Position.from_checkers({4: 1, 3: 1}, {20: 15})
    # When rolling 4-3, Then each bears off with its exact die (or 4/1 then 3/off)
    assert notations(pos, (4, 3)) == {"4/off 3/off", "4/1 3/off"}
    assert after(pos, "4/off 3/off", (4, 3)).is_game_over()


def test_higher_die_bears_off_only_from_the_highest_occupied_point():
    # Given checkers on 5 and 3
    pos = Position.from_checkers({5: 1, 3: 1}, {20: 15})
    # When rolling 6-1, Then the 6 bears off the checker on 5 (the highest point), never
    # the one on 3; 5/4/off also works as 4 is then the highest point
    assert notations(pos, (6, 1)) == {"5/off 3/2", "5/off"}
    for play in pos.legal_plays((6, 1)):
        assert (3, 0, False) not in play.moves


def test_may_move_inside_the_home_board_instead_of_bearing_off():
    # Given checkers on 6 and 2
    pos = Position.from_checkers({6: 1, 2: 1}, {20: 15})
    # When rolling 2-1, Then bearing off is allowed, but so are moves inside the board
    assert notations(pos, (2, 1)) == {"6/3", "6/4 2/1", "6/5 2/off"}


def test_checker_hit_during_bear_off_must_reenter_and_come_home_before_bearing_off_resumes():
    # Given a bear-off in progress (8 checkers off) and one checker hit to the bar
    pos = Position.from_checkers({25: 1, 6: 3, 5: 3}, {3: 1, 12: 13})
    # When rolling 6-5, Then it must enter; no checker bears off this turn
    assert notations(pos, (6, 5)) == {"bar/14", "bar/19 6/1"}
    # Given it entered and reached 14, when rolling 6-6 later: it comes home first
    # (14/8/2), and only then do the remaining two 6s bear off
    later = Position.from_checkers({14: 1, 6: 3, 5: 3}, {3: 1, 12: 13})
    assert notations(later, (6, 6)) == {"14/2 6/off(2)"}


# -- results -------------------------------------------------------------------------------


def _finish(theirs: dict[int, int]) -> Position:
    """Bear off the last checker (on the ace point) against ``theirs``."""
    pos = Position.from_checkers({1: 1}, theirs)
    (play,) = pos.legal_plays((2, 1))
    assert str(play) == "1/off"
    end = pos.apply(play)
    assert end.is_game_over()
    return end


def test_game_goes_on_while_both_sides_have_checkers():
    pos = Position.initial()
    assert not pos.is_game_over()
    assert pos.result() == 0
    assert not after(pos, "8/5 6/5", (3, 1)).is_game_over()


def test_single_game_when_loser_has_borne_off_a_checker():
    # Given the loser has borne off one checker (14 left, in their home board)
    # Then the winner scores 1
    assert _finish({20: 14}).result() == 1
    # Even with a checker left in the winner's home board
    assert _finish({3: 1, 20: 13}).result() == 1


def test_gammon_when_loser_has_borne_off_none():
    # Given the loser still has all 15 checkers, all in their home board
    assert _finish({20: 15}).result() == 2
    # Or in their outer board
    assert _finish({12: 15}).result() == 2


def test_backgammon_when_loser_has_a_checker_in_winners_home_board():
    # Given the loser has borne off none and has a checker on the winner's 3 point
    assert _finish({3: 1, 20: 14}).result() == 3
    # Or on the winner's 6 point (the edge of the home board)
    assert _finish({6: 1, 20: 14}).result() == 3
    # But not on the winner's 7 point (outside the home board)
    assert _finish({7: 1, 20: 14}).result() == 2


def test_backgammon_when_loser_has_a_checker_on_the_bar():
    assert _finish({0: 1, 20: 14}).result() == 3


# -- dice ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3,), (1, 2, 3), "31", None, (1.0, 2), (2, 2.5)])
def test_dice_must_be_two_integers_from_1_to_6(dice):
    with pytest.raises(InvalidDiceError) as err:
        Position.initial().legal_plays(dice)
    assert repr(dice) in str(err.value)


@pytest.mark.parametrize("dice", [[3, 1], (np.int64(3), np.int8(1)), (True, 3)])
def test_dice_may_be_any_pair_of_integers(dice):
    # numpy integers, lists (and bools, which are ints) take the long way through the check
    want = [(int(a), int(b)) for a, b in [dice]][0]
    assert Position.initial().legal_plays(dice).dice == want
    assert Position.initial().legal_plays(dice).after.tolist() == Position.initial().legal_plays(want).after.tolist()


def test_plays_index_like_a_sequence():
    plays = Position.initial().legal_plays((6, 5))
    assert plays[-1] == plays[len(plays) - 1] and plays[-1].moves == plays[len(plays) - 1].moves
    assert [str(p) for p in plays[1:3]] == [str(plays[1]), str(plays[2])]
    with pytest.raises(IndexError):
        plays[len(plays)]
    assert not plays.after.flags.writeable


def test_opening_roll_ties_are_rolled_again():
    # Given the first two throws are ties
    dice = ScriptedDice([(3, 3), (5, 5), (2, 6), (1, 1)])
    # Then the third throw decides: player 1 threw the higher die
    assert opening_roll(dice) == (1, (2, 6))
    # And nothing more was thrown
    assert dice.roll() == (1, 1)


def test_opening_roll_higher_die_moves_first_using_both_dice():
    assert opening_roll(ScriptedDice([(6, 1)])) == (0, (6, 1))
    assert opening_roll(ScriptedDice([(1, 6)])) == (1, (1, 6))
    # Seeded: never a tie, and the winner is the player with the higher die
    for seed in range(200):
        first, (d0, d1) = opening_roll(SeededDice(seed))
        assert d0 != d1
        assert first == (0 if d0 > d1 else 1)
        # The opening play uses both dice as one roll
        assert len(Position.initial().legal_plays((d0, d1))) > 1


def test_seeded_dice_are_reproducible():
    a, b = SeededDice(2024), SeededDice(2024)
    rolls = [a.roll() for _ in range(500)]
    assert rolls == [b.roll() for _ in range(500)]
    assert rolls != [SeededDice(2025).roll() for _ in range(500)]
    assert all(1 <= d <= 6 for roll in rolls for d in roll)
    assert [opening_roll(SeededDice(s)) for s in range(50)] == [opening_roll(SeededDice(s)) for s in range(50)]


def _chi_square(counts: Counter, cells: list, total: int) -> float:
    expected = total / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def test_system_dice_are_in_range_and_roughly_uniform():
    # Given 60,000 rolls from the operating system's entropy
    dice = SystemDice()
    n = 60_000
    rolls = [dice.roll() for _ in range(n)]
    faces = Counter(d for roll in rolls for d in roll)
    pairs = Counter(rolls)
    # Then every die is 1..6
    assert set(faces) <= set(range(1, 7))
    # And faces and ordered pairs are uniform by a chi-square test with very loose
    # thresholds: a fair source exceeds 60 with 5 degrees of freedom about once in
    # 10^11 runs, and 150 with 35 about once in 10^15
    chi_faces = _chi_square(faces, list(range(1, 7)), 2 * n)
    chi_pairs = _chi_square(pairs, [(a, b) for a in range(1, 7) for b in range(1, 7)], n)
    assert chi_faces < 60, chi_faces
    assert chi_pairs < 150, chi_pairs
    # And single dice for opening rolls too
    singles = Counter(dice.die() for _ in range(12_000))
    assert set(singles) <= set(range(1, 7))
    assert _chi_square(singles, list(range(1, 7)), 12_000) < 60


def test_a_finished_game_has_no_plays():
    # Given a position where the player who just moved has borne off all 15
    finished = Position.from_position_id("AAAA4P8PAAAAAA")
    assert finished.is_game_over()
    # When the loser asks for plays, Then the engine refuses: the game is over
    with pytest.raises(GameOverError, match="AAAA4P8PAAAAAA"):
        finished.legal_plays((6, 5))
