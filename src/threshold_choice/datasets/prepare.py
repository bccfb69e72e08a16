"""Preparation: obtain, verify and store one dataset; load it back for the models.

Files written by :func:`prepare_dataset` (atomically: temporary files in ``out_dir`` renamed
into place only after both are complete):

* ``<name>.parquet`` -- the paper's table: every attribute in the paper's file order (the class
  included, at its position in the file), rows in the file's order (row ``i`` of the parquet is
  the 1-based ARFF row ``i + 1`` that splits refer to); nominal columns as categoricals,
  numeric ones as float64, missing values as missing.
* ``<name>.json`` -- metadata: schema (names, kinds, declared categories), target, class labels
  in header order, the label of class 1 (majority of the whole dataset), class counts, source,
  file checksum and content hash, Table 5 identity and provenance.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from threshold_choice.atomic import atomic_output
from threshold_choice.datasets.errors import ContentHashMismatchError, DatasetError
from threshold_choice.datasets.fetch import Mirror, fetch_source
from threshold_choice.datasets.registry import DatasetSpec, get_spec
from threshold_choice.datasets.table import (
    HASH_FORMAT,
    Column,
    Table,
    content_hash,
    from_dataframe,
    schema_of,
    to_dataframe,
)

META_FORMAT = 1


@dataclass(frozen=True)
class PreparedDataset:
    """A prepared dataset as the models see it.

    ``X``: features only, in file order (nominal = Categorical in declared order, numeric =
    float64, missing kept). ``y``: int8, 1 = the majority class of the whole dataset.
    ``class_labels``: raw class labels in header order. Row ``i`` = ARFF data row ``i + 1``.
    ``target``: the raw class column (``None`` for a dataset not loaded from a prepared
    table), behind :meth:`class_column`.
    """

    name: str
    X: pd.DataFrame
    y: np.ndarray
    class_labels: list[str]
    label_of_class1: str
    meta: dict[str, Any]
    target: pd.Series | None = field(default=None, repr=False, compare=False)

    def class_column(self) -> tuple[list[str | None], list[str]]:
        """What :func:`class_column` reads from the prepared table, without reading it
        again."""
        if self.target is None:
            raise DatasetError(f"{self.name}: not loaded from a prepared table, so it has no "
                               "raw class column; load it with load_prepared")
        return _raw_labels(self.target, self.class_labels)


def majority_label(target: Column) -> str:
    """The label that is class 1: the one with more than half of the rows.

    On an exact tie (monks1, spect_train) this follows the authors' R code, which takes the
    first label in order of appearance only if it holds *more* than half of the rows: the
    label whose first occurrence comes second wins.
    """
    codes = target.values
    if (codes < 0).any():
        raise DatasetError(f"class column {target.name!r} has missing values; fix the data.")
    present, first_rows = np.unique(codes, return_index=True)
    if len(present) != 2:
        raise DatasetError(
            f"class column {target.name!r} has {len(present)} distinct labels; the paper's "
            "datasets are binary. Check the registry's target."
        )
    by_appearance = present[np.argsort(first_rows)]
    first_count = int(np.count_nonzero(codes == by_appearance[0]))
    winner = by_appearance[0] if first_count > len(codes) / 2 else by_appearance[1]
    return target.categories[int(winner)]


def class_counts(target: Column) -> dict[str, int]:
    """Rows per class label, in header order (labels with no rows omitted)."""
    counts = np.bincount(target.values[target.values >= 0], minlength=len(target.categories))
    return {lab: int(n) for lab, n in zip(target.categories, counts, strict=True) if n}


def verify(table: Table, spec: DatasetSpec, source_info: Mapping[str, Any]) -> str:
    """Check the table against the registry; returns its content hash.

    Raises :class:`ContentHashMismatchError` listing every difference (content hash, shape,
    class counts, class-1 label), with expected and actual values and the source.
    """
    actual_hash = content_hash(table)
    if spec.pending:
        raise ContentHashMismatchError(_pending_message(table, spec, source_info, actual_hash))
    problems = []
    if actual_hash != spec.content_sha256:
        problems.append(f"content hash expected {spec.content_sha256}, actual {actual_hash}")
    if (table.n_rows, len(table.columns)) != (spec.n_rows, spec.n_columns):
        problems.append(
            f"shape expected {spec.n_rows} rows x {spec.n_columns} attributes, actual "
            f"{table.n_rows} x {len(table.columns)}"
        )
    if spec.target not in table.names or table.column(spec.target).kind != "nominal":
        problems.append(f"class attribute {spec.target!r} missing or not nominal")
    else:
        target = table.column(spec.target)
        counts = class_counts(target)
        if counts != dict(spec.class_counts):
            problems.append(f"class counts expected {dict(spec.class_counts)}, actual {counts}")
        elif majority_label(target) != spec.label_of_class1:
            problems.append(
                f"class-1 label expected {spec.label_of_class1!r}, "
                f"actual {majority_label(target)!r}"
            )
    if problems:
        where = source_info.get("path") or source_info.get("url") or spec.source.describe()
        raise ContentHashMismatchError(
            f"{spec.name}: the table from {source_info['kind']} source {where} is not the "
            f"paper's data: {'; '.join(problems)}. If the source changed, use the mirror "
            "(--mirror DIR); if the registry's transforms are wrong, fix config/datasets.yaml."
        )
    return actual_hash


def _pending_message(table: Table, spec: DatasetSpec, source_info: Mapping[str, Any],
                     digest: str) -> str:
    """What to write in the registry entry of ``spec`` (``expected: pending``), in one line."""
    where = source_info.get("path") or source_info.get("url") or spec.source.describe()
    if spec.target not in table.names or table.column(spec.target).kind != "nominal":
        return (f"{spec.name}: the table from {where} has no nominal column {spec.target!r} "
                f"(its columns: {', '.join(table.names)}); correct target in the registry")
    target = table.column(spec.target)
    counts = ", ".join(f"'{k}': {v}" for k, v in class_counts(target).items())
    return (
        f"{spec.name}: its registry entry says expected: pending; the table from {where} is "
        f"expected: {{n_rows: {table.n_rows}, n_columns: {len(table.columns)}, class_counts: "
        f"{{{counts}}}, content_sha256: '{digest}'}} with label_of_class1: "
        f"'{majority_label(target)}' (its majority class): check the data, then write these "
        "into the entry to pin them"
    )


def build_meta(table: Table, spec: DatasetSpec, source_info: Mapping[str, Any],
               digest: str) -> dict[str, Any]:
    """The metadata JSON of a prepared dataset."""
    target = table.column(spec.target)
    return {
        "meta_format": META_FORMAT,
        "name": spec.name,
        "table5": {"number": spec.table5_number, "name": spec.table5_name},
        "n_rows": table.n_rows,
        "columns": schema_of(table),
        "features": [n for n in table.names if n != spec.target],
        "target": spec.target,
        "class_labels": list(target.categories),
        "label_of_class1": spec.label_of_class1,
        "class_counts": class_counts(target),
        "source": dict(source_info),
        "hash_format": HASH_FORMAT,
        "content_sha256": digest,
        "provenance": spec.provenance,
        "source_note": spec.source.note,
    }


def _atomic_pair(out_dir: Path, name: str, frame: pd.DataFrame, meta: dict[str, Any]) -> Path:
    """Write parquet and JSON to temporary files, then rename both; no partial file remains."""
    parquet_path, json_path = out_dir / f"{name}.parquet", out_dir / f"{name}.json"
    # The inner context exits first, so the JSON is renamed first: a parquet file present
    # implies its metadata is too.
    with atomic_output(parquet_path) as tmp_parquet, atomic_output(json_path) as tmp_json:
        frame.to_parquet(tmp_parquet, index=False)
        tmp_json.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return parquet_path


def _check_folder(folder: Path, what: str) -> None:
    """A folder that exists or can be created: not a file, nor under one."""
    for path in (folder, *folder.parents):
        if path.exists():
            if not path.is_dir():
                raise DatasetError(
                    f"{what} {folder}: {path} is a file, not a folder. Name a folder (it is "
                    "created when missing)."
                )
            return


def prepare_dataset(
    name: str,
    *,
    out_dir: Path,
    cache_dir: Path,
    mirror: Path | Mirror | None,
    registry: Mapping[str, DatasetSpec] | None = None,
    retries: int = 3,
    backoff: float = 1.0,
) -> Path:
    """Obtain ``name`` (mirror first, then its public source), verify it, write it; returns
    the parquet path. Every failure raises a :class:`DatasetError` and writes nothing.
    ``mirror``: a plain path is a mirror given with ``--mirror`` (see
    :class:`~threshold_choice.datasets.fetch.Mirror`)."""
    spec = get_spec(name, registry)
    out_dir = Path(out_dir)
    _check_folder(out_dir, "output folder")  # before any download
    _check_folder(Path(cache_dir), "download cache folder")
    table, source_info = fetch_source(
        spec, cache_dir=Path(cache_dir), mirror=mirror, retries=retries, backoff=backoff
    )
    digest = verify(table, spec, source_info)
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = build_meta(table, spec, source_info, digest)
    return _atomic_pair(out_dir, spec.name, to_dataframe(table), meta)


_PREPARE_AGAIN = "Run `threshold-choice datasets prepare --name NAME --out DIR` (again)."


def _read_meta(parquet_path: Path) -> dict[str, Any]:
    json_path = parquet_path.with_suffix(".json")
    if not parquet_path.is_file() or not json_path.is_file():
        raise DatasetError(
            f"prepared dataset {parquet_path} (or its {json_path.name}) not found. "
            f"{_PREPARE_AGAIN}"
        )
    try:
        meta = json.loads(json_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # ValueError: bad JSON or not UTF-8
        raise DatasetError(
            f"metadata {json_path} of a prepared dataset is unreadable ({exc}). {_PREPARE_AGAIN}"
        ) from None
    if not isinstance(meta, dict):
        raise DatasetError(f"metadata {json_path} is not a JSON object. {_PREPARE_AGAIN}")
    for key, kind in _META_TYPES.items():
        if not isinstance(meta.get(key), kind):
            found = "lacks" if key not in meta else f"has a {type(meta[key]).__name__} as"
            raise DatasetError(f"metadata {json_path} {found} {key!r} (a JSON "
                               f"{_JSON_NAMES[kind]} expected). {_PREPARE_AGAIN}")
    named = [*meta["class_labels"], *meta["features"]]
    if not (all(isinstance(v, str) for v in named) and all(
            isinstance(c, dict) and isinstance(c.get("name"), str)
            and isinstance(c.get("kind"), str) for c in meta["columns"])):
        raise DatasetError(f"metadata {json_path} has class labels, features or columns that "
                           f"are not names. {_PREPARE_AGAIN}")
    return meta


#: the metadata's keys that reading a prepared dataset uses, and their JSON types
_META_TYPES: dict[str, type] = {
    "name": str, "target": str, "label_of_class1": str, "content_sha256": str,
    "class_labels": list, "features": list, "columns": list, "table5": dict,
}
_JSON_NAMES = {str: "string", list: "list", dict: "object"}


def _check_content(parquet_path: Path, meta: dict[str, Any], frame: pd.DataFrame) -> Table:
    """The table of ``frame`` after checking its content hash against ``meta``'s."""
    try:
        table = from_dataframe(frame, meta["columns"])
    except (KeyError, TypeError, ValueError) as exc:  # a column or category the other lacks
        raise DatasetError(f"prepared dataset {parquet_path} does not match its metadata "
                           f"({type(exc).__name__}: {exc}). {_PREPARE_AGAIN}") from None
    actual = content_hash(table)
    if actual != meta["content_sha256"]:
        raise ContentHashMismatchError(
            f"{meta['name']}: prepared file {parquet_path} has content hash {actual}, its "
            f"metadata expects {meta['content_sha256']}. Prepare the dataset again."
        )
    return table


def _read_parquet(parquet_path: Path, columns: list[str] | None = None) -> pd.DataFrame:
    """A prepared table; a truncated or foreign file is a :class:`DatasetError`."""
    try:
        return pd.read_parquet(parquet_path, columns=columns)
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise DatasetError(
            f"prepared dataset {parquet_path} is unreadable (truncated or not parquet: "
            f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}). {_PREPARE_AGAIN}"
        ) from None


def load_prepared(parquet_path: Path) -> PreparedDataset:
    """Load a prepared dataset and re-check its content hash against its metadata."""
    parquet_path = Path(parquet_path)
    meta = _read_meta(parquet_path)
    frame = to_dataframe(_check_content(parquet_path, meta, _read_parquet(parquet_path)))
    target = frame[meta["target"]]
    y = (target.astype(object) == meta["label_of_class1"]).to_numpy(dtype=np.int8)
    return PreparedDataset(
        name=meta["name"],
        X=frame[meta["features"]],
        y=y,
        class_labels=list(meta["class_labels"]),
        label_of_class1=meta["label_of_class1"],
        meta=meta,
        target=target,
    )


def class_column(parquet_path: Path) -> tuple[list[str | None], list[str]]:
    """The raw class label of every row of a prepared table (``None`` if missing) and the
    class levels in declared order (what an R-compatible splitter needs); the table's content
    hash checked, as :func:`load_prepared` checks it."""
    parquet_path = Path(parquet_path)
    meta = _read_meta(parquet_path)
    frame = _read_parquet(parquet_path)
    _check_content(parquet_path, meta, frame)
    return _raw_labels(frame[meta["target"]], meta["class_labels"])


def _raw_labels(column: pd.Series, levels: list[str]) -> tuple[list[str | None], list[str]]:
    """The class labels of ``column`` as text (``None`` if missing) and the ``levels``."""
    return [None if pd.isna(v) else str(v) for v in column.tolist()], [str(v) for v in levels]
