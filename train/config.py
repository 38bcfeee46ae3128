"""Training configuration: one dataclass, read from TOML, overridden with ``--set key=value``."""

from __future__ import annotations

import ast
import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gammon.errors import GammonError


class ConfigError(GammonError):
    """A training config that cannot be read or has a bad value."""


@dataclass
class Config:
    """Hyperparameters of a training run, TD(lambda) or search distillation (each field is a TOML key)."""

    method: str = "td"
    """how the nets learn: td (TD(lambda) from self-play games) or search (fit them, round by round, to their own deeper search's probabilities on self-play positions and the plays they weighed: gammon.train.distill)"""
    exp_name: str = "td"
    """name of the experiment; the run folder is ``runs/backgammon__<exp_name>__<seed>__<time>``"""
    seed: int = 1
    """seed of the weights, the dice and the evaluation matches"""
    total_games: int = 100_000
    """self-play games to train for (the run stops there; raise it with --set to continue a finished run)"""
    hidden: int = 128
    """hidden units (of the contact net, which plays every position the other parts of the evaluator do not)"""
    activation: str = "relu"
    """hidden activation: relu or sigmoid"""
    inputs: int = 211
    """the contact net's encoding by its number of inputs: 211 (tesauro+15), 219 (tesauro+23: with back anchor, anchors, containment and break-contact pips) or 227 (tesauro+31: those and double shots, pip loss, mobility, timing)"""
    race_hidden: int = 0
    """hidden units of a separate race net for positions without contact (0: none, the contact net plays races too)"""
    race_inputs: int = 211
    """the race net's encoding by its number of inputs: 211 (tesauro+15, the contact net's first encoding) or 247 (tesauro+race: those and per side none off, a thermometer of checkers off, crossovers, checkers outside home, pips to come home)"""
    bearoff: bool = False
    """value pure bear-offs exactly from the one-sided bear-off database, in play and as training targets"""
    init_model: str = ""
    """start a new run from the weights of this model file instead of random ones: same activation, at most as many inputs and hidden units; a net grows to the config's size playing exactly as before (zero weights on new inputs, new hidden units with zero outgoing weights), and a missing race net starts as a copy of the contact net"""
    optimizer: str = "adam"
    """adam or sgd"""
    learning_rate: float = 1e-3
    """learning rate at the start"""
    final_learning_rate: float = 1e-3
    """learning rate reached at total_games (linear decay in between)"""
    lam: float = 0.7
    """lambda of the lambda-returns at the start (0: one-step TD, 1: Monte Carlo outcome)"""
    final_lam: float = 0.7
    """lambda reached at total_games (linear in between)"""
    games_per_update: int = 16
    """games whose positions make up one gradient step"""
    ema_decay: float = 0.0
    """keep a running average of the weights for model files and evaluations (self-play plays the trained weights): after each update it moves 1 - ema_decay of the way towards them (0: none, model files hold the trained weights; 0.9999 averages about the last 10,000 updates)"""
    loss: str = "bce"
    """bce (cross-entropy on the five sigmoids) or mse"""
    workers: int = 0
    """self-play worker processes; 0 plays in the trainer process between updates (exactly reproducible). With --backend ray: self-play actors, 0 for one per cluster CPU less one"""
    ray_staleness: int = 0
    """with workers > 0 or --backend ray: updates that self-play lags the learner (units of games_per_update games in flight); 0: twice the processes that play (the workers, and the trainer with learner_plays)"""
    learner_plays: bool = True
    """with workers > 0 on this machine: the trainer also plays the self-play units the workers have no time for (a worker has at most two out at once), when the workers are fewer than the CPUs; one worker and the trainer keep two cores busy. Which process plays a unit changes no game; the lag counts the trainer as a player either way"""
    race_starts: float = 0.0
    """the share of self-play games (method td, and each round's games with method search) that start from a random race position (train/selfplay.py's random_race) instead of the opening: more games for the race net, lopsided races included"""
    scrambled_starts: float = 0.0
    """the share of self-play games that start from the opening after 1 to 8 random plays (train/selfplay.py's scrambled_opening): contact positions off the net's own beaten track; the random plays are not learned from"""
    threads: int = 1
    """torch threads in the trainer process"""
    checkpoint_every: int = 20_000
    """games between checkpoints (also written on Ctrl-C and at the end)"""
    eval_every: int = 50_000
    """games between evaluation matches (0: never); each also saves models/model-<games>.pt"""
    eval_games: int = 200
    """games per evaluation match (duplicate dice, so even)"""
    eval_opponents: list[str] = field(default_factory=lambda: ["pubeval", "level5"])
    """opponents of the evaluation matches, checked at the start: an unknown one is an error; one whose optional extra is missing (pubeval, gnubg) is skipped with a note"""
    search_games: int = 5_000
    """method search: self-play games per round (total_games / search_games rounds)"""
    search_plies: int = 1
    """method search: the depth (1 or 2) whose probabilities are the targets"""
    search_rollouts: int = 0
    """method search: > 0 values each position instead by that many games the nets play out from it at 0-ply (a rollout; trial t starts with roll t mod 36, so a multiple of 36 covers the first roll evenly: gammon.train.distill.rollout_targets)"""
    rollouts_to_bearoff: bool = False
    """method search with search_rollouts: a rollout stops at its first pure bear-off and counts the database's probabilities there instead of playing it out (needs bearoff): exact for who wins, and less noise"""
    search_race_only: bool = False
    """method search: label and fit the race positions only (the race net learns, the contact net stays as it was; needs race_hidden)"""
    search_contact_only: bool = False
    """method search: label and fit the contact positions only (the contact net learns, the race net stays as it was)"""
    search_memory: int = 0
    """method search: how many earlier rounds' labelled positions (kept in the run folder, labels/) join each round's fit besides its own"""
    search_candidates: int = 4
    """method search: the best plays by 0-ply whose positions join the targets, of one drawn roll at every search_decision_every-th position a player faced (a decision: the plays the net chose between)"""
    search_decision_every: int = 2
    """method search: a roll is drawn, and its search_candidates best plays taken, at every this many positions a player faced (2: every other one; 1: every one)"""
    search_rank_weight: float = 0.0
    """method search: > 0 adds to each net's cross-entropy this weight times the mean square, over a decision's candidate plays, of the net's equity error less the decision's mean error: how well the net ranks the plays it chooses between, which is all that 0-ply play uses (each step then fits whole decisions, about search_batch positions)"""
    search_epochs: int = 10
    """method search: passes over a round's positions (the learning rate falls by pass, linearly towards zero: pass k of n runs at learning_rate * (1 - k/n), k from 0)"""
    search_batch: int = 256
    """method search: positions per gradient step"""
    log_every: int = 10
    """updates between TensorBoard scalars"""
    runs_dir: str = "runs"
    """folder that holds the run folders"""

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        checks = [
            (self.total_games >= 0, "total_games must be >= 0"),
            (self.hidden >= 1, "hidden must be >= 1"),
            (self.activation in ("relu", "sigmoid"), "activation must be relu or sigmoid"),
            (self.inputs in (211, 219, 227), "inputs must be 211, 219 or 227"),
            (self.race_hidden >= 0, "race_hidden must be >= 0"),
            (self.race_inputs in (211, 247), "race_inputs must be 211 or 247"),
            (self.optimizer in ("adam", "sgd"), "optimizer must be adam or sgd"),
            (self.loss in ("bce", "mse"), "loss must be bce or mse"),
            (0.0 <= self.lam <= 1.0 and 0.0 <= self.final_lam <= 1.0, "lam and final_lam must be in [0, 1]"),
            (self.learning_rate > 0 and self.final_learning_rate > 0, "learning rates must be > 0"),
            (self.games_per_update >= 1, "games_per_update must be >= 1"),
            (0.0 <= self.race_starts <= 1.0, "race_starts must be between 0 and 1"),
            (0.0 <= self.scrambled_starts <= 1.0 - self.race_starts, "scrambled_starts must be between 0 and 1 - race_starts"),
            (0.0 <= self.ema_decay < 1.0, "ema_decay must be in [0, 1)"),
            (self.method == "td" or not self.ema_decay, "ema_decay is for method td"),
            (self.workers >= 0 and self.threads >= 1, "workers must be >= 0 and threads >= 1"),
            (self.ray_staleness >= 0, "ray_staleness must be >= 0"),
            (self.checkpoint_every >= 1 and self.eval_every >= 0 and self.eval_games >= 0, "bad checkpoint/eval interval"),
            (self.log_every >= 1, "log_every must be >= 1"),
            (self.method in ("td", "search"), "method must be td or search"),
            (self.search_games >= 1 and self.search_epochs >= 1 and self.search_batch >= 1, "search_games, search_epochs and search_batch must be >= 1"),
            (self.search_plies in (1, 2), "search_plies must be 1 or 2"),
            (self.search_candidates >= 0, "search_candidates must be >= 0"),
            (self.search_decision_every >= 1, "search_decision_every must be >= 1"),
            (self.search_rank_weight >= 0, "search_rank_weight must be >= 0"),
            (self.search_memory >= 0, "search_memory must be >= 0"),
            (self.search_rollouts >= 0, "search_rollouts must be >= 0"),
            (self.bearoff or not self.rollouts_to_bearoff, "rollouts_to_bearoff needs bearoff"),
            (self.race_hidden or not self.search_race_only, "search_race_only needs a race net (race_hidden)"),
            (not (self.search_race_only and self.search_contact_only), "search_race_only and search_contact_only exclude each other"),
        ]
        for ok, message in checks:
            if not ok:
                raise ConfigError(f"invalid config: {message}")

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "config") -> Config:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ConfigError(f"unknown key(s) in {source}: {', '.join(unknown)}")
        defaults = cls().as_dict()
        for key, value in data.items():
            default = defaults[key]
            if default is None or (isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool)):
                continue
            if type(value) is not type(default):
                raise ConfigError(
                    f"bad {source}: {key} = {value!r} should be of type {type(default).__name__}, like {default!r}"
                )
        try:
            return cls(**data)
        except TypeError as exc:
            raise ConfigError(f"bad {source}: {exc}") from None


def field_docs() -> dict[str, str]:
    """The docstring of every field (for ``gammon train --help`` and the hyperparameter table)."""
    import inspect

    source = inspect.getsource(Config)
    tree = ast.parse(source)
    docs: dict[str, str] = {}
    body = tree.body[0].body  # type: ignore[attr-defined]
    for node, nxt in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant):
            docs[node.target.id] = str(nxt.value.value)  # type: ignore[union-attr]
    return docs


def _coerce(name: str, text: str, current: Any) -> Any:
    """Read ``text`` as the type of field ``name`` (TOML literal syntax, bare strings allowed)."""
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        value = text
    if isinstance(current, bool) or current is None:
        pass
    elif isinstance(current, float) and isinstance(value, int):
        value = float(value)
    elif isinstance(current, list) and isinstance(value, str):
        value = [v for v in value.split(",") if v]
    if isinstance(current, str) and not isinstance(value, str):
        value = text
    if type(value) is not type(current) and not (isinstance(current, list) and isinstance(value, list)):
        raise ConfigError(f"--set {name}={text}: expected a value of type {type(current).__name__}")
    return value


def load_config(path: str | Path | None, overrides: list[str] = (), base: dict[str, Any] | None = None) -> Config:
    """Read a TOML config (or start from ``base``), then apply ``key=value`` overrides.

    >>> load_config(None, ["total_games=10", "lam=0.5", "eval_opponents=pubeval"]).eval_opponents
    ['pubeval']
    """
    data: dict[str, Any] = dict(base or {})
    source = "config"
    if path is not None:
        source = str(path)
        try:
            with open(path, "rb") as fh:
                data.update(tomllib.load(fh))
        except FileNotFoundError:
            raise ConfigError(f"config file {source!r} not found") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config file {source!r} is not valid TOML: {exc}") from None
    defaults = Config().as_dict()
    for item in overrides:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or key not in defaults:
            raise ConfigError(f"bad --set {item!r}: expected key=value with a key of the config")
        data[key] = _coerce(key, text.strip(), data.get(key, defaults[key]))
    return Config.from_dict(data, source)
