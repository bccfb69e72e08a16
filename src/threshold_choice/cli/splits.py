"""``threshold-choice splits``: print the stratified splits of one dataset as CSV.

Output columns ``dataset,iteration,part,position,row`` with **1-based** ARFF data row numbers
(see :func:`threshold_choice.splits.splits_frame`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from threshold_choice.cli import COMMANDS
from threshold_choice.errors import UserError
from threshold_choice.splits.core import SPLITTER_NAMES, get_splitter, make_splits, splits_frame

#: the most splits the command prints (the workflow's schema has the same bound)
MAX_ITERATIONS = 1000


def _run(args: argparse.Namespace) -> int:
    from threshold_choice.names import check_name
    from threshold_choice.splits.labels import (
        labels_from_prepared,
        labels_from_registry,
        read_arff_class,
    )

    check_name(args.dataset, "dataset")
    if not 1 <= args.iterations <= MAX_ITERATIONS:
        raise UserError(
            f"--iterations must be between 1 and {MAX_ITERATIONS} (as splits.iterations of the "
            f"workflow), got {args.iterations}"
        )
    if args.class_attribute is not None and args.arff is None:
        raise UserError("--class-attribute applies to --arff only")
    if args.arff is not None:
        column = read_arff_class(Path(args.arff), args.class_attribute)
    elif args.prepared is not None:
        column = labels_from_prepared(Path(args.prepared))
    else:
        from threshold_choice.datasets.fetch import choose_mirror

        mirror = choose_mirror(args.mirror, disabled=args.no_mirror)
        if args.cache is not None:
            from threshold_choice.cli.inputs import check_output_folder

            check_output_folder(args.cache, "--cache")
        column = labels_from_registry(args.dataset, mirror=mirror, cache=args.cache,
                                      registry=args.registry)
    splitter = get_splitter(args.splitter)
    splits = make_splits(column.labels, column.levels, splitter, iterations=args.iterations)
    # a reader that stops early (``| head``) is handled by threshold_choice.cli.main
    sys.stdout.write(splits_frame(args.dataset, splits).to_csv(index=False, lineterminator="\n"))
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``splits`` command to the top-level CLI."""
    parser = subparsers.add_parser(
        "splits",
        help=COMMANDS["splits"].help,
        description=(
            "Print the stratified 50/50 train/test splits of iterations 1..N (seed = "
            "iteration) as CSV with columns dataset,iteration,part,position,row "
            "(1-based data row numbers). Splitter 'numpy' is the project default; 'r' "
            "reproduces R 3.5 set.seed(i); sample(n); caret::createDataPartition."),
    )
    parser.add_argument("--dataset", required=True,
                        help="dataset name: a registry name (config/datasets.yaml), or only the "
                             "'dataset' column's value with --arff / --prepared")
    parser.add_argument("--splitter", choices=SPLITTER_NAMES, default="numpy",
                        help="splitter (default: numpy)")
    parser.add_argument("--iterations", type=int, default=10,
                        help=f"number of splits, 1..{MAX_ITERATIONS} (default 10)")
    parser.add_argument("--mirror", type=Path, default=None, metavar="DIR",
                        help="folder of the paper's ARFF files (+ SHA256SUMS), tried before "
                             "OpenML/UCI when the dataset is read from the registry; it must "
                             "exist (default: data.mirror of config/config.yaml; when that "
                             "folder does not exist, a warning names it and OpenML/UCI are used)")
    parser.add_argument("--no-mirror", action="store_true",
                        help="ignore any mirror: fetch from OpenML/UCI")
    parser.add_argument("--cache", type=Path, default=None, metavar="DIR",
                        help="download cache for OpenML/UCI (default: a temporary folder)")
    parser.add_argument("--registry", type=Path, default=None, metavar="YAML",
                        help="dataset registry (default: config/datasets.yaml)")
    # Without --arff or --prepared, --dataset names a registry entry (mirror, then OpenML/UCI).
    source = parser.add_mutually_exclusive_group(required=False)
    source.add_argument("--arff", metavar="PATH", help="ARFF file to read the class labels from")
    source.add_argument("--prepared", metavar="PATH.parquet",
                        help="prepared dataset (parquet + .json) from `datasets prepare`")
    parser.add_argument("--class-attribute", metavar="NAME", default=None,
                        help="class attribute of the ARFF file (default: the last attribute; "
                             "spect_*: OVERALL_DIAGNOSIS)")
    parser.set_defaults(func=_run)
