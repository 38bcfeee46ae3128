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

from gammon.engine.analysis import escape_rolls, in_contact, longest_prime, shot_rolls
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

_CONTACT = N_RAW
_ME = N_RAW + 1
_THEM = N_RAW + 1 + N_SIDE

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


@cross_file
@njit(cache=True)
def _side_features(out: np.ndarray, row: int, base: int, b: np.ndarray, flipped: np.ndarray) -> None:
    """Features of the side on roll in ``b`` (positive counts), written at ``out[row, base:]``.

    ``flipped`` is the same board seen by the other side.
    """
    pips = 0
    home = 0
    blots = 0
    back = b[25]
    for p in range(1, 25):
        n = b[p]
        if n > 0:
            pips += n * p
            if n == 1:
                blots += 1
            if p >= 19:
                back += n
        if n >= 2 and p <= 6:
            home += 1
    pips += 25 * b[25]
    out[row, base] = pips * 0.01
    out[row, base + 1] = home / 6.0
    out[row, base + 2] = longest_prime(b) / 6.0
    out[row, base + 3] = blots * 0.2
    out[row, base + 4] = back * 0.2
    # O's chances to hit S: O on roll, so the flipped board.
    out[row, base + 5] = shot_rolls(flipped) / 36.0
    out[row, base + 6] = escape_rolls(b) / 36.0


@cross_file
@njit(cache=True)
def encode_into(boards: np.ndarray, out: np.ndarray) -> None:
    """Encode ``boards`` ((n, 26) int8) into the first n rows of ``out`` ((>= n, N_INPUTS) float32)."""
    n = boards.shape[0]
    flipped = np.empty(26, np.int8)
    for row in range(n):
        b = boards[row]
        for j in range(N_INPUTS):
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
        out[row, _CONTACT] = 1.0 if in_contact(b) else 0.0
        for i in range(26):
            flipped[i] = -b[25 - i]
        _side_features(out, row, _ME, b, flipped)
        _side_features(out, row, _THEM, flipped, b)


def encode_batch(boards: np.ndarray) -> np.ndarray:
    """Encode ``(n, 26)`` int8 boards into an ``(n, N_INPUTS)`` float32 array."""
    refresh()
    boards = np.ascontiguousarray(boards, np.int8).reshape(-1, 26)
    out = np.empty((boards.shape[0], N_INPUTS), np.float32)
    encode_into(boards, out)
    return out


def encode_board(board: np.ndarray) -> np.ndarray:
    """Encode one board (26 cells, player on roll) as a ``(N_INPUTS,)`` float32 vector."""
    return encode_batch(np.asarray(board, np.int8).reshape(1, 26))[0]


def input_names() -> list[str]:
    """A short name for every input, in order (for plots and debugging).

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
    return names
