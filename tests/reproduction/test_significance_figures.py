"""The critical-difference diagrams and the significance step, on runs made here."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pandas as pd
import pytest

from tests.reproduction.test_significance import METHODS, make_runs
from threshold_choice.errors import UserError
from threshold_choice.reproduction import layout
from threshold_choice.reproduction import significance as sig
from threshold_choice.reproduction.significance_figures import cd_data, cd_figure, draw_cd
from threshold_choice.reproduction.steps import step_significance

MODELS = ("IBK1", "IBK10", "J48", "J48Unp", "Logist", "NB", "PART", "Prior", "Random", "SVM",
          "SVMp", "Stump")
GAMMAS = (math.inf, 16.0, 8.0, 4.0, 2.0, 1.0, 0.0)


@pytest.fixture(scope="module")
def paper_sized():
    """A study the paper's size: 12 model types, 7 gammas (8 datasets, one split)."""
    runs = make_runs(datasets=tuple(f"d{i}" for i in range(8)), models=MODELS, gammas=GAMMAS,
                     splits=(1,))
    return sig.study(runs, gammas=GAMMAS, methods=METHODS, models=list(MODELS),
                     baselines=["Prior", "Random"], settings=sig.Settings(samples=1000))


def test_the_figure_data_are_the_studys_ranks_and_critical_difference(paper_sized):
    data = cd_data(paper_sized.ranks, paper_sized.friedman, comparison="models",
                   under="train-optimal")
    assert list(dict.fromkeys(data["panel"])) == [
        "\u03b3 = \u221e", "\u03b3 = 16", "\u03b3 = 8", "\u03b3 = 4", "\u03b3 = 2", "\u03b3 = 1",
        "\u03b3 = 0"]
    ranks = paper_sized.ranks
    at0 = ranks[(ranks["comparison"] == "models") & (ranks["under"] == "train-optimal")
                & (ranks["gamma"] == 0.0)].set_index("item")["mean_rank"]
    drawn = data[(data["panel"] == "\u03b3 = 0") & (data["kind"] == "rank")]
    assert dict(zip(drawn["series"], drawn["x"], strict=True)) == at0.to_dict()
    test = paper_sized.friedman.set_index(["comparison", "under", "gamma"]).loc[
        ("models", "train-optimal", 0.0)]
    cd = data[(data["panel"] == "\u03b3 = 0") & (data["kind"] == "cd")]["x"].item()
    assert cd == test["critical_difference"]
    bars = data[(data["panel"] == "\u03b3 = 0") & (data["kind"] == "clique")]
    expected = sig.cliques(at0.to_numpy(), cd)
    r = np.sort(at0.to_numpy())
    assert [tuple(b["x"]) for _, b in bars.groupby("series", sort=False)] == [
        (r[lo], r[hi]) for lo, hi in expected]


def _overlaps(fig) -> list[tuple[str, str]]:
    """The pairs of texts of ``fig`` whose drawn boxes overlap."""
    from matplotlib.text import Text

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [t for t in fig.findobj(Text) if t.get_text() and t.get_visible()]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    return [(a, b) for (a, box_a), (b, box_b) in combinations(boxes, 2)
            if box_a.overlaps(box_b)]


def test_twelve_model_types_at_seven_gammas_are_drawn_without_overlapping_texts(paper_sized):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    data = cd_data(paper_sized.ranks, paper_sized.friedman, comparison="models",
                   under="score-driven")
    fig = draw_cd(data, title="Model types under score-driven", alpha=0.05)
    FigureCanvasAgg(fig)
    assert _overlaps(fig) == []
    names = [t.get_text() for t in fig.texts] + [
        t.get_text() for ax in fig.axes for t in ax.texts]
    for model in MODELS:  # every name, once per panel
        assert sum(model in n.split() or f"{model} (" in n for n in names) >= 7, model
    # every label stays inside the figure
    fig.canvas.draw()
    width = fig.bbox.width
    for ax in fig.axes:
        for text in ax.texts:
            box = text.get_window_extent(fig.canvas.get_renderer())
            assert box.x0 >= 0 and box.x1 <= width, text.get_text()


def test_the_figure_files_hold_the_image_and_its_data(paper_sized, tmp_path):
    files = [tmp_path / "cd.png", tmp_path / "cd.pdf", tmp_path / "cd.csv"]
    cd_figure(paper_sized.ranks, paper_sized.friedman, files, comparison="methods",
              under=sig.POOLED, title="methods", alpha=0.05)
    assert files[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert files[1].read_bytes()[:4] == b"%PDF"
    written = pd.read_csv(files[2])
    expected = cd_data(paper_sized.ranks, paper_sized.friedman, comparison="methods",
                       under=sig.POOLED)
    pd.testing.assert_frame_equal(written, expected, check_dtype=False)


def test_a_comparison_without_results_draws_a_note():
    empty = sig.study(make_runs(models=("NB",)), gammas=[math.inf], methods=METHODS,
                      models=["NB"], baselines=[], settings=sig.Settings(samples=500))
    data = cd_data(empty.ranks, empty.friedman, comparison="models", under="train-optimal")
    assert data.empty  # one model type: nothing to compare
    fig = draw_cd(data, title="none", alpha=0.05)
    assert any("no comparison" in t.get_text() for t in fig.texts)


def test_the_step_writes_every_table_and_figure_of_a_scope(tmp_path):
    runs = make_runs(datasets=("haberman", "bupa", "my-data"), models=("NB", "J48", "HGB"),
                     gammas=(math.inf, 32.0, 0.0))
    runs.to_parquet(tmp_path / "runs.parquet")
    for scope in layout.SIGNIFICANCE_SCOPES:
        tables = {n: layout.significance(tmp_path, scope, n)
                  for n in layout.SIGNIFICANCE_TABLES}
        figures = {layout.significance_figure(m): [
            layout.significance(tmp_path, scope, layout.significance_figure(m), ext)
            for ext in ("png", "csv")] for m in (None, "train-optimal")}
        page = tmp_path / f"{scope}.html"
        step_significance(tmp_path / "runs.parquet", tables, figures, scope=scope,
                          verdict_page=page,
                          methods=METHODS, model_methods=["train-optimal"],
                          gammas=["inf", "32", "0"], baselines=[],
                          settings={"samples": 1000, "rope": 0.02},
                          formats=["csv", "md", "tex"])
        friedman = pd.read_csv(tables["friedman"])
        expected_n = 2 if scope == "paper" else 3
        assert set(friedman["n_datasets"]) == {expected_n}
        gammas = {0.0, math.inf} if scope == "paper" else {0.0, 32.0, math.inf}
        assert set(friedman["gamma"].astype(float)) == gammas
        ranks = pd.read_csv(tables["ranks"])
        models = set(ranks.loc[ranks["comparison"] == "models", "item"])
        assert models == ({"NB", "J48"} if scope == "paper" else {"NB", "J48", "HGB"})
        assert set(pd.read_csv(tables["pairs"])["rope"]) == {0.02}
        text = page.read_text()
        assert "gamma = 32:" in text if scope == "extended" else "gamma = 32:" not in text
        assert text.count("<tr") == 1 + len(pd.read_csv(tables["verdict"]))
        md = (tmp_path / "significance" / scope / "verdict.md").read_text()
        assert "ROPE +/-0.02" in md and ("paper's scope" in md) == (scope == "paper")
        assert (tmp_path / "significance" / scope / "pairs.tex").read_text().startswith(
            r"\begin{table}")
        for files in figures.values():
            assert all(p.endswith((".png", ".csv")) for p in files)
            assert pd.read_csv(files[1])["kind"].eq("rank").any()


def test_the_step_refuses_a_table_it_does_not_write(tmp_path):
    make_runs().to_parquet(tmp_path / "runs.parquet")
    with pytest.raises(UserError, match="writes the tables"):
        step_significance(tmp_path / "runs.parquet", {"summary": tmp_path / "s.csv"}, {},
                          scope="paper", methods=METHODS, gammas=["inf"], baselines=[])
