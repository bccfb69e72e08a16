"""The library as strict as the workflow and as lenient as scikit-learn: ``sample_weight=None``
accepted (``VotingClassifier`` passes it), other weights refused; empty or duplicated method
and gamma lists refused; ``True`` is not a gamma. And numbers that keep their precision:
``Costs`` of two huge costs keeps their ratio."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.ensemble import VotingClassifier
from sklearn.linear_model import LogisticRegression

from tests.conftest import random_scores
from threshold_choice import Costs, ThresholdChoiceClassifier, expected_losses
from threshold_choice.errors import UserError
from threshold_choice.uncertainty import parse_gamma


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] + rng.normal(scale=0.5, size=120) > 0).astype(int)
    return X, y


def test_fit_takes_sample_weight_none_as_no_weights():
    X, y = _data()
    clf = ThresholdChoiceClassifier(LogisticRegression(), method="score-driven")
    plain = clf.fit(X, y).predict(X)
    assert np.array_equal(clf.fit(X, y, sample_weight=None).predict(X), plain)


def test_a_voting_classifier_of_threshold_choice_classifiers_fits():
    X, y = _data()
    voting = VotingClassifier([
        ("score", ThresholdChoiceClassifier(LogisticRegression(), method="score-driven")),
        ("rate", ThresholdChoiceClassifier(LogisticRegression(), method="rate-driven")),
    ]).fit(X, y)
    assert voting.predict(X).shape == y.shape


def test_actual_sample_weights_are_still_refused_clearly():
    X, y = _data()
    clf = ThresholdChoiceClassifier(LogisticRegression(), method="score-driven")
    with pytest.raises(UserError, match="sample_weight is not supported"):
        clf.fit(X, y, sample_weight=np.ones(len(y)))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"methods": []}, "methods is empty"),
    ({"gammas": []}, "gammas is empty"),
    ({"methods": ["score-driven", "score-driven"]}, "methods lists score-driven more than once"),
    ({"gammas": [4, 4.0]}, "gammas lists 4.0 more than once"),
    ({"gammas": [math.inf, "Inf"]}, "gammas lists inf more than once"),
])
def test_empty_or_duplicated_methods_and_gammas_are_refused_as_the_workflow_does(kwargs,
                                                                               message):
    y, s = random_scores(0, 50)
    with pytest.raises(UserError, match=message):
        expected_losses(y, s, **{"methods": ["score-driven"], "gammas": [math.inf], **kwargs})


@pytest.mark.parametrize("value", [True, False, np.bool_(True)])
def test_a_boolean_is_not_a_gamma(value):
    with pytest.raises(UserError, match="gamma must be a number"):
        parse_gamma(value)
    y, s = random_scores(0, 50)
    with pytest.raises(UserError, match="gamma must be a number"):
        expected_losses(y, s, methods="score-driven", gammas=[value])


@pytest.mark.parametrize(("fp", "fn", "c"), [
    (1e308, 1e308, 0.5), (1e308, 2.5e307, 0.8), (1.7e308, 1.7e308, 0.5), (1.0, 4.0, 0.2)])
def test_huge_costs_keep_their_ratio(fp, fn, c):
    costs = Costs(fp, fn)
    assert costs.cost_proportion == pytest.approx(c, rel=1e-15)
    assert math.isfinite(costs.scale) and costs.scale == pytest.approx(fp / 2 + fn / 2)
    assert math.isfinite(costs.in_units(0.5))
