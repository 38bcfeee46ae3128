"""The neural bot: loading, 0/1/2-ply play, cube decisions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gammon import Position
from gammon.bots import load
from gammon.cube import CubeState
from gammon.bots.neural import NeuralBot, load_neural
from gammon.errors import GammonError
from gammon.net import Architecture, ModelFileError, Weights, build_module, save_model, weights_from_state
from gammon.position import ROLLS


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    arch = Architecture(hidden=16)
    path = tmp_path_factory.mktemp("models") / "tiny.pt"
    save_model(path, build_module(arch, seed=11).state_dict(), arch, games_trained=7)
    return path


@pytest.fixture(scope="module")
def weights(model_path):
    arch = Architecture(hidden=16)
    return weights_from_state(build_module(arch, seed=11).state_dict(), arch)


def constant(win: float, gammon: float = 0.0, lose_gammon: float = 0.0) -> Weights:
    """A network that says the same probabilities for every position."""
    w = Weights.zeros(Architecture(hidden=2))
    logit = lambda p: math.log(p / (1 - p))  # noqa: E731
    w.b2[:] = [logit(win), logit(max(gammon, 1e-6)), logit(1e-6), logit(max(lose_gammon, 1e-6)), logit(1e-6)]
    return w


MIDGAME = Position.from_position_id("4HPwATDgc/ABMA")


def test_a_model_file_loads_as_a_bot_with_its_name(model_path):
    bot = load(str(model_path))
    assert isinstance(bot, NeuralBot) and bot.name == "tiny" and bot.plies == 0
    assert load(str(model_path), plies=1, seed=3).name == "tiny-1ply"


def test_td_loads_the_shipped_model(model_path, monkeypatch):
    monkeypatch.setenv("GAMMON_TD_MODEL", str(model_path))
    assert load("td").name == "td" and load("td", plies=2).name == "td-2ply"


def test_bad_model_files_are_one_line_errors(tmp_path, monkeypatch):
    bad = tmp_path / "bad.pt"
    bad.write_text("not a model")
    with pytest.raises(GammonError, match="bad.pt"):
        load(str(bad))
    monkeypatch.setenv("GAMMON_TD_MODEL", str(tmp_path / "gone.pt"))
    with pytest.raises(ModelFileError, match="gone.pt"):
        load("td")
    with pytest.raises(ValueError, match="plies"):
        NeuralBot(constant(0.5), plies=3)
    with pytest.raises(ModelFileError, match="missing.pt"):
        load_neural(str(tmp_path / "missing.pt"))


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_every_search_depth_returns_a_legal_play(weights, plies):
    bot = NeuralBot(weights, plies=plies)
    rng = np.random.default_rng(plies)
    pos = Position.initial()
    for _ in range(6 if plies == 2 else 20):
        dice = tuple(int(d) for d in rng.integers(1, 7, 2))
        play = bot.choose_play(pos, dice)
        assert play in pos.legal_plays(dice)
        pos = pos.apply(play)
        if pos.is_game_over():
            pos = Position.initial()


def test_one_ply_averages_the_opponents_best_replies(weights):
    # Given the 0-ply bot as the oracle of each reply
    zero = NeuralBot(weights, plies=0)
    one = NeuralBot(weights, plies=1, prune=100, margin=10.0)
    plays, deep = one.play_equities(MIDGAME, (3, 1))
    # When the 1-ply value of each play is recomputed by hand
    for play, value in list(zip(plays, deep))[:4]:
        after = MIDGAME.apply(play)
        total = 0.0
        for dice, weight in ROLLS:
            _, replies = zero.play_equities(after, dice)
            total += weight * replies.max()
        # Then it is minus the opponent's average best 0-ply equity
        assert value == pytest.approx(-total / 36, abs=1e-9)


def test_pruning_keeps_the_best_zero_ply_plays(weights):
    bot = NeuralBot(weights, plies=1, prune=3, margin=10.0)
    _, zero = NeuralBot(weights).play_equities(MIDGAME, (6, 4))
    _, deep = bot.play_equities(MIDGAME, (6, 4))
    assert set(np.flatnonzero(np.isfinite(deep))) == set(np.argsort(-zero)[:3])


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_the_game_winning_play_is_taken(plies):
    # Given my last two checkers on the 2 and 1 points and a 2-1: one play bears both off
    pos = Position.from_checkers({2: 1, 1: 1}, {24: 2, 19: 13})
    bot = NeuralBot(constant(0.99, gammon=0.9), plies=plies)  # a net that loves every other position
    assert pos.apply(bot.choose_play(pos, (2, 1))).is_game_over()


def test_cube_follows_gammon_cube_decisions():
    money = CubeState()
    # 72% gammonless: double, take
    bot = NeuralBot(constant(0.72))
    assert bot.offer_double(MIDGAME, money) and bot.accept_double(MIDGAME, money)
    # 90%: double, pass
    bot = NeuralBot(constant(0.90))
    assert bot.offer_double(MIDGAME, money) and not bot.accept_double(MIDGAME, money)
    # 55%: no double; and never when the cube is the opponent's
    assert not NeuralBot(constant(0.55)).offer_double(MIDGAME, money)
    assert not NeuralBot(constant(0.72)).offer_double(MIDGAME, CubeState(cube=2, owner="opponent"))


def test_cube_plies_sets_the_depth_of_the_cube_decisions_alone(weights, model_path, monkeypatch):
    # Given a 0-ply player whose cube decisions look one ply ahead
    bot = NeuralBot(weights, plies=0, cube_plies=1)
    zero = NeuralBot(weights, plies=0)
    asked = []
    searched = bot.probabilities
    monkeypatch.setattr(bot, "probabilities", lambda position, plies=0: asked.append(plies) or searched(position, plies))
    # Then it doubles and takes on its 1-ply probabilities, and plays as the 0-ply player does
    bot.offer_double(MIDGAME, CubeState())
    bot.accept_double(MIDGAME, CubeState())
    assert asked == [1, 1]
    for dice in [(3, 1), (6, 6), (5, 2)]:
        assert bot.choose_play(MIDGAME, dice) == zero.choose_play(MIDGAME, dice)
    # by default the cube looks as deep as the checker play, at most 1 ply
    assert [NeuralBot(weights, plies=p).cube_plies for p in (0, 1, 2)] == [0, 1, 1]
    assert load(f"{model_path}:cube_plies=2").cube_plies == 2
    with pytest.raises(GammonError, match="cube_plies must be 0, 1 or 2"):
        load(f"{model_path}:cube_plies=3")


def test_probabilities_are_consistent(weights):
    bot = NeuralBot(weights)
    for plies in (0, 1):
        p = bot.probabilities(MIDGAME, plies)
        assert p.shape == (5,) and 0 <= p[2] <= p[1] <= p[0] <= 1 and p[4] <= p[3] <= 1 - p[0]


def test_shipped_model_matches_its_recipe_and_card():
    """models/td.pt, configs/td.toml and models/README.md describe the same network."""
    from pathlib import Path

    from gammon.engine.encoding import ENCODING_NAME, ENCODING_VERSION, N_INPUTS
    from gammon.net import load_model
    from gammon.train.config import load_config

    root = Path(__file__).resolve().parents[1]
    model = load_model(root / "models" / "td.pt")
    recipe = load_config(root / "configs" / "td.toml")
    card = (root / "models" / "README.md").read_text()
    arch = model.arch
    assert (arch.encoding, arch.encoding_version, arch.inputs) == (ENCODING_NAME, ENCODING_VERSION, N_INPUTS)
    assert (arch.hidden, arch.activation) == (recipe.hidden, recipe.activation)
    assert 0 < model.games_trained <= recipe.total_games
    assert f"{arch.hidden} {arch.activation} hidden units" in card.lower()
    assert f"| games trained | {model.games_trained:,}" in card


def _reference_probabilities(bot: NeuralBot, position: Position, plies: int) -> np.ndarray:
    """The searched probabilities by their definition, through the public API: per roll the play with
    the best 0-ply equity, the position it leaves valued ``plies - 1`` deep by the opponent, flipped."""
    from gammon.outcomes import equity, flip, sanitize, won_probs

    if plies == 0:
        return bot.probabilities(position, 0)
    total = np.zeros(5)
    for dice, weight in ROLLS:
        plays, theirs = bot.play_probabilities(position, dice)
        best = int(np.argmax(-equity(theirs)))
        after = position.apply(plays[best])
        if after.is_game_over():
            mine = won_probs(after.result())
        else:
            mine = flip(_reference_probabilities(bot, after, plies - 1))
        total += weight * mine
    return sanitize(total / 36.0)


@pytest.mark.parametrize("plies", [1, 2])
def test_searched_probabilities_follow_their_definition(weights, plies):
    """The compiled 1- and 2-ply probabilities (engine.search) equal the search written out roll by roll,
    at the opening, in a midgame and in a bear-off where some rolls end the game."""
    from gammon.engine.search import probabilities_batch

    bot = NeuralBot(weights)
    near_end = Position.from_position_id("+L4PAACFAAAAAA")  # three checkers left on the 1, 2 and 6 points
    positions = [Position.initial(), MIDGAME, near_end]
    for position in positions:
        expected = _reference_probabilities(bot, position, plies)
        np.testing.assert_allclose(bot.probabilities(position, plies), expected, atol=2e-5)
    boards = np.stack([np.ascontiguousarray(p.board, np.int8) for p in positions])
    batch = np.empty((len(positions), 5))
    probabilities_batch(boards, bot._net, plies, batch)
    for row, position in zip(batch, positions):
        assert row.tolist() == bot.probabilities(position, plies).tolist()
