"""Resignations judged by a bot's own evaluation: when to accept one, when to offer one.

A resignation of ``value`` (1 single, 2 gammon, 3 backgammon) gives the
other player ``value`` times the cube. The accepter compares that with what
it expects from playing on: its cubeless outcome probabilities
(``bot.probabilities(position)``, which the neural and heuristic bots have)
turned into points at the current cube, each result capped in a match at
the points that side still needs (points past the match's end are worth
nothing). It accepts when the offer is at least what it expects. A bot with
no probabilities keeps the match runner's rule: accept only everything the
resigner could still lose.

A bot offers to resign, before its roll, only when the game is lost beyond
doubt. With no contact left that is first checked exactly (:func:`race_offer`):
the bot cannot finish with any roll and the opponent finishes with every
roll; then it offers a single if it has borne a checker off, a gammon if no
roll lets it bear one off now (a backgammon only if it also has checkers it
cannot bring out of the winner's home board). Otherwise its own chances
decide: winning under :data:`CERTAIN` (a single if it cannot be gammoned
either, a gammon if the gammon cannot be saved but the backgammon can).

>>> import numpy as np
>>> from gammon.cube import CubeState
>>> even = np.array([0.5, 0.15, 0.01, 0.15, 0.01])
>>> accepts(even, 1, CubeState()), accepts(np.array([0.1, 0.0, 0.0, 0.6, 0.1]), 1, CubeState())
(True, False)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gammon.bots.base import Bot
from gammon.cube import CubeState
from gammon.outcomes import flip, sanitize, worst_loss
from gammon.position import Position
from gammon.records import Action

#: Below this chance an outcome is taken as impossible when offering a resignation.
CERTAIN = 0.002


def _cap(points: float, need: int | None) -> float:
    return points if need is None else min(points, need)


def expected_points(p: np.ndarray, cube: CubeState) -> float:
    """What the side with outcome probabilities ``p`` expects to win, in points at ``cube`` (negative: to lose)."""
    c = cube.cube
    mine = theirs = None
    if cube.match_length:
        mine, theirs = cube.match_length - cube.score[0], cube.match_length - cube.score[1]
    win = (p[0] - p[1], p[1] - p[2], p[2])
    lose = (1.0 - p[0] - p[3], p[3] - p[4], p[4])
    return float(sum(w * _cap(k * c, mine) for k, w in zip((1, 2, 3), win))
                 - sum(q * _cap(k * c, theirs) for k, q in zip((1, 2, 3), lose)))


def accepts(resigner: np.ndarray, value: int, cube: CubeState) -> bool:
    """Whether to accept ``value`` from a resigner whose probabilities are ``resigner``; ``cube`` is the accepter's."""
    mine = cube.match_length - cube.score[0] if cube.match_length else None
    offered = _cap(value * cube.cube, mine)
    return offered >= expected_points(flip(sanitize(resigner)), cube) - 1e-9


def _finishes(position: Position, dice: tuple[int, int]) -> tuple[bool, bool]:
    """Whether the player on roll can bear off every checker with ``dice``, and at least one."""
    plays = position.legal_plays(dice)
    before = position.borne_off()[0]
    results = [(after.is_game_over(), after.borne_off()[1] > before) for after in plays.positions()]
    return any(r[0] for r in results), any(r[1] for r in results)


ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def race_offer(position: Position, p: np.ndarray | None = None) -> int | None:
    """The exact resignation in a race the player on roll has lost for certain; None when it is not certain.

    >>> race_offer(Position.from_checkers({6: 5}, {24: 1}))  # five checkers left against one on the 1-point
    1
    >>> race_offer(Position.from_checkers({18: 15}, {24: 1}))  # none off, none can come off: a gammon
    2
    """
    if has_contact(position):
        return None
    me = [_finishes(position, d) for d in ALL_ROLLS]
    if any(done for done, _ in me):
        return None
    them = position.flip()
    if not all(_finishes(them, d)[0] for d in ALL_ROLLS):
        return None
    if position.borne_off()[0] > 0:
        return 1
    if any(one for _, one in me):
        return None  # the gammon may be saved this roll
    b = position.board
    if b[25] == 0 and b[19:25].clip(0).sum() == 0:
        return 2
    if p is not None and p[4] < CERTAIN:
        return 2
    return 3 if p is not None and p[4] > 1 - CERTAIN else None


def offer(p: np.ndarray, position: Position) -> int:
    """The resignation (0 none, 1, 2, 3) for the player on roll with probabilities ``p`` in ``position``."""
    if has_contact(position):
        return 0
    exact = race_offer(position, p)
    if exact is not None:
        return exact
    if p[0] >= CERTAIN:
        return 0
    if p[3] < CERTAIN:
        return 1
    if p[3] > 1 - CERTAIN and p[4] < CERTAIN:
        return 2
    if p[4] > 1 - CERTAIN:
        return 3
    return 0


def has_contact(position: Position) -> bool:
    """Whether any checker of one side still has to pass one of the other's."""
    b = position.board
    mine = [p for p in range(1, 26) if b[p] > 0]
    theirs = [p for p in range(0, 25) if b[p] < 0]
    return bool(mine and theirs and max(mine) > min(theirs))


def probabilities(bot: Any, position: Position) -> np.ndarray | None:
    """The bot's cubeless outcome probabilities for the player on roll, or None when it has none."""
    method = getattr(bot, "probabilities", None)
    if method is None:
        return None
    return sanitize(np.asarray(method(position), np.float64))


class Resigning:
    """``bot`` with :func:`accepts` and :func:`offer` as its resignation hooks (everything else is the bot's).

    An offer the opponent rejected is not made again in the same game.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self._offered = 0
        self._declined = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)

    def choose_play(self, position, dice):  # type: ignore[no-untyped-def]
        return self.bot.choose_play(position, dice)

    def offer_double(self, position, cube):  # type: ignore[no-untyped-def]
        return self.bot.offer_double(position, cube)

    def accept_double(self, position, cube):  # type: ignore[no-untyped-def]
        return self.bot.accept_double(position, cube)

    def offer_resignation(self, position: Position, cube: CubeState) -> int:
        p = probabilities(self.bot, position)
        if p is None:
            value = race_offer(position) or 0
        else:
            value = offer(p, position)
        if value <= self._declined:
            return 0
        self._offered = value
        return value

    def accept_resignation(self, position: Position, value: int, cube: CubeState) -> bool:
        p = probabilities(self.bot, position)
        if p is None:
            return value >= worst_loss(position.board)
        return accepts(p, value, cube)

    def observe(self, action: Action, table: Any) -> None:
        if action.kind == "start":
            self._offered = self._declined = 0
        elif action.kind == "reject":
            self._declined = max(self._declined, self._offered)
        hook = getattr(self.bot, "observe", None)
        if hook is not None:
            hook(action, table)


def with_resignations(bot: Bot) -> Bot:
    """``bot`` able to offer and judge resignations (itself when it already can)."""
    if hasattr(bot, "offer_resignation") and hasattr(bot, "accept_resignation"):
        return bot
    return Resigning(bot)  # type: ignore[return-value]
