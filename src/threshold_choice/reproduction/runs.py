"""The runs table (``runs.parquet``): the columns naming a run and a row, and what the
table measured (its parquet metadata, written by the collect step)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from threshold_choice.metrics import METRICS

#: the columns naming one run (a model fitted on one split of one dataset)
RUN_KEYS: tuple[str, ...] = ("dataset", "model", "split")


#: the columns naming one row of ``runs.parquet``: a run's loss under one method and gamma
ROW_KEYS: tuple[str, ...] = (*RUN_KEYS, "gamma", "method")


RUN_COLUMNS: tuple[str, ...] = (*ROW_KEYS, "loss", *METRICS)


#: key of the runs table's parquet metadata: what the runs measured (see :func:`step_collect`)
RUNS_METADATA_KEY = b"threshold_choice.runs"


def read_runs_metadata(path: Path | str) -> dict[str, Any] | None:
    """What :func:`step_collect` stored with the runs table ``path`` (``evaluation``: the
    settings, ``learners``), or ``None`` for a table written without it."""
    import pyarrow.parquet as pq

    metadata = pq.read_schema(path).metadata or {}
    text = metadata.get(RUNS_METADATA_KEY)
    return None if text is None else json.loads(text)
