"""ROC space (papers ``000_...``, ``001_...``): the ROC curve, its convex hull and, for given
costs, the hull vertex the optimal threshold picks, each point being a cost line of the cost
space Displays (:mod:`threshold_choice.roc`). Beside :class:`BrierCurveDisplay` on a second
axes it gives the paper family's central picture::

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.6), layout="constrained")
    ROCDisplay.from_predictions(y, s, ax=left)
    BrierCurveDisplay.from_predictions(y, s, ax=right)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from threshold_choice.costlines import CostLines
from threshold_choice.metrics import auc
from threshold_choice.plotting._base import ThresholdChoiceDisplay, number_text
from threshold_choice.plotting._common import RunScores
from threshold_choice.plotting._common import cost_proportions as cost_proportions_of
from threshold_choice.roc import hull_area, points_of


class ROCDisplay(ThresholdChoiceDisplay):
    """The ROC curve, its convex hull and the optimal vertex at given costs.

    ROC space (papers ``000_...``, ``001_...``): the true positive rate of class 1 against
    the false positive rate of class 0, one point per cost line, its convex hull (the lines
    of the optimal cost curve) and the chance diagonal; for given cost proportions ``c``,
    the hull vertex of least loss at each, on the iso-cost line of slope
    ``c pi0 / ((1 - c) pi1)`` through it. Build with :meth:`from_predictions` or
    :meth:`from_estimator`.

    Parameters
    ----------
    points : pandas.DataFrame
        :func:`~threshold_choice.roc.roc_points` (``line, threshold, fpr, tpr, on_hull``).
    auc : float
        The area under the curve.
    auch : float
        The area under its convex hull.
    optimal : pandas.DataFrame
        ``c, line, fpr, tpr, loss``: the hull vertex of least loss ``Q`` at each cost.
    pi0 : float
        The class-0 proportion of the test set (for the iso-cost slopes).
    name : str or None, default=None
        The model's name.

    See Also
    --------
    BrierCurveDisplay : The same classifier in cost space, to draw beside it.
    threshold_choice.roc_points : The points.
    ThresholdChoiceDisplay : Their base: ``ax_``, ``figure_``, ``data``, :meth:`plot`.

    Notes
    -----
    To draw several models on one axes, :meth:`plot` takes ``color`` (one colour for a
    model's curve, hull and points); its other keywords go to the curve's ``Axes.plot``.

    Examples
    --------
    >>> from threshold_choice.plotting import ROCDisplay
    >>> roc = ROCDisplay.from_predictions(
    ...     [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9],
    ...     cost_proportions=[0.2, 0.8])
    >>> type(roc.ax_).__name__, roc.auc, roc.auch
    ('Axes', 0.8125, 0.875)
    >>> roc.optimal  # cost line 2 at c = 0.2, line 6 at c = 0.8
         c  line  fpr  tpr  loss
    0  0.2     2  0.5  1.0   0.1
    1  0.8     6  0.0  0.5   0.1

    Any real scores will do, such as a linear SVM's ``decision_function``:

    >>> from sklearn.datasets import make_classification
    >>> from sklearn.svm import LinearSVC
    >>> X, y = make_classification(n_samples=200, n_features=4, random_state=0)
    >>> svm = LinearSVC(random_state=0).fit(X[:100], y[:100])
    >>> roc = ROCDisplay.from_estimator(svm, X[100:], y[100:])
    >>> roc.ax_.get_title(), round(roc.auc, 2)
    ('ROC space: LinearSVC', 0.98)
    """

    TITLE = "ROC space"
    FIXED_Y = True
    COSTS_MARKED = "cost_proportions"

    def __init__(self, *, points: pd.DataFrame, auc: float, auch: float,
                 optimal: pd.DataFrame, pi0: float, name: str | None = None) -> None:
        self.points = points
        self.auc = auc
        self.auch = auch
        self.optimal = optimal
        self.pi0 = pi0
        self.name = name

    @classmethod
    def _compute(cls, run: RunScores, *,
                 cost_proportions: ArrayLike | None = None) -> ROCDisplay:
        """Compute the ROC points, the areas and the optimal vertices from one run.

        Parameters
        ----------
        run : RunScores
            The labels and scores of the test part (the training part is not used).
        cost_proportions : array-like of float, default=None
            Cost proportions ``c`` in [0, 1] whose optimal hull vertex is marked; ``None``:
            none (``costs=Costs(...)`` adds theirs).

        Returns
        -------
        ROCDisplay
            The display, not drawn.
        """
        lines = CostLines.from_scores(run.test_y, run.test_s)
        points = points_of(lines)
        hull = points[points["on_hull"]]
        c = cost_proportions_of(cost_proportions)
        # Q of each hull vertex's line at each cost: the height of its cost line
        fpr, tpr = hull["fpr"].to_numpy(), hull["tpr"].to_numpy()
        loss = lines.height(hull["line"].to_numpy()[None, :], c[:, None])
        best = np.argmin(loss, axis=1) if c.size else np.empty(0, dtype=np.intp)
        optimal = pd.DataFrame({
            "c": c, "line": hull["line"].to_numpy()[best], "fpr": fpr[best], "tpr": tpr[best],
            "loss": loss[np.arange(c.size), best],
        })
        return cls(points=points, auc=auc(lines), auch=hull_area(points), optimal=optimal,
                   pi0=lines.pi0)

    def _draw(self, ax: Axes, *, color: Any = None, **line_kwargs: Any) -> None:
        """``color``: one colour for this display (several models)."""
        points = self.points
        hull = points[points["on_hull"]]
        if not any(line.get_gid() == "threshold-choice-chance" for line in ax.get_lines()):
            (chance,) = ax.plot([0, 1], [0, 1], color="0.6", ls=":", lw=1.0, label="chance",
                                gid="threshold-choice-chance")
            self._background(chance)  # a reference a legend may cross, not data
        (curve,) = ax.plot(points["fpr"], points["tpr"], marker="o", ms=3, lw=1.4,
                           color=color or "0.3",
                           label=self._label(f"ROC curve (AUC {self.auc:.4f})"), **line_kwargs)
        self._key(curve, role="ROC curve")
        (line,) = ax.plot(hull["fpr"], hull["tpr"], ls="--", lw=1.6, color=color or "tab:green",
                          label=self._label(f"convex hull (AUCH {self.auch:.4f})"))
        self._key(line, role="convex hull")
        pi1 = 1.0 - self.pi0
        for k, row in enumerate(self.optimal.itertuples(index=False)):
            colour = color or f"C{(k + 5) % 10}"
            c = number_text(row.c)
            slope = (row.c * self.pi0 / ((1.0 - row.c) * pi1)) if row.c < 1 else np.inf
            x = np.array([0.0, 1.0])
            iso = row.tpr + slope * (x - row.fpr) if np.isfinite(slope) else None
            if iso is not None:  # the points of equal loss at c: tangent to the hull
                (line,) = ax.plot(x, iso, color=colour, ls="-.", lw=0.8,
                                  label=self._label(f"iso-cost line of c = {c}"))
                self._key(line, role=f"iso-cost line of c = {c}")
            (point,) = ax.plot([row.fpr], [row.tpr], marker="D", ms=7, ls="none", color=colour,
                               markeredgecolor="k", markeredgewidth=0.5, zorder=4,
                               clip_on=False,
                               label=self._label(f"optimal at c = {c}: loss {row.loss:.4f}"))
            self._key(point, role=f"optimal at c = {c}")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_aspect("equal", adjustable="box")  # the diagonal at 45 degrees
        negative, positive = self._class_text(0), self._class_text(1)
        self._finish(ax, f"false positive rate ({negative} predicted {positive})",
                     f"true positive rate ({positive} predicted {positive})")

    def _summary(self) -> str:
        return f"AUC {self.auc:.3f}"

    def _records(self) -> Iterator[tuple[str, str, ArrayLike, ArrayLike]]:
        yield "roc_point", "ROC curve", self.points["fpr"], self.points["tpr"]
        hull = self.points[self.points["on_hull"]]
        yield "roc_hull", "convex hull", hull["fpr"], hull["tpr"]
        for row in self.optimal.itertuples(index=False):
            yield "roc_optimal", f"c={row.c:g} line={row.line}", row.fpr, row.tpr


__all__ = ["ROCDisplay"]
