"""Outputs of an earlier configuration that the current one no longer makes.

After a gamma, a model type or a dataset is removed from the configuration (or an extension
is given up), the tables and figures made for it would stay in the results folder beside the
new ones, unmarked. The workflow's last rule (``stale_outputs``) removes them: every file in
the folders the workflow writes its tables and figures to (``tables/``, ``figures/``,
``extension/``, and ``tables/extended/`` of earlier versions) whose *name is one the workflow
gives its outputs* (:data:`OUTPUT_NAMES`) and that is not an output of the current
configuration. Other files (one's own notes, another tool's outputs) are left alone, as is
everything outside those folders and outside the results folder; the per-dataset working
files (``data/``, ``splits/``, ``scores/``, ``runs/``) are not shown anywhere and are kept
(the score cache re-fits nothing for them anyway). Every output can be made again by running
the workflow, so removing is safe, and it is the robust choice: a file marked stale would
still be read by whoever lists the folder.

The same rule also removes the hidden temporary files of atomic writes
(:data:`threshold_choice.atomic.TEMPORARY_NAME`) anywhere in the results folder: one is left
only by a job killed outright mid-write, and by the time the last rule runs every writer of
the run has finished (Snakemake's lock keeps a second run out of the folder).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from threshold_choice.atomic import TEMPORARY_NAME
from threshold_choice.reproduction import layout

__all__ = ["OUTPUT_FOLDERS", "OUTPUT_NAMES", "remove_leftover_temporaries", "remove_stale",
           "stale_outputs"]

#: the folders (relative to the results folder) whose outputs the workflow keeps current
OUTPUT_FOLDERS: tuple[str, ...] = (
    "tables", "tables/extended", "figures",
    layout.EXTENSION, f"{layout.EXTENSION}/tables", f"{layout.EXTENSION}/figures",
    *(f"significance/{scope}" for scope in layout.SIGNIFICANCE_SCOPES), "significance",
)
#: the names the workflow gives the files of those folders
OUTPUT_NAMES = re.compile(
    rf"^(table5|table[78]_gamma-({layout.GAMMA_LABEL}))\.(csv|md|tex)$"
    r"|^fig[0-9]+\.(png|pdf|svg|csv)$"
    rf"|^({'|'.join(layout.EXTENSION_FILES)})\.(csv|html)$"
    rf"|^({'|'.join(layout.SIGNIFICANCE_TABLES)})\.(csv|md|tex|html)$"
    r"|^cd_(methods|models_[\w.-]+)\.(png|pdf|svg|csv)$"
)


def stale_outputs(results: str | os.PathLike[str], current: Iterable[str | os.PathLike[str]],
                  ) -> list[Path]:
    """The files of ``results``' :data:`OUTPUT_FOLDERS` named as the workflow names its
    outputs (:data:`OUTPUT_NAMES`) that are not among ``current`` (the paths of the
    configuration's outputs), sorted."""
    results = Path(results)
    keep = {os.path.abspath(p) for p in current}
    stale = []
    for folder in OUTPUT_FOLDERS:
        path = results / folder
        if not path.is_dir():
            continue
        for entry in path.iterdir():
            if (entry.is_file() and OUTPUT_NAMES.match(entry.name)
                    and os.path.abspath(entry) not in keep):
                stale.append(entry)
    return sorted(stale)


def remove_stale(results: str | os.PathLike[str], current: Iterable[str | os.PathLike[str]],
                 ) -> list[Path]:
    """Remove the :func:`stale_outputs` of ``results`` (and the folders of
    :data:`OUTPUT_FOLDERS` left empty); return the removed files."""
    results = Path(results)
    removed = stale_outputs(results, current)
    for path in removed:
        path.unlink()
    for folder in sorted(OUTPUT_FOLDERS, key=len, reverse=True):  # sub-folders first
        path = results / folder
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return removed


def remove_leftover_temporaries(results: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files of atomic writes left in ``results`` (any depth, Snakemake's
    own ``.snakemake`` folder aside) by a job killed mid-write; return them, sorted."""
    found = []
    for folder, subfolders, files in os.walk(results):
        subfolders[:] = [d for d in subfolders if d != ".snakemake"]
        found += [Path(folder, f) for f in files if TEMPORARY_NAME.match(f)]
    for path in found:
        path.unlink(missing_ok=True)
    return sorted(found)
