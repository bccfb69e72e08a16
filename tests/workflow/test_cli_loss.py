"""The ``threshold-choice loss`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score

from threshold_choice.cli import main


def write(path, labels, scores):
    pd.DataFrame({"label": labels, "score": scores}).to_csv(path, index=False)
    return str(path)


@pytest.fixture
def test_csv(tmp_path):
    return write(tmp_path / "test.csv", [1, 0, 1, 0, 1, 0], [0.9, 0.2, 0.6, 0.6, 0.3, 0.1])


def test_prints_one_row_per_method_and_gamma_then_metrics(test_csv, tmp_path, capsys):
    train = write(tmp_path / "train.csv", [1, 0, 1, 0], [0.8, 0.3, 0.5, 0.5])
    code = main(["loss", "--test", test_csv, "--train", train, "--gamma", "inf", "--gamma", "4"])
    assert code == 0
    out = capsys.readouterr().out
    losses_text, metrics_text = out.split("\n\n")
    losses = pd.read_csv(StringIO(losses_text), dtype={"gamma": str})
    assert list(losses.columns) == ["method", "gamma", "expected_loss"]
    assert len(losses) == 4 * 2
    assert set(losses["gamma"]) == {"inf", "4"}
    metrics = pd.read_csv(StringIO(metrics_text)).set_index("metric")["value"]
    assert list(metrics.index) == ["AUC", "BS", "MAE", "CL", "RL", "RL_conv", "CL_conv",
                                   "LogLoss", "LogLoss_CL_conv", "LogLoss_RL_conv", "H", "AP"]
    sd = losses[(losses.method == "score-driven") & (losses.gamma == "inf")]
    assert sd["expected_loss"].item() == pytest.approx(metrics["BS"], abs=1e-9)


def test_top_k_adds_precision_and_recall_at_k_counted_by_hand(tmp_path, capsys):
    # no ties: the K highest scores are the K predicted relevant (class 1)
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 60)
    y[:2] = [0, 1]
    s = rng.permutation(60) / 60.0
    path = write(tmp_path / "t.csv", y, s)
    assert main(["loss", "--test", path, "--method", "score-driven", "--gamma", "inf",
                 "--top-k", "5", "--top-k", "20"]) == 0
    metrics = pd.read_csv(StringIO(capsys.readouterr().out.split("\n\n")[1]))
    table = metrics.set_index("metric")["value"]
    top = y[np.argsort(-s)]
    for k in (5, 20):
        assert table[f"precision@{k}"] == pytest.approx(top[:k].mean(), abs=1e-9)
        assert table[f"recall@{k}"] == pytest.approx(top[:k].sum() / y.sum(), abs=1e-9)
    assert table["AP"] == pytest.approx(average_precision_score(y, s), abs=1e-9)
    assert list(metrics["metric"][-4:]) == ["precision@5", "recall@5", "precision@20",
                                            "recall@20"]


def test_top_k_beyond_the_test_set_is_refused(test_csv, capsys):
    assert main(["loss", "--test", test_csv, "--top-k", "7"]) == 2
    err = capsys.readouterr().err
    assert "--top-k must be between 1 and the 6 test examples, got 7" in err


def test_json_output(test_csv, capsys):
    code = main(
        ["loss", "--test", test_csv, "--method", "rate-driven", "--gamma", "0", "--format", "json"]
    )
    assert code == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["losses"][0]["method"] == "rate-driven"
    assert payload["losses"][0]["gamma"] == "0"
    assert set(payload["metrics"]) >= {"AUC", "BS", "RL_conv"}


@pytest.mark.parametrize(
    ("labels", "scores", "args", "message"),
    [
        ([0, 1, 2], [0.1, 0.2, 0.3], [], "labels must be 0 or 1"),
        ([0, 1, 1], [0.1, "", 0.3], [], "score on line 3 is missing"),
        ([1, 1, 1], [0.1, 0.2, 0.3], [], "only class 1"),
        ([], [], [], "no examples"),
        ([0, 1], [0.1, 0.9], ["--gamma", "-2"], "gamma must be"),
        ([0, 1], [0.1, 0.9], ["--method", "train-optimal"], "training scores"),
    ],
)
def test_bad_input_exits_nonzero_with_one_line(tmp_path, labels, scores, args, message):
    path = write(tmp_path / "t.csv", labels, scores)
    proc = subprocess.run(
        [sys.executable, "-m", "threshold_choice.cli", "loss", "--test", path, *args],
        capture_output=True,
        text=True,
    )
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert message in lines[0]


def test_missing_file_and_columns_are_named(tmp_path, capsys):
    assert main(["loss", "--test", str(tmp_path / "nope.csv")]) == 2
    assert "does not exist" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("y,s\n1,0.5\n")
    assert main(["loss", "--test", str(bad)]) == 2
    assert "lacks column(s) label, score" in capsys.readouterr().err


def test_rank_based_methods_accept_any_real_scores(tmp_path, capsys):
    # test-optimal and rate-driven depend on the order of the scores only
    path = write(tmp_path / "t.csv", [0, 0, 1, 1, 0, 1], [-3.0, -1.0, 0.5, 2.0, 1.0, 7.0])
    code = main(["loss", "--test", path, "--method", "test-optimal", "--method", "rate-driven"])
    assert code == 0
    shifted = write(tmp_path / "u.csv", [0, 0, 1, 1, 0, 1], [0.1, 0.2, 0.4, 0.6, 0.5, 0.9])
    first = capsys.readouterr().out.split("\n\n")[0]
    assert main(["loss", "--test", shifted, "--method", "test-optimal",
                 "--method", "rate-driven"]) == 0
    assert capsys.readouterr().out.split("\n\n")[0] == first


def test_json_writes_an_infinite_loss_as_inf_and_a_value_not_computed_as_null(tmp_path,
                                                                             capsys):
    rng = np.random.default_rng(2)
    y = np.array([0, 1] * 30)
    s = np.clip(0.3 * y + 0.7 * rng.random(y.size), 0, 1)
    path = write(tmp_path / "t.csv", y, s)
    args = ["loss", "--test", path, "--loss", "f-measure", "--method", "rate-driven",
            "--method", "test-optimal", "--gamma", "inf"]
    assert main(args) == 0
    csv_losses = pd.read_csv(StringIO(capsys.readouterr().out.split("\n\n")[0]))
    assert main([*args, "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    by_method = {row["method"]: row["expected_loss"] for row in payload["losses"]}
    for method, value in zip(csv_losses["method"], csv_losses["expected_loss"], strict=True):
        assert by_method[method] == ("inf" if np.isinf(value) else pytest.approx(value))
    assert "inf" in by_method.values()  # rate-driven can pick a threshold with no TP

    shifted = write(tmp_path / "out.csv", y, s * 3 - 1)  # outside [0, 1]: BS not computed
    assert main(["loss", "--test", shifted, "--method", "test-optimal", "--gamma", "inf",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["BS"] is None


@pytest.mark.parametrize("header", ["Label,Score", "LABEL,score", "score,Label"])
@pytest.mark.parametrize("pos_label", [None, "1"])
def test_the_header_names_label_and_score_in_any_case(tmp_path, capsys, header, pos_label):
    y = [1, 0, 1, 0, 1, 0]
    s = [0.9, 0.2, 0.6, 0.6, 0.3, 0.1]
    lower = write(tmp_path / "lower.csv", y, s)
    rows = zip(y, s, strict=True) if header.lower().startswith("label") else zip(s, y, strict=True)
    other = tmp_path / "other.csv"
    other.write_text(header + "\n" + "".join(f"{a},{b}\n" for a, b in rows))
    extra = ["--pos-label", pos_label] if pos_label else []  # the line-by-line reading too
    assert main(["loss", "--test", lower, "--gamma", "inf", *extra]) == 0
    expected = capsys.readouterr().out
    assert main(["loss", "--test", str(other), "--gamma", "inf", *extra]) == 0
    assert capsys.readouterr().out == expected
