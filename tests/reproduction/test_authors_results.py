"""Reading the authors' ``.Rdata`` results and comparing a run's means with them, on a
stand-in checkout written with pyreadr (the real one is theirs: a fixture of its means is
checked in ``tests/paper/test_authors_runs.py``)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from threshold_choice.errors import UserError
from threshold_choice.reproduction.authors_results import (
    GAMMAS,
    RESULTS,
    compare_means,
    read_authors_means,
)

pyreadr = pytest.importorskip("pyreadr", reason="pyreadr (the test extra) reads .Rdata")

DATASETS = ["sonar", "bupa", "musk1"]  # list.files sorts them: bupa, musk1, sonar


def _checkout(root: Path) -> Path:
    (root / "data").mkdir(parents=True)
    for name in DATASETS:
        (root / "data" / f"{name}.arff").write_text("@relation x\n")
    (root / RESULTS.format("0")).parent.mkdir(parents=True)
    rows = [(it, d, m) for it in (1, 2) for d in (1, 2, 3) for m in range(1, 13)]
    for gamma in GAMMAS:
        frame = pd.DataFrame(rows, columns=["iter", "Dataset", "Method"]).astype(float)
        # a loss that names its cell: dataset * 100 + model + gamma / 1000 (+ iteration noise)
        tag = (20 if math.isinf(gamma) else gamma) / 1000
        base = frame["Dataset"] * 100 + frame["Method"] + tag
        for k, column in enumerate(["optimal", "trainoptimal", "scored", "rated"]):
            frame[column] = base + k / 10 + (frame["iter"] - 1.5) * 1e-3
        label = "Inf" if math.isinf(gamma) else str(int(gamma))
        pyreadr.write_rdata(str(root / RESULTS.format(label)), frame, df_name="dades")
    return root


def test_their_means_are_named_by_sorted_file_and_script_order(tmp_path: Path) -> None:
    means = read_authors_means(_checkout(tmp_path))
    assert len(means) == 3 * 12 * 13 * 4
    cell = means.set_index(["dataset", "model", "gamma", "method"])["loss"]
    # musk1 is their 2nd file, NB their 4th model
    assert cell[("musk1", "NB", 4.0, "rate-driven")] == pytest.approx(204 + 0.004 + 0.3)
    assert cell[("sonar", "Random", math.inf, "test-optimal")] == pytest.approx(312 + 0.02)


def test_pairs_that_differ_are_listed_with_their_known_cause(tmp_path: Path) -> None:
    theirs = read_authors_means(_checkout(tmp_path))
    ours = theirs.copy()
    off = ((ours["model"] == "NB") & (ours["method"] == "test-optimal")
           & ours["dataset"].isin(["musk1", "bupa"]) & (ours["gamma"] == 2.0))
    ours.loc[off, "loss"] += 1e-3
    ours.loc[~off, "loss"] += 4e-7  # within the tolerance
    both = compare_means(theirs, ours, 5e-7)
    differ = both[~both["agree"]].set_index("dataset")
    assert sorted(differ.index) == ["bupa", "musk1"]
    assert "adjacent doubles" in differ.loc["musk1", "cause"]
    assert differ.loc["bupa", "cause"] == ""  # no known cause: reported as unknown
    np.testing.assert_allclose(differ["difference"], 1e-3)


def test_a_folder_that_is_not_their_checkout_is_named(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="not a checkout of ceferra/ThresholdChoiceMethods"):
        read_authors_means(tmp_path)


def test_the_step_writes_every_pair_of_a_runs_table(tmp_path: Path) -> None:
    from threshold_choice.reproduction.authors_results import (
        read_authors_runs,
        step_compare_authors_runs,
    )

    checkout = _checkout(tmp_path / "authors")
    runs = read_authors_runs(checkout)  # their runs as a runs table: every mean agrees
    runs = runs[runs["dataset"] == "bupa"]
    runs.loc[(runs["model"] == "J48") & (runs["split"] == 2), "loss"] += 2e-6
    runs.to_parquet(tmp_path / "runs.parquet")
    step_compare_authors_runs(tmp_path / "runs.parquet", checkout, tmp_path / "out.csv")
    written = pd.read_csv(tmp_path / "out.csv", keep_default_na=False)
    assert len(written) == 12 * 13 * 4  # the pairs both hold: bupa's
    assert set(written.loc[~written["agree"], "model"]) == {"J48"}  # its means off by 1e-6
    assert (written.loc[~written["agree"], "cause"] == "").all()
