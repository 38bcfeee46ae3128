"""``gammon merge OUT MODEL MODEL ...``: one model file that plays the ensemble of several."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "merge"
HELP = ("merge model files of the same inputs (e.g. self-play runs from different seeds) into one wider net "
        "that plays as their ensemble: the members' hidden units side by side, their logits averaged")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("output", metavar="OUT", help="the model file to write")
    parser.add_argument("models", metavar="MODEL", nargs="+", help="two or more model files written by gammon train (or merge)")


def run(args: argparse.Namespace) -> int:
    from gammon.net import load_model, merge_models, save_model

    models = [load_model(path) for path in args.models]
    state, arch, race = merge_models(models)
    members = [{"file": Path(m.path).name, "games_trained": m.games_trained, "hidden": m.arch.hidden} for m in models]
    save_model(args.output, state, arch, games_trained=sum(m.games_trained for m in models), config={},
               race=race, bearoff=models[0].bearoff, merged_from=members)
    race_text = f", race net {race[1].hidden} hidden units" if race is not None else ""
    print(f"{args.output}: {len(models)} models merged, contact net {arch.inputs} inputs x {arch.hidden} hidden units{race_text}")
    return 0
