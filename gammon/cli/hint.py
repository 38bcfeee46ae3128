"""``gammon hint POSITION_ID [DICE]``: the plays of a roll ranked, or the cube decision, like GNU Backgammon's ``hint``."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from gammon.analysis.hint import MATCH_NOTE, MONEY_CUBE_NOTE, cube_hint, cube_state, format_cube, format_plays, hint_plays
from gammon.cli._analysis import check_plies, load_network, read_position
from gammon.cli._util import parse_dice
from gammon.outcomes import OUTPUTS

NAME = "hint"
HELP = "rank the legal plays of a roll (or, without dice, the cube decision) with the network, like GNU Backgammon's hint"



def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", metavar="POSITION_ID",
                        help="GNU Backgammon Position ID (the player on roll moves), or POSITIONID:MATCHID")
    parser.add_argument("dice", nargs="*", metavar="DICE",
                        help="the roll: 61, 6-1 or 6 1; without it, the dice of the Match ID, else the cube decision")
    parser.add_argument("--match-id", metavar="ID", help="GNU Backgammon Match ID: score, cube, Crawford (default money play)")
    parser.add_argument("--plies", default="0", metavar="N", help="search depth: 0, 1 or 2 (default 0)")
    parser.add_argument("--bot", default="td", metavar="SPEC", help="the network: td (the shipped one, default), td1, td2, td-ensemble or a model file")
    parser.add_argument("--json", action="store_true", help="print the hint as JSON")


def run(args: argparse.Namespace) -> int:
    plies = check_plies(args.plies)
    position, match = read_position(args.position, args.match_id)
    dice = parse_dice(" ".join(args.dice)) if args.dice else None
    if dice is None and match is not None and match.dice != (0, 0):
        dice = match.dice
    bot = load_network(args.bot)
    where = {"position_id": position.position_id(), "match_id": match.match_id() if match else None, "plies": plies}
    if dice is not None:
        hints = hint_plays(bot, position, dice, plies, cube_state(match) if match is not None else None)
        if args.json:
            note = {"note": (MATCH_NOTE if match.match_length else MONEY_CUBE_NOTE)} if match is not None else {}
            print(json.dumps({**where, "dice": list(dice), **note, "plays": [h.as_dict() for h in hints]}, indent=2))
        else:
            print(format_plays(hints, dice, cube_state(match) if match is not None else None))
        return 0
    cube = cube_hint(bot, position, plies, match)
    if args.json:
        decision = asdict(cube.decision) | {"cube_available": cube.decision.cube_available, "equity": cube.decision.equity}
        situation = {k: v for k, v in asdict(cube).items() if k not in ("decision", "probabilities")}
        print(json.dumps({**where, **situation, "probabilities": dict(zip(OUTPUTS, cube.probabilities)),
                          "decision": decision}, indent=2))
    else:
        print(format_cube(cube))
    return 0
