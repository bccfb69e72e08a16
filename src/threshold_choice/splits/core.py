"""Stratified train/test splits: the numpy splitter (default) and the R-compatible splitter.

Conventions (all splitters):

* ``y`` holds one class label per table row (strings, compared as ``str``), ``levels`` the
  class values in the order the ARFF header declares them (R's factor level order).
* A :class:`Split` holds **0-based** row indices into the table, ``train`` and ``test``,
  disjoint and together covering every row, in the order the splitter produces them.
  Rows numbers printed or written (:func:`splits_frame`, the CLI) are **1-based**.
* Iterations are numbered 1, 2, ... and the iteration number is the seed.
* For each class with ``n_c`` rows, ``ceil(train_fraction * n_c)`` rows go to train
  (``ceil(n_c / 2)`` for the 50/50 protocol), the rest to test.
* Refused with :class:`~threshold_choice.errors.UserError`: a label not among ``levels``, a
  missing label, fewer than two classes with rows, or a class with a single row (it could not
  appear in both parts; caret would silently put it in train only). Declared levels without
  any row are ignored (see :class:`RSplitter` for how R then orders the levels).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from threshold_choice.errors import UserError
from threshold_choice.splits.rng_r import RMersenneTwister

if TYPE_CHECKING:  # pandas: for splits_frame only (the command line's parser reads this module)
    import pandas as pd

__all__ = [
    "SPLITTER_NAMES",
    "NumpySplitter",
    "RSplitter",
    "Split",
    "Splitter",
    "SplitterName",
    "get_splitter",
    "make_splits",
    "r_streams_after_splits",
    "splits_frame",
]

SplitterName = Literal["numpy", "r"]
SPLITTER_NAMES: tuple[SplitterName, ...] = ("numpy", "r")
SPLITS_FRAME_COLUMNS: tuple[str, ...] = ("dataset", "iteration", "part", "position", "row")


@dataclass(frozen=True)
class Split:
    """One train/test partition of a table.

    ``train`` and ``test`` are int64 arrays of **0-based** row indices, disjoint, covering all
    rows, in the order the splitter produced them (the numpy splitter sorts them; the R
    splitter gives the rows in the order R's shuffled data frame holds them).
    ``iteration`` is the 1-based iteration number (= the seed).
    """

    train: NDArray[np.int64]
    test: NDArray[np.int64]
    iteration: int


@runtime_checkable
class Splitter(Protocol):
    """Anything that draws the stratified split of one iteration."""

    name: str

    def split(self, y: Sequence[str] | NDArray[np.generic], levels: Sequence[str],
              iteration: int) -> Split:
        """The split of iteration ``iteration`` (the seed) of a table with class labels ``y``."""
        ...


def _check_fraction(train_fraction: float) -> float:
    if not 0.0 < train_fraction < 1.0:
        raise UserError(f"train fraction must be in (0, 1), got {train_fraction}")
    return float(train_fraction)


def _check_iteration(iteration: int) -> int:
    if isinstance(iteration, bool) or int(iteration) != iteration or iteration < 0:
        raise UserError(f"iteration must be an integer >= 0 (it is the seed), got {iteration!r}")
    return int(iteration)


def encode_labels(y: Sequence[str] | NDArray[np.generic],
                  levels: Sequence[str]) -> tuple[NDArray[np.int64], list[int]]:
    """Codes of ``y`` (index into ``levels``) and the codes of the levels that have rows.

    Raises :class:`UserError` for the cases listed in the module docstring.
    """
    level_list = [str(level) for level in levels]
    if len(set(level_list)) != len(level_list):
        raise UserError(f"class levels must be distinct, got {level_list}")
    index = {level: code for code, level in enumerate(level_list)}
    values = list(y)
    codes = np.empty(len(values), dtype=np.int64)
    for row, label in enumerate(values):
        if label is None or (isinstance(label, float) and math.isnan(label)):
            raise UserError(f"row {row + 1} has a missing class label; drop or fix it first")
        code = index.get(str(label))
        if code is None:
            raise UserError(
                f"row {row + 1} has class label {label!r}, which is not among the declared "
                f"levels {level_list}")
        codes[row] = code
    counts = np.bincount(codes, minlength=len(level_list))
    present = [code for code in range(len(level_list)) if counts[code] > 0]
    if len(present) < 2:
        raise UserError(
            f"a stratified split needs at least two classes with rows; class counts are "
            f"{dict(zip(level_list, counts.tolist(), strict=True))}")
    singles = [level_list[code] for code in present if counts[code] == 1]
    if singles:
        raise UserError(
            f"class(es) {singles} have a single row, which cannot be in both train and test; "
            "remove or merge them before splitting")
    return codes, present


def _complement(n: int, chosen: NDArray[np.int64]) -> NDArray[np.int64]:
    mask = np.ones(n, dtype=bool)
    mask[chosen] = False
    return np.flatnonzero(mask).astype(np.int64)


@dataclass(frozen=True)
class NumpySplitter:
    """The documented default splitter: stratified, seeded with numpy's ``Generator``.

    For iteration ``i``: ``rng = numpy.random.default_rng(i)``; for each class in ``levels``
    order (classes without rows skipped), ``rng.permutation`` of that class's 0-based row
    indices (ascending) and its first ``ceil(train_fraction * n_class)`` entries go to train.
    ``train`` and ``test`` are returned sorted ascending.
    """

    train_fraction: float = 0.5
    name: str = "numpy"

    def split(self, y: Sequence[str] | NDArray[np.generic], levels: Sequence[str],
              iteration: int) -> Split:
        """The split of iteration ``iteration``; see the class docstring."""
        iteration = _check_iteration(iteration)
        fraction = _check_fraction(self.train_fraction)
        codes, present = encode_labels(y, levels)
        rng = np.random.default_rng(iteration)
        chosen: list[NDArray[np.int64]] = []
        for code in present:
            rows = np.flatnonzero(codes == code).astype(np.int64)
            take = math.ceil(fraction * len(rows))
            chosen.append(rng.permutation(rows)[:take])
        train = np.sort(np.concatenate(chosen))
        return Split(train=train, test=_complement(len(codes), train), iteration=iteration)


@dataclass(frozen=True)
class RSplitter:
    """Reproduces the splits the authors drew in R 3.5 with caret (bit-for-bit).

    For iteration ``i`` (R code ``set.seed(i); w <- d[sample(nrow(d)), ];
    idx <- createDataPartition(w$class, p = 0.5, list = FALSE)``):

    1. ``set.seed(i)``: R's Mersenne-Twister with R's seed scrambling
       (:class:`~threshold_choice.splits.rng_r.RMersenneTwister`).
    2. ``perm = sample(n)`` (pre-3.6 "Rounding" sampling): row ``perm[k]`` of the table is at
       position ``k`` of the shuffled table.
    3. caret ``createDataPartition``: the shuffled positions are grouped by class (plyr
       ``dlply`` on the factor: groups in factor level order, positions ascending within a
       group); for each group in turn ``sample(positions, ceiling(n_level * p))``, drawing from
       the same stream. A one-row group would be taken whole without a draw (refused earlier).
    4. Train = the sorted union of those positions; test = the other positions, ascending
       (``w[-idx, ]``). Both are mapped back through ``perm`` to table rows, so they come in
       shuffled order, exactly as the rows of R's ``train``/``test`` data frames.

    Level order: the declared ``levels``. If a declared level has no row, caret re-creates the
    factor with ``factor(as.character(y))``, whose levels R sorts alphabetically in the session
    locale; this is reproduced with Python's code-point sort, which agrees with R for the
    C locale (none of the 26 datasets has an empty declared level).
    """

    train_fraction: float = 0.5
    name: str = "r"

    def split(self, y: Sequence[str] | NDArray[np.generic], levels: Sequence[str],
              iteration: int) -> Split:
        """The split of iteration ``iteration``; see the class docstring."""
        return self.split_with_stream(y, levels, iteration)[0]

    def split_with_stream(self, y: Sequence[str] | NDArray[np.generic], levels: Sequence[str],
                          iteration: int) -> tuple[Split, RMersenneTwister]:
        """The split of iteration ``iteration`` and R's random stream right after it (the
        state in which the authors' script went on to fit and score the models)."""
        iteration = _check_iteration(iteration)
        fraction = _check_fraction(self.train_fraction)
        codes, present = encode_labels(y, levels)
        level_list = [str(level) for level in levels]
        if len(present) < len(level_list):  # caret: y <- factor(as.character(y))
            present = sorted(present, key=lambda code: level_list[code])
        n = len(codes)
        rng = RMersenneTwister(iteration)
        perm = rng.sample_int(n) - 1  # 0-based table row at each shuffled position
        shuffled = codes[perm]
        chosen: list[NDArray[np.int64]] = []
        for code in present:
            positions = np.flatnonzero(shuffled == code).astype(np.int64)
            if len(positions) == 1:
                chosen.append(positions)
                continue
            take = math.ceil(len(positions) * fraction)
            chosen.append(rng.sample_subset(positions, take))
        train_positions = np.sort(np.concatenate(chosen))
        test_positions = _complement(n, train_positions)
        split = Split(train=perm[train_positions], test=perm[test_positions],
                      iteration=iteration)
        return split, rng


def r_streams_after_splits(y: Sequence[str] | NDArray[np.generic], levels: Sequence[str],
                           splits: Sequence[Split],
                           train_fraction: float = 0.5) -> dict[int, RMersenneTwister]:
    """R's random stream right after drawing each of ``splits``, by iteration number.

    Each split must be the :class:`RSplitter` split of its iteration for these labels (the
    splits of ``splits.splitter: r``); otherwise a :class:`UserError`, since the stream
    position would be meaningless.
    """
    splitter = RSplitter(train_fraction=train_fraction)
    streams: dict[int, RMersenneTwister] = {}
    for split in splits:
        redrawn, stream = splitter.split_with_stream(y, levels, split.iteration)
        if not (np.array_equal(redrawn.train, split.train)
                and np.array_equal(redrawn.test, split.test)):
            raise UserError(
                f"split {split.iteration} is not the R splitter's split of that iteration, so "
                "R's random stream after it is unknown; use splits.splitter: r for a model "
                "that draws from R's stream (the authors' Random)."
            )
        streams[split.iteration] = stream
    return streams


def get_splitter(name: SplitterName, train_fraction: float = 0.5) -> Splitter:
    """The splitter called ``name``: ``"numpy"`` (default choice) or ``"r"`` (R-compatible)."""
    if name == "numpy":
        return NumpySplitter(train_fraction=train_fraction)
    if name == "r":
        return RSplitter(train_fraction=train_fraction)
    raise UserError(f"unknown splitter {name!r}; choose one of {', '.join(SPLITTER_NAMES)}")


def make_splits(y: Sequence[str] | NDArray[np.generic], levels: Sequence[str],
                splitter: Splitter, iterations: int = 10) -> list[Split]:
    """The splits of iterations ``1..iterations`` (element ``k`` is iteration ``k + 1``)."""
    if isinstance(iterations, bool) or int(iterations) != iterations or iterations < 1:
        raise UserError(f"iterations must be an integer >= 1, got {iterations!r}")
    return [splitter.split(y, levels, iteration) for iteration in range(1, int(iterations) + 1)]


def splits_frame(dataset: str, splits: Sequence[Split]) -> pd.DataFrame:
    """Long table of splits: columns ``dataset, iteration, part, position, row``.

    One row per (split, part, member): ``part`` is ``"train"`` then ``"test"``, ``position``
    the 1-based order within the part, ``row`` the **1-based** table (ARFF data) row number.
    This is the format of ``reference/r_splits_sample.csv``.
    """
    import pandas as pd

    frames: list[pd.DataFrame] = []
    for split in splits:
        for part, rows in (("train", split.train), ("test", split.test)):
            frames.append(pd.DataFrame({
                "dataset": dataset,
                "iteration": np.full(len(rows), split.iteration, dtype=np.int64),
                "part": part,
                "position": np.arange(1, len(rows) + 1, dtype=np.int64),
                "row": np.asarray(rows, dtype=np.int64) + 1,
            }))
    if not frames:
        return pd.DataFrame({
            "dataset": pd.Series(dtype="str"), "iteration": pd.Series(dtype="int64"),
            "part": pd.Series(dtype="str"), "position": pd.Series(dtype="int64"),
            "row": pd.Series(dtype="int64")})
    return pd.concat(frames, ignore_index=True)[list(SPLITS_FRAME_COLUMNS)]
