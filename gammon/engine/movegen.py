"""Legal-play generation: the rules of movement, compiled with Numba.

This module is the single source of the movement rules. A board is an
``int8`` array of 26 cells seen from the player on roll:

* ``b[1]`` .. ``b[24]``: points numbered from the mover's side (1 is the
  mover's ace point, 24 the farthest back). Positive counts are the mover's
  checkers, negative counts the opponent's.
* ``b[25]``: the mover's checkers on the bar (>= 0).
* ``b[0]``: the opponent's checkers on the bar, stored negative (<= 0).

Checkers borne off are not stored: each side has ``15 - on board``.
Flipping the board to the other side's view is ``-b[::-1]``.

The rules, as the generator applies them:

* A checker moves forward by one die to a point not held by two or more
  opposing checkers; landing on a lone opposing checker (a blot) hits it.
* Checkers on the bar must all enter before any other checker moves.
* A checker may bear off only when all the mover's checkers are in the home
  board (points 1-6): with the exact die, or with a higher die from the
  highest occupied point.
* "Use both dice if you can. If only one can be used and either could, the
  higher one must be used." Doubles are played four times, as many as
  possible. If no die can be used the turn passes.

Each distinct resulting position is returned once, with one sequence of
single steps that reaches it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Index of the mover's bar in a board array.
BAR = 25
#: ``to`` value of a step that bears a checker off.
OFF = 0
#: Columns of a step row: source point, destination point (0 = off), hit flag.
STEP_FIELDS = 3
MAX_STEPS = 4


@njit(cache=True, inline="always")
def _all_home(b: np.ndarray) -> bool:
    for i in range(7, 26):
        if b[i] > 0:
            return False
    return True


@njit(cache=True, inline="always")
def _step_target(b: np.ndarray, src: int, die: int) -> int:
    """Destination of moving one checker from ``src`` by ``die``; -1 if illegal."""
    if b[src] <= 0:
        return -1
    if b[BAR] > 0 and src != BAR:
        return -1
    dst = src - die
    if dst >= 1:
        return dst if b[dst] >= -1 else -1
    if not _all_home(b):
        return -1
    if dst == 0:
        return OFF
    for i in range(src + 1, 7):  # a higher die bears off only from the highest point
        if b[i] > 0:
            return -1
    return OFF


@njit(cache=True, inline="always")
def _do_step(b: np.ndarray, src: int, dst: int) -> int:
    """Move one checker in place; return 1 if it hit a blot."""
    b[src] -= 1
    if dst == OFF:
        return 0
    if b[dst] == -1:
        b[dst] = 1
        b[0] -= 1
        return 1
    b[dst] += 1
    return 0


@njit(cache=True)
def _board_hash(b: np.ndarray) -> np.uint64:
    h = np.uint64(1469598103934665603)
    for i in range(26):
        h = (h ^ np.uint64(b[i] + 16)) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def _grow(boards, steps, used):
    n = boards.shape[0]
    nb = np.empty((2 * n, 26), np.int8)
    nb[:n] = boards
    nu = np.empty(2 * n, np.int8)
    nu[:n] = used
    if steps.shape[0] < n:  # not recording steps
        return nb, steps, nu
    ns = np.empty((2 * n, MAX_STEPS, STEP_FIELDS), np.int8)
    ns[:n] = steps
    return nb, ns, nu


@njit(cache=True)
def _candidates(board: np.ndarray, d1: int, d2: int, record: bool):
    """Every reachable (board, steps) after playing as many dice as possible.

    Returns boards, steps, used and the count of rows; all rows have the
    maximal number of dice used, and for a single non-double die the higher
    one when it can be played. Without ``record`` the steps are not kept.
    """
    boards = np.empty((64, 26), np.int8)
    steps = np.full((64 if record else 1, MAX_STEPS, STEP_FIELDS), -1, np.int8)
    used = np.zeros(64, np.int8)
    n = 0
    best = 0
    cur = np.empty((MAX_STEPS + 1, 26), np.int8)
    path = np.full((MAX_STEPS, STEP_FIELDS), -1, np.int8)
    cur[0] = board

    if d1 == d2:
        # Doubles: depth-first with non-increasing source points, which reaches
        # every distinct result exactly as an unordered choice of four steps.
        nxt = np.empty(MAX_STEPS + 1, np.int64)
        depth = 0
        nxt[0] = BAR
        while depth >= 0:
            if depth == MAX_STEPS or nxt[depth] < 1:
                depth -= 1
                continue
            src = nxt[depth]
            nxt[depth] -= 1
            dst = _step_target(cur[depth], src, d1)
            if dst < 0:
                continue
            cur[depth + 1] = cur[depth]
            hit = _do_step(cur[depth + 1], src, dst)
            path[depth, 0] = src
            path[depth, 1] = dst
            path[depth, 2] = hit
            d = depth + 1
            if d >= best:
                if d > best:
                    best = d
                    n = 0
                if n == boards.shape[0]:
                    boards, steps, used = _grow(boards, steps, used)
                boards[n] = cur[d]
                if record:
                    steps[n] = -1
                    steps[n, :d] = path[:d]
                used[n] = d
                n += 1
            if d < MAX_STEPS:
                depth = d
                nxt[depth] = src
        return boards, steps, used, n, best

    hi = max(d1, d2)
    lo = min(d1, d2)
    # Two dice, both orders. played[s, t]: the high die from s, then the low one
    # from t. The same two checker moves in the other order reach the same
    # position (hits included), so the second order skips them.
    played = np.zeros((BAR + 1, BAR + 1), np.bool_)
    for order in range(2):
        a = hi if order == 0 else lo
        c = lo if order == 0 else hi
        for s1 in range(BAR, 0, -1):
            t1 = _step_target(cur[0], s1, a)
            if t1 < 0:
                continue
            cur[1] = cur[0]
            h1 = _do_step(cur[1], s1, t1)
            path[0, 0] = s1
            path[0, 1] = t1
            path[0, 2] = h1
            for s2 in range(BAR, 0, -1):
                if order == 1 and played[s2, s1]:
                    continue
                t2 = _step_target(cur[1], s2, c)
                if t2 < 0:
                    continue
                if order == 0:
                    played[s1, s2] = True
                if best < 2:
                    best = 2
                    n = 0
                if n == boards.shape[0]:
                    boards, steps, used = _grow(boards, steps, used)
                boards[n] = cur[1]
                h2 = _do_step(boards[n], s2, t2)
                path[1, 0] = s2
                path[1, 1] = t2
                path[1, 2] = h2
                if record:
                    steps[n] = -1
                    steps[n, :2] = path[:2]
                used[n] = 2
                n += 1
    if best == 2:
        return boards, steps, used, n, best
    # Only one die can be played: the higher one if it can.
    for die in (hi, lo):
        for s1 in range(BAR, 0, -1):
            t1 = _step_target(cur[0], s1, die)
            if t1 < 0:
                continue
            cur[1] = cur[0]
            h1 = _do_step(cur[1], s1, t1)
            if n == boards.shape[0]:
                boards, steps, used = _grow(boards, steps, used)
            boards[n] = cur[1]
            if record:
                steps[n] = -1
                steps[n, 0, 0] = s1
                steps[n, 0, 1] = t1
                steps[n, 0, 2] = h1
            used[n] = 1
            n += 1
        if n > 0:
            return boards, steps, used, n, 1
    return boards, steps, used, 0, 0


@njit(cache=True)
def _generate(board: np.ndarray, d1: int, d2: int, record: bool):
    """:func:`generate`, and :func:`generate_after` without ``record``."""
    boards, steps, used, n, best = _candidates(board, d1, d2, record)
    if n == 0:
        after = np.empty((1, 26), np.int8)
        for i in range(26):
            after[0, i] = -board[25 - i]
        out_steps = np.full((1 if record else 0, MAX_STEPS, STEP_FIELDS), -1, np.int8)
        over = np.zeros(1, np.bool_)
        return after, out_steps, over
    # Exact de-duplication: open addressing on a hash, full compare on a match.
    size = 1
    while size < 2 * n:
        size *= 2
    table = np.full(size, -1, np.int64)
    keep = np.zeros(n, np.bool_)
    kept = 0
    for i in range(n):
        slot = np.int64(_board_hash(boards[i]) & np.uint64(size - 1))
        while True:
            j = table[slot]
            if j < 0:
                table[slot] = i
                keep[i] = True
                kept += 1
                break
            same = True
            for k in range(26):
                if boards[i, k] != boards[j, k]:
                    same = False
                    break
            if same:
                break
            slot = (slot + 1) & (size - 1)
    after = np.empty((kept, 26), np.int8)
    out_steps = np.empty((kept if record else 0, MAX_STEPS, STEP_FIELDS), np.int8)
    over = np.zeros(kept, np.bool_)
    r = 0
    for i in range(n):
        if not keep[i]:
            continue
        left = 0
        for k in range(26):
            after[r, k] = -boards[i, 25 - k]
            if boards[i, k] > 0:
                left += boards[i, k]
        over[r] = left == 0
        if record:
            out_steps[r] = steps[i]
        r += 1
    return after, out_steps, over


@njit(cache=True)
def generate(board: np.ndarray, d1: int, d2: int):
    """Distinct legal results of rolling ``(d1, d2)`` on ``board``.

    Returns ``(after, steps, over)``:

    * ``after``: ``(n, 26) int8``, each result already flipped to the
      opponent's view (the opponent is on roll next);
    * ``steps``: ``(n, 4, 3) int8`` rows of (source, destination, hit), -1
      padded; destination 0 means borne off, source 25 the bar;
    * ``over``: ``(n,) bool``, the mover has borne off all 15 checkers.

    When nothing can move, ``n == 1`` with an empty step row (the pass).
    """
    return _generate(board, d1, d2, True)


@njit(cache=True)
def generate_after(board: np.ndarray, d1: int, d2: int):
    """:func:`generate` without the steps (an empty ``steps``): for searches that only need the resulting positions."""
    return _generate(board, d1, d2, False)
