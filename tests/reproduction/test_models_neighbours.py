"""WekaIBk: Weka's distance with missing values, ties with the k-th neighbour, 1/n start
counts, range widening by the query rows; IBK1 crispness through the registry entry; vote
ties broken towards the class declared first (hand-built, and against Weka's IBk itself
through the Weka backend, skipped only where Java or python-weka-wrapper3 is absent)."""

from __future__ import annotations

import inspect
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from tests.conftest import SHARED
from threshold_choice.models.neighbours import WekaIBk
from threshold_choice.models.registry import load_model_registry
from threshold_choice.reproduction.scores import score_model

_DATASETS = SHARED / "datasets"


def _cat(values: list[str], cats: list[str]) -> pd.Series:
    return pd.Series(pd.Categorical(values, categories=pd.Index(cats, dtype=object)))


@pytest.fixture
def tiny() -> tuple[pd.DataFrame, np.ndarray]:
    # 11 rows with b = p and a in 0..8 (range 8: normalised values are exact binary fractions),
    # plus 2 rows with b = q that are farther than every b = p row.
    a = [4, 3, 5, 2, 6, 2, 6, 1, 7, 0, 8, 4, 4]
    y = [1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0]
    b = ["p"] * 11 + ["q", "q"]
    X = pd.DataFrame({"a": pd.Series(a, dtype="float64"), "b": _cat(b, ["p", "q"])})
    return X, np.array(y)


def test_ibk10_hand_computed_with_missing_value_and_tie(
    tiny: tuple[pd.DataFrame, np.ndarray],
) -> None:
    X, y = tiny
    query = pd.DataFrame({"a": [np.nan], "b": _cat(["p"], ["p", "q"])})
    # a missing on one side: difference = max(x, 1 - x) with x = a / 8, so the b = p rows are
    # at 0.5 (a=4), 0.625 (3, 5), 0.75 (2, 6, 2, 6), 0.875 (1, 7), 1 (0, 8); the b = q rows
    # at sqrt(0.25 + 1). The 10th nearest is at distance 1, tied with the 11th: both kept.
    # 11 neighbours, 6 of class 1; n = 13 training rows: (1/13 + 6) / (2/13 + 11).
    p10 = WekaIBk(n_neighbors=10).fit(X, y).predict_proba(query)[0]
    assert p10[1] == pytest.approx((1 / 13 + 6) / (2 / 13 + 11), rel=1e-12)
    assert p10.sum() == pytest.approx(1.0)
    # k = 9: the 9th nearest is at 0.875 (a = 1, 7) with no tie beyond: 9 neighbours, 5 of class 1.
    p9 = WekaIBk(n_neighbors=9).fit(X, y).predict_proba(query)[0]
    assert p9[1] == pytest.approx((1 / 13 + 5) / (2 / 13 + 9), rel=1e-12)


def test_nominal_missing_counts_as_mismatch(tiny: tuple[pd.DataFrame, np.ndarray]) -> None:
    X, y = tiny
    # a = 4 exactly, b missing: every row gets 1 from b; the a = 4 rows (b = p: class 1,
    # b = q: two class 0) are all at distance 1 and tie for the single nearest place.
    query = pd.DataFrame({"a": [4.0], "b": _cat([None], ["p", "q"])})
    p = WekaIBk(n_neighbors=1).fit(X, y).predict_proba(query)[0]
    assert p[1] == pytest.approx((1 / 13 + 1) / (2 / 13 + 3), rel=1e-12)


def test_ranges_widen_with_the_query_rows_in_order() -> None:
    X = pd.DataFrame({"a": [0.0, 8.0], "c": [0.0, 8.0]})
    y = np.array([0, 1])
    queries = pd.DataFrame({"a": [16.0, 2.0], "c": [0.0, 5.0]})
    # Sequential (Weka): the first query widens a to [0, 16]; then (2, 5) is nearer (8, 8):
    # (2/16)^2 + (5/8)^2 = 26/64 to (0,0) against (6/16)^2 + (3/8)^2 = 18/64 to (8, 8).
    # 1 neighbour of 2 training rows: (1/2 + 1) / (2/2 + 1) = 0.75 for its class.
    seq = WekaIBk(n_neighbors=1).fit(X, y).predict_proba(queries)[:, 1]
    np.testing.assert_allclose(seq, [0.25, 0.75])
    # Training ranges only: a = 16 normalises to 2 (nearer (8, 8)); (2, 5) is nearer (0, 0).
    fixed = WekaIBk(n_neighbors=1, range_update="training").fit(X, y).predict_proba(queries)
    np.testing.assert_allclose(fixed[:, 1], [0.75, 0.25])
    alone = WekaIBk(n_neighbors=1).fit(X, y).predict_proba(queries.iloc[[1]])
    assert alone[0, 1] == pytest.approx(0.25)


def test_ibk1_registry_entry_is_crisp_and_recovers_training_labels() -> None:
    rng = np.random.default_rng(0)
    n = 60
    X = pd.DataFrame({
        "u": rng.normal(size=n),
        "v": rng.normal(size=n),
        "w": _cat(list(rng.choice(["r", "s", "t"], size=n)), ["r", "s", "t"]),
    })
    y = (X["u"] + 0.5 * rng.normal(size=n) > 0).astype(int).to_numpy()

    class Split:
        train = np.arange(0, n, 2)
        test = np.arange(1, n, 2)

    spec = load_model_registry(only=["IBK1"])["IBK1"]
    scores, _ = score_model(X, y, [Split()], spec, seed=3)
    assert set(np.unique(scores["score"])) <= {0.0, 1.0}
    train = scores[scores["part"] == "train"]
    # 1-NN on its own training rows (all distinct) returns each row's own label
    np.testing.assert_array_equal(train["score"].to_numpy(), train["label"].to_numpy())


def _weka_distance_by_pairs(train: np.ndarray, query: np.ndarray,
                            nominal: np.ndarray) -> np.ndarray:
    """Straight transcription of NormalizableDistance.difference, one pair at a time, with
    ranges widened row by row by the queries (training rows first)."""
    lo = np.nanmin(train, axis=0)
    hi = np.nanmax(train, axis=0)
    out = np.zeros((query.shape[0], train.shape[0]))
    for r, q in enumerate(query):
        lo = np.where(np.isnan(q), lo, np.fmin(lo, q))
        hi = np.where(np.isnan(q), hi, np.fmax(hi, q))
        for i, t in enumerate(train):
            total = 0.0
            for j in range(train.shape[1]):
                a, b = q[j], t[j]
                if nominal[j]:
                    d = 1.0 if (np.isnan(a) or np.isnan(b) or a != b) else 0.0
                else:
                    low, w = lo[j], hi[j] - lo[j]

                    def norm(v: float, low: float = low, w: float = w) -> float:
                        return 0.0 if w == 0 else (v - low) / w

                    if np.isnan(a) and np.isnan(b):
                        d = 1.0
                    elif np.isnan(a) or np.isnan(b):
                        d = norm(b if np.isnan(a) else a)
                        d = 1.0 - d if d < 0.5 else d
                    else:
                        d = norm(a) - norm(b)
                total += d * d
            out[r, i] = np.sqrt(total)
    return out


def test_vectorised_distance_matches_pairwise_transcription() -> None:
    from threshold_choice.models.neighbours import _running_ranges, weka_distances

    rng = np.random.default_rng(11)
    nominal = np.array([False, True, False, False])
    train = np.column_stack([rng.normal(size=15), rng.integers(0, 3, 15), rng.uniform(size=15),
                             np.full(15, 2.0)])
    query = np.column_stack([rng.normal(scale=2, size=9), rng.integers(0, 3, 9),
                             rng.uniform(size=9), rng.choice([2.0, 3.0], 9)])
    train[rng.random(train.shape) < 0.2] = np.nan
    query[rng.random(query.shape) < 0.25] = np.nan
    lo, width = _running_ranges(train, query, "sequential")
    got = weka_distances(train, query, nominal, lo, width)
    np.testing.assert_allclose(got, _weka_distance_by_pairs(train, query, nominal), rtol=1e-14)


# ---------------------------------------------------------------------------
# Ties of votes: the class declared first wins (Weka's Utils.maxIndex)
# ---------------------------------------------------------------------------


def _tie_data() -> tuple[pd.DataFrame, np.ndarray, pd.DataFrame]:
    # x = 1 is equidistant from x = 0 (class 0) and x = 2 (class 1): with k = 1 both are kept,
    # one vote each, probabilities (1/2 + 1) / (2/2 + 2) = 0.5 each. x = 0.5 and 1.5: no tie.
    X = pd.DataFrame({"x": [0.0, 2.0]})
    y = np.array([0, 1])
    query = pd.DataFrame({"x": [1.0, 0.5, 1.5]})
    return X, y, query


def test_vote_tie_goes_to_the_class_declared_first() -> None:
    X, y, query = _tie_data()
    minority_first = WekaIBk(n_neighbors=1, class_order=(0, 1)).fit(X, y)
    majority_first = WekaIBk(n_neighbors=1, class_order=(1, 0)).fit(X, y)
    np.testing.assert_array_equal(minority_first.predict_proba(query)[0], [0.5, 0.5])
    np.testing.assert_array_equal(majority_first.predict_proba(query),
                                  minority_first.predict_proba(query))  # scores unaffected
    np.testing.assert_array_equal(minority_first.predict(query), [0, 0, 1])
    np.testing.assert_array_equal(majority_first.predict(query), [1, 0, 1])
    assert WekaIBk().class_order == (0, 1)  # default: ties to class 0
    np.testing.assert_array_equal(WekaIBk().fit(X, y).predict(query), [0, 0, 1])
    # a list (as YAML gives it) is accepted too
    np.testing.assert_array_equal(WekaIBk(class_order=[1, 0]).fit(X, y).predict(query),
                                  [1, 0, 1])


def test_crisp_ibk1_scores_follow_the_class_order_passed_by_the_pipeline() -> None:
    # The pipeline adds class_order to the params of estimators whose constructor has one.
    assert "class_order" in inspect.signature(WekaIBk).parameters
    X, y, query = _tie_data()

    class Split:
        train = np.array([0, 1])
        test = np.array([2, 3, 4])

    data = pd.concat([X, query], ignore_index=True)
    labels = np.concatenate([y, [0, 0, 0]])  # test labels do not enter the scores
    spec = load_model_registry(only=["IBK1"])["IBK1"]
    test_scores = []
    for order in ((0, 1), (1, 0)):
        with_order = replace(spec, params={**spec.params, "class_order": order})
        scores, _ = score_model(data, labels, [Split()], with_order, seed=0)
        test_scores.append(scores.loc[scores["part"] == "test", "score"].to_numpy())
    np.testing.assert_array_equal(test_scores[0], [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(test_scores[1], [1.0, 0.0, 1.0])


@pytest.mark.parametrize("order", [(1, 1), (0, 2), (True, False), "10", (0, 1, 0), None])
def test_bad_class_order_is_refused(order: object) -> None:
    X, y, _ = _tie_data()
    with pytest.raises(InvalidParameterError, match="class_order"):
        WekaIBk(class_order=order).fit(X, y)  # type: ignore[arg-type]


@pytest.mark.parametrize("params", [{"n_neighbors": 0}, {"n_neighbors": 1.5},
                                    {"range_update": "all"}, {"chunk_size": 0}])
def test_bad_parameters_are_refused_at_fit(params: dict) -> None:
    X, y, _ = _tie_data()
    with pytest.raises(InvalidParameterError, match=next(iter(params))):
        WekaIBk(**params).fit(X, y)


def _arff_frame(dataset: str) -> tuple[pd.DataFrame, pd.Series]:
    """Features (nominal as Categorical in declared order) and the class (last attribute)."""
    from threshold_choice.datasets.arff import read_arff

    _, table = read_arff(_DATASETS / f"{dataset}.arff")
    cols: dict[str, object] = {}
    for c in table.columns:
        if c.kind == "nominal":
            cols[c.name] = pd.Categorical.from_codes(
                np.asarray(c.values), categories=pd.Index(list(c.categories), dtype=object))
        else:
            cols[c.name] = np.asarray(c.values, dtype=float)
    df = pd.DataFrame(cols)
    return df.iloc[:, :-1], df.iloc[:, -1]


@pytest.mark.skipif(not (_DATASETS / "breast-cancer.arff").is_file(),
                    reason="needs ../shared/datasets/breast-cancer.arff")
def test_ibk1_crisp_scores_equal_wekas_with_ties(jvm: None) -> None:
    from threshold_choice.models.weka import WekaClassifier, paper_weka_model
    from threshold_choice.splits.core import RSplitter

    # breast-cancer: 9 nominal attributes, so many equidistant nearest neighbours; the
    # majority class (no-recurrence-events) is declared first.
    X, target = _arff_frame("breast-cancer")
    levels = list(target.cat.categories)
    majority = target.value_counts().idxmax()
    y = (target == majority).to_numpy().astype(np.int64)
    order = tuple(1 if level == majority else 0 for level in levels)
    assert order == (1, 0)
    split = RSplitter().split(target.astype(str).to_numpy(), levels, 1)  # R's iteration 1
    train, test = split.train, split.test  # in R's (shuffled) order, as the authors predicted
    fit_rows = train[~X.iloc[train].isna().any(axis=1).to_numpy()]  # RWeka's na.omit
    X_test = X.iloc[test].reset_index(drop=True)

    ours = WekaIBk(n_neighbors=1, class_order=order).fit(X.iloc[fit_rows], y[fit_rows])
    proba = ours.predict_proba(X_test)
    crisp = ours.predict(X_test)
    weka_crisp = paper_weka_model("IBK1", class_order=order).fit(X.iloc[train], y[train])
    np.testing.assert_array_equal(crisp, weka_crisp.predict_proba(X_test)[:, 1])
    weka_soft = WekaClassifier("weka.classifiers.lazy.IBk", ["-K", "1"], class_order=order)
    np.testing.assert_allclose(proba, weka_soft.fit(X.iloc[train], y[train]).predict_proba(X_test),
                               rtol=0, atol=1e-12)
    # the split has tied votes, where the other class order would give the other class
    ties = proba[:, 0] == proba[:, 1]
    assert ties.sum() >= 5
    other = WekaIBk(n_neighbors=1, class_order=order[::-1]).fit(X.iloc[fit_rows], y[fit_rows])
    np.testing.assert_array_equal(other.predict(X_test) != crisp, ties)
