"""``gammon merge OUT MODEL [MODEL ...] [--race-net MODEL]``: one model file that plays the ensemble of several,
or a model with the race net of another."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "merge"
HELP = ("merge model files of the same inputs (e.g. self-play runs from different seeds) into one wider net "
        "that plays as their ensemble: the members' hidden units side by side, their logits averaged; "
        "--race-net takes the race net from another model file instead")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("output", metavar="OUT", help="the model file to write")
    parser.add_argument("models", metavar="MODEL", nargs="+",
                        help="two or more model files written by gammon train (or merge); one is enough with --race-net")
    parser.add_argument("--race-net", metavar="MODEL", default=None,
                        help="play races with this model file's race net (same activation and bear-off database) "
                             "instead of the members' merged race nets")


def run(args: argparse.Namespace) -> int:
    from gammon.net import ModelFileError, load_model, merge_models, save_model

    models = [load_model(path) for path in args.models]
    if len(models) == 1 and args.race_net:
        model = models[0]
        state, arch, race = model.state_dict, model.arch, None
    else:
        state, arch, race = merge_models(models)
    members = [{"file": Path(m.path).name, "games_trained": m.games_trained, "hidden": m.arch.hidden} for m in models]
    extra = {}
    if args.race_net:
        donor = load_model(args.race_net)
        if donor.race is None or donor.race.act != models[0].weights.act or donor.bearoff != models[0].bearoff:
            raise ModelFileError(f"model file {args.race_net!r} has no race net that {args.models[0]!r} can play "
                                 "(it needs one, with the same activation and bear-off database)")
        race = (donor.race_state_dict, donor.race.arch)
        extra["race_net_from"] = {"file": Path(donor.path).name, "games_trained": donor.games_trained}
    save_model(args.output, state, arch, games_trained=sum(m.games_trained for m in models), config={},
               race=race, bearoff=models[0].bearoff, merged_from=members, **extra)
    race_text = f", race net {race[1].inputs} inputs x {race[1].hidden} hidden units" if race is not None else ""
    what = f"{len(models)} models merged" if len(models) > 1 else "1 model"
    print(f"{args.output}: {what}, contact net {arch.inputs} inputs x {arch.hidden} hidden units{race_text}"
          + (f" (from {Path(args.race_net).name})" if args.race_net else ""))
    return 0
