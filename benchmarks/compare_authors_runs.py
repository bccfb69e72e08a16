"""Every (dataset, model, gamma, method) mean of runs against the authors' own per-run results.

The authors' repository (``ceferra/ThresholdChoiceMethods``, Aug 2017) holds their results of
``Uncertainty/experiments_binomial_v72.R`` at 13 gammas (0-10, 16, Inf):
``Uncertainty/Results/new2017bresults_binomial_iter10_p0.5_n<gamma>.Rdata``, each a data
frame ``dades`` with one row per (iteration, dataset, model) and the loss of each threshold
choice method. This script reads them (pyreadr, a test and benchmark dependency), averages
over the 10 iterations, and compares each mean with the same mean of ``runs.parquet`` files
(or one dataset's ``runs/<dataset>.parquet``): counts per gamma and method, then the pairs
that differ by more than the tolerance.

    python benchmarks/compare_authors_runs.py AUTHORS_CHECKOUT RUNS.parquet [RUNS.parquet ...]
        [--tolerance 5e-7] [--methods paper|all] [--write-fixture OUT.csv --datasets a,b]

The ``.Rdata`` files are the authors' and not part of this project: clone their repository
(``AUTHORS_CHECKOUT``). ``--write-fixture`` writes their means for a few datasets as a CSV
(the test fixture ``tests/paper/data/authors_runs_means.csv`` was written so).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pandas as pd

#: the authors' columns -> this project's methods (rtun, their rate-uniform, is a random cut
#: among the n + 1 midpoints of the sorted scores: this project's instance-uniform)
METHODS = {"optimal": "test-optimal", "trainoptimal": "train-optimal",
           "scored": "score-driven", "rated": "rate-driven"}
OTHER_METHODS = {"scoredz": "score-driven-z", "ratedz": "rate-driven-z",
                 "scdun": "score-uniform", "rtun": "instance-uniform"}
#: their models in their script's order (the Method column), under this project's names
MODELS = ("J48", "J48Unp", "Logist", "NB", "Stump", "IBK10", "IBK1", "SVM", "SVMp", "PART",
          "Prior", "Random")
GAMMAS = (*range(11), 16, math.inf)
RESULTS = "Uncertainty/Results/new2017bresults_binomial_iter10_p0.5_n{}.Rdata"


def read_authors_means(checkout: Path, columns: dict[str, str]) -> pd.DataFrame:
    """Their means over the iterations: columns dataset, model, gamma, method, loss."""
    import pyreadr

    datasets = sorted(p.stem for p in (checkout / "data").glob("*.arff"))  # list.files order
    frames = []
    for gamma in GAMMAS:
        name = "Inf" if math.isinf(gamma) else str(gamma)
        dades = pyreadr.read_r(checkout / RESULTS.format(name))["dades"]
        means = dades.groupby(["Dataset", "Method"])[list(columns)].mean().reset_index()
        long = means.melt(id_vars=["Dataset", "Method"], var_name="column", value_name="loss")
        frames.append(pd.DataFrame({
            "dataset": [datasets[int(i) - 1] for i in long["Dataset"]],
            "model": [MODELS[int(i) - 1] for i in long["Method"]],
            "gamma": float(gamma), "method": long["column"].map(columns), "loss": long["loss"],
        }))
    return pd.concat(frames, ignore_index=True)


def run_means(paths: list[Path]) -> pd.DataFrame:
    """Our means over the splits: columns dataset, model, gamma, method, loss."""
    runs = pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)
    keys = ["dataset", "model", "gamma", "method"]
    return runs.groupby(keys, sort=False)["loss"].mean().reset_index()


def compare(authors: pd.DataFrame, ours: pd.DataFrame, tolerance: float) -> pd.DataFrame:
    """Every pair both hold, with ``difference`` (ours - theirs) and ``agree``."""
    keys = ["dataset", "model", "gamma", "method"]
    both = authors.merge(ours, on=keys, suffixes=("_authors", "_ours"))
    both["difference"] = both["loss_ours"] - both["loss_authors"]
    both["agree"] = both["difference"].abs() <= tolerance
    return both


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a checkout of ceferra/ThresholdChoiceMethods")
    parser.add_argument("runs", type=Path, nargs="*", help="runs.parquet files to compare")
    parser.add_argument("--tolerance", type=float, default=5e-7)
    parser.add_argument("--methods", choices=["paper", "all"], default="paper",
                        help="the paper's four methods, or also the z and uniform variants")
    parser.add_argument("--write-fixture", type=Path, help="write their means as a CSV")
    parser.add_argument("--datasets", help="comma-separated datasets of --write-fixture")
    args = parser.parse_args(argv)
    columns = METHODS if args.methods == "paper" else {**METHODS, **OTHER_METHODS}
    authors = read_authors_means(args.checkout, columns)
    if args.write_fixture is not None:
        chosen = authors if args.datasets is None else authors[
            authors["dataset"].isin(args.datasets.split(","))]
        chosen.to_csv(args.write_fixture, index=False, float_format="%.17g")
    if not args.runs:
        return
    both = compare(authors, run_means(args.runs), args.tolerance)
    counts = both.pivot_table(index="gamma", columns="method", values="agree",
                              aggfunc=["sum", "size"])
    print(counts.to_string())
    print(f"{int(both['agree'].sum())} of {len(both)} means agree to {args.tolerance:g} "
          f"({100 * both['agree'].mean():.2f}%; the authors' results hold {len(authors)})")
    worst = both[~both["agree"]].sort_values("difference", key=abs, ascending=False)
    if len(worst):
        print(worst.to_string(index=False, max_rows=200))


if __name__ == "__main__":
    main()
