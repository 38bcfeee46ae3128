"""gammon.engine.analysis: the shared board analysis, on literal positions and against slow references."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.bots.random_bot import RandomBot
from gammon.dice import SeededDice
from gammon.engine.analysis import (
    ROLLS,
    blocking_prime,
    in_contact,
    longest_prime,
    rearmost,
    shot_rolls,
    their_rearmost,
)


def reference_shot_rolls(b) -> int:
    """The shot count exactly as the shipped encoding (tesauro+15 v1) was trained with: roll by roll, source by source."""
    b = [int(v) for v in b]
    if -1 not in b[1:25]:
        return 0
    bar, total = b[25], 0
    for (hi, lo), weight in ROLLS:
        hit = False
        for s in range(25, 0, -1):
            if b[s] <= 0:
                continue
            if bar > 0 and s != 25:
                break
            if hi != lo:
                if any(t >= 1 and b[t] == -1 for t in (s - hi, s - lo)):
                    hit = True
                elif bar <= 1 and s - hi - lo >= 1 and b[s - hi - lo] == -1 and (b[s - hi] > -2 or b[s - lo] > -2):
                    hit = True
            else:
                for k in range(1, (4 if bar <= 1 else max(1, 5 - bar)) + 1):
                    t = s - k * hi
                    if t < 1 or b[t] <= -2:
                        break
                    if b[t] == -1:
                        hit = True
                        break
            if hit:
                break
        total += weight if hit else 0
    return total


def _random_boards(games: int, seed: int) -> list[np.ndarray]:
    bots, dice, boards = (RandomBot(seed=seed), RandomBot(seed=seed + 1)), SeededDice(seed), []
    for _ in range(games):
        pos, turn = Position.initial(), 0
        while not pos.is_game_over():
            plays = pos.legal_plays(dice.roll())
            boards.extend(plays.after)
            pos = pos.apply(bots[turn].choose_play(pos, plays.dice))
            turn ^= 1
    return boards


def test_shot_count_equals_the_roll_by_roll_reference_on_many_positions():
    boards = _random_boards(60, 5)
    with_bar = 0
    for b in boards:
        for board in (b, -b[::-1]):
            assert shot_rolls(board) == reference_shot_rolls(board), Position(board).position_id()
            with_bar += board[25] > 0
    assert len(boards) > 50_000 and with_bar > 1_000


def test_a_blot_six_pips_away_is_hit_by_17_rolls():
    # Given my checker six pips in front of an opposing blot, nothing in between
    b = Position.from_checkers({13: 15}, {7: 1, 1: 14}).board
    # Then sixes (11), 5-1, 4-2, 3-3 and 2-2 hit: 11 + 2 + 2 + 1 + 1
    assert shot_rolls(b) == reference_shot_rolls(b) == 17


def test_from_the_bar_only_the_bar_checkers_hit():
    # Given I have two checkers on the bar, thirteen on my 8 point, and opposing blots on my 22 and 7 points
    b = Position.from_checkers({25: 2, 8: 13}, {22: 1, 7: 1, 1: 13}).board
    # Then the 8-point checkers cannot hit the 7 (they may not move): the 22 is hit by every 3 (11 rolls)
    # and by 1-1 entering and moving on; 6-6 reaches the 7 from the bar in three steps (the approximation
    # lets a checker entering on a double go on with 5 - bar steps)
    assert shot_rolls(b) == reference_shot_rolls(b) == 11 + 1 + 1


def test_contact_rearmost_and_primes_on_the_starting_position():
    b = Position.initial().board
    assert (rearmost(b), their_rearmost(b), bool(in_contact(b))) == (24, 1, True)
    assert longest_prime(b) == 1
    race = Position.from_checkers({6: 5, 5: 5, 4: 5}, {20: 15}).board
    assert not in_contact(race) and longest_prime(race) == 3


@pytest.mark.parametrize("behind, expected", [(True, 3), (False, 0)])
def test_a_blocking_prime_counts_only_with_a_checker_behind_it(behind, expected):
    # Given my three made points 4, 5, 6 and their checkers either behind them or all past them
    mine = {4: 2, 5: 2, 6: 2, 13: 9}
    theirs = {2: 15} if behind else {20: 15}
    m = -Position.from_checkers(mine, theirs).flip().board[::-1].astype(np.int64)
    assert blocking_prime(m, 1) == expected
