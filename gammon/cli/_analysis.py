"""What ``gammon hint`` and ``gammon rollout`` share: reading a position (and Match ID) and loading the network."""

from __future__ import annotations

from gammon.bots import load as load_bot
from gammon.bots.neural import NeuralBot
from gammon import position_input
from gammon.cli import CommandError
from gammon.ids import MatchState
from gammon.position import Position


def read_position(text: str, match_id: str | None) -> tuple[Position, MatchState | None]:
    """A Position ID, GNU Backgammon's ``POSITIONID:MATCHID`` pair or an XGID (:func:`gammon.position_input.read_position`),
    with an optional separate Match ID; a finished game is refused.

    >>> position, match = read_position("4HPwATDgc/ABMA:cAkAAAAAAAAA", None)
    >>> position == Position.initial(), match.match_length
    (True, 0)
    """
    position, match = position_input.read_position(text, match_id)
    if position.is_game_over():
        raise CommandError(f"position {text.strip()!r} is a finished game: there is nothing to analyse")
    return position, match


def load_network(spec: str) -> NeuralBot:
    """The neural bot of ``--bot`` (``td``, a model file); other bots cannot value positions."""
    bot = load_bot(spec)
    if not isinstance(bot, NeuralBot):
        raise CommandError(f"invalid --bot {spec!r}: analysis needs a network (td or a model file)")
    return bot


def check_plies(text: str) -> int:
    """``--plies``: 0, 1 or 2."""
    if text not in ("0", "1", "2"):
        raise CommandError(f"invalid --plies {text!r}: expected 0, 1 or 2")
    return int(text)
