"""gammon.analysis: hints rank plays as the bot does, rollouts agree with exact answers and are reproducible."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gammon import Position
from gammon.analysis.hint import cube_hint, hint_plays, probabilities
from gammon.analysis.rollout import rollout, rollout_plays
from gammon.bearoff import race_probabilities
from gammon.bots.neural import load_neural
from gammon.cli import main
from gammon.cube import decide, position_efficiency
from gammon.ids import MatchState
from gammon.outcomes import equity
from gammon.runners import LOCAL, start
from gammon.analysis.rollout import RolloutWorker

INITIAL = "4HPwATDgc/ABMA"


@pytest.fixture(scope="module")
def bot():
    return load_neural("td")


# -- hint -------------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [(3, 1), (6, 6), (5, 2)])
def test_hint_at_0_ply_ranks_the_plays_as_play_equities_does(bot, dice):
    position = Position.initial()
    plays, eq = bot.play_equities(position, dice, 0)
    expected = [str(plays[i]) for i in np.argsort(-eq, kind="stable")]
    hints = hint_plays(bot, position, dice, 0)
    assert [h.play for h in hints] == expected
    assert [h.equity for h in hints] == pytest.approx(sorted(eq, reverse=True))
    assert hints[0].difference == 0.0 and all(h.difference <= 0 for h in hints)


def test_each_hinted_play_has_probabilities_whose_equity_is_the_play_equity(bot):
    for plies in (0, 1):
        for h in hint_plays(bot, Position.initial(), (4, 2), plies):
            p = np.array(h.probabilities)
            assert p[0] >= p[1] >= p[2] and 1 - p[0] >= p[3] >= p[4]
            assert float(equity(p)) == pytest.approx(h.equity, abs=2e-3)


def test_hint_at_1_ply_puts_the_bots_1_ply_choice_first(bot):
    position = Position.from_position_id("4HPwATDgc/ABMA")
    bot.plies = 1
    try:
        chosen = str(bot.choose_play(position, (6, 4)))
    finally:
        bot.plies = 0
    hints = hint_plays(bot, position, (6, 4), 1)
    assert hints[0].play == chosen and hints[0].plies == 1


def test_2_ply_probabilities_mirror_the_compiled_2_ply_value(bot):
    from gammon.engine.search import value_2ply

    position = Position.initial()
    p = probabilities(bot, position, 2)
    assert float(equity(p)) == pytest.approx(value_2ply(position.board, bot.evaluator.kernel_args()), abs=2e-3)


def test_cube_hint_uses_the_match_situation_of_a_match_id(bot):
    position = Position.initial()
    match = MatchState.from_match_id("QYkqASAAIAAA")  # 9-point match, 2-4, cube 2 owned by player 0
    hint = cube_hint(bot, position, 0, match)
    me = match.player_on_roll
    assert hint.match_length == 9 and hint.score == (match.score[me], match.score[1 - me]) and hint.cube == 2
    expected = decide(hint.probabilities, match_length=9, score=hint.score, cube=2, owner=hint.owner,
                      cube_efficiency=position_efficiency(position))
    assert hint.decision == expected


def test_money_cube_hint_of_a_certain_win_is_worth_the_cash_and_the_opponent_passes(bot, capsys):
    # Both sides bearing off; every roll bears off at least two of three, and the opponent cannot finish in one.
    position = Position.from_checkers({1: 2, 2: 1}, {19: 4, 20: 4, 21: 4})  # no gammon: 3 of theirs are off
    assert main(["hint", position.position_id()]) == 0
    out = capsys.readouterr().out
    assert "No double           +1.000" in out and "Double, pass        +1.000" in out
    assert out.strip().endswith("double, pass")


# -- the hint command ------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [["61"], ["6-1"], ["6", "1"]])
def test_hint_command_reads_dice_in_each_notation(capsys, dice):
    assert main(["hint", INITIAL, *dice, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dice"] == [6, 1] and out["plays"][0]["play"] == "13/7 8/7" and len(out["plays"]) == len(Position.initial().legal_plays((6, 1)))


def test_hint_command_reads_a_position_and_match_id_pair(capsys):
    assert main(["hint", f"{INITIAL}:QYkqASAAIAAA"]) == 0  # the Match ID's dice (5-2): the plays
    out = capsys.readouterr().out
    assert out.startswith("Plays of 5-2, 9-point match") and "cubeful equities in EMG, with the match-winning chance" in out
    assert "    1. Cubeful  0-ply" in out and "(MWC " in out


def test_a_match_hint_ranks_the_plays_as_the_match_aware_bot_chooses(bot):
    from gammon.analysis.hint import cube_state
    from gammon.ids import MatchState

    match = MatchState.from_match_id("QYkqASAAIAAA")
    cube = cube_state(match)
    for dice in [(5, 2), (6, 4), (3, 3)]:
        hints = hint_plays(bot, Position.initial(), dice, 0, cube)
        assert hints[0].play == str(bot.choose_match_play(Position.initial(), dice, cube))
        assert all(h.measure == "emg" and 0.0 < h.mwc < 1.0 for h in hints)
        assert [h.mwc for h in hints] == sorted((h.mwc for h in hints), reverse=True)


@pytest.mark.parametrize(
    "argv, named",
    [
        (["hint", "4HPwATDgc/AB", "31"], "'4HPwATDgc/AB'"),
        (["hint", "not*an*id*1234", "31"], "'not*an*id*1234'"),
        (["hint", INITIAL, "31", "--match-id", "QYkqASAAIAA!"], "'QYkqASAAIAA!'"),
        (["hint", INITIAL, "71"], "'71'"),
        (["hint", INITIAL, "3", "0"], "'3 0'"),
        (["hint", INITIAL, "31", "--plies", "3"], "'3'"),
        (["rollout", "4HPwATDgc/AB"], "'4HPwATDgc/AB'"),
        (["rollout", INITIAL, "--dice", "07"], "'07'"),
        (["rollout", INITIAL, "--trials", "0"], "'0'"),
        (["rollout", INITIAL, "--match-id", "nonsense"], "'nonsense'"),
    ],
)
def test_bad_input_is_a_one_line_error_naming_it(capsys, argv, named):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and named in err and "Traceback" not in err


# -- rollout ------------------------------------------------------------------------------------


def test_a_certain_win_rolls_out_as_a_certain_win(bot):
    position = Position.from_checkers({1: 2}, {24: 3})  # every roll bears off both; the opponent has 12 off
    r = rollout(position, bot.evaluator, trials=72, seed=3)
    assert r.probabilities == pytest.approx([1, 0, 0, 0, 0], abs=1e-12) and r.equity == pytest.approx(1.0)


@pytest.mark.parametrize("reduce", [True, False])
def test_a_bear_off_race_rolls_out_to_the_exact_race_probabilities(bot, reduce):
    position = Position.from_checkers({6: 2}, {19: 1})  # two checkers on my six point against one on theirs
    exact = race_probabilities(position.board)
    r = rollout(position, bot.evaluator, trials=1296, seed=5, variance_reduction=reduce)
    assert abs(r.probabilities[0] - exact[0]) <= max(r.probabilities_ci[0], 0.005)
    assert r.probabilities[1:] == pytest.approx([0, 0, 0, 0], abs=1e-9)


def test_variance_reduction_narrows_the_interval(bot):
    position = Position.from_checkers({6: 2}, {19: 1})
    plain = rollout(position, bot.evaluator, trials=1296, seed=5, variance_reduction=False)
    reduced = rollout(position, bot.evaluator, trials=1296, seed=5)
    assert reduced.equity_ci < plain.equity_ci / 3


def test_the_same_seed_gives_the_same_rollout_and_another_seed_another(bot):
    position = Position.from_position_id("4HPwATDgc/ABMA")
    a = rollout(position, bot.evaluator, trials=40, truncate=6, seed=11)
    b = rollout(position, bot.evaluator, trials=40, truncate=6, seed=11)
    c = rollout(position, bot.evaluator, trials=40, truncate=6, seed=12)
    assert a.probabilities.tolist() == b.probabilities.tolist() and a.equity_ci == b.equity_ci
    assert a.probabilities.tolist() != c.probabilities.tolist()


def test_one_and_two_workers_give_the_same_rollout(bot):
    position = Position.initial()
    kwargs = dict(trials=80, truncate=4, seed=2)
    found = []
    for workers in (1, 2):
        with start(LOCAL, RolloutWorker, (bot.evaluator,), workers) as runner:
            found.append(rollout_plays(position, bot.evaluator, (3, 1), None, runner=runner, **kwargs))
    inline = rollout_plays(position, bot.evaluator, (3, 1), None, **kwargs)
    for one, two, here in zip(*found, inline):
        assert one.play == two.play == here.play
        assert one.probabilities.tolist() == two.probabilities.tolist() == here.probabilities.tolist()


def test_rollout_of_plays_ranks_them_for_the_mover_and_values_a_game_ending_play_exactly(bot):
    position = Position.from_checkers({1: 1, 2: 1}, {19: 15})
    best, other = rollout_plays(position, bot.evaluator, (2, 1), trials=36)  # 2/off 1/off, or 2/1 1/off
    assert best.play == "2/off 1/off" and best.probabilities.tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]  # a gammon
    assert best.equity_ci == 0.0 and other.equity < best.equity


def test_rollout_command_prints_the_table_and_json(capsys):
    argv = ["rollout", INITIAL, "--dice", "31", "--candidates", "2", "--trials", "36", "--truncate", "2", "--workers", "0"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Rollout of plays of 3-1" in out and " 1. 8/5 6/5" in out and "95% +-" in out
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["trials"] for r in data["results"]] == [36, 36] and data["truncate"] == 2


def test_hint_command_reads_an_xgid(capsys):
    # Given eXtreme Gammon's XGID of the starting position with 5-2 to play, money
    assert main(["hint", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["position_id"] == INITIAL and out["dice"] == [5, 2]


def test_a_hint_in_the_crawford_game_gives_real_equities(bot):
    from gammon.cube import CubeState

    crawford = CubeState(match_length=5, score=(4, 2), crawford=True)
    hints = hint_plays(bot, Position.initial(), (6, 1), 0, crawford)
    assert len({round(h.equity, 6) for h in hints}) > 1 and not all(h.equity == -1.0 for h in hints)
    assert hints[0].mwc > 0.5  # the 1-away leader, even position


def test_a_1_ply_rollout_of_a_bear_off_race_also_finds_the_exact_race_probabilities(bot):
    position = Position.from_checkers({6: 2, 5: 1}, {19: 1, 20: 1})
    exact = race_probabilities(position.board)
    r = rollout(position, bot.evaluator, trials=648, seed=2, plies=1)
    assert r.settings["plies"] == 1
    assert abs(r.probabilities[0] - exact[0]) <= max(r.probabilities_ci[0], 0.01)


def test_rollout_plays_each_trial_at_the_depth_asked(bot):
    # The same dice at 0 and 1 ply: each trial is played by a different player, so the results differ somewhere
    position = Position.initial()
    shallow = rollout(position, bot.evaluator, trials=72, seed=4, truncate=6)
    deep = rollout(position, bot.evaluator, trials=72, seed=4, truncate=6, plies=1)
    assert shallow.settings["plies"] == 0 and deep.settings["plies"] == 1
    assert not np.allclose(shallow.probabilities, deep.probabilities)


def test_rollout_command_plies_option(capsys):
    assert main(["rollout", INITIAL, "--trials", "36", "--truncate", "2", "--plies", "1", "--workers", "0"]) == 0
    assert ", 1-ply, truncated at 2 plies" in capsys.readouterr().out
    assert main(["rollout", INITIAL, "--plies", "5"]) != 0
    assert "invalid --plies '5'" in capsys.readouterr().err


def test_every_chunk_of_36_trials_sees_each_roll_once_at_both_of_the_first_two_turns(bot, monkeypatch):
    # Given a rollout of 72 trials, when each trial's first two rolls are recorded
    import gammon.analysis.rollout as module

    seen = []
    monkeypatch.setattr(module, "_trial", lambda net, board, first, second, *rest: seen.append((first, second)) or np.zeros(5))
    rollout(Position.initial(), bot.evaluator, trials=1296, seed=1)
    # Then each chunk holds the 36 rolls at turn one and at turn two, and the 1296 trials every pair once
    for c in range(36):
        chunk = seen[36 * c: 36 * c + 36]
        assert sorted(f for f, _ in chunk) == sorted(s for _, s in chunk) == sorted(module.ALL_ROLLS)
    assert len(set(seen)) == 1296
