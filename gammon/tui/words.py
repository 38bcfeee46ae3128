"""What the terminal says about the game: actions in the reader's own words and point numbering.

The player called ``you`` is spoken to in the second person ("you roll
6-5", "you win 1 point"); the other player's moves are written in the
reader's point numbering (``viewer``), so "td plays 8/2*" on td's side
reads "td plays 17/23*" on the board you see.

>>> from gammon.play import Move
>>> a = Action(1, "move", dice=(6, 4), moves=(Move(8, 2, True), Move(13, 9)))
>>> describe(a, ("you", "td"), viewer=0)
'td rolls 6-4 and plays 12/16 17/23*'
>>> describe(Action(0, "win", value=1, points=1), ("you", "td"))
'you win 1 point'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gammon.play import Move, format_moves
from gammon.records import RESIGN_NAMES, Action

#: Verbs for the third person and for "you".
_VERBS = {"rolls": "roll", "plays": "play", "doubles": "double", "takes": "take", "passes": "pass",
          "resigns": "resign", "accepts": "accept", "rejects": "reject", "wins": "win", "beavers": "beaver",
          "cannot": "cannot", "offers": "offer"}


def points_text(points: int) -> str:
    """``1 point``, ``2 points``."""
    return f"{points} point{'s' if points != 1 else ''}"


def verb(name: str, third_person: str) -> str:
    """``name`` and the verb agreeing with it: ``you roll``, ``td rolls``."""
    return f"{name} {_VERBS.get(third_person, third_person) if name == 'you' else third_person}"


def mirror(point: int) -> int:
    """A point in the other player's numbering (the bar and off stay as they are)."""
    return 25 - point if 1 <= point <= 24 else point


def play_text(moves: Sequence[Move], mover: int, viewer: int | None) -> str:
    """Standard notation of ``moves`` (in ``mover``'s numbering) written in ``viewer``'s numbering.

    >>> play_text((Move(24, 18), Move(18, 13)), 1, 0)
    '1/12'
    """
    text = format_moves(tuple(moves))
    if viewer is None or viewer == mover:
        return text
    out = []
    for part in text.split():
        part, paren, count = part.partition("(")
        names = []
        for piece in part.split("/"):
            name = piece.rstrip("*")
            names.append((name if name in ("bar", "off") else str(mirror(int(name)))) + piece[len(name):])
        out.append("/".join(names) + paren + count)
    return " ".join(out)


def touched_points(moves: Iterable[Move], mover: int, viewer: int | None) -> set[int]:
    """The points (1-24) a move left and reached, in ``viewer``'s numbering: the ones to highlight."""
    points = {p for m in moves for p in (m.src, m.dst) if 1 <= p <= 24}
    return points if viewer is None or viewer == mover else {mirror(p) for p in points}


def hit_points(moves: Iterable[Move], mover: int, viewer: int | None) -> set[int]:
    """The points where a move hit, in ``viewer``'s numbering."""
    points = {m.dst for m in moves if m.hit}
    return points if viewer is None or viewer == mover else {mirror(p) for p in points}


def describe(action: Action, names: Sequence[str], viewer: int | None = None) -> str:
    """One line about ``action``, moves in ``viewer``'s numbering.

    >>> describe(Action(0, "roll", dice=(5, 3)), ("you", "td"))
    'you roll 5-3'
    """
    who = names[action.player]
    d = f"{max(action.dice)}-{min(action.dice)}" if action.dice else ""
    kind = action.kind
    if kind == "start":
        return (f"opening roll {names[0]} {action.dice[0] if action.dice else '?'}, {names[1]} "
                f"{action.dice[1] if action.dice else '?'}: {who} to play {d}")
    if kind == "roll":
        return f"{verb(who, 'rolls')} {d}"
    if kind == "move":
        if not action.moves:
            return f"{verb(who, 'rolls')} {d} and cannot move"
        return f"{verb(who, 'rolls')} {d} and {verb(who, 'plays').split(' ', 1)[1]} " \
               f"{play_text(action.moves, action.player, viewer)}"
    if kind in ("double", "beaver"):
        return (f"{verb(who, 'doubles')} to {action.cube}" if kind == "double"
                else f"{verb(who, 'beavers')}: the cube goes to {action.cube}")
    if kind in ("take", "pass"):
        return verb(who, kind + "s" if kind == "take" else "passes")
    if kind == "resign":
        return f"{verb(who, 'resigns')} {RESIGN_NAMES.get(action.value, '')}"
    if kind in ("accept", "reject"):
        return f"{verb(who, kind + 's')} the resignation"
    if kind == "win":
        extra = f" ({'gammon' if action.value == 2 else 'backgammon'})" if action.value > 1 else ""
        return f"{verb(who, 'wins')} {points_text(action.points)}{extra}"
    if kind == "match":
        return f"{verb(who, 'wins')} the match"
    return f"{who} {kind}"
