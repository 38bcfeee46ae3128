"""A match at the terminal: the narration between the players' turns, the final report, saving, dice and seeds.

Shared by ``gammon play``, ``gammon demo`` and ``gammon tournament``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from gammon.bots import Bot, load
from gammon.dice import DiceSource, SeededDice, SystemDice
from gammon.errors import GammonError, is_interrupt
from gammon.match import Match, QuitMatch, Table
from gammon.records import Action, MatchRecord
from gammon.tui.words import describe

#: The shipped bots, strongest first: the default opponent is the first that loads.
STRONGEST = ("td", "level5", "level4", "level3", "random")


def strongest_bot(*, seed: int | None = None, plies: int | None = None, skip: Sequence[str] = ()) -> tuple[str, Bot]:
    """The strongest shipped bot that loads here: ``(spec, bot)``."""
    errors = []
    for spec in STRONGEST:
        if spec in skip:
            continue
        try:
            return spec, load(spec, seed=seed, **({"plies": plies} if plies is not None and spec == "td" else {}))
        except GammonError as exc:
            errors.append(f"{spec}: {exc}")
    raise GammonError("no bot could be loaded: " + "; ".join(errors))


def dice_for(seed: int | None) -> DiceSource:
    """Seeded dice for a reproducible run, else the operating system's entropy."""
    return SeededDice(seed) if seed is not None else SystemDice()


def bot_seed(seed: int | None, index: int) -> int | None:
    """A bot's own seed, derived from the run's."""
    return None if seed is None else seed * 1000 + 17 + index


class Narrator:
    """Tells the story of a match between the players' own output: game starts, results, the score.

    ``pause`` asks for Enter between games (interactive play); ``quit`` there
    stops the match.
    """

    def __init__(self, out: TextIO, *, pause: Callable[[str], str] | None = None, viewer: int | None = None) -> None:
        self.out = out
        self.pause = pause
        #: The player whose point numbering moves are told in (None: the mover's).
        self.viewer = viewer

    def __call__(self, action: Action, table: Table) -> None:
        names = table.names
        if action.kind == "start":
            what = " (the Crawford game: no doubling)" if table.crawford else ""
            self.say(f"\n Game {table.game}{what}: {describe(action, names, self.viewer)}.")
        elif action.kind == "win":
            self.say(f" {describe(action, names, self.viewer)}. Score: {score_text(table)}.")
            if self.pause is not None and not _match_over(table):
                answer = self.pause(" Press Enter for the next game (or type quit): ")
                if answer.strip().lower() in ("quit", "q", "exit"):
                    raise QuitMatch("quit between games")

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)


def _match_over(table: Table) -> bool:
    return bool(table.rules.match_length) and max(table.score) >= table.rules.match_length


def score_text(table_or_record: Table | MatchRecord) -> str:
    """``you 3, level5 1 (5-point match)``."""
    names, score, rules = table_or_record.names, table_or_record.score, table_or_record.rules
    return f"{names[0]} {score[0]}, {names[1]} {score[1]} ({rules.describe()})"


def final_report(record: MatchRecord, quit_early: bool) -> str:
    """The last line: the final score and who won."""
    games = len([g for g in record.games if g.finished])
    text = f" Final score: {record.names[0]} {record.score[0]}, {record.names[1]} {record.score[1]} ({record.rules.describe()}"
    text += f", {games} game{'s' if games != 1 else ''})."
    winner = record.winner
    if record.rules.match_length and record.finished and winner is not None:
        text += f" Match won by {record.names[winner]}."
    elif quit_early:
        text += " Match stopped."
    return text


def check_save_path(path: str | None) -> None:
    """Fail before playing when ``--save`` names a file in a folder that does not exist."""
    if path and not Path(path).expanduser().resolve().parent.is_dir():
        raise GammonError(f"cannot save to {path!r}: the folder {str(Path(path).parent)!r} does not exist")


def save(record: MatchRecord, path: str | None, out: TextIO) -> None:
    if not path:
        return
    from gammon.matfile import save_mat

    save_mat(record, path)
    print(f" Saved the match to {path}", file=out, flush=True)


def run_match(match: Match, out: TextIO, save_path: str | None = None, kept: str | None = None,
              offer_analysis: bool = False) -> MatchRecord:
    """Play ``match`` to the end (or until someone quits), report the score and save it.

    ``kept`` says where an unfinished match is kept and how to resume it (:func:`gammon.tui.saves.kept_note`);
    ``offer_analysis`` ends with the command that analyses the saved match.
    """
    quit_early = False
    try:
        match.play()
    except QuitMatch:
        quit_early = True
    except (KeyboardInterrupt, SystemError) as exc:
        if not is_interrupt(exc):
            raise
        quit_early = True
        print("", file=out)
    record = match.record
    print(final_report(record, quit_early), file=out, flush=True)
    if kept and not record.finished:
        print(f" {kept}", file=out, flush=True)
    save(record, save_path, out)
    if offer_analysis and save_path and any(a.kind == "move" for g in record.games for a in g.actions):
        print(f" How well did you play? gammon analyse {save_path}", file=out, flush=True)
    return record


def stdin_pause(prompt: str) -> str:
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise QuitMatch("end of input")
    return line
