"""References written from the rules in plain Python, for tests to check compiled code against."""

from __future__ import annotations

import numpy as np

from gammon.engine.analysis import in_contact


def ruled_out(b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``p`` with the gammons and backgammons the position makes impossible set to 0 (by the rules, in Python)."""
    p = np.array(p, np.float64)
    mine_off = 15 - int(b[25]) - int(np.clip(b[1:25], 0, None).sum())
    theirs_off = 15 + int(b[0]) - int(np.clip(-b[1:25], 0, None).sum())
    race = not in_contact(b)
    if theirs_off:
        p[1] = p[2] = 0.0
    elif race and b[0] == 0 and not (b[1:7] < 0).any():
        p[2] = 0.0
    if mine_off:
        p[3] = p[4] = 0.0
    elif race and b[25] == 0 and not (b[19:25] > 0).any():
        p[4] = 0.0
    return p
