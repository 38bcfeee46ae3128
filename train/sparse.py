"""The nets' first layer on sparse inputs, for the learner: only the non-zero inputs' weight rows are read or written.

A position's inputs are mostly zero (about 38 of the 211 in self-play), so
the first layer's product and its weight gradient need only the rows of the
inputs that are set. :func:`logits` runs a net with that layer, a PyTorch
autograd function built on first use (the rest of the net, its activation,
output layer, loss and optimizer, stays PyTorch): the forward pass adds the
weight rows of each position's non-zero inputs (the inputs by row, CSR), the
backward pass gathers each input's gradient row from the positions where it
is set (the inputs by column, CSC). Both read and write whole rows, four
inputs at a time. The results equal ``torch.nn.Linear``'s up to float
rounding (summation order).

The trainer's learner skips autograd altogether on the CPU: :func:`forward`
runs a net's two layers and :func:`backward` sets its parameters' gradients
from the loss's gradient with respect to the logits, both compiled (autograd's
bookkeeping, the output layer's backward pass and the copies around them took
about a fifth of the learner's step). PyTorch's optimizer then steps as before.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.engine.cache import cross_file, refresh
from gammon.engine.encoding import encode_into


@njit(cache=True)
def nonzero_inputs(x):
    """``x`` ((n, m) float32) by row and by column: ``(indptr, cols, row_values, colptr, rows, col_values)``."""
    n, m = x.shape
    indptr, cols, row_values = _room(n, m)
    k = _append_rows(x, 0, indptr, cols, row_values, 0)
    return _lists(indptr, cols, row_values, k, m)


#: Boards encoded per pass of :func:`encoded_inputs` (a scratch block that stays in cache).
_BLOCK = 64


@cross_file
@njit(cache=True)
def encoded_inputs(boards, m):
    """The non-zero inputs of the ``m``-input encoding of ``boards`` ((n, 26) int8), as :func:`nonzero_inputs`
    gives them for the encoded rows, without the dense ``(n, m)`` array: a block of boards at a time is
    encoded into a scratch block and read back at once."""
    n = boards.shape[0]
    block = np.empty((_BLOCK, m), np.float32)
    indptr, cols, row_values = _room(n, m)
    k = 0
    for start in range(0, n, _BLOCK):
        stop = min(start + _BLOCK, n)
        encode_into(boards[start:stop], block)
        k = _append_rows(block[: stop - start], start, indptr, cols, row_values, k)
    return _lists(indptr, cols, row_values, k, m)


@njit(cache=True, inline="always")
def _room(n, m):
    """Empty by-row lists for ``n`` rows of ``m`` inputs: ``indptr`` and room for every input (only the pages
    written are touched), one more for the scan's write past the last set entry."""
    return np.empty(n + 1, np.int64), np.empty(n * m + 1, np.int32), np.empty(n * m + 1, np.float32)


@njit(cache=True, inline="always")
def _append_rows(x, first, indptr, cols, row_values, k):
    """Append the non-zero entries of the rows ``x`` (rows ``first`` on of the whole) to the by-row lists from
    entry ``k``; returns the entries then listed."""
    for i in range(x.shape[0]):
        indptr[first + i] = k
        for j in range(x.shape[1]):  # without a branch: which inputs are set is not predictable
            v = x[i, j]
            cols[k] = j
            row_values[k] = v
            k += v != 0.0
    return k


@njit(cache=True)
def _lists(indptr, cols, row_values, k, m):
    """The by-row lists of ``k`` entries closed and trimmed, and the same inputs by column:
    ``(indptr, cols, row_values, colptr, rows, col_values)``."""
    n = indptr.shape[0] - 1
    indptr[n] = k
    colptr = np.zeros(m + 1, np.int64)
    for t in range(k):
        colptr[cols[t] + 1] += 1
    for j in range(m):
        colptr[j + 1] += colptr[j]
    rows = np.empty(k, np.int32)
    col_values = np.empty(k, np.float32)
    fill = colptr[:m].copy()
    for i in range(n):
        for t in range(indptr[i], indptr[i + 1]):
            j = cols[t]
            at = fill[j]
            rows[at] = i
            col_values[at] = row_values[t]
            fill[j] = at + 1
    return indptr, cols[:k], row_values[:k], colptr, rows, col_values


@njit(cache=True, fastmath=True)
def _add_rows(starts, index, values, table, init, out):
    """``out[i] = init + sum_k values[k] * table[index[k]]`` over ``k`` in ``starts[i] .. starts[i + 1]``.

    The forward pass (``table`` the transposed weights, ``init`` the bias) and the
    weight gradient (``table`` the output gradients, ``init`` zero) are both this
    sum; four rows are added per pass over ``out[i]``.
    """
    h = table.shape[1]
    for i in range(starts.shape[0] - 1):
        o = out[i]
        for u in range(h):
            o[u] = init[u]
        k, end = starts[i], starts[i + 1]
        while k + 3 < end:
            r0, r1, r2, r3 = table[index[k]], table[index[k + 1]], table[index[k + 2]], table[index[k + 3]]
            v0, v1, v2, v3 = values[k], values[k + 1], values[k + 2], values[k + 3]
            for u in range(h):
                o[u] += (v0 * r0[u] + v1 * r1[u]) + (v2 * r2[u] + v3 * r3[u])
            k += 4
        while k < end:
            r0, v0 = table[index[k]], values[k]
            for u in range(h):
                o[u] += v0 * r0[u]
            k += 1


def _function():
    import torch

    class SparseLinear(torch.autograd.Function):
        """``x @ weight.T + bias`` for a float32 CPU ``x`` that needs no gradient, reading only its non-zero entries."""

        @staticmethod
        def forward(ctx, x, weight, bias):
            indptr, cols, row_values, colptr, rows, col_values = nonzero_inputs(x.detach().numpy())
            out = np.empty((x.shape[0], weight.shape[0]), np.float32)
            _add_rows(indptr, cols, row_values, weight.detach().t().contiguous().numpy(), bias.detach().numpy(), out)
            ctx.columns = (colptr, rows, col_values)
            return torch.from_numpy(out)

        @staticmethod
        def backward(ctx, grad_out):
            colptr, rows, col_values = ctx.columns
            grad = grad_out.contiguous().numpy()
            grad_t = np.empty((colptr.shape[0] - 1, grad.shape[1]), np.float32)
            _add_rows(colptr, rows, col_values, grad, np.zeros(grad.shape[1], np.float32), grad_t)
            return None, torch.from_numpy(grad_t).t().contiguous(), grad_out.sum(0)

    return SparseLinear


_SPARSE_LINEAR = None


def logits(module, x):
    """The logits of ``module`` (:func:`gammon.net.build_module`'s Sequential) for inputs ``x``, its first layer sparse.

    Inputs or weights other than float32 on the CPU go through the module itself.
    """
    global _SPARSE_LINEAR
    import torch

    first = module[0]
    if not (x.dtype == first.weight.dtype == torch.float32 and x.device.type == first.weight.device.type == "cpu"):
        return module(x)
    if _SPARSE_LINEAR is None:
        _SPARSE_LINEAR = _function()
    return module[2](module[1](_SPARSE_LINEAR.apply(x, first.weight, first.bias)))


# -- the whole learner step without autograd ------------------------------------------------------------


@njit(cache=True, fastmath=True)
def _output_layer(hidden, w2, b2, act, logits) -> None:
    """``logits = act(hidden) @ w2.T + b2`` for the first layer's pre-activations ``hidden`` ((n, H));
    ``act`` 0 ReLU, 1 sigmoid."""
    n, h = hidden.shape
    for i in range(n):
        s0, s1, s2, s3, s4 = b2[0], b2[1], b2[2], b2[3], b2[4]
        for u in range(h):
            v = hidden[i, u]
            a = max(v, np.float32(0.0)) if act == 0 else np.float32(1.0) / (np.float32(1.0) + np.exp(-v))
            s0 += a * w2[0, u]
            s1 += a * w2[1, u]
            s2 += a * w2[2, u]
            s3 += a * w2[3, u]
            s4 += a * w2[4, u]
        logits[i, 0], logits[i, 1], logits[i, 2], logits[i, 3], logits[i, 4] = s0, s1, s2, s3, s4


@njit(cache=True, fastmath=True)
def _output_backward(hidden, w2, act, grad_logits, grad_hidden, grad_w2, grad_b2, grad_b1) -> None:
    """The output layer's and the activation's backward pass: from ``grad_logits`` ((n, 5)) the gradients of
    ``w2``, ``b2``, the first layer's bias and its pre-activations (``grad_hidden``, (n, H)).

    Each position's loops over the hidden units have no branches, so that they run on full-width vectors.
    """
    n, h = hidden.shape
    grad_w2[:] = 0.0
    grad_b2[:] = 0.0
    grad_b1[:] = 0.0
    a = np.empty(h, np.float32)
    slope = np.empty(h, np.float32)
    zero = np.float32(0.0)
    one = np.float32(1.0)
    for i in range(n):
        row = hidden[i]
        if act == 0:
            for u in range(h):
                a[u] = max(row[u], zero)
                slope[u] = one if row[u] > zero else zero
        else:
            for u in range(h):
                a[u] = one / (one + np.exp(-row[u]))
                slope[u] = a[u] * (one - a[u])
        g0, g1, g2, g3, g4 = grad_logits[i, 0], grad_logits[i, 1], grad_logits[i, 2], grad_logits[i, 3], grad_logits[i, 4]
        out = grad_hidden[i]
        for u in range(h):
            au = a[u]
            grad_w2[0, u] += g0 * au
            grad_w2[1, u] += g1 * au
            grad_w2[2, u] += g2 * au
            grad_w2[3, u] += g3 * au
            grad_w2[4, u] += g4 * au
            d = (g0 * w2[0, u] + g1 * w2[1, u] + g2 * w2[2, u] + g3 * w2[3, u] + g4 * w2[4, u]) * slope[u]
            out[u] = d
            grad_b1[u] += d
        grad_b2[0] += g0
        grad_b2[1] += g1
        grad_b2[2] += g2
        grad_b2[3] += g3
        grad_b2[4] += g4


class Forward:
    """One net's forward pass over a batch by :func:`forward`, kept for :func:`backward`: the ``logits``
    ((n, 5) float32) and what the gradients need."""

    def __init__(self, module, boards: np.ndarray) -> None:
        import torch

        first, last = module[0], module[2]
        self.module = module
        self.act = 0 if isinstance(module[1], torch.nn.ReLU) else 1
        indptr, cols, row_values, *self.columns = encoded_inputs(boards, first.weight.shape[1])
        n = boards.shape[0]
        self.hidden = np.empty((n, first.weight.shape[0]), np.float32)
        _add_rows(indptr, cols, row_values, first.weight.detach().t().contiguous().numpy(), first.bias.detach().numpy(), self.hidden)
        self.logits = np.empty((n, 5), np.float32)
        _output_layer(self.hidden, last.weight.detach().numpy(), last.bias.detach().numpy(), self.act, self.logits)


def forward(module, boards: np.ndarray) -> Forward:
    """The logits of ``module`` (:func:`gammon.net.build_module`'s Sequential, float32 on the CPU) for
    ``boards`` ((n, 26), side on roll) in the encoding of its width, without autograd: :func:`backward`
    gives the gradients."""
    refresh()  # encoded_inputs compiles the encoder in
    return Forward(module, np.ascontiguousarray(boards, np.int8).reshape(-1, 26))


def backward(pass_: Forward, grad_logits: np.ndarray) -> None:
    """Set the ``.grad`` of the module of ``pass_`` to the gradients of a loss whose gradient with respect to
    ``pass_.logits`` is ``grad_logits``: what autograd gives through :func:`logits`, to float rounding."""
    import torch

    module = pass_.module
    first, last = module[0], module[2]
    n, h = pass_.hidden.shape
    grad_hidden = np.empty((n, h), np.float32)
    grad_w2 = np.empty((5, h), np.float32)
    grad_b2 = np.empty(5, np.float32)
    grad_b1 = np.empty(h, np.float32)
    _output_backward(pass_.hidden, last.weight.detach().numpy(), pass_.act, np.ascontiguousarray(grad_logits, np.float32),
                     grad_hidden, grad_w2, grad_b2, grad_b1)
    colptr, rows, col_values = pass_.columns
    grad_w1t = np.empty((colptr.shape[0] - 1, h), np.float32)
    _add_rows(colptr, rows, col_values, grad_hidden, np.zeros(h, np.float32), grad_w1t)
    first.weight.grad = torch.from_numpy(grad_w1t).t().contiguous()
    first.bias.grad = torch.from_numpy(grad_b1)
    last.weight.grad = torch.from_numpy(grad_w2)
    last.bias.grad = torch.from_numpy(grad_b2)
