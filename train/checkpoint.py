"""Checkpoints: everything a run needs to continue exactly where it stopped.

``RUN_DIR/checkpoint.pt`` holds the model and optimizer state, the counters,
the config, and the random generator states (the dice of self-play in the
trainer process and torch's). It is written atomically (temporary file, then
rename), so a run killed at any moment leaves either the previous checkpoint
or the new one, never half of one, and read with ``weights_only=True``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gammon.errors import GammonError
from gammon.net import atomic_torch_save

CHECKPOINT = "checkpoint.pt"
CHECKPOINT_VERSION = 1


class CheckpointError(GammonError):
    """A run folder without a readable checkpoint."""


def save_checkpoint(run_dir: Path, state: dict[str, Any]) -> Path:
    """Write ``state`` (plain values and tensors) to ``run_dir/checkpoint.pt`` atomically."""
    path = Path(run_dir) / CHECKPOINT
    atomic_torch_save({"checkpoint_version": CHECKPOINT_VERSION, **state}, path)
    return path


def load_checkpoint(run_dir: Path) -> dict[str, Any]:
    """Read ``run_dir/checkpoint.pt``; :class:`CheckpointError` names the folder when that fails."""
    import torch

    path = Path(run_dir) / CHECKPOINT
    if not Path(run_dir).is_dir():
        raise CheckpointError(f"cannot resume {str(run_dir)!r}: no such run folder")
    if not path.is_file():
        raise CheckpointError(f"cannot resume {str(run_dir)!r}: no {CHECKPOINT} in it")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception:
        # PyTorch's own message runs to many lines of advice about weights_only; what matters is that
        # this file is not one of ours.
        raise CheckpointError(f"cannot resume {str(run_dir)!r}: {path} is not a readable gammon checkpoint "
                              "(damaged, cut short, or written by another program)") from None
    if not isinstance(state, dict) or "checkpoint_version" not in state:
        raise CheckpointError(f"cannot resume {str(run_dir)!r}: {path} is not a gammon checkpoint (written by another program)")
    if state["checkpoint_version"] != CHECKPOINT_VERSION:
        raise CheckpointError(f"cannot resume {str(run_dir)!r}: {path} is a gammon checkpoint of version "
                              f"{state['checkpoint_version']!r}; this gammon reads version {CHECKPOINT_VERSION}")
    return state
