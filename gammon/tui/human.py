"""A human at the terminal, as a :class:`~gammon.bots.Bot`.

The board is drawn GNU Backgammon style with the score, the cube, the dice,
the Position ID and the Match ID beside or below it. Moves are typed in
standard notation (``8/5 6/5``, ``8/5(2)``, ``bar/22``, ``6/off``,
``13/7*``) or as a number from the ``moves`` list. Commands: ``double``,
``take``, ``pass``, ``beaver``, ``hint``, ``moves``, ``board``, ``resign [single|gammon|
backgammon]``, ``help``, ``quit``. An illegal or unreadable entry prints why
and asks again. Input and output are any text streams, so tests drive it
with :class:`io.StringIO`.

>>> import io
>>> from gammon import Position
>>> out = io.StringIO()
>>> me = HumanBot("ann", input=io.StringIO("8/4 6/5\\n8/5 6/5\\n"), output=out, show_board=False)
>>> print(me.choose_play(Position.initial(), (3, 1)))
8/5 6/5
>>> "illegal play '8/4 6/5'" in out.getvalue()
True
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from gammon.bots.base import Bot
from gammon.cube import CubeState
from gammon.errors import GammonError
from gammon.match import QuitMatch, Resignation, Table
from gammon.play import Play
from gammon.position import Dice, Position
from gammon.records import RESIGN_NAMES, Action
from gammon.board_text import draw_board
from gammon.tui.table import draw_table

HELP = """\
 Moves: standard notation, e.g. 8/5 6/5, 8/5(2), bar/22, 6/off, 13/7*
        (hits are optional), or the number of a play from 'moves'.
 Commands:
   roll        roll the dice (or just press Enter) when you may double first
   double      offer a double (before you roll)
   take, pass  answer a double
   beaver      take and redouble at once, keeping the cube (money play with --beavers)
   hint        the helper bot's ranked plays (or its cube advice)
   moves       list the legal plays, numbered
   board       draw the board again
   resign [single|gammon|backgammon]   offer to resign
   help        this text
   quit        stop playing"""

_RESIGN_WORDS = {"": 1, "1": 1, "s": 1, "single": 1, "normal": 1, "n": 1,
                 "2": 2, "g": 2, "gammon": 2, "3": 3, "b": 3, "bg": 3, "backgammon": 3}

HelperSource = Bot | Callable[[], Bot | None] | None


class HumanBot:
    """A person typing at a terminal (or any text streams).

    ``helper`` is the bot behind ``hint``: a bot, or a function that builds
    one on first use (loading a network can take a moment). ``echo`` prints
    the other player's actions as they happen (turn it off for the second of
    two humans sharing one terminal, so nothing is printed twice).
    """

    interactive = True

    def __init__(
        self,
        name: str = "you",
        *,
        input: TextIO | None = None,
        output: TextIO | None = None,
        helper: HelperSource = None,
        show_board: bool = True,
        echo: bool = True,
        seat: int | None = None,
    ) -> None:
        self.name = name
        self._in = input if input is not None else sys.stdin
        self._out = output if output is not None else sys.stdout
        self._helper_source = helper
        self._helper: Bot | None = None
        self._helper_loaded = False
        self.show_board = show_board
        self.echo = echo
        #: 0 or 1 in the match; found from the names (or the first question) if not given.
        self.seat = seat
        self.table: Table | None = None
        self._offer: tuple[Any, int] | None = None
        self._rejected: tuple[Any, int] | None = None
        self._beaver = False  # "beaver" was the answer to the last double

    # -- the Bot protocol ----------------------------------------------------------

    def choose_play(self, position: Position, dice: Dice) -> Play:
        self._seat_from(on_roll=True)
        plays = position.legal_plays(dice)
        d = f"{max(dice)}-{min(dice)}"
        if len(plays) == 1:
            self._board(position, dice)
            only = plays[0]
            self._say(f"{self.name} rolls {d}: " + ("no legal move." if only.is_pass() else f"the only play is {only}."))
            return only
        self._board(position, dice)
        while True:
            line = self._ask(f"{self.name}, move {d}: ")
            word, _, rest = line.partition(" ")
            command = word.lower()
            if command == "":
                continue
            if command in ("help", "?", "h"):
                self._say(HELP)
            elif command in ("board", "b"):
                self._board(position, dice, force=True)
            elif command in ("moves", "m"):
                self._list_moves(plays)
            elif command == "hint":
                self._hint_plays(position, dice)
            elif command in ("double", "d"):
                self._say("You can double only before you roll, when the cube is yours or in the middle.")
            elif command in ("take", "pass", "drop", "accept", "reject"):
                self._say("There is no offer to answer: type your move.")
            elif command == "resign":
                self._resign(rest, (position, dice))
            elif command in ("quit", "q", "exit"):
                raise QuitMatch(f"{self.name} quits")
            elif line.strip().isdigit():
                number = int(line)
                if 1 <= number <= len(plays):
                    return plays[number - 1]
                self._say(f"There is no play number {number}: 'moves' lists {len(plays)}.")
            else:
                try:
                    return position.parse_play(line, dice)
                except GammonError as exc:
                    self._say(f"{exc}. Try again ('moves' lists the legal plays, 'help' the commands).")

    def offer_double(self, position: Position, cube: CubeState) -> bool:
        self._seat_from(on_roll=True)
        self._board(position, None)
        while True:
            line = self._ask(f"{self.name}, roll or double? [roll] ")
            word, _, rest = line.partition(" ")
            command = word.lower()
            if command in ("", "roll", "r"):
                return False
            if command in ("double", "d"):
                return True
            if command in ("help", "?", "h"):
                self._say(HELP)
            elif command in ("board", "b"):
                self._board(position, None, force=True)
            elif command == "hint":
                self._hint_cube(lambda bot: bot.offer_double(position, cube), "double", "not double (roll)")
            elif command in ("moves", "m"):
                self._say("Roll first: the legal plays depend on the dice.")
            elif command in ("take", "pass", "drop", "accept", "reject"):
                self._say("There is no offer to answer: roll or double.")
            elif command == "resign":
                self._resign(rest, (position, None))
            elif command in ("quit", "q", "exit"):
                raise QuitMatch(f"{self.name} quits")
            else:
                self._say(f"Unknown command {line!r}: type roll, double or help.")

    def accept_double(self, position: Position, cube: CubeState) -> bool:
        self._seat_from(on_roll=False)
        self._board(position.flip(), None, viewer_off_roll=True)
        doubler = self._other_name()
        beavers = self._beavers_allowed(cube)
        answers = "take, beaver or pass" if beavers else "take or pass"
        while True:
            line = self._ask(f"{doubler} doubles to {cube.cube * 2}. {self.name}, {answers}? ")
            command = line.partition(" ")[0].lower()
            if command in ("take", "t", "accept", "yes", "y"):
                return True
            if command in ("beaver", "bv"):
                if beavers:
                    self._beaver = True
                    return True
                self._say("Beavers are not on: take or pass (gammon play --beavers plays money with them).")
                continue
            if command in ("pass", "p", "drop", "reject", "no", "n"):
                return False
            if command in ("help", "?", "h"):
                self._say(HELP)
            elif command in ("board", "b"):
                self._board(position.flip(), None, force=True, viewer_off_roll=True)
            elif command == "hint":
                self._hint_cube(lambda bot: bot.accept_double(position, cube), "take", "pass")
            elif command in ("quit", "q", "exit"):
                raise QuitMatch(f"{self.name} quits")
            else:
                self._say(f"Answer the double: {answers} (not {line!r}).")

    def beaver(self, position: Position, cube: CubeState) -> bool:
        """Asked after a take with beavers on: the answer was given at the take ("beaver")."""
        beaver, self._beaver = self._beaver, False
        return beaver

    def accept_resignation(self, position: Position, value: int, cube: CubeState) -> bool:
        self._seat_from(on_roll=False)
        points = value * cube.cube
        who = self._other_name()
        while True:
            line = self._ask(f"{who} offers to resign {RESIGN_NAMES[value]} ({points} point{'s' if points != 1 else ''}). "
                             f"{self.name}, accept or reject? ")
            command = line.partition(" ")[0].lower()
            if command in ("accept", "a", "yes", "y", "take"):
                return True
            if command in ("reject", "r", "no", "n", "pass"):
                return False
            if command in ("board", "b"):
                self._board(position.flip(), None, force=True, viewer_off_roll=True)
            elif command in ("quit", "q", "exit"):
                raise QuitMatch(f"{self.name} quits")
            else:
                self._say(f"Answer the resignation: accept or reject (not {line!r}).")

    def observe(self, action: Action, table: Table) -> None:
        self.table = table
        if self.seat is None:
            found = [i for i, n in enumerate(table.names) if n == self.name or n.startswith(self.name + " (")]
            if len(found) == 1:
                self.seat = found[0]
        if action.kind == "reject" and action.player != self.seat:
            self._rejected = self._offer
        if not self.echo or action.kind in ("roll", "start", "win", "match") or action.player == self.seat:
            return
        self._say(action.describe(table.names))

    # -- helpers -------------------------------------------------------------------

    def _say(self, text: str) -> None:
        print(text, file=self._out, flush=True)

    def _ask(self, prompt: str) -> str:
        self._out.write(prompt)
        self._out.flush()
        line = self._in.readline()
        if not line:
            self._say("")
            raise QuitMatch(f"{self.name}: end of input")
        return line.strip()

    def _seat_from(self, on_roll: bool) -> None:
        if self.table is not None:
            self.seat = self.table.on_roll if on_roll else 1 - self.table.on_roll

    def _beavers_allowed(self, cube: CubeState) -> bool:
        """Beavers are on (money play) and the cube may go up twice more."""
        rules = self.table.rules if self.table is not None else None
        return bool(rules and rules.beavers and not rules.match_length and cube.cube * 4 <= rules.cube_cap)

    def _other_name(self) -> str:
        if self.table is None or self.seat is None:
            return "Your opponent"
        return self.table.names[1 - self.seat]

    def _board(self, position: Position, dice: Dice | None, *, force: bool = False, viewer_off_roll: bool = False) -> None:
        if not (self.show_board or force):
            return
        if self.table is not None:
            viewer = 1 - self.table.on_roll if viewer_off_roll else self.table.on_roll
            self._say(draw_table(self.table, viewer))
        else:
            self._say(draw_board(position, [f"Dice: {dice[0]}-{dice[1]}" if dice else ""]))

    def _list_moves(self, plays: Sequence[Play]) -> None:
        self._say(f" {len(plays)} legal plays of {_dice_text(plays)}:")
        cells = [f"{i:>3}. {play}" for i, play in enumerate(plays, 1)]
        width = max(len(c) for c in cells) + 2
        per_line = max(1, 78 // width)
        for start in range(0, len(cells), per_line):
            self._say("".join(c.ljust(width) for c in cells[start:start + per_line]).rstrip())

    def _resign(self, rest: str, turn: Any) -> None:
        word = rest.strip().lower()
        if word not in _RESIGN_WORDS:
            self._say(f"Unknown resignation {rest.strip()!r}: resign single, resign gammon or resign backgammon.")
            return
        value = _RESIGN_WORDS[word]
        if self._rejected is not None and self._rejected[0] == turn and value <= self._rejected[1]:
            self._say("That was rejected this turn: offer more (resign gammon, resign backgammon) or play on.")
            return
        self._offer = (turn, value)
        raise Resignation(value)

    def helper(self) -> Bot | None:
        """The hint bot, built on first use (None when none could be loaded)."""
        if not self._helper_loaded:
            self._helper_loaded = True
            source = self._helper_source
            try:
                self._helper = source() if callable(source) and not hasattr(source, "choose_play") else source  # type: ignore[assignment]
            except Exception as exc:  # hints are optional: say why and play on
                self._say(f"(no hint bot: {exc})")
                self._helper = None
        return self._helper

    def _hint_plays(self, position: Position, dice: Dice) -> None:
        bot = self.helper()
        if bot is None:
            self._say("No hint bot is available.")
            return
        ranked = rank_plays(bot, position, dice)
        if ranked is None:
            self._say(f"{bot.name} would play {bot.choose_play(position, dice)}.")
            return
        label = "score" if not hasattr(bot, "rank_plays") and not hasattr(bot, "play_equities") else "equity"
        self._say(f" {bot.name} ranks the plays ({label}):")
        best = ranked[0][1]
        for i, (play, value) in enumerate(ranked[:8], 1):
            diff = "" if i == 1 else f" ({value - best:+.3f})"
            self._say(f" {i:>3}. {str(play):<24} {value:+.3f}{diff}")

    def _hint_cube(self, decide: Callable[[Bot], bool], yes: str, no: str) -> None:
        bot = self.helper()
        if bot is None:
            self._say("No hint bot is available.")
            return
        self._say(f" {bot.name} would {yes if decide(bot) else no}.")


def _dice_text(plays: Sequence[Play]) -> str:
    dice = getattr(plays, "dice", None)
    return f"{dice[0]}-{dice[1]}" if dice else "this roll"


def rank_plays(bot: Any, position: Position, dice: Dice) -> list[tuple[Play, float]] | None:
    """The bot's plays best first with their values, or None if it cannot rank them.

    Uses ``bot.rank_plays(position, dice)`` (pairs of play and equity) where
    the bot has it, else ``bot.play_equities(position, dice)`` (the neural
    bots: plays and equities) or ``bot.scores(position, dice)`` (the
    heuristic bots: plays and scores). Plays a search left unvalued are dropped.
    """
    ranker = getattr(bot, "rank_plays", None)
    if ranker is not None:
        pairs = [(play, float(value)) for play, value in ranker(position, dice)]
    else:
        method = getattr(bot, "play_equities", None) or getattr(bot, "scores", None)
        if method is None:
            return None
        plays, values = method(position, dice)
        pairs = [(play, float(value)) for play, value in zip(plays, values)]
    pairs = [pair for pair in pairs if math.isfinite(pair[1])]
    return sorted(pairs, key=lambda pair: -pair[1])
