"""ROC space and cost space (threshold_choice.roc, ROCDisplay): the points against
scikit-learn's roc_curve, the hull against the optimal cost curve's lines, AUCH, and the
finite-sample step ROC cost curve and instance-uniform method of 001_... against the paper's
printed numbers and Flach et al.'s closed form."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score, roc_curve

import threshold_choice.costs
import threshold_choice.roc
from tests.conftest import random_scores
from threshold_choice import (
    CostLines,
    ROCDisplay,
    auch,
    expected_losses,
    instance_uniform_loss,
    make_selection,
    pav_calibrated,
    roc_points,
    step_roc_cost_area,
)
from threshold_choice.cli import main

# the classifier of 001_...'s Fig. 2
FIG2_Y = [1, 0, 1, 1, 0, 0, 0]
FIG2_S = [0.95, 0.9, 0.8, 0.3, 0.2, 0.1, 0.05]


@pytest.mark.parametrize("module", [threshold_choice.roc, threshold_choice.costs])
def test_the_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_roc_points_are_scikit_learns_roc_curve_and_its_area_the_auc(seed):
    y, s = random_scores(seed, 150)  # one decimal: many ties
    points = roc_points(y, s)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(points["fpr"], fpr, atol=1e-15)
    np.testing.assert_allclose(points["tpr"], tpr, atol=1e-15)
    area = np.trapezoid(points["tpr"], points["fpr"])
    assert area == pytest.approx(roc_auc_score(y, s), abs=1e-12)


def test_each_roc_point_is_its_cost_line_and_the_hull_the_optimal_cost_curves_lines():
    y, s = random_scores(4, 200, decimals=2)
    lines = CostLines.from_scores(y, s)
    points = roc_points(y, s).set_index("line")
    j = points.index.to_numpy()
    np.testing.assert_allclose(lines.left[j], 2 * lines.pi1 * (1 - points["tpr"]), atol=1e-14)
    np.testing.assert_allclose(lines.right[j], 2 * lines.pi0 * points["fpr"], atol=1e-14)
    optimal = make_selection("test-optimal", lines)
    hull = points[points["on_hull"]]
    # the hull's vertices are the lines test-optimal selects (their heights at c = 0)
    assert set(np.round(optimal.coef[:, 0], 12)) == set(np.round(lines.left[hull.index], 12))
    # and the hull lies on or above every ROC point
    hx, hy = hull.sort_values("fpr")[["fpr", "tpr"]].to_numpy().T
    assert np.all(np.interp(points["fpr"], hx, hy) >= points["tpr"] - 1e-12)


@pytest.mark.parametrize("scores", [
    [0.2, 0.6, float(np.nextafter(1.0, 0.0)), 1.0],  # adjacent doubles near 1
    [-1.7e308, 0.5, 1.5e308, 1.7e308],  # midpoints that overflow
], ids=["adjacent-doubles", "near-the-float-limit"])
def test_each_roc_points_threshold_predicts_its_point(scores):
    s = np.array(scores)
    y = np.array([0, 1, 0, 1])
    points = roc_points(y, s)
    for t, tpr, fpr in points[["threshold", "tpr", "fpr"]].itertuples(index=False):
        predicted = s > t  # class 1 iff score > threshold
        assert (np.mean(predicted[y == 1]), np.mean(predicted[y == 0])) == (tpr, fpr)
    lines = CostLines.from_scores(y, s)
    assert lines.line_index(lines.thresholds).tolist() == list(range(s.size + 1))


def test_auch_is_at_least_the_auc_and_equal_for_a_convex_curve():
    y, s = random_scores(5, 300)
    assert auch(y, s) >= roc_auc_score(y, s)
    # perfectly calibrated (PAV) scores have a convex ROC curve: AUCH = AUC there
    calibrated = pav_calibrated(y, s)
    assert roc_auc_score(y, calibrated) == pytest.approx(auch(y, s), abs=1e-12)
    assert auch(y, calibrated) == pytest.approx(auch(y, s), abs=1e-12)


def test_the_step_roc_cost_curve_of_001_figure_2():
    exact = step_roc_cost_area(FIG2_Y, FIG2_S)
    lines = CostLines.from_scores(np.array(FIG2_Y), np.array(FIG2_S))
    k = np.arange(8)  # no ties: cost line k on [k/8, (k+1)/8)
    by_hand = np.sum([quad_line(lines.left[i], lines.right[i], i / 8, (i + 1) / 8) for i in k])
    assert exact == pytest.approx(by_hand, abs=1e-15)
    # the paper prints 0.1695: the curve on the 1000-point grid i/1000 (0.16957); exactly 0.16964
    c = np.arange(1, 1001) / 1000
    line = np.minimum((c * 8).astype(int), 7)
    on_grid = np.mean(lines.left[line] + (lines.right[line] - lines.left[line]) * c)
    assert math.floor(on_grid * 1e4) / 1e4 == 0.1695 and abs(exact - 0.1695) < 2e-4
    # the interpolated ROC cost curve (rate-driven) is the paper's 0.1701
    rate = expected_losses(FIG2_Y, FIG2_S, methods=["rate-driven"], gammas=[math.inf])
    assert round(rate["expected_loss"].item(), 4) == 0.1701


def quad_line(left, right, lo, hi):
    return left * (hi - lo) + (right - left) * (hi**2 - lo**2) / 2


def test_instance_uniform_is_flachs_closed_form_under_uniform_skews():
    assert round(instance_uniform_loss(FIG2_Y, FIG2_S, prior=0.5), 4) == 0.3542
    y, s = random_scores(6, 90, decimals=None)  # no ties
    n = y.size
    expected = n / (n + 1) * (1 - 2 * roc_auc_score(y, s)) / 4 + 0.5
    assert instance_uniform_loss(y, s, prior=0.5) == pytest.approx(expected, abs=1e-12)
    # the continuous rate-uniform is the n -> infinity limit: (1 - 2 AUC)/4 + 1/2
    continuous = expected_losses(y, s, methods=["rate-uniform"], gammas=[0.0],
                                 settings={"prior": 0.5})["expected_loss"].item()
    assert continuous == pytest.approx((1 - 2 * roc_auc_score(y, s)) / 4 + 0.5, abs=1e-12)


def test_with_ties_the_step_curve_mixes_the_adjacent_lines():
    y, s = np.array([0, 1, 0, 1]), np.array([0.2, 0.5, 0.5, 0.9])  # a tie at 0.5
    lines = CostLines.from_scores(y, s)
    # cut k = 2 falls inside the tie: half of line 1 (1 predicted 0) and of line 2 (3)
    mixed = (lines.left[1] + lines.left[2]) / 2, (lines.right[1] + lines.right[2]) / 2
    cuts = [(lines.left[0], lines.right[0]), (lines.left[1], lines.right[1]), mixed,
            (lines.left[2], lines.right[2]), (lines.left[3], lines.right[3])]
    by_hand = sum(quad_line(a, b, k / 5, (k + 1) / 5) for k, (a, b) in enumerate(cuts))
    assert step_roc_cost_area(y, s) == pytest.approx(by_hand, abs=1e-15)


def test_the_roc_display_marks_the_least_loss_vertex_at_each_cost():
    y, s = random_scores(7, 200, decimals=2)
    display = ROCDisplay.from_predictions(y, s, cost_proportions=[0.2, 0.5, 0.8], plot=False)
    lines = CostLines.from_scores(y, s)
    for row in display.optimal.itertuples():
        heights = lines.left + (lines.right - lines.left) * row.c
        assert row.loss == pytest.approx(heights.min(), abs=1e-12)  # the optimal cost curve
    assert display.auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert display.auch == pytest.approx(auch(y, s), abs=1e-15)


def test_plot_roc_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text("label,score\n" + "".join(
        f"{a},{b}\n" for a, b in zip(FIG2_Y, FIG2_S, strict=True)))
    out = tmp_path / "roc.png"
    assert main(["plot", "roc", "--test", str(path), "--cost", "0.3", "--out", str(out)]) == 0
    assert out.stat().st_size > 1000 and out.with_suffix(".csv").exists()
    assert main(["plot", "roc", "--test", str(path), "--gamma", "2", "--out",
                 str(tmp_path / "x.png")]) == 2
    assert "--gamma applies to plot kind(s)" in capsys.readouterr().err


# -- instance-uniform as a method (paper 000's finite-n rate-uniform) --------------------------


@pytest.mark.parametrize("gamma", [math.inf, 4.0, 0.0])
def test_instance_uniform_method_has_the_instance_cuts_mean_loss_at_every_gamma(gamma):
    from threshold_choice import expected_losses

    y, s = random_scores(4, 60)  # ties: cuts inside tied groups mix two lines
    frame = expected_losses(y, s, methods=["instance-uniform"], gammas=[gamma])
    assert frame["expected_loss"].iloc[0] == pytest.approx(instance_uniform_loss(y, s),
                                                           abs=1e-14)


def test_instance_uniform_differs_from_rate_uniform_at_finite_n_and_on_skews():
    """At n = 7 (the audit's example): 0.3542 under uniform skews (prior 0.5) against
    rate-uniform's (1 - 2 AUC)/4 + 1/2 = 0.3333; the method under uniform costs, 0.3571."""
    from threshold_choice import LossSettings, expected_losses

    frame = expected_losses(FIG2_Y, FIG2_S, methods=["instance-uniform", "rate-uniform"],
                            gammas=[4.0])
    instance, rate = frame["expected_loss"]
    assert instance == pytest.approx(instance_uniform_loss(FIG2_Y, FIG2_S), abs=1e-14)
    assert instance != pytest.approx(rate, abs=1e-3)
    skews = expected_losses(FIG2_Y, FIG2_S, methods=["instance-uniform", "rate-uniform"],
                            gammas=[4.0], settings=LossSettings(prior=0.5))
    assert skews["expected_loss"].round(4).tolist() == [0.3542, 0.3333]


def test_instance_uniform_under_a_cost_distribution_weighs_each_cut_by_the_mean_cost():
    from threshold_choice import LossSettings, expected_losses
    from threshold_choice.costlines import CostLines
    from threshold_choice.methods.builders import instance_cut_lines

    y, s = random_scores(5, 40)
    left, right = instance_cut_lines(CostLines.from_scores(y, s))
    frame = expected_losses(y, s, methods=["instance-uniform"], gammas=[2.0],
                            settings=LossSettings(cost_distribution="beta:2,5"))
    mean_c = 2 / 7
    expected = float(np.mean(left + (right - left) * mean_c))
    assert frame["expected_loss"].iloc[0] == pytest.approx(expected, abs=1e-12)


def test_instance_uniform_is_bootstrapped_and_refused_by_the_classifier():
    from sklearn.linear_model import LogisticRegression

    from threshold_choice import ThresholdChoiceClassifier
    from threshold_choice.bootstrap import bootstrap
    from threshold_choice.errors import UserError

    y, s = random_scores(6, 80)
    boot = bootstrap(y, s, methods=["instance-uniform"], gammas=[4.0], metrics=(), n_boot=20)
    assert np.isfinite(boot.replicates).all() and boot.replicates.std() > 0
    X = np.random.default_rng(0).normal(size=(50, 2))
    with pytest.raises(UserError, match="random-cut baseline"):
        ThresholdChoiceClassifier(LogisticRegression(), method="instance-uniform").fit(
            X, (X[:, 0] > 0).astype(int))


# -- the hull's area without np.trapezoid -------------------------------------------------------


def test_the_area_under_the_hull_is_the_auc_of_the_pav_calibrated_scores():
    """The hull's area is the trapezoids of its vertices, written out (numpy 1.26 has no
    np.trapezoid); PAV calibration maps the ROC curve onto its hull, ties counting 1/2."""
    from sklearn.metrics import roc_auc_score

    from threshold_choice.score_transforms import pav_calibrated

    for seed in range(5):
        y, s = random_scores(seed, 300)
        assert auch(y, s) == pytest.approx(roc_auc_score(y, pav_calibrated(y, s)), abs=1e-14)
