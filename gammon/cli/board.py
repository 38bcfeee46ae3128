"""``gammon board [POSITION_ID]``: draw a position."""

from __future__ import annotations

import argparse

from gammon.board_text import draw_board
from gammon.cli._util import parse_dice
from gammon.position import Position

NAME = "board"
HELP = "draw a position (the starting position, or a GNU Backgammon Position ID)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position_id", nargs="?", metavar="POSITION_ID", help="GNU Backgammon Position ID (player on roll at the bottom)")
    parser.add_argument("--dice", metavar="D1D2", help="also list the legal plays of this roll, e.g. 31")


def run(args: argparse.Namespace) -> int:
    position = Position.from_position_id(args.position_id) if args.position_id else Position.initial()
    dice = parse_dice(args.dice) if args.dice else None
    print(draw_board(position))
    if dice:
        plays = position.legal_plays(dice)
        print(f"\n {len(plays)} legal plays of {dice[0]}-{dice[1]}:")
        for play in plays:
            print(f"   {play}")
    return 0
