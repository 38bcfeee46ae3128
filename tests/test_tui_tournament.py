"""A tournament loses nothing either: autosaved after each action, resumed exactly (the round, the dice, the bots,
then the later rounds) after a quit or a killed process; bad resume files are one-line errors."""

from __future__ import annotations

import io
import json
import signal
from pathlib import Path

import pytest

from gammon.cli import main
from gammon.cli.tournament import play_tournament, resume_tournament
from gammon.dice import SeededDice
from gammon.match import QuitMatch
from gammon.tui.saves import latest_unfinished, read_save, saves_dir
from support import PROMPT, play_turns, spawn

pexpect = pytest.importorskip("pexpect")
NO_COLOR = {"NO_COLOR": "1"}
LEVEL1 = ["--opponents", "level1", "level1", "level1", "level1", "--lengths", "1", "1", "1", "1"]


class Plays:
    """Deterministic: the first legal play, never doubles, takes, accepts any resignation.

    With ``tires_after`` it resigns a single once it has moved that many times in the game (counted from what it
    observes, so a replayed game counts the same); with ``quit_at`` it quits at that call of ``choose_play``.
    """

    def __init__(self, name, tires_after=None, quit_at=None):
        self.name, self.tires_after, self.quit_at = name, tires_after, quit_at
        self.moved = self.asked = 0
        self.seat = None

    def choose_play(self, position, dice):
        self.asked += 1
        if self.asked == self.quit_at:
            raise QuitMatch("quit")
        return position.legal_plays(dice)[0]

    def offer_double(self, position, cube):
        return False

    def accept_double(self, position, cube):
        return True

    def accept_resignation(self, position, value, cube):
        return True

    def offer_resignation(self, position, cube):
        return 1 if self.tires_after is not None and self.moved >= self.tires_after else 0

    def observe(self, action, table):
        if action.kind == "start":
            self.moved, self.seat = 0, table.names.index(self.name)
        elif action.kind == "move" and action.player == self.seat:
            self.moved += 1


def opponents():
    return [Plays(f"bot{i}", tires_after=4 + i) for i in range(4)]


def actions(record):
    return [a for g in record.games for a in g.actions]


def test_a_resumed_tournament_goes_on_exactly_as_if_it_had_never_stopped():
    # Given a seeded tournament played through, and the same one quit in the second round,
    # when the quit one is resumed, then its second round and the later ones are played exactly the same.
    lengths = (1, 3, 1, 2)
    whole = play_tournament(Plays("you"), opponents(), SeededDice(7), io.StringIO(), lengths=lengths, seed=7)
    assert len(whole) == 4 and all(r.winner == 0 for r in whole)
    first_round_moves = sum(a.kind == "move" and a.player == 0 for a in actions(whole[0]))
    out = io.StringIO()
    stopped = play_tournament(Plays("you", quit_at=first_round_moves + 6), opponents(), SeededDice(7), out,
                              lengths=lengths, seed=7, specs=["b0", "b1", "b2", "b3"])
    assert len(stopped) == 2 and not stopped[1].finished
    path = latest_unfinished(tournament=True)
    assert f"The tournament is saved in {path}: 'gammon tournament --resume' continues it." in out.getvalue()
    saved = read_save(path)
    state = saved.tournament
    assert not saved.finished and state.round == 1 and state.results == [[1, 0]]
    assert state.opponents == ["b0", "b1", "b2", "b3"] and state.lengths == list(lengths)
    # the first turn of a game moves with the opening throw: every other turn rolls
    assert state.rolls_before == sum(len(g.opening) - 1 + sum(a.kind == "roll" for a in g.actions) for g in whole[0].games)
    assert saved.actions == actions(stopped[1]) and saved.setup.opponent == "b1" and saved.setup.match_length == 3

    out = io.StringIO()
    resumed = resume_tournament(saved, Plays("you"), opponents(), out)
    assert [actions(r) for r in resumed] == [actions(r) for r in whole[1:]]
    assert out.getvalue().rstrip().endswith("Tournament won by you!")
    assert "Round 1" not in out.getvalue() and "=== Round 2: a 3-point match against bot1 ===" in out.getvalue()
    done = read_save(path)
    assert done.finished and done.tournament.won and done.tournament.results == [list(r.score) for r in whole]
    assert sorted(p.name for p in Path(state.folder).iterdir()) == [f"round-{n}.mat" for n in (1, 2, 3, 4)]


def test_a_tournament_lost_is_over_and_not_resumed():
    out = io.StringIO()
    records = play_tournament(Plays("you", tires_after=0), opponents(), SeededDice(3), out, lengths=(1, 1, 1, 1))
    assert len(records) == 1 and records[0].winner == 1 and "bot0 knocks you out in Round 1." in out.getvalue()
    with pytest.raises(Exception, match="no unfinished tournament to resume in "):
        latest_unfinished(tournament=True)


# -- the command, in a terminal ---------------------------------------------------------


@pytest.mark.parametrize("seeded", [True, False])
def test_tournament_resume_after_a_killed_process_continues_the_round_exactly(seeded):
    # Given a tournament round in progress, when the process is killed at a move prompt,
    # then --resume shows the same round, position and dice at the same prompt.
    seed = ["--seed", "5"] if seeded else []
    child = spawn("tournament", *LEVEL1, *seed, env=NO_COLOR)
    prompt, position_id = play_turns(child, 3)
    child.kill(signal.SIGKILL)
    child.close()
    path = latest_unfinished(tournament=True)
    saved = read_save(path)
    assert not saved.finished and saved.actions and saved.tournament.round == 0
    assert (saved.setup.seed == 5) is seeded and saved.tournament.opponents == ["level1"] * 4
    again = spawn("tournament", "--resume", env=NO_COLOR)
    again.expect_exact(f"Resuming the tournament from {path}: Round 1, {len(saved.actions)} actions so far.")
    again.expect_exact("=== Round 1: a 1-point match against level1 ===")
    again.expect(PROMPT)
    assert again.after == prompt
    assert again.before.rsplit("Position ID: ", 1)[1].split()[0] == position_id
    again.sendline("1")
    play_turns(again, 0)  # the round goes on from there, and is saved as it goes
    again.kill(signal.SIGKILL)
    again.close()
    assert len(read_save(path).actions) > len(saved.actions)


def test_quitting_a_tournament_asks_and_says_where_it_is_saved_and_how_to_resume():
    child = spawn("tournament", *LEVEL1, "--seed", "2", env=NO_COLOR)
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(r"Stop playing\? The tournament is saved in (\S+): 'gammon tournament --resume' continues it\. "
                 r"\[y/N\] ")
    where = child.match.group(1)
    child.sendline("y")
    child.expect_exact("Match stopped.")
    child.expect_exact(f"The tournament is saved in {where}: 'gammon tournament --resume' continues it.")
    child.expect_exact("Tournament stopped.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = read_save(Path(where))
    assert Path(where).parent == saves_dir() and not saved.finished and saved.tournament.round == 0


# -- bad resumes: one line, naming the file ------------------------------------------------


def one_line_error(capsys, *args: str) -> str:
    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    return err.rstrip("\n")


def save_file(tmp_path: Path, name: str, **fields) -> Path:
    data = {"version": 1, "setup": {}, "rolls": [], "rolls_used": 0, "actions": [], "finished": False, **fields}
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_resuming_no_tournament_or_a_bad_file_is_a_one_line_error(capsys, tmp_path):
    assert one_line_error(capsys, "tournament", "--resume").startswith(
        "gammon tournament: error: no unfinished tournament to resume in ")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert one_line_error(capsys, "tournament", "--resume", str(bad)).startswith(
        f"gammon tournament: error: cannot resume {bad}: not a readable gammon save")
    lopsided = save_file(tmp_path, "lopsided.json", tournament={"opponents": ["level1"], "lengths": [1, 3]})
    assert one_line_error(capsys, "tournament", "--resume", str(lopsided)).startswith(
        f"gammon tournament: error: cannot resume {lopsided}: not a readable gammon save")
    match = save_file(tmp_path, "match.json")
    assert one_line_error(capsys, "tournament", "--resume", str(match)) == (
        f"gammon tournament: error: {match} is a match, not a tournament: 'gammon play --resume {match}' continues it")
    over = save_file(tmp_path, "over.json", finished=True,
                     tournament={"opponents": ["level1"] * 2, "lengths": [1, 1], "results": [[0, 1]]})
    assert one_line_error(capsys, "tournament", "--resume", str(over)) == (
        f"gammon tournament: error: the tournament in {over} is over: there is nothing to resume")
    going = save_file(tmp_path, "going.json", tournament={"opponents": ["level1"] * 2, "lengths": [1, 1]})
    assert one_line_error(capsys, "play", "--resume", str(going)) == (
        f"gammon play: error: {going} is a tournament: 'gammon tournament --resume {going}' continues it")
    assert one_line_error(capsys, "tournament", "--resume", "--seed", "3", "--lengths", "1", "1", "1", "1") == (
        "gammon tournament: error: --resume continues the tournament as it was set up: not with --lengths, --seed")
