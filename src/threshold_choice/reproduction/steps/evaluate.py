"""The evaluate step (each run's expected losses and metrics) and the collect step (the
runs table)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from threshold_choice.atomic import atomic_output
from threshold_choice.errors import UserError
from threshold_choice.metrics import METRICS
from threshold_choice.reproduction.runs import (
    RUN_COLUMNS,
    RUN_KEYS,
    RUNS_METADATA_KEY,
)
from threshold_choice.reproduction.steps._io import (
    read_parquet_or_remove,
    write_csv,
    write_parquet,
)


def evaluate_scores(
    scores: pd.DataFrame,
    dataset: str,
    model: str,
    *,
    methods: Sequence[str],
    gammas: Iterable[float],
    settings: Any,
    loss_function: str = "accuracy",
    draws: Mapping[int, Any] | None = None,
) -> pd.DataFrame:
    """Per-run table (:data:`RUN_COLUMNS`) of one (dataset, model) from its scores
    (``settings``: a :class:`threshold_choice.evaluation.LossSettings`; ``draws``: each
    split's :class:`~threshold_choice.evaluation.RunDraws`, for the ``authors`` estimator)."""
    from threshold_choice.evaluation import LossBatch
    from threshold_choice.metrics import compute_metrics

    split_ids = scores["split"].to_numpy()
    is_test = (scores["part"] == "test").to_numpy()
    labels = scores["label"].to_numpy()
    values = scores["score"].to_numpy()
    where = f"dataset {dataset}, model {model}"
    try:
        batch = LossBatch.make(methods, gammas, settings, loss_function)
    except UserError as exc:
        raise UserError(f"{where}: {exc}") from None
    splits = np.unique(split_ids)
    runs, metrics = [], []
    for split in splits:
        rows = split_ids == split
        test, train = rows & is_test, rows & ~is_test
        try:
            runs.append(batch.selections(labels[test], values[test], train_y=labels[train],
                                           train_s=values[train],
                                           draws=None if draws is None else draws[int(split)]))
            metrics.append(compute_metrics(labels[test], values[test]))
        except UserError as exc:
            raise UserError(f"{where}, split {split}: {exc}") from None
    # all splits at once: each gamma's moment table is read once for the model
    try:
        tables = batch.losses(runs)
    except UserError as exc:
        raise UserError(f"{where}: {exc}") from None
    n = len(batch.gammas) * len(batch.methods)
    method_column = np.array([m for _ in batch.gammas for m in batch.methods], dtype=object)
    gamma_column = np.repeat(np.array(batch.gammas, dtype=np.float64), len(batch.methods))
    columns: dict[str, list[Any]] = {name: [] for name in ("split", "method", "gamma", "loss",
                                                           *METRICS)}
    for split, losses, split_metrics in zip(splits, tables, metrics, strict=True):
        columns["split"].append(np.full(n, int(split)))
        columns["method"].append(method_column)
        columns["gamma"].append(gamma_column)
        columns["loss"].append(np.array(losses, dtype=np.float64))
        for name in METRICS:
            columns[name].append(np.full(n, split_metrics[name]))
    frame = pd.DataFrame({name: np.concatenate(parts) for name, parts in columns.items()})
    frame.insert(0, "model", model)
    frame.insert(0, "dataset", dataset)
    return frame[list(RUN_COLUMNS)]


def evaluate_as_authors(scores: Mapping[str, pd.DataFrame], dataset: str, *,
                        methods: Sequence[str], gammas: Sequence[float], settings: Any,
                        loss_function: str = "accuracy") -> list[pd.DataFrame]:
    """The per-run tables of one dataset's models (in the order of ``scores``, by model) at
    the draws of the authors' script (the ``authors`` estimator:
    :func:`~threshold_choice.reproduction.authors_draws.replay_dataset`); the Random model
    evaluated at each gamma on the scores R drew there."""
    from threshold_choice.reproduction.authors_draws import RANDOM_MODEL, replay_dataset

    replay = replay_dataset(scores, dataset, gammas, grid_size=settings.grid_size)
    options = {"methods": methods, "settings": settings, "loss_function": loss_function}
    frames = []
    for model, table in scores.items():
        if model != RANDOM_MODEL:
            frame = evaluate_scores(table, dataset, model, gammas=gammas,
                                    draws=replay.draws(model, gammas), **options)
            frames.append(_authors_test_optimal(frame, table, model, replay, gammas, settings))
            continue
        joined = pd.concat([evaluate_scores(replay.random_scores(g), dataset, model,
                                            gammas=[g], draws=replay.draws(model, [g]),
                                            **options) for g in gammas], ignore_index=True)
        # in evaluate_scores' order: by split, then gamma, then method
        order = np.lexsort((np.arange(len(joined)),
                            np.repeat(np.arange(len(gammas)), len(joined) // len(gammas)),
                            joined["split"].to_numpy()))
        frames.append(joined.iloc[order].reset_index(drop=True))
    return frames


def _authors_test_optimal(frame: pd.DataFrame, scores: pd.DataFrame, model: str, replay: Any,
                          gammas: Sequence[float], settings: Any) -> pd.DataFrame:
    """``frame`` with test-optimal's losses as the authors' threshold made them in the runs
    whose scores have adjacent doubles as distinct neighbours (their midpoint threshold
    can fall onto the upper one: :func:`~threshold_choice.reproduction.authors_draws.
    authors_test_optimal_losses`); under the paper's conditions and tie-breaking only."""
    from threshold_choice.reproduction.authors_draws import (
        authors_test_optimal_losses,
        midpoint_collapses,
    )

    if ("test-optimal" not in set(frame["method"]) or settings.tie_breaking != "authors"
            or not settings.distribution.is_standard_uniform or settings.prior is not None):
        return frame
    c = np.arange(1, settings.grid_size + 1, dtype=np.float64) / settings.grid_size
    test = scores[scores["part"] == "test"]
    for split, run in test.groupby("split"):
        labels, values = run["label"].to_numpy(), run["score"].to_numpy()
        if not midpoint_collapses(values):
            continue
        draws = replay.draws(model, gammas)[int(split)]
        for gamma, c_hat in zip(gammas, draws.c_hat, strict=True):
            rows = ((frame["split"] == split) & (frame["gamma"] == gamma)
                    & (frame["method"] == "test-optimal"))
            frame.loc[rows, "loss"] = float(np.mean(
                authors_test_optimal_losses(labels, values, c_hat, c)))
    return frame


def step_evaluate(
    scores_paths: Sequence[Path | str],
    dataset: str,
    out: Path | str,
    *,
    methods: Sequence[str],
    gammas: Iterable[float | str],
    settings: Mapping[str, Any],
    out_timings: Path | str | None = None,
) -> None:
    """Per-run results of one dataset: every model's scores file (named ``<model>.parquet``).
    ``settings``: the workflow's ``evaluation`` settings other than methods and gammas, i.e.
    the fields of :class:`~threshold_choice.evaluation.LossSettings` and ``loss`` (accuracy or
    f-measure). ``out_timings``: a CSV ``dataset,model,evaluate_seconds,evaluate_cpu_seconds``
    (wall clock and CPU time of the evaluation proper, without reading and writing, and
    without the process's imports: :func:`_import_engine`)."""
    import time

    from threshold_choice.evaluation import LossSettings
    from threshold_choice.uncertainty import parse_gamma

    options = dict(settings)
    loss_function = options.pop("loss", "accuracy")
    loss_settings = LossSettings.from_mapping(options)
    _import_engine(loss_settings.estimator)
    gamma_values = [parse_gamma(g) for g in gammas]
    if loss_settings.estimator == "authors":  # all models at once: they share R's stream
        scores = {Path(p).stem: pd.read_parquet(p) for p in scores_paths}
        start, start_cpu = time.perf_counter(), time.process_time()
        frames = evaluate_as_authors(scores, dataset, methods=methods, gammas=gamma_values,
                                     settings=loss_settings, loss_function=loss_function)
        write_parquet(pd.concat(frames, ignore_index=True), out)
        if out_timings is not None:  # one replay for all the models: its time shared equally
            share = [(time.perf_counter() - start) / len(scores),
                     (time.process_time() - start_cpu) / len(scores)]
            columns = ["dataset", "model", "evaluate_seconds", "evaluate_cpu_seconds"]
            write_csv(pd.DataFrame([(dataset, model, *share) for model in scores],
                                   columns=columns), out_timings)
        return
    frames, timings = [], []
    for path in scores_paths:
        scores = read_parquet_or_remove(path, "scores file", "from the score cache")
        start, start_cpu = time.perf_counter(), time.process_time()
        frames.append(evaluate_scores(scores, dataset, Path(path).stem, methods=methods,
                                      gammas=gamma_values, settings=loss_settings,
                                      loss_function=loss_function))
        timings.append((dataset, Path(path).stem, time.perf_counter() - start,
                        time.process_time() - start_cpu))
    write_parquet(pd.concat(frames, ignore_index=True), out)
    if out_timings is not None:
        columns = ["dataset", "model", "evaluate_seconds", "evaluate_cpu_seconds"]
        write_csv(pd.DataFrame(timings, columns=columns), out_timings)


def _import_engine(estimator: str) -> None:
    """Import what the evaluation imports on first use (the library keeps these imports lazy
    for its command line): the process's set-up, 0.1-0.3 CPU-s, not the evaluation of the
    first model that happens to trigger it."""
    import scipy.optimize  # (PAV of the metrics' calibration terms)

    import threshold_choice.metrics  # noqa: F401

    if estimator != "exact":  # the point rule's lower hull (grid and Monte Carlo)
        import scipy.spatial  # noqa: F401


def step_collect(
    run_files: Sequence[Path | str], out: Path | str,
    settings: Mapping[str, Any] | None = None, *, learners: str | None = None,
) -> None:
    """Concatenate per-(dataset, model) runs into one table, in a fixed order. ``settings``
    (the config's ``evaluation``) and ``learners`` (``weka``: the paper's Weka learners,
    ``sklearn``: their scikit-learn analogues, ``mixed``) go with it, in the parquet metadata
    (:func:`read_runs_metadata`), so that whoever reads the table knows what it measured."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    runs = pd.concat([read_parquet_or_remove(p, "runs file") for p in run_files],
                     ignore_index=True)
    runs = runs.sort_values(list(RUN_KEYS), kind="stable").reset_index(drop=True)
    table = pa.Table.from_pandas(runs, preserve_index=False)
    if settings is not None or learners is not None:
        about = {"evaluation": dict(settings or {}), "learners": learners}
        text = json.dumps(about, sort_keys=True, default=str).encode()
        table = table.replace_schema_metadata({**table.schema.metadata,
                                               RUNS_METADATA_KEY: text})
    with atomic_output(out) as tmp:
        pq.write_table(table, tmp)
