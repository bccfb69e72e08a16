"""``threshold-choice datasets prepare|table5`` (:mod:`threshold_choice.datasets`,
:mod:`threshold_choice.reproduction.table5`).

``prepare --name N [--name M ...] | --all  --out DIR [--mirror DIR] [--cache DIR]``
    obtain, verify and store datasets (mirror first, then OpenML/UCI).
``table5 --prepared DIR [--published CSV] [--out CSV]``
    regenerate Table 5 from the prepared datasets; with ``--published`` print every cell that
    differs from the published table and exit 1 if any does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from threshold_choice.cli import COMMANDS

# the datasets' modules and pandas are imported by the sub-commands: --help stays quick, and
# a core install (without the workflow extra) shows the help and names the extra on use


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``datasets`` command and its sub-commands."""
    parser = subparsers.add_parser("datasets", help=COMMANDS["datasets"].help)
    sub = parser.add_subparsers(dest="datasets_command", required=True)

    prep = sub.add_parser("prepare", help="fetch, verify and write <name>.parquet/.json")
    which = prep.add_mutually_exclusive_group(required=True)
    which.add_argument("--name", action="append", help="dataset name (repeatable)")
    which.add_argument("--all", action="store_true", help="every registry dataset")
    prep.add_argument("--out", type=Path, required=True, help="output folder")
    prep.add_argument("--mirror", type=Path,
                      help="folder of the paper's ARFF files + SHA256SUMS; it must exist "
                           "(default: data.mirror of config/config.yaml; when that folder does "
                           "not exist, a warning names it and OpenML/UCI are used)")
    prep.add_argument("--no-mirror", action="store_true",
                      help="ignore any mirror: fetch from OpenML/UCI")
    prep.add_argument("--cache", type=Path, help="download cache (default: <out>/.cache)")
    prep.add_argument("--registry", type=Path, help="registry YAML (default: config/datasets.yaml)")
    prep.add_argument("--retries", type=int, default=3, help="download attempts per source")
    prep.set_defaults(func=_prepare)

    t5 = sub.add_parser("table5", help="regenerate Table 5 and compare it with the published one")
    t5.add_argument("--prepared", type=Path, required=True, help="folder of prepared datasets")
    t5.add_argument("--published", type=Path, help="published Table 5 CSV to compare with")
    t5.add_argument("--out", type=Path, help="write our Table 5 to this CSV")
    t5.set_defaults(func=_table5)


def _prepare(args: argparse.Namespace) -> int:
    from threshold_choice.cli.inputs import check_output_folder
    from threshold_choice.datasets.fetch import choose_mirror
    from threshold_choice.datasets.prepare import prepare_dataset
    from threshold_choice.datasets.registry import dataset_names, load_registry
    from threshold_choice.names import check_name

    registry = load_registry(args.registry)
    names = (list(dataset_names(registry)) if args.all else
             [check_name(name, "dataset") for name in args.name])
    cache = args.cache if args.cache is not None else args.out / ".cache"
    mirror = choose_mirror(args.mirror, disabled=args.no_mirror)
    check_output_folder(args.out, "--out")  # before any download (the default cache is in it)
    if args.cache is not None:
        check_output_folder(args.cache, "--cache")
    for name in names:
        path = prepare_dataset(name, out_dir=args.out, cache_dir=cache, mirror=mirror,
                               registry=registry, retries=args.retries)
        print(f"{name}: {path}")
    return 0


def _table5(args: argparse.Namespace) -> int:
    import pandas as pd

    from threshold_choice.datasets.errors import DatasetError
    from threshold_choice.datasets.prepare import load_prepared
    from threshold_choice.reproduction.table5 import (
        compare_table5,
        read_published_table5,
        table5,
    )

    paths = sorted(Path(args.prepared).glob("*.parquet"))
    if not paths:
        raise DatasetError(
            f"no prepared datasets (*.parquet) in {args.prepared}. "
            "Run `threshold-choice datasets prepare --all --out DIR` first."
        )
    if args.out is not None:
        from threshold_choice.cli.inputs import check_outputs

        if Path(args.out).suffix.lower() != ".csv":
            raise DatasetError(f"--out names the CSV file of Table 5 (ending in .csv), got "
                               f"{args.out}")
        read = [*paths, *(p.with_suffix(".json") for p in paths)]
        check_outputs([args.out], read + ([args.published] if args.published else []))
    ours = table5(load_prepared(p) for p in paths)
    if args.out is not None:
        from threshold_choice.atomic import write_text_atomic

        write_text_atomic(args.out, ours.to_csv(index=False))
    with pd.option_context("display.max_rows", None, "display.width", 120):
        print(ours.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        if args.published is None:
            return 0
        try:
            published = read_published_table5(args.published)
        except (ValueError, UnicodeDecodeError) as exc:  # pandas' parser errors
            raise DatasetError(
                f"published Table 5 {args.published} is not a readable CSV: "
                f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
            ) from None
        diff = compare_table5(ours, published)
        bad = diff[~diff["match"]]
        print(f"\ncompared {len(diff)} cells with {args.published}: {len(bad)} differ")
        if len(bad):
            print(bad.to_string(index=False), file=sys.stdout)
    return 1 if len(bad) else 0
