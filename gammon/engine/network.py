"""The evaluator, compiled: a position's class picks its evaluation, and a turn's candidate plays are scored incrementally.

The weights are :class:`gammon.net.Weights`' plain float32 arrays: ``w1`` is
(inputs, hidden) so that one input's weights are contiguous, ``w2`` is (5,
hidden). The first layer is sparse: most inputs are zero and are skipped.
Outputs are the five probabilities of :mod:`gammon.outcomes` for the side on
roll in the encoded board.

Every kernel here and in :mod:`gammon.engine.search` takes the evaluator as
one tuple ``ev`` (:meth:`gammon.net.Evaluator.kernel_args`)::

    (w1, b1, w2, b2, rw1, rb1, rw2, rb2, act, off, first)

the contact net, the race net (``rw1`` with no rows: none, the contact net
plays races too), both :meth:`~gammon.net.Weights.folded` (the inputs that
are sums of the point units and bars have zero rows, and the kernels skip
them), the activation code of both, and the one-sided bear-off
tables of :mod:`gammon.bearoff` (no rows: not used). A position is first
classified (:func:`position_class`): a pure bear-off is valued exactly from
the tables, a race (no contact) by the race net, anything else by the
contact net. The width of ``w1`` chooses the contact net's encoding
(:data:`~gammon.engine.encoding.ENCODINGS`), that of ``rw1`` the race net's
(the first encoding, or the race encoding).

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

from gammon.bearoff.kernels import race_into, sides
from gammon.engine.analysis import in_contact
from gammon.engine.borrowed import borrowed
from gammon.engine.cache import cross_file, refresh
from gammon.engine.encoding import (
    FOLD_TABLES,
    FOLDED,
    N_CONTACT_INPUTS,
    N_INPUTS,
    N_RACE_INPUTS,
    N_RAW,
    N_SUMMARY,
    SUMMARY_ME_BACK,
    SUMMARY_ME_LEFT,
    SUMMARY_THEM_BACK,
    SUMMARY_THEM_LEFT,
    UNFOLDED,
    encode_from_summary,
    encode_into,
    extra_from_summary,
    family,
    inputs_from_summary,
    race_from_summary,
    rears_from_summary,
    rich_from_summary,
    summarise,
    summarise_bars,
    summarise_point,
    unit_value,
)
from gammon.outcomes import game_result, lost_into, mover_equity, rule_out_into, rule_out_known

#: Position classes of :func:`position_class`.
CONTACT, RACE, BEAROFF = 0, 1, 2

if TYPE_CHECKING:  # pragma: no cover
    from gammon.net import Weights


@cross_file
@njit(cache=True, inline="always")
def _point_changes(rows, values, m, first, old, new) -> int:
    """Append the changed units of one point (``first`` .. ``first + 3``) going from ``old`` to ``new`` checkers."""
    for k in range(4):
        d = unit_value(new, k) - unit_value(old, k)
        if d != 0.0:
            rows[m] = first + k
            values[m] = d
            m += 1
    return m


@njit(cache=True, fastmath=True)
def _add_rows(h, h0, w1, rows, values, m) -> None:
    """``h = h0 + sum(values[r] * w1[rows[r]])``: the first layer of a candidate from the base's.

    Four rows a pass over ``h``: the sums stay in registers between the rows'
    loads, and ``h`` is stored a quarter as often.
    """
    nh = h.shape[0]
    for j in range(nh):
        h[j] = h0[j]
    r = 0
    while r + 4 <= m:
        i0, i1, i2, i3 = rows[r], rows[r + 1], rows[r + 2], rows[r + 3]
        v0, v1, v2, v3 = values[r], values[r + 1], values[r + 2], values[r + 3]
        for j in range(nh):
            h[j] += v0 * w1[i0, j] + v1 * w1[i1, j] + v2 * w1[i2, j] + v3 * w1[i3, j]
        r += 4
    while r < m:
        v = values[r]
        i = rows[r]
        for j in range(nh):
            h[j] += v * w1[i, j]
        r += 1


@njit(cache=True, fastmath=True)
def _sparse_layer(x, w1, b1, h, rows, values) -> None:
    """``h = b1 + x @ w1`` over the non-zero entries of the input row ``x`` only (``rows``/``values``: scratch
    at least as long as ``x``)."""
    m = 0
    for i in range(x.shape[0]):
        if x[i] != 0.0:
            rows[m] = i
            values[m] = x[i]
            m += 1
    _add_rows(h, b1, w1, rows, values, m)


@njit(cache=True, fastmath=True)
def _output(h, w2, b2, act, out) -> None:
    """The hidden activation of pre-activations ``h`` and the five sigmoid outputs into ``out``.

    One pass over the hidden units for all five outputs, in float32 (the
    weights' precision) so that the pass runs on full-width vectors.
    """
    nh = h.shape[0]
    s0, s1, s2, s3, s4 = b2[0], b2[1], b2[2], b2[3], b2[4]
    zero = np.float32(0.0)
    one = np.float32(1.0)
    if act == 0:
        for j in range(nh):
            a = max(h[j], zero)
            s0 += a * w2[0, j]
            s1 += a * w2[1, j]
            s2 += a * w2[2, j]
            s3 += a * w2[3, j]
            s4 += a * w2[4, j]
    else:
        for j in range(nh):
            a = one / (one + np.exp(-h[j]))
            s0 += a * w2[0, j]
            s1 += a * w2[1, j]
            s2 += a * w2[2, j]
            s3 += a * w2[3, j]
            s4 += a * w2[4, j]
    out[0] = 1.0 / (1.0 + math.exp(-s0))
    out[1] = 1.0 / (1.0 + math.exp(-s1))
    out[2] = 1.0 / (1.0 + math.exp(-s2))
    out[3] = 1.0 / (1.0 + math.exp(-s3))
    out[4] = 1.0 / (1.0 + math.exp(-s4))


@cross_file
@njit(cache=True, fastmath=True)
def forward_into(x, n, w1, b1, w2, b2, act, out):
    """Probabilities of rows ``x[:n]`` into ``out[:n]``, from scratch (sparse first layer; ``act`` 0 ReLU, 1 sigmoid)."""
    x, w1, b1, w2, b2, out = borrowed(x), borrowed(w1), borrowed(b1), borrowed(w2), borrowed(b2), borrowed(out)
    h = np.empty(w1.shape[1], np.float32)
    rows = np.empty(w1.shape[0], np.int64)
    values = np.empty(w1.shape[0], np.float32)
    for r in range(n):
        _sparse_layer(x[r], w1, b1, h, rows, values)
        _output(h, w2, b2, act, out[r])


def fold_weights(w1: np.ndarray, b1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(w1, b1)`` of a first layer with the folded inputs (:func:`~gammon.engine.encoding.linear_inputs`)
    moved onto the inputs they are sums of: see :meth:`gammon.net.Weights.folded`."""
    refresh()
    table = FOLD_TABLES[family.py_func(w1.shape[0])]
    return _fold(np.ascontiguousarray(w1, np.float32), np.ascontiguousarray(b1, np.float32), *table)


@njit(cache=True)
def _fold(w1, b1, folded, starts, columns, coefficients, constants):
    """:func:`fold_weights` by the rows of a fold table (:data:`~gammon.engine.encoding.FOLD_TABLES`): about
    0.02 ms a net of 256 hidden units; it runs for every new set of weights self-play receives."""
    nin, nh = w1.shape
    w = w1.copy()
    b = b1.copy()
    for r in range(folded.shape[0]):
        i = folded[r]
        if i >= nin:  # an input of a wider encoding
            continue
        for k in range(starts[r], starts[r + 1]):
            j = columns[k]
            a = coefficients[k]
            for u in range(nh):
                w[j, u] += a * w1[i, u]
        for u in range(nh):
            b[u] += constants[r] * w1[i, u]
    for r in range(folded.shape[0]):
        if folded[r] < nin:
            w[folded[r]] = 0.0
    return w, b


@cross_file
@njit(cache=True, inline="always")
def _drop_folded(x) -> None:
    """Zero the folded inputs of the encoded row ``x``: their weight rows in ``ev``'s nets are zero
    (:meth:`gammon.net.Weights.folded`), so a sparse first layer need not visit them."""
    folded = FOLDED[family(x.shape[0])]
    for i in range(x.shape[0]):
        if folded[i]:
            x[i] = 0.0


@njit(cache=True, inline="always")
def _phases(ev) -> bool:
    """Whether ``ev`` has a race net or the bear-off tables: without them every position is a contact position."""
    return ev[4].shape[0] > 0 or ev[9].shape[0] > 0


@cross_file
@njit(cache=True)
def position_class(b, ev) -> int:
    """:data:`BEAROFF` (when ``ev`` has the tables), :data:`RACE` (when it has a race net) or :data:`CONTACT`."""
    if not _phases(ev):
        return CONTACT
    if in_contact(b):
        return CONTACT
    if ev[9].shape[0] > 0 and sides(b)[0] >= 0:
        return BEAROFF
    return RACE if ev[4].shape[0] > 0 else CONTACT


@cross_file
@njit(cache=True)
def _bearoff_into(b, ev, out) -> None:
    a, o = sides(b)
    race_into(ev[9], ev[10], a, o, out)


@cross_file
@njit(cache=True, fastmath=True)
def evaluate_into(b, ev, x, out) -> None:
    """The five probabilities of the side on roll in ``b`` (not finished), from scratch, by its class, the
    outcomes that cannot happen ruled out (:func:`~gammon.outcomes.rule_out_into`).

    ``x`` is a (1, width) scratch row at least as wide as the widest net.
    """
    cls = position_class(b, ev)
    if cls == BEAROFF:
        _bearoff_into(b, ev, out)
        return
    race = cls == RACE
    w1, b1, w2, b2 = (ev[4], ev[5], ev[6], ev[7]) if race else (ev[0], ev[1], ev[2], ev[3])
    row = x[:, : w1.shape[0]]
    encode_into(b.reshape(1, 26), row)
    _drop_folded(row[0])
    forward_into(row, 1, w1, b1, w2, b2, ev[8], out.reshape(1, 5))
    rule_out_into(b, out)


@cross_file
@njit(cache=True, fastmath=True)
def evaluate_batch(boards, ev, out) -> None:
    """:func:`evaluate_into` for each of ``boards`` ((n, 26)) into ``out`` ((n, 5) float32); finished boards
    get the exact outcome of the side on roll, the loser (0, 0, 0, lose gammon, lose backgammon)."""
    boards, ev, out = borrowed(boards), borrowed(ev), borrowed(out)
    x = np.empty((1, max(ev[0].shape[0], ev[4].shape[0])), np.float32)
    for k in range(boards.shape[0]):
        points = game_result(boards[k])
        if points:
            lost_into(points, out[k])
        else:
            evaluate_into(boards[k], ev, x, out[k])


@cross_file
@njit(cache=True)
def evaluate_classes(boards, ev, classes, values) -> None:
    """The class of each of ``boards`` ((n, 26), not finished) into ``classes``; a pure bear-off's exact
    probabilities into its row of ``values`` ((n, 5)), the other rows left as they are (the trainer's split)."""
    boards, ev, classes, values = borrowed(boards), borrowed(ev), borrowed(classes), borrowed(values)
    for k in range(boards.shape[0]):
        cls = position_class(boards[k], ev)
        classes[k] = cls
        if cls == BEAROFF:
            _bearoff_into(boards[k], ev, values[k])


@cross_file
@njit(cache=True, fastmath=True)
def base_layer(board, ev):
    """``(base, s0, g0, h0, net)`` for the position ``board`` before a move: ``base`` is it seen by the side on
    roll after the move, ``s0`` its board summary (:func:`~gammon.engine.encoding.summarise`), ``net`` the net
    that scores its candidates incrementally (0 the contact net, 4 the race net: the index of its weights in
    ``ev``), ``g0`` the base's whole-board inputs (those after the :data:`~gammon.engine.encoding.N_RAW` point
    units and bars) and ``h0`` its first-layer pre-activations in that net (the start of every candidate's)."""
    base = _flipped(board)
    s0 = np.empty(N_SUMMARY, np.int64)
    summarise(base, s0)
    net = _base_net(base, ev)
    w1, b1 = (ev[4], ev[5]) if net == 4 else (ev[0], ev[1])
    nin = w1.shape[0]
    x = np.empty((1, nin), np.float32)
    encode_from_summary(base, s0, x, 0)
    _drop_folded(x[0])
    h0 = np.empty(w1.shape[1], np.float32)
    _sparse_layer(x[0], w1, b1, h0, np.empty(nin, np.int64), np.empty(nin, np.float32))
    return base, s0, x[0, N_RAW:].copy(), h0, net


@njit(cache=True)
def no_base_layer(board):
    """The ``last`` of :func:`next_base_layer` for a side that has no earlier base layer: in no net, so the
    next base layer is built from scratch (``board``, any board, only fixes the layer's types)."""
    return board.copy(), np.zeros(1, np.int64), np.zeros(1, np.float32), np.zeros(1, np.float32), -1


@cross_file
@njit(cache=True, fastmath=True)
def next_base_layer(board, ev, last):
    """:func:`base_layer` of ``board`` from ``last``, the base layer of an earlier position seen by the same
    side (in self-play, the same player's previous turn): incrementally, as a candidate play is scored
    (:func:`candidates_into`), when both are in the same net; else from scratch.

    Along a game the first layer then carries the float32 rounding of each step
    (a few 1e-5 at most over a game, against values of order 1).
    """
    prev, s_prev, g_prev, h_prev, net_prev = last
    base = _flipped(board)
    net = _base_net(base, ev)
    if net != net_prev:
        return base_layer(board, ev)
    w1 = ev[4] if net == 4 else ev[0]
    g = np.empty(g_prev.shape[0], np.float32)
    h = np.empty(h_prev.shape[0], np.float32)
    rows = np.empty(_rows_needed(w1.shape[0]), np.int64)
    s = np.empty(N_SUMMARY, np.int64)
    _increment(prev, s_prev, g_prev, h_prev, base, w1, g, h, rows, np.empty(rows.shape[0], np.float32), s)
    return base, s, g, h, net


@njit(cache=True, inline="always")
def _flipped(board):
    """``board`` seen by the other side."""
    base = np.empty(26, np.int8)
    for i in range(26):
        base[i] = -board[25 - i]
    return base


@cross_file
@njit(cache=True, inline="always")
def _base_net(base, ev) -> int:
    """The net that scores the candidates of a turn from ``base``: 4 the race net (when ``ev`` has one and
    ``base`` has no contact), else 0 the contact net."""
    return 4 if ev[4].shape[0] > 0 and not in_contact(base) else 0


@njit(cache=True, inline="always")
def _workspace(nin, nh, wide):
    """Scratch arrays of a candidate loop: whole-board inputs, first layer, changed rows and their values,
    outputs, a from-scratch row ``wide`` inputs wide, and a board summary
    (:func:`~gammon.engine.encoding.summarise`) of a candidate."""
    rows = np.empty(_rows_needed(nin), np.int64)
    return (np.empty(nin - N_RAW, np.float32), np.empty(nh, np.float32), rows,
            np.empty(rows.shape[0], np.float32), np.empty(5, np.float32), np.empty((1, wide), np.float32),
            np.empty(N_SUMMARY, np.int64))


@njit(cache=True, inline="always")
def _rows_needed(nin) -> int:
    """The most weight rows one step of :func:`_increment` can list in a net of ``nin`` inputs: every point
    unit and bar of both sides, and every whole-board input."""
    return 2 * 4 * 26 + nin - N_RAW


@cross_file
@njit(cache=True, fastmath=True, inline="always")
def _point_rows(base, s0, b, rows, values, s) -> int:
    """The first step of :func:`_increment`: the per-point inputs (point units and bars) that changed from
    ``base`` (summary ``s0``) to ``b``, into ``rows``/``values``, and ``b``'s summary ``s`` (``s0`` updated at
    those points). Returns the number of rows."""
    s[:] = s0
    m = 0
    for p in range(1, 25):
        v = b[p]
        v0 = base[p]
        if v != v0:
            m = _point_changes(rows, values, m, 4 * (p - 1), max(v0, 0), max(v, 0))
            m = _point_changes(rows, values, m, 96 + 4 * (24 - p), max(-v0, 0), max(-v, 0))
            summarise_point(s, p, v0, -1)
            summarise_point(s, p, v, 1)
    if b[25] != base[25] or b[0] != base[0]:
        summarise_bars(s, base[25], base[0], -1)
        summarise_bars(s, b[25], b[0], 1)
        if b[25] != base[25]:
            rows[m] = 192
            values[m] = (b[25] - base[25]) * 0.5
            m += 1
        if b[0] != base[0]:
            rows[m] = 193
            values[m] = -(b[0] - base[0]) * 0.5
            m += 1
    return m


@cross_file
@njit(cache=True, fastmath=True, inline="always")
def _global_rows(b, s, g0, h0, w1, g, h, rows, values, m) -> None:
    """The second step of :func:`_increment`: the whole-board inputs ``g`` of ``b`` from its summary ``s``,
    the rows of those that changed from ``g0`` (but the folded ones: they have no rows) after the ``m``
    rows already listed, and the first layer ``h``: ``h0`` plus every listed row."""
    inputs_from_summary(b, s, g, 0)
    width = N_RAW + g.shape[0]
    if width == N_RACE_INPUTS:
        race_from_summary(b, s, g, N_INPUTS - N_RAW)
    elif width > N_INPUTS:
        extra_from_summary(b, s, g, N_INPUTS - N_RAW)
        if width > N_CONTACT_INPUTS:
            rich_from_summary(b, s, g, N_CONTACT_INPUTS - N_RAW)
    unfolded = UNFOLDED[family(width)]
    for t in range(unfolded.shape[0]):
        k = unfolded[t]
        if k < 0 or k >= g.shape[0]:
            break
        d = g[k] - g0[k]
        if d != 0.0:
            rows[m] = N_RAW + k
            values[m] = d
            m += 1
    _add_rows(h, h0, w1, rows, values, m)


@cross_file
@njit(cache=True, fastmath=True, inline="always")
def _increment(base, s0, g0, h0, b, w1, g, h, rows, values, s) -> None:
    """The first layer ``h`` and the whole-board inputs ``g`` of board ``b`` from those of ``base`` (``h0``,
    ``g0`` and its summary ``s0``): ``h0`` plus the weight rows of the per-point inputs that changed, and of
    the whole-board inputs (but the folded ones) recomputed from the summary ``s`` updated at those points."""
    m = _point_rows(base, s0, b, rows, values, s)
    _global_rows(b, s, g0, h0, w1, g, h, rows, values, m)


@cross_file
@njit(cache=True, fastmath=True)
def candidates_into(layer, after, over, ev, out) -> None:
    """The candidate loop of :func:`play_probabilities` and :func:`play_equities`, from a :func:`base_layer`
    (shared by every roll of one position): ``out[c]`` (five) for the side on roll after play ``c``.

    A game-ending play gets the loser's exact outcome; a pure bear-off the
    database's values when ``ev`` has them; a play that breaks contact from
    a contact position is valued from scratch in the net of its class; every
    other candidate incrementally in the base's net: the base's first layer
    plus the weight rows of the per-point inputs the play changed, and of
    the whole-board inputs that are not folded into them
    (:data:`~gammon.engine.encoding.FOLDED`), recomputed from the base's summary
    (:func:`~gammon.engine.encoding.summarise`) updated at those points. The
    outcomes that cannot happen are ruled out
    (:func:`~gammon.outcomes.rule_out_into`).

    The loop runs on borrowed arrays (:mod:`gammon.engine.borrowed`): their
    reference counting took about a quarter of its time.
    """
    base, s0, g0, h0, net = layer
    w1, w2, b2 = (ev[4], ev[6], ev[7]) if net == 4 else (ev[0], ev[2], ev[3])
    g, h, rows, values, probs, x, s = _scratch(net, ev)
    _candidate_loop(base, s0, g0, h0, net, after, over, ev, out, w1, w2, b2, g, h, rows, values, probs, x, s)


@cross_file
@njit(cache=True, fastmath=True)
def _candidate_loop(base, s0, g0, h0, net, after, over, ev, out, w1, w2, b2, g, h, rows, values, probs, x, s) -> None:
    """:func:`candidates_into`'s loop, its arrays (all held by the caller) borrowed."""
    base, s0, g0, h0 = borrowed(base), borrowed(s0), borrowed(g0), borrowed(h0)
    after, over, out = borrowed(after), borrowed(over), borrowed(out)
    w1, w2, b2 = borrowed(w1), borrowed(w2), borrowed(b2)
    g, h, rows, values, probs = borrowed(g), borrowed(h), borrowed(rows), borrowed(values), borrowed(probs)
    x, s = borrowed(x), borrowed(s)
    act = ev[8]
    phases = _phases(ev)
    tables = ev[9].shape[0] > 0
    for c in range(after.shape[0]):
        b = after[c]
        if over[c]:
            lost_into(game_result(b), probs)
            _put(out, c, probs)
            continue
        if net == 4 and tables and sides(b)[0] >= 0:
            _bearoff_into(b, ev, probs)
            _put(out, c, probs)
            continue
        m = _point_rows(base, s0, b, rows, values, s)
        if net == 0 and phases:
            me_rear, them_rear = rears_from_summary(b, s)
            if me_rear <= them_rear and position_class(b, ev) != CONTACT:
                evaluate_into(b, ev, x, probs)
                _put(out, c, probs)
                continue
        _global_rows(b, s, g0, h0, w1, g, h, rows, values, m)
        _output(h, w2, b2, act, probs)
        # contact is the whole-board input 0; the back counts include the bars
        rule_out_known(s[SUMMARY_ME_LEFT], s[SUMMARY_THEM_LEFT], s[SUMMARY_ME_BACK] > 0, s[SUMMARY_THEM_BACK] > 0,
                       g[0] != 0.0, probs)
        _put(out, c, probs)


@njit(cache=True, inline="always")
def _put(out, c, probs) -> None:
    for k in range(5):
        out[c, k] = probs[k]


@njit(cache=True, inline="always")
def _scratch(net, ev):
    w1 = ev[4] if net == 4 else ev[0]
    return _workspace(w1.shape[0], w1.shape[1], max(ev[0].shape[0], ev[4].shape[0]))


@cross_file
@njit(cache=True, fastmath=True)
def score_from_base(layer, after, over, ev, equities):
    """The equities of :func:`play_equities` from a :func:`base_layer` (shared by every roll of one position)."""
    ev = borrowed(ev)
    out = np.empty((after.shape[0], 5), np.float32)
    candidates_into(layer, after, over, ev, out)
    for c in range(after.shape[0]):
        if over[c]:
            equities[c] = game_result(after[c])
        else:
            equities[c] = mover_equity(out[c, 0], out[c, 1], out[c, 2], out[c, 3], out[c, 4])


@cross_file
@njit(cache=True, fastmath=True)
def play_probabilities(board, after, over, ev, out):
    """:func:`play_equities`' evaluation, writing probabilities: ``out[i]`` (five) is for the side on roll after play ``i``.

    That is the opponent's view of the position the play leaves (flip it for
    the mover's); a game-ending play gets the loser's exact outcome (0, 0, 0,
    lose gammon, lose backgammon). The same outputs as the equities of
    :func:`play_equities`, from the same incremental first layer.
    """
    ev = borrowed(ev)
    candidates_into(base_layer(board, ev), after, over, ev, out)


@cross_file
@njit(cache=True, fastmath=True)
def play_equities(board, after, over, ev, equities):
    """Score a turn's candidate plays incrementally: ``equities[i]`` is the mover's cubeless equity after play ``i``.

    ``board`` is the position before the move (the mover on roll);
    ``after``/``over`` come from ``movegen.generate(board, ...)``. The first
    layer's pre-activations are computed once, for ``board`` seen by the
    opponent (the side on roll after the move), in the net of its class;
    each candidate then adds only the change of the per-point inputs its
    play touched (a few weight rows), recomputes the inputs that depend on
    the whole board from the base's board summary updated at those points
    (:func:`~gammon.engine.encoding.inputs_from_summary`, and
    :func:`~gammon.engine.encoding.extra_from_summary` for the contact
    encoding) and adds theirs that changed, and runs the rest of the
    network (:func:`candidates_into`). Equal to the from-scratch :func:`evaluate_into` of each
    candidate to float32 rounding. Game-ending plays get their exact value
    (1, 2 or 3), pure bear-offs the database's when ``ev`` has it.
    """
    ev = borrowed(ev)
    score_from_base(base_layer(board, ev), after, over, ev, equities)


def probabilities(weights: Weights, x: np.ndarray) -> np.ndarray:
    """The five output probabilities of one net for encoded rows ``x`` ((n, inputs) float32)."""
    x = np.ascontiguousarray(x, np.float32)
    out = np.empty((x.shape[0], 5), np.float32)
    refresh()
    forward_into(x, x.shape[0], weights.w1, weights.b1, weights.w2, weights.b2, weights.act, out)
    return out
