"""The match table as the terminal draws it: the board seen by one player, with the score, cube and dice beside it."""

from __future__ import annotations

from collections.abc import Collection

from gammon.board_text import Painter, draw_board
from gammon.match import Table
from gammon.position import Position


def points_text(points: int) -> str:
    """``1 point``, ``3 points``."""
    return f"{points} point{'s' if points != 1 else ''}"


def seat_symbols(viewer: int) -> tuple[str, str]:
    """The checkers of ``viewer`` and of the other player: seat 0 is always X, seat 1 always O."""
    return ("X", "O") if viewer == 0 else ("O", "X")


def table_notes(table: Table, viewer: int, symbols: tuple[str, str] = ("X", "O"), paint: Painter | None = None) -> list[str]:
    """The side notes of :func:`draw_table`: names, scores, cube, match and dice."""
    other = 1 - viewer
    rules = table.rules
    notes = [""] * 11
    me, them = symbols
    notes[0] = f"{them}: {table.names[other]}"
    notes[1] = points_text(table.score[other])
    notes[10] = f"{me}: {table.names[viewer]}"
    notes[9] = points_text(table.score[viewer])
    cube = f"Cube: {table.cube}" if rules.cube and not table.crawford else ""
    shown = paint(cube, "cube") if paint and cube else cube
    if cube and table.owner == other:
        notes[2] = shown
    elif cube and table.owner == viewer:
        notes[8] = shown
    what = f"{rules.match_length}-point match" if rules.match_length else "money session"
    if table.crawford:
        what += " (Crawford game)"
    elif cube and table.owner == -1:
        what += f" ({shown})"
    notes[5] = what
    on_roll_row = 7 if table.on_roll == viewer else 3
    if table.state != "playing":
        notes[on_roll_row] = ""
    elif table.dice:
        notes[on_roll_row] = f"Rolled {max(table.dice)}-{min(table.dice)}"  # as the prompt writes it
    else:
        notes[on_roll_row] = "On roll"
    if table.double_offered:
        notes[on_roll_row] = f"Doubles to {table.cube * 2}"
    return notes


def draw_table(
    table: Table,
    viewer: int,
    *,
    position: Position | None = None,
    symbols: tuple[str, str] = ("X", "O"),
    marks: Collection[int] = (),
    hits: Collection[int] = (),
    paint: Painter | None = None,
) -> str:
    """The board of ``table`` seen from ``viewer`` (at the bottom), GNU Backgammon style.

    The Position ID is the real one (from the player on roll), followed by
    the Match ID. ``position`` (seen from ``viewer``) replaces the table's,
    e.g. a move half entered; ``symbols`` are the viewer's checkers and the
    other player's; ``marks`` points to highlight (the last move).
    """
    shown = position if position is not None else table.position_for(viewer)
    me, them = symbols
    lines = draw_board(shown, table_notes(table, viewer, symbols, paint), symbols=symbols, marks=marks,
                       hits=hits, paint=paint).split("\n")
    lines[0] = f" GNU Backgammon  Position ID: {table.position.position_id()}"
    lines.insert(1, f"                 Match ID   : {table.match_id()}")
    playing = table.state == "playing"
    for i, line in enumerate(lines):
        if line.endswith(f" off {me} (on roll)"):
            lines[i] = line[: -len(" (on roll)")] + (" (on roll)" if table.on_roll == viewer and playing else "")
        elif line.startswith(" +13-14") and line.endswith(f" off {them}"):
            lines[i] = line + (" (on roll)" if table.on_roll != viewer and playing else "")
    return "\n".join(lines)
