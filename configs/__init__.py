"""The training recipes (TOML), installed as the package data of ``gammon.configs``.

Find them through :mod:`gammon.resources`, or name one: ``gammon train --config td-quick``.
"""
