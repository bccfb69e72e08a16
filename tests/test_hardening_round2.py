"""Bad inputs, round 2: no command overwrites its input, a failure writes nothing partial,
values that would change results silently are refused in one line, and the bootstrap's
memory is bounded whatever the number of replicates."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from tests.conftest import random_scores
from tests.workflow.test_cli_errors import one_error_line, run_cli, write_scores
from threshold_choice.errors import UserError


@pytest.fixture
def scores_csv(tmp_path):
    y, s = random_scores(0, 200)
    return write_scores(tmp_path / "model.csv", y, s)


# -- no command overwrites its input -----------------------------------------------------------


@pytest.mark.parametrize("out", ["model.png", "model.pdf"])
def test_plot_refuses_an_output_that_is_or_writes_over_its_input(tmp_path, scores_csv, out):
    # --out model.png also writes model.csv beside it
    before = scores_csv.read_bytes()
    proc = run_cli("plot", "cost-curves", "--test", str(scores_csv), "--out",
                   str(tmp_path / out))
    line = one_error_line(proc)
    assert f"would overwrite the input {scores_csv}" in line
    assert scores_csv.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.csv"]


def test_plot_refuses_a_training_file_as_its_output_under_another_name(tmp_path, scores_csv):
    link = tmp_path / "fig.csv"
    link.symlink_to(scores_csv)
    proc = run_cli("plot", "cost-curves", "--test", str(scores_csv), "--train", str(link),
                   "--out", str(tmp_path / "fig.pdf"))
    assert "would overwrite the input" in one_error_line(proc)


def test_a_figure_and_its_csv_are_written_both_or_neither(tmp_path, monkeypatch):
    from threshold_choice.plotting import CostCurveDisplay, save_displays

    y, s = random_scores(1, 100)
    display = CostCurveDisplay.from_predictions(y, s)
    out = tmp_path / "fig.png"
    (tmp_path / "fig.csv").write_text("old numbers\n")

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(display.figure_, "savefig", disk_full)
    with pytest.raises(OSError):
        save_displays([display], out)
    assert not out.exists()
    assert (tmp_path / "fig.csv").read_text() == "old numbers\n"  # the old one, untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig.csv"]  # no temporary left


# -- nothing printed before an error -----------------------------------------------------------


def test_decision_curve_checks_its_averages_before_printing(scores_csv):
    proc = run_cli("decision-curve", "--test", str(scores_csv), "--average", "0.2", "0.05")
    assert "0 <= low < high < 1" in one_error_line(proc)
    assert proc.stdout == ""


# -- values that would change results silently ------------------------------------------------


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


def test_froc_is_rank_based_so_any_real_scores_give_the_same_points():
    # unlike a decision curve, FROC thresholds the scores' order only
    from threshold_choice.fmeasure import froc_points

    y, s = random_scores(3, 200)
    ours = froc_points(y, s).drop(columns="threshold")
    scaled = froc_points(y, 100 * s - 7).drop(columns="threshold")
    pd.testing.assert_frame_equal(ours, scaled)


@pytest.mark.parametrize("offset", [5.0, 1.0, float("nan")])
def test_a_rate_threshold_offset_outside_0_1_is_refused(scores_csv, offset):
    from threshold_choice.evaluation import LossSettings

    with pytest.raises(UserError, match=r"rate_threshold_offset must be in \(0, 1\)"):
        LossSettings(rate_threshold_offset=offset)
    line = one_error_line(run_cli("loss", "--test", str(scores_csv), "--rate-threshold-offset",
                                  str(offset)))
    assert "rate_threshold_offset must be in (0, 1)" in line


def test_a_csv_with_two_label_columns_is_refused(tmp_path):
    path = tmp_path / "two.csv"
    path.write_text("label,score,label\n1,0.9,0\n0,0.1,1\n")
    line = one_error_line(run_cli("loss", "--test", str(path)))
    assert "of which 2 are named label; keep one" in line


def test_complex_scores_are_refused_not_truncated():
    from threshold_choice.evaluation import expected_losses

    y, s = random_scores(4, 50)
    with pytest.raises(UserError, match="scores are complex numbers"):
        expected_losses(y, s + 0.5j)


def test_predict_refuses_a_cost_proportion_of_two_dimensions():
    from sklearn.linear_model import LogisticRegression

    from threshold_choice.estimators import ThresholdChoiceClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] + rng.normal(size=60) > 0).astype(int)
    clf = ThresholdChoiceClassifier(LogisticRegression()).fit(X, y)
    assert clf.predict(X[:5], cost_proportion=np.full(5, 0.3)).shape == (5,)
    with pytest.raises(UserError, match=r"one per row \(1-D\), got an array of shape \(5, 1\)"):
        clf.predict(X[:5], cost_proportion=np.full((5, 1), 0.3))


def test_an_empty_cache_variable_writes_no_cache_into_the_current_folder(tmp_path):
    code = ("from threshold_choice.evaluation import expected_losses; "
            "import numpy as np; "
            "expected_losses([0, 1, 0, 1], [0.1, 0.7, 0.4, 0.9], methods=['score-driven'], "
            "gammas=[3.5])")
    env = {**os.environ, "THRESHOLD_CHOICE_CACHE": ""}
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, check=True)
    assert list(tmp_path.iterdir()) == []


# -- the bootstrap: its count checked, its memory bounded ------------------------------------


@pytest.mark.parametrize("n_boot", [2.5, -5, 0, True, 10**9])
def test_a_bad_number_of_replicates_is_refused_in_one_line(n_boot):
    from threshold_choice.bootstrap import bootstrap

    y, s = random_scores(5, 40)
    with pytest.raises(UserError, match="number of bootstrap replicates must be") as info:
        bootstrap(y, s, methods=["score-driven"], n_boot=n_boot)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("n", ["-5", "1000000000"])
def test_plot_refuses_a_bad_bootstrap_count_in_one_line(tmp_path, scores_csv, n):
    proc = run_cli("plot", "cost-curves", "--test", str(scores_csv), "--bootstrap", n,
                   "--out", str(tmp_path / "fig.png"))
    assert "number of bootstrap replicates must be" in one_error_line(proc)
    assert not (tmp_path / "fig.png").exists()


def test_the_replicates_do_not_depend_on_the_chunking(monkeypatch):
    import threshold_choice.bootstrap as boot

    y, s = random_scores(6, 120)
    whole = boot.bootstrap(y, s, methods=["score-driven", "rate-driven"], n_boot=30, seed=3)
    monkeypatch.setattr(boot, "CHUNK_CELLS", 250)  # two replicates per chunk
    assert len(list(boot._chunks(30, 120))) == 15
    chunked = boot.bootstrap(y, s, methods=["score-driven", "rate-driven"], n_boot=30, seed=3)
    np.testing.assert_array_equal(whole.replicates, chunked.replicates)
    np.testing.assert_array_equal(whole.metric_replicates, chunked.metric_replicates)
    np.testing.assert_array_equal(boot.resample_counts(y, 30, 3)[7],
                                  boot.resample_counts(y, 8, 3)[7])


MEMORY_BOUND = """
import resource, sys
limit = 1200 * 2**20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import numpy as np
from threshold_choice.bootstrap import bootstrap
rng = np.random.default_rng(0)
n = 20_000
y = (rng.random(n) < 0.4).astype(int)
s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1)
b = bootstrap(y, s, methods=["score-driven"], gammas=[float("inf")], metrics=(), n_boot=4000)
print(b.replicates.shape)
"""


@pytest.mark.slow
def test_the_bootstraps_memory_does_not_grow_with_the_replicates():
    # 4000 replicates of 20 000 examples: drawn all at once, their counts and draws alone
    # would take over 1 GB of the 1.2 GB address space allowed here
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-c", MEMORY_BOUND], capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "(4000, 1, 1)"


# -- errors in one line ------------------------------------------------------------------------


def _xy(n: int = 60):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    return X, (X[:, 0] + rng.normal(size=n) > 0).astype(int)


@pytest.mark.parametrize("cv", [None, 3])
def test_a_pos_label_that_is_no_class_is_named(cv):
    from sklearn.linear_model import LogisticRegression

    from threshold_choice.estimators import ThresholdChoiceClassifier

    X, y = _xy()
    with pytest.raises(UserError, match=r"pos_label 7 is not one of the classes \[0, 1\]"):
        ThresholdChoiceClassifier(LogisticRegression(), pos_label=7, cv=cv).fit(X, y)


@pytest.mark.parametrize("name", ["LinearRegression", "KMeans"])
def test_an_inner_estimator_that_is_not_a_classifier_is_named(name):
    from sklearn.cluster import KMeans
    from sklearn.linear_model import LinearRegression

    from threshold_choice.estimators import ThresholdChoiceClassifier

    inner = {"LinearRegression": LinearRegression(), "KMeans": KMeans(2, n_init=1)}[name]
    X, y = _xy()
    with pytest.raises(UserError, match=f"{name} is not a classifier"):
        ThresholdChoiceClassifier(inner, method="rate-driven").fit(X, y)


def test_one_method_one_gamma_and_settings_as_a_mapping_are_taken_as_meant():
    from threshold_choice.evaluation import LossSettings, expected_losses

    y, s = random_scores(7, 80)
    ours = expected_losses(y, s, methods="score-driven", gammas=4,
                           settings={"estimator": "exact"})
    spelled = expected_losses(y, s, methods=["score-driven"], gammas=[4.0],
                              settings=LossSettings(estimator="exact"))
    pd.testing.assert_frame_equal(ours, spelled)
    with pytest.raises(UserError, match="unknown loss setting"):
        expected_losses(y, s, methods="score-driven", settings={"estimater": "exact"})


def test_a_usage_error_of_the_cli_is_one_line(scores_csv):
    line = one_error_line(run_cli("loss", "--test", str(scores_csv), "--gamma", "-inf"))
    assert line.startswith("threshold-choice loss: error: argument --gamma")


def test_a_registry_of_the_wrong_shape_is_named_without_printing_the_file(tmp_path):
    from threshold_choice.models.registry import load_model_registry

    path = tmp_path / "models.yaml"
    path.write_text("- " + "\n- ".join(f"entry number {i} with a long text" for i in range(500)))
    with pytest.raises(UserError) as info:
        load_model_registry(path)
    message = str(info.value)
    assert message.startswith(f"model registry {path} breaks its schema at <top level>")
    assert len(message) < 400 and "\n" not in message


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


# -- plots of large inputs draw what a figure can show ------------------------------------------


def test_a_large_test_set_draws_at_most_max_drawn_lines_cost_lines(tmp_path):
    from threshold_choice.plotting import CostCurveDisplay, save_displays
    from threshold_choice.plotting.cost_curves import MAX_DRAWN_LINES

    rng = np.random.default_rng(3)
    n = 20_000
    y = (rng.random(n) < 0.5).astype(int)
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1)
    display = CostCurveDisplay.from_predictions(y, s, methods=["score-driven"],
                                                gammas=[float("inf")])
    assert display.cost_lines_total == np.unique(s).size + 1
    assert len(display.cost_lines) == MAX_DRAWN_LINES
    assert display.cost_line_index[0] == 0
    assert display.cost_line_index[-1] == display.cost_lines_total - 1
    collection = display.ax_.collections[0]
    assert len(collection.get_segments()) == MAX_DRAWN_LINES
    assert f"({MAX_DRAWN_LINES} of {display.cost_lines_total})" in collection.get_label()
    save_displays([display], tmp_path / "f.png")
    data = pd.read_csv(tmp_path / "f.csv")
    assert (data["kind"] == "cost_line").sum() == 2 * MAX_DRAWN_LINES  # the drawn ones
    # the drawn lines are the lines of those numbers, heights unchanged
    from threshold_choice.costlines import CostLines

    lines = CostLines.from_scores(y, s)
    j = display.cost_line_index[17]
    assert display.cost_lines[17].tolist() == [lines.left[j], lines.right[j]]


def test_a_small_test_set_draws_every_cost_line():
    from threshold_choice.plotting import CostCurveDisplay

    y, s = random_scores(8, 300)
    display = CostCurveDisplay.from_predictions(y, s, methods=["score-driven"])
    assert len(display.cost_lines) == display.cost_lines_total == np.unique(s).size + 1


def test_a_weka_class_that_is_not_a_classifier_is_refused_before_it_is_built(jvm):
    from threshold_choice.models.weka import weka_option_problems

    problems = weka_option_problems({
        "filter": ("weka.filters.unsupervised.attribute.Remove", []),
        "absent": ("weka.classifiers.trees.J49", []),
        "good": ("weka.classifiers.trees.J48", ["-U"]),
    })
    assert problems["filter"] == ("'weka.filters.unsupervised.attribute.Remove' is not a Weka "
                                  "classifier.")
    assert problems["absent"].startswith("Weka class 'weka.classifiers.trees.J49' not found")
    assert "good" not in problems
