"""The arena: duplicate dice, statistics, ratings, and ``gammon eval`` on the command line."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from gammon import arena
from gammon.arena import ArenaError, ArenaRecord, Format, Result, elo_ratings, evaluate, mean_ci95, play_pair, summarize
from gammon.bots.random_bot import RandomBot
from gammon.cli import main
from gammon.errors import GammonError


class Recorder:
    """A bot that plays like another and writes down every roll it is asked to play."""

    def __init__(self, name: str, log: list) -> None:
        self.name = name
        self._inner = RandomBot(seed=1)
        self._log = log

    def choose_play(self, position, dice):
        self._log.append((self.name, dice))
        return self._inner.choose_play(position, dice)

    def offer_double(self, position, cube):
        return False

    def accept_double(self, position, cube):
        return True


# -- duplicate dice ------------------------------------------------------------------------


def test_both_games_of_a_pair_see_the_same_dice_with_the_seats_swapped():
    # Given two bots that record the rolls they play
    log: list = []
    a, b = Recorder("A", log), Recorder("B", log)
    # When one duplicate pair is played
    first, second = play_pair(a, b, seed=42, pair=3)
    split = first.turns
    game1, game2 = log[:split], log[split:]
    assert len(game2) == second.turns
    # Then turn by turn the same rolls come up, each time for the other bot
    shared = min(len(game1), len(game2))
    assert shared > 10
    for (who1, dice1), (who2, dice2) in zip(game1[:shared], game2[:shared]):
        assert sorted(dice1) == sorted(dice2)
        assert who1 != who2
    # And A sat in seat 0 first, in seat 1 second
    assert (first.swapped, second.swapped) == (False, True)


def test_different_pairs_get_different_dice():
    log1: list = []
    log2: list = []
    play_pair(Recorder("A", log1), Recorder("B", log1), seed=42, pair=0)
    play_pair(Recorder("A", log2), Recorder("B", log2), seed=42, pair=1)
    assert [d for _, d in log1[:20]] != [d for _, d in log2[:20]]


def test_the_points_of_a_record_are_bot_as_points_whichever_seat_it_sat_in():
    records = play_pair("level4", "random", seed=9, pair=0)
    assert all(r.points > 0 for r in records)  # level 4 beats a random player from either seat


# -- statistics ------------------------------------------------------------------------------


def test_the_confidence_interval_matches_a_hand_computation():
    # Pair means 1, -1, 2, 0: mean 0.5; sample variance ((.5^2 + 1.5^2 + 1.5^2 + .5^2) / 3) = 5/3;
    # standard error sqrt(5/3 / 4) = 0.645497; half width 1.959964 * 0.645497 = 1.265151.
    mean, (lo, hi) = mean_ci95([1.0, -1.0, 2.0, 0.0])
    assert mean == 0.5
    assert lo == pytest.approx(0.5 - 1.265151, abs=1e-6)
    assert hi == pytest.approx(0.5 + 1.265151, abs=1e-6)


def test_the_summary_takes_the_interval_over_pair_means_not_games():
    # Pair 0: A wins 2 and loses 1 -> mean 0.5; pair 1: wins 1 and 1 -> 1; pair 2: loses 3 and wins 1 -> -1.
    records = [
        ArenaRecord(0, False, 2, 30), ArenaRecord(0, True, -1, 40),
        ArenaRecord(1, False, 1, 50), ArenaRecord(1, True, 1, 60),
        ArenaRecord(2, False, -3, 70), ArenaRecord(2, True, 1, 50),
    ]
    result = summarize("a", "b", records, seed=1, seconds=2.0, workers=1)
    mean, ci = mean_ci95([0.5, 1.0, -1.0])
    assert result.ppg == pytest.approx(1 / 6) == pytest.approx(mean)
    assert result.ci95 == pytest.approx(ci)
    assert result.pair_means() == [0.5, 1.0, -1.0]
    assert (result.games, result.pairs) == (6, 3)
    assert result.win_rate == pytest.approx(4 / 6)
    assert result.gammon_rate == pytest.approx(1 / 6)
    assert result.lose_gammon_rate == pytest.approx(1 / 6)
    assert result.lose_backgammon_rate == pytest.approx(1 / 6)
    assert result.backgammon_rate == 0
    assert result.games_per_second == 3.0
    assert result.mean_turns == 50


def test_elo_ratings_follow_the_win_rates():
    def result(a, b, win_rate):
        return Result(a, b, 1000, 500, 0, "", 0.0, (0.0, 0.0), win_rate, 0, 0, 0, 0, 0, 1.0, 1)

    even = elo_ratings(["x", "y"], [result("x", "y", 0.5)])
    assert even["x"] == pytest.approx(even["y"]) == pytest.approx(1500)
    chain = elo_ratings(["x", "y", "z"], [result("x", "y", 0.64), result("y", "z", 0.64), result("x", "z", 0.76)])
    assert chain["x"] > chain["y"] > chain["z"]
    assert chain["x"] - chain["y"] == pytest.approx(400 * math.log10(0.64 / 0.36), abs=15)


# -- evaluate ---------------------------------------------------------------------------------


def test_a_run_is_reproduced_by_its_seed_whatever_the_number_of_workers():
    one = evaluate("level2", "level1", games=8, seed=77, workers=1)
    two = evaluate("level2", "level1", games=8, seed=77, workers=2)
    assert one.records == two.records
    assert one.seed == 77 and one.to_dict()["seed"] == 77


def test_evaluate_takes_bot_objects_as_well_as_specs():
    result = evaluate(RandomBot(seed=1), "level3", games=4, seed=5)
    assert result.a == "random" and result.b == "level3"
    assert result.ppg < 0


@pytest.mark.parametrize("games", [0, 1, 3, -2, 2.0])
def test_the_number_of_games_must_be_even_and_at_least_two(games):
    with pytest.raises(ArenaError, match="even number, at least 2"):
        evaluate("level1", "random", games=games, seed=1)


def test_matches_count_match_wins_and_every_game_in_them():
    result = evaluate("level4", "random", games=4, seed=2, fmt=Format(match_length=3))
    assert all(r.points in (1, -1) for r in result.records)
    assert result.win_rate == 1.0 and result.ppg == 1.0  # level 4 wins every 3-point match against random
    assert result.games_played >= 4  # a gammon with the cube at 2 can end one in a single game
    assert sum(len(r.results) for r in result.records) == result.games_played
    assert "of the matches" in result.summary()


def test_money_games_with_the_cube_count_the_cube_in_the_points():
    result = evaluate("level4", "level1", games=6, seed=4, fmt=Format(cube=True))
    for record in result.records:
        (game,) = record.results
        assert record.points % game == 0 and (record.points > 0) == (game > 0)
    assert "money games with the cube" in result.summary()


def test_a_match_length_must_be_a_number_of_points():
    with pytest.raises(ArenaError, match="invalid match length"):
        evaluate("level1", "random", games=2, seed=1, fmt=Format(match_length=-3))


def test_a_round_robin_plays_every_pair_and_rates_them():
    table = arena.round_robin(["level1", "level4", "random"], games=4, seed=3)
    assert [(r.a, r.b) for r in table.results] == [("level1", "level4"), ("level1", "random"), ("level4", "random")]
    assert max(table.ratings, key=table.ratings.get) == "level4"
    assert "Ratings" in table.summary()


# -- the command line ------------------------------------------------------------------------------


def test_gammon_eval_runs_from_the_command_line(tmp_path):
    out = tmp_path / "run.json"
    cmd = [sys.executable, "-m", "gammon", "eval", "level1", "random", "--games", "20", "--seed", "12", "--workers", "1", "--json", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "level1 points per game" in done.stdout
    assert "seed 12" in done.stdout and "--seed 12" in done.stdout
    assert "95% CI" in done.stdout
    data = json.loads(out.read_text())
    assert data["games"] == 20 and data["seed"] == 12 and len(data["records"]) == 20
    assert data["ppg"] > 0


def test_bad_input_gives_one_line_and_no_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "gammon", "eval", "level1", "nobody", "--games", "20"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert "unknown bot 'nobody'" in done.stderr


@pytest.mark.parametrize(
    "argv, message",
    [
        (["eval", "level1", "random", "--games", "7"], "even number"),
        (["eval", "level1", "random", "--games", "0"], "at least 2"),
        (["eval", "level1", "level9", "--games", "2"], "level1 to level5"),
        (["eval", "missing-model.pt", "level1", "--games", "2"], "model file not found"),
        (["eval", "level1", "random", "--match", "-1"], "invalid match length"),
        (["eval", "level1"], "expected two bots"),
        (["eval", "--round-robin", "level1"], "at least two bots"),
        (["eval", "level1", "random", "--workers", "0"], "--workers"),
        (["eval", "level1", "random", "--baseline", "nobody", "--games", "2"], "unknown bot 'nobody'"),
    ],
)
def test_bad_input_is_reported_on_one_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_corrupt_model_file_is_a_one_line_error(tmp_path, capsys):
    model = tmp_path / "broken.pt"
    model.write_bytes(b"not a model")
    assert main(["eval", str(model), "level1", "--games", "2", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert "broken.pt" in err and err.count("\n") == 1


def test_round_robin_prints_ratings_and_draws_a_chart(tmp_path, capsys):
    chart = tmp_path / "ratings.png"
    code = main(["eval", "--round-robin", "level1", "level2", "random", "--games", "2", "--workers", "1", "--seed", "4", "--chart", str(chart), "--quiet"])
    assert code == 0
    out = capsys.readouterr().out
    assert "Ratings" in out and "level2" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_gammon_errors_from_the_arena_are_gammon_errors():
    assert issubclass(ArenaError, GammonError)


# -- Ctrl-C keeps what was played ------------------------------------------------------------


class InterruptsAfter(Recorder):
    """Plays like the random bot until its ``plays``-th play, where Ctrl-C "arrives"."""

    def __init__(self, plays: int) -> None:
        super().__init__("interrupter", [])
        self.plays = plays

    def choose_play(self, position, dice):
        if len(self._log) >= self.plays:
            raise KeyboardInterrupt
        return super().choose_play(position, dice)


def test_an_interrupted_evaluation_keeps_the_whole_pairs_played_so_far():
    # Given a run of 40 games (chunks of one pair) that Ctrl-C stops part way through a later pair
    with pytest.raises(arena.EvaluationInterrupted) as stop:
        evaluate(InterruptsAfter(plays=500), "random", 40, seed=5, workers=1)
    result = stop.value.result
    # Then the partial result has only whole duplicate pairs, each the same as in an uninterrupted run
    assert stop.value.games == 40 and isinstance(stop.value, KeyboardInterrupt)
    assert result is not None and 0 < result.pairs < 20 and result.games == 2 * result.pairs
    assert sorted(r.pair for r in result.records) == sorted(2 * list(range(result.pairs)))
    full = evaluate(Recorder("interrupter", []), "random", 2 * result.pairs, seed=5, workers=1)
    assert [r.points for r in result.records] == [r.points for r in full.records]
    assert result.ci95 == full.ci95


def test_an_evaluation_interrupted_before_any_pair_reports_nothing():
    with pytest.raises(arena.EvaluationInterrupted) as stop:
        evaluate(InterruptsAfter(plays=3), "random", 4, seed=5, workers=1)
    assert stop.value.result is None


def _read_until(proc: subprocess.Popen, pattern: str, timeout: float) -> str:
    """Read ``proc``'s stderr (the progress bar) until ``pattern`` matches."""
    import os
    import re
    import select
    import time

    seen, deadline = "", time.time() + timeout
    while time.time() < deadline and not re.search(pattern, seen):
        ready, _, _ = select.select([proc.stderr], [], [], 0.5)
        if ready:
            chunk = os.read(proc.stderr.fileno(), 4096).decode(errors="replace")
            assert chunk, f"gammon eval ended early: {seen}"
            seen += chunk
    assert re.search(pattern, seen), f"no progress seen: {seen[-500:]}"
    return seen


def test_ctrl_c_in_gammon_eval_reports_the_games_played_so_far(tmp_path):
    import signal

    # Given a long evaluation that has played a few pairs
    out = tmp_path / "partial.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "gammon", "eval", "level1", "random", "--games", "100000", "--seed", "3",
         "--workers", "1", "--json", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # even when started in the background
    )
    _read_until(proc, r"\b([2-9]\d|\d{3,})/100000", timeout=90)
    # When Ctrl-C arrives
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    text = stdout.decode()
    # Then it stops with status 130 and reports those pairs, marked as interrupted, with their interval
    assert proc.returncode == 130, stderr.decode()[-2000:]
    lines = text.splitlines()
    assert lines[0].startswith("INTERRUPTED after ") and lines[0].endswith(" of 100000 games (whole duplicate pairs only):")
    played = int(lines[0].split()[2])
    assert played >= 20 and played % 2 == 0
    assert lines[1].startswith(f"level1 vs random: {played} cubeless money games ({played // 2} duplicate pairs)")
    assert "95% CI" in text and "reproduce: gammon eval level1 random --games 100000" in text
    assert "Traceback" not in stderr.decode()
    data = json.loads(out.read_text())
    assert data["interrupted"] is True and data["games_requested"] == 100000
    assert data["games"] == played == len(data["records"])


# -- a bot's gain over a baseline on the same dice ----------------------------------------------------


def test_paired_gain_of_a_bot_over_itself_on_the_same_dice_is_exactly_zero():
    first = evaluate("level2", "level1", games=8, seed=21)
    again = evaluate("level2", "level1", games=8, seed=21)
    assert arena.paired_gain(first, again) == (0.0, (0.0, 0.0))


def test_paired_gain_is_the_mean_of_the_pairs_differences():
    strong = evaluate("level4", "level1", games=12, seed=22)
    weak = evaluate("random", "level1", games=12, seed=22)
    gain, (lo, hi) = arena.paired_gain(strong, weak)
    diffs = [s - w for s, w in zip(strong.pair_means(), weak.pair_means())]
    assert gain == pytest.approx(sum(diffs) / len(diffs)) == pytest.approx(strong.ppg - weak.ppg)
    assert (lo, hi) == pytest.approx(mean_ci95(diffs)[1])


@pytest.mark.parametrize("change", [{"seed": 24}, {"b": "level2"}, {"games": 6}])
def test_paired_gain_refuses_runs_that_did_not_see_the_same_dice(change):
    base = {"b": "level1", "seed": 23, "games": 4}
    first = evaluate("level2", base["b"], games=base["games"], seed=base["seed"])
    other = {**base, **change}
    second = evaluate("level3", other["b"], games=other["games"], seed=other["seed"])
    with pytest.raises(ArenaError, match="not the same dice"):
        arena.paired_gain(first, second)


def test_gammon_eval_baseline_reports_the_gain_on_the_same_dice(tmp_path, capsys):
    out = tmp_path / "run.json"
    code = main(["eval", "level3", "level1", "--baseline", "random", "--games", "8", "--seed", "25", "--workers", "1",
                 "--quiet", "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "level3 vs level1" in text and "random vs level1" in text
    assert "level3 minus random against level1 on the same dice:" in text
    assert "--baseline random --seed 25" in text
    data = json.loads(out.read_text())
    first = evaluate("level3", "level1", games=8, seed=25)
    second = evaluate("random", "level1", games=8, seed=25)
    assert data["gain_over_baseline"]["mean"] == pytest.approx(arena.paired_gain(first, second)[0])
    assert data["baseline"]["a"] == "random" and data["baseline"]["seed"] == 25


def test_baseline_does_not_go_with_a_round_robin(capsys):
    assert main(["eval", "--round-robin", "level1", "level2", "--baseline", "random"]) == 2
    err = capsys.readouterr().err
    assert "--baseline" in err and err.count("\n") == 1


def test_gammon_eval_baseline_in_matches_reports_match_win_points(capsys):
    code = main(["eval", "level3", "level1", "--baseline", "random", "--match", "1", "--games", "8", "--seed", "26",
                 "--workers", "1", "--quiet"])
    assert code == 0
    first = evaluate("level3", "level1", games=8, seed=26, fmt=Format(match_length=1))
    second = evaluate("random", "level1", games=8, seed=26, fmt=Format(match_length=1))
    gain = arena.paired_gain(first, second)[0]
    assert f"match-win rate {50 * gain:+.1f} points" in capsys.readouterr().out


def test_ctrl_c_during_the_baseline_keeps_the_first_bots_whole_run(tmp_path, capsys, monkeypatch):
    import gammon.cli.eval as eval_cli

    real = eval_cli.evaluate

    def first_then_stop(bot, *args, **kwargs):
        if bot == "random":
            raise arena.EvaluationInterrupted(None, 8)
        return real(bot, *args, **kwargs)

    monkeypatch.setattr(eval_cli, "evaluate", first_then_stop)
    out = tmp_path / "run.json"
    code = main(["eval", "level3", "level1", "--baseline", "random", "--games", "8", "--seed", "27", "--workers", "1",
                 "--quiet", "--json", str(out)])
    assert code == 130
    assert "INTERRUPTED" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["a"] == "level3" and data["games"] == 8 and data["baseline_interrupted"] is True
