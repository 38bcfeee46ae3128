"""``gammon eval A B --games N``: measure one bot against another; ``--round-robin`` rates several.

``--baseline C`` also plays C against B on the same dice and reports how
much more A takes from B than C does, with the interval of that difference
over the duplicate pairs: far narrower than the two runs' own intervals.

Results go to stdout, the progress bar to stderr. Every dice sequence is
played twice with the seats swapped, so ``--games`` must be even. Ctrl-C
stops the run and reports the whole pairs played so far, marked as
interrupted (exit status 130).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from gammon.arena import EvaluationInterrupted, Format, Result, evaluate, make_bot, new_seed, paired_gain, round_robin
from gammon.arena.chart import draw_ratings
from gammon.runners import Backend, add_backend_arguments, backend_from_args
from gammon.cli import CommandError

NAME = "eval"
HELP = "play bots against each other (duplicate dice) and report points per game with a 95% confidence interval"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("bots", nargs="*", metavar="BOT", help="two bots (level1..level5, random, pubeval, gnubg, td (the shipped net), td1, td2, td-ensemble, a model file); more with --round-robin")
    parser.add_argument("--games", type=int, default=None, metavar="N", help="games per pairing, even, at least 2 (default 1000, 200 per pair in a round robin)")
    parser.add_argument("--round-robin", action="store_true", help="play every pair of the bots and fit Elo-style ratings")
    parser.add_argument("--baseline", default=None, metavar="BOT",
                        help="also play BOT against the second bot on the same dice and report the first bot's gain over it")
    parser.add_argument("--match", type=int, default=0, metavar="LEN", help="play LEN-point matches (with the cube and the Crawford rule) and report the match-win rate")
    parser.add_argument("--cube", action="store_true", help="money games with the doubling cube (default: cubeless)")
    parser.add_argument("--workers", type=int, default=None, metavar="W",
                        help=f"worker processes (default: all {os.cpu_count()} cores); with --backend ray, actors (default: one per cluster CPU)")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="run seed (default: drawn and printed, so the run can be repeated)")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--chart", type=Path, default=None, metavar="PNG", help="round robin: where to draw the ratings chart (default ratings.png)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_backend_arguments(parser)


def run(args: argparse.Namespace) -> int:
    fmt = Format(match_length=args.match, cube=args.cube)
    fmt.check()
    backend = backend_from_args(args)
    workers = args.workers
    if workers is None and not backend.is_ray:
        workers = os.cpu_count() or 1
    if workers is not None and workers < 1:
        raise CommandError(f"invalid --workers {workers}: expected at least 1")
    for path in (args.json, args.chart):
        if path is not None and not path.parent.is_dir():
            raise CommandError(f"cannot write {path}: no directory {path.parent}")
    seed = args.seed if args.seed is not None else new_seed()
    # One Ray session for the whole command (a round robin's pairings share it).
    if not backend.is_ray:
        return _run(args, fmt, seed, workers, backend)
    from gammon.runners.ray import ray_session

    with ray_session(backend):
        return _run(args, fmt, seed, workers, backend)


def _run(args: argparse.Namespace, fmt: Format, seed: int, workers: int | None, backend: Backend) -> int:
    progress = not args.quiet
    if args.round_robin:
        if args.baseline is not None:
            raise CommandError("--baseline compares two bots against one opponent; it does not go with --round-robin")
        if len(args.bots) < 2:
            raise CommandError("--round-robin needs at least two bots")
        games = 200 if args.games is None else args.games
        print(f"round robin of {', '.join(args.bots)}: {games} duplicate-dice {fmt.describe()} per pair, seed {seed}", flush=True)
        done: list[Result] = []

        def on_result(result: Result) -> None:
            done.append(result)
            _print_result(result)

        try:
            table = round_robin(args.bots, games, seed, workers, fmt=fmt, progress=progress, on_result=on_result, backend=backend)
        except EvaluationInterrupted as stop:
            pairings = len(args.bots) * (len(args.bots) - 1) // 2
            print(f"INTERRUPTED: {len(done)} of {pairings} pairings finished; no ratings (they need every pairing)")
            if stop.result is not None:
                print(_interrupted_text(stop))
            if args.json:
                partial = [r.to_dict() for r in done] + ([_partial_dict(stop)] if stop.result is not None else [])
                _write_json(args.json, {"seed": seed, "games_per_pair": games, "interrupted": True, "results": partial})
            return 130
        print(table.summary())
        chart = args.chart or Path("ratings.png")
        try:
            draw_ratings(table, chart)
        except OSError as exc:
            raise CommandError(f"cannot write {chart}: {exc.strerror or exc}") from None
        print(f"\nratings chart: {chart}")
        if args.json:
            _write_json(args.json, {"seed": seed, "games_per_pair": games, "ratings": table.ratings,
                                    "rating_ci95_half_widths": table.rating_errors(),
                                    "results": [r.to_dict() for r in table.results]})
        return 0
    if len(args.bots) != 2:
        raise CommandError(f"expected two bots, got {len(args.bots)} (use --round-robin for more)")
    games = 1000 if args.games is None else args.games
    extra = (f" --match {fmt.match_length}" if fmt.match_length else "") + (" --cube" if fmt.cube else "")
    extra += f" --baseline {args.baseline}" if args.baseline is not None else ""
    reproduce = f"  reproduce: gammon eval {args.bots[0]} {args.bots[1]} --games {games}{extra} --seed {seed}"
    if args.baseline is not None:
        make_bot(args.baseline)  # a bad baseline fails now, not after the first run
    runs: list[Result] = []
    try:
        for bot in (args.bots[0], args.baseline):
            if bot is not None:
                runs.append(evaluate(bot, args.bots[1], games, seed, workers, fmt=fmt, progress=progress, backend=backend))
                print(runs[-1].summary(), flush=True)
    except EvaluationInterrupted as stop:
        print(_interrupted_text(stop))
        print(reproduce)
        if args.json and runs:  # the first bot's run is whole; the baseline's was cut short
            _write_json(args.json, {**runs[0].to_dict(records=True), "baseline_interrupted": True})
        elif args.json and stop.result is not None:
            _write_json(args.json, _partial_dict(stop, records=True))
        return 130
    result = runs[0]
    data = result.to_dict(records=True)
    if args.baseline is not None:
        gain, (lo, hi) = paired_gain(result, runs[1])
        head = f"{result.a} minus {runs[1].a} against {result.b} on the same dice"
        if fmt.match_length:  # a match result is +1 or -1: half of it is the match-win rate
            print(f"{head}: match-win rate {50 * gain:+.1f} points  (95% CI {50 * lo:+.1f} .. {50 * hi:+.1f})")
        else:
            print(f"{head}: {gain:+.4f} ppg  (95% CI {lo:+.4f} .. {hi:+.4f})")
        data["baseline"] = runs[1].to_dict(records=True)
        data["gain_over_baseline"] = {"mean": gain, "ci95": [lo, hi],
                                      "unit": "match result (+1 won, -1 lost)" if fmt.match_length else "points per game"}
    print(reproduce)
    if args.json:
        _write_json(args.json, data)
    return 0


def _interrupted_text(stop: EvaluationInterrupted) -> str:
    """The partial result of an interrupted evaluation, marked as such."""
    if stop.result is None:
        return f"INTERRUPTED before the first duplicate pair was finished: nothing to report of the {stop.games} games"
    return (f"INTERRUPTED after {stop.result.games} of {stop.games} games (whole duplicate pairs only):\n"
            + stop.result.summary())


def _partial_dict(stop: EvaluationInterrupted, records: bool = False) -> dict:
    assert stop.result is not None
    return {**stop.result.to_dict(records=records), "interrupted": True, "games_requested": stop.games}


def _print_result(result: Result) -> None:
    print(result.summary(), flush=True)


def _write_json(path: Path, data: dict) -> None:
    try:
        path.write_text(json.dumps(data, indent=2) + "\n")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(f"results written to {path}", file=sys.stderr)
