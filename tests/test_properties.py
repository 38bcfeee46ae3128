"""Invariants of the rules engine on positions reached by random play (hypothesis).

A position is drawn as a seed and a number of plies: random legal plays from
the start with seeded dice (a finished game starts again), so every position
is one that real play can reach, bars, hits and bear-offs included.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import numpy as np

from gammon import Position
from gammon.engine import movegen
from gammon.play import Move
from gammon.dice import SeededDice

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw) -> Position:
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(0, 250))
    rng, dice = random.Random(seed), SeededDice(seed)
    pos = Position.initial()
    for _ in range(plies):
        pos = rng.choice(pos.legal_plays(dice.roll()).positions())
        if pos.is_game_over():
            pos = Position.initial()
    return pos


dice_rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


def on_board(pos: Position) -> tuple[int, int]:
    """Checkers on the points and the bar: (on roll, opponent)."""
    b = pos.board.tolist()
    return sum(c for c in b if c > 0), -sum(c for c in b if c < 0)


def replay(pos: Position, play, roll: tuple[int, int]) -> list[int]:
    """Play the steps one at a time, checking each against the rules; the final board."""
    b = pos.board.tolist()
    d1, d2 = roll
    left = Counter([d1] * 4 if d1 == d2 else [d1, d2])
    for src, dst, hit in play.moves:
        assert dst < src, f"{play}: backwards"
        assert b[src] > 0, f"{play}: no checker on {src}"
        assert src == 25 or b[25] == 0, f"{play}: moved while a checker is on the bar"
        if dst > 0:
            die = src - dst
            assert b[dst] >= -1, f"{play}: landed on a block"
            assert hit == (b[dst] == -1), f"{play}: hit flag"
        else:
            assert all(c <= 0 for c in b[7:26]), f"{play}: bore off with a checker outside"
            exact = src if left[src] else None
            if exact is None:
                # A higher die, only from the highest occupied point
                assert all(c <= 0 for c in b[src + 1 : 7]), f"{play}: higher die not from the highest point"
                higher = [d for d in left if left[d] and d > src]
                assert higher, f"{play}: no die for bearing off from {src}"
                die = min(higher) if d1 == d2 else max(higher)
            else:
                die = exact
        assert left[die] > 0, f"{play}: die {die} not rolled or already used"
        left[die] -= 1
        b[src] -= 1
        if dst > 0:
            if b[dst] == -1:
                b[dst] = 0
                b[0] -= 1
            b[dst] += 1
    return b


@SETTINGS
@given(positions(), dice_rolls)
def test_every_side_always_has_fifteen_checkers(pos, roll):
    mine, theirs = on_board(pos)
    assert mine + pos.borne_off()[0] == 15 and theirs + pos.borne_off()[1] == 15
    assert 0 < mine <= 15 and 0 < theirs <= 15
    for play in pos.legal_plays(roll):
        after = pos.apply(play)
        off_moves = sum(1 for m in play.moves if m.dst == 0)
        # the mover (now the opponent) lost exactly the checkers borne off; hits only move checkers
        assert on_board(after) == (theirs, mine - off_moves)
        assert after.borne_off() == (pos.borne_off()[1], pos.borne_off()[0] + off_moves)


@SETTINGS
@given(positions())
def test_flip_twice_is_identity(pos):
    assert pos.flip().flip() == pos
    assert pos.flip().pip_counts() == pos.pip_counts()[::-1]
    assert pos.flip().checkers() == pos.checkers()[::-1]
    assert pos.flip().borne_off() == pos.borne_off()[::-1]


@SETTINGS
@given(positions(), dice_rolls)
def test_every_move_uses_a_die_that_was_rolled(pos, roll):
    plays = pos.legal_plays(roll)
    assert len(plays) >= 1
    most = max(len(p.moves) for p in plays)
    for play in plays:
        # each step is one rolled die (a higher die only to bear off from the highest point)
        board = replay(pos, play, roll)
        # and playing the steps gives the play's resulting position
        assert [-c for c in reversed(board)] == pos.apply(play).board.tolist(), str(play)
        # every play uses the same, largest possible number of dice
        assert len(play.moves) == most
        assert len(play.moves) <= (4 if roll[0] == roll[1] else 2)
    if most == 0:
        assert len(plays) == 1 and plays[0].is_pass()


@SETTINGS
@given(positions(), dice_rolls)
def test_pips_fall_by_the_dice_moved_and_rise_for_the_hit_side(pos, roll):
    mine, theirs = pos.pip_counts()
    for play in pos.legal_plays(roll):
        moved = sum(m.src - m.dst for m in play.moves)
        sent_back = sum(m.dst for m in play.moves if m.hit)  # a hit checker on our point p had 25 - p pips to go
        assert pos.apply(play).pip_counts() == (theirs + sent_back, mine - moved)


@SETTINGS
@given(positions())
def test_position_id_round_trips(pos):
    pid = pos.position_id()
    assert Position.from_position_id(pid) == pos
    assert Position.from_position_id(pid).position_id() == pid
    assert eval(repr(pos)) == pos  # repr evaluates back to the position


@SETTINGS
@given(positions(), dice_rolls)
def test_apply_never_mutates_the_origin(pos, roll):
    before = (bytes(pos.board), pos.position_id(), pos.pip_counts())
    plays = pos.legal_plays(roll)
    results = [pos.apply(play) for play in plays]
    assert (bytes(pos.board), pos.position_id(), pos.pip_counts()) == before
    assert not pos.board.flags.writeable
    assert all(not r.board.flags.writeable for r in results)
    # results are distinct positions, and none of them is the origin object
    assert len(set(results)) == len(results)
    assert all(r is not pos for r in results)


@SETTINGS
@given(positions(), dice_rolls)
def test_dice_order_does_not_matter(pos, roll):
    forward = set(pos.legal_plays(roll).positions())
    backward = set(pos.legal_plays(roll[::-1]).positions())
    assert forward == backward


@SETTINGS
@given(positions(), dice_rolls)
def test_python_plays_and_compiled_generators_agree(pos, roll):
    # the same plays in the same order from legal_plays, generate and generate_after,
    # with the steps and game-over flags read lazily from legal_plays' one packed array
    after, steps, over = movegen.generate(np.array(pos.board), *roll)
    after2, no_steps, over2 = movegen.generate_after(np.array(pos.board), *roll)
    plays = pos.legal_plays(roll)
    assert plays.after.tolist() == after.tolist() == after2.tolist()
    assert over.tolist() == over2.tolist() and no_steps.shape[0] == 0
    for i, play in enumerate(plays):
        assert play.moves == tuple(Move(s, d, h == 1) for s, d, h in steps[i].tolist() if s >= 0)
        assert play.is_pass() == (steps[i, 0, 0] < 0)
        assert pos.apply(play).is_game_over() == bool(over[i])
    assert [p.is_game_over() for p in plays.positions()] == over.tolist()
