"""benchmarks/tune_heuristic.py: the fit recovers known weights, the printer writes heuristic.py's tables."""

from __future__ import annotations

import doctest
import random
from pathlib import Path

import numpy as np
import pytest

from gammon.engine import terms as ft
from gammon.outcomes import results
from gammon.bots.heuristic import LEVELS, Level
from gammon.position import Position
from support import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "tune_heuristic.py"
HEURISTIC = Path(__file__).resolve().parents[1] / "gammon" / "bots" / "heuristic.py"


@pytest.fixture(scope="module")
def tune():
    yield from load_script(SCRIPT, "tune_heuristic")


def labelled(tune, seed: int, weights: np.ndarray, offsets: float, noise: float):
    """Decisions from random play labelled ``features @ weights`` + an offset per decision + noise."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    afters, position = [], Position.initial()
    while len(afters) < 600:
        plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        if len(plays) > 1:
            afters.append(plays.after.copy())
        position = position.apply(plays[rng.randrange(len(plays))])
        if position.is_game_over():
            position = Position.initial()
    after = np.concatenate(afters)
    dec = np.concatenate([np.full(len(a), i) for i, a in enumerate(afters)])
    y = ft.features(after) @ weights + offsets * nrng.normal(size=len(afters))[dec] + nrng.normal(0, noise, len(dec))
    won = results(after)
    y[won > 0] = won[won > 0]  # finished games are labelled with what they won, as gnubg's are
    return tune.Decisions(after, dec, y, np.zeros((len(dec), 3)))


def test_the_ranking_fit_recovers_weights_whatever_each_position_is_worth(tune):
    # Given labels made from level 3's weights plus a large, random worth per decision (its position)
    true = LEVELS[3].vector
    data = labelled(tune, seed=1, weights=true, offsets=1.0, noise=0.002)
    # When level 3's terms are fitted, within each decision
    X = ft.features(data.after)
    w = tune.fit_ranking(X, data.dec, data.y, results(data.after) == 0, tune.KNOWS[3])
    # Then the weights come back, and the per-position worth does not leak into them
    assert np.abs(w - true).max() < 0.01


def test_level5s_absolute_fit_also_recovers_the_constant(tune):
    true = LEVELS[5].vector
    data = labelled(tune, seed=2, weights=true, offsets=0.0, noise=0.0)
    X = ft.features(data.after)
    w = tune.fit_ranking(X, data.dec, data.y, results(data.after) == 0, tune.KNOWS[5], absolute=tune.ABSOLUTE_WEIGHT)
    going_on = results(data.after) == 0
    assert np.abs(X[going_on] @ w - data.y[going_on]).max() < 1e-6
    assert w[ft.BIAS] == pytest.approx(true[ft.BIAS], abs=1e-6)


def test_the_win_logistic_is_recovered(tune):
    estimate = np.linspace(-1.5, 1.5, 200)
    win = 1.0 / (1.0 + np.exp(-(2.5 * estimate - 0.1)))
    a, b = tune.fit_win_logistic(estimate, win)
    assert (a, b) == pytest.approx((2.5, -0.1), abs=1e-9)


def test_pick_quality_counts_agreement_and_equity_lost(tune):
    # Two decisions: the scores pick gnubg's best in the first, lose 0.3 in the second
    data = tune.Decisions(np.zeros((5, 26), np.int8), np.array([0, 0, 1, 1, 1]), np.array([0.1, 0.5, 0.2, -0.1, 0.0]), np.zeros((5, 3)))
    q = tune.pick_quality(np.array([0.0, 1.0, 0.0, 2.0, 1.0]), data)
    assert (q.agree, q.loss) == pytest.approx((0.5, 0.15))


def test_the_printer_writes_the_committed_tables_as_heuristic_py_has_them(tune):
    source = HEURISTIC.read_text()
    for level in LEVELS:
        text = tune.level_source(level, LEVELS[level].vector)
        assert text in source
        namespace = {"Level": Level}
        exec(text, namespace)
        assert namespace[f"LEVEL_{level}"] == LEVELS[level]


def test_data_files_load_together_with_decisions_renumbered(tune, tmp_path):
    one = tune.Decisions(np.zeros((3, 26), np.int8), np.array([0, 0, 1]), np.arange(3.0), np.zeros((3, 3)))
    one.save(tmp_path / "a.npz")
    one.save(tmp_path / "b.npz")
    both = tune.Decisions.load([tmp_path / "a.npz", tmp_path / "b.npz"])
    assert both.dec.tolist() == [0, 0, 1, 2, 2, 3] and both.decisions == 4


def test_the_script_examples_hold(tune):
    assert doctest.testmod(tune).failed == 0


def test_collect_labels_every_candidate_with_gnubg(tune):
    pytest.importorskip("gnubg_nn")
    from gammon.bots.external import cubeless_equity

    data = tune.collect(games=2, seed=3, progress=False)
    again = tune.collect(games=2, seed=3, progress=False)
    assert data.decisions > 10 and np.array_equal(data.after, again.after)
    assert np.array_equal(data.y, cubeless_equity(data.after))
    going_on = results(data.after) == 0
    win = data.p[going_on, 0]
    assert ((0 <= win) & (win <= 1)).all() and np.corrcoef(win, data.y[going_on])[0, 1] > 0.9
