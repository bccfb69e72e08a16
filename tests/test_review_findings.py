"""Behaviour fixed after a review of the public API's docstrings: the H-measure scorer, the
area under the ROC hull without numpy 2's trapezoid, the legend room on a caller's figure
when a Display is renamed, the Displays' label checks, one method or gamma in the bootstrap."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from tests.conftest import random_scores
from threshold_choice import CostCurveDisplay, make_metric_scorer
from threshold_choice.bootstrap import bootstrap
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.metrics import h_measure
from threshold_choice.roc import auch


def test_the_h_measure_scorer_is_the_h_measure_higher_being_better():
    X, y = make_classification(n_samples=200, n_features=4, random_state=0)
    model = LogisticRegression().fit(X[:100], y[:100])
    score = make_metric_scorer("H")(model, X[100:], y[100:])
    expected = h_measure(CostLines.from_scores(y[100:], model.predict_proba(X[100:])[:, 1]))
    assert score == pytest.approx(expected, abs=1e-15) and score > 0


def test_the_area_under_the_hull_is_the_auc_of_the_pav_calibrated_scores():
    """The hull's area is the trapezoids of its vertices, written out (numpy 1.26 has no
    np.trapezoid); PAV calibration maps the ROC curve onto its hull, ties counting 1/2."""
    from sklearn.metrics import roc_auc_score

    from threshold_choice.score_transforms import pav_calibrated

    for seed in range(5):
        y, s = random_scores(seed, 300)
        assert auch(y, s) == pytest.approx(roc_auc_score(y, pav_calibrated(y, s)), abs=1e-14)


def test_a_renamed_display_on_a_callers_figure_gets_room_for_its_legend():
    fig, ax = plt.subplots()  # no layout engine
    y, s = random_scores(3, 100)
    display = CostCurveDisplay.from_predictions(y, s, plot=False)
    display.plot(ax=ax, name="renamed")
    assert fig.get_layout_engine() is not None
    plt.close(fig)


@pytest.mark.parametrize("labels", [[0, 1, 0.5, 1], ["a", "b", "a", "b"]])
def test_displays_refuse_labels_that_are_not_0_or_1(labels):
    with pytest.raises(UserError, match="label"):
        CostCurveDisplay.from_predictions(labels, [0.1, 0.4, 0.6, 0.9], plot=False)


def test_the_bootstrap_takes_one_method_and_one_gamma_as_expected_losses_does():
    y, s = random_scores(4, 80)
    one = bootstrap(y, s, methods="score-driven", gammas=4, metrics=(), n_boot=10)
    listed = bootstrap(y, s, methods=["score-driven"], gammas=[4.0], metrics=(), n_boot=10)
    assert one.methods == ("score-driven",) and one.gammas == (4.0,)
    np.testing.assert_array_equal(one.replicates, listed.replicates)
