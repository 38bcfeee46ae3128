"""The Ray backend: training and the arena on a local Ray, results equal to the local backend, failures survived.

Each test that needs Ray shares one local Ray of two CPUs; without Ray
installed they are skipped (``pip install gammon[ray]``).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from gammon import runners
from gammon.arena import MONEY, evaluate
from gammon.arena.run import ArenaWorker, play_pairs
from gammon.cli import main
from gammon.net import Architecture, build_module, load_model, save_model, weights_from_state
from gammon.runners import LOCAL, Backend, RunnerError
from gammon.runners.ray import lost_actor_errors
from gammon.train import sources

ROOT = Path(__file__).resolve().parents[1]
QUICK = str(ROOT / "configs" / "td-quick.toml")
RAY = Backend("ray")

needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                               reason="Ray is not installed (pip install gammon[ray])")


@pytest.fixture(scope="module")
def ray():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning")
    yield ray
    ray.shutdown()


def tiny(runs: Path, *extra: str) -> list[str]:
    """A training run small enough for a test, on Ray."""
    sets = ["hidden=8", "games_per_update=8", "eval_every=0", "checkpoint_every=64", "workers=2",
            "learning_rate=0.01", "final_learning_rate=0.01", f"runs_dir={runs}", *extra]
    return ["train", "--config", QUICK, "--no-progress", "--device", "cpu", "--backend", "ray"] + [
        a for s in sets for a in ("--set", s)]


def checkpoint(run_dir: Path) -> dict:
    return torch.load(run_dir / "checkpoint.pt", weights_only=True)


# -- choosing the backend -------------------------------------------------------------------


def test_asking_for_ray_without_it_says_how_to_install_it(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    assert main(["eval", "level2", "level1", "--games", "2", "--backend", "ray"]) == 2
    err = capsys.readouterr().err
    assert "pip install gammon[ray]" in err and len(err.strip().splitlines()) == 1
    assert main(tiny(tmp_path, "total_games=8")) == 2
    assert "pip install gammon[ray]" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing written


def test_an_address_needs_the_ray_backend(capsys):
    assert main(["eval", "level2", "level1", "--games", "2", "--address", "auto"]) == 2
    assert "--address auto needs --backend ray" in capsys.readouterr().err
    with pytest.raises(RunnerError, match="unknown backend"):
        Backend.from_options("spark", None)


@needs_ray
def test_a_cluster_that_cannot_be_reached_is_a_one_line_error_not_a_hang(capsys):
    # (runs before the module's Ray is started: a started Ray is used whatever the address)
    assert main(["eval", "level2", "level1", "--games", "2", "--backend", "ray", "--address", "127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach Ray at 127.0.0.1:1" in err and len(err.strip().splitlines()) == 1
    assert main(["eval", "level2", "level1", "--games", "2", "--backend", "ray", "--address", "nowhere"]) == 2
    err = capsys.readouterr().err
    assert "invalid Ray address 'nowhere'" in err and len(err.strip().splitlines()) == 1


# -- the arena ------------------------------------------------------------------------------


@needs_ray
def test_the_arena_on_ray_plays_the_same_games_as_local_processes(ray, tmp_path, capsys):
    # Given a model file (sent to the actors with the job) and a heuristic bot
    arch = Architecture(hidden=8)
    model = tmp_path / "net.pt"
    save_model(model, build_module(arch, seed=2).state_dict(), arch, games_trained=0)
    # When the same seeded run is played by local processes and by Ray actors
    local = evaluate(str(model), "level1", games=16, seed=11, workers=1)
    remote = evaluate(str(model), "level1", games=16, seed=11, workers=2, backend=RAY)
    # Then every game is the same
    assert remote.records == local.records and remote.ppg == local.ppg and remote.workers == 2
    # And the command line gives the same numbers
    out = tmp_path / "eval.json"
    assert main(["eval", str(model), "level1", "--games", "16", "--seed", "11", "--backend", "ray",
                 "--quiet", "--json", str(out)]) == 0
    expected = json.loads(json.dumps(local.to_dict(records=True)["records"]))
    assert json.loads(out.read_text())["records"] == expected


def wait_until_dead(ray, handle, timeout: float = 60.0) -> None:
    """Return once a call on ``handle`` fails as a lost actor's does (``ray.kill`` is asynchronous)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            ray.get(handle.__ray_ready__.remote())
        except lost_actor_errors(ray):
            return
        time.sleep(0.05)
    raise AssertionError(f"the killed actor still answers after {timeout:.0f} s")


@needs_ray
def test_an_arena_actor_killed_mid_run_is_replaced_and_no_game_is_lost_or_counted_twice(ray):
    with runners.start(RAY, ArenaWorker, ("level2", "level1", {}, 5, MONEY), 2) as runner:
        killed = []

        def kill_once(n):
            if not killed:
                handle = runner.pool.handles[0]
                ray.kill(handle)
                killed.append(n)
                wait_until_dead(ray, handle)  # ray.kill lands asynchronously: the units sent after this must fail

        records = play_pairs(runner, 12, kill_once)
        assert runner.pool.replaced == 1 and runner.stats()["units_resubmitted"] >= 1
    assert sorted((r.pair, r.swapped) for r in records) == [(p, s) for p in range(12) for s in (False, True)]
    assert tuple(records) == evaluate("level2", "level1", games=24, seed=5).records


@needs_ray
def test_more_actors_than_the_cluster_has_cpus_is_a_one_line_error(ray, tmp_path, capsys):
    assert main(["eval", "level2", "level1", "--games", "8", "--backend", "ray", "--workers", "3", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "3 Ray actors need 3 CPUs; the cluster has 2" in err and len(err.strip().splitlines()) == 1
    assert main(tiny(tmp_path, "total_games=8", "workers=3")) == 2
    assert "3 Ray actors need 3 CPUs" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing written


# -- training -------------------------------------------------------------------------------


@needs_ray
def test_training_on_ray_checkpoints_logs_and_resumes(ray, tmp_path, capsys):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    assert main(tiny(tmp_path, "total_games=160", "log_every=2")) == 0
    run_dir = Path(json.loads(capsys.readouterr().out.strip().splitlines()[-1])["run_dir"])
    state = checkpoint(run_dir)
    assert state["games"] == 160 and state["updates"] == 20
    events = EventAccumulator(str(run_dir))
    events.Reload()
    staleness = [e.value for e in events.Scalars("selfplay/staleness")]
    assert staleness[-1] == 4  # two actors: self-play runs 2 x 2 updates behind the learner
    # Resumed on Ray, it continues from its checkpoint
    assert main(["train", "--resume", str(run_dir), "--no-progress", "--device", "cpu", "--backend", "ray",
                 "--set", "total_games=224"]) == 0
    assert checkpoint(run_dir)["games"] == 224 and load_model(run_dir / "model.pt").games_trained == 224


@needs_ray
def test_self_play_games_depend_on_the_seed_and_the_lag_not_on_the_actors_nor_the_backend(ray):
    arch = Architecture(hidden=8)
    weights = [weights_from_state(build_module(arch, seed=s).state_dict(), arch) for s in range(5)]

    def play(actors, backend=RAY):
        source = sources.open_source(backend, actors, weights[0], None, seed=3, start_games=0, unit_games=4, inflight=2)
        try:
            games = []
            for w in weights[1:]:
                games += source.games(4)
                source.publish(w)
            return games, list(source.recent_versions)
        finally:
            source.close()

    one, versions = play(1)
    two, _ = play(2)
    local, local_versions = play(2, LOCAL)
    assert versions == local_versions == [0, 0, 0, 1]  # unit j (>= 2) is played with the weights of version j - 2
    assert len(one) == len(two) == len(local) == 16
    for other in (two, local):
        assert all(np.array_equal(a.boards, b.boards) and a.points == b.points for a, b in zip(one, other))


@needs_ray
def test_a_self_play_actor_killed_mid_run_changes_nothing(ray, tmp_path, monkeypatch, capsys):
    # Given an undisturbed run on two actors
    assert main(tiny(tmp_path / "calm", "total_games=96")) == 0
    calm = checkpoint(next((tmp_path / "calm").iterdir()))
    # When the same run loses an actor with units in flight
    seen = []
    games = sources.UnitSource.games

    def games_then_kill(self, n):
        out = games(self, n)
        seen.append(self)
        if len(seen) == 3:  # kill the actor of the unit just submitted (queued behind the one it plays)
            _, slot, _ = max(self.runner._running.values())
            ray.kill(self.runner.pool.handles[slot])
        return out

    monkeypatch.setattr(sources.UnitSource, "games", games_then_kill)
    assert main(tiny(tmp_path / "hit", "total_games=96")) == 0
    hit = checkpoint(next((tmp_path / "hit").iterdir()))
    # Then it was replaced, its units played again, and the run is the same to the last weight
    source = seen[-1]
    assert source.runner.pool.replaced == 1 and source.runner.resubmitted >= 1
    assert source.taken == 12 and list(source.recent_versions) == [0] * 5 + list(range(1, 8))
    assert hit["games"] == calm["games"] == 96 and hit["updates"] == 12
    assert all(torch.equal(calm["model"][k], hit["model"][k]) for k in calm["model"])
