"""The training report notebook runs on a short run's output."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from gammon.cli import main

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "training_report.ipynb"


@pytest.fixture(scope="module")
def short_run(tmp_path_factory) -> Path:
    runs = tmp_path_factory.mktemp("runs")
    sets = ["total_games=32", "hidden=8", "games_per_update=8", "log_every=1", "eval_every=16",
            "eval_games=4", "eval_opponents=pubeval,random", f"runs_dir={runs}"]
    args = ["train", "--config", str(ROOT / "configs" / "td-quick.toml"), "--no-progress", "--device", "cpu"]
    assert main(args + [a for s in sets for a in ("--set", s)]) == 0
    return next(runs.iterdir())


def test_the_report_plots_a_short_run(short_run, monkeypatch):
    assert len((short_run / "eval.jsonl").read_text().splitlines()) == 4
    monkeypatch.setenv("GAMMON_RUN_DIR", str(short_run))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    text = "\n".join(
        out.get("text", "") for cell in nb.cells if cell.cell_type == "code" for out in cell.get("outputs", [])
    )
    assert str(short_run) in text and "losses/td_error" in text and "pubeval" in text
    images = [out for cell in nb.cells for out in cell.get("outputs", []) if "image/png" in out.get("data", {})]
    assert len(images) == 2
    assert json.loads((short_run / "config.json").read_text())["total_games"] == 32
