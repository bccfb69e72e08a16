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
from tests.workflow.report_pages import (
    build_report,
    check_front_page,
    check_table_pages,
    chromium_dom,
    needs_chromium,
    rendered_text,
)
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


#: the folders of the paper's scope: every file in them is the paper's
PAPER_FOLDERS = ("tables", "figures", "comparison")
#: what the extended run adds to the tiny configuration
ADDED = {"models": ["HGB"], "datasets": ["my-haberman"], "gammas": ["32"]}


def paper_files(results):
    """Every file of the paper's scope in ``results`` (relative paths)."""
    return sorted(str(p.relative_to(results)) for folder in PAPER_FOLDERS
                  for p in (results / folder).rglob("*") if p.is_file())


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
        datasets=[*TINY["datasets"], *ADDED["datasets"]],
        models={**TINY["models"], "use": [*TINY["models"]["use"], *ADDED["models"]]},
        evaluation={**TINY["evaluation"],
                    "gammas": [*TINY["evaluation"]["gammas"], *map(int, ADDED["gammas"])]},
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


def test_an_added_model_dataset_and_gamma_leave_every_paper_output_byte_identical(runs):
    paper, extended = runs["paper"], runs["extended"]
    names = paper_files(paper)
    # the paper's tables at both gammas in every format, its figures and their data, the
    # comparison and the report's page
    assert {"tables/table5.csv", "tables/table8_gamma-4.tex", "figures/fig5.csv",
            "figures/fig6.png", "comparison/findings.csv", "comparison/report.rst"} <= set(names)
    assert paper_files(extended) == names  # nothing added to the paper's folders
    differ = [name for name in names
              if not filecmp.cmp(paper / name, extended / name, shallow=False)]
    assert not differ, f"the extension changed the paper's {differ}"
    # a configuration that adds nothing has no extension
    assert not (paper / "extension").exists()
    assert "extension" not in (paper / "outputs.txt").read_text()


def test_added_models_datasets_and_gammas_get_the_extensions_tables(runs):
    folder = runs["extended"] / "extension" / "tables"
    t7 = pd.read_csv(folder / "table7_gamma-inf.csv")
    assert set(t7["model"]) == {*TINY["models"]["use"], "HGB"}
    assert set(t7.loc[t7["added"], "model"]) == {"HGB"}  # the added row marked
    t8 = pd.read_csv(folder / "table8_gamma-inf.csv").set_index("dataset")
    assert set(t8.index) == {*TINY["datasets"], "my-haberman"}
    assert list(t8.index[t8["added"]]) == ["my-haberman"]
    assert t8.loc["my-haberman", "number"] == 27  # numbered after the paper's 26
    # the dataset of one's own is a copy of haberman: its row equals haberman's
    assert t8.loc["my-haberman", "AUC"] == pytest.approx(t8.loc["haberman", "AUC"])
    # the extension's Table 5 numbers it as its Tables 7 and 8 do
    t5 = pd.read_csv(folder / "table5.csv").set_index("dataset")
    assert t5.loc["my-haberman", "number"] == 27 and t5.loc["my-haberman", "added"]
    assert t5.loc["my-haberman", "instances"] == t5.loc["Haberman", "instances"]
    caption = (folder / "table7_gamma-32.md").read_text().splitlines()[0]
    assert caption.startswith("Table 7, extension")
    assert {p.name for p in folder.glob("table8_gamma-*.csv")} == {
        f"table8_gamma-{g}.csv" for g in ("inf", "4", "32")}
    # its figures cover every run, and say so
    fig5 = pd.read_csv(runs["extended"] / "extension" / "figures" / "fig5.csv")
    assert "HGB" in set(fig5["series"]) and 32.0 in set(fig5["x"].astype(float))
    assert "HGB" not in set(pd.read_csv(runs["paper"] / "figures" / "fig5.csv")["series"])
    added = pd.read_csv(runs["extended"] / "extension" / "added.csv")
    assert {(k, str(n)) for k, n in added.itertuples(index=False)} == {
        ("model", "HGB"), ("dataset", "my-haberman"), ("gamma", "32")}


def test_the_papers_findings_are_judged_again_on_the_extension(runs):
    judged = pd.read_csv(runs["extended"] / "extension" / "findings.csv",
                         keep_default_na=False).set_index("id")
    paper = pd.read_csv(runs["paper"] / "comparison" / "findings.csv").set_index("id")
    assert len(judged) == len(paper) == 17
    # the paper's verdicts are the comparison's
    for fid, row in paper.iterrows():
        expected = ("not checkable" if row["evidence"].startswith("not checkable")
                    else "yes" if row["reproduced"] else "no")
        assert judged.loc[fid, "paper"] == expected, fid
    # the monotone claim is judged on the added gamma too
    assert "32" in judged.loc["monotone_in_gamma", "evidence"]
    flipped = judged[judged["status"].str.startswith("flips")]
    assert (flipped["flipped_by"] != "").all()


def test_a_run_under_another_belief_says_the_published_numbers_do_not_apply(runs):
    results = runs["beta"]
    findings = pd.read_csv(results / "comparison" / "findings.csv")
    assert (findings["reproduced"] == "not applicable").all()  # not False
    assert not (results / "extension").exists()  # another belief alone adds no run
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


@needs_chromium
def test_the_report_opens_in_a_browser_on_the_headline_and_the_marked_tables(runs, tmp_path):
    report = build_report(runs["paper"].parent / "config.yaml", tmp_path)
    assert (tmp_path / "report.zip").stat().st_size < 3 * 2**20
    with zipfile.ZipFile(tmp_path / "report.zip") as zipped:  # Tables 7 and 8, rendered
        assert sum(n.endswith(("report_table7.html", "report_table8.html"))
                   for n in zipped.namelist()) == 2
    html = report.read_text()
    assert "UEFSMQ" not in html  # no parquet embedded (base64 of its magic bytes "PAR1")
    assert "data:image/png;base64" not in html  # figures are files beside the page
    linked = set(re.findall(r"data/raw/[0-9a-f]+/[\w.-]+", html))
    assert any(p.endswith(".png") for p in linked)
    assert all((report.parent / p).is_file() for p in linked)
    page = check_front_page(report, runs["paper"])
    assert '<table class="tc">' in page and 'class="differs"' in page
    authors = json.loads((runs["paper"] / "weka" / "authors.json").read_text())
    assert ("weka 3.6.14" if authors["jar"] else "weka 3.9.6") in page  # the software that ran
    check_table_pages(report, ["4", "inf"])  # numeric order, whatever the config's


@needs_chromium
@pytest.mark.parametrize("run", ["extended", "beta"])
def test_the_reports_of_an_extended_run_and_of_another_belief_open_on_their_front_page(
        runs, run, tmp_path):
    cwd = runs["checkout"] if run == "extended" else REPO
    report = build_report(runs[run].parent / "config.yaml", tmp_path, cwd=cwd)
    page = check_front_page(report, runs[run])
    if run == "beta":  # the belief is named where the published numbers are set aside
        assert "c ~ beta:2,2" in page
    else:  # the comparison with the paper is the paper run's
        assert page.count('class="differs"') > 0


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


@needs_chromium
def test_the_extended_runs_report_has_the_extension_with_its_added_rows_marked(runs, tmp_path):
    archive = tmp_path / "report.zip"
    snakemake("--report", str(archive), config_file=runs["extended"].parent / "config.yaml",
              cwd=runs["checkout"])
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(tmp_path)
    report = tmp_path / "report" / "report.html"
    html = report.read_text()
    # the Extension category holds its page and figures, each captioned
    linked = set(re.findall(r"data/raw/[0-9a-f]+/[\w.-]+", html))
    pages = [report.parent / p for p in linked if p.endswith("/page.html")]
    assert len(pages) == 1 and pages[0].is_file()
    assert '"Extension"' in html or "'Extension'" in html
    for page in (report, pages[0]):
        dom = chromium_dom(page)
        assert "System Message" not in dom, page.name
    page = rendered_text(dom)  # the Extension page, as chromium rendered it
    assert "Extension: the study beyond the paper's scope" in page
    assert '<tr class="added"><td class="key text">HGB</td>' in page
    assert '<tr class="added"><td class="key text">my-haberman</td>' not in page  # Table 8
    assert re.search(r'<tr class="added"><td>27</td><td class="key text">my-haberman</td>',
                     page)
    assert "The paper's findings, re-judged on the extension" in page
    assert "Gammas: 32" in page


def test_outputs_a_configuration_no_longer_makes_are_removed(tiny_run, tmp_path):
    """A gamma removed from the configuration takes its tables with it, and so does the
    extension it made; one's own files in the same folders stay."""
    cache = yaml.safe_load(tiny_run[1].read_text())["cache"]
    shutil.copytree(cache, tmp_path / "shared-cache")
    settings = {"datasets": ["haberman"], "models": {"use": ["Prior", "NB"],
                                                     "baselines": ["Prior"]}}
    config = write_config(tmp_path, **settings, evaluation={
        **TINY["evaluation"], "gammas": ["inf", 4, 32]})
    snakemake(config_file=config)
    results = tmp_path / "results"
    assert (results / "extension" / "tables" / "table7_gamma-32.csv").is_file()
    assert (results / "significance" / "extended" / "verdict.csv").is_file()
    (results / "tables" / "my-notes.md").write_text("mine")
    config = write_config(tmp_path, **settings, evaluation={
        **TINY["evaluation"], "gammas": ["inf"]})
    snakemake(config_file=config)
    assert sorted(p.name for p in (results / "tables").iterdir()) == [
        "my-notes.md", *(f"{t}.{ext}" for t in ("table5", "table7_gamma-inf",
                                                 "table8_gamma-inf")
                         for ext in ("csv", "md", "tex"))]
    assert not (results / "extension").exists()
    assert not (results / "significance" / "extended").exists()  # its tests went with it
    assert (results / "significance" / "paper" / "verdict.csv").is_file()
    log = (results / "logs" / "stale_outputs.log").read_text()
    assert "table7_gamma-4.csv: an output of an earlier configuration" in log
    assert (results / "outputs.txt").read_text().splitlines() == sorted(
        (results / "outputs.txt").read_text().splitlines())
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
