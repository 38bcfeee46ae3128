"""gammon.outcomes: game results and points, outcome probabilities, flip and equity, compiled and numpy alike."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.bots.random_bot import RandomBot
from gammon.dice import SeededDice
from gammon.outcomes import (
    equity,
    equity5,
    flip,
    flip_into,
    game_result,
    lost_probs,
    mover_equity,
    results,
    rule_out_into,
    sanitize,
    won_probs,
    worst_loss,
)


@pytest.mark.parametrize(
    "loser, points",
    [({6: 10}, 1), ({6: 13, 24: 1}, 1), ({6: 15}, 2), ({6: 10, 18: 5}, 2), ({6: 14, 19: 1}, 3), ({6: 14, 25: 1}, 3)],
)
def test_a_finished_game_scores_single_gammon_or_backgammon(loser, points):
    # Given the final board seen by the loser (on roll; the winner has nothing left)
    board = Position.from_checkers(loser, {}).board
    # Then a loser who bore off scores 1; none off: 2; one still in the winner's home or on the bar: 3
    assert game_result(board) == points
    assert Position(board).result() == points
    assert results(board[None, :]).tolist() == [float(points)]


def test_a_game_that_goes_on_has_no_result():
    assert game_result(Position.initial().board) == 0
    assert Position.initial().result() == 0


@pytest.mark.parametrize(
    "mine, value",
    [({6: 14}, 1), ({6: 15}, 2), ({6: 14, 20: 1}, 3), ({6: 14, 25: 1}, 3), ({6: 10, 18: 5}, 2)],
)
def test_worst_loss_is_what_the_player_on_roll_loses_if_the_opponent_bears_off_now(mine, value):
    assert worst_loss(Position.from_checkers(mine, {1: 1}).board) == value


def test_flip_swaps_wins_and_losses_and_twice_is_the_identity():
    p = np.array([0.7, 0.3, 0.05, 0.1, 0.01])
    # win 0.7 -> 0.4, gammons +0.3 -0.1, backgammons +0.05 -0.01
    assert equity(p) == pytest.approx(0.64)
    assert equity(flip(p)) == pytest.approx(-0.64)
    assert np.allclose(flip(flip(p)), p)


def test_compiled_and_numpy_forms_agree_exactly():
    rng = np.random.default_rng(3)
    for p in sanitize(rng.random((200, 5))):
        out = np.empty(5)
        flip_into(p, out)
        assert out.tolist() == flip(p).tolist()
        assert equity5(*p) == float(equity(p))
        assert mover_equity(*p) == pytest.approx(-float(equity(p)), abs=1e-12)


def test_exact_probabilities_of_finished_games():
    assert won_probs(1).tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]
    assert won_probs(3).tolist() == [1.0, 1.0, 1.0, 0.0, 0.0]
    assert lost_probs(2).tolist() == flip(won_probs(2)).tolist()
    assert [float(equity(won_probs(k))) for k in (1, 2, 3)] == [1.0, 2.0, 3.0]


def test_sanitize_makes_outputs_cumulative():
    p = sanitize(np.array([0.4, 0.5, 0.6, 0.7, 0.8]))
    assert p.tolist() == pytest.approx([0.4, 0.4, 0.4, 0.6, 0.6])


def test_game_result_matches_the_points_of_played_games():
    bots, dice = (RandomBot(seed=1), RandomBot(seed=2)), SeededDice(4)
    for _ in range(30):
        pos, turn = Position.initial(), 0
        while not pos.is_game_over():
            pos = pos.apply(bots[turn].choose_play(pos, dice.roll()))
            turn ^= 1
        mine, _ = Position(pos.board).checkers()
        expected = 1 if sum(mine) < 15 else 3 if (mine[24] or any(mine[18:24])) else 2
        assert game_result(pos.board) == expected


def ruled_out(mine: dict, theirs: dict) -> list[float]:
    out = np.full(5, 0.5)
    rule_out_into(Position.from_checkers(mine, theirs).board, out)
    return out.tolist()


def test_a_side_that_has_borne_off_cannot_lose_a_gammon():
    # (their checkers in my numbering) they have borne off one checker: I cannot win a gammon (nor a backgammon); I still can lose one
    assert ruled_out({6: 15}, {24: 14}) == [0.5, 0.0, 0.0, 0.5, 0.0]
    # I have borne off one: I cannot lose a gammon
    assert ruled_out({6: 14}, {19: 15}) == [0.5, 0.5, 0.0, 0.0, 0.0]


def test_backgammons_are_ruled_out_only_once_nothing_can_send_a_checker_back():
    # a race with my checker still in their home board: I can still lose a backgammon, they cannot
    assert ruled_out({6: 14, 20: 1}, {24: 15}) == [0.5, 0.5, 0.0, 0.5, 0.5]
    # in contact every outcome stays possible: a hit can send any checker back
    assert ruled_out({6: 13, 13: 2}, {19: 13, 3: 2}) == [0.5] * 5
    out = np.full(5, 0.5)
    rule_out_into(Position.initial().board, out)
    assert out.tolist() == [0.5] * 5
