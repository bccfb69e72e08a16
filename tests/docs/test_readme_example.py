"""The README's short example runs as written, as a reader pastes it (its python blocks in
order in a fresh namespace, then its ``threshold-choice`` lines on the files they write), on
the breast cancer data with named labels: its expected losses are those of the library called
directly, and the command line prints the same losses, in the costs' units too, and writes
the figure."""

from __future__ import annotations

import io
import math
import warnings

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning

from tests.docs.markdown_blocks import run_page
from threshold_choice import expected_losses


def test_the_readme_example_and_its_command_lines_run_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        page = run_page("README.md", tmp_path,
                        run_bash=lambda line: line.startswith("threshold-choice "))
    # a reader sees no warning: no convergence trouble, no implicit positive class
    assert not [w for w in caught if issubclass(w.category, (UserWarning, ConvergenceWarning))]
    ran = [block.kind for block in page.blocks if block.ran]
    assert ran == ["python", "python", "bash"]  # not the set-up commands

    ns = page.namespace
    clf, scores, y_test = ns["clf"], ns["scores"], ns["y_test"]
    assert clf.pos_label_ == "malignant" and clf.threshold() < 0.5  # c = 0.2
    predicted = page.value_of("clf.predict(")
    assert np.array_equal(predicted, np.where(scores[:5] > clf.threshold(0.2),
                                              "malignant", "benign"))
    frame = page.value_of("expected_losses(")
    direct = expected_losses(y_test == "malignant", scores,
                             train_y=clf.train_labels_, train_s=clf.train_scores_,
                             methods=["train-optimal", "score-driven", "score-fixed"],
                             gammas=[math.inf, 4, 0], settings={"cost_distribution": "beta:4,16"})
    assert frame.equals(direct)
    fixed = frame[frame["method"] == "score-fixed"]["expected_loss"]
    assert np.ptp(fixed) == 0  # one threshold whatever the certainty

    # the command line, on the CSV files of the second block, under the same belief
    losses_csv = page.output_of("bash").split("\n\n")[0]
    printed = pd.read_csv(io.StringIO(losses_csv))
    for method in ("train-optimal", "score-driven"):
        for gamma in (math.inf, 4, 0):
            row = printed[(printed["method"] == method) & (printed["gamma"] == gamma)]
            mine = frame[(frame["method"] == method) & (frame["gamma"] == gamma)]
            assert len(row) == 1 and len(mine) == 1, (method, gamma)
            loss = float(mine["expected_loss"].iloc[0])
            assert math.isclose(row["expected_loss"].iloc[0], loss, rel_tol=1e-8)
            # --costs 1,4: per example, the loss times (FP + FN) / 2
            assert math.isclose(row["expected_cost"].iloc[0], loss * (1 + 4) / 2, rel_tol=1e-8)
    assert (tmp_path / "cost.png").stat().st_size > 1000
    assert (tmp_path / "cost.csv").stat().st_size > 0
