"""Weka's J48 (C4.5 release 8) and DecisionStump as scikit-learn classifiers.

Reimplementation, in numpy, of the algorithms of Weka 3.8/3.9
(``weka.classifiers.trees.J48`` with its ``j48`` package, and
``weka.classifiers.trees.DecisionStump``), written from reading the Java source.
The C4.5 machinery (feature encoding, split selection, data splitting with fractional
instances, pessimistic error estimates) is in :mod:`.c45`, shared with :mod:`.part`; so
are the input conventions: ``X`` a DataFrame (nominal features ``Categorical`` in ARFF
header order) or a numeric array, ``y`` the class labels, ``classes_ = np.unique(y)``, so
with both classes present the project's score is ``predict_proba(X)[:, 1]``.

Checked against Weka itself (``weka.jar`` run from the command line): class probabilities
agreed to 1e-12 for J48, J48 -U -A, DecisionStump and PART on all 26 datasets of the paper
(3 random half splits each, missing values included in training and test) with Weka 3.9.7
when this was written; the test suite repeats the check against the Weka 3.9.6 bundled with
python-weka-wrapper3 (or ``WEKA_JAR``) on 4 datasets (PART: 5), to 1e-9.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils.validation import check_is_fitted

from threshold_choice._typing import FloatArray, IntArray

from .c45 import (
    C45_PARAMETER_CONSTRAINTS,
    LN2,
    MAX_DOUBLE,
    SMALL,
    C45Split,
    TrainingData,
    check_weights,
    deep_recursion,
    dist_probs,
    encode_features,
    encode_target,
    estimated_errors,
    fit_schema,
    leaf_label,
    num_incorrect,
    reset_distribution,
    select_split,
    split_condition,
    split_data,
)

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
        return TreeNode(data.class_dist(rows, w), is_empty=abs(float(w.sum())) < SMALL,
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
        if abs(float(w.sum())) >= SMALL:
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
        if best_w - bw < SMALL:
            largest, best_w = i, float(bw)
    err_largest = (
        _branch_errors(data, node.children[largest], node.rows, node.weights, cf)
        if raising else MAX_DOUBLE
    )
    err_leaf = estimated_errors(node.split.dist.sum(axis=0), cf)
    err_tree = _subtree_errors(node, cf)
    if err_leaf - (err_tree + 0.1) < SMALL and err_leaf - (err_largest + 0.1) < SMALL:
        node.make_leaf()
        return
    if err_largest - (err_tree + 0.1) < SMALL:
        big = node.children[largest]
        node.split, node.children, node.dist = big.split, big.children, big.dist
        _new_distribution(data, node, node.rows, node.weights)
        _prune(data, node, cf, raising)


def _subset_probs(split_dist: FloatArray, i: int, laplace: bool) -> FloatArray:
    """Probabilities of subset ``i``, or of the whole node if it is empty."""
    bag = split_dist[i]
    if bag.sum() > SMALL:
        return dist_probs(bag, laplace)
    return dist_probs(split_dist.sum(axis=0), laplace)


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
        out[rows] += weight[:, None] * dist_probs(node.dist, laplace)[None, :]
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
        w = check_weights(sample_weight, yk.size)
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
            return ": " + leaf_label(self.tree_.dist, self.classes_)
        lines: list[str] = []

        def walk(node: TreeNode, depth: int) -> None:
            split = node.split
            assert split is not None
            for i, child in enumerate(node.children):
                line = "|   " * depth + split_condition(self.schema_, split, i)
                if child.is_leaf:
                    dist = split.dist[i] if child.is_empty else child.dist
                    lines.append(line + ": " + leaf_label(dist, self.classes_))
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
        return np.where(np.abs(total) < SMALL, 0.0, -acc / (total * LN2))


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
        w = check_weights(sample_weight, yk.size)
        k = classes.size
        best_val, best_att, best_point = MAX_DOUBLE, -1, -MAX_DOUBLE
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
        best_val, point = MAX_DOUBLE, None
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
        best_val, point = MAX_DOUBLE, None
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
