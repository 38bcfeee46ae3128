"""``gammon rollout`` against GNU Backgammon's own rollout and its 2-ply evaluation, measured in the same run.

    nice python benchmarks/rollout.py [--quick] [--bot td] [--trials 288] [--positions 30] [--gnubg-rollouts 4] [--json FILE]

Every rollout here, ours and GNU Backgammon's, is of a position before its
roll, cubeless money, 0-ply checker play for both sides, played to the end
(no truncation, no bear-off database shortcut), variance reduction on,
``--trials`` trials with the first rolls stratified, in one process on one
core; GNU Backgammon's settings are :data:`SETUP` (``gnubg -t``, one thread).

* **speed**: the opening, a middle-game contact position and a race
  (:data:`SPEED`), each rolled out by ours
  (:func:`gammon.analysis.rollout.rollout` in this process, as ``gammon
  rollout --workers 0``, the network loaded and compiled first), then by
  GNU Backgammon; each is timed around the rollout alone (gnubg's inside its
  own Python, so its start-up is not counted): trials per second and the
  ratio ours/gnubg.
* **agreement**: ``--positions`` positions (a third races, the rest contact,
  drawn with ``random.Random(--seed)`` from the positions of
  ``benchmarks/data/moves_gnubg_1ply.txt.gz``, gnubg self-play) rolled out
  by ours against GNU Backgammon's 2-ply evaluation (``gnubg.evaluate``,
  cubeless, no pruning) and, for the first ``--gnubg-rollouts``, against
  GNU Backgammon's rollout: mean absolute equity difference, and how often
  the reference falls inside our 95% interval (give or take 0.001). A lopsided position
  (:data:`LOPSIDED`, the side on roll loses a gammon) checks first that both
  programs give the side on roll's probabilities in the same order.

GNU Backgammon prints a rollout's results only when its output is a
terminal, so it runs on a pseudo-terminal (:func:`on_pty`) and the final
result block is parsed (:func:`parse_rollouts`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# Run as a script, this file's folder is on sys.path: the decisions file and its reader are moves.py's.
from moves import DATA, GNUBG, kind_of, load_data

from gammon.analysis.rollout import RolloutResult, rollout
from gammon.bots.neural import load_neural
from gammon.position import Position

#: The speed positions: the opening, a middle-game contact position, a race (78 against 69 pips).
SPEED = {"opening": "4HPwATDgc/ABMA", "contact": "2G6DAQM4N3AMDA", "race": "rb1HAADsvgcBAA"}
#: The side on roll has 15 checkers on its 7, 8 and 9 points, the other side 3 left on its 1 and 2 points.
LOPSIDED = Position.from_checkers({7: 5, 8: 5, 9: 5}, {23: 1, 24: 2}).position_id()

#: The ``gnubg -t`` commands before the rollouts (``{trials}``, ``{seed}`` filled in).
SETUP = (
    "set threads 1", "set jacoby off", "set player 0 human", "set player 1 human", "new game", "set turn 0",
    "set output digits 4", "set rollout trials {trials}", "set rollout seed {seed}", "set rollout cubeful off",
    "set rollout quasirandom on", "set rollout varredn on", "set rollout truncation enable off",
    "set rollout bearofftruncation exact off", "set rollout bearofftruncation onesided off",
    "set rollout limit enable off", "set rollout later enable off", "set rollout initial off",
    "set rollout players-are-same on",
    *(f"set rollout player {p} chequerplay {s}" for p in (0, 1) for s in ("plies 0", "cubeful off", "prune off")),
)
#: Slack on "inside our 95% interval": a decided game has a zero-width interval, gnubg's nets a value 1e-5 off.
_SLACK = 0.001
_COMPLAINTS = ("Unknown keyword", "You must", "Incorrect", "not a legal", "Traceback")

# gnubg's Python: the setup, the 2-ply evaluations (to a file), then each rollout timed, a marker line after it.
_SCRIPT = """
import json, sys, time
for c in {setup!r}:
    gnubg.command(c)
ci, ec = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0), gnubg.evalcontext(0, 2, 1, 0, 0.0)
open({result!r}, 'w').write(json.dumps([gnubg.evaluate(gnubg.positionfromid(p), ci, ec) for p in {evals!r}]))
for p in {rollouts!r}:
    gnubg.command('set board ' + p)
    t = time.perf_counter()
    gnubg.command('rollout')
    print('@@ rollout %s %.6f' % (p, time.perf_counter() - t))
    sys.stdout.flush()
"""
_MARKER = re.compile(r"^@@ rollout (\S+) (\S+)$", re.M)
_FINAL = re.compile(r"Rollout done\. Printing final results\.\s*Current Position:\s*\n(.*)\n\s*\[(.*)\].*\n.*\n(\d+) games")


@dataclass(frozen=True)
class GnubgRollout:
    """GNU Backgammon's rollout of one position: the side on roll's five probabilities and their standard errors."""

    position_id: str
    seconds: float
    probabilities: np.ndarray
    se: np.ndarray
    equity: float
    equity_se: float
    trials: int


def _numbers(row: str) -> list[float]:
    """``0.5274 0.1508 0.0091 - 0.4726 0.1297 0.0090 CL +0.0760`` -> win, wg, wbg, lg, lbg, equity (loss dropped)."""
    v = [float(x) for x in row.replace(" - ", " ").replace("CL", " ").split()]
    return v[:3] + v[4:7]


def parse_rollouts(text: str) -> list[GnubgRollout]:
    """The final results of each rollout in ``text`` (gnubg's output, one ``@@ rollout ID SECONDS`` line after each).

    >>> out = '''Rollout done. Printing final results.
    ...
    ... Current Position:
    ...   0.5274 0.1508 0.0091 - 0.4726 0.1297 0.0090 CL +0.0760
    ...  [0.0127 0.0081 0.0023 - 0.0127 0.0093 0.0035 CL  0.0378] 1r
    ... Full cubeless rollout with variance reduction
    ... 36 games, Mersenne Twister dice gen. with seed 1 and quasi-random dice
    ... @@ rollout 4HPwATDgc/ABMA 2.5'''
    >>> r = parse_rollouts(out)[0]
    >>> r.position_id, r.trials, r.seconds, r.probabilities.tolist(), r.equity, r.equity_se
    ('4HPwATDgc/ABMA', 36, 2.5, [0.5274, 0.1508, 0.0091, 0.1297, 0.009], 0.076, 0.0378)
    """
    out, start = [], 0
    for mark in _MARKER.finditer(text):
        finals = _FINAL.findall(text[start:mark.start()])
        if not finals:
            raise ValueError(f"no rollout result before {mark.group(0)!r}: {text[start:mark.start()][-800:]}")
        row, se, games = finals[-1]
        p, s = _numbers(row), _numbers(se)
        out.append(GnubgRollout(mark.group(1), float(mark.group(2)), np.array(p[:5]), np.array(s[:5]), p[5], s[5],
                                int(games)))
        start = mark.end()
    return out


def on_pty(args: list[str], cwd: Path, timeout: float) -> str:
    """Run ``args`` with its output on a pseudo-terminal and no input; what it printed, with ``\\n`` line ends."""
    master, slave = os.openpty()
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, cwd=cwd)
    os.close(slave)
    out, end = bytearray(), time.monotonic() + timeout
    try:
        while True:
            if time.monotonic() > end:
                proc.kill()
                raise SystemExit(f"{args[0]} ran past {timeout:.0f} s: {out[-800:].decode(errors='replace')}")
            if select.select([master], [], [], 1.0)[0]:
                try:
                    chunk = os.read(master, 1 << 16)
                except OSError:  # the child has closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
    finally:
        os.close(master)
        proc.wait()
    return out.decode(errors="replace").replace("\r\n", "\n")


def gnubg_session(rollouts: list[str], evals: list[str], trials: int, seed: int,
                  timeout: float = 3600) -> tuple[list[GnubgRollout], list[np.ndarray]]:
    """One ``gnubg -t`` run: its rollout of each of ``rollouts`` and its 2-ply (win, wg, wbg, lg, lbg, equity) of ``evals``."""
    with tempfile.TemporaryDirectory() as tmp:
        script, result = Path(tmp) / "rollout.py", Path(tmp) / "evals.json"
        setup = [c.format(trials=trials, seed=seed) for c in SETUP]
        script.write_text(_SCRIPT.format(setup=setup, evals=list(evals), rollouts=list(rollouts), result=str(result)))
        text = on_pty([GNUBG, "-t", "-q", "-p", str(script)], Path(tmp), timeout)
        bad = [c for c in _COMPLAINTS if c in text]
        if bad or not result.exists():
            raise SystemExit(f"gnubg -t complained ({bad}): {text[-1500:]}")
        found = parse_rollouts(text)
        if [r.position_id for r in found] != list(rollouts) or any(r.trials != trials for r in found):
            raise SystemExit(f"gnubg -t rolled out {[(r.position_id, r.trials) for r in found]}, not {rollouts}")
        return found, [np.array(e) for e in json.loads(result.read_text())]


def ours(position_id: str, evaluator, trials: int, seed: int) -> tuple[RolloutResult, float]:
    """Our rollout of ``position_id`` in this process and its seconds."""
    t = time.perf_counter()
    r = rollout(Position.from_position_id(position_id), evaluator, trials=trials, seed=seed)
    return r, time.perf_counter() - t


def sample_positions(n: int, seed: int) -> list[str]:
    """``n`` distinct positions of the decisions file, a third races, in a seeded random order."""
    _, decisions = load_data(DATA)
    ids = sorted({d.position_id for d in decisions} - set(SPEED.values()))
    kinds = {pid: kind_of(Position.from_position_id(pid)) for pid in ids}
    rng = random.Random(seed)
    races = rng.sample([p for p in ids if kinds[p] == "race"], n // 3)
    picked = races + rng.sample([p for p in ids if kinds[p] == "contact"], n - n // 3)
    rng.shuffle(picked)
    return picked


# -- the report ------------------------------------------------------------------------------


def _pm(value: float, half: float) -> str:
    return f"{value:+.3f} ± {half:.3f}"


def speed(evaluator, trials: int, seed: int) -> list[dict]:
    rows = []
    for name, pid in SPEED.items():
        mine, seconds = ours(pid, evaluator, trials, seed)
        (theirs,), _ = gnubg_session([pid], [], trials, seed)
        rows.append(dict(name=name, position_id=pid, ours_seconds=seconds, gnubg_seconds=theirs.seconds,
                         ours=mine.as_dict(), gnubg=dict(equity=theirs.equity, equity_ci95=1.96 * theirs.equity_se)))
        print(f"# speed {name}: ours {seconds:.1f} s, gnubg {theirs.seconds:.1f} s", file=sys.stderr)
    print(f"Speed: {trials} trials per position, one process each, trials per second\n")
    print("| position | ours trials/s | gnubg trials/s | ours/gnubg | ours equity (95%) | gnubg equity (95%) |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        a, b = trials / r["ours_seconds"], trials / r["gnubg_seconds"]
        print(f"| {r['name']} `{r['position_id']}` | {a:.1f} | {b:.1f} | {a / b:.2f} | "
              f"{_pm(r['ours']['equity'], r['ours']['equity_ci95'])} | {_pm(r['gnubg']['equity'], r['gnubg']['equity_ci95'])} |")
    total_ours, total_gnubg = sum(r["ours_seconds"] for r in rows), sum(r["gnubg_seconds"] for r in rows)
    print(f"\n- all three: ours {len(rows) * trials / total_ours:.1f} trials/s, gnubg {len(rows) * trials / total_gnubg:.1f}"
          f" trials/s; ours/gnubg = {total_gnubg / total_ours:.2f}\n")
    return rows


def check_perspective(evaluator, trials: int, seed: int) -> None:
    """Both programs must give the side on roll of :data:`LOPSIDED` a lost gammon (equity near -2)."""
    mine, _ = ours(LOPSIDED, evaluator, trials, seed)
    _, (theirs,) = gnubg_session([], [LOPSIDED], trials, seed)
    print(f"Perspective check `{LOPSIDED}` (the side on roll loses a gammon): ours equity {mine.equity:+.3f}, "
          f"L(g) {mine.probabilities[3]:.3f}; gnubg 2-ply {theirs[5]:+.3f}, L(g) {theirs[3]:.3f}\n")
    if not (mine.equity < -1.8 and theirs[5] < -1.8 and mine.probabilities[3] > 0.9 and theirs[3] > 0.9):
        raise SystemExit("the two programs do not see the lopsided position from the same side")


def agreement(evaluator, n: int, k: int, trials: int, seed: int) -> list[dict]:
    ids = sample_positions(n, seed)
    rows = []
    t = time.perf_counter()
    for pid in ids:
        mine, seconds = ours(pid, evaluator, trials, seed)
        rows.append(dict(position_id=pid, kind=kind_of(Position.from_position_id(pid)), ours=mine, seconds=seconds))
    print(f"# agreement: {n} rollouts of ours in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    rolled, evals = gnubg_session(ids[:k], ids, trials, seed)
    for row, e in zip(rows, evals):
        row["gnubg2"] = e
    for row, g in zip(rows, rolled):
        row["gnubg_rollout"] = g
    print(f"Agreement: {n} positions, our rollout ({trials} trials) against gnubg 2-ply and, for the first {k}, "
          f"gnubg's rollout ({trials} trials); equities of the side on roll\n")
    print("| position | kind | ours (95%) | ours Win | gnubg 2-ply | 2-ply Win | in our 95% | gnubg rollout (95%) |")
    print("|---|---|---:|---:|---:|---:|---|---:|")
    for r in rows:
        o, e = r["ours"], r["gnubg2"]
        g = r.get("gnubg_rollout")
        roll = _pm(g.equity, 1.96 * g.equity_se) if g else ""
        print(f"| `{r['position_id']}` | {r['kind']} | {_pm(o.equity, o.equity_ci)} | {o.probabilities[0]:.3f} | "
              f"{e[5]:+.3f} | {e[0]:.3f} | {'yes' if abs(o.equity - e[5]) <= o.equity_ci + _SLACK else 'no'} | {roll} |")
    print()
    for label in ("race", "contact", "all"):
        sub = [r for r in rows if label in ("all", r["kind"])]
        if not sub:
            continue
        d = np.array([r["ours"].equity - r["gnubg2"][5] for r in sub])
        dw = np.array([r["ours"].probabilities[0] - r["gnubg2"][0] for r in sub])
        inside = sum(abs(x) <= r["ours"].equity_ci + _SLACK for x, r in zip(d, sub))
        inside_w = sum(abs(x) <= r["ours"].probabilities_ci[0] + _SLACK for x, r in zip(dw, sub))
        print(f"- {label} ({len(sub)}): ours - gnubg 2-ply equity: mean {d.mean():+.3f}, mean abs {np.abs(d).mean():.3f}, "
              f"max abs {np.abs(d).max():.3f}; gnubg's equity inside our 95% interval in {inside}/{len(sub)}, "
              f"its Win in {inside_w}/{len(sub)}; our mean 95% half-width {np.mean([r['ours'].equity_ci for r in sub]):.3f}")
    both = [r for r in rows if "gnubg_rollout" in r]
    if both:
        d = np.array([r["ours"].equity - r["gnubg_rollout"].equity for r in both])
        se = np.array([np.hypot(r["ours"].equity_ci / 1.96, r["gnubg_rollout"].equity_se) for r in both])
        ref = np.array([r["gnubg_rollout"].equity - r["gnubg2"][5] for r in both])
        print(f"- against gnubg's rollout ({len(both)}): ours - gnubg equity mean abs {np.abs(d).mean():.3f}, "
              f"within 1.96 joint standard errors in {int(np.sum(np.abs(d) <= 1.96 * se))}/{len(both)}; "
              f"gnubg's own rollout - its 2-ply, mean abs {np.abs(ref).mean():.3f}")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=288, help="trials per rollout, ours and gnubg's (default 288)")
    parser.add_argument("--positions", type=int, default=30, help="positions of the agreement part (default 30)")
    parser.add_argument("--gnubg-rollouts", type=int, default=4, help="of those, how many gnubg also rolls out (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="rollout seed of both programs and the sampling seed")
    parser.add_argument("--quick", action="store_true", help="72 trials, 10 positions, 1 gnubg rollout")
    parser.add_argument("--json", metavar="FILE", help="also write the numbers as JSON")
    parser.add_argument("--bot", default="td", metavar="SPEC", help="our network (default td, the shipped one; td1 the first)")
    args = parser.parse_args(argv)
    if args.quick:
        args.trials, args.positions, args.gnubg_rollouts = 72, 10, 1
    version = subprocess.run([GNUBG, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    evaluator = load_neural(args.bot).evaluator
    rollout(Position.initial(), evaluator, trials=1, seed=args.seed)  # compile before timing
    print(f"# {version}; load average {os.getloadavg()[0]:.1f}; command: benchmarks/rollout.py {' '.join(sys.argv[1:])}\n")
    check_perspective(evaluator, 36, args.seed)
    fast = speed(evaluator, args.trials, args.seed)
    rows = agreement(evaluator, args.positions, args.gnubg_rollouts, args.trials, args.seed)
    if args.json:
        for r in rows:
            r["ours"] = r["ours"].as_dict()
            r["gnubg2"] = dict(zip(("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity"),
                                   r["gnubg2"].tolist()))
            if "gnubg_rollout" in r:
                g = r["gnubg_rollout"]
                r["gnubg_rollout"] = dict(equity=g.equity, equity_se=g.equity_se, probabilities=g.probabilities.tolist(),
                                          se=g.se.tolist(), seconds=g.seconds)
        Path(args.json).write_text(json.dumps(dict(trials=args.trials, seed=args.seed, speed=fast, agreement=rows), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
