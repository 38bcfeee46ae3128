"""Match equity tables (METs) in GNU Backgammon's XML format.

A MET gives a player's match-winning chances (MWC) at the start of a game
from the points each side still needs ("away" scores). GNU Backgammon's
format has two parts:

* the pre-Crawford table: row ``i``, column ``j`` is the MWC of a player
  ``i+1``-away against an opponent ``j+1``-away. Where one side is 1-away
  this is the Crawford game;
* the post-Crawford column: entry ``n`` is the MWC of the trailer,
  ``n+1``-away, against a 1-away leader after the Crawford game. Entry 1
  (2-away) sits a little below 50% because of the leader's free drop.

Only explicit tables are read (``type="explicit"``), as every table GNU
Backgammon ships with a fixed length is; the parametric ``zadeh`` and
``mec`` types are refused. Kazaross-XG2 is bundled and is the default.

>>> met = load_met()
>>> met.name, met.length
('Kazaross XG2 25 point MET', 25)
>>> met.equity(1, 1), met.equity(1, 2), met.equity(2, 1, post_crawford=True)
(0.5, 0.67736, 0.48803)
>>> met.equity(0, 3), met.equity(4, -1)
(1.0, 0.0)
"""

from __future__ import annotations

import functools
import math
import os
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from importlib import resources

from gammon.errors import GammonError

__all__ = ["MatchEquityTable", "MatchEquityTableError", "default_met", "load_met"]

#: The bundled table, in ``gammon/data``.
DEFAULT_MET_FILE = "Kazaross-XG2.xml"

# GNU Backgammon fills the post-Crawford column from the table's length - 1
# onwards with Zadeh's recurrence: the trailer's gammon rate and the value of
# the leader's free drop at 2-away and 4-away.
_PC_GAMMON_RATE = 0.25
_PC_FREE_DROP = {1: 0.015, 3: 0.004}


class MatchEquityTableError(GammonError):
    """A match equity table file that cannot be read; the message names the file."""


@dataclass(frozen=True)
class MatchEquityTable:
    """A match equity table: match-winning chances by away scores.

    ``pre_crawford[i][j]`` is the MWC of a player ``i+1``-away against one
    ``j+1``-away; ``post_crawford[n]`` is the MWC of an ``n+1``-away
    trailer against a 1-away leader once the Crawford game is over.
    """

    name: str
    length: int
    pre_crawford: tuple[tuple[float, ...], ...] = field(repr=False)
    post_crawford: tuple[float, ...] = field(repr=False)
    description: str = field(default="", repr=False)
    source: str = field(default="", repr=False)

    def equity(self, away_me: int, away_opp: int, *, post_crawford: bool = False) -> float:
        """MWC of a player ``away_me``-away against one ``away_opp``-away.

        An away score of 0 or less means that player has already won the
        match. With one side 1-away, ``post_crawford`` chooses between the
        Crawford game (False) and a post-Crawford game (True).

        >>> met = load_met()
        >>> round(met.equity(3, 5) + met.equity(5, 3), 9)
        1.0
        >>> met.equity(3, 1, post_crawford=True)
        0.32264
        """
        if away_me <= 0:
            return 1.0
        if away_opp <= 0:
            return 0.0
        longest = max(away_me, away_opp)
        if longest > self.length:
            raise MatchEquityTableError(
                f"score {away_me}-away, {away_opp}-away is beyond the {self.length}-point table {self.name!r}"
            )
        if post_crawford:
            if away_opp == 1:
                return self.post_crawford[away_me - 1]
            if away_me == 1:
                return 1.0 - self.post_crawford[away_opp - 1]
            raise MatchEquityTableError(
                f"no post-Crawford game at {away_me}-away, {away_opp}-away: neither side is 1-away"
            )
        return self.pre_crawford[away_me - 1][away_opp - 1]


def load_met(path: str | os.PathLike[str] | None = None) -> MatchEquityTable:
    """Read a GNU Backgammon MET XML file; the bundled Kazaross-XG2 table by default.

    :class:`MatchEquityTableError` (a ``ValueError``) names a file that is
    missing, not XML, or not an explicit match equity table.

    >>> load_met("no/such/met.xml")
    Traceback (most recent call last):
    ...
    gammon.met.MatchEquityTableError: cannot read match equity table 'no/such/met.xml': file not found
    """
    if path is None:
        resource = resources.files("gammon") / "data" / DEFAULT_MET_FILE
        return _parse(resource.read_bytes(), f"gammon/data/{DEFAULT_MET_FILE}")
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise MatchEquityTableError(f"cannot read match equity table {name!r}: file not found") from None
    except OSError as exc:
        raise MatchEquityTableError(f"cannot read match equity table {name!r}: {exc.strerror or exc}") from None
    return _parse(data, name)


@functools.cache
def default_met() -> MatchEquityTable:
    """The bundled Kazaross-XG2 table, read once on first use."""
    return load_met()


def _parse(data: bytes, name: str) -> MatchEquityTable:
    def fail(reason: str) -> MatchEquityTableError:
        return MatchEquityTableError(f"invalid match equity table {name!r}: {reason}")

    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise fail(f"not well-formed XML ({exc})") from None
    if root.tag != "met":
        raise fail(f"root element is <{root.tag}>, expected <met>")

    pre = root.find("pre-crawford-table")
    if pre is None:
        raise fail("no <pre-crawford-table>")
    _check_explicit(pre, fail)
    length_text = root.findtext("info/length", "").strip()
    try:
        length = int(length_text)
    except ValueError:
        raise fail(f"<length> is {length_text!r}, expected a whole number") from None
    if not 1 <= length <= 64:
        raise fail(f"<length> is {length}, expected 1 to 64")
    rows = [_numbers(row, fail) for row in pre.findall("row")]
    if len(rows) != length or any(len(row) != length for row in rows):
        shape = f"{len(rows)} rows of {sorted({len(r) for r in rows})} entries"
        raise fail(f"pre-Crawford table is {shape}, expected {length} rows of {length}")

    post_tables = root.findall("post-crawford-table")
    if not post_tables:
        raise fail("no <post-crawford-table>")
    post = None
    for table in post_tables:
        _check_explicit(table, fail)
        player = table.get("player", "both")
        if player not in ("both", "0", "1"):
            raise fail(f"post-Crawford table for player {player!r}, expected 0, 1 or both")
        values = [v for row in table.findall("row") for v in _numbers(row, fail)]
        if len(values) < length - 1:
            raise fail(f"post-Crawford table has {len(values)} entries, expected at least {length - 1}")
        # Tables given per player are asymmetric only in the (theoretical)
        # player-0/player-1 sense; like GNU Backgammon's FIXME we use one.
        if post is None or player in ("both", "0"):
            post = values
    assert post is not None
    return MatchEquityTable(
        name=(root.findtext("info/name") or "").strip(),
        length=length,
        pre_crawford=tuple(tuple(row) for row in rows),
        post_crawford=_extend_post_crawford(post[: length - 1], length),
        description=" ".join((root.findtext("info/description") or "").split()),
        source=name,
    )


def _check_explicit(table: ElementTree.Element, fail) -> None:
    kind = table.get("type", "explicit")
    if kind != "explicit":
        raise fail(f"<{table.tag}> has type {kind!r}; only explicit tables are supported")


def _numbers(row: ElementTree.Element, fail) -> list[float]:
    values = []
    for cell in row.findall("me"):
        text = (cell.text or "").strip()
        try:
            value = float(text)
        except ValueError:
            raise fail(f"entry {text!r} is not a number") from None
        if not (math.isfinite(value) and 0.0 <= value <= 1.0):
            raise fail(f"entry {text!r} is not a probability between 0 and 1")
        values.append(value)
    return values


def _extend_post_crawford(known: list[float], length: int) -> tuple[float, ...]:
    """Fill entries ``length-1`` onwards as GNU Backgammon does (Zadeh's recurrence)."""
    column = list(known)
    for n in range(len(column), length):
        four_back = column[n - 4] if n >= 4 else 1.0
        two_back = column[n - 2] if n >= 2 else 1.0
        value = 0.5 * (_PC_GAMMON_RATE * four_back + (1.0 - _PC_GAMMON_RATE) * two_back)
        column.append(value - _PC_FREE_DROP.get(n, 0.0))
    return tuple(column)
