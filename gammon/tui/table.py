"""The match table as the terminal draws it: the board seen by one player, with the score, cube and dice beside it."""

from __future__ import annotations

from gammon.board_text import draw_board
from gammon.match import Table


def table_notes(table: Table, viewer: int) -> list[str]:
    """The side notes of :func:`draw_table`: names, scores, cube, match and dice."""
    other = 1 - viewer
    rules = table.rules
    notes = [""] * 11

    def score(player: int) -> str:
        points = table.score[player]
        return f"{points} point{'s' if points != 1 else ''}"

    notes[0] = f"O: {table.names[other]}"
    notes[1] = score(other)
    notes[10] = f"X: {table.names[viewer]}"
    notes[9] = score(viewer)
    cube = f"Cube: {table.cube}" if rules.cube and not table.crawford else ""
    if cube and table.owner == other:
        notes[2] = cube
    elif cube and table.owner == viewer:
        notes[8] = cube
    what = f"{rules.match_length}-point match" if rules.match_length else "money session"
    if table.crawford:
        what += " (Crawford game)"
    elif cube and table.owner == -1:
        what += f" ({cube})"
    notes[5] = what
    on_roll_row = 7 if table.on_roll == viewer else 3
    if table.state != "playing":
        notes[on_roll_row] = ""
    elif table.dice:
        notes[on_roll_row] = f"Rolled {table.dice[0]}{table.dice[1]}"
    else:
        notes[on_roll_row] = "On roll"
    if table.double_offered:
        notes[on_roll_row] = f"Doubles to {table.cube * 2}"
    return notes


def draw_table(table: Table, viewer: int) -> str:
    """The board of ``table`` seen from ``viewer`` (X at the bottom), GNU Backgammon style.

    The Position ID is the real one (from the player on roll), followed by the Match ID.
    """
    position = table.position_for(viewer)
    lines = draw_board(position, table_notes(table, viewer)).split("\n")
    lines[0] = f" GNU Backgammon  Position ID: {table.position.position_id()}"
    lines.insert(1, f"                 Match ID   : {table.match_id()}")
    mark_x = "X (on roll)" if table.on_roll == viewer and table.state == "playing" else "X"
    mark_o = "O (on roll)" if table.on_roll != viewer and table.state == "playing" else "O"
    for i, line in enumerate(lines):
        if line.endswith("     X (on roll)"):
            lines[i] = line[: -len("X (on roll)")] + mark_x
        elif line.startswith(" +13-14") and line.endswith("     O"):
            lines[i] = line[:-1] + mark_o
    return "\n".join(lines)
