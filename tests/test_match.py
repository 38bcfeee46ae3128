"""Match and cube rules, each test named after the rule it checks.

Games start either from the opening roll with scripted dice, or from a
literal late position (``Position.from_checkers``: the player on roll's
checkers, then the opponent's, both in the on-roll player's numbering) with
a :class:`MatchState` saying who is on roll and where the cube is.
"""

from __future__ import annotations

import pytest

from gammon.bots.random_bot import RandomBot
from gammon.dice import ScriptedDice, SeededDice
from gammon.ids import MatchState
from gammon.errors import IllegalPlayError, MatchError
from gammon.match import Match, QuitMatch, Resignation, Table, play_game, play_match
from gammon.records import GameRecord, Rules, points_for
from gammon.position import Position


class Scripted:
    """A test player: the first legal play, and cube answers from lists (then the defaults)."""

    def __init__(self, name: str, *, doubles=(), takes=(), always_double=False, always_take=True,
                 resign=0, accept_resign=True, beaver=False) -> None:
        self.name = name
        self.doubles = list(doubles)
        self.takes = list(takes)
        self.always_double = always_double
        self.always_take = always_take
        self.resign = resign
        self.accept_resign = accept_resign
        self.do_beaver = beaver
        self.asked: list[tuple[str, object]] = []

    def choose_play(self, position, dice):
        self.asked.append(("play", dice))
        return position.legal_plays(dice)[0]

    def offer_double(self, position, cube):
        self.asked.append(("double", cube))
        return self.doubles.pop(0) if self.doubles else self.always_double

    def accept_double(self, position, cube):
        self.asked.append(("take", cube))
        return self.takes.pop(0) if self.takes else self.always_take

    def offer_resignation(self, position, cube):
        return self.resign

    def accept_resignation(self, position, value, cube):
        self.asked.append(("resignation", value))
        return self.accept_resign

    def beaver(self, position, cube):
        self.asked.append(("beaver", cube))
        return self.do_beaver


class ThenSeeded:
    """Scripted rolls first, then seeded ones."""

    def __init__(self, rolls, seed=0):
        self.script = ScriptedDice(rolls)
        self.left = len(rolls)
        self.rest = SeededDice(seed)

    def roll(self):
        if self.left:
            self.left -= 1
            return self.script.roll()
        return self.rest.roll()


def start(on_roll=0, cube=1, owner=-1, length=0, score=(0, 0), crawford=False, dice=(0, 0)):
    return MatchState(cube=cube, cube_owner=owner, player_on_roll=on_roll, turn=on_roll, match_length=length,
                      score=score, crawford=crawford, dice=dice)


#: The player on roll bears off their last checker with any roll; the opponent has borne off some.
LAST_CHECKER = Position.from_checkers({1: 1}, {24: 1})
#: As above, but the opponent has all 15 checkers out of the winner's home board: a gammon.
GAMMON = Position.from_checkers({1: 1}, {12: 15})
#: As above with the opponent's checkers in the winner's home board: a backgammon.
BACKGAMMON = Position.from_checkers({1: 1}, {3: 15})
#: A short race: each side four checkers on its own six-point.
RACE = Position.from_checkers({6: 4}, {19: 4})


def kinds(game: GameRecord) -> list[str]:
    return [a.kind for a in game.actions]


# -- the opening roll ------------------------------------------------------------------


def test_opening_roll_higher_die_moves_first_with_both_dice():
    a, b = Scripted("a"), Scripted("b")
    game = play_game(a, b, ThenSeeded([(2, 5)], seed=1))
    assert game.first == 1 and game.opening == ((2, 5),)
    first_move = game.plays()[0]
    assert first_move.player == 1 and sorted(first_move.dice) == [2, 5]
    assert b.asked[0] == ("play", (5, 2))


def test_opening_roll_ties_are_thrown_again():
    game = play_game(Scripted("a"), Scripted("b"), ThenSeeded([(3, 3), (4, 4), (6, 1)], seed=1))
    assert game.opening == ((3, 3), (4, 4), (6, 1))
    assert game.first == 0 and game.plays()[0].dice == (6, 1)


def test_no_double_on_the_opening_roll():
    # Given two players who always want to double, when the game starts,
    # then the first mover plays the opening roll without a cube question.
    a, b = Scripted("a", always_double=True), Scripted("b", always_double=True, always_take=False)
    game = play_game(a, b, ThenSeeded([(6, 1)], seed=1))
    assert a.asked[0] == ("play", (6, 1))
    # The second player is asked before their first roll, doubles, and a passes.
    assert b.asked[0][0] == "double"
    assert kinds(game)[:3] == ["roll", "move", "double"]


def test_doubling_only_before_ones_own_roll():
    a = Scripted("a", doubles=[False, True])
    b = Scripted("b")
    record = play_match(a, b, 0, SeededDice(4), games=1)
    actions = record.games[0].actions
    for i, action in enumerate(actions):
        if action.kind == "double":
            # The doubler has not rolled since their last move; the answer comes next, then the doubler's roll.
            before = [x for x in actions[:i] if x.player == action.player and x.kind in ("roll", "move")]
            assert not before or before[-1].kind == "move"
            assert actions[i + 1].kind in ("take", "pass") and actions[i + 1].player != action.player
            assert actions[i + 2].kind == "roll" and actions[i + 2].player == action.player
    assert [q for q, _ in a.asked if q == "double"] == ["double", "double"]


# -- the cube --------------------------------------------------------------------------


def test_a_take_doubles_the_cube_and_the_taker_owns_it():
    game = play_game(Scripted("a", doubles=[True]), Scripted("b"), ScriptedDice([(2, 1)]),
                     start=start(), position=LAST_CHECKER)
    assert kinds(game) == ["double", "take", "roll", "move", "win"]
    assert game.actions[0].cube == 2
    assert (game.cube, game.cube_owner) == (2, 1)
    assert game.winner == 0 and game.points == 2


def test_only_the_cube_owner_may_redouble():
    # Given a takes b's double and owns the cube at 2, then b is never asked again; a is asked each turn.
    a = Scripted("a")
    b = Scripted("b", doubles=[True])
    game = play_game(a, b, ScriptedDice([(2, 1)] * 20), start=start(on_roll=1), position=RACE)
    assert [q for q, _ in b.asked].count("double") == 1
    a_cubes = [cube for q, cube in a.asked if q == "double"]
    assert a_cubes and all(c.owner == "me" and c.cube == 2 for c in a_cubes)
    assert (game.cube, game.cube_owner) == (2, 0)


def test_redouble_by_the_owner_passes_the_cube_back():
    a = Scripted("a", doubles=[True])
    b = Scripted("b", doubles=[True])
    game = play_game(a, b, ScriptedDice([(2, 1)] * 20), start=start(on_roll=1), position=RACE)
    doubles = [a.cube for a in game.actions if a.kind == "double"]
    assert doubles == [2, 4]
    assert (game.cube, game.cube_owner) == (4, 1)


def test_a_pass_ends_the_game_for_the_cube_value_before_the_double():
    game = play_game(Scripted("a", doubles=[True]), Scripted("b", takes=[False]), ScriptedDice([]),
                     start=start(cube=2, owner=0), position=RACE)
    assert kinds(game) == ["double", "pass", "win"]
    assert game.actions[0].cube == 4
    assert game.winner == 0 and game.points == 2 and game.ended_by == "pass" and game.cube == 2


def test_the_cube_stops_at_the_cap():
    # At the default cap of 64 the owner of a 64 cube is not asked; at 32 they are.
    for cube, asked in ((64, False), (32, True)):
        a = Scripted("a")
        play_game(a, Scripted("b"), ScriptedDice([(2, 1)]), start=start(cube=cube, owner=0), position=LAST_CHECKER)
        assert (a.asked[0][0] == "double") is asked
    # The cap is configurable.
    a = Scripted("a")
    play_game(a, Scripted("b"), ScriptedDice([(2, 1)]), rules=Rules(cube_cap=4),
              start=start(cube=4, owner=0), position=LAST_CHECKER)
    assert a.asked[0][0] == "play"


def test_cubeless_play_never_asks_about_the_cube():
    a, b = Scripted("a", always_double=True), Scripted("b", always_double=True)
    record = play_match(a, b, 0, SeededDice(2), games=1, cube=False)
    assert not [q for q, _ in a.asked + b.asked if q != "play"]
    assert record.games[0].cube == 1


def test_a_leader_whose_cube_already_wins_the_match_may_not_double():
    # 5-point match, a at 3 (2-away) holding a 2 cube: doubling cannot gain, so a is not asked.
    a = Scripted("a", always_double=True)
    play_game(a, Scripted("b"), ScriptedDice([(2, 1)]), rules=Rules(match_length=5),
              start=start(cube=2, owner=0, length=5, score=(3, 0)), position=LAST_CHECKER)
    assert a.asked[0][0] == "play"


# -- scoring ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "cube", "result"),
    [(LAST_CHECKER, 1, 1), (LAST_CHECKER, 4, 1), (GAMMON, 2, 2), (BACKGAMMON, 2, 3), (BACKGAMMON, 8, 3)],
)
def test_points_are_the_result_times_the_cube(position, cube, result):
    game = play_game(Scripted("a"), Scripted("b"), ScriptedDice([(2, 1)]),
                     start=start(cube=cube, owner=-1 if cube == 1 else 1), position=position)
    assert game.result == result and game.points == result * cube and game.ended_by == "bear-off"


def test_jacoby_rule_is_off_by_default_so_a_gammon_with_a_centred_cube_counts_two():
    game = play_game(Scripted("a"), Scripted("b"), ScriptedDice([(2, 1)]), start=start(), position=GAMMON)
    assert game.points == 2


def test_jacoby_rule_counts_gammons_single_until_the_cube_is_turned():
    jacoby = Rules(jacoby=True)
    centred = play_game(Scripted("a"), Scripted("b"), ScriptedDice([(2, 1)]), rules=jacoby,
                        start=start(), position=GAMMON)
    turned = play_game(Scripted("a", doubles=[True]), Scripted("b"), ScriptedDice([(2, 1)]), rules=jacoby,
                       start=start(), position=GAMMON)
    assert (centred.points, turned.points) == (1, 4)
    assert points_for(3, 1, -1, jacoby) == 1


def test_beavers_are_off_by_default():
    b = Scripted("b", beaver=True)
    game = play_game(Scripted("a", doubles=[True]), b, ScriptedDice([(2, 1)]), start=start(), position=LAST_CHECKER)
    assert "beaver" not in kinds(game) and game.cube == 2
    assert not [q for q, _ in b.asked if q == "beaver"]


def test_a_beaver_takes_and_redoubles_keeping_the_cube():
    game = play_game(Scripted("a", doubles=[True]), Scripted("b", beaver=True), ScriptedDice([(2, 1)]),
                     rules=Rules(beavers=True), start=start(), position=LAST_CHECKER)
    assert kinds(game)[:2] == ["double", "beaver"]
    assert (game.cube, game.cube_owner, game.points) == (4, 1, 4)


def test_jacoby_and_beavers_are_money_rules():
    with pytest.raises(MatchError, match="money-play rules"):
        Rules(match_length=5, jacoby=True)
    with pytest.raises(MatchError, match="cube cap"):
        Rules(cube_cap=48)
    with pytest.raises(MatchError, match="match length"):
        Rules(match_length=-1)


# -- resignation -----------------------------------------------------------------------


def test_an_accepted_resignation_scores_its_value_times_the_cube():
    a = Scripted("a")
    b = Scripted("b", resign=2)
    game = play_game(a, b, ScriptedDice([]), start=start(on_roll=1, cube=2, owner=1), position=RACE)
    assert kinds(game) == ["resign", "accept", "win"]
    assert game.winner == 0 and game.points == 4 and game.ended_by == "resign"
    assert ("resignation", 2) in a.asked


def test_a_rejected_resignation_lets_the_game_go_on():
    game = play_game(Scripted("a", accept_resign=False), Scripted("b", resign=1), ScriptedDice([(2, 1)] * 20),
                     start=start(on_roll=1), position=RACE)
    assert kinds(game)[:3] == ["resign", "reject", "roll"]
    assert game.ended_by == "bear-off"


def test_a_player_without_a_resignation_hook_accepts_only_everything_at_stake():
    class Resigner(Scripted):
        resigned = False

        def choose_play(self, position, dice):
            if not self.resigned:
                self.resigned = True
                raise Resignation(1)
            return super().choose_play(position, dice)

    # RandomBot has no accept_resignation: a single is not enough while a gammon is possible...
    game = play_game(RandomBot(seed=1), Resigner("b"), ScriptedDice([(2, 1)] * 40),
                     start=start(on_roll=1), position=Position.from_checkers({6: 15}, {19: 1}))
    assert kinds(game)[:3] == ["roll", "resign", "reject"]
    # ...but it is once the resigner has borne off a checker.
    game = play_game(RandomBot(seed=1), Resigner("b"), ScriptedDice([(2, 1)] * 40),
                     start=start(on_roll=1), position=Position.from_checkers({6: 14}, {19: 1}))
    assert kinds(game) == ["roll", "resign", "accept", "win"] and game.points == 1


def test_offering_a_rejected_resignation_again_in_the_same_turn_is_an_error():
    class Stubborn(Scripted):
        def choose_play(self, position, dice):
            raise Resignation(1)

    with pytest.raises(MatchError, match="again after it was rejected"):
        play_game(Scripted("a", accept_resign=False), Stubborn("b"), ScriptedDice([(2, 1)]),
                  start=start(on_roll=1), position=RACE)


# -- Crawford --------------------------------------------------------------------------


def _cube_bots():
    """Players who double whenever they may and pass every double: non-Crawford games end at once."""
    return Scripted("a", always_double=True, always_take=False), Scripted("b", always_double=True, always_take=False)


def test_the_crawford_game_is_the_first_after_a_player_reaches_one_away_and_has_no_cube():
    a, b = _cube_bots()
    record = play_match(a, b, 3, SeededDice(11))
    games = record.games
    crawford = [g for g in games if g.crawford]
    assert len(crawford) == 1
    game = crawford[0]
    assert sorted(game.score) == [0, 2] or sorted(game.score) == [1, 2]
    earlier = games[: game.number - 1]
    assert all(2 not in g.score for g in earlier)
    assert "double" not in kinds(game) and game.ended_by == "bear-off"


def test_doubling_is_allowed_again_after_the_crawford_game():
    # 3-point match at 2-0 after the Crawford game (post-Crawford): the trailer doubles at once.
    a, b = _cube_bots()
    record = play_match(a, b, 3, ThenSeeded([(1, 6)], seed=3), start=MatchState(match_length=3, score=(2, 0),
                                                                                 game_state="none"))
    first = record.games[0]
    assert not first.crawford and first.first == 1
    doubles = [a for a in first.actions if a.kind == "double"]
    assert doubles and doubles[0].player == 1
    assert kinds(first)[:6] == ["roll", "move", "roll", "move", "double", "pass"]
    # ...and the leader, whose 1-cube already wins the match, is never asked.
    assert not [q for q, _ in a.asked if q == "double"]


def test_the_crawford_flag_of_a_match_state_is_read_back():
    a, b = _cube_bots()
    record = play_match(a, b, 3, SeededDice(5), start=MatchState(match_length=3, score=(2, 0), crawford=True,
                                                                 game_state="none"))
    assert record.games[0].crawford and "double" not in kinds(record.games[0])


def test_no_crawford_game_without_the_rule():
    a, b = _cube_bots()
    record = play_match(a, b, 3, SeededDice(11), crawford=False)
    assert not any(g.crawford for g in record.games)


# -- matches and sessions --------------------------------------------------------------


def test_a_match_ends_when_a_player_reaches_the_length():
    record = play_match(RandomBot(seed=1), RandomBot(seed=2), 5, SeededDice(9))
    assert record.finished and max(record.score) >= 5
    before_last = record.games[-1].score
    assert max(before_last) < 5
    assert record.winner == (0 if record.score[0] > record.score[1] else 1)


def test_a_money_session_plays_the_number_of_games_asked():
    record = play_match(RandomBot(seed=1), RandomBot(seed=2), 0, SeededDice(9), games=3)
    assert len(record.games) == 3 and not record.finished
    assert sum(record.score) == sum(g.points for g in record.games)


def test_a_money_session_between_bots_needs_a_number_of_games():
    with pytest.raises(MatchError, match="number of games"):
        play_match(RandomBot(), RandomBot(), 0, SeededDice(1))


def test_quitting_keeps_the_record_so_far():
    class Quitter(Scripted):
        def choose_play(self, position, dice):
            if len(self.asked) > 3:
                raise QuitMatch("bye")
            return super().choose_play(position, dice)

    match = Match((Quitter("a"), Scripted("b")), SeededDice(1), Rules(match_length=3))
    with pytest.raises(QuitMatch):
        match.play()
    assert len(match.record.games) == 1 and not match.record.games[0].finished
    assert match.record.score == (0, 0)


def test_same_seed_same_match():
    one = play_match(RandomBot(seed=1), RandomBot(seed=2), 3, SeededDice(21))
    two = play_match(RandomBot(seed=1), RandomBot(seed=2), 3, SeededDice(21))
    assert [g.actions for g in one.games] == [g.actions for g in two.games]


def test_the_record_replays_every_play_to_the_final_position():
    record = play_match(RandomBot(seed=3), RandomBot(seed=4), 3, SeededDice(8))
    for game in record.games:
        position = Position.initial()
        for action in game.plays():
            play = position.parse_play(action.play, action.dice) if action.moves else position.legal_plays(action.dice)[0]
            position = position.apply(play)
        if game.ended_by == "bear-off":
            assert position == game.final_position and position.is_game_over()
        rolls = [a for a in game.actions if a.kind == "roll"]
        assert [r.dice for r in rolls] == [m.dice for m in game.plays()]


def test_a_bot_that_returns_an_illegal_play_is_an_error():
    class Cheat(Scripted):
        def choose_play(self, position, dice):
            return Position.initial().legal_plays((6, 5))[0]

    with pytest.raises(IllegalPlayError, match="cheat chose"):
        play_game(Cheat("cheat"), Scripted("b"), ScriptedDice([(2, 1)]), start=start(), position=RACE)


# -- Match IDs -------------------------------------------------------------------------


def test_every_match_state_round_trips_through_a_match_id():
    states: list[MatchState] = []

    def collect(action, table: Table) -> None:
        states.append(table.match_state())

    a = Scripted("a", doubles=[False, True, False, True], takes=[True, False])
    b = Scripted("b", doubles=[True, False, True], takes=[True, True, False])
    play_match(a, b, 5, SeededDice(17), observers=[collect])
    assert len(states) > 50
    assert {s.game_state for s in states} >= {"playing"}
    for state in states:
        assert MatchState.from_match_id(state.match_id()) == state


def test_a_match_resumes_from_a_match_id_and_position():
    # 7-point match, 2-4, the cube at 2 owned by player 1, player 1 on roll with 2-1 to play.
    state = MatchState(cube=2, cube_owner=1, player_on_roll=1, turn=1, dice=(2, 1), match_length=7, score=(2, 4))
    resumed = MatchState.from_match_id(state.match_id())
    seen: list[Table] = []
    record = play_match(Scripted("a"), Scripted("b"), 7, SeededDice(1), start=resumed, position=LAST_CHECKER,
                        observers=[lambda action, table: seen.append(table)])
    first = record.games[0]
    assert first.score == (2, 4) and first.first == 1
    assert first.actions[0].kind == "roll" and first.actions[0].dice == (2, 1)
    assert first.winner == 1 and first.points == 2  # 1 x the cube of 2
    assert record.games[1].score == (2, 6) and record.games[1].crawford  # player 1 reached 1-away
