"""The trainer: lambda-returns, self-play records, configs, checkpoints, kill and resume."""

from __future__ import annotations

import doctest
import json
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import gammon.train.config
import gammon.train.selfplay
import gammon.train.td
from gammon.cli import main
from gammon.engine.movegen import generate
from gammon.net import Architecture, Weights, build_module, load_model, weights_from_state
from gammon.outcomes import flip, game_result
from gammon.position import Position
from gammon.train.config import ConfigError, load_config
from gammon.train.selfplay import SelfPlayer, Starts
from gammon.train.td import lambda_returns
from support import start_cli, wait_for_checkpoint

ROOT = Path(__file__).resolve().parents[1]
QUICK = str(ROOT / "configs" / "td-quick.toml")


def tiny(runs: Path, *extra: str) -> list[str]:
    """Arguments of a run small enough for a test."""
    sets = ["hidden=8", "games_per_update=8", "eval_every=0", "checkpoint_every=16",
            "learning_rate=0.01", "final_learning_rate=0.01", f"runs_dir={runs}", *extra]
    return ["train", "--config", QUICK, "--no-progress", "--device", "cpu"] + [a for s in sets for a in ("--set", s)]


def final_weights(run_dir: Path) -> dict[str, torch.Tensor]:
    return torch.load(run_dir / "checkpoint.pt", weights_only=True)["model"]


@pytest.mark.parametrize("module", [gammon.train.td, gammon.train.config, gammon.train.selfplay])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def test_lambda_zero_targets_are_the_next_states_value_flipped():
    rng = np.random.default_rng(1)
    v = rng.random((7, 5)).astype(np.float32)
    z = np.array([[0, 0, 0, 1, 1], [0, 0, 0, 0, 0]], np.float32)
    starts = np.array([0, 4, 7])
    targets, td = lambda_returns(v, starts, z, 0.0)
    np.testing.assert_allclose(targets[[0, 1, 2, 4, 5]], flip(v[[1, 2, 3, 5, 6]]), atol=1e-6)
    np.testing.assert_allclose(targets[[3, 6]], flip(z), atol=1e-6)  # the last move: the exact outcome


def test_lambda_one_targets_are_the_outcome_from_each_side():
    v = np.full((5, 5), 0.3, np.float32)
    targets, _ = lambda_returns(v, np.array([0, 5]), np.array([[0, 0, 0, 1, 0]], np.float32), 1.0)
    won, lost = [1, 1, 0, 0, 0], [0, 0, 0, 1, 0]
    assert targets.tolist() == [won, lost, won, lost, won]


def test_a_self_play_record_is_a_chain_of_legal_plays():
    arch = Architecture(hidden=16)
    player = SelfPlayer(weights_from_state(build_module(arch, seed=4).state_dict(), arch))
    game = player.play(np.random.default_rng(7))
    boards = game.boards
    assert np.array_equal(boards[0], Position.initial().board)
    for before, after in zip(boards[:-1], boards[1:]):
        reachable = {bytes(a) for d1 in range(1, 7) for d2 in range(1, d1 + 1) for a in generate(before, d1, d2)[0]}
        assert bytes(after) in reachable
    # the final board is the loser's view: the winner (not on roll) has borne off all 15
    assert Position(boards[-1]).borne_off()[1] == 15
    assert game.points == game_result(boards[-1])


def test_self_play_is_a_function_of_the_weights_and_the_generator():
    w = Weights.zeros(Architecture(hidden=4))
    a = SelfPlayer(w).play(np.random.default_rng(3))
    b = SelfPlayer(w).play(np.random.default_rng(3))
    assert np.array_equal(a.boards, b.boards) and a.points == b.points


def test_config_reads_the_recipes_and_checks_overrides():
    cfg = load_config(QUICK, ["total_games=10", "lam=0.5", "eval_opponents=pubeval,level1"])
    assert (cfg.total_games, cfg.lam, cfg.eval_opponents) == (10, 0.5, ["pubeval", "level1"])
    for recipe in sorted((ROOT / "configs").glob("*.toml")):
        load_config(recipe)
    with pytest.raises(ConfigError, match="nope"):
        load_config(QUICK, ["nope=1"])
    with pytest.raises(ConfigError, match="hidden"):
        load_config(QUICK, ["hidden=many"])
    with pytest.raises(ConfigError, match="lam"):
        load_config(QUICK, ["lam=2"])


def test_cli_trains_logs_and_writes_a_loadable_model(tmp_path, capsys):
    assert main(tiny(tmp_path, "total_games=32")) == 0
    run_dir = Path(json.loads(capsys.readouterr().out.strip().splitlines()[-1])["run_dir"])
    assert run_dir.name.startswith("backgammon__td-quick__1__")
    model = load_model(run_dir / "model.pt")
    assert model.games_trained == 32 and model.arch.hidden == 8 and model.config["total_games"] == 32
    assert list(run_dir.glob("events.out.tfevents.*"))
    state = torch.load(run_dir / "checkpoint.pt", weights_only=True)
    assert state["games"] == 32 and state["updates"] == 4 and "rng_numpy" in state and "optimizer" in state


def test_cli_errors_are_one_line(tmp_path, capsys):
    assert main(["train", "--resume", str(tmp_path)]) == 2
    assert "no checkpoint.pt" in capsys.readouterr().err
    assert main(["train", "--config", str(tmp_path / "none.toml")]) == 2
    assert "not found" in capsys.readouterr().err
    assert main(["train"]) == 2
    if not torch.cuda.is_available():
        assert main(["train", "--config", QUICK, "--device", "cuda"]) == 2
        assert "no CUDA device" in capsys.readouterr().err


@pytest.mark.parametrize("how", ["sigint", "sigkill"])
def test_a_killed_run_resumes_exactly_where_it_stopped(tmp_path, capsys, how):
    # Given a run stopped mid-way, by Ctrl-C (saves and exits) or by SIGKILL (nothing saved but the last checkpoint)
    runs = tmp_path / "runs"
    proc = start_cli(tiny(runs, "total_games=100000"))
    run_dir = wait_for_checkpoint(runs, proc)
    proc.send_signal(signal.SIGINT if how == "sigint" else signal.SIGKILL)
    out, err = proc.communicate(timeout=60)
    if how == "sigint":
        assert proc.returncode == 0, err
        assert "Continue with: gammon train --resume" in out
    stopped = torch.load(run_dir / "checkpoint.pt", weights_only=True)["games"]
    assert 0 < stopped < 100000
    # When it is resumed up to a total
    total = stopped + 24
    capsys.readouterr()
    assert main(["train", "--resume", str(run_dir), "--no-progress", "--set", f"total_games={total}"]) == 0
    assert capsys.readouterr().out.startswith(f"run folder: {run_dir} (resumed at {stopped} of {total} games)\n")
    # Then it ends exactly as an uninterrupted run of that length
    fresh_runs = tmp_path / "fresh"
    assert main(tiny(fresh_runs, f"total_games={total}")) == 0
    fresh = final_weights(next(fresh_runs.iterdir()))
    resumed = final_weights(run_dir)
    assert all(torch.equal(fresh[k], resumed[k]) for k in fresh)


def test_adam_takes_fused_steps_also_after_resuming_a_checkpoint_written_without_them():
    from gammon.train.loop import fuse, make_optimizer

    cfg = load_config(QUICK, ["hidden=8"])
    module = build_module(Architecture(hidden=8), seed=1)
    optimizer = make_optimizer(cfg, list(module.parameters()))
    assert optimizer.param_groups[0]["fused"] is True  # this torch (>= 2.4) has the CPU kernel
    # Given a checkpoint's optimizer state from a run that stepped tensor by tensor
    old = torch.optim.Adam(module.parameters(), lr=0.01)
    module(torch.ones(1, 211)).sum().backward()
    old.step()
    restored = make_optimizer(cfg, list(module.parameters()))
    restored.load_state_dict(old.state_dict())
    assert restored.param_groups[0]["fused"] is None
    # When the trainer loads it, then it steps fused, from the same moments
    fuse(restored)
    before = [p.detach().clone() for p in module.parameters()]
    restored.step()
    assert restored.param_groups[0]["fused"] is True
    assert all(not torch.equal(a, p) for a, p in zip(before, module.parameters()))


def test_worker_processes_give_the_same_run_for_the_same_lag_whatever_their_number(tmp_path, capsys):
    # Given the same run with self-play in two processes, and in one with the same lag (4 updates, the default
    # of both), the trainer playing the units that one has no time for
    assert main(tiny(tmp_path / "two", "total_games=48", "workers=2", "learner_plays=false")) == 0
    assert main(tiny(tmp_path / "one", "total_games=48", "workers=1", "learner_plays=true")) == 0
    two, one = next((tmp_path / "two").iterdir()), next((tmp_path / "one").iterdir())
    # Then both trained on the same games, to the last weight
    assert load_model(two / "model.pt").games_trained == 48
    a, b = final_weights(two), final_weights(one)
    assert all(torch.equal(a[k], b[k]) for k in a)


def test_the_learner_plays_the_units_its_worker_has_no_time_for_and_the_games_stay_the_same():
    from gammon.runners import LOCAL
    from gammon.train import sources

    arch = Architecture(hidden=8)
    weights = [weights_from_state(build_module(arch, seed=s).state_dict(), arch) for s in range(7)]

    def play(workers, learner_plays):
        source = sources.open_source(LOCAL, workers, weights[0], None, seed=3, start_games=0, unit_games=4,
                                     learner_plays=learner_plays)
        try:
            games = []
            for w in weights[1:]:
                games += source.games(4)
                source.publish(w)
            return games, list(source.recent_versions), getattr(source, "learner_units", 0)
        finally:
            source.close()

    # Given the same units played by two worker processes, and by one worker with the learner's help
    two, two_versions, _ = play(2, False)
    one, one_versions, learner_units = play(1, True)
    # Then the learner played some of them (a worker has at most two out at once)
    assert learner_units >= 2
    # And the games and the weights each unit was played with are the same (a lag of 4 updates by default)
    assert one_versions == two_versions == [0, 0, 0, 0, 0, 1]
    assert all(np.array_equal(a.boards, b.boards) and a.points == b.points for a, b in zip(one, two))
    assert len(one) == len(two) == 24


def test_a_duplicate_match_of_a_net_against_itself_is_even():
    # The trainer's evaluation is the arena's duplicate-dice match: a net against
    # itself wins each pair's two games back and forth, exactly even.
    from gammon.arena import evaluate
    from gammon.bots.neural import NeuralBot

    arch = Architecture(hidden=8)
    weights = weights_from_state(build_module(arch, seed=3).state_dict(), arch)
    result = evaluate(NeuralBot(weights), NeuralBot(weights), 20, seed=1)
    assert result.games == 20 and result.ppg == 0.0 and result.ci95 == (0.0, 0.0)


def test_a_config_value_of_the_wrong_type_is_named(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('total_games = "many"\n')
    with pytest.raises(ConfigError, match=r"bad .*bad\.toml: total_games = 'many' should be of type int"):
        load_config(bad)
    fine = tmp_path / "fine.toml"
    fine.write_text("learning_rate = 1\n")  # an integer where a float is expected is fine
    assert load_config(fine).learning_rate == 1.0


# -- what the trainer says, and bad input --------------------------------------------------


def test_the_run_folder_is_printed_first_and_the_bar_shows_one_games_per_second(tmp_path):
    args = tiny(tmp_path, "total_games=16", "log_every=1")
    args.remove("--no-progress")
    done = subprocess.run([sys.executable, "-m", "gammon", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    run_dir = json.loads(lines[-1])["run_dir"]
    assert lines[0] == f"run folder: {run_dir}"
    states = [s for s in done.stderr.replace("\r", "\n").splitlines() if "game" in s]
    assert states and all(s.count("/s") <= 1 for s in states), states
    assert "gps" not in done.stderr


def test_an_unknown_eval_opponent_is_named_before_the_run_starts(tmp_path, capsys):
    runs = tmp_path / "runs"
    assert main(tiny(runs, "total_games=16", "eval_opponents=level1,nosuchbot")) == 2
    err = capsys.readouterr().err
    assert err.startswith("gammon train: error: eval_opponents: unknown bot 'nosuchbot'") and err.count("\n") == 1
    assert not runs.exists() or not any(runs.iterdir())  # nothing written


def test_an_eval_opponent_whose_extra_is_missing_is_skipped_with_a_note_at_the_start(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "gnubg_nn", None)  # as if gammon[gnubg] were not installed
    assert main(tiny(tmp_path, "total_games=16", "eval_every=16", "eval_games=2", "eval_opponents=pubeval,level1")) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("eval: pubeval is not available, its evaluations are skipped (")
    assert "pip install gammon[gnubg]" in out[0] and out[1].startswith("run folder: ")
    run_dir = Path(json.loads(out[-1])["run_dir"])
    evals = [json.loads(line) for line in (run_dir / "eval.jsonl").read_text().splitlines()]
    assert [e["opponent"] for e in evals] == ["level1"]


@pytest.mark.parametrize("content", [b"\x80\x02garbage that is no checkpoint", b"",
                                     "foreign"], ids=["corrupt", "empty", "foreign"])
def test_a_corrupt_or_foreign_checkpoint_is_a_whole_one_line_error_naming_the_file(tmp_path, capsys, content):
    path = tmp_path / "checkpoint.pt"
    if content == "foreign":
        torch.save({"state_dict": {"w": torch.zeros(2)}}, path)  # a torch file, not ours
    else:
        path.write_bytes(content)
    assert main(["train", "--resume", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err, err
    assert err.rstrip().endswith("written by another program)"), err
    assert "weights_only" not in err and "Error" not in err


def test_resuming_a_finished_run_says_so_and_how_to_continue(tmp_path, capsys):
    assert main(tiny(tmp_path, "total_games=16")) == 0
    run_dir = Path(json.loads(capsys.readouterr().out.strip().splitlines()[-1])["run_dir"])
    before = (run_dir / "checkpoint.pt").read_bytes()
    assert main(["train", "--resume", str(run_dir), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"{run_dir} is finished: it has trained 16 games of total_games=16." in out
    assert f"gammon train --resume {run_dir} --set total_games=32" in out
    assert (run_dir / "checkpoint.pt").read_bytes() == before


def test_weight_averages_move_towards_the_trained_weights_after_each_update():
    from gammon.train.nets import Nets

    nets = Nets(load_config(QUICK, ["hidden=4", "ema_decay=0.75"]))
    assert nets.kept() is nets  # nothing averaged yet: the trained weights
    weight = nets.contact[0].weight
    with torch.no_grad():
        weight.fill_(1.0)
    nets.update_averages()  # the first update starts the average at the weights
    with torch.no_grad():
        weight.fill_(3.0)
    nets.update_averages()
    kept = nets.kept()
    assert kept.contact is not nets.contact and torch.allclose(kept.contact[0].weight, torch.full_like(weight, 1.5))
    assert torch.equal(nets.contact[0].weight, torch.full_like(weight, 3.0))


def test_a_run_keeping_weight_averages_saves_them_in_its_model_files_and_resumes_exactly(tmp_path):
    # Given a run with weight averages stopped at 16 games and resumed to 32, and one run straight to 32
    assert main(tiny(tmp_path / "a", "total_games=16", "ema_decay=0.9")) == 0
    run_dir = next((tmp_path / "a").iterdir())
    assert main(["train", "--resume", str(run_dir), "--no-progress", "--set", "total_games=32"]) == 0
    assert main(tiny(tmp_path / "b", "total_games=32", "ema_decay=0.9")) == 0
    straight = torch.load(next((tmp_path / "b").iterdir()) / "checkpoint.pt", weights_only=True)
    resumed = torch.load(run_dir / "checkpoint.pt", weights_only=True)
    # Then the resumed run has the same weights and the same averages
    assert all(torch.equal(straight["model"][k], resumed["model"][k]) for k in straight["model"])
    assert all(torch.equal(a, b) for a, b in zip(straight["averages"][0].values(), resumed["averages"][0].values()))
    # And its model file holds the averages, not the trained weights
    kept = load_model(run_dir / "model.pt").state_dict
    average = {k.removeprefix("module."): v for k, v in resumed["averages"][0].items() if k.startswith("module.")}
    assert all(torch.equal(kept[k], average[k]) for k in kept)
    assert not torch.equal(kept["0.weight"], resumed["model"]["0.weight"])
    assert int(resumed["averages"][0]["n_averaged"]) == 4  # 32 games, 8 an update


def test_weight_averages_are_for_td_runs():
    with pytest.raises(ConfigError, match="ema_decay"):
        load_config(QUICK, ["method=search", "ema_decay=0.5"])
    with pytest.raises(ConfigError, match="ema_decay"):
        load_config(QUICK, ["ema_decay=1.0"])


# -- race starts -------------------------------------------------------------------------------


def test_a_random_race_has_no_contact_and_both_sides_still_to_bear_off():
    from gammon.engine.analysis import in_contact
    from gammon.train.selfplay import random_race

    rng = np.random.default_rng(4)
    full = 0
    for _ in range(2000):
        b = random_race(rng)
        Position(b)  # a legal board: at most 15 checkers a side, each point one colour
        assert not in_contact(b) and (b > 0).any() and (b < 0).any()
        full += int(b[b > 0].sum()) == 15
    # Then about half the sides keep all their checkers, where gammons are decided
    assert 0.4 < full / 2000 < 0.6


def test_race_starts_start_that_share_of_the_games_from_a_random_race():
    from gammon.engine.analysis import in_contact

    weights = Weights.zeros(Architecture(hidden=4))
    start = np.asarray(Position.initial().board, np.int8)
    plain = SelfPlayer(weights).play_many(np.random.default_rng(7), 20)
    # Given no race starts, the games are the ones without the option
    assert all(np.array_equal(g.boards, h.boards) for g, h in
               zip(plain, SelfPlayer(weights, Starts(0.0)).play_many(np.random.default_rng(7), 20)))
    assert all(np.array_equal(g.boards[0], start) for g in plain)
    # Then with every game a race start, none starts from the opening or with contact
    races = SelfPlayer(weights, Starts(1.0)).play_many(np.random.default_rng(7), 20)
    assert all(not in_contact(g.boards[0]) and not np.array_equal(g.boards[0], start) for g in races)
    # And a share of one half starts about half the games from a race
    mixed = SelfPlayer(weights, Starts(0.5)).play_many(np.random.default_rng(8), 200)
    assert 70 < sum(not np.array_equal(g.boards[0], start) for g in mixed) < 130


def test_race_starts_outside_zero_to_one_are_refused():
    with pytest.raises(ConfigError, match="race_starts"):
        gammon.train.config.Config(race_starts=1.5).validate()


def test_a_scrambled_opening_is_the_opening_after_a_few_legal_plays():
    from gammon.train.selfplay import scrambled_opening

    start = Position.initial()
    boards = [scrambled_opening(np.random.default_rng(seed)) for seed in range(300)]
    positions = [Position(b) for b in boards]  # legal boards
    # Then no checker is borne off yet and none is the opening, and they are varied, hits included
    assert all(p.borne_off() == (0, 0) and p != start for p in positions)
    assert len({p.position_id() for p in positions}) > 250
    assert sum(b[0] < 0 or b[25] > 0 for b in boards) > 10  # a checker on the bar
    # And the same generator state gives the same board
    assert np.array_equal(scrambled_opening(np.random.default_rng(7)), boards[7])


def test_starts_take_their_shares_race_first_then_scrambled():
    from gammon.engine.analysis import in_contact

    weights = Weights.zeros(Architecture(hidden=4))
    start = np.asarray(Position.initial().board, np.int8)
    games = SelfPlayer(weights, Starts(0.0, 1.0)).play_many(np.random.default_rng(5), 30)
    # Given every game scrambled, none starts from the opening, and the games go on as self-play games do
    assert all(not np.array_equal(g.boards[0], start) for g in games) and all(g.points in (1, 2, 3) for g in games)
    # Then with a third of each, about a third start from a race, a third scrambled (with contact), the rest the opening
    kinds = [("opening" if np.array_equal(g.boards[0], start) else "contact" if in_contact(g.boards[0]) else "race")
             for g in SelfPlayer(weights, Starts(1 / 3, 1 / 3)).play_many(np.random.default_rng(6), 300)]
    assert all(70 < kinds.count(k) < 130 for k in ("opening", "contact", "race"))


def test_race_and_scrambled_starts_together_at_most_all_games():
    with pytest.raises(ConfigError, match="scrambled_starts"):
        gammon.train.config.Config(race_starts=0.6, scrambled_starts=0.5).validate()


def test_the_trainers_evaluator_is_a_snapshot_that_later_updates_leave_alone():
    # Given the trainer's evaluator of its current weights (what a unit the learner plays later is played with)
    from gammon.train.nets import Nets

    nets = Nets(load_config(ROOT / "configs" / "td2.toml", ["init_model="]))
    evaluator = nets.evaluator()
    before = [w.copy() for net in (evaluator.contact, evaluator.race) for w in (net.w1, net.b1, net.w2, net.b2)]
    # When the learner's optimizer changes every parameter in place
    with torch.no_grad():
        for p in nets.parameters():
            p.add_(1.0)
    # Then the evaluator still holds the weights it was made with
    later = [w for net in (evaluator.contact, evaluator.race) for w in (net.w1, net.b1, net.w2, net.b2)]
    assert all(np.array_equal(a, b) for a, b in zip(before, later))
