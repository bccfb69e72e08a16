"""WekaIBk: Weka's distance with missing values, ties with the k-th neighbour, 1/n start
counts, range widening by the query rows; IBK1 crispness through the registry entry."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from threshold_choice.models.neighbours import WekaIBk
from threshold_choice.models.registry import load_model_registry
from threshold_choice.scores import score_model


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
