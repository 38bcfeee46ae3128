"""Reading a position as a player types it: the one function every command that reads a position calls.

Accepted: a GNU Backgammon Position ID (``4HPwATDgc/ABMA``, the player on
roll at the bottom), a ``PositionID:MatchID`` pair as GNU Backgammon prints
it (``4HPwATDgc/ABMA:cAkAAAAAAAAA``), and an eXtreme Gammon XGID
(``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10``, the ``XGID=``
optional). The position comes back seen from the player on roll; the match
state (who is on roll as seat 0 or 1, score, cube, dice) where the input
has one. In an XGID the bottom (upper-case) player is seat 0, as on the
boards ``gammon`` draws (GNU Backgammon calls the bottom player 1).

>>> position, state = read_position("XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:1:0:7:10")
>>> position == Position.initial(), state.cube, state.cube_owner, state.dice, state.score, state.match_length
(True, 2, 0, (5, 2), (2, 1), 7)
"""

from __future__ import annotations

from gammon.errors import GammonError, InvalidPositionIdError
from gammon.ids import MatchState
from gammon.position import Position


class PositionInputError(GammonError):
    """Text that is none of the position formats; the message names it."""


def read_position(text: str, match_id: str | None = None) -> tuple[Position, MatchState | None]:
    """The position (seen from the player on roll) and match state in ``text`` (and ``match_id``, if given)."""
    if not isinstance(text, str) or not text.strip():
        raise PositionInputError(f"invalid position {text!r}: expected a Position ID, PositionID:MatchID or an XGID")
    text = text.strip()
    if text.upper().startswith("XGID=") or text.count(":") >= 9:
        if match_id:
            raise PositionInputError(f"an XGID carries its own match state: not with a Match ID ({match_id!r})")
        return parse_xgid(text)
    position_id, _, pair_match = text.partition(":")
    if pair_match and match_id:
        raise PositionInputError(f"{text!r} already has a Match ID: not with another one ({match_id!r})")
    try:
        position = Position.from_position_id(position_id)
    except InvalidPositionIdError as exc:
        raise PositionInputError(f"invalid position {text!r}: {exc}") from None
    mid = pair_match or match_id
    return position, (MatchState.from_match_id(mid) if mid else None)


def parse_xgid(text: str) -> tuple[Position, MatchState]:
    """An eXtreme Gammon XGID: the position from the player on roll, and the match state.

    >>> parse_xgid("-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10")[1].player_on_roll
    1
    """
    body = text.strip()
    if body.upper().startswith("XGID="):
        body = body[5:]
    fields = body.split(":")
    if len(fields) < 10 or len(fields[0]) != 26:
        raise PositionInputError(f"invalid XGID {text!r}: expected 26 position characters and 9 fields after them")
    points, *rest = fields
    try:
        cube_log2, cube_pos, turn, score0, score1, crawford, length = (
            int(rest[0]), int(rest[1]), int(rest[2]), int(rest[4]), int(rest[5]), int(rest[6]), int(rest[7]))
    except ValueError:
        raise PositionInputError(f"invalid XGID {text!r}: a field that should be a number is not") from None
    dice_text = rest[3]
    if turn not in (1, -1) or cube_pos not in (-1, 0, 1) or not 0 <= cube_log2 <= 15:
        raise PositionInputError(f"invalid XGID {text!r}: turn must be 1 or -1, cube position -1, 0 or 1")
    if dice_text in ("00", "D", "B", "R"):
        dice = (0, 0)
    elif len(dice_text) == 2 and dice_text.isdigit() and all("1" <= d <= "6" for d in dice_text):
        dice = (int(dice_text[0]), int(dice_text[1]))
    else:
        raise PositionInputError(f"invalid XGID {text!r}: dice {dice_text!r} are not like 00, 52 or D")
    bottom = [0] * 26  # the bottom player's numbering: positive theirs (upper case), negative the top player's
    for i, ch in enumerate(points):
        if ch == "-":
            continue
        if "A" <= ch <= "O":
            count = ord(ch) - ord("A") + 1
        elif "a" <= ch <= "o":
            count = -(ord(ch) - ord("a") + 1)
        else:
            raise PositionInputError(f"invalid XGID {text!r}: {ch!r} is not a checker count (A-O, a-o or -)")
        if (i == 0 and count > 0) or (i == 25 and count < 0):
            raise PositionInputError(f"invalid XGID {text!r}: a checker on the wrong player's bar")
        bottom[i] = count
    try:
        position = Position(bottom) if turn == 1 else Position(bottom).flip()
        state = MatchState(
            cube=1 << cube_log2, cube_owner={1: 0, -1: 1, 0: -1}[cube_pos], player_on_roll=0 if turn == 1 else 1,
            turn=0 if turn == 1 else 1, crawford=bool(crawford) and length > 0, dice=dice,
            double_offered=dice_text == "D", match_length=length, score=(score0, score1),
        )
    except GammonError as exc:
        raise PositionInputError(f"invalid XGID {text!r}: {exc}") from None
    return position, state
