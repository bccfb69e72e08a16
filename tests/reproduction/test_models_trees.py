"""Tests of the Weka J48 / J48Unp / DecisionStump reimplementations (models/trees.py and
the C4.5 machinery of models/c45.py).

Expected values are computed by hand (or with plain entropy / binomial-bound formulas
written out here, independently of the implementation), or come from the paper
(Appendix B). An optional oracle test compares with Weka itself when ``WEKA_JAR`` points
to a weka.jar (e.g. the one bundled with python-weka-wrapper3) and ``java`` is on PATH.
"""

from __future__ import annotations

import math
import os
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils._param_validation import InvalidParameterError

from tests.conftest import SHARED
from threshold_choice.models.c45 import TrainingData, add_errs, fit_schema, select_split
from threshold_choice.models.jvm import java_executable
from threshold_choice.models.trees import C45Tree, DecisionStump


def _h(counts: list[float]) -> float:
    """Entropy in bits of a count vector."""
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c > 0)


def _info_gain(table: list[list[float]]) -> float:
    """Information gain of a split given as (subset x class) counts, no missing values."""
    cls = [sum(col) for col in zip(*table, strict=True)]
    n = sum(cls)
    return _h(cls) - sum(sum(row) / n * _h(row) for row in table if sum(row) > 0)


def _split_info(table: list[list[float]]) -> float:
    return _h([sum(row) for row in table])


def _pessimistic_errors(n: float, e: float, cf: float = 0.25) -> float:
    """n times C4.5's upper confidence bound on the error rate (normal approximation to
    the binomial with continuity correction, e >= 1 and e + 0.5 < n)."""
    z = norm.ppf(1 - cf)
    f = (e + 0.5) / n
    upper = (f + z**2 / (2 * n) + z * math.sqrt(f / n - f**2 / n + z**2 / (4 * n**2))) / (
        1 + z**2 / n
    )
    return n * upper


def _cat(values: list[str | None], categories: list[str]) -> pd.Categorical:
    return pd.Categorical(values, categories=categories)


# ---------------------------------------------------------------------------
# Appendix B of the paper: J48 unpruned with Laplace leaves
# ---------------------------------------------------------------------------


def _appendix_b_data() -> tuple[pd.DataFrame, np.ndarray]:
    """47 instances (28 of class 0, 19 of class 1) built so that C4.5 grows the tree of
    the paper's Appendix B: word_freq_our separates the (1/13) group; inside it the two
    class-1 instances with word_freq_your = 5; then char_freq_! isolates the 8 instances
    where capital_run_length_longest (useless elsewhere: the 23 class-0 instances take
    both 5 and 30) separates the classes. Boundary values 0.28, 3.17, 0.204 and 10 occur
    in the data so that the thresholds land on them (C4.5 moves them onto data values)."""
    rows: list[tuple[float, float, float, float, int]] = []

    def add(n: int, our: list[float], your: list[float], excl: list[float],
            caps: list[float], label: int) -> None:
        for i in range(n):
            rows.append((our[i % len(our)], your[i % len(your)], excl[i % len(excl)],
                         caps[i % len(caps)], label))

    add(23, [0.28] + [0.1] * 22, [3.17] + [1.0] * 22, [0.204] + [0.0] * 22, [5.0, 30.0], 0)
    add(4, [0.1], [1.0], [0.5], [10.0, 5.0], 0)
    add(4, [0.1], [1.0], [0.5], [30.0, 20.0], 1)
    add(2, [0.1], [5.0], [0.0], [5.0], 1)
    add(1, [0.5], [1.0], [0.0], [5.0], 0)
    add(13, [0.5], [1.0], [0.0], [5.0, 30.0], 1)
    df = pd.DataFrame(rows, columns=["word_freq_our", "word_freq_your", "char_freq_!",
                                     "capital_run_length_longest", "y"])
    return df.drop(columns="y"), df["y"].to_numpy()


# One point in each leaf, in the order of the paper's listing.
_APPENDIX_B_POINTS = pd.DataFrame(
    [[0.1, 1.0, 0.1, 5.0], [0.1, 1.0, 0.5, 8.0], [0.1, 1.0, 0.5, 25.0], [0.2, 4.0, 0.0, 5.0],
     [0.9, 0.0, 0.0, 0.0]],
    columns=["word_freq_our", "word_freq_your", "char_freq_!", "capital_run_length_longest"],
)

_APPENDIX_B_TREE = """\
word_freq_our <= 0.28
|   word_freq_your <= 3.17
|   |   char_freq_! <= 0.204: 0 (23)
|   |   char_freq_! > 0.204
|   |   |   capital_run_length_longest <= 10: 0 (4)
|   |   |   capital_run_length_longest > 10: 1 (4)
|   word_freq_your > 3.17: 1 (2)
word_freq_our > 0.28: 1 (14/1)"""


def test_appendix_b_j48unp_laplace_scores() -> None:
    X, y = _appendix_b_data()
    assert (np.sum(y == 0), np.sum(y == 1)) == (28, 19)
    model = C45Tree(unpruned=True, laplace=True).fit(X, y)
    assert model.to_text() == _APPENDIX_B_TREE
    scores = model.predict_proba(_APPENDIX_B_POINTS)[:, 1]
    # Leaves (n0/n1) = (23/0), (4/0), (0/4), (0/2), (1/13): (n1 + 1) / (n + 2).
    np.testing.assert_allclose(scores, [1 / 25, 1 / 6, 5 / 6, 3 / 4, 14 / 16], rtol=1e-12)
    # The values printed in the paper (3 decimals).
    np.testing.assert_allclose(scores, [0.040, 0.167, 0.833, 0.750, 0.875], atol=5e-4)


def test_appendix_b_j48_uses_leaf_frequencies() -> None:
    X, y = _appendix_b_data()
    model = C45Tree().fit(X, y)
    # Pruning keeps this tree (pure leaves); probabilities are plain frequencies.
    assert model.to_text() == _APPENDIX_B_TREE
    proba = model.predict_proba(_APPENDIX_B_POINTS)
    np.testing.assert_allclose(proba[:, 1], [0, 0, 1, 1, 13 / 14], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


# ---------------------------------------------------------------------------
# Error-based pruning
# ---------------------------------------------------------------------------


def _one_split_data(a_counts: tuple[int, int], b_counts: tuple[int, int]) -> tuple[
        pd.DataFrame, np.ndarray]:
    """Nominal attribute A: value 'a' with (n_class0, n_class1) = a_counts, 'b' likewise."""
    values: list[str | None] = []
    labels: list[int] = []
    for val, (n0, n1) in (("a", a_counts), ("b", b_counts)):
        values += [val] * (n0 + n1)
        labels += [0] * n0 + [1] * n1
    return pd.DataFrame({"A": _cat(values, ["a", "b"])}), np.array(labels)


def test_pruning_replaces_useless_split_by_leaf() -> None:
    # A = a: 4 of class 0, 9 of class 1; A = b: 4 and 3. The split lowers the training
    # error from 8 to 7, so collapsing keeps it, but C4.5's pessimistic estimate does not.
    X, y = _one_split_data((4, 9), (4, 3))
    leaf = _pessimistic_errors(20, 8)
    subtree = _pessimistic_errors(13, 4) + _pessimistic_errors(7, 3)
    assert leaf == pytest.approx(10.008, abs=1e-3)
    assert subtree == pytest.approx(10.072, abs=1e-3)
    assert leaf <= subtree + 0.1  # so C4.5 prunes (leaf wins ties up to +0.1)

    unpruned = C45Tree(unpruned=True).fit(X, y)
    assert unpruned.tree_.n_leaves() == 2
    np.testing.assert_allclose(unpruned.predict_proba(X.iloc[[0, 13]])[:, 1], [9 / 13, 3 / 7])

    pruned = C45Tree().fit(X, y)
    assert pruned.tree_.is_leaf
    np.testing.assert_allclose(pruned.predict_proba(X)[:, 1], 12 / 20)


def test_pruning_keeps_useful_split() -> None:
    # A = a: 1 of class 0, 12 of class 1; A = b: 6 and 1.
    X, y = _one_split_data((1, 12), (6, 1))
    leaf = _pessimistic_errors(20, 7)
    subtree = _pessimistic_errors(13, 1) + _pessimistic_errors(7, 1)
    assert subtree + 0.1 < leaf
    pruned = C45Tree().fit(X, y)
    assert pruned.tree_.n_leaves() == 2
    np.testing.assert_allclose(pruned.predict_proba(X.iloc[[0, 13]])[:, 1], [12 / 13, 1 / 7])


def test_add_errs_matches_binomial_bound() -> None:
    for n, e in [(20, 8), (13, 4), (7, 3), (100, 10)]:
        assert e + add_errs(n, e, 0.25) == pytest.approx(_pessimistic_errors(n, e), rel=1e-12)
    # e = 0: the exact binomial bound, 1 - cf**(1/n) (cf = probability of 0 errors).
    assert add_errs(10, 0, 0.25) == pytest.approx(10 * (1 - 0.25**0.1), rel=1e-12)


# ---------------------------------------------------------------------------
# Split selection: gain ratio with the average-gain condition
# ---------------------------------------------------------------------------


def _gain_ratio_data(with_d: bool) -> tuple[pd.DataFrame, np.ndarray]:
    """40 instances, 20 per class, nominal attributes with these class-conditional counts
    (class 1 / class 0): A: a0 10/0, a1 0/10, a2 5/5, a3 5/5; B: b0 16/4, b1 4/16;
    C: c0 8/0, c1 12/20; D: d0 10/10, d1 10/10."""
    one = {"A": ["a0"] * 10 + ["a2"] * 5 + ["a3"] * 5, "B": ["b0"] * 16 + ["b1"] * 4,
           "C": ["c0"] * 8 + ["c1"] * 12, "D": ["d0", "d1"] * 10}
    zero = {"A": ["a1"] * 10 + ["a2"] * 5 + ["a3"] * 5, "B": ["b0"] * 4 + ["b1"] * 16,
            "C": ["c1"] * 20, "D": ["d0", "d1"] * 10}
    cats = {"A": ["a0", "a1", "a2", "a3"], "B": ["b0", "b1"], "C": ["c0", "c1"],
            "D": ["d0", "d1"]}
    names = ["A", "B", "C", "D"] if with_d else ["A", "B", "C"]
    X = pd.DataFrame({k: _cat(one[k] + zero[k], cats[k]) for k in names})
    return X, np.array([1] * 20 + [0] * 20)


def test_gain_ratio_choice_with_average_gain_condition() -> None:
    tables = {"A": [[0, 10], [10, 0], [5, 5], [5, 5]], "B": [[4, 16], [16, 4]],
              "C": [[0, 8], [20, 12]], "D": [[10, 10], [10, 10]]}
    gain = {k: _info_gain(t) for k, t in tables.items()}
    ratio = {k: gain[k] / _split_info(t) for k, t in tables.items()}
    # Hand-computed: gains 0.5, 0.278, 0.236, 0; gain ratios 0.25, 0.278, 0.328, 0.
    assert ratio["C"] > ratio["B"] > ratio["A"]
    avg4 = sum(gain.values()) / 4
    assert gain["C"] < avg4 - 1e-3 < gain["B"] < gain["A"]
    # With D, the average (0.254) admits A and B; B has the best gain ratio. C's higher
    # gain ratio does not count because its gain is below average.
    X, y = _gain_ratio_data(with_d=True)
    assert C45Tree(unpruned=True).fit(X, y).tree_.split.attr == 1  # B
    # Without D the average (0.338) admits only A.
    avg3 = (gain["A"] + gain["B"] + gain["C"]) / 3
    assert gain["B"] < avg3 < gain["A"]
    X3, y3 = _gain_ratio_data(with_d=False)
    assert C45Tree(unpruned=True).fit(X3, y3).tree_.split.attr == 0  # A


def test_split_point_moves_to_training_value_with_exact_comparison() -> None:
    # A node holding 24.7 (class 0) and 24.9 (class 1) but not 24.8, which occurs
    # elsewhere in the training set. The midpoint is (24.7 + 24.9) / 2 =
    # 24.799999999999997 in floating point, so the largest training value <= it is
    # 24.7 under Weka 3.9's exact comparison (Weka 3.8's 1e-6 tolerance gave 24.8).
    x = np.array([24.7, 24.7, 24.9, 24.9, 24.8])
    y = np.array([0, 0, 1, 1, 0])
    schema, xf = fit_schema(x[:, None])
    data = TrainingData.build(xf, y, 2, schema, min_obj=2)
    split = select_split(data, np.arange(4), np.ones(4))
    assert split is not None
    assert (24.7 + 24.9) / 2 < 24.8
    assert split.point == 24.7
    np.testing.assert_array_equal(split.subset_of(np.array([24.7, 24.8, np.nan])), [0, 1, -1])


def test_numeric_split_needs_gain_above_mdl_penalty() -> None:
    # 2 classes interleaved 0,0,1,1,0,0,1,1,...: every threshold has small gain; the
    # best ones (after 2 or after 6 values, ...) cannot pay log2(#thresholds)/N.
    x = np.arange(40, dtype=float)
    y = np.array([(i // 2) % 2 for i in range(40)])
    model = C45Tree(unpruned=True).fit(x[:, None], y)
    # minSplit = max(2, 0.1 * 40 / 2) = 2 -> thresholds between positions 2..38: 37 of them.
    penalty = math.log2(37) / 40
    best_gain = max(
        _info_gain([[np.sum(y[:i] == 0), np.sum(y[:i] == 1)],
                    [np.sum(y[i:] == 0), np.sum(y[i:] == 1)]]) for i in range(2, 39))
    assert best_gain < penalty
    assert model.tree_.is_leaf


# ---------------------------------------------------------------------------
# Missing values (fractional instances)
# ---------------------------------------------------------------------------


def _missing_data() -> tuple[np.ndarray, np.ndarray]:
    # x = 1: 5 of class 0, 1 of class 1; x = 9: 4 of class 1; x missing: one of each.
    x = np.array([1.0] * 6 + [9.0] * 4 + [np.nan] * 2)
    y = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1])
    return x[:, None], y


def test_missing_values_in_training_are_split_fractionally() -> None:
    X, y = _missing_data()
    model = C45Tree(unpruned=True).fit(X, y)
    root = model.tree_
    assert root.split is not None
    # Threshold: midpoint 5 moved down to the largest training value <= 5, i.e. 1.
    assert root.split.point == 1.0
    # The two rows with x missing go left with weight 6/10 and right with 4/10.
    np.testing.assert_allclose(root.children[0].dist, [5.6, 1.6])
    np.testing.assert_allclose(root.children[1].dist, [0.4, 4.4])
    proba = model.predict_proba(np.array([[1.0], [5.0], [9.0]]))
    np.testing.assert_allclose(proba[:, 1], [1.6 / 7.2, 4.4 / 4.8, 4.4 / 4.8])


def test_missing_value_at_prediction_weights_branches() -> None:
    X, y = _missing_data()
    x_missing = np.array([[np.nan]])
    plain = C45Tree(unpruned=True).fit(X, y).predict_proba(x_missing)[0, 1]
    # Branch weights 7.2/12 and 4.8/12.
    assert plain == pytest.approx(0.6 * 1.6 / 7.2 + 0.4 * 4.4 / 4.8)
    lap = C45Tree(unpruned=True, laplace=True).fit(X, y).predict_proba(x_missing)[0, 1]
    assert lap == pytest.approx(0.6 * 2.6 / 9.2 + 0.4 * 5.4 / 6.8)
    assert lap != pytest.approx(7 / 14)  # not the root's own Laplace estimate


def test_missing_nominal_value_and_unseen_category() -> None:
    X, y = _one_split_data((1, 12), (6, 1))
    model = C45Tree().fit(X, y)
    test = pd.DataFrame({"A": pd.Categorical([None, "a"], categories=["a", "b"])})
    expected_missing = 13 / 20 * 12 / 13 + 7 / 20 * 1 / 7
    np.testing.assert_allclose(model.predict_proba(test)[:, 1], [expected_missing, 12 / 13])
    # A value the training data did not declare is treated as missing.
    unseen = pd.DataFrame({"A": pd.Categorical(["zzz"], categories=["a", "b", "zzz"])})
    assert model.predict_proba(unseen)[0, 1] == pytest.approx(expected_missing)


def test_empty_nominal_branch_uses_parent_distribution() -> None:
    # Value 'c' is declared but absent: its leaf is empty and predicts the parent's
    # distribution (J48) or its Laplace estimate (J48Unp).
    X, y = _one_split_data((1, 12), (6, 1))
    X["A"] = X["A"].cat.add_categories(["c"])
    test = pd.DataFrame({"A": pd.Categorical(["c"], categories=["a", "b", "c"])})
    assert C45Tree().fit(X, y).predict_proba(test)[0, 1] == pytest.approx(13 / 20)
    lap = C45Tree(unpruned=True, laplace=True).fit(X, y)
    assert lap.predict_proba(test)[0, 1] == pytest.approx(14 / 22)


# ---------------------------------------------------------------------------
# DecisionStump
# ---------------------------------------------------------------------------


def test_stump_missing_branch_and_midpoint() -> None:
    x = np.array([1.0, 2.0, 3.0, 4.0, np.nan, np.nan, np.nan])
    y = np.array([0, 0, 1, 1, 1, 1, 0])
    stump = DecisionStump().fit(x[:, None], y)
    assert stump.split_point_ == 2.5  # the midpoint, not moved onto a data value
    proba = stump.predict_proba(np.array([[2.5], [2.6], [np.nan]]))
    np.testing.assert_allclose(proba, [[1, 0], [0, 1], [1 / 3, 2 / 3]])


def test_stump_without_training_missing_uses_overall_distribution() -> None:
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    y = np.array([0, 0, 1, 1, 1])
    stump = DecisionStump().fit(x[:, None], y)
    np.testing.assert_allclose(stump.predict_proba(np.array([[np.nan]])), [[0.4, 0.6]])


def test_stump_nominal_value_versus_rest_and_choice_by_entropy() -> None:
    # Attribute N (nominal): 'u' -> 3 of class 1; 'v' -> 1/1; 'w' -> 2 of class 0.
    # Attribute M (numeric) with a worse best split. Missing values of N count as a
    # third branch in the conditional entropy.
    n_vals = ["u", "u", "u", "v", "v", "w", "w", None]
    y = np.array([1, 1, 1, 1, 0, 0, 0, 1])
    m_vals = [1.0, 5.0, 2.0, 6.0, 3.0, 7.0, 4.0, 8.0]
    X = pd.DataFrame({"M": m_vals, "N": _cat(n_vals, ["u", "v", "w"])})

    def cond_entropy(branches: list[list[int]]) -> float:
        n = sum(sum(b) for b in branches)
        return sum(sum(b) / n * _h(b) for b in branches if sum(b) > 0)

    # (class 0, class 1) counts of '= value', '!= value', missing for each value of N.
    ent_n = {"u": cond_entropy([[0, 3], [3, 1], [0, 1]]),
             "v": cond_entropy([[1, 1], [2, 3], [0, 1]]),
             "w": cond_entropy([[2, 0], [1, 4], [0, 1]])}
    sorted_y = y[np.argsort(m_vals)]
    ent_m = min(cond_entropy([[int(np.sum(sorted_y[:i] == 0)), int(np.sum(sorted_y[:i] == 1))],
                              [int(np.sum(sorted_y[i:] == 0)), int(np.sum(sorted_y[i:] == 1))],
                              [0, 0]]) for i in range(1, 8))
    best_value = min(ent_n, key=ent_n.__getitem__)
    assert best_value == "u" and ent_n["u"] < ent_m
    stump = DecisionStump().fit(X, y)
    assert (stump.attribute_, stump.split_point_) == (1, 0.0)
    test = pd.DataFrame({"M": [0.0, 0.0, 0.0], "N": _cat(["u", "w", None], ["u", "v", "w"])})
    np.testing.assert_allclose(stump.predict_proba(test), [[0, 1], [0.75, 0.25], [0, 1]])


# ---------------------------------------------------------------------------
# scikit-learn basics and speed
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("est", [C45Tree(), C45Tree(unpruned=True, laplace=True),
                                 DecisionStump()])
def test_sklearn_basics(est: C45Tree | DecisionStump) -> None:
    cloned = clone(est)
    assert cloned.get_params() == est.get_params()
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    y = (X[:, 0] + 0.5 * rng.normal(size=200) > 0).astype(int)
    fitted = cloned.fit(X, y)
    assert fitted is cloned
    np.testing.assert_array_equal(fitted.classes_, [0, 1])
    assert fitted.n_features_in_ == 4
    proba = fitted.predict_proba(X)
    assert proba.shape == (200, 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.mean(fitted.predict(X) == y) > 0.75
    with pytest.raises(NotFittedError):
        clone(est).predict_proba(X)


def test_set_params_changes_behaviour() -> None:
    X, y = _one_split_data((4, 9), (4, 3))
    model = C45Tree()
    assert model.fit(X, y).tree_.is_leaf
    assert not model.set_params(unpruned=True).fit(X, y).tree_.is_leaf


@pytest.mark.parametrize("params", [
    {"confidence": 5}, {"confidence": 0}, {"confidence": 1.0}, {"confidence": float("nan")},
    {"confidence": "0.25"}, {"min_leaf": "abc"}, {"min_leaf": 0}, {"min_leaf": 2.0},
    {"unpruned": "no"}, {"laplace": 1}, {"subtree_raising": None}, {"collapse_tree": "true"},
])
def test_invalid_parameters_are_refused_at_fit(params: dict) -> None:
    X, y = _one_split_data((4, 9), (4, 3))
    with pytest.raises(InvalidParameterError, match=f"'{next(iter(params))}' parameter of C45Tree"):
        C45Tree(**params).fit(X, y)


def test_valid_parameter_types_are_accepted() -> None:
    X, y = _one_split_data((4, 9), (4, 3))
    C45Tree(confidence=np.float32(0.25), min_leaf=np.int64(2), unpruned=np.True_).fit(X, y)
    DecisionStump().fit(X, y)
    assert DecisionStump().get_params() == {}


def test_dataframe_feature_names_and_column_order() -> None:
    X, y = _appendix_b_data()
    model = C45Tree(unpruned=True, laplace=True).fit(X, y)
    assert list(model.feature_names_in_) == list(X.columns)
    shuffled = _APPENDIX_B_POINTS[_APPENDIX_B_POINTS.columns[::-1]]
    np.testing.assert_allclose(model.predict_proba(shuffled),
                               model.predict_proba(_APPENDIX_B_POINTS))


def test_j48_on_spambase_sized_data_splits_on_the_informative_columns() -> None:
    # (its fit time is measured by benchmarks/bench_models.py, not asserted here)
    rng = np.random.default_rng(1)
    X = rng.random((4600, 57))
    y = ((X[:, 0] + 0.3 * X[:, 1] + 0.2 * rng.standard_normal(4600)) > 0.6).astype(int)
    model = C45Tree().fit(X, y)
    assert model.tree_.n_leaves() > 10
    assert model.tree_.split.attr == 0  # the root splits on the strongest signal
    assert np.mean(model.predict(X) == y) > 0.8


# ---------------------------------------------------------------------------
# Optional oracle: Weka itself
# ---------------------------------------------------------------------------

_DATASETS = SHARED / "datasets"


def _bundled_weka_jar() -> str:
    """weka.jar of python-weka-wrapper3 (the ``weka`` extra), if installed."""
    try:
        import weka  # python-weka-wrapper3

        jar = Path(weka.__file__).parent / "lib" / "weka.jar"
    except ImportError:
        return ""
    return str(jar) if jar.is_file() else ""


if not os.environ.get("WEKA_JAR"):
    os.environ["WEKA_JAR"] = _bundled_weka_jar()


def weka_oracle_available() -> bool:
    jar = os.environ.get("WEKA_JAR", "")
    return bool(jar) and Path(jar).is_file() and java_executable() is not None \
        and _DATASETS.is_dir()


def compare_with_weka(tmp_path: Path, dataset: str, weka_args: list[str], est: object,
                      seed: int = 0) -> float:
    """Fit Weka (CLI) and ``est`` on the same random half of an ARFF file (class = last
    attribute) and return the largest difference of predicted class probabilities on the
    other half."""
    from threshold_choice.datasets.arff import read_arff

    _, table = read_arff(_DATASETS / f"{dataset}.arff")
    cols: dict[str, object] = {}
    for c in table.columns:
        if c.kind == "nominal":
            cols[c.name] = pd.Categorical.from_codes(np.asarray(c.values),
                                                     categories=list(c.categories))
        else:
            cols[c.name] = np.asarray(c.values, dtype=float)
    df = pd.DataFrame(cols)
    lines = (_DATASETS / f"{dataset}.arff").read_bytes().decode("latin-1").splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().lower().startswith("@data"))
    rows = [line for line in lines[start + 1:] if line.strip() and not line.startswith("%")]
    assert len(rows) == len(df)
    order = np.random.default_rng(seed).permutation(len(df))
    train, test = np.sort(order[: len(df) // 2]), np.sort(order[len(df) // 2:])
    for name, idx in (("train", train), ("test", test)):
        (tmp_path / f"{name}.arff").write_text(
            "\n".join(lines[: start + 1] + [rows[i] for i in idx]) + "\n", encoding="latin-1")
    out = subprocess.run(
        [str(java_executable()), "-cp", os.environ["WEKA_JAR"], *weka_args,
         "-t", str(tmp_path / "train.arff"), "-T", str(tmp_path / "test.arff"), "-classifications",
         "weka.classifiers.evaluation.output.prediction.CSV -distribution -decimals 12"],
        capture_output=True, text=True, check=True).stdout.splitlines()
    first = next(i for i, line in enumerate(out) if line.startswith("inst#")) + 1
    n_classes = len(df.iloc[:, -1].cat.categories)
    weka = np.array([[float(v.replace("*", "")) for v in line.split(",")[-n_classes:]]
                     for line in out[first:first + len(test)]])
    X, y = df.iloc[:, :-1], df.iloc[:, -1].cat.codes.to_numpy()
    fitted = clone(est).fit(X.iloc[train], y[train])  # type: ignore[arg-type]
    ours = np.zeros_like(weka)
    ours[:, np.unique(y[train])] = fitted.predict_proba(X.iloc[test])
    return float(np.abs(ours - weka).max())


@pytest.mark.skipif(not weka_oracle_available(), reason="set WEKA_JAR to a weka.jar")
@pytest.mark.parametrize("dataset", ["credit-a", "breast-cancer", "diabetes", "hepatitis"])
@pytest.mark.parametrize(("args", "est"), [
    (["weka.classifiers.trees.J48"], C45Tree()),
    (["weka.classifiers.trees.J48", "-U", "-A"], C45Tree(unpruned=True, laplace=True)),
    (["weka.classifiers.trees.DecisionStump"], DecisionStump()),
])
def test_matches_weka(tmp_path: Path, dataset: str, args: list[str], est: object) -> None:
    assert compare_with_weka(tmp_path, dataset, args, est) < 1e-9
