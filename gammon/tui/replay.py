"""Replaying a saved match: :class:`Replay` players answer from a :class:`Script` of its actions, then play on."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gammon.bots.base import Bot
from gammon.ids import MatchState
from gammon.match import Match, Observer, Resignation, Table
from gammon.outcomes import worst_loss
from gammon.play import Play
from gammon.position import Position
from gammon.records import Action, Rules
from gammon.tui.human import HumanBot
from gammon.tui.saves import Autosave, RecordingDice, SaveError


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


def replayed_match(players: Sequence[Bot], dice: RecordingDice, rules: Rules, autosave: Autosave, *,
                   actions: Sequence[Action] = (), rolls: int | None = None, observers: Sequence[Observer] = (),
                   start: MatchState | None = None, position: Position | None = None) -> Match:
    """A match autosaved after every action that first replays ``actions`` silently, then plays on.

    During the replay :class:`Replay` players answer from the script, the
    humans among ``players`` say nothing and neither ``observers`` nor
    ``autosave`` hear anything; with ``rolls``, the replay must have used
    exactly that many rolls of ``dice`` (seeded dice: the same seed).
    """
    script = Script(list(actions))
    humans = [p for p in players if isinstance(p, HumanBot)]
    for human in humans:
        human.quiet = script.replaying

    def replayed() -> None:
        for human in humans:
            human.quiet = False
        if rolls is not None and len(dice.rolls) != rolls:
            raise SaveError(f"{autosave.path} does not replay: its {rolls} rolls came out as {len(dice.rolls)}")

    script.on_done.append(replayed)

    def after_replay(observer: Observer) -> Observer:
        def hear(action: Action, table: Table) -> None:
            if not script.replaying:
                observer(action, table)

        return hear

    seated = [Replay(p, i, script) for i, p in enumerate(players)] if script.replaying else list(players)
    match = Match(seated, dice, rules, start=start, position=position,
                  observers=[*(after_replay(o) for o in (*observers, autosave)), script])
    autosave.match = match
    for human in humans:
        human.record_source = lambda: match.record  # the in-game `analyse`
    return match
