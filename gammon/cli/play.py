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
    parser.add_argument("--match", type=_length, default=None, metavar="LEN",
                        help="match length in points: 3, 5, 7, 11, 15 ..., or 0 for a money session "
                             "(default 5; 0 with --jacoby or --beavers)")
    parser.add_argument("--no-cube", action="store_true", help="play without the doubling cube (quick games)")
    parser.add_argument("--jacoby", action="store_true",
                        help="money play: gammons and backgammons count single until the cube is turned")
    parser.add_argument("--beavers", action="store_true",
                        help="money play: a player who takes a double may redouble at once, keeping the cube")
    parser.add_argument("--plies", type=int, metavar="N",
                        help="search depth 0, 1 or 2 for a bot that searches (td or a model file; default opponent: td)")
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
    rules = rules_from_args(args)
    check_plies(args.plies)
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
            check_plies(args.plies, args.opponent)
            spec, bot = args.opponent, load(args.opponent, seed=bot_seed(seed, 1), **search_options(args.plies))
        elif args.plies is not None:  # a search depth asks for the one shipped bot that searches
            spec, bot = "td", load("td", seed=bot_seed(seed, 1), plies=args.plies)
        else:
            spec, bot = strongest_bot(seed=bot_seed(seed, 1), plies=args.plies)
        name = args.name.strip() or "you"
        if name == bot.name:
            name = f"{name} (human)"
        helper = None if args.no_hint else _lazy_strongest(seed)
        players = [HumanBot(name, helper=helper, seat=0), bot]
        rules_text = f"a {rules.match_length}-point match" if rules.match_length else "a money session"
        extras = rules.describe().partition(", ")[2]
        rules_text += f" ({extras})" if extras else ""
        print(f" {name} against {bot.name} ({spec}): {rules_text}. Type 'help' for the commands.", file=out)
    match = Match(players, dice_for(seed), rules, observers=[Narrator(out, pause=stdin_pause)])
    run_match(match, out, args.save)
    return 0


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules ``--match``, ``--no-cube``, ``--jacoby`` and ``--beavers`` ask for.

    ``--jacoby`` and ``--beavers`` are money-play rules: without ``--match`` they
    make the session a money one; with ``--match N`` (N > 0) they are an error,
    and so they are with ``--no-cube`` (both are rules of the cube).
    """
    money_rules = [flag for flag, on in (("--jacoby", args.jacoby), ("--beavers", args.beavers)) if on]
    length = args.match if args.match is not None else (0 if money_rules else 5)
    if money_rules and length:
        raise CommandError(f"{' and '.join(money_rules)} {'are' if len(money_rules) > 1 else 'is'} for money play, "
                           f"not a {length}-point match: use --match 0 or leave --match out")
    if money_rules and args.no_cube:
        raise CommandError(f"{' and '.join(money_rules)} {'are rules' if len(money_rules) > 1 else 'is a rule'} "
                           "of the cube: not with --no-cube")
    return Rules(match_length=length, cube=not args.no_cube, jacoby=args.jacoby, beavers=args.beavers)


#: Shipped bots without a search (``--plies`` is an error for them).
SEARCHLESS = ("random", "pubeval", "gnubg")


def searches(spec: str) -> bool:
    """Whether the bot ``spec`` names takes a search depth (``td`` and model files do).

    >>> searches("td"), searches("level3"), searches("models/x.pt")
    (True, False, True)
    """
    name = spec.partition(":")[0]
    return not (name in SEARCHLESS or (name.startswith("level") and name[5:].isdigit()))


def check_plies(plies: int | None, spec: str | None = None) -> None:
    """Fail on a ``--plies`` that is not 0, 1 or 2, or that is given for a bot (``spec``) without a search."""
    if plies is None:
        return
    if plies not in (0, 1, 2):
        raise CommandError(f"invalid --plies {plies}: expected a search depth of 0, 1 or 2")
    if spec is not None and not searches(spec):
        raise CommandError(f"--plies {plies}: {spec} has no search (--plies is for td or a model file)")


def search_options(plies: int | None) -> dict[str, int]:
    """The bot options a ``--plies`` flag stands for (none when it is not given)."""
    return {} if plies is None else {"plies": plies}


def _lazy_strongest(seed: int | None) -> Callable[[], Bot]:
    def build() -> Bot:
        return strongest_bot(seed=bot_seed(seed, 2), skip=("random",))[1]

    return build
