"""The F-measure context (Flach, *Classification in context*, Sect. 4; paper ``004``).

The F-measure's positive class is **class 0**, as in that paper (and Hand 2009): scores
estimate P(class 1), so low scores point to the positive class, and a threshold ``t``
predicts 0 (positive) iff ``score <= t``. Cost line ``j`` of :class:`CostLines` (the ``j``
lowest distinct scores predicted 0) then has the counts

``TP = n0_le[j]`` (class 0 predicted 0), ``FP = n1_le[j]`` (class 1 predicted 0),
``FN = n0 - n0_le[j]`` (class 0 predicted 1).

With weight 1 for a true positive and weights ``2c`` and ``2(1 - c)`` for a false negative and
a false positive (``b = 2``), the F-measure loss is (eq. 18)

``FQ(t; c) = (c FN + (1 - c) FP) / (TP + c FN + (1 - c) FP)``,  ``FQ(t; 1/2) = 1 - F1``,

and its odds-like transform is linear in ``c`` (eq. 22):

``2 FQ / (1 - FQ) = 2c FN/TP + 2(1 - c) FP/TP = 2c G_x + 2(1 - c) G_y``,

``G_x = 1/recall - 1``, ``G_y = 1/precision - 1`` (the FROC coordinates). These *F-cost
lines* are the accuracy cost lines divided by ``TP / n``, so every threshold choice method
selects among them exactly as among the accuracy lines: :class:`FCostLines` is a
:class:`CostLines` with these heights and with the lower envelope of the F-cost lines, and
:func:`threshold_choice.methods.make_selection` accepts it unchanged. Expected values are
``L_F = integral w(c) E[2FQ/(1 - FQ) | c] dc``, by the expected-loss engine.

**Infinite lines.** A threshold with ``TP = 0`` (all predicted 1, or only class-1 examples
predicted 0) has ``F1 = 0`` and ``2FQ/(1 - FQ) = inf`` at every ``c > 0``. A method that
selects such a line with positive probability has an infinite expected value: score-driven
whenever ``c_hat`` can fall below the lowest class-0 score, rate-driven always (rates below
the first one mix in the all-1 line), with ``c`` uniform or at any finite ``gamma``;
test-optimal never at ``c > 0``; train-optimal when a training threshold leaves the test set
without true positives. The engine multiplies line heights by probabilities, and ``inf * 0``
would be NaN on a segment of probability zero, so :func:`expected_f_loss` splits a selection
into its finite part and the indicator of its infinite lines, and evaluates both with the
engine (passing every option through, whatever weighting of ``c`` it supports).

**Interpolated lines.** Rate-driven realises an unattainable rate by choosing one of two
adjacent lines at random (probabilities linear in the rate); its value is the mixture of the
two lines' ``2FQ/(1 - FQ)``, as for accuracy.

The test-optimal lines are the ROC convex hull vertices with ``TP > 0`` (the map from ROC to
FROC space is projective, so it keeps convex position); only the costs at which they take
over differ from the accuracy ones (on calibrated scores the F-optimal threshold is at
least the accuracy-optimal one, :func:`f_optimal_threshold`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from threshold_choice._typing import FloatArray
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.expected_loss import expected_cost_curve, expected_loss
from threshold_choice.methods import ArgminRule, Selection

if TYPE_CHECKING:
    import pandas

#: the losses the expected-loss functions and the ``loss`` command know
LOSSES: tuple[str, ...] = ("accuracy", "f-measure")

# a height no line reaches, for lines that a point selection must never pick (TP = 0):
# finite, so that ArgminRule's slope (right - left) is 0 rather than inf - inf
_NEVER = float(np.finfo(np.float64).max)


class FCostLines(CostLines):
    """The F-cost lines ``2FQ/(1 - FQ)`` of labelled scores.

    The F-measure's positive class is class 0 (a threshold predicts it iff ``score <= t``),
    so line ``j`` has ``TP = n0_le[j]``, ``FP = n1_le[j]``, ``FN = n0 - n0_le[j]``, and its
    F-cost ``2FQ/(1 - FQ) = 2c FN/TP + 2(1 - c) FP/TP`` is linear in the cost proportion
    ``c`` (see the module docstring). A :class:`~threshold_choice.costlines.CostLines` with
    these heights: :func:`~threshold_choice.methods.make_selection` takes it unchanged, and
    every method selects among F-cost lines as among accuracy lines. Build with
    ``FCostLines.from_scores(y, s)``.

    Parameters
    ----------
    scores, n0_le, n1_le, n0, n1, prior : see CostLines
        The counts behind the lines, as :class:`~threshold_choice.costlines.CostLines`
        holds them (``prior`` is not used by the F-cost heights).

    Attributes
    ----------
    left : ndarray of shape (m + 1,)
        Height at ``c = 0``: ``2 FP/TP = 2 G_y`` (``inf`` where ``TP = 0``).
    right : ndarray of shape (m + 1,)
        Height at ``c = 1``: ``2 FN/TP = 2 G_x`` (``inf`` where ``TP = 0``).
    slope : ndarray of shape (m + 1,)
        ``right - left``, 0 where ``TP = 0``.
    finite : ndarray of bool
        The lines with ``TP > 0``.
    pav_blocks : tuple of ndarray
        The lower envelope of the F-cost lines as ``(ends, values)``, in the format the
        optimal methods read (not a calibration here).

    See Also
    --------
    expected_f_loss : The expected F-cost of a method.
    froc_points : The same lines as points of FROC space.

    Examples
    --------
    >>> from threshold_choice import FCostLines
    >>> lines = FCostLines.from_scores([0, 0, 1, 0, 1, 1, 0, 1],
    ...                                [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> lines.finite.tolist()  # line 0 predicts everything 1: no true positive
    [False, True, True, True, True, True, True, True, True]
    >>> [round(v, 4) for v in lines.left.tolist()]  # 2 FP/TP
    [inf, 0.0, 0.0, 1.0, 0.6667, 1.3333, 1.0, 1.5, 2.0]
    >>> [round(v, 4) for v in lines.right.tolist()]  # 2 FN/TP
    [inf, 6.0, 2.0, 2.0, 0.6667, 0.6667, 0.0, 0.0, 0.0]
    """

    @cached_property
    def finite(self) -> NDArray[np.bool_]:
        """Lines with ``TP > 0`` (finite F-cost)."""
        return self.n0_le > 0

    def _per_tp(self, count: NDArray[np.int64]) -> FloatArray:
        out = np.full(count.size, np.inf)
        np.divide(2.0 * count, self.n0_le, out=out, where=self.finite)
        return out

    @cached_property
    def left(self) -> FloatArray:  # type: ignore[override]
        """Height at ``c = 0``: ``2 FP/TP``."""
        return self._per_tp(self.n1_le)

    @cached_property
    def right(self) -> FloatArray:  # type: ignore[override]
        """Height at ``c = 1``: ``2 FN/TP``."""
        return self._per_tp(self.n0 - self.n0_le)

    @property
    def slope(self) -> FloatArray:
        out = np.zeros(self.finite.size)
        np.subtract(self.right, self.left, out=out, where=self.finite)
        return out

    @cached_property
    def pav_blocks(self) -> tuple[NDArray[np.intp], FloatArray]:  # type: ignore[override]
        """The lower envelope of the F-cost lines as ``(ends, values)``: the optimal method
        uses line 0 for ``c <= values[0]`` and line ``ends[b]`` for
        ``values[b] < c <= values[b + 1]`` (``values[-1]`` up to 1).

        The lines are the vertices of the ROC convex hull (the accuracy PAV block ends, all
        with ``TP > 0``); line 0 (``TP = 0``, infinite) only at ``c <= 0``. Consecutive lines
        ``a < b`` cross at ``c = (FP_b TP_a - FP_a TP_b) / (FP_b TP_a - FP_a TP_b + FN_a TP_b
        - FN_b TP_a)``, computed from integer counts (one rounding).
        """
        ends, _ = CostLines.pav_blocks.func(self)  # the ROC hull vertices
        tp = self.n0_le[ends].astype(np.int64)
        fp = self.n1_le[ends].astype(np.int64)
        fn = self.n0 - tp
        a, b = slice(None, -1), slice(1, None)
        num = fp[b] * tp[a] - fp[a] * tp[b]
        den = num + fn[a] * tp[b] - fn[b] * tp[a]
        # den > 0 between distinct hull vertices; the running maximum guards the order
        cross = np.maximum.accumulate(num / den) if ends.size > 1 else np.empty(0)
        values = np.concatenate(([0.0], cross))
        return ends, values


# -- expected values with infinite lines --------------------------------------------------------


def _split_infinite(sel: Selection) -> tuple[Selection, Selection | None, NDArray[np.bool_]]:
    """``(finite part, indicator of the infinite lines or None, infinite segments)``.

    The finite part is ``sel`` with the infinite lines' losses set to 0; the indicator is 1
    where ``sel`` picks an infinite line (on an interpolated segment: where either line is
    infinite, since the infinite one then has positive weight on the whole segment) and 0
    elsewhere. Both keep ``sel``'s segments and point-selection rule.
    """
    bad = ~np.all(np.isfinite(sel.coef), axis=1)
    rule = sel.argmin
    if not bad.any() and (rule is None or _finite_rule(rule)):
        return sel, None, bad
    finite_coef = np.where(bad[:, None], 0.0, sel.coef)
    indicator_coef = np.zeros_like(sel.coef)
    indicator_coef[bad, 0] = 1.0
    finite_rule = indicator_rule = None
    if rule is not None:
        never = ~(np.isfinite(rule.select_left) & np.isfinite(rule.select_right))
        select_left = np.where(never, _NEVER, rule.select_left)
        select_right = np.where(never, _NEVER, rule.select_right)
        bad_eval = ~(np.isfinite(rule.eval_left) & np.isfinite(rule.eval_slope))
        finite_rule = ArgminRule(
            select_left,
            select_right,
            np.where(bad_eval, 0.0, rule.eval_left),
            np.where(bad_eval, 0.0, rule.eval_slope),
        )
        zeros = np.zeros(bad_eval.size)
        indicator_rule = ArgminRule(select_left, select_right, bad_eval.astype(np.float64), zeros)
    finite = replace(sel, coef=finite_coef, argmin=finite_rule)
    indicator = replace(sel, coef=indicator_coef, argmin=indicator_rule)
    return finite, indicator, bad


def _finite_rule(rule: ArgminRule) -> bool:
    parts = (rule.select_left, rule.select_right, rule.eval_left, rule.eval_slope)
    return all(bool(np.all(np.isfinite(p))) for p in parts)


def _infinite_with_full_support(sel: Selection, bad: NDArray[np.bool_], gamma: float) -> bool:
    """At finite ``gamma`` (``c_hat`` has a positive density on (0, 1) whatever ``c``), an
    infinite segment of positive width in ``c_hat`` has positive probability; decided from
    the break points, so no rounding of a tiny probability can hide it."""
    if math.isinf(0.0 if sel.ignores_c_hat else gamma):
        return False
    edges = np.concatenate(([0.0], np.clip(sel.breaks, 0.0, 1.0), [1.0]))
    return bool(np.any(np.diff(edges)[bad] > 0))


def expected_f_loss(sel: Selection, gamma: float, **options: Any) -> float:
    """Compute the expected F-cost ``L_F`` of a method at certainty ``gamma``.

    ``L_F = integral w(c) E[2FQ/(1 - FQ) | c] dc``, ``FQ`` the F-measure loss with class 0
    positive (``FQ(t; 1/2) = 1 - F1``). A line with ``TP = 0`` has an infinite F-cost, so a
    method that picks one with positive probability has ``L_F = inf``: score-driven whenever
    ``c_hat`` can fall below the lowest class-0 score, rate-driven always (at any finite
    gamma, or with ``c`` uniform).

    Parameters
    ----------
    sel : Selection
        The method applied to F-cost lines (:func:`~threshold_choice.methods.make_selection`
        on :class:`FCostLines`).
    gamma : float
        The certainty, ``0 <= gamma <= inf``.
    **options
        Passed to :func:`threshold_choice.expected_loss.expected_loss` unchanged
        (``estimator``, ``grid_size``, ``seed``, ``c_hat``, ``distribution``).

    Returns
    -------
    float
        ``L_F``, or ``inf``.

    Raises
    ------
    UserError
        As :func:`threshold_choice.expected_loss.expected_loss`.

    See Also
    --------
    threshold_choice.expected_losses : With ``loss_function="f-measure"``, from labels and
        scores.

    Examples
    --------
    >>> import math
    >>> from threshold_choice import FCostLines, expected_f_loss, make_selection
    >>> lines = FCostLines.from_scores([0, 0, 1, 0, 1, 1, 0, 1],
    ...                                [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> round(expected_f_loss(make_selection("test-optimal", lines), math.inf), 6)
    0.333333
    >>> expected_f_loss(make_selection("score-driven", lines), math.inf)  # c_hat < 0.1
    inf
    """
    finite, indicator, bad = _split_infinite(sel)
    value = expected_loss(finite, gamma, **options)
    if indicator is None:
        return value
    pointwise = options.get("estimator", "exact") == "montecarlo"
    if not pointwise and _infinite_with_full_support(sel, bad, gamma):
        return math.inf
    # at gamma = inf (or for sampled c_hat) the engine weighs the infinite segments
    if expected_loss(indicator, gamma, **options) > 0.0:
        return math.inf
    return value


def expected_f_cost_curve(sel: Selection, gamma: float, c: ArrayLike) -> FloatArray:
    """``K_F(c) = E[2FQ/(1 - FQ) | c]`` at each true cost in ``c`` (``inf`` where an
    infinite line has positive probability)."""
    finite, indicator, bad = _split_infinite(sel)
    curve = expected_cost_curve(finite, gamma, c)
    if indicator is None:
        return curve
    if _infinite_with_full_support(sel, bad, gamma):
        return np.full_like(curve, np.inf)
    return np.where(expected_cost_curve(indicator, gamma, c) > 0.0, np.inf, curve)


LinesBuilder = Callable[..., CostLines]
Evaluator = Callable[..., float]


def loss_context(
    loss_function: str, tie_breaking: str = "project"
) -> tuple[LinesBuilder, Evaluator]:
    """``(cost-line builder, expected-loss function)`` of a loss (one of :data:`LOSSES`)."""
    if loss_function == "accuracy":
        return CostLines.from_scores, expected_loss
    if loss_function == "f-measure":
        if tie_breaking != "project":
            raise UserError(
                "tie_breaking 'authors' reproduces the authors' accuracy-based code; use "
                "'project' with the f-measure loss"
            )
        return FCostLines.from_scores, expected_f_loss
    raise UserError(f"unknown loss {loss_function!r}; choose from {', '.join(LOSSES)}")


# -- the FROC curve ----------------------------------------------------------------------------


def froc_points(y: ArrayLike, s: ArrayLike) -> pandas.DataFrame:
    """The points of the FROC curve (paper 004, Fig. 2 right), one per threshold with
    ``TP > 0``: columns ``threshold`` (predict 0 iff score <= threshold; ``inf``: all 0),
    ``tp, fp, fn``, ``G_x = FN/TP = 1/recall - 1``, ``G_y = FP/TP = 1/precision - 1``,
    ``F1 = 2TP / (2TP + FP + FN)`` and ``on_hull`` (vertex of the FROC convex hull, i.e. the
    F-optimal threshold for some ``c``). The F-measure isometrics are the lines
    ``G_x + G_y = 2/F1 - 2``; the all-positive point is ``(0, n1/n0)``."""
    import pandas as pd  # here: the command line's parsers import this module

    lines = FCostLines.from_scores(y, s)
    keep = lines.finite
    tp = lines.n0_le[keep]
    fp = lines.n1_le[keep]
    fn = lines.n0 - tp
    ends, _ = lines.pav_blocks
    on_hull = np.zeros(lines.n0_le.size, dtype=bool)
    on_hull[ends] = True
    return pd.DataFrame(
        {
            "threshold": lines.thresholds[keep],
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "G_x": fn / tp,
            "G_y": fp / tp,
            "F1": 2.0 * tp / (2.0 * tp + fp + fn),
            "on_hull": on_hull[keep],
        }
    )


# -- isometrics and the F-optimal threshold of a calibrated model (paper 004, Sect. 4.1-4.2) --
#
# In paper 004's ROC space the x-axis is F_1 (the rate of class 1 predicted 0, the positive
# class) and the y-axis F_0 (the rate of class 0 predicted 0), pi the proportion of class 0.


def accuracy_isometric(q: float, pi: float, c: float, b: float = 2.0) -> tuple[float, float]:
    """Return the accuracy-loss isometric ``Q = q`` in paper 004's ROC space.

    The points ``(F_1, F_0)`` (x: the rate of class 1 predicted 0, the positive class; y: the
    rate of class 0 predicted 0) of loss ``Q = b (c pi (1 - F_0) + (1 - c)(1 - pi) F_1) = q``
    (Eq. 13) lie on ``F_0 = slope F_1 + intercept`` (Eq. 14), of slope
    ``(1 - pi)/pi (1 - c)/c`` whatever ``q``.

    Parameters
    ----------
    q : float
        The loss of the isometric.
    pi : float
        The proportion of class 0, in (0, 1).
    c : float
        The cost proportion (of a false negative of class 0), in (0, 1).
    b : float, default=2.0
        The scale of the loss (the two costs sum to ``b``).

    Returns
    -------
    tuple of float
        ``(slope, intercept)``.

    See Also
    --------
    f_isometric : The F-measure's isometrics, which rotate with ``q``.

    Examples
    --------
    >>> from threshold_choice import accuracy_isometric
    >>> accuracy_isometric(0.0, 0.1, 0.5)  # through ROC heaven (0, 1)
    (9.0, 1.0)
    """
    return (1.0 - pi) / pi * (1.0 - c) / c, 1.0 - (q / b) / (c * pi)


def f_isometric(q: float, pi: float, c: float = 0.5) -> tuple[float, float]:
    """Return the F-measure-loss isometric ``FQ = q`` in paper 004's ROC space.

    The points ``(F_1, F_0)`` (axes as :func:`accuracy_isometric`) of F-measure loss
    ``FQ = q`` (Eq. 18; ``FQ = 1 - F1`` at ``c = 1/2``) lie on
    ``F_0 = slope F_1 + intercept`` (Eq. 19). The slope falls with ``q``: the isometrics
    pivot on ``(F_1, F_0) = (-c pi / ((1 - c)(1 - pi)), 0)`` (at ``c = 1/2`` the paper's
    ``(-pi/(1 - pi), 0)``), and none is steeper than the accuracy isometric of the same ``c``,
    equal at ``q = 0`` only.

    Parameters
    ----------
    q : float
        The F-measure loss of the isometric, in [0, 1).
    pi : float
        The proportion of class 0 (the positive class), in (0, 1).
    c : float, default=0.5
        The cost proportion of a false negative, in (0, 1).

    Returns
    -------
    tuple of float
        ``(slope, intercept)``.

    See Also
    --------
    accuracy_isometric : The accuracy loss's parallel isometrics.

    Examples
    --------
    >>> from threshold_choice import f_isometric
    >>> slope, intercept = f_isometric(0.2, 0.1)  # F1 = 0.8, 10% positives
    >>> round(slope, 6), round(intercept, 6)
    (6.0, 0.666667)
    >>> round(slope * (-0.1 / 0.9) + intercept, 12)  # through the pivot (-1/9, 0)
    0.0
    """
    denominator = c + (1.0 - c) * q
    return ((1.0 - pi) / pi * (1.0 - c) * (1.0 - q) / denominator,
            c * (1.0 - q) / denominator)


def f_optimal_threshold(
    y: ArrayLike, s: ArrayLike, c: float = 0.5, *, calibrate: bool = True
) -> float:
    """Return the F-optimal threshold of a calibrated model (paper 004, Eq. 27).

    The fixed point

    ``t_F = (c pi + (1 - c)(1 - pi) F_1(t_F)) / (c pi + (1 - c)(pi F_0(t_F) + (1 - pi) F_1(t_F)))``

    (``F_k(t)`` the rate of class ``k`` with score ``<= t``, predicted 0: the positive class
    here, as in the module docstring; ``pi`` the proportion of class 0). The right-hand side
    at the cut that predicts 0 the scores ``<= t`` is the calibrated score below which one
    more block of examples lowers ``FQ``; on calibrated scores exactly one cut holds its own
    value, and it minimises ``FQ(t; c)``. Accuracy's optimal threshold is ``t_A = c``, and
    ``t_F - c = (1 - c) N / (N + TP) >= 0`` (``N`` the numerator of ``FQ``): the F-optimal
    threshold predicts the positive class at least as often -- to the right of accuracy's in
    ROC space, not to the left as paper 004's text has it (docs/paper-notes.md).

    Parameters
    ----------
    y : array-like of {0, 1}
        Labels.
    s : array-like of float
        Scores estimating P(class 1).
    c : float, default=0.5
        The cost proportion of a false negative (of class 0), in (0, 1); 1/2: the F1 score.
    calibrate : bool, default=True
        Calibrate the scores first (PAV, :func:`~threshold_choice.pav_calibrated`); with
        ``False`` they are taken as calibrated.

    Returns
    -------
    float
        ``t_F``: predict 0 iff the (calibrated) score is ``<= t_F``.

    Raises
    ------
    UserError
        For ``c`` outside (0, 1), a single class, or (``calibrate=False``) scores on which
        Eq. 27 has no single fixed point.

    See Also
    --------
    f_isometric : The isometrics whose tangent point this is.

    Examples
    --------
    >>> from threshold_choice import f_optimal_threshold
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> f_optimal_threshold(y, s, 0.5)  # accuracy's would be 0.5
    0.6
    """
    from threshold_choice.score_transforms import pav_calibrated

    if not 0.0 < c < 1.0:
        raise UserError(f"c must be in (0, 1), got {c}")
    y_arr = np.asarray(y)
    lines = CostLines.from_scores(y_arr, pav_calibrated(y_arr, s) if calibrate else s)
    if lines.n0 == 0 or lines.n1 == 0:
        raise UserError("the F-optimal threshold needs examples of both classes")
    pi = lines.n0 / lines.n
    f0, f1 = lines.n0_le / lines.n0, lines.n1_le / lines.n1
    tau = (c * pi + (1.0 - c) * (1.0 - pi) * f1) / (
        c * pi + (1.0 - c) * (pi * f0 + (1.0 - pi) * f1))
    # cut j predicts 0 the j lowest distinct scores: thresholds in [u_(j-1), u_j)
    low = np.concatenate(([-np.inf], lines.scores))
    high = np.concatenate((lines.scores, [np.inf]))
    fixed = np.flatnonzero((low <= tau) & (tau < high))
    if fixed.size > 1 and np.ptp(tau[fixed]) <= 1e-12 * max(1.0, float(np.abs(tau[fixed]).max())):
        # cuts that tie for the best F: Eq. 27 gives their common score on both sides of it,
        # up to rounding; the lower threshold, as at the project's other ties
        fixed = fixed[:1]
    if fixed.size != 1:
        raise UserError(
            f"the scores have {fixed.size} fixed points of Eq. 27 (one when they are "
            "calibrated): pass calibrate=True")
    return float(tau[fixed[0]])
