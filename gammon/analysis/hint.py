"""Hints: every legal play of a roll ranked by the network, or the cube decision before the roll.

The plays are ranked as :meth:`gammon.bots.neural.NeuralBot.play_equities`
ranks them (0, 1 or 2 plies, with its pruning at 1 and 2 plies: plays the
search does not reach keep their 0-ply value and are listed after the
searched ones, marked with their depth, as GNU Backgammon's hint does).
Each play also gets the five cubeless probabilities of the player who moved,
computed by :meth:`gammon.bots.neural.NeuralBot.probabilities`, the search
of :mod:`gammon.engine.search` on probabilities instead of equities (same
replies chosen at 0-ply, same roll weights).

Without a match situation the equities are cubeless money equities. Given
one (a :class:`~gammon.cube.CubeState`, e.g. from a Match ID:
:func:`cube_state`), plays are valued as the match analysis values them
(:func:`gammon.analysis.value.play_values`): cubeful, in EMG, with the
match-winning chance beside it in a match, the way GNU Backgammon's hint
shows "EMG (MWC)". The cube hint goes through :func:`gammon.cube.decide`
with the same situation.

>>> from gammon import Position
>>> from gammon.net import Architecture, Weights
>>> from gammon.bots.neural import NeuralBot
>>> bot = NeuralBot(Weights.zeros(Architecture(hidden=4)))
>>> hints = hint_plays(bot, Position.initial(), (3, 1))
>>> len(hints), hints[0].difference
(16, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gammon.analysis.value import Scale, play_values
from gammon.bots.neural import NeuralBot
from gammon.cube import CubeDecision, CubeState, decide, owner_seen_by, position_efficiency
from gammon.ids import MatchState
from gammon.outcomes import OUTPUTS, equity, flip, won_probs
from gammon.position import Dice, Position

__all__ = ["PlayHint", "CubeHint", "hint_plays", "cube_hint", "cube_state", "format_plays", "probabilities",
           "after_probabilities"]

#: How the equities of a hint read, by situation.
MATCH_NOTE = "cubeful equities in EMG, with the match-winning chance (MWC) after each play"
MONEY_CUBE_NOTE = "cubeful money equities in EMG (per unit of the cube)"
CUBELESS_NOTE = "cubeless money equities"


@dataclass(frozen=True)
class PlayHint:
    """One ranked play: its notation, the mover's equity, the difference to the best, the five probabilities.

    ``plies`` is the depth the play was valued at (the pruned plays of a
    deeper hint keep their 0-ply value). ``measure`` says what ``equity``
    is: ``"cubeless"`` money equity, or cubeful ``"emg"``; ``mwc`` is the
    match-winning chance after the play in a match, else None.
    """

    rank: int
    play: str
    equity: float
    difference: float
    probabilities: tuple[float, float, float, float, float]
    plies: int
    measure: str = "cubeless"
    mwc: float | None = None

    def as_dict(self) -> dict:
        return {
            "rank": self.rank,
            "play": self.play,
            "equity": self.equity,
            "measure": self.measure,
            "mwc": self.mwc,
            "difference": self.difference,
            "plies": self.plies,
            "probabilities": dict(zip(OUTPUTS, self.probabilities)),
        }


@dataclass(frozen=True)
class CubeHint:
    """The cube decision of the player on roll with the probabilities it was made from and the situation."""

    decision: CubeDecision
    probabilities: tuple[float, float, float, float, float]
    plies: int
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    cube: int = 1
    owner: str = "centre"
    crawford: bool = False
    jacoby: bool = False


def probabilities(bot: NeuralBot, position: Position, plies: int = 0) -> np.ndarray:
    """Cubeless probabilities of the player on roll, before the roll, searched ``plies`` (0, 1, 2) deep: :meth:`NeuralBot.probabilities`.

    >>> from gammon.net import Architecture, Weights
    >>> bot = NeuralBot(Weights.zeros(Architecture(hidden=4)))
    >>> probabilities(bot, Position.initial(), 2).round(3).tolist()
    [0.5, 0.5, 0.5, 0.5, 0.5]
    """
    return bot.probabilities(position, plies)


def after_probabilities(bot: NeuralBot, after: Position, plies: int = 0) -> np.ndarray:
    """The probabilities of the player who just moved into ``after`` (the opponent on roll there)."""
    if after.is_game_over():
        return won_probs(after.result())
    return flip(probabilities(bot, after, plies))


def hint_plays(bot: NeuralBot, position: Position, dice: Dice, plies: int = 0, cube: CubeState | None = None) -> list[PlayHint]:
    """Every legal play of ``dice``, best first, valued ``plies`` deep (see the module docstring).

    ``cube`` None: cubeless money equities. Otherwise the player on roll's
    situation: cubeful EMG (and MWC in a match), as the match analysis values plays.
    """
    if cube is None:
        plays, deep = bot.play_equities(position, dice, plies)
        if plies == 0 or len(plays) == 1:
            values, depth = np.asarray(deep, np.float64), np.zeros(len(plays), np.int64)
        else:
            _, shallow = bot.play_equities(position, dice, 0)
            searched = np.isfinite(deep)
            values, depth = np.where(searched, deep, shallow), np.where(searched, plies, 0)
        measure, scale = "cubeless", None
    else:
        plays, values, depth = play_values(bot, position, dice, cube, plies, prune=bot.prune, margin=bot.margin)
        measure, scale = "emg", Scale.of(cube) if cube.match_length else None
    # The searched plays first, each group by equity; ties keep the order of the legal plays.
    order = sorted(range(len(plays)), key=lambda i: (-depth[i], -values[i], i))
    best = float(values[order[0]])
    after = [position.apply(p) for p in plays]
    hints = []
    for rank, i in enumerate(order, 1):
        p = after_probabilities(bot, after[i], int(depth[i]))
        value = float(values[i])
        mwc = float(scale.mwc(value)) if scale is not None else None
        hints.append(PlayHint(rank, str(plays[i]), value, value - best, tuple(float(v) for v in p), int(depth[i]), measure, mwc))
    return hints


def cube_state(match: MatchState) -> CubeState:
    """The :class:`~gammon.cube.CubeState` of a Match ID's player on roll."""
    me = match.player_on_roll
    return CubeState(
        cube=match.cube,
        owner=owner_seen_by(match.cube_owner, me),
        match_length=match.match_length,
        score=(match.score[me], match.score[1 - me]),
        crawford=match.crawford,
        jacoby=bool(match.jacoby) and match.match_length == 0,
    )


def cube_hint(bot: NeuralBot, position: Position, plies: int = 0, match: MatchState | None = None,
              cube: CubeState | None = None) -> CubeHint:
    """The cube decision of the player on roll: no double, double/take or double/pass (:func:`gammon.cube.decide`).

    ``match`` (from a Match ID) gives the match length, score, cube, its
    owner, the Crawford game and the Jacoby rule, seen from its player on
    roll; without it, ``cube`` (the player on roll's :class:`~gammon.cube.CubeState`), else money play with a
    centred cube and the Jacoby rule off.
    """
    probs = tuple(float(v) for v in probabilities(bot, position, plies))
    if match is not None:
        cube = cube_state(match)
    elif cube is None:
        cube = CubeState()
    situation = dict(match_length=cube.match_length, score=cube.score, cube=cube.cube, owner=cube.owner,
                     crawford=cube.crawford, jacoby=cube.jacoby)
    decision = decide(probs, **situation, cube_efficiency=position_efficiency(position))
    return CubeHint(decision, probs, plies, **situation)


def format_plays(hints: list[PlayHint], dice: tuple[int, int], cube: CubeState | None = None, limit: int | None = None) -> str:
    """The plays laid out like GNU Backgammon's hint: rank, depth, play, equity, difference; the probabilities below.

    ``cube`` is the situation the hints were valued in (None: cubeless
    money); ``limit`` shows only the first plays and says how many more there are.

    >>> hint = PlayHint(1, "8/5 6/5", 0.1587, 0.0, (0.553, 0.164, 0.007, 0.113, 0.005), 0)
    >>> print(format_plays([hint], (3, 1)))
    Plays of 3-1, cubeless money equities
        1. Cubeless 0-ply    8/5 6/5                      Eq.: +0.159
           0.553 0.164 0.007 - 0.447 0.113 0.005
    """
    if cube is not None and cube.match_length:
        game = "Crawford game of a " if cube.crawford else ""
        kind = (f"{game}{cube.match_length}-point match, score {cube.score[0]}-{cube.score[1]} "
                f"(the player on roll first): {MATCH_NOTE}")
    elif cube is not None:
        kind = MONEY_CUBE_NOTE
    else:
        kind = CUBELESS_NOTE
    lines = [f"Plays of {dice[0]}-{dice[1]}, {kind}"]
    shown = hints if limit is None else hints[:limit]
    for h in shown:
        how = "Cubeless" if h.measure == "cubeless" else "Cubeful "
        line = f"  {h.rank:>3}. {how} {h.plies}-ply    {h.play:<28} Eq.: {h.equity:+.3f}"
        if h.mwc is not None:
            line += f" (MWC {100 * h.mwc:.1f}%)"
        if h.rank > 1:
            line += f" ({h.difference:+.3f})"
        lines.append(line)
        p = h.probabilities
        lines.append(f"       {p[0]:.3f} {p[1]:.3f} {p[2]:.3f} - {1 - p[0]:.3f} {p[3]:.3f} {p[4]:.3f}")
    if len(shown) < len(hints):
        lines.append(f"  ... {len(hints) - len(shown)} more plays")
    return "\n".join(lines)


def cubeless_equity(probs) -> float:
    """Cubeless money equity of five probabilities (:func:`gammon.outcomes.equity`)."""
    return float(equity(np.asarray(probs)))


def format_cube_decision(
    decision: CubeDecision,
    probs: list[float],
    match_length: int,
    score: tuple[int, ...],
    cube: int,
    owner: str,
    crawford: bool,
    digits: int = 3,
) -> str:
    """The decision laid out like GNU Backgammon's cube hint."""

    def eq(value: float) -> str:
        return f"{value:+.{digits}f}"

    p, wg, wbg, lg, lbg = probs
    where = "centred" if owner == "centre" else f"owned by {owner}"
    if match_length:
        game = "Crawford game" if crawford else "match"
        header = f"Cube analysis: {match_length}-point {game}, score {score[0]}-{score[1]}, cube {cube} {where}"
        money = 2 * p - 1 + wg + wbg - lg - lbg
        cubeless = f"Cubeless equity {eq(decision.cubeless)} (Money: {eq(money)})"
    else:
        header = f"Cube analysis: money game, cube {cube} {where}"
        cubeless = f"Cubeless equity {eq(decision.cubeless)}"
    shown = " ".join(f"{v:.{digits}f}" for v in (p, wg, wbg)) + " - " + " ".join(f"{v:.{digits}f}" for v in (1 - p, lg, lbg))
    lines = [header, cubeless, f"  {shown}"]
    if not decision.cube_available:
        lines.append(f"Cubeful equity, no double: {eq(decision.no_double)}")
    else:
        assert decision.double_take is not None and decision.double_pass is not None
        rows = {"No double": decision.no_double, "Double, take": decision.double_take, "Double, pass": decision.double_pass}
        if decision.action == "double":
            best = "Double, pass" if decision.response == "pass" else "Double, take"
        else:
            best = "No double"
        order = [best] + sorted((name for name in rows if name != best), key=lambda name: -rows[name])
        lines.append("Cubeful equities:")
        for i, name in enumerate(order, 1):
            line = f"{i}. {name:<20}{eq(rows[name])}"
            if i > 1:
                line += f"  ({eq(rows[name] - rows[best])})"
            lines.append(line)
    lines.append(f"Proper cube action: {decision.label}")
    return "\n".join(lines)


def format_cube(cube: CubeHint) -> str:
    """The cube decision laid out as ``gammon cube`` prints it (GNU Backgammon's cube hint)."""
    text = format_cube_decision(cube.decision, list(cube.probabilities), cube.match_length, cube.score, cube.cube,
                                cube.owner, cube.crawford)
    return f"{cube.plies}-ply cubeless probabilities\n{text}"
