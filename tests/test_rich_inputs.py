"""The rich contact encoding (``tesauro+31``): double shots, pip loss, mobility and timing, on literal
positions and against the rules engine's own moves."""

from __future__ import annotations

import numpy as np
import pytest

from gammon import Position
from gammon.engine.analysis import ROLLS, hits_from_masks, shot_rolls
from gammon.engine.encoding import N_CONTACT_INPUTS, N_RICH_INPUTS, encode_batch, input_names
from gammon.engine.movegen import generate

RICH = {name: i for i, name in enumerate(input_names(N_RICH_INPUTS))}


def board(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    return np.asarray(Position.from_checkers(mine, theirs).board, np.int8)


def rich(b: np.ndarray, name: str) -> float:
    return float(encode_batch(b.reshape(1, 26), N_RICH_INPUTS)[0, RICH[name]])


def hitter_masks(b: np.ndarray) -> tuple[int, int, int, int, int]:
    """The masks of :func:`hits_from_masks` for the side on roll in ``b`` hitting the other side."""
    sources = sum(1 << p for p in range(1, 25) if b[p] > 0)
    doubled = sum(1 << p for p in range(1, 25) if b[p] > 1)
    blots = sum(1 << p for p in range(1, 25) if b[p] == -1)
    blocked = sum(1 << p for p in range(1, 25) if b[p] <= -2)
    return sources, doubled, int(b[25]), blots, blocked


def by_the_rules(b: np.ndarray) -> tuple[int, int]:
    """Double shots and pip loss of the side on roll in ``b`` hitting, from the legal plays of every roll:
    the rolls with a play that hits twice, and the sum over rolls of the farthest-travelled blot a play hits."""
    double = pips = 0
    for (d1, d2), weight in ROLLS:
        _, steps, _ = generate(b, d1, d2)
        most_hits = farthest = 0
        for play in steps:
            hit = [int(dest) for src, dest, h in play if src >= 0 and h]
            most_hits = max(most_hits, len(hit))
            farthest = max([farthest, *hit])
        double += weight * (most_hits >= 2)
        pips += weight * farthest
    return double, pips


def test_the_rich_encoding_starts_with_the_219_inputs_of_the_contact_encoding():
    b = np.asarray(Position.initial().board, np.int8)
    wide = encode_batch(b.reshape(1, 26), N_RICH_INPUTS)[0]
    assert wide.shape == (N_RICH_INPUTS,)
    assert np.array_equal(wide[:N_CONTACT_INPUTS], encode_batch(b.reshape(1, 26), N_CONTACT_INPUTS)[0])


def test_pip_loss_is_the_shots_times_the_pips_the_hit_blot_has_travelled():
    # Given my blot on my 10 point, their checker 6 pips behind it on my 4 point and my 6 point made:
    # 11 rolls with a 6, 5-1 and 4-2 over an open point, 3-3 (2-2 lands on my 6 point): 16 shots
    b = board({10: 1, 6: 14}, {4: 1, 19: 14})
    assert rich(b, "me.double_shots") == 0.0  # one blot
    assert rich(b, "me.pip_loss") == pytest.approx(16 * 15 / (36 * 12))  # the hit costs me 25 - 10 pips


def test_double_shots_count_the_rolls_that_hit_two_blots():
    # Given my blots on my 10 and 12 points and their only checker behind them on my 9 point:
    # it hits both with 2-1 (the 1 to my 10, then the 2) and with 1-1 (three steps): 3 rolls of 36
    b = board({10: 1, 12: 1, 6: 13}, {9: 1, 19: 14})
    flipped = np.asarray(-b[::-1], np.int8)  # their view: they are on roll and hit me
    assert by_the_rules(flipped)[0] == 3
    assert rich(b, "me.double_shots") == pytest.approx(3 / 36)


def test_hits_agree_with_the_rules_on_positions_without_checkers_on_the_bar():
    # Given positions from random games with blots to hit and nobody on the bar
    rng = np.random.default_rng(5)
    b = np.asarray(Position.initial().board, np.int8)
    agree = tested = 0
    while tested < 150:
        after, _, over = generate(b, *rng.integers(1, 7, 2))
        i = rng.integers(len(after))
        b = np.asarray(Position.initial().board, np.int8) if over[i] else after[i]
        if b[25] or b[0] or not (b[1:25] == -1).any():
            continue
        tested += 1
        got = hits_from_masks(*hitter_masks(b))
        # Then the shots agree with the shots input, and double shots and pip loss with the legal plays
        agree += got == by_the_rules(b)
        assert got[1] >= 0 and (got[1] == 0) == (shot_rolls(b) == 0)
    # (the approximations of shot_rolls: a hit whose play cannot be completed still counts)
    assert agree >= 0.9 * tested


def test_mobility_weighs_each_outside_checkers_escapes_by_its_distance_from_home():
    # Given my two checkers on my 20 point and the rest home, with nothing of theirs in front:
    # each escapes with all 36 rolls and is 14 pips from home
    b = board({20: 2, 6: 13}, {24: 15})
    assert rich(b, "me.mobility") == pytest.approx(2 * 36 * 14 / 3600)
    # Then a six-point prime of theirs right in front of them stops every roll
    primed = board({20: 2, 6: 13}, {p: 2 for p in range(14, 20)} | {24: 3})
    assert rich(primed, "me.mobility") == 0.0


def test_timing_counts_the_pips_to_play_before_breaking_the_home_board():
    # Given my checkers: 2 on my 13 point (7 pips from home each), 3 on my 6 (one spare, 5 pips to my 1),
    # 2 on my 5 (no spare) and the rest off
    b = board({13: 2, 6: 3, 5: 2}, {24: 2, 19: 13})
    assert rich(b, "me.timing") == pytest.approx((2 * 7 + 1 * 5) / 100)


def test_their_rich_inputs_are_mine_seen_from_their_side():
    # Given a position and its mirror (the same checkers, the other side on roll)
    rng = np.random.default_rng(8)
    b = np.asarray(Position.initial().board, np.int8)
    for _ in range(200):
        after, _, over = generate(b, *rng.integers(1, 7, 2))
        i = rng.integers(len(after))
        b = np.asarray(Position.initial().board, np.int8) if over[i] else after[i]
        mirror = np.asarray(-b[::-1], np.int8)
        for name in ("double_shots", "pip_loss", "mobility", "timing"):
            # Then each of my inputs there is theirs here
            assert rich(b, f"them.{name}") == pytest.approx(rich(mirror, f"me.{name}"))


def walked(b: np.ndarray) -> tuple[float, float]:
    """My mobility and timing inputs by a plain walk of the board (the module docstring's definitions)."""
    from gammon.engine.analysis import escapes_from_mask

    blocked = sum(1 << p for p in range(1, 25) if b[p] <= -2)
    mobility = timing = 0
    for p in range(7, 26):
        if b[p] > 0:
            mobility += int(b[p]) * int(escapes_from_mask(p, blocked)) * (p - 6)
            timing += int(b[p]) * (p - 6)
    for p in range(1, 7):
        timing += max(int(b[p]) - 2, 0) * (p - 1)
    return mobility / 3600, timing / 100


def test_mobility_and_timing_equal_a_plain_walk_of_the_board():
    rng = np.random.default_rng(9)
    b = np.asarray(Position.initial().board, np.int8)
    for _ in range(300):
        after, _, over = generate(b, *rng.integers(1, 7, 2))
        i = rng.integers(len(after))
        b = np.asarray(Position.initial().board, np.int8) if over[i] else after[i]
        mobility, timing = walked(b)
        assert rich(b, "me.mobility") == pytest.approx(mobility) and rich(b, "me.timing") == pytest.approx(timing)
