"""The evaluator: position classes, the contact encoding's extra inputs, per-class nets, the bear-off database in play,
model files with several nets, and the trainer's split of a batch between the nets."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from gammon import Position
from gammon.bearoff import database, is_bearoff
from gammon.bots.neural import NeuralBot
from gammon.engine.analysis import ROLLS, in_contact
from gammon.engine.encoding import N_CONTACT_INPUTS, N_INPUTS, N_RACE_INPUTS, N_RAW, N_RICH_INPUTS, folded_inputs, encode_batch, encode_board, input_names
from gammon.engine.movegen import generate
from gammon.engine.network import BEAROFF, CONTACT, RACE, base_layer, next_base_layer, no_base_layer, play_equities, position_class, probabilities
from gammon.net import Architecture, Evaluator, build_module, load_model, save_model, weights_from_state
from gammon.outcomes import game_result, mover_equity
from gammon.train.selfplay import SelfPlayer
from rules_reference import ruled_out

EXTRA = {name: i for i, name in enumerate(input_names(N_CONTACT_INPUTS))}


def board(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    return np.asarray(Position.from_checkers(mine, theirs).board, np.int8)


def net(inputs: int, hidden: int, seed: int, activation: str = "relu"):
    arch = Architecture(inputs=inputs, hidden=hidden, activation=activation)
    return weights_from_state(build_module(arch, seed=seed).state_dict(), arch)


FULL = Evaluator(net(N_CONTACT_INPUTS, 48, 1), net(N_INPUTS, 24, 2), bearoff=True)


# -- position classes --------------------------------------------------------------------------


def test_a_position_with_contact_is_played_by_the_contact_net():
    assert position_class(Position.initial().board, FULL.kernel_args()) == CONTACT


def test_a_race_outside_the_home_boards_is_played_by_the_race_net():
    # Given no contact, but my checkers still on my 12 point
    b = board({12: 5, 6: 10}, {13: 5, 20: 10})
    assert not in_contact(b) and position_class(b, FULL.kernel_args()) == RACE


def test_a_pure_bear_off_is_valued_from_the_database():
    b = board({1: 5, 3: 10}, {24: 7, 19: 8})
    assert position_class(b, FULL.kernel_args()) == BEAROFF


def test_without_race_net_or_database_every_position_is_a_contact_position():
    single = Evaluator(net(N_INPUTS, 8, 1)).kernel_args()
    assert position_class(board({1: 5, 3: 10}, {24: 7, 19: 8}), single) == CONTACT


def test_without_race_net_a_race_is_played_by_the_contact_net():
    with_db = Evaluator(net(N_INPUTS, 8, 1), bearoff=True).kernel_args()
    assert position_class(board({12: 5, 6: 10}, {13: 5, 20: 10}), with_db) == CONTACT


# -- the contact encoding's extra inputs ----------------------------------------------------


def extra(b: np.ndarray, name: str) -> float:
    return float(encode_batch(b.reshape(1, 26), N_CONTACT_INPUTS)[0, EXTRA[name]])


def test_the_contact_encoding_starts_with_the_211_inputs_of_the_first():
    b = np.asarray(Position.initial().board, np.int8)
    wide = encode_batch(b.reshape(1, 26), N_CONTACT_INPUTS)[0]
    assert wide.shape == (N_CONTACT_INPUTS,) and np.array_equal(wide[:N_INPUTS], encode_board(b))


def test_back_anchor_is_the_depth_of_the_deepest_anchor_in_their_home_board():
    # Given my anchors on my 20 and 24 points (their 5 and 1 points) and their anchor on my 3 point (their 22)
    b = board({24: 2, 20: 2, 6: 11}, {3: 2, 19: 13})
    assert extra(b, "me.back_anchor") == pytest.approx(1.0)  # the 24 point: (24 - 18) / 6
    assert extra(b, "me.anchors") == pytest.approx(2 / 3)
    assert extra(b, "them.back_anchor") == pytest.approx(4 / 6)  # my 3 point is their 22: (7 - 3) / 6
    assert extra(b, "them.anchors") == pytest.approx(1 / 3)


def test_a_single_checker_back_is_no_anchor():
    b = board({24: 1, 6: 14}, {19: 15})
    assert extra(b, "me.back_anchor") == 0.0 and extra(b, "me.anchors") == 0.0


def test_containment_is_one_behind_a_full_prime():
    # Given their six-point prime on my points 7..12 and my checker on my 13 point behind it (no: in front)
    # and my checkers on my 18 point: behind the prime, no roll passes six points in a row
    b = board({18: 2, 6: 13}, {p: 2 for p in range(7, 13)} | {24: 3})
    assert extra(b, "me.containment") == pytest.approx(1.0)
    # Then with no point of theirs within 12 pips in front of my points 15..24, nothing contains me
    open_board = board({18: 2, 6: 13}, {1: 2, 24: 13})
    assert extra(open_board, "me.containment") == 0.0


def test_break_contact_counts_the_pips_to_get_past_their_rearmost_checker():
    # Given their rearmost checkers on my 5 point and mine on my 8 (3 past) and 10 (5 past, two checkers)
    b = board({8: 1, 10: 2, 3: 12}, {5: 2, 20: 13})
    assert extra(b, "me.break_contact") == pytest.approx((3 + 2 * 5) / 100)
    # And theirs: their checkers on my 5 point are 5 pips behind my rearmost (10): 2 * 5
    assert extra(b, "them.break_contact") == pytest.approx(10 / 100)


def test_a_race_has_no_break_contact_pips():
    b = board({12: 5, 6: 10}, {13: 5, 20: 10})
    assert extra(b, "me.break_contact") == 0.0 and extra(b, "them.break_contact") == 0.0


# -- the evaluator against a from-scratch reference -------------------------------------------


def reference(ev: Evaluator, after: np.ndarray, over: np.ndarray) -> np.ndarray:
    """Each candidate classified in Python and valued from scratch: the database, or its net on its full encoding."""
    out = np.empty(len(after))
    for i, b in enumerate(after):
        if over[i]:
            out[i] = float(game_result(b))
            continue
        if ev.bearoff and not in_contact(b) and is_bearoff(b):
            p = database().race(b)
        elif ev.race is not None and not in_contact(b):
            p = probabilities(ev.race, encode_batch(b.reshape(1, 26), ev.race.arch.inputs))[0]
        else:
            p = probabilities(ev.contact, encode_batch(b.reshape(1, 26), ev.contact.arch.inputs))[0]
        out[i] = mover_equity(*(float(v) for v in ruled_out(b, p)))
    return out


def game_boards(n: int, seed: int) -> list[np.ndarray]:
    """Boards from games of random play, with the races and bear-offs at their ends."""
    rng = np.random.default_rng(seed)
    boards, b = [], np.asarray(Position.initial().board, np.int8)
    while len(boards) < n:
        after, _, over = generate(b, *rng.integers(1, 7, 2))
        i = rng.integers(len(after))
        b = np.asarray(Position.initial().board, np.int8) if over[i] else after[i]
        boards.append(b)
    return boards


@pytest.mark.parametrize("ev", [
    Evaluator(net(N_CONTACT_INPUTS, 64, 3)),
    Evaluator(net(N_INPUTS, 32, 4, "sigmoid"), net(N_INPUTS, 16, 5, "sigmoid")),
    FULL,
    Evaluator(net(N_RICH_INPUTS, 40, 6), net(N_INPUTS, 16, 7), bearoff=True),
    Evaluator(net(N_INPUTS, 32, 8), net(N_RACE_INPUTS, 24, 9)),
    Evaluator(net(N_RICH_INPUTS, 40, 6), net(N_RACE_INPUTS, 16, 7), bearoff=True),
], ids=["contact-219", "contact-and-race-sigmoid", "contact-race-bearoff", "rich-227-race-bearoff", "contact-race-247",
        "rich-227-race-247-bearoff"])
def test_incremental_evaluation_equals_the_from_scratch_one_for_every_evaluator(ev):
    # Given random nets and positions from random games (contact, races, bear-offs), with all 21 rolls
    kernel = ev.kernel_args()
    classes = set()
    worst = 0.0
    for b in game_boards(600, seed=11)[::2]:
        for (d1, d2), _ in ROLLS:
            after, _, over = generate(b, d1, d2)
            eq = np.empty(len(after))
            play_equities(b, after, over, kernel, eq)
            worst = max(worst, float(np.abs(eq - reference(ev, after, over)).max()))
            classes.update(position_class(a, kernel) for a, o in zip(after, over) if not o)
    # Then every candidate gets its class's value, to float32 rounding, and every class was met
    assert worst < 2e-5
    assert classes == ({CONTACT, RACE, BEAROFF} if ev.bearoff else {CONTACT, RACE} if ev.race is not None else {CONTACT})


def test_the_bot_plays_a_bear_off_by_the_database():
    # Given a bear-off where the network (zero weights: every position even) would not care
    bot = NeuralBot(Evaluator(net(N_INPUTS, 4, 1), bearoff=True))
    position = Position.from_checkers({6: 2, 5: 1}, {24: 2, 23: 1})
    plays, probs = bot.play_probabilities(position, (5, 1))
    for play, p in zip(plays, probs):
        after = position.apply(play)
        if not after.is_game_over():
            # Then each play's probabilities are the database's for the opponent on roll after it
            np.testing.assert_allclose(p, database().race(after.board), atol=1e-6)
    assert bot.probabilities(position, 0) == pytest.approx(database().race(position.board), abs=1e-6)


# -- model files ------------------------------------------------------------------------------


def test_a_model_file_carries_every_net_and_the_bearoff_flag(tmp_path):
    arch, race_arch = Architecture(inputs=N_CONTACT_INPUTS, hidden=8), Architecture(hidden=6)
    contact, race = build_module(arch, seed=1), build_module(race_arch, seed=2)
    path = tmp_path / "m.pt"
    save_model(path, contact.state_dict(), arch, games_trained=7, race=(race.state_dict(), race_arch), bearoff=True)
    model = load_model(path)
    ev = model.evaluator()
    assert ev.nets == "contact 219x8 + race 211x6 + bear-off database"
    assert model.arch.encoding == "tesauro+23" and model.metadata["format_version"] == 2
    x = encode_batch(board({12: 5, 6: 10}, {13: 5, 20: 10}).reshape(1, 26))
    with torch.no_grad():
        expected = torch.sigmoid(race(torch.from_numpy(x))).numpy()
    np.testing.assert_allclose(probabilities(ev.race, x), expected, atol=1e-6)


def test_the_shipped_version_1_model_still_loads_as_one_net_for_every_position():
    from gammon.resources import shipped_model_path

    model = load_model(shipped_model_path("td1"))
    ev = model.evaluator()
    assert model.metadata["format_version"] == 1
    assert ev.race is None and not ev.bearoff and ev.nets == "contact 211x256"


def test_a_model_file_from_an_unknown_encoding_is_refused_naming_it(tmp_path):
    from gammon.net import ModelFileError, atomic_torch_save

    path = tmp_path / "future.pt"
    atomic_torch_save({"format": "gammon-td-model", "format_version": 2,
                       "architecture": {"inputs": 300, "hidden": 4, "activation": "relu", "outputs": 5,
                                        "encoding": "future", "encoding_version": 9}, "state_dict": {}}, path)
    with pytest.raises(ModelFileError, match=r"uses encoding future v9 \(300 inputs\); this gammon reads"):
        load_model(path)


# -- training ----------------------------------------------------------------------------------


def test_a_warm_start_widens_the_contact_net_without_changing_its_play(tmp_path):
    from gammon.train.config import Config
    from gammon.train.nets import Nets

    arch = Architecture(hidden=16)
    module = build_module(arch, seed=9)
    save_model(tmp_path / "old.pt", module.state_dict(), arch, games_trained=1)
    nets = Nets(Config(hidden=16, inputs=N_CONTACT_INPUTS, race_hidden=16))
    nets.warm_start(load_model(tmp_path / "old.pt"))
    old, new = Evaluator(weights_from_state(module.state_dict(), arch)), nets.evaluator()
    position = Position.initial()
    for dice in ((3, 1), (6, 6), (5, 2)):
        after, _, over = generate(position.board, *dice)
        a, b = np.empty(len(after)), np.empty(len(after))
        play_equities(position.board, after, over, old.kernel_args(), a)
        play_equities(position.board, after, over, new.kernel_args(), b)
        np.testing.assert_allclose(a, b, atol=2e-6)
    np.testing.assert_array_equal(new.race.w1, old.contact.w1)  # the race net starts as the contact net


def test_the_trainer_splits_a_batch_by_class_and_does_not_train_on_bear_offs():
    from gammon.train.config import Config
    from gammon.train.nets import Nets

    nets = Nets(Config(hidden=8, inputs=N_CONTACT_INPUTS, race_hidden=4, bearoff=True))
    boards = np.stack([Position.initial().board, board({12: 5, 6: 10}, {13: 5, 20: 10}),
                       board({1: 5, 3: 10}, {24: 7, 19: 8})]).astype(np.int8)
    split = nets.forward(boards, nets.evaluator().kernel_args())
    rows = [r.tolist() for r, _ in split.parts]
    assert rows == [[0], [1]]  # contact net, race net; the bear-off is in neither
    np.testing.assert_allclose(split.values[2], database().race(boards[2]), atol=1e-6)


def test_a_checker_in_front_of_a_five_point_prime_escapes_only_with_a_six():
    from gammon.engine.encoding import escapes_past

    prime = sum(1 << p for p in range(7, 12))  # points 7..11
    assert escapes_past(12, prime) == 11
    assert escapes_past(13, sum(1 << p for p in range(7, 13))) == 0  # behind a full prime
    assert escapes_past(24, prime) == 36  # nothing within the 12 points in front of it


def _escapes_by_the_rules(blocked: set[int]) -> int:
    """Escapes past the blocked distances (1..12 pips in front), each die landing on an open point."""
    if not blocked:
        return 36
    far = max(blocked)
    total = 0
    for hi in range(1, 7):
        for lo in range(1, hi + 1):
            paths = [[hi] * 4] if hi == lo else [[hi, lo], [lo, hi]]
            escaped = False
            for path in paths:
                at = 0
                for die in path:
                    at += die
                    if at in blocked:
                        break
                    if at > far:
                        escaped = True
                        break
            total += escaped * (1 if hi == lo else 2)
    return total


def test_the_escape_table_agrees_with_moving_by_the_rules_for_every_window():
    from gammon.engine.encoding import ESCAPES_PAST

    for w in range(4096):
        blocked = {12 - k for k in range(12) if (w >> k) & 1}
        assert ESCAPES_PAST[w] == _escapes_by_the_rules(blocked), f"window {w:012b}"


def test_a_warm_start_into_more_hidden_units_plays_as_before(tmp_path):
    from gammon.train.config import Config
    from gammon.train.nets import Nets

    arch = Architecture(hidden=8)
    module = build_module(arch, seed=4)
    save_model(tmp_path / "small.pt", module.state_dict(), arch, games_trained=1)
    nets = Nets(Config(hidden=20, inputs=N_CONTACT_INPUTS, race_hidden=12))
    nets.warm_start(load_model(tmp_path / "small.pt"))
    old, new = Evaluator(weights_from_state(module.state_dict(), arch)), nets.evaluator()
    assert new.contact.arch.hidden == 20 and new.race.arch.hidden == 12
    position = Position.initial()
    after, _, over = generate(position.board, 6, 1)
    a, b = np.empty(len(after)), np.empty(len(after))
    play_equities(position.board, after, over, old.kernel_args(), a)
    play_equities(position.board, after, over, new.kernel_args(), b)
    np.testing.assert_allclose(a, b, atol=2e-6)
    assert np.abs(new.contact.w1[:, 8:]).sum() > 0  # the new units have incoming weights to learn from


def test_a_finished_board_is_valued_as_the_losers_exact_outcome():
    from gammon.engine.network import evaluate_batch

    # Given the loser on roll with all 15 checkers home and none off: the winner has borne off, a gammon
    finished = board({p: 3 for p in range(1, 6)}, {}).reshape(1, 26)
    out = np.empty((1, 5), np.float32)
    evaluate_batch(finished, FULL.kernel_args(), out)
    assert out[0].tolist() == [0.0, 0.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize("inputs", [N_INPUTS, N_CONTACT_INPUTS, N_RICH_INPUTS, N_RACE_INPUTS])
def test_a_folded_net_computes_the_same_probabilities_without_rows_for_the_folded_inputs(inputs):
    # Given a random net and positions from random games
    weights = net(inputs, 32, 12)
    x = encode_batch(np.stack(game_boards(400, seed=13)), inputs)
    # When its inputs that are sums of others are folded into them
    folded = weights.folded()
    # Then it gives the same probabilities, also with those inputs left out, and has no rows of its own for them
    dropped = x.copy()
    dropped[:, folded_inputs(inputs)] = 0.0
    expected = probabilities(weights, x)
    assert np.abs(probabilities(folded, x) - expected).max() < 1e-5
    assert np.abs(probabilities(folded, dropped) - expected).max() < 1e-5
    assert not folded.w1[folded_inputs(inputs)].any() and folded.w1[~folded_inputs(inputs)].any()


@pytest.mark.parametrize("ev", [FULL, Evaluator(net(N_RICH_INPUTS, 40, 6), net(N_INPUTS, 16, 7), bearoff=True),
                                Evaluator(net(N_RICH_INPUTS, 40, 6), net(N_RACE_INPUTS, 16, 7), bearoff=True)],
                         ids=["contact-race-bearoff", "rich-227-race-bearoff", "rich-227-race-247-bearoff"])
def test_a_base_layer_carried_on_from_the_same_players_previous_turn_equals_the_one_from_scratch(ev):
    # Given whole self-play games (contact, then races and bear-offs)
    kernel = ev.kernel_args()
    games = SelfPlayer(ev).play_many(np.random.default_rng(14), 20)
    worst = 0.0
    nets = set()
    for game in games:
        last = [no_base_layer(game.boards[0])] * 2
        for t, board in enumerate(game.boards[:-1]):
            # When each turn's base layer starts from the same player's previous one
            last[t % 2] = next_base_layer(board, kernel, last[t % 2])
            base, s0, g0, h0, net_index = last[t % 2]
            fresh = base_layer(board, kernel)
            # Then it is the base layer from scratch: the same position, board summary, net and (unfolded)
            # whole-board inputs, and the first layer to float32 rounding
            live = ~folded_inputs(N_RAW + g0.shape[0])[N_RAW:]
            assert np.array_equal(base, fresh[0]) and np.array_equal(s0, fresh[1]) and net_index == fresh[4]
            assert np.array_equal(g0[live], fresh[2][live])
            worst = max(worst, float(np.abs(h0 - fresh[3]).max()))
            nets.add(net_index)
    assert worst < 1e-4 and nets == {0, 4}
