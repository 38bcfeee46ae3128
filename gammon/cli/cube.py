"""``gammon cube --probs W,WG,WBG,LG,LBG [...]``: the cube decision, printed like GNU Backgammon's cube hint."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from gammon.analysis.hint import format_cube_decision
from gammon.cli import CommandError
from gammon.cube import CONTACT_EFFICIENCY, decide, race_efficiency
from gammon.met import load_met

NAME = "cube"
HELP = "cube decision (no double / double, take / double, pass) from the five cubeless probabilities"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--probs",
        required=True,
        metavar="W,WG,WBG,LG,LBG",
        help="cubeless probabilities of the player on roll: win, win gammon, win backgammon, "
        "lose gammon, lose backgammon (cumulative, as GNU Backgammon prints them)",
    )
    parser.add_argument("--match", default="0", metavar="LEN", help="match length (default 0: money play)")
    parser.add_argument("--score", default="0,0", metavar="A,B", help="score: player on roll, opponent (default 0,0)")
    parser.add_argument("--cube", default="1", metavar="V", help="cube value (default 1)")
    parser.add_argument("--owner", default="centre", metavar="centre|me|opponent", help="who owns the cube (default centre)")
    parser.add_argument("--crawford", action="store_true", help="this is the Crawford game")
    parser.add_argument(
        "--efficiency", metavar="X", help=f"cube efficiency (default {CONTACT_EFFICIENCY}, GNU Backgammon's value for contact)"
    )
    parser.add_argument("--pips", metavar="N", help="a race: cube efficiency from the pip count of the player on roll")
    parser.add_argument("--jacoby", action="store_true", help="money play with the Jacoby rule")
    parser.add_argument("--beavers", action="store_true", help="money play with beavers")
    parser.add_argument("--met", metavar="FILE", help="match equity table (GNU Backgammon XML; default Kazaross-XG2)")
    parser.add_argument("--digits", default="3", metavar="N", help="digits after the decimal point (default 3)")
    parser.add_argument("--json", action="store_true", help="print the decision as JSON")


def run(args: argparse.Namespace) -> int:
    probs = _numbers(args.probs, "--probs", 5, float, "five numbers W,WG,WBG,LG,LBG")
    match_length = _numbers(args.match, "--match", 1, int, "a match length (0 for money)")[0]
    score = _numbers(args.score, "--score", 2, int, "two scores A,B")
    cube = _numbers(args.cube, "--cube", 1, int, "a cube value")[0]
    digits = _numbers(args.digits, "--digits", 1, int, "a number of digits")[0]
    if not 1 <= digits <= 9:
        raise CommandError(f"invalid --digits {args.digits!r}: expected 1 to 9")
    if args.pips is not None and args.efficiency is not None:
        raise CommandError("--pips and --efficiency both set the cube efficiency: give one")
    if args.pips is not None:
        efficiency = race_efficiency(_numbers(args.pips, "--pips", 1, int, "a pip count")[0])
    elif args.efficiency is not None:
        efficiency = _numbers(args.efficiency, "--efficiency", 1, float, "a cube efficiency")[0]
    else:
        efficiency = CONTACT_EFFICIENCY
    if match_length == 0 and tuple(score) != (0, 0):
        raise CommandError(f"invalid --score {args.score!r} without --match: money play has no score")
    situation = dict(
        match_length=match_length,
        score=(score[0], score[1]),
        cube=cube,
        owner=args.owner,
        crawford=args.crawford,
        cube_efficiency=efficiency,
        jacoby=args.jacoby,
        beavers=args.beavers,
    )
    decision = decide(probs, **situation, met=load_met(args.met) if args.met else None)
    if args.json:
        result = asdict(decision) | {"cube_available": decision.cube_available, "equity": decision.equity}
        print(json.dumps({"input": {"probs": probs, **situation}, "decision": result}, indent=2))
    else:
        print(format_cube_decision(decision, probs, match_length, tuple(score), cube, args.owner, args.crawford, digits))
    return 0


def _numbers(text: str, option: str, count: int, kind: type, expected: str) -> list:
    parts = [part.strip() for part in text.split(",")]
    try:
        values = [kind(part) for part in parts]
    except ValueError:
        raise CommandError(f"invalid {option} {text!r}: expected {expected}") from None
    if len(values) != count:
        raise CommandError(f"invalid {option} {text!r}: expected {expected}")
    return values
