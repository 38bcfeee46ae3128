"""Analysis of a whole match: every checker play, every cube decision and every roll of both players, judged by the network.

:func:`analyse_match` replays a :class:`~gammon.records.MatchRecord` (one
played here or read from a ``.mat`` file by :func:`gammon.matfile.read_mat`)
and, as GNU Backgammon's ``analyse match`` does:

* **checker play**: every legal play of the roll is valued for the mover
  (:func:`gammon.analysis.value.play_values`: cubeful EMG at the score, the
  best ones and the one made searched ``plies`` deep); the error is the
  best play's value less the value of the play made;
* **cube**: before each roll where the player on roll may double, the
  decision of :func:`gammon.cube.decide` from the network's probabilities
  (``plies`` deep): not doubling when the right action is to double is a
  missed double (below or above the cash point), doubling when it is not a
  wrong double (below the double point, or above the too-good point), and
  the answer a wrong take or a wrong pass;
* **luck**: the value of the best play of the roll thrown, less the
  average of that over the 36 rolls (at 0-ply, as GNU Backgammon's luck
  analysis); for the opening roll the average is over the 30 non-doubles
  with either player moving first (GNU Backgammon's ``LuckFirst``).

Errors and luck are in EMG and in MWC (money in money play), marked with
the thresholds of :mod:`gammon.analysis.stats`. Resignations are not
judged.

>>> from gammon.bots.random_bot import RandomBot
>>> from gammon.dice import SeededDice
>>> from gammon.match import play_match
>>> from gammon.net import Architecture, Weights
>>> from gammon.bots.neural import NeuralBot
>>> record = play_match(RandomBot(seed=1), RandomBot(seed=2), 1, SeededDice(3))
>>> analysis = analyse_match(record, NeuralBot(Weights.zeros(Architecture(hidden=4))))
>>> analysis.stats[0].moves == len([a for a in record.games[0].actions if a.kind == "move" and a.player == 0])
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from gammon.analysis.stats import CLOSE_CUBE, LUCK, RATINGS, SKILL, PlayerStats, both, luck_mark, skill
from gammon.analysis.value import Scale, play_values
from gammon.bots.neural import NeuralBot
from gammon.cube import CubeDecision, CubeState, decide, owner_seen_by, position_efficiency
from gammon.engine.analysis import ROLLS
from gammon.errors import GammonError
from gammon.met import default_met
from gammon.position import Dice, Position
from gammon.records import Action, GameRecord, MatchRecord

__all__ = ["AnalysisError", "Decision", "GameAnalysis", "MatchAnalysis", "analyse_game", "analyse_match", "roll_luck"]


class AnalysisError(GammonError):
    """A match that cannot be analysed (a bad depth, a match longer than the equity table, a record that does not replay)."""


@dataclass
class Decision:
    """One judged decision: a checker play (``kind`` "move") or a cube action ("cube": the doubler; "take": the answer).

    ``played`` and ``best`` are a play's notation or one of "no double",
    "double", "take", "pass"; equities are the decider's EMG; ``error`` is
    never negative; ``cost`` is the error in MWC (money: points). ``mwc``
    is player 0's MWC after the decision (money: player 0's equity in
    points), the curve of the match.
    """

    game: int
    turn: int
    player: int
    kind: str
    position_id: str
    cube: int
    dice: tuple[int, int] | None
    played: str
    best: str
    played_equity: float
    best_equity: float
    error: float
    cost: float
    mark: str
    forced: bool = False
    close: bool = True
    error_kind: str = ""
    plies: int = 0
    luck: float | None = None
    luck_cost: float = 0.0
    luck_mark: str = ""
    mwc: float | None = None

    def as_dict(self) -> dict:
        out = asdict(self)
        out["dice"] = list(self.dice) if self.dice else None
        return out


@dataclass
class GameAnalysis:
    """The decisions of one game and each player's statistics in it."""

    number: int
    score: tuple[int, int]
    winner: int | None
    points: int
    decisions: list[Decision] = field(default_factory=list)
    stats: tuple[PlayerStats, PlayerStats] = field(default_factory=lambda: (PlayerStats(), PlayerStats()))


@dataclass
class MatchAnalysis:
    """A whole match analysed: the games, and each player's statistics over all of them."""

    names: tuple[str, str]
    match_length: int
    plies: int
    games: list[GameAnalysis]
    stats: tuple[PlayerStats, PlayerStats]
    score: tuple[int, int]

    @property
    def decisions(self) -> list[Decision]:
        return [d for g in self.games for d in g.decisions]

    def report(self, errors: bool = True) -> str:
        """The text report: GNU Backgammon's ``show statistics match`` table, and the marked errors (:mod:`gammon.analysis.report`)."""
        from gammon.analysis.report import report

        return report(self, errors=errors)

    def as_dict(self) -> dict:
        """Everything as plain JSON values."""
        return {
            "names": list(self.names), "match_length": self.match_length, "plies": self.plies,
            "score": list(self.score),
            "thresholds": {"skill": dict(SKILL), "luck": {g: t for g, _, t in LUCK},
                           "ratings": {k: (v if v != float("inf") else None) for k, v in RATINGS}},
            "stats": [s.as_dict() for s in self.stats],
            "games": [{"number": g.number, "score": list(g.score), "winner": g.winner, "points": g.points,
                       "stats": [s.as_dict() for s in g.stats], "decisions": [d.as_dict() for d in g.decisions]}
                      for g in self.games],
        }


def analyse_match(record: MatchRecord, bot: NeuralBot, plies: int = 0) -> MatchAnalysis:
    """Judge every decision of ``record`` with ``bot``'s network searched ``plies`` (0, 1, 2) deep.

    Unfinished games (a match stopped part-way) are analysed as far as they go.
    """
    if plies not in (0, 1, 2) or isinstance(plies, bool):
        raise AnalysisError(f"invalid plies {plies!r}: expected 0, 1 or 2")
    length = record.rules.match_length
    if length > default_met().length:
        raise AnalysisError(f"cannot analyse a {length}-point match: the match equity table covers {default_met().length} points")
    games = [analyse_game(record, game, bot, plies) for game in record.games]
    decisions = [d for g in games for d in g.decisions]
    return MatchAnalysis(record.names, length, plies, games, both(decisions), record.score)


def analyse_game(record: MatchRecord, game: GameRecord, bot: NeuralBot, plies: int = 0) -> GameAnalysis:
    """Judge every decision of one game of ``record``."""
    walk = _Walk(record, game, bot, plies)
    for action in game.actions:
        walk.step(action)
    result = GameAnalysis(game.number, game.score, game.winner, game.points, walk.decisions)
    result.stats = both(walk.decisions)
    return result


def roll_luck(bot: NeuralBot, position: Position, dice: Dice, cube: CubeState, *, opening: bool = False,
              cubeful: bool = True) -> float:
    """The luck of ``dice`` for the player on roll in ``position``: its best play's EMG less the average roll's, at 0-ply.

    ``opening``: the opening roll, averaged over the 30 non-doubles either
    player may move first with (the opponent's value counted against).
    """
    def best(pos: Position, roll: Dice, state: CubeState) -> float:
        return float(play_values(bot, pos, roll, state, 0, cubeful=cubeful)[1].max())

    mine = {roll: best(position, roll, cube) for roll, _ in ROLLS if not (opening and roll[0] == roll[1])}
    if not opening:
        mean = sum(weight * mine[roll] for roll, weight in ROLLS) / 36.0
    else:
        theirs_cube = _opponent_view(cube)
        theirs = [-best(position.flip(), roll, theirs_cube) for roll in mine]
        mean = (sum(mine.values()) + sum(theirs)) / 30.0
    return mine[(max(dice), min(dice))] - mean


def _opponent_view(cube: CubeState) -> CubeState:
    owner = {"me": "opponent", "opponent": "me"}.get(cube.owner, "centre")
    return CubeState(cube.cube, owner, cube.match_length, (cube.score[1], cube.score[0]), cube.crawford,  # type: ignore[arg-type]
                     cube.cube_cap, cube.jacoby, cube.beavers)


class _Walk:
    """Replays one game action by action, judging each decision as it comes."""

    def __init__(self, record: MatchRecord, game: GameRecord, bot: NeuralBot, plies: int) -> None:
        self.record, self.game, self.bot, self.plies = record, game, bot, plies
        self.rules = record.rules
        self.position = game.start or Position.initial()
        self.opening = game.start is None
        self.on_roll = game.first
        self.cube, self.owner = game.start_cube
        self.turn = 0
        self.decided = False  # a cube decision was judged this turn
        self.pending: tuple[CubeDecision, CubeState, int] | None = None
        self.decisions: list[Decision] = []

    def state(self, player: int) -> CubeState:
        g = self.game
        return CubeState(self.cube, owner_seen_by(self.owner, player), self.rules.match_length,
                         (g.score[player], g.score[1 - player]), g.crawford, self.rules.cube_cap,
                         self.rules.jacoby, self.rules.beavers)

    def may_double(self, player: int) -> bool:
        return self.rules.cube and self.state(player).may_double()

    def step(self, action: Action) -> None:
        kind, p = action.kind, action.player
        if kind == "double":
            self.cube_decision(p, doubled=True)
        elif kind in ("take", "beaver", "pass"):
            self.answer(p, "pass" if kind == "pass" else "take")
            if kind == "take":
                self.cube, self.owner = self.cube * 2, p
            elif kind == "beaver":
                self.cube, self.owner = action.cube, p
        elif kind == "roll":
            if p != self.on_roll:
                raise AnalysisError(f"game {self.game.number}: player {p} rolls out of turn")
            if not self.decided and self.may_double(p):
                self.cube_decision(p, doubled=False)
        elif kind == "move":
            self.move(p, action)

    # -- the cube ------------------------------------------------------------------------

    def decide(self, player: int) -> tuple[CubeDecision, CubeState]:
        state = self.state(player)
        probs = self.bot.probabilities(self.position, self.plies)
        r = self.rules
        decision = decide(tuple(float(v) for v in probs), match_length=r.match_length, score=state.score, cube=state.cube,
                          owner=state.owner, crawford=state.crawford, cube_efficiency=position_efficiency(self.position),
                          jacoby=r.jacoby and not r.match_length, beavers=r.beavers, cube_cap=r.cube_cap)
        return decision, state

    def cube_decision(self, player: int, doubled: bool) -> None:
        self.turn += 0 if self.decided else 1
        self.decided = True
        decision, state = self.decide(player)
        if not decision.cube_available:
            return
        dt, dp = decision.double_take, decision.double_pass
        assert dt is not None and dp is not None
        best = decision.equity
        double_value = min(dt, dp)
        played_value = double_value if doubled else decision.no_double
        error = max(0.0, best - played_value)
        kind = ""
        if error > 0.0:
            if doubled:
                kind = "wrong doubles above TG" if decision.no_double > 1.0 else "wrong doubles below DP"
            else:
                kind = "missed doubles above CP" if dt > 1.0 else "missed doubles below CP"
        close = doubled or best - min(dt, 1.0) < CLOSE_CUBE
        best_action = "double" if decision.action == "double" else "no double"
        self.add(player, "cube", state, None, "double" if doubled else "no double", best_action, played_value, best,
                 error, kind, close=close, forced=False)
        if doubled:
            self.pending = (decision, state, player)

    def answer(self, player: int, answer: str) -> None:
        if self.pending is None:  # a double the cube rules here did not allow: nothing to judge
            return
        decision, state, doubler = self.pending
        self.pending = None
        dt, dp = decision.double_take, decision.double_pass
        assert dt is not None and dp is not None
        # The taker's equity is minus the doubler's.
        played, best = (-dt if answer == "take" else -dp), max(-dt, -dp)
        error = best - played
        kind = ("wrong takes" if answer == "take" else "wrong passes") if error > 0.0 else ""
        taker_state = _opponent_view(state)
        best_answer = "take" if -dt >= -dp else "pass"
        self.add(player, "take", taker_state, None, answer, best_answer, played, best, error, kind, close=True,
                 forced=False, scale_state=state)

    # -- checker play ---------------------------------------------------------------------

    def move(self, player: int, action: Action) -> None:
        if player != self.on_roll or action.dice is None:
            raise AnalysisError(f"game {self.game.number}: a move by player {player} out of turn")
        if not self.decided:
            self.turn += 1
        self.decided = False
        dice = action.dice
        position = self.position
        try:
            played = position.parse_play(action.play, dice) if action.moves else position.legal_plays(dice)[0]
        except GammonError as exc:
            raise AnalysisError(f"game {self.game.number}: cannot replay {action.describe(self.record.names)}: {exc}") from None
        plays = position.legal_plays(dice)
        index = int(np.flatnonzero((plays.after == np.asarray(played._after)).all(axis=1))[0])
        state = self.state(player)
        cubeful = self.rules.cube and not self.game.crawford
        _, values, depth = play_values(self.bot, position, dice, state, self.plies, cubeful=cubeful, also=index)
        deepest = values[depth == depth.max()]
        best_i = int(np.flatnonzero((depth == depth.max()) & (values == deepest.max()))[0])
        error = max(0.0, float(values[best_i] - values[index]))
        luck = roll_luck(self.bot, position, dice, state, opening=self.opening and dice[0] != dice[1], cubeful=cubeful)
        self.add(player, "move", state, dice, str(played), str(plays[best_i]), float(values[index]), float(values[best_i]),
                 error, "", forced=len(plays) == 1, luck=luck)
        self.position, self.on_roll, self.opening = position.apply(played), 1 - player, False

    # -- recording -------------------------------------------------------------------------

    def add(self, player, kind, state, dice, played, best, played_value, best_value, error, error_kind, *,
            close=True, forced=False, luck=None, scale_state=None) -> None:
        scale = Scale.of(scale_state or state)
        mine = Scale.of(state)
        if self.rules.match_length:
            mwc = float(mine.mwc(played_value))
            mwc0 = mwc if player == 0 else 1.0 - mwc
        else:
            mwc0 = played_value * state.cube * (1 if player == 0 else -1)
        d = Decision(
            self.game.number, self.turn, player, kind, self.position.position_id(), self.cube, dice, played, best,
            float(played_value), float(best_value), float(error), float(scale.money(error)),
            skill(error) if not forced else "", forced=forced, close=close, error_kind=error_kind,
            plies=self.plies, mwc=mwc0,
        )
        if luck is not None:
            d.luck, d.luck_cost, d.luck_mark = float(luck), float(mine.money(luck)), luck_mark(luck)
        self.decisions.append(d)
