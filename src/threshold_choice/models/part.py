"""Weka's PART decision lists (Frank & Witten 1998) as a scikit-learn classifier.

Reimplementation of ``weka.classifiers.rules.PART`` with C4.5 pruning (its default;
``rules.part.MakeDecList`` and ``C45PruneableDecList``), on top of the C4.5 split
selection of :mod:`.c45`. Input conventions are those of :mod:`.c45`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils.validation import check_is_fitted

from threshold_choice._typing import FloatArray, IntArray

from .c45 import (
    C45_PARAMETER_CONSTRAINTS,
    SMALL,
    C45Split,
    FeatureSchema,
    TrainingData,
    add_errs,
    check_weights,
    deep_recursion,
    dist_probs,
    encode_features,
    encode_target,
    fit_schema,
    leaf_label,
    num_incorrect,
    select_split,
    split_condition,
    split_data,
)


@dataclass(eq=False)
class PartialNode:
    """A node of a partial C4.5 tree (``ClassifierDecList``).

    Children not expanded are None. ``index`` is the child on the path of the rule the
    tree yields (the expanded leaf covering the most weight). ``dist`` is the class
    distribution of a leaf (for an internal node the split's distribution).
    """

    dist: FloatArray
    split: C45Split | None = None
    children: list[PartialNode | None] = field(default_factory=list)
    index: int = 0
    is_empty: bool = False

    @property
    def is_leaf(self) -> bool:
        return self.split is None

    def child(self, i: int) -> PartialNode:
        c = self.children[i]
        assert c is not None
        return c


def _leaf_errors(dist: FloatArray, cf: float) -> float:
    """``C45PruneableDecList.getEstimatedErrorsForLeaf`` (no empty-leaf shortcut)."""
    e = num_incorrect(dist)
    return e + add_errs(float(dist.sum()), e, cf)


def _bag_entropy(bag: FloatArray) -> float:
    """Class entropy (bits) of one subset, as ``chooseIndex`` computes it."""

    def lnf(x: float) -> float:
        return 0.0 if x < 1e-6 else x * math.log(x)

    total = float(bag.sum())
    return (-sum(lnf(float(v)) for v in bag) + lnf(total)) / (total * math.log(2.0))


class _PartialTreeBuilder:
    """Grows one pruned partial tree (``C45PruneableDecList.buildDecList``)."""

    def __init__(self, data: TrainingData, cf: float) -> None:
        self.data = data
        self.cf = cf
        self.min_obj = data.min_obj

    def leaf(self, rows: IntArray, w: FloatArray) -> PartialNode:
        return PartialNode(self.data.class_dist(rows, w), is_empty=abs(float(w.sum())) < SMALL)

    def build(self, rows: IntArray, w: FloatArray) -> PartialNode:
        split = select_split(self.data, rows, w)
        if split is None:
            return self.leaf(rows, w)
        node = PartialNode(split.dist.sum(axis=0), split=split,
                           children=[None] * split.n_subsets)
        parts = split_data(self.data, split, rows, w)
        # Expand subsets in order of increasing entropy until one does not end as a leaf.
        i = 0
        while True:
            i += 1
            ind = self._choose_index(node)
            if ind == -1:
                for j, c in enumerate(node.children):
                    if c is None:
                        node.children[j] = self.leaf(*parts[j])
                if i < 2:  # nothing could be expanded: this node is a leaf
                    return self.leaf(rows, w)
                break
            node.children[ind] = self.build(*parts[ind])
            if not (i < split.n_subsets and node.child(ind).is_leaf):
                break
        if all(c is not None and c.is_leaf for c in node.children):
            self._prune_end(node)
        if not node.is_leaf:
            node.index = self._choose_last_index(node)
        return node

    def _choose_index(self, node: PartialNode) -> int:
        """Unexpanded subset with the lowest entropy (a pure one at once), -1 if every
        unexpanded subset has less than ``min_obj`` weight (``chooseIndex``)."""
        assert node.split is not None
        best, best_val = -1, float(np.finfo(np.float64).max)
        for i, c in enumerate(node.children):
            if c is not None:
                continue
            bag = node.split.dist[i]
            if float(bag.sum()) - self.min_obj < -SMALL:
                continue  # estimated = Double.MAX_VALUE, never chosen
            est = _bag_entropy(bag)
            if est < SMALL:
                return i
            if est - best_val < -SMALL:
                best, best_val = i, est
        return best

    def _choose_last_index(self, node: PartialNode) -> int:
        """Expanded child with >= ``min_obj`` weight whose rule covers the most weight."""
        assert node.split is not None
        best, best_val = 0, float(np.finfo(np.float64).max)
        for i, c in enumerate(node.children):
            if c is None or self.min_obj - float(node.split.dist[i].sum()) >= SMALL:
                continue
            size = _branch_size(c)
            if size - best_val < -SMALL:
                best, best_val = i, size
        return best

    def _prune_end(self, node: PartialNode) -> None:
        """Replace a node whose children are all leaves by a leaf if its pessimistic error
        is <= theirs + 0.1 (``pruneEnd``)."""
        assert node.split is not None
        err_tree = sum(_leaf_errors(c.dist, self.cf) for c in node.children
                       if c is not None and abs(float(c.dist.sum())) >= SMALL)
        err_leaf = _leaf_errors(node.split.dist.sum(axis=0), self.cf)
        if err_leaf - (err_tree + 0.1) < SMALL:
            node.dist = node.split.dist.sum(axis=0)
            node.split = None
            node.children = []


def _branch_size(node: PartialNode) -> float:
    """Minus the weight covered by the node's rule (``getSizeOfBranch``)."""
    while not node.is_leaf:
        node = node.child(node.index)
    return -float(node.dist.sum())


def _rule_leaf(node: PartialNode) -> PartialNode:
    while not node.is_leaf:
        node = node.child(node.index)
    return node


def _rule_weight(node: PartialNode, x: FloatArray, rows: IntArray) -> FloatArray:
    """Degree to which the rule covers each row (``ClassifierDecList.weight``): 1 or 0
    for known values, the rule branch's weight fraction for a missing value."""
    out = np.ones(rows.size)
    idx = np.arange(rows.size)
    while not node.is_leaf and idx.size:
        split = node.split
        assert split is not None
        s = split.subset_of(x[rows[idx], split.attr])
        bw = C45Split.branch_weights(split.dist)[node.index]
        out[idx[s < 0]] *= bw
        out[idx[(s >= 0) & (s != node.index)]] = 0.0
        idx = idx[(s < 0) | (s == node.index)]
        node = node.child(node.index)
    return out


@dataclass
class Rule:
    """One rule of the list: the partial tree it came from and its leaf distribution."""

    tree: PartialNode

    @property
    def dist(self) -> FloatArray:
        return _rule_leaf(self.tree).dist

    def conditions(self, schema: FeatureSchema) -> list[str]:
        out: list[str] = []
        node = self.tree
        while not node.is_leaf:
            assert node.split is not None
            out.append(split_condition(schema, node.split, node.index))
            node = node.child(node.index)
        return out


class PART(ClassifierMixin, BaseEstimator):
    """PART decision list as Weka's ``PART`` (defaults ``-C 0.25 -M 2``).

    Repeatedly: grow a partial C4.5 tree on the remaining (weighted) instances, expanding
    subsets in order of increasing entropy and stopping at the first that does not end
    as a leaf; a node whose expanded children are all leaves is replaced by a leaf if its
    pessimistic error (confidence ``confidence``) is <= theirs + 0.1. The rule is the path
    to the expanded leaf (with >= ``min_leaf`` weight at each step) covering the most
    weight. Covered instances are removed; an instance with a missing value on a rule
    attribute is covered fractionally (the branch's weight fraction) and stays with its
    weight times one minus that. Splits are chosen by :func:`.c45.select_split` (gain
    ratio, average-gain condition, MDL-corrected numeric thresholds, split points moved
    onto values of the full training set), as in Weka.

    Probabilities (``MakeDecList.distributionForInstance``): the rules are tried in
    order, each contributing ``remaining * coverage * (class frequencies of its leaf)``,
    ``remaining`` shrinking by the factor ``1 - coverage``; known values give coverage 0
    or 1 so the first covering rule decides. As in Weka the rows are not renormalised: in
    rare cases (no rule fully covers an instance) they sum to less than 1.

    Differences from Weka (3.9.7, against which probabilities agreed to 1e-12 on the
    paper's 26 datasets): floating-point sums are vectorised (exact ties up to ~1e-12
    could in principle break differently); unseen categories at prediction are treated
    as missing; only the default C4.5-pruned variant (no ``-U``, ``-R``, ``-B``, ``-J``).

    Parameters
    ----------
    confidence : float in (0, 1), default 0.25
        Weka's ``-C``, the confidence of the pessimistic error estimate.
    min_leaf : int >= 1, default 2
        Weka's ``-M``, the minimum weight of instances per rule / split branch.

    Invalid values raise scikit-learn's ``InvalidParameterError`` in ``fit`` (and when the
    model registry is loaded).

    Attributes
    ----------
    rules_ : list of :class:`Rule`, in order.
    classes_, schema_, n_features_in_, feature_names_in_ : as in :class:`.trees.C45Tree`.
    """

    _parameter_constraints: ClassVar[dict[str, list[Any]]] = dict(C45_PARAMETER_CONSTRAINTS)

    def __init__(self, confidence: float = 0.25, min_leaf: int = 2) -> None:
        self.confidence = confidence
        self.min_leaf = min_leaf

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> PART:
        schema, xf = fit_schema(X)
        yk, classes = encode_target(y)
        if yk.size != xf.shape[0]:
            raise ValueError("X and y have different numbers of rows")
        w = check_weights(sample_weight, yk.size)
        data = TrainingData.build(xf, yk, classes.size, schema, int(self.min_leaf))
        builder = _PartialTreeBuilder(data, float(np.float32(self.confidence)))
        rows = np.arange(yk.size)
        rules: list[Rule] = []
        while rows.size:
            with deep_recursion():
                tree = builder.build(rows, w)
            rules.append(Rule(tree))
            cover = _rule_weight(tree, xf, rows)
            if not np.any(cover > SMALL):  # cannot happen in Weka's algorithm: a bug
                raise RuntimeError("PART: a rule covers none of the remaining instances")
            keep = cover - 1.0 < -SMALL
            rows, w = rows[keep], w[keep] * (1.0 - cover[keep])
        self.rules_ = rules
        self.classes_ = classes
        self.schema_ = schema
        self.n_features_in_ = schema.n_features
        if schema.names is not None:
            self.feature_names_in_ = np.array(schema.names, dtype=object)
        return self

    def predict_proba(self, X: Any) -> FloatArray:
        check_is_fitted(self, "rules_")
        xf = encode_features(self.schema_, X)
        n = xf.shape[0]
        out = np.zeros((n, self.classes_.size))
        remaining = np.ones(n)
        rows = np.arange(n)
        for rule in self.rules_:
            active = rows[remaining > SMALL]
            if active.size == 0:
                break
            cover = _rule_weight(rule.tree, xf, active)
            hit = cover > SMALL
            a, c = active[hit], cover[hit]
            out[a] += (remaining[a] * c)[:, None] * dist_probs(rule.dist, False)[None, :]
            remaining[a] *= 1.0 - c
        return out

    def predict(self, X: Any) -> NDArray[Any]:
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def to_text(self) -> str:
        """The decision list in Weka's format."""
        check_is_fitted(self, "rules_")
        blocks = []
        for rule in self.rules_:
            conds = rule.conditions(self.schema_)
            label = leaf_label(rule.dist, self.classes_)
            blocks.append(" AND\n".join(conds) + ": " + label if conds else ": " + label)
        return "\n\n".join(blocks) + f"\n\nNumber of Rules  : \t{len(self.rules_)}"
