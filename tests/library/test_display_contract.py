"""The contract every Display keeps (as scikit-learn's common curve-display tests), and checks
on the drawn figures that fail on the defects users saw: no title, legends over the data,
handles too short to tell dashed from solid, two models in the same colours or two cost-line
fans, the belief not drawn, a good model's FROC points in a corner, "inf" for drawn curves,
anonymous switch labels. A caller's figure left as it is, labels other than 0/1
refused."""

from __future__ import annotations

import inspect
import io
import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgba
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from tests.conftest import random_scores
from tests.library.displays import DISPLAYS, _close_figures  # noqa: F401
from threshold_choice import LossSettings, ThresholdChoiceClassifier
from threshold_choice.errors import UserError
from threshold_choice.plotting import (
    CertaintyDisplay,
    CostCurveDisplay,
    DecisionCurveDisplay,
    FCostDisplay,
    FROCDisplay,
)
from threshold_choice.plotting._base import HANDLE_LENGTH
from threshold_choice.plotting._common import DATA_COLUMNS

# few gammas keep the certainty display quick
FAST = {CertaintyDisplay: {"gammas": [math.inf, 4.0, 1.0, 0.0]}}


@pytest.fixture(scope="module")
def fitted():
    X, y = make_classification(n_samples=600, n_features=6, class_sep=1.5, weights=[0.6],
                               random_state=0)
    names = np.array(["no", "yes"])[y]
    X_train, X_test, y_train, y_test = train_test_split(X, names, test_size=0.5,
                                                        random_state=0, stratify=names)
    clf = ThresholdChoiceClassifier(LogisticRegression(), pos_label="yes", cv=None)
    return clf.fit(X_train, y_train), X_test, y_test


def _drawn(fig):
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def _legend_entries(ax):
    legend = ax.get_legend()
    return legend, [t.get_text() for t in legend.get_texts()]


# -- the contract ------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", DISPLAYS)
def test_every_display_computes_first_plots_second_and_keeps_its_numbers(cls):
    y, s = random_scores(1, 150)
    ty, ts = random_scores(2, 120)
    display = cls.from_predictions(y, s, train_y=ty, train_score=ts, name="m", plot=False,
                                   **FAST.get(cls, {}))
    assert display.ax_ is None and display.figure_ is None
    assert display.plot() is display
    assert display.ax_ is not None and display.figure_ is display.ax_.figure
    frame = display.data
    assert list(frame.columns) == list(DATA_COLUMNS) and len(frame) > 0
    assert set(frame["panel"]) == {"m"}


@pytest.mark.parametrize("cls", DISPLAYS)
def test_every_display_has_a_title_naming_its_model_and_can_go_without(cls, fitted):
    clf, X, y = fitted
    display = cls.from_estimator(clf, X, y, **FAST.get(cls, {}))
    title = display.ax_.get_title()
    assert title.startswith(cls.TITLE) and title.endswith("LogisticRegression")
    again = cls.from_estimator(clf, X, y, plot=False, **FAST.get(cls, {}))
    assert again.plot(title="").ax_.get_title() == ""


@pytest.mark.parametrize("cls", DISPLAYS)
def test_every_legend_lies_outside_the_axes_with_long_handles(cls, fitted):
    clf, X, y = fitted
    display = cls.from_estimator(clf, X, y, **FAST.get(cls, {}))
    renderer = _drawn(display.figure_)
    legend = display.ax_.get_legend()
    box, axes = legend.get_window_extent(renderer), display.ax_.get_window_extent(renderer)
    assert box.x0 >= axes.x1, "the legend overlaps the axes (and so the data)"
    figure_box = display.figure_.bbox
    assert box.x1 <= figure_box.x1 + 1, "the legend is cut off at the figure's edge"
    assert legend.handlelength >= HANDLE_LENGTH >= 3


@pytest.mark.parametrize("cls", DISPLAYS)
def test_a_display_on_axes_of_ones_own_keeps_its_legend_inside_the_figure(cls, fitted):
    clf, X, y = fitted
    fig, ax = plt.subplots()  # no layout engine: the legend goes inside the axes
    display = cls.from_estimator(clf, X, y, ax=ax, **FAST.get(cls, {}))
    renderer = _drawn(fig)
    box = display.ax_.get_legend().get_window_extent(renderer)
    assert box.x1 <= fig.bbox.x1 + 1


@pytest.mark.parametrize("cls", [CostCurveDisplay, CertaintyDisplay, DecisionCurveDisplay])
def test_the_positive_class_is_the_classifiers_own(cls, fitted):
    clf, X, y = fitted
    display = cls.from_estimator(clf, X, y, plot=False, **FAST.get(cls, {}))
    assert display.event == "yes"
    with pytest.raises(Exception, match="pos_label"):
        cls.from_estimator(clf, X, y, pos_label="no", plot=False, **FAST.get(cls, {}))


# -- the drawings ------------------------------------------------------------------------------


def test_dashed_and_solid_curves_differ_in_their_legend_handles(fitted):
    clf, X, y = fitted
    display = CostCurveDisplay.from_estimator(clf, X, y, methods=["score-driven"],
                                              gammas=[math.inf, 0.0])
    legend, texts = _legend_entries(display.ax_)
    handles = dict(zip(texts, legend.legend_handles, strict=True))
    solid = next(h for t, h in handles.items() if "\u03b3=\u221e" in t)
    dashed = next(h for t, h in handles.items() if "\u03b3=0" in t)
    assert solid.get_linestyle() != dashed.get_linestyle()


def _curve_colours(display, prefix):
    return {to_rgba(line.get_color()) for line in display.ax_.get_lines()
            if str(line.get_label()).startswith(prefix)}


@pytest.mark.parametrize("cls", [CostCurveDisplay, CertaintyDisplay, FCostDisplay])
def test_a_second_model_on_the_same_axes_gets_colours_of_its_own_and_no_second_fan(cls):
    y, s = random_scores(3, 200)
    ty, ts = random_scores(4, 200)
    first = cls.from_predictions(y, s, train_y=ty, train_score=ts, name="A",
                                 **FAST.get(cls, {}))
    cls.from_predictions(y, np.clip(s + 0.1, 0, 1), train_y=ty, train_score=ts, name="B",
                         ax=first.ax_, **FAST.get(cls, {}))
    assert _curve_colours(first, "A").isdisjoint(_curve_colours(first, "B"))
    fans = [c for c in first.ax_.collections if isinstance(c, LineCollection)]
    assert len(fans) <= 1
    assert first.ax_.get_title() == cls.TITLE  # the models are named in the legend


def test_the_y_range_is_set_by_the_curves_not_by_the_cost_lines():
    y, s = random_scores(5, 300)
    display = CostCurveDisplay.from_predictions(y, s, methods=["test-optimal"],
                                                gammas=[math.inf])
    top = display.curves["loss"].max()
    assert display.cost_lines.max() > 2 * top  # the lines reach far higher
    low, high = display.ax_.get_ylim()
    assert low == 0 and top <= high <= 1.2 * top


def test_the_cost_lines_are_a_light_background():
    y, s = random_scores(6, 400, decimals=3)
    display = CostCurveDisplay.from_predictions(y, s)
    fan = next(c for c in display.ax_.collections if isinstance(c, LineCollection))
    assert fan.get_alpha() <= 0.2 and fan.get_zorder() < 2
    assert max(fan.get_linewidths()) <= 0.6


@pytest.mark.parametrize("cls", [CostCurveDisplay, FCostDisplay])
def test_a_belief_other_than_uniform_is_drawn_and_named_in_the_legend(cls):
    y, s = random_scores(7, 200)
    ty, ts = random_scores(8, 200)
    kw = {"train_y": ty, "train_score": ts, "methods": ["score-driven"],
          "gammas": [math.inf]}
    if cls is CostCurveDisplay:
        shown = cls.from_predictions(y, s, cost_distribution="beta:8,2", **kw)
        _, texts = _legend_entries(shown.ax_)
        assert any("belief w = beta:8,2" in t for t in texts)
        assert "weighted by w" in shown.ax_.get_legend().get_title().get_text()
    plain = cls.from_predictions(y, s, **kw)
    _, texts = _legend_entries(plain.ax_)
    assert not any("belief" in t for t in texts)


def test_an_infinite_f_cost_area_says_why_in_the_legend():
    y, s = random_scores(9, 200)
    display = FCostDisplay.from_predictions(y, s, methods=["rate-driven", "test-optimal"])
    areas = display.areas.set_index("method")["expected_loss"]
    assert math.isinf(areas["rate-driven"]) and math.isfinite(areas["test-optimal"])
    _, texts = _legend_entries(display.ax_)
    rate = next(t for t in texts if t.startswith("rate-driven"))
    assert "infinite part not drawn" in rate and not rate.endswith("inf")
    optimal = next(t for t in texts if t.startswith("test-optimal"))
    assert "infinite" not in optimal


def test_froc_zooms_on_a_good_models_points_and_marks_each_cost_apart(fitted):
    clf, X, y = fitted
    display = FROCDisplay.from_estimator(clf, X, y, cost_proportions=[0.2, 0.5, 0.8])
    hull = display.points[display.points["on_hull"]]
    limit = display.ax_.get_xlim()[1]
    inside = hull[(hull["G_x"] <= limit) & (hull["G_y"] <= limit)]
    assert len(inside) >= 2
    # the points that matter span a real part of the axes, not its bottom-left 5%
    assert max(inside["G_x"].max(), inside["G_y"].max()) > 0.25 * limit
    for row in display.optimal.itertuples():
        assert row.G_x <= limit and row.G_y <= limit
    stars = [line for line in display.ax_.get_lines()
             if "F-optimal" in str(line.get_label())]
    assert len({line.get_marker() for line in stars}) == 3
    assert len({to_rgba(line.get_color()) for line in stars}) == 3
    full = FROCDisplay.from_estimator(clf, X, y, plot=False).plot(zoom=False)
    assert full.ax_.get_xlim()[1] == pytest.approx(1.05 * full.bound)


def test_certainty_switches_are_named_in_the_legend_not_written_across_the_curves():
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0,
                                                        stratify=y)
    model = make_pipeline(StandardScaler(), LogisticRegression())
    clf = ThresholdChoiceClassifier(model, cv=None).fit(X_train, y_train)
    display = CertaintyDisplay.from_estimator(clf, X_test, y_test, name="logreg")
    assert len(display.switches) >= 1
    assert not display.ax_.texts  # no note on the plot, where it crossed the curves
    _, texts = _legend_entries(display.ax_)
    for row in display.switches.itertuples():
        assert any(f"{row.before} \u2192 {row.after}" in t for t in texts)
    other = CertaintyDisplay.from_estimator(clf, X_test, y_test, name="other",
                                            ax=display.ax_)
    _, texts = _legend_entries(other.ax_)  # two models: each switch says whose it is
    assert sum(t.startswith("logreg: best changes") for t in texts) == len(display.switches)


def test_the_decision_curve_names_the_event_and_the_model(fitted):
    clf, X, y = fitted
    display = DecisionCurveDisplay.from_estimator(clf, X, y, name="logreg")
    _, texts = _legend_entries(display.ax_)
    assert "logreg" in texts and "logreg: model" not in texts
    assert "P('yes')" in display.ax_.get_xlabel()


@pytest.mark.parametrize("cls", DISPLAYS)
def test_every_display_renders_to_a_png(cls, fitted):
    clf, X, y = fitted
    display = cls.from_estimator(clf, X, y, **FAST.get(cls, {}))
    buffer = io.BytesIO()
    display.figure_.savefig(buffer, format="png", dpi=60)
    image = plt.imread(io.BytesIO(buffer.getvalue()))
    assert image.shape[0] > 100 and image.shape[1] > 100
    assert image[..., :3].std() > 0.05  # something is drawn


@pytest.mark.parametrize("cls", DISPLAYS)
def test_the_from_methods_list_each_displays_own_options(cls):
    for name in ("from_predictions", "from_estimator"):
        parameters = inspect.signature(getattr(cls, name)).parameters
        own = [p for p in inspect.signature(cls._compute).parameters.values()
               if p.kind == p.KEYWORD_ONLY]
        assert own and all(parameters[p.name].default == p.default for p in own)
        assert "kwargs" not in parameters
    froc = inspect.signature(FROCDisplay.from_predictions).parameters
    assert "costs" in froc and "methods" not in froc


@pytest.mark.parametrize("cls", [CostCurveDisplay, CertaintyDisplay, DecisionCurveDisplay])
def test_settings_may_be_a_mapping_of_their_fields(cls):
    y, s = random_scores(12, 120)
    ty, ts = random_scores(13, 120)
    kw = {"train_y": ty, "train_score": ts, "plot": False, **FAST.get(cls, {})}
    if cls is DecisionCurveDisplay:
        kw["methods"] = ["score-driven-aware"]
        kw["gammas"] = [2.0]
    by_mapping = cls.from_predictions(y, s, settings={"cost_distribution": "beta:2,2"}, **kw)
    by_object = cls.from_predictions(y, s, settings=LossSettings(cost_distribution="beta:2,2"),
                                     **kw)
    assert by_mapping.data.equals(by_object.data)


def test_a_curve_far_above_the_others_runs_off_the_top_saying_so(fitted):
    clf, X, y = fitted
    display = CostCurveDisplay.from_estimator(clf, X, y)  # the paper's four at inf and 0
    peaks = display.curves.groupby(["method", "gamma"], sort=False)["loss"].max()
    limit = 3 * peaks.median()
    high = peaks[peaks > limit]
    assert len(high) >= 1  # rate-driven at gamma = 0, far above the others
    _, texts = _legend_entries(display.ax_)
    marked = [t for t in texts if t.endswith("(runs off the top)")]
    assert len(marked) == len(high)
    top = display.ax_.get_ylim()[1]
    assert peaks[peaks <= limit].max() <= top < high.min()
    whole = CostCurveDisplay.from_estimator(clf, X, y, plot=False).plot(focus=False)
    assert whole.ax_.get_ylim()[1] >= peaks.max()


@pytest.mark.parametrize("kind", ["cost-curves", "brier", "certainty", "decision-curve", "froc",
                                  "f-cost", "roc"])
def test_every_plot_kind_writes_a_titled_figure_and_the_displays_numbers(kind, tmp_path,
                                                                        capsys):
    from threshold_choice.cli import main
    from threshold_choice.cli.plot import display_class

    y, s = random_scores(14, 120)
    ty, ts = random_scores(15, 120)
    test, train = tmp_path / "test.csv", tmp_path / "train.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(test, index=False)
    pd.DataFrame({"label": ty, "score": ts}).to_csv(train, index=False)
    out = tmp_path / f"{kind}.png"
    args = ["plot", kind, "--test", str(test), "--out", str(out)]
    if kind not in ("froc", "roc", "brier"):  # the others refuse --train, which they ignore
        args += ["--train", str(train)]
    if kind == "certainty":
        args += ["--gamma", "inf", "--gamma", "1", "--gamma", "0"]
    assert main(args) == 0, capsys.readouterr().err
    image = plt.imread(out)
    assert image.shape[1] > 600 and image[..., :3].std() > 0.05
    written = pd.read_csv(out.with_suffix(".csv"))
    cls = display_class(kind)
    options = FAST.get(cls, {})
    if kind == "certainty":
        options = {"gammas": [math.inf, 1.0, 0.0]}
    unused = kind in ("froc", "roc", "brier")  # no training scores
    direct = cls.from_predictions(y, s, train_y=None if unused else ty,
                                          train_score=None if unused else ts,
                                          name="test", plot=False, **options)
    assert len(written) == len(direct.data)
    assert set(written["kind"]) == set(direct.data["kind"])


# -- a caller's figure, labels ------------------------------------------------------------------


def test_a_renamed_display_on_a_callers_figure_leaves_its_layout_engine_alone():
    fig, ax = plt.subplots()  # no layout engine: the caller's choice, as for scikit-learn
    y, s = random_scores(3, 100)
    display = CostCurveDisplay.from_predictions(y, s, plot=False)
    display.plot(ax=ax, name="renamed")
    assert fig.get_layout_engine() is None
    assert ax.get_title().endswith("renamed")
    plt.close(fig)


@pytest.mark.parametrize("labels", [[0, 1, 0.5, 1], ["a", "b", "a", "b"]])
def test_displays_refuse_labels_that_are_not_0_or_1(labels):
    with pytest.raises(UserError, match="label"):
        CostCurveDisplay.from_predictions(labels, [0.1, 0.4, 0.6, 0.9], plot=False)
