"""The self-play trainer behind ``gammon train``.

* :mod:`train.loop` -- the training loop, one readable function (:func:`train.loop.train`)
* :mod:`train.config` -- the hyperparameters (a dataclass read from TOML, ``--set`` overrides)
* :mod:`train.selfplay` -- whole self-play games in one Numba call per game
* :mod:`train.td` -- lambda-return targets over whole games
* :mod:`train.workers` -- self-play in the trainer process or in worker processes
* :mod:`train.ray_source` -- self-play on Ray actors (`--backend ray`)
* :mod:`train.checkpoint` -- atomic checkpoints with RNG states, for exact resumes
"""
