"""Tests of the Weka PART reimplementation (models/part.py).

The decision lists expected here are traced by hand through Frank & Witten's algorithm
as Weka implements it (see each test). An optional oracle test compares with Weka itself
when ``WEKA_JAR`` is set (see tests/reproduction/test_models_trees.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils._param_validation import InvalidParameterError

from tests.reproduction.test_models_trees import compare_with_weka, weka_oracle_available
from threshold_choice.models.part import PART


def _rule_data(extra_missing_row: bool = False) -> tuple[pd.DataFrame, np.ndarray]:
    """a in {x, y, z} (20 each), b in {p, q} alternating; class 1 iff a = x or b = q.
    Optionally one more row (a = y, b missing, class 0)."""
    a = list(np.repeat(["x", "y", "z"], 20))
    b: list[str | None] = list(np.tile(["p", "q"], 30))
    y = [1 if (ai == "x" or bi == "q") else 0 for ai, bi in zip(a, b, strict=True)]
    if extra_missing_row:
        a.append("y")
        b.append(None)
        y.append(0)
    X = pd.DataFrame({"a": pd.Categorical(a, categories=["x", "y", "z"]),
                      "b": pd.Categorical(b, categories=["p", "q"])})
    return X, np.array(y)


def test_decision_list_of_known_rule_structure() -> None:
    # Hand trace. Root (20 of class 0, 40 of class 1): b has gain 0.459 and gain ratio
    # 0.459, a gain 0.252 and ratio 0.159, so the partial tree splits on b. b = q is pure
    # (entropy 0): expanded first, a leaf. b = p (20/10) is expanded next and splits on a
    # into three pure leaves, so the expansion stops there. The rule is the leaf covering
    # the most: b = q (30) against b = p AND a = x (10).
    # Left: 30 rows; a gives pure subsets x (10 of class 1), y, z (10 of class 0 each),
    # all leaves, none pruned; the largest coverage ties at 10: the first, a = x, wins.
    # Left: 20 rows of class 0, a pure node: the default rule.
    X, y = _rule_data()
    model = PART().fit(X, y)
    assert [r.conditions(model.schema_) for r in model.rules_] == [["b = q"], ["a = x"], []]
    assert model.to_text().startswith("b = q: 1 (30)\n\na = x: 1 (10)\n\n: 0 (20)")
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba[:, 1], y)  # every rule is pure


def test_missing_values_in_training_cover_fractionally() -> None:
    # The extra row (a = y, b missing, class 0) goes down both branches of the root split
    # on b with weight 1/2 each: rule 1 "b = q" covers (30 class 1, 0.5 class 0), and
    # the row stays with weight 1/2. Next, a = y covers 10.5 > 10 for a = x and a = z,
    # so it becomes rule 2; then a = x (10), then the default rule (10 of class 0).
    X, y = _rule_data(extra_missing_row=True)
    model = PART().fit(X, y)
    text = model.to_text()
    assert text.startswith("b = q: 1 (30.5/0.5)\n\na = y: 0 (10.5)\n\na = x: 1 (10)\n\n: 0 (10)")
    np.testing.assert_allclose(model.rules_[0].dist, [0.5, 30.0])


def test_missing_values_at_prediction() -> None:
    X, y = _rule_data()
    model = PART().fit(X, y)
    test = pd.DataFrame({"a": pd.Categorical([None, "y"], categories=["x", "y", "z"]),
                         "b": pd.Categorical(["p", None], categories=["p", "q"])})
    proba = model.predict_proba(test)
    # Row 1 (a missing, b = p): rule 1 does not apply; rule 2 (a = x) covers it to the
    # degree 10/30 (weight of a = x in its split): 1/3 * (0, 1); the default rule takes
    # the remaining 2/3 with (1, 0).
    # Row 2 (a = y, b missing): rule 1 covers it to 30/60: 1/2 * (0, 1); rule 2 does not
    # apply; the default rule takes the other half.
    np.testing.assert_allclose(proba, [[2 / 3, 1 / 3], [0.5, 0.5]])


def test_numeric_rules_and_sklearn_basics() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = ((X[:, 0] > 0.3) | (X[:, 1] < -1.0)).astype(int)
    model = clone(PART())
    assert model.get_params() == {"confidence": 0.25, "min_leaf": 2}
    assert model.fit(X, y) is model
    np.testing.assert_array_equal(model.classes_, [0, 1])
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.mean(model.predict(X) == y) > 0.97
    assert 2 <= len(model.rules_) <= 10
    with pytest.raises(NotFittedError):
        PART().predict_proba(X)


@pytest.mark.parametrize("params", [
    {"confidence": -1}, {"confidence": 1}, {"confidence": "high"}, {"min_leaf": "abc"},
    {"min_leaf": 0}, {"min_leaf": 1.5},
])
def test_invalid_parameters_are_refused_at_fit(params: dict) -> None:
    X = np.arange(10.0)[:, None]
    y = np.array([0, 1] * 5)
    with pytest.raises(InvalidParameterError, match=f"'{next(iter(params))}' parameter of PART"):
        PART(**params).fit(X, y)


@pytest.mark.skipif(not weka_oracle_available(), reason="set WEKA_JAR to a weka.jar")
@pytest.mark.parametrize("dataset", ["credit-a", "breast-cancer", "diabetes", "hepatitis", "ozone"])
def test_matches_weka(tmp_path: Path, dataset: str) -> None:
    assert compare_with_weka(tmp_path, dataset, ["weka.classifiers.rules.PART"], PART()) < 1e-9
