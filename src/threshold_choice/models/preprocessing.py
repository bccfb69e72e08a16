"""Input conventions shared by the Weka-like models, Weka's attribute filters, and the generic
encoder the registry puts in front of user-added scikit-learn estimators.

Input conventions (project-wide)
--------------------------------
* ``X`` is a pandas DataFrame: nominal features are ``Categorical`` with their categories in
  the declared (ARFF header) order, numeric features are numbers (cast to float64); missing
  values are NaN / missing categories. Any other column type is refused with a
  :class:`~threshold_choice.errors.UserError`.
* ``y`` holds ints in {0, 1} (class 1 = the majority class of the whole dataset); the score
  of a model is ``predict_proba(X)[:, 1]``.

Internally a frame becomes Weka's own representation of instances: one float64 matrix whose
numeric columns hold the values and whose nominal columns hold the category index (0-based,
as a float), NaN for a missing value (:func:`frame_to_matrix`).

The Weka filters here (:class:`WekaAttributeEncoder`) follow
``weka.filters.unsupervised.attribute.ReplaceMissingValues``, ``RemoveUseless``,
``NominalToBinary`` and ``Normalize`` with their default options.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral
from typing import Any, ClassVar, Literal

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin, _fit_context
from sklearn.utils._param_validation import Options, StrOptions
from sklearn.utils.validation import check_is_fitted

from threshold_choice._typing import FloatArray
from threshold_choice.errors import UserError

ScaleKind = Literal["none", "minmax", "standard"]
ImputeKind = Literal["none", "mean", "most_frequent"]


@dataclass(frozen=True)
class FrameSchema:
    """Column names, which are nominal, and the declared categories of the nominal ones."""

    names: tuple[str, ...]
    categories: tuple[tuple[Any, ...] | None, ...]  # None for a numeric column

    @property
    def nominal(self) -> NDArray[np.bool_]:
        return np.array([c is not None for c in self.categories], dtype=bool)

    @property
    def n_values(self) -> NDArray[np.int64]:
        """Number of declared categories per column (0 for numeric columns)."""
        return np.array([0 if c is None else len(c) for c in self.categories], dtype=np.int64)


def frame_schema(X: pd.DataFrame) -> FrameSchema:
    """Schema of ``X``; refuses anything that is not numeric or Categorical."""
    if not isinstance(X, pd.DataFrame):
        raise UserError(
            f"expected the features as a pandas DataFrame, got {type(X).__name__}. Pass the "
            "table's feature columns (nominal as Categorical, numeric as float64)."
        )
    cats: list[tuple[Any, ...] | None] = []
    # X.dtypes and .tolist(): one frame-level call and one bulk conversion per column
    # (this runs at every fit and predict)
    for name, dtype in X.dtypes.items():
        if isinstance(dtype, pd.CategoricalDtype):
            cats.append(tuple(dtype.categories.tolist()))
        elif pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype):
            cats.append(None)
        else:
            raise UserError(
                f"feature column {name!r} has dtype {dtype}; nominal features must be pandas "
                "Categorical (categories in declared order) and numeric ones float64. Convert it."
            )
    return FrameSchema(tuple(str(c) for c in X.columns), tuple(cats))


def check_same_schema(X: pd.DataFrame, fitted: FrameSchema, model: str) -> None:
    """Refuse prediction frames whose columns or categories differ from the training ones."""
    schema = frame_schema(X)
    if schema != fitted:
        raise UserError(
            f"{model}: the features to predict do not match the training features (columns, "
            "their order, nominal/numeric kinds or declared categories differ). Predict on "
            "frames with the training frame's columns and dtypes."
        )


def frame_to_matrix(X: pd.DataFrame, schema: FrameSchema) -> FloatArray:
    """Weka's instance matrix: numeric values, or category indices for nominal columns; NaN
    for missing values. Shape ``(len(X), n_columns)``, C-contiguous float64."""
    out = np.empty((len(X), len(schema.names)), dtype=np.float64)
    # column arrays from .items() (cheaper than X[name], which runs at every fit and predict)
    for j, ((_, col), cats) in enumerate(zip(X.items(), schema.categories, strict=True)):
        if cats is None:
            out[:, j] = col.to_numpy(dtype=np.float64, na_value=np.nan)
        else:
            codes = np.asarray(col.array.codes, dtype=np.int64)
            out[:, j] = np.where(codes < 0, np.nan, codes.astype(np.float64))
    return out


def check_binary_target(y: Any, n_rows: int, model: str) -> NDArray[np.int64]:
    """``y`` as int64 in {0, 1} with both classes present."""
    arr = np.asarray(y)
    if arr.ndim != 1 or arr.shape[0] != n_rows:
        raise UserError(f"{model}: y must be 1-D with one label per row of X ({n_rows} rows).")
    if not np.all(np.isin(arr, (0, 1))):
        raise UserError(f"{model}: y must hold ints in {{0, 1}} (1 = majority class).")
    out = arr.astype(np.int64)
    if np.unique(out).size < 2:
        raise UserError(
            f"{model}: the training data hold one class only ({int(out[0]) if out.size else '-'}); "
            "a classifier needs both classes. Use a larger training part."
        )
    return out


# ---------------------------------------------------------------------------
# Weka's filters
# ---------------------------------------------------------------------------


class WekaAttributeEncoder:
    """``ReplaceMissingValues`` -> (optionally) ``RemoveUseless`` -> ``NominalToBinary``
    -> (optionally) ``Normalize``, fitted on training data, as Weka's Logistic and SMO chain
    them.

    * ReplaceMissingValues: numeric -> training mean of the non-missing values (0 if none),
      nominal -> training mode (first most frequent category in declared order).
    * RemoveUseless (Logistic only): after imputation, drop columns with fewer than two
      distinct values and nominal columns whose distinct-value count exceeds 99 % of the rows.
    * NominalToBinary (defaults): a nominal column with at most two declared values becomes
      one 0/1 column (its value index); one with k > 2 values becomes k indicator columns.
    * Normalize (SMO only): every resulting column mapped by the training min/max to [0, 1]
      (not clipped at prediction); a constant column becomes 0.
    """

    def __init__(self, *, remove_useless: bool, normalize: bool,
                 max_variance_percent: float = 99.0) -> None:
        self.remove_useless = remove_useless
        self.normalize = normalize
        self.max_variance_percent = max_variance_percent

    def fit(self, V: FloatArray, schema: FrameSchema) -> WekaAttributeEncoder:
        nominal, n_values = schema.nominal, schema.n_values
        fill = np.zeros(V.shape[1])
        for j in range(V.shape[1]):
            col = V[:, j]
            known = col[~np.isnan(col)]
            if nominal[j]:
                counts = np.bincount(known.astype(np.int64), minlength=max(int(n_values[j]), 1))
                fill[j] = float(np.argmax(counts))  # argmax: first maximum, as Utils.maxIndex
            elif known.size:
                fill[j] = known.sum() / known.size
        self.fill_ = fill
        filled = self._impute(V)
        keep = np.ones(V.shape[1], dtype=bool)
        if self.remove_useless:
            n = V.shape[0]
            for j in range(V.shape[1]):
                distinct = np.unique(filled[:, j]).size
                if distinct < 2 or (
                    nominal[j] and n and distinct / n * 100.0 > self.max_variance_percent
                ):
                    keep[j] = False
        self.keep_ = keep
        self.nominal_ = nominal
        self.n_values_ = n_values
        Z = self._binarize(filled)
        if self.normalize:
            lo, hi = Z.min(axis=0), Z.max(axis=0)
            self.min_, self.width_ = lo, hi - lo
        return self

    def _impute(self, V: FloatArray) -> FloatArray:
        return np.where(np.isnan(V), self.fill_[None, :], V)

    def _binarize(self, filled: FloatArray) -> FloatArray:
        cols: list[FloatArray] = []
        for j in np.flatnonzero(self.keep_):
            col = filled[:, j]
            if self.nominal_[j] and self.n_values_[j] > 2:
                cols.extend((col == v).astype(np.float64) for v in range(self.n_values_[j]))
            else:
                cols.append(col)
        if not cols:
            return np.zeros((filled.shape[0], 0))
        return np.column_stack(cols)

    def transform(self, V: FloatArray) -> FloatArray:
        Z = self._binarize(self._impute(V))
        if self.normalize:
            safe = np.where(self.width_ > 0, self.width_, 1.0)
            Z = np.where(self.width_ > 0, (Z - self.min_) / safe, 0.0)
        return Z


# ---------------------------------------------------------------------------
# Generic encoder for user-added scikit-learn estimators
# ---------------------------------------------------------------------------


class TabularEncoder(TransformerMixin, BaseEstimator):
    """Turns the project's DataFrame into a float64 array for estimators that need numbers.

    Parameters
    ----------
    one_hot:
        ``True``: a nominal column becomes one 0/1 column per declared category (a missing or
        unseen value gives all zeros, unless imputed). ``False``: it becomes its category
        index as a float (NaN if missing and not imputed).
    scale:
        ``"none"``, ``"minmax"`` (training min/max to [0, 1]; constant columns -> 0) or
        ``"standard"`` (training mean and population sd; constant columns -> 0). Applied to
        the numeric columns only (one-hot/index columns are left as they are).
    impute:
        ``"none"`` (NaN stays NaN), ``"mean"`` (numeric: training mean; nominal: training
        mode) or ``"most_frequent"`` (numeric and nominal: training mode; ties -> smallest
        value / first category).

    Statistics are computed on the rows given to ``fit``; output column order: the features
    in frame order, a nominal one expanded in place when one-hot encoded. Invalid parameter
    values raise scikit-learn's ``InvalidParameterError`` in ``fit``.
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        "one_hot": ["boolean"],
        "scale": [StrOptions({"none", "minmax", "standard"})],
        "impute": [StrOptions({"none", "mean", "most_frequent"})],
    }

    def __init__(self, one_hot: bool = False, scale: ScaleKind = "none",
                 impute: ImputeKind = "none") -> None:
        self.one_hot = one_hot
        self.scale = scale
        self.impute = impute

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: pd.DataFrame, y: Any = None) -> TabularEncoder:
        self.schema_ = frame_schema(X)
        V = frame_to_matrix(X, self.schema_)
        nominal = self.schema_.nominal
        fill = np.full(V.shape[1], np.nan)
        if self.impute != "none":
            for j in range(V.shape[1]):
                known = V[~np.isnan(V[:, j]), j]
                if not known.size:
                    fill[j] = 0.0
                elif nominal[j] or self.impute == "most_frequent":
                    values, counts = np.unique(known, return_counts=True)
                    fill[j] = values[np.argmax(counts)]
                else:
                    fill[j] = known.mean()
        self.fill_ = fill
        V = self._impute(V)
        with np.errstate(all="ignore"):
            if self.scale == "minmax":
                self.center_ = np.nanmin(V, axis=0) if V.size else np.zeros(V.shape[1])
                self.spread_ = (np.nanmax(V, axis=0) if V.size else self.center_) - self.center_
            elif self.scale == "standard":
                self.center_ = np.nanmean(V, axis=0) if V.size else np.zeros(V.shape[1])
                self.spread_ = np.nanstd(V, axis=0) if V.size else np.zeros(V.shape[1])
        self.n_features_in_ = V.shape[1]
        self.feature_names_in_ = np.array(self.schema_.names, dtype=object)
        return self

    def _impute(self, V: FloatArray) -> FloatArray:
        if self.impute == "none":
            return V
        return np.where(np.isnan(V), self.fill_[None, :], V)

    def transform(self, X: pd.DataFrame) -> FloatArray:
        check_same_schema(X, self.schema_, "TabularEncoder")
        V = self._impute(frame_to_matrix(X, self.schema_))
        nominal = self.schema_.nominal
        if self.scale != "none":
            spread = np.nan_to_num(self.spread_, nan=0.0)
            ok = (spread > 0) & ~nominal
            safe = np.where(ok, spread, 1.0)
            scaled = np.where(ok, (V - self.center_) / safe, 0.0)
            scaled = np.where(np.isnan(V), np.nan, scaled)
            V = np.where(nominal, V, scaled)
        cols: list[FloatArray] = []
        for j, cats in enumerate(self.schema_.categories):
            if cats is not None and self.one_hot:
                cols.extend((V[:, j] == k).astype(np.float64) for k in range(len(cats)))
            else:
                cols.append(V[:, j])
        if not cols:
            return np.zeros((len(X), 0))
        return np.column_stack(cols)


# ---------------------------------------------------------------------------
# Common base of the Weka-like classifiers
# ---------------------------------------------------------------------------


class ClassOrder(Options):
    """Parameter constraint of ``class_order``: ``(0, 1)`` or ``(1, 0)`` (a tuple or a list,
    as YAML gives it; int labels, not bools)."""

    def __init__(self) -> None:
        super().__init__(tuple, {(0, 1), (1, 0)})

    def is_satisfied_by(self, val: Any) -> bool:
        if not isinstance(val, tuple | list) or len(val) != 2:
            return False
        if any(isinstance(v, bool | np.bool_) or not isinstance(v, Integral) for v in val):
            return False
        return (int(val[0]), int(val[1])) in self.options

    def __str__(self) -> str:
        return "(0, 1) or (1, 0) (the labels in the declared order of the class values)"


class WekaLikeClassifier(ClassifierMixin, BaseEstimator):
    """Shared input handling of the Weka-like models (see the module docstring).

    ``classes_`` is ``[0, 1]``; ``predict`` returns the class of the larger probability. On
    an exact tie it returns, as Weka's ``classifyInstance`` (``Utils.maxIndex`` takes the
    first of equal entries of the distribution, whose entries follow the ARFF declaration
    order of the class values), the class declared first: ``class_order[0]`` for a model
    with a ``class_order`` parameter (``(0, 1)``: minority label declared first, ``(1, 0)``:
    majority label first; the pipeline sets it from the dataset's header), class 0 for a
    model without one.
    """

    def _fit_input(self, X: pd.DataFrame, y: Any) -> tuple[FloatArray, NDArray[np.int64]]:
        self.schema_ = frame_schema(X)
        labels = check_binary_target(y, len(X), type(self).__name__)
        self.classes_ = np.array([0, 1], dtype=np.int64)
        self.n_features_in_ = len(self.schema_.names)
        self.feature_names_in_ = np.array(self.schema_.names, dtype=object)
        return frame_to_matrix(X, self.schema_), labels

    def _predict_input(self, X: pd.DataFrame) -> FloatArray:
        check_is_fitted(self, "schema_")
        check_same_schema(X, self.schema_, type(self).__name__)
        return frame_to_matrix(X, self.schema_)

    def _first_declared_label(self) -> int:
        """The label Weka gives a tie of probabilities: the class declared first."""
        order = getattr(self, "class_order", (0, 1))
        return int(order[0])

    def predict_proba(self, X: pd.DataFrame) -> FloatArray:  # pragma: no cover - abstract
        raise NotImplementedError

    def predict(self, X: pd.DataFrame) -> NDArray[np.int64]:
        proba = self.predict_proba(X)
        tie = proba[:, 1] == proba[:, 0]
        ones = (proba[:, 1] > proba[:, 0]) | (tie & (self._first_declared_label() == 1))
        return self.classes_[ones.astype(np.intp)]
