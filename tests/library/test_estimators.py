"""ThresholdChoiceClassifier: scikit-learn's estimator checks, and predictions equal to each
method's threshold found by hand (brute force over the training thresholds, the posterior
mean by quadrature, the skew map written out), TunedThresholdClassifierCV's optimum; bad
inputs (a 2-D cost proportion, a positive label that is no class, an inner estimator that
is no classifier) refused in one line."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from scipy import integrate
from scipy.stats import beta as beta_dist
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    FixedThresholdClassifier,
    StratifiedKFold,
    TunedThresholdClassifierCV,
    cross_val_predict,
    train_test_split,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from threshold_choice.errors import UserError
from threshold_choice.estimators import (
    PREDICT_METHODS,
    ThresholdChoiceClassifier,
    expected_failed_checks,
)
from threshold_choice.evaluation import expected_losses
from threshold_choice.scorers import cost_loss, make_cost_scorer


# The classifier declares the checks it may fail (predict is not predict_proba's argmax
# when its threshold is not 1/2): not strict, since whether a training probability falls
# between 1/2 and the threshold depends on the check's data.
@parametrize_with_checks(
    [
        ThresholdChoiceClassifier(LogisticRegression()),
        ThresholdChoiceClassifier(LogisticRegression(), method="score-driven-aware", gamma=4.0),
        ThresholdChoiceClassifier(DecisionTreeClassifier(max_depth=3), method="rate-driven", cv=3),
        ThresholdChoiceClassifier(LogisticRegression(), method="score-driven"),
    ],
    expected_failed_checks=expected_failed_checks,
)
def test_passes_the_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def test_decision_function_above_zero_is_predict_for_either_positive_class(data):
    X_train, X_test, y_train, _ = data
    names = np.array(["benign", "malignant"])
    for pos in names:  # classes_[1], then classes_[0]
        clf = ThresholdChoiceClassifier(_model(), method="train-optimal", cv=None,
                                        cost_proportion=0.3, pos_label=pos)
        clf.fit(X_train, names[y_train])
        decision = clf.decision_function(X_test)
        assert np.array_equal(clf.classes_[(decision > 0).astype(int)], clf.predict(X_test))
        # and it is the distance to the threshold, not the inner model's own margin
        assert not np.array_equal(decision > 0, clf.estimator_.decision_function(X_test) > 0)


def test_the_declared_check_failure_is_the_argmax_of_predict_proba_only():
    from sklearn.utils.estimator_checks import check_estimator

    clf = ThresholdChoiceClassifier(LogisticRegression())
    results = check_estimator(clf, expected_failed_checks=expected_failed_checks(clf),
                              on_fail=None)
    failed = {r["check_name"] for r in results if r["status"] == "failed"}
    assert failed == set()
    assert {r["check_name"] for r in results if r["status"] == "xfail"} <= {
        "check_classifiers_train"}


@pytest.fixture(scope="module")
def data():
    X, y = load_breast_cancer(return_X_y=True)
    return train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)


def _model():
    return make_pipeline(StandardScaler(), LogisticRegression(C=0.05))


def _fit(data, **params) -> ThresholdChoiceClassifier:
    """Fitted with the paper's reference scores (the training scores, ``cv=None``) unless
    ``params`` say otherwise: the tests find its thresholds by hand on them."""
    X_train, _, y_train, _ = data
    return ThresholdChoiceClassifier(_model(), **{"cv": None, **params}).fit(X_train, y_train)


# -- the methods by hand ---------------------------------------------------------------------

C_HATS = np.array([0.03, 0.2, 0.37, 0.5, 0.61, 0.8, 0.97])


def _posterior_mean(c_hat: float, gamma: float) -> float:
    """E[c | c_hat] with c uniform and c_hat | c ~ Beta(gamma c + 1, gamma (1 - c) + 1)."""

    def like(c: float) -> float:
        return beta_dist.pdf(c_hat, gamma * c + 1, gamma * (1 - c) + 1)

    num = integrate.quad(lambda c: c * like(c), 0, 1, epsabs=1e-13)[0]
    return num / integrate.quad(like, 0, 1, epsabs=1e-13)[0]


def _candidates(train_s: np.ndarray) -> np.ndarray:
    u = np.unique(train_s)
    return np.concatenate(([-np.inf], (u[:-1] + u[1:]) / 2, [np.inf]))


def _train_optimal_by_hand(y: np.ndarray, s: np.ndarray, c: float) -> float:
    """The threshold with the least training loss Q(t; c), the lowest on ties."""
    t = _candidates(s)
    pred1 = s[None, :] > t[:, None]
    fp = np.sum(pred1 & (y == 0), axis=1)
    fn = np.sum(~pred1 & (y == 1), axis=1)
    loss = 2 * (c * fp + (1 - c) * fn) / y.size
    return float(t[np.argmin(loss)])


def _rate_by_hand(s: np.ndarray, rate: float) -> float:
    """The threshold whose share of reference scores predicted 0 is nearest ``rate``."""
    t = _candidates(s)
    share0 = np.mean(s[None, :] <= t[:, None], axis=1)
    return float(t[np.argmin(np.abs(share0 - rate))])


def _skew(c: float, pi0: float) -> float:
    return c * pi0 / (c * pi0 + (1 - c) * (1 - pi0))


#: the fixed methods' threshold and rate in these tests (not the default 1/2)
FIXED = {"fixed_threshold": 0.3, "fixed_rate": 0.65}


@pytest.mark.parametrize("method", PREDICT_METHODS)
def test_predictions_apply_the_methods_threshold_found_by_hand(data, method):
    gamma = 3.0
    clf = _fit(data, method=method, gamma=gamma, **FIXED)
    X_train, X_test, y_train, _ = data
    s_train = clf.estimator_.predict_proba(X_train)[:, 1]
    s_test = clf.estimator_.predict_proba(X_test)[:, 1]
    pi0 = np.mean(y_train == 0)
    for c_hat in C_HATS:
        m = _posterior_mean(c_hat, gamma) if method.endswith("-aware") else c_hat
        if method == "score-fixed":
            assert clf.threshold(c_hat) == FIXED["fixed_threshold"]
        elif method == "rate-fixed":
            assert clf.threshold(c_hat) == _rate_by_hand(s_train, FIXED["fixed_rate"])
        elif method.startswith("score-driven"):
            expected = _skew(m, pi0) if method.endswith("-z") else m
            assert clf.threshold(c_hat) == pytest.approx(expected, abs=1e-9)
        elif method.startswith("rate-driven"):
            expected = _rate_by_hand(s_train, _skew(m, pi0) if method.endswith("-z") else m)
            assert clf.threshold(c_hat) == expected
        else:
            expected = _train_optimal_by_hand(y_train, s_train, m)
            assert clf.threshold(c_hat) == expected
        np.testing.assert_array_equal(
            clf.predict(X_test, cost_proportion=c_hat), (s_test > clf.threshold(c_hat)) * 1
        )


def test_cost_proportion_may_differ_per_row(data):
    clf = _fit(data, method="score-driven")
    X_test = data[1]
    c = np.linspace(0, 1, len(X_test))
    s = clf.predict_proba(X_test)[:, 1]
    np.testing.assert_array_equal(clf.predict(X_test, cost_proportion=c), (s > c) * 1)
    with pytest.raises(UserError, match="one per row"):
        clf.predict(X_test, cost_proportion=c[:5])


def test_default_cost_proportion_is_the_parameter(data):
    clf = _fit(data, method="score-driven", cost_proportion=0.8)
    X_test = data[1]
    np.testing.assert_array_equal(clf.predict(X_test), clf.predict(X_test, cost_proportion=0.8))
    assert not np.array_equal(clf.predict(X_test), clf.predict(X_test, cost_proportion=0.1))


def test_larger_cost_proportion_never_predicts_more_class_1(data):
    X_test = data[1]
    for method in PREDICT_METHODS:
        clf = _fit(data, method=method, gamma=2.0)
        counts = [int(np.sum(clf.predict(X_test, cost_proportion=c))) for c in C_HATS]
        assert counts == sorted(counts, reverse=True), method


def test_out_of_fold_reference_scores_equal_cross_val_predict(data):
    X_train, _, y_train, _ = data
    cv = StratifiedKFold(4, shuffle=True, random_state=1)
    clf = ThresholdChoiceClassifier(_model(), method="rate-driven", cv=cv).fit(X_train, y_train)
    oof = cross_val_predict(_model(), X_train, y_train, cv=cv, method="predict_proba")[:, 1]
    np.testing.assert_array_equal(clf.train_scores_, oof)
    # the model itself is still fitted on all the training data
    full = _model().fit(X_train, y_train).predict_proba(X_train)[:, 1]
    np.testing.assert_allclose(clf.predict_proba(X_train)[:, 1], full)


def test_string_labels_and_pos_label(data):
    X_train, X_test, y_train, _ = data
    names = np.array(["malignant", "benign"])
    clf = ThresholdChoiceClassifier(_model(), method="score-driven", pos_label="malignant")
    clf.fit(X_train, names[y_train])
    p_mal = clf.predict_proba(X_test)[:, list(clf.classes_).index("malignant")]
    expected = np.where(p_mal > 0.3, "malignant", "benign")
    np.testing.assert_array_equal(clf.predict(X_test, cost_proportion=0.3), expected)
    np.testing.assert_array_equal(clf.train_labels_, (names[y_train] == "malignant") * 1)


def test_decision_function_models_use_ranks(data):
    X_train, _, y_train, _ = data
    svm = make_pipeline(StandardScaler(), LinearSVC(C=0.01))
    clf = ThresholdChoiceClassifier(svm, method="train-optimal", cv=None).fit(X_train, y_train)
    s_train = clf.estimator_.decision_function(X_train)  # the scores it thresholds
    assert clf.threshold(0.3) == _train_optimal_by_hand(y_train, s_train, 0.3)
    with pytest.raises(UserError, match="needs probabilities"):
        ThresholdChoiceClassifier(svm, method="score-driven").fit(X_train, y_train)


def test_score_fixed_predicts_as_scikit_learns_fixed_threshold_classifier(data):
    X_train, X_test, y_train, _ = data
    ours = _fit(data, method="score-fixed", fixed_threshold=0.3)
    theirs = FixedThresholdClassifier(_model(), threshold=0.3).fit(X_train, y_train)
    for c_hat in (0.1, 0.9):  # the cost proportion is ignored
        np.testing.assert_array_equal(ours.predict(X_test, cost_proportion=c_hat),
                                      theirs.predict(X_test))


@pytest.mark.parametrize("method", ["score-fixed", "rate-fixed"])
def test_fixed_methods_error_rate_is_their_expected_loss(data, method):
    # Theorem 5 / Corollary 6 of paper 000: under the uniform belief a fixed threshold's
    # expected loss, at every gamma, is its error rate on the test set
    X_train, X_test, y_train, y_test = data
    clf = _fit(data, method=method, cv=None, **FIXED)
    error = float(np.mean(clf.predict(X_test) != y_test))
    s_train = clf.predict_proba(X_train)[:, 1]
    s_test = clf.predict_proba(X_test)[:, 1]
    # rate-fixed's threshold is the reference (training) scores' attained rate nearest 0.65;
    # on the test scores score-fixed at that threshold makes the same predictions
    t = FIXED["fixed_threshold"] if method == "score-fixed" else _rate_by_hand(s_train, 0.65)
    assert clf.threshold(0.5) == t
    losses = expected_losses(y_test, s_test, train_y=y_train, train_s=s_train,
                             methods=["score-fixed"], gammas=[0.0, 4.0, np.inf],
                             settings={"fixed_threshold": float(t)})
    np.testing.assert_allclose(losses["expected_loss"], error, atol=1e-12)


def test_fixed_threshold_and_rate_outside_zero_one_are_refused(data):
    with pytest.raises(UserError, match="fixed_threshold must be a number in"):
        _fit(data, method="score-fixed", fixed_threshold=1.2)
    with pytest.raises(UserError, match="fixed_rate must be a number in"):
        _fit(data, method="rate-fixed", fixed_rate=-0.1)


@pytest.mark.parametrize("method", ["test-optimal", "score-uniform", "rate-uniform", "nope"])
def test_methods_that_cannot_predict_are_refused_with_the_reason(data, method):
    with pytest.raises(UserError, match="choose from train-optimal"):
        _fit(data, method=method)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"cost_proportion": 1.5}, "cost_proportion must be in"),
        ({"gamma": -1}, "gamma must be"),
        ({"response_method": "predict"}, "response_method must be"),
    ],
)
def test_bad_parameters_are_refused(data, params, message):
    with pytest.raises(UserError, match=message):
        _fit(data, **params)


def test_clones_pickles_and_works_in_a_pipeline(data):
    X_train, X_test, y_train, _ = data
    # the training scores as reference (cv=None): the scaler outside the classifier then
    # sees the same data as inside it
    clf = ThresholdChoiceClassifier(LogisticRegression(C=0.05), method="train-optimal-aware",
                                    gamma=2.0, cv=None)
    pipe = make_pipeline(StandardScaler(), clf).fit(X_train, y_train)
    copy = pickle.loads(pickle.dumps(pipe))
    np.testing.assert_array_equal(copy.predict(X_test), pipe.predict(X_test))
    refit = clone(pipe).fit(X_train, y_train)
    np.testing.assert_array_equal(refit.predict(X_test), pipe.predict(X_test))
    inner = _fit(data, method="train-optimal-aware", gamma=2.0)
    np.testing.assert_array_equal(inner.predict(X_test), pipe.predict(X_test))


@pytest.mark.parametrize("c", [0.1, 0.25, 0.5, 0.7, 0.93])
def test_train_optimal_matches_tuned_threshold_classifier_at_a_known_cost(data, c):
    X_train, X_test, y_train, _ = data
    clf = _fit(data, method="train-optimal", gamma=np.inf)
    s_train = clf.estimator_.predict_proba(X_train)[:, 1]
    # every distinct training line: midpoints, and thresholds below/above all scores
    u = np.unique(s_train)
    candidates = np.concatenate(([u[0] - 1], (u[:-1] + u[1:]) / 2, [u[-1] + 1]))
    tuned = TunedThresholdClassifierCV(
        clf.estimator_, scoring=make_cost_scorer(c), cv="prefit", refit=False,
        thresholds=candidates,
    ).fit(X_train, y_train)
    ours, theirs = clf.threshold(c), tuned.best_threshold_
    loss_ours = cost_loss(y_train, s_train > ours, cost_proportion=c)
    loss_theirs = cost_loss(y_train, s_train >= theirs, cost_proportion=c)
    assert loss_ours == pytest.approx(loss_theirs, abs=1e-12)
    assert -tuned.best_score_ == pytest.approx(loss_ours, abs=1e-12)
    # same line up to ties: equal thresholds unless another line has the same loss
    if np.isfinite(ours):
        assert ours == theirs
    np.testing.assert_array_equal(clf.predict(X_test, cost_proportion=c), tuned.predict(X_test))


def test_the_default_reference_scores_are_out_of_fold(data):
    from sklearn.model_selection import cross_val_predict

    X_train, _, y_train, _ = data
    clf = ThresholdChoiceClassifier(_model(), method="train-optimal").fit(X_train, y_train)
    out_of_fold = cross_val_predict(_model(), X_train, y_train, cv=5, method="predict_proba")
    np.testing.assert_array_equal(clf.train_scores_, out_of_fold[:, 1])
    # the paper's protocol on request
    paper = ThresholdChoiceClassifier(_model(), method="train-optimal", cv=None)
    paper.fit(X_train, y_train)
    np.testing.assert_array_equal(paper.train_scores_,
                                  paper.estimator_.predict_proba(X_train)[:, 1])


def test_too_few_examples_of_a_class_for_5_folds_falls_back_saying_so():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.r_[np.ones(36), np.zeros(4)].astype(int)
    with pytest.warns(UserWarning, match="a class has 4 examples, fewer than 5 folds"):
        clf = ThresholdChoiceClassifier(LogisticRegression(), method="train-optimal").fit(X, y)
    np.testing.assert_array_equal(clf.train_scores_, clf.estimator_.predict_proba(X)[:, 1])


# -- inputs refused in one line -----------------------------------------------------------------


def test_predict_refuses_a_cost_proportion_of_two_dimensions():
    from sklearn.linear_model import LogisticRegression

    from threshold_choice.estimators import ThresholdChoiceClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] + rng.normal(size=60) > 0).astype(int)
    clf = ThresholdChoiceClassifier(LogisticRegression()).fit(X, y)
    assert clf.predict(X[:5], cost_proportion=np.full(5, 0.3)).shape == (5,)
    with pytest.raises(UserError, match=r"one per row \(1-D\), got an array of shape \(5, 1\)"):
        clf.predict(X[:5], cost_proportion=np.full((5, 1), 0.3))


def _xy(n: int = 60):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    return X, (X[:, 0] + rng.normal(size=n) > 0).astype(int)


@pytest.mark.parametrize("cv", [None, 3])
def test_a_pos_label_that_is_no_class_is_named(cv):
    from sklearn.linear_model import LogisticRegression

    from threshold_choice.estimators import ThresholdChoiceClassifier

    X, y = _xy()
    with pytest.raises(UserError, match=r"pos_label 7 is not one of the classes \[0, 1\]"):
        ThresholdChoiceClassifier(LogisticRegression(), pos_label=7, cv=cv).fit(X, y)


@pytest.mark.parametrize("name", ["LinearRegression", "KMeans"])
def test_an_inner_estimator_that_is_not_a_classifier_is_named(name):
    from sklearn.cluster import KMeans
    from sklearn.linear_model import LinearRegression

    from threshold_choice.estimators import ThresholdChoiceClassifier

    inner = {"LinearRegression": LinearRegression(), "KMeans": KMeans(2, n_init=1)}[name]
    X, y = _xy()
    with pytest.raises(UserError, match=f"{name} is not a classifier"):
        ThresholdChoiceClassifier(inner, method="rate-driven").fit(X, y)
