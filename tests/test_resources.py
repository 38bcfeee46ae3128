"""Shipped files: the model and the recipes are found through the package."""

from __future__ import annotations

from pathlib import Path

from gammon import resources
from gammon.bots.neural import shipped_model_path

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_ships_the_repositorys_model_and_recipes():
    assert resources.shipped_model_path().read_bytes() == (ROOT / "models" / "td.pt").read_bytes()
    assert resources.recipes() == sorted(p.stem for p in (ROOT / "configs").glob("*.toml"))
    for name in resources.recipes():
        assert resources.recipe_path(name).read_bytes() == (ROOT / "configs" / f"{name}.toml").read_bytes()


def test_td_is_the_shipped_model_unless_gammon_td_model_names_another(tmp_path, monkeypatch):
    monkeypatch.delenv("GAMMON_TD_MODEL", raising=False)
    assert shipped_model_path() == resources.shipped_model_path()
    monkeypatch.setenv("GAMMON_TD_MODEL", str(tmp_path / "mine.pt"))
    assert shipped_model_path() == tmp_path / "mine.pt"
