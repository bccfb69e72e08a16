"""The content-addressed score cache (:mod:`threshold_choice.reproduction.score_cache`), without
Snakemake."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import threshold_choice
from threshold_choice.datasets import prepare
from threshold_choice.models import weka
from threshold_choice.reproduction import score_cache, scores, tables
from threshold_choice.reproduction.score_cache import SCORING_CODE, ScoreCache, score_key
from threshold_choice.reproduction.scores import write_scores
from threshold_choice.reproduction.steps import evaluate as evaluate_step
from threshold_choice.reproduction.steps import report as report_step
from threshold_choice.reproduction.steps import score as score_step
from threshold_choice.splits import core


def inputs(tmp_path: Path) -> dict[str, object]:
    (tmp_path / "d.parquet").write_bytes(b"table")
    (tmp_path / "d.json").write_text('{"target": "class"}')
    (tmp_path / "d.csv").write_text("dataset,iteration,part,position,row\nd,1,train,1,1\n")
    (tmp_path / "weka.jar").write_bytes(b"jar")
    return {"prepared": tmp_path / "d.parquet", "splits_csv": tmp_path / "d.csv",
            "entry": {"name": "M", "estimator": "a:B", "params": {"k": 1}}, "seed": 0,
            "weka_jar": tmp_path / "weka.jar", "java": "JAVA_VERSION=17"}


def test_every_input_of_the_scores_changes_the_key(tmp_path):
    base = inputs(tmp_path)
    key, _ = score_key(**base)  # type: ignore[arg-type]
    assert score_key(**base)[0] == key  # type: ignore[arg-type]
    changes = {
        "entry": {"name": "M", "estimator": "a:B", "params": {"k": 2}},
        "seed": 1,
        "java": "JAVA_VERSION=25",
        "weka_jar": None,
    }
    for name, value in changes.items():
        assert score_key(**{**base, name: value})[0] != key, name  # type: ignore[arg-type]
    for file, content in (("d.parquet", b"other"), ("d.json", '{"target": "y"}'),
                          ("d.csv", "other"), ("weka.jar", b"other jar")):
        path = tmp_path / file
        old = path.read_bytes()
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        os.utime(path, ns=(1, 1))  # digests are memoised on size and mtime
        assert score_key(**base)[0] != key, file  # type: ignore[arg-type]
        path.write_bytes(old)
    # the description does not change the scores, nor the key
    described = {**base["entry"], "description": "another text"}  # type: ignore[dict-item]
    assert score_key(**{**base, "entry": described})[0] == key  # type: ignore[arg-type]



@pytest.fixture
def package_copy(tmp_path, monkeypatch):
    """A copy of the package's sources that the key hashes in place of the package's own."""
    copy = tmp_path / "package" / "threshold_choice"
    shutil.copytree(score_cache._PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(score_cache, "_PACKAGE", copy)
    score_cache._code_digest.cache_clear()
    yield copy
    score_cache._code_digest.cache_clear()  # the next tests hash the package again


def test_every_scoring_code_path_exists():
    for item in SCORING_CODE:
        assert (score_cache._PACKAGE / item).exists(), item


def test_editing_the_scoring_code_changes_the_key(tmp_path, package_copy):
    """The score step, the scores producer, the cache itself and the models, splitters and
    prepared-table reader are scoring code; the tables and the other steps are not."""
    key, _ = score_key(**inputs(tmp_path))  # type: ignore[arg-type]
    for module, scoring in ((score_step, True), (scores, True), (score_cache, True),
                            (prepare, True), (core, True), (weka, True), (tables, False),
                            (report_step, False), (evaluate_step, False)):
        file = package_copy / Path(module.__file__).resolve().relative_to(
            Path(threshold_choice.__file__).resolve().parent)
        old = file.read_bytes()
        file.write_bytes(old + b"\n# edited\n")
        score_cache._code_digest.cache_clear()
        assert (score_key(**inputs(tmp_path))[0] != key) is scoring, file  # type: ignore[arg-type]
        file.write_bytes(old)
    score_cache._code_digest.cache_clear()
    assert score_key(**inputs(tmp_path))[0] == key  # type: ignore[arg-type]


def test_editing_the_ibk_kernel_source_or_class_changes_the_key(tmp_path, package_copy):
    """The authors' Weka's IBk scores come from a Java class (models/java): it is scoring code
    as the Python modules are."""
    key, _ = score_key(**inputs(tmp_path))  # type: ignore[arg-type]
    kernel = sorted((package_copy / "models" / "java").rglob("*.*"))
    assert {p.suffix for p in kernel} == {".java", ".class"}
    for file in kernel:
        old = file.read_bytes()
        file.write_bytes(old + b"\0")
        score_cache._code_digest.cache_clear()
        assert score_key(**inputs(tmp_path))[0] != key, file  # type: ignore[arg-type]
        file.write_bytes(old)
    score_cache._code_digest.cache_clear()
    assert score_key(**inputs(tmp_path))[0] == key  # type: ignore[arg-type]


def scores_frame() -> pd.DataFrame:
    return pd.DataFrame({"split": np.int32(1), "part": ["train", "test"], "row": [0, 1],
                         "label": np.int8([0, 1]), "score": [0.2, 0.7]})


def stored_entry(tmp_path: Path) -> tuple[ScoreCache, str, Path, Path]:
    out = tmp_path / "out"
    out.mkdir()
    write_scores(scores_frame(), out / "M.parquet")
    (out / "M.timings.csv").write_text("dataset,model,split,fit_seconds\nd,M,1,0.5\n")
    cache = ScoreCache(tmp_path / "cache")
    cache.store("M", "k" * 64, {"seed": 0}, out / "M.parquet", out / "M.timings.csv")
    return cache, "k" * 64, out / "M.parquet", out / "M.timings.csv"


def test_a_stored_entry_is_served_byte_for_byte(tmp_path):
    cache, key, scores, timings = stored_entry(tmp_path)
    expected = scores.read_bytes(), timings.read_bytes()
    scores.unlink()
    timings.unlink()
    assert cache.fetch("M", key, scores, timings)
    assert (scores.read_bytes(), timings.read_bytes()) == expected
    assert not cache.fetch("M", "0" * 64, scores, timings)  # another key


@pytest.mark.parametrize("damage", ["no manifest", "truncated scores", "other timings"])
def test_an_incomplete_or_damaged_entry_is_not_served_and_is_removed(tmp_path, damage):
    cache, key, _, _ = stored_entry(tmp_path)
    entry = tmp_path / "cache" / "M" / key
    if damage == "no manifest":
        entry.with_suffix(".json").unlink()
    elif damage == "truncated scores":
        path = entry.with_suffix(".parquet")
        path.write_bytes(path.read_bytes()[:50])
    else:
        entry.with_suffix(".timings.csv").write_text("something else\n")
    assert not cache.fetch("M", key, tmp_path / "x.parquet", tmp_path / "x.csv")
    assert not (tmp_path / "x.parquet").exists()
    if damage != "no manifest":
        assert not entry.with_suffix(".parquet").exists()  # removed, so it is re-fitted


def test_a_cache_that_cannot_be_written_is_skipped(tmp_path):
    if os.geteuid() == 0:
        # root writes into read-only folders: make the cache path a file instead
        (tmp_path / "cache").write_text("not a folder")
    else:
        (tmp_path / "cache").mkdir()
        (tmp_path / "cache").chmod(stat.S_IRUSR | stat.S_IXUSR)
    cache, key, scores, timings = stored_entry(tmp_path)  # warns, does not raise
    assert not cache.fetch("M", key, scores, timings)
    assert scores.is_file()  # the job's own outputs are untouched


def test_an_entry_rewritten_with_other_scores_is_not_served(tmp_path, caplog):
    """Valid scores with the right schema, but not those the cache wrote: the checksum written
    with the entry catches them, the entry is removed and the model re-fitted."""
    cache, key, _, _ = stored_entry(tmp_path)
    entry = tmp_path / "cache" / "M" / key
    other = scores_frame().assign(score=[0.9, 0.1])
    write_scores(other, entry.with_suffix(".parquet"))
    with caplog.at_level("WARNING"):
        assert not cache.fetch("M", key, tmp_path / "x.parquet", tmp_path / "x.csv")
    assert "does not match the checksum written with it" in caplog.text
    assert not (tmp_path / "x.parquet").exists()
    assert not entry.with_suffix(".parquet").exists()


def test_the_key_holds_the_version_of_the_estimators_package(tmp_path, monkeypatch):
    import sklearn

    from threshold_choice.reproduction import provenance

    base = {**inputs(tmp_path),
            "entry": {"name": "M", "estimator": "sklearn.tree:DecisionTreeClassifier"}}
    key, parts = score_key(**base)  # type: ignore[arg-type]
    assert parts["estimator_package"] == ["scikit-learn", sklearn.__version__]
    # another version of that package: another key
    monkeypatch.setattr(provenance.metadata, "version",
                        lambda name: "99.0" if name == "scikit-learn" else "1")
    other, parts = score_key(**base)  # type: ignore[arg-type]
    assert parts["estimator_package"] == ["scikit-learn", "99.0"] and other != key
