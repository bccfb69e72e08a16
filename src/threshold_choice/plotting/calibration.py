"""The log-odds regret Display (paper ``002_...``, Figs 5 and 7; Sect. 5.2): a model's regret
against the log-odds of the threshold, with that of its isotonic (PAV) recalibration.

Conventions (those of :mod:`threshold_choice.calibration`): class 1 is the class the score
estimates; at the cost proportion ``c`` the scores are thresholded at ``c`` (predict 1 iff
``score > c``) and the regret is ``R(c) = c FP/n + (1 - c) FN/n``. Over ``logit(c)`` the
area under the model's curve is the log loss, under the recalibrated scores' curve (the
least regret any threshold reaches: the ROC convex hull) the refinement, and between them
the calibration loss (:func:`~threshold_choice.calibration.log_loss_decomposition`); over
a range of ``c``, the bounded log loss's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from numpy.typing import ArrayLike
from scipy.special import expit, logit

from threshold_choice.calibration import (
    ScoreDecomposition,
    log_loss_decomposition,
    regret_curves,
)
from threshold_choice.errors import UserError
from threshold_choice.plotting._base import (
    COSTS_GID,
    ThresholdChoiceDisplay,
    data_lines,
    number_text,
)
from threshold_choice.plotting._common import RunScores, clipped_span

#: the costs drawn by default: 1001 points evenly spaced in log-odds over [0.001, 0.999]
#: (``briertools``' range)
DEFAULT_DRAWN = (0.001, 0.999)
_POINTS = 1001
#: candidate tick positions (cost proportions); those inside the drawn range are used
_TICKS = (0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999)


def _tick_text(c: float) -> str:
    """A tick's label: ``c`` over its odds."""
    return f"{c:g}\n{_odds_text(c)}"


def _spaced_ticks(ax: Axes, ticks: list[float], lo: float, hi: float) -> list[float]:
    """Those of ``ticks`` (cost proportions, increasing) whose labels do not run into each
    other at the axes' width over the log-odds ``lo`` .. ``hi``: from the middle one outwards,
    each kept at least half of both labels' widths and a character from the last kept (on
    a 2 x 2 grid 0.25 and 0.75 go, whose labels ran into 0.1's and 0.9's)."""
    if len(ticks) < 3 or hi <= lo:
        return ticks
    import matplotlib
    from matplotlib.font_manager import FontProperties

    size = FontProperties(size=matplotlib.rcParams["xtick.labelsize"]).get_size_in_points()
    char = 0.6 * size  # points: a digit of the sans-serif font is about 0.55 em
    width = ax.get_window_extent().width * 72.0 / ax.figure.dpi
    per_unit = width / (hi - lo)  # points per unit of log-odds

    def half(c: float) -> float:
        return 0.5 * char * max(len(line) for line in _tick_text(c).split("\n"))

    middle = len(ticks) // 2
    kept = [ticks[middle]]
    for side in (ticks[middle + 1:], ticks[:middle][::-1]):
        last = ticks[middle]
        for c in side:
            if abs(logit(c) - logit(last)) * per_unit >= half(c) + half(last) + char:
                kept.append(c)
                last = c
    return sorted(kept)


def _odds_text(c: float) -> str:
    """``c`` as odds ``c : 1 - c``, the smaller side 1 (``1:9`` for 0.1, ``9:1`` for 0.9)."""
    if np.isclose(c, 0.5):
        return "1:1"
    if c < 0.5:
        return f"1:{(1.0 - c) / c:.3g}"
    return f"{c / (1.0 - c):.3g}:1"


#: the second line of the legend entry of costs whose log-odds lie off the drawn axis
_OFF_AXIS = "off the axis, arrow at {}"


def _costs_mark_on_axis(ax: Axes, lo: float, hi: float) -> None:
    """Keep the mark of the user's costs on the log-odds axis ``lo`` .. ``hi``.

    A cost proportion ``c`` of 0 or 1 (a cost of 0) has log-odds -inf or inf, and one beyond
    the drawn range (``c`` = 1e-4) lies past its end: the band drawn at ``logit(c)`` was not
    seen, yet listed in the legend. It is drawn on the spine at that end instead, with an
    arrow half-way up pointing off the axis, and the legend entry says so on a second line
    (``log-odds -inf: off the axis, arrow at left``; the cost curves, on ``c``, draw ``c`` = 0
    or 1 on the spine itself). Placed again when a later model widens the axis."""
    from matplotlib.colors import to_rgba

    for line in ax.get_lines():
        if line.get_gid() != COSTS_GID:
            continue
        if not hasattr(line, "_threshold_choice_log_odds"):  # as _mark_costs drew it
            line._threshold_choice_log_odds = float(line.get_xdata()[0])
            line._threshold_choice_text = str(line.get_label())
        z = line._threshold_choice_log_odds
        side = "left" if z < lo - 1e-9 else "right" if z > hi + 1e-9 else None
        if side is None:  # on the axis (again, once a later model widened it)
            line.set_xdata([z] * len(line.get_xdata()))
            line.set_marker("None")
            line.set_label(line._threshold_choice_text)
            continue
        if len(line.get_ydata()) == 2:  # three points: the arrow on the middle one
            low, high = line.get_ydata()
            line.set_ydata([low, (low + high) / 2.0, high])
            line.set_color(to_rgba(line.get_color(), line.get_alpha()))
            line.set_alpha(None)  # the band's translucency, not the arrow's
            line.set(markevery=[1], markersize=9.0, markerfacecolor="0.3",
                     markeredgecolor="0.3", clip_on=False)
        line.set_xdata([lo if side == "left" else hi] * 3)
        where = "\u2212\u221e" if z == -np.inf else "\u221e" if z == np.inf else (
            f"{z:.3g}".replace("-", "\u2212"))
        line.set_marker("<" if side == "left" else ">")
        line.set_label(f"{line._threshold_choice_text}\nlog-odds {where}: "
                       f"{_OFF_AXIS.format(side)}")


def _cost_range(cost_range: ArrayLike | None) -> tuple[float, float] | None:
    if cost_range is None:
        return None
    pair = np.asarray(cost_range, dtype=np.float64).ravel()
    if pair.size != 2 or not 0.0 < pair[0] < pair[1] < 1.0:
        raise UserError(f"cost_range must be one pair (low, high) with 0 < low < high < 1 (the "
                        f"log-odds of both ends finite), got {cost_range!r}")
    return float(pair[0]), float(pair[1])


class LogOddsRegretDisplay(ThresholdChoiceDisplay):
    """Regret against the log-odds of the threshold, with the isotonic recalibration's.

    Paper ``002_...``'s log-loss plots (Figs 5, 7; ``briertools``' ``log_loss_curve``): x is
    ``logit(c)``, the cost proportion ``c`` being the threshold (predict 1 iff ``score >
    c``), y the regret ``R(c) = c FP/n + (1 - c) FN/n``. The solid curve is the model's, the
    dashed one that of its PAV-recalibrated scores (the least regret of any threshold at
    each ``c``); the area under the solid curve is the log loss, under the dashed one the
    refinement (shaded lightly), between them the calibration loss (shaded darker)
    (:func:`~threshold_choice.calibration.log_loss_decomposition`), all in the legend. With
    a ``cost_range`` only that range is shaded, its ends marked, and the legend gives the
    decomposition of the bounded log loss over it. Build with :meth:`from_predictions` or
    :meth:`from_estimator`.

    Parameters
    ----------
    curves : pandas.DataFrame
        ``cost, log_odds, regret, refinement, calibration``
        (:func:`~threshold_choice.calibration.regret_curves`).
    decomposition : ScoreDecomposition
        The log loss's (over ``cost_range`` when one is given).
    cost_range : tuple of float or None, default=None
        The range of ``c`` shaded and decomposed; ``None``: the whole line (the shading
        covers the drawn costs).
    name : str or None, default=None
        The model's name.
    event : object, default=None
        The positive class (class 1) when known (``from_estimator``), named in the axis
        label.

    See Also
    --------
    threshold_choice.regret_curves : The curves.
    threshold_choice.log_loss_decomposition : The areas.
    BrierCurveDisplay : The same curves over ``c`` (in the loss ``Q = 2 R``), whose areas
        are the Brier score's decomposition.
    ThresholdChoiceDisplay : Their base: ``ax_``, ``figure_``, ``data``, :meth:`plot`.

    Notes
    -----
    Drawing options, as keywords of :meth:`plot` or in ``plot_kwargs``: ``color`` gives a
    model's curves and shading one colour (several models on one axes; a later model
    without one gets a colour of its own); ``fill=False`` leaves out the shading; the other
    keywords style the model's regret curve (``Axes.plot``).

    ``costs=Costs(...)`` is marked by a grey band at ``logit(c)``. Costs with a cost of 0
    (``c`` = 0 or 1, log-odds -inf or inf) or with ``c`` beyond the drawn range lie off the
    axis: the band is drawn on the spine at that end, with an arrow pointing off the axis,
    and the legend entry says so (``log-odds -inf: off the axis, arrow at left``).

    Examples
    --------
    >>> from threshold_choice.plotting import LogOddsRegretDisplay
    >>> display = LogOddsRegretDisplay.from_predictions(
    ...     [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> [round(v, 4) for v in display.decomposition]  # log loss, calibration, ...
    [0.5082, 0.1617, 0.3466, 0.1207]
    >>> len(display.curves), type(display.ax_).__name__
    (1001, 'Axes')

    Over a range of costs (the bounded log loss of [1/11, 1/3], odds 1:10 to 1:2):

    >>> display = LogOddsRegretDisplay.from_predictions(
    ...     [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9],
    ...     cost_range=(1 / 11, 1 / 3), plot=False)
    >>> round(display.decomposition.loss, 4), round(display.decomposition.calibration, 4)
    (0.1115, 0.0339)
    """

    TITLE = "Log-odds regret curves"

    def __init__(
        self,
        *,
        curves: pd.DataFrame,
        decomposition: ScoreDecomposition,
        cost_range: tuple[float, float] | None = None,
        name: str | None = None,
        event: Any = None,
    ) -> None:
        #: the positive class (class 1) when known (``from_estimator``)
        self.event = event
        self.curves = curves
        self.decomposition = decomposition
        self.cost_range = cost_range
        self.name = name

    @classmethod
    def _compute(
        cls,
        run: RunScores,
        *,
        cost_proportions: ArrayLike | None = None,
        cost_range: ArrayLike | None = None,
    ) -> LogOddsRegretDisplay:
        """Compute the regret curves and the log loss decomposition from one run.

        Parameters
        ----------
        run : RunScores
            The labels and scores of the test part (the training part is not used); the
            scores must be probabilities in [0, 1].
        cost_proportions : array-like of float, default=None
            The cost proportions drawn, in (0, 1); ``None``: 1001 points evenly spaced in
            log-odds over [0.001, 0.999], widened to hold ``cost_range``.
        cost_range : tuple of float, default=None
            ``(low, high)``, ``0 < low < high < 1``: the range shaded and decomposed (the
            bounded log loss over it); ``None``: the log loss over all costs.

        Returns
        -------
        LogOddsRegretDisplay
            The display, not drawn.
        """
        bounds = _cost_range(cost_range)
        if cost_proportions is None:
            low, high = DEFAULT_DRAWN
            if bounds is not None:
                low, high = min(low, bounds[0]), max(high, bounds[1])
            c = expit(np.linspace(logit(low), logit(high), _POINTS))
        else:
            c = np.sort(np.atleast_1d(np.asarray(cost_proportions, dtype=np.float64)))
            if c.ndim != 1 or c.size < 2 or not np.all((c > 0.0) & (c < 1.0)):
                raise UserError("cost_proportions must be at least two cost proportions in "
                                "(0, 1) (their log-odds are drawn)")
        curves = regret_curves(run.test_y, run.test_s, c)
        whole = bounds or (0.0, 1.0)
        decomposition = log_loss_decomposition(run.test_y, run.test_s, low=whole[0],
                                               high=whole[1])
        return cls(curves=curves, decomposition=decomposition, cost_range=bounds)

    def _draw(self, ax: Axes, *, color: Any = None, fill: bool = True,
              **line_kwargs: Any) -> None:
        """``color``: one colour for this display's curves and shading (several models);
        ``fill``: shade the areas; ``line_kwargs``: passed to the regret curve's ``plot``."""
        colour = color or "tab:blue"
        x = self.curves["log_odds"].to_numpy()
        regret = self.curves["regret"].to_numpy()
        refinement = self.curves["refinement"].to_numpy()
        d = self.decomposition
        where = "" if self.cost_range is None else (
            f" on [{number_text(self.cost_range[0])}, {number_text(self.cost_range[1])}]")
        (line,) = ax.plot(x, regret, color=colour, lw=1.8, zorder=3,
                          label=self._label(f"scores: log loss{where} {d.loss:.4f}"),
                          **line_kwargs)
        self._key(line, role="scores")
        (line,) = ax.plot(x, refinement, color=colour, ls="--", lw=1.3, zorder=3,
                          label=self._label("recalibrated (PAV)"))
        self._key(line, role="recalibrated (PAV)")
        if fill:
            span, upper, lower = x, regret, refinement
            if self.cost_range is not None:
                ends = logit(np.asarray(self.cost_range))
                span, upper = clipped_span(x, regret, ends)
                lower = clipped_span(x, refinement, ends)[1]
                for end in ends:
                    ax.axvline(end, color=colour, ls=":", lw=0.9, zorder=2)
            area = ax.fill_between(span, lower, upper, color=colour, alpha=0.35, lw=0,
                                   zorder=1, label=self._label(
                                       f"calibration {d.calibration:.4f}"))
            self._key(area, role="calibration (area)")
            area = ax.fill_between(span, 0.0, lower, color=colour, alpha=0.12, lw=0, zorder=1,
                                   label=self._label(f"refinement {d.refinement:.4f}"))
            self._key(area, role="refinement (area)")
        top = max(float(np.nanmax(np.asarray(line.get_ydata(), float)))
                  for line in data_lines(ax) if np.asarray(line.get_ydata()).size > 2)
        ax.set_ylim(0.0, 1.08 * top if top > 0 else 1.0)
        lo, hi = self._xlim(ax, x)
        ax.set_xlim(lo, hi)
        if self.user_costs is not None:
            self._mark_costs(ax, float(logit(self.user_costs.cost_proportion)))
        ticks = _spaced_ticks(ax, [c for c in _TICKS if lo - 1e-9 <= logit(c) <= hi + 1e-9],
                              lo, hi)
        ax.set_xticks(logit(np.asarray(ticks)), [_tick_text(c) for c in ticks])
        _costs_mark_on_axis(ax, *ax.get_xlim())  # the ticks may widen it by a rounding
        # two short lines: the label fits a panel as wide as its ticks
        self._finish(ax, f"cost proportion c = threshold on P({self._class_text(1)})\n"
                     "log-odds axis; ticks: c and the odds c : 1 \u2212 c",
                     "regret  c\u00b7FP/n + (1 \u2212 c)\u00b7FN/n",
                     legend_title="areas over logit(c):\nlog loss = calibration + refinement")

    def _summary(self) -> str:
        return f"log loss {self.decomposition.loss:.3f}"

    @staticmethod
    def _xlim(ax: Axes, x: np.ndarray) -> tuple[float, float]:
        """The drawn log-odds, widened to those of the displays drawn before on ``ax``."""
        lo, hi = float(np.min(x)), float(np.max(x))
        if getattr(ax, "_threshold_choice_displays", None):
            old = ax.get_xlim()
            lo, hi = min(lo, old[0]), max(hi, old[1])
        return lo, hi

    def _records(self) -> Iterator[tuple[str, str, ArrayLike, ArrayLike]]:
        x = self.curves["log_odds"]
        yield "regret", "scores", x, self.curves["regret"]
        yield "refinement", "recalibrated (PAV)", x, self.curves["refinement"]
        yield "calibration", "scores - recalibrated", x, self.curves["calibration"]


__all__ = ["LogOddsRegretDisplay"]
