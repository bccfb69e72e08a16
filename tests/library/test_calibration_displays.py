"""The drawings of paper 002's calibration and rescaling results: the log-odds regret Display
(Figs 5, 7), whose shaded areas are the log loss's calibration and refinement, and the
decision curve Display on the rescaled axes of Thms C.3 / C.4, whose shaded area is half the
bounded Brier score or the bounded log loss; the command line's ``plot`` and ``loss``; and
the readings of Figs 6 and 7 on Assel et al.'s simulation (Appendix D's)."""

from __future__ import annotations

import itertools
from io import StringIO

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PolyCollection
from scipy.special import expit, logit

from tests.conftest import random_scores
from threshold_choice import (
    bounded_brier_score,
    bounded_log_loss,
    brier_decomposition,
    compute_metrics,
    log_loss_decomposition,
    regret_curves,
)
from threshold_choice.cli import main
from threshold_choice.errors import UserError
from threshold_choice.plotting import DecisionCurveDisplay, LogOddsRegretDisplay


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def polygon_area(collection):
    """The area of a shading (fill_between): shoelace over its polygons."""
    total = 0.0
    for path in collection.get_paths():
        x, y = path.vertices[:, 0], path.vertices[:, 1]
        total += 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    return total


def shading(ax, prefix):
    return next(c for c in ax.collections
                if isinstance(c, PolyCollection) and c.get_label().startswith(prefix))


# -- the log-odds regret Display ---------------------------------------------------------------


@pytest.mark.parametrize("cost_range", [None, (0.05, 0.5), (1 / 11, 1 / 3)])
def test_the_shaded_areas_are_the_decomposition_in_the_legend(cost_range):
    y, s = random_scores(71, 400, decimals=2, pi1=0.35)
    s = np.clip(s, 0.02, 0.98)
    display = LogOddsRegretDisplay.from_predictions(y, s, name="m", cost_range=cost_range)
    low, high = cost_range or (0.0, 1.0)
    parts = log_loss_decomposition(y, s, low=low, high=high)
    assert display.decomposition == parts
    pd.testing.assert_frame_equal(display.curves, regret_curves(y, s, display.curves["cost"]))
    ax = display.ax_
    calibration = polygon_area(shading(ax, "calibration"))
    refinement = polygon_area(shading(ax, "refinement"))
    if cost_range is None:  # drawn over [0.001, 0.999]: the areas of that range
        parts = log_loss_decomposition(y, s, low=0.001, high=0.999)
    # the drawn curves are straight between 1001 points: close to the exact areas
    assert calibration == pytest.approx(parts.calibration, abs=2e-3)
    assert refinement == pytest.approx(parts.refinement, abs=2e-3)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    # one model: its name in the title, not before each entry
    assert f"calibration {display.decomposition.calibration:.4f}" in texts
    loss = display.decomposition.loss
    assert any(t.startswith("scores: log loss") and t.endswith(f"{loss:.4f}") for t in texts)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert "0.1\n1:9" in labels and "0.5\n1:1" in labels
    frame = display.data
    assert set(frame["kind"]) == {"regret", "refinement", "calibration"}
    np.testing.assert_allclose(frame.loc[frame["kind"] == "regret", "x"], logit(
        display.curves["cost"]))


def test_the_scores_and_the_calibrated_scores_by_hand():
    # a calibrated binary test: recalibration changes nothing, the curves coincide
    rng = np.random.default_rng(3)
    y = (rng.random(2000) < 0.2).astype(int)
    test = np.where(y == 1, rng.random(2000) < 0.5, rng.random(2000) > 0.95)
    s = np.where(test, y[test].mean(), y[~test].mean())
    display = LogOddsRegretDisplay.from_predictions(y, s, plot=False)
    assert display.decomposition.calibration == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(display.curves["regret"], display.curves["refinement"],
                               atol=1e-15)


def test_the_options_are_checked():
    y, s = random_scores(72, 50)
    for bad in [(0.0, 0.5), (0.5, 0.2), (0.1, 0.2, 0.3)]:
        with pytest.raises(UserError, match="cost_range"):
            LogOddsRegretDisplay.from_predictions(y, s, cost_range=bad, plot=False)
    with pytest.raises(UserError, match=r"in \(0, 1\)"):
        LogOddsRegretDisplay.from_predictions(y, s, cost_proportions=[0.0, 0.5], plot=False)
    display = LogOddsRegretDisplay.from_predictions(y, s, cost_range=(1e-4, 0.5), plot=False)
    assert display.curves["cost"].iloc[0] == pytest.approx(1e-4)  # widened to the range


# -- the rescaled decision curves --------------------------------------------------------------


@pytest.mark.parametrize("scale", ["quadratic", "log"])
def test_the_shaded_area_above_a_rescaled_curve_is_the_bounded_score(scale):
    y, s = random_scores(73, 300, decimals=2, pi1=0.3)
    t = np.linspace(0.01, 0.95, 941)
    display = DecisionCurveDisplay.from_predictions(y, s, thresholds=t, scale=scale,
                                                    average=[(0.05, 0.2), (0.1, 0.6)])
    ax = display.ax_
    model = next(line for line in ax.get_lines() if line.get_label() == "model")
    expected_x = -((1 - t) ** 2) / 2 if scale == "quadratic" else np.log(t)
    np.testing.assert_allclose(model.get_xdata(), expected_x)
    for row in display.averages.itertuples(index=False):
        exact = (bounded_log_loss(y, s, row.low, row.high) if scale == "log"
                 else bounded_brier_score(y, s, row.low, row.high) / 2)
        assert row.area == pytest.approx(exact, abs=1e-14)
        drawn = polygon_area(shading(ax, f"area on [{row.low:g}, {row.high:g}]"))
        assert drawn == pytest.approx(exact, rel=0.01)
    prevalence = [line for line in ax.get_lines() if line.get_label().startswith("prevalence")]
    assert len(prevalence) == 1 and prevalence[0].get_ydata()[0] == pytest.approx(y.mean())
    assert set(display.data["kind"]) >= {"net_benefit", "area_above_curve"}


def test_the_linear_scale_is_the_decision_curve_as_before():
    y, s = random_scores(74, 120, decimals=2)
    display = DecisionCurveDisplay.from_predictions(y, s, average=(0.05, 0.2))
    assert list(display.averages.columns) == ["low", "high", "net_benefit", "treat_all",
                                              "treat_none"]
    model = next(line for line in display.ax_.get_lines() if line.get_label() == "model")
    np.testing.assert_allclose(model.get_xdata(), np.arange(100) / 100)


def test_the_rescaled_options_are_checked():
    y, s = random_scores(75, 60)
    with pytest.raises(UserError, match="t > 0"):
        DecisionCurveDisplay.from_predictions(y, s, thresholds=[0.0, 0.5], scale="log")
    with pytest.raises(UserError, match="low > 0"):
        DecisionCurveDisplay.from_predictions(y, s, scale="log", average=(0.0, 0.2))
    with pytest.raises(UserError, match="scale must be"):
        DecisionCurveDisplay.from_predictions(y, s, scale="cubic")


# -- the command line --------------------------------------------------------------------------


def write(path, labels, scores):
    pd.DataFrame({"label": labels, "score": scores}).to_csv(path, index=False)
    return str(path)


def test_plot_draws_the_log_odds_regret_of_two_models(tmp_path, capsys):
    y, s = random_scores(76, 300, decimals=2)
    first = write(tmp_path / "a.csv", y, s)
    second = write(tmp_path / "b.csv", y, expit(0.5 * logit(np.clip(s, 0.01, 0.99))))
    out = tmp_path / "regret.png"
    assert main(["plot", "log-odds-regret", "--test", first, "--test", second,
                 "--cost-range", "0.05", "0.5", "--out", str(out)]) == 0
    frame = pd.read_csv(out.with_suffix(".csv"))
    assert set(frame["panel"]) == {"a", "b"}
    a = frame[(frame["panel"] == "a") & (frame["kind"] == "regret")]
    np.testing.assert_allclose(a["y"], regret_curves(y, s, expit(a["x"]))["regret"], atol=1e-9)
    assert main(["plot", "roc", "--test", first, "--cost-range", "0.1", "0.2",
                 "--out", str(tmp_path / "r.png")]) == 2
    assert "--cost-range applies to plot kind(s) log-odds-regret" in capsys.readouterr().err


def test_plot_draws_a_rescaled_decision_curve(tmp_path):
    y, s = random_scores(77, 200, decimals=2)
    path = write(tmp_path / "m.csv", y, s)
    out = tmp_path / "dca.svg"
    assert main(["plot", "decision-curve", "--test", path, "--scale", "log", "--average",
                 "0.05", "0.2", "--out", str(out)]) == 0
    frame = pd.read_csv(out.with_suffix(".csv"))
    area = frame[frame["kind"] == "area_above_curve"]["y"].iloc[0]
    assert area == pytest.approx(bounded_log_loss(y, s, 0.05, 0.2), rel=1e-9)


def test_loss_prints_the_isotonic_decompositions(tmp_path, capsys):
    y, s = random_scores(78, 300, decimals=2)
    path = write(tmp_path / "t.csv", y, s)
    assert main(["loss", "--test", path, "--method", "score-driven", "--gamma", "inf"]) == 0
    metrics = pd.read_csv(StringIO(capsys.readouterr().out.split("\n\n")[1]))
    value = metrics.set_index("metric")["value"]
    brier = brier_decomposition(y, s)
    logs = log_loss_decomposition(y, s)
    assert value["CL_conv"] == pytest.approx(brier.calibration, rel=1e-9)
    assert value["RL_conv"] == pytest.approx(brier.refinement, rel=1e-9)
    assert value["LogLoss"] == pytest.approx(compute_metrics(y, s)["LogLoss"], rel=1e-9)
    assert value["LogLoss_CL_conv"] == pytest.approx(logs.calibration, rel=1e-9)
    assert value["LogLoss_RL_conv"] == pytest.approx(logs.refinement, rel=1e-9)


# -- the readings of Figs 6 and 7 (Assel et al.'s simulation) ----------------------------------


def assel(n=200_000, seed=11):
    """Appendix D's patients (tests/test_decision_curves.py's ``assel_simulation``), each
    binary test also scored by its predictive values (P(disease | result): calibrated)."""
    from tests.library.test_decision_curves import assel_simulation

    y, models = assel_simulation(n=n, seed=seed)
    for name in ("Highly sensitive", "Highly specific"):
        test = models[name] == 1
        models[name + " (predictive values)"] = np.where(test, y[test].mean(), y[~test].mean())
    return y, models


def test_figure_7_the_binary_test_has_the_lower_refinement_not_only_the_better_calibration():
    y, models = assel(seed=12)
    binary = log_loss_decomposition(y, models["Highly specific (predictive values)"])
    auc_binary = compute_metrics(y, models["Highly specific"])["AUC"]
    for name in ("Well calibrated", "Underestimating risk", "Overestimating risk",
                 "Severely underestimating risk"):
        continuous = log_loss_decomposition(y, models[name])
        assert compute_metrics(y, models[name])["AUC"] > auc_binary + 0.01  # higher AUC ...
        assert continuous.calibration > binary.calibration + 0.03  # ... worse calibration ...
        assert continuous.refinement > binary.refinement + 0.02  # ... and worse refinement
        assert continuous.loss > binary.loss
    # the Brier score's refinement agrees
    assert (brier_decomposition(y, models["Well calibrated"]).refinement
            > brier_decomposition(y, models["Highly specific (predictive values)"]).refinement)


def test_figure_6_the_bounded_brier_score_favours_the_binary_test_over_5_20_percent():
    # the caption: "the Bounded Threshold Brier Score correctly shows lower regret for the
    # continuous model"; Appendix D's own table: 0.12 (highly sensitive) against 0.17
    y, models = assel(seed=13)
    for scores in (models["Highly sensitive"], models["Highly sensitive (predictive values)"]):
        binary = bounded_brier_score(y, scores, 0.05, 0.2) / 0.15
        continuous = bounded_brier_score(y, models["Well calibrated"], 0.05, 0.2) / 0.15
        assert binary == pytest.approx(0.12, abs=0.006)
        assert continuous == pytest.approx(0.17, abs=0.006)
    # over all thresholds the Brier score favours the binary test only when it is scored by
    # its predictive values (0.14 against 0.17; as 0/1, 0.41)
    pv = np.mean((y - models["Highly sensitive (predictive values)"]) ** 2)
    assert pv < np.mean((y - models["Well calibrated"]) ** 2) < np.mean(
        (y - models["Highly sensitive"]) ** 2)


@pytest.mark.parametrize("layout", [None, "constrained"])
def test_the_log_odds_tick_labels_do_not_run_into_each_other_on_a_2x2_grid(layout):
    y, s = random_scores(5, 400)
    fig, axes = plt.subplots(2, 2, figsize=(8, 6), layout=layout)
    display = LogOddsRegretDisplay.from_predictions(y, s, ax=axes[0, 0])
    fig.canvas.draw()
    boxes = sorted((t.get_window_extent() for t in display.ax_.get_xticklabels()
                    if t.get_text()), key=lambda box: box.x0)
    assert len(boxes) >= 5  # thinned, not emptied: both ends and the middle
    assert all(left.x1 < right.x0 for left, right in itertools.pairwise(boxes))


def test_the_log_odds_ticks_are_all_kept_where_there_is_room():
    y, s = random_scores(5, 400)
    display = LogOddsRegretDisplay.from_predictions(y, s)  # its own figure
    labels = [t.get_text().split("\n")[0] for t in display.ax_.get_xticklabels()]
    assert labels == ["0.001", "0.01", "0.1", "0.25", "0.5", "0.75", "0.9", "0.99", "0.999"]


# -- the user's costs off the log-odds axis ----------------------------------------------------


def costs_mark(ax):
    from threshold_choice.plotting._base import COSTS_GID

    (mark,) = [line for line in ax.get_lines() if line.get_gid() == COSTS_GID]
    return mark


@pytest.mark.parametrize(("fp", "fn", "side", "text"), [
    (0, 5, "left", "c = 0\nlog-odds \u2212\u221e: off the axis, arrow at left"),
    (5, 0, "right", "c = 1\nlog-odds \u221e: off the axis, arrow at right"),
    (1, 9999, "left", "c = 0.0001\nlog-odds \u22129.21: off the axis, arrow at left"),
])
def test_costs_off_the_log_odds_axis_are_drawn_at_its_end_and_said_so(fp, fn, side, text):
    from threshold_choice import Costs

    y, s = random_scores(80, 120)
    display = LogOddsRegretDisplay.from_predictions(y, s, costs=Costs(fp, fn))
    ax = display.ax_
    lo, hi = ax.get_xlim()
    mark = costs_mark(ax)
    # logit(0) = -inf, logit(1) = inf, logit(1e-4) < logit(0.001): the band was never seen
    assert np.all(np.asarray(mark.get_xdata()) == (lo if side == "left" else hi))
    assert mark.get_marker() == ("<" if side == "left" else ">")  # pointing off the axis
    assert not mark.get_clip_on()  # the whole arrow, over the spine
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert f"costs FP {fp}, FN {fn}: {text}" in texts


def test_costs_on_the_log_odds_axis_are_a_plain_band_also_once_a_model_widens_it():
    from threshold_choice import Costs

    y, s = random_scores(81, 120)
    display = LogOddsRegretDisplay.from_predictions(y, s, costs=Costs(1, 5), name="a")
    mark = costs_mark(display.ax_)
    assert mark.get_xdata()[0] == pytest.approx(logit(1 / 6))
    assert mark.get_marker() == "None"
    # off the first model's axis, then on it once a second model's range widens it
    display = LogOddsRegretDisplay.from_predictions(y, s, costs=Costs(1, 9999), name="a")
    assert costs_mark(display.ax_).get_marker() == "<"
    LogOddsRegretDisplay.from_predictions(y, s, ax=display.ax_, name="b",
                                          cost_range=(1e-5, 0.5))
    mark = costs_mark(display.ax_)
    assert mark.get_xdata()[0] == pytest.approx(logit(1e-4))
    assert mark.get_marker() == "None"
    # the mark (three points in axes units, for its arrow) is not data: the height is the
    # regret's, as without costs
    top = max(np.max(line.get_ydata()) for line in display.ax_.get_lines()
              if line is not mark and len(line.get_ydata()) > 2)
    assert display.ax_.get_ylim()[1] == pytest.approx(1.08 * top)
    texts = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    assert "costs FP 1, FN 9999: c = 0.0001" in texts


def test_plot_log_odds_regret_marks_costs_of_zero_at_the_axis_end(tmp_path, monkeypatch):
    import matplotlib.figure

    y, s = random_scores(82, 120)
    path = write(tmp_path / "m.csv", y, s)
    saved, savefig = [], matplotlib.figure.Figure.savefig

    def keep(fig, *args, **kwargs):  # the figure the command drew, written as before
        saved.append(fig)
        return savefig(fig, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", keep)
    assert main(["plot", "log-odds-regret", "--test", path, "--costs", "0,5",
                 "--out", str(tmp_path / "r.png")]) == 0
    (ax,) = [ax for ax in saved[0].axes if ax.get_lines()]
    mark = costs_mark(ax)
    assert mark.get_xdata()[0] == ax.get_xlim()[0] and mark.get_marker() == "<"
    assert "costs FP 0, FN 5: c = 0\nlog-odds \u2212\u221e: off the axis, arrow at left" in [
        t.get_text() for t in ax.get_legend().get_texts()]
