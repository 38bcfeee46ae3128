"""Pairing and dice: what is played, the duplicate pairs, their seeds, and the bots reseeded for every game.

Pair ``i`` of a run seeded ``seed`` plays ``SeededDice(pair_seed(seed, i))``
twice, bot A in seat 0 in the first game and in seat 1 in the second, so
both bots play the same rolls from the same seat once each. Before each game
each bot is reseeded from the seed, the pair and its side
(:func:`bot_seed`), so a pair's records depend on nothing else: not on the
worker that plays it, nor on what that worker played before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gammon import match
from gammon.bots import Bot, load
from gammon.dice import DiceSource, SeededDice
from gammon.errors import GammonError
from gammon.records import Rules

BotSpec = str | Bot


class ArenaError(GammonError):
    """Bad arena input: too few or an odd number of games, a bad match length."""


@dataclass(frozen=True)
class Format:
    """What is played: cubeless money (the default), money with the cube, or matches.

    All are played by :mod:`gammon.match`; matches always with the cube and
    the Crawford rule.
    """

    match_length: int = 0
    cube: bool = False

    @property
    def unit(self) -> str:
        """What one record is: ``"game"`` or ``"match"``."""
        return "match" if self.match_length else "game"

    def describe(self) -> str:
        if self.match_length:
            return f"{self.match_length}-point matches"
        return "money games with the cube" if self.cube else "cubeless money games"

    def check(self) -> None:
        """Raise :class:`ArenaError` for a format that cannot be played."""
        if isinstance(self.match_length, bool) or not isinstance(self.match_length, int) or self.match_length < 0:
            raise ArenaError(f"invalid match length {self.match_length!r}: expected a number of points")
        if self.match_length > 64:
            raise ArenaError(f"invalid match length {self.match_length}: at most 64 points")


MONEY = Format()


@dataclass(frozen=True)
class Outcome:
    """How one game (or match) ended, from seat 0's side.

    ``points``: money points won by seat 0 (cube included; negative when seat
    1 won), or in a match +1 / -1 for winning / losing it. ``results``: each
    game's result for seat 0 before the cube, +-1 single, 2 gammon, 3
    backgammon.
    """

    points: int
    turns: int
    results: tuple[int, ...]


@dataclass(frozen=True)
class ArenaRecord:
    """One finished game or match of a run, from bot A's side (see :class:`Outcome`)."""

    pair: int
    swapped: bool  # False: A sat in seat 0 (threw the first opening die)
    points: int
    turns: int
    results: tuple[int, ...] = ()

    def game_results(self) -> tuple[int, ...]:
        """Each game's result for A (a cubeless money record is one game worth ``points``)."""
        return self.results or (self.points,)


def pair_seed(seed: int, pair: int) -> int:
    """The dice seed of duplicate pair ``pair`` of a run seeded with ``seed``.

    >>> pair_seed(7, 3)
    30064771075
    """
    return seed * 2**32 + pair


def bot_seed(seed: int, pair: int, side: int) -> int:
    """The seed a bot's own randomness gets for one game: side 0 is bot A, 1 is bot B."""
    return (seed * 2**32 + pair) * 4 + 2 + side


# -- one game ------------------------------------------------------------------


def play_outcome(seats: Sequence[Bot], dice: DiceSource, fmt: Format = MONEY) -> Outcome:
    """Play one game (one match for a match format) between ``seats`` with :mod:`gammon.match`; the outcome for seat 0.

    Seat 0 throws the first die of the opening roll; the higher die moves
    first with both dice, then the seats alternate rolling ``dice``. The
    match runner is the one game driver: cubeless money is a game under
    ``Rules(cube=False)``.

    >>> from gammon.dice import SeededDice
    >>> from gammon.bots import load
    >>> outcome = play_outcome([load("level4"), load("random", seed=1)], SeededDice(5))
    >>> outcome.points in (1, 2, 3, -1, -2, -3), outcome.turns > 10
    (True, True)
    """
    fmt.check()
    if fmt.match_length:
        record = match.play_match(seats[0], seats[1], fmt.match_length, dice)
        games = record.games
        points = 1 if record.winner == 0 else -1
    else:
        games = [match.play_game(seats[0], seats[1], dice, rules=Rules(cube=fmt.cube))]
        points = games[0].points if games[0].winner == 0 else -games[0].points
    results = tuple(g.result if g.winner == 0 else -g.result for g in games)
    turns = sum(len(g.plays()) for g in games)
    return Outcome(points, turns, results)


class Side:
    """One bot of a run, reseeded (or rebuilt from its spec) before every game,
    so results do not depend on how games are spread over workers."""

    def __init__(self, spec: BotSpec, options: dict[str, Any] | None = None) -> None:
        self.spec = spec
        self.options = dict(options or {})
        self.bot = make_bot(spec, **self.options)

    def for_game(self, seed: int) -> Bot:
        reseed = getattr(self.bot, "reseed", None)
        if callable(reseed):
            reseed(seed)
        elif isinstance(self.spec, str):
            self.bot = make_bot(self.spec, **{**self.options, "seed": seed})
        return self.bot


def play_pair(a: BotSpec | Side, b: BotSpec | Side, seed: int, pair: int, fmt: Format = MONEY) -> list[ArenaRecord]:
    """Both games of duplicate pair ``pair`` of a run seeded ``seed``: the same dice, seats swapped.

    >>> first, second = play_pair("level3", "level1", seed=1, pair=0)
    >>> (first.swapped, second.swapped), first.points != 0
    ((False, True), True)
    """
    side_a = a if isinstance(a, Side) else Side(a)
    side_b = b if isinstance(b, Side) else Side(b)
    records = []
    for swapped in (False, True):
        bot_a = side_a.for_game(bot_seed(seed, pair, 0))
        bot_b = side_b.for_game(bot_seed(seed, pair, 1))
        seats = (bot_b, bot_a) if swapped else (bot_a, bot_b)
        outcome = play_outcome(seats, SeededDice(pair_seed(seed, pair)), fmt)
        sign = -1 if swapped else 1
        results = tuple(sign * r for r in outcome.results) if fmt != MONEY else ()
        records.append(ArenaRecord(pair, swapped, sign * outcome.points, outcome.turns, results))
    return records


def make_bot(spec: BotSpec, **options: Any) -> Bot:
    """The bot object itself, or :func:`gammon.bots.load` of a spec string (which reports any failure as one line)."""
    return spec if not isinstance(spec, str) else load(spec, **options)


def bot_name(spec: BotSpec) -> str:
    """How a bot is named in reports: the spec string, or the bot's ``name``."""
    return spec if isinstance(spec, str) else str(getattr(spec, "name", type(spec).__name__))

