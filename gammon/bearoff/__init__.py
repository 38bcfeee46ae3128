"""The one-sided bear-off database: exact roll distributions of every home-board position, and bear-off races.

Every position of up to 15 checkers on one side's six home points (54,264
of them, the empty one included) has an index (GNU Backgammon's ordering,
see :mod:`gammon.bearoff.kernels`) and two distributions over the number
of rolls still needed, built the way GNU Backgammon builds its one-sided
database: every roll played to the smallest mean of what follows,

* to bear off **all** checkers (who wins the race), and
* to bear off a **first** checker (whether a side with nothing off is gammoned).

Two of them give the cubeless probabilities of a pure bear-off race (both
sides in their home boards, nobody on the bar) for the side on roll; the
win chance is exact given that play, gammons treat the two aims of the
side in danger as independent, as GNU Backgammon does, and backgammons
cannot happen (the loser's checkers are all in its own home board).

The database is computed by the project (``gammon bearoff build``, or on
first use), cached in the user cache folder (:mod:`gammon.bearoff.store`)
and loaded lazily: importing this module reads and computes nothing.

>>> position_index((0, 0, 0, 0, 0, 2)), index_position(27)
(27, (0, 0, 0, 0, 0, 2))
>>> from gammon import Position
>>> bool(is_bearoff(Position.from_checkers({1: 2}, {19: 3}).board)), bool(is_bearoff(Position.initial().board))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from gammon.bearoff import kernels
from gammon.bearoff.kernels import CHECKERS, POINTS, ROLLS, positions
from gammon.bearoff.store import SCALE, Tables, default_path, load_or_build
from gammon.errors import GammonError, InvalidPositionError

__all__ = [
    "CHECKERS",
    "POINTS",
    "ROLLS",
    "Database",
    "NotBearoffError",
    "database",
    "index_position",
    "is_bearoff",
    "mean_rolls",
    "position_index",
    "positions",
    "race_probabilities",
]


class NotBearoffError(GammonError):
    """A board that is not a pure bear-off: some checker outside its home board or on the bar."""


# -- the index ---------------------------------------------------------------------------


def position_index(counts: Sequence[int]) -> int:
    """The database index of a side's home board: six counts, ace point first, at most 15 in all.

    >>> position_index((1, 0, 0, 0, 0, 0)), position_index((0, 0, 0, 0, 0, 15))
    (1, 54263)
    """
    c = np.asarray(counts, np.int64)
    if c.shape != (POINTS,) or (c < 0).any() or c.sum() > CHECKERS:
        raise InvalidPositionError(f"invalid home board {tuple(counts)!r}: expected six counts >= 0, at most {CHECKERS} in all")
    return int(kernels.rank(c))


def index_position(index: int) -> tuple[int, ...]:
    """The six counts (ace point first) of the home board with this database index.

    >>> index_position(8)
    (1, 1, 0, 0, 0, 0)
    """
    if not 0 <= index < positions():
        raise InvalidPositionError(f"invalid bear-off index {index!r}: expected 0 to {positions() - 1}")
    return tuple(int(x) for x in kernels.unrank(index))


def _board(board: np.ndarray | Sequence[int]) -> np.ndarray:
    b = np.ascontiguousarray(board, np.int8)
    if b.shape != (26,):
        raise InvalidPositionError(f"invalid board of shape {b.shape}: expected 26 cells")
    return b


def is_bearoff(board: np.ndarray | Sequence[int]) -> bool:
    """Whether both sides of ``board`` (26 cells, side on roll's view) are in the database: a pure bear-off race."""
    return kernels.sides(_board(board))[0] >= 0


# -- the database ---------------------------------------------------------------------------


class Database:
    """The one-sided tables, with lookups by index and by board.

    Distributions are float64 arrays of :data:`ROLLS` chances, ``[t]`` the
    chance of needing exactly ``t`` more rolls; means are exact (float32).
    """

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    @classmethod
    def load(cls, path: Path | None = None, force: bool = False) -> Database:
        """The database cached at ``path`` (default :func:`~gammon.bearoff.store.default_path`), built there if needed."""
        return cls(load_or_build(path, force=force))

    def distribution(self, index: int) -> np.ndarray:
        """Chances of needing exactly t rolls to bear off all checkers of position ``index``."""
        return self.tables.off[index].astype(np.float64) / SCALE

    def first_distribution(self, index: int) -> np.ndarray:
        """Chances of needing exactly t rolls to bear off a first checker (0 rolls when one is already off)."""
        return self.tables.first[index].astype(np.float64) / SCALE

    def mean(self, index: int) -> float:
        """Expected rolls to bear off all checkers of position ``index``, playing to minimise it."""
        return float(self.tables.mean_off[index])

    def mean_first(self, index: int) -> float:
        """Expected rolls to bear off a first checker of position ``index``, playing to minimise that."""
        return float(self.tables.mean_first[index])

    def sides(self, board: np.ndarray | Sequence[int]) -> tuple[int, int]:
        """The indices (side on roll, opponent) of a pure bear-off ``board``; :class:`NotBearoffError` otherwise."""
        b = _board(board)
        a, o = kernels.sides(b)
        if a < 0:
            raise NotBearoffError(f"not a pure bear-off: {b.tolist()} has checkers outside the home boards or on the bar")
        return int(a), int(o)

    def mean_rolls(self, board: np.ndarray | Sequence[int]) -> tuple[float, float]:
        """Expected rolls to bear off (side on roll, opponent) of a pure bear-off ``board``."""
        a, o = self.sides(board)
        return self.mean(a), self.mean(o)

    def race(self, board: np.ndarray | Sequence[int]) -> np.ndarray:
        """The five outcome probabilities (:data:`gammon.outcomes.OUTPUTS`) of the side on roll in a pure bear-off."""
        a, o = self.sides(board)
        out = np.empty(5, np.float64)
        kernels.race_into(self.tables.off, self.tables.first, a, o, out)
        return out

    def race_batch(self, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`race` of each board of ``boards`` ((n, 26)): ``(probabilities (n, 5), ok (n,))``, NaN rows where not ok."""
        b = np.ascontiguousarray(boards, np.int8).reshape(-1, 26)
        out = np.empty((b.shape[0], 5), np.float64)
        ok = np.empty(b.shape[0], np.bool_)
        kernels.race_batch(b, self.tables.off, self.tables.first, out, ok)
        return out, ok


_loaded: dict[Path, Database] = {}


def database(path: Path | None = None) -> Database:
    """The database at ``path`` (default: the user cache), loaded once per process; built on first use."""
    path = default_path() if path is None else Path(path)
    if path not in _loaded:
        _loaded[path] = Database.load(path)
    return _loaded[path]


def race_probabilities(board: np.ndarray | Sequence[int]) -> np.ndarray:
    """:meth:`Database.race` on the default :func:`database`."""
    return database().race(board)


def mean_rolls(board: np.ndarray | Sequence[int]) -> tuple[float, float]:
    """:meth:`Database.mean_rolls` on the default :func:`database`."""
    return database().mean_rolls(board)
