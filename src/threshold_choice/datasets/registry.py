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
from threshold_choice._yaml import read_yaml, schema_message
from threshold_choice.datasets.errors import RegistryError, UnknownDatasetError
from threshold_choice.datasets.transforms import expand_names
from threshold_choice.errors import UserError
from threshold_choice.names import check_name

DEFAULT_REGISTRY = CONFIG_DIR / "datasets.yaml"
DEFAULT_SCHEMA = CONFIG_DIR / "schemas" / "datasets.schema.yaml"
DEFAULT_CONFIG = CONFIG_DIR / "config.yaml"


@dataclass(frozen=True)
class SourceSpec:
    """Where the data comes from when the mirror lacks it.

    ``kind`` is ``openml`` (``openml_id``, ``keep_ignored``), ``uci`` (``url``, ``uci_format``),
    ``mirror_only`` or ``local`` (``path``, ``file_format``: a CSV or ARFF file of one's own);
    ``transforms`` map the source onto the paper's table.
    """

    kind: str
    note: str = ""
    openml_id: int | None = None
    keep_ignored: tuple[str, ...] = ()
    url: str | None = None
    uci_format: Mapping[str, Any] = field(default_factory=dict)
    transforms: tuple[Mapping[str, Any], ...] = ()
    path: str | None = None
    file_format: str | None = None

    def describe(self) -> str:
        """Short human-readable name of the source, used in messages and metadata."""
        if self.kind == "openml":
            return f"OpenML dataset {self.openml_id}"
        if self.kind == "uci":
            return f"UCI file {self.url}"
        if self.kind == "local":
            return f"the local file {self.path}"
        return "the mirror only (no public source)"


@dataclass(frozen=True)
class DatasetSpec:
    """One registry entry; ``n_columns`` counts the class attribute too (as Table 5 does).

    A dataset of one's own has no ``table5_number`` (None) nor ``mirror_file``; while its
    entry says ``expected: pending``, ``n_rows``, ``n_columns``, ``class_counts`` and
    ``content_sha256`` are None (:attr:`pending`) and preparing it prints their values."""

    name: str
    table5_number: int | None
    table5_name: str
    mirror_file: str | None
    target: str
    label_of_class1: str
    n_rows: int | None
    n_columns: int | None
    class_counts: Mapping[str, int] | None
    content_sha256: str | None
    source: SourceSpec
    provenance: str

    @property
    def pending(self) -> bool:
        """Whether the entry awaits its expected values (``expected: pending``)."""
        return self.content_sha256 is None


def _read_yaml(path: Path, what: str) -> Any:
    return read_yaml(path, what, shipped="config/datasets.yaml", error=RegistryError)


def _source(raw: Mapping[str, Any]) -> SourceSpec:
    return SourceSpec(
        kind=raw["kind"],
        note=raw.get("note", ""),
        path=raw.get("path"),
        file_format=raw.get("format") if raw["kind"] == "local" else None,
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
    _check_hash_spelling(doc, path)
    if isinstance(doc, Mapping) and isinstance(doc.get("datasets"), Mapping):
        for name in doc["datasets"]:
            try:
                check_name(name, "dataset")
            except UserError as exc:
                raise RegistryError(f"dataset registry {path}: {exc}") from None
    try:
        jsonschema.validate(doc, schema)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "<top level>"
        raise RegistryError(
            f"dataset registry {path} breaks its schema at {where}: {schema_message(exc)}. "
            "Fix the entry."
        ) from None
    specs: dict[str, DatasetSpec] = {}
    for name, raw in doc["datasets"].items():
        exp = raw["expected"] if isinstance(raw["expected"], Mapping) else {}
        if exp and raw["label_of_class1"] not in exp["class_counts"]:
            raise RegistryError(
                f"dataset registry {path}: {name}: label_of_class1 {raw['label_of_class1']!r} is "
                "not one of its class_counts labels. Fix the entry."
            )
        table5 = raw.get("table5") or {}
        specs[name] = DatasetSpec(
            name=name,
            table5_number=table5.get("number"),
            table5_name=table5.get("name", name),
            mirror_file=raw.get("mirror_file"),
            target=raw["target"],
            label_of_class1=raw["label_of_class1"],
            n_rows=exp.get("n_rows"),
            n_columns=exp.get("n_columns"),
            class_counts=dict(exp["class_counts"]) if exp else None,
            content_sha256=exp.get("content_sha256"),
            source=_source(raw["source"]),
            provenance=str(raw.get("provenance", "")).strip(),
        )
    return specs


def _check_hash_spelling(doc: Any, path: Path) -> None:
    """A content hash YAML read as a number (64 digits unquoted, e.g. a placeholder of
    zeros) gets its own message: the schema's would only say it is not a string."""
    datasets = doc.get("datasets") if isinstance(doc, Mapping) else None
    for name, raw in (datasets or {}).items():
        expected = raw.get("expected") if isinstance(raw, Mapping) else None
        value = expected.get("content_sha256") if isinstance(expected, Mapping) else None
        if isinstance(value, int | float):
            raise RegistryError(
                f"dataset registry {path}: {name}: expected.content_sha256 is read by YAML as "
                f"the number {value!r}, not a hash: quote it ('...'), or write `expected: "
                "pending` and prepare the dataset, which prints the values to write there."
            )


def get_spec(name: str, registry: Mapping[str, DatasetSpec] | None = None) -> DatasetSpec:
    """The entry of ``name``; :class:`UnknownDatasetError` lists the known names otherwise."""
    registry = load_registry() if registry is None else registry
    if name not in registry:
        import difflib

        same = [k for k in registry if k.lower() == str(name).lower()]
        close = same or difflib.get_close_matches(str(name), list(registry), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise UnknownDatasetError(
            f"unknown dataset {name!r}.{hint} Known datasets: {', '.join(sorted(registry))}. "
            "Use one of these names, spelled exactly as listed."
        )
    return registry[name]


def dataset_names(registry: Mapping[str, DatasetSpec]) -> Sequence[str]:
    """Names in Table 5 order, then the datasets of one's own in registry order."""
    order = list(registry)
    return sorted(order, key=lambda n: (registry[n].table5_number is None,
                                        registry[n].table5_number or 0, order.index(n)))
