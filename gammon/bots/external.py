"""Public reference opponents through the optional ``gnubg-nn`` package (``pip install gammon[gnubg]``).

* ``pubeval``: Tesauro's public evaluation function, the classic benchmark
  opponent; it scores every legal play and picks the best. It has no cube:
  it never doubles and always takes, and says so in ``cube_note``.
* ``gnubg``: GNU Backgammon's neural network at 0 ply, for its plays and its
  cube: GNU Backgammon's 0-ply cubeless probabilities for the position
  (``gnubg_nn.probabilities(board, 0)``) fed to :func:`gammon.cube.cube_decision`,
  which gives GNU Backgammon's 0-ply cube analysis on those probabilities
  (``tests/test_cube.py``): money and match play, Crawford and
  post-Crawford, ownership, the cube cap, the Jacoby rule and beavers.
  (gnubg-nn's own ``evaluate_cube_decision`` is not used: it refuses money
  play.) Its checker play is ``gnubg_nn.best_move`` in money play; in a
  match, as GNU Backgammon chooses at the score, the play whose resulting
  position has the best cubeful MWC (:func:`gammon.matchplay.mwc_after`)
  from GNU Backgammon's 0-ply probabilities there, not its money play.

Either bot's choice is mapped back to one of our :class:`~gammon.play.Play`
objects by the resulting position, so it is always one of
``position.legal_plays(dice)``. Both are deterministic.

GNU Backgammon's board is two lists of 25 counts, ``[opponent, player on
roll]``, each from its owner's side: index 0 is the ace point, 24 the bar.
"""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import Any

import numpy as np

from gammon.cube import CubeDecision, CubeState, cube_decision
from gammon.matchplay import mwc_after
from gammon.outcomes import lost_probs, results
from gammon.errors import GammonError
from gammon.play import Play
from gammon.position import Dice, Position

_POINTS = np.arange(1, 25)


class MissingExtraError(GammonError):
    """An optional dependency is not installed."""


def _gnubg_nn() -> ModuleType:
    try:
        import gnubg_nn
    except ImportError:
        raise MissingExtraError(
            "the pubeval and gnubg opponents need the optional gnubg-nn package: pip install gammon[gnubg]"
        ) from None
    return gnubg_nn


def gnubg_boards(boards: np.ndarray) -> np.ndarray:
    """Our boards ``(n, 26)`` (player on roll's view) as GNU Backgammon boards ``(n, 2, 25)``.

    >>> b = gnubg_boards(Position.initial().board[None, :])
    >>> b[0, 1, :].tolist() == b[0, 0, :].tolist() == [0, 0, 0, 0, 0, 5, 0, 3] + [0] * 4 + [5] + [0] * 10 + [2, 0]
    True
    """
    boards = np.asarray(boards, dtype=np.int64).reshape(-1, 26)
    out = np.zeros((boards.shape[0], 2, 25), np.int64)
    out[:, 1, :24] = np.maximum(boards[:, 1:25], 0)
    out[:, 1, 24] = boards[:, 25]
    out[:, 0, :24] = np.maximum(-boards[:, 24:0:-1], 0)
    out[:, 0, 24] = -boards[:, 0]
    return out


def from_gnubg_board(board: Any) -> np.ndarray:
    """The inverse of :func:`gnubg_boards` for one board: ``[[opponent], [on roll]]`` to our 26 cells.

    >>> start = Position.initial().board
    >>> bool((from_gnubg_board(gnubg_boards(start[None, :])[0]) == start).all())
    True
    """
    theirs, mine = (np.asarray(side, dtype=np.int64) for side in board)
    out = np.zeros(26, np.int64)
    out[1:25] = mine[:24] - theirs[23::-1]
    out[25] = mine[24]
    out[0] = -theirs[24]
    return out.astype(np.int8)


class _GnubgNNBot:
    """What both gnubg-nn players share: they need the extra."""

    def __init__(self, seed: int | None = None) -> None:
        _gnubg_nn()  # fail now, not at the first move


class PubevalBot(_GnubgNNBot):
    """Tesauro's pubeval: the legal play whose resulting position pubeval scores highest.

    Each resulting position goes to ``gnubg_nn.pub_eval_score`` as GNU
    Backgammon lays it out after the turn, ``[player who moved, player on
    roll]``, which is how that function scores the mover's result. (gnubg-nn's
    own ``pub_best_move`` picks a different play in a few percent of
    positions, mostly with a checker on the bar; this bot is the classic
    "score every play" form.)
    """

    name = "pubeval"
    #: pubeval scores plays only; it has no notion of the cube.
    cube_note = "no cube (never doubles, always takes)"

    def offer_double(self, position: Position, cube: CubeState) -> bool:
        return False

    def accept_double(self, position: Position, cube: CubeState) -> bool:
        return True

    def choose_play(self, position: Position, dice: Dice) -> Play:
        plays = position.legal_plays(dice)
        if len(plays) == 1:
            return plays[0]
        won = results(plays.after)
        if won.max() > 0:  # pubeval does not score finished games
            return plays[int(np.argmax(won))]
        score = _gnubg_nn().pub_eval_score
        scores = [score(b) for b in gnubg_boards(plays.after).tolist()]
        return plays[int(np.argmax(scores))]


class GnubgBot(_GnubgNNBot):
    """GNU Backgammon's 0-ply neural network choice, for the plays and the cube.

    The cube hooks see the position with the doubler on roll, which is the
    side ``gnubg_nn.probabilities`` answers for; the :class:`CubeState` is
    the deciding bot's, as :func:`~gammon.cube.cube_decision` expects.

    Given: a money game, centred cube, the doubler 18 pips to bear off against 300
    When: the gnubg bot is doubled
    Then: it passes

    >>> from gammon.cube import CubeState
    >>> race = Position.from_checkers({1: 3, 2: 3, 3: 3}, {4: 5, 5: 5, 6: 5})
    >>> GnubgBot().accept_double(race, CubeState())
    False
    """

    name = "gnubg"

    def probabilities(self, position: Position) -> tuple[float, float, float, float, float]:
        """GNU Backgammon's 0-ply cubeless probabilities for the player on roll (win, wg, wbg, lg, lbg)."""
        board = gnubg_boards(position.board[None, :])[0].tolist()
        w, wg, wbg, lg, lbg = _gnubg_nn().probabilities(board, 0)
        return (w, wg, wbg, lg, lbg)

    def cube_decision(self, position: Position, cube: CubeState, *, deciding_on_roll: bool) -> CubeDecision:
        """GNU Backgammon's 0-ply cube decision for the doubler on roll in ``position``."""
        return cube_decision(self.probabilities(position), position, cube, deciding_on_roll=deciding_on_roll)

    def offer_double(self, position: Position, cube: CubeState) -> bool:
        if not cube.may_double():
            return False
        return self.cube_decision(position, cube, deciding_on_roll=True).action == "double"

    def accept_double(self, position: Position, cube: CubeState) -> bool:
        return self.cube_decision(position, cube, deciding_on_roll=False).response in ("take", "beaver")

    def beaver(self, position: Position, cube: CubeState) -> bool:
        """Whether to beaver, asked after a take in money play (``cube`` is after the take: doubled, ours).

        The beaver depends only on the doubled cube's equity, not on who
        held the cube before, so the double is looked at as from the centre.
        """
        before = replace(cube, cube=max(1, cube.cube // 2), owner="centre")
        return self.cube_decision(position, before, deciding_on_roll=False).response == "beaver"

    def play_probabilities(self, position: Position, dice: Dice) -> tuple[list[Play], np.ndarray]:
        """Every legal play with GNU Backgammon's 0-ply cubeless probabilities ((n, 5)) of the opponent, on
        roll after it; a game-ending play gets the loser's exact outcome."""
        plays = position.legal_plays(dice)
        probabilities = _gnubg_nn().probabilities
        won = results(plays.after)
        probs = np.array([lost_probs(int(points)) if points else probabilities(board, 0)
                          for points, board in zip(won, gnubg_boards(plays.after).tolist())], np.float64)
        return list(plays), probs.reshape(-1, 5)

    def choose_match_play(self, position: Position, dice: Dice, cube: CubeState) -> Play:
        """GNU Backgammon's 0-ply play at the score: the best cubeful MWC after it (money play: :meth:`choose_play`)."""
        if cube.match_length == 0:
            return self.choose_play(position, dice)
        plays, probs = self.play_probabilities(position, dice)
        if len(plays) == 1:
            return plays[0]
        return plays[int(np.argmax(mwc_after([position.apply(play) for play in plays], probs, cube)))]

    def choose_play(self, position: Position, dice: Dice) -> Play:
        plays = position.legal_plays(dice)
        if len(plays) == 1:
            return plays[0]
        g = _gnubg_nn()
        board = gnubg_boards(position.board[None, :])[0].tolist()
        _, key = g.best_move(board, int(dice[0]), int(dice[1]), b=1)
        # best_move's key is the resulting board turned round, the opponent on roll,
        # which is how our ``after`` boards are seen.
        target = from_gnubg_board(g.board_from_position_key(key))
        found = np.flatnonzero((plays.after == target).all(axis=1))
        if found.size:
            return plays[int(found[0])]
        raise GammonError(f"gnubg chose a play outside our legal plays in {position.position_id()} with {dice}")


def load_external(spec: str, **options: Any) -> PubevalBot | GnubgBot:
    """``pubeval`` or ``gnubg``; needs ``gnubg-nn`` (:class:`MissingExtraError` otherwise)."""
    if spec == "pubeval":
        return PubevalBot(**options)
    if spec == "gnubg":
        return GnubgBot(**options)
    raise GammonError(f"unknown external bot {spec!r}: expected pubeval or gnubg")


def cubeless_equity(after: np.ndarray) -> np.ndarray:
    """GNU Backgammon's 0-ply cubeless equity of each position in ``after`` for the player who just moved.

    For tuning and checks (one gnubg call per position).
    """
    g = _gnubg_nn()
    out = results(after)
    for i, b in enumerate(gnubg_boards(after).tolist()):
        if sum(b[0]) == 0:
            continue
        w, wg, wbg, lg, lbg = g.probabilities(b, 0)
        out[i] = -(2 * w - 1 + wg - lg + wbg - lbg)
    return out
