"""One positive class throughout: the scorers take it from the classifier they score, and
string labels without an explicit ``pos_label`` are warned about once."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression

import threshold_choice.estimators as estimators
from threshold_choice.costs import Costs
from threshold_choice.errors import UserError
from threshold_choice.estimators import ThresholdChoiceClassifier
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.metrics import compute_metrics
from threshold_choice.scorers import (
    cost_loss,
    expected_loss_score,
    make_cost_scorer,
    make_expected_loss_scorer,
    make_metric_scorer,
    metric_score,
)


def _data(n: int = 400, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=n) > 0.6, "malignant", "benign")
    return X[: n // 2], y[: n // 2], X[n // 2:], y[n // 2:]


@pytest.fixture
def benign_first():
    X, y, X_test, y_test = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = ThresholdChoiceClassifier(LogisticRegression(), method="score-driven",
                                        pos_label="benign").fit(X, y)
    return clf, X_test, y_test


def test_a_scorer_without_pos_label_scores_the_classifiers_positive_class(benign_first):
    clf, X_test, y_test = benign_first
    p_benign = clf.estimator_.predict_proba(X_test)[:, list(clf.classes_).index("benign")]
    y01 = (y_test == "benign").astype(int)
    # a belief about c that is not symmetric: which class is positive matters
    settings = {"estimator": "exact", "cost_distribution": "beta:8,3"}
    expected = expected_losses(y01, p_benign, methods=["score-driven"], gammas=[4.0],
                               settings=settings)["expected_loss"].iloc[0]
    scorer = make_expected_loss_scorer("score-driven", 4.0, **settings)
    assert -scorer(clf, X_test, y_test) == pytest.approx(expected, abs=1e-12)
    other = expected_losses(1 - y01, 1 - p_benign, methods=["score-driven"], gammas=[4.0],
                            settings=settings)["expected_loss"].iloc[0]
    assert abs(other - expected) > 1e-3  # the test can tell the two apart


def test_metric_and_cost_scorers_take_the_classifiers_positive_class(benign_first):
    clf, X_test, y_test = benign_first
    p_benign = clf.estimator_.predict_proba(X_test)[:, list(clf.classes_).index("benign")]
    y01 = (y_test == "benign").astype(int)
    assert -make_metric_scorer("BS")(clf, X_test, y_test) == pytest.approx(
        compute_metrics(y01, p_benign)["BS"], abs=1e-12)
    predicted = clf.predict(X_test) == "benign"
    c = 0.8
    fp, fn = np.sum(predicted & (y01 == 0)), np.sum(~predicted & (y01 == 1))
    assert -make_cost_scorer(c)(clf, X_test, y_test) == pytest.approx(
        2 * (c * fp + (1 - c) * fn) / y01.size)


def test_string_labels_without_pos_label_are_warned_about_once(monkeypatch):
    monkeypatch.setattr(estimators, "_WARNED_LABELS", set())
    X, y, _, _ = _data(seed=1)
    with pytest.warns(UserWarning, match=r"positive class .* is 'malignant'"):
        ThresholdChoiceClassifier(LogisticRegression()).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ThresholdChoiceClassifier(LogisticRegression()).fit(X, y)  # once
        ThresholdChoiceClassifier(LogisticRegression(), pos_label="benign").fit(X, y)
        ThresholdChoiceClassifier(LogisticRegression()).fit(X, (y == "malignant").astype(int))


# -- pos_label in expected_losses ------------------------------------------------------------


def test_expected_losses_with_pos_label_equal_those_of_the_0_1_labels():
    rng = np.random.default_rng(3)
    y = np.array([0, 1] * 30)
    s = np.clip(0.3 * y + 0.7 * rng.random(y.size), 0, 1)
    ty = np.array([1, 0] * 20)
    ts = np.clip(0.3 * ty + 0.7 * rng.random(ty.size), 0, 1)
    names = np.where(y == 1, "malignant", "benign")
    train_names = np.where(ty == 1, "malignant", "benign")
    numeric = expected_losses(y, s, train_y=ty, train_s=ts, gammas=[np.inf, 2])
    named = expected_losses(names, s, train_y=train_names, train_s=ts, gammas=[np.inf, 2],
                            pos_label="malignant")
    pd.testing.assert_frame_equal(named, numeric)
    # the other class as positive: class 1 is 'benign', the scores estimating P('malignant')
    flipped = expected_losses(names, 1 - s, methods="test-optimal", gammas=[np.inf],
                              pos_label="benign")
    plain = expected_losses(1 - y, 1 - s, methods="test-optimal", gammas=[np.inf])
    assert flipped["expected_loss"].iloc[0] == plain["expected_loss"].iloc[0]


def test_named_labels_without_pos_label_are_one_line_naming_the_fix():
    names = ["benign", "malignant", "benign", "malignant"]
    with pytest.raises(UserError) as caught:
        expected_losses(names, [0.1, 0.8, 0.3, 0.6])
    message = str(caught.value)
    assert "\n" not in message
    assert ("labels must be 0 or 1, got 'benign' and 'malignant': pass "
            "pos_label='malignant' or y == 'malignant'") in message


@pytest.mark.parametrize(("labels", "pos_label", "problem"), [
    (["b", "m", "b", "m"], "x", "no label is pos_label='x'; the labels are 'b', 'm'"),
    (["b", "m", "z", "m"], "m", "3 labels; pos_label needs two classes"),
])
def test_a_pos_label_that_does_not_name_one_of_two_classes_is_a_user_error(labels, pos_label,
                                                                           problem):
    with pytest.raises(UserError, match=re.escape(problem)):
        expected_losses(labels, [0.1, 0.8, 0.3, 0.6], pos_label=pos_label)



def test_label_messages_show_labels_in_one_format():
    from threshold_choice.costlines import shown_labels
    from threshold_choice.scorers import binary_labels

    assert shown_labels(np.array([0, 1])) == "0, 1"
    assert shown_labels([np.int64(2), np.str_("a"), None, True]) == "2, 'a', None, True"
    for labels, pos_label in [([2, 3, 2, 3], 7), (["b", "m", "b", "m"], "x")]:
        shown = shown_labels(sorted(set(labels)))
        with pytest.raises(UserError, match=re.escape(f"the labels are {shown}")):
            expected_losses(labels, [0.1, 0.8, 0.3, 0.6], pos_label=pos_label)
        with pytest.raises(UserError, match=re.escape(f"the labels are {shown}: give one")):
            binary_labels(labels, pos_label)
        with pytest.raises(UserError, match=re.escape(f"the labels are {shown}: give pos_l")):
            binary_labels(labels)

# -- predicted labels given to the score functions (TunedThresholdClassifierCV's calls) ---------


@pytest.fixture
def class_0_positive():
    """0/1 labels and a plain model's predicted labels, with class 0 the positive class; the
    same as names, 'pos' for class 0."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] + 0.8 * rng.normal(size=400) > 0).astype(int)
    model = LogisticRegression().fit(X[:200], y[:200])
    y_test, pred = y[200:], model.predict(X[200:])
    named = {0: "pos", 1: "neg"}
    return model, X[200:], y_test, pred, np.vectorize(named.get)(y_test), np.vectorize(
        named.get)(pred)


def test_the_cost_of_predicted_labels_counts_class_0_as_positive_when_it_is_named(
        class_0_positive):
    model, X_test, y_test, pred, y_named, pred_named = class_0_positive
    c = 0.2
    # class 0 positive: a false positive predicts 0 for a 1, a false negative 1 for a 0
    fp, fn = np.sum((pred == 0) & (y_test == 1)), np.sum((pred == 1) & (y_test == 0))
    expected = 2 * (c * fp + (1 - c) * fn) / y_test.size
    # the predictions read as if class 1 were positive: the loss of the reversed ones
    reversed_ = 2 * (c * np.sum((pred == 1) & (y_test == 1))
                     + (1 - c) * np.sum((pred == 0) & (y_test == 0))) / y_test.size
    assert reversed_ - expected > 0.3  # the test can tell the two readings apart
    assert cost_loss(y_test, pred, cost_proportion=c, pos_label=0) == pytest.approx(expected)
    assert cost_loss(y_named, pred_named, cost_proportion=c, pos_label="pos") == pytest.approx(
        expected)
    assert -make_cost_scorer(c, pos_label=0)(model, X_test, y_test) == pytest.approx(expected)
    assert -make_cost_scorer(costs=Costs(1, 4, pos_label=0))(model, X_test, y_test) == (
        pytest.approx((fp + 4 * fn) / y_test.size))


def test_predicted_labels_of_class_0_are_its_crisp_scores_in_the_loss_and_metrics(
        class_0_positive):
    _, _, y_test, pred, y_named, pred_named = class_0_positive
    crisp = (pred == 0).astype(float)  # the crisp score of the positive class, 0
    y01 = (y_test == 0).astype(int)
    settings = {"estimator": "exact", "cost_distribution": "beta:8,3"}
    expected = expected_losses(y01, crisp, methods=["score-driven"], gammas=[2.0],
                               settings=settings)["expected_loss"].iloc[0]
    got = expected_loss_score(y_test, pred, gamma=2.0, pos_label=0,
                              settings=LossSettings(**settings))
    assert got == pytest.approx(expected, abs=1e-12)
    assert expected_loss_score(y_named, pred_named, gamma=2.0, pos_label="pos",
                               settings=LossSettings(**settings)) == pytest.approx(got)
    assert metric_score(y_test, pred, metric="BS", pos_label=0) == pytest.approx(
        compute_metrics(y01, crisp)["BS"])


def test_crisp_probabilities_of_class_0_are_read_as_probabilities_not_labels():
    y = np.array([0, 1, 0, 1, 1, 0])
    p_class_0 = np.array([1.0, 0.0, 1.0, 1.0, 0.0, 0.0])  # a tree's pure leaves
    expected = compute_metrics((y == 0).astype(int), p_class_0)["BS"]
    assert metric_score(y, p_class_0, metric="BS", pos_label=0) == pytest.approx(expected)
    assert metric_score(y, 1 - p_class_0, metric="BS", pos_label=0) != pytest.approx(expected)
    # with labels 0.0/1.0 too, 0.0/1.0 could be either: refused, with the fix
    with pytest.raises(UserError, match="give the labels as integers"):
        metric_score(y.astype(float), p_class_0, metric="BS", pos_label=0)


def test_predicted_labels_on_a_fold_of_one_named_class_are_costed():
    # leave-one-out: the fold holds one class, the prediction may be the other
    c = 0.3
    got = cost_loss(["bad"] * 3, ["bad", "good", "bad"], cost_proportion=c, pos_label="bad")
    assert got == pytest.approx(2 * (1 - c) * 1 / 3)  # one bad predicted good: a false negative
    assert cost_loss([2, 2, 2], [2, 1, 2], cost_proportion=c, pos_label=2) == pytest.approx(got)
    with pytest.raises(UserError, match="more than two classes"):
        cost_loss(["bad"] * 3, ["bad", "good", "ugly"], cost_proportion=c, pos_label="bad")


def test_the_scorers_name_a_pos_label_that_is_none_of_the_labels():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(100, 2))
    y = np.where(X[:, 0] > 0, "bad", "good")
    model = LogisticRegression().fit(X, y)
    wrong_case = np.char.capitalize(y)
    for scorer in [make_expected_loss_scorer(pos_label="bad"), make_cost_scorer(
            0.3, pos_label="bad"), make_metric_scorer("BS", pos_label="bad")]:
        with pytest.raises(UserError, match="no label is pos_label='bad'; the labels are "
                                            "'Bad', 'Good'"):
            scorer(model, X, wrong_case)
