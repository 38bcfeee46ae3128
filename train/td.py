"""TD(lambda) targets: lambda-returns over whole self-play games.

Every state of a game is seen by the player on roll, so the value of the
next state is read from the other side with :func:`gammon.outcomes.flip` (win <-> lose,
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

from gammon.engine.cache import cross_file, refresh
from gammon.outcomes import equity5, flip_into, lost_probs


@cross_file
@njit(cache=True)
def _lambda_returns(v, starts, z, lam):
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
    blend = np.empty(5, np.float64)
    for g in range(starts.shape[0] - 1):
        for k in range(5):
            nxt[k] = z[g, k]
            ret[k] = z[g, k]
        for i in range(starts[g + 1] - 1, starts[g] - 1, -1):
            for k in range(5):
                blend[k] = (1.0 - lam) * nxt[k] + lam * ret[k]
            flip_into(blend, ret)  # the state before belongs to the other player
            for k in range(5):
                out[i, k] = ret[k]
            td[i] = -equity5(nxt[0], nxt[1], nxt[2], nxt[3], nxt[4]) - equity5(v[i, 0], v[i, 1], v[i, 2], v[i, 3], v[i, 4])
            for k in range(5):
                nxt[k] = v[i, k]
    return out, td


def lambda_returns(v: np.ndarray, starts: np.ndarray, z: np.ndarray, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_lambda_returns`, the compiled kernel, after the engine's cache check."""
    refresh()
    return _lambda_returns(v, starts, z, lam)


def batch_states(games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stack the non-final states of ``games``: ``(boards (N, 26), starts (G + 1,), z (G, 5))``."""
    boards = np.concatenate([g.boards[:-1] for g in games])
    starts = np.zeros(len(games) + 1, np.int64)
    starts[1:] = np.cumsum([g.boards.shape[0] - 1 for g in games])
    z = np.stack([lost_probs(g.points) for g in games])
    return boards, starts, z
