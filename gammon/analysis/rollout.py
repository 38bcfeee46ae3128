"""Monte Carlo rollouts with the network: a position before its roll, or each candidate play of a roll.

Each trial plays the game out with the network choosing every play at 0-ply
(:func:`gammon.engine.search.best_play`), or at 1 or 2 plies as the neural
bot searches (``plies``), for both sides, cubeless.

* **Stratified dice**: trial ``k`` starts with roll ``k mod 36`` of the 36
  ordered rolls, and its second roll is roll ``(k + k // 36) mod 36``: each
  chunk of 36 trials sees every roll once at both of the first two turns,
  and 1296 trials cover every pair of first two rolls exactly once; later
  rolls come from a generator seeded with ``(seed, chunk)``, where chunk ``c`` holds the
  trials ``36c .. 36c + 35``. A rollout is therefore the same whatever the
  number of workers, and each candidate play of a roll sees the same dice.
* **Variance reduction** (on by default): at every turn the network's own
  luck estimate is subtracted, as GNU Backgammon does at 0-ply: the five
  probabilities (for the root side) after the best play of the roll thrown
  less their average over all 21 rolls. The luck has mean zero under the
  dice whatever the evaluator, so the estimate stays unbiased; the
  evaluator's quality only decides how much variance goes.
* **Truncation** at ``truncate`` plies (half-moves; 0: play to the end): the
  position reached is valued by the network at 0-ply.

Results are the mean of the per-trial (corrected) probabilities, their
cubeless money equity and 95% intervals (1.96 standard errors; the
stratification makes them conservative).

>>> from gammon import Position
>>> from gammon.net import Architecture, Weights
>>> from gammon.bots.neural import NeuralBot
>>> bot = NeuralBot(Weights.zeros(Architecture(hidden=4)))
>>> sure = Position.from_checkers({1: 2}, {24: 3})       # any roll bears off both checkers
>>> r = rollout(sure, bot.evaluator, trials=36, seed=1)
>>> r.probabilities.tolist(), r.equity, r.trials
([1.0, 0.0, 0.0, 0.0, 0.0], 1.0, 36)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from gammon.bots.neural import searched_equities
from gammon.engine.analysis import ROLLS
from gammon.engine.network import evaluate_batch
from gammon.engine.search import best_play
from gammon.net import Evaluator, Weights
from gammon.outcomes import OUTPUTS, equity, flip, game_result, sanitize, won_probs
from gammon.position import Dice, Position

__all__ = ["CHUNK", "RolloutResult", "RolloutWorker", "rollout", "rollout_plays", "run_chunk"]

#: Trials per unit of work: one full turn of the 36 first rolls.
CHUNK = 36
#: The 36 ordered rolls, in the order of the stratification.
ALL_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
_Z95 = 1.96
_ROLL_INDEX = {roll: r for r, (roll, _) in enumerate(ROLLS)}
_WEIGHTS = np.array([w for _, w in ROLLS], np.float64)


@dataclass(frozen=True)
class RolloutResult:
    """A rollout's estimate for one side: the five probabilities, the cubeless equity, their 95% half-widths."""

    probabilities: np.ndarray
    probabilities_ci: np.ndarray
    equity: float
    equity_ci: float
    trials: int
    play: str | None = None
    settings: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        out = {"play": self.play} if self.play is not None else {}
        return out | {
            "trials": self.trials,
            "equity": self.equity,
            "equity_ci95": self.equity_ci,
            "probabilities": dict(zip(OUTPUTS, self.probabilities.tolist())),
            "probabilities_ci95": dict(zip(OUTPUTS, self.probabilities_ci.tolist())),
        }

    @classmethod
    def from_trials(cls, values: np.ndarray, play: str | None = None, settings: dict | None = None) -> RolloutResult:
        """Summarise per-trial probabilities ((n, 5), one side's view)."""
        values = np.asarray(values, np.float64)
        n = values.shape[0]
        eq = equity(values)
        if n > 1:
            p_ci = _Z95 * values.std(axis=0, ddof=1) / np.sqrt(n)
            e_ci = float(_Z95 * eq.std(ddof=1) / np.sqrt(n))
        else:
            p_ci, e_ci = np.full(5, np.inf), float("inf")
        return cls(values.mean(axis=0), p_ci, float(eq.mean()), e_ci, n, play, dict(settings or {}))

    def flipped(self, play: str | None = None) -> RolloutResult:
        """The same estimate seen by the other side."""
        swap = [0, 3, 4, 1, 2]
        return RolloutResult(flip(self.probabilities), self.probabilities_ci[swap], -self.equity, self.equity_ci,
                             self.trials, play, self.settings)


# -- one trial -------------------------------------------------------------------------------


class _Net:
    """The evaluator and scratch buffer of one process's trials."""

    def __init__(self, evaluator: Evaluator | Weights) -> None:
        self.args = Evaluator.of(evaluator).kernel_args()
        self._p = np.empty((21, 5), np.float32)
        self.plies = 0  # the depth the checker plays are chosen at (set per chunk)

    def play(self, board: np.ndarray, d1: int, d2: int) -> tuple[np.ndarray, bool]:
        """The network's play of ``d1, d2`` at :attr:`plies`: the 0-ply best, or the best of the 8 best 0-ply
        plays (within 0.16) searched 1 or 2 plies deep, as :class:`~gammon.bots.neural.NeuralBot` plays."""
        after, over, i, _ = best_play(board, d1, d2, self.args)
        if self.plies == 0 or after.shape[0] == 1 or over[i]:
            return after[i], bool(over[i])
        best = int(np.argmax(searched_equities(board, after, over, self.args, self.plies)))
        return after[best], bool(over[best])

    def on_roll(self, boards: np.ndarray) -> np.ndarray:
        """0-ply probabilities of the side on roll in each of ``boards`` ((n, 26), n <= 21)."""
        n = boards.shape[0]
        evaluate_batch(np.ascontiguousarray(boards, np.int8), self.args, self._p[:n])
        return sanitize(self._p[:n].astype(np.float64))

    def mover(self, after: np.ndarray, over: bool) -> np.ndarray:
        """Probabilities of the side that just moved into ``after``."""
        if over:
            return won_probs(int(game_result(after)))
        return flip(self.on_roll(after.reshape(1, 26))[0])


def _turn(net: _Net, board: np.ndarray, roll: Dice, reduce: bool) -> tuple[np.ndarray, bool, np.ndarray | None]:
    """The network's play of ``roll``: (board after, game over, the mover's luck or None)."""
    d1, d2 = roll
    if not reduce:
        after, over = net.play(board, d1, d2)
        return after, over, None
    rows, overs = [], []
    for (a, b), _ in ROLLS:
        after, over, i, _ = best_play(board, a, b, net.args)
        rows.append(after[i])
        overs.append(bool(over[i]))
    boards = np.stack(rows)
    mine = np.empty((21, 5))
    live = [r for r in range(21) if not overs[r]]
    if live:
        mine[live] = flip(net.on_roll(np.ascontiguousarray(boards[live])))
    for r in range(21):
        if overs[r]:
            mine[r] = won_probs(int(game_result(boards[r])))
    thrown = _ROLL_INDEX[(max(d1, d2), min(d1, d2))]
    luck = mine[thrown] - _WEIGHTS @ mine / 36.0  # at 0-ply: its mean over the rolls is 0 whatever is played
    if net.plies:
        after, over = net.play(board, d1, d2)
        return after, over, luck
    return boards[thrown], overs[thrown], luck


def _trial(net: _Net, board: np.ndarray, first: Dice, second: Dice, rng: np.random.Generator,
           truncate: int, reduce: bool) -> np.ndarray:
    """One game from ``board`` (side on roll = the root): the root's five probabilities, less the luck."""
    root_on_roll = True
    luck = np.zeros(5)
    ply = 0
    while True:
        if truncate and ply == truncate:
            p = net.on_roll(board.reshape(1, 26))[0]
            result = p if root_on_roll else flip(p)
            break
        roll = first if ply == 0 else second if ply == 1 else tuple(int(d) for d in rng.integers(1, 7, size=2))
        board, over, mover_luck = _turn(net, board, roll, reduce)
        if mover_luck is not None:
            # flip is affine; a difference of probabilities flips with its linear part.
            luck += mover_luck if root_on_roll else mover_luck[[0, 3, 4, 1, 2]] * np.array([-1, 1, 1, 1, 1])
        if over:
            won = won_probs(int(game_result(board)))
            result = won if root_on_roll else flip(won)
            break
        root_on_roll = not root_on_roll
        ply += 1
    return result - luck


def run_chunk(net: _Net, board: np.ndarray, chunk: int, trials: int, seed: int, truncate: int, reduce: bool) -> np.ndarray:
    """The per-trial results ((m, 5)) of chunk ``chunk`` of a rollout of ``trials`` trials."""
    rng = np.random.default_rng([seed, chunk])
    start, stop = chunk * CHUNK, min((chunk + 1) * CHUNK, trials)
    out = np.empty((stop - start, 5))
    for j, k in enumerate(range(start, stop)):
        first, second = ALL_ROLLS[k % 36], ALL_ROLLS[(k + k // 36) % 36]
        out[j] = _trial(net, board, first, second, rng, truncate, reduce)
    return out


class RolloutWorker:
    """A runner worker (:mod:`gammon.runners`): built with the evaluator, runs chunks of trials."""

    def __init__(self, evaluator: Evaluator | Weights) -> None:
        self.net = _Net(evaluator)

    def run(self, payload: tuple) -> np.ndarray:
        board, chunk, trials, seed, truncate, reduce, plies = payload
        self.net.plies = plies
        return run_chunk(self.net, np.frombuffer(board, np.int8).copy(), chunk, trials, seed, truncate, reduce)


# -- rollouts ------------------------------------------------------------------------------


def _check(trials: int, truncate: int, seed: int, plies: int = 0) -> None:
    for name, value, least in (("trials", trials, 1), ("truncate", truncate, 0), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"invalid {name} {value!r}: expected an integer of at least {least}")
    if plies not in (0, 1, 2) or isinstance(plies, bool):
        raise ValueError(f"invalid plies {plies!r}: expected 0, 1 or 2")


def _settings(trials: int, truncate: int, seed: int, reduce: bool, plies: int = 0) -> dict:
    return {"trials": trials, "truncate": truncate, "seed": seed, "variance_reduction": reduce, "plies": plies}


def rollout_plays(
    position: Position,
    weights: Evaluator | Weights,
    dice: Dice | None = None,
    candidates: list | None = None,
    *,
    trials: int = 1296,
    truncate: int = 0,
    seed: int = 0,
    variance_reduction: bool = True,
    plies: int = 0,
    runner=None,
    progress: Callable[[int], None] | None = None,
) -> list[RolloutResult]:
    """Roll out ``position`` before its roll (``dice`` None: one result, for the player on roll) or each play of
    ``candidates`` (legal plays of ``dice``; default all) for the player who moves, best first.

    ``plies`` (0, 1, 2) is the depth every checker play of the trials is
    chosen at (the luck estimate stays at 0-ply: its mean over the rolls is
    zero whatever is played, so it still removes only noise). ``runner`` is
    a :mod:`gammon.runners` runner of :class:`RolloutWorker` (None: this
    process); ``progress`` is called with the trials of each chunk done.
    """
    _check(trials, truncate, seed, plies)
    settings = _settings(trials, truncate, seed, variance_reduction, plies)
    if dice is None:
        if position.is_game_over():
            raise ValueError(f"position {position.position_id()} is a finished game")
        starts, labels = [position], [None]
    else:
        plays = list(position.legal_plays(dice)) if candidates is None else list(candidates)
        starts, labels = [position.apply(p) for p in plays], [str(p) for p in plays]
    chunks = -(-trials // CHUNK)
    payloads = [(bytes(np.ascontiguousarray(s.board, np.int8)), c, trials, seed, truncate, variance_reduction, plies)
                for s in starts if not s.is_game_over() for c in range(chunks)]
    if runner is None:
        worker = RolloutWorker(weights)
        done = (worker.run(p) for p in payloads)
    else:
        done = runner.map(payloads)
    results, it = [], iter(done)
    for start, label in zip(starts, labels):
        if start.is_game_over():
            exact = np.tile(won_probs(start.result()), (trials, 1))
            results.append(RolloutResult.from_trials(exact, label, settings))
            continue
        parts = []
        for _ in range(chunks):
            part = next(it)
            parts.append(part)
            if progress is not None:
                progress(len(part))
        on_roll = RolloutResult.from_trials(np.concatenate(parts), None, settings)
        results.append(on_roll if dice is None else on_roll.flipped(label))
    if dice is not None:
        results.sort(key=lambda r: -r.equity)
    return results


def rollout(position: Position, weights: Evaluator | Weights, **options) -> RolloutResult:
    """:func:`rollout_plays` of ``position`` before its roll: the estimate for the player on roll."""
    return rollout_plays(position, weights, None, **options)[0]
