"""docs/tutorial.md runs as written: its python blocks in order in one namespace, its bash
blocks in the same folder after them (they read the files the python blocks write), each
``text`` block equal to what the block before it printed; and it writes the figures it says
it writes. Headless, in a temporary folder."""

from __future__ import annotations

import itertools

import pytest

from tests.docs.markdown_blocks import run_page

pytestmark = pytest.mark.slow  # the tutorial's commands, end to end


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip().splitlines()]


def test_the_tutorial_runs_as_written_and_prints_what_it_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocks = run_page("docs/tutorial.md", tmp_path).blocks
    kinds = [block.kind for block in blocks]
    assert kinds.count("python") >= 10 and kinds.count("bash") >= 3
    assert kinds.count("text") >= 2
    assert all(block.ran for block in blocks if block.kind != "text")
    for previous, block in itertools.pairwise(blocks):
        if block.kind == "text":
            assert previous.kind != "text"
            assert _lines(previous.output) == _lines(block.code), previous.code
    for name in ("cost_curves.png", "brier_curves.png", "certainty.png", "two_models.png",
                 "decision_curve.png", "cost.png", "brier.pdf", "certainty.svg", "froc.svg",
                 "f_cost.pdf"):
        assert (tmp_path / name).stat().st_size > 1000, name
    printed = "".join(block.output for block in blocks)
    assert "best C for score-driven" in printed
    assert "5-fold CV" in printed
    assert "expected_cost" in printed  # the last bash block's loss --costs
