"""Bots: the protocol for every player kind, the heuristic levels, the shot counting, the external peers."""

from __future__ import annotations

import importlib.util
import pickle
import random
import sys

import numpy as np
import pytest

from gammon.engine import movegen
from gammon.bots import Bot, UnknownBotError, load
from gammon.cube import CubeState
from gammon.engine import terms as ft
from gammon.engine.analysis import hit_rolls
from gammon.outcomes import results
from gammon.bots.heuristic import LEVELS, HeuristicBot
from gammon.errors import GammonError
from gammon.position import ROLLS, Position

needs_gnubg = pytest.mark.skipif(importlib.util.find_spec("gnubg_nn") is None, reason="needs the gnubg extra (gnubg-nn)")

ALL_BOTS = [
    "random", "level1", "level2", "level3", "level4", "level5",
    pytest.param("pubeval", marks=needs_gnubg), pytest.param("gnubg", marks=needs_gnubg),
]


def sample_positions(count: int, seed: int) -> list[Position]:
    """Positions from random play, a few from each stage of the game."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.initial()
        for turn in range(rng.randrange(4, 120)):
            plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            after = position.apply(plays[rng.randrange(len(plays))])
            if after.is_game_over():
                break
            position = after
        found.append(position)
    return found


POSITIONS = sample_positions(12, seed=2024) + [
    Position.initial(),
    Position.from_checkers({25: 2, 6: 5, 8: 3, 13: 5}, {p: 2 for p in range(19, 25)}),  # closed out
    Position.from_checkers({1: 3, 2: 2}, {24: 2, 23: 1}),  # bear-off race
]


# -- the protocol ------------------------------------------------------------------


@pytest.mark.parametrize("spec", ALL_BOTS)
def test_every_bot_returns_one_of_the_legal_plays_for_every_roll(spec):
    # Given a bot and positions from every stage of the game
    bot = load(spec, seed=1)
    assert isinstance(bot, Bot)
    for position in POSITIONS:
        for dice, _ in ROLLS:
            # When it chooses a play
            play = bot.choose_play(position, dice)
            # Then the play is one of the legal plays of that position and roll
            assert play in position.legal_plays(dice)
            position.apply(play)  # and the position accepts it


@pytest.mark.parametrize("spec", ALL_BOTS)
def test_every_bot_answers_the_cube_hooks_with_booleans(spec):
    bot = load(spec, seed=1)
    for position in POSITIONS[:4]:
        assert isinstance(bot.offer_double(position, CubeState()), bool)
        assert isinstance(bot.accept_double(position, CubeState(cube=2, owner="opponent")), bool)


@pytest.mark.parametrize("spec", ALL_BOTS)
def test_every_bot_survives_pickling_for_the_arena_workers(spec):
    bot = load(spec, seed=3)
    copy = pickle.loads(pickle.dumps(bot))
    position = POSITIONS[4]
    assert copy.choose_play(position, (6, 2)) == bot.choose_play(position, (6, 2))


@pytest.mark.parametrize("level", [1, 2, 3, 5])
def test_a_heuristic_level_plays_the_same_game_under_the_same_seed(level):
    def choices(seed: int) -> list[str]:
        bot = HeuristicBot(level, seed=seed)
        return [str(bot.choose_play(p, d)) for p in POSITIONS[:6] for d, _ in ROLLS]

    assert choices(11) == choices(11)
    if LEVELS[level].noise > 0:
        assert choices(11) != choices(12)


def test_reseed_restarts_the_noise():
    bot = HeuristicBot(1, seed=5)
    first = [str(bot.choose_play(p, (6, 4))) for p in POSITIONS]
    bot.reseed(5)
    assert [str(bot.choose_play(p, (6, 4))) for p in POSITIONS] == first


def test_unknown_levels_are_rejected_with_a_gammon_error():
    with pytest.raises(GammonError, match="levels are 1 to 5"):
        HeuristicBot(6)
    with pytest.raises(UnknownBotError, match="level1 to level5"):
        load("level0")


# -- the levels' tables ------------------------------------------------------------------


def test_each_level_has_its_own_weight_table_naming_known_terms():
    assert sorted(LEVELS) == [1, 2, 3, 4, 5]
    for number, level in LEVELS.items():
        assert level.weights, f"level {number} has no weights"
        assert set(level.weights) <= set(ft.TERMS)
        assert level.vector.shape == (ft.N_FEATURES,)


def test_each_level_knows_every_term_of_the_level_below():
    for lower, upper in zip(range(2, 5), range(3, 6)):
        missing = set(LEVELS[lower].weights) - set(LEVELS[upper].weights)
        assert not missing, f"level {upper} forgets {missing}"
    # the beginner knows level 2's terms but minds its blots less, and has one worry of its own:
    # back checkers behind a strong board (without it, level 2 backgammoned it in 1 game of 8)
    assert LEVELS[1].weights.keys() == LEVELS[2].weights.keys() | {"gammon_risk"}
    assert LEVELS[2].weights["blots"] < LEVELS[1].weights["blots"] < 0
    assert LEVELS[1].weights["gammon_risk"] < 0
    assert LEVELS[1].noise > LEVELS[2].noise > LEVELS[3].noise > LEVELS[4].noise == 0
    assert LEVELS[5].lookahead > 0 and LEVELS[5].reply_level == 4


def test_level_four_makes_the_five_point_with_three_one():
    assert str(HeuristicBot(4).choose_play(Position.initial(), (3, 1))) == "8/5 6/5"


# -- shot counting -------------------------------------------------------------------


def shots_at(distance: int) -> int:
    """Rolls (of 36) with which a lone opposing checker hits my blot ``distance`` pips away, nothing in between."""
    blot = distance + 1  # their checker on my 1 point, my blot in front of it
    me_on_roll_after = Position.from_checkers({blot: 1}, {1: 1}).flip()  # they are on roll
    return sum(1 if a == b else 2 for a, b in hit_rolls(me_on_roll_after.board))


@pytest.mark.parametrize(
    "distance, shots",
    [(1, 11), (2, 12), (3, 14), (4, 15), (5, 15), (6, 17), (7, 6), (8, 6), (9, 5), (10, 3), (11, 2), (12, 3),
     (13, 0), (15, 1), (16, 1), (18, 1), (20, 1), (21, 0), (22, 0)],
)
def test_a_blot_is_hit_by_the_textbook_number_of_rolls(distance, shots):
    if distance + 1 > 24:
        pytest.skip("off the board")
    assert shots_at(distance) == shots


def test_a_made_point_in_between_blocks_the_combination_shots():
    # My blot 8 pips in front of their checker, and my point 4 pips in front: 4-4 and
    # 2-2 can no longer get there; 6-2, 5-3 still can (via the open 6 and 5 points away).
    position = Position.from_checkers({9: 1, 5: 2}, {1: 1}).flip()
    rolls = hit_rolls(position.board)
    assert (4, 4) not in rolls and (2, 2) not in rolls
    assert (6, 2) in rolls and (5, 3) in rolls


def test_a_checker_on_the_bar_must_enter_before_it_hits():
    # Their checker on the bar, my blot on my 3 point: enters with a 3, or 2-1, or 1-1.
    position = Position.from_checkers({3: 1, 13: 2}, {0: 1}).flip()
    assert sum(1 if a == b else 2 for a, b in hit_rolls(position.board)) == 14
    # With two of theirs on the bar, only a die that enters on the blot hits.
    # With two of theirs on the bar both dice enter: a 3 hits, and 1-1 (both enter, one goes on).
    position = Position.from_checkers({3: 1, 13: 2}, {0: 2}).flip()
    assert sum(1 if a == b else 2 for a, b in hit_rolls(position.board)) == 12


def test_shot_counting_agrees_with_the_move_generator_on_random_positions():
    # The only disagreements allowed are the rare rolls where the must-use-both-dice
    # rule forbids the hitting play; the counting ignores that rule.
    agree = total = 0
    for position in sample_positions(150, seed=7):
        brute = set()
        for (a, b), _ in ROLLS:
            _, steps, _ = movegen.generate(position.board, max(a, b), min(a, b))
            if (steps[:, :, 2] == 1).any():
                brute.add((max(a, b), min(a, b)))
        counted = set(hit_rolls(position.board))
        assert brute <= counted
        agree += brute == counted
        total += 1
    assert agree / total > 0.97


# -- lookahead -------------------------------------------------------------------------


def python_lookahead(after_row: np.ndarray, reply: np.ndarray, value: np.ndarray) -> float:
    """The level-5 lookahead written out: the opponent's best reply to each of the 21 rolls."""
    position = Position(after_row)
    if position.is_game_over():
        return float(position.result())
    total = 0.0
    for dice, weight in ROLLS:
        replies = position.legal_plays(dice).after
        best = int(np.argmax(ft.evaluate(replies, reply)))
        total -= weight * ft.value(replies[best : best + 1], value)[0]
    assert sum(w for _, w in ROLLS) == 36
    return total / 36.0


def test_the_lookahead_averages_the_opponents_best_reply_over_all_21_rolls():
    reply, value = LEVELS[4].vector, LEVELS[5].vector
    plays = POSITIONS[3].legal_plays((5, 2))
    got = ft.lookahead(plays.after, reply, value)
    want = [python_lookahead(row, reply, value) for row in plays.after]
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def test_level_five_blends_its_static_score_with_the_lookahead():
    bot = HeuristicBot(5)
    position = POSITIONS[5]
    plays, scores = bot.scores(position, (4, 1))
    after = position.legal_plays((4, 1)).after
    static = ft.evaluate(after, LEVELS[5].vector)
    kept = np.flatnonzero(np.isfinite(scores))
    assert 1 <= len(kept) <= LEVELS[5].candidates
    blend = LEVELS[5].lookahead
    for i in kept:
        deeper = python_lookahead(after[i], LEVELS[4].vector, LEVELS[5].vector)
        assert scores[i] == pytest.approx((1 - blend) * static[i] + blend * deeper)
    assert str(bot.choose_play(position, (4, 1))) == str(plays[int(np.argmax(scores))])


def test_a_play_that_wins_scores_the_points_it_wins():
    position = Position.from_checkers({1: 1, 2: 1}, {5: 15})
    plays = position.legal_plays((2, 1))
    # A backgammon (theirs are in my home board) is worth 3 and ranks above any play that goes on,
    # even for a level whose pip-count score of the other play is higher than that.
    assert ft.value(plays.after, LEVELS[1].vector).tolist() == [3.0, 3.0]
    assert ft.evaluate(plays.after, LEVELS[1].vector)[0] == ft.WIN_BONUS + 3.0
    assert str(HeuristicBot(1, seed=3).choose_play(position, (2, 1))) == "2/off 1/off"
    assert str(HeuristicBot(5).choose_play(position, (2, 1))) == "2/off 1/off"


# -- cube ------------------------------------------------------------------------------


def test_heuristic_cube_policy_is_sane():
    bot = HeuristicBot(3)
    start = Position.initial()
    assert 0.4 < bot.estimate(start)[1] < 0.65
    assert not bot.offer_double(start, CubeState())
    assert bot.accept_double(start, CubeState(cube=2, owner="opponent"))
    # A race 11 pips ahead, no gammons: a double and a take, as gammon.cube decides.
    race = Position.from_checkers({6: 4, 5: 4, 4: 3, 3: 2, 2: 2}, {18: 3, 19: 4, 20: 3, 21: 2, 22: 3})
    assert 0.7 < bot.estimate(race)[1] < 0.85
    assert bot.offer_double(race, CubeState())
    assert not bot.offer_double(race, CubeState(owner="opponent"))  # not ours to turn
    assert not bot.offer_double(race, CubeState(match_length=5, score=(4, 2), crawford=True))  # Crawford game
    assert bot.accept_double(race, CubeState(cube=2, owner="opponent"))  # the doubler is on roll
    # Crushing, with the gammon likely: too good to double, and a pass for the taker.
    crushing = Position.from_checkers({1: 2, 2: 2, 3: 2}, {13: 5, 20: 5, 24: 5})
    assert bot.estimate(crushing)[1] > 0.95
    assert not bot.offer_double(crushing, CubeState())  # plays on for the gammon
    assert not bot.accept_double(crushing, CubeState(cube=2, owner="opponent"))


def test_heuristic_probabilities_feed_the_cube_module():
    from gammon.cube import decide

    bot = HeuristicBot(4)
    for position in POSITIONS[:6]:
        win, wg, wbg, lg, lbg = bot.probabilities(position)
        assert 0 <= wbg <= wg <= win <= 1 and 0 <= lbg <= lg <= 1 - win
        equity, _ = bot.estimate(position)
        assert 2 * win - 1 + wg - lg == pytest.approx(max(min(equity, 2 * win - 1 + win), 2 * win - 1 - (1 - win)))
        decide((win, wg, wbg, lg, lbg))  # accepted as cube input


# -- external peers ----------------------------------------------------------------------


@needs_gnubg
def test_gnubg_bot_plays_what_gnubg_chooses():
    import gnubg_nn

    from gammon.bots.external import from_gnubg_board, gnubg_boards

    bot = load("gnubg")
    for position in POSITIONS:
        for dice in ((6, 5), (3, 3), (2, 1)):
            board = gnubg_boards(position.board[None, :])[0].tolist()
            if len(position.legal_plays(dice)) == 1:
                continue
            _, key = gnubg_nn.best_move(board, *dice, b=1)
            play = bot.choose_play(position, dice)
            assert bytes(play._after) == bytes(from_gnubg_board(gnubg_nn.board_from_position_key(key)))


@needs_gnubg
def test_pubeval_bot_plays_the_best_pubeval_score():
    import gnubg_nn

    from gammon.bots.external import gnubg_boards

    bot = load("pubeval")
    for position in POSITIONS[:8]:
        plays = position.legal_plays((6, 3))
        if results(plays.after).max() > 0:
            continue
        scores = [gnubg_nn.pub_eval_score(b) for b in gnubg_boards(plays.after).tolist()]
        assert bot.choose_play(position, (6, 3)) == plays[int(np.argmax(scores))]


def test_without_gnubg_nn_the_external_bots_say_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "gnubg_nn", None)  # makes `import gnubg_nn` fail
    for spec in ("pubeval", "gnubg"):
        with pytest.raises(GammonError, match=r"pip install gammon\[gnubg\]"):
            load(spec)


def test_load_reads_options_written_into_the_spec():
    from gammon.bots import UnknownBotError, load

    bot = load("level2:noise=0.0,seed=4")
    assert bot.noise == 0.0 and bot.seed == 4
    assert load("level2:noise=0.0", noise=0.5).noise == 0.5  # keyword options win
    with pytest.raises(UnknownBotError, match="level2:noise"):
        load("level2:noise")
