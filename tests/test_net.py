"""The network: the compiled forward pass agrees with PyTorch; scoring plays; model files."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from gammon import ROLLS, Position
from gammon.engine.encoding import N_INPUTS, N_RACE_INPUTS, encode_batch
from gammon.engine.movegen import generate
from gammon.engine.network import play_equities, probabilities
from gammon.errors import GammonError
from gammon.net import (Architecture, Evaluator, ModelFileError, Weights, build_module, load_model, merge_models, save_model,
                        weights_from_state)
from gammon.outcomes import game_result
from rules_reference import ruled_out


@pytest.mark.parametrize("activation", ["relu", "sigmoid"])
def test_numba_forward_matches_the_torch_module(activation):
    arch = Architecture(hidden=32, activation=activation)
    module = build_module(arch, seed=5)
    rng = np.random.default_rng(0)
    x = (rng.random((50, N_INPUTS)) * (rng.random((50, N_INPUTS)) < 0.3)).astype(np.float32)
    with torch.no_grad():
        expected = torch.sigmoid(module(torch.from_numpy(x))).numpy()
    got = probabilities(weights_from_state(module.state_dict(), arch), x)
    np.testing.assert_allclose(got, expected, atol=1e-5)


def test_seeded_modules_are_identical_and_global_rng_untouched():
    state = torch.get_rng_state()
    a = build_module(Architecture(hidden=8), seed=3).state_dict()
    b = build_module(Architecture(hidden=8), seed=3).state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert torch.equal(state, torch.get_rng_state())


def test_weights_travel_flat_and_back():
    arch = Architecture(hidden=16)
    w = weights_from_state(build_module(arch, seed=1).state_dict(), arch)
    back = Weights.from_flat(w.flat(), arch)
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(w, name), getattr(back, name))


def test_game_ending_plays_get_their_exact_value():
    # Given my last two checkers on my ace point; any roll ends the game with a gammon
    pos = Position.from_checkers({1: 2}, {20: 15})
    after, _, over = generate(np.asarray(pos.board, np.int8), 6, 5)
    w = Weights.zeros(Architecture(hidden=4))
    eq = np.empty(len(after))
    play_equities(pos.board, after, over, Evaluator(w).kernel_args(), eq)
    assert over.all() and eq.tolist() == [2.0] * len(after)


def _from_scratch(weights, after, over):
    """The reference: every candidate encoded in full and pushed through the whole network, the impossible
    outcomes ruled out by the rules."""
    p = probabilities(weights, encode_batch(after)).astype(np.float64)
    p = np.array([ruled_out(b, row) for b, row in zip(after, p)]).reshape(-1, 5)
    value = 1.0 - 2.0 * p[:, 0] + p[:, 3] + p[:, 4] - p[:, 1] - p[:, 2]
    return np.where(over, [float(game_result(a)) for a in after], value)


@pytest.mark.parametrize("activation, hidden", [("relu", 256), ("sigmoid", 40)])
def test_incremental_evaluation_equals_the_from_scratch_one(activation, hidden):
    # Given a random network and positions from random games, with every one of the 21 rolls
    arch = Architecture(hidden=hidden, activation=activation)
    weights = weights_from_state(build_module(arch, seed=3).state_dict(), arch)
    rng = np.random.default_rng(1)
    boards, pos = [], Position.initial()
    while len(boards) < 400:
        boards.append(pos.board)
        plays = pos.legal_plays((int(rng.integers(1, 7)), int(rng.integers(1, 7))))
        pos = pos.apply(plays[int(rng.integers(len(plays)))])
        if pos.is_game_over():
            pos = Position.initial()
    worst = 0.0
    for board in boards:
        for (d1, d2), _ in ROLLS:
            after, _, over = generate(board, d1, d2)
            eq = np.empty(len(after))
            play_equities(board, after, over, Evaluator(weights).kernel_args(), eq)
            worst = max(worst, float(np.abs(eq - _from_scratch(weights, after, over)).max()))
    # Then the incremental first layer gives the same equities to float32 rounding
    assert worst < 2e-5


def test_model_file_round_trip(tmp_path):
    arch = Architecture(hidden=12, activation="sigmoid")
    module = build_module(arch, seed=2)
    path = tmp_path / "m.pt"
    save_model(path, module.state_dict(), arch, games_trained=1234, config={"lam": 0.7}, note="test")
    model = load_model(path)
    assert model.arch == arch and model.games_trained == 1234 and model.config == {"lam": 0.7}
    assert model.metadata["metadata"] == {"note": "test"}
    x = encode_batch(np.asarray(Position.initial().board, np.int8).reshape(1, 26))
    with torch.no_grad():
        expected = torch.sigmoid(module(torch.from_numpy(x))).numpy()
    np.testing.assert_allclose(probabilities(model.weights, x), expected, atol=1e-6)
    assert not list(tmp_path.glob(".*.tmp"))  # the temporary file was renamed


def test_missing_corrupt_and_foreign_files_raise_a_one_line_error_naming_the_file(tmp_path):
    missing = tmp_path / "nope.pt"
    corrupt = tmp_path / "corrupt.pt"
    corrupt.write_bytes(b"\x00garbage" * 10)
    foreign = tmp_path / "foreign.pt"
    torch.save({"weights": torch.zeros(3)}, foreign)
    pickled = tmp_path / "pickled.pt"
    torch.save({"format": "gammon-td-model", "obj": Position.initial()}, pickled)
    for path in (missing, corrupt, foreign, pickled):
        with pytest.raises(ModelFileError) as info:
            load_model(path)
        assert str(path) in str(info.value) and "\n" not in str(info.value)
        assert isinstance(info.value, GammonError)


def test_a_model_for_another_encoding_is_refused(tmp_path):
    arch = Architecture(hidden=4)
    path = tmp_path / "old.pt"
    save_model(path, build_module(arch, seed=1).state_dict(), arch, games_trained=0)
    record = torch.load(path, weights_only=True)
    record["architecture"]["encoding_version"] = 0
    torch.save(record, path)
    with pytest.raises(ModelFileError, match="encoding"):
        load_model(path)
    record["architecture"]["encoding_version"] = arch.encoding_version
    record["state_dict"]["0.weight"] = torch.zeros(3, 3)
    torch.save(record, path)
    with pytest.raises(ModelFileError, match="do not match"):
        load_model(path)


def test_a_model_with_a_race_net_on_the_race_encoding_round_trips_and_plays(tmp_path):
    # Given a model file whose race net reads the race encoding
    arch, race_arch = Architecture(inputs=219, hidden=6), Architecture(inputs=N_RACE_INPUTS, hidden=5)
    race_module = build_module(race_arch, seed=8)
    path = tmp_path / "race.pt"
    save_model(path, build_module(arch, seed=7).state_dict(), arch, games_trained=1, race=(race_module.state_dict(), race_arch),
               bearoff=True)
    # When it is loaded
    model = load_model(path)
    # Then it names its nets and values a race with its race net on the race encoding
    assert model.race.arch == race_arch and model.race.arch.encoding == "tesauro+race"
    assert model.evaluator().nets == "contact 219x6 + race 247x5 + bear-off database"
    race = np.asarray(Position.from_checkers({8: 5, 7: 5, 6: 5}, {17: 5, 18: 5, 19: 5}).board, np.int8)
    x = encode_batch(race.reshape(1, 26), N_RACE_INPUTS)
    with torch.no_grad():
        expected = torch.sigmoid(race_module(torch.from_numpy(x))).numpy()
    np.testing.assert_allclose(probabilities(model.race, x), expected, atol=1e-6)


def test_a_contact_net_on_the_race_encoding_is_refused(tmp_path):
    arch = Architecture(inputs=N_RACE_INPUTS, hidden=4)
    path = tmp_path / "contact-race.pt"
    save_model(path, build_module(arch, seed=1).state_dict(), arch, games_trained=0)
    with pytest.raises(ModelFileError, match="contact net on the race encoding"):
        load_model(path)
    with pytest.raises(ValueError, match="contact net cannot read the race encoding"):
        Evaluator(Weights.zeros(arch))


def _phase_model(path, seed, hidden=6, inputs=219, bearoff=True, race_inputs=N_INPUTS):
    arch, race_arch = Architecture(inputs=inputs, hidden=hidden), Architecture(inputs=race_inputs, hidden=hidden + 1)
    save_model(path, build_module(arch, seed=seed).state_dict(), arch, games_trained=1000 * seed,
               race=(build_module(race_arch, seed=seed + 50).state_dict(), race_arch), bearoff=bearoff)
    return load_model(path)


def test_a_merged_model_plays_the_mean_of_its_members_logits_in_each_net(tmp_path):
    # Given two phase-net models trained apart (here: seeded at random) and a merged one of them
    members = [_phase_model(tmp_path / f"m{seed}.pt", seed) for seed in (1, 2)]
    state, arch, race = merge_models(members)
    save_model(tmp_path / "merged.pt", state, arch, games_trained=3000, race=race, bearoff=True)
    merged = load_model(tmp_path / "merged.pt")
    assert (merged.arch.hidden, merged.race.arch.hidden, merged.bearoff) == (12, 14, True)
    # When each net of the merged model scores positions of a random game
    rng = np.random.default_rng(5)
    boards, pos = [], Position.initial()
    while not pos.is_game_over():
        boards.append(pos.board)
        plays = pos.legal_plays(tuple(int(d) for d in rng.integers(1, 7, 2)))
        pos = pos.apply(plays[int(rng.integers(len(plays)))])
    for inputs, weights, member_weights in ((219, merged.weights, [m.weights for m in members]),
                                            (N_INPUTS, merged.race, [m.race for m in members])):
        x = encode_batch(np.asarray(boards, np.int8), inputs)
        logit = lambda p: np.log(p) - np.log1p(-p)  # noqa: E731
        mean_logit = np.mean([logit(probabilities(w, x).astype(np.float64)) for w in member_weights], axis=0)
        # Then its probabilities are the sigmoid of the members' mean logit
        np.testing.assert_allclose(probabilities(weights, x), 1 / (1 + np.exp(-mean_logit)), atol=2e-6)


def test_models_that_cannot_be_merged_are_refused_naming_the_file(tmp_path):
    base = _phase_model(tmp_path / "base.pt", 1)
    for name, other in (("inputs", _phase_model(tmp_path / "inputs.pt", 2, inputs=N_INPUTS)),
                        ("bear-off database", _phase_model(tmp_path / "nodb.pt", 3, bearoff=False)),
                        ("race net's inputs", _phase_model(tmp_path / "race.pt", 4, race_inputs=N_RACE_INPUTS))):
        with pytest.raises(ModelFileError, match=name) as info:
            merge_models([base, other])
        assert other.path in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(ModelFileError, match="at least two"):
        merge_models([base])


def test_gammon_merge_writes_a_model_the_bots_load_and_refuses_bad_input_in_one_line(tmp_path, capsys):
    from gammon.bots import load
    from gammon.cli import main

    _phase_model(tmp_path / "a.pt", 1)
    _phase_model(tmp_path / "b.pt", 2)
    out = tmp_path / "ab.pt"
    assert main(["merge", str(out), str(tmp_path / "a.pt"), str(tmp_path / "b.pt")]) == 0
    assert "2 models merged" in capsys.readouterr().out
    model = load_model(out)
    assert model.games_trained == 3000 and [m["file"] for m in model.metadata["metadata"]["merged_from"]] == ["a.pt", "b.pt"]
    assert load(str(out)).choose_play(Position.initial(), (3, 1)) in Position.initial().legal_plays((3, 1))
    for args in ([str(out), str(tmp_path / "a.pt")], [str(out), str(tmp_path / "a.pt"), str(tmp_path / "missing.pt")]):
        assert main(["merge", *args]) == 2
        err = capsys.readouterr().err
        assert err.startswith("gammon merge: error:") and err.count("\n") == 1 and "Traceback" not in err


def test_gammon_merge_takes_the_race_net_of_another_model_when_asked(tmp_path, capsys):
    from gammon.cli import main

    base = _phase_model(tmp_path / "a.pt", 1)
    donor = _phase_model(tmp_path / "race.pt", 2, race_inputs=N_RACE_INPUTS)
    out = tmp_path / "a-race.pt"
    # Given one model and another whose race net reads the race encoding: the first's contact net, the other's race net
    assert main(["merge", str(out), str(tmp_path / "a.pt"), "--race-net", str(tmp_path / "race.pt")]) == 0
    assert "race net 247 inputs" in capsys.readouterr().out
    model = load_model(out)
    assert all(torch.equal(model.state_dict[k], base.state_dict[k]) for k in base.state_dict)
    assert all(torch.equal(model.race_state_dict[k], donor.race_state_dict[k]) for k in donor.race_state_dict)
    assert model.bearoff and model.metadata["metadata"]["race_net_from"]["file"] == "race.pt"
    # A donor without a race net, or without the bear-off database of the model, is refused in one line
    _phase_model(tmp_path / "nodb.pt", 3, bearoff=False)
    assert main(["merge", str(out), str(tmp_path / "a.pt"), "--race-net", str(tmp_path / "nodb.pt")]) == 2
    err = capsys.readouterr().err
    assert "nodb.pt" in err and err.count("\n") == 1 and "Traceback" not in err
