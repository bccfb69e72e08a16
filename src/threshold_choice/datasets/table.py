"""In-memory tables and their format-independent content hash.

A :class:`Table` is an ordered list of typed columns, the common form every source (mirror
ARFF, OpenML ARFF, UCI delimited file) is parsed into before the registry's transformations
and the verification run. Conventions:

* ``numeric`` columns hold float64 values, missing = NaN;
* ``nominal`` columns hold int32 codes into ``categories`` (the declared label order of the
  ARFF header), missing = -1. Labels are the raw strings of the file, unquoted.

The content hash (:func:`content_hash`) is SHA-256 over a canonical serialisation: a JSON header
with the column names, kinds, declared categories and row count, then each column's values
column by column in row order (numeric: little-endian float64 with -0.0 folded into 0.0 and
every NaN replaced by one canonical NaN; nominal: little-endian int32 codes). It therefore does
not depend on how a file spells numbers (``1``, ``1.0``, ``1.00``), quotes labels, orders its
header comments or encodes missing values, but it does depend on every value, the column order,
the category order and the row order.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

Kind = Literal["numeric", "nominal"]
HASH_FORMAT = "threshold-choice-table-v1"
_CANONICAL_NAN = np.frombuffer(np.uint64(0x7FF8000000000000).tobytes(), dtype="<f8")[0]


@dataclass(frozen=True)
class Column:
    """One column: ``values`` are float64 (numeric) or int32 codes into ``categories``."""

    name: str
    kind: Kind
    values: np.ndarray
    categories: tuple[str, ...] = field(default=())

    def labels(self) -> np.ndarray:
        """Nominal values as an object array of labels, ``None`` where missing."""
        if self.kind != "nominal":
            raise TypeError(f"column {self.name!r} is numeric")
        lookup = np.array([*self.categories, None], dtype=object)
        return lookup[self.values]  # code -1 picks the trailing None


@dataclass(frozen=True)
class Table:
    """Columns of equal length, in source order."""

    columns: tuple[Column, ...]

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def n_rows(self) -> int:
        return len(self.columns[0].values) if self.columns else 0

    def column(self, name: str) -> Column:
        for col in self.columns:
            if col.name == name:
                return col
        raise KeyError(name)


def label_codes(labels: np.ndarray, categories: Sequence[str]) -> np.ndarray:
    """int32 codes of ``labels`` in ``categories``; -1 for ``None`` and for undeclared labels."""
    index = pd.Index(list(categories), dtype=object)
    return index.get_indexer(pd.Index(labels, dtype=object)).astype(np.int32)


def schema_of(table: Table) -> list[dict[str, object]]:
    """Column names, kinds and declared categories, as stored in metadata and hashed."""
    return [
        {"name": c.name, "kind": c.kind, "categories": list(c.categories)}
        if c.kind == "nominal"
        else {"name": c.name, "kind": c.kind}
        for c in table.columns
    ]


def content_hash(table: Table) -> str:
    """SHA-256 (hex) of the canonical serialisation described in the module docstring."""
    digest = hashlib.sha256()
    header = {"format": HASH_FORMAT, "n_rows": table.n_rows, "columns": schema_of(table)}
    digest.update(json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8"))
    digest.update(b"\n")
    for col in table.columns:
        if col.kind == "numeric":
            # + 0.0 folds -0.0 into 0.0; NaN payloads differ between parsers, so unify them.
            vals = np.asarray(col.values, dtype="<f8") + 0.0
            vals = np.where(np.isnan(vals), _CANONICAL_NAN, vals).astype("<f8")
        else:
            vals = np.asarray(col.values, dtype="<i4")
        digest.update(np.ascontiguousarray(vals).tobytes())
    return digest.hexdigest()


def to_dataframe(table: Table) -> pd.DataFrame:
    """Numeric columns as float64, nominal ones as Categorical with the declared categories."""
    data = {}
    for col in table.columns:
        if col.kind == "numeric":
            data[col.name] = pd.Series(col.values, dtype="float64")
        else:
            cats = pd.Index(list(col.categories), dtype=object)
            data[col.name] = pd.Series(pd.Categorical.from_codes(col.values, categories=cats))
    return pd.DataFrame(data)


def from_dataframe(frame: pd.DataFrame, schema: Sequence[dict[str, object]]) -> Table:
    """Inverse of :func:`to_dataframe`, with kinds and category order taken from ``schema``."""
    columns = []
    for spec in schema:
        name = str(spec["name"])
        series = frame[name]
        if spec["kind"] == "numeric":
            columns.append(Column(name, "numeric", series.to_numpy(dtype="float64")))
        else:
            cats = [str(c) for c in spec["categories"]]  # type: ignore[union-attr]
            labels = series.astype(object).where(series.notna(), None).to_numpy()
            columns.append(Column(name, "nominal", label_codes(labels, cats), tuple(cats)))
    return Table(tuple(columns))
