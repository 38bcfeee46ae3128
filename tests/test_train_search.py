"""The search-distillation stage (method = "search"): its positions, its targets, its fit, resume."""

from __future__ import annotations

import signal
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from gammon.bots.neural import NeuralBot
from gammon.cli import main
from gammon.engine.movegen import generate_after
from gammon.engine.network import BEAROFF, CONTACT, RACE, evaluate_batch, play_equities, position_class
from gammon.net import Architecture, Evaluator, build_module, load_model, save_model, weights_from_state
from gammon.outcomes import flip
from gammon.position import Position
from gammon.train.config import Config, ConfigError
from gammon.train import distill as distill_module
from gammon.train.distill import (Labels, fit, fitting_units, joined, rollout_dice, rollout_targets, round_positions,
                                  searched_targets)
from gammon.train.nets import Nets
from gammon.train.selfplay import SelfPlayer
from support import start_cli, wait_for_checkpoint

ROOT = Path(__file__).resolve().parents[1]
QUICK = str(ROOT / "configs" / "td-quick.toml")


@pytest.fixture(scope="module")
def start_model(tmp_path_factory) -> Path:
    arch = Architecture(hidden=8)
    path = tmp_path_factory.mktemp("start") / "start.pt"
    save_model(path, build_module(arch, seed=5).state_dict(), arch, games_trained=1)
    return path


def search_run(runs: Path, start: Path, *extra: str) -> list[str]:
    sets = ["method=search", f"init_model={start}", "hidden=8", "search_games=3", "total_games=6", "search_epochs=2",
            "search_batch=64", "eval_every=0", "learning_rate=0.003", f"runs_dir={runs}", *extra]
    return ["train", "--config", QUICK, "--no-progress", "--device", "cpu"] + [a for s in sets for a in ("--set", s)]


def test_a_round_takes_the_positions_faced_and_the_best_candidates_without_repeats_or_bear_offs(start_model):
    ev = load_model(start_model).evaluator()
    games = SelfPlayer(ev).play_many(np.random.default_rng(2), 3)
    args = ev.kernel_args()
    boards, classes, _ = round_positions(games, args, 3, np.random.default_rng(3))
    faced = {b.tobytes() for g in games for b in g.boards[:-1] if position_class(b, args) != BEAROFF}
    seen = {b.tobytes() for b in boards}
    assert faced <= seen and len(seen) == boards.shape[0]  # every faced position, each once
    assert boards.shape[0] > len(faced)  # and candidates besides
    assert all(position_class(b, args) == c != BEAROFF for b, c in zip(boards, classes))
    only_faced, _, none = round_positions(games, args, 0, np.random.default_rng(3))
    assert {b.tobytes() for b in only_faced} == faced and none.shape == (0, 2)


class _DoubleOnes:
    """A generator stand-in whose every drawn roll is 1-1."""

    def integers(self, low, high, size):
        return np.ones(size, np.int64)


def test_a_round_takes_the_candidates_of_a_roll_with_thousands_of_plays(start_model):
    # Given a faced position where 1-1 has more than a thousand different plays (single checkers on
    # twelve points, the opponent all on the bar), and a round drawing 1-1 there
    board = np.zeros(26, np.int8)
    board[[3, 4, 5, 7, 8, 9, 11, 12, 14, 15, 16, 18, 20, 22, 24]] = 1
    board[0] = -15
    after, _, over = generate_after(board, 1, 1)
    assert after.shape[0] > 2000
    game = SimpleNamespace(boards=np.stack([board, board]))
    args = load_model(start_model).evaluator().kernel_args()
    # When the round asks for more candidates than there are plays
    boards, _, _ = round_positions([game], args, 10_000, _DoubleOnes())
    # Then every play's position is in it (none is lost past a fixed-size buffer of equities)
    reached = {a.tobytes() for a, o in zip(after, over) if not o and position_class(a, args) != BEAROFF}
    assert reached <= {b.tobytes() for b in boards}
    # And with two candidates, the two best plays by the net's own 0-ply equities over all of them
    equities = np.empty(after.shape[0])
    play_equities(board, after, over, args, equities)
    best = {after[i].tobytes() for i in np.argsort(-equities, kind="stable")[:2]}
    two, _, _ = round_positions([game], args, 2, _DoubleOnes())
    assert {b.tobytes() for b in two} == best | {board.tobytes()}


def test_the_targets_are_the_nets_own_searched_probabilities(start_model):
    ev = load_model(start_model).evaluator()
    bot = NeuralBot(ev)
    positions = [Position.initial(), Position.from_position_id("4HPwATDgc/ABMA")]
    boards = np.stack([np.ascontiguousarray(p.board, np.int8) for p in positions])
    for plies in (1, 2):
        targets = searched_targets(boards, ev.kernel_args(), plies)
        for row, position in zip(targets, positions):
            np.testing.assert_allclose(row, bot.probabilities(position, plies), atol=1e-6)


def test_a_rollout_of_a_certain_win_is_that_win(start_model):
    ev = load_model(start_model).evaluator().kernel_args()
    # the side on roll bears off its last checker with any roll
    single = Position.from_checkers({1: 1}, {24: 14})  # they have borne one off
    backgammon = Position.from_checkers({1: 1}, {24: 14, 3: 1})  # none off, one in the winner's home board
    boards = np.stack([np.ascontiguousarray(p.board, np.int8) for p in (single, backgammon)])
    targets = rollout_targets(boards, ev, 36, np.random.default_rng(1))
    assert targets.tolist() == [[1, 0, 0, 0, 0], [1, 1, 1, 0, 0]]


def played_out(bot: NeuralBot, ev: tuple, position: Position, rolls: np.ndarray, to_bearoff: bool = False) -> np.ndarray:
    """The outcome for the side on roll in ``position`` of the game ``bot`` plays on with ``rolls``, or the
    evaluator's 0-ply probabilities where the rolls run out (or, ``to_bearoff``, at the first pure bear-off)."""
    turns = len(rolls)
    for turn, (d1, d2) in enumerate(rolls):
        position = position.apply(bot.choose_play(position, (int(d1), int(d2))))
        if position.is_game_over():
            points = position.result()  # won by the side that just moved
            won = np.array([1.0, points >= 2, points >= 3, 0.0, 0.0])
            return won if turn % 2 == 0 else flip(won)
        if to_bearoff and position_class(np.ascontiguousarray(position.board, np.int8), ev) == BEAROFF:
            turns = turn + 1
            break
    probs = np.empty((1, 5), np.float32)
    evaluate_batch(np.ascontiguousarray(position.board, np.int8).reshape(1, 26), ev, probs)
    return probs[0].astype(np.float64) if turns % 2 == 0 else flip(probs[0])


@pytest.mark.parametrize("turns", [3, 40])
def test_rollout_targets_are_the_mean_of_the_games_the_0_ply_bot_plays_out(start_model, turns):
    evaluator = load_model(start_model).evaluator()
    bot = NeuralBot(evaluator)
    positions = [Position.initial(), Position.from_position_id("4HPwATDgc/ABMA"), Position.from_checkers({6: 3, 5: 2}, {20: 2, 1: 3})]
    boards = np.stack([np.ascontiguousarray(p.board, np.int8) for p in positions])
    trials = 5
    targets = rollout_targets(boards, evaluator.kernel_args(), trials, np.random.default_rng(8), turns=turns)
    dice = rollout_dice(np.random.default_rng(8), len(positions), trials, turns)
    assert [tuple(dice[0, t, 0]) for t in range(trials)] == [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5)]
    for k, position in enumerate(positions):
        expected = np.mean([played_out(bot, evaluator.kernel_args(), position, dice[k, t]) for t in range(trials)], axis=0)
        assert targets[k] == pytest.approx(expected, abs=1e-5)


def test_a_rollout_to_the_bear_off_stops_at_the_first_pure_bear_off_and_takes_the_databases_values(start_model):
    # Given a race a few turns from a pure bear-off, and nets with the bear-off database
    evaluator = Evaluator(load_model(start_model).weights, bearoff=True)
    ev = evaluator.kernel_args()
    position = Position.from_checkers({9: 2, 8: 3, 6: 5, 5: 5}, {16: 2, 17: 3, 19: 5, 20: 5})
    boards = np.ascontiguousarray(position.board, np.int8).reshape(1, 26)
    trials = 36
    # When it is rolled out to the bear-off
    stopped = rollout_targets(boards, ev, trials, np.random.default_rng(6), to_bearoff=True)
    # Then each trial is the 0-ply game up to the first pure bear-off, valued there by the database
    dice = rollout_dice(np.random.default_rng(6), 1, trials, 128)
    expected = np.mean([played_out(NeuralBot(evaluator), ev, position, dice[0, t], to_bearoff=True) for t in range(trials)], axis=0)
    assert stopped[0] == pytest.approx(expected, abs=1e-5)
    # and no trial was played to its end: the win chances are the database's, not a count of wins
    assert 0.0 < stopped[0, 0] < 1.0 and round(stopped[0, 0] * trials) != pytest.approx(stopped[0, 0] * trials, abs=1e-4)


def test_fitting_moves_the_net_towards_its_targets(start_model):
    cfg = Config(hidden=8, init_model=str(start_model), search_epochs=5, search_batch=32, learning_rate=0.01)
    nets = Nets(cfg)
    nets.warm_start(load_model(start_model))
    ev = nets.evaluator().kernel_args()
    games = SelfPlayer(nets.evaluator()).play_many(np.random.default_rng(4), 4)
    boards, classes, _ = round_positions(games, ev, 2, np.random.default_rng(5))
    targets = searched_targets(boards, ev, 1)

    def gap() -> float:
        from gammon.engine.encoding import encode_batch

        with torch.no_grad():
            return float(torch.mean((torch.sigmoid(nets.contact(torch.from_numpy(encode_batch(boards, 211)))) -
                                     torch.from_numpy(targets)) ** 2))

    before = gap()
    fit(nets, boards, classes, targets, cfg, seed=1)
    assert gap() < 0.8 * before


def test_a_decision_is_the_candidates_of_one_drawn_roll(start_model):
    # Given a faced position and a round drawing 1-1 there
    board = np.zeros(26, np.int8)
    board[[6, 8, 13, 24]] = [5, 3, 5, 2]
    board[[1, 12, 17, 19]] = [-2, -5, -3, -5]
    game = SimpleNamespace(boards=np.stack([board, board, board]))
    args = load_model(start_model).evaluator().kernel_args()
    # When a round draws a roll at every position faced (every = 1), keeping four candidates
    boards, _, decisions = round_positions([game], args, 4, _DoubleOnes(), every=1)
    # Then each of the two faced positions gives one decision: the four best plays of 1-1 by 0-ply
    after, _, over = generate_after(board, 1, 1)
    equities = np.empty(after.shape[0])
    play_equities(board, after, over, args, equities)
    best = {after[i].tobytes() for i in np.argsort(-equities, kind="stable")[:4]}
    assert sorted(set(decisions[:, 1])) == [0, 1]
    for number in (0, 1):
        assert {boards[row].tobytes() for row in decisions[decisions[:, 1] == number, 0]} == best
    # and with every other position (the default), only the first
    _, _, every_other = round_positions([game], args, 4, _DoubleOnes())
    assert sorted(set(every_other[:, 1])) == [0] and every_other.shape[0] == 4


def test_fitting_units_are_whole_decisions_then_the_positions_in_none():
    # positions 0..5; decision 3 holds 4 and 1, decision 7 holds only 2 (no ranking), decision 9 holds 0 and 4
    decisions = np.array([[4, 3], [1, 3], [2, 7], [0, 9], [4, 9]], np.int32)
    members, sizes = fitting_units(6, decisions)
    assert members.tolist() == [4, 1, 0, 4, 2, 3, 5] and sizes.tolist() == [2, 2, 1, 1, 1]


def test_joined_rounds_renumber_positions_and_decisions():
    def labels(n, decisions):
        return Labels(np.zeros((n, 26), np.int8), np.zeros(n, np.int8), np.zeros((n, 5), np.float32), np.array(decisions, np.int32).reshape(-1, 2))

    both = joined([labels(3, [[0, 0], [2, 0], [1, 4]]), labels(2, []), labels(2, [[1, 0], [0, 0]])])
    assert both.boards.shape == (7, 26)
    assert both.decisions.tolist() == [[0, 0], [2, 0], [1, 4], [6, 5], [5, 5]]


def within_decision_rms(nets: Nets, boards, targets, decisions) -> float:
    from gammon.engine.encoding import encode_batch
    from gammon.outcomes import equity

    with torch.no_grad():
        p = torch.sigmoid(nets.contact(torch.from_numpy(encode_batch(boards, 211)))).numpy()
    error = equity(p) - equity(targets)
    spread = [error[rows] - error[rows].mean() for rows in (decisions[decisions[:, 1] == d, 0] for d in np.unique(decisions[:, 1]))]
    return float(np.sqrt(np.mean(np.concatenate(spread) ** 2)))


def test_the_ranking_term_fits_the_differences_between_a_decisions_candidates(start_model):
    # Given a round's contact positions, its decisions of six candidates, and their 1-ply targets
    ev = load_model(start_model).evaluator()
    games = SelfPlayer(ev).play_many(np.random.default_rng(4), 6)
    boards, classes, decisions = round_positions(games, ev.kernel_args(), 6, np.random.default_rng(5), every=1)
    targets = searched_targets(boards, ev.kernel_args(), 1)
    decisions = decisions[classes[decisions[:, 0]] == CONTACT]
    spread = {}
    for weight in (0.0, 50.0):
        # When the net is fitted with and without the ranking term
        cfg = Config(hidden=8, search_epochs=4, search_batch=64, learning_rate=0.003, search_rank_weight=weight)
        nets = Nets(cfg)
        nets.warm_start(load_model(start_model))
        losses = fit(nets, boards, classes, targets, cfg, seed=1, decisions=decisions)
        assert ("contact_rank" in losses) == bool(weight)
        spread[weight] = within_decision_rms(nets, boards, targets, decisions)
    # Then with the term the candidates' errors less their decision's mean are smaller
    assert spread[50.0] < 0.9 * spread[0.0]


def test_without_the_ranking_term_decisions_change_nothing(start_model):
    ev = load_model(start_model).evaluator()
    games = SelfPlayer(ev).play_many(np.random.default_rng(4), 2)
    boards, classes, decisions = round_positions(games, ev.kernel_args(), 3, np.random.default_rng(5))
    targets = searched_targets(boards, ev.kernel_args(), 1)
    weights = []
    for given in (None, decisions):
        cfg = Config(hidden=8, search_epochs=2, search_batch=16)
        nets = Nets(cfg)
        nets.warm_start(load_model(start_model))
        fit(nets, boards, classes, targets, cfg, seed=1, decisions=given)
        weights.append(nets.contact.state_dict())
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])


def test_labels_from_before_decisions_were_kept_still_resume(tmp_path, start_model, monkeypatch):
    assert main(search_run(tmp_path, start_model, *RACE_ONLY, "total_games=3")) == 0
    (run,) = tmp_path.iterdir()
    # Given the second round's labels in the older format (no decisions)
    with np.load(run / "labels" / "round-0000.npz") as labels:
        np.savez_compressed(run / "labels" / "round-0001.npz", boards=labels["boards"], classes=labels["classes"], targets=labels["targets"])
    monkeypatch.setattr(distill_module, "_label_round", lambda *a, **kw: pytest.fail("labelled again"))
    # When the run is resumed with the ranking term, it fits on them
    assert main(["train", "--resume", str(run), "--no-progress", "--set", "total_games=6", "--set", "search_rank_weight=5"]) == 0
    assert torch.load(run / "checkpoint.pt", weights_only=True)["games"] == 6


def test_a_search_run_writes_a_model_and_resumes_to_the_same_weights(tmp_path, start_model, capsys):
    assert main(search_run(tmp_path / "a", start_model)) == 0
    (whole,) = (tmp_path / "a").iterdir()
    assert main(search_run(tmp_path / "b", start_model, "total_games=3")) == 0
    (half,) = (tmp_path / "b").iterdir()
    assert torch.load(half / "checkpoint.pt", weights_only=True)["games"] == 3
    assert main(["train", "--resume", str(half), "--no-progress", "--set", "total_games=6"]) == 0
    a = torch.load(whole / "checkpoint.pt", weights_only=True)["model"]
    b = torch.load(half / "checkpoint.pt", weights_only=True)["model"]
    assert all(torch.equal(a[k], b[k]) for k in a)
    model = load_model(whole / "model.pt")
    assert model.games_trained == 6
    start = weights_from_state(load_model(start_model).state_dict, model.arch)
    assert not np.array_equal(model.weights.w1, start.w1)  # it learned
    Evaluator(model.weights)  # and plays


def test_a_search_run_needs_a_model_to_start_from(tmp_path, capsys):
    with pytest.raises(ConfigError, match="init_model"):
        from gammon.train.config import load_config
        from gammon.train.distill import distill

        distill(load_config(QUICK, ["method=search", f"runs_dir={tmp_path}", "eval_every=0"]), progress=False)
    with pytest.raises(ConfigError, match="method must be"):
        Config(method="rollout")


def test_ctrl_c_in_a_search_run_keeps_the_last_finished_round(tmp_path, start_model):
    runs = tmp_path / "runs"
    proc = start_cli(search_run(runs, start_model, "total_games=3000", "search_plies=2"))
    run_dir = wait_for_checkpoint(runs, proc, timeout=180)  # the first round, compiling in a fresh checkout
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "continue with: gammon train --resume" in out
    assert torch.load(run_dir / "checkpoint.pt", weights_only=True)["games"] % 3 == 0  # whole rounds only


RACE_ONLY = ("race_hidden=8", "race_inputs=247", "search_race_only=true", "bearoff=true", "search_rollouts=36",
             "rollouts_to_bearoff=true", "search_memory=1")


def test_a_race_only_run_fits_the_race_net_on_race_positions_and_keeps_the_contact_net(tmp_path, start_model, monkeypatch):
    # Given a search run of two rounds on race positions only, the earlier round's positions kept for the later fit
    fitted = []
    real_fit = distill_module.fit
    monkeypatch.setattr(distill_module, "fit", lambda nets, boards, *rest, **kw: (fitted.append(boards.shape[0]),
                                                                                   real_fit(nets, boards, *rest, **kw))[1])
    assert main(search_run(tmp_path, start_model, *RACE_ONLY)) == 0
    (run,) = tmp_path.iterdir()
    # Then each round's labelled positions are kept in the run folder, all of them races
    sizes = []
    for path in sorted((run / "labels").glob("round-*.npz")):
        with np.load(path) as labels:
            assert labels["classes"].size and (labels["classes"] == RACE).all()
            sizes.append(labels["classes"].size)
    assert len(sizes) == 2 and fitted == [sizes[0], sizes[0] + sizes[1]]
    # And the race net, on the race encoding, learned; the contact net is the start's
    model, start = load_model(run / "model.pt"), load_model(start_model)
    assert all(torch.equal(model.state_dict[k], start.state_dict[k]) for k in start.state_dict)
    assert model.race.arch.inputs == 247 and model.bearoff
    assert not torch.equal(model.race_state_dict["0.weight"][:, :211], start.state_dict["0.weight"])


def test_a_contact_only_run_fits_the_contact_net_on_contact_positions_and_keeps_the_race_net(tmp_path, start_model):
    # Given a search run of two rounds on contact positions only, with a race net beside the contact net
    assert main(search_run(tmp_path, start_model, "race_hidden=8", "search_contact_only=true", "bearoff=true")) == 0
    (run,) = tmp_path.iterdir()
    # Then every labelled position is a contact position
    for path in sorted((run / "labels").glob("round-*.npz")):
        with np.load(path) as labels:
            assert labels["classes"].size and (labels["classes"] == CONTACT).all()
    # And the contact net learned while the race net is the one it started as (the start's contact net)
    model, start = load_model(run / "model.pt"), load_model(start_model)
    assert not torch.equal(model.state_dict["0.weight"], start.state_dict["0.weight"])
    assert all(torch.equal(model.race_state_dict[k], start.state_dict[k]) for k in start.state_dict)


def test_a_resumed_round_takes_its_saved_labels_instead_of_labelling_again(tmp_path, start_model, monkeypatch):
    assert main(search_run(tmp_path, start_model, *RACE_ONLY, "total_games=3")) == 0
    (run,) = tmp_path.iterdir()
    # Given the second round's labels written before a stop (here: the first round's positions again)
    first = run / "labels" / "round-0000.npz"
    (run / "labels" / "round-0001.npz").write_bytes(first.read_bytes())
    fitted = []
    monkeypatch.setattr(distill_module, "_label_round", lambda *a, **kw: pytest.fail("labelled again"))
    monkeypatch.setattr(distill_module, "fit", lambda nets, boards, *rest, **kw: fitted.append(boards.shape[0]) or {})
    # When the run is resumed, it fits on them without labelling
    assert main(["train", "--resume", str(run), "--no-progress", "--set", "total_games=6"]) == 0
    with np.load(first) as labels:
        assert fitted == [2 * labels["classes"].size]


def test_a_corrupt_labels_file_is_a_one_line_error_naming_it(tmp_path, start_model, capsys):
    assert main(search_run(tmp_path, start_model, *RACE_ONLY, "total_games=3")) == 0
    (run,) = tmp_path.iterdir()
    (run / "labels" / "round-0001.npz").write_bytes(b"not an npz")
    assert main(["train", "--resume", str(run), "--no-progress", "--set", "total_games=6"]) != 0
    err = capsys.readouterr().err
    assert "round-0001.npz" in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("sets, message", [
    ({"race_inputs": 219}, "race_inputs must be 211 or 247"),
    ({"rollouts_to_bearoff": True}, "rollouts_to_bearoff needs bearoff"),
    ({"search_race_only": True}, "search_race_only needs a race net"),
    ({"search_memory": -1}, "search_memory must be >= 0"),
    ({"search_decision_every": 0}, "search_decision_every must be >= 1"),
    ({"search_rank_weight": -1.0}, "search_rank_weight must be >= 0"),
    ({"race_hidden": 8, "search_race_only": True, "search_contact_only": True}, "exclude each other"),
])
def test_the_race_and_rollout_options_are_checked(sets, message):
    with pytest.raises(ConfigError, match=message):
        Config(**sets)


def test_a_search_round_starts_its_games_where_race_starts_puts_them(tmp_path, start_model):
    # Given a search run whose games all start from random races (no race-only filter)
    assert main(search_run(tmp_path, start_model, "race_hidden=8", "race_starts=1.0", "total_games=3")) == 0
    (run,) = tmp_path.iterdir()
    # Then every position of its round is a race
    with np.load(run / "labels" / "round-0000.npz") as labels:
        assert labels["classes"].size and (labels["classes"] == RACE).all()
