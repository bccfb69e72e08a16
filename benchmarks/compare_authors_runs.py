"""Every (dataset, model, gamma, method) mean of runs against the authors' own per-run results.

The authors' ``.Rdata`` results (``ceferra/ThresholdChoiceMethods``, 13 gammas) are read by
:mod:`threshold_choice.reproduction.authors_results` (pyreadr); each mean over the 10
iterations is compared with the same mean of ``runs.parquet`` files (or one dataset's
``runs/<dataset>.parquet``): counts per gamma and method, then each pair that differs by more
than the tolerance, with its known cause.

    python benchmarks/compare_authors_runs.py AUTHORS_CHECKOUT RUNS.parquet [RUNS.parquet ...]
        [--tolerance 5e-7] [--methods paper|all] [--write-fixture OUT.csv --datasets a,b]

(``threshold-choice compare --results R --authors-results AUTHORS_CHECKOUT`` does the same for
a results folder.) ``--write-fixture`` writes their means for a few datasets as a CSV (the
test fixture ``tests/paper/data/authors_runs_means.csv`` was written so).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from threshold_choice.reproduction.authors_results import (
    METHODS,
    OTHER_METHODS,
    compare_means,
    read_authors_means,
    read_authors_runs,
    run_means,
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a checkout of ceferra/ThresholdChoiceMethods")
    parser.add_argument("runs", type=Path, nargs="*", help="runs.parquet files to compare")
    parser.add_argument("--tolerance", type=float, default=5e-7)
    parser.add_argument("--methods", choices=["paper", "all"], default="paper",
                        help="the paper's four methods, or also the z and uniform variants")
    parser.add_argument("--write-fixture", type=Path, help="write their means as a CSV")
    parser.add_argument("--datasets", help="comma-separated datasets of --write-fixture")
    parser.add_argument("--figures", action="store_true",
                        help="also the data of Figs 5 and 6 (gamma inf and 0) from their runs "
                        "and from ours, point by point")
    args = parser.parse_args(argv)
    columns = METHODS if args.methods == "paper" else {**METHODS, **OTHER_METHODS}
    authors = read_authors_means(args.checkout, columns)
    if args.write_fixture is not None:
        chosen = authors if args.datasets is None else authors[
            authors["dataset"].isin(args.datasets.split(","))]
        chosen.to_csv(args.write_fixture, index=False, float_format="%.17g")
    if not args.runs:
        return
    both = compare_means(authors, run_means(args.runs), args.tolerance)
    with pd.option_context("display.width", 200, "display.max_colwidth", 60):
        print(both.pivot_table(index="gamma", columns="method", values="agree",
                               aggfunc="sum").to_string())
        print(f"{int(both['agree'].sum())} of {len(both)} means agree to {args.tolerance:g} "
              f"({100 * both['agree'].mean():.2f}%; the authors' results hold {len(authors)})")
        worst = both[~both["agree"]].sort_values("difference", key=abs, ascending=False)
        if len(worst):
            print(worst.drop(columns="agree").to_string(index=False, max_rows=300))
    if args.figures:
        compare_figures(read_authors_runs(args.checkout),
                        pd.concat([pd.read_parquet(p) for p in args.runs]), args.tolerance)


def compare_figures(theirs: pd.DataFrame, ours: pd.DataFrame, tolerance: float) -> None:
    """Figs 5 and 6 drawn from their runs and from ours (the runs both hold), point by point."""
    from threshold_choice.reproduction.figures import figure5_data, figure6_data

    keys = ["dataset", "model", "split"]
    held = ours[keys].drop_duplicates()
    theirs = theirs.merge(held, on=keys)
    ours = ours[ours["method"].isin(theirs["method"].unique())
                & ours["gamma"].isin(theirs["gamma"].unique())]
    for name, make in (("Fig. 5", figure5_data), ("Fig. 6", figure6_data)):
        a, b = make(theirs), make(ours)
        on = ["panel", "kind", "series", "x"] if name == "Fig. 5" else None
        if on is None:  # Fig. 6: its points are runs, in the same order in both
            b = b.reset_index(drop=True)
            a = a.reset_index(drop=True)
            differ = ((a["x"] - b["x"]).abs() > tolerance) | ((a["y"] - b["y"]).abs() > tolerance)
            worst = float(max((a["x"] - b["x"]).abs().max(), (a["y"] - b["y"]).abs().max()))
        else:
            both = a.merge(b, on=on, suffixes=("_a", "_b"))
            differ = (both["y_a"] - both["y_b"]).abs() > tolerance
            worst = float((both["y_a"] - both["y_b"]).abs().max())
            a = both
        print(f"{name}: {int((~differ).sum())} of {len(a)} points equal to {tolerance:g} "
              f"(largest difference {worst:.3g})")


if __name__ == "__main__":
    main()
