"""The numbers of Figs 1-9 from the figures' data functions, without drawing anything.

Every test here runs with matplotlib's ``Figure`` made unconstructible, and the expectations
are computed independently of the figure code: cost lines by brute force over the thresholds,
closed forms (Brier score, MAE, the Prior model's areas, Beta moments and CDF), trapezoid
quadrature of the plotted curves, plain-Python means, and the library's ``expected_loss`` on
the same scores.
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from scipy.special import betainc

# labels and scores of one run: test and training
from tests.reproduction.test_figures import scores
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.expected_loss import expected_loss
from threshold_choice.methods import make_selection
from threshold_choice.plotting._common import DATA_COLUMNS, RunScores
from threshold_choice.reproduction.figures import (
    cost_curve_displays,
    cost_curves_data,
    credit_a_data,
    draw_cost_curves,
    figure1_data,
    figure2_data,
    figure5_data,
    figure6_data,
    figure8_data,
    figure9_data,
    toy_example,
)
from threshold_choice.reproduction.paper import FIGURES, PAPER_METHODS

INF = math.inf


@pytest.fixture(autouse=True)
def no_figure(monkeypatch):
    """Creating a matplotlib Figure fails the test: the data functions must not draw."""
    from matplotlib.figure import Figure

    def refuse(*args, **kwargs):
        raise AssertionError("a matplotlib Figure was created")

    monkeypatch.setattr(Figure, "__init__", refuse)


def test_the_guard_catches_a_drawing():
    displays = cost_curve_displays({"test set": toy_example()})
    with pytest.raises(AssertionError, match="Figure was created"):
        draw_cost_curves(displays, title="drawn")


#: a runs table of one dataset and model type at gamma = inf and 0, as code for a fresh process
_TINY_RUNS = (
    "runs = pd.DataFrame({'dataset': ['a'] * 4, 'model': ['NB'] * 4, 'split': [1] * 4,\n"
    "    'gamma': [math.inf, math.inf, 0.0, 0.0],\n"
    "    'method': ['train-optimal', 'score-driven'] * 2, 'loss': [.1, .2, .3, .4]})\n"
)


def test_the_data_functions_never_import_matplotlib():
    code = (
        "import sys, math\n"
        "import pandas as pd\n"
        "from threshold_choice.reproduction import figures as F\n"
        "t = F.toy_example()\n"
        "F.figure1_data(t.test_y, t.test_s, t.train_y, t.train_s)\n"
        "F.figure2_data(n=1000)\n"
        "F.credit_a_data('fig3', {'Prior': t, 'Random': t})\n"
        "F.figure8_data(); F.figure9_data()\n"
        + _TINY_RUNS +
        "F.figure5_data(runs); F.figure6_data(runs)\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib was imported'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_the_figures_drawn_from_scores_never_import_scikit_learn(tmp_path):
    # each figure job is a fresh process: scikit-learn's import (with scipy.stats: about a
    # second of CPU) is for from_estimator, not for figures of scores
    code = (
        "import sys, math\n"
        "import pandas as pd\n"
        "from threshold_choice.reproduction import figures as F\n"
        "from threshold_choice.reproduction.steps import step_figures_toy\n"
        f"out = {str(tmp_path)!r}\n"
        "t = F.toy_example()\n"
        "F.credit_a_figure('fig3', {'Prior': t, 'Random': t}, out + '/fig3')\n"
        "step_figures_toy(*[[f'{out}/fig{n}.png', f'{out}/fig{n}.pdf', f'{out}/fig{n}.csv']\n"
        "                   for n in (2, 8, 9)])\n"
        + _TINY_RUNS +
        "F.figure5(runs, out + '/fig5'); F.figure6(runs, out + '/fig6')\n"
        "print(sorted(m for m in ('sklearn', 'matplotlib') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (tmp_path / "fig3.png").is_file() and (tmp_path / "fig9.pdf").is_file()
    assert proc.stdout.split("\n")[-2] == "['matplotlib']"


# -- independent references ----------------------------------------------------------------------


def brute_force_lines(y: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The cost lines (ends at c = 0 and c = 1) of every threshold, one per distinct score and
    one below all: predict 1 iff score > t, Q(c) = 2 (c pi0 FP0 + (1 - c) pi1 FN1)."""
    y, s = np.asarray(y), np.asarray(s, dtype=float)
    ends = []
    for t in [-np.inf, *sorted(set(s.tolist()))]:
        pi0_fp0 = np.mean((y == 0) & (s > t))
        pi1_fn1 = np.mean((y == 1) & (s <= t))
        ends.append((2 * pi1_fn1, 2 * pi0_fp0))
    return np.array(sorted(ends))


def rows(data: pd.DataFrame, panel: str, kind: str, series: str | None = None) -> pd.DataFrame:
    out = data[(data["panel"] == panel) & (data["kind"] == kind)]
    return out if series is None else out[out["series"] == series]


def areas(data: pd.DataFrame, panel: str) -> dict[tuple[str, float], float]:
    return {(r.series, r.x): r.y for r in rows(data, panel, "expected_loss").itertuples()}


def trapezoid(curve: pd.DataFrame) -> float:
    x, y = curve["x"].to_numpy(), curve["y"].to_numpy()
    return float(np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2))


def check_cost_panel(data, panel, run: RunScores, *, methods, gammas, estimator="exact",
                     cost_lines=True):
    """A cost-curve panel against references computed apart from the figure code."""
    y, s = run.test_y, run.test_s
    lines = rows(data, panel, "cost_line")
    if cost_lines:
        ends = lines.pivot_table(index="series", columns="x", values="y")
        np.testing.assert_allclose(np.array(sorted(map(tuple, ends[[0.0, 1.0]].to_numpy()))),
                                   brute_force_lines(y, s), atol=1e-12)
    else:
        assert lines.empty
    got = areas(data, panel)
    assert list(got) == [(m, g) for m in methods for g in gammas]  # drawing order
    test = CostLines.from_scores(y, s)
    train = CostLines.from_scores(run.train_y, run.train_s)
    for (method, gamma), area in got.items():
        label = "inf" if gamma == INF else f"{gamma:g}"
        curve = rows(data, panel, "curve", f"{method} gamma={label}")
        assert len(curve) >= 1001 and curve["x"].is_monotonic_increasing
        assert (curve["x"].iloc[0], curve["x"].iloc[-1]) == (0.0, 1.0)
        sel = make_selection(method, test, train=train)
        assert area == pytest.approx(expected_loss(sel, gamma, estimator=estimator), abs=1e-12)
        if estimator == "exact":  # the area is the integral of the plotted curve
            assert area == pytest.approx(trapezoid(curve), abs=2e-5)
    if estimator != "exact":  # the closed forms below are the integrals
        return
    yf = y.astype(float)
    bs, mae = float(np.mean((yf - s) ** 2)), float(np.mean(np.abs(yf - s)))
    if ("score-driven", INF) in got:
        assert got[("score-driven", INF)] == pytest.approx(bs, abs=1e-9)
    if ("score-driven", 0.0) in got:
        assert got[("score-driven", 0.0)] == pytest.approx(mae, abs=1e-9)
    if ("test-optimal", 0.0) in got and ("test-optimal", INF) in got:
        assert got[("test-optimal", 0.0)] == pytest.approx(2 * got[("test-optimal", INF)])
    if ("test-optimal", INF) in got:  # the lower envelope of the brute-force lines
        curve = rows(data, panel, "curve", "test-optimal gamma=inf")
        c = curve["x"].to_numpy()
        ref = brute_force_lines(y, s)
        envelope = np.min(ref[:, :1] * (1 - c) + ref[:, 1:] * c, axis=0)
        np.testing.assert_allclose(curve["y"], envelope, atol=1e-12)


# -- Figs 1, 3, 4, 7, 9: cost curves -------------------------------------------------------------


def test_frames_have_the_data_columns():
    for data in (figure9_data(), figure8_data(), figure2_data(n=100, bins=5)):
        assert tuple(data.columns) == DATA_COLUMNS


def test_figure1_data_is_the_four_methods_at_certainty_over_the_test_cost_lines():
    run = toy_example()
    data = figure1_data(run.test_y, run.test_s, run.train_y, run.train_s)
    assert set(data["panel"]) == {"test set"}
    assert rows(data, "test set", "cost_line")["series"].nunique() == 6  # 5 leaves, 6 lines
    check_cost_panel(data, "test set", run, methods=PAPER_METHODS, gammas=(INF,))


def test_figure1_data_uses_the_given_estimator():
    run = scores(3, "model")
    data = figure1_data(run.test_y, run.test_s, run.train_y, run.train_s,
                        settings={"estimator": "grid"})
    check_cost_panel(data, "test set", run, methods=PAPER_METHODS, gammas=(INF,),
                     estimator="grid")


def near_duplicates(seed: int = 5, n: int = 200) -> RunScores:
    """Scores on a 0.01 grid, half of them 5e-8 above it: the authors' rate-driven thresholds
    (1e-7 below each score) then realise other lines than the exact interpolation."""
    rng = np.random.default_rng(seed)
    parts = []
    for jitter in (5e-8, 0.0):  # test, train
        y = (rng.random(n) < 0.5).astype(np.int8)
        y[:2] = [0, 1]
        s = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 2)
        parts += [y, s + np.where(rng.random(n) < 0.5, jitter, 0.0)]
    return RunScores.from_arrays(*parts)


#: settings other than the defaults, each changing some area of :func:`near_duplicates`
OTHER_SETTINGS = [
    {"estimator": "grid", "rate_threshold_offset": 1e-7, "tie_breaking": "authors"},
    {"cost_distribution": "beta:2,2"},
    {"prior": 0.3},
]


@pytest.mark.parametrize("settings", OTHER_SETTINGS, ids=["authors", "beta", "prior"])
def test_figure1_areas_are_the_expected_losses_of_the_given_settings(settings):
    run = near_duplicates()
    arrays = (run.test_y, run.test_s, run.train_y, run.train_s)
    data = figure1_data(*arrays, settings=settings)

    def losses(chosen):
        frame = expected_losses(*arrays[:2], train_y=run.train_y, train_s=run.train_s,
                                gammas=[INF], settings=chosen)
        return {(m, g): v for m, g, v in frame.itertuples(index=False)}

    assert areas(data, "test set") == losses(LossSettings.from_mapping(settings))
    default = losses(None)
    assert any(abs(areas(data, "test set")[k] - default[k]) > 1e-5 for k in default)
    if settings.get("estimator", "exact") == "exact":  # the area is the curve's integral
        # (weighted by the belief w = 6 c (1 - c) of beta:2,2)
        beta = "cost_distribution" in settings
        for (method, _), area in areas(data, "test set").items():
            curve = rows(data, "test set", "curve", f"{method} gamma=inf")
            weighted = curve.assign(y=curve["y"] * 6 * curve["x"] * (1 - curve["x"])) if beta \
                else curve
            assert trapezoid(weighted) == pytest.approx(area, abs=2e-5), method


def test_figure3_data_prior_areas_have_closed_forms():
    runs = {"Prior": scores(1, "prior"), "Random": scores(2, "random")}
    data = credit_a_data("fig3", runs)
    assert list(dict.fromkeys(data["panel"])) == list(FIGURES["fig3"].models)
    for model, run in runs.items():
        check_cost_panel(data, model, run, methods=PAPER_METHODS, gammas=(INF, 0.0))
    # a constant score has two cost lines, 2 pi0 c (all predicted 1) and 2 pi1 (1 - c) (all
    # predicted 0), crossing at c = pi1: test-optimal's area is pi0 pi1; train-optimal crosses
    # at the training pi1'; rate-driven mixes the two lines in proportion c, an area of
    # 2 * int c (1 - c) = 1/3 whatever pi; at gamma = 0 its rate is uniform: area 1/2
    prior = runs["Prior"]
    pi1 = float(np.mean(prior.test_y))
    pi0, pi1_train = 1 - pi1, float(np.mean(prior.train_y))
    got = areas(data, "Prior")
    assert got[("test-optimal", INF)] == pytest.approx(pi0 * pi1, abs=1e-12)
    assert got[("train-optimal", INF)] == pytest.approx(
        pi0 * pi1_train**2 + pi1 * (1 - pi1_train) ** 2, abs=1e-12)
    assert got[("rate-driven", INF)] == pytest.approx(1 / 3, abs=1e-12)
    assert got[("rate-driven", 0.0)] == pytest.approx(1 / 2, abs=1e-12)


@pytest.mark.parametrize("stem", ["fig4", "fig7"])
def test_credit_a_figure_data_one_panel_per_model(stem):
    models = FIGURES[stem].models
    runs = {m: scores(10 + i, "model") for i, m in enumerate((*FIGURES["fig7"].models, "NB"))}
    data = credit_a_data(stem, runs, gammas=(INF, 4.0, 0.0))
    assert list(dict.fromkeys(data["panel"])) == list(models)
    for model in models:
        check_cost_panel(data, model, runs[model], methods=PAPER_METHODS,
                         gammas=(INF, 4.0, 0.0))


def test_credit_a_figure_data_names_the_missing_models():
    with pytest.raises(UserError, match=r"no scores for model.*Random"):
        credit_a_data("fig3", {"Prior": scores(1, "prior")})


def test_figure9_data_has_no_cost_lines_and_both_certainty_levels():
    run = toy_example()
    check_cost_panel(figure9_data(), "test set", run, methods=PAPER_METHODS,
                     gammas=(INF, 0.0), cost_lines=False)


def test_cost_curves_data_of_other_methods():
    run = scores(4, "model")
    methods = ("score-uniform", "rate-uniform", "score-driven")
    data = cost_curves_data({"a": run}, methods=methods, gammas=(2.0, INF))
    check_cost_panel(data, "a", run, methods=methods, gammas=(2.0, INF))
    # score-uniform draws the threshold uniformly whatever c_hat: its loss cannot change
    got = areas(data, "a")
    assert got[("score-uniform", 2.0)] == pytest.approx(got[("score-uniform", INF)])


def test_cost_curves_data_needs_training_scores_for_train_optimal():
    run = RunScores.from_arrays([0, 1, 1], [0.2, 0.6, 0.9])
    with pytest.raises(UserError, match="p: train-optimal needs the training scores"):
        cost_curves_data({"p": run})


# -- Fig. 8 --------------------------------------------------------------------------------------


def test_figure8_data_training_envelope_and_test_panel():
    run = toy_example()
    data = figure8_data()
    assert list(dict.fromkeys(data["panel"])) == ["training set", "test set"]
    train_lines = rows(data, "training set", "cost_line")
    ends = train_lines.pivot_table(index="series", columns="x", values="y")
    ref = brute_force_lines(run.train_y, run.train_s)
    np.testing.assert_allclose(np.array(sorted(map(tuple, ends[[0.0, 1.0]].to_numpy()))), ref,
                               atol=1e-12)
    envelope = rows(data, "training set", "curve", "training envelope")
    c = envelope["x"].to_numpy()
    np.testing.assert_allclose(envelope["y"], np.min(ref[:, :1] * (1 - c) + ref[:, 1:] * c, 0),
                               atol=1e-12)
    check_cost_panel(data, "test set", run, methods=PAPER_METHODS, gammas=(INF,))


def test_figure8_data_needs_training_scores():
    with pytest.raises(UserError, match="training scores"):
        figure8_data(RunScores.from_arrays([0, 1], [0.3, 0.7]))


# -- Fig. 2 --------------------------------------------------------------------------------------


def beta_pdf(x: np.ndarray, a: float, b: float) -> np.ndarray:
    log_beta = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    return np.exp((a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - log_beta)


def test_figure2_data_histograms_follow_the_beta_distribution():
    n, bins = 200_000, 40
    data = figure2_data(c_values=(0.2, 0.7), gammas=(10.0, 0.0), n=n, bins=bins, seed=3)
    panels = list(dict.fromkeys(data["panel"]))
    assert panels == ["c = 0.2, \u03b3 = 10", "c = 0.2, \u03b3 = 0", "c = 0.7, \u03b3 = 10",
                      "c = 0.7, \u03b3 = 0"]
    edges = np.linspace(0, 1, bins + 1)
    for panel, (c, gamma) in zip(panels, [(0.2, 10), (0.2, 0), (0.7, 10), (0.7, 0)],
                                 strict=True):
        a, b = gamma * c + 1, gamma * (1 - c) + 1
        hist = rows(data, panel, "histogram")
        np.testing.assert_allclose(hist["x"], (edges[:-1] + edges[1:]) / 2)
        mass = hist["y"].to_numpy() / bins
        assert mass.sum() == pytest.approx(1.0)
        # each bin's share of the draws against the Beta CDF, within 5 standard errors
        p = np.diff(betainc(a, b, edges))
        assert np.all(np.abs(mass - p) <= 5 * np.sqrt(p * (1 - p) / n) + 1e-12)
        dens = rows(data, panel, "density")
        np.testing.assert_allclose(dens["y"], beta_pdf(dens["x"].to_numpy(), a, b), rtol=1e-9)


def test_figure2_data_is_reproducible_from_its_seed():
    first = figure2_data(n=5000, bins=10, seed=7)
    pd.testing.assert_frame_equal(first, figure2_data(n=5000, bins=10, seed=7))
    assert not first.equals(figure2_data(n=5000, bins=10, seed=8))


def test_figure2_data_refuses_infinite_gamma():
    with pytest.raises(UserError, match="finite gammas"):
        figure2_data(gammas=(INF,))


# -- Figs 5 and 6: aggregates of the runs --------------------------------------------------------


@pytest.fixture
def runs() -> pd.DataFrame:
    """Random losses; Zeta has no runs at gamma = 4; one NB run lacks score-driven at inf."""
    rng = np.random.default_rng(11)
    records = []
    for dataset in ("a", "b"):
        for model in ("SVM", "Zeta", "NB", "Prior", "J48"):
            for split in (1, 2, 3):
                for gamma in (INF, 4.0, 0.0):
                    for method in ("train-optimal", "score-driven", "rate-driven"):
                        if model == "Zeta" and gamma == 4.0:
                            continue
                        if (model, dataset, split, gamma, method) == (
                                "NB", "a", 2, INF, "score-driven"):
                            continue
                        records.append((dataset, model, split, gamma, method, rng.random()))
    return pd.DataFrame(records, columns=["dataset", "model", "split", "gamma", "method", "loss"])


def plain_means(runs: pd.DataFrame, key) -> dict:
    total, count = defaultdict(float), defaultdict(int)
    for record in runs.to_dict("records"):
        total[key(record)] += record["loss"]
        count[key(record)] += 1
    return {k: total[k] / count[k] for k in total}


def test_figure5_data_means_per_method_model_and_gamma(runs):
    methods = ("train-optimal", "score-driven", "test-optimal", "rate-driven")
    data = figure5_data(runs, methods=methods, exclude=("Prior",))
    assert set(data["kind"]) == {"gamma_mean"}
    # test-optimal has no runs: no panel; model order of Table 7, then the others by name
    assert list(dict.fromkeys(data["panel"])) == ["train-optimal", "score-driven", "rate-driven"]
    means = plain_means(runs, lambda r: (r["method"], r["model"], r["gamma"]))
    for method in ("train-optimal", "score-driven", "rate-driven"):
        panel = data[data["panel"] == method]
        assert list(dict.fromkeys(panel["series"])) == ["J48", "NB", "SVM", "Zeta"]
        for model, line in panel.groupby("series"):
            assert line["x"].tolist() == [INF, 4.0, 0.0]  # certainty decreasing
            expected = [means.get((method, model, g), np.nan) for g in (INF, 4.0, 0.0)]
            np.testing.assert_allclose(line["y"], expected, rtol=1e-12)
    assert np.isnan(data[(data["series"] == "Zeta") & (data["x"] == 4.0)]["y"]).all()


def test_figure5_data_without_runs_of_the_methods_is_an_error(runs):
    with pytest.raises(UserError, match="no runs of test-optimal"):
        figure5_data(runs, methods=("test-optimal",))
    with pytest.raises(UserError, match="runs lack column"):
        figure5_data(runs.drop(columns="loss"))


def test_figure6_data_points_are_runs_with_both_methods_and_means_are_theirs(runs):
    data = figure6_data(runs, gammas=(INF, 0.0), x_method="train-optimal",
                        y_method="score-driven")
    assert list(dict.fromkeys(data["panel"])) == ["\u03b3 = \u221e", "\u03b3 = 0"]
    for panel, gamma in (("\u03b3 = \u221e", INF), ("\u03b3 = 0", 0.0)):
        pairs = defaultdict(dict)
        for r in runs[runs["gamma"] == gamma].to_dict("records"):
            pairs[(r["model"], r["dataset"], r["split"])][r["method"]] = r["loss"]
        for model in ("J48", "NB", "Prior", "SVM", "Zeta"):
            ref = sorted((p["train-optimal"], p["score-driven"]) for (m, _, _), p in pairs.items()
                         if m == model and "score-driven" in p)
            points = rows(data, panel, "point", model)
            assert sorted(zip(points["x"], points["y"], strict=True)) == ref
            mean = rows(data, panel, "mean", model)
            assert (mean["x"].item(), mean["y"].item()) == pytest.approx(
                (sum(x for x, _ in ref) / len(ref), sum(y for _, y in ref) / len(ref)))
    # the run without score-driven at inf is no point
    assert len(rows(data, "\u03b3 = \u221e", "point", "NB")) == 5
    # model order of Table 7 (the baselines included), then the others by name
    assert list(dict.fromkeys(data.loc[data["kind"] == "mean", "series"]))[:5] == [
        "J48", "NB", "Prior", "SVM", "Zeta"]


def test_figure6_data_needs_both_methods_at_each_gamma(runs):
    with pytest.raises(UserError, match="no runs of train-optimal and test-optimal"):
        figure6_data(runs, y_method="test-optimal")
