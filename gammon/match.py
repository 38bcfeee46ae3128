"""Games and matches between two players: turns, the cube, resignations, Crawford.

What happened is kept in :mod:`gammon.records` (:class:`~gammon.records.MatchRecord`).

A player is any :class:`gammon.bots.Bot` (a bot, a human at the terminal).
The runner asks it for plays and cube decisions and never looks past the
protocol, except for these optional extras:

- ``choose_match_play(position, dice, cube) -> Play``: asked instead of
  ``choose_play`` when a player has it, with its :class:`~gammon.cube.CubeState`
  (score, cube, owner, Crawford), for checker play that depends on the
  match situation; it must return a legal play just the same;
- ``observe(action, table)``: told every :class:`Action` as it happens, with
  the :class:`Table` (the live game and match state) after it;
- ``accept_resignation(position, value, cube) -> bool``: asked when the
  opponent resigns (``position`` has the resigner on roll, ``value`` is 1
  single, 2 gammon, 3 backgammon). Without it a player accepts only a
  resignation of everything the resigner could still lose;
- ``beaver(position, cube) -> bool``: asked after a take in money play with
  beavers on (``position`` has the doubler on roll);
- ``offer_resignation(position, cube) -> int``: asked once before each of
  its rolls, the opening roll excepted (0 plays on; 1, 2, 3 resign a single
  game, a gammon, a backgammon); a rejected offer just lets the game go on.

An interactive player may also resign from inside ``offer_double`` or
``choose_play`` by raising :class:`Resignation` (the hook is asked again if
the opponent rejects it; offering the same or less again in that turn is an
error). A human ends the session by raising :class:`QuitMatch`, which
propagates out of :func:`play_match` with :attr:`Match.record` kept.

Rules, as played here: the opening roll is one die each, ties thrown again,
the higher die moves first with both dice. The cube starts centred at 1 and
doubles up to ``cube_cap``; a player may double only before their own roll,
never on the opening roll, and only while the cube is centred or theirs
(:meth:`CubeState.may_double`, which also keeps a leader from doubling when
the current cube already wins the match). After a take the taker owns the
cube; a pass ends the game for the cube value before the double. A game is
worth its result (1 single, 2 gammon, 3 backgammon) times the cube. In a
match the first game after either player reaches 1-away is the Crawford
game, played without the cube; later games use it again. Money options, off
by default: the Jacoby rule (gammons count single until the cube is turned)
and beavers. There are no automatic doubles.

>>> from gammon.bots.random_bot import RandomBot
>>> from gammon.dice import SeededDice
>>> record = play_match(RandomBot(seed=1), RandomBot(seed=2), 3, SeededDice(7))
>>> record.finished, max(record.score) >= 3, record.winner in (0, 1)
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gammon.bots.base import Bot
from gammon.cube import CubeState, owner_seen_by
from gammon.dice import DiceSource, opening_throws
from gammon.errors import IllegalPlayError, MatchError
from gammon.ids import MatchState
from gammon.outcomes import worst_loss
from gammon.play import Play
from gammon.position import Dice, Position
from gammon.records import RESIGN_NAMES, Action, GameRecord, MatchRecord, Rules, points_for

__all__ = ["Match", "Observer", "QuitMatch", "Resignation", "Table", "play_game", "play_match"]

#: A game longer than this many turns is a bug in a player.
MAX_TURNS = 5000

class Resignation(Exception):
    """Raised by a player (from ``offer_double`` or ``choose_play``) to resign.

    ``value`` is 1 (a single game), 2 (a gammon) or 3 (a backgammon).
    """

    def __init__(self, value: int = 1) -> None:
        if value not in (1, 2, 3):
            raise MatchError(f"invalid resignation {value!r}: 1 single, 2 gammon or 3 backgammon")
        super().__init__(f"resigns {RESIGN_NAMES[value]}")
        self.value = value


class QuitMatch(Exception):
    """Raised by a player (a human typing ``quit``) to stop the match where it stands."""


@dataclass
class Table:
    """The live state of a game in a match, as players and observers see it.

    ``position`` is seen from ``on_roll``; ``owner`` is -1 (centre), 0 or 1;
    ``turn`` is who must act now (the taker while a double is pending).
    """

    names: tuple[str, str]
    rules: Rules
    score: tuple[int, int]
    game: int
    crawford: bool
    position: Position
    on_roll: int
    cube: int = 1
    owner: int = -1
    dice: Dice | None = None
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    state: str = "playing"

    def position_for(self, player: int) -> Position:
        """The position seen from ``player``'s side."""
        return self.position if player == self.on_roll else self.position.flip()

    def cube_state(self, player: int) -> CubeState:
        """The :class:`CubeState` from ``player``'s side."""
        return CubeState(
            cube=self.cube,
            owner=owner_seen_by(self.owner, player),
            match_length=self.rules.match_length,
            score=(self.score[player], self.score[1 - player]),
            crawford=self.crawford,
            cube_cap=self.rules.cube_cap,
            jacoby=self.rules.jacoby,
            beavers=self.rules.beavers,
        )

    def may_double(self, player: int) -> bool:
        """Whether ``player`` may double now, before their roll."""
        return (
            self.rules.cube
            and self.state == "playing"
            and player == self.on_roll
            and self.dice is None
            and not self.double_offered
            and self.cube_state(player).may_double()
        )

    def match_state(self) -> MatchState:
        """The state as GNU Backgammon Match ID fields (write it with ``.match_id()``)."""
        dice = (max(self.dice), min(self.dice)) if self.dice else (0, 0)
        return MatchState(
            cube=self.cube,
            cube_owner=self.owner,
            player_on_roll=self.on_roll,
            crawford=self.crawford,
            game_state=self.state,
            turn=self.turn,
            double_offered=self.double_offered,
            resignation=self.resignation,
            dice=dice,
            match_length=self.rules.match_length,
            score=self.score,
            jacoby=self.rules.jacoby and not self.rules.match_length,
        )

    def match_id(self) -> str:
        """The GNU Backgammon Match ID of this moment."""
        return self.match_state().match_id()


Observer = Callable[[Action, Table], None]


class Match:
    """A match (or money session) in progress between two players.

    ``record`` grows as games are played, so it is complete up to the point
    where a :class:`QuitMatch` or an error stopped :meth:`play`. ``start``
    resumes from a :class:`MatchState` (score, Crawford flag; and for the
    first game its cube, owner, player on roll and dice, with ``position``).
    """

    def __init__(
        self,
        players: Sequence[Bot],
        dice: DiceSource,
        rules: Rules | None = None,
        *,
        games: int | None = None,
        start: MatchState | None = None,
        position: Position | None = None,
        observers: Sequence[Observer] = (),
        names: Sequence[str] | None = None,
    ) -> None:
        if len(players) != 2:
            raise MatchError(f"a match needs two players, not {len(players)}")
        self.players = tuple(players)
        self.dice = dice
        self.rules = rules or Rules()
        self.games = games
        if games is not None and games < 1:
            raise MatchError(f"invalid number of games {games!r}: expected at least 1")
        if start is not None and start.match_length != self.rules.match_length:
            raise MatchError(
                f"the starting state is a {start.match_length or 'money'} match, the rules say {self.rules.describe()}"
            )
        if position is not None and start is None:
            raise MatchError("a starting position needs a starting MatchState (who is on roll, the cube)")
        self.start = start
        self.start_position = position
        self.observers = tuple(observers)
        # Everyone told of each action, found once: the players' ``observe`` hooks, then the observers.
        self._listeners = tuple(
            hook for hook in (getattr(p, "observe", None) for p in self.players) if hook is not None
        ) + self.observers
        names = tuple(names) if names else tuple(getattr(p, "name", f"player {i}") for i, p in enumerate(players))
        if names[0] == names[1]:
            names = (f"{names[0]} (1)", f"{names[1]} (2)")
        score = start.score if start else (0, 0)
        self.record = MatchRecord(names=(names[0], names[1]), rules=self.rules, start_score=score)
        length = self.rules.match_length
        #: The Crawford game is behind us (or the rule is off).
        self._post_crawford = not self.rules.crawford or not length or (
            start is not None and not start.crawford and length - 1 in start.score
        )
        self.table: Table | None = None

    # -- the match ---------------------------------------------------------------

    def play(self) -> MatchRecord:
        """Play games until the match is won (or ``games`` have been played); return the record."""
        first = True
        while not self.over():
            if first and self.start is not None and self.start.game_state == "playing":
                self.play_game(resume=True)
            else:
                self.play_game()
            first = False
        if self.record.finished and self.table is not None:
            winner = self.record.winner
            self._notify(Action(winner if winner is not None else 0, "match"))
        return self.record

    def over(self) -> bool:
        if self.record.finished:
            return True
        return self.games is not None and len(self.record.games) >= self.games

    def _next_is_crawford(self, score: tuple[int, int]) -> bool:
        length = self.rules.match_length
        if self._post_crawford or not length:
            return False
        return (score[0] == length - 1) != (score[1] == length - 1)

    # -- one game ----------------------------------------------------------------

    def play_game(self, resume: bool = False) -> GameRecord:
        """Play one game and add it to the record.

        ``resume`` starts it from ``start`` (and ``position``) instead of the
        opening roll.
        """
        score = self.record.score
        if not self.record.games and self.start is not None:
            crawford = self.start.crawford
        else:
            crawford = self._next_is_crawford(score)
        self._post_crawford = self._post_crawford or crawford
        game = GameRecord(len(self.record.games) + 1, score, crawford, first=0)
        self.record.games.append(game)
        if resume and self.start is not None:
            position, dice = self._resume(game)
        else:
            position, dice = self._opening(game)
        self.table = Table(
            names=self.record.names, rules=self.rules, score=score, game=game.number, crawford=crawford,
            position=position, on_roll=game.first, cube=game.cube, owner=game.cube_owner, turn=game.first,
        )
        if game.opening:
            self._notify(Action(game.first, "start", dice=game.opening[-1]))
        for _ in range(MAX_TURNS):
            if dice is None:
                if self._before_roll(game):
                    return game
                dice = self.dice.roll()
            if self._turn(game, dice):
                return game
            dice = None
        raise MatchError(f"game {game.number} did not finish in {MAX_TURNS} turns "
                         f"(position {self._table().position.position_id()})")

    def _opening(self, game: GameRecord) -> tuple[Position, Dice]:
        """The opening roll (:func:`gammon.dice.opening_throws`): the higher die moves first with both dice."""
        game.opening = opening_throws(self.dice)
        d0, d1 = game.opening[-1]
        game.first = 0 if d0 > d1 else 1
        return Position.initial(), (max(d0, d1), min(d0, d1))

    def _resume(self, game: GameRecord) -> tuple[Position, Dice | None]:
        """A game picked up from ``start``: its player on roll, cube, and dice if already rolled."""
        start = self.start
        assert start is not None
        game.first = start.player_on_roll
        game.start = self.start_position
        game.start_cube = (start.cube, start.cube_owner)
        game.cube, game.cube_owner = start.cube, start.cube_owner
        dice = start.dice if start.dice != (0, 0) else None
        return self.start_position or Position.initial(), dice

    def _before_roll(self, game: GameRecord) -> bool:
        """The cube (and resignation) before a roll; True when the game ended."""
        t = self._table()
        me = t.on_roll
        player = self.players[me]
        resign = getattr(player, "offer_resignation", None)
        if resign is not None:
            value = resign(t.position, t.cube_state(me))
            if value:
                if value not in (1, 2, 3):
                    raise MatchError(f"{t.names[me]} offered an invalid resignation {value!r}: 1, 2 or 3")
                if self._resign(game, value):
                    return True
        if not t.may_double(me):
            return False
        offer = self._ask(game, lambda: player.offer_double(t.position, t.cube_state(me)))
        if offer is _ENDED:
            return True
        if not offer:
            return False
        taker = 1 - me
        t.double_offered, t.turn = True, taker
        self._log(game, Action(me, "double", cube=t.cube * 2))
        accepted = self.players[taker].accept_double(t.position, t.cube_state(taker))
        t.double_offered = False
        if not accepted:
            t.state = "dropped"  # the turn stays with the taker, as in gnubg
            self._log(game, Action(taker, "pass"))
            self._finish(game, me, 1, t.cube, "pass")
            return True
        t.cube, t.owner, t.turn = t.cube * 2, taker, me
        beaver = getattr(self.players[taker], "beaver", None)
        if (self.rules.beavers and not self.rules.match_length and beaver is not None
                and t.cube * 2 <= self.rules.cube_cap and beaver(t.position, t.cube_state(taker))):
            t.cube *= 2
            self._log(game, Action(taker, "beaver", cube=t.cube))
        else:
            self._log(game, Action(taker, "take"))
        game.cube, game.cube_owner = t.cube, t.owner
        return False

    def _turn(self, game: GameRecord, dice: Dice) -> bool:
        """Roll ``dice`` and move; True when the game ended."""
        t = self._table()
        me = t.on_roll
        t.dice = dice
        self._log(game, Action(me, "roll", dice=dice))
        player = self.players[me]
        position = t.position
        match_play = getattr(player, "choose_match_play", None)
        if match_play is not None:
            cube = t.cube_state(me)
            play = self._ask(game, lambda: match_play(position, dice, cube))
        else:
            play = self._ask(game, lambda: player.choose_play(position, dice))
        if play is _ENDED:
            return True
        if not isinstance(play, Play) or not play.is_legal_for(position, dice):
            raise IllegalPlayError(
                f"{t.names[me]} chose {play!r}, which is not a legal play of {dice[0]}-{dice[1]} "
                f"in position {position.position_id()}"
            )
        after = position.apply(play)
        t.position, t.on_roll, t.turn, t.dice = after, 1 - me, 1 - me, None
        self._log(game, Action(me, "move", dice=dice, moves=play.moves))
        if after.is_game_over():
            result = after.result()
            self._finish(game, me, result, points_for(result, t.cube, t.owner, self.rules), "bear-off")
            return True
        return False

    def _ask(self, game: GameRecord, hook: Callable[[], Any]) -> Any:
        """Call a player hook of the player on roll, handling resignations."""
        t = self._table()
        me = t.on_roll
        rejected = 0
        while True:
            try:
                return hook()
            except Resignation as offer:
                if offer.value <= rejected:
                    raise MatchError(
                        f"{t.names[me]} offered {RESIGN_NAMES[offer.value]} again after it was rejected this turn"
                    ) from None
                if self._resign(game, offer.value):
                    return _ENDED
                rejected = offer.value

    def _resign(self, game: GameRecord, value: int) -> bool:
        t = self._table()
        me, other = t.on_roll, 1 - t.on_roll
        t.resignation, t.turn = value, other
        self._log(game, Action(me, "resign", value=value))
        judge = getattr(self.players[other], "accept_resignation", None)
        if judge is not None:
            accepted = bool(judge(t.position, value, t.cube_state(other)))
        else:
            accepted = value >= worst_loss(t.position.board)
        if accepted:
            t.state, t.turn = "resigned", me
            self._log(game, Action(other, "accept"))
            self._finish(game, other, value, points_for(value, t.cube, t.owner, self.rules), "resign")
            return True
        t.resignation, t.turn = 0, me
        self._log(game, Action(other, "reject"))
        return False

    def _finish(self, game: GameRecord, winner: int, result: int, points: int, how: str) -> None:
        t = self._table()
        if t.state == "playing":
            t.state = "over"
        game.winner, game.result, game.points, game.ended_by = winner, result, points, how
        game.cube, game.cube_owner = t.cube, t.owner
        game.final_position, game.final_on_roll = t.position, t.on_roll
        s = list(t.score)
        s[winner] += points
        t.score = (s[0], s[1])
        if how != "resign":  # a resigner who had rolled keeps the dice on the table, as in gnubg
            t.dice = None
        self._log(game, Action(winner, "win", value=result, points=points))

    # -- plumbing ----------------------------------------------------------------

    def _table(self) -> Table:
        assert self.table is not None
        return self.table

    def _log(self, game: GameRecord, action: Action) -> None:
        game.actions.append(action)
        self._notify(action)

    def _notify(self, action: Action) -> None:
        t = self._table()
        for listener in self._listeners:
            listener(action, t)


_ENDED = object()


def play_match(
    player0: Bot,
    player1: Bot,
    length: int,
    dice: DiceSource,
    *,
    games: int | None = None,
    cube: bool = True,
    cube_cap: int = 64,
    crawford: bool = True,
    jacoby: bool = False,
    beavers: bool = False,
    start: MatchState | None = None,
    position: Position | None = None,
    observers: Sequence[Observer] = (),
    names: Sequence[str] | None = None,
) -> MatchRecord:
    """Play a ``length``-point match (0: a money session of ``games`` games) and return its record.

    A money session with ``games`` None goes on until a player raises
    :class:`QuitMatch`. Player 0 throws the first die of each opening roll.

    >>> from gammon.bots.random_bot import RandomBot
    >>> from gammon.dice import SeededDice
    >>> session = play_match(RandomBot(seed=1), RandomBot(seed=2), 0, SeededDice(3), games=2)
    >>> len(session.games), sum(session.score) >= 2
    (2, True)
    """
    if length == 0 and games is None and not any(_is_interactive(p) for p in (player0, player1)):
        raise MatchError("a money session between bots needs a number of games")
    rules = Rules(match_length=length, cube=cube, cube_cap=cube_cap, crawford=crawford, jacoby=jacoby, beavers=beavers)
    match = Match((player0, player1), dice, rules, games=games, start=start, position=position,
                  observers=observers, names=names)
    return match.play()


def play_game(
    player0: Bot,
    player1: Bot,
    dice: DiceSource,
    *,
    rules: Rules | None = None,
    score: tuple[int, int] = (0, 0),
    crawford: bool = False,
    start: MatchState | None = None,
    position: Position | None = None,
    observers: Sequence[Observer] = (),
) -> GameRecord:
    """Play one game (of a match at ``score``, the Crawford game if ``crawford``) and return its record.

    With ``start`` (and optionally ``position``, seen from
    ``start.player_on_roll``) the game begins from that state instead of the
    opening roll.

    >>> from gammon.bots.random_bot import RandomBot
    >>> from gammon.dice import SeededDice
    >>> game = play_game(RandomBot(seed=1), RandomBot(seed=2), SeededDice(5))
    >>> game.finished, game.points >= 1, game.actions[-1].kind
    (True, True, 'win')
    """
    rules = rules or Rules()
    if start is None:
        fields: dict[str, Any] = {"match_length": rules.match_length, "score": score, "crawford": crawford,
                                  "game_state": "none"}
        start = MatchState(**fields)
    elif position is None and start.game_state == "playing":
        position = Position.initial()
    match = Match((player0, player1), dice, rules, games=1, start=start, position=position, observers=observers)
    return match.play_game(resume=start.game_state == "playing")


def _is_interactive(player: Any) -> bool:
    return bool(getattr(player, "interactive", False))

