"""Statistics and ratings: a run's records summed up with a confidence interval over pair means, Elo fits.

Luck largely cancels within a duplicate pair, so the 95% confidence
interval of the points per game is taken over the pair means, not the games;
so is the uncertainty of each pairing's win rate that the ratings' intervals
(:func:`elo_errors`) are propagated from.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from gammon.arena.pairing import MONEY, ArenaError, ArenaRecord, BotSpec, Format, bot_name, make_bot

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Result:
    """The outcome of :func:`~gammon.arena.evaluate`, from bot A's side.

    ``ppg`` is A's mean points per game (cube included) and ``ci95`` its 95%
    confidence interval over duplicate pairs. In a match format ``games``
    counts matches, ``ppg`` is A's mean match result (+1 won, -1 lost) and
    ``win_rate`` the match-win rate; the gammon rates are always fractions
    of the individual games played (``games_played``). ``cube_notes``
    names each bot that plays no cube in a format with the cube, with its
    ``cube_note`` (:func:`cube_notes`).
    """

    a: str
    b: str
    games: int
    pairs: int
    seed: int
    format: str
    ppg: float
    ci95: tuple[float, float]
    win_rate: float
    gammon_rate: float  # A won a gammon or backgammon
    backgammon_rate: float  # A won a backgammon
    lose_gammon_rate: float  # B won a gammon or backgammon
    lose_backgammon_rate: float
    mean_turns: float
    seconds: float
    workers: int
    records: tuple[ArenaRecord, ...] = field(repr=False, default=())
    match_length: int = 0
    games_played: int = 0
    cube_notes: tuple[tuple[str, str], ...] = ()

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def half_width(self) -> float:
        """Half the width of the 95% confidence interval."""
        return (self.ci95[1] - self.ci95[0]) / 2

    def pair_means(self) -> list[float]:
        """Bot A's mean points per game in each duplicate pair, in pair order."""
        return pair_means(self.records)

    def to_dict(self, records: bool = False) -> dict[str, Any]:
        """A JSON-ready dict (with each game when ``records``)."""
        data = asdict(self)
        data["ci95"] = list(self.ci95)
        data["cube_notes"] = dict(self.cube_notes)
        data["games_per_second"] = self.games_per_second
        data["dice"] = "duplicate: pair i plays SeededDice(seed * 2**32 + i) twice, seats swapped"
        if records:
            data["records"] = [asdict(r) for r in self.records]
        else:
            del data["records"]
        return data

    def summary(self) -> str:
        """A few lines for people."""
        lo, hi = self.ci95
        unit = "match" if self.match_length else "game"
        lines = [
            f"{self.a} vs {self.b}: {self.games} {self.format} ({self.pairs} duplicate pair{'s' if self.pairs != 1 else ''}), "
            f"seed {self.seed}",
        ]
        lines += [f"  {name}: {note}" for name, note in self.cube_notes]
        if self.match_length:
            lines.append(
                f"  {self.a} wins {100 * self.win_rate:.1f}% of the matches  "
                f"(95% CI {50 * (1 + lo):.1f}% .. {50 * (1 + hi):.1f}%)"
            )
            lines.append(f"  in {self.games_played} games:")
            game_wins = self.game_win_rate
        else:
            lines.append(f"  {self.a} points per game: {self.ppg:+.3f}  (95% CI {lo:+.3f} .. {hi:+.3f})")
            game_wins = self.win_rate
        lines += [
            f"  {self.a} wins {100 * game_wins:.1f}%: gammons {100 * self.gammon_rate:.1f}%, "
            f"backgammons {100 * self.backgammon_rate:.1f}%",
            f"  {self.b} wins {100 * (1 - game_wins):.1f}%: gammons {100 * self.lose_gammon_rate:.1f}%, "
            f"backgammons {100 * self.lose_backgammon_rate:.1f}%",
            f"  {self.games_per_second:.1f} {unit}{'es' if self.match_length else 's'}/s on {self.workers} "
            f"worker{'s' if self.workers != 1 else ''}, {self.mean_turns:.1f} turns per {unit}",
        ]
        return "\n".join(lines)

    @property
    def game_win_rate(self) -> float:
        """Fraction of the individual games that A won."""
        results = [r for rec in self.records for r in rec.game_results()]
        return sum(r > 0 for r in results) / len(results) if results else self.win_rate


def pair_means(records: Iterable[ArenaRecord]) -> list[float]:
    """The mean of A's points over the two games of each pair, in pair order."""
    sums: dict[int, list[int]] = {}
    for r in records:
        sums.setdefault(r.pair, []).append(r.points)
    return [sum(v) / len(v) for _, v in sorted(sums.items())]


def paired_gain(result: Result, baseline: Result) -> tuple[float, tuple[float, float]]:
    """How many more points per game (or match results) ``result``'s bot A took than ``baseline``'s on the same dice.

    Both must be the same opponent, seed, format and number of games, so pair ``i``
    of each saw the same rolls; the mean and its 95% confidence interval are taken
    over the pairs' differences, where most of the luck cancels.
    """
    same = ("b", "seed", "format", "pairs")
    if any(getattr(result, k) != getattr(baseline, k) for k in same):
        mine = ", ".join(f"{k} {getattr(result, k)}" for k in same)
        theirs = ", ".join(f"{k} {getattr(baseline, k)}" for k in same)
        raise ArenaError(f"cannot pair {result.a}'s run ({mine}) with {baseline.a}'s ({theirs}): not the same dice")
    return mean_ci95([x - y for x, y in zip(result.pair_means(), baseline.pair_means())])


def mean_ci95(samples: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Mean and normal 95% confidence interval (sample standard deviation, ddof 1).

    >>> mean, (lo, hi) = mean_ci95([1.0, 2.0, 3.0, 4.0])
    >>> mean, round(lo, 4), round(hi, 4)
    (2.5, 1.2348, 3.7652)
    """
    n = len(samples)
    if n == 0:
        raise ArenaError("no games to summarise")
    mean = sum(samples) / n
    if n == 1:
        return mean, (-math.inf, math.inf)
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


def cube_notes(bots: Iterable[BotSpec], fmt: Format, options: dict[str, Any] | None = None) -> tuple[tuple[str, str], ...]:
    """``(name, cube_note)`` of each bot that declares it plays no cube, when ``fmt`` is played with the cube.

    A cubeless format has no notes: there no bot's cube is missed.

    >>> cube_notes(["random", "level3"], Format(match_length=5))
    (('random', 'no cube (never doubles, always takes)'),)
    >>> cube_notes(["random", "level3"], MONEY)
    ()
    """
    if not (fmt.cube or fmt.match_length):
        return ()
    notes: dict[str, str] = {}
    for spec in bots:
        note = getattr(make_bot(spec, **(options or {})), "cube_note", None)
        if note:
            notes.setdefault(bot_name(spec), str(note))
    return tuple(notes.items())


def summarize(
    a: str,
    b: str,
    records: Sequence[ArenaRecord],
    seed: int,
    seconds: float,
    workers: int,
    fmt: Format = MONEY,
    cube_notes: Sequence[tuple[str, str]] = (),
) -> Result:
    """Statistics of a finished run; ``cube_notes`` as :func:`cube_notes` gives them."""
    records = tuple(sorted(records, key=lambda r: (r.pair, r.swapped)))
    n = len(records)
    ppg, ci = mean_ci95(pair_means(records))
    results = [r for rec in records for r in rec.game_results()]
    played = len(results)
    return Result(
        a=a,
        b=b,
        games=n,
        pairs=len({r.pair for r in records}),
        seed=seed,
        format=fmt.describe(),
        ppg=ppg,
        ci95=ci,
        win_rate=sum(r.points > 0 for r in records) / n,
        gammon_rate=sum(r >= 2 for r in results) / played,
        backgammon_rate=sum(r >= 3 for r in results) / played,
        lose_gammon_rate=sum(r <= -2 for r in results) / played,
        lose_backgammon_rate=sum(r <= -3 for r in results) / played,
        mean_turns=sum(r.turns for r in records) / n,
        seconds=seconds,
        workers=workers,
        records=records,
        match_length=fmt.match_length,
        games_played=played,
        cube_notes=tuple((str(name), str(note)) for name, note in cube_notes),
    )


@dataclass(frozen=True)
class RoundRobin:
    """Every pair of bots played, and Elo-style ratings fitted to the results."""

    bots: tuple[str, ...]
    results: tuple[Result, ...]
    ratings: dict[str, float]

    def rating_errors(self) -> dict[str, float]:
        """Half the width of each rating's 95% confidence interval (:func:`elo_errors`)."""
        return elo_errors(self.bots, self.results, self.ratings)

    def ppg_table(self) -> list[list[float | None]]:
        """Row bot's points per game against the column bot (None on the diagonal)."""
        index = {name: i for i, name in enumerate(self.bots)}
        table: list[list[float | None]] = [[None] * len(self.bots) for _ in self.bots]
        for r in self.results:
            table[index[r.a]][index[r.b]] = r.ppg
            table[index[r.b]][index[r.a]] = -r.ppg
        return table

    def summary(self) -> str:
        width = max(8, *(len(b) for b in self.bots))
        lines = ["Ratings (Elo scale, fitted to wins and losses, mean 1500; +- the 95% interval):"]
        errors = self.rating_errors()
        for rank, (name, rating) in enumerate(sorted(self.ratings.items(), key=lambda kv: -kv[1]), 1):
            lines.append(f"  {rank}. {name:<{width}} {rating:7.0f} +- {errors[name]:.0f}")
        lines.append("")
        lines.append("Points per game, row against column:")
        lines.append(" " * (width + 2) + "".join(f"{b:>{width + 1}}" for b in self.bots))
        for name, row in zip(self.bots, self.ppg_table()):
            cells = "".join(f"{'-':>{width + 1}}" if v is None else f"{v:+{width + 1}.3f}" for v in row)
            lines.append(f"  {name:<{width}}{cells}")
        return "\n".join(lines)


def elo_ratings(bots: Sequence[str], results: Iterable[Result], mean: float = 1500.0) -> dict[str, float]:
    """Elo-style ratings: the Bradley-Terry fit to every pair's wins and losses.

    Each pair also gets one virtual drawn game, so a clean sweep gives a
    large but finite gap. Ratings are shifted to average ``mean``.

    >>> a = Result("x", "y", 100, 50, 0, "", 0.0, (0.0, 0.0), 0.76, 0, 0, 0, 0, 0, 1.0, 1)
    >>> r = elo_ratings(["x", "y"], [a])
    >>> round(r["x"] - r["y"])   # 76% ~ +200 Elo (with the virtual draw: 76.5 of 101)
    198
    """
    names = list(bots)
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [[0.0] * k for _ in range(k)]
    for r in results:
        i, j = index[r.a], index[r.b]
        w = r.win_rate * r.games
        wins[i][j] += w + 0.5
        wins[j][i] += r.games - w + 0.5
    strength = [1.0] * k
    for _ in range(2000):  # minorisation-maximisation (Hunter 2004)
        new = []
        for i in range(k):
            total = sum(wins[i])
            denom = sum((wins[i][j] + wins[j][i]) / (strength[i] + strength[j]) for j in range(k) if j != i)
            new.append(total / denom if denom > 0 else strength[i])
        g = math.exp(sum(math.log(s) for s in new) / k)
        new = [s / g for s in new]
        done = max(abs(math.log(n / s)) for n, s in zip(new, strength)) < 1e-10
        strength = new
        if done:
            break
    logs = [400 * math.log10(s) for s in strength]
    shift = mean - sum(logs) / k
    return {n: l + shift for n, l in zip(names, logs)}


#: Elo points per unit of log-strength.
ELO = 400 / math.log(10)


def elo_errors(bots: Sequence[str], results: Iterable[Result], ratings: dict[str, float]) -> dict[str, float]:
    """Half the width of each rating's 95% confidence interval, in Elo points, against the field's mean.

    The delta-method (sandwich) covariance of the Bradley-Terry fit of
    :func:`elo_ratings`: ``H+ B H+``, where ``H`` is the fit's information
    matrix (``n p (1 - p)`` for each pairing of ``n`` games, the virtual
    draw included, at the fitted ``p``), ``B`` holds the variance of each
    pairing's win count (:func:`win_count_variance`) and ``+`` is the
    pseudo-inverse, which pins the ratings' mean. With binomial win counts
    ``B = H`` and this is the textbook ``H+``; duplicate dice make it smaller.

    >>> a = Result("x", "y", 100, 50, 0, "", 0.0, (0.0, 0.0), 0.76, 0, 0, 0, 0, 0, 1.0, 1)
    >>> e = elo_errors(["x", "y"], [a], elo_ratings(["x", "y"], [a]))
    >>> round(e["x"]), round(e["y"])   # each against the mean; the gap of ~198 is known to about +-79
    (39, 39)
    """
    names = list(bots)
    index = {n: i for i, n in enumerate(names)}
    info = np.zeros((len(names), len(names)))
    spread = np.zeros_like(info)
    for r in results:
        i, j = index[r.a], index[r.b]
        p = 1 / (1 + 10 ** ((ratings[r.b] - ratings[r.a]) / 400))
        for matrix, value in ((info, (r.games + 1) * p * (1 - p)), (spread, win_count_variance(r))):
            matrix[[i, j], [i, j]] += value
            matrix[[i, j], [j, i]] -= value
    inverse = np.linalg.pinv(info)
    variance = np.diag(inverse @ spread @ inverse)
    return {n: Z95 * ELO * math.sqrt(max(float(v), 0.0)) for n, v in zip(names, variance)}


def win_count_variance(result: Result) -> float:
    """The variance of A's number of wins in ``result``: ``n^2`` times the squared standard error of its win rate.

    The standard error is taken over the duplicate pairs' win fractions (0,
    1/2 or 1), with the fit's virtual draw as one more pair split 1/2, so a
    clean sweep is not certain; without the records, binomial.

    >>> a = Result("x", "y", 100, 50, 0, "", 0.0, (0.0, 0.0), 0.5, 0, 0, 0, 0, 0, 1.0, 1)
    >>> win_count_variance(a)   # binomial: 100 * 0.5 * 0.5
    25.0
    """
    n = result.games
    if not result.records:
        q = (result.win_rate * n + 0.5) / (n + 1)
        return n * q * (1 - q)
    wins: dict[int, list[float]] = {}
    for record in result.records:
        wins.setdefault(record.pair, []).append(float(record.points > 0))
    fractions = [sum(w) / len(w) for w in wins.values()] + [0.5]
    mean = sum(fractions) / len(fractions)
    var = sum((f - mean) ** 2 for f in fractions) / (len(fractions) - 1)
    return n * n * var / len(fractions)
