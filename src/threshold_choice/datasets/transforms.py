"""Registry transformations: map a source table (OpenML or UCI encoding) onto the paper's table.

Each step is a one-key mapping from the registry, applied in order:

``select: [names]``          keep exactly these columns, in this order
``drop: [names]``            remove columns
``rename: {old: new}``       rename columns
``recode: {col: {old: new}}`` rename nominal labels (the category order is kept)
``categories: {col: [..]}``  declare the category order of a nominal column (all used labels
                             must be listed; unused ones may be added, as ARFF headers do)
``to_numeric: [names]``      nominal labels parsed as numbers
``to_nominal: {col: [..]}``  numeric values (integral ones written without decimals, e.g.
                             ``1.0`` -> ``"1"``) or nominal labels, as a nominal column with
                             the given categories
``rows: {first, last}``      keep the 1-based inclusive row range

Column name lists accept ``prefix{a..b}suffix`` ranges (``f{1..3}`` = ``f1, f2, f3``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from threshold_choice.datasets.errors import TransformError
from threshold_choice.datasets.table import Column, Table

_RANGE = re.compile(r"^(.*)\{(\d+)\.\.(\d+)\}(.*)$")


def expand_names(names: Iterable[str]) -> list[str]:
    """Expand ``f{1..3}``-style ranges; other names pass through unchanged."""
    out: list[str] = []
    for name in names:
        m = _RANGE.match(name)
        if m is None:
            out.append(name)
        else:
            out.extend(f"{m[1]}{i}{m[4]}" for i in range(int(m[2]), int(m[3]) + 1))
    return out


def number_label(value: float) -> str:
    """A number as ARFF headers write nominal numbers: ``1.0`` -> ``1``, ``0.5`` -> ``0.5``."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _require(table: Table, names: Sequence[str], step: str) -> None:
    missing = [n for n in names if n not in table.names]
    if missing:
        raise TransformError(
            f"step {step!r} names columns {missing} that the source lacks "
            f"(it has {table.names[:12]}{'...' if len(table.names) > 12 else ''}). "
            "Correct the transforms of this dataset in config/datasets.yaml."
        )


def _with_categories(col: Column, categories: Sequence[str], step: str) -> Column:
    labels = col.labels()
    used = {lab for lab in labels if lab is not None}
    unknown = sorted(used - set(categories))
    if unknown:
        raise TransformError(
            f"step {step!r}: column {col.name!r} uses labels {unknown[:10]} not in the declared "
            f"categories {list(categories)[:10]}. Add them (or a recode) in config/datasets.yaml."
        )
    index = {c: i for i, c in enumerate(categories)}
    remap = np.array([index.get(c, -1) for c in col.categories] + [-1], dtype=np.int32)
    return Column(col.name, "nominal", remap[col.values], tuple(categories))


def _map_columns(table: Table, names: Sequence[str], fn: Any) -> Table:
    return Table(tuple(fn(c) if c.name in names else c for c in table.columns))


def apply_step(table: Table, step: Mapping[str, Any]) -> Table:
    """Apply one registry step (see module docstring)."""
    ((op, arg),) = step.items()
    if op == "select":
        names = expand_names(arg)
        _require(table, names, op)
        return Table(tuple(table.column(n) for n in names))
    if op == "drop":
        names = expand_names(arg)
        _require(table, names, op)
        return Table(tuple(c for c in table.columns if c.name not in names))
    if op == "rename":
        _require(table, list(arg), op)
        return Table(tuple(replace(c, name=arg.get(c.name, c.name)) for c in table.columns))
    if op == "recode":
        _require(table, list(arg), op)

        def recode(col: Column) -> Column:
            if col.kind != "nominal":
                raise TransformError(f"step 'recode': column {col.name!r} is numeric")
            cats = tuple(str(arg[col.name].get(c, c)) for c in col.categories)
            if len(set(cats)) != len(cats):
                raise TransformError(f"step 'recode' merges labels of {col.name!r}")
            return replace(col, categories=cats)

        return _map_columns(table, list(arg), recode)
    if op == "categories":
        _require(table, list(arg), op)
        return _map_columns(table, list(arg), lambda c: _with_categories(c, arg[c.name], op))
    if op == "to_numeric":
        names = expand_names(arg)
        _require(table, names, op)
        return _map_columns(table, names, _to_numeric)
    if op == "to_nominal":
        _require(table, list(arg), op)
        return _map_columns(table, list(arg), lambda c: _to_nominal(c, arg[c.name]))
    if op == "rows":
        first, last = int(arg["first"]), int(arg["last"])
        if not 1 <= first <= last <= table.n_rows:
            raise TransformError(
                f"step 'rows': range {first}..{last} does not fit the source's {table.n_rows} "
                "rows. Correct the row range in config/datasets.yaml."
            )
        return Table(tuple(replace(c, values=c.values[first - 1 : last]) for c in table.columns))
    raise TransformError(f"unknown transform step {op!r}; see threshold_choice.datasets.transforms")


def _to_numeric(col: Column) -> Column:
    if col.kind == "numeric":
        return col
    try:
        lookup = np.array([float(c) for c in col.categories] + [np.nan], dtype=np.float64)
    except ValueError as exc:
        raise TransformError(f"step 'to_numeric': column {col.name!r}: {exc}") from None
    return Column(col.name, "numeric", lookup[col.values])


def _to_nominal(col: Column, categories: Sequence[str]) -> Column:
    if col.kind == "nominal":
        return _with_categories(col, categories, "to_nominal")
    missing = np.isnan(col.values)
    uniques, inverse = np.unique(np.where(missing, 0.0, col.values), return_inverse=True)
    labels = [number_label(u) for u in uniques]
    index = {c: i for i, c in enumerate(categories)}
    unknown = sorted({lab for lab, used in zip(labels, np.bincount(inverse, ~missing) > 0,
                                              strict=True) if used} - set(categories))
    if unknown:
        raise TransformError(
            f"step 'to_nominal': column {col.name!r} holds {unknown[:10]} outside the categories "
            f"{list(categories)[:10]}. Correct config/datasets.yaml."
        )
    codes = np.array([index.get(lab, -1) for lab in labels], dtype=np.int32)[inverse]
    return Column(col.name, "nominal", np.where(missing, -1, codes).astype(np.int32),
                  tuple(categories))


def apply_transforms(table: Table, steps: Sequence[Mapping[str, Any]]) -> Table:
    """Apply the steps in order."""
    for step in steps:
        table = apply_step(table, step)
    return table
