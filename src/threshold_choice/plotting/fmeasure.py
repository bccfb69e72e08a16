"""F-measure Displays (paper ``004_...``, Sect. 4): the FROC curve with its convex hull, and
the F-cost lines with the expected F-cost curves ``K_F(c)`` of threshold choice methods.

Conventions (those of :mod:`threshold_choice.fmeasure`): the F-measure's positive class is
**class 0** (low scores; a threshold ``t`` predicts 0 iff ``score <= t``). FROC space plots
``G_y = 1/precision - 1 = FP/TP`` against ``G_x = 1/recall - 1 = FN/TP``; its origin is
perfect, F-measure isometrics are ``G_x + G_y = 2/F - 2`` (slope -1), and at cost proportion
``c`` the isometrics of ``2FQ/(1 - FQ) = 2c G_x + 2(1 - c) G_y`` have slope ``-c/(1 - c)``.
The all-positive classifier (everything predicted 0) is ``(0, n1/n0)``, which bounds the
useful part of the plot (the paper's ``(1 - pi)/pi``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.fmeasure import FCostLines, expected_f_cost_curve, froc_points
from threshold_choice.plotting._base import ThresholdChoiceDisplay
from threshold_choice.plotting._common import RunScores, cost_proportions
from threshold_choice.plotting.cost_curves import CostCurveDisplay

INF = math.inf
_FROC_X_LABEL = "G_x = 1/recall \u2212 1 = FN/TP   (positive class: 0)"
_OPTIMAL_MARKERS = ("*", "P", "X", "D", "^", "v")
_OPTIMAL_COLOURS = ("C0", "C1", "C2", "C4", "C6", "C8")
_F_COST_LABEL = "2FQ/(1 \u2212 FQ) = 2c G_x + 2(1 \u2212 c) G_y"


class FROCDisplay(ThresholdChoiceDisplay):
    """The FROC curve (paper 004, Fig. 2 right): one point per threshold with ``TP > 0``,
    joined in threshold order, its convex hull (the thresholds F-optimal for some ``c``), the
    F-measure isometrics and, for given costs, the F-optimal point and its isometric.

    Build with :meth:`from_predictions` / :meth:`from_estimator` (keyword arguments:
    ``f_isometrics`` (F values whose isometrics are drawn; default: the best F1 of the
    points), ``costs`` (cost proportions ``c`` whose F-optimal point is marked)).

    Attributes
    ----------
    points:
        :func:`~threshold_choice.fmeasure.froc_points` (``threshold, tp, fp, fn, G_x, G_y,
        F1, on_hull``).
    isometrics:
        ``F, level``: the isometric ``G_x + G_y = level = 2/F - 2``.
    optimal:
        ``c, threshold, G_x, G_y, f_cost``: the point minimising ``f_cost = 2c G_x + 2(1 - c)
        G_y`` at each cost (the test-optimal F-cost at ``c``; lowest threshold on ties).
    bound:
        ``n1/n0``: the all-positive classifier's ``G_y``.
    """

    TITLE = "FROC curve"

    def __init__(self, *, points: pd.DataFrame, isometrics: pd.DataFrame,
                 optimal: pd.DataFrame, bound: float, name: str | None = None) -> None:
        self.points = points
        self.isometrics = isometrics
        self.optimal = optimal
        self.bound = bound
        self.name = name

    @classmethod
    def _compute(
        cls,
        run: RunScores,
        *,
        f_isometrics: Sequence[float] | None = None,
        costs: ArrayLike | None = None,
    ) -> FROCDisplay:
        points = froc_points(run.test_y, run.test_s)
        f = np.atleast_1d(np.asarray(
            [points["F1"].max()] if f_isometrics is None else f_isometrics, dtype=np.float64))
        bad = ~((f > 0) & (f <= 1))  # also NaN
        if bad.any():
            raise UserError(f"F-measure isometrics need F values in (0, 1], got {f[bad][0]}")
        c = cost_proportions(costs)
        gx, gy = points["G_x"].to_numpy(), points["G_y"].to_numpy()
        values = 2.0 * c[:, None] * gx + 2.0 * (1.0 - c[:, None]) * gy  # (costs, points)
        best = np.argmin(values, axis=1)
        optimal = pd.DataFrame({
            "c": c, "threshold": points["threshold"].to_numpy()[best], "G_x": gx[best],
            "G_y": gy[best], "f_cost": values[np.arange(c.size), best],
        })
        n0 = int(np.sum(run.test_y == 0))
        return cls(points=points, isometrics=pd.DataFrame({"F": f, "level": 2.0 / f - 2.0}),
                   optimal=optimal, bound=(run.test_y.size - n0) / n0)

    def _hull(self) -> pd.DataFrame:
        return self.points[self.points["on_hull"]].sort_values("G_x")

    def _draw(self, ax: Axes, *, color: Any = None, bounded: bool = True, zoom: bool = True,
              **line_kwargs: Any) -> None:
        """``color``: one colour for this display (several models); ``bounded``: both axes
        end just past ``n1/n0`` (the all-positive point), as the paper's Fig. 2; ``zoom``:
        closer, to :meth:`zoom_limit` (a good model's F-optimal points sit near the origin,
        in a corner of the bounded axes)."""
        points, hull = self.points, self._hull()
        ax.plot(points["G_x"], points["G_y"], marker="o", ms=2.5, lw=0.8,
                color=color or "0.55", label=self._label("FROC curve"), **line_kwargs)
        ax.plot(hull["G_x"], hull["G_y"], marker="o", ms=4.5, lw=1.6, color=color or "C3",
                label=self._label(f"FROC hull ({len(hull)} points)"), zorder=3)
        top = self.zoom_limit() if zoom else 1.05 * self.bound
        if ax.get_xlabel() == _FROC_X_LABEL:  # another FROC display drew here: widest bound
            top = max(top, ax.get_xlim()[1])
        for row in self.isometrics.itertuples(index=False):
            ax.plot([0.0, row.level], [row.level, 0.0], color=color or "0.3", ls="--", lw=0.8,
                    label=self._label(f"F = {row.F:.3f} isometric"))
        for k, row in enumerate(self.optimal.itertuples(index=False)):
            # each cost its own marker and colour (C3 is the hull's)
            mark = _OPTIMAL_MARKERS[k % len(_OPTIMAL_MARKERS)]
            colour = color or _OPTIMAL_COLOURS[k % len(_OPTIMAL_COLOURS)]
            (x0, y0), (x1, y1) = _isoline(row.f_cost, row.c, top)
            ax.plot([x0, x1], [y0, y1], color=colour, ls=":", lw=1.0)
            ax.plot([row.G_x], [row.G_y], marker=mark, ms=10, ls="none", color=colour,
                    markeredgecolor="k", markeredgewidth=0.5, zorder=4, clip_on=False,
                    label=self._label(f"F-optimal at c = {row.c:g}: "
                                      f"2FQ/(1\u2212FQ) = {row.f_cost:.3f}"))
        if bounded:
            ax.set_xlim(0, top)
            ax.set_ylim(0, top)
        self._finish(ax, _FROC_X_LABEL, "G_y = 1/precision \u2212 1 = FP/TP")

    def zoom_limit(self) -> float:
        """The axes' end when zoomed: 2.5 times the widest F isometric's level (its F-optimal
        region), and past every F-optimal point marked, at most ``1.05 n1/n0``."""
        reach = [2.5 * float(np.max(self.isometrics["level"].to_numpy(), initial=0.0))]
        reach += [1.25 * float(v) for v in self.optimal[["G_x", "G_y"]].to_numpy().ravel()]
        limit = max(reach)
        return 1.05 * self.bound if not limit > 0 else min(limit, 1.05 * self.bound)

    def _records(self) -> Iterator[tuple[str, str, ArrayLike, ArrayLike]]:
        yield "froc_point", "FROC curve", self.points["G_x"], self.points["G_y"]
        hull = self._hull()
        yield "froc_hull", "FROC hull", hull["G_x"], hull["G_y"]
        for row in self.isometrics.itertuples(index=False):
            yield "isometric", f"F={row.F:.6g}", [0.0, row.level], [row.level, 0.0]
        for row in self.optimal.itertuples(index=False):
            yield "f_optimal", f"c={row.c:g} f_cost={row.f_cost:.10g}", row.G_x, row.G_y


def _isoline(value: float, c: float, top: float) -> tuple[tuple[float, float], ...]:
    """End points of ``2c x + 2(1 - c) y = value`` inside ``[0, top]^2`` (for drawing)."""
    if c >= 1.0:
        return (value / 2.0, 0.0), (value / 2.0, top)
    if c <= 0.0:
        return (0.0, value / 2.0), (top, value / 2.0)
    return (0.0, value / (2.0 * (1.0 - c))), (value / (2.0 * c), 0.0)


class FCostDisplay(CostCurveDisplay):
    """F-cost lines ``2FQ/(1 - FQ)`` (from ``2 G_y`` at ``c = 0`` to ``2 G_x`` at ``c = 1``;
    paper 004, Fig. 3 right) and the expected F-cost curves ``K_F(c)`` per method and gamma
    (:func:`~threshold_choice.fmeasure.expected_f_cost_curve`); the legend gives their areas,
    ``expected_losses(..., loss_function="f-measure")`` (``inf`` when a method picks a
    threshold without true positives with positive probability; those parts of a curve are
    not drawn).

    Keyword arguments: ``methods`` (default test-optimal, train-optimal (with training
    scores), score-driven, rate-driven), ``gammas`` (default inf), ``settings`` /
    LossSettings fields, ``cost_lines`` (keep the finite F-cost lines, default True).
    Attributes as :class:`CostCurveDisplay` (``cost_lines``: the lines with ``TP > 0``;
    ``bands`` is None), and ``bound = 2 n1/n0``, the all-positive line's height at ``c = 0``
    (the upper limit of the drawing: the optimal curve stays below it).
    """

    TITLE = "Expected F-cost curves K_F(c)"
    DEFAULT_METHODS = ("test-optimal", "train-optimal", "score-driven", "rate-driven")
    DEFAULT_GAMMAS = (INF,)
    LOSS_FUNCTION = "f-measure"
    LINES = FCostLines
    CURVE = staticmethod(expected_f_cost_curve)
    LINES_LABEL = "F-cost lines"
    X_LABEL = "cost proportion c   (F-measure positive class: 0)"
    Y_LABEL = _F_COST_LABEL
    LEGEND_TITLE = "expected 2FQ/(1\u2212FQ) (area)"
    bound: float = 2.0

    def _set_bound(self, test: CostLines) -> None:
        """The all-positive line's height at ``c = 0``, ``2 n1/n0``."""
        self.bound = 2.0 * test.n1 / test.n0


__all__ = ["FCostDisplay", "FROCDisplay"]
