"""gammon: a backgammon engine, bots, a TD-Gammon trainer, cube and matches.

>>> from gammon import Position
>>> pos = Position.initial()
>>> print(pos.parse_play("13/11 24/23", (2, 1)))
24/23 13/11
"""

from gammon.errors import (
    GameOverError,
    GammonError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidMatchIdError,
    InvalidPositionError,
    InvalidPositionIdError,
    PlayNotationError,
)
from gammon.ids import MatchState
from gammon.play import Move, Play
from gammon.position import ROLLS, Plays, Position

__all__ = [
    "GameOverError",
    "GammonError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidMatchIdError",
    "InvalidPositionError",
    "InvalidPositionIdError",
    "MatchState",
    "Move",
    "Play",
    "Plays",
    "PlayNotationError",
    "Position",
    "ROLLS",
]
__version__ = "0.1.0"
