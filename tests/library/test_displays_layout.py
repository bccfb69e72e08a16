"""The geometry of the drawn Displays on a caller's axes and on their own figure: the axes keep
their room (an outside legend once shrank them to a sliver), the caller's layout engine is left
as it is, the labels and the title lie inside the figure, and ``plot(legend=...)`` puts the
legend where it says."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from tests.library.displays import DISPLAYS, _close_figures  # noqa: F401
from threshold_choice import ThresholdChoiceClassifier
from threshold_choice.errors import UserError
from threshold_choice.plotting import (
    CertaintyDisplay,
    CostCurveDisplay,
    DecisionCurveDisplay,
    FROCDisplay,
    LogOddsRegretDisplay,
    ROCDisplay,
)

FAST = {CertaintyDisplay: {"gammas": [math.inf, 1.0, 0.0], "refine": 1}}
#: the share of its width a caller's axes keeps once a Display is drawn on it (the outside
#: legend left about a tenth)
KEPT = 0.7


@pytest.fixture(scope="module")
def fitted():
    X, y = make_classification(n_samples=400, n_features=5, class_sep=1.2, random_state=3)
    names = np.array(["benign", "malignant"])[y]
    X_train, X_test, y_train, y_test = train_test_split(X, names, test_size=0.5,
                                                        random_state=0, stratify=names)
    clf = ThresholdChoiceClassifier(LogisticRegression(), pos_label="malignant", cv=None)
    return clf.fit(X_train, y_train), X_test, y_test


def _widths(fig, axes):
    fig.canvas.draw()
    return [ax.get_window_extent().width for ax in axes]


def _inside(box, outer, slack=1.0):
    return (box.x0 >= outer.x0 - slack and box.x1 <= outer.x1 + slack
            and box.y0 >= outer.y0 - slack and box.y1 <= outer.y1 + slack)


@pytest.mark.parametrize("layout", [None, "constrained"])
def test_two_displays_side_by_side_keep_their_axes_and_the_callers_layout(layout, fitted):
    clf, X, y = fitted
    fig, axs = plt.subplots(1, 2, figsize=(10, 4), layout=layout)
    engine = fig.get_layout_engine()
    before = _widths(fig, axs)
    height = axs[1].get_window_extent().height
    CostCurveDisplay.from_estimator(clf, X, y, plot=False).plot(ax=axs[0])
    ROCDisplay.from_estimator(clf, X, y, ax=axs[1], cost_proportions=[0.2])
    after = _widths(fig, axs)
    assert fig.get_layout_engine() is engine  # not switched to another engine
    assert after[0] >= KEPT * before[0]
    # ROC space is square: the largest square of the axes' room
    assert after[1] >= KEPT * min(before[1], height)
    for ax in axs:
        assert _inside(ax.title.get_window_extent(), fig.bbox)


@pytest.mark.parametrize("layout", [None, "constrained"])
@pytest.mark.parametrize("cls", DISPLAYS)
def test_a_display_in_a_grid_of_4_by_3_keeps_its_axes(cls, layout, fitted):
    clf, X, y = fitted
    fig, axs = plt.subplots(4, 3, figsize=(12, 12), layout=layout)
    before = _widths(fig, axs.ravel())
    cls.from_estimator(clf, X, y, ax=axs[1, 1], **FAST.get(cls, {}))
    after = _widths(fig, axs.ravel())
    assert after[4] >= KEPT * before[4]
    assert min(after) >= KEPT * min(before)  # nor the others
    assert fig.get_layout_engine() is None or layout == "constrained"
    assert _inside(axs[1, 1].xaxis.label.get_window_extent(), fig.bbox)


def test_a_small_axes_of_the_callers_gets_its_legend_inside_and_keeps_its_width(fitted):
    clf, X, y = fitted
    fig, ax = plt.subplots(figsize=(4, 3))
    (before,) = _widths(fig, [ax])
    display = CostCurveDisplay.from_estimator(clf, X, y, ax=ax)
    (after,) = _widths(fig, [ax])
    assert after == pytest.approx(before)
    assert fig.get_layout_engine() is None
    assert _inside(display.ax_.get_legend().get_window_extent(), ax.get_window_extent(), 2)


OWN_FIGURE_CASES = [
    (cls, FAST.get(cls, {})) for cls in DISPLAYS
] + [
    (DecisionCurveDisplay, {"methods": ["score-driven", "rate-driven"],
                            "gammas": [math.inf, 4.0, 1.0, 0.0]}),
    (DecisionCurveDisplay, {"methods": ["score-driven"], "gammas": [math.inf, 1.0],
                            "scale": "log", "average": (0.05, 0.3)}),
    (DecisionCurveDisplay, {"scale": "quadratic", "average": (0.1, 0.4)}),
    (LogOddsRegretDisplay, {"cost_range": (0.05, 0.5)}),
]


@pytest.mark.parametrize(("cls", "options"), OWN_FIGURE_CASES)
def test_the_labels_title_and_legend_lie_inside_the_displays_own_figure(cls, options, fitted):
    clf, X, y = fitted
    display = cls.from_estimator(clf, X, y, **options)
    fig = display.figure_
    fig.canvas.draw()
    for text in (display.ax_.xaxis.label, display.ax_.yaxis.label, display.ax_.title):
        assert _inside(text.get_window_extent(), fig.bbox), text.get_text()
    assert _inside(display.ax_.get_legend().get_window_extent(), fig.bbox)


@pytest.mark.parametrize("cls", [DecisionCurveDisplay, LogOddsRegretDisplay, FROCDisplay])
def test_the_labels_lie_inside_a_callers_figure_with_a_layout_engine(cls, fitted):
    clf, X, y = fitted
    fig, axs = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
    for ax in axs:
        cls.from_estimator(clf, X, y, ax=ax)
    fig.canvas.draw()
    for ax in axs:
        for text in (ax.xaxis.label, ax.yaxis.label):
            assert _inside(text.get_window_extent(), fig.bbox), text.get_text()


@pytest.mark.parametrize("legend", ["outside", "inside", "lower right", None])
def test_the_legend_goes_where_plot_is_told(legend, fitted):
    clf, X, y = fitted
    fig, ax = plt.subplots(figsize=(9, 4), layout="constrained")
    display = ROCDisplay.from_estimator(clf, X, y, ax=ax, plot_kwargs={"legend": legend})
    fig.canvas.draw()
    box = ax.get_window_extent()
    if legend is None:
        assert ax.get_legend() is None
        return
    drawn = ax.get_legend().get_window_extent()
    if legend == "outside":
        assert drawn.x0 >= box.x1
    else:
        assert box.x0 <= drawn.x0 and drawn.x1 <= box.x1 + 2
    if legend == "lower right":
        assert drawn.y0 - box.y0 < box.y1 - drawn.y1  # nearer the bottom
    assert display.ax_ is ax


def test_auto_puts_the_legend_outside_on_a_roomy_figure_with_a_layout_engine(fitted):
    clf, X, y = fitted
    fig = Figure(figsize=(8.5, 5.2), layout="constrained")  # the CLI's figure
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    CostCurveDisplay.from_estimator(clf, X, y, ax=ax)
    fig.canvas.draw()
    assert ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1
    assert _inside(ax.get_legend().get_window_extent(), fig.bbox)


def test_an_unknown_legend_place_is_refused_naming_the_choices():
    with pytest.raises(UserError, match="legend must be one of auto, outside, inside"):
        ROCDisplay.from_predictions([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.6],
                                    plot_kwargs={"legend": "beside"})
