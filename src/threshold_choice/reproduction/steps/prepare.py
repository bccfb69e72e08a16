"""The prepare step: a dataset read, checked and encoded, and its splits drawn."""

from __future__ import annotations

from pathlib import Path

from threshold_choice.errors import UserError
from threshold_choice.reproduction.steps._io import write_csv


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
