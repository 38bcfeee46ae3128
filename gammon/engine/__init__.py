"""The compiled layer: the fast path that bots, self-play and analysis call.

* :mod:`~gammon.engine.movegen` -- legal-play generation, the single source of the movement rules
* :mod:`~gammon.engine.analysis` -- board analysis shared by the inputs and terms: rolls, contact, primes, shots, escapes
* :mod:`~gammon.engine.encoding` -- the network's inputs
* :mod:`~gammon.engine.network` -- the network's forward pass and the incremental scoring of candidate plays
* :mod:`~gammon.engine.search` -- the network's search: best play of a roll, values at 1 and 2 plies, in one call
* :mod:`~gammon.engine.terms` -- the heuristic bots' evaluation terms and their one-roll lookahead
* :mod:`~gammon.engine.cache` -- the one guard that keeps Numba's on-disk cache honest across these files

Everything here is Numba-compiled on first use and cached on disk; boards are
the 26-cell ``int8`` arrays described in :mod:`~gammon.engine.movegen`.
Game results, flips and equities come from :mod:`gammon.outcomes`.
"""
