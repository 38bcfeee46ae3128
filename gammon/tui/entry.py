"""A play entered one checker at a time: each checker move checked as it is typed, undo, and why an entry is wrong.

A :class:`PlayEntry` holds the checker moves typed so far in a turn. Each
entry (``8/5``, ``13/8`` with a 3-2, ``bar/22``, ``6/off``, or several at
once) is applied only if it can still lead to one of the legal plays;
otherwise :class:`EntryError` says which rule it breaks and nothing
changes.

>>> from gammon.position import Position
>>> entry = PlayEntry(Position.initial(), (3, 1))
>>> entry.enter("8/5"); entry.remaining
[1]
>>> entry.enter("6/4")
Traceback (most recent call last):
gammon.tui.entry.EntryError: 6/4 needs a 2: you have a 1 left
>>> entry.enter("6/5"); entry.complete, str(entry.play())
(True, '8/5 6/5')
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations

import numpy as np

from gammon.errors import GammonError
from gammon.play import Move, Play, format_moves, parse_moves
from gammon.position import Dice, Position


class EntryError(GammonError):
    """An entry that breaks a rule (or cannot be read); the message says which, in a player's words."""


def _name(point: int) -> str:
    return "the bar" if point == 25 else f"the {point}-point"


def _text(src: int, dst: int) -> str:
    return f"{'bar' if src == 25 else src}/{'off' if dst <= 0 else dst}"


def step_error(board: np.ndarray, src: int, die: int) -> str | None:
    """Why moving a checker from ``src`` by ``die`` is illegal on ``board`` (None when it is legal).

    >>> from gammon.position import Position
    >>> step_error(Position.from_checkers({25: 1, 13: 14}, {}).board.astype(int), 13, 3)
    'you must enter from the bar first'
    """
    if board[25] > 0 and src != 25:
        return "you must enter from the bar first"
    if board[src] <= 0:
        return f"you have no checker on {_name(src)}"
    dst = src - die
    if dst <= 0:
        if board[7:26].clip(0).sum() > 0:
            return "you may bear off only when all your checkers are in your home board (1-6)"
        if dst < 0 and board[src + 1:7].clip(0).sum() > 0:
            return (f"a {die} bears off from {_name(src)} only when no checker of yours is on a higher point "
                    f"(move the one from {max(p for p in range(src + 1, 7) if board[p] > 0)} first)")
    elif board[dst] < -1:
        verb = "enter on" if src == 25 else "move to"
        return f"you cannot {verb} {_name(dst)}: it is blocked ({-board[dst]} opposing checkers)"
    return None


def _apply(board: np.ndarray, src: int, die: int) -> tuple[np.ndarray, Move]:
    b = board.copy()
    dst = max(src - die, 0)
    b[src] -= 1
    hit = False
    if dst > 0:
        if b[dst] == -1:
            b[dst], b[0], hit = 0, b[0] - 1, True
        b[dst] += 1
    return b, Move(src, dst, hit)


def _final_key(board: np.ndarray) -> bytes:
    return bytes((-board[::-1]).astype(np.int8))


def _completions(board: np.ndarray, dice: list[int], k: int) -> Iterator[bytes]:
    """The boards (as :func:`_final_key`) reached by ``k`` more legal checker moves with some of ``dice``."""
    if k == 0:
        yield _final_key(board)
        return
    for i, die in enumerate(dice):
        if die in dice[:i]:
            continue
        rest = dice[:i] + dice[i + 1:]
        for src in range(25, 0, -1):
            if board[src] > 0 and step_error(board, src, die) is None:
                yield from _completions(_apply(board, src, die)[0], rest, k - 1)


def _most_moves(board: np.ndarray, dice: list[int]) -> int:
    """How many of ``dice`` can still be played from ``board``."""
    best = 0
    for i, die in enumerate(dice):
        if die in dice[:i]:
            continue
        for src in range(25, 0, -1):
            if board[src] > 0 and step_error(board, src, die) is None:
                best = max(best, 1 + _most_moves(_apply(board, src, die)[0], dice[:i] + dice[i + 1:]))
                if best == len(dice):
                    return best
    return best


class PlayEntry:
    """The checker moves of one turn typed so far, each checked against the legal plays of ``dice``."""

    def __init__(self, position: Position, dice: Dice) -> None:
        self.position = position
        self.dice = (max(dice), min(dice))
        self.plays = position.legal_plays(dice)
        #: How many dice every legal play uses.
        self.needed = len(self.plays[0].moves)
        self._finals = {bytes(p._after): p for p in self.plays}
        self._start = position.board.astype(np.int64)
        #: One list of single-die moves per entered checker move, in order.
        self.groups: list[list[Move]] = []
        self._boards: list[np.ndarray] = []
        self._left: list[list[int]] = []

    # -- state ---------------------------------------------------------------------------

    @property
    def board(self) -> np.ndarray:
        return self._boards[-1] if self._boards else self._start

    @property
    def remaining(self) -> list[int]:
        """The dice not used yet, highest first."""
        if self._left:
            return self._left[-1]
        d1, d2 = self.dice
        return [d1] * 4 if d1 == d2 else [d1, d2]

    @property
    def used(self) -> int:
        return sum(len(g) for g in self.groups)

    @property
    def complete(self) -> bool:
        """Every die the rules require has been used."""
        return self.used == self.needed

    def current(self) -> Position:
        """The position with the checkers moved so far (the same player still to move)."""
        return Position(self.board) if self.groups else self.position

    def moves(self) -> tuple[Move, ...]:
        return tuple(m for g in self.groups for m in g)

    def text(self) -> str:
        """The moves so far in standard notation."""
        return format_moves(self.moves())

    def play(self) -> Play:
        """The legal play the entered moves make (only when :attr:`complete`)."""
        if not self.complete:
            raise EntryError(f"the play is not finished: {self._dice_left()}")
        return self._finals[_final_key(self.board)]

    # -- changing it -----------------------------------------------------------------------

    def enter(self, text: str) -> None:
        """Apply the checker moves in ``text`` (all of them or, on an error, none)."""
        try:
            segments = parse_moves(text)
        except GammonError as exc:
            raise EntryError(str(exc)) from None
        if not segments:
            raise EntryError("type a checker move such as 8/5, or 'moves' for the list of legal plays")
        saved = (list(self.groups), list(self._boards), list(self._left))
        try:
            for i, (src, dst) in enumerate(segments):
                if i and self.complete:
                    d1, d2 = self.dice
                    raise EntryError(f"{text.strip()} moves more than your dice allow: {self.text()} "
                                     f"already uses all of {d1}-{d2}")
                self._enter_one(src, dst)
        except EntryError:
            self.groups, self._boards, self._left = saved
            raise

    def undo(self) -> str | None:
        """Take back the last checker move; its notation, or None when nothing was moved."""
        if not self.groups:
            return None
        group = self.groups.pop()
        self._boards.pop()
        self._left.pop()
        return format_moves(tuple(group))

    def reset(self) -> None:
        self.groups, self._boards, self._left = [], [], []

    def _enter_one(self, src: int, dst: int) -> None:
        if self.complete:
            raise EntryError(f"all your dice are used ({self.text()}): press Enter to finish, or undo")
        board, left = self.board, self.remaining
        if dst == 0 and board[src] > 0 and board[25] == 0:
            outside = int(board[7:25].clip(0).sum()) - (1 if src > 6 else 0)
            if outside > 0:
                raise EntryError(f"{_text(src, dst)}: you may bear off only when all your checkers are in your "
                                 "home board (1-6)")
        routes = list(self._routes(src, dst, left))
        if not routes:
            basic = step_error(board, src, src if dst == 0 else 0)  # bar first, no checker, not all home
            raise EntryError(f"{_text(src, dst)}: {basic}" if basic else self._distance_error(src, dst, left))
        first_error = None
        for route in routes:
            b, steps, error, pos = board, [], None, src
            for die in route:
                error = step_error(b, pos, die)
                if error:
                    break
                b, move = _apply(b, pos, die)
                steps.append(move)
                pos = move.dst
            if error:
                first_error = first_error or error
                continue
            rest = list(left)
            for die in route:
                rest.remove(die)
            if self._leads_to_a_play(b, rest, self.needed - self.used - len(route)):
                self.groups.append(steps)
                self._boards.append(b)
                self._left.append(rest)
                return
            first_error = first_error or self._rule_error(b, rest, route)
        raise EntryError(f"{_text(src, dst)}: {first_error}")

    # -- checks --------------------------------------------------------------------------------

    @staticmethod
    def _routes(src: int, dst: int, dice: list[int]) -> Iterator[tuple[int, ...]]:
        """Orders of some of ``dice`` that take a checker from ``src`` to ``dst`` (0: off), fewest dice first."""
        distance = src - dst
        seen: set[tuple[int, ...]] = set()
        for n in range(1, len(dice) + 1):
            for route in permutations(dice, n):
                if route in seen:
                    continue
                seen.add(route)
                total = sum(route)
                if total == distance or (dst == 0 and total > distance and sum(route[:-1]) < distance):
                    yield route

    def _leads_to_a_play(self, board: np.ndarray, dice: list[int], k: int) -> bool:
        if k < 0:
            return False
        return any(key in self._finals for key in _completions(board, dice, k))

    def _distance_error(self, src: int, dst: int, left: list[int]) -> str:
        distance = src - dst
        need = f"a {distance}" if distance <= 6 else f"{distance} pips"
        if dst == 0:
            need = f"a {distance} or more" if distance <= 6 else f"{distance} pips or more"
        d1, d2 = self.dice
        have = f"you rolled {d1}-{d2}" if not self.groups else (
            f"you have {'a ' + str(left[0]) if len(left) == 1 else ' '.join(map(str, left))} left")
        return f"{_text(src, dst)} needs {need}: {have}"

    def _rule_error(self, board: np.ndarray, rest: list[int], route: tuple[int, ...]) -> str:
        """Why legal checker moves still lead to no legal play: the rules on using the dice."""
        d1, d2 = self.dice
        if self.used + len(route) + _most_moves(board, rest) < self.needed:
            if d1 == d2:
                return f"you must play as many of your four {d1}s as you can ({self.needed} here)"
            return "you must use both dice when you can"
        if self.needed == 1 and d1 != d2 and route == (d2,):
            return f"the higher die must be played: when only one die can be used it must be the {d1}"
        return "that leads to no legal play (type 'moves' to see them)"

    def _dice_left(self) -> str:
        left = self.remaining
        return f"{len(left)} {'die' if len(left) == 1 else 'dice'} left to play ({' '.join(map(str, left))})"
