"""Plays and their standard notation (``24/18 13/11``, ``bar/22*``, ``8/5(2)``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from gammon.errors import PlayNotationError

if TYPE_CHECKING:
    from gammon.position import Plays, Position


class Move(NamedTuple):
    """One checker moved by one die: ``src`` 25 is the bar, ``dst`` 0 is off."""

    src: int
    dst: int
    hit: bool = False


#: How the empty play (nothing can move) is written.
PASS_TEXT = "(no play)"


def _point_text(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


def format_moves(moves: tuple[Move, ...]) -> str:
    """Standard notation, as GNU Backgammon writes it: chains joined, repeats counted, highest source first.

    Steps that continue one another are written as one chain whatever order
    they were played in (``22/20 20/15`` is ``22/15``); a hit on the way is
    kept in the middle (``24/18*/13``). Two checkers making the same move
    are counted, and a hit by one of them marks both (``6/5*(2)``,
    ``6/5*/4(2)``).

    >>> format_moves((Move(24, 21), Move(21, 20)))
    '24/20'
    >>> format_moves((Move(20, 15), Move(22, 20)))
    '22/15'
    >>> format_moves((Move(8, 5), Move(8, 5), Move(6, 5), Move(6, 5)))
    '8/5(2) 6/5(2)'
    >>> format_moves((Move(25, 22, True), Move(13, 11)))
    'bar/22* 13/11'
    >>> format_moves((Move(6, 5, True), Move(6, 5), Move(24, 18, True), Move(18, 13)))
    '24/18*/13 6/5*(2)'
    >>> format_moves((Move(6, 5, True), Move(6, 5), Move(5, 4), Move(5, 4)))
    '6/5*/4(2)'
    """
    if not moves:
        return PASS_TEXT
    chains: list[list[Move]] = []
    for move in moves:
        for chain in chains:
            if chain[-1].dst == move.src:
                chain.append(move)
                break
        else:
            chains.append([move])
    # Join chains where one ends on the point another starts from, whatever the
    # order the steps came in (no step goes backwards, so this ends).
    joined = True
    while joined:
        joined = False
        for first in chains:
            second = next((c for c in chains if c is not first and c[0].src == first[-1].dst), None)
            if second is not None:
                first.extend(second)
                chains.remove(second)
                joined = True
                break
    parts: list[str] = []
    for chain in chains:
        text = _point_text(chain[0].src)
        for i, move in enumerate(chain):
            if i == len(chain) - 1 or move.hit:
                text += "/" + _point_text(move.dst) + ("*" if move.hit else "")
        parts.append(text)
    # Highest source first, then count checkers with the same start and end (the
    # written route is the one with the hit: 6/4 and 6/5*/4 are 6/5*/4(2)).
    parts.sort(key=_sort_key)
    counted: list[tuple[str, int]] = []
    for part in parts:
        if counted and _sort_key(counted[-1][0]) == _sort_key(part):
            text, n = counted[-1]
            counted[-1] = (text if text.count("*") >= part.count("*") else part, n + 1)
        else:
            counted.append((part, 1))
    return " ".join(text if n == 1 else f"{text}({n})" for text, n in counted)


def _sort_key(part: str) -> tuple[int, int]:
    points = [25 if p.startswith("bar") else 0 if p.startswith("off") else int(p.rstrip("*")) for p in part.split("/")]
    return (-points[0], -points[-1])


class Play:
    """A legal play: the moves of one turn and the position they lead to.

    Plays come from :meth:`Position.legal_plays` or :meth:`Position.parse_play`;
    they compare equal when they start from the same position and reach the
    same one. ``str(play)`` is standard notation.
    """

    __slots__ = ("_steps", "_after", "_origin", "_over", "_moves", "_source", "_index")

    def __init__(
        self,
        origin: Position,
        steps: np.ndarray | None,
        after: np.ndarray,
        over: bool,
        source: Plays | None = None,
        index: int = -1,
    ) -> None:
        """``steps`` may be None for play ``index`` of ``source``: read from there when first needed."""
        self._origin = origin
        self._steps = steps
        self._after = after
        self._over = over
        self._moves: tuple[Move, ...] | None = None
        self._source = source  # the legal plays this one was taken from
        self._index = index

    def _step_rows(self) -> np.ndarray:
        if self._steps is None:
            self._steps = self._source._steps(self._index)
        return self._steps

    @property
    def moves(self) -> tuple[Move, ...]:
        """The single-die steps, in an order in which they can be played."""
        if self._moves is None:
            self._moves = tuple([Move(s, d, h == 1) for s, d, h in self._step_rows().tolist() if s >= 0])
        return self._moves

    @property
    def origin(self) -> Position:
        """The position this play is made from."""
        return self._origin

    def is_legal_for(self, position: Position, dice: Sequence[int]) -> bool:
        """Whether this is a legal play of ``dice`` in ``position``: at once when it was taken from those plays."""
        source = self._source
        if source is not None and source.position is position and sorted(source.dice) == sorted(dice):
            return True
        return self in position.legal_plays(dice)

    def is_pass(self) -> bool:
        """True for the empty play made when nothing can move."""
        return self._step_rows()[0, 0] < 0

    def notation(self) -> str:
        """Standard notation, as :func:`format_moves` writes it."""
        return format_moves(self.moves)

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"<Play {self.notation()} from {self._origin.position_id()}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self._origin == other._origin and bytes(self._after) == bytes(other._after)

    def __hash__(self) -> int:
        return hash((self._origin, bytes(self._after)))


_TOKEN = re.compile(r"^(bar|b|off|o|\d{1,2})((?:/(?:bar|b|off|o|\d{1,2})\*?)+)(?:\(([1-4])\))?$")


def parse_moves(text: str) -> list[tuple[int, int]]:
    """Read notation into (source, destination) segments; hits are optional.

    ``25``/``b``/``bar`` is the bar, ``0``/``o``/``off`` is off. A chained
    ``24/18/13`` gives two segments; ``8/5(2)`` repeats a segment. The pass
    is the empty text or ``(no play)``, as :func:`format_moves` prints it.

    >>> parse_moves("bar/22* 13/11")
    [(25, 22), (13, 11)]
    >>> parse_moves("8/5(2) 24/18/13")
    [(8, 5), (8, 5), (24, 18), (18, 13)]
    """
    if not isinstance(text, str):
        raise PlayNotationError(f"cannot read play {text!r}: not text")
    if text.strip().lower() == PASS_TEXT:
        return []
    segments: list[tuple[int, int]] = []
    words = text.lower().replace(",", " ").split()
    for word in words:
        match = _TOKEN.match(word)
        if not match:
            raise PlayNotationError(f"cannot read play {text!r}: {word!r} is not like 24/18, bar/22* or 6/off")
        names = [match.group(1)] + [p.rstrip("*") for p in match.group(2).split("/")[1:]]
        points = [_point_number(name, text) for name in names]
        chain = list(zip(points, points[1:]))
        for src, dst in chain:
            if src <= dst:
                raise PlayNotationError(f"cannot read play {text!r}: {word!r} moves backwards")
        segments.extend(chain * int(match.group(3) or 1))
    return segments


def _point_number(name: str, text: str) -> int:
    if name in ("bar", "b"):
        return 25
    if name in ("off", "o"):
        return 0
    point = int(name)
    if point > 25:
        raise PlayNotationError(f"cannot read play {text!r}: there is no point {point}")
    return point
