"""Command-line interface: ``threshold-choice <command> ...``.

Each command lives in the module of the concept it belongs to; that module defines
``register(subparsers)``, which adds the command's parser and sets ``func`` to a callable
taking the parsed namespace and returning the exit code. Errors the user can fix are raised
as :class:`threshold_choice.errors.UserError` and printed as one line.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from threshold_choice.errors import UserError

# Modules that contribute a sub-command (one line each).
SUBCOMMAND_MODULES: tuple[str, ...] = (
    "threshold_choice.evaluation",
    "threshold_choice.splits",
    "threshold_choice.datasets.cli",
    "threshold_choice.comparison",
    "threshold_choice.plot_cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="threshold-choice",
        description="Threshold choice methods under operating-condition uncertainty.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"threshold-choice {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
