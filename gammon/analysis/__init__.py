"""Analysis of positions with the network: hints (:mod:`gammon.analysis.hint`) and rollouts (:mod:`gammon.analysis.rollout`).

Both read a position as GNU Backgammon writes it (a Position ID, optionally
with a Match ID) and give cubeless probabilities in GNU Backgammon's order
(:data:`gammon.outcomes.OUTPUTS`), always for the player who is to move.
"""
