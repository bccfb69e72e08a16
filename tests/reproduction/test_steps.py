"""The workflow steps that route data between rules (without Snakemake)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.metrics import compute_metrics
from threshold_choice.reproduction.figures import toy_example
from threshold_choice.reproduction.runs import RUN_COLUMNS
from threshold_choice.reproduction.steps import (
    evaluate_scores,
    read_splits,
    step_credit_a_figures,
    step_evaluate,
    step_figures_runs,
    step_figures_toy,
    write_csv,
)
from threshold_choice.reproduction.steps.report import figure_settings
from threshold_choice.splits import Split, splits_frame


def scores_frame():
    """Two splits whose train and test parts differ, so swapping them changes the results."""
    rng = np.random.default_rng(0)
    parts = []
    for split in (1, 2):
        for part, n, shift in (("train", 30, 0.4), ("test", 25, 0.1)):
            y = (rng.random(n) < 0.6).astype(np.int8)
            y[:2] = [0, 1]
            s = np.round(np.clip(shift * y + (1 - shift) * rng.random(n), 0, 1), 2)
            parts.append(
                pd.DataFrame(
                    {"split": split, "part": part, "row": np.arange(n), "label": y, "score": s}
                )
            )
    return pd.concat(parts, ignore_index=True)


def test_evaluate_scores_uses_test_scores_for_losses_and_metrics_and_train_for_selection():
    scores = scores_frame()
    methods = ["test-optimal", "train-optimal", "score-driven", "rate-driven"]
    runs = evaluate_scores(
        scores, "toy", "M", methods=methods, gammas=[np.inf, 2.0], settings=LossSettings()
    )
    assert list(runs.columns) == list(RUN_COLUMNS)
    assert len(runs) == 2 * 2 * 4
    for split in (1, 2):
        part = scores[scores.split == split]
        test, train = part[part.part == "test"], part[part.part == "train"]
        expected = expected_losses(
            test.label,
            test.score,
            train_y=train.label,
            train_s=train.score,
            methods=methods,
            gammas=[np.inf, 2.0],
        )
        got = runs[runs.split == split]
        np.testing.assert_allclose(got["loss"].to_numpy(), expected["expected_loss"].to_numpy())
        metrics = compute_metrics(test.label, test.score)
        assert got["AUC"].iloc[0] == pytest.approx(metrics["AUC"])
        assert got["BS"].iloc[0] == pytest.approx(metrics["BS"])
        # the swapped roles give other numbers: the check above can fail
        swapped = compute_metrics(train.label, train.score)
        assert swapped["BS"] != pytest.approx(metrics["BS"])


def test_evaluate_scores_names_the_run_of_a_one_class_test_part():
    scores = scores_frame()
    scores.loc[(scores.split == 2) & (scores.part == "test"), "label"] = 1
    with pytest.raises(UserError, match="dataset toy, model M, split 2: test scores: only class 1"):
        evaluate_scores(
            scores, "toy", "M", methods=["score-driven"], gammas=[np.inf], settings=LossSettings()
        )


def test_splits_csv_round_trips_to_zero_based_rows(tmp_path):
    splits = [
        Split(train=np.array([4, 0, 2]), test=np.array([1, 3]), iteration=1),
        Split(train=np.array([1, 3, 4]), test=np.array([2, 0]), iteration=2),
    ]
    path = tmp_path / "splits.csv"
    write_csv(splits_frame("toy", splits), path)
    frame = pd.read_csv(path)
    assert frame["row"].min() == 1  # 1-based on disk
    back = read_splits(path)
    for original, read in zip(splits, back, strict=True):
        np.testing.assert_array_equal(read.train, original.train)  # order kept
        np.testing.assert_array_equal(read.test, original.test)
        assert read.iteration == original.iteration


def test_credit_a_figures_step_refuses_an_output_it_cannot_draw(tmp_path) -> None:
    files = [tmp_path / "f.png", tmp_path / "f.csv"]
    with pytest.raises(UserError, match="fig4 needs the credit-a scores of J48Unp, NB"):
        step_credit_a_figures([], {"fig4": files}, gammas=["inf"], settings={})
    with pytest.raises(UserError, match="the credit-a figures are fig3, fig4, fig7, not fig5"):
        step_credit_a_figures([], {"fig5": files}, gammas=["inf"], settings={})
    assert not list(tmp_path.iterdir())


#: an evaluation config other than the defaults: the paper's grid with the authors' two
#: conventions, and a belief about c that is not uniform
EVALUATION = {"estimator": "grid", "grid_size": 1000, "seed": 0, "rate_threshold_offset": 1e-7,
              "tie_breaking": "authors", "cost_distribution": "beta:2,2", "loss": "accuracy"}


def test_the_cost_curve_figures_areas_are_the_runs_expected_losses(tmp_path) -> None:
    """Figs 3 (credit-a) and 9 (the toy example) take the evaluation settings the runs are
    evaluated with: their legends' areas are the runs' losses (``runs.parquet``)."""
    frame = scores_frame()
    # Random's test scores 5e-8 apart from others: the authors' rate-driven thresholds, 1e-7
    # below each score, then realise other lines than the exact interpolation
    test = (frame["part"] == "test").to_numpy() & (frame["row"] % 2 == 0).to_numpy()
    paths = []
    for model, score in (("Prior", np.full(len(frame), 0.6)),
                         ("Random", frame["score"] + np.where(test, 5e-8, 0.0))):
        paths.append(tmp_path / "credit-a" / f"{model}.parquet")
        paths[-1].parent.mkdir(exist_ok=True)
        frame.assign(score=score).to_parquet(paths[-1])
    methods = ["test-optimal", "train-optimal", "score-driven", "rate-driven"]
    step_evaluate(paths, "credit-a", tmp_path / "runs.parquet", methods=methods,
                  gammas=["inf", "0"], settings=EVALUATION)
    step_credit_a_figures(paths, {"fig3": [tmp_path / "fig3.png", tmp_path / "fig3.csv"]},
                          gammas=["inf", "0"], settings=EVALUATION)
    runs = pd.read_parquet(tmp_path / "runs.parquet")
    runs = runs[runs["split"] == 1].set_index(["model", "method", "gamma"])["loss"]
    figure = pd.read_csv(tmp_path / "fig3.csv")
    figure = figure[figure["kind"] == "expected_loss"]
    shown = pd.Series(figure["y"].to_numpy(), index=pd.MultiIndex.from_arrays(
        [figure["panel"], figure["series"], figure["x"].astype(float)]))
    assert len(shown) == 16
    np.testing.assert_allclose(shown.to_numpy(), runs.loc[shown.index].to_numpy(),
                               rtol=0, atol=1e-15)
    # the settings matter on these scores: under the defaults, other areas
    random = frame[(frame["split"] == 1)].assign(score=frame["score"] + np.where(test, 5e-8, 0))
    part = {p: random[random["part"] == p] for p in ("test", "train")}
    default = expected_losses(part["test"]["label"], part["test"]["score"],
                              train_y=part["train"]["label"], train_s=part["train"]["score"],
                              gammas=[np.inf, 0.0])
    default = default.set_index(["method", "gamma"])["expected_loss"]
    assert not np.allclose(shown.loc["Random"].loc[default.index], default, rtol=0, atol=1e-4)
    # and the authors' offset alone changes rate-driven's loss
    offset = expected_losses(part["test"]["label"], part["test"]["score"],
                             methods=["rate-driven"], gammas=[np.inf],
                             settings=LossSettings(estimator="grid", rate_threshold_offset=1e-7))
    grid = expected_losses(part["test"]["label"], part["test"]["score"],
                           methods=["rate-driven"], gammas=[np.inf],
                           settings=LossSettings(estimator="grid"))
    assert abs(offset["expected_loss"].item() - grid["expected_loss"].item()) > 1e-5
    # the toy figures too
    files = {n: [tmp_path / f"{n}.png", tmp_path / f"{n}.csv"] for n in ("fig2", "fig8", "fig9")}
    step_figures_toy(files["fig2"], files["fig8"], files["fig9"], settings=EVALUATION)
    toy = toy_example()
    expected = expected_losses(toy.test_y, toy.test_s, train_y=toy.train_y, train_s=toy.train_s,
                               gammas=[np.inf, 0.0],
                               settings=figure_settings(EVALUATION))
    fig9 = pd.read_csv(tmp_path / "fig9.csv")
    fig9 = fig9[fig9["kind"] == "expected_loss"].set_index(["series", "x"])["y"]
    expected = expected.set_index(["method", "gamma"])["expected_loss"]
    np.testing.assert_allclose(fig9.loc[expected.index], expected, rtol=0, atol=1e-15)


def written(folder) -> set:
    return {p.relative_to(folder) for p in folder.rglob("*") if p.is_file()}


def test_figure_steps_write_exactly_the_files_they_are_given(tmp_path) -> None:
    """No step makes up a file name: the files (any names, folders, formats) are the rule's."""
    toy = {name: [tmp_path / name / "drawn.svg", tmp_path / f"{name}-numbers.csv",
                  tmp_path / name / "again.png"] for name in ("fig2", "fig8", "fig9")}
    step_figures_toy(toy["fig2"], toy["fig8"], toy["fig9"])
    runs = pd.DataFrame(
        [(d, m, 1, g, meth, loss) for d, m, loss in (("haberman", "NB", 0.2), ("bupa", "J48", 0.3))
         for g in (np.inf, 0.0) for meth in ("train-optimal", "score-driven")],
        columns=["dataset", "model", "split", "gamma", "method", "loss"],
    )
    runs_path = tmp_path / "runs.parquet"
    runs.to_parquet(runs_path)
    fig5, fig6 = [tmp_path / "five.pdf", tmp_path / "5.csv"], [tmp_path / "six" / "6.csv",
                                                                tmp_path / "six" / "6.png"]
    step_figures_runs(runs_path, fig5, fig6, methods=["score-driven"], baselines=["J48"])
    expected = {p.relative_to(tmp_path) for files in (*toy.values(), fig5, fig6) for p in files}
    assert written(tmp_path) == expected | {runs_path.relative_to(tmp_path)}
    assert (tmp_path / "fig2" / "drawn.svg").read_bytes().lstrip().startswith(b"<?xml")
    assert (tmp_path / "five.pdf").read_bytes()[:4] == b"%PDF"
    assert (tmp_path / "six" / "6.png").read_bytes()[:4] == b"\x89PNG"
    # the baselines given are left out of Fig. 5
    assert set(pd.read_csv(tmp_path / "5.csv")["series"]) == {"NB"}


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (["f.png"], "one .csv"),
        (["f.png", "a.csv", "b.csv"], "one .csv"),
        (["f.jpg", "f.csv"], "figure formats must be"),
        (["f.png", "g.png", "f.csv"], "figure formats must be"),
    ],
)
def test_figure_files_need_one_csv_and_distinct_known_formats(tmp_path, files, message):
    with pytest.raises(UserError, match=message):
        step_figures_toy([tmp_path / f for f in files], [tmp_path / "8.csv"],
                         [tmp_path / "9.csv"])
    assert not list(tmp_path.iterdir())
