"""Score transformations of paper 000 (Sect. 7): PAV calibration makes its eight quantities
of Theorem 44 equal exactly (and test-optimal = score-driven at every gamma, Theorem 43);
evenly-spaced scores relate BS and MAE to AUC (Theorems 34, 36) up to O(1/n)."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import threshold_choice.score_transforms
from tests.conftest import random_scores
from threshold_choice import auch, compute_metrics, expected_losses
from threshold_choice.score_transforms import evenly_spaced, pav_calibrated


def test_the_docstring_examples_run():
    result = doctest.testmod(threshold_choice.score_transforms)
    assert result.attempted > 0 and result.failed == 0


def _losses(y, s, methods, gammas=(math.inf,)):
    frame = expected_losses(y, s, methods=methods, gammas=list(gammas))
    return frame.set_index(["method", "gamma"])["expected_loss"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pav_calibrated_scores_make_theorem_44s_eight_quantities_equal(seed):
    y, s = random_scores(seed, 300)  # ties
    p = pav_calibrated(y, s)
    metrics = compute_metrics(y, p)
    losses = _losses(y, p, ["score-driven", "test-optimal", "score-uniform"])
    pi0, pi1 = np.mean(y == 0), np.mean(y == 1)
    quantities = [
        losses[("score-driven", math.inf)], losses[("test-optimal", math.inf)], metrics["RL"],
        losses[("score-uniform", math.inf)] / 2, metrics["MAE"] / 2, metrics["BS"],
        pi0 * p[y == 0].mean(), pi1 * (1 - p[y == 1].mean()),
    ]
    assert quantities == pytest.approx([quantities[0]] * 8, abs=1e-12)
    assert metrics["CL"] == pytest.approx(0.0, abs=1e-15)
    # pooling the violators straightens the ROC curve into its convex hull: AUC = AUCH
    assert roc_auc_score(y, p) == pytest.approx(auch(y, s), abs=1e-12)
    assert roc_auc_score(y, p) >= roc_auc_score(y, s) - 1e-12


def test_for_calibrated_scores_the_optimal_threshold_is_c_at_every_certainty():
    y, s = random_scores(3, 250, decimals=2)
    p = pav_calibrated(y, s)
    losses = _losses(y, p, ["score-driven", "test-optimal"], gammas=(math.inf, 4.0, 0.0))
    for gamma in (math.inf, 4.0, 0.0):
        assert losses[("score-driven", gamma)] == pytest.approx(
            losses[("test-optimal", gamma)], abs=1e-12)


def test_evenly_spaced_scores_keep_the_order_and_are_idempotent():
    y, s = random_scores(4, 200)
    e = evenly_spaced(s)
    assert roc_auc_score(y, e) == pytest.approx(roc_auc_score(y, s), abs=1e-15)
    np.testing.assert_allclose(evenly_spaced(e), e, atol=1e-15)
    assert e.min() >= 0 and e.max() <= 1


def test_evenly_spaced_scores_tie_bs_and_mae_to_auc_as_n_grows():
    errors = []
    for n in (200, 4000):
        y, s = random_scores(5, n, decimals=None)  # no ties
        e = evenly_spaced(s)
        auc = roc_auc_score(y, e)
        pi0, pi1 = np.mean(y == 0), np.mean(y == 1)
        losses = _losses(y, e, ["score-driven", "rate-driven", "score-uniform",
                                "rate-uniform"])
        metrics = compute_metrics(y, e)
        assert losses[("score-driven", math.inf)] == pytest.approx(metrics["BS"], abs=1e-12)
        theorem_34 = pi0 * pi1 * (1 - 2 * auc) + 1 / 3
        theorem_36 = pi0 * pi1 * (1 - 2 * auc) + 1 / 2
        errors.append(max(abs(metrics["BS"] - theorem_34),
                          abs(losses[("rate-driven", math.inf)] - theorem_34),
                          abs(metrics["MAE"] - theorem_36),
                          abs(losses[("rate-uniform", math.inf)] - theorem_36)))
    assert errors[1] < 2.0 / 4000 and errors[1] < errors[0] / 5  # O(1/n)
