"""The two baselines of the paper's Table 6: *Prior* ("Major" in the authors' code) and
*Random*. Neither looks at the features; both accept any DataFrame."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from threshold_choice.errors import UserError

__all__ = ["PriorScorer", "RandomScorer"]


def _labels(y: Any, n_rows: int, model: str) -> NDArray[np.int64]:
    arr = np.asarray(y)
    if arr.ndim != 1 or arr.shape[0] != n_rows or n_rows == 0:
        raise UserError(f"{model}: y must be 1-D, non-empty, one label per row of X.")
    if not np.all(np.isin(arr, (0, 1))):
        raise UserError(f"{model}: y must hold ints in {{0, 1}} (1 = majority class).")
    return arr.astype(np.int64)


class PriorScorer(ClassifierMixin, BaseEstimator):
    """Constant score: the proportion of class 1 among the training rows plus ``offset``
    (0.001, as the authors' code), capped at 1.

    The authors computed the proportion on the whole training part, including rows with
    missing values: register it with ``drop_missing_train: false`` so that ``fit`` receives
    them (it ignores the features).
    """

    def __init__(self, offset: float = 0.001) -> None:
        self.offset = offset

    def _validate_params(self) -> None:
        if not (isinstance(self.offset, (int, float)) and 0 <= self.offset <= 1):
            raise ValueError(f"offset must be a number in [0, 1], got {self.offset!r}")

    def fit(self, X: pd.DataFrame, y: Any) -> PriorScorer:
        self._validate_params()
        t = _labels(y, len(X), "PriorScorer")
        self.classes_ = np.array([0, 1], dtype=np.int64)
        self.prior_ = float(t.mean())
        self.score_ = min(1.0, self.prior_ + float(self.offset))
        return self

    def predict_proba(self, X: pd.DataFrame) -> NDArray[np.float64]:
        check_is_fitted(self, "score_")
        p1 = np.full(len(X), self.score_)
        return np.column_stack([1.0 - p1, p1])

    def predict(self, X: pd.DataFrame) -> NDArray[np.int64]:
        return np.full(len(X), 1 if self.score_ > 0.5 else 0, dtype=np.int64)


class RandomScorer(ClassifierMixin, BaseEstimator):
    """Score drawn uniformly from [0, 1) for every row, independently of the features.

    ``fit`` starts a ``numpy.random.default_rng(random_state)`` stream; each ``predict_proba``
    call draws the next ``len(X)`` values from it. So for a given ``random_state`` the
    sequence fit -> predict_proba(A) -> predict_proba(B) always gives the same scores
    (the scores producer predicts the training part first, then the test part), while the two
    calls get different draws. ``random_state=None`` draws fresh entropy (not reproducible).
    The authors used R's ``runif`` stream; its values are not reproduced.
    """

    def __init__(self, random_state: int | None = None) -> None:
        self.random_state = random_state

    def _validate_params(self) -> None:
        rs = self.random_state
        if rs is not None and not (isinstance(rs, (int, np.integer)) and rs >= 0):
            raise ValueError(f"random_state must be None or an int >= 0, got {rs!r}")

    def fit(self, X: pd.DataFrame, y: Any) -> RandomScorer:
        self._validate_params()
        _labels(y, len(X), "RandomScorer")
        self.classes_ = np.array([0, 1], dtype=np.int64)
        self.rng_ = np.random.default_rng(self.random_state)
        return self

    def predict_proba(self, X: pd.DataFrame) -> NDArray[np.float64]:
        check_is_fitted(self, "rng_")
        p1 = self.rng_.random(len(X))
        return np.column_stack([1.0 - p1, p1])

    def predict(self, X: pd.DataFrame) -> NDArray[np.int64]:
        return (self.predict_proba(X)[:, 1] > 0.5).astype(np.int64)
