"""``threshold-choice compare``: our Tables 5, 7, 8 against the published ones and the
paper's qualitative claims against our runs
(:func:`threshold_choice.reproduction.comparison.compare_results`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from threshold_choice.cli import COMMANDS
from threshold_choice.errors import UserError
from threshold_choice.reproduction import layout
from threshold_choice.reproduction.paper import PUBLISHED_DIR, TOLERANCE


def _run(args: argparse.Namespace) -> int:
    import pandas as pd

    from threshold_choice.reproduction.comparison import (
        TABLE_SPECS,
        compare_results,
        differing_cells,
        finding_verdict,
        reproduced_count,
    )

    if not args.tolerance >= 0:  # also NaN
        raise UserError(f"--tolerance must be a number >= 0, got {args.tolerance}")
    # the folders themselves first: a file or a wrong path given for one would otherwise be
    # reported as a missing file inside it, with the advice to rerun the workflow
    if not args.results.is_dir():
        state = "is a file" if args.results.exists() else "does not exist"
        raise UserError(f"--results {args.results} {state}; give the results folder of a "
                        f"workflow run (the one holding {Path(layout.runs(_RESULTS)).name})")
    if not args.published.is_dir():
        state = "is a file" if args.published.exists() else "does not exist"
        raise UserError(f"--published {args.published} {state}; give the folder of the "
                        f"published tables, or leave it out (default: {PUBLISHED_DIR})")
    from threshold_choice.cli.inputs import check_output_folder

    check_output_folder(layout.comparison_folder(args.results), "--results", args.results,
                        fix="the comparison is written there: make it writable, or compare a "
                        "copy of the results folder")
    out = compare_results(args.results, args.published, args.tolerance, causes=args.causes)
    summary = out["summary"]
    with pd.option_context("display.width", 120, "display.max_columns", 20,
                           "display.max_colwidth", 200):
        print(summary.drop(columns=["published_applies", "note"]).to_string(index=False))
        note = str(summary["note"].iloc[0]) if len(summary) else ""
        if note and note != "nan":
            print(f"note: {note}")
        diffs = {name: out[name] for name in TABLE_SPECS}
        cells = differing_cells(diffs)
        not_run = sum(int((d["status"] == "missing in ours").sum()) for d in diffs.values())
        if not_run:
            print(f"published cells this run does not have (datasets or models not run): "
                  f"{not_run}")
        print(f"\ncells that differ from the published value: {len(cells)}")
        for row in cells.itertuples():
            print(f"  {row.table} {row.key} {row.column}: ours {row.ours:.6g}, published "
                  f"{row.published:.6g}, difference {row.difference:+.6g}; cause: "
                  f"{row.cause or 'unknown'}")
        findings = out["findings"]
        print(
            f"\nqualitative findings reproduced: {reproduced_count(findings)} "
            f"of {len(findings)}"
        )
        for row in findings.itertuples():
            why = f": {row.cause}" if row.cause else ""
            verdict = {"yes": "yes", "not applicable": "n/a"}.get(
                finding_verdict(row.reproduced), "no ")
            print(f"  [{verdict}] {row.id}{why}")
    if args.authors_results is not None:
        _compare_with_authors_runs(args.results, args.authors_results)
    print(f"\nwritten to {layout.comparison_folder(args.results)}")
    return 0


def _compare_with_authors_runs(results: Path, checkout: Path) -> None:
    """Every (dataset, model, gamma, method) mean of the run against the authors' results,
    written to the comparison folder (``layout.authors_runs_comparison``)."""
    from threshold_choice.reproduction.authors_results import step_compare_authors_runs

    both = step_compare_authors_runs(layout.runs(results), checkout,
                                     layout.authors_runs_comparison(results))
    print(f"\nmeans of the authors' per-run results ({checkout}) that this run agrees with "
          f"to 5e-7: {int(both['agree'].sum())} of {len(both)}")
    for row in both[~both["agree"]].itertuples():
        print(f"  {row.dataset} {row.model} gamma {row.gamma:g} {row.method}: ours "
              f"{row.loss_ours:.6g}, theirs {row.loss_authors:.6g}; cause: "
              f"{row.cause or 'unknown'}")


_RESULTS = "RESULTS"  # --results, as the help names it


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "compare",
        help=COMMANDS["compare"].help,
        description=(
            f"Reads {', '.join(layout.compared_table(_RESULTS, t) for t in layout.COMPARED_TABLES)}"
            f" and {layout.runs(_RESULTS)}; writes "
            f"{', '.join(f'{n}.csv' for n in layout.COMPARISON_FILES)} in "
            f"{layout.comparison_folder(_RESULTS)}; prints the summary, every cell that differs "
            "with its known cause, and the findings."
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
        "--causes",
        type=Path,
        default=None,
        help="CSV of known causes of differences (default: known_causes.csv in --published)",
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=TOLERANCE,
        help=f"max |ours - published| for a match (default {TOLERANCE:g}: equal at 3 "
        "decimals)",
    )
    parser.add_argument(
        "--authors-results",
        type=Path,
        default=None,
        help="a checkout of ceferra/ThresholdChoiceMethods: also compare every (dataset, model, "
        "gamma, method) mean with their per-run .Rdata results (needs pyreadr); best with a "
        "run of evaluation.estimator: authors",
    )
    parser.set_defaults(func=_run)
