"""Bot benchmarks: decision speed against peers, arena scaling, and the strength ladder.

    python benchmarks/bots.py speed                 # ms per decision, each bot and the gnubg-nn peers
    python benchmarks/bots.py scaling               # the same run on 1 and 2 worker processes
    python benchmarks/bots.py ladder --json ladder.json [--adjacent 4000 --other 1000 --anchor 1000]

Every section prints a Markdown table (the source of the bots sections of benchmarks/RESULTS.md).
Strength runs are cubeless money games with duplicate dice (see gammon.arena);
each pairing uses the seed given (default 1) so any row can be rerun with
``gammon eval A B --games N --seed S``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

from gammon.arena import Result, elo_ratings, evaluate
from gammon.bots import load
from gammon.position import Position

LEVELS = ["level1", "level2", "level3", "level4", "level5"]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, load average {load:.1f} at the start"


def sample_decisions(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """Positions and rolls met in level-3 self-play, every stage of the game."""
    rng = random.Random(seed)
    bots = [load("level3", seed=seed), load("level3", seed=seed + 1)]
    found: list[tuple[Position, tuple[int, int]]] = []
    while len(found) < count:
        position, turn = Position.initial(), 0
        while not position.is_game_over() and len(found) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            found.append((position, dice))
            position = position.apply(bots[turn].choose_play(position, dice))
            turn ^= 1
    return found


def time_bot(spec: str, decisions, repeat: int) -> float:
    """Mean seconds per ``choose_play`` (legal-play generation included), best of ``repeat`` passes."""
    bot = load(spec, seed=1)
    bot.choose_play(*decisions[0])  # compile / load
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for position, dice in decisions:
            bot.choose_play(position, dice)
        best = min(best, (time.perf_counter() - start) / len(decisions))
    return best


def time_gnubg_raw(decisions, repeat: int) -> tuple[float, float]:
    """gnubg-nn's own best_move (0-ply) and pub_best_move per call, on the same positions (no mapping back)."""
    import gnubg_nn

    from gammon.bots.external import gnubg_boards

    boards = [(gnubg_boards(p.board[None, :])[0].tolist(), d) for p, d in decisions]
    out = []
    for fn in (gnubg_nn.best_move, gnubg_nn.pub_best_move):
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            for board, (d1, d2) in boards:
                fn(board, d1, d2)
            best = min(best, (time.perf_counter() - start) / len(boards))
        out.append(best)
    return out[0], out[1]


def speed(args: argparse.Namespace) -> dict:
    decisions = sample_decisions(args.positions, seed=args.seed)
    raw_gnubg, raw_pub = time_gnubg_raw(decisions, args.repeat)
    rows = {}
    for spec in ["random", *LEVELS, "pubeval", "gnubg", "td1", "td"]:  # td: the shipped net (td-ensemble), td1 the first
        subset = decisions if spec != "level5" else decisions[: max(200, args.positions // 4)]
        rows[spec] = time_bot(spec, subset, args.repeat if spec != "level5" else 1)
    print(f"\nDecision time, {len(decisions)} positions from level-3 self-play (legal-play generation included); {machine()}\n")
    print("| bot | ms per decision | x gnubg-nn best_move (0-ply) | x our pubeval bot |")
    print("|---|---:|---:|---:|")
    for spec, seconds in rows.items():
        print(f"| {spec} | {seconds * 1e3:.3f} | {seconds / raw_gnubg:.1f} | {seconds / rows['pubeval']:.2f} |")
    print(f"| *gnubg-nn best_move itself* | {raw_gnubg * 1e3:.3f} | 1.0 | {raw_gnubg / rows['pubeval']:.2f} |")
    print(f"| *gnubg-nn pub_best_move itself* | {raw_pub * 1e3:.3f} | {raw_pub / raw_gnubg:.1f} | {raw_pub / rows['pubeval']:.2f} |")
    return {"ms_per_decision": {k: v * 1e3 for k, v in rows.items()}, "gnubg_best_move_ms": raw_gnubg * 1e3, "pub_best_move_ms": raw_pub * 1e3}


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def cpu_control(n: int = 20_000_000) -> float:
    """Speed-up of a pure-Python loop on 2 spawned processes over 1: what the machine allows right now."""
    import multiprocessing

    start = time.perf_counter()
    _spin(n)
    _spin(n)
    serial = time.perf_counter() - start
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_spin, [1, 1])
        start = time.perf_counter()
        pool.map(_spin, [n, n])
        parallel = time.perf_counter() - start
    return serial / parallel


def _cpu_seconds() -> float:
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def scaling(args: argparse.Namespace) -> dict:
    control = cpu_control()
    times, cpu = {}, {}
    for workers in (1, 2):
        start, start_cpu = time.perf_counter(), _cpu_seconds()
        result = evaluate(args.a, args.b, args.games, args.seed, workers)
        times[workers] = time.perf_counter() - start
        cpu[workers] = _cpu_seconds() - start_cpu
        print(f"{workers} worker(s): {times[workers]:.1f} s, {args.games / times[workers]:.1f} games/s, ppg {result.ppg:+.3f}", file=sys.stderr)
    print(f"\nArena scaling, {args.a} vs {args.b}, {args.games} games, seed {args.seed} (wall time incl. worker start-up); {machine()}")
    print(f"Control: a pure-Python loop on 2 processes runs {control:.2f}x one process on this machine right now.\n")
    print("| workers | seconds | games/s | speed-up | CPU seconds (all processes) |")
    print("|---:|---:|---:|---:|---:|")
    for workers, seconds in times.items():
        print(f"| {workers} | {seconds:.1f} | {args.games / seconds:.1f} | {times[1] / seconds:.2f} | {cpu[workers]:.1f} |")
    return {"games": args.games, "seconds": times, "cpu_seconds": cpu, "speedup": times[1] / times[2], "cpu_control": control}


def _row(r: Result) -> str:
    lo, hi = r.ci95
    verdict = ("yes" if lo > 0 and r.ppg >= 0.10 else "no") if r.b in LEVELS else "-"
    return (
        f"| {r.a} | {r.b} | {r.games} | {r.ppg:+.3f} | {lo:+.3f} .. {hi:+.3f} | {100 * r.win_rate:.1f}% | "
        f"{100 * r.gammon_rate:.1f}% / {100 * r.lose_gammon_rate:.1f}% | {100 * r.backgammon_rate:.1f}% / {100 * r.lose_backgammon_rate:.1f}% | "
        f"{r.games_per_second:.1f} | {r.seed} | {verdict} |"
    )


def ladder(args: argparse.Namespace) -> dict:
    pairs = []
    for i in range(len(LEVELS)):
        for j in range(i):
            games = args.adjacent if i - j == 1 else args.other
            pairs.append((LEVELS[i], LEVELS[j], games))
    for level in LEVELS:
        if args.anchor:
            pairs.append((level, "pubeval", args.anchor))
    pairs.append(("level1", "random", args.other))
    results: list[Result] = []
    saved = {}
    if args.json and args.json.exists():
        saved = {(d["a"], d["b"]): d for d in json.loads(args.json.read_text())["results"]}
    for a, b, games in pairs:
        if (a, b) in saved and saved[(a, b)]["games"] == games and saved[(a, b)]["seed"] == args.seed:
            d = saved[(a, b)]
            d["ci95"] = tuple(d["ci95"])
            results.append(Result(**{k: v for k, v in d.items() if k in Result.__dataclass_fields__}))
            continue
        result = evaluate(a, b, games, args.seed, args.workers, progress=True)
        print(result.summary(), file=sys.stderr, flush=True)
        results.append(result)
        if args.json:
            args.json.write_text(json.dumps({"machine": machine(), "results": [r.to_dict() for r in results]}, indent=1))
    print(f"\nLadder: cubeless money, duplicate dice, seed {args.seed}, {args.workers} workers; {machine()}\n")
    print("| A | B | games | A ppg | 95% CI | A wins | gammons A/B | backgammons A/B | games/s | seed | +0.10 & CI>0 |")
    print("|---|---|---:|---:|---|---:|---|---|---:|---:|---|")
    for r in results:
        print(_row(r))
    among = [r for r in results if r.a in LEVELS and r.b in LEVELS]
    ratings = elo_ratings(LEVELS, among)
    print("\n| level | Elo-style rating (from the level-vs-level results) |\n|---|---:|")
    for level in LEVELS:
        print(f"| {level} | {ratings[level]:.0f} |")
    return {"results": [r.to_dict() for r in results], "ratings": ratings}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("speed")
    p.add_argument("--positions", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p = sub.add_parser("scaling")
    p.add_argument("--a", default="level5")
    p.add_argument("--b", default="level4")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p = sub.add_parser("ladder")
    p.add_argument("--adjacent", type=int, default=4000)
    p.add_argument("--other", type=int, default=1000)
    p.add_argument("--anchor", type=int, default=1000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", type=Path, default=None, help="results so far (a rerun skips the pairings already there)")
    args = parser.parse_args()
    {"speed": speed, "scaling": scaling, "ladder": ladder}[args.what](args)


if __name__ == "__main__":
    main()
