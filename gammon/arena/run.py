"""Running the arena: the chunks of duplicate pairs of a run as units on a runner, local or Ray.

A run's job is the two bot specs, their options, the run seed and the
format; each worker (a process, an actor, or the calling process) builds
the two bots once and plays chunks of pairs (:class:`ArenaWorker`). Every game
is reseeded from the run seed, the pair and the side, so the records equal,
whatever the backend and the number of workers, those of one process.

A bot given as a model file is sent to Ray actors with the job (the file's
bytes), so the cluster's nodes need gammon installed but not the file;
external peers (``pubeval``, ``gnubg``) must be installed on every node.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from gammon import runners
from gammon.arena.pairing import MONEY, ArenaError, ArenaRecord, BotSpec, Format, Side, bot_name, make_bot, play_pair
from gammon.arena.stats import Result, RoundRobin, cube_notes, elo_ratings, summarize
from gammon.errors import is_interrupt
from gammon.runners import LOCAL, Backend, Runner


def _pack(spec: Any) -> Any:
    """A spec that names a model file travels as ``("file", name, bytes)``."""
    if isinstance(spec, str) and Path(spec).is_file():
        return ("file", Path(spec).name, Path(spec).read_bytes())
    return spec


def _unpack(spec: Any) -> Any:
    if isinstance(spec, tuple) and len(spec) == 3 and spec[0] == "file":
        path = Path(tempfile.mkdtemp(prefix="gammon-arena-")) / spec[1]
        path.write_bytes(spec[2])
        return str(path)
    return spec


class ArenaWorker:
    """Plays chunks of pairs of one run: both games of each pair, reseeded per game."""

    def __init__(self, spec_a: Any, spec_b: Any, options: dict[str, Any], seed: int, fmt: Format) -> None:
        self.a = Side(_unpack(spec_a), options)
        self.b = Side(_unpack(spec_b), options)
        self.seed = seed
        self.fmt = fmt

    def run(self, pairs: range) -> list[ArenaRecord]:
        records = []
        for pair in pairs:
            records.extend(play_pair(self.a, self.b, self.seed, pair, self.fmt))
        return records


def chunks(pairs: int, workers: int) -> list[range]:
    """The units of a run: small enough that the workers finish together, large enough to keep messages rare.

    >>> chunks(5, 1)
    [range(0, 1), range(1, 2), range(2, 3), range(3, 4), range(4, 5)]
    """
    size = max(1, min(10, pairs // (max(1, workers) * 16)))
    return [range(i, min(i + size, pairs)) for i in range(0, pairs, size)]


def play_pairs(runner: Runner, pairs: int, progress: Callable[[int], None] = lambda n: None,
               records: list[ArenaRecord] | None = None) -> list[ArenaRecord]:
    """Pairs ``0 .. pairs - 1`` of the runner's job, in pair order; ``progress`` gets each chunk's record count.

    The records go into ``records`` (a new list when None) chunk by chunk, so a
    caller that is interrupted keeps the whole pairs of the chunks done.
    """
    records = [] if records is None else records
    for done in runner.map(chunks(pairs, runner.workers)):
        records.extend(done)  # kept before it is shown: a Ctrl-C after the bar moves keeps what it counted
        progress(len(done))
    return records


class EvaluationInterrupted(KeyboardInterrupt):
    """:func:`evaluate` stopped by Ctrl-C: ``result`` sums up the whole duplicate pairs played so far.

    ``result`` is None when not one pair was finished; ``games`` is the number
    of games that were asked for. A :class:`KeyboardInterrupt`, so a caller
    that does not look for it still stops.
    """

    def __init__(self, result: Result | None, games: int) -> None:
        super().__init__(f"interrupted after {result.games if result else 0} of {games} games")
        self.result = result
        self.games = games


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
    in the result). ``workers``: local processes (1: this process); on the Ray
    ``backend``, actors (None: one per CPU of the cluster). ``progress`` draws
    a tqdm bar on stderr.
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
    if backend.is_ray:
        job, count = (_pack(a), _pack(b), options, seed, fmt), workers
    else:
        job, count = (a, b, options, seed, fmt), (0 if workers == 1 else workers)  # one worker: this process
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, desc=f"{bot_name(a)} vs {bot_name(b)}", unit="game", file=sys.stderr, leave=False)
    start = time.perf_counter()
    records: list[ArenaRecord] = []

    def interrupted() -> EvaluationInterrupted:
        # Chunks hold whole pairs, so the records kept are whole pairs; a chunk in play is dropped.
        partial = None
        if records:
            partial = summarize(bot_name(a), bot_name(b), records, seed, time.perf_counter() - start, workers or 1, fmt,
                                cube_notes((a, b), fmt, options))
        return EvaluationInterrupted(partial, games)

    try:
        with runners.start(backend, ArenaWorker, job, count, most=pairs) as runner:
            workers = max(1, runner.workers)
            try:
                play_pairs(runner, pairs, bar.update if bar else (lambda n: None), records)
            except (KeyboardInterrupt, SystemError) as exc:
                if not is_interrupt(exc):
                    raise
                raise interrupted() from None  # summed up before the workers are stopped
    except KeyboardInterrupt as exc:
        if isinstance(exc, EvaluationInterrupted):
            raise
        raise interrupted() from None  # while the workers were starting or stopping
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start
    return summarize(bot_name(a), bot_name(b), records, seed, seconds, workers, fmt, cube_notes((a, b), fmt, options))


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
