"""Command-line interface: ``threshold-choice <command> ...``.

One module per command (:mod:`.loss`, :mod:`.splits`, :mod:`.datasets`, :mod:`.compare`,
:mod:`.decision_curve`, :mod:`.plot`); each imports the library and defines
``register(subparsers)``, which adds the command's parser and sets ``func`` to a callable
taking the parsed namespace and returning the exit code. :mod:`.inputs` reads the
``label,score`` CSV files the commands take. Errors the user can fix are raised
as :class:`threshold_choice.errors.UserError` and printed as one line (exit status 2), as is
any file-system error (a folder given for a file, a file that cannot be read or written).
Output cut short by its reader (``threshold-choice loss ... | head -1``) ends the command
quietly with status 0; Ctrl-C ends it with status 130.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from threshold_choice.errors import UserError

# Modules that contribute a sub-command (one line each).
SUBCOMMAND_MODULES: tuple[str, ...] = (
    "threshold_choice.cli.loss",
    "threshold_choice.cli.splits",
    "threshold_choice.cli.datasets",
    "threshold_choice.cli.compare",
    "threshold_choice.cli.decision_curve",
    "threshold_choice.cli.plot",
)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (exit status 2), like the
    commands' own errors, instead of the whole usage text."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="threshold-choice",
        description="Threshold choice methods under operating-condition uncertainty.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush into a closed pipe
    does not print an error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout is not a file (e.g. captured)
        pass


def _os_error_line(exc: OSError) -> str:
    where = exc.filename if exc.filename is not None else ""
    what = exc.strerror or str(exc)
    return f"{where}: {what}" if where else what


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    prefix = f"threshold-choice {args.command}: error:"
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # inside the try: a closed pipe is reported here, not at exit
        return code
    except BrokenPipeError:  # the reader stopped reading (e.g. ``| head -1``): not an error
        _silence_stdout()
        return 0
    except UserError as exc:
        print(f"{prefix} {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a path that cannot be read or written; the message names it
        print(f"{prefix} {_os_error_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"threshold-choice {args.command}: interrupted", file=sys.stderr)
        return 130
