"""Nothing lost: every interactive match saved after each action, and resumed exactly by replaying it.

A save is a JSON file in :func:`saves_dir` (``$GAMMON_SAVES``, else
``$XDG_DATA_HOME/gammon/saves``, else ``~/.local/share/gammon/saves``). It
holds how the match was set up (:class:`Setup`), every recorded action and
every roll of the dice. Resuming replays the actions through
:class:`Replay` players with the same dice: seeded dice are rebuilt from
the seed (the file keeps the number of rolls used, and the replay must
use exactly as many), system dice are replayed from the recorded rolls
and then go on from the system's entropy.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gammon.bots.base import Bot
from gammon.dice import DiceSource, SeededDice, SystemDice
from gammon.errors import GammonError
from gammon.match import Match, Resignation, Table
from gammon.outcomes import worst_loss
from gammon.play import Move, Play
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
    """What ``gammon play`` was asked for: enough to build the same players and rules again."""

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


def new_save_path() -> Path:
    """A fresh file name in :func:`saves_dir`."""
    return saves_dir() / f"match-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.json"


class Autosave:
    """An observer that writes the match to ``path`` after every action (atomically)."""

    def __init__(self, path: Path, setup: Setup, dice: RecordingDice) -> None:
        self.path = path
        self.setup = setup
        self.dice = dice
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
            "finished": record.finished,
            "score": list(record.score),
        }
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

    def dice(self) -> DiceSource:
        """The dice to replay with: the seed again, or the recorded rolls and then the system's."""
        if self.setup.seed is not None:
            return SeededDice(self.setup.seed)
        return ReplayDice(self.rolls, SystemDice())


def read_save(path: Path) -> Saved:
    """Read a save file; :class:`SaveError` naming it when it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != VERSION:
            raise SaveError(f"{path} is not a gammon save (version {data.get('version')!r})")
        setup = Setup(**data["setup"])
        return Saved(path, setup, [tuple(r) for r in data["rolls"]], int(data["rolls_used"]),  # type: ignore[misc]
                     [_action(a) for a in data["actions"]], bool(data["finished"]),
                     tuple(data.get("score", (0, 0))), tuple(data.get("names", ("", ""))))  # type: ignore[arg-type]
    except FileNotFoundError:
        raise SaveError(f"no saved match {str(path)!r}") from None
    except SaveError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SaveError(f"cannot resume {path}: not a readable gammon save ({exc})") from None


def latest_unfinished(folder: Path | None = None) -> Path:
    """The most recently saved unfinished match in ``folder`` (default :func:`saves_dir`)."""
    folder = saves_dir() if folder is None else folder
    candidates = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.is_dir() else []
    for path in candidates:
        try:
            if not read_save(path).finished:
                return path
        except SaveError:
            continue
    raise SaveError(f"no unfinished match to resume in {folder}")


@dataclass
class Script:
    """The actions to replay, and how far the match has got through them."""

    actions: list[Action]
    index: int = 0
    on_done: list[Callable[[], None]] = field(default_factory=list)

    @property
    def replaying(self) -> bool:
        return self.index < len(self.actions)

    def peek(self) -> Action | None:
        return self.actions[self.index] if self.replaying else None

    def __call__(self, action: Action, table: Table) -> None:
        """Observe the match: each recorded action moves the script on (and must be the expected one)."""
        if action.kind in ("start", "match") or not self.replaying:
            return
        expected = self.actions[self.index]
        if (expected.kind, expected.player) != (action.kind, action.player) or expected.moves != action.moves:
            raise SaveError(f"the saved match does not replay: expected {expected.describe()}, got {action.describe()}")
        self.index += 1
        if not self.replaying:
            for hook in self.on_done:
                hook()


class Replay:
    """A player that answers from the script while it lasts, then is ``real``."""

    def __init__(self, real: Bot, seat: int, script: Script) -> None:
        self.real = real
        self.seat = seat
        self.script = script
        self.name = real.name

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def _mine(self, *kinds: str) -> Action | None:
        a = self.script.peek()
        return a if a is not None and a.player == self.seat and a.kind in kinds else None

    def _other(self, *kinds: str) -> Action | None:
        a = self.script.peek()
        return a if a is not None and a.player != self.seat and a.kind in kinds else None

    def offer_resignation(self, position, cube) -> int:  # type: ignore[no-untyped-def]
        if self.script.replaying:
            a = self._mine("resign")
            return a.value if a else 0
        hook = getattr(self.real, "offer_resignation", None)
        return hook(position, cube) if hook else 0

    def offer_double(self, position, cube) -> bool:  # type: ignore[no-untyped-def]
        if self.script.replaying:
            a = self._mine("resign")
            if a:
                raise Resignation(a.value)
            return self._mine("double") is not None
        return self.real.offer_double(position, cube)

    def accept_double(self, position, cube) -> bool:  # type: ignore[no-untyped-def]
        if self.script.replaying:
            return self._mine("take", "beaver") is not None
        return self.real.accept_double(position, cube)

    def beaver(self, position, cube) -> bool:  # type: ignore[no-untyped-def]
        if self.script.replaying:
            return self._mine("beaver") is not None
        hook = getattr(self.real, "beaver", None)
        return bool(hook(position, cube)) if hook else False

    def accept_resignation(self, position, value, cube) -> bool:  # type: ignore[no-untyped-def]
        if self.script.replaying:
            return self._mine("accept") is not None
        hook = getattr(self.real, "accept_resignation", None)
        return bool(hook(position, value, cube)) if hook else value >= worst_loss(position.board)

    def choose_match_play(self, position, dice, cube) -> Play:  # type: ignore[no-untyped-def]
        if self.script.replaying:
            a = self._mine("resign")
            if a:
                raise Resignation(a.value)
            a = self._mine("move")
            if a is None:
                raise SaveError(f"the saved match does not replay: {self.name} has no recorded move here")
            for play in position.legal_plays(dice):
                if play.moves == a.moves:
                    return play
            raise SaveError(f"the saved match does not replay: {a.describe()} is not legal here")
        hook = getattr(self.real, "choose_match_play", None)
        return hook(position, dice, cube) if hook else self.real.choose_play(position, dice)

    def choose_play(self, position, dice) -> Play:  # type: ignore[no-untyped-def]
        return self.real.choose_play(position, dice)

    def observe(self, action: Action, table: Table) -> None:
        hook = getattr(self.real, "observe", None)
        if hook:
            hook(action, table)
