"""ANSI colours for the terminal board: each player's checkers, the last move, hits and the cube.

Colours are used only when the output is a terminal, ``NO_COLOR`` is not
set (https://no-color.org) and neither ``--no-color`` nor the ``color``
setting turned them off. Each seat keeps its colour for the whole match
(seat 0 red, seat 1 blue), whichever side of the board it is drawn on.

>>> paint = painter(0)
>>> paint(" X ", "bottom") == "\\x1b[1;31m X \\x1b[0m"
True
"""

from __future__ import annotations

import os
from typing import TextIO

from gammon.board_text import Painter

RESET = "\x1b[0m"
SEAT_COLOURS = ("1;31", "1;34")  # bold red, bold blue
ROLES = {"mark": "7", "hit": "1;33;41", "cube": "1;33"}  # reverse video; yellow on red; bold yellow


def wants_colour(stream: TextIO, flag: bool | None = None, setting: bool = True) -> bool:
    """Whether to colour what goes to ``stream``: a terminal, no ``NO_COLOR``, not turned off by flag or setting."""
    if flag is False or (flag is None and not setting):
        return False
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def painter(seat: int) -> Painter:
    """The painter for the board as ``seat`` sees it (its checkers at the bottom)."""
    colours = {"bottom": SEAT_COLOURS[seat], "top": SEAT_COLOURS[1 - seat], **ROLES}

    def paint(text: str, role: str) -> str:
        code = colours.get(role)
        return f"\x1b[{code}m{text}{RESET}" if code else text

    return paint
