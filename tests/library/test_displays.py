"""Displays: the numbers behind every plot equal the library's functions and closed forms
(areas under the curves, BS and AUC), several models share an axes, plots render headless,
and the ``plot`` command writes the figure and its numbers; a figure and its CSV are written
both or neither, and a large test set draws a bounded number of cost lines."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from tests.conftest import random_scores
from threshold_choice.bootstrap import resample_counts
from threshold_choice.cli import main
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.estimators import ThresholdChoiceClassifier
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.expected_loss import expected_cost_curve
from threshold_choice.methods import make_selection
from threshold_choice.metrics import compute_metrics
from threshold_choice.plotting import (
    BrierCurveDisplay,
    CertaintyDisplay,
    CostCurveDisplay,
    save_displays,
)
from threshold_choice.plotting.certainty import from_uncertainty, to_uncertainty

matplotlib.use("Agg")  # headless (pyplot is imported by plot() only)


@pytest.fixture(scope="module")
def run():
    y, s = random_scores(21, 250, decimals=2)
    ty, ts = random_scores(22, 200, decimals=2)
    return y, s, ty, ts


def _axes():
    fig = Figure()
    FigureCanvasAgg(fig)
    return fig.add_subplot()


def test_cost_curve_display_holds_the_librarys_numbers(run):
    y, s, ty, ts = run
    gammas = [math.inf, 4.0, 0.0]
    disp = CostCurveDisplay.from_predictions(y, s, train_y=ty, train_score=ts, gammas=gammas,
                                             plot=False)
    areas = expected_losses(y, s, train_y=ty, train_s=ts, gammas=gammas)
    pd.testing.assert_frame_equal(disp.areas, areas)
    test, train = CostLines.from_scores(y, s), CostLines.from_scores(ty, ts)
    np.testing.assert_array_equal(disp.cost_lines, np.column_stack([test.left, test.right]))
    for (method, gamma), curve in disp.curves.groupby(["method", "gamma"]):
        sel = make_selection(method, test, train=train, gamma=gamma)
        np.testing.assert_allclose(curve["loss"], expected_cost_curve(sel, gamma, curve["c"]))
        # independently: the area under the plotted curve is the expected loss
        area = np.trapezoid(curve["loss"], curve["c"])
        expected = areas[(areas.method == method) & (areas.gamma == gamma)].expected_loss.item()
        assert area == pytest.approx(expected, abs=2e-6), (method, gamma)


def test_cost_curve_display_takes_the_settings(run):
    y, s, _, _ = run
    disp = CostCurveDisplay.from_predictions(
        y, s, methods=["rate-driven"], gammas=[2.0], estimator="grid", grid_size=40, plot=False
    )
    grid = expected_losses(y, s, methods=["rate-driven"], gammas=[2.0],
                           settings=LossSettings(estimator="grid", grid_size=40))
    assert disp.areas["expected_loss"].item() == grid["expected_loss"].item()


def test_cost_curves_lines_and_bands_are_at_the_deployment_prior(run):
    """With ``prior`` the areas are those of the reweighted lines (``expected_losses``): so are
    the cost lines, the curves (each integrates to its legend's area) and the bands."""
    y, s, ty, ts = run
    disp = CostCurveDisplay.from_predictions(
        y, s, train_y=ty, train_score=ts, gammas=[math.inf, 0.0], prior=0.3, n_boot=5,
        band_points=11, plot=False)
    test = CostLines.from_scores(y, s).with_prior(0.3)
    np.testing.assert_array_equal(disp.cost_lines, np.column_stack([test.left, test.right]))
    areas = disp.areas.set_index(["method", "gamma"])["expected_loss"]
    for (method, gamma), curve in disp.curves.groupby(["method", "gamma"]):
        assert np.trapezoid(curve["loss"], curve["c"]) == pytest.approx(
            areas[(method, gamma)], abs=2e-6), (method, gamma)
    counts = resample_counts(y, 5, 0)
    c = np.linspace(0, 1, 11)
    curves = [expected_cost_curve(make_selection("score-driven", CostLines.from_scores(
        y[np.repeat(np.arange(y.size), k)], s[np.repeat(np.arange(y.size), k)]).with_prior(0.3)),
        math.inf, c) for k in counts]
    band = disp.bands[(disp.bands.method == "score-driven") & (disp.bands.gamma == math.inf)]
    np.testing.assert_allclose(band["upper"], np.quantile(curves, 0.975, axis=0), atol=1e-12)


def test_brier_display_areas_are_the_brier_score_and_the_auc_line(run):
    y, s, _, _ = run
    disp = BrierCurveDisplay.from_predictions(y, s, plot=False)
    assert list(disp.areas["method"]) == ["test-optimal", "score-driven", "rate-driven"]
    area = disp.areas.set_index("method")["expected_loss"]
    m = compute_metrics(y, s)
    assert area["score-driven"] == pytest.approx(m["BS"], abs=1e-12)
    assert area["rate-driven"] == pytest.approx(m["pi0"] * m["pi1"] * (1 - 2 * m["AUC"]) + 1 / 3,
                                                abs=1e-12)
    assert area["test-optimal"] == pytest.approx(m["RL_conv"], abs=1e-12)


def test_cost_curve_bands_are_percentiles_over_resampled_test_sets(run):
    y, s, _, _ = run
    disp = CostCurveDisplay.from_predictions(
        y, s, methods=["score-driven"], gammas=[math.inf, 2.0], n_boot=40, seed=3,
        band_points=11, plot=False,
    )
    counts = resample_counts(y, 40, 3)
    c = np.linspace(0, 1, 11)
    for gamma in (math.inf, 2.0):
        curves = []
        for r in range(40):
            idx = np.repeat(np.arange(y.size), counts[r])
            sel = make_selection("score-driven", CostLines.from_scores(y[idx], s[idx]))
            curves.append(expected_cost_curve(sel, gamma, c))
        band = disp.bands[disp.bands.gamma == gamma]
        np.testing.assert_allclose(band["lower"], np.quantile(curves, 0.025, axis=0), atol=1e-12)
        np.testing.assert_allclose(band["upper"], np.quantile(curves, 0.975, axis=0), atol=1e-12)


def test_certainty_display_marks_where_the_best_method_changes(run):
    y, s, _, _ = run
    methods = ["score-driven", "rate-driven"]
    grid = [math.inf, 4.0, 1.0, 0.0]
    disp = CertaintyDisplay.from_predictions(y, s, methods=methods, gammas=grid, refine=3,
                                             plot=False)
    pd.testing.assert_frame_equal(
        disp.losses, expected_losses(y, s, methods=methods, gammas=grid)
    )
    table = disp.losses.pivot(index="gamma", columns="method", values="expected_loss")
    best = table.idxmin(axis=1).sort_index(ascending=False)
    changes = int(np.sum(best.to_numpy()[1:] != best.to_numpy()[:-1]))
    assert len(disp.switches) == changes >= 1
    row = disp.switches.iloc[0]
    # on either side of the marked certainty (u = 1/(1 + gamma) +- 0.04) the order differs
    u = float(to_uncertainty(row.gamma))
    sides = [float(from_uncertainty(u - 0.04)), float(from_uncertainty(u + 0.04))]
    frame = expected_losses(y, s, methods=[row.before, row.after], gammas=sides)
    diff = frame.pivot(index="gamma", columns="method", values="expected_loss")
    diff = (diff[row.before] - diff[row.after]).loc[sides]
    assert diff.iloc[0] < 0 < diff.iloc[1]


def test_certainty_bands_are_the_bootstrap_intervals(run):
    y, s, ty, ts = run
    from threshold_choice.bootstrap import bootstrap

    disp = CertaintyDisplay.from_predictions(y, s, train_y=ty, train_score=ts,
                                             gammas=[math.inf, 4.0, 0.0], n_boot=30, seed=1,
                                             plot=False)
    boot = bootstrap(y, s, train_y=ty, train_s=ts, methods=list(disp.losses.method.unique()),
                     gammas=[math.inf, 4.0, 0.0], n_boot=30, seed=1)
    pd.testing.assert_frame_equal(disp.losses, boot.intervals())


@pytest.fixture(scope="module")
def model():
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y,
                                                        random_state=0)
    clf = ThresholdChoiceClassifier(make_pipeline(StandardScaler(), LogisticRegression(C=0.05)),
                                    cv=None)
    return clf.fit(X_train, y_train), X_train, X_test, y_train, y_test


def test_from_estimator_equals_from_predictions_with_its_scores(model):
    clf, X_train, X_test, y_train, y_test = model
    s = clf.predict_proba(X_test)[:, 1]
    s_train = clf.predict_proba(X_train)[:, 1]
    ours = CostCurveDisplay.from_estimator(clf, X_test, y_test, plot=False)
    theirs = CostCurveDisplay.from_predictions(y_test, s, train_y=y_train, train_score=s_train,
                                               plot=False)
    assert "train-optimal" in set(ours.areas["method"])  # training scores from the classifier
    pd.testing.assert_frame_equal(ours.areas, theirs.areas)
    inner = clf.estimator_  # a plain model: training scores from X_train
    plain = CostCurveDisplay.from_estimator(inner, X_test, y_test, X_train=X_train,
                                            y_train=y_train, plot=False)
    pd.testing.assert_frame_equal(plain.areas, theirs.areas)
    assert plain.name == "LogisticRegression"  # the model inside the Pipeline


def test_train_optimal_without_training_scores_is_an_error(run):
    y, s, _, _ = run
    with pytest.raises(UserError, match="training scores"):
        CostCurveDisplay.from_predictions(y, s, methods=["train-optimal"], plot=False)
    # by default it is left out
    disp = CostCurveDisplay.from_predictions(y, s, plot=False)
    assert "train-optimal" not in set(disp.areas["method"])


def test_several_models_share_one_axes_and_render(run, tmp_path):
    y, s, ty, ts = run
    other = np.clip(s + np.random.default_rng(0).normal(0, 0.1, s.size), 0, 1)
    ax = _axes()
    a = CostCurveDisplay.from_predictions(y, s, train_y=ty, train_score=ts, name="A", ax=ax,
                                          gammas=[math.inf])
    b = CostCurveDisplay.from_predictions(y, other, name="B", ax=a.ax_, gammas=[math.inf],
                                          plot_kwargs={"color": "C1", "cost_lines": False})
    assert b.ax_ is a.ax_
    labels = [line.get_label() for line in ax.get_lines()]
    assert sum(lab.startswith("A: ") for lab in labels) == 4
    assert sum(lab.startswith("B: ") for lab in labels) == 3
    paths = save_displays([a, b], tmp_path / "two.svg")
    assert paths["svg"].stat().st_size > 1000
    data = pd.read_csv(paths["csv"])
    assert set(data["panel"]) == {"A", "B"}
    curve = data[(data.panel == "B") & (data.kind == "curve") & (data.series == "rate-driven "
                                                                  "gamma=inf")]
    expected = b.curves[b.curves.method == "rate-driven"]["loss"].to_numpy()
    np.testing.assert_allclose(curve["y"], expected)
    for fmt in ("png", "pdf"):
        assert save_displays([a], tmp_path / f"one.{fmt}")[fmt].stat().st_size > 1000
    with pytest.raises(UserError, match="figure formats"):
        save_displays([a], tmp_path / "one.jpg")


def test_plot_with_pyplot_axes_by_default(run):
    import matplotlib.pyplot as plt

    y, s, _, _ = run
    disp = BrierCurveDisplay.from_predictions(y, s)
    assert disp.figure_ is disp.ax_.figure
    assert len(disp.ax_.get_lines()) == 3
    plt.close(disp.figure_)


def _write(path, y, s):
    pd.DataFrame({"label": y, "score": s}).to_csv(path, index=False)
    return str(path)


def test_plot_command_writes_the_figure_and_the_numbers(run, tmp_path, capsys):
    y, s, ty, ts = run
    test, train = _write(tmp_path / "m.csv", y, s), _write(tmp_path / "m_train.csv", ty, ts)
    other = _write(tmp_path / "n.csv", y, np.round(np.clip(s * 0.8 + 0.1, 0, 1), 2))
    out = tmp_path / "fig" / "cost.png"
    assert main(["plot", "cost-curves", "--test", test, "--train", train, "--out", str(out),
                 "--gamma", "inf", "--gamma", "2"]) == 0
    assert out.stat().st_size > 1000
    data = pd.read_csv(out.with_suffix(".csv"))
    areas = data[data.kind == "expected_loss"]
    expected = expected_losses(y, s, train_y=ty, train_s=ts, gammas=[math.inf, 2.0])
    np.testing.assert_allclose(np.sort(areas["y"]), np.sort(expected["expected_loss"]))
    assert set(data["panel"]) == {"m"}
    out2 = tmp_path / "brier.pdf"
    assert main(["plot", "brier", "--test", test, "--test", other, "--name", "first", "--name",
                 "second", "--out", str(out2)]) == 0
    data2 = pd.read_csv(out2.with_suffix(".csv"))
    assert set(data2["panel"]) == {"first", "second"}
    assert "cost_line" not in set(data2["kind"])  # several models: no cost lines
    capsys.readouterr()
    assert main(["plot", "cost-curves", "--test", test, "--train", train, "--train", train,
                 "--out", str(out2)]) == 2
    assert "one --train per --test" in capsys.readouterr().err
    assert main(["plot", "certainty", "--test", test, "--out", str(tmp_path / "x.gif")]) == 2
    assert "--out must end in" in capsys.readouterr().err


def test_kept_training_scores_are_used_only_for_their_own_positive_class(model):
    clf, X_train, X_test, y_train, y_test = model  # fitted with pos_label = classes_[1] = 1
    with pytest.raises(UserError, match=r"kept are for pos_label=1, not 0.*X_train"):
        CostCurveDisplay.from_estimator(clf, X_test, y_test, pos_label=0, plot=False)
    # with the training data given, class 0 as positive is scored from it: the areas equal
    # those of the predictions of class 0 (labels and probabilities of class 0)
    ours = CostCurveDisplay.from_estimator(clf, X_test, y_test, pos_label=0, X_train=X_train,
                                           y_train=y_train, plot=False)
    theirs = CostCurveDisplay.from_predictions(
        (y_test == 0).astype(int), clf.predict_proba(X_test)[:, 0],
        train_y=(y_train == 0).astype(int), train_score=clf.predict_proba(X_train)[:, 0],
        plot=False)
    pd.testing.assert_frame_equal(ours.areas, theirs.areas)


# -- a figure and its numbers written both or neither; large inputs draw what a figure shows ----


def test_a_figure_and_its_csv_are_written_both_or_neither(tmp_path, monkeypatch):
    from threshold_choice.plotting import CostCurveDisplay, save_displays

    y, s = random_scores(1, 100)
    display = CostCurveDisplay.from_predictions(y, s)
    out = tmp_path / "fig.png"
    (tmp_path / "fig.csv").write_text("old numbers\n")

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(display.figure_, "savefig", disk_full)
    with pytest.raises(OSError):
        save_displays([display], out)
    assert not out.exists()
    assert (tmp_path / "fig.csv").read_text() == "old numbers\n"  # the old one, untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig.csv"]  # no temporary left


def test_a_large_test_set_draws_at_most_max_drawn_lines_cost_lines(tmp_path):
    from threshold_choice.plotting import CostCurveDisplay, save_displays
    from threshold_choice.plotting.cost_curves import MAX_DRAWN_LINES

    rng = np.random.default_rng(3)
    n = 20_000
    y = (rng.random(n) < 0.5).astype(int)
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1)
    display = CostCurveDisplay.from_predictions(y, s, methods=["score-driven"],
                                                gammas=[float("inf")])
    assert display.cost_lines_total == np.unique(s).size + 1
    assert len(display.cost_lines) == MAX_DRAWN_LINES
    assert display.cost_line_index[0] == 0
    assert display.cost_line_index[-1] == display.cost_lines_total - 1
    collection = display.ax_.collections[0]
    assert len(collection.get_segments()) == MAX_DRAWN_LINES
    assert f"({MAX_DRAWN_LINES} of {display.cost_lines_total})" in collection.get_label()
    save_displays([display], tmp_path / "f.png")
    data = pd.read_csv(tmp_path / "f.csv")
    assert (data["kind"] == "cost_line").sum() == 2 * MAX_DRAWN_LINES  # the drawn ones
    # the drawn lines are the lines of those numbers, heights unchanged
    from threshold_choice.costlines import CostLines

    lines = CostLines.from_scores(y, s)
    j = display.cost_line_index[17]
    assert display.cost_lines[17].tolist() == [lines.left[j], lines.right[j]]


def test_a_small_test_set_draws_every_cost_line():
    from threshold_choice.plotting import CostCurveDisplay

    y, s = random_scores(8, 300)
    display = CostCurveDisplay.from_predictions(y, s, methods=["score-driven"])
    assert len(display.cost_lines) == display.cost_lines_total == np.unique(s).size + 1
