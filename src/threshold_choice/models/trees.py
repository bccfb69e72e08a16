"""Weka's J48 (C4.5 release 8) and DecisionStump as scikit-learn classifiers.

Reimplementation, in numpy, of the algorithms of Weka 3.8/3.9
(``weka.classifiers.trees.J48`` with its ``j48`` package, and
``weka.classifiers.trees.DecisionStump``), written from reading the Java source.
The C4.5 machinery here (split selection, data splitting with fractional
instances, pessimistic error estimates) is shared with :mod:`.part`.

Input conventions (fixed by the project)
----------------------------------------
* ``X`` is a pandas DataFrame whose nominal features are ``Categorical`` (categories in
  declared order, i.e. the ARFF header order; Weka's attribute values) and whose numeric
  features are float64, missing values as NaN / missing; or a plain numeric 2-D array.
  Other non-numeric columns (object / string) are treated as nominal with their sorted
  distinct values as categories. At prediction, categories are matched by value; a value
  not among the training categories is treated as missing.
* ``y`` holds the class labels (the project uses ints in {0, 1}). ``classes_`` is
  ``np.unique(y)`` and the columns of ``predict_proba`` follow it, so with both classes
  present the project's score is ``predict_proba(X)[:, 1]``.
* Columns are used in their given order, which matters for Weka's tie-breaking (the first
  attribute wins ties), so keep the ARFF attribute order.

Weka's floating-point tolerances are kept: ``Utils.gr/sm/eq`` compare with 1e-6
(``_SMALL``), numeric split candidates need consecutive sorted values to differ by
more than 1e-5; as in Weka 3.9 (not 3.8), numeric tests ``x <= split point`` and the
move of split points onto data values compare exactly.

Checked against Weka itself (``weka.jar`` run from the command line): class probabilities
agreed to 1e-12 for J48, J48 -U -A, DecisionStump and PART on all 26 datasets of the paper
(3 random half splits each, missing values included in training and test) with Weka 3.9.7
when this was written; the test suite repeats the check against the Weka 3.9.6 bundled with
python-weka-wrapper3 (or ``WEKA_JAR``) on 4 datasets (PART: 5), to 1e-9.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.stats import norm
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from threshold_choice._typing import BoolArray, FloatArray, IntArray

#: Tolerance of Weka's ``Utils.gr``, ``Utils.sm``, ``Utils.eq``, ...
_SMALL = 1e-6
_LN2 = math.log(2.0)
_MAX = float(np.finfo(np.float64).max)  # Java's Double.MAX_VALUE

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


def _check_weights(sample_weight: Any, n: int) -> FloatArray:
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
    out[m] = x[m] * np.log(x[m]) / _LN2
    return out


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
    # Weka computes 1 - CF in single precision (CF is a Java float).
    z = float(norm.ppf(float(np.float32(1.0) - np.float32(cf))))
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
    if abs(total) < _SMALL:
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
        multi_val = bool(np.all(nominal) and np.all(n_values - 0.3 * n >= -_SMALL))
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
        if bw is not None and bw[i] > _SMALL:
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
    probs = np.full(bag.size, 1.0 / bag.size) if abs(total) < _SMALL else bag / total
    return known_dist + np.outer(probs, missing_class_dist)


def _first_best(gain: FloatArray, ok: BoolArray) -> int:
    """Index Weka's sequential ``if (gr(g, best)) best = g`` scan (from 0) ends on, -1 if none.

    A vectorised argmax gives the same answer unless several candidates are within 1e-5
    of the maximum; then the scan is replayed exactly.
    """
    g = np.where(ok, gain, -np.inf)
    top = float(g.max()) if g.size else -np.inf
    if not top > _SMALL:
        return -1
    near = np.flatnonzero(g > top - 1e-5)
    if near.size == 1:
        return int(near[0])
    best_val, best = 0.0, -1
    for i in np.flatnonzero(ok):
        if gain[i] - best_val > _SMALL:
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
    if not known_w > _SMALL:
        return 0.0
    split_ent = float(_nlog2n(sum_w) - _nlog2n(bag_w).sum() - _nlog2n(sum_w - known_w))
    if abs(split_ent) < _SMALL:
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
    if np.count_nonzero(data.min_obj - bag_w < _SMALL) < 2:
        return None
    known_w = float(bag_w.sum())
    old_ent = _nlog2n(known_w) - _nlog2n(bags.sum(axis=0)).sum()
    new_ent = _nlog2n(bag_w).sum() - _nlog2n(bags).sum()
    num = float(old_ent - new_ent) * (1.0 - (sum_w - known_w) / sum_w)
    info = 0.0 if abs(num) < _SMALL else num / known_w
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
    min_split = np.where(min_split - data.min_obj < _SMALL, float(data.min_obj),
                         np.where(min_split - 25.0 > _SMALL, 25.0, min_split))
    enough = n_known - 2.0 * min_split >= -_SMALL
    left = cum[:, :-1, :]  # split between sorted positions i and i+1: rows 0..i go left
    left_w = left.sum(axis=0)
    right = known_dist[:, None, :] - left
    right_w = known_w[None, :] - left_w
    with np.errstate(invalid="ignore"):
        ok = (v[:-1] + 1e-5 < v[1:]) & (min_split - left_w < _SMALL) & (
            min_split - right_w < _SMALL) & enough[None, :]
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
        gain = np.where(np.abs(num) < _SMALL, 0.0, num / kw[None, :])
    for jj, col in enumerate(cols):
        best = _first_best(gain[:, jj], ok[:, col])
        info = float(gain[best, jj]) if best >= 0 else 0.0
        if data.use_mdl:  # C4.5 rel. 8: charge log2(#candidate thresholds) / N
            info -= math.log2(int(m_index[col])) / sum_w
        if best < 0 or info < _SMALL:
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
    if total - 2 * data.min_obj < -_SMALL or abs(total - float(dist.max())) < _SMALL:
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
                              or data.n_values[j] - 0.3 * data.n_all < -_SMALL)
    ]
    if not counted:
        return None
    avg = sum(counted) / len(counted)
    best, best_ratio = -1, 0.0
    for j, c in enumerate(cands):
        if c is not None and c.info_gain >= avg - 1e-3 and c.gain_ratio - best_ratio > _SMALL:
            best, best_ratio = j, c.gain_ratio
    if best < 0 or abs(best_ratio) < _SMALL:
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
        point = float(below[-1]) if below.size else -_MAX
    return C45Split(int(best), bool(data.nominal[best]), point, full)


# ---------------------------------------------------------------------------
# J48 tree
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class TreeNode:
    """A node of a C4.5 tree.

    Leaves have ``split is None`` and class distribution ``dist`` (weights, possibly
    fractional). ``is_empty`` marks leaves grown from no data (Weka predicts with the
    parent's distribution there). ``rows``/``weights`` hold the node's training data
    while the tree is built and pruned (dropped afterwards).
    """

    dist: FloatArray
    split: C45Split | None = None
    children: list[TreeNode] = field(default_factory=list)
    is_empty: bool = False
    rows: IntArray | None = None
    weights: FloatArray | None = None

    @property
    def is_leaf(self) -> bool:
        return self.split is None

    def make_leaf(self) -> None:
        """Replace the subtree by a leaf with this node's distribution."""
        assert self.split is not None
        self.dist = self.split.dist.sum(axis=0)
        self.split = None
        self.children = []

    def n_leaves(self) -> int:
        return 1 if self.is_leaf else sum(c.n_leaves() for c in self.children)

    def n_nodes(self) -> int:
        return 1 + sum(c.n_nodes() for c in self.children)

    def drop_data(self) -> None:
        self.rows = self.weights = None
        for c in self.children:
            c.drop_data()


def _grow(data: TrainingData, rows: IntArray, w: FloatArray) -> TreeNode:
    split = select_split(data, rows, w)
    if split is None:
        return TreeNode(data.class_dist(rows, w), is_empty=abs(float(w.sum())) < _SMALL,
                        rows=rows, weights=w)
    node = TreeNode(split.dist.sum(axis=0), split=split, rows=rows, weights=w)
    node.children = [_grow(data, r, ww) for r, ww in split_data(data, split, rows, w)]
    return node


def _training_errors(node: TreeNode) -> float:
    if node.is_leaf:
        return num_incorrect(node.dist)
    return sum(_training_errors(c) for c in node.children)


def _collapse(node: TreeNode) -> None:
    """Replace subtrees that do not reduce the training error by leaves (``collapse``)."""
    if node.is_leaf:
        return
    assert node.split is not None
    if _training_errors(node) >= num_incorrect(node.split.dist.sum(axis=0)) - 1e-3:
        node.make_leaf()
    else:
        for c in node.children:
            _collapse(c)


def _subtree_errors(node: TreeNode, cf: float) -> float:
    if node.is_leaf:
        return estimated_errors(node.dist, cf)
    return sum(_subtree_errors(c, cf) for c in node.children)


def _branch_errors(
    data: TrainingData, node: TreeNode, rows: IntArray, w: FloatArray, cf: float
) -> float:
    """Estimated errors of the subtree if it received the given data
    (``getEstimatedErrorsForBranch``), for subtree raising."""
    if node.is_leaf:
        return estimated_errors(data.class_dist(rows, w), cf)
    assert node.split is not None
    dist = reset_distribution(data, node.split, rows, w)
    parts = split_data(data, node.split, rows, w, dist)
    return sum(_branch_errors(data, c, r, ww, cf)
               for c, (r, ww) in zip(node.children, parts, strict=True))


def _new_distribution(data: TrainingData, node: TreeNode, rows: IntArray, w: FloatArray) -> None:
    """Re-distribute data down a raised subtree (``newDistribution``)."""
    node.rows, node.weights = rows, w
    if node.is_leaf:
        node.dist = data.class_dist(rows, w)
        if abs(float(w.sum())) >= _SMALL:
            node.is_empty = False
        return
    assert node.split is not None
    node.split.dist = reset_distribution(data, node.split, rows, w)
    for c, (r, ww) in zip(node.children, split_data(data, node.split, rows, w), strict=True):
        _new_distribution(data, c, r, ww)


def _prune(data: TrainingData, node: TreeNode, cf: float, raising: bool) -> None:
    """C4.5's error-based pruning: subtree replacement and subtree raising (``prune``)."""
    if node.is_leaf:
        return
    for c in node.children:
        _prune(data, c, cf, raising)
    assert node.split is not None and node.rows is not None and node.weights is not None
    bag_w = node.split.dist.sum(axis=1)
    largest, best_w = -1, 0.0
    for i, bw in enumerate(bag_w):  # Distribution.maxBag: last of the (near-)largest
        if best_w - bw < _SMALL:
            largest, best_w = i, float(bw)
    err_largest = (
        _branch_errors(data, node.children[largest], node.rows, node.weights, cf)
        if raising else _MAX
    )
    err_leaf = estimated_errors(node.split.dist.sum(axis=0), cf)
    err_tree = _subtree_errors(node, cf)
    if err_leaf - (err_tree + 0.1) < _SMALL and err_leaf - (err_largest + 0.1) < _SMALL:
        node.make_leaf()
        return
    if err_largest - (err_tree + 0.1) < _SMALL:
        big = node.children[largest]
        node.split, node.children, node.dist = big.split, big.children, big.dist
        _new_distribution(data, node, node.rows, node.weights)
        _prune(data, node, cf, raising)


def _dist_probs(dist: FloatArray, laplace: bool) -> FloatArray:
    """Class probabilities of a distribution (``Distribution.prob``/``laplaceProb``)."""
    total = float(dist.sum())
    if laplace:
        return (dist + 1.0) / (total + dist.size)
    if abs(total) < _SMALL:
        return np.zeros_like(dist)
    return dist / total


def _subset_probs(split_dist: FloatArray, i: int, laplace: bool) -> FloatArray:
    """Probabilities of subset ``i``, or of the whole node if it is empty."""
    bag = split_dist[i]
    if bag.sum() > _SMALL:
        return _dist_probs(bag, laplace)
    return _dist_probs(split_dist.sum(axis=0), laplace)


def _tree_proba(
    data_x: FloatArray, node: TreeNode, rows: IntArray, weight: FloatArray,
    out: FloatArray, laplace: bool,
) -> None:
    """Accumulate ``weight * P(class | x)`` for the given rows (``ClassifierTree.getProbs``).

    A missing value sends the row down every non-empty branch with weight proportional
    to the branch's training weight; a known value that leads to an empty leaf gets
    the parent's distribution for that subset (the whole parent's if that is empty).
    """
    if node.is_leaf:
        out[rows] += weight[:, None] * _dist_probs(node.dist, laplace)[None, :]
        return
    split = node.split
    assert split is not None
    s = split.subset_of(data_x[rows, split.attr])
    miss = s < 0
    if miss.any():
        bw = C45Split.branch_weights(split.dist)
        for i, child in enumerate(node.children):
            if not child.is_empty:
                _tree_proba(data_x, child, rows[miss], weight[miss] * bw[i], out, laplace)
    for i, child in enumerate(node.children):
        sel = s == i
        if not sel.any():
            continue
        if child.is_empty:
            out[rows[sel]] += weight[sel][:, None] * _subset_probs(split.dist, i, laplace)
        else:
            _tree_proba(data_x, child, rows[sel], weight[sel], out, laplace)


def _fmt(x: float) -> str:
    r = round(x, 2)
    return str(int(r)) if r == int(r) else f"{r:g}"


def _leaf_label(dist: FloatArray, classes: NDArray[Any]) -> str:
    e = num_incorrect(dist)
    label = f"{classes[int(np.argmax(dist))]} ({_fmt(float(dist.sum()))}"
    return label + (f"/{_fmt(e)})" if e > _SMALL else ")")


def _condition(schema: FeatureSchema, split: C45Split, i: int) -> str:
    name = schema.attr_name(split.attr)
    if split.nominal:
        return f"{name} = {schema.value_name(split.attr, i)}"
    return f"{name} {'<=' if i == 0 else '>'} {split.point:.6g}"


class C45Tree(ClassifierMixin, BaseEstimator):
    """C4.5 release 8 decision tree as in Weka's J48 (defaults ``-C 0.25 -M 2``).

    Growing (``C45ModelSelection``/``C45Split``): gain ratio among the attributes whose
    information gain is at least the average gain of all valid splits (less 1e-3; nominal
    attributes with >= 0.3 N values are left out of the average); multiway splits on
    nominal attributes, binary ``<=`` splits on numeric ones. A nominal split needs two
    subsets with >= ``min_leaf`` weight; a numeric threshold needs both sides >= minSplit
    = 0.1 * known weight / #classes clipped to [min_leaf, 25], and its gain is reduced by
    log2(#candidate thresholds) / N (C4.5 rel. 8's MDL correction). The split point is
    moved to the largest training value <= the midpoint. Instances with a missing value
    count in gain as ``known fraction * gain on known values``, in split info as an extra
    subset, and go down every branch with fractional weights.

    Then, as J48: ``collapse_tree`` (replace subtrees that do not lower the training
    error), and unless ``unpruned`` error-based pruning with confidence ``confidence``:
    bottom-up, a node becomes a leaf if its pessimistic error <= the subtree's (+0.1), or,
    with ``subtree_raising``, is replaced by its largest branch (re-fed with all the
    node's data) if that branch's estimate is <= the subtree's (+0.1).

    Probabilities (``ClassifierTree.getProbs``): the leaf's class frequencies, or with
    ``laplace`` ``(n_k + 1) / (n + K)``; an empty leaf uses the parent's distribution; a
    missing value at prediction time gives the weighted sum over branches with weights
    proportional to the branches' training weights. The paper's J48 is ``C45Tree()`` and
    its J48Unp (``-U -A``) is ``C45Tree(unpruned=True, laplace=True)``.

    Differences from Weka (3.9.7, against which probabilities agreed to 1e-12 on the
    paper's 26 datasets): floating-point sums are vectorised (cumulative sums, other
    summation orders), so exact ties up to ~1e-12 could in principle break differently;
    the normal quantile of the pessimistic estimate comes from scipy rather than Weka's
    ``normalInverse``; categories not seen in training are treated as missing (Weka
    cannot receive them). Not provided: reduced-error pruning, binary nominal splits,
    switching off the MDL correction or the move of split points onto data values.
    ``sample_weight`` plays the role of Weka's instance weights.

    Parameters
    ----------
    confidence : float in (0, 1), default 0.25
        Weka's ``-C``, the confidence of the pessimistic error estimate used in pruning
        (checked even when ``unpruned``).
    min_leaf : int >= 1, default 2
        Weka's ``-M``, the minimum weight of instances in at least two branches of a split.
    unpruned : bool, default False
        Weka's ``-U``: no error-based pruning.
    laplace : bool, default False
        Weka's ``-A``: Laplace-smoothed leaf probabilities.
    subtree_raising : bool, default True
        ``False`` is Weka's ``-S``.
    collapse_tree : bool, default True
        ``False`` is Weka's ``-O``.

    Invalid values (e.g. a string for a bool) raise scikit-learn's ``InvalidParameterError``
    in ``fit`` (and when the model registry is loaded).

    Attributes
    ----------
    classes_ : ndarray of the class labels (column order of ``predict_proba``).
    tree_ : root :class:`TreeNode`.
    schema_ : :class:`FeatureSchema` of the training features.
    n_features_in_, feature_names_in_ : as in scikit-learn.
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {
        **C45_PARAMETER_CONSTRAINTS,
        "unpruned": ["boolean"],
        "laplace": ["boolean"],
        "subtree_raising": ["boolean"],
        "collapse_tree": ["boolean"],
    }

    def __init__(
        self,
        confidence: float = 0.25,
        min_leaf: int = 2,
        unpruned: bool = False,
        laplace: bool = False,
        subtree_raising: bool = True,
        collapse_tree: bool = True,
    ) -> None:
        self.confidence = confidence
        self.min_leaf = min_leaf
        self.unpruned = unpruned
        self.laplace = laplace
        self.subtree_raising = subtree_raising
        self.collapse_tree = collapse_tree

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> C45Tree:
        """Grow (and unless ``unpruned``, prune) the tree; rows may have missing values."""
        schema, xf = fit_schema(X)
        yk, classes = encode_target(y)
        if yk.size != xf.shape[0]:
            raise ValueError("X and y have different numbers of rows")
        w = _check_weights(sample_weight, yk.size)
        data = TrainingData.build(xf, yk, classes.size, schema, int(self.min_leaf))
        with deep_recursion():
            root = _grow(data, np.arange(yk.size), w)
            if self.collapse_tree:
                _collapse(root)
            if not self.unpruned:
                cf = float(np.float32(self.confidence))  # Weka's CF is a Java float
                _prune(data, root, cf, bool(self.subtree_raising))
            root.drop_data()
        self.tree_ = root
        self.classes_ = classes
        self.schema_ = schema
        self.n_features_in_ = schema.n_features
        if schema.names is not None:
            self.feature_names_in_ = np.array(schema.names, dtype=object)
        return self

    def predict_proba(self, X: Any) -> FloatArray:
        """Class probabilities as Weka's ``distributionForInstance`` (rows may sum to
        less than 1 only in the degenerate cases where Weka's do too)."""
        check_is_fitted(self, "tree_")
        xf = encode_features(self.schema_, X)
        out = np.zeros((xf.shape[0], self.classes_.size))
        n = xf.shape[0]
        with deep_recursion():
            _tree_proba(xf, self.tree_, np.arange(n), np.ones(n), out, bool(self.laplace))
        return out

    def predict(self, X: Any) -> NDArray[Any]:
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def to_text(self) -> str:
        """The tree in Weka's text format (leaf labels ``class (weight/errors)``)."""
        check_is_fitted(self, "tree_")
        if self.tree_.is_leaf:
            return ": " + _leaf_label(self.tree_.dist, self.classes_)
        lines: list[str] = []

        def walk(node: TreeNode, depth: int) -> None:
            split = node.split
            assert split is not None
            for i, child in enumerate(node.children):
                line = "|   " * depth + _condition(self.schema_, split, i)
                if child.is_leaf:
                    dist = split.dist[i] if child.is_empty else child.dist
                    lines.append(line + ": " + _leaf_label(dist, self.classes_))
                else:
                    lines.append(line)
                    walk(child, depth + 1)

        walk(self.tree_, 0)
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# DecisionStump
# ---------------------------------------------------------------------------


def _cond_entropy(rows: Sequence[FloatArray]) -> FloatArray:
    """Entropy of the class given the row (``ContingencyTables.entropyConditionedOnRows``),
    vectorised: each element of ``rows`` is (classes, m) for m candidate tables."""

    def lnf(x: FloatArray) -> FloatArray:
        out = np.zeros_like(x)
        m = x > 0
        out[m] = x[m] * np.log(x[m])
        return out

    acc = np.zeros(rows[0].shape[1:])
    total = np.zeros(rows[0].shape[1:])
    for r in rows:
        acc += lnf(r).sum(axis=0) - lnf(r.sum(axis=0))
        total += r.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.abs(total) < _SMALL, 0.0, -acc / (total * _LN2))


class DecisionStump(ClassifierMixin, BaseEstimator):
    """One-split tree as Weka's ``DecisionStump`` (classification case).

    Each attribute's best binary split minimises the class entropy conditioned on the
    three branches ``{subset 0, subset 1, missing}`` (the missing branch's instances
    count in the entropy): for a nominal attribute ``= value`` vs ``!= value`` (first
    value on ties), for a numeric one ``<= midpoint`` between consecutive distinct sorted
    values (first on ties). The attribute with the lowest value wins (first on ties).
    Each branch predicts its training class frequencies, no smoothing; the missing branch
    those of the training instances with a missing value on the split attribute, or of
    all training instances with a known value if there were none; an empty branch takes
    the missing branch's frequencies.

    Differences from Weka (3.9.7, against which probabilities agreed to 1e-12 on the
    paper's 26 datasets): none intended in the classification case (ties broken the
    same way; floating-point sums vectorised). Weka's ZeroR fallback for data without
    attributes is not provided (fitting with no features raises). Unseen categories at
    prediction time are treated as missing.

    No parameters (Weka's DecisionStump has none that matter here).
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {}

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> DecisionStump:
        schema, xf = fit_schema(X)
        yk, classes = encode_target(y)
        if yk.size != xf.shape[0]:
            raise ValueError("X and y have different numbers of rows")
        w = _check_weights(sample_weight, yk.size)
        k = classes.size
        best_val, best_att, best_point = _MAX, -1, -_MAX
        best_dist = np.zeros((3, k))
        split_point = 0.0  # Weka's m_SplitPoint persists across attributes
        for j in range(schema.n_features):
            if schema.nominal[j]:
                val, dist, point = self._nominal(xf[:, j], yk, w, k, int(schema.n_values[j]))
            else:
                val, dist, point = self._numeric(xf[:, j], yk, w, k)
            if point is not None:
                split_point = point
            if best_att < 0 or val < best_val:
                best_val, best_att, best_point, best_dist = val, j, split_point, dist
        probs = best_dist.copy()
        for i in range(3):
            s = probs[i].sum()
            if s == 0:  # only missing values: use the missing branch's distribution
                src = probs[2] if i < 2 else best_dist[2]
                ss = src.sum()
                probs[i] = src / ss if ss > 0 else np.full(k, 1.0 / k)
            else:
                probs[i] = probs[i] / s
        self.attribute_ = best_att
        self.split_point_ = best_point
        self.counts_ = best_dist
        self.distributions_ = probs
        self.classes_ = classes
        self.schema_ = schema
        self.n_features_in_ = schema.n_features
        if schema.names is not None:
            self.feature_names_in_ = np.array(schema.names, dtype=object)
        return self

    @staticmethod
    def _nominal(
        x: FloatArray, yk: IntArray, w: FloatArray, k: int, n_val: int
    ) -> tuple[float, FloatArray, float | None]:
        known = ~np.isnan(x)
        counts = np.bincount(x[known].astype(np.intp) * k + yk[known], weights=w[known],
                             minlength=n_val * k).reshape(n_val, k)
        missing = np.bincount(yk[~known], weights=w[~known], minlength=k).astype(np.float64)
        total = counts.sum(axis=0)
        best_dist = np.zeros((3, k))
        best_val, point = _MAX, None
        if n_val:
            left = counts.T  # (k, n_val): "= value" branch for each value
            ent = _cond_entropy([left, total[:, None] - left,
                                 np.repeat(missing[:, None], n_val, axis=1)])
            i = int(np.argmin(ent))
            if ent[i] < best_val:
                best_val, point = float(ent[i]), float(i)
                best_dist = np.vstack([counts[i], total - counts[i], missing])
        if not (~known).any():
            best_dist[2] = total
        return best_val, best_dist, point

    @staticmethod
    def _numeric(
        x: FloatArray, yk: IntArray, w: FloatArray, k: int
    ) -> tuple[float, FloatArray, float | None]:
        known = ~np.isnan(x)
        missing = np.bincount(yk[~known], weights=w[~known], minlength=k).astype(np.float64)
        order = np.argsort(x[known], kind="stable")
        v, yy, ww = x[known][order], yk[known][order], w[known][order]
        total = np.bincount(yy, weights=ww, minlength=k).astype(np.float64)
        best_dist = np.vstack([np.zeros(k), total, missing])
        best_val, point = _MAX, None
        if v.size >= 2:
            cum = np.cumsum(np.where(yy[None, :] == np.arange(k)[:, None], ww[None, :], 0.0),
                            axis=1)[:, :-1]  # (k, m-1): rows 0..i on the left
            cand = v[:-1] < v[1:]
            if cand.any():
                ent = _cond_entropy([cum, total[:, None] - cum,
                                     np.repeat(missing[:, None], cum.shape[1], axis=1)])
                ent = np.where(cand, ent, np.inf)
                i = int(np.argmin(ent))
                if ent[i] < best_val:
                    best_val, point = float(ent[i]), (float(v[i]) + float(v[i + 1])) / 2.0
                    best_dist = np.vstack([cum[:, i], total - cum[:, i], missing])
        if not (~known).any():
            best_dist[2] = total
        return best_val, best_dist, point

    def predict_proba(self, X: Any) -> FloatArray:
        check_is_fitted(self, "distributions_")
        x = encode_features(self.schema_, X)[:, self.attribute_]
        subset = np.full(x.shape, 2, dtype=np.intp)
        known = ~np.isnan(x)
        if self.schema_.nominal[self.attribute_]:
            subset[known] = np.where(x[known] == self.split_point_, 0, 1)
        else:
            subset[known] = np.where(x[known] <= self.split_point_, 0, 1)
        return self.distributions_[subset].copy()

    def predict(self, X: Any) -> NDArray[Any]:
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def to_text(self) -> str:
        check_is_fitted(self, "distributions_")
        name = self.schema_.attr_name(self.attribute_)
        if self.schema_.nominal[self.attribute_]:
            val = self.schema_.value_name(self.attribute_, int(self.split_point_))
            conds = [f"{name} = {val}", f"{name} != {val}"]
        else:
            conds = [f"{name} <= {self.split_point_:g}", f"{name} > {self.split_point_:g}"]
        conds.append(f"{name} is missing")
        return "\n".join(f"{c} : {np.round(d, 4).tolist()}"
                         for c, d in zip(conds, self.distributions_, strict=True))
