"""The paper's 26 datasets: registry, fetching (mirror, OpenML, UCI), preparation.

Public API::

    load_registry(path=None) -> dict[str, DatasetSpec]
    prepare_dataset(name, *, out_dir, cache_dir, mirror, registry=None) -> Path
    load_prepared(parquet_path) -> PreparedDataset   # X, y (1 = majority), class_labels, ...
"""

try:
    from threshold_choice.datasets.errors import (
        ArffFormatError,
        ChecksumMismatchError,
        ContentHashMismatchError,
        DatasetError,
        RegistryError,
        SourceUnavailableError,
        TransformError,
        UnknownDatasetError,
    )
    from threshold_choice.datasets.prepare import PreparedDataset, load_prepared, prepare_dataset
    from threshold_choice.datasets.registry import DatasetSpec, SourceSpec, load_registry
except ModuleNotFoundError as _missing:
    # the reproduction's datasets need the workflow extra; say so (the library does not)
    if (_missing.name or "").partition(".")[0] in {"yaml", "jsonschema", "pyarrow", "openml",
                                                    "requests", "unlzw3"}:
        raise ModuleNotFoundError(
            f"threshold_choice.datasets needs {_missing.name}, which the core install leaves "
            "out: install the workflow extra (pip install 'threshold-choice[workflow]')",
            name=_missing.name) from _missing
    raise

__all__ = [
    "ArffFormatError",
    "ChecksumMismatchError",
    "ContentHashMismatchError",
    "DatasetError",
    "DatasetSpec",
    "PreparedDataset",
    "RegistryError",
    "SourceSpec",
    "SourceUnavailableError",
    "TransformError",
    "UnknownDatasetError",
    "load_prepared",
    "load_registry",
    "prepare_dataset",
]
