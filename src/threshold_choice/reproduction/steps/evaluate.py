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
from threshold_choice.reproduction.steps._io import write_csv, write_parquet


def evaluate_scores(
    scores: pd.DataFrame,
    dataset: str,
    model: str,
    *,
    methods: Sequence[str],
    gammas: Iterable[float],
    settings: Any,
    loss_function: str = "accuracy",
) -> pd.DataFrame:
    """Per-run table (:data:`RUN_COLUMNS`) of one (dataset, model) from its scores
    (``settings``: a :class:`threshold_choice.evaluation.LossSettings`)."""
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
                                           train_s=values[train]))
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
    frames, timings = [], []
    for path in scores_paths:
        scores = pd.read_parquet(path)
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
    import scipy.interpolate  # (the posterior mean of the moment tables)
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

    runs = pd.concat([pd.read_parquet(p) for p in run_files], ignore_index=True)
    runs = runs.sort_values(list(RUN_KEYS), kind="stable").reset_index(drop=True)
    table = pa.Table.from_pandas(runs, preserve_index=False)
    if settings is not None or learners is not None:
        about = {"evaluation": dict(settings or {}), "learners": learners}
        text = json.dumps(about, sort_keys=True, default=str).encode()
        table = table.replace_schema_metadata({**table.schema.metadata,
                                               RUNS_METADATA_KEY: text})
    with atomic_output(out) as tmp:
        pq.write_table(table, tmp)
