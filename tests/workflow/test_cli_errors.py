"""Bad input to the command line ends with one line and exit status 2, never a traceback;
scores that are not probabilities are refused where they would give wrong numbers."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from tests.conftest import SHARED, random_scores
from threshold_choice.cli import main
from threshold_choice.errors import UserError
from threshold_choice.methods import PROBABILITY_METHODS


def run_cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "threshold_choice.cli", *args],
        capture_output=True, text=True, **kwargs,
    )


def one_error_line(proc: subprocess.CompletedProcess) -> str:
    """The single stderr line of a command that failed with exit status 2."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def write_scores(path: Path, labels, scores) -> Path:
    pd.DataFrame({"label": labels, "score": scores}).to_csv(path, index=False)
    return path


@pytest.fixture
def scores_csv(tmp_path) -> Path:
    y, s = random_scores(3, 40)
    return write_scores(tmp_path / "scores.csv", y, s)


def strict_json(text: str):
    """json.loads that refuses NaN and Infinity (not JSON, though Python writes them)."""
    def refuse(name: str):
        raise AssertionError(f"non-standard JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


# -- scores outside [0, 1] ------------------------------------------------------------------------


def test_score_based_methods_refuse_scores_outside_0_1_naming_the_methods(tmp_path):
    y, s = random_scores(4, 30)
    path = write_scores(tmp_path / "t.csv", y, s * 10 + 3)
    line = one_error_line(run_cli(
        "loss", "--test", str(path), "--method", "score-uniform", "--method", "rate-driven",
        "--method", "score-driven-aware",
    ))
    assert "outside [0, 1]" in line
    assert "score-uniform, score-driven-aware read(s) them as probabilities" in line
    assert "--method (test-optimal" in line  # the rank-based alternatives


def test_the_default_methods_refuse_scores_outside_0_1_because_of_score_driven(tmp_path):
    y, s = random_scores(5, 30)
    path = write_scores(tmp_path / "t.csv", y, s - 0.5)
    line = one_error_line(run_cli("loss", "--test", str(path)))
    assert "score-driven read(s) them as probabilities" in line


def test_probability_methods_are_the_score_based_ones():
    assert set(PROBABILITY_METHODS) == {
        "score-driven", "score-uniform", "score-driven-z", "score-driven-aware", "score-fixed"
    }


def test_scores_at_exactly_0_and_1_are_probabilities(tmp_path, capsys):
    path = write_scores(tmp_path / "t.csv", [0, 1, 0, 1], [0.0, 1.0, 0.5, 0.5])
    assert main(["loss", "--test", str(path), "--method", "score-driven", "--gamma", "inf"]) == 0
    assert capsys.readouterr().err == ""


def test_calibration_metrics_are_left_empty_for_scores_outside_0_1(tmp_path, capsys):
    y, s = random_scores(6, 50, decimals=None)
    path = write_scores(tmp_path / "t.csv", y, np.log(s + 0.01))  # negative scores
    assert main(["loss", "--test", str(path), "--method", "test-optimal"]) == 0
    captured = capsys.readouterr()
    metrics = pd.read_csv(StringIO(captured.out.split("\n\n")[1])).set_index("metric")["value"]
    assert metrics[["BS", "MAE", "CL"]].isna().all()
    assert metrics["AUC"] == pytest.approx(roc_auc_score(y, s), abs=1e-9)  # printed %.10g
    assert "BS, MAE, CL left empty" in captured.err


def test_json_output_is_standard_json_with_null_for_undefined_metrics(tmp_path, capsys):
    y, s = random_scores(7, 40)
    path = write_scores(tmp_path / "t.csv", y, s * 10 + 3)
    code = main(["loss", "--test", str(path), "--method", "rate-driven", "--gamma", "inf",
                 "--gamma", "2", "--format", "json"])
    assert code == 0
    payload = strict_json(capsys.readouterr().out)
    assert [row["gamma"] for row in payload["losses"]] == ["inf", "2"]  # inf as text
    assert payload["metrics"]["BS"] is None and payload["metrics"]["CL"] is None
    assert payload["metrics"]["AUC"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)


# -- one line instead of a traceback -------------------------------------------------------------


def test_a_folder_given_as_the_test_file_is_one_line(tmp_path):
    line = one_error_line(run_cli("loss", "--test", str(tmp_path)))
    assert f"test file {tmp_path} is a folder" in line


def test_an_unreadable_test_file_is_one_line(scores_csv):
    scores_csv.chmod(0)
    prefix: list[str] = []
    if os.geteuid() == 0:  # root reads anything: drop the capability that allows it
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: cannot make a file unreadable")
        caps = "-dac_override,-dac_read_search"
        prefix = ["setpriv", "--bounding-set", caps, "--inh-caps", caps, "--"]
    proc = subprocess.run(
        [*prefix, sys.executable, "-m", "threshold_choice.cli", "loss", "--test",
         str(scores_csv)], capture_output=True, text=True,
    )
    assert f"cannot read test file {scores_csv}: Permission denied" in one_error_line(proc)


def test_a_negative_montecarlo_seed_is_one_line(scores_csv):
    line = one_error_line(run_cli(
        "loss", "--test", str(scores_csv), "--estimator", "montecarlo", "--seed", "-1"
    ))
    assert "--seed must be an integer >= 0, got -1" in line


@pytest.mark.parametrize("command", ["loss", "splits"])
def test_output_cut_short_by_its_reader_exits_quietly(tmp_path, scores_csv, command):
    if command == "loss":
        args = ["loss", "--test", str(scores_csv)]
    else:
        args = ["splits", "--dataset", "haberman", "--arff",
                str(SHARED / "datasets" / "haberman.arff"), "--iterations", "50"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "threshold_choice.cli", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    proc.stdout.close()  # like `| head -0`: the reader is gone before the first write
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0
    assert err.decode() == ""


def test_prepare_with_out_naming_a_file_is_one_line_before_any_download(tmp_path):
    out = tmp_path / "a-file"
    out.write_text("not a folder")
    line = one_error_line(run_cli(
        "datasets", "prepare", "--name", "haberman", "--out", str(out), "--no-mirror",
        "--cache", str(tmp_path / "cache"),
    ))
    assert f"output folder {out}: {out} is a file, not a folder" in line
    assert not (tmp_path / "cache").exists()  # refused before fetching anything


def test_splits_on_a_file_that_is_not_arff_names_the_format(scores_csv):
    line = one_error_line(run_cli("splits", "--dataset", "x", "--arff", str(scores_csv)))
    assert f"{scores_csv}, line 1: unexpected header line 'label,score'" in line
    assert "Give an ARFF file (@relation, @attribute lines, then @data)" in line


def test_splits_on_a_truncated_prepared_file_is_one_line(tmp_path):
    prepared = tmp_path / "haberman.parquet"
    assert main(["datasets", "prepare", "--name", "haberman", "--out", str(tmp_path),
                 "--mirror", str(SHARED / "datasets")]) == 0
    prepared.write_bytes(prepared.read_bytes()[:200])
    line = one_error_line(run_cli("splits", "--dataset", "haberman", "--prepared",
                                  str(prepared)))
    assert f"prepared dataset {prepared} is unreadable" in line


# -- CSV reading ---------------------------------------------------------------------------------


def test_line_numbers_count_blank_lines_before_a_bad_row(tmp_path):
    lines = ["label,score", "1,0.9", "", "", "0,0.2", "   ", "1,abc", "0,0.1"]
    path = tmp_path / "t.csv"
    path.write_text("\n".join(lines) + "\n")
    line = one_error_line(run_cli("loss", "--test", str(path)))
    assert f"score on line {lines.index('1,abc') + 1} is 'abc'" in line


def test_a_bad_label_is_named_with_its_line(tmp_path):
    lines = ["label,score", "", "1,0.9", "0,0.2", "yes,0.5"]
    path = tmp_path / "t.csv"
    path.write_text("\n".join(lines) + "\n")
    line = one_error_line(run_cli("loss", "--test", str(path)))
    assert f"label on line {lines.index('yes,0.5') + 1} is 'yes'; labels must be 0 or 1" in line


def test_blank_lines_are_skipped(tmp_path, capsys):
    y, s = random_scores(8, 20)
    plain = write_scores(tmp_path / "plain.csv", y, s)
    text = plain.read_text().splitlines()
    spaced = tmp_path / "spaced.csv"
    spaced.write_text("\n\n".join(text) + "\n\n\n")
    assert main(["loss", "--test", str(plain), "--gamma", "4"]) == 0
    expected = capsys.readouterr().out
    assert main(["loss", "--test", str(spaced), "--gamma", "4"]) == 0
    assert capsys.readouterr().out == expected


def test_a_first_row_with_more_fields_than_the_header_names_its_line(tmp_path):
    # pandas would silently take the first field of such a file as an index
    path = tmp_path / "t.csv"
    path.write_text("label,score\n1,0.9,7\n0,0.2\n")
    line = one_error_line(run_cli("loss", "--test", str(path)))
    assert "Expected 2 fields in line 2, saw 3" in line


@pytest.mark.parametrize(
    ("header", "row", "found", "hint"),
    [
        ("label;score", "1;0.9", "'label;score'", "looks separated by ';'"),
        ("label\tscore", "1\t0.9", "'label\\tscore'", "looks separated by a tab"),
        ("label, score", "1, 0.9", "'label', ' score'", "remove the spaces around"),
    ],
)
def test_another_separator_is_named_with_the_columns_found(tmp_path, header, row, found, hint):
    path = tmp_path / "t.csv"
    path.write_text(f"{header}\n{row}\n")
    line = one_error_line(run_cli("loss", "--test", str(path)))
    assert f"(found {found})" in line
    assert hint in line


def test_splits_refuses_more_iterations_than_the_workflow_allows(scores_csv):
    from threshold_choice.cli.splits import MAX_ITERATIONS

    line = one_error_line(run_cli("splits", "--dataset", "x", "--arff", str(scores_csv),
                                  "--iterations", str(MAX_ITERATIONS + 1)))
    assert f"--iterations must be between 1 and {MAX_ITERATIONS}" in line


def test_compare_refuses_a_nan_tolerance(tmp_path):
    line = one_error_line(run_cli("compare", "--results", str(tmp_path), "--tolerance", "nan"))
    assert "--tolerance must be a number >= 0, got nan" in line


def test_table5_with_an_unreadable_published_csv_is_one_line(tmp_path):
    assert main(["datasets", "prepare", "--name", "haberman", "--out", str(tmp_path),
                 "--mirror", str(SHARED / "datasets")]) == 0
    published = tmp_path / "published.csv"
    published.write_text('number,dataset\n"1,haberman\n')
    line = one_error_line(run_cli("datasets", "table5", "--prepared", str(tmp_path),
                                  "--published", str(published)))
    assert f"published Table 5 {published} is not a readable CSV" in line


def test_the_library_refuses_scores_outside_0_1_for_the_probability_methods() -> None:
    from threshold_choice.evaluation import expected_losses

    y = np.array([0, 1, 1, 0, 1])
    margins = np.array([-2.0, 1.5, 0.3, -0.4, 2.2])  # decision-function values
    with pytest.raises(UserError, match=r"from -2 to 2\.2, outside \[0, 1\]; score-driven "):
        expected_losses(y, margins, methods=["score-driven", "rate-driven"], gammas=[0.0])
    # rank-based methods take any real scores: the same losses as any monotone rescaling
    ranked = expected_losses(y, margins, methods=["rate-driven", "test-optimal"],
                             gammas=[math.inf, 0.0])
    squashed = expected_losses(y, 1 / (1 + np.exp(-margins)),
                               methods=["rate-driven", "test-optimal"], gammas=[math.inf, 0.0])
    np.testing.assert_allclose(ranked["expected_loss"], squashed["expected_loss"], atol=1e-12)
