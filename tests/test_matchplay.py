"""Match-aware checker play: probabilities per play, MWC at a score, the runner's hook, gnubg's hints as oracle."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.bots.neural import load_neural
from gammon.cube import CubeState
from gammon.dice import SeededDice
from gammon.match import play_match
from gammon.matchplay import play_mwc
from gammon.outcomes import equity, flip
from support import best_plays_found, case_cube, matchplay_cases

CASES = matchplay_cases()

# Opponent's probabilities after two plays: the same chance to win, but "bold" leaves many more gammons both ways.
SAFE = [0.40, 0.05, 0.0, 0.05, 0.0]
BOLD = [0.40, 0.25, 0.01, 0.30, 0.02]


@pytest.fixture(scope="module")
def td():
    return load_neural("td1")


def test_play_probabilities_score_the_same_network_outputs_as_play_equities(td):
    # Given: a middle-game position (after 3-1 8/5 6/5 and the opponent's 6-4 24/14) and a roll
    position = Position.initial().apply(Position.initial().parse_play("8/5 6/5", (3, 1))).flip()
    position = position.flip().apply(position.flip().parse_play("24/14", (6, 4)))
    for dice in [(6, 5), (4, 4), (2, 1)]:
        plays, eq = td.play_equities(position, dice)
        _, probs = td.play_probabilities(position, dice)
        # Then: the mover's equity of the flipped probabilities is the equity path's (to float64 rounding)
        assert len(plays) == len(probs)
        assert np.allclose(-equity(probs.astype(np.float64)), eq, rtol=0.0, atol=1e-12)


def test_a_game_ending_play_gets_the_losers_exact_probabilities(td):
    # Given: my last two checkers on my 1 point, the opponent with all 15 on its 1 point (a gammon)
    position = Position.from_checkers({1: 2}, {24: 15})
    _, probs = td.play_probabilities(position, (2, 1))
    assert probs.tolist() == [[0.0, 0.0, 0.0, 1.0, 0.0]]


def test_at_double_match_point_gammons_are_worth_nothing():
    dmp = CubeState(match_length=7, score=(6, 6))
    safe, bold = play_mwc(np.array([SAFE, BOLD]), dmp)
    assert safe == pytest.approx(bold, abs=1e-12) == pytest.approx(0.6)


def test_money_like_scores_value_the_gammons():
    # Given: 0-0 in a 7-point match, where gammons count nearly as in money
    safe, bold = play_mwc(np.array([SAFE, BOLD]), CubeState(match_length=7, score=(0, 0)))
    # Then: the bold play, which wins more gammons than it loses, is worth more, as its money equity says
    assert float(equity(flip(np.array(BOLD)))) > float(equity(flip(np.array(SAFE))))
    assert bold > safe


def test_the_post_crawford_leader_saves_the_gammon_and_the_trailer_goes_for_it():
    # Given: 7-point match, 6-5 after the Crawford game, cube centred: the trailer (2-away)
    # wins the match with a gammon at cube 1, the leader's gammons win nothing more
    leader = CubeState(match_length=7, score=(6, 5))
    trailer = CubeState(match_length=7, score=(5, 6))
    # Play A leaves the opponent 40% with no gammons; play B leaves 38% but 20% of my wins gammons
    # and 15% of the opponent's: for the leader the opponent's gammons are what counts
    a = [0.40, 0.0, 0.0, 0.0, 0.0]
    b = [0.38, 0.15, 0.0, 0.20, 0.0]
    lead_a, lead_b = play_mwc(np.array([a, b]), leader)
    assert lead_a > lead_b
    # Then: for the trailer, a gammon of its own wins the match
    trail_a, trail_b = play_mwc(np.array([a, b]), trailer, cubeful=False)
    assert trail_b > trail_a


def test_a_dead_cube_makes_gammons_worthless():
    # Given: 7-point match at 3-3 (4-away each), cube at 4 on my side: any win wins the match
    dead = CubeState(match_length=7, score=(3, 3), cube=4, owner="me")
    safe, bold = play_mwc(np.array([SAFE, BOLD]), dead)
    assert safe == pytest.approx(bold, abs=1e-12) == pytest.approx(0.6)


def test_the_crawford_game_values_the_trailers_gammons():
    # Given: the Crawford game, 7-point match, me (the trailer) 4-away, the opponent 1-away: no cube
    crawford = CubeState(match_length=7, score=(3, 6), crawford=True)
    a = [0.60, 0.0, 0.0, 0.0, 0.0]  # opponent 60%, I win 40% all singles
    b = [0.62, 0.0, 0.0, 0.25, 0.0]  # opponent 62%, but 25% of all games are my gammons
    plain, gammonish = play_mwc(np.array([a, b]), crawford)
    assert gammonish > plain
    # and, the cube not in play, cubeful is cubeless
    assert play_mwc(np.array([a, b]), crawford, cubeful=False).tolist() == [plain, gammonish]


class _Recorder:
    """A player that records the cube states the runner gives it and plays the first legal play."""

    name = "recorder"

    def __init__(self):
        self.seen: list[CubeState] = []

    def choose_play(self, position, dice):  # pragma: no cover - the runner must prefer the match hook
        raise AssertionError("choose_play called although choose_match_play exists")

    def choose_match_play(self, position, dice, cube):
        self.seen.append(cube)
        return position.legal_plays(dice)[0]

    def offer_double(self, position, cube):
        return False

    def accept_double(self, position, cube):
        return True


def test_the_match_runner_tells_a_player_its_cube_state_before_each_play():
    me, other = _Recorder(), _Recorder()
    record = play_match(me, other, 3, SeededDice(5))
    assert record.finished and me.seen
    assert all(c.match_length == 3 for c in me.seen)
    # the scores it was shown are its own first, and cover the match as it went
    assert {c.score for c in me.seen} >= {(0, 0)}
    assert any(c.score != (0, 0) for c in me.seen + other.seen)


def test_match_aware_off_or_money_play_choose_as_before(td):
    position = Position.initial()
    off = load_neural("td1", match_aware=0)
    dmp = CubeState(match_length=7, score=(6, 6))
    for dice in [(6, 1), (4, 2), (5, 5)]:
        assert off.choose_match_play(position, dice, dmp) == td.choose_play(position, dice)
        assert td.choose_match_play(position, dice, CubeState()) == td.choose_play(position, dice)


AGREED = [
    c for c in CASES
    if Position.from_position_id(c["position_id"]).parse_play(c["gnubg_match"][0][0], tuple(c["dice"]))
    == Position.from_position_id(c["position_id"]).parse_play(c["bot_match"], tuple(c["dice"]))
]


@pytest.mark.parametrize("case", AGREED, ids=[f"{c['situation']}-{c['position_id']}-{c['dice']}" for c in AGREED])
def test_the_bot_plays_gnubgs_best_play_at_the_score_where_money_play_differs(td, case):
    position = Position.from_position_id(case["position_id"])
    dice = tuple(case["dice"])
    cube = case_cube(case)
    at_score = position.parse_play(case["gnubg_match"][0][0], dice)
    in_money = position.parse_play(case["gnubg_money"][0][0], dice)
    assert at_score != in_money
    assert td.choose_match_play(position, dice, cube) == at_score
    assert td.choose_play(position, dice) != at_score


def test_at_double_match_point_the_1_ply_bot_plays_for_the_best_1_ply_chance_to_win():
    # Given double match point (gammons count for nothing, the cube is dead): MWC is the chance to win the game
    bot = load_neural("td1", plies=1)
    dmp = CubeState(match_length=7, score=(6, 6))
    position = Position.from_position_id(CASES[0]["position_id"])
    for dice in [(6, 4), (2, 1)]:
        plays = list(position.legal_plays(dice))
        afters = [position.apply(p) for p in plays]
        win0 = [1.0 if a.is_game_over() else 1.0 - bot.probabilities(a, 0)[0] for a in afters]
        searched = sorted(range(len(plays)), key=lambda i: -win0[i])[: bot.prune]
        win1 = {i: 1.0 if afters[i].is_game_over() else 1.0 - bot.probabilities(afters[i], 1)[0] for i in searched}
        # Then among the plays it searches, it takes the one with the best chance to win after the opponent's reply
        assert bot.choose_match_play(position, dice, dmp) == plays[max(win1, key=win1.get)]


@pytest.mark.parametrize("spec", ["td1", "td"])  # the net the fixtures were made with, and the shipped one
@pytest.mark.parametrize("plies", [0, 1])
def test_match_aware_play_finds_more_of_gnubgs_best_plays_at_the_score_than_money_play(spec, plies):
    # Given GNU Backgammon's best plays at scores where they differ from its money plays
    at_score, in_money = best_plays_found(load_neural(spec, plies=plies), CASES)
    # Then choosing by MWC finds more of them than choosing by money equity at the same depth does
    # (of 11 here: td1 8 and 0 at 0-ply, 5 and 2 at 1-ply; td 4 and 0, 9 and 0)
    assert at_score > in_money
