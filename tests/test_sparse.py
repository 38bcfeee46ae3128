"""The learner's sparse first layer (gammon.train.sparse) against torch.nn.Linear, and its passes without autograd against autograd's."""

import numpy as np
import torch
import torch.nn.functional as F

from gammon.engine.encoding import N_CONTACT_INPUTS, encode_batch
from gammon.net import Architecture, build_module, load_model
from gammon.resources import shipped_model_path
from gammon.train.selfplay import SelfPlayer
from gammon.train.sparse import encoded_inputs, logits, nonzero_inputs


def _loss_and_grads(module, x, targets, forward):
    module.zero_grad(set_to_none=True)
    out = forward(x)
    F.binary_cross_entropy_with_logits(out, targets).backward()
    return out.detach().clone(), [p.grad.clone() for p in module.parameters()]


def _assert_same_as_dense(module, x, seed=0):
    targets = torch.from_numpy(np.random.default_rng(seed).random((x.shape[0], 5), dtype=np.float32))
    dense, dense_grads = _loss_and_grads(module, x, targets, module)
    sparse, sparse_grads = _loss_and_grads(module, x, targets, lambda v: logits(module, v))
    np.testing.assert_allclose(sparse.numpy(), dense.numpy(), rtol=0, atol=1e-5)
    for got, want in zip(sparse_grads, dense_grads):
        assert got.shape == want.shape and got.is_contiguous()
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4, atol=1e-7 * float(want.abs().max()) + 1e-9)


def test_sparse_first_layer_matches_linear_on_random_sparse_inputs():
    rng = np.random.default_rng(3)
    x = np.where(rng.random((300, 211)) < 0.2, rng.normal(size=(300, 211)), 0.0).astype(np.float32)
    x[5] = 0.0                      # a row with no input set
    x[7] = rng.normal(size=211)      # a row with every input set
    x[:, 11] = 0.0                  # an input never set
    x[:, 12] = 1.0                  # an input always set
    for activation in ("relu", "sigmoid"):
        module = build_module(Architecture(inputs=211, hidden=24, activation=activation), seed=1)
        _assert_same_as_dense(module, torch.from_numpy(x))


def test_sparse_first_layer_matches_linear_on_self_play_positions():
    model = load_model(shipped_model_path("td2"))
    games = SelfPlayer(model.evaluator()).play_many(np.random.default_rng(8), 6)
    boards = np.concatenate([g.boards[:-1] for g in games])
    module = build_module(model.arch)
    module.load_state_dict(model.state_dict)
    _assert_same_as_dense(module, torch.from_numpy(encode_batch(boards, N_CONTACT_INPUTS)))


def test_nonzero_inputs_lists_every_set_input_by_row_and_by_column():
    x = np.array([[0, 2, 0], [0, 0, 0], [1, 0, -3]], np.float32)
    indptr, cols, row_values, colptr, rows, col_values = nonzero_inputs(x)
    assert indptr.tolist() == [0, 1, 1, 3] and cols.tolist() == [1, 0, 2] and row_values.tolist() == [2, 1, -3]
    assert colptr.tolist() == [0, 1, 2, 3] and rows.tolist() == [2, 0, 2] and col_values.tolist() == [1, 2, -3]


def test_sparse_first_layer_takes_an_empty_batch():
    module = build_module(Architecture(inputs=211, hidden=8), seed=2)
    out = logits(module, torch.zeros((0, 211)))
    out.sum().backward()
    assert out.shape == (0, 5) and float(module[0].weight.grad.abs().sum()) == 0.0


def test_inputs_other_than_float32_go_through_the_module():
    module = build_module(Architecture(inputs=211, hidden=3), seed=4).double()
    x = torch.eye(211, dtype=torch.float64)
    assert torch.equal(logits(module, x), module(x))


def _learner_gradients(nets, boards, starts, z, loss):
    from gammon.train.td import lambda_returns

    split = nets.forward(boards, nets.evaluator().kernel_args())
    targets, _ = lambda_returns(split.values, starts, z, 0.7)
    for p in nets.parameters():
        p.grad = None
    value = nets.backward(split, targets, loss)
    return split.values, value, [None if p.grad is None else p.grad.clone() for p in nets.parameters()]


def test_the_learner_without_autograd_gives_autograds_values_loss_and_gradients():
    from gammon.train.config import Config
    from gammon.train.nets import Nets
    from gammon.train.td import batch_states

    model = load_model(shipped_model_path("td2"))
    boards, starts, z = batch_states(SelfPlayer(model.evaluator()).play_many(np.random.default_rng(11), 12))
    for activation in ("relu", "sigmoid"):
        nets = Nets(Config(hidden=32, inputs=N_CONTACT_INPUTS, race_hidden=16, bearoff=True, activation=activation, seed=5))
        assert nets.fused
        for loss in ("bce", "mse"):
            fused = _learner_gradients(nets, boards, starts, z, loss)
            nets.fused = False
            torch_ = _learner_gradients(nets, boards, starts, z, loss)
            nets.fused = True
            assert all(g is not None for g in fused[2] + torch_[2])  # both nets had positions
            np.testing.assert_allclose(fused[0], torch_[0], rtol=0, atol=1e-6)
            assert abs(fused[1] - torch_[1]) < 1e-6 * abs(torch_[1]) + 1e-9
            for got, want in zip(fused[2], torch_[2]):
                assert got.shape == want.shape and got.is_contiguous()
                np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4, atol=1e-6 * float(want.abs().max()) + 1e-9)


def test_encoded_inputs_are_the_nonzero_inputs_of_the_encoded_boards():
    from gammon.engine.cache import refresh
    from gammon.engine.encoding import ENCODINGS

    refresh()

    games = SelfPlayer(load_model(shipped_model_path("td2")).evaluator()).play_many(np.random.default_rng(4), 3)
    boards = np.concatenate([g.boards[:-1] for g in games])
    assert boards.shape[0] > 64  # more than one block
    for inputs in ENCODINGS:
        got, want = encoded_inputs(boards, inputs), nonzero_inputs(encode_batch(boards, inputs))
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
    empty = encoded_inputs(np.zeros((0, 26), np.int8), 211)
    assert empty[0].tolist() == [0] and empty[3].tolist() == [0] * 212
