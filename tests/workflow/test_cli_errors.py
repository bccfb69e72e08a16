"""Bad input to the command line ends with one line and exit status 2, never a traceback;
scores that are not probabilities are refused where they would give wrong numbers; no command
overwrites its input, nothing is printed before an error, and the scores CSV reader's typed
reading gives the checked reading's values in bounded memory."""

from __future__ import annotations

import json
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


@pytest.fixture
def model_csv(tmp_path):
    y, s = random_scores(0, 200)
    return write_scores(tmp_path / "model.csv", y, s)


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
    assert metrics[["BS", "MAE", "CL", "CL_conv", "LogLoss", "LogLoss_CL_conv"]].isna().all()
    assert metrics["AUC"] == pytest.approx(roc_auc_score(y, s), abs=1e-9)  # printed %.10g
    assert metrics[["RL_conv", "LogLoss_RL_conv"]].notna().all()  # the order's only
    assert "BS, MAE, CL, CL_conv, LogLoss, LogLoss_CL_conv left empty" in captured.err


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


@pytest.mark.parametrize("command", [
    ["loss", "--estimator", "montecarlo"],
    ["plot", "cost-curves", "--bootstrap", "3"],
    ["plot", "certainty", "--estimator", "montecarlo"],
])
def test_a_negative_seed_is_one_line_in_loss_and_plot(scores_csv, tmp_path, command):
    out = ["--out", str(tmp_path / "f.png")] if command[0] == "plot" else []
    line = one_error_line(run_cli(*command, "--test", str(scores_csv), *out, "--seed", "-1"))
    assert f"threshold-choice {command[0]}: error: --seed must be a whole number >= 0, got -1" \
        in line
    assert not (tmp_path / "f.png").exists()


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


@pytest.mark.parametrize(("text", "number"), [
    ("label,score\n1,0.9,7\n0,0.2\n", 2),  # pandas would take the first field as an index
    ("label,score\n0,0.1\n\n1,0.2\n1,0.9,3\n0,0.3\n", 5),  # a blank line counted
])
def test_a_row_with_more_fields_than_the_header_names_the_file_and_its_line(tmp_path, text,
                                                                            number):
    path = tmp_path / "t.csv"
    path.write_text(text)
    line = one_error_line(run_cli("loss", "--test", str(path)))
    assert f"test file {path}: line {number} has 3 fields but the header 2; give each line " \
        "one value per column" in line
    assert "tokenizing" not in line  # pandas' words


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


# -- no command overwrites its input ------------------------------------------------------------


@pytest.mark.parametrize("out", ["model.png", "model.pdf"])
def test_plot_refuses_an_output_that_is_or_writes_over_its_input(tmp_path, model_csv, out):
    # --out model.png also writes model.csv beside it
    before = model_csv.read_bytes()
    proc = run_cli("plot", "cost-curves", "--test", str(model_csv), "--out",
                   str(tmp_path / out))
    line = one_error_line(proc)
    assert f"would overwrite the input {model_csv}" in line
    assert model_csv.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.csv"]


def test_plot_refuses_a_training_file_as_its_output_under_another_name(tmp_path, model_csv):
    link = tmp_path / "fig.csv"
    link.symlink_to(model_csv)
    proc = run_cli("plot", "cost-curves", "--test", str(model_csv), "--train", str(link),
                   "--out", str(tmp_path / "fig.pdf"))
    assert "would overwrite the input" in one_error_line(proc)


# -- nothing printed before an error ------------------------------------------------------------


def test_decision_curve_checks_its_averages_before_printing(model_csv):
    proc = run_cli("decision-curve", "--test", str(model_csv), "--average", "0.2", "0.05")
    assert "0 <= low < high < 1" in one_error_line(proc)
    assert proc.stdout == ""


# -- values that would change results silently, refused in one line -----------------------------


def test_decision_curves_refuse_scores_that_are_not_probabilities(tmp_path):
    from threshold_choice.decision_curves import decision_curve
    from threshold_choice.plotting import DecisionCurveDisplay

    y, s = random_scores(2, 200)
    percent = write_scores(tmp_path / "percent.csv", y, 100 * s)
    line = one_error_line(run_cli("decision-curve", "--test", str(percent)))
    assert "need scores that are probabilities in [0, 1]" in line
    with pytest.raises(UserError, match="probabilities in"):
        decision_curve(y, 100 * s)
    with pytest.raises(UserError, match="probabilities in"):
        DecisionCurveDisplay.from_predictions(y, 100 * s, plot=False)


@pytest.mark.parametrize("offset", [5.0, 1.0, float("nan")])
def test_a_rate_threshold_offset_outside_0_1_is_refused(model_csv, offset):
    from threshold_choice.evaluation import LossSettings

    with pytest.raises(UserError, match=r"rate_threshold_offset must be in \(0, 1\)"):
        LossSettings(rate_threshold_offset=offset)
    line = one_error_line(run_cli("loss", "--test", str(model_csv), "--rate-threshold-offset",
                                  str(offset)))
    assert "rate_threshold_offset must be in (0, 1)" in line


def test_a_csv_with_two_label_columns_is_refused(tmp_path):
    path = tmp_path / "two.csv"
    path.write_text("label,score,label\n1,0.9,0\n0,0.1,1\n")
    line = one_error_line(run_cli("loss", "--test", str(path)))
    assert "of which 2 are named label (in any case); keep one" in line


@pytest.mark.parametrize("n", ["-5", "10001", "1000000000"])
@pytest.mark.parametrize("command", [["loss"], ["plot", "cost-curves"]])
def test_loss_and_plot_cap_bootstrap_at_the_same_count_in_one_line(tmp_path, model_csv, n,
                                                                    command):
    from threshold_choice.cli.inputs import MAX_BOOTSTRAP

    out = ["--out", str(tmp_path / "fig.png")] if command[0] == "plot" else []
    proc = run_cli(*command, "--test", str(model_csv), "--bootstrap", n, *out)
    assert f"--bootstrap must be between 0 and {MAX_BOOTSTRAP}" in one_error_line(proc)
    assert not (tmp_path / "fig.png").exists()
    assert not (tmp_path / "fig.png").exists()


def test_a_usage_error_of_the_cli_is_one_line(model_csv):
    line = one_error_line(run_cli("loss", "--test", str(model_csv), "--gamma"))
    assert line.startswith("threshold-choice loss: error: argument --gamma: expected one "
                           "argument")


# -- the scores CSV reader: typed columns -------------------------------------------------------


def test_the_typed_reading_gives_the_line_by_line_readings_values_bit_for_bit(tmp_path):
    from threshold_choice.cli.inputs import _read_checked, _read_typed

    rng = np.random.default_rng(1)
    n = 20_000
    scores = rng.random(n) ** 3 * 10.0 ** rng.integers(-12, 3, n)
    path = tmp_path / "s.csv"
    pd.DataFrame({"label": rng.integers(0, 2, n), "score": scores}).to_csv(
        path, index=False, float_format="%.17g")
    fast, checked = _read_typed(path), _read_checked(path, "test")
    assert fast is not None
    np.testing.assert_array_equal(fast[0], checked[0])
    np.testing.assert_array_equal(fast[1], checked[1])
    np.testing.assert_array_equal(fast[1], scores)


@pytest.mark.parametrize("text", ["label,score\n1,0.9,7\n0,0.2\n", "label,score\n1,0.9\n0,nan\n",
                                  "label,score\n1,0.9\n2,0.2\n", "label,score\n1,0.9\n0,\n"])
def test_a_file_with_a_problem_is_left_to_the_reading_that_names_its_line(tmp_path, text):
    from threshold_choice.cli.inputs import _read_typed, read_scores_csv

    path = tmp_path / "bad.csv"
    path.write_text(text)
    assert _read_typed(path) is None
    with pytest.raises(UserError, match="line"):
        read_scores_csv(path, "test")


READ_BOUND = """
import resource, sys
from pathlib import Path
import pandas  # the reader imports it on first use: loaded before the budget is measured
from threshold_choice.cli.inputs import read_scores_csv
path = Path(sys.argv[1])
size = path.stat().st_size
now = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
limit = now + 3 * size + 64 * 2**20  # what the process holds, plus three times the file
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
labels, scores = read_scores_csv(path, "test")
print(len(labels))
"""


@pytest.mark.slow
def test_reading_a_scores_file_takes_under_three_times_its_size(tmp_path):
    rng = np.random.default_rng(2)
    n = 1_000_000
    path = tmp_path / "big.csv"
    pd.DataFrame({"label": rng.integers(0, 2, n), "score": rng.random(n)}).to_csv(
        path, index=False, float_format="%.17g")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-c", READ_BOUND, str(path)], capture_output=True,
                          text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == str(n)


# -- messages that name the option and the fix ---------------------------------------------------


def test_a_bad_grid_size_names_the_option_not_the_parameter(scores_csv):
    line = one_error_line(run_cli("loss", "--test", str(scores_csv), "--estimator", "grid",
                                  "--grid-size", "0"))
    assert "--grid-size must be >= 1" in line and "grid_size" not in line


def test_a_bad_cost_range_names_the_option_and_the_swapped_pair(scores_csv, tmp_path):
    line = one_error_line(run_cli("plot", "log-odds-regret", "--test", str(scores_csv),
                                  "--cost-range", "0.5", "0.2", "--out",
                                  str(tmp_path / "f.png")))
    assert "--cost-range LOW HIGH needs 0 < LOW < HIGH < 1" in line
    assert "e.g. --cost-range 0.2 0.5" in line and "cost_range" not in line


@pytest.mark.parametrize("command", [["loss"], ["plot", "cost-curves"]])
def test_train_optimal_without_train_names_the_train_option(scores_csv, tmp_path, command):
    out = ["--out", str(tmp_path / "f.png")] if command[0] == "plot" else []
    line = one_error_line(run_cli(*command, "--test", str(scores_csv), "--method",
                                  "train-optimal", *out))
    assert "give them with --train FILE" in line


def test_names_that_do_not_pair_with_the_test_files_say_how_to_pair_them(scores_csv, tmp_path):
    line = one_error_line(run_cli("plot", "roc", "--test", str(scores_csv), "--test",
                                  str(scores_csv), "--name", "a", "--out",
                                  str(tmp_path / "f.png")))
    assert "2 --test files but 1 --name values: give one --name per --test" in line


def test_an_out_that_is_a_folder_names_the_users_path_not_a_temporary_file(scores_csv,
                                                                          tmp_path):
    folder = tmp_path / "fig.png"
    folder.mkdir()
    line = one_error_line(run_cli("plot", "roc", "--test", str(scores_csv), "--out",
                                  str(folder)))
    assert f"--out {folder}: {folder} is a folder; give a file name" in line
    assert ".tmp" not in line


def test_an_out_that_cannot_be_written_names_the_users_path(scores_csv, tmp_path):
    blocker = tmp_path / "afile"
    blocker.write_text("")  # a file where the folder of --out should be
    out = blocker / "fig.png"
    line = one_error_line(run_cli("plot", "roc", "--test", str(scores_csv), "--out", str(out)))
    assert f"cannot write --out {out} ({blocker}: Not a directory)" in line
    assert ".tmp" not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "scores.csv"]  # no partial


@pytest.mark.parametrize(("given", "problem"), [
    (".", "got '.', which is a folder; give a file name in it, e.g. --out ./figure.png"),
    ("figs/", "got 'figs/', which is a folder; give a file name in it, e.g. --out "
              "figs/figure.png"),
    ("existing", "got 'existing', which is a folder; give a file name in it, e.g. --out "
                 "existing/figure.png"),
    ("fig", "got 'fig', which has no suffix; e.g. --out fig.png"),
    ("fig.gif", "got 'fig.gif', which ends in .gif; e.g. --out fig.png"),
])
def test_an_out_without_a_figure_suffix_names_the_path_and_what_it_is(
        scores_csv, tmp_path, monkeypatch, capsys, given, problem):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "existing").mkdir()
    assert main(["plot", "roc", "--test", str(scores_csv), "--out", given]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("threshold-choice plot: error: --out must end in one of .png, .pdf, .svg, "
                   f"{problem}")


_UNCREATABLE = Path("/proc/threshold-choice-test")  # /proc takes no new folder, even for root


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_prepare_into_a_folder_that_cannot_be_created_names_it_and_the_fix(tmp_path):
    line = one_error_line(run_cli("datasets", "prepare", "--name", "haberman", "--out",
                                  str(_UNCREATABLE), "--no-mirror"))
    assert line == (f"threshold-choice datasets: error: --out {_UNCREATABLE}: the folder "
                    "cannot be created (No such file or directory); choose a folder you can "
                    "write (e.g. one in your home or working folder)")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize("command", [
    ["plot", "roc", "--test", "SCORES", "--out", f"{_UNCREATABLE}/sub/fig.png"],
    ["datasets", "prepare", "--name", "haberman", "--out", "TMP", "--no-mirror", "--cache",
     f"{_UNCREATABLE}/cache"],
    ["splits", "--dataset", "haberman", "--no-mirror", "--cache", f"{_UNCREATABLE}/cache"],
])
def test_every_command_that_writes_names_a_folder_that_cannot_be_created(
        scores_csv, tmp_path, capsys, command):
    words = [{"SCORES": str(scores_csv), "TMP": str(tmp_path / "out")}.get(w, w)
             for w in command]
    assert main(words) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"cannot be created ({_UNCREATABLE}: No such file or directory); choose a folder " \
        "you can write" in err
    assert not (tmp_path / "out").exists()  # the --out probed is not left behind


def test_table5_names_an_out_folder_that_cannot_be_created(tmp_path, capsys, monkeypatch):
    assert main(["datasets", "prepare", "--name", "haberman", "--out", str(tmp_path),
                 "--mirror", str(SHARED / "datasets")]) == 0

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)
    out = tmp_path / "sub" / "table5.csv"
    assert main(["datasets", "table5", "--prepared", str(tmp_path), "--out", str(out)]) == 2
    assert capsys.readouterr().err.strip().endswith(
        f"--out {out}: its folder {out.parent} cannot be created (Permission denied); choose "
        "a folder you can write (e.g. one in your home or working folder)")


def test_an_output_folder_probed_leaves_nothing_behind(tmp_path):
    from threshold_choice.cli.inputs import check_output_folder

    check_output_folder(tmp_path / "a" / "b", "--out")
    assert list(tmp_path.iterdir()) == []


def test_an_atomic_write_error_names_the_target_not_the_temporary_file(tmp_path):
    from threshold_choice.atomic import write_text_atomic

    (tmp_path / "x.csv").mkdir()
    with pytest.raises(OSError) as caught:
        write_text_atomic(tmp_path / "x.csv", "a\n")
    assert caught.value.filename == str(tmp_path / "x.csv")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.csv"]


def test_compare_refuses_a_file_given_as_the_results_folder(scores_csv):
    line = one_error_line(run_cli("compare", "--results", str(scores_csv)))
    assert f"--results {scores_csv} is a file; give the results folder" in line
    assert "runs.parquet does not exist" not in line


def test_compare_names_a_published_folder_that_does_not_exist(tmp_path):
    line = one_error_line(run_cli("compare", "--results", str(tmp_path), "--published",
                                  str(tmp_path / "nodir")))
    assert f"--published {tmp_path / 'nodir'} does not exist; give the folder of the " \
        "published tables" in line
    assert "run the workflow" not in line


def test_a_device_given_as_the_test_file_is_refused_in_one_line_under_a_memory_limit(
        scores_csv):
    limit = 1_500 * 2**20
    proc = subprocess.run(
        [sys.executable, "-c",
         f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n"
         "from threshold_choice.cli import main; raise SystemExit(main())",
         "loss", "--test", "/dev/zero"],
        capture_output=True, text=True)
    assert "test file /dev/zero is a device, not a file" in one_error_line(proc)


def test_scores_on_standard_input_are_read_once_as_the_file(scores_csv):
    from_file = run_cli("loss", "--test", str(scores_csv), "--format", "json")
    piped = run_cli("loss", "--test", "/dev/stdin", "--format", "json",
                    input=scores_csv.read_text())
    assert from_file.returncode == 0 and piped.returncode == 0, piped.stderr
    assert piped.stdout == from_file.stdout


def test_scores_from_a_process_substitution_pipe_are_read_once(scores_csv):
    read, write = os.pipe()
    os.write(write, scores_csv.read_bytes())  # small: fits the pipe's buffer
    os.close(write)
    try:
        piped = run_cli("loss", "--test", f"/dev/fd/{read}", "--format", "json",
                        pass_fds=(read,))
    finally:
        os.close(read)
    from_file = run_cli("loss", "--test", str(scores_csv), "--format", "json")
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == from_file.stdout


def test_decision_curve_thresholds_and_values_are_exact_on_request(scores_csv):
    threshold = 0.123456789012345
    readable = run_cli("decision-curve", "--test", str(scores_csv), "--thresholds",
                       repr(threshold))
    assert readable.stdout.splitlines()[1].startswith("0.123456789,")  # default: readable
    exact = run_cli("decision-curve", "--test", str(scores_csv), "--thresholds",
                    repr(threshold), "--exact")
    as_json = run_cli("decision-curve", "--test", str(scores_csv), "--thresholds",
                      repr(threshold), "--format", "json", "--average", "0", "0.5")
    assert exact.returncode == 0 and as_json.returncode == 0, as_json.stderr
    row = pd.read_csv(StringIO(exact.stdout)).iloc[0]
    payload = strict_json(as_json.stdout)
    assert row["threshold"] == payload["curve"][0]["threshold"] == threshold
    assert row["net_benefit"] == payload["curve"][0]["net_benefit"]
    assert payload["averages"][0]["low"] == 0 and payload["averages"][0]["high"] == 0.5


def test_loss_csv_is_exact_on_request(scores_csv):
    as_json = strict_json(run_cli("loss", "--test", str(scores_csv), "--format", "json").stdout)
    exact = run_cli("loss", "--test", str(scores_csv), "--exact")
    losses = pd.read_csv(StringIO(exact.stdout.split("\n\n")[0]))
    assert losses["expected_loss"].tolist() == [r["expected_loss"] for r in as_json["losses"]]


# -- a third round of bad inputs: memory, metadata, outputs, negative numbers -------------------


def _limited(limit_mb: int, *args: str) -> subprocess.CompletedProcess:
    limit = limit_mb * 2**20
    return subprocess.run(
        [sys.executable, "-c",
         f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n"
         "from threshold_choice.cli import main; raise SystemExit(main())", *args],
        capture_output=True, text=True)


def test_a_line_of_a_million_fields_is_named_under_a_memory_limit(tmp_path):
    # pandas' typed reading built a column per field first: 2.3 GB for this 1 MB file
    path = tmp_path / "ragged.csv"
    path.write_text("label,score\n1,0.1" + "," * 1_000_000 + "\n0,0.2\n")
    line = one_error_line(_limited(1_500, "loss", "--test", str(path)))
    assert f"test file {path}: line 2 has 1000002 fields but the header 2" in line


def test_a_header_field_longer_than_the_csv_modules_limit_is_read(tmp_path, capsys):
    path = tmp_path / "wide.csv"
    path.write_text("label,score," + "x" * 200_000 + "\n1,0.9,a\n0,0.2,b\n1,0.7,c\n")
    assert main(["loss", "--test", str(path), "--method", "test-optimal"]) == 0
    assert "test-optimal" in capsys.readouterr().out


def test_a_huge_bad_value_is_shown_shortened(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("label,score\n" + "a" * 1_000_000 + ",0.1\n0,0.2\n")
    line = one_error_line(run_cli("loss", "--test", str(path)))
    assert f"label on line 2 is {'a' * 40!r}... (1000000 characters)" in line
    assert len(line) < 400


def test_a_file_read_line_by_line_is_refused_above_its_bound(tmp_path, monkeypatch):
    import threshold_choice.cli.inputs as inputs

    monkeypatch.setattr(inputs, "MAX_CHECKED_BYTES", 1000)
    path = tmp_path / "named.csv"
    path.write_text("label,score\n" + "".join(f"{'bad' if i % 2 else 'good'},0.{i}\n"
                                              for i in range(1, 200)))
    with pytest.raises(UserError, match=r"has named labels, read line by line: .* limited to "
                                        r"0 MiB; give labels 0/1"):
        inputs.read_scores_csv(path, "test", pos_label="bad")
    numbers = write_scores(tmp_path / "ok.csv", [0, 1] * 100, np.linspace(0, 1, 200))
    y, _ = inputs.read_scores_csv(numbers, "test")  # 0/1 labels: read as numbers, not bounded
    assert y.size == 200


@pytest.mark.parametrize("out", ["haberman.parquet", "haberman.json", "table5.txt"])
def test_table5_refuses_an_out_that_is_not_a_csv_or_one_of_its_inputs(tmp_path, out):
    assert main(["datasets", "prepare", "--name", "haberman", "--out", str(tmp_path),
                 "--mirror", str(SHARED / "datasets")]) == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    line = one_error_line(run_cli("datasets", "table5", "--prepared", str(tmp_path),
                                  "--out", str(tmp_path / out)))
    assert "--out names the CSV file of Table 5 (ending in .csv)" in line
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before
    published = tmp_path / "published.csv"
    published.write_text("number,dataset,instances,attributes,majority\n")
    line = one_error_line(run_cli("datasets", "table5", "--prepared", str(tmp_path),
                                  "--published", str(published), "--out", str(published)))
    assert f"the output {published} would overwrite the input {published}" in line


@pytest.mark.parametrize(("edit", "problem"), [
    (lambda meta: meta.pop("target"), "lacks 'target' (a JSON string expected)"),
    (lambda meta: meta.update(class_labels=None), "has a NoneType as 'class_labels'"),
    (lambda meta: meta.update(target=5), "has a int as 'target'"),
    (lambda meta: meta.update(class_labels=[["a"]]),
     "has class labels, features or columns that are not names"),
])
def test_prepared_metadata_with_a_key_missing_or_mistyped_is_one_line(tmp_path, edit, problem):
    assert main(["datasets", "prepare", "--name", "haberman", "--out", str(tmp_path),
                 "--mirror", str(SHARED / "datasets")]) == 0
    meta_path = tmp_path / "haberman.json"
    meta = json.loads(meta_path.read_text())
    edit(meta)
    meta_path.write_text(json.dumps(meta))
    for args in (["splits", "--dataset", "haberman", "--prepared",
                  str(tmp_path / "haberman.parquet")],
                 ["datasets", "table5", "--prepared", str(tmp_path)]):
        line = one_error_line(run_cli(*args))
        assert f"metadata {meta_path} {problem}" in line
        assert "datasets prepare" in line  # the fix


def test_splits_check_the_prepared_tables_content_hash(tmp_path):
    assert main(["datasets", "prepare", "--name", "haberman", "--out", str(tmp_path),
                 "--mirror", str(SHARED / "datasets")]) == 0
    prepared = tmp_path / "haberman.parquet"
    frame = pd.read_parquet(prepared)
    target = json.loads((tmp_path / "haberman.json").read_text())["target"]
    frame[target] = frame[target].iloc[::-1].to_numpy()  # the labels reordered
    frame.to_parquet(prepared)
    line = one_error_line(run_cli("splits", "--dataset", "haberman", "--prepared",
                                  str(prepared)))
    assert f"prepared file {prepared} has content hash" in line
    assert "Prepare the dataset again" in line


@pytest.mark.parametrize(("option", "value", "problem"), [
    ("--gamma", "-inf", "gamma must be a number >= 0 or 'inf', got '-inf'"),
    ("--gamma", "-1e-3", "gamma must be a number >= 0 or 'inf', got '-1e-3'"),
    ("--prior", "-1e-3", "must be a number in (0, 1), at least 1e-06 from either end, got -0.001"),
    ("--rate-threshold-offset", "-1e-7", "rate_threshold_offset must be in (0, 1)"),
])
def test_a_negative_number_in_exponent_form_is_checked_not_read_as_an_option(
        scores_csv, option, value, problem):
    line = one_error_line(run_cli("loss", "--test", str(scores_csv), option, value))
    assert problem in line
    assert "expected one argument" not in line


@pytest.mark.parametrize("text", [
    b"label,score\r\n1,0.9\r\n0,0.2\r\n1,0.7\r\n",  # CRLF
    b'label,score,note\n1,0.9,"a, b"\n0,0.2,c\n1,0.7,d\n',  # a comma in quotes: line by line
    b"label,score\n1,0.9\n\n\n0,0.2\n1,0.7",  # blank lines, no final newline
])
def test_the_ragged_line_scan_lets_well_formed_files_through_with_their_values(tmp_path, text):
    from threshold_choice.cli.inputs import read_scores_csv

    path = tmp_path / "ok.csv"
    path.write_bytes(text)
    labels, scores = read_scores_csv(path, "test")
    assert labels.tolist() == [1, 0, 1]
    assert scores.tolist() == [0.9, 0.2, 0.7]


def test_the_ragged_line_scan_finds_a_line_across_its_chunks(monkeypatch):
    import threshold_choice.cli.inputs as inputs

    monkeypatch.setattr(inputs, "_SCAN_CHUNK", 7)  # lines span the chunks
    ok = np.frombuffer(b"label,score\n1,0.25\n0,0.5\n1,0.75\n", dtype=np.uint8)
    assert not inputs._too_many_fields(ok, 2)
    ragged = np.frombuffer(b"label,score\n1,0.25\n0,0.5,,\n1,0.75\n", dtype=np.uint8)
    assert inputs._too_many_fields(ragged, 2)
    assert not inputs._too_many_fields(ragged, 4)  # header of four fields: none too many


@pytest.mark.parametrize(("args", "problem"), [
    (["certainty", "--costs", "1,4"], "--costs are marked on plot kind(s) cost-curves"),
    (["roc", "--train", "TRAIN"], "--train applies to plot kind(s) cost-curves, certainty"),
    (["log-odds-regret", "--train", "TRAIN"], "--train applies to plot kind(s)"),
])
def test_plot_refuses_an_option_its_kind_would_ignore(model_csv, tmp_path, args, problem):
    # the figure was drawn as without it: same CSV, no word
    args = [str(model_csv) if a == "TRAIN" else a for a in args]
    line = one_error_line(run_cli("plot", args[0], "--test", str(model_csv), *args[1:],
                                  "--out", str(tmp_path / "f.png")))
    assert problem in line
    assert not (tmp_path / "f.png").exists()
