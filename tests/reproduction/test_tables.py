"""Tables 7 and 8 from small hand-made ``runs`` frames, and the table writers."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from threshold_choice.errors import UserError
from threshold_choice.reproduction.tables import (
    TABLE7_COLUMNS,
    TABLE8_COLUMNS,
    table7,
    table8,
    write_table,
)
from threshold_choice.uncertainty import gamma_label

INF = math.inf
METHODS = ("test-optimal", "train-optimal", "score-driven", "rate-driven")


def run_rows(dataset, model, split, losses, *, gamma=INF, auc=0.5, bs=0.2, cl=0.1, rl=0.1):
    """The long-format rows of one run: ``losses`` = (test, train, score, rate)."""
    return [
        {
            "dataset": dataset,
            "model": model,
            "split": split,
            "gamma": gamma,
            "method": m,
            "loss": loss,
            "AUC": auc,
            "BS": bs,
            "MAE": 0.3,
            "CL": cl,
            "RL": rl,
            "RL_conv": 0.05,
            "LogLoss": 0.6,
            "pi0": 0.4,
            "pi1": 0.6,
        }
        for m, loss in zip(METHODS, losses, strict=True)
    ]


@pytest.fixture
def runs() -> pd.DataFrame:
    rows = []
    # J48: 2 datasets x 2 splits at gamma = inf
    rows += run_rows("credit-a", "J48", 1, (0.10, 0.20, 0.25, 0.30), auc=0.7, bs=0.1, cl=0.0)
    rows += run_rows("credit-a", "J48", 2, (0.10, 0.30, 0.20, 0.40), auc=0.8, bs=0.2, cl=0.1)
    rows += run_rows("vote", "J48", 1, (0.05, 0.10, 0.10, 0.05), auc=0.9, bs=0.3, cl=0.2)
    rows += run_rows("vote", "J48", 2, (0.05, 0.20, 0.25, 0.15), auc=1.0, bs=0.4, cl=0.3)
    # NB: train-optimal always the best; rate-driven ties train once (within rounding)
    rows += run_rows("credit-a", "NB", 1, (0.12, 0.14, 0.30, 0.14 + 1e-15), auc=0.6)
    rows += run_rows("credit-a", "NB", 2, (0.12, 0.16, 0.30, 0.20), auc=0.6)
    rows += run_rows("vote", "NB", 1, (0.02, 0.04, 0.10, 0.06), auc=0.6)
    rows += run_rows("vote", "NB", 2, (0.02, 0.06, 0.10, 0.08), auc=0.6)
    # a baseline, which Table 8 leaves out (its losses would move the means a lot)
    for ds in ("credit-a", "vote"):
        for split in (1, 2):
            rows += run_rows(ds, "Prior", split, (0.9, 0.9, 0.9, 0.9))
    # a user-added model type on a dataset unknown to Table 5
    rows += run_rows("mydata", "Zed", 1, (0.50, 0.60, 0.70, 0.80))
    # another gamma, which must not leak into the gamma = inf tables
    rows += run_rows("credit-a", "J48", 1, (0.9, 0.9, 0.9, 0.9), gamma=0.0)
    return pd.DataFrame(rows).sample(frac=1.0, random_state=3)  # order must not matter


def test_table7_means_and_shares_by_hand(runs):
    t = table7(runs, INF).set_index("model")
    assert list(t.reset_index().columns) == list(TABLE7_COLUMNS)
    j48 = t.loc["J48"]
    assert j48["AUC"] == pytest.approx((0.7 + 0.8 + 0.9 + 1.0) / 4)
    assert j48["BS"] == pytest.approx(0.25)
    assert j48["CL"] == pytest.approx(0.15)
    assert j48["test_optimal"] == pytest.approx(0.075)
    assert j48["train_optimal"] == pytest.approx(0.20)
    assert j48["score_driven"] == pytest.approx(0.20)
    assert j48["rate_driven"] == pytest.approx(0.225)
    # train >= score in runs 2 and 3 (a tie); train >= rate in runs 3 and 4
    assert j48["sc_vs_tr"] == pytest.approx(0.5)
    assert j48["rd_vs_tr"] == pytest.approx(0.5)
    nb = t.loc["NB"]
    assert nb["train_optimal"] == pytest.approx(0.10)
    assert nb["sc_vs_tr"] == 0.0
    # 0.14 vs 0.14 + 1e-15 is a tie, counted as "better or equal"
    assert nb["rd_vs_tr"] == pytest.approx(0.25)
    assert t.loc["Prior", "sc_vs_tr"] == 1.0


def test_table7_row_order_published_then_extra(runs):
    assert list(table7(runs, INF)["model"]) == ["J48", "NB", "Prior", "Zed"]
    custom = table7(runs, INF, model_order=["Zed", "NB"])
    assert list(custom["model"]) == ["Zed", "NB", "J48", "Prior"]


def test_table7_other_gamma_and_missing_gamma(runs):
    t0 = table7(runs, 0.0)
    assert list(t0["model"]) == ["J48"]
    assert t0.loc[0, "test_optimal"] == pytest.approx(0.9)
    with pytest.raises(UserError, match="no runs at gamma = 4"):
        table7(runs, 4.0)


def test_duplicated_runs_are_refused(runs):
    with pytest.raises(UserError, match="duplicated"):
        table7(pd.concat([runs, runs.head(1)]), INF)


def test_missing_column_is_refused(runs):
    with pytest.raises(UserError, match="loss"):
        table7(runs.drop(columns="loss"), INF)


def test_table8_excludes_baselines_numbers_and_sorts(runs):
    t = table8(runs, INF)
    assert list(t.columns) == list(TABLE8_COLUMNS)
    # test-optimal means: vote (0.05+0.05+0.02+0.02)/4 = 0.035, credit-a 0.11, mydata 0.5
    assert list(t["dataset"]) == ["vote", "credit-a", "mydata"]
    assert t["test_optimal"].tolist() == pytest.approx([0.035, 0.11, 0.5])
    assert t.loc[0, "number"] == 26 and t.loc[1, "number"] == 6
    assert pd.isna(t.loc[2, "number"])
    credit = t.iloc[1]
    assert credit["train_optimal"] == pytest.approx((0.20 + 0.30 + 0.14 + 0.16) / 4)
    assert credit["sc_vs_tr"] == pytest.approx(1 / 4)  # only J48 split 2
    # with the baselines included the Prior rows would dominate
    with_prior = table8(runs, INF, baselines=())
    assert with_prior.set_index("dataset").loc["vote", "test_optimal"] > 0.2


def test_table8_sort_ties_by_number(runs):
    # give vote and credit-a the same test-optimal mean: credit-a (6) before vote (26)
    same = runs.copy()
    mask = (same["method"] == "test-optimal") & (same["model"] != "Prior")
    same.loc[mask & same["dataset"].isin(["vote", "credit-a"]), "loss"] = 0.07
    assert list(table8(same, INF)["dataset"][:2]) == ["credit-a", "vote"]


def test_table8_custom_numbers(runs):
    t = table8(runs, INF, numbers={"MyData": 99, "vote": 1, "credit-a": 2})
    assert t.set_index("dataset")["number"].to_dict() == {"vote": 1, "credit-a": 2, "mydata": 99}


@pytest.mark.parametrize(
    ("gamma", "label"), [(INF, "inf"), ("inf", "inf"), (16.0, "16"), (0, "0"), (0.5, "0.5")]
)
def test_gamma_label(gamma, label):
    assert gamma_label(gamma) == label


# -- writers ----------------------------------------------------------------------------------


@pytest.fixture
def small_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "model": ["A_1", "B", "C"],
            "test_optimal": [0.05, 0.1, 0.1],
            "train_optimal": [0.190, 0.2004, 0.40],
            "score_driven": [0.200, 0.1996, 0.30],
            "rate_driven": [0.221, 0.30, 0.123456789012345],
            "sc_vs_tr": [0.62, 0.5, 0.5004],
            "rd_vs_tr": [0.3, 0.7, 0.0],
        }
    )


def md_rows(text: str) -> list[list[str]]:
    lines = [ln for ln in text.splitlines() if ln.startswith("| ")]
    return [[c.strip() for c in ln.strip("|").split("|")] for ln in lines]


def test_write_table_files_and_full_precision_csv(small_table, tmp_path):
    paths = write_table(small_table, tmp_path / "sub" / "t7", caption="Table 7")
    assert {p.name for p in paths.values()} == {"t7.csv", "t7.md", "t7.tex"}
    back = pd.read_csv(paths["csv"])
    pd.testing.assert_frame_equal(back, small_table)  # exact: full precision
    # atomic writes leave no temporary files behind
    assert sorted(p.name for p in (tmp_path / "sub").iterdir()) == ["t7.csv", "t7.md", "t7.tex"]


def test_markdown_marks(small_table, tmp_path):
    md = write_table(small_table, tmp_path / "t", caption="My caption")["md"].read_text()
    assert md.startswith("My caption\n")
    header, *rows = md_rows(md)
    assert header[0] == "model"
    a, b, c = rows
    col = {name: i for i, name in enumerate(header)}
    # row A: train-optimal lowest of the three realistic methods (test-optimal never bold)
    assert a[col["train_optimal"]] == "**0.190**"
    assert a[col["score_driven"]] == "0.200"
    assert a[col["test_optimal"]] == "0.050"
    assert a[col["sc_vs_tr"]] == "*0.620*"  # > 0.5: italic
    assert a[col["rd_vs_tr"]] == "***0.300***"  # < 0.5: bold italic
    # row B: 0.2004 and 0.1996 both print as 0.200: both bold
    assert b[col["train_optimal"]] == "**0.200**"
    assert b[col["score_driven"]] == "**0.200**"
    assert b[col["sc_vs_tr"]] == "0.500"  # exactly 0.5: no mark
    assert b[col["rd_vs_tr"]] == "*0.700*"
    # row C: rate-driven lowest; 0.5004 prints as 0.500: no mark; 0 is bold italic
    assert c[col["rate_driven"]] == "**0.123**"
    assert c[col["train_optimal"]] == "0.400"
    assert c[col["sc_vs_tr"]] == "0.500"
    assert c[col["rd_vs_tr"]] == "***0.000***"


def test_latex_marks_and_booktabs(small_table, tmp_path):
    tex = write_table(small_table, tmp_path / "t", caption="Losses at gamma_inf")["tex"]
    text = tex.read_text()
    for rule in (r"\toprule", r"\midrule", r"\bottomrule", r"\begin{tabular}{lrrrrrr}"):
        assert rule in text
    assert r"\caption{Losses at gamma\_inf}" in text
    assert r"\label{tab:t}" in text
    assert r"model & test\_optimal & train\_optimal" in text
    rows = [ln for ln in text.splitlines() if ln.startswith(("A", "B ", "C "))]
    assert rows[0].startswith(r"A\_1 & 0.050 & \textbf{0.190} & 0.200 & 0.221")
    assert rows[0].endswith(r"\textit{0.620} & \textbf{\textit{0.300}} \\")
    assert r"\textbf{0.200} & \textbf{0.200}" in rows[1]
    assert rows[2].endswith(r"\textbf{0.123} & 0.500 & \textbf{\textit{0.000}} \\")


def test_no_marks(small_table, tmp_path):
    paths = write_table(small_table, tmp_path / "t", caption="c", marks=None)
    assert "*" not in "".join("".join(row) for row in md_rows(paths["md"].read_text()))
    assert r"\textbf" not in paths["tex"].read_text()


def test_markdown_formats_integers_and_missing(tmp_path):
    df = pd.DataFrame(
        {
            "number": pd.array([26, None], dtype="Int64"),
            "dataset": ["vote", "x"],
            "AUC": [0.9, np.nan],
        }
    )
    md = write_table(df, tmp_path / "t8", caption="c")["md"].read_text()
    _, r1, r2 = md_rows(md)
    assert r1 == ["26", "vote", "0.900"]
    assert r2 == ["", "x", ""]
