"""benchmarks/moves.py: the data format round-trips, the statistics, the judge's keys are our legal plays."""

from __future__ import annotations

import doctest
from pathlib import Path

import numpy as np
import pytest

from gammon.position import Position
from support import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "moves.py"


@pytest.fixture(scope="module")
def moves():
    yield from load_script(SCRIPT, "moves_benchmark")


def test_doctests(moves):
    assert doctest.testmod(moves).failed == 0


def test_file_round_trip(moves, tmp_path):
    decisions = [
        moves.Decision("4HPwATDgc/ABMA", (3, 1), "contact", {"sGfwATDgc/ABMA": 0.16292, "0HPwASLgc/ABMA": -0.01488}),
        moves.Decision("AAAAAAAAAAAAAA", (6, 6), "race", {"x": 1.0}),
    ]
    path = tmp_path / "d.txt.gz"
    moves.save(path, {"plies": 1}, decisions)
    header, back = moves.load_data(path)
    assert header == {"plies": 1}
    assert back == decisions


def test_summarise(moves):
    s = moves.summarise(np.array([0.001] * 4))
    assert s["n"] == 4 and s["mean"] == pytest.approx(1.0) and s["half"] == pytest.approx(0.0) and s["best"] == 0.0
    assert moves.summarise(np.array([]))["n"] == 0


def test_table_has_a_row_per_bot(moves):
    s = {k: moves.summarise(np.array([0.0, 0.002])) for k in ("race", "contact", "all")}
    lines = moves.table([("td", s), ("gnubg", s)]).splitlines()
    assert len(lines) == 4 and lines[2].startswith("| td |") and "1.00 ± 1.96 (n=2)" in lines[2]


def test_a_race_only_file_shows_no_figures_for_the_contact_decisions_it_lacks(moves):
    s = {k: moves.summarise(np.array([0.0, 0.002])) for k in ("race", "all")} | {"contact": moves.summarise(np.array([]))}
    row = moves.table([("td", s)]).splitlines()[2]
    assert row == "| td | 1.00 ± 1.96 (n=2) | - (n=0) | 1.00 ± 1.96 (n=2) | 50% / - |"
    kinds = np.array(["race", "race"])
    assert moves.paired_table([("td", np.zeros(2)), ("new", np.full(2, 0.001))], kinds).splitlines()[2] == \
        "| new | +1.00 (+1.00 .. +1.00) | - |"


def test_decisions_of_one_kind_are_only_of_that_kind(moves):
    pytest.importorskip("gnubg_nn")
    picked, games, _ = moves.self_play_decisions(20, 5, 0.5, "race")
    assert len(picked) == 20 and games > 1
    assert {moves.kind_of(Position.from_position_id(pid)) for pid, _ in picked} == {"race"}


def test_paired_table_is_the_difference_on_the_same_decisions(moves):
    kinds = np.array(["race", "race", "contact", "contact"])
    base = np.array([0.001, 0.003, 0.010, 0.000])
    other = base + np.array([0.001, 0.001, -0.002, -0.002])  # 1 mEMG worse in every race, 2 better in every contact
    lines = moves.paired_table([("td", base), ("new", other)], kinds).splitlines()
    assert lines[0].startswith("| bot minus td |") and len(lines) == 3
    assert lines[2] == "| new | +1.00 (+1.00 .. +1.00) | -2.00 (-2.00 .. -2.00) |"


def test_kind_of(moves):
    assert moves.kind_of(Position.initial()) == "contact"
    assert moves.kind_of(Position.from_checkers({1: 3, 2: 3, 3: 3}, {4: 5, 5: 5, 6: 5})) == "race"


def test_contact_type_names_the_kind_of_position_first_match_first(moves):
    assert moves.contact_type(Position.from_checkers({25: 1, 20: 2, 22: 2, 6: 10}, {0: 1, 1: 14})) == "on the bar"
    assert moves.contact_type(Position.from_checkers({20: 2, 6: 13}, {0: 1, 1: 14})) == "opponent on the bar"
    assert moves.contact_type(Position.from_checkers({6: 10, 8: 5}, {7: 2, 1: 13})) == "bearing in"
    assert moves.contact_type(Position.from_checkers({6: 10, 13: 5}, {7: 2, 1: 13})) == "other contact"


def test_type_table_has_a_row_per_kind_present(moves):
    types = np.array(["one anchor", "one anchor", "bearing in"])
    text = moves.type_table([("a", np.array([0.001, 0.003, 0.0])), ("b", np.zeros(3))], types)
    lines = text.splitlines()
    assert lines[0] == "| contact decisions | n | a | b |"
    assert lines[2].startswith("| one anchor | 2 | 2.00 ± ") and lines[3].startswith("| bearing in | 1 | 0.00 ± ")
    assert len(lines) == 4


def test_judge_values_every_legal_play(moves):
    pytest.importorskip("gnubg_nn")
    position = Position.initial()
    values = moves.judge(position, (3, 1), 0)
    plays = position.legal_plays((3, 1))
    assert set(values) == {position.apply(p).position_id() for p in plays}
    best = max(values, key=values.get)
    assert best == position.apply(position.parse_play("8/5 6/5", (3, 1))).position_id()


def test_committed_data_matches_our_legal_plays(moves):
    for name in ("moves_gnubg_1ply.txt.gz", "moves_gnubgnn_1ply.txt.gz", "moves_gnubg_1ply_contact_2031.txt.gz"):
        path = SCRIPT.parent / "data" / name
        if not path.exists():
            continue
        header, decisions = moves.load_data(path)
        assert header["decisions"] == len(decisions) == 3000 and header["plies"] == 1
        for d in decisions[:: len(decisions) // 20]:
            position = Position.from_position_id(d.position_id)
            assert set(d.equities) == {position.apply(p).position_id() for p in position.legal_plays(d.dice)}
            assert d.kind == moves.kind_of(position)


def test_value_errors_are_the_nets_distance_from_the_judge_absolute_and_within_a_decision(moves):
    from gammon.engine.network import evaluate_batch
    from gammon.net import Architecture, Evaluator, Weights

    # Given a net that values every position alike (zero weights: 0.5 for every output, equity 0 for both sides)
    evaluator = Evaluator(Weights.zeros(Architecture(hidden=4)))
    probs = np.empty((1, 5), np.float32)
    evaluate_batch(np.asarray(Position.initial().board, np.int8).reshape(1, 26), evaluator.kernel_args(), probs)
    assert probs.tolist() == [[0.5] * 5]
    # and two decisions whose plays the judge values at +-0.1 and +0.3 / +0.1 (any positions with contact)
    after = [Position.initial().apply(p).position_id() for p in Position.initial().legal_plays((3, 1))[:2]]
    decisions = [moves.Decision("4HPwATDgc/ABMA", (3, 1), "contact", {after[0]: 0.1, after[1]: -0.1}),
                 moves.Decision("4HPwATDgc/ABMA", (3, 1), "contact", {after[0]: 0.3, after[1]: 0.1})]
    absolute, within = moves.value_errors(evaluator, decisions)
    # Then the errors are -0.1, +0.1, -0.3, -0.1: RMS sqrt(0.03); within each decision +-0.1
    assert absolute == pytest.approx(np.sqrt(0.03)) and within == pytest.approx(0.1)


def test_race_type_is_gammon_at_stake_when_a_play_is_valued_beyond_one_game(moves):
    decision = moves.Decision("x", (6, 5), "race", {"a": -1.05, "b": -0.99})
    assert moves.race_type(decision) == "gammon at stake"
    assert moves.race_type(moves.Decision("x", (6, 5), "race", {"a": 1.0, "b": -0.2})) == "no gammon at stake"


def test_type_table_splits_race_decisions_by_race_type(moves):
    types = np.array(["no gammon at stake", "gammon at stake"])
    lines = moves.type_table([("a", np.array([0.0, 0.004]))], types, "race").splitlines()
    assert lines[0] == "| race decisions | n | a |"
    assert lines[2].startswith("| gammon at stake | 1 | 4.00") and lines[3].startswith("| no gammon at stake | 1 | 0.00")
