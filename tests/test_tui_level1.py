"""Level 1 is a plausible beginner: legal, simple plays with obvious mistakes, rarely backgammoned."""

from __future__ import annotations

import numpy as np

from gammon.arena.pairing import pair_seed, play_outcome
from gammon.bots.heuristic import HeuristicBot
from gammon.dice import SeededDice


def test_level1_loses_to_level2_by_about_a_point_a_game_and_is_rarely_backgammoned():
    # 200 cubeless duplicate games, seed 11 (gammon eval level2 level1 --games 2000 --seed 11 gives +0.71,
    # with level 1 backgammoned in 5.3% of the games).
    points = []
    for pair in range(100):
        for swapped in (False, True):
            two, one = HeuristicBot(2, seed=4 * pair + 2), HeuristicBot(1, seed=4 * pair + 3)
            outcome = play_outcome((one, two) if swapped else (two, one), SeededDice(pair_seed(11, pair)))
            points.append(-outcome.points if swapped else outcome.points)
    points = np.array(points)
    assert 0.3 < points.mean() < 1.2
    assert (points == 3).mean() < 0.10  # level 1 was backgammoned in 3 games of 4, then in 1 of 8
    assert (points < 0).mean() > 0.15  # and it wins some


def test_level1_makes_obvious_mistakes_but_only_legal_plays():
    from gammon.position import Position

    bot, best = HeuristicBot(1, seed=3), HeuristicBot(4)  # level 4 makes the 5-point
    position = Position.initial()
    choices = {str(bot.choose_play(position, (3, 1))) for _ in range(40)}
    assert choices <= {str(p) for p in position.legal_plays((3, 1))}
    assert str(best.choose_play(position, (3, 1))) == "8/5 6/5" and len(choices) > 1  # not always the best
