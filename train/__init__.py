"""The self-play trainer behind ``gammon train``.

* :mod:`gammon.train.loop` -- the training loop, one readable function (:func:`gammon.train.loop.train`)
* :mod:`gammon.train.config` -- the hyperparameters (a dataclass read from TOML, ``--set`` overrides)
* :mod:`gammon.train.selfplay` -- whole self-play games in one Numba call per game
* :mod:`gammon.train.td` -- lambda-return targets over whole games
* :mod:`gammon.train.sources` -- self-play in the trainer process, or in units on worker processes or Ray actors (:mod:`gammon.runners`)
* :mod:`gammon.train.checkpoint` -- atomic checkpoints with RNG states, for exact resumes
"""
