"""One vocabulary for classes and costs: named labels are never scored as scikit-learn's
``classes_[1]`` without a word; ``Costs`` (a point, or a range of cost ratios with its belief)
are taken by the scorers, the classifier, the bootstrap; the metrics take
``(y_true, y_score, pos_label=)``; a search over the classifier's own method is meaningful."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import integrate
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score

from threshold_choice import (
    CostLines,
    Costs,
    ThresholdChoiceClassifier,
    auc,
    bootstrap,
    compute_metrics,
    expected_losses,
    h_measure,
    make_cost_scorer,
    make_expected_loss_scorer,
    make_metric_scorer,
    make_threshold_choice_scorer,
    paired_difference,
    parse_cost_distribution,
)
from threshold_choice.errors import UserError
from threshold_choice.scorers import _aware_at_another_gamma


@pytest.fixture(scope="module")
def credit():
    """Credit-g-like: 'bad' the 30% positive class, named labels (sorted: 'bad' < 'good', so
    scikit-learn's classes_[1] is the wrong one)."""
    X, y = make_classification(n_samples=600, n_features=8, n_informative=4, weights=[0.7],
                               flip_y=0.1, random_state=3)
    return X, np.where(y == 1, "bad", "good")


# -- 1. no silent classes_[1] --------------------------------------------------------------


@pytest.mark.parametrize("scorer", [make_expected_loss_scorer("score-driven", gamma=4),
                                    make_metric_scorer("BS"), make_cost_scorer(0.2)],
                         ids=["expected-loss", "metric", "cost"])
def test_a_grid_search_with_named_labels_and_no_positive_class_is_refused(credit, scorer):
    X, y = credit
    search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, scoring=scorer, cv=3,
                          error_score="raise")
    with pytest.raises(UserError, match=r"give pos_label=.*'good', the last sorted"):
        search.fit(X, y)


def test_with_pos_label_the_scorer_scores_the_named_class(credit):
    X, y = credit
    model = LogisticRegression().fit(X[:300], y[:300])
    bad = list(model.classes_).index("bad")
    belief = {"cost_distribution": "beta:2,8"}  # c near 0.2: (the uniform is symmetric)
    score = make_expected_loss_scorer("score-driven", gamma=4, pos_label="bad", **belief)(
        model, X[300:], y[300:])
    expected = expected_losses(y[300:] == "bad", model.predict_proba(X[300:])[:, bad],
                               methods="score-driven", gammas=4,
                               settings=belief)["expected_loss"].iloc[0]
    assert score == pytest.approx(-expected, rel=1e-12)
    other = make_expected_loss_scorer("score-driven", gamma=4, pos_label="good", **belief)(
        model, X[300:], y[300:])
    assert other != pytest.approx(score, rel=1e-2)  # the class matters


# -- 2. the classifier's own method ---------------------------------------------------------


def test_a_search_over_method_scores_each_candidate_by_its_own_method(credit):
    X, y = credit
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    methods = ["score-driven", "score-fixed", "rate-driven", "train-optimal"]
    base = ThresholdChoiceClassifier(LogisticRegression(), pos_label="bad", cv=None)
    search = GridSearchCV(base, {"method": methods}, cv=cv,
                          scoring=make_threshold_choice_scorer(gamma=4)).fit(X, y)
    got = search.cv_results_["mean_test_score"]
    for i, method in enumerate(methods):
        # the same as the one-method scorer of each method, fold by fold
        one = cross_val_score(base.set_params(method=method), X, y, cv=cv,
                              scoring=make_expected_loss_scorer(method, gamma=4))
        assert got[i] == pytest.approx(one.mean(), rel=1e-12)
    assert len(set(np.round(got, 10))) == len(methods)


def test_the_scorer_takes_the_classifiers_belief_and_fixed_threshold(credit):
    X, y = credit
    costs = Costs.from_ratio_range(3, 10, pos_label="bad")
    clf = ThresholdChoiceClassifier(LogisticRegression(), method="score-fixed",
                                    cost_proportion=costs, cv=None).fit(X[:300], y[:300])
    score = make_threshold_choice_scorer(gamma=4)(clf, X[300:], y[300:])
    bad = list(clf.classes_).index("bad")
    by_hand = expected_losses(
        y[300:] == "bad", clf.predict_proba(X[300:])[:, bad], methods="score-fixed", gammas=4,
        settings={"cost_distribution": costs.belief,
                  "fixed_threshold": costs.belief.mean})["expected_loss"].iloc[0]
    assert score == pytest.approx(-by_hand, rel=1e-12)
    # with the costs given to the scorer: the same, in their units
    in_units = make_threshold_choice_scorer(gamma=4, costs=costs)(clf, X[300:], y[300:])
    assert in_units == pytest.approx(-by_hand * costs.scale, rel=1e-12)


def test_an_aware_method_scored_at_another_certainty_matches_the_engine_at_its_own(credit):
    X, y = credit
    clf = ThresholdChoiceClassifier(LogisticRegression(), method="score-driven-aware", gamma=4,
                                    pos_label="bad", cv=None).fit(X[:300], y[:300])
    scorer = make_threshold_choice_scorer(gamma=None)  # the classifier's own gamma: the engine
    engine = -scorer(clf, X[300:], y[300:])
    bad = list(clf.classes_).index("bad")
    y01, s = (y[300:] == "bad").astype(int), clf.predict_proba(X[300:])[:, bad]
    _, _, settings = scorer.evaluation(clf)
    assert _aware_at_another_gamma("score-driven-aware", 4.0, 4.0, y01, s, clf,
                                   settings) == pytest.approx(engine, rel=1e-10)
    # assuming gamma = 4 when c_hat is exact costs more than knowing it is
    at_inf = -make_threshold_choice_scorer(gamma=math.inf)(clf, X[300:], y[300:])
    plain = expected_losses(y01, s, methods="score-driven", gammas=math.inf)
    assert at_inf >= plain["expected_loss"].iloc[0] - 1e-12


def test_the_threshold_choice_scorer_refuses_a_plain_model(credit):
    X, y = credit
    model = LogisticRegression().fit(X, y)
    with pytest.raises(UserError, match="fitted ThresholdChoiceClassifier"):
        make_threshold_choice_scorer()(model, X, y)


# -- 3. costs stated once ------------------------------------------------------------------


def test_a_ratio_range_is_a_log_uniform_ratio_between_its_ends_and_c_its_mean():
    costs = Costs.from_ratio_range(3, 10, false_positive=2, pos_label="bad", units="EUR")
    w = costs.belief
    assert w.support == pytest.approx((1 / 11, 1 / 4))
    assert float(w.cdf(1 / 11)) == pytest.approx(0.0, abs=1e-12)
    assert float(w.cdf(1 / 4)) == pytest.approx(1.0, abs=1e-12)
    # every ratio equally likely on a log scale: the median ratio is the geometric mean
    assert float(w.cdf(1 / (1 + math.sqrt(30)))) == pytest.approx(0.5, abs=1e-9)
    mean, _ = integrate.quad(lambda c: c * float(w.pdf(c)), 1 / 11, 1 / 4)
    assert costs.cost_proportion == pytest.approx(mean, rel=1e-9)
    assert costs.false_positive == 2.0 and costs.pos_label == "bad"
    with pytest.raises(UserError, match="0 < low < high"):
        Costs.from_ratio_range(10, 3)


def test_the_classifier_takes_a_belief_as_its_cost_proportion(credit):
    X, y = credit
    belief = parse_cost_distribution("beta:4,16")
    clf = ThresholdChoiceClassifier(LogisticRegression(), cost_proportion=belief,
                                    pos_label="bad", cv=None).fit(X[:300], y[:300])
    np.testing.assert_array_equal(clf.predict(X[300:]),
                                  clf.predict(X[300:], cost_proportion=belief.mean))
    # an aware method's posterior mean takes the belief as its prior
    aware = {w: ThresholdChoiceClassifier(LogisticRegression(), method="score-driven-aware",
                                          gamma=4, cost_proportion=w, pos_label="bad",
                                          cv=None).fit(X[:300], y[:300]).threshold(0.2)
             for w in (belief, 0.2)}
    assert aware[belief] != pytest.approx(aware[0.2], abs=1e-6)


def test_the_bootstrap_takes_named_labels_and_gives_costs_in_their_units(credit):
    X, y = credit
    model = LogisticRegression().fit(X[:300], y[:300])
    s = model.predict_proba(X[300:])[:, list(model.classes_).index("bad")]
    kw = dict(methods=["score-driven"], gammas=[4.0], metrics=["AUC"], n_boot=50)
    named = bootstrap(y[300:], s, pos_label="bad", **kw)
    zero_one = bootstrap((y[300:] == "bad").astype(int), s, **kw)
    np.testing.assert_array_equal(named.replicates, zero_one.replicates)
    costs = Costs.from_ratio_range(3, 10, pos_label="bad", units="EUR")
    frame = bootstrap(y[300:], s, costs=costs, **kw).intervals()
    loss = expected_losses(y[300:], s, pos_label="bad", methods="score-driven", gammas=4,
                           settings={"cost_distribution": costs.belief})["expected_loss"]
    assert frame["expected_loss"].iloc[0] == pytest.approx(loss.iloc[0], rel=1e-12)
    for cost, loss_col in [("expected_cost", "expected_loss"), ("cost_lower", "lower"),
                           ("cost_upper", "upper")]:
        assert frame[cost].iloc[0] == pytest.approx(frame[loss_col].iloc[0] * costs.scale)
    with pytest.raises(UserError, match="costs call 'bad' positive"):
        bootstrap(y[300:], s, costs=costs, pos_label="good", **kw)
    # differences in units: between two methods, and between two models on the same resamples
    two = {**kw, "methods": ["score-driven", "score-fixed"]}
    boot = bootstrap(y[300:], s, costs=costs, **two)
    diff = boot.difference("score-driven", "score-fixed")
    assert np.allclose(diff["cost_difference"], diff["difference"] * costs.scale)
    other = bootstrap(y[300:], np.clip(s + 0.05, 0, 1), costs=costs, **two)
    losses, _ = paired_difference(boot, other)
    assert np.allclose(losses["cost_lower"], losses["lower"] * costs.scale)


def test_the_metrics_take_labels_scores_and_a_positive_class_as_scikit_learns(credit):
    X, y = credit
    model = LogisticRegression().fit(X[:300], y[:300])
    s = pd.Series(model.predict_proba(X[300:])[:, list(model.classes_).index("bad")])
    y01 = pd.Series((y[300:] == "bad").astype(int))
    lines = CostLines.from_scores(y01, s)
    assert h_measure(y01, s) == h_measure(lines)
    assert h_measure(pd.Series(y[300:]), s, pos_label="bad") == h_measure(lines)
    assert h_measure(lines, 2, 3) == h_measure(lines, a=2, b=3)  # the old positional form
    assert auc(y[300:], s, pos_label="bad") == auc(lines)
    assert compute_metrics(y[300:], s, pos_label="bad") == compute_metrics(y01, s)
    with pytest.raises(UserError, match="pos_label"):
        h_measure(y[300:], s)


def test_every_scorer_takes_the_costs_under_the_name_costs(credit):
    X, y = credit
    model = LogisticRegression().fit(X[:300], y[:300])
    costs = Costs.from_ratio_range(3, 10, pos_label="bad", units="EUR")
    assert make_cost_scorer(costs=costs)(model, X[300:], y[300:]) == make_cost_scorer(costs)(
        model, X[300:], y[300:])
    # the expected-loss scorer averages over the costs' belief, in their units
    score = make_expected_loss_scorer("score-driven", gamma=4, costs=costs)(
        model, X[300:], y[300:])
    bad = list(model.classes_).index("bad")
    loss = expected_losses(y[300:], model.predict_proba(X[300:])[:, bad], pos_label="bad",
                           methods="score-driven", gammas=4,
                           settings={"cost_distribution": costs.belief})["expected_loss"]
    assert score == pytest.approx(-loss.iloc[0] * costs.scale, rel=1e-12)
    with pytest.raises(UserError, match="give one belief"):
        make_expected_loss_scorer("score-driven", costs=costs, cost_distribution="beta:2,2")
    with pytest.raises(UserError, match="one of them"):
        make_cost_scorer(0.2, costs=costs)


@pytest.mark.parametrize("method, option", [("score-fixed", "fixed_threshold"),
                                            ("rate-fixed", "fixed_rate")])
def test_the_scorer_takes_the_classifiers_own_fixed_threshold_or_rate(credit, method, option):
    X, y = credit
    clf = ThresholdChoiceClassifier(LogisticRegression(), method=method, pos_label="bad",
                                    cv=None, **{option: 0.3}).fit(X[:300], y[:300])
    score = make_threshold_choice_scorer(gamma=4, cost_distribution="beta:2,8")(
        clf, X[300:], y[300:])
    bad = list(clf.classes_).index("bad")
    by_hand = expected_losses(
        y[300:] == "bad", clf.predict_proba(X[300:])[:, bad], methods=method, gammas=4,
        settings={"cost_distribution": "beta:2,8", option: 0.3})["expected_loss"].iloc[0]
    assert score == pytest.approx(-by_hand, rel=1e-12)
