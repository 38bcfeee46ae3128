"""Shipped files: the model and the recipes are found through the package, and recipes by name."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gammon import resources
from gammon.bots.neural import shipped_model_path
from gammon.cli import main
from gammon.cli.train import recipe_file
from gammon.train.config import load_config

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_ships_the_repositorys_models_and_recipes():
    assert resources.shipped_model_path().read_bytes() == (ROOT / "models" / "td-ensemble.pt").read_bytes()
    for spec, name in resources.SHIPPED_MODELS.items():
        assert resources.shipped_model_path(spec).read_bytes() == (ROOT / "models" / name).read_bytes()
        assert f'"{name}"' in (ROOT / "pyproject.toml").read_text()  # in the wheel's package data
    assert resources.recipes() == sorted(p.stem for p in (ROOT / "configs").glob("*.toml"))
    for name in resources.recipes():
        assert resources.recipe_path(name).read_bytes() == (ROOT / "configs" / f"{name}.toml").read_bytes()


def test_td_is_the_shipped_model_unless_gammon_td_model_names_another(tmp_path, monkeypatch):
    monkeypatch.delenv("GAMMON_TD_MODEL", raising=False)
    assert shipped_model_path() == resources.shipped_model_path()
    monkeypatch.setenv("GAMMON_TD_MODEL", str(tmp_path / "mine.pt"))
    assert shipped_model_path() == tmp_path / "mine.pt"


def test_config_takes_a_bundled_recipe_by_name_or_a_file(tmp_path, monkeypatch):
    assert load_config(recipe_file("td-quick")).exp_name == "td-quick"
    assert load_config(recipe_file("td")).exp_name == "td"
    own = tmp_path / "mine.toml"
    own.write_text('exp_name = "mine"\n')
    assert recipe_file(str(own)) == own
    # a file of that name in the working folder wins over the bundled recipe
    monkeypatch.chdir(tmp_path)
    (tmp_path / "td").write_text('exp_name = "local"\n')
    assert load_config(recipe_file("td")).exp_name == "local"


def test_an_unknown_recipe_is_a_one_line_error_listing_the_bundled_ones(capsys):
    assert main(["train", "--config", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'nope'" in err and "not found" in err
    assert all(name in err for name in resources.recipes())
    assert "Traceback" not in err


def test_train_help_names_the_bundled_recipes():
    result = subprocess.run([sys.executable, "-m", "gammon", "train", "--help"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "bundled" in result.stdout and all(name in result.stdout for name in resources.recipes())
