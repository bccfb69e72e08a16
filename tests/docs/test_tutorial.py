"""docs/tutorial.md runs as written: its python blocks in order in one namespace, its bash
blocks in the same folder after them (they read the files the python blocks write), each
``text`` block equal to what the block before it printed; and it writes the figures it says
it writes. Headless, in a temporary folder."""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest

from tests.conftest import REPO

matplotlib.use("Agg")

pytestmark = pytest.mark.slow  # the tutorial's commands, end to end

BLOCK = re.compile(r"^```(python|bash|text)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip().splitlines()]


def run_tutorial(folder: Path) -> list[tuple[str, str, str]]:
    """Run the tutorial's blocks in ``folder``: ``(kind, code, output)`` of each."""
    text = (REPO / "docs" / "tutorial.md").read_text(encoding="utf-8")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}"
           f"{os.environ.get('PATH', '')}", "MPLBACKEND": "Agg"}
    namespace: dict = {"__name__": "tutorial"}
    done: list[tuple[str, str, str]] = []
    for i, (kind, code) in enumerate(BLOCK.findall(text), 1):
        if kind == "python":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, f"docs/tutorial.md block {i}", "exec"), namespace)
            done.append((kind, code, out.getvalue()))
        elif kind == "bash":
            result = subprocess.run(["bash", "-e", "-c", code], cwd=folder, env=env,
                                    capture_output=True, text=True, timeout=600)
            assert result.returncode == 0, (code, result.stderr)
            done.append((kind, code, result.stdout))
        else:
            done.append((kind, code, ""))
    return done


def test_the_tutorial_runs_as_written_and_prints_what_it_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocks = run_tutorial(tmp_path)
    kinds = [kind for kind, _, _ in blocks]
    assert kinds.count("python") >= 10 and kinds.count("bash") >= 3
    assert kinds.count("text") >= 2
    for previous, (kind, code, _) in itertools.pairwise(blocks):
        if kind == "text":
            assert previous[0] != "text"
            assert _lines(previous[2]) == _lines(code), previous[1]
    for name in ("cost_curves.png", "brier_curves.png", "certainty.png", "two_models.png",
                 "decision_curve.png", "cost.png", "brier.pdf", "certainty.svg", "froc.svg",
                 "f_cost.pdf"):
        assert (tmp_path / name).stat().st_size > 1000, name
    printed = "".join(out for _, _, out in blocks)
    assert "best C for score-driven" in printed
    assert "5-fold CV" in printed
    assert "expected_cost" in printed  # the last bash block's loss --costs
