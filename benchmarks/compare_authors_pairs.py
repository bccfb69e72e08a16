"""Per-(dataset, model) agreement of runs with the authors' own table of their run.

The authors' repository (``ceferra/ThresholdChoiceMethods``, Aug 2017) holds
``Uncertainty/Results/table_datasets.tex``: for each of the 26 datasets and 12 model types,
the means over the 10 splits at gamma = inf of AUC, MSE (the Brier score) and the losses of
test-optimal, train-optimal, score-driven and rate-driven (among others), printed at 4
decimals. This script compares those means with the ones of ``runs.parquet`` files (one per
run to compare) and counts, per model type, the pairs that agree in every column to the
printed precision (|difference| <= 5e-5).

    python benchmarks/compare_authors_pairs.py TABLE_DATASETS_TEX RUNS.parquet [RUNS.parquet ...]

The table is the authors' and is not part of this project: fetch their repository.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pandas as pd

#: the authors' column -> our runs' (a metric column, or the loss of a method)
COLUMNS = {"AUC": "AUC", "MSE": "BS", "opt": "test-optimal", "trainopt": "train-optimal",
           "scored": "score-driven", "rated": "rate-driven"}
#: the authors' model names that are spelled otherwise here
NAMES = {"logist": "Logist"}
PRINTED = 5e-5  # half a unit of the 4th decimal


def read_authors_table(path: Path) -> pd.DataFrame:
    """The rows of ``table_datasets.tex``: dataset, model and the columns of :data:`COLUMNS`."""
    header, rows = None, []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.replace("\\\\", "").split("&")]
        if len(cells) > 3 and cells[1] == "dataset":
            header = cells
        elif header is not None and len(cells) == len(header) and re.fullmatch(r"\d+", cells[0]):
            rows.append(dict(zip(header, cells, strict=True)))
    if not rows:
        raise SystemExit(f"{path}: no table rows found")
    table = pd.DataFrame(rows)
    out = pd.DataFrame({
        "dataset": table["dataset"].str.removesuffix(".arff").str.replace("\\_", "_"),
        "model": table["meth"].map(lambda m: NAMES.get(m, m)),
    })
    for theirs in COLUMNS:
        out[theirs] = table[theirs].astype(float)
    return out.set_index(["dataset", "model"])


def run_means(runs: Path) -> pd.DataFrame:
    """Our means over the splits at gamma = inf, in the authors' columns."""
    frame = pd.read_parquet(runs)
    frame = frame[frame["gamma"] == float("inf")]
    keys = ["dataset", "model"]
    metrics = frame[frame["method"] == "test-optimal"].groupby(keys)[["AUC", "BS"]].mean()
    losses = frame.pivot_table(index=keys, columns="method", values="loss", aggfunc="mean")
    out = pd.DataFrame(index=metrics.index)
    for theirs, ours in COLUMNS.items():
        out[theirs] = metrics[ours] if ours in metrics else losses[ours]
    return out


def agreement(authors: pd.DataFrame, ours: pd.DataFrame) -> pd.DataFrame:
    """Per model type: pairs compared and pairs agreeing in every column."""
    both = authors.add_suffix("_authors").join(ours.add_suffix("_ours"), how="inner")
    close = pd.concat({c: (both[f"{c}_authors"] - both[f"{c}_ours"]).abs() <= PRINTED + 1e-12
                       for c in COLUMNS}, axis=1).all(axis=1)
    return close.groupby(level="model").agg(pairs="size", agree="sum")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", type=Path, help="the authors' table_datasets.tex")
    parser.add_argument("runs", type=Path, nargs="+", help="runs.parquet of each run")
    args = parser.parse_args(argv)
    authors = read_authors_table(args.table)
    counts = {str(r): agreement(authors, run_means(r)) for r in args.runs}
    table = pd.concat(counts, axis=1)
    print(table.to_string())
    for name, count in counts.items():
        print(f"{name}: {int(count['agree'].sum())} of {int(count['pairs'].sum())} pairs agree")


if __name__ == "__main__":
    main()
