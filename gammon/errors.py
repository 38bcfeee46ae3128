"""Errors raised for bad input. All are ``ValueError`` subclasses whose
message names the offending input."""

from __future__ import annotations


class GammonError(ValueError):
    """Base class of gammon's input errors."""


class InvalidPositionError(GammonError):
    """A board that cannot occur: wrong checker counts, both colours on a point."""


class InvalidPositionIdError(GammonError):
    """A string that is not a GNU Backgammon Position ID."""


class InvalidMatchIdError(GammonError):
    """A string that is not a GNU Backgammon Match ID."""


class PlayNotationError(GammonError):
    """Text that cannot be read as a play (``24/18 13/11``)."""


class IllegalPlayError(GammonError):
    """A play that the rules do not allow in this position with these dice."""


class InvalidDiceError(GammonError):
    """Dice that are not two integers from 1 to 6."""


class GameOverError(GammonError):
    """A move asked of a position whose game has ended."""


class MatchError(GammonError):
    """Bad match input (rules, a starting state) or a player breaking the protocol."""


def is_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C: a :class:`KeyboardInterrupt`, or the :class:`SystemError` (a chain of
    them) that compiled (numba) code turns one into when the signal arrives while it runs.

    >>> wrapped = SystemError("returned a result with an exception set")
    >>> wrapped.__cause__ = KeyboardInterrupt()
    >>> is_interrupt(KeyboardInterrupt()), is_interrupt(wrapped), is_interrupt(SystemError("x"))
    (True, True, False)
    """
    seen: BaseException | None = exc
    while isinstance(seen, SystemError):
        seen = seen.__cause__
    return isinstance(seen, KeyboardInterrupt)
