"""Players: the :class:`Bot` protocol and :func:`load`, which builds any bot from a spec string.

Specs (the CLI's ``--opponent`` takes the same strings): ``random``,
``level1`` .. ``level5`` (heuristic), ``td`` (the shipped network), a path to
a model file, and with the ``gammon[gnubg]`` extra ``pubeval`` and ``gnubg``;
constructor options may follow a colon: ``td:plies=1``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gammon.bots.base import Bot
from gammon.errors import GammonError
from gammon.resources import SHIPPED_MODELS

__all__ = ["Bot", "UnknownBotError", "load", "SPECS"]

#: The spec strings :func:`load` knows besides model paths.
SPECS = ("random", "level1", "level2", "level3", "level4", "level5", *SHIPPED_MODELS, "pubeval", "gnubg")


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

    The one bot factory: the CLI, the arena and the trainer's evaluations all
    come here. Options may also be written into the spec, as the CLI's
    ``--opponent`` and ``gammon eval`` take them: ``td:plies=1``. Anything
    that stops a bot from being built (an unknown name, a missing or corrupt
    model file, an extra that is not installed, an option the bot does not
    take) is a one-line :class:`~gammon.errors.GammonError` naming the spec.

    >>> load("random", seed=3).name
    'random'
    >>> load("level3", plies=2)
    Traceback (most recent call last):
    gammon.bots.UnknownBotError: bot 'level3' does not take the option plies=2
    """
    spec, written = _split_spec(spec)
    options = {**written, **options}
    try:
        return _build(spec, options)
    except GammonError:
        raise
    except TypeError:
        taken = ", ".join(f"{k}={v!r}" for k, v in options.items() if k != "seed")
        raise UnknownBotError(f"bot {spec!r} does not take the option {taken or 'seed'}") from None
    except ModuleNotFoundError as exc:
        raise GammonError(f"cannot load bot {spec!r}: {exc.name} is not installed") from None
    except (OSError, RuntimeError, ValueError, KeyError, EOFError) as exc:
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise GammonError(f"cannot load bot {spec!r}: {reason}") from None


def _build(spec: str, options: dict[str, Any]) -> Bot:
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
    if spec in SHIPPED_MODELS or spec.endswith((".pt", ".safetensors")) or Path(spec).exists():
        from gammon.bots.neural import load_neural

        return load_neural(spec, **options)
    raise UnknownBotError(f"unknown bot {spec!r}: expected one of {', '.join(SPECS)} or a model file path")
