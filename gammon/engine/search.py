"""The network's search, compiled whole: the best play of a roll, and a position's value at 1 and 2 plies.

Every function takes the weights as :class:`gammon.net.Weights` keeps them
(``w1, b1, w2, b2, act``) and scores a roll's plays with the incremental
evaluation of :mod:`gammon.engine.network` (one first layer per position for
all its rolls), so a 2-ply value (21 rolls,
each answered by its best play valued over 21 more rolls) is one call with
no Python in its loops. Values are cubeless equities of the side on roll in
``board``, before it rolls; rolls are weighted out of 36 (:data:`ROLLS`).

>>> import numpy as np
>>> from gammon import Position
>>> from gammon.net import Architecture, Weights
>>> w = Weights.zeros(Architecture(hidden=4))        # every position is worth 0 to this net
>>> round(value_1ply(Position.initial().board, w.w1, w.b1, w.w2, w.b2, w.act), 6)
0.0
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from gammon.engine.analysis import ROLL_HI, ROLL_LO, ROLL_WEIGHT
from gammon.engine.cache import cross_file
from gammon.engine.movegen import generate_after
from gammon.engine.network import base_layer, score_from_base
from gammon.outcomes import game_result


@cross_file
@njit(cache=True)
def _best_from_base(board, base, x0, h0, d1, d2, w1, w2, b2, act):
    after, _, over = generate_after(board, d1, d2)
    n = after.shape[0]
    if n == 1 and over[0]:
        return after, over, 0, float(game_result(after[0]))
    eq = np.empty(n, np.float64)
    score_from_base(base, x0, h0, after, over, w1, w2, b2, act, eq)
    best = 0
    for i in range(1, n):
        if eq[i] > eq[best]:
            best = i
    return after, over, best, eq[best]


@cross_file
@njit(cache=True)
def best_play(board, d1, d2, w1, b1, w2, b2, act):
    """``(after, over, index of the best play, its equity for the mover)`` of rolling ``d1, d2`` on ``board``."""
    base, x0, h0 = base_layer(board, w1, b1)
    return _best_from_base(board, base, x0, h0, d1, d2, w1, w2, b2, act)


@cross_file
@njit(cache=True)
def value_1ply(board, w1, b1, w2, b2, act) -> float:
    """The side on roll's equity: its best 0-ply play of each roll, averaged over the 21 rolls."""
    base, x0, h0 = base_layer(board, w1, b1)
    total = 0.0
    for r in range(21):
        _, _, _, value = _best_from_base(board, base, x0, h0, ROLL_HI[r], ROLL_LO[r], w1, w2, b2, act)
        total += ROLL_WEIGHT[r] * value
    return total / 36.0


@cross_file
@njit(cache=True, parallel=True)
def value_2ply(board, w1, b1, w2, b2, act) -> float:
    """The side on roll's equity: per roll its play chosen at 0-ply and valued at 1-ply, averaged (GNU Backgammon's 2-ply).

    The 21 rolls are searched in parallel on Numba's threads and summed in
    roll order afterwards, so the value does not depend on the threads.
    """
    base, x0, h0 = base_layer(board, w1, b1)
    values = np.empty(21, np.float64)
    for r in prange(21):
        after, over, i, _ = _best_from_base(board, base, x0, h0, ROLL_HI[r], ROLL_LO[r], w1, w2, b2, act)
        if over[i]:
            values[r] = float(game_result(after[i]))
        else:
            values[r] = -value_1ply(after[i], w1, b1, w2, b2, act)
    total = 0.0
    for r in range(21):
        total += ROLL_WEIGHT[r] * values[r]
    return total / 36.0


@cross_file
@njit(cache=True, parallel=True)
def deep_equities(after, over, keep, plies, w1, b1, w2, b2, act, out) -> None:
    """``out[i]`` for each ``i`` in ``keep``: the mover's equity after play ``i`` searched ``plies`` (1 or 2) deep.

    Parallel on Numba's threads over the kept plays at 1 ply (over each
    play's rolls at 2 plies); every value is computed exactly as alone.
    """
    if plies == 1:
        for k in prange(keep.shape[0]):
            i = keep[k]
            out[i] = game_result(after[i]) if over[i] else -value_1ply(after[i], w1, b1, w2, b2, act)
    else:
        for k in range(keep.shape[0]):
            i = keep[k]
            out[i] = game_result(after[i]) if over[i] else -value_2ply(after[i], w1, b1, w2, b2, act)
