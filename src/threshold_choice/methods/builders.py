"""The threshold choice methods of papers ``000_...`` and ``003_...``, each a function
from cost lines to a :class:`~threshold_choice.methods.selection.Selection`.

Conventions: class 1 is the class whose probability the scores estimate; a threshold ``t``
predicts 1 iff ``score > t``; cost lines are indexed as in :mod:`threshold_choice.costlines`.
The registry that names them (and says what each needs) is
:mod:`threshold_choice.methods.specs`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from threshold_choice._typing import FloatArray
from threshold_choice.cost_distributions import UNIFORM, CostDistribution, parse_cost_distribution
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.methods.selection import ArgminRule, InputMap, Selection

#: how the optimal methods compute line heights when they select at individual points
TieBreaking = Literal["project", "authors"]
TIE_BREAKING: tuple[str, ...] = ("project", "authors")


# -- the cost-line building blocks ---------------------------------------------------------


def _step_coef(left: FloatArray, slope: FloatArray) -> FloatArray:
    coef = np.zeros((left.size, 4))
    coef[:, 0] = left
    coef[:, 1] = slope
    return coef


def _optimal_lines(lines: CostLines) -> tuple[NDArray[np.intp], FloatArray]:
    """Lines of the lower envelope and the costs where they take over.

    The envelope of the cost lines is the cost curve of the PAV-calibrated scores: block ``b``
    of the calibration (probability ``p_b`` of class 1) is predicted 0 exactly when
    ``c > p_b``. So segment ``s`` (``c`` in ``(p_{s-1}, p_s]``) uses the line that predicts 0
    for the first ``s`` blocks; at a tie the lower threshold wins.
    """
    ends, values = lines.pav_blocks
    line_idx = np.concatenate(([0], ends)).astype(np.intp)
    return line_idx, values


def _selection_heights(
    lines: CostLines, tie_breaking: TieBreaking
) -> tuple[FloatArray, FloatArray]:
    """Line heights at ``c = 0`` and ``c = 1`` as the point selection computes them.

    ``"project"``: ``2 * n1_le / n`` and ``2 * (n0 - n0_le) / n``. ``"authors"``: the same
    numbers in the floating-point arithmetic of the authors' R code,
    ``(F1 / n1) * pi1 * 2`` and ``((1 - F0 / n0) * pi0) * 2``. They differ only by rounding,
    which decides between lines that tie exactly at a grid point ``c = i / 1000`` (e.g. two
    training lines crossing at ``c = 0.5``): the choice then changes the train-optimal loss
    on the test set, and the published ``sc_vs_tr`` shares count such runs.
    """
    if _check_tie_breaking(tie_breaking) == "project":
        return lines.left, lines.right
    left = (lines.n1_le / lines.n1) * lines.pi1 * 2.0
    right = ((1.0 - lines.n0_le / lines.n0) * lines.pi0) * 2.0
    return left, right


def _thresholds(lines: CostLines, tie_breaking: TieBreaking) -> FloatArray:
    """The thresholds of ``lines`` that train-optimal applies to the test scores:
    ``"project"``, each realising its line (:attr:`CostLines.thresholds`); ``"authors"``, the
    midpoints as the authors' arithmetic rounds them (:attr:`CostLines.midpoints`: onto the
    upper score where two training scores are adjacent doubles)."""
    return lines.thresholds if _check_tie_breaking(tie_breaking) == "project" else lines.midpoints


def _check_tie_breaking(tie_breaking: TieBreaking) -> TieBreaking:
    if tie_breaking not in TIE_BREAKING:
        choices = ", ".join(TIE_BREAKING)
        raise UserError(f"tie_breaking must be one of {choices}, got {tie_breaking!r}")
    return tie_breaking


def _test_line_argmin(
    select: CostLines, evaluate: CostLines, tie_breaking: TieBreaking = "project"
) -> ArgminRule:
    """The point selection among the lines of ``select`` (heights as ``tie_breaking`` computes
    them), each evaluated as the test line (of ``evaluate``) its threshold realises: the line
    itself when ``select`` is ``evaluate``. Deferred (:meth:`ArgminRule.deferred`): only the
    grid and Monte Carlo estimators use it."""
    _check_tie_breaking(tie_breaking)  # now, not at first use
    return ArgminRule.deferred(partial(_test_line_rule, select, evaluate, tie_breaking))


def _test_line_rule(
    select: CostLines, evaluate: CostLines, tie_breaking: TieBreaking
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    left, right = _selection_heights(select, tie_breaking)
    if select is evaluate:
        return left, right, evaluate.left, evaluate.slope
    eval_idx = evaluate.line_index(_thresholds(select, tie_breaking))
    return left, right, evaluate.left[eval_idx], evaluate.slope[eval_idx]


# -- the methods -----------------------------------------------------------------------------


def test_optimal(test: CostLines, *, tie_breaking: TieBreaking = "project") -> Selection:
    """Test-optimal: the lowest test cost line at ``c_hat`` (needs the test labels).
    ``tie_breaking``: see :func:`_selection_heights` (grid and Monte Carlo estimators only)."""
    idx, values = _optimal_lines(test)
    argmin = _test_line_argmin(test, test, tie_breaking)
    coef = _step_coef(test.left[idx], test.slope[idx])
    return Selection("test-optimal", coef, values, values, "right", argmin=argmin)


def train_optimal(
    train: CostLines, test: CostLines, *, tie_breaking: TieBreaking = "project"
) -> Selection:
    """Train-optimal: the lowest *training* cost line at ``c_hat``; its threshold (midpoint
    between consecutive distinct training scores, ``-inf``/``+inf`` at the ends) is applied to
    the test scores. ``tie_breaking``: see :func:`_selection_heights` (grid and Monte Carlo
    estimators only) and :func:`_thresholds` (every estimator)."""
    idx, values = _optimal_lines(train)
    test_idx = test.line_index(_thresholds(train, tie_breaking)[idx])
    argmin = _test_line_argmin(train, test, tie_breaking)
    coef = _step_coef(test.left[test_idx], test.slope[test_idx])
    return Selection("train-optimal", coef, values, values, "right", argmin=argmin)


def score_driven(test: CostLines) -> Selection:
    """Score-driven: threshold ``t = c_hat`` (predict 1 iff ``score > c_hat``)."""
    coef = _step_coef(test.left, test.slope)
    return Selection("score-driven", coef, test.scores, test.scores, "left")


def rate_driven(test: CostLines, *, threshold_offset: float | None = None) -> Selection:
    """Rate-driven: predict class 0 for a fraction ``c_hat`` of the test examples,
    interpolating between the two adjacent cost lines when ties or the finite sample make
    that rate unattainable (``p`` = weight of the line predicting fewer 0s).

    ``threshold_offset``: ``None`` (default) interpolates between the adjacent lines ``j`` and
    ``j + 1`` on ``[r_j, r_{j+1})``. A number ``delta > 0`` reproduces the authors' code, which
    realises the line predicting 0 for the scores below the distinct score ``u_k`` with the
    threshold ``u_k - delta`` (their ``delta`` was ``1e-7``; the line predicting everything 0
    with a threshold above all scores): distinct scores closer than ``delta`` below ``u_k``
    are then predicted 1 as well, so on segment ``j`` the interpolated lines can predict fewer
    0s than the rate ``c_hat`` (the workflow's default; it moves the published rate-driven losses
    by up to 0.009 on datasets with near-0/1 probabilities).
    """
    r = test.rates
    lo, hi = r[:-1], r[1:]  # segment j spans [r_j, r_{j+1}) between lines a_j and b_j
    width = hi - lo
    a_idx: slice | NDArray[np.intp] = slice(0, r.size - 1)
    b_idx: slice | NDArray[np.intp] = slice(1, r.size)
    if threshold_offset is not None:
        if not threshold_offset > 0.0:
            raise UserError(f"threshold_offset must be > 0 (or None), got {threshold_offset}")
        # line realised by the threshold u_k - delta, k = 1..m, then the all-0 line
        line_k = np.concatenate(
            (test.line_index(test.scores - threshold_offset), [test.scores.size])
        )
        a_idx, b_idx = line_k[:-1], line_k[1:]
    left, slope = test.left, test.slope
    # the interpolation weights, column by column in place (a few arrays of n at a time):
    # a00, a10 = (hi * line_a - lo * line_b) / width; a01, a11 = (line_b - line_a) / width
    coef = np.empty((r.size - 1, 4))
    # F-cost lines (threshold_choice.fmeasure) are infinite where TP = 0: a segment next to one
    # gets inf - inf or 0 * inf, a NaN coefficient, which expected_f_loss reads as infinite (the
    # infinite line has positive weight on the segment); expected there, so not warned of
    with np.errstate(invalid="ignore"):
        for col, heights in enumerate((left, slope)):
            line_a, line_b = heights[a_idx], heights[b_idx]
            out = coef[:, col]
            np.multiply(hi, line_a, out=out)
            out -= lo * line_b
            out /= width
            out = coef[:, col + 2]
            np.subtract(line_b, line_a, out=out)
            out /= width
            del line_a, line_b
    breaks = r[1:-1]
    return Selection("rate-driven", coef, breaks, breaks, "left")


def skew_map(pi0: float) -> tuple[InputMap, Callable[[FloatArray], FloatArray]]:
    """The cost-to-skew map ``z = c*pi0 / (c*pi0 + (1 - c)*pi1)`` and its inverse."""
    if not 0.0 < pi0 < 1.0:
        raise UserError(
            f"the class-0 proportion for the skew variants must be in (0, 1), got {pi0}"
        )
    pi1 = 1.0 - pi0

    def forward(c: FloatArray) -> FloatArray:
        return c * pi0 / (c * pi0 + (1.0 - c) * pi1)

    def derivative(c: FloatArray) -> FloatArray:
        # pi0 pi1 / (c pi0 + (1 - c) pi1)**2, with fewer temporaries (the skew variants'
        # quadrature nodes: 4 per segment)
        out = c * pi0
        rest = 1.0 - c
        rest *= pi1
        out += rest
        out **= 2
        return pi0 * pi1 / out

    def inverse(z: FloatArray) -> FloatArray:
        # zc * pi1 / (zc * pi1 + (1 - zc) * pi0), in place (three arrays of z's size at most)
        z_arr = np.asarray(z, dtype=np.float64)
        flat = z_arr.reshape(-1)
        zc = np.clip(flat, 0.0, 1.0)
        out = zc * pi1
        np.subtract(1.0, zc, out=zc)
        zc *= pi0
        zc += out
        out /= zc
        del zc
        out[flat < 0] = -np.inf
        out[flat > 1] = np.inf
        return out.reshape(z_arr.shape)

    return InputMap(f"skew(pi0={pi0:g})", forward, derivative), inverse


def with_input_map(
    sel: Selection, name: str, imap: InputMap, inverse: Callable[[FloatArray], FloatArray]
) -> Selection:
    """The method ``sel`` driven by ``phi(c_hat)`` instead of ``c_hat``."""
    return sel.derive(method=name, input_map=imap, breaks=inverse(sel.input_breaks))


def score_driven_z(test: CostLines, pi0: float) -> Selection:
    """Score-driven on the skew: ``t = z(c_hat)`` (``pi0``: class-0 proportion, the authors
    used the training one)."""
    imap, inverse = skew_map(pi0)
    return with_input_map(score_driven(test), "score-driven-z", imap, inverse)


def rate_driven_z(
    test: CostLines, pi0: float, *, threshold_offset: float | None = None
) -> Selection:
    """Rate-driven on the skew: predicted-0 rate ``z(c_hat)`` (``threshold_offset``: see
    :func:`rate_driven`)."""
    imap, inverse = skew_map(pi0)
    sel = rate_driven(test, threshold_offset=threshold_offset)
    return with_input_map(sel, "rate-driven-z", imap, inverse)


def uniform(sel: Selection, name: str) -> Selection:
    """The ``*-uniform`` method: ``sel`` given a uniform random ``c_hat``, ignoring ``c``."""
    return sel.derive(method=name, ignores_c_hat=True)


def instance_cut_lines(lines: CostLines) -> tuple[FloatArray, FloatArray]:
    """Heights at ``c = 0`` and ``c = 1`` of the line of each instance cut ``k = 0..n``
    (``k`` examples predicted 0, the lowest scores), mixing the adjacent lines where ties make
    ``k`` unattainable (in proportion to the tied examples it takes)."""
    counts = lines.n0_le + lines.n1_le  # examples predicted 0 by each line, increasing
    k = np.arange(lines.n + 1)
    # the last line with counts[a] <= k: line j for the cuts counts[j] .. counts[j + 1] - 1
    # (each line predicts at least one more example 0 than the one before), line m for n;
    # the search's answer without searching
    a = np.repeat(np.arange(counts.size), np.diff(counts, append=lines.n + 1))
    b = np.minimum(a + 1, counts.size - 1)
    width = (counts[b] - counts[a]).astype(np.float64)
    p = np.divide(k - counts[a], width, out=np.zeros(k.size), where=width > 0)
    with np.errstate(invalid="ignore"):  # 0 * inf: the f-measure's lines can be infinite
        left = (1.0 - p) * lines.left[a] + p * lines.left[b]
        right = (1.0 - p) * lines.right[a] + p * lines.right[b]
    # an attainable cut is its line (the same bits as the mixture of finite heights)
    return np.where(p == 0, lines.left[a], left), np.where(p == 0, lines.right[a], right)


def instance_uniform(test: CostLines) -> Selection:
    """Paper 000's finite-``n`` rate-uniform (instance-uniform): one of the ``n + 1`` instance
    cuts drawn uniformly, whatever ``c_hat``. As a selection: cut ``k`` on ``c_hat`` in
    ``[k/(n+1), (k+1)/(n+1))``, given a uniform ``c_hat`` (it ignores ``c``). Its expected loss
    under a uniform ``c`` is the mean over the cuts of their lines' mean heights, which
    differs from rate-uniform's (a uniform rate on ``[0, 1]``) at finite ``n``."""
    left, right = instance_cut_lines(test)
    coef = np.zeros((left.size, 4))
    coef[:, 0] = left
    with np.errstate(invalid="ignore"):  # inf - inf: a cut of infinite f-measure loss
        coef[:, 1] = right - left
    breaks = np.arange(1, left.size, dtype=np.float64) / left.size
    return Selection("instance-uniform", coef, breaks, breaks, "left", ignores_c_hat=True)


def fixed(sel: Selection, c_hat: float, name: str, *, what: str = "c_hat") -> Selection:
    """``sel`` frozen at one presumed cost proportion ``c_hat``: the threshold it sets there,
    kept whatever the operating condition (a single segment; for an interpolating method the
    mixture of two lines it sets at ``c_hat``). Its expected loss is then the same at every
    gamma: ``integral Q(t; c) w(c) dc``, the error rate at ``t`` when ``E[c] = 1/2``
    (Theorem 5 and Corollary 6 of paper 000). ``what``: how an error names ``c_hat``, which
    must be in [0, 1]."""
    check_unit(what, c_hat)
    x = float(sel.inputs(np.array([c_hat]))[0])
    a = sel.coef[int(sel.segment(np.array([c_hat]))[0])]
    # an interpolated segment next to an infinite F-cost line has infinite or NaN coefficients
    # (rate_driven): inf - inf or 0 * inf here is NaN, which expected_f_loss reads as infinite,
    # as on the segment (expected, so not warned of; at a rate of exactly 1 the infinite line's
    # weight is 0, yet it is read as infinite too: numbers as before this errstate)
    with np.errstate(invalid="ignore"):
        coef = np.array([[a[0] + a[2] * x, a[1] + a[3] * x, 0.0, 0.0]])
    empty = np.empty(0)
    return Selection(name, coef, empty, empty, "left")


def score_fixed(test: CostLines, threshold: float) -> Selection:
    """Score-fixed: the fixed threshold ``t`` (predict 1 iff ``score > t``) whatever
    ``c_hat``: score-driven frozen at ``c_hat = t`` (paper 000, Definition 4)."""
    check_unit("the fixed threshold", threshold)  # before building score-driven
    return fixed(score_driven(test), threshold, "score-fixed", what="the fixed threshold")


def rate_fixed(
    test: CostLines, rate: float, *, threshold_offset: float | None = None
) -> Selection:
    """Rate-fixed: predict class 0 for the fixed fraction ``rate`` of the test examples
    whatever ``c_hat`` (interpolating as :func:`rate_driven` where that rate is not
    attainable): rate-driven frozen at ``c_hat = rate`` (paper 000, Definition 7)."""
    check_unit("the fixed rate", rate)  # before building rate-driven
    return fixed(rate_driven(test, threshold_offset=threshold_offset), rate, "rate-fixed",
                 what="the fixed rate")


def check_unit(what: str, value: float) -> None:
    """A :class:`UserError` unless ``value`` is a number in [0, 1] (``what`` names it)."""
    if not (isinstance(value, int | float | np.integer | np.floating) and 0.0 <= value <= 1.0):
        raise UserError(f"{what} must be a number in [0, 1], got {value!r}")


def uncertainty_aware(
    sel: Selection, gamma: float, distribution: CostDistribution | str = UNIFORM
) -> Selection:
    """The uncertainty-aware variant of a non-interpolating method.

    Knowing the certainty ``gamma`` and the belief ``distribution`` about the true cost, the
    method is given the posterior mean ``m(c_hat) = E[c | c_hat]`` (prior ``w`` on ``c``,
    uniform by default, ``c_hat | c ~ Beta(gamma*c + 1, gamma*(1 - c) + 1)``) instead of
    ``c_hat``.

    Derivation: whatever line ``h(c) = l + k*c`` is chosen after seeing ``c_hat``, its
    expected loss given ``c_hat`` is ``E[l + k*c | c_hat] = h(m(c_hat))`` because the loss is
    linear in ``c``. Choosing the line the method would choose at ``m(c_hat)`` therefore
    minimises the posterior expected loss over the method's lines whenever the method picks
    the lowest line at its input (test-optimal exactly; train-optimal on the training lines;
    score-driven on perfectly calibrated scores). Averaging over ``c_hat`` and ``c``, it is
    never worse than the plain method for test-optimal. ``m`` increases with ``c_hat``
    (monotone likelihood ratio), so the method stays piecewise: its break points are
    ``m^-1`` of the original ones. At ``gamma = inf``, ``m(c_hat) = c_hat``; at ``gamma = 0``,
    ``m = E[c]`` (1/2 for the uniform) and the method uses a single fixed threshold.
    """
    return uncertainty_aware_many([sel], gamma, distribution)[0]


def uncertainty_aware_many(
    sels: Sequence[Selection], gamma: float, distribution: CostDistribution | str = UNIFORM
) -> list[Selection]:
    """:func:`uncertainty_aware` of each selection, with one posterior-mean inversion for the
    breaks of all the selections closed on the same side (it works point by point, so each
    selection's breaks are those it gets alone)."""
    from threshold_choice.moment_tables import moment_table
    from threshold_choice.uncertainty import certainty_limit

    for sel in sels:
        if sel.interpolating or sel.input_map is not None:
            raise UserError(
                f"the uncertainty-aware variant is defined for plain step methods, not {sel.method}"
            )
    distribution = parse_cost_distribution(distribution)
    if gamma >= certainty_limit(distribution):
        gamma = float("inf")  # as the exact estimator does: m(c_hat) = c_hat
    table = moment_table(gamma, None, distribution)
    imap = InputMap(f"posterior-mean(gamma={gamma:g})", table.posterior_mean)
    out = list(sels)
    for closed in dict.fromkeys(sel.closed for sel in sels):
        where = [i for i, sel in enumerate(sels) if sel.closed == closed]
        parts = [sels[i].input_breaks for i in where]
        breaks = table.posterior_mean_inverse(np.concatenate(parts), closed=closed)
        ends = np.cumsum([part.size for part in parts])
        for i, end, part in zip(where, ends, parts, strict=True):
            out[i] = sels[i].derive(method=f"{sels[i].method}-aware", input_map=imap,
                                    breaks=breaks[end - part.size : end])
    return out


__all__ = [
    "TIE_BREAKING",
    "TieBreaking",
    "fixed",
    "rate_driven",
    "rate_driven_z",
    "rate_fixed",
    "score_driven",
    "score_driven_z",
    "score_fixed",
    "skew_map",
    "test_optimal",
    "train_optimal",
    "uncertainty_aware",
    "uncertainty_aware_many",
    "uniform",
    "with_input_map",
]
