"""GNU Backgammon Position IDs and Match IDs.

A Position ID is 80 bits in base64 (14 characters): for each side, for its
points 1..24 and then its bar, as many 1-bits as it has checkers there,
followed by a 0-bit. GNU Backgammon's code writes the side *not* on roll
first, then the side on roll, bits filled from the least significant bit of
each byte.

A Match ID is 72 bits in base64 (12 characters): cube, cube owner, player on
roll, Crawford flag, game state, turn, double offered, resignation, dice
(higher die first), match length and both scores, each field least
significant bit first; GNU Backgammon 1.07 adds one more bit after the
scores, set when the Jacoby rule is *not* in force (always set in match
play). The remaining 5 bits are zero.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from gammon.errors import InvalidMatchIdError, InvalidPositionIdError

Side = tuple[int, ...]  # 25 counts: points 1..24, then the bar


def encode_position_id(not_on_roll: Side, on_roll: Side) -> str:
    """Position ID of two sides, each 25 counts (points 1..24 from that side, bar).

    >>> start = (0,) * 5 + (5, 0, 3) + (0,) * 4 + (5,) + (0,) * 10 + (2, 0)
    >>> encode_position_id(start, start)
    '4HPwATDgc/ABMA'
    """
    key = bytearray(10)
    bit = 0
    for side in (not_on_roll, on_roll):
        for count in side:
            for _ in range(count):
                key[bit >> 3] |= 1 << (bit & 7)
                bit += 1
            bit += 1
    return base64.b64encode(bytes(key)).decode("ascii")[:14]


def decode_position_id(position_id: str) -> tuple[Side, Side]:
    """Inverse of :func:`encode_position_id`: ``(not_on_roll, on_roll)``.

    Checks the encoding only; whether the position can occur is the caller's
    question (see ``Position.from_position_id``).
    """
    text = position_id.strip() if isinstance(position_id, str) else position_id
    if not isinstance(text, str) or len(text) != 14:
        raise InvalidPositionIdError(f"invalid Position ID {position_id!r}: expected 14 base64 characters")
    try:
        key = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidPositionIdError(f"invalid Position ID {position_id!r}: not base64") from None
    sides: list[list[int]] = [[], []]
    side, count = 0, 0
    for bit in range(80):
        if key[bit >> 3] >> (bit & 7) & 1:
            count += 1
            continue
        if side < 2:
            sides[side].append(count)
            count = 0
            if len(sides[side]) == 25:
                side += 1
        elif count:
            break
    if side < 2 or count:
        raise InvalidPositionIdError(f"invalid Position ID {position_id!r}: more than 15 checkers or missing fields")
    return tuple(sides[0]), tuple(sides[1])


GAME_STATES = ("none", "playing", "over", "resigned", "dropped")
RESIGNATIONS = (0, 1, 2, 3)

# (field, bit width) in Match ID order.
_FIELDS = (
    ("cube_log2", 4),
    ("cube_owner", 2),
    ("player_on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
)


@dataclass(frozen=True)
class MatchState:
    """The match fields of a GNU Backgammon Match ID.

    ``cube_owner`` is 0 or 1 for a player and -1 for the centred cube;
    ``match_length`` 0 means money play; dice are (0, 0) before the roll
    (the Match ID stores the higher die first, as GNU Backgammon does).
    ``jacoby`` left as ``None`` becomes GNU Backgammon's default: on for
    money play, off in a match.

    >>> state = MatchState.from_match_id("QYkqASAAIAAA")
    >>> state.match_length, state.score, state.cube, state.cube_owner, state.dice
    (9, (2, 4), 2, 0, (5, 2))
    >>> state.match_id()
    'QYkqASAAIAAA'
    """

    cube: int = 1
    cube_owner: int = -1
    player_on_roll: int = 0
    crawford: bool = False
    game_state: str = "playing"
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool | None = None

    def __post_init__(self) -> None:
        if self.jacoby is None:
            object.__setattr__(self, "jacoby", self.match_length == 0)
        for name in ("player_on_roll", "turn"):
            if getattr(self, name) not in (0, 1):
                raise InvalidMatchIdError(f"invalid {name.replace('_', ' ')} {getattr(self, name)!r}: must be 0 or 1")
        if self.resignation not in RESIGNATIONS:
            raise InvalidMatchIdError(f"invalid resignation {self.resignation!r}: must be 0 to 3")
        if self.cube < 1 or self.cube & (self.cube - 1) or self.cube > 1 << 15:
            raise InvalidMatchIdError(f"invalid cube value {self.cube!r}: must be a power of two")
        if self.cube_owner not in (-1, 0, 1):
            raise InvalidMatchIdError(f"invalid cube owner {self.cube_owner!r}")
        if self.game_state not in GAME_STATES:
            raise InvalidMatchIdError(f"invalid game state {self.game_state!r}")
        if any(not 0 <= d <= 6 for d in self.dice) or (0 in self.dice and self.dice != (0, 0)):
            raise InvalidMatchIdError(f"invalid dice {self.dice!r}")
        if not 0 <= self.match_length < 1 << 15 or any(not 0 <= s < 1 << 15 for s in self.score):
            raise InvalidMatchIdError(f"invalid match length or score {self.match_length!r} {self.score!r}")
        if self.crawford and self.match_length == 0:
            raise InvalidMatchIdError("invalid Crawford flag: there is no Crawford game in money play")

    def match_id(self) -> str:
        """The 12-character Match ID."""
        values = {
            "cube_log2": self.cube.bit_length() - 1,
            "cube_owner": 3 if self.cube_owner == -1 else self.cube_owner,
            "player_on_roll": self.player_on_roll,
            "crawford": int(self.crawford),
            "game_state": GAME_STATES.index(self.game_state),
            "turn": self.turn,
            "double_offered": int(self.double_offered),
            "resignation": self.resignation,
            "die1": max(self.dice),
            "die2": min(self.dice),
            "match_length": self.match_length,
            "score0": self.score[0],
            "score1": self.score[1],
            "no_jacoby": int(not self.jacoby),
        }
        number, shift = 0, 0
        for name, width in _FIELDS:
            number |= values[name] << shift
            shift += width
        return base64.b64encode(number.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def from_match_id(cls, match_id: str) -> MatchState:
        """Decode a Match ID; :class:`InvalidMatchIdError` names a bad one."""
        text = match_id.strip() if isinstance(match_id, str) else match_id
        if not isinstance(text, str) or len(text) != 12:
            raise InvalidMatchIdError(f"invalid Match ID {match_id!r}: expected 12 base64 characters")
        try:
            number = int.from_bytes(base64.b64decode(text, validate=True), "little")
        except (binascii.Error, ValueError):
            raise InvalidMatchIdError(f"invalid Match ID {match_id!r}: not base64") from None
        values = {}
        for name, width in _FIELDS:
            values[name] = number & ((1 << width) - 1)
            number >>= width
        if values["cube_owner"] == 2 or values["game_state"] >= len(GAME_STATES):
            raise InvalidMatchIdError(f"invalid Match ID {match_id!r}: impossible field values")
        try:
            return cls(
                cube=1 << values["cube_log2"],
                cube_owner=-1 if values["cube_owner"] == 3 else values["cube_owner"],
                player_on_roll=values["player_on_roll"],
                crawford=bool(values["crawford"]),
                game_state=GAME_STATES[values["game_state"]],
                turn=values["turn"],
                double_offered=bool(values["double_offered"]),
                resignation=values["resignation"],
                dice=(values["die1"], values["die2"]),
                match_length=values["match_length"],
                score=(values["score0"], values["score1"]),
                jacoby=not values["no_jacoby"],
            )
        except InvalidMatchIdError as exc:
            raise InvalidMatchIdError(f"invalid Match ID {match_id!r}: {exc}") from None
