"""The one protocol every player kind implements: heuristic, neural, human, external engines.

It sits below the match runner (:mod:`gammon.match` imports it, never the
other way round); the cube state a player is shown is :class:`gammon.cube.CubeState`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from gammon.play import Play
from gammon.position import Dice, Position

if TYPE_CHECKING:  # pragma: no cover
    from gammon.cube import CubeState


@runtime_checkable
class Bot(Protocol):
    """A player. ``choose_play`` must return one of ``position.legal_plays(dice)``.

    Cube hooks see the position as it stands before the doubler rolls (the
    doubler on roll) and a :class:`~gammon.cube.CubeState` from the deciding
    bot's side: ``offer_double`` is asked of the player on roll,
    ``accept_double`` of the other player (a bot decides with
    :func:`gammon.cube.cube_decision`).

    Optional hooks that :mod:`gammon.match` calls when a player has them:
    ``choose_match_play(position, dice, cube) -> Play``, asked instead of
    ``choose_play`` with the mover's :class:`~gammon.cube.CubeState` (the
    match score, cube value and owner, Crawford: how a player learns the
    match situation for its checker play; the neural bot uses it to play
    by match-winning chances, :mod:`gammon.matchplay`),
    ``observe(action, table)``, ``offer_resignation(position, cube) -> 0..3``,
    ``accept_resignation(position, value, cube) -> bool`` and
    ``beaver(position, cube) -> bool``.

    A player that plays no cube (it never doubles and always takes, like
    ``random`` and ``pubeval``) says so in a class attribute ``cube_note``,
    e.g. ``"no cube (never doubles, always takes)"``; the arena reports it
    with every result played with the cube (:func:`gammon.arena.stats.cube_notes`).
    """

    name: str

    def choose_play(self, position: Position, dice: Dice) -> Play: ...

    def offer_double(self, position: Position, cube: CubeState) -> bool: ...

    def accept_double(self, position: Position, cube: CubeState) -> bool: ...
