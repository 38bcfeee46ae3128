"""``gammon hint POSITION_ID [DICE]``: the plays of a roll ranked, or the cube decision, like GNU Backgammon's ``hint``."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from gammon.analysis.hint import CubeHint, PlayHint, cube_hint, cube_state, hint_plays
from gammon.cli._analysis import check_plies, load_network, read_position
from gammon.cli._util import parse_dice
from gammon.cli.cube import format_hint
from gammon.ids import MatchState
from gammon.outcomes import OUTPUTS

NAME = "hint"
HELP = "rank the legal plays of a roll (or, without dice, the cube decision) with the network, like GNU Backgammon's hint"

MATCH_NOTE = "cubeful equities in EMG, with the match-winning chance (MWC) after each play"
MONEY_CUBE_NOTE = "cubeful money equities in EMG (per unit of the cube)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", metavar="POSITION_ID",
                        help="GNU Backgammon Position ID (the player on roll moves), or POSITIONID:MATCHID")
    parser.add_argument("dice", nargs="*", metavar="DICE",
                        help="the roll: 61, 6-1 or 6 1; without it, the dice of the Match ID, else the cube decision")
    parser.add_argument("--match-id", metavar="ID", help="GNU Backgammon Match ID: score, cube, Crawford (default money play)")
    parser.add_argument("--plies", default="0", metavar="N", help="search depth: 0, 1 or 2 (default 0)")
    parser.add_argument("--bot", default="td", metavar="SPEC", help="the network: td (shipped, default) or a model file")
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
            print(format_plays(hints, dice, match))
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


def format_plays(hints: list[PlayHint], dice: tuple[int, int], match: MatchState | None = None) -> str:
    """The plays laid out like GNU Backgammon's hint: rank, depth, play, equity, difference; the probabilities below.

    >>> hint = PlayHint(1, "8/5 6/5", 0.1587, 0.0, (0.553, 0.164, 0.007, 0.113, 0.005), 0)
    >>> print(format_plays([hint], (3, 1)))
    Plays of 3-1, cubeless money equities
        1. Cubeless 0-ply    8/5 6/5                      Eq.: +0.159
           0.553 0.164 0.007 - 0.447 0.113 0.005
    """
    if match is not None and match.match_length:
        me = match.player_on_roll
        kind = (f"{match.match_length}-point match, score {match.score[me]}-{match.score[1 - me]} "
                f"(the player on roll first): {MATCH_NOTE}")
    elif match is not None:
        kind = MONEY_CUBE_NOTE
    else:
        kind = "cubeless money equities"
    lines = [f"Plays of {dice[0]}-{dice[1]}, {kind}"]
    for h in hints:
        how = "Cubeless" if h.measure == "cubeless" else "Cubeful "
        line = f"  {h.rank:>3}. {how} {h.plies}-ply    {h.play:<28} Eq.: {h.equity:+.3f}"
        if h.mwc is not None:
            line += f" (MWC {100 * h.mwc:.1f}%)"
        if h.rank > 1:
            line += f" ({h.difference:+.3f})"
        lines.append(line)
        p = h.probabilities
        lines.append(f"       {p[0]:.3f} {p[1]:.3f} {p[2]:.3f} - {1 - p[0]:.3f} {p[3]:.3f} {p[4]:.3f}")
    return "\n".join(lines)


def format_cube(cube: CubeHint) -> str:
    """The cube decision laid out as ``gammon cube`` prints it (GNU Backgammon's cube hint)."""
    text = format_hint(cube.decision, list(cube.probabilities), cube.match_length, cube.score, cube.cube, cube.owner,
                       cube.crawford)
    return f"{cube.plies}-ply cubeless probabilities\n{text}"
