"""Statistics and ratings: a run's records summed up with a confidence interval over pair means, Elo fits.

Luck largely cancels within a duplicate pair, so the 95% confidence
interval of the points per game is taken over the pair means, not the games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

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
        lines = ["Ratings (Elo scale, fitted to wins and losses, mean 1500):"]
        for rank, (name, rating) in enumerate(sorted(self.ratings.items(), key=lambda kv: -kv[1]), 1):
            lines.append(f"  {rank}. {name:<{width}} {rating:7.0f}")
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

