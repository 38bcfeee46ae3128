"""Evaluation terms of the heuristic bots, compiled with Numba and computed in a batch.

Every function here takes ``after`` boards as :func:`gammon.engine.movegen.generate`
returns them: ``(n, 26) int8``, each seen from the player on roll next. The
terms describe each position from the other side, the player who has just
moved ("me"), with the opponent ("them") to roll. :data:`FEATURES` names the
columns of :func:`features`: the scalar :data:`TERMS`, then per-point
:data:`TABLES`. A level of :mod:`gammon.bots.heuristic` scores a position as
the dot product of these columns with its weight table, so a level that does
not know a term simply gives it weight 0.

Blot exposure counts the opponent's 36 rolls exactly: for each roll it finds
every one of my blots some opposing checker can reach, stepping die by die
through points that are not blocked (two or more of my checkers), entering
from the bar first when the opponent has checkers there. It does not apply
the rule that both dice must be played when they can, which forbids a
hitting play in a few positions (about one in a hundred).

>>> import numpy as np
>>> from gammon.position import Position
>>> plays = Position.initial().legal_plays((3, 1))
>>> f = features(plays.after)
>>> f.shape == (len(plays), len(FEATURES))
True
>>> text = [str(p) for p in plays]
>>> float(f[text.index("8/5 6/5"), SHOTS])            # making the 5 point leaves no blot
0.0
>>> round(float(f[text.index("13/10 6/5"), SHOTS]) * 36)   # 4s, 3-1, 2-2, 1-1 hit the 5; 6-3, 3-3 the 10
18
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from gammon.engine import movegen
from gammon.engine.analysis import ROLL_HI, ROLL_LO, ROLL_WEIGHT, blocking_prime, hits, rearmost, their_rearmost
from gammon.engine.cache import cross_file, refresh
from gammon.outcomes import game_result

#: The scalar evaluation terms, in column order.
TERMS: tuple[str, ...] = (
    "pips",           # pip lead (their pips - mine) / 10
    "race_pips",      # the same, but only once contact is broken
    "off",            # checkers borne off, mine - theirs
    "blots",          # my blots that an opposing checker still has to pass
    "shots",          # chance (of 36) that they hit at least one of my blots next roll
    "hit_loss",       # expected pips lost to that hit (the worst one of each roll) / 25
    "board_risk",     # shots x their home-board points / 6: being hit into a strong board
    "points",         # my made points (two or more checkers)
    "home_points",    # my made points in my home board (1-6)
    "key_points",     # my made points among 4, 5, 6 and the bar point 7
    "anchor",         # I hold a point in their home board (19-24) while in contact
    "advanced_anchor",  # I hold their 5, 4 or bar point (my 20, 21, 18) while in contact
    "prime",          # (longest run of my points with their checkers behind it - 2)^2 / 4
    "their_prime",    # the same for their points in front of my checkers
    "my_bar",         # my checkers on the bar
    "their_bar",      # their checkers on the bar
    "closeout",       # their checkers on the bar x (my home-board points / 6)^2
    "back",           # my checkers in their home board or on the bar, in contact
    "gammon_risk",    # before I bear off any: my back checkers x their home-board points / 6
    "gammon_chance",  # before they bear off any: their checkers in my home or on the bar x my home points / 6
    "stack",          # checkers beyond the third on one point, in contact
    "waste",          # in the race: wasted pips on my 1, 2 and 3 points / 10
    "outside",        # in the race: my checkers not yet in my home board
    "race_odds",      # in the race: 2 P(win) - 1 from a normal model of the pip counts
    "bias",           # 1: a constant, which only the absolute level of an estimate needs
)

#: Per-point tables, 24 columns each (point 1 to 24 in my numbering), all while in contact:
#: a made point of mine, a blot of mine, a made point of theirs, a blot of theirs.
TABLES: tuple[str, ...] = ("my_point", "my_blot", "their_point", "their_blot")

#: Column names of :func:`features`, in order: the terms, then each table's 24 points.
FEATURES: tuple[str, ...] = TERMS + tuple(f"{t}_{p}" for t in TABLES for p in range(1, 25))

(
    PIPS,
    RACE_PIPS,
    OFF,
    BLOTS,
    SHOTS,
    HIT_LOSS,
    BOARD_RISK,
    POINTS,
    HOME_POINTS,
    KEY_POINTS,
    ANCHOR,
    ADVANCED_ANCHOR,
    PRIME,
    THEIR_PRIME,
    MY_BAR,
    THEIR_BAR,
    CLOSEOUT,
    BACK,
    GAMMON_RISK,
    GAMMON_CHANCE,
    STACK,
    WASTE,
    OUTSIDE,
    RACE_ODDS,
    BIAS,
) = range(len(TERMS))

#: First column of each table: ``MY_POINT + p - 1`` is my point ``p``.
MY_POINT, MY_BLOT, THEIR_POINT, THEIR_BLOT = (len(TERMS) + 24 * k for k in range(len(TABLES)))

N_FEATURES = len(FEATURES)

@cross_file
@njit(cache=True)
def _row_features(m, f, hit) -> None:
    """Fill ``f`` with the terms of my view ``m`` (int64[26]); ``hit`` is scratch bool[25]."""
    for k in range(f.shape[0]):
        f[k] = 0.0
    f[BIAS] = 1.0
    my_pips = 0
    their_pips = 0
    mine = 0
    theirs = 0
    for p in range(26):
        c = m[p]
        if c > 0:
            my_pips += c * p
            mine += c
        elif c < 0:
            their_pips += -c * (25 - p)
            theirs += -c
    their_back = their_rearmost(m)  # their farthest-back checker in my numbering (0 = bar)
    contact = rearmost(m) > their_back
    my_off = 15 - mine
    their_off = 15 - theirs
    f[PIPS] = (their_pips - my_pips) / 10.0
    f[OFF] = my_off - their_off
    my_home = 0
    their_home = 0
    for p in range(1, 7):
        if m[p] >= 2:
            my_home += 1
        if m[25 - p] <= -2:
            their_home += 1
    if not contact:
        f[RACE_PIPS] = f[PIPS]
        f[WASTE] = (2.0 * m[1] + 1.0 * m[2] + 0.5 * m[3]) / 10.0 if mine > 0 else 0.0
        outside = 0
        for p in range(7, 26):
            if m[p] > 0:
                outside += m[p]
        f[OUTSIDE] = outside
        # Each side needs about pips / 8.17 rolls of sd 4.3 pips; the player on roll gains half a roll.
        sd = 2.13 * math.sqrt(0.5 * (my_pips + their_pips)) + 1.0
        f[RACE_ODDS] = math.erf((their_pips - my_pips - 4.0) / sd / math.sqrt(2.0))
        return
    # -- contact terms --------------------------------------------------------
    blots = 0
    for p in range(1, 25):
        if m[p] == 1 and p > their_back:
            blots += 1
    f[BLOTS] = blots
    if blots > 0:
        shots = 0.0
        loss = 0.0
        for r in range(ROLL_HI.shape[0]):
            hits(m, ROLL_HI[r], ROLL_LO[r], hit)
            worst = 0
            for p in range(1, 25):
                if hit[p] and 25 - p > worst:
                    worst = 25 - p
            if worst > 0:
                shots += ROLL_WEIGHT[r]
                loss += ROLL_WEIGHT[r] * worst
        f[SHOTS] = shots / 36.0
        f[HIT_LOSS] = loss / 36.0 / 25.0
        f[BOARD_RISK] = f[SHOTS] * their_home / 6.0
    points = 0
    key = 0
    anchor = 0
    advanced = 0
    stack = 0
    for p in range(1, 25):
        c = m[p]
        if c >= 2:
            f[MY_POINT + p - 1] = 1.0
        elif c == 1:
            f[MY_BLOT + p - 1] = 1.0
        elif c <= -2:
            f[THEIR_POINT + p - 1] = 1.0
        elif c == -1:
            f[THEIR_BLOT + p - 1] = 1.0
        if c >= 2:
            points += 1
            if 4 <= p <= 7:
                key += 1
            if p >= 19:
                anchor = 1
            if p == 18 or p == 20 or p == 21:
                advanced = 1
            if c > 3:
                stack += c - 3
    f[POINTS] = points
    f[HOME_POINTS] = my_home
    f[KEY_POINTS] = key
    f[ANCHOR] = anchor
    f[ADVANCED_ANCHOR] = advanced
    f[STACK] = stack
    run = blocking_prime(m, 1)
    f[PRIME] = max(run - 2, 0) ** 2 / 4.0
    run = blocking_prime(m, -1)
    f[THEIR_PRIME] = max(run - 2, 0) ** 2 / 4.0
    f[MY_BAR] = m[25]
    f[THEIR_BAR] = -m[0]
    f[CLOSEOUT] = -m[0] * (my_home / 6.0) ** 2
    back = m[25]
    for p in range(19, 25):
        if m[p] > 0:
            back += m[p]
    f[BACK] = back
    if my_off == 0:
        f[GAMMON_RISK] = back * their_home / 6.0
    if their_off == 0:
        trapped = -m[0]
        for p in range(1, 7):
            if m[p] < 0:
                trapped += -m[p]
        f[GAMMON_CHANCE] = trapped * my_home / 6.0


@njit(cache=True, inline="always")
def _mover_view(after, i, m) -> None:
    for k in range(26):
        m[k] = -after[i, 25 - k]


@cross_file
@njit(cache=True)
def _features_into(after, out) -> None:
    m = np.empty(26, np.int64)
    hit = np.zeros(25, np.bool_)
    for i in range(after.shape[0]):
        _mover_view(after, i, m)
        _row_features(m, out[i], hit)


def features(after: np.ndarray) -> np.ndarray:
    """The evaluation terms of each position in ``after`` for the player who just moved.

    Returns ``(n, len(FEATURES)) float64``; see :data:`FEATURES`.
    """
    refresh()
    after = np.ascontiguousarray(after, dtype=np.int8)
    out = np.empty((after.shape[0], N_FEATURES), np.float64)
    _features_into(after, out)
    return out


#: Added to the points of a finished game when ranking plays, so that ending the game always ranks first.
WIN_BONUS = 100.0
#: Estimates of a game that goes on are clipped to what a game can be worth.
MAX_POINTS = 3.0


@cross_file
@njit(cache=True)
def _evaluate_into(after, weights, out, as_value) -> None:
    m = np.empty(26, np.int64)
    hit = np.zeros(25, np.bool_)
    f = np.empty(weights.shape[0], np.float64)
    for i in range(after.shape[0]):
        won = float(game_result(after[i]))
        if won > 0.0:
            out[i] = won if as_value else won + WIN_BONUS
            continue
        _mover_view(after, i, m)
        _row_features(m, f, hit)
        s = 0.0
        for k in range(f.shape[0]):
            s += f[k] * weights[k]
        if as_value:
            s = min(max(s, -MAX_POINTS), MAX_POINTS)
        out[i] = s


def evaluate(after: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Score each position in ``after`` for the player who just moved, to rank plays: ``features @ weights``.

    A finished game scores :data:`WIN_BONUS` plus the points it won, so a
    play that ends the game always ranks first.

    >>> from gammon.position import Position
    >>> w = np.zeros(N_FEATURES); w[PIPS] = 1.0
    >>> plays = Position.initial().legal_plays((2, 1))
    >>> evaluate(plays.after, w).round(1).tolist() == [0.3] * len(plays)   # every play gains 3 pips, none hits
    True
    """
    refresh()
    after = np.ascontiguousarray(after, dtype=np.int8)
    out = np.empty(after.shape[0], np.float64)
    _evaluate_into(after, np.ascontiguousarray(weights, dtype=np.float64), out, False)
    return out


def value(after: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Estimate each position's worth in points per game for the player who just moved.

    The points won where the game is over; elsewhere ``features @ weights``
    clipped to +-3, which reads as equity for weights fitted to equities
    (level 5's).
    """
    refresh()
    after = np.ascontiguousarray(after, dtype=np.int8)
    out = np.empty(after.shape[0], np.float64)
    _evaluate_into(after, np.ascontiguousarray(weights, dtype=np.float64), out, True)
    return out


@cross_file
@njit(cache=True)
def _lookahead_into(after, reply_weights, value_weights, out) -> None:
    scores = np.empty(1, np.float64)
    value = np.empty(1, np.float64)
    for c in range(after.shape[0]):
        won = float(game_result(after[c]))
        if won > 0.0:
            out[c] = won
            continue
        board = after[c].copy()
        total = 0.0
        for r in range(ROLL_HI.shape[0]):
            replies, _, _ = movegen.generate(board, ROLL_HI[r], ROLL_LO[r])
            if scores.shape[0] < replies.shape[0]:
                scores = np.empty(replies.shape[0], np.float64)
            _evaluate_into(replies, reply_weights, scores, False)
            best = 0
            for j in range(1, replies.shape[0]):
                if scores[j] > scores[best]:
                    best = j
            _evaluate_into(replies[best : best + 1], value_weights, value, True)
            total -= ROLL_WEIGHT[r] * value[0]
        out[c] = total / 36.0


def lookahead(after: np.ndarray, reply_weights: np.ndarray, value_weights: np.ndarray | None = None) -> np.ndarray:
    """One roll deeper: each position's value averaged over the opponent's 21 rolls (weighted out of 36).

    For every roll the opponent picks the reply that ``reply_weights`` scores
    best for them; the position is worth minus that reply's :func:`value`
    under ``value_weights`` (default: the same weights), averaged over the
    rolls. A finished game keeps the points it won.

    >>> from gammon.position import Position
    >>> w = np.zeros(N_FEATURES); w[PIPS] = 0.1
    >>> plays = Position.initial().legal_plays((2, 1))
    >>> v = lookahead(plays.after[:1], w)     # the opponent gains 8.17 pips on average, hits add more
    >>> bool(-0.2 < v[0] < -0.05)
    True
    """
    refresh()
    after = np.ascontiguousarray(after, dtype=np.int8)
    reply = np.ascontiguousarray(reply_weights, dtype=np.float64)
    value = reply if value_weights is None else np.ascontiguousarray(value_weights, dtype=np.float64)
    out = np.empty(after.shape[0], np.float64)
    _lookahead_into(after, reply, value, out)
    return out
