"""Monotonic transformations of scores that connect the metrics (paper ``000_...``, Sect. 7).

``evenly_spaced``
    Definition 31: the ``i``-th lowest of ``n`` scores becomes ``(i - 1)/(n - 1)``. Then
    ``R(t) = t`` as ``n`` grows (Lemma 33): rate-driven and score-driven choose the same
    thresholds, and ``BS = L_sd = L_rd = pi0 pi1 (1 - 2 AUC) + 1/3`` (Theorem 34), ``MAE =
    L_su = L_ru = pi0 pi1 (1 - 2 AUC) + 1/2`` (Theorem 36), up to ``O(1/n)``.
``pav_calibrated``
    Perfect calibration on the sample (pool adjacent violators, the ROC convex hull): every
    block's score is the share of class 1 in it. Then, exactly, ``L_sd = L_o = RL = L_su / 2 =
    MAE / 2 = BS = pi0 s0 = pi1 (1 - s1)`` (Theorem 44; ``s_k`` the mean score of class
    ``k``), and the optimal thresholds are ``t = c`` (Theorem 43).

Both keep the order of the scores and their ties (tied scores get the same new score), so
AUC and the rank-based methods are unchanged.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import rankdata

from threshold_choice._typing import FloatArray
from threshold_choice.costlines import CostLines, validate_scores
from threshold_choice.errors import UserError


def evenly_spaced(scores: ArrayLike) -> FloatArray:
    """Spread scores evenly over [0, 1], keeping their order and ties.

    The evenly-spaced transformation (Definition 31 of paper ``000_...``): the ``i``-th
    lowest of ``n`` scores becomes ``(i - 1)/(n - 1)``; tied scores share the mean of their
    new scores (their mid-rank), so that ties stay ties. Then rate-driven and score-driven
    choose the same thresholds as ``n`` grows.

    Parameters
    ----------
    scores : array-like of shape (n,)
        Any finite real scores, at least two.

    Returns
    -------
    ndarray of shape (n,)
        Scores in [0, 1], in the order of ``scores``.

    Raises
    ------
    UserError
        If ``scores`` is not a vector of at least two finite numbers.

    See Also
    --------
    pav_calibrated : The other transformation of Sect. 7.

    Examples
    --------
    >>> from threshold_choice import evenly_spaced
    >>> evenly_spaced([0.9, 0.1, 0.35, 0.35]).tolist()
    [1.0, 0.0, 0.5, 0.5]
    """
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 1 or s.size < 2 or not np.all(np.isfinite(s)):
        raise UserError("evenly_spaced needs a vector of at least two finite scores")
    return (rankdata(s, method="average") - 1.0) / (s.size - 1.0)


def pav_calibrated(y: ArrayLike, scores: ArrayLike) -> FloatArray:
    """Calibrate scores perfectly on the sample (pool adjacent violators).

    Pool adjacent violators over the distinct scores (ties pooled first), each example
    taking its block's share of class 1: the calibration the optimal threshold choice method
    assumes (Theorems 43-44 of paper ``000_...``); its blocks are the ROC convex hull's
    segments.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, 0 or 1 (class 1: the class the score estimates); both classes present.
    scores : array-like of shape (n,)
        Finite real scores (only their order and ties matter).

    Returns
    -------
    ndarray of shape (n,)
        Non-decreasing in ``scores``; within each block the mean of its labels.

    Raises
    ------
    UserError
        For labels other than 0/1, a single class, or scores that are not finite (see
        :meth:`CostLines.from_scores`).

    See Also
    --------
    evenly_spaced : The other transformation of Sect. 7.

    Examples
    --------
    >>> from threshold_choice import pav_calibrated
    >>> pav_calibrated([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.9]).tolist()
    [0.0, 0.5, 0.5, 1.0]
    """
    y_int, s = validate_scores(y, scores)
    lines = CostLines.from_scores(y_int, s)
    ends, values = lines.pav_blocks
    distinct = np.searchsorted(lines.scores, s)  # index of each example's distinct score
    return values[np.searchsorted(ends, distinct, side="right")]


__all__ = ["evenly_spaced", "pav_calibrated"]
