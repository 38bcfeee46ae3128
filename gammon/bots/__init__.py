"""Players: the :class:`Bot` protocol and :func:`load`, which builds any bot from a spec string.

Specs (the CLI's ``--opponent`` takes the same strings): ``random``,
``level1`` .. ``level5`` (heuristic), ``td`` (the shipped network), a path to
a model file, and with the ``gammon[gnubg]`` extra ``pubeval`` and ``gnubg``;
constructor options may follow a colon: ``td:plies=1``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gammon.bots.base import Bot, CubeState
from gammon.errors import GammonError

__all__ = ["Bot", "CubeState", "UnknownBotError", "load", "SPECS"]

#: The spec strings :func:`load` knows besides model paths.
SPECS = ("random", "level1", "level2", "level3", "level4", "level5", "td", "pubeval", "gnubg")


class UnknownBotError(GammonError):
    """A bot spec that names no bot and no model file."""


def _split_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"td:plies=1"`` -> ``("td", {"plies": 1})``: options written into a spec string.

    >>> _split_spec("td:plies=1")
    ('td', {'plies': 1})
    """
    name, sep, rest = spec.partition(":")
    if not sep or not rest or Path(spec).exists():
        return spec, {}
    options: dict[str, Any] = {}
    for item in rest.split(","):
        key, eq, value = item.partition("=")
        if not eq or not key.isidentifier():
            raise UnknownBotError(f"bad bot spec {spec!r}: options are written NAME:key=value,key=value")
        try:
            options[key] = int(value)
        except ValueError:
            try:
                options[key] = float(value)
            except ValueError:
                options[key] = value
    return name, options


def load(spec: str, **options: Any) -> Bot:
    """Build the bot named by ``spec``; ``options`` go to its constructor (``seed``, ``plies`` ...).

    Options may also be written into the spec, as the CLI's ``--opponent``
    and ``gammon eval`` take them: ``td:plies=1``.

    >>> load("random", seed=3).name
    'random'
    """
    spec, written = _split_spec(spec)
    options = {**written, **options}
    if spec == "random":
        from gammon.bots.random_bot import RandomBot

        return RandomBot(**options)
    if spec.startswith("level") and spec[5:].isdigit():
        from gammon.bots.heuristic import HeuristicBot

        level = int(spec[5:])
        if not 1 <= level <= 5:
            raise UnknownBotError(f"unknown bot {spec!r}: levels are level1 to level5")
        return HeuristicBot(level, **options)
    if spec in ("pubeval", "gnubg"):
        from gammon.bots.external import load_external

        return load_external(spec, **options)
    if spec == "td" or spec.endswith((".pt", ".safetensors")) or Path(spec).exists():
        from gammon.bots.neural import load_neural

        return load_neural(spec, **options)
    raise UnknownBotError(f"unknown bot {spec!r}: expected one of {', '.join(SPECS)} or a model file path")
