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

__all__ = ["AUTHORS_RANDOM_SKIP", "PriorScorer", "RStreamRandomScorer", "RandomScorer"]

#: Uniforms the authors' script drew from R's stream between a split and its Random model
#: in the gamma = inf run: 11 models before Random x 1000 grid points x 2 draws (score-uniform's
#: ``runif(1)`` and rate-uniform's ``sample(1:(n + 1), 1)``, one uniform each in R 3.5).
AUTHORS_RANDOM_SKIP = 11 * 1000 * 2


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
    The authors' values come from R's ``runif`` stream: :class:`RStreamRandomScorer`.
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


class RStreamRandomScorer(ClassifierMixin, BaseEstimator):
    """The authors' Random model: scores from R's ``runif`` stream, exactly as their script drew
    them (``experiments_binomial_v72.R`` of ``ceferra/ThresholdChoiceMethods``).

    Per iteration their script called ``set.seed(i)``, drew the split (``sample``,
    ``createDataPartition``), then fitted and evaluated the models in a fixed order; the
    evaluations drew from the same stream (``skip`` uniforms in all before Random at
    gamma = inf, :data:`AUTHORS_RANDOM_SKIP`); Random then took ``runif(n_train)`` for the
    training part and ``runif(n_test)`` for the test part. So ``random_state`` must be R's
    stream right after the split (an :class:`~threshold_choice.splits.rng_r.RMersenneTwister`,
    from :func:`~threshold_choice.splits.r_streams_after_splits`; the workflow's score step
    passes it when the splits are the R splitter's). ``fit`` skips ``skip`` uniforms; each
    ``predict_proba`` call then draws the next ``len(X)``: predict the training part first,
    then the test part, as the authors did.

    Only the gamma = inf run is reproduced: at finite gamma the authors' script also drew
    ``c_hat`` for every grid point (``rbeta`` takes a variable number of uniforms), so their
    Random scores differed from gamma to gamma.
    """

    #: the workflow's score step passes R's stream after each split as ``random_state``
    needs_r_stream = True

    def __init__(self, skip: int = AUTHORS_RANDOM_SKIP, random_state: Any = None) -> None:
        self.skip = skip
        self.random_state = random_state

    def _validate_params(self) -> None:
        skip = self.skip
        if isinstance(skip, bool) or not isinstance(skip, (int, np.integer)) or skip < 0:
            raise ValueError(f"skip must be an int >= 0, got {skip!r}")

    def fit(self, X: pd.DataFrame, y: Any) -> RStreamRandomScorer:
        from threshold_choice.splits.rng_r import RMersenneTwister

        self._validate_params()
        if not isinstance(self.random_state, RMersenneTwister):
            raise UserError(
                "RStreamRandomScorer needs R's random stream after its split as random_state "
                f"(got {self.random_state!r}): run it with the authors' splits "
                "(splits.splitter: r), whose score step passes the stream, or pass "
                "threshold_choice.splits.r_streams_after_splits(...)[iteration]."
            )
        _labels(y, len(X), "RStreamRandomScorer")
        self.classes_ = np.array([0, 1], dtype=np.int64)
        self.rng_ = self.random_state
        if self.skip:
            self.rng_.unif_rand(int(self.skip))
        return self

    def predict_proba(self, X: pd.DataFrame) -> NDArray[np.float64]:
        check_is_fitted(self, "rng_")
        p1 = self.rng_.unif_rand(len(X)) if len(X) else np.empty(0)
        return np.column_stack([1.0 - p1, p1])

    def predict(self, X: pd.DataFrame) -> NDArray[np.int64]:
        return (self.predict_proba(X)[:, 1] > 0.5).astype(np.int64)
