"""Short evaluation matches during training: the 0-ply net against yardsticks.

Cubeless money games with duplicate dice: each dice sequence is played twice,
the net moving first in one game and second in the other, which removes most
of the luck. Opponents: ``pubeval`` (through ``gnubg_nn``), ``random``, and
any spec of :func:`gammon.bots.load` (the heuristic ``level1`` .. ``level5``).
The opponents are only measured against, never learned from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from gammon.encoding import N_INPUTS
from gammon.movegen import generate
from gammon.net import Weights, final_points, play_equities, refresh_kernel_caches
from gammon.position import Position

_START = np.ascontiguousarray(Position.initial().board, np.int8)


class Chooser(Protocol):
    """Picks the index of one candidate play (rows of ``after``) for ``board`` and ``dice``."""

    def choose(self, board: np.ndarray, dice: tuple[int, int], after: np.ndarray, over: np.ndarray) -> int: ...


class NetChooser:
    """The 0-ply network."""

    def __init__(self, weights: Weights) -> None:
        refresh_kernel_caches()
        self.w = weights
        self._x = np.empty((512, N_INPUTS), np.float32)
        self._p = np.empty((512, 5), np.float32)
        self._eq = np.empty(512, np.float64)

    def choose(self, board, dice, after, over) -> int:
        n = after.shape[0]
        if n == 1:
            return 0
        if n > self._x.shape[0]:
            self._x = np.empty((2 * n, N_INPUTS), np.float32)
            self._p = np.empty((2 * n, 5), np.float32)
            self._eq = np.empty(2 * n, np.float64)
        w = self.w
        play_equities(after, over, self._x, self._p, w.w1, w.b1, w.w2, w.b2, w.act, self._eq)
        return int(np.argmax(self._eq[:n]))


def gnubg_board(board: np.ndarray) -> list[list[int]]:
    """A :mod:`gammon.movegen` board as gnubg's ``[[opponent], [on roll]]`` 25-count lists."""
    b = board.tolist()
    mine = [max(b[i + 1], 0) for i in range(24)] + [b[25]]
    theirs = [max(-b[24 - i], 0) for i in range(24)] + [-b[0]]
    return [theirs, mine]


def apply_gnubg_move(board: np.ndarray, move: list[int]) -> np.ndarray:
    """Apply a gnubg move list (0-based from/to pairs, 24 = bar, -1 = off); return the flipped result."""
    b = board.astype(np.int64)
    for k in range(0, len(move), 2):
        src, dst = move[k] + 1, move[k + 1] + 1
        if move[k] < 0:
            break
        b[src] -= 1
        if dst > 0:
            if b[dst] == -1:
                b[dst] = 0
                b[0] -= 1
            b[dst] += 1
    return (-b[::-1]).astype(np.int8)


class PubevalChooser:
    """Tesauro's public evaluation function, from GNU Backgammon's ``gnubg_nn``."""

    def __init__(self) -> None:
        import gnubg_nn

        self._best = gnubg_nn.pub_best_move

    def choose(self, board, dice, after, over) -> int:
        if after.shape[0] == 1:
            return 0
        result = apply_gnubg_move(board, self._best(gnubg_board(board), int(dice[0]), int(dice[1])))
        hits = np.flatnonzero((after == result).all(axis=1))
        if hits.size == 0:  # never seen; fall back to the first play rather than crash a long run
            return 0
        return int(hits[0])


class BotChooser:
    """Any :class:`gammon.bots.Bot`."""

    def __init__(self, bot) -> None:
        self.bot = bot

    def choose(self, board, dice, after, over) -> int:
        if after.shape[0] == 1:
            return 0
        position = Position(board)
        play = self.bot.choose_play(position, (int(dice[0]), int(dice[1])))
        result = np.asarray(position.apply(play).board, np.int8)
        return int(np.flatnonzero((after == result).all(axis=1))[0])


def make_opponent(spec: str, seed: int = 0) -> Chooser:
    """The chooser named ``spec``; raises ImportError (or GammonError) when it is unavailable."""
    if spec == "pubeval":
        return PubevalChooser()
    from gammon.bots import load

    return BotChooser(load(spec, seed=seed) if spec == "random" else load(spec))


def play_game(first: Chooser, second: Chooser, rng: np.random.Generator) -> int:
    """One cubeless game; returns the points won by ``first`` (negative if it lost)."""
    players = (first, second)
    board = _START
    turn = 0
    while True:
        d1, d2 = (int(v) for v in rng.integers(1, 7, size=2))
        while turn == 0 and d1 == d2:
            d1, d2 = (int(v) for v in rng.integers(1, 7, size=2))
        after, _, over = generate(board, d1, d2)
        i = players[turn % 2].choose(board, (d1, d2), after, over)
        if over[i]:
            points = int(final_points(after[i]))
            return points if turn % 2 == 0 else -points
        board = after[i]
        turn += 1


@dataclass
class MatchResult:
    """Points per game of the net against one opponent, with its standard error."""

    opponent: str
    games: int
    ppg: float
    stderr: float
    win_rate: float

    def __str__(self) -> str:
        return f"{self.opponent}: {self.ppg:+.3f} ppg ± {1.96 * self.stderr:.3f} (95%), wins {self.win_rate:.1%}, {self.games} games"


def duplicate_match(net: Chooser, opponent: Chooser, games: int, seed: int, name: str = "opponent") -> MatchResult:
    """``games`` games (rounded up to pairs): each dice sequence once with each side moving first.

    The standard error is computed over pairs, the unit that duplicate dice make independent.
    """
    pairs = max(1, (games + 1) // 2)
    totals = []
    wins = 0
    for k in range(pairs):
        state = np.random.default_rng([seed, k]).bit_generator.state
        rng = np.random.default_rng()
        rng.bit_generator.state = state
        a = play_game(net, opponent, rng)
        rng.bit_generator.state = state
        b = -play_game(opponent, net, rng)
        totals.append((a + b) / 2.0)
        wins += (a > 0) + (b > 0)
    values = np.asarray(totals, np.float64)
    sd = float(values.std(ddof=1)) if pairs > 1 else 0.0
    return MatchResult(name, 2 * pairs, float(values.mean()), sd / math.sqrt(pairs), wins / (2 * pairs))
