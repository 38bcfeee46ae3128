"""Board analysis shared by the encodings and the heuristic terms: rolls, contact, primes, shots, escapes.

Two conventions appear, each said at the function: a board ``b`` seen by
the player on roll (as :mod:`gammon.engine.movegen` keeps it), and "my
view" ``m`` of the player who has just moved (their checkers negative,
moving up from their bar at 0), as the heuristic terms see a candidate
play's result.

Shots are counted two ways on purpose: :func:`shot_rolls` is the
approximation inside the shipped network's inputs (encoding ``tesauro+15``
v1; changing it needs a new encoding version and a retrain), :func:`hits`
the exact per-blot marking the heuristic levels were fitted with
(:func:`hits_from_masks` counts double shots and pip loss with the same
moves as :func:`shots_from_masks`, for encoding ``tesauro+31``). Primes
likewise: the encoding counts every run of made points
(:func:`longest_prime`), the heuristic only runs with an enemy checker
behind them (:func:`blocking_prime`).

>>> from gammon import Position
>>> b = Position.initial().board
>>> rearmost(b), their_rearmost(b), bool(in_contact(b)), longest_prime(b)
(24, 1, True, 1)
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: The 21 distinct rolls (high die, low die) and their weight out of 36, as arrays for the kernels.
ROLL_HI = np.array([a for a in range(1, 7) for b in range(1, a + 1)], np.int64)
ROLL_LO = np.array([b for a in range(1, 7) for b in range(1, a + 1)], np.int64)
ROLL_WEIGHT = np.array([1.0 if a == b else 2.0 for a in range(1, 7) for b in range(1, a + 1)], np.float64)
#: The same rolls for Python: ``((high, low), weight)``.
ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((int(a), int(b)), int(w)) for a, b, w in zip(ROLL_HI, ROLL_LO, ROLL_WEIGHT)
)


# -- where the checkers are -----------------------------------------------------------


@njit(cache=True, inline="always")
def rearmost(b) -> int:
    """The point (25 = bar) of the side on roll's farthest-back checker; 0 when none is left."""
    for p in range(25, 0, -1):
        if b[p] > 0:
            return p
    return 0


@njit(cache=True, inline="always")
def their_rearmost(b) -> int:
    """The other side's farthest-back checker in the on-roll side's numbering (0 = their bar); 25 when none."""
    for p in range(0, 25):
        if b[p] < 0:
            return p
    return 25


@njit(cache=True)
def in_contact(b) -> bool:
    """Whether some checker of the side on roll is still behind some checker of the other side."""
    return rearmost(b) > their_rearmost(b)


@njit(cache=True, inline="always")
def longest_run(mask: int) -> int:
    """The longest run of consecutive set bits of ``mask``."""
    run = 0
    while mask:
        mask &= mask >> 1
        run += 1
    return run


@njit(cache=True)
def longest_prime(b) -> int:
    """The longest run of consecutive points the side on roll has made (2+ checkers), anywhere."""
    made = 0
    for p in range(1, 25):
        if b[p] >= 2:
            made |= 1 << p
    return longest_run(made)


# -- shots and escapes, the side on roll in ``b`` ----------------------------------------------


@njit(cache=True)
def shots_from_masks(sources: int, bar: int, blots: int, blocked: int) -> int:
    """:func:`shot_rolls` on bit masks, in the numbering of the side that hits (it moves down).

    ``sources``: its points 1..24 holding a checker; ``bar``: its checkers on
    the bar (point 25); ``blots`` and ``blocked``: the other side's points
    1..24 with exactly one checker and with two or more. The six dice are
    tested once against every blot at once (``(sources >> d) & blots`` are
    the blots ``d`` pips in front of a source): a roll with a die that hits
    counts without more ado (all but ``miss * miss`` of the 36 rolls, for the
    ``miss`` dice that do not), and only the rolls of two missing dice try
    the sum or the steps of a double.
    """
    if blots == 0:
        return 0
    if bar > 0:
        sources = 1 << 25
    single = 0  # bit d: die d hits
    for d in range(1, 7):
        if (sources >> d) & blots:
            single |= 1 << d
    miss = 6
    for d in range(1, 7):
        miss -= (single >> d) & 1
    total = 36 - miss * miss
    if miss == 0:
        return total
    kmax = 4 if bar <= 1 else max(1, 5 - bar)
    open_ = ~blocked
    for hi in range(1, 7):
        if (single >> hi) & 1:
            continue
        for lo in range(1, hi):  # the sum, over either open point between
            if (single >> lo) & 1 == 0 and bar <= 1 and (sources >> (hi + lo)) & blots & ((open_ >> lo) | (open_ >> hi)):
                total += 2
        path = blots  # the double: k steps, every point on the way open
        for k in range(2, kmax + 1):
            path &= open_ >> ((k - 1) * hi)
            if path == 0:
                break
            if path & (sources >> (k * hi)):
                total += 1
                break
    return total


def _top_bit_table() -> np.ndarray:
    """The index of the highest set bit of every 13-bit number (0 for 0)."""
    n = np.arange(1 << 13)
    top = np.zeros(n.shape, np.int64)
    for k in range(13):
        top = np.where(n >> k, k, top)
    return top.astype(np.int8)


#: :func:`top_bit` of every number below 2**13.
TOP_BIT = _top_bit_table()


@njit(cache=True, inline="always")
def top_bit(mask: int) -> int:
    """The index of ``mask``'s highest set bit (0 < ``mask`` < 2**26): two lookups in :data:`TOP_BIT`, no branch."""
    return max(TOP_BIT[mask >> 13] + 13 * ((mask >> 13) != 0), TOP_BIT[mask & 8191])


@njit(cache=True)
def hits_from_masks(sources: int, doubled: int, bar: int, blots: int, blocked: int) -> tuple[int, int]:
    """Double shots and pip loss on the masks of :func:`shots_from_masks` (the same moves and approximations).

    ``doubled``: the hitting side's points with two or more checkers. Returns
    ``(double, pips)``: the rolls out of 36 with which the hitting side can
    hit two different blots, and the sum over the 36 rolls of the most pips
    one hit costs the other side (a blot on bit ``q`` goes back ``q`` pips:
    the bit is its distance from the hitter's bar). A non-double hits two
    blots with one die each from two checkers, or with one checker that
    hits with one die and again with the other. A double hits two blots
    when one checker meets both on its way, or when the two cost at most
    the steps it has together (four, fewer while entering several checkers
    from the bar). While a checker is on the bar, only checkers entering
    hit.
    """
    if blots == 0:
        return 0, 0
    if bar > 0:
        sources = 1 << 25
        doubled = sources if bar >= 2 else 0
    open_ = ~blocked
    double = 0
    pips = 0
    kmax = 4 if bar <= 1 else max(1, 5 - bar)
    for hi in range(1, 7):
        by_hi = (sources >> hi) & blots
        for lo in range(1, hi):
            by_lo = (sources >> lo) & blots
            reach = by_hi | by_lo
            if bar <= 1:
                reach |= (sources >> (hi + lo)) & blots & ((open_ >> lo) | (open_ >> hi))
            if reach == 0:
                continue
            pips += 2 * top_bit(reach)
            if _two_checkers_hit(by_hi, by_lo, hi - lo, doubled >> hi) or (
                bar <= 1 and (((by_hi >> lo) & blots) or ((by_lo >> hi) & blots))  # one checker, twice
            ):
                double += 2
        # the double: blots by the steps they cost, over open points only
        if (blots & ((sources >> hi) | (sources >> (2 * hi)) | (sources >> (3 * hi)) | (sources >> (4 * hi)))) == 0:
            continue  # none within four steps
        path = blots
        reach = 0
        cheapest = 0  # the steps of the first blot hit, 0 while none
        two = False
        for k in range(1, kmax + 1):
            if k > 1:
                path &= open_ >> ((k - 1) * hi)
                if path == 0:
                    break
            new = path & (sources >> (k * hi)) & ~reach
            if new == 0:
                continue
            if not two:
                if new & (new - 1):
                    two = 2 * k <= kmax  # two blots as far, from two checkers
                elif cheapest:
                    two = cheapest + k <= kmax
                if not two:  # the checker that hits ``new`` goes on and meets another blot
                    ahead = new
                    for _ in range(kmax - k):
                        ahead = (ahead >> hi) & open_
                        if ahead & blots:
                            two = True
                            break
            if cheapest == 0:
                cheapest = k
            reach |= new
        if reach:
            pips += top_bit(reach)
        if two:
            double += 1
    return double, pips


@njit(cache=True, inline="always")
def _two_checkers_hit(by_hi: int, by_lo: int, shift: int, doubled_hi: int) -> bool:
    """Whether blots ``by_hi`` (hit with the high die) and ``by_lo`` (the low die) hold two different blots
    hit from two different checkers: blot ``y`` of ``by_lo`` and ``x`` of ``by_hi`` come from the same point
    when ``y = x + shift``, which takes two checkers there (``doubled_hi``: bit ``x`` when the source of
    ``x`` holds two or more)."""
    if by_hi == 0 or by_lo == 0:
        return False
    both = by_hi | by_lo
    if both & (both - 1) == 0:
        return False  # one blot
    h = by_hi
    while h:
        x = h & -h
        h ^= x
        others = by_lo & ~x
        if x & doubled_hi:
            if others:
                return True
        elif others & ~(x << shift):
            return True
    return False


@njit(cache=True)
def shot_rolls(b: np.ndarray) -> int:
    """Rolls out of 36 with which the side on roll in ``b`` can hit a blot of the other side.

    An approximation that ignores a few rare constraints (other checkers
    moving after entering from the bar on doubles). A roll hits a blot when
    a checker of the side on roll (only one on the bar while it has any
    there) reaches it: with either die; with the sum, if at most one checker
    is on the bar and one of the two intermediate points is open; with a
    double, in up to four steps over open points (``5 - bar`` from a bar of
    two or more). Counted from each blot back to the sources, on bit masks
    (:func:`shots_from_masks`).
    """
    sources = 0
    blots = 0
    blocked = 0
    for t in range(1, 25):
        c = b[t]
        if c > 0:
            sources |= 1 << t
        elif c == -1:
            blots |= 1 << t
        elif c <= -2:
            blocked |= 1 << t
    return shots_from_masks(sources, b[25], blots, blocked)


def _escape_window_table() -> np.ndarray:
    """:func:`escapes_from_mask` of every window of the 12 points in front of the checker: ``[w]``, bit
    ``12 - d`` of ``w`` the point ``d`` pips in front. A roll escapes unless the point at the sum of the dice
    is blocked, or both single-die points are. Vectorised over the 4,096 windows, once, when the module loads."""
    w = np.arange(4096)
    total = np.zeros(w.shape, np.int64)
    for hi, lo, weight in zip(ROLL_HI, ROLL_LO, ROLL_WEIGHT):
        blocked_sum = (w >> (12 - hi - lo)) & 1
        blocked_both = (w >> (12 - hi)) & (w >> (12 - lo)) & 1
        total += np.where((blocked_sum | blocked_both) == 0, int(weight), 0)
    return total.astype(np.int8)


#: Escapes of a rearmost checker by the window of 12 points in front of it (see :func:`escapes_from_mask`).
ESCAPE_WINDOWS = _escape_window_table()


@njit(cache=True, inline="always")
def escapes_from_mask(n: int, blocked: int) -> int:
    """:func:`escape_rolls` for a rearmost checker on point ``n`` (25 the bar, 0 none) past ``blocked`` points
    (bits 1..24): read from :data:`ESCAPE_WINDOWS` by the 12 points in front of it (those below 1 are open)."""
    return ESCAPE_WINDOWS[((blocked << 12) >> n) & 0xFFF]


@njit(cache=True)
def escape_rolls(b: np.ndarray) -> int:
    """Rolls out of 36 with which the rearmost checker of the side on roll gets past the other side's points.

    A roll escapes when the point at the sum of the dice is not held by the
    other side (2+ checkers) and the two single-die points are not both held.
    """
    blocked = 0
    for t in range(1, 25):
        if b[t] <= -2:
            blocked |= 1 << t
    return escapes_from_mask(rearmost(b), blocked)


# -- exact hits, in my view ``m`` (the player who has just moved) ---------------------------


@njit(cache=True, inline="always")
def _open(m, x) -> bool:
    """Whether they may land on point ``x`` (fewer than two of my checkers there)."""
    return m[x] <= 1


@njit(cache=True, inline="always")
def _reach(m, q, die, steps, hit) -> None:
    """Mark my blots that their checker at ``q`` reaches in up to ``steps`` moves of ``die``."""
    x = q
    for _ in range(steps):
        x += die
        if x > 24 or not _open(m, x):
            return
        if m[x] == 1:
            hit[x] = True


@njit(cache=True)
def hits(m, a, b, hit) -> None:
    """Mark in ``hit`` (bool[25]) each of my blots they can hit with the roll (a, b).

    ``m`` is my view: their checkers are negative and move up from point 0
    (their bar) towards 24; their entry point for a die ``d`` is my point ``d``.
    """
    for i in range(25):
        hit[i] = False
    on_bar = -m[0]
    if a == b:
        d = a
        moves = 4
        if on_bar > 0:
            if not _open(m, d):
                return
            if m[d] == 1:
                hit[d] = True
            entered = min(on_bar, 4)
            moves -= entered
            if moves == 0:
                return
            _reach(m, d, d, moves, hit)  # an entered checker keeps moving
        for q in range(1, 25):
            if m[q] < 0:
                _reach(m, q, d, moves, hit)
        return
    if on_bar >= 2:
        for d in (a, b):
            if _open(m, d) and m[d] == 1:
                hit[d] = True
        return
    if on_bar == 1:
        for first in range(2):
            d = a if first == 0 else b
            e = b if first == 0 else a
            if not _open(m, d):
                continue
            if m[d] == 1:
                hit[d] = True
            _reach(m, d, e, 1, hit)
            for q in range(1, 25):
                if m[q] < 0:
                    _reach(m, q, e, 1, hit)
        return
    for q in range(1, 25):
        if m[q] >= 0:
            continue
        _reach(m, q, a, 1, hit)
        _reach(m, q, b, 1, hit)
        x = q + a + b
        if x <= 24 and m[x] == 1 and _open(m, x) and (_open(m, q + a) or _open(m, q + b)):
            hit[x] = True


@njit(cache=True)
def blocking_prime(m, sign) -> int:
    """Longest run of made points (``sign`` 1: mine, -1: theirs) with an enemy checker behind it.

    My points block their checkers below them (they move up); their points
    block my checkers above them.
    """
    best = 0
    if sign > 0:
        lowest = 25  # their farthest-back checker, bar = 0
        for q in range(0, 25):
            if m[q] < 0:
                lowest = q
                break
        run = 0
        for p in range(24, 0, -1):
            if m[p] >= 2:
                run += 1
            else:
                run = 0
            if run > best and p > lowest:
                best = run
    else:
        highest = 0  # my farthest-back checker, bar = 25
        for q in range(25, 0, -1):
            if m[q] > 0:
                highest = q
                break
        run = 0
        for p in range(1, 25):
            if m[p] <= -2:
                run += 1
            else:
                run = 0
            if run > best and p < highest:
                best = run
    return min(best, 6)



def hit_rolls(after_row: np.ndarray) -> list[tuple[int, int]]:
    """The rolls (high, low) with which the player on roll in ``after_row`` can hit a blot.

    A readable check of the shot counting, for tests and for people.

    >>> from gammon.position import Position
    >>> pos = Position.from_checkers({6: 14, 12: 1}, {1: 15})   # their checkers 11 pips behind my blot
    >>> shots = hit_rolls(pos.flip().board)
    >>> sum(1 if a == b else 2 for a, b in shots)   # 6-5 and 5-6 only
    2
    """
    after = np.ascontiguousarray(np.asarray(after_row, dtype=np.int8).reshape(1, 26))
    m = -after[0, ::-1].astype(np.int64)
    hit = np.zeros(25, np.bool_)
    rolls = []
    for a, b in zip(ROLL_HI, ROLL_LO):
        hits(m, int(a), int(b), hit)
        if hit[1:].any():
            rolls.append((int(a), int(b)))
    return rolls
