"""``gammon analyse`` against GNU Backgammon's ``analyse match`` on the same matches, both at 0-ply.

    nice python benchmarks/analysis.py [--plies 0] [--bot td] [--json out.json]

Plays 24 matches (3 and 7 points) between bots of different strength with
fixed seeds, writes each as ``.mat``, analyses it with ours and with
``gnubg -t`` (its Python interface: ``import mat``, ``analyse match``,
``gnubg.match()``), and prints a Markdown table (the source of the
analysis section of benchmarks/RESULTS.md):

* **ranking**: whether our checker-play error rates (EMG per unforced move)
  order the two players as GNU Backgammon's do;
* **recall**: of the checker plays and cube actions GNU Backgammon marks
  "very bad", the share we mark very bad, and the share we mark at all;
* **speed**: seconds to analyse each 7-point match, ours against GNU
  Backgammon's, measured in the same run (the network loaded and gnubg
  started beforehand; only the analysis is timed), as a ratio.

Matches where td plays are listed apart: at 0-ply our analysis judges td
with the very evaluation td plays by, so its error is zero by construction.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gammon.analysis.match import analyse_match
from gammon.bots import load
from gammon.bots.neural import load_neural
from gammon.dice import SeededDice
from gammon.match import play_match
from gammon.matfile import read_mat, save_mat

GNUBG = "/usr/games/gnubg"
PAIRS = [
    ("random", "level1"), ("level1", "level2"), ("level1", "level3"), ("level2", "level3"), ("level2", "level4"),
    ("level3", "level5"), ("level4", "level5"), ("level1", "level5"), ("random", "level3"),
    ("level3", "td"), ("level5", "td"), ("td", "level2"),
]
LENGTHS = (3, 7)

_GNUBG_SCRIPT = """
import json, time
gnubg.command('set analysis chequerplay evaluation plies {plies}')
gnubg.command('set analysis cubedecision evaluation plies {plies}')
out = []
for path in {paths!r}:
    gnubg.command('import mat ' + path)
    t = time.perf_counter()
    gnubg.command('analyse match')
    seconds = time.perf_counter() - t
    m = gnubg.match(analysis=1, boards=0, statistics=1)
    seat = {{m['match-info']['X']['name']: 'X', m['match-info']['O']['name']: 'O'}}
    games = [[(a['player'], a['action'], a.get('analysis', {{}}).get('skill', '')) for a in g['game']] for g in m['games']]
    stats = {{}}
    for g in m['games']:
        for p, s in g['stats'].items():
            mv = stats.setdefault(p, [0.0, 0])
            mv[0] += s['moves']['error-skill']
            mv[1] += s['moves']['unforced-moves']
    names = {{p: m['match-info'][p]['name'] for p in ('X', 'O')}}
    by_name = [{{names[p]: s for p, s in g['stats'].items()}} for g in m['games']]
    out.append(dict(path=path, seconds=seconds, games=games, stats=stats, names=[names['X'], names['O']], by_name=by_name))
open({result!r}, 'w').write(json.dumps(out))
"""


def make_matches(folder: Path, net: str = "td") -> list[tuple[str, str, int, int, Path]]:
    """The matches of :data:`PAIRS`, written as ``.mat``; ``net`` plays where the pair says td."""
    matches = []
    for i, (a, b) in enumerate(PAIRS):
        for length in LENGTHS:
            seed = 1400 + 10 * i + length
            names = (a, b) if a != b else (f"{a}-1", f"{b}-2")
            players = [load(net if name == "td" else name, seed=s) for name, s in ((a, seed), (b, seed + 1))]
            record = play_match(*players, length, SeededDice(seed), names=names)
            path = save_mat(record, folder / f"{a}_{b}_{length}_{seed}.mat")
            matches.append((a, b, length, seed, path))
    return matches


def gnubg_analyse(paths: list[Path], plies: int, folder: Path, timeout: int = 1200) -> list[dict]:
    """GNU Backgammon's ``analyse match`` of each ``.mat`` at ``plies``: per match its seconds, each game's
    decisions (player, action, skill), checker-play totals per seat, and each game's statistics by player name."""
    script, result = folder / "analyse.py", folder / "gnubg.json"
    script.write_text(_GNUBG_SCRIPT.format(plies=plies, paths=[str(p) for p in paths], result=str(result)))
    subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=timeout, cwd=folder)
    return json.loads(result.read_text())


def compare(ours, theirs: dict, names: tuple[str, str]) -> dict:
    """Ranking and very-bad recall for one match (gnubg's X is the player named first)."""
    seat = {"X": 0, "O": 1} if theirs["names"][0] == names[0] else {"X": 1, "O": 0}
    rate = [0.0, 0.0]
    for p, (err, n) in theirs["stats"].items():
        rate[seat[p]] = err / n if n else 0.0
    mine = [s.checker_rate for s in ours.stats]
    sign = lambda x: (x > 1e-9) - (x < -1e-9)  # noqa: E731
    same = sign(mine[0] - mine[1]) == sign(rate[0] - rate[1])
    very_bad = ours_very_bad = ours_marked = 0
    for game, actions in zip(ours.games, theirs["games"]):
        moves = [d for d in game.decisions if d.kind == "move"]
        cubes = [d for d in game.decisions if d.played in ("double", "take", "pass")]
        gm = [a for a in actions if a[1] == "move"]
        gc = [a for a in actions if a[1] in ("double", "take", "drop")]
        for mine_list, gnubg_list in ((moves, gm), (cubes, gc)):
            for d, (_, _, skill) in zip(mine_list, gnubg_list):
                if skill == "very bad":
                    very_bad += 1
                    ours_very_bad += d.mark == "very bad"
                    ours_marked += bool(d.mark)
    return dict(ours=mine, gnubg=rate, same=same, very_bad=very_bad, ours_very_bad=ours_very_bad, ours_marked=ours_marked)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=0)
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--bot", default="td", metavar="SPEC",
                        help="the network that plays td's seat and analyses (default td, the shipped one; td1 the first)")
    args = parser.parse_args()
    bot = load_neural(args.bot)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        t = time.perf_counter()
        matches = make_matches(folder, args.bot)
        print(f"# {len(matches)} matches played in {time.perf_counter() - t:.0f} s", file=sys.stderr)
        theirs = gnubg_analyse([m[4] for m in matches], args.plies, folder)
        rows = []
        for (a, b, length, seed, path), gnubg_result in zip(matches, theirs):
            record = read_mat(path.read_text())
            t = time.perf_counter()
            ours = analyse_match(record, bot, args.plies)
            seconds = time.perf_counter() - t
            row = compare(ours, gnubg_result, record.names)
            row.update(a=a, b=b, length=length, seed=seed, games=len(record.games), seconds=seconds,
                       gnubg_seconds=gnubg_result["seconds"])
            rows.append(row)
    print("| players | length | seed | games | ours mEMG/move | gnubg mEMG/move | same order | gnubg very bad | ours very bad | ours marked |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['a']} - {r['b']} | {r['length']} | {r['seed']} | {r['games']} | "
              f"{r['ours'][0] * 1000:.1f} / {r['ours'][1] * 1000:.1f} | {r['gnubg'][0] * 1000:.1f} / {r['gnubg'][1] * 1000:.1f} | "
              f"{'yes' if r['same'] else 'no'} | {r['very_bad']} | {r['ours_very_bad']} | {r['ours_marked']} |")
    print()
    for label, subset in (("all", rows), ("without td", [r for r in rows if "td" not in (r["a"], r["b"])]),
                          ("with td", [r for r in rows if "td" in (r["a"], r["b"])])):
        vb = sum(r["very_bad"] for r in subset)
        print(f"- {label}: same order in {sum(r['same'] for r in subset)}/{len(subset)} matches; "
              f"of {vb} decisions gnubg marks very bad we mark {sum(r['ours_very_bad'] for r in subset)} very bad "
              f"({sum(r['ours_very_bad'] for r in subset) / max(vb, 1):.0%}) and {sum(r['ours_marked'] for r in subset)} "
              f"at all ({sum(r['ours_marked'] for r in subset) / max(vb, 1):.0%})")
    sevens = [r for r in rows if r["length"] == 7]
    ours_s, gnubg_s = [r["seconds"] for r in sevens], [r["gnubg_seconds"] for r in sevens]
    print(f"- speed, {len(sevens)} 7-point matches at {args.plies}-ply: ours median {statistics.median(ours_s):.2f} s, "
          f"gnubg {statistics.median(gnubg_s):.2f} s; total ours/gnubg = {sum(ours_s) / sum(gnubg_s):.1f}x")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
