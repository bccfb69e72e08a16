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
    """The evenly-spaced transformation (Definition 31 of paper ``000_...``): the ``i``-th
    lowest of ``n`` scores becomes ``(i - 1)/(n - 1)``; tied scores share the mean of their
    new scores (their mid-rank), so that ties stay ties.

    Parameters
    ----------
    scores:
        Any real scores (at least two).

    Returns
    -------
    ndarray
        Scores in [0, 1], in the order of ``scores``.

    Examples
    --------
    >>> evenly_spaced([0.9, 0.1, 0.35, 0.35]).tolist()
    [1.0, 0.0, 0.5, 0.5]
    """
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 1 or s.size < 2 or not np.all(np.isfinite(s)):
        raise UserError("evenly_spaced needs a vector of at least two finite scores")
    return (rankdata(s, method="average") - 1.0) / (s.size - 1.0)


def pav_calibrated(y: ArrayLike, scores: ArrayLike) -> FloatArray:
    """Perfectly calibrated scores on the sample: pool adjacent violators over the distinct
    scores (ties pooled first), each example taking its block's share of class 1 (the
    calibration the optimal threshold choice method assumes; Theorems 43-44 of paper
    ``000_...``).

    Parameters
    ----------
    y:
        Labels 0/1 (class 1: the class the score estimates).
    scores:
        Real scores (only their order and ties matter).

    Returns
    -------
    ndarray
        Non-decreasing in ``scores``; within each block the mean of its labels.

    Examples
    --------
    >>> pav_calibrated([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.9]).tolist()
    [0.0, 0.5, 0.5, 1.0]
    """
    y_int, s = validate_scores(y, scores)
    lines = CostLines.from_scores(y_int, s)
    ends, values = lines.pav_blocks
    distinct = np.searchsorted(lines.scores, s)  # index of each example's distinct score
    return values[np.searchsorted(ends, distinct, side="right")]


__all__ = ["evenly_spaced", "pav_calibrated"]
