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
from threshold_choice.errors import UserError
from threshold_choice.estimators import ThresholdChoiceClassifier
from threshold_choice.evaluation import expected_losses
from threshold_choice.metrics import compute_metrics
from threshold_choice.scorers import (
    make_cost_scorer,
    make_expected_loss_scorer,
    make_metric_scorer,
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
