"""What every step shares: its log, one-line errors, a job of several datasets, atomic
writers of tables."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from threshold_choice.atomic import atomic_output
from threshold_choice.errors import UserError


@contextlib.contextmanager
def log_to(path: Path | str) -> Iterator[None]:
    """Send the step's output, warnings and logging to ``path``; an error is logged with its
    traceback there and re-raised (a :class:`UserError` as its one-line message)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # line-buffered: Python's lines and those written to the descriptors (below) keep their order
    with open(path, "w", encoding="utf-8", buffering=1) as log:
        handler = logging.StreamHandler(log)
        logging.getLogger().addHandler(handler)
        logging.getLogger().setLevel(logging.INFO)
        try:
            with (contextlib.redirect_stdout(log), contextlib.redirect_stderr(log),
                  _descriptors_to(log)):
                yield
        except UserError as exc:
            log.write(f"error: {exc}\n")
            print(f"error: {exc} (log: {path})", file=sys.stderr)
            raise
        except BaseException:
            log.write(traceback.format_exc())
            raise
        finally:
            logging.getLogger().removeHandler(handler)


@contextlib.contextmanager
def _descriptors_to(log: Any) -> Iterator[None]:
    """The process's standard output and error descriptors (1, 2) written to ``log`` meanwhile:
    what bypasses ``sys.stdout``/``sys.stderr`` (the JVM's and Java libraries' warnings, e.g.
    netlib's ``Failed to load implementation from: ...NativeSystemARPACK``) goes to the
    job's log, not to the console."""
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.flush()
    saved = [os.dup(1), os.dup(2)]
    _CONSOLE.append(saved[1])
    try:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        yield
    finally:
        log.flush()
        _CONSOLE.pop()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)


#: the console's standard error while :func:`log_to` sends descriptor 2 to a step's log
_CONSOLE: list[int] = []


def to_console(message: str) -> None:
    """``message`` as a line on the run's console even while the step's output goes to its
    log (:func:`log_to`): a warning the user must see at once."""
    for stream in (sys.stderr, sys.__stderr__):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.flush()
    os.write(_CONSOLE[-1] if _CONSOLE else 2, (message + "\n").encode())


def warn(message: str) -> None:
    """``message`` once on the run's console and, within a step (:func:`log_to`), in its log.
    Outside a step (Snakemake's own process) it is not logged: with no handler there, Python
    would print it a second time."""
    if _CONSOLE:
        logging.getLogger("threshold_choice").warning(message)
    to_console(message)


def one_line(exc: BaseException) -> str:
    """An error as one line: a :class:`UserError`'s message, else its type and first line."""
    if isinstance(exc, UserError):
        return str(exc)
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def for_each_dataset(datasets: Sequence[str], logs: Sequence[Path | str],
                     step: Callable[[int, str], None]) -> None:
    """Run ``step(i, dataset)`` for each dataset of a job, each with its own log (see
    :func:`log_to`). A dataset whose step fails does not stop the others: their outputs are
    written first, then one :class:`UserError` names each failed dataset with its reason and
    log. (The job fails, so Snakemake runs it again next time; the workflow profile keeps the
    other datasets' outputs meanwhile, and the score cache makes their refit free.)"""
    failed = []
    for i, dataset in enumerate(datasets):
        try:
            with log_to(logs[i]):
                step(i, dataset)
        except Exception as exc:  # reported below, with its log
            failed.append(f"{dataset}: {one_line(exc)} (log: {logs[i]})")
    if failed:
        raise UserError(f"{len(failed)} of {len(datasets)} datasets of this job failed: "
                        + "; ".join(failed))


def read_parquet_or_remove(path: Path | str, what: str, source: str = "") -> pd.DataFrame:
    """The parquet file ``path``, an output of an earlier job; a damaged one is removed (every
    such file is a target of the run, so the next run makes it again) and a
    :class:`UserError` says to run the same command again. ``what``: "scores file"...;
    ``source``: where the file will come from again ("from the score cache")."""
    import pyarrow as pa

    try:
        return pd.read_parquet(path)
    except (OSError, ValueError, pa.ArrowException) as exc:
        if not Path(path).is_file():
            raise
        Path(path).unlink()
        raise UserError(f"the {what} {path} is damaged ({one_line(exc)}); it was removed: run "
                        f"the same command again to make it again{' ' if source else ''}"
                        f"{source}") from None


def write_parquet(frame: pd.DataFrame, path: Path | str) -> None:
    """Write ``frame`` to parquet atomically, without the pandas index."""
    with atomic_output(path) as tmp:
        frame.to_parquet(tmp, index=False)


def write_csv(frame: pd.DataFrame, path: Path | str, **kwargs: Any) -> None:
    with atomic_output(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as handle:
        frame.to_csv(handle, index=False, lineterminator="\n", **kwargs)
