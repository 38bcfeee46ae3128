"""Engine speed against peers, measured in one run on one machine.

1. Random-playout games per second driven from Python through the public
   API (``legal_plays`` + ``apply``), against OpenSpiel's C++ backgammon
   driven the same way through ``pyspiel`` (chance nodes sampled in Python).
2. ``legal_plays`` calls per second against GNU Backgammon's C move
   generator (``gnubg_nn.moves``) on the same position-rolls.

Rounds alternate between the two sides so machine noise hits both; the
ratios are medians over rounds. Usage: ``python benchmarks/engine.py [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import gnubg_nn
import pyspiel

from gammon import Position


def gammon_playouts(games: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        pos = Position.initial()
        while not pos.is_game_over():
            plays = pos.legal_plays((rng.randrange(6) + 1, rng.randrange(6) + 1))
            pos = pos.apply(plays[rng.randrange(len(plays))])
    return games / (time.perf_counter() - start)


def openspiel_playouts(games: int, seed: int) -> float:
    rng = random.Random(seed)
    game = pyspiel.load_game("backgammon")
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions, probs = zip(*outcomes)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
    return games / (time.perf_counter() - start)


def gnubg_board(pos: Position) -> list[list[int]]:
    """GNU Backgammon's board: [[opponent], [on roll]], each 24 points then the bar, own view."""
    mine, theirs = pos.checkers()
    return [list(theirs), list(mine)]


def sample_position_rolls(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    rng = random.Random(seed)
    samples: list[tuple[Position, tuple[int, int]]] = []
    while len(samples) < count:
        pos = Position.initial()
        while not pos.is_game_over() and len(samples) < count:
            dice = (rng.randrange(6) + 1, rng.randrange(6) + 1)
            samples.append((pos, dice))
            plays = pos.legal_plays(dice)
            pos = pos.apply(plays[rng.randrange(len(plays))])
    return samples


def gammon_movegen(samples: list[tuple[Position, tuple[int, int]]]) -> float:
    start = time.perf_counter()
    for pos, dice in samples:
        pos.legal_plays(dice)
    return len(samples) / (time.perf_counter() - start)


def gnubg_movegen(samples: list[tuple[list[list[int]], tuple[int, int]]]) -> float:
    start = time.perf_counter()
    for board, (d1, d2) in samples:
        gnubg_nn.moves(board, d1, d2)
    return len(samples) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=300, help="playouts per side per round")
    parser.add_argument("--positions", type=int, default=20000, help="position-rolls for move generation")
    args = parser.parse_args()

    gammon_playouts(5, 0)  # compile (or load the Numba cache) before timing
    samples = sample_position_rolls(args.positions, seed=1)
    gnubg_samples = [(gnubg_board(pos), dice) for pos, dice in samples]
    doubles = sum(d1 == d2 for _, (d1, d2) in samples)

    rows = []
    for r in range(args.rounds):
        ours = gammon_playouts(args.games, seed=100 + r)
        peer = openspiel_playouts(args.games, seed=100 + r)
        ours_mg = gammon_movegen(samples)
        peer_mg = gnubg_movegen(gnubg_samples)
        rows.append((ours, peer, ours_mg, peer_mg))
        print(
            f"round {r + 1}: playouts gammon {ours:7.0f}/s  OpenSpiel {peer:7.0f}/s  ratio {ours / peer:4.2f} | "
            f"legal_plays gammon {ours_mg:8.0f}/s  gnubg {peer_mg:8.0f}/s  gnubg/gammon {peer_mg / ours_mg:4.2f}"
        )
    play_ratio = statistics.median(o / p for o, p, _, _ in rows)
    mg_ratio = statistics.median(p / o for _, _, o, p in rows)
    print()
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}")
    print(f"position-rolls: {len(samples)} from random games ({doubles} doubles)")
    print(f"median playout games/s: gammon {statistics.median(r[0] for r in rows):.0f}, OpenSpiel {statistics.median(r[1] for r in rows):.0f}")
    print(f"median legal_plays calls/s: gammon {statistics.median(r[2] for r in rows):.0f}, gnubg_nn.moves {statistics.median(r[3] for r in rows):.0f}")
    print(f"RATIO playouts gammon/OpenSpiel = {play_ratio:.2f} (goal >= 1.0)")
    print(f"RATIO legal-play generation gnubg/gammon = {mg_ratio:.2f} (goal <= 5)")
    print(f"RATIO legal_plays calls/s gammon/gnubg = {statistics.median(o / p for _, _, o, p in rows):.2f} (goal >= 1.0, issue 11)")


if __name__ == "__main__":
    main()
