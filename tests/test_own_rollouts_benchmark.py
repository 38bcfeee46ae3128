"""benchmarks/own_rollouts.py: the rollout noise taken out of a distance."""

from __future__ import annotations

import doctest
from pathlib import Path

import numpy as np
import pytest

from support import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "own_rollouts.py"


@pytest.fixture(scope="module")
def bench():
    yield from load_script(SCRIPT, "own_rollouts_benchmark")


def test_doctests(bench):
    assert doctest.testmod(bench).failed == 0


def test_the_systematic_distance_recovers_a_known_error_under_rollout_noise(bench):
    # Given true values, a model off by a known error (sd 0.05), and a rollout in two halves each with noise sd 0.1
    rng = np.random.default_rng(5)
    n = 200_000
    truth = rng.normal(0, 0.5, n)
    model = truth + rng.normal(0, 0.05, n)
    half_a, half_b = truth + rng.normal(0, 0.1, n), truth + rng.normal(0, 0.1, n)
    d = bench.distance(model, half_a, half_b)
    # Then the noise is the whole rollout's standard error (0.1 / sqrt 2), and taking it out leaves the model's error
    assert d["noise"] == pytest.approx(0.1 / np.sqrt(2), rel=0.01)
    assert d["rms"] == pytest.approx(np.sqrt(0.05**2 + 0.1**2 / 2), rel=0.01)
    assert d["systematic"] == pytest.approx(0.05, rel=0.03)
    assert abs(d["bias"]) < 0.002
