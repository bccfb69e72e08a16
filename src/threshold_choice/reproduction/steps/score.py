"""The score step: each model fitted on each split, its test and training scores written
(and kept in the score cache).

This module is part of the score cache's key
(:data:`~threshold_choice.reproduction.score_cache.SCORING_CODE`): editing it re-fits every
model, so what does not change the scores belongs in another module."""

from __future__ import annotations

import functools
import gc
import inspect
import json
import logging
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from threshold_choice.errors import UserError
from threshold_choice.reproduction.steps._io import one_line, write_csv


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


def _fit_and_score(splits: list[Any], data: Any, spec: Any, *, seed: int,
                   weka_jar: Path | str | None, frames: dict[tuple[str, int], pd.DataFrame],
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Scores and timings (with the software column) of one model on every split of ``data``
    (a :class:`~threshold_choice.datasets.PreparedDataset`); ``frames``: the split parts'
    frames, shared by the dataset's models (see
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
        from threshold_choice.splits import r_streams_after_splits

        labels, levels = data.class_column()  # the loaded table's, not read again
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
    runtime: tuple[str, str] | None = None  # the Weka jar and Java the models are keyed on
    for spec, scores_path, timings_path in zip(specs, out_scores, out_timings, strict=True):
        scores_path, timings_path = Path(scores_path), Path(timings_path)
        key = parts = None
        if cache is not None:
            jar = java = None
            if _is_weka(spec):
                if runtime is None:  # once per dataset, not per model
                    runtime = (resolved_weka_jar(weka_jar), java_release())
                jar, java = runtime
            key, parts = score_key(prepared=prepared, splits_csv=splits_csv,
                                   entry=_entry_of(spec, entries), seed=seed,
                                   weka_jar=jar, java=java)
            if cache.fetch(spec.name, key, scores_path, timings_path):
                log.info("model %s on %s: scores from the cache (key %s)", spec.name,
                         prepared.stem, key[:16])
                continue
        if data is None:  # read once, and only when a model is fitted
            data = load_prepared(prepared)
            splits = read_splits(splits_csv)
        try:
            scores, timings = _fit_and_score(splits, data, spec, seed=seed,  # type: ignore[arg-type]
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
