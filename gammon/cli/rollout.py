"""``gammon rollout POSITION_ID [--dice D]``: Monte Carlo rollouts by the network, like GNU Backgammon's ``rollout``."""

from __future__ import annotations

import argparse
import json
import sys

from gammon import runners
from gammon.runners import add_backend_arguments, backend_from_args
from gammon.analysis.rollout import CHUNK, RolloutResult, RolloutWorker, rollout_plays
from gammon.cli import CommandError
from gammon.cli._analysis import check_plies, load_network, read_position
from gammon.cli._util import parse_dice
from gammon.outcomes import equity as cubeless_equity

NAME = "rollout"
HELP = ("Monte Carlo rollout of a position (before the roll) or of the best plays of a roll (--dice), "
        "played by the network at 0, 1 or 2 plies, with 95% confidence intervals")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", metavar="POSITION_ID", help="GNU Backgammon Position ID, or POSITIONID:MATCHID")
    parser.add_argument("--match-id", metavar="ID", help="a Match ID (checked and shown; rollouts are cubeless money)")
    parser.add_argument("--dice", metavar="D", help="roll out the plays of this roll (61, 6-1) instead of the position")
    parser.add_argument("--candidates", default="5", metavar="K",
                        help="with --dice: the K best plays at 0-ply are rolled out (default 5; 0: all)")
    parser.add_argument("--trials", default="1296", metavar="N", help="trials (default 1296 = 36 x 36 first two rolls)")
    parser.add_argument("--truncate", default="0", metavar="T",
                        help="stop each trial after T plies and value it with the network (default 0: play to the end)")
    parser.add_argument("--seed", default="0", metavar="S", help="seed of the dice after the first two rolls (default 0)")
    parser.add_argument("--workers", default=None, metavar="W",
                        help="worker processes (default one per CPU; 0: this process); results do not depend on it")
    parser.add_argument("--plies", default="0", metavar="K",
                        help="the depth every checker play of the trials is chosen at: 0, 1 or 2 (default 0)")
    add_backend_arguments(parser)
    parser.add_argument("--no-variance-reduction", action="store_true",
                        help="do not subtract the network's luck estimate at each turn")
    parser.add_argument("--bot", default="td", metavar="SPEC", help="the network: td (the shipped one, default), td1, td2, td-ensemble or a model file")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")


def _count(text: str | None, option: str, least: int) -> int:
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise CommandError(f"invalid {option} {text!r}: expected an integer of at least {least}") from None
    if value < least:
        raise CommandError(f"invalid {option} {text!r}: expected an integer of at least {least}")
    return value


def run(args: argparse.Namespace) -> int:
    trials = _count(args.trials, "--trials", 1)
    truncate = _count(args.truncate, "--truncate", 0)
    seed = _count(args.seed, "--seed", 0)
    workers = None if args.workers is None else _count(args.workers, "--workers", 0)
    candidates = _count(args.candidates, "--candidates", 0)
    plies = check_plies(args.plies)
    backend = backend_from_args(args)
    if not backend.is_ray:
        return _run(args, trials, truncate, seed, workers, candidates, plies, backend)
    from gammon.runners.ray import ray_session

    with ray_session(backend):
        return _run(args, trials, truncate, seed, workers, candidates, plies, backend)


def _run(args: argparse.Namespace, trials: int, truncate: int, seed: int, workers: int | None, candidates: int,
         plies: int, backend) -> int:
    position, match = read_position(args.position, args.match_id)
    dice = parse_dice(args.dice) if args.dice is not None else None
    bot = load_network(args.bot)
    plays = None
    if dice is not None:
        ranked, eq = bot.play_equities(position, dice, 0)
        order = sorted(range(len(ranked)), key=lambda i: (-eq[i], i))
        plays = [ranked[i] for i in order[: candidates or None]]
    live = 1 if plays is None else sum(not position.apply(p).is_game_over() for p in plays)
    units = live * -(-trials // CHUNK)
    from tqdm import tqdm

    with tqdm(total=live * trials, desc="rollout", unit="trial", file=sys.stderr, leave=False) as bar, \
            runners.start(backend, RolloutWorker, (bot.evaluator,), workers, most=max(1, units)) as runner:
        results = rollout_plays(position, bot.evaluator, dice, plays, trials=trials, truncate=truncate, seed=seed,
                                variance_reduction=not args.no_variance_reduction, plies=plies, runner=runner,
                                progress=bar.update)
    settings = results[0].settings
    if args.json:
        out = {"position_id": position.position_id(), "match_id": match.match_id() if match else None,
               "dice": list(dice) if dice else None, **settings, "results": [r.as_dict() for r in results]}
        print(json.dumps(out, indent=2))
    else:
        print(format_rollout(results, position.position_id(), dice, settings))
    return 0


def format_rollout(results: list[RolloutResult], position_id: str, dice, settings: dict) -> str:
    """GNU Backgammon-like rollout table: one row of probabilities and equity per result, its 95% intervals below."""
    what = f"plays of {dice[0]}-{dice[1]}" if dice else "the position (player on roll, before the roll)"
    cut = f"truncated at {settings['truncate']} plies" if settings["truncate"] else "played to the end"
    vr = "variance reduction (0-ply luck)" if settings["variance_reduction"] else "no variance reduction"
    lines = [
        f"Rollout of {what} {position_id}: {settings['trials']} trials, seed {settings['seed']}, "
        f"{settings.get('plies', 0)}-ply, {cut}, {vr}",
        "Cubeless money equities and probabilities of the player who moves; 95% intervals below each row",
        f"{'':<4}{'':<28} {'Win':>6} {'W(g)':>6} {'W(bg)':>6} {'L':>6} {'L(g)':>6} {'L(bg)':>6}   {'Equity':>7}",
    ]
    for rank, r in enumerate(results, 1):
        p, ci = r.probabilities, r.probabilities_ci
        name = r.play if r.play is not None else "no roll yet"
        lines.append(f"{rank:>2}. {name:<28} {p[0]:6.3f} {p[1]:6.3f} {p[2]:6.3f} {1 - p[0]:6.3f} {p[3]:6.3f} {p[4]:6.3f}"
                     f"   {r.equity:+7.3f}")
        lines.append(f"{'':<4}{'95% +-':>28} {ci[0]:6.3f} {ci[1]:6.3f} {ci[2]:6.3f} {ci[0]:6.3f} {ci[3]:6.3f} {ci[4]:6.3f}"
                     f"   {r.equity_ci:7.3f}")
        assert abs(cubeless_equity(p) - r.equity) < 1e-9
    return "\n".join(lines)
