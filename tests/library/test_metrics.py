"""Metrics of one set of labelled scores."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import random_scores
from threshold_choice.errors import UserError
from threshold_choice.metrics import compute_metrics


@pytest.mark.parametrize("seed", range(5))
def test_brier_score_is_calibration_plus_refinement(seed):
    y, s = random_scores(seed, 120, decimals=1 if seed % 2 else None)
    m = compute_metrics(y, s)
    assert m["BS"] == pytest.approx(m["CL"] + m["RL"], abs=1e-14)


def test_hand_computed_example():
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([0.9, 0.2, 0.6, 0.6, 0.3, 0.1])
    m = compute_metrics(y, s)
    # pairs (pos, neg): 0.9 beats all 3; 0.6 beats 0.2, 0.1 and ties 0.6; 0.3 beats 0.2, 0.1
    assert m["AUC"] == pytest.approx((3 + 2.5 + 2) / 9)
    assert m["BS"] == pytest.approx(np.mean([0.01, 0.04, 0.16, 0.36, 0.49, 0.01]))
    assert m["MAE"] == pytest.approx(np.mean([0.1, 0.2, 0.4, 0.6, 0.7, 0.1]))
    # bins: {0.1:0}, {0.2:0}, {0.3:1}, {0.6: 1 and 0}, {0.9: 1}: only the 0.6 bin is impure
    assert m["RL"] == pytest.approx(2 * 0.25 / 6)
    # PAV pools 0.2 (0), 0.3 (1), 0.6 (1, 0)? values 0, 0, 1, 0.5, 1 -> pool {1, 0.5} = 2/3
    assert m["RL_conv"] == pytest.approx(3 * (2 / 3) * (1 / 3) / 6)
    assert m["pi0"] == pytest.approx(0.5)


def test_log_loss_is_clipped_for_certain_mistakes():
    m = compute_metrics(np.array([0, 1]), np.array([1.0, 1.0]))
    assert np.isfinite(m["LogLoss"]) and m["LogLoss"] > 10


@pytest.mark.parametrize(
    ("y", "s", "message"),
    [
        ([0, 1, 2], [0.1, 0.2, 0.3], "labels must be 0 or 1"),
        ([0, 1], [0.1, float("nan")], "NaN"),
        ([1, 1, 1], [0.1, 0.2, 0.3], "only class 1"),
        ([], [], "no examples"),
        ([0, 1], [0.5], "2 labels but 1 scores"),
    ],
)
def test_bad_input_is_named(y, s, message):
    with pytest.raises(UserError, match=message):
        compute_metrics(np.array(y), np.array(s, dtype=float))
