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

Before each game each bot is reseeded from the run's seed, the pair and its
seat (``bot.reseed(seed)`` when it has that method, a fresh
``load(spec, seed=...)`` for a spec bot without it), so a run is reproduced
exactly by its seed whatever the backend and the number of workers. Worker
processes use the ``spawn`` start method; a bot given as an object must be
picklable.

* :mod:`gammon.arena.pairing` -- formats, pair and bot seeds, one game, one duplicate pair
* :mod:`gammon.arena.stats` -- :class:`Result`, confidence intervals, two bots' paired gain on the same dice, Elo ratings and their intervals, :class:`RoundRobin`
* :mod:`gammon.arena.chart` -- a round robin's ratings chart (matplotlib)
* :mod:`gammon.arena.run` -- :func:`evaluate` and :func:`round_robin` on a runner (:mod:`gammon.runners`);
  Ctrl-C raises :class:`EvaluationInterrupted` with the whole pairs played so far

>>> result = evaluate("level2", "random", games=4, seed=1)
>>> result.games, result.pairs, len(result.records)
(4, 2, 4)
>>> result.ppg > 0
True
"""

from __future__ import annotations

from gammon.arena.pairing import (
    MONEY,
    ArenaError,
    ArenaRecord,
    BotSpec,
    Format,
    Outcome,
    bot_name,
    bot_seed,
    make_bot,
    pair_seed,
    play_outcome,
    play_pair,
)
from gammon.arena.run import EvaluationInterrupted, check_games, evaluate, new_seed, round_robin
from gammon.arena.stats import (Z95, Result, RoundRobin, cube_notes, elo_errors, elo_ratings, mean_ci95, pair_means,
                                paired_gain, summarize)

__all__ = [
    "MONEY", "Z95", "ArenaError", "ArenaRecord", "BotSpec", "EvaluationInterrupted", "Format", "Outcome", "Result",
    "RoundRobin",
    "bot_name", "bot_seed", "check_games", "cube_notes", "elo_errors", "elo_ratings", "evaluate", "make_bot", "mean_ci95",
    "new_seed", "pair_means", "pair_seed", "paired_gain", "play_outcome", "play_pair", "round_robin", "summarize",
]
