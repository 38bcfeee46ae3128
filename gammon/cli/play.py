"""``gammon play``: you against a bot (or two people on one terminal), a match or a money session."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from gammon.bots import Bot, load
from gammon.bots.human import HumanBot
from gammon.cli import CommandError
from gammon.dice import DiceSource, SeededDice, SystemDice
from gammon.errors import GammonError
from gammon.match import Match, QuitMatch, Table
from gammon.records import Action, MatchRecord, Rules

NAME = "play"
HELP = "play backgammon in the terminal against a bot (or --two-player), a match or a money session"

#: The shipped bots, strongest first: the default opponent is the first that loads.
STRONGEST = ("td", "level5", "level4", "level3", "random")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--opponent", metavar="BOT", help="the bot to play: level1..level5, td, random, pubeval, gnubg, "
                        "or a model file (default: the strongest shipped bot)")
    parser.add_argument("--match", type=_length, default=5, metavar="LEN",
                        help="match length in points: 3, 5, 7, 11, 15 ..., or 0 for a money session (default 5)")
    parser.add_argument("--plies", type=int, metavar="N", help="search depth for bots that take one (td)")
    parser.add_argument("--seed", type=int, metavar="N", help="seed the dice (and the bot) for a reproducible game")
    parser.add_argument("--save", metavar="FILE.mat", help="save the match as a .mat file (GNU Backgammon, eXtreme Gammon)")
    parser.add_argument("--two-player", action="store_true", help="two people at one terminal; no bot is loaded")
    parser.add_argument("--name", default="you", help="your name on the board and in the .mat file (default: you)")
    parser.add_argument("--no-hint", action="store_true", help="do not load a bot for 'hint'")


def _length(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid match length {text!r}: expected a number of points, 0 for money") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"invalid match length {text!r}: expected a number of points, 0 for money")
    return value


# -- shared by play, demo and tournament -----------------------------------------------


def load_bot(spec: str, *, seed: int | None = None, plies: int | None = None) -> Bot:
    """``gammon.bots.load(spec)`` with a seed when the bot takes one; a missing bot is a one-line error."""
    options: dict[str, Any] = {}
    if plies is not None:
        options["plies"] = plies
    try:
        try:
            return load(spec, **options, **({"seed": seed} if seed is not None else {}))
        except TypeError:
            if seed is None:
                raise
            return load(spec, **options)
    except GammonError:
        raise
    except (TypeError, ValueError) as exc:
        raise CommandError(f"bot {spec!r} does not take these options ({', '.join(options)}): {exc}") from None
    except (ImportError, OSError) as exc:
        raise CommandError(f"bot {spec!r} is not available: {exc}") from None


def strongest_bot(*, seed: int | None = None, plies: int | None = None, skip: Sequence[str] = ()) -> tuple[str, Bot]:
    """The strongest shipped bot that loads here: ``(spec, bot)``."""
    errors = []
    for spec in STRONGEST:
        if spec in skip:
            continue
        try:
            return spec, load_bot(spec, seed=seed, plies=plies if spec == "td" else None)
        except (GammonError, CommandError, ImportError, OSError, TypeError) as exc:
            errors.append(f"{spec}: {exc}")
    raise CommandError("no bot could be loaded: " + "; ".join(errors))


def dice_for(seed: int | None) -> DiceSource:
    """Seeded dice for a reproducible run, else the operating system's entropy."""
    return SeededDice(seed) if seed is not None else SystemDice()


def bot_seed(seed: int | None, index: int) -> int | None:
    """A bot's own seed, derived from the run's."""
    return None if seed is None else seed * 1000 + 17 + index


class Narrator:
    """Tells the story of a match between the players' own output: game starts, results, the score.

    ``pause`` asks for Enter between games (interactive play); ``quit`` there
    stops the match.
    """

    def __init__(self, out: TextIO, *, pause: Callable[[str], str] | None = None) -> None:
        self.out = out
        self.pause = pause

    def __call__(self, action: Action, table: Table) -> None:
        names = table.names
        if action.kind == "start":
            what = " (the Crawford game: no doubling)" if table.crawford else ""
            self.say(f"\n Game {table.game}{what}: {action.describe(names)}.")
        elif action.kind == "win":
            self.say(f" {action.describe(names)}. Score: {score_text(table)}.")
            if self.pause is not None and not _match_over(table):
                answer = self.pause(" Press Enter for the next game (or type quit): ")
                if answer.strip().lower() in ("quit", "q", "exit"):
                    raise QuitMatch("quit between games")

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)


def _match_over(table: Table) -> bool:
    return bool(table.rules.match_length) and max(table.score) >= table.rules.match_length


def score_text(table_or_record: Table | MatchRecord) -> str:
    """``you 3, level5 1 (5-point match)``."""
    names, score, rules = table_or_record.names, table_or_record.score, table_or_record.rules
    return f"{names[0]} {score[0]}, {names[1]} {score[1]} ({rules.describe()})"


def final_report(record: MatchRecord, quit_early: bool) -> str:
    """The last line: the final score and who won."""
    games = len([g for g in record.games if g.finished])
    text = f" Final score: {record.names[0]} {record.score[0]}, {record.names[1]} {record.score[1]} ({record.rules.describe()}"
    text += f", {games} game{'s' if games != 1 else ''})."
    winner = record.winner
    if record.rules.match_length and record.finished and winner is not None:
        text += f" Match won by {record.names[winner]}."
    elif quit_early:
        text += " Match stopped."
    return text


def check_save_path(path: str | None) -> None:
    """Fail before playing when ``--save`` names a file in a folder that does not exist."""
    if path and not Path(path).expanduser().resolve().parent.is_dir():
        raise CommandError(f"cannot save to {path!r}: the folder {str(Path(path).parent)!r} does not exist")


def save(record: MatchRecord, path: str | None, out: TextIO) -> None:
    if not path:
        return
    from gammon.matfile import save_mat

    save_mat(record, path)
    print(f" Saved the match to {path}", file=out, flush=True)


def run_match(match: Match, out: TextIO, save_path: str | None = None) -> MatchRecord:
    """Play ``match`` to the end (or until someone quits), report the score and save it."""
    quit_early = False
    try:
        match.play()
    except QuitMatch:
        quit_early = True
    except KeyboardInterrupt:
        quit_early = True
        print("", file=out)
    record = match.record
    print(final_report(record, quit_early), file=out, flush=True)
    save(record, save_path, out)
    return record


def _stdin_pause(prompt: str) -> str:
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise QuitMatch("end of input")
    return line


# -- gammon play ------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    seed = args.seed
    check_save_path(args.save)
    if args.two_player:
        if args.opponent:
            raise CommandError("--two-player and --opponent do not go together: two people play, no bot")
        helper = None if args.no_hint else _lazy_strongest(seed)
        players: list[Bot] = [
            HumanBot("player 1", helper=helper, seat=0),
            HumanBot("player 2", helper=helper, seat=1, echo=False),
        ]
        print(" Two players at one terminal: each of you sees the board from your own side when on roll.", file=out)
    else:
        if args.opponent:
            spec, bot = args.opponent, load_bot(args.opponent, seed=bot_seed(seed, 1), plies=args.plies)
        else:
            spec, bot = strongest_bot(seed=bot_seed(seed, 1), plies=args.plies)
        name = args.name.strip() or "you"
        if name == bot.name:
            name = f"{name} (human)"
        helper = None if args.no_hint else _lazy_strongest(seed)
        players = [HumanBot(name, helper=helper, seat=0), bot]
        rules_text = f"a {args.match}-point match" if args.match else "a money session"
        print(f" {name} against {bot.name} ({spec}): {rules_text}. Type 'help' for the commands.", file=out)
    rules = Rules(match_length=args.match)
    match = Match(players, dice_for(seed), rules, observers=[Narrator(out, pause=_stdin_pause)])
    run_match(match, out, args.save)
    return 0


def _lazy_strongest(seed: int | None) -> Callable[[], Bot]:
    def build() -> Bot:
        return strongest_bot(seed=bot_seed(seed, 2), skip=("random",))[1]

    return build
