"""Nothing lost: every interactive match (and tournament) saved after each action, resumed exactly by replaying it.

A save is a JSON file in :func:`saves_dir` (``$GAMMON_SAVES``, else
``$XDG_DATA_HOME/gammon/saves``, else ``~/.local/share/gammon/saves``). It
holds how the match was set up (:class:`Setup`), every recorded action and
every roll of the dice. Resuming replays the actions through
:class:`gammon.tui.replay.Replay` players with the same dice: seeded dice
are rebuilt from the seed (the file keeps the number of rolls used, and the
replay must use exactly as many), system dice are replayed from the
recorded rolls and then go on from the system's entropy. A tournament's
save is its current round's match with a :class:`TournamentState`: the
bots, the lengths, the earlier rounds' results and how many rolls they used
(its dice run on from round to round).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gammon.dice import DiceSource, SeededDice, SystemDice
from gammon.errors import GammonError
from gammon.match import Match, Table
from gammon.play import Move
from gammon.records import Action

VERSION = 1


class SaveError(GammonError):
    """A saved match that cannot be resumed; the message names the file."""


def saves_dir() -> Path:
    """The folder of autosaved matches (created when the first one is written)."""
    explicit = os.environ.get("GAMMON_SAVES")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "gammon" / "saves"


@dataclass
class Setup:
    """What ``gammon play`` was asked for: enough to build the same players and rules again.

    A tournament keeps here the player's name and the seed; ``opponent`` and
    ``match_length`` are the current round's.
    """

    opponent: str = ""
    name: str = "you"
    two_player: bool = False
    match_length: int = 5
    cube: bool = True
    jacoby: bool = False
    beavers: bool = False
    seed: int | None = None
    plies: int | None = None
    save: str | None = None
    hint: bool = True
    position: str = ""
    match_id: str = ""


@dataclass
class TournamentState:
    """Where a tournament stands: its bots and match lengths, and the results of the rounds played.

    The round being played is ``len(results)``; ``rolls_before`` is how many
    rolls of the dice the earlier rounds used; ``folder`` is where each
    round's ``round-N.mat`` is kept.

    >>> t = TournamentState(["level2", "td"], [5, 7], results=[[5, 2]])
    >>> t.round, t.over, t.won
    (1, False, False)
    """

    opponents: list[str]
    lengths: list[int]
    results: list[list[int]] = field(default_factory=list)
    rolls_before: int = 0
    folder: str = ""

    @property
    def round(self) -> int:
        return len(self.results)

    @property
    def lost(self) -> bool:
        """The player lost the last round played."""
        return bool(self.results) and self.results[-1][0] < self.lengths[len(self.results) - 1]

    @property
    def won(self) -> bool:
        return len(self.results) == len(self.lengths) and not self.lost

    @property
    def over(self) -> bool:
        return self.lost or self.won


class RecordingDice:
    """A dice source that remembers every roll."""

    def __init__(self, inner: DiceSource, rolls: list[tuple[int, int]] | None = None) -> None:
        self.inner = inner
        self.rolls: list[tuple[int, int]] = list(rolls or [])

    def roll(self) -> tuple[int, int]:
        roll = self.inner.roll()
        self.rolls.append((int(roll[0]), int(roll[1])))
        return roll


class ReplayDice:
    """The recorded rolls first, then ``then``'s."""

    def __init__(self, rolls: list[tuple[int, int]], then: DiceSource) -> None:
        self._rolls = list(rolls)
        self._then = then

    def roll(self) -> tuple[int, int]:
        if self._rolls:
            d1, d2 = self._rolls.pop(0)
            return d1, d2
        return self._then.roll()


def _action_data(a: Action) -> dict[str, Any]:
    data: dict[str, Any] = {"player": a.player, "kind": a.kind}
    if a.dice:
        data["dice"] = list(a.dice)
    if a.moves:
        data["moves"] = [[m.src, m.dst, m.hit] for m in a.moves]
    for key in ("cube", "value", "points"):
        if getattr(a, key):
            data[key] = getattr(a, key)
    return data


def _action(data: dict[str, Any]) -> Action:
    return Action(int(data["player"]), str(data["kind"]), dice=tuple(data["dice"]) if "dice" in data else None,
                  moves=tuple(Move(int(s), int(d), bool(h)) for s, d, h in data.get("moves", ())),
                  cube=int(data.get("cube", 0)), value=int(data.get("value", 0)), points=int(data.get("points", 0)))


def new_save_path(kind: str = "match") -> Path:
    """A fresh file name in :func:`saves_dir`: ``match-<time>-<pid>.json`` (or ``tournament-...``)."""
    return saves_dir() / f"{kind}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.json"


def kept_note(path: Path | str, *, tournament: bool = False) -> str:
    """The line that says where an unfinished match (or tournament) is kept and how to go on with it.

    >>> kept_note("m.json")
    "The match is saved in m.json: 'gammon play --resume' continues it."
    """
    what, command = ("tournament", "tournament") if tournament else ("match", "play")
    return f"The {what} is saved in {path}: 'gammon {command} --resume' continues it."


class Autosave:
    """An observer that writes the match to ``path`` after every action (atomically).

    With a ``tournament`` the file is finished when the tournament is over,
    not when its current match is.
    """

    def __init__(self, path: Path, setup: Setup, dice: RecordingDice,
                 tournament: TournamentState | None = None) -> None:
        self.path = path
        self.setup = setup
        self.dice = dice
        self.tournament = tournament
        self.match: Match | None = None
        self.error: str | None = None

    def __call__(self, action: Action, table: Table) -> None:
        if action.kind == "start":
            return
        self.write()

    def write(self) -> None:
        if self.match is None:
            return
        record = self.match.record
        data = {
            "version": VERSION,
            "setup": asdict(self.setup),
            "names": list(record.names),
            "rolls_used": len(self.dice.rolls),
            "rolls": [list(r) for r in self.dice.rolls],
            "actions": [_action_data(a) for g in record.games for a in g.actions],
            "finished": self.tournament.over if self.tournament else record.finished,
            "score": list(record.score),
        }
        if self.tournament:
            data["tournament"] = asdict(self.tournament)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(data), encoding="utf-8")
            tmp.replace(self.path)
        except OSError as exc:  # saving is a safety net: say so once and play on
            self.error = f"cannot autosave to {self.path}: {exc}"


@dataclass
class Saved:
    """A save file read back."""

    path: Path
    setup: Setup
    rolls: list[tuple[int, int]]
    rolls_used: int
    actions: list[Action]
    finished: bool
    score: tuple[int, int] = (0, 0)
    names: tuple[str, str] = ("", "")
    tournament: TournamentState | None = None

    def recording_dice(self) -> RecordingDice:
        """The dice to replay the current match with, having rolled the earlier rounds' rolls (a tournament's).

        Seeded dice start again from the seed; system dice replay the recorded
        rolls and then go on with the system's.
        """
        before = self.tournament.rolls_before if self.tournament else 0
        inner: DiceSource
        if self.setup.seed is not None:
            inner = SeededDice(self.setup.seed)
            for _ in range(before):
                inner.roll()
        else:
            inner = ReplayDice(self.rolls[before:], SystemDice())
        return RecordingDice(inner, self.rolls[:before])


def read_save(path: Path) -> Saved:
    """Read a save file; :class:`SaveError` naming it when it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != VERSION:
            raise SaveError(f"{path} is not a gammon save (version {data.get('version')!r})")
        setup = Setup(**data["setup"])
        tournament = TournamentState(**data["tournament"]) if data.get("tournament") is not None else None
        if tournament and len(tournament.opponents) != len(tournament.lengths):
            raise ValueError(f"{len(tournament.opponents)} opponents for {len(tournament.lengths)} rounds")
        return Saved(path, setup, [tuple(r) for r in data["rolls"]], int(data["rolls_used"]),  # type: ignore[misc]
                     [_action(a) for a in data["actions"]], bool(data["finished"]),
                     tuple(data.get("score", (0, 0))), tuple(data.get("names", ("", ""))),  # type: ignore[arg-type]
                     tournament)
    except FileNotFoundError:
        raise SaveError(f"no saved match {str(path)!r}") from None
    except SaveError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SaveError(f"cannot resume {path}: not a readable gammon save ({exc})") from None


def latest_unfinished(folder: Path | None = None, *, tournament: bool = False) -> Path:
    """The most recently saved unfinished match (or ``tournament``) in ``folder`` (default :func:`saves_dir`)."""
    folder = saves_dir() if folder is None else folder
    candidates = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.is_dir() else []
    for path in candidates:
        try:
            saved = read_save(path)
        except SaveError:
            continue
        if not saved.finished and (saved.tournament is not None) == tournament:
            return path
    raise SaveError(f"no unfinished {'tournament' if tournament else 'match'} to resume in {folder}")
