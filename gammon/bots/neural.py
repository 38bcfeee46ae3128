"""The neural bot: a TD-Gammon network searching 0, 1 or 2 plies.

* 0-ply: every legal play is scored by the network in one batch and the
  best cubeless equity wins.
* 1-ply: each play is valued by averaging, over the opponent's 21 rolls
  (weighted out of 36), the opponent's best 0-ply reply.
* 2-ply: as GNU Backgammon does, for each of the opponent's 21 rolls the
  reply is chosen at 0-ply and then valued at 1-ply.

In a match (``choose_match_play``, which the match runner calls with the
bot's :class:`~gammon.cube.CubeState`) the bot chooses by match-winning
chances instead: the five probabilities after each play, searched as deep
as the bot searches (:meth:`NeuralBot.probabilities`), turned into MWC at
the score and cube by :func:`gammon.matchplay.mwc_after` (cubeful, GNU
Backgammon's generalised Janowski model). At 1 and 2 plies the ``prune``
plays with the best 0-ply MWC are searched; the replies inside the search
are chosen by cubeless equity, as in money play. ``match_aware=False``
turns that off.

Deeper searches first prune the plays with the 0-ply network (at most
``prune`` plays within ``margin`` equity of the best, like GNU Backgammon's
move filters). Cube decisions feed the network's probabilities to
:func:`gammon.cube.decide`, searched ``cube_plies`` deep (default: as deep
as the checker play, at most 1 ply).

``load_neural("td")`` loads the shipped model, the strongest
(``models/td-ensemble.pt``, also ``"td-ensemble"``); ``"td1"`` the first
(``models/td.pt``, one net, ``configs/td.toml``), ``"td2"`` the phase-net
model (``models/td2.pt``: contact and race nets and the bear-off database,
``configs/td2.toml``); any other spec is a path to a model file written by
``gammon train``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from gammon import resources
from gammon.cube import CubeState, cube_decision
from gammon.matchplay import mwc_after
from gammon.engine.cache import refresh
from gammon.engine.network import evaluate_batch, play_equities, play_probabilities
from gammon.engine.search import deep_equities, probabilities_1ply, probabilities_2ply
from gammon.net import Evaluator, Model, ModelFileError, Weights, load_model
from gammon.outcomes import sanitize
from gammon.play import Play
from gammon.position import Dice, Position

# -- search ---------------------------------------------------------------------------
# -- the bot ----------------------------------------------------------------------------


class NeuralBot:
    """A player backed by a trained network.

    >>> from gammon import Position
    >>> from gammon.net import Architecture, Weights
    >>> bot = NeuralBot(Weights.zeros(Architecture(hidden=4)), plies=1)
    >>> bot.choose_play(Position.initial(), (3, 1)) in Position.initial().legal_plays((3, 1))
    True
    """

    def __init__(
        self, evaluator: Evaluator | Weights, plies: int = 0, *, name: str = "td", prune: int = 8, margin: float = 0.16,
        match_aware: bool = True, cube_plies: int | None = None
    ) -> None:
        if plies not in (0, 1, 2):
            raise ValueError(f"plies must be 0, 1 or 2, not {plies!r}")
        if cube_plies not in (None, 0, 1, 2):
            raise ValueError(f"cube_plies must be 0, 1 or 2, not {cube_plies!r}")
        refresh()
        self.evaluator = Evaluator.of(evaluator)
        self.plies = plies
        self.prune = prune
        self.margin = margin
        self.match_aware = bool(match_aware)
        #: the depth of the probabilities behind its cube decisions (default: its search depth, at most 1)
        self.cube_plies = min(plies, 1) if cube_plies is None else cube_plies
        self.name = name if plies == 0 else f"{name}-{plies}ply"
        self._net = self.evaluator.kernel_args()

    @property
    def weights(self) -> Weights:
        """The contact net's weights (the only net of a version-1 model)."""
        return self.evaluator.contact

    def reseed(self, seed: int | None) -> None:
        """Nothing to reseed: the bot is deterministic (the arena calls this per game)."""

    # -- checker play ---------------------------------------------------------------

    def play_equities(self, position: Position, dice: Dice, plies: int | None = None) -> tuple[list[Play], np.ndarray]:
        """Every legal play with the mover's cubeless equity after it; unsearched plays get -inf at 1+ ply."""
        plies = self.plies if plies is None else plies
        plays = position.legal_plays(dice)
        after = plays.after
        over = (after >= 0).all(axis=1)
        return list(plays), searched_equities(position.board, after, over, self._net, plies, self.prune, self.margin)

    def choose_play(self, position: Position, dice: Dice) -> Play:
        plays, eq = self.play_equities(position, dice)
        return plays[int(np.argmax(eq))]

    def play_probabilities(self, position: Position, dice: Dice) -> tuple[list[Play], np.ndarray]:
        """Every legal play with the 0-ply cubeless probabilities ((n, 5)) of the opponent, on roll after it."""
        plays = position.legal_plays(dice)
        after = plays.after
        over = (after >= 0).all(axis=1)
        probs = np.empty((len(plays), 5), np.float32)
        play_probabilities(position.board, after, over, self._net, probs)
        return list(plays), probs

    def play_mwcs(self, position: Position, dice: Dice, cube: CubeState, plies: int | None = None) -> tuple[list[Play], np.ndarray]:
        """Every legal play with the mover's MWC after it at ``cube``'s score (:func:`gammon.matchplay.mwc_after`),
        ``plies`` (default the bot's) deep; unsearched plays get -inf at 1+ ply."""
        plies = self.plies if plies is None else plies
        plays, probs = self.play_probabilities(position, dice)
        afters = [position.apply(play) for play in plays]
        mwc = mwc_after(afters, probs, cube)
        if plies == 0 or len(plays) == 1:
            return plays, mwc
        deep = np.full(len(plays), -np.inf)
        for i in np.argsort(-mwc, kind="stable")[: self.prune]:
            if afters[i].is_game_over():
                deep[i] = mwc[i]
            else:
                searched = self.probabilities(afters[i], plies).reshape(1, 5)
                deep[i] = mwc_after([afters[i]], searched, cube)[0]
        return plays, deep

    def choose_match_play(self, position: Position, dice: Dice, cube: CubeState) -> Play:
        """:meth:`choose_play` knowing the match: the best MWC in a match, else as in money play."""
        if cube.match_length == 0 or not self.match_aware:
            return self.choose_play(position, dice)
        plays, mwc = self.play_mwcs(position, dice, cube)
        return plays[int(np.argmax(mwc))]

    # -- evaluation and cube --------------------------------------------------------------

    def probabilities(self, position: Position, plies: int = 0) -> np.ndarray:
        """Cubeless outcome probabilities for the player on roll, before the roll, ``plies`` (0, 1, 2) deep.

        At 1 and 2 plies: for each of the 21 rolls the play chosen at 0-ply,
        its position valued one ply less deep, weighted out of 36 (the
        search of :func:`gammon.engine.search.value_2ply` on probabilities).
        """
        if plies not in (0, 1, 2):
            raise ValueError(f"plies must be 0, 1 or 2, not {plies!r}")
        board = np.ascontiguousarray(position.board, np.int8).reshape(1, 26)
        if plies == 0:
            p = np.empty((1, 5), np.float32)
            evaluate_batch(board, self._net, p)
            return sanitize(p[0])
        out = np.empty(5, np.float64)
        (probabilities_1ply if plies == 1 else probabilities_2ply)(board[0], self._net, out)
        return out

    def offer_double(self, position: Position, cube: CubeState) -> bool:
        if not cube.may_double():
            return False
        probs = self.probabilities(position, self.cube_plies)
        return cube_decision(probs, position, cube, deciding_on_roll=True).action == "double"

    def accept_double(self, position: Position, cube: CubeState) -> bool:
        # ``position`` has the doubler on roll.
        probs = self.probabilities(position, self.cube_plies)
        return cube_decision(probs, position, cube, deciding_on_roll=False).response in ("take", "beaver")


def searched_equities(board: np.ndarray, after: np.ndarray, over: np.ndarray, ev: tuple, plies: int,
                      prune: int = 8, margin: float = 0.16) -> np.ndarray:
    """The mover's equity after each of a roll's plays ``after`` (``over``: game-ending) on ``board``, ``plies`` deep.

    0-ply: every play by the incremental evaluation. 1 and 2 plies: the
    ``prune`` best 0-ply plays within ``margin`` of the best searched deeper
    (GNU Backgammon's move filter), the others -inf. ``ev``: the kernels' evaluator tuple.
    """
    eq = np.empty(after.shape[0], np.float64)
    play_equities(board, after, over, ev, eq)
    if plies == 0 or after.shape[0] == 1:
        return eq
    order = np.argsort(-eq, kind="stable")[:prune]
    keep = order[eq[order] >= eq.max() - margin]
    deep = np.full(after.shape[0], -np.inf)
    deep_equities(after, over, keep, plies, ev, deep)
    return deep


# -- loading ------------------------------------------------------------------------------

_cache: dict[tuple[str, float], Model] = {}


def shipped_model_path() -> Path:
    """The model file ``"td"`` names: ``GAMMON_TD_MODEL`` if set, else the one shipped in the package."""
    override = os.environ.get("GAMMON_TD_MODEL")
    if override:
        return Path(override)
    path = resources.shipped_model_path()
    if not path.is_file():
        raise ModelFileError(f"the shipped model {path} is missing; train one with `gammon train` or set GAMMON_TD_MODEL")
    return path


def load_model_cached(path: str | os.PathLike) -> Model:
    """:func:`gammon.net.load_model`, remembered per file and modification time."""
    path = str(path)
    try:
        key = (os.path.abspath(path), os.path.getmtime(path))
    except OSError:
        raise ModelFileError(f"model file not found: {path!r}") from None
    if key not in _cache:
        _cache[key] = load_model(path)
    return _cache[key]


def load_neural(
    spec: str, plies: int = 0, *, prune: int = 8, margin: float = 0.16, match_aware: int = 1,
    cube_plies: int | None = None, **options: Any
) -> NeuralBot:
    """The neural bot for ``spec``: ``"td"`` (the shipped model) or a model file path.

    ``options`` such as ``seed`` are accepted for a uniform bot interface; the
    bot is deterministic. ``match_aware=0`` (``td:match_aware=0``) plays a
    match by cubeless equity, as in money play. ``cube_plies`` (``td:cube_plies=1``)
    sets the depth of its cube decisions apart from its checker play's.
    """
    if spec == "td":
        path = shipped_model_path()
    elif spec in resources.SHIPPED_MODELS:
        path = resources.shipped_model_path(spec)
        if not path.is_file():
            raise ModelFileError(f"the shipped model {path} is missing")
    else:
        path = Path(spec)
    model = load_model_cached(path)
    name = spec if spec in resources.SHIPPED_MODELS else Path(spec).stem
    return NeuralBot(model.evaluator(), int(plies), name=name, prune=prune, margin=margin, match_aware=bool(match_aware),
                     cube_plies=None if cube_plies is None else int(cube_plies))
