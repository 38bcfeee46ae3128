"""Helpers shared by subcommands."""

from __future__ import annotations

from gammon.errors import InvalidDiceError


def parse_dice(text: str) -> tuple[int, int]:
    """Read ``31``, ``3-1`` or ``3,1`` as a pair of dice.

    >>> parse_dice("6-5")
    (6, 5)
    """
    digits = [c for c in text if c.isdigit()]
    if len(digits) != 2 or not all("1" <= c <= "6" for c in digits) or len(text.strip()) > 3:
        raise InvalidDiceError(f"invalid dice {text!r}: expected two dice like 31 or 3-1")
    return int(digits[0]), int(digits[1])
