"""ROC space and its duality with cost space (papers ``000_...`` and ``001_...``).

Conventions (the package's): class 1 is the class the score estimates and a threshold
predicts 1 iff ``score > t``, so the true positive rate is that of class 1 and the false
positive rate that of class 0. Cost line ``j`` (:mod:`threshold_choice.costlines`: it predicts
0 for the ``j`` lowest distinct scores) is the ROC point

``FPR_j = 1 - F0_j``, ``TPR_j = 1 - F1_j`` (``F_k``: the share of class ``k`` predicted 0),

and the line is ``h_j(c) = 2 (c pi0 FPR_j + (1 - c) pi1 (1 - TPR_j))``: a point in ROC space
is a line in cost space. Line 0 (everything predicted 1) is ``(1, 1)``, line ``m`` is
``(0, 0)``. The vertices of the ROC convex hull are the lines of the lower envelope (the
optimal cost curve; the PAV blocks of the scores), so ``AUCH``, the area under the hull, is the
AUC of the PAV-calibrated scores.

Finite samples (``001_...``, Sect. 4): the *step* ROC cost curve draws cost line ``k`` (in
the instance order: ``k`` examples predicted 0) on ``c`` in ``[k/(n+1), (k+1)/(n+1))``; its
area is close to, but not, the interpolated rate-driven curve's ``2 pi0 pi1 (1 - AUC) + 1/3 -
pi0 pi1``. Choosing ``k`` uniformly among the ``n + 1`` cuts whatever ``c`` is the
*instance-uniform* rate method, whose expected loss under uniform skews is
``n/(n+1) (1 - 2 AUC)/4 + 1/2`` (Flach et al. 2011), against ``(1 - 2 AUC)/4 + 1/2`` for the
continuous rate-uniform. Where tied scores make a cut unattainable, the two adjacent lines are
mixed as rate-driven mixes them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from threshold_choice.costlines import CostLines, check_prior, validate_scores
from threshold_choice.methods.builders import instance_cut_lines


def _lines(y: ArrayLike, s: ArrayLike, prior: float | None = None) -> CostLines:
    y_int, s_arr = validate_scores(y, s)
    lines = CostLines.from_scores(y_int, s_arr)
    return lines if prior is None else lines.with_prior(check_prior(prior))


def roc_points(y: ArrayLike, s: ArrayLike) -> pd.DataFrame:
    """Compute the ROC curve of labelled scores: one point per cost line.

    Cost line ``j`` (class 0 predicted for the ``j`` lowest distinct scores) is the point
    ``(FPR_j, TPR_j)``, the false positive rate of class 0 and the true positive rate of
    class 1, class 1 predicted iff ``score > threshold``; a point in ROC space is a line in
    cost space.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, 0 or 1 (class 1: the class the score estimates); both classes present.
    s : array-like of shape (n,)
        Scores, any finite real numbers (only their order and ties matter).

    Returns
    -------
    pandas.DataFrame
        ``line, threshold, fpr, tpr, on_hull``, from ``(0, 0)`` (line ``m``, threshold
        ``inf``) to ``(1, 1)`` (line 0): ``threshold`` is the cost line's (predict 1 iff
        ``score > threshold``); ``on_hull``: a vertex of the ROC convex hull (a line of the
        optimal cost curve).

    Raises
    ------
    UserError
        For invalid labels or scores (see :meth:`CostLines.from_scores`).

    See Also
    --------
    auch : The area under the convex hull.
    threshold_choice.plotting.ROCDisplay : Plots the curve and its hull.

    Examples
    --------
    >>> from threshold_choice import roc_points
    >>> points = roc_points([0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.8])
    >>> points[["fpr", "tpr"]].round(3).to_numpy().tolist()
    [[0.0, 0.0], [0.0, 0.333], [0.0, 0.667], [0.5, 0.667], [0.5, 1.0], [1.0, 1.0]]
    >>> points["on_hull"].tolist()
    [True, False, True, False, True, True]
    """
    return points_of(_lines(y, s))


def points_of(lines: CostLines) -> pd.DataFrame:
    """:func:`roc_points` of a set of cost lines."""
    fpr = 1.0 - lines.n0_le / lines.n0
    tpr = 1.0 - lines.n1_le / lines.n1
    hull = np.zeros(fpr.size, dtype=bool)
    hull[_hull_lines(lines)] = True
    order = np.arange(fpr.size)[::-1]
    return pd.DataFrame({"line": order, "threshold": lines.thresholds[order],
                         "fpr": fpr[order], "tpr": tpr[order], "on_hull": hull[order]})


def _hull_lines(lines: CostLines) -> np.ndarray:
    """The lines of the lower envelope of the cost lines: the ROC convex hull's vertices."""
    ends, _ = lines.pav_blocks
    return np.concatenate(([0], ends)).astype(np.intp)


def auch(y: ArrayLike, s: ArrayLike) -> float:
    """Compute the area under the ROC convex hull of labelled scores.

    Trapezoids between the hull's vertices: at least the AUC, equal to it when the ROC curve
    is convex; the AUC of the PAV-calibrated scores.

    Parameters
    ----------
    y, s : array-like of shape (n,)
        Labels (0/1) and scores, as for :func:`roc_points`.

    Returns
    -------
    float
        AUCH, in [0, 1].

    Raises
    ------
    UserError
        As :func:`roc_points`.

    See Also
    --------
    roc_points : The curve and its hull's vertices.
    threshold_choice.auc : The area under the curve itself.

    Examples
    --------
    >>> from threshold_choice import auch
    >>> round(auch([0, 1, 0, 1, 1], [0.1, 0.3, 0.4, 0.6, 0.8]), 4)  # the AUC is 0.8333
    0.9167
    """
    return hull_area(roc_points(y, s))


def hull_area(points: pd.DataFrame) -> float:
    """The area under the convex hull of :func:`roc_points`' ``points`` (trapezoids)."""
    hull = points[points["on_hull"]]
    fpr, tpr = hull["fpr"].to_numpy(), hull["tpr"].to_numpy()
    # trapezoids written out: np.trapezoid is numpy 2 only, the package supports 1.26
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2.0))


def step_roc_cost_area(y: ArrayLike, s: ArrayLike, prior: float | None = None) -> float:
    """Compute the area under the step ROC cost curve of paper ``001_...``.

    The curve draws the cost line that predicts class 0 for ``k`` examples (in the scores'
    order) on ``c`` in ``[k/(n+1), (k+1)/(n+1))``, ``k = 0..n``; where ties make ``k``
    unattainable, the two adjacent lines are mixed as rate-driven mixes them. Its area is
    close to, but not, the interpolated rate-driven curve's.

    Parameters
    ----------
    y, s : array-like of shape (n,)
        Labels (0/1, both classes present) and real scores, of which only the order and
        the ties matter.
    prior : float or None, default=None
        A deployment class-0 proportion to weight the lines with (0.5: the skew view);
        ``None``: that of ``y``.

    Returns
    -------
    float
        The area under the curve, on the package's scale (``b = 2``).

    Raises
    ------
    UserError
        For invalid labels or scores, or a prior outside (0, 1).

    See Also
    --------
    instance_uniform_loss : One of the same cuts chosen whatever the cost.

    Examples
    --------
    The classifier of ``001_...``'s Fig. 2 (the paper prints 0.1695, from a grid of costs;
    the interpolated ROC cost curve, rate-driven, gives 0.1701):

    >>> from threshold_choice import step_roc_cost_area
    >>> round(step_roc_cost_area([1, 0, 1, 1, 0, 0, 0],
    ...                          [0.95, 0.9, 0.8, 0.3, 0.2, 0.1, 0.05]), 6)
    0.169643
    """
    lines = _lines(y, s, prior)
    left, right = instance_cut_lines(lines)
    k = np.arange(left.size)
    lo, hi = k / left.size, (k + 1) / left.size
    return float(np.sum(left * (hi - lo) + (right - left) * (hi**2 - lo**2) / 2.0))


def instance_uniform_loss(y: ArrayLike, s: ArrayLike, prior: float | None = None) -> float:
    """Compute the expected loss of the instance-uniform rate method.

    The method predicts class 0 for ``k`` examples (in the scores' order), ``k`` chosen
    uniformly among ``0..n`` whatever the cost; ``c`` uniform. With ``prior=0.5`` (skews) it
    is ``n/(n+1) (1 - 2 AUC)/4 + 1/2`` (Flach et al. 2011), against ``(1 - 2 AUC)/4 + 1/2``
    for the continuous rate-uniform.

    Parameters
    ----------
    y, s : array-like of shape (n,)
        The labelled scores, as for :func:`step_roc_cost_area`.
    prior : float or None, default=None
        The deployment class-0 proportion, as for :func:`step_roc_cost_area`.

    Returns
    -------
    float
        The mean, over the ``n + 1`` cuts, of each cut's loss averaged over ``c``
        (``b = 2``).

    Raises
    ------
    UserError
        As :func:`step_roc_cost_area`.

    See Also
    --------
    step_roc_cost_area : The same cuts, each at its own costs.

    Examples
    --------
    >>> from threshold_choice import instance_uniform_loss
    >>> round(instance_uniform_loss([1, 0, 1, 1, 0, 0, 0],
    ...                             [0.95, 0.9, 0.8, 0.3, 0.2, 0.1, 0.05], prior=0.5), 6)
    0.354167
    """
    left, right = instance_cut_lines(_lines(y, s, prior))
    return float(np.mean((left + right) / 2.0))


__all__ = ["auch", "instance_uniform_loss", "roc_points", "step_roc_cost_area"]
