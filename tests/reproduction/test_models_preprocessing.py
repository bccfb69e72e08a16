"""Shared pieces of models/preprocessing.py: TabularEncoder's parameter validation and the
tie-breaking of WekaLikeClassifier.predict (the class declared first, class 0 without a
class_order parameter)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from threshold_choice.models.preprocessing import ClassOrder, TabularEncoder, WekaLikeClassifier


@pytest.mark.parametrize("params", [{"one_hot": "yes"}, {"scale": "log"}, {"impute": "median"}])
def test_tabular_encoder_refuses_bad_parameters(params: dict) -> None:
    X = pd.DataFrame({"a": [1.0, 2.0]})
    with pytest.raises(InvalidParameterError, match=f"'{next(iter(params))}' parameter"):
        TabularEncoder(**params).fit(X)


class _Fixed(WekaLikeClassifier):
    """Returns the given probabilities; ``class_order`` only if given."""

    def __init__(self, proba: np.ndarray) -> None:
        self.proba = proba

    def fit(self, X: pd.DataFrame, y: np.ndarray) -> _Fixed:
        self._fit_input(X, y)
        return self

    def predict_proba(self, X: pd.DataFrame) -> np.ndarray:
        return self.proba


def test_predict_breaks_exact_ties_towards_the_first_declared_class() -> None:
    proba = np.array([[0.5, 0.5], [0.6, 0.4], [0.4, 0.6]])
    X = pd.DataFrame({"a": [0.0, 1.0, 2.0]})
    y = np.array([0, 1, 0])
    model = _Fixed(proba).fit(X, y)
    np.testing.assert_array_equal(model.predict(X), [0, 0, 1])  # no class_order: class 0
    model.class_order = (1, 0)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(model.predict(X), [1, 0, 1])


@pytest.mark.parametrize(("value", "ok"), [
    ((0, 1), True), ((1, 0), True), ([1, 0], True), ((np.int64(1), np.int64(0)), True),
    ((1, 1), False), ((True, False), False), ((0.0, 1.0), False), ("01", False),
    ((0, 1, 2), False), (None, False),
])
def test_class_order_constraint(value: object, ok: bool) -> None:
    assert ClassOrder().is_satisfied_by(value) is ok
