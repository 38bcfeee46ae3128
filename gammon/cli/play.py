"""``gammon play``: you against a bot (or two people on one terminal), a match or a money session."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from gammon.bots import Bot, load
from gammon.cli import CommandError
from gammon.match import Match
from gammon.records import Rules
from gammon.tui.human import HumanBot
from gammon.tui.session import Narrator, bot_seed, check_save_path, dice_for, run_match, stdin_pause, strongest_bot

NAME = "play"
HELP = "play backgammon in the terminal against a bot (or --two-player), a match or a money session"


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
            spec, bot = args.opponent, load(args.opponent, seed=bot_seed(seed, 1), **search_options(args.plies))
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
    match = Match(players, dice_for(seed), rules, observers=[Narrator(out, pause=stdin_pause)])
    run_match(match, out, args.save)
    return 0


def search_options(plies: int | None) -> dict[str, int]:
    """The bot options a ``--plies`` flag stands for (none when it is not given)."""
    return {} if plies is None else {"plies": plies}


def _lazy_strongest(seed: int | None) -> Callable[[], Bot]:
    def build() -> Bot:
        return strongest_bot(seed=bot_seed(seed, 2), skip=("random",))[1]

    return build
