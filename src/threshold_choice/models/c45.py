"""The C4.5 machinery shared by J48 (:mod:`.trees`), PART (:mod:`.part`) and DecisionStump.

Reimplementation, in numpy, of Weka 3.8/3.9's ``weka.classifiers.trees.j48`` package (split
selection, data splitting with fractional instances, pessimistic error estimates), written
from reading the Java source; the classifiers built on it are in :mod:`.trees` and
:mod:`.part`.

Input conventions (fixed by the project)
----------------------------------------
* ``X`` is a pandas DataFrame whose nominal features are ``Categorical`` (categories in
  declared order, i.e. the ARFF header order; Weka's attribute values) and whose numeric
  features are float64, missing values as NaN / missing; or a plain numeric 2-D array.
  Other non-numeric columns (object / string) are treated as nominal with their sorted
  distinct values as categories. At prediction, categories are matched by value; a value
  not among the training categories is treated as missing (:func:`fit_schema`,
  :func:`encode_features`).
* ``y`` holds the class labels (the project uses ints in {0, 1}). ``classes_`` is
  ``np.unique(y)`` and the columns of ``predict_proba`` follow it (:func:`encode_target`),
  so with both classes present the project's score is ``predict_proba(X)[:, 1]``.
* Columns are used in their given order, which matters for Weka's tie-breaking (the first
  attribute wins ties), so keep the ARFF attribute order.

Weka's floating-point tolerances are kept: ``Utils.gr/sm/eq`` compare with 1e-6
(:data:`SMALL`), numeric split candidates need consecutive sorted values to differ by
more than 1e-5; as in Weka 3.9 (not 3.8), numeric tests ``x <= split point`` and the
move of split points onto data values compare exactly.
"""

from __future__ import annotations

import contextlib
import functools
import math
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.stats import norm
from sklearn.utils._param_validation import Interval

from threshold_choice._typing import BoolArray, FloatArray, IntArray

__all__ = [
    "C45_PARAMETER_CONSTRAINTS",
    "LN2",
    "MAX_DOUBLE",
    "SMALL",
    "C45Split",
    "FeatureSchema",
    "TrainingData",
    "add_errs",
    "check_weights",
    "deep_recursion",
    "dist_probs",
    "encode_features",
    "encode_target",
    "estimated_errors",
    "fit_schema",
    "leaf_label",
    "num_incorrect",
    "reset_distribution",
    "select_split",
    "split_condition",
    "split_data",
]

#: Tolerance of Weka's ``Utils.gr``, ``Utils.sm``, ``Utils.eq``, ...
SMALL = 1e-6
#: ``ln 2``, Weka's ``Utils.log2`` (entropies in bits are ``x ln x / LN2``)
LN2 = math.log(2.0)
#: Java's ``Double.MAX_VALUE``, Weka's "no value yet" for minima and split points
MAX_DOUBLE = float(np.finfo(np.float64).max)

#: scikit-learn parameter constraints shared by J48 and PART (``-C`` and ``-M``).
C45_PARAMETER_CONSTRAINTS: dict[str, list[Any]] = {
    "confidence": [Interval(Real, 0, 1, closed="neither")],
    "min_leaf": [Interval(Integral, 1, None, closed="left")],
}


@contextlib.contextmanager
def deep_recursion(limit: int = 20_000) -> Iterator[None]:
    """Temporarily allow deep recursion: trees are built and walked recursively and a
    chain of small splits (e.g. on sorted data) can be thousands of levels deep."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


# ---------------------------------------------------------------------------
# Feature encoding
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FeatureSchema:
    """Which features are nominal, and their categories, as seen at fit time.

    ``names`` is None for array input. Nominal features are encoded as float category
    codes (0..n_values-1, NaN for missing), numeric ones as float64 (NaN for missing).
    """

    names: tuple[str, ...] | None
    nominal: BoolArray
    categories: tuple[tuple[Any, ...] | None, ...]

    @property
    def n_features(self) -> int:
        return int(self.nominal.size)

    @property
    def n_values(self) -> IntArray:
        """Number of declared values of each nominal feature (0 for numeric ones)."""
        return np.array([0 if c is None else len(c) for c in self.categories], dtype=np.intp)

    def value_name(self, attr: int, code: int) -> str:
        cats = self.categories[attr]
        return str(code) if cats is None else str(cats[code])

    def attr_name(self, attr: int) -> str:
        return f"x{attr}" if self.names is None else str(self.names[attr])


def _is_numeric_series(s: pd.Series) -> bool:
    return bool(pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype))


def fit_schema(X: Any) -> tuple[FeatureSchema, FloatArray]:
    """Learn the feature schema of ``X`` and return it with the encoded matrix."""
    if isinstance(X, pd.DataFrame):
        nominal: list[bool] = []
        cats: list[tuple[Any, ...] | None] = []
        for name in X.columns:
            s = X[name]
            if isinstance(s.dtype, pd.CategoricalDtype):
                nominal.append(True)
                cats.append(tuple(s.dtype.categories))
            elif _is_numeric_series(s):
                nominal.append(False)
                cats.append(None)
            else:
                nominal.append(True)
                cats.append(tuple(sorted(pd.unique(s.dropna()))))
        schema = FeatureSchema(
            names=tuple(str(c) for c in X.columns),
            nominal=np.array(nominal, dtype=bool),
            categories=tuple(cats),
        )
    else:
        arr = _as_2d_float(X)
        schema = FeatureSchema(
            names=None,
            nominal=np.zeros(arr.shape[1], dtype=bool),
            categories=tuple(None for _ in range(arr.shape[1])),
        )
    if schema.n_features == 0:
        raise ValueError("X has no features")
    return schema, encode_features(schema, X)


def _as_2d_float(X: Any) -> FloatArray:
    arr = np.asarray(X, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(f"X must be 2-dimensional, got shape {arr.shape}")
    return arr


def encode_features(schema: FeatureSchema, X: Any) -> FloatArray:
    """Encode ``X`` with a fitted schema (see :class:`FeatureSchema`)."""
    if isinstance(X, pd.DataFrame):
        if schema.names is not None:
            missing = [c for c in schema.names if c not in X.columns]
            if missing:
                raise ValueError(f"X lacks the training columns {missing}")
            X = X.loc[:, list(schema.names)]
        elif X.shape[1] != schema.n_features:
            raise ValueError(f"X has {X.shape[1]} features, expected {schema.n_features}")
        out = np.empty((X.shape[0], schema.n_features), dtype=np.float64)
        for j in range(schema.n_features):
            s = X.iloc[:, j]
            cats = schema.categories[j]
            if cats is None:
                out[:, j] = pd.to_numeric(s).to_numpy(dtype=np.float64, na_value=np.nan)
            else:
                if isinstance(s.dtype, pd.CategoricalDtype) and tuple(s.dtype.categories) == cats:
                    codes = s.cat.codes.to_numpy()
                else:  # match by value; unknown values become missing (-1)
                    codes = pd.Index(list(cats), dtype=object).get_indexer(
                        pd.Index(s.to_numpy(dtype=object), dtype=object))
                col = codes.astype(np.float64)
                col[codes < 0] = np.nan
                out[:, j] = col
        return out
    if schema.nominal.any():
        raise ValueError("the model was fitted on nominal features: pass a DataFrame")
    arr = _as_2d_float(X)
    if arr.shape[1] != schema.n_features:
        raise ValueError(f"X has {arr.shape[1]} features, expected {schema.n_features}")
    return arr


def encode_target(y: Any) -> tuple[IntArray, NDArray[Any]]:
    """Return class codes 0..K-1 and ``classes_`` (sorted unique labels)."""
    y_arr = np.asarray(y)
    if y_arr.ndim != 1:
        y_arr = y_arr.ravel()
    classes = np.unique(y_arr)
    return np.searchsorted(classes, y_arr).astype(np.intp), classes


def check_weights(sample_weight: Any, n: int) -> FloatArray:
    """``sample_weight`` as ``n`` float64 weights (all ones if ``None``; Weka's instance
    weights); raises ValueError unless finite, non-negative and one per row."""
    if sample_weight is None:
        return np.ones(n, dtype=np.float64)
    w = np.asarray(sample_weight, dtype=np.float64).ravel()
    if w.shape != (n,) or np.any(w < 0) or not np.all(np.isfinite(w)):
        raise ValueError("sample_weight must be finite, non-negative, one per row")
    return w


# ---------------------------------------------------------------------------
# C4.5 core (weka.classifiers.trees.j48), shared with PART
# ---------------------------------------------------------------------------


def _nlog2n(x: FloatArray | float) -> FloatArray:
    """``n * log2(n)``, 0 below 1e-6 (EntropyBasedSplitCrit.logFunc)."""
    x = np.asarray(x, dtype=np.float64)
    out = np.zeros_like(x)
    m = x >= 1e-6
    out[m] = x[m] * np.log(x[m]) / LN2
    return out


@functools.cache
def _normal_quantile(cf: float) -> float:
    """``z`` of the upper ``cf`` tail of the standard normal, once per confidence (C4.5 asks
    for it at every node of every pruning). Weka computes 1 - CF in single precision (CF is a
    Java float)."""
    return float(norm.ppf(float(np.float32(1.0) - np.float32(cf))))


def add_errs(n: float, e: float, cf: float) -> float:
    """Extra errors of C4.5's pessimistic estimate (weka ``j48.Stats.addErrs``).

    Upper limit of the binomial confidence interval with confidence ``cf`` on ``e``
    observed errors out of ``n``, as ``upper * n - e``: normal approximation with
    continuity correction; exact ``n * (1 - cf**(1/n))`` at ``e = 0`` and linear
    interpolation for ``0 < e < 1``; ``n - e`` once ``e + 0.5 >= n``.
    """
    if cf > 0.5:  # Weka ignores such confidence values
        return 0.0
    if e < 1:
        base = n * (1.0 - cf ** (1.0 / n))
        if e == 0:
            return base
        return base + e * (add_errs(n, 1.0, cf) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    z = _normal_quantile(cf)
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) / (
        1 + z * z / n
    )
    return r * n - e


def num_incorrect(dist: FloatArray) -> float:
    """Weight not in the majority class of a class distribution."""
    return float(dist.sum() - dist.max())


def estimated_errors(dist: FloatArray, cf: float) -> float:
    """Pessimistic error estimate of a leaf with class distribution ``dist``."""
    total = float(dist.sum())
    if abs(total) < SMALL:
        return 0.0
    e = num_incorrect(dist)
    return e + add_errs(total, e, cf)


@dataclass
class TrainingData:
    """The full training set and the settings of C4.5's split selection.

    ``all_values[j]`` holds the sorted distinct known values of numeric attribute ``j`` in
    the FULL training set (Weka's ``m_allData``), used to move split points onto data.
    """

    X: FloatArray
    y: IntArray
    n_classes: int
    nominal: BoolArray
    n_values: IntArray
    min_obj: int
    use_mdl: bool
    all_values: list[FloatArray | None]
    multi_val: bool
    n_all: int

    @classmethod
    def build(
        cls,
        X: FloatArray,
        y: IntArray,
        n_classes: int,
        schema: FeatureSchema,
        min_obj: int,
        use_mdl: bool = True,
    ) -> TrainingData:
        nominal = schema.nominal
        n_values = schema.n_values
        all_values: list[FloatArray | None] = []
        for j in range(X.shape[1]):
            if nominal[j]:
                all_values.append(None)
            else:
                col = X[:, j]
                all_values.append(np.unique(col[~np.isnan(col)]))
        n = X.shape[0]
        # C45ModelSelection: "all attributes nominal with a lot of values" switch.
        multi_val = bool(np.all(nominal) and np.all(n_values - 0.3 * n >= -SMALL))
        return cls(X, y, n_classes, nominal, n_values, min_obj, use_mdl, all_values,
                   multi_val, n)

    def class_dist(self, rows: IntArray, w: FloatArray) -> FloatArray:
        return np.bincount(self.y[rows], weights=w, minlength=self.n_classes).astype(np.float64)


@dataclass
class C45Split:
    """A C4.5 split (weka ``C45Split``): multiway on a nominal attribute, binary on a
    numeric one (``x <= point`` is subset 0). ``dist`` is its (subsets x classes)
    distribution including instances with a missing value, spread over subsets
    proportionally to the known weights."""

    attr: int
    nominal: bool
    point: float
    dist: FloatArray

    @property
    def n_subsets(self) -> int:
        return int(self.dist.shape[0])

    def subset_of(self, x: FloatArray) -> IntArray:
        """Subset of each value, -1 for missing (``whichSubset``)."""
        out = np.full(x.shape, -1, dtype=np.intp)
        known = ~np.isnan(x)
        if self.nominal:
            out[known] = x[known].astype(np.intp)
        else:
            out[known] = np.where(x[known] <= self.point, 0, 1)  # exact, as Weka 3.9
        return out

    @staticmethod
    def branch_weights(dist: FloatArray) -> FloatArray:
        """Weights given to an instance with a missing value (``weights``)."""
        bag = dist.sum(axis=1)
        return bag / bag.sum()


def split_data(
    data: TrainingData,
    split: C45Split,
    rows: IntArray,
    w: FloatArray,
    dist: FloatArray | None = None,
) -> list[tuple[IntArray, FloatArray]]:
    """Split weighted rows into the split's subsets (``ClassifierSplitModel.split``).

    A row with a missing value goes to every subset whose branch weight is > 0, with its
    weight multiplied by that branch weight (computed from ``dist``, default the split's).
    Row order is preserved.
    """
    s = split.subset_of(data.X[rows, split.attr])
    miss = s < 0
    any_miss = bool(miss.any())
    bw = C45Split.branch_weights(split.dist if dist is None else dist) if any_miss else None
    parts: list[tuple[IntArray, FloatArray]] = []
    for i in range(split.n_subsets):
        sel = s == i
        if bw is not None and bw[i] > SMALL:
            m = sel | miss
            parts.append((rows[m], np.where(miss, w * bw[i], w)[m]))
        else:
            parts.append((rows[sel], w[sel]))
    return parts


def reset_distribution(
    data: TrainingData, split: C45Split, rows: IntArray, w: FloatArray
) -> FloatArray:
    """Distribution of the split on new data (``C45Split.resetDistribution``)."""
    s = split.subset_of(data.X[rows, split.attr])
    known = s >= 0
    k = data.n_classes
    dist = np.bincount(s[known] * k + data.y[rows][known], weights=w[known],
                       minlength=split.n_subsets * k).reshape(split.n_subsets, k)
    return _add_unknown(dist, data.class_dist(rows[~known], w[~known]))


def _add_unknown(known_dist: FloatArray, missing_class_dist: FloatArray) -> FloatArray:
    """Spread instances with a missing value over the subsets in proportion to the
    known weights, uniformly if there are none (``Distribution.addInstWithUnknown``)."""
    bag = known_dist.sum(axis=1)
    total = bag.sum()
    probs = np.full(bag.size, 1.0 / bag.size) if abs(total) < SMALL else bag / total
    return known_dist + np.outer(probs, missing_class_dist)


def _first_best(gain: FloatArray, ok: BoolArray) -> int:
    """Index Weka's sequential ``if (gr(g, best)) best = g`` scan (from 0) ends on, -1 if none.

    A vectorised argmax gives the same answer unless several candidates are within 1e-5
    of the maximum; then the scan is replayed exactly.
    """
    g = np.where(ok, gain, -np.inf)
    top = float(g.max()) if g.size else -np.inf
    if not top > SMALL:
        return -1
    near = np.flatnonzero(g > top - 1e-5)
    if near.size == 1:
        return int(near[0])
    best_val, best = 0.0, -1
    for i in np.flatnonzero(ok):
        if gain[i] - best_val > SMALL:
            best_val, best = float(gain[i]), int(i)
    return best


@dataclass
class _Candidate:
    info_gain: float
    gain_ratio: float
    known_dist: FloatArray  # (subsets, classes), known values only
    point: float = math.nan


def _gain_ratio(info_gain: float, bag_w: FloatArray, sum_w: float, known_w: float) -> float:
    """C4.5's gain ratio, the split info counting unknowns as an extra subset."""
    if not known_w > SMALL:
        return 0.0
    split_ent = float(_nlog2n(sum_w) - _nlog2n(bag_w).sum() - _nlog2n(sum_w - known_w))
    if abs(split_ent) < SMALL:
        return 0.0
    return info_gain / (split_ent / sum_w)


def _nominal_candidate(
    data: TrainingData, x: FloatArray, yk: IntArray, w: FloatArray, attr: int, sum_w: float
) -> _Candidate | None:
    k = data.n_classes
    n_val = int(data.n_values[attr])
    known = ~np.isnan(x)
    bags = np.bincount(x[known].astype(np.intp) * k + yk[known], weights=w[known],
                       minlength=n_val * k).reshape(n_val, k)
    bag_w = bags.sum(axis=1)
    # J48's minNoObj rule: at least two subsets with >= min_obj weight.
    if np.count_nonzero(data.min_obj - bag_w < SMALL) < 2:
        return None
    known_w = float(bag_w.sum())
    old_ent = _nlog2n(known_w) - _nlog2n(bags.sum(axis=0)).sum()
    new_ent = _nlog2n(bag_w).sum() - _nlog2n(bags).sum()
    num = float(old_ent - new_ent) * (1.0 - (sum_w - known_w) / sum_w)
    info = 0.0 if abs(num) < SMALL else num / known_w
    return _Candidate(info, _gain_ratio(info, bag_w, sum_w, known_w), bags)


def _numeric_candidates(
    data: TrainingData, Xn: FloatArray, yk: IntArray, w: FloatArray, sum_w: float
) -> list[_Candidate | None]:
    """Best binary split of each numeric column (``C45Split.handleNumericAttribute``),
    vectorised over columns: one sort per column, cumulative class weights."""
    n, q = Xn.shape
    k = data.n_classes
    out: list[_Candidate | None] = [None] * q
    if n < 2:
        return out
    order = np.argsort(Xn, axis=0, kind="stable")  # NaN sorts last
    v = np.take_along_axis(Xn, order, axis=0)
    known = ~np.isnan(v)
    n_known = known.sum(axis=0)
    ys = yk[order]
    ws = np.where(known, w[order], 0.0)
    cum = np.empty((k, n, q))
    for c in range(k):
        np.cumsum(np.where(ys == c, ws, 0.0), axis=0, out=cum[c])
    known_dist = cum[:, -1, :]  # (k, q)
    known_w = known_dist.sum(axis=0)
    min_split = 0.1 * known_w / k
    min_split = np.where(min_split - data.min_obj < SMALL, float(data.min_obj),
                         np.where(min_split - 25.0 > SMALL, 25.0, min_split))
    enough = n_known - 2.0 * min_split >= -SMALL
    left = cum[:, :-1, :]  # split between sorted positions i and i+1: rows 0..i go left
    left_w = left.sum(axis=0)
    right = known_dist[:, None, :] - left
    right_w = known_w[None, :] - left_w
    with np.errstate(invalid="ignore"):
        ok = (v[:-1] + 1e-5 < v[1:]) & (min_split - left_w < SMALL) & (
            min_split - right_w < SMALL) & enough[None, :]
    m_index = ok.sum(axis=0)
    cols = np.flatnonzero(m_index > 0)
    if cols.size == 0:
        return out
    left, right, left_w, right_w = left[:, :, cols], right[:, :, cols], left_w[:, cols], \
        right_w[:, cols]
    kd, kw = known_dist[:, cols], known_w[cols]
    new_ent = _nlog2n(left_w) + _nlog2n(right_w) - _nlog2n(left).sum(0) - _nlog2n(right).sum(0)
    old_ent = _nlog2n(kw) - _nlog2n(kd).sum(axis=0)
    num = (old_ent[None, :] - new_ent) * (1.0 - (sum_w - kw) / sum_w)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = np.where(np.abs(num) < SMALL, 0.0, num / kw[None, :])
    for jj, col in enumerate(cols):
        best = _first_best(gain[:, jj], ok[:, col])
        info = float(gain[best, jj]) if best >= 0 else 0.0
        if data.use_mdl:  # C4.5 rel. 8: charge log2(#candidate thresholds) / N
            info -= math.log2(int(m_index[col])) / sum_w
        if best < 0 or info < SMALL:
            continue
        lo, hi = float(v[best, col]), float(v[best + 1, col])
        point = (lo + hi) / 2.0
        if point == hi:  # numerical precision: take the smaller value
            point = lo
        lb = left[:, best, jj]
        bags = np.vstack([lb, kd[:, jj] - lb])
        out[col] = _Candidate(info, _gain_ratio(info, bags.sum(axis=1), sum_w, float(kw[jj])),
                              bags, point)
    return out


def select_split(data: TrainingData, rows: IntArray, w: FloatArray) -> C45Split | None:
    """C4.5's choice of split for the weighted rows, None for a leaf
    (``C45ModelSelection.selectModel``).

    Among attributes with a valid split and information gain >= the average gain of
    the valid splits (less 1e-3), the one with the highest gain ratio (first on ties).
    Nominal attributes with >= 0.3 * N values do not enter the average (unless all
    attributes are such). Numeric split points are moved down to the largest value
    of the full training set not above the midpoint.
    """
    yk = data.y[rows]
    dist = np.bincount(yk, weights=w, minlength=data.n_classes)
    total = float(dist.sum())
    if total - 2 * data.min_obj < -SMALL or abs(total - float(dist.max())) < SMALL:
        return None
    xs = data.X[rows]
    p = xs.shape[1]
    cands: list[_Candidate | None] = [None] * p
    num_idx = np.flatnonzero(~data.nominal)
    if num_idx.size:
        for j, c in zip(num_idx, _numeric_candidates(data, xs[:, num_idx], yk, w, total),
                        strict=True):
            cands[j] = c
    for j in np.flatnonzero(data.nominal):
        cands[j] = _nominal_candidate(data, xs[:, j], yk, w, int(j), total)

    counted = [
        c.info_gain for j, c in enumerate(cands)
        if c is not None and (not data.nominal[j] or data.multi_val
                              or data.n_values[j] - 0.3 * data.n_all < -SMALL)
    ]
    if not counted:
        return None
    avg = sum(counted) / len(counted)
    best, best_ratio = -1, 0.0
    for j, c in enumerate(cands):
        if c is not None and c.info_gain >= avg - 1e-3 and c.gain_ratio - best_ratio > SMALL:
            best, best_ratio = j, c.gain_ratio
    if best < 0 or abs(best_ratio) < SMALL:
        return None
    c = cands[best]
    assert c is not None
    miss = np.isnan(xs[:, best])
    full = _add_unknown(c.known_dist, data.class_dist(rows[miss], w[miss]))
    point = c.point
    if not data.nominal[best]:  # setSplitPoint: a value that occurs in the training data
        vals = data.all_values[best]
        assert vals is not None
        below = vals[vals <= point]  # exact comparison, as Weka 3.9 (3.8 used 1e-6)
        point = float(below[-1]) if below.size else -MAX_DOUBLE
    return C45Split(int(best), bool(data.nominal[best]), point, full)


# ---------------------------------------------------------------------------
# Leaves: class probabilities and Weka's text format
# ---------------------------------------------------------------------------


def dist_probs(dist: FloatArray, laplace: bool) -> FloatArray:
    """Class probabilities of a distribution (``Distribution.prob``/``laplaceProb``)."""
    total = float(dist.sum())
    if laplace:
        return (dist + 1.0) / (total + dist.size)
    if abs(total) < SMALL:
        return np.zeros_like(dist)
    return dist / total


def _fmt(x: float) -> str:
    r = round(x, 2)
    return str(int(r)) if r == int(r) else f"{r:g}"


def leaf_label(dist: FloatArray, classes: NDArray[Any]) -> str:
    """A leaf in Weka's text format: ``class (weight/errors)`` (``/errors`` if any)."""
    e = num_incorrect(dist)
    label = f"{classes[int(np.argmax(dist))]} ({_fmt(float(dist.sum()))}"
    return label + (f"/{_fmt(e)})" if e > SMALL else ")")


def split_condition(schema: FeatureSchema, split: C45Split, i: int) -> str:
    """The test of branch ``i`` of ``split`` in Weka's text format (``x = v``, ``x <= p``)."""
    name = schema.attr_name(split.attr)
    if split.nominal:
        return f"{name} = {schema.value_name(split.attr, i)}"
    return f"{name} {'<=' if i == 0 else '>'} {split.point:.6g}"
