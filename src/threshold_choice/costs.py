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
held fixed, as the paper holds ``b`` fixed, while the proportion varies; the belief itself
comes from :func:`~threshold_choice.cost_distributions.beta_from_interval` (e.g. a belief
centred on :attr:`Costs.cost_proportion`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

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

    def __post_init__(self) -> None:
        fp = _cost("false_positive", self.false_positive)
        fn = _cost("false_negative", self.false_negative)
        if fp + fn == 0.0:
            raise UserError("false_positive and false_negative are both 0: no error costs "
                            "anything, so no threshold is better than another")
        object.__setattr__(self, "false_positive", fp)
        object.__setattr__(self, "false_negative", fn)

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
        return (f"false positive {self.false_positive:g}{unit}, false negative "
                f"{self.false_negative:g}{unit}{pos}: c = {self.cost_proportion:.4g}")


__all__ = ["Costs"]
