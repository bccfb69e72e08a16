"""Each figure writes a PNG, a PDF and a CSV holding the plotted numbers.

The numbers are checked against facts independent of the plotting code: the Appendix B
statements of the paper, BS/MAE of the scores, the lower envelope of the plotted cost lines,
hand-computed means.
"""

from __future__ import annotations

import inspect
import math
import time

import numpy as np
import pandas as pd
import pytest

from threshold_choice.errors import UserError
from threshold_choice.plotting._common import RunScores, save_figure
from threshold_choice.reproduction.figures import (
    cost_curve_displays,
    credit_a_data,
    credit_a_figure,
    draw_cost_curves,
    draw_figure2,
    draw_figure5,
    draw_figure6,
    figure1,
    figure1_data,
    figure2,
    figure2_data,
    figure5,
    figure5_data,
    figure6,
    figure6_data,
    figure8,
    figure8_data,
    figure9,
    figure9_data,
    toy_example,
)
from threshold_choice.reproduction.paper import FIGURES

INF = math.inf
# Appendix B: the stated areas (4 decimals; counts recovered from 3-decimal lines)
STATED = {
    ("test-optimal", INF): 0.1583,
    ("train-optimal", INF): 0.1977,
    ("score-driven", INF): 0.1743,
    ("rate-driven", INF): 0.1938,
    ("test-optimal", 0.0): 0.3166,
    ("train-optimal", 0.0): 0.2168,
    ("score-driven", 0.0): 0.2546,
    ("rate-driven", 0.0): 0.3605,
}
STATED_TOL = 6e-4


def stated_tol(key) -> float:
    # the paper's 0.2168 for train-optimal at gamma = 0 is 0.002 below Theorem 2's area
    # (see tests/paper/test_appendix_b_example.py)
    return 2.5e-3 if key == ("train-optimal", 0.0) else STATED_TOL


def check_files(paths) -> pd.DataFrame:
    assert paths["png"].read_bytes()[:4] == b"\x89PNG"
    assert paths["pdf"].read_bytes()[:4] == b"%PDF"
    assert paths["png"].stat().st_size > 5000 and paths["pdf"].stat().st_size > 2000
    data = pd.read_csv(paths["csv"])
    assert list(data.columns) == ["panel", "kind", "series", "x", "y"]
    assert len(data) > 0
    leftovers = [p for p in paths["csv"].parent.iterdir() if p.name.endswith(".tmp")]
    assert not leftovers
    return data


def expected_losses(data: pd.DataFrame, panel: str) -> dict[tuple[str, float], float]:
    rows = data[(data["kind"] == "expected_loss") & (data["panel"] == panel)]
    return {(r.series, float(r.x)): r.y for r in rows.itertuples()}


def scores(seed: int, kind: str, n: int = 120) -> RunScores:
    rng = np.random.default_rng(seed)
    parts = []
    for _ in range(2):  # test, train
        y = (rng.random(n) < 0.56).astype(np.int8)
        y[:2] = [0, 1]
        if kind == "prior":
            s = np.full(n, 0.561)
        elif kind == "random":
            s = rng.random(n)
        else:
            s = np.round(np.clip(0.4 * y + 0.6 * rng.random(n), 0, 1), 1)
        parts.append((y, s))
    (ty, ts), (ry, rs) = parts
    return RunScores.from_arrays(ty, ts, ry, rs)


def test_figure1_test_optimal_is_the_envelope_of_the_cost_lines(tmp_path):
    run = toy_example()
    data = check_files(figure1(run.test_y, run.test_s, run.train_y, run.train_s, tmp_path / "f1"))
    lines = data[data["kind"] == "cost_line"]
    assert lines["series"].nunique() == 6  # 5 leaves -> 6 cost lines
    ends = lines.pivot_table(index="series", columns="x", values="y")
    curve = data[(data["kind"] == "curve") & (data["series"] == "test-optimal gamma=inf")]
    c = curve["x"].to_numpy()
    envelope = np.min(
        ends[0.0].to_numpy()[:, None] * (1 - c) + ends[1.0].to_numpy()[:, None] * c, 0
    )
    np.testing.assert_allclose(curve["y"], envelope, atol=1e-12)
    areas = expected_losses(data, "test set")
    assert set(areas) == {(m, INF) for m, g in STATED if g == INF}
    for key, value in areas.items():
        assert value == pytest.approx(STATED[key], abs=stated_tol(key))


def test_figure2_histograms(tmp_path):
    paths = figure2(tmp_path / "f2", c_values=(0.2, 0.7), gammas=(10, 100), n=40_000, bins=50)
    data = check_files(paths)
    hist = data[data["kind"] == "histogram"]
    assert hist["panel"].nunique() == 4
    for panel, h in hist.groupby("panel"):
        c = float(panel.split(",")[0].split("=")[1])
        gamma = float(panel.split("= ")[-1])
        assert h["y"].sum() / 50 == pytest.approx(1.0)  # a density over [0, 1]
        mean = float((h["x"] * h["y"]).sum() / 50)
        assert mean == pytest.approx((gamma * c + 1) / (gamma + 2), abs=0.01)
        assert abs(h.loc[h["y"].idxmax(), "x"] - c) < 0.05  # the mode is c
    with pytest.raises(UserError):
        figure2(tmp_path / "bad", gammas=(INF,))


def test_figure3_baselines(tmp_path):
    runs = {"Prior": scores(1, "prior"), "Random": scores(2, "random")}
    data = check_files(credit_a_figure("fig3", runs, tmp_path / "f3"))
    assert list(data["panel"].drop_duplicates()) == ["Prior", "Random"]
    for model, run in runs.items():
        y, s = run.test_y.astype(float), run.test_s
        areas = expected_losses(data, model)
        assert len(areas) == 8  # four methods, gamma inf and 0
        # score-driven areas are BS (certainty) and MAE (complete uncertainty)
        assert areas[("score-driven", INF)] == pytest.approx(np.mean((y - s) ** 2), abs=1e-9)
        assert areas[("score-driven", 0.0)] == pytest.approx(np.mean(np.abs(y - s)), abs=1e-9)
        assert areas[("test-optimal", 0.0)] == pytest.approx(2 * areas[("test-optimal", INF)])
    # dashed (gamma = 0) and solid (gamma = inf) curves for each method
    curves = set(data.loc[data["kind"] == "curve", "series"])
    assert "rate-driven gamma=0" in curves and "rate-driven gamma=inf" in curves


def test_figure4_and_7_panels_and_missing_models(tmp_path):
    runs = {m: scores(i, "model") for i, m in enumerate(FIGURES["fig7"].models)}
    runs["NB"] = scores(11, "model")
    d4 = check_files(credit_a_figure("fig4", runs, tmp_path / "f4"))
    assert list(d4["panel"].drop_duplicates()) == ["J48Unp", "NB"]
    d7 = check_files(credit_a_figure("fig7", runs, tmp_path / "f7"))
    assert list(d7["panel"].drop_duplicates()) == list(FIGURES["fig7"].models)
    with pytest.raises(UserError, match="Prior"):
        credit_a_figure("fig3", runs, tmp_path / "f3")
    with pytest.raises(UserError, match="the credit-a figures are fig3, fig4, fig7, not fig5"):
        credit_a_figure("fig5", runs, tmp_path / "f5")
    assert not (tmp_path / "f3.csv").exists() and not (tmp_path / "f5.csv").exists()


def test_credit_a_titles_name_the_dataset_the_models_and_the_line_styles(tmp_path):
    runs = {m: scores(i, "model") for i, m in enumerate(("J48Unp", "NB"))}
    credit_a_figure("fig4", runs, tmp_path / "f4", formats=("svg",))
    svg = (tmp_path / "f4.svg").read_text()
    assert "Fig. 4: credit-a, J48Unp and NB (solid \u03b3 = \u221e, dashed \u03b3 = 0)" in svg
    credit_a_figure("fig4", runs, tmp_path / "g4", formats=("svg",), gammas=(INF, 4.0, 0.0))
    assert "dotted \u03b3 = 4" in (tmp_path / "g4.svg").read_text()


def test_run_scores_from_frame():
    frame = pd.DataFrame(
        {
            "split": [1, 1, 1, 1, 2, 2],
            "part": ["test", "train", "test", "train", "test", "train"],
            "row": [5, 0, 2, 1, 0, 0],
            "label": [1, 0, 0, 1, 1, 0],
            "score": [0.9, 0.2, 0.3, 0.8, 0.5, 0.5],
        }
    )
    run = RunScores.from_frame(frame, split=1)
    assert run.test_y.tolist() == [0, 1] and run.test_s.tolist() == [0.3, 0.9]
    assert run.train_y.tolist() == [0, 1] and run.train_s.tolist() == [0.2, 0.8]
    with pytest.raises(UserError, match="split 3"):
        RunScores.from_frame(frame, split=3)


@pytest.fixture
def small_runs() -> pd.DataFrame:
    rows = []
    losses = {  # (model, dataset, split) -> {gamma: (train, score)}
        ("J48", "a", 1): {INF: (0.10, 0.20), 0.0: (0.30, 0.25)},
        ("J48", "b", 1): {INF: (0.20, 0.10), 0.0: (0.40, 0.35)},
        ("NB", "a", 1): {INF: (0.05, 0.15), 0.0: (0.20, 0.30)},
        ("Prior", "a", 1): {INF: (0.5, 0.5), 0.0: (0.6, 0.6)},
    }
    for (model, dataset, split), by_gamma in losses.items():
        for gamma, (tr, sc) in by_gamma.items():
            for method, loss in (("train-optimal", tr), ("score-driven", sc)):
                rows.append(
                    {
                        "dataset": dataset,
                        "model": model,
                        "split": split,
                        "gamma": gamma,
                        "method": method,
                        "loss": loss,
                    }
                )
    return pd.DataFrame(rows)


def test_figure5_means_per_gamma(small_runs, tmp_path):
    data = check_files(figure5(small_runs, tmp_path / "f5"))
    assert set(data["panel"]) == {"train-optimal", "score-driven"}
    assert "Prior" not in set(data["series"])  # baselines left out, as in the paper
    got = {(r.panel, r.series, r.x): r.y for r in data.itertuples()}
    assert got[("train-optimal", "J48", INF)] == pytest.approx(0.15)
    assert got[("train-optimal", "J48", 0.0)] == pytest.approx(0.35)
    assert got[("score-driven", "J48", 0.0)] == pytest.approx(0.30)
    assert got[("score-driven", "NB", INF)] == pytest.approx(0.15)
    assert len(got) == 2 * 2 * 2


def test_figure6_points_and_means(small_runs, tmp_path):
    data = check_files(figure6(small_runs, tmp_path / "f6"))
    inf_panel = data[data["panel"] == "\u03b3 = \u221e"]
    points = inf_panel[(inf_panel["kind"] == "point") & (inf_panel["series"] == "J48")]
    assert sorted(zip(points["x"], points["y"], strict=True)) == [(0.10, 0.20), (0.20, 0.10)]
    mean = inf_panel[(inf_panel["kind"] == "mean") & (inf_panel["series"] == "J48")]
    assert (mean["x"].item(), mean["y"].item()) == pytest.approx((0.15, 0.15))
    zero = data[(data["panel"] == "\u03b3 = 0") & (data["kind"] == "mean")]
    assert set(zero["series"]) == {"J48", "NB", "Prior"}  # the paper shows the baselines too
    assert zero.set_index("series").loc["Prior", "y"] == pytest.approx(0.6)


def test_figure8_training_lines_and_test_areas(tmp_path):
    data = check_files(figure8(tmp_path / "f8"))
    train = data[(data["panel"] == "training set") & (data["kind"] == "cost_line")]
    ends = train.pivot_table(index="series", columns="x", values="y")
    ends = ends.loc[[f"training cost line {j}" for j in range(6)]]
    stated = [(0, 0.8085), (0.0425, 0.2553), (0.0425, 0.0851), (0.0425, 0), (0.2127, 0)]
    stated.append((1.1914, 0))
    np.testing.assert_allclose(ends.to_numpy(), stated, atol=1.5e-4)
    areas = expected_losses(data, "test set")
    assert len(areas) == 4
    for key, value in areas.items():
        assert value == pytest.approx(STATED[key], abs=stated_tol(key))


def test_the_panels_of_a_cost_curve_figure_share_one_loss_axis():
    """Fig. 7 compares model types across panels (J48 against J48Unp, IBK10 against IBK1):
    every panel gets the highest panel's height, so equal heights look equal."""
    credit = _credit_a_scores()
    models = FIGURES["fig7"].models
    alone = [draw_cost_curves(cost_curve_displays({m: credit[m]}), title="").axes[0]
             .get_ylim() for m in models]
    fig = draw_cost_curves(cost_curve_displays({m: credit[m] for m in models}), title="",
                           ncols=2)
    limits = {ax.get_ylim() for ax in fig.axes}
    assert limits == {(0.0, max(top for _, top in alone))}
    assert len({top for _, top in alone}) > 1  # the panels alone differ


def test_figure1_shows_sect1s_worked_example_on_the_lines_the_text_names(tmp_path):
    """Sect. 1: estimated c = 0.15, true c = 0.4; test-optimal's line (the steep one from
    (0, 0), Appendix B's test line i = 0) goes from about 0.1 to above 0.3, train-optimal's
    (the line "between 0.26 and 0.16", i = 3) slightly down. Both read off the figure's own
    test cost lines, and drawn as arrows whose heads are in view."""
    run = toy_example()
    data = check_files(figure1(run.test_y, run.test_s, run.train_y, run.train_s,
                               tmp_path / "f1"))
    lines = data[data["kind"] == "cost_line"].pivot_table(index="series", columns="x",
                                                         values="y")
    example = data[data["kind"] == "worked_example"]
    for method, line in (("test-optimal", 0), ("train-optimal", 3)):
        rows = example[example["series"] == f"{method} c_hat=0.15 c=0.4"]
        a, b = lines.loc[f"test cost line {line}", [0.0, 1.0]]
        np.testing.assert_allclose(rows["y"], a + (b - a) * rows["x"].to_numpy(), atol=1e-12)
        np.testing.assert_array_equal(rows["x"], [0.15, 0.4])
    test_optimal = example[example["series"].str.startswith("test-optimal")]["y"].to_numpy()
    assert test_optimal[0] == pytest.approx(0.1, abs=0.02) and 0.3 < test_optimal[1] < 0.33
    train = example[example["series"].str.startswith("train-optimal")]["y"].to_numpy()
    assert train[1] < train[0]
    from threshold_choice.reproduction.figures import _draw_worked_example

    fig = draw_cost_curves(cost_curve_displays({"test set": run}, gammas=(INF,)), title="")
    _draw_worked_example(fig.axes[0], example)
    assert fig.axes[0].get_ylim()[1] > test_optimal[1]
    assert {"\u0109 = 0.15", "c = 0.4"} <= {t.get_text() for t in fig.axes[0].texts}


def test_figure8_numbers_the_test_lines_the_text_names(tmp_path):
    """Appendix B names the test panel's six lines by number, as the training panel's: each
    number sits on its line, inside the axes."""
    from threshold_choice.reproduction.figures import _figure8_parts, draw_figure8

    training, test = _figure8_parts(None, None)
    fig = draw_figure8(training, test)
    right = fig.axes[1]
    labels = {t.get_text(): t.xy for t in right.texts if t.get_text().startswith("i=")}
    assert set(labels) == {f"i={j}" for j in range(6)}
    top = right.get_ylim()[1]
    for j, (a, b) in zip(test.cost_line_index, test.cost_lines, strict=True):
        x, y = labels[f"i={j}"]
        assert 0 <= x <= 1 and 0 < y < top
        assert y == pytest.approx(a + (b - a) * x, abs=1e-12)  # on its own line


def test_figure9_certain_vs_uncertain_areas(tmp_path):
    data = check_files(figure9(tmp_path / "f9"))
    areas = expected_losses(data, "test set")
    assert set(areas) == set(STATED)
    for key, value in areas.items():
        assert value == pytest.approx(STATED[key], abs=stated_tol(key))
    assert not (data["kind"] == "cost_line").any()


# -- each figure writes its data function's frame and draws it -----------------------------------


def _credit_a_scores() -> dict[str, RunScores]:
    return {m: scores(20 + i, "model") for i, m in enumerate(
        dict.fromkeys(m for stem in ("fig3", "fig4", "fig7") for m in FIGURES[stem].models))}


def _cases(small_runs: pd.DataFrame):
    """Per figure: (figure, its data function, a redrawing of it: of the frame read from its
    CSV for Figs 2, 5, 6, of its panels' Displays for the cost-curve figures)."""
    t = toy_example()
    credit = _credit_a_scores()
    arrays = (t.test_y, t.test_s, t.train_y, t.train_s)

    def credit_a(stem, title):
        models = FIGURES[stem].models
        return (lambda target, **k: credit_a_figure(stem, credit, target, **k),
                lambda: credit_a_data(stem, credit),
                lambda _: draw_cost_curves(cost_curve_displays({m: credit[m] for m in models}),
                                           title=title, ncols=2))

    solid_dashed = "(solid \u03b3 = \u221e, dashed \u03b3 = 0)"
    return {
        "fig1": (lambda stem, **k: figure1(*arrays, stem, **k), lambda: figure1_data(*arrays),
                 lambda d: _with_worked_example(
                     draw_cost_curves(cost_curve_displays({"test set": t}, gammas=(INF,)),
                                      title=default_title(figure1)), d)),
        "fig2": (lambda stem, **k: figure2(stem, n=3000, bins=20, **k),
                 lambda: figure2_data(n=3000, bins=20),
                 lambda d: draw_figure2(d, modes=(0.2, 0.2), n=3000, ncols=2)),
        "fig3": credit_a("fig3", f"Fig. 3: credit-a, Prior and Random {solid_dashed}"),
        "fig4": credit_a("fig4", f"Fig. 4: credit-a, J48Unp and NB {solid_dashed}"),
        "fig5": (lambda stem, **k: figure5(small_runs, stem, conditions="c", **k),
                 lambda: figure5_data(small_runs), lambda d: draw_figure5(d, conditions="c")),
        "fig6": (lambda stem, **k: figure6(small_runs, stem, **k),
                 lambda: figure6_data(small_runs), draw_figure6),
        "fig7": credit_a("fig7", "Fig. 7: credit-a, J48, J48Unp, IBK10, IBK1, SVMp and SVM "
                                 + solid_dashed),
        "fig8": (lambda stem, **k: figure8(stem, **k), figure8_data, None),
        "fig9": (lambda stem, **k: figure9(stem, **k), figure9_data,
                 lambda _: draw_cost_curves(
                     cost_curve_displays({"test set": t}, cost_lines=False),
                     title=f"Fig. 9: Appendix B example {solid_dashed}")),
    }


def _with_worked_example(fig, frame: pd.DataFrame):
    """Fig. 1's arrows, drawn from the rows of its CSV."""
    from threshold_choice.reproduction.figures import _draw_worked_example

    _draw_worked_example(fig.axes[0], frame[frame["kind"] == "worked_example"])
    return fig


def default_title(figure) -> str:
    return inspect.signature(figure).parameters["title"].default


@pytest.mark.parametrize("name", [f"fig{i}" for i in range(1, 10)])
def test_the_csv_a_figure_writes_is_its_data_functions_frame(name, small_runs, tmp_path):
    figure, data, _ = _cases(small_runs)[name]
    paths = figure(tmp_path / name, formats=("png",))
    assert paths["csv"].read_text() == data().to_csv(index=False)


@pytest.mark.parametrize("name", [f"fig{i}" for i in (1, 2, 3, 4, 5, 6, 7, 9)])
def test_a_figure_redrawn_from_its_csv_or_displays_is_the_same_image(name, small_runs,
                                                                     tmp_path):
    figure, _, draw = _cases(small_runs)[name]
    paths = figure(tmp_path / name, formats=("png",))
    frame = pd.read_csv(paths["csv"])
    redrawn = tmp_path / "redrawn.png"
    save_figure(draw(frame), redrawn)  # the figures' writer (palette PNG at 150 dpi)
    assert redrawn.read_bytes() == paths["png"].read_bytes()


@pytest.mark.parametrize("fmt", ["pdf", "svg", "png"])
def test_the_same_figure_written_twice_is_the_same_file(tmp_path, monkeypatch, fmt) -> None:
    from matplotlib.figure import Figure

    from threshold_choice.plotting._common import save_figure

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)  # no help from the environment
    written = []
    for i in range(2):
        fig = Figure()
        ax = fig.subplots()
        ax.plot([0, 1], [1, 0], label="a")
        ax.legend()
        path = tmp_path / f"fig{i}.{fmt}"
        save_figure(fig, path)
        written.append(path.read_bytes())
        if i == 0:
            time.sleep(1.1)  # a creation date, if written, would differ
    assert written[0] == written[1]


def test_figure_pngs_are_written_with_a_palette_a_third_of_the_full_colour_size(tmp_path):
    from matplotlib.figure import Figure
    from PIL import Image

    fig = Figure()
    ax = fig.subplots()
    for k in range(200):  # a fan of antialiased lines, as the cost lines
        ax.plot([0, 1], [k / 200, 1 - k / 200], color="0.6", lw=0.5)
    path = tmp_path / "fan.png"
    save_figure(fig, path)
    full = tmp_path / "full.png"
    fig.savefig(full, dpi=150)
    with Image.open(path) as image:
        assert image.mode == "P"
    assert path.stat().st_size < 0.5 * full.stat().st_size


def test_figure_pngs_are_the_palette_of_the_full_colour_png_matplotlib_writes(tmp_path):
    from matplotlib.figure import Figure
    from PIL import Image

    def fan() -> Figure:  # the same figure anew: a figure's second drawing may differ
        fig = Figure()
        ax = fig.subplots()
        for k in range(50):
            ax.plot([0, 1], [k / 50, 1 - k / 50], color=f"C{k % 10}", lw=0.7)
        ax.set_title("a title")
        return fig

    path = tmp_path / "fan.png"
    save_figure(fan(), path)
    full = tmp_path / "full.png"
    fan().savefig(full, dpi=150)
    expected = tmp_path / "expected.png"
    with Image.open(full) as image:
        image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(
            expected, format="PNG", optimize=True)
    assert path.read_bytes() == expected.read_bytes()


def test_a_model_type_has_one_colour_in_fig5_and_fig6(small_runs):
    # Fig. 5 leaves out the baselines Fig. 6 draws: by position, SVM (after them in the
    # paper's order) took the colour Fig. 6 gives Prior
    runs = pd.concat([small_runs, small_runs[small_runs["model"] == "Prior"].assign(
        model="Random")], ignore_index=True).replace({"model": {"NB": "SVM"}})
    from matplotlib.colors import to_hex

    def colours(fig, artists):
        found = {}
        for ax in fig.axes:
            for a in artists(ax):
                label = a.get_label()
                if label in {"J48", "SVM", "Prior", "Random"}:
                    colour = a.get_color() if hasattr(a, "get_color") else a.get_facecolor()[0]
                    found.setdefault(label, to_hex(colour))
        return found

    fig5 = colours(draw_figure5(figure5_data(runs)), lambda ax: ax.get_lines())
    fig6 = colours(draw_figure6(figure6_data(runs)), lambda ax: ax.collections)
    assert {"J48", "SVM"} <= set(fig5) and {"J48", "SVM", "Prior", "Random"} <= set(fig6)
    assert "Prior" not in fig5  # the baselines are left out of Fig. 5
    assert all(fig5[m] == fig6[m] for m in fig5)
    assert len(set(fig6.values())) == len(fig6)  # four model types, four colours
