"""Marks, ratings and per-player statistics of an analysed match, with GNU Backgammon's thresholds and names.

Thresholds (GNU Backgammon 1.07's defaults, as ``show analysis`` prints
them; older versions used 0.04, 0.08 and 0.16), on the EMG a decision
loses against the best one:

* a decision is **doubtful** when it loses more than 0.030 EMG, **bad**
  beyond 0.060, **very bad** beyond 0.120 (:data:`SKILL`);
* a roll is **lucky** when it is worth more than 0.3 EMG above the average
  roll, **very lucky** beyond 0.6, and **unlucky**, **very unlucky** below
  -0.3, -0.6 (:data:`LUCK`).

Ratings name an error rate in EMG per decision (GNU Backgammon's
``GetRating``): below 0.002 "Supernatural", 0.005 "World class", 0.008
"Expert", 0.012 "Advanced", 0.018 "Intermediate", 0.026 "Casual player",
0.035 "Beginner", else "Awful!" (:data:`RATINGS`). The luck rating reads
ten times the luck per move on the luck scale: "Go to Las Vegas" (above
0.06), "Good dice, man!" (0.03), "None", "Bad dice, man!" (below -0.03),
"Go to bed" (-0.06).

Rates are counted as GNU Backgammon counts them: checker play per
unforced move (more than one legal play), cube per close or actual cube
decision (a double, a take or pass, or a decision where doubling would
lose less than 0.16 EMG), overall per both, luck per move.

>>> skill(0.02), skill(0.05), skill(0.07), skill(0.2)
('', 'doubtful', 'bad', 'very bad')
>>> rating(0.0049), rating(0.04)
('World class', 'Awful!')
>>> luck_mark(0.45), luck_mark(-0.7)
('lucky', 'very unlucky')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

__all__ = ["LUCK", "RATINGS", "SKILL", "PlayerStats", "luck_mark", "luck_rating", "player_stats", "rating", "skill"]

#: Error marks, most severe first: (name, EMG the decision must lose more than).
SKILL: tuple[tuple[str, float], ...] = (("very bad", 0.120), ("bad", 0.060), ("doubtful", 0.030))
#: Luck marks: (name, EMG above which (lucky) or below minus which (unlucky) a roll is marked).
LUCK: tuple[tuple[str, str, float], ...] = (("very lucky", "very unlucky", 0.6), ("lucky", "unlucky", 0.3))
#: Ratings, best first: (name, EMG per decision the rate must be below).
RATINGS: tuple[tuple[str, float], ...] = (
    ("Supernatural", 0.002), ("World class", 0.005), ("Expert", 0.008), ("Advanced", 0.012),
    ("Intermediate", 0.018), ("Casual player", 0.026), ("Beginner", 0.035), ("Awful!", float("inf")),
)
#: A cube decision is close when doubling loses less than this (GNU Backgammon's ``isCloseCubedecision``).
CLOSE_CUBE = 0.16
_LUCK_RATINGS = ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")
#: The cube error kinds, as GNU Backgammon's statistics name them.
CUBE_ERRORS = (
    "missed doubles below CP", "missed doubles above CP", "wrong doubles below DP", "wrong doubles above TG",
    "wrong takes", "wrong passes",
)


def skill(error: float) -> str:
    """The mark of a decision losing ``error`` EMG: "", "doubtful", "bad" or "very bad"."""
    for name, threshold in SKILL:
        if error > threshold:
            return name
    return ""


def luck_mark(luck: float) -> str:
    """The mark of a roll worth ``luck`` EMG more than the average roll."""
    for good, bad, threshold in LUCK:
        if luck > threshold:
            return good
        if luck < -threshold:
            return bad
    return ""


def rating(rate: float) -> str:
    """The rating of an error rate in EMG per decision."""
    for name, below in RATINGS:
        if rate < below:
            return name
    return RATINGS[-1][0]


def luck_rating(rate: float) -> str:
    """GNU Backgammon's luck rating of a luck rate in EMG per move (ten times it on the luck-mark scale).

    >>> luck_rating(0.0), luck_rating(0.07), luck_rating(-0.04)
    ('None', 'Go to Las Vegas', 'Bad dice, man!')
    """
    r = rate * 10.0
    return _LUCK_RATINGS[4 if r > 0.6 else 3 if r > 0.3 else 0 if r < -0.6 else 1 if r < -0.3 else 2]


@dataclass
class PlayerStats:
    """One player's statistics over some decisions (a game or the match), in EMG and in the game's currency.

    ``*_cost`` is MWC in a match and money (times the cube) in money play.
    Rates are EMG per decision (multiply by 1000 for mEMG).
    """

    moves: int = 0
    unforced: int = 0
    marks: dict[str, int] = field(default_factory=lambda: {"": 0, "doubtful": 0, "bad": 0, "very bad": 0})
    checker_error: float = 0.0
    checker_cost: float = 0.0
    cube_decisions: int = 0
    close_cube: int = 0
    doubles: int = 0
    takes: int = 0
    passes: int = 0
    cube_errors: dict[str, list[float]] = field(default_factory=lambda: {k: [0, 0.0, 0.0] for k in CUBE_ERRORS})
    cube_error: float = 0.0
    cube_cost: float = 0.0
    luck: float = 0.0
    luck_cost: float = 0.0
    rolls: int = 0
    luck_marks: dict[str, int] = field(default_factory=lambda: {k: 0 for k in (
        "very lucky", "lucky", "", "unlucky", "very unlucky")})

    @property
    def checker_rate(self) -> float:
        return self.checker_error / self.unforced if self.unforced else 0.0

    @property
    def cube_rate(self) -> float:
        return self.cube_error / self.close_cube if self.close_cube else 0.0

    @property
    def overall_rate(self) -> float:
        n = self.unforced + self.close_cube
        return (self.checker_error + self.cube_error) / n if n else 0.0

    @property
    def luck_rate(self) -> float:
        return self.luck / self.rolls if self.rolls else 0.0

    def ratings(self) -> dict[str, str]:
        """The checker, cube, overall and luck ratings ("N/A" where nothing was decided)."""
        return {
            "checker": rating(self.checker_rate) if self.unforced else "N/A",
            "cube": rating(self.cube_rate) if self.close_cube else "N/A",
            "overall": rating(self.overall_rate) if self.unforced + self.close_cube else "N/A",
            "luck": luck_rating(self.luck_rate) if self.rolls else "N/A",
        }

    def as_dict(self) -> dict:
        out = asdict(self)
        out["marks"] = {k or "none": v for k, v in self.marks.items()}
        out["luck_marks"] = {k or "none": v for k, v in self.luck_marks.items()}
        out["cube_errors"] = {k: {"count": int(v[0]), "emg": v[1], "cost": v[2]} for k, v in self.cube_errors.items()}
        out.update(checker_rate=self.checker_rate, cube_rate=self.cube_rate, overall_rate=self.overall_rate,
                   luck_rate=self.luck_rate, ratings=self.ratings())
        return out


def player_stats(decisions: Iterable, player: int) -> PlayerStats:
    """Statistics of ``player`` over ``decisions`` (:class:`gammon.analysis.match.Decision`)."""
    s = PlayerStats()
    for d in decisions:
        if d.player != player:
            continue
        if d.kind == "move":
            s.moves += 1
            s.marks[d.mark] += 1
            if not d.forced:
                s.unforced += 1
                s.checker_error += d.error
                s.checker_cost += d.cost
            if d.luck is not None:
                s.rolls += 1
                s.luck += d.luck
                s.luck_cost += d.luck_cost
                s.luck_marks[d.luck_mark] += 1
            continue
        s.cube_decisions += 1
        s.close_cube += d.close
        s.doubles += d.played == "double"
        s.takes += d.played == "take"
        s.passes += d.played == "pass"
        if d.error_kind:
            entry = s.cube_errors[d.error_kind]
            entry[0] += 1
            entry[1] += d.error
            entry[2] += d.cost
        s.cube_error += d.error
        s.cube_cost += d.cost
    return s


def both(decisions: Sequence) -> tuple[PlayerStats, PlayerStats]:
    """:func:`player_stats` of player 0 and player 1."""
    return player_stats(decisions, 0), player_stats(decisions, 1)
