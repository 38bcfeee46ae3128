"""The ``gammon`` command.

Each subcommand is a module of this package defining ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``; ``main`` finds them, so a
new subcommand is a new file. Bad input ends with a one-line error and a
non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from gammon.errors import GammonError, is_interrupt


class CommandError(Exception):
    """A user-facing failure of a subcommand: printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand of this package."""
    parser = argparse.ArgumentParser(prog="gammon", description="Backgammon: play, train and measure bots.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        # argparse %-formats help strings: a literal "95%" must reach it as "95%%".
        command = sub.add_parser(module.NAME, help=module.HELP.replace("%", "%%"), description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gammon`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except (GammonError, CommandError) as exc:
        print(f"gammon {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, SystemError) as exc:
        if not is_interrupt(exc):
            raise
        print(f"gammon {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
