"""The wheel ``pip wheel .`` builds: the shipped model, the recipes, the trainer and every subpackage.

The wheel is built offline (``--no-build-isolation``, with the setuptools of
the dev extra) from a copy of what ``pyproject.toml`` packages, so that stale
files in a checkout's ``build/`` cannot hide a missing file. ``make
wheel-check`` installs such a wheel and runs it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> set[str]:
    """The file names inside a wheel built from this checkout."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    junk = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in {"gammon", *SETUPTOOLS["package-dir"].values()}:
        shutil.copytree(ROOT / folder, src / folder, ignore=junk)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp), str(src)],
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stdout + build.stderr
    (path,) = tmp.glob("gammon-*.whl")
    with zipfile.ZipFile(path) as zf:
        return set(zf.namelist())


def test_the_wheel_holds_every_subpackage_of_gammon(wheel):
    inits = [init.relative_to(ROOT).as_posix() for init in sorted((ROOT / "gammon").rglob("__init__.py"))]
    missing = [name.removesuffix("/__init__.py").replace("/", ".") for name in inits if name not in wheel]
    assert not missing, f"packages missing from the wheel: {missing}; add them to [tool.setuptools] packages in pyproject.toml"


def test_the_wheel_holds_the_trainer_as_gammon_train(wheel):
    modules = [f"gammon/train/{m.relative_to(ROOT / 'train').as_posix()}" for m in sorted((ROOT / "train").rglob("*.py"))]
    assert "gammon/train/__init__.py" in modules and not [m for m in modules if m not in wheel]


def test_the_wheel_holds_the_shipped_model_its_card_and_the_recipes(wheel):
    assert {"gammon/models/td.pt", "gammon/models/README.md", "gammon/data/Kazaross-XG2.xml"} <= wheel
    for recipe in sorted((ROOT / "configs").glob("*.toml")):
        assert f"gammon/configs/{recipe.name}" in wheel


def test_the_wheel_installs_nothing_beside_gammon(wheel):
    tops = {name.split("/")[0] for name in wheel}
    assert tops == {"gammon", f"gammon-{PYPROJECT['project']['version']}.dist-info"}, tops
