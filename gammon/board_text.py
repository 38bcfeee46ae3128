"""The ASCII board, in GNU Backgammon's layout.

The player on roll is ``X`` at the bottom, moving from the 24-point (top
right) round to the 1-point (bottom right); ``O`` is the opponent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gammon.position import Position

_TOP = " +13-14-15-16-17-18------19-20-21-22-23-24-+"
_BOTTOM = " +12-11-10--9--8--7-------6--5--4--3--2--1-+"
ROWS = 5


def _cell(count: int, row: int, symbol: str) -> str:
    """Row ``row`` (0 nearest the edge) of a point holding ``count`` checkers."""
    if count > ROWS and row == ROWS - 1:
        return f"{count:>2} "
    return f" {symbol} " if count > row else "   "


def _half(counts: list[tuple[int, str]], row: int, bar: str) -> str:
    cells = [_cell(n, row, s) for n, s in counts]
    return " |" + "".join(cells[:6]) + "|" + bar + "|" + "".join(cells[6:]) + "|"


def draw_board(position: Position, side_notes: list[str] | None = None) -> str:
    """Draw ``position`` with its Position ID and pip counts.

    ``side_notes`` are up to 12 lines printed to the right of the board
    (score, cube, dice...).
    """
    b = position.board.tolist()
    mine_off, theirs_off = position.borne_off()

    def point(p: int) -> tuple[int, str]:
        return (b[p], "X") if b[p] > 0 else (-b[p], "O")

    top = [point(p) for p in range(13, 25)]
    bottom = [point(p) for p in range(12, 0, -1)]
    notes = list(side_notes or []) + [""] * 12
    lines = [f" GNU Backgammon  Position ID: {position.position_id()}", _TOP + "     O"]
    for row in range(ROWS):
        bar = f" {'O' if -b[0] > row else ' '} " if not (-b[0] > ROWS and row == ROWS - 1) else f"{-b[0]:>2} "
        off = "O" * min(max(theirs_off - 3 * row, 0), 3)
        lines.append(_half(top, row, bar) + f" {off:<3} {notes[row]}".rstrip())
    lines.append(" |                  |BAR|                  |     " + notes[5])
    for row in reversed(range(ROWS)):
        bar = f" {'X' if b[25] > row else ' '} " if not (b[25] > ROWS and row == ROWS - 1) else f"{b[25]:>2} "
        off = "X" * min(max(mine_off - 3 * row, 0), 3)
        lines.append(_half(bottom, row, bar) + f" {off:<3} {notes[10 - row]}".rstrip())
    lines.append(_BOTTOM + "     X (on roll)")
    pips = position.pip_counts()
    lines.append(f" Pip count  X: {pips[0]}  O: {pips[1]}   Borne off  X: {mine_off}  O: {theirs_off}")
    return "\n".join(line.rstrip() for line in lines)
