"""End-to-end runs of the Snakemake workflow on tiny configurations."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from tests.conftest import REPO, SHARED

pytestmark = pytest.mark.slow

TINY = {
    "datasets": ["haberman", "spect_test"],
    "models": {
        "registry": "config/models.yaml",
        "use": ["Prior", "NB", "J48"],
        "baselines": ["Prior"],
    },
    "splits": {"splitter": "numpy", "iterations": 2},
    "evaluation": {
        "gammas": ["inf", 4],
        "methods": ["test-optimal", "train-optimal", "score-driven", "rate-driven"],
    },
}


def snakemake(*args: str, config_file: Path | None = None, check: bool = True, cores: int = 2):
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(cores), "--nolock", *args]
    if config_file is not None:
        cmd += ["--configfile", str(config_file)]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    if check and proc.returncode != 0:
        pytest.fail(
            f"snakemake {' '.join(args)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        )
    return proc


def write_config(tmp_path: Path, **overrides) -> Path:
    config = {**TINY, "results": str(tmp_path / "results")}
    config["data"] = {
        "mirror": str(SHARED / "datasets"),
        "registry": "config/datasets.yaml",
        "cache": str(tmp_path / "cache"),
    }
    config.update(overrides)
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tiny")
    config = write_config(tmp)
    first = snakemake(config_file=config)
    return tmp / "results", config, first


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
        for model in TINY["models"]["use"]:
            scores = pd.read_parquet(results / "scores" / dataset / f"{model}.parquet")
            assert scores["score"].between(0, 1).all()
            assert (results / "logs" / "score" / dataset / f"{model}.log").is_file()
            assert (results / "benchmarks" / "score" / dataset / f"{model}.tsv").is_file()
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
    # every job has its log and its benchmark file
    for step in ("compare", "collect_runs", "table5", "tables/gamma-inf", "figures/toy",
                 "figures/runs", "prepare_dataset/haberman", "splits/haberman",
                 "evaluate/haberman", "score/haberman/NB"):
        assert (results / "logs" / f"{step}.log").is_file(), step
        assert (results / "benchmarks" / f"{step}.tsv").is_file(), step


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
    assert "evaluate" in out
    assert "score" not in [line.split()[0] for line in out.splitlines() if line.strip()]
    assert "rule score" not in out


def planned_jobs(out: str) -> dict[str, int]:
    """``{rule: count}`` from the job table of a ``--dry-run``."""
    counts: dict[str, int] = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit() and parts[0] != "total":
            counts[parts[0]] = int(parts[1])
    return counts


def test_editing_one_models_entry_retrains_that_model_only(tiny_run, tmp_path):
    _, config, _ = tiny_run
    registry = yaml.safe_load((REPO / "config" / "models.yaml").read_text())
    for entry in registry["models"]:
        if entry["name"] == "J48":
            entry["params"] = {"confidence": 0.1}
    registry["models"].append({"name": "Unused", "estimator": "sklearn.naive_bayes:GaussianNB"})
    (tmp_path / "models.yaml").write_text(yaml.safe_dump(registry))
    changed = yaml.safe_load(config.read_text())
    changed["models"]["registry"] = str(tmp_path / "models.yaml")
    (tmp_path / "changed.yaml").write_text(yaml.safe_dump(changed))
    proc = snakemake("--dry-run", config_file=tmp_path / "changed.yaml")
    jobs = planned_jobs(proc.stdout + proc.stderr)
    # J48 on the two datasets; NB and Prior, same entries in another file, are kept
    assert jobs.get("score") == 2, proc.stdout[-3000:]
    assert jobs.get("evaluate") == 2


def test_outputs_are_byte_identical_whatever_the_number_of_cores(tiny_run, tmp_path):
    results, _, _ = tiny_run
    config = write_config(tmp_path)
    snakemake("collect_runs", config_file=config, cores=1)
    ours = tmp_path / "results"
    for dataset in TINY["datasets"]:
        for model in TINY["models"]["use"]:
            name = Path("scores") / dataset / f"{model}.parquet"
            assert (ours / name).read_bytes() == (results / name).read_bytes(), name
    assert (ours / "runs.parquet").read_bytes() == (results / "runs.parquet").read_bytes()


def test_a_killed_run_resumes_without_redoing_finished_jobs(tmp_path):
    import os
    import signal
    import time

    config = write_config(tmp_path)
    scores = tmp_path / "results" / "scores"
    cmd = [sys.executable, "-m", "snakemake", "--cores", "1", "--nolock", "--configfile",
           str(config)]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        # kill once a score job has been done for 2.5 s
        while not any(time.time() - p.stat().st_mtime > 2.5
                      for p in scores.glob("*/*.timings.csv")):
            assert proc.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline, "no score job finished in 5 minutes"
            time.sleep(0.1)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # a crash: no clean-up by Snakemake
        proc.wait()
    killed_at = time.time()
    # jobs done well before the kill (Snakemake had time to record them); a job caught between
    # writing its outputs and being recorded is rightly redone
    finished = {p: p.stat().st_mtime_ns for p in scores.glob("*/*.parquet")
                if p.with_suffix(".timings.csv").is_file()
                and killed_at - p.with_suffix(".timings.csv").stat().st_mtime > 2.0}
    assert finished, "no job finished 2 s before the kill"
    summary = tmp_path / "results" / "comparison" / "summary.csv"
    assert not summary.exists(), "the run finished before the kill"
    snakemake("--rerun-incomplete", config_file=config)
    for path, mtime in finished.items():
        assert path.stat().st_mtime_ns == mtime, f"{path.name} was redone"
    assert len(list(scores.glob("*/*.parquet"))) == 6
    assert summary.is_file()


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
    # 26 datasets x 12 models
    assert any(line.split()[:2] == ["score", "312"] for line in out.splitlines()), out[-2000:]


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


def _java_and_weka() -> str | None:
    """Why the paper mode cannot run here, or None."""
    import shutil

    try:
        import weka  # noqa: F401  (python-weka-wrapper3)
    except ImportError:
        return "python-weka-wrapper3 is not installed (pip install .[weka])"
    if shutil.which("java") is None:
        return "no Java runtime on PATH (apt-get install default-jre-headless)"
    return None


def test_paper_config_runs_end_to_end_on_two_small_datasets(tmp_path):
    reason = _java_and_weka()
    if reason:
        pytest.skip(f"paper mode needs Weka: {reason}")
    # the configured weka.jar is used: a copy of the bundled one, told apart by its path
    import shutil

    import weka

    jar = tmp_path / "weka-copy.jar"
    shutil.copyfile(Path(weka.__file__).parent / "lib" / "weka.jar", jar)
    tiny = {
        "results": str(tmp_path / "paper"),
        "data": {
            "mirror": str(SHARED / "datasets"),
            "registry": "config/datasets.yaml",
            "cache": str(tmp_path / "cache"),
        },
        "datasets": ["haberman", "hepatitis"],
        "models": {
            "registry": "config/models_weka.yaml",
            "use": ["J48", "IBK1", "Logist", "Prior", "Random"],
            "baselines": ["Prior", "Random"],
            "weka_jar": str(jar),
        },
        "splits": {"splitter": "r", "iterations": 2},
        "evaluation": {"gammas": ["inf", 0]},
    }
    override = tmp_path / "tiny.yaml"
    override.write_text(yaml.safe_dump(tiny))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "snakemake",
            "--cores",
            "2",
            "--nolock",
            "--configfile",
            str(REPO / "config" / "paper.yaml"),
            str(override),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
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
    assert timings["software"].str.contains(f"weka 3.9.6; weka.jar {jar.resolve()};").all()
    assert "weka" not in pd.read_csv(results / "scores" / "hepatitis" / "Prior.timings.csv")[
        "software"].iloc[0]
    log = (results / "logs" / "score" / "hepatitis" / "J48.log").read_text()
    assert f"weka.jar {jar.resolve()}" in log
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
