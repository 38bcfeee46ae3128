"""The self-play trainer behind ``gammon train``.

* :mod:`gammon.train.loop` -- the training loop, one readable function (:func:`gammon.train.loop.train`)
* :mod:`gammon.train.config` -- the hyperparameters (a dataclass read from TOML, ``--set`` overrides)
* :mod:`gammon.train.selfplay` -- whole self-play games in one Numba call per game
* :mod:`gammon.train.td` -- lambda-return targets over whole games
* :mod:`gammon.train.workers` -- self-play in the trainer process or in worker processes
* :mod:`gammon.train.ray_source` -- self-play on Ray actors (`--backend ray`)
* :mod:`gammon.train.checkpoint` -- atomic checkpoints with RNG states, for exact resumes
"""
