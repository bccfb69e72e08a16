"""What ``threshold-choice plot`` writes on its figures: the ``--pos-label`` class and the
``--name`` of a single model in the legend and the axis labels, and several models coloured as
the library colours them on one axes."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import rgb_to_hsv, to_rgba

from tests.conftest import random_scores
from threshold_choice import plotting
from threshold_choice.cli import main


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def drawn(monkeypatch):
    """The displays ``plot`` saves (the real saving still runs)."""
    kept: list = []
    save = plotting.save_displays

    def keep(displays, out):
        kept.extend(displays)
        return save(displays, out)

    monkeypatch.setattr(plotting, "save_displays", keep)
    return kept


def _named_csv(path, seed, pi1=0.6):
    y, s = random_scores(seed, 120, pi1=pi1)
    pd.DataFrame({"label": np.where(y == 1, "malignant", "benign"), "score": s}).to_csv(
        path, index=False)
    return y, s


def test_a_decision_curve_names_the_pos_label_class_and_the_models_name(tmp_path, drawn):
    _named_csv(tmp_path / "test.csv", 31)
    assert main(["plot", "decision-curve", "--test", str(tmp_path / "test.csv"),
                 "--pos-label", "malignant", "--name", "logreg",
                 "--out", str(tmp_path / "dc.png")]) == 0
    ax = drawn[0].ax_
    assert "P('malignant')" in ax.get_xlabel() and "class 1" not in ax.get_xlabel()
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "logreg" in texts and "model" not in texts


@pytest.mark.parametrize("kind", ["froc", "f-cost"])
def test_the_f_measure_plots_name_their_positive_class_by_the_pos_label(kind, tmp_path,
                                                                         drawn):
    _named_csv(tmp_path / "test.csv", 32)
    assert main(["plot", kind, "--test", str(tmp_path / "test.csv"), "--pos-label",
                 "malignant", "--method", "test-optimal",
                 "--out", str(tmp_path / "f.png")] if kind == "f-cost" else
                ["plot", kind, "--test", str(tmp_path / "test.csv"), "--pos-label",
                 "malignant", "--out", str(tmp_path / "f.png")]) == 0
    label = drawn[0].ax_.get_xlabel()
    # class 0, the F-measure's positive class, is the one that is not --pos-label
    assert "not 'malignant' (class 0)" in label and "positive class: 0" not in label


def test_several_models_are_coloured_as_the_library_colours_them(tmp_path, drawn):
    paths = [tmp_path / "a.csv", tmp_path / "b.csv"]
    runs = [_named_csv(paths[0], 33), _named_csv(paths[1], 34)]
    args = ["plot", "cost-curves", "--method", "score-driven", "--method", "rate-driven",
            "--pos-label", "malignant", "--out", str(tmp_path / "two.png")]
    for path, name in zip(paths, ("A", "B"), strict=True):
        args += ["--test", str(path), "--name", name]
    assert main(args) == 0
    by_cli = {line.get_label(): to_rgba(line.get_color())
              for line in drawn[0].ax_.get_lines()}
    first = plotting.CostCurveDisplay.from_predictions(
        *runs[0], name="A", methods=["score-driven", "rate-driven"], cost_lines=False)
    plotting.CostCurveDisplay.from_predictions(
        *runs[1], name="B", methods=["score-driven", "rate-driven"], ax=first.ax_)
    by_library = {line.get_label(): to_rgba(line.get_color())
                  for line in first.ax_.get_lines()}
    assert by_cli == by_library
    hues = {round(float(rgb_to_hsv(c[:3])[0]), 3) for label, c in by_cli.items()
            if label.startswith("B: ")}
    assert len(hues) == 1  # the second model in one hue (lighter for gamma = 0)
