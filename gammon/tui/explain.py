"""``gammon demo --explain``: the terms and rules of the game named as they happen, each explained the first time.

>>> from gammon.play import Move
>>> from gammon.position import Position
>>> ex = Explainer()
>>> ex.notes(Action(0, "move", dice=(6, 4), moves=(Move(13, 7, True), Move(7, 3))), Position.initial(), False)[0][:5]
'(hit)'
"""

from __future__ import annotations

from gammon.position import Position
from gammon.records import Action

#: What each term means, said the first time it comes up.
TERMS = {
    "hit": "a checker landing on a point held by a single opposing checker (a blot) hits it: "
           "the blot goes to the bar",
    "bar": "a checker on the bar must come back in (enter) on the opponent's home board before its side "
           "may move any other checker",
    "entering": "a checker comes in from the bar on the point of the die in the opponent's home board",
    "blocked": "a point held by two or more checkers is blocked: the other side may not land there; "
               "a checker on the bar whose entry points are all blocked dances (loses the turn)",
    "prime": "six blocked points in a row make a prime: no checker behind it can get past",
    "bearing off": "once all 15 checkers are in the home board they may be taken off, "
                   "a die for each; the first side to take all 15 off wins",
    "gammon": "the winner bore off all 15 before the loser took any off, worth two games",
    "backgammon": "a gammon with a loser's checker still on the bar or in the winner's home board, "
                  "worth three games",
    "cube": "before rolling, a player may double the stakes; the other takes (and owns the "
            "cube, so only they may double next) or passes and loses the game at the old stakes",
    "Crawford game": "the first game after a player comes within one point of winning the "
                     "match is played without the cube",
}


def _has_prime(position: Position) -> bool:
    """Whether the player on roll in ``position`` holds six points in a row."""
    b = position.board
    run = 0
    for p in range(1, 25):
        run = run + 1 if b[p] >= 2 else 0
        if run >= 6:
            return True
    return False


class Explainer:
    """Names the terms an action shows; each explained in full once per match, later just named."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self._primed = [False, False]

    def _say(self, term: str) -> str:
        if term in self.seen:
            return f"({term})"
        self.seen.add(term)
        return f"({term}) {TERMS[term]}."

    def notes(self, action: Action, mover_after: Position | None, crawford: bool) -> list[str]:
        """The notes for ``action``; ``mover_after`` is the position after a move, seen from the mover."""
        terms: list[str] = []
        if action.kind == "start" and crawford:
            terms.append("Crawford game")
        elif action.kind == "move":
            if any(m.hit for m in action.moves):
                terms += ["hit", "bar"]
            if any(m.src == 25 for m in action.moves):
                terms.append("entering")
            if not action.moves:
                terms.append("blocked")
            if any(m.dst == 0 for m in action.moves):
                terms.append("bearing off")
            primed = mover_after is not None and _has_prime(mover_after)
            if primed and not self._primed[action.player]:
                terms.append("prime")  # just made
            self._primed[action.player] = primed
        elif action.kind in ("double", "take", "pass", "beaver"):
            terms.append("cube")
        elif action.kind == "win" and action.value >= 2:
            terms.append("gammon" if action.value == 2 else "backgammon")
        fresh = [t for t in terms if t not in self.seen]
        old = [t for t in terms if t in self.seen]
        return [self._say(t) for t in fresh] + ([" ".join(f"({t})" for t in old)] if old else [])
