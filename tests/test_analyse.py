"""``gammon analyse`` and :mod:`gammon.analysis.match`: every decision of a match judged, GNU Backgammon's statistics."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from gammon import Position
from gammon.analysis.match import AnalysisError, analyse_match, roll_luck
from gammon.analysis.stats import rating, skill
from gammon.analysis.value import Scale
from gammon.bots.neural import NeuralBot, load_neural
from gammon.cli import main
from gammon.cube import CubeState, decide
from gammon.engine.analysis import ROLLS
from gammon.matfile import read_mat
from gammon.met import default_met
from gammon.net import Architecture, Weights
from gammon.outcomes import flip
from gammon.play import Move
from gammon.records import Action, GameRecord, MatchRecord, Rules

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def td():
    return load_neural("td")


class FixedBot:
    """An evaluator that gives every position the same cubeless probabilities for the player on roll."""

    def __init__(self, probs):
        self.probs = np.asarray(probs, np.float64)

    def probabilities(self, position, plies=0):
        return self.probs.copy()

    def play_probabilities(self, position, dice):
        plays = position.legal_plays(dice)
        return list(plays), np.tile(flip(self.probs), (len(plays), 1))


def one_game(actions, start=None, rules=None, first=0, score=(0, 0), crawford=False) -> MatchRecord:
    game = GameRecord(1, score, crawford, first, start=start, actions=list(actions))
    return MatchRecord(("alice", "bob"), rules or Rules(), games=[game])


def moves(*steps):
    return tuple(Move(a, b) for a, b in steps)


# -- checker play ------------------------------------------------------------------------------------------------


def test_a_known_blunder_on_a_literal_position_is_marked_very_bad(td):
    # Given: alice has two checkers left, on her 2 and 1 points; bob bears off next turn with any roll
    race = Position.from_checkers({2: 1, 1: 1}, {24: 2})
    # When: she rolls 2-1 and plays 2/1 1/off, leaving a checker, instead of bearing both off
    record = one_game([Action(0, "roll", dice=(2, 1)), Action(0, "move", dice=(2, 1), moves=moves((2, 1), (1, 0)))],
                      start=race)
    play = [d for d in analyse_match(record, td).decisions if d.kind == "move"][0]
    # Then: the winning play is best, the error is the whole game (a win thrown into a loss), marked very bad
    assert play.best == "2/off 1/off"
    assert play.error == pytest.approx(2.0, abs=0.01)
    assert play.mark == "very bad" and not play.forced


def test_the_best_play_made_loses_nothing(td):
    race = Position.from_checkers({2: 1, 1: 1}, {24: 2})
    record = one_game([Action(0, "roll", dice=(2, 1)), Action(0, "move", dice=(2, 1), moves=moves((2, 0), (1, 0)))],
                      start=race)
    play = [d for d in analyse_match(record, td).decisions if d.kind == "move"][0]
    assert play.error == 0.0 and play.mark == "" and play.played == play.best


def test_a_forced_move_is_not_an_unforced_decision(td):
    # alice's checker on the bar dances against a closed board: her only play is no play
    position = Position.from_checkers({25: 1, 13: 14}, {24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 3, 1: 2})
    assert len(position.legal_plays((6, 1))) == 1
    record = one_game([Action(0, "roll", dice=(6, 1)), Action(0, "move", dice=(6, 1))],
                      start=position)
    stats = analyse_match(record, td).stats[0]
    assert (stats.moves, stats.unforced, stats.checker_error) == (1, 0, 0.0)


def test_every_move_of_a_generated_match_is_judged_once(td):
    record = read_mat((DATA / "level1_td_5pt.mat").read_text())
    analysis = analyse_match(record, td)
    made = [(a.player) for g in record.games for a in g.actions if a.kind == "move"]
    assert analysis.stats[0].moves == made.count(0) and analysis.stats[1].moves == made.count(1)
    assert all(d.error >= 0.0 for d in analysis.decisions)


# -- luck --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cube", [CubeState(), CubeState(cube=2, owner="opponent"),
                                  CubeState(match_length=7, score=(3, 5)), CubeState(match_length=5, score=(4, 2), crawford=True)])
def test_luck_of_the_36_rolls_sums_to_zero(cube):
    # Given: a network with random weights and a middle-game position
    bot = _random_weights(np.random.default_rng(5))
    opening = Position.initial()
    position = opening.apply(opening.legal_plays((3, 1))[0])
    # When: the luck of each roll is weighted by its chance
    total = sum(weight * roll_luck(bot, position, roll, cube) for roll, weight in ROLLS)
    # Then: the luck is zero in expectation
    assert total == pytest.approx(0.0, abs=1e-9)


def _random_weights(rng) -> NeuralBot:
    w = Weights.zeros(Architecture(hidden=8))
    for name in ("w1", "b1", "w2", "b2"):
        array = getattr(w, name)
        array[...] = rng.normal(0.0, 0.3, array.shape)
    return NeuralBot(w)


def test_the_opening_roll_luck_sums_to_zero_over_the_30_opening_throws():
    # Given: a 7-point match at 3-5 (not symmetric), the opening throw of two different dice
    bot = _random_weights(np.random.default_rng(9))
    start = Position.initial()
    alice, bob = CubeState(match_length=7, score=(3, 5)), CubeState(match_length=7, score=(5, 3))
    throws = [roll for roll, _ in ROLLS if roll[0] != roll[1]]
    # When: alice wins the opening with each of the 15 throws, and bob with each of them
    mine = [roll_luck(bot, start, roll, alice, opening=True) for roll in throws]
    theirs = [roll_luck(bot, start, roll, bob, opening=True) for roll in throws]
    # Then: alice's luck over the 30 equally likely throws (bob's luck counted against her) is zero
    assert sum(mine) - sum(theirs) == pytest.approx(0.0, abs=1e-9)
    assert np.ptp(mine) > 0.01


def test_luck_over_a_whole_match_is_small_per_roll(td):
    analysis = analyse_match(read_mat((DATA / "gnubg_5pt.mat").read_text()), td)
    rolls = [d.luck for d in analysis.decisions if d.luck is not None]
    assert len(rolls) > 50 and abs(np.mean(rolls)) < 0.1


# -- the cube ----------------------------------------------------------------------------------------------------


def test_a_double_and_a_pass_at_even_chances_are_a_wrong_double_and_a_wrong_pass():
    # Given: both sides have even chances (a network of zeros), money play, cube centred
    bot = NeuralBot(Weights.zeros(Architecture(hidden=4)))
    record = one_game([Action(0, "double", cube=2), Action(1, "pass"), Action(0, "win", value=1, points=1)],
                      start=Position.initial())
    double, answer = analyse_match(record, bot).decisions
    # Then: doubling was wrong (no double is right) and so was passing (a take is right)
    assert (double.played, double.best, double.error_kind) == ("double", "no double", "wrong doubles below DP")
    assert (answer.played, answer.best, answer.error_kind) == ("pass", "take", "wrong passes")
    even = decide(tuple(float(v) for v in bot.probabilities(Position.initial())), cube_efficiency=0.68)
    assert double.error == pytest.approx(even.no_double - min(even.double_take, even.double_pass))
    assert answer.error == pytest.approx(even.double_pass - even.double_take)
    assert double.error > 0.0 and answer.error > 0.0


def test_rolling_without_doubling_a_double_take_position_is_a_missed_double():
    # Given: 72% to win, no gammons, money play, cube centred: double, take (gammon.cube.decide)
    bot = FixedBot([0.72, 0.0, 0.0, 0.0, 0.0])
    position = Position.from_position_id("4HPwATDgc/ABMA")
    record = one_game([Action(0, "roll", dice=(3, 1)), Action(0, "move", dice=(3, 1), moves=moves((8, 5), (6, 5)))],
                      start=position)
    cube = [d for d in analyse_match(record, bot).decisions if d.kind == "cube"][0]
    assert (cube.played, cube.best, cube.error_kind) == ("no double", "double", "missed doubles below CP")
    assert cube.error > 0.0 and cube.close


def test_taking_a_hopeless_double_is_a_wrong_take():
    bot = FixedBot([0.95, 0.0, 0.0, 0.0, 0.0])
    record = one_game([Action(0, "double", cube=2), Action(1, "take")], start=Position.initial())
    double, take = analyse_match(record, bot).decisions
    assert (double.error, take.played, take.best, take.error_kind) == (0.0, "take", "pass", "wrong takes")
    stats = analyse_match(record, bot).stats[1]
    assert (stats.takes, stats.cube_errors["wrong takes"][0]) == (1, 1)


def test_the_crawford_game_has_no_cube_decisions(td):
    record = one_game([Action(0, "roll", dice=(3, 1)), Action(0, "move", dice=(3, 1), moves=moves((8, 5), (6, 5)))],
                      start=Position.initial(), rules=Rules(match_length=5), score=(4, 2), crawford=True)
    assert [d.kind for d in analyse_match(record, td).decisions] == ["move"]


# -- units, marks and ratings -------------------------------------------------------------------------------------


def test_a_match_error_in_emg_costs_its_share_of_the_match_equity_swing_of_the_cube():
    # 7-point match at 0-0, cube 2: W, L are the MWC after winning and losing 2 points
    scale = Scale.of(CubeState(cube=2, match_length=7))
    met = default_met()
    assert scale.win == pytest.approx(met.equity(5, 7)) and scale.lose == pytest.approx(met.equity(7, 5))
    assert scale.money(0.1) == pytest.approx(0.1 * (scale.win - scale.lose) / 2)
    assert scale.emg(scale.mwc(0.37)) == pytest.approx(0.37)
    assert Scale.of(CubeState(cube=4)).money(0.1) == pytest.approx(0.4)


def test_marks_follow_gnubg_default_thresholds():
    assert [skill(e) for e in (0.030, 0.031, 0.060, 0.061, 0.120, 0.121)] == [
        "", "doubtful", "doubtful", "bad", "bad", "very bad"]


def test_ratings_follow_gnubg_thresholds():
    names = [rating(r) for r in (0.0019, 0.002, 0.0049, 0.0079, 0.0119, 0.0179, 0.0259, 0.0349, 0.035)]
    assert names == ["Supernatural", "World class", "World class", "Expert", "Advanced", "Intermediate",
                     "Casual player", "Beginner", "Awful!"]


def test_bad_plies_is_an_analysis_error(td):
    with pytest.raises(AnalysisError, match="invalid plies 3"):
        analyse_match(read_mat((DATA / "level1_td_5pt.mat").read_text()), td, 3)


# -- .mat files from GNU Backgammon ------------------------------------------------------------------------------


def test_a_match_gnubg_played_and_exported_is_read_and_analysed(td):
    record = read_mat((DATA / "gnubg_5pt.mat").read_text())
    assert record.names == ("gnubg", "root") and record.finished
    analysis = analyse_match(record, td)
    assert len(analysis.games) == len(record.games) and analysis.stats[0].moves > 20


def test_a_match_gnubg_imported_and_exported_again_reads_as_the_same_match():
    ours = read_mat((DATA / "level1_td_5pt.mat").read_text())
    theirs = read_mat((DATA / "gnubg_reexport.mat").read_text())
    assert theirs.score == ours.score and [g.actions for g in theirs.games] == [g.actions for g in ours.games]


def test_our_checker_error_rates_rank_the_players_as_gnubg_does(td):
    # GNU Backgammon's own 0-ply analysis of the same match (tests/data/make_analyse_fixtures.py)
    text = (DATA / "level1_td_5pt.gnubg.txt").read_text()
    gnubg = [float(v) for v in re.findall(r"Error rate mEMG \(MWC\)\s+(-?[\d.]+)\s+\(\s*[-+\d.]+%\)\s+(-?[\d.]+)", text)[0]]
    ours = analyse_match(read_mat((DATA / "level1_td_5pt.mat").read_text()), td).stats
    assert (gnubg[0] < gnubg[1]) == (-ours[0].checker_rate < -ours[1].checker_rate)
    assert ours[0].ratings()["checker"] == re.search(r"Chequerplay rating\s+(\S+)", text).group(1) == "Awful!"


# -- the command -------------------------------------------------------------------------------------------------


def test_analyse_prints_gnubgs_statistics_table(capsys):
    assert main(["analyse", str(DATA / "level1_td_5pt.mat")]) == 0
    out = capsys.readouterr().out
    for row in ("Chequerplay statistics", "Unforced moves", "Moves marked very bad", "Error rate mEMG (MWC)",
                "Chequerplay rating", "Luck total EMG (MWC)", "Wrong takes (EMG (MWC))", "Overall rating", "Marked decisions"):
        assert row in out


def test_analyse_writes_json_and_a_plot(tmp_path, capsys):
    js, png = tmp_path / "a.json", tmp_path / "a.png"
    assert main(["analyse", str(DATA / "gnubg_5pt.mat"), "--json", str(js), "--plot", str(png)]) == 0
    data = json.loads(js.read_text())
    decisions = [d for g in data["games"] for d in g["decisions"]]
    assert data["names"] == ["gnubg", "root"] and len(decisions) > 50
    assert {"played", "best", "error", "cost", "mark", "luck"} <= set(decisions[0])
    assert data["stats"][0]["ratings"]["checker"] and data["thresholds"]["skill"]["very bad"] == 0.12
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("content", "named"),
    [
        (None, "no such file"),
        ("hello\n", "no 'N point match' line"),
        (b"\x89PNG\r\n\x1a\n\x00\xff", "not text"),
        ("truncated", "cannot replay"),
        ("illegal", "illegal play"),
    ],
)
def test_a_bad_or_truncated_mat_file_is_a_one_line_error_naming_it(tmp_path, capsys, content, named):
    path = tmp_path / "m.mat"
    text = (DATA / "level1_td_5pt.mat").read_text()
    if content == "truncated":
        path.write_text(text[: text.index("24/21*") + 4])
    elif content == "illegal":
        path.write_text(text.replace("42: 8/4 6/4", "42: 8/2 6/4", 1))
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    assert main(["analyse", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and named in err


@pytest.mark.parametrize("plies", ["3", "-1", "x"])
def test_bad_plies_is_a_one_line_error(capsys, plies):
    assert main(["analyse", str(DATA / "level1_td_5pt.mat"), "--plies", plies]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"invalid --plies {plies!r}" in err


def test_analyse_is_a_subcommand_with_its_own_help(capsys):
    from gammon.cli import build_parser

    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["analyse", "--help"])
    assert exit_.value.code == 0 and "--plies" in capsys.readouterr().out
