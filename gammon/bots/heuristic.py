"""Heuristic bots at five levels, the computer opponent users pick a level against.

Each level sees every legal play, scores the resulting positions with the
evaluation terms of :mod:`gammon.engine.terms` (all plays in one compiled
batch) and picks the best. What a level knows is its weight table in
:data:`LEVELS`: a term it does not know has weight 0. Lower levels add noise
to the scores, which is how a beginner's opponent makes its obvious mistakes.

* level 1, "beginner": counts pips and checkers borne off, likes making
  points and hitting, minds its blots only a little, hurries its back
  checkers away from a strong board, with a lot of noise.
* level 2, "casual": also dislikes blots, likes made points and the
  opponent's checkers on the bar; some noise.
* level 3, "club": counts the opponent's shots at its blots exactly (36
  rolls, blocking points considered) and what a hit would cost in pips,
  values home-board and key points, anchors, avoids stacks; a little noise.
* level 4, "strong": adds being hit into a strong board, primes (its own and
  the opponent's), a closed board against checkers on the bar, gammon risks
  and chances, and the race (odds from the pip counts, wastage, crossovers);
  no noise.
* level 5, "expert": adds the value of each point made or left a blot, for
  both sides, and looks one roll ahead: its best few plays are also valued by
  the opponent's best level-4 reply to each of its 21 rolls (weighted out of
  36), and the final score blends the two.

>>> from gammon import Position
>>> bot = HeuristicBot(4)
>>> str(bot.choose_play(Position.initial(), (3, 1)))
'8/5 6/5'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from gammon.engine import terms as ft
from gammon.cube import CubeState, cube_decision
from gammon.errors import GammonError
from gammon.outcomes import results
from gammon.play import Play
from gammon.engine.analysis import ROLLS
from gammon.position import Dice, Position


@dataclass(frozen=True)
class Level:
    """What one difficulty level knows: a weight per evaluation term, noise and lookahead.

    ``weights`` maps names of :data:`gammon.engine.terms.TERMS` to weights
    in points per game (terms not named weigh 0); ``tables`` maps names of
    :data:`gammon.engine.terms.TABLES` to 24 weights, points 1 to 24.
    ``noise`` is the standard deviation of the Gaussian noise added to each
    play's score. A level with ``lookahead`` > 0 also values its best
    ``candidates`` plays one opponent roll deeper (the opponent answering
    with level ``reply_level``'s weights) and scores them
    ``(1 - lookahead) * static + lookahead * deeper``.
    """

    name: str
    weights: Mapping[str, float]
    tables: Mapping[str, Sequence[float]] = field(default_factory=dict)
    noise: float = 0.0
    lookahead: float = 0.0
    candidates: int = 0
    reply_level: int = 0
    vector: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        unknown = (set(self.weights) - set(ft.TERMS)) | (set(self.tables) - set(ft.TABLES))
        if unknown:
            raise ValueError(f"level {self.name!r}: unknown evaluation terms {sorted(unknown)}")
        vector = np.zeros(ft.N_FEATURES, np.float64)
        for name, weight in self.weights.items():
            vector[ft.TERMS.index(name)] = weight
        for name, table in self.tables.items():
            if len(table) != 24:
                raise ValueError(f"level {self.name!r}: table {name!r} needs 24 values, one per point")
            start = len(ft.TERMS) + 24 * ft.TABLES.index(name)
            vector[start : start + 24] = table
        vector.flags.writeable = False
        object.__setattr__(self, "weights", dict(self.weights))
        object.__setattr__(self, "tables", {k: tuple(v) for k, v in self.tables.items()})
        object.__setattr__(self, "vector", vector)


# One table per level. Weights are in points per game per unit of the term (see
# gammon.engine.terms.TERMS for what each term measures). Levels 1-4 were fitted,
# each on the terms it knows, to rank the legal plays of ~64,000 positions from
# varied self-play as GNU Backgammon's 0-ply evaluation ranks them; level 5 was
# also fitted to its absolute equities, so its scores can be compared across
# positions (which the lookahead and the cube estimate need). The noise of the
# lower levels is what makes their mistakes. benchmarks/tune_heuristic.py
# regenerates these tables (collect, then fit).

# Level 1 is set by hand, not fitted: level 2's terms with its blots minded less
# and twice level 2's noise, and one worry a beginner has: back checkers left behind
# a strong board (gammon_risk). Counting pips and checkers off alone (as it first
# did), it left blots everywhere and was backgammoned in three games of four; without
# the worry, in one game of eight.
# gammon eval level2 level1 --games 2000 --seed 11: level 2 wins +0.71 points per game
# (95% CI +0.65 .. +0.77) and backgammons in 5.3% of the games (level 2 against
# itself: about 4% a side).
LEVEL_1 = Level(
    name="beginner",
    weights={
        "pips": 0.244,
        "off": 0.061,
        "blots": -0.050,
        "points": 0.122,
        "their_bar": 0.055,
        "gammon_risk": -0.800,
    },
    noise=0.10,
)

LEVEL_2 = Level(
    name="casual",
    weights={
        "pips": 0.244,
        "off": 0.061,
        "blots": -0.074,
        "points": 0.122,
        "their_bar": 0.055,
    },
    noise=0.05,
)

LEVEL_3 = Level(
    name="club",
    weights={
        "pips": 0.144,
        "race_pips": -0.026,
        "off": 0.032,
        "blots": -0.036,
        "shots": -0.060,
        "hit_loss": -0.543,
        "points": 0.002,
        "home_points": 0.092,
        "key_points": 0.114,
        "anchor": -0.092,
        "advanced_anchor": 0.086,
        "their_bar": 0.124,
        "stack": -0.047,
    },
    noise=0.03,
)

LEVEL_4 = Level(
    name="strong",
    weights={
        "pips": 0.108,
        "race_pips": -0.006,
        "off": 0.030,
        "blots": -0.032,
        "shots": 0.419,
        "hit_loss": -0.508,
        "board_risk": -0.996,
        "points": 0.016,
        "home_points": 0.033,
        "key_points": 0.106,
        "anchor": -0.021,
        "advanced_anchor": 0.085,
        "prime": 0.030,
        "their_prime": -0.047,
        "their_bar": 0.076,
        "closeout": 0.268,
        "back": -0.016,
        "gammon_risk": -0.061,
        "gammon_chance": 0.159,
        "stack": -0.040,
        "waste": -0.069,
        "outside": 0.019,
        "race_odds": 0.036,
    },
)

# Tables: the value of a made point or a blot of each side on each point, in my
# numbering (1 = my ace point, 24 = their ace point), one row per quarter of the board.
LEVEL_5 = Level(
    name="expert",
    weights={
        "pips": 0.054,
        "race_pips": -0.006,
        "off": 0.106,
        "blots": 0.012,
        "shots": 0.415,
        "hit_loss": -0.600,
        "board_risk": -0.944,
        "points": 0.054,
        "home_points": -0.025,
        "key_points": 0.094,
        "anchor": -0.099,
        "advanced_anchor": 0.042,
        "prime": 0.045,
        "their_prime": -0.047,
        "their_bar": 0.134,
        "closeout": 0.312,
        "back": -0.075,
        "gammon_risk": -0.036,
        "gammon_chance": 0.141,
        "stack": -0.032,
        "waste": -0.038,
        "outside": -0.051,
        "race_odds": 0.310,
        "bias": 0.025,
    },
    tables={
        "my_point": (
            -0.103, -0.066, +0.023, -0.001, +0.050, +0.073,
            -0.027, +0.022, +0.012, +0.003, -0.021, -0.024,
            -0.039, -0.065, -0.058, -0.076, -0.090, -0.122,
            +0.109, +0.145, +0.112, +0.126, +0.068, +0.003,
        ),
        "my_blot": (
            -0.052, -0.048, -0.025, -0.009, +0.002, -0.020,
            -0.006, -0.008, -0.016, -0.020, -0.027, -0.032,
            -0.045, -0.063, -0.068, -0.080, -0.076, -0.114,
            +0.035, -0.008, -0.026, -0.030, -0.053, -0.080,
        ),
        "their_point": (
            +0.200, +0.080, +0.015, -0.004, -0.025, +0.017,
            +0.091, +0.103, +0.050, +0.031, +0.032, -0.055,
            -0.037, -0.066, -0.082, -0.091, -0.115, -0.137,
            -0.179, -0.177, -0.127, -0.059, +0.036, +0.086,
        ),
        "their_blot": (
            +0.101, +0.044, +0.032, +0.022, +0.023, +0.061,
            +0.063, +0.053, +0.034, +0.030, +0.025, +0.013,
            -0.003, -0.022, -0.037, -0.025, -0.032, -0.033,
            +0.011, -0.027, -0.015, +0.019, +0.054, +0.076,
        ),
    },
    lookahead=0.5,
    candidates=5,
    reply_level=4,
)

#: The five levels, by number.
LEVELS: Mapping[int, Level] = MappingProxyType({1: LEVEL_1, 2: LEVEL_2, 3: LEVEL_3, 4: LEVEL_4, 5: LEVEL_5})

#: The table whose scores estimate absolute equity (level 5's), used by every level's cube estimate.
ESTIMATE = LEVEL_5
#: Chance of winning from that estimate: ``1 / (1 + exp(-(a * equity + b)))``, fitted like the weights.
WIN_LOGISTIC = (2.54, -0.06)


class HeuristicBot:
    """The heuristic player of one level (1 to 5); deterministic for a given ``seed``.

    ``noise`` and ``candidates`` override the level's table (for experiments).

    >>> from gammon import Position
    >>> bot = HeuristicBot(1, seed=7)
    >>> bot.name, bot.level
    ('level1', 1)
    >>> bot.choose_play(Position.initial(), (6, 5)) in Position.initial().legal_plays((6, 5))
    True
    """

    def __init__(
        self,
        level: int = 3,
        seed: int | None = None,
        *,
        noise: float | None = None,
        candidates: int | None = None,
    ) -> None:
        if isinstance(level, bool) or level not in LEVELS:
            raise GammonError(f"unknown heuristic level {level!r}: levels are 1 to 5")
        self.level = level
        self.name = f"level{level}"
        self.table = LEVELS[level]
        self.noise = self.table.noise if noise is None else float(noise)
        self.candidates = self.table.candidates if candidates is None else int(candidates)
        self._weights = self.table.vector
        self._reply = LEVELS[self.table.reply_level].vector if self.table.lookahead else self._weights
        self.seed = seed
        self._rng = np.random.default_rng(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the noise from ``seed`` (the arena does this before every game)."""
        self.seed = seed
        self._rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        return f"HeuristicBot({self.level}, seed={self.seed!r})"

    # -- plays ------------------------------------------------------------------

    def scores(self, position: Position, dice: Dice) -> tuple[list[Play], np.ndarray]:
        """Every legal play and this level's score of it, as :meth:`choose_play` sees them.

        Scores are the static ones with the level's noise drawn; a lookahead
        level's best ``candidates`` plays get the blended score.
        """
        plays = position.legal_plays(dice)
        return list(plays), self._score(plays.after)

    def _score(self, after: np.ndarray) -> np.ndarray:
        scores = ft.evaluate(after, self._weights)
        if self.noise > 0.0:
            scores = scores + self._rng.normal(0.0, self.noise, scores.shape[0])
        blend = self.table.lookahead
        if blend > 0.0 and self.candidates > 0 and after.shape[0] > 1:
            keep = np.argsort(-scores, kind="stable")[: self.candidates]
            deeper = ft.lookahead(after[keep], self._reply, self._weights)
            blended = np.full_like(scores, -np.inf)
            blended[keep] = (1.0 - blend) * scores[keep] + blend * deeper
            scores = blended
        return scores

    def choose_play(self, position: Position, dice: Dice) -> Play:
        """The play this level likes best."""
        plays = position.legal_plays(dice)
        if len(plays) == 1:
            return plays[0]
        return plays[int(np.argmax(self._score(plays.after)))]

    # -- estimates and the cube -------------------------------------------------

    def estimate(self, position: Position) -> tuple[float, float]:
        """``(cubeless equity, chance of winning)`` for the player on roll, before rolling.

        Averages over the 21 rolls the estimate (:data:`ESTIMATE`'s score and
        :data:`WIN_LOGISTIC`) of the best play by that table. This is the
        hook a real cube policy (``gammon.cube``) can build on.
        """
        if position.is_game_over():
            return -float(position.result()), 0.0
        a, b = WIN_LOGISTIC
        weights = ESTIMATE.vector
        equity = win = 0.0
        for dice, count in ROLLS:
            after = position.legal_plays(dice).after
            best = float(ft.value(after, weights).max())
            equity += count * best
            if results(after).max() > 0:
                win += count
            else:
                win += count / (1.0 + math.exp(-(a * best + b)))
        return equity / 36.0, win / 36.0

    def probabilities(self, position: Position) -> tuple[float, float, float, float, float]:
        """Cubeless (win, win gammon, win backgammon, lose gammon, lose backgammon) for the player on roll.

        A rough split of :meth:`estimate`: the chance of winning, and the part
        of the equity that single wins and losses do not explain put into
        gammons (won if positive, lost if negative); no backgammons. This is
        the input :func:`gammon.cube.decide` takes.

        >>> round(HeuristicBot(4).probabilities(Position.initial())[0], 1)
        0.5
        """
        equity, win = self.estimate(position)
        extra = equity - (2.0 * win - 1.0)
        return win, min(max(extra, 0.0), win), 0.0, min(max(-extra, 0.0), 1.0 - win), 0.0

    def offer_double(self, position: Position, cube: CubeState) -> bool:
        """Double when :func:`gammon.cube.decide`, fed :meth:`probabilities`, says so."""
        if not cube.may_double():
            return False
        return cube_decision(self.probabilities(position), position, cube, deciding_on_roll=True).action == "double"

    def accept_double(self, position: Position, cube: CubeState) -> bool:
        """Take when :func:`gammon.cube.decide` says take (``position`` has the doubler on roll)."""
        decision = cube_decision(self.probabilities(position), position, cube, deciding_on_roll=False)
        return decision.response in ("take", "beaver")
