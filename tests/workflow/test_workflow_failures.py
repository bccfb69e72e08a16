"""A failure stays local: a dataset that cannot be prepared or a model that fails to fit is
reported with its one-line reason, the other datasets and models of its job keep their
outputs, and the next run re-runs only what failed (end-to-end runs on a tiny configuration)."""

from __future__ import annotations

import copy

import pandas as pd
import pytest
import yaml

from tests.conftest import REPO
from tests.workflow.test_workflow import TINY, snakemake, write_config

pytestmark = pytest.mark.slow

#: passes every start-up check, fails in fit (liblinear has no elastic-net penalty)
FAILS_TO_FIT = {
    "name": "Bad",
    "estimator": "sklearn.linear_model:LogisticRegression",
    "params": {"solver": "liblinear", "penalty": "elasticnet"},
    "preprocessing": {"one_hot": True, "impute": "most_frequent", "scale": "none"},
}
DATASETS = ["haberman", "spect_test", "vote"]


@pytest.fixture(scope="module")
def failed_then_fixed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("failures")
    datasets = yaml.safe_load((REPO / "config" / "datasets.yaml").read_text())
    broken = copy.deepcopy(datasets)
    broken["datasets"]["spect_test"]["expected"]["content_sha256"] = "0" * 64
    (tmp / "broken.yaml").write_text(yaml.safe_dump(broken, sort_keys=False))
    (tmp / "models.yaml").write_text(yaml.safe_dump(
        {"format_version": 1, "models": [FAILS_TO_FIT]}))
    # jobs [haberman, spect_test] and [vote]: spect_test fails in the first job's prepare step,
    # Bad in the second job's score step
    config = write_config(
        tmp, datasets=DATASETS,
        models={**TINY["models"], "use": [*TINY["models"]["use"], "Bad"],
                "registry": ["config/models_weka.yaml", str(tmp / "models.yaml")]},
        jobs={"datasets_per_job": 2},
    )
    text = yaml.safe_load(config.read_text())
    text["data"]["registry"] = str(tmp / "broken.yaml")
    config.write_text(yaml.safe_dump(text))
    first = snakemake(config_file=config, check=False)
    results = tmp / "results"
    outputs = {p.relative_to(results).as_posix() for p in results.rglob("*") if p.is_file()}
    logs = {"vote": (results / "logs" / "score" / "vote.log").read_text()}
    prepare_log = (results / "logs" / "prepare" / "spect_test.log").read_text()
    # the user's fix: the right hash, the broken model dropped; then the same command again
    text["data"]["registry"] = "config/datasets.yaml"
    text["models"]["use"] = TINY["models"]["use"]
    config.write_text(yaml.safe_dump(text))
    second = snakemake(config_file=config, check=False)
    return {"first": first, "outputs": outputs, "score_logs": logs,
            "prepare_log": prepare_log, "second": second, "results": results}


def test_a_failed_run_names_each_failure_with_its_one_line_reason(failed_then_fixed):
    first = failed_then_fixed["first"]
    assert first.returncode != 0
    err = first.stdout + first.stderr
    assert "1 of 2 datasets of this job failed: spect_test:" in err
    assert "content hash" in err or "content_sha256" in err
    assert "model(s) failed on vote: Bad (ValueError:" in err
    assert "Traceback" not in failed_then_fixed["prepare_log"]  # a user error: one line


def test_the_other_datasets_and_models_keep_their_outputs(failed_then_fixed):
    outputs = failed_then_fixed["outputs"]
    # the failed dataset's job: the other dataset's outputs are kept
    assert {"data/haberman.parquet", "splits/haberman.csv"} <= outputs
    assert "data/spect_test.parquet" not in outputs
    # the other job went on: prepared, every model but the failed one scored
    assert {"data/vote.parquet", "splits/vote.csv"} <= outputs
    assert {f"scores/vote/{m}.parquet" for m in TINY["models"]["use"]} <= outputs
    assert "scores/vote/Bad.parquet" not in outputs
    assert not any(name.startswith("tables/") for name in outputs)  # they need every dataset
    assert "model Bad on vote failed: ValueError" in failed_then_fixed["score_logs"]["vote"]


def test_the_next_run_redoes_only_what_failed(failed_then_fixed):
    second, results = failed_then_fixed["second"], failed_then_fixed["results"]
    assert second.returncode == 0, second.stderr[-2000:]
    assert (results / "tables" / "table7_gamma-inf.csv").is_file()
    log = (results / "logs" / "score" / "vote.log").read_text()
    for model in TINY["models"]["use"]:  # fitted in the failed run, from the cache now
        assert f"model {model} on vote: scores from the cache" in log
    assert set(pd.read_parquet(results / "runs.parquet")["dataset"]) == set(DATASETS)


@pytest.fixture(scope="module")
def damaged_then_rerun(tmp_path_factory, tiny_run):
    """The tiny run made again (its fits from a copy of the session run's score cache), one of
    its score files damaged, then the same command twice."""
    import shutil

    results_of_tiny, tiny_config, _ = tiny_run
    tmp = tmp_path_factory.mktemp("damaged")
    shutil.copytree(yaml.safe_load(tiny_config.read_text())["cache"], tmp / "shared-cache")
    config = write_config(tmp)
    snakemake(config_file=config)
    results = tmp / "results"
    (results / "scores" / "haberman" / "NB.parquet").write_bytes(b"damaged")
    first = snakemake(config_file=config, check=False)
    kept = (results / "scores" / "haberman" / "NB.parquet").exists()
    second = snakemake(config_file=config, check=False)
    return {"first": first, "kept": kept, "second": second, "results": results,
            "tiny": results_of_tiny}


def test_a_damaged_score_file_fails_the_run_saying_how_to_recover(damaged_then_rerun):
    first = damaged_then_rerun["first"]
    assert first.returncode != 0
    err = first.stdout + first.stderr
    assert "NB.parquet is damaged" in err
    assert "run the same command again" in err
    assert not damaged_then_rerun["kept"]  # the damaged input is not kept to be read again


def test_the_run_after_a_failed_job_redoes_it_and_the_runs_file_is_back_and_correct(
        damaged_then_rerun):
    second, results = damaged_then_rerun["second"], damaged_then_rerun["results"]
    assert second.returncode == 0, second.stderr[-2000:]
    assert "Nothing to be done" not in second.stdout + second.stderr
    for name in ("runs/haberman.parquet", "scores/haberman/NB.parquet", "runs.parquet"):
        assert (results / name).read_bytes() == (damaged_then_rerun["tiny"] / name).read_bytes()


def _last_lines(proc) -> list[str]:
    return [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]


def test_a_config_alias_bomb_is_refused_in_one_line(tmp_path):
    from tests.reproduction.test_bounded_readers import ALIAS_BOMB

    config = write_config(tmp_path)
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(config.read_text() + "extra:\n" + "".join(
        "  " + line + "\n" for line in ALIAS_BOMB.splitlines()))
    proc = snakemake("--dry-run", config_file=bomb, check=False)
    assert proc.returncode != 0
    assert "the configuration expands to more than 1000000 values" in proc.stdout + proc.stderr
    assert len(_last_lines(proc)) < 10


def test_snakemake_from_another_folder_says_where_to_run_it_in_one_line(tmp_path):
    config = write_config(tmp_path)
    proc = snakemake("--dry-run", "--snakefile", str(REPO / "Snakefile"), config_file=config,
                     check=False, cwd=tmp_path)
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert f"run Snakemake from the repository's folder ({REPO})" in out
    assert "Failed validating" not in out  # not the schema
    assert len(_last_lines(proc)) < 10
