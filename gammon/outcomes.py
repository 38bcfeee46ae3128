"""The vocabulary of value: game results and their points, outcome probabilities, flip, equity.

A game ends when a side bears off its last checker. It is then seen from
the loser, who would be on roll next; the winner scores a single (1), a
gammon (2: the loser has borne off nothing) or a backgammon (3: the loser
also has a checker on the bar or in the winner's home board), times the
cube. Outcome probabilities are five numbers for one side, cumulative as
GNU Backgammon writes them (:data:`OUTPUTS`): win, win gammon, win
backgammon, lose gammon, lose backgammon.

Every rule here exists in two forms side by side: a compiled one (Numba,
on single boards and five floats, for the kernels of :mod:`gammon.engine`
and self-play) and a numpy one (on arrays whose last axis is the five
probabilities, for everything else). Nothing else computes them.

>>> import numpy as np
>>> from gammon import Position
>>> lost_gammon = Position.from_checkers({6: 15}, {})      # the loser, on roll, has borne off nothing
>>> game_result(lost_gammon.board), worst_loss(Position.initial().board)
(2, 3)
>>> p = np.array([0.6, 0.2, 0.01, 0.1, 0.0])
>>> round(float(equity(p)), 6), flip(p).round(6).tolist()
(0.31, [0.4, 0.1, 0.0, 0.2, 0.01])
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.engine.analysis import in_contact
from gammon.engine.cache import cross_file

#: The five outcome probabilities, cumulative (a backgammon is also a gammon and a win).
OUTPUTS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")

# -- results of a game ---------------------------------------------------------------


@njit(cache=True)
def loss_value(board) -> int:
    """What the side on roll in ``board`` loses if the other side bears off now: 1, 2 or 3.

    1 once it has borne off a checker; else 3 with a checker on the bar or
    in the other side's home board (its points 19-24), else 2.
    """
    left = board[25]
    back = board[25] > 0
    for p in range(1, 25):
        if board[p] > 0:
            left += board[p]
            if p >= 19:
                back = True
    if left < 15:
        return 1
    return 3 if back else 2


@njit(cache=True)
def game_result(board) -> int:
    """Points (before the cube) won by the player who just moved: 1, 2, 3; 0 while the game goes on.

    ``board`` is seen by the player on roll, the loser when the game is over.
    """
    for p in range(26):
        if board[p] < 0:  # the player who moved still has checkers
            return 0
    return loss_value(board)


@cross_file
@njit(cache=True, inline="always")
def rule_out_into(board, out) -> None:
    """Zero the outcomes in ``out`` (five, for the side on roll in ``board``, not finished) that cannot happen.

    A side that has borne off a checker cannot lose a gammon. Once contact is
    broken (no checker of one side behind one of the other's), a side with
    no checker on the bar or in the winner's home board cannot lose a
    backgammon: nothing can send it back. GNU Backgammon's evaluator rules
    out the same outcomes; a network's independent outputs need not.
    """
    mine = board[25]
    theirs = -board[0]
    my_back = board[25] > 0  # a checker of mine on the bar or in their home board (my 19-24)
    their_back = board[0] < 0  # theirs on the bar or in my home board (my 1-6)
    for p in range(1, 25):
        v = board[p]
        if v > 0:
            mine += v
            my_back |= p >= 19
        elif v < 0:
            theirs -= v
            their_back |= p <= 6
    rule_out_known(mine, theirs, my_back, their_back, in_contact(board), out)


@njit(cache=True, inline="always")
def rule_out_known(mine, theirs, my_back, their_back, contact, out) -> None:
    """:func:`rule_out_into` from what it reads off the board: each side's checkers not borne off, whether
    each has one on the bar or in the other's home board, and whether contact is left (for a caller that
    knows them already: the incremental evaluation's board summary)."""
    if theirs < 15:
        out[1] = 0.0
        out[2] = 0.0
    elif not contact and not their_back:
        out[2] = 0.0
    if mine < 15:
        out[3] = 0.0
        out[4] = 0.0
    elif not contact and not my_back:
        out[4] = 0.0


@cross_file
@njit(cache=True)
def rule_out_rows(boards, values) -> None:
    """:func:`rule_out_into` for each row of ``boards`` ((n, 26)) and ``values`` ((n, 5)), in place."""
    for k in range(boards.shape[0]):
        rule_out_into(boards[k], values[k])


def worst_loss(board: np.ndarray) -> int:
    """The most the player on roll in ``board`` can still lose: 1, 2 or 3 (a resignation that gives up everything)."""
    return int(loss_value(np.ascontiguousarray(board, np.int8)))


@njit(cache=True)
def _results_into(after, out) -> None:
    for i in range(after.shape[0]):
        out[i] = game_result(after[i])


def results(after: np.ndarray) -> np.ndarray:
    """:func:`game_result` of each board of ``after`` ((n, 26)), as float64."""
    after = np.ascontiguousarray(after, np.int8).reshape(-1, 26)
    out = np.empty(after.shape[0], np.float64)
    _results_into(after, out)
    return out


# -- outcome probabilities ----------------------------------------------------------------


def won_probs(points: int) -> np.ndarray:
    """The exact probabilities of a finished game for the winner of ``points`` (1, 2, 3).

    >>> won_probs(2).tolist()
    [1.0, 1.0, 0.0, 0.0, 0.0]
    """
    return np.array([1.0, float(points >= 2), float(points >= 3), 0.0, 0.0], np.float64)


def lost_probs(points: int) -> np.ndarray:
    """The exact probabilities of a finished game for the loser of ``points``, as float32 training targets.

    >>> lost_probs(3).tolist()
    [0.0, 0.0, 0.0, 1.0, 1.0]
    """
    return np.array([0.0, 0.0, 0.0, float(points >= 2), float(points >= 3)], np.float32)


@njit(cache=True, inline="always")
def lost_into(points, out) -> None:
    """:func:`lost_probs` of ``points`` written into ``out`` (five), for compiled code."""
    out[0] = 0.0
    out[1] = 0.0
    out[2] = 0.0
    out[3] = 1.0 if points >= 2 else 0.0
    out[4] = 1.0 if points >= 3 else 0.0


@njit(cache=True, inline="always")
def won_into(points, out) -> None:
    """:func:`won_probs` of ``points`` written into ``out`` (five), for compiled code."""
    out[0] = 1.0
    out[1] = 1.0 if points >= 2 else 0.0
    out[2] = 1.0 if points >= 3 else 0.0
    out[3] = 0.0
    out[4] = 0.0


def flip(p: np.ndarray) -> np.ndarray:
    """The same outcome distribution seen by the other side (float64).

    >>> flip(np.array([0.7, 0.2, 0.01, 0.05, 0.0])).tolist()
    [0.30000000000000004, 0.05, 0.0, 0.2, 0.01]
    """
    p = np.asarray(p, np.float64)
    return np.stack([1.0 - p[..., 0], p[..., 3], p[..., 4], p[..., 1], p[..., 2]], axis=-1)


@njit(cache=True, inline="always")
def flip_into(src, dst) -> None:
    """Compiled :func:`flip` of five values from ``src`` into ``dst`` (which may not be ``src``)."""
    dst[0] = 1.0 - src[0]
    dst[1] = src[3]
    dst[2] = src[4]
    dst[3] = src[1]
    dst[4] = src[2]


def sanitize(p: np.ndarray) -> np.ndarray:
    """Make probabilities consistent: ``win >= win gammon >= win backgammon``, the same for losses.

    >>> sanitize(np.array([0.4, 0.5, 0.6, 0.7, 0.8])).round(2).tolist()
    [0.4, 0.4, 0.4, 0.6, 0.6]
    """
    p = np.clip(np.asarray(p, np.float64), 0.0, 1.0).copy()
    p[..., 1] = np.minimum(p[..., 1], p[..., 0])
    p[..., 2] = np.minimum(p[..., 2], p[..., 1])
    p[..., 3] = np.minimum(p[..., 3], 1.0 - p[..., 0])
    p[..., 4] = np.minimum(p[..., 4], p[..., 3])
    return p


@njit(cache=True, inline="always")
def sanitize_into(p) -> None:
    """Compiled :func:`sanitize` of five float64 values, in place, in the same order of operations."""
    for k in range(5):
        p[k] = min(max(p[k], 0.0), 1.0)
    p[1] = min(p[1], p[0])
    p[2] = min(p[2], p[1])
    p[3] = min(p[3], 1.0 - p[0])
    p[4] = min(p[4], p[3])


# -- cubeless equity ------------------------------------------------------------------


def equity(p: np.ndarray) -> np.ndarray:
    """Cubeless money equity of outcome probabilities (last axis of 5), for the side they belong to."""
    p = np.asarray(p, np.float64)
    return 2.0 * p[..., 0] - 1.0 + p[..., 1] - p[..., 3] + p[..., 2] - p[..., 4]


@njit(cache=True, inline="always")
def equity5(p0, p1, p2, p3, p4):
    """Compiled :func:`equity` of five values, in the same order of operations."""
    return 2.0 * p0 - 1.0 + p1 - p3 + p2 - p4


@njit(cache=True, inline="always")
def mover_equity(p0, p1, p2, p3, p4):
    """The equity of the player who just moved from the probabilities of the side now on roll.

    ``-equity5(...)``, summed in the order the shipped network's plays were
    chosen with, so that near-ties break as they always have.
    """
    return 1.0 - 2.0 * p0 + p3 + p4 - p1 - p2
