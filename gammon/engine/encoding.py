"""Network inputs: a board from the side on roll, as a vector of floats.

The encoding (name ``tesauro+15``, version 1) has :data:`N_INPUTS` = 211
inputs, all computed from a :mod:`gammon.engine.movegen` board seen by the player on
roll ("me"; the other side is "them"):

=========  ======================================================================
index      meaning
=========  ======================================================================
0-95       my checkers on my points 1..24, four units per point (Tesauro):
           ``n >= 1``, ``n >= 2``, ``n >= 3``, ``(n - 3) / 2`` when ``n > 3``
96-191     their checkers on *their* points 1..24 (their own numbering), same units
192, 193   checkers on the bar / 2: mine, theirs
194, 195   checkers borne off / 15: mine, theirs
196        contact: 1 while some checker of mine is behind some checker of theirs
197-203    my side's features (below)
204-210    their side's features (below)
=========  ======================================================================

Side features, each computed for one side S (the other side is O):

0. pip count of S / 100
1. home-board points made by S (2+ checkers on points 1..6) / 6
2. longest run of consecutive points made by S / 6 (the longest prime)
3. blots of S (points with exactly one checker) / 5
4. checkers of S back: on the bar or on S's points 19..24 (O's home board) / 5
5. shots: the share of the 36 rolls with which O, if O were to roll now, could
   hit a blot of S (direct and combination shots, blocked intermediate points
   and O's checkers on the bar taken into account; an approximation of
   GNU Backgammon's hit-probability inputs)
6. escapes: the share of the 36 rolls with which S's rearmost checker gets
   past O's points in front of it: the point at the sum of the dice is open
   and so is at least one of the points at the single dice (GNU
   Backgammon's back-escapes input, doubles counted like other rolls)

The contact encoding (name ``tesauro+23``, version 1; :data:`N_CONTACT_INPUTS` =
219 inputs) is the 211 above followed by four more per side, mine
(211-214) then theirs (215-218), in the spirit of GNU Backgammon's contact
inputs (:func:`extra_from_summary`):

0. back anchor: how deep S's deepest anchor (2+ checkers) in O's home
   board is, (p - 18) / 6 for S's point p in 19..24 (the 24-point anchor is
   1), 0 without one. A deep anchor makes a holding or back game, where
   being hit costs little: the net cannot see that from point units alone,
   because the same units on a point mean different games by depth.
1. anchors: S's points made in O's home board / 3. Two of them make a back
   game, whose timing and gammon risks differ from one anchor's.
2. containment: 1 - (the fewest rolls out of 36 with which a checker of S
   on any of S's points 15..24 gets past all of O's points among the 12 in
   front of it, moving by the rules: :func:`escapes_past`) / 36. It
   measures O's blockade as a whole (GNU Backgammon's containment), not
   just the landing points in front of S's rearmost checker (the escapes
   feature).
3. break-contact pips: the pips S's checkers behind O's rearmost checker
   must move to get past it / 100 (GNU Backgammon's break-contact input):
   how far the game is from becoming a race, and so how long S's back
   checkers still have to hold or escape.

The rich contact encoding (name ``tesauro+31``, version 1;
:data:`N_RICH_INPUTS` = 227 inputs) is the 219 above followed by four more
per side, mine (219-222) then theirs (223-226), more of GNU Backgammon's
contact inputs (:func:`rich_from_summary`). The hits are O's, if O were to
roll now, counted as the shots input counts them
(:func:`~gammon.engine.analysis.hits_from_masks`):

0. double shots: the share of the 36 rolls with which O can hit two of S's
   blots (GNU Backgammon's P2). Two blots in reach are a worse risk than
   one: the shots input cannot tell them apart from one.
1. pip loss: over the 36 rolls, the mean of the most pips a hit costs S
   (a blot on S's point p goes back 25 - p pips), / 12 (GNU Backgammon's
   pip loss). A blot hit in O's home board costs little, one hit in S's
   own home board almost a whole trip: shots alone weigh them alike.
2. mobility: the sum over S's checkers outside S's home board (and on the
   bar) of the rolls out of 36 with which it can move without landing on
   O's points (the escapes input's count, from its point:
   :func:`~gammon.engine.analysis.escapes_from_mask`) times its distance
   from S's home board, / 3,600 (GNU Backgammon's mobility): how freely S's
   checkers still to come home can move.
3. timing: the pips S can play before it has to break a point of its home
   board: every checker outside it counts its distance to the home board,
   every checker beyond two on a home-board point its distance to the 1
   point, / 100 (in the spirit of GNU Backgammon's timing). In a holding or
   priming game, the side that runs out of timing first has to wreck its
   board.

The race encoding (name ``tesauro+race``, version 1; :data:`N_RACE_INPUTS` =
247 inputs) is the 211 above followed by 18 more per side, mine (211-228)
then theirs (229-246), for the race net: positions without contact, where
what matters is how the two bear-offs will go (:func:`race_from_summary`):

0. none off: 1 while S has borne off no checker. Such a side can still be
   gammoned: its gammon chances turn on it, and the linear borne-off input
   cannot say "none" sharply.
1-14. borne off >= k, for k = 1..14: a thermometer of S's checkers borne
   off, as in GNU Backgammon's race net. A race's outcome is a race of
   checkers off, not of pips alone: the net sees each count of it.
15. crossovers / 10: over S's checkers, the quarters of the board each
   still has to cross to reach S's home board (a checker on S's point p:
   (p - 1) // 6, on the bar 4). Bringing a checker across costs part of a
   roll whatever the pips, which the pip count does not show: it is how
   the bear-in wastes pips.
16. checkers outside home / 15: S's checkers not yet in its home board
   (bar included). Bearing off starts only when it is 0: with the pips
   below, it says how long S's gammon-saving run still is.
17. pips to come home / 50: the pips S's checkers outside its home board
   need to reach its 6 point (from the bar, 19). With none off, they
   weigh the gammon risk that the total pip count mixes with the bear-off.

The race encoding's inputs after 210 mean other things than the contact
encodings' inputs of the same index: each encoding owns its folded inputs
(:func:`linear_inputs`, :func:`folded_inputs`).

Tesauro's original 198 inputs are units 0-195 plus two units saying whose
turn it is. Here the turn is implicit: the network always scores a position
for the player on roll, so those two units would be constant and are folded
into the biases. To score a play, the mover encodes the resulting position,
which is seen by the opponent (``movegen.generate`` returns it already
flipped), and reads the outputs from the other side (see :mod:`gammon.engine.network`).

Any change to the inputs needs a new :data:`ENCODING_NAME` or
:data:`ENCODING_VERSION`: model files record both and refuse to load under
another encoding.

>>> import numpy as np
>>> from gammon import Position
>>> x = encode_board(Position.initial().board)
>>> x.shape, x.dtype
((211,), dtype('float32'))
>>> [round(float(v), 4) for v in (x[4 * 5 + 3], x[196], x[197])]  # 5 on my 6 point: (5-3)/2; contact; 167 pips
[1.0, 1.0, 1.67]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.engine.analysis import (
    escapes_from_mask,
    hits_from_masks,
    longest_run,
    shots_from_masks,
    top_bit,
)
from gammon.engine.borrowed import borrowed
from gammon.engine.cache import cross_file, refresh

#: Name and version written into model files; a model is only loaded with the same encoding.
ENCODING_NAME = "tesauro+15"
ENCODING_VERSION = 1
#: Raw board units (Tesauro's scaling, no turn units).
N_RAW = 196
#: Features per side.
N_SIDE = 7
#: Total inputs.
N_INPUTS = N_RAW + 1 + 2 * N_SIDE
#: Extra contact inputs per side, and the contact encoding's total.
N_EXTRA_SIDE = 4
N_CONTACT_INPUTS = N_INPUTS + 2 * N_EXTRA_SIDE
#: Further inputs per side of the rich contact encoding, and its total.
N_RICH_SIDE = 4
N_RICH_INPUTS = N_CONTACT_INPUTS + 2 * N_RICH_SIDE
#: Race inputs per side, and the race encoding's total.
N_RACE_SIDE = 18
N_RACE_INPUTS = N_INPUTS + 2 * N_RACE_SIDE
#: The encodings, by their number of inputs: (name, version) as model files record them.
ENCODINGS = {
    N_INPUTS: (ENCODING_NAME, ENCODING_VERSION),
    N_CONTACT_INPUTS: ("tesauro+23", 1),
    N_RICH_INPUTS: ("tesauro+31", 1),
    N_RACE_INPUTS: ("tesauro+race", 1),
}
#: The widest encoding.
N_WIDEST = max(ENCODINGS)

_CONTACT = N_RAW


def linear_inputs(width: int = N_INPUTS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The inputs of the encoding ``width`` wide that are linear in the point units and the bars: ``(folded, a, c)``
    with ``x[folded] == c + a @ x`` for the inputs ``x`` of every board, ``a`` zero in the ``folded`` columns.

    A point's count is linear in its units (``n = u0 + u1 + u2 + 2 * u3``),
    it is made when ``u1`` is set and holds a blot when ``u0 - u1`` is, and a
    bar's count is twice its input. So both sides' checkers borne off, pips,
    home-board points, blots and checkers back, (contact encodings) the
    anchors in the other side's home board, and (race encoding) the
    crossovers, checkers outside home and pips to come home, are sums of other inputs: a
    network's first layer can carry their weights on those inputs instead
    (:meth:`gammon.net.Weights.folded`), and an incremental evaluation then
    adds no weight rows of its own for them.
    """
    rows: list[tuple[int, np.ndarray, float]] = []
    sides = ((0, 0, 192, N_RAW + 1, N_INPUTS + 1, N_INPUTS), (1, 96, 193, N_RAW + 1 + N_SIDE, N_INPUTS + N_EXTRA_SIDE + 1, N_INPUTS + N_RACE_SIDE))
    for side, raw, bar, first, extra, race in sides:
        count, made, blots = (np.zeros((25, width)) for _ in range(3))
        for q in range(1, 25):  # the side's own numbering
            units = raw + 4 * (q - 1) + np.arange(4)
            count[q, units] = (1.0, 1.0, 1.0, 2.0)
            made[q, units[1]] = 1.0
            blots[q, units[:2]] = (1.0, -1.0)
        on_bar = np.zeros(width)
        on_bar[bar] = 2.0
        checkers = count.sum(axis=0) + on_bar
        rows.append((194 + side, -checkers / 15.0, 1.0))  # borne off: (15 - checkers) / 15
        rows.append((first, (np.arange(25) @ count + 25 * on_bar) * 0.01, 0.0))  # pips
        rows.append((first + 1, made[1:7].sum(axis=0) / 6.0, 0.0))  # home-board points
        rows.append((first + 3, blots.sum(axis=0) * 0.2, 0.0))  # blots
        rows.append((first + 4, (count[19:].sum(axis=0) + on_bar) * 0.2, 0.0))  # back: in the other home board or on the bar
        if N_INPUTS < width <= N_RICH_INPUTS:  # the contact encodings
            rows.append((extra, made[19:].sum(axis=0) / 3.0, 0.0))  # anchors in the other home board
        if width == N_RACE_INPUTS:
            quarters = (np.arange(1, 25) - 1) // 6  # by point 1..24
            rows.append((race + 15, (quarters @ count[1:] + 4 * on_bar) * 0.1, 0.0))  # crossovers
            rows.append((race + 16, (count[7:].sum(axis=0) + on_bar) / 15.0, 0.0))  # checkers outside home
            home = np.maximum(np.arange(25) - 6, 0)
            rows.append((race + 17, (home @ count + 19 * on_bar) * 0.02, 0.0))  # pips to come home
    folded = np.array([i for i, _, _ in rows])
    return folded, np.array([r for _, r, _ in rows]), np.array([k for _, _, k in rows])


def _fold_table(width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`linear_inputs` of the encoding ``width`` wide, its sums by row: ``(folded, starts, columns,
    coefficients, constants)``, row ``r``'s terms at ``starts[r]:starts[r + 1]``."""
    folded, a, c = linear_inputs(width)
    rows, columns = np.nonzero(a)
    starts = np.searchsorted(rows, np.arange(len(folded) + 1))
    return folded, starts, columns, a[rows, columns].astype(np.float32), c.astype(np.float32)


#: The widest encoding of each :func:`family`: contact (the narrower ones' folded rows are a subset), race.
FAMILY_WIDTHS = (N_RICH_INPUTS, N_RACE_INPUTS)
#: :func:`linear_inputs` by row, for :func:`gammon.engine.network.fold_weights`, by :func:`family`
#: (computed when the module loads).
FOLD_TABLES = tuple(_fold_table(width) for width in FAMILY_WIDTHS)


def _folded_rows() -> tuple[np.ndarray, np.ndarray]:
    """:data:`FOLDED` and :data:`UNFOLDED`: row 0 for the contact encodings, row 1 for the race encoding."""
    folded = np.zeros((len(FAMILY_WIDTHS), N_WIDEST), np.bool_)
    unfolded = np.full((len(FAMILY_WIDTHS), N_WIDEST - N_RAW), -1, np.int64)
    for row, width in enumerate(FAMILY_WIDTHS):
        folded[row, FOLD_TABLES[row][0]] = True
        live = np.flatnonzero(~folded[row, N_RAW:width])
        unfolded[row, : live.size] = live
    return folded, unfolded


#: Whether input ``i`` is one of :func:`linear_inputs`' folded inputs: ``FOLDED[family, i]``, family
#: (:func:`family`) 0 for the contact encodings (each has the rows of those it is as wide as), 1 for the race one.
#: The whole-board inputs that are not folded, by their index after the :data:`N_RAW` per-point inputs, per
#: family (-1 after the last): those an incremental evaluation adds weight rows for when they change.
FOLDED, UNFOLDED = _folded_rows()


@njit(cache=True, inline="always")
def family(width: int) -> int:
    """The row of :data:`FOLDED`, :data:`UNFOLDED` and :data:`FOLD_TABLES` for the encoding ``width`` wide:
    1 race, 0 contact."""
    return 1 if width == N_RACE_INPUTS else 0


def folded_inputs(width: int) -> np.ndarray:
    """Whether each input of the encoding ``width`` wide is folded (a ``(width,)`` bool mask)."""
    return FOLDED[family.py_func(width), :width]


@njit(cache=True, inline="always")
def _point_units(out: np.ndarray, row: int, base: int, n: int) -> None:
    if n >= 1:
        out[row, base] = 1.0
        if n >= 2:
            out[row, base + 1] = 1.0
            if n >= 3:
                out[row, base + 2] = 1.0
                if n > 3:
                    out[row, base + 3] = (n - 3) * 0.5


@njit(cache=True, inline="always")
def unit_value(n: int, k: int) -> float:
    """Tesauro's unit ``k`` (0..3) of a point holding ``n`` checkers of one side."""
    if k < 3:
        return 1.0 if n > k else 0.0
    return (n - 3) * 0.5 if n > 3 else 0.0


#: The whole-board summary the global inputs are read from (:func:`summarise`): bit masks of points (bit
#: ``p`` for point ``p`` in my numbering, ``25 - p`` in theirs: ``R_``), pip counts and counts.
(_ME_SRC, _ME_MADE, _R_ME_BLOT, _R_ME_MADE, _THEM_BLOT, _THEM_MADE, _R_THEM_SRC, _ME_PIPS, _THEM_PIPS,
 _ME_HOME, _THEM_HOME, _ME_BLOTS, _THEM_BLOTS, _ME_BACK, _THEM_BACK, _R_THEM_MADE, _ME_LEFT, _THEM_LEFT) = range(18)
N_SUMMARY = 18
#: The summary's checkers on the bar or in the other side's home board, and checkers not borne off, for each side.
SUMMARY_ME_BACK, SUMMARY_THEM_BACK, SUMMARY_ME_LEFT, SUMMARY_THEM_LEFT = _ME_BACK, _THEM_BACK, _ME_LEFT, _THEM_LEFT


@njit(cache=True, inline="always")
def summarise_point(s, p, c, sign) -> None:
    """Add (``sign`` 1) or take away (-1) point ``p`` (1..24) holding ``c`` checkers (signed) in the summary ``s``.

    Masks are toggled, so taking away a point's old count and adding its new
    one updates a summary for a board that changed there: an incremental
    evaluation does that for the few points a play touched.
    """
    if c > 0:
        s[_ME_SRC] ^= 1 << p
        s[_ME_LEFT] += sign * c
        s[_ME_PIPS] += sign * c * p
        if p >= 19:
            s[_ME_BACK] += sign * c
        if c == 1:
            s[_ME_BLOTS] += sign
            s[_R_ME_BLOT] ^= 1 << (25 - p)
        else:
            s[_ME_MADE] ^= 1 << p
            s[_R_ME_MADE] ^= 1 << (25 - p)
            if p <= 6:
                s[_ME_HOME] += sign
    elif c < 0:
        s[_R_THEM_SRC] ^= 1 << (25 - p)
        s[_THEM_LEFT] -= sign * c
        s[_THEM_PIPS] -= sign * c * (25 - p)
        if p <= 6:
            s[_THEM_BACK] -= sign * c
        if c == -1:
            s[_THEM_BLOTS] += sign
            s[_THEM_BLOT] ^= 1 << p
        else:
            s[_THEM_MADE] ^= 1 << p
            s[_R_THEM_MADE] ^= 1 << (25 - p)
            if p >= 19:
                s[_THEM_HOME] += sign


@njit(cache=True, inline="always")
def summarise_bars(s, my_bar, their_bar, sign) -> None:
    """Add (``sign`` 1) or take away (-1) the checkers on the bars (``b[25]``, and ``b[0]`` as stored, <= 0)."""
    s[_ME_PIPS] += sign * 25 * my_bar
    s[_ME_BACK] += sign * my_bar
    s[_ME_LEFT] += sign * my_bar
    s[_THEM_PIPS] -= sign * 25 * their_bar
    s[_THEM_BACK] -= sign * their_bar
    s[_THEM_LEFT] -= sign * their_bar


@cross_file
@njit(cache=True, inline="always")
def rears_from_summary(b: np.ndarray, s: np.ndarray) -> tuple[int, int]:
    """:func:`~gammon.engine.analysis.rearmost` and :func:`~gammon.engine.analysis.their_rearmost` of ``b``
    read from its summary's masks (and the bars): the sides are in contact when the first is greater."""
    my_points = s[_ME_SRC]  # bit p: my checkers on point p
    their_points = s[_R_THEM_SRC]  # bit 25 - p: their checkers on my point p
    me_rear = 25 if b[25] > 0 else (top_bit(my_points) if my_points else 0)
    them_rear = 0 if b[0] < 0 else (25 - top_bit(their_points) if their_points else 25)
    return me_rear, them_rear


@njit(cache=True)
def summarise(b: np.ndarray, s: np.ndarray) -> None:
    """The summary of board ``b`` into ``s`` (:data:`N_SUMMARY` int64): every point, then the bars."""
    for k in range(N_SUMMARY):
        s[k] = 0
    for p in range(1, 25):
        summarise_point(s, p, b[p], 1)
    summarise_bars(s, b[25], b[0], 1)


@cross_file
@njit(cache=True)
def inputs_from_summary(b: np.ndarray, s: np.ndarray, out: np.ndarray, base: int) -> None:
    """The inputs that depend on the whole board, into ``out[base:base + 15]``: contact, then each side's
    features, from ``b``'s summary ``s``.

    The shot, escape and prime counts of :mod:`gammon.engine.analysis` work on
    the summary's bit masks. These are the inputs an incremental evaluation
    recomputes for every candidate play, from a summary updated at the points
    the play changed.
    """
    me_rear, them_rear = rears_from_summary(b, s)  # theirs in my numbering
    out[base] = 1.0 if me_rear > them_rear else 0.0
    out[base + 1] = s[_ME_PIPS] * 0.01
    out[base + 2] = s[_ME_HOME] / 6.0
    out[base + 3] = longest_run(s[_ME_MADE]) / 6.0
    out[base + 4] = s[_ME_BLOTS] * 0.2
    out[base + 5] = s[_ME_BACK] * 0.2
    out[base + 6] = shots_from_masks(s[_R_THEM_SRC], -b[0], s[_R_ME_BLOT], s[_R_ME_MADE]) / 36.0  # they hit me
    out[base + 7] = escapes_from_mask(me_rear, s[_THEM_MADE]) / 36.0
    out[base + 8] = s[_THEM_PIPS] * 0.01
    out[base + 9] = s[_THEM_HOME] / 6.0
    out[base + 10] = longest_run(s[_THEM_MADE]) / 6.0
    out[base + 11] = s[_THEM_BLOTS] * 0.2
    out[base + 12] = s[_THEM_BACK] * 0.2
    out[base + 13] = shots_from_masks(s[_ME_SRC], b[25], s[_THEM_BLOT], s[_THEM_MADE]) / 36.0  # I hit them
    out[base + 14] = escapes_from_mask(25 - them_rear if them_rear < 25 else 0, s[_R_ME_MADE]) / 36.0


def _escape_table() -> np.ndarray:
    """:func:`escapes_past` of every window of 12 points: ``[w]``, bit ``k`` of ``w`` the point ``12 - k`` pips in front.

    Vectorised over the 4,096 windows (a few milliseconds, once, when the module loads: a constant of the kernels).
    """
    w = np.arange(4096)

    def blocked(d: int) -> np.ndarray:
        return ((w >> (12 - d)) & 1).astype(bool) if 1 <= d <= 12 else np.zeros(w.shape, bool)

    far = np.zeros(w.shape, np.int64)  # the distance of the farthest blocked point, 0 for none
    for d in range(1, 13):
        far = np.where(blocked(d), d, far)
    total = np.zeros(w.shape, np.int64)
    for hi in range(1, 7):
        for lo in range(1, hi + 1):
            if hi == lo:
                ok = np.zeros(w.shape, bool)
                stopped = np.zeros(w.shape, bool)
                for k in range(1, 5):
                    stopped |= blocked(k * hi) & ~ok
                    ok |= ~stopped & (k * hi > far)
                total += ok
            else:
                ok = np.zeros(w.shape, bool)
                for first, second in ((hi, lo), (lo, hi)):
                    open_mid = ~blocked(first)
                    ok |= open_mid & ((first > far) | (~blocked(first + second) & (first + second > far)))
                total += 2 * ok
    return np.where(far == 0, 36, total).astype(np.int8)


#: Escapes of a checker past the 12 points in front of it, by window (see :func:`escapes_past`).
ESCAPES_PAST = _escape_table()


@njit(cache=True, inline="always")
def escapes_past(n: int, blocked: int) -> int:
    """Rolls out of 36 with which a checker on point ``n`` (12..25) gets past every point of ``blocked`` among the 12 in front of it.

    It moves by the rules: each die lands on a point not in ``blocked``
    (either order of the dice; a double up to four times), and it has
    escaped once it stands in front of the farthest of those points; points
    beyond the 12 do not count. With none of them blocked, every roll
    escapes. GNU Backgammon's escapes, read from a table of the 4,096
    windows (:data:`ESCAPES_PAST`).
    """
    return ESCAPES_PAST[(blocked >> (n - 12)) & 0xFFF]


@njit(cache=True, inline="always")
def _containment(made: int) -> float:
    """1 - the fewest escapes (out of 36, :func:`escapes_past`) from any of points 15..24 past the points of ``made``."""
    least = 36
    for n in range(15, 25):
        e = escapes_past(n, made)
        if e < least:
            least = e
    return (36 - least) / 36.0  # not 1 - least / 36: under fastmath that leaves 1e-16 for no blockade


@njit(cache=True, inline="always")
def _highest_bit(mask: int) -> int:
    """The index of ``mask``'s highest set bit among bits 0..5; -1 when none is set."""
    for k in range(5, -1, -1):
        if (mask >> k) & 1:
            return k
    return -1


@njit(cache=True, inline="always")
def _lowest_bit(mask: int) -> int:
    """The index of ``mask``'s lowest set bit among bits 0..5; -1 when none is set."""
    for k in range(6):
        if (mask >> k) & 1:
            return k
    return -1


@njit(cache=True, inline="always")
def _bits(mask: int) -> int:
    """The number of set bits among ``mask``'s bits 0..5."""
    n = 0
    for k in range(6):
        n += (mask >> k) & 1
    return n


@cross_file
@njit(cache=True)
def extra_from_summary(b: np.ndarray, s: np.ndarray, out: np.ndarray, base: int) -> None:
    """The contact encoding's extra inputs into ``out[base:base + 8]``: back anchor, anchors, containment,
    break-contact pips, for me then for them (see the module docstring), from ``b``'s summary ``s``.

    The anchors, the blockades and the rearmost checkers are read from the
    summary's masks; only the break-contact pips walk the board.
    """
    mine = (s[_ME_MADE] >> 19) & 0x3F  # my anchors on points 19..24, bit k for point 19 + k
    theirs = (s[_THEM_MADE] >> 1) & 0x3F  # their anchors on my points 1..6, bit k for point 1 + k
    deepest = _highest_bit(mine)
    me_anchor = deepest + 1 if deepest >= 0 else 0
    deepest = _lowest_bit(theirs)  # their deepest anchor is on my lowest point
    them_anchor = 6 - deepest if deepest >= 0 else 0
    me_rear, them_rear = rears_from_summary(b, s)
    me_break = them_break = 0
    if me_rear > them_rear:  # contact: somebody has pips to go past the other
        for p in range(26):  # without branches: which side a point holds is not predictable
            v = np.int64(b[p])
            me_break += max(v, 0) * max(p - them_rear, 0)
            them_break += max(-v, 0) * max(me_rear - p, 0)
    out[base] = me_anchor / 6.0
    out[base + 1] = _bits(mine) / 3.0
    out[base + 2] = _containment(s[_THEM_MADE])  # their blockade in front of my checkers
    out[base + 3] = me_break * 0.01
    out[base + 4] = them_anchor / 6.0
    out[base + 5] = _bits(theirs) / 3.0
    out[base + 6] = _containment(s[_R_ME_MADE])
    out[base + 7] = them_break * 0.01


@cross_file
@njit(cache=True)
def rich_from_summary(b: np.ndarray, s: np.ndarray, out: np.ndarray, base: int) -> None:
    """The rich encoding's further inputs into ``out[base:base + 8]``: double shots, pip loss, mobility,
    timing, for me then for them (see the module docstring), from ``b``'s summary ``s``.

    The hits are counted on the summary's masks (:func:`~gammon.engine.analysis.hits_from_masks`),
    mobility and timing over the points the masks say are held outside the home boards, and the spares
    on the home boards.
    """
    me_double, me_loss = hits_from_masks(s[_R_THEM_SRC], s[_R_THEM_MADE], -b[0], s[_R_ME_BLOT], s[_R_ME_MADE])
    them_double, them_loss = hits_from_masks(s[_ME_SRC], s[_ME_MADE], b[25], s[_THEM_BLOT], s[_THEM_MADE])
    me_mobility = b[25] * escapes_from_mask(25, s[_THEM_MADE]) * 19
    them_mobility = -b[0] * escapes_from_mask(25, s[_R_ME_MADE]) * 19
    me_timing = b[25] * 19
    them_timing = -b[0] * 19
    outside = (s[_ME_SRC] >> 7) << 7  # my points 7..24 with checkers
    while outside:
        x = outside & -outside
        outside ^= x
        p = top_bit(x)
        me_mobility += b[p] * escapes_from_mask(p, s[_THEM_MADE]) * (p - 6)
        me_timing += b[p] * (p - 6)
    outside = (s[_R_THEM_SRC] >> 7) << 7  # their points 7..24 (their numbering)
    while outside:
        x = outside & -outside
        outside ^= x
        q = top_bit(x)
        them_mobility -= b[25 - q] * escapes_from_mask(q, s[_R_ME_MADE]) * (q - 6)
        them_timing -= b[25 - q] * (q - 6)
    for p in range(2, 7):  # the spares on the home boards
        if b[p] > 2:
            me_timing += (b[p] - 2) * (p - 1)
        if b[25 - p] < -2:
            them_timing += (-b[25 - p] - 2) * (p - 1)
    out[base] = me_double / 36.0
    out[base + 1] = me_loss / (36.0 * 12.0)
    out[base + 2] = me_mobility / 3600.0
    out[base + 3] = me_timing * 0.01
    out[base + 4] = them_double / 36.0
    out[base + 5] = them_loss / (36.0 * 12.0)
    out[base + 6] = them_mobility / 3600.0
    out[base + 7] = them_timing * 0.01


@njit(cache=True, inline="always")
def _race_side(out, base, left, crossovers, outside, home_pips) -> None:
    """One side's race inputs into ``out[base:base + 18]`` from its checkers not borne off (``left``) and the
    sums of the board walk of :func:`race_from_summary`."""
    off = 15 - left
    out[base] = 1.0 if off == 0 else 0.0
    for k in range(1, 15):
        out[base + k] = 1.0 if off >= k else 0.0
    out[base + 15] = crossovers * 0.1
    out[base + 16] = outside / 15.0
    out[base + 17] = home_pips * 0.02


@cross_file
@njit(cache=True)
def race_from_summary(b: np.ndarray, s: np.ndarray, out: np.ndarray, base: int) -> None:
    """The race encoding's inputs into ``out[base:base + 36]``: none off, the borne-off thermometer,
    crossovers, checkers outside home and pips to come home, for me then for them (see the module
    docstring); the counts off from ``b``'s summary ``s``, the rest from one walk of the board."""
    me_cross = me_out = me_home = them_cross = them_out = them_home = 0
    for p in range(7, 25):  # my points outside my home board
        v = np.int64(b[p])
        if v > 0:
            me_cross += v * ((p - 1) // 6)
            me_out += v
            me_home += v * (p - 6)
    for p in range(1, 19):  # their points outside their home board: their point 25 - p
        v = np.int64(b[p])
        if v < 0:
            q = 25 - p
            them_cross -= v * ((q - 1) // 6)
            them_out -= v
            them_home -= v * (q - 6)
    me_bar = np.int64(b[25])
    them_bar = -np.int64(b[0])
    _race_side(out, base, s[_ME_LEFT], me_cross + 4 * me_bar, me_out + me_bar, me_home + 19 * me_bar)
    _race_side(out, base + N_RACE_SIDE, s[_THEM_LEFT], them_cross + 4 * them_bar, them_out + them_bar,
               them_home + 19 * them_bar)


@cross_file
@njit(cache=True)
def encode_into(boards: np.ndarray, out: np.ndarray) -> None:
    """Encode ``boards`` ((n, 26) int8) into the first n rows of ``out`` ((>= n, inputs) float32).

    The width of ``out`` chooses the encoding: :data:`N_INPUTS`, :data:`N_CONTACT_INPUTS`, :data:`N_RICH_INPUTS`
    or :data:`N_RACE_INPUTS`.
    """
    boards, out = borrowed(boards), borrowed(out)  # held by the caller: its rows are views without counting
    s = np.empty(N_SUMMARY, np.int64)
    for row in range(boards.shape[0]):
        summarise(boards[row], s)
        encode_from_summary(boards[row], s, out, row)


@cross_file
@njit(cache=True)
def encode_from_summary(b: np.ndarray, s: np.ndarray, out: np.ndarray, row: int) -> None:
    """Encode board ``b`` into ``out[row]`` (its width chooses the encoding, as in :func:`encode_into`), given
    ``b``'s summary ``s`` (:func:`summarise`): a caller that keeps the summary does not compute it again."""
    width = out.shape[1]
    for j in range(width):
        out[row, j] = 0.0
    mine = 0
    theirs = 0
    for p in range(1, 25):
        c = b[p]
        if c > 0:
            mine += c
            _point_units(out, row, 4 * (p - 1), c)
        elif c < 0:
            theirs -= c
            _point_units(out, row, 96 + 4 * (24 - p), -c)
    mine += b[25]
    theirs -= b[0]
    out[row, 192] = b[25] * 0.5
    out[row, 193] = -b[0] * 0.5
    out[row, 194] = (15 - mine) / 15.0
    out[row, 195] = (15 - theirs) / 15.0
    inputs_from_summary(b, s, out[row], _CONTACT)
    if width == N_RACE_INPUTS:
        race_from_summary(b, s, out[row], N_INPUTS)
        return
    if width > N_INPUTS:
        extra_from_summary(b, s, out[row], N_INPUTS)
    if width > N_CONTACT_INPUTS:
        rich_from_summary(b, s, out[row], N_CONTACT_INPUTS)


def encode_batch(boards: np.ndarray, inputs: int = N_INPUTS) -> np.ndarray:
    """Encode ``(n, 26)`` int8 boards into an ``(n, inputs)`` float32 array (``inputs``: one of :data:`ENCODINGS`)."""
    if inputs not in ENCODINGS:
        raise ValueError(f"no encoding has {inputs} inputs: expected one of {sorted(ENCODINGS)}")
    refresh()
    boards = np.ascontiguousarray(boards, np.int8).reshape(-1, 26)
    out = np.empty((boards.shape[0], inputs), np.float32)
    encode_into(boards, out)
    return out


def encode_board(board: np.ndarray) -> np.ndarray:
    """Encode one board (26 cells, player on roll) as a ``(N_INPUTS,)`` float32 vector."""
    return encode_batch(np.asarray(board, np.int8).reshape(1, 26))[0]


def input_names(inputs: int = N_INPUTS) -> list[str]:
    """A short name for every input of the encoding with ``inputs`` inputs, in order (for plots and debugging).

    >>> names = input_names()
    >>> len(names) == N_INPUTS, names[0], names[96], names[-1]
    (True, 'me.1>=1', 'them.1>=1', 'them.escapes')
    """
    names: list[str] = []
    units = (">=1", ">=2", ">=3", ">3")
    for side in ("me", "them"):
        names += [f"{side}.{p}{u}" for p in range(1, 25) for u in units]
    names += ["me.bar", "them.bar", "me.off", "them.off", "contact"]
    for side in ("me", "them"):
        names += [f"{side}.{f}" for f in ("pips", "home", "prime", "blots", "back", "shots", "escapes")]
    if inputs == N_RACE_INPUTS:
        for side in ("me", "them"):
            names += [f"{side}.none_off"] + [f"{side}.off>={k}" for k in range(1, 15)]
            names += [f"{side}.{f}" for f in ("crossovers", "outside", "home_pips")]
        return names
    if inputs > N_INPUTS:
        for side in ("me", "them"):
            names += [f"{side}.{f}" for f in ("back_anchor", "anchors", "containment", "break_contact")]
    if inputs > N_CONTACT_INPUTS:
        for side in ("me", "them"):
            names += [f"{side}.{f}" for f in ("double_shots", "pip_loss", "mobility", "timing")]
    return names
