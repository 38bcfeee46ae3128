"""What a play is worth to the player who makes it, cubeful, in GNU Backgammon's units: EMG and MWC.

An analysis compares plays and cube actions at one moment of a match, so
all of them are put in one unit, as GNU Backgammon's analysis does:

* **EMG** (equivalent to money game): in money play the cubeful equity per
  unit of the current cube; in a match the match-winning chance (MWC)
  mapped linearly so that losing the current cube's points is -1 and
  winning them +1 (GNU Backgammon's ``mwc2eq``, the normalisation of
  :func:`gammon.cube.decide`);
* **MWC** (match play) or money times the cube (money play): what an error
  costs in the real currency of the game, ``emg * (W - L) / 2`` in a match
  (``W``, ``L``: the MWC after winning, losing the current cube).

A play is valued by the position it leaves, the opponent on roll:
cubeful with the cube where it is (GNU Backgammon's generalised Janowski
model, :mod:`gammon.cube`, :func:`gammon.matchplay.play_mwc`), with the
cube efficiency of that position. A game without the cube is valued
cubeless.

>>> from gammon.cube import CubeState
>>> scale = Scale.of(CubeState(match_length=7, score=(0, 0)))
>>> round(scale.mwc(1.0) - scale.mwc(-1.0), 4) == round(scale.win - scale.lose, 4)
True
>>> Scale.of(CubeState(cube=2)).money(0.5)
1.0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gammon.bots.neural import NeuralBot
from gammon.cube import CubeState, _money_cubeful, _other_side, position_efficiency
from gammon.matchplay import opponent_score, play_mwc
from gammon.outcomes import equity, sanitize
from gammon.play import Play
from gammon.position import Dice, Position

__all__ = ["Scale", "after_values", "play_values"]


@dataclass(frozen=True)
class Scale:
    """The mover's conversion between EMG and MWC (match) or money (money play) at one cube and score."""

    match_length: int
    cube: int
    win: float = 1.0
    lose: float = 0.0

    @classmethod
    def of(cls, cube: CubeState) -> Scale:
        """The scale of the mover whose :class:`CubeState` is ``cube``."""
        if not cube.match_length:
            return cls(0, cube.cube)
        score = opponent_score(cube)  # the opponent's view: my MWC is one minus theirs
        return cls(cube.match_length, cube.cube, 1.0 - score.mwc(-cube.cube), 1.0 - score.mwc(cube.cube))

    def emg(self, mwc: float | np.ndarray) -> float | np.ndarray:
        """EMG of an MWC (match play only)."""
        return (2.0 * mwc - (self.win + self.lose)) / (self.win - self.lose)

    def mwc(self, emg: float | np.ndarray) -> float | np.ndarray:
        """MWC of an EMG (match play only)."""
        return (emg * (self.win - self.lose) + self.win + self.lose) / 2.0

    def money(self, emg: float) -> float:
        """An EMG difference in the game's currency: MWC in a match, points (times the cube) in money."""
        if self.match_length:
            return emg * (self.win - self.lose) / 2.0
        return emg * self.cube


def after_values(opponent_probs: np.ndarray, after: list[Position], cube: CubeState, *, cubeful: bool = True) -> np.ndarray:
    """The mover's EMG after each play, from the opponent's cubeless probabilities ((n, 5)) in the positions ``after``."""
    probs = sanitize(np.asarray(opponent_probs, np.float64).reshape(-1, 5))
    xs = [position_efficiency(p) if not p.is_game_over() else 0.0 for p in after]
    if cube.match_length:
        mwc = play_mwc(probs, cube, cubeful=cubeful, efficiencies=xs)
        return np.asarray(Scale.of(cube).emg(mwc), np.float64)
    if not cubeful:
        return -equity(probs).astype(np.float64)
    owner = _other_side(cube.owner)
    return np.array([-_money_cubeful(tuple(row), owner, x, cube.jacoby) for row, x in zip(probs, xs)])


def play_values(
    bot: NeuralBot, position: Position, dice: Dice, cube: CubeState, plies: int = 0, *,
    cubeful: bool = True, also: int | None = None, prune: int = 8, margin: float = 0.16,
) -> tuple[list[Play], np.ndarray, np.ndarray]:
    """Every legal play of ``dice`` with the mover's EMG after it and the depth it was valued at.

    All plays are valued at 0-ply in one batch; at 1 or 2 plies the best
    ``prune`` within ``margin`` EMG of the best, and the play ``also`` (the
    one made), are valued again that deep (GNU Backgammon's move filter).
    """
    plays, probs = bot.play_probabilities(position, dice)
    after = [position.apply(p) for p in plays]
    values = after_values(probs, after, cube, cubeful=cubeful)
    depth = np.zeros(len(plays), np.int64)
    if plies and len(plays) > 1:
        order = np.argsort(-values, kind="stable")[:prune]
        keep = [int(i) for i in order if values[i] >= values[order[0]] - margin]
        if also is not None and also not in keep:
            keep.append(also)
        deep = np.array([bot.probabilities(after[i], plies) if not after[i].is_game_over() else probs[i] for i in keep])
        values[keep] = after_values(deep, [after[i] for i in keep], cube, cubeful=cubeful)
        depth[keep] = plies
    return plays, values, depth

