"""``gammon analyse FILE.mat``: every decision of a match judged by the network, like GNU Backgammon's ``analyse match``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gammon.analysis.match import MatchAnalysis, analyse_match
from gammon.analysis.plot import plot_match
from gammon.cli import CommandError
from gammon.cli._analysis import check_plies, load_network
from gammon.matfile import MatFileError, read_mat
from gammon.records import MatchRecord

NAME = "analyse"
HELP = ("judge every checker play, cube decision and roll of a .mat match with the network and print "
        "GNU Backgammon-style statistics (error rates, marks, luck, ratings)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.mat", help="the match, as written by gammon play --save or GNU Backgammon")
    parser.add_argument("--plies", default="0", metavar="N",
                        help="search depth: 0 (default: a 7-point match in a few seconds), 1 (about 15 times slower) or 2")
    parser.add_argument("--bot", default="td", metavar="SPEC", help="the network: td (the shipped one, default), td1, td2, td-ensemble or a model file")
    parser.add_argument("--json", metavar="FILE", help="write the whole analysis (every decision, all statistics) as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="draw the match-winning chance move by move, errors marked")
    parser.add_argument("--no-errors", action="store_true", help="print only the statistics, not the list of marked decisions")


def read_record(path: str) -> MatchRecord:
    """The match in ``path``; any problem is a one-line :class:`CommandError` naming the file."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="strict")
    except FileNotFoundError:
        raise CommandError(f"no such file: {path!r}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path!r} is not a .mat file: it is not text") from None
    except OSError as exc:
        raise CommandError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    try:
        record = read_mat(text)
    except MatFileError as exc:
        raise CommandError(f"{path!r}: {exc}") from None
    if not any(g.actions for g in record.games):
        raise CommandError(f"{path!r}: the match has no moves to analyse")
    return record


def run(args: argparse.Namespace) -> int:
    plies = check_plies(args.plies)
    record = read_record(args.file)
    bot = load_network(args.bot)
    analysis = analyse_match(record, bot, plies)
    print(analysis.report(errors=not args.no_errors))
    if args.json:
        write_json(analysis, args.json)
    if args.plot:
        plot_match(analysis, args.plot)
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0


def write_json(analysis: MatchAnalysis, path: str) -> None:
    try:
        Path(path).write_text(json.dumps(analysis.as_dict(), indent=1) + "\n")
    except OSError as exc:
        raise CommandError(f"cannot write {path!r}: {exc.strerror or exc}") from None
    print(f"analysis written to {path}", file=sys.stderr)
