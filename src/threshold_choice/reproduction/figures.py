"""Figures 1-9 of the paper from plain data (scores, ``runs`` frames).

Each figure is computed first, drawn second, and what is specific to the paper stays here:
which models, panels, titles, the Appendix B example, Fig. 8's training panel. The cost-curve
figures (1, 3, 4, 7, 9 and Fig. 8's test panel) are layouts of the library's
:class:`~threshold_choice.plotting.CostCurveDisplay`: one display per panel, computed with the
configured :class:`~threshold_choice.LossSettings` (:func:`cost_curve_displays`; the areas in
the legends are then the runs' expected losses) and drawn by its ``plot(ax=...)`` on the
figure's panels (:func:`draw_cost_curves`). Figs 2, 5 and 6 (and Fig. 8's training panel) are
frames drawn by ``draw_*(frame, ...)``. ``figureN_data(...)`` (:func:`credit_a_data` for
Figs 3, 4 and 7, :func:`cost_curves_data`) returns a figure's numbers as a tidy frame and
never imports matplotlib; ``figureN(..., stem)`` (:func:`credit_a_figure`) computes, draws and
writes the figure in each of ``formats`` (default ``<stem>.png`` and ``<stem>.pdf``; also
``svg``) and the frame as ``<stem>.csv`` (atomically), or to the list of files given as
``stem`` (a workflow rule's outputs), and returns the paths by extension
(:func:`figure_paths`). The frame holds exactly the numbers plotted, in drawing order, in long
format with the columns :data:`~threshold_choice.plotting._common.DATA_COLUMNS`:

``panel``
    the subplot's title;
``kind``
    ``cost_line`` (x = 0 and 1, y = the line's ends; a cost-curve panel draws at most
    :data:`~threshold_choice.plotting.cost_curves.MAX_DRAWN_LINES`, evenly spaced),
    ``curve`` (x = c, y = loss), ``expected_loss`` (x = gamma, y = the area under the curve,
    as in the legend), ``histogram`` (x = bin centre, y = density), ``density`` (x = c_hat,
    y = Beta pdf), ``point`` (x = train-optimal, y = score-driven loss of one run), ``mean``
    (per model), ``gamma_mean`` (x = gamma, y = mean loss of a model type);
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
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from threshold_choice.atomic import write_text_atomic
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings
from threshold_choice.expected_loss import expected_cost_curve
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
from threshold_choice.reproduction.paper import (
    BASELINES,
    CREDIT_A_FIGURES,
    FIG1_WORKED_EXAMPLE,
    FIGURES,
    PAPER_METHODS,
)
from threshold_choice.uncertainty import Uncertainty, format_gamma

if TYPE_CHECKING:  # matplotlib is imported by the drawing only
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from threshold_choice.plotting.cost_curves import CostCurveDisplay

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
    n_panels: int, *, ncols: int | None = None, size: float = 4.6, legend_width: float = 0.0
) -> tuple[Figure, list[Axes]]:
    """A figure of ``n_panels`` axes of ``size`` inches, ``ncols`` a row (default up to 3),
    each with ``legend_width`` inches beside it for a legend outside the axes."""
    # matplotlib is imported here, not at the top: the data functions never need it
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if n_panels < 1:
        raise UserError("no panels to draw: the figure's data frame is empty")
    ncols = ncols or min(n_panels, 3)
    nrows = math.ceil(n_panels / ncols)
    fig = Figure(figsize=((size + legend_width) * ncols + 0.4, size * 0.85 * nrows + 0.6),
                 layout="constrained")
    FigureCanvasAgg(fig)
    if legend_width:  # room made beside each panel: the Displays' legends go outside
        fig._threshold_choice_own = True  # type: ignore[attr-defined]
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
    # on a line of its own: the titles fill the figure's width already
    return f"\n({conditions})" if conditions else ""


# -- cost curves: the Displays of the panels ------------------------------------------------------


def cost_curve_displays(
    panels: Mapping[str, RunScores],
    *,
    methods: Sequence[str] = PAPER_METHODS,
    gammas: Sequence[float] = (INF, 0.0),
    cost_lines: bool = True,
    settings: LossSettings | Mapping[str, Any] | None = None,
) -> dict[str, CostCurveDisplay]:
    """The cost-curve displays of a figure's panels, computed, not drawn.

    Parameters
    ----------
    panels : Mapping of str to RunScores
        Panel title -> the scores of one run (test, and training for train-optimal).
    methods : sequence of str, default=PAPER_METHODS
        The threshold choice methods.
    gammas : sequence of float, default=(inf, 0.0)
        The certainties.
    cost_lines : bool, default=True
        Keep the test cost lines to draw them (of more than
        :data:`~threshold_choice.plotting.cost_curves.MAX_DRAWN_LINES`, that many, evenly
        spaced).
    settings : LossSettings, Mapping or None, default=None
        How the areas are estimated and under which conditions
        (:class:`~threshold_choice.LossSettings` or a mapping of its fields: the estimator,
        the cost distribution, the authors' conventions, ...), as the runs are evaluated;
        ``None``: the library's defaults.

    Returns
    -------
    dict of str to CostCurveDisplay
        Panel title -> its :class:`~threshold_choice.plotting.CostCurveDisplay`: the test
        cost lines, the expected cost curves ``K(c)`` of ``methods`` at each of ``gammas``
        and their areas, the expected losses of :func:`~threshold_choice.expected_losses`.

    Raises
    ------
    UserError
        Without panels, or when a method needs training scores a panel lacks.
    """
    from threshold_choice.plotting.cost_curves import CostCurveDisplay

    if not panels:
        raise UserError("no panels to plot")
    for panel, run in panels.items():
        lacking = [m for m in methods if m in NEEDS_TRAIN and run.train_y is None]
        if lacking:  # said with the panel, which the display does not know
            raise UserError(f"{panel}: {lacking[0]} needs the training scores")
    return {
        panel: CostCurveDisplay.from_predictions(
            run.test_y, run.test_s, train_y=run.train_y, train_score=run.train_s, plot=False,
            methods=methods, gammas=gammas, settings=settings, cost_lines=cost_lines)
        for panel, run in panels.items()
    }


def displays_data(displays: Mapping[str, CostCurveDisplay]) -> pd.DataFrame:
    """The plotted numbers of cost-curve panels, as a figure's CSV holds them.

    Parameters
    ----------
    displays : Mapping of str to CostCurveDisplay
        Panel title -> its display (:func:`cost_curve_displays`).

    Returns
    -------
    pandas.DataFrame
        Each display's :attr:`~threshold_choice.plotting.CostCurveDisplay.data` under its
        panel's title (``panel, kind, series, x, y``), per panel the ``cost_line`` rows (the
        drawn ones: a display keeps at most
        :data:`~threshold_choice.plotting.cost_curves.MAX_DRAWN_LINES`, numbered as among
        all), then per method and gamma its ``curve`` (series ``"<method> gamma=<gamma>"``)
        and its ``expected_loss`` (series the method, x = gamma, y = the area in the legend).
    """
    frames = [_areas_after_curves(display.data.assign(panel=panel))
              for panel, display in displays.items()]
    return pd.concat(frames, ignore_index=True) if frames else FigureData().frame()


def _areas_after_curves(data: pd.DataFrame) -> pd.DataFrame:
    """A display's rows with each ``expected_loss`` row moved after its curve: the figure
    CSVs' order (a display lists its areas after all its curves)."""
    curve, area = data["kind"] == "curve", data["kind"] == "expected_loss"
    order = {s: float(i) for i, s in enumerate(dict.fromkeys(data.loc[curve, "series"]))}
    key = np.where(data["kind"] == "cost_line", -1.0, float(len(order)))
    key[curve.to_numpy()] = data.loc[curve, "series"].map(order)
    key[area.to_numpy()] = [order[_curve_name(m, g)] + 0.5
                            for m, g in zip(data.loc[area, "series"], data.loc[area, "x"],
                                            strict=True)]
    return data.iloc[np.argsort(key, kind="stable")]


def cost_curves_data(
    panels: Mapping[str, RunScores],
    *,
    methods: Sequence[str] = PAPER_METHODS,
    gammas: Sequence[float] = (INF, 0.0),
    cost_lines: bool = True,
    settings: LossSettings | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """The numbers of :func:`cost_curves_figure`: :func:`displays_data` of
    :func:`cost_curve_displays` (the same arguments)."""
    return displays_data(cost_curve_displays(panels, methods=methods, gammas=gammas,
                                             cost_lines=cost_lines, settings=settings))


def _pick(scores: Mapping[str, RunScores], models: Sequence[str]) -> dict[str, RunScores]:
    lacking = [m for m in models if m not in scores]
    if lacking:
        raise UserError(f"no scores for model(s) {', '.join(lacking)}")
    return {m: scores[m] for m in models}


def _styles(gammas: Sequence[float]) -> str:
    """The line style of each gamma for a title (``solid gamma = inf, dashed gamma = 0``, in
    Greek letters and signs)."""
    if len(gammas) == 1:
        return f"\u03b3 = {gamma_text(gammas[0])}"
    names = {"-": "solid", "--": "dashed", ":": "dotted"}
    return ", ".join(f"{names[gamma_linestyle(g)]} \u03b3 = {gamma_text(g)}" for g in gammas)


def figure1_data(
    test_y: ArrayLike,
    test_s: ArrayLike,
    train_y: ArrayLike,
    train_s: ArrayLike,
    *,
    settings: LossSettings | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """The numbers of Fig. 1: the test cost lines and the four methods at gamma = inf, their
    areas by ``settings`` (:func:`cost_curve_displays`), and Sect. 1's worked example
    (:func:`worked_example_data`)."""
    run = RunScores.from_arrays(test_y, test_s, train_y, train_s)
    return pd.concat([cost_curves_data({"test set": run}, gammas=(INF,), settings=settings),
                      worked_example_data(run, settings=settings)], ignore_index=True)


def worked_example_data(
    run: RunScores,
    *,
    settings: LossSettings | Mapping[str, Any] | None = None,
    panel: str = "test set",
) -> pd.DataFrame:
    """Sect. 1's worked example (:data:`~threshold_choice.reproduction.paper.FIG1_WORKED_EXAMPLE`)
    on ``run``: for each of its methods, the loss of the cost line the method chooses for the
    estimate ``c_hat``, at ``c_hat`` and at the true ``c`` (kind ``worked_example``, series
    ``"<method> c_hat=<c_hat> c=<c>"``, x = ``[c_hat, c]``)."""
    from threshold_choice.evaluation import loss_settings
    from threshold_choice.plotting.cost_curves import selection

    example = FIG1_WORKED_EXAMPLE
    chosen = loss_settings(settings)
    test, train = run.lines()
    c_hat, c = float(example["c_hat"]), float(example["c"])
    data = FigureData()
    for method in example["methods"]:
        sel = selection(method, test, train, INF, chosen)
        y = sel.loss(np.array([c_hat, c_hat]), np.array([c_hat, c]))
        data.add(panel, "worked_example", f"{method} c_hat={c_hat:g} c={c:g}", [c_hat, c], y)
    return data.frame()


def _draw_worked_example(ax: Axes, rows: pd.DataFrame) -> None:
    """Sect. 1's arrows: per method, from the loss of its line at ``c_hat`` along the line,
    dotted, to its loss at the true ``c`` (the method's colour), the two costs named; the
    axes raised to show the arrows' heads."""
    bottom, top = ax.get_ylim()
    ax.set_ylim(bottom, max(top, 1.1 * float(rows["y"].max())))
    for series, row in rows.groupby("series", sort=False):
        (x0, x1), (y0, y1) = row["x"].to_numpy(), row["y"].to_numpy()
        colour = method_colour(str(series).split(" ")[0])
        ax.plot([x0], [y0], "o", ms=3.5, color=colour, zorder=6)
        ax.annotate("", (x1, y1), xytext=(x0, y0), zorder=6,
                    arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 1.2,
                                "linestyle": (0, (2, 1.5)), "shrinkA": 0, "shrinkB": 0})
        ax.annotate(f"{y1:.3f}", (x1, y1), xytext=(-4, 3), textcoords="offset points",
                    fontsize=7, color=colour, ha="right", va="bottom", zorder=7,
                    bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none",
                          "alpha": 0.8})
    x0, x1 = rows["x"].iloc[0], rows["x"].iloc[1]
    for x, text in ((x0, f"\u0109 = {x0:g}"), (x1, f"c = {x1:g}")):
        ax.axvline(x, color="0.4", lw=0.6, ls=":", zorder=1)
        ax.annotate(text, (x, 0), xytext=(2, 3), textcoords="offset points", fontsize=7,
                    color="0.3")


def credit_a_data(
    stem: str,
    scores: Mapping[str, RunScores],
    *,
    gammas: Sequence[float] = (INF, 0.0),
    settings: LossSettings | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """The numbers of Fig. 3, 4 or 7: one cost-curve panel per model of the figure.

    Parameters
    ----------
    stem : {"fig3", "fig4", "fig7"}
        The figure; its models are those of
        :data:`~threshold_choice.reproduction.paper.FIGURES`.
    scores : Mapping of str to RunScores
        Model type -> the scores of one run (more models may be given).
    gammas : sequence of float, default=(inf, 0.0)
        The certainties.
    settings : LossSettings, Mapping or None, default=None
        The areas' estimator and conditions (:func:`cost_curve_displays`).

    Returns
    -------
    pandas.DataFrame
        The figure's numbers (:func:`displays_data`), the four methods at each of
        ``gammas`` per panel, in the figure's order of models.

    Raises
    ------
    UserError
        For another ``stem``, or scores missing for one of the figure's models.
    """
    return displays_data(_credit_a_displays(stem, scores, gammas, settings))


def _credit_a_displays(stem: str, scores: Mapping[str, RunScores], gammas: Sequence[float],
                       settings: LossSettings | Mapping[str, Any] | None
                       ) -> dict[str, CostCurveDisplay]:
    if stem not in CREDIT_A_FIGURES:
        raise UserError(f"the credit-a figures are {', '.join(CREDIT_A_FIGURES)}, not {stem}")
    return cost_curve_displays(_pick(scores, FIGURES[stem].models), gammas=gammas,
                               settings=settings)


def figure8_data(
    run: RunScores | None = None,
    *,
    settings: LossSettings | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """The numbers of Fig. 8: panel ``training set``, the training cost lines and their
    lower envelope (``curve`` ``training envelope``: the train-optimal choice on the training
    data); panel ``test set``, the test cost lines and the four methods at gamma = inf
    (:func:`displays_data`), areas by ``settings``. ``run`` defaults to the Appendix B example
    (:func:`toy_example`)."""
    training, test = _figure8_parts(run, settings)
    return pd.concat([training, displays_data({"test set": test})], ignore_index=True)


def _figure8_parts(run: RunScores | None, settings: LossSettings | Mapping[str, Any] | None
                   ) -> tuple[pd.DataFrame, CostCurveDisplay]:
    """Fig. 8's training panel (its rows) and its test panel (a display)."""
    run = run or toy_example()
    train = run.lines()[1]
    if train is None:
        raise UserError("figure 8 needs the training scores")
    data = FigureData()
    for j, (a, b) in enumerate(zip(train.left, train.right, strict=True)):
        data.add("training set", "cost_line", f"training cost line {j}", [0.0, 1.0], [a, b])
    sel = make_selection("test-optimal", train)  # the envelope of the training lines
    c = c_grid(sel, INF)
    data.add("training set", "curve", "training envelope", c, expected_cost_curve(sel, INF, c))
    test = cost_curve_displays({"test set": run}, gammas=(INF,), settings=settings)
    return data.frame(), test["test set"]


def figure9_data(
    run: RunScores | None = None,
    *,
    settings: LossSettings | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """The numbers of Fig. 9: the four methods at gamma = inf and 0, no cost lines, on ``run``
    (default: the Appendix B example), areas by ``settings``."""
    return cost_curves_data({"test set": run or toy_example()}, gammas=(INF, 0.0),
                            cost_lines=False, settings=settings)


# -- cost curves: the drawing --------------------------------------------------------------------

#: the width of a cost-curve panel's legend, beside it (a Display's legend is outside its axes)
_LEGEND_WIDTH = 2.1


def draw_cost_curves(displays: Mapping[str, CostCurveDisplay], *, title: str,
                     ncols: int | None = None) -> Figure:
    """Draw cost-curve panels (Figs 1, 3, 4, 7, 9), a display each.

    Each display's :meth:`~threshold_choice.plotting.CostCurveDisplay.plot` on its panel,
    titled: the cost lines a light fan, the curves coloured by method (solid: gamma = inf,
    dashed: gamma = 0, dotted: others), the expected losses in the legend beside the panel.

    Parameters
    ----------
    displays : Mapping of str to CostCurveDisplay
        Panel title -> its display (:func:`cost_curve_displays`).
    title : str
        The figure's title.
    ncols : int or None, default=None
        Panels a row; ``None``: up to 3.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (Agg canvas, constrained layout).
    """
    fig, axes = _figure(len(displays), ncols=ncols, legend_width=_LEGEND_WIDTH)
    for ax, (panel, display) in zip(axes, displays.items(), strict=True):
        display.plot(ax=ax, title=panel)
    _share_height(axes)
    fig.suptitle(title)
    return fig


def _share_height(axes: Sequence[Axes]) -> None:
    """Give a figure's panels one loss axis, the highest panel's: the paper compares model
    types across panels (J48 against J48Unp, IBK10 against IBK1). Left as they are when a
    panel marks a curve as running off its top (the mark would no longer hold)."""
    from threshold_choice.plotting._base import OFF_TOP

    if len(axes) < 2 or any(str(line.get_label()).endswith(OFF_TOP)
                            for ax in axes for line in ax.get_lines()):
        return
    top = max(ax.get_ylim()[1] for ax in axes)
    for ax in axes:
        ax.set_ylim(ax.get_ylim()[0], top)


def draw_figure8(training: pd.DataFrame, test: CostCurveDisplay) -> Figure:
    """Draw Fig. 8: the training panel beside the test panel.

    Parameters
    ----------
    training : pandas.DataFrame
        The ``training set`` rows of :func:`figure8_data`: the training cost lines, drawn
        numbered, and their envelope.
    test : CostCurveDisplay
        The test panel (test cost lines and the methods' curves), drawn as
        :func:`draw_cost_curves` draws a panel.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (Agg canvas, constrained layout).
    """
    fig, (left, right) = _figure(2, ncols=2, legend_width=_LEGEND_WIDTH)
    ends = training.loc[training["kind"] == "cost_line", "y"].to_numpy().reshape(-1, 2)
    for j, (a, b) in enumerate(ends):  # numbered at c = 0.5, where the lines are all apart
        left.plot([0, 1], [a, b], color="0.55", lw=0.6, zorder=1,
                  label="training cost lines" if j == 0 else None)
        left.annotate(f"i={j}", (0.5, (a + b) / 2), fontsize=7, xytext=(0, 2),
                      textcoords="offset points")
    envelope = training[training["kind"] == "curve"]
    left.plot(envelope["x"].to_numpy(), envelope["y"].to_numpy(),
              color=method_colour("train-optimal"), lw=1.6, label="envelope (train-optimal)")
    left.set_xlim(0, 1)
    left.set_ylim(bottom=0)
    left.set_title("training set", fontsize=10, pad=10)  # as the displays' titles
    test._finish(left, test.X_LABEL, test.Y_LABEL)  # the displays' axes and legend
    test.plot(ax=right, title="test set")
    if test.cost_lines is not None:  # the text names the test lines too (Appendix B)
        _number_lines(right, test.cost_line_index, test.cost_lines)
    fig.suptitle("Fig. 8: J48Unp on 1% of spambase (Appendix B)")
    return fig


def _number_lines(ax: Axes, numbers: ArrayLike, ends: ArrayLike) -> None:
    """Write ``i=<number>`` on each cost line ``(Q(0), Q(1))`` of ``ends`` where it is in view:
    at its right end, else its left end, when that end is neither at the axes' top nor on the
    x-axis (where the curves meet), else where it leaves the top of the axes."""
    top = ax.get_ylim()[1]
    low, high = 0.05 * top, 0.92 * top
    for j, (a, b) in zip(np.asarray(numbers), np.asarray(ends, dtype=float), strict=True):
        if low <= b <= high:
            xy, align, dx = (1.0, b), "right", -3
        elif low <= a <= high:
            xy, align, dx = (0.0, a), "left", 3
        elif min(a, b) <= high <= max(a, b):
            xy, align, dx = ((high - a) / (b - a), high), "center", 0
        else:
            continue  # out of view
        # on a light box: the numbers sit among the curves, which end where the lines do
        ax.annotate(f"i={j}", xy, fontsize=7, color="0.3", ha=align, va="bottom",
                    xytext=(dx, 1), textcoords="offset points", zorder=5,
                    bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none",
                          "alpha": 0.8})


# -- Fig. 1, 3, 4, 7, 9: cost curves -------------------------------------------------------


def cost_curves_figure(
    panels: Mapping[str, RunScores],
    stem: FigureTarget,
    *,
    title: str,
    methods: Sequence[str] = PAPER_METHODS,
    gammas: Sequence[float] = (INF, 0.0),
    cost_lines: bool = True,
    settings: LossSettings | Mapping[str, Any] | None = None,
    ncols: int | None = None,
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """One panel per entry of ``panels`` (title -> scores), a
    :class:`~threshold_choice.plotting.CostCurveDisplay` each (:func:`cost_curve_displays`,
    :func:`draw_cost_curves`): the test cost lines and the expected cost curves ``K(c)`` of
    ``methods`` at each of ``gammas``, their areas by ``settings`` in the legend."""
    displays = cost_curve_displays(panels, methods=methods, gammas=gammas,
                                   cost_lines=cost_lines, settings=settings)
    return _write_displays(displays, stem, title, formats, ncols)


def _write_displays(displays: Mapping[str, CostCurveDisplay], stem: FigureTarget, title: str,
                    formats: Sequence[str], ncols: int | None = None) -> dict[str, Path]:
    fig = draw_cost_curves(displays, title=title, ncols=ncols)
    return _write(fig, stem, displays_data(displays), formats)


def figure1(
    test_y: ArrayLike,
    test_s: ArrayLike,
    train_y: ArrayLike,
    train_s: ArrayLike,
    stem: FigureTarget,
    *,
    title: str = "Fig. 1: cost curves, J48Unp on spambase (\u03b3 = \u221e)",
    settings: LossSettings | Mapping[str, Any] | None = None,
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """Fig. 1: all test cost lines and the four methods' cost curves at gamma = inf, the
    areas by ``settings``, and Sect. 1's worked example as arrows (:func:`figure1_data`)."""
    run = RunScores.from_arrays(test_y, test_s, train_y, train_s)
    displays = cost_curve_displays({"test set": run}, gammas=(INF,), settings=settings)
    example = worked_example_data(run, settings=settings)
    fig = draw_cost_curves(displays, title=title)
    _draw_worked_example(fig.axes[0], example)
    data = pd.concat([displays_data(displays), example], ignore_index=True)
    return _write(fig, stem, data, formats)


def credit_a_figure(
    stem: str,
    scores: Mapping[str, RunScores],
    target: FigureTarget,
    *,
    title: str | None = None,
    gammas: Sequence[float] = (INF, 0.0),
    settings: LossSettings | Mapping[str, Any] | None = None,
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """Draw and write Fig. 3, 4 or 7: one cost-curve panel per model of the figure.

    The models are those of :data:`~threshold_choice.reproduction.paper.FIGURES` (Prior and
    Random; J48Unp and NB; J48, J48Unp, IBK10, IBK1, SVMp, SVM, the pairs Sect. 6.3
    compares), each panel the four methods' cost curves at each of ``gammas`` with their
    areas in the legend (:func:`credit_a_data`), two panels a row.

    Parameters
    ----------
    stem : {"fig3", "fig4", "fig7"}
        The figure.
    scores : Mapping of str to RunScores
        Model type -> the scores of one run (more models may be given).
    target : str, Path or sequence of them
        A stem, or the figure's files (:func:`figure_paths`).
    title : str or None, default=None
        The figure's title; ``None``: its number, dataset, models and line styles.
    gammas : sequence of float, default=(inf, 0.0)
        The certainties.
    settings : LossSettings, Mapping or None, default=None
        The areas' estimator and conditions (:func:`cost_curve_displays`).
    formats : sequence of str, default=("png", "pdf")
        The image formats, when ``target`` is a stem.

    Returns
    -------
    dict of str to Path
        The files written, by extension (the images, then ``csv``).

    Raises
    ------
    UserError
        For another ``stem``, or scores missing for one of the figure's models.
    """
    displays = _credit_a_displays(stem, scores, gammas, settings)
    spec = FIGURES[stem]
    if title is None:
        *first, last = spec.models
        models = f"{', '.join(first)} and {last}" if first else last
        title = f"Fig. {stem[3:]}: {spec.dataset}, {models} ({_styles(gammas)})"
    return _write_displays(displays, target, title, formats, ncols=2)


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
    """A colour per model type, the same in every figure: the paper's types by their place
    in :data:`MODEL_ORDER` whether or not a figure draws them all (Fig. 5 leaves out the
    baselines that Fig. 6 draws), the others after them in alphabetical order."""
    from matplotlib import colormaps

    cmap = colormaps["tab20"]
    others = sorted(set(models) - set(MODEL_ORDER))
    place = {m: i for i, m in enumerate([*MODEL_ORDER, *others])}
    return {m: cmap(place[m] % 20) for m in _ordered_models(models)}


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
    settings: LossSettings | Mapping[str, Any] | None = None,
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """Fig. 8: left, the training cost lines (numbered) and their lower envelope (the
    train-optimal choice on the training data); right, the test cost lines and the four
    methods' cost curves at gamma = inf, areas (by ``settings``) in the legend
    (:func:`figure8_data`). ``run`` defaults to the Appendix B example
    (:func:`toy_example`)."""
    training, test = _figure8_parts(run, settings)
    data = pd.concat([training, displays_data({"test set": test})], ignore_index=True)
    return _write(draw_figure8(training, test), stem, data, formats)


def figure9(
    stem: FigureTarget,
    run: RunScores | None = None,
    *,
    settings: LossSettings | Mapping[str, Any] | None = None,
    formats: Sequence[str] = FIGURE_FORMATS,
) -> dict[str, Path]:
    """Fig. 9: the Appendix B example (or ``run``), the four methods' cost curves under
    complete certainty (solid, gamma = inf) and complete uncertainty (dashed, gamma = 0),
    areas by ``settings`` (:func:`figure9_data`)."""
    gammas = (INF, 0.0)
    title = f"Fig. 9: Appendix B example ({_styles(gammas)})"
    return cost_curves_figure({"test set": run or toy_example()}, stem, title=title,
                              gammas=gammas, cost_lines=False, settings=settings,
                              formats=formats)


__all__ = [
    "TOY_LEAF_SCORES",
    "TOY_TEST_COUNTS",
    "TOY_TRAIN_COUNTS",
    "FigureTarget",
    "cost_curve_displays",
    "cost_curves_data",
    "cost_curves_figure",
    "credit_a_data",
    "credit_a_figure",
    "displays_data",
    "draw_cost_curves",
    "draw_figure2",
    "draw_figure5",
    "draw_figure6",
    "draw_figure8",
    "figure1",
    "figure1_data",
    "figure2",
    "figure2_data",
    "figure5",
    "figure5_data",
    "figure6",
    "figure6_data",
    "figure8",
    "figure8_data",
    "figure9",
    "figure9_data",
    "figure_paths",
    "toy_example",
]
