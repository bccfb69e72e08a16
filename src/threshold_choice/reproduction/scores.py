"""The scores producer: fit one model type on every split of one dataset and score the rows.

Output of :func:`score_model` (one row per scored table row and split):

========  ========  ==================================================================
column    dtype     meaning
========  ========  ==================================================================
split     int32     split (iteration) number, 1-based: ``split.iteration`` when the
                    split object has it, else its 1-based position in ``splits``
part      str       ``"train"`` or ``"test"``
row       int64     0-based row index into the dataset's table (the position in ``X``)
label     int8      true class, 1 = majority class of the whole dataset
score     float64   the model's estimate of P(class 1 | x), in [0, 1]
========  ========  ==================================================================

Rows come split by split, the training part first, each part in the order the split lists
its rows (the R-compatible splitter gives R's order, which is also the order the original
run predicted them in; this matters for IBk, see :class:`~.models.neighbours.WekaIBk`).

Protocol (``docs/protocol.md``, "Data, splits, models"): the model is fitted on the training
part, without the rows that have a missing value when the registry entry says
``drop_missing_train`` (RWeka's ``na.omit``); training scores are predicted for the *whole*
training part (they feed the train-optimal threshold choice), test scores for the whole test
part. How a score is obtained: :func:`~.models.registry.score_method`.

Determinism: the estimator of split ``s`` gets ``random_state =
seed_for_split(seed, s)`` (when the entry is ``seeded``), and fitting and prediction run with
the BLAS/OpenMP thread pools limited to one thread, so the scores do not depend on the number
of cores. :func:`write_scores` writes them byte-identically for identical input.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from numpy.typing import NDArray
from scipy.special import expit
from sklearn.pipeline import Pipeline
from threadpoolctl import ThreadpoolController

from threshold_choice.atomic import atomic_output
from threshold_choice.errors import UserError
from threshold_choice.models.registry import (
    ModelSpec,
    build_model,
    score_method,
    seed_for_split,
)

__all__ = ["SCORES_SCHEMA", "SplitLike", "score_model", "scores_for", "write_scores"]

SCORES_SCHEMA = pa.schema([
    pa.field("split", pa.int32(), nullable=False),
    pa.field("part", pa.string(), nullable=False),
    pa.field("row", pa.int64(), nullable=False),
    pa.field("label", pa.int8(), nullable=False),
    pa.field("score", pa.float64(), nullable=False),
])
_TOLERANCE = 1e-9  # probabilities this far outside [0, 1] are rounding error and clipped


class SplitLike(Protocol):
    """What :func:`score_model` needs of a split: 0-based row indices of both parts."""

    @property
    def train(self) -> NDArray[np.integer[Any]]: ...

    @property
    def test(self) -> NDArray[np.integer[Any]]: ...


def scores_for(estimator: Any, X: pd.DataFrame, *, crisp: bool, model: str) -> NDArray[np.float64]:
    """Score in [0, 1] of every row of ``X`` (see :func:`~.models.registry.score_method`)."""
    method = score_method(estimator, crisp=crisp)
    classes = np.asarray(getattr(estimator, "classes_", [0, 1]))
    if method == "predict":
        raw = (np.asarray(estimator.predict(X)) == 1).astype(np.float64)
    elif method == "predict_proba":
        proba = np.asarray(estimator.predict_proba(X), dtype=np.float64)
        hits = np.flatnonzero(classes == 1)
        if proba.ndim != 2 or proba.shape[0] != len(X) or hits.size != 1:
            raise UserError(
                f"model {model!r}: predict_proba returned shape {proba.shape} with classes "
                f"{classes.tolist()}; expected one column per class including class 1."
            )
        raw = proba[:, hits[0]]
    else:
        dec = np.asarray(estimator.decision_function(X), dtype=np.float64)
        if dec.ndim != 1:
            raise UserError(f"model {model!r}: decision_function must return one value per row.")
        # decision_function > 0 means classes_[1]; orient it towards class 1.
        raw = expit(dec if classes.size < 2 or classes[1] == 1 else -dec)
    raw = np.asarray(raw, dtype=np.float64).reshape(-1)
    if raw.shape[0] != len(X):
        raise UserError(f"model {model!r}: got {raw.shape[0]} scores for {len(X)} rows.")
    return raw


def _check_scores(scores: NDArray[np.float64], model: str, split: int, part: str) -> None:
    bad = ~np.isfinite(scores)
    if bad.any():
        raise UserError(
            f"model {model!r} produced {int(bad.sum())} NaN/infinite score(s) on split {split} "
            f"({part} part). Check the estimator and its parameters (e.g. missing values it "
            "cannot handle: add preprocessing impute) before using its scores."
        )
    if scores.size and (scores.min() < -_TOLERANCE or scores.max() > 1 + _TOLERANCE):
        raise UserError(
            f"model {model!r} produced scores outside [0, 1] on split {split} ({part} part): "
            f"min {scores.min()}, max {scores.max()}. It must return probabilities."
        )


def _rows(values: Any, n: int, what: str) -> NDArray[np.int64]:
    idx = np.asarray(values)
    if idx.ndim != 1 or (idx.size and not np.issubdtype(idx.dtype, np.integer)):
        raise UserError(f"{what} must be a 1-D array of integer row indices.")
    idx = idx.astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise UserError(f"{what} holds row indices outside 0..{n - 1}.")
    return idx


def score_model(
    X: pd.DataFrame,
    y: NDArray[np.integer[Any]],
    splits: Sequence[SplitLike],
    spec: ModelSpec,
    *,
    seed: int,
    random_states: Mapping[int, Any] | None = None,
    part_frames: dict[tuple[str, int], pd.DataFrame] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Fit ``spec`` on each split's training part and score both parts.

    ``X``: the dataset's features (row ``i`` = table row ``i``), ``y``: ints in {0, 1}
    (1 = majority). Returns ``(scores, timings)``: scores as in the module docstring;
    timings with ``split`` (int32), ``fit_seconds``, ``predict_seconds`` (float64, wall
    clock; ``predict_seconds`` covers both parts) and ``fit_cpu_seconds``,
    ``predict_cpu_seconds`` (the process's CPU time over the same spans, the JVM's threads
    included). Raises :class:`UserError` when a training
    part (after dropping rows with missing values) is empty or holds one class only, and when
    the model produces NaN scores. ``random_states``: a ``random_state`` per split number
    that replaces the seed (R's stream after each split, for
    :class:`~threshold_choice.models.baselines.RStreamRandomScorer`). ``part_frames``: a
    dict shared by the calls for several models on the same ``X`` and ``splits``, in which
    each split's training and test frames are taken from ``X`` once (rows picked by pandas
    cost more than a small dataset's fit); the estimators must not modify their input
    (scikit-learn's rule).
    """
    if not isinstance(X, pd.DataFrame):
        raise UserError("X must be a pandas DataFrame (one row per table row).")
    labels = np.asarray(y)
    if labels.ndim != 1 or labels.shape[0] != len(X) or not np.all(np.isin(labels, (0, 1))):
        raise UserError("y must be 1-D, one label per row of X, with ints in {0, 1}.")
    labels = labels.astype(np.int8)
    if int(seed) < 0:
        raise UserError(f"seed must be >= 0, got {seed}.")
    complete = ~X.isna().any(axis=1).to_numpy()
    # each part of each split: (split number, part, its rows, their scores)
    parts: list[tuple[int, str, NDArray[np.int64], NDArray[np.float64]]] = []
    timing_rows: list[tuple[int, float, float, float, float]] = []
    # The registry's threads (default 1), not the machine's cores: BLAS/OpenMP reductions can
    # change with the thread count, so a run's scores do not depend on where it ran.
    with _thread_pools().limit(limits=spec.threads):
        for position, split in enumerate(splits, start=1):
            split_parts, timing = _score_split(X, labels, complete, spec, split, position,
                                               seed=seed, random_states=random_states,
                                               part_frames=part_frames)
            parts.extend(split_parts)
            timing_rows.append(timing)
    # one frame from all the parts (a frame per part would cost more than a small fit)
    sizes = [rows.size for _, _, rows, _ in parts]
    rows = np.concatenate([r for _, _, r, _ in parts]) if parts else np.array([], np.int64)
    scores = pd.DataFrame({
        "split": np.repeat(np.array([p[0] for p in parts], dtype=np.int32), sizes),
        "part": pd.Series(np.repeat(np.array([p[1] for p in parts], dtype=object), sizes),
                          dtype="str"),
        "row": rows,
        "label": labels[rows],
        "score": (np.concatenate([np.clip(v, 0.0, 1.0) for _, _, _, v in parts]) if parts
                  else np.array([], dtype=np.float64)),
    })
    timings = pd.DataFrame({
        "split": np.array([t[0] for t in timing_rows], dtype=np.int32),
        "fit_seconds": np.array([t[1] for t in timing_rows], dtype=np.float64),
        "predict_seconds": np.array([t[2] for t in timing_rows], dtype=np.float64),
        "fit_cpu_seconds": np.array([t[3] for t in timing_rows], dtype=np.float64),
        "predict_cpu_seconds": np.array([t[4] for t in timing_rows], dtype=np.float64),
    })
    return scores, timings


_POOLS: tuple[int, ThreadpoolController] | None = None


def _thread_pools() -> ThreadpoolController:
    """The thread pools of the native libraries loaded in this process. Finding them costs
    ~3 ms (more than a small dataset's fit), so they are looked for again only after a module
    has been imported since the last time: a library comes with the import that loads it."""
    global _POOLS
    if _POOLS is None or _POOLS[0] != len(sys.modules):
        _POOLS = (len(sys.modules), ThreadpoolController())
    return _POOLS[1]


def _score_split(X: pd.DataFrame, labels: NDArray[np.int8], complete: NDArray[np.bool_],
                 spec: ModelSpec, split: SplitLike, position: int, *, seed: int,
                 random_states: Mapping[int, Any] | None,
                 part_frames: dict[tuple[str, int], pd.DataFrame] | None,
                 ) -> tuple[list[tuple[int, str, NDArray[np.int64], NDArray[np.float64]]],
                            tuple[int, float, float, float, float]]:
    """Fit ``spec`` on one split's training part and score both parts: ``((number, part,
    rows, scores) of both parts, the timing row)`` (see :func:`score_model`)."""
    number = getattr(split, "iteration", None)
    number = int(number) if isinstance(number, (int, np.integer)) else position
    train = _rows(split.train, len(X), f"split {number}: train")
    test = _rows(split.test, len(X), f"split {number}: test")
    fit_rows = train[complete[train]] if spec.drop_missing_train else train
    present = np.unique(labels[fit_rows])
    if present.size < 2:
        dropped = " after dropping rows with missing values" if spec.drop_missing_train else ""
        raise UserError(
            f"model {spec.name!r}, split {number}: the training part{dropped} holds "
            f"{fit_rows.size} row(s) of class(es) {present.tolist()} only; a model needs "
            "both classes. Use another split or dataset (or drop_missing_train: false for "
            "a model that handles missing values)."
        )
    estimator = build_model(spec, seed=seed_for_split(seed, number))
    if random_states is not None:
        if number not in random_states:
            raise UserError(f"model {spec.name!r}: no random state for split {number}.")
        key = "model__random_state" if isinstance(estimator, Pipeline) else "random_state"
        estimator.set_params(**{key: random_states[number]})
    fit_part = "complete train" if spec.drop_missing_train else "train"
    fit_X = _rows_of(X, fit_rows, (fit_part, number), part_frames)
    start, start_cpu = time.perf_counter(), time.process_time()
    estimator.fit(fit_X, labels[fit_rows].astype(np.int64))
    fitted, fitted_cpu = time.perf_counter(), time.process_time()
    parts = {}
    for part, rows in (("train", train), ("test", test)):
        parts[part] = scores_for(estimator, _rows_of(X, rows, (part, number), part_frames),
                                 crisp=spec.crisp, model=spec.name)
    done, done_cpu = time.perf_counter(), time.process_time()
    timing = (number, fitted - start, done - fitted, fitted_cpu - start_cpu,
              done_cpu - fitted_cpu)
    for part in ("train", "test"):
        _check_scores(parts[part], spec.name, number, part)
    return [(number, "train", train, parts["train"]), (number, "test", test, parts["test"])], timing


def _rows_of(X: pd.DataFrame, rows: NDArray[np.int64], key: tuple[str, int],
             frames: dict[tuple[str, int], pd.DataFrame] | None) -> pd.DataFrame:
    """``X``'s ``rows`` as a new frame (index 0..n-1), taken once per ``key`` with ``frames``."""
    if frames is None:
        return X.iloc[rows].reset_index(drop=True)
    if key not in frames:
        frames[key] = X.iloc[rows].reset_index(drop=True)
    return frames[key]


def write_scores(df: pd.DataFrame, path: Path | str) -> None:
    """Write a scores frame to parquet: fixed schema (:data:`SCORES_SCHEMA`, no pandas index
    or pandas metadata), fixed writer options, so identical frames give identical bytes;
    written to a temporary file in the same directory, then renamed over ``path``."""
    path = Path(path)
    missing = [f.name for f in SCORES_SCHEMA if f.name not in df.columns]
    if missing:
        raise UserError(f"scores frame lacks column(s) {missing}; expected {SCORES_SCHEMA.names}.")
    arrays = []
    for f in SCORES_SCHEMA:
        col = df[f.name]
        if col.isna().any():
            raise UserError(f"scores column {f.name!r} has missing values; refusing to write.")
        if f.name == "part":
            values = np.asarray(col.astype(str), dtype=object)
            if not np.isin(values, ("train", "test")).all():
                raise UserError("scores column 'part' must hold 'train' or 'test' only.")
            arrays.append(pa.array(values.tolist(), type=pa.string()))
        else:
            arrays.append(pa.array(col.to_numpy(dtype=f.type.to_pandas_dtype()), type=f.type))
    table = pa.Table.from_arrays(arrays, schema=SCORES_SCHEMA)
    with atomic_output(path) as tmp:
        pq.write_table(
            table, tmp, compression="zstd", use_dictionary=["part"], write_statistics=True,
            row_group_size=1 << 20, data_page_version="1.0", version="2.6",
        )
