"""Resignations: bots accept what their own evaluation says is worth accepting, and offer when the game is lost."""

from __future__ import annotations

import io

import numpy as np
import pytest

from gammon.bots import load
from gammon.cube import CubeState
from gammon.dice import SeededDice
from gammon.errors import GammonError
from gammon.match import Match
from gammon.position import Position
from gammon.records import Rules
from gammon.resign import Resigning, accepts, expected_points, offer, race_offer, with_resignations
from gammon.tui.human import HumanBot

EVEN = np.array([0.5, 0.15, 0.01, 0.15, 0.01])
#: The resigner (on roll) with three checkers on the bar against a closed board.
CLOSED_OUT = Position.from_checkers({25: 3, 13: 6, 6: 6}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 18: 3})


def td():
    try:
        return load("td")
    except GammonError as exc:
        pytest.skip(f"td not available: {exc}")


@pytest.mark.parametrize("spec", ["level3", "td"])
def test_a_bot_accepts_a_single_resignation_in_an_even_opening(spec):
    bot = Resigning(td() if spec == "td" else load(spec))
    assert bot.accept_resignation(Position.initial(), 1, CubeState()) is True


@pytest.mark.parametrize("spec", ["level3", "td"])
def test_a_bot_rejects_a_single_when_it_expects_more_and_accepts_the_gammon(spec):
    bot = Resigning(td() if spec == "td" else load(spec))
    assert bot.accept_resignation(CLOSED_OUT, 1, CubeState()) is False
    assert bot.accept_resignation(CLOSED_OUT, 2, CubeState()) is True


def test_an_offer_is_worth_the_cube_and_what_the_match_still_needs():
    gammonish = np.array([0.05, 0.0, 0.0, 0.7, 0.05])  # the resigner's chances: mostly gammoned
    assert not accepts(gammonish, 1, CubeState(cube=2))
    # In a 5-point match where the accepter needs just 2 points, a single at cube 2 wins the match: accept.
    assert accepts(gammonish, 1, CubeState(cube=2, match_length=5, score=(3, 0)))
    assert expected_points(EVEN, CubeState(cube=4)) == pytest.approx(0.0)


def test_a_bot_offers_a_single_in_a_lost_race():
    # Five checkers left against one on the opponent's 1-point: the opponent is off next roll.
    lost = Position.from_checkers({6: 5}, {24: 1})
    assert race_offer(lost) == 1
    assert Resigning(load("level3")).offer_resignation(lost, CubeState()) == 1


def test_a_bot_offers_a_gammon_it_cannot_save():
    gammoned = Position.from_checkers({18: 15}, {24: 1})
    assert race_offer(gammoned) == 2
    assert Resigning(load("level3")).offer_resignation(gammoned, CubeState()) == 2


def test_a_bot_does_not_resign_a_race_it_may_still_win_or_a_contact_position():
    assert race_offer(Position.from_checkers({6: 2}, {24: 2, 23: 1})) is None
    assert offer(EVEN, Position.initial()) == 0
    assert Resigning(load("level3")).offer_resignation(Position.initial(), CubeState()) == 0


def test_a_rejected_offer_is_not_made_again_in_that_game():
    lost = Position.from_checkers({6: 5}, {24: 1})

    class Rejects:
        name = "ann"

        def choose_play(self, position, dice):
            return position.legal_plays(dice)[0]

        def offer_double(self, position, cube):
            return False

        def accept_double(self, position, cube):
            return True

        def accept_resignation(self, position, value, cube):
            return False

    from gammon.ids import MatchState

    bot = with_resignations(load("level3"))
    match = Match([bot, Rejects()], SeededDice(1), Rules(), games=1, position=lost,
                  start=MatchState(player_on_roll=0, turn=0, game_state="playing"))
    match.play()
    game = match.record.games[0]
    assert [a.kind for a in game.actions].count("resign") <= 1


def test_the_bot_resigns_to_a_human_who_accepts():
    from gammon.ids import MatchState

    out = io.StringIO()
    me = HumanBot("ann", input=io.StringIO("accept\n"), output=out, show_board=False)
    match = Match([with_resignations(load("level3")), me], SeededDice(1), Rules(), games=1,
                  position=Position.from_checkers({6: 5}, {24: 1}),
                  start=MatchState(player_on_roll=0, turn=0, game_state="playing", dice=(0, 0)))
    match.play()
    game = match.record.games[0]
    assert game.ended_by == "resign" and game.winner == 1 and game.points == 1
    assert "level3 offers to resign a single game (1 point). ann, accept or reject? " in out.getvalue()


def test_resign_at_the_take_prompt_passes():
    out = io.StringIO()
    me = HumanBot("ann", input=io.StringIO("resign gammon\nresign\n"), output=out, show_board=False)
    assert me.accept_double(Position.initial(), CubeState(cube=2)) is False
    text = out.getvalue()
    assert "Passing gives up only 2 points; resigning a gammon would give up 4 points" in text
    assert "Resigning a single game when doubled is passing: ann passes, giving up 2 points." in text


def test_hint_at_the_take_prompt_gives_the_cube_analysis_and_asks_again():
    from gammon.bots.neural import load_neural

    out = io.StringIO()
    me = HumanBot("ann", input=io.StringIO("hint\ntake\n"), output=out, show_board=False, helper=load_neural("td"))
    assert me.accept_double(Position.initial(), CubeState()) is True
    text = out.getvalue()
    assert "Cubeful equities:" in text and "td would take." in text
