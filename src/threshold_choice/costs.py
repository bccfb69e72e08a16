"""Misclassification costs in the user's own terms, and the cost proportion ``c`` they give.

The package measures an operating condition by the cost proportion ``c`` of an error on class
0, the two costs normalised to sum to ``b = 2`` (the paper's convention): the loss of a
threshold ``t`` is ``Q(t; c) = 2 (c pi0 FP0(t) + (1 - c) pi1 FN1(t))``. A practitioner
usually knows the costs instead: "a missed cancer costs 4 times a false alarm". With the
*positive* class ``pos_label`` being class 1 (the class whose probability the score
estimates), an error on class 0 is a *false positive* and an error on class 1 a *false
negative*, so

``c = C_FP / (C_FP + C_FN)``, and a loss on the paper's scale is ``(C_FP + C_FN) / 2``
times a cost per example in the user's units.

With a cost matrix whose diagonal (the cost of a correct decision) is not zero, only the
differences ``C_FP - C_TN`` and ``C_FN - C_TP`` change decisions (Elkan, 2001): losses in
units are then the cost per example *above* that of a classifier that is always right.

Under an uncertain ``c`` (a belief ``w`` and a noisy ``c_hat``) the sum ``C_FP + C_FN`` is
held fixed, as the paper holds ``b`` fixed, while the proportion varies. A :class:`Costs` may
carry that belief (``belief=``): :meth:`Costs.from_ratio_range` builds it from "a false
negative costs 3 to 10 times a false positive", and every function that takes ``costs=``
(scorers, :func:`~threshold_choice.bootstrap.bootstrap`, the classifier) then averages over it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from threshold_choice.cost_distributions import CostDistribution, parse_cost_distribution
from threshold_choice.errors import UserError


def _cost(name: str, value: Any) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise UserError(f"{name} must be a number >= 0, got {value!r}") from None
    if not (math.isfinite(x) and x >= 0.0):
        raise UserError(f"{name} must be a finite number >= 0, got {value!r}")
    return x


@dataclass(frozen=True)
class Costs:
    """The cost of each kind of error, in the user's units.

    With the positive class ``pos_label`` being class 1 (the class whose probability the score
    estimates), an error on class 0 is a false positive and an error on class 1 a false
    negative, so the package's cost proportion is ``c = C_FP / (C_FP + C_FN)``, and a loss on
    its scale (``b = 2``) times ``(C_FP + C_FN) / 2`` is a cost per example in these units
    (see the module docstring).

    Parameters
    ----------
    false_positive : float
        The cost of predicting ``pos_label`` for an example of the other class (an error on
        class 0; a false alarm); a finite number >= 0.
    false_negative : float
        The cost of predicting the other class for an example of ``pos_label`` (an error on
        class 1; a miss); a finite number >= 0, not 0 together with ``false_positive``.
    pos_label : object, default=None
        The class the costs call positive (class 1, whose probability the score estimates).
        ``None``: the classifier's or the caller's; a classifier or scorer given another
        positive class refuses these costs.
    units : str, default=""
        A name for the units (``"EUR"``, ``"hours"``), used in labels.
    belief : CostDistribution, str or None, default=None
        How uncertain these costs are: a belief about ``c`` (a
        :class:`~threshold_choice.cost_distributions.CostDistribution` or its spec,
        ``"beta:4,16"``) that expected losses average over, the costs above being its point
        value (the ``c_hat`` a classifier is given). ``None``: no belief of their own (the
        caller's settings say which). :meth:`from_ratio_range` builds one from a range of
        cost ratios.

    Attributes
    ----------
    cost_proportion : float
        ``c = C_FP / (C_FP + C_FN)``, the package's operating condition.
    scale : float
        ``(C_FP + C_FN) / 2``: units per unit of the paper's loss.

    Raises
    ------
    UserError
        If a cost is not a finite number >= 0, or both are 0.

    See Also
    --------
    Costs.from_matrix : The costs of a 2 x 2 cost matrix.
    Costs.from_ratio_range : "A false negative costs 3 to 10 times a false positive".
    threshold_choice.beta_from_interval : A belief about ``c`` around the cost proportion.

    Examples
    --------
    >>> from threshold_choice import Costs
    >>> costs = Costs(false_positive=1, false_negative=4, pos_label="malignant")
    >>> costs.cost_proportion
    0.2
    >>> costs.in_units(0.05)  # a loss of 0.05 on the paper's scale, per example
    0.125
    >>> print(costs)
    false positive 1, false negative 4 (positive: 'malignant'): c = 0.2
    """

    false_positive: float
    false_negative: float
    pos_label: Any = None
    units: str = ""
    belief: CostDistribution | None = None

    def __post_init__(self) -> None:
        fp = _cost("false_positive", self.false_positive)
        fn = _cost("false_negative", self.false_negative)
        if fp + fn == 0.0:
            raise UserError("false_positive and false_negative are both 0: no error costs "
                            "anything, so no threshold is better than another")
        object.__setattr__(self, "false_positive", fp)
        object.__setattr__(self, "false_negative", fn)
        if self.belief is not None:
            object.__setattr__(self, "belief", parse_cost_distribution(self.belief))

    @classmethod
    def from_ratio_range(cls, low: float, high: float, *, false_positive: float = 1.0,
                         pos_label: Any = None, units: str = "") -> Costs:
        """Costs known as a range of ratios: "a false negative costs 3 to 10 times a false
        positive".

        The ratio ``r = C_FN / C_FP`` gives ``c = 1 / (1 + r)``, so the range ``[low, high]``
        of ratios is the range ``[1 / (1 + high), 1 / (1 + low)]`` of cost proportions. The
        belief is ``logit-uniform`` on it: every ratio in the range equally likely *on a log
        scale* (as likely between 3x and 5x as between 6x and 10x, since ``logit(c) =
        -log r``), none outside. The costs' point value, the ``c_hat`` a classifier is
        given, is the belief's mean ``E[c]``: the threshold that minimises the expected cost
        under the belief (a cost is linear in ``c``). The false positive costs
        ``false_positive`` units and the false negative ``false_positive (1 - E[c]) /
        E[c]``; their sum, held fixed while ``c`` varies (the module docstring), converts
        losses into units.

        Parameters
        ----------
        low : float
            The smallest ratio ``C_FN / C_FP``, a number > 0.
        high : float
            The largest, ``high > low``.
        false_positive : float, default=1.0
            The cost of a false positive, in the units.
        pos_label : object, default=None
            The positive class (whose false negatives cost ``low`` to ``high`` times).
        units : str, default=""
            A name for the units.

        Returns
        -------
        Costs
            Costs with that ``belief`` (``logit-uniform:LO,HI``) and the point value above.

        Raises
        ------
        UserError
            Unless ``0 < low < high`` are finite numbers (within the moment tables' range,
            ratios from about ``1e-13`` to ``1e13``).

        Examples
        --------
        >>> from threshold_choice import Costs
        >>> costs = Costs.from_ratio_range(3, 10, pos_label="bad")
        >>> costs.belief.kind, [round(c, 4) for c in costs.belief.support]  # 1/11 to 1/4
        ('logit-uniform', [0.0909, 0.25])
        >>> round(costs.cost_proportion, 4), round(costs.false_negative, 2)  # E[c], 1 : 5.26
        (0.1598, 5.26)
        """
        try:
            lo, hi = float(low), float(high)
        except (TypeError, ValueError):
            raise UserError(f"a ratio range needs two numbers, got {low!r} and {high!r}") from None
        if not (math.isfinite(lo) and math.isfinite(hi) and 0.0 < lo < hi):
            raise UserError(f"a ratio range C_FN / C_FP needs 0 < low < high, got [{low}, "
                            f"{high}] (for a known ratio r use Costs(1, r))")
        belief = CostDistribution("logit-uniform", 1.0 / (1.0 + hi), 1.0 / (1.0 + lo))
        fp = _cost("false_positive", false_positive)
        if fp == 0.0:
            raise UserError("false_positive must be > 0 for a ratio of costs")
        m = belief.mean
        return cls(fp, fp * (1.0 - m) / m, pos_label, units, belief)

    @classmethod
    def from_matrix(cls, matrix: ArrayLike, labels: ArrayLike | None = None, *,
                    pos_label: Any = None, units: str = "") -> Costs:
        """Build the costs of a 2 x 2 cost matrix.

        The matrix is in scikit-learn's ``confusion_matrix`` layout: ``matrix[i][j]`` is the
        cost of predicting ``labels[j]`` for an example of ``labels[i]`` (rows: true class,
        columns: predicted class). A non-zero diagonal (the cost of a correct decision) is
        subtracted row by row: only ``C_FP - C_TN`` and ``C_FN - C_TP`` change decisions
        (Elkan, 2001), and losses in units are then costs above those of a classifier that
        is always right.

        Parameters
        ----------
        matrix : array-like of shape (2, 2)
            The costs, finite numbers >= 0; an error may not cost less than the correct
            decision for the same example.
        labels : array-like of shape (2,), default=None
            The two class labels in the matrix's order; ``None``: ``[0, 1]``.
        pos_label : object, default=None
            Which of ``labels`` is positive (class 1); ``None``: ``labels[1]``.
        units : str, default=""
            A name for the units.

        Returns
        -------
        Costs
            The costs of a false positive and a false negative; their ``pos_label`` is the
            positive class when ``labels`` or ``pos_label`` is given, else ``None``.

        Raises
        ------
        UserError
            If the matrix is not 2 x 2 of numbers >= 0, the labels are not two distinct
            labels, ``pos_label`` is not one of them, or an error costs less than the
            correct decision.

        Examples
        --------
        >>> from threshold_choice import Costs
        >>> Costs.from_matrix([[0, 1], [4, 0]]).cost_proportion  # rows: true 0, true 1
        0.2
        >>> costs = Costs.from_matrix([[1, 3], [10, 2]], labels=["no", "yes"])
        >>> costs.false_positive, costs.false_negative, costs.pos_label  # 3 - 1, 10 - 2
        (2.0, 8.0, 'yes')
        """
        m = np.asarray(matrix, dtype=object)
        if m.shape != (2, 2):
            raise UserError(f"a cost matrix is 2 x 2 (rows: true class, columns: predicted), "
                            f"got shape {m.shape}")
        values = np.array([[_cost(f"matrix[{i}][{j}]", m[i, j]) for j in range(2)]
                           for i in range(2)])
        names = [0, 1] if labels is None else list(np.asarray(labels).tolist())
        if len(names) != 2 or names[0] == names[1]:
            raise UserError(f"labels must be the two class labels of the matrix, got {names}")
        pos = names[1] if pos_label is None else pos_label
        if pos not in names:
            raise UserError(f"pos_label {pos!r} is not one of the matrix's labels {names}")
        p = names.index(pos)
        n = 1 - p
        fp = values[n, p] - values[n, n]
        fn = values[p, n] - values[p, p]
        if fp < 0 or fn < 0:
            raise UserError("the matrix makes an error cheaper than the correct decision for "
                            "the same example; check its layout (rows: true class, columns: "
                            "predicted class)")
        return cls(fp, fn, pos if labels is not None or pos_label is not None else None, units)

    @property
    def cost_proportion(self) -> float:
        """``c = C_FP / (C_FP + C_FN)``: the package's operating condition."""
        fp, fn = self.false_positive, self.false_negative
        if math.isinf(fp + fn):  # both near the largest float: their ratio, scaled
            fp, fn = fp / max(fp, fn), fn / max(fp, fn)
        return fp / (fp + fn)

    @property
    def scale(self) -> float:
        """``(C_FP + C_FN) / 2``: units per unit of the paper's loss (``b = 2``)."""
        total = self.false_positive + self.false_negative
        if math.isinf(total):  # halves first: the sum of two costs near the largest float
            return self.false_positive / 2.0 + self.false_negative / 2.0
        return total / 2.0

    def in_units(self, loss: Any) -> Any:
        """Convert a loss on the paper's scale into a cost per example in these units.

        Parameters
        ----------
        loss : float, ndarray or pandas.Series
            Losses on the package's scale (``b = 2``).

        Returns
        -------
        float, ndarray or pandas.Series
            ``loss * scale``, of the type of ``loss``.
        """
        return loss * self.scale

    def check_pos_label(self, pos_label: Any, where: str) -> Any:
        """The positive class once ``pos_label`` (of ``where``) and these costs' agree: the
        one given, or ``None`` when neither names it; a :class:`UserError` when they
        differ."""
        if self.pos_label is None:
            return pos_label
        if pos_label is not None and pos_label != self.pos_label:
            raise UserError(
                f"the costs call {self.pos_label!r} positive but {where} has pos_label "
                f"{pos_label!r}; give one positive class"
            )
        return self.pos_label

    def __str__(self) -> str:
        unit = f" {self.units}" if self.units else ""
        pos = "" if self.pos_label is None else f" (positive: {self.pos_label!r})"
        spread = "" if self.belief is None else f", belief {self.belief.spec}"
        return (f"false positive {self.false_positive:g}{unit}, false negative "
                f"{self.false_negative:g}{unit}{pos}: c = {self.cost_proportion:.4g}{spread}")


__all__ = ["Costs"]
