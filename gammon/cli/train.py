"""``gammon train``: TD(lambda) self-play training from a TOML recipe."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from gammon.runners import add_backend_arguments, backend_from_args, require_ray
from gammon.cli import CommandError
from gammon.resources import recipe_path, recipes

NAME = "train"
HELP = "train a TD-Gammon network by self-play (TD(lambda)) from a TOML recipe"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from gammon.train.config import Config, field_docs

    docs = field_docs()
    defaults = Config().as_dict()
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "config keys (TOML or --set KEY=VALUE):\n" + "\n".join(
        f"  {key} = {defaults[key]!r}\n      {docs.get(key, '')}" for key in defaults
    )
    parser.add_argument("--config", metavar="RECIPE",
                        help="a TOML recipe file, or the name of one bundled with gammon: "
                             f"{', '.join(recipes())} (e.g. --config td-quick)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value (repeatable), e.g. --set total_games=5000")
    parser.add_argument("--resume", metavar="RUN_DIR", help="continue the run in RUN_DIR from its checkpoint")
    parser.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"),
                        help="where the network trains (self-play always runs on the CPU); auto: cuda when present")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_backend_arguments(parser)


def recipe_file(spec: str) -> Path:
    """The file ``--config`` names: a TOML file, else a bundled recipe by name.

    >>> recipe_file("td-quick").name
    'td-quick.toml'
    """
    path = Path(spec)
    if path.is_file():
        return path
    if spec in recipes():
        return recipe_path(spec)
    raise CommandError(f"--config {spec!r}: file not found and no bundled recipe of that name "
                       f"(bundled: {', '.join(recipes())})")


def run(args: argparse.Namespace) -> int:
    import torch

    from gammon.train.checkpoint import load_checkpoint
    from gammon.train.config import load_config
    from gammon.train.loop import train

    backend = backend_from_args(args)
    if backend.is_ray:
        require_ray()  # say how to install it before anything is written
    if args.resume:
        if args.config:
            raise CommandError("--resume takes the run's own config; change values with --set")
        saved = load_checkpoint(Path(args.resume))["config"]
        cfg = load_config(None, args.overrides, base=saved)
    elif args.config:
        cfg = load_config(recipe_file(args.config), args.overrides)
    else:
        raise CommandError("give --config RECIPE for a new run or --resume RUN_DIR to continue one")
    device = args.device
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    elif device == "cuda" and not torch.cuda.is_available():
        raise CommandError("--device cuda: no CUDA device is available")
    run_dir = train(cfg, resume=Path(args.resume) if args.resume else None, device=device,
                    progress=not args.no_progress, backend=backend)
    summary = {"run_dir": str(run_dir), "model": str(run_dir / "model.pt")}
    print(json.dumps(summary))
    return 0
