"""Move by move: how much equity a bot's checker play gives away, judged by GNU Backgammon.

    nice python benchmarks/moves.py [--bots td gnubg pubeval MODEL.pt ...] [--data FILE]
    nice python benchmarks/moves.py --make [--judge gnubg|gnubg-nn] [--decisions 3000] [--seed 2027] [--plies 1] [--kind race] --data FILE
    nice python benchmarks/moves.py --check-gnubg 150          # the stored judge against gnubg -t hint
    nice python benchmarks/moves.py --compare OTHER.txt.gz     # against another judge's file

It measures, it never trains. The decisions are non-forced checker plays
(position + dice) from games GNU Backgammon plays against itself (``gnubg_nn``
0-ply through :class:`gammon.bots.external.GnubgBot` on both sides, cubeless,
``SeededDice(seed * 100000 + game)``), each kept with probability ``--rate``
(1/12, ``random.Random(seed)``) so that they come from many games (3,000 from
822 games) and are not all openings. The data file (gzipped text, one line
per decision: Position ID, dice, race or contact, then ``AFTER:EQUITY`` for
every legal play, AFTER the Position ID of the position after the play) also
holds the judge's valuation of *every* legal play, the mover's cubeless money
equity:

* ``--judge gnubg`` (``benchmarks/data/moves_gnubg_1ply.txt.gz``, the
  default): GNU Backgammon itself, ``gnubg -t``, ``hint`` at ``--plies``
  (1), cubeless, no pruning, a move filter that keeps every play; its move
  texts are parsed by our rules and must give exactly our legal plays.
* ``--kind race`` (``benchmarks/data/moves_gnubg_1ply_races.txt.gz``:
  3,000 race decisions from 1,465 games, ``--seed 2028 --rate 0.25``, the
  default judge): race decisions only, six times as many as the default
  file's 517, for a race interval less than half as wide.
* ``moves_gnubg_1ply_races_2030.txt.gz`` (``--data``): 3,000 more race
  decisions made the same way with ``--seed 2030``, held out: no recipe was
  chosen by its numbers (the race recipes were compared on the file above),
  so a model picked there is measured here without that selection.
* ``moves_gnubg_1ply_contact_2031.txt.gz`` (``--data``): 3,000 contact
  decisions from 1,010 games (``--make --kind contact --seed 2031``, 334 s
  of ``gnubg -t``), held out in the same way for contact play: the default
  file's 2,483 contact decisions have been used to choose recipes.
* ``--judge gnubg-nn`` (``benchmarks/data/moves_gnubgnn_1ply.txt.gz``):
  ``gnubg_nn.probabilities`` at ``--plies`` on the position after each play
  (the opponent on roll, so the mover's equity is minus its equity; finished
  games count their exact points). Same search, but gnubg_nn ships other
  contact weights than GNU Backgammon 1.07 (same values in races).

The bot changes, the judge does not: a run only asks the bots for their plays.
For each bot: its play in every decision (``bot.choose_play``), matched to the
judge's candidates by the Position ID of the resulting position (not by move
text), and the error = the judge's equity of its best play minus the judge's
equity of the bot's play, in mEMG (thousandths of an equity point) per
decision, averaged separately over race and contact decisions with a 95%
interval (1.96 standard errors over decisions). With two bots or more, a
second table gives each bot's error minus the first bot's, paired over the
same decisions (a much narrower interval than the two rows' own). A decision is a race when no
checker of either side is behind a checker of the other (``not
gammon.engine.analysis.in_contact`` on the board before the play; ``--make``
counts its disagreements with ``gnubg_nn.classify``: none).

``--values`` adds, for each bot that is a net, how far its 0-ply values of
every judged play are from the judge's (RMS equity), and the same after
taking out each decision's mean difference: the part that ranks the plays
of one roll, which is what choosing a play depends on.

``--by-type`` adds a table of the contact decisions split by the kind of
position, from the mover's side before the play (:func:`contact_type`, the
first that applies): a checker of the mover on the bar, of the opponent on
the bar, two or more anchors (points held) in the opponent's home board (a
back game), one anchor there (a holding game, or the back checkers not yet
moved), bearing in (no checker of the mover left on
points 13-24), and the rest; and the race decisions split by whether a
gammon is at stake (:func:`race_type`: the judge values some play beyond a
single game's equity, more than 1 either way: a side with nothing off
saving a gammon or a backgammon), where most of the nets' race error is.

Bots: any spec :func:`gammon.bots.load` accepts (``td``, ``td:plies=1``,
``level5``, ``pubeval``, ``gnubg``, a model file path).
"""

from __future__ import annotations

import argparse
import gzip
import importlib.metadata
import json
import math
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gammon.bots.external import GnubgBot, from_gnubg_board, gnubg_boards  # noqa: F401  (conversion shared with the bots)
from gammon.dice import SeededDice, opening_roll
from gammon.engine.analysis import in_contact
from gammon.errors import GammonError
from gammon.outcomes import results
from gammon.position import Position

DATA = Path(__file__).resolve().parent / "data" / "moves_gnubg_1ply.txt.gz"
GNUBG = "/usr/games/gnubg"
CLASSES = ("race", "contact")
RACE_TYPES = ("gammon at stake", "no gammon at stake")
CONTACT_TYPES = ("on the bar", "opponent on the bar", "two or more anchors (back game)", "one anchor", "bearing in",
                 "other contact")
#: The types :func:`type_table` splits each kind of decision into.
TYPES = {"race": RACE_TYPES, "contact": CONTACT_TYPES}


@dataclass(frozen=True)
class Decision:
    """One checker decision and the judge's equity (mover's, cubeless) of each legal play's result."""

    position_id: str
    dice: tuple[int, int]
    kind: str  # "race" or "contact"
    equities: dict[str, float]  # Position ID after the play (opponent on roll) -> mover's equity

    @property
    def best(self) -> float:
        return max(self.equities.values())


# -- the data file -------------------------------------------------------------------------


def format_decision(d: Decision) -> str:
    """One line: ``ID DICE KIND AFTER:EQUITY ...``, the plays best first.

    >>> format_decision(Decision("4HPwATDgc/ABMA", (3, 1), "contact", {"a": -0.1, "b": 0.16}))
    '4HPwATDgc/ABMA 31 contact b:0.16000 a:-0.10000'
    """
    plays = sorted(d.equities.items(), key=lambda kv: (-kv[1], kv[0]))
    return " ".join([d.position_id, f"{d.dice[0]}{d.dice[1]}", d.kind] + [f"{k}:{v:.5f}" for k, v in plays])


def parse_decision(line: str) -> Decision:
    """The inverse of :func:`format_decision`.

    >>> d = parse_decision("4HPwATDgc/ABMA 31 contact b:0.16000 a:-0.10000")
    >>> d.dice, d.kind, d.equities["a"], d.best
    ((3, 1), 'contact', -0.1, 0.16)
    """
    fields = line.split()
    pid, dice, kind = fields[:3]
    if kind not in CLASSES or len(dice) != 2:
        raise ValueError(f"bad decision line: {line[:60]!r}")
    equities = {}
    for item in fields[3:]:
        key, _, value = item.rpartition(":")
        equities[key] = float(value)
    return Decision(pid, (int(dice[0]), int(dice[1])), kind, equities)


def save(path: Path, header: dict, decisions: list[Decision]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="ascii", compresslevel=9) as f:
        f.write("# " + json.dumps(header, sort_keys=True) + "\n")
        for d in decisions:
            f.write(format_decision(d) + "\n")


def load_data(path: Path) -> tuple[dict, list[Decision]]:
    header: dict = {}
    decisions = []
    with gzip.open(path, "rt", encoding="ascii") as f:
        for line in f:
            if line.startswith("#"):
                header.update(json.loads(line[1:]))
            elif line.strip():
                decisions.append(parse_decision(line))
    return header, decisions


# -- statistics ----------------------------------------------------------------------------


def summarise(errors: np.ndarray) -> dict:
    """Count, mean and 95% half-width (1.96 standard errors) of ``errors``, all in mEMG; share of zero errors.

    >>> s = summarise(np.array([0.0, 0.002, 0.004]))
    >>> s["n"], round(s["mean"], 3), round(s["half"], 3), round(s["best"], 3)
    (3, 2.0, 2.263, 0.333)
    """
    e = np.asarray(errors, np.float64) * 1000.0
    n = len(e)
    if n == 0:
        return dict(n=0, mean=math.nan, half=math.nan, best=math.nan)
    half = 1.96 * e.std(ddof=1) / math.sqrt(n) if n > 1 else math.nan
    return dict(n=n, mean=float(e.mean()), half=float(half), best=float(np.mean(e <= 1e-9)))


def table(rows: list[tuple[str, dict[str, dict]]]) -> str:
    """The Markdown table: one row per bot, race / contact / all columns."""
    head = "| bot | race mEMG/decision (95%) | contact mEMG/decision (95%) | all mEMG/decision (95%) | judge's best play, race / contact |"
    lines = [head, "|---|---:|---:|---:|---:|"]
    for name, s in rows:
        cells = [f"{s[k]['mean']:.2f} ± {s[k]['half']:.2f} (n={s[k]['n']})" if s[k]["n"] else "- (n=0)" for k in ("race", "contact", "all")]
        best = " / ".join(f"{100 * s[k]['best']:.0f}%" if s[k]["n"] else "-" for k in ("race", "contact"))
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {best} |")
    return "\n".join(lines)


# -- making the decisions and judging them -------------------------------------------------


def kind_of(position: Position) -> str:
    return "contact" if in_contact(position.board) else "race"


def contact_type(position: Position) -> str:
    """The kind of a contact position, from the side on roll (the first of :data:`CONTACT_TYPES` that applies).

    >>> contact_type(Position.initial())  # the 24-point held
    'one anchor'
    >>> contact_type(Position.from_checkers({13: 2, 6: 13}, {12: 2, 1: 13}))
    'other contact'
    >>> contact_type(Position.from_checkers({25: 1, 6: 14}, {24: 15}))
    'on the bar'
    >>> contact_type(Position.from_checkers({20: 2, 22: 2, 6: 11}, {1: 15}))
    'two or more anchors (back game)'
    """
    b = position.board
    held = sum(1 for p in range(19, 25) if b[p] >= 2)
    if b[25] > 0:
        return "on the bar"
    if b[0] < 0:
        return "opponent on the bar"
    if held >= 2:
        return "two or more anchors (back game)"
    if held == 1:
        return "one anchor"
    if all(b[p] <= 0 for p in range(13, 25)):
        return "bearing in"
    return "other contact"


def race_type(decision: Decision) -> str:
    """Whether a gammon is at stake in a race decision: some play's judged equity is beyond +-1.

    >>> race_type(Decision("x", (3, 1), "race", {"a": -1.2, "b": -1.3}))
    'gammon at stake'
    >>> race_type(Decision("x", (3, 1), "race", {"a": 0.4, "b": 0.3}))
    'no gammon at stake'
    """
    return RACE_TYPES[0] if max(abs(v) for v in decision.equities.values()) > 1.0 else RACE_TYPES[1]


def paired_table(errors: list[tuple[str, np.ndarray]], kinds: np.ndarray) -> str:
    """Each bot's error minus the first bot's on the same decisions: mean mEMG per decision (95%), race / contact.

    Paired over the decisions, so the interval is that of the difference, much narrower than the two rows' own.
    """
    (first, base), others = errors[0], errors[1:]
    lines = [f"| bot minus {first} | race mEMG/decision (95%) | contact mEMG/decision (95%) |", "|---|---:|---:|"]
    for name, err in others:
        cells = []
        for kind in CLASSES:
            d = summarise(err[kinds == kind] - base[kinds == kind])
            cells.append(f"{d['mean']:+.2f} ({d['mean'] - d['half']:+.2f} .. {d['mean'] + d['half']:+.2f})" if d["n"] else "-")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def type_table(rows: list[tuple[str, np.ndarray]], types: np.ndarray, kind: str = "contact") -> str:
    """Decisions of one kind by type (:func:`contact_type` or :func:`race_type`): mEMG per decision (95%)
    for each bot, one row per type present."""
    lines = [f"| {kind} decisions | n | " + " | ".join(name for name, _ in rows) + " |",
             "|---|---:|" + "---:|" * len(rows)]
    for name in TYPES[kind]:
        mask = types == name
        if not mask.any():
            continue
        cells = []
        for _, err in rows:
            st = summarise(err[mask])
            cells.append(f"{st['mean']:.2f} ± {st['half']:.2f}")
        lines.append(f"| {name} | {int(mask.sum())} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def self_play_decisions(n: int, seed: int, rate: float, kind: str = "") -> tuple[list[tuple[str, tuple[int, int]]], int, int]:
    """``n`` non-forced decisions from gnubg 0-ply self-play games, each kept with probability ``rate``
    (of ``kind`` only, race or contact, when given).

    Game ``g`` uses ``SeededDice(seed * 100_000 + g)``; the sampling uses ``random.Random(seed)``.
    Returns the decisions (Position ID, dice with the higher die first), the games played and the
    classification disagreements with ``gnubg_nn.classify``.
    """
    import gnubg_nn

    bot = GnubgBot()
    pick = random.Random(seed)
    out: list[tuple[str, tuple[int, int]]] = []
    disagree = 0
    game = 0
    while len(out) < n:
        dice_source = SeededDice(seed * 100_000 + game)
        game += 1
        position = Position.initial()
        dice = opening_roll(dice_source)[1]
        while True:
            plays = position.legal_plays(dice)
            if len(plays) > 1 and (not kind or kind_of(position) == kind) and pick.random() < rate and len(out) < n:
                d = (max(dice), min(dice))
                out.append((position.position_id(), d))
                g_class = gnubg_nn.classify(gnubg_boards(position.board[None, :])[0].tolist())
                # gnubg's classes below c_crashed (race, its bear-off classes) have no contact
                disagree += (g_class < gnubg_nn.c_crashed) != (kind_of(position) == "race")
            position = position.apply(bot.choose_play(position, dice))
            if position.is_game_over():
                break
            dice = dice_source.roll()
    return out, game, disagree


def judge(position: Position, dice: tuple[int, int], plies: int) -> dict[str, float]:
    """GNU Backgammon's cubeless equity, for the mover, of every legal play's result, keyed by its Position ID."""
    import gnubg_nn

    plays = position.legal_plays(dice)
    after = plays.after
    eq = results(after)  # points won where the play ends the game, else 0
    boards = gnubg_boards(after).tolist()
    out = {}
    for i, play in enumerate(plays):
        if eq[i] == 0:
            w, wg, wbg, lg, lbg = gnubg_nn.probabilities(boards[i], plies)
            eq[i] = -(2 * w - 1 + wg - lg + wbg - lbg)
        out[position.apply(play).position_id()] = float(eq[i])
    return out


def gnubg_hints(todo: list[tuple[str, tuple[int, int]]], plies: int, timeout: float = 3600) -> list[list[tuple[str, float]]]:
    """``gnubg -t`` ``hint`` (cubeless, no pruning, every play kept) for each (Position ID, dice): (move, equity) lists."""
    with tempfile.TemporaryDirectory() as tmp:
        script, result = Path(tmp) / "hint.py", Path(tmp) / "hint.json"
        script.write_text(_HINT_SCRIPT.format(plies=plies, todo=[(p, f"{a}{b}") for p, (a, b) in todo], result=str(result)))
        done = subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=timeout, cwd=tmp)
        if not result.exists():
            raise SystemExit(f"gnubg -t gave no hints: {done.stderr[-500:] or done.stdout[-500:]}")
        return [[(m, e) for m, e in h] for h in json.loads(result.read_text())]


def hint_equities(position: Position, dice: tuple[int, int], hint: list[tuple[str, float]]) -> dict[str, float]:
    """gnubg's hint list keyed by the Position ID after each play (its move text parsed by our rules)."""
    return {position.apply(position.parse_play(text, dice)).position_id(): float(eq) for text, eq in hint}


def make(args: argparse.Namespace) -> int:
    t = time.perf_counter()
    picked, games, disagree = self_play_decisions(args.decisions, args.seed, args.rate, args.kind)
    print(f"# {len(picked)} decisions from {games} games in {time.perf_counter() - t:.0f} s; "
          f"in_contact and gnubg_nn.classify disagree on {disagree}", file=sys.stderr)
    decisions = []
    t = time.perf_counter()
    if args.judge == "gnubg":
        version = subprocess.run([GNUBG, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
        description = (f"{version} (gnubg -t) hint at {args.plies}-ply, cubeless, no pruning, move filter keeping "
                       f"every play: the mover's cubeless money equity")
        hints = gnubg_hints(picked, args.plies)
    else:
        description = (f"gnubg_nn {importlib.metadata.version('gnubg-nn')} probabilities(board after the play, "
                       f"{args.plies}): the mover's cubeless money equity")
    for i, (pid, dice) in enumerate(picked):
        position = Position.from_position_id(pid)
        if args.judge == "gnubg":
            values = hint_equities(position, dice, hints[i])
            legal = {position.apply(p).position_id() for p in position.legal_plays(dice)}
            if set(values) != legal:
                raise SystemExit(f"gnubg's hint list for {pid} {dice} is not our {len(legal)} legal plays")
        else:
            values = judge(position, dice, args.plies)
        decisions.append(Decision(pid, dice, kind_of(position), values))
        if (i + 1) % 500 == 0:
            print(f"# judged {i + 1} in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    header = dict(
        judge=description, plies=args.plies, seed=args.seed, rate=args.rate, games=games, decisions=len(decisions),
        positions="gnubg_nn 0-ply self-play (gammon.bots.external.GnubgBot both sides), SeededDice(seed*100000+game), "
                  "each non-forced decision kept with probability rate (random.Random(seed))"
                  + (f", {args.kind} decisions only" if args.kind else ""),
        kind="race = not gammon.engine.analysis.in_contact(board before the play)",
        command=" ".join(["benchmarks/moves.py"] + sys.argv[1:]),
    )
    save(Path(args.data), header, decisions)
    kinds = [d.kind for d in decisions]
    print(f"# wrote {args.data}: {kinds.count('race')} race, {kinds.count('contact')} contact decisions, "
          f"{sum(len(d.equities) for d in decisions)} plays judged in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    return 0


# -- measuring a bot ------------------------------------------------------------------------


def errors_of(bot, decisions: list[Decision]) -> np.ndarray:
    """The judge's equity lost by ``bot``'s play in each decision (equity points, >= 0)."""
    out = np.empty(len(decisions))
    for i, d in enumerate(decisions):
        position = Position.from_position_id(d.position_id)
        key = position.apply(bot.choose_play(position, d.dice)).position_id()
        if key not in d.equities:
            raise SystemExit(f"{bot.name}'s play in {d.position_id} {d.dice} leads to {key}, which the judge "
                             f"did not value ({len(d.equities)} plays stored): data and move generator disagree")
        out[i] = d.best - d.equities[key]
    return out


def value_errors(evaluator, decisions: list[Decision]) -> tuple[float, float]:
    """How far a net's 0-ply values of every judged play are from the judge's: ``(absolute, within)`` RMS in
    equity, ``within`` after taking out each decision's mean error (what ranks the plays of one roll)."""
    from gammon.engine.network import evaluate_batch
    from gammon.outcomes import equity

    boards = np.array([Position.from_position_id(pid).board for d in decisions for pid in d.equities], np.int8)
    judged = np.array([eq for d in decisions for eq in d.equities.values()])
    owner = np.repeat(np.arange(len(decisions)), [len(d.equities) for d in decisions])
    probs = np.empty((len(boards), 5), np.float32)
    evaluate_batch(np.ascontiguousarray(boards), evaluator.kernel_args(), probs)  # the opponent on roll
    err = -equity(probs.astype(np.float64)) - judged
    within = err - (np.bincount(owner, err) / np.bincount(owner))[owner]
    return float(np.sqrt(np.mean(err**2))), float(np.sqrt(np.mean(within**2)))


def measure(args: argparse.Namespace) -> int:
    from gammon.bots import load

    header, decisions = load_data(Path(args.data))
    if args.limit:
        decisions = decisions[: args.limit]
    kinds = np.array([d.kind for d in decisions])
    rows = []
    errors = []
    bots = [(spec, load(spec)) for spec in args.bots]
    for spec, bot in bots:
        t = time.perf_counter()
        err = errors_of(bot, decisions)
        s = {k: summarise(err[kinds == k]) for k in CLASSES}
        s["all"] = summarise(err)
        rows.append((spec, s))
        errors.append((spec, err))
        print(f"# {spec}: {time.perf_counter() - t:.0f} s", file=sys.stderr)
    print(f"{len(decisions)} decisions ({int((kinds == 'race').sum())} race, {int((kinds == 'contact').sum())} contact) "
          f"from {Path(args.data).name}; judge: {header.get('judge', '?')}\n")
    print(table(rows))
    if len(errors) > 1:
        print()
        print(paired_table(errors, kinds))
    if args.values:
        print("\n| bot | kind | value RMS (equity) | within a decision |\n|---|---|---:|---:|")
        for spec, bot in bots:
            evaluator = getattr(bot, "evaluator", None)
            for kind in CLASSES:
                chosen = [d for d in decisions if d.kind == kind]
                if evaluator is not None and chosen:
                    absolute, within = value_errors(evaluator, chosen)
                    print(f"| {spec} | {kind} | {absolute:.4f} | {within:.4f} |")
    if args.by_type:
        types = np.array([contact_type(Position.from_position_id(d.position_id)) if d.kind == "contact" else race_type(d)
                          for d in decisions])
        for kind in CLASSES:
            chosen = kinds == kind
            if chosen.any():
                print()
                print(type_table([(spec, err[chosen]) for spec, err in errors], types[chosen], kind))
    return 0


# -- checking the judge against gnubg -t ---------------------------------------------------

_HINT_SCRIPT = """
import json
for c in ['set jacoby off', 'set player 0 human', 'set player 1 human', 'new game',
          'set evaluation chequerplay evaluation plies {plies}', 'set evaluation chequerplay evaluation cubeful off',
          'set evaluation chequerplay evaluation prune off']:
    gnubg.command(c)
for level in range({plies}):  # keep every play at every level of the search
    gnubg.command('set evaluation movefilter {plies} %d 1000 0 0' % level)
out = []
for pid, dice in {todo!r}:
    gnubg.command('set board ' + pid)
    gnubg.command('set dice ' + dice)
    out.append([(h['move'], h['equity']) for h in gnubg.hint()['hint']])
open({result!r}, 'w').write(json.dumps(out))
"""


def compare_judges(ours: list[Decision], theirs: list[dict[str, float]], title: str) -> None:
    """Print how far another judge's values (``theirs``, per decision, keyed like ours) are from the stored ones."""
    stats = {k: dict(diffs=[], loss=[], same=0, n=0) for k in CLASSES}
    missing = 0
    for d, other in zip(ours, theirs):
        missing += len(set(d.equities) ^ set(other))
        common = [k for k in d.equities if k in other]
        if not common:
            continue
        s = stats[d.kind]
        s["n"] += 1
        s["diffs"] += [other[k] - d.equities[k] for k in common]
        o_best = max(other.values())
        s["loss"] += [(o_best - other[k]) - (d.best - d.equities[k]) for k in common]
        s["same"] += max(common, key=other.get) == max(common, key=d.equities.get)
    print(f"{title} ({missing} plays valued by only one of the two)\n")
    print("| decisions | plays | abs. equity difference, mEMG: mean / median / max | same, for each play's loss against its judge's best | same best play |")
    print("|---|---:|---|---|---:|")
    for kind, s in stats.items():
        diffs, loss = np.abs(s["diffs"]) * 1000, np.abs(s["loss"]) * 1000
        if s["n"]:
            print(f"| {kind} {s['n']} | {len(diffs)} | {diffs.mean():.2f} / {np.median(diffs):.2f} / {diffs.max():.2f} | "
                  f"{loss.mean():.2f} / {np.median(loss):.2f} / {loss.max():.2f} | {s['same']}/{s['n']} |")


def check_gnubg(args: argparse.Namespace) -> int:
    """The stored values against ``gnubg -t`` hint at the same ply on a sample (a third race, two thirds contact)."""
    header, decisions = load_data(Path(args.data))
    rng = random.Random(args.seed)
    races = [d for d in decisions if d.kind == "race"]
    contacts = [d for d in decisions if d.kind == "contact"]
    n = args.check_gnubg
    sample = rng.sample(races, min(len(races), n // 3)) + rng.sample(contacts, min(len(contacts), n - n // 3))
    plies = header.get("plies", 1)
    hints = gnubg_hints([(d.position_id, d.dice) for d in sample], plies)
    theirs = [hint_equities(Position.from_position_id(d.position_id), d.dice, h) for d, h in zip(sample, hints)]
    compare_judges(sample, theirs, f"{len(sample)} decisions of {Path(args.data).name} against gnubg -t hint at "
                                   f"{plies}-ply, cubeless, every play")
    return 0


def compare_files(args: argparse.Namespace) -> int:
    """The stored values against another data file's, on the decisions both hold."""
    _, ours = load_data(Path(args.data))
    header, other = load_data(Path(args.compare))
    by_key = {(d.position_id, d.dice): d.equities for d in other}
    both = [d for d in ours if (d.position_id, d.dice) in by_key]
    compare_judges(both, [by_key[(d.position_id, d.dice)] for d in both],
                   f"{len(both)} decisions of {Path(args.data).name} against {Path(args.compare).name} ({header.get('judge', '?')})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", nargs="+", default=["td", "gnubg", "pubeval"], help="bot specs (default: td gnubg pubeval)")
    parser.add_argument("--data", default=str(DATA), help=f"decisions and judge values (default {DATA.name})")
    parser.add_argument("--by-type", action="store_true",
                        help="also split the contact decisions by kind of position, the race ones by gammons at stake")
    parser.add_argument("--values", action="store_true",
                        help="also how far each net's 0-ply values of every play are from the judge's (RMS, and within a decision)")
    parser.add_argument("--limit", type=int, default=0, help="use only the first N decisions")
    parser.add_argument("--make", action="store_true", help="generate the decisions and judge them (writes --data)")
    parser.add_argument("--decisions", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--rate", type=float, default=1 / 12, help="share of non-forced decisions kept (--make)")
    parser.add_argument("--plies", type=int, default=1, help="judge's depth (--make)")
    parser.add_argument("--kind", choices=("race", "contact"), default="", help="keep only decisions of this kind (--make)")
    parser.add_argument("--judge", choices=("gnubg", "gnubg-nn"), default="gnubg",
                        help="--make: gnubg -t hint (default) or gnubg_nn.probabilities on each play's result")
    parser.add_argument("--check-gnubg", type=int, default=0, metavar="N", help="compare the judge with gnubg -t hint on N decisions")
    parser.add_argument("--compare", metavar="FILE", help="compare the judge with another data file's on their common decisions")
    args = parser.parse_args(argv)
    if args.make:
        return make(args)
    if args.check_gnubg:
        return check_gnubg(args)
    if args.compare:
        return compare_files(args)
    try:
        return measure(args)
    except GammonError as exc:  # a bot spec or model file that cannot be loaded: one line naming it
        raise SystemExit(f"moves.py: error: {exc}") from None


if __name__ == "__main__":
    sys.exit(main())
