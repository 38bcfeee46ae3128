"""Self-play: whole games played by the 0-ply network inside one Numba call.

A game is recorded as the boards the players faced, each seen by the player
on roll (``boards[0]`` is the starting position, or where :class:`Starts`
puts it: a random race, or the opening after a few random plays), then the final board seen
by the loser, and the points the winner scored (1, 2 or 3). Both sides play
greedily with the same network: each turn every legal play is scored in one
batch (:func:`gammon.engine.network.score_from_base`) and the best is taken, the
turn's first layer carried on from the same player's previous turn
(:func:`gammon.engine.network.next_base_layer`). The dice are
drawn up front from a numpy ``Generator``, so a game is a pure function of
the weights and the generator state (exact resumes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from gammon.dice import draw_rolls
from gammon.engine.borrowed import borrowed
from gammon.engine.cache import cross_file, refresh
from gammon.engine.movegen import generate_after
from gammon.engine.network import BEAROFF, next_base_layer, no_base_layer, position_class, score_from_base
from gammon.net import Evaluator, Weights
from gammon.outcomes import game_result
from gammon.position import Position

#: Rolls drawn per call; a game longer than this continues in another call.
DICE_CHUNK = 256
_START = np.ascontiguousarray(Position.initial().board, np.int8)


@cross_file
@njit(cache=True, nogil=True)
def play_turns(board, dice, ev, boards_out, to_bearoff=False):
    """Play from ``board`` with ``dice`` ((m, 2) int8) until the game ends or the dice run out (or, with
    ``to_bearoff``, a play leaves a pure bear-off that ``ev`` values from the database).

    Writes the board before each turn into ``boards_out[t]`` and returns
    ``(turns, points)``: ``points`` > 0 means the game ended and the last
    mover won that many points, and then ``boards_out[turns]`` holds the final
    board (loser's view); 0 means the game stopped short and ``boards_out[turns]``
    holds the board to continue from.
    """
    ev = borrowed(ev)
    cur = board.copy()
    m = dice.shape[0]
    eq = np.empty(64, np.float64)
    last_even = last_odd = no_base_layer(cur)  # each player's last base layer, the start of its next one
    for t in range(m):
        boards_out[t] = cur
        after, _, over = generate_after(cur, dice[t, 0], dice[t, 1])
        n = after.shape[0]
        best = 0
        if n > 1:
            if n > eq.shape[0]:
                eq = np.empty(2 * n, np.float64)
            if t % 2 == 0:
                last_even = layer = next_base_layer(cur, ev, last_even)
            else:
                last_odd = layer = next_base_layer(cur, ev, last_odd)
            score_from_base(layer, after, over, ev, eq)
            for i in range(1, n):
                if eq[i] > eq[best]:
                    best = i
        cur = after[best].copy()
        if over[best]:
            boards_out[t + 1] = cur
            return t + 1, game_result(cur)
        if to_bearoff and position_class(cur, ev) == BEAROFF:
            boards_out[t + 1] = cur
            return t + 1, 0
    boards_out[m] = cur
    return m, 0


def random_race(rng: np.random.Generator) -> np.ndarray:
    """A random race position (no contact, the game not over), the player on roll to move first.

    A split point ``k`` (1..23) is drawn: my checkers stand on my points 1..k,
    theirs on the rest (so neither has to pass the other). Each side keeps
    all 15 checkers half the time (the races where gammons and backgammons are
    decided), otherwise 1..14 of them (the others borne off), and puts
    each on point ``1 + floor(r * u ** a)`` of its own range of ``r`` points,
    ``u`` uniform and ``a`` drawn from 1..4 per side: from checkers spread
    over the whole range to a side gathered at home. So lopsided races (a
    side with stragglers in the other's home board while the other bears off)
    come up as well as even ones, including positions that the games of a
    strong player rarely reach.
    """
    k = int(rng.integers(1, 24))
    board = np.zeros(26, np.int8)
    for sign, points in ((1, k), (-1, 24 - k)):
        n = 15 if rng.random() < 0.5 else int(rng.integers(1, 15))
        a = 1.0 + 3.0 * float(rng.random())
        for u in rng.random(n):
            q = 1 + int(points * u ** a)  # 1..points, in this side's own numbering
            board[q if sign > 0 else 25 - q] += sign
    return board


#: A scrambled start is the opening after 1 to this many random plays (both sides').
SCRAMBLE_PLIES = 8


def scrambled_opening(rng: np.random.Generator) -> np.ndarray:
    """The opening after 1 to :data:`SCRAMBLE_PLIES` plays drawn uniformly from the legal plays of drawn rolls.

    The player on roll is the one to move next. It takes self-play off its own
    well-trodden openings into positions a strong player rarely lets happen
    (blots, early hits, awkward stacks), which the net must still value when an
    opponent plays differently; the random plays themselves are not learned from.
    """
    board = _START
    for ply in range(int(rng.integers(1, SCRAMBLE_PLIES + 1))):
        d = draw_rolls(rng, 1, ply == 0)[0]
        after, _, _ = generate_after(board, d[0], d[1])  # no game ends within SCRAMBLE_PLIES plays of the opening
        board = after[int(rng.integers(after.shape[0]))].copy()
    return board


@dataclass(frozen=True)
class Starts:
    """Where self-play games start: the opening, except a ``race`` share from a :func:`random_race`
    and a ``scrambled`` share from a :func:`scrambled_opening` (the two shares sum to at most 1)."""

    race: float = 0.0
    scrambled: float = 0.0

    def draw(self, rng: np.random.Generator) -> np.ndarray | None:
        """The board of the next game, or None for the opening (with its opening roll). Draws nothing when both shares are 0."""
        if not (self.race or self.scrambled):
            return None
        u = rng.random()
        if u < self.race:
            return random_race(rng)
        if u < self.race + self.scrambled:
            return scrambled_opening(rng)
        return None


@dataclass
class Game:
    """One self-play game: ``boards`` (T + 1, 26) int8 and the winner's ``points``."""

    boards: np.ndarray
    points: int

    @property
    def turns(self) -> int:
        return self.boards.shape[0] - 1


class SelfPlayer:
    """Plays self-play games with an evaluator (or one net's weights, playing every position).

    >>> from gammon.net import Architecture
    >>> player = SelfPlayer(Weights.zeros(Architecture(hidden=4)))
    >>> game = player.play(np.random.default_rng(1))
    >>> game.points in (1, 2, 3) and game.boards.shape[1] == 26
    True
    """

    def __init__(self, evaluator: Evaluator | Weights, starts: Starts = Starts()) -> None:
        refresh()
        self.evaluator = evaluator
        self.starts = starts
        self._out = np.empty((DICE_CHUNK + 1, 26), np.int8)

    @property
    def evaluator(self) -> Evaluator:
        return self._evaluator

    @evaluator.setter
    def evaluator(self, evaluator: Evaluator | Weights) -> None:
        self._evaluator = Evaluator.of(evaluator)
        self._ev = self._evaluator.kernel_args()

    def play(self, rng: np.random.Generator) -> Game:
        """One game from the starting position (or where :attr:`starts` draws one)."""
        ev = self._ev
        board = self.starts.draw(rng)
        opening = board is None
        if opening:
            board = _START
        parts = []
        while True:
            dice = draw_rolls(rng, DICE_CHUNK, opening)
            opening = False
            turns, points = play_turns(board, dice, ev, self._out)
            if points:
                parts.append(self._out[: turns + 1].copy())
                return Game(np.concatenate(parts) if len(parts) > 1 else parts[0], int(points))
            parts.append(self._out[:turns].copy())
            board = self._out[turns].copy()

    def play_many(self, rng: np.random.Generator, n: int) -> list[Game]:
        return [self.play(rng) for _ in range(n)]
