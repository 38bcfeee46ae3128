"""gammon.bearoff: the one-sided bear-off database, its file, bear-off races, and GNU Backgammon's tables as the oracle."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from gammon import Position
from gammon.bearoff import Database, NotBearoffError, index_position, is_bearoff, kernels, position_index, positions
from gammon.bearoff.store import SCALE, CorruptDatabaseError, build, load, load_or_build, save
from gammon.cli import main
from gammon.engine.analysis import ROLLS

needs_gnubg = pytest.mark.skipif(importlib.util.find_spec("gnubg_nn") is None, reason="needs the gnubg extra (gnubg-nn)")
UNIT = 1.0 / SCALE


@pytest.fixture(scope="session")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("gammon-cache")


@pytest.fixture(scope="session")
def db(cache) -> Database:
    return Database.load(cache / "bearoff-one-sided.npz")


def race(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    """A pure bear-off board: ``mine`` on the on-roll side's points 1-6, ``theirs`` on the opponent's own points 1-6."""
    return Position.from_checkers(mine, {25 - p: n for p, n in theirs.items()}).board


def index(counts: dict[int, int]) -> int:
    return position_index([counts.get(p, 0) for p in range(1, 7)])


def board_of(a: int, b: int) -> np.ndarray:
    board = np.zeros(26, np.int8)
    board[1:7] = kernels.unrank(a)
    board[24:18:-1] = -kernels.unrank(b)
    return board


def random_races(n: int, seed: int) -> np.ndarray:
    """``n`` pure bear-off boards, a third of the sides with all 15 checkers left (gammon chances)."""
    rng = np.random.default_rng(seed)
    full = positions(14)
    sides = rng.integers(1, positions(), (n, 2))
    fifteen = rng.random((n, 2)) < 1 / 3
    sides[fifteen] = rng.integers(full, positions(), int(fifteen.sum()))
    return np.array([board_of(a, b) for a, b in sides])


# -- the index -----------------------------------------------------------------------


def test_every_index_is_the_position_it_names():
    for i in range(positions()):
        assert kernels.rank(kernels.unrank(i)) == i


def test_index_orders_by_checkers_then_by_points():
    assert index_position(0) == (0,) * 6
    assert [index_position(i) for i in (1, 6, 7, 8, 27, 28)] == [
        (1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1), (2, 0, 0, 0, 0, 0), (1, 1, 0, 0, 0, 0), (0, 0, 0, 0, 0, 2), (3, 0, 0, 0, 0, 0),
    ]
    assert position_index((0, 0, 0, 0, 0, 15)) == positions() - 1 == 54263


def test_bad_home_boards_are_one_line_errors():
    with pytest.raises(ValueError, match="invalid home board"):
        position_index((16, 0, 0, 0, 0, 0))
    with pytest.raises(ValueError, match="invalid bear-off index 54264"):
        index_position(54264)


# -- one side: the rules in the distributions --------------------------------------------------


def test_an_empty_side_needs_no_rolls(db):
    assert db.distribution(0)[0] == 1.0 and db.mean(0) == 0.0


def test_one_checker_on_the_ace_point_bears_off_in_one_roll(db):
    assert db.distribution(index({1: 1}))[1] == 1.0 and db.mean(index({1: 1})) == 1.0


def test_one_checker_on_the_six_point_bears_off_at_once_with_six_pips_or_a_higher_die_from_the_top(db):
    """Every roll of 6 pips or more carries it off (a higher die may bear off from the highest point); 1-1 (4 pips) does not."""
    at_once = sum(w for (hi, lo), w in ROLLS if (4 * hi if hi == lo else hi + lo) >= 6) / 36
    d = db.distribution(index({6: 1}))
    assert d[1] == pytest.approx(at_once, abs=UNIT) and d[1] + d[2] == pytest.approx(1.0, abs=UNIT)
    assert db.mean(index({6: 1})) == pytest.approx(1 + (1 - at_once), abs=1e-6)


def test_two_checkers_on_the_six_point_come_off_in_one_roll_only_with_a_double_of_three_or_more(db):
    d = db.distribution(index({6: 2}))
    assert d[1] == pytest.approx(4 / 36, abs=UNIT)  # 3-3, 4-4, 5-5, 6-6


def test_fifteen_checkers_need_at_least_four_rolls_and_at_most_thirty(db):
    d = db.distribution(index({6: 15}))
    assert d[:4].sum() == 0.0  # four 6-6 rolls would be 6.0e-7 < half a unit
    assert db.tables.off[:, 31].max() == 0 and db.tables.first[:, 31].max() == 0


def test_a_side_with_a_checker_off_has_its_first_checker_off_already(db):
    i = index({6: 14})
    assert db.first_distribution(i)[0] == 1.0 and db.mean_first(i) == 0.0


def test_fifteen_on_the_six_point_get_a_first_checker_off_at_once_with_a_six_or_5_1_4_2_3_3_2_2(db):
    """With checkers on the six point, a lower point bears off only with its exact die: 17 rolls of 36 carry one off."""
    assert db.first_distribution(index({6: 15}))[1] == pytest.approx(17 / 36, abs=UNIT)


def test_distributions_sum_to_one_and_the_means_are_theirs(db):
    t = np.arange(kernels.ROLLS)
    for table, mean in ((db.tables.off, db.tables.mean_off), (db.tables.first, db.tables.mean_first)):
        p = table.astype(np.float64) * UNIT
        assert np.abs(p.sum(axis=1) - 1).max() < 16 * UNIT
        assert np.abs((p * t).sum(axis=1) - mean).max() < 1e-3


def test_each_roll_is_played_to_the_smallest_mean():
    """The mean of every position is one roll plus the weighted best mean among the results of each roll."""
    from gammon.engine.movegen import generate

    off, _, mean, _ = kernels.build_tables(positions(5))
    rng = np.random.default_rng(5)
    for i in rng.integers(1, positions(5), 40):
        board = np.zeros(26, np.int8)
        board[1:7] = kernels.unrank(i)
        expected = 1.0
        for (hi, lo), w in ROLLS:
            after = generate(board, hi, lo)[0]
            expected += w / 36 * min(mean[kernels.rank(-after[k, 24:18:-1].astype(np.int64))] for k in range(len(after)))
        assert mean[i] == pytest.approx(expected, abs=1e-12)


# -- two sides: bear-off races ---------------------------------------------------------------


def test_only_boards_with_both_sides_home_and_nobody_on_the_bar_are_bear_offs(db):
    assert is_bearoff(race({1: 2, 6: 3}, {2: 4}))
    assert not is_bearoff(Position.initial().board)
    assert not is_bearoff(Position.from_checkers({7: 1}, {24: 1}).board)
    assert not is_bearoff(Position.from_checkers({1: 1}, {0: 1}).board)
    with pytest.raises(NotBearoffError, match="not a pure bear-off"):
        db.race(Position.initial().board)


def test_the_side_on_roll_wins_when_both_need_the_same_rolls(db):
    assert db.race(race({1: 1}, {1: 1})).tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]


def test_one_checker_each_the_side_on_roll_wins_if_it_bears_off_at_once(db):
    at_once = db.distribution(index({6: 1}))[1]
    assert db.race(race({6: 1}, {1: 1}))[0] == pytest.approx(at_once, abs=1e-12)


def test_a_side_with_nothing_off_against_one_roll_to_go_is_gammoned_unless_it_gets_a_checker_off_at_once(db):
    p = db.race(race({6: 15}, {1: 1}))
    assert p[0] == 0.0 and p[3] == pytest.approx(19 / 36, abs=2 * UNIT) and p[4] == 0.0


def test_a_side_that_bears_off_before_the_other_moves_wins_a_gammon_from_fifteen_checkers(db):
    assert db.race(race({1: 1}, {6: 15})).tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]


def test_backgammons_are_impossible_and_the_probabilities_are_consistent(db):
    p, ok = db.race_batch(random_races(2000, seed=3))
    assert ok.all()
    assert (p[:, 2] == 0).all() and (p[:, 4] == 0).all()
    assert (p[:, 1] <= p[:, 0]).all() and (p[:, 3] <= 1 - p[:, 0]).all()
    assert ((p[:, 1] > 0) | (p[:, 3] > 0)).any()


def test_the_batch_marks_boards_that_are_not_bear_offs(db):
    p, ok = db.race_batch(np.stack([race({1: 1}, {1: 1}), Position.initial().board]))
    assert ok.tolist() == [True, False] and np.isnan(p[1]).all() and p[0, 0] == 1.0


def test_mean_rolls_per_side(db):
    assert db.mean_rolls(race({1: 1}, {6: 2})) == (1.0, db.mean(index({6: 2})))


# -- GNU Backgammon as the oracle ---------------------------------------------------------------


@pytest.fixture(scope="module")
def gnubg():
    import gnubg_nn

    return gnubg_nn


def gnubg_distribution(gnubg, i: int) -> np.ndarray:
    """``gnubg_nn.bearoff_probabilities(i)``: P(1 roll), P(2 rolls), ... trailing zeros dropped; shifted to start at 0 rolls."""
    d = np.zeros(kernels.ROLLS)
    p = gnubg.bearoff_probabilities(i)
    d[1 : 1 + len(p)] = p
    return d


def gnubg_race(gnubg, boards: np.ndarray) -> np.ndarray:
    from gammon.bots.external import gnubg_boards

    p = np.array([gnubg.probabilities(b, gnubg.p_1sbear) for b in gnubg_boards(boards).tolist()])
    assert ((p >= 0) & (p <= 1)).all(), "gnubg_nn's p_1sbear gave a value outside [0, 1]"
    return p


@needs_gnubg
def test_the_index_is_gnubgs(gnubg):
    for i in range(1, positions()):  # gnubg_nn refuses 0, the empty position
        assert tuple(kernels.unrank(i)) == gnubg.bearoff_id_2_pos(i)


@needs_gnubg
def test_expected_rolls_agree_with_gnubg_on_every_position(db, gnubg):
    """Means agree to gnubg's uint16 precision: median 2.4e-5, at most 2.0e-4 rolls (gnubg builds from rounded tables)."""
    t = np.arange(kernels.ROLLS)
    theirs = np.array([gnubg_distribution(gnubg, i) for i in range(1, positions())])
    diff = np.abs((theirs * t).sum(axis=1) - db.tables.mean_off[1:])
    assert np.median(diff) < 5e-5 and diff.max() < 3e-4
    units = np.abs(np.rint(theirs * SCALE) - db.tables.off[1:]).max(axis=1)
    assert np.mean(units <= 2) > 0.98  # the rest are near-ties between plays


@needs_gnubg
def test_the_race_formula_is_gnubgs_one_sided_evaluation(gnubg):
    """Given gnubg's own distributions, our win chance is gnubg's 1-sided bear-off evaluation (``p_1sbear``)."""
    rng = np.random.default_rng(7)
    pairs = rng.integers(1, positions(14), (300, 2))
    off = np.array([gnubg_distribution(gnubg, int(i)) for i in pairs.ravel()])
    first = np.zeros_like(off)
    first[:, 0] = 1.0
    ours = np.empty(5)
    theirs = gnubg_race(gnubg, np.array([board_of(a, b) for a, b in pairs]))
    for k in range(len(pairs)):
        kernels.race_into(off, first, 2 * k, 2 * k + 1, ours)
        assert ours[0] == pytest.approx(theirs[k, 0], abs=1e-6)


@needs_gnubg
def test_race_probabilities_agree_with_gnubg_on_random_bear_offs(db, gnubg):
    boards = random_races(2000, seed=11)
    ours, ok = db.race_batch(boards)
    diff = np.abs(ours - gnubg_race(gnubg, boards))
    assert ok.all()
    assert diff[:, 0].max() < 5e-4 and np.median(diff[:, 0]) < 3e-5  # seen: 2.1e-4, 8.8e-6
    assert diff[:, [1, 3]].max() < 2e-4  # seen: 7.2e-5
    assert diff[:, [2, 4]].max() == 0.0


@needs_gnubg
@pytest.mark.parametrize(
    "mine, theirs",
    [
        ({6: 3, 5: 3, 4: 2, 3: 2}, {6: 3, 5: 3, 4: 3}),
        ({6: 15}, {1: 1}),
        ({1: 2}, {6: 2, 1: 1}),
        ({6: 5, 5: 5, 4: 5}, {6: 4, 5: 4, 4: 4, 3: 3}),
        ({2: 2, 1: 2}, {6: 1}),
    ],
)
def test_literal_races_agree_with_gnubg(db, gnubg, mine, theirs):
    board = race(mine, theirs)
    assert db.race(board) == pytest.approx(gnubg_race(gnubg, board[None])[0], abs=2e-4)


@needs_gnubg
def test_the_oracle_p_1sbear_is_nonsense_for_one_checker_on_the_ace_against_a_small_side(db, gnubg):
    """A flaw of the oracle, kept visible: gnubg_nn's 1-sided evaluation says win = 4295098368 here; its p_bearoff and we say 1."""
    from gammon.bots.external import gnubg_boards

    board = race({1: 1}, {6: 2})
    g = gnubg_boards(board[None]).tolist()[0]
    assert gnubg.probabilities(g, gnubg.p_1sbear)[0] > 1
    assert gnubg.probabilities(g, gnubg.p_bearoff)[0] == 1.0 == db.race(board)[0]


# -- the file --------------------------------------------------------------------------------------


def test_the_database_file_survives_a_round_trip(tmp_path, db, cache):
    again = load(cache / "bearoff-one-sided.npz")
    for name in ("off", "first", "mean_off", "mean_first"):
        assert np.array_equal(getattr(again, name), getattr(db.tables, name))
    small = build(checkers=4)
    save(small, tmp_path / "small.npz")
    assert load(tmp_path / "small.npz", checkers=4).digest() == small.digest()
    assert [p.name for p in tmp_path.iterdir()] == ["small.npz"]  # no temporary file left behind


def _truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _garble(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def _other_version(path):
    with np.load(path) as f:
        arrays = dict(f)
    header = json.loads(str(arrays["header"]))
    header["version"] = 0
    arrays["header"] = np.array(json.dumps(header))
    np.savez(path, **arrays)


def _wrong_checksum(path):
    with np.load(path) as f:
        arrays = dict(f)
    arrays["off"][3, 1] ^= 1
    np.savez(path, **arrays)


@pytest.mark.parametrize("damage", [_truncate, _garble, _other_version, _wrong_checksum, lambda p: p.write_text("junk")])
def test_a_corrupt_truncated_or_other_version_file_is_rebuilt_with_a_one_line_note(tmp_path, capsys, damage):
    path = tmp_path / "bearoff.npz"
    good = build(checkers=4)
    save(good, path)
    damage(path)
    with pytest.raises(CorruptDatabaseError):
        load(path, checkers=4)
    rebuilt = load_or_build(path, checkers=4)
    note = capsys.readouterr().err
    assert note.count("\n") == 1 and "rebuilding" in note
    assert rebuilt.digest() == good.digest() == load(path, checkers=4).digest()


def test_a_database_of_another_size_is_not_taken_for_this_one(tmp_path):
    save(build(checkers=3), tmp_path / "b.npz")
    with pytest.raises(CorruptDatabaseError, match="another layout"):
        load(tmp_path / "b.npz", checkers=4)
    assert zipfile.is_zipfile(tmp_path / "b.npz")


def test_importing_the_module_touches_no_file(tmp_path):
    env = {**os.environ, "GAMMON_CACHE_DIR": str(tmp_path / "cache")}
    subprocess.run([sys.executable, "-c", "import gammon.bearoff, gammon.cli.bearoff"], env=env, check=True)
    assert not (tmp_path / "cache").exists()


# -- the command ------------------------------------------------------------------------------------


def test_bearoff_show_prints_both_sides_and_the_race(db, cache, monkeypatch, capsys):
    monkeypatch.setenv("GAMMON_CACHE_DIR", str(cache))
    position_id = Position(race({6: 3, 5: 3, 4: 2, 3: 2}, {6: 3, 5: 3, 4: 3})).position_id()
    assert main(["bearoff", "show", position_id]) == 0
    out = capsys.readouterr().out
    assert "on roll:  6.6189 rolls" in out and "opponent:  6.3393 rolls" in out and "win 0.5571" in out


def test_bearoff_show_of_a_contact_position_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GAMMON_CACHE_DIR", str(tmp_path))  # no database there yet
    assert main(["bearoff", "show", Position.initial().position_id()]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a pure bear-off" in err
    assert not list(tmp_path.iterdir())  # the input is refused before the database is built


def test_bearoff_build_reuses_a_sound_file(db, cache, monkeypatch, capsys):
    monkeypatch.setenv("GAMMON_CACHE_DIR", str(cache))
    assert main(["bearoff", "build"]) == 0
    assert "54264 positions" in capsys.readouterr().out
