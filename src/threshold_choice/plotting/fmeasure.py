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
from threshold_choice.plotting._base import ThresholdChoiceDisplay, number_text
from threshold_choice.plotting._common import RunScores
from threshold_choice.plotting._common import cost_proportions as cost_proportions_of
from threshold_choice.plotting.cost_curves import CostCurveDisplay

INF = math.inf
_FROC_X_LABEL = "G_x = 1/recall \u2212 1 = FN/TP"
_OPTIMAL_MARKERS = ("*", "P", "X", "D", "^", "v")
_OPTIMAL_COLOURS = ("C0", "C1", "C2", "C4", "C6", "C8")
_F_COST_LABEL = "2FQ/(1 \u2212 FQ) = 2c G_x + 2(1 \u2212 c) G_y"


class FROCDisplay(ThresholdChoiceDisplay):
    """The FROC curve with its convex hull, F-measure isometrics and F-optimal points.

    Paper 004, Fig. 2 right. The F-measure's positive class is class 0 (a threshold ``t``
    predicts it iff ``score <= t``); FROC space plots ``G_y = 1/precision - 1 = FP/TP``
    against ``G_x = 1/recall - 1 = FN/TP``, one point per threshold with ``TP > 0``, joined
    in threshold order. Its convex hull holds the thresholds F-optimal for some cost
    proportion ``c``; F-measure isometrics are ``G_x + G_y = 2/F - 2``; at ``c`` the
    F-optimal point minimises ``2c G_x + 2(1 - c) G_y``. Build with :meth:`from_predictions`
    or :meth:`from_estimator`.

    Parameters
    ----------
    points : pandas.DataFrame
        :func:`~threshold_choice.fmeasure.froc_points` (``threshold, tp, fp, fn, G_x, G_y,
        F1, on_hull``).
    isometrics : pandas.DataFrame
        ``F, level``: the isometric ``G_x + G_y = level = 2/F - 2``.
    optimal : pandas.DataFrame
        ``c, threshold, G_x, G_y, f_cost``: the point minimising ``f_cost = 2c G_x +
        2(1 - c) G_y`` at each cost (the test-optimal F-cost at ``c``; lowest threshold on
        ties).
    bound : float
        ``n1/n0``: the all-positive classifier's ``G_y`` (everything predicted 0).
    name : str or None, default=None
        The model's name.

    See Also
    --------
    FCostDisplay : The F-cost lines and expected F-cost curves.
    ROCDisplay : ROC space.
    ThresholdChoiceDisplay : Their base: ``ax_``, ``figure_``, ``data``, :meth:`plot`.

    Notes
    -----
    What :meth:`plot` accepts besides ``ax``, ``name`` and ``title``: ``color`` (one colour
    for a model's points and lines), ``bounded`` (default True: both axes end just past
    ``n1/n0``, the all-positive point, as the paper's Fig. 2), ``zoom`` (default True:
    closer, to :meth:`zoom_limit`, as a good model's F-optimal points sit near the origin),
    and ``Axes.plot`` keywords for the curve.

    Examples
    --------
    >>> from threshold_choice.plotting import FROCDisplay
    >>> froc = FROCDisplay.from_predictions(
    ...     [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9],
    ...     cost_proportions=[0.2, 0.8])
    >>> type(froc.ax_).__name__, int(froc.points["on_hull"].sum())
    ('Axes', 3)
    >>> froc.optimal.round(4)  # the F-optimal threshold at each cost
         c  threshold  G_x  G_y  f_cost
    0  0.2      0.325  1.0  0.0     0.4
    1  0.8      0.750  0.0  0.5     0.2
    >>> froc.isometrics  # default: the best F1 of the points
         F  level
    0  0.8    0.5

    A depth-2 tree has few distinct scores, so few FROC points (those with ``TP > 0``):

    >>> from sklearn.datasets import make_classification
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = make_classification(n_samples=200, n_features=4, random_state=0)
    >>> tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X[:100], y[:100])
    >>> froc = FROCDisplay.from_estimator(tree, X[100:], y[100:], cost_proportions=[0.5])
    >>> froc.name, froc.points["tp"].tolist()  # true positives: class 0 predicted 0
    ('DecisionTreeClassifier', [36, 42, 44])
    """

    TITLE = "FROC curve"
    FIXED_Y = True
    COSTS_MARKED = "cost_proportions"

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
        cost_proportions: ArrayLike | None = None,
    ) -> FROCDisplay:
        """Compute the FROC points, the isometrics and the F-optimal points from one run.

        Parameters
        ----------
        run : RunScores
            The labels and scores of the test part (the training part is not used).
        f_isometrics : sequence of float, default=None
            F values in (0, 1] whose isometrics are drawn; ``None``: the best F1 of the
            points.
        cost_proportions : array-like of float, default=None
            Cost proportions ``c`` in [0, 1] whose F-optimal point is marked; ``None``:
            none (``costs=Costs(...)`` adds theirs).

        Returns
        -------
        FROCDisplay
            The display, not drawn.
        """
        points = froc_points(run.test_y, run.test_s)
        f = np.atleast_1d(np.asarray(
            [points["F1"].max()] if f_isometrics is None else f_isometrics, dtype=np.float64))
        bad = ~((f > 0) & (f <= 1))  # also NaN
        if bad.any():
            raise UserError(f"F-measure isometrics need F values in (0, 1], got {f[bad][0]}")
        c = cost_proportions_of(cost_proportions)
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
        (line,) = ax.plot(points["G_x"], points["G_y"], marker="o", ms=2.5, lw=0.8,
                          color=color or "0.55", label=self._label("FROC curve"), **line_kwargs)
        self._key(line, role="FROC curve")
        (line,) = ax.plot(hull["G_x"], hull["G_y"], marker="o", ms=4.5, lw=1.6,
                          color=color or "C3", zorder=3,
                          label=self._label(f"FROC hull ({len(hull)} points)"))
        self._key(line, role="FROC hull")
        top = self.zoom_limit() if zoom else 1.05 * self.bound
        top = max(top, self._reach())  # every F-optimal point inside the axes
        if ax.get_xlabel().startswith(_FROC_X_LABEL):  # another FROC display drew here
            top = max(top, ax.get_xlim()[1])
        for row in self.isometrics.itertuples(index=False):
            (line,) = ax.plot([0.0, row.level], [row.level, 0.0], color=color or "0.3",
                              ls="--", lw=0.8, label=self._label(f"F = {row.F:.3f} isometric"))
            self._key(line, role="F isometric")
        for k, row in enumerate(self.optimal.itertuples(index=False)):
            # each cost its own marker and colour (C3 is the hull's)
            mark = _OPTIMAL_MARKERS[k % len(_OPTIMAL_MARKERS)]
            colour = color or _OPTIMAL_COLOURS[k % len(_OPTIMAL_COLOURS)]
            c = number_text(row.c)
            (x0, y0), (x1, y1) = _isoline(row.f_cost, row.c, top)
            (line,) = ax.plot([x0, x1], [y0, y1], color=colour, ls=":", lw=1.0,
                              label=self._label(f"F-cost isometric of c = {c}"))
            self._key(line, role=f"F-cost isometric of c = {c}")
            (point,) = ax.plot([row.G_x], [row.G_y], marker=mark, ms=10, ls="none",
                               color=colour, markeredgecolor="k", markeredgewidth=0.5,
                               zorder=4, clip_on=False,
                               label=self._label(f"F-optimal at c = {c}: "
                                                 f"2FQ/(1\u2212FQ) = {row.f_cost:.3f}"))
            self._key(point, role=f"F-optimal at c = {c}")
        if bounded:
            ax.set_xlim(0, top)
            ax.set_ylim(0, top)
        self._finish(ax, f"{_FROC_X_LABEL}   ({_f_positive(self)})",
                     "G_y = 1/precision \u2212 1 = FP/TP")

    def _reach(self) -> float:
        """How far the axes must reach to show every F-optimal point whole (its marker
        is 10 points wide)."""
        return 1.08 * float(np.max(self.optimal[["G_x", "G_y"]].to_numpy(), initial=0.0))

    def zoom_limit(self) -> float:
        """Return the axes' end when zoomed.

        Returns
        -------
        float
            2.5 times the widest F isometric's level (its F-optimal region), and past every
            F-optimal point marked, at most ``1.05 n1/n0``.
        """
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


def _f_positive(display: ThresholdChoiceDisplay) -> str:
    """The F-measure's positive class as named in an axis label: class 0, by its label when
    known (``'benign'``), which is not the ``pos_label`` the scores are for."""
    if display.negative is None and display.event is None:
        return "F-measure of class 0"
    return f"F-measure of {display._class_text(0)} (class 0)"


def _isoline(value: float, c: float, top: float) -> tuple[tuple[float, float], ...]:
    """End points of ``2c x + 2(1 - c) y = value`` inside ``[0, top]^2`` (for drawing)."""
    if c >= 1.0:
        return (value / 2.0, 0.0), (value / 2.0, top)
    if c <= 0.0:
        return (0.0, value / 2.0), (top, value / 2.0)
    return (0.0, value / (2.0 * (1.0 - c))), (value / (2.0 * c), 0.0)


class FCostDisplay(CostCurveDisplay):
    """F-cost lines and the expected F-cost curves ``K_F(c)`` per method and gamma.

    Paper 004, Fig. 3 right: the F-cost lines ``2FQ/(1 - FQ)`` (from ``2 G_y`` at ``c = 0``
    to ``2 G_x`` at ``c = 1``; the F-measure's positive class is class 0) and the expected
    F-cost curves ``K_F(c)`` (:func:`~threshold_choice.fmeasure.expected_f_cost_curve`);
    the legend gives their areas, ``expected_losses(..., loss_function="f-measure")``:
    ``inf`` when a method picks a threshold without true positives with positive
    probability, those parts of a curve not drawn. A :class:`CostCurveDisplay` of another
    loss: the same options (the paper's four methods and ``gamma = inf`` by default; no
    bootstrap bands) and drawing options.

    Parameters
    ----------
    curves, areas, cost_lines, bands, name, distribution : see CostCurveDisplay
        The computed numbers, as :class:`CostCurveDisplay` holds them (``cost_lines``: the
        lines with ``TP > 0``; ``bands`` is None).

    Attributes
    ----------
    bound : float
        ``2 n1/n0``, the all-positive line's height at ``c = 0``: the upper limit of the
        drawing (the optimal curve stays below it).

    See Also
    --------
    FROCDisplay : The same thresholds in FROC space.
    CostCurveDisplay : The accuracy loss.

    Examples
    --------
    >>> from threshold_choice.plotting import FCostDisplay
    >>> fcost = FCostDisplay.from_predictions(
    ...     [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> fcost.areas.round(4)  # score-driven can put c_hat below the lowest class-0 score
             method  gamma  expected_loss
    0  test-optimal    inf         0.3333
    1  score-driven    inf            inf
    2   rate-driven    inf            inf
    >>> fcost.bound, fcost.cost_lines.shape  # 2 n1/n0; the 8 lines with TP > 0
    (2.0, (8, 2))

    From a classifier; its positive class (class 1 here, ``event``) is the F-measure's
    negative one:

    >>> from sklearn.datasets import make_classification
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X, y = make_classification(n_samples=200, n_features=4, random_state=2)
    >>> model = GaussianNB().fit(X[:100], y[:100])
    >>> fcost = FCostDisplay.from_estimator(model, X[100:], y[100:], methods=["test-optimal"])
    >>> fcost.event, list(fcost.areas["method"])
    (1, ['test-optimal'])
    """

    TITLE = "Expected F-cost curves K_F(c)"
    DEFAULT_METHODS = ("test-optimal", "train-optimal", "score-driven", "rate-driven")
    DEFAULT_GAMMAS = (INF,)
    LOSS_FUNCTION = "f-measure"
    LINES = FCostLines
    CURVE = staticmethod(expected_f_cost_curve)
    LINES_LABEL = "F-cost lines"
    X_LABEL = "cost proportion c"
    Y_LABEL = _F_COST_LABEL
    LEGEND_TITLE = "expected 2FQ/(1\u2212FQ) (area)"
    bound: float = 2.0

    def _set_bound(self, test: CostLines) -> None:
        """The all-positive line's height at ``c = 0``, ``2 n1/n0``."""
        self.bound = 2.0 * test.n1 / test.n0

    def _x_label(self) -> str:
        """The cost proportion and the F-measure's positive class (class 0), named."""
        return f"{self.X_LABEL}   ({_f_positive(self)})"


__all__ = ["FCostDisplay", "FROCDisplay"]
