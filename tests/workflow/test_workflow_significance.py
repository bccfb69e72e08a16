"""The statistical comparisons of the tiny run (the session's ``tiny_run``: haberman and
spect_test, Prior / NB / J48, two splits, gammas inf and 4): every table and figure of the
paper's scope is written and agrees with runs.parquet and Tables 7 and 8; a gamma beyond the
paper's adds the extended scope."""

from __future__ import annotations

import math
import shutil

import pandas as pd
import pytest
import yaml

from tests.workflow.test_workflow import TINY, snakemake
from threshold_choice.reproduction import layout
from threshold_choice.reproduction.significance import POOLED

pytestmark = pytest.mark.slow

METHODS = TINY["evaluation"]["methods"]


def test_the_paper_scope_has_every_table_and_figure_and_no_extension(tiny_run):
    results, _, _ = tiny_run
    for name in layout.SIGNIFICANCE_TABLES:
        for ext in ("csv", "md", "tex"):
            assert (results / layout.significance("", "paper", name, ext)).is_file()
    for stem in [layout.significance_figure(m) for m in (None, *METHODS)]:
        png = results / layout.significance("", "paper", stem, "png")
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (results / layout.significance("", "paper", stem, "pdf")).read_bytes()[:4] == \
            b"%PDF"
    assert "gamma = inf:" in (results / layout.significance("", "paper", "verdict", "html")
                              ).read_text()
    assert not (results / "significance" / "extended").exists()


def _read(results, name):
    return pd.read_csv(results / layout.significance("", "paper", name))


def test_the_ranks_and_tests_agree_with_the_runs(tiny_run):
    results, _, _ = tiny_run
    runs = pd.read_parquet(results / "runs.parquet")
    friedman = _read(results, "friedman")
    assert set(friedman["n_datasets"]) == {2}
    assert set(friedman.loc[friedman["comparison"] == "methods", "k"]) == {4}
    assert set(friedman.loc[friedman["comparison"] == "models", "k"]) == {3}
    assert set(friedman.loc[friedman["comparison"] == "models", "under"]) == set(METHODS)
    ranks = _read(results, "ranks")
    at_inf = ranks[(ranks["comparison"] == "methods") & (ranks["gamma"] == math.inf)]
    # the methods' blocks are Table 8's cells: the mean loss over them is the mean of Table 8
    table8 = pd.read_csv(results / "tables" / "table8_gamma-inf.csv")
    for row in at_inf.itertuples(index=False):
        assert row.mean_loss == pytest.approx(table8[row.item.replace("-", "_")].mean())
    # ... and the runs' means over splits, then model types, then datasets
    inf = runs[(runs["gamma"] == math.inf) & (runs["model"] != "Prior")]
    means = inf.groupby(["dataset", "method"])["loss"].mean().groupby("method").mean()
    assert at_inf.set_index("item")["mean_loss"].to_dict() == pytest.approx(means.to_dict())
    pairs = _read(results, "pairs")
    assert (pairs["left_wins"] + pairs["right_wins"] + pairs["ties"]).eq(2).all()
    assert len(pairs[pairs["under"] == POOLED]) == 2 * 6


def test_the_verdict_tests_the_shares_of_table7(tiny_run):
    results, _, _ = tiny_run
    verdict = _read(results, "verdict")
    table7 = pd.read_csv(results / "tables" / "table7_gamma-inf.csv").set_index("model")
    shares = verdict[(verdict["gamma"] == math.inf) & (verdict["conclusion"] == "sc_vs_tr")]
    assert len(shares)
    for row in shares.itertuples(index=False):
        assert row.counted.startswith(f"sc_vs_tr = {table7.loc[row.under, 'sc_vs_tr']:.3f}")
        winner = "score-driven" if table7.loc[row.under, "sc_vs_tr"] > 0.5 else "train-optimal"
        assert row.claim.startswith(winner)
    # two datasets: no sign test can reach 0.05 (the smallest two-sided p is 0.5)
    assert not verdict["significant"].any()
    assert "gamma = inf:" in (results / layout.significance("", "paper", "verdict", "md")
                              ).read_text()


def test_the_diagrams_data_are_the_ranks(tiny_run):
    results, _, _ = tiny_run
    ranks = _read(results, "ranks")
    data = pd.read_csv(results / layout.significance("", "paper", "cd_methods", "csv"))
    drawn = data[data["kind"] == "rank"]
    expected = ranks[ranks["comparison"] == "methods"]
    assert sorted(drawn["x"]) == pytest.approx(sorted(expected["mean_rank"]))
    assert set(drawn["panel"]) == {"\u03b3 = \u221e", "\u03b3 = 4"}


def test_a_gamma_beyond_the_papers_adds_the_extended_scope(tiny_run, tmp_path):
    results, config, _ = tiny_run
    copy = tmp_path / "results"
    shutil.copytree(results, copy, ignore=shutil.ignore_patterns("cache", "significance"))
    changed = yaml.safe_load(config.read_text())
    changed["results"] = str(copy)
    changed["evaluation"] = {**changed["evaluation"], "gammas": ["inf", 4, 32]}
    (tmp_path / "changed.yaml").write_text(yaml.safe_dump(changed))
    # the copy's outputs have no Snakemake records: the evaluation is asked for again
    snakemake("significance_paper", "significance_extended", "--forcerun", "evaluate_1",
              config_file=tmp_path / "changed.yaml")
    extended = pd.read_csv(copy / layout.significance("", "extended", "friedman"))
    assert set(extended["gamma"].astype(float)) == {math.inf, 4.0, 32.0}
    paper = pd.read_csv(copy / layout.significance("", "paper", "friedman"))
    assert set(paper["gamma"].astype(float)) == {math.inf, 4.0}
    # the paper's scope is the unextended run's
    pd.testing.assert_frame_equal(paper, _read(results, "friedman"))
