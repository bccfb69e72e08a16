"""Performance metrics of one set of labelled scores (the paper's Table 7/8 columns).

Labels in {0, 1}, or any two labels with ``pos_label=`` naming class 1, as scikit-learn's
metrics take them: ``f(y_true, y_score, pos_label=...)``; scores estimate P(class 1).
:func:`auc` and :func:`h_measure` also take :class:`~threshold_choice.costlines.CostLines`.
Calibration and refinement loss use bins of equal score:
``CL = sum_b n_b (s_b - ybar_b)^2 / n`` and ``RL = sum_b n_b ybar_b (1 - ybar_b) / n`` so that
``BS = CL + RL`` exactly. ``RL_conv`` is the refinement loss after convexification (PAV
calibration with tied scores pooled), which equals the test-optimal expected loss at
``gamma = inf``.

Beyond the paper's columns, :func:`compute_metrics` also gives Hand's H-measure (``H``, with
the ``hmeasure`` package's default ``Beta(2, 1 + n0/n1)`` on the cost) and, for a bounded
cost distribution ``[LO, HI]``, the bounded-threshold Brier score and log loss of
threshold mixtures (paper 002) as ``briertools`` computes them (``BS_bounded``,
``LogLoss_bounded``). Each is an expected loss of this package at ``gamma = inf``
(:func:`h_measure`, :func:`bounded_brier_score`, :func:`bounded_log_loss` say which).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from threshold_choice._checks import number_in
from threshold_choice.cost_distributions import CostDistribution, parse_cost_distribution
from threshold_choice.costlines import CostLines, binary_labels, validate_scores
from threshold_choice.errors import UserError

#: the metric names, in the order of the CLI and the tables
METRICS: tuple[str, ...] = ("AUC", "BS", "MAE", "CL", "RL", "RL_conv", "LogLoss", "pi0", "pi1")


def _labelled(y_true: ArrayLike, y_score: ArrayLike, pos_label: object,
              what: str = "scores") -> tuple[np.ndarray, np.ndarray]:
    """Labels as 0/1 (1 = ``pos_label``; without it they must be 0/1) and scores, checked."""
    return validate_scores(binary_labels(y_true, pos_label, "y_true"), y_score, what=what)


def _lines(y_true: ArrayLike | CostLines, y_score: ArrayLike | None,
           pos_label: object) -> CostLines:
    """The cost lines given, or those of labels and scores."""
    if isinstance(y_true, CostLines):
        return y_true
    if y_score is None:
        raise UserError("give the labels and the scores (y_true, y_score), or CostLines")
    return CostLines.from_scores(*_labelled(y_true, y_score, pos_label))


def auc(y_true: ArrayLike | CostLines, y_score: ArrayLike | None = None, *,
        pos_label: object = None) -> float:
    """Return the area under the ROC curve of a set of cost lines.

    ``AUC = P(score of a class-1 example > score of a class-0 example)``, ties counting 1/2.

    Parameters
    ----------
    y_true : array-like of shape (n,) or CostLines
        The labels (0/1, or any two with ``pos_label``), or the cost lines of the labelled
        scores (:meth:`CostLines.from_scores`), which hold the counts it needs.
    y_score : array-like of shape (n,), default=None
        The scores, estimates of P(class 1); not given with ``CostLines``.
    pos_label : object, default=None
        The label of class 1; ``None``: the labels must be 0/1.

    Returns
    -------
    float
        The AUC, in [0, 1].

    See Also
    --------
    compute_metrics : Every metric of labels and scores, AUC included.
    threshold_choice.auch : The area under the ROC convex hull.

    Examples
    --------
    >>> from threshold_choice import CostLines, auc
    >>> lines = CostLines.from_scores([0, 0, 1, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> auc(lines)
    0.8125
    >>> auc(CostLines.from_scores([0, 1, 0, 1], [0.2, 0.2, 0.5, 0.7]))  # a tie counts 1/2
    0.625
    >>> auc(["no", "yes", "no", "yes"], [0.2, 0.2, 0.5, 0.7], pos_label="yes")
    0.625
    """
    lines = _lines(y_true, y_score, pos_label)
    zeros = np.diff(lines.n0_le).astype(np.float64)
    ones = np.diff(lines.n1_le).astype(np.float64)
    ones_below = lines.n1_le[:-1].astype(np.float64)
    # for each class-0 example: class-1 examples above it (+ half of the tied ones)
    above = lines.n1 - ones_below - ones
    return float(np.sum(zeros * (above + 0.5 * ones)) / (lines.n0 * lines.n1))


def _mean_square(d: np.ndarray, weights: np.ndarray | None = None) -> float:
    """``sum(weights * d**2) / sum(weights)`` (the plain mean without ``weights``), bit for bit
    the direct sum unless a square or the sum overflows: scores near the float limit (which
    the rank-based methods accept) then give the same sum scaled by ``max |d|``, infinite only
    when the value is above the largest float (no overflow warning: inf is then its value)."""
    with np.errstate(over="ignore"):
        if weights is None:
            out = float(np.mean(d**2))
        else:
            out = float(np.sum(weights * d**2) / np.sum(weights))
    if math.isfinite(out):
        return out
    m = float(np.max(np.abs(d)))
    return m * (m * _mean_square(d / m, weights))  # Python floats: inf without a warning


def _mean_abs(d: np.ndarray) -> float:
    """``mean |d|``, bit for bit, unless the sum overflows (then the mean of ``|d| / max |d|``
    scaled back: the mean itself is at most ``max |d|``, so finite)."""
    with np.errstate(over="ignore"):
        out = float(np.mean(np.abs(d)))
    if math.isfinite(out):
        return out
    m = float(np.max(np.abs(d)))
    return m * float(np.mean(np.abs(d) / m))


def _bin_losses(
    counts: np.ndarray, ones: np.ndarray, values: np.ndarray, n: int
) -> tuple[float, float]:
    ybar = ones / counts
    cal = _mean_square(values - ybar, counts)
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


def h_measure(y_true: ArrayLike | CostLines, y_score: ArrayLike | None = None,
              a: float | None = None, b: float | None = None, *,
              pos_label: object = None) -> float:
    """Return Hand's H-measure with a Beta distribution on the cost proportion.

    ``H = 1 - L_H / L_max`` with ``L_H = integral min_t R(t; c) w(c) dc`` (``R = Q / 2``, the
    minimal loss: the lower envelope of the cost lines = the ROC convex hull) and
    ``L_max = integral min(c pi0, (1 - c) pi1) w(c) dc`` (the better trivial classifier),
    ``w`` the ``Beta(a, b)`` density. In this package's terms: ``H = 1 - L / (2 L_max)``,
    ``L`` the test-optimal expected loss at ``gamma = inf`` under
    ``cost_distribution='beta:a,b'`` (tested against ``hmeasure``). Computed in closed form
    from the PAV blocks (Beta partial moments).

    Parameters
    ----------
    y_true : array-like of shape (n,) or CostLines
        The labels (0/1, or any two with ``pos_label``), or the cost lines of the labelled
        scores (:meth:`CostLines.from_scores`; then ``h_measure(lines, a, b)`` as before).
    y_score : array-like of shape (n,), default=None
        The scores, estimates of P(class 1); not given with ``CostLines``.
    a : float or None, default=None
        The Beta's first shape; ``None``: 2, the ``hmeasure`` package's default.
    b : float or None, default=None
        The Beta's second shape; ``None``: ``1 + n0/n1``, the ``hmeasure`` package's
        default.
    pos_label : object, default=None
        The label of class 1; ``None``: the labels must be 0/1.

    Returns
    -------
    float
        H, at most 1 (a perfect ranking).

    See Also
    --------
    compute_metrics : Every metric of labels and scores, ``H`` included.

    Examples
    --------
    >>> from threshold_choice import CostLines, h_measure
    >>> lines = CostLines.from_scores([0, 0, 1, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> round(h_measure(lines), 4)  # Beta(2, 1 + 4/4)
    0.5
    >>> round(h_measure(CostLines.from_scores([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])), 4)
    1.0
    >>> round(h_measure(["ok", "ok", "bad", "bad"], [0.1, 0.2, 0.8, 0.9], pos_label="bad"), 4)
    1.0
    """
    if isinstance(y_true, CostLines) and y_score is not None:  # h_measure(lines, a[, b])
        a, b = y_score, a if b is None else b
        y_score = None
    lines = _lines(y_true, y_score, pos_label)
    a = 2.0 if a is None else number_in(a, "the Beta's shape a", 0.0, math.inf)
    b = 1.0 + lines.n0 / lines.n1 if b is None else number_in(b, "the Beta's shape b", 0.0,
                                                              math.inf)
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


def _threshold_range(lo: object, hi: object, *, closed: str) -> tuple[float, float]:
    """``lo < hi`` in [0, 1] (``closed="both"``) or in (0, 1) (``""``: the logarithms)."""
    low = number_in(lo, "the range's lower end lo", 0.0, 1.0, closed=closed)
    high = number_in(hi, "the range's upper end hi", 0.0, 1.0, closed=closed)
    if not low < high:
        raise UserError(f"the range of thresholds needs lo < hi, got lo={lo!r}, hi={hi!r}")
    return low, high


def bounded_brier_score(y: ArrayLike, s: ArrayLike, lo: float, hi: float, *,
                        pos_label: object = None) -> float:
    """Return the bounded-threshold Brier score over ``[lo, hi]``.

    ``mean (y - clip(s))**2 - mean (y - clip(y))**2``, clipping to ``[lo, hi]``, as
    ``briertools.scorers.BrierScorer().score(y, s, (lo, hi))`` computes it. Score-driven at
    ``gamma = inf`` under ``uniform:lo,hi`` has expected loss
    ``bounded_brier_score / (hi - lo)``; paper 002's Theorem 4.3 states the average *regret*
    ``R = Q / 2`` equals that, a factor 2 too large (as its Theorem 4.1, ``BS = 2 E[R]``).

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, 0 or 1 (not checked).
    s : array-like of shape (n,)
        Scores, estimates of P(class 1).
    lo : float
        The lower end of the range of thresholds.
    hi : float
        Its upper end, ``lo < hi``.

    pos_label : object, default=None
        The label of class 1, for labels other than 0/1 (as scikit-learn's metrics).

    Returns
    -------
    float
        The bounded Brier score.

    See Also
    --------
    compute_metrics : Gives it as ``BS_bounded`` for a bounded cost distribution.
    bounded_log_loss : The log loss over a range of thresholds.

    Examples
    --------
    >>> import math
    >>> from threshold_choice import bounded_brier_score, expected_losses
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> round(bounded_brier_score(y, s, 0.05, 0.2), 6)
    0.015
    >>> losses = expected_losses(y, s, methods="score-driven", gammas=math.inf,
    ...                          settings={"cost_distribution": "uniform:0.05,0.2"})
    >>> round(float(losses["expected_loss"].iloc[0]), 6)  # 0.015 / (0.2 - 0.05)
    0.1
    """
    yf = np.asarray(y if pos_label is None else binary_labels(y, pos_label, "y_true"),
                    dtype=np.float64)
    sf = np.asarray(s, dtype=np.float64)
    lo, hi = _threshold_range(lo, hi, closed="both")
    far = np.mean((yf - np.clip(sf, lo, hi)) ** 2)
    return float(far - np.mean((yf - np.clip(yf, lo, hi)) ** 2))


def bounded_log_loss(y: ArrayLike, s: ArrayLike, lo: float, hi: float, *,
                     pos_label: object = None) -> float:
    """Return the bounded-threshold log loss over ``[lo, hi]``.

    ``mean -log(1 - |y - clip(s)|) - mean -log(1 - |y - clip(y)|)``, clipping to
    ``[lo, hi]``, as ``briertools.scorers.LogLossScorer().score(y, s, (lo, hi))`` computes
    it. Score-driven at ``gamma = inf`` under ``logit-uniform:lo,hi`` has expected loss
    ``2 bounded_log_loss / (logit(hi) - logit(lo))``; paper 002's Theorem 4.4 writes the
    average regret as the opposite of that (``E log|(1 - y) - clip(s)| - E log|(1 - y) -
    clip(y)|``, which is negative): a sign error.

    Parameters
    ----------
    y, s : array-like of shape (n,)
        Labels (0/1, not checked) and scores, as for :func:`bounded_brier_score`.
    lo, hi : float
        The range of thresholds, ``0 < lo < hi < 1`` (the logarithms need both ends
        inside (0, 1)).

    pos_label : object, default=None
        The label of class 1, for labels other than 0/1 (as scikit-learn's metrics).

    Returns
    -------
    float
        The bounded log loss (natural logarithm).

    See Also
    --------
    bounded_brier_score : The Brier score over a range of thresholds.
    compute_metrics : ``LogLoss_bounded``, under ``cost_distribution="logit-uniform:LO,HI"``.

    Examples
    --------
    The expected loss of score-driven at ``gamma = inf`` under the log-loss weighting of
    [0.05, 0.2] is ``2 / Z`` times it, ``Z = logit(0.2) - logit(0.05)``:

    >>> import math
    >>> from threshold_choice import bounded_log_loss, expected_losses
    >>> labels, scores = [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> value = bounded_log_loss(labels, scores, 0.05, 0.2)
    >>> round(value, 6)
    0.071202
    >>> frame = expected_losses(labels, scores, methods="score-driven", gammas=math.inf,
    ...                         settings={"cost_distribution": "logit-uniform:0.05,0.2"})
    >>> z = math.log(0.2 / 0.8) - math.log(0.05 / 0.95)
    >>> abs(float(frame["expected_loss"].iloc[0]) - 2 * value / z) < 1e-9
    True
    """
    yf = np.asarray(y if pos_label is None else binary_labels(y, pos_label, "y_true"),
                    dtype=np.float64)
    sf = np.asarray(s, dtype=np.float64)
    lo, hi = _threshold_range(lo, hi, closed="")
    far = -np.mean(np.log1p(-np.abs(yf - np.clip(sf, lo, hi))))
    near = -np.mean(np.log1p(-np.abs(yf - np.clip(yf, lo, hi))))
    return float(far - near)


def shifted_brier_score(y: ArrayLike, s: ArrayLike, mu: float, *,
                        pos_label: object = None) -> float:
    """Return the shifted Brier score: the Brier score of scores moved on the log-odds.

    ``mean (y - M(s, mu))**2`` with ``M(s, mu) = 1 / (1 + exp(-(logit(s) - logit(mu))))``,
    which moves the score ``mu`` to 1/2 and keeps 0 and 1 (paper 002, Def. B.6, with the sign
    of its exponent corrected; :func:`~threshold_choice.priors.adjust_posterior` from the prior
    ``mu`` to 1/2 computes the same). Its inverse is ``M(., 1 - mu)`` (Prop. B.7's ``-mu``).

    What it averages (Thm B.9 corrected, tested): at the cost ``c`` the shifted scores are
    thresholded at ``c``, i.e. the scores at ``t(c) = M(c, 1 - mu)``, so with ``F0``, ``F1``
    the scores' class-conditional distributions

    ``BS(M(s, mu)) = 2 integral_0^1 [c pi0 (1 - F0(t(c))) + (1 - c) pi1 F1(t(c))] dc``:

    twice the mean regret when the threshold is moved away from the cost, not (as printed)
    ``E_c R*(M(c, mu))``, the regret at a moved cost with the threshold equal to it. For
    ``mu != 1/2`` it is not a proper scoring rule of ``s`` (calibrated scores do not
    minimise it), so it is no mixture of the regrets ``R*(c)``.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, 0 or 1 (class 1: the class the score estimates); both classes present.
    s : array-like of shape (n,)
        Scores, probabilities of class 1 in [0, 1].
    mu : float
        The score moved to 1/2, in (0, 1); 1/2 gives the Brier score.

    pos_label : object, default=None
        The label of class 1, for labels other than 0/1 (as scikit-learn's metrics).

    Returns
    -------
    float
        The shifted Brier score.

    Raises
    ------
    UserError
        For invalid labels or scores, scores outside [0, 1] or ``mu`` outside (0, 1).

    See Also
    --------
    bounded_brier_score : The Brier score over a range of thresholds.
    threshold_choice.adjust_posterior : The same move of the scores, as a prior change.

    Examples
    --------
    >>> from threshold_choice import adjust_posterior, shifted_brier_score
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> round(shifted_brier_score(y, s, 0.5), 6)  # the Brier score
    0.172812
    >>> round(shifted_brier_score(y, s, 0.2), 4)
    0.2454
    >>> moved = adjust_posterior(s, 0.2, 0.5)  # 0.2 becomes 1/2
    >>> round(float(sum((a - b) ** 2 for a, b in zip(y, moved)) / 8), 4)
    0.2454
    """
    y_int, sf = _labelled(y, s, pos_label)
    if sf.min() < 0.0 or sf.max() > 1.0:
        raise UserError(f"the shifted Brier score needs scores that are probabilities in "
                        f"[0, 1], got scores from {sf.min():g} to {sf.max():g}")
    m = number_in(mu, "mu", 0.0, 1.0)
    # M(s, mu) on the odds: s (1 - mu) / (s (1 - mu) + (1 - s) mu), 0 -> 0 and 1 -> 1
    up = sf * (1.0 - m)
    moved = up / (up + (1.0 - sf) * m)
    return float(np.mean((y_int - moved) ** 2))


def compute_metrics(
    y: ArrayLike,
    s: ArrayLike,
    *,
    pos_label: object = None,
    eps: float = 1e-15,
    cost_distribution: str | CostDistribution | None = None,
) -> dict[str, float]:
    """Compute the paper's metrics of labelled scores (its Tables 7 and 8), and more.

    ``AUC``; the Brier score ``BS = mean (y - s)**2``; ``MAE = mean |y - s|``; the
    calibration and refinement losses ``CL``, ``RL`` over bins of equal score (``BS = CL +
    RL``); ``RL_conv``, the refinement loss of the PAV-calibrated scores (the test-optimal
    expected loss at ``gamma = inf``); ``LogLoss``; the class proportions ``pi0``, ``pi1``;
    and Hand's ``H`` (:func:`h_measure` with its default Beta).

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, 0 or 1 (class 1: the class the score estimates); both classes present.
    s : array-like of shape (n,)
        Finite scores; ``BS``, ``MAE``, ``CL`` and ``LogLoss`` assume probabilities in
        [0, 1].
    pos_label : object, default=None
        The label of class 1, for labels other than 0/1 (as scikit-learn's metrics).
    eps : float, default=1e-15
        ``LogLoss`` clips the scores to ``[eps, 1 - eps]`` (and ``LogLoss_bounded`` its
        range).
    cost_distribution : str, CostDistribution or None, default=None
        A bounded belief (``uniform:LO,HI`` or ``logit-uniform:LO,HI``) adds
        ``BS_bounded`` and ``LogLoss_bounded`` over ``[LO, HI]``
        (:func:`bounded_brier_score`, :func:`bounded_log_loss`); any other, none.

    Returns
    -------
    dict of str to float
        The metrics of ``METRICS`` (``AUC, BS, MAE, CL, RL, RL_conv, LogLoss, pi0, pi1``),
        then ``H``, then the bounded ones if any.

    Raises
    ------
    UserError
        For invalid labels or scores (see :meth:`CostLines.from_scores`) or an invalid
        ``cost_distribution``.

    See Also
    --------
    threshold_choice.expected_losses : The expected losses of the same scores.

    Examples
    --------
    >>> from threshold_choice import compute_metrics
    >>> metrics = compute_metrics([0, 0, 1, 0, 1, 1, 0, 1],
    ...                           [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> {k: round(v, 4) for k, v in metrics.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'AUC': 0.8125, 'BS': 0.1728, 'MAE': 0.3563, 'CL': 0.1728, 'RL': 0.0, 'RL_conv': 0.125,
     'LogLoss': 0.5082, 'pi0': 0.5, 'pi1': 0.5, 'H': 0.5}
    """
    eps = number_in(eps, "eps (LogLoss clips to [eps, 1 - eps])", 0.0, 0.5, closed="low")
    y_int, s_arr = _labelled(y, s, pos_label)
    lines = CostLines.from_scores(y_int, s_arr)
    yf = y_int.astype(np.float64)
    cl, rl = calibration_refinement(lines)
    p = np.clip(s_arr, eps, 1 - eps)
    out = {
        "AUC": auc(lines),
        "BS": _mean_square(yf - s_arr),
        "MAE": _mean_abs(yf - s_arr),
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


def _top_counts(y: ArrayLike, s: ArrayLike, k: ArrayLike,
                pos_label: object = None) -> tuple[np.ndarray, CostLines]:
    """The expected number of class-1 examples among the ``k`` highest scores, ties at the
    ``k``-th place broken at random (the tied group counted in proportion: its share of
    class 1 times the places left for it), for each ``k``."""
    y_int, s_arr = _labelled(y, s, pos_label)
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


def precision_at_k(y: ArrayLike, s: ArrayLike, k: ArrayLike, *,
                   pos_label: object = None) -> np.ndarray | float:
    """Return precision@K: the share of class 1 among the ``k`` highest scores.

    Class 1 is the class the scores estimate; a group of tied scores across the ``k``-th place
    is broken at random, in expectation (each of its examples counted in proportion to the
    places left for the group).

    Parameters
    ----------
    y : array-like of {0, 1}
        Labels.
    s : array-like of float
        Scores.
    k : int or array-like of int
        How many of the highest scores, from 1 to the number of scores.

    pos_label : object, default=None
        The label of class 1, for labels other than 0/1 (as scikit-learn's metrics).

    Returns
    -------
    float or ndarray
        Precision@K, one per ``k``.

    Raises
    ------
    UserError
        For a ``k`` outside 1..n or bad labels and scores.

    See Also
    --------
    recall_at_k : The share of class 1 found.
    average_precision : AUC-PR.

    Examples
    --------
    >>> from threshold_choice import precision_at_k
    >>> precision_at_k([0, 1, 1, 0], [0.5, 0.5, 0.9, 0.1], 2)  # 1, then half of the tie
    0.75
    """
    ones, _ = _top_counts(y, s, k, pos_label)
    out = ones / np.asarray(k)
    return float(out) if out.ndim == 0 else out


def recall_at_k(y: ArrayLike, s: ArrayLike, k: ArrayLike, *,
                pos_label: object = None) -> np.ndarray | float:
    """Return recall@K: the share of the class-1 examples among the ``k`` highest scores.

    Ties across the ``k``-th place as :func:`precision_at_k`.

    Parameters
    ----------
    y : array-like of {0, 1}
        Labels.
    s : array-like of float
        Scores.
    k : int or array-like of int
        How many of the highest scores, from 1 to the number of scores.

    pos_label : object, default=None
        The label of class 1, for labels other than 0/1 (as scikit-learn's metrics).

    Returns
    -------
    float or ndarray
        Recall@K, one per ``k``.

    Raises
    ------
    UserError
        For a ``k`` outside 1..n or bad labels and scores.

    See Also
    --------
    precision_at_k : The share of class 1 among them.

    Examples
    --------
    >>> from threshold_choice import recall_at_k
    >>> recall_at_k([0, 1, 1, 0], [0.5, 0.5, 0.9, 0.1], [1, 2, 4]).tolist()
    [0.5, 0.75, 1.0]
    """
    ones, lines = _top_counts(y, s, k, pos_label)
    out = ones / lines.n1
    return float(out) if out.ndim == 0 else out


def average_precision(y: ArrayLike, s: ArrayLike, *, pos_label: object = None) -> float:
    """Return AUC-PR as average precision.

    ``sum_j (R_j - R_(j-1)) P_j`` over the thresholds at the distinct scores from the highest
    (``P_j``, ``R_j`` the precision and recall of predicting 1 the scores ``>= u_j``; tied
    scores enter together): scikit-learn's ``average_precision_score``.

    Parameters
    ----------
    y : array-like of {0, 1}
        Labels.
    s : array-like of float
        Scores estimating P(class 1).

    pos_label : object, default=None
        The label of class 1, for labels other than 0/1 (as scikit-learn's metrics).

    Returns
    -------
    float
        The average precision.

    Raises
    ------
    UserError
        For bad labels and scores.

    See Also
    --------
    precision_at_k : Precision at one cut.

    Examples
    --------
    >>> from threshold_choice import average_precision
    >>> round(average_precision([0, 0, 1, 0, 1, 1, 0, 1],
    ...                         [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]), 4)
    0.8542
    """
    y_int, s_arr = _labelled(y, s, pos_label)
    lines = CostLines.from_scores(y_int, s_arr)
    tp = (lines.n1 - lines.n1_le[:-1])[::-1].astype(np.float64)  # scores >= u_j, j from top
    predicted = (lines.n - (lines.n0_le + lines.n1_le)[:-1])[::-1]
    recall_steps = np.diff(np.concatenate(([0.0], tp))) / lines.n1
    return float(recall_steps @ (tp / predicted))
