"""Doubling-cube decisions from cubeless probabilities, the way GNU Backgammon makes them at 0-ply.

Input is the five cubeless probabilities of the player on roll, cumulative as
GNU Backgammon reports them: win, win gammon, win backgammon, lose gammon,
lose backgammon (a backgammon also counts as a gammon).

Cubeless to cubeful (Janowski). A cube-owning player cashes or doubles at
the right moment, so cubeful equity is piecewise linear in the winning
chances ``p``: the "live cube" line runs from losing (``p = 0``) through the
take and cash points to winning (``p = 1``). Real cubes are not fully live,
so the cubeful equity is ``(1 - x) * dead + x * live`` with cube efficiency
``x``: 0.68 in contact, 0.6 to 0.7 in races (GNU Backgammon's defaults;
:func:`position_efficiency`).

* Money: the live line uses Janowski's take point ``(L - 1/2) / (W + L + 1/2)``
  and cash point ``(L + 1) / (W + L + 1/2)``, where ``W`` and ``L`` are the
  average values of the games won and lost.
* Match: the same construction in match-winning chances (MWC) from the match
  equity table. Cash points are found from the highest cube either player
  can still use down to the current one: where the doubled cube would be
  dead they come from the MET directly (allowing for the opponent's
  automatic redouble), otherwise from the opponent's cash point one level
  up. Gammon values, dead gammons, the Crawford game (no cube) and the
  post-Crawford trailer's double and leader's free drop all follow from the
  table; none of them is a special case here.

Equities are reported as GNU Backgammon's cube hint shows them: in money,
points per unit of the current cube (double/pass is +1.0); in a match, MWC
mapped linearly so that losing the current cube's points is -1 and winning
them is +1 ("normalised money equity").

Given: a money game, 70% winning chances, gammonless, centred cube
When: the player on roll considers doubling
Then: it is a double and a take

>>> d = decide((0.70, 0.0, 0.0, 0.0, 0.0))
>>> d.action, d.response, d.label
('double', 'take', 'Double, take')
>>> round(d.no_double, 4), round(d.double_take, 4), d.double_pass
(0.5813, 0.596, 1.0)
>>> decide((0.70, 0.0, 0.0, 0.0, 0.0), match_length=5, score=(4, 2), crawford=True).label
'No double (Crawford game: no doubling)'
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from gammon.engine.analysis import in_contact, rearmost, their_rearmost
from gammon.errors import GammonError
from gammon.met import MatchEquityTable, default_met
from gammon.outcomes import equity

if TYPE_CHECKING:  # pragma: no cover
    from gammon.position import Position

__all__ = [
    "BEAROFF_EFFICIENCY",
    "CONTACT_EFFICIENCY",
    "MAX_CUBE",
    "OWNERS",
    "CubeDecision",
    "CubeInputError",
    "CubeState",
    "Owner",
    "cube_decision",
    "decide",
    "may_double",
    "owner_seen_by",
    "position_efficiency",
    "race_efficiency",
]

#: Who holds the cube, seen from one player. (A match's state records the seat
#: instead, -1 centred, 0 or 1, as GNU Backgammon's Match ID does: :func:`owner_seen_by`.)
Owner = Literal["centre", "me", "opponent"]
OWNERS: tuple[Owner, ...] = ("centre", "me", "opponent")
#: The cube is not turned beyond this value.
MAX_CUBE = 64
#: GNU Backgammon's default cube efficiencies.
CONTACT_EFFICIENCY = 0.68
BEAROFF_EFFICIENCY = 0.6
_RACE_BASE, _RACE_PER_PIP, _RACE_MIN, _RACE_MAX = 0.55, 0.00125, 0.6, 0.7

# GNU Backgammon calls a double "optional" within this much equity; a
# gammonless cubeless win probability at or beyond these bounds is treated as
# a dead cube in money play.
_OPTIONAL = 1e-5
_CERTAIN = 1e-7
# Printed probabilities are rounded, so the ordering checks allow this much.
_ROUNDING = 1e-6


class CubeInputError(GammonError):
    """Probabilities, score or cube state that a cube decision cannot be made from."""


@dataclass(frozen=True)
class CubeDecision:
    """A cube decision for the player on roll.

    Equities are normalised as in GNU Backgammon's cube hint (see the module
    docstring); ``mwc`` holds the same three as match-winning chances in a
    match. Where the cube is not available to the player on roll,
    ``action`` is "no double" and the double lines and ``response`` are None.
    """

    #: "no double", "double" or "too good" (to double: play on for a gammon).
    action: str
    #: The opponent's right answer to a double: "take", "pass" ("beaver" with beavers on).
    response: str | None
    no_double: float
    double_take: float | None
    double_pass: float | None
    #: Cubeless equity (money: points; match: normalised like the rest).
    cubeless: float
    #: GNU Backgammon-style wording of the proper action, e.g. "Redouble, take".
    label: str
    #: Match play only: MWC of no double, double/take, double/pass; and cubeless.
    mwc: tuple[float, float | None, float | None] | None = None
    cubeless_mwc: float | None = None

    @property
    def cube_available(self) -> bool:
        """Whether the player on roll may double now."""
        return self.double_pass is not None

    @property
    def equity(self) -> float:
        """Equity after the proper action and the proper response."""
        if self.action != "double":
            return self.no_double
        assert self.double_take is not None and self.double_pass is not None
        return min(self.double_take, self.double_pass)


def owner_seen_by(seat: int, player: int) -> Owner:
    """The cube owner as ``player`` sees it, from the owning seat (-1 centred, 0 or 1).

    >>> owner_seen_by(-1, 0), owner_seen_by(1, 1), owner_seen_by(0, 1)
    ('centre', 'me', 'opponent')
    """
    return "centre" if seat == -1 else "me" if seat == player else "opponent"


def _other_side(owner: Owner) -> Owner:
    return "opponent" if owner == "me" else "me" if owner == "opponent" else "centre"


def may_double(cube: int, owner: Owner, *, away: int = 0, crawford: bool = False, cube_cap: int = MAX_CUBE) -> bool:
    """The rule of when a player may double (before their own roll): the one copy of it.

    Never in the Crawford game, never when the opponent owns the cube, never
    beyond ``cube_cap``, and in a match (``away`` > 0: the points the player
    still needs) only while the cube is live for them: a player whose
    current cube already wins the match has nothing to double for (this is
    also what keeps the post-Crawford leader from doubling).

    Given: a 5-point match at 4-2 after the Crawford game, cube centred
    When: the leader (1-away) is on roll
    Then: the leader may not double; the trailer (3-away) may

    >>> may_double(1, "centre", away=1), may_double(1, "centre", away=3)
    (False, True)
    >>> may_double(64, "me"), may_double(2, "opponent")
    (False, False)
    """
    return (
        not crawford
        and owner != "opponent"
        and cube * 2 <= cube_cap
        and (away == 0 or away > cube)
    )


@dataclass(frozen=True)
class CubeState:
    """The match situation a cube decision sees, from the deciding player's side.

    ``match_length`` 0 is money play; ``score`` is (deciding player, opponent);
    ``owner`` says who holds the cube; ``crawford`` marks the Crawford game;
    ``jacoby`` and ``beavers`` are the money-play options in force.
    """

    cube: int = 1
    owner: Owner = "centre"
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    cube_cap: int = MAX_CUBE
    jacoby: bool = False
    beavers: bool = False

    def may_double(self) -> bool:
        """Whether the deciding player may offer a double now (:func:`may_double`)."""
        away = self.match_length - self.score[0] if self.match_length else 0
        return may_double(self.cube, self.owner, away=away, crawford=self.crawford, cube_cap=self.cube_cap)


def cube_decision(probs: Sequence[float], position: Position, cube: CubeState, *, deciding_on_roll: bool) -> CubeDecision:
    """:func:`decide` for a bot's cube hook: what every bot's ``offer_double`` and ``accept_double`` ask.

    ``probs`` are the cubeless probabilities of the player on roll (the
    doubler); ``cube`` is seen from the deciding bot, which is the doubler
    when ``deciding_on_roll`` and the taker otherwise.

    >>> from gammon import Position
    >>> cube_decision((0.9, 0.0, 0.0, 0.0, 0.0), Position.initial(), CubeState(), deciding_on_roll=False).response
    'pass'
    """
    return decide(
        tuple(float(p) for p in probs),
        match_length=cube.match_length,
        score=cube.score if deciding_on_roll else (cube.score[1], cube.score[0]),
        cube=cube.cube,
        owner=cube.owner if deciding_on_roll else _other_side(cube.owner),
        crawford=cube.crawford,
        cube_efficiency=position_efficiency(position),
        jacoby=cube.jacoby,
        beavers=cube.beavers,
        cube_cap=cube.cube_cap,
    )


def race_efficiency(pips: int) -> float:
    """Cube efficiency in a race with ``pips`` for the player on roll (GNU Backgammon's line).

    >>> race_efficiency(30), race_efficiency(80), race_efficiency(150)
    (0.6, 0.65, 0.7)
    """
    return min(_RACE_MAX, max(_RACE_MIN, _RACE_BASE + _RACE_PER_PIP * pips))


def position_efficiency(position: Position) -> float:
    """Cube efficiency for a position: contact 0.68; bear-off 0.6; race by pip count.

    >>> from gammon import Position
    >>> position_efficiency(Position.initial())
    0.68
    >>> position_efficiency(Position.from_checkers({6: 5, 10: 5}, {20: 15}))  # an 80-pip race
    0.65
    >>> position_efficiency(Position.from_checkers({1: 5, 2: 5, 3: 5}, {22: 15}))
    0.6
    """
    board = position.board
    if in_contact(board):
        return CONTACT_EFFICIENCY
    if rearmost(board) <= 6 and their_rearmost(board) >= 19:
        return BEAROFF_EFFICIENCY
    return race_efficiency(position.pip_counts()[0])


def decide(
    probs: Sequence[float],
    *,
    match_length: int = 0,
    score: tuple[int, int] = (0, 0),
    cube: int = 1,
    owner: str = "centre",
    crawford: bool = False,
    cube_efficiency: float = CONTACT_EFFICIENCY,
    jacoby: bool = False,
    beavers: bool = False,
    met: MatchEquityTable | None = None,
    cube_cap: int = MAX_CUBE,
) -> CubeDecision:
    """The cube decision of the player on roll.

    ``probs``: win, win gammon, win backgammon, lose gammon, lose backgammon
    (cumulative). ``match_length`` 0 is money play; ``score`` is (player on
    roll, opponent); ``owner`` is "centre", "me" or "opponent".
    ``cube_efficiency`` is the x of the cubeless-to-cubeful model (see
    :func:`position_efficiency`). ``jacoby`` and ``beavers`` are money-play
    rules; ``met`` defaults to Kazaross-XG2; ``cube_cap`` is the highest cube
    (:func:`may_double`).

    Given: 5-point match, 1-away (me) against 3-away after the Crawford game
    When: I am on roll
    Then: the cube is dead for me: no double

    >>> decide((0.6, 0.2, 0.0, 0.1, 0.0), match_length=5, score=(4, 2)).label
    'No double (the cube is dead for the player on roll)'
    """
    p, wg, wbg, lg, lbg = _check_probs(probs)
    _check_state(match_length, score, cube, owner, crawford, cube_efficiency, met, cube_cap)
    if match_length == 0:
        return _decide_money((p, wg, wbg, lg, lbg), cube, owner, cube_efficiency, jacoby, beavers, cube_cap)
    table = met if met is not None else default_met()
    if match_length > table.length:
        raise CubeInputError(f"invalid match length {match_length}: the table {table.name!r} covers {table.length} points")
    state = _Score(table, match_length - score[0], match_length - score[1], crawford, cube_cap)
    return _decide_match((p, wg, wbg, lg, lbg), state, cube, owner, cube_efficiency)


# -- input checks --------------------------------------------------------------------------------


def _check_probs(probs: Sequence[float]) -> tuple[float, float, float, float, float]:
    try:
        values = [v for v in probs]
    except TypeError:
        raise CubeInputError(f"invalid probabilities {probs!r}: expected five numbers") from None
    if len(values) != 5 or not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values):
        raise CubeInputError(f"invalid probabilities {probs!r}: expected five numbers W,WG,WBG,LG,LBG")
    p, wg, wbg, lg, lbg = (float(v) for v in values)
    if not all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in (p, wg, wbg, lg, lbg)):
        raise CubeInputError(f"invalid probabilities {probs!r}: each must be between 0 and 1")
    for ok, rule in (
        (wg <= p + _ROUNDING, "win gammon exceeds win"),
        (wbg <= wg + _ROUNDING, "win backgammon exceeds win gammon"),
        (lg <= 1.0 - p + _ROUNDING, "lose gammon exceeds lose (1 - win)"),
        (lbg <= lg + _ROUNDING, "lose backgammon exceeds lose gammon"),
    ):
        if not ok:
            raise CubeInputError(f"invalid probabilities {probs!r}: {rule}")
    return p, wg, wbg, lg, lbg


def _is_power_of_two(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1 and not value & (value - 1)


def _check_state(match_length, score, cube, owner, crawford, efficiency, met, cube_cap) -> None:
    if owner not in OWNERS:
        raise CubeInputError(f"invalid cube owner {owner!r}: expected centre, me or opponent")
    if not _is_power_of_two(cube_cap):
        raise CubeInputError(f"invalid cube cap {cube_cap!r}: expected a power of two such as {MAX_CUBE}")
    if not _is_power_of_two(cube) or cube > cube_cap:
        raise CubeInputError(f"invalid cube value {cube!r}: expected a power of two from 1 to {cube_cap}")
    if isinstance(efficiency, bool) or not isinstance(efficiency, (int, float)) or not 0.0 <= efficiency <= 1.0:
        raise CubeInputError(f"invalid cube efficiency {efficiency!r}: expected a number from 0 to 1")
    if isinstance(match_length, bool) or not isinstance(match_length, int) or match_length < 0:
        raise CubeInputError(f"invalid match length {match_length!r}: expected 0 (money) or a positive number")
    if match_length == 0:
        if crawford:
            raise CubeInputError("invalid Crawford flag: money play has no Crawford game")
        return
    if (
        not isinstance(score, (tuple, list))
        or len(score) != 2
        or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < match_length for s in score)
    ):
        raise CubeInputError(f"invalid score {score!r} for a {match_length}-point match")
    if crawford:
        if (match_length - score[0] == 1) == (match_length - score[1] == 1):
            raise CubeInputError(
                f"invalid Crawford game at {score[0]}-{score[1]} to {match_length}: exactly one side must be 1-away"
            )
        if cube != 1 or owner != "centre":
            raise CubeInputError(f"invalid cube {cube} ({owner}) in the Crawford game: the cube stays at 1 in the centre")


# -- money ---------------------------------------------------------------------------------------


def _money_cubeful(probs, owner: str, x: float, jacoby: bool) -> float:
    """Cubeful money equity per unit of cube with the cube at ``owner`` (Janowski)."""
    p, wg, wbg, lg, lbg = probs
    # dead cube: cubeless equity, gammons counting single under the Jacoby rule while the cube is centred
    dead = 2.0 * p - 1.0 if (jacoby and owner == "centre") else float(equity(probs))
    if p <= _CERTAIN or p >= 1.0 - _CERTAIN:
        return dead
    won = 1.0 + (wg + wbg) / p  # average value of a game won
    lost = 1.0 + (lg + lbg) / (1.0 - p)
    take = (lost - 0.5) / (won + lost + 0.5)
    cash = (lost + 1.0) / (won + lost + 0.5)
    if owner == "centre":
        if p < take:
            live = -1.0 if jacoby else -lost + (lost - 1.0) * p / take
        elif p < cash:
            live = -1.0 + 2.0 * (p - take) / (cash - take)
        else:
            live = 1.0 if jacoby else 1.0 + (won - 1.0) * (p - cash) / (1.0 - cash)
    elif owner == "me":
        if p < cash:
            live = -lost + (1.0 + lost) * p / cash
        else:
            live = 1.0 + (won - 1.0) * (p - cash) / (1.0 - cash)
    else:
        if p < take:
            live = -lost + (lost - 1.0) * p / take
        else:
            live = -1.0 + (won + 1.0) * (p - take) / (1.0 - take)
    return (1.0 - x) * dead + x * live


def _decide_money(probs, cube, owner, x, jacoby, beavers, cube_cap) -> CubeDecision:
    cubeless = float(equity(probs))
    nd = _money_cubeful(probs, owner, x, jacoby)
    if not may_double(cube, owner, cube_cap=cube_cap):
        return _unavailable(nd, cubeless, _why_not(owner, cube_cap, crawford=False), None, None)
    dt = 2.0 * _money_cubeful(probs, "opponent", x, jacoby)
    return _choose(nd, dt, 1.0, cubeless, probs[1] > 0.0, owner, money_beavers=beavers)


def _why_not(owner: str, cube_cap: int, crawford: bool) -> str:
    """Why :func:`may_double` says no, in GNU Backgammon's words."""
    if crawford:
        return "Crawford game: no doubling"
    if owner == "opponent":
        return "the opponent owns the cube"
    return f"the cube is at its limit of {cube_cap}"


# -- match ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Score:
    """Away scores (player on roll, opponent) and the MET, seen from the player on roll."""

    met: MatchEquityTable
    me: int
    opp: int
    crawford: bool
    cube_cap: int = MAX_CUBE

    @property
    def post_crawford(self) -> bool:
        """This game is post-Crawford: a 1-away side and not the Crawford game."""
        return not self.crawford and 1 in (self.me, self.opp)

    def mwc(self, points: int) -> float:
        """My MWC after I win ``points`` (lose, if negative) in this game."""
        after_post = self.crawford or 1 in (self.me, self.opp)
        if points >= 0:
            return self.met.equity(self.me - points, self.opp, post_crawford=after_post)
        return self.met.equity(self.me, self.opp + points, post_crawford=after_post)

    def flipped(self) -> _Score:
        return _Score(self.met, self.opp, self.me, self.crawford, self.cube_cap)

    def cube_matters(self, cube: int) -> bool:
        """Whether the cube can still change the result (else cubeful is cubeless)."""
        both_dead = self.me <= cube and self.opp <= cube
        return not (both_dead or (self.me == 2 and self.opp == 2) or self.crawford)


def _rates(p: float, wg: float, wbg: float, lg: float, lbg: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """(single-gammon, backgammon) shares of the games won, for me and for the opponent."""
    mine = ((wg - wbg) / p, wbg / p) if p > 0.0 else (0.0, 0.0)
    theirs = ((lg - lbg) / (1.0 - p), lbg / (1.0 - p)) if p < 1.0 else (0.0, 0.0)
    return mine, theirs


def _mixed(score: _Score, sign: int, value: int, rates: tuple[float, float]) -> float:
    """MWC after winning (sign +1) or losing (-1) a game worth ``value`` per point, by gammon mix."""
    gammon, backgammon = rates
    return (
        (1.0 - gammon - backgammon) * score.mwc(sign * value)
        + gammon * score.mwc(sign * 2 * value)
        + backgammon * score.mwc(sign * 3 * value)
    )


def _cubeless_mwc(probs, score: _Score, cube: int) -> float:
    p, wg, wbg, lg, lbg = probs
    return (
        (p - wg) * score.mwc(cube)
        + (wg - wbg) * score.mwc(2 * cube)
        + wbg * score.mwc(3 * cube)
        + (1.0 - p - lg) * score.mwc(-cube)
        + (lg - lbg) * score.mwc(-2 * cube)
        + lbg * score.mwc(-3 * cube)
    )


def _cash_points(score: _Score, cube: int, my_rates, their_rates) -> tuple[float, float]:
    """Live-cube cash points at ``cube``: mine and the opponent's, each in its own winning chances."""
    sides = ((score, my_rates, their_rates), (score.flipped(), their_rates, my_rates))
    top = cube
    while score.me - 1 >= 2 * top and score.opp - 1 >= 2 * top:
        top *= 2
    above: tuple[float, float] | None = None
    value = top
    while value >= cube:
        points = []
        for k, (view, own, other) in enumerate(sides):
            if view.me - 1 < 2 * value or view.opp - 1 < 2 * value:
                # The doubled cube would be dead: if it is dead only for the
                # doubler, the taker redoubles at once (cube "prime").
                prime = 2 * value if view.me - 1 < 2 * value <= view.opp - 1 else value
                drop = view.mwc(value)
                take_lose = _mixed(view, -1, 2 * prime, other)
                take_win = _mixed(view, +1, 2 * prime, own)
                points.append((take_lose - drop) / (take_lose - take_win))
            else:
                assert above is not None
                redouble_pass = view.mwc(-2 * value)
                drop = view.mwc(value)
                take_win = _mixed(view, +1, 2 * value, own)
                points.append(1.0 - above[1 - k] * (drop - take_win) / (redouble_pass - take_win))
        above = (points[0], points[1])
        value //= 2
    assert above is not None
    return above


def _match_cubeful(probs, score: _Score, cube: int, owner: str, x: float) -> float:
    """Cubeful MWC of the player on roll with ``cube`` at ``owner`` (GNU Backgammon's generalised Janowski)."""
    dead = _cubeless_mwc(probs, score, cube)
    if not score.cube_matters(cube):
        return dead
    p = probs[0]
    my_rates, their_rates = _rates(*probs)
    my_cash, their_cash = _cash_points(score, cube, my_rates, their_rates)
    cash = score.mwc(cube)
    opp_cash = score.mwc(-cube)
    too_good = my_cash  # at or above this I cash (or play on)
    opp_too_good = 1.0 - their_cash  # at or below this the opponent cashes

    def losing_leg() -> float:
        lose = _mixed(score, -1, cube, their_rates)
        return lose + (opp_cash - lose) * p / opp_too_good if opp_too_good > 0.0 else lose

    def winning_leg() -> float:
        win = _mixed(score, +1, cube, my_rates)
        return cash + (win - cash) * (p - too_good) / (1.0 - too_good) if too_good < 1.0 else win

    if owner == "centre":
        if p <= opp_too_good:
            live = losing_leg()
        elif p < too_good:
            live = opp_cash + (cash - opp_cash) * (p - opp_too_good) / (too_good - opp_too_good)
        else:
            live = winning_leg()
    elif owner == "me":
        if p <= too_good:
            lose = _mixed(score, -1, cube, their_rates)
            live = lose + (cash - lose) * p / too_good if too_good > 0.0 else lose
        else:
            live = winning_leg()
    else:
        if p <= opp_too_good:
            live = losing_leg()
        else:
            win = _mixed(score, +1, cube, my_rates)
            live = opp_cash + (win - opp_cash) * (p - opp_too_good) / (1.0 - opp_too_good)
    return (1.0 - x) * dead + x * live


def _decide_match(probs, score: _Score, cube: int, owner: str, x: float) -> CubeDecision:
    win, lose = score.mwc(cube), score.mwc(-cube)

    def normalise(mwc: float) -> float:
        if mwc in (win, lose):  # exact at the ends: double/pass is +1
            return 1.0 if mwc == win else -1.0
        return (2.0 * mwc - (win + lose)) / (win - lose)

    cubeless_mwc = _cubeless_mwc(probs, score, cube)
    nd_mwc = _match_cubeful(probs, score, cube, owner, x)
    if not may_double(cube, owner, away=score.me, crawford=score.crawford, cube_cap=score.cube_cap):
        if score.crawford or owner == "opponent" or cube * 2 > score.cube_cap:
            reason = _why_not(owner, score.cube_cap, score.crawford)
        else:
            reason = "the cube is dead for the player on roll"
        return _unavailable(normalise(nd_mwc), normalise(cubeless_mwc), reason, (nd_mwc, None, None), cubeless_mwc)
    dt_mwc = _match_cubeful(probs, score, 2 * cube, "opponent", x)
    dp_mwc = win
    decision = _choose(normalise(nd_mwc), normalise(dt_mwc), normalise(dp_mwc), normalise(cubeless_mwc), probs[1] > 0.0, owner)
    return replace(decision, mwc=(nd_mwc, dt_mwc, dp_mwc), cubeless_mwc=cubeless_mwc)


# -- the decision --------------------------------------------------------------------------------


def _unavailable(nd, cubeless, reason, mwc, cubeless_mwc) -> CubeDecision:
    return CubeDecision("no double", None, nd, None, None, cubeless, f"No double ({reason})", mwc, cubeless_mwc)


def _choose(nd: float, dt: float, dp: float, cubeless: float, can_win_gammon: bool, owner: str, money_beavers: bool = False) -> CubeDecision:
    """GNU Backgammon's choice among no double (ND), double/take (DT) and double/pass (DP).

    Double when both double lines are worth at least ND. Otherwise, if only
    DT is worse, the opponent would take: no double. If ND beats cashing
    (DP), play on for the gammon: too good; with no gammon to win GNU
    Backgammon doubles them out instead (or, facing a take, does not double).
    """
    beaver = money_beavers and -2.0 <= dt <= 0.0
    response = "pass" if dt >= dp else ("beaver" if beaver else "take")
    if dt >= nd and dp >= nd:
        # with a beaver coming, doubling only pays if the beavered cube is still better
        action = "no double" if response == "beaver" and 2.0 * dt < nd else "double"
    elif dp >= nd:
        action = "no double"
    elif can_win_gammon:
        action = "too good"
    else:
        action = "double" if dt > dp else "no double"
    verb = "double" if owner == "centre" else "redouble"
    if action == "double":
        optional = _optional(dp if response == "pass" else dt, nd)
        label = f"Optional {verb}, {response}" if optional else f"{verb.capitalize()}, {response}"
    elif action == "too good":
        label = f"Too good to {verb}, {response}"
    else:
        label = f"No {verb}, {response}"
    return CubeDecision(action, response, nd, dt, dp, cubeless, label)


def _optional(double_line: float, nd: float) -> bool:
    return abs(double_line - nd) <= _OPTIONAL
