"""Checker play at a match score: the value of a play as match-winning chances (MWC).

In money play a play is worth its cubeless equity. In a match what counts is
the chance of winning the match, and the same probabilities are worth
different things at different scores: at double match point (both 1-away)
a gammon is a single; a 1-away leader against a 2-away trailer after the
Crawford game gains nothing from a gammon but loses the match to one the
trailer wins with the cube still at 1; a cube already big enough to win
the match for both sides is dead, so gammons count for nothing.

:func:`play_mwc` values the positions a turn's plays leave, each given as
the five cubeless probabilities of the side then on roll (the opponent), as
the mover's MWC. It uses the cube module's match model
(:func:`gammon.cube.decide` at a score), seen from the opponent who is on
roll next:

* cubeful (the default): GNU Backgammon's generalised Janowski model, the
  cubeful MWC of the opponent on roll with the cube where it is, with the
  cube efficiency of the resulting position (:func:`gammon.cube.position_efficiency`);
  where the cube cannot change the result (the Crawford game, a dead cube,
  2-away 2-away) that is the cubeless MWC;
* cubeless: GNU Backgammon's "cubeless MWC" at the current cube value, each
  outcome (single, gammon, backgammon, either way) mapped through the match
  equity table.

Either way the mover's MWC is one minus the opponent's.

Given: double match point, and two plays leaving the opponent the same
chance to win but one with many more gammons
Then: the two are worth the same (a gammon is a single at DMP)

>>> import numpy as np
>>> from gammon.cube import CubeState
>>> opp = np.array([[0.4, 0.0, 0.0, 0.0, 0.0], [0.4, 0.3, 0.1, 0.2, 0.05]])
>>> play_mwc(opp, CubeState(match_length=7, score=(6, 6))).round(6).tolist()
[0.6, 0.6]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from gammon.cube import (CONTACT_EFFICIENCY, CubeState, _cubeless_mwc, _match_cubeful, _other_side, _Score,
                         position_efficiency)
from gammon.met import MatchEquityTable, default_met
from gammon.outcomes import sanitize

if TYPE_CHECKING:  # pragma: no cover
    from gammon.position import Position

__all__ = ["mwc_after", "opponent_score", "play_mwc"]


def opponent_score(cube: CubeState, met: MatchEquityTable | None = None) -> _Score:
    """The match model's score seen from the opponent (who is on roll after the mover's play)."""
    if cube.match_length == 0:
        raise ValueError("money play has no match score")
    table = met if met is not None else default_met()
    me, opp = cube.score
    return _Score(table, cube.match_length - opp, cube.match_length - me, cube.crawford, cube.cube_cap)


def play_mwc(
    opponent_probs: np.ndarray,
    cube: CubeState,
    *,
    cubeful: bool = True,
    efficiencies: Sequence[float] | None = None,
    met: MatchEquityTable | None = None,
) -> np.ndarray:
    """The mover's MWC after each play, from the opponent's cubeless probabilities ((n, 5)) after it.

    ``cube`` is the mover's :class:`~gammon.cube.CubeState` (score, cube,
    owner, Crawford); ``efficiencies`` are the cube efficiencies of the
    resulting positions (default: contact's 0.68); ``cubeful`` False gives
    GNU Backgammon's cubeless MWC at the cube value instead. The
    probabilities are made consistent first (:func:`gammon.outcomes.sanitize`).
    """
    probs = sanitize(np.asarray(opponent_probs, np.float64).reshape(-1, 5))
    score = opponent_score(cube, met)
    if not cubeful or not score.cube_matters(cube.cube):
        return 1.0 - np.array([_cubeless_mwc(tuple(row), score, cube.cube) for row in probs])
    owner = _other_side(cube.owner)
    xs = [CONTACT_EFFICIENCY] * len(probs) if efficiencies is None else efficiencies
    opp = np.array([_match_cubeful(tuple(row), score, cube.cube, owner, float(x)) for row, x in zip(probs, xs)])
    return 1.0 - opp


def mwc_after(afters: Sequence[Position], opponent_probs: np.ndarray, cube: CubeState) -> np.ndarray:
    """The mover's cubeful MWC after each play, leaving the positions ``afters``: :func:`play_mwc` with each
    resulting position's own cube efficiency (:func:`gammon.cube.position_efficiency`), as GNU Backgammon's
    0-ply cubeful evaluation weighs them. How every bot that plays by MWC chooses."""
    return play_mwc(opponent_probs, cube, efficiencies=[position_efficiency(after) for after in afters])
