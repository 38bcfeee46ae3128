"""Dice: unbiased, independent, and never influenced by the game.

A dice source is anything with ``roll() -> (d1, d2)``. ``SeededDice`` makes
runs reproducible; ``SystemDice`` draws from the operating system's entropy
for interactive play. Neither looks at the position, the players or the score.
Self-play draws its rolls in blocks from a numpy generator (:func:`draw_rolls`).
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol

import numpy as np

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


def opening_throws(dice: DiceSource) -> tuple[Dice, ...]:
    """The opening roll, the one copy of its rule: each player throws one die, ties are thrown again.

    Returns every throw (player 0's die first), ties included; the last one
    decides: the higher die moves first, with both dice as its roll.

    >>> opening_throws(ScriptedDice([(3, 3), (2, 5), (6, 6)]))
    ((3, 3), (2, 5))
    """
    throws = []
    while True:
        throw = dice.roll()
        throws.append(throw)
        if throw[0] != throw[1]:
            return tuple(throws)


def opening_roll(dice: DiceSource) -> tuple[int, Dice]:
    """:func:`opening_throws`, summed up as ``(first player, (die of player 0, die of player 1))``.

    >>> opening_roll(ScriptedDice([(3, 3), (2, 5)]))
    (1, (2, 5))
    """
    d0, d1 = opening_throws(dice)[-1]
    return (0 if d0 > d1 else 1), (d0, d1)


def draw_rolls(rng: np.random.Generator, n: int, opening: bool) -> np.ndarray:
    """``n`` rolls from a numpy generator as an (n, 2) int8 array, for compiled self-play.

    With ``opening`` the first roll follows the opening rule of
    :func:`opening_throws`: never a double (a tie is thrown again), and it
    is the roll of whoever moves first.
    """
    rolls = rng.integers(1, 7, size=(n, 2), dtype=np.int8)
    if opening:
        while rolls[0, 0] == rolls[0, 1]:
            rolls[0] = rng.integers(1, 7, size=2, dtype=np.int8)
    return rolls
