"""The ``gammon`` command as a whole: every subcommand is reachable and documented."""

from __future__ import annotations

import subprocess
import sys

from gammon.cli import build_parser

COMMANDS = ("board", "cube", "demo", "eval", "hint", "merge", "play", "rollout", "tournament", "train")


def test_every_subcommand_is_listed_in_the_help():
    result = subprocess.run([sys.executable, "-m", "gammon", "--help"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    for name in COMMANDS:
        assert name in result.stdout
    assert "95% confidence" in result.stdout  # help text with a percent sign survives argparse's formatting


def test_each_subcommand_has_its_own_help():
    parser = build_parser()
    for name in COMMANDS:
        try:
            parser.parse_args([name, "--help"])
        except SystemExit as exc:
            assert exc.code == 0, name


def test_an_unknown_subcommand_is_a_usage_error():
    result = subprocess.run([sys.executable, "-m", "gammon", "fly"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "invalid choice: 'fly'" in result.stderr
    assert "Traceback" not in result.stderr
