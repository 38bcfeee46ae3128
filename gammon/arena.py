"""Bot-versus-bot evaluation with duplicate dice and confidence intervals.

:func:`evaluate` plays ``games`` games between two bots, given as specs for
:func:`gammon.bots.load` (``"level3"``, ``"pubeval"``, a model path) or as bot
objects. Every dice sequence is played twice with the seats swapped
(duplicate dice): pair ``i`` uses ``SeededDice(pair_seed(seed, i))`` for both
of its games, bot A in seat 0 in the first game and in seat 1 in the second,
so both bots play the same rolls from the same seat once each. Luck largely
cancels within a pair; the 95% confidence interval of the points per game is
taken over the pair means.

Games are cubeless money games by default; :class:`Format` selects money
games with the cube or matches, which :mod:`gammon.match` plays.

Worker processes use the ``spawn`` start method; a bot given as an object
must be picklable. Before each game each bot is reseeded from the run's seed,
the pair and its seat (``bot.reseed(seed)`` when it has that method, a fresh
``load(spec, seed=...)`` for a spec bot without it), so a run is reproduced
exactly by its seed whatever the number of workers.

``backend=Backend("ray")`` plays the same work units on Ray actors instead
of local processes (:mod:`gammon.arena_ray`), with the same records.

>>> result = evaluate("level2", "random", games=4, seed=1)
>>> result.games, result.pairs, len(result.records)
(4, 2, 4)
>>> result.ppg > 0
True
"""

from __future__ import annotations

import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gammon.backend import LOCAL, Backend
from gammon.bots import Bot, load
from gammon.dice import DiceSource, SeededDice, opening_roll
from gammon.errors import GammonError
from gammon.position import Position

BotSpec = str | Bot

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054
#: A game longer than this many turns is a bug in a bot or the engine.
MAX_TURNS = 5000


class ArenaError(GammonError):
    """Bad arena input: too few or an odd number of games, a bad match length."""


@dataclass(frozen=True)
class Format:
    """What is played: cubeless money (the default), money with the cube, or matches.

    Money games with the cube and matches (always with the cube and the
    Crawford rule) are played by :mod:`gammon.match`; cubeless money games by
    the lean loop of :func:`play_game`, which is what bot training measures with.
    """

    match_length: int = 0
    cube: bool = False

    @property
    def unit(self) -> str:
        """What one record is: ``"game"`` or ``"match"``."""
        return "match" if self.match_length else "game"

    def describe(self) -> str:
        if self.match_length:
            return f"{self.match_length}-point matches"
        return "money games with the cube" if self.cube else "cubeless money games"

    def check(self) -> None:
        """Raise :class:`ArenaError` for a format that cannot be played."""
        if isinstance(self.match_length, bool) or not isinstance(self.match_length, int) or self.match_length < 0:
            raise ArenaError(f"invalid match length {self.match_length!r}: expected a number of points")
        if self.match_length > 64:
            raise ArenaError(f"invalid match length {self.match_length}: at most 64 points")


MONEY = Format()


@dataclass(frozen=True)
class Outcome:
    """How one game (or match) ended, from seat 0's side.

    ``points``: money points won by seat 0 (cube included; negative when seat
    1 won), or in a match +1 / -1 for winning / losing it. ``results``: each
    game's result for seat 0 before the cube, +-1 single, 2 gammon, 3
    backgammon.
    """

    points: int
    turns: int
    results: tuple[int, ...]


@dataclass(frozen=True)
class GameRecord:
    """One finished game or match of a run, from bot A's side (see :class:`Outcome`)."""

    pair: int
    swapped: bool  # False: A sat in seat 0 (threw the first opening die)
    points: int
    turns: int
    results: tuple[int, ...] = ()

    def game_results(self) -> tuple[int, ...]:
        """Each game's result for A (a cubeless money record is one game worth ``points``)."""
        return self.results or (self.points,)


def pair_seed(seed: int, pair: int) -> int:
    """The dice seed of duplicate pair ``pair`` of a run seeded with ``seed``.

    >>> pair_seed(7, 3)
    30064771075
    """
    return seed * 2**32 + pair


def bot_seed(seed: int, pair: int, side: int) -> int:
    """The seed a bot's own randomness gets for one game: side 0 is bot A, 1 is bot B."""
    return (seed * 2**32 + pair) * 4 + 2 + side


# -- one game ------------------------------------------------------------------


def play_game(seats: Sequence[Bot], dice: DiceSource, fmt: Format = MONEY) -> Outcome:
    """Play one game (one match for a match format) between ``seats``; the outcome for seat 0.

    Seat 0 throws the first die of the opening roll; the higher die moves
    first with both dice, then the seats alternate rolling ``dice``.

    >>> from gammon.dice import SeededDice
    >>> from gammon.bots import load
    >>> outcome = play_game([load("level4"), load("random", seed=1)], SeededDice(5))
    >>> outcome.points in (1, 2, 3, -1, -2, -3), outcome.turns > 10
    (True, True)
    """
    fmt.check()
    if fmt.match_length or fmt.cube:
        return _play_with_cube(seats, dice, fmt)
    turn, roll = opening_roll(dice)
    position = Position.initial()
    for turns in range(1, MAX_TURNS + 1):
        play = seats[turn].choose_play(position, roll)
        position = position.apply(play)
        if position.is_game_over():
            points = position.result() if turn == 0 else -position.result()
            return Outcome(points, turns, (points,))
        turn ^= 1
        roll = dice.roll()
    raise RuntimeError(f"game did not finish in {MAX_TURNS} turns (position {position.position_id()})")


def _play_with_cube(seats: Sequence[Bot], dice: DiceSource, fmt: Format) -> Outcome:
    """A money game with the cube, or a whole match, through :mod:`gammon.match`."""
    from gammon import match
    from gammon.records import Rules

    if fmt.match_length:
        record = match.play_match(seats[0], seats[1], fmt.match_length, dice)
        games = record.games
        points = 1 if record.winner == 0 else -1
    else:
        games = [match.play_game(seats[0], seats[1], dice, rules=Rules(cube=True))]
        points = games[0].points if games[0].winner == 0 else -games[0].points
    results = tuple(g.result if g.winner == 0 else -g.result for g in games)
    turns = sum(len(g.plays()) for g in games)
    return Outcome(points, turns, results)


class _Side:
    """One bot of a run, reseeded (or rebuilt from its spec) before every game,
    so results do not depend on how games are spread over workers."""

    def __init__(self, spec: BotSpec, options: dict[str, Any] | None = None) -> None:
        self.spec = spec
        self.options = dict(options or {})
        self.bot = make_bot(spec, **self.options)

    def for_game(self, seed: int) -> Bot:
        reseed = getattr(self.bot, "reseed", None)
        if callable(reseed):
            reseed(seed)
        elif isinstance(self.spec, str):
            self.bot = make_bot(self.spec, **{**self.options, "seed": seed})
        return self.bot


def play_pair(a: BotSpec | _Side, b: BotSpec | _Side, seed: int, pair: int, fmt: Format = MONEY) -> list[GameRecord]:
    """Both games of duplicate pair ``pair`` of a run seeded ``seed``: the same dice, seats swapped.

    >>> first, second = play_pair("level3", "level1", seed=1, pair=0)
    >>> (first.swapped, second.swapped), first.points != 0
    ((False, True), True)
    """
    side_a = a if isinstance(a, _Side) else _Side(a)
    side_b = b if isinstance(b, _Side) else _Side(b)
    records = []
    for swapped in (False, True):
        bot_a = side_a.for_game(bot_seed(seed, pair, 0))
        bot_b = side_b.for_game(bot_seed(seed, pair, 1))
        seats = (bot_b, bot_a) if swapped else (bot_a, bot_b)
        outcome = play_game(seats, SeededDice(pair_seed(seed, pair)), fmt)
        sign = -1 if swapped else 1
        results = tuple(sign * r for r in outcome.results) if fmt != MONEY else ()
        records.append(GameRecord(pair, swapped, sign * outcome.points, outcome.turns, results))
    return records


def make_bot(spec: BotSpec, **options: Any) -> Bot:
    """A bot from a spec string (via :func:`gammon.bots.load`) or the bot object itself.

    Failures to build one become a one-line :class:`GammonError`.
    """
    if not isinstance(spec, str):
        return spec
    if spec.endswith((".pt", ".safetensors")) and not Path(spec).is_file():
        raise GammonError(f"cannot load bot {spec!r}: model file not found")
    try:
        return load(spec, **options)
    except GammonError:
        raise
    except ModuleNotFoundError as exc:
        raise GammonError(f"cannot load bot {spec!r}: {exc.name} is not available") from None
    except (OSError, RuntimeError, ValueError, KeyError, EOFError, TypeError) as exc:
        raise GammonError(f"cannot load bot {spec!r}: {exc}") from None


def bot_name(spec: BotSpec) -> str:
    """How a bot is named in reports: the spec string, or the bot's ``name``."""
    return spec if isinstance(spec, str) else str(getattr(spec, "name", type(spec).__name__))


# -- workers -------------------------------------------------------------------

_worker: dict[str, Any] = {}


def _init_worker(spec_a: BotSpec, spec_b: BotSpec, options: dict[str, Any], seed: int, fmt: Format) -> None:
    _worker.update(a=_Side(spec_a, options), b=_Side(spec_b, options), seed=seed, fmt=fmt)


def _run_pairs(pairs: range) -> list[GameRecord]:
    records = []
    for pair in pairs:
        records.extend(play_pair(_worker["a"], _worker["b"], _worker["seed"], pair, _worker["fmt"]))
    return records


def _chunks(pairs: int, workers: int) -> list[range]:
    # Small enough that the workers finish together, large enough to keep messages rare.
    size = max(1, min(10, pairs // (workers * 16)))
    return [range(i, min(i + size, pairs)) for i in range(0, pairs, size)]


def _play_all(
    spec_a: BotSpec,
    spec_b: BotSpec,
    pairs: int,
    seed: int,
    workers: int,
    fmt: Format,
    options: dict[str, Any],
    progress: Callable[[int], None],
) -> list[GameRecord]:
    chunks = _chunks(pairs, workers)
    records: list[GameRecord] = []
    if workers <= 1:
        _init_worker(spec_a, spec_b, options, seed, fmt)
        try:
            for chunk in chunks:
                done = _run_pairs(chunk)
                records.extend(done)
                progress(len(done))
        finally:
            _worker.clear()
        return records
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=_init_worker, initargs=(spec_a, spec_b, options, seed, fmt)) as pool:
        for done in pool.imap_unordered(_run_pairs, chunks):
            records.extend(done)
            progress(len(done))
    return records


# -- statistics ----------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """The outcome of :func:`evaluate`, from bot A's side.

    ``ppg`` is A's mean points per game (cube included) and ``ci95`` its 95%
    confidence interval over duplicate pairs. In a match format ``games``
    counts matches, ``ppg`` is A's mean match result (+1 won, -1 lost) and
    ``win_rate`` the match-win rate; the gammon rates are always fractions
    of the individual games played (``games_played``).
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
    records: tuple[GameRecord, ...] = field(repr=False, default=())
    match_length: int = 0
    games_played: int = 0

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


def pair_means(records: Iterable[GameRecord]) -> list[float]:
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


def summarize(
    a: str, b: str, records: Sequence[GameRecord], seed: int, seconds: float, workers: int, fmt: Format = MONEY
) -> Result:
    """Statistics of a finished run."""
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
    )


# -- the public entry points -----------------------------------------------------


def check_games(games: int) -> int:
    """Validate a game count: duplicate dice need an even number, at least 2."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ArenaError(f"invalid number of games {games!r}: duplicate dice need an even number, at least 2")
    return games


def new_seed() -> int:
    """A fresh run seed from the operating system (reported, so the run can be repeated)."""
    return int.from_bytes(os.urandom(4), "little")


def evaluate(
    a: BotSpec,
    b: BotSpec,
    games: int,
    seed: int | None = None,
    workers: int | None = 1,
    *,
    fmt: Format = MONEY,
    progress: bool = False,
    options: dict[str, Any] | None = None,
    backend: Backend = LOCAL,
) -> Result:
    """Play ``games`` duplicate-dice games of ``a`` against ``b``; statistics from A's side.

    ``a`` and ``b`` are specs for :func:`gammon.bots.load` or bot objects;
    ``options`` go to ``load`` for spec bots. ``seed`` None draws one (it is
    in the result). ``progress`` draws a tqdm bar on stderr. On the Ray
    ``backend`` ``workers`` counts actors (None: one per CPU of the cluster).
    """
    check_games(games)
    fmt.check()
    if workers is None and not backend.is_ray:
        workers = 1
    if workers is not None and workers < 1:
        raise ArenaError(f"invalid number of workers {workers}: expected at least 1")
    seed = new_seed() if seed is None else int(seed)
    options = dict(options or {})
    for spec in (a, b):  # fail here, not in a worker
        make_bot(spec, **options)
    pairs = games // 2
    if workers is not None:
        workers = min(workers, pairs)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, desc=f"{bot_name(a)} vs {bot_name(b)}", unit="game", file=sys.stderr, leave=False)
    start = time.perf_counter()
    update = bar.update if bar else (lambda n: None)
    try:
        if backend.is_ray:
            from gammon.arena_ray import play_pairs

            records, workers = play_pairs(backend, a, b, pairs, seed, workers, fmt, options, update)
        else:
            records = _play_all(a, b, pairs, seed, workers, fmt, options, update)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start
    return summarize(bot_name(a), bot_name(b), records, seed, seconds, workers, fmt)


# -- round robin and ratings ---------------------------------------------------------


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


def round_robin(
    specs: Sequence[BotSpec],
    games: int,
    seed: int | None = None,
    workers: int | None = 1,
    *,
    fmt: Format = MONEY,
    progress: bool = False,
    on_result: Callable[[Result], None] | None = None,
    backend: Backend = LOCAL,
) -> RoundRobin:
    """Every pair of ``specs`` plays ``games`` duplicate-dice games with the same ``seed``.

    Ratings are fitted to the wins and losses (of matches, in a match format).
    """
    if len(specs) < 2:
        raise ArenaError("a round robin needs at least two bots")
    names = [bot_name(s) for s in specs]
    if len(set(names)) != len(names):
        raise ArenaError(f"a round robin needs distinct bots, got {', '.join(names)}")
    check_games(games)
    fmt.check()
    seed = new_seed() if seed is None else int(seed)
    for spec in specs:
        make_bot(spec)
    results = []
    for i, j in _pairings(len(specs)):
        result = evaluate(specs[i], specs[j], games, seed, workers, fmt=fmt, progress=progress, backend=backend)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return RoundRobin(tuple(names), tuple(results), elo_ratings(names, results))


def _pairings(k: int) -> Iterator[tuple[int, int]]:
    for i in range(k):
        for j in range(i + 1, k):
            yield i, j
