"""The dataset registry (``config/datasets.yaml``), validated against its JSON schema.

Keys are the lowercase dataset names of the paper's Table 8 (``breast-w``, ``spect_train``...).
Each entry names the paper's ARFF file in the mirror, its class attribute, which class label is
class 1 (the majority of the whole dataset, protocol convention), the expected shape, class
counts and content hash of the paper's table (see :mod:`threshold_choice.datasets.table`), the
remote source with the transformations that turn it into the paper's table, and a provenance
note.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

from threshold_choice._repository import CONFIG_DIR
from threshold_choice._yaml import read_yaml
from threshold_choice.datasets.errors import RegistryError, UnknownDatasetError
from threshold_choice.datasets.transforms import expand_names

DEFAULT_REGISTRY = CONFIG_DIR / "datasets.yaml"
DEFAULT_SCHEMA = CONFIG_DIR / "schemas" / "datasets.schema.yaml"
DEFAULT_CONFIG = CONFIG_DIR / "config.yaml"


def configured_mirror(config_path: Path | None = None) -> Path | None:
    """The workflow's mirror folder (``data.mirror`` of ``config/config.yaml``, relative to
    the repository root) when it exists, else ``None`` (see
    :func:`~threshold_choice.datasets.fetch.configured_mirror_setting`, which also reports a
    configured folder that does not exist)."""
    from threshold_choice.datasets.fetch import configured_mirror_setting

    mirror = configured_mirror_setting(config_path)
    return mirror.folder if mirror is not None and mirror.exists else None


@dataclass(frozen=True)
class SourceSpec:
    """Where the data comes from when the mirror lacks it.

    ``kind`` is ``openml`` (``openml_id``, ``keep_ignored``), ``uci`` (``url``, ``uci_format``)
    or ``mirror_only``; ``transforms`` map the source onto the paper's table.
    """

    kind: str
    note: str
    openml_id: int | None = None
    keep_ignored: tuple[str, ...] = ()
    url: str | None = None
    uci_format: Mapping[str, Any] = field(default_factory=dict)
    transforms: tuple[Mapping[str, Any], ...] = ()

    def describe(self) -> str:
        """Short human-readable name of the source, used in messages and metadata."""
        if self.kind == "openml":
            return f"OpenML dataset {self.openml_id}"
        if self.kind == "uci":
            return f"UCI file {self.url}"
        return "the mirror only (no public source)"


@dataclass(frozen=True)
class DatasetSpec:
    """One registry entry; ``n_columns`` counts the class attribute too (as Table 5 does)."""

    name: str
    table5_number: int
    table5_name: str
    mirror_file: str
    target: str
    label_of_class1: str
    n_rows: int
    n_columns: int
    class_counts: Mapping[str, int]
    content_sha256: str
    source: SourceSpec
    provenance: str


def _read_yaml(path: Path, what: str) -> Any:
    return read_yaml(path, what, shipped="config/datasets.yaml", error=RegistryError)


def _source(raw: Mapping[str, Any]) -> SourceSpec:
    return SourceSpec(
        kind=raw["kind"],
        note=raw["note"],
        openml_id=raw.get("id"),
        keep_ignored=tuple(expand_names(raw.get("keep_ignored", []))),
        url=raw.get("url"),
        uci_format=raw.get("format", {}),
        transforms=tuple(raw.get("transforms", [])),
    )


def load_registry(
    path: Path | None = None, *, schema_path: Path | None = None
) -> dict[str, DatasetSpec]:
    """Read and validate the registry; default path: the repository's ``config/datasets.yaml``.

    Raises :class:`RegistryError` when the file is absent, not YAML, or breaks the schema.
    """
    path = Path(path) if path is not None else DEFAULT_REGISTRY
    doc = _read_yaml(path, "dataset registry")
    schema = _read_yaml(Path(schema_path) if schema_path else DEFAULT_SCHEMA, "registry schema")
    try:
        jsonschema.validate(doc, schema)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "<top level>"
        raise RegistryError(
            f"dataset registry {path} breaks its schema at {where}: {exc.message}. Fix the entry."
        ) from None
    specs: dict[str, DatasetSpec] = {}
    for name, raw in doc["datasets"].items():
        exp = raw["expected"]
        if raw["label_of_class1"] not in exp["class_counts"]:
            raise RegistryError(
                f"dataset registry {path}: {name}: label_of_class1 {raw['label_of_class1']!r} is "
                "not one of its class_counts labels. Fix the entry."
            )
        specs[name] = DatasetSpec(
            name=name,
            table5_number=raw["table5"]["number"],
            table5_name=raw["table5"]["name"],
            mirror_file=raw["mirror_file"],
            target=raw["target"],
            label_of_class1=raw["label_of_class1"],
            n_rows=exp["n_rows"],
            n_columns=exp["n_columns"],
            class_counts=dict(exp["class_counts"]),
            content_sha256=exp["content_sha256"],
            source=_source(raw["source"]),
            provenance=raw["provenance"].strip(),
        )
    return specs


def get_spec(name: str, registry: Mapping[str, DatasetSpec] | None = None) -> DatasetSpec:
    """The entry of ``name``; :class:`UnknownDatasetError` lists the known names otherwise."""
    registry = load_registry() if registry is None else registry
    if name not in registry:
        raise UnknownDatasetError(
            f"unknown dataset {name!r}. Known datasets: {', '.join(sorted(registry))}. "
            "Use one of these names (lowercase, as in the paper's Table 8)."
        )
    return registry[name]


def dataset_names(registry: Mapping[str, DatasetSpec]) -> Sequence[str]:
    """Names in Table 5 order."""
    return sorted(registry, key=lambda n: registry[n].table5_number)
