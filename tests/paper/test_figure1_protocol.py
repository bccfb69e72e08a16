"""Fig. 1 on the authors' own protocol: J48Unp fitted on 1% of spambase (their split of
set.seed(0)), tested on the other 99%: the tree of Appendix B (end-to-end, the real Weka)."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.workflow.test_workflow import snakemake, write_config
from threshold_choice.reproduction.figures import figure1_data, toy_example

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fig1(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fig1")
    config = write_config(tmp, datasets=["spambase"], splits={"iterations": 1},
                          models={"use": ["J48Unp", "Prior"], "baselines": ["Prior"]})
    results = tmp / "results"
    snakemake(str(results / "figures" / "fig1.csv"), config_file=config)
    return results


def test_fig1_is_fitted_on_1_percent_and_tested_on_the_other_99(fig1):
    log = (fig1 / "logs" / "figures" / "fig1.log").read_text()
    assert "J48Unp trained on 47 rows, tested on 4554" in log  # Appendix B's sizes
    assert not (fig1 / "scores").exists()  # it needs no run of the study


def test_fig1_gives_the_appendix_b_trees_expected_losses(fig1):
    ours = pd.read_csv(fig1 / "figures" / "fig1.csv")
    ours = ours[ours["kind"] == "expected_loss"].set_index("series")["y"]
    toy = toy_example()  # the leaf counts Appendix B prints for that tree
    published = figure1_data(toy.test_y, toy.test_s, toy.train_y, toy.train_s)
    published = published[published["kind"] == "expected_loss"].set_index("series")["y"]
    # the same tree (leaves and training counts); a few of the 4554 test rows fall in other
    # leaves than Appendix B counts (Weka 3.6 against the authors' 3.9.1)
    assert set(ours.index) == set(published.index)
    for method in published.index:
        assert ours[method] == pytest.approx(published[method], abs=1e-3), method


def test_fig1s_legend_against_the_papers_printed_areas(fig1):
    # docs/paper-notes.md: with the tables' 1000-point grid, train-optimal prints 0.1979 (the
    # paper's figure script used 10 000 points: 0.1977); rate-driven prints the paper's
    # 0.1938 on the fitted tree's test rows, while Appendix B's recovered counts (Figs 8, 9)
    # give 0.1939
    ours = pd.read_csv(fig1 / "figures" / "fig1.csv")
    ours = ours[ours["kind"] == "expected_loss"].set_index("series")["y"].round(4)
    assert ours.to_dict() == {"test-optimal": 0.1583, "train-optimal": 0.1979,
                              "score-driven": 0.1743, "rate-driven": 0.1938}
    toy = toy_example()
    counts = figure1_data(toy.test_y, toy.test_s, toy.train_y, toy.train_s)
    counts = counts[counts["kind"] == "expected_loss"].set_index("series")["y"]
    assert round(counts["rate-driven"], 4) == 0.1939
