"""The ``authors`` estimator against the authors' own per-run results at all 13 gammas.

Oracle: ``data/authors_runs_means.csv``, the authors' means over their 10 iterations of each
(dataset, model, gamma, method) for three datasets, read from their
``Uncertainty/Results/*.Rdata`` (``ceferra/ThresholdChoiceMethods``) by
``benchmarks/compare_authors_runs.py --write-fixture``. The Majority (Prior) and Random models
need no Weka, and they are the 11th and 12th models of the authors' stream: their losses at a
finite gamma are the authors' only if every draw of the 10 models before them (one ``rbeta``
per grid point, then score-uniform's and rate-uniform's uniforms) is replayed in order; the
Weka models' scores do not change the stream (stand-ins are used for them).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.conftest import REPO, SHARED
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings
from threshold_choice.models.registry import load_model_registry
from threshold_choice.reproduction.authors_draws import AUTHORS_MODELS
from threshold_choice.reproduction.scores import score_model
from threshold_choice.reproduction.steps.evaluate import evaluate_as_authors
from threshold_choice.splits import RSplitter, make_splits, r_streams_after_splits

DATA = Path(__file__).parent / "data"
DATASETS = ("breast-cancer", "bupa", "haberman")
GAMMAS = (math.inf, 16.0, *map(float, range(10, -1, -1)))
METHODS = ("test-optimal", "train-optimal", "score-driven", "rate-driven")
SETTINGS = LossSettings(estimator="authors", rate_threshold_offset=1e-7, tie_breaking="authors")


@pytest.fixture(scope="module")
def baseline_scores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, pd.DataFrame]]:
    """Per dataset: the Prior and Random scores of the authors' splits, and stand-ins for the
    10 Weka models (Prior's scores)."""
    from threshold_choice.datasets import load_prepared, prepare_dataset
    from threshold_choice.datasets.prepare import class_column

    root = tmp_path_factory.mktemp("prepared")
    registry = load_model_registry(REPO / "config" / "models_weka.yaml",
                                   only=["Prior", "Random"])
    out = {}
    for name in DATASETS:
        prepared = prepare_dataset(name, out_dir=root, cache_dir=root / "cache",
                                   mirror=SHARED / "datasets")
        labels, levels = class_column(prepared)
        data = load_prepared(prepared)
        splits = make_splits(labels, levels, RSplitter(), iterations=10)
        streams = r_streams_after_splits(labels, levels, splits)
        scores = {m: score_model(data.X, data.y, splits, registry[m], seed=0,
                                 random_states=streams if m == "Random" else None)[0]
                  for m in ("Prior", "Random")}
        out[name] = {m: scores.get(m, scores["Prior"]) for m in AUTHORS_MODELS}
    return out


@pytest.mark.parametrize("dataset", DATASETS)
def test_prior_and_random_equal_the_authors_means_at_all_13_gammas(
        baseline_scores: dict[str, dict[str, pd.DataFrame]], dataset: str) -> None:
    frames = evaluate_as_authors(baseline_scores[dataset], dataset, methods=METHODS,
                                 gammas=GAMMAS, settings=SETTINGS)
    runs = pd.concat(frames[-2:], ignore_index=True)  # Prior, Random
    ours = runs.groupby(["model", "gamma", "method"])["loss"].mean()
    theirs = pd.read_csv(DATA / "authors_runs_means.csv")
    theirs = theirs[(theirs["dataset"] == dataset) & theirs["model"].isin(["Prior", "Random"])]
    theirs = theirs.set_index(["model", "gamma", "method"])["loss"]
    assert len(theirs) == 2 * 13 * 4
    difference = (ours.reindex(theirs.index) - theirs).abs()
    assert difference.max() <= 5e-7, difference[difference > 5e-7]


def test_random_scores_that_are_not_the_authors_stream_are_refused(
        baseline_scores: dict[str, dict[str, pd.DataFrame]]) -> None:
    scores = dict(baseline_scores["bupa"])
    shifted = scores["Random"].copy()
    shifted["score"] = np.roll(shifted["score"].to_numpy(), 1)
    scores["Random"] = shifted
    with pytest.raises(UserError, match="Random model's scores are not R's uniforms"):
        evaluate_as_authors(scores, "bupa", methods=METHODS, gammas=[4.0], settings=SETTINGS)


def test_models_other_than_the_authors_12_are_refused(
        baseline_scores: dict[str, dict[str, pd.DataFrame]]) -> None:
    scores = {m: s for m, s in baseline_scores["bupa"].items() if m != "NB"}
    with pytest.raises(UserError, match="missing NB"):
        evaluate_as_authors(scores, "bupa", methods=METHODS, gammas=[4.0], settings=SETTINGS)


def test_the_evaluate_step_with_authors_differs_from_grid_only_at_finite_gamma(
        baseline_scores: dict[str, dict[str, pd.DataFrame]], tmp_path: Path) -> None:
    from threshold_choice.reproduction.steps import step_evaluate

    paths = []
    for model, frame in baseline_scores["haberman"].items():
        paths.append(tmp_path / "scores" / f"{model}.parquet")
        paths[-1].parent.mkdir(exist_ok=True)
        frame.to_parquet(paths[-1])
    tables = {}
    for estimator in ("grid", "authors"):
        settings = {"estimator": estimator, "rate_threshold_offset": 1e-7,
                    "tie_breaking": "authors"}
        step_evaluate(paths, "haberman", tmp_path / f"{estimator}.parquet", methods=METHODS,
                      gammas=["inf", "4"], settings=settings,
                      out_timings=tmp_path / f"{estimator}.timings.csv")
        tables[estimator] = pd.read_parquet(tmp_path / f"{estimator}.parquet")
    grid, authors = tables["grid"], tables["authors"]
    keys = ["dataset", "model", "split", "gamma", "method"]
    assert list(authors.columns) == list(grid.columns)
    pd.testing.assert_frame_equal(authors[keys], grid[keys])  # the same rows, in order
    inf = (grid["gamma"] == math.inf).to_numpy()
    np.testing.assert_array_equal(authors["loss"].to_numpy()[inf], grid["loss"].to_numpy()[inf])
    finite = authors["loss"].to_numpy()[~inf] - grid["loss"].to_numpy()[~inf]
    assert np.abs(finite).max() > 1e-3  # one draw per grid point, not the expectation
    random = (authors["model"] == "Random").to_numpy()
    assert not np.array_equal(authors["AUC"].to_numpy()[random & ~inf],
                              grid["AUC"].to_numpy()[random & ~inf])  # rescored at gamma 4
    timings = pd.read_csv(tmp_path / "authors.timings.csv")
    assert sorted(timings["model"]) == sorted(AUTHORS_MODELS)
