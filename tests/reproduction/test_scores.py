"""The scores producer: layout, the protocol's handling of missing values, errors,
determinism and the parquet writer."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from sklearn.base import BaseEstimator

from threshold_choice.errors import UserError
from threshold_choice.models.registry import ModelSpec, load_model_registry
from threshold_choice.reproduction.scores import score_model, write_scores


class _Split:
    def __init__(self, train: list[int] | np.ndarray, test: list[int] | np.ndarray,
                 iteration: int | None = None) -> None:
        self.train, self.test = np.asarray(train), np.asarray(test)
        if iteration is not None:
            self.iteration = iteration


class NaNScorer(BaseEstimator):
    """A classifier whose probabilities are NaN (registry estimators must be scikit-learn
    estimator classes)."""

    def fit(self, X: pd.DataFrame, y: np.ndarray) -> NaNScorer:
        self.classes_ = np.array([0, 1])
        return self

    def predict_proba(self, X: pd.DataFrame) -> np.ndarray:
        return np.full((len(X), 2), np.nan)


class PoolRecorder(BaseEstimator):
    """A classifier that records the native thread pools' sizes while it fits."""

    seen: ClassVar[list[int]] = []

    def fit(self, X: pd.DataFrame, y: np.ndarray) -> PoolRecorder:
        from threadpoolctl import threadpool_info

        PoolRecorder.seen.extend(pool["num_threads"] for pool in threadpool_info())
        self.classes_ = np.array([0, 1])
        return self

    def predict_proba(self, X: pd.DataFrame) -> np.ndarray:
        return np.full((len(X), 2), 0.5)


def _data() -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(4)
    n = 40
    a = rng.normal(size=n)
    a[[0, 3, 5]] = np.nan  # rows 0 and 5 in train, row 3 in test (see _splits)
    X = pd.DataFrame({
        "a": a,
        "b": pd.Series(pd.Categorical(rng.choice(["s", "t"], size=n),
                                      categories=pd.Index(["s", "t"], dtype=object))),
    })
    y = np.array([1, 0] * 20)
    y[[0, 2]] = 1  # the two dropped training rows (0, 5) are both class 1 -> see prior test
    y[5] = 1
    return X, y


def _splits() -> list[_Split]:
    order = np.random.default_rng(9).permutation(40)
    train = np.sort(np.concatenate([[0, 5], order[~np.isin(order, [0, 3, 5])][:18]]))
    test = np.setdiff1d(np.arange(40), train)[::-1]  # any order: kept as given
    return [_Split(train, test, iteration=3), _Split(test, train)]


def test_layout_rows_and_labels() -> None:
    X, y = _data()
    splits = _splits()
    spec = load_model_registry(only=["NB"])["NB"]
    scores, timings = score_model(X, y, splits, spec, seed=0)
    assert list(scores.columns) == ["split", "part", "row", "label", "score"]
    assert [str(t) for t in scores.dtypes] == ["int32", "str", "int64", "int8", "float64"]
    first = scores[scores["split"] == 3]
    np.testing.assert_array_equal(first.loc[first["part"] == "train", "row"], splits[0].train)
    np.testing.assert_array_equal(first.loc[first["part"] == "test", "row"], splits[0].test)
    assert list(first["part"].iloc[[0, -1]]) == ["train", "test"]
    # the second split has no iteration attribute: its position (2) numbers it
    assert sorted(scores["split"].unique()) == [2, 3]
    np.testing.assert_array_equal(scores["label"], y[scores["row"]])
    assert scores["score"].between(0, 1).all()
    seconds = ["fit_seconds", "predict_seconds", "fit_cpu_seconds", "predict_cpu_seconds"]
    assert list(timings.columns) == ["split", *seconds]
    assert (timings[seconds] >= 0).all().all()


def test_missing_rows_dropped_for_fitting_but_scored() -> None:
    X, y = _data()
    split = _splits()[0]
    prior = load_model_registry(only=["Prior"])["Prior"]
    assert not prior.drop_missing_train
    scores, _ = score_model(X, y, [split], prior, seed=0)
    # Prior: the whole training part, rows 0 and 5 (missing a) included
    assert len(scores[scores["part"] == "train"]) == split.train.size
    np.testing.assert_allclose(scores["score"], y[split.train].mean() + 0.001)
    dropping = ModelSpec("PriorNaOmit", prior.estimator, dict(prior.params))
    assert dropping.drop_missing_train
    scores2, _ = score_model(X, y, [split], dropping, seed=0)
    complete = split.train[~np.isin(split.train, [0, 5])]
    np.testing.assert_allclose(scores2["score"], y[complete].mean() + 0.001)
    assert y[complete].mean() != y[split.train].mean()
    assert len(scores2) == 40  # still every row scored


def test_models_sharing_the_split_frames_score_as_alone() -> None:
    """With ``part_frames`` shared by several models (a score job), each split part is taken
    from X once, and every model scores as it does alone; a model that drops the rows with
    missing values gets its own training frame, not the whole training part's."""
    X, y = _data()
    splits = _splits()
    registry = load_model_registry(only=["NB", "Prior", "J48"])
    frames: dict = {}
    for name in ("NB", "Prior", "J48"):
        shared, _ = score_model(X, y, splits, registry[name], seed=0, part_frames=frames)
        alone, _ = score_model(X, y, splits, registry[name], seed=0)
        pd.testing.assert_frame_equal(shared, alone)
    # Prior fits on the whole training part, NB and J48 on its complete rows
    assert set(frames) == {(part, n) for n in (2, 3)
                           for part in ("train", "complete train", "test")}
    assert len(frames[("complete train", 3)]) == len(frames[("train", 3)]) - 2


def test_models_fit_with_one_thread_per_native_pool_and_pools_restored_after() -> None:
    from threadpoolctl import threadpool_info, threadpool_limits

    X, y = _data()
    spec = ModelSpec("Recorder", f"{__name__}:PoolRecorder", {})
    PoolRecorder.seen.clear()
    with threadpool_limits(limits=2):
        before = [pool["num_threads"] for pool in threadpool_info()]
        score_model(X, y, _splits(), spec, seed=0)
        assert [pool["num_threads"] for pool in threadpool_info()] == before
    assert PoolRecorder.seen and set(PoolRecorder.seen) == {1}


def test_thread_pools_looked_for_again_only_after_an_import(monkeypatch) -> None:
    import types

    from threshold_choice.reproduction import scores

    first = scores._thread_pools()
    assert scores._thread_pools() is first
    monkeypatch.setitem(sys.modules, "tc_test_new_module", types.ModuleType("tc_test_new_module"))
    again = scores._thread_pools()
    assert again is not first
    assert scores._thread_pools() is again


def test_single_class_training_part_is_refused() -> None:
    X, y = _data()
    ones = np.flatnonzero(y == 1)
    spec = load_model_registry(only=["Logist"])["Logist"]
    with pytest.raises(UserError, match=r"split 1: the training part .* class\(es\) \[1\] only"):
        score_model(X, y, [_Split(ones[:6], np.setdiff1d(np.arange(40), ones[:6]))], spec,
                    seed=0)


def test_nan_scores_are_refused() -> None:
    X, y = _data()
    spec = ModelSpec("Broken", f"{__name__}:NaNScorer", {})
    assert sys.modules[__name__].NaNScorer is NaNScorer
    with pytest.raises(UserError, match=r"'Broken' produced 40 NaN"):
        score_model(X, y, [_Split(np.arange(40), np.arange(40))], spec, seed=0)


@pytest.mark.parametrize("model", ["Logist", "IBK10", "SVMp", "Random"])
def test_same_inputs_give_identical_bytes(tmp_path: Path, model: str) -> None:
    X, y = _data()
    spec = load_model_registry(only=[model])[model]
    first, _ = score_model(X, y, _splits(), spec, seed=21)
    second, _ = score_model(X, y, _splits(), spec, seed=21)
    write_scores(first, tmp_path / "a.parquet")
    write_scores(second, tmp_path / "b.parquet")
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
    back = pd.read_parquet(tmp_path / "a.parquet")
    np.testing.assert_array_equal(back["score"], first["score"])
    assert list(back.columns) == ["split", "part", "row", "label", "score"]


def test_write_scores_schema_and_atomic_replace(tmp_path: Path) -> None:
    df = pd.DataFrame({"split": [1, 1], "part": ["train", "test"], "row": [4, 2],
                       "label": [1, 0], "score": [0.25, 1.0]})
    target = tmp_path / "sub" / "scores.parquet"
    write_scores(df, target)
    write_scores(df.assign(score=[0.5, 0.5]), target)  # replaces
    table = pq.read_table(target)
    assert [str(t) for t in table.schema.types] == ["int32", "string", "int64", "int8", "double"]
    assert table.schema.metadata is None or b"pandas" not in table.schema.metadata
    assert table.column("score").to_pylist() == [0.5, 0.5]
    assert [p.name for p in target.parent.iterdir()] == ["scores.parquet"]
    with pytest.raises(UserError, match="'part'"):
        write_scores(df.assign(part=["train", "valid"]), tmp_path / "x.parquet")
