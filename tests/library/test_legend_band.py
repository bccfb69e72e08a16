"""A legend inside a caller's axes that finds no free place goes in a band raised above the
data (in a smaller type when the usual one is too tall), the costs' mark stopping below it,
and the curves the axes' bound cuts are marked as running off the top, which the band may
cross. Checked on the drawn geometry, with the helpers of ``test_displays_models``."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from tests.library.displays import _close_figures  # noqa: F401
from tests.library.test_displays_models import OFF_TOP, check_legends_cover_no_data
from threshold_choice import Costs
from threshold_choice.plotting import (
    CostCurveDisplay,
    FCostDisplay,
    FROCDisplay,
    LogOddsRegretDisplay,
)
from threshold_choice.plotting._base import COSTS_GID

METHODS = ["train-optimal", "score-driven", "rate-driven"]


@pytest.fixture(scope="module")
def scores():
    """A logistic model of the breast cancer data, 'malignant' the positive class."""
    X, y = load_breast_cancer(return_X_y=True)
    y = np.array(["malignant", "benign"])[y]
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0,
                                                        stratify=y)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    model.fit(X_train, y_train)
    return model, X_test, y_test, {"X_train": X_train, "y_train": y_train}


def test_a_long_legend_of_one_model_covers_no_data_on_a_callers_1_by_2_axes(scores):
    model, X_test, y_test, train = scores
    _fig, axs = plt.subplots(1, 2, figsize=(10, 4))
    for ax in axs:  # 3 methods x 3 certainties, the cost lines and the costs: 11 entries
        CostCurveDisplay.from_estimator(model, X_test, y_test, pos_label="malignant", ax=ax,
                                        **train,
                                        methods=METHODS, gammas=[math.inf, 4.0, 0.0],
                                        costs=Costs(1, 5, pos_label="malignant"))
    for ax in axs:
        check_legends_cover_no_data(ax)


def test_the_costs_mark_stops_below_a_legend_band_raised_above_the_data():
    X, labels = make_classification(n_samples=1000, n_features=10, n_informative=4,
                                    weights=[0.7], flip_y=0.08, class_sep=0.8, random_state=1)
    y = np.where(labels == 1, "bad", "good")
    model = LogisticRegression(C=0.001).fit(X[:500], y[:500])
    _fig, axs = plt.subplots(1, 2, figsize=(10, 4))
    LogOddsRegretDisplay.from_estimator(model, X[500:], y[500:], ax=axs[0], pos_label="bad",
                                        costs=Costs(1, 5, pos_label="bad"))
    ax = axs[0]
    check_legends_cover_no_data(ax)
    data_top = max(np.nanmax(line.get_ydata()) for line in ax.get_lines()
                   if line.get_gid() != COSTS_GID)
    low, high = ax.get_ylim()
    assert high > 1.3 * data_top  # a band was raised above the data for the legend
    (mark,) = [line for line in ax.get_lines() if line.get_gid() == COSTS_GID]
    assert low + max(mark.get_ydata()) * (high - low) < 1.2 * data_top


def test_a_curve_the_axes_bound_cuts_is_marked_as_running_off_the_top():
    rng = np.random.default_rng(0)  # a weak model: F-cost curves far above the bound
    y, y_train = (rng.random((2, 400)) < 0.3).astype(int)
    s, s_train = (np.clip(0.3 + 0.15 * (labels - 0.3) + 0.2 * rng.standard_normal(400), 0, 1)
                  for labels in (y, y_train))
    display = FCostDisplay.from_predictions(y, s, train_y=y_train, train_score=s_train,
                                            methods=METHODS, gammas=[math.inf, 0.0])
    top = display.ax_.get_ylim()[1]
    for line in display.ax_.get_lines():
        label = str(line.get_label())
        if label.startswith("_") or line.get_gid() is not None:
            continue
        assert (np.nanmax(line.get_ydata()) > top) == label.endswith(OFF_TOP), label


def test_the_froc_legend_names_each_costs_isometric_line():
    y = np.array([0, 0, 1, 0, 1, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9, 0.55, 0.2])
    display = FROCDisplay.from_predictions(y, s, cost_proportions=[0.2, 0.5])
    dotted = [line for line in display.ax_.get_lines() if line.get_linestyle() == ":"]
    assert [line.get_label() for line in dotted] == ["F-cost isometric of c = 0.2",
                                                    "F-cost isometric of c = 0.5"]
    texts = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    assert "F-cost isometric of c = 0.2" in texts
