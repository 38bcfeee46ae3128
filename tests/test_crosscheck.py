"""The move generator against two independent ones: GNU Backgammon's and OpenSpiel's.

GNU Backgammon (``gnubg_nn.moves``) is asked about every position from five
sources, with all 21 rolls each:

* random games: uniformly random legal plays from the start;
* "bully" games: both sides prefer hitting and making home-board points, so
  checkers on the bar meet partly closed boards;
* closed-board games: one to three checkers on the bar against a closed
  board (or one point short), played on by bullies until the board opens;
* contact bear-offs: seeded starts with one side bearing off against
  checkers sent back, played on (mostly by bullies), so checkers get hit during the
  bear-off and must come round again;
* random layouts: checkers thrown onto the board (bars and borne-off
  checkers included), positions no sensible game reaches.

The sets of resulting positions must be identical, and coverage counters
prove the awkward cases were met. OpenSpiel is played through whole random
games; at each turn its full-turn results (both halves of a double) must
equal ours.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
import pytest

from gammon import Position
from gammon.dice import SeededDice
from gammon.position import ROLLS

gnubg_nn = pytest.importorskip("gnubg_nn")

ALL_ROLLS = [dice for dice, _ in ROLLS]


# -- the two representations -------------------------------------------------------


def gnubg_board(pos: Position) -> list[list[int]]:
    """gnubg's board: [side not on roll, side on roll], each 25 counts from its own side (ace first, bar last)."""
    mine, theirs = pos.checkers()
    return [list(theirs), list(mine)]


def our_keys(pos: Position, dice: tuple[int, int]) -> tuple[set[str], np.ndarray]:
    """gnubg position keys of our results (mover still the second side, as gnubg leaves it), and the results."""
    after = pos.legal_plays(dice).after.astype(np.int64)
    # ``after`` is seen by the opponent: its own checkers positive, bar at 25;
    # the mover's checkers negative, the mover's point p at index 25 - p, bar at 0.
    opponent = np.concatenate([np.maximum(after[:, 1:25], 0), after[:, 25:26]], axis=1).tolist()
    mover = np.concatenate([np.maximum(-after[:, 24:0:-1], 0), -after[:, 0:1]], axis=1).tolist()
    return {gnubg_nn.key_of_board([o, m]) for o, m in zip(opponent, mover)}, after


def gnubg_keys(pos: Position, dice: tuple[int, int]) -> tuple[set[str], bool]:
    """gnubg's results as position keys, and whether gnubg found nothing to move (then the key is unchanged)."""
    board = gnubg_board(pos)
    keys = gnubg_nn.moves(board, dice[0], dice[1])
    return (set(keys), False) if keys else ({gnubg_nn.key_of_board(board)}, True)


# -- where the positions come from -----------------------------------------------------


def _bully_choice(plays, rng: random.Random) -> Position:
    """The play putting most opposing checkers on the bar, then making most home-board points."""
    after = plays.after.astype(np.int64)
    # seen by the opponent: their bar is index 25, the mover's home points are 19..24 (negative)
    score = 4 * after[:, 25] + (after[:, 19:25] <= -2).sum(axis=1)
    best = np.flatnonzero(score == score.max())
    return plays.positions()[int(rng.choice(best.tolist()))]


def _play_on(start: Position, plies: int, rng: random.Random, dice: SeededDice, bully: bool) -> list[Position]:
    out, pos = [], start
    for _ in range(plies):
        out.append(pos)
        plays = pos.legal_plays(dice.roll())
        pos = _bully_choice(plays, rng) if bully else rng.choice(plays.positions())
        if pos.is_game_over():
            break
    return out


def random_game_positions(count: int, seed: int) -> list[Position]:
    rng, dice, out = random.Random(seed), SeededDice(seed), []
    while len(out) < count:
        out += _play_on(Position.initial(), 400, rng, dice, bully=False)
    return out[:count]


def bully_game_positions(count: int, seed: int) -> list[Position]:
    rng, dice, out = random.Random(seed), SeededDice(seed), []
    while len(out) < count:
        out += _play_on(Position.initial(), 400, rng, dice, bully=True)
    return out[:count]


def _spread(rng: random.Random, n: int, points: list[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for _ in range(n):
        p = rng.choice(points)
        counts[p] = counts.get(p, 0) + 1
    return counts


def contact_bear_off_start(rng: random.Random) -> Position:
    """One side bearing off (some already off) while opposing checkers wait in its home board or on the bar."""
    mine = _spread(rng, 15 - rng.randint(0, 9), list(range(1, 7)))
    back = rng.randint(1, 4)
    free = [p for p in range(1, 7) if p not in mine]
    theirs: dict[int, int] = {}
    for _ in range(back):
        spot = rng.choice(free) if free and rng.random() < 0.75 else 0
        theirs[spot] = theirs.get(spot, 0) + 1
    for p, n in _spread(rng, 15 - back, list(range(13, 25))).items():
        theirs[p] = theirs.get(p, 0) + n
    return Position.from_checkers(mine, theirs)


def contact_bear_off_positions(count: int, seed: int) -> list[Position]:
    rng, dice, out = random.Random(seed), SeededDice(seed), []
    while len(out) < count:
        start = contact_bear_off_start(rng)
        out += _play_on(start, 30, rng, dice, bully=rng.random() < 0.7)
    return out[:count]


def closed_board_start(rng: random.Random) -> Position:
    """Checkers on the bar against a closed board (or one point short of it), the rest anywhere open."""
    held = rng.sample(range(19, 25), rng.choice([5, 6, 6]))
    theirs = {p: 2 for p in held}
    for p, n in _spread(rng, 15 - 2 * len(held), [p for p in range(1, 19)]).items():
        theirs[p] = theirs.get(p, 0) + n
    on_bar = rng.randint(1, 3)
    spots = [p for p in range(1, 25) if p not in theirs or (theirs[p] == 1 and p not in held)]
    mine = _spread(rng, 15 - on_bar - rng.randint(0, 3), spots)
    for p in list(mine):
        if theirs.pop(p, 0):  # a blot where our checkers landed: put it on their bar
            theirs[0] = theirs.get(0, 0) + 1
    mine[25] = on_bar
    return Position.from_checkers(mine, theirs)


def closed_board_positions(count: int, seed: int) -> list[Position]:
    """Games from closed-board starts: the board stays shut for a while, then opens point by point."""
    rng, dice, out = random.Random(seed), SeededDice(seed), []
    while len(out) < count:
        out += _play_on(closed_board_start(rng), 12, rng, dice, bully=True)
    return out[:count]


def random_layouts(count: int, seed: int) -> list[Position]:
    """Checkers thrown on the board at random: any of the 26 places or off, never two colours on a point."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        mine = _spread(rng, rng.randint(1, 15), list(range(1, 26)))
        open_points = [p for p in range(0, 25) if p not in mine]
        theirs = _spread(rng, rng.randint(1, 15), open_points)
        out.append(Position.from_checkers(mine, theirs))
    return out


# -- the comparison -----------------------------------------------------------------------


@dataclass
class Coverage:
    """What the compared position-rolls contained."""

    position_rolls: int = 0
    results: int = 0
    doubles: int = 0
    bar_entry: int = 0
    closed_board: int = 0
    partly_closed_board: int = 0
    bear_off: int = 0
    hit_during_bear_off: int = 0
    hits: int = 0
    passes: int = 0
    mismatches: list[str] = field(default_factory=list)

    def add(self, other: Coverage) -> Coverage:
        for name in self.__dataclass_fields__:
            if name != "mismatches":
                setattr(self, name, getattr(self, name) + getattr(other, name))
        self.mismatches += other.mismatches
        return self


def compare_with_gnubg(positions: list[Position]) -> Coverage:
    cov = Coverage()
    for pos in positions:
        b = pos.board.astype(np.int64)
        on_bar = bool(b[25] > 0)
        blocks = int((b[19:25] <= -2).sum())
        home = not (b[7:26] > 0).any()
        borne_off = pos.borne_off()[0] > 0
        for dice in ALL_ROLLS:
            ours, after = our_keys(pos, dice)
            theirs, gnubg_passes = gnubg_keys(pos, dice)
            n = len(after)
            cov.position_rolls += 1
            cov.results += n
            cov.passes += gnubg_passes
            cov.hits += bool((after[:, 25] > -b[0]).any())
            if n != len(ours) or ours != theirs:
                cov.mismatches.append(
                    f"{pos.position_id()} {dice[0]}{dice[1]}: {n} plays, {len(ours)} distinct, gnubg {len(theirs)}; "
                    f"only ours {sorted(ours - theirs)[:3]}, only gnubg {sorted(theirs - ours)[:3]}"
                )
            cov.doubles += dice[0] == dice[1]
            cov.bar_entry += on_bar
            cov.closed_board += on_bar and blocks == 6
            cov.partly_closed_board += on_bar and 3 <= blocks < 6
            cov.bear_off += home
            cov.hit_during_bear_off += borne_off and not home
    return cov


SOURCES = ["random games", "bully games", "closed boards", "contact bear-offs", "random layouts"]


@pytest.fixture(scope="module")
def gnubg_coverage() -> dict[str, Coverage]:
    return {
        "random games": compare_with_gnubg(random_game_positions(400, seed=1)),
        "bully games": compare_with_gnubg(bully_game_positions(300, seed=2)),
        "closed boards": compare_with_gnubg(closed_board_positions(240, seed=5)),
        "contact bear-offs": compare_with_gnubg(contact_bear_off_positions(360, seed=3)),
        "random layouts": compare_with_gnubg(random_layouts(150, seed=4)),
    }


@pytest.mark.parametrize("source", SOURCES)
def test_same_legal_results_as_gnubg(gnubg_coverage, source):
    cov = gnubg_coverage[source]
    assert cov.position_rolls >= 3000
    assert not cov.mismatches, "\n".join(cov.mismatches[:10])


def test_gnubg_crosscheck_covered_the_awkward_cases(gnubg_coverage):
    total = Coverage()
    for cov in gnubg_coverage.values():
        total.add(cov)
    print(f"\ngnubg cross-check: {total}")
    assert total.position_rolls >= 20_000
    assert total.results >= 200_000
    assert total.doubles >= 6 * total.position_rolls // 21
    assert total.bar_entry >= 3_000
    assert total.closed_board >= 200
    assert total.partly_closed_board >= 1_000
    assert total.bear_off >= 3_000
    assert total.hit_during_bear_off >= 300
    assert total.hits >= 3_000
    assert total.passes >= 1_000
    assert gnubg_coverage["closed boards"].closed_board >= 500
    assert gnubg_coverage["contact bear-offs"].hit_during_bear_off >= 200


# -- OpenSpiel ---------------------------------------------------------------------------------


def _openspiel_board(state, player: int) -> tuple[int, ...]:
    """OpenSpiel's state as our 26-cell board seen by ``player`` (even if it is not on roll)."""
    b = [0] * 26
    for pos in range(24):
        point = 24 - pos if player == 0 else pos + 1  # player 0 moves from position 0 to 23
        mine, theirs = state.board(player, pos), state.board(1 - player, pos)
        assert not (mine and theirs)
        b[point] = mine - theirs
    tensor = state.observation_tensor(player)  # ... then bar, off, turn for player, the same for the other
    b[25], b[0] = int(tensor[192]), -int(tensor[195])
    return tuple(b)


def _openspiel_turn_results(state, player: int, double: bool) -> set[tuple[int, ...]]:
    """Boards after every full turn: OpenSpiel splits doubles into two actions by the same player."""
    out = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if double and not child.is_terminal() and not child.is_chance_node() and child.current_player() == player:
            for second in child.legal_actions():
                grandchild = child.clone()
                grandchild.apply_action(second)
                out.add(_openspiel_board(grandchild, player))
        else:
            out.add(_openspiel_board(child, player))
    return out


def test_same_full_turn_results_as_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("backgammon")
    rng = random.Random(12)
    turns = doubles = bar = bear_off = 0
    mismatches = []
    for _ in range(14):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            player = state.current_player()
            tensor = state.observation_tensor(player)
            dice = (int(tensor[198]), int(tensor[199]))
            double = dice[0] == dice[1]
            board = _openspiel_board(state, player)
            pos = Position(list(board))
            theirs = _openspiel_turn_results(state, player, double)
            # our results are seen by the opponent; turn them back to the mover's view
            ours = {tuple((-after[::-1]).tolist()) for after in pos.legal_plays(dice).after}
            if ours != theirs:
                mismatches.append(f"{pos.position_id()} {dice}: ours {len(ours)}, OpenSpiel {len(theirs)}")
            turns += 1
            doubles += double
            bar += board[25] > 0
            bear_off += not any(c > 0 for c in board[7:26])
            state.apply_action(rng.choice(state.legal_actions()))
            if double and not state.is_terminal() and not state.is_chance_node() and state.current_player() == player:
                state.apply_action(rng.choice(state.legal_actions()))
    print(f"\nOpenSpiel cross-check: {turns} turns, {doubles} doubles, {bar} from the bar, {bear_off} bearing off")
    assert not mismatches, "\n".join(mismatches[:10])
    assert turns >= 1000 and doubles >= 150 and bar >= 100 and bear_off >= 100
