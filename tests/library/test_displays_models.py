"""Figures with several models fit for a paper, checked on the drawn geometry: one encoding
(colour = model, line style = method, shade = certainty), legends that cover no data on the
Display's own figure and on a caller's 1 x 2 and 2 x 2 axes, every marker inside the axes, the
certainty switches off the spines, readable numbers, square ROC axes naming the user's
classes, the "runs off the top" note following the axes, ``costs=`` a ``Costs`` and misspelled
options refused."""

from __future__ import annotations

import math
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgb
from matplotlib.legend import Legend
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from tests.conftest import random_scores
from tests.library.displays import DISPLAYS, _close_figures  # noqa: F401
from threshold_choice import Costs
from threshold_choice.errors import UserError
from threshold_choice.plotting import (
    CertaintyDisplay,
    CostCurveDisplay,
    DecisionCurveDisplay,
    FCostDisplay,
    FROCDisplay,
    LogOddsRegretDisplay,
    ROCDisplay,
)
from threshold_choice.plotting._base import MODEL_COLOURS, number_text

OPTIONS = {
    CertaintyDisplay: {"gammas": [math.inf, 100.0, 10.0, 1.0, 0.0], "refine": 1},
    DecisionCurveDisplay: {"methods": ["score-driven", "rate-driven"],
                           "gammas": [math.inf, 1.0]},
    FROCDisplay: {"cost_proportions": [0.3, 0.7]},
    ROCDisplay: {"cost_proportions": [0.2]},
}
OFF_TOP = " (runs off the top)"


@pytest.fixture(scope="module")
def models():
    """Three models of the breast cancer data (bundled with scikit-learn), 'malignant'
    the positive class, as the gallery's example."""
    X, y = load_breast_cancer(return_X_y=True)
    y = np.array(["malignant", "benign"])[y]
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0,
                                                        stratify=y)
    fitted = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
        "HGB": HistGradientBoostingClassifier(max_iter=50, random_state=0),
        "RF isotonic": CalibratedClassifierCV(
            RandomForestClassifier(n_estimators=50, random_state=0), method="isotonic"),
    }
    for model in fitted.values():
        model.fit(X_train, y_train)
    return fitted, (X_train, y_train, X_test, y_test)


@pytest.fixture(scope="module")
def computed(models):
    """Each Display of each model, computed once (``plot=False``), drawn by the tests."""
    fitted, (X_train, y_train, X_test, y_test) = models
    return {cls: [cls.from_estimator(model, X_test, y_test, X_train=X_train, y_train=y_train,
                                     pos_label="malignant", name=name, plot=False,
                                     **OPTIONS.get(cls, {}))
                  for name, model in fitted.items()]
            for cls in DISPLAYS}


def _draw(displays, ax=None):
    first = displays[0].plot(ax=ax)
    for display in displays[1:]:
        display.plot(ax=first.ax_)
    return first.ax_


def _samples(artist):
    """Points along ``artist`` in display space, at most a pixel apart on each segment (a
    legend over a long straight segment covers no vertex of it)."""
    transform = artist.get_transform()
    if hasattr(artist, "get_paths"):  # shaded areas: their outlines
        paths = [transform.transform_path(p) for p in artist.get_paths()]
    else:
        paths = [transform.transform_path(artist.get_path())]
    out = []
    for path in paths:
        v = path.vertices
        drawn = not hasattr(artist, "get_linestyle") or artist.get_linestyle() not in (
            "None", "none", "", " ")
        if len(v) < 2 or not drawn:
            out.append(v)
            continue
        a, b = v[:-1], v[1:]
        ok = np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1)
        a, b = a[ok], b[ok]
        steps = np.clip(np.ceil(np.hypot(*(b - a).T)).astype(int), 1, 2000)
        t = np.concatenate([np.linspace(0, 1, n + 1) for n in steps])
        start = np.repeat(a, steps + 1, axis=0)
        end = np.repeat(b, steps + 1, axis=0)
        out.append(start + (end - start) * t[:, None])
    return np.concatenate(out) if out else np.empty((0, 2))


def _data_artists(ax):
    """The plotted data: lines and shaded areas, but not the cost lines' fan (context drawn
    light, under everything), the ROC's chance diagonal (a reference) and not a curve marked
    as running off the top, which a legend in the band above the others may cross."""
    from matplotlib.collections import LineCollection

    return [a for a in [*ax.get_lines(), *ax.collections]
            if a.get_visible() and not isinstance(a, LineCollection)
            and not str(a.get_label()).endswith(OFF_TOP)
            and a.get_gid() != "threshold-choice-chance"]  # ROC's diagonal: a reference


def _legends(ax):
    return [c for c in ax.get_children() if isinstance(c, Legend)]


def check_legends_cover_no_data(ax):
    ax.figure.canvas.draw()
    legends = _legends(ax)
    assert legends
    boxes = [legend.get_window_extent() for legend in legends]
    for k, box in enumerate(boxes):
        for other in boxes[k + 1:]:
            assert not box.overlaps(other)
        inner = box.shrunk(0.99, 0.99)
        for artist in _data_artists(ax):
            points = _samples(artist)
            clip = ax.get_window_extent()  # what is drawn: inside the axes
            points = points[(points[:, 0] >= clip.x0) & (points[:, 0] <= clip.x1)
                            & (points[:, 1] >= clip.y0) & (points[:, 1] <= clip.y1)]
            hit = ((points[:, 0] > inner.x0) & (points[:, 0] < inner.x1)
                   & (points[:, 1] > inner.y0) & (points[:, 1] < inner.y1))
            assert not hit.any(), f"the legend covers {artist.get_label()!r}"


def check_markers_inside(ax):
    ax.figure.canvas.draw()
    box = ax.get_window_extent()
    for line in ax.get_lines():  # a clipped marker is not drawn outside
        if line.get_marker() in (None, "None", "none", "", " ") or line.get_clip_on():
            continue
        xy = line.get_transform().transform(line.get_xydata())
        assert ((xy[:, 0] >= box.x0 - 0.5) & (xy[:, 0] <= box.x1 + 0.5)
                & (xy[:, 1] >= box.y0 - 0.5) & (xy[:, 1] <= box.y1 + 0.5)).all(), (
            f"a marker of {line.get_label()!r} lies outside the axes")


# -- one encoding ------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [CostCurveDisplay, FCostDisplay, DecisionCurveDisplay,
                                 CertaintyDisplay])
def test_several_models_are_told_apart_by_colour_methods_by_line_style(cls, computed):
    ax = _draw(computed[cls])
    for k, display in enumerate(computed[cls]):
        curves = [line for line in ax.get_lines()
                  if getattr(line, "_threshold_choice_key", (None,) * 5)[0] is display
                  and line._threshold_choice_key[1] is not None]
        assert curves
        model = to_rgb(MODEL_COLOURS[k])
        certain = [line for line in curves
                   if line._threshold_choice_key[2] in (None, math.inf)]
        # the model's colour at gamma = inf, the first model's too (drawn again)
        assert all(to_rgb(line.get_color()) == pytest.approx(model) for line in certain)
        styles = {line._threshold_choice_key[1]: str(line.get_linestyle()) for line in certain}
        assert len(set(styles.values())) == len(styles)  # one line style per method
        if k:
            assert styles == first_styles  # noqa: F821 - the same method, the same style
        first_styles = styles  # noqa: F841
        for line in curves:  # less certain, lighter: the same hue mixed towards white
            gamma = line._threshold_choice_key[2]
            if gamma is not None and not math.isinf(gamma):
                assert sum(to_rgb(line.get_color())) > sum(model)


def test_the_legend_of_several_models_is_grouped_not_one_entry_per_curve(computed):
    displays = computed[FCostDisplay]
    ax = _draw(displays)
    texts = [t.get_text() for legend in _legends(ax) for t in legend.get_texts()]
    curves = sum(len(d.areas) for d in displays)
    assert len(texts) < curves  # 3 models x 4 methods: 12 curves
    for display in displays:
        assert display.name in texts
    for method in displays[0].areas["method"].unique():
        assert method in texts


def test_a_single_model_keeps_the_papers_method_colours(computed):
    display = computed[CostCurveDisplay][0]
    ax = _draw([display])
    colours = {line._threshold_choice_key[1]: to_rgb(line.get_color())
               for line in ax.get_lines()
               if getattr(line, "_threshold_choice_key", (None,) * 5)[1] is not None
               and math.isinf(line._threshold_choice_key[2])}
    assert colours["test-optimal"] == to_rgb("tab:green")
    assert colours["score-driven"] == to_rgb("tab:red")


# -- legends over no data, markers inside ---------------------------------------------------------


@pytest.mark.parametrize("cls", DISPLAYS)
def test_the_legend_of_three_models_covers_no_data_on_their_own_figure(cls, computed):
    ax = _draw(computed[cls])
    check_legends_cover_no_data(ax)
    check_markers_inside(ax)


@pytest.mark.parametrize("n_models", [1, 3])
@pytest.mark.parametrize("cls", DISPLAYS)
def test_the_legend_covers_no_data_on_a_callers_1_by_2_axes(cls, n_models, computed):
    fig, axs = plt.subplots(1, 2, figsize=(10, 4))
    for ax in axs:
        _draw(computed[cls][:n_models], ax)
    for ax in axs:
        check_legends_cover_no_data(ax)
        check_markers_inside(ax)
    assert fig.get_layout_engine() is None  # the caller's figure left as it is


@pytest.mark.parametrize("layout", [None, "constrained"])
@pytest.mark.parametrize("cls", DISPLAYS)
def test_the_legend_of_three_models_covers_no_data_in_a_2_by_2_grid(cls, layout, computed):
    _fig, axs = plt.subplots(2, 2, figsize=(10, 8), layout=layout)
    for ax in (axs[0, 0], axs[1, 1]):
        _draw(computed[cls], ax)
    for ax in (axs[0, 0], axs[1, 1]):
        check_legends_cover_no_data(ax)
        check_markers_inside(ax)


def test_f_optimal_points_beyond_the_all_positive_bound_are_inside_the_axes():
    # class 0 the majority: the bound n1/n0 is small, and at a low cost the F-optimal point
    # has G_x = FN/TP far past it
    y, s = random_scores(41, 300, pi1=0.25)
    display = FROCDisplay.from_predictions(y, s, cost_proportions=[0.02, 0.5, 0.98])
    assert display.optimal["G_x"].max() > 1.05 * display.bound  # the case of the issue
    check_markers_inside(display.ax_)
    _fig, axs = plt.subplots(2, 2, figsize=(8, 8))
    FROCDisplay.from_predictions(y, s, cost_proportions=[0.02, 0.5], ax=axs[1, 0])
    check_markers_inside(axs[1, 0])


def test_a_switch_of_the_best_method_at_a_large_certainty_is_off_the_spine():
    gammas = [math.inf, 1000.0, 100.0, 1.0, 0.0]
    low, high = "score-driven", "rate-driven"
    losses = pd.DataFrame([(m, g, v + (0.01 if m == low else 0.0) * (g < 475))
                           for m in (low, high) for g, v in zip(gammas, [0.1, 0.11, 0.12, 0.2,
                                                                         0.3], strict=True)],
                          columns=["method", "gamma", "expected_loss"])
    switches = pd.DataFrame([(475.0, low, high, 0.115)],
                            columns=["gamma", "before", "after", "expected_loss"])
    display = CertaintyDisplay(losses=losses, switches=switches, name="m").plot()
    ax = display.ax_
    ax.figure.canvas.draw()
    (switch,) = [line for line in ax.get_lines() if "best changes" in str(line.get_label())]
    x = switch.get_transform().transform(switch.get_xydata())[0, 0]
    box = ax.get_window_extent()
    assert x - box.x0 >= 5  # pixels from the left spine
    assert switch.get_zorder() > max(line.get_zorder() for line in ax.get_lines()
                                     if line is not switch)


def test_switch_lines_of_several_models_share_no_line_style_with_a_method():
    # with several models a method is a line style: a switch drawn dotted read as rate-driven
    from sklearn.naive_bayes import GaussianNB

    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0, stratify=y)
    _, ax = plt.subplots()
    for clf in (GaussianNB(), LogisticRegression(max_iter=5000)):
        CertaintyDisplay.from_estimator(clf.fit(X_train, y_train), X_test, y_test,
                                        X_train=X_train, y_train=y_train, pos_label=0, ax=ax)
    switches = [line for line in ax.get_lines() if "best changes" in str(line.get_label())]
    methods = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert len(switches) == 2 and len(methods) == 6  # one switch per model here
    method_dashes = {(line.get_linestyle(), str(line._unscaled_dash_pattern))
                     for line in methods}
    for switch in switches:
        assert (switch.get_linestyle(), str(switch._unscaled_dash_pattern)) not in method_dashes
        assert switch.get_marker() == "v"  # a triangle at its top, in the legend too


# -- numbers and names -------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "text"), [(0.2, "0.2"), (0.05, "0.05"), (1 / 6, "1/6"),
                                             (1 / 11, "1/11"), (0.123456, "0.123"),
                                             (0.25, "0.25")])
def test_numbers_print_short_as_fractions_where_exact(value, text):
    assert number_text(value) == text


def test_legends_print_cost_proportions_of_cost_ratios_as_fractions():
    y, s = random_scores(42, 200)
    roc = ROCDisplay.from_predictions(y, s, cost_proportions=[1 / 6])
    labels = " ".join(str(line.get_label()) for line in roc.ax_.get_lines())
    assert "c = 1/6" in labels and "0.166667" not in labels
    curve = DecisionCurveDisplay.from_predictions(y, s, average=(1 / 11, 0.25))
    labels = " ".join(str(line.get_label()) for line in curve.ax_.get_lines())
    assert "[1/11, 0.25]" in labels and "0.0909091" not in labels


@pytest.mark.parametrize("own", [True, False])
def test_roc_axes_are_square_and_name_the_users_classes(own, computed):
    ax = None if own else plt.subplots(1, 2, figsize=(10, 4))[1][0]
    ax = _draw(computed[ROCDisplay][:1], ax)
    ax.figure.canvas.draw()
    box = ax.get_window_extent()
    assert box.width == pytest.approx(box.height, abs=1.0)
    for label in (ax.get_xlabel(), ax.get_ylabel()):
        assert "'malignant'" in label and "class 1" not in label
    assert "'benign'" in ax.get_xlabel()


@pytest.mark.parametrize("layout", [None, "constrained"])
@pytest.mark.parametrize("cls", DISPLAYS)
def test_axis_labels_stay_in_the_figure_and_near_their_axes_on_a_small_grid(cls, layout,
                                                                          computed):
    # a top-right panel of a caller's 8x6 in 2x2 grid: matplotlib alone wraps a y-label up
    # to the figure's top edge (ROC's was cut there), far past its axes
    fig, axs = plt.subplots(2, 2, figsize=(8, 6), layout=layout)
    ax = _draw(computed[cls], axs[0, 1])
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    figure_box, axes_box = fig.bbox, ax.get_window_extent()
    for label, side in ((ax.xaxis.label, "width"), (ax.yaxis.label, "height")):
        box = label.get_window_extent(renderer)
        assert box.y1 <= figure_box.y1 and box.x1 <= figure_box.x1, label.get_text()
        assert getattr(box, side) <= 1.25 * getattr(axes_box, side) + 2, label.get_text()


@pytest.mark.parametrize("cls", [FROCDisplay, FCostDisplay])
def test_the_f_measure_displays_name_their_positive_class_by_the_users_label(cls, computed):
    ax = _draw(computed[cls][:1])
    assert "F-measure of 'benign'" in ax.get_xlabel()


def test_the_runs_off_the_top_note_follows_the_axes_when_a_later_model_rescales_them(models):
    fitted, (_, _, X_test, y_test) = models
    first = CostCurveDisplay.from_estimator(fitted["logistic"], X_test, y_test,
                                            pos_label="malignant", name="logistic")
    ax = first.ax_

    def marked():
        return [str(line.get_label()) for line in ax.get_lines()
                if str(line.get_label()).endswith(OFF_TOP)]

    def consistent():  # marked exactly when its peak is above the drawn top
        top = ax.get_ylim()[1]
        for line in ax.get_lines():
            if line.get_gid() is None and np.asarray(line.get_ydata()).size > 2:
                peak = np.nanmax(np.asarray(line.get_ydata(), float))
                assert str(line.get_label()).endswith(OFF_TOP) == (peak > top), line.get_label()

    consistent()
    assert marked() == ["rate-driven, \u03b3=0: 0.2704" + OFF_TOP]
    rng = np.random.default_rng(0)
    for k in range(2):  # poor models, whose curves raise the height
        CostCurveDisplay.from_predictions(y_test, rng.random(y_test.size), name=f"poor {k}",
                                          pos_label="malignant", ax=ax)
        consistent()
    assert not [label for label in marked() if label.startswith("logistic: ")]


# -- costs and options -------------------------------------------------------------------------


def test_costs_are_a_costs_whose_positive_class_and_proportion_the_displays_take(models):
    fitted, (_, _, X_test, y_test) = models
    model = fitted["logistic"]
    costs = Costs(1, 5, pos_label="malignant")
    roc = ROCDisplay.from_estimator(model, X_test, y_test, costs=costs)
    assert roc.event == "malignant"
    assert roc.optimal["c"].tolist() == pytest.approx([1 / 6])
    curves = CostCurveDisplay.from_estimator(model, X_test, y_test, costs=costs)
    (line,) = [line for line in curves.ax_.get_lines() if "FN 5" in str(line.get_label())]
    assert line.get_xdata()[0] == pytest.approx(1 / 6) and "c = 1/6" in line.get_label()
    with pytest.raises(UserError, match="pos_label"):
        ROCDisplay.from_estimator(model, X_test, y_test, costs=costs, pos_label="benign")
    with pytest.raises(UserError, match="averages over every cost proportion"):
        CertaintyDisplay.from_estimator(model, X_test, y_test, costs=costs)
    with pytest.raises(TypeError, match=r"costs must be a threshold_choice\.Costs"):
        CostCurveDisplay.from_estimator(model, X_test, y_test, costs=[0.2])


def test_a_list_of_cost_proportions_as_costs_still_works_with_a_future_warning():
    y, s = random_scores(44, 100)
    with pytest.warns(FutureWarning, match="cost_proportions"):
        old = ROCDisplay.from_predictions(y, s, costs=[0.3], plot=False)
    new = ROCDisplay.from_predictions(y, s, cost_proportions=[0.3], plot=False)
    pd.testing.assert_frame_equal(old.optimal, new.optimal)


@pytest.mark.parametrize("cls", DISPLAYS)
def test_a_misspelled_option_is_a_type_error_naming_the_nearest(cls):
    y, s = random_scores(45, 60)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'cost_distrbution'"):
        cls.from_predictions(y, s, cost_distrbution="beta:2,2", plot=False)


def test_the_decision_curves_misspelled_belief_is_refused():
    y, s = random_scores(46, 60)
    with pytest.raises(TypeError, match="did you mean 'cost_distribution'"):
        DecisionCurveDisplay.from_predictions(y, s, cost_distrbution="beta:2,2")


def test_a_misspelled_drawing_option_is_a_type_error():
    y, s = random_scores(47, 60)
    display = LogOddsRegretDisplay.from_predictions(y, s, plot=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        display.plot(fill=False)  # a known one
    from threshold_choice.plotting import CostWeightDisplay

    weights = CostWeightDisplay.from_distributions("uniform", plot=False)
    with pytest.raises(TypeError, match=r"'lww'; did you mean 'lw'"):
        weights.plot(lww=2)
