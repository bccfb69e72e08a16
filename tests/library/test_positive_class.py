"""One positive class throughout: the scorers take it from the classifier they score, and
string labels without an explicit ``pos_label`` are warned about once."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

import threshold_choice.estimators as estimators
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
