"""Settings kept between sessions (a TOML file, flags over it) and starting from a position (IDs and XGIDs)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gammon.ids import MatchState
from gammon.position import Position
from gammon.position_input import PositionInputError, parse_xgid, read_position
from gammon.settings import Settings, SettingsError, load_settings, settings_path

ROOT = Path(__file__).resolve().parents[1]


def gammon(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gammon", *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, input=stdin, env={**os.environ, **(env or {})})


def test_settings_live_in_the_config_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert settings_path() == tmp_path / "gammon" / "settings.toml"
    monkeypatch.setenv("GAMMON_SETTINGS", str(tmp_path / "mine.toml"))
    assert settings_path() == tmp_path / "mine.toml"


def test_no_settings_file_gives_the_defaults(tmp_path):
    assert load_settings(tmp_path / "none.toml") == Settings()


def test_settings_are_read_and_flags_override_them(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text('opponent = "level2"\nname = "ann"\ncolor = false\nguide = true\nauto_confirm = true\n')
    settings = load_settings(path)
    assert (settings.opponent, settings.name, settings.color, settings.guide, settings.auto_confirm) == \
        ("level2", "ann", False, True, True)
    assert settings.override(name="bob", guide=None).name == "bob"
    assert settings.override(name="bob", guide=None).guide is True


@pytest.mark.parametrize("text, why", [
    ("name = ann", "cannot read settings file"),
    ("colour = true", "unknown setting 'colour'"),
    ("guide = 1", "setting 'guide'"),
])
def test_a_bad_settings_file_is_an_error_naming_the_file(tmp_path, text, why):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    with pytest.raises(SettingsError) as error:
        load_settings(path)
    assert why in str(error.value) and str(path) in str(error.value)


def test_a_bad_settings_file_stops_gammon_play_with_one_line(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text("guide = maybe\n")
    done = gammon("play", env={"GAMMON_SETTINGS": str(path)})
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"gammon play: error: cannot read settings file {path}")


def test_the_settings_choose_the_opponent_and_name(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text('opponent = "random"\nname = "ann"\nauto_confirm = true\n')
    done = gammon("play", "--match", "1", "--seed", "3", "--no-hint", stdin="quit\ny\n",
                  env={"GAMMON_SETTINGS": str(path)})
    assert done.returncode == 0, done.stderr
    assert " ann against random: a 1-point match." in done.stdout
    done = gammon("play", "--match", "1", "--seed", "3", "--no-hint", "--name", "bob", "--opponent", "level1",
                  stdin="quit\ny\n", env={"GAMMON_SETTINGS": str(path)})
    assert " bob against level1: a 1-point match." in done.stdout


# -- positions -----------------------------------------------------------------------------------

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_a_position_id_a_pair_and_an_xgid_are_read_by_one_function():
    assert read_position("4HPwATDgc/ABMA") == (Position.initial(), None)
    position, state = read_position("4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert position == Position.initial() and state == MatchState.from_match_id("cAkAAAAAAAAA")
    position, state = read_position(START_XGID)
    assert position == Position.initial() and state.match_length == 0 and state.cube == 1


def test_an_xgid_matches_gnubg_position():
    # X (bottom) played 8/5 6/5; O to roll 3-1, cube 2 owned by O, 7-point match at 2-1 (gnubg: sGfwATDgc/ABMA).
    position, state = parse_xgid("XGID=-b---BD-B---eE---c-e----B-:1:-1:-1:31:2:1:0:7:10")
    assert position.position_id() == "sGfwATDgc/ABMA"
    assert (state.player_on_roll, state.cube, state.cube_owner, state.dice, state.score, state.match_length) == \
        (1, 2, 1, (3, 1), (2, 1), 7)


@pytest.mark.parametrize("text", ["XGID=zz", "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",
                                  "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10", "nonsense", ""])
def test_a_bad_position_is_an_error_naming_it(text):
    with pytest.raises((PositionInputError, ValueError)) as error:
        read_position(text)
    assert repr(text) in str(error.value) or not text


def test_gammon_board_reads_an_xgid():
    done = gammon("board", "XGID=-b---BD-B---eE---c-e----B-:1:-1:-1:31:2:1:0:7:10")
    assert done.returncode == 0, done.stderr
    assert "Position ID: sGfwATDgc/ABMA" in done.stdout and "legal plays of 3-1" in done.stdout
    assert "7-point match, score 2-1" in done.stdout


def test_play_starts_from_a_position():
    # Given a bear-off race (you on roll, 1-point match), when I start there, the board is that position.
    position = Position.from_checkers({1: 2}, {24: 2, 23: 1})
    done = gammon("play", "--opponent", "random", "--match", "1", "--seed", "2", "--no-hint", "--auto-confirm",
                  "--position", position.position_id(), stdin="1\n" * 5 + "\n" * 5)
    assert done.returncode == 0, done.stderr
    assert f"Position ID: {position.position_id()}" in done.stdout
    assert "Final score:" in done.stdout and "1 game)" in done.stdout


def test_play_starts_from_an_xgid_with_its_match_state():
    # The XGID's 7-point match at 2-1 with 5-2 rolled, when --match does not say otherwise.
    done = gammon("play", "--opponent", "random", "--seed", "2", "--no-hint",
                  "--position", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:2:1:0:7:10", stdin="quit\ny\n")
    assert done.returncode == 0, done.stderr
    assert "you, move 5-2: " in done.stdout and "2 points" in done.stdout and "7-point match" in done.stdout


def test_play_with_a_bad_position_is_a_one_line_error():
    done = gammon("play", "--opponent", "random", "--position", "XGID=zz")
    assert done.returncode == 2 and done.stderr.startswith("gammon play: error: invalid XGID 'XGID=zz'")
