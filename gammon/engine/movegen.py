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

How: a depth-first search over single checker steps, made and unmade in
place on one board. Doubles take their steps with non-increasing source
points, which reaches every unordered choice of steps exactly once, and two
different choices never reach the same position (the steps out of each point
are fixed by the changes in checker counts, counted down from the bar), so
doubles need no de-duplication. Two different dice are played in both
orders; the second order skips the pairs the first already played, and the
rest (one checker by either route, bear-offs by either die) is de-duplicated
by a Zobrist hash of the result, with a full comparison on a match.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.engine.borrowed import borrowed
from gammon.engine.cache import cross_file

#: Index of the mover's bar in a board array.
BAR = 25
#: ``to`` value of a step that bears a checker off.
OFF = 0
#: Columns of a step row: source point, destination point (0 = off), hit flag.
STEP_FIELDS = 3
MAX_STEPS = 4
#: Bytes per play after the boards in :func:`legal_packed`: its step rows and its game-over flag (every play's steps first, then every flag).
RECORD = MAX_STEPS * STEP_FIELDS + 1

#: Zobrist keys: one random 64-bit word per (cell, count + 16), for hashing a
#: result from the changes of its steps without building the board.
_ZOBRIST = np.random.default_rng(0x6A6D6D6F6E).integers(0, 2**63 - 1, size=(26, 32), dtype=np.int64).astype(np.uint64)


@njit(cache=True, inline="always")
def _highest(b: np.ndarray, start: int) -> int:
    """The mover's highest occupied cell at or below ``start`` (the bar is 25); 0 if none."""
    p = start
    while p > 0 and b[p] <= 0:
        p -= 1
    return p


@njit(cache=True, inline="always")
def _target(b: np.ndarray, top: int, src: int, die: int) -> int:
    """Destination of moving a checker from occupied ``src`` by ``die``; -1 if illegal.

    ``top`` is the mover's highest occupied cell: all checkers are home when
    it is at most 6, and a higher die bears off only from it. The caller
    keeps to the bar while a checker is on it.
    """
    dst = src - die
    if dst >= 1:
        return dst if b[dst] >= -1 else -1
    if top > 6:
        return -1
    if dst == 0 or src == top:
        return OFF
    return -1


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


@njit(cache=True, inline="always")
def _undo_step(b: np.ndarray, src: int, dst: int, hit: int) -> None:
    b[src] += 1
    if dst == OFF:
        return
    if hit:
        b[dst] = -1
        b[0] += 1
    else:
        b[dst] -= 1


@njit(cache=True, inline="always")
def _step_key(b: np.ndarray, src: int, dst: int) -> np.uint64:
    """How a step changes the Zobrist hash of ``b`` (taken before the step)."""
    v = b[src]
    h = _ZOBRIST[src, v + 16] ^ _ZOBRIST[src, v + 15]
    if dst != OFF:
        w = b[dst]
        if w == -1:
            h ^= _ZOBRIST[dst, 15] ^ _ZOBRIST[dst, 17] ^ _ZOBRIST[0, b[0] + 16] ^ _ZOBRIST[0, b[0] + 15]
        else:
            h ^= _ZOBRIST[dst, w + 16] ^ _ZOBRIST[dst, w + 17]
    return h


@njit(cache=True, inline="always")
def _emit(b: np.ndarray, after: np.ndarray, r: int) -> None:
    """Row ``r`` of ``after``: ``b`` flipped to the opponent's view."""
    for k in range(26):
        after[r, k] = -b[25 - k]


@njit(cache=True, inline="always")
def _rows(cap: int, record: bool) -> int:
    """Rows of the ``after`` buffer for ``cap`` plays: with ``record``, room for :func:`legal_packed`'s records too."""
    return cap + (cap + 1) // 2 if record else cap


@njit(cache=True)
def _grow(after, steps, over, record):
    n = over.shape[0]
    na = np.empty((_rows(2 * n, record), 26), np.int8)
    na[:n] = after[:n]
    no = np.empty(2 * n, np.bool_)
    no[:n] = over
    if steps.shape[0] < n:  # not recording steps
        return na, steps, no
    ns = np.empty((2 * n, MAX_STEPS, STEP_FIELDS), np.int8)
    ns[:n] = steps
    return na, ns, no


@cross_file
@njit(cache=True)
def _doubles(b, d, record, top, left):
    """Every distinct result of a double: as many steps of ``d`` as possible, up to four."""
    b = borrowed(b)
    cap = 64
    after = np.empty((_rows(cap, record), 26), np.int8)
    steps = np.empty((cap if record else 0, MAX_STEPS, STEP_FIELDS), np.int8)
    over = np.empty(cap, np.bool_)
    n = 0
    best = 0
    nxt = np.empty(MAX_STEPS + 1, np.int64)
    path = np.empty((MAX_STEPS, STEP_FIELDS), np.int64)
    tops = np.empty(MAX_STEPS, np.int64)
    offs = 0
    depth = 0
    nxt[0] = top
    while True:
        low = BAR if b[BAR] > 0 else 1  # the bar first
        if depth == MAX_STEPS or nxt[depth] < low:
            if depth == 0:
                break
            depth -= 1
            _undo_step(b, path[depth, 0], path[depth, 1], path[depth, 2])
            if path[depth, 1] == OFF:
                offs -= 1
            top = tops[depth]
            continue
        src = nxt[depth]
        nxt[depth] -= 1
        if b[src] <= 0:
            continue
        dst = _target(b, top, src, d)
        if dst < 0:
            continue
        tops[depth] = top
        path[depth, 0] = src
        path[depth, 1] = dst
        path[depth, 2] = _do_step(b, src, dst)
        if dst == OFF:
            offs += 1
        if src == top and b[src] == 0:
            top = _highest(b, src)
        depth += 1
        if depth >= best:
            if depth > best:
                best = depth
                n = 0
            if n == cap:
                after, steps, over = _grow(after, steps, over, record)
                cap *= 2
            _emit(b, after, n)
            over[n] = offs == left
            if record:
                for i in range(MAX_STEPS):
                    for f in range(STEP_FIELDS):
                        steps[n, i, f] = path[i, f] if i < depth else -1
            n += 1
        if depth < MAX_STEPS:
            nxt[depth] = min(src, top)
    return after, steps, over, n


@cross_file
@njit(cache=True)
def _two_dice(b, d1, d2, record, top, left):
    """Every distinct result of two different dice: both if possible, else the higher if possible."""
    b = borrowed(b)
    hi = max(d1, d2)
    lo = min(d1, d2)
    sources = 0
    for p in range(1, BAR + 1):
        if b[p] > 0:
            sources += 1
    # Each order plays at most ``sources`` first steps, each followed by at most
    # ``sources + 1`` second ones (the first step may occupy a new point).
    cap = 2 * sources * (sources + 1) + 1
    after = np.empty((_rows(cap, record), 26), np.int8)
    steps = np.empty((cap if record else 0, MAX_STEPS, STEP_FIELDS), np.int8)
    over = np.empty(cap, np.bool_)
    keys = np.empty(cap, np.uint64)
    size = 16
    while size < 2 * cap:
        size *= 2
    table = np.full(size, -1, np.int16)
    # played[s] bit t: the high die from s, then the low one from t. The same two
    # checker moves in the other order reach the same position (hits included),
    # so the second order skips them.
    played = np.zeros(BAR + 1, np.int64)
    n = 0
    for order in range(2):
        a = hi if order == 0 else lo
        c = lo if order == 0 else hi
        low = BAR if b[BAR] > 0 else 1
        for s1 in range(top, low - 1, -1):
            if b[s1] <= 0:
                continue
            t1 = _target(b, top, s1, a)
            if t1 < 0:
                continue
            k1 = _step_key(b, s1, t1)
            h1 = _do_step(b, s1, t1)
            top1 = _highest(b, top)
            low1 = BAR if b[BAR] > 0 else 1
            for s2 in range(top1, low1 - 1, -1):
                if b[s2] <= 0:
                    continue
                if order == 1 and (played[s2] >> s1) & 1:
                    continue
                t2 = _target(b, top1, s2, c)
                if t2 < 0:
                    continue
                if order == 0:
                    played[s1] |= np.int64(1) << s2
                key = k1 ^ _step_key(b, s2, t2)
                h2 = _do_step(b, s2, t2)
                slot = np.int64(key & np.uint64(size - 1))
                fresh = True
                while table[slot] >= 0:
                    j = table[slot]
                    if keys[j] == key:
                        same = True
                        for k in range(26):
                            if after[j, k] != -b[25 - k]:
                                same = False
                                break
                        if same:
                            fresh = False
                            break
                    slot = (slot + 1) & (size - 1)
                if fresh:
                    table[slot] = n
                    keys[n] = key
                    _emit(b, after, n)
                    over[n] = (t1 == OFF) + (t2 == OFF) == left
                    if record:
                        steps[n] = -1
                        steps[n, 0, 0] = s1
                        steps[n, 0, 1] = t1
                        steps[n, 0, 2] = h1
                        steps[n, 1, 0] = s2
                        steps[n, 1, 1] = t2
                        steps[n, 1, 2] = h2
                    n += 1
                _undo_step(b, s2, t2, h2)
            _undo_step(b, s1, t1, h1)
    if n > 0:
        return after, steps, over, n
    # Only one die can be played: the higher one if it can (one step from
    # different points never reaches the same position).
    for die in (hi, lo):
        low = BAR if b[BAR] > 0 else 1
        for s1 in range(top, low - 1, -1):
            if b[s1] <= 0:
                continue
            t1 = _target(b, top, s1, die)
            if t1 < 0:
                continue
            h1 = _do_step(b, s1, t1)
            _emit(b, after, n)
            over[n] = (t1 == OFF) == left
            if record:
                steps[n] = -1
                steps[n, 0, 0] = s1
                steps[n, 0, 1] = t1
                steps[n, 0, 2] = h1
            n += 1
            _undo_step(b, s1, t1, h1)
        if n > 0:
            break
    return after, steps, over, n


@cross_file
@njit(cache=True)
def _generate(board: np.ndarray, d1: int, d2: int, record: bool):
    """:func:`generate`, and :func:`generate_after` without ``record``."""
    after, steps, over, n = _buffers(board, d1, d2, record)
    return after[:n], steps[: n if record else 0], over[:n]


@cross_file
@njit(cache=True)
def _buffers(board: np.ndarray, d1: int, d2: int, record: bool):
    """:func:`_generate`'s ``(after, steps, over)`` before they are cut to their ``n`` plays: ``(after, steps, over, n)``."""
    b = board.copy()
    left = 0  # the mover's checkers on the board
    for k in range(1, BAR + 1):
        if b[k] > 0:
            left += b[k]
    top = _highest(b, BAR)
    if d1 == d2:
        after, steps, over, n = _doubles(b, d1, record, top, left)
    else:
        after, steps, over, n = _two_dice(b, d1, d2, record, top, left)
    if n == 0:  # the pass
        _emit(b, after, 0)
        over[0] = False
        if record:
            steps[0] = -1
        n = 1
    return after, steps, over, n


@cross_file
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


@cross_file
@njit(cache=True)
def generate_after(board: np.ndarray, d1: int, d2: int):
    """:func:`generate` without the steps (an empty ``steps``): for searches that only need the resulting positions."""
    return _generate(board, d1, d2, False)


@cross_file
@njit(cache=True)
def legal_packed(board: np.ndarray, d1: int, d2: int):
    """:func:`generate` in one array, for Python callers (each object returned to Python costs time).

    ``n`` plays take ``n + ceil(n / 2)`` rows of 26 bytes (so ``n`` is two
    thirds of the rows, rounded down): the first ``n`` are ``after``; the
    bytes after them hold every play's ``(4, 3)`` step rows, then every
    play's game-over flag (1 if the game is over), then zeros (the padding of
    an odd count). The array is a view of the generator's own buffer (sized
    for the most plays the roll could have), not a copy.
    """
    after, steps, over, n = _buffers(board, d1, d2, True)
    size = n + (n + 1) // 2
    flat = after.reshape(-1)  # the records go in the rows after the n boards (see _rows)
    flags = 26 * n + (RECORD - 1) * n
    flat[26 * n : flags] = steps.reshape(-1)[: (RECORD - 1) * n]
    for i in range(n):
        flat[flags + i] = over[i]
    flat[flags + n : 26 * size] = 0
    return after[:size]
