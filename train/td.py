"""TD(lambda) targets: lambda-returns over whole self-play games.

Every state of a game is seen by the player on roll, so the value of the
next state is read from the other side with :func:`flip` (win <-> lose,
gammons swapped). For a game of states ``s_0 .. s_T`` (``s_T`` final, its
outcome ``z`` known exactly) and network outputs ``v_t``::

    R_T = z
    R_t = flip((1 - lambda) * v_{t+1} + lambda * R_{t+1})      (v_T = z)

``lambda = 0`` is one-step TD (the target is the next state's value),
``lambda = 1`` the game's outcome. The targets are computed with the same
forward pass that is then trained (so with the current weights), which is
the offline lambda-return algorithm, equivalent to TD(lambda) with
eligibility traces updated at the end of the game.

>>> import numpy as np
>>> v = np.full((2, 5), 0.5, np.float32)             # two states before the end
>>> z = np.array([[0, 0, 0, 1, 0]], np.float32)     # s_2: the side on roll lost a gammon
>>> targets, td = lambda_returns(v, np.array([0, 2]), z, 1.0)
>>> targets.tolist()                                # s_1 won a gammon, s_0 lost one
[[0.0, 0.0, 0.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0, 0.0]]
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _equity(p0, p1, p2, p3, p4):
    return 2.0 * p0 - 1.0 + p1 - p3 + p2 - p4


@njit(cache=True)
def lambda_returns(v, starts, z, lam):
    """Lambda-return targets for states ``v`` ((N, 5) probabilities, games back to back).

    ``starts`` (G + 1 offsets) delimits the games; ``z`` (G, 5) is each
    game's exact outcome for the side on roll in its final state. Returns
    ``(targets (N, 5) float32, td (N,) float32)``, where ``td`` is the one-step
    TD error in equity (target of TD(0) minus the current estimate).
    """
    n = v.shape[0]
    out = np.empty((n, 5), np.float32)
    td = np.empty(n, np.float32)
    nxt = np.empty(5, np.float64)
    ret = np.empty(5, np.float64)
    for g in range(starts.shape[0] - 1):
        for k in range(5):
            nxt[k] = z[g, k]
            ret[k] = z[g, k]
        for i in range(starts[g + 1] - 1, starts[g] - 1, -1):
            b0 = (1.0 - lam) * nxt[0] + lam * ret[0]
            b1 = (1.0 - lam) * nxt[1] + lam * ret[1]
            b2 = (1.0 - lam) * nxt[2] + lam * ret[2]
            b3 = (1.0 - lam) * nxt[3] + lam * ret[3]
            b4 = (1.0 - lam) * nxt[4] + lam * ret[4]
            # flip: the state before belongs to the other player
            ret[0] = 1.0 - b0
            ret[1] = b3
            ret[2] = b4
            ret[3] = b1
            ret[4] = b2
            for k in range(5):
                out[i, k] = ret[k]
            td[i] = -_equity(nxt[0], nxt[1], nxt[2], nxt[3], nxt[4]) - _equity(v[i, 0], v[i, 1], v[i, 2], v[i, 3], v[i, 4])
            for k in range(5):
                nxt[k] = v[i, k]
    return out, td


def outcome_vector(points: int) -> np.ndarray:
    """The exact outputs of a final state for the side on roll, who lost ``points`` (1, 2 or 3).

    >>> outcome_vector(2).tolist()
    [0.0, 0.0, 0.0, 1.0, 0.0]
    """
    return np.array([0.0, 0.0, 0.0, float(points >= 2), float(points >= 3)], np.float32)


def flip(p: np.ndarray) -> np.ndarray:
    """Outputs seen by the other player (see :func:`gammon.net.flip_probs`)."""
    p = np.asarray(p)
    return np.stack([1.0 - p[..., 0], p[..., 3], p[..., 4], p[..., 1], p[..., 2]], axis=-1)


def batch_states(games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stack the non-final states of ``games``: ``(boards (N, 26), starts (G + 1,), z (G, 5))``."""
    boards = np.concatenate([g.boards[:-1] for g in games])
    starts = np.zeros(len(games) + 1, np.int64)
    starts[1:] = np.cumsum([g.boards.shape[0] - 1 for g in games])
    z = np.stack([outcome_vector(g.points) for g in games])
    return boards, starts, z
