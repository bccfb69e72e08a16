"""Calibration and refinement: the isotonic decompositions of the Brier score and the log loss,
and the regret curves they are areas of (paper ``002_...``, Sect. 5.2, Thm 5.3, Figs 5-7).

Labels in {0, 1}, class 1 the class the score estimates, scores ``s`` probabilities of class 1;
``p`` is the pool-adjacent-violators (isotonic) recalibration of ``s`` on the same labelled
set (:func:`~threshold_choice.score_transforms.pav_calibrated`, ties pooled first). For a
proper scoring rule ``S`` (the Brier score, the log loss, or their bounded-threshold versions
over ``[low, high]``):

* ``loss = mean S(s, y)``, ``refinement = mean S(p, y)`` (the loss left once the scores are
  calibrated: it depends only on the order of the scores, like the ROC convex hull), and
  ``calibration = loss - refinement >= 0``: as ``briertools`` splits them, and as the regret
  curves do pointwise (:func:`regret_curves`: the recalibrated scores' regret at each cost is
  the least any threshold reaches, the lower envelope of the cost lines).
* ``divergence = mean d(p, s)``, ``d`` the rule's divergence (``(s - p)^2`` for the Brier
  score, ``KL(p || s)`` for the log loss): the calibration term paper 002's Thm 5.3 prints.
  ``calibration = divergence + mean (y - p)(S(s, 1) - S(s, 0))``, and that last term is
  ``>= 0``: ``S(s, 1) - S(s, 0)`` decreases in ``s``, and isotonic regression is the
  projection onto the non-decreasing functions of ``s``, so ``y - p`` has a non-positive
  inner product with each of them (and sums to zero on every PAV block). It vanishes when
  ``s`` is constant on every PAV block (a binary test, or scores whose per-score frequencies
  already increase), and is as a rule positive when a block pools distinct scores. So Thm
  5.3 is an identity only in that case; in general ``loss >= divergence + refinement``
  (``ScoreDecomposition.within_blocks`` is the gap). Its log-loss line has a second slip:
  ``E log|1 - y - s|`` is *minus* the log loss, so as printed it reads ``-LL(s) = KL -
  LL(p)`` (tests show both, and the corrected identity).

The regret (paper 002, Def. 2.1, at threshold = cost ``c``; predict 1 iff ``score > c``) is
``R(c) = c FP/n + (1 - c) FN/n``; the log loss is its integral over the log-odds
``logit(c)`` (the area under :class:`~threshold_choice.plotting.LogOddsRegretDisplay`'s
curves) and the Brier score twice its integral over ``c`` (Thm 4.1 with its factor 2
corrected). This package's loss ``Q`` of the cost lines is ``2 R``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.special import logit, xlogy

from threshold_choice._typing import FloatArray
from threshold_choice.costlines import CostLines, validate_scores
from threshold_choice.errors import UserError
from threshold_choice.score_transforms import pav_calibrated


class ScoreDecomposition(NamedTuple):
    """A scoring rule's value split into calibration and refinement (a named tuple).

    ``loss = calibration + refinement``, ``refinement`` the loss of the PAV-recalibrated
    scores and ``calibration >= divergence >= 0``; built by :func:`brier_decomposition` and
    :func:`log_loss_decomposition`.

    Parameters
    ----------
    loss : float
        The mean score of the scores (the Brier score or log loss; bounded over a range of
        thresholds when one is given).
    calibration : float
        ``loss - refinement``: what recalibrating the scores on this set would save.
    refinement : float
        The loss of the PAV-recalibrated scores (the scores' order and ties only).
    divergence : float
        The mean divergence of the scores from their recalibration (``(s - p)^2``,
        ``KL(p || s)``), the calibration term paper 002's Thm 5.3 prints; at most
        ``calibration``.

    See Also
    --------
    brier_decomposition : The Brier score's.
    log_loss_decomposition : The log loss's.

    Examples
    --------
    >>> from threshold_choice import brier_decomposition
    >>> parts = brier_decomposition([1, 0], [0.2, 0.4])  # one PAV block of two scores
    >>> [round(v, 4) for v in parts]
    [0.4, 0.15, 0.25, 0.05]
    >>> round(parts.within_blocks, 4)  # calibration - divergence: Thm 5.3's gap
    0.1
    """

    loss: float
    calibration: float
    refinement: float
    divergence: float

    @property
    def within_blocks(self) -> float:
        """``calibration - divergence >= 0``: the part of the calibration loss from distinct
        scores pooled into one PAV block (0 when the scores are constant on every block)."""
        return self.calibration - self.divergence


def _probabilities(y: ArrayLike, s: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Labels (as floats) and scores, checked: both classes, scores in [0, 1]."""
    y_int, s_arr = validate_scores(y, s)
    low, high = float(s_arr.min()), float(s_arr.max())
    if low < 0.0 or high > 1.0:
        raise UserError(
            f"the decompositions need scores that are probabilities of class 1 in [0, 1], "
            f"got scores from {low:g} to {high:g}: calibrate them (e.g. scikit-learn's "
            "CalibratedClassifierCV) or rescale them to [0, 1]"
        )
    return y_int.astype(np.float64), s_arr


def _range(low: float, high: float) -> tuple[float, float]:
    if not 0.0 <= low < high <= 1.0:
        raise UserError(f"the range of thresholds needs 0 <= low < high <= 1, got low={low}, "
                        f"high={high}")
    return float(low), float(high)


def _decompose(
    y: FloatArray, s: FloatArray, low: float, high: float, brier: bool
) -> ScoreDecomposition:
    p = pav_calibrated(y, s)
    cs, cp, cy = np.clip(s, low, high), np.clip(p, low, high), np.clip(y, low, high)
    if brier:
        near = np.mean((y - cy) ** 2)
        loss = np.mean((y - cs) ** 2) - near
        refinement = np.mean((y - cp) ** 2) - near
        divergence = np.mean((p - cs) ** 2 - (p - cp) ** 2)
    else:
        with np.errstate(divide="ignore"):  # a score of 0 for class 1 costs infinitely much
            near = np.mean(np.log1p(-np.abs(y - cy)))
            loss = near - np.mean(np.log1p(-np.abs(y - cs)))
            refinement = near - np.mean(np.log1p(-np.abs(y - cp)))
            # p log(cp / cs) + (1 - p) log((1 - cp) / (1 - cs)), 0 log 0 = 0
            divergence = np.mean(xlogy(p, cp) - xlogy(p, cs)
                                 + xlogy(1.0 - p, 1.0 - cp) - xlogy(1.0 - p, 1.0 - cs))
    return ScoreDecomposition(float(loss), float(loss - refinement), float(refinement),
                              float(divergence))


def brier_decomposition(
    y: ArrayLike, s: ArrayLike, *, low: float = 0.0, high: float = 1.0
) -> ScoreDecomposition:
    """Split the Brier score into calibration and refinement (isotonic recalibration).

    ``BS = mean (y - s)^2 = calibration + refinement``, ``refinement = mean (y - p)^2`` the
    Brier score of the PAV-recalibrated scores ``p`` and ``calibration = BS - refinement``
    (as ``briertools`` partitions it; Dimitriadis et al.'s MCB). With a range ``[low, high]``,
    the same for the bounded-threshold Brier score
    (:func:`~threshold_choice.metrics.bounded_brier_score`, twice the regret integrated over
    ``c`` in the range). ``divergence = mean (p - clip(s))^2 - (p - clip(p))^2`` (``mean (s -
    p)^2`` on [0, 1]) is paper 002's calibration term (Thm 5.3), which adds up with the
    refinement to the Brier score only when no PAV block pools distinct scores; in general
    ``calibration = divergence + 2 mean (p - y) clip(s) >= divergence``.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, 0 or 1 (class 1: the class the score estimates); both classes present.
    s : array-like of shape (n,)
        Scores, probabilities of class 1 in [0, 1].
    low : float, default=0.0
        The lower end of the range of thresholds (cost proportions) the score counts.
    high : float, default=1.0
        Its upper end; ``0 <= low < high <= 1``.

    Returns
    -------
    ScoreDecomposition
        ``(loss, calibration, refinement, divergence)``.

    Raises
    ------
    UserError
        For invalid labels or scores (see :meth:`CostLines.from_scores`), scores outside
        [0, 1] or an invalid range.

    See Also
    --------
    log_loss_decomposition : The log loss's.
    regret_curves : The regret whose integral over ``c`` is half the Brier score.
    threshold_choice.pav_calibrated : The recalibrated scores.

    Examples
    --------
    >>> from threshold_choice import brier_decomposition
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> [round(v, 4) for v in brier_decomposition(y, s)]
    [0.1728, 0.0478, 0.125, 0.0291]
    >>> [round(v, 4) for v in brier_decomposition(y, s, low=0.05, high=0.2)]
    [0.015, 0.0056, 0.0094, 0.0056]
    """
    yf, sf = _probabilities(y, s)
    return _decompose(yf, sf, *_range(low, high), brier=True)


def log_loss_decomposition(
    y: ArrayLike, s: ArrayLike, *, low: float = 0.0, high: float = 1.0
) -> ScoreDecomposition:
    """Split the log loss into calibration and refinement (isotonic recalibration).

    ``LL = -mean log(1 - |y - s|) = calibration + refinement``, ``refinement`` the log loss
    of the PAV-recalibrated scores ``p`` (finite: a block of score 0 or 1 holds one class
    only) and ``calibration = LL - refinement``; with a range ``[low, high]``, the same for
    the bounded-threshold log loss (:func:`~threshold_choice.metrics.bounded_log_loss`, the
    regret integrated over ``logit(c)`` in the range). ``divergence`` is the mean
    ``KL(p || s) = p log(p/s) + (1 - p) log((1 - p)/(1 - s))`` (``0 log 0 = 0``; over a
    range, with ``clip(p)`` and ``clip(s)`` inside the logarithms), paper 002's calibration
    term (Thm 5.3); in general ``calibration = divergence + mean (p - y) logit(clip(s)) >=
    divergence``. Natural logarithms; a score of 0 for a class-1 example (or 1 for class 0)
    makes the loss, calibration and divergence infinite.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, 0 or 1 (class 1: the class the score estimates); both classes present.
    s : array-like of shape (n,)
        Scores, probabilities of class 1 in [0, 1].
    low : float, default=0.0
        The lower end of the range of thresholds the score counts.
    high : float, default=1.0
        Its upper end; ``0 <= low < high <= 1``.

    Returns
    -------
    ScoreDecomposition
        ``(loss, calibration, refinement, divergence)``.

    Raises
    ------
    UserError
        For invalid labels or scores, scores outside [0, 1] or an invalid range.

    See Also
    --------
    brier_decomposition : The Brier score's.
    regret_curves : The regret whose integral over ``logit(c)`` is the log loss.
    threshold_choice.plotting.LogOddsRegretDisplay : Draws the decomposition as areas.

    Examples
    --------
    >>> from threshold_choice import log_loss_decomposition
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> [round(v, 4) for v in log_loss_decomposition(y, s)]
    [0.5082, 0.1617, 0.3466, 0.1207]
    >>> log_loss_decomposition([0, 1, 1], [0.0, 0.5, 1.0]).refinement  # blocks of 0 and 1
    0.0
    """
    yf, sf = _probabilities(y, s)
    return _decompose(yf, sf, *_range(low, high), brier=False)


def regret_curves(y: ArrayLike, s: ArrayLike, costs: ArrayLike) -> pd.DataFrame:
    """Compute the regret of the scores and of their recalibration at each cost proportion.

    At the cost proportion ``c`` the scores are thresholded at ``c`` (predict 1 iff ``score >
    c``) and ``regret = c FP/n + (1 - c) FN/n`` (paper 002's ``R(c)``, Def. 2.1; this
    package's loss ``Q(c; c)/2``). ``refinement`` is the regret of the PAV-recalibrated
    scores thresholded at ``c``, the least regret any threshold reaches at ``c`` (the lower
    envelope of the cost lines, the ROC convex hull), and ``calibration = regret -
    refinement >= 0``. Over ``log_odds = logit(c)`` the three integrate to the log loss
    decomposition (:func:`log_loss_decomposition`), over ``c`` to half the Brier score's.
    Vectorised: O((n + k) log n) for ``k`` costs.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, 0 or 1 (class 1: the class the score estimates); both classes present.
    s : array-like of shape (n,)
        Scores, probabilities of class 1 in [0, 1].
    costs : array-like of float
        Cost proportions ``c`` in [0, 1] (the thresholds).

    Returns
    -------
    pandas.DataFrame
        Columns ``cost, log_odds, regret, refinement, calibration``, one row per cost
        (``log_odds`` is infinite at 0 and 1).

    Raises
    ------
    UserError
        For invalid labels or scores, scores outside [0, 1] or a cost outside [0, 1].

    See Also
    --------
    log_loss_decomposition : The areas under these curves over the log-odds.
    threshold_choice.plotting.LogOddsRegretDisplay : Plots them.

    Examples
    --------
    >>> from threshold_choice import regret_curves
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> regret_curves(y, s, [0.2, 0.5, 0.75]).round(4)
       cost  log_odds  regret  refinement  calibration
    0  0.20   -1.3863  0.0750      0.0500        0.025
    1  0.50    0.0000  0.1250      0.1250        0.000
    2  0.75    1.0986  0.0625      0.0625        0.000
    """
    yf, sf = _probabilities(y, s)
    c = np.atleast_1d(np.asarray(costs, dtype=np.float64))
    if c.ndim != 1 or not np.all((c >= 0.0) & (c <= 1.0)):  # also NaN
        raise UserError("costs must be a vector of cost proportions in [0, 1]")
    lines = CostLines.from_scores(yf, sf)
    regret = lines.height(lines.line_index(c), c) / 2.0
    # the recalibrated scores predict 0 for every block of value <= c: the line at the end of
    # the last such block
    ends, values = lines.pav_blocks
    line = np.concatenate(([0], ends))[np.searchsorted(values, c, side="right")]
    refinement = lines.height(line, c) / 2.0
    with np.errstate(divide="ignore"):
        log_odds = logit(c)
    return pd.DataFrame({"cost": c, "log_odds": log_odds, "regret": regret,
                         "refinement": refinement, "calibration": regret - refinement})


__all__ = ["ScoreDecomposition", "brier_decomposition", "log_loss_decomposition",
           "regret_curves"]
