"""The two scopes: the paper's (its datasets, model types and gammas) and the extension (what
a configuration adds), the paper's findings re-judged on the extension, its report page, and
the removal of the outputs of an earlier configuration."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pandas as pd
import pytest

from tests.reproduction.test_comparison import paper_like_runs
from tests.reproduction.test_comparison_scope import with_extensions
from threshold_choice.reproduction import layout
from threshold_choice.reproduction.comparison import NOT_APPLICABLE, qualitative_findings
from threshold_choice.reproduction.scope import (
    REJUDGED_COLUMNS,
    Extension,
    extension_page,
    mark_added,
    paper_gammas,
    rejudge_findings,
)
from threshold_choice.reproduction.stale import remove_stale, stale_outputs
from threshold_choice.reproduction.tables import paper_part, table7

INF = math.inf


@pytest.fixture(scope="module")
def base_runs() -> pd.DataFrame:
    return paper_like_runs()


def with_gamma(runs: pd.DataFrame, gamma: float, shift: float) -> pd.DataFrame:
    """``runs`` plus runs at ``gamma``: copies of the gamma = inf runs, train-optimal moved
    by ``shift``."""
    at = runs[runs["gamma"] == INF].assign(gamma=gamma)
    at.loc[at["method"] == "train-optimal", "loss"] += shift
    return pd.concat([runs, at], ignore_index=True)


def test_the_paper_part_leaves_out_gammas_beyond_the_papers(base_runs):
    runs = with_gamma(with_extensions(base_runs), 32.0, 0.1)
    kept = paper_part(runs)
    assert len(kept) == len(base_runs)
    assert 32.0 not in set(kept["gamma"])
    assert paper_gammas(["inf", 32, "4", 0.5, 0]) == ["inf", "4", "0"]


def test_an_extension_is_what_the_configuration_adds_to_the_papers_scope():
    paper = Extension.of(["haberman", "Spect_test"], ["NB", "Prior"], ["inf", 4])
    assert paper.empty and paper.added().empty
    ext = Extension.of(["haberman", "my-data"], ["NB", "HGB"], ["inf", 32, "0.5"],
                       {"cost_distribution": "beta:2,2"})
    assert not ext.empty
    assert (ext.models, ext.datasets, ext.gammas) == (("HGB",), ("my-data",), ("32", "0.5"))
    assert list(ext.added().itertuples(index=False, name=None)) == [
        ("model", "HGB"), ("dataset", "my-data"), ("gamma", "32"), ("gamma", "0.5"),
        ("conditions", "c ~ beta:2,2")]
    # another belief alone adds no run: the paper's scope, under other conditions
    assert Extension.of(["haberman"], ["NB"], ["inf"], {"cost_distribution": "beta:2,2"}).empty


def test_the_extensions_tables_mark_the_added_rows(base_runs):
    ext = Extension(models=("HGB",), datasets=("my-data",))
    t7 = mark_added(table7(with_extensions(base_runs), INF), "model", ext)
    assert t7.columns[-1] == "added"
    assert set(t7.loc[t7["added"], "model"]) == {"HGB"}
    page = extension_page(ext, {"table7_gamma-inf": t7}, rejudge_findings(
        with_extensions(base_runs), ext))
    assert page.count('<tr class="added">') == 1
    assert '<tr class="added"><td class="key text">HGB</td>' in page
    assert "Model types: HGB" in page and "Datasets: my-data" in page


def test_findings_that_an_added_model_or_dataset_flips_name_it(base_runs):
    # HGB: J48's runs with train-optimal 0.5 worse, so that score-driven wins on its means;
    # my-data: credit-a's runs with train-optimal 0.5 better, so that it wins for J48Unp too
    runs = with_extensions(base_runs)
    ext = Extension(models=("HGB",), datasets=("my-data",))
    judged = rejudge_findings(runs, ext).set_index("id")
    assert list(judged.reset_index().columns) == list(REJUDGED_COLUMNS)
    assert (judged["paper"] == "yes").all()  # the base runs make every claim hold
    claim = judged.loc["means_favour_train_except_j48unp"]
    assert claim["extension"] == "no" and claim["status"].startswith("flips")
    assert claim["flipped_by"] == "model HGB; dataset my-data"  # each alone
    assert "HGB" in claim["evidence"]
    # without my-data, HGB alone flips it
    only_hgb = rejudge_findings(with_extensions(base_runs).query("dataset != 'my-data'"),
                                Extension(models=("HGB",))).set_index("id")
    assert only_hgb.loc["means_favour_train_except_j48unp", "flipped_by"] == "model HGB"
    # the verdicts are those of the findings on each scope
    alone = qualitative_findings(runs).set_index("id")
    assert ((judged["extension"] == "yes") == alone["reproduced"]).all()
    held = judged[judged["extension"] == "yes"]
    assert (held["status"] == "still holds").all() and (held["flipped_by"] == "").all()


def test_a_finding_an_added_gamma_flips_names_the_gamma(base_runs):
    # at gamma 32, between inf and 16, train-optimal is better than at inf: not monotone
    runs = with_gamma(base_runs, 32.0, -0.05)
    judged = rejudge_findings(runs, Extension(gammas=("32",))).set_index("id")
    assert judged.loc["monotone_in_gamma", "paper"] == "yes"
    assert judged.loc["monotone_in_gamma", "extension"] == "no"
    assert judged.loc["monotone_in_gamma", "flipped_by"] == "gamma 32"


def test_under_another_belief_every_finding_is_not_applicable_not_false(base_runs):
    ext = Extension(models=("HGB",), datasets=("my-data",), conditions="c ~ beta:2,2")
    judged = rejudge_findings(with_extensions(base_runs), ext)
    assert len(judged) == 17
    for column in ("paper", "extension", "status"):
        assert (judged[column] == NOT_APPLICABLE).all()
    assert judged["evidence"].str.contains("c ~ beta:2,2").all()


def test_outputs_of_an_earlier_configuration_are_removed_and_nothing_else(tmp_path):
    results = tmp_path / "results"
    current = [layout.table(results, 7, "inf"), layout.figure(results, "fig5", "png"),
               layout.significance(results, "paper", "ranks"),
               layout.significance(results, "paper", "cd_methods", "png")]
    old = [layout.table(results, 7, "16"), layout.table(results, 8, "16")[:-4] + ".md",
           layout.significance(results, "extended", "verdict", "html"),
           layout.significance(results, "extended", "cd_models_score-driven", "pdf"),
           layout.significance(results, "paper", "cd_models_score-driven-z", "png"),
           layout.table(results, 7, "32", extended=True),
           layout.figure(results, "fig6", "png", extended=True),
           layout.extension(results, "page"),
           str(results / "tables" / "extended" / "table7_gamma-inf.csv")]
    mine = [results / "tables" / "my-notes.txt", results / "figures" / "fig5-annotated.png",
            results / "scores" / "gone" / "NB.parquet", tmp_path / "table7_gamma-16.csv"]
    for path in [*current, *old, *mine]:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    assert [str(p) for p in stale_outputs(results, current)] == sorted(old)
    removed = remove_stale(results, current)
    assert sorted(map(str, removed)) == sorted(old)
    assert all(os.path.exists(p) for p in [*current, *mine])
    assert not (results / "extension").exists()  # the extension given up: no empty folder
    assert not (results / "tables" / "extended").exists()
    assert not (results / "significance" / "extended").exists()
    assert stale_outputs(results, current) == []


def test_the_temporary_file_of_a_killed_write_is_removed_by_the_last_rule(tmp_path):
    """A job killed outright (SIGKILL) mid-write leaves its atomic write's hidden temporary
    file; the run's last rule removes it, and no other file."""
    import signal
    import subprocess
    import sys

    from threshold_choice.reproduction.steps import step_stale_outputs

    results = tmp_path / "results"
    target = results / "runs" / "bupa.timings.csv"
    killed = subprocess.run([sys.executable, "-c", (
        "import os, signal, sys\n"
        "from threshold_choice.atomic import atomic_output\n"
        "with atomic_output(sys.argv[1]) as tmp:\n"
        "    tmp.write_text('half')\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"), str(target)])
    assert killed.returncode == -signal.SIGKILL
    (left,) = (results / "runs").iterdir()
    assert left.name.startswith(".bupa.timings.csv.") and not target.exists()
    kept = [results / "runs" / ".my.tmp", results / "notes.tmp",
            results / ".snakemake" / "incomplete" / ".a.csv.abcd1234.tmp"]
    for path in kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    current = [layout.table(results, 7, "inf")]
    Path(current[0]).parent.mkdir(parents=True)
    Path(current[0]).write_text("x")
    step_stale_outputs(results, current, layout.outputs_list(results))
    assert not left.exists()
    assert all(p.exists() for p in [*kept, Path(current[0])])


def test_the_list_of_current_outputs_is_the_same_wherever_the_results_folder_is(tmp_path):
    """outputs.txt names the outputs relative to their results folder, so that a run in
    another folder (a cluster's) writes the same file."""
    from threshold_choice.reproduction.steps import step_stale_outputs

    lists = []
    for name in ("local", "cluster"):
        results = tmp_path / name / "results"
        current = [layout.table(results, 7, "inf"), layout.figure(results, "fig5", "png")]
        for path in current:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text("x")
        step_stale_outputs(results, current, layout.outputs_list(results))
        lists.append(Path(layout.outputs_list(results)).read_text())
    assert lists[0] == lists[1]
    assert lists[0].splitlines() == ["figures/fig5.png", "tables/table7_gamma-inf.csv"]
