"""Critical-difference diagrams (Demšar 2006, Fig. 1-2) of a scope's comparisons, one panel
per gamma: computed first (:func:`cd_data`, a tidy frame, no matplotlib), then drawn
(:func:`draw_cd`).

A panel's axis is the mean rank (1 = lowest loss, on the left); each item hangs from its mean
rank to its name, the better half on the left; a thick bar joins the items whose mean ranks
differ by less than the Nemenyi critical difference (not significantly different), and the
critical difference is drawn above the axis.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from threshold_choice.atomic import write_text_atomic
from threshold_choice.plotting._common import FigureData, gamma_text, save_figure
from threshold_choice.reproduction.significance import cliques

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_WIDTH = 8.0  # inches
_LABEL_SPACE = 2.2  # inches each side for the names
_LINE = 0.17  # inches between two names


def cd_data(ranks: pd.DataFrame, friedman: pd.DataFrame, *, comparison: str,
            under: str) -> pd.DataFrame:
    """The numbers of a critical-difference figure of one comparison (``comparison``:
    ``methods`` or ``models``; ``under``: the model types pooled or the method), one panel
    per gamma (named "gamma = <gamma>" with the Greek letter, in the order of ``friedman``):
    ``rank`` rows (series: the item; x its mean rank, y its mean loss), a ``cd`` row (x the
    critical difference, y the Iman-Davenport p-value), ``n`` (x the number of datasets, y
    the Friedman chi-square p-value) and ``clique`` rows (x the first and last mean rank of a
    group of items not significantly different, y its number)."""
    data = FigureData()
    tests = friedman[(friedman["comparison"] == comparison) & (friedman["under"] == under)]
    for test in tests.itertuples(index=False):
        panel = f"\u03b3 = {gamma_text(float(test.gamma))}"
        at = ranks[(ranks["comparison"] == comparison) & (ranks["under"] == under)
                   & (ranks["gamma"] == test.gamma)].sort_values("mean_rank", kind="stable")
        data.add(panel, "cd", "CD", test.critical_difference, test.p_value_f)
        data.add(panel, "n", "datasets", test.n_datasets, test.p_value)
        for row in at.itertuples(index=False):
            data.add(panel, "rank", str(row.item), row.mean_rank, row.mean_loss)
        r = at["mean_rank"].to_numpy()
        for j, (lo, hi) in enumerate(cliques(r, float(test.critical_difference))):
            data.add(panel, "clique", f"clique {j + 1}", [r[lo], r[hi]], [j, j])
    return data.frame()


def _p_text(p: float) -> str:
    if math.isnan(p):
        return "n/a"
    return f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}"


_TOP = 0.5  # inches above a panel's axis: the tick labels and the critical difference
_TITLE = 0.3  # inches above a panel for its title
_HEAD = 0.45  # inches for the figure's title


def _panel_height(k: int, n_cliques: int) -> float:
    """Inches below a panel's axis: its group bars, then its names (half of them a side)."""
    return 0.12 + 0.12 * n_cliques + _LINE * (math.ceil(k / 2) + 0.5)


def draw_cd(data: pd.DataFrame, *, title: str, alpha: float) -> Figure:
    """Draw the critical-difference figure of :func:`cd_data`'s frame ``data``: one panel
    per gamma, each ``_TOP`` inches above its axis and as deep as its names need (y in
    inches, so every panel has the same scale)."""
    from matplotlib.figure import Figure

    panels = list(dict.fromkeys(data["panel"]))
    depths = []
    for panel in panels:
        frame = data[data["panel"] == panel]
        depths.append(_panel_height(int((frame["kind"] == "rank").sum()),
                                    int((frame["kind"] == "clique").sum()) // 2))
    height = _HEAD + sum(_TITLE + _TOP + d for d in depths) if panels else 1.5
    fig = Figure(figsize=(_WIDTH, height))
    fig.text(0.5, 1 - 0.25 / height, title, ha="center", va="center", fontsize=10)
    if not panels:
        fig.text(0.5, 0.4, "no comparison: too few items or datasets", ha="center",
                 va="center", fontsize=9)
        return fig
    top = height - _HEAD
    for panel, depth in zip(panels, depths, strict=True):
        top -= _TITLE
        box = _TOP + depth
        ax = fig.add_axes((0.0, (top - box) / height, 1.0, box / height))
        ax.set_ylim(-depth, _TOP)
        _draw_panel(ax, data[data["panel"] == panel], panel, alpha)
        top -= box
    return fig


def _draw_panel(ax: object, frame: pd.DataFrame, panel: str, alpha: float) -> None:
    ranks = frame[frame["kind"] == "rank"]
    names = list(ranks["series"])
    r = ranks["x"].to_numpy(dtype=float)
    k = len(names)
    cd_row = frame[frame["kind"] == "cd"].iloc[0]
    n_row = frame[frame["kind"] == "n"].iloc[0]
    cd = float(cd_row["x"])
    # x in mean ranks: the axis 1..k spans the width between the names' spaces
    span = max(k - 1, 1)
    per_inch = span / (_WIDTH - 2 * _LABEL_SPACE)
    pad = _LABEL_SPACE * per_inch
    ax.set_xlim(1 - pad, 1 + span + pad)
    ax.set_axis_off()
    ax.text(1 - pad + 0.1 * per_inch, _TOP + 0.05,
            f"{panel}: Friedman p = {_p_text(float(cd_row['y']))} (Iman-Davenport), "
            f"N = {int(n_row['x'])} datasets; groups: Nemenyi, \u03b1 = {alpha:g}",
            ha="left", va="bottom", fontsize=8.5, fontweight="bold")
    ax.plot([1, 1 + span], [0, 0], color="black", lw=1)
    for tick in range(1, k + 1):
        ax.plot([tick, tick], [0, 0.06], color="black", lw=1)
        ax.text(tick, 0.08, str(tick), ha="center", va="bottom", fontsize=7)
    for half in np.arange(1.5, k, 1.0):
        ax.plot([half, half], [0, 0.03], color="black", lw=0.6)
    # the critical difference, above the axis on the left
    if math.isfinite(cd):
        y_cd = 0.36
        ax.plot([1, 1 + cd], [y_cd, y_cd], color="black", lw=1.2)
        for x in (1, 1 + cd):
            ax.plot([x, x], [y_cd - 0.03, y_cd + 0.03], color="black", lw=1.2)
        ax.text(1 + cd + 0.08 * per_inch, y_cd, f"CD = {cd:.2f}", ha="left", va="center",
                fontsize=7)
    # the groups not significantly different: thick bars just below the axis
    clique_rows = frame[frame["kind"] == "clique"]
    bars = list(clique_rows.groupby("series", sort=False))
    for j, (_, bar) in enumerate(bars):
        lo, hi = bar["x"].min(), bar["x"].max()
        y = -0.1 - 0.12 * j
        ax.plot([lo - 0.05 * per_inch, hi + 0.05 * per_inch], [y, y], color="black", lw=2.4,
                solid_capstyle="butt")
    first = -0.1 - 0.12 * len(bars) - _LINE * 0.5
    left = list(range(math.ceil(k / 2)))
    right = list(range(math.ceil(k / 2), k))
    for depth, i in enumerate(left):
        y = first - depth * _LINE
        ax.plot([r[i], r[i], 1 - pad * 0.05], [0, y, y], color="0.3", lw=0.8)
        ax.text(1 - pad * 0.07, y, f"{names[i]} ({r[i]:.2f})", ha="right", va="center",
                fontsize=8)
    for depth, i in enumerate(reversed(right)):
        y = first - depth * _LINE
        ax.plot([r[i], r[i], 1 + span + pad * 0.05], [0, y, y], color="0.3", lw=0.8)
        ax.text(1 + span + pad * 0.07, y, f"({r[i]:.2f}) {names[i]}", ha="left",
                va="center", fontsize=8)


def cd_figure(ranks: pd.DataFrame, friedman: pd.DataFrame, files: Sequence[Path | str], *,
              comparison: str, under: str, title: str, alpha: float) -> None:
    """Compute and draw a critical-difference figure (:func:`cd_data`, :func:`draw_cd`) and
    write it to ``files`` (one per image format, and one ``.csv``: the data)."""
    from threshold_choice.reproduction.figures import figure_paths

    data = cd_data(ranks, friedman, comparison=comparison, under=under)
    fig = draw_cd(data, title=title, alpha=alpha)
    paths = figure_paths(list(files))
    for ext, path in paths.items():
        if ext != "csv":
            save_figure(fig, path)
    write_text_atomic(paths["csv"], data.to_csv(index=False))


__all__ = ["cd_data", "cd_figure", "draw_cd"]
