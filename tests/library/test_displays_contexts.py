"""The decision curve, FROC and F-cost Displays: their numbers equal the library's functions
(``decision_curves``, ``fmeasure``) computed directly and counts made by hand, they render
headless in every figure format, and the ``plot`` command writes them with their numbers."""

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
from threshold_choice.cli import main
from threshold_choice.costlines import CostLines
from threshold_choice.decision_curves import (
    average_net_benefit,
    average_treat_all_net_benefit,
    decision_curve,
    expected_net_benefit,
)
from threshold_choice.errors import UserError
from threshold_choice.evaluation import expected_losses
from threshold_choice.fmeasure import FCostLines, expected_f_cost_curve, froc_points
from threshold_choice.methods import make_selection
from threshold_choice.plotting import (
    DecisionCurveDisplay,
    FCostDisplay,
    FROCDisplay,
    save_displays,
)

matplotlib.use("Agg")

THRESHOLDS = np.linspace(0.0, 0.95, 39)


@pytest.fixture(scope="module")
def run():
    y, s = random_scores(31, 300, decimals=2)
    ty, ts = random_scores(32, 240, decimals=2)
    return y, s, ty, ts


def _axes():
    fig = Figure()
    FigureCanvasAgg(fig)
    return fig.add_subplot()


def _nb_by_counting(y, s, t, inclusive=False):
    """Net benefit from the confusion counts at each threshold, one threshold at a time."""
    out = []
    for ti in np.atleast_1d(t):
        treated = s >= ti if inclusive else s > ti
        tp, fp = np.sum(treated & (y == 1)), np.sum(treated & (y == 0))
        out.append(tp / y.size - fp / y.size * ti / (1 - ti))
    return np.array(out)


# -- decision curves ---------------------------------------------------------------------------


def test_decision_curve_display_holds_the_librarys_numbers(run):
    y, s, ty, ts = run
    methods, gammas = ["score-driven", "train-optimal", "rate-driven"], [math.inf, 3.0]
    disp = DecisionCurveDisplay.from_predictions(
        y, s, train_y=ty, train_score=ts, thresholds=THRESHOLDS, methods=methods,
        gammas=gammas, average=[(0.05, 0.2), (0.1, 0.6)], plot=False,
    )
    pd.testing.assert_frame_equal(disp.curve, decision_curve(y, s, THRESHOLDS))
    np.testing.assert_allclose(disp.curve["net_benefit"], _nb_by_counting(y, s, THRESHOLDS),
                               atol=1e-12)
    test, train = CostLines.from_scores(y, s), CostLines.from_scores(ty, ts)
    assert len(disp.method_curves) == len(methods) * len(gammas) * THRESHOLDS.size
    for (method, gamma), rows in disp.method_curves.groupby(["method", "gamma"]):
        sel = make_selection(method, test, train=train, gamma=gamma)
        expected = expected_net_benefit(sel, gamma, THRESHOLDS, pi1=float(np.mean(y)))
        np.testing.assert_allclose(rows["net_benefit"], expected, atol=1e-12)
    # score-driven with the cost known is plain decision curve analysis
    sd = disp.method_curves.query("method == 'score-driven' and gamma == inf")
    np.testing.assert_allclose(sd["net_benefit"], disp.curve["net_benefit"], atol=1e-12)
    for row in disp.averages.itertuples(index=False):
        assert row.net_benefit == average_net_benefit(y, s, row.low, row.high)
        assert row.treat_all == average_treat_all_net_benefit(float(np.mean(y)), row.low,
                                                              row.high)
        # independently: the mean of the counted net benefit on a fine grid (midpoint rule)
        edges = np.linspace(row.low, row.high, 40_001)
        mid = (edges[:-1] + edges[1:]) / 2
        assert row.net_benefit == pytest.approx(_nb_by_counting_fast(y, s, mid).mean(),
                                                abs=2e-4)
        assert row.treat_none == 0.0


def _nb_by_counting_fast(y, s, t):
    treated = s[None, :] > t[:, None]
    tp = (treated & (y == 1)).sum(axis=1) / y.size
    fp = (treated & (y == 0)).sum(axis=1) / y.size
    return tp - fp * t / (1 - t)


def test_decision_curve_display_inclusive_treats_scores_equal_to_the_threshold(run):
    y, s, _, _ = run
    t = np.unique(s)[:-1][::7]  # thresholds at score values, where the rules differ
    disp = DecisionCurveDisplay.from_predictions(y, s, thresholds=t, inclusive=True,
                                                 plot=False)
    np.testing.assert_allclose(disp.curve["net_benefit"],
                               _nb_by_counting(y, s, t, inclusive=True), atol=1e-12)
    assert not np.allclose(disp.curve["net_benefit"], _nb_by_counting(y, s, t))


def test_decision_curve_display_data_are_its_attributes(run):
    y, s, _, _ = run
    disp = DecisionCurveDisplay.from_predictions(
        y, s, thresholds=THRESHOLDS, methods=["rate-driven"], gammas=[2.0],
        average=(0.05, 0.3), name="m", plot=False,
    )
    data = disp.data
    assert set(data["panel"]) == {"m"}
    nb = data[data.kind == "net_benefit"]
    np.testing.assert_array_equal(nb["x"], THRESHOLDS)
    np.testing.assert_array_equal(nb["y"], disp.curve["net_benefit"])
    rd = data[(data.kind == "expected_net_benefit") & (data.series == "rate-driven gamma=2")]
    np.testing.assert_array_equal(rd["y"], disp.method_curves["net_benefit"])
    avg = data[(data.kind == "average_net_benefit") & (data.series == "model [0.05, 0.3]")]
    assert list(avg["x"]) == [0.05, 0.3]
    assert list(avg["y"]) == [disp.averages["net_benefit"].item()] * 2


def test_decision_curves_of_models_on_one_test_set_share_treat_all(run):
    y, s, _, _ = run
    other = np.clip(s + np.random.default_rng(1).normal(0, 0.1, s.size), 0, 1)
    ax = _axes()
    a = DecisionCurveDisplay.from_predictions(y, s, name="A", ax=ax, thresholds=THRESHOLDS)
    DecisionCurveDisplay.from_predictions(y, other, name="B", ax=ax, thresholds=THRESHOLDS,
                                          plot_kwargs={"color": "C1"})
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels.count("treat all") == 1 and labels.count("treat none") == 1
    assert "A" in labels and "B" in labels  # a model is named by its name alone
    # another test set (another prevalence): its own treat-all curve
    y2, s2 = random_scores(5, 200, decimals=2, pi1=0.3)
    DecisionCurveDisplay.from_predictions(y2, s2, name="C", ax=a.ax_, thresholds=THRESHOLDS)
    labels = [line.get_label() for line in ax.get_lines()]
    assert "C: treat all" in labels and labels.count("treat none") == 1


def test_decision_curve_display_refuses_bad_ranges_and_thresholds(run):
    y, s, _, _ = run
    with pytest.raises(UserError, match="one \\(low, high\\) pair"):
        DecisionCurveDisplay.from_predictions(y, s, average=[0.1, 0.2, 0.3], plot=False)
    with pytest.raises(UserError, match="low < high"):
        DecisionCurveDisplay.from_predictions(y, s, average=(0.3, 0.1), plot=False)
    with pytest.raises(UserError, match="thresholds must be in"):
        DecisionCurveDisplay.from_predictions(y, s, thresholds=[0.5, 1.0], plot=False)
    with pytest.raises(UserError, match="training scores"):
        DecisionCurveDisplay.from_predictions(y, s, methods=["train-optimal"], plot=False)


# -- FROC and F-cost ---------------------------------------------------------------------------


def test_froc_display_holds_froc_points_and_the_f_optimal_points(run):
    y, s, _, _ = run
    costs = [0.0, 0.2, 0.5, 0.8, 1.0]
    disp = FROCDisplay.from_predictions(y, s, cost_proportions=costs, plot=False)
    pd.testing.assert_frame_equal(disp.points, froc_points(y, s))
    n0, n1 = int(np.sum(y == 0)), int(np.sum(y == 1))
    assert disp.bound == n1 / n0
    # F1 counted at every threshold (class 0 positive: predicted iff score <= t)
    f1 = []
    for t in np.unique(s):
        pred = s <= t
        tp, fp, fn = np.sum(pred & (y == 0)), np.sum(pred & (y == 1)), np.sum(~pred & (y == 0))
        f1.append(2 * tp / (2 * tp + fp + fn))
    assert disp.isometrics["F"].item() == pytest.approx(max(f1), abs=1e-12)  # default: best F1
    # at c = 1/2 the F-optimal point has the best F1: 2FQ/(1 - FQ) = 2/F - 2
    half = disp.optimal.set_index("c").loc[0.5]
    assert half.f_cost == pytest.approx(2 / max(f1) - 2, abs=1e-12)
    # the argmin over the points is the library's optimal F-cost (its lower envelope)
    sel = make_selection("test-optimal", FCostLines.from_scores(y, s), gamma=math.inf)
    interior = disp.optimal[(disp.optimal.c > 0) & (disp.optimal.c < 1)]
    np.testing.assert_allclose(interior["f_cost"],
                               expected_f_cost_curve(sel, math.inf, interior["c"]), atol=1e-12)
    on_hull = disp.points.set_index("threshold")["on_hull"]
    assert on_hull[interior["threshold"]].all()


def test_froc_display_records_and_refusals(run):
    y, s, _, _ = run
    disp = FROCDisplay.from_predictions(y, s, f_isometrics=[0.5, 0.8], cost_proportions=[0.3],
                                        plot=False)
    data = disp.data
    hull = data[data.kind == "froc_hull"]
    expected = disp.points[disp.points.on_hull].sort_values("G_x")
    np.testing.assert_array_equal(hull["x"], expected["G_x"])
    np.testing.assert_array_equal(hull["y"], expected["G_y"])
    iso = data[data.kind == "isometric"]
    assert sorted(set(iso["series"])) == ["F=0.5", "F=0.8"]
    np.testing.assert_allclose(iso[iso.series == "F=0.5"]["x"], [0.0, 2.0])  # 2/F - 2
    with pytest.raises(UserError, match="cost proportions"):
        FROCDisplay.from_predictions(y, s, cost_proportions=[1.5], plot=False)
    with pytest.raises(UserError, match="F values in"):
        FROCDisplay.from_predictions(y, s, f_isometrics=[0.0], plot=False)


def test_fcost_display_holds_the_librarys_numbers(run):
    y, s, ty, ts = run
    gammas = [math.inf, 4.0]
    disp = FCostDisplay.from_predictions(y, s, train_y=ty, train_score=ts, gammas=gammas,
                                         plot=False)
    areas = expected_losses(y, s, train_y=ty, train_s=ts, methods=list(disp.DEFAULT_METHODS),
                            gammas=gammas, loss_function="f-measure")
    pd.testing.assert_frame_equal(disp.areas, areas)
    test, train = FCostLines.from_scores(y, s), FCostLines.from_scores(ty, ts)
    for (method, gamma), curve in disp.curves.groupby(["method", "gamma"]):
        sel = make_selection(method, test, train=train, gamma=gamma)
        np.testing.assert_array_equal(curve["loss"],
                                      expected_f_cost_curve(sel, gamma, curve["c"]))
        expected = areas.query("method == @method and gamma == @gamma")["expected_loss"].item()
        if math.isfinite(expected):  # independently: the area under the plotted curve
            area = np.trapezoid(curve["loss"], curve["c"])
            assert area == pytest.approx(expected, abs=3e-5), (method, gamma)
    # the F-cost lines with TP > 0, counted by hand: 2 FP/TP at c = 0, 2 FN/TP at c = 1
    lines = []
    for t in np.concatenate(([-np.inf], np.unique(s))):
        pred = s <= t
        tp, fp, fn = np.sum(pred & (y == 0)), np.sum(pred & (y == 1)), np.sum(~pred & (y == 0))
        if tp:
            lines.append((2 * fp / tp, 2 * fn / tp))
    np.testing.assert_allclose(disp.cost_lines, lines, atol=1e-12)
    assert disp.bound == 2 * np.sum(y == 1) / np.sum(y == 0)


def test_fcost_display_refuses_bootstrap_bands_with_a_one_line_error(run):
    y, s, ty, ts = run
    with pytest.raises(UserError, match="no bootstrap bands: leave n_boot at 0"):
        FCostDisplay.from_predictions(y, s, train_y=ty, train_score=ts, n_boot=5, plot=False)


# -- estimators, rendering, the command --------------------------------------------------------


@pytest.fixture(scope="module")
def model():
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y,
                                                        random_state=0)
    clf = make_pipeline(StandardScaler(), LogisticRegression(C=0.05)).fit(X_train, y_train)
    return clf, X_test, y_test


@pytest.mark.parametrize("cls", [DecisionCurveDisplay, FROCDisplay, FCostDisplay])
def test_from_estimator_equals_from_predictions_with_its_scores(model, cls):
    clf, X_test, y_test = model
    ours = cls.from_estimator(clf, X_test, y_test, plot=False)
    theirs = cls.from_predictions(y_test, clf.predict_proba(X_test)[:, 1], plot=False,
                                  name="LogisticRegression")
    pd.testing.assert_frame_equal(ours.data, theirs.data)
    # pos_label = 0: the scores of class 0, and its labels as 1
    flipped = cls.from_estimator(clf, X_test, y_test, pos_label=0, plot=False)
    direct = cls.from_predictions(1 - y_test, clf.predict_proba(X_test)[:, 0], plot=False,
                                  name="LogisticRegression")
    pd.testing.assert_frame_equal(flipped.data, direct.data)


MAGIC = {"png": b"\x89PNG", "pdf": b"%PDF", "svg": b"<?xml"}


@pytest.mark.parametrize("fmt", ["png", "pdf", "svg"])
def test_context_displays_render_headless(run, tmp_path, fmt):
    y, s, ty, ts = run
    displays = {
        "dc": DecisionCurveDisplay.from_predictions(
            y, s, ax=_axes(), methods=["score-driven"], gammas=[2.0], average=(0.1, 0.4)),
        "froc": FROCDisplay.from_predictions(y, s, ax=_axes(), cost_proportions=[0.3, 0.7]),
        "fcost": FCostDisplay.from_predictions(y, s, train_y=ty, train_score=ts, ax=_axes(),
                                               gammas=[math.inf, 0.0]),
    }
    for key, disp in displays.items():
        paths = save_displays([disp], tmp_path / f"{key}.{fmt}")
        assert paths[fmt].read_bytes()[:5].startswith(MAGIC[fmt]), key
        assert paths[fmt].stat().st_size > 1000
        written = pd.read_csv(paths["csv"], keep_default_na=False, na_values=["NaN"])
        pd.testing.assert_frame_equal(written, disp.data, check_dtype=False, atol=1e-12)


def _write(path, y, s):
    pd.DataFrame({"label": y, "score": s}).to_csv(path, index=False)
    return str(path)


def test_plot_command_draws_decision_curves_of_several_models(run, tmp_path):
    y, s, _, _ = run
    other_s = np.round(np.clip(s * 0.8 + 0.1, 0, 1), 2)
    a, b = _write(tmp_path / "a.csv", y, s), _write(tmp_path / "b.csv", y, other_s)
    out = tmp_path / "dc.svg"
    assert main(["plot", "decision-curve", "--test", a, "--test", b, "--average", "0.05",
                 "0.2", "--method", "score-driven", "--gamma", "2", "--out", str(out)]) == 0
    assert out.stat().st_size > 1000
    data = pd.read_csv(out.with_suffix(".csv"))
    assert set(data["panel"]) == {"a", "b"}
    for panel, scores in (("a", s), ("b", other_s)):
        nb = data[(data.panel == panel) & (data.kind == "net_benefit")]
        curve = decision_curve(y, scores)
        np.testing.assert_allclose(nb["x"], curve["threshold"])
        np.testing.assert_allclose(nb["y"], curve["net_benefit"], atol=1e-12)
        avg = data[(data.panel == panel) & (data.series == "model [0.05, 0.2]")]
        assert avg["y"].iloc[0] == pytest.approx(average_net_benefit(y, scores, 0.05, 0.2),
                                                 abs=1e-12)
        assert set(data[data.panel == panel]["series"]) >= {"score-driven gamma=2"}


def test_plot_command_draws_froc_and_f_cost(run, tmp_path):
    y, s, ty, ts = run
    a, a_train = _write(tmp_path / "a.csv", y, s), _write(tmp_path / "a_tr.csv", ty, ts)
    out = tmp_path / "froc.png"
    assert main(["plot", "froc", "--test", a, "--cost", "0.5", "--f-isometric", "0.6",
                 "--out", str(out)]) == 0
    data = pd.read_csv(out.with_suffix(".csv"))
    points = froc_points(y, s)
    curve = data[data.kind == "froc_point"]
    np.testing.assert_allclose(curve["x"], points["G_x"])
    np.testing.assert_allclose(curve["y"], points["G_y"])
    assert data[data.kind == "isometric"]["series"].tolist() == ["F=0.6", "F=0.6"]
    out2 = tmp_path / "fcost.pdf"
    assert main(["plot", "f-cost", "--test", a, "--train", a_train, "--gamma", "inf",
                 "--gamma", "4", "--out", str(out2)]) == 0
    data2 = pd.read_csv(out2.with_suffix(".csv"))
    got = data2[data2.kind == "expected_loss"].set_index(["series", "x"])["y"].sort_index()
    expected = expected_losses(y, s, train_y=ty, train_s=ts, gammas=[math.inf, 4.0],
                               methods=list(FCostDisplay.DEFAULT_METHODS),
                               loss_function="f-measure")
    expected = expected.set_index(["method", "gamma"])["expected_loss"].sort_index()
    np.testing.assert_allclose(got.to_numpy(), expected.to_numpy())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["froc", "--gamma", "2"], "--gamma applies to plot kind(s)"),
        (["decision-curve", "--bootstrap", "10"], "--bootstrap applies to"),
        (["cost-curves", "--average", "0.1", "0.2"], "--average applies to plot kind(s) "
         "decision-curve, not cost-curves"),
        (["certainty", "--cost", "0.3"], "--cost applies to plot kind(s) froc"),
        (["decision-curve", "--average", "0.3", "0.1"], "low < high"),
        (["decision-curve", "--method", "train-optimal"], "give them"),
    ],
)
def test_plot_command_refuses_options_of_other_kinds(run, tmp_path, capsys, argv, message):
    y, s, _, _ = run
    a = _write(tmp_path / "a.csv", y, s)
    assert main(["plot", *argv, "--test", a, "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
