"""The backgammon position, always seen from the player on roll."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import overload

import numpy as np

from gammon.engine import movegen
from gammon.engine.analysis import ROLLS  # noqa: F401 (part of this module's API: gammon.position.ROLLS)
from gammon.engine.cache import refresh
from gammon.errors import GameOverError, IllegalPlayError, InvalidDiceError, InvalidPositionError, InvalidPositionIdError
from gammon.ids import decode_position_id, encode_position_id
from gammon.outcomes import game_result
from gammon.play import Play, parse_moves

Dice = tuple[int, int]

_legal_packed = movegen.legal_packed
_RECORD = movegen.RECORD


def _check_dice(dice: Dice) -> tuple[int, int]:
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise InvalidDiceError(f"invalid dice {dice!r}: expected a pair like (3, 1)") from None
    if not (isinstance(d1, (int, np.integer)) and isinstance(d2, (int, np.integer)) and 1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise InvalidDiceError(f"invalid dice {dice!r}: each die is 1 to 6")
    return int(d1), int(d2)


class Position:
    """An immutable backgammon position from the point of view of the player on roll.

    Points are numbered 1..24 from the player on roll (24 is their farthest
    point back), 25 is the bar. The player on roll's checkers move from 24
    towards 1 and off.

    >>> pos = Position.initial()
    >>> pos.position_id()
    '4HPwATDgc/ABMA'
    >>> len(pos.legal_plays((3, 1)))
    16
    >>> after = pos.apply(pos.parse_play("8/5 6/5", (3, 1)))
    >>> after.position_id(), after.pip_counts()
    ('sGfwATDgc/ABMA', (167, 163))
    """

    __slots__ = ("_board", "_over")

    def __init__(self, board: Sequence[int] | np.ndarray) -> None:
        """Build from a 26-cell board (see :mod:`gammon.engine.movegen`), validated."""
        array = np.array(board, dtype=np.int64)
        _validate(array, board)
        self._board = array.astype(np.int8)
        self._board.flags.writeable = False
        self._over = bool(self._board.min() >= 0)

    @classmethod
    def _trusted(cls, board: np.ndarray, over: bool) -> Position:
        pos = object.__new__(cls)
        pos._board = board
        pos._over = over
        return pos

    # -- construction -------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        """The starting position."""
        start = {24: 2, 13: 5, 8: 3, 6: 5}
        return cls.from_checkers(start, {25 - p: n for p, n in start.items()})

    @classmethod
    def from_checkers(cls, mine: Mapping[int, int], theirs: Mapping[int, int]) -> Position:
        """A position from checker counts, both sides in the on-roll player's numbering.

        ``mine`` maps points 1..24 (and 25, the bar) to the on-roll player's
        checkers; ``theirs`` maps points 1..24 (and 0, their bar) to the
        opponent's. Checkers not placed are borne off.

        >>> Position.from_checkers({25: 1, 6: 2}, {1: 2, 2: 2}).pip_counts()
        (37, 94)
        """
        board = [0] * 26
        for point, count in mine.items():
            if not 1 <= point <= 25 or count < 0:
                raise InvalidPositionError(f"invalid checkers {point}:{count} for the player on roll")
            board[point] += count
        for point, count in theirs.items():
            if not 0 <= point <= 24 or count < 0:
                raise InvalidPositionError(f"invalid checkers {point}:{count} for the opponent")
            if board[point] > 0 and count > 0:
                raise InvalidPositionError(f"invalid position: both colours on point {point}")
            board[point] -= count
        return cls(board)

    @classmethod
    def from_position_id(cls, position_id: str) -> Position:
        """Decode a GNU Backgammon Position ID (the second side encoded is on roll)."""
        theirs, mine = decode_position_id(position_id)
        board = [0] * 26
        for i in range(24):
            board[i + 1] += mine[i]
            if mine[i] and theirs[23 - i]:
                raise InvalidPositionIdError(
                    f"invalid Position ID {position_id!r}: both colours on point {i + 1}"
                )
            board[i + 1] -= theirs[23 - i]
        board[25] = mine[24]
        board[0] = -theirs[24]
        try:
            return cls(board)
        except InvalidPositionError as exc:
            raise InvalidPositionIdError(f"invalid Position ID {position_id!r}: {exc}") from None

    # -- views ----------------------------------------------------------------

    @property
    def board(self) -> np.ndarray:
        """The read-only 26-cell board array (see :mod:`gammon.engine.movegen`)."""
        return self._board

    def checkers(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per-side counts (points 1..24 from that side, then bar): (on roll, opponent)."""
        b = self._board.tolist()
        mine = tuple(max(c, 0) for c in b[1:25]) + (b[25],)
        theirs = tuple(max(-c, 0) for c in b[24:0:-1]) + (-b[0],)
        return mine, theirs

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (on roll, opponent)."""
        mine, theirs = self.checkers()
        return 15 - sum(mine), 15 - sum(theirs)

    def position_id(self) -> str:
        """The GNU Backgammon Position ID."""
        mine, theirs = self.checkers()
        return encode_position_id(theirs, mine)

    def pip_counts(self) -> tuple[int, int]:
        """Pips to bear off: (on roll, opponent)."""
        b = self._board
        idx = np.arange(26)
        mine = int((np.maximum(b, 0) * idx).sum())
        theirs = int((np.maximum(-b, 0) * (25 - idx)).sum())
        return mine, theirs

    def flip(self) -> Position:
        """The same position seen from the other player (who is then on roll)."""
        flipped = -self._board[::-1]
        flipped.flags.writeable = False
        return Position._trusted(flipped, bool(self._board.max() <= 0))

    # -- rules ----------------------------------------------------------------

    def legal_plays(self, dice: Dice) -> Plays:
        """Every legal play of ``dice``, one per distinct resulting position.

        When nothing can move the result holds exactly one empty play (the
        pass). A finished game has no plays: :class:`GameOverError`.
        """
        try:
            d1, d2 = dice
        except (TypeError, ValueError):
            d1 = d2 = 0
        # the common case checked inline; anything else (numpy integers, errors) the long way
        if not (d1.__class__ is int and d2.__class__ is int and 0 < d1 < 7 and 0 < d2 < 7):
            d1, d2 = _check_dice(dice)
        if self._over:
            raise GameOverError(f"position {self.position_id()} is a finished game: there is nothing to play")
        refresh()
        packed = _legal_packed(self._board, d1, d2)
        packed.setflags(write=False)
        return Plays(self, (d1, d2), packed)

    def apply(self, play: Play) -> Position:
        """The position after ``play``, with the opponent on roll.

        ``play`` must be a legal play of this position (from :meth:`legal_plays`
        or :meth:`parse_play`); anything else raises :class:`IllegalPlayError`.
        """
        if play._origin is not self and play._origin != self:
            raise IllegalPlayError(f"play {play} is not from position {self.position_id()}")
        return Position._trusted(play._after, play._over)

    def parse_play(self, text: str, dice: Dice) -> Play:
        """The legal play written as ``text`` (``24/18 13/11``, ``bar/22*``, ``6/off``).

        Hit marks are optional; the moves may be written in any legal order.
        Raises :class:`PlayNotationError` for unreadable text and
        :class:`IllegalPlayError` for a play the rules do not allow.
        """
        segments = parse_moves(text)
        plays = self.legal_plays(dice)
        target = self._play_segments(segments, text, dice)
        for play in plays:
            if bytes(play._after) == target:
                return play
        d1, d2 = plays.dice
        raise IllegalPlayError(
            f"illegal play {text!r} with {d1}-{d2} in position {self.position_id()}: "
            f"the rules allow {len(plays)} plays here, for example {plays[0]}"
        )

    def _play_segments(self, segments: list[tuple[int, int]], text: str, dice: Dice) -> bytes:
        """Replay notation segments checker by checker; return the flipped result."""
        b = self._board.astype(np.int64)
        for src, dst in segments:
            if b[src] <= 0:
                raise IllegalPlayError(
                    f"illegal play {text!r} in position {self.position_id()}: no checker on {src if src != 25 else 'the bar'}"
                )
            if dst > 0 and b[dst] < -1:
                raise IllegalPlayError(f"illegal play {text!r} in position {self.position_id()}: point {dst} is blocked")
            b[src] -= 1
            if dst > 0:
                if b[dst] == -1:
                    b[dst] = 0
                    b[0] -= 1
                b[dst] += 1
        return bytes((-b[::-1]).astype(np.int8))

    def is_game_over(self) -> bool:
        """True when the player who just moved has borne off all 15 checkers."""
        return self._over

    def result(self) -> int:
        """Points won by the player who just moved: 1, 2 (gammon) or 3 (backgammon); 0 if the game goes on."""
        return int(game_result(self._board)) if self._over else 0

    # -- value semantics ----------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return bytes(self._board) == bytes(other._board)

    def __hash__(self) -> int:
        return hash(bytes(self._board))

    def __repr__(self) -> str:
        return f"Position.from_position_id({self.position_id()!r})"

    def __str__(self) -> str:
        from gammon.board_text import draw_board

        return draw_board(self)


def _validate(array: np.ndarray, given: object) -> None:
    if array.shape != (26,):
        raise InvalidPositionError(f"invalid board {given!r}: expected 26 cells")
    if array[25] < 0 or array[0] > 0:
        raise InvalidPositionError(f"invalid board {given!r}: bar counts have the wrong sign")
    mine = int(np.maximum(array, 0).sum())
    theirs = int(np.maximum(-array, 0).sum())
    if mine > 15 or theirs > 15:
        raise InvalidPositionError(
            f"invalid board {given!r}: {max(mine, theirs)} checkers for one side (at most 15)"
        )
    if mine == 0 and theirs == 0:
        raise InvalidPositionError(f"invalid board {given!r}: both sides have borne off everything")
    if mine == 0:
        raise InvalidPositionError(
            f"invalid board {given!r}: the player on roll has borne off everything (the game ended before their turn)"
        )


class Plays(Sequence[Play]):
    """The legal plays of one position and roll: a lazy, indexable sequence.

    ``after`` holds every resulting position (opponent on roll) as one
    ``(n, 26)`` array, for evaluators that score them in a batch.
    """

    __slots__ = ("position", "dice", "_packed", "_n", "_after")

    def __init__(self, position: Position, dice: Dice, packed: np.ndarray) -> None:
        """From :func:`gammon.engine.movegen.legal_packed`'s array (read-only)."""
        self.position = position
        self.dice = dice
        self._packed = packed
        self._n = 2 * packed.shape[0] // 3  # n plays take n + ceil(n / 2) rows
        self._after = None

    @property
    def after(self) -> np.ndarray:
        """The resulting positions, ``(n, 26)``, read-only."""
        after = self._after
        if after is None:
            after = self._after = self._packed[: self._n]
        return after

    def _over(self, index: int) -> bool:
        return self._packed.item((26 + _RECORD - 1) * self._n + index) != 0

    def _steps(self, index: int) -> np.ndarray:
        """The ``(4, 3)`` step rows of play ``index`` (see :func:`gammon.engine.movegen.generate`)."""
        start = 26 * self._n + (_RECORD - 1) * index
        return self._packed.reshape(-1)[start : start + _RECORD - 1].reshape(movegen.MAX_STEPS, movegen.STEP_FIELDS)

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: int) -> Play: ...
    @overload
    def __getitem__(self, index: slice) -> list[Play]: ...
    def __getitem__(self, index: int | slice) -> Play | list[Play]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        after = self.after[index]  # raises IndexError out of range
        if index < 0:
            index += len(self)
        return Play(self.position, None, after, self._over(index), self, index)

    def __iter__(self) -> Iterator[Play]:
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, play: object) -> bool:
        """Whether ``play`` is one of these plays (from this position, to one of these results)."""
        if not isinstance(play, Play) or (play._origin is not self.position and play._origin != self.position):
            return False
        if play._source is self:
            return True
        return bool((self.after == np.asarray(play._after, np.int8)).all(axis=1).any())

    def positions(self) -> list[Position]:
        """The resulting positions (opponent on roll), in the same order."""
        return [Position._trusted(self.after[i], self._over(i)) for i in range(len(self))]

    def __repr__(self) -> str:
        return f"<Plays {len(self)} for {self.dice[0]}-{self.dice[1]}: {', '.join(map(str, self))}>"
