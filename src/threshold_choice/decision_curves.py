"""Net benefit and decision curves (decision curve analysis, Vickers & Elkin 2006; paper
``002``, Sect. 4.3). The ``threshold-choice decision-curve`` command is
:mod:`threshold_choice.cli.decision_curve`.

Conventions: label 1 is the event (e.g. the disease) whose probability the score estimates;
at threshold probability ``t`` an example is treated (predicted 1) iff ``score > t``, the
package's strict convention; ``inclusive=True`` treats ``score >= t`` as decision curve
analysis and ``dcurves`` do (they differ only for scores equal to a threshold).

Net benefit (paper 002, Def. 4.5): ``NB(t) = TP/n - FP/n * t/(1 - t)``; treating everyone
gives ``pi1 - pi0 * t/(1 - t)``, treating no one 0.

In the package's terms (Thm 4.6, right as printed, with its regret ``R = Q/2``): at the cost
proportion ``c = t``, ``NB(t) = pi1 - Q(t; t) / (2 (1 - t))``, ``Q`` the loss (``b = 2``) of
the threshold ``t``. So the decision curve of any threshold choice method whose threshold
comes from an uncertain ``c_hat`` is ``pi1 - K(t) / (2 (1 - t))``, ``K`` the expected cost
curve (:func:`expected_net_benefit`); score-driven at ``gamma = inf`` is plain DCA.

The average net benefit over thresholds uniform on ``[a, b]`` is exact
(:func:`average_net_benefit`): between consecutive scores ``TP`` and ``FP`` are constant and
``integral t/(1 - t) dt = -t - ln(1 - t)``. Paper 002's Thm 4.7 states it through the
pointwise loss ``L(s, 1) = s``, ``L(s, 0) = (1 - s) - ln(1 - s)``; the class-1 loss must
decrease in ``s`` (its derivative enters with a minus sign, Lemma B.1): with
``L(s, 1) = 1 - s`` the identity holds, as printed it overstates the average by
``2 pi1 * integral_a^b F1(t) dt / (b - a)`` (tested).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from threshold_choice._typing import FloatArray
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.expected_loss import expected_cost_curve
from threshold_choice.methods import Selection
from threshold_choice.methods.builders import check_unit

#: dcurves' default thresholds: 0, 0.01, ..., 0.99
DEFAULT_THRESHOLDS: FloatArray = np.arange(100) / 100.0


def _thresholds(thresholds: ArrayLike) -> FloatArray:
    t = np.atleast_1d(np.asarray(thresholds, dtype=np.float64))
    bad = ~((t >= 0.0) & (t < 1.0))  # also NaN
    if bad.any():
        raise UserError(
            f"thresholds must be in [0, 1) (net benefit weighs false positives by t/(1 - t)); "
            f"got {t[bad][0]}"
        )
    return t


def _probability_lines(y: ArrayLike, s: ArrayLike) -> CostLines:
    """The cost lines of ``(y, s)``, after checking that the scores are probabilities: a
    decision curve compares them with threshold probabilities (a score of 0-100 against
    t = 0.3 would treat nearly everyone)."""
    lines = CostLines.from_scores(y, s)
    low, high = float(lines.scores[0]), float(lines.scores[-1])
    if low < 0.0 or high > 1.0:
        raise UserError(
            f"decision curves need scores that are probabilities in [0, 1] (they are compared "
            f"with threshold probabilities), got scores from {low:g} to {high:g}: calibrate "
            "them (e.g. scikit-learn's CalibratedClassifierCV) or rescale them to [0, 1]"
        )
    return lines


def _odds(t: FloatArray) -> FloatArray:
    return t / (1.0 - t)


def net_benefit(
    y: ArrayLike, s: ArrayLike, thresholds: ArrayLike, *, inclusive: bool = False
) -> FloatArray:
    """Compute the net benefit of treating by the scores at each threshold probability.

    ``NB(t) = TP/n - FP/n * t/(1 - t)`` (paper 002, Def. 4.5), an example treated (predicted
    1) iff ``score > t``, or ``score >= t`` with ``inclusive``. From the sorted scores:
    O((n + k) log n) for ``k`` thresholds.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, 0 or 1 (1: the event whose probability the score estimates); both classes
        present.
    s : array-like of shape (n,)
        Scores, probabilities of the event in [0, 1].
    thresholds : array-like of float
        Threshold probabilities ``t`` in [0, 1).
    inclusive : bool, default=False
        Treat iff ``score >= t``, as decision curve analysis and ``dcurves`` do (the two
        differ only for scores equal to a threshold).

    Returns
    -------
    ndarray of shape (k,)
        ``NB(t)`` at each threshold.

    Raises
    ------
    UserError
        For invalid labels or scores, scores outside [0, 1], or a threshold outside
        [0, 1).

    See Also
    --------
    decision_curve : With treat-all and treat-none.
    expected_net_benefit : The net benefit of a method given an uncertain threshold.

    Examples
    --------
    >>> from threshold_choice import net_benefit
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> net_benefit(y, s, [0.1, 0.35, 0.5]).round(4).tolist()  # 4/8 - 3/8 * 1/9 first
    [0.4583, 0.2404, 0.25]
    >>> net_benefit(y, s, [0.35], inclusive=True).round(4).tolist()  # treats score 0.35
    [0.3654]
    """
    return _net_benefit(_probability_lines(y, s), _thresholds(thresholds), inclusive)


def _treated(lines: CostLines, j: NDArray[np.intp]) -> tuple[FloatArray, FloatArray]:
    """``(TP/n, FP/n)`` of line ``j``, which treats all but the ``j`` lowest distinct scores."""
    return (lines.n1 - lines.n1_le[j]) / lines.n, (lines.n0 - lines.n0_le[j]) / lines.n


def _net_benefit(lines: CostLines, t: FloatArray, inclusive: bool) -> FloatArray:
    tp, fp = _treated(lines, np.searchsorted(lines.scores, t, "left" if inclusive else "right"))
    return tp - fp * _odds(t)


def treat_all_net_benefit(pi1: float, thresholds: ArrayLike) -> FloatArray:
    """Net benefit of treating everyone: ``pi1 - (1 - pi1) * t/(1 - t)``."""
    check_unit("pi1, the class-1 proportion", pi1)
    t = _thresholds(thresholds)
    return pi1 - (1.0 - pi1) * _odds(t)


def decision_curve(
    y: ArrayLike,
    s: ArrayLike,
    thresholds: ArrayLike = DEFAULT_THRESHOLDS,
    *,
    inclusive: bool = False,
) -> pd.DataFrame:
    """Compute the decision curve of labelled scores, with treat-all and treat-none.

    The net benefit of the scores (:func:`net_benefit`), of treating everyone
    (``pi1 - pi0 * t/(1 - t)``) and of treating no one (0) at each threshold probability.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, 0 or 1 (1: the event whose probability the score estimates).
    s : array-like of shape (n,)
        Scores, probabilities of the event in [0, 1].
    thresholds : array-like of float, default=DEFAULT_THRESHOLDS
        Threshold probabilities in [0, 1); by default 0, 0.01, ..., 0.99, as ``dcurves``.
    inclusive : bool, default=False
        Treat iff ``score >= t`` instead of ``score > t``.

    Returns
    -------
    pandas.DataFrame
        Columns ``threshold, net_benefit, treat_all, treat_none``, one row per threshold.

    Raises
    ------
    UserError
        As :func:`net_benefit`.

    See Also
    --------
    threshold_choice.plotting.DecisionCurveDisplay : Plots it.

    Examples
    --------
    >>> from threshold_choice import decision_curve
    >>> decision_curve([0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9],
    ...                [0.1, 0.3, 0.5]).round(4)
       threshold  net_benefit  treat_all  treat_none
    0        0.1       0.4583     0.4444         0.0
    1        0.3       0.3929     0.2857         0.0
    2        0.5       0.2500     0.0000         0.0
    """
    lines = _probability_lines(y, s)
    t = _thresholds(thresholds)
    return pd.DataFrame(
        {
            "threshold": t,
            "net_benefit": _net_benefit(lines, t, inclusive),
            "treat_all": treat_all_net_benefit(lines.pi1, t),
            "treat_none": np.zeros(t.size),
        }
    )


#: the rescalings of the threshold axis of paper 002's Thms C.3 and C.4 (``x = phi(t)``)
RESCALINGS: tuple[str, ...] = ("quadratic", "log")


def rescale_thresholds(thresholds: ArrayLike, scale: str) -> FloatArray:
    """``phi(t)``: ``-(1 - t)^2 / 2`` (``"quadratic"``, Thm C.3) or ``ln t`` (``"log"``,
    Thm C.4; ``t > 0``); ``"linear"``: ``t`` itself."""
    t = _thresholds(thresholds)
    if scale == "linear":
        return t
    if scale == "quadratic":
        return -((1.0 - t) ** 2) / 2.0
    if scale == "log":
        if np.any(t <= 0.0):
            raise UserError("the log-rescaled decision curve needs thresholds t > 0 (x = ln t)")
        return np.log(t)
    raise UserError(f"scale must be one of linear, {', '.join(RESCALINGS)}; got {scale!r}")


def rescaled_decision_curve(
    y: ArrayLike,
    s: ArrayLike,
    thresholds: ArrayLike | None = None,
    *,
    scale: str = "quadratic",
    inclusive: bool = False,
) -> pd.DataFrame:
    """Compute the decision curve against a rescaled threshold axis (paper 002, App. C).

    The decision curve (:func:`decision_curve`) with ``x = phi(t)``: on ``x = -(1 - t)^2 /
    2`` (``scale="quadratic"``, Thm C.3, ``dx = (1 - t) dt``) the area between ``pi1`` and
    the net benefit over ``[phi(a), phi(b)]`` is ``integral_a^b R(t) dt``, the regret
    integrated over the thresholds: **half** the bounded Brier score
    (:func:`~threshold_choice.metrics.bounded_brier_score`; the paper's Fig. 4 says the
    whole of it, the factor 2 of its Thms 4.1 and 4.3). On ``x = ln t`` (``scale="log"``,
    Thm C.4, ``dx = dt / t``) the area is ``integral_a^b R(t) dt / (t (1 - t))``, the
    bounded log loss (:func:`~threshold_choice.metrics.bounded_log_loss`) exactly. Both
    theorems hold as printed (tested by quadrature over ``x``).

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels, 0 or 1 (1: the event whose probability the score estimates).
    s : array-like of shape (n,)
        Scores, probabilities of the event in [0, 1].
    thresholds : array-like of float, default=None
        Threshold probabilities in [0, 1) (in (0, 1) for ``"log"``); ``None``: 0, 0.01,
        ..., 0.99 (from 0.01 for ``"log"``).
    scale : {"quadratic", "log"}, default="quadratic"
        The rescaling ``phi``.
    inclusive : bool, default=False
        Treat iff ``score >= t`` instead of ``score > t``.

    Returns
    -------
    pandas.DataFrame
        Columns ``threshold, x, net_benefit, treat_all, treat_none``, one row per threshold.

    Raises
    ------
    UserError
        As :func:`net_benefit`, for an unknown ``scale``, or a threshold of 0 with ``"log"``.

    See Also
    --------
    decision_curve : Against ``t`` itself.
    threshold_choice.metrics.bounded_brier_score : Twice the area on the quadratic scale.

    Examples
    --------
    >>> from threshold_choice import rescaled_decision_curve
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> rescaled_decision_curve(y, s, [0.1, 0.5], scale="log").round(4)
       threshold       x  net_benefit  treat_all  treat_none
    0        0.1 -2.3026       0.4583     0.4444         0.0
    1        0.5 -0.6931       0.2500     0.0000         0.0
    """
    if thresholds is None:
        thresholds = DEFAULT_THRESHOLDS[1:] if scale == "log" else DEFAULT_THRESHOLDS
    if scale not in RESCALINGS:
        raise UserError(f"scale must be one of {', '.join(RESCALINGS)}, got {scale!r} "
                        "(decision_curve is the curve against t itself)")
    x = rescale_thresholds(thresholds, scale)
    curve = decision_curve(y, s, thresholds, inclusive=inclusive)
    curve.insert(1, "x", x)
    return curve


def _range(low: float, high: float) -> tuple[float, float]:
    message = (f"the threshold range needs numbers 0 <= low < high < 1, got low={low!r}, "
               f"high={high!r}")
    try:
        a, b = float(low), float(high)
    except (TypeError, ValueError):
        raise UserError(message) from None
    if not 0.0 <= a < b < 1.0:  # NaN too
        raise UserError(message)
    return a, b


def _odds_integral(lo: FloatArray, hi: FloatArray) -> FloatArray:
    """``integral_lo^hi t/(1 - t) dt = ln((1 - lo)/(1 - hi)) - (hi - lo)``, in a form that
    stays accurate for narrow intervals."""
    width = hi - lo
    return np.log1p(width / (1.0 - hi)) - width


def average_net_benefit(y: ArrayLike, s: ArrayLike, low: float, high: float) -> float:
    """Exact mean of ``NB(t)`` over ``t`` uniform on ``[low, high]`` (``0 <= low < high < 1``):
    a sum over the scores inside the range, no grid. Ties at a threshold do not matter."""
    a, b = _range(low, high)
    lines = _probability_lines(y, s)
    u = lines.scores
    edges = np.concatenate(([a], u[(u > a) & (u < b)], [b]))
    tp, fp = _treated(lines, lines.line_index(edges[:-1]))  # constant on each piece
    total = tp @ np.diff(edges) - fp @ _odds_integral(edges[:-1], edges[1:])
    return float(total / (b - a))


def average_treat_all_net_benefit(pi1: float, low: float, high: float) -> float:
    """Exact mean net benefit of treating everyone over ``t`` uniform on ``[low, high]``."""
    a, b = _range(low, high)
    check_unit("pi1, the class-1 proportion", pi1)
    odds = _odds_integral(np.array([a]), np.array([b]))[0]
    return float(pi1 - (1.0 - pi1) * odds / (b - a))


def expected_net_benefit(
    sel: Selection, gamma: float, thresholds: ArrayLike, *, pi1: float
) -> FloatArray:
    """Compute the decision curve of a threshold choice method given an uncertain threshold.

    The method is given ``c_hat ~ Beta(gamma t + 1, gamma (1 - t) + 1)`` instead of the
    threshold probability ``t``: ``E[NB](t) = pi1 - K(t) / (2 (1 - t))``, ``K`` its expected
    cost curve (Thm 4.6 of paper 002 with its regret ``Q/2``). Score-driven at
    ``gamma = inf`` is :func:`net_benefit`; test-optimal gives the net benefit of the best
    threshold at each ``t``.

    Parameters
    ----------
    sel : Selection
        A method on the test cost lines (see
        :func:`~threshold_choice.methods.make_selection`).
    gamma : float
        How certain ``c_hat`` is about ``t``, in ``[0, inf]``.
    thresholds : array-like of float
        Threshold probabilities ``t`` in [0, 1).
    pi1 : float
        The class-1 (event) proportion of the test cost lines.

    Returns
    -------
    ndarray
        ``E[NB](t)`` at each threshold.

    Raises
    ------
    UserError
        For a threshold outside [0, 1) or a negative gamma.

    See Also
    --------
    net_benefit : The plain net benefit.
    threshold_choice.expected_cost_curve : ``K``.

    Examples
    --------
    >>> import math
    >>> from threshold_choice import CostLines, expected_net_benefit, make_selection
    >>> lines = CostLines.from_scores([0, 0, 1, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> t = [0.1, 0.35, 0.5]
    >>> sel = make_selection("score-driven", lines)
    >>> expected_net_benefit(sel, math.inf, t, pi1=lines.pi1).round(4).tolist()  # DCA
    [0.4583, 0.2404, 0.25]
    >>> expected_net_benefit(sel, 0.0, t, pi1=lines.pi1).round(4).tolist()  # t unknown
    [0.3104, 0.2303, 0.1438]
    """
    t = _thresholds(thresholds)
    return pi1 - expected_cost_curve(sel, gamma, t) / (2.0 * (1.0 - t))
