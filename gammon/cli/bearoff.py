"""``gammon bearoff build [--force]`` and ``gammon bearoff show POSITION_ID``: the one-sided bear-off database."""

from __future__ import annotations

import argparse
import time

import numpy as np

from gammon.bearoff import Database, database, is_bearoff
from gammon.bearoff.store import default_path
from gammon.cli import CommandError
from gammon.outcomes import OUTPUTS, equity
from gammon.position_input import read_position

NAME = "bearoff"
HELP = "build the one-sided bear-off database, or show a pure bear-off race from it"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = sub.add_parser("build", help=f"build the database into the user cache ({default_path()}) unless it is there and sound")
    build.add_argument("--force", action="store_true", help="rebuild even if the cached file is sound")
    show = sub.add_parser("show", help="both sides' expected rolls and distributions, and the race probabilities of the side on roll")
    show.add_argument("position_id", metavar="POSITION_ID", help="GNU Backgammon Position ID of a pure bear-off")


def run(args: argparse.Namespace) -> int:
    if args.action == "build":
        start = time.perf_counter()
        db = Database.load(force=args.force)
        n = db.tables.off.shape[0]
        print(f"bear-off database: {n} positions, {default_path()} ({time.perf_counter() - start:.1f} s)")
        return 0
    position, _ = read_position(args.position_id)
    if not is_bearoff(position.board):  # said before the database is loaded (or built)
        raise CommandError(f"position {args.position_id!r} is not a pure bear-off (a checker outside a home board or on the bar)")
    db = database()
    mine, theirs = db.sides(position.board)
    for label, index in (("on roll", mine), ("opponent", theirs)):
        print(f"{label:>9}: {db.mean(index):7.4f} rolls to bear off ({_summary(db.distribution(index))})")
        if db.mean_first(index) > 0:
            print(f"{'':>9}  {db.mean_first(index):7.4f} rolls to a first checker off ({_summary(db.first_distribution(index))})")
    p = db.race(position.board)
    print("  " + "  ".join(f"{name} {value:.4f}" for name, value in zip(OUTPUTS, p)) + f"  equity {float(equity(p)):+.4f}")
    return 0


def _summary(dist: np.ndarray) -> str:
    """The rolls with a chance of at least 0.05%, as ``3: 11.1%, 4: 67.1%``."""
    return ", ".join(f"{t}: {100 * p:.1f}%" for t, p in enumerate(dist) if p >= 0.0005)
