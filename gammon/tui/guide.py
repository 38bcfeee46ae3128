"""The move guide: for each checker that can move, where it can go with which die, and what happens there.

Destinations are those that still lead to a legal play (the rules on using
both dice and the higher die included); a point a die would reach but
cannot is shown as blocked, with the reason.

>>> from gammon.position import Position
>>> from gammon.tui.entry import PlayEntry
>>> print(guide_text(PlayEntry(Position.from_checkers({25: 1, 6: 14}, {22: 2, 5: 1}), (3, 1))))
 Move guide (3-1 to play; you must enter from the bar first):
   bar: 24 with the 1; 22 blocked (the 3)
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.tui.entry import EntryError, PlayEntry


@dataclass(frozen=True)
class Route:
    """One checker from ``src`` with ``die``: to ``dst`` (0 off), or why not (``blocked``)."""

    src: int
    die: int
    dst: int
    hit: bool = False
    blocked: str = ""


def routes(entry: PlayEntry) -> list[Route]:
    """Every single-die move of the checkers in ``entry``'s position, highest point first."""
    board = entry.board
    found = []
    for src in range(25, 0, -1):
        if board[src] <= 0:
            continue
        for die in sorted(set(entry.remaining), reverse=True):
            dst = max(src - die, 0)
            target = f"{'bar' if src == 25 else src}/{dst or 'off'}"
            try:
                entry.enter(target)
            except EntryError as exc:
                if "bar first" in str(exc):
                    continue
                if "blocked" in str(exc):
                    found.append(Route(src, die, dst, blocked="blocked"))
                continue
            group = entry.groups[-1]
            entry.undo()
            if len(group) == 1:
                found.append(Route(src, die, dst, hit=group[0].hit))
    return found


def guide_text(entry: PlayEntry) -> str:
    """The guide as lines for the terminal."""
    d1, d2 = entry.dice
    left = " ".join(map(str, entry.remaining))
    note = "; you must enter from the bar first" if entry.board[25] > 0 else ""
    head = f" Move guide ({d1}-{d2} to play{note}):" if not entry.groups else f" Move guide ({left} to play{note}):"
    by_point: dict[int, list[str]] = {}
    for r in routes(entry):
        where = "off" if r.dst == 0 else str(r.dst)
        if r.blocked:
            text = f"{where} blocked (the {r.die})"
        else:
            text = f"{'bears off' if r.dst == 0 else where} with the {r.die}" + (", hitting" if r.hit else "")
        by_point.setdefault(r.src, []).append(text)
    if not by_point:
        return head + "\n   no checker can move."
    lines = [head]
    for src, texts in by_point.items():
        open_first = sorted(texts, key=lambda t: "blocked" in t)
        lines.append(f"   {'bar' if src == 25 else src}: " + "; ".join(open_first))
    return "\n".join(lines)
