"""Cost lines of a set of scores.

Conventions (see the package docstring): labels in {0, 1}; a threshold ``t`` predicts class 1
iff ``score > t``; ``Q(t; c) = 2 * (c * pi0 * FP0(t) + (1 - c) * pi1 * FN1(t))`` with the class
proportions of the scored set. With distinct scores ``u_1 < ... < u_m`` there are ``m + 1``
cost lines; line ``j`` (``j = 0..m``) predicts class 0 for the ``j`` lowest distinct scores
(scores ``<= u_j``) and class 1 for the rest, so line 0 predicts everything 1 and line ``m``
everything 0. Line ``j`` is ``h_j(c) = left_j + (right_j - left_j) * c`` with
``left_j = Q(c=0) = 2 * pi1 * FN1`` and ``right_j = Q(c=1) = 2 * pi0 * FP0``.

Class-prior context (Flach, *Classification in context*, Sect. 3): with a deployment class-0
proportion ``prior`` (:meth:`CostLines.with_prior`), ``pi0, pi1`` are the deployment's and the
rates ``FP0, FN1`` the scored set's: the lines are reweighted, and so are everything built
on them (the lower envelope = the PAV calibration under the deployment prior, the predicted-0
rates of rate-driven). ``prior = 0.5`` is the skew view of that paper: ``Q = z FP0 + (1 - z)
FN1`` with the skew ``z`` in the place of ``c``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
from numpy.typing import ArrayLike, NDArray

from threshold_choice._checks import number_in
from threshold_choice._typing import FloatArray
from threshold_choice.errors import UserError


def shown_labels(values: Iterable[object]) -> str:
    """Labels as the messages show them: each one's repr, a numpy scalar's as its Python
    value's (``1``, not ``np.int64(1)``), joined by commas."""
    return ", ".join(repr(_plain(v)) for v in values)


def _plain(value: object) -> object:
    """A numpy scalar as its Python value; anything else as it is."""
    return value.item() if isinstance(value, np.generic) else value


def label_problem(y: NDArray, what: str, option: str | None = None) -> str:
    """The message for labels that are not 0/1: with two classes, the fix that names one of
    them class 1 (the later in sorted order, as scikit-learn's ``classes_[1]``): ``y ==
    label``, or ``option`` (e.g. ``"pos_label"``) where the caller takes one."""
    try:
        values = np.unique(y)
    except TypeError:  # labels of mixed types: shown as text
        values = np.unique(y.astype(str))
    if values.size != 2:
        more = ", ..." if values.size > 5 else ""
        return (f"{what}: labels must be 0 or 1 (two classes), got {values.size} values: "
                f"{shown_labels(values[:5])}{more}")
    first, pos = (_plain(v) for v in values)
    fix = f"{option}={pos!r} or y == {pos!r}" if option else f"y == {pos!r}"
    return (f"{what}: labels must be 0 or 1, got {first!r} and {pos!r}: pass {fix} (class 1 "
            "is the class the score estimates)")


def binary_labels(y: ArrayLike, pos_label: object, what: str) -> NDArray[np.int8] | NDArray:
    """``y`` as 0/1 labels with ``pos_label`` the class 1 (scikit-learn's convention): ``y ==
    pos_label`` after checking that ``y`` has at most two labels, one of them ``pos_label``;
    with ``pos_label=None``, ``y`` itself, whose labels must be 0/1 (the message names
    ``pos_label``)."""
    y_arr = np.asarray(y)
    if pos_label is None:
        try:
            ok = bool(np.all((y_arr == 0) | (y_arr == 1)))
        except (TypeError, ValueError):
            ok = False
        if not ok and y_arr.ndim == 1 and y_arr.size:
            raise UserError(label_problem(y_arr, what, "pos_label"))
        return y_arr
    values = np.unique(y_arr.astype(str)) if y_arr.dtype == object else np.unique(y_arr)
    if not np.any(y_arr == pos_label):
        raise UserError(f"{what}: no label is pos_label={pos_label!r}; the labels are "
                        f"{shown_labels(values[:5])}")
    if values.size > 2:
        raise UserError(f"{what}: {values.size} labels; pos_label needs two classes (give "
                        "y == label for one against the rest)")
    return (y_arr == pos_label).astype(np.int8)


def validate_scores(
    y: ArrayLike, s: ArrayLike, *, what: str = "scores"
) -> tuple[NDArray[np.int8], FloatArray]:
    """Check labels and scores and return them as arrays (``int8`` labels, ``float64`` scores).

    Raises :class:`UserError` for empty input, mismatched lengths, labels outside {0, 1},
    non-finite scores, or a single class (the cost lines need both classes).
    """
    y_arr = np.asarray(y)
    s_raw = np.asarray(s)
    if np.iscomplexobj(s_raw):  # a float conversion would drop the imaginary parts
        raise UserError(f"{what}: scores are complex numbers; give real scores")
    try:
        s_arr = np.asarray(s_raw, dtype=np.float64)
    except (TypeError, ValueError):
        raise UserError(f"{what}: scores must be real numbers") from None
    if y_arr.ndim != 1 or s_arr.ndim != 1:
        raise UserError(f"{what}: labels and scores must be one-dimensional")
    if y_arr.size == 0:
        raise UserError(f"{what}: no examples; give at least one example of each class")
    if y_arr.size != s_arr.size:
        raise UserError(f"{what}: {y_arr.size} labels but {s_arr.size} scores")
    if not np.all(np.isfinite(s_arr)):
        bad = int(np.sum(~np.isfinite(s_arr)))
        raise UserError(f"{what}: {bad} scores are NaN or infinite; remove or impute them")
    try:
        y_num = y_arr.astype(np.float64)
    except (TypeError, ValueError):
        raise UserError(label_problem(y_arr, what)) from None
    if not np.all((y_num == 0) | (y_num == 1)):
        raise UserError(label_problem(y_arr, what))
    y_int = y_num.astype(np.int8)
    n1 = int(y_int.sum())
    if n1 == 0 or n1 == y_int.size:
        only = 1 if n1 else 0
        raise UserError(
            f"{what}: only class {only} is present; cost lines and the expected losses need "
            "examples of both classes (use a stratified split)"
        )
    return y_int, s_arr


#: the least deployment class proportion (and 1 minus the largest): below it an example's
#: weight, ``prior / n0``, is lost in rounding when added to rates near 1/2 (for 10^7 examples,
#: 1e-6 / 10^7 is still 1000 times the rounding of 1/2), and the lines' segments vanish
MIN_PRIOR = 1e-6


def check_prior(prior: float) -> float:
    """A deployment class-0 proportion: a number in [:data:`MIN_PRIOR`, 1 - MIN_PRIOR]."""
    return number_in(prior, "the prior (deployment class-0 proportion)", MIN_PRIOR,
                     1.0 - MIN_PRIOR, closed="both",
                     allowed=f"(0, 1), at least {MIN_PRIOR:g} from either end")


@dataclass(frozen=True)
class CostLines:
    """The ``m + 1`` cost lines of labelled scores, with the counts behind them.

    With distinct scores ``u_1 < ... < u_m``, line ``j`` (``j = 0..m``) predicts class 0 for
    the scores ``<= u_j`` and class 1 for the rest (line 0: everything 1; line ``m``:
    everything 0). Its loss at the cost proportion ``c`` (of an error on class 0) is
    ``h_j(c) = 2 * (c * pi0 * FP0_j + (1 - c) * pi1 * FN1_j)`` (``b = 2``), a line from
    ``left[j] = 2 * pi1 * FN1_j`` at ``c = 0`` to ``right[j] = 2 * pi0 * FP0_j`` at
    ``c = 1``; ``pi0, pi1`` are the scored set's class proportions unless a deployment
    ``prior`` is set. Build with :meth:`from_scores`.

    Parameters
    ----------
    scores : ndarray of shape (m,)
        The distinct scores ``u_1 < ... < u_m``.
    n0_le : ndarray of shape (m + 1,)
        ``n0_le[j]``: the number of class-0 examples with score ``<= u_j`` (the ones line
        ``j`` predicts correctly); ``n0_le[0] = 0``, ``n0_le[m] = n0``.
    n1_le : ndarray of shape (m + 1,)
        ``n1_le[j]``: the number of class-1 examples with score ``<= u_j`` (the errors of
        line ``j`` on class 1); ``n1_le[0] = 0``, ``n1_le[m] = n1``.
    n0 : int
        The number of class-0 examples.
    n1 : int
        The number of class-1 examples.
    prior : float or None, default=None
        The deployment class-0 proportion the lines are weighted with (the rates ``FP0``,
        ``FN1`` stay the scored set's); ``None``: ``n0 / n``. See :meth:`with_prior`.

    Attributes
    ----------
    n : int
        ``n0 + n1``.
    pi0, pi1 : float
        The class proportions the lines use (``prior`` and ``1 - prior`` when set).
    left : ndarray of shape (m + 1,)
        Each line's height at ``c = 0``: ``2 * pi1 * FN1``.
    right : ndarray of shape (m + 1,)
        Each line's height at ``c = 1``: ``2 * pi0 * FP0``.
    slope : ndarray of shape (m + 1,)
        ``right - left``.
    rates : ndarray of shape (m + 1,)
        The fraction of examples each line predicts 0 (0 for line 0, 1 for line ``m``),
        under the deployment prior when one is set.
    thresholds : ndarray of shape (m + 1,)
        A threshold realising each line: the midpoint between consecutive distinct scores,
        ``-inf`` for line 0 and ``inf`` for line ``m``.
    pav_blocks : tuple of ndarray
        ``(ends, values)``: the pool-adjacent-violators calibration of the scores, whose
        block ends are the lines of the lower envelope (the ROC convex hull's vertices).

    See Also
    --------
    threshold_choice.make_selection : A threshold choice method applied to cost lines.
    threshold_choice.roc_points : The same lines as points of ROC space.

    Examples
    --------
    >>> from threshold_choice import CostLines
    >>> lines = CostLines.from_scores([0, 0, 1, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> lines.n0, lines.n1, len(lines.scores)
    (4, 4, 8)
    >>> lines.left.tolist()  # 2 * pi1 * FN1 at c = 0
    [0.0, 0.0, 0.0, 0.25, 0.25, 0.5, 0.5, 0.75, 1.0]
    >>> lines.right.tolist()  # 2 * pi0 * FP0 at c = 1
    [1.0, 0.75, 0.5, 0.5, 0.25, 0.25, 0.0, 0.0, 0.0]
    >>> float(lines.height(4, 0.5))  # line 4 (scores <= 0.6 predicted 0) at c = 1/2
    0.25
    """

    scores: FloatArray
    n0_le: NDArray[np.int64]
    n1_le: NDArray[np.int64]
    n0: int
    n1: int
    prior: float | None = None

    def with_prior(self, prior: float | None) -> CostLines:
        """Return these lines under a deployment class-0 proportion.

        Parameters
        ----------
        prior : float or None
            The class-0 proportion of the deployment, in (0, 1): the lines become
            ``2 * (c * prior * FP0 + (1 - c) * (1 - prior) * FN1)`` with the scored set's
            rates. ``None``: the lines unchanged.

        Returns
        -------
        CostLines
            The reweighted lines (``self`` when ``prior`` is ``None``).

        Raises
        ------
        UserError
            If ``prior`` is not a number strictly between 0 and 1.
        """
        if prior is None:
            return self
        return replace(self, prior=check_prior(prior))

    @classmethod
    def from_scores(cls, y: ArrayLike, s: ArrayLike, *, what: str = "scores") -> CostLines:
        """Build the cost lines of labelled scores (tied scores grouped).

        Parameters
        ----------
        y : array-like of shape (n,)
            Labels, 0 or 1 (class 1: the class whose probability the score estimates);
            both classes must be present.
        s : array-like of shape (n,)
            Finite real scores (only their order and ties matter here).
        what : str, default="scores"
            How error messages name these scores (e.g. ``"test scores"``).

        Returns
        -------
        CostLines
            One line per distinct score, and one more.

        Raises
        ------
        UserError
            For empty input, mismatched lengths, labels other than 0/1, scores that are
            not finite real numbers, or a single class.
        """
        y_int, s_arr = validate_scores(y, s, what=what)
        # By sorting values, not indices: np.sort is several times faster than np.argsort
        # (and np.unique's inverse, with the bincounts it would feed, scatters at random).
        # The distinct scores are the first of each run of equal sorted scores, and the counts
        # <= each the end of its run.
        ordered = np.sort(s_arr)
        first = np.empty(ordered.size, dtype=bool)
        first[0] = True
        np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
        distinct = ordered[first]
        all_le = np.append(np.flatnonzero(first)[1:], ordered.size)
        del ordered, first
        # The class-1 counts <= each distinct score: the sorted class-1 scores merged with the
        # distinct ones by a stable sort (two sorted runs: timsort merges them in one pass,
        # 2.5 times faster than a search at 10^7), the class-1 scores first, so that distinct
        # score j lands after the j distinct scores and the class-1 scores <= it.
        ones = np.sort(s_arr[y_int.astype(bool)])
        merged = np.argsort(np.concatenate([ones, distinct]), kind="stable")
        n1_le = np.zeros(distinct.size + 1, dtype=np.int64)
        n1_le[1:] = np.flatnonzero(merged >= ones.size)
        del merged
        n1_le[1:] -= np.arange(distinct.size)
        n0_le = np.concatenate(([0], all_le - n1_le[1:]), dtype=np.int64)
        return cls(distinct, n0_le, n1_le, int(n0_le[-1]), int(n1_le[-1]))

    @property
    def n(self) -> int:
        return self.n0 + self.n1

    @property
    def pi0(self) -> float:
        return self.n0 / self.n if self.prior is None else self.prior

    @property
    def pi1(self) -> float:
        return self.n1 / self.n if self.prior is None else 1.0 - self.prior

    @cached_property
    def left(self) -> FloatArray:
        """Height of each line at ``c = 0``: ``2 * pi1 * FN1``."""
        if self.prior is None:
            return 2.0 * self.n1_le / self.n
        return 2.0 * self.pi1 * (self.n1_le / self.n1)

    @cached_property
    def right(self) -> FloatArray:
        """Height of each line at ``c = 1``: ``2 * pi0 * FP0``."""
        if self.prior is None:
            return 2.0 * (self.n0 - self.n0_le) / self.n
        return 2.0 * self.pi0 * ((self.n0 - self.n0_le) / self.n0)

    @property
    def slope(self) -> FloatArray:
        return self.right - self.left

    # (rates and thresholds are computed at each use, not kept: one method uses each, and a
    # run of many methods on 10^7 scores keeps as few arrays of that size as it can)
    @property
    def rates(self) -> FloatArray:
        """``rates[j]`` = fraction of examples predicted 0 by line ``j`` (``r_0 = 0, r_m = 1``),
        under the deployment prior when one is set."""
        if self.prior is None:
            return (self.n0_le + self.n1_le) / self.n
        return self.pi0 * (self.n0_le / self.n0) + self.pi1 * (self.n1_le / self.n1)

    @property
    def thresholds(self) -> FloatArray:
        """A threshold realising each line: the midpoint between consecutive distinct scores,
        ``-inf`` for line 0 (all predicted 1) and ``+inf`` for line ``m`` (all predicted 0).
        Where the midpoint is not strictly between the two (adjacent doubles, as
        probabilities near 1, round it onto the upper score, which it then predicts 0 too;
        scores near the float limit overflow it), the lower score, which realises the line."""
        lower, upper = self.scores[:-1], self.scores[1:]
        mid = self.midpoints[1:-1]
        return np.concatenate(([-np.inf], np.where((mid > lower) & (mid < upper), mid, lower),
                               [np.inf]))

    @property
    def midpoints(self) -> FloatArray:
        """``(u_j + u_(j+1)) / 2`` of consecutive distinct scores as floating point rounds it,
        ``-inf`` and ``+inf`` at the ends: the authors' thresholds, which are the
        :attr:`thresholds` but where two scores are adjacent doubles (the midpoint is then
        the upper score, and realises the next line)."""
        with np.errstate(over="ignore"):
            mid = (self.scores[:-1] + self.scores[1:]) / 2.0
        return np.concatenate(([-np.inf], mid, [np.inf]))

    def line_index(self, t: ArrayLike) -> NDArray[np.intp]:
        """Return the index of the line each threshold realises.

        Parameters
        ----------
        t : array-like
            Thresholds (class 1 predicted iff ``score > t``).

        Returns
        -------
        ndarray of int
            The number of distinct scores ``<= t``, the index of the line.
        """
        return np.searchsorted(self.scores, np.asarray(t, dtype=np.float64), side="right")

    def height(self, j: ArrayLike, c: ArrayLike) -> FloatArray:
        """Return the loss ``h_j(c)`` of lines ``j`` at cost proportions ``c``.

        Parameters
        ----------
        j : array-like of int
            Line indices, ``0..m``.
        c : array-like of float
            Cost proportions, broadcast against ``j``.

        Returns
        -------
        ndarray
            ``left[j] + (right[j] - left[j]) * c``.
        """
        j_arr = np.asarray(j)
        return self.left[j_arr] + self.slope[j_arr] * np.asarray(c, dtype=np.float64)

    @cached_property
    def pav_blocks(self) -> tuple[NDArray[np.intp], FloatArray]:
        """Pool-adjacent-violators calibration of the distinct scores.

        Returns ``(ends, values)``: block ``b`` covers distinct scores ``ends[b-1]..ends[b]-1``
        (``ends`` holds line indices, last = ``m``) and ``values[b]`` is its calibrated
        probability of class 1, strictly increasing. Ties in score are pooled before PAV, so
        the result does not depend on the order of tied examples.
        """
        from scipy.optimize import isotonic_regression  # lazy: scipy.optimize is slow to import

        if self.prior is None:
            ones_le = self.n1_le
            all_le = self.n0_le + self.n1_le
        else:  # examples weighted by deployment / test proportion of their class
            ones_le = self.n1_le * (self.pi1 / self.n1)
            all_le = self.n0_le * (self.pi0 / self.n0) + ones_le
        totals = np.diff(all_le).astype(np.float64)
        ones = np.diff(ones_le).astype(np.float64)
        fit = isotonic_regression(ones / totals, weights=totals, increasing=True)
        starts = fit.blocks[:-1]
        ends = fit.blocks[1:]
        # each block's value from its counts: an exact ratio rather than a running average
        values = (ones_le[ends] - ones_le[starts]) / (all_le[ends] - all_le[starts])
        return ends.astype(np.intp), values.astype(np.float64)
