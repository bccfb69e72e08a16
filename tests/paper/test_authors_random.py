"""The authors' Random model: R's ``runif`` stream where their script drew it.

Oracles: values R prints (``set.seed(1); runif(5)``, ``set.seed(42); runif(3)``) and the
authors' own per-(dataset, model) table of the gamma = inf run (``Uncertainty/Results/
table_datasets.tex`` of ``ceferra/ThresholdChoiceMethods``, means over the 10 splits at 4
decimals), which the scores here must reproduce.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.conftest import REPO, SHARED
from threshold_choice.errors import UserError
from threshold_choice.metrics import compute_metrics
from threshold_choice.models.baselines import AUTHORS_RANDOM_SKIP, RStreamRandomScorer
from threshold_choice.models.registry import load_model_registry
from threshold_choice.reproduction.scores import score_model
from threshold_choice.splits import (
    NumpySplitter,
    RSplitter,
    make_splits,
    r_streams_after_splits,
)
from threshold_choice.splits.rng_r import RMersenneTwister

# R 3.5: set.seed(1); runif(5)  and  set.seed(42); runif(3)
R_SEED1 = [0.2655087, 0.3721239, 0.5728534, 0.9082078, 0.2016819]
R_SEED42 = [0.9148060, 0.9370754, 0.2861395]

# The authors' table: Random's mean test AUC and Brier score (MSE) over the 10 splits.
AUTHORS_RANDOM = {
    "badges2": (0.5279, 0.3196),
    "breast-cancer": (0.4946, 0.3347),
    "bupa": (0.4787, 0.3403),
}

ROWS = pd.DataFrame({"a": np.zeros(5)})


def test_scores_are_r_runif_after_the_skip_train_part_first() -> None:
    model = RStreamRandomScorer(skip=0, random_state=RMersenneTwister(1))
    model.fit(ROWS.iloc[:2], np.array([0, 1]))
    train = model.predict_proba(ROWS.iloc[:2])[:, 1]
    test = model.predict_proba(ROWS.iloc[:3])[:, 1]
    np.testing.assert_allclose(np.concatenate([train, test]), R_SEED1, atol=5e-8)
    skipped = RStreamRandomScorer(skip=2, random_state=RMersenneTwister(42))
    skipped.fit(ROWS.iloc[:2], np.array([0, 1]))
    np.testing.assert_allclose(skipped.predict_proba(ROWS.iloc[:1])[:, 1], R_SEED42[2:],
                               atol=5e-8)


def test_the_paper_registry_skips_the_authors_draws_before_random() -> None:
    entry = load_model_registry(REPO / "config" / "models_weka.yaml", only=["Random"])["Random"]
    assert entry.params["skip"] == AUTHORS_RANDOM_SKIP


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from threshold_choice.datasets import prepare_dataset

    root = tmp_path_factory.mktemp("prepared")
    return {name: prepare_dataset(name, out_dir=root, cache_dir=root / "cache",
                                  mirror=SHARED / "datasets")
            for name in AUTHORS_RANDOM}


@pytest.mark.parametrize("dataset", sorted(AUTHORS_RANDOM))
def test_reproduces_the_authors_random_runs(prepared: dict[str, Path], dataset: str) -> None:
    from threshold_choice.datasets import load_prepared
    from threshold_choice.datasets.prepare import class_column

    labels, levels = class_column(prepared[dataset])
    data = load_prepared(prepared[dataset])
    splits = make_splits(labels, levels, RSplitter(), iterations=10)
    spec = load_model_registry(REPO / "config" / "models_weka.yaml", only=["Random"])["Random"]
    scores, _ = score_model(data.X, data.y, splits, spec, seed=0,
                            random_states=r_streams_after_splits(labels, levels, splits))
    test = scores[scores["part"] == "test"]
    metrics = [compute_metrics(g["label"].to_numpy(), g["score"].to_numpy())
               for _, g in test.groupby("split")]
    auc, brier = AUTHORS_RANDOM[dataset]
    assert round(float(np.mean([m["AUC"] for m in metrics])), 4) == auc
    assert round(float(np.mean([m["BS"] for m in metrics])), 4) == brier


def test_without_the_r_stream_it_refuses_to_guess(prepared: dict[str, Path]) -> None:
    with pytest.raises(UserError, match="needs R's random stream after its split"):
        RStreamRandomScorer().fit(ROWS.iloc[:2], np.array([0, 1]))
    from threshold_choice.datasets.prepare import class_column

    labels, levels = class_column(prepared["bupa"])
    numpy_splits = make_splits(labels, levels, NumpySplitter(), iterations=2)
    with pytest.raises(UserError, match=r"use splits\.splitter: r"):
        r_streams_after_splits(labels, levels, numpy_splits)


def test_invalid_skip_is_rejected_by_the_registry(tmp_path: Path) -> None:
    registry = tmp_path / "models.yaml"
    registry.write_text(
        "format_version: 1\nmodels:\n  - name: Random\n"
        "    estimator: threshold_choice.models.baselines:RStreamRandomScorer\n"
        "    params: {skip: -1}\n"
    )
    with pytest.raises(UserError, match="skip must be an int >= 0"):
        load_model_registry(registry)


def test_the_score_step_and_fig1_read_the_prepared_table_once(
        prepared: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The R stream's labels and Fig. 1's split come from the table the step loads, not from
    a second read (and hash) of the file; the step's Random scores are still byte for byte
    those of the labels read on their own."""
    from dataclasses import replace

    import yaml

    import threshold_choice.datasets.prepare as prepare
    from threshold_choice.datasets import load_prepared
    from threshold_choice.datasets.errors import DatasetError
    from threshold_choice.reproduction.scores import write_scores
    from threshold_choice.reproduction.steps import step_figure1, step_score, step_splits

    path, registry = prepared["bupa"], REPO / "config" / "models_weka.yaml"
    step_splits(path, "bupa", tmp_path / "splits.csv", splitter="r", iterations=10)
    labels, levels = prepare.class_column(path)
    splits = make_splits(labels, levels, RSplitter(), iterations=10)
    data = load_prepared(path)
    assert data.class_column() == (labels, levels)
    with pytest.raises(DatasetError, match="not loaded from a prepared table"):
        replace(data, target=None).class_column()
    spec = load_model_registry(registry, only=["Random"])["Random"]
    expected, _ = score_model(data.X, data.y, splits, spec, seed=0,
                              random_states=r_streams_after_splits(labels, levels, splits))
    write_scores(expected, tmp_path / "expected.parquet")

    reads: list[Path] = []
    read = prepare._read_parquet

    def counted(parquet_path: Path, *args: object, **kwargs: object) -> pd.DataFrame:
        reads.append(parquet_path)
        return read(parquet_path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(prepare, "_read_parquet", counted)
    step_score(path, tmp_path / "splits.csv", ["Random"], registry=registry,
               out_scores=[tmp_path / "Random.parquet"], out_timings=[tmp_path / "Random.csv"],
               seed=0)
    assert reads == [path]
    assert ((tmp_path / "Random.parquet").read_bytes()
            == (tmp_path / "expected.parquet").read_bytes())
    reads.clear()
    prior = next(m for m in yaml.safe_load(registry.read_text())["models"]
                 if m["name"] == "Prior")
    step_figure1(path, [tmp_path / "fig1.csv", tmp_path / "fig1.png"], entry=prior)
    assert reads == [path]
    assert (tmp_path / "fig1.csv").is_file()
