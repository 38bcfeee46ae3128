"""Network inputs: Tesauro's units, the hand-made features, the batch encoder."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.engine.analysis import escape_rolls, shot_rolls
from gammon.engine.encoding import ENCODINGS, N_INPUTS, N_RAW, encode_batch, encode_board, folded_inputs, input_names, linear_inputs
from gammon.engine.movegen import generate

ME, THEM = N_RAW + 1, N_RAW + 1 + 7
PIPS, HOME, PRIME, BLOTS, BACK, SHOTS, ESCAPES = range(7)


def board(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    return np.asarray(Position.from_checkers(mine, theirs).board, np.int8)


def random_boards(n: int, seed: int = 0) -> np.ndarray:
    """Positions from random play, each seen by the player on roll."""
    rng = np.random.default_rng(seed)
    out = []
    b = np.asarray(Position.initial().board, np.int8)
    while len(out) < n:
        after, _, over = generate(b, *rng.integers(1, 7, 2))
        i = rng.integers(len(after))
        b = np.asarray(Position.initial().board, np.int8) if over[i] else after[i]
        out.append(b)
    return np.stack(out)


@pytest.mark.parametrize(
    "n, units",
    [(0, [0, 0, 0, 0]), (1, [1, 0, 0, 0]), (2, [1, 1, 0, 0]), (3, [1, 1, 1, 0]), (4, [1, 1, 1, 0.5]), (7, [1, 1, 1, 2.0])],
)
def test_each_point_has_tesauros_four_units_for_both_sides(n, units):
    # Given n of my checkers on my 8 point and n of theirs on their 8 point (my 17)
    x = encode_board(board({8: n, 1: 15 - n}, {17: n, 24: 15 - n}))
    # Then the four units of each read as Tesauro's thresholds and (n - 3) / 2
    assert x[4 * 7 : 4 * 7 + 4].tolist() == units
    assert x[96 + 4 * 7 : 96 + 4 * 7 + 4].tolist() == units


def test_bar_is_scaled_by_half_and_borne_off_by_fifteenth():
    x = encode_board(board({25: 2, 6: 3}, {0: 1, 19: 4}))
    assert x[192] == 1.0 and x[193] == 0.5
    assert x[194] == pytest.approx(10 / 15) and x[195] == pytest.approx(10 / 15)


def test_initial_position_features():
    x = encode_board(Position.initial().board)
    assert x.shape == (N_INPUTS,) and x.dtype == np.float32
    assert x[N_RAW] == 1.0  # contact
    for side in (ME, THEM):
        assert x[side + PIPS] == pytest.approx(1.67)
        assert x[side + HOME] == pytest.approx(1 / 6)  # the 6 point
        assert x[side + PRIME] == pytest.approx(1 / 6)
        assert x[side + BLOTS] == 0 and x[side + SHOTS] == 0
        assert x[side + BACK] == pytest.approx(2 / 5)  # the two back checkers


def test_a_race_has_no_contact():
    x = encode_board(board({6: 5, 5: 5, 4: 5}, {19: 5, 20: 5, 21: 5}))
    assert x[N_RAW] == 0.0


def test_prime_is_the_longest_run_of_made_points():
    x = encode_board(board({4: 2, 5: 2, 6: 2, 7: 2, 9: 2, 10: 2, 24: 3}, {1: 15}))
    assert x[ME + PRIME] == pytest.approx(4 / 6)
    assert x[ME + HOME] == pytest.approx(3 / 6)


@pytest.mark.parametrize("distance, rolls", [(1, 11), (2, 12), (3, 14), (4, 15), (5, 15), (6, 17), (7, 6), (8, 6), (9, 5), (10, 3), (11, 2), (12, 3), (15, 1), (16, 1), (18, 1), (20, 1), (23, 0)])
def test_shots_at_a_lone_blot_match_the_standard_table(distance, rolls):
    # Given my single checker `distance` pips behind their lone blot, nothing in between
    b = np.zeros(26, np.int8)
    b[24] = 1
    b[24 - distance] = -1
    # Then the hitting rolls are the textbook count
    assert shot_rolls(b) == rolls


def test_shots_respect_blocked_intermediate_points():
    # Given a blot 8 away and their point 4 pips in front of my checker
    b = np.zeros(26, np.int8)
    b[24] = 1
    b[16] = -1
    b[20] = -2
    # Then 6-2 and 5-3 hit, 4-4 and 2-2 are blocked
    assert shot_rolls(b) == 4
    b[20] = 0
    assert shot_rolls(b) == 6


def test_shots_with_a_checker_on_the_bar_count_the_entering_checker_only():
    # Given my checker on the bar, a blot on their 3 point (my 22) and one on my 9
    b = np.zeros(26, np.int8)
    b[25] = 1
    b[10] = 1
    b[9] = -1
    b[22] = -1
    # Then the count is any 3, 2-1, 1-1 and 4-4 (bar/21/17/13/9*); the approximation
    # ignores the checker on 10, which could hit with a 1 after entering
    assert shot_rolls(b) == 11 + 2 + 1 + 1


def test_escapes_count_rolls_that_jump_the_blockade():
    # Given my back checker on their ace point (my 24) and nothing in front: every roll escapes
    b = np.zeros(26, np.int8)
    b[24] = 1
    b[1] = -15
    assert escape_rolls(b) == 36
    # Given a full six-prime right in front (my 23..18): no roll gets past
    b[1] = -3
    b[18:24] = -2
    assert escape_rolls(b) == 0
    # Given only their point 6 pips ahead: rolls summing to 6 land on it (5-1, 4-2, 3-3) and
    # 6-6 cannot move at all; 6-x is fine through the other die's point
    b[18:24] = 0
    b[18] = -2
    b[1] = -13
    assert escape_rolls(b) == 36 - 2 - 2 - 1 - 1


def _escapes_by_the_rule(n: int, blocked: int) -> int:
    """The escape rule of :func:`escape_rolls`, roll by roll: the sum's point open, and one die's point open."""
    def held(t: int) -> bool:
        return t >= 1 and bool((blocked >> t) & 1)

    total = 0
    for hi in range(1, 7):
        for lo in range(1, hi + 1):
            if held(n - hi - lo) or (held(n - hi) and held(n - lo)):
                continue
            total += 1 if hi == lo else 2
    return total


def test_escapes_from_the_window_table_follow_the_rule_on_every_point():
    from gammon.engine.analysis import escapes_from_mask

    rng = np.random.default_rng(11)
    masks = [0, (1 << 25) - 2] + [int(m) << 1 for m in rng.integers(0, 1 << 24, size=300)]
    for n in range(26):
        for blocked in masks:
            assert escapes_from_mask(n, blocked) == _escapes_by_the_rule(n, blocked), (n, f"{blocked:025b}")


def test_features_of_a_side_are_those_of_the_other_side_after_a_flip():
    boards = random_boards(300)
    x = encode_batch(boards)
    flipped = encode_batch(np.ascontiguousarray(-boards[:, ::-1]))
    assert np.array_equal(x[:, :96], flipped[:, 96:192])
    assert np.array_equal(x[:, ME:THEM], flipped[:, THEM:])
    assert np.array_equal(x[:, [192, 194]], flipped[:, [193, 195]])


def test_batch_encoder_matches_single_boards_and_stays_in_range():
    boards = random_boards(200, seed=3)
    x = encode_batch(boards)
    assert x.shape == (200, N_INPUTS)
    for i in range(0, 200, 37):
        assert np.array_equal(x[i], encode_board(boards[i]))
    assert np.isfinite(x).all() and x.min() >= 0.0 and x.max() <= 6.0


def test_input_names_cover_every_input():
    names = input_names()
    assert len(names) == len(set(names)) == N_INPUTS


def test_a_summary_updated_at_the_points_a_play_changed_equals_the_summary_of_the_result():
    # The incremental evaluation updates the base's board summary (masks, pips, counts) at the points and
    # bars a candidate play changed; that must give exactly the summary of the candidate itself.
    from gammon.engine.encoding import N_SUMMARY, summarise, summarise_bars, summarise_point

    def summary(b: np.ndarray) -> np.ndarray:
        s = np.empty(N_SUMMARY, np.int64)
        summarise(b, s)
        return s

    checked = hits = 0
    for before in random_boards(150, seed=4):
        base = -before[::-1]  # the position before the move, seen by the side on roll after it
        base_summary = summary(base)
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                after, _, _ = generate(before, d1, d2)
                for b in after:
                    s = base_summary.copy()
                    for p in np.flatnonzero(b[1:25] != base[1:25]) + 1:
                        summarise_point(s, int(p), int(base[p]), -1)
                        summarise_point(s, int(p), int(b[p]), 1)
                    summarise_bars(s, int(base[25]), int(base[0]), -1)
                    summarise_bars(s, int(b[25]), int(b[0]), 1)
                    assert np.array_equal(s, summary(b))
                    checked += 1
                    hits += b[25] > base[25]
    assert checked > 20_000 and hits > 500


def test_the_summary_gives_the_rearmost_checkers_and_the_checkers_left_of_each_side():
    # The incremental evaluation reads contact and the checkers not borne off off the summary instead of
    # scanning each candidate's board again.
    from gammon.engine.analysis import rearmost, their_rearmost
    from gammon.engine.encoding import N_SUMMARY, SUMMARY_ME_LEFT, SUMMARY_THEM_LEFT, rears_from_summary, summarise

    s = np.empty(N_SUMMARY, np.int64)
    boards = random_boards(3000, seed=12)
    for b in boards:
        summarise(b, s)
        assert rears_from_summary(b, s) == (rearmost(b), their_rearmost(b))
        assert (s[SUMMARY_ME_LEFT], s[SUMMARY_THEM_LEFT]) == (b[b > 0].sum(), -b[b < 0].sum())
    # the boards cover the bars, races and sides with checkers borne off
    assert (boards[:, 25] > 0).any() and (boards[:, 0] < 0).any() and (np.abs(boards).sum(axis=1) < 30).any()


@pytest.mark.parametrize("width", sorted(ENCODINGS))
def test_the_folded_inputs_are_sums_of_the_point_units_and_bars(width):
    # Given positions from random games, races and bear-offs among them, in every encoding
    x = encode_batch(random_boards(3000, seed=9), width).astype(np.float64)
    folded, a, c = linear_inputs(width)
    # Then each folded input is its constant plus its sum of the other inputs, none of them folded
    assert {input_names(width)[i].split(".")[1] for i in folded} >= {"off", "pips", "home", "blots", "back"}
    assert np.abs(x[:, folded] - (c + x @ a.T)).max() < 1e-6
    assert not a[:, folded].any() and not a[:, N_RAW + 1 :].any()
    # And the summary features that are not sums (prime, shots, escapes, ...) are not folded
    assert not folded_inputs(width)[[N_RAW, ME + PRIME, ME + SHOTS, ME + ESCAPES, THEM + PRIME, THEM + SHOTS, THEM + ESCAPES]].any()
