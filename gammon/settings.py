"""Settings for ``gammon play`` kept between sessions, in a TOML file; command-line flags override them.

The file is ``$GAMMON_SETTINGS`` if set, else ``$XDG_CONFIG_HOME/gammon/settings.toml``
(``~/.config/gammon/settings.toml`` when ``XDG_CONFIG_HOME`` is not set). Every
key is optional::

    opponent = "level3"      # the bot to play (default: the strongest shipped bot)
    name = "ann"             # your name on the board and in saved matches
    color = true             # ANSI colours on a terminal (false: never)
    guide = false            # show the move guide with every roll
    auto_confirm = false     # end the turn as soon as the last die is used
    confirm_numbers = true   # ask before playing a number from the 'moves' list

A file that cannot be read, or holds an unknown key or a value of the wrong
type, is a :class:`SettingsError` naming the file.

>>> Settings().confirm_numbers, Settings.from_toml('name = "ann"', "s.toml").name
(True, 'ann')
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from gammon.errors import GammonError


class SettingsError(GammonError):
    """A settings file that cannot be used; the message names the file."""


@dataclass(frozen=True)
class Settings:
    """What ``gammon play`` does when no flag says otherwise."""

    opponent: str = ""
    name: str = "you"
    color: bool = True
    guide: bool = False
    auto_confirm: bool = False
    confirm_numbers: bool = True

    @classmethod
    def from_toml(cls, text: str, source: str) -> Settings:
        """Settings from the text of a TOML file (``source`` names it in errors)."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"cannot read settings file {source}: {exc}") from None
        types = {f.name: type(getattr(cls(), f.name)) for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in types:
                raise SettingsError(f"unknown setting {key!r} in {source}: expected one of {', '.join(types)}")
            if type(value) is not types[key]:
                kind = "true or false" if types[key] is bool else "text in quotes"
                raise SettingsError(f"setting {key!r} in {source} is {value!r}: expected {kind}")
            values[key] = value
        return cls(**values)

    def override(self, **flags: Any) -> Settings:
        """These settings with the flags that were given (None: not given) put over them."""
        return replace(self, **{k: v for k, v in flags.items() if v is not None})


def settings_path() -> Path:
    """Where the settings file is read from (it need not exist)."""
    explicit = os.environ.get("GAMMON_SETTINGS")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base).expanduser() / "gammon" / "settings.toml"


def load_settings(path: Path | None = None) -> Settings:
    """The settings in ``path`` (default :func:`settings_path`); the defaults when there is no file."""
    path = settings_path() if path is None else path
    if not path.exists():
        return Settings()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"cannot read settings file {path}: {exc}") from None
    return Settings.from_toml(text, str(path))
