"""The rules a match is played under, its scoring, and the record of what happened.

:mod:`gammon.match` plays games and matches and writes these records;
:mod:`gammon.matfile` exports them as ``.mat`` files; the terminal and the
tournament show them.

>>> Rules(match_length=7).describe()
'7-point match'
>>> Action(0, "move", dice=(6, 5), moves=(Move(24, 18), Move(18, 13))).describe(("alice", "bob"))
'alice rolls 6-5 and plays 24/13'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gammon.errors import MatchError
from gammon.play import Move, format_moves
from gammon.position import Dice, Position

__all__ = ["RESIGN_NAMES", "Action", "GameRecord", "MatchRecord", "Rules", "points_for"]

#: What a resignation of value 1, 2, 3 gives up.
RESIGN_NAMES = {1: "a single game", 2: "a gammon", 3: "a backgammon"}



@dataclass(frozen=True)
class Rules:
    """How games are played and scored.

    ``match_length`` 0 is money play. ``cube`` False plays cubeless.
    ``cube_cap`` is the highest cube value (a power of two). ``crawford``
    applies to matches; ``jacoby`` and ``beavers`` to money play only.

    >>> Rules(match_length=5).describe()
    '5-point match'
    >>> Rules(jacoby=True).describe()
    'money play, Jacoby rule'
    """

    match_length: int = 0
    cube: bool = True
    cube_cap: int = 64
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.match_length, int) or self.match_length < 0:
            raise MatchError(f"invalid match length {self.match_length!r}: expected 0 (money) or a number of points")
        if self.cube_cap < 1 or self.cube_cap & (self.cube_cap - 1) or self.cube_cap > 1 << 15:
            raise MatchError(f"invalid cube cap {self.cube_cap!r}: expected a power of two such as 64")
        if self.match_length and (self.jacoby or self.beavers):
            raise MatchError("the Jacoby rule and beavers are money-play rules, not for a match")

    def describe(self) -> str:
        """A short description, e.g. ``7-point match`` or ``money play, Jacoby rule``."""
        text = f"{self.match_length}-point match" if self.match_length else "money play"
        extras = [name for name, on in (("cubeless", not self.cube), ("no Crawford rule", self.match_length and not self.crawford),
                                        ("Jacoby rule", self.jacoby), ("beavers", self.beavers)) if on]
        if self.cube and self.cube_cap != 64:
            extras.append(f"cube up to {self.cube_cap}")
        return ", ".join([text] + extras)


def points_for(result: int, cube: int, owner: int, rules: Rules) -> int:
    """Points for a win of ``result`` (1, 2, 3) with the cube at ``cube`` (owner -1 = centred).

    The Jacoby rule (money only) counts gammons and backgammons single while the
    cube has not been turned.

    >>> points_for(2, 2, 0, Rules())
    4
    >>> points_for(2, 1, -1, Rules(jacoby=True)), points_for(2, 2, 1, Rules(jacoby=True))
    (1, 4)
    """
    if rules.jacoby and not rules.match_length and cube == 1 and owner == -1:
        result = 1
    return result * cube


@dataclass(frozen=True)
class Action:
    """One thing that happened in a game, by ``player`` (0 or 1).

    ``kind`` is one of
    ``"roll"`` (``dice``), ``"move"`` (``dice``, ``moves`` single-die steps
    in the mover's numbering, :attr:`play` their standard notation),
    ``"double"`` and ``"beaver"`` (``cube``: the value offered), ``"take"``,
    ``"pass"``, ``"resign"`` (``value``: 1, 2, 3), ``"accept"``, ``"reject"``
    (answers to a resignation) and ``"win"`` (``value``: the result 1, 2, 3;
    ``points``). Observers are also told ``"start"`` (a new game, ``dice``:
    the deciding opening throw, player 0's die first) and ``"match"`` (the
    match is over, ``player``: the winner), which are not recorded.
    """

    player: int
    kind: str
    dice: Dice | None = None
    moves: tuple[Move, ...] = ()
    cube: int = 0
    value: int = 0
    points: int = 0

    @property
    def play(self) -> str:
        """The move in standard notation (written only when read: the arena never asks)."""
        return format_moves(self.moves)

    def describe(self, names: Sequence[str] = ("player 0", "player 1")) -> str:
        """One line of text: ``level3 rolls 6-5 and plays 24/13``."""
        who = names[self.player]
        d = f"{max(self.dice)}-{min(self.dice)}" if self.dice else ""
        text = {
            "start": f"opening roll {names[0]} {self.dice[0] if self.dice else '?'}, {names[1]} "
                     f"{self.dice[1] if self.dice else '?'}: {who} to play {d}",
            "roll": f"{who} rolls {d}",
            "move": f"{who} rolls {d} and " + ("cannot move" if not self.moves else f"plays {self.play}"),
            "double": f"{who} doubles to {self.cube}",
            "beaver": f"{who} beavers: the cube goes to {self.cube}",
            "take": f"{who} takes",
            "pass": f"{who} passes",
            "resign": f"{who} resigns {RESIGN_NAMES.get(self.value, '')}",
            "accept": f"{who} accepts the resignation",
            "reject": f"{who} rejects the resignation",
            "win": f"{who} wins {_points_text(self.points)}" + (
                f" ({'gammon' if self.value == 2 else 'backgammon'})" if self.value > 1 else ""),
            "match": f"{who} wins the match",
        }
        return text.get(self.kind, f"{who} {self.kind}")


def _points_text(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


@dataclass
class GameRecord:
    """Everything that happened in one game.

    ``opening`` holds every opening throw (player 0's die first), ties
    included: the last one decided who moved first (``first``) and is that
    player's first roll. ``start`` is the starting position when the game did
    not begin from the usual one (from ``first``'s side). ``ended_by`` is
    ``"bear-off"``, ``"pass"``, ``"resign"`` or ``""`` while unfinished.
    """

    number: int
    score: tuple[int, int]
    crawford: bool
    first: int
    opening: tuple[Dice, ...] = ()
    start: Position | None = None
    start_cube: tuple[int, int] = (1, -1)
    actions: list[Action] = field(default_factory=list)
    winner: int | None = None
    result: int = 0
    points: int = 0
    ended_by: str = ""
    cube: int = 1
    cube_owner: int = -1
    final_position: Position | None = None
    final_on_roll: int = 0

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def plays(self) -> list[Action]:
        """The ``move`` actions, in order."""
        return [a for a in self.actions if a.kind == "move"]


@dataclass
class MatchRecord:
    """A whole match (or money session): the players, rules and every game."""

    names: tuple[str, str]
    rules: Rules
    start_score: tuple[int, int] = (0, 0)
    games: list[GameRecord] = field(default_factory=list)

    @property
    def score(self) -> tuple[int, int]:
        """The score now: the starting score plus every finished game's points."""
        s = list(self.start_score)
        for game in self.games:
            if game.winner is not None:
                s[game.winner] += game.points
        return s[0], s[1]

    @property
    def finished(self) -> bool:
        """A match is finished when a player has reached its length (a session never is)."""
        length = self.rules.match_length
        return bool(length) and max(self.score) >= length

    @property
    def winner(self) -> int | None:
        """The match winner; in money play the player ahead on points, None when level."""
        s = self.score
        if self.rules.match_length and not self.finished:
            return None
        return None if s[0] == s[1] else (0 if s[0] > s[1] else 1)
