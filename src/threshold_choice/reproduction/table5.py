"""Table 5 of the paper (datasets: instances, attributes, majority proportion) and its check.

``attributes`` counts the class attribute too, as the paper does (e.g. Haberman: 3 features +
class = 4; Lung-cancer: 56 + class = 57). ``majority`` is the share of class 1 (the majority
class) in the whole dataset; the published table rounds it to two decimals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from threshold_choice.datasets.errors import DatasetError
from threshold_choice.datasets.prepare import PreparedDataset
from threshold_choice.reproduction.paper import TABLE5_COLUMNS


def table5(prepared: Iterable[PreparedDataset],
           numbers: Mapping[str, int] | None = None) -> pd.DataFrame:
    """One row per dataset, sorted by Table 5 number; ``majority`` unrounded. A dataset of
    one's own (no Table 5 number in its registry entry) takes its number from ``numbers``
    (name in lower case -> number: the extended tables' numbering,
    :func:`~threshold_choice.reproduction.tables.extended_numbers`)."""
    rows = []
    for p in prepared:
        number = p.meta["table5"]["number"]
        if number is None:
            if numbers is None or p.name.lower() not in numbers:
                raise DatasetError(f"{p.name} has no Table 5 number: give the table its numbers")
            number = numbers[p.name.lower()]
        rows.append({
            "number": int(number),
            "dataset": str(p.meta["table5"]["name"]),
            "instances": len(p.y),
            "attributes": p.X.shape[1] + 1,
            "majority": float(np.mean(p.y)),
        })
    frame = pd.DataFrame(rows, columns=list(TABLE5_COLUMNS))
    return frame.sort_values("number", ignore_index=True)


def read_published_table5(path: Path) -> pd.DataFrame:
    """The published Table 5 CSV (``number,dataset,instances,attributes,majority``)."""
    frame = pd.read_csv(path)
    missing = set(TABLE5_COLUMNS) - set(frame.columns)
    if missing:
        raise DatasetError(
            f"{path} lacks columns {sorted(missing)}; expected {list(TABLE5_COLUMNS)}."
        )
    return frame[list(TABLE5_COLUMNS)]


def _round_half_up(x: np.ndarray, decimals: int) -> np.ndarray:
    # The paper's 0.715-style values round up; np.round rounds half to even.
    scale = 10.0**decimals
    return np.floor(np.asarray(x, dtype=float) * scale + 0.5 + 1e-9) / scale


def compare_table5(ours: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """Every cell of both tables side by side, matched on ``number``.

    Columns: ``number, dataset, column, ours, published, difference, match``. ``difference`` is
    ours - published for numeric cells (NaN for names or when a row is missing on one side);
    ``majority`` matches when ours, rounded half-up to the published two decimals, equals it;
    names match case-insensitively.
    """
    merged = ours.merge(published, on="number", how="outer", suffixes=("_ours", "_pub"),
                        indicator=True).sort_values("number", ignore_index=True)
    parts = []
    for col in TABLE5_COLUMNS[1:]:
        a, b = merged[f"{col}_ours"], merged[f"{col}_pub"]
        part = pd.DataFrame({
            "number": merged["number"],
            "dataset": merged["dataset_pub"].fillna(merged["dataset_ours"]),
            "column": col,
            "ours": a.astype(object),
            "published": b.astype(object),
        })
        if col == "dataset":
            part["difference"] = np.nan
            part["match"] = a.astype(str).str.lower() == b.astype(str).str.lower()
        else:
            diff = a.astype(float) - b.astype(float)
            part["difference"] = diff
            if col == "majority":
                part["match"] = _round_half_up(a.astype(float).to_numpy(), 2) == b.to_numpy(float)
            else:
                part["match"] = diff.to_numpy() == 0
        part.loc[merged["_merge"] != "both", "match"] = False
        parts.append(part)
    return pd.concat(parts, ignore_index=True).sort_values(
        ["number", "column"], kind="stable", ignore_index=True
    )
