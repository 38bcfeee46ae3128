"""``gammon board [POSITION]``: draw a position (Position ID, PositionID:MatchID pair or XGID)."""

from __future__ import annotations

import argparse

from gammon.board_text import draw_board
from gammon.cli._util import parse_dice
from gammon.position import Position
from gammon.position_input import read_position

NAME = "board"
HELP = "draw a position (the starting position, a GNU Backgammon Position ID or PositionID:MatchID, or an XGID)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position_id", nargs="?", metavar="POSITION",
                        help="GNU Backgammon Position ID (player on roll at the bottom), PositionID:MatchID, "
                             "or eXtreme Gammon XGID=...")
    parser.add_argument("--dice", metavar="D1D2", help="also list the legal plays of this roll, e.g. 31 "
                        "(default: the dice in the Match ID or XGID, if rolled)")


def run(args: argparse.Namespace) -> int:
    position, state = read_position(args.position_id) if args.position_id else (Position.initial(), None)
    dice = parse_dice(args.dice) if args.dice else (state.dice if state and state.dice != (0, 0) else None)
    print(draw_board(position))
    if state is not None:
        print(f" Match ID   : {state.match_id()}  ({_state_text(state)})")
    if dice:
        plays = position.legal_plays(dice)
        print(f"\n {len(plays)} legal plays of {dice[0]}-{dice[1]}:")
        for play in plays:
            print(f"   {play}")
    return 0


def _state_text(state) -> str:  # type: ignore[no-untyped-def]
    what = f"{state.match_length}-point match, score {state.score[0]}-{state.score[1]}" if state.match_length \
        else "money game"
    owner = {-1: "centred", 0: "owned by player 0", 1: "owned by player 1"}[state.cube_owner]
    return f"{what}, cube {state.cube} {owner}, player {state.player_on_roll} on roll"
