"""``gammon demo``: bot against bot, the board redrawn each turn."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from gammon.bots import load
from gammon.cli import CommandError
from gammon.errors import GammonError
from gammon.cli.play import check_plies, search_options, searches
from gammon.match import Match, Table
from gammon.records import Action, Rules
from gammon.tui.session import Narrator, bot_seed, check_save_path, dice_for, run_match, strongest_bot
from gammon.board_text import Painter
from gammon.tui.colour import painter, wants_colour
from gammon.tui.explain import Explainer
from gammon.tui.table import draw_table
from gammon.tui.words import describe, hit_points, touched_points

NAME = "demo"
HELP = "watch two bots play a match (or money games), the board redrawn each turn"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", nargs=2, metavar=("A", "B"),
                        help="the two bots (default: the strongest shipped bot against level3)")
    parser.add_argument("--match", type=int, default=5, metavar="LEN", help="match length; 0 for money games (default 5)")
    parser.add_argument("--games", type=int, default=1, metavar="N", help="number of money games with --match 0 (default 1)")
    parser.add_argument("--delay", type=float, metavar="S",
                        help="seconds between turns (default 1 on a terminal, 0 otherwise; 0 runs straight through)")
    parser.add_argument("--plies", type=int, metavar="N",
                        help="search depth 0, 1 or 2 for the bots that search (td, model files); at least one must")
    parser.add_argument("--seed", type=int, metavar="N", help="seed the dice and the bots")
    parser.add_argument("--save", metavar="FILE.mat", help="save the match as a .mat file")
    parser.add_argument("--explain", action="store_true",
                        help="name the terms and rules as they happen (hit, bar, entering, prime, bearing off, "
                             "gammon, cube, Crawford game), each explained the first time")
    parser.add_argument("--color", "--colour", dest="color", action=argparse.BooleanOptionalAction, default=None,
                        help="ANSI colours (default: on a terminal, unless NO_COLOR is set)")


class Show:
    """Tells each play and cube action, then draws the board it left, player 0 at the bottom.

    On a terminal (``redraw``) the screen is cleared first, so the board stays
    in place; ``explainer`` names the terms and rules as they happen.
    """

    def __init__(self, out: TextIO, delay: float, *, redraw: bool = False, explainer: Explainer | None = None,
                 paint: Painter | None = None) -> None:
        self.out = out
        self.delay = delay
        self.redraw = redraw
        self.explainer = explainer
        self.paint = paint

    def __call__(self, action: Action, table: Table) -> None:
        if action.kind in ("roll", "match"):
            return
        notes: list[str] = []
        if self.explainer is not None:
            mover_after = table.position_for(action.player) if action.kind == "move" else None
            notes = self.explainer.notes(action, mover_after, table.crawford)
        if action.kind == "start":
            for note in notes:
                print(f"   {note}", file=self.out, flush=True)
            return
        caption = f" {describe(action, table.names, 0)}"
        if action.kind in ("move", "win"):
            marks = touched_points(action.moves, action.player, 0) if action.kind == "move" else set()
            hits = hit_points(action.moves, action.player, 0) if action.kind == "move" else set()
            board = draw_table(table, 0, marks=marks, hits=hits, paint=self.paint)
            if self.redraw:
                self.out.write(CLEAR)
            print(caption + "".join(f"\n   {note}" for note in notes), file=self.out)
            print(board, file=self.out, flush=True)
        else:
            print(caption + "".join(f"\n   {note}" for note in notes), file=self.out, flush=True)
        if self.delay > 0:
            time.sleep(self.delay)


#: Clear the screen and go to its top left (ANSI), to redraw the board in place.
CLEAR = "\x1b[H\x1b[2J"


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.match < 0:
        raise CommandError(f"invalid match length {args.match}: expected a number of points, 0 for money")
    if args.games < 1:
        raise CommandError(f"invalid number of games {args.games}: expected at least 1")
    delay = args.delay if args.delay is not None else (1.0 if out.isatty() else 0.0)
    if delay < 0:
        raise CommandError(f"invalid delay {args.delay}: expected seconds, 0 or more")
    check_plies(args.plies)
    check_save_path(args.save)
    seed = args.seed
    if args.players:
        if args.plies is not None and not any(searches(spec) for spec in args.players):
            a, b = args.players
            raise CommandError(f"--plies {args.plies}: neither {a} nor {b} has a search (--plies is for td or a model file)")
        bots = [load(spec, seed=bot_seed(seed, i), **(search_options(args.plies) if searches(spec) else {}))
                for i, spec in enumerate(args.players)]
    else:
        if args.plies is not None:  # a search depth asks for the one shipped bot that searches
            bots = [load("td", seed=bot_seed(seed, 0), plies=args.plies)]
        else:
            bots = [strongest_bot(seed=bot_seed(seed, 0))[1]]
        try:
            bots.append(load("level3", seed=bot_seed(seed, 1)))
        except GammonError:
            bots.append(load("random", seed=bot_seed(seed, 1)))
    rules = Rules(match_length=args.match)
    games = None if args.match else args.games
    terminal = bool(getattr(out, "isatty", None) and out.isatty())
    show = Show(out, delay, redraw=terminal and delay > 0, explainer=Explainer() if args.explain else None,
                paint=painter(0) if wants_colour(out, args.color) else None)
    match = Match(bots, dice_for(seed), rules, games=games, observers=[show, Narrator(out, viewer=0)])
    names = match.record.names
    print(f" {names[0]} (X) against {names[1]} (O): {rules.describe()}.", file=out, flush=True)
    run_match(match, out, args.save)
    return 0
