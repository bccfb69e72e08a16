"""The class labels a splitter needs (:class:`ClassColumn`), from an ARFF file, a prepared
table or a registry dataset."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from threshold_choice.errors import UserError

if TYPE_CHECKING:
    from threshold_choice.datasets.fetch import Mirror

__all__ = [
    "ClassColumn",
    "labels_from_prepared",
    "labels_from_registry",
    "read_arff_class",
]

# liac-arff rejects Weka-style numeric ranges such as ``@attribute x integer [1,10]``
# (breast-w.arff); the range is dropped, leaving a plain numeric declaration.
_RANGED_NUMERIC = re.compile(
    r"""^(\s*@attribute\s+(?:'[^']*'|"[^"]*"|\S+)\s+)(?:integer|real|numeric)\s*[\[(].*$""",
    re.IGNORECASE,
)
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
