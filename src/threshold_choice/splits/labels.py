"""The class labels a splitter needs (:class:`ClassColumn`), from an ARFF file
(:func:`~threshold_choice.datasets.arff.read_arff_class`), a prepared table or a registry
dataset."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from threshold_choice.datasets.arff import ClassColumn, read_arff_class

if TYPE_CHECKING:
    from threshold_choice.datasets.fetch import Mirror

__all__ = [
    "ClassColumn",
    "labels_from_prepared",
    "labels_from_registry",
    "read_arff_class",
]


def labels_from_prepared(path: Path) -> ClassColumn:
    """Class labels of every row of a prepared table (``.parquet`` with its ``.json``
    metadata beside it) and their declared level order."""
    from threshold_choice.datasets.prepare import class_column

    labels, levels = class_column(path)
    return ClassColumn(name=path.stem, labels=labels, levels=levels)


def labels_from_registry(name: str, *, mirror: Path | Mirror | None, cache: Path | None,
                         registry: Path | None = None) -> ClassColumn:
    """Class labels of a registry dataset, obtained (mirror first, then OpenML/UCI) and
    verified as the workflow does, in a temporary folder (the download cache is kept)."""
    import tempfile

    from threshold_choice.datasets import load_registry, prepare_dataset

    specs = load_registry(registry)
    with tempfile.TemporaryDirectory(prefix="threshold-choice-splits-") as tmp:
        cache_dir = cache if cache is not None else Path(tmp) / "cache"
        path = prepare_dataset(name, out_dir=Path(tmp), cache_dir=cache_dir, mirror=mirror,
                               registry=specs)
        return labels_from_prepared(path)
