"""The network's search, compiled whole: the best play of a roll, and a position's value and probabilities at 1 and 2 plies.

Every function takes the evaluator as one tuple ``ev``
(:meth:`gammon.net.Evaluator.kernel_args`) and scores a roll's plays with the
incremental evaluation of :mod:`gammon.engine.network` (one first layer per
position for all its rolls), so a 2-ply value (21 rolls,
each answered by its best play valued over 21 more rolls) is one call with
no Python in its loops. Values are cubeless equities of the side on roll in
``board``, before it rolls; rolls are weighted out of 36 (:data:`ROLLS`).

>>> import numpy as np
>>> from gammon import Position
>>> from gammon.net import Architecture, Evaluator, Weights
>>> ev = Evaluator(Weights.zeros(Architecture(hidden=4))).kernel_args()   # every position is worth 0 to this net
>>> round(value_1ply(Position.initial().board, ev), 6)
0.0
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from gammon.engine.analysis import ROLL_HI, ROLL_LO, ROLL_WEIGHT
from gammon.engine.borrowed import borrowed
from gammon.engine.cache import cross_file
from gammon.engine.movegen import generate_after
from gammon.engine.network import base_layer, evaluate_into, score_from_base
from gammon.outcomes import flip_into, game_result, sanitize_into, won_into


@cross_file
@njit(cache=True)
def _best_from_base(board, layer, d1, d2, ev):
    after, _, over = generate_after(board, d1, d2)
    n = after.shape[0]
    if n == 1 and over[0]:
        return after, over, 0, float(game_result(after[0]))
    eq = np.empty(n, np.float64)
    score_from_base(layer, after, over, ev, eq)
    best = 0
    for i in range(1, n):
        if eq[i] > eq[best]:
            best = i
    return after, over, best, eq[best]


@cross_file
@njit(cache=True)
def best_play(board, d1, d2, ev):
    """``(after, over, index of the best play, its equity for the mover)`` of rolling ``d1, d2`` on ``board``."""
    ev = borrowed(ev)  # held by the caller: no reference counting below
    return _best_from_base(board, base_layer(board, ev), d1, d2, ev)


@cross_file
@njit(cache=True)
def value_1ply(board, ev) -> float:
    """The side on roll's equity: its best 0-ply play of each roll, averaged over the 21 rolls."""
    ev = borrowed(ev)  # held by the caller: no reference counting below
    layer = base_layer(board, ev)
    total = 0.0
    for r in range(21):
        _, _, _, value = _best_from_base(board, layer, ROLL_HI[r], ROLL_LO[r], ev)
        total += ROLL_WEIGHT[r] * value
    return total / 36.0


@cross_file
@njit(cache=True, parallel=True)
def value_2ply(board, ev) -> float:
    """The side on roll's equity: per roll its play chosen at 0-ply and valued at 1-ply, averaged (GNU Backgammon's 2-ply).

    The 21 rolls are searched in parallel on Numba's threads and summed in
    roll order afterwards, so the value does not depend on the threads.
    """
    ev = borrowed(ev)  # held by the caller: no reference counting below
    layer = base_layer(board, ev)
    values = np.empty(21, np.float64)
    for r in prange(21):
        after, over, i, _ = _best_from_base(board, layer, ROLL_HI[r], ROLL_LO[r], ev)
        if over[i]:
            values[r] = float(game_result(after[i]))
        else:
            values[r] = -value_1ply(after[i], ev)
    total = 0.0
    for r in range(21):
        total += ROLL_WEIGHT[r] * values[r]
    return total / 36.0


@cross_file
@njit(cache=True, parallel=True)
def deep_equities(after, over, keep, plies, ev, out) -> None:
    """``out[i]`` for each ``i`` in ``keep``: the mover's equity after play ``i`` searched ``plies`` (1 or 2) deep.

    Parallel on Numba's threads over the kept plays at 1 ply (over each
    play's rolls at 2 plies); every value is computed exactly as alone.
    """
    ev = borrowed(ev)  # held by the caller: no reference counting below
    if plies == 1:
        for k in prange(keep.shape[0]):
            i = keep[k]
            out[i] = game_result(after[i]) if over[i] else -value_1ply(after[i], ev)
    else:
        for k in range(keep.shape[0]):
            i = keep[k]
            out[i] = game_result(after[i]) if over[i] else -value_2ply(after[i], ev)


@cross_file
@njit(cache=True)
def _leaf_into(b, ev, x, out) -> None:
    """The 0-ply probabilities (float64, sanitized) of the side on roll in ``b``, not finished."""
    leaf = np.empty(5, np.float32)
    evaluate_into(b, ev, x, leaf)
    for k in range(5):
        out[k] = leaf[k]
    sanitize_into(out)


@cross_file
@njit(cache=True, inline="always")
def _add_roll(total, weight, after, over, theirs, mine) -> None:
    """Add ``weight`` times the mover's probabilities after a roll's play to ``total``: the exact result
    when the play (leaving ``after``) ends the game, else ``theirs`` (the opponent's, then on roll) flipped."""
    if over:
        won_into(game_result(after), mine)
    else:
        flip_into(theirs, mine)
    for k in range(5):
        total[k] += weight * mine[k]


@cross_file
@njit(cache=True, inline="always")
def _average_into(total, out) -> None:
    for k in range(5):
        out[k] = total[k] / 36.0
    sanitize_into(out)


@cross_file
@njit(cache=True)
def probabilities_1ply(board, ev, out) -> None:
    """The five probabilities (float64, into ``out``) of the side on roll in ``board`` before it rolls: for
    each of the 21 rolls its best 0-ply play, the position it leaves valued at 0-ply, averaged and sanitized."""
    ev = borrowed(ev)  # held by the caller: no reference counting below
    x = np.empty((1, max(ev[0].shape[0], ev[4].shape[0])), np.float32)
    layer = base_layer(board, ev)
    total = np.zeros(5, np.float64)
    theirs = np.empty(5, np.float64)
    mine = np.empty(5, np.float64)
    for r in range(21):
        after, over, i, _ = _best_from_base(board, layer, ROLL_HI[r], ROLL_LO[r], ev)
        if not over[i]:
            _leaf_into(after[i], ev, x, theirs)
        _add_roll(total, ROLL_WEIGHT[r], after[i], over[i], theirs, mine)
    _average_into(total, out)


@cross_file
@njit(cache=True)
def probabilities_2ply(board, ev, out) -> None:
    """:func:`probabilities_1ply` one ply deeper: each roll's 0-ply play valued at 1-ply (the probabilities
    behind :func:`value_2ply`). Written out beside it, as Numba compiles no recursion: only the leaf differs."""
    ev = borrowed(ev)  # held by the caller: no reference counting below
    layer = base_layer(board, ev)
    total = np.zeros(5, np.float64)
    theirs = np.empty(5, np.float64)
    mine = np.empty(5, np.float64)
    for r in range(21):
        after, over, i, _ = _best_from_base(board, layer, ROLL_HI[r], ROLL_LO[r], ev)
        if not over[i]:
            probabilities_1ply(after[i], ev, theirs)
        _add_roll(total, ROLL_WEIGHT[r], after[i], over[i], theirs, mine)
    _average_into(total, out)


@cross_file
@njit(cache=True, parallel=True)
def probabilities_batch(boards, ev, plies, out) -> None:
    """:func:`probabilities_1ply` or :func:`probabilities_2ply` (``plies``) of each of ``boards`` ((n, 26),
    none finished) into ``out`` ((n, 5) float64), parallel over the boards on Numba's threads."""
    ev = borrowed(ev)  # held by the caller: no reference counting below
    for k in prange(boards.shape[0]):
        if plies == 1:
            probabilities_1ply(boards[k], ev, out[k])
        else:
            probabilities_2ply(boards[k], ev, out[k])
