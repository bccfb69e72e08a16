"""The workflow steps that route data between rules (without Snakemake)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.metrics import compute_metrics
from threshold_choice.pipeline import (
    RUN_COLUMNS,
    evaluate_scores,
    read_splits,
    step_credit_a_figures,
    write_csv,
)
from threshold_choice.splits import Split, splits_frame


def scores_frame():
    """Two splits whose train and test parts differ, so swapping them changes the results."""
    rng = np.random.default_rng(0)
    parts = []
    for split in (1, 2):
        for part, n, shift in (("train", 30, 0.4), ("test", 25, 0.1)):
            y = (rng.random(n) < 0.6).astype(np.int8)
            y[:2] = [0, 1]
            s = np.round(np.clip(shift * y + (1 - shift) * rng.random(n), 0, 1), 2)
            parts.append(
                pd.DataFrame(
                    {"split": split, "part": part, "row": np.arange(n), "label": y, "score": s}
                )
            )
    return pd.concat(parts, ignore_index=True)


def test_evaluate_scores_uses_test_scores_for_losses_and_metrics_and_train_for_selection():
    scores = scores_frame()
    methods = ["test-optimal", "train-optimal", "score-driven", "rate-driven"]
    runs = evaluate_scores(
        scores, "toy", "M", methods=methods, gammas=[np.inf, 2.0], settings=LossSettings()
    )
    assert list(runs.columns) == list(RUN_COLUMNS)
    assert len(runs) == 2 * 2 * 4
    for split in (1, 2):
        part = scores[scores.split == split]
        test, train = part[part.part == "test"], part[part.part == "train"]
        expected = expected_losses(
            test.label,
            test.score,
            train_y=train.label,
            train_s=train.score,
            methods=methods,
            gammas=[np.inf, 2.0],
        )
        got = runs[runs.split == split]
        np.testing.assert_allclose(got["loss"].to_numpy(), expected["expected_loss"].to_numpy())
        metrics = compute_metrics(test.label, test.score)
        assert got["AUC"].iloc[0] == pytest.approx(metrics["AUC"])
        assert got["BS"].iloc[0] == pytest.approx(metrics["BS"])
        # the swapped roles give other numbers: the check above can fail
        swapped = compute_metrics(train.label, train.score)
        assert swapped["BS"] != pytest.approx(metrics["BS"])


def test_evaluate_scores_names_the_run_of_a_one_class_test_part():
    scores = scores_frame()
    scores.loc[(scores.split == 2) & (scores.part == "test"), "label"] = 1
    with pytest.raises(UserError, match="dataset toy, model M, split 2: test scores: only class 1"):
        evaluate_scores(
            scores, "toy", "M", methods=["score-driven"], gammas=[np.inf], settings=LossSettings()
        )


def test_splits_csv_round_trips_to_zero_based_rows(tmp_path):
    splits = [
        Split(train=np.array([4, 0, 2]), test=np.array([1, 3]), iteration=1),
        Split(train=np.array([1, 3, 4]), test=np.array([2, 0]), iteration=2),
    ]
    path = tmp_path / "splits.csv"
    write_csv(splits_frame("toy", splits), path)
    frame = pd.read_csv(path)
    assert frame["row"].min() == 1  # 1-based on disk
    back = read_splits(path)
    for original, read in zip(splits, back, strict=True):
        np.testing.assert_array_equal(read.train, original.train)  # order kept
        np.testing.assert_array_equal(read.test, original.test)
        assert read.iteration == original.iteration


def test_credit_a_figures_step_refuses_an_output_it_cannot_draw(tmp_path) -> None:
    with pytest.raises(UserError, match="fig4 needs the credit-a scores of J48Unp, NB"):
        step_credit_a_figures([], [tmp_path / "fig4.png"], gammas=["inf"], estimator="grid")
    with pytest.raises(UserError, match="the credit-a figures are fig3, fig4, fig7"):
        step_credit_a_figures([], [tmp_path / "fig5.png"], gammas=["inf"], estimator="grid")
    assert not list(tmp_path.iterdir())
