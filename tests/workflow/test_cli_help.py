"""The command line lists its commands without importing them, and builds only the parser of
the command that runs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from threshold_choice.cli import COMMANDS

HEAVY = ("pandas", "matplotlib", "sklearn", "scipy")

PROBE = """
import contextlib, io, sys
from threshold_choice.cli import main
with contextlib.redirect_stdout(io.StringIO()):  # the help text
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
loaded = sorted(m for m in sys.modules
                if m.startswith("threshold_choice.cli.") or m.split(".")[0] in {heavy})
print(" ".join(loaded))
"""


def loaded_after(*args: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE.format(heavy=set(HEAVY)), *args],
                          capture_output=True, text=True, check=True)
    return set(proc.stdout.split())


def test_the_list_of_commands_imports_none_of_them():
    assert loaded_after("--help") == set()


@pytest.mark.parametrize("command", ["splits", "compare"])
def test_a_command_imports_its_own_module_only(command):
    modules = {m for m in loaded_after(command, "--help") if m.startswith("threshold_choice.cli.")}
    assert COMMANDS[command].module in modules
    others = {c.module for name, c in COMMANDS.items() if name != command}
    assert not modules & others


def test_every_command_lists_its_one_line_help(capsys):
    from threshold_choice.cli import main

    with pytest.raises(SystemExit):
        main(["--help"])
    listing = " ".join(capsys.readouterr().out.split())
    for name, command in COMMANDS.items():
        assert f"{name} {command.help}" in listing


@pytest.mark.parametrize("command", ["loss", "plot", "decision-curve", "compare", "datasets"])
def test_a_commands_help_leaves_pandas_matplotlib_and_scikit_learn_unimported(command):
    """What the run needs (the evaluation, the Displays, the reproduction, the data) is
    imported by the run: ``--help`` loads the parser's choices only (0.1-0.4 s)."""
    loaded = loaded_after(command, "--help")
    assert not loaded & {"pandas", "matplotlib", "sklearn"}, loaded & {"pandas", "matplotlib",
                                                                       "sklearn"}
