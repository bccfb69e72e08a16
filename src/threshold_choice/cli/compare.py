"""``threshold-choice compare``: our Tables 5, 7, 8 against the published ones and the
paper's qualitative claims against our runs
(:func:`threshold_choice.reproduction.comparison.compare_results`)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from threshold_choice.errors import UserError
from threshold_choice.reproduction.comparison import DEFAULT_TOLERANCE, compare_results
from threshold_choice.reproduction.tables import PUBLISHED_DIR


def _run(args: argparse.Namespace) -> int:
    if not args.tolerance >= 0:  # also NaN
        raise UserError(f"--tolerance must be a number >= 0, got {args.tolerance}")
    out = compare_results(args.results, args.published, args.tolerance)
    with pd.option_context("display.width", 120, "display.max_columns", 20):
        print(out["summary"].to_string(index=False))
        findings = out["findings"]
        print(
            f"\nqualitative findings reproduced: {int(findings['reproduced'].sum())} "
            f"of {len(findings)}"
        )
        for row in findings.itertuples():
            print(f"  [{'yes' if row.reproduced else 'no '}] {row.id}")
    print(f"\nwritten to {Path(args.results) / 'comparison'}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="compare our Tables 5, 7, 8 with the published ones and check Sect. 6's claims",
        description=(
            "Reads RESULTS/tables/{table5,table7_gamma-inf,table8_gamma-inf}.csv and "
            "RESULTS/runs.parquet; writes RESULTS/comparison/{table5,table7,table8}_diff.csv, "
            "summary.csv and findings.csv; prints the summary."
        ),
    )
    parser.add_argument("--results", required=True, type=Path, help="the results folder")
    parser.add_argument(
        "--published",
        type=Path,
        default=PUBLISHED_DIR,
        help=f"folder of the published tables (default: {PUBLISHED_DIR})",
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=DEFAULT_TOLERANCE,
        help="max |ours - published| for a match (default 0.0005: equal at 3 decimals)",
    )
    parser.set_defaults(func=_run)
