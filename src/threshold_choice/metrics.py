"""Performance metrics of one set of labelled scores (the paper's Table 7/8 columns).

Labels in {0, 1}; scores estimate P(class 1). Calibration and refinement loss use bins of
equal score: ``CL = sum_b n_b (s_b - ybar_b)^2 / n`` and ``RL = sum_b n_b ybar_b (1 - ybar_b) / n``
so that ``BS = CL + RL`` exactly. ``RL_conv`` is the refinement loss after convexification
(PAV calibration with tied scores pooled), which equals the test-optimal expected loss at
``gamma = inf``.

Beyond the paper's columns, :func:`compute_metrics` also gives Hand's H-measure (``H``, with
the ``hmeasure`` package's default ``Beta(2, 1 + n0/n1)`` on the cost) and, for a bounded
cost distribution ``[LO, HI]``, the bounded-threshold Brier score and log loss of
threshold mixtures (paper 002) as ``briertools`` computes them (``BS_bounded``,
``LogLoss_bounded``). Each is an expected loss of this package at ``gamma = inf``
(:func:`h_measure`, :func:`bounded_brier_score`, :func:`bounded_log_loss` say which).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from threshold_choice.cost_distributions import CostDistribution, parse_cost_distribution
from threshold_choice.costlines import CostLines, validate_scores
from threshold_choice.errors import UserError

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


def _beta_partial(a: float, b: float, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``integral_0^x w`` and ``integral_0^x c w`` for the Beta(a, b) density ``w``."""
    from scipy.special import betainc  # here: most processes importing the metrics never use it

    return betainc(a, b, x), a / (a + b) * betainc(a + 1.0, b, x)


def h_measure(lines: CostLines, a: float | None = None, b: float | None = None) -> float:
    """Hand's H-measure with a ``Beta(a, b)`` distribution on the cost proportion ``c``;
    by default the ``hmeasure`` package's ``a = 2, b = 1 + n0/n1``.

    ``H = 1 - L_H / L_max`` with ``L_H = integral min_t R(t; c) w(c) dc`` (``R = Q / 2``, the
    minimal loss: the lower envelope of the cost lines = the ROC convex hull) and
    ``L_max = integral min(c pi0, (1 - c) pi1) w(c) dc`` (the better trivial classifier).
    In this package's terms: ``H = 1 - L / (2 L_max)``, ``L`` the test-optimal expected loss
    at ``gamma = inf`` under ``cost_distribution='beta:a,b'`` (tested against ``hmeasure``).
    Computed here in closed form from the PAV blocks (Beta partial moments).
    """
    if a is None:
        a = 2.0
    if b is None:
        b = 1.0 + lines.n0 / lines.n1
    ends, values = lines.pav_blocks
    idx = np.concatenate(([0], ends))
    edges = np.concatenate(([0.0], values, [1.0]))
    p0, p1 = _beta_partial(a, b, edges)
    left, right = lines.left[idx] / 2.0, lines.right[idx] / 2.0
    loss = float(np.sum(left * np.diff(p0) + (right - left) * np.diff(p1)))
    q0, q1 = _beta_partial(a, b, np.array([lines.pi1, 1.0]))
    # c pi0 below c = pi1 (predict everything 0 costs more above), (1 - c) pi1 above
    worst = lines.pi0 * q1[0] + lines.pi1 * ((q0[1] - q0[0]) - (q1[1] - q1[0]))
    return float(1.0 - loss / worst)


def bounded_brier_score(y: ArrayLike, s: ArrayLike, lo: float, hi: float) -> float:
    """``mean (y - clip(s))**2 - mean (y - clip(y))**2``, clipping to ``[lo, hi]``: the
    bounded-threshold Brier score as ``briertools.scorers.BrierScorer().score(y, s, (lo, hi))``
    computes it. Score-driven at ``gamma = inf`` under ``uniform:lo,hi`` has expected loss
    ``bounded_brier_score / (hi - lo)``; paper 002's Theorem 4.3 states the average *regret*
    ``R = Q / 2`` equals that, a factor 2 too large (as its Theorem 4.1, ``BS = 2 E[R]``)."""
    yf = np.asarray(y, dtype=np.float64)
    sf = np.asarray(s, dtype=np.float64)
    far = np.mean((yf - np.clip(sf, lo, hi)) ** 2)
    return float(far - np.mean((yf - np.clip(yf, lo, hi)) ** 2))


def bounded_log_loss(y: ArrayLike, s: ArrayLike, lo: float, hi: float) -> float:
    """``mean -log(1 - |y - clip(s)|) - mean -log(1 - |y - clip(y)|)``, clipping to
    ``[lo, hi]`` (``0 < lo < hi < 1``): the bounded-threshold log loss as
    ``briertools.scorers.LogLossScorer().score(y, s, (lo, hi))`` computes it. Score-driven at
    ``gamma = inf`` under ``logit-uniform:lo,hi`` has expected loss
    ``2 bounded_log_loss / (logit(hi) - logit(lo))``; paper 002's Theorem 4.4 writes the
    average regret as the opposite of that (``E log|(1 - y) - clip(s)| - E log|(1 - y) -
    clip(y)|``, which is negative): a sign error."""
    yf = np.asarray(y, dtype=np.float64)
    sf = np.asarray(s, dtype=np.float64)
    far = -np.mean(np.log1p(-np.abs(yf - np.clip(sf, lo, hi))))
    near = -np.mean(np.log1p(-np.abs(yf - np.clip(yf, lo, hi))))
    return float(far - near)


def compute_metrics(
    y: ArrayLike,
    s: ArrayLike,
    *,
    eps: float = 1e-15,
    cost_distribution: str | CostDistribution | None = None,
) -> dict[str, float]:
    """All metrics of :data:`METRICS` for labels ``y`` and scores ``s``, and ``H``; with a
    bounded ``cost_distribution`` (``uniform:LO,HI`` or ``logit-uniform:LO,HI``) also
    ``BS_bounded`` and ``LogLoss_bounded`` over its range.

    ``LogLoss`` clips scores to ``[eps, 1 - eps]``. BS and MAE assume scores in [0, 1].
    """
    y_int, s_arr = validate_scores(y, s)
    lines = CostLines.from_scores(y_int, s_arr)
    yf = y_int.astype(np.float64)
    cl, rl = calibration_refinement(lines)
    p = np.clip(s_arr, eps, 1 - eps)
    out = {
        "AUC": auc(lines),
        "BS": float(np.mean((yf - s_arr) ** 2)),
        "MAE": float(np.mean(np.abs(yf - s_arr))),
        "CL": cl,
        "RL": rl,
        "RL_conv": refinement_convexified(lines),
        "LogLoss": float(-np.mean(yf * np.log(p) + (1 - yf) * np.log1p(-p))),
        "pi0": lines.pi0,
        "pi1": lines.pi1,
        "H": h_measure(lines),
    }
    dist = parse_cost_distribution(cost_distribution)
    if dist.is_bounded:
        lo, hi = dist.support
        out["BS_bounded"] = bounded_brier_score(yf, s_arr, lo, hi)
        # the log loss needs 0 < lo < hi < 1: clip a [0, HI] or [LO, 1] range by eps
        out["LogLoss_bounded"] = bounded_log_loss(yf, s_arr, max(lo, eps), min(hi, 1 - eps))
    return out


# -- top-K metrics (paper 002, Sect. 3: what practice reports beside the scoring rules) ---------


def _top_counts(y: ArrayLike, s: ArrayLike, k: ArrayLike) -> tuple[np.ndarray, CostLines]:
    """The expected number of class-1 examples among the ``k`` highest scores, ties at the
    ``k``-th place broken at random (the tied group counted in proportion: its share of
    class 1 times the places left for it), for each ``k``."""
    y_int, s_arr = validate_scores(y, s)
    lines = CostLines.from_scores(y_int, s_arr)
    k_arr = np.asarray(k)
    if not np.issubdtype(k_arr.dtype, np.integer) or np.any(k_arr < 1) or np.any(
            k_arr > lines.n):
        raise UserError(f"k must be whole numbers from 1 to the number of scores ({lines.n})")
    # above[j]: examples with a score above the j-th distinct score from the top
    n_le = lines.n0_le + lines.n1_le
    above = (lines.n - n_le)[::-1]  # above the distinct scores, highest first
    ones_above = (lines.n1 - lines.n1_le)[::-1]
    group = np.diff(n_le)[::-1]  # examples at each distinct score, highest first
    group_ones = np.diff(lines.n1_le)[::-1]
    j = np.searchsorted(above[1:], k_arr, side="left")  # the group holding place k
    return ones_above[j] + group_ones[j] * (k_arr - above[j]) / group[j], lines


def precision_at_k(y: ArrayLike, s: ArrayLike, k: ArrayLike) -> np.ndarray | float:
    """Precision@K: the share of class 1 among the ``k`` highest scores (class 1 the class
    the scores estimate), ties at the ``k``-th place broken at random (in expectation)."""
    ones, _ = _top_counts(y, s, k)
    out = ones / np.asarray(k)
    return float(out) if out.ndim == 0 else out


def recall_at_k(y: ArrayLike, s: ArrayLike, k: ArrayLike) -> np.ndarray | float:
    """Recall@K: the share of the class-1 examples among the ``k`` highest scores (ties as
    :func:`precision_at_k`)."""
    ones, lines = _top_counts(y, s, k)
    out = ones / lines.n1
    return float(out) if out.ndim == 0 else out


def average_precision(y: ArrayLike, s: ArrayLike) -> float:
    """AUC-PR as average precision, ``sum_j (R_j - R_(j-1)) P_j`` over the thresholds at the
    distinct scores from the highest (``P_j``, ``R_j`` the precision and recall of predicting
    1 the scores ``>= u_j``; tied scores enter together), scikit-learn's
    ``average_precision_score``."""
    y_int, s_arr = validate_scores(y, s)
    lines = CostLines.from_scores(y_int, s_arr)
    tp = (lines.n1 - lines.n1_le[:-1])[::-1].astype(np.float64)  # scores >= u_j, j from top
    predicted = (lines.n - (lines.n0_le + lines.n1_le)[:-1])[::-1]
    recall_steps = np.diff(np.concatenate(([0.0], tp))) / lines.n1
    return float(recall_steps @ (tp / predicted))
