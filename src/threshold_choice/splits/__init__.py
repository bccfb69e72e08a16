"""Stratified train/test splits (protocol: 10 stratified 50/50 splits, seed = iteration).

Two splitters behind one interface (:class:`Splitter`):

* ``"numpy"`` (:class:`NumpySplitter`, the project default), seeded ``numpy.random.Generator``;
* ``"r"`` (:class:`RSplitter`), bit-for-bit the splits the authors drew in R 3.5
  (``set.seed(i); sample(n)`` then ``caret::createDataPartition(p = 0.5)``).

:class:`Split` holds 0-based row indices; :func:`splits_frame` and the CLI
(``threshold-choice splits``) use 1-based row numbers.
"""

from __future__ import annotations

from threshold_choice._lazy import lazy_exports
from threshold_choice.splits.core import (
    SPLITTER_NAMES,
    NumpySplitter,
    RSplitter,
    Split,
    Splitter,
    SplitterName,
    encode_labels,
    get_splitter,
    make_splits,
    r_streams_after_splits,
    splits_frame,
)

# the class columns read datasets (pyarrow, the workflow extra): loaded on first use, so that
# the splitters (and ``threshold-choice splits --help``) need no optional package
__getattr__, __dir__ = lazy_exports(__name__, {"ClassColumn": "labels",
                                               "read_arff_class": "labels"})

__all__ = [
    "SPLITTER_NAMES",
    "ClassColumn",
    "NumpySplitter",
    "RSplitter",
    "Split",
    "Splitter",
    "SplitterName",
    "encode_labels",
    "get_splitter",
    "make_splits",
    "r_streams_after_splits",
    "read_arff_class",
    "splits_frame",
]
