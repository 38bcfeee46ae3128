"""Every test runs with its own settings file and save folder, never the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_user_folders(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("GAMMON_SAVES", str(home / "saves"))
    monkeypatch.delenv("GAMMON_SETTINGS", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
