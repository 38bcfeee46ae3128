"""The race encoding (``tesauro+race``): none off, the borne-off thermometer, crossovers, checkers outside
home and pips to come home, for each side, on literal positions."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.engine.encoding import N_INPUTS, N_RACE_INPUTS, encode_batch, input_names
from gammon.engine.movegen import generate

RACE = {name: i for i, name in enumerate(input_names(N_RACE_INPUTS))}


def board(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    """A board from checkers in the on-roll player's numbering (theirs too)."""
    return np.asarray(Position.from_checkers(mine, theirs).board, np.int8)


def race(b: np.ndarray, name: str) -> float:
    return float(encode_batch(b.reshape(1, 26), N_RACE_INPUTS)[0, RACE[name]])


def thermometer(b: np.ndarray, side: str) -> list[float]:
    return [race(b, f"{side}.off>={k}") for k in range(1, 15)]


def test_the_race_encoding_starts_with_the_211_inputs_of_the_first_encoding():
    b = board({6: 5, 8: 3, 13: 5, 24: 2}, {1: 2, 12: 5, 17: 3, 19: 5})
    wide = encode_batch(b.reshape(1, 26), N_RACE_INPUTS)[0]
    assert wide.shape == (N_RACE_INPUTS,) == (247,) and len(RACE) == N_RACE_INPUTS
    np.testing.assert_array_equal(wide[:N_INPUTS], encode_batch(b.reshape(1, 26), N_INPUTS)[0])


def test_none_off_is_set_only_while_a_side_has_borne_off_no_checker():
    # 15 checkers of mine on the board; they have borne off one
    b = board({1: 5, 2: 5, 8: 5}, {24: 7, 23: 7})
    assert race(b, "me.none_off") == 1.0 and race(b, "them.none_off") == 0.0


def test_the_borne_off_thermometer_counts_each_checker_off():
    # I have borne off 4 (11 left), they 14 (1 left)
    b = board({1: 5, 2: 6}, {24: 1})
    assert thermometer(b, "me") == [1.0] * 4 + [0.0] * 10
    assert thermometer(b, "them") == [1.0] * 14
    assert race(b, "me.none_off") == race(b, "them.none_off") == 0.0


def test_crossovers_count_the_quarters_each_checker_still_has_to_cross():
    # mine: 2 on my 7 point (one quarter each), 1 on my 13 (two), 1 on my 24 (three), the rest home
    b = board({7: 2, 13: 1, 24: 1, 6: 11}, {1: 15})
    assert race(b, "me.crossovers") == pytest.approx((2 * 1 + 2 + 3) / 10)
    # theirs: 3 on my 13 point, their 12 point (in their outer board: one quarter each), 12 home
    b = board({1: 15}, {13: 3, 24: 12})
    assert race(b, "them.crossovers") == pytest.approx(3 / 10)


def test_checkers_outside_home_and_their_pips_to_come_home():
    # mine: 2 on my 7 point (1 pip each to my 6 point), 1 on 13 (7), 1 on 24 (18)
    b = board({7: 2, 13: 1, 24: 1, 6: 11}, {19: 15})
    assert race(b, "me.outside") == pytest.approx(4 / 15)
    assert race(b, "me.home_pips") == pytest.approx((2 + 7 + 18) / 50)
    assert race(b, "them.outside") == 0.0 and race(b, "them.home_pips") == 0.0


def test_a_checker_on_the_bar_has_four_quarters_and_nineteen_pips_to_come_home():
    b = board({25: 1, 6: 14}, {0: 1, 24: 14})
    for side in ("me", "them"):
        assert race(b, f"{side}.crossovers") == pytest.approx(4 / 10)
        assert race(b, f"{side}.outside") == pytest.approx(1 / 15)
        assert race(b, f"{side}.home_pips") == pytest.approx(19 / 50)


def test_their_race_inputs_are_mine_seen_from_their_side():
    rng = np.random.default_rng(3)
    b = np.asarray(Position.initial().board, np.int8)
    for _ in range(300):
        after, _, over = generate(b, *rng.integers(1, 7, 2))
        i = int(rng.integers(len(after)))
        b = np.asarray(Position.initial().board, np.int8) if over[i] else after[i]
        flipped = -b[::-1]
        mine = encode_batch(b.reshape(1, 26), N_RACE_INPUTS)[0]
        theirs = encode_batch(flipped.reshape(1, 26), N_RACE_INPUTS)[0]
        np.testing.assert_array_equal(mine[N_INPUTS : N_INPUTS + 18], theirs[N_INPUTS + 18 :])
