"""Dice: unbiased, independent, and never influenced by the game.

A dice source is anything with ``roll() -> (d1, d2)``. ``SeededDice`` makes
runs reproducible; ``SystemDice`` draws from the operating system's entropy
for interactive play. Neither looks at the position, the players or the score.
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol

Dice = tuple[int, int]


class DiceSource(Protocol):
    """Something that rolls two dice."""

    def roll(self) -> Dice: ...


class SeededDice:
    """Reproducible dice from a seed.

    >>> SeededDice(7).roll() == SeededDice(7).roll()
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self) -> Dice:
        rng = self._rng
        return rng.randrange(6) + 1, rng.randrange(6) + 1

    def die(self) -> int:
        """One die, for the opening roll."""
        return self._rng.randrange(6) + 1


class SystemDice:
    """Dice from the operating system's entropy source (``secrets``), unbiased by rejection sampling."""

    def roll(self) -> Dice:
        return secrets.randbelow(6) + 1, secrets.randbelow(6) + 1

    def die(self) -> int:
        return secrets.randbelow(6) + 1


class ScriptedDice:
    """Replays a fixed list of rolls (for tests and duplicate-dice evaluation)."""

    def __init__(self, rolls: list[Dice]) -> None:
        self._rolls = list(rolls)
        self._next = 0

    def roll(self) -> Dice:
        if self._next >= len(self._rolls):
            raise IndexError(f"scripted dice ran out after {len(self._rolls)} rolls")
        roll = self._rolls[self._next]
        self._next += 1
        return roll

    def die(self) -> int:
        d1, _ = self.roll()
        return d1


def opening_roll(dice: DiceSource) -> tuple[int, Dice]:
    """Each player throws one die, ties are thrown again; the higher die moves first with both dice.

    Returns ``(first_player, (die of player 0, die of player 1))``: player 0
    threw the first die.

    >>> opening_roll(ScriptedDice([(3, 3), (2, 5)]))
    (1, (2, 5))
    """
    while True:
        first, second = dice.roll()
        if first != second:
            return (0 if first > second else 1), (first, second)
