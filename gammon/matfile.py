"""The ``.mat`` match format (Jellyfish text) that GNU Backgammon and eXtreme Gammon import.

:func:`write_mat` lays a :class:`~gammon.records.MatchRecord` out the way GNU
Backgammon's own ``export match mat`` does; :func:`read_mat` reads such a
file back (ours or GNU Backgammon's) and replays every play through the
rules engine.

The layout, as GNU Backgammon writes and reads it::

     5 point match

     Game 1
     alice : 0                      bob : 0
      1)                             63: 24/18 18/15
      2) 52: 13/11 24/19              Doubles => 2
      3)  Takes                      42: 8/4 6/4
     ...
                                      Wins 2 points

Each numbered line holds one entry of player 0 (the left column, from
column 5) and one of player 1 (from column 33): a roll and its moves
(``52: 13/11 24/19``, single-die steps in the mover's own point numbering,
25 the bar, 0 off, ``*`` a hit), `` Doubles => 2``, `` Takes``,
`` Drops``, `` Beavers => 4``, or `` Wins 2 points``. GNU Backgammon splits
the columns at the second roll's colon, else at the first double space after
column 15. A game won by resignation ends with the resigner's roll (if they
had rolled) and the winner's ``Wins``; the points, compared with the cube,
tell the kind of resignation. Matches assume the Crawford rule.

>>> from gammon.bots.random_bot import RandomBot
>>> from gammon.dice import SeededDice
>>> from gammon.match import play_match
>>> record = play_match(RandomBot(seed=1), RandomBot(seed=2), 3, SeededDice(7), names=("alice", "bob"))
>>> text = write_mat(record)
>>> text.splitlines()[4]
' 3 point match'
>>> read_mat(text).score == record.score
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from gammon.errors import GammonError
from gammon.records import Action, GameRecord, MatchRecord, Rules, points_for
from gammon.play import Move
from gammon.position import Position

__all__ = ["MatFileError", "read_mat", "save_mat", "write_mat"]

#: Where the right-hand column starts, and the width of the line-number prefix.
RIGHT = 33
PREFIX = 5


class MatFileError(GammonError):
    """A record that cannot be written as ``.mat``, or text that is not a readable ``.mat`` file."""


# -- writing ---------------------------------------------------------------------


def _step(point: int) -> str:
    return str(point)


def move_text(dice: tuple[int, int], moves: Iterable[Move]) -> str:
    """One roll and its single-die steps: ``52: 13/8 24/22*``; a dance is ``52:``.

    >>> move_text((2, 5), [Move(25, 20, True), Move(6, 4)])
    '52: 25/20* 6/4'
    """
    steps = " ".join(f"{_step(m.src)}/{_step(m.dst)}{'*' if m.hit else ''}" for m in moves)
    head = f"{max(dice)}{min(dice)}:"
    return f"{head} {steps}" if steps else head


def _entries(game: GameRecord) -> list[tuple[int, str, bool]]:
    """The column entries of a game: (player, text, is_wins)."""
    entries: list[tuple[int, str, bool]] = []
    actions = game.actions
    last_roll: Action | None = None
    for i, action in enumerate(actions):
        kind = action.kind
        if kind == "roll":
            last_roll = action
        elif kind == "move":
            entries.append((action.player, move_text(action.dice or (0, 0), action.moves), False))
            last_roll = None
        elif kind == "double":
            entries.append((action.player, f" Doubles => {action.cube}", False))
        elif kind == "beaver":
            entries.append((action.player, f" Beavers => {action.cube}", False))
        elif kind == "take":
            entries.append((action.player, " Takes", False))
        elif kind == "pass":
            entries.append((action.player, " Drops", False))
        elif kind == "resign":
            accepted = i + 1 < len(actions) and actions[i + 1].kind == "accept"
            if accepted and last_roll is not None and last_roll.player == action.player and last_roll.dice:
                # GNU Backgammon reads a bare roll with one play or none as that play made.
                if len(_position_before(game, i).legal_plays(last_roll.dice)) > 1:
                    entries.append((action.player, move_text(last_roll.dice, ()), False))
        elif kind == "win":
            entries.append((action.player, f" Wins {action.points} point{'s' if action.points != 1 else ''}", True))
    return entries


def _position_before(game: GameRecord, index: int) -> Position:
    """The position (player on roll's side) before ``game.actions[index]``, by replaying the plays."""
    position = game.start or Position.initial()
    for action in game.actions[:index]:
        if action.kind == "move" and action.dice:
            if action.moves:
                play = position.parse_play(action.play, action.dice)
            else:
                play = position.legal_plays(action.dice)[0]
            position = position.apply(play)
    return position


def _lines(entries: list[tuple[int, str, bool]]) -> list[str]:
    lines: list[str] = []
    left: tuple[str, bool] | None = None
    right: tuple[str, bool] | None = None
    number = 0

    def flush() -> None:
        nonlocal left, right, number
        if left is None and right is None:
            return
        only_wins = all(cell is None or cell[1] for cell in (left, right))
        if only_wins:
            prefix = " " * PREFIX
        else:
            number += 1
            prefix = f"{number:3d}) "
        text = left[0] if left else ""
        if right is not None:
            text = text.ljust(max(RIGHT - PREFIX, len(text) + 2)) + right[0]
        lines.append((prefix + text).rstrip())
        left = right = None

    for player, text, wins in entries:
        if player == 0:
            flush()
            left = (text, wins)
        else:
            if right is not None:
                flush()
            right = (text, wins)
    flush()
    return lines


def _name(name: str) -> str:
    clean = " ".join(name.replace(":", "-").split()) or "player"
    return re.sub(r"(?i)game ", "game-", clean)


def write_mat(record: MatchRecord, *, event: str | None = None, date: str | None = None) -> str:
    """The ``.mat`` text of ``record`` (``date`` as ``YYYY.MM.DD`` if wanted).

    Games started from a set position cannot be written.
    """
    rules = record.rules
    header = ['; [Site "gammon"]']
    if event:
        header.append(f'; [Event "{event}"]')
    if date:
        header.append(f'; [EventDate "{date}"]')
    header.append('; [Variation "Backgammon"]')
    if rules.match_length:
        header.append(f'; [Crawford "{"On" if rules.crawford else "Off"}"]')
    else:
        header.append(f'; [Jacoby "{"On" if rules.jacoby else "Off"}"]')
        header.append(f'; [Beaver "{"On" if rules.beavers else "Off"}"]')
    if not rules.cube:
        header.append('; [CubeLimit "1"]')
    elif rules.cube_cap != 64:
        header.append(f'; [CubeLimit "{rules.cube_cap}"]')
    out = header + ["", f" {rules.match_length} point match", ""]
    names = [_name(n) for n in record.names]
    for game in record.games:
        if game.start is not None or game.start_cube != (1, -1):
            raise MatFileError(f"game {game.number} started from a set position: a .mat file cannot record that")
        out.append(f" Game {game.number}")
        left = f" {names[0]} : {game.score[0]}"
        out.append(left.ljust(max(RIGHT - 1, len(left) + 2)) + f"{names[1]} : {game.score[1]}")
        out.extend(_lines(_entries(game)))
        out.append("")
    return "\n".join(out) + "\n"


def save_mat(record: MatchRecord, path: str | Path, **options: str | None) -> Path:
    """Write ``record`` to ``path`` as ``.mat``; returns the path."""
    path = Path(path)
    try:
        path.write_text(write_mat(record, **options), encoding="utf-8")
    except OSError as exc:
        raise MatFileError(f"cannot write {str(path)!r}: {exc.strerror}") from None
    return path


# -- reading ---------------------------------------------------------------------

_HEADER = re.compile(r"^\s*(\d+)\s+[Pp]oint\s+[Mm]atch")
_GAME = re.compile(r"^\s*Game\s+(\d+)")
_SCORES = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_ROLL = re.compile(r"^([1-6])([1-6]):\s*(.*)$")


def _split(line: str) -> tuple[str, str]:
    """The two columns of a move line, split as GNU Backgammon splits them."""
    first = line.find(":")
    second = line.find(":", first + 1) if first >= 0 else -1
    if first >= 0 and second > 3:
        cut = second - 2
        left, right = line[: cut - 1], line[cut:]
    elif len(line) > 15 and "  " in line[15:]:
        cut = line.index("  ", 15)
        left, right = line[:cut], line[cut + 1:]
    else:
        left, right = line, ""
    paren = left.find(")")
    if paren >= 0:
        left = left[paren + 1:]
    return left.strip(), right.strip()


class _Reader:
    def __init__(self, record: MatchRecord) -> None:
        self.record = record

    def game(self, number: int, score: tuple[int, int], lines: list[str]) -> GameRecord:
        rules = self.record.rules
        crawford_done = any(g.crawford for g in self.record.games)
        length = rules.match_length
        crawford = bool(length) and rules.crawford and not crawford_done and (
            (score[0] == length - 1) != (score[1] == length - 1))
        game = GameRecord(number, score, crawford, first=-1)
        self.position = Position.initial()
        self.on_roll = -1
        self.cube, self.owner = 1, -1
        self.pending: int | None = None  # player who doubled, awaiting an answer
        for line in lines:
            left, right = _split(line)
            for player, cell in ((0, left), (1, right)):
                if cell and game.winner is None:
                    self.cell(game, player, cell, line)
        game.cube, game.cube_owner = self.cube, self.owner
        return game

    def cell(self, game: GameRecord, player: int, cell: str, line: str) -> None:
        roll = _ROLL.match(cell)
        lower = cell.lower()
        if roll:
            dice = (int(roll.group(1)), int(roll.group(2)))
            if self.pending is not None:  # a beaver followed by a roll: the beaver was taken
                self.pending = None
            self.turn_to(game, player, line)
            game.actions.append(Action(player, "roll", dice=dice))
            text = roll.group(3).strip()
            plays = self.position.legal_plays(dice)
            if not text and len(plays) > 1:
                return  # rolled, then resigned
            try:
                play = plays[0] if not text else self.position.parse_play(text, dice)
            except GammonError as exc:
                raise MatFileError(f"game {game.number}: cannot replay {cell!r}: {exc}") from None
            game.actions.append(Action(player, "move", dice=dice, moves=play.moves))
            after = self.position.apply(play)
            if after.is_game_over():
                result = after.result()
                self.win(game, player, result, points_for(result, self.cube, self.owner, self.record.rules), "bear-off")
                self.position, self.on_roll = after, 1 - player
            else:
                self.position, self.on_roll = after, 1 - player
        elif lower.startswith(("double", "beaver", "raccoon")):
            value = _number(cell) or self.cube * 2
            kind = "double" if lower.startswith("double") else "beaver"
            if kind == "double":
                self.turn_to(game, player, line)
                self.pending = player
            else:
                self.cube, self.owner = value, player
                self.pending = 1 - player
            game.actions.append(Action(player, kind, cube=value))
        elif lower.startswith("take"):
            if self.pending is None:
                raise MatFileError(f"game {game.number}: a take that follows no double: {line.strip()!r}")
            self.cube, self.owner, self.pending = self.cube * 2, player, None
            game.actions.append(Action(player, "take"))
        elif lower.startswith("drop") or lower.startswith("pass"):
            if self.pending is None:
                raise MatFileError(f"game {game.number}: a drop that follows no double: {line.strip()!r}")
            game.actions.append(Action(player, "pass"))
            self.win(game, 1 - player, 1, self.cube, "pass")
        elif lower.startswith("win"):
            points = _number(cell) or 1
            value = 1 if points <= self.cube else 2 if points <= 2 * self.cube else 3
            game.actions.append(Action(1 - player, "resign", value=value))
            game.actions.append(Action(player, "accept"))
            self.win(game, player, value, points, "resign")
        elif lower.startswith("resign"):
            return
        else:
            raise MatFileError(f"game {game.number}: unreadable entry {cell!r} in line {line.strip()!r}")

    def turn_to(self, game: GameRecord, player: int, line: str) -> None:
        if self.on_roll == -1:
            game.first = self.on_roll = player
            if player == 1:
                self.position = Position.initial()
        elif self.on_roll != player:
            raise MatFileError(f"game {game.number}: it is not player {player}'s turn in line {line.strip()!r}")

    def win(self, game: GameRecord, winner: int, result: int, points: int, how: str) -> None:
        game.winner, game.result, game.points, game.ended_by = winner, result, points, how
        game.final_position, game.final_on_roll = self.position, self.on_roll
        game.actions.append(Action(winner, "win", value=result, points=points))


def _number(text: str) -> int:
    found = re.search(r"\d+", text)
    return int(found.group()) if found else 0


def read_mat(text: str) -> MatchRecord:
    """Read ``.mat`` text into a :class:`MatchRecord`, replaying every play.

    Raises :class:`MatFileError` naming the game and the line it cannot read.
    """
    lines = text.splitlines()
    length = None
    jacoby = False
    start = 0
    for start, line in enumerate(lines):
        if line.lstrip().startswith((";", "#")):
            jacoby = jacoby or '[Jacoby "On"]' in line
            continue
        found = _HEADER.match(line)
        if found:
            length = int(found.group(1))
            break
    if length is None:
        raise MatFileError("not a .mat file: no 'N point match' line")
    games: list[tuple[int, list[str]]] = []
    for line in lines[start + 1:]:
        found = _GAME.match(line)
        if found and "Game " in line:
            games.append((int(found.group(1)), []))
        elif games and line.strip():
            games[-1][1].append(line)
    if not games:
        raise MatFileError("not a .mat file: no games")
    names: tuple[str, str] | None = None
    rules = Rules(match_length=length, jacoby=jacoby and not length)
    record: MatchRecord | None = None
    reader: _Reader | None = None
    for number, body in games:
        scores = _SCORES.match(body[0]) if body else None
        if not scores:
            raise MatFileError(f"game {number}: expected a line like 'alice : 0   bob : 0'")
        if names is None:
            names = (scores.group(1), scores.group(3))
            record = MatchRecord(names=names, rules=rules, start_score=(int(scores.group(2)), int(scores.group(4))))
            reader = _Reader(record)
        assert record is not None and reader is not None
        score = (int(scores.group(2)), int(scores.group(4)))
        if length and max(score) >= length:
            break
        record.games.append(reader.game(number, score, body[1:]))
    assert record is not None
    return record
