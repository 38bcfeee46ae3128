"""``gammon play``: you against a bot (or two people on one terminal), a match or a money session."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from gammon.bots import Bot, load
from gammon.cli import CommandError
from gammon.ids import MatchState
from gammon.position import Position
from gammon.position_input import read_position
from gammon.records import Rules
from gammon.resign import with_resignations
from gammon.settings import Settings, load_settings
from gammon.tui.colour import painter, wants_colour
from gammon.tui.human import HumanBot
from gammon.tui.replay import replayed_match
from gammon.tui.saves import Autosave, RecordingDice, Setup, kept_note, latest_unfinished, new_save_path, read_save
from gammon.tui.session import Narrator, bot_seed, check_save_path, dice_for, run_match, stdin_pause, strongest_bot
from gammon.tui.table import seat_symbols

NAME = "play"
HELP = "play backgammon in the terminal against a bot (or --two-player), a match or a money session"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--opponent", metavar="BOT", help="the bot to play: level1..level5, td (the shipped net), td1, td2, td-ensemble, random, pubeval, gnubg, "
                        "or a model file (default: the 'opponent' setting, else the strongest shipped bot)")
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
    parser.add_argument("--name", default=None, help="your name on the board and in the .mat file (default: you)")
    parser.add_argument("--no-hint", action="store_true", help="do not load a bot for 'hint'")
    parser.add_argument("--resume", nargs="?", const="", default=None, metavar="FILE",
                        help="continue an unfinished match: FILE, or the latest autosave (every match is saved "
                             "after each move in $GAMMON_SAVES, default ~/.local/share/gammon/saves)")
    parser.add_argument("--color", "--colour", dest="color", action=argparse.BooleanOptionalAction, default=None,
                        help="ANSI colours (default: on a terminal, unless NO_COLOR is set)")
    parser.add_argument("--guide", action=argparse.BooleanOptionalAction, default=None,
                        help="show the move guide with every roll (it is always there on 'guide')")
    parser.add_argument("--auto-confirm", action=argparse.BooleanOptionalAction, default=None,
                        help="end the turn as soon as the last die is used, without asking")
    parser.add_argument("--confirm-numbers", action=argparse.BooleanOptionalAction, default=None,
                        help="ask before playing a number from the 'moves' list (default: ask)")
    parser.add_argument("--position", metavar="ID",
                        help="start from a position: a GNU Backgammon Position ID (player on roll at the bottom), "
                             "a PositionID:MatchID pair, or an eXtreme Gammon XGID")
    parser.add_argument("--match-id", metavar="ID", help="with --position: the GNU Backgammon Match ID "
                        "(score, cube, who is on roll, dice)")


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
    settings = load_settings().override(opponent=args.opponent, name=args.name, color=args.color, guide=args.guide,
                                        auto_confirm=args.auto_confirm, confirm_numbers=args.confirm_numbers)
    saved = None
    if args.resume is not None:
        clash = [flag for flag, given in (("--opponent", args.opponent), ("--match", args.match is not None),
                                          ("--seed", args.seed is not None), ("--two-player", args.two_player),
                                          ("--position", args.position), ("--save", args.save),
                                          ("--plies", args.plies is not None), ("--no-cube", args.no_cube)) if given]
        if clash:
            raise CommandError(f"--resume continues the match as it was set up: not with {', '.join(clash)}")
        saved = read_save(Path(args.resume).expanduser() if args.resume else latest_unfinished())
        if saved.tournament:
            raise CommandError(f"{saved.path} is a tournament: 'gammon tournament --resume {saved.path}' continues it")
        if saved.finished:
            raise CommandError(f"the match in {saved.path} is finished: there is nothing to resume")
        setup = saved.setup
    else:
        setup = setup_from_args(args, settings)
    rules = Rules(match_length=setup.match_length, cube=setup.cube, jacoby=setup.jacoby, beavers=setup.beavers)
    start, position = start_state(setup, rules)
    players, intro = build_players(setup, settings, out)
    if saved:
        names = " against ".join(saved.names)
        print(f" Resuming {names} from {saved.path} ({len(saved.actions)} actions so far).", file=out)
    else:
        print(intro, file=out)
    dice = saved.recording_dice() if saved else RecordingDice(dice_for(setup.seed))
    path = saved.path if saved else new_save_path()
    autosave = Autosave(path, setup, dice)
    note = kept_note(path)
    for human in players:
        if isinstance(human, HumanBot):
            human.kept_note, human.confirm_quit = note, True
    match = replayed_match(players, dice, rules, autosave, actions=saved.actions if saved else (),
                           rolls=saved.rolls_used if saved and setup.seed is not None else None,
                           observers=[Narrator(out, pause=stdin_pause, viewer=0)], start=start, position=position)
    if not saved:
        autosave.write()
        print(f" The match is saved after every move in {path}.", file=out)
    # the match is kept as a .mat beside its autosave (or where --save says), to analyse; a .mat cannot
    # record a game started from a set position
    kept_mat = str(path.with_suffix(".mat")) if position is None else None
    run_match(match, out, setup.save or kept_mat, kept=note, offer_analysis=True)
    if autosave.error:
        print(f" {autosave.error}", file=out)
    return 0


def setup_from_args(args: argparse.Namespace, settings: Settings) -> Setup:
    """The :class:`Setup` the flags and settings ask for, checked before anything is loaded."""
    rules = rules_from_args(args)
    check_plies(args.plies)
    check_save_path(args.save)
    if args.two_player and args.opponent:
        raise CommandError("--two-player and --opponent do not go together: two people play, no bot")
    if args.match_id and not args.position:
        raise CommandError(f"--match-id {args.match_id}: give the position too (--position ID)")
    length = rules.match_length
    if args.position:
        _, state = read_position(args.position, args.match_id)  # fail now on a bad ID
        if state is not None and args.match is None and not (args.jacoby or args.beavers):
            length = state.match_length  # the ID's match length unless --match says otherwise
    opponent = "" if args.two_player else settings.opponent
    if opponent:
        check_plies(args.plies, opponent)
    return Setup(opponent=opponent, name=settings.name.strip() or "you", two_player=args.two_player,
                 match_length=length, cube=rules.cube, jacoby=rules.jacoby, beavers=rules.beavers,
                 seed=args.seed, plies=args.plies, save=args.save, hint=not args.no_hint,
                 position=args.position or "", match_id=args.match_id or "")


def start_state(setup: Setup, rules: Rules) -> tuple[MatchState | None, Position | None]:
    """The starting state of a match from a position (None, None for the usual opening)."""
    if not setup.position:
        return None, None
    position, state = read_position(setup.position, setup.match_id or None)
    if state is None:
        state = MatchState(match_length=rules.match_length, game_state="playing")
    elif state.match_length != rules.match_length:
        state = replace(state, match_length=rules.match_length, score=(0, 0) if not rules.match_length else state.score)
    if state.game_state != "playing":
        state = replace(state, game_state="playing")
    return state, position


def build_players(setup: Setup, settings: Settings, out: TextIO) -> tuple[list[Bot], str]:
    """The two players of ``setup`` and the line that introduces them."""
    seed = setup.seed
    helper = _lazy_strongest(seed) if setup.hint else None
    options = {"confirm": not settings.auto_confirm, "confirm_numbers": settings.confirm_numbers,
               "guide": settings.guide}
    colour = wants_colour(out, setting=settings.color)
    if setup.two_player:
        players: list[Bot] = [
            HumanBot("player 1", helper=helper, seat=0, symbols=seat_symbols(0),
                     paint=painter(0) if colour else None, **options),
            HumanBot("player 2", helper=helper, seat=1, echo=False, symbols=seat_symbols(1),
                     paint=painter(1) if colour else None, **options),
        ]
        return players, (" Two players at one terminal: player 1 is X, player 2 is O; each of you sees the board "
                         "from your own side when on roll.")
    if setup.opponent:
        spec, bot = setup.opponent, load(setup.opponent, seed=bot_seed(seed, 1), **search_options(setup.plies))
    elif setup.plies is not None:  # a search depth asks for the one shipped bot that searches
        spec, bot = "td", load("td", seed=bot_seed(seed, 1), plies=setup.plies)
    else:
        spec, bot = strongest_bot(seed=bot_seed(seed, 1), plies=setup.plies)
    setup.opponent = spec
    name = setup.name
    if name == bot.name:
        name = f"{name} (human)"
    human = HumanBot(name, helper=helper, seat=0, paint=painter(0) if colour else None, **options)
    rules = Rules(match_length=setup.match_length, cube=setup.cube, jacoby=setup.jacoby, beavers=setup.beavers)
    rules_text = f"a {rules.match_length}-point match" if rules.match_length else "a money session"
    extras = rules.describe().partition(", ")[2]
    rules_text += f" ({extras})" if extras else ""
    who = bot.name if spec in (bot.name, "") else f"{bot.name} ({spec})"
    return [human, with_resignations(bot)], f" {name} against {who}: {rules_text}. Type 'help' for the commands."


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
