"""A human at the terminal, as a :class:`~gammon.bots.Bot`.

The board is drawn GNU Backgammon style with the score, the cube, the dice,
the Position ID and the Match ID beside or below it. Moves are typed in
standard notation (``8/5 6/5``, ``8/5(2)``, ``bar/22``, ``6/off``,
``13/7*``) or as a number from the ``moves`` list. Commands: ``double``,
``take``, ``pass``, ``beaver``, ``hint``, ``moves``, ``guide``, ``undo``, ``board``,
``resign [single|gammon|backgammon]``, ``help``, ``quit``. Checkers may be moved
one at a time (:mod:`gammon.tui.entry`); ``confirm`` asks before the turn ends.
An illegal or unreadable entry prints which rule it breaks and asks again,
with nothing lost. Input and output are any text streams, so tests drive it
with :class:`io.StringIO`.

>>> import io
>>> from gammon import Position
>>> out = io.StringIO()
>>> me = HumanBot("ann", input=io.StringIO("8/4 6/5\\n8/5 6/5\\n"), output=out, show_board=False)
>>> print(me.choose_play(Position.initial(), (3, 1)))
8/5 6/5
>>> "8/4 6/5 moves more than your dice allow" in out.getvalue()
True
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TextIO

from gammon.analysis.hint import cube_hint, format_cube, format_plays, hint_plays
from gammon.bots.base import Bot
from gammon.bots.neural import NeuralBot
from gammon.cube import CubeState
from gammon.errors import GammonError
from gammon.match import QuitMatch, Resignation, Table
from gammon.play import Play
from gammon.position import Dice, Position
from gammon.records import RESIGN_NAMES, Action
from gammon.board_text import Painter, draw_board
from gammon.tui.entry import EntryError, PlayEntry
from gammon.tui.guide import guide_text
from gammon.tui.table import draw_table
from gammon.tui.words import describe, hit_points, points_text, touched_points, verb

HELP = """\
 Moves: standard notation, e.g. 8/5 6/5, 8/5(2), bar/22, 6/off, 13/7*
        (hits are optional), or the number of a play from 'moves'.
        One checker at a time works too: 8/5, then 6/5 (the board is
        redrawn after each); when every die is used, Enter ends the turn.
 Commands:
   undo        take back the last checker you moved this turn
   guide       where each of your checkers can go with each die
   roll        roll the dice (or just press Enter) when you may double first
   double      offer a double (before you roll)
   take, pass  answer a double
   beaver      take and redouble at once, keeping the cube (money play with --beavers)
   hint [1|2] [all]  the helper bot's ranked plays, each with the five probabilities and the
               equity (cubeful money, or EMG with the match-winning chance in a match), searched
               0, 1 or 2 plies deep; before the roll or at a double, its cube analysis
   moves       list the legal plays, numbered
   analyse     how well both sides have played so far (gammon analyse's table)
   board       draw the board again
   resign [single|gammon|backgammon]   offer to resign (when doubled: pass)
   help        this text
   quit        stop playing (the match is kept: --resume continues it)"""

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
        confirm: bool = False,
        confirm_numbers: bool = False,
        guide: bool = False,
        symbols: tuple[str, str] = ("X", "O"),
        paint: Painter | None = None,
        confirm_quit: bool = False,
    ) -> None:
        self.name = name
        self._in = input if input is not None else sys.stdin
        self._out = output if output is not None else sys.stdout
        self._helper_source = helper
        self._helper: Bot | None = None
        self._helper_loaded = False
        self._cube: CubeState | None = None  # the match situation of the play being chosen, for hints
        #: The match so far, for ``analyse`` (set by whoever runs the match).
        self.record_source: Callable[[], Any] | None = None
        self.show_board = show_board
        self.echo = echo
        #: 0 or 1 in the match; found from the names (or the first question) if not given.
        self.seat = seat
        self.table: Table | None = None
        self._offer: tuple[Any, int] | None = None
        self._rejected: tuple[Any, int] | None = None
        self._beaver = False  # "beaver" was the answer to the last double
        #: Ask before ending the turn when the last die is used (else it ends at once).
        self.confirm = confirm
        #: Ask before playing a number from the 'moves' list.
        self.confirm_numbers = confirm_numbers
        #: Show the move guide with every roll (it is always there on 'guide').
        self.guide = guide
        #: This player's checkers and the other's, as drawn (X, O).
        self.symbols = symbols
        self.paint = paint
        #: Ask before 'quit' or Ctrl-C stops the match.
        self.confirm_quit = confirm_quit
        #: Where the match is kept and how to go on with it, said when quitting (set by the session that autosaves).
        self.kept_note: str | None = None
        #: True while a resumed match is replayed: say nothing.
        self.quiet = False
        self._marks: set[int] = set()  # the points of the last move seen, in this player's numbering
        self._hits: set[int] = set()  # where it hit

    # -- the Bot protocol ----------------------------------------------------------

    def choose_play(self, position: Position, dice: Dice) -> Play:
        self._seat_from(on_roll=True)
        plays = position.legal_plays(dice)
        d = f"{max(dice)}-{min(dice)}"
        self._board(position, dice)
        if len(plays) == 1:
            only = plays[0]
            self._say(f"{verb(self.name, 'rolls')} {d}: "
                      + ("no legal move." if only.is_pass() else f"the only play is {only}."))
            return only
        entry = PlayEntry(position, dice)
        if self.guide:
            self._say(guide_text(entry))
        while True:
            so_far = f" ({entry.text()}; {' '.join(map(str, entry.remaining))} to play)" if entry.groups else ""
            line = self._ask(f"{self.name}, move {d}{so_far}: ")
            word, _, rest = line.partition(" ")
            command = word.lower()
            if command == "":
                continue
            if command in ("help", "?", "h"):
                self._say(HELP)
            elif command in ("board", "b"):
                self._board(entry.current(), dice, force=True, marks=self._entry_marks(entry))
            elif command in ("moves", "m"):
                self._list_moves(plays)
            elif command in ("guide", "g"):
                self._say(guide_text(entry))
            elif command in ("undo", "u"):
                taken = entry.undo()
                if taken is None:
                    self._say("Nothing to undo: no checker has moved this turn.")
                else:
                    self._say(f"Took back {taken}.")
                    self._board(entry.current(), dice, marks=self._entry_marks(entry))
            elif command == "hint":
                self._hint_plays(position, dice, rest)
            elif command in ("analyse", "analyze"):
                self._analyse()
            elif command in ("double", "d"):
                self._say("You can double only before you roll, when the cube is yours or in the middle.")
            elif command in ("take", "pass", "drop", "accept", "reject"):
                self._say("There is no offer to answer: type your move.")
            elif command == "resign":
                self._resign(rest, (position, dice))
            elif command in ("quit", "q", "exit"):
                self._quit()
            elif line.strip().isdigit():
                number = int(line)
                if 1 <= number <= len(plays):
                    play = plays[number - 1]
                    if self._finish(position, dice, play, ask=self.confirm_numbers):
                        return play
                else:
                    self._say(f"There is no play number {number}: 'moves' lists {len(plays)}.")
            else:
                play = self._enter(entry, line)
                if play is None:
                    continue
                if self._finish(position, dice, play, ask=self.confirm):
                    return play
                entry.undo()

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
                self._hint_cube(lambda bot: bot.offer_double(position, cube), "double", "not double (roll)",
                                position, cube, rest)
            elif command in ("analyse", "analyze"):
                self._analyse()
            elif command in ("moves", "m"):
                self._say("Roll first: the legal plays depend on the dice.")
            elif command in ("take", "pass", "drop", "accept", "reject"):
                self._say("There is no offer to answer: roll or double.")
            elif command == "resign":
                self._resign(rest, (position, None))
            elif command in ("quit", "q", "exit"):
                self._quit()
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
            word, _, rest = line.partition(" ")
            command = word.lower()
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
            if command == "resign":
                word = rest.strip().lower()
                value = _RESIGN_WORDS.get(word)
                if value is None:
                    self._say(f"Unknown resignation {word!r}: resign single, resign gammon or resign backgammon.")
                elif value == 1:
                    self._say(f"Resigning a single game when doubled is passing: {verb(self.name, 'passes')}, "
                              f"giving up {points_text(cube.cube)}.")
                    return False
                else:
                    self._say(f"Passing gives up only {points_text(cube.cube)}; resigning {RESIGN_NAMES[value]} "
                              f"would give up {points_text(value * cube.cube)}. Take, pass, or resign single.")
                continue
            if command in ("help", "?", "h"):
                self._say(HELP)
            elif command in ("board", "b"):
                self._board(position.flip(), None, force=True, viewer_off_roll=True)
            elif command == "hint":
                self._hint_cube(lambda bot: bot.accept_double(position, cube), "take", "pass",
                                position, doubler_view(cube), rest)
            elif command in ("quit", "q", "exit"):
                self._quit()
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
            line = self._ask(f"{who} offers to resign {RESIGN_NAMES[value]} ({points_text(points)}). "
                             f"{self.name}, accept or reject? ")
            command = line.partition(" ")[0].lower()
            if command in ("accept", "a", "yes", "y", "take"):
                return True
            if command in ("reject", "r", "no", "n", "pass"):
                return False
            if command in ("board", "b"):
                self._board(position.flip(), None, force=True, viewer_off_roll=True)
            elif command in ("quit", "q", "exit"):
                self._quit()
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
        if action.kind == "move" and self.seat is not None:
            self._marks = touched_points(action.moves, action.player, self.seat)
            self._hits = hit_points(action.moves, action.player, self.seat)
        if (self.quiet or not self.echo or action.kind in ("roll", "start", "win", "match")
                or action.player == self.seat):
            return
        self._say(describe(action, table.names, self.seat))

    # -- helpers -------------------------------------------------------------------

    def _say(self, text: str) -> None:
        print(text, file=self._out, flush=True)

    def _ask(self, prompt: str) -> str:
        while True:
            self._out.write(prompt)
            self._out.flush()
            try:
                line = self._in.readline()
            except KeyboardInterrupt:  # Ctrl-C: ask before stopping, then ask the question again
                self._say("")
                self._quit()
                continue
            if not line:
                self._say("")
                raise QuitMatch(f"{self.name}: end of input")
            return line.strip()

    def _quit(self) -> None:
        """Stop the match (after a yes when ``confirm_quit``), saying where it is kept."""
        where = f" {self.kept_note}" if self.kept_note else ""
        if self.confirm_quit:
            self._out.write(f"Stop playing?{where} [y/N] ")
            self._out.flush()
            try:
                answer = self._in.readline()
            except KeyboardInterrupt:
                answer = "y\n"
                self._say("")
            if answer and answer.strip().lower() not in ("y", "yes", "quit", "q"):
                self._say("Playing on.")
                return
        elif where:
            self._say(where.strip())
        raise QuitMatch(f"{self.name} quits")

    def _enter(self, entry: PlayEntry, line: str) -> Play | None:
        """Apply the checker moves typed in ``line``; the play once every die is used, else None."""
        if not entry.groups:
            try:  # a whole play at once, in any order GNU Backgammon accepts
                return entry.position.parse_play(line, entry.dice)
            except GammonError:
                pass
        try:
            entry.enter(line)
        except EntryError as exc:
            self._say(f"Not played: {exc}. Try again ('moves' lists the legal plays, 'help' the commands).")
            return None
        if entry.complete:
            return entry.play()
        self._board(entry.current(), entry.dice, marks=self._entry_marks(entry))
        if self.guide:
            self._say(guide_text(entry))
        return None

    def _finish(self, position: Position, dice: Dice, play: Play, *, ask: bool) -> bool:
        """Show the board after ``play``; True when the turn ends with it (confirmed, or ``ask`` off)."""
        after = position.apply(play).flip()
        marks = touched_points(play.moves, 0, None)
        self._board(after, dice, marks=marks, hits=hit_points(play.moves, 0, None))
        if not ask:
            return True
        while True:
            line = self._ask(f"{self.name}, play {play}? [Enter = yes, undo = take back] ")
            command = line.partition(" ")[0].lower()
            if command in ("", "y", "yes", "ok", "confirm", "done"):
                return True
            if command in ("undo", "u", "n", "no"):
                return False
            if command in ("board", "b"):
                self._board(after, dice, force=True, marks=marks, hits=hit_points(play.moves, 0, None))
            elif command in ("quit", "q", "exit"):
                self._quit()
            elif command in ("help", "?", "h"):
                self._say(" Press Enter to end your turn with this play, or type undo to take back the last checker.")
            else:
                self._say(f"Press Enter to play {play}, or type undo (not {line!r}).")

    def _entry_marks(self, entry: PlayEntry) -> set[int] | None:
        return touched_points(entry.moves(), 0, None) if entry.groups else None

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

    def _board(self, position: Position, dice: Dice | None, *, force: bool = False, viewer_off_roll: bool = False,
               marks: set[int] | None = None, hits: set[int] | None = None) -> None:
        """Draw ``position`` (seen from this player) at the table, with ``marks`` (default: the last move) lit."""
        if not (self.show_board or force):
            return
        if marks is None:
            marks, hits = self._marks, self._hits
        hits = hits or set()
        if self.table is not None:
            viewer = 1 - self.table.on_roll if viewer_off_roll else self.table.on_roll
            shown = None if viewer_off_roll else position
            self._say(draw_table(self.table, viewer, position=shown, symbols=self.symbols, marks=marks,
                                 hits=hits, paint=self.paint))
        else:
            self._say(draw_board(position, [f"Dice: {dice[0]}-{dice[1]}" if dice else ""], symbols=self.symbols,
                                 marks=marks, hits=hits, paint=self.paint))


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

    def choose_match_play(self, position: Position, dice: Dice, cube: CubeState) -> Play:
        """:meth:`choose_play`, remembering the match situation for ``hint``."""
        self._cube = cube
        return self.choose_play(position, dice)

    def _hint_plays(self, position: Position, dice: Dice, rest: str = "") -> None:
        bot = self.helper()
        if bot is None:
            self._say("No hint bot is available.")
            return
        plies, show_all = _hint_options(rest)
        if plies is None:
            self._say(f"Unknown hint {rest.strip()!r}: hint, hint 1, hint 2 (the depth), or hint all.")
            return
        if isinstance(bot, NeuralBot):
            hints = hint_plays(bot, position, dice, plies, self._cube)
            self._say(f" {bot.name} at {plies}-ply:")
            self._say(format_plays(hints, dice, self._cube, None if show_all else HINT_PAGE)
                      + ("" if show_all or len(hints) <= HINT_PAGE else " (hint all lists them)"))
            return
        ranked = rank_plays(bot, position, dice)
        if ranked is None:
            self._say(f"{bot.name} would play {bot.choose_play(position, dice)}.")
            return
        label = "score" if not hasattr(bot, "rank_plays") and not hasattr(bot, "play_equities") else "equity"
        self._say(f" {bot.name} ranks the plays ({label}):")
        best = ranked[0][1]
        for i, (play, value) in enumerate(ranked if show_all else ranked[:HINT_PAGE], 1):
            diff = "" if i == 1 else f" ({value - best:+.3f})"
            self._say(f" {i:>3}. {str(play):<24} {value:+.3f}{diff}")

    def _hint_cube(self, decide: Callable[[Bot], bool], yes: str, no: str,
                   position: Position | None = None, doubler: CubeState | None = None, rest: str = "") -> None:
        """The cube advice: the full cube analysis of a network (``doubler``: the situation of the player
        on roll in ``position``), else what the bot would do."""
        bot = self.helper()
        if bot is None:
            self._say("No hint bot is available.")
            return
        plies, _ = _hint_options(rest)
        if isinstance(bot, NeuralBot) and position is not None and doubler is not None and plies is not None:
            self._say(format_cube(cube_hint(bot, position, plies, cube=doubler)))
        self._say(f" {bot.name} would {yes if decide(bot) else no}.")


    def _analyse(self) -> None:
        """The match so far judged by the hint network at 0-ply (``gammon analyse``'s table)."""
        bot = self.helper()
        if self.record_source is None or not isinstance(bot, NeuralBot):
            self._say("Analysis needs the match and a network to judge it: not available here.")
            return
        from gammon.analysis import analyse_match

        try:
            self._say(analyse_match(self.record_source(), bot, 0).report(errors=False))
        except GammonError as exc:
            self._say(f"No analysis: {exc}")


#: Plays a hint lists before ``hint all``.
HINT_PAGE = 10


def _hint_options(rest: str) -> tuple[int | None, bool]:
    """``hint [0|1|2] [all]``: the depth (None when the words are not understood) and whether to list every play."""
    plies, show_all = 0, False
    for word in rest.lower().split():
        if word in ("0", "1", "2"):
            plies = int(word)
        elif word == "all":
            show_all = True
        else:
            return None, False
    return plies, show_all


def doubler_view(cube: CubeState) -> CubeState:
    """The taker's cube situation seen from the doubler (who is on roll): score and owner swapped."""
    swap = {"me": "opponent", "opponent": "me", "centre": "centre"}
    return replace(cube, score=(cube.score[1], cube.score[0]), owner=swap[cube.owner])


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
