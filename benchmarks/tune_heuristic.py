"""Fit the heuristic levels' weight tables to GNU Backgammon's 0-ply rankings of the legal plays.

Where the weights of :mod:`gammon.bots.heuristic` come from. The heuristic bots
are hand-designed: the evaluation terms (pips, blots, shots, primes, ...) are
written by hand in :mod:`gammon.engine.terms`, and so is the choice of terms
each level knows. Only the weight of each term was fitted, by this script, so
that each level ranks the legal plays of a position as GNU Backgammon's 0-ply
neural network ranks them. GNU Backgammon is a yardstick for our neural
network (``gammon eval`` and the trainer's evaluation matches), which never learns from it:
the network learns from its own self-play only.

The procedure, in two steps:

``collect``
    Plays games between a mix of players (level 2, level 3 with noise 0.1,
    level 4 with noise 0.05, gnubg 0-ply, pubeval; each seat drawn at random
    per game, so the positions cover good and bad play), and at half of the
    decisions with more than one legal play records every candidate resulting
    position with gnubg's 0-ply cubeless equity of it (for the player who
    moved) and gnubg's chances of winning and of winning and losing a gammon.
``fit``
    For each level, least squares of gnubg's equity on the terms the level
    knows (:data:`KNOWS`), both sides centred within each decision: only the
    differences between the plays of one decision matter for ranking them,
    so the fit ignores how good the position is and learns how much better
    one play is than another. Finished games are left out (a play that ends
    the game always ranks first). Level 5 knows every term and the per-point
    tables, and is also fitted to the equity itself (a second block of rows,
    uncentred, weight :data:`ABSOLUTE_WEIGHT`, with a constant term), so that
    its scores read as equities across positions, which its lookahead and
    every level's cube estimate need. Last, ``WIN_LOGISTIC`` maps level 5's
    estimate to gnubg's chance of winning (a straight line fitted to the logit).

The noise of levels 1-3 and level 5's lookahead (blend, candidates, reply
level) were chosen by hand after arena matches; they are copied unchanged from
the committed tables into the printed ones.

Usage::

    python benchmarks/tune_heuristic.py collect --games 2800 --seed 1 --out train.npz
    python benchmarks/tune_heuristic.py collect --games 560 --seed 2 --out test.npz
    python benchmarks/tune_heuristic.py fit train.npz --test test.npz

That is the size of the run behind the committed tables (64,292 training
decisions, about 1,000,000 candidate plays; 12,986 held out). On 2 shared
cores collecting takes about 30 s and fitting about 1 minute, with about
5.5 GB of memory at its peak (level 5's least squares). The committed tables
come out of ``fit`` exactly, to the last digit, from that run's two data
files (26 MB, not in the repository). Collecting again gives other
positions, because the games are played by the heuristic levels as they are
now (their weights were different when that data was collected), so the
fitted weights differ from the committed ones by about 0.01 (the median).

``fit`` prints the five ``Level(...)`` blocks and ``WIN_LOGISTIC`` exactly as
they are written in ``gammon/bots/heuristic.py``, then how well each fitted
level (and, for comparison, the committed one) picks gnubg's best play.
``collect`` runs can be split over processes by seed and passed together to
``fit`` (``fit a.npz b.npz ...``). Collecting needs the ``gnubg`` extra
(``pip install gammon[gnubg]``); fitting does not.

Data files (``numpy.savez_compressed``), one row per candidate play:

* ``after``: ``(n, 26) int8`` resulting boards, as ``Position.legal_plays(dice).after``;
* ``dec``: ``(n,) int64`` decision number, ``0, 0, 0, 1, 1, ...`` (rows of one decision together);
* ``y``: gnubg 0-ply cubeless equity for the player who moved (points won where the game is over);
* ``p``: ``(n, 3)`` gnubg's chances for the player who moved: win, win a gammon, lose a gammon.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gammon.engine import terms as ft
from gammon.outcomes import results
from gammon.bots import load
from gammon.bots.external import cubeless_equity, gnubg_boards
from gammon.bots.heuristic import LEVELS, WIN_LOGISTIC, HeuristicBot
from gammon.position import Position

# -- what each level knows ----------------------------------------------------------

_L1 = ("pips", "off")
_L2 = _L1 + ("blots", "points", "their_bar", "my_bar")
_L3 = _L2 + ("race_pips", "shots", "hit_loss", "home_points", "key_points", "anchor", "advanced_anchor", "stack")

#: The feature columns each level's weights are fitted on; every other weight is 0.
#: (``my_bar`` is the same for every play of a decision, so it always fits to 0.)
KNOWS: dict[int, tuple[str, ...]] = {
    1: _L1,
    2: _L2,
    3: _L3,
    4: tuple(t for t in ft.TERMS if t != "bias"),
    5: ft.FEATURES,
}

#: Level 5's weight on fitting the equity itself, relative to fitting the differences between plays.
ABSOLUTE_WEIGHT = 0.25

#: Weights smaller than this are left out of the printed tables (they print as 0.000).
PRINT_FROM = 0.0005


# -- data ---------------------------------------------------------------------------


@dataclass
class Decisions:
    """Candidate plays of many decisions with gnubg's labels (the arrays of a data file, see the module doc)."""

    after: np.ndarray
    dec: np.ndarray
    y: np.ndarray
    p: np.ndarray

    @classmethod
    def load(cls, paths: Sequence[str | Path]) -> Decisions:
        """One or more data files, decisions renumbered to follow on from file to file."""
        parts, offset = [], 0
        for path in paths:
            with np.load(path) as f:
                part = cls(f["after"], f["dec"].astype(np.int64) + offset, f["y"], f["p"])
            if part.dec.size and not (np.diff(part.dec) >= 0).all():
                raise ValueError(f"{path}: the rows of each decision must be together, in order")
            offset = int(part.dec.max()) + 1 if part.dec.size else offset
            parts.append(part)
        return cls(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("after", "dec", "y", "p")))

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, after=self.after, dec=self.dec, y=self.y, p=self.p)

    @property
    def decisions(self) -> int:
        return int(self.dec.max()) + 1 if self.dec.size else 0


# -- collect ------------------------------------------------------------------------

#: Who plays the self-play games: each seat of each game is one of these, drawn at random.
PLAYERS: tuple[Callable[[int], object], ...] = (
    lambda seed: HeuristicBot(3, seed=seed, noise=0.1),
    lambda seed: HeuristicBot(4, seed=seed, noise=0.05),
    lambda seed: load("gnubg"),
    lambda seed: load("pubeval"),
    lambda seed: HeuristicBot(2, seed=seed),
)


def gnubg_chances(after: np.ndarray) -> np.ndarray:
    """gnubg 0-ply (win, win gammon, lose gammon) for the player who just moved in each of ``after``."""
    import gnubg_nn

    won = results(after)
    out = np.zeros((len(after), 3))
    for i, board in enumerate(gnubg_boards(after).tolist()):
        if won[i] > 0:
            out[i] = (1.0, float(won[i] >= 2), 0.0)
            continue
        # gnubg's probabilities are the player on roll's, the opponent of the player who moved.
        win, win_gammon, _, lose_gammon, _ = gnubg_nn.probabilities(board, 0)
        out[i] = (1.0 - win, lose_gammon, win_gammon)
    return out


def collect(games: int, seed: int, sample: float = 0.5, progress: bool = True) -> Decisions:
    """Play ``games`` games between :data:`PLAYERS`; label a ``sample`` of the decisions with gnubg.

    Deterministic for a given seed (one ``random.Random(seed)`` draws the
    players, their seeds, who starts, the dice and the sample). The labels
    depend only on the positions, but the games depend on the current weights
    of the heuristic players, so a run with the same seed only reproduces
    the data while those are unchanged.
    """
    rng = random.Random(seed)
    afters, decs, ys, ps = [], [], [], []
    start = time.perf_counter()
    for game in range(games):
        bots = [rng.choice(PLAYERS)(rng.randrange(1 << 30)) for _ in range(2)]
        position, turn = Position.initial(), rng.randrange(2)
        while not position.is_game_over():
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = position.legal_plays(dice)
            if len(plays) > 1 and rng.random() < sample:
                after = plays.after.copy()
                afters.append(after)
                decs.append(np.full(len(after), len(decs), np.int64))
                ys.append(cubeless_equity(after))
                ps.append(gnubg_chances(after))
            position = position.apply(bots[turn].choose_play(position, dice))
            turn ^= 1
        if progress and (game + 1) % 200 == 0:
            seconds = time.perf_counter() - start
            print(f"  {game + 1} games, {len(decs)} decisions, {seconds:.0f} s", file=sys.stderr)
    if not afters:
        return Decisions(np.zeros((0, 26), np.int8), np.zeros(0, np.int64), np.zeros(0), np.zeros((0, 3)))
    return Decisions(np.concatenate(afters), np.concatenate(decs), np.concatenate(ys), np.concatenate(ps))


# -- fit ----------------------------------------------------------------------------


def centred(x: np.ndarray, dec: np.ndarray) -> np.ndarray:
    """``x`` (rows, or rows x columns) less the mean of its decision's rows.

    >>> centred(np.array([1.0, 3.0, 10.0]), np.array([0, 0, 1])).tolist()
    [-1.0, 1.0, 0.0]
    """
    count = np.bincount(dec)
    if x.ndim == 1:
        return x - (np.bincount(dec, x) / count)[dec]
    out = np.empty(x.shape)
    for j in range(x.shape[1]):
        out[:, j] = centred(x[:, j], dec)
    return out


def fit_ranking(
    X: np.ndarray, dec: np.ndarray, y: np.ndarray, going_on: np.ndarray, columns: Sequence[str], absolute: float = 0.0
) -> np.ndarray:
    """Weights (a full :data:`gammon.engine.terms.FEATURES` vector) that rank each decision's plays like ``y``.

    Least squares of the centred ``y`` on the centred ``columns`` of ``X``,
    over the rows whose game goes on (the means include every row of the
    decision). With ``absolute`` > 0, also fits ``y`` itself, those rows
    weighted ``absolute`` (the square of the factor on them).
    """
    cols = [ft.FEATURES.index(c) for c in columns]
    A, b = centred(X[:, cols], dec)[going_on], centred(y, dec)[going_on]
    if absolute > 0.0:
        k = np.sqrt(absolute)
        A, b = np.r_[A, k * X[np.ix_(going_on, cols)]], np.r_[b, k * y[going_on]]
    w = np.zeros(ft.N_FEATURES)
    w[cols] = np.linalg.lstsq(A, b, rcond=None)[0]
    return w


def fit_win_logistic(estimate: np.ndarray, win: np.ndarray) -> tuple[float, float]:
    """``(a, b)`` with ``win ~ 1 / (1 + exp(-(a * estimate + b)))``: a straight line fitted to the logit."""
    p = np.clip(win, 1e-3, 1 - 1e-3)
    a, b = np.polyfit(estimate, np.log(p / (1 - p)), 1)
    return float(a), float(b)


def fit_levels(data: Decisions) -> dict[int, np.ndarray]:
    """The weight vectors of levels 2-5 fitted on ``data`` (see the module doc).

    Level 1 is not fitted: the beginner is set by hand (level 2's terms, blots
    minded half as much, twice the noise) so that level 2 beats it by about
    +0.8 ppg, not the +2.7 of a pips-only fit; its committed table is kept.
    """
    X = ft.features(data.after)
    going_on = results(data.after) == 0
    fitted = {1: LEVELS[1].vector}
    for level, columns in KNOWS.items():
        if level == 1:
            continue
        absolute = ABSOLUTE_WEIGHT if level == 5 else 0.0
        fitted[level] = fit_ranking(X, data.dec, data.y, going_on, columns, absolute)
    return fitted


# -- how well a table picks gnubg's best play ---------------------------------------


@dataclass
class Quality:
    agree: float  # share of decisions where the top-scored play is one gnubg rates best
    loss: float  # mean gnubg equity lost per decision by playing the top-scored play


def _starts(dec: np.ndarray) -> np.ndarray:
    return np.r_[0, np.flatnonzero(np.diff(dec)) + 1]


def pick_quality(scores: np.ndarray, data: Decisions) -> Quality:
    """How the play with the highest score (the first on ties, as ``np.argmax``) compares with gnubg's best."""
    order = np.lexsort((-scores, data.dec))
    first = np.r_[True, data.dec[order][1:] != data.dec[order][:-1]]
    chosen = data.y[order[first]]
    best = np.maximum.reduceat(data.y, _starts(data.dec))
    lost = best - chosen
    return Quality(float(np.mean(lost <= 1e-9)), float(np.mean(lost)))


def random_quality(data: Decisions) -> Quality:
    """The same for a uniformly random choice (exact expectation)."""
    starts = _starts(data.dec)
    count = np.diff(np.r_[starts, len(data.y)])
    best = np.maximum.reduceat(data.y, starts)
    mean = np.add.reduceat(data.y, starts) / count
    n_best = np.add.reduceat((data.y >= best[data.dec] - 1e-9).astype(float), starts)
    return Quality(float(np.mean(n_best / count)), float(np.mean(best - mean)))


def lookahead_quality(data: Decisions, weights: np.ndarray, reply: np.ndarray, decisions: int) -> Quality:
    """Level 5 as it plays (its best few plays valued a roll deeper, as in :class:`HeuristicBot`), first ``decisions``."""
    table = LEVELS[5]
    starts = np.r_[_starts(data.dec), len(data.y)][: decisions + 1]
    agree = lost = 0.0
    for a, b in zip(starts[:-1], starts[1:]):
        after, y = data.after[a:b], data.y[a:b]
        scores = ft.evaluate(after, weights)
        keep = np.argsort(-scores, kind="stable")[: table.candidates]
        blended = (1.0 - table.lookahead) * scores[keep] + table.lookahead * ft.lookahead(after[keep], reply, weights)
        pick = keep[int(np.argmax(blended))]
        agree += y.max() - y[pick] <= 1e-9
        lost += y.max() - y[pick]
    n = len(starts) - 1
    return Quality(agree / n, lost / n)


# -- printing -----------------------------------------------------------------------


def _number(x: float, sign: bool = False) -> str:
    x = round(float(x), 3) + 0.0  # no "-0.000"
    return f"{x:+.3f}" if sign else f"{x:.3f}"


def level_source(level: int, weights: np.ndarray) -> str:
    """``LEVEL_<n> = Level(...)`` as written in heuristic.py, with these weights and the committed noise/lookahead.

    >>> print(level_source(1, np.r_[0.2, 0.0, 0.05, np.zeros(ft.N_FEATURES - 3)]))
    LEVEL_1 = Level(
        name="beginner",
        weights={
            "pips": 0.200,
            "off": 0.050,
        },
        noise=0.10,
    )
    """
    table = LEVELS[level]
    lines = [f"LEVEL_{level} = Level(", f'    name="{table.name}",', "    weights={"]
    for i, term in enumerate(ft.TERMS):
        if abs(weights[i]) >= PRINT_FROM:
            lines.append(f'        "{term}": {_number(weights[i])},')
    lines.append("    },")
    if any(abs(weights[len(ft.TERMS) :]) >= PRINT_FROM):
        lines.append("    tables={")
        for k, name in enumerate(ft.TABLES):
            start = len(ft.TERMS) + 24 * k
            lines.append(f'        "{name}": (')
            for quarter in range(4):
                row = weights[start + 6 * quarter : start + 6 * quarter + 6]
                lines.append("            " + ", ".join(_number(x, sign=True) for x in row) + ",")
            lines.append("        ),")
        lines.append("    },")
    if table.noise:
        lines.append(f"    noise={table.noise:.2f},")
    if table.lookahead:
        lines += [f"    lookahead={table.lookahead},", f"    candidates={table.candidates},", f"    reply_level={table.reply_level},"]
    lines.append(")")
    return "\n".join(lines)


def report(
    fitted: dict[int, np.ndarray], logistic: tuple[float, float], test: Decisions, held_out: bool, lookahead: int, seed: int
) -> None:
    """The fit quality tables: fitted against committed weights on the same decisions."""
    where = "held-out" if held_out else "training (in-sample: pass --test for held-out)"
    print(f"\n## Fit quality on {test.decisions} {where} decisions ({len(test.y)} candidate plays)\n")
    print("agree: share of decisions where the level's top play is one gnubg 0-ply rates best;")
    print("lost: mean gnubg equity given up per decision (points per game); static, then with the level's noise.\n")
    print("| level | terms | fitted agree | fitted lost | committed agree | committed lost | lost with noise (fitted / committed) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    rng = np.random.default_rng(seed)
    for level, w in fitted.items():
        table = LEVELS[level]
        mine, theirs = ft.evaluate(test.after, w), ft.evaluate(test.after, table.vector)
        q, c = pick_quality(mine, test), pick_quality(theirs, test)
        noisy = "-"
        if table.noise:
            jitter = rng.normal(0.0, table.noise, len(mine))
            noisy = f"{pick_quality(mine + jitter, test).loss:.4f} / {pick_quality(theirs + jitter, test).loss:.4f}"
        print(f"| {level} | {len(KNOWS[level])} | {q.agree:.1%} | {q.loss:.4f} | {c.agree:.1%} | {c.loss:.4f} | {noisy} |")
    r = random_quality(test)
    print(f"| random | 0 | {r.agree:.1%} | {r.loss:.4f} | | | |")
    if lookahead > 0:
        n = min(lookahead, test.decisions)
        q = lookahead_quality(test, fitted[5], fitted[LEVELS[5].reply_level], n)
        c = lookahead_quality(test, LEVELS[5].vector, LEVELS[LEVELS[5].reply_level].vector, n)
        print(f"\nLevel 5 with its lookahead, first {n} decisions: "
              f"fitted agree {q.agree:.1%} lost {q.loss:.4f}; committed agree {c.agree:.1%} lost {c.loss:.4f}")
    going_on = results(test.after) == 0
    y = test.y[going_on]
    for name, w in (("fitted", fitted[5]), ("committed", LEVELS[5].vector)):
        error = ft.value(test.after[going_on], w) - y
        print(f"Level 5 as an equity estimate ({name}): RMS error {np.sqrt(np.mean(error**2)):.3f} (gnubg equity sd {y.std():.3f})")
    a, b = logistic
    est_test = ft.value(test.after[going_on], fitted[5])
    p_hat = 1.0 / (1.0 + np.exp(-(a * est_test + b)))
    error = np.sqrt(np.mean((p_hat - test.p[going_on, 0]) ** 2))
    print(f"Win chance from it (WIN_LOGISTIC): RMS error {error:.3f} against gnubg's (committed: {WIN_LOGISTIC})")


# -- command line -------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play games and label decisions with gnubg 0-ply")
    c.add_argument("--games", type=int, required=True, help="games to play")
    c.add_argument("--seed", type=int, required=True, help="seeds players, dice and sampling")
    c.add_argument("--sample", type=float, default=0.5, help="share of decisions (with a choice) recorded")
    c.add_argument("--out", required=True, help="data file to write (.npz)")
    f = sub.add_parser("fit", help="fit the five levels and print their tables")
    f.add_argument("data", nargs="+", help="data files from collect (fitted together)")
    f.add_argument("--test", nargs="*", default=[], help="held-out data files to measure the fit on")
    f.add_argument("--lookahead", type=int, default=1000, help="decisions to measure level 5's lookahead on (~5 ms each)")
    f.add_argument("--seed", type=int, default=0, help="seeds the noise of the noisy levels' quality")
    args = parser.parse_args(argv)

    if args.command == "collect":
        start = time.perf_counter()
        data = collect(args.games, args.seed, args.sample)
        data.save(args.out)
        seconds = time.perf_counter() - start
        print(f"{args.out}: {args.games} games, {data.decisions} decisions, {len(data.y)} candidate plays, {seconds:.0f} s")
        return 0

    start = time.perf_counter()
    train = Decisions.load(args.data)
    test = Decisions.load(args.test) if args.test else train
    fitted = fit_levels(train)
    going_on = results(train.after) == 0
    a, b = fit_win_logistic(ft.value(train.after[going_on], fitted[5]), train.p[going_on, 0])
    print(f"# Fitted on {train.decisions} decisions ({len(train.y)} candidate plays) from {', '.join(args.data)}")
    print("# by benchmarks/tune_heuristic.py; paste over the tables in gammon/bots/heuristic.py.\n")
    for level, w in fitted.items():
        print(level_source(level, w) + "\n")
    print(f"WIN_LOGISTIC = ({a:.2f}, {b:.2f})")
    report(fitted, (a, b), test, bool(args.test), args.lookahead, args.seed)
    print(f"\n({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
