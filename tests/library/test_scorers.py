"""Scorers: equal to expected_losses / compute_metrics on the same split (negated when lower
is better), in cross_validate, GridSearchCV and TunedThresholdClassifierCV; the H-measure
scorer."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    TunedThresholdClassifierCV,
    cross_validate,
    train_test_split,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.estimators import ThresholdChoiceClassifier
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.metrics import compute_metrics, h_measure
from threshold_choice.scorers import (
    make_cost_scorer,
    make_expected_loss_scorer,
    make_metric_scorer,
)


@pytest.fixture(scope="module")
def split():
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.5, stratify=y, random_state=0
    )
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05)).fit(X_train, y_train)
    return model, X_train, X_test, y_train, y_test


def _loss(y, s, method, gamma, **kw) -> float:
    frame = expected_losses(y, s, methods=[method], gammas=[gamma], **kw)
    return float(frame["expected_loss"].iloc[0])


@pytest.mark.parametrize(
    ("method", "gamma"),
    [
        ("score-driven", math.inf),
        ("score-driven", 4.0),
        ("rate-driven", 2.0),
        ("test-optimal", 0.0),
        ("score-uniform", 8.0),
        ("test-optimal-aware", 1.0),
        ("rate-driven-z", 16.0),
    ],
)
def test_expected_loss_scorer_is_minus_expected_losses_on_the_same_split(split, method, gamma):
    model, _, X_test, _, y_test = split
    s = model.predict_proba(X_test)[:, 1]
    scorer = make_expected_loss_scorer(method, gamma)
    assert scorer(model, X_test, y_test) == pytest.approx(-_loss(y_test, s, method, gamma), 1e-12)


def test_settings_are_passed_to_the_engine(split):
    model, _, X_test, _, y_test = split
    s = model.predict_proba(X_test)[:, 1]
    grid = LossSettings(estimator="grid", grid_size=50)
    expected = -_loss(y_test, s, "rate-driven", 4.0, settings=grid)
    assert expected != pytest.approx(-_loss(y_test, s, "rate-driven", 4.0), abs=1e-6)
    by_kwargs = make_expected_loss_scorer("rate-driven", 4.0, estimator="grid", grid_size=50)
    by_object = make_expected_loss_scorer("rate-driven", 4.0, settings=grid)
    assert by_kwargs(model, X_test, y_test) == pytest.approx(expected, abs=1e-14)
    assert by_object(model, X_test, y_test) == pytest.approx(expected, abs=1e-14)
    with pytest.raises(UserError, match="unknown setting"):
        make_expected_loss_scorer("rate-driven", 4.0, no_such_setting=1)


def test_train_optimal_scorer_takes_the_training_scores_of_the_threshold_classifier(split):
    _, X_train, X_test, y_train, y_test = split
    # the paper's reference scores: the classifier's on its own training data (cv=None)
    clf = ThresholdChoiceClassifier(make_pipeline(StandardScaler(), LogisticRegression(C=0.05)),
                                    cv=None)
    clf.fit(X_train, y_train)
    model = clf.estimator_
    s_train = model.predict_proba(X_train)[:, 1]
    s_test = model.predict_proba(X_test)[:, 1]
    for method, gamma in [("train-optimal", math.inf), ("train-optimal-aware", 2.0)]:
        expected = _loss(y_test, s_test, method, gamma, train_y=y_train, train_s=s_train)
        scorer = make_expected_loss_scorer(method, gamma)
        assert scorer(clf, X_test, y_test) == pytest.approx(-expected, abs=1e-12)
        # inside a Pipeline too
        inner = ThresholdChoiceClassifier(LogisticRegression(C=0.05), cv=None)
        pipe = make_pipeline(StandardScaler(), inner).fit(X_train, y_train)
        assert scorer(pipe, X_test, y_test) == pytest.approx(-expected, abs=1e-6)
    with pytest.raises(UserError, match="wrap the classifier in ThresholdChoiceClassifier"):
        make_expected_loss_scorer("train-optimal")(model, X_test, y_test)


@pytest.mark.parametrize("metric", ["AUC", "BS", "MAE", "CL", "RL", "RL_conv", "LogLoss"])
def test_metric_scorer_equals_compute_metrics_with_the_sign_of_scikit_learn(split, metric):
    model, _, X_test, _, y_test = split
    value = compute_metrics(y_test, model.predict_proba(X_test)[:, 1])[metric]
    sign = 1 if metric == "AUC" else -1
    assert make_metric_scorer(metric)(model, X_test, y_test) == pytest.approx(sign * value, 1e-12)


def test_rank_based_scorers_accept_decision_function_models(split):
    _, X_train, X_test, y_train, y_test = split
    svm = make_pipeline(StandardScaler(), LinearSVC(C=0.01)).fit(X_train, y_train)
    d = svm.decision_function(X_test)
    scorer = make_expected_loss_scorer("rate-driven", 4.0)
    assert scorer(svm, X_test, y_test) == pytest.approx(-_loss(y_test, d, "rate-driven", 4.0))
    assert make_metric_scorer("AUC")(svm, X_test, y_test) == pytest.approx(
        compute_metrics(y_test, d)["AUC"]
    )
    with pytest.raises(AttributeError):  # score-driven needs probabilities
        make_expected_loss_scorer("score-driven")(svm, X_test, y_test)


def test_pos_label_chooses_the_class_and_its_probability(split):
    _, X_train, X_test, y_train, y_test = split
    names = np.array(["malignant", "benign"])
    m = make_pipeline(StandardScaler(), LogisticRegression(C=0.05)).fit(X_train, names[y_train])
    col = list(m.classes_).index("malignant")
    s = m.predict_proba(X_test)[:, col]
    y01 = (names[y_test] == "malignant").astype(int)
    scorer = make_expected_loss_scorer("score-driven", 2.0, pos_label="malignant")
    assert scorer(m, X_test, names[y_test]) == pytest.approx(-_loss(y01, s, "score-driven", 2.0))


def test_scorers_pickle(split):
    _, X_train, X_test, y_train, y_test = split
    clf = ThresholdChoiceClassifier(make_pipeline(StandardScaler(), LogisticRegression(C=0.05)))
    clf.fit(X_train, y_train)
    for scorer in (
        make_expected_loss_scorer("score-driven", 4.0, estimator="grid"),
        make_expected_loss_scorer("train-optimal", 4.0),
        make_metric_scorer("BS"),
    ):
        copy = pickle.loads(pickle.dumps(scorer))
        assert copy(clf, X_test, y_test) == scorer(clf, X_test, y_test)


def _folds(X, y):
    return list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))


def test_cross_validate_and_grid_search_score_each_fold_as_expected_losses():
    X, y = load_breast_cancer(return_X_y=True)
    folds = _folds(X, y)
    scorer = make_expected_loss_scorer("score-driven", 2.0)
    by_hand = {}
    for C in (0.001, 1.0):
        losses = []
        for train, test in folds:
            m = make_pipeline(StandardScaler(), LogisticRegression(C=C)).fit(X[train], y[train])
            losses.append(_loss(y[test], m.predict_proba(X[test])[:, 1], "score-driven", 2.0))
        by_hand[C] = np.array(losses)
    cv = cross_validate(
        make_pipeline(StandardScaler(), LogisticRegression(C=0.001)), X, y, cv=folds,
        scoring={"sd": scorer, "bs": make_metric_scorer("BS")},
    )
    np.testing.assert_allclose(cv["test_sd"], -by_hand[0.001], rtol=1e-10)
    search = GridSearchCV(
        make_pipeline(StandardScaler(), LogisticRegression()),
        {"logisticregression__C": [0.001, 1.0]}, scoring=scorer, cv=folds,
    ).fit(X, y)
    best = min(by_hand, key=lambda C: by_hand[C].mean())
    assert search.best_params_ == {"logisticregression__C": best}
    assert search.best_score_ == pytest.approx(-by_hand[best].mean(), rel=1e-10)


def test_tuned_threshold_classifier_minimises_the_scorer_on_predicted_labels(split):
    model, X_train, _, y_train, _ = split
    s = model.predict_proba(X_train)[:, 1]
    thresholds = np.quantile(s, np.linspace(0.02, 0.98, 25))
    for scoring, objective in [
        (
            make_expected_loss_scorer("test-optimal", 1.0),
            # predicted labels are crisp scores (sklearn predicts 1 iff score >= threshold)
            lambda t: _loss(y_train, (s >= t) * 1.0, "test-optimal", 1.0),
        ),
        (
            make_cost_scorer(0.2),
            lambda t: 2 * (0.2 * np.sum((s >= t) & (y_train == 0))
                           + 0.8 * np.sum((s < t) & (y_train == 1))) / y_train.size,
        ),
    ]:
        tuned = TunedThresholdClassifierCV(
            model, scoring=scoring, cv="prefit", refit=False, thresholds=thresholds
        ).fit(X_train, y_train)
        values = np.array([objective(t) for t in thresholds])
        assert tuned.best_threshold_ == thresholds[np.argmin(values)]
        assert tuned.best_score_ == pytest.approx(-values.min(), abs=1e-12)


# -- the H-measure scorer -----------------------------------------------------------------------


def test_the_h_measure_scorer_is_the_h_measure_higher_being_better():
    X, y = make_classification(n_samples=200, n_features=4, random_state=0)
    model = LogisticRegression().fit(X[:100], y[:100])
    score = make_metric_scorer("H")(model, X[100:], y[100:])
    expected = h_measure(CostLines.from_scores(y[100:], model.predict_proba(X[100:])[:, 1]))
    assert score == pytest.approx(expected, abs=1e-15) and score > 0
