"""Where the files shipped with gammon are: the trained network and the training recipes.

The repository keeps them in its top-level ``models/`` and ``configs/``
folders; ``pyproject.toml`` installs those folders as the packages
``gammon.models`` and ``gammon.configs``, so :mod:`importlib.resources` finds
the same files in a source checkout (editable install) and in an installed
wheel. Nothing is read until a function is called.

>>> shipped_model_path().name
'td-ensemble.pt'
>>> "td-quick" in recipes()
True
>>> recipe_path("td-quick").name
'td-quick.toml'
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from gammon.errors import GammonError

#: The shipped network (what the bot spec ``"td"`` loads), in ``gammon.models``: the strongest shipped model.
SHIPPED_MODEL = "td-ensemble.pt"
#: Every shipped model by its bot spec (``"td1"``: the first, one 211-input net of ``configs/td.toml``, the
#: default until 2026-12-07; ``"td2"``: the phase-net evaluator of ``configs/td2.toml``; ``"td-ensemble"``:
#: td2's evaluator and two runs of ``configs/td11.toml``, each distilled by ``configs/td22.toml``, merged by
#: ``gammon merge`` with the race net of ``configs/td21.toml``, the merge distilled by ``configs/td24.toml``).
SHIPPED_MODELS = {"td": SHIPPED_MODEL, "td1": "td.pt", "td2": "td2.pt", "td-ensemble": "td-ensemble.pt"}


class ResourceError(GammonError):
    """A shipped file asked for by a name that is not shipped."""


def _folder(package: str) -> Path:
    """The folder of a package of shipped files (pip installs packages unzipped)."""
    folder = files(package)
    if not isinstance(folder, Path):
        raise ResourceError(f"{package} is not on the file system ({folder!r}); install gammon unzipped")
    return folder


def shipped_model_path(spec: str = "td") -> Path:
    """The file of the shipped model ``spec`` names (it may be missing from a partial checkout).

    :func:`gammon.bots.neural.shipped_model_path` is what ``"td"`` loads: this
    file unless the ``GAMMON_TD_MODEL`` environment variable names another.
    """
    if spec not in SHIPPED_MODELS:
        raise ResourceError(f"no shipped model {spec!r}: expected one of {', '.join(SHIPPED_MODELS)}")
    return _folder("gammon.models") / SHIPPED_MODELS[spec]


def recipes() -> list[str]:
    """The names of the bundled training recipes (``gammon train --config NAME``), sorted."""
    return sorted(path.stem for path in _folder("gammon.configs").glob("*.toml"))


def recipe_path(name: str) -> Path:
    """The TOML file of the bundled recipe ``name``.

    >>> recipe_path("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gammon.resources.ResourceError: no bundled recipe 'nope' (bundled: td, td-quick...)
    """
    path = _folder("gammon.configs") / f"{name}.toml"
    if Path(name).name != name or not path.is_file():
        raise ResourceError(f"no bundled recipe {name!r} (bundled: {', '.join(recipes())})")
    return path
