"""The ASCII board, in GNU Backgammon's layout, with the way the checkers move spelt out.

The player at the bottom (``X`` unless told otherwise) moves from the
24-point (top right) leftwards along the top, then rightwards along the
bottom to the 1-point and off the board at the right, where the borne-off
checkers are drawn (the ``off`` column). Their home board is 1-6, bottom
right. The other player moves the opposite way.

>>> from gammon.position import Position
>>> text = draw_board(Position.initial())
>>> text.splitlines()[1]
' +13-14-15-16-17-18------19-20-21-22-23-24-+ off O'
>>> "home board is 1-6" in text
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gammon.position import Position

_TOP = " +13-14-15-16-17-18------19-20-21-22-23-24-+"
_BOTTOM = " +12-11-10--9--8--7-------6--5--4--3--2--1-+"
ROWS = 5

#: Paints a piece of text for the terminal: ``paint(text, role)``; roles are
#: ``"bottom"``, ``"top"`` (checkers of either player), ``"mark"`` (a point of
#: the last move), ``"hit"`` and ``"cube"``. The default leaves text as it is.
Painter = Callable[[str, str], str]


def _plain(text: str, role: str) -> str:
    return text


def legend(symbol: str = "X", other: str = "O") -> list[str]:
    """The two lines under the board saying which way ``symbol`` (at the bottom) moves.

    >>> legend()[0]
    ' X moves 24 -> 13 along the top (right to left), then 12 -> 1 along the bottom (left to right),'
    """
    return [
        f" {symbol} moves 24 -> 13 along the top (right to left), then 12 -> 1 along the bottom (left to right),",
        f" {symbol}'s home board is 1-6 (bottom right), then off at the right ('off'); {other} moves the other way.",
    ]


def draw_board(
    position: Position,
    side_notes: list[str] | None = None,
    *,
    symbols: tuple[str, str] = ("X", "O"),
    marks: Collection[int] = (),
    hits: Collection[int] = (),
    paint: Painter | None = None,
    show_legend: bool = True,
) -> str:
    """Draw ``position`` with its Position ID, pip counts and a legend of the direction of play.

    ``side_notes`` are up to 12 lines printed to the right of the board
    (score, cube, dice...). ``symbols`` are the checkers of the player on
    roll (at the bottom) and of the other. ``marks`` are points (in the
    bottom player's numbering) to highlight, e.g. the last move, and
    ``hits`` the points where it hit, drawn with ``paint``.
    """
    paint = paint or _plain
    me, them = symbols
    b = position.board.tolist()
    mine_off, theirs_off = position.borne_off()

    def cell(p: int, row: int) -> str:
        count, symbol, role = (b[p], me, "bottom") if b[p] > 0 else (-b[p], them, "top")
        if count > ROWS and row == ROWS - 1:
            text = f"{count:>2} "
        else:
            text = f" {symbol} " if count > row else ("   " if p not in marks or row else " . ")
        if count > row or (p in marks and row == 0):
            text = paint(text, "hit" if p in hits else "mark" if p in marks else role)
        return text

    def half(points: list[int], row: int, bar: str) -> str:
        cells = [cell(p, row) for p in points]
        return " |" + "".join(cells[:6]) + "|" + bar + "|" + "".join(cells[6:]) + "|"

    def bar_cell(count: int, row: int, symbol: str, role: str) -> str:
        if count > ROWS and row == ROWS - 1:
            return paint(f"{count:>2} ", role)
        return paint(f" {symbol} ", role) if count > row else "   "

    def off_cell(count: int, row: int, symbol: str, role: str) -> str:
        n = min(max(count - 3 * row, 0), 3)
        return paint(symbol * n, role) + " " * (3 - n)

    top, bottom = list(range(13, 25)), list(range(12, 0, -1))
    notes = list(side_notes or []) + [""] * 12
    lines = [f" GNU Backgammon  Position ID: {position.position_id()}", _TOP + f" off {them}"]
    for row in range(ROWS):
        bar = bar_cell(-b[0], row, them, "top")
        lines.append(half(top, row, bar) + f" {off_cell(theirs_off, row, them, 'top')} {notes[row]}")
    lines.append(" |                  |BAR|                  |     " + notes[5])
    for row in reversed(range(ROWS)):
        bar = bar_cell(b[25], row, me, "bottom")
        lines.append(half(bottom, row, bar) + f" {off_cell(mine_off, row, me, 'bottom')} {notes[10 - row]}")
    lines.append(_BOTTOM + f" off {me} (on roll)")
    pips = position.pip_counts()
    lines.append(f" Pip count  {me}: {pips[0]}  {them}: {pips[1]}   Borne off  {me}: {mine_off}  {them}: {theirs_off}")
    if show_legend:
        lines += legend(me, them)
    return "\n".join(line.rstrip() for line in lines)
