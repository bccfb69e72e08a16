"""docs/tutorial.md runs: its python blocks, in order, in one namespace (in a temporary
folder, headless), and writes the figures it says it writes."""

from __future__ import annotations

import re

import matplotlib

from tests.conftest import REPO

matplotlib.use("Agg")

BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def test_tutorial_python_blocks_run(tmp_path, monkeypatch, capsys):
    text = (REPO / "docs" / "tutorial.md").read_text(encoding="utf-8")
    blocks = BLOCK.findall(text)
    assert len(blocks) >= 8
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "tutorial"}
    for i, code in enumerate(blocks, 1):
        exec(compile(code, f"docs/tutorial.md block {i}", "exec"), namespace)
    for name in ("cost_curves.png", "brier_curves.png", "certainty.png", "two_models.png"):
        assert (tmp_path / name).stat().st_size > 1000, name
    out = capsys.readouterr().out
    assert "best C for score-driven" in out
    assert "5-fold CV" in out
