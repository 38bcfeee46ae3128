"""The compiled part of the bear-off database: the index, the build, the race arithmetic.

All Numba functions of :mod:`gammon.bearoff` live in this one file, so
that only the build (which calls :func:`gammon.engine.movegen.generate`)
crosses a file boundary and needs :func:`gammon.engine.cache.refresh`.

A one-sided position is six counts, ``counts[0]`` on the ace point to
``counts[5]`` on the six point. Its index is GNU Backgammon's: positions
are ordered by the number of checkers, then lexicographically by the
sorted list of the points the checkers stand on, so the empty position is
0, one checker on the ace point 1, ..., one on the six point 6, two on the
ace point 7, and fifteen on the six point 54,263. Every play lowers the
index (a checker moves down or off), which is the order of the build.

>>> import numpy as np
>>> int(rank(np.array([0, 0, 0, 0, 0, 2], np.int64))), unrank(27).tolist()
(27, [0, 0, 0, 0, 0, 2])
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from gammon.engine.analysis import ROLL_HI, ROLL_LO, ROLL_WEIGHT
from gammon.engine.cache import cross_file
from gammon.engine.movegen import generate

#: Home points per side, and the most checkers a side has.
POINTS = 6
CHECKERS = 15
#: Length of a stored distribution: P(0 rolls) .. P(31 rolls). A side needs at most 30 rolls.
ROLLS = 32

#: ``_BLOCK[r, p]``: positions of ``r`` checkers on points ``p .. 5`` (multisets of size r from 6 - p points).
_BLOCK = np.array([[comb(r + POINTS - 1 - p, POINTS - 1 - p) for p in range(POINTS)] for r in range(CHECKERS + 1)], np.int64)
#: ``_BELOW[n]``: positions of fewer than ``n`` checkers, the index of the first position of ``n``.
_BELOW = np.array([comb(n + POINTS - 1, POINTS) for n in range(CHECKERS + 2)], np.int64)


def positions(checkers: int = CHECKERS) -> int:
    """How many one-sided positions have at most ``checkers`` checkers: C(checkers + 6, 6).

    >>> positions(), positions(1)
    (54264, 7)
    """
    return comb(checkers + POINTS, POINTS)


# -- the index ----------------------------------------------------------------------


@njit(cache=True)
def rank(counts) -> int:
    """The index of the one-sided position ``counts`` (six counts, ace point first)."""
    n = 0
    for p in range(POINTS):
        n += counts[p]
    index = _BELOW[n]
    left = n
    for p in range(POINTS):
        left -= counts[p]
        if left > 0:  # the next checker is above p: skip the positions whose next one is on p
            index += _BLOCK[left - 1, p]
    return index


@njit(cache=True)
def unrank(index):
    """The six counts of the one-sided position with this ``index`` (inverse of :func:`rank`)."""
    counts = np.zeros(POINTS, np.int64)
    n = 0
    while _BELOW[n + 1] <= index:
        n += 1
    rest = index - _BELOW[n]
    left = n
    p = 0
    while left > 0:
        block = _BLOCK[left - 1, p]  # positions whose next checker is on p
        if rest < block:
            counts[p] += 1
            left -= 1
        else:
            rest -= block
            p += 1
    return counts


# -- the build ----------------------------------------------------------------------------


@cross_file
@njit(cache=True)
def build_tables(count):
    """The distributions of the first ``count`` positions: ``(off, first, mean_off, mean_first)``.

    ``off[i, t]`` is the chance that position ``i`` needs exactly ``t``
    rolls to bear off every checker when each roll is played to the
    smallest mean of what follows; ``first[i, t]`` the same for bearing off
    a first checker (played to its own smallest mean), which is 0 rolls for
    a side with fewer than 15 checkers left. Ties go to the first play of
    :func:`~gammon.engine.movegen.generate`. Float64, ``count`` rows of 32.
    """
    off = np.zeros((count, ROLLS), np.float64)
    first = np.zeros((count, ROLLS), np.float64)
    mean_off = np.zeros(count, np.float64)
    mean_first = np.zeros(count, np.float64)
    off[0, 0] = 1.0
    first[0, 0] = 1.0
    board = np.zeros(26, np.int8)
    after_counts = np.zeros(POINTS, np.int64)
    for i in range(1, count):
        counts = unrank(i)
        n = 0
        for p in range(POINTS):
            board[p + 1] = counts[p]
            n += counts[p]
        full = n == CHECKERS  # only a side with nothing borne off can still be gammoned
        if not full:
            first[i, 0] = 1.0
        m_off = 1.0
        m_first = 1.0 if full else 0.0
        for r in range(ROLL_HI.shape[0]):
            w = ROLL_WEIGHT[r] / 36.0
            after, _, _ = generate(board, ROLL_HI[r], ROLL_LO[r])
            best = -1
            best_first = -1
            for k in range(after.shape[0]):
                for p in range(POINTS):  # flipped: the mover's point p + 1 is at 24 - p, negative
                    after_counts[p] = -after[k, 24 - p]
                j = rank(after_counts)
                if best < 0 or mean_off[j] < mean_off[best] - 1e-12:
                    best = j
                if full and (best_first < 0 or mean_first[j] < mean_first[best_first] - 1e-12):
                    best_first = j
            m_off += w * mean_off[best]
            for t in range(ROLLS - 1):
                off[i, t + 1] += w * off[best, t]
            if full:
                m_first += w * mean_first[best_first]
                for t in range(ROLLS - 1):
                    first[i, t + 1] += w * first[best_first, t]
        mean_off[i] = m_off
        mean_first[i] = m_first
    return off, first, mean_off, mean_first


# -- two sides: a pure bear-off race -------------------------------------------------------


@njit(cache=True)
def sides(board):
    """The indices (on roll, opponent) of a board whose checkers are all in their home boards; (-1, -1) if not.

    ``board`` is the 26 cells of :mod:`gammon.engine.movegen`: the side on
    roll on points 1-6, the opponent on 19-24 (negative), nobody on the bar.
    """
    mine = np.zeros(POINTS, np.int64)
    theirs = np.zeros(POINTS, np.int64)
    for i in range(26):
        c = board[i]
        if c == 0:
            continue
        if 1 <= i <= POINTS and c > 0:
            mine[i - 1] = c
        elif 25 - POINTS <= i <= 24 and c < 0:
            theirs[24 - i] = -c
        else:
            return -1, -1
    return rank(mine), rank(theirs)


@njit(cache=True)
def race_into(off, first, a, b, out) -> None:
    """The five outcome probabilities of side ``a`` on roll against side ``b``, into ``out``.

    From the one-sided tables ``off``/``first`` (float or fixed point): ``a`` wins if it needs no more rolls than ``b``; it wins a
    gammon if ``b`` has not got a first checker off in the rolls ``b`` has
    before that; it loses a gammon if ``b`` finishes first while ``a`` has
    borne off nothing. Backgammons cannot happen in a bear-off race.
    """
    # Each distribution is normalised by its own sum, so that rounding to
    # fixed point leaves certainties certain (1 roll against 2 wins: 1.0).
    sum_a = 0.0
    sum_b = 0.0
    sum_first_a = 0.0
    sum_first_b = 0.0
    for t in range(ROLLS):
        sum_a += off[a, t]
        sum_b += off[b, t]
        sum_first_a += first[a, t]
        sum_first_b += first[b, t]
    tail_b = 1.0  # P(b needs >= t rolls), starting at t = 0
    tail_first_b = 1.0  # P(b's first checker needs >= t rolls)
    tail_first_a = 1.0 - first[a, 0] / sum_first_a  # P(a's first checker needs >= t + 1 rolls)
    win = 0.0
    win_gammon = 0.0
    lose_gammon = 0.0
    for t in range(ROLLS):
        pa = off[a, t] / sum_a
        pb = off[b, t] / sum_b
        win += pa * tail_b
        win_gammon += pa * tail_first_b
        lose_gammon += pb * tail_first_a
        tail_b -= pb
        tail_first_b -= first[b, t] / sum_first_b
        if t + 1 < ROLLS:
            tail_first_a -= first[a, t + 1] / sum_first_a
    out[0] = min(max(win, 0.0), 1.0)
    out[1] = min(max(win_gammon, 0.0), out[0])
    out[2] = 0.0
    out[3] = min(max(lose_gammon, 0.0), 1.0 - out[0])
    out[4] = 0.0


@njit(cache=True)
def race_batch(boards, off, first, out, ok) -> None:
    """:func:`race_into` for each board of ``boards`` ((n, 26)); ``ok[k]`` says whether board k is a pure bear-off."""
    for k in range(boards.shape[0]):
        a, b = sides(boards[k])
        ok[k] = a >= 0
        if a >= 0:
            race_into(off, first, a, b, out[k])
        else:
            out[k, :] = np.nan
