"""The steps of the reproduction workflow, one function per Snakemake rule.

The Snakemake scripts in ``workflow/scripts/`` only unpack ``snakemake.input/output/params``
and call these functions, so every step can also be run and tested without Snakemake.
All outputs are written atomically (temporary file, then rename): an interrupted step leaves
no half-written file behind.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import math
import os
import sys
import traceback
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from threshold_choice.atomic import mkstemp_readable
from threshold_choice.errors import UserError
from threshold_choice.metrics import METRICS

# Heavy modules (scipy, scikit-learn) are imported inside the steps that need them: every
# Snakemake job is a fresh process, and imports are most of a small job's time.

RUN_KEYS = ("dataset", "model", "split", "gamma", "method")
RUN_COLUMNS = (*RUN_KEYS, "loss", *METRICS)


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


def atomic_path(path: Path) -> tuple[int, Path]:
    """A temporary file beside ``path`` (caller renames it over ``path`` when complete)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = mkstemp_readable(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    return fd, Path(tmp)


def write_parquet(frame: pd.DataFrame, path: Path | str) -> None:
    """Write ``frame`` to parquet atomically, without the pandas index."""
    path = Path(path)
    fd, tmp = atomic_path(path)
    os.close(fd)
    try:
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_csv(frame: pd.DataFrame, path: Path | str, **kwargs: Any) -> None:
    path = Path(path)
    fd, tmp = atomic_path(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            frame.to_csv(handle, index=False, lineterminator="\n", **kwargs)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# -- data and splits -----------------------------------------------------------------------


def step_prepare(
    name: str,
    out_parquet: Path | str,
    *,
    mirror: str | None,
    cache_dir: Path | str,
    registry: Path | str,
) -> None:
    """Obtain and verify one dataset (mirror first when it exists, else OpenML/UCI)."""
    from threshold_choice.datasets import load_registry, prepare_dataset

    out = Path(out_parquet)
    mirror_dir = Path(mirror) if mirror and Path(mirror).is_dir() else None
    written = prepare_dataset(
        name,
        out_dir=out.parent,
        cache_dir=Path(cache_dir),
        mirror=mirror_dir,
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


def step_score(
    prepared: Path | str,
    splits_csv: Path | str,
    model: str,
    *,
    entry: Mapping[str, Any] | None = None,
    registry: Path | str | None = None,
    out_scores: Path | str,
    out_timings: Path | str,
    seed: int,
    weka_jar: Path | str | None = None,
) -> None:
    """Fit ``model`` on every split of one dataset; write its train and test scores.

    The model is its registry ``entry`` (a mapping, as the workflow passes it) or, without
    one, the entry named ``model`` in the ``registry`` file. A Weka model runs the learners of
    ``weka_jar`` when given (see :func:`threshold_choice.models.weka.ensure_jvm`). The software
    versions (Weka's and its jar for a Weka model) go to the log and to the timings' ``software``
    column."""
    from threshold_choice.datasets import load_prepared
    from threshold_choice.models.registry import (
        import_estimator,
        load_model_registry,
        model_spec_from_entry,
    )
    from threshold_choice.models.weka import ensure_jvm, is_weka_estimator
    from threshold_choice.provenance import format_software, software_versions
    from threshold_choice.scores import score_model, write_scores

    if entry is not None:
        if entry.get("name") != model:
            raise UserError(f"score job of model {model!r} got the entry of {entry.get('name')!r}")
        spec = model_spec_from_entry(entry)
    elif registry is not None:
        # only this model is constructed and checked (the whole file is still validated)
        spec = load_model_registry(Path(registry), only=[model])[model]
    else:
        raise UserError("step_score needs the model's registry entry or the registry file")
    estimator_class = import_estimator(spec.estimator, model=model)
    is_weka = is_weka_estimator(estimator_class)
    if is_weka:
        ensure_jvm(weka_jar=weka_jar)
    data = load_prepared(Path(prepared))
    if "class_order" in inspect.signature(estimator_class).parameters:
        # Weka sees the class values in the ARFF's declared order (ties follow it)
        order = (1, 0) if data.class_labels[0] == data.label_of_class1 else (0, 1)
        spec = replace(spec, params={**spec.params, "class_order": order})
    splits = read_splits(splits_csv)
    random_states = None
    if getattr(estimator_class, "needs_r_stream", False):
        # the authors' Random draws from R's stream where their split left it
        from threshold_choice.datasets.prepare import class_column
        from threshold_choice.splits import r_streams_after_splits

        labels, levels = class_column(Path(prepared))
        try:
            random_states = r_streams_after_splits(labels, levels, splits)
        except UserError as exc:
            raise UserError(f"model {model}: {exc}") from None
    scores, timings = score_model(data.X, data.y, splits, spec, seed=seed,
                                  random_states=random_states)
    software = format_software(software_versions(weka=is_weka))
    logging.getLogger(__name__).info("model %s on %s: %s", model, data.name, software)
    write_scores(scores, out_scores)
    timings.insert(0, "model", model)
    timings.insert(0, "dataset", data.name)
    timings["software"] = software
    write_csv(timings, out_timings)


# -- evaluation ------------------------------------------------------------------------------


def evaluate_scores(
    scores: pd.DataFrame,
    dataset: str,
    model: str,
    *,
    methods: Sequence[str],
    gammas: Iterable[float],
    settings: Any,
) -> pd.DataFrame:
    """Per-run table (:data:`RUN_COLUMNS`) of one (dataset, model) from its scores
    (``settings``: a :class:`threshold_choice.evaluation.LossSettings`)."""
    from threshold_choice.evaluation import expected_losses
    from threshold_choice.metrics import compute_metrics
    from threshold_choice.uncertainty import parse_gamma

    gammas = [parse_gamma(g) for g in gammas]
    frames = []
    for split, part in scores.groupby("split", sort=True):
        test = part[part["part"] == "test"]
        train = part[part["part"] == "train"]
        where = f"dataset {dataset}, model {model}, split {split}"
        try:
            losses = expected_losses(
                test["label"].to_numpy(),
                test["score"].to_numpy(),
                train_y=train["label"].to_numpy(),
                train_s=train["score"].to_numpy(),
                methods=methods,
                gammas=gammas,
                settings=settings,
            )
            metrics = compute_metrics(test["label"].to_numpy(), test["score"].to_numpy())
        except UserError as exc:
            raise UserError(f"{where}: {exc}") from None
        losses = losses.rename(columns={"expected_loss": "loss"})
        losses.insert(0, "split", int(split))
        losses.insert(0, "model", model)
        losses.insert(0, "dataset", dataset)
        for name in METRICS:
            losses[name] = metrics[name]
        frames.append(losses)
    return pd.concat(frames, ignore_index=True)[list(RUN_COLUMNS)]


def step_evaluate(
    scores_paths: Sequence[Path | str],
    dataset: str,
    out: Path | str,
    *,
    methods: Sequence[str],
    gammas: Iterable[float | str],
    estimator: str,
    grid_size: int,
    seed: int,
    rate_threshold_offset: float | None = None,
    tie_breaking: str = "project",
) -> None:
    """Per-run results of one dataset: every model's scores file (named ``<model>.parquet``)."""
    from threshold_choice.evaluation import LossSettings
    from threshold_choice.uncertainty import parse_gamma

    settings = LossSettings(
        estimator,  # type: ignore[arg-type]
        grid_size,
        seed,
        rate_threshold_offset,
        tie_breaking,  # type: ignore[arg-type]
    )
    gamma_values = [parse_gamma(g) for g in gammas]
    frames = [
        evaluate_scores(
            pd.read_parquet(path),
            dataset,
            Path(path).stem,
            methods=methods,
            gammas=gamma_values,
            settings=settings,
        )
        for path in scores_paths
    ]
    write_parquet(pd.concat(frames, ignore_index=True), out)


def step_collect(run_files: Sequence[Path | str], out: Path | str) -> None:
    """Concatenate per-(dataset, model) runs into one table, in a fixed order."""
    runs = pd.concat([pd.read_parquet(p) for p in run_files], ignore_index=True)
    runs = runs.sort_values(list(RUN_KEYS[:3]), kind="stable").reset_index(drop=True)
    write_parquet(runs, out)


def gamma_label(gamma: float | str) -> str:
    """Path label of a gamma: ``inf``, ``16``, ``0.5``."""
    from threshold_choice.uncertainty import format_gamma, parse_gamma

    return format_gamma(parse_gamma(gamma))


def gamma_of_label(label: str) -> float:
    from threshold_choice.uncertainty import parse_gamma

    value = parse_gamma(label)
    return math.inf if math.isinf(value) else value


def step_table5(prepared: Sequence[Path | str], out_stem: Path | str, *,
                formats: Sequence[str] | None = None) -> None:
    """Table 5 (instances, attributes, majority proportion) of the prepared datasets, in
    ``formats`` (default :data:`threshold_choice.tables.TABLE_FORMATS`)."""
    from threshold_choice.datasets import load_prepared, table5
    from threshold_choice.tables import TABLE_FORMATS, write_table

    formats = formats or TABLE_FORMATS
    frame = table5([load_prepared(Path(p)) for p in prepared])
    write_table(frame, out_stem, caption="Table 5: datasets", marks=None, formats=formats)


def step_tables(
    runs_path: Path | str,
    gamma: str,
    out_table7: Path | str,
    out_table8: Path | str,
    *,
    baselines: Sequence[str],
    published_dir: Path | str,
    formats: Sequence[str] | None = None,
) -> None:
    """Tables 7 (by model) and 8 (by dataset, without the baselines) at one gamma, in
    ``formats`` (default :data:`threshold_choice.tables.TABLE_FORMATS`)."""
    from threshold_choice.tables import TABLE_FORMATS, table7, table8, write_table

    formats = formats or TABLE_FORMATS
    runs = pd.read_parquet(runs_path)
    g = gamma_of_label(gamma)
    published = Path(published_dir)
    write_table(
        table7(runs, g, published_dir=published),
        out_table7,
        caption=f"Table 7: means by model type, gamma = {gamma}",
        formats=formats,
    )
    write_table(
        table8(runs, g, tuple(baselines), published_dir=published),
        out_table8,
        caption=f"Table 8: means by dataset (non-baseline models), gamma = {gamma}",
        formats=formats,
    )


def _run_scores(path: Path | str, split: int = 1) -> Any:
    from threshold_choice.figures import RunScores

    return RunScores.from_frame(pd.read_parquet(path), split=split)


def step_figures_runs(
    runs_path: Path | str, out_dir: Path | str, *, methods: Sequence[str],
    baselines: Sequence[str], formats: Sequence[str] | None = None,
) -> None:
    """Figs 5 (expected loss vs gamma per model type) and 6 (per-run scatter at gamma = inf
    and the lowest configured gamma, 0 in the paper)."""
    from threshold_choice.figures import FIGURE_FORMATS, figure5, figure6

    formats = formats or FIGURE_FORMATS
    runs = pd.read_parquet(runs_path)
    out = Path(out_dir)
    figure5(runs, out / "fig5", methods=methods, exclude=tuple(baselines), formats=formats)
    lowest = float(runs["gamma"].min())
    figure6(runs, out / "fig6", gammas=(math.inf, lowest) if lowest < math.inf else (math.inf,),
            formats=formats)


def step_figures_toy(out_dir: Path | str, *, formats: Sequence[str] | None = None) -> None:
    """Figs 2 (c_hat histograms), 8 and 9 (the Appendix B toy example)."""
    from threshold_choice.figures import FIGURE_FORMATS, figure2, figure8, figure9

    formats = formats or FIGURE_FORMATS
    out = Path(out_dir)
    figure2(out / "fig2", formats=formats)
    figure8(out / "fig8", formats=formats)
    figure9(out / "fig9", formats=formats)


def step_figure1(scores_path: Path | str, out_stem: Path | str, *, estimator: str,
                 formats: Sequence[str] | None = None) -> None:
    """Fig. 1: cost curves of J48Unp on spambase (first split)."""
    from threshold_choice.figures import FIGURE_FORMATS, figure1

    formats = formats or FIGURE_FORMATS
    run = _run_scores(scores_path)
    figure1(run.test_y, run.test_s, run.train_y, run.train_s, out_stem,
            estimator=estimator, formats=formats)  # type: ignore[arg-type]


def step_credit_a_figures(
    scores_paths: Sequence[Path | str],
    out_dir: Path | str,
    *,
    gammas: Sequence[float | str],
    estimator: str,
    formats: Sequence[str] | None = None,
) -> None:
    """Figs 3, 4 and 7: credit-a cost curves (first split) of the models they show."""
    from threshold_choice.figures import (
        FIG3_MODELS,
        FIG4_MODELS,
        FIG7_MODELS,
        FIGURE_FORMATS,
        figure3,
        figure4,
        figure7,
    )

    formats = formats or FIGURE_FORMATS
    scores = {Path(p).stem: _run_scores(p) for p in scores_paths}
    g = [gamma_of_label(str(x)) for x in gammas]
    out = Path(out_dir)
    for draw, models, stem in (
        (figure3, FIG3_MODELS, "fig3"),
        (figure4, FIG4_MODELS, "fig4"),
        (figure7, FIG7_MODELS, "fig7"),
    ):
        if all(m in scores for m in models):  # a figure is drawn only with all its models
            draw(scores, out / stem, gammas=g, estimator=estimator,  # type: ignore[operator]
                 formats=formats)


def step_compare(results_dir: Path | str, *, published_dir: Path | str, tolerance: float) -> None:
    """Cell-by-cell comparison with the published tables and the Sect. 6 findings."""
    from threshold_choice.comparison import compare_results

    compare_results(results_dir, published_dir, tolerance)
