"""``threshold-choice splits``: print the stratified splits of one dataset as CSV.

Output columns ``dataset,iteration,part,position,row`` with **1-based** ARFF data row numbers
(see :func:`threshold_choice.splits.splits_frame`).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from threshold_choice.datasets.fetch import Mirror
from threshold_choice.errors import UserError
from threshold_choice.splits.core import SPLITTER_NAMES, get_splitter, make_splits, splits_frame

__all__ = [
    "ClassColumn",
    "labels_from_prepared",
    "labels_from_registry",
    "read_arff_class",
    "register",
]

# liac-arff rejects Weka-style numeric ranges such as ``@attribute x integer [1,10]``
# (breast-w.arff); the range is dropped, leaving a plain numeric declaration.
_RANGED_NUMERIC = re.compile(
    r"""^(\s*@attribute\s+(?:'[^']*'|"[^"]*"|\S+)\s+)(?:integer|real|numeric)\s*[\[(].*$""",
    re.IGNORECASE,
)


#: the most splits the command prints (the workflow's schema has the same bound)
MAX_ITERATIONS = 1000
_ARFF_FIX = (". Give an ARFF file (@relation, @attribute lines, then @data) or a prepared "
             "dataset with --prepared")


@dataclass(frozen=True)
class ClassColumn:
    """Class labels of every data row (``None`` if missing) and the declared level order."""

    name: str
    labels: list[str | None]
    levels: list[str]


def read_arff_class(path: Path, class_attribute: str | None = None) -> ClassColumn:
    """The class column of an ARFF file, read with liac-arff.

    ``class_attribute`` names the class attribute; by default the **last** attribute (the
    authors' convention; for ``spect_train``/``spect_test`` pass ``OVERALL_DIAGNOSIS``, their
    first attribute). The attribute must be nominal; ``levels`` is its header order.
    """
    import arff  # liac-arff

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read ARFF file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not an ARFF file (not UTF-8 text){_ARFF_FIX}") from None
    text = "\n".join(_RANGED_NUMERIC.sub(r"\1numeric", line) for line in text.splitlines())
    try:
        table = arff.loads(text)
    except Exception as exc:  # liac-arff raises several unrelated exception types
        # str(): liac-arff's repr() is an empty BadLayout()
        raise UserError(f"cannot read {path} as ARFF: {str(exc).rstrip('.')}{_ARFF_FIX}") from None
    names = [name for name, _ in table["attributes"]]
    if class_attribute is None:
        column = len(names) - 1
    elif class_attribute in names:
        column = names.index(class_attribute)
    else:
        raise UserError(f"{path} has no attribute {class_attribute!r}; attributes: {names}")
    name, kind = table["attributes"][column]
    if not isinstance(kind, list):
        raise UserError(
            f"class attribute {name!r} of {path} is {kind}, not nominal; "
            "choose a nominal one with --class-attribute")
    labels = [None if row[column] is None else str(row[column]) for row in table["data"]]
    return ClassColumn(name=name, labels=labels, levels=[str(level) for level in kind])


def labels_from_prepared(path: Path) -> ClassColumn:
    """Class labels of every row of a prepared table (``.parquet`` with its ``.json``
    metadata beside it) and their declared level order."""
    from threshold_choice.datasets.prepare import class_column

    labels, levels = class_column(path)
    return ClassColumn(name=path.stem, labels=labels, levels=levels)


def labels_from_registry(name: str, *, mirror: Path | Mirror | None, cache: Path | None,
                         registry: Path | None = None) -> ClassColumn:
    """Class labels of a registry dataset, obtained (mirror first, then OpenML/UCI) and
    verified as the workflow does, in a temporary folder (the download cache is kept)."""
    import tempfile

    from threshold_choice.datasets import load_registry, prepare_dataset

    specs = load_registry(registry)
    with tempfile.TemporaryDirectory(prefix="threshold-choice-splits-") as tmp:
        cache_dir = cache if cache is not None else Path(tmp) / "cache"
        path = prepare_dataset(name, out_dir=Path(tmp), cache_dir=cache_dir, mirror=mirror,
                               registry=specs)
        return labels_from_prepared(path)


def _run(args: argparse.Namespace) -> int:
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
        help="print the stratified train/test splits of a dataset as CSV",
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
