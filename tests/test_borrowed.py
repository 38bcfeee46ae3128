"""gammon.engine.borrowed: an argument's arrays without reference counting, the same memory as the caller's."""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.engine.borrowed import borrowed


@njit
def _fill_rows_through_views(a):
    a = borrowed(a)
    for r in range(a.shape[0]):
        row = a[r]  # a view of a borrowed array
        for k in range(row.shape[0]):
            row[k] = 10 * r + k
    return a[1:].sum()


@njit
def _tuple_parts(ev):
    ev = borrowed(ev)
    w, scale, v = ev
    return w[0, 1] * scale + v[-1]


def test_borrowed_array_is_the_callers_memory():
    # Given a 2-D array written through row views of its borrowed copy
    a = np.zeros((3, 4), np.int64)
    total = _fill_rows_through_views(a)
    # Then the caller's array holds the writes, and reads through the views see them
    assert a.tolist() == [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]
    assert total == a[1:].sum()


def test_borrowed_tuple_keeps_its_scalars_and_arrays():
    # Given an evaluator-like tuple of arrays and a scalar
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = np.array([0.5, 2.5])
    # Then every element reads as before
    assert _tuple_parts((w, 3, v)) == 1.0 * 3 + 2.5


def test_borrowing_leaves_the_arrays_alive_and_unchanged_after_many_calls():
    # Given many calls that borrow the same arrays (a reference-count mistake would free them)
    a = np.zeros((3, 4), np.int64)
    for _ in range(1000):
        _fill_rows_through_views(a)
    # Then they are still the caller's, intact
    assert a.sum() == sum(10 * r + k for r in range(3) for k in range(4))
    assert _tuple_parts((np.ones((2, 3), np.float32), 2, np.zeros(2))) == 2.0
