"""The network's compiled forward pass, and the scoring of a turn's candidate plays with it.

The weights are :class:`gammon.net.Weights`' plain float32 arrays: ``w1`` is
(inputs, hidden) so that one input's weights are contiguous, ``w2`` is (5,
hidden). The first layer is sparse: most inputs are zero and are skipped.
Outputs are the five probabilities of :mod:`gammon.outcomes` for the side on
roll in the encoded board.

>>> import numpy as np
>>> from gammon.net import Architecture, Weights
>>> w = Weights.zeros(Architecture(hidden=8))
>>> np.round(probabilities(w, np.zeros((1, w.w1.shape[0]), np.float32)), 2).tolist()
[[0.5, 0.5, 0.5, 0.5, 0.5]]
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from gammon.engine.cache import cross_file
from gammon.engine.encoding import encode_into
from gammon.outcomes import game_result, mover_equity

if TYPE_CHECKING:  # pragma: no cover
    from gammon.net import Weights


@njit(cache=True, fastmath=True)
def forward_into(x, n, w1, b1, w2, b2, act, out):
    """Probabilities of rows ``x[:n]`` into ``out[:n]`` (sparse first layer; ``act`` 0 ReLU, 1 sigmoid)."""
    nin = w1.shape[0]
    nh = w1.shape[1]
    h = np.empty(nh, np.float32)
    for r in range(n):
        for j in range(nh):
            h[j] = b1[j]
        for i in range(nin):
            v = x[r, i]
            if v != 0.0:
                for j in range(nh):
                    h[j] += v * w1[i, j]
        if act == 0:
            for j in range(nh):
                if h[j] < 0.0:
                    h[j] = 0.0
        else:
            for j in range(nh):
                h[j] = 1.0 / (1.0 + math.exp(-h[j]))
        for k in range(5):
            s = b2[k]
            for j in range(nh):
                s += h[j] * w2[k, j]
            out[r, k] = 1.0 / (1.0 + math.exp(-s))


@cross_file
@njit(cache=True)
def play_equities(after, over, x, probs, w1, b1, w2, b2, act, equities):
    """Score candidate plays: ``equities[i]`` is the mover's cubeless equity after play ``i``.

    ``after``/``over`` come from ``movegen.generate``; ``x`` and ``probs`` are
    scratch buffers with at least ``len(after)`` rows. Game-ending plays get
    their exact value (1, 2 or 3).
    """
    n = after.shape[0]
    encode_into(after, x)
    forward_into(x, n, w1, b1, w2, b2, act, probs)
    for i in range(n):
        if over[i]:
            equities[i] = game_result(after[i])
        else:
            equities[i] = mover_equity(probs[i, 0], probs[i, 1], probs[i, 2], probs[i, 3], probs[i, 4])


def probabilities(weights: Weights, x: np.ndarray) -> np.ndarray:
    """The five output probabilities for encoded rows ``x`` ((n, inputs) float32)."""
    x = np.ascontiguousarray(x, np.float32)
    out = np.empty((x.shape[0], 5), np.float32)
    forward_into(x, x.shape[0], weights.w1, weights.b1, weights.w2, weights.b2, weights.act, out)
    return out
