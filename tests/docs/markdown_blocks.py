"""Run a Markdown page's code blocks as a reader would paste them: its ``python`` blocks in
order in one fresh namespace, chosen ``bash`` code in the same folder after the blocks before
it, ``threshold-choice`` being this worktree's CLI (``python -m threshold_choice.cli`` with
``src`` on ``PYTHONPATH``, not whatever entry point is installed). Headless (Agg)."""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

from tests.conftest import REPO

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after the backend is chosen

BLOCK = re.compile(r"^```(python|bash|text)\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass
class Block:
    kind: str
    code: str
    output: str = ""
    ran: bool = False


@dataclass
class Page:
    """A page run: its blocks, the namespace its python blocks shared, and the value of each
    top-level expression statement (what a reader's interpreter would echo), by its source."""

    blocks: list[Block]
    namespace: dict[str, Any]
    values: list[tuple[str, Any]] = field(default_factory=list)

    def value_of(self, start: str) -> Any:
        """The value of the one expression statement whose source starts with ``start``."""
        found = [value for source, value in self.values if source.startswith(start)]
        assert len(found) == 1, (start, [source for source, _ in self.values])
        return found[0]

    def output_of(self, kind: str) -> str:
        return "".join(block.output for block in self.blocks if block.kind == kind)


def _cli_shim(folder: Path) -> Path:
    """A folder holding a ``threshold-choice`` that runs this worktree's CLI."""
    bin_dir = folder / ".docs-bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "threshold-choice"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m threshold_choice.cli "$@"\n')
    shim.chmod(0o755)
    return bin_dir


def _run_python(code: str, name: str, namespace: dict, values: list) -> None:
    """Each top-level statement in turn; an expression statement's value is kept."""
    for statement in ast.parse(code, filename=name).body:
        source = ast.get_source_segment(code, statement) or ""
        if isinstance(statement, ast.Expr):
            expression = ast.Expression(statement.value)
            values.append((source, eval(compile(expression, name, "eval"), namespace)))
        else:
            module = ast.Module([statement], type_ignores=[])
            exec(compile(module, name, "exec"), namespace)


def run_page(
    relative: str, folder: Path, run_bash: Callable[[str], bool] = lambda line: True
) -> Page:
    """Run the page ``REPO / relative`` in ``folder`` (the caller's working directory). A
    ``bash`` block runs if ``run_bash`` holds for one of its lines (the README's set-up
    commands do not run); a ``text`` block is kept as is, for comparison."""
    text = (REPO / relative).read_text(encoding="utf-8")
    src = str(REPO / "src")
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(_cli_shim(folder)), str(Path(sys.executable).parent),
                                 os.environ.get("PATH", "")]),
        "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")])),
        "MPLBACKEND": "Agg",
    }
    page = Page(blocks=[], namespace={"__name__": "__main__"})
    try:
        for i, (kind, code) in enumerate(BLOCK.findall(text), 1):
            block = Block(kind, code)
            if kind == "python":
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    _run_python(code, f"{relative} block {i}", page.namespace, page.values)
                block.output, block.ran = out.getvalue(), True
            elif kind == "bash" and any(run_bash(line) for line in code.splitlines()):
                result = subprocess.run(["bash", "-e", "-c", code], cwd=folder, env=env,
                                        capture_output=True, text=True, timeout=600)
                assert result.returncode == 0, (code, result.stderr)
                block.output, block.ran = result.stdout, True
            page.blocks.append(block)
    finally:
        plt.close("all")
    return page
