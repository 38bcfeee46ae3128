"""Analysis with the network: hints (:mod:`gammon.analysis.hint`), rollouts (:mod:`gammon.analysis.rollout`) and whole matches (:mod:`gammon.analysis.match`).

Hints and rollouts read a position as GNU Backgammon writes it (a Position
ID, optionally with a Match ID) and give cubeless probabilities in GNU
Backgammon's order (:data:`gammon.outcomes.OUTPUTS`), always for the player
who is to move. :func:`analyse_match` judges every decision of a
:class:`~gammon.records.MatchRecord` (loaded on first use, so importing this
package loads no network code).
"""

from __future__ import annotations

from typing import Any

__all__ = ["MatchAnalysis", "analyse_match"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from gammon.analysis import match

        return getattr(match, name)
    raise AttributeError(f"module 'gammon.analysis' has no attribute {name!r}")
