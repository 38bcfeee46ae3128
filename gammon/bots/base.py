"""The one protocol every player kind implements: heuristic, neural, human, external engines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from gammon.play import Play
from gammon.position import Dice, Position

if TYPE_CHECKING:
    from gammon.cube import CubeDecision

Owner = Literal["centre", "me", "opponent"]


@dataclass(frozen=True)
class CubeState:
    """The match situation a cube decision sees, from the deciding player's side.

    ``match_length`` 0 is money play; ``score`` is (deciding player, opponent);
    ``owner`` says who holds the cube; ``crawford`` marks the Crawford game;
    ``jacoby`` and ``beavers`` are the money-play options in force.
    """

    cube: int = 1
    owner: Owner = "centre"
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    cube_cap: int = 64
    jacoby: bool = False
    beavers: bool = False

    def may_double(self) -> bool:
        """Whether the deciding player may offer a double now."""
        return (
            not self.crawford
            and self.owner != "opponent"
            and self.cube * 2 <= self.cube_cap
            and not (self.match_length and self.score[0] + self.cube >= self.match_length)
        )


@runtime_checkable
class Bot(Protocol):
    """A player. ``choose_play`` must return one of ``position.legal_plays(dice)``.

    Cube hooks see the position as it stands before the doubler rolls (the
    doubler on roll) and a :class:`CubeState` from the deciding bot's side:
    ``offer_double`` is asked of the player on roll, ``accept_double`` of the
    other player.

    Optional hooks that :mod:`gammon.match` calls when a player has them:
    ``observe(action, table)``, ``offer_resignation(position, cube) -> 0..3``,
    ``accept_resignation(position, value, cube) -> bool`` and
    ``beaver(position, cube) -> bool``.
    """

    name: str

    def choose_play(self, position: Position, dice: Dice) -> Play: ...

    def offer_double(self, position: Position, cube: CubeState) -> bool: ...

    def accept_double(self, position: Position, cube: CubeState) -> bool: ...


def cube_decision(probs: Sequence[float], position: Position, cube: CubeState, *, deciding_on_roll: bool) -> CubeDecision:
    """:func:`gammon.cube.decide` for a bot's cube hook.

    ``probs`` are the cubeless probabilities of the player on roll (the
    doubler); ``cube`` is seen from the deciding bot, which is the doubler
    when ``deciding_on_roll`` and the taker otherwise.

    >>> from gammon import Position
    >>> cube_decision((0.9, 0.0, 0.0, 0.0, 0.0), Position.initial(), CubeState(), deciding_on_roll=False).response
    'pass'
    """
    from gammon.cube import decide, position_efficiency

    swap = {"me": "opponent", "opponent": "me", "centre": "centre"}
    return decide(
        tuple(float(p) for p in probs),
        match_length=cube.match_length,
        score=cube.score if deciding_on_roll else (cube.score[1], cube.score[0]),
        cube=cube.cube,
        owner=cube.owner if deciding_on_roll else swap[cube.owner],
        crawford=cube.crawford,
        cube_efficiency=position_efficiency(position),
        jacoby=cube.jacoby,
        beavers=cube.beavers,
    )
