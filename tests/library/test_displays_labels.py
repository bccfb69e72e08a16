"""What the Displays say and how they tell curves apart: the classes named (the event, the
F-measure's positive class), the models named once several share an axes, certainties told
apart by line style and lightness, the ROC's lines named for what they are; and the classifier
checks of ``from_estimator`` (not fitted, an implicit positive class) and ``pos_label`` in
``from_predictions``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from matplotlib.colors import to_rgba
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from tests.conftest import random_scores
from tests.library.displays import DISPLAYS, _close_figures  # noqa: F401
from threshold_choice import CostLines, ThresholdChoiceClassifier, estimators, make_selection
from threshold_choice.errors import UserError
from threshold_choice.plotting import (
    CostCurveDisplay,
    DecisionCurveDisplay,
    FCostDisplay,
    FROCDisplay,
    ROCDisplay,
)


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=400, n_features=5, class_sep=1.2, random_state=4)
    names = np.array(["benign", "malignant"])[y]
    return train_test_split(X, names, test_size=0.5, random_state=0, stratify=names)


def _texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


# -- from_estimator's checks ---------------------------------------------------------------------


@pytest.mark.parametrize("cls", DISPLAYS)
@pytest.mark.parametrize("model", [
    ThresholdChoiceClassifier(LogisticRegression()),
    LogisticRegression(),
    make_pipeline(StandardScaler(), LogisticRegression()),
], ids=["ThresholdChoiceClassifier", "plain", "Pipeline"])
def test_an_unfitted_classifier_raises_scikit_learns_not_fitted_error(cls, model, data):
    _, X_test, _, y_test = data
    with pytest.raises(NotFittedError, match="not fitted"):
        cls.from_estimator(model, X_test, y_test, plot=False)


def test_a_plain_classifier_with_named_classes_warns_which_class_it_takes(data, monkeypatch):
    X_train, X_test, y_train, y_test = data
    monkeypatch.setattr(estimators, "_WARNED_LABELS", set())  # warned once per process
    model = LogisticRegression().fit(X_train, y_train)
    with pytest.warns(UserWarning, match="'malignant', the last of the sorted labels") as said:
        display = ROCDisplay.from_estimator(model, X_test, y_test, plot=False)
    assert said[0].filename == __file__  # at the caller's line
    assert (display.event, display.negative) == ("malignant", "benign")
    import warnings

    monkeypatch.setattr(estimators, "_WARNED_LABELS", set())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # chosen: no warning
        ROCDisplay.from_estimator(model, X_test, y_test, pos_label="benign", plot=False)


# -- from_predictions' pos_label -----------------------------------------------------------------


@pytest.mark.parametrize("cls", [CostCurveDisplay, DecisionCurveDisplay, ROCDisplay,
                                 FROCDisplay])
def test_pos_label_in_from_predictions_equals_the_0_1_labels(cls):
    y, s = random_scores(21, 150)
    ty, ts = random_scores(22, 150)
    names, train_names = np.where(y == 1, "sick", "well"), np.where(ty == 1, "sick", "well")
    by_name = cls.from_predictions(names, s, pos_label="sick", train_y=train_names,
                                   train_score=ts, plot=False)
    by_number = cls.from_predictions(y, s, train_y=ty, train_score=ts, plot=False)
    assert by_name.data.equals(by_number.data)
    assert (by_name.event, by_name.negative) == ("sick", "well")


def test_pos_label_other_than_a_label_or_names_without_it_are_refused():
    names = ["well", "sick", "well", "sick"]
    with pytest.raises(UserError, match="y_true: no label is pos_label='ill'"):
        CostCurveDisplay.from_predictions(names, [0.1, 0.9, 0.3, 0.6], pos_label="ill")
    with pytest.raises(UserError, match="pass pos_label="):
        CostCurveDisplay.from_predictions(names, [0.1, 0.9, 0.3, 0.6])
    with pytest.raises(UserError, match="3 labels"):
        CostCurveDisplay.from_predictions(["a", "b", "c", "a"], [0.1, 0.9, 0.3, 0.6],
                                          pos_label="a")


def test_from_estimator_names_a_pos_label_that_is_none_of_the_labels(data):
    X_train, X_test, y_train, y_test = data
    model = LogisticRegression().fit(X_train, y_train)
    # 'Benign' / 'Malignant' against the model's 'malignant': the labels are wrong, not the split
    with pytest.raises(UserError, match="y: no label is pos_label='malignant'; the labels are "
                                        "'Benign', 'Malignant'"):
        CostCurveDisplay.from_estimator(model, X_test, np.char.capitalize(y_test),
                                        pos_label="malignant", plot=False)


@pytest.mark.parametrize("given", ["X_train", "y_train"])
def test_half_of_the_training_pair_is_refused_not_dropped(data, given):
    X_train, X_test, y_train, y_test = data
    model = LogisticRegression().fit(X_train, y_train)
    pair = {"X_train": X_train, "y_train": y_train}
    missing = "y_train" if given == "X_train" else "X_train"
    with pytest.raises(UserError, match=f"{given} without {missing}: .*give both"):
        CostCurveDisplay.from_estimator(model, X_test, y_test, pos_label="malignant",
                                        plot=False, **{given: pair[given]})
    s = model.predict_proba(X_test)[:, 1]
    pair = {"train_y": y_train, "train_score": model.predict_proba(X_train)[:, 1]}
    for given, missing in [("train_y", "train_score"), ("train_score", "train_y")]:
        with pytest.raises(UserError, match=f"{given} without {missing}"):
            CostCurveDisplay.from_predictions(y_test, s, pos_label="malignant", plot=False,
                                              **{given: pair[given]})


# -- classes named -------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [FROCDisplay, FCostDisplay])
def test_the_f_measure_displays_name_their_positive_class_the_other_one(cls, data):
    X_train, X_test, y_train, y_test = data
    clf = ThresholdChoiceClassifier(LogisticRegression(), pos_label="malignant", cv=None)
    display = cls.from_estimator(clf.fit(X_train, y_train), X_test, y_test)
    label = display.ax_.get_xlabel()
    assert "'benign' (class 0)" in label and "malignant" not in label
    numbers = cls.from_predictions(*random_scores(23, 100))
    assert "class 0" in numbers.ax_.get_xlabel()


def test_the_decision_curve_names_the_event_once_in_a_short_label(data):
    X_train, X_test, y_train, y_test = data
    clf = ThresholdChoiceClassifier(LogisticRegression(), pos_label="malignant", cv=None)
    display = DecisionCurveDisplay.from_estimator(clf.fit(X_train, y_train), X_test, y_test)
    label = display.ax_.get_xlabel()
    assert label.count("'malignant'") == 1 and len(label) <= 60


# -- models and certainties told apart ---------------------------------------------------------


def test_one_model_is_named_in_the_title_and_several_each_by_an_entry_in_its_colour():
    y, s = random_scores(24, 150)
    first = ROCDisplay.from_predictions(y, s, name="A")
    assert first.ax_.get_title().endswith("A")
    assert not any(t.startswith("A: ") for t in _texts(first.ax_))
    second = ROCDisplay.from_predictions(y, np.clip(s + 0.2, 0, 1), name="B", ax=first.ax_)
    legend = first.ax_.get_legend()
    entries = dict(zip(_texts(first.ax_), legend.legend_handles, strict=True))
    for display in (first, second):  # its name and AUC, in the colour of its curves
        entry = entries[f"{display.name} (AUC {display.auc:.3f})"]
        curve = next(line for line in first.ax_.get_lines()
                     if line.get_label().startswith(f"{display.name}: ROC curve"))
        assert to_rgba(entry.get_color()) == to_rgba(curve.get_color())
    # the curves' own labels still name their model (for the data and the legend entries)
    labels = [str(line.get_label()) for line in first.ax_.get_lines()
              if line.get_gid() is None and not str(line.get_label()).startswith("_")]
    assert labels and all(t.startswith(("A: ", "B: ")) for t in labels)


def _dash(line):
    return str(line._unscaled_dash_pattern)  # the dash pattern as drawn


@pytest.mark.parametrize("color", [None, "tab:purple"])
def test_seven_certainties_of_a_method_are_each_drawn_differently(color):
    y, s = random_scores(25, 200)
    gammas = [math.inf, 16.0, 8.0, 4.0, 2.0, 1.0, 0.0]
    display = CostCurveDisplay.from_predictions(
        y, s, methods=["score-driven"], gammas=gammas, cost_lines=False,
        plot_kwargs={"color": color})
    curves = [line for line in display.ax_.get_lines() if "score-driven" in line.get_label()]
    assert len(curves) == len(gammas)
    looks = {(to_rgba(line.get_color()), _dash(line)) for line in curves}
    assert len(looks) == len(gammas)
    if color is None:  # inf and 0 keep the paper's solid and dashed
        solid, dashed = curves[0], curves[-1]
        assert solid.get_linestyle() == "-" and dashed.get_linestyle() == "--"


def test_a_second_models_treat_all_on_another_test_set_has_its_colour():
    y, s = random_scores(26, 150)
    y2, s2 = random_scores(27, 150, pi1=0.3)
    first = DecisionCurveDisplay.from_predictions(y, s, name="A")
    DecisionCurveDisplay.from_predictions(y2, s2, name="B", ax=first.ax_)
    treat_all = {str(line.get_label()): to_rgba(line.get_color())
                 for line in first.ax_.get_lines() if "treat all" in str(line.get_label())}
    assert len(treat_all) == 2 and len(set(treat_all.values())) == 2
    model_b = next(line for line in first.ax_.get_lines() if line.get_label() == "B")
    assert treat_all["B: treat all"] == to_rgba(model_b.get_color())


def test_the_roc_legend_names_the_iso_cost_lines_not_line_numbers():
    y, s = random_scores(28, 150)
    display = ROCDisplay.from_predictions(y, s, cost_proportions=[0.2, 0.7])
    texts = _texts(display.ax_)
    assert not any(" line " in f" {t} " and "iso-cost" not in t for t in texts)
    for c in (0.2, 0.7):
        assert f"iso-cost line of c = {c:g}" in texts
        row = display.optimal[display.optimal["c"] == c].iloc[0]
        assert any(t.startswith(f"optimal at c = {c:g}") and f"{row.loss:.4f}" in t
                   for t in texts)


def test_a_training_method_without_training_scores_names_what_to_pass():
    # from the library, the message names the arguments of the call, not the CLI's options
    y, s = random_scores(4, 60)
    with pytest.raises(UserError, match=r"train-optimal select\(s\) thresholds on the model's "
                       r"training scores: give train_y and train_s"):
        CostCurveDisplay.from_predictions(y, s, methods=["train-optimal"])
    with pytest.raises(UserError, match=r"selects on training scores: pass train=CostLines"):
        make_selection("train-optimal", CostLines.from_scores(y, s))


def test_nine_models_on_one_axes_have_nine_colours():
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    for k in range(12):
        y, s = random_scores(k, 60)
        ROCDisplay.from_predictions(y, s, ax=ax, name=f"model {k}")
    colours = {to_rgba(line.get_color()) for line in ax.get_lines()
               if str(line.get_label()).startswith("model")}
    assert len(colours) == 12  # the ninth was drawn in the first's blue


@pytest.mark.parametrize(("gammas", "message"), [
    ([5.0, 5.0], "gammas lists 5.0 more than once"),
    ([], "gammas is empty; give at least one"),
])
def test_a_decision_curves_gammas_are_checked_as_the_other_displays_are(gammas, message):
    y, s = random_scores(2, 80)
    with pytest.raises(UserError, match=message):
        DecisionCurveDisplay.from_predictions(y, s, methods=["score-driven"], gammas=gammas,
                                              plot=False)


def test_costs_at_c_1_on_a_decision_curve_name_the_costs_not_thresholds():
    from threshold_choice import Costs

    y, s = random_scores(2, 80)
    with pytest.raises(UserError, match=r"the costs put the threshold t = c at 1, .* give costs "
                                        r"of both errors above 0"):
        DecisionCurveDisplay.from_predictions(y, s, costs=Costs(5, 0))


def test_the_log_odds_regret_display_says_how_to_fix_scores_outside_0_1():
    from threshold_choice.plotting import LogOddsRegretDisplay

    y, s = random_scores(1, 80)
    with pytest.raises(UserError, match=r"calibrate them .* or rescale them to \[0, 1\]"):
        LogOddsRegretDisplay.from_predictions(y, s * 4 - 2)
