"""Nothing lost: every match autosaved after each action, resumed exactly after a killed process; quit asks first."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import pytest

from gammon.tui.saves import SaveError, latest_unfinished, read_save, saves_dir
from support import PROMPT, ROOT, play_turns, spawn

pexpect = pytest.importorskip("pexpect")


@pytest.mark.parametrize("seeded", [True, False])
def test_resume_after_a_killed_process_continues_exactly(seeded):
    # Given a match in progress, when the process is killed at a move prompt,
    # then --resume shows the same position and the same dice at the same prompt.
    seed = ["--seed", "5"] if seeded else []
    child = spawn("play", "--opponent", "level1", "--no-hint", "--no-color", *seed)
    prompt, position_id = play_turns(child, 3)
    child.kill(signal.SIGKILL)
    child.close()
    path = latest_unfinished()
    saved = read_save(path)
    assert not saved.finished and saved.actions and saved.rolls_used == len(saved.rolls)
    assert (saved.setup.seed == 5) is seeded
    again = spawn("play", "--resume", "--no-color")
    again.expect_exact(f"Resuming you against level1 from {path}")
    again.expect(PROMPT)
    assert again.after == prompt
    assert again.before.rsplit("Position ID: ", 1)[1].split()[0] == position_id
    again.sendline("1")
    again.expect(PROMPT)  # the game goes on from there
    again.kill(signal.SIGKILL)
    again.close()
    assert len(read_save(path).actions) >= len(saved.actions)


def test_a_killed_process_cannot_roll_the_opening_again():
    # Given system dice and a game that the human opens (the opening roll is theirs to play at once),
    # when the process is killed at that first move prompt, then --resume shows the same opening roll.
    for _ in range(12):  # who opens is the dice's choice: try until it is the human
        child = spawn("play", "--opponent", "level1", "--no-hint", "--no-color")
        child.expect(PROMPT)
        if child.after.startswith("you, move") and "you to play" in child.before:
            break
        child.kill(signal.SIGKILL)
        child.close()
    else:
        pytest.fail("the human never won the opening roll in 12 games")
    prompt, position_id = child.after, child.before.rsplit("Position ID: ", 1)[1].split()[0]
    child.kill(signal.SIGKILL)
    child.close()
    again = spawn("play", "--resume", "--no-color")
    again.expect(PROMPT)
    assert again.after == prompt
    assert again.before.rsplit("Position ID: ", 1)[1].split()[0] == position_id
    again.kill(signal.SIGKILL)
    again.close()


def test_quit_asks_and_says_where_the_match_is_saved():
    child = spawn("play", "--opponent", "level1", "--no-hint", "--no-color", "--seed", "2")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(r"Stop playing\? The match is saved in (\S+): 'gammon play --resume' continues it\. \[y/N\] ")
    where = child.match.group(1)
    child.sendline("n")
    child.expect_exact("Playing on.")
    child.expect(PROMPT)
    child.sendcontrol("c")
    child.expect_exact("Stop playing?")
    child.sendline("y")
    child.expect_exact("Match stopped.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert Path(where).parent == saves_dir() and not read_save(Path(where)).finished


def test_resume_of_nothing_or_of_a_bad_file_is_a_one_line_error(tmp_path):
    import subprocess

    done = subprocess.run([sys.executable, "-m", "gammon", "play", "--resume"], capture_output=True, text=True,
                          cwd=ROOT, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2 and done.stderr.startswith("gammon play: error: no unfinished match to resume in ")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    done = subprocess.run([sys.executable, "-m", "gammon", "play", "--resume", str(bad)], capture_output=True,
                          text=True, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"gammon play: error: cannot resume {bad}: not a readable gammon save")


def test_resume_with_setup_flags_is_a_one_line_error():
    import subprocess

    done = subprocess.run([sys.executable, "-m", "gammon", "play", "--resume", "--opponent", "td", "--seed", "3"],
                          capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2 and done.stderr == \
        "gammon play: error: --resume continues the match as it was set up: not with --opponent, --seed\n"


def test_a_finished_match_is_not_resumed(tmp_path):
    path = tmp_path / "done.json"
    path.write_text(json.dumps({"version": 1, "setup": {}, "rolls": [], "rolls_used": 0, "actions": [],
                                "finished": True}))
    assert read_save(path).finished
    with pytest.raises(SaveError):
        latest_unfinished(tmp_path)
