"""The terminal game as a person uses it: ``gammon play`` in a pseudo-terminal, ``demo``, ``tournament``,
and the human player's prompts."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gammon.tui.human import HumanBot
from gammon.tui.table import draw_table
from gammon.bots.random_bot import RandomBot
from gammon.tui.session import bot_seed
from gammon.cli.tournament import play_tournament
from gammon.dice import ScriptedDice, SeededDice
from gammon.ids import MatchState
from gammon.match import Match, QuitMatch, Resignation, play_match
from gammon.records import Rules
from gammon.matfile import read_mat
from gammon.position import Position

pexpect = pytest.importorskip("pexpect")

GAMMON = [sys.executable, "-m", "gammon"]
ROOT = Path(__file__).resolve().parents[1]


class FirstPlay:
    """What the terminal tests type: the first play of the 'moves' list, never a double; takes."""

    name = "you"

    def __init__(self, doubles=()):
        self.doubles = list(doubles)

    def choose_play(self, position, dice):
        return position.legal_plays(dice)[0]

    def offer_double(self, position, cube):
        return self.doubles.pop(0) if self.doubles else False

    def accept_double(self, position, cube):
        return True


def spawn(*args: str):
    child = pexpect.spawn(GAMMON[0], GAMMON[1:] + list(args), encoding="utf-8", timeout=60, cwd=str(ROOT),
                          dimensions=(60, 160), env={**os.environ, "PYTHONUNBUFFERED": "1"})
    return child


def expected_final(record) -> str:
    s = record.score
    games = len(record.games)
    return (f"Final score: you {s[0]}, random {s[1]} ({record.rules.describe()}, {games} game{'s' if games != 1 else ''})."
            f" Match won by {record.names[record.winner]}.")


PROMPTS = [r"you, move (\d)-(\d): ", r"you, roll or double\? \[roll\] ", r"Final score: [^\r\n]*", pexpect.EOF,
           r"you, play [^?\r\n]*\? \[Enter = yes, undo = take back\] ", r"you, accept or reject\? "]


def play_to_the_end(child, move, no_double: str) -> str:
    """Answer every prompt of a 1-point match until it ends, each move prompt by ``move(child)``; confirm
    plays, accept a bot's resignation (a race it has lost for certain: the result is the same), fail with
    ``no_double`` if asked to roll or double. Returns the final score line, once gammon exited with 0."""
    while True:
        which = child.expect(PROMPTS)
        if which == 0:
            move(child)
        elif which == 1:
            pytest.fail(no_double)
        elif which == 4:
            child.sendline("")
        elif which == 5:
            child.sendline("accept")
        elif which == 2:
            final = child.after.strip()
            break
        else:
            pytest.fail(f"gammon play ended early:\n{child.before[-3000:]}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return final


def test_play_a_whole_1_point_match_in_a_terminal(tmp_path):
    # Given a seeded 1-point match against the random bot, when I type some illegal and unreadable
    # moves and commands between legal ones, then each is explained, nothing is lost, and the final
    # score is the one the same dice give without the mistakes.
    save = tmp_path / "m.mat"
    child = spawn("play", "--opponent", "random", "--match", "1", "--seed", "7", "--save", str(save))
    mistakes = [
        ("6/off", "6/off: you may bear off only when all your checkers are in your home board"),
        ("xyz", "cannot read play 'xyz'"),
        ("double", "You can double only before you roll"),
        ("take", "There is no offer to answer"),
        ("99", "There is no play number 99"),
        ("resign lots", "Unknown resignation 'lots'"),
    ]
    extras = [("moves", "legal plays of"), ("board", "Match ID"), ("help", "Commands:"),
              # the in-game hint is gammon hint's: the match-winning chance in a match, a depth, bad words refused
              ("hint", "(MWC "), ("hint 1", "td at 1-ply"), ("hint x", "Unknown hint 'x'"),
              ("analyse", "Chequerplay statistics")]
    first_board = child.expect([r"Position ID: \S+", pexpect.EOF])
    assert first_board == 0
    turns = 0

    def move(child) -> None:
        nonlocal turns
        turns += 1
        if mistakes or extras:  # explained, and the same prompt comes back
            entry, reply = (mistakes or extras).pop(0)
            child.sendline(entry)
            child.expect_exact(reply)
        else:
            child.sendline("1")

    final = play_to_the_end(child, move, "the cube is dead in a 1-point match: no double prompt expected")
    assert not mistakes and not extras and turns > 5
    record = play_match(FirstPlay(), RandomBot(seed=bot_seed(7, 1)), 1, SeededDice(7))
    assert final == expected_final(record)
    assert read_mat(save.read_text()).score == record.score


def test_play_a_match_with_a_double_and_a_take_in_a_terminal():
    # A 2-point match: at 0-0 the cube is alive; I double at my first chance, the bot takes,
    # and the game (now worth at least 2) decides the match.
    child = spawn("play", "--opponent", "random", "--match", "2", "--seed", "11", "--no-hint")
    doubled = False
    final = None
    while final is None:
        which = child.expect(PROMPTS)
        if which == 0:
            child.sendline("1")
        elif which == 1:
            assert not doubled, "after my double the bot owns the cube: I may not redouble"
            child.sendline("hint")
            child.expect_exact("No hint bot is available.")
            child.expect(PROMPTS[1])
            child.sendline("double")
            child.expect_exact("random takes")
            doubled = True
        elif which == 4:
            child.sendline("")
        elif which == 5:  # the bot resigns a race it has lost for certain: the result is the same
            child.sendline("accept")
        elif which == 2:
            final = child.after.strip()
        else:
            pytest.fail(f"gammon play ended early:\n{child.before[-3000:]}")
    child.expect(pexpect.EOF)
    assert doubled
    record = play_match(FirstPlay(doubles=[True]), RandomBot(seed=bot_seed(11, 1)), 2, SeededDice(11))
    assert len(record.games) == 1 and record.games[0].cube == 2
    assert final == expected_final(record)


def test_quit_in_a_terminal_stops_with_the_score():
    child = spawn("play", "--opponent", "random", "--match", "0", "--seed", "3", "--no-hint")
    child.expect(PROMPTS[:2])
    child.sendline("quit")
    child.expect_exact("Stop playing? The match is saved in ")
    child.sendline("y")
    child.expect(r"Final score: you 0, random 0 \(money play, 0 games\)\. Match stopped\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_no_cube_plays_a_match_without_ever_offering_the_double():
    # Given --no-cube, the opening line says cubeless, I am never asked "roll or double?",
    # and the match ends as the same dice give with the cube off.
    child = spawn("play", "--opponent", "random", "--match", "1", "--seed", "7", "--no-hint", "--no-cube")
    child.expect_exact("you against random: a 1-point match (cubeless).")
    final = play_to_the_end(child, lambda child: child.sendline("1"), "asked to roll or double with the cube off")
    record = play_match(FirstPlay(), RandomBot(seed=bot_seed(7, 1)), 1, SeededDice(7), cube=False)
    assert final == expected_final(record)


def test_jacoby_and_beavers_make_a_money_session_that_says_so():
    child = spawn("play", "--opponent", "random", "--jacoby", "--beavers", "--seed", "3", "--no-hint")
    child.expect_exact("you against random: a money session (Jacoby rule, beavers).")
    child.expect(PROMPTS[:2])
    child.sendline("quit")
    child.sendline("y")
    child.expect(r"Final score: you 0, random 0 \(money play, Jacoby rule, beavers, 0 games\)\. Match stopped\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_search_depth_for_the_default_opponent_plays_td_at_that_depth():
    child = spawn("play", "--plies", "1", "--match", "1", "--seed", "3", "--no-hint")
    child.expect_exact("you against td-1ply (td): a 1-point match.")
    child.expect(PROMPTS[:2])
    child.sendline("quit")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_two_players_share_one_terminal():
    # Both people type "1" (the first listed play) every turn; no bot is loaded.
    done = subprocess.run(GAMMON + ["play", "--two-player", "--match", "1", "--seed", "4", "--no-hint"],
                          input="1\n\n" * 400, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "player 1, move" in done.stdout and "player 2, move" in done.stdout
    final = next(line for line in done.stdout.splitlines() if line.startswith(" Final score: "))
    assert final.startswith(" Final score: player 1 ") and "Match won by player" in final
    assert done.stdout.strip().splitlines()[-1].startswith(" How well did you play? gammon analyse ")


def test_demo_with_no_delay_runs_straight_through(tmp_path):
    save = tmp_path / "demo.mat"
    done = subprocess.run(
        GAMMON + ["demo", "--players", "random", "random", "--match", "3", "--delay", "0", "--seed", "1",
                  "--save", str(save)],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == " random (1) (X) against random (2) (O): 3-point match."
    assert sum("Position ID" in line for line in lines) > 20
    final = [line for line in lines if line.startswith(" Final score")]
    assert final and final[0].endswith("Match won by random (1).") or final[0].endswith("Match won by random (2).")
    assert read_mat(save.read_text()).finished


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--opponent", "nosuchbot"], "gammon play: error: unknown bot 'nosuchbot'"),
        (["play", "--two-player", "--opponent", "random"], "gammon play: error: --two-player and --opponent"),
        (["play", "--opponent", "random", "--save", "/no/such/dir/m.mat"], "gammon play: error: cannot save to"),
        (["play", "--opponent", "random", "--plies", "2"], "gammon play: error: --plies 2: random has no search"),
        (["play", "--opponent", "level3", "--plies", "2"], "gammon play: error: --plies 2: level3 has no search"),
        (["play", "--plies", "5"], "gammon play: error: invalid --plies 5: expected a search depth of 0, 1 or 2"),
        (["play", "--opponent", "td", "--plies", "-1"], "gammon play: error: invalid --plies -1"),
        (["play", "--jacoby", "--match", "5"], "gammon play: error: --jacoby is for money play, not a 5-point match"),
        (["play", "--beavers", "--match", "3"], "gammon play: error: --beavers is for money play, not a 3-point match"),
        (["play", "--jacoby", "--no-cube"], "gammon play: error: --jacoby is a rule of the cube: not with --no-cube"),
        (["demo", "--plies", "3"], "gammon demo: error: invalid --plies 3"),
        (["demo", "--players", "level3", "random", "--plies", "1"], "gammon demo: error: --plies 1: neither level3 nor random"),
        (["demo", "--delay", "-1", "--players", "random", "random"], "gammon demo: error: invalid delay"),
        (["demo", "--match", "-3"], "gammon demo: error: invalid match length -3"),
        (["tournament", "--lengths", "5", "7", "0", "15"], "gammon tournament: error: invalid match lengths"),
    ],
)
def test_bad_input_is_a_one_line_error(args, message):
    done = subprocess.run(GAMMON + args, capture_output=True, text=True, timeout=60, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(message), done.stderr


# -- the tournament ----------------------------------------------------------------------


class Resigns(FirstPlay):
    """Resigns a single game at every turn; accepts any resignation."""

    def __init__(self, name, resign=True):
        super().__init__()
        self.name = name
        self.resign = resign

    def offer_resignation(self, position, cube):
        return 1 if self.resign else 0

    def accept_resignation(self, position, value, cube):
        return True


def test_winning_every_round_wins_the_tournament():
    out = io.StringIO()
    me = Resigns("you", resign=False)
    records = play_tournament(me, [Resigns(f"bot{i}") for i in range(4)], SeededDice(1), out)
    assert [r.rules.match_length for r in records] == [5, 7, 11, 15]
    assert all(r.winner == 0 for r in records)
    assert out.getvalue().rstrip().endswith("Tournament won by you!")
    assert "=== Final: a 15-point match against bot3 ===" in out.getvalue()


def test_losing_a_round_before_the_final_ends_the_tournament():
    out = io.StringIO()
    records = play_tournament(Resigns("you"), [Resigns(f"bot{i}", resign=False) for i in range(4)], SeededDice(1), out)
    assert len(records) == 1 and records[0].winner == 1
    assert "bot0 knocks you out in Round 1." in out.getvalue()
    assert "Round 2" not in out.getvalue()


# -- the human player's prompts -------------------------------------------------------------


def human(text: str, **options) -> tuple[HumanBot, io.StringIO]:
    out = io.StringIO()
    return HumanBot("ann", input=io.StringIO(text), output=out, show_board=False, **options), out


def test_moves_are_read_in_tolerant_notation():
    position = Position.initial()
    for text, dice in (("8/5 6/5", (3, 1)), ("8/5(2) 6/3(2)", (3, 3)), ("24/18(2) 13/7(2)", (6, 6)), ("24/13", (6, 5))):
        me, _ = human(text + "\n")
        assert me.choose_play(position, dice) == position.parse_play(text, dice)
    blot = Position.from_checkers({13: 2, 6: 13}, {7: 1, 19: 14})
    me, _ = human("13/7* 6/5\n")
    assert str(me.choose_play(blot, (6, 1))) == "13/7* 6/5"
    bar = Position.from_checkers({25: 1, 13: 14}, {19: 2})
    me, _ = human("bar/22 13/12\n")
    assert str(me.choose_play(bar, (3, 1))) == "bar/22 13/12"
    home = Position.from_checkers({6: 1, 5: 14}, {19: 2})
    me, _ = human("6/off 5/4\n")
    assert str(me.choose_play(home, (6, 1))) == "6/off 5/4"


def test_an_illegal_entry_is_explained_and_asked_again():
    me, out = human("8/4 6/5\n\nfoo/bar\n8/5 6/5\n")
    play = me.choose_play(Position.initial(), (3, 1))
    assert str(play) == "8/5 6/5"
    text = out.getvalue()
    assert "8/4 6/5 moves more than your dice allow" in text and "cannot read play 'foo/bar'" in text
    assert text.count("ann, move 3-1: ") == 4


def test_a_forced_play_and_a_dance_are_played_for_you():
    closed = Position.from_checkers({25: 1, 6: 14}, {k: 2 for k in range(19, 25)} | {18: 3})
    me, out = human("")
    assert me.choose_play(closed, (6, 5)).is_pass()
    assert "no legal move" in out.getvalue()


def test_take_and_pass_answer_a_double():
    from gammon.cube import CubeState

    me, out = human("what\ntake\n")
    assert me.accept_double(Position.initial(), CubeState()) is True
    assert "Answer the double" in out.getvalue()
    me, _ = human("pass\n")
    assert me.accept_double(Position.initial(), CubeState()) is False


class Doubles(FirstPlay):
    """Doubles at every chance."""

    name = "bot"

    def offer_double(self, position, cube):
        return True


def test_with_beavers_on_a_human_may_beaver_a_double():
    # Given money play with beavers, when the bot doubles and I answer "beaver",
    # then the cube goes to 4 and is mine; I am offered the beaver only when beavers are on.
    out = io.StringIO()

    class Answers:
        """Types what each prompt asks for: "beaver" to the first double, the first play to a move."""

        def readline(self):
            prompt = out.getvalue().rsplit("\n", 1)[-1]
            return "beaver\n" if "beaver or pass" in prompt else "1\n" if "move" in prompt else "\n"

    me = HumanBot("ann", input=Answers(), output=out, show_board=False)
    match = Match([Doubles(), me], SeededDice(2), Rules(beavers=True), games=1)
    match.play()
    game = match.record.games[0]
    kinds = [a.kind for a in game.actions if a.kind in ("double", "take", "beaver", "pass")]
    assert kinds == ["double", "beaver"]  # the bot owns no cube after it: it cannot double again
    beaver = next(a for a in game.actions if a.kind == "beaver")
    assert beaver.player == 1 and beaver.cube == 4 and (game.cube, game.cube_owner) == (4, 1)
    assert game.finished and game.points == 4 * game.result
    assert "bot doubles to 2. ann, take, beaver or pass? " in out.getvalue()


def test_without_beavers_a_beaver_is_explained_and_the_double_asked_again():
    from gammon.cube import CubeState

    me, out = human("beaver\ntake\n")
    assert me.accept_double(Position.initial(), CubeState()) is True
    assert "Beavers are not on" in out.getvalue() and "take, beaver" not in out.getvalue()
    assert me.beaver(Position.initial(), CubeState()) is False


def test_roll_or_double_before_the_roll():
    from gammon.cube import CubeState

    me, _ = human("\n")
    assert me.offer_double(Position.initial(), CubeState()) is False
    me, out = human("moves\ndouble\n")
    assert me.offer_double(Position.initial(), CubeState()) is True
    assert "Roll first" in out.getvalue()


def test_resign_and_quit_and_end_of_input():
    me, _ = human("resign gammon\n")
    with pytest.raises(Resignation) as offer:
        me.choose_play(Position.initial(), (3, 1))
    assert offer.value.value == 2
    me, _ = human("quit\n")
    with pytest.raises(QuitMatch):
        me.choose_play(Position.initial(), (3, 1))
    me, _ = human("")
    with pytest.raises(QuitMatch):
        me.choose_play(Position.initial(), (3, 1))


def test_hint_shows_the_helper_bots_ranked_plays():
    class Ranker:
        name = "ranker"

        def scores(self, position, dice):
            plays = list(position.legal_plays(dice))
            return plays, [float(i) for i in range(len(plays))]

    me, out = human("hint\n1\n", helper=lambda: Ranker())
    me.choose_play(Position.initial(), (3, 1))
    text = out.getvalue()
    assert "ranker ranks the plays" in text
    plays = list(Position.initial().legal_plays((3, 1)))
    assert f"   1. {str(plays[-1]):<24} +{len(plays) - 1:.3f}" in text


def test_hint_drops_plays_a_search_left_unvalued():
    class Searcher:
        name = "searcher"

        def play_equities(self, position, dice):
            plays = list(position.legal_plays(dice))
            return plays, [0.5] + [float("-inf")] * (len(plays) - 1)

    me, out = human("hint\n1\n", helper=Searcher())
    me.choose_play(Position.initial(), (3, 1))
    text = out.getvalue()
    assert "searcher ranks the plays (equity):" in text and "inf" not in text


def test_a_human_game_against_a_bot_from_text_input():
    # The bot opens (seed 1 throws 2-5); the human doubles at their first turn, then plays the
    # first listed play ("1") each turn until the game ends.
    entries = "double\n" + "1\n" * 200
    me, out = human(entries)
    me.show_board = True
    record = play_match(me, RandomBot(seed=2), 0, SeededDice(1), games=1)
    game = record.games[0]
    assert game.finished and game.cube == 2 and game.cube_owner == 1
    text = out.getvalue()
    assert "random takes" in text and "Match ID" in text


def test_the_board_shows_score_cube_dice_and_ids():
    seen = []
    game = Match((RandomBot(1), RandomBot(2)), ScriptedDice([(2, 1)]), Rules(match_length=7),
                 start=MatchState(cube=2, cube_owner=1, player_on_roll=0, turn=0, match_length=7, score=(3, 5)),
                 position=Position.from_checkers({1: 1}, {24: 1}),
                 observers=[lambda action, table: seen.append(draw_table(table, 0)) if action.kind == "roll" else None])
    game.play_game(resume=True)
    board = seen[0]
    assert "Position ID: " + Position.from_checkers({1: 1}, {24: 1}).position_id() in board
    assert "Match ID   : " in board and "7-point match" in board and "Rolled 2-1" in board
    assert "Cube: 2" in board and "3 points" in board and "5 points" in board


def test_a_finished_or_stopped_match_is_kept_as_a_mat_and_the_analysis_offered(tmp_path):
    env = {**os.environ, "GAMMON_SAVES": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "gammon", "play", "--opponent", "random", "--seed", "5", "--no-hint",
                           "--no-color"], input="1\n\nquit\ny\n", capture_output=True, text=True, timeout=120, env=env)
    kept = list(tmp_path.glob("match-*.mat"))
    assert len(kept) == 1 and f"How well did you play? gammon analyse {kept[0]}" in done.stdout
    assert read_mat(kept[0].read_text()).rules.match_length == 5
