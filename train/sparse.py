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
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def nonzero_inputs(x):
    """``x`` ((n, m) float32) by row and by column: ``(indptr, cols, row_values, colptr, rows, col_values)``."""
    n, m = x.shape
    indptr = np.empty(n + 1, np.int64)
    colptr = np.zeros(m + 1, np.int64)
    cols = np.empty(n * m, np.int32)
    row_values = np.empty(n * m, np.float32)
    k = 0
    for i in range(n):
        indptr[i] = k
        for j in range(m):
            v = x[i, j]
            if v != 0.0:
                cols[k] = j
                row_values[k] = v
                colptr[j + 1] += 1
                k += 1
    indptr[n] = k
    for j in range(m):
        colptr[j + 1] += colptr[j]
    rows = np.empty(k, np.int32)
    col_values = np.empty(k, np.float32)
    fill = colptr[:m].copy()
    for i in range(n):
        for k2 in range(indptr[i], indptr[i + 1]):
            j = cols[k2]
            at = fill[j]
            rows[at] = i
            col_values[at] = row_values[k2]
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
