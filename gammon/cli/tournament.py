"""``gammon tournament``: four matches against stronger and stronger bots; lose one and you are out."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from gammon.bots import Bot, load
from gammon.cli import CommandError
from gammon.dice import DiceSource
from gammon.match import Match, Observer
from gammon.records import MatchRecord, Rules
from gammon.tui.human import HumanBot
from gammon.resign import with_resignations
from gammon.settings import load_settings
from gammon.tui.colour import painter, wants_colour
from gammon.tui.saves import saves_dir
from gammon.tui.session import Narrator, bot_seed, dice_for, run_match, stdin_pause, strongest_bot

NAME = "tournament"
HELP = "four rounds against stronger and stronger bots (5-, 7-, 11- and 15-point matches); a loss ends it"

#: The match length of each round.
LENGTHS = (5, 7, 11, 15)
#: The opponents of the first three rounds; the final is against the strongest shipped bot.
OPPONENTS = ("level2", "level3", "level4")
ROUND_NAMES = ("Round 1", "Round 2", "Semi-final", "Final")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--opponents", nargs=4, metavar=("R1", "R2", "R3", "FINAL"),
                        help="the four bots (default: level2 level3 level4 and the strongest shipped bot)")
    parser.add_argument("--lengths", nargs=4, type=int, metavar=("L1", "L2", "L3", "L4"), default=list(LENGTHS),
                        help="the four match lengths (default 5 7 11 15)")
    parser.add_argument("--seed", type=int, metavar="N", help="seed the dice and the bots")
    parser.add_argument("--name", default="you", help="your name (default: you)")
    parser.add_argument("--save-dir", metavar="DIR", help="save each match as DIR/round-N.mat")


def play_tournament(
    human: Bot,
    opponents: Sequence[Bot],
    dice: DiceSource,
    out: TextIO,
    *,
    lengths: Sequence[int] = LENGTHS,
    observers: Sequence[Observer] = (),
    save_dir: str | None = None,
) -> list[MatchRecord]:
    """Play the rounds in order until ``human`` loses one; return the records of the rounds played.

    The human won the tournament when every round was played and the last record's winner is 0.
    """
    if len(opponents) != len(lengths):
        raise CommandError(f"{len(opponents)} opponents for {len(lengths)} rounds")
    records: list[MatchRecord] = []
    kept_folder = saves_dir() / f"tournament-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    if not save_dir:
        kept_folder.mkdir(parents=True, exist_ok=True)
    for index, (bot, length) in enumerate(zip(opponents, lengths)):
        title = ROUND_NAMES[index] if len(lengths) == len(ROUND_NAMES) else f"Round {index + 1}"
        print(f"\n === {title}: a {length}-point match against {bot.name} ===", file=out, flush=True)
        match = Match([human, bot], dice, Rules(match_length=length), observers=observers)
        folder = Path(save_dir) if save_dir else kept_folder
        path = str(folder / f"round-{index + 1}.mat")
        record = run_match(match, out, path, offer_analysis=True)
        records.append(record)
        if not record.finished:
            print(" Tournament stopped.", file=out, flush=True)
            return records
        if record.winner != 0:
            print(f" {record.names[1]} knocks {record.names[0]} out in the {title}.", file=out, flush=True)
            return records
        if index < len(lengths) - 1:
            print(f" {record.names[0]} goes through to the {ROUND_NAMES[index + 1] if len(lengths) == 4 else 'next round'}.",
                  file=out, flush=True)
    print(f" Tournament won by {records[-1].names[0]}!", file=out, flush=True)
    return records


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    seed = args.seed
    if any(length < 1 for length in args.lengths):
        raise CommandError(f"invalid match lengths {args.lengths}: each round is at least a 1-point match")
    if args.save_dir and not Path(args.save_dir).is_dir():
        raise CommandError(f"--save-dir {args.save_dir!r} is not a directory")
    if args.opponents:
        bots = [load(spec, seed=bot_seed(seed, i)) for i, spec in enumerate(args.opponents)]
    else:
        bots = [load(spec, seed=bot_seed(seed, i)) for i, spec in enumerate(OPPONENTS)]
        bots.append(strongest_bot(seed=bot_seed(seed, 3))[1])
    bots = [with_resignations(bot) for bot in bots]  # they accept and offer resignations by their own chances
    settings = load_settings()
    human = HumanBot(args.name, helper=None, seat=0, confirm=not settings.auto_confirm,
                     confirm_numbers=settings.confirm_numbers, guide=settings.guide, confirm_quit=True,
                     paint=painter(0) if wants_colour(sys.stdout, setting=settings.color) else None)
    print(" The tournament: " + ", ".join(f"{b.name} ({n} points)" for b, n in zip(bots, args.lengths))
          + ". Lose a match and you are out.", file=out)
    play_tournament(human, bots, dice_for(seed), out, lengths=args.lengths,
                    observers=[Narrator(out, pause=stdin_pause, viewer=0)], save_dir=args.save_dir)
    return 0
