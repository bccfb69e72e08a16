"""Performance metrics of one set of labelled scores (the paper's Table 7/8 columns).

Labels in {0, 1}; scores estimate P(class 1). Calibration and refinement loss use bins of
equal score: ``CL = sum_b n_b (s_b - ybar_b)^2 / n`` and ``RL = sum_b n_b ybar_b (1 - ybar_b) / n``
so that ``BS = CL + RL`` exactly. ``RL_conv`` is the refinement loss after convexification
(PAV calibration with tied scores pooled), which equals the test-optimal expected loss at
``gamma = inf``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from threshold_choice.costlines import CostLines, validate_scores

#: the metric names, in the order of the CLI and the tables
METRICS: tuple[str, ...] = ("AUC", "BS", "MAE", "CL", "RL", "RL_conv", "LogLoss", "pi0", "pi1")


def auc(lines: CostLines) -> float:
    """Area under the ROC curve: P(score of a class-1 example > that of a class-0 one),
    ties counting 1/2."""
    zeros = np.diff(lines.n0_le).astype(np.float64)
    ones = np.diff(lines.n1_le).astype(np.float64)
    ones_below = lines.n1_le[:-1].astype(np.float64)
    # for each class-0 example: class-1 examples above it (+ half of the tied ones)
    above = lines.n1 - ones_below - ones
    return float(np.sum(zeros * (above + 0.5 * ones)) / (lines.n0 * lines.n1))


def _bin_losses(
    counts: np.ndarray, ones: np.ndarray, values: np.ndarray, n: int
) -> tuple[float, float]:
    ybar = ones / counts
    cal = float(np.sum(counts * (values - ybar) ** 2) / n)
    ref = float(np.sum(counts * ybar * (1 - ybar)) / n)
    return cal, ref


def calibration_refinement(lines: CostLines) -> tuple[float, float]:
    """``(CL, RL)`` with bins of equal score."""
    counts = np.diff(lines.n0_le + lines.n1_le).astype(np.float64)
    ones = np.diff(lines.n1_le).astype(np.float64)
    return _bin_losses(counts, ones, lines.scores, lines.n)


def refinement_convexified(lines: CostLines) -> float:
    """RL of the PAV-calibrated scores (bins = PAV blocks)."""
    ends, values = lines.pav_blocks
    starts = np.concatenate(([0], ends[:-1]))
    all_le = lines.n0_le + lines.n1_le
    counts = (all_le[ends] - all_le[starts]).astype(np.float64)
    ones = (lines.n1_le[ends] - lines.n1_le[starts]).astype(np.float64)
    return _bin_losses(counts, ones, values, lines.n)[1]


def compute_metrics(y: ArrayLike, s: ArrayLike, *, eps: float = 1e-15) -> dict[str, float]:
    """All metrics of :data:`METRICS` for labels ``y`` and scores ``s``.

    ``LogLoss`` clips scores to ``[eps, 1 - eps]``. BS and MAE assume scores in [0, 1].
    """
    y_int, s_arr = validate_scores(y, s)
    lines = CostLines.from_scores(y_int, s_arr)
    yf = y_int.astype(np.float64)
    cl, rl = calibration_refinement(lines)
    p = np.clip(s_arr, eps, 1 - eps)
    return {
        "AUC": auc(lines),
        "BS": float(np.mean((yf - s_arr) ** 2)),
        "MAE": float(np.mean(np.abs(yf - s_arr))),
        "CL": cl,
        "RL": rl,
        "RL_conv": refinement_convexified(lines),
        "LogLoss": float(-np.mean(yf * np.log(p) + (1 - yf) * np.log1p(-p))),
        "pi0": lines.pi0,
        "pi1": lines.pi1,
    }
