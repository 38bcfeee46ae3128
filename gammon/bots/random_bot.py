"""A bot that plays uniformly at random among the legal plays (and never doubles)."""

from __future__ import annotations

import random

from gammon.cube import CubeState
from gammon.play import Play
from gammon.position import Dice, Position


class RandomBot:
    """Picks a legal play uniformly at random; never doubles, always takes.

    >>> from gammon import Position
    >>> bot = RandomBot(seed=1)
    >>> bot.choose_play(Position.initial(), (3, 1)) in Position.initial().legal_plays((3, 1))
    True
    """

    name = "random"
    #: The random bot plays no cube (see :attr:`gammon.bots.base.Bot`'s ``cube_note``).
    cube_note = "no cube (never doubles, always takes)"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_play(self, position: Position, dice: Dice) -> Play:
        plays = position.legal_plays(dice)
        return plays[self._rng.randrange(len(plays))]

    def offer_double(self, position: Position, cube: CubeState) -> bool:
        return False

    def accept_double(self, position: Position, cube: CubeState) -> bool:
        return True
