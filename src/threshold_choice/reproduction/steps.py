"""The steps of the reproduction workflow, one function per Snakemake rule.

The Snakemake scripts in ``workflow/scripts/`` only unpack ``snakemake.input/output/params``
and call these functions, so every step can also be run and tested without Snakemake.
All outputs are written atomically (temporary file, then rename): an interrupted step leaves
no half-written file behind.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import inspect
import json
import logging
import math
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from threshold_choice.atomic import atomic_output
from threshold_choice.errors import UserError
from threshold_choice.metrics import METRICS

# Heavy modules (scipy, scikit-learn) are imported inside the steps that need them: every
# Snakemake job is a fresh process, and imports are most of a small job's time.

#: the columns naming one run (a model fitted on one split of one dataset)
RUN_KEYS: tuple[str, ...] = ("dataset", "model", "split")
#: the columns naming one row of ``runs.parquet``: a run's loss under one method and gamma
ROW_KEYS: tuple[str, ...] = (*RUN_KEYS, "gamma", "method")
RUN_COLUMNS: tuple[str, ...] = (*ROW_KEYS, "loss", *METRICS)


@contextlib.contextmanager
def log_to(path: Path | str) -> Iterator[None]:
    """Send the step's output, warnings and logging to ``path``; an error is logged with its
    traceback there and re-raised (a :class:`UserError` as its one-line message)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as log:
        handler = logging.StreamHandler(log)
        logging.getLogger().addHandler(handler)
        logging.getLogger().setLevel(logging.INFO)
        try:
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                yield
        except UserError as exc:
            log.write(f"error: {exc}\n")
            print(f"error: {exc} (log: {path})", file=sys.stderr)
            raise
        except BaseException:
            log.write(traceback.format_exc())
            raise
        finally:
            logging.getLogger().removeHandler(handler)


def one_line(exc: BaseException) -> str:
    """An error as one line: a :class:`UserError`'s message, else its type and first line."""
    if isinstance(exc, UserError):
        return str(exc)
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def for_each_dataset(datasets: Sequence[str], logs: Sequence[Path | str],
                     step: Callable[[int, str], None]) -> None:
    """Run ``step(i, dataset)`` for each dataset of a job, each with its own log (see
    :func:`log_to`). A dataset whose step fails does not stop the others: their outputs are
    written first, then one :class:`UserError` names each failed dataset with its reason and
    log. (The job fails, so Snakemake runs it again next time; the workflow profile keeps the
    other datasets' outputs meanwhile, and the score cache makes their refit free.)"""
    failed = []
    for i, dataset in enumerate(datasets):
        try:
            with log_to(logs[i]):
                step(i, dataset)
        except Exception as exc:  # reported below, with its log
            failed.append(f"{dataset}: {one_line(exc)} (log: {logs[i]})")
    if failed:
        raise UserError(f"{len(failed)} of {len(datasets)} datasets of this job failed: "
                        + "; ".join(failed))


def write_parquet(frame: pd.DataFrame, path: Path | str) -> None:
    """Write ``frame`` to parquet atomically, without the pandas index."""
    with atomic_output(path) as tmp:
        frame.to_parquet(tmp, index=False)


def write_csv(frame: pd.DataFrame, path: Path | str, **kwargs: Any) -> None:
    with atomic_output(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as handle:
        frame.to_csv(handle, index=False, lineterminator="\n", **kwargs)


# -- data and splits -----------------------------------------------------------------------


def step_prepare(
    name: str,
    out_parquet: Path | str,
    *,
    mirror: str | None,
    cache_dir: Path | str,
    registry: Path | str,
) -> None:
    """Obtain and verify one dataset (the configured mirror first when it exists, else
    OpenML/UCI; messages name the ``data.mirror`` setting)."""
    from threshold_choice.datasets import load_registry, prepare_dataset
    from threshold_choice.datasets.fetch import Mirror

    out = Path(out_parquet)
    written = prepare_dataset(
        name,
        out_dir=out.parent,
        cache_dir=Path(cache_dir),
        mirror=Mirror.configured(mirror),
        registry=load_registry(Path(registry)),
    )
    if written != out:
        raise UserError(f"dataset {name} was written to {written}, expected {out}")


def step_splits(
    prepared: Path | str, dataset: str, out_csv: Path | str, *, splitter: str, iterations: int
) -> None:
    """The stratified splits of one dataset as CSV ``dataset,iteration,part,position,row``
    (1-based rows of the prepared table)."""
    from threshold_choice.datasets.prepare import class_column
    from threshold_choice.splits import get_splitter, make_splits, splits_frame

    labels, levels = class_column(Path(prepared))
    splits = make_splits(labels, levels, get_splitter(splitter), iterations=iterations)  # type: ignore[arg-type]
    write_csv(splits_frame(dataset, splits), out_csv)


def step_prepare_and_split(
    name: str,
    out_parquet: Path | str,
    out_splits: Path | str,
    *,
    mirror: str | None,
    cache_dir: Path | str,
    registry: Path | str,
    splitter: str,
    iterations: int,
) -> None:
    """:func:`step_prepare` then :func:`step_splits` of one dataset, in one process."""
    step_prepare(name, out_parquet, mirror=mirror, cache_dir=cache_dir, registry=registry)
    step_splits(out_parquet, name, out_splits, splitter=splitter, iterations=iterations)


def read_splits(path: Path | str) -> list[Any]:
    """Splits from a CSV of :func:`step_splits`, as ``Split`` objects with 0-based rows."""
    from threshold_choice.splits import Split

    frame = pd.read_csv(path)
    splits = []
    for iteration, part in frame.groupby("iteration", sort=True):
        part = part.sort_values(["part", "position"])
        train = part.loc[part["part"] == "train", "row"].to_numpy(np.int64) - 1
        test = part.loc[part["part"] == "test", "row"].to_numpy(np.int64) - 1
        splits.append(Split(train=train, test=test, iteration=int(iteration)))
    return splits


# -- models ------------------------------------------------------------------------------------


def _model_spec(model: str, entry: Mapping[str, Any] | None,
                registry: Path | str | Sequence[Path | str] | None) -> Any:
    from threshold_choice.models.registry import load_model_registry

    if entry is not None:
        if entry.get("name") != model:
            raise UserError(f"score job of model {model!r} got the entry of {entry.get('name')!r}")
        return _spec_of_entry(json.dumps(entry, sort_keys=True))
    if registry is not None:
        # only this model is constructed and checked (the whole file is still validated)
        return load_model_registry(registry, only=[model])[model]
    raise UserError("the score step needs the model's registry entry or the registry file")


def _fit_and_score(prepared: Path, splits: list[Any], data: Any, spec: Any, *, seed: int,
                   weka_jar: Path | str | None, frames: dict[tuple[str, int], pd.DataFrame],
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Scores and timings (with the software column) of one model on every split; ``frames``:
    the split parts' frames, shared by the dataset's models (see
    :func:`~threshold_choice.reproduction.scores.score_model`)."""
    from threshold_choice.models.jvm import ensure_jvm
    from threshold_choice.models.registry import import_estimator
    from threshold_choice.models.weka import is_weka_estimator
    from threshold_choice.reproduction.provenance import (
        estimator_distribution,
        format_software,
        software_versions,
    )
    from threshold_choice.reproduction.scores import score_model

    estimator_class = import_estimator(spec.estimator, model=spec.name)
    is_weka = is_weka_estimator(estimator_class)
    if is_weka:
        ensure_jvm(weka_jar=weka_jar)  # once per process: later Weka models reuse the JVM
        _freeze_imports()
    if "class_order" in inspect.signature(estimator_class).parameters:
        # Weka sees the class values in the ARFF's declared order (ties follow it)
        order = (1, 0) if data.class_labels[0] == data.label_of_class1 else (0, 1)
        spec = replace(spec, params={**spec.params, "class_order": order})
    random_states = None
    if getattr(estimator_class, "needs_r_stream", False):
        # the authors' Random draws from R's stream where their split left it
        from threshold_choice.datasets.prepare import class_column
        from threshold_choice.splits import r_streams_after_splits

        labels, levels = class_column(prepared)
        try:
            random_states = r_streams_after_splits(labels, levels, splits)
        except UserError as exc:
            raise UserError(f"model {spec.name}: {exc}") from None
    scores, timings = score_model(data.X, data.y, splits, spec, seed=seed,
                                  random_states=random_states, part_frames=frames)
    timings.insert(0, "model", spec.name)
    timings.insert(0, "dataset", data.name)
    versions = software_versions(weka=is_weka)
    package = estimator_distribution(spec.estimator)  # xgboost, lightgbm, ...
    if package is not None:
        versions.setdefault(*package)
    timings["software"] = format_software(versions)
    return scores, timings


@functools.cache  # once per process: a later call would also freeze a fitted model's garbage
def _freeze_imports() -> None:
    """Leave the objects that exist now (the imports', the JVM's proxies) out of Python's
    cyclic garbage collections. JPype runs a full one after every Java collection (its GC
    linking), and a Weka fit makes many (174 for ozone's Logistic); without these objects each
    costs a tenth: ozone's Logistic 86 -> 76 CPU-s. Reference counting still frees them."""
    gc.freeze()


@functools.cache
def _spec_of_entry(entry_json: str) -> Any:
    """A registry entry's checked spec, once per process: a score job of several datasets
    asks for each model once per dataset, and each check validates against the schema."""
    from threshold_choice.models.registry import model_spec_from_entry

    return model_spec_from_entry(json.loads(entry_json))


def step_score(
    prepared: Path | str,
    splits_csv: Path | str,
    models: Sequence[str],
    *,
    entries: Mapping[str, Mapping[str, Any]] | None = None,
    registry: Path | str | None = None,
    out_scores: Sequence[Path | str],
    out_timings: Sequence[Path | str],
    seed: int,
    weka_jar: Path | str | None = None,
    cache_dir: Path | str | None = None,
) -> None:
    """Fit each of ``models`` on every split of one dataset, in this one process (one JVM for
    all the Weka models); write each model's train and test scores and timings to its
    ``out_scores[i]`` / ``out_timings[i]``.

    A model is its registry entry (``entries[model]``, as the workflow passes them) or, without
    ``entries``, the entry of that name in the ``registry`` file. A Weka model runs the learners
    of ``weka_jar`` when given (see :func:`threshold_choice.models.weka.ensure_jvm`). The
    software versions (Weka's and its jar for a Weka model) go to the log and to the timings'
    ``software`` column. With ``cache_dir``, a model whose scores are in the
    :class:`~threshold_choice.reproduction.score_cache.ScoreCache` is not fitted again."""
    from threshold_choice.datasets import load_prepared
    from threshold_choice.models.jvm import java_release, resolved_weka_jar
    from threshold_choice.reproduction.score_cache import ScoreCache, score_key
    from threshold_choice.reproduction.scores import write_scores

    if not len(models) == len(out_scores) == len(out_timings):
        raise UserError("the score step needs one scores and one timings output per model")
    prepared = Path(prepared)
    specs = [_model_spec(m, None if entries is None else entries.get(m), registry)
             for m in models]
    cache = ScoreCache(Path(cache_dir)) if cache_dir is not None else None
    log = logging.getLogger(__name__)
    data = splits = None
    frames: dict[tuple[str, int], pd.DataFrame] = {}
    failed: list[str] = []
    for spec, scores_path, timings_path in zip(specs, out_scores, out_timings, strict=True):
        scores_path, timings_path = Path(scores_path), Path(timings_path)
        key = parts = None
        if cache is not None:
            weka = _is_weka(spec)
            key, parts = score_key(prepared=prepared, splits_csv=splits_csv,
                                   entry=_entry_of(spec, entries), seed=seed,
                                   weka_jar=resolved_weka_jar(weka_jar) if weka else None,
                                   java=java_release() if weka else None)
            if cache.fetch(spec.name, key, scores_path, timings_path):
                log.info("model %s on %s: scores from the cache (key %s)", spec.name,
                         prepared.stem, key[:16])
                continue
        if data is None:  # read once, and only when a model is fitted
            data = load_prepared(prepared)
            splits = read_splits(splits_csv)
        try:
            scores, timings = _fit_and_score(prepared, splits, data, spec, seed=seed,  # type: ignore[arg-type]
                                             weka_jar=weka_jar, frames=frames)
        except Exception as exc:  # the other models go on; reported below
            log.error("model %s on %s failed: %s\n%s", spec.name, prepared.stem,
                      one_line(exc), traceback.format_exc())
            failed.append(f"{spec.name} ({one_line(exc)})")
            continue
        log.info("model %s on %s: fitted %d splits in %.2f s, predicted in %.2f s; %s",
                 spec.name, data.name, len(timings), timings["fit_seconds"].sum(),
                 timings["predict_seconds"].sum(), timings["software"].iloc[0])
        write_scores(scores, scores_path)
        write_csv(timings, timings_path)
        if cache is not None:
            cache.store(spec.name, key, parts, scores_path, timings_path)  # type: ignore[arg-type]
    if failed:
        raise UserError(f"model(s) failed on {prepared.stem}: {'; '.join(failed)}; the other "
                        "models' scores are written")


def step_authors_weka(cache: Path | str, out: Path | str) -> None:
    """Obtain the authors' Weka (Debian's ``weka`` 3.6.14 jar, see
    :mod:`threshold_choice.models.weka_debian`) into ``cache`` and write the choice to
    ``out`` (JSON: ``jar``, the jar's path or null for the bundled Weka, and ``reason`` why
    not). A jar that cannot be had is a warning, not an error: the bundled Weka runs."""
    from threshold_choice.models.weka_debian import AUTHORS_WEKA, authors_weka_jar

    package = f"Debian's {AUTHORS_WEKA.package} {AUTHORS_WEKA.version}"
    log = logging.getLogger(__name__)
    try:
        jar: str | None = str(authors_weka_jar(cache).resolve())
        reason = None
        log.info("the Weka models run the authors' Weka: %s from %s", jar, package)
    except UserError as exc:
        jar, reason = None, str(exc)
        message = (f"warning: the authors' Weka ({package}) cannot be had ({exc}), so the Weka "
                   "models run the bundled Weka 3.9.6, whose Logistic differs from the authors' "
                   "(docs/weka.md); models.weka_jar: bundled chooses it without this warning")
        log.warning(message)
        print(message, file=sys.__stderr__)  # past the log: the run's output shows it
    text = json.dumps({"jar": jar, "package": package, "reason": reason}, indent=1)
    with atomic_output(out) as tmp:
        Path(tmp).write_text(text + "\n", encoding="utf-8")


def weka_jar_of(path: Path | str | None) -> str | None:
    """The ``weka.jar`` a score job runs for its input ``path``: a jar as it is, the choice
    written by :func:`step_authors_weka` (``.json``) as its jar (None: the bundled Weka)."""
    if path is None:
        return None
    if str(path).endswith(".json"):
        return json.loads(Path(path).read_text(encoding="utf-8"))["jar"]
    return str(path)


def _entry_of(spec: Any, entries: Mapping[str, Mapping[str, Any]] | None) -> Mapping[str, Any]:
    """The registry entry a cache key hashes: the given one, else the spec's fields."""
    if entries is not None and spec.name in entries:
        return entries[spec.name]
    from dataclasses import asdict

    return asdict(spec)


def _is_weka(spec: Any) -> bool:
    from threshold_choice.models.registry import import_estimator
    from threshold_choice.models.weka import is_weka_estimator

    return is_weka_estimator(import_estimator(spec.estimator, model=spec.name))


# -- evaluation ------------------------------------------------------------------------------


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
    (wall clock and CPU time of the evaluation proper, without reading and writing)."""
    import time

    from threshold_choice.evaluation import LossSettings
    from threshold_choice.uncertainty import parse_gamma

    options = dict(settings)
    loss_function = options.pop("loss", "accuracy")
    loss_settings = LossSettings.from_mapping(options)
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


#: key of the runs table's parquet metadata: what the runs measured (see :func:`step_collect`)
RUNS_METADATA_KEY = b"threshold_choice.runs"


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


def read_runs_metadata(path: Path | str) -> dict[str, Any] | None:
    """What :func:`step_collect` stored with the runs table ``path`` (``evaluation``: the
    settings, ``learners``), or ``None`` for a table written without it."""
    import pyarrow.parquet as pq

    metadata = pq.read_schema(path).metadata or {}
    text = metadata.get(RUNS_METADATA_KEY)
    return None if text is None else json.loads(text)


def gamma_of_label(label: str) -> float:
    from threshold_choice.uncertainty import parse_gamma

    value = parse_gamma(label)
    return math.inf if math.isinf(value) else value


def step_table5(prepared: Sequence[Path | str], out_stem: Path | str, *,
                formats: Sequence[str] | None = None,
                published_dir: Path | str | None = None) -> None:
    """Table 5 (instances, attributes, majority proportion) of the prepared datasets, in
    ``formats`` (default :data:`threshold_choice.reproduction.tables.TABLE_FORMATS`); a
    dataset of one's own is numbered as in the extended tables (after the published Table 5
    of ``published_dir``, in the order given)."""
    from threshold_choice.datasets import load_prepared
    from threshold_choice.reproduction.table5 import table5
    from threshold_choice.reproduction.tables import (
        PUBLISHED_DIR,
        TABLE_FORMATS,
        extended_numbers,
        write_table,
    )

    formats = formats or TABLE_FORMATS
    datasets = [load_prepared(Path(p)) for p in prepared]
    numbers = extended_numbers([d.name for d in datasets],
                               Path(published_dir) if published_dir else PUBLISHED_DIR)
    frame = table5(datasets, numbers)
    write_table(frame, out_stem, caption="Table 5: datasets", marks=None, formats=formats)


def _no_rows(keys: Sequence[str], methods: Sequence[str]) -> pd.DataFrame:
    """A table with the columns of Table 7 or 8 (``keys``, then the values of ``methods``) and
    no rows."""
    from threshold_choice.reproduction.paper import value_columns

    return pd.DataFrame(columns=[*keys, *value_columns(methods)])


def step_tables(
    runs_path: Path | str,
    gammas: Sequence[str],
    out_table7: Sequence[Path | str],
    out_table8: Sequence[Path | str],
    *,
    baselines: Sequence[str],
    published_dir: Path | str,
    formats: Sequence[str] | None = None,
    conditions: str = "",
    methods: Sequence[str] | None = None,
    datasets: Sequence[str] = (),
    extended_table7: Sequence[Path | str] = (),
    extended_table8: Sequence[Path | str] = (),
) -> None:
    """Tables 7 (by model) and 8 (by dataset, without the baselines) at each of ``gammas``
    (labels such as ``inf``, ``16``), written to ``out_table7[i]`` / ``out_table8[i]`` (CSV; the
    other ``formats``, default :data:`~threshold_choice.reproduction.tables.TABLE_FORMATS`,
    beside them), with a loss column per method of ``methods`` (default the paper's four).

    These are the paper's tables: over its datasets and model types only
    (:func:`~threshold_choice.reproduction.tables.paper_part`). When ``extended_table7`` and
    ``extended_table8`` are given (one per gamma), the same tables over every run go there too,
    the datasets beyond the paper's numbered after its 26 in the order of ``datasets``.
    ``conditions``: operating conditions other than the paper's
    (:func:`threshold_choice.reproduction.paper.conditions_note`), said in every caption
    together with the fact that the published numbers do not apply."""
    from threshold_choice.reproduction.paper import PAPER_METHODS
    from threshold_choice.reproduction.tables import (
        TABLE_FORMATS,
        extended_numbers,
        paper_part,
        table7,
        table8,
        write_table,
    )

    n = len(gammas)
    if not n == len(out_table7) == len(out_table8):
        raise UserError("the tables step needs one Table 7 and one Table 8 output per gamma")
    if len(extended_table7) not in (0, n) or len(extended_table8) != len(extended_table7):
        raise UserError("the tables step needs no extended tables or one of each per gamma")
    formats = formats or TABLE_FORMATS
    methods = tuple(methods or PAPER_METHODS)
    runs = pd.read_parquet(runs_path)
    published = Path(published_dir)
    # the paper's conditions go unsaid
    suffix = f" ({conditions}: the published numbers do not apply)" if conditions else ""
    tables: list[tuple[pd.DataFrame, Sequence[Path | str], Sequence[Path | str], str,
                       dict[str, int] | None]] = [
        (paper_part(runs, published), out_table7, out_table8, "", None)]
    if extended_table7:
        tables.append((runs, extended_table7, extended_table8,
                       ", extended (every configured model and dataset)",
                       extended_numbers(datasets, published)))
    for frame, paths7, paths8, kind, numbers in tables:
        for gamma, path7, path8 in zip(gammas, paths7, paths8, strict=True):
            g = gamma_of_label(gamma)
            empty = frame.empty  # a configuration without any of the paper's runs
            write_table(
                _no_rows(["model"], methods) if empty else
                table7(frame, g, published_dir=published, methods=methods),
                Path(path7).with_suffix(""),
                caption=f"Table 7{kind}: means by model type, gamma = {gamma}{suffix}",
                formats=formats,
            )
            write_table(
                _no_rows(["number", "dataset"], methods) if empty else
                table8(frame, g, tuple(baselines), published_dir=published, methods=methods,
                       numbers=numbers),
                Path(path8).with_suffix(""),
                caption=f"Table 8{kind}: means by dataset (non-baseline models), "
                f"gamma = {gamma}{suffix}",
                formats=formats,
            )


def _run_scores(path: Path | str, split: int = 1) -> Any:
    from threshold_choice.plotting._common import RunScores

    return RunScores.from_frame(pd.read_parquet(path), split=split)


#: the files of one figure, as a rule names them: each image format and the plotted data (.csv)
FigureFiles = Sequence[Path | str]


def step_figures_runs(
    runs_path: Path | str, fig5: FigureFiles, fig6: FigureFiles, *, methods: Sequence[str],
    baselines: Sequence[str], conditions: str = "",
) -> None:
    """Figs 5 (expected loss vs gamma per model type, without ``baselines``) and 6 (per-run
    scatter at gamma = inf and the lowest gamma of the runs, 0 in the paper), each written to
    its files ``fig5`` / ``fig6``; ``conditions``: operating conditions other than the paper's,
    for the titles (:func:`threshold_choice.reproduction.paper.conditions_note`)."""
    from threshold_choice.reproduction.figures import figure5, figure6

    runs = pd.read_parquet(runs_path)
    figure5(runs, fig5, methods=methods, exclude=tuple(baselines), conditions=conditions)
    lowest = float(runs["gamma"].min())
    figure6(runs, fig6, gammas=(math.inf, lowest) if lowest < math.inf else (math.inf,),
            conditions=conditions)


def step_figures_toy(fig2: FigureFiles, fig8: FigureFiles, fig9: FigureFiles) -> None:
    """Figs 2 (c_hat histograms), 8 and 9 (the Appendix B toy example), each written to its
    files."""
    from threshold_choice.reproduction.figures import figure2, figure8, figure9

    figure2(fig2)
    figure8(fig8)
    figure9(fig9)


def step_figure1(source: Path | str, fig1: FigureFiles, *, estimator: str,
                 entry: Mapping[str, Any] | None = None, seed: int = 0,
                 weka_jar: Path | str | None = None) -> None:
    """Fig. 1: cost curves of J48Unp on spambase, written to its files. With ``entry`` (the
    model's registry entry), ``source`` is the prepared spambase and the model is fitted on
    the authors' split of Fig. 1 (:data:`~threshold_choice.reproduction.paper.FIG1_PROTOCOL`:
    trained on 1%, tested on the other 99%); without, ``source`` is the model's scores and
    the first 50/50 split is drawn."""
    from threshold_choice.plotting._common import RunScores
    from threshold_choice.reproduction.figures import figure1

    if entry is None:
        run = _run_scores(source)
        title = "Fig. 1: J48Unp on spambase, first 50/50 split (\u03b3 = \u221e)"
    else:
        from threshold_choice.datasets import load_prepared
        from threshold_choice.datasets.prepare import class_column
        from threshold_choice.reproduction.paper import FIG1_PROTOCOL
        from threshold_choice.splits.core import RSplitter

        labels, levels = class_column(Path(source))
        split = RSplitter(train_fraction=FIG1_PROTOCOL["train_fraction"]).split(
            labels, levels, FIG1_PROTOCOL["seed"])
        spec = _spec_of_entry(json.dumps(entry, sort_keys=True))
        scores, timings = _fit_and_score(Path(source), [split], load_prepared(Path(source)),
                                         spec, seed=seed, weka_jar=weka_jar, frames={})
        logging.getLogger(__name__).info(
            "Fig. 1: %s trained on %d rows, tested on %d; %s", spec.name, len(split.train),
            len(split.test), timings["software"].iloc[0])
        run = RunScores.from_frame(scores, split=int(scores["split"].iloc[0]))
        title = "Fig. 1: J48Unp on 1% of spambase, tested on 99% (\u03b3 = \u221e)"
    figure1(run.test_y, run.test_s, run.train_y, run.train_s, fig1, title=title,
            estimator=estimator)  # type: ignore[arg-type]


def step_credit_a_figures(
    scores_paths: Sequence[Path | str],
    figures: Mapping[str, FigureFiles],
    *,
    gammas: Sequence[float | str],
    estimator: str,
) -> None:
    """Figs 3, 4 and 7: credit-a cost curves (first split) of the models they show;
    ``figures`` maps each figure drawn (``fig3``, ``fig4``, ``fig7``) to its files. The scores
    files are named after their model types."""
    from threshold_choice.reproduction.figures import figure3, figure4, figure7
    from threshold_choice.reproduction.paper import FIGURES

    draws = {"fig3": figure3, "fig4": figure4, "fig7": figure7}
    scores = {Path(p).stem: _run_scores(p) for p in scores_paths}
    g = [gamma_of_label(str(x)) for x in gammas]
    for name, files in figures.items():
        if name not in draws:
            raise UserError(f"the credit-a figures are {', '.join(draws)}, not {name}")
        missing = [m for m in FIGURES[name].models if m not in scores]
        if missing:
            raise UserError(f"{name} needs the credit-a scores of {', '.join(missing)}; "
                            "add them to the inputs")
        draws[name](scores, files, gammas=g, estimator=estimator)  # type: ignore[operator]


def step_report_page(
    comparison: Mapping[str, Path | str],
    tables: Mapping[str, Path | str],
    timings: Sequence[Path | str],
    out: Path | str,
    *,
    tolerance: float,
) -> None:
    """The report's first page (:func:`threshold_choice.reproduction.report.headline_rst`)
    from the comparison's outputs ``comparison`` (``summary``, ``findings``, ``table5``,
    ``table7``, ``table8`` diffs), our ``tables`` at gamma = inf (``table7``, ``table8``) and
    the score jobs' ``timings`` files (their ``software`` column), written to ``out``."""
    from threshold_choice.atomic import write_text_atomic
    from threshold_choice.reproduction.report import headline_rst

    def read(path: Path | str) -> pd.DataFrame:
        return pd.read_csv(path, keep_default_na=False, na_values=[""])

    diffs = {name: read(comparison[name]).fillna({"cause": ""})
             for name in ("table5", "table7", "table8")}
    findings = read(comparison["findings"]).fillna({"cause": ""})
    software = {line for path in timings
                for line in pd.read_csv(path, usecols=["software"])["software"]}
    text = headline_rst(read(comparison["summary"]), findings, diffs,
                        {name: read(path) for name, path in tables.items()},
                        sorted(software), tolerance=tolerance)
    write_text_atomic(out, text)


def step_compare(
    tables: Mapping[str, Path | str],
    runs_path: Path | str,
    outputs: Mapping[str, Path | str],
    *,
    published_dir: Path | str,
    tolerance: float,
    baselines: Sequence[str],
) -> None:
    """Cell-by-cell comparison of ``tables`` (``table5``, ``table7``, ``table8`` at gamma = inf)
    with the published tables, and the Sect. 6 findings on ``runs_path`` (``baselines``: the
    configured baseline model types, left out where the findings speak of the non-baseline
    ones), written to ``outputs`` (``table5``, ``table7``, ``table8`` diffs, ``summary``,
    ``findings``); :func:`threshold_choice.reproduction.comparison.compare_files`."""
    from threshold_choice.reproduction.comparison import compare_files

    compare_files(tables, runs_path, outputs, published_dir, tolerance, baselines=baselines)
