"""GNU Backgammon Position IDs and Match IDs: known values, round trips, bad input.

``fixtures/ids_gnubg.json`` holds IDs printed by GNU Backgammon itself for
layouts, move sequences and match set-ups (regenerate it with
``fixtures/make_ids_fixture.py``).
"""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path

import pytest

from gammon import InvalidMatchIdError, InvalidPositionIdError, MatchState, Position
from gammon.dice import SeededDice
from gammon.ids import GAME_STATES, decode_position_id, encode_position_id

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "ids_gnubg.json").read_text())

START_ID = "4HPwATDgc/ABMA"


def _counts(mapping: dict[str, int]) -> dict[int, int]:
    return {int(point): count for point, count in mapping.items()}


def _random_positions(n: int, seed: int) -> list[Position]:
    """Positions met in seeded random games (bars, hits and bear-offs included)."""
    rng, dice = random.Random(seed), SeededDice(seed)
    out, pos = [], Position.initial()
    while len(out) < n:
        pos = rng.choice(pos.legal_plays(dice.roll()).positions())
        if pos.is_game_over():
            pos = Position.initial()
        else:
            out.append(pos)
    return out


# -- Position ID -------------------------------------------------------------------


def test_starting_position_id():
    assert Position.initial().position_id() == START_ID
    assert Position.from_position_id(START_ID) == Position.initial()


def test_position_id_after_8_5_6_5_with_the_other_side_on_roll():
    # Given the start, When X plays 31 as 8/5 6/5, Then O is on roll in sGfwATDgc/ABMA
    pos = Position.initial()
    after = pos.apply(pos.parse_play("8/5 6/5", (3, 1)))
    assert after.position_id() == "sGfwATDgc/ABMA"
    # And the ID decodes to the same position, seen by O
    assert Position.from_position_id("sGfwATDgc/ABMA") == after
    mover, opponent = after.checkers()
    assert opponent[4] == 2 and opponent[5] == 4 and opponent[7] == 2  # X: 2 on 5, 4 on 6, 2 on 8


def test_position_id_codec_orders_the_side_not_on_roll_first():
    # Given X (on roll) with one checker on its 1 point, O with two on its own 2 point
    pos = Position.from_checkers({1: 1}, {23: 2})
    not_on_roll, on_roll = decode_position_id(pos.position_id())
    # Then the ID holds O first, each side in its own numbering
    assert on_roll == (1,) + (0,) * 24
    assert not_on_roll == (0, 2) + (0,) * 23


def test_position_id_round_trips_on_random_positions():
    positions = _random_positions(3000, seed=5)
    assert any(p.board[25] for p in positions) and any(p.borne_off() != (0, 0) for p in positions)
    for pos in positions:
        pid = pos.position_id()
        assert len(pid) == 14
        assert Position.from_position_id(pid) == pos
        assert Position.from_position_id(pos.flip().position_id()) == pos.flip()
        mine, theirs = pos.checkers()
        assert decode_position_id(pid) == (theirs, mine)
        assert encode_position_id(theirs, mine) == pid


def test_position_id_tolerates_surrounding_whitespace():
    assert Position.from_position_id(f"  {START_ID}\n") == Position.initial()


@pytest.mark.parametrize(
    "bad, reason",
    [
        ("4HPwATDgc/ABM", "too short"),
        ("4HPwATDgc/ABMAA", "too long"),
        ("", "empty"),
        ("4HPwATDgc/AB!A", "not base64"),
        ("4HPwATDgc/AB A", "a space inside"),
        ("//////////////", "all 1-bits: more checkers than fit"),
        ("AAAAAAAAAAAAAA", "no checkers at all"),
    ],
)
def test_malformed_position_id_raises_naming_the_input(bad, reason):
    with pytest.raises(InvalidPositionIdError) as err:
        Position.from_position_id(bad)
    assert repr(bad) in str(err.value), reason
    assert isinstance(err.value, ValueError)


def test_position_id_with_16_checkers_for_a_side_raises():
    sixteen = (0,) * 5 + (16,) + (0,) * 19
    fourteen = (0,) * 5 + (14,) + (0,) * 19
    bad = encode_position_id(fourteen, sixteen)
    with pytest.raises(InvalidPositionIdError, match="16 checkers") as err:
        Position.from_position_id(bad)
    assert bad in str(err.value)
    bad = encode_position_id(sixteen, fourteen)
    with pytest.raises(InvalidPositionIdError, match=bad.replace("+", r"\+")):
        Position.from_position_id(bad)


def test_position_id_with_both_colours_on_one_point_raises():
    # On roll: 1 checker on its 1 point; opponent: 1 on its 24 point (the same point)
    mine = (1,) + (0,) * 24
    theirs = (0,) * 23 + (1, 0)
    bad = encode_position_id(theirs, mine)
    with pytest.raises(InvalidPositionIdError, match="both colours") as err:
        Position.from_position_id(bad)
    assert bad in str(err.value)


def test_non_text_position_id_raises():
    with pytest.raises(InvalidPositionIdError):
        Position.from_position_id(None)  # type: ignore[arg-type]


# -- Match ID -------------------------------------------------------------------------


def test_gnubg_manual_match_id_example():
    # The manual's example: 9-point match, score 2-4, player 0 owns a 2-cube,
    # player 1 is on roll and has rolled 5-2
    state = MatchState.from_match_id("QYkqASAAIAAA")
    assert state.match_length == 9
    assert state.score == (2, 4)
    assert state.cube == 2 and state.cube_owner == 0
    assert state.player_on_roll == 1 and state.turn == 1
    assert state.dice == (5, 2)
    assert state.game_state == "playing"
    assert not state.crawford and not state.double_offered and state.resignation == 0
    assert state.match_id() == "QYkqASAAIAAA"


def test_match_id_stores_the_higher_die_first():
    assert MatchState(dice=(2, 5)).match_id() == MatchState(dice=(5, 2)).match_id()


def test_match_id_jacoby_defaults_follow_gnubg():
    # GNU Backgammon 1.07 sets the bit after the scores when Jacoby is not in force
    assert MatchState(match_length=0).jacoby is True
    assert MatchState(match_length=7).jacoby is False
    assert MatchState(match_length=7).match_id().endswith("E")
    assert MatchState(match_length=0).match_id().endswith("A")


def _random_state(rng: random.Random) -> MatchState:
    length = rng.choice([0, 1, 3, 5, 7, 9, 11, 15, 25, 2**15 - 1])
    d1 = rng.randint(0, 6)
    dice = (0, 0) if d1 == 0 else tuple(sorted((d1, rng.randint(1, 6)), reverse=True))
    return MatchState(
        cube=2 ** rng.randint(0, 15),
        cube_owner=rng.choice([-1, 0, 1]),
        player_on_roll=rng.randint(0, 1),
        crawford=bool(length) and rng.random() < 0.3,
        game_state=rng.choice(GAME_STATES),
        turn=rng.randint(0, 1),
        double_offered=rng.random() < 0.3,
        resignation=rng.randint(0, 3),
        dice=dice,
        match_length=length,
        score=(rng.randint(0, 2**15 - 1), rng.randint(0, 2**15 - 1)),
        jacoby=rng.random() < 0.5,
    )


def test_match_id_round_trips():
    rng = random.Random(3)
    for _ in range(3000):
        state = _random_state(rng)
        match_id = state.match_id()
        assert len(match_id) == 12
        assert MatchState.from_match_id(match_id) == state
        assert MatchState.from_match_id(match_id).match_id() == match_id


def _match_id_with(**bits: int) -> str:
    """The manual's example Match ID with some raw fields overwritten (bit offsets from the manual)."""
    offsets = {"cube_owner": (4, 2), "game_state": (8, 3), "die1": (15, 3), "die2": (18, 3)}
    number = int.from_bytes(base64.b64decode("QYkqASAAIAAA"), "little")
    for name, value in bits.items():
        start, width = offsets[name]
        number = number & ~(((1 << width) - 1) << start) | value << start
    return base64.b64encode(number.to_bytes(9, "little")).decode()


@pytest.mark.parametrize(
    "bad, reason",
    [
        ("QYkqASAAIAA", "too short"),
        ("QYkqASAAIAAAA", "too long"),
        ("QYkqASAA!AAA", "not base64"),
        ("Q" * 11 + "=", "padding inside"),
        (_match_id_with(cube_owner=2), "cube owner 2"),
        (_match_id_with(game_state=5), "game state 5"),
        (_match_id_with(game_state=7), "game state 7"),
        (_match_id_with(die1=7), "die 7"),
        (_match_id_with(die1=0, die2=3), "one die rolled"),
    ],
)
def test_malformed_match_id_raises_naming_the_input(bad, reason):
    with pytest.raises(InvalidMatchIdError) as err:
        MatchState.from_match_id(bad)
    assert repr(bad) in str(err.value), reason


@pytest.mark.parametrize(
    "fields",
    [
        {"cube": 3},
        {"cube_owner": 2},
        {"player_on_roll": 2},
        {"turn": -1},
        {"resignation": 4},
        {"dice": (7, 1)},
        {"dice": (0, 3)},
        {"game_state": "finished"},
        {"score": (2**15, 0)},
        {"crawford": True, "match_length": 0},
    ],
)
def test_impossible_match_state_raises(fields):
    with pytest.raises(InvalidMatchIdError):
        MatchState(**fields)


# -- against GNU Backgammon --------------------------------------------------------------


@pytest.mark.parametrize("case", FIXTURE["positions"], ids=lambda c: c["name"])
def test_position_ids_match_gnubg_for_layouts(case):
    pos = Position.from_checkers(_counts(case["mine"]), _counts(case["theirs"]))
    assert pos.position_id() == case["position_id"]
    assert Position.from_position_id(case["position_id"]) == pos


@pytest.mark.parametrize("game", FIXTURE["games"], ids=lambda g: g["name"])
def test_position_ids_match_gnubg_after_moves_typed_into_it(game):
    pos = Position.initial()
    for ply in game["plies"]:
        dice = tuple(ply["dice"])
        pos = pos.apply(pos.parse_play(ply["play"], dice))
        assert pos.position_id() == ply["position_id"], ply
        assert Position.from_position_id(ply["position_id"]) == pos


@pytest.mark.parametrize("case", FIXTURE["matches"], ids=lambda c: c["name"])
def test_match_ids_match_gnubg(case):
    fields = dict(case["fields"])
    fields["dice"] = tuple(fields["dice"])
    fields["score"] = tuple(fields["score"])
    expected = MatchState(**fields)
    assert MatchState.from_match_id(case["match_id"]) == expected
    assert expected.match_id() == case["match_id"]


def test_fixture_covers_bars_bear_offs_and_hits():
    layouts = [(_counts(c["mine"]), _counts(c["theirs"])) for c in FIXTURE["positions"]]
    assert sum(1 for m, t in layouts if m.get(25) or t.get(0)) >= 5
    assert sum(1 for m, t in layouts if sum(m.values()) < 15 or sum(t.values()) < 15) >= 5
    plays = [p["play"] for g in FIXTURE["games"] for p in g["plies"]]
    assert len(plays) >= 30
    assert any("*" in p for p in plays) and any(p.startswith("bar/") for p in plays)
