"""Extending the study keeps the paper's comparison: a model type and a dataset of one's own
go to the extended tables only; a run under another belief about c says the published numbers
do not apply (end-to-end runs of the workflow on tiny configurations)."""

from __future__ import annotations

import copy
import filecmp
import re
import shutil
import subprocess

import pandas as pd
import pytest
import yaml

from tests.conftest import REPO
from tests.test_workflow import TINY, snakemake, write_config

pytestmark = pytest.mark.slow

HGB = {
    "name": "HGB",
    "estimator": "sklearn.ensemble:HistGradientBoostingClassifier",
    "params": {"max_iter": 20},
    "preprocessing": {"one_hot": True, "impute": "most_frequent", "scale": "none"},
    "seeded": True,
}
PAPER_FILES = [
    *(f"tables/table{t}_gamma-{g}.{ext}" for t in (7, 8) for g in ("inf", "4")
      for ext in ("csv", "md", "tex")),
    *(f"comparison/{name}.csv" for name in ("summary", "findings", "table5_diff",
                                            "table7_diff", "table8_diff")),
]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Results of the tiny paper configuration, of the same with HGB and a dataset of one's
    own added, and of the paper configuration under c ~ Beta(2, 2)."""
    tmp = tmp_path_factory.mktemp("extend")
    registry = yaml.safe_load((REPO / "config" / "datasets.yaml").read_text())
    mine = copy.deepcopy(registry["datasets"]["haberman"])
    mine["table5"] = {"number": 99, "name": "my-haberman"}
    registry["datasets"]["my-haberman"] = mine
    (tmp / "datasets.yaml").write_text(yaml.safe_dump(registry, sort_keys=False))
    models = yaml.safe_load((REPO / "config" / "models_weka.yaml").read_text())
    models["models"].append(HGB)
    (tmp / "models.yaml").write_text(yaml.safe_dump(models, sort_keys=False))
    out = {}
    for name in ("paper", "extended", "beta"):
        (tmp / name).mkdir()
    paper = write_config(tmp / "paper")
    snakemake(config_file=paper)
    out["paper"] = tmp / "paper" / "results"
    extended = write_config(
        tmp / "extended",
        datasets=[*TINY["datasets"], "my-haberman"],
        models={**TINY["models"], "use": [*TINY["models"]["use"], "HGB"],
                "registry": str(tmp / "models.yaml")},
    )
    config = yaml.safe_load(extended.read_text())
    config["data"]["registry"] = str(tmp / "datasets.yaml")
    extended.write_text(yaml.safe_dump(config))
    snakemake(config_file=extended)
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
    report = tmp_path / "report.html"
    config = runs["paper"].parent / "config.yaml"
    snakemake("--report", str(report), config_file=config)
    html = report.read_text()
    assert "UEFSMQ" not in html  # no parquet embedded (base64 of its magic bytes "PAR1")
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
    assert "weka 3.9.6" in page  # the software that ran
