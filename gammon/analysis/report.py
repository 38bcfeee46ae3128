"""The text of a match analysis: GNU Backgammon's ``show statistics match`` table, then the marked decisions.

Figures are shown as GNU Backgammon shows them: error totals in EMG with
the MWC in brackets (money play: points), rates in mEMG per decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gammon.analysis.stats import CUBE_ERRORS, PlayerStats

if TYPE_CHECKING:  # pragma: no cover
    from gammon.analysis.match import Decision, MatchAnalysis

__all__ = ["report", "statistics_table", "error_lines"]

_LABEL = 40
_COL = 24


def _row(label: str, a: object, b: object) -> str:
    return f"{label:<{_LABEL}} {str(a):<{_COL}}{str(b):<{_COL}}".rstrip()


def _total(emg: float, cost: float, match: bool) -> str:
    return f"{-emg:+.3f} ({-cost * 100:+.3f}%)" if match else f"{-emg:+.3f} ({-cost:+.3f})"


def _rate(rate_emg: float, cost_rate: float, match: bool) -> str:
    return f"{-rate_emg * 1000:+.1f} ({-cost_rate * 100:+.3f}%)" if match else f"{-rate_emg * 1000:+.1f} ({-cost_rate * 1000:+.1f})"


def statistics_table(names: tuple[str, str], stats: tuple[PlayerStats, PlayerStats], match: bool) -> str:
    """Both players' statistics side by side, in GNU Backgammon's rows and words."""
    a, b = stats
    unit = "EMG (MWC)" if match else "EMG (points)"
    lines = [_row("Player", *names), "", "Chequerplay statistics", ""]

    def pair(f):
        return f(a), f(b)

    def per(total: float, n: int) -> float:
        return total / n if n else 0.0

    lines += [
        _row("Total moves", *pair(lambda s: s.moves)),
        _row("Unforced moves", *pair(lambda s: s.unforced)),
        _row("Unmarked moves", *pair(lambda s: s.marks[""])),
        _row("Moves marked doubtful", *pair(lambda s: s.marks["doubtful"])),
        _row("Moves marked bad", *pair(lambda s: s.marks["bad"])),
        _row("Moves marked very bad", *pair(lambda s: s.marks["very bad"])),
        _row(f"Error total {unit}", *pair(lambda s: _total(s.checker_error, s.checker_cost, match))),
        _row(f"Error rate m{unit}", *pair(lambda s: _rate(s.checker_rate, per(s.checker_cost, s.unforced), match))),
        _row("Chequerplay rating", *pair(lambda s: s.ratings()["checker"])),
        "", "Luck statistics", "",
        _row("Rolls marked very lucky", *pair(lambda s: s.luck_marks["very lucky"])),
        _row("Rolls marked lucky", *pair(lambda s: s.luck_marks["lucky"])),
        _row("Rolls unmarked", *pair(lambda s: s.luck_marks[""])),
        _row("Rolls marked unlucky", *pair(lambda s: s.luck_marks["unlucky"])),
        _row("Rolls marked very unlucky", *pair(lambda s: s.luck_marks["very unlucky"])),
        _row(f"Luck total {unit}", *pair(lambda s: _total(-s.luck, -s.luck_cost, match))),
        _row(f"Luck rate m{unit}", *pair(lambda s: _rate(-s.luck_rate, -per(s.luck_cost, s.rolls), match))),
        _row("Luck rating", *pair(lambda s: s.ratings()["luck"])),
        "", "Cube statistics", "",
        _row("Total cube decisions", *pair(lambda s: s.cube_decisions)),
        _row("Close or actual cube decisions", *pair(lambda s: s.close_cube)),
        _row("Doubles", *pair(lambda s: s.doubles)),
        _row("Takes", *pair(lambda s: s.takes)),
        _row("Passes", *pair(lambda s: s.passes)),
    ]
    for kind in CUBE_ERRORS:
        def cell(s: PlayerStats, kind: str = kind) -> str:
            n, emg, cost = s.cube_errors[kind]
            return f"{int(n)} ({_total(emg, cost, match)})" if n else "0"
        lines.append(_row(f"{kind[0].upper()}{kind[1:]} ({unit})", *pair(cell)))
    lines += [
        _row(f"Error total {unit}", *pair(lambda s: _total(s.cube_error, s.cube_cost, match))),
        _row(f"Error rate m{unit}", *pair(lambda s: _rate(s.cube_rate, per(s.cube_cost, s.close_cube), match))),
        _row("Cube decision rating", *pair(lambda s: s.ratings()["cube"])),
        "", "Overall statistics", "",
        _row(f"Error total {unit}", *pair(lambda s: _total(s.checker_error + s.cube_error, s.checker_cost + s.cube_cost, match))),
        _row(f"Error rate m{unit}", *pair(lambda s: _rate(
            s.overall_rate, per(s.checker_cost + s.cube_cost, s.unforced + s.close_cube), match))),
        _row("Overall rating", *pair(lambda s: s.ratings()["overall"])),
    ]
    return "\n".join(lines)


def error_lines(decisions: list[Decision], names: tuple[str, str], match: bool) -> list[str]:
    """One line per marked decision: where, who, what was played, what was best, what it cost."""
    out = []
    for d in decisions:
        if not d.mark:
            continue
        where = f"game {d.game} move {d.turn}"
        what = f"{d.dice[0]}{d.dice[1]}: " if d.dice else ""
        cost = f"{d.cost * 100:.2f}% MWC" if match else f"{d.cost:.3f} points"
        out.append(f"  {where:<16} {names[d.player]:<12} {d.mark:<9} {what}{d.played}  (best: {d.best})  "
                   f"-{d.error:.3f} EMG, {cost}   {d.position_id}")
    return out


def report(analysis: MatchAnalysis, errors: bool = True) -> str:
    """The whole report: the title, the statistics table, and (``errors``) the marked decisions."""
    match = bool(analysis.match_length)
    kind = f"{analysis.match_length}-point match" if match else "money session"
    title = (f"Analysis of a {kind}, {analysis.names[0]} {analysis.score[0]} - {analysis.names[1]} {analysis.score[1]}, "
             f"{len(analysis.games)} game{'s' if len(analysis.games) != 1 else ''}, network at {analysis.plies}-ply")
    unfinished = [g.number for g in analysis.games if g.winner is None]
    if unfinished:
        title += f" (game {unfinished[-1]} unfinished)"
    text = [title, "", statistics_table(analysis.names, analysis.stats, match)]
    if errors:
        marked = error_lines(analysis.decisions, analysis.names, match)
        text += ["", f"Marked decisions ({len(marked)})", *marked] if marked else ["", "No marked decisions."]
    return "\n".join(text)
