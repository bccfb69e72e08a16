"""Extending the study keeps the paper's comparison: a model type and a dataset of one's own
go to the extended tables only; a run under another belief about c says the published numbers
do not apply (end-to-end runs of the workflow on tiny configurations)."""

from __future__ import annotations

import filecmp
import json
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile

import pandas as pd
import pytest
import yaml

from tests.conftest import REPO
from tests.workflow.test_workflow import TINY, snakemake, write_config

pytestmark = pytest.mark.slow



def readme_model_entry() -> str:
    """The registry text the workflow guide's "Model" instructions add to
    config/models_added.yaml (docs/workflow.md, where the README sends its users)."""
    readme = (REPO / "docs" / "workflow.md").read_text()
    step = readme[readme.index("* **Model**: add an entry to `config/models_added.yaml`"):]
    block = re.search(r"```yaml\n(.*?)```", step, flags=re.S)
    assert block is not None, "the workflow guide's Model instructions lost their example"
    return textwrap.dedent(block.group(1))


def checkout_copy(folder):
    """What the workflow reads of the checkout (the package itself is installed)."""
    folder.mkdir()
    for name in ("Snakefile", "environment.yml"):
        shutil.copy(REPO / name, folder / name)
    for name in ("config", "profiles", "workflow"):
        shutil.copytree(REPO / name, folder / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return folder

def add_own_dataset(checkout, tmp):
    """docs/datasets.md's steps: haberman's data as a CSV file of one's own (``my-haberman``),
    its entry with ``expected: pending``, the prepare command's printed values pasted in."""
    from threshold_choice.datasets.arff import read_arff
    from threshold_choice.datasets.table import to_dataframe

    _, table = read_arff(REPO.parent / "shared" / "datasets" / "haberman.arff")
    to_dataframe(table).to_csv(tmp / "my-haberman.csv", index=False)
    years = [str(y) for y in range(58, 70)]  # the year is nominal in the paper's file
    entry = (f"  my-haberman:\n    source: {{kind: local, path: {tmp / 'my-haberman.csv'}, "
             f"transforms: [to_nominal: {{Patients_year_of_operation: {years}}}]}}\n"
             "    target: Survival_status\n    label_of_class1: '1'\n    expected: pending\n")
    registry = checkout / "config" / "datasets.yaml"
    registry.write_text(registry.read_text() + entry)
    prepare = subprocess.run(
        [sys.executable, "-m", "threshold_choice.cli", "datasets", "prepare", "--name",
         "my-haberman", "--out", str(tmp / "my-haberman"), "--registry", str(registry)],
        capture_output=True, text=True, cwd=checkout)
    printed = re.search(r"is (expected: \{.*\}) with label_of_class1", prepare.stderr)
    assert prepare.returncode == 2 and printed, prepare.stderr
    registry.write_text(registry.read_text().replace("expected: pending", printed.group(1)))


PAPER_FILES = [
    *(f"tables/table{t}_gamma-{g}.{ext}" for t in (7, 8) for g in ("inf", "4")
      for ext in ("csv", "md", "tex")),
    *(f"comparison/{name}.csv" for name in ("summary", "findings", "table5_diff",
                                            "table7_diff", "table8_diff")),
]


@pytest.fixture(scope="module")
def runs(tmp_path_factory, tiny_run):
    """Results of the tiny paper configuration (the session's ``tiny_run``), of the same with
    HGB and a dataset of one's own added, and of the paper configuration under c ~ Beta(2, 2).
    The two runs start from a copy of the paper run's cache: the models it fitted on the same
    datasets are taken from its score cache, not fitted again (fitting is checked in
    test_workflow.py; the scores are the same bytes either way)."""
    tmp = tmp_path_factory.mktemp("extend")
    # the README's instructions, followed literally in a copy of the checkout
    checkout = checkout_copy(tmp / "checkout")
    added = checkout / "config" / "models_added.yaml"
    text = added.read_text()
    assert "\nmodels: []\n" in text
    added.write_text(text.replace("\nmodels: []\n", "\n" + readme_model_entry()))
    add_own_dataset(checkout, tmp)
    paper_results, paper_config, _ = tiny_run
    out = {"checkout": checkout, "paper": paper_results}
    paper_cache = yaml.safe_load(paper_config.read_text())["cache"]
    for name in ("extended", "beta"):
        (tmp / name).mkdir()
        shutil.copytree(paper_cache, tmp / name / "shared-cache")
    extended = write_config(
        tmp / "extended",
        datasets=[*TINY["datasets"], "my-haberman"],
        models={**TINY["models"], "use": [*TINY["models"]["use"], "HGB"]},
    )
    snakemake(config_file=extended, cwd=checkout)
    out["extended"] = tmp / "extended" / "results"
    methods = [*TINY["evaluation"]["methods"], "score-uniform"]
    beta = write_config(
        tmp / "beta",
        evaluation={**TINY["evaluation"], "methods": methods, "cost_distribution": "beta:2,2"},
        outputs={"table_methods": methods},
    )
    snakemake(config_file=beta)
    out["beta"] = tmp / "beta" / "results"
    return out


def test_added_models_and_datasets_leave_the_paper_comparison_unchanged(runs):
    for name in PAPER_FILES:
        assert filecmp.cmp(runs["paper"] / name, runs["extended"] / name, shallow=False), name
    assert not (runs["paper"] / "tables" / "extended").exists()


def test_added_models_and_datasets_get_the_extended_tables(runs):
    folder = runs["extended"] / "tables" / "extended"
    t7 = pd.read_csv(folder / "table7_gamma-inf.csv")
    assert set(t7["model"]) == {*TINY["models"]["use"], "HGB"}
    t8 = pd.read_csv(folder / "table8_gamma-inf.csv").set_index("dataset")
    assert set(t8.index) == {*TINY["datasets"], "my-haberman"}
    assert t8.loc["my-haberman", "number"] == 27  # numbered after the paper's 26
    # the dataset of one's own is a copy of haberman: its row equals haberman's
    assert t8.loc["my-haberman", "AUC"] == pytest.approx(t8.loc["haberman", "AUC"])
    # the run's Table 5 numbers it as the extended tables do
    t5 = pd.read_csv(runs["extended"] / "tables" / "table5.csv").set_index("dataset")
    assert t5.loc["my-haberman", "number"] == 27
    assert t5.loc["my-haberman", "instances"] == t5.loc["Haberman", "instances"]
    caption = (folder / "table7_gamma-inf.md").read_text().splitlines()[0]
    assert caption.startswith("Table 7, extended")
    assert "HGB" not in set(pd.read_csv(runs["extended"] / "tables" /
                                        "table7_gamma-inf.csv")["model"])


def test_a_run_under_another_belief_says_the_published_numbers_do_not_apply(runs):
    results = runs["beta"]
    summary = pd.read_csv(results / "comparison" / "summary.csv").set_index("table")
    assert not summary.loc["table7", "published_applies"]
    assert not summary.loc["table8", "published_applies"]
    assert (summary.loc[["table7", "table8"], "within_tolerance"] == 0).all()
    assert "c ~ beta:2,2" in summary.loc["table7", "note"]
    caption = (results / "tables" / "table7_gamma-inf.md").read_text().splitlines()[0]
    assert "c ~ beta:2,2: the published numbers do not apply" in caption


def test_a_model_added_as_the_readme_says_runs_in_the_scikit_learn_configuration_too(
        runs, tmp_path):
    config = write_config(tmp_path, models={"use": ["Prior", "NB", "HGB"],
                                            "baselines": ["Prior"]})
    proc = snakemake("--dry-run", config_file=config, cwd=runs["checkout"],
                     extra_configs=(runs["checkout"] / "config" / "sklearn.yaml",))
    assert "score_1" in proc.stdout + proc.stderr


def test_a_model_defined_in_two_registries_is_refused_at_start_up(runs, tmp_path):
    config = write_config(tmp_path, models={"use": ["Prior", "NB"], "baselines": ["Prior"],
                                            "registry": ["config/models_weka.yaml",
                                                         "config/models.yaml"]})
    proc = snakemake("--dry-run", config_file=config, cwd=runs["checkout"], check=False)
    assert proc.returncode != 0
    assert "'J48' is used twice (also in config/models_weka.yaml)" in proc.stdout + proc.stderr


def test_table_methods_choose_the_columns_of_tables_7_and_8(runs):
    t7 = pd.read_csv(runs["beta"] / "tables" / "table7_gamma-inf.csv")
    assert "score_uniform" in t7.columns and t7["score_uniform"].notna().all()
    t7_paper = pd.read_csv(runs["paper"] / "tables" / "table7_gamma-inf.csv")
    assert "score_uniform" not in t7_paper.columns


def _rendered_text(dom: str) -> str:
    """The page's markup without its scripts (where the report keeps its data as strings)."""
    return re.sub(r"<script\b.*?</script>", "", dom, flags=re.S)


@pytest.mark.skipif(shutil.which("chromium") is None,
                    reason="Debian's chromium is not installed (.ci/run installs it)")
def test_the_report_opens_in_a_browser_on_the_headline_and_the_marked_tables(runs, tmp_path):
    archive = tmp_path / "report.zip"
    config = runs["paper"].parent / "config.yaml"
    snakemake("--report", str(archive), config_file=config)
    assert archive.stat().st_size < 3 * 2**20
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(tmp_path)
    report = tmp_path / "report" / "report.html"
    html = report.read_text()
    assert "UEFSMQ" not in html  # no parquet embedded (base64 of its magic bytes "PAR1")
    assert "data:image/png;base64" not in html  # figures are files beside the page
    linked = set(re.findall(r"data/raw/[0-9a-f]+/[\w.-]+", html))
    assert any(p.endswith(".png") for p in linked)
    assert all((report.parent / p).is_file() for p in linked)
    dom = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
         "--virtual-time-budget=10000", "--dump-dom", report.as_uri()],
        capture_output=True, text=True, timeout=180, check=True,
    ).stdout
    page = _rendered_text(dom)
    summary = pd.read_csv(runs["paper"] / "comparison" / "summary.csv").set_index("table")
    within, cells = summary.loc["table7", ["within_tolerance", "cells"]]
    missing = summary.loc["table7", "missing"]
    assert "Reproduction of Ferri, Hernandez-Orallo and Flach" in page
    assert f"<b>{within} of {cells - missing}</b>" in page  # the headline's count
    assert '<table class="tc">' in page and 'class="differs"' in page
    authors = json.loads((runs["paper"] / "weka" / "authors.json").read_text())
    assert ("weka 3.6.14" if authors["jar"] else "weka 3.9.6") in page  # the software that ran


def test_a_models_threads_and_resources_reach_its_score_jobs(tmp_path):
    registry = tmp_path / "mine.yaml"
    registry.write_text(yaml.safe_dump({"format_version": 1, "models": [{
        "name": "HGB", "estimator": "sklearn.ensemble:HistGradientBoostingClassifier",
        "preprocessing": {"one_hot": True, "impute": "most_frequent", "scale": "none"},
        "threads": 2, "resources": {"mem_mb": 6000, "runtime": 5}}]}))
    config = write_config(tmp_path, models={
        **TINY["models"], "use": [*TINY["models"]["use"], "HGB"],
        "registry": ["config/models_weka.yaml", str(registry)]},
        jobs={"datasets_per_job": 2})
    out = snakemake("--dry-run", config_file=config).stdout
    score = out[out.index("rule score_1:"):]
    score = score[:score.index("\n\n")] if "\n\n" in score else score
    assert "threads: 2" in score
    # the largest mem_mb of the job's models; 60 minutes plus 5 per dataset of the job
    assert "runtime=70" in score and "mem_mb=6000" in score


def test_the_documented_slurm_grouping_covers_every_dataset_job(tmp_path):
    readme = (REPO / "docs" / "cluster.md").read_text()  # where the README sends SLURM users
    section = readme[readme.index("**Fewer, larger jobs**"):]
    block = re.search(r"```bash\n(.*?)```", section, flags=re.S).group(1)
    lines = [line for line in block.splitlines() if line.strip()]
    assert lines[-1].startswith("snakemake --profile profiles/slurm")
    # run the README's lines that build the groups, for a configuration of 26 jobs
    config = write_config(tmp_path, datasets=yaml.safe_load(
        (REPO / "config" / "config.yaml").read_text())["datasets"],
        jobs={"datasets_per_job": 1, "small_dataset_cells": 0})
    script = "\n".join(lines[:-1]).replace("snakemake ", f"snakemake --configfile {config} ")
    shown = subprocess.run(["bash", "-c", script + '\necho "$jobs"; echo $groups'], cwd=REPO,
                           capture_output=True, text=True, check=True).stdout.split("\n")
    assert shown[0] == "26"
    groups = shown[1].split()
    assert groups == [f"{step}_{n}=per_job" for n in range(1, 27)
                      for step in ("score", "evaluate")]
    # and Snakemake takes them, with the README's last line's grouping options
    options = lines[-1].split("--groups $groups")[1].replace("$jobs", shown[0]).split()
    proc = snakemake("--dry-run", "--groups", *groups, *options, config_file=config)
    assert proc.returncode == 0


def test_the_extension_gets_its_own_statistical_tests_and_leaves_the_papers_unchanged(runs):
    from threshold_choice.reproduction import layout

    paper = [layout.significance("", "paper", name) for name in layout.SIGNIFICANCE_TABLES]
    paper += [layout.significance("", "paper", "verdict", "html"),
              layout.significance("", "paper", "cd_methods", "png")]
    for name in paper:
        assert filecmp.cmp(runs["paper"] / name, runs["extended"] / name, shallow=False), name
    assert not (runs["paper"] / "significance" / "extended").exists()
    ranks = pd.read_csv(runs["extended"] / layout.significance("", "extended", "ranks"))
    assert "HGB" in set(ranks.loc[ranks["comparison"] == "models", "item"])
    assert set(ranks["n_datasets"]) == {3}  # haberman, spect_test and the dataset of one's own
