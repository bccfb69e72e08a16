"""Figures 1-9 of the paper from plain data (scores, ``runs`` frames).

Each figure is computed first, drawn second (as scikit-learn's ``*Display`` objects):
``figureN_data(...)`` (and :func:`cost_curves_data`) returns the figure's numbers as a tidy
frame and never imports matplotlib; ``draw_*(frame, ...)`` draws such a frame and returns the
matplotlib ``Figure`` (its other arguments are presentation only: titles, columns, legend
texts); ``figureN(..., stem)`` does both and writes the figure in each of ``formats`` (default
``<stem>.png`` and ``<stem>.pdf``; also ``svg``) and the frame as ``<stem>.csv`` (atomically),
or to the list of files given as ``stem`` (a workflow rule's outputs), and returns the paths
by extension (:func:`figure_paths`). The frame holds exactly the numbers plotted, in drawing
order, in long format with the columns
:data:`~threshold_choice.plotting._common.DATA_COLUMNS`:

``panel``
    the subplot's title;
``kind``
    ``cost_line`` (x = 0 and 1, y = the line's ends), ``curve`` (x = c, y = loss),
    ``expected_loss`` (x = gamma, y = the area under the curve, as in the legend),
    ``histogram`` (x = bin centre, y = density), ``density`` (x = c_hat, y = Beta pdf),
    ``point`` (x = train-optimal, y = score-driven loss of one run), ``mean`` (per model),
    ``gamma_mean`` (x = gamma, y = mean loss of a model type);
``series``
    the line or group (method and gamma, model type, ...);
``x``, ``y``.

Conventions are the package's: class 1 is the majority class and scores estimate
P(class 1); the true cost proportion ``c`` is on the x axis of cost curves and the loss
``Q = 2 (c pi0 FP0 + (1 - c) pi1 FN1)`` on the y axis; ``gamma = inf`` is complete
certainty (``c_hat = c``), ``gamma = 0`` complete uncertainty (``c_hat`` uniform). Plots
use matplotlib's object API with the Agg renderer (no pyplot state, no display needed).
The run scores, the frame builder, the style and the file formats are the library's, shared
with the Displays (:mod:`threshold_choice.plotting._common`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from threshold_choice.atomic import write_text_atomic
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.expected_loss import Estimator, expected_cost_curve, expected_loss
from threshold_choice.methods import NEEDS_TRAIN, make_selection
from threshold_choice.plotting._common import (
    FIGURE_FORMATS,
    FigureData,
    RunScores,
    c_grid,
    check_figure_formats,
    gamma_linestyle,
    gamma_text,
    method_colour,
    save_figure,
)
from threshold_choice.reproduction.paper import BASELINES, FIGURES, PAPER_METHODS
from threshold_choice.uncertainty import Uncertainty, format_gamma

if TYPE_CHECKING:  # matplotlib is imported by the drawing only
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

INF = math.inf

#: the model types of the published Table 7, in its order (fixes each model's colour)
MODEL_ORDER: tuple[str, ...] = (
    "IBK1",
    "IBK10",
    "J48",
    "J48Unp",
    "Logist",
    "NB",
    "PART",
    "Prior",
    "Random",
    "Stump",
    "SVMp",
    "SVM",
)
#: the models of the credit-a cost-curve figures (captions of Figs 3, 4 and 7 and Sect. 6.3)
FIG3_MODELS: tuple[str, ...] = FIGURES["fig3"].models
FIG4_MODELS: tuple[str, ...] = FIGURES["fig4"].models
FIG7_MODELS: tuple[str, ...] = FIGURES["fig7"].models

#: Appendix B: the five leaves of the J48Unp tree on 1% of spambase (scores P(non-spam),
#: class 1 = non-spam) and the (class 0, class 1) counts per leaf
TOY_LEAF_SCORES: tuple[float, ...] = (1 / 8, 1 / 6, 1 / 4, 5 / 6, 24 / 25)
TOY_TRAIN_COUNTS: tuple[tuple[int, int], ...] = ((13, 1), (4, 0), (2, 0), (0, 4), (0, 23))
TOY_TEST_COUNTS: tuple[tuple[int, int], ...] = (
    (899, 431),
    (469, 98),
    (59, 58),
    (61, 163),
    (306, 2010),
)


def toy_example(
    leaf_scores: Sequence[float] = TOY_LEAF_SCORES,
    train_counts: Sequence[tuple[int, int]] = TOY_TRAIN_COUNTS,
    test_counts: Sequence[tuple[int, int]] = TOY_TEST_COUNTS,
) -> RunScores:
    """The scores of the Appendix B example, expanded from (class 0, class 1) leaf counts."""

    def expand(counts: Sequence[tuple[int, int]]) -> tuple[NDArray, NDArray]:
        if len(counts) != len(leaf_scores):
            raise UserError(f"{len(counts)} leaf counts for {len(leaf_scores)} leaf scores")
        y = np.concatenate([np.r_[np.zeros(a), np.ones(b)] for a, b in counts])
        s = np.repeat(np.asarray(leaf_scores, dtype=float), [a + b for a, b in counts])
        return y.astype(np.int8), s

    return RunScores.from_arrays(*expand(test_counts), *expand(train_counts))


# -- plumbing ------------------------------------------------------------------------------------


def _figure(
    n_panels: int, *, ncols: int | None = None, size: float = 4.6
) -> tuple[Figure, list[Axes]]:
    # matplotlib is imported here, not at the top: the data functions never need it
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if n_panels < 1:
        raise UserError("no panels to draw: the figure's data frame is empty")
    ncols = ncols or min(n_panels, 3)
    nrows = math.ceil(n_panels / ncols)
    fig = Figure(figsize=(size * ncols + 0.4, size * 0.85 * nrows + 0.6), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel().tolist()
    for ax in axes[n_panels:]:
        ax.set_visible(False)
    return fig, axes[:n_panels]


#: where a figure goes: a stem, or the figure's files themselves (:func:`figure_paths`)
FigureTarget = str | Path | Sequence[str | Path]


def figure_paths(stem: FigureTarget, formats: Sequence[str] = FIGURE_FORMATS) -> dict[str, Path]:
    """The files a figure is written to, by extension (images first, in drawing order, then
    ``csv``, the plotted numbers). ``stem`` is a stem (``<stem>.<ext>`` for each of
    ``formats``, and ``<stem>.csv``) or the list of the files themselves, as a workflow rule
    names them: each image's format is its suffix (one of
    :data:`~threshold_choice.plotting._common.ALLOWED_FIGURE_FORMATS`), one of them ends in
    ``.csv``, and ``formats`` is not used."""
    if isinstance(stem, str | Path):
        stem = Path(stem)
        return {ext: stem.with_name(f"{stem.name}.{ext}")
                for ext in (*check_figure_formats(formats), "csv")}
    paths = [Path(p) for p in stem]
    images = [p for p in paths if p.suffix != ".csv"]
    tables = [p for p in paths if p.suffix == ".csv"]
    if len(tables) != 1:
        raise UserError(f"a figure's files need one .csv (its plotted numbers), got "
                        f"{', '.join(map(str, paths)) or 'none'}")
    check_figure_formats([p.suffix.lstrip(".") for p in images])
    return {**{p.suffix.lstrip("."): p for p in images}, "csv": tables[0]}


def _write(fig: Figure, stem: FigureTarget, data: pd.DataFrame,
           formats: Sequence[str] = FIGURE_FORMATS) -> dict[str, Path]:
    import matplotlib

    paths = figure_paths(stem, formats)
    for i, ext in enumerate(ext for ext in paths if ext != "csv"):
        save_figure(fig, paths[ext])
        if i == 0:
            # keep the first layout: constrained layout is slow, and with any layout engine
            # (even "none"'s placeholder) each save draws the figure twice
            with matplotlib.rc_context({"figure.autolayout": False,
                                        "figure.constrained_layout.use": False}):
                fig.set_layout_engine(None)
    write_text_atomic(paths["csv"], data.to_csv(index=False))
    return paths


def _curve_name(method: str, gamma: float) -> str:
    """The ``series`` of a method's cost curve at ``gamma``."""
    return f"{method} gamma={format_gamma(gamma)}"


def _panels(data: pd.DataFrame) -> list[str]:
    """The panels of a figure's frame, in drawing order."""
    return list(dict.fromkeys(data["panel"]))


def _suffix(conditions: str) -> str:
    return f" ({conditions})" if conditions else ""


# -- cost curves: the numbers --------------------------------------------------------------------


def _add_cost_lines(data: FigureData, panel: str, lines: CostLines, label: str) -> None:
    for j, (a, b) in enumerate(zip(lines.left, lines.right, strict=True)):
        data.add(panel, "cost_line", f"{label} {j}", [0.0, 1.0], [a, b])


def _add_method_curves(
    data: FigureData,
    panel: str,
    run: RunScores,
    *,
    methods: Sequence[str],
    gammas: Sequence[float],
    estimator: Estimator,
) -> None:
    test, train = run.lines()
    for method in methods:
        if method in NEEDS_TRAIN and train is None:
            raise UserError(f"{panel}: {method} needs the training scores")
        sel = make_selection(method, test, train=train)
        for gamma in gammas:
            c = c_grid(sel, gamma)
            data.add(panel, "curve", _curve_name(method, gamma), c,
                     expected_cost_curve(sel, gamma, c))
            data.add(panel, "expected_loss", method, gamma,
                     expected_loss(sel, gamma, estimator=estimator))


def cost_curves_data(
    panels: Mapping[str, RunScores],
    *,
    methods: Sequence[str] = PAPER_METHODS,
    gammas: Sequence[float] = (INF, 0.0),
    cost_lines: bool = True,
    estimator: Estimator = "exact",
) -> pd.DataFrame:
    """The numbers of :func:`cost_curves_figure` (``panel, kind, series, x, y``), per panel:
    the test cost lines (``cost_line``, with ``cost_lines``), then for each method and gamma its
    expected cost curve ``K(c)`` (``curve``, series ``"<method> gamma=<gamma>"``) and its
    expected loss (``expected_loss``, series the method, x = gamma, y = the area)."""
    if not panels:
        raise UserError("no panels to plot")
    data = FigureData()
    for name, run in panels.items():
        if cost_lines:
            _add_cost_lines(data, name, run.lines()[0], "test cost line")
        _add_method_curves(data, name, run, methods=methods, gammas=gammas, estimator=estimator)
    return data.frame()


def _pick(scores: Mapping[str, RunScores], models: Sequence[str]) -> dict[str, RunScores]:
    lacking = [m for m in models if m not in scores]
    if lacking:
        raise UserError(f"no scores for model(s) {', '.join(lacking)}")
    return {m: scores[m] for m in models}


def figure1_data(
    test_y: ArrayLike,
    test_s: ArrayLike,
    train_y: ArrayLike,
    train_s: ArrayLike,
    *,
    estimator: Estimator = "exact",
) -> pd.DataFrame:
    """The numbers of Fig. 1: the test cost lines and the four methods at gamma = inf."""
    run = RunScores.from_arrays(test_y, test_s, train_y, train_s)
    return cost_curves_data({"test set": run}, gammas=(INF,), estimator=estimator)


def figure3_data(scores: Mapping[str, RunScores], *, gammas: Sequence[float] = (INF, 0.0),
                 estimator: Estimator = "exact") -> pd.DataFrame:
    """The numbers of Fig. 3 (credit-a, one panel per model of :data:`FIG3_MODELS`)."""
    return _credit_a_data(FIG3_MODELS, scores, gammas, estimator)


def figure4_data(scores: Mapping[str, RunScores], *, gammas: Sequence[float] = (INF, 0.0),
                 estimator: Estimator = "exact") -> pd.DataFrame:
    """The numbers of Fig. 4 (credit-a, one panel per model of :data:`FIG4_MODELS`)."""
    return _credit_a_data(FIG4_MODELS, scores, gammas, estimator)


def figure7_data(scores: Mapping[str, RunScores], *, gammas: Sequence[float] = (INF, 0.0),
                 estimator: Estimator = "exact") -> pd.DataFrame:
    """The numbers of Fig. 7 (credit-a, one panel per model of :data:`FIG7_MODELS`)."""
    return _credit_a_data(FIG7_MODELS, scores, gammas, estimator)


def _credit_a_data(models: Sequence[str], scores: Mapping[str, RunScores],
                   gammas: Sequence[float], estimator: Estimator) -> pd.DataFrame:
    """One panel of cost curves per model of ``models`` (Figs 3, 4 and 7)."""
    return cost_curves_data(_pick(scores, models), gammas=gammas, estimator=estimator)


def figure8_data(run: RunScores | None = None, *, estimator: Estimator = "exact") -> pd.DataFrame:
    """The numbers of Fig. 8: panel ``training set``, the training cost lines and their
    lower envelope (``curve`` ``training envelope``: the train-optimal choice on the training
    data); panel ``test set``, the test cost lines and the four methods at gamma = inf.
    ``run`` defaults to the Appendix B example (:func:`toy_example`)."""
    run = run or toy_example()
    test, train = run.lines()
    if train is None:
        raise UserError("figure 8 needs the training scores")
    data = FigureData()
    _add_cost_lines(data, "training set", train, "training cost line")
    sel = make_selection("test-optimal", train)  # the envelope of the training lines
    c = c_grid(sel, INF)
    data.add("training set", "curve", "training envelope", c, expected_cost_curve(sel, INF, c))
    _add_cost_lines(data, "test set", test, "test cost line")
    _add_method_curves(data, "test set", run, methods=PAPER_METHODS, gammas=(INF,),
                       estimator=estimator)
    return data.frame()


def figure9_data(run: RunScores | None = None, *, estimator: Estimator = "exact") -> pd.DataFrame:
    """The numbers of Fig. 9: the four methods at gamma = inf and 0, no cost lines, on ``run``
    (default: the Appendix B example)."""
    return cost_curves_data({"test set": run or toy_example()}, gammas=(INF, 0.0),
                            cost_lines=False, estimator=estimator)


# -- cost curves: the drawing --------------------------------------------------------------------


def _draw_cost_lines(ax: Axes, rows: pd.DataFrame, *, numbered: bool = False) -> None:
    """The ``cost_line`` rows (two per line: x = 0 and 1) as thin grey lines, the first
    labelled with the series' name without its number; ``numbered``: ``i=<j>`` at c = 0.5
    (where the lines of the Appendix B example are all apart)."""
    lines = rows[rows["kind"] == "cost_line"]
    ends = lines["y"].to_numpy().reshape(-1, 2)
    label = str(lines["series"].iloc[0]).rsplit(" ", 1)[0] if len(lines) else None
    for j, (a, b) in enumerate(ends):
        ax.plot([0, 1], [a, b], color="0.7", lw=0.6, zorder=1, label=label if j == 0 else None)
    if numbered:
        for j, (a, b) in enumerate(ends):
            ax.annotate(f"i={j}", (0.5, (a + b) / 2), fontsize=7, xytext=(0, 2),
                        textcoords="offset points")


def _draw_method_curves(ax: Axes, rows: pd.DataFrame) -> None:
    """Each ``expected_loss`` row's curve: colour by method, line style by gamma, the area
    in the legend."""
    areas = rows[rows["kind"] == "expected_loss"]
    curves = rows[rows["kind"] == "curve"]
    for method, gamma, area in zip(areas["series"], areas["x"], areas["y"], strict=True):
        k = curves[curves["series"] == _curve_name(method, gamma)]
        ax.plot(
            k["x"].to_numpy(),
            k["y"].to_numpy(),
            color=method_colour(method),
            ls=gamma_linestyle(gamma),
            lw=1.6,
            zorder=3,
            label=f"{method}, \u03b3={gamma_text(gamma)}: {area:.4f}",
        )


def _cost_axes(ax: Axes, title: str, *, legend_title: str | None = "expected loss") -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("cost proportion c")
    ax.set_ylabel("loss")
    ax.set_title(title)
    ax.grid(alpha=0.25)
    if legend_title is None:
        ax.legend(fontsize=7)
    else:
        ax.legend(fontsize=7, title=legend_title, title_fontsize=7, loc="upper right")


def _draw_cost_panel(ax: Axes, data: pd.DataFrame, panel: str) -> None:
    rows = data[data["panel"] == panel]
    _draw_cost_lines(ax, rows)
    _draw_method_curves(ax, rows)
    _cost_axes(ax, panel)


def draw_cost_curves(data: pd.DataFrame, *, title: str, ncols: int | None = None) -> Figure:
    """Draw a frame of :func:`cost_curves_data` (Figs 1, 3, 4, 7, 9): one panel per
    ``panel``, the cost lines thin grey, the curves coloured by method (solid: gamma = inf,
    dashed: gamma = 0, dotted: others), the expected losses in the legend."""
    fig, axes = _figure(len(_panels(data)), ncols=ncols)
    for ax, panel in zip(axes, _panels(data), strict=True):
        _draw_cost_panel(ax, data, panel)
    fig.suptitle(title)
    return fig


def draw_figure8(data: pd.DataFrame) -> Figure:
    """Draw a frame of :func:`figure8_data`: left, the numbered training cost lines and their
    envelope; right, the test cost lines and the methods' curves."""
    (left_panel, right_panel) = _panels(data)
    fig, (left, right) = _figure(2, ncols=2)
    rows = data[data["panel"] == left_panel]
    _draw_cost_lines(left, rows, numbered=True)
    envelope = rows[rows["kind"] == "curve"]
    left.plot(envelope["x"].to_numpy(), envelope["y"].to_numpy(),
              color=method_colour("train-optimal"), lw=1.6, label="envelope (train-optimal)")
    _cost_axes(left, left_panel, legend_title=None)
    _draw_cost_panel(right, data, right_panel)
    fig.suptitle("Fig. 8: J48Unp on 1% of spambase (Appendix B)")
    return fig


# -- Fig. 1, 3, 4, 7, 9: cost curves -------------------------------------------------------


def cost_curves_figure(
    panels: Mapping[str, RunScores],
    stem: FigureTarget,
    *,
    title: str,
    methods: Sequence[str] = PAPER_METHODS,
    gammas: Sequence[float] = (INF, 0.0),
    cost_lines: bool = True,
    estimator: Estimator = "exact",
    ncols: int | None = None,
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """One panel per entry of ``panels`` (title -> scores): the test cost lines (thin grey)
    and the expected cost curves ``K(c)`` of ``methods`` at each of ``gammas`` (solid:
    gamma = inf, dashed: gamma = 0, dotted: others), the expected losses (areas, by
    ``estimator``) in the legend (:func:`cost_curves_data`, :func:`draw_cost_curves`)."""
    data = cost_curves_data(panels, methods=methods, gammas=gammas, cost_lines=cost_lines,
                            estimator=estimator)
    return _write(draw_cost_curves(data, title=title, ncols=ncols), stem, data, formats)


def figure1(
    test_y: ArrayLike,
    test_s: ArrayLike,
    train_y: ArrayLike,
    train_s: ArrayLike,
    stem: FigureTarget,
    *,
    title: str = "Fig. 1: cost curves, J48Unp on spambase (\u03b3 = \u221e)",
    estimator: Estimator = "exact",
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """Fig. 1: all test cost lines and the four methods' cost curves at gamma = inf."""
    data = figure1_data(test_y, test_s, train_y, train_s, estimator=estimator)
    return _write_cost_curves(data, stem, title, formats)


def _write_cost_curves(data: pd.DataFrame, stem: FigureTarget, title: str,
                       formats: Sequence[str], ncols: int | None = None) -> dict[str, Path]:
    """Draw cost-curve panels (Figs 1, 3, 4, 7) and write the figure's files."""
    return _write(draw_cost_curves(data, title=title, ncols=ncols), stem, data, formats)


_SOLID_DASHED = "(solid \u03b3 = \u221e, dashed \u03b3 = 0)"


def figure3(
    scores: Mapping[str, RunScores],
    stem: FigureTarget,
    *,
    title: str = f"Fig. 3: credit-a, Prior (left) and Random (right) {_SOLID_DASHED}",
    gammas: Sequence[float] = (INF, 0.0),
    estimator: Estimator = "exact",
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """Fig. 3: credit-a, Prior and Random; ``scores``: model type -> scores of one run."""
    return _write_cost_curves(figure3_data(scores, gammas=gammas, estimator=estimator),
                              stem, title, formats)


def figure4(
    scores: Mapping[str, RunScores],
    stem: FigureTarget,
    *,
    title: str = f"Fig. 4: credit-a, J48Unp (left) and NB (right) {_SOLID_DASHED}",
    gammas: Sequence[float] = (INF, 0.0),
    estimator: Estimator = "exact",
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """Fig. 4: credit-a, J48Unp and NB; ``scores``: model type -> scores of one run."""
    return _write_cost_curves(figure4_data(scores, gammas=gammas, estimator=estimator),
                              stem, title, formats)


def figure7(
    scores: Mapping[str, RunScores],
    stem: FigureTarget,
    *,
    title: str = f"Fig. 7: credit-a, selected models {_SOLID_DASHED}",
    gammas: Sequence[float] = (INF, 0.0),
    estimator: Estimator = "exact",
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """Fig. 7: credit-a, J48, J48Unp, IBK10, IBK1, SVMp, SVM (the pairs Sect. 6.3 compares:
    pruned vs unpruned tree, 10 vs 1 neighbours, SVM with and without probabilities)."""
    return _write_cost_curves(figure7_data(scores, gammas=gammas, estimator=estimator),
                              stem, title, formats, ncols=2)


# -- Fig. 2: the uncertainty model ---------------------------------------------------------------


def figure2_data(
    *,
    c_values: Sequence[float] = (0.2,),
    gammas: Sequence[float] = (10.0, 100.0),
    n: int = 1_000_000,
    bins: int = 100,
    seed: int = 0,
) -> pd.DataFrame:
    """The numbers of Fig. 2, one panel per (c, gamma), c-major: ``histogram`` (x = the
    centres of ``bins`` equal bins of [0, 1], y = the density of ``n`` draws of
    ``c_hat ~ Beta(gamma c + 1, gamma (1 - c) + 1)``) and ``density`` (the Beta pdf on a grid).
    ``gamma`` must be finite."""
    if n < 1 or bins < 1:
        raise UserError("n and bins must be >= 1")
    if any(math.isinf(g) or g < 0 for g in gammas):
        raise UserError("figure 2 needs finite gammas >= 0 (gamma = inf is a point mass)")
    rng = np.random.default_rng(seed)
    data = FigureData()
    edges = np.linspace(0.0, 1.0, bins + 1)
    centres = (edges[:-1] + edges[1:]) / 2
    x = np.linspace(0.0005, 0.9995, 999)
    for c, gamma in ((c, g) for c in c_values for g in gammas):
        model = Uncertainty(gamma)
        dens, _ = np.histogram(model.sample(np.full(n, c), rng), bins=edges, density=True)
        panel = f"c = {c:g}, \u03b3 = {format_gamma(gamma)}"
        data.add(panel, "histogram", "c_hat", centres, dens)
        data.add(panel, "density", "Beta", x, model.pdf(x, c))
    return data.frame()


def draw_figure2(data: pd.DataFrame, *, modes: Sequence[float], n: int, ncols: int) -> Figure:
    """Draw a frame of :func:`figure2_data`: per panel the histogram (its bins split [0, 1]
    equally), the Beta density, and a dashed line at the panel's true c (``modes``, one per
    panel); ``n``, the number of draws, goes in the legend."""
    panels = _panels(data)
    fig, axes = _figure(len(panels), ncols=ncols)
    for ax, panel, c in zip(axes, panels, modes, strict=True):
        rows = data[data["panel"] == panel]
        dens = rows.loc[rows["kind"] == "histogram", "y"].to_numpy()
        pdf = rows[rows["kind"] == "density"]
        ax.stairs(dens, np.linspace(0.0, 1.0, dens.size + 1), fill=True, color="tab:blue",
                  alpha=0.6, label=f"{n:,} draws")
        ax.plot(pdf["x"].to_numpy(), pdf["y"].to_numpy(), color="black", lw=1,
                label="Beta density")
        ax.axvline(c, color="tab:red", ls="--", lw=1, label=f"mode c = {c:g}")
        ax.set_xlim(0, 1)
        ax.set_xlabel("presumed cost proportion \u0109")
        ax.set_ylabel("density")
        ax.set_title(panel)
        ax.legend(fontsize=7)
    fig.suptitle("Fig. 2: distribution of \u0109 given the true c")
    return fig


def figure2(
    stem: FigureTarget,
    *,
    c_values: Sequence[float] = (0.2,),
    gammas: Sequence[float] = (10.0, 100.0),
    n: int = 1_000_000,
    bins: int = 100,
    seed: int = 0,
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """Fig. 2: histograms of ``n`` draws of ``c_hat ~ Beta(gamma c + 1, gamma (1 - c) + 1)``
    for each true ``c`` (rows) and ``gamma`` (columns), with the Beta density overlaid (the
    paper: c = 0.2, gamma = 10 and 100, 1,000,000 values). ``gamma`` must be finite."""
    data = figure2_data(c_values=c_values, gammas=gammas, n=n, bins=bins, seed=seed)
    modes = [c for c in c_values for _ in gammas]
    return _write(draw_figure2(data, modes=modes, n=n, ncols=len(gammas)), stem, data, formats)


# -- Fig. 5 and 6: aggregates of the runs ---------------------------------------------------------


def _model_colours(models: Sequence[str]) -> dict[str, object]:
    from matplotlib import colormaps

    cmap = colormaps["tab20"]
    return {m: cmap(i % 20) for i, m in enumerate(_ordered_models(models))}


def _ordered_models(models: Sequence[str]) -> list[str]:
    present = set(models)
    return [m for m in MODEL_ORDER if m in present] + sorted(present - set(MODEL_ORDER))


def _need_columns(runs: pd.DataFrame, columns: set[str]) -> None:
    need = columns - set(runs.columns)
    if need:
        raise UserError(f"runs lack column(s) {', '.join(sorted(need))}")


def figure5_data(
    runs: pd.DataFrame,
    *,
    methods: Sequence[str] = ("train-optimal", "score-driven", "test-optimal", "rate-driven"),
    exclude: Sequence[str] = BASELINES,
) -> pd.DataFrame:
    """The numbers of Fig. 5: per method of ``methods`` present (panel) and model type
    (series, :data:`MODEL_ORDER` first), ``gamma_mean`` rows: x = every gamma of the runs from
    inf down, y = the model's mean loss over its runs at that gamma (NaN if none). Model types
    in ``exclude`` (the baselines, as in the paper) are left out."""
    _need_columns(runs, {"model", "gamma", "method", "loss"})
    sub = runs[~runs["model"].isin(list(exclude))].copy()
    sub["gamma"] = sub["gamma"].astype(float)
    gammas = sorted(sub["gamma"].unique(), reverse=True)
    means = sub.groupby(["method", "model", "gamma"])["loss"].mean()
    found = set(sub["method"].unique())
    present = [m for m in methods if m in found]
    if not present:
        raise UserError(f"no runs of {', '.join(methods)}")
    data = FigureData()
    for method in present:
        for model in _ordered_models(list(sub["model"].unique())):
            try:
                s = means.loc[(method, model)].reindex(gammas)
            except KeyError:
                continue
            data.add(method, "gamma_mean", model, gammas, s.to_numpy())
    return data.frame()


def draw_figure5(data: pd.DataFrame, *, conditions: str = "") -> Figure:
    """Draw a frame of :func:`figure5_data`: one panel per method, one line per model type,
    the gammas equally spaced on the x axis in the frame's order (certainty decreasing);
    ``conditions``: the operating conditions, for the title."""
    colours = _model_colours(list(data["series"].unique()))
    panels = _panels(data)
    fig, axes = _figure(len(panels), ncols=2)
    for ax, method in zip(axes, panels, strict=True):
        gammas: list[float] = []
        for model, line in data[data["panel"] == method].groupby("series", sort=False):
            gammas = line["x"].tolist()
            ax.plot(np.arange(len(gammas)), line["y"].to_numpy(), marker="o", ms=3,
                    color=colours[model], label=model)
        ax.set_xticks(np.arange(len(gammas)), [gamma_text(g) for g in gammas])
        ax.set_xlabel("certainty \u03b3 (decreasing \u2192)")
        ax.set_ylabel("mean expected loss")
        ax.set_title(method)
        ax.grid(alpha=0.25)
    axes[0].legend(fontsize=7, ncols=2, title="model type", title_fontsize=7)
    fig.suptitle("Fig. 5: expected loss vs certainty, mean over datasets and splits"
                 + _suffix(conditions))
    return fig


def figure5(
    runs: pd.DataFrame,
    stem: FigureTarget,
    *,
    methods: Sequence[str] = ("train-optimal", "score-driven", "test-optimal", "rate-driven"),
    exclude: Sequence[str] = BASELINES,
    formats: Sequence[str] = FIGURE_FORMATS,
    conditions: str = "",
) -> dict[str, Path]:
    """Fig. 5: mean expected loss per model type (over all its runs) against gamma, one panel
    per method (the paper shows train-optimal and score-driven; the others are added). The
    x axis lists the gammas present from certainty (inf) to complete uncertainty (0), equally
    spaced. Model types in ``exclude`` (the baselines, as in the paper) are left out."""
    data = figure5_data(runs, methods=methods, exclude=exclude)
    return _write(draw_figure5(data, conditions=conditions), stem, data, formats)


def figure6_data(
    runs: pd.DataFrame,
    *,
    gammas: Sequence[float] = (INF, 0.0),
    x_method: str = "train-optimal",
    y_method: str = "score-driven",
) -> pd.DataFrame:
    """The numbers of Fig. 6, one panel per gamma of ``gammas`` (``"\u03b3 = <gamma>"``), per
    model type (:data:`MODEL_ORDER` first): ``point`` rows (one per run with both methods:
    x = its ``x_method`` loss, y = its ``y_method`` loss), then one ``mean`` row (the means of
    those points)."""
    _need_columns(runs, {"dataset", "model", "split", "gamma", "method", "loss"})
    g_all = runs["gamma"].astype(float)
    models = _ordered_models(list(runs["model"].unique()))
    data = FigureData()
    for gamma in gammas:
        at = runs[(g_all == gamma) & runs["method"].isin([x_method, y_method])]
        wide = at.pivot_table(
            index=["dataset", "model", "split"], columns="method", values="loss", aggfunc="first"
        )
        if x_method not in wide.columns or y_method not in wide.columns:
            raise UserError(
                f"no runs of {x_method} and {y_method} at gamma = {format_gamma(gamma)}"
            )
        wide = wide.dropna().reset_index()
        panel = f"\u03b3 = {gamma_text(gamma)}"
        for model in models:
            pts = wide[wide["model"] == model]
            if pts.empty:
                continue
            data.add(panel, "point", model, pts[x_method], pts[y_method])
            data.add(panel, "mean", model, float(pts[x_method].mean()), float(pts[y_method].mean()))
    return data.frame()


def draw_figure6(
    data: pd.DataFrame,
    *,
    x_method: str = "train-optimal",
    y_method: str = "score-driven",
    conditions: str = "",
) -> Figure:
    """Draw a frame of :func:`figure6_data`: per panel the runs as small dots, one colour per
    model type, each model's mean as a large marker with horizontal/vertical lines, and the
    diagonal (above it ``y_method`` is worse); the method names label the axes."""
    colours = _model_colours(list(data["series"].unique()))
    panels = _panels(data)
    fig, axes = _figure(len(panels), ncols=1, size=5.5)
    for ax, panel in zip(axes, panels, strict=True):
        rows = data[data["panel"] == panel]
        points = rows[rows["kind"] == "point"]
        means = rows[rows["kind"] == "mean"]
        for model, mx, my in zip(means["series"], means["x"], means["y"], strict=True):
            pts = points[points["series"] == model]
            colour = colours[model]
            ax.scatter(pts["x"], pts["y"], s=6, color=colour, alpha=0.5, lw=0)
            ax.axvline(mx, color=colour, lw=0.7, alpha=0.6)
            ax.axhline(my, color=colour, lw=0.7, alpha=0.6)
            ax.scatter([mx], [my], s=60, marker="D", color=colour, edgecolor="black", label=model)
        hi = float(np.nanmax(points[["x", "y"]].to_numpy())) if len(points) else 1.0
        ax.plot([0, hi], [0, hi], color="black", lw=0.8, ls="--", label="diagonal")
        ax.set_xlabel(f"{x_method} expected loss")
        ax.set_ylabel(f"{y_method} expected loss")
        ax.set_title(f"{panel}: above the diagonal {y_method} is worse")
        ax.grid(alpha=0.25)
        ax.legend(fontsize=7, ncols=2, title="model type (mean)", title_fontsize=7)
    fig.suptitle(f"Fig. 6: {y_method} vs {x_method}, one point per run" + _suffix(conditions))
    return fig


def figure6(
    runs: pd.DataFrame,
    stem: FigureTarget,
    *,
    gammas: Sequence[float] = (INF, 0.0),
    x_method: str = "train-optimal",
    y_method: str = "score-driven",
    formats: Sequence[str] = FIGURE_FORMATS,
    conditions: str = "",
) -> dict[str, Path]:
    """Fig. 6: per run, score-driven (y) against train-optimal (x) loss, one panel per gamma
    (the paper: inf and 0), one colour per model type; per-model means as large markers with
    horizontal/vertical lines; the diagonal (below it score-driven is better)."""
    data = figure6_data(runs, gammas=gammas, x_method=x_method, y_method=y_method)
    fig = draw_figure6(data, x_method=x_method, y_method=y_method, conditions=conditions)
    return _write(fig, stem, data, formats)


# -- Fig. 8 and 9: the toy example of Appendix B -------------------------------------------------


def figure8(
    stem: FigureTarget,
    run: RunScores | None = None,
    *,
    estimator: Estimator = "exact",
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """Fig. 8: left, the training cost lines (numbered) and their lower envelope (the
    train-optimal choice on the training data); right, the test cost lines and the four
    methods' cost curves at gamma = inf, areas in the legend. ``run`` defaults to the
    Appendix B example (:func:`toy_example`)."""
    data = figure8_data(run, estimator=estimator)
    return _write(draw_figure8(data), stem, data, formats)


def figure9(
    stem: FigureTarget,
    run: RunScores | None = None,
    *,
    estimator: Estimator = "exact",
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """Fig. 9: the Appendix B example, the four methods' cost curves under complete
    certainty (solid, gamma = inf) and complete uncertainty (dashed, gamma = 0)."""
    data = figure9_data(run, estimator=estimator)
    title = "Fig. 9: Appendix B example, \u03b3 = \u221e (solid) vs \u03b3 = 0 (dashed)"
    return _write(draw_cost_curves(data, title=title), stem, data, formats)


__all__ = [
    "FIG3_MODELS",
    "FIG4_MODELS",
    "FIG7_MODELS",
    "TOY_LEAF_SCORES",
    "TOY_TEST_COUNTS",
    "TOY_TRAIN_COUNTS",
    "FigureTarget",
    "cost_curves_data",
    "cost_curves_figure",
    "draw_cost_curves",
    "draw_figure2",
    "draw_figure5",
    "draw_figure6",
    "draw_figure8",
    "figure1",
    "figure1_data",
    "figure2",
    "figure2_data",
    "figure3",
    "figure3_data",
    "figure4",
    "figure4_data",
    "figure5",
    "figure5_data",
    "figure6",
    "figure6_data",
    "figure7",
    "figure7_data",
    "figure8",
    "figure8_data",
    "figure9",
    "figure9_data",
    "figure_paths",
    "toy_example",
]
