"""Threshold choice methods as piecewise selections of cost lines.

A threshold choice method maps a presumed cost proportion ``c_hat`` to a threshold, i.e. to
one of the cost lines of the test scores (or, for rate-driven, to an interpolation between two
adjacent lines). Because the selected line changes only at finitely many ``c_hat`` (Lemma 1 /
Theorem 1 of Ferri et al. 2019), every method is represented by a :class:`Selection`: break
points ``x_1 <= ... <= x_{S-1}`` in ``c_hat`` and, on each segment ``s``, a loss of the form

``loss(c_hat, c) = a00 + a10 * c + (a01 + a11 * c) * phi(c_hat)``

where ``phi`` is the method's *input map* (the identity unless stated: the skew variants use
the cost-to-skew map, the uncertainty-aware variants the posterior mean). Non-interpolating
methods have ``a01 = a11 = 0`` (``loss = h(c)``, the selected cost line); rate-driven
interpolates linearly in ``phi(c_hat)`` between two lines. The fixed methods (score-fixed,
rate-fixed) have a single segment: one threshold whatever ``c_hat``.

Conventions: class 1 is the class whose probability the scores estimate; a threshold ``t``
predicts 1 iff ``score > t``; cost lines are indexed as in :mod:`threshold_choice.costlines`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from threshold_choice._typing import FloatArray
from threshold_choice.cost_distributions import UNIFORM, CostDistribution, parse_cost_distribution
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError

Closed = Literal["left", "right"]
#: how the optimal methods compute line heights when they select at individual points
TieBreaking = Literal["project", "authors"]
TIE_BREAKING: tuple[str, ...] = ("project", "authors")

#: the method names accepted by :func:`make_selection` and the CLI, in display order
METHODS: tuple[str, ...] = (
    "test-optimal",
    "train-optimal",
    "score-driven",
    "rate-driven",
    "score-uniform",
    "rate-uniform",
    "score-driven-z",
    "rate-driven-z",
    "test-optimal-aware",
    "train-optimal-aware",
    "score-driven-aware",
    "score-fixed",
    "rate-fixed",
)
#: the four methods the paper evaluates (Sect. 4), in the order of its tables: the library's
#: default selection
PAPER_METHODS: tuple[str, ...] = METHODS[:4]
#: methods that read the scores as probabilities (they threshold at c_hat or a map of it), so
#: the scores must lie in [0, 1]; the others are rank-based and take any real scores
PROBABILITY_METHODS: tuple[str, ...] = tuple(m for m in METHODS if m.startswith("score-"))
#: methods that use one threshold whatever ``c_hat`` (paper 000, Sect. 3): a fixed score
#: threshold, or a fixed fraction of examples predicted 0
FIXED_METHODS: frozenset[str] = frozenset({"score-fixed", "rate-fixed"})
#: methods that select on the training scores
NEEDS_TRAIN: frozenset[str] = frozenset({"train-optimal", "train-optimal-aware"})
#: methods whose selection depends on gamma (they know the uncertainty)
GAMMA_AWARE: frozenset[str] = frozenset(m for m in METHODS if m.endswith("-aware"))



def probability_problem(scores: ArrayLike, methods: Sequence[str], what: str,
                        how: str = "") -> str | None:
    """Why ``methods`` cannot use ``scores``: ``None`` if the scores lie in [0, 1] or every
    method is rank-based, else a message naming the methods that read them as probabilities
    (``how``: where the rank-based methods are chosen, e.g. ``" with --method"``)."""
    values = np.asarray(scores, dtype=np.float64)
    if values.size == 0 or (values.min() >= 0.0 and values.max() <= 1.0):
        return None
    needy = [m for m in methods if m in PROBABILITY_METHODS]
    if not needy:
        return None
    rank_based = ", ".join(m for m in METHODS if m not in PROBABILITY_METHODS)
    return (
        f"{what} range from {values.min():g} to {values.max():g}, outside [0, 1]; "
        f"{', '.join(needy)} read(s) them as probabilities (estimates of P(class 1)): rescale "
        f"the scores into [0, 1] (e.g. calibrate them), or choose rank-based methods{how} "
        f"({rank_based}), which take any real scores"
    )


@dataclass(frozen=True)
class InputMap:
    """A non-decreasing map from ``c_hat`` to the quantity the method thresholds on."""

    name: str
    forward: Callable[[FloatArray], FloatArray]
    derivative: Callable[[FloatArray], FloatArray] | None = None


@dataclass(frozen=True)
class ArgminRule:
    """Line selection as the authors' code does it at a given input: the first line of lowest
    height ``x * (right - left) + left`` among ``select_left/right`` (scanning from the lowest
    threshold), whose loss is then the line ``eval_left + eval_slope * c``.

    Used when evaluating at individual points (grid and Monte Carlo estimators), so that exact
    ties between lines (e.g. at ``c = 0.5``) are broken as in the published numbers. Exact
    integrals do not need it: ties have probability zero.
    """

    select_left: FloatArray
    select_right: FloatArray
    eval_left: FloatArray
    eval_slope: FloatArray

    def loss(self, x: FloatArray, c: FloatArray, chunk: int = 200_000) -> FloatArray:
        j = self.select(x, chunk)
        return self.eval_left[j] + self.eval_slope[j] * c

    def select(self, x: FloatArray, chunk: int = 200_000) -> NDArray[np.intp]:
        """The line selected at each input ``x``: the first minimum of the heights as
        computed in floating point, ``x * slope + left``, over all lines (in memory for about
        ``chunk`` heights at a time). Lines that cannot be the minimum are skipped when that
        saves work (:func:`_candidate_argmin`), with the same result."""
        slope = self.select_right - self.select_left
        left = self.select_left
        out = np.empty(x.size, dtype=np.intp)
        # pieces whose block bounds (pieces / _BLOCK x lines) hold at most ``chunk`` numbers
        piece = max(4 * _BLOCK, chunk // max(1, slope.size) * _BLOCK)
        step = max(1, chunk // max(1, slope.size))
        for start in range(0, x.size, piece):
            xp = x[start : start + piece]
            fast = _candidate_argmin(xp, slope, left)
            if fast is not None:
                out[start : start + piece] = fast
                continue
            for lo in range(0, xp.size, step):
                heights = xp[lo : lo + step, None] * slope[None, :] + left[None, :]
                # first minimum = lowest threshold
                out[start + lo : start + lo + step] = np.argmin(heights, axis=1)
        return out


_BLOCK = 100  # inputs per block of the candidate search


def _candidate_argmin(
    x: FloatArray, slope: FloatArray, left: FloatArray
) -> NDArray[np.intp] | None:
    """``argmin(x[:, None] * slope + left, axis=1)`` bit for bit, computing the heights of
    candidate lines only; ``None`` when that would not save work (few lines or inputs) or
    cannot be decided (non-finite values).

    The sorted inputs are cut into blocks of ``_BLOCK``. On a block ``[xa, xb]`` a line's
    exact height lies between its heights at the ends, and each computed height is within
    ``d = 2u (|x| |slope| + |left|)`` of the exact one (two roundings, ``u = 2**-53``). So a
    line whose lower end minus ``2d`` exceeds ``min over lines of (upper end + 2d)`` is,
    as computed, above some other line at every input of the block and cannot be the first
    minimum: only the others are evaluated, in index order, with the same formula. (The
    margin is taken twice as wide, for the rounding of the bounds themselves.)"""
    n, m = x.size, slope.size
    if m < 64 or n < 2 * _BLOCK:
        return None
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(slope)) and np.all(np.isfinite(left))):
        return None
    order = np.argsort(x, kind="stable")
    xs = x[order]
    starts = np.arange(0, n, _BLOCK)
    xa, xb = xs[starts], xs[np.minimum(starts + _BLOCK, n) - 1]
    ha = xa[:, None] * slope[None, :] + left[None, :]
    hb = xb[:, None] * slope[None, :] + left[None, :]
    reach = np.maximum(np.abs(xa), np.abs(xb))[:, None] * np.abs(slope) + np.abs(left)
    margin = 8.0 * np.finfo(np.float64).eps * reach  # 4 d, d <= eps * reach
    with np.errstate(over="ignore"):  # a huge sentinel height may overflow: never a bound
        upper = np.min(np.maximum(ha, hb) + margin, axis=1)
        candidate = np.minimum(ha, hb) - margin <= upper[:, None]
    out = np.empty(n, dtype=np.intp)
    for block, start in enumerate(starts):  # a few blocks, each a dense array
        lines = np.flatnonzero(candidate[block])
        heights = xs[start : start + _BLOCK, None] * slope[lines] + left[lines]
        out[order[start : start + _BLOCK]] = lines[np.argmin(heights, axis=1)]
    return out


@dataclass(frozen=True)
class Selection:
    """A threshold choice method applied to one set of scores (see the module docstring).

    Attributes
    ----------
    method:
        The method's name.
    coef:
        ``(S, 4)`` array of ``a00, a10, a01, a11`` per segment.
    input_breaks:
        The ``S - 1`` break points in the method's input space (``phi(c_hat)``).
    breaks:
        The same break points in ``c_hat`` space (``phi^-1``; ``+-inf`` allowed).
    closed:
        ``'left'``: segments are ``[x_s, x_{s+1})``; ``'right'``: ``(x_s, x_{s+1}]``. Matters
        only when evaluating at a break point exactly.
    input_map:
        ``phi``; ``None`` is the identity.
    ignores_c_hat:
        The method draws its own uniform ``c_hat`` (score-uniform, rate-uniform): its expected
        loss is the ``gamma = 0`` one whatever ``gamma``.
    argmin:
        Optional tie-faithful point selection (see :class:`ArgminRule`).
    """

    method: str
    coef: FloatArray
    input_breaks: FloatArray
    breaks: FloatArray
    closed: Closed
    input_map: InputMap | None = None
    ignores_c_hat: bool = False
    argmin: ArgminRule | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.coef.shape != (self.breaks.size + 1, 4):
            raise ValueError("coef must have one row per segment (len(breaks) + 1) and 4 columns")

    @cached_property
    def interpolating(self) -> bool:
        return bool(np.any(self.coef[:, 2:] != 0))

    def inputs(self, c_hat: ArrayLike) -> FloatArray:
        x = np.asarray(c_hat, dtype=np.float64)
        return x if self.input_map is None else self.input_map.forward(x)

    def segment(self, c_hat: ArrayLike) -> NDArray[np.intp]:
        """Segment index selected at each ``c_hat`` (compared in input space)."""
        side: Literal["left", "right"] = "left" if self.closed == "right" else "right"
        return np.searchsorted(self.input_breaks, self.inputs(c_hat), side=side)

    def loss(self, c_hat: ArrayLike, c: ArrayLike) -> FloatArray:
        """Loss at true cost ``c`` when the method is given ``c_hat`` (broadcast)."""
        c_hat_arr, c_arr = np.broadcast_arrays(
            np.asarray(c_hat, dtype=np.float64), np.asarray(c, dtype=np.float64)
        )
        shape = c_arr.shape
        c_hat_flat, c_flat = c_hat_arr.ravel(), c_arr.ravel()
        x = self.inputs(c_hat_flat)
        if self.argmin is not None:
            return self.argmin.loss(x, c_flat).reshape(shape)
        a = self.coef[self.segment(c_hat_flat)]
        out = a[:, 0] + a[:, 1] * c_flat + (a[:, 2] + a[:, 3] * c_flat) * x
        return out.reshape(shape)


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
    if tie_breaking == "project":
        return lines.left, lines.right
    if tie_breaking != "authors":
        choices = ", ".join(TIE_BREAKING)
        raise UserError(f"tie_breaking must be one of {choices}, got {tie_breaking!r}")
    left = (lines.n1_le / lines.n1) * lines.pi1 * 2.0
    right = ((1.0 - lines.n0_le / lines.n0) * lines.pi0) * 2.0
    return left, right


def _test_line_argmin(
    select: CostLines,
    evaluate: CostLines,
    eval_idx: NDArray[np.intp],
    tie_breaking: TieBreaking = "project",
) -> ArgminRule:
    left, right = _selection_heights(select, tie_breaking)
    return ArgminRule(left, right, evaluate.left[eval_idx], evaluate.slope[eval_idx])


# -- the methods -----------------------------------------------------------------------------


def test_optimal(test: CostLines, *, tie_breaking: TieBreaking = "project") -> Selection:
    """Test-optimal: the lowest test cost line at ``c_hat`` (needs the test labels).
    ``tie_breaking``: see :func:`_selection_heights` (grid and Monte Carlo estimators only)."""
    idx, values = _optimal_lines(test)
    argmin = _test_line_argmin(test, test, np.arange(test.left.size), tie_breaking)
    coef = _step_coef(test.left[idx], test.slope[idx])
    return Selection("test-optimal", coef, values, values, "right", argmin=argmin)


def train_optimal(
    train: CostLines, test: CostLines, *, tie_breaking: TieBreaking = "project"
) -> Selection:
    """Train-optimal: the lowest *training* cost line at ``c_hat``; its threshold (midpoint
    between consecutive distinct training scores, ``-inf``/``+inf`` at the ends) is applied to
    the test scores. ``tie_breaking``: see :func:`_selection_heights` (grid and Monte Carlo
    estimators only)."""
    idx, values = _optimal_lines(train)
    test_idx = test.line_index(train.thresholds[idx])
    all_test_idx = test.line_index(train.thresholds)
    argmin = _test_line_argmin(train, test, all_test_idx, tie_breaking)
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
    if threshold_offset is None:
        a_idx = np.arange(r.size - 1)
        b_idx = a_idx + 1
    else:
        if not threshold_offset > 0.0:
            raise UserError(f"threshold_offset must be > 0 (or None), got {threshold_offset}")
        # line realised by the threshold u_k - delta, k = 1..m, then the all-0 line
        line_k = np.concatenate(
            (test.line_index(test.scores - threshold_offset), [test.scores.size])
        )
        a_idx, b_idx = line_k[:-1], line_k[1:]
    la, ka = test.left[a_idx], test.slope[a_idx]
    lb, kb = test.left[b_idx], test.slope[b_idx]
    coef = np.column_stack(
        [
            (hi * la - lo * lb) / width,
            (hi * ka - lo * kb) / width,
            (lb - la) / width,
            (kb - ka) / width,
        ]
    )
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
        return pi0 * pi1 / (c * pi0 + (1.0 - c) * pi1) ** 2

    def inverse(z: FloatArray) -> FloatArray:
        zc = np.clip(z, 0.0, 1.0)
        out = zc * pi1 / (zc * pi1 + (1.0 - zc) * pi0)
        return np.where(z < 0, -np.inf, np.where(z > 1, np.inf, out))

    return InputMap(f"skew(pi0={pi0:g})", forward, derivative), inverse


def with_input_map(
    sel: Selection, name: str, imap: InputMap, inverse: Callable[[FloatArray], FloatArray]
) -> Selection:
    """The method ``sel`` driven by ``phi(c_hat)`` instead of ``c_hat``."""
    return replace(sel, method=name, input_map=imap, breaks=inverse(sel.input_breaks))


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
    return replace(sel, method=name, ignores_c_hat=True)


def fixed(sel: Selection, c_hat: float, name: str) -> Selection:
    """``sel`` frozen at one presumed cost proportion ``c_hat``: the threshold it sets there,
    kept whatever the operating condition (a single segment; for an interpolating method the
    mixture of two lines it sets at ``c_hat``). Its expected loss is then the same at every
    gamma: ``integral Q(t; c) w(c) dc``, the error rate at ``t`` when ``E[c] = 1/2``
    (Theorem 5 and Corollary 6 of paper 000)."""
    x = float(sel.inputs(np.array([c_hat]))[0])
    a = sel.coef[int(sel.segment(np.array([c_hat]))[0])]
    coef = np.array([[a[0] + a[2] * x, a[1] + a[3] * x, 0.0, 0.0]])
    empty = np.empty(0)
    return Selection(name, coef, empty, empty, "left")


def score_fixed(test: CostLines, threshold: float) -> Selection:
    """Score-fixed: the fixed threshold ``t`` (predict 1 iff ``score > t``) whatever
    ``c_hat``: score-driven frozen at ``c_hat = t`` (paper 000, Definition 4)."""
    _check_unit("the fixed threshold", threshold)
    return fixed(score_driven(test), threshold, "score-fixed")


def rate_fixed(
    test: CostLines, rate: float, *, threshold_offset: float | None = None
) -> Selection:
    """Rate-fixed: predict class 0 for the fixed fraction ``rate`` of the test examples
    whatever ``c_hat`` (interpolating as :func:`rate_driven` where that rate is not
    attainable): rate-driven frozen at ``c_hat = rate`` (paper 000, Definition 7)."""
    _check_unit("the fixed rate", rate)
    return fixed(rate_driven(test, threshold_offset=threshold_offset), rate, "rate-fixed")


def _check_unit(what: str, value: float) -> None:
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
    from threshold_choice.uncertainty import certainty_limit, moment_table

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
            out[i] = replace(sels[i], method=f"{sels[i].method}-aware", input_map=imap,
                             breaks=breaks[end - part.size : end])
    return out


def make_selection(
    method: str,
    test: CostLines,
    *,
    train: CostLines | None = None,
    gamma: float | None = None,
    skew_pi0: float | None = None,
    rate_threshold_offset: float | None = None,
    tie_breaking: TieBreaking = "project",
    distribution: CostDistribution | str = UNIFORM,
    fixed_threshold: float | None = None,
    fixed_rate: float | None = None,
) -> Selection:
    """Build the :class:`Selection` of ``method`` (one of :data:`METHODS`).

    ``train`` is required by the train-optimal methods; ``gamma`` by the ``*-aware`` methods;
    ``skew_pi0`` (class-0 proportion for the cost-to-skew map) defaults to the training
    proportion when ``train`` is given (as the authors did) and to the test one otherwise.
    ``rate_threshold_offset`` is passed to :func:`rate_driven` (the rate-based methods:
    rate-driven, rate-uniform, rate-driven-z); ``tie_breaking`` to :func:`test_optimal` and
    :func:`train_optimal` (and their aware variants); ``distribution`` (the belief about the
    true cost) is the prior of the ``*-aware`` methods' posterior mean.
    ``fixed_threshold`` / ``fixed_rate``: the threshold of score-fixed and the predicted-0
    rate of rate-fixed; ``None`` (default) takes the mean ``E[c]`` of ``distribution`` (1/2
    for the paper's uniform: paper 000's ``t = 0.5``), the single threshold score-driven-aware
    sets at ``gamma = 0``.
    """
    if method not in METHODS:
        raise UserError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    if method in NEEDS_TRAIN and train is None:
        raise UserError(f"method {method} selects on training scores: give the training scores")
    if method in GAMMA_AWARE and gamma is None:
        raise UserError(f"method {method} needs the certainty gamma")
    if skew_pi0 is None:
        skew_pi0 = (train if train is not None else test).pi0
    if method in FIXED_METHODS:
        mean = parse_cost_distribution(distribution).mean
        if method == "score-fixed":
            return score_fixed(test, mean if fixed_threshold is None else fixed_threshold)
        return rate_fixed(test, mean if fixed_rate is None else fixed_rate,
                          threshold_offset=rate_threshold_offset)
    base = method.removesuffix("-aware")
    if base == "test-optimal":
        sel = test_optimal(test, tie_breaking=tie_breaking)
    elif base == "train-optimal":
        assert train is not None
        sel = train_optimal(train, test, tie_breaking=tie_breaking)
    elif base == "score-driven":
        sel = score_driven(test)
    elif base == "rate-driven":
        sel = rate_driven(test, threshold_offset=rate_threshold_offset)
    elif base == "score-uniform":
        sel = uniform(score_driven(test), base)
    elif base == "rate-uniform":
        sel = uniform(rate_driven(test, threshold_offset=rate_threshold_offset), base)
    elif base == "score-driven-z":
        sel = score_driven_z(test, skew_pi0)
    else:
        sel = rate_driven_z(test, skew_pi0, threshold_offset=rate_threshold_offset)
    if method in GAMMA_AWARE:
        assert gamma is not None
        sel = uncertainty_aware(sel, gamma, distribution)
    return sel
